"""A board's city as a map: districts as irregular shapes on the game's grid, water where they part.

A game's `board: {columns, rows, districts}` puts each district record on one or more grid cells
(`cell: [column, row]` or `cells: [...]`), its `adjacent` list naming its neighbours. A board
layout that holds `vars.map` (the grid's place and cell size in mm, the palette) gets the city
drawn beneath its elements (generator/board.py), and its templates see each district's safe box
as `city.districts[i].box`.

The geometry: every grid corner is moved a little (the same seed, the same city), every cell edge
bends at two points moved across it, so neighbouring cells share exact edges. A cell's land is
its bent quadrilateral pulled back from each edge by that edge's water: none between districts
that are adjacent (a street crosses there), half a canal's width on each side between grid
neighbours that are not, the coast's width along the city's outer edge; an empty cell (the
harbour) is water. So two districts share a border exactly when the data says they are adjacent.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

from casebook.generator.scene import Item, Point, Polyline, Rect
from casebook.rules.cards import GameDatabase
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import place_of

Cell = tuple[int, int]
Polygon = tuple[Point, ...]
EPS = 1e-6
HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")

# what vars.map may hold: its lengths (mm) and colours, with their defaults
LENGTHS = {"x": None, "y": None, "cell_w": None, "cell_h": None, "jitter": 4.0, "canal": 9.0, "coast": 6.0,
           "street_width": 2.6, "pad": 1.5}
COLOURS = {"paper": "#FFFDF7", "water": "#A8C6D3", "wave": "#6F97AA", "coast_line": "#4E6E7C",
           "border": "#6E624E", "street": "#FAF6EA", "street_edge": "#C4B798"}
LAND = ("#EEE4C9", "#DCE0C2", "#EAD3C3", "#D9D4C8")  # sand, sage, clay, stone: apart in grey, muted in colour


@dataclass(frozen=True)
class MapSpec:
    """Where the grid lies on the board (mm) and how the map is drawn."""

    x: float
    y: float
    cell_w: float
    cell_h: float
    jitter: float = 4.0  # how far a corner or a bend may move, mm
    canal: float = 9.0  # the water between grid neighbours that are not adjacent
    coast: float = 6.0  # the water between the city and the grid's outer edge
    street_width: float = 2.6  # a street's width
    pad: float = 1.5  # between the land's edge and a district's safe box
    seed: int = 1
    colours: dict[str, str] = field(default_factory=lambda: dict(COLOURS))
    land: tuple[str, ...] = LAND


@dataclass(frozen=True)
class District:
    """One district of the city board: its cells, the districts it touches and its data."""
    id: str
    cells: tuple[Cell, ...]
    adjacent: frozenset[str]
    data: dict[str, Any]


@dataclass(frozen=True)
class Edge:
    """A grid edge between two cells (or a cell and the outside, None), as its bent polyline."""

    cells: tuple[Cell | None, Cell | None]
    points: tuple[Point, ...]  # corner, two bends, corner


@dataclass
class CityMap:
    """The drawn city: each district's land (one polygon a cell), streets, and the safe boxes for its labels."""

    spec: MapSpec
    columns: int
    rows: int
    districts: dict[str, District]
    owner: dict[Cell, str]
    land: dict[str, list[Polygon]]  # district -> its cells' land
    water_sides: dict[str, list[tuple[Point, Point]]]  # district -> its land's segments that face water
    borders: list[tuple[Point, Point]]  # segments where two districts meet (each once)
    streets: list[tuple[Point, ...]]
    crossings: dict[frozenset[str], Point]  # where a street crosses each adjacent pair's border
    hubs: dict[str, Point]
    boxes: dict[str, tuple[float, float, float, float]]
    colours: dict[str, str]
    water_cells: list[Cell]
    piers: list[Polygon] = field(default_factory=list)  # jetties from the quays into a water cell

    @property
    def box(self) -> tuple[float, float, float, float]:
        s = self.spec
        return (s.x, s.y, self.columns * s.cell_w, self.rows * s.cell_h)


