"""Benchmark: the history text of the referee's whole games (tests/data/logs), each event told with the
state before and after it as the companion's history screen does, and one state copy (what every check,
undo and history line costs). Prints mean and max per game."""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import GAMES  # noqa: E402
from casebook.rules.log import GameLog, parse_log, start  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402

LOGS = Path(__file__).resolve().parent.parent / "tests" / "data" / "logs"


def whole_games(folder: Path) -> list[GameLog]:
    """The legal whole games a referee wrote in a folder of logs."""
    logs = []
    for path in sorted(folder.glob("*.yaml")):
        if path.name.startswith("illegal") or path.name == "expected.yaml":
            continue
        log = parse_log(path.read_text(), str(path), Problems())
        if log is not None:
            logs.append(log)
    return logs


def main(rounds: int = 5) -> int:
    for game_id, folder in (("graves", LOGS), ("syndicate", LOGS / "syndicate")):
        db, game, logs = load_database(game_id), GAMES[game_id], whole_games(folder)
        times, copies = [], []
        for _ in range(rounds):
            for log in logs:
                began = time.perf_counter()
                state = start(db, log)
                for event in log.events:
                    game.describe(state, event)
                    game.apply(state, event)
                times.append((time.perf_counter() - began) * 1000)
                began = time.perf_counter()
                copy.deepcopy(state)
                copies.append((time.perf_counter() - began) * 1000)
        events = sum(len(log.events) for log in logs) / len(logs)
        print(f"{game_id}: history of a whole game (mean {events:.0f} events): mean {sum(times) / len(times):.1f} ms,"
              f" max {max(times):.1f} ms ({len(times)} runs); one state copy {sum(copies) / len(copies):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
