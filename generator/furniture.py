"""What a card sheet carries besides its cards: crop marks, a page label, guillotine cut lines.

Drawn by the build on every sheet of the PDFs, and by the exports that lay out sheets of
their own (fold-and-glue), so that every sheet is marked alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from casebook.generator.backends.fonts import metrics
from casebook.generator.scene import Polyline, Rect, Scene, TextRun
from casebook.generator.sheets import MARK_HALO, MARK_WIDTH, Band, SheetPlan
from casebook.generator.units import PT_PER_MM

if TYPE_CHECKING:
    from casebook.generator.backends.pdf import PdfDocument
    from casebook.generator.cache import SceneStore

CUT_LINE_WIDTH = 0.1  # mm: thin enough to vanish in the cut, dark enough to aim a blade at
CUT_LINE_COLOUR = "#000000"
LABEL_SIZE, LABEL_MIN = 6.5, 4.5  # pt: the page label is for sorting sheets, not for play


def draw_furniture(doc: PdfDocument, plan: SheetPlan, crop_marks: bool, label: str, shift: tuple[float, float],
                   store: SceneStore | None = None) -> None:
    """Crop marks (on a white halo where they lie over the bleed) and a small page label in the widest free band."""
    items: list[Polyline | Rect | TextRun] = []
    if crop_marks:
        for a, b in plan.marks_over_bleed(shift):
            items.append(Polyline((a, b), stroke="#FFFFFF", width=MARK_WIDTH + 2 * MARK_HALO))
        for a, b in plan.crop_marks(shift):
            items.append(Polyline((a, b), stroke="#000000", width=MARK_WIDTH))
    if label:  # none with --no-labels
        items.extend(label_run(plan, label, shift))
    from casebook.generator.backends.recorded import draw_page_marks

    draw_page_marks(doc, Scene(plan.paper_w, plan.paper_h, items=list(items)), store)  # marks alike on many pages


def label_run(plan: SheetPlan, label: str, shift: tuple[float, float]) -> list[Rect | TextRun]:
    """The label at the largest size a free band allows, on a white patch over a bleed.

    On a tie a band that reads without turning the page wins (below a part-filled sheet's
    cards, say), then the first.
    """
    m = metrics()
    unit_w = m.width(label, "regular", 1.0) / PT_PER_MM  # mm per pt of size
    unit_h = (m.ascent("regular", 1.0) + m.descent("regular", 1.0)) / PT_PER_MM
    best: tuple[float, Band] | None = None
    for band in plan.label_bands(shift):
        length, depth = (band.h, band.w) if band.turned else (band.w, band.h)
        size = min(LABEL_SIZE, length / unit_w, depth / unit_h)
        if size >= LABEL_MIN and (best is None or size > best[0] + 1e-9
                                  or (size > best[0] - 1e-9 and best[1].turned and not band.turned)):
            best = (size, band)
    if best is None:
        return []
    size, band = best
    bx, by = band.x, band.y  # a back page's band has moved with its cards, short of the margin
    width = unit_w * size
    mid = (m.ascent("regular", size) - m.descent("regular", size)) / 2 / PT_PER_MM  # baseline below the centre
    pad = 0.3
    # the label keeps to the page's edge, as on a full sheet, however deep a part-filled sheet leaves its strip
    need = unit_h * size + 2 * pad
    if band.turned:
        deep = max(0.0, band.w - need)
        bx, bw, bh = (bx + deep if band.side == "right" else bx), min(band.w, need), band.h
    else:
        deep = max(0.0, band.h - need)
        by, bw, bh = (by + deep if band.side == "bottom" else by), band.w, min(band.h, need)
    if band.turned:  # reads up the page; the glyphs stand left of the baseline
        patch = Rect(bx, by + (bh - width) / 2 - pad, bw, width + 2 * pad, fill="#FFFFFF")
        run = TextRun(bx + bw / 2 + mid, by + (bh + width) / 2, label, "regular", size, "#666666", angle=270)
    else:
        patch = Rect(bx + (bw - width) / 2 - pad, by, width + 2 * pad, bh, fill="#FFFFFF")
        run = TextRun(bx + (bw - width) / 2, by + bh / 2 + mid, label, "regular", size, "#666666")
    return [patch, run] if band.on_bleed else [run]


def cut_lines(plan: SheetPlan, span: tuple[float, float] | None = None) -> Scene:
    """Lines from page edge to page edge along every trim line of the plan's block, for a guillotine.

    The blade follows a line from edge to edge; crop marks only show where to start. On a page
    holding blocks one below another (SheetPlan.below), `span` is the part of the page this
    block's lines run down (from the cut that parts it from the block above to the one below),
    and the cut that parts it from the block above is drawn too.
    """
    xs, ys = plan.trim_lines()
    top, bottom = span or (0.0, plan.paper_h)
    items: list[Polyline] = [Polyline(((x, top), (x, bottom)), stroke=CUT_LINE_COLOUR, width=CUT_LINE_WIDTH)
                             for x in xs]
    if top > 0.0:
        ys = [top, *ys]
    items += [Polyline(((0.0, y), (plan.paper_w, y)), stroke=CUT_LINE_COLOUR, width=CUT_LINE_WIDTH) for y in ys]
    return Scene(plan.paper_w, plan.paper_h, items=list(items))
