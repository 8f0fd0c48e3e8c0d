"""P.I.: our city tested by play. Simulated games with players who deduce from every answer (the set of cases
still possible, filtered with the engine's own answer helper) and choose their turns either greedily (the
investigation or evidence card that splits the possible cases best) or at random; prints seat results,
turns to solve, boxes, tie-breaks and how often each district and evidence card is worth taking.

    .venv/bin/python benchmarks/pi_play.py [--games N] [--players N] [--seed S]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import pi  # noqa: E402

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]


class Detective:
    """One player's notebook: every case still possible, each with the markers it would have earned."""

    def __init__(self, c: pi.City, greedy: bool, rng: random.Random):
        self.c, self.greedy, self.rng = c, greedy, rng
        self.possible: list[tuple[tuple[str, str, str], list[pi.Marker]]] = []

    def new_mini_game(self) -> None:
        self.possible = [(case, []) for case in itertools.product(self.c.suspects, self.c.crimes, self.c.districts)]

    def _answer(self, tiles: pi.Tiles, case: tuple[str, str, str], markers: list[pi.Marker],
                action: str, target: str) -> tuple[object, ...]:
        if action == "investigate":
            a = pi.answer_investigation(self.c, tiles, case, markers, target)
            return a["discs"], a["cubes"]
        a = pi.answer_evidence(self.c, tiles, case, markers, target)
        return a["answer"], a["moved"]

    def learn(self, tiles: pi.Tiles, action: str, target: str, seen: tuple[object, ...]) -> None:
        kept = []
        for case, markers in self.possible:
            if action == "investigate":
                a = pi.answer_investigation(self.c, tiles, case, markers, target)
                if (a["discs"], a["cubes"]) == seen:
                    kept.append((case, markers + a["markers"]))
            else:
                e = pi.answer_evidence(self.c, tiles, case, markers, target)
                if (e["answer"], e["moved"]) == seen:
                    moved = [m for m in markers if not (e["moved"] and m[1] == e["marker"][1] and m[2] == e["marker"][2]
                                                        and m[3] == "investigator")]
                    kept.append((case, moved + ([e["marker"]] if e["marker"] else [])))
        self.possible = kept

    def choose(self, state: pi.State, me: int) -> tuple[str, str]:
        """('solve', '') when one case is left, else the action that splits the possible cases best."""
        if len(self.possible) == 1:
            return "solve", ""
        actions = [("evidence", e) for e in state.display]
        save = pi.MINI_GAMES - state.mini  # keep an investigator for each mini-game to come
        if state.investigators_left[me] > save:
            actions += [("investigate", d) for d in self.c.districts]
        if not actions:
            return "solve", ""
        if not self.greedy:
            return self.rng.choice(actions)
        sample = self.possible if len(self.possible) <= 90 else self.rng.sample(self.possible, 90)
        best, best_score = actions[0], float("inf")
        for action, target in actions:
            groups = collections.Counter(self._answer(state.tiles, case, m, action, target) for case, m in sample)
            score = sum(n * n for n in groups.values())
            if score < best_score:
                best, best_score = (action, target), score
        if best_score == len(sample) ** 2:  # nothing splits what is left: guess
            return "solve", ""
        return best


def play(db, players: int, greedy: list[bool], seed: int) -> tuple[pi.State, dict[str, collections.Counter]]:
    rng = random.Random(seed)
    c = pi.city(db)
    names = NAMES[:players]
    state = pi.new_state(db, {"players": names, "seed": seed})
    notebooks = [Detective(c, greedy[i], rng) for i in range(players)]
    taken: dict[str, collections.Counter] = {"districts": collections.Counter(), "evidence": collections.Counter(),
                                             "useful": collections.Counter()}
    while not pi.is_over(state):
        if state.phase == "deal":
            pi.apply(state, {"action": "deal"})
            for n in notebooks:
                n.new_mini_game()
            continue
        me = state.current
        action, target = notebooks[me].choose(state, me)
        if action == "solve":
            case = rng.choice(notebooks[me].possible)[0]
            pi.apply(state, {"action": "solve", "by": names[me], **dict(zip(pi.KINDS, case, strict=True))})
            if not state.last_answer or not state.last_answer["right"]:
                notebooks[me].possible = [p for p in notebooks[me].possible if p[0] != case]
            continue
        answer = pi.answer_for(state, me, action, target)
        tiles = state.tiles  # the turn may end the mini-game and clear the board
        field = "district" if action == "investigate" else "card"
        pi.apply(state, {"action": action, "by": names[me], field: target})
        taken["districts" if action == "investigate" else "evidence"][target] += 1
        seen = (answer["discs"], answer["cubes"]) if action == "investigate" else (answer["answer"], answer["moved"])
        if seen not in ((0, 0), ("nothing", False)):
            taken["useful"][target] += 1
        notebooks[me].learn(tiles, action, target, seen)
    return state, taken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    db = load_database("pi")
    c = pi.city(db)
    start = time.perf_counter()
    seat_wins: dict[int, float] = collections.defaultdict(float)
    seat_points: collections.Counter[int] = collections.Counter()
    turns: list[int] = []
    boxes: collections.Counter[int] = collections.Counter()
    decided: collections.Counter[str] = collections.Counter()
    taken: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    penalties = 0
    for g in range(args.games):
        state, used = play(db, args.players, [True] * args.players, args.seed + g)
        res = pi.result(state)
        decided[res["decided_by"]] += 1
        for w in res["winners"]:
            seat_wins[state.players.index(w)] += 1 / len(res["winners"])
        for p, score in enumerate(pi.totals(state)):
            seat_points[p] += score
        for f in state.finished:
            turns += [s["turns"] for s in f["solved"]]
            boxes.update(s["points"] for s in f["solved"])
        penalties += sum(state.penalties)
        for k, v in used.items():
            taken[k].update(v)
    mixed: collections.Counter[str] = collections.Counter()
    for g in range(args.games // 2):
        state, _ = play(db, args.players, [True] + [False] * (args.players - 1), args.seed + 1000 + g)
        for w in pi.result(state)["winners"]:
            mixed["greedy" if w == state.players[0] else "random"] += 1
    took = time.perf_counter() - start
    n = args.games
    print(f"P.I. by play: {n} games of {args.players} deducing, greedy players (and {n // 2} with one greedy "
          f"against random choosers), {took:.0f} s")
    print("seat wins (seat 1 starts mini-game 1): " + ", ".join(
        f"seat {p + 1} {seat_wins[p] / n:.0%}" for p in range(args.players))
        + "; mean score " + ", ".join(f"{seat_points[p] / n:.1f}" for p in range(args.players)))
    print(f"turns to solve: mean {sum(turns) / max(len(turns), 1):.1f}, min {min(turns, default=0)}, "
          f"max {max(turns, default=0)}; boxes " + ", ".join(f"{b}: {boxes[b]}" for b in sorted(boxes, reverse=True))
          + f"; penalties per game {penalties / n:.2f}")
    print("decided by: " + ", ".join(f"{k} {v}" for k, v in decided.most_common()))
    print(f"one greedy against random choosers: greedy won {mixed['greedy']}, the random seats {mixed['random']}")
    never = [c.name[d] for d in c.districts if not taken["districts"][d]]
    useless = [c.name[e] for e in c.kind if taken["evidence"][e] and not taken["useful"][e]]
    print(f"districts investigated: {len(taken['districts'])} of 14 (never: {', '.join(never) or 'none'}); "
          f"evidence cards taken: {len(taken['evidence'])} of 36; never worth a marker when taken: "
          f"{', '.join(useless) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
