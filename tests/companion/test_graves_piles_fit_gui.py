"""Graves at 360x640 and 411x731: at the location being played, both players' pile lines show whole on the window
without scrolling, also once the Detective's "note evidence won" and the Mastermind's "hold to see" sit between the
strip and them (issue 20, found playing two cases in a real window: the Mastermind's pile, the one a player looks
at when revealing at The Bank Vault, was scrolled away under the fixed pad, a sliver of its colour bar showing)."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, location_steps, new_game_steps, run

pytest.importorskip("kivy")


@pytest.mark.parametrize("size", [(360, 640), (411, 731)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_both_piles_in_view_at_the_bank_vault(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    where = f"{size[0]}x{size[1]}"
    dump = tmp_path / "vault.json"
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"}]
    steps += location_steps()[:18] + [{"dump": str(dump)},  # two locations won by Ann, Ben to reveal at the Vault
                                      {"shot": str(SCREENS / f"graves-{where}-vault-piles.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    d = json.loads(dump.read_text())
    summary, controls = d["summary"], d["controls"]
    assert summary["locations"][summary["active"]]["name"] == "The Bank Vault"
    assert "note_evidence" in controls and controls["secret_1"]["in_window"]
    out = [k for k in ("pile_0", "pile_1", "reveal_top", "deck_empty") if not controls.get(k, {}).get("in_window")]
    assert out == [], f"{where} The Bank Vault: not whole on the window without scrolling: {out}"
    assert d["small_texts"] == [] and d["split_words"] == [] and d["cut_texts"] == []


@pytest.mark.parametrize("size", [(360, 640), (411, 731)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_holds_stay_in_view_as_the_piles_grow(tmp_path, size):
    """Two cards a pile at The Library (each pile's line on two lines): the Mastermind's "hold to see" is whole on
    the window without scrolling; it sat under the piles once nothing was left to enter, and was pushed off."""
    where = f"{size[0]}x{size[1]}"
    dump = tmp_path / "library.json"
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"}]
    for rank, suit in (("9", "magnifying_glass"), ("5", "magnifying_glass"), ("8", "question_mark"),
                       ("4", "question_mark")):
        steps += [{"tap": f"rank_{rank}"}, {"tap": f"suit_{suit}"}, {"tap": "play"}]
    steps += [{"dump": str(dump)}, {"shot": str(SCREENS / f"graves-{where}-library-piles.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    d = json.loads(dump.read_text())
    piles = d["summary"]["locations"][d["summary"]["active"]]["piles"]
    assert [len(p) for p in piles.values()] == [2, 2] and "note_evidence" not in d["controls"]
    out = [k for k in ("secret_1", "play", "pass", "rank_9", "suit_briefcase") if not d["controls"][k]["in_window"]]
    assert out == [], f"{where} The Library: not whole on the window without scrolling: {out}"
    # each pile's total is on its first line, and that line is on the window (a long pile wraps after it)
    totals = d["summary"]["locations"][d["summary"]["active"]]["totals"]
    for n, player in enumerate(piles):
        pile = d["controls"][f"pile_{n}"]
        assert f": {totals[player]} · " in pile["lines"][0], pile["lines"]
        assert pile["edges_in_view"][1], f"{where}: the first line of {player}'s pile is off the window"
