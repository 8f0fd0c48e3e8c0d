"""Vector symbols as data (layouts/symbols.yaml, ours; layouts/icons.yaml, vendored), drawn into a box of the scene.

A symbol is a list of parts in a 100 x 100 box, painted in order. A part is one
shape - `circle: [cx, cy, r]`, `ellipse: [cx, cy, rx, ry]`, `rect: [x, y, w, h]`
(with `radius`), `poly: [[x, y], ...]`, `line: [[x, y], ...]` (open) or `path:` in the
whole SVG path syntax (M L H V C S Q T A Z, absolute or relative) - filled, or outlined
with `stroke: WIDTH`; `knockout: true` paints it in the background colour. A filled path of
several outlines is one Shape: holes by the nonzero rule (`fill_rule: evenodd` for the
other), through which whatever lies below shows. Curves are flattened once, when the
library is read, so both backends draw the very same polygons and no card pays for it.
docs/pictures.md tells how to add a picture.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from casebook.generator.scene import Ellipse, Item, Point, Polyline, Rect, Shape
from casebook.generator.text import IconBox, icon_refs
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, load_yaml, place_of

SHAPES = ("circle", "ellipse", "rect", "poly", "line", "path")
FILL_RULES = ("nonzero", "evenodd")
FLATNESS = 0.1  # the most a flattened curve strays from the true one, in the 100 x 100 box (0.03 mm on a 3 cm symbol)
MAX_STEPS = 64
_COMMAND = re.compile(r"[\s,]*([MmLlHhVvCcSsQqTtAaZz])")
_NUMBER = re.compile(r"[\s,]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_FLAG = re.compile(r"[\s,]*([01])")
_END = re.compile(r"[\s,]*$")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

# A path as absolute segments: subpaths (start, segments, closed), a segment ("L", end) or ("C", c1, c2, end)
Segment = tuple[Any, ...]
Outline = list[tuple[Point, list[Segment], bool]]


@dataclass(frozen=True)
class Part:
    """One part of a symbol (a path, circle, rectangle...), filled or stroked; a knockout part cuts out."""
    shape: str
    data: Any
    stroke: float  # 0 = filled
    knockout: bool
    radius: float = 0.0
    even_odd: bool = False  # a filled path's rule for overlaps: SVG's evenodd, else its nonzero


def parse_library(raw: Any, problems: Problems, place: Place) -> dict[str, list[Part]]:
    """Read `symbols: {name: [part, ...]}`, reporting each bad part with its place."""
    out: dict[str, list[Part]] = {}
    symbols = raw.get("symbols") if isinstance(raw, dict) else None
    if not isinstance(symbols, Node):
        problems.add(place_of(raw, fallback=place), "the symbol library must hold 'symbols:' (a mapping)")
        return out
    for name, parts in symbols.items():
        if not isinstance(parts, list) or not parts:
            problems.add(symbols.value_place(name), f"symbol '{name}' must be a list of parts")
            continue
        parsed = []
        for i, part in enumerate(parts):
            ppl = place_of(parts, i, symbols.value_place(name))
            got = _parse_part(part, ppl, problems, name)
            if got:
                parsed.append(got)
        out[name] = parsed
    return out


def _parse_part(part: Any, place: Place, problems: Problems, name: str) -> Part | None:
    if not isinstance(part, dict):
        problems.add(place, f"a part of symbol '{name}' must be a mapping", "{circle: [50, 50, 40]}")
        return None
    shapes = [s for s in SHAPES if s in part]
    if len(shapes) != 1:
        problems.add(place, f"a part of symbol '{name}' needs exactly one shape", "one of: " + ", ".join(SHAPES))
        return None
    shape = shapes[0]
    data = part[shape]
    stroke = part.get("stroke", 0)
    if not isinstance(stroke, int | float) or isinstance(stroke, bool) or stroke < 0:
        problems.add(place, f"stroke of a part of '{name}' must be a width >= 0")
        stroke = 0
    try:
        if shape == "path":
            if not isinstance(data, str):
                raise ValueError("a path is a string of SVG path commands (M, L, H, V, C, S, Q, T, A, Z)")
            data = _flat_path(str(data))
        else:
            want = {"circle": 3, "ellipse": 4, "rect": 4}.get(shape)
            if want is not None:
                if not (isinstance(data, list) and len(data) == want and all(isinstance(v, int | float) for v in data)):
                    raise ValueError(f"{shape} takes {want} numbers")
                data = tuple(float(v) for v in data)
            else:
                if not (isinstance(data, list) and len(data) >= 2 and all(
                        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) for v in p) for p in data)):
                    raise ValueError(f"{shape} takes a list of [x, y] points")
                data = tuple((float(p[0]), float(p[1])) for p in data)
    except ValueError as exc:
        problems.add(place, f"symbol '{name}': {exc}")
        return None
    rule = part.get("fill_rule", "nonzero")
    if rule not in FILL_RULES:
        problems.add(place, f"fill_rule of a part of '{name}' must be one of: " + ", ".join(FILL_RULES))
        rule = "nonzero"
    return Part(shape, data, float(stroke), bool(part.get("knockout", False)), float(part.get("radius", 0)),
                rule == "evenodd")


def parse_path(text: str) -> Outline:
    """An SVG path's `d` (every command, absolute or relative, arcs included) as absolute lines and cubic curves.

    Raises ValueError naming what is wrong and where (the character it was found at).
    """
    outline: Outline = []
    pos, cmd = 0, ""
    start: Point = (0.0, 0.0)
    here: Point = (0.0, 0.0)
    segments: list[Segment] | None = None
    last_ctrl: Point | None = None  # the previous curve's second control point, for S and T
    last_kind = ""

    def number(flag: bool = False) -> float:
        nonlocal pos
        found = (_FLAG if flag else _NUMBER).match(text, pos)
        if found is None:
            what = "a flag (0 or 1)" if flag else "a number"
            raise ValueError(f"path: {what} is missing after '{cmd}' at character {pos + 1}")
        pos = found.end()
        return float(found.group(1))

    def point(relative: bool) -> Point:
        x, y = number(), number()
        return (here[0] + x, here[1] + y) if relative else (x, y)

    while True:
        found = _COMMAND.match(text, pos)
        if found:
            cmd = found.group(1)
            pos = found.end()
        elif _END.match(text, pos):
            break
        elif not cmd:
            raise ValueError("a path must start with M" if not outline else
                             f"path: numbers after Z at character {pos + 1} need a command before them")
        elif cmd in "Zz" or not _NUMBER.match(text, pos):
            raise ValueError(f"path: cannot read '{text[pos:pos + 12].strip()}' at character {pos + 1}")
        kind, relative = cmd.upper(), cmd.islower()
        if kind != "M" and not outline:
            raise ValueError("a path must start with M")
        if kind != "M" and segments is None:
            if kind == "Z":
                continue
            segments = []  # drawing after Z goes on from where the closed subpath started
            outline.append((start, segments, False))
        if kind == "M":
            here = start = point(relative)
            segments = []
            outline.append((start, segments, False))
            cmd = "l" if relative else "L"  # further pairs are lines
            last_kind = ""
            continue
        assert segments is not None
        ctrl: Point | None = None
        if kind == "Z":
            outline[-1] = (outline[-1][0], segments, True)
            here, segments = start, None
        elif kind in "LHV":
            if kind == "L":
                here = point(relative)
            elif kind == "H":
                v = number()
                here = (here[0] + v if relative else v, here[1])
            else:
                v = number()
                here = (here[0], here[1] + v if relative else v)
            segments.append(("L", here))
        elif kind in "CS":
            if kind == "C":
                c1 = point(relative)
            else:  # the reflection of the previous curve's second control point, if that was a cubic
                c1 = _reflect(last_ctrl, here) if last_kind == "C" and last_ctrl else here
            c2 = point(relative)
            end = point(relative)
            segments.append(("C", c1, c2, end))
            ctrl, here = c2, end
        elif kind in "QT":
            if kind == "Q":
                q = point(relative)
            else:
                q = _reflect(last_ctrl, here) if last_kind == "Q" and last_ctrl else here
            end = point(relative)
            segments.append(_quadratic(here, q, end))
            ctrl, here = q, end
        else:  # A
            rx, ry, turn = number(), number(), number()
            large, sweep = number(flag=True), number(flag=True)
            end = point(relative)
            segments.extend(_arc(here, end, rx, ry, turn, bool(large), bool(sweep)))
            here = end
        last_ctrl, last_kind = ctrl, ("C" if kind in "CS" else "Q" if kind in "QT" else "")
        if kind == "Z":
            cmd = ""
            last_kind = ""
    if not outline:
        raise ValueError("empty path")
    return outline


@lru_cache(maxsize=1024)
def _flat_path(text: str) -> tuple[tuple[tuple[Point, ...], bool], ...]:
    """A path's flattened subpaths, kept: every build reads the library again, the curves are flattened once."""
    return flatten(parse_path(text))


