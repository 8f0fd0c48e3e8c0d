"""A duplex calibration sheet: a front with scales, a back with a cross, to measure --back-offset.

Print both pages double-sided (flip on the long edge) and hold the sheet to the light:
the back's cross lands on the front's scales at the offset to build with. The scales are
labelled with the correction itself (right and up positive), so no sign is worked out.
"""

from __future__ import annotations

from generator.backends.fonts import metrics
from generator.scene import Ellipse, Polyline, Scene, TextRun
from generator.text import TextStyle, fit_text

INK = "#000000"
GREY = "#555555"
SPAN = 20  # mm each way


def calibration_pages(width: float, height: float, back_offset: tuple[float, float]) -> tuple[Scene, Scene]:
    cx, cy = width / 2, height / 2
    front = Scene(width, height, label="calibration front")
    m = metrics()
    for mm in range(-SPAN, SPAN + 1):
        tick = 4.0 if mm % 5 == 0 else 2.0
        front.add(Polyline(((cx + mm, cy - tick), (cx + mm, cy + tick)), stroke=INK, width=0.15))
        front.add(Polyline(((cx - tick, cy - mm), (cx + tick, cy - mm)), stroke=INK, width=0.15))
        if mm % 10 == 0 and mm:
            label = f"{mm:+d}"
            w = m.width(label, "regular", 7) * 25.4 / 72
            front.add(TextRun(cx + mm - w / 2, cy + 8.0, label, "regular", 7, GREY))
            front.add(TextRun(cx + 6.0, cy - mm + 1.0, label, "regular", 7, GREY))
    front.add(Polyline(((cx - SPAN, cy), (cx + SPAN, cy)), stroke=INK, width=0.15))
    front.add(Polyline(((cx, cy - SPAN), (cx, cy + SPAN)), stroke=INK, width=0.15))
    text = (
        "## Duplex calibration\n"
        "Print this page and the next double-sided, flipping on the long edge, at 100 % (actual size).\n"
        "Hold the sheet against a light. The bold cross printed on the back shows through: read where its "
        "centre falls on the two scales here. The horizontal scale gives X, the vertical one Y, in mm.\n"
        "Build again with **--back-offset X,Y**. If you already built with an offset, add the reading to it."
    )
    st = TextStyle(size=10, min_size=7, colour=INK, heading_colour=INK)
    front.items.extend(fit_text(text, 25, 25, width - 50, 60, st, m).runs)
    back = Scene(width, height, label="calibration back")
    bx, by = cx + back_offset[0], cy + back_offset[1]
    back.add(Polyline(((bx - 6, by), (bx + 6, by)), stroke=INK, width=0.6))
    back.add(Polyline(((bx, by - 6), (bx, by + 6)), stroke=INK, width=0.6))
    back.add(Ellipse(bx, by, 2.0, 2.0, stroke=INK, width=0.3))
    note = f"Calibration back (built with --back-offset {back_offset[0]:g},{back_offset[1]:g})"
    back.items.extend(fit_text(note, 25, height - 30, width - 50, 8, TextStyle(size=8, align="center", colour=GREY), m).runs)
    return front, back
