"""Clash of Minds by simulation: thousands of games with simple players on both sides, with and without agents.

Prints, for each pairing (random or greedy Holmes against random or greedy Moriarty) and mode: Holmes' wins,
Moriarty's wins and draws, how many Stages a game lasts and how many hours the clock shows at the end; then
for each influence card design how often it is put into play, used, and how often it decides a thread's
Summary (without it the thread would have ended in another band: a reveal, a token, an hour or two); the
same for agents (activated, and the Summaries their thread bonus decided is not counted), sites and crime
plans. The simulator keeps real shuffled decks and hands and plays through the engine itself.

  .venv/bin/python benchmarks/clash_balance.py [--games 1000] [--greedy-games 300] [--seed 1]
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
from casebook.rules.games import clash as c  # noqa: E402

PLAYERS = {"random": c.Player, "greedy": c.GreedyPlayer}
PAIRINGS = [("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("random", "greedy")]
BOUND = 0.55


def design_of(db: GameDatabase) -> dict[str, str]:
    """Each influence card id (both sides) -> the Holmes id of its design (the decks are alike)."""
    out = {}
    for side in c.SIDES:
        for card in c.cards(db).influence[side].values():
            twin = next(h for h in c.cards(db).influence["holmes"].values()
                        if (h.value, h.used_value, h.effect) == (card.value, card.used_value, card.effect))
            out[card.id] = twin.id
    return out


def run(db: GameDatabase, holmes: str, moriarty: str, games: int, agents: bool, seed: int) -> dict[str, Any]:
    """Play `games` games; the tallies of wins, lengths and cards."""
    design = design_of(db)
    tally: dict[str, Counter[str]] = {k: Counter() for k in ("played", "used", "decided", "agents", "sites",
                                                              "revealed", "plans")}
    wins: Counter[str] = Counter()
    stages, hours = [], []
    for n in range(games):
        rng = random.Random(seed * 1_000_003 + n)
        setup = {"players": ["Holmes", "Moriarty"], "variants": ["agents"] if agents else []}
        state, events = c.simulate(db, setup, {"holmes": PLAYERS[holmes](rng), "moriarty": PLAYERS[moriarty](rng)},
                                   rng)
        wins[str(state.winner)] += 1
        stages.append(state.stage)
        hours.append(state.hours)
        for event in events:
            action = event["action"]
            if action in ("setup", "play"):
                tally["played"][design[str(event["card"])]] += 1
            elif action == "reveal" and event.get("take") == "play":
                tally["played"][design[str(event["influence"])]] += 1
            elif action == "use" or (action == "reveal" and event.get("take") == "use"):
                tally["used"][design[str(event["card"] if action == "use" else event["influence"])]] += 1
            elif action == "activate":
                tally["agents"][str(event["agent"])] += 1
        for stage in state.conclusions:
            for conclusion in stage:
                for _, cid in conclusion.decided:
                    tally["decided"][design[cid]] += 1
                if conclusion.plan:
                    tally["revealed"][conclusion.plan] += 1
        tally["sites"].update(state.stage_sites)
        tally["plans"].update(state.plan or [])
    return {"games": games, "wins": wins, "stages": sorted(stages), "hours": hours, "tally": tally}


def share(counter: Counter[str], key: str, games: int) -> float:
    return counter[key] / max(games, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games for a pairing of random players, per mode")
    parser.add_argument("--greedy-games", type=int, default=300, help="games for a pairing with a greedy player")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    db = load_database("clash", Path(os.environ.get("CASEBOOK_CARDS",
                                                    str(Path(__file__).resolve().parent.parent / "cards"))))
    started = time.perf_counter()
    worst = 0.0
    totals: dict[str, Counter[str]] = {}
    all_games = 0
    print("mode     Holmes v Moriarty   games  Holmes  Moriarty  draws   stages: mean (min-max)  hours at the end")
    for agents in (False, True):
        for holmes, moriarty in PAIRINGS:
            games = args.games if holmes == moriarty == "random" else args.greedy_games
            r = run(db, holmes, moriarty, games, agents, args.seed)
            all_games += games
            w, s = r["wins"], r["stages"]
            h, m, d = (share(w, k, games) for k in ("holmes", "moriarty", "draw"))
            if holmes == moriarty:
                worst = max(worst, h, m)
            print(f"{'agents' if agents else 'plain':<8} {holmes:>6} v {moriarty:<8}  {games:>6}  {h:6.1%}  {m:8.1%}"
                  f"  {d:5.1%}   {sum(s) / len(s):4.2f} ({s[0]}-{s[-1]})            "
                  f"{sum(r['hours']) / len(r['hours']):4.1f}")
            if holmes == moriarty:
                for key, counter in r["tally"].items():
                    totals.setdefault(key, Counter()).update(counter)
    cs = c.cards(db)
    print("\ninfluence card design (Holmes / Moriarty name)      value/used  played  used  decides (per 100 played)")
    for cid, card in cs.influence["holmes"].items():
        twin = next(m for m in cs.influence["moriarty"].values() if (m.value, m.used_value, m.effect)
                    == (card.value, card.used_value, card.effect))
        played, decided = totals["played"][cid], totals["decided"][cid]
        print(f"  {card.name + ' / ' + twin.name:<48} {card.value}/{card.used_value}       {played:>6} "
              f"{totals['used'][cid]:>5}  {decided:>6} ({100 * decided / max(played, 1):4.1f})")
    print("agent                      cost  activated")
    for side in c.SIDES:
        for aid, agent in cs.agents[side].items():
            print(f"  {agent.name:<25} {agent.cost:>4}  {totals['agents'][aid]:>6}")
    print("crime plan                 thread   in plans  revealed (share)")
    for pid, plan in cs.plans.items():
        inplan, revealed = totals["plans"][pid], totals["revealed"][pid]
        print(f"  {plan.name:<25} {plan.thread:<8} {inplan:>6} {revealed:>8} ({revealed / max(inplan, 1):.0%})")
    print(f"\nsame players on both sides: the stronger side wins {worst:.1%} at most (bound {BOUND:.0%}); "
          f"{all_games} games in {time.perf_counter() - started:.0f} s")
    return 0 if worst <= BOUND else 1


if __name__ == "__main__":
    raise SystemExit(main())
