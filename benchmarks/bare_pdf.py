"""The bare baseline of benchmarks/speed.py: a hand-written ReportLab script drawing a deck's faces, 3 x 3 a page.

`python benchmarks/bare_pdf.py SPEC.json DECK.yaml OUT.pdf`. It imports ReportLab and PyYAML
only: the fonts' files and each suit's emblem (as shapes in mm) come in SPEC.json, as a
script written by hand would hard-code them. It draws what the Moth and Lamp face layout
draws (background, frame, value, emblem, name, suit, footer) with plain canvas calls.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0
SUITS = {"wing": ("Wing", "#7A5C99", "#4F3A66"), "flame": ("Flame", "#E69F00", "#8C6100")}


def bare_spec(layouts: Path, path: Path) -> None:
    """Write SPEC.json: the fonts' files and each suit's emblem as shapes (what a bare script would hard-code).

    Casebook makes it, before any timing; the bare script itself never imports casebook.
    """
    from casebook.generator.backends.fonts import FONT_FILES, PDF_NAMES, font_path
    from casebook.generator.layouts import load_library
    from casebook.generator.scene import Ellipse, Polyline, Rect
    from casebook.generator.symbols import draw_symbol

    lib = load_library(layouts)
    symbols: dict[str, list[object]] = {}
    for suit, name, colour in (("wing", "moth", "#7A5C99"), ("flame", "lamp", "#E69F00")):
        shapes: list[object] = []
        for item in draw_symbol(lib.symbols[name], 16.5 + 3, 18 + 3, 30, 30, colour, "#FBF7EE"):
            if isinstance(item, Ellipse):
                shapes.append(("ellipse", item.fill, None, 0, (item.cx, item.cy, item.rx, item.ry)))
            elif isinstance(item, Rect):
                shapes.append(("rect", item.fill, None, 0, (item.x, item.y, item.w, item.h, item.radius)))
            elif isinstance(item, Polyline):
                kind = "polygon" if item.closed else "line"
                shapes.append((kind, item.fill, item.stroke, item.width, item.points))
        symbols[suit] = shapes
    fonts = {PDF_NAMES[style]: str(font_path(style)) for style in FONT_FILES}
    path.write_text(json.dumps({"fonts": fonts, "names": dict(PDF_NAMES.items()), "symbols": symbols}), encoding="utf-8")


def main(spec_path: str, deck_path: str, out: str) -> None:
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    for name, path in spec["fonts"].items():
        pdfmetrics.registerFont(TTFont(name, path))
    fonts, symbols = spec["names"], spec["symbols"]
    with open(deck_path, encoding="utf-8") as f:
        rows = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["cards"]
    c = Canvas(out, pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    w, h = CARD_W + 2 * BLEED, CARD_H + 2 * BLEED
    for n, row in enumerate(rows):
        slot = n % 9
        if n and not slot:
            c.showPage()
        c.saveState()
        c.translate((10.5 + (slot % 3) * CARD_W - BLEED) * mm, (297 - 16.5 - (slot // 3 + 1) * CARD_H - BLEED) * mm)
        name, colour, ink = SUITS[row["suit"]]
        c.setFillColor(HexColor("#FBF7EE"))
        c.rect(0, 0, w * mm, h * mm, stroke=0, fill=1)
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(0.6 * mm)
        c.roundRect(6 * mm, 6 * mm, (CARD_W - 6) * mm, (CARD_H - 6) * mm, 2 * mm, stroke=1, fill=0)
        c.setFillColor(HexColor(ink))
        c.setFont(fonts["bold"], 20)
        c.drawString(8 * mm, (h - 8 - 6.5) * mm, str(row["value"]))
        for kind, fill, stroke, width, geometry in symbols[row["suit"]]:
            if kind == "ellipse":
                cx, cy, rx, ry = geometry
                c.setFillColor(HexColor(fill or colour))
                c.ellipse((cx - rx) * mm, (h - cy - ry) * mm, (cx + rx) * mm, (h - cy + ry) * mm, stroke=0, fill=1)
            elif kind == "rect":
                x, y, rw, rh, radius = geometry
                c.setFillColor(HexColor(fill or colour))
                c.roundRect(x * mm, (h - y - rh) * mm, rw * mm, rh * mm, radius * mm, stroke=0, fill=1)
            else:  # "polygon" (closed, filled) or "line"
                p = c.beginPath()
                p.moveTo(geometry[0][0] * mm, (h - geometry[0][1]) * mm)
                for x, y in geometry[1:]:
                    p.lineTo(x * mm, (h - y) * mm)
                if kind == "polygon":
                    p.close()
                    c.setFillColor(HexColor(fill or colour))
                    c.drawPath(p, stroke=0, fill=1)
                else:
                    c.setStrokeColor(HexColor(stroke or colour))
                    c.setLineWidth(width * mm)
                    c.drawPath(p, stroke=1, fill=0)
        c.setFillColor(HexColor("#555555"))
        c.setFont(fonts["bold"], 13)
        c.drawCentredString(w / 2 * mm, (h - 58) * mm, row["name"])
        c.setFillColor(HexColor(ink))
        c.setFont(fonts["italic"], 8)
        c.drawCentredString(w / 2 * mm, (h - 67) * mm, name)
        c.setFillColor(HexColor("#555555"))
        c.setFont(fonts["regular"], 5)
        c.drawRightString(61 * mm, (h - 86) * mm, f"NGT {n + 1}/{len(rows)}")
        c.restoreState()
    c.showPage()
    c.save()


if __name__ == "__main__":
    main(*sys.argv[1:4])
