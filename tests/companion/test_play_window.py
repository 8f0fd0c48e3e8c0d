"""tools/play_window.py's Window is a context manager: `with Window(...) as w:` stops the app and the X screen, writes
what the screenshots found and prints the warnings however the play ends, and both plays use it (no `finally:` of
their own, the same in each)."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("kivy")

ROOT = Path(__file__).resolve().parents[2]
PLAYS = [ROOT / "tools" / "play_hasty7.py", ROOT / "tools" / "play_pi5.py", ROOT / "tools" / "play_graves2.py"]


def play_window(display: str, monkeypatch):
    monkeypatch.setenv("CASEBOOK_PLAY_DISPLAY", display)  # its own X screen: a play of :77 may be running
    spec = importlib.util.spec_from_file_location("play_window_under_test", ROOT / "tools" / "play_window.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("play", PLAYS, ids=lambda p: p.name)
def test_each_play_runs_in_a_with_window_block_of_its_own(play):
    tree = ast.parse(play.read_text())
    main = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "main")
    withs = [w for w in ast.walk(main) if isinstance(w, ast.With)]
    opened = [item for w in withs for item in w.items
              if isinstance(item.context_expr, ast.Call) and getattr(item.context_expr.func, "id", "") == "Window"]
    assert opened, f"{play.name}: no `with Window(...) as w:`"
    finals = [t for t in ast.walk(main) if isinstance(t, ast.Try) and t.finalbody]
    assert finals == [], f"{play.name}: a finally: block of its own"
    closes = [c for c in ast.walk(main) if isinstance(c, ast.Attribute) and c.attr == "close"]
    assert closes == [], f"{play.name}: closes the window itself"


@pytest.mark.skipif(not all(shutil.which(t) for t in ("Xvfb", "xdotool", "import")), reason="needs Xvfb, xdotool, "
                    "ImageMagick")
def test_a_play_that_stops_half_way_still_stops_the_app_and_the_screen(tmp_path, capsys, monkeypatch):
    pw = play_window(f":{90 + os.getpid() % 100}", monkeypatch)
    with pytest.raises(SystemExit, match="no control 'no_such_button'"), pw.Window("ctx", shots=tmp_path) as w:
        w.shot("start")
        w.warnings.append("a warning of the play's")
        w.where("no_such_button")  # the play stops: sys.exit from inside the block
    assert w.app.poll() is not None, "the app still runs"
    assert w.xvfb.poll() is not None, "the X screen still runs"
    assert not w.tmp.exists()
    seen = json.loads((tmp_path / "ctx-seen.json").read_text())
    assert seen["warnings"] == ["a warning of the play's"] and [s["shot"] for s in seen["shots"]] == ["ctx-001-start.png"]
    assert "warning: a warning of the play's" in capsys.readouterr().out


def test_a_control_lit_by_a_tap_is_a_change(monkeypatch):
    """A Graves rank tapped changes only its button's fill: the play sees that at once instead of waiting out its
    20 s for a change."""
    pw = play_window(":99", monkeypatch)
    rank = {"rect": [0, 0, 60, 48], "disabled": False, "fill_rgba": [1, 1, 1, 1]}
    before = {"screen": "table", "summary": {}, "texts": ["Ann to act"], "controls": {"rank_9": rank}}
    after = {**before, "controls": {"rank_9": {**rank, "fill_rgba": [0.2, 0.3, 0.6, 1]}}}
    assert pw.Window._face(before) != pw.Window._face(after)
    assert pw.Window._face(before) == pw.Window._face(json.loads(json.dumps(before)))
