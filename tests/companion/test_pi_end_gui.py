"""P.I.'s last solve ends the game: what the table is told then is who was right and the points, with no
instruction for a mini-game that goes on (remove your cubes, discs on the tiles named); the end says who won and
every player's score. A solve that leaves the mini-game in play still tells its player what to do with their pieces.
Two players, each solving the case they hold at once in each mini-game, at two phone sizes and a landscape phone."""

from __future__ import annotations

import json

import pytest

from casebook.rules.games import pi
from tests.companion.test_app_gui import run
from tests.companion.test_pi_board_fit_gui import SIZES, solve_at_once
from tests.rules.test_pi_support import pi_database

pytest.importorskip("kivy")

NAMES = ["Ann", "Ben"]
SEED = 5
INSTRUCTION = "Remove your cubes"


def taps_to_the_end() -> tuple[list[list[str]], pi.State]:
    """Each mini-game dealt by the app and each player solving at once: the taps of each solve (the deal's before
    its first), and the engine's state at the end."""
    state = pi.new_state(pi_database(), {"players": NAMES, "seed": SEED})
    solves: list[list[str]] = []
    deal: list[str] = []
    while state.phase != "over":
        if state.phase == "deal":
            pi.apply(state, {"action": "deal"})
            deal = ["deal_seed", "board_back"]
            continue
        solves.append([*deal, *solve_at_once(state)])
        deal = []
    return solves, state


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_tells_the_winner_and_scores_and_no_mini_game_instruction(tmp_path, size):
    solves, state = taps_to_the_end()
    assert len(solves) == 2 * pi.MINI_GAMES
    result = pi.result(state)
    dumps = {n: tmp_path / f"{n}.json" for n in ("first", "next_deal", "over")}
    steps: list = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_fewer"}, {"text": ["new.p1", "Ann"]},
                   {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}]
    for n, taps in enumerate(solves):
        steps += [{"tap": t} for t in taps]
        if n == 0:
            steps.append({"dump": str(dumps["first"])})
        if n == 1:
            steps.append({"dump": str(dumps["next_deal"])})
    steps += [{"dump": str(dumps["over"])}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=240)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    first = data["first"]
    assert first["summary"]["phase"] == "play"  # the mini-game goes on for the other player
    assert any("right!" in t and INSTRUCTION in t for t in first["texts"]), "the solver is not told what to do"
    assert data["next_deal"]["summary"]["phase"] == "deal"
    assert not any(INSTRUCTION in t for t in data["next_deal"]["texts"]), "a cleared board's pieces to move"
    over = data["over"]
    assert over["summary"]["phase"] == "over" and over["summary"]["result"]["scores"] == result["scores"]
    told = [t for t in over["texts"] if "right!" in t]
    assert told, "the last solve is not told"
    assert not any(INSTRUCTION in t or "discs go on" in t for t in over["texts"]), f"at the end: {told}"
    assert result["why"] in over["texts"]
    for p, score in result["scores"].items():
        assert any(t.startswith(p) and f"{score} pts" in t for t in over["texts"]), f"{p}'s score is not shown"
    assert over["small_texts"] == [] and over["cut_texts"] == []
