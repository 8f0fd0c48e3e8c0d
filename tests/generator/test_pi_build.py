"""The built P.I. set, read back from its PDFs: every component counted, trim sizes by the crop
marks, no mark or ink within 5 mm of a page's edge, byte-identical rebuilds, the four card backs
apart in lightness and pattern, the tiled board's districts where the one-page board has them
(within 0.5 mm), and the notebook's and board's city the same as the data's."""

from __future__ import annotations

import itertools
import re

import pypdfium2 as pdfium
import pytest

from casebook.cli import main
from casebook.generator.backends import png
from casebook.generator.board import LARGE_PAPERS, large_page, layout_seams, tiling
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.layouts import load_library
from casebook.rules.cards import CARDS_DIR, load_database
from casebook.rules.problems import Place, Problems
from tests.conftest import build_once
from tests.generator.test_board import fill_centres, ink_near_edge
from tests.generator.test_build import PT, page_texts
from tests.generator.test_build import _marks as crop_marks
from tests.generator.test_colour_safety import (
    VISIONS,
    edge_signature,
    lightness_image,
    mean_lightness,
)

pytestmark = pytest.mark.skipif(not (CARDS_DIR / "pi" / "game.yaml").is_file(),
                                reason="cards/pi/game.yaml is not there yet (the P.I. data is being written)")

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BOARD = (560.0, 400.0)
# the board's districts' land colours (layouts/pi/board.yaml: vars.map.land), as RGB
DISTRICT_FILLS = tuple(tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in
                       load_library().layout("pi/board", Problems(), Place("pi/board")).vars["map"]["land"])


def district_centres(page, min_size: float) -> list[tuple[float, float]]:
    """Centres of the districts' land shapes on a page, whatever their colour."""
    return [c for rgb in DISTRICT_FILLS for c in fill_centres(page, rgb, min_size)]
BACKS = ("evidence", "suspect_cases", "crime_cases", "location_cases")
BACKS_APART = 20.0  # L*, every pair of the four case and evidence backs, in every vision


@pytest.fixture(scope="module")
def pi_build(tmp_path_factory):
    return build_once(tmp_path_factory, "pi")


@pytest.fixture(scope="module")
def db():
    return load_database("pi")


def _face_pages(texts, name):
    """Indexes of the face pages of a component, by the page label."""
    return [i for i, t in enumerate(texts) if name in t and "faces" in t]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_component_is_printed(pi_build, db, paper):
    texts = page_texts(pi_build / f"pi-{paper}.pdf")
    text = "\n".join(texts)
    for comp in db.components.values():
        if comp.code in ("EV", "CS", "CC", "CL"):  # poker cards print their number
            numbers = set(re.findall(rf"\b{comp.code} (\d+)/{comp.count}\b", text))
            assert numbers == {str(n) for n in range(1, comp.count + 1)}, comp.id
        assert comp.count == sum(c.copies for c in comp.cards), comp.id
    tiles = " ".join(" ".join(texts[i] for i in _face_pages(texts, "Suspect tiles")).split())  # names may wrap
    assert tiles.count("NO SUSPECT") == 2 and tiles.count("NO CRIME") == 4
    for suspect in db.records["suspects"].cards:
        assert suspect.data["name"].split()[0] in tiles
    pieces = "\n".join(texts[i] for i in _face_pages(texts, "Pieces"))
    assert pieces.count("PENALTY") == 5  # one penalty counter a colour
    assert pieces.count("GAME") == 15  # three points counters a colour
    assert pieces.count("SOLVE") == 3 and pieces.count("FIRST") == 1
    for sheet in ("scoresheet", "deduction notebook", "player aid"):
        assert sum(sheet in t for t in texts) == 1, sheet


@pytest.mark.parametrize("paper", PAPERS)
def test_trim_sizes_and_crop_marks_clear_of_the_edge(pi_build, paper):
    pdf = pdfium.PdfDocument(str(pi_build / f"pi-{paper}.pdf"))
    texts = page_texts(pi_build / f"pi-{paper}.pdf")
    sizes = {"Evidence cards": (63.0, 88.0), "Suspect tiles": (25.0, 25.0), "Pieces": (22.0, 22.0)}
    checked = set()
    for i, text in enumerate(texts):
        for name, (w, h) in sizes.items():
            if name not in text or "faces" not in text:
                continue
            objs, xs, ys = crop_marks(pdf[i])
            assert len(xs) >= 2 and len(ys) >= 2, (name, i)  # a last sheet may hold one row
            for a, b in itertools.pairwise(xs):  # a card, or the 6 mm between pieces with different backs
                assert min(abs((b - a) - w), abs((b - a) - 6.0)) <= 0.1, (name, xs)
            for a, b in itertools.pairwise(ys):
                assert min(abs((b - a) - h), abs((b - a) - 6.0)) <= 0.1, (name, ys)
            pw, ph = pdf[i].get_size()
            for x0, y0, x1, y1 in objs:
                assert x0 >= 5 * PT - 0.05 and y0 >= 5 * PT - 0.05, "mark within 5 mm of the edge"
                assert x1 <= pw - 5 * PT + 0.05 and y1 <= ph - 5 * PT + 0.05, "mark within 5 mm of the edge"
            checked.add(name)
    assert checked == set(sizes)
    pdf.close()


def test_rebuilds_are_byte_identical(pi_build, tmp_path):
    assert main(["build", "pi", "--out", str(tmp_path)]) == 0
    for name in ("pi-a4.pdf", "pi-letter.pdf", "pi-board-a3.pdf", "pi-board-a2.pdf"):
        assert (tmp_path / "pi" / name).read_bytes() == (pi_build / name).read_bytes(), name


