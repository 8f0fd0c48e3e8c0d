"""Hasty, seven players with the Traitor: during a review (and while a card is played face up at the loupe) every
player's "hold to see" stays on the window without scrolling, as at any other moment. Showing them tells the table
nothing: each shows its own player's secret suspect only while held, as the physical card is looked at under a
hand; hiding them only made a player wait for the review to end to check their suspect. The card types to tap, the
"Last:" line and the actions stay whole in view beside them, at two phone sizes and a landscape phone."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_hasty_fit_gui import SIZES, long_game, new_game_steps

pytest.importorskip("kivy")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_hold_in_reach_during_a_review(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    taps, moments = long_game()
    where = f"{size[0]}x{size[1]}"
    loupe = next(n for n, t in enumerate(taps) if t.startswith("card_"))  # a suspect at the loupe tapped: its card
    dumps = {n: tmp_path / f"{n}.json" for n in ("loupe", "review", "held")}
    steps = new_game_steps() + [{"tap": t} for t in taps[:loupe]]
    steps += [{"dump": str(dumps["loupe"])}, {"shot": str(SCREENS / f"hasty7-{where}-loupe-holds.png")}]
    steps += [{"tap": t} for t in taps[loupe:moments["review"]]]
    steps += [{"dump": str(dumps["review"])}, {"shot": str(SCREENS / f"hasty7-{where}-review-holds.png")},
              {"press": "secret_3"}, {"wait": 0.6}, {"dump": str(dumps["held"])}, {"release": "secret_3"},
              {"quit": True}]
    run(tmp_path, steps, timeout=600, size=size)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    review = data["review"]
    assert review["summary"]["phase"] == "reveal" and len(review["summary"]["history"][-1]) > 100
    for name in ("loupe", "review"):
        d = data[name]
        out = [n for n in range(7) if not d["controls"].get(f"secret_{n}", {}).get("in_window")]
        assert out == [], f"{where} {name}: hold to see not on the window without scrolling: {out}"
        prefix = "reveal_" if name == "review" else "card_"
        cards = [k for k in d["controls"] if k.startswith(prefix)]
        assert len(cards) == 12 and all(d["controls"][k]["in_window"] for k in cards), f"{where} {name}: cards cut"
        assert d["small_controls"] == [] and d["split_words"] == [], (d["small_controls"], d["split_words"])
        assert d["small_texts"] == [] and d["cut_texts"] == [], (d["small_texts"], d["cut_texts"])
    assert review["controls"]["last_text"]["in_window"], f"{where} review: the Last: line is cut"
    assert data["loupe"]["controls"]["clear"]["in_window"]
    assert any(t.startswith("Your secret suspect: Imelda Thorne") for t in data["held"]["texts"])  # Dan's
    assert not any("Your secret suspect" in t for t in review["texts"])