def _reflect(p: Point, about: Point) -> Point:
    return (2 * about[0] - p[0], 2 * about[1] - p[1])


def _quadratic(s: Point, q: Point, e: Point) -> Segment:
    """A quadratic Bezier as the same curve in cubic form."""
    return ("C", (s[0] + 2 / 3 * (q[0] - s[0]), s[1] + 2 / 3 * (q[1] - s[1])),
            (e[0] + 2 / 3 * (q[0] - e[0]), e[1] + 2 / 3 * (q[1] - e[1])), e)


def _arc(s: Point, e: Point, rx: float, ry: float, turn: float, large: bool, sweep: bool) -> list[Segment]:
    """An SVG elliptical arc as cubic curves of at most a quarter turn each (SVG 1.1, appendix F.6)."""
    if s == e:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", e)]
    phi = math.radians(turn % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (s[0] - e[0]) / 2, (s[1] - e[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = (x1 / rx) ** 2 + (y1 / ry) ** 2
    if grow > 1:  # radii too small to reach: scaled up just enough
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    k = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        k = -k
    cx1, cy1 = k * rx * y1 / ry, -k * ry * x1 / rx
    cx = cos * cx1 - sin * cy1 + (s[0] + e[0]) / 2
    cy = sin * cx1 + cos * cy1 + (s[1] + e[1]) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    theta = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
    delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    t = 4 / 3 * math.tan(step / 4)

    def at(a: float) -> tuple[Point, Point]:
        """The point at angle a and its derivative, on the turned ellipse."""
        px, py = rx * math.cos(a), ry * math.sin(a)
        qx, qy = -rx * math.sin(a), ry * math.cos(a)
        return ((cx + cos * px - sin * py, cy + sin * px + cos * py), (cos * qx - sin * qy, sin * qx + cos * qy))

    out: list[Segment] = []
    a = theta
    p0, d0 = at(a)
    for i in range(pieces):
        a = theta + (i + 1) * step
        p1, d1 = at(a)
        if i == pieces - 1:
            p1 = e
        out.append(("C", (p0[0] + t * d0[0], p0[1] + t * d0[1]), (p1[0] - t * d1[0], p1[1] - t * d1[1]), p1))
        p0, d0 = p1, d1
    return out


def flatten(outline: Outline, flatness: float = FLATNESS) -> tuple[tuple[tuple[Point, ...], bool], ...]:
    """Subpaths of points ((points...), closed): each curve in as few straight steps as keep within `flatness`."""
    out = []
    for start, segments, closed in outline:
        points = [start]
        for seg in segments:
            if seg[0] == "L":
                points.append(seg[1])
            else:
                points.extend(_cubic_points(points[-1], seg[1], seg[2], seg[3], flatness))
        if len(points) > 1:
            out.append((tuple(points), closed))
    return tuple(out)


def _cubic_points(p0: Point, p1: Point, p2: Point, p3: Point, flatness: float) -> list[Point]:
    # a cubic strays from its chords by at most 3/4 of its control polygon's largest second difference / steps^2
    bend = max(math.hypot(p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1]),
               math.hypot(p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1]))
    steps = min(MAX_STEPS, max(1, math.ceil(math.sqrt(0.75 * bend / flatness))))
    out = []
    for step in range(1, steps + 1):
        t = step / steps
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def draw_symbol(parts: list[Part], x: float, y: float, w: float, h: float, colour: str,
                background: str, rotate: float = 0.0) -> list[Item]:
    """The symbol's parts as scene items, scaled uniformly into the box and centred."""
    scale = min(w, h) / 100.0
    ox = x + (w - 100 * scale) / 2
    oy = y + (h - 100 * scale) / 2
    cx, cy = x + w / 2, y + h / 2
    rot = math.radians(rotate)

    def tp(p: Point) -> Point:
        px, py = ox + p[0] * scale, oy + p[1] * scale
        if rotate:
            dx, dy = px - cx, py - cy
            px = cx + dx * math.cos(rot) - dy * math.sin(rot)
            py = cy + dx * math.sin(rot) + dy * math.cos(rot)
        return (px, py)

    items: list[Item] = []
    for part in parts:
        paint = background if part.knockout else colour
        fill = None if part.stroke else paint
        stroke = paint if part.stroke else None
        width = part.stroke * scale
        if part.shape in ("circle", "ellipse"):
            d = part.data
            rx, ry = (d[2], d[2]) if part.shape == "circle" else (d[2], d[3])
            c = tp((d[0], d[1]))
            items.append(Ellipse(c[0], c[1], rx * scale, ry * scale, fill, stroke, width))
        elif part.shape == "rect":
            d = part.data
            if rotate:
                corners = [(d[0], d[1]), (d[0] + d[2], d[1]), (d[0] + d[2], d[1] + d[3]), (d[0], d[1] + d[3])]
                items.append(Polyline(tuple(tp(c) for c in corners), True, fill, stroke, width))
            else:
                p = tp((d[0], d[1]))
                items.append(Rect(p[0], p[1], d[2] * scale, d[3] * scale, fill, stroke, width, part.radius * scale))
        elif part.shape in ("poly", "line"):
            closed = part.shape == "poly"
            items.append(Polyline(tuple(tp(p) for p in part.data), closed, fill if closed else None,
                                  stroke if (stroke or not closed) else None, width or (0 if closed else scale * 4)))
        elif part.stroke:
            for pts, closed in part.data:
                items.append(Polyline(tuple(tp(p) for p in pts), closed, None, stroke, width))
        elif len(part.data) == 1 and part.data[0][1]:
            items.append(Polyline(tuple(tp(p) for p in part.data[0][0]), True, fill))
        else:  # filled as SVG fills: every subpath closed, holes where the fill rule leaves them
            items.append(Shape(tuple(tuple(tp(p) for p in pts) for pts, _ in part.data), fill, even_odd=part.even_odd))
    return items


class UnknownIcon(ValueError):
    """An inline icon names a suit, mark or symbol the game does not have."""

    def __init__(self, kind: str, name: str, message: str, known: list[str]):
        super().__init__(message)
        self.kind, self.name, self.known = kind, name, known

    @property
    def written(self) -> str:
        return f"{{{self.kind}:{self.name}}}"

    def holds(self, text: str) -> bool:
        """Whether a text names this icon."""
        return (self.kind, self.name) in icon_refs(text)


@dataclass(frozen=True)
class InlineIcons:
    """What `{suit:ID}`, `{mark:ID}` and `{symbol:NAME}` in a text draw, for one game and symbol library.

    A suit's icon is painted in the suit's `ink`, the shade its name is written in: an icon
    the size of a letter needs a letter's contrast, which the paler symbol `colour` may lack.
    A mark's or a symbol's icon takes the text's colour.
    """

    symbols: dict[str, list[Part]]
    suits: dict[str, tuple[str, str]]  # id -> (symbol name, ink)
    marks: dict[str, str]  # id -> symbol name

    def resolve(self, kind: str, name: str, text_colour: str) -> tuple[list[Part], str]:
        """The parts and colour of one icon; UnknownIcon with the known names if there is none."""
        if kind == "symbol":
            parts = self.symbols.get(name, self.symbols.get(name.lower().replace(" ", "_")))
            if parts is None:
                raise UnknownIcon(kind, name, f"unknown symbol '{name}'", sorted(self.symbols))
            return parts, text_colour
        ids = self.suits if kind == "suit" else self.marks
        key = name if name in ids else name.strip().lower().replace(" ", "_")  # Flame is flame, as in card sheets
        if key not in ids:
            raise UnknownIcon(kind, name, f"unknown {kind} '{name}'", sorted(ids))
        symbol, colour = self.suits[key] if kind == "suit" else (self.marks[key], text_colour)
        parts = self.symbols.get(symbol)
        if parts is None:
            raise UnknownIcon(kind, name, f"{kind} '{key}' has no symbol to draw"
                              + (f" (its symbol '{symbol}' is not in the symbol library)" if symbol else ""),
                              sorted(self.symbols))
        return parts, colour

    def draw(self, boxes: list[IconBox], background: str, angle: float = 0.0,
             centre: Point = (0.0, 0.0)) -> list[Item]:
        """The icons as scene items; with `angle` (clockwise quarter turns) each is turned about `centre`."""
        items: list[Item] = []
        cos, sin = round(math.cos(math.radians(angle))), round(math.sin(math.radians(angle)))
        for box in boxes:
            parts, colour = self.resolve(box.kind, box.name, box.colour)
            x, y = box.x, box.y
            if angle:
                dx, dy = x + box.side / 2 - centre[0], y + box.side / 2 - centre[1]
                x = centre[0] + dx * cos - dy * sin - box.side / 2
                y = centre[1] + dx * sin + dy * cos - box.side / 2
            items.extend(draw_symbol(parts, x, y, box.side, box.side, colour, background, angle))
        return items


ICONS_FILE = "icons.yaml"  # beside symbols.yaml: the pictures taken from others, each with its source and licence
OWN_FILE = "symbols.yaml"


@dataclass(frozen=True)
class PictureRecord:
    """Where one picture of the library comes from: the file it is in, its source, author and licence."""

    name: str
    file: str
    source: str  # "own" for ours, else the key of a source in icons.yaml
    author: str
    licence: str
    url: str = ""


@dataclass
class PictureRegistry:
    """Every picture the library can draw and where it comes from: ours (symbols.yaml) and vendored (icons.yaml)."""

    records: dict[str, PictureRecord]
    sources: dict[str, dict[str, str]]  # source key -> title, url, licence, licence_url, licence_file

    def credit(self, names: set[str] | list[str]) -> str:
        """The credit a set that draws these pictures prints: each source's authors and licence ('' if all ours)."""
        by_source: dict[str, set[str]] = {}
        for name in names:
            record = self.records.get(name)
            if record is not None and record.source != "own":
                by_source.setdefault(record.source, set()).add(record.author)
        parts = []
        for key in sorted(by_source):
            source = self.sources.get(key, {})
            authors = sorted(by_source[key])
            who = authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]
            parts.append(f"Icons made by {who} ({source.get('title', key)}), {source.get('licence', '')}".rstrip(", "))
        return "; ".join(parts)


