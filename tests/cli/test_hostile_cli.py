"""`casebook validate` and `casebook replay` refuse hostile files (tests/rules/hostile_corpus.py):
exit 1, `file:line:col: error: ...` at the hostile line, never a traceback, never a flood.

Each command runs as a designer runs it, in a subprocess with a timeout and a memory limit as
a guard against a reader that expands an alias bomb. Timings: benchmarks/hostile.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rules.hostile_corpus import (
    CARD_CASES,
    CARD_HOST,
    CASES,
    LOG_CASES,
    ROOT,
    Hostile,
    log_host,
    run_guarded,
)

UNDECODABLE = {"latin1_bytes", "utf16_bom"}  # decoded by read_source, which names the line


def casebook(*args: str) -> subprocess.CompletedProcess[str]:
    return run_guarded([sys.executable, "-m", "casebook", *args])


def card_copy(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    return tmp_path / "cards", tmp_path / "layouts"


def assert_refused_at(result: subprocess.CompletedProcess[str], path: Path, pattern: str,
                      line: int | None, after_line: int) -> None:
    """Exit 1, no traceback, a short output, and `path:LINE:COL: error:` matching `pattern` at `line`."""
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out[-3000:]
    assert result.returncode == 1, f"exit {result.returncode}:\n{out[-3000:]}"
    assert len(out) < 50_000, f"{len(out)} characters of output: a flood"
    located = re.findall(re.escape(path.name) + r":(\d+):(\d+): error: (.*)", out)
    hits = [int(ln) for ln, _col, message in located if re.search(pattern, message)]
    assert hits, f"no '{path.name}:LINE:COL: error: {pattern}' in:\n{out[:3000]}"
    if line is None:
        assert hits[0] > after_line, f"refused at line {hits[0]}, not in the hostile part after line {after_line}"
    else:
        assert hits[0] == line, f"refused at line {hits[0]}, expected {line}:\n{out[:3000]}"


def plant(case: Hostile, tmp_path: Path, rel: Path = CARD_HOST) -> tuple[Path, Path, Path, str]:
    """A cards/ and layouts/ copy with the hostile tail after the file `rel`; the copy's paths and host."""
    cards, layouts = card_copy(tmp_path)
    target = tmp_path / rel
    host = target.read_text(encoding="utf-8")
    target.write_bytes(case.file_bytes(host))
    return cards, layouts, target, host


@pytest.mark.parametrize("case", CARD_CASES, ids=[c.name for c in CARD_CASES])
def test_validate_refuses_a_hostile_card_file(case: Hostile, tmp_path: Path) -> None:
    cards, layouts, target, host = plant(case, tmp_path)
    result = casebook("validate", "graves", "--cards", str(cards), "--layouts", str(layouts))
    assert case.card is not None
    assert_refused_at(result, target, case.card, case.expected_line(host, False), host.count("\n"))
    assert re.search(r"^graves: \d+ problem\(s\)$", result.stdout, re.M), result.stdout[-2000:]


@pytest.mark.parametrize("rel", [Path("cards/graves/game.yaml"), Path("layouts/graves/deck-face.yaml")],
                         ids=["game.yaml", "layout"])
def test_validate_refuses_a_bomb_in_any_yaml_it_reads(rel: Path, tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "bomb_mappings")
    cards, layouts, target, host = plant(case, tmp_path, rel)
    result = casebook("validate", "graves", "--cards", str(cards), "--layouts", str(layouts))
    assert_refused_at(result, target, r"alias bomb", None, host.count("\n"))


@pytest.mark.parametrize("case", LOG_CASES, ids=[c.name for c in LOG_CASES])
def test_replay_refuses_a_hostile_log(case: Hostile, tmp_path: Path) -> None:
    host = log_host()
    path = tmp_path / "game.yaml"
    path.write_bytes(case.file_bytes(host))
    result = casebook("replay", str(path))
    assert case.log is not None
    assert_refused_at(result, path, case.log, case.expected_line(host, True), host.count("\n"))


@pytest.mark.parametrize("name", sorted(UNDECODABLE))
def test_replay_of_a_log_that_is_not_utf8_fails_cleanly(name: str, tmp_path: Path) -> None:
    """A log that is not UTF-8: exit 1, the file and line named, no traceback."""
    case = next(c for c in CASES if c.name == name)
    path = tmp_path / "game.yaml"
    path.write_bytes(case.file_bytes(log_host()))
    result = casebook("replay", str(path))
    out = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in out and "game.yaml" in out, out[-2000:]
