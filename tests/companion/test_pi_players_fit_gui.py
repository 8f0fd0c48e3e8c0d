"""P.I. with five players: every player's row (points, investigators left, penalties) and whose turn it is, the
largest of them, fit on a phone without scrolling, as do each player's "hold to see", the modes, the map and the
bar; no text under 12 sp, no control under 48 dp. Played by taps to mini-game 3 (scores and turns in every row),
then a turn taken, at 360x640 and 411x731; in landscape (640x360) whose turn it is and the holds stay in view."""

from __future__ import annotations

import json

import pytest

from casebook.rules.games import pi
from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_pi_board_fit_gui import SIZES, taps_to_mini_game_3
from tests.companion.test_pi_gui import NAMES, SEED

pytest.importorskip("kivy")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_players_row_and_whose_turn_fit(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    taps, state = taps_to_mini_game_3()
    district = pi.city(state.db).districts[0]
    where = f"{size[0]}x{size[1]}"
    dumps = {n: tmp_path / f"{n}.json" for n in ("mini3", "turn")}
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, *({"tap": t} for t in taps),
              {"tap": "board_back"}, {"dump": str(dumps["mini3"])}, {"shot": str(SCREENS / f"pi5-{where}-mini3.png")},
              {"tap": f"district_{district}"}, {"tap": "confirm"}, {"dump": str(dumps["turn"])},
              {"shot": str(SCREENS / f"pi5-{where}-turn.png")}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=240)
    for name, path in dumps.items():
        d = json.loads(path.read_text())
        s, controls = d["summary"], d["controls"]
        assert s["phase"] == "play" and s["mini_game"] == 3
        current = s["players"].index(s["current"])
        assert d["small_texts"] == [] and d["small_controls"] == [] and d["split_words"] == [], name
        assert d["cut_texts"] == [], f"{where} {name}: {d['cut_texts']}"
        holds = [n for n in range(5) if not controls[f"secret_{n}"]["in_window"]]
        assert holds == [], f"{where} {name}: holds out of view: {holds}"
        bar = ["confirm", "clear", "more", "mode_investigate", "mode_evidence", "mode_solve", f"district_{district}"]
        assert [k for k in bar if not controls[k]["in_window"]] == [], f"{where} {name}"
        if size[0] > size[1]:
            assert controls["turn"]["in_window"] and f"{s['current']}'s turn" in controls["turn"]["lines"]
            continue
        # the state's bottom edge: 6 dp (table.kv's spacing) over the top of the fixed pad, whose first row is the
        # holds; a row it would cut is hidden whole (WholeLines), so each row must be above it
        edge = max(controls[f"secret_{n}"]["rect"][1] + controls[f"secret_{n}"]["rect"][3] for n in range(5)) + 6
        rows = [n for n in range(5) if not controls[f"player_{n}"]["in_window"]
                or controls[f"player_{n}"]["rect"][1] < edge - 0.5]
        assert rows == [], f"{where} {name}: players' rows out of view without scrolling: {rows}"
        assert all(len(controls[f"player_{n}"]["lines"]) == 1 for n in range(5)), "a player's row wraps"
        mine = controls[f"player_{current}"]
        assert mine["lines"][0].startswith(f"{s['current']}'s turn")
        assert f"{s['current']}'s turn" in d["texts"][0] or any(t.endswith(f"{s['current']}'s turn 1") for t in d["texts"])
        for n, p in enumerate(s["players"]):
            assert f"{s['result']['scores'][p]} pts" in controls[f"player_{n}"]["lines"][0]
