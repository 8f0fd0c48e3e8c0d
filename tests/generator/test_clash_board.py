"""Clash's board: the clock tower's dial and the three influence tracks on one sheet (issue 22,
issue 21 item 4), tiled over two A4/Letter pages like P.I.'s city and whole on A3 at 1:1.

Read from the composed board, never from numbers copied out of the layout: every place a
token goes (an hour space of the dial, a space of an influence track) is at least as large
as that token as printed, no place overlaps another place, the frame or a text that is not
its own number, the dial keeps clear of the board's frame, the hours are large enough to
read across a table, each track runs Moriarty 10 ... 1, 0, Holmes 1 ... 10, and nothing on
the board or its tokens is set under 6 pt.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from casebook.generator.backends.fonts import metrics
from casebook.generator.board import board_size, compose_board, large_page
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Ellipse, Rect, Scene, TextRun
from casebook.generator.units import PT_PER_MM
from casebook.rules.problems import Problems
from tests.generator.test_print_quality import ink_box

DIAL_CLEAR = 3.0  # mm between the dial's ink and the frame's ink
PLACE_CLEAR = 0.5  # mm between a place's ink and any other place, frame or text
HOUR_CAP = 7.0  # mm: the hours' cap height, read from across a table
MIN_PT = 6.0
NAME = "The Clock Tower and the influence tracks"


@pytest.fixture(scope="module", params=["a4", "letter"])
def composed(request):
    problems = Problems()
    result = compose_game("clash", BuildOptions(papers=(request.param,)), problems)
    assert result is not None, problems.format()
    return result


def board(composed) -> Scene:
    sheet = next(s for s in composed.db.sheets if s.id == "board")
    size = board_size(composed.lib, composed.composer, sheet)
    assert size is not None, "the board's layout declares a size of its own"
    scene = compose_board(composed.composer, sheet, size)
    assert scene is not None
    return scene


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


def dial_of(scene: Scene) -> Ellipse:
    return max((e for e in scene.items if isinstance(e, Ellipse)), key=lambda e: e.rx)


def places(scene: Scene) -> list[tuple[Ellipse, TextRun]]:
    """Each number's place: the smallest circle around the number's centre that holds its ink."""
    found = []
    ellipses = [e for e in scene.items if isinstance(e, Ellipse)]
    for run in scene.items:
        if not isinstance(run, TextRun) or not run.text.isdigit():
            continue
        cx, cy = centre_of(run)
        x0, y0, x1, y1 = text_box(run)
        around = [e for e in ellipses if all(math.hypot(px - e.cx, py - e.cy) <= min(e.rx, e.ry)
                                              for px, py in ((cx, cy), (x0, y0), (x1, y0), (x0, y1), (x1, y1)))]
        assert around, f"the number {run.text} stands on no place"
        found.append((min(around, key=lambda e: e.rx), run))
    return found


def hour_places(scene: Scene) -> dict[str, tuple[Ellipse, TextRun]]:
    dial = dial_of(scene)
    hours = {run.text: (e, run) for e, run in places(scene) if math.hypot(e.cx - dial.cx, e.cy - dial.cy) < dial.rx}
    assert sorted(hours, key=int) == [str(n) for n in range(1, 13)]
    return hours


def track_places(scene: Scene) -> list[list[tuple[Ellipse, TextRun]]]:
    """The three tracks' places, each in the order the token walks: from Moriarty's 10 to Holmes' 10."""
    dial = dial_of(scene)
    spaces = [(e, run) for e, run in places(scene) if math.hypot(e.cx - dial.cx, e.cy - dial.cy) >= dial.rx]
    labels = sorted((r for r in scene.items if isinstance(r, TextRun) and r.text.startswith("THREAD ")), key=lambda r: r.y)
    assert [r.text for r in labels] == ["THREAD 1", "THREAD 2", "THREAD 3"]
    tracks = []
    for k, label in enumerate(labels):
        below = labels[k + 1].y if k + 1 < len(labels) else math.inf
        mine = [(e, run) for e, run in spaces if label.y < e.cy < below]
        moriarty = sorted((p for p in mine if p[1].angle == 180), key=lambda p: -int(p[1].text))
        rest = sorted((p for p in mine if p[1].angle == 0), key=lambda p: int(p[1].text))
        tracks.append(moriarty + rest)
    assert sum(len(t) for t in tracks) == len(spaces), "every track space lies below its thread's name"
    return tracks


