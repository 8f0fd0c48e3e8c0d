"""Hasty Accusations by simulation: thousands of games with simple players for each card set and player count.

Prints, for each set and player count: how long games last (turns), how often each seat wins (seat 1 starts)
against its fair share, how often the Traitor wins (Traitor variant), how games end, and for each card type
how often it is played and how often it decides a review (murders, blocks a murder, removes or reorders
evidence that held a murder card, calls a review off). The simulator knows the whole deck and plays through
the engine itself (the same apply as a table).

  .venv/bin/python benchmarks/hasty_balance.py [--games N] [--sets base,advanced] [--players 2-7]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import GameDatabase, load_database  # noqa: E402
from casebook.rules.games import hasty as h  # noqa: E402


class Greedy(h.Chooser):
    """Plays kill cards on suspects it believes are others', protect and pile cards on its own."""

    def believed_others(self, state: h.State, me: int) -> set[str]:
        known = {state.secrets[p] for p in state.players_in()
                 if p != me and (p in state.exposed or (me, p) in state.peeks)}
        return known - {h.TRAITOR}

    def score(self, state: h.State, me: int, cid: str, at: str) -> float:
        card = h.actions(state.db)[cid]
        own = state.secrets[me] == at
        enemies = self.believed_others(state, me)
        pile = len(state.piles[at])
        at_loupe = state.row.index(at) == state.loupe
        if card.kind == "kill" or card.op == "rush":
            value = -6.0 if own else 2.0 + (3.0 if at in enemies else 0.0) + 0.3 * pile
        elif card.kind == "protect":
            value = 4.0 if own else -0.5
        elif card.kind in ("pile", "review"):
            value = 2.5 if own and pile else (-0.5 if at in enemies else 0.2)
        else:
            value = 0.5 + (0.5 if at_loupe else 0.0)
        return value + self.rng.random() * 0.5

    def play(self, state: h.State, me: int, hand: list[str]) -> tuple[str, str]:
        options = [(c, s) for c in dict.fromkeys(hand) for s in h.allowed_at(state, me, c)]
        return max(options, key=lambda o: self.score(state, me, *o))

    def pick(self, state: h.State, me: int) -> str:
        mine, enemies = state.secrets[me], self.believed_others(state, me)
        return max(state.tied, key=lambda s: (s != mine, s in enemies, self.rng.random()))

    def target(self, state: h.State, me: int, card: h.ActionCard, here: str) -> str:
        options = [s for s in state.row if s != here] if card.op == "move_under" else list(state.row)
        enemies, mine = self.believed_others(state, me), state.secrets[me]
        return max(options, key=lambda s: (s != mine, s in enemies, self.rng.random()))


def tally_game(db: GameDatabase, events: list[dict[str, Any]], setup: dict[str, Any],
               tally: dict[str, Counter]) -> None:
    """Replay a simulated game's events and count, for each card type, plays, effects and decided reviews."""
    state = h.new_state(db, setup)
    for event in events:
        if event["action"] == "play":
            tally["played"][event["card"]] += 1
        h.apply(state, event)
        for cid, in_review, what in state.acted:
            if _decides(db, what, in_review):
                tally["decided"][cid] += 1
            if what not in ("idle", "short", "laid"):
                tally["acted"][cid] += 1


def _decides(db: GameDatabase, what: str, in_review: bool) -> bool:
    """An effect that changed whether someone died: a murder (at the loupe too); in a review a block, a rush
    that made a murder, a call-off or evidence turned over; anywhere, evidence with a murder card in it
    removed or moved (the review of that pile will differ)."""
    if what.startswith("removed"):
        return any(c.kind == "kill" and f"'{c.id}'" in what for c in h.actions(db).values())
    return what == "murder" or in_review and what in ("blocked", "protected", "rushed", "cancelled", "flipped")


def _ending(state: h.State) -> str:
    if not h.is_over(state):
        return "unfinished"
    return "no cards" if "no player has a card" in state.why else "traitor" if "Traitor and wins" in state.why \
        else "last player"


