"""The Clash card database: every component count of the rulebook, the two influence decks alike,
every printed text what the engine does; broken copies refused with the place and the fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.rules.cards import CARDS_DIR, load_database, read_database
from casebook.rules.games import clash as c
from casebook.rules.problems import Problems

RULEBOOK_COUNTS = {"sites": 7, "crime_plans": 9, "holmes_agents": 4, "moriarty_agents": 4, "holmes_influence": 20,
                   "moriarty_influence": 20, "actions": 8, "help_cards": 2,
                   "influence_tokens": 3, "time_marker": 1, "distraction_tokens": 8, "deduction_tokens": 3,
                   "first_player": 1}


@pytest.fixture(scope="module")
def db():
    return load_database("clash")


def test_every_component_of_the_rulebook_in_its_count(db):
    assert {cid: sum(card.copies for card in comp.cards) for cid, comp in db.components.items()} == RULEBOOK_COUNTS
    assert all(comp.count == RULEBOOK_COUNTS[cid] for cid, comp in db.components.items())


def test_every_card_is_our_design(db):
    assert all(card.designed for card in db.all_cards())
    names = [str(card["name"]) for card in db.all_cards() if card.component != "actions"]
    assert len(set(names)) == len(names)  # only the two sides' action cards share names


def test_three_crime_plans_of_each_thread_good_for_the_right_side(db):
    plans = db.components["crime_plans"].cards
    assert sorted(str(p["thread"]) for p in plans) == ["felony"] * 3 + ["object"] * 3 + ["victim"] * 3
    for plan in plans:
        assert c.crime_good_for(dict(plan["effect"])) == c.CRIME_GOOD_FOR[str(plan["thread"])], plan.id


def test_the_two_influence_decks_are_alike_in_make_up_but_named_apart(db):
    holmes, moriarty = c.deck_make_up(db, "holmes"), c.deck_make_up(db, "moriarty")
    assert holmes == moriarty and sum(holmes.values()) == 20
    names = {side: {str(card["name"]) for card in db.components[c.INFLUENCE[side]].cards} for side in c.SIDES}
    assert not names["holmes"] & names["moriarty"]
    assert len({effect for _, _, effect in holmes}) >= 8  # a real choice of effects, not one card twenty times


def test_each_side_has_a_mandatory_card_and_the_three_optional_pairs(db):
    for side in c.SIDES:
        shown = sorted(tuple(card["actions"]) for card in db.components["actions"].cards if card["side"] == side)
        assert shown == [("draw", "support"), ("draw", "use"), ("play",), ("use", "support")]


def test_every_printed_text_is_made_from_its_effect(db):
    for side in c.SIDES:
        for card in db.components[c.INFLUENCE[side]].cards:
            assert card["text"] == c.influence_text(dict(card["effect"]))
        for card in db.components[c.AGENTS[side]].cards:
            assert card["text"] == c.agent_text(dict(card["ability"]), side)
            assert 1 <= card["cost"] <= 3
    assert all(card["text"] == c.site_text(dict(card["effect"])) for card in db.components["sites"].cards)
    assert all(card["text"] == c.crime_text(dict(card["effect"])) for card in db.components["crime_plans"].cards)
    assert all(card["text"] == c.action_text(list(card["actions"])) for card in db.components["actions"].cards)


def test_sites_and_hours(db):
    sites = db.components["sites"].cards
    assert len({str(s["effect"]["op"]) for s in sites}) == 7  # every site changes the Stage its own way
    assert all(4 <= s["limit"] <= 6 and 0 <= s["hours"] <= 1 for s in sites)
    assert sum(s["hours"] for s in sites) == 3  # the figures in docs/clash.md were measured with these


def test_the_rulings_the_rulebook_leaves_open_are_written(db):
    faq = {f.id for f in db.faq}
    assert {"faq_clock_start", "faq_limit_both", "faq_cancel_cancel", "faq_move_revealed", "faq_deduction_revealed",
            "faq_last_at_twelve"} <= faq


def broken(tmp_path: Path, file: str, find: str, replace: str) -> str:
    shutil.copytree(CARDS_DIR / "clash", tmp_path / "clash")
    path = tmp_path / "clash" / file
    text = path.read_text()
    assert text.count(find) == 1, find
    path.write_text(text.replace(find, replace))
    problems = Problems()
    read_database("clash", tmp_path, problems)
    return problems.format()


@pytest.mark.parametrize(("file", "find", "replace", "expect"), [
    ("influence_holmes.yaml", 'text: "Draw 2 Influence Cards."', 'text: "Draw 3 Influence Cards."',
     "the text does not say what the card does"),
    ("influence_holmes.yaml", "value: 4", "value: 5", "the two influence decks differ in make-up"),
    ("influence_moriarty.yaml", "effect: {op: weaken, amount: 2}", "effect: {op: weaken}", "'weaken' needs 'amount'"),
    ("sites.yaml", "effect: {op: no_draw}", "effect: {op: no_cards}", "unknown effect op 'no_cards'"),
    ("crime_plans.yaml", "effect: {op: clock, hours: -1}\n    text: \"Turn the clock back 1 hour.\"",
     "effect: {op: clock, hours: 1}\n    text: \"Add 1 hour to the clock.\"", "its effect is good for Moriarty"),
    ("crime_plans.yaml", "thread: felony\n    effect: {op: keep_first}", "thread: victim\n    effect: {op: keep_first}",
     "4 victim crime plan(s)"),
    ("actions.yaml", "id: moriarty_draw_use\n    name: Draw or Use\n    side: moriarty\n    actions: [draw, use]",
     "id: moriarty_draw_use\n    name: Draw or Use\n    side: moriarty\n    actions: [draw, draw]",
     "Moriarty's action cards show"),
    ("agents.yaml", "ability: {op: bonus, amount: 2}", "ability: {op: bonus, amount: 2, thread: 1}",
     "'bonus' takes no 'thread'"),
])
def test_broken_databases_are_refused_with_the_place(tmp_path, file, find, replace, expect):
    text = broken(tmp_path, file, find, replace)
    assert expect in text, text
    assert "clash/" in text and ":" in text
