"""The fonts: Bitstream Vera TTFs shipped with ReportLab, used by both backends.

One TTF file per style gives the PDF and the PNG identical glyph metrics; the text
layout measures with ReportLab's TTF parser.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"
FONT_FILES = {
    "regular": "Vera.ttf",
    "bold": "VeraBd.ttf",
    "italic": "VeraIt.ttf",
    "bolditalic": "VeraBI.ttf",
}
PDF_NAMES = {style: f"Casebook-{style}" for style in FONT_FILES}


def font_path(style: str) -> Path:
    return FONT_DIR / FONT_FILES[style]


@cache
def register_pdf_fonts() -> None:
    for style, name in PDF_NAMES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(style))))


def check_style(style: str) -> str:
    if style not in FONT_FILES:
        raise ValueError(f"unknown font '{style}'; one of: {', '.join(FONT_FILES)}")
    return style


class Metrics:
    """Text widths and vertical metrics in points, cached per word at size 1."""

    def __init__(self) -> None:
        register_pdf_fonts()
        self._cache: dict[tuple[str, str], float] = {}

    def width(self, text: str, style: str, size: float) -> float:
        key = (style, text)
        unit = self._cache.get(key)
        if unit is None:
            unit = pdfmetrics.stringWidth(text, PDF_NAMES[style], 1000.0) / 1000.0
            self._cache[key] = unit
        return unit * size

    def ascent(self, style: str, size: float) -> float:
        face = pdfmetrics.getFont(PDF_NAMES[style]).face
        return float(face.ascent) / 1000.0 * size

    def descent(self, style: str, size: float) -> float:
        face = pdfmetrics.getFont(PDF_NAMES[style]).face
        return -float(face.descent) / 1000.0 * size

    def cap_height(self, style: str, size: float) -> float:
        """How far a capital H stands above the baseline, from its outline (the fonts' own cap height field is not set)."""
        return _cap_unit(style) * size


@cache
def _cap_unit(style: str) -> float:
    from PIL import ImageFont

    em = 2048  # Vera's units per em: the outline's height comes out exact
    return -ImageFont.truetype(str(font_path(style)), em).getbbox("H", anchor="ls")[1] / em


@cache
def metrics() -> Metrics:
    return Metrics()
