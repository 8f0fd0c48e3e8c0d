"""Boards: sheets whose layout declares a size of its own, printed tiled over home paper or whole.

Any game may declare one: a sheet in game.yaml whose layout says `size: <a size in
layouts/sizes.yaml>` is composed at that size. If it fits the paper's printable area it is
one page; otherwise it is tiled: an assembly diagram, then one page per row and column
(A1, A2, ... B1 ...), each showing a window of the board at 1:1. Neighbouring windows share
an overlap strip (OVERLAP mm) marked "glue here" on the page it belongs to; the next page is
cut along its dashed edge and laid on the strip, ticks meeting ticks. The whole board is also
written as one page on A2 (1:1 when it fits) and on A3 (scaled to fit, the scale printed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

from casebook.generator.backends.fonts import metrics
from casebook.generator.city import build_city, districts_of, draw_city, read_spec, template_values
from casebook.generator.compose import Composer
from casebook.generator.exports.transform import scale_scene
from casebook.generator.files import atomic_file
from casebook.generator.layouts import Layout, LayoutLibrary, Size
from casebook.generator.legibility import check_reduced, readable_only
from casebook.generator.scene import (
    Clip,
    Ellipse,
    Item,
    Polyline,
    Rect,
    Scene,
    Shape,
    TextRun,
    Unclip,
)
from casebook.generator.units import PT_PER_MM
from casebook.rules.cards import GameDatabase, Sheet
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import place_of

_I = TypeVar("_I")

OVERLAP = 10.0  # mm of board printed on both neighbouring pages: the glue strip
BAND = 8.0  # mm at the top of a tiled page for its label
TICK_STEP = 40.0  # mm between alignment ticks along a seam
TICK = 5.0  # mm a tick reaches from the seam
LARGE_PAPERS = {"a3": (420.0, 297.0), "a2": (594.0, 420.0)}  # landscape: the copy shop's one-page boards
INK = "#1A1A1A"  # not pure black: crop marks alone are pure black
GLUE = "#9A9A9A"
EDGE = 0.2  # mm: the thin grey line on a board's outer edge, to cut on


@dataclass(frozen=True)
class TilePage:
    """One page of a tiled board: the board window it shows and where that window sits on the page."""

    row: int
    col: int
    x: float  # the window, in board mm
    y: float
    w: float
    h: float
    ox: float  # the window's top-left on the page, mm
    oy: float

    @property
    def label(self) -> str:
        return f"{row_name(self.row)}{self.col + 1}"

    def to_page(self, bx: float, by: float) -> tuple[float, float]:
        """A board point's place on this page."""
        return (bx - self.x + self.ox, by - self.y + self.oy)


@dataclass(frozen=True)
class Tiling:
    """How a board is cut into pages: the paper as used, the grid of pages and their overlap (mm)."""
    board_w: float
    board_h: float
    page_w: float  # the paper as it is used (turned to landscape when that takes fewer pages)
    page_h: float
    rows: int
    cols: int
    pages: tuple[TilePage, ...]
    overlap: float = OVERLAP


def row_name(row: int) -> str:
    """Rows are lettered A, B, ... Z, AA, AB ..."""
    name = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        name = chr(65 + rest) + name
    return name


def _spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """Equal windows (start, size) covering `length`, neighbours sharing `overlap`; [] if none fit."""
    if window <= overlap:
        return []
    n = max(1, math.ceil((length - overlap) / (window - overlap) - 1e-9))
    size = (length + (n - 1) * overlap) / n
    return [(i * (size - overlap), size) for i in range(n)]


def _spans_at(length: float, window: float, overlap: float, cuts: tuple[float, ...]) -> list[tuple[float, float]]:
    """Windows (start, size) covering `length` whose seams (a window's start: the cut edge laid on its neighbour)
    are the given board positions, each window reaching the furthest one it can; [] if the cuts cannot do it."""
    spans: list[tuple[float, float]] = []
    start = 0.0
    while length - start > window + 1e-9:
        reach = [c for c in cuts if start + 1e-9 < c and c + overlap - start <= window + 1e-9]
        if not reach:
            return []
        cut = max(reach)
        spans.append((start, cut + overlap - start))
        start = cut
    spans.append((start, length - start))
    return spans