# --- reading ----------------------------------------------------------------------------------


def read_spec(raw: Any, place: Place, problems: Problems, ink_saver: bool = False) -> MapSpec | None:
    """vars.map of a board layout as a MapSpec; each bad value is a problem at its line."""
    if not isinstance(raw, dict):
        problems.add(place, "vars.map must be a mapping", "map: {x: 12, y: 26, cell_w: 107, cell_h: 92}")
        return None
    known = {*LENGTHS, *COLOURS, "seed", "land", "ink_saver"}
    ok = True
    for key in raw:
        if key not in known:
            problems.add(place_of(raw, key, place), f"unknown key '{key}' in vars.map", "one of: " + ", ".join(sorted(known)))
            ok = False
    values: dict[str, Any] = dict(raw)
    if ink_saver and isinstance(raw.get("ink_saver"), dict):
        values.update(raw["ink_saver"])
    lengths: dict[str, float] = {}
    for key, default in LENGTHS.items():
        value = values.get(key, default)
        if value is None:
            problems.add(place, f"vars.map needs '{key}' (mm)", f"{key}: 100")
            ok = False
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 or not math.isfinite(value):
            problems.add(place_of(raw, key, place), f"vars.map {key} must be a number of mm (0 or more), not {value!r}")
            ok = False
            continue
        lengths[key] = float(value)
    colours = dict(COLOURS)
    for key in COLOURS:
        if key in values:
            if not _is_colour(values[key]):
                problems.add(place_of(raw, key, place), f"vars.map {key} '{values[key]}' is not a colour", "#rrggbb")
                ok = False
            else:
                colours[key] = str(values[key])
    land = values.get("land", list(LAND))
    if not isinstance(land, list) or len(land) < 4 or not all(_is_colour(c) for c in land):
        problems.add(place_of(raw, "land", place), "vars.map land must list 4 or more #rrggbb colours "
                     "(neighbours never share one)", "land: ['#EEE4C9', '#DCE0C2', '#EAD3C3', '#D9D4C8']")
        ok = False
    seed = values.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.add(place_of(raw, "seed", place), f"vars.map seed must be a whole number, not {seed!r}", "seed: 7")
        ok = False
    if not ok:
        return None
    if lengths["cell_w"] <= 0 or lengths["cell_h"] <= 0:
        problems.add(place, "vars.map cell_w and cell_h must be above 0")
        return None
    if 2 * (lengths["jitter"] + max(lengths["coast"], lengths["canal"] / 2) + lengths["pad"]) >= min(
            lengths["cell_w"], lengths["cell_h"]) / 2:
        problems.add(place, "vars.map: jitter, canal and coast leave a cell less than half its size for its labels",
                     "smaller jitter, canal or coast, or larger cells")
        return None
    return MapSpec(**lengths, seed=seed, colours=colours, land=tuple(str(c) for c in land))


def _is_colour(value: Any) -> bool:
    return isinstance(value, str) and HEX_COLOUR.fullmatch(value) is not None


def districts_of(db: GameDatabase) -> tuple[int, int, dict[str, District]] | None:
    """The game's grid (columns, rows) and its districts; None if the game has no board."""
    board = db.extra.get("board")
    if not isinstance(board, dict):
        return None
    columns, rows = board.get("columns"), board.get("rows")
    record_set = db.records.get(str(board.get("districts")))
    if not isinstance(columns, int) or not isinstance(rows, int) or record_set is None:
        return None  # the database check reports it
    out: dict[str, District] = {}
    for card in record_set.cards:
        given = [card.data.get("cell")] if card.data.get("cell") is not None else card.data.get("cells") or []
        cells = tuple((int(v[0]), int(v[1])) for v in given if isinstance(v, list) and len(v) == 2)
        out[card.id] = District(card.id, cells, frozenset(card.data.get("adjacent") or ()), dict(card.data))
    return columns, rows, out


# --- geometry ---------------------------------------------------------------------------------


