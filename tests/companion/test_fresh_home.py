"""The app on a fresh home folder (no ~/.config yet), as a new user's first start: it makes the folders
for its saves and starts, instead of stopping with Kivy's FileNotFoundError."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.companion.test_app_gui import ROOT, env_for

pytest.importorskip("kivy")


def test_the_first_start_on_a_fresh_home_makes_its_folders(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    script = tmp_path / "script.json"
    dump = tmp_path / "start.json"
    script.write_text(json.dumps([{"dump": str(dump)}, {"quit": True}]))
    env = env_for(tmp_path, script)
    del env["CASEBOOK_DATA"]
    env.pop("XDG_CONFIG_HOME", None)
    env["HOME"] = str(home)
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    assert json.loads(dump.read_text())["screen"] == "start"
    assert (home / ".config" / "casebook" / "games").is_dir()
    assert not script.with_suffix(".error").exists()
    assert Path(home / ".config").stat().st_mode & 0o700 == 0o700
