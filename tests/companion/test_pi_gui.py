"""P.I. in the real app at 360 x 640 with five players: set up, a deal by the app, turns by taps
with the case holder's answer told large, a solve, the misled menu; no case on the table except
while its holder holds their button; every control at least 48 dp, the actions in the fixed bar."""

from __future__ import annotations

import json
import re

import pytest

from casebook.rules.games import pi
from tests.companion.test_app_gui import SCREENS, SIZES, run
from tests.rules.test_pi_support import pi_database

pytest.importorskip("kivy")

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEED = 7
BAR = ["confirm", "clear", "more", "undo", "history", "table_rules", "table_home"]


def engine_game():
    """The same game in the engine: players, seed, the deal the app makes from it."""
    state = pi.new_state(pi_database(), {"players": NAMES, "seed": SEED,
                                         "colours": ["red", "blue", "green", "yellow", "purple"]})
    pi.apply(state, {"action": "deal"})
    return state


def case_lines(state) -> list[str]:
    """How each case reads in its holder's secret view: nowhere else on the table."""
    c = pi.city(state.db)
    return [f"Suspect: {c.name[case[0]]}" for case in state.cases if case]


def test_five_players_a_mini_game_by_taps(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    names = ("new", "dealt", "held", "investigated", "evidence", "solve", "solved", "more", "misled", "history")
    dumps = {n: tmp_path / f"{n}.json" for n in names}
    state = engine_game()
    c = pi.city(state.db)
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"dump": str(dumps["new"])}, {"shot": str(SCREENS / "pi-new.png")},
              {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"}, {"dump": str(dumps["dealt"])},
              {"shot": str(SCREENS / "pi-dealt.png")},
              {"press": "secret_1"}, {"wait": 0.6}, {"dump": str(dumps["held"])},
              {"shot": str(SCREENS / "pi-held.png")}, {"release": "secret_1"}]
    # Ann investigates Little Italy: two taps, the answer told large
    want = pi.answer_for(state, 0, "investigate", "little_italy")["text"]
    pi.apply(state, {"action": "investigate", "by": "Ann", "district": "little_italy"})
    steps += [{"tap": "district_little_italy"}, {"tap": "confirm"}, {"dump": str(dumps["investigated"])},
              {"shot": str(SCREENS / "pi-answer.png")}]
    # Ben takes the first evidence card on display: three taps
    card = state.display[0]
    want_card = pi.answer_for(state, 1, "evidence", card)["text"]
    pi.apply(state, {"action": "evidence", "by": "Ben", "card": card})
    steps += [{"tap": "mode_evidence"}, {"tap": f"card_{card}"}, {"tap": "confirm"}, {"dump": str(dumps["evidence"])},
              {"shot": str(SCREENS / "pi-evidence.png")}]
    # Cat solves her own case (held by Ben): suspect, crime, district on the map, confirm, agree
    case = state.cases[1]
    steps += [{"tap": "mode_solve"}, {"tap": f"solve_{case[0]}"}, {"tap": f"solve_{case[1]}"},
              {"tap": f"district_{case[2]}"}, {"dump": str(dumps["solve"])}, {"shot": str(SCREENS / "pi-solve.png")},
              {"tap": "confirm"}, {"tap": "solve_yes"}, {"dump": str(dumps["solved"])}]
    pi.apply(state, {"action": "solve", "by": "Cat", "suspect": case[0], "crime": case[1], "location": case[2]})
    # Eve tells the table she was misled by Dan (who holds her case): a menu, then a confirmation
    steps += [{"tap": "more"}, {"dump": str(dumps["more"])}, {"shot": str(SCREENS / "pi-more.png")},
              {"tap": "misled_4"}, {"tap": "misled_yes"}, {"dump": str(dumps["misled"])},
              {"shot": str(SCREENS / "pi-misled.png")},
              {"tap": "history"}, {"dump": str(dumps["history"])}, {"shot": str(SCREENS / "pi-history.png")},
              {"quit": True}]
    run(tmp_path, steps, timeout=120)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    secret_lines = case_lines(engine_game())
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        if name != "held":
            shown = "\n".join(d["texts"])
            assert not any(line in shown for line in secret_lines), f"{name}: a case is on the table"
            assert "You hold" not in shown, name
    assert data["new"]["controls"]["players_more"]["disabled"]  # five is the most
    dealt = data["dealt"]["summary"]
    assert dealt["players"] == NAMES and dealt["phase"] == "play" and dealt["current"] == "Ann"
    assert sorted(dealt["colours"].values()) == sorted(["red", "blue", "green", "yellow", "purple"])  # one each
    for d in ("dealt", "investigated", "evidence", "solve"):  # the actions in the fixed bar, on the window
        assert all(data[d]["controls"][k]["in_window"] for k in BAR), d
        assert all(data[d]["controls"][f"district_{x}"]["in_window"] for x in ("hilltop", "canal_street")) \
            or d == "evidence", d
    held = "\n".join(data["held"]["texts"])
    ann_holds = engine_game().cases[1]  # Ben's secret: the case he holds, Cat's
    assert f"Suspect: {c.name[ann_holds[0]]}" in held and "You hold Cat's case" in held
    assert want in data["investigated"]["texts"][0] or any(want in t for t in data["investigated"]["texts"])
    assert want == re.sub(r"\s+", " ", want) and data["investigated"]["summary"]["turns"]["Ann"] == 1
    assert any(want_card in t for t in data["evidence"]["texts"])
    assert any(t.startswith("Cat: right!") for t in data["solved"]["texts"])
    assert data["solved"]["summary"]["boxes"] == [{"player": "Cat", "turns": 1, "box": 7, "points": 7}]
    assert "misled_2" not in data["more"]["controls"]  # Cat has solved: she is out of play
    misled = data["misled"]["summary"]
    assert (misled["points"]["Eve"][0], misled["points"]["Dan"][0]) == (7, 0)
    assert misled["done"]["Dan"] and misled["done"]["Eve"] and misled["current"] == "Ann"