def _rng(seed: int, *key: object) -> random.Random:
    return random.Random(f"{seed}:" + ":".join(map(str, key)))


def build_city(spec: MapSpec, columns: int, rows: int, districts: dict[str, District]) -> CityMap:
    """The city's geometry: the same spec and data, the same map."""
    owner = {cell: d.id for d in districts.values() for cell in d.cells if 0 <= cell[0] < columns and 0 <= cell[1] < rows}
    corners = _corners(spec, columns, rows)
    edges = _edges(spec, columns, rows, corners)
    land: dict[str, list[Polygon]] = {d: [] for d in districts}
    water_sides: dict[str, list[tuple[Point, Point]]] = {d: [] for d in districts}
    borders: list[tuple[Point, Point]] = []
    for cell, d in sorted(owner.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        polygon, sides, between = _cell_land(spec, cell, edges, owner, districts)
        land[d].append(polygon)
        water_sides[d].extend(sides)
        borders.extend(between)
    hubs = {d.id: _hub(spec, d) for d in districts.values() if d.cells}
    streets, crossings = _streets(spec, edges, owner, districts, hubs)
    inset = spec.jitter + max(spec.coast, spec.canal / 2) + spec.pad
    boxes = {}
    for district in districts.values():
        if district.cells:
            c, r = min(district.cells, key=lambda cell: (cell[1], cell[0]))  # the first cell in reading order holds the labels
            boxes[district.id] = (spec.x + c * spec.cell_w + inset, spec.y + r * spec.cell_h + inset,
                                  spec.cell_w - 2 * inset, spec.cell_h - 2 * inset)
    water = [(c, r) for r in range(rows) for c in range(columns) if (c, r) not in owner]
    return CityMap(spec, columns, rows, districts, owner, land, water_sides, borders, streets, crossings, hubs, boxes,
                   _colouring(districts, owner, spec.land), water, _piers(spec, edges, owner))


def _corners(spec: MapSpec, columns: int, rows: int) -> dict[Cell, Point]:
    """Each grid corner, moved up to `jitter` mm; on the grid's edge only along it (and a little inwards)."""
    out = {}
    j = spec.jitter
    for r in range(rows + 1):
        for c in range(columns + 1):
            rng = _rng(spec.seed, "corner", c, r)
            dx, dy = rng.uniform(-j, j), rng.uniform(-j, j)
            if c in (0, columns):
                dx = abs(dx) / 2 * (1 if c == 0 else -1)
            if r in (0, rows):
                dy = abs(dy) / 2 * (1 if r == 0 else -1)
            out[(c, r)] = (spec.x + c * spec.cell_w + dx, spec.y + r * spec.cell_h + dy)
    return out


def _edges(spec: MapSpec, columns: int, rows: int, corners: dict[Cell, Point]) -> dict[tuple[str, int, int], Edge]:
    """Every grid edge: ('h', c, r) runs from corner (c, r) east, ('v', c, r) from corner (c, r) south."""
    out = {}
    for r in range(rows + 1):
        for c in range(columns + 1):
            for kind, end, cells in (("h", (c + 1, r), ((c, r - 1), (c, r))), ("v", (c, r + 1), ((c - 1, r), (c, r)))):
                if end not in corners:
                    continue
                a, b = corners[(c, r)], corners[end]
                inside = [cell if 0 <= cell[0] < columns and 0 <= cell[1] < rows else None for cell in cells]
                rng = _rng(spec.seed, "edge", kind, c, r)
                ux, uy = b[0] - a[0], b[1] - a[1]
                length = math.hypot(ux, uy)
                nx, ny = -uy / length, ux / length
                reach = spec.jitter if None not in inside else spec.jitter / 3  # the coast bends less
                bends = []
                for t in (rng.uniform(0.28, 0.38), rng.uniform(0.62, 0.72)):
                    m = rng.uniform(-reach, reach)
                    bends.append((a[0] + ux * t + nx * m, a[1] + uy * t + ny * m))
                out[(kind, c, r)] = Edge((inside[0], inside[1]), (a, *bends, b))
    return out


def _side_water(spec: MapSpec, cell: Cell, other: Cell | None, owner: dict[Cell, str],
                districts: dict[str, District]) -> float:
    """How far a cell's land stays back from its edge with `other`: 0 where a street may cross."""
    if other is None:
        return spec.coast
    mine, theirs = owner.get(cell), owner.get(other)
    if theirs is None:
        return 0.0  # the harbour: the cell next door is water, the quay is the edge itself
    if mine == theirs or (mine is not None and theirs in districts[mine].adjacent):
        return 0.0
    return spec.canal / 2


def _cell_land(spec: MapSpec, cell: Cell, edges: dict[tuple[str, int, int], Edge], owner: dict[Cell, str],
               districts: dict[str, District]) -> tuple[Polygon, list[tuple[Point, Point]], list[tuple[Point, Point]]]:
    """A cell's land polygon (clockwise on the page), its segments that face water, and those on a border."""
    c, r = cell
    top, right = edges[("h", c, r)], edges[("v", c + 1, r)]
    bottom, left = edges[("h", c, r + 1)], edges[("v", c, r)]
    ring: list[Point] = []
    offsets: list[float] = []
    water: list[bool] = []
    border: list[bool] = []
    for edge, reverse in ((top, False), (right, False), (bottom, True), (left, True)):
        pts = edge.points[::-1] if reverse else edge.points
        other = edge.cells[0] if edge.cells[1] == cell else edge.cells[1]
        d = _side_water(spec, cell, other, owner, districts)
        faces_water = other is None or owner.get(other) is None or d > 0
        # a border between two districts, drawn from the side of the one that comes first
        theirs = owner.get(other) if other is not None else None
        meets = not faces_water and theirs is not None and theirs != owner[cell] and owner[cell] < theirs
        for p in pts[:-1]:
            ring.append(p)
            offsets.append(d)
            water.append(faces_water)
            border.append(meets)
    n = len(ring)
    centre = (spec.x + (c + 0.5) * spec.cell_w, spec.y + (r + 0.5) * spec.cell_h)
    lines = []
    for k in range(n):
        a, b = ring[k], ring[(k + 1) % n]
        ux, uy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ux, uy) or 1.0
        ux, uy = ux / length, uy / length
        nx, ny = -uy, ux
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:  # the normal that points into the cell
            nx, ny = -nx, -ny
        d = offsets[k]
        lines.append(((a[0] + nx * d, a[1] + ny * d), (ux, uy)))
    points = []
    for k in range(n):  # vertex k lies where segment k-1's line meets segment k's
        (p, u), (q, v) = lines[k - 1], lines[k]
        cross = u[0] * v[1] - u[1] * v[0]
        if abs(cross) < 1e-9:
            points.append(q)
            continue
        t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
        points.append((p[0] + u[0] * t, p[1] + u[1] * t))
    sides = [(points[k], points[(k + 1) % n]) for k in range(n) if water[k]]
    between = [(points[k], points[(k + 1) % n]) for k in range(n) if border[k]]
    return tuple(points), sides, between


