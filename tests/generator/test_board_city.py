"""P.I.'s board as a map (generator/city.py): the geometry says what the rules say. Two districts'
shapes share a border longer than BORDER mm, with no water between, exactly when districts.yaml
says they are adjacent; grid neighbours that are not adjacent are parted by a canal's width of
water; a street crosses every shared border; the composed board draws those very shapes; a
district with a picture (`symbol`) shows it in its picture box; bad vars.map values are refused
at their line."""

from __future__ import annotations

import copy
import itertools
import math

import pytest

from casebook.generator.board import board_size, compose_board
from casebook.generator.city import (
    District,
    MapSpec,
    build_city,
    districts_of,
    gap,
    inside,
    read_spec,
    shared_border,
)
from casebook.generator.compose import Composer
from casebook.generator.layouts import load_library, tint
from casebook.generator.scene import Polyline
from casebook.generator.symbols import draw_symbol
from casebook.rules.cards import Sheet, load_database
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import load_yaml

BORDER = 20.0  # mm: a shared border at least this long is one a street can cross (a cell's side is ~90 mm)


@pytest.fixture(scope="module")
def lib():
    return load_library()


@pytest.fixture
def db():
    return load_database("pi")


def _spec(lib) -> MapSpec:
    layout = lib.layout("pi/board", Problems(), Place("test"))
    problems = Problems()
    spec = read_spec(layout.vars["map"], layout.place, problems)
    assert spec is not None and not problems, problems.items
    return spec


def _city(lib, db):
    grid = districts_of(db)
    assert grid is not None
    return build_city(_spec(lib), *grid)


def _neighbours_on_grid(city, a: str, b: str) -> bool:
    cells_a, cells_b = city.districts[a].cells, city.districts[b].cells
    return any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for p in cells_a for q in cells_b)


def _adjacency_holds(city, db) -> None:
    records = {r.id: r for r in db.records["districts"].cards}
    for a, b in itertools.combinations(sorted(records), 2):
        adjacent = b in records[a].data["adjacent"]
        border = shared_border(city, a, b)
        assert (border > BORDER) == adjacent, (a, b, border, adjacent)
        if adjacent:
            assert gap(city, a, b) < 1e-6, (a, b)  # they touch: nothing between
        elif _neighbours_on_grid(city, a, b):
            assert border == 0.0, (a, b, border)  # not even a short stretch
            assert gap(city, a, b) >= city.spec.canal - 0.5, (a, b, gap(city, a, b))  # a canal's width of water


def test_districts_share_a_border_exactly_when_the_data_says_they_are_adjacent(lib, db):
    city = _city(lib, db)
    assert len(city.land) == 14 and all(len(polys) == 1 for polys in city.land.values())
    _adjacency_holds(city, db)
    assert city.water_cells == [(4, 2)]  # the harbour: no land there
    harbour = (city.spec.x + 4.5 * city.spec.cell_w, city.spec.y + 2.5 * city.spec.cell_h)
    assert not any(inside(harbour, p) for polys in city.land.values() for p in polys)


def test_the_map_follows_the_data_not_the_grid(lib, db):
    """Fill in a street (Hilltop | Theatre Row becomes a canal) and dig one out (Gasworks | Main Street): the map
    moves its water with the data."""
    records = {r.id: r for r in db.records["districts"].cards}
    records["hilltop"].data["adjacent"].remove("theatre_row")
    records["theatre_row"].data["adjacent"].remove("hilltop")
    records["gasworks"].data["adjacent"].append("main_street")
    records["main_street"].data["adjacent"].append("gasworks")
    city = _city(lib, db)
    _adjacency_holds(city, db)
    assert shared_border(city, "hilltop", "theatre_row") == 0.0
    assert shared_border(city, "gasworks", "main_street") > 60.0
    assert frozenset(("gasworks", "main_street")) in city.crossings
    assert frozenset(("hilltop", "theatre_row")) not in city.crossings


def test_a_street_crosses_every_shared_border(lib, db):
    city = _city(lib, db)
    pairs = {frozenset((r.id, other)) for r in db.records["districts"].cards for other in r.data["adjacent"]}
    assert set(city.crossings) == pairs
    for pair, point in city.crossings.items():
        a, b = sorted(pair)
        street = next(s for s in city.streets if point in s)
        assert inside(street[0], city.land[a][0]) and inside(street[-1], city.land[b][0])  # from one to the other
        for d in (a, b):  # across the border: the crossing lies on both shapes' edges
            polygon = city.land[d][0]
            edges = zip(polygon, polygon[1:] + polygon[:1], strict=True)
            assert min(_distance(point, e) for e in edges) < 1e-6, (d, point)


def _distance(p, seg) -> float:
    (ax, ay), (bx, by) = seg
    ux, uy = bx - ax, by - ay
    k = max(0.0, min(1.0, ((p[0] - ax) * ux + (p[1] - ay) * uy) / (ux * ux + uy * uy)))
    return math.hypot(p[0] - ax - ux * k, p[1] - ay - uy * k)


def test_neighbours_never_share_a_colour_and_labels_stay_on_their_land(lib, db):
    city = _city(lib, db)
    for a, b in itertools.combinations(city.districts, 2):
        if _neighbours_on_grid(city, a, b):
            assert city.colours[a] != city.colours[b], (a, b)
    for d, (x, y, w, h) in city.boxes.items():
        polygon = city.land[d][0]
        for corner in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            assert inside(corner, polygon), (d, corner)  # the name, the picture and the tiles' slots are on land
        assert w >= 2 * 27 + 20 and h >= 27 + 30  # two 27 mm slots side by side, and room above them


