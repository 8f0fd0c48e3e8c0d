"""Boards larger than a page, in general: a made-up game declares a 500 x 330 mm board, and the
built PDFs are read back: its pages tile the board with overlap strips, every marker lands
where the board has it (within 0.5 mm) on every page that shows it, the A2 page holds it at
1:1 and the A3 page at its printed scale, and no page has ink within 5 mm of its edge."""

from __future__ import annotations

import contextlib
import ctypes
import io
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from casebook.cli import main
from casebook.generator.board import LARGE_PAPERS, OVERLAP, large_page, row_name, tiling
from tests.generator.test_build import PT, page_texts

REPO = Path(__file__).resolve().parents[2]
BOARD = (500.0, 330.0)
MARKER = (255, 0, 255)  # the markers' fill: nothing else on the pages is magenta
STEP = 45.0  # the markers stand on a grid this wide, 20 mm squares


def markers() -> list[tuple[float, float]]:
    """Centres of the board's markers, in board mm."""
    return [(15 + STEP * i + 10, 15 + STEP * j + 10) for j in range(7) for i in range(11)]


GAME = """id: boardtest
title: Board test
players: {min: 2, max: 2}
rules_version: 1
credit: "test"
components:
  - id: chips
    name: Chips
    code: CH
    count: 2
    size: token
    face: t/chip
    back: t/chip
    fields: {}
    cards:
      - {id: chip, copies: 2}
sheets:
  - {id: city, name: The test board, layout: t/board}
  - {id: notes, name: Notes, layout: t/notes}
"""

CHIP = """size: token
elements:
  - {id: field, type: rect, bleed: true, fill: "#3366AA"}
"""

BOARD_LAYOUT = """page: true
size: testboard
elements:
  - {id: ground, type: rect, x: 0, y: 0, w: "{{ size.width }}", h: "{{ size.height }}", fill: "#F4EEDC"}
  - id: marker
    type: rect
    repeat: 77
    x: "{{ 15 + 45 * (i % 11) }}"
    y: "{{ 15 + 45 * (i // 11) }}"
    w: 20
    h: 20
    fill: "#FF00FF"
"""

NOTES = """page: true
elements:
  - {id: title, type: text, x: 20, y: 20, w: 100, h: 10, text: "Notes page", size: 12}
"""


def board_game(root: Path, board: tuple[float, float], board_layout: str) -> tuple[Path, Path]:
    """The made-up game's cards and layouts folders under root, its board `board` mm and laid out as given."""
    cards, layouts = root / "cards", root / "layouts"
    (cards / "boardtest").mkdir(parents=True)
    (cards / "boardtest" / "game.yaml").write_text(GAME, encoding="utf-8")
    (layouts / "t").mkdir(parents=True)
    shutil.copy(REPO / "layouts" / "symbols.yaml", layouts / "symbols.yaml")
    sizes = (REPO / "layouts" / "sizes.yaml").read_text(encoding="utf-8")
    sizes = sizes.replace("sizes:\n", f"sizes:\n  testboard: {{width: {board[0]:g}mm, height: {board[1]:g}mm}}\n", 1)
    (layouts / "sizes.yaml").write_text(sizes, encoding="utf-8")
    (layouts / "t" / "chip.yaml").write_text(CHIP, encoding="utf-8")
    (layouts / "t" / "board.yaml").write_text(board_layout, encoding="utf-8")
    (layouts / "t" / "notes.yaml").write_text(NOTES, encoding="utf-8")
    return cards, layouts


@pytest.fixture(scope="module")
def board_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("boardgame")
    cards, layouts = board_game(root, BOARD, BOARD_LAYOUT)
    out = root / "out"
    assert main(["build", "boardtest", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                 "--fold", "--split-sides"]) == 0
    return out / "boardtest"


