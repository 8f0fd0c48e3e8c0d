"""Independent referee for the P.I. engine: whole games and illegal logs in tests/data/logs/pi/referee,
written from the rulebook, game-facts, docs/game-log.md and cards/pi (rulings) only, with every answer,
box, penalty and winner worked out by hand in expected.yaml before the engine was run. Replayed through
`casebook replay LOG --json` and checked against the JSON summary."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from casebook.cli import main

REFEREE = Path(__file__).resolve().parents[1] / "data" / "logs" / "pi" / "referee"
EXPECTED = yaml.safe_load((REFEREE / "expected.yaml").read_text())
GAMES = sorted(n for n, e in EXPECTED.items() if "totals" in e)
ILLEGAL = sorted(n for n, e in EXPECTED.items() if "refused_event" in e)


def replay_json(name: str, until: int | None = None) -> dict:
    argv = ["replay", str(REFEREE / name), "--json"]
    if until is not None:
        argv += ["--until", str(until)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(argv)
    return json.loads(out.getvalue())


def answer_cases():
    for name in GAMES:
        for event, want in EXPECTED[name]["answers"].items():
            yield pytest.param(name, event, want, id=f"{name}-event{event}")


@pytest.mark.parametrize(("name", "event", "want"), list(answer_cases()))
def test_case_holder_answers_as_worked_out_by_hand(name, event, want):
    out = replay_json(name, until=event)
    assert out["error"] is None, out["error"]
    assert out["events_applied"] == event
    got = out["state"]["last_answer"]
    if want in ("right", "wrong"):
        assert got["action"] == "solve"
        assert got["right"] is (want == "right")
    elif "evidence" in want:
        assert got["action"] == "evidence"
        assert got["answer"] == want["evidence"]
        assert got["moved"] is want.get("moved", False)
    else:
        assert got["action"] == "investigate"
        assert (got["discs"], got["cubes"]) == (want["discs"], want["cubes"])


@pytest.mark.parametrize("name", GAMES)
def test_whole_game_scores_as_worked_out_by_hand(name):
    want = EXPECTED[name]
    out = replay_json(name)
    assert out["error"] is None, out["error"]
    s = out["state"]
    assert s["phase"] == "over"
    assert [m["points"] for m in s["mini_games"]] == want["mini_games"]
    assert s["points"] == {p: [m[p] for m in want["mini_games"]] for p in s["players"]}
    assert s["penalties"] == want["penalties"]
    assert s["investigators_left"] == want["investigators_left"]
    assert s["result"]["scores"] == want["totals"]
    assert s["result"]["over"] is True
    assert s["result"]["winner"] == want["winner"]
    assert s["result"]["decided_by"] == want["decided_by"]


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_event_refused_with_rule(name):
    want = EXPECTED[name]
    out = replay_json(name)
    err = out["error"]
    assert err is not None and err["kind"] == "event"
    assert err["event"] == want["refused_event"]
    assert out["events_applied"] == want["refused_event"] - 1
    assert err["rule_id"] == want["rule_id"]
