"""Each game its own face (issue 22): Graves', P.I.'s and The Syndicate's titles and names are set
in their display faces in the built PDF (read back through PDFium: the font of each text object),
embedded as subsets; and Graves' and P.I.'s backs are their own, not the common circle-and-band
template (graves/back-base) every back used before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from casebook.cli import main
from casebook.generator.backends import png
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.layouts import LAYOUTS_DIR, load_library
from casebook.rules.problems import Place, Problems
from tests.generator.test_colour_safety import hex_rgb
from tests.generator.test_fonts_embedded import text_objects

FONTS = LAYOUTS_DIR / "fonts"
# game -> (its display face's file, texts set in it: back titles, card names, sheet titles)
FACES = {
    "graves": ("CenturyCatalogue-Regular.ttf",
               ["DETECTIVE", "MASTERMIND", "EVIDENCE", "LOCATION", "IDENTITY", "Ezra Hollowmere"]),
    "pi": ("BebasNeue-Bold.ttf", ["EVIDENCE", "SUSPECT", "CASE", "Bubbles", "Velvet", "Vance"]),
    "syndicate": ("YanoneKaffeesatz-Bold.ttf", ["THE", "DECKTET", "Ace", "Moons"]),
}
OLD_TEMPLATE = "graves/back-base"


def postscript_name(font_file: str) -> str:
    return TTFontFile(str(FONTS / font_file)).name.decode("latin-1")


def texts_by_font(pdf_path: Path) -> dict[str, tuple[bool, str]]:
    """Every font the PDF's text objects use (its base name, subset tag and all) -> (embedded, their text)."""
    out: dict[str, tuple[bool, str]] = {}
    for name, embedded, text in text_objects(pdf_path):
        was_embedded, before = out.get(name, (True, ""))
        out[name] = (was_embedded and embedded, before + " " + text)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("faces")
    assert main(["build", *FACES, "--paper", "a4", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("game", list(FACES))
def test_titles_and_names_are_set_in_the_games_display_face(built, game):
    font_file, texts = FACES[game]
    path = built / game / f"{game}-a4.pdf"
    fonts = texts_by_font(path)
    face = postscript_name(font_file)
    mine = {name: v for name, v in fonts.items() if name.split("+", 1)[-1] == face}
    assert mine, f"{game}: {face} is not used in the PDF (fonts: {sorted(fonts)})"
    assert all(embedded for embedded, _ in mine.values()), f"{face} is not embedded"
    # a subset's /BaseFont carries a six-letter tag (PDF 32000 9.6.4); PDFium reports the name without it
    named = re.findall(rb"/BaseFont\s*/([^\s/<>\[\]()]+)", path.read_bytes())
    assert [n for n in named if re.fullmatch(rb"[A-Z]{6}\+" + re.escape(face.encode()), n)], \
        f"{face} is not embedded as a subset: {named}"
    words = set(" ".join(text for _, text in mine.values()).split())
    missing = [t for t in texts if not set(t.split()) <= words]
    assert not missing, f"{game}: {missing} not set in {face}"
    others = [n for n in fonts if n.split("+", 1)[-1] not in (face,) and "BitstreamVera" not in n]
    assert not others, f"{game}: fonts other than its face and Vera: {others}"


def test_body_text_stays_vera(built):
    fonts = texts_by_font(built / "graves" / "graves-a4.pdf")
    vera = " ".join(text for name, (_, text) in fonts.items() if "BitstreamVera" in name)
    assert "Discard from hand" in vera  # an ability's text


def _chain(name: str) -> list[str]:
    """A layout's name and the names of the layouts it extends, nearest first."""
    lib = load_library()
    out = []
    while name:
        out.append(name)
        layout = lib.layout(name, Problems(), Place(name))
        assert layout is not None
        raw = layout.path.read_text(encoding="utf-8")
        found = re.search(r"^extends:\s*(\S+)", raw, re.M)
        name = found.group(1) if found else ""
    return out


@pytest.mark.parametrize("back", ["graves/detective-back", "graves/mastermind-back", "graves/identity-back",
                                  "graves/evidence-back", "graves/location-back", "pi/evidence-back",
                                  "pi/suspect-case-back", "pi/crime-case-back", "pi/location-case-back"])
def test_graves_and_pi_backs_leave_the_common_template(back):
    assert OLD_TEMPLATE not in _chain(back)


@pytest.fixture(scope="module")
def backs():
    """The first back of each deck of Graves and P.I., rendered (10 px per mm), and its layout's vars."""
    out = {}
    lib = load_library()
    for game, decks in (("graves", {"detective": "graves/detective-back", "mastermind": "graves/mastermind-back"}),
                        ("pi", {"evidence": "pi/evidence-back", "suspect_cases": "pi/suspect-case-back"})):
        composed = compose_game(game, BuildOptions(papers=("a4",)), Problems())
        assert composed is not None
        for cid, layout in decks.items():
            back = composed.faces[cid][0].back
            out[cid] = (png.render(back, 254, supersample=1), back.bleed,
                        lib.layout(layout, Problems(), Place(layout)).vars)
    return out


def _pixel(img, bleed: float, x: float, y: float) -> tuple[int, int, int]:
    px = img.width / (63 + 2 * bleed)
    return img.getpixel((round((x + bleed) * px), round((y + bleed) * px)))[:3]


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("deck", ["detective", "mastermind"])
def test_a_graves_back_shows_a_keyhole_and_a_name_plate(backs, deck):
    img, bleed, v = backs[deck]
    # the keyhole's slot below the emblem, in the ornament's colour (the old medallion was field there)
    assert _near(_pixel(img, bleed, 31.5, 44 + 6), hex_rgb(v["ornament"])), "no keyhole"
    # the name plate's rim, 5.5 mm inside the trim, where the old band ran on through the bleed in the field's colour
    assert _near(_pixel(img, bleed, 5.6, 44 + 21), hex_rgb(v["ornament"]), 40), "no name plate"


@pytest.mark.parametrize("deck", ["evidence", "suspect_cases"])
def test_a_pi_back_shows_a_skyline_between_moon_and_street(backs, deck):
    img, bleed, v = backs[deck]
    skyline = v["skyline"] or None
    tower = _pixel(img, bleed, 31.5 - 14, 44 + 16 - 10)  # in the tallest left tower, between windows
    sky = _pixel(img, bleed, 31.5 - 14, 44 + 16 - 24)  # above it: the night sky's field
    assert not _near(tower, sky, 6), f"{deck}: no tower ({tower}) under the sky ({sky})"
    if skyline:
        assert _near(tower, hex_rgb(skyline)), (tower, skyline)
    # the towers at both ends run through the bleed and mirror each other: a sideways drift meets the neighbour
    assert _near(_pixel(img, bleed, 0.5, 44 + 12), _pixel(img, bleed, 62.5, 44 + 12), 4)
