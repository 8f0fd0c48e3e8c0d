"""Whole games of Hasty Accusations written as logs from the rules and docs/game-log.md, with the results
worked out by hand (tests/data/logs/hasty/expected.yaml), and illegal logs refused with the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.rules.games import hasty as h
from casebook.rules.log import replay
from tests.rules.logfiles import read_log

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs" / "hasty"
EXPECTED = yaml.safe_load((LOGS / "expected.yaml").read_text())


@pytest.fixture(scope="module")
def db():
    from casebook.rules.cards import load_database

    return load_database("hasty")


def run(db, name):
    log = read_log(LOGS / name)
    return log, replay(db, log)


def test_every_log_has_an_expectation():
    assert sorted(EXPECTED) == sorted(p.name for p in LOGS.glob("*.yaml") if p.name != "expected.yaml")


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "winners" in e))
def test_whole_games_end_as_the_referee_says(db, name):
    want = EXPECTED[name]
    log, result = run(db, name)
    assert result.error is None, str(result.error)
    state = result.state
    got = h.result(state)
    assert got["over"] and got["winners"] == want["winners"] and got["traitor"] == want["traitor"]
    assert got["out"] == want["out"] and state.dead == want["dead"]
    assert state.events == want["events"] == len(log.events)
    assert h.problems(state) == []
    assert all(h.describe(replay(db, log, until=i).state, e) for i, e in enumerate(log.events))


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "illegal_event" in e))
def test_illegal_events_are_refused_with_the_rule(db, name):
    want = EXPECTED[name]
    _, result = run(db, name)
    assert result.error is not None, "the illegal event was accepted"
    assert result.error.event_no == want["illegal_event"], str(result.error)
    assert want["rule"] in str(result.error) and want["says"] in str(result.error), str(result.error)
    assert result.applied == want["illegal_event"] - 1
