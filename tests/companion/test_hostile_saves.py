"""Resuming with a hostile save in the folder (tests/rules/hostile_corpus.py): the store never
raises, lists every game, and says in one plain sentence which save could not be used.

A hostile save may carry a correct seal line (the checksum is no secret), so both sealed and
bare files are tried. Each case runs in a subprocess with a timeout and a memory limit, the
guard against a reader that expands an alias bomb. No window, no App.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.rules.hostile_corpus import LOG_CASES, Hostile, log_host, python

GOOD, HOSTILE = "graves-20260101-090000", "graves-20260101-100000"

RESUME = """
import json, sys
from pathlib import Path
from casebook.companion.store import Store
store = Store(Path(sys.argv[1]), titles={"graves": "Graves"})
games = {g.id: {"events": g.events, "warning": g.warning, "readable": g.log is not None} for g in store.games()}
loaded = {gid: store.load(gid) for gid in games}
print(json.dumps({"games": games, "loaded": {gid: {"readable": log is not None, "events": len(log.events) if log else 0,
                                                  "warning": warning} for gid, (log, warning) in loaded.items()}}))
"""


def good_save(folder: Path) -> int:
    """A real game saved through the store; its number of events."""
    from casebook.companion.store import Store
    from casebook.rules.log import parse_log
    from casebook.rules.problems import Problems

    log = parse_log(log_host(), "single_case.yaml", Problems())
    assert log is not None
    Store(folder).save(GOOD, log)
    return len(log.events)


def hostile_bytes(case: Hostile, sealed: bool) -> bytes:
    from casebook.companion.store import seal

    data = case.file_bytes(log_host())
    if not sealed:
        return data
    try:
        body = data.decode("utf-8")
    except UnicodeDecodeError:  # a seal covers text; an undecodable file keeps a seal of its UTF-8 host
        return seal(log_host(), 1, 0).encode("utf-8") + data
    return (seal(body, 1, 0) + body).encode("utf-8")


def resume(folder: Path) -> dict:
    result = python(RESUME, str(folder))
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def assert_plain_sentence(warning: str | None) -> None:
    assert warning, "no warning for a save that could not be used"
    assert "\n" not in warning and len(warning) < 300, warning
    assert "Graves" in warning and HOSTILE in warning, warning
    assert not any(word in warning for word in ("YAML", "Traceback", "error:", "alias", "anchor")), warning


@pytest.mark.parametrize("sealed", [False, True], ids=["bare", "sealed"])
@pytest.mark.parametrize("case", LOG_CASES, ids=[c.name for c in LOG_CASES])
def test_resume_with_a_hostile_save_warns_and_keeps_the_others(case: Hostile, sealed: bool, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    events = good_save(folder)
    (folder / f"{HOSTILE}.yaml").write_bytes(hostile_bytes(case, sealed))
    report = resume(folder)
    assert set(report["games"]) == {GOOD, HOSTILE}
    assert report["games"][GOOD] == {"events": events, "warning": None, "readable": True}
    assert report["loaded"][GOOD] == {"readable": True, "events": events, "warning": None}
    assert not report["games"][HOSTILE]["readable"] and not report["loaded"][HOSTILE]["readable"]
    assert_plain_sentence(report["games"][HOSTILE]["warning"])
    assert report["loaded"][HOSTILE]["warning"] == report["games"][HOSTILE]["warning"]


def test_a_bomb_over_a_save_falls_back_to_its_backup(tmp_path: Path) -> None:
    """A hostile file in place of a save with a good backup: the backup is used, and said so."""
    folder = tmp_path / "saves"
    events = good_save(folder)
    main = folder / f"{GOOD}.yaml"
    main.rename(folder / f"{GOOD}.yaml.bak")
    case = next(c for c in LOG_CASES if c.name == "bomb_lists")
    main.write_bytes(hostile_bytes(case, sealed=True))
    report = resume(folder)
    loaded = report["loaded"][GOOD]
    assert loaded["readable"] and loaded["events"] == events
    assert loaded["warning"] and "damaged" in loaded["warning"] and "\n" not in loaded["warning"]