def tiling(board_w: float, board_h: float, paper_w: float, paper_h: float, margin: float,
           overlap: float = OVERLAP, seams_x: tuple[float, ...] = (), seams_y: tuple[float, ...] = ()) -> Tiling | None:
    """The fewest pages (portrait or landscape) that tile the board; None if a page holds no window.

    `seams_x`, `seams_y`: board positions where a seam may fall (a layout's `vars.seams`: between slots and
    names). They are used where they need no more pages than equal windows; of two tilings with as few pages,
    the one on these seams wins.
    """
    best: Tiling | None = None
    best_rank: tuple[int, int] | None = None
    for pw, ph in ((paper_w, paper_h), (paper_h, paper_w)):
        avail_w, avail_h = pw - 2 * margin, ph - 2 * margin - BAND
        cols, rows = _spans(board_w, avail_w, overlap), _spans(board_h, avail_h, overlap)
        if not cols or not rows:
            continue
        off = 0
        for equal, cuts, length, avail in ((cols, seams_x, board_w, avail_w), (rows, seams_y, board_h, avail_h)):
            placed = _spans_at(length, avail, overlap, cuts) if cuts and len(equal) > 1 else []
            if placed and len(placed) == len(equal):
                equal[:] = placed
            elif cuts and len(equal) > 1:
                off += 1
        pages = []
        for r, (y, h) in enumerate(rows):
            for c, (x, w) in enumerate(cols):
                pages.append(TilePage(r, c, x, y, w, h, margin + (avail_w - w) / 2, margin + BAND + (avail_h - h) / 2))
        rank = (len(pages), off)
        if best_rank is None or rank < best_rank:
            best, best_rank = Tiling(board_w, board_h, pw, ph, len(rows), len(cols), tuple(pages), overlap), rank
    return best


def layout_seams(layout: Layout, problems: Problems) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """A board layout's `vars.seams: {x: [mm, ...], y: [mm, ...]}`: where its tiling's seams may fall."""
    raw = layout.vars.get("seams")
    if raw is None:
        return (), ()
    where = place_of(layout.vars, "seams", layout.place)
    fix = "seams: {x: [140.5], y: []} (board mm where a seam crosses no slot and no text)"
    if not isinstance(raw, dict) or set(raw) - {"x", "y"}:
        problems.add(where, f"layout '{layout.name}': vars.seams must be a mapping of x and y lists", fix)
        return (), ()
    out: list[tuple[float, ...]] = []
    for axis in ("x", "y"):
        values = raw.get(axis) or []
        if not isinstance(values, list) or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            problems.add(place_of(raw, axis, where), f"layout '{layout.name}': vars.seams.{axis} must be a list of "
                         f"numbers (mm), not {values!r}", fix)
            values = []
        out.append(tuple(sorted(float(v) for v in values)))
    return out[0], out[1]


def _moved(item: _I, **changes: Any) -> _I:
    """dataclasses.replace for the scene's plain frozen items (no __post_init__, no slots), without a call of
    __init__ and its checks for each of a board's thousands of items."""
    out = object.__new__(type(item))
    out.__dict__.update(item.__dict__, **changes)
    return out


def shift_scene_items(items: list[Item], dx: float, dy: float) -> list[Item]:
    """The same drawing moved by (dx, dy) mm. (A board's page is its thousands of items moved: the commonest
    kinds, by their exact type, are made first, without a call for each.)"""
    out: list[Item] = []
    append, new = out.append, object.__new__
    for item in items:
        kind = type(item)
        if kind is Polyline:
            line = cast("Polyline", item)
            moved_line = new(kind)
            moved_line.__dict__.update(line.__dict__, points=tuple([(x + dx, y + dy) for x, y in line.points]))
            append(moved_line)
        elif kind is Rect or kind is TextRun or kind is Clip:
            placed = cast("Rect | TextRun | Clip", item)
            moved = new(kind)
            moved.__dict__.update(placed.__dict__, x=placed.x + dx, y=placed.y + dy)
            append(moved)
        elif isinstance(item, Rect | Clip | TextRun):
            out.append(_moved(item, x=item.x + dx, y=item.y + dy))
        elif isinstance(item, Ellipse):
            out.append(_moved(item, cx=item.cx + dx, cy=item.cy + dy))
        elif isinstance(item, Polyline):
            out.append(_moved(item, points=tuple([(x + dx, y + dy) for x, y in item.points])))
        elif isinstance(item, Shape):
            out.append(_moved(item, subpaths=tuple([tuple([(x + dx, y + dy) for x, y in ring])
                                                    for ring in item.subpaths]), width=item.width * 1.0))
        else:  # a picture, or any item that knows how to move itself
            shifted = getattr(item, "shifted", None)
            out.append(shifted(dx, dy) if callable(shifted) else item)
    return out


