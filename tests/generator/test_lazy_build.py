"""A build imports what it draws with, not what only some builds use (issue 21, item 13): no multiprocessing
without PNGs, no workbook reader without a workbook, no SVG or PNG backend without pictures or PNGs, no
print-service export unless asked for, no board layout without a board, no game engine but the built game's
(the registry imports an engine when it is looked up: tests/rules/test_registry.py). How fast that makes a
build is measured in benchmarks/speed.py, not here; this holds what is (not) loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"

# the command in a fresh process; at its end, every module it imported
RECORDER = """
import json, sys
from casebook.cli import main
code = main(sys.argv[2:])
json.dump({"code": code, "modules": sorted(sys.modules)}, open(sys.argv[1], "w"))
"""

ONLY_SOME_BUILDS = ["multiprocessing", "concurrent.futures.process", "openpyxl", "svglib", "pypdfium2",
                    "casebook.rules.workbook", "casebook.generator.backends.png", "casebook.generator.backends.raster",
                    *(f"casebook.generator.exports.{name}" for name in ("cards", "cover", "preview", "services", "tts",
                                                                          "variants")),
                    "casebook.generator.board", "casebook.generator.exports.transform", "casebook.generator.images",
                    *(f"casebook.rules.games.{game}" for game in ("graves", "pi", "syndicate", "clash", "hasty"))]


def modules_of_build(tmp_path: Path, *args: str) -> set[str]:
    record = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", RECORDER, str(record), "build", *args, "--paper", "a4",
                             "--out", str(tmp_path / "out")], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(record.read_text(encoding="utf-8"))
    assert report["code"] == 0
    return set(report["modules"])


def test_a_build_imports_nothing_only_some_builds_use(tmp_path: Path) -> None:
    loaded = modules_of_build(tmp_path, "moth", "--cards", str(TINY / "cards"), "--layouts", str(TINY / "layouts"))
    assert "casebook.generator.backends.pdf" in loaded  # the recorder saw the build
    assert not loaded & set(ONLY_SOME_BUILDS), sorted(loaded & set(ONLY_SOME_BUILDS))


def test_a_game_imports_its_own_engine_alone_and_a_board_only_where_it_has_one(tmp_path: Path) -> None:
    graves = modules_of_build(tmp_path / "graves", "graves")
    assert {m for m in graves if m.startswith("casebook.rules.games.")} == {"casebook.rules.games.graves"}
    assert "casebook.generator.board" not in graves  # no sheet of Graves is a board
    pi = modules_of_build(tmp_path / "pi", "pi")
    assert {m for m in pi if m.startswith("casebook.rules.games.")} == {"casebook.rules.games.pi"}
    assert "casebook.generator.board" in pi  # the city is
