"""Imposition: cards on sheets, crop marks beside the block, backs mirrored for long-edge duplex.

Cards abut by default (one cut between neighbours) with the full bleed around the block,
short only of the margin the printer cannot print; a gutter spaces them, and a gutter of
twice the bleed gives every card its own bleed. A card beside an empty slot keeps its whole
bleed there. Cards abut only cards with the same back (`fill_sheets`): after a duplex drift
a back must show no other deck's colour at its edge.
Crop marks stand on every trim line, never closer to the page edge than the printers'
margin. Where the margin leaves room, a mark stands outside the block's bleed; where it
does not (3 x 3 poker cards on US Letter leave 7.7 mm above and below), the mark lies over
the outer bleed, which is cut away anyway, and is drawn with a white halo so it shows on a
dark bleed. A sheet is turned to landscape when that holds more cards; the plan says so in
`notes`, and its backs are mirrored about the long (then horizontal) axis.

Every sheet carries a label, and it never costs a card: where no free strip takes it, the
marks on one side are kept short so that the label fits beyond their tips, and if that
side is still too narrow the block moves away from it (the backs' block mirrors the move).
A label that then reaches over the outer bleed is drawn on a white patch, like the marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

T = TypeVar("T")

MARK_GAP = 0.5  # between a mark and the bleed (or, over the bleed, the trim)
MARK_MIN = 1.5
MARK_MAX = 5.0
MARK_WIDTH = 0.25
MARK_HALO = 0.35  # white on each side of a mark that lies over the bleed
LABEL_BAND = (100.0, 2.0)  # the least free strip (length, depth) that takes a long label (two components) at 6.5 pt
LABEL_DEPTH = 2.3  # the strip a 6.5 pt label fills, kept free beyond the marks when no strip is free
LABEL_PAD = 0.3  # between a label's strip and the margin, a mark or a card
RIDER_GAP = 3.0  # between the tips of the marks below one block and those above a block placed under it

Segment = tuple[tuple[float, float], tuple[float, float]]
SIDES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Slot:
    """Where one card goes on a sheet: its index, column and row, and its trim's top-left on the page (mm)."""
    index: int
    col: int
    row: int
    x: float  # trim top-left on the page, mm
    y: float


@dataclass(frozen=True)
class Band:
    """A free strip of the page for a label: x, y, w, h in mm; a turned label runs up the page."""

    x: float
    y: float
    w: float
    h: float
    turned: bool = False
    on_bleed: bool = False  # reaches over the outer bleed: the label goes on a white patch
    side: str = ""  # the page edge it runs along: a label keeps to that edge, however deep the strip