@pytest.mark.parametrize("paper", PAPERS)
def test_tiled_board_districts_line_up_with_the_one_page_board(pi_build, db, paper):
    a2 = pdfium.PdfDocument(str(pi_build / "pi-board-a2.pdf"))
    lp = large_page(*BOARD, "a2", 5.0)
    assert lp.scale == 1.0
    whole = sorted(((x - lp.ox), (y - lp.oy)) for x, y in district_centres(a2[0], 50))
    assert len(whole) == len(db.records["districts"].cards) == 14
    a2.close()
    seams_x, seams_y = layout_seams(load_library().layout("pi/board", Problems(), Place("pi/board")), Problems())
    t = tiling(*BOARD, *PAPERS[paper], margin=5.0, seams_x=seams_x, seams_y=seams_y)  # as the build tiles it
    assert t is not None
    pdf = pdfium.PdfDocument(str(pi_build / f"pi-{paper}.pdf"))
    texts = page_texts(pi_build / f"pi-{paper}.pdf")
    first = next(i for i, text in enumerate(texts) if "assembling" in text)
    seen: dict[tuple[float, float], int] = {}
    for k, tp in enumerate(t.pages):
        assert f"page {tp.label}" in texts[first + 1 + k]
        for x, y in district_centres(pdf[first + 1 + k], 50):
            bx, by = x - tp.ox + tp.x, y - tp.oy + tp.y
            near = min(whole, key=lambda d: (d[0] - bx) ** 2 + (d[1] - by) ** 2)
            assert abs(near[0] - bx) <= 0.5 and abs(near[1] - by) <= 0.5, (tp.label, bx, by, near)
            seen[near] = seen.get(near, 0) + 1
    assert set(seen) == set(whole)
    assert any(n > 1 for n in seen.values())  # districts across a seam: the same place on both pages
    for i in range(first, first + 1 + len(t.pages)):
        assert ink_near_edge(pdf[i]) == 0, i
    pdf.close()


def test_a3_board_is_the_a2_board_scaled(pi_build):
    centres = {}
    for paper in LARGE_PAPERS:
        lp = large_page(*BOARD, paper, 5.0)
        pdf = pdfium.PdfDocument(str(pi_build / f"pi-board-{paper}.pdf"))
        centres[paper] = sorted(((x - lp.ox) / lp.scale, (y - lp.oy) / lp.scale) for x, y in district_centres(pdf[0], 30))
        assert ink_near_edge(pdf[0]) == 0, paper
        pdf.close()
    assert len(centres["a3"]) == len(centres["a2"]) == 14
    for (ax, ay), (bx, by) in zip(centres["a3"], centres["a2"], strict=True):
        assert abs(ax - bx) <= 0.5 and abs(ay - by) <= 0.5


def test_board_and_notebook_show_the_city_as_the_data_has_it(pi_build, db):
    districts = {d.id: d.data for d in db.records["districts"].cards}
    board = " ".join(page_texts(pi_build / "pi-board-a2.pdf")[0].split())  # a long name takes two lines
    for d in districts.values():
        assert d["name"].upper() in board
    texts = page_texts(pi_build / "pi-a4.pdf")
    notebook = next(t for t in texts if "deduction notebook" in t)
    lines = [line.strip() for line in notebook.splitlines()]
    for d in districts.values():  # each district on a row of its own, with its neighbours in the data's order
        neighbours = ", ".join(districts[a]["name"] for a in d["adjacent"])
        assert f"{d['name']}: next to {neighbours}" in " ".join(notebook.split()), d["name"]
        assert any(line.startswith(f"{d['name']}: next to") for line in lines), d["name"]
    for record in ("suspects", "crimes"):
        for c in db.records[record].cards:
            assert c.data["name"] in notebook


def test_sheets_keep_clear_of_the_edge(pi_build):
    pdf = pdfium.PdfDocument(str(pi_build / "pi-a4.pdf"))
    texts = page_texts(pi_build / "pi-a4.pdf")
    for i, text in enumerate(texts):
        if any(s in text for s in ("scoresheet", "deduction notebook", "player aid")):
            assert ink_near_edge(pdf[i]) == 0, i
    pdf.close()


@pytest.fixture(scope="module")
def backs():
    problems = Problems()
    composed = compose_game("pi", BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    return {cid: [png.render(f.back, 25, supersample=1) for f in composed.faces[cid]] for cid in composed.faces}


def test_every_deck_and_tile_kind_has_one_back(backs):
    """Backs tell nothing: all cards of a component share one; suspect and crime tiles differ."""
    for cid, images in backs.items():
        if cid != "pieces":  # a piece's back shows its colour, on purpose
            assert len({img.tobytes() for img in images}) == 1, cid
    assert backs["suspect_tiles"][0].tobytes() != backs["crime_tiles"][0].tobytes()


@pytest.mark.parametrize("vision", VISIONS)
def test_four_backs_differ_in_lightness_and_pattern(backs, vision):
    lightness = {cid: mean_lightness(backs[cid][0], vision) for cid in BACKS}
    for a, b in itertools.combinations(BACKS, 2):
        assert abs(lightness[a] - lightness[b]) >= BACKS_APART, (vision, a, b, lightness)
    signatures = {cid: edge_signature(lightness_image(backs[cid][0], vision)) for cid in BACKS}
    assert all(texture >= 1.0 for texture, _ in signatures.values()), signatures  # every back has a pattern
    directions = sorted(direction for _, direction in signatures.values())
    assert directions[-1] - directions[0] >= 1.0, signatures  # rows one way, columns the other
