"""A new game prints without a line of Python: the made-up "Moth and Lamp" under
tests/data/tinygame/ (its own cards, sizes, symbols and layouts) builds and validates
through the real command, though nothing in rules/games/ or the generator knows it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"
CARDS, LAYOUTS = TINY / "cards", TINY / "layouts"
NAMES = ["Dusty Miller", "Luna Moth", "Death Head", "Tallow Candle", "Oil Lantern", "Gas Mantle"]
PAPERS = ("a4", "letter")


def casebook(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "casebook", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def page_texts(pdf: Path) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        texts = []
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            texts.append(" ".join(textpage.get_text_range().split()))
            textpage.close()
            page.close()
        return texts
    finally:
        doc.close()


@pytest.fixture(scope="module")
def moth_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("moth-out")
    result = casebook("build", "moth", "--cards", str(CARDS), "--layouts", str(LAYOUTS), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return out / "moth"


def test_nothing_knows_the_game_by_name() -> None:
    from casebook.rules.games import GAMES, find_game

    assert "moth" not in GAMES
    assert find_game("moth", default=None) is None
    assert not (ROOT / "rules" / "games" / "moth.py").exists()
    # it lives only in the test data: the project's own folders do not hold it
    assert not (ROOT / "cards" / "moth").exists()
    assert not (ROOT / "layouts" / "moth").exists()
    # and it brings its own sizes and symbols
    assert (LAYOUTS / "sizes.yaml").is_file() and (LAYOUTS / "symbols.yaml").is_file()


def test_validate(tmp_path: Path) -> None:
    result = casebook("validate", "moth", "--cards", str(CARDS), "--layouts", str(LAYOUTS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "moth: ok (6 cards, 2 rules, 1 rulings)" in result.stdout
    # from another working directory too: nothing depends on the current folder
    result = casebook("validate", "moth", "--cards", str(CARDS), "--layouts", str(LAYOUTS), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_default_database_does_not_have_it() -> None:
    result = casebook("validate", "moth")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "unknown game moth" in result.stderr


def test_build_writes_both_papers(moth_build: Path) -> None:
    # (beside them, the hidden .cache/ of composed scenes that makes a rebuild incremental)
    assert sorted(p.name for p in moth_build.iterdir() if not p.name.startswith(".")) == ["moth-a4.pdf", "moth-letter.pdf"]
    for paper in PAPERS:
        assert (moth_build / f"moth-{paper}.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("paper", PAPERS)
def test_pages(moth_build: Path, paper: str) -> None:
    texts = page_texts(moth_build / f"moth-{paper}.pdf")
    # 6 poker cards fit one sheet on both papers: a face page and a back page, then the aid,
    # then the two pages of the duplex calibration sheet every set ends with
    assert len(texts) == 2 + 1 + 2, texts
    faces, backs, aid, calibration, _ = texts
    assert "Duplex calibration" in calibration
    for name in NAMES:
        assert name in faces, f"{name!r} not on the face page of {paper}: {faces!r}"
        assert name not in backs, f"a back reveals {name!r}"
    assert "Wing" in faces and "Flame" in faces
    assert "NGT 1/6" in faces and "NGT 6/6" in faces
    assert backs.count("Moth and Lamp") >= 6, backs
    assert "Moth and Lamp — Player aid" in aid
    for words in ("Deal", "Play a card", "Two cards of the same suit and value?", "Gas Mantle"):
        assert words in aid, f"{words!r} not on the aid: {aid!r}"
