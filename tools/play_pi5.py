"""Five players of P.I., three mini-games to the end of the game, played in a real window as a new table would.

Every tap is a real click on an X screen (tools/play_window.py). The new game is set up by taps (five names typed,
a seed typed so the app deals the board and the cases), each mini-game dealt by the app. The moves are planned on
the rules engine from the same seed: in a mini-game each player first investigates a district (while they have
investigators: five for the whole game), then takes the first evidence card on display, then solves; in mini-game
1 the first player names a wrong suspect first (a penalty) and solves a turn later; in mini-game 2 one player
tells the table they were misled (More..., a confirmation). At the start of each mini-game the phone goes round:
each player holds their own button to read the case they hold.

A screenshot after each turn: tests/_screens/window-pi5-<w>x<h>-<nnn>-<what>.png, with `...-seen.json` beside
them (what the app's dump found on each). Look at them with an image viewer.

Run (about 20-40 minutes on a busy machine): .venv/bin/python tools/play_pi5.py [WIDTHxHEIGHT]
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import pi  # noqa: E402
from tools.play_window import Window, new_game  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEED = 7
COLOURS = ["red", "blue", "green", "yellow", "purple"]  # the form's first five: the deal does not depend on them
HOLDS = [f"secret_{i}" for i in range(len(NAMES))]

# one step of the plan: ("deal", n) a mini-game dealt; ("turn", name, taps); ("misled", name, taps)
Step = tuple[Any, ...]


def plan() -> tuple[list[Step], pi.State]:
    """The whole game, worked out on the engine from the seed the app deals from; the engine's state at the end."""
    state = pi.new_state(load_database("pi"), {"players": NAMES, "seed": SEED, "colours": COLOURS})
    c = pi.city(state.db)
    steps: list[Step] = []
    while not pi.is_over(state):
        pi.apply(state, {"action": "deal"})
        mini = state.mini
        steps.append(("deal", mini, [pi.summary(state, i).get("case") for i in range(len(NAMES))]))
        wrong_first = state.players[state.current] if mini == 1 else None
        misled = state.players[state.left_of(state.first)] if mini == 2 else None
        rounds: dict[str, int] = {}
        while state.mini == mini and not pi.is_over(state):
            who = state.current
            name = state.players[who]
            r = rounds[name] = rounds.get(name, 0) + 1
            if misled == name and r == 2:  # they found a wrong answer: told to the table, not a turn
                pi.apply(state, {"action": "misled", "by": name})
                steps.append(("misled", name, ["more", f"misled_{who}", "misled_yes"]))
                continue
            case = state.cases[state.holder(who)]
            assert case is not None
            free = [d for d in c.districts if d not in state.investigators[who]]
            if r == 1 and state.investigators_left[who] and free:
                district = free[(who * 3 + mini) % len(free)]
                event: dict[str, Any] = {"action": "investigate", "by": name, "district": district}
                taps = [f"district_{district}", "confirm"]
            elif r <= 2 and state.display:
                card = state.display[0]
                event = {"action": "evidence", "by": name, "card": card}
                taps = ["mode_evidence", f"card_{card}", "confirm"]
            else:
                suspect = case[0]
                if name == wrong_first and state.penalties[who] == 0:  # a wrong guess first
                    suspect = next(s for s in c.suspects if s != case[0])
                event = {"action": "solve", "by": name, "suspect": suspect, "crime": case[1], "location": case[2]}
                taps = ["mode_solve", f"solve_{suspect}", f"solve_{case[1]}", f"district_{case[2]}", "confirm",
                        "solve_yes"]
            pi.apply(state, copy.deepcopy(event))
            steps.append(("turn", name, taps, event["action"]))
    return steps, state


def main() -> None:
    size = tuple(int(v) for v in sys.argv[1].split("x")) if len(sys.argv) > 1 else (360, 640)
    tag = f"window-pi5-{size[0]}x{size[1]}"
    steps, end = plan()
    with Window(tag, (size[0], size[1])) as w:
        w.shot("start")
        new_game(w, "pi", NAMES, adds=2)
        w.type_into("new_seed", str(SEED))
        w.shot("form")
        w.tap("new_start")
        if (w.last["summary"] or {}).get("players") != NAMES:
            sys.exit(f"play: the names typed came out as {(w.last['summary'] or {}).get('players')}")
        w.shot("table-before-deal")
        n = 0
        for step in steps:
            if step[0] == "deal":
                mini, cases = step[1], step[2]
                w.tap("deal_seed")
                w.shot(f"mini{mini}-dealt-board")
                w.tap("board_back")
                w.shot(f"mini{mini}-table", holds=HOLDS)
                for i, name in enumerate(NAMES):  # the phone goes round: each reads the case they hold
                    shot = f"mini{mini}-held-{name}" if i in (0, 4) else None
                    held = w.hold(f"secret_{i}", 0.8, shot=shot, scroll=True)
                    if not any(t.startswith("You hold") for t in held["texts"]):  # as a player would: again
                        w.warnings.append(f"mini-game {mini}: {name}'s first press showed nothing; pressed again")
                        held = w.hold(f"secret_{i}", 0.8, shot=f"{shot}-again" if shot else None)
                    if i == 4:
                        w.shot(f"mini{mini}-after-holds")
                    want = "\n".join(f"{k.title() if k != 'location' else 'District'}: {cases[i][k]}"
                                     for k in ("suspect", "crime", "location"))  # the case player i holds
                    if not any(want in t for t in held["texts"]):
                        w.warnings.append(f"mini-game {mini}: {name}'s hold does not show {want!r}")
                continue
            kind, name, taps = step[0], step[1], step[2]
            n += 1
            for k, tap in enumerate(taps):
                w.tap(tap)
                if tap == "confirm" and "solve_yes" in taps:
                    w.shot(f"{n:03d}-{name}-solve-asked")
                elif kind == "misled" and k < len(taps) - 1:  # the More... page, then the question
                    w.shot(f"{n:03d}-{name}-{'more' if k == 0 else 'misled-asked'}")
                elif k == len(taps) - 2 and len(taps) > 2 and n < 12:  # just before the last tap of a turn
                    w.shot(f"{n:03d}-{name}-{taps[0]}-chosen")
            what = step[3] if kind == "turn" else "misled"
            w.shot(f"{n:03d}-{name}-{what}", holds=HOLDS)
        summary = w.last["summary"] or {}
        if summary.get("phase") != "over":
            w.warnings.append(f"the game is not over at the end of the plan: {summary.get('phase')}")
        want = pi.result(end)["scores"]
        got = (summary.get("result") or {}).get("scores")
        if got != want:
            w.warnings.append(f"scores: the app says {got}, the engine {want}")
        w.shot("over")
        w.tap("history")
        w.shot("history")
        w.back()
        w.tap("table_home")
        w.shot("home")
        print(f"played {n} turns in three mini-games to the end; scores {got}; screenshots tests/_screens/{tag}-*.png")


if __name__ == "__main__":
    main()