def _piers(spec: MapSpec, edges: dict[tuple[str, int, int], Edge], owner: dict[Cell, str], length: float = 13.0,
           width: float = 2.4) -> list[Polygon]:
    """Two jetties from each quay (a district's edge on a water cell of the grid), reaching into the water."""
    out: list[tuple[Point, ...]] = []
    for _, edge in sorted(edges.items()):
        a, b = edge.cells
        if a is None or b is None or (a in owner) == (b in owner):
            continue
        water = b if a in owner else a
        wx, wy = spec.x + (water[0] + 0.5) * spec.cell_w, spec.y + (water[1] + 0.5) * spec.cell_h
        for t in (0.22, 0.78):
            px, py = point_along(edge.points, t)
            (ax, ay), (bx, by) = edge.points[0], edge.points[-1]
            ux, uy = (bx - ax) / math.dist((ax, ay), (bx, by)), (by - ay) / math.dist((ax, ay), (bx, by))
            nx, ny = -uy, ux
            if (wx - px) * nx + (wy - py) * ny < 0:  # the normal that points into the water
                nx, ny = -nx, -ny
            hw = width / 2
            out.append(((px - nx + ux * hw, py - ny + uy * hw), (px + nx * length + ux * hw, py + ny * length + uy * hw),
                        (px + nx * length - ux * hw, py + ny * length - uy * hw), (px - nx - ux * hw, py - ny - uy * hw)))
    return out


