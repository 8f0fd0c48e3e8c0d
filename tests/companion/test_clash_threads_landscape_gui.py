"""Clash of Minds in landscape (640x360): the threads fill the right column under the keys, and their card lists
(the referee game with Agents late in Stage 2: the most cards in the threads) scroll there with no line cut
through at the column's edges, at every scroll of it: a line half in view is hidden whole, and shows whole
scrolled on. Every line of every thread's list is shown whole at one of the scrolls."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_clash_fit_gui import save_agents_game

pytest.importorskip("kivy")

SCROLLS = [1, 0.8, 0.6, 0.4, 0.2, 0]


def test_the_threads_card_lists_are_never_cut_in_landscape(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    save_agents_game(tmp_path)
    dumps = {at: tmp_path / f"threads@{at}.json" for at in SCROLLS}
    steps: list = [{"tap_prefix": "resume_"}]
    for at in SCROLLS:
        steps += [{"scroll": ["table.pad_scroll", at]}, {"dump": str(dumps[at])},
                  {"shot": str(SCREENS / f"clash-640x360-threads@{at}.png")}]
    run(tmp_path, [*steps, {"quit": True}], size=(640, 360))
    data = {at: json.loads(p.read_text()) for at, p in dumps.items()}
    for at, d in data.items():
        assert d["cut_lines"] == [], f"at scroll {at}: lines cut at an edge: {d['cut_lines']}"
        assert d["cut_texts"] == [] and d["small_texts"] == [], at
        for n in (1, 2, 3):
            assert d["controls"][f"thread_box_{n}"]["rect"][0] >= 640 * 0.4, f"thread {n} is not on the right"
    assert data[1]["controls"]["total_1"]["in_window"]
