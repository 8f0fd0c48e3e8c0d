"""The start screen keeps each number on the line of the word it goes with: 'wins: Ben 1' and 'won 10–10' never
wrap with the number alone at the start of the next line, at two phone sizes and a landscape phone."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("kivy")

from casebook.companion.store import Store  # noqa: E402
from tests.companion.test_app_gui import SCREENS, read_dumps, run  # noqa: E402
from tests.companion.test_start_gui import saved  # noqa: E402

SIZES = [(360, 640), (411, 731), (640, 360)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_standing_reads_on_one_line(tmp_path: Path, graves_db, size):
    store = Store(tmp_path / "data" / "games")
    saved(store, graves_db, "standard_two_cases.yaml", "graves-20261121-201500")  # Ben wins
    saved(store, graves_db, "standard_two_cases.yaml", "graves-20261122-100000", first=12)
    saved(store, graves_db, "knows_all_tiebreak.yaml", "graves-20261127-170000")  # Jude wins on the tie-break
    SCREENS.mkdir(exist_ok=True)
    d = {"start": str(tmp_path / "start.json")}
    run(tmp_path, [{"dump": d["start"]}, {"shot": str(SCREENS / f"start-numbers-{size[0]}x{size[1]}.png")},
                   {"quit": True}], size=size)
    start = read_dumps(d)["start"]
    assert start["torn_numbers"] == [], f"a number wrapped away from its word: {start['torn_numbers']}"
    stats = start["controls"]["stats"]["lines"]
    assert any("Jude 1, Ben 1" in line for line in stats), stats
    assert start["small_controls"] == [] and start["split_words"] == [] and start["small_texts"] == []