def _hub(spec: MapSpec, d: District) -> Point:
    """Where a district's streets meet: the middle of its first cell, a little above centre."""
    c, r = min(d.cells, key=lambda cell: (cell[1], cell[0]))
    rng = _rng(spec.seed, "hub", d.id)
    return (spec.x + (c + 0.5) * spec.cell_w + rng.uniform(-0.08, 0.08) * spec.cell_w,
            spec.y + (r + 0.44) * spec.cell_h + rng.uniform(-0.04, 0.04) * spec.cell_h)


def point_along(points: tuple[Point, ...], t: float) -> Point:
    """The point a fraction t of the way along a polyline."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:], strict=False)]
    goal = sum(lengths) * t
    for (a, b), length in zip(zip(points, points[1:], strict=False), lengths, strict=True):
        if goal <= length or length == lengths[-1]:
            k = min(1.0, goal / length) if length else 0.0
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        goal -= length
    return points[-1]


def _streets(spec: MapSpec, edges: dict[tuple[str, int, int], Edge], owner: dict[Cell, str],
             districts: dict[str, District], hubs: dict[str, Point]
             ) -> tuple[list[tuple[Point, ...]], dict[frozenset[str], Point]]:
    """A street for each adjacent pair: from one hub across the middle of their longest shared edge to the other."""
    best: dict[frozenset[str], tuple[str, Edge]] = {}
    for key, edge in sorted(edges.items()):
        a, b = edge.cells
        if a is None or b is None or a not in owner or b not in owner:
            continue
        da, db_ = owner[a], owner[b]
        if da == db_ or db_ not in districts[da].adjacent:
            continue
        pair = frozenset((da, db_))
        if pair not in best:
            best[pair] = (key[0], edge)
    streets: list[tuple[Point, ...]] = []
    crossings: dict[frozenset[str], Point] = {}
    for pair, (kind, edge) in sorted(best.items(), key=lambda kv: sorted(kv[0])):
        rng = _rng(spec.seed, "street", *sorted(pair))
        # across a vertical edge the street runs above the tiles' slots; across a horizontal one, between them
        t = rng.uniform(0.36, 0.46) if kind == "v" else rng.uniform(0.44, 0.56)
        cross = point_along(edge.points, t)
        crossings[pair] = cross
        first, second = sorted(pair)
        streets.append((hubs[first], _bend(hubs[first], cross, rng), cross, _bend(cross, hubs[second], rng),
                        hubs[second]))
    return streets, crossings


def _bend(a: Point, b: Point, rng: random.Random, reach: float = 0.12) -> Point:
    """A point between a and b, moved across the line by up to `reach` of its length: streets that wander."""
    t, m = rng.uniform(0.4, 0.6), rng.uniform(-reach, reach)
    return (a[0] + (b[0] - a[0]) * t - (b[1] - a[1]) * m, a[1] + (b[1] - a[1]) * t + (b[0] - a[0]) * m)


def _colouring(districts: dict[str, District], owner: dict[Cell, str], palette: tuple[str, ...]) -> dict[str, str]:
    """A land colour per district, never the same as a district it touches on the grid (greedy, in data order)."""
    touching: dict[str, set[str]] = {d: set() for d in districts}
    for (c, r), d in owner.items():
        for other in ((c + 1, r), (c, r + 1), (c - 1, r), (c, r - 1), (c + 1, r + 1), (c - 1, r + 1)):
            e = owner.get(other)
            if e is not None and e != d:
                touching[d].add(e)
                touching[e].add(d)
    out: dict[str, str] = {}
    for d in districts:
        used = {out[e] for e in touching[d] if e in out}
        out[d] = next((colour for colour in palette if colour not in used), palette[len(out) % len(palette)])
    return out


# --- what the geometry says -------------------------------------------------------------------


def shared_border(city: CityMap, a: str, b: str) -> float:
    """How many mm of border two districts' land shares: segments of both that lie on one line and overlap."""
    total = 0.0
    for pa in city.land.get(a, []):
        for pb in city.land.get(b, []):
            for s in _segments(pa):
                for t in _segments(pb):
                    total += _overlap(s, t)
    return total


