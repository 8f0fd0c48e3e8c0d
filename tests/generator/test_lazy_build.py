"""A build imports what it draws with, not what only some builds use (issue 21, item 13): no multiprocessing
without PNGs, no workbook reader without a workbook, no SVG or PNG backend without pictures or PNGs, no
print-service export unless asked for, no board layout without a board, no game engine but the built game's
(the registry imports an engine when it is looked up: tests/rules/test_registry.py). How fast that makes a
build is measured in benchmarks/speed.py, not here; this holds what is (not) loaded."""

from __future__ import annotations

import json
import os
import shutil
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
                    *(f"casebook.rules.games.{game}" for game in ("graves", "pi", "syndicate", "clash", "hasty")),
                    "casebook.rules_cmd", "casebook.generator.exports", "casebook.generator.exports.run",  # rules; an export
                    "signal"]  # a --watch's (generator/watch.py: every build imports it; threading, Pillow does)


def modules_of_build(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> set[str]:
    record = tmp_path / "modules.json"
    tmp_path.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
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


def test_a_rebuild_after_a_card_edit_of_a_plain_layout_imports_no_jinja2_and_prints_the_same(tmp_path: Path) -> None:
    """The edited card's templates only put values into text, or read nothing of the card (its frame's size, drawn
    for two cards of an earlier build: kept in the store); the sheet page reads no card: its scene and every other
    come from the store, templates' names from the template cache; the PDF is a cold build's."""
    game = tmp_path / "game"
    shutil.copytree(TINY, game)
    aid = game / "layouts" / "moth" / "aid.yaml"
    text = aid.read_text(encoding="utf-8")
    rows = "    rows: |\n      {% for card in cards.deck %}\n      {{ card.name }}\n      {% endfor %}\n"
    assert rows in text
    aid.write_text(text.replace(rows, "    rows: [Dusty, Luna]\n"), encoding="utf-8")  # its table lists no card
    deck = game / "cards" / "moth" / "deck.yaml"
    args = ("moth", "--cards", str(game / "cards"), "--layouts", str(game / "layouts"))
    env = {"CASEBOOK_CACHE_DIR": str(tmp_path / "cache")}
    assert "jinja2" in modules_of_build(tmp_path, *args, env=env)  # the first build renders every template
    modules_of_build(tmp_path, *args, env=env)  # one that composes nothing keeps the shared drawings all the same
    deck.write_text(deck.read_text(encoding="utf-8").replace("Luna Moth", "Luna Moth Edited"), encoding="utf-8")
    assert "Luna Moth Edited" in deck.read_text(encoding="utf-8")
    again = modules_of_build(tmp_path, *args, env=env)
    assert "casebook.generator.backends.pdf" in again and "jinja2" not in again
    cold = tmp_path / "cold"
    modules_of_build(cold, *args, env={"CASEBOOK_CACHE_DIR": ""})
    assert (tmp_path / "out" / "moth" / "moth-a4.pdf").read_bytes() == (cold / "out" / "moth" / "moth-a4.pdf").read_bytes()
