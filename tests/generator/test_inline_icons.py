"""Inline icons in text: `{suit:ID}`, `{mark:ID}`, `{symbol:NAME}` laid out as words on the baseline,
drawn as scene items in both backends, and refused with the card's file:line when unknown.

The test game is tests/data/icongame/ ("Grove"): its cards' texts hold icons, wrapped, centred,
shrunk and in bold and italic runs.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

from casebook.cli import main
from casebook.generator.backends.fonts import metrics
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Ellipse, Polyline, Rect, TextRun
from casebook.generator.symbols import InlineIcons, Part, UnknownIcon
from casebook.generator.text import IconBox, TextStyle, fit_text
from casebook.generator.units import PT_PER_MM
from casebook.rules.problems import Problems
from tests.generator.test_render_agree import RMS_TOLERANCE, render_both, rms

ROOT = Path(__file__).resolve().parents[2]
GROVE = ROOT / "tests" / "data" / "icongame"
M = metrics()
SHAPES = (Rect, Ellipse, Polyline)


def side(size: float, style: str = "regular") -> float:
    """An icon's square side in mm at `size` pt: the font's ascent."""
    return M.ascent(style, size) / PT_PER_MM


def width(text: str, size: float, style: str = "regular") -> float:
    return M.width(text, style, size) / PT_PER_MM


# --- layout: the icon is a word ----------------------------------------------------------------


def test_an_icon_stands_on_the_baseline_as_tall_as_the_ascent_and_scales_with_the_size():
    for size in (8.0, 10.0, 16.0):
        fitted = fit_text("Discard a {suit:leaf} card.", 5, 5, 60, 20, TextStyle(size=size), M)
        (icon,) = fitted.icons
        baseline = fitted.runs[0].y
        assert abs(icon.y + icon.side - baseline) < 1e-9, "the box's bottom is the baseline"
        assert abs(icon.side - side(size)) < 1e-9
        # between the words, with their spaces: "Discard a " then the icon then " card."
        assert abs(icon.x - (5 + width("Discard a ", size))) < 1e-9
        after = fitted.runs[1]
        assert after.text == " card." and abs(after.x - (icon.x + icon.side)) < 1e-9
    small, large = (fit_text("{symbol:skull}", 0, 0, 50, 20, TextStyle(size=s), M).icons[0] for s in (8, 16))
    assert abs(large.side - 2 * small.side) < 1e-9


def test_line_wrap_counts_the_icons_width():
    words = "aaaa bbbb"
    box = width(words, 10) + 0.5  # both words fit on one line, not with two icons between them
    plain = fit_text(words, 0, 0, box, 30, TextStyle(size=10, fit="wrap"), M)
    assert len({r.y for r in plain.runs}) == 1
    fitted = fit_text("aaaa {symbol:skull}{symbol:skull} bbbb", 0, 0, box, 30, TextStyle(size=10, fit="wrap"), M)
    (first, second) = sorted({r.y for r in fitted.runs})
    assert {r.text.strip() for r in fitted.runs if r.y == second} == {"bbbb"}
    assert {i.y + i.side for i in fitted.icons} == {first}, "both icons stay on the first line"
    assert fitted.icons[1].x - fitted.icons[0].x == pytest.approx(side(10))


def test_punctuation_right_after_an_icon_stays_on_its_line():
    # a box one word wide: every word goes on a line of its own, the icon with its comma
    fitted = fit_text("aaaa {suit:leaf}, bbbb", 0, 0, width("aaaa", 10) + 0.1, 30, TextStyle(size=10, fit="wrap"), M)
    (icon,) = fitted.icons
    comma = next(r for r in fitted.runs if r.text == ",")
    assert comma.y == icon.y + icon.side and abs(comma.x - (icon.x + icon.side)) < 1e-9
    assert icon.x == 0 and len({r.y for r in fitted.runs}) == 3


def test_alignment_counts_the_icon():
    centred = fit_text("{symbol:skull} ab", 10, 0, 40, 10, TextStyle(size=10, align="center"), M)
    total = side(10) + width(" ab", 10)
    assert abs(centred.icons[0].x - (10 + (40 - total) / 2)) < 1e-9
    right = fit_text("ab {symbol:skull}", 10, 0, 40, 10, TextStyle(size=10, align="right"), M)
    assert abs(right.icons[0].x + right.icons[0].side - 50) < 1e-9
    assert abs(right.runs[0].x - (50 - total)) < 1e-9


def test_a_shrunk_text_shrinks_its_icons():
    text = "Take a {suit:leaf} and a {suit:acorn}, then pass the {symbol:skull} on. " * 4
    # top: ascent puts the first line's tallest letters, and so its icons, at the box top
    fitted = fit_text(text, 0, 0, 40, 20, TextStyle(size=12, min_size=5, top="ascent"), M)
    assert fitted.fits and fitted.size < 12
    assert len(fitted.icons) == 12
    assert {round(i.side, 9) for i in fitted.icons} == {round(side(fitted.size), 9)}
    for icon in fitted.icons:
        assert icon.x >= 0 and icon.x + icon.side <= 40 + 1e-6 and icon.y >= -1e-9 and icon.y + icon.side <= 20


def test_bold_and_italic_runs_around_icons_keep_their_style():
    fitted = fit_text("**Lose a {suit:leaf}** and _gain a {symbol:skull}_: **{symbol:skull}{symbol:skull}** out.",
                      0, 0, 120, 10, TextStyle(size=10), M)
    fonts = {r.text.strip(): r.font for r in fitted.runs}
    assert fonts["Lose a"] == "bold" and fonts["gain a"] == "italic" and fonts["out."] == "regular"
    assert [(i.kind, i.name) for i in fitted.icons] == [("suit", "leaf"), ("symbol", "skull"), ("symbol", "skull"),
                                                          ("symbol", "skull")]
    # a bold icon is a square of the bold font's ascent, in the run's place
    lose = next(r for r in fitted.runs if r.text.strip() == "Lose a")
    assert abs(fitted.icons[0].x - (lose.x + width("Lose a ", 10, "bold"))) < 1e-9


def test_a_capitalised_icon_is_still_an_icon():
    fitted = fit_text("{Suit:Leaf} and {SYMBOL:skull}", 0, 0, 100, 10, TextStyle(size=10), M)
    assert [(i.kind, i.name) for i in fitted.icons] == [("suit", "Leaf"), ("symbol", "skull")]


def test_braces_that_are_not_icons_stay_text_and_no_icon_changes_nothing():
    fitted = fit_text("Pay {2} or {x:y}; {suit leaf} {symbol}.", 0, 0, 150, 10, TextStyle(size=10), M)
    assert not fitted.icons
    assert "".join(r.text for r in fitted.runs) == "Pay {2} or {x:y}; {suit leaf} {symbol}."
    # a character of the planes icons stand in for, typed into a card, is not taken for one
    stray = fit_text("a \U000F0001 b {suit:leaf}", 0, 0, 150, 10, TextStyle(size=10), M)
    assert [(i.kind, i.name) for i in stray.icons] == [("suit", "leaf")]
    assert "\U000F0001" not in "".join(r.text for r in stray.runs)


def test_a_headings_icon_takes_the_heading_colour_and_a_bullets_icon_hangs():
    st = TextStyle(size=10, colour="#111111", heading_colour="#AA0000")
    fitted = fit_text("## Winter {mark:event}\n- {suit:leaf} cards score twice.", 0, 0, 60, 30, st, M)
    heading, bullet = fitted.icons
    assert heading.colour == "#AA0000" and bullet.colour == "#111111"
    assert abs(heading.side - side(10 * 1.12, "bold")) < 1e-9
    assert abs(bullet.x - width("\u2022 ", 10)) < 1e-9


# --- drawing: which symbol, in which colour, turned ----------------------------------------------


@pytest.fixture(scope="module")
def grove():
    problems = Problems()
    result = compose_game("grove", BuildOptions(papers=("a4",), cards_dir=GROVE / "cards",
                                                layouts_dir=GROVE / "layouts"), problems)
    assert result is not None, problems.format()
    return result


def test_a_suits_icon_is_drawn_in_its_ink_a_symbol_in_the_text_colour(grove):
    face = grove.faces["deck"][0].face  # Windfall: "Discard a {suit:leaf} card."
    shapes = [i for i in face.items if isinstance(i, SHAPES)]
    ink = grove.db.suits["leaf"].ink
    leaves = [i for i in shapes if getattr(i, "fill", None) == ink or getattr(i, "stroke", None) == ink]
    # the name's icon, the ability's, the motto's and the turned index's
    assert len(leaves) == 4
    ability = next(r for r in face.items if isinstance(r, TextRun) and r.text == "Discard a ")
    leaf = next(i for i in leaves if isinstance(i, Polyline) and abs(max(p[1] for p in i.points) - ability.y) < 0.3)
    assert min(p[0] for p in leaf.points) > ability.x + width("Discard a ", 10) - 0.01
    # its vein, a knockout, is painted in the ability's icon_background, the card's paper
    vein = face.items[face.items.index(leaf) + 1]
    assert isinstance(vein, Polyline) and vein.stroke == "#FBF7EE" and not vein.closed
    footer_star = [i for i in shapes if isinstance(i, Polyline) and i.fill == "#666666"]
    assert len(footer_star) == 1, "the footer's {symbol:star} takes the footer's grey"


def test_tables_draw_icons_and_a_turned_texts_icon_turns_into_its_corner(grove):
    (aid,) = [scene for name, scene in grove.pages["a4"] if name == "Player aid"]
    leaf_ink = grove.db.suits["leaf"].ink
    # the title's leaf and the rows of the two Leaf cards; the column title's skull in black
    assert len([i for i in aid.items if isinstance(i, Polyline) and i.fill == leaf_ink]) == 3
    assert any(isinstance(i, Ellipse) and i.fill == "#000000" for i in aid.items)
    face = grove.faces["deck"][1].face  # Hoard, an acorn: its index turned half round in the bottom-left corner
    acorn_ink = grove.db.suits["acorn"].ink
    low = [i for i in face.items if isinstance(i, Polyline) and i.fill == acorn_ink and i.points[0][1] > 70]
    assert len(low) == 2, "the index's acorn: cap and nut"
    cap, nut = low  # drawn in the symbol's order; turned, the cap lies below the nut
    assert min(p[1] for p in cap.points) > max(p[1] for p in nut.points) - 0.2
    for part in low:
        assert all(3 + 5 <= x <= 3 + 17 and 3 + 78 <= y <= 3 + 83 for x, y in part.points)


def test_the_icons_of_a_turned_text_turn_with_it():
    icons = InlineIcons({"dot": [Part("rect", (0.0, 0.0, 50.0, 100.0), 0.0, False)]}, {}, {})
    box = IconBox("symbol", "dot", 10, 20, 4, "#000000")
    (upright,) = icons.draw([box], "#FFFFFF")
    assert isinstance(upright, Rect) and (upright.x, upright.y, upright.w, upright.h) == (10, 20, 2, 4)
    (turned,) = icons.draw([box], "#FFFFFF", angle=180, centre=(30, 30))
    assert isinstance(turned, Polyline), "a turned rectangle is drawn as its four corners"
    # the box's centre (12, 22) turned half round (30, 30) is (48, 38); the left half of the box is now its right
    xs = [p[0] for p in turned.points]
    ys = [p[1] for p in turned.points]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((48, 50, 36, 40))


def test_unknown_names_say_what_is_known():
    icons = InlineIcons({"leaf": []}, {"leaf": ("leaf", "#2E6B2E"), "bare": ("", "#000000")}, {"event": "star"})
    with pytest.raises(UnknownIcon) as exc:
        icons.resolve("suit", "lef", "#000000")
    assert exc.value.known == ["bare", "leaf"] and exc.value.written == "{suit:lef}"
    assert icons.resolve("suit", "Leaf", "#000000")[1] == "#2E6B2E", "a suit's id in any case, as in card sheets"
    assert icons.resolve("symbol", "LEAF", "#123456") == ([], "#123456")
    with pytest.raises(UnknownIcon, match="mark 'event' has no symbol to draw.*'star' is not in the symbol library"):
        icons.resolve("mark", "event", "#000000")
    with pytest.raises(UnknownIcon, match="suit 'bare' has no symbol to draw$"):
        icons.resolve("suit", "bare", "#000000")


# --- both backends, and the build ---------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 1, 2, 3])
def test_pdf_and_png_agree_on_icon_cards(grove, number, tmp_path):
    face = grove.faces["deck"][number].face
    from_pdf, from_png = render_both(face, tmp_path)
    w, h = min(from_pdf.width, from_png.width), min(from_pdf.height, from_png.height)
    a, b = from_pdf.crop((0, 0, w, h)), from_png.crop((0, 0, w, h))
    assert rms(a, b) <= RMS_TOLERANCE
    # and the icons are in both: without them, the card is far from either
    from casebook.generator.backends import png
    from casebook.generator.scene import Scene

    bare = Scene(face.width, face.height, face.bleed, [i for i in face.items if isinstance(i, TextRun)
                                                       or (isinstance(i, Rect) and i.w > 40)])
    assert rms(a, png.render(bare, 150).crop((0, 0, w, h))) > rms(a, b)


def build(cards: Path, layouts: Path, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["build", "grove", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                     "--paper", "a4"])
    return code, err.getvalue()


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(GROVE, tmp_path / "grove")
    return tmp_path / "grove" / "cards", tmp_path / "grove" / "layouts"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("where, old, new, said, known", [
    # in a card's text: at the card's line in deck.yaml
    ("cards/grove/deck.yaml", 'ability: "Discard a {suit:leaf} card."', 'ability: "Discard a {suit:lef} card."',
     r"card 'windfall': text 'ability' draws \{suit:lef\}: unknown suit 'lef'", "one of: acorn, leaf"),
    # in a layout's own text: at the layout's line
    ("layouts/grove/back.yaml", 'text: "{suit:leaf} Grove {suit:acorn}"', 'text: "{suit:leaf} Grove {symbol:oak}"',
     r"card '\w+' \(back\): text 'title' draws \{symbol:oak\}: unknown symbol 'oak'", "one of: acorn, leaf, skull, star"),
])
def test_an_unknown_icon_is_refused_where_it_is_written(game, tmp_path, where, old, new, said, known):
    cards, _ = game
    path = cards.parent / where
    edit(path, old, new)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if new in text)
    code, err = build(cards, cards.parent / "layouts", tmp_path / "out")
    assert code != 0 and "Traceback" not in err
    assert re.search(rf"{path.name}:{line}:\d+: error: {said}", err), err
    assert known in err
    assert not (tmp_path / "out" / "grove" / "grove-a4.pdf").exists()


def test_a_rebuild_keeps_icons_and_a_suits_new_ink_reaches_every_icon(game, tmp_path):
    cards, layouts = game
    out = tmp_path / "out"
    assert build(cards, layouts, out)[0] == 0
    pdf = out / "grove" / "grove-a4.pdf"
    cold = pdf.read_bytes()
    assert build(cards, layouts, out)[0] == 0
    assert pdf.read_bytes() == cold, "the cached scenes and their recordings give the same bytes"
    # the acorn's ink is read by no template of the back, yet its {suit:acorn} must change
    edit(cards / "grove" / "game.yaml", 'ink: "#7A4A10"', 'ink: "#101010"')
    code, err = build(cards, layouts, out)
    assert code == 0 and pdf.read_bytes() != cold
    assert build(cards, layouts, tmp_path / "cold")[0] == 0
    assert pdf.read_bytes() == (tmp_path / "cold" / "grove" / "grove-a4.pdf").read_bytes(), err