def _segments(polygon: Polygon) -> list[tuple[Point, Point]]:
    return [(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon))]


def _overlap(s: tuple[Point, Point], t: tuple[Point, Point], tol: float = 0.01) -> float:
    (ax, ay), (bx, by) = s
    ux, uy = bx - ax, by - ay
    length = math.hypot(ux, uy)
    if length < EPS:
        return 0.0
    ux, uy = ux / length, uy / length
    for px, py in t:  # both ends of t on s's line
        if abs((px - ax) * uy - (py - ay) * ux) > tol:
            return 0.0
    t0 = (t[0][0] - ax) * ux + (t[0][1] - ay) * uy
    t1 = (t[1][0] - ax) * ux + (t[1][1] - ay) * uy
    lo, hi = max(0.0, min(t0, t1)), min(length, max(t0, t1))
    return max(0.0, hi - lo)


def gap(city: CityMap, a: str, b: str) -> float:
    """The least distance between two districts' land, mm (0 where they touch)."""
    best = math.inf
    for pa in city.land.get(a, []):
        for pb in city.land.get(b, []):
            for s in _segments(pa):
                for p in pb:
                    best = min(best, _distance(p, s))
            for s in _segments(pb):
                for p in pa:
                    best = min(best, _distance(p, s))
    return best


def _distance(p: Point, s: tuple[Point, Point]) -> float:
    (ax, ay), (bx, by) = s
    ux, uy = bx - ax, by - ay
    length2 = ux * ux + uy * uy
    k = 0.0 if length2 < EPS else max(0.0, min(1.0, ((p[0] - ax) * ux + (p[1] - ay) * uy) / length2))
    return math.hypot(p[0] - ax - ux * k, p[1] - ay - uy * k)


def inside(p: Point, polygon: Polygon) -> bool:
    """Whether a point lies inside a polygon (even-odd)."""
    x, y = p
    hit = False
    for (ax, ay), (bx, by) in _segments(polygon):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


# --- drawing ----------------------------------------------------------------------------------


def draw_city(city: CityMap) -> list[Item]:
    """The map as scene items: water and its waves, the districts' land, coasts, streets."""
    s, col = city.spec, city.spec.colours
    x, y, w, h = city.box
    items: list[Item] = [Rect(x, y, w, h, fill=col["water"], radius=3.0)]
    items.extend(_waves(city))
    for d, polygons in city.land.items():
        for polygon in polygons:
            # stroked in its own colour: no hairline between two cells of one district
            items.append(Polyline(polygon, closed=True, fill=city.colours[d], stroke=city.colours[d], width=0.3))
    for run in _runs(city.borders):
        items.append(Polyline(run, stroke=col["border"], width=0.8))
    for sides in city.water_sides.values():
        for run in _runs(sides):
            items.append(Polyline(run, stroke=col["coast_line"], width=0.6))
    for pier in city.piers:
        items.append(Polyline(pier, closed=True, fill=col["street_edge"], stroke=col["border"], width=0.4))
    for street in city.streets:  # the kerbs first, then every street's surface: crossings merge
        items.append(Polyline(street, stroke=col["street_edge"], width=s.street_width + 0.8))
    for hub in city.hubs.values():
        items.append(_square(hub, s.street_width * 1.6, col["street_edge"]))
    for street in city.streets:
        items.append(Polyline(street, stroke=col["street"], width=s.street_width))
    for hub in city.hubs.values():
        items.append(_square(hub, s.street_width * 1.6 - 0.8, col["street"]))
    return items


