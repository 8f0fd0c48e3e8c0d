"""The Clash clock tower and influence tracks as boards a token is put on (issue 21 item 4).

Read from the composed scenes, never from numbers copied out of the layouts: every place a
token goes (an hour space of the dial, a space of an influence track) is at least as large
as that token as printed, no place overlaps another place, a frame or a text that is not
its own number, the dial keeps clear of the board's frame, the hours are large enough to
read across a table, and nothing on the clock tower or its tokens is set under 6 pt.
"""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from casebook.generator.backends.fonts import metrics
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Ellipse, Rect, Scene, TextRun
from casebook.generator.units import PT_PER_MM
from casebook.rules.problems import Problems
from tests.generator.test_print_quality import ink_box

DIAL_CLEAR = 3.0  # mm between the dial's ink and the frame's ink
PLACE_CLEAR = 0.5  # mm between a place's ink and any other place, frame or text
HOUR_CAP = 6.0  # mm: the hours' cap height, read from across a table (about 1:200 of 1.2 m)
MIN_PT = 6.0


@pytest.fixture(scope="module", params=["a4", "letter"])
def composed(request):
    problems = Problems()
    result = compose_game("clash", BuildOptions(papers=(request.param,)), problems)
    assert result is not None, problems.format()
    return result


def token_size(composed, cid: str) -> float:
    """A token's printed size: the smaller side of its trim (a round token's diameter)."""
    scene = composed.faces[cid][0].face
    return min(scene.width, scene.height) - 2 * scene.bleed


def text_box(run: TextRun) -> tuple[float, float, float, float]:
    box = ink_box(run)
    assert box is not None
    return box


def ink_radius(e: Ellipse) -> float:
    return max(e.rx, e.ry) + (e.width / 2 if e.stroke else 0.0)


def centre_of(run: TextRun) -> tuple[float, float]:
    x0, y0, x1, y1 = text_box(run)
    cap = metrics().cap_height(run.font, run.size) / PT_PER_MM
    return ((x0 + x1) / 2, run.y - cap / 2 if run.angle == 0 else (y0 + y1) / 2)


def places(scene: Scene, numbers: list[str]) -> dict[str, tuple[Ellipse, TextRun]]:
    """Each number's place: the smallest circle around the number's centre that holds its ink."""
    found: dict[str, tuple[Ellipse, TextRun]] = {}
    ellipses = [e for e in scene.items if isinstance(e, Ellipse)]
    for run in scene.items:
        if not isinstance(run, TextRun) or run.text not in numbers or run.text in found:
            continue
        cx, cy = centre_of(run)
        x0, y0, x1, y1 = text_box(run)
        around = [e for e in ellipses if all(math.hypot(px - e.cx, py - e.cy) <= min(e.rx, e.ry)
                                              for px, py in ((cx, cy), (x0, y0), (x1, y0), (x0, y1), (x1, y1)))]
        assert around, f"the number {run.text} stands on no place"
        found[run.text] = (min(around, key=lambda e: e.rx), run)
    assert sorted(found, key=int) == numbers, (sorted(found), numbers)
    return found


def frame_of(scene: Scene) -> Rect:
    """The board's frame: the largest stroked rectangle."""
    return max((r for r in scene.items if isinstance(r, Rect) and r.stroke), key=lambda r: r.w * r.h)


def clock(composed) -> Scene:
    return composed.faces["clock_tower"][0].face


def hour_places(composed):
    return places(clock(composed), [str(n) for n in range(1, 13)])


def track_faces(composed):
    return [(f.face, [str(n) for n in range(1, f.card.data["length"] + 1)]) for f in composed.faces["track_pieces"]]


def test_every_hour_space_holds_the_time_marker(composed):
    marker = token_size(composed, "time_marker")
    small = {n: round(2 * min(e.rx, e.ry), 2) for n, (e, _) in hour_places(composed).items()
             if 2 * min(e.rx, e.ry) < marker}
    assert not small, f"hour spaces smaller than the {marker:g} mm Time Marker: {small}"


def test_every_track_space_holds_the_influence_token(composed):
    token = token_size(composed, "influence_tokens")
    for scene, numbers in track_faces(composed):
        small = {n: round(2 * min(e.rx, e.ry), 2) for n, (e, _) in places(scene, numbers).items()
                 if 2 * min(e.rx, e.ry) < token}
        assert not small, f"track spaces smaller than the {token:g} mm Influence Token: {small}"


