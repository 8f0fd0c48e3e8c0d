"""Benchmark the rules search: build the Graves index once, then time 200 mixed queries; then
score the players' question sets.

`python benchmarks/search.py [ROUNDS]`. Queries mix short and long, exact words, plurals,
synonyms, typos (distance 1 and 2) and words the index does not know. Each query is timed on
its own; the target is under 20 ms per query (the companion runs it on a phone). The index
remembers the typo look-ups it has made, so the first sight of each query is shown apart.

The question sets (tests/rules/questions/: the tuning set, a held-out set measured once and
then tuned on, and later held-out sets; a game has a set in a folder only where its
`<game>.yaml` is) are asked of one index over every game with a question set, each in its own game: the share whose right
answer comes first (the bar is 90 %) and within the first three (the bar is all).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.search import RulesIndex  # noqa: E402
from tests.rules.question_set import (  # noqa: E402
    HELD_OUT_6,
    HELD_OUT_7,
    HELD_OUT_8,
    HELD_OUT_9,
    HELD_OUT_10,
    HELD_OUT_11,
    HELD_OUT_12,
    HELD_OUT_13,
    HELD_OUT_14,
    HELD_OUT_15,
    HELD_OUT_16,
    HELD_OUT_17,
    HELD_OUT_18,
    HELD_OUT_19,
    HELD_OUT_20,
    HELD_OUT_21,
    HELD_OUT_22,
    HELD_OUT_23,
    SETS,
    evaluate,
    games_in,
    load_questions,
    share_first,
    share_top3,
)

QUESTION_GAMES = ("graves", "syndicate", "clash", "pi", "hasty")

QUERIES = [
    # words as written
    "park", "mulligan", "bank vault", "strongroom", "golden rule", "record office ace",
    "deuce palace", "lead player after tie", "single case points", "premature reveal",
    "alley limit", "tie at location", "how many turns clocks", "second case roles",
    "what is an ace worth", "how long does a trump change last", "who wins",
    # plurals, synonyms, question phrasing
    "parks", "villain identity", "drawn game", "2 palace", "passing swap alley",
    "can I look at the face-down evidence card whenever I like",
    "what happens when both players have empty decks and empty hands",
    # typos at distance 1 and 2
    "deuse trump", "mulligen", "stongrom", "countrysdie", "villian", "musem", "mulignan",
    "premture revael", "strongrom vualt",
    # nothing to find
    "xyzzy", "qwertyuiop asdfghjkl", "", "the of a",
    # long queries
    "discard from hand draw cards opponent evidence pile active location trump suit value",
    "when the deuce is played to the library does the trump change and who leads after a tie",
    "shoeprints 3 remove time token",
]


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    print_first_query()
    db = load_database("graves")
    start = time.perf_counter()
    index = RulesIndex.build([db])
    build_ms = (time.perf_counter() - start) * 1000
    queries = (QUERIES * (200 // len(QUERIES) + 1))[:200]
    print(f"Graves index: {len(index)} entries, built in {build_ms:.1f} ms")
    for r in range(rounds):
        times = []
        for q in queries:
            t = time.perf_counter()
            index.search(q, game="graves", limit=10)
            times.append((time.perf_counter() - t) * 1000)
        label = f"round {r + 1}: " if rounds > 1 else ""
        print(f"{label}{len(queries)} queries: mean {statistics.mean(times):.3f} ms, "
              f"median {statistics.median(times):.3f} ms, max {max(times):.3f} ms")
        if r == 0:  # each query's first run, before the typo look-up cache knows it
            first = times[:len(QUERIES)]
            print(f"  first sight of each of {len(first)} distinct queries: mean {statistics.mean(first):.3f} ms, "
                  f"max {max(first):.3f} ms")
    print_question_sets()
    return 0


def print_question_sets() -> None:
    """Each question set's accuracy per game: right answer first, and within the first three; then the
    totals per game and over every set (the figures a change to the ranking must not lower)."""
    index = RulesIndex.build([load_database(game) for game in QUESTION_GAMES])
    totals: dict[str, list[int]] = {}  # game -> [first, first three, questions]
    for name, folder in {**SETS, "held-out 6": HELD_OUT_6, "held-out 7": HELD_OUT_7, "held-out 8": HELD_OUT_8, "held-out 9": HELD_OUT_9,
                         "held-out 10": HELD_OUT_10, "held-out 11": HELD_OUT_11,
                         "held-out 12": HELD_OUT_12, "held-out 13": HELD_OUT_13,
                         "held-out 14": HELD_OUT_14, "held-out 15": HELD_OUT_15,
                         "held-out 16": HELD_OUT_16, "held-out 17": HELD_OUT_17,
                         "held-out 18": HELD_OUT_18, "held-out 19": HELD_OUT_19,
                         "held-out 20": HELD_OUT_20, "held-out 21": HELD_OUT_21,
                         "held-out 22": HELD_OUT_22, "held-out 23": HELD_OUT_23}.items():
        for game in (g for g in QUESTION_GAMES if g in games_in(folder)):
            questions = load_questions(folder, game)
            start = time.perf_counter()
            outcomes = evaluate(index, questions)
            mean_ms = (time.perf_counter() - start) * 1000 / len(questions)
            print(f"{name} questions, {game}: {len(questions)}, right answer first {share_first(outcomes):.0%}, "
                  f"in the first three {share_top3(outcomes):.0%} ({mean_ms:.2f} ms a question)")
            total = totals.setdefault(game, [0, 0, 0])
            total[0] += sum(o.place == 1 for o in outcomes)
            total[1] += sum(0 < o.place <= 3 for o in outcomes)
            total[2] += len(outcomes)
            for o in outcomes:
                if o.place != 1:
                    print(f"  [{o.place or '-'}] {o.question.ask!r}: got {', '.join(o.ranking[:3])}")
    for game, (first, top3, n) in totals.items():
        print(f"all sets, {game}: {n} questions, right answer first {first}, in the first three {top3}")
    first, top3, n = (sum(t[i] for t in totals.values()) for i in range(3))
    print(f"all sets, every game: {n} questions, right answer first {first}, in the first three {top3}")


def print_first_query() -> None:
    """The first query of a fresh process: loading P.I., building its index, and the first search (which reads
    the related-word table)."""
    start = time.perf_counter()
    db = load_database("pi")
    loaded = time.perf_counter()
    index = RulesIndex.build([db])
    built = time.perf_counter()
    index.search("how many players", game="pi")
    searched = time.perf_counter()
    print(f"first query in this process (P.I.): load {(loaded - start) * 1000:.0f} ms, build "
          f"{(built - loaded) * 1000:.0f} ms, first search {(searched - built) * 1000:.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
