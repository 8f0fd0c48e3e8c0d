"""Text layout: a small markup, word wrap and shrink-to-fit, producing positioned runs.

Markup: a newline breaks the line; a blank line starts a paragraph (with a little
space); a line starting `## ` is a heading; `- ` a bullet with a hanging indent;
`**bold**` and `_italic_` inline. Sizes are points, positions millimetres.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from generator.scene import TextRun
from generator.units import PT_PER_MM

# _italic_ needs a letter just inside each underscore, so blanks to write on (____) stay as they are
_INLINE = re.compile(r"(\*\*.+?\*\*|(?<![\w])_(?=[^_\s]).+?(?<=[^_\s])_(?![\w]))")


class TextMetrics(Protocol):
    def width(self, text: str, style: str, size: float) -> float: ...
    def ascent(self, style: str, size: float) -> float: ...
    def descent(self, style: str, size: float) -> float: ...


@dataclass(frozen=True)
class TextStyle:
    font: str = "regular"
    size: float = 9.0
    min_size: float = 6.0
    colour: str = "#000000"
    align: str = "left"  # left, center, right
    valign: str = "top"  # top, middle, bottom
    leading: float = 1.2  # line height as a multiple of the size
    heading_colour: str | None = None


@dataclass
class Fitted:
    runs: list[TextRun]
    size: float
    fits: bool
    height: float  # mm used


def _styled(base: str, bold: bool, italic: bool) -> str:
    if base in ("bold", "bolditalic"):
        bold = True
    if base in ("italic", "bolditalic"):
        italic = True
    if bold and italic:
        return "bolditalic"
    return "bold" if bold else "italic" if italic else "regular"


def _words(line: str, base: str) -> list[tuple[str, str]]:
    """Split a line into (word, font style) with inline markup applied."""
    out: list[tuple[str, str]] = []
    for part in _INLINE.split(line):
        if not part:
            continue
        style = base
        if part.startswith("**") and part.endswith("**") and len(part) > 4:
            part, style = part[2:-2], _styled(base, True, False)
        elif part.startswith("_") and part.endswith("_") and len(part) > 2:
            part, style = part[1:-1], _styled(base, False, True)
        for i, word in enumerate(part.split(" ")):
            if i > 0:
                out.append((" ", style))
            if word:
                out.append((word, style))
    return out


@dataclass
class _Line:
    pieces: list[tuple[str, str]]  # merged runs of one style
    indent: float  # mm
    size: float
    gap_before: float  # mm
    colour: str | None = None


def _layout(text: str, width: float, st: TextStyle, size: float, m: TextMetrics) -> tuple[list[_Line], bool]:
    """Wrap into lines at `size`; also says whether every word fits the width."""
    lines: list[_Line] = []
    ok = True
    gap = 0.0
    for raw in text.replace("\r", "").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            gap = size * 0.45 / PT_PER_MM if lines else 0.0
            continue
        base, lsize, colour = st.font, size, None
        current: list[tuple[str, str]] = []
        hang = 0.0  # indent of continuation lines (under a bullet's text)
        if line.startswith("## "):
            line, base, lsize, colour = line[3:], _styled(st.font, True, False), size * 1.12, st.heading_colour
            if lines:
                gap = max(gap, size * 0.35 / PT_PER_MM)
        elif line.lstrip().startswith("- "):
            line = line.lstrip()[2:]
            current = [("\u2022 ", base)]
            hang = m.width("\u2022 ", base, lsize) / PT_PER_MM
        x = hang
        indent = 0.0
        for word, style in _words(line.strip(), base):
            w = m.width(word, style, lsize) / PT_PER_MM
            if word == " ":
                if current:
                    current.append((word, style))
                    x += w
                continue
            if x + w > width + 1e-6 and any(p[0].strip() and p[0] != "\u2022 " for p in current):
                while current and current[-1][0] == " ":
                    current.pop()
                lines.append(_Line(current, indent, lsize, gap, colour))
                gap, current, x, indent = 0.0, [], hang, hang
            if hang + w > width + 1e-6:
                ok = False
            current.append((word, style))
            x += w
        while current and current[-1][0] == " ":
            current.pop()
        lines.append(_Line(current, indent, lsize, gap, colour))
        gap = 0.0
    return lines, ok


def _merge(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for word, style in pieces:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + word, style)
        else:
            out.append((word, style))
    return out


def fit_text(text: str, x: float, y: float, w: float, h: float, st: TextStyle, m: TextMetrics) -> Fitted:
    """Lay text out in the box, shrinking from st.size in 0.25 pt steps down to st.min_size."""
    size = st.size
    while True:
        lines, words_fit = _layout(text, w, st, size, m)
        height = _height(lines, st)
        if (height <= h + 1e-6 and words_fit) or size - 0.25 < st.min_size - 1e-9:
            fits = height <= h + 1e-6 and words_fit
            return Fitted(_place(lines, x, y, w, h, height, st, m), size, fits, height)
        size -= 0.25


def _height(lines: list[_Line], st: TextStyle) -> float:
    if not lines:
        return 0.0
    total = 0.0
    for ln in lines:
        total += ln.gap_before + ln.size * st.leading / PT_PER_MM
    # the last line needs only its glyphs, not the full leading below them
    return total - lines[-1].size * (st.leading - 1.0) / PT_PER_MM


def _place(lines: list[_Line], x: float, y: float, w: float, h: float, height: float, st: TextStyle,
           m: TextMetrics) -> list[TextRun]:
    top = y
    if st.valign == "middle":
        top = y + (h - height) / 2
    elif st.valign == "bottom":
        top = y + h - height
    runs: list[TextRun] = []
    cursor = top
    for ln in lines:
        cursor += ln.gap_before
        line_h = ln.size * st.leading / PT_PER_MM
        # baseline: the ascent below the top of the line box, with the extra leading split
        baseline = cursor + (ln.size * (st.leading - 1.0) / 2 + m.ascent("regular", ln.size) * 0.93) / PT_PER_MM
        if ln is lines[0]:
            baseline -= ln.size * (st.leading - 1.0) / 2 / PT_PER_MM
        pieces = _merge(ln.pieces)
        widths = [m.width(p, s, ln.size) / PT_PER_MM for p, s in pieces]
        total = sum(widths)
        avail = w - ln.indent
        start = x + ln.indent
        if st.align == "center":
            start += (avail - total) / 2
        elif st.align == "right":
            start += avail - total
        colour = ln.colour or st.colour
        for (piece, style), pw in zip(pieces, widths, strict=True):
            if piece.strip():
                runs.append(TextRun(start, baseline, piece, style, ln.size, colour))
            start += pw
        cursor += line_h
        if ln is lines[0]:
            cursor -= ln.size * (st.leading - 1.0) / 2 / PT_PER_MM
    return runs
