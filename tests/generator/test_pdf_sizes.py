"""Each game's PDF stays under 1.5 times its size before the pictures (issue 22): benchmarks/pdf_baseline.json
holds each game's A4 and Letter sizes at that commit; `python benchmarks/pictures.py` prints today's beside them."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from casebook.cli import main

ROOT = Path(__file__).resolve().parents[2]
BASELINE = json.loads((ROOT / "benchmarks" / "pdf_baseline.json").read_text(encoding="utf-8"))
LIMIT = 1.5


@pytest.mark.parametrize("game", sorted(BASELINE["sizes"]))
def test_each_games_a4_pdf_is_under_one_and_a_half_times_its_baseline(game, tmp_path):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", game, "--paper", "a4", "--out", str(tmp_path)]) == 0
    size = (tmp_path / game / f"{game}-a4.pdf").stat().st_size
    baseline = BASELINE["sizes"][game]["a4"]
    assert size < LIMIT * baseline, f"{game}-a4.pdf is {size} bytes, {size / baseline:.2f} x its {baseline} before the pictures"