def frame_of(scene: Scene) -> Rect:
    """The board's frame: the largest stroked rectangle."""
    return max((r for r in scene.items if isinstance(r, Rect) and r.stroke), key=lambda r: r.w * r.h)


def test_every_hour_space_holds_the_time_marker(composed):
    marker = token_size(composed, "time_marker")
    assert marker == 22.0  # the Time Marker is a token like the others
    small = {n: round(2 * min(e.rx, e.ry), 2) for n, (e, _) in hour_places(board(composed)).items()
             if 2 * min(e.rx, e.ry) < marker}
    assert not small, f"hour spaces smaller than the {marker:g} mm Time Marker: {small}"


def test_every_track_space_holds_the_influence_token(composed):
    token = token_size(composed, "influence_tokens")
    small = [(run.text, round(2 * min(e.rx, e.ry), 2)) for track in track_places(board(composed)) for e, run in track
             if 2 * min(e.rx, e.ry) < token]
    assert not small, f"track spaces smaller than the {token:g} mm Influence Token: {small}"


def test_each_track_runs_from_moriarty_10_through_0_to_holmes_10(composed):
    for track in track_places(board(composed)):
        assert [run.text for _, run in track] == [str(n) for n in range(10, 0, -1)] + [str(n) for n in range(0, 11)]
        moriarty, zero, holmes = track[:10], track[10], track[11:]
        # Moriarty's row is nearer his edge (the top) and reads the right way up for him; Holmes' the bottom
        assert max(e.cy for e, _ in moriarty) < zero[0].cy < min(e.cy for e, _ in holmes)
        assert zero[1].angle == 0
        steps = [math.hypot(a.cx - b.cx, a.cy - b.cy) for (a, _), (b, _) in zip(track, track[1:], strict=False)]
        assert max(steps) < 2 * max(e.rx for e, _ in track) + 2, "each space lies next to the one before"


def _overlaps(scene: Scene, found: list[tuple[Ellipse, TextRun]]) -> list[str]:
    """What touches a place: another place, the frame, or a text other than the place's own number."""
    wrong = []
    for (ea, ra), (eb, rb) in combinations(found, 2):
        gap = math.hypot(ea.cx - eb.cx, ea.cy - eb.cy) - ink_radius(ea) - ink_radius(eb)
        if gap < PLACE_CLEAR:
            wrong.append(f"places {ra.text} and {rb.text} at ({ea.cx:.1f}, {ea.cy:.1f}): {gap:.2f} mm apart")
    frame = frame_of(scene)
    inner = (frame.x + frame.width / 2, frame.y + frame.width / 2,
             frame.x + frame.w - frame.width / 2, frame.y + frame.h - frame.width / 2)
    for e, own in found:
        r = ink_radius(e)
        gap = min(e.cx - r - inner[0], e.cy - r - inner[1], inner[2] - e.cx - r, inner[3] - e.cy - r)
        if gap < PLACE_CLEAR:
            wrong.append(f"place {own.text} and the frame: {gap:.2f} mm apart")
        for run in scene.items:
            if not isinstance(run, TextRun) or run is own:
                continue
            x0, y0, x1, y1 = text_box(run)
            nx, ny = min(max(e.cx, x0), x1), min(max(e.cy, y0), y1)  # the text's nearest point to the centre
            if math.hypot(nx - e.cx, ny - e.cy) < r + PLACE_CLEAR:
                wrong.append(f"place {own.text} and the text {run.text!r}")
    return wrong


