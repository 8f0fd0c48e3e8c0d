"""The built Syndicate PDFs (a basic Decktet, a scorepad, a player aid), read back; and the
generator features its layouts brought in: turned text, tint/shade, a `when` per copy."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from PIL import Image

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.layouts import shade, tint
from casebook.rules.cards import load_database
from casebook.rules.problems import Problems
from tests.generator.test_build import PT, page_texts
from tests.generator.test_build import _marks as crop_marks
from tests.generator.test_render_agree import RMS_TOLERANCE, render_both, rms

PAPERS = ("a4", "letter")
CREDIT = "The Decktet by P.D. Magnus · CC BY-NC-SA"
CARD = (63.0, 88.0)


@pytest.fixture(scope="module")
def deck():
    return load_database("syndicate").components["decktet"].cards


def _sheets(texts):
    """Indexes of face pages (each face prints the credit line) and back pages (titled), in order.

    Not the page label: on Letter there is no room above the block for it.
    """
    faces = [i for i, t in enumerate(texts) if CREDIT in t]
    backs = [i for i, t in enumerate(texts) if "THE DECKTET" in t]
    return faces, backs


def _sheet_page(texts, title):
    found = [i for i, t in enumerate(texts) if title in t]
    assert len(found) == 1, title
    return found[0]


def test_both_papers_are_built(syndicate_build):
    for paper in PAPERS:
        assert (syndicate_build / f"syndicate-{paper}.pdf").stat().st_size > 10_000


@pytest.mark.parametrize("paper", PAPERS)
def test_all_36_cards_are_printed_once(syndicate_build, deck, paper):
    texts = page_texts(syndicate_build / f"syndicate-{paper}.pdf")
    faces, backs = _sheets(texts)
    assert len(faces) == 4 and len(backs) == 4  # 36 poker cards, 9 a sheet
    on_faces = "\n".join(texts[i] for i in faces)
    assert len(deck) == 36
    for card in deck:
        hits = re.findall(rf"(?<![\w ]){re.escape(card['name'])}(?![\w])", on_faces)
        assert len(hits) == 1, (card["name"], len(hits))
    assert on_faces.count(CREDIT) == 36  # on every face
    # each rank's corner: A, 2-9 twice a card (top left, turned bottom right); Crowns show a symbol
    lines = [line.strip() for line in on_faces.splitlines()]
    for rank in ["A", *map(str, range(2, 10))]:
        count = 6 if rank == "A" else 3
        assert lines.count(rank) == 2 * count, rank


@pytest.mark.parametrize("paper", PAPERS)
def test_backs_follow_their_faces(syndicate_build, deck, paper):
    texts = page_texts(syndicate_build / f"syndicate-{paper}.pdf")
    faces, backs = _sheets(texts)
    assert backs == [f + 1 for f in faces]
    for i in backs:
        assert texts[i].count("THE DECKTET") >= 9
        assert "P.D. Magnus" in texts[i] and "CC BY-NC-SA" in texts[i]
        # a back reveals nothing: no card name on it
        assert not any(re.search(rf"\b{re.escape(c['name'])}\b", texts[i]) for c in deck)


@pytest.mark.parametrize("paper", PAPERS)
def test_trim_size_as_the_crop_marks_show(syndicate_build, paper):
    pdf = pdfium.PdfDocument(str(syndicate_build / f"syndicate-{paper}.pdf"))
    try:
        texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
        faces, backs = _sheets(texts)
        for i in faces + backs:
            objs, xs, ys = crop_marks(pdf[i])
            assert objs, f"page {i}: no crop marks"
            assert len(xs) >= 2 and len(ys) >= 2, (i, xs, ys)
            for a, b in zip(xs, xs[1:], strict=False):
                assert abs((b - a) - CARD[0]) <= 0.1, (paper, i, xs)
            for a, b in zip(ys, ys[1:], strict=False):
                assert abs((b - a) - CARD[1]) <= 0.1, (paper, i, ys)
            pw, ph = pdf[i].get_size()
            for x0, y0, x1, y1 in objs:
                assert x0 >= 5 * PT - 0.05 and y0 >= 5 * PT - 0.05, "mark within 5 mm of the edge"
                assert x1 <= pw - 5 * PT + 0.05 and y1 <= ph - 5 * PT + 0.05, "mark within 5 mm of the edge"
    finally:
        pdf.close()


@pytest.mark.parametrize("paper", PAPERS)
def test_scorepad_and_aid(syndicate_build, deck, paper):
    texts = page_texts(syndicate_build / f"syndicate-{paper}.pdf")
    pad = " ".join(texts[_sheet_page(texts, "scorepad")].split())  # lines joined: wrapping varies by paper
    aid = " ".join(texts[_sheet_page(texts, "player aid")].split())
    for page in (pad, aid):
        assert "P.D. Magnus" in page and "CC BY-NC-SA" in page
    # the scorepad: 12 to win, the tie rule, 30 turns for each of two games, the mastermind named
    assert "12 points wins" in pad and "play on until one player alone has the highest score" in pad
    assert pad.count("30 · C") == 2 and pad.count("1 · A") == 2
    # the aid: the deal, the follow rule, Ace values, scoring, and every card in the chart
    for phrase in ("Deal 5", "4 to the player on their left", "3 to the third", "shares a mark with the lead",
                   "or 11 if the Crown of its suit", "each enforcer scores 1", "12 points"):
        assert phrase in aid, phrase
    for card in deck:
        expected = 1 if len(card["suits"]) == 1 else 2  # a card of rank 2-9 under both its suits
        assert len(re.findall(rf"\b{re.escape(card['name'])}\b", aid)) >= expected, card["name"]


def test_the_same_input_gives_the_same_bytes(syndicate_build, tmp_path):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "syndicate" / "syndicate-a4.pdf").read_bytes() == \
        (syndicate_build / "syndicate-a4.pdf").read_bytes()


def test_ink_saver_gutter_and_pngs(tmp_path, deck):
    assert main(["build", "syndicate", "--paper", "letter", "--out", str(tmp_path), "--ink-saver",
                 "--gutter", "6", "--png", "--dpi", "60"]) == 0
    texts = page_texts(tmp_path / "syndicate" / "syndicate-letter.pdf")
    faces, _ = _sheets(texts)
    assert sum(t.count(CREDIT) for i, t in enumerate(texts) if i in faces) == 36
    pngs = sorted((tmp_path / "syndicate" / "png" / "decktet").glob("*.png"))
    assert len(pngs) == 72  # a face and a back for each card
    with Image.open(pngs[0]) as img:  # 63 x 88 mm plus 3 mm bleed each side, at 60 dpi
        assert abs(img.width - 69 / 25.4 * 60) <= 1 and abs(img.height - 94 / 25.4 * 60) <= 1


# --- generator features the Syndicate layouts use -----------------------------------------


@pytest.fixture(scope="module")
def composed():
    problems = Problems()
    result = compose_game("syndicate", BuildOptions(papers=("a4",)), problems)
    assert result is not None, problems.format()
    return result


@pytest.mark.parametrize("index", [0, 8, 28])  # an Ace, a two-mark card, a 9 (underlined)
def test_pdf_and_png_agree_on_turned_text(composed, index, tmp_path):
    scene = composed.faces["decktet"][index].face
    assert any(getattr(item, "angle", 0) == 180 for item in scene.items), "the turned corner index"
    from_pdf, from_png = render_both(scene, tmp_path)
    w, h = min(from_pdf.width, from_png.width), min(from_pdf.height, from_png.height)
    assert rms(from_pdf.crop((0, 0, w, h)), from_png.crop((0, 0, w, h))) <= RMS_TOLERANCE


def test_turned_text_lands_in_its_box(composed):
    """A text turned 180 degrees starts at the right of its box and reads leftwards."""
    scene = composed.faces["decktet"][6].face  # Author, rank 2
    runs = [r for r in scene.items if getattr(r, "text", None) == "2"]
    upright = [r for r in runs if r.angle == 0]
    turned = [r for r in runs if r.angle == 180]
    assert len(upright) == 1 and len(turned) == 1
    b = scene.bleed
    # point-symmetric about the card's centre
    assert abs((upright[0].x - b) + (turned[0].x - b) - 63) < 0.01
    assert abs((upright[0].y - b) + (turned[0].y - b) - 88) < 4  # baselines differ by the glyph height


def test_tint_and_shade():
    assert tint("#000000", 1) == "#FFFFFF" and tint("#0072B2", 0) == "#0072B2"
    assert tint("#000000", 0.5) == "#808080" and shade("#FFFFFF", 0.5) == "#808080"
    with pytest.raises(ValueError):
        tint("blue", 0.5)


def _tiny_layout(tmp_path, elements: str):
    """A copy of layouts/ with one extra page layout, and a composer for Syndicate pages."""
    import shutil

    from casebook.generator.compose import Composer
    from casebook.generator.layouts import LAYOUTS_DIR, load_library

    root = tmp_path / "layouts"
    shutil.copytree(LAYOUTS_DIR, root)
    (root / "probe.yaml").write_text("page: true\nelements:\n" + elements, encoding="utf-8")
    problems = Problems()
    lib = load_library(root, problems)
    composer = Composer(lib, load_database("syndicate"), problems)
    return composer, problems


def test_when_with_i_is_asked_of_each_copy(tmp_path):
    from casebook.rules.problems import Place

    composer, problems = _tiny_layout(tmp_path, (
        "  - {type: rect, repeat: 6, w: 5, h: 5, x: '{{ i * 10 }}', when: '{{ i % 2 == 0 }}', fill: '#112233'}\n"
        "  - {type: rect, repeat: 3, w: 5, h: 5, y: 20, x: '{{ i * 10 }}', when: '{{ game.id == \"x\" }}', fill: '#445566'}\n"
        "  - {type: rect, repeat: 2, w: 5, h: 5, y: 40, x: '{{ i * 10 }}', when: '{{ game.id }}', fill: '#778899'}\n"))
    scene = composer.page("probe", 100, 100, Place("test"), {})
    assert scene is not None and not problems, problems.format()
    xs = {fill: sorted(r.x for r in scene.items if getattr(r, "fill", None) == fill)
          for fill in ("#112233", "#445566", "#778899")}
    assert xs == {"#112233": [0, 20, 40], "#445566": [], "#778899": [0, 10]}


def test_text_turns_only_in_quarter_turns(tmp_path):
    from casebook.rules.problems import Place

    composer, problems = _tiny_layout(tmp_path, (
        "  - {type: text, x: 10, y: 10, w: 30, h: 10, text: Tilted, rotate: 45}\n"
        "  - {type: text, x: 10, y: 30, w: 10, h: 30, text: Up, rotate: 270}\n"))
    scene = composer.page("probe", 100, 100, Place("test"), {})
    assert scene is not None
    assert "quarter turns only" in problems.format()
    assert [r.angle for r in scene.items if getattr(r, "text", None) == "Up"] == [270]
