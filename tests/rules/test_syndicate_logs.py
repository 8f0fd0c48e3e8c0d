"""Whole games of The Syndicate written as logs by a referee who read only the rulebook and
docs/game-log.md, with the results they worked out by hand (tests/data/logs/syndicate/expected.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.rules.games import syndicate as s
from casebook.rules.log import replay
from tests.rules.logfiles import read_log

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs" / "syndicate"
EXPECTED = yaml.safe_load((LOGS / "expected.yaml").read_text())


def run(db, name):
    log = read_log(LOGS / name)
    return replay(db, log)


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "scores" in e))
def test_whole_games_score_as_the_referee_says(syndicate_db, name):
    want = EXPECTED[name]
    result = run(syndicate_db, name)
    assert result.error is None, str(result.error)
    state = result.state
    assert s.is_over(state)
    got = s.result(state)
    assert got["scores"] == want["scores"]
    assert got["winner"] == want["winner"]
    assert len(state.plots) == want["turns"]
    assert state.reshuffles == want["reshuffles"]
    names = state.players
    per_turn = [{names[p]: n for p, n in enumerate(plot.points) if n} for plot in state.plots]
    assert per_turn == want["points"]


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "illegal_event" in e))
def test_illegal_events_are_refused_with_the_rule(syndicate_db, name):
    want = EXPECTED[name]
    result = run(syndicate_db, name)
    assert result.error is not None, "the illegal event was accepted"
    assert result.error.event_no == want["illegal_event"], str(result.error)
    assert want["rule"].lower() in str(result.error).lower(), str(result.error)