TABLE_CASES = {"Ann": ["bubbles", "murder", "downtown"], "Ben": ["velvet_vance", "arson", "hilltop"],
               "Cat": ["lucky_pell", "smuggling", "northgate"], "Dan": ["rosie_kane", "forgery", "shipyard"],
               "Eve": ["mr_whisper", "extortion", "gasworks"]}


def test_five_players_deal_entered_from_the_table(tmp_path):
    """The tiles as laid out, the display, each case entered by its holder alone; a draw named."""
    from tests.rules.test_pi_support import EXAMPLE_DISPLAY, EXAMPLE_TILES

    dumps = {n: tmp_path / f"{n}.json" for n in ("tiles", "display", "back", "entering", "entered", "drawing",
                                                      "drawn")}
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"tap": "new_start"}, {"tap": "deal_table"}]
    for n, d in enumerate(pi.city(pi_database()).districts):
        steps += [{"tap": f"tile_{e or 'none'}"} for e in EXAMPLE_TILES[d]]
        if n == 5:
            steps += [{"dump": str(dumps["tiles"])}, {"shot": str(SCREENS / "pi-deal-tiles.png")}]
    steps += [{"tap": f"display_{e}"} for e in EXAMPLE_DISPLAY]
    steps += [{"dump": str(dumps["display"])}, {"tap": "deal_confirm"}]
    # Back while Ann enters her case closes the entry, keeping nothing of it on screen
    steps += [{"tap": "case_0"}, {"tap": f"case_{TABLE_CASES['Ann'][0]}"}, {"key": 27}, {"dump": str(dumps["back"])}]
    for i, name in enumerate(NAMES):
        steps += [{"tap": f"case_{i}"}] + [{"tap": f"case_{e}"} for e in TABLE_CASES[name]]
        if i == 0:
            steps += [{"dump": str(dumps["entering"])}, {"shot": str(SCREENS / "pi-case-entry.png")}]
        steps += [{"tap": "case_confirm"}]
    steps += [{"dump": str(dumps["entered"])}, {"tap": "mode_evidence"}, {"tap": "card_waterfront"},
              {"tap": "confirm"}, {"dump": str(dumps["drawing"])}, {"shot": str(SCREENS / "pi-draw.png")},
              {"tap": "draw_shipyard"}, {"dump": str(dumps["drawn"])}, {"quit": True}]
    run(tmp_path, steps, timeout=150)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
    assert data["tiles"]["summary"]["phase"] == "deal" and "tile_none" in data["tiles"]["controls"]
    entered = data["entered"]["summary"]
    assert entered["phase"] == "play" and entered["tiles"]["Little Italy"]["suspect"] == "Bubbles"
    assert "You hold" not in "\n".join(data["entered"]["texts"])
    assert "Ann only" in "\n".join(data["entering"]["texts"])
    back = data["back"]
    assert back["screen"] == "table" and back["summary"]["phase"] == "cases" and "case_0" in back["controls"]
    assert "Ann only" not in "\n".join(back["texts"]) and "case_bubbles" not in back["controls"]
    assert "draw_shipyard" in data["drawing"]["controls"] and data["drawing"]["summary"]["events"] == 6
    drawn = data["drawn"]["summary"]
    assert "The Shipyard" in drawn["display"] and "Waterfront" not in drawn["display"]
    # Ann holds Ben's case (Velvet Vance, Arson, Hilltop): Waterfront's tile district lies next to nothing of it
    assert any(t.startswith("Ann: ") for t in data["drawn"]["texts"])


