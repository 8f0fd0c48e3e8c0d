"""Where tiled board pages meet: a seam (the cut edge laid on the neighbour's glue strip) crosses no slot,
space, picture or word of the board, on A4 and Letter, for each board that is tiled (layouts' `vars.seams`)."""

from __future__ import annotations

import pytest

from casebook.generator.board import (
    TiledPage,
    board_pages,
    board_size,
    compose_board,
    layout_seams,
    tiling,
)
from casebook.generator.compose import Composer
from casebook.generator.layouts import load_library
from casebook.generator.scene import Clip, Ellipse, Picture, Rect, Shape, TextRun
from casebook.rules.cards import load_database
from casebook.rules.problems import Place, Problems
from tests.generator.test_print_quality import ink_box

THING = 60.0  # mm: an item smaller than this is a thing a seam must not cut (a slot, a space, a picture);
# larger ones are grounds, frames, the dial's rim and the map's land, which a seam may cross
CLEAR = 0.5  # mm between a seam and the nearest thing


@pytest.fixture(scope="module")
def lib():
    return load_library()


def _board(lib, game):
    problems = Problems()
    db = load_database(game)
    composer = Composer(lib, db, problems)
    sheet = next(s for s in db.sheets if s.id == "board")
    size = board_size(lib, composer, sheet)
    assert size is not None
    return composer, sheet, compose_board(composer, sheet, size), problems


def _box(item) -> tuple[float, float, float, float] | None:
    if isinstance(item, Picture):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    if isinstance(item, Shape):
        xs = [p[0] for path in item.subpaths for p in path]
        ys = [p[1] for path in item.subpaths for p in path]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else None
    if isinstance(item, TextRun | Rect | Ellipse):
        return ink_box(item)
    return None


def _seams(pages) -> tuple[set[float], set[float]]:
    """The board positions of the cut edges of the tiled pages (a window's left or top edge, not the board's)."""
    xs, ys = set(), set()
    for _, page in pages:
        if isinstance(page, TiledPage):
            clip = next(item for item in page.items if isinstance(item, Clip))
            x, y = clip.x - page.shift[0], clip.y - page.shift[1]
            if x > 1e-6:
                xs.add(round(x, 3))
            if y > 1e-6:
                ys.add(round(y, 3))
    return xs, ys


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", ["clash", "pi"])
def test_seams_cross_no_slot_space_picture_or_word(lib, game, paper):
    composer, sheet, board, problems = _board(lib, game)
    pages = board_pages(composer, lib, sheet, lib.papers[paper], problems)
    assert pages and not problems, problems.items
    xs, ys = _seams(pages)
    assert xs, "the board is tiled across"
    cut = set()
    for item in board.items:
        box = _box(item)
        if box is None or box[2] - box[0] >= THING or box[3] - box[1] >= THING:
            continue
        label = getattr(item, "text", type(item).__name__)
        cut |= {(label, "x", x) for x in xs if box[0] - CLEAR < x < box[2] + CLEAR}
        cut |= {(label, "y", y) for y in ys if box[1] - CLEAR < y < box[3] + CLEAR}
    assert not cut, sorted(cut)


@pytest.mark.parametrize("game", ["clash", "pi"])
def test_the_seams_take_no_more_pages_than_equal_windows(lib, game):
    _, sheet, board, _ = _board(lib, game)
    layout = lib.layout(sheet.layout, Problems(), Place("test"))
    seams = layout_seams(layout, Problems())
    for paper in ("a4", "letter"):
        size = lib.papers[paper]
        equal = tiling(board.width, board.height, size.width, size.height, lib.settings.page_margin)
        placed = tiling(board.width, board.height, size.width, size.height, lib.settings.page_margin,
                        seams_x=seams[0], seams_y=seams[1])
        assert len(placed.pages) == len(equal.pages)


def test_seams_that_cannot_tile_fall_back_to_equal_windows():
    equal = tiling(560, 400, 210, 297, 5.0)
    assert tiling(560, 400, 210, 297, 5.0, seams_x=(20.0,)) == equal  # 20 mm: no window reaches the board's end


def test_bad_seams_are_refused_at_their_line(tmp_path):
    from casebook.generator.layouts import Layout

    problems = Problems()
    layout = Layout("x/board", tmp_path / "board.yaml", "a4", True, {"seams": {"x": ["wide"], "z": 1}}, [],
                    Place(str(tmp_path / "board.yaml"), 3))
    assert layout_seams(layout, problems) == ((), ())
    assert "vars.seams" in problems.format()
