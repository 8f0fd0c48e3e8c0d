"""Whole P.I. games written as logs from the rulebook, game-facts and docs/game-log.md, with the results
worked out by hand (tests/data/logs/pi/expected.yaml); illegal logs are refused with event number and rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.rules.games import pi
from casebook.rules.log import replay
from tests.rules.logfiles import read_log
from tests.rules.test_pi_support import pi_database

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs" / "pi"
EXPECTED = yaml.safe_load((LOGS / "expected.yaml").read_text())


def run(name):
    log = read_log(LOGS / name)
    return replay(pi_database(), log)


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "scores" in e))
def test_whole_games_score_as_worked_out_by_hand(name):
    want = EXPECTED[name]
    result = run(name)
    assert result.error is None, str(result.error)
    state = result.state
    assert pi.is_over(state)
    s = pi.summary(state)
    assert s["points"] == want["points"]
    assert s["penalties"] == want["penalties"]
    assert s["investigators_left"] == want["investigators_left"]
    out = pi.result(state)
    assert out["scores"] == want["scores"]
    assert (out["winner"], out["decided_by"]) == (want["winner"], want["decided_by"])


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "illegal_event" in e))
def test_illegal_events_are_refused_with_the_rule(name):
    want = EXPECTED[name]
    result = run(name)
    assert result.error is not None, "the illegal event was accepted"
    assert result.error.event_no == want["illegal_event"], str(result.error)
    assert want["rule"].lower() in str(result.error).lower(), str(result.error)
    assert result.error.rule is not None and result.error.rule.id
