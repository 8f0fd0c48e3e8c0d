"""The start screen comes up without what it does not show (issue 20, item 12): no game's engine, card database
or table, no rules search, no generator, no kv of another screen. Each is read on first use. How fast that makes
a start is measured in benchmarks/app.py, not here; this holds what is (not yet) loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("kivy")

from tests.companion.test_app_gui import ROOT, env_for, new_game_steps  # noqa: E402

# the app as run_app.py starts it, writing at exit every module imported and every kv file read
RECORDER = """
import atexit, json, os, runpy, sys
def record():
    from kivy.lang import Builder
    json.dump({"modules": sorted(sys.modules), "kv": [os.path.basename(f) for f in Builder.files]},
              open(os.environ["RECORD"], "w"))
atexit.register(record)
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""

TABLES = [f"casebook.companion.tables.{game}.table" for game in ("graves", "syndicate", "pi", "hasty", "clash")]
ENGINES = [f"casebook.rules.games.{game}" for game in ("graves", "syndicate", "pi", "hasty", "clash")]
OTHER_KV = ["newgame.kv", "table.kv", "history.kv", "rules.kv", "settings.kv"]


# with no script: the app left alone until it has warmed up (or two minutes), then stopped
WAITER = """
from kivy.clock import Clock
import time
SINCE = time.monotonic()
def done(_dt):
    from kivy.app import App
    app = App.get_running_app()
    if app is None or app.root is None:
        return
    if app._index is not None or time.monotonic() - SINCE > 120:
        app.stop()
Clock.schedule_interval(done, 0.1)
"""


def loaded(tmp: Path, steps: list | None, name: str, warm_up: bool = False) -> dict:
    """Run the app through `steps` and quit (None: leave it to warm up): what it imported and which kv files it
    read. Warming up (what the first taps will need, read while the start screen is up) is off unless asked."""
    script, record, recorder = tmp / f"{name}.json", tmp / f"{name}.record.json", tmp / "recorder.py"
    script.write_text(json.dumps([*(steps or []), {"quit": True}]))
    recorder.write_text(RECORDER if steps is not None else WAITER + RECORDER)
    env = {**env_for(tmp, script), "RECORD": str(record), "CASEBOOK_WARM_UP": "1" if warm_up else "0"}
    if steps is None:
        del env["CASEBOOK_SCRIPT"]
    proc = subprocess.run([sys.executable, str(recorder), str(ROOT / "tests" / "companion" / "run_app.py")],
                          env=env, cwd=tmp, capture_output=True, text=True, timeout=300)
    error = script.with_suffix(".error")
    assert not error.exists(), error.read_text() + proc.stderr[-3000:]
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(record.read_text())
    return {"modules": set(found["modules"]), "kv": found["kv"]}


def test_a_first_start_reads_nothing_the_start_screen_does_not_show(tmp_path):
    dump = tmp_path / "start.json"
    got = loaded(tmp_path, [{"dump": str(dump)}], "fresh")
    texts = json.loads(dump.read_text())["texts"]
    assert "New game" in texts and "No saved games yet." in texts  # the start screen is complete
    modules = got["modules"]
    assert "casebook.companion.app" in modules and "start.kv" in got["kv"]  # the record is of the app
    early = [m for m in [*TABLES, *ENGINES, "casebook.rules.games", "casebook.rules.search", "casebook.rules.cards",
                         "casebook.rules.log", "casebook.companion.session", "casebook.companion.progress", "yaml"]
             if m in modules]
    assert not early, f"read before the start screen needs them: {early}"
    assert not [m for m in modules if m.split(".")[:2] == ["casebook", "generator"]]
    assert not set(OTHER_KV) & set(got["kv"]), got["kv"]


def test_a_new_game_reads_its_own_table_only_and_a_saved_game_lists_without_any_table(tmp_path):
    got = loaded(tmp_path, new_game_steps(), "graves")  # start -> new game -> Graves' table
    modules = got["modules"]
    assert "casebook.companion.tables.graves.table" in modules
    assert not [t for t in TABLES if t != "casebook.companion.tables.graves.table" and t in modules]
    assert "casebook.rules.search" not in modules  # the rules search waits for the Rules screen
    assert {"newgame.kv", "table.kv"} <= set(got["kv"]) and "rules.kv" not in got["kv"]

    dump = tmp_path / "saved.json"
    again = loaded(tmp_path, [{"dump": str(dump)}, {"tap": "start_rules"}], "saved")  # the game above is saved
    assert any("Graves: Ann v Ben" in t for t in json.loads(dump.read_text())["texts"])
    assert not [t for t in TABLES if t in again["modules"]]
    assert "rules.kv" in again["kv"] and "casebook.rules.search" in again["modules"]  # Rules read it when opened
    assert not {"newgame.kv", "table.kv"} & set(again["kv"])


def test_while_the_start_screen_is_up_the_first_taps_needs_are_read(tmp_path):
    """Warming up: the engines, every card database and table, the new-game and table screens, then the rules
    index are read a piece a frame once the start screen is up, so the first tap on New game, a game's Start or
    Rules does not wait for them."""
    got = loaded(tmp_path, None, "warm", warm_up=True)
    assert {*TABLES, *ENGINES, "casebook.companion.session", "casebook.rules.search"} <= got["modules"]
    assert {"newgame.kv", "table.kv"} <= set(got["kv"])


def test_the_titles_read_before_a_database_are_the_databases_own():
    """The new-game screen lists the games by their titles from game.yaml alone: the same the database gives."""
    from casebook.companion.tables import TABLES, GameDatabases, GameTitles

    dbs = GameDatabases(list(TABLES))
    early = dict(GameTitles(dbs))
    assert not [g for g in TABLES if dbs.is_loaded(g)]  # read without a database
    assert early == {g: dbs[g].short_title for g in TABLES}
    assert "chess" not in dbs and "chess" not in GameTitles(dbs)
