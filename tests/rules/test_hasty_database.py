"""The Hasty card database: the game check proves each set's counts and make-up, and every printed text is
what the engine does; broken copies are refused with the place and the fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.rules.cards import CARDS_DIR, in_sets, load_database, read_database
from casebook.rules.games import hasty as h
from casebook.rules.problems import Problems


@pytest.fixture(scope="module")
def db():
    return load_database("hasty")


def test_each_set_is_a_whole_deck_with_every_kind(db):
    assert list(db.sets) == ["base", "advanced", "expert"] and db.default_sets == ("base",)
    for set_id, card_set in db.sets.items():
        cards = db.set_cards(set_id)
        assert sum(c.copies for c in cards) == card_set.count == len(h.deck_cards(db, [set_id]))
        assert len(cards) >= 12
        kinds = {c["kind"] for c in cards}
        assert {"kill", "protect", "pile", "review", "information", "order"} <= kinds
        per_kind = {k: sum(c.copies for c in cards if c["kind"] == k) for k in kinds}
        assert per_kind["kill"] == max(per_kind.values())
        assert all(c.designed for c in cards)


def test_suspects_mix_death_and_play_powers_and_are_our_own(db):
    suspects = db.components["suspects"].cards
    triggers = [c["power"]["trigger"] for c in suspects]
    assert len(suspects) >= 10 and triggers.count("death") == triggers.count("play")
    banned = {"mustard", "scarlet", "plum", "peacock", "green", "white", "orchid", "poirot", "marple"}
    assert not any(word in c["name"].lower() for c in suspects for word in banned)
    assert all(c["power"]["text"] == h.power_text(dict(c["power"])) for c in suspects)


def test_components_without_sets_print_for_every_set(db):
    assert db.components["suspects"].sets == () and in_sets((), ["expert"])
    assert in_sets(("base",), ["base", "expert"]) and not in_sets(("advanced",), ["base"])


def broken(tmp_path: Path, file: str, find: str, replace: str) -> Problems:
    shutil.copytree(CARDS_DIR / "hasty", tmp_path / "hasty")
    path = tmp_path / "hasty" / file
    text = path.read_text()
    assert text.count(find) == 1, find
    path.write_text(text.replace(find, replace))
    problems = Problems()
    read_database("hasty", tmp_path, problems)
    return problems


@pytest.mark.parametrize(("file", "find", "replace", "expect"), [
    ("actions.yaml", "effect: {op: murder, copies: 1}\n    text: \"Murder: this suspect dies, unless protected.\"\n"
     "    copies: 7", "effect: {op: murder, copies: 1}\n    text: \"Murder: this suspect dies.\"\n    copies: 7",
     "the text does not say what the effect does"),
    ("actions.yaml", "id: second_look\n    sets: [base]\n    name: Second Look\n    kind: review\n"
     "    restriction: none\n    effect: {op: flip_under}", "id: second_look\n    sets: [base]\n    name: Second Look\n"
     "    kind: review\n    restriction: none\n    effect: {op: flip_under, count: 2}", "'flip_under' takes no 'count'"),
    ("actions.yaml", "{op: discard_under, count: 1}", "{op: shred}", "unknown effect op 'shred'"),
    ("actions.yaml", "id: letter_opener\n    sets: [base]", "id: letter_opener\n    sets: [basic]",
     "unknown card set 'basic'"),
    ("game.yaml", "{id: base, name: Base set, default: true, count: 47}",
     "{id: base, name: Base set, default: true, count: 48}", "card set 'base' prints 47 cards but the count is 48"),
    ("suspects.yaml", "power: {trigger: death, op: reverse_turns,", "power: {trigger: death, op: loupe_step,",
     "power 'loupe_step' on 'death' is unknown"),
])
def test_broken_databases_are_refused_with_the_place(tmp_path, file, find, replace, expect):
    problems = broken(tmp_path, file, find, replace)
    text = problems.format()
    assert expect in text, text
    assert f"hasty/{file}:" in text or "game.yaml:" in text, text


def test_a_set_without_a_kill_majority_is_refused(tmp_path):
    (tmp_path / "counts").mkdir()
    broken(tmp_path / "counts", "actions.yaml", "    copies: 5\n    designed: true\n  - id: family_lawyer",
           "    copies: 16\n    designed: true\n  - id: family_lawyer")
    game = tmp_path / "counts" / "hasty" / "game.yaml"
    game.write_text(game.read_text().replace("count: 47}", "count: 58}").replace("count: 139", "count: 150"))
    problems = Problems()
    read_database("hasty", tmp_path / "counts", problems)
    assert "kill cards (15) are not the most numerous kind" in problems.format()