def fill_centres(page, rgb, min_size: float = 0.0) -> list[tuple[float, float]]:
    """Centres (mm from the top-left) of the filled paths of one colour, at least min_size mm wide and high."""
    _, ph = page.get_size()
    out = []
    for obj in page.get_objects():
        if obj.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
            continue
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
        if not fill.value:
            continue
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        pdfium_raw.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(v) for v in (r, g, b, a)))
        if (r.value, g.value, b.value) != rgb:
            continue
        x0, y0, x1, y1 = obj.get_bounds()
        form = obj.container
        while form is not None:  # a path inside a form (a picture, the tiled board): its bounds are the form's
            x0, y0, x1, y1 = form.get_matrix().on_rect(x0, y0, x1, y1)
            form = form.container
        if min(x1 - x0, y1 - y0) < min_size * PT:
            continue
        out.append(((x0 + x1) / 2 / PT, (ph - (y0 + y1) / 2) / PT))
    return out


def ink_near_edge(page, margin_mm: float = 5.0, dpi: float = 60.0) -> int:
    """How many pixels within `margin_mm` of the page edge are not white (one pixel spared for smoothing)."""
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    w, h = image.size
    edge = int(margin_mm / 25.4 * dpi) - 1
    data = image.load()
    return sum(1 for y in range(h) for x in range(w)
               if (x < edge or y < edge or x >= w - edge or y >= h - edge) and data[x, y] < 250)