def run(db: GameDatabase, sets: list[str], n_players: int, games: int, variants: list[str], seed: int = 1,
        mix: str = "mixed", with_tally: bool = True) -> dict[str, Any]:
    """Many games of one set and player count; the figures."""
    tally: dict[str, Counter] = {"played": Counter(), "decided": Counter(), "acted": Counter()}
    wins: dict[int, float] = dict.fromkeys(range(n_players), 0.0)
    ends: Counter[str] = Counter()
    turns: list[int] = []
    traitor_games = traitor_wins = 0
    for g in range(games):
        rng = random.Random(seed * 100003 + g)
        if mix == "random":
            bots: list[h.Chooser] = [h.Chooser(rng) for _ in range(n_players)]
        elif mix == "greedy":
            bots = [Greedy(rng) for _ in range(n_players)]
        else:
            bots = [Greedy(rng) if rng.random() < 0.5 else h.Chooser(rng) for _ in range(n_players)]
        setup = {"players": [f"P{i + 1}" for i in range(n_players)], "variants": variants, "sets": sets,
                 "seed": seed * 100003 + g}
        state, events = h.simulate(db, setup, bots, rng)
        if with_tally:
            tally_game(db, events, setup, tally)
        turns.append(state.turn)
        ends[_ending(state)] += 1
        for w in state.winners:
            wins[w] += 1 / len(state.winners)
        if h.TRAITOR in state.secrets:
            traitor_games += 1
            traitor_wins += state.winners == [state.secrets.index(h.TRAITOR)]
    decided = sum(wins.values()) or 1
    return {"games": games, "turns": sorted(turns), "wins": [wins[p] / decided for p in range(n_players)],
            "ends": ends, "traitor": traitor_wins / traitor_games if traitor_games else None, "tally": tally}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games for each set and player count")
    parser.add_argument("--sets", default="base,advanced,expert", help="sets to try, each alone (comma list)")
    parser.add_argument("--players", default="2-7", help="player counts, e.g. 2-7 or 4")
    parser.add_argument("--mix", default="mixed", choices=["mixed", "random", "greedy"])
    args = parser.parse_args(argv)
    db = load_database("hasty", Path(os.environ.get("CASEBOOK_CARDS", str(Path(__file__).resolve().parent.parent / "cards"))))
    lo, _, hi = args.players.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    started = time.perf_counter()
    worst = 0.0
    for set_id in args.sets.split(","):
        tally_all: dict[str, Counter] = {"played": Counter(), "decided": Counter(), "acted": Counter()}
        print(f"== set {set_id} ({len(h.deck_cards(db, [set_id]))} action cards), {args.games} games each, {args.mix} players")
        print("players  turns: median (10%-90%)  seat wins / fair share (seat 1 starts)      max   ends            "
              "traitor wins (fair)")
        for n in counts:
            plain_run = run(db, [set_id], n, args.games, ["powers"], mix=args.mix)
            traitor_run = run(db, [set_id], n, max(args.games // 2, 1), ["powers", "traitor"], seed=2, mix=args.mix,
                              with_tally=False)
            t = plain_run["turns"]
            ratios = [w * n for w in plain_run["wins"]]
            worst = max(worst, max(ratios))
            ends = ", ".join(f"{k} {v / plain_run['games']:.0%}" for k, v in plain_run["ends"].most_common())
            tw = traitor_run["traitor"]
            print(f"{n:>7}  {t[len(t) // 2]:>5} ({t[len(t) // 10]}-{t[len(t) * 9 // 10]})          "
                  + " ".join(f"{r:4.2f}" for r in ratios).ljust(42) + f"  {max(ratios):4.2f}  {ends:<15} "
                  f"{tw:.0%} ({1 / n:.0%})")
            for key in tally_all:
                tally_all[key].update(plain_run["tally"][key])
        print("card type            kind         played  acted  decides a review (per 100 played)")
        for cid, card in h.actions(db).items():
            if set_id not in card.sets:
                continue
            played = tally_all["played"][cid]
            decided = tally_all["decided"][cid]
            print(f"  {card.name:<20} {card.kind:<12} {played:>6} {tally_all['acted'][cid]:>6} {decided:>6} "
                  f"({100 * decided / max(played, 1):.1f})")
        print()
    print(f"worst seat: {worst:.2f}x its fair share (bound 1.50); {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
