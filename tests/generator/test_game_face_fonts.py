"""Clash of Minds and Hasty Accusations each have a face of their own: their names and titles are set
in the game's display font (Old Standard TT Bold, Leckerli One; layouts/fonts/), read back from the
built PDF, and every deck's back is the game's own design, not another game's back template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from casebook.generator.backends import png
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.layouts import LAYOUTS_DIR
from casebook.generator.scene import Ellipse, Polyline, TextRun
from casebook.rules.problems import Problems
from tests.conftest import build_once
from tests.generator.test_clash_build import LIGHTNESS_APART
from tests.generator.test_colour_safety import VISIONS, mean_lightness
from tests.generator.test_fonts_embedded import text_objects

DISPLAY = {"clash": ("OldStandard", "OldStandard-Bold.ttf"), "hasty": ("LeckerliOne", "LeckerliOne-Regular.ttf")}
# texts the display font sets: card names on the faces, deck titles on the backs
DISPLAY_TEXTS = {"clash": ("Lady Honoria Vale", "Irene Adler", "CRIME PLAN", "MORIARTY", "HOLMES", "XII"),
                 "hasty": ("Letter Opener", "Dorian Fitch", "Suspect", "Hasty Accusations")}


def _text_fonts(path: Path) -> dict[str, set[str]]:
    """Every text object's text in the PDF -> the base names of the fonts it is set in (subset tag dropped)."""
    found: dict[str, set[str]] = {}
    for name, _embedded, text in text_objects(path):
        found.setdefault(text.strip(), set()).add(name.split("+", 1)[-1])
    return found


@pytest.fixture(scope="module", params=["clash", "hasty"])
def built(request, tmp_path_factory):
    game = request.param
    return game, build_once(tmp_path_factory, game) / f"{game}-a4.pdf"


def test_names_and_titles_are_set_in_the_games_display_font_in_the_pdf(built):
    game, path = built
    fonts = _text_fonts(path)
    face = DISPLAY[game][0]
    for text in DISPLAY_TEXTS[game]:
        assert text in fonts, f"{game}: no text object '{text}' in {path.name}"
        assert any(face in name for name in fonts[text]), f"{game}: '{text}' is set in {fonts[text]}, not {face}"
    body = {name for text, names in fonts.items() for name in names if len(text.split()) > 4}
    assert any("Vera" in name for name in body), f"{game}: body text left Vera: {body}"  # body text stays Vera


def test_the_display_font_is_embedded_as_a_subset(built):
    game, path = built
    data = path.read_bytes()
    tag = DISPLAY[game][0].encode()
    # ReportLab names an embedded subset "ABCDEF+PostScriptName"; the whole font file is never written
    assert re.search(rb"/BaseFont\s*/[A-Z]{6}\+" + tag, data), f"{game}: no subset of {DISPLAY[game][0]} in {path.name}"


def _chain(layout: str) -> list[str]:
    """A layout's name and every layout it extends, in order (layouts/<name>.yaml)."""
    names = [layout]
    while True:
        data = yaml.safe_load((LAYOUTS_DIR / f"{names[-1]}.yaml").read_text(encoding="utf-8"))
        parent = data.get("extends") if isinstance(data, dict) else None
        if not parent:
            return names
        names.append(parent)


@pytest.mark.parametrize("game", ["clash", "hasty"])
def test_every_deck_back_is_the_games_own_design(game):
    problems = Problems()
    composed = compose_game(game, BuildOptions(papers=("a4",)), problems)
    assert composed is not None and not problems.items, problems.format()
    font_file = DISPLAY[game][1]
    decks = 0
    for cid, faces in composed.faces.items():
        component = faces[0].component
        if not component.back:
            continue
        chain = _chain(component.back)
        assert all(name.startswith(f"{game}/") for name in chain), f"{game} {cid}: its back extends {chain}"
        if "back-base" not in " ".join(chain):
            continue  # a token's or a help card's back: its face's shape, or a text panel
        decks += 1
        back = faces[0].back
        titles = [r for r in back.items if isinstance(r, TextRun) and r.font.endswith(font_file)]
        assert titles, f"{game} {cid}: the back's title is not set in {font_file}"
        if game == "clash":  # a clock dial: its rings and twelve hour marks
            rings = [e for e in back.items if isinstance(e, Ellipse)]
            ticks = [p for p in back.items if isinstance(p, Polyline) and len(p.points) == 2
                     and all(abs(x - back.width / 2) < 20 for x, _ in p.points)
                     and all(abs(y - back.height / 2 + 7) < 20 for _, y in p.points)]
            assert len(rings) >= 2 and len(ticks) >= 12, f"clash {cid}: no clock dial on the back"
        else:  # an upright oval cameo
            assert any(e.ry > e.rx * 1.15 for e in back.items if isinstance(e, Ellipse)), f"hasty {cid}: no oval"
    assert decks >= (6 if game == "clash" else 2)


@pytest.mark.parametrize("vision", VISIONS)
def test_hastys_two_backs_sort_apart_in_greyscale_and_for_colour_blind_players(vision):
    """The action cards' raspberry and the suspects' slate differ by 20 L* or more (and in pattern)."""
    problems = Problems()
    composed = compose_game("hasty", BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    actions, suspects = (mean_lightness(png.render(composed.faces[cid][0].back, 60), vision)
                         for cid in ("actions", "suspects"))
    assert actions - suspects >= LIGHTNESS_APART, (vision, actions, suspects)