def _board(lib, db, problems=None):
    problems = problems if problems is not None else Problems()
    composer = Composer(lib, db, problems)
    sheet = next(s for s in db.sheets if s.id == "board")
    size = board_size(lib, composer, sheet)
    assert size is not None
    return compose_board(composer, sheet, size), problems


def test_the_composed_board_draws_these_shapes(lib, db):
    city = _city(lib, db)
    scene, problems = _board(lib, db)
    assert scene is not None and not problems, problems.items
    drawn = {item.points: item.fill for item in scene.items if isinstance(item, Polyline) and item.closed and item.fill}
    for d, polygons in city.land.items():
        for polygon in polygons:
            assert drawn.get(polygon) == city.colours[d], d


def test_a_district_with_a_picture_shows_it_in_its_picture_box(lib, db):
    """A district's `picture` is drawn on its plate between the two slots; one without shows the plain mark."""
    downtown = next(r for r in db.records["districts"].cards if r.id == "downtown")
    own = downtown.data["picture"]
    pictured_db, plain_db = copy.deepcopy(db), copy.deepcopy(db)
    next(r for r in pictured_db.records["districts"].cards if r.id == "downtown").data["picture"] = "spider"
    del next(r for r in plain_db.records["districts"].cards if r.id == "downtown").data["picture"]
    pictured, problems = _board(lib, pictured_db)
    plain, _ = _board(lib, plain_db)
    assert pictured is not None and plain is not None and not problems, problems.items
    city = _city(lib, db)
    x, y, w, h = city.boxes["downtown"]
    layout_vars = lib.layout("pi/board", Problems(), Place("test")).vars
    size, slot = layout_vars["picture"] - 4, layout_vars["slot"]  # the plate less 2 mm a side, centred on the slots
    px, py = x + w / 2 - size / 2, y + h - slot / 2 - size / 2
    assert x + slot < px and px + size < x + w - slot  # between the suspect and the crime slot
    ground = tint(city.colours["downtown"], 0.55)
    spider = draw_symbol(lib.symbols["spider"], px, py, size, size, "#1F5A55", ground)
    theirs = draw_symbol(lib.symbols[own], px, py, size, size, "#1F5A55", ground)
    mark = draw_symbol(lib.symbols["pi_district"], px, py, size, size, "#6F7F73", ground)
    assert all(item in pictured.items for item in spider) and not any(item in pictured.items for item in theirs)
    assert all(item in plain.items for item in mark) and not any(item in plain.items for item in spider)


def test_bad_map_values_are_refused_at_their_line(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("map:\n  x: 12\n  y: 26\n  cell_w: 107\n  cell_h: 92\n  canal: wide\n  water: blue\n  lakes: 2\n",
                    encoding="utf-8")
    problems = Problems()
    raw = load_yaml(path, problems)
    assert read_spec(raw["map"], raw.place, problems) is None
    said = "\n".join(f"{p.place.line}: {p.message}" for p in problems.items)
    assert "6: vars.map canal must be a number of mm" in said, said
    assert "7: vars.map water 'blue' is not a colour" in said, said
    assert "8: unknown key 'lakes' in vars.map" in said, said


def test_a_map_layout_for_a_game_without_a_board_is_refused_at_its_line(lib):
    syndicate = load_database("syndicate")
    problems = Problems()
    composer = Composer(lib, syndicate, problems)
    sheet = Sheet("city", "The city", "pi/board", Place("cards/syndicate/game.yaml", 9))
    size = board_size(lib, composer, sheet)
    assert size is not None
    assert compose_board(composer, sheet, size) is None
    (problem,) = problems.items
    assert "draws a city map (vars.map), but game 'syndicate' has no board grid" in problem.message
    assert problem.place.path.endswith("board.yaml") and problem.place.line > 0
    assert "board: {columns" in (problem.expected or "")


def test_a_district_on_several_cells_is_one_piece_of_land(lib):
    """The geometry is the grid's, not P.I.'s: a district over two cells has no water inside it, and its borders
    follow its own adjacency (2 x 2 grid: 'long' on the top row, 'west' and 'east' under it)."""
    spec = _spec(lib)
    districts = {
        "long": District("long", ((0, 0), (1, 0)), frozenset({"west"}), {}),
        "west": District("west", ((0, 1),), frozenset({"long", "east"}), {}),
        "east": District("east", ((1, 1),), frozenset({"west"}), {}),
    }
    city = build_city(spec, 2, 2, districts)
    assert len(city.land["long"]) == 2
    assert shared_border(city, "long", "long") > 60.0  # its two cells meet along their whole edge
    assert shared_border(city, "long", "west") > BORDER and gap(city, "long", "west") < 1e-6
    # a canal parts them; at its west end, where long's other cell meets east corner to corner, half a canal's width
    assert shared_border(city, "long", "east") == 0.0 and gap(city, "long", "east") >= spec.canal / 2 - 0.5
    assert shared_border(city, "west", "east") > BORDER
    assert set(city.crossings) == {frozenset(("long", "west")), frozenset(("west", "east"))}
    assert city.water_cells == []
    west_cell, east_cell = city.land["long"]
    for a, b in city.borders:  # no border line drawn inside a district
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        on = [min(_distance(mid, e) for e in zip(p, p[1:] + p[:1], strict=True)) < 1e-6 for p in (west_cell, east_cell)]
        assert not all(on), (a, b)
    assert len(city.borders) >= 6  # long | west and west | east: three segments each
