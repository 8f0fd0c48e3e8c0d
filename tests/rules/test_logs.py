"""Whole games written as logs by a referee who read only the rulebook and docs/game-log.md,
with the scores they worked out by hand (tests/data/logs/expected.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.rules.games import graves as g
from casebook.rules.log import replay
from tests.rules.logfiles import read_log

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
EXPECTED = yaml.safe_load((LOGS / "expected.yaml").read_text())


def run(graves_db, name):
    log = read_log(LOGS / name)
    return log, replay(graves_db, log)


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "scores" in e))
def test_whole_games_score_as_the_referee_says(graves_db, name):
    want = EXPECTED[name]
    log, result = run(graves_db, name)
    assert result.error is None, str(result.error)
    assert g.is_over(result.state)
    got = g.result(result.state)
    assert got["scores"] == want["scores"]
    assert got["winner"] == want["winner"]
    assert got["decided_by"] == want["decided_by"]
    players = result.state.players
    for case, points in zip(result.state.done, want["cases"], strict=True):
        assert dict(zip(players, case.points, strict=True)) == points, f"case {case.number}"
    if "location_winners" in want:
        # step through once, taking each case's row of winners as its unmasking begins
        from casebook.rules.log import start

        state, rows = start(graves_db, log), []
        for event in log.events:
            before = state.phase
            g.apply(state, event)
            if before == "play" and state.phase == "unmasking":
                rows.append([None if loc.winner is None else players[loc.winner] for loc in state.locations])
        assert rows == want["location_winners"]


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "illegal_event" in e))
def test_illegal_events_are_refused_with_the_rule(graves_db, name):
    want = EXPECTED[name]
    _, result = run(graves_db, name)
    assert result.error is not None, "the illegal event was accepted"
    assert result.error.event_no == want["illegal_event"], str(result.error)
    assert want["rule"].lower() in str(result.error).lower(), str(result.error)
