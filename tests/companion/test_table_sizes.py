"""Both tables at two phone sizes, a landscape phone and a tablet: every action in the fixed bar
and every pad key on the window without scrolling, the pad not moving as piles grow, no control
under 48 dp, no word split across lines. Screenshots: tests/_screens/size-<w>x<h>-<game>.png."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, SIZES, new_game_steps, run

pytest.importorskip("kivy")

GRAVES_KEYS = ["play", "pass", "clear", "ability", "undo", "history", "table_rules", "table_home",
               *(f"rank_{r}" for r in "23456789A"),
               *(f"suit_{s}" for s in ("magnifying_glass", "shoeprints", "question_mark", "notebook", "briefcase"))]
SYNDICATE_KEYS = ["confirm", "clear", "slot_lead", "slot_first", "slot_second", "slot_face_down",
                  *(f"rank_{r}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "crown")),
                  *(f"suit_{s}" for s in ("moons", "suns", "waves", "leaves", "wyrms", "knots"))]


def check(dump: dict, keys: list[str], where: str) -> None:
    assert dump["small_controls"] == [], f"{where}: controls under 48 dp: {dump['small_controls']}"
    assert dump["split_words"] == [], f"{where}: words split across lines: {dump['split_words']}"
    out = [k for k in keys if not dump["controls"].get(k, {}).get("in_window")]
    assert out == [], f"{where}: not on the window without scrolling: {out}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_graves_actions_in_reach_at_every_size(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    first, later = tmp_path / "first.json", tmp_path / "later.json"
    steps = new_game_steps() + [{"dump": str(first)}]
    # two plays each at the first location, then a deuce picked: piles and the selection grow
    for rank, suit in (("9", "notebook"), ("5", "notebook"), ("A", "notebook"), ("8", "notebook")):
        steps += [{"tap": f"rank_{rank}"}, {"tap": f"suit_{suit}"}, {"tap": "play"}]
    steps += [{"tap": "rank_2"}, {"tap": "suit_notebook"}, {"tap": "rank_3"}, {"tap": "suit_notebook"},
              {"dump": str(later)}, {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-graves.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    a, b = json.loads(first.read_text()), json.loads(later.read_text())
    assert b["window"] == list(size) and b["summary"]["events"] == 4
    check(a, GRAVES_KEYS, "start of the case")
    check(b, GRAVES_KEYS + ["deuce"], "after four plays")
    for key in GRAVES_KEYS:  # nothing in the pad or the bar moved while the piles grew
        assert a["controls"][key]["rect"] == b["controls"][key]["rect"], key


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_syndicate_actions_in_reach_at_every_size(tmp_path, size):
    dump = tmp_path / "plot.json"
    steps = [{"tap": "new_game"}, {"tap": "game_syndicate"}, {"text": ["new.p1", "Ann"]},
             {"text": ["new.p2", "Ben"]}, {"text": ["new.p3", "Cat"]}, {"tap": "new_start"}]
    for rank, suit in (("8", "moons"), ("9", "knots"), ("7", "suns")):
        steps += [{"tap": f"rank_{rank}"}, {"tap": f"suit_{suit}"}]
    steps += [{"dump": str(dump)}, {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-syndicate.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    check(json.loads(dump.read_text()), SYNDICATE_KEYS, "a plot picked")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hasty_seven_players_and_the_traitor_in_reach_at_every_size(tmp_path, size):
    """Eleven suspects (seven players and the Traitor): the row, then every card type at the loupe, with the bar."""
    from casebook.rules.cards import load_database
    from casebook.rules.games import hasty

    db = load_database("hasty")
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    state = hasty.new_state(db, {"players": names, "variants": ["traitor"], "seed": 11})
    row, loupe = state.row, tmp_path / "loupe.json"
    first = tmp_path / "first.json"
    steps = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"},
             {"tap": "variant_traitor"}, {"tap": "deal_seed"}, {"text": ["new.seed", "11"]}, {"tap": "new_start"},
             {"dump": str(first)}, {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-hasty.png")},
             {"tap": f"suspect_{row[0]}"}, {"dump": str(loupe)},
             {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-hasty-loupe.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    bar = ["face_down", "clear", "stuck", "undo", "history", "table_rules", "table_home"]
    a, b = json.loads(first.read_text()), json.loads(loupe.read_text())
    assert [r["id"] for r in a["summary"]["row"]] == row and len(row) == 11
    check(a, bar + [f"suspect_{s}" for s in row], "the row of eleven")
    check(b, bar + [f"card_{c}" for c in hasty.deck_cards(db, ["base"])], "the card types at the loupe")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clash_hand_threads_and_bar_in_reach_at_every_size(tmp_path, size):
    """Clash of Minds: the hand's ten cards with the turn's actions, then the three threads for the card picked."""
    from casebook.rules.cards import load_database
    from casebook.rules.games import clash

    holmes = list(clash.cards(load_database("clash")).influence["holmes"])
    hand, picked = tmp_path / "hand.json", tmp_path / "picked.json"
    steps = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.seed", "7"]}, {"tap": "new_start"},
             {"tap": "plan"}, {"tap": "plan_lady_vale"}, {"tap": "plan_kidnapping"}, {"tap": "plan_crimson_sapphire"},
             {"tap": "plan_lay"}, {"tap": "deal_site"}, *({"tap": f"thread_{t}"} for t in (1, 3, 2, 3, 1, 3))]
    steps += [{"tap": f"card_{c}"} for c in ("interrogation", "intimidation", "informant", "paid_informer",
                                             "keen_eye", "coded_message")]
    steps += [{"tap": "record_setup"}, {"dump": str(hand)},
              {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-clash.png")}, {"tap": "card_telegram"},
              {"dump": str(picked)}, {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-clash-threads.png")},
              {"quit": True}]
    run(tmp_path, steps, size=size)
    nav = ["undo", "history", "table_rules", "table_home"]
    a, b = json.loads(hand.read_text()), json.loads(picked.read_text())
    assert a["summary"]["phase"] == "turns" and a["window"] == list(size)
    check(a, nav + ["support", "use", "draw", "end_turn"] + [f"card_{c}" for c in holmes], "the hand")
    check(b, nav + ["support", "use", "draw", "clear", "thread_1", "thread_2", "thread_3"], "the threads")
