"""The Syndicate in the real app at phone size: set up three players, plot by taps with the
preview, a refusal, the history, the rules lookup, and resuming the saved game."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, run

pytest.importorskip("kivy")


def card(rank: str, suit: str) -> list:
    return [{"tap": f"rank_{rank}"}, {"tap": f"suit_{suit}"}]


def test_plots_by_taps_history_rules_and_resume(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    dumps = {n: tmp_path / f"{n}.json" for n in ("new", "preview", "after", "greyed", "refused", "history", "rules",
                                                   "resumed")}
    steps = [{"tap": "new_game"}, {"tap": "game_syndicate"}, {"text": ["new.p1", "Ann"]},
             {"text": ["new.p2", "Ben"]}, {"text": ["new.p3", "Cat"]}, {"dump": str(dumps["new"])},
             {"shot": str(SCREENS / "syndicate-new-game.png")}, {"tap": "new_start"}]
    # turn 1, the rulebook's first example: Ann leads the Diplomat, the Author face down;
    # Ben follows with the Merchant, Cat has no personality and plays the Castle
    steps += card("8", "moons") + card("9", "knots") + card("7", "suns") + card("2", "knots")
    steps += [{"dump": str(dumps["preview"])}, {"shot": str(SCREENS / "syndicate-table.png")}, {"tap": "confirm"}]
    # turn 2: Ben leads the Ace of Waves; Cat plays the Sea (its Crown), Ann the Mill: 11 against 18
    steps += card("A", "waves") + card("crown", "waves") + card("8", "waves")
    steps += [{"tap": "confirm"}, {"dump": str(dumps["after"])}, {"shot": str(SCREENS / "syndicate-after.png")}]
    # turn 3: Cat looks for an 8 to lead: the Diplomat and the Mill are in the discard pile, greyed out
    steps += [{"tap": "rank_8"}, {"dump": str(dumps["greyed"])}, {"shot": str(SCREENS / "syndicate-greyed.png")}]
    # Confirm with the lead alone is refused, saying what is missing
    steps += card("5", "knots") + [{"tap": "confirm"}, {"dump": str(dumps["refused"])}, {"tap": "clear"},
              {"tap": "history"}, {"dump": str(dumps["history"])}, {"shot": str(SCREENS / "syndicate-history.png")},
              {"tap": "history_back"}, {"tap": "table_rules"}, {"text": ["rules.query", "card with two marks"]},
              {"dump": str(dumps["rules"])}, {"shot": str(SCREENS / "syndicate-rules.png")}, {"tap": "rules_back"},
              {"tap": "table_home"}, {"quit": True}]
    run(tmp_path, steps)
    run(tmp_path, [{"tap_prefix": "resume_"}, {"dump": str(dumps["resumed"])}, {"quit": True}], name="again")
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
    assert data["preview"]["screen"] == "table" and data["preview"]["summary"]["events"] == 0
    after = data["after"]["summary"]
    assert after["scores"] == {"Ann": 2, "Ben": 0, "Cat": 1}
    assert after["plots"][1]["ace_value"] == 11 and after["plots"][1]["totals"] == {"mastermind": 11, "enforcers": 18}
    assert after["mastermind"] == "Cat"
    greyed = {s: data["greyed"]["controls"][f"suit_{s}"]["disabled"] for s in ("moons", "suns", "waves", "leaves",
                                                                                   "wyrms", "knots")}
    assert greyed == {"moons": True, "suns": True, "waves": True, "leaves": True, "wyrms": False, "knots": False}
    assert "Still to pick" in data["refused"]["message"] and data["refused"]["message_kind"] == "error"
    assert data["refused"]["summary"]["events"] == 2
    assert data["resumed"]["summary"] == after
