"""P.I.'s city map (All tiles) holds every district's words whatever the deal: in the window play of five players,
mini-game 3 dealt Chapel Square a Madame Orsini and a Bank Robbery, six lines on a phone, and the 96 dp cell cut
them (the district's name above the cell, the crime under its pictures). Played by taps to mini-game 3 (each
player solves their case at once), at 360x640, 411x731 and 640x360."""

from __future__ import annotations

import json

import pytest

from casebook.rules.games import pi
from tests.companion.test_app_gui import run
from tests.companion.test_pi_gui import NAMES, SEED
from tests.rules.test_pi_support import pi_database

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]


def taps_to_mini_game_3() -> tuple[list[str], pi.State]:
    """Each mini-game dealt by the app (its map shown, then closed) and every player solving at once; the taps up
    to the map of mini-game 3's deal, and the engine's state there."""
    state = pi.new_state(pi_database(), {"players": NAMES, "seed": SEED,
                                         "colours": ["red", "blue", "green", "yellow", "purple"]})
    taps: list[str] = []
    while True:
        if state.phase == "deal":
            pi.apply(state, {"action": "deal"})
            taps.append("deal_seed")
            if state.mini == 3:
                return taps, state
            taps.append("board_back")
            continue
        taps += solve_at_once(state)


def solve_at_once(state: pi.State) -> list[str]:
    """The player to play solves the case they look for, right, on the engine: the taps that do it in the app."""
    who = state.current
    case = state.cases[state.holder(who)]
    assert case is not None
    pi.apply(state, {"action": "solve", "by": state.players[who], "suspect": case[0], "crime": case[1],
                     "location": case[2]})
    return ["mode_solve", f"solve_{case[0]}", f"solve_{case[1]}", f"district_{case[2]}", "confirm", "solve_yes"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_districts_tiles_fit_its_cell_on_the_map(tmp_path, size):
    taps, state = taps_to_mini_game_3()
    assert state.tiles["chapel_square"] == ("madame_orsini", "bank_robbery")  # the longest cell of the play
    dump = tmp_path / "board.json"
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, *({"tap": t} for t in taps),
              {"dump": str(dump)}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=240)
    d = json.loads(dump.read_text())
    assert d["summary"]["mini_game"] == 3
    c = pi.city(state.db)
    name = c.name["chapel_square"].removeprefix("The ")
    assert f"{name}\nMadame Orsini\nBank Robbery" in d["texts"]
    assert d["cut_texts"] == [], f"cut on the map: {d['cut_texts']}"
    assert d["small_texts"] == [] and d["split_words"] == [], (d["small_texts"], d["split_words"])
    assert d["controls"]["board_back"]["in_window"]