def _overlaps(scene: Scene, found: dict[str, tuple[Ellipse, TextRun]]) -> list[str]:
    """What touches a place: another place, the frame, or a text other than the place's own number."""
    wrong = []
    for (a, (ea, _)), (b, (eb, _)) in combinations(found.items(), 2):
        gap = math.hypot(ea.cx - eb.cx, ea.cy - eb.cy) - ink_radius(ea) - ink_radius(eb)
        if gap < PLACE_CLEAR:
            wrong.append(f"places {a} and {b}: {gap:.2f} mm apart")
    frame = frame_of(scene)
    inner = (frame.x + frame.width / 2, frame.y + frame.width / 2,
             frame.x + frame.w - frame.width / 2, frame.y + frame.h - frame.width / 2)
    for n, (e, own) in found.items():
        r = ink_radius(e)
        gap = min(e.cx - r - inner[0], e.cy - r - inner[1], inner[2] - e.cx - r, inner[3] - e.cy - r)
        if gap < PLACE_CLEAR:
            wrong.append(f"place {n} and the frame: {gap:.2f} mm apart")
        for run in scene.items:
            if not isinstance(run, TextRun) or run is own:
                continue
            x0, y0, x1, y1 = text_box(run)
            nx, ny = min(max(e.cx, x0), x1), min(max(e.cy, y0), y1)  # the text's nearest point to the centre
            if math.hypot(nx - e.cx, ny - e.cy) < r + PLACE_CLEAR:
                wrong.append(f"place {n} and the text {run.text!r}")
    return wrong


def test_no_place_overlaps_another_place_the_frame_or_a_text(composed):
    wrong = _overlaps(clock(composed), hour_places(composed))
    for scene, numbers in track_faces(composed):
        wrong += _overlaps(scene, places(scene, numbers))
    assert not wrong, wrong


def test_the_dial_keeps_clear_of_the_frame(composed):
    scene = clock(composed)
    dial = max((e for e in scene.items if isinstance(e, Ellipse)), key=lambda e: e.rx)
    for e, _ in hour_places(composed).values():  # the dial is the circle the hours stand in
        assert math.hypot(e.cx - dial.cx, e.cy - dial.cy) + ink_radius(e) <= dial.rx
    frame = frame_of(scene)
    r = ink_radius(dial)
    half = frame.width / 2
    gaps = {"left": dial.cx - r - (frame.x + half), "top": dial.cy - r - (frame.y + half),
            "right": frame.x + frame.w - half - (dial.cx + r), "bottom": frame.y + frame.h - half - (dial.cy + r)}
    # the name band above the dial is a frame too: a filled bar at least half the board wide (not the ground)
    trim_w = scene.width - 2 * scene.bleed
    band_bottom = max((rr.y + rr.h for rr in scene.items if isinstance(rr, Rect) and rr.fill and rr.y + rr.h < dial.cy
                       and trim_w / 2 <= rr.w < trim_w), default=frame.y)
    gaps["band"] = dial.cy - r - band_bottom
    close = {side: round(g, 2) for side, g in gaps.items() if g < DIAL_CLEAR}
    assert not close, f"the dial comes closer than {DIAL_CLEAR:g} mm to its frame: {close}"


def test_the_hours_are_large(composed):
    m = metrics()
    small = {n: round(m.cap_height(run.font, run.size) / PT_PER_MM, 2) for n, (_, run) in hour_places(composed).items()
             if m.cap_height(run.font, run.size) / PT_PER_MM < HOUR_CAP}
    assert not small, f"hours under {HOUR_CAP:g} mm high: {small}"


def test_the_twelve_hours_go_clockwise_from_twelve_at_the_top(composed):
    found = hour_places(composed)
    cx = sum(e.cx for e, _ in found.values()) / 12
    cy = sum(e.cy for e, _ in found.values()) / 12
    for n, (e, _) in found.items():
        angle = math.degrees(math.atan2(e.cx - cx, cy - e.cy)) % 360
        assert abs((angle - int(n) * 30 + 180) % 360 - 180) < 0.5, (n, angle)


def test_nothing_on_the_clock_tower_or_its_tokens_is_under_6_pt(composed):
    small = set()
    for cid in ("clock_tower", "time_marker", "influence_tokens"):
        face = composed.faces[cid][0]
        for scene in (face.face, face.back):
            small |= {(cid, r.text, r.size) for r in scene.items if isinstance(r, TextRun) and r.size < MIN_PT}
    assert not small, sorted(small)
