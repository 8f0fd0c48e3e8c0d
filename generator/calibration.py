"""A duplex calibration sheet: a front with scales, a back with crosses, to measure --back-offset.

Print both pages double-sided (flip on the long edge) and hold the sheet to the light:
each cross of the back lands on the scales of the front at the offset to build with. The
scales are labelled with the correction itself (right and up positive), so no sign is
worked out. Besides the centre, four smaller scales near the corners show what one offset
cannot fix: corners that read differently mean the back is turned (skew) or scaled.
"""

from __future__ import annotations

from casebook.generator.backends.fonts import metrics
from casebook.generator.scene import Ellipse, Polyline, Scene, TextRun
from casebook.generator.text import TextStyle, fit_text

INK = "#000000"
GREY = "#555555"
SPAN = 20  # mm each way, the centre scale
CORNER_SPAN = 8  # mm each way, the corner scales
CORNER_INSET = (38.0, 50.0)  # a corner scale's centre from the page's sides, top and bottom


def scale_centres(width: float, height: float) -> list[tuple[float, float]]:
    """Where the scales stand: the centre first, then top left, top right, bottom left, bottom right."""
    dx, dy = CORNER_INSET
    return [(width / 2, height / 2), (dx, dy), (width - dx, dy), (dx, height - dy), (width - dx, height - dy)]


def _scale(front: Scene, cx: float, cy: float, span: int, label_every: int) -> None:
    m = metrics()
    big = span >= 10
    size, long_tick, short_tick = (7, 4.0, 2.0) if big else (6, 2.2, 1.2)  # small scales: short ticks, less tangle
    for mm in range(-span, span + 1):
        tick = long_tick if mm % 5 == 0 else short_tick
        front.add(Polyline(((cx + mm, cy - tick), (cx + mm, cy + tick)), stroke=INK, width=0.15))
        front.add(Polyline(((cx - tick, cy - mm), (cx + tick, cy - mm)), stroke=INK, width=0.15))
        if mm % label_every == 0 and mm:
            label = f"{mm:+d}"
            w = m.width(label, "regular", size) * 25.4 / 72
            below = cy + (long_tick + 3.5 if big else span + 3.0)  # small scales: under the vertical scale's end
            front.add(TextRun(cx + mm - w / 2, below, label, "regular", size, GREY))
            front.add(TextRun(cx + long_tick + 1.5, cy - mm + 1.0, label, "regular", size, GREY))
    front.add(Polyline(((cx - span, cy), (cx + span, cy)), stroke=INK, width=0.15))
    front.add(Polyline(((cx, cy - span), (cx, cy + span)), stroke=INK, width=0.15))


def _cross(back: Scene, x: float, y: float, arm: float, width: float) -> None:
    back.add(Polyline(((x - arm, y), (x + arm, y)), stroke=INK, width=width))
    back.add(Polyline(((x, y - arm), (x, y + arm)), stroke=INK, width=width))
    back.add(Ellipse(x, y, arm / 3, arm / 3, stroke=INK, width=width / 2))


def calibration_pages(width: float, height: float, back_offset: tuple[float, float]) -> tuple[Scene, Scene]:
    front = Scene(width, height, label="calibration front")
    centres = scale_centres(width, height)
    m = metrics()
    _scale(front, *centres[0], SPAN, 10)
    for cx, cy in centres[1:]:
        _scale(front, cx, cy, CORNER_SPAN, 5)
    how = (
        "## Duplex calibration\n"
        "Print this page and the next double-sided, flipping on the long edge, at 100 % (actual size).\n"
        "Hold the sheet against a light. The bold crosses printed on the back show through: read where the "
        "centre cross falls on the large scale in the middle. The horizontal scale gives X, the vertical one Y, in mm.\n"
        "Build again with **--back-offset X,Y** (each between -5 and 5). If you already built with an offset, "
        "add the reading to it."
    )
    st = TextStyle(size=9.5, min_size=7, colour=INK, heading_colour=INK)
    front.items.extend(fit_text(how, 25, 12, width - 50, 26, st, m).runs)
    disagree = (
        "## When the corners disagree with the centre\n"
        "- **All five read the same:** the printer only shifts; the offset fixes it.\n"
        "- **Left and right corners differ in Y, or top and bottom corners in X:** the paper turns as it feeds "
        "(skew). Set the paper guides snug, print again; an offset cannot fix a turn, so use the centre reading.\n"
        "- **Readings grow towards every corner, away from the centre or towards it:** the back is scaled. Print "
        "at 100 % with \"fit to page\" off, on both sides; then use the centre reading."
    )
    front.items.extend(fit_text(disagree, 25, height - 38, width - 50, 28, TextStyle(size=8, min_size=6.5, colour=INK,
                                                                                     heading_colour=INK), m).runs)
    back = Scene(width, height, label="calibration back")
    # the back is drawn on the same page axes: the flip mirrors it onto the front's scales
    for i, (cx, cy) in enumerate(centres):
        _cross(back, width - cx + back_offset[0], cy + back_offset[1], 6.0 if i == 0 else 3.5, 0.6 if i == 0 else 0.5)
    note = f"Calibration back (built with --back-offset {back_offset[0]:g},{back_offset[1]:g})"
    back.items.extend(fit_text(note, 25, height / 2 + 30, width - 50, 8,
                               TextStyle(size=8, align="center", colour=GREY), m).runs)
    return front, back
