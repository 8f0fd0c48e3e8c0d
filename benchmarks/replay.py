"""Benchmark: replaying a 200-event Graves log (the bar: under 50 ms). Prints mean and max."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules"))

from test_graves_properties import random_game  # noqa: E402

from rules.cards import load_database  # noqa: E402
from rules.log import replay  # noqa: E402


def main() -> int:
    db = load_database("graves")
    logs = []
    seed = 0
    while len(logs) < 10:
        log, _, _ = random_game(db, seed)
        seed += 1
        if len(log.events) >= 200:
            log.events = log.events[:200]
            logs.append(log)
    times = []
    for _ in range(5):
        for log in logs:
            start = time.perf_counter()
            result = replay(db, log)
            times.append((time.perf_counter() - start) * 1000)
            assert result.error is None
    print(f"replay of a 200-event Graves log: mean {sum(times) / len(times):.1f} ms, max {max(times):.1f} ms"
          f" ({len(times)} runs)")
    random.seed(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