@dataclass
class SheetPlan:
    """How cards of one size are laid out on a paper: the grid, bleed and gutter, where the first trim begins (mm)."""
    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    bleed: float
    gutter: float
    x0: float  # trim top-left of the first card
    y0: float
    outer: tuple[float, float, float, float]  # bleed kept outside the block: left, top, right, bottom
    margin: float = 5.0  # the page edge no mark comes nearer than
    notes: list[str] = field(default_factory=list)
    reserve: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # kept for a label beyond the marks, per side
    count: int = 0  # the cards on this sheet, filled row by row (0: every slot)
    clear_below: float = 0.0  # where a block placed below this one begins (`below`): no label strip runs past it
    # marks and label strips, worked out once per shift: every sheet of a deck asks again (not copied by replace())
    _memo: dict[object, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.paper_w > self.paper_h

    @property
    def filled(self) -> int:
        return self.count or self.per_sheet

    def used(self, count: int) -> SheetPlan:
        """The plan for a sheet holding only `count` cards: rows below them, and columns right of a lone row's, unmarked.

        A card beside an empty slot keeps its whole bleed there (see `bleeds`); the block's outer bleed
        is worked out again for the smaller block.
        """
        rows = max(1, min(self.rows, -(-count // self.cols)))
        cols = self.cols if rows > 1 else max(1, min(self.cols, count))
        if (rows, cols) == (self.rows, self.cols) and count >= self.per_sheet:
            return self
        used = replace(self, rows=rows, cols=cols, count=min(count, rows * cols), notes=[])
        return replace(used, outer=_kept_outer(used))

    def below(self, other: SheetPlan) -> SheetPlan | None:
        """`other`'s cards as a block of their own in the free rows below this sheet's, or None where they do not fit.

        The block keeps its columns, its full bleed and marks on every side; its marks above it
        begin RIDER_GAP past the tips of this block's marks below, so the two blocks part with
        one cut across the page, and their bleeds stand far more than twice the bleed apart.
        Only on a portrait page (the backs of both blocks then mirror about the same axis), where
        this sheet keeps no label room at the bottom, and leaving a label's strip below the block.
        """
        if self.landscape or other.landscape or (self.paper_w, self.paper_h) != (other.paper_w, other.paper_h) \
                or self.reserve[3]:
            return None
        # every sheet of a deck asks each earlier block again, mostly of the same two plans (notes never matter)
        key = ("below", id(other))
        kept = self._memo.get(key)
        if kept is None or kept[0] is not other:
            kept = self._memo[key] = (other, self._below(other))  # `other` held: its id stays its own
        return kept[1] if kept[1] is None else replace(kept[1], notes=[])

    def _below(self, other: SheetPlan) -> SheetPlan | None:
        top = self.block()[3] + self.outer[3] + MARK_GAP + MARK_MAX + RIDER_GAP
        placed = replace(other, y0=top + MARK_MAX + MARK_GAP + other.bleed, notes=[],
                         reserve=(0.0, top - other.margin - 2 * LABEL_PAD, 0.0, LABEL_DEPTH))  # below: the page's label
        placed = replace(placed, outer=_kept_outer(placed))
        if not placed.marks_fit() or placed.mark_span("bottom")[2] or placed.outer[3] < placed.bleed - 1e-9:
            return None
        return placed

    def parting(self, lower: SheetPlan) -> float:
        """Where a cut across the page parts this block from `lower`, a block placed below it: midway between their marks."""
        return (self.block()[3] + self.outer[3] + MARK_GAP + MARK_MAX + lower.mark_span("top")[0]) / 2

    def slot(self, index: int) -> Slot:
        col, row = index % self.cols, index // self.cols
        return Slot(index, col, row, self.x0 + col * (self.card_w + self.gutter),
                    self.y0 + row * (self.card_h + self.gutter))

    def back_slot(self, index: int, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where a card's back goes after a flip on the long edge, then shifted by `offset`.

        Portrait: mirrored about the page's vertical axis. Landscape: about its horizontal
        axis, since the long edge is then the top one (the printer turns the page a quarter
        to the left onto its portrait paper, so `offset`, measured on a portrait page, turns too).
        """
        face = self.slot(index)
        ox, oy = self.page_offset(offset)
        if self.landscape:
            return Slot(index, face.col, self.rows - 1 - face.row, face.x + ox,
                        self.paper_h - face.y - self.card_h + oy)
        return Slot(index, self.cols - 1 - face.col, face.row,
                    self.paper_w - face.x - self.card_w + ox, face.y + oy)

    def page_offset(self, offset: tuple[float, float]) -> tuple[float, float]:
        """A back offset measured on a portrait page (x right, y down), in this page's axes."""
        if self.landscape:
            return (-offset[1], offset[0])
        return offset

    def bleeds(self, index: int) -> tuple[float, float, float, float]:
        """The bleed card `index` owns on its face, left, top, right, bottom.

        Between two cards half the gutter (none where they abut: the neighbour's trim is there);
        at the block's edge its outer bleed; beside an empty slot of a partly filled sheet the
        whole bleed, so that no card of a deck shows a white edge the others have not.
        """
        col, row = index % self.cols, index // self.cols
        inner = min(self.bleed, self.gutter / 2)
        filled = self.filled
        left = self.outer[0] if col == 0 else inner
        top = self.outer[1] if row == 0 else inner
        if col == self.cols - 1:
            right = self.outer[2]
        else:
            right = inner if index + 1 < filled else self.bleed
        if row == self.rows - 1:
            bottom = self.outer[3]
        else:
            bottom = inner if index + self.cols < filled else self.bleed
        return (left, top, right, bottom)

    def clip(self, slot: Slot) -> tuple[float, float, float, float]:
        """The part of the face page card `slot.index` may paint: its trim plus the bleed it owns."""
        left, top, right, bottom = self.bleeds(slot.index)
        face = self.slot(slot.index)
        return (face.x - left, face.y - top, self.card_w + left + right, self.card_h + top + bottom)

    def back_clip(self, index: int, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float, float, float]:
        """The part of a back page the back of card `index` may paint: its face's bleeds mirrored, shifted by `offset`."""
        left, top, right, bottom = self.bleeds(index)
        if self.landscape:
            top, bottom = bottom, top
        else:
            left, right = right, left
        back = self.back_slot(index, offset)
        return (back.x - left, back.y - top, self.card_w + left + right, self.card_h + top + bottom)

    def trim_lines(self) -> tuple[list[float], list[float]]:
        xs: set[float] = set()
        ys: set[float] = set()
        for c in range(self.cols):
            x = self.x0 + c * (self.card_w + self.gutter)
            xs.update((round(x, 4), round(x + self.card_w, 4)))
        for r in range(self.rows):
            y = self.y0 + r * (self.card_h + self.gutter)
            ys.update((round(y, 4), round(y + self.card_h, 4)))
        return sorted(xs), sorted(ys)

    def block(self) -> tuple[float, float, float, float]:
        """The trimmed block: x0, y0, x1, y1."""
        return (self.x0, self.y0, self.x0 + self.cols * self.card_w + (self.cols - 1) * self.gutter,
                self.y0 + self.rows * self.card_h + (self.rows - 1) * self.gutter)

    def _edge_room(self) -> tuple[float, float, float, float]:
        """From each side of the trimmed block to that page edge: left, top, right, bottom."""
        bx0, by0, bx1, by1 = self.block()
        return (bx0, by0, self.paper_w - bx1, self.paper_h - by1)

    def mark_span(self, side: str) -> tuple[float, float, bool]:
        """A side's marks, as distances from that page edge (near, far), and whether they lie over the bleed."""
        k = SIDES.index(side)
        room, bleed = self._edge_room()[k], self.outer[k]
        limit = self.margin + MARK_WIDTH  # the marks' ink, round caps included, stays clear of the margin
        if self.reserve[k]:  # the marks begin beyond a label's strip
            limit = max(limit, self.margin + self.reserve[k] + 2 * LABEL_PAD)
        outside = room - bleed - MARK_GAP - limit
        if outside >= MARK_MIN - 1e-9:
            far = room - bleed - MARK_GAP
            return (far - min(MARK_MAX, outside), far, False)
        return (limit, room - MARK_GAP, True)

    def marks_fit(self) -> bool:
        """Whether the marks of every side are at least MARK_MIN long."""
        return all(far - near >= MARK_MIN - 1e-9 for near, far, _ in map(self.mark_span, SIDES))

    def for_backs(self) -> SheetPlan:
        """The plan of the back pages: the block, its marks and label strips mirrored as the backs are.

        The same plan when the block is centred across the flip's axis and no side keeps label room alone.
        """
        backs = self._memo.get("backs")
        if backs is None:
            backs = self._memo["backs"] = self._mirrored()
        return backs

    def _mirrored(self) -> SheetPlan:
        left, top, right, bottom = self.outer
        r_left, r_top, r_right, r_bottom = self.reserve
        bx0, by0, bx1, by1 = self.block()
        if self.landscape:
            if abs(by0 - (self.paper_h - by1)) < 1e-9 and (top, r_top) == (bottom, r_bottom):
                return self
            return replace(self, y0=self.paper_h - by1, outer=(left, bottom, right, top),
                           reserve=(r_left, r_bottom, r_right, r_top), notes=[])
        if abs(bx0 - (self.paper_w - bx1)) < 1e-9 and (left, r_left) == (right, r_right):
            return self
        return replace(self, x0=self.paper_w - bx1, outer=(right, top, left, bottom),
                       reserve=(r_right, r_top, r_left, r_bottom), notes=[])

    def crop_marks(self, shift: tuple[float, float] | float = (0.0, 0.0)) -> list[Segment]:
        """Line segments ((x1, y1), (x2, y2)) in mm; `shift` moves them (for back pages)."""
        return [seg for seg, _ in self._marks(shift)]

    def marks_over_bleed(self, shift: tuple[float, float] | float = (0.0, 0.0)) -> list[Segment]:
        """The marks that lie over the outer bleed (drawn on a white halo)."""
        return [seg for seg, over in self._marks(shift) if over]

    def _marks(self, shift: tuple[float, float] | float) -> list[tuple[Segment, bool]]:
        sx, sy = (shift, 0.0) if isinstance(shift, int | float) else shift
        key = ("marks", sx, sy)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._worked_out_marks(sx, sy)
        return found

    def mark_segment(self, side: str, t: float, near: float, far: float) -> Segment:
        """A mark in line with the cut at `t`, on `side` of the block, from `near` to `far` of the page's edge."""
        if side == "top":
            return (t, near), (t, far)
        if side == "bottom":
            return (t, self.paper_h - far), (t, self.paper_h - near)
        if side == "left":
            return (near, t), (far, t)
        return (self.paper_w - far, t), (self.paper_w - near, t)

    def _worked_out_marks(self, sx: float, sy: float) -> list[tuple[Segment, bool]]:
        xs, ys = self.trim_lines()
        out: list[tuple[Segment, bool]] = []
        for side in SIDES:
            near, far, over = self.mark_span(side)
            vertical = side in ("top", "bottom")
            for t in xs if vertical else ys:
                a, b = self.mark_segment(side, t, near, far)
                a, b = self._inside((a[0] + sx, a[1] + sy)), self._inside((b[0] + sx, b[1] + sy))
                if abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 0.5:  # a back's shift may push a mark into the margin
                    out.append(((a, b), over))
        return out

    def _inside(self, point: tuple[float, float]) -> tuple[float, float]:
        lo = self.margin + MARK_WIDTH
        return (min(max(point[0], lo), self.paper_w - lo), min(max(point[1], lo), self.paper_h - lo))

    def has_label_room(self) -> bool:
        return any(max(b.w, b.h) >= LABEL_BAND[0] and min(b.w, b.h) >= LABEL_BAND[1] for b in self.label_bands())

    def label_bands(self, shift: tuple[float, float] = (0.0, 0.0)) -> list[Band]:
        """Free strips for a page label, left, top, right, bottom: beyond the marks' tips, or between two marks.

        A back page's strips move with its cards by `shift`, cut short where they would reach the margin.
        """
        key = ("bands", *shift)
        found = self._memo.get(key)
        if found is not None:
            return list(found)
        m = self.margin + LABEL_PAD
        out = []
        for b in self._label_bands():
            x0, y0 = max(b.x + shift[0], m), max(b.y + shift[1], m)
            x1, y1 = min(b.x + b.w + shift[0], self.paper_w - m), min(b.y + b.h + shift[1], self.paper_h - m)
            if self.clear_below and b.turned:  # a label up the side stops above the block placed below
                y1 = min(y1, self.clear_below + shift[1] - LABEL_PAD)
            if x1 - x0 > 1e-9 and y1 - y0 > 1e-9:
                out.append(b if (x0, y0, x1, y1) == (b.x, b.y, b.x + b.w, b.y + b.h)
                           else replace(b, x=x0, y=y0, w=x1 - x0, h=y1 - y0))
        self._memo[key] = tuple(out)
        return out

    def _label_bands(self) -> list[Band]:
        bands: list[Band] = []
        pad = LABEL_PAD
        m = self.margin + pad
        xs, ys = self.trim_lines()
        for side in SIDES:
            near, far, over = self.mark_span(side)
            k = SIDES.index(side)
            bleed_edge = self._edge_room()[k] - self.outer[k]
            vertical = side in ("top", "bottom")
            length = (self.paper_w if vertical else self.paper_h) - 2 * m
            # beyond the tips of the marks, the whole length of the side
            depth = near - pad - m
            # between two marks, from the margin to the bleed (not where marks lie over the bleed)
            lines = [m, *(xs if vertical else ys), (self.paper_w if vertical else self.paper_h) - m]
            start, end = max(zip(lines, lines[1:], strict=False), key=lambda g: g[1] - g[0])
            gap_depth = 0.0 if over else bleed_edge - pad - m
            for d, a, span in ((depth, m, length), (gap_depth, start + 1.0, end - start - 2.0)):
                if d <= 0 or span <= 0:
                    continue
                on = m + d > bleed_edge + 1e-9
                if side == "top":
                    bands.append(Band(a, m, span, d, on_bleed=on, side=side))
                elif side == "bottom":
                    bands.append(Band(a, self.paper_h - m - d, span, d, on_bleed=on, side=side))
                elif side == "left":
                    bands.append(Band(m, a, d, span, turned=True, on_bleed=on, side=side))
                else:
                    bands.append(Band(self.paper_w - m - d, a, d, span, turned=True, on_bleed=on, side=side))
        return bands


def _fit(length: float, card: float, gutter: float, margin: float) -> int:
    n = 0
    while (n + 1) * card + n * gutter + 2 * (margin + MARK_WIDTH + MARK_MIN + MARK_GAP) <= length + 1e-9:
        n += 1
    return n


def plan_sheet(card_w: float, card_h: float, paper_w: float, paper_h: float, *, bleed: float = 3.0,
               gutter: float = 0.0, margin: float = 5.0, max_cols: int = 0, max_rows: int = 0,
               labels: bool = True) -> SheetPlan | None:
    """The best grid of cards on a page of this size as given, or None if not even one card fits.

    Without `labels` (--no-labels) no room is kept for a sheet's label: no card and no move is spent on it.
    """
    cols = _fit(paper_w, card_w, gutter, margin)
    rows = _fit(paper_h, card_h, gutter, margin)
    if max_cols:
        cols = min(cols, max_cols)
    if max_rows:
        rows = min(rows, max_rows)
    if cols < 1 or rows < 1:
        return None
    plan = _grid(card_w, card_h, paper_w, paper_h, cols, rows, bleed, gutter, margin)
    if labels and not plan.has_label_room():
        plan = _make_label_room(plan) or plan
    while labels and not plan.has_label_room() and plan.per_sheet > 1:  # only where no side can take it (a tiny page)  # every sheet says what it holds
        plan = _grid(card_w, card_h, paper_w, paper_h, cols, rows - 1, bleed, gutter, margin) if rows > 1 else \
            _grid(card_w, card_h, paper_w, paper_h, cols - 1, rows, bleed, gutter, margin)
        if plan.has_label_room():
            plan.notes.append(f"{cols * rows - plan.per_sheet} cards fewer a sheet, to leave room for its label")
        cols, rows = plan.cols, plan.rows
    narrowed = _outer_note(plan)
    if narrowed:
        plan.notes.append(narrowed)
    over = [side for side in SIDES if plan.mark_span(side)[2]]
    if over:
        where = "all four sides" if len(over) == 4 else "the " + " and ".join(over)
        plan.notes.append(f"crop marks at {where} lie over the outer bleed (the margin is too narrow for "
                          "them beside it): drawn on a white halo, cut away with the bleed")
    return plan


def _make_label_room(plan: SheetPlan) -> SheetPlan | None:
    """The plan with a label's strip kept beyond the marks of one side, or None if no side can take it.

    Tried in turn: the fullest strip before a narrower one; the block centred before moved
    away from that side (no further than the opposite side's marks allow); top, bottom, left, right.
    """
    for depth in (LABEL_DEPTH, LABEL_BAND[1]):
        for moved in (False, True):
            for side in ("top", "bottom", "left", "right"):
                i = SIDES.index(side)
                reserve = tuple(depth if j == i else 0.0 for j in range(4))
                tried = replace(plan, reserve=reserve, notes=list(plan.notes))  # type: ignore[arg-type]
                if moved:
                    need = plan.margin + depth + 2 * LABEL_PAD + MARK_MIN + MARK_GAP  # marks over the bleed
                    move = need - plan._edge_room()[i]
                    if move <= 0:
                        continue
                    sign = 1.0 if side in ("top", "left") else -1.0
                    if side in ("top", "bottom"):
                        tried = replace(tried, y0=plan.y0 + sign * move)
                    else:
                        tried = replace(tried, x0=plan.x0 + sign * move)
                    tried = replace(tried, outer=_kept_outer(tried))
                if tried.marks_fit() and tried.has_label_room():
                    if moved:
                        tried.notes.append(f"the block moved {move:.1f} mm off the centre to leave room at the {side} "
                                           "for the sheet's label (the backs move with it)")
                    if any(b.on_bleed for b in tried.label_bands()):
                        tried.notes.append(f"the sheet's label at the {side} reaches over the outer bleed: drawn on a "
                                           "white patch, cut away with the bleed")
                    return tried
    return None


def _grid(card_w: float, card_h: float, paper_w: float, paper_h: float, cols: int, rows: int, bleed: float,
          gutter: float, margin: float) -> SheetPlan:
    block_w = cols * card_w + (cols - 1) * gutter
    block_h = rows * card_h + (rows - 1) * gutter
    plan = SheetPlan(paper_w, paper_h, card_w, card_h, cols, rows, bleed, gutter, (paper_w - block_w) / 2,
                     (paper_h - block_h) / 2, (bleed, bleed, bleed, bleed), margin)
    return replace(plan, outer=_kept_outer(plan))


def _kept_outer(plan: SheetPlan) -> tuple[float, float, float, float]:
    """The bleed around the block: all of it, but never into the margin the printer leaves blank.

    3 x 3 poker cards on US Letter leave 7.7 mm above and below the block: 2.7 mm of bleed there.
    """
    room = plan._edge_room()
    return tuple(max(0.0, min(plan.bleed, r - plan.margin)) for r in room)  # type: ignore[return-value]


def _outer_note(plan: SheetPlan) -> str | None:
    """What `_kept_outer` took off the bleed, said once for a plan, or None."""
    short = [(side, b) for side, b in zip(SIDES, plan.outer, strict=True) if b < plan.bleed - 1e-9]
    if not short:
        return None
    where = " and ".join(dict.fromkeys(side for side, _ in short))
    least = min(b for _, b in short)
    return (f"the bleed at the {where} of the block is {least:.1f} mm, not {plan.bleed:g}: it stops at the "
            f"{plan.margin:g} mm margin home printers leave blank (more than any duplex drift)")


def best_plan(card_w: float, card_h: float, paper_w: float, paper_h: float, **kwargs: float) -> SheetPlan | None:
    """The portrait plan, or the landscape one if that holds more cards (with a note saying so)."""
    portrait = plan_sheet(card_w, card_h, paper_w, paper_h, **kwargs)  # type: ignore[arg-type]
    landscape = plan_sheet(card_w, card_h, paper_h, paper_w, **kwargs)  # type: ignore[arg-type]
    if landscape is not None and (portrait is None or landscape.per_sheet > portrait.per_sheet):
        before = portrait.per_sheet if portrait else 0
        landscape.notes.insert(0, f"sheets turned to landscape: {landscape.per_sheet} cards a sheet instead of {before}")
        return landscape
    return portrait


def fill_sheets(groups: Sequence[Sequence[T]], plain: SheetPlan, spaced: SheetPlan | None
                ) -> list[tuple[SheetPlan, list[T]]]:
    """Cards of one size on sheets, each with the plan it is laid out on; `groups` holds the cards of one back each.

    A sheet of abutting cards holds one back only: a drifted cut shows a neighbour's edge, which
    must look like the card's own. Each back fills whole sheets of its own; what is left of the
    backs shares `spaced` sheets (a gutter of twice the bleed: every card its own bleed) when that
    takes fewer sheets than a sheet for each, else each remainder has a sheet of its own.
    With a gutter of twice the bleed already, any cards may share a sheet.
    """
    per = plain.per_sheet
    if plain.gutter >= 2 * plain.bleed - 1e-9:
        cards = [card for group in groups for card in group]
        return [(plain.used(len(cards[i:i + per])), cards[i:i + per]) for i in range(0, len(cards), per)]
    sheets: list[tuple[SheetPlan, list[T]]] = []
    rest: list[list[T]] = []
    for group in groups:
        whole = len(group) - len(group) % per
        sheets += [(plain, list(group[i:i + per])) for i in range(0, whole, per)]
        if whole < len(group):
            rest.append(list(group[whole:]))
    pooled = [card for part in rest for card in part]
    split = -(-len(pooled) // spaced.per_sheet) if spaced is not None else len(rest)
    grouped = _whole_parts(rest, spaced.per_sheet) if spaced is not None and 1 < len(rest) <= _PARTS_TRIED else None
    if spaced is not None and grouped is not None and len(grouped) < len(rest) and len(grouped) <= split:
        for batch in grouped:  # one back alone: a plain sheet; several: a spaced one
            cards = [card for part in batch for card in part]
            sheets.append((plain.used(len(cards)) if len(batch) == 1 else spaced.used(len(cards)), cards))
    elif spaced is not None and len(rest) > 1 and split < len(rest):
        n = spaced.per_sheet
        sheets += [(spaced.used(len(pooled[i:i + n])), pooled[i:i + n]) for i in range(0, len(pooled), n)]
    else:
        sheets += [(plain.used(len(part)), part) for part in rest]
    return sheets


_PARTS_TRIED = 8  # remainders of more backs than this (4140 ways to group 8) are pooled in order instead


def _whole_parts(rest: list[list[T]], room: int) -> list[list[list[T]]]:
    """The backs' remainders grouped onto as few sheets as can hold them without parting a back's cards (several
    backs share a spaced sheet of `room` cards; one back alone has a plain sheet), the emptiest sheet as full as
    can be (so no card is left alone on a sheet when another grouping avoids it); sheets in the backs' order."""
    best: list[list[int]] = [[i] for i in range(len(rest))]
    best_key = (len(best), -min(len(part) for part in rest))

    def grow(i: int, bins: list[list[int]]) -> None:
        nonlocal best, best_key
        if len(bins) > best_key[0]:
            return
        if i == len(rest):
            key = (len(bins), -min(sum(len(rest[k]) for k in b) for b in bins))
            if key < best_key:
                best, best_key = [list(b) for b in bins], key
            return
        for b in bins:
            if sum(len(rest[k]) for k in b) + len(rest[i]) <= room:
                b.append(i)
                grow(i + 1, bins)
                b.pop()
        bins.append([i])
        grow(i + 1, bins)
        bins.pop()

    grow(0, [])
    return [[rest[k] for k in b] for b in best]
