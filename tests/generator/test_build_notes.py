"""Every setting a build changes by itself is said as a note; none is changed silently."""

from __future__ import annotations

import pytest

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game, plans_for
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems


@pytest.mark.parametrize("game", game_folders())
def test_the_outer_bleed_is_never_narrowed_on_either_paper(game):
    """The issue's A4 case (3.175 mm narrowed to 2.5 mm without a word) cannot come back unnoticed."""
    opts = BuildOptions()
    problems = Problems()
    composed = compose_game(game, opts, problems)
    assert composed is not None, problems.format()
    for paper in opts.papers:
        for size_id, plan in plans_for(composed, paper, opts, problems).items():
            assert plan.bleed == composed.lib.settings.bleed, (game, paper, size_id)
            bx0, by0, bx1, by1 = plan.block()  # the whole bleed, short only of the margin the printer leaves blank
            rooms = (bx0, by0, plan.paper_w - bx1, plan.paper_h - by1)
            assert plan.outer == tuple(min(plan.bleed, r - plan.margin) for r in rooms), (game, paper, size_id)
            assert plan.outer == (plan.bleed,) * 4 or any("stops at the" in n for n in plan.notes)
            assert sorted(plan.for_backs().outer) == sorted(plan.outer)  # the backs mirror, never narrow


def _notes(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("note: ")]


def test_the_normal_way_of_printing_on_either_paper_is_not_a_note(capsys, tmp_path):
    """Letter's marks over the bleed, a landscape fold sheet, pairs spaced twice the bleed: said by no build."""
    assert main(["build", "graves", "syndicate", "--out", str(tmp_path), "--fold"]) == 0
    captured = capsys.readouterr()
    assert _notes(captured.out) == [] and "note:" not in captured.err


def test_what_a_setting_changed_is_said_once_per_build_not_per_game(capsys, tmp_path):
    opts = BuildOptions(papers=("letter",), gutter=3.0)
    problems = Problems()
    composed = compose_game("syndicate", opts, problems)
    assert composed is not None
    normal = {n for plan in plans_for(composed, "letter", BuildOptions(papers=("letter",)), problems).values()
              for n in plan.notes}
    changed = [n for plan in plans_for(composed, "letter", opts, problems).values() for n in plan.notes
               if n not in normal]
    assert changed  # a 3 mm gutter turns the poker sheets to landscape
    assert main(["build", "graves", "syndicate", "--paper", "letter", "--gutter", "3", "--out", str(tmp_path)]) == 0
    notes = _notes(capsys.readouterr().out)
    assert len(notes) == len(set(notes))  # two games with the same sheets: each note once
    for note in changed:
        assert f"note: letter, poker cards: {note}" in notes
    assert not any(n.removeprefix("note: letter, poker cards: ") in normal for n in notes)


def test_no_labels_spends_nothing_on_label_room(tmp_path, capsys):
    opts = BuildOptions(papers=("a4",))
    problems = Problems()
    composed = compose_game("pi", opts, problems)
    assert composed is not None
    labelled = plans_for(composed, "a4", opts, problems)
    bare = plans_for(composed, "a4", BuildOptions(papers=("a4",), labels=False), problems)
    for size_id, plan in labelled.items():
        assert bare[size_id].per_sheet >= plan.per_sheet
        assert not any("label" in n for n in bare[size_id].notes), size_id
        assert bare[size_id].reserve == (0.0,) * 4


def test_fold_and_glue_says_the_spacing_only_when_a_gutter_was_asked_for(tmp_path, capsys):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--fold", "--gutter", "3"]) == 0
    notes = _notes(capsys.readouterr().out)
    assert ("note: a4, fold-and-glue pairs: spaced 6 mm apart (twice the bleed) instead of the gutter of 3 mm, "
            "so that each pair is cut out with its own bleed") in notes
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--fold", "--gutter", "8"]) == 0
    assert "spaced" not in capsys.readouterr().out  # a gutter wider than two bleeds is kept as given


def test_a_print_service_says_the_bleed_only_when_it_differs_from_the_one_asked_for(tmp_path, capsys):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--service", "tgc"]) == 0
    assert _notes(capsys.readouterr().out) == []  # the default bleed widened to theirs: the service's normal way
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--service", "tgc", "--bleed", "2"]) == 0
    out = capsys.readouterr().out
    assert "note: The Game Crafter, poker cards: composed with a 3.3 mm bleed instead of 2 mm" in out


def test_each_service_says_what_it_counted(tmp_path, capsys):
    """One card set: so many cards; as front and back images (TGC) or as PDF pages (DriveThruCards)."""
    import re

    from casebook.rules.cards import load_database

    db = load_database("graves")
    cards = sum(c.printed for c in db.components.values() if c.size in ("poker", "large"))
    assert main(["build", "graves", "--paper", "a4", "--out", str(tmp_path), "--service", "tgc",
                 "--service", "drivethru"]) == 0
    out = capsys.readouterr().out
    tgc = re.search(r"tgc/ \((\d+) cards: (\d+) front images, one a printed card, \+ (\d+) back images?\)", out)
    dtc = re.search(r"drivethru/ \((\d+) cards: (\d+) PDFs? of (\d+) pages, a face and a back each\)", out)
    assert tgc and dtc, out
    assert int(tgc[1]) == int(tgc[2]) == int(dtc[1]) == cards
    pngs = list((tmp_path / "graves" / "tgc").rglob("*.png"))
    assert len(pngs) == int(tgc[2]) + int(tgc[3])
    assert int(dtc[3]) == 2 * cards and len(list((tmp_path / "graves" / "drivethru").glob("*.pdf"))) == int(dtc[2])
    assert "note: graves: The Game Crafter has no product for time_tokens (token)" in out  # what was left out, said


def test_tabletop_simulator_says_when_it_draws_coarse(tmp_path, capsys, monkeypatch):
    from casebook.generator.exports import tts

    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--tts"]) == 0
    assert _notes(capsys.readouterr().out) == []  # 36 cards at 200 dpi
    monkeypatch.setattr(tts, "MAX_PX", 1024)  # a sheet of 36 cards within 1024 px: about 70 dpi
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--tts"]) == 0
    out = capsys.readouterr().out
    assert "note: syndicate: Tabletop Simulator, decktet: sheets drawn at " in out and "instead of 200" in out