def load_icons(raw: Any, problems: Problems, place: Place, own: dict[str, list[Part]]) -> tuple[
        dict[str, list[Part]], PictureRegistry]:
    """Read icons.yaml: `sources:` (each with its licence) and `icons:` (each a path with source, author, licence, url).

    An icon is one filled path part, parsed (its curves flattened) once here. A name our own
    symbols already use, an icon without its source, author or licence, or a source without its
    licence file is reported with its place, and the icon left out.
    """
    records = {name: PictureRecord(name, OWN_FILE, "own", "Casebook", "Casebook's own") for name in own}
    registry = PictureRegistry(records, {})
    out: dict[str, list[Part]] = {}
    if not isinstance(raw, Node):
        problems.add(place_of(raw, fallback=place), "icons.yaml must hold 'sources:' and 'icons:' (mappings)")
        return out, registry
    sources = raw.get("sources")
    icons = raw.get("icons")
    if not isinstance(sources, Node) or not isinstance(icons, Node):
        problems.add(raw.place, "icons.yaml must hold 'sources:' and 'icons:' (mappings)")
        return out, registry
    folder = Path(place.path).parent
    for key, spec in sources.items():
        missing = [f for f in ("title", "url", "licence", "licence_file") if not isinstance(spec, Node) or not spec.get(f)]
        if missing:
            problems.add(sources.value_place(key), f"source '{key}' needs " + ", ".join(missing))
            continue
        if not (folder / str(spec["licence_file"])).is_file():
            problems.add(spec.value_place("licence_file"), f"source '{key}': its licence file "
                         f"{spec['licence_file']} is not beside icons.yaml", "python tools/vendor_icons.py writes it")
        registry.sources[key] = {k: str(v) for k, v in spec.items()}
    for name, spec in icons.items():
        where = icons.value_place(name)
        if name in own:
            problems.add(where, f"icon '{name}' has the name of one of our own symbols", "vendor it under another name")
            continue
        missing = [f for f in ("source", "author", "licence", "url", "path") if not isinstance(spec, Node) or not spec.get(f)]
        if missing:
            problems.add(where, f"icon '{name}' needs " + ", ".join(missing), "python tools/vendor_icons.py writes them")
            continue
        if spec["source"] not in registry.sources:
            problems.add(spec.value_place("source"), f"icon '{name}': unknown source '{spec['source']}'",
                         "one of: " + ", ".join(sorted(registry.sources)))
            continue
        part = _parse_part({"path": spec["path"], "fill_rule": spec.get("fill_rule", "nonzero")}, where, problems, name)
        if part is None:
            continue
        out[name] = [part]
        records[name] = PictureRecord(name, ICONS_FILE, str(spec["source"]), str(spec["author"]), str(spec["licence"]),
                                      str(spec["url"]))
    return out, registry


def picture_registry(root: Path, problems: Problems | None = None) -> PictureRegistry:
    """The registry of a layouts folder: its own symbols and the icons vendored beside them."""
    problems = problems if problems is not None else Problems()
    own_path, icons_path = root / OWN_FILE, root / ICONS_FILE
    own = parse_library(load_yaml(own_path, problems), problems, Place(str(own_path))) if own_path.is_file() else {}
    if not icons_path.is_file():
        return PictureRegistry({n: PictureRecord(n, OWN_FILE, "own", "Casebook", "Casebook's own") for n in own}, {})
    return load_icons(load_yaml(icons_path, problems), problems, Place(str(icons_path)), own)[1]
