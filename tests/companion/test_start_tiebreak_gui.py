"""The start screen at 360x640 with a Graves game won on the tie-break: the line names it, whole and
unsplit, and a screenshot is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("kivy")

from casebook.companion.store import Store  # noqa: E402
from tests.companion.test_app_gui import SCREENS, read_dumps, run  # noqa: E402
from tests.companion.test_start_gui import saved  # noqa: E402


def test_the_start_screen_names_the_tie_break(tmp_path: Path, graves_db):
    saved(Store(tmp_path / "data" / "games"), graves_db, "knows_all_tiebreak.yaml", "graves-20261127-170000")
    SCREENS.mkdir(exist_ok=True)
    d = {"start": str(tmp_path / "start.json")}
    run(tmp_path, [{"dump": d["start"]}, {"shot": str(SCREENS / "start-tie-break.png")}, {"quit": True}])
    start = read_dumps(d)["start"]
    assert start["small_controls"] == [] and start["split_words"] == []
    line = "finished: Jude won 10–10 on the tie-break (more Masterminds unmasked as the Detective, 1–0)"
    assert any(line in t for t in start["texts"]), start["texts"]
    assert any("wins: Jude 1" in t for t in start["texts"]) and not any("draw" in t for t in start["texts"])
