"""Text layout: a small markup, word wrap and shrink-to-fit (or a fixed size), producing positioned runs.

Markup: a newline breaks the line; a blank line starts a paragraph (with a little
space); a line starting `## ` is a heading; `- ` a bullet with a hanging indent;
`**bold**` and `_italic_` inline; `{suit:ID}`, `{mark:ID}` and `{symbol:NAME}` an inline icon,
laid out as a word: a square as tall as the font's ascent, standing on the baseline (drawn
by the composer from the boxes in `Fitted.icons`). Sizes are points, positions millimetres.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from casebook.generator.scene import TextRun
from casebook.generator.units import PT_PER_MM

# _italic_ needs a letter just inside each underscore, so blanks to write on (____) stay as they are
_INLINE = re.compile(r"(\*\*.+?\*\*|(?<![\w])_(?=[^_\s]).+?(?<=[^_\s])_(?![\w]))")
# an inline icon: {suit:leaf}, {mark:event}, {symbol:magnifier} ({Suit:Leaf} as a spreadsheet may capitalise it);
# any other brace stays text
ICON = re.compile(r"\{((?i:suit|mark|symbol)):\s*([\w\- ]*?)\s*\}")
_ICON_BASE = 0xF0000  # the n-th icon of a text stands in the line breaker as this character + n (private use)
_ICON_FIRST = chr(_ICON_BASE)
_PRIVATE = re.compile("[\U000F0000-\U0010FFFF]")


class TextMetrics(Protocol):
    def width(self, text: str, style: str, size: float) -> float: ...
    def ascent(self, style: str, size: float) -> float: ...
    def descent(self, style: str, size: float) -> float: ...
    def cap_height(self, style: str, size: float) -> float: ...


FITS = ("shrink", "none", "wrap")  # fit: shrink down to min_size; set at size unwrapped; wrapped at size
TOPS = ("cap", "ascent")  # top: what touches the box top, the first line's capitals or its ascent


@dataclass(frozen=True)
class TextStyle:
    """How a text element sets its text: font, size (shrunk to min_size to fit), colour, alignment."""
    font: str = "regular"
    size: float = 9.0
    min_size: float = 6.0
    colour: str = "#000000"
    align: str = "left"  # left, center, right
    valign: str = "top"  # top, middle, bottom
    leading: float = 1.2  # line height as a multiple of the size
    heading_colour: str | None = None
    fit: str = "shrink"  # one of FITS
    top: str = ""  # one of TOPS; "" puts the first baseline 93 % of the ascent below the top, as layouts always had
    # a game font's keys as itself, made bold, italic and both by markup ("" where its family has none); () for Vera
    variants: tuple[str, ...] = ()


@dataclass(frozen=True)
class IconBox:
    """Where an inline icon is drawn: a square of `side` mm, top-left at (x, y), in its line's text colour."""

    kind: str  # suit, mark or symbol
    name: str  # as written
    x: float
    y: float
    side: float
    colour: str

    @property
    def written(self) -> str:
        return f"{{{self.kind}:{self.name}}}"


@dataclass
class Fitted:
    """Text set in a box: its runs, the size it was set at, whether it fits and how much room it took."""
    runs: list[TextRun]
    size: float
    fits: bool
    height: float  # mm used
    widest: float = 0.0  # mm: the widest line (or word, when one cannot fit the width)
    icons: list[IconBox] = field(default_factory=list)
    # every run's font has a glyph for each of its characters: asked once per fitted text (None: not yet)
    covered: bool | None = field(default=None, compare=False, repr=False)


def icon_refs(text: str) -> list[tuple[str, str]]:
    """The inline icons a text names, as (kind, name), in order; the kind in lower case."""
    return [(kind.lower(), name) for kind, name in ICON.findall(text)]


def _is_icon(char: str) -> bool:
    return char >= _ICON_FIRST


