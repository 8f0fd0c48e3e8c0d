"""The broken-database corpus: every case in broken_corpus.yaml breaks one thing in a copy
of cards/ and layouts/; `casebook build` and `casebook validate` must both refuse it with
exit 1 and a message naming the problem (and its file:LINE:COL where the case says so),
never a traceback, and a failed build must leave earlier output exactly as it was.

The commands run in a subprocess, as a designer runs them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("broken_corpus.yaml")
CASES = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
SENTINEL = b"%PDF-1.4\n% an earlier build, which a failed build must leave alone\n%%EOF\n"
CASE_KEYS = {"name", "game", "file", "find", "replace", "expect", "line", "xfail"}
GAMES = ("graves", "syndicate", "pi", "hasty")


def casebook(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "casebook", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def copy_data(tmp_path: Path) -> tuple[Path, Path]:
    cards, layouts = tmp_path / "cards", tmp_path / "layouts"
    shutil.copytree(ROOT / "cards", cards)
    shutil.copytree(ROOT / "layouts", layouts)
    return cards, layouts


def break_copy(case: dict, tmp_path: Path) -> Path:
    """Apply the case to the copy under tmp_path; the path of the broken file."""
    rel = Path(case["file"])
    assert rel.parts[0] in ("cards", "layouts"), f"{case['name']}: file must be under cards/ or layouts/"
    original = (ROOT / rel).read_text(encoding="utf-8")
    count = original.count(case["find"])
    assert count == 1, (f"corpus case '{case['name']}': the text to find occurs {count} times in {rel} "
                        f"(it must occur exactly once; has the data changed?):\n{case['find']!r}")
    target = tmp_path / rel
    target.write_text(original.replace(case["find"], case["replace"], 1), encoding="utf-8")
    return target


def output_of(result: subprocess.CompletedProcess[str]) -> str:
    return result.stdout + result.stderr


def check_refusal(case: dict, result: subprocess.CompletedProcess[str], broken: Path, what: str) -> None:
    out = output_of(result)
    assert "Traceback" not in out, f"{what}: a traceback instead of a message:\n{out}"
    assert result.returncode == 1, f"{what}: exit {result.returncode}, expected 1:\n{out}"
    assert re.search(case["expect"], out), f"{what}: no message matching {case['expect']!r} in:\n{out}"
    if case.get("line"):
        located = re.compile(r"(?:^|[\\/])" + re.escape(broken.name) + r":(\d+):(\d+): error: ", re.M)
        hits = located.findall(out)
        assert hits, f"{what}: no '{broken.name}:LINE:COL: error:' in:\n{out}"
        lines = broken.read_text(encoding="utf-8").count("\n") + 1
        for line, col in hits:
            assert 1 <= int(line) <= lines and int(col) >= 1, f"{what}: place {line}:{col} is not in {broken}"
        # the located message is the one the case expects, not some other problem
        assert any(re.search(case["expect"], ln) for ln in out.splitlines() if located.search(ln)), \
            f"{what}: the message {case['expect']!r} does not carry {broken.name}:LINE:COL:\n{out}"


def test_corpus_is_well_formed() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(CASES) >= 25
    for case in CASES:
        assert set(case) <= CASE_KEYS, f"{case['name']}: unknown keys {set(case) - CASE_KEYS}"
        assert {"name", "file", "find", "replace", "expect"} <= set(case), case.get("name")
        assert case["find"] != case["replace"], case["name"]
        assert case.get("game", "graves") in GAMES, case["name"]
        re.compile(case["expect"])


@pytest.mark.parametrize("game", GAMES)
def test_unbroken_copy_validates_and_builds(tmp_path: Path, game: str) -> None:
    """The harness itself is sound: the same copy, unbroken, validates and builds."""
    cards, layouts = copy_data(tmp_path)
    result = casebook("validate", game, "--cards", str(cards), "--layouts", str(layouts))
    assert result.returncode == 0, output_of(result)
    assert f"{game}: ok" in result.stdout
    out = tmp_path / "out"
    result = casebook("build", game, "--paper", "a4", "--cards", str(cards), "--layouts", str(layouts),
                      "--out", str(out))
    assert result.returncode == 0, output_of(result)
    pdf = out / game / f"{game}-a4.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    # the scene cache (.cache/) is kept on purpose; a temporary file inside it would still be found
    assert not [p for p in out.rglob(".*") if p.name != ".cache"], "temporary files left behind"


def _param(case: dict) -> Any:
    """A case as a test parameter; `xfail: <reason>` marks a known product bug (strict: a fix shows)."""
    marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if case.get("xfail") else []
    return pytest.param(case, id=case["name"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_broken_database_is_refused(case: dict, tmp_path: Path) -> None:
    cards, layouts = copy_data(tmp_path)
    broken = break_copy(case, tmp_path)
    game = case.get("game", "graves")
    out = tmp_path / "out"
    sentinel = out / game / f"{game}-a4.pdf"
    sentinel.parent.mkdir(parents=True)
    sentinel.write_bytes(SENTINEL)

    result = casebook("build", game, "--paper", "a4", "--cards", str(cards), "--layouts", str(layouts),
                      "--out", str(out))
    check_refusal(case, result, broken, "build")
    assert "not built" in result.stderr, output_of(result)
    assert sentinel.read_bytes() == SENTINEL, "a failed build changed the existing PDF"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [game, f"{game}/{game}-a4.pdf"], \
        "a failed build left files behind"

    result = casebook("validate", game, "--cards", str(cards), "--layouts", str(layouts))
    check_refusal(case, result, broken, "validate")
    assert re.search(rf"^{game}: \d+ problem\(s\)$", result.stdout, re.M), output_of(result)
