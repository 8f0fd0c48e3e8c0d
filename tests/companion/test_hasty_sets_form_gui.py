"""Hasty's new-game form shows the card sets as they are played: the base set ticked from the start (it is played
when no other set is), never unticked while it is the only set (a message says why and how to play without it),
unticked once another set is ticked alone, and the sets ticked are the sets the game starts with."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import run

pytest.importorskip("kivy")


def ticked(d: dict, name: str) -> bool:
    """Whether the form shows the toggle `name` ticked ("[x] Base set": the dump reads "[x]" as markup, dropped)."""
    assert f"[  ] {name}" in d["texts"] or f" {name}" in d["texts"], f"no toggle {name}"
    return f" {name}" in d["texts"]


def test_the_base_set_shows_ticked_and_stays_so_alone(tmp_path):
    dumps = {n: tmp_path / f"{n}.json" for n in ("form", "untick", "advanced", "game")}
    steps = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"dump": str(dumps["form"])},
             {"tap": "variant_set_base"}, {"dump": str(dumps["untick"])},
             {"tap": "variant_set_advanced"}, {"dump": str(dumps["advanced"])},
             {"tap": "deal_seed"}, {"text": ["new.seed", "5"]}, {"tap": "new_start"}, {"dump": str(dumps["game"])},
             {"quit": True}]
    run(tmp_path, steps)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    form, untick, advanced = data["form"], data["untick"], data["advanced"]
    assert ticked(form, "Base set") and not ticked(form, "Advanced set") and not ticked(form, "Expert set")
    assert ticked(untick, "Base set"), "the only set played shows unticked"
    assert any("Base set stays ticked" in t and "tick Advanced set or Expert set instead" in t for t in untick["texts"])
    assert not ticked(advanced, "Base set") and ticked(advanced, "Advanced set")
    assert not any("stays ticked" in t for t in advanced["texts"])
    assert data["game"]["screen"] == "table" and data["game"]["summary"]["sets"] == ["advanced"]
