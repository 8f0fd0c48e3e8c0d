"""Greyed-out controls in the real app at 360 x 640, light and dark: every disabled button and key is drawn as
disabled (a fill of its own, neither the blue of a live button nor the panel of a flat one) and its text still
reads at 4.5:1 on that fill (WCAG), computed from the colours the app really draws. Hasty's "Face down" before a
suspect is tapped, the form's "Take back the last" and "Add a player" at seven, The Syndicate's suits (their
names under the symbols), Clash's plan, set-up and "at the limit" keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.companion.theme import LIVE_FILLS, THEMES, blend, contrast
from casebook.rules.cards import load_database
from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_clash_pad import SEED, planned_game

pytest.importorskip("kivy")


def hexed(rgba: list[float], under: str) -> str:
    """An RGBA colour as drawn over the opaque colour `under` (alpha blended), as #RRGGBB."""
    return blend("#" + "".join(f"{round(c * 255):02X}" for c in rgba[:3]), under, rgba[3])


def disabled_faults(dump: dict, theme: str) -> list[str]:
    colours = THEMES[theme]
    out = []
    for testid, c in dump["controls"].items():
        if not c["disabled"] or "fill_rgba" not in c:
            continue
        if c["fill_image"]:  # an image tinted: the atlas's grey under a colour nobody chose
            out.append(f"{testid}: drawn on the image {c['fill_image']}, not a fill of the theme")
            continue
        fill = hexed(c["fill_rgba"], colours["bg"])
        for words, rgba in [[testid, c["text_rgba"]], *c["captions"]]:
            ratio = contrast(hexed(rgba, fill), fill)
            if ratio < 4.5:
                out.append(f"{testid}: '{words}' in {hexed(rgba, fill)} on {fill} is {ratio:.2f}:1")
        if testid.startswith("colour_"):  # a colour taken stays that colour, faded, with its taker's letter
            continue
        for live in LIVE_FILLS:  # the fills of live buttons, flat ones and lit keys
            if contrast(fill, colours[live]) < 1.2:
                out.append(f"{testid}: its fill {fill} looks like a live control's ({live} {colours[live]})")
    return out


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_greyed_out_control_looks_disabled_and_reads(tmp_path, theme):
    SCREENS.mkdir(exist_ok=True)
    dumps: dict[str, Path] = {}

    def dump(name: str, shot: bool = False) -> list:
        dumps[name] = tmp_path / f"{name}.json"
        return [{"dump": str(dumps[name])}] + ([{"shot": str(SCREENS / f"disabled-{theme}-{name}.png")}] if shot else [])

    steps: list = []
    if theme == "dark":
        steps += [{"tap": "start_settings"}, {"tap": "set_dark"}, {"tap": "settings_back"}]
    steps += [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"},
              {"scroll": ["new.scroll", 0.4]}, *dump("hasty-form", shot=True)]
    row = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow",
           "ottoline_vesey", "barnaby_crewe", "imelda_thorne", "rufus_galloway"]
    steps += [{"tap": f"pick_row_{s}"} for s in row]
    steps += [step for i in range(7) for step in ({"tap": f"secret_secret_{i}"}, {"tap": f"secret_secret_{i}_{row[i]}"})]
    steps += [{"tap": "new_start"}, *dump("hasty-table", shot=True), {"tap": "table_home"}]
    # The Syndicate, turn 3: the 8s of Moons, Suns, Waves and Leaves are in the discard pile: their suits greyed
    steps += [{"tap": "new_game"}, {"tap": "game_syndicate"}, {"tap": "new_start"}]
    for rank, suit in (("8", "moons"), ("9", "knots"), ("7", "suns"), ("2", "knots"), ("A", "waves"),
                       ("crown", "waves"), ("8", "waves")):
        steps += [{"tap": f"rank_{rank}"}, {"tap": f"suit_{suit}"}]
        steps += [{"tap": "confirm"}] if (rank, suit) in (("2", "knots"), ("8", "waves")) else []
    steps += [{"tap": "rank_8"}, *dump("syndicate-suits", shot=True), {"tap": "table_home"}]
    taps, _pad = planned_game(load_database("clash"), SEED)
    takes = next(n for n, t in enumerate(taps) if t.startswith("take_"))
    steps += [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}]
    marks = {1: "clash-plan", taps.index("thread_1"): "clash-setup", takes: "clash-takes"}
    for n, tap in enumerate(taps[:takes]):
        if n in marks:
            steps += dump(marks[n], shot=marks[n] == "clash-takes")
        steps.append({"tap": tap})
    steps += dump("clash-takes", shot=True) + [{"quit": True}]
    run(tmp_path, steps)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    greyed = {name: [t for t, c in d["controls"].items() if c["disabled"]] for name, d in data.items()}
    assert "face_down" in greyed["hasty-table"] and "players_more" in greyed["hasty-form"]
    assert any(t.startswith("take_") for t in greyed["clash-takes"]), greyed["clash-takes"]
    assert "suit_moons" in greyed["syndicate-suits"]
    faults = {name: disabled_faults(d, theme) for name, d in data.items()}
    assert not any(faults.values()), faults
