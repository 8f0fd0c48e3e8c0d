"""Hasty, seven players with the Traitor, in a review (issue 20): the row of suspects shows whole on the window beside
the card types to tap and every player's "hold to see", without scrolling, at two phone sizes and a landscape phone.
The table looks at the row while the pile is revealed (whose suspect it is, which is reviewed); it used to sit below
the cards, only a few pixels of it above the fixed pad in portrait, and wholly under the cards in landscape."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_hasty_fit_gui import SIZES, long_game, new_game_steps

pytest.importorskip("kivy")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_row_shows_whole_in_a_review(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    taps, moments = long_game()
    where = f"{size[0]}x{size[1]}"
    dump = tmp_path / "review.json"
    steps = new_game_steps() + [{"tap": t} for t in taps[:moments["review"]]]
    steps += [{"dump": str(dump)}, {"shot": str(SCREENS / f"hasty7-{where}-review-row.png")}, {"quit": True}]
    run(tmp_path, steps, timeout=600, size=size)
    d = json.loads(dump.read_text())
    summary, controls = d["summary"], d["controls"]
    assert summary["phase"] == "reveal" and len(summary["row"]) == 11 and len(summary["history"][-1]) > 100
    row = [f"suspect_{r['id']}" for r in summary["row"]]
    cards = [k for k in controls if k.startswith("reveal_")]
    holds = [f"secret_{n}" for n in range(7)]
    assert len(cards) == 12
    out = [k for k in row + cards + holds if not controls.get(k, {}).get("in_window")]
    assert out == [], f"{where} review: not whole on the window without scrolling: {out}"
    assert controls["last_text"]["in_window"], f"{where} review: the Last: line is cut"
    assert d["small_controls"] == [] and d["split_words"] == [], (d["small_controls"], d["split_words"])
    assert d["small_texts"] == [] and d["cut_texts"] == [], (d["small_texts"], d["cut_texts"])