def _square(centre: Point, half: float, colour: str) -> Polyline:
    """A little square (an octagon) where a district's streets meet."""
    cx, cy = centre
    return Polyline(tuple((cx + half * math.cos(math.pi * (k + 0.5) / 4), cy + half * math.sin(math.pi * (k + 0.5) / 4))
                          for k in range(8)), closed=True, fill=colour)


def _runs(sides: list[tuple[Point, Point]]) -> list[tuple[Point, ...]]:
    """Segments joined into polylines where one ends where the next begins."""
    runs: list[list[Point]] = []
    for a, b in sides:
        if runs and math.dist(runs[-1][-1], a) < EPS:
            runs[-1].append(b)
        else:
            runs.append([a, b])
    if len(runs) > 1 and math.dist(runs[-1][-1], runs[0][0]) < EPS:  # the ring closes over its start
        runs[0] = runs.pop()[:-1] + runs[0]
    return [tuple(run) for run in runs]


def _waves(city: CityMap, across: float = 4.0, step: tuple[float, float] = (11.0, 7.0), clear: float = 1.2) -> list[Item]:
    """Small wave marks on a staggered grid, wherever the water holds one clear of the land."""
    s = city.spec
    x, y, w, h = city.box
    boxes = [(_bounds(p), p) for polygons in city.land.values() for p in polygons]
    calm = [(x + (c + 0.2) * s.cell_w, y + (r + 0.5) * s.cell_h - 8.0, x + (c + 0.8) * s.cell_w,
             y + (r + 0.5) * s.cell_h + 8.0) for c, r in city.water_cells]  # a water cell's name stands on calm water
    out: list[Item] = []
    row = 0
    wy = y + 3.0
    while wy < y + h - 2.0:
        wx = x + 2.5 + (step[0] / 2 if row % 2 else 0.0)
        while wx + across < x + w - 2.0:
            mark = tuple((wx + across * k / 4, wy + (0.0, -0.7, 0.0, 0.7, 0.0)[k]) for k in range(5))
            if _clear(mark, boxes, clear) and not any(a <= wx + across and wx <= c and b <= wy <= d for a, b, c, d in calm):
                out.append(Polyline(mark, stroke=s.colours["wave"], width=0.35))
            wx += step[0]
        wy += step[1]
        row += 1
    return out


def _bounds(polygon: Polygon) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return (min(xs), min(ys), max(xs), max(ys))


def _clear(mark: tuple[Point, ...], boxes: list[tuple[tuple[float, float, float, float], Polygon]], clear: float) -> bool:
    for (x0, y0, x1, y1), polygon in boxes:
        for p in mark:
            near = x0 - clear <= p[0] <= x1 + clear and y0 - clear <= p[1] <= y1 + clear
            if near and (inside(p, polygon) or min(_distance(p, seg) for seg in _segments(polygon)) < clear):
                return False
    return True


def template_values(city: CityMap) -> dict[str, Any]:
    """What a board layout's templates see as `city`: the districts in the data's order, each with its safe box."""
    districts = []
    for d in city.districts.values():
        if d.id not in city.boxes:
            continue
        first: Cell = min(d.cells, key=lambda cell: (cell[1], cell[0]))
        districts.append({**d.data, "id": d.id, "box": list(city.boxes[d.id]), "colour": city.colours[d.id],
                          "cell": list(first)})
    s = city.spec
    water = [{"cell": [c, r], "box": [s.x + c * s.cell_w, s.y + r * s.cell_h, s.cell_w, s.cell_h]}
             for c, r in city.water_cells]
    return {"districts": districts, "water": water, "box": list(city.box)}