def test_a_whole_game_to_the_end_shows_every_case(tmp_path):
    """Two players, three seeded mini-games each ended by a misled player: the end, the winner, each case."""
    dumps = {n: tmp_path / f"{n}.json" for n in ("over", "start")}
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_fewer"}, {"text": ["new.p1", "Ann"]},
             {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", "5"]}, {"tap": "new_start"}]
    for misled in (1, 0, 1):  # Ben, Ann, Ben are misled: Ben 14, Ann 7
        steps += [{"tap": "deal_seed"}, {"tap": "board_back"}, {"tap": "more"}, {"tap": f"misled_{misled}"}, {"tap": "misled_yes"}]
    steps += [{"dump": str(dumps["over"])}, {"shot": str(SCREENS / "pi-over.png")}, {"tap": "table_home"},
              {"dump": str(dumps["start"])}, {"quit": True}]
    run(tmp_path, steps)
    over, start = (json.loads(dumps[n].read_text()) for n in ("over", "start"))
    s = over["summary"]
    assert s["phase"] == "over" and s["result"]["winner"] == "Ben" and s["result"]["scores"] == {"Ann": 7, "Ben": 14}
    shown = "\n".join(over["texts"])
    assert "Ben wins with 14 points" in shown
    state = pi.new_state(pi_database(), {"players": ["Ann", "Ben"], "seed": 5})
    pi.apply(state, {"action": "deal"})
    first = pi.city(state.db).name[state.cases[1][0]]  # Ben holds Ann's case in mini-game 1
    assert "Mini-game 1" in shown and first in shown  # the cases are public once the game is over
    assert over["small_controls"] == []
    assert any("finished: Ben won 14–7" in t for t in start["texts"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_map_and_the_bar_in_reach_at_every_size(tmp_path, size):
    """Phones, a landscape phone, a tablet: the modes, every district and the bar on the window, no control under
    48 dp, no word split; each player's button in view before the first turn."""
    first, later = tmp_path / "first.json", tmp_path / "later.json"
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"},
             {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"},
             {"dump": str(first)},
             {"tap": "district_little_italy"}, {"tap": "confirm"}, {"dump": str(later)},
             {"shot": str(SCREENS / f"size-{size[0]}x{size[1]}-pi.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    keys = [*BAR, *(f"mode_{m}" for m in ("investigate", "evidence", "solve")),
            *(f"district_{d}" for d in pi.city(pi_database()).districts)]
    for name, path in (("before the first turn", first), ("after it", later)):
        d = json.loads(path.read_text())
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
        out = [k for k in keys if not d["controls"].get(k, {}).get("in_window")]
        assert out == [], f"{name}: not on the window without scrolling: {out}"
    start = json.loads(first.read_text())
    assert all(start["controls"][f"secret_{n}"]["in_window"] for n in range(3)), "hold-to-see buttons out of view"
