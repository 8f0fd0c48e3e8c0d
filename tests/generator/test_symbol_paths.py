"""Symbols read the whole SVG path syntax, and a path of several outlines is one shape whose holes are holes.

The holes are checked where they matter: drawn over a background of another colour, the
background shows through them in the PNG backend (tests/generator/test_render_agree.py holds
the PDF to the same drawing).
"""

from __future__ import annotations

import math

import pytest

from casebook.generator.backends import png
from casebook.generator.scene import Polyline, Rect, Scene, Shape
from casebook.generator.symbols import FLATNESS, flatten, parse_library, parse_path
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node


def points(d: str) -> list[tuple[tuple[float, float], ...]]:
    return [tuple((round(x, 6), round(y, 6)) for x, y in pts) for pts, _ in flatten(parse_path(d))]


def symbol(*parts: dict) -> list:
    problems = Problems()
    lib = parse_library(_node({"symbols": _node({"it": list(parts)})}), problems, Place("symbols.yaml"))
    assert not problems.items, problems.items
    return lib["it"]


def _node(d: dict) -> Node:
    n = Node(d)
    n.place, n.key_places, n.value_places = Place("symbols.yaml", 1), {}, {}
    return n


def test_relative_commands_draw_what_their_absolute_twins_draw():
    assert points("m10 10 l5 0 0 5 -5 0z m2 2 h1 v1 h-1z") == points("M10 10 L15 10 15 15 10 15Z M12 12 H13 V13 H12Z")
    assert points("M0 0c1 1 2 2 3 3s4 4 5 5") == points("M0 0C1 1 2 2 3 3C4 4 7 7 8 8")
    assert points("M0 0q10 0 10 10t10 10") == points("M0 0Q10 0 10 10Q10 20 20 20")


def test_after_z_drawing_goes_on_from_the_start_of_the_closed_outline():
    outline = parse_path("M10 10 L20 10 L20 20 Z l5 5")
    assert outline[0][2] is True and outline[1][0] == (10.0, 10.0) and outline[1][1] == [("L", (15.0, 15.0))]


def test_an_arc_lies_on_its_circle_and_ends_where_it_says():
    # a half circle of radius 10 about (10, 0), above the x axis in SVG's y-down coordinates (sweep flag 1)
    (pts, closed), = flatten(parse_path("M0 0 A10 10 0 0 1 20 0"))
    assert not closed and pts[-1] == (20.0, 0.0)
    assert all(abs(math.hypot(x - 10, y) - 10) < FLATNESS for x, y in pts)
    assert min(y for _, y in pts) == pytest.approx(-10, abs=FLATNESS)
    # the other sweep goes below; the large-arc flag picks the long way round a smaller chord
    (below, _), = flatten(parse_path("M0 0 A10 10 0 0 0 20 0"))
    assert max(y for _, y in below) == pytest.approx(10, abs=FLATNESS)
    (long_way, _), = flatten(parse_path("M0 0 A10 10 0 1 1 10 10"))
    assert all(abs(math.hypot(x - 10, y) - 10) < FLATNESS for x, y in long_way)
    assert min(x for x, _ in long_way) < 1 and max(x for x, _ in long_way) > 19


def test_packed_arc_flags_and_numbers_as_minified_svg_writes_them():
    assert points("M5 5a5 5 0 015 5") == points("M5 5 A5 5 0 0 1 10 10")
    assert points("M.5.5l-.5-.5") == points("M0.5 0.5 L0 0")
    assert points("M1e1 0L2e1,0") == points("M10 0 L20 0")


def test_radii_too_small_for_their_chord_grow_to_reach_it():
    (pts, _), = flatten(parse_path("M0 0 A1 1 0 0 1 20 0"))
    assert pts[-1] == (20.0, 0.0) and min(y for _, y in pts) == pytest.approx(-10, abs=FLATNESS)


def test_curves_take_as_many_steps_as_their_bend_needs():
    small = points("M0 0 C1 1 2 1 3 0")[0]
    large = points("M0 0 C0 90 90 90 90 0")[0]
    assert len(small) < 5 < len(large)
    # every step stays within FLATNESS of the true curve
    for i, (x, y) in enumerate(large[1:], 1):
        t = i / (len(large) - 1)
        u = 1 - t
        true = (3 * u * u * t * 0 + 3 * u * t * t * 90 + t ** 3 * 90, 3 * u * u * t * 90 + 3 * u * t * t * 90)
        assert math.hypot(x - true[0], y - true[1]) < FLATNESS


