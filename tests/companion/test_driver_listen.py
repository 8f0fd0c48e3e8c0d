"""The driver's `listen` step (what tools/play_window.py plays a real window through): the app keeps running with no
step left, takes each `<n>.json` as it is written, in order, and answers each with `<n>.done`; a quit ends it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.companion.test_app_gui import ROOT, env_for

pytest.importorskip("kivy")


def wait_for(path: Path, proc: subprocess.Popen, timeout: float = 300) -> None:
    until = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, f"the app stopped before {path.name}: {proc.stderr.read()[-3000:] if proc.stderr else ''}"
        assert time.monotonic() < until, f"{path.name} not written in {timeout} s"
        time.sleep(0.05)


def put(folder: Path, n: int, step: dict) -> None:
    """A step file written whole (renamed into place), as tools/play_window.py writes them."""
    (folder / f"{n}.json.part").write_text(json.dumps(step))
    (folder / f"{n}.json.part").rename(folder / f"{n}.json")


def test_steps_are_taken_from_files_as_they_come(tmp_path):
    steps = tmp_path / "steps"
    steps.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"listen": str(steps)}]))
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")],
                            env=env_for(tmp_path, script), cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        start = tmp_path / "start.json"
        put(steps, 1, {"dump": str(start)})
        wait_for(steps / "1.done", proc)
        time.sleep(1.0)  # no step file for a while: the app waits for one, it does not stop
        assert proc.poll() is None and not (steps / "2.done").exists()
        put(steps, 2, {"tap": "new_game"})
        after = tmp_path / "after.json"
        put(steps, 3, {"dump": str(after)})
        wait_for(steps / "3.done", proc)
        assert (steps / "2.done").exists()
        assert json.loads(start.read_text())["screen"] == "start"
        assert json.loads(after.read_text())["screen"] == "new"  # the steps were taken in order
        put(steps, 4, {"quit": True})
        assert proc.wait(120) == 0
        assert not script.with_suffix(".error").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
