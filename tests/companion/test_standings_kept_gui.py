"""standings.json (what the start screen lists saved games from) is written when the table is left and when the app
pauses or stops, not after every event; an app killed mid-game loses nothing: the log is saved after every event,
and a standing that is missing or stale is worked out again from the log, found stale by its checksum."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("kivy")

from casebook.companion.progress import log_digest, progress_line, standing  # noqa: E402
from casebook.companion.store import Store  # noqa: E402
from tests.companion.test_app_gui import killed_after, location_steps, new_game_steps, run  # noqa: E402


def saved_log(tmp: Path):
    games = Store(tmp / "data" / "games").games()
    assert len(games) == 1 and games[0].log is not None
    return games[0].id, games[0].log


def kept(tmp: Path, game_id: str) -> str | None:
    """The checksum of the log the kept standing was worked out for (None: none kept)."""
    path = tmp / "data" / "standings.json"
    if not path.exists():
        return None
    return (json.loads(path.read_text()).get(game_id) or {}).get("log")


def test_written_on_pause_and_on_leaving_not_after_each_event_and_a_kill_loses_nothing(tmp_path, graves_db):
    places = location_steps()
    # a game, one event, the app sent to the background, four events more: then killed
    killed_after(tmp_path, [*new_game_steps(), *places[:3], {"app": "on_pause"}, *places[3:12]])
    game_id, log = saved_log(tmp_path)
    assert len(log.events) == 5  # the log: saved after every event
    assert kept(tmp_path, game_id) == log_digest(replace(log, events=log.events[:1])), \
        "the standing was written after an event, not only on pause"

    # started again: the stale standing is found by its checksum and worked out from the log
    dump = tmp_path / "start.json"
    run(tmp_path, [{"dump": str(dump)}, {"quit": True}], name="listed")
    want = progress_line(standing(graves_db, log), len(log.events))
    assert any(want in t for t in json.loads(dump.read_text())["texts"]), want
    assert kept(tmp_path, game_id) == log_digest(log)

    # resumed, two events more, the table left for the list: written then (and the kill after it loses nothing)
    killed_after(tmp_path, [{"tap_prefix": "resume_"}, *places[12:16], {"tap": "table_home"}])
    _, log = saved_log(tmp_path)
    assert len(log.events) == 7 and kept(tmp_path, game_id) == log_digest(log)

    # resumed, one event more, killed on the table: the standing kept is the old one; the list works it out anew
    killed_after(tmp_path, [{"tap_prefix": "resume_"}, *places[16:19]])
    _, log = saved_log(tmp_path)
    assert len(log.events) == 8 and kept(tmp_path, game_id) == log_digest(replace(log, events=log.events[:7]))
    run(tmp_path, [{"dump": str(dump)}, {"quit": True}], name="listed-again")
    want = progress_line(standing(graves_db, log), len(log.events))
    assert any(want in t for t in json.loads(dump.read_text())["texts"]), want