@pytest.mark.parametrize("d, said", [
    ("L 0 0", "must start with M"),
    ("M 0 0 L 5", "a number is missing after 'L'"),
    ("M 0 0 A 5 5 0 2 1 9 9", "a flag (0 or 1) is missing after 'A'"),
    ("M 0 0 L 5 5 # 3", "cannot read '#"),
    ("", "empty path"),
])
def test_a_bad_path_says_what_and_where(d, said):
    with pytest.raises(ValueError, match=None) as caught:
        parse_path(d)
    assert said in str(caught.value)


def test_a_bad_path_in_the_library_is_reported_with_its_place():
    problems = Problems()
    parse_library(_node({"symbols": _node({"bad": [{"path": "M 0 0 L 5"}]})}), problems, Place("symbols.yaml"))
    assert any("symbol 'bad'" in p.message and "a number is missing" in p.message for p in problems.items)


RING = "M10 10 H90 V90 H10 Z M30 30 V70 H70 V30 Z"  # the inner square runs the other way round: a hole
SAME_WAY = "M10 10 H90 V90 H10 Z M30 30 H70 V70 H30 Z"  # both clockwise: nonzero fills it, even-odd does not


def _drawn_on_red(parts: list, background: str = "#FFFFFF") -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(the colour at the symbol's centre, at its ring) drawn in black on a red ground."""
    from casebook.generator.symbols import draw_symbol

    scene = Scene(20, 20, 0.0, [Rect(0, 0, 20, 20, fill="#FF0000")])
    scene.items.extend(draw_symbol(parts, 0, 0, 20, 20, "#000000", background))
    img = png.render(scene, 254)  # 10 px a mm
    return img.getpixel((100, 100)), img.getpixel((40, 100))


def test_a_path_of_several_outlines_is_one_shape_whose_hole_shows_the_ground():
    parts = symbol({"path": RING})
    from casebook.generator.symbols import draw_symbol

    items = draw_symbol(parts, 0, 0, 20, 20, "#000000", "#FFFFFF")
    assert len(items) == 1 and isinstance(items[0], Shape) and len(items[0].subpaths) == 2
    centre, ring = _drawn_on_red(parts)
    assert centre == (255, 0, 0), "the hole is painted, not cut"
    assert ring == (0, 0, 0)


def test_the_fill_rule_decides_where_outlines_overlap():
    assert _drawn_on_red(symbol({"path": SAME_WAY}))[0] == (0, 0, 0)  # nonzero: SVG's default, game-icons' rule
    assert _drawn_on_red(symbol({"path": SAME_WAY, "fill_rule": "evenodd"}))[0] == (255, 0, 0)


def test_a_single_closed_outline_stays_a_polygon_and_stroked_paths_stay_lines():
    from casebook.generator.symbols import draw_symbol

    one = draw_symbol(symbol({"path": "M10 10 H90 V90 Z"}), 0, 0, 10, 10, "#000000", "#FFFFFF")
    lines = draw_symbol(symbol({"path": RING, "stroke": 4}), 0, 0, 10, 10, "#000000", "#FFFFFF")
    assert [type(i) for i in one] == [Polyline] and one[0].fill == "#000000"
    assert [type(i) for i in lines] == [Polyline, Polyline] and all(i.stroke and not i.fill for i in lines)


def test_a_shape_turned_and_scaled_with_its_scene_keeps_its_hole():
    from casebook.generator.exports.transform import scale_scene, turn_scene
    from casebook.generator.symbols import draw_symbol

    scene = Scene(20, 20, 0.0, [Rect(0, 0, 20, 20, fill="#FF0000")])
    scene.items.extend(draw_symbol(symbol({"path": RING}), 0, 0, 20, 20, "#000000", "#FFFFFF"))
    for moved, k in ((turn_scene(scene), 1), (scale_scene(scene, 2), 2)):
        img = png.render(moved, 254)
        assert img.getpixel((100 * k, 100 * k)) == (255, 0, 0) and img.getpixel((40 * k, 100 * k)) == (0, 0, 0)