def _text(x: float, y: float, text: str, size: float, width: float, font: str = "regular",
          colour: str = "#333333", angle: float = 0.0, centre: bool = False) -> TextRun:
    """A run no wider than `width` mm (its size lowered to fit), its baseline at y."""
    unit = metrics().width(text, font, 1.0) / PT_PER_MM
    size = max(3.0, min(size, width / unit)) if unit else size
    if centre:
        x -= unit * size / 2
    return TextRun(x, y, text, font, size, colour, angle)


def _line(a: tuple[float, float], b: tuple[float, float], width: float = 0.25, colour: str = INK,
          dash: tuple[float, ...] = ()) -> list[Item]:
    """A mark that stays visible on any ground: a white halo under a thin line."""
    return [Polyline((a, b), stroke="#FFFFFF", width=width + 0.6), Polyline((a, b), stroke=colour, width=width, dash=dash)]


@dataclass
class TiledPage(Scene):
    """A tiled board's page. Its items hold the whole board moved into the page's window, as every backend
    draws them; `board`, `shift` and `span` say so (items[span[0]:span[1]] are the board's items moved by
    `shift` mm), so a backend may draw the board once and place it on every page: the PDF's one form."""

    board: Scene | None = None
    shift: tuple[float, float] = (0.0, 0.0)
    span: tuple[int, int] = (0, 0)

    def shared_part(self) -> tuple[Scene, tuple[float, float], tuple[int, int]] | None:
        """(board, shift, span) while the items still hold the board's moved there (the first and the last), else None."""
        start, stop = self.span
        board = self.board
        if board is None or not board.items or stop - start != len(board.items) or stop > len(self.items):
            return None
        if shift_scene_items([board.items[0], board.items[-1]], *self.shift) != [self.items[start], self.items[stop - 1]]:
            return None
        return board, self.shift, self.span


