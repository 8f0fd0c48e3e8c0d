"""A card's picture on the key that names it never covers the name (issue 22 / issue 20's window play): P.I.'s
three-column keys of the city's cards (the evidence display; the case keys are the same buttons) with five players,
on a phone, a bigger phone and a landscape phone. The driver's dump lists each line of a button's text that its
own picture is drawn over (covered_texts)."""

from __future__ import annotations

import json

import pytest

from casebook.companion.pictures import symbol_for
from casebook.rules.games import pi
from tests.companion.test_app_gui import run
from tests.companion.test_pi_gui import NAMES, SEED, engine_game

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_p_i_display_keys_show_each_cards_picture_clear_of_its_name(tmp_path, size):
    dump = tmp_path / "display.json"
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"},
              {"tap": "mode_evidence"}, {"dump": str(dump)}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=150)
    d = json.loads(dump.read_text())
    state = engine_game()
    names = pi.city(state.db).name
    for card in state.display:  # each card of the display: its key, its picture, its whole name
        assert symbol_for("pi", card) in d["pictures"]["table"], card
        assert d["controls"][f"card_{card}"]["in_window"], card
        assert any(t.startswith(names.get(card, "?")) for t in d["texts"]), card
    assert any(" " in names.get(c, "") for c in state.display)  # a long name of two words is among them
    assert d["covered_texts"] == [], f"pictures over the names: {d['covered_texts']}"
    assert d["split_words"] == [] and d["small_texts"] == [], (d["split_words"], d["small_texts"])
