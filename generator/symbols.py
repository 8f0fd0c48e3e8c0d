"""Vector symbols as data (layouts/symbols.yaml), drawn into a box of the scene.

A symbol is a list of parts in a 100 x 100 box, painted in order. A part is one
shape - `circle: [cx, cy, r]`, `ellipse: [cx, cy, rx, ry]`, `rect: [x, y, w, h]`
(with `radius`), `poly: [[x, y], ...]`, `line: [[x, y], ...]` (open) or
`path: "M x y L x y Q x1 y1 x y C x1 y1 x2 y2 x y Z"` (absolute commands) - filled,
or outlined with `stroke: WIDTH`; `knockout: true` paints it in the background colour
(holes). Curves are flattened here, so both backends draw the very same polygons.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from casebook.generator.scene import Ellipse, Item, Point, Polyline, Rect
from casebook.generator.text import IconBox, icon_refs
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, place_of

SHAPES = ("circle", "ellipse", "rect", "poly", "line", "path")
_TOKEN = re.compile(r"[MLQCZmlqcz]|-?\d*\.?\d+(?:e-?\d+)?")
CURVE_STEPS = 12


@dataclass(frozen=True)
class Part:
    shape: str
    data: Any
    stroke: float  # 0 = filled
    knockout: bool
    radius: float = 0.0


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
                raise ValueError("a path is a string of M/L/Q/C/Z commands")
            data = _parse_path(data)
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
    return Part(shape, data, float(stroke), bool(part.get("knockout", False)), float(part.get("radius", 0)))


def _parse_path(text: str) -> tuple[tuple[tuple[Point, ...], bool], ...]:
    """Subpaths of flattened points: ((points...), closed)."""
    tokens = _TOKEN.findall(text)
    if "".join(tokens).replace(" ", "") == "":
        raise ValueError("empty path")
    subpaths: list[tuple[tuple[Point, ...], bool]] = []
    points: list[Point] = []
    i, cmd = 0, ""

    def num() -> float:
        nonlocal i
        if i >= len(tokens) or tokens[i].isalpha():
            raise ValueError(f"path: a number is missing after '{cmd}'")
        i += 1
        return float(tokens[i - 1])

    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i].upper()
            i += 1
        elif not cmd:
            raise ValueError("a path must start with M")
        if cmd == "M":
            if len(points) > 1:
                subpaths.append((tuple(points), False))
            points = [(num(), num())]
            cmd = "L"
        elif cmd == "L":
            points.append((num(), num()))
        elif cmd == "Q":
            c, e = (num(), num()), (num(), num())
            s = points[-1]
            points.extend(_bezier([s, c, e]))
        elif cmd == "C":
            c1, c2, e = (num(), num()), (num(), num()), (num(), num())
            s = points[-1]
            points.extend(_bezier([s, c1, c2, e]))
        elif cmd == "Z":
            if len(points) > 1:
                subpaths.append((tuple(points), True))
            points = []
            cmd = ""
        if not points and cmd not in ("", "M", "Z") and i < len(tokens) and not tokens[i].isalpha():
            raise ValueError("a path needs M before drawing")
    if len(points) > 1:
        subpaths.append((tuple(points), False))
    return tuple(subpaths)


def _bezier(ctrl: list[Point]) -> list[Point]:
    out = []
    for step in range(1, CURVE_STEPS + 1):
        t = step / CURVE_STEPS
        pts = list(ctrl)
        while len(pts) > 1:
            pts = [((1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]) for a, b in zip(pts, pts[1:], strict=False)]
        out.append(pts[0])
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
        else:
            for pts, closed in part.data:
                items.append(Polyline(tuple(tp(p) for p in pts), closed, fill if closed else None,
                                      stroke if (stroke or not closed) else (paint if not closed else None),
                                      width or (0 if closed else scale * 4)))
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
