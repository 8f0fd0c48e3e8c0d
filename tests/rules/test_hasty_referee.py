"""Independent referee for the Hasty Accusations engine: whole games, illegal plays and probes in
tests/data/logs/hasty/referee, written from the draft rulebook, game-facts, docs/game-log.md and
cards/hasty only, each with its outcome worked out by hand in <name>.expected.yaml before the engine
was run (eliminations and murders by event, winners, checkpoints of the table, the refused event and
the words its refusal must hold). Replayed with the same parse_log/replay that `casebook replay` uses."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from casebook.cli import main
from casebook.rules.games import hasty as h
from casebook.rules.log import Replay, parse_log, replay
from casebook.rules.problems import Problems
from tests.rules.logfiles import read_log

REFEREE = Path(__file__).resolve().parents[1] / "data" / "logs" / "hasty" / "referee"
LOGS = sorted(p.name for p in REFEREE.glob("*.yaml") if not p.name.endswith(".expected.yaml"))
EXPECTED = {name: yaml.safe_load((REFEREE / name.replace(".yaml", ".expected.yaml")).read_text()) for name in LOGS}
GAMES = [n for n in LOGS if "refused" not in EXPECTED[n]]
ILLEGAL = [n for n in LOGS if "refused" in EXPECTED[n]]


@pytest.fixture(scope="module")
def db():
    from casebook.rules.cards import load_database

    return load_database("hasty")


def run(db, name: str, until: int | None = None) -> Replay:
    log = read_log(REFEREE / name)
    return replay(db, log, until=until)


def test_the_referee_covers_what_the_issue_asks():
    whole = [n for n in GAMES if EXPECTED[n].get("winners")]
    headers = {n: yaml.safe_load((REFEREE / n).read_text()) for n in whole}
    assert len(whole) >= 8 and len(ILLEGAL) >= 6
    assert {2, 4, 5, 7} <= {len(d["players"]) for d in headers.values()}
    set_lists = [tuple(d["setup"]["sets"]) for d in headers.values()]
    assert {("base",), ("advanced",), ("expert",)} <= set(set_lists) and any(len(s) > 1 for s in set_lists)
    variants = [set(d["variants"]) for d in headers.values()]
    assert any("big_hands" in v for v in variants) and any("powers" in v for v in variants)
    traitor_games = [n for n in whole if "traitor" in headers[n]["variants"]]
    assert {EXPECTED[n]["decided_by"] for n in traitor_games} >= {"traitor", "last player"}


@pytest.mark.parametrize("name", GAMES)
def test_the_log_replays_to_the_end_the_referee_worked_out(db, name):
    want = EXPECTED[name]
    got = run(db, name)
    assert got.error is None, str(got.error)
    assert got.applied == want["events"]
    result = h.result(got.state)
    if want.get("winners") is None:
        assert not result["over"] and result["out"] == []
        return
    assert result["over"] and result["winners"] == want["winners"], result["why"]
    assert result["decided_by"] == want["decided_by"]
    if "traitor" in want:
        assert result["traitor"] == want["traitor"]
    assert sorted(result["out"]) == sorted(e["player"] for e in want["eliminations"])
    assert got.state.dead == [m["suspect"] for m in want["murders"]]
    assert h.problems(got.state) == []


@pytest.mark.parametrize("name", GAMES)
def test_every_event_is_told_for_people(db, name):
    problems = Problems()
    log = parse_log((REFEREE / name).read_text(), str(REFEREE / name), problems)
    assert log is not None
    told = [h.describe(run(db, name, until=i).state, event) for i, event in enumerate(log.events)]
    assert all(told) and not any("None" in line or "_" in line for line in told), told


def moments(kind: str):
    for name in GAMES:
        for item in EXPECTED[name].get(kind, []):
            yield pytest.param(name, item, id=f"{name}-{item.get('player') or item['suspect']}-{item['event']}")


@pytest.mark.parametrize(("name", "elimination"), list(moments("eliminations")))
def test_each_player_is_out_at_the_event_the_referee_says(db, name, elimination):
    before = h.result(run(db, name, until=elimination["event"] - 1).state)["out"]
    after = h.result(run(db, name, until=elimination["event"]).state)["out"]
    assert elimination["player"] not in before and elimination["player"] in after


@pytest.mark.parametrize(("name", "murder"), list(moments("murders")))
def test_each_suspect_dies_at_the_event_the_referee_says(db, name, murder):
    assert murder["suspect"] in run(db, name, until=murder["event"] - 1).state.row
    assert murder["suspect"] in run(db, name, until=murder["event"]).state.dead


def checkpoints():
    for name in GAMES:
        for point in EXPECTED[name].get("checkpoints", []):
            yield pytest.param(name, point, id=f"{name}-after{point['after']}")


def table(summary: dict[str, Any], key: str) -> Any:
    """What the summary says for one checkpoint key, in the referee's terms (suspect ids, counts)."""
    by_name = {r["name"]: r["id"] for r in summary["row"]}
    if key == "piles":
        return {r["id"]: r["pile"] for r in summary["row"] if r["alive"]}
    if key == "alive":
        return [r["id"] for r in summary["row"] if r["alive"]]
    if key == "tied":
        return sorted(by_name[t] for t in summary["tied"])
    return summary[key]


@pytest.mark.parametrize(("name", "point"), list(checkpoints()))
def test_the_table_at_each_checkpoint_is_as_worked_out(db, name, point):
    got = run(db, name, until=point["after"])
    assert got.error is None and got.applied == point["after"], str(got.error)
    summary = h.summary(got.state)
    for key, want in point.items():
        if key == "after":
            continue
        have = table(summary, key)
        if key in ("piles", "hands"):
            assert {k: have[k] for k in want} == want, key
        elif key == "tied":
            assert have == sorted(want), key
        else:
            assert have == want, key


@pytest.mark.parametrize("name", ILLEGAL)
def test_the_illegal_event_is_refused_with_the_rule(db, name):
    want = EXPECTED[name]["refused"]
    got = run(db, name)
    assert got.error is not None, "the illegal event was accepted"
    assert got.error.event_no == want["event"] and got.applied == want["event"] - 1, str(got.error)
    message = str(got.error).lower()
    assert all(word.lower() in message for word in want["words"]), str(got.error)


@pytest.mark.parametrize("name", ILLEGAL)
def test_casebook_replay_reports_the_refusal_with_its_event_and_rule(db, name):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["replay", str(REFEREE / name), "--json"]) == 1
    error = json.loads(out.getvalue())["error"]
    assert error["kind"] == "event" and error["event"] == EXPECTED[name]["refused"]["event"]
    assert error["rule_id"] in {r.id for r in db.rules} | {f.id for f in db.faq}
