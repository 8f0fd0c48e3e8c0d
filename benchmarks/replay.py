"""Benchmark: replaying a 200-event Graves log, whole Syndicate and P.I. games (the bar: under 50 ms), and the
P.I. answer helper.
Prints mean and max."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules"))

from test_graves_properties import random_game  # noqa: E402
from test_syndicate_properties import simulate  # noqa: E402

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import pi, syndicate  # noqa: E402
from casebook.rules.log import GameLog, replay  # noqa: E402


def time_replays(db: object, logs: list[GameLog], rounds: int = 5) -> list[float]:
    """Milliseconds of each replay, every log `rounds` times; every log must replay cleanly."""
    times = []
    for _ in range(rounds):
        for log in logs:
            start = time.perf_counter()
            result = replay(db, log)  # type: ignore[arg-type]
            times.append((time.perf_counter() - start) * 1000)
            assert result.error is None
    return times


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
    times = time_replays(db, logs)
    print(f"replay of a 200-event Graves log: mean {sum(times) / len(times):.1f} ms, max {max(times):.1f} ms"
          f" ({len(times)} runs)")
    random.seed(0)
    syndicate_replay()
    pi_replay()
    return 0


def syndicate_replay() -> None:
    """Whole random Syndicate games (dealt with real hands), replayed from their logs."""
    db = load_database("syndicate")
    logs = []
    for seed in range(10):
        state = syndicate.new_state(db, {"players": ["Ann", "Ben", "Cat"]})
        events = []
        for event, _ in simulate(db, seed):
            syndicate.apply(state, event)
            events.append(event)
            if syndicate.is_over(state):
                break
        logs.append(GameLog("syndicate", 1, ["Ann", "Ben", "Cat"], events=events))
    times = time_replays(db, logs)
    turns = sum(len(log.events) for log in logs) / len(logs)
    print(f"replay of a whole Syndicate game (mean {turns:.0f} plots): mean {sum(times) / len(times):.1f} ms, "
          f"max {max(times):.1f} ms ({len(times)} runs)")


def pi_replay() -> None:
    """Whole random P.I. games (three mini-games, dealt from a seed) replayed from their logs, and the answer
    helper: what a case holder must answer for every district and every evidence card on display."""
    from tests.rules.test_pi_properties import random_game

    db = load_database("pi")
    logs = [random_game(db, seed)[0] for seed in range(10)]
    times = time_replays(db, logs)
    events = sum(len(log.events) for log in logs) / len(logs)
    print(f"replay of a whole P.I. game (three mini-games, mean {events:.0f} events): mean "
          f"{sum(times) / len(times):.1f} ms, max {max(times):.1f} ms ({len(times)} runs)")
    state = pi.new_state(db, logs[0].header())
    for event in logs[0].events[:6]:  # a few turns into the first mini-game: some markers to take into account
        pi.apply(state, event)
        if state.phase != "play":
            break
    city = pi.city(db)
    asks = [("investigate", d) for d in city.districts] + [("evidence", e) for e in state.display]
    answers = []
    for _ in range(20):
        for action, target in asks:
            start = time.perf_counter()
            pi.answer_for(state, state.current, action, target)
            answers.append((time.perf_counter() - start) * 1000)
    print(f"answer helper (one investigation or evidence card): mean {sum(answers) / len(answers) * 1000:.0f} us, "
          f"max {max(answers) * 1000:.0f} us ({len(answers)} answers)")


if __name__ == "__main__":
    sys.exit(main())