@pytest.mark.parametrize(("paper", "size"), [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
def test_windows_cover_the_board_with_overlaps_inside_the_printable_area(paper, size):
    for board in (BOARD, (560.0, 400.0), (1200.0, 300.0), (150.0, 900.0)):
        t = tiling(board[0], board[1], size[0], size[1], margin=5.0)
        assert t is not None
        assert len(t.pages) == t.rows * t.cols
        for p in t.pages:
            assert p.ox >= 5.0 and p.oy >= 5.0 + 7.0  # the label band above
            assert p.ox + p.w <= t.page_w - 5.0 + 1e-9 and p.oy + p.h <= t.page_h - 5.0 + 1e-9
        row = [p for p in t.pages if p.row == 0]
        col = [p for p in t.pages if p.col == 0]
        assert row[0].x == 0 and abs(row[-1].x + row[-1].w - board[0]) < 1e-9
        assert col[0].y == 0 and abs(col[-1].y + col[-1].h - board[1]) < 1e-9
        for a, b in zip(row, row[1:], strict=False):
            assert abs((a.x + a.w) - b.x - OVERLAP) < 1e-9  # neighbours share exactly the strip
        for a, b in zip(col, col[1:], strict=False):
            assert abs((a.y + a.h) - b.y - OVERLAP) < 1e-9


def test_row_names():
    assert [row_name(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_pages_put_every_marker_where_the_board_has_it(board_build, paper):
    sizes = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
    t = tiling(*BOARD, *sizes[paper], margin=5.0)
    assert t is not None
    pdf = pdfium.PdfDocument(str(board_build / f"boardtest-{paper}.pdf"))
    texts = page_texts(board_build / f"boardtest-{paper}.pdf")
    first = next(i for i, text in enumerate(texts) if "assembling" in text)
    assert f"assembling {len(t.pages)} pages" in texts[first]
    assert "boardtest-city-a2.pdf (1:1)" in texts[first]  # the one-page board, by its file name
    expected = markers()
    seen: dict[tuple[float, float], int] = {}
    for k, tp in enumerate(t.pages):
        page = pdf[first + 1 + k]
        assert abs(page.get_size()[0] / PT - t.page_w) < 0.1 and abs(page.get_size()[1] / PT - t.page_h) < 0.1
        assert f"page {tp.label}" in texts[first + 1 + k]
        if tp.col < t.cols - 1:
            assert "GLUE HERE" in texts[first + 1 + k]
        found = fill_centres(page, MARKER)
        assert found, tp.label
        for x, y in found:
            bx, by = x - tp.ox + tp.x, y - tp.oy + tp.y  # back to board coordinates
            near = min(expected, key=lambda m: (m[0] - bx) ** 2 + (m[1] - by) ** 2)
            assert abs(near[0] - bx) <= 0.5 and abs(near[1] - by) <= 0.5, (tp.label, bx, by)
            seen[near] = seen.get(near, 0) + 1
    assert set(seen) == set(expected)  # every marker is on some page
    assert any(n > 1 for n in seen.values())  # and markers on a seam are on both pages, at one place
    assert "Notes page" in texts[first + 1 + len(t.pages)]  # the next sheet follows the board
    pdf.close()


@pytest.mark.parametrize("paper", sorted(LARGE_PAPERS))
def test_the_one_page_board_has_the_same_geometry(board_build, paper):
    lp = large_page(*BOARD, paper, 5.0)
    pdf = pdfium.PdfDocument(str(board_build / f"boardtest-city-{paper}.pdf"))
    assert len(pdf) == 1
    page = pdf[0]
    assert abs(page.get_size()[0] / PT - LARGE_PAPERS[paper][0]) < 0.1
    found = sorted(((x - lp.ox) / lp.scale, (y - lp.oy) / lp.scale) for x, y in fill_centres(page, MARKER))
    assert len(found) == len(markers())
    for (bx, by), (mx, my) in zip(found, sorted(markers()), strict=True):
        assert abs(bx - mx) <= 0.5 and abs(by - my) <= 0.5
    if paper == "a2":
        assert lp.scale == 1.0
    text = page.get_textpage().get_text_range()
    assert ("scale 1:1" if lp.scale == 1.0 else f"scale {lp.scale * 100:.0f} %") in text
    assert ink_near_edge(page) == 0
    pdf.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_ink_within_5_mm_of_the_edge(board_build, paper):
    pdf = pdfium.PdfDocument(str(board_build / f"boardtest-{paper}.pdf"))
    texts = page_texts(board_build / f"boardtest-{paper}.pdf")
    board_pages = [i for i, text in enumerate(texts) if "The test board" in text]
    sizes = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
    tiles = tiling(*BOARD, *sizes[paper], margin=5.0)
    assert tiles is not None and len(tiles.pages) >= 4
    assert len(board_pages) == len(tiles.pages) + 1  # the assembly page and the tiles
    for i in board_pages:
        assert ink_near_edge(pdf[i]) == 0, i
    pdf.close()


@pytest.mark.parametrize("variant", ["fold", "faces"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_other_exports_print_the_tiles_on_their_own_page_size(board_build, variant, paper):
    """The fold-and-glue and faces-only PDFs carry the same tiled pages, turned as the tiling turned them."""
    sizes = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
    t = tiling(*BOARD, *sizes[paper], margin=5.0)
    assert t is not None
    path = board_build / f"boardtest-{paper}-{variant}.pdf"
    texts = page_texts(path)
    pdf = pdfium.PdfDocument(str(path))
    tiles = [i for i, text in enumerate(texts) if "The test board · page" in text]
    assert len(tiles) == len(t.pages)
    for i in tiles:
        w, h = pdf[i].get_size()
        assert abs(w / PT - t.page_w) < 0.1 and abs(h / PT - t.page_h) < 0.1, (variant, i)
    pdf.close()


def test_a_board_with_fine_print_under_6_pt_on_a3_builds_again_into_the_same_folder(tmp_path):
    """A board's credit may go under 6 pt on the A3 page only as fine print (down to 4 pt). A second build into
    the same folder takes the board from the scene store without composing it: it must still know which text is
    fine print (it once refused the P.I. city's credit as game text on every build after the first)."""
    # A3 holds a 600 x 420 mm board at about two thirds: 7 pt prints at about 4.6 pt
    cards, layouts = board_game(tmp_path, (600.0, 420.0),
                                "page: true\nsize: testboard\nelements:\n"
                                "  - {id: title, type: text, x: 20, y: 20, w: 200, h: 20, text: 'The test board', size: 12}\n"
                                "  - {id: credit, type: text, x: 20, y: 390, w: 300, h: 8,"
                                " text: 'Icons by somebody, CC BY 3.0', size: 7, fine_print: true}\n")
    out = tmp_path / "out"
    for build in ("first", "second", "third"):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["build", "boardtest", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                         "--paper", "a4"])
        assert code == 0, f"{build} build: {err.getvalue()}"
    # and the same credit as game text is refused, on every build
    board = (layouts / "t" / "board.yaml").read_text(encoding="utf-8").replace(", fine_print: true", "")
    (layouts / "t" / "board.yaml").write_text(board, encoding="utf-8")
    for build in ("fourth", "fifth"):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["build", "boardtest", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                         "--paper", "a4"])
        assert code == 1 and "Icons by somebody" in err.getvalue() and "under the 6 pt" in err.getvalue(), build