def test_no_place_overlaps_another_place_the_frame_or_a_text(composed):
    scene = board(composed)
    found = list(hour_places(scene).values()) + [p for track in track_places(scene) for p in track]
    assert len(found) == 12 + 3 * 21
    wrong = _overlaps(scene, found)
    assert not wrong, wrong


def test_the_dial_keeps_clear_of_the_frame_and_the_tracks(composed):
    scene = board(composed)
    dial = dial_of(scene)
    for e, _ in hour_places(scene).values():  # the dial is the circle the hours stand in
        assert math.hypot(e.cx - dial.cx, e.cy - dial.cy) + ink_radius(e) <= dial.rx
    frame = frame_of(scene)
    r = ink_radius(dial)
    half = frame.width / 2
    gaps = {"left": dial.cx - r - (frame.x + half), "top": dial.cy - r - (frame.y + half),
            "right": frame.x + frame.w - half - (dial.cx + r), "bottom": frame.y + frame.h - half - (dial.cy + r)}
    # the title band above the dial is a frame too: a filled bar at least half the board wide (not the ground)
    band_bottom = max((rr.y + rr.h for rr in scene.items if isinstance(rr, Rect) and rr.fill and rr.y + rr.h < dial.cy
                       and scene.width / 2 <= rr.w < scene.width), default=frame.y)
    gaps["band"] = dial.cy - r - band_bottom
    gaps["tracks"] = min(math.hypot(e.cx - dial.cx, e.cy - dial.cy) - ink_radius(e) - r
                         for track in track_places(scene) for e, _ in track)
    close = {side: round(g, 2) for side, g in gaps.items() if g < DIAL_CLEAR}
    assert not close, f"the dial comes closer than {DIAL_CLEAR:g} mm to its frame or the tracks: {close}"


def test_the_hours_are_large(composed):
    m = metrics()
    hours = hour_places(board(composed))
    small = {n: round(m.cap_height(run.font, run.size) / PT_PER_MM, 2) for n, (_, run) in hours.items()
             if m.cap_height(run.font, run.size) / PT_PER_MM < HOUR_CAP}
    assert not small, f"hours under {HOUR_CAP:g} mm high: {small}"
    track_numbers = [run.size for track in track_places(board(composed)) for _, run in track]
    assert min(run.size for _, run in hours.values()) > max(track_numbers)  # the dial reads first


def test_the_twelve_hours_go_clockwise_from_twelve_at_the_top(composed):
    found = hour_places(board(composed))
    cx = sum(e.cx for e, _ in found.values()) / 12
    cy = sum(e.cy for e, _ in found.values()) / 12
    for n, (e, _) in found.items():
        angle = math.degrees(math.atan2(e.cx - cx, cy - e.cy)) % 360
        assert abs((angle - int(n) * 30 + 180) % 360 - 180) < 0.5, (n, angle)


def test_nothing_on_the_board_or_its_tokens_is_under_6_pt(composed):
    small = {("board", r.text, r.size) for r in board(composed).items if isinstance(r, TextRun) and r.size < MIN_PT}
    for cid in ("time_marker", "influence_tokens"):
        face = composed.faces[cid][0]
        for scene in (face.face, face.back):
            small |= {(cid, r.text, r.size) for r in scene.items if isinstance(r, TextRun) and r.size < MIN_PT}
    assert not small, sorted(small)


def test_the_board_tiles_over_two_pages_and_is_whole_on_a3_at_1_to_1(composed):
    scene = board(composed)
    assert (scene.width, scene.height) == (composed.lib.sizes["clash_board"].width, composed.lib.sizes["clash_board"].height)
    (paper,) = composed.pages
    names = Counter(name.split(" · ")[-1] for name, _ in composed.pages[paper] if name.startswith(NAME))
    assert names == {"assembly": 1, "A1": 1, "A2": 1}, names  # an assembly page, then two tiles
    assert large_page(scene.width, scene.height, "a3", composed.lib.settings.page_margin).scale == 1.0