def tile_page(board: Scene, t: Tiling, page: TilePage, name: str) -> Scene:
    """One tiled page: the board's window at 1:1, its glue strips, cut edges, ticks and label."""
    p = page
    items: list[Item] = [Clip(p.ox, p.oy, p.w, p.h)]
    items.extend(shift_scene_items(board.items, p.ox - p.x, p.oy - p.y))
    span = (1, len(items))
    items.append(Unclip())
    last_col, last_row = p.col == t.cols - 1, p.row == t.rows - 1
    right = f"{row_name(p.row)}{p.col + 2}"
    below = f"{row_name(p.row + 1)}{p.col + 1}"
    if not last_col:  # the glue strip on the right: hatched, worded, its inner edge where the next page lies
        sx = p.ox + p.w - t.overlap
        items.append(Rect(sx, p.oy, t.overlap, p.h, fill=None, stroke=GLUE, width=0.2))
        for k in range(int(p.h // 4)):
            y0 = p.oy + k * 4
            items.append(Polyline(((sx, y0 + 4), (sx + t.overlap, y0 + 4 - t.overlap * 0.4)), stroke=GLUE, width=0.2))
        run = _text(sx + t.overlap / 2 - 1.2, p.oy + p.h / 2, f"GLUE HERE · OVERLAP · lay {right} here", 7, p.h - 20,
                    "bold", INK, angle=90)
        length = metrics().width(run.text, "bold", run.size) / PT_PER_MM
        run = replace(run, y=run.y - length / 2)  # centred along the strip
        items.append(Rect(sx + 1.5, run.y - 1.5, t.overlap - 3, length + 3, fill="#FFFFFF"))
        items.append(run)
        items.extend(_line((sx, p.oy), (sx, p.oy + p.h), 0.3))
    if not last_row:
        sy = p.oy + p.h - t.overlap
        items.append(Rect(p.ox, sy, p.w, t.overlap, fill=None, stroke=GLUE, width=0.2))
        for k in range(int(p.w // 4)):
            x0 = p.ox + k * 4
            items.append(Polyline(((x0, sy + t.overlap), (x0 + t.overlap * 0.4, sy)), stroke=GLUE, width=0.2))
        run = _text(p.ox + p.w / 2, sy + t.overlap / 2 + 1.2, f"GLUE HERE · OVERLAP · lay {below} here", 7, p.w - 20,
                    "bold", INK, centre=True)
        length = metrics().width(run.text, "bold", run.size) / PT_PER_MM
        items.append(Rect(run.x - 1.5, sy + 1.5, length + 3, t.overlap - 3, fill="#FFFFFF"))
        items.append(run)
        items.extend(_line((p.ox, sy), (p.ox + p.w, sy), 0.3))
    # the left and top edges: dashed where they are cut and laid on a neighbour's strip, else the
    # board's own edge (a thin solid line to cut on); the right and bottom: the board's edge if last
    top_left, top_right = (p.ox, p.oy), (p.ox + p.w, p.oy)
    bottom_left, bottom_right = (p.ox, p.oy + p.h), (p.ox + p.w, p.oy + p.h)
    cut = (0.3, INK, (2.0, 1.5))
    items.extend(_line(top_left, bottom_left, *cut) if p.col else _line(top_left, bottom_left, EDGE, GLUE))
    items.extend(_line(top_left, top_right, *cut) if p.row else _line(top_left, top_right, EDGE, GLUE))
    if last_col:
        items.extend(_line(top_right, bottom_right, EDGE, GLUE))
    if last_row:
        items.extend(_line(bottom_left, bottom_right, EDGE, GLUE))
    for seam_x in seams(t.cols, p.col, p.x, p.w, t.overlap):  # ticks across vertical seams, at board heights
        for by in ticks(p.y, p.h):
            x, y = page.to_page(seam_x, by)
            reach = -TICK if seam_x > p.x + 1e-6 else TICK  # the strip's edge: ticks point into the page
            items.extend(_line((x, y), (x + reach, y), 0.35))
    for seam_y in seams(t.rows, p.row, p.y, p.h, t.overlap):
        for bx in ticks(p.x, p.w):
            x, y = page.to_page(bx, seam_y)
            reach = -TICK if seam_y > p.y + 1e-6 else TICK
            items.extend(_line((x, y), (x, y + reach), 0.35))
    band_y = p.oy - 2.2
    items.append(_text(p.ox, band_y, p.label, 14, 20, "bold", INK))
    left = f"left edge on {row_name(p.row)}{p.col}" if p.col else ""
    top = f"top edge on {row_name(p.row - 1)}{p.col + 1}" if p.row else ""
    how = "; ".join(s for s in (left, top) if s)
    detail = (f"{name} · page {p.label}: row {row_name(p.row)} (rows A-{row_name(t.rows - 1)}), column {p.col + 1} of {t.cols}"
              + (f" · cut the dashed edges, lay the {how}" if how else " · the top-left page: the others are laid on it"))
    band_end = t.page_w - min(q.ox for q in t.pages)  # the label may run over the page's band, past a narrow window
    items.append(_text(p.ox + 16, band_y, detail, 7.5, band_end - p.ox - 16))
    return TiledPage(t.page_w, t.page_h, items=items, label=f"{name} {p.label}", board=board,
                     shift=(p.ox - p.x, p.oy - p.y), span=span)


def seams(count: int, index: int, start: float, size: float, overlap: float) -> list[float]:
    """Board coordinates of the seams on a window: its start (if not first) and its strip's inner edge (if not last)."""
    out = []
    if index > 0:
        out.append(start)
    if index < count - 1:
        out.append(start + size - overlap)
    return out


def ticks(start: float, size: float) -> list[float]:
    """Board coordinates of the alignment ticks along a seam of this window (the same on both pages)."""
    n = max(1, int(size // TICK_STEP))
    first = start + (size - (n - 1) * TICK_STEP) / 2
    return [first + k * TICK_STEP for k in range(n)]


def assembly_page(board: Scene, t: Tiling, paper_w: float, paper_h: float, margin: float, name: str,
                  whole: str = "") -> Scene:
    """The page that shows how the tiled pages go together: the board in small, the page grid over it."""
    items: list[Item] = []
    w, h = paper_w - 2 * margin - 10, paper_h - 2 * margin - 80
    k = min(w / t.board_w, h / t.board_h)
    ox = (paper_w - t.board_w * k) / 2
    oy = margin + 22
    items.append(_text(margin + 5, margin + 9, f"{name}: assembling {t.rows * t.cols} pages", 15, w, "bold", INK))
    small = readable_only(scale_scene(board, k))  # a diagram of the pages: the board's text is read on the tiles
    items.append(Clip(ox, oy, t.board_w * k, t.board_h * k))
    items.extend(shift_scene_items(small.items, ox, oy))
    items.append(Unclip())
    for p in t.pages:
        x, y = ox + p.x * k, oy + p.y * k
        items.append(Rect(x, y, p.w * k, p.h * k, fill=None, stroke="#C0392B", width=0.5, dash=(2.0, 1.0)))
        items.append(_text(x + p.w * k / 2, y + p.h * k / 2 + 3, p.label, 16, p.w * k - 4, "bold", "#C0392B", centre=True))
    steps = [
        f"1. Print the {t.rows * t.cols} pages at 100 % (\"actual size\", not \"fit to page\"). Each shows its name (A1, A2, ... B1 ...) at the top.",
        "2. Cut every page along the board's edge. Where an edge is dashed, cut on the dashed line: that edge is laid on a neighbour.",
        f"3. Grey hatched strips ({t.overlap:g} mm) say GLUE HERE: put glue on them, lay the neighbouring page's cut edge on the strip's",
        "    solid line so the little ticks on both pages meet as one line, and press. Do a row at a time (A1, A2 ...), then join the rows.",
        f"4. The board is {t.board_w:g} x {t.board_h:g} mm. For one sheet from a copy shop, print {whole or 'the A2 file'} instead.",
    ]
    y = oy + t.board_h * k + 10
    for line in steps:
        items.append(_text(margin + 5, y, line, 9, paper_w - 2 * margin - 10))
        y += 6
    return Scene(paper_w, paper_h, items=items, label=f"{name} assembly")


def board_size(lib: LayoutLibrary, composer: Composer, sheet: Sheet) -> Size | None:
    """The size a sheet's layout declares (a board), or None for an ordinary page-sized sheet."""
    layout = lib.layout(sheet.layout, composer.problems, sheet.place)
    if layout is None or layout.size is None:
        return None
    return lib.sizes.get(layout.size)


_BOARDS: WeakKeyDictionary[Composer, dict[str, Scene | None]] = WeakKeyDictionary()


def compose_board(composer: Composer, sheet: Sheet, size: Size) -> Scene | None:
    """The board at its own size, composed once per composer (every paper and the large pages share it)."""
    done = _BOARDS.setdefault(composer, {})
    if sheet.id not in done:
        done[sheet.id] = board = _compose_with_map(composer, sheet, size)
        if board is not None:  # every build also writes it whole on A3, reduced: its text must read there too
            scale = min(large_page(size.width, size.height, paper, composer.lib.settings.page_margin).scale
                        for paper in LARGE_PAPERS)
            layout = composer.lib.layout(sheet.layout, composer.problems, sheet.place)
            check_reduced(board, scale, composer.fine_print, layout.place if layout else sheet.place,
                          f"sheet '{sheet.id}' whole on A3", composer.problems)
    return done[sheet.id]


def _compose_with_map(composer: Composer, sheet: Sheet, size: Size) -> Scene | None:
    """The board's layout composed; if its vars hold `map`, the game's city drawn beneath it (generator/city.py)."""
    extra: dict[str, object] = {"sheet": {"id": sheet.id, "name": sheet.name}}
    layout = composer.lib.layout(sheet.layout, composer.problems, sheet.place)
    raw = layout.vars.get("map") if layout is not None else None
    if layout is None or raw is None:
        return composer.page(sheet.layout, size.width, size.height, sheet.place, extra)
    where = getattr(raw, "place", layout.place)
    spec = read_spec(raw, where, composer.problems, composer.ink_saver)
    grid = districts_of(composer.db)
    if grid is None:
        composer.problems.add(where, f"layout '{sheet.layout}' draws a city map (vars.map), but game '{composer.db.id}' "
                              "has no board grid", "in game.yaml: board: {columns: 5, rows: 3, districts: <record set>}")
        return None
    if spec is None:
        return None
    city = build_city(spec, *grid)
    extra["city"] = template_values(city)
    board = composer.page(sheet.layout, size.width, size.height, sheet.place, extra)
    if board is not None:
        ground = Rect(0.0, 0.0, size.width, size.height, fill=spec.colours["paper"])
        board.items[:0] = [ground, *draw_city(city)]
    return board


def board_pages(composer: Composer, lib: LayoutLibrary, sheet: Sheet, paper: Size,
                problems: Problems) -> list[tuple[str, Scene]] | None:
    """A sheet's pages on `paper` if it is a board (one page, or an assembly page and its tiles); None if not a board."""
    size = board_size(lib, composer, sheet)
    if size is None:
        return None
    board = compose_board(composer, sheet, size)
    if board is None:
        return []
    margin = lib.settings.page_margin
    for pw, ph in ((paper.width, paper.height), (paper.height, paper.width)):
        if size.width <= pw - 2 * margin and size.height <= ph - 2 * margin:  # fits: one page, centred
            return [(sheet.name, Scene(pw, ph, items=shift_scene_items(board.items, (pw - size.width) / 2,
                                                                         (ph - size.height) / 2), label=sheet.name))]
    layout = lib.layout(sheet.layout, problems, sheet.place)
    seams_x, seams_y = layout_seams(layout, problems) if layout is not None else ((), ())
    t = tiling(size.width, size.height, paper.width, paper.height, margin, seams_x=seams_x, seams_y=seams_y)
    if t is None:
        problems.add(sheet.place, f"board '{sheet.id}' cannot be tiled on {paper.id}: the paper is smaller than the overlap")
        return []
    a2 = large_page(size.width, size.height, "a2", margin)
    whole = f"{composer.db.id}-{sheet.id}-a2.pdf" + (" (1:1)" if a2.scale == 1.0 else f" (at {a2.scale * 100:.0f} %)")
    pages = [(f"{sheet.name} · assembly", assembly_page(board, t, paper.width, paper.height, margin, sheet.name, whole))]
    pages.extend((f"{sheet.name} · {p.label}", tile_page(board, t, p, sheet.name)) for p in t.pages)
    return pages


@dataclass(frozen=True)
class LargePage:
    """The whole board on one large page: its offset and scale (1.0 when it fits at 1:1)."""

    paper: str
    page_w: float
    page_h: float
    scale: float
    ox: float
    oy: float


def large_page(board_w: float, board_h: float, paper: str, margin: float) -> LargePage:
    pw, ph = LARGE_PAPERS[paper]
    scale = min(1.0, (pw - 2 * margin - 8) / board_w, (ph - 2 * margin - 8) / board_h)
    if scale < 1.0:
        scale = math.floor(scale * 100) / 100  # a round percentage a person can check with a ruler
    return LargePage(paper, pw, ph, scale, (pw - board_w * scale) / 2, (ph - board_h * scale) / 2)


def large_scene(board: Scene, lp: LargePage, name: str) -> Scene:
    small = scale_scene(board, lp.scale) if lp.scale != 1.0 else board
    items = shift_scene_items(small.items, lp.ox, lp.oy)
    items.append(Rect(lp.ox, lp.oy, small.width, small.height, stroke=GLUE, width=EDGE))  # the edge to trim on
    note = f"{name} · {lp.paper.upper()} · " + ("scale 1:1" if lp.scale == 1.0 else
                                                 f"scale {lp.scale * 100:.0f} % (the tiles are 25 mm: for 1:1 print the A2 file)")
    items.append(_text(lp.ox, lp.oy - 1.8, note, 7, board.width * lp.scale))  # above the board, clear of the margin
    return Scene(lp.page_w, lp.page_h, items=items, label=f"{name} {lp.paper}")


def write_boards(composer: Composer, lib: LayoutLibrary, db: GameDatabase, folder: Path,
                 problems: Problems) -> list[str]:
    """Every board of the game whole on one A3 and one A2 page: `<game>-<board>-a3.pdf`, `-a2.pdf`; lines to print."""
    said: list[str] = []
    for sheet in db.sheets:
        size = board_size(lib, composer, sheet)
        if size is None:
            continue
        board = compose_board(composer, sheet, size)
        if board is None or problems:
            return said
        for paper in LARGE_PAPERS:
            lp = large_page(size.width, size.height, paper, lib.settings.page_margin)
            path = folder / f"{db.id}-{sheet.id}-{paper}.pdf"
            _write_one(path, large_scene(board, lp, sheet.name), lp, size, f"{db.title} — {sheet.name} ({paper.upper()})")
            said.append(f"wrote {path} (1 page, {paper.upper()}, scale {lp.scale:g})")
    return said


def _write_one(path: Path, scene: Scene, lp: LargePage, size: Size, title: str) -> None:
    """One page, written beside its target and renamed over it; TrimBox on the board."""
    from casebook.generator.backends.pdf import PdfDocument

    with atomic_file(path) as tmp:
        doc = PdfDocument(tmp, title=title)
        doc.begin_page(lp.page_w, lp.page_h, trim=(lp.ox, lp.oy, size.width * lp.scale, size.height * lp.scale))
        doc.draw(scene)
        doc.end_page()
        doc.save()

