"""Imposition: cards on sheets, crop marks in the margin, backs mirrored for long-edge duplex.

Cards abut by default (one cut between neighbours) with bleed around the block; a
gutter spaces them, and a gutter of twice the bleed gives every card its own bleed.
Crop marks stand on every trim line, outside the block's bleed, and never closer to
the page edge than the printers' margin. Where a paper leaves too little room for a
mark (3 x 3 poker cards on US Letter leave 7.7 mm above and below), the block's outer
bleed on that side is narrowed so the mark still fits; the plan says so in `notes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

MARK_GAP = 0.5  # between a mark and the bleed
MARK_MIN = 1.5
MARK_MAX = 5.0
MARK_WIDTH = 0.25


@dataclass(frozen=True)
class Slot:
    index: int
    col: int
    row: int
    x: float  # trim top-left on the page, mm
    y: float


@dataclass
class SheetPlan:
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
    mark_len: tuple[float, float]  # horizontal marks (left/right), vertical marks (top/bottom)
    notes: list[str] = field(default_factory=list)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def used(self, count: int) -> SheetPlan:
        """The plan for a sheet holding only `count` cards: rows below them are not marked."""
        rows = max(1, min(self.rows, -(-count // self.cols)))
        if rows == self.rows:
            return self
        left, top, right, _ = self.outer
        return replace(self, rows=rows, outer=(left, top, right, self.bleed))

    def slot(self, index: int) -> Slot:
        col, row = index % self.cols, index // self.cols
        return Slot(index, col, row, self.x0 + col * (self.card_w + self.gutter),
                    self.y0 + row * (self.card_h + self.gutter))

    def back_slot(self, index: int, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where a card's back goes: mirrored about the page's vertical axis, then shifted."""
        face = self.slot(index)
        return Slot(index, self.cols - 1 - face.col, face.row,
                    self.paper_w - face.x - self.card_w + offset[0], face.y + offset[1])

    def clip(self, slot: Slot) -> tuple[float, float, float, float]:
        """The part of the page a card may paint: its trim plus the bleed it owns."""
        inner = min(self.bleed, self.gutter / 2)
        left = self.outer[0] if slot.col == 0 else inner
        right = self.outer[2] if slot.col == self.cols - 1 else inner
        top = self.outer[1] if slot.row == 0 else inner
        bottom = self.outer[3] if slot.row == self.rows - 1 else inner
        return (slot.x - left, slot.y - top, self.card_w + left + right, self.card_h + top + bottom)

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

    def crop_marks(self, x_shift: float = 0.0) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Line segments ((x1, y1), (x2, y2)) in mm; x_shift moves them (for back pages)."""
        bx0, by0, bx1, by1 = self.block()
        xs, ys = self.trim_lines()
        left, top, right, bottom = self.outer
        hx, vy = self.mark_len
        marks = []
        for x in xs:
            top_end = by0 - top - MARK_GAP
            bot_start = by1 + bottom + MARK_GAP
            marks.append(((x + x_shift, top_end - vy), (x + x_shift, top_end)))
            marks.append(((x + x_shift, bot_start), (x + x_shift, bot_start + vy)))
        for y in ys:
            left_end = bx0 - left - MARK_GAP
            right_start = bx1 + right + MARK_GAP
            marks.append(((left_end - hx + x_shift, y), (left_end + x_shift, y)))
            marks.append(((right_start + x_shift, y), (right_start + hx + x_shift, y)))
        return marks


def _fit(length: float, card: float, gutter: float, margin: float) -> int:
    n = 0
    while (n + 1) * card + n * gutter + 2 * (margin + MARK_WIDTH + MARK_MIN + MARK_GAP) <= length + 1e-9:
        n += 1
    return n


def plan_sheet(card_w: float, card_h: float, paper_w: float, paper_h: float, *, bleed: float = 3.0,
               gutter: float = 0.0, margin: float = 5.0, max_cols: int = 0, max_rows: int = 0) -> SheetPlan | None:
    """The best grid of cards on a portrait page, or None if not even one card fits."""
    cols = _fit(paper_w, card_w, gutter, margin)
    rows = _fit(paper_h, card_h, gutter, margin)
    if max_cols:
        cols = min(cols, max_cols)
    if max_rows:
        rows = min(rows, max_rows)
    if cols < 1 or rows < 1:
        return None
    block_w = cols * card_w + (cols - 1) * gutter
    block_h = rows * card_h + (rows - 1) * gutter
    x0 = (paper_w - block_w) / 2
    y0 = (paper_h - block_h) / 2
    notes = []
    margin += MARK_WIDTH  # the marks' ink, round caps included, stays clear of the margin
    room_x = x0 - margin  # between the printable edge and the trim
    room_y = y0 - margin
    bleed_x = max(0.0, min(bleed, room_x - MARK_GAP - MARK_MIN))
    bleed_y = max(0.0, min(bleed, room_y - MARK_GAP - MARK_MIN))
    for axis, got in (("left and right", bleed_x), ("top and bottom", bleed_y)):
        if got + 1e-9 < bleed:
            notes.append(f"outer bleed {axis} narrowed to {got:.1f} mm so crop marks fit the margin")
    mark_x = min(MARK_MAX, room_x - MARK_GAP - bleed_x)
    mark_y = min(MARK_MAX, room_y - MARK_GAP - bleed_y)
    return SheetPlan(paper_w, paper_h, card_w, card_h, cols, rows, bleed, gutter, x0, y0,
                     (bleed_x, bleed_y, bleed_x, bleed_y), (mark_x, mark_y), notes)