def _measure(word: str, style: str, size: float, m: TextMetrics) -> float:
    """A word's width in points, its inline icons counted as squares of the ascent."""
    if max(word, default="") < _ICON_FIRST:
        return m.width(word, style, size)
    icons = sum(1 for c in word if _is_icon(c))
    return m.width("".join(c for c in word if not _is_icon(c)), style, size) + icons * m.ascent(style, size)


def _styled(base: str, bold: bool, italic: bool, variants: tuple[str, ...] = ()) -> str:
    if variants:  # a game font: its family's own styles, the base kept where the family lacks one
        have = variants.index(base) if base in variants else 0
        return variants[have | bold | 2 * italic] or base
    if base in ("bold", "bolditalic"):
        bold = True
    if base in ("italic", "bolditalic"):
        italic = True
    if bold and italic:
        return "bolditalic"
    return "bold" if bold else "italic" if italic else "regular"


def _words(line: str, base: str, variants: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Split a line into (word, font style) with inline markup applied."""
    out: list[tuple[str, str]] = []
    for part in _INLINE.split(line):
        if not part:
            continue
        style = base
        if part.startswith("**") and part.endswith("**") and len(part) > 4:
            part, style = part[2:-2], _styled(base, True, False, variants)
        elif part.startswith("_") and part.endswith("_") and len(part) > 2:
            part, style = part[1:-1], _styled(base, False, True, variants)
        for i, word in enumerate(part.split(" ")):
            if i > 0:
                out.append((" ", style))
            if word:
                out.append((word, style))
    return out


def _units(words: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Words grouped where the line may break: a space alone, or the words written with no space between
    (so a full stop after **bold** or _italic_ text goes to the next line with it, never alone)."""
    units: list[list[tuple[str, str]]] = []
    for word in words:
        if word[0] != " " and units and units[-1][-1][0] != " ":
            units[-1].append(word)
        else:
            units.append([word])
    return units


def styles_asked(text: str) -> set[int]:
    """The styles a text's markup switches to, as indexes into TextStyle.variants: 1 bold, 2 italic, 3 both."""
    asked: set[int] = set()
    for line in text.split("\n"):
        heading = int(line.startswith("## "))
        asked.add(heading)
        for part in _INLINE.split(line):
            if part.startswith("**") and part.endswith("**") and len(part) > 4:
                asked.add(heading | 1)
            elif part.startswith("_") and part.endswith("_") and len(part) > 2:
                asked.add(heading | 2)
    asked.discard(0)
    return asked


@dataclass
class _Line:
    """One line of set text, before it is placed: its pieces in their styles, indent, size and the gap above."""
    pieces: list[tuple[str, str]]  # merged runs of one style
    indent: float  # mm
    size: float
    gap_before: float  # mm
    colour: str | None = None


def _layout(text: str, width: float, st: TextStyle, size: float, m: TextMetrics,
            wrap: bool = True, icons: bool = False) -> tuple[list[_Line], bool, float]:
    """Wrap into lines at `size` (only at newlines if not `wrap`); whether all fits the width, and the widest.

    With `icons`, the text holds inline icons (as private-use characters) to measure as squares.
    """
    lines: list[_Line] = []
    ok = True
    widest = 0.0
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
            line, base, lsize, colour = line[3:], _styled(st.font, True, False, st.variants), size * 1.12, st.heading_colour
            if lines:
                gap = max(gap, size * 0.35 / PT_PER_MM)
        elif line.lstrip().startswith("- "):
            line = line.lstrip()[2:]
            current = [("\u2022 ", base)]
            hang = m.width("\u2022 ", base, lsize) / PT_PER_MM
        x = hang
        indent = 0.0
        first = len(lines)
        for unit in _units(_words(line.strip(), base, st.variants)):
            widths = [(_measure(word, style, lsize, m) if icons else m.width(word, style, lsize)) / PT_PER_MM
                      for word, style in unit]
            w = sum(widths)
            if unit[0][0] == " ":
                if current:
                    current.append(unit[0])
                    x += w
                continue
            if wrap and x + w > width + 1e-6 and any(p[0].strip() and p[0] != "\u2022 " for p in current):
                while current and current[-1][0] == " ":
                    current.pop()
                lines.append(_Line(current, indent, lsize, gap, colour))
                gap, current, x, indent = 0.0, [], hang, hang
            reach = x + w if not wrap else hang + w
            widest = max(widest, reach)
            if reach > width + 1e-6:
                ok = False
            current.extend(unit)
            x += w
            widest = max(widest, x)
        while current and current[-1][0] == " ":
            current.pop()
        lines.append(_Line(current, indent, lsize, gap, colour))
        if wrap and st.align == "center" and len(lines) - first >= 2:
            reach = _no_widow(lines[-2], lines[-1], width, lsize, m, icons)
            widest = max(widest, reach)
        gap = 0.0
    return lines, ok, widest


def _no_widow(before: _Line, last: _Line, width: float, size: float, m: TextMetrics, icons: bool) -> float:
    """A centred paragraph's last line of one word takes the word before it down (when the line above keeps two
    or more and the two fit the width): 'is called' over 'off.' reads better than a lone 'off.'. The last line's
    reach (mm), as it ends."""
    def measure(pieces: list[tuple[str, str]]) -> float:
        return sum((_measure(w, st, size, m) if icons else m.width(w, st, size)) for w, st in pieces) / PT_PER_MM

    above, below = _units(before.pieces), _units(last.pieces)
    words_above = [u for u in above if u[0][0] != " "]
    if len([u for u in below if u[0][0] != " "]) != 1 or len(words_above) < 3:
        return last.indent + measure(last.pieces)
    moved = above[-1]
    space = above[-2] if above[-2][0][0] == " " else [(" ", moved[0][1])]
    taken = [*moved, *space, *last.pieces]
    if last.indent + measure(taken) > width + 1e-6:
        return last.indent + measure(last.pieces)
    before.pieces = [p for u in above[:-2] for p in u]
    last.pieces = taken
    return last.indent + measure(taken)


def _merge(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for word, style in pieces:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + word, style)
        else:
            out.append((word, style))
    return out


def fit_text(text: str, x: float, y: float, w: float, h: float, st: TextStyle, m: TextMetrics) -> Fitted:
    """Lay text out in the box: with fit shrink from st.size in 0.25 pt steps down to st.min_size, else at st.size."""
    if max(text, default="") >= _ICON_FIRST:  # characters of the planes the icons stand in for: no font draws them
        text = _PRIVATE.sub("\uFFFD", text)
    refs = icon_refs(text)
    if refs:
        count = iter(range(len(refs)))
        text = ICON.sub(lambda _: chr(_ICON_BASE + next(count)), text)
    size = st.size
    while True:
        lines, words_fit, widest = _layout(text, w, st, size, m, wrap=st.fit != "none", icons=bool(refs))
        height = _height(lines, st, m)
        if (height <= h + 1e-6 and words_fit) or st.fit != "shrink" or size - 0.25 < st.min_size - 1e-9:
            fits = height <= h + 1e-6 and words_fit
            icons: list[IconBox] = []
            runs = _place(lines, x, y, w, h, height, st, m, refs, icons)
            return Fitted(runs, size, fits, height, widest, icons)
        size -= 0.25


def _drop(st: TextStyle, size: float, m: TextMetrics) -> float:
    """Points from the top of a line to its baseline, as `top` says (the leading aside)."""
    if st.top == "cap":
        return m.cap_height(st.font, size)
    if st.top == "ascent":
        return m.ascent(st.font, size)
    return m.ascent(st.font, size) * 0.93


def _height(lines: list[_Line], st: TextStyle, m: TextMetrics) -> float:
    if not lines:
        return 0.0
    total = 0.0
    for ln in lines:
        total += ln.gap_before + ln.size * st.leading / PT_PER_MM
    # the last line needs only its glyphs, not the full leading below them
    total -= lines[-1].size * (st.leading - 1.0) / PT_PER_MM
    if st.top:  # the first baseline lower or higher than the usual 93 % of the ascent moves the whole block
        size = lines[0].size
        total += (_drop(st, size, m) - m.ascent(st.font, size) * 0.93) / PT_PER_MM
    return total


def _place(lines: list[_Line], x: float, y: float, w: float, h: float, height: float, st: TextStyle,
           m: TextMetrics, refs: list[tuple[str, str]], icons: list[IconBox]) -> list[TextRun]:
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
        baseline = cursor + (ln.size * (st.leading - 1.0) / 2 + _drop(st, ln.size, m)) / PT_PER_MM
        if ln is lines[0]:
            baseline -= ln.size * (st.leading - 1.0) / 2 / PT_PER_MM
        pieces = _merge(ln.pieces)
        widths = [(_measure(p, s, ln.size, m) if refs else m.width(p, s, ln.size)) / PT_PER_MM for p, s in pieces]
        total = sum(widths)
        avail = w - ln.indent
        start = x + ln.indent
        if st.align == "center":
            start += (avail - total) / 2
        elif st.align == "right":
            start += avail - total
        colour = ln.colour or st.colour
        for (piece, style), pw in zip(pieces, widths, strict=True):
            if refs and max(piece) >= _ICON_FIRST:
                _place_icons(piece, style, start, baseline, ln.size, colour, m, refs, runs, icons)
            elif piece.strip():
                runs.append(TextRun(start, baseline, piece, style, ln.size, colour))
            start += pw
        cursor += line_h
        if ln is lines[0]:
            cursor -= ln.size * (st.leading - 1.0) / 2 / PT_PER_MM
    return runs


def _place_icons(piece: str, style: str, x: float, baseline: float, size: float, colour: str, m: TextMetrics,
                 refs: list[tuple[str, str]], runs: list[TextRun], icons: list[IconBox]) -> None:
    """Split a piece holding inline icons into its text runs and icon boxes, from x along the baseline."""
    side = m.ascent(style, size) / PT_PER_MM  # from the baseline up to the tallest letters (b, d, l)
    for part in re.split(f"([{_ICON_FIRST}-{chr(_ICON_BASE + len(refs) - 1)}])", piece):
        if part and _is_icon(part):
            kind, name = refs[ord(part) - _ICON_BASE]
            icons.append(IconBox(kind, name, x, baseline - side, side, colour))
            x += side
            continue
        if part.strip():
            runs.append(TextRun(x, baseline, part, style, size, colour))
        x += m.width(part, style, size) / PT_PER_MM if part else 0.0


def overflow(fitted: Fitted, st: TextStyle, who: str, field: str, w: float, h: float,
             upright: tuple[float, ...]) -> tuple[str, str]:
    """The problem of a text that does not fit its w x h box (`upright`: as laid out, turned), as its fit mode has it."""
    if st.fit == "shrink":
        return (f"{who}: text '{field}' does not fit its {w:.1f} x {h:.1f} mm box even at the minimum size {st.min_size:g} pt",
                "shorter text, a larger box, or a smaller min_size")
    how = "on lines as written (fit: none)" if st.fit == "none" else "wrapped (fit: wrap)"
    lw, lh = upright
    over = [f"{fitted.height - lh:.1f} mm too tall"] if fitted.height > lh + 1e-6 else []
    if fitted.widest > lw + 1e-6:
        over.append(f"{fitted.widest - lw:.1f} mm too wide")
    return (f"{who}: text '{field}' at {st.size:g} pt {how} overflows its {w:.1f} x {h:.1f} mm box: "
            + ", ".join(over), "shorter text, a larger box, a smaller size, or fit: shrink")
