"""What a print-and-play review checks: any bleed builds, lengths a template prints parse,
absurd back offsets are refused, PNG names number the designs without gaps."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from casebook.cli import main
from casebook.generator.backends.fonts import metrics
from casebook.generator.build import BuildOptions, compose_game, export_pngs
from casebook.generator.legibility import ICON_CONTRAST_MIN, contrast, relative_luminance
from casebook.generator.scene import Ellipse, Polyline, Rect, TextRun
from casebook.generator.units import PT_PER_MM, parse_length
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems

M = metrics()


@pytest.mark.parametrize("text, mm", [("3.55e-15", 3.55e-15), ("-0.0", 0.0), ("-0", 0.0), ("1E1mm", 10.0),
                                      ("+0.5in", 12.7), ("2.5e-1 cm", 2.5), (-0.0, 0.0), (".5", 0.5)])
def test_lengths_take_any_float_a_template_prints(text, mm):
    got = parse_length(text)
    assert got == pytest.approx(mm, abs=1e-18)
    assert str(got) != "-0.0"  # negative zero comes out as plain zero


@pytest.mark.parametrize("bad", ["nan", "inf", float("nan"), float("inf"), "1e", "e5", "--1", "1.2.3"])
def test_lengths_refuse_what_is_not_a_finite_number(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


@pytest.mark.parametrize("bleed", ["0", "0.1", "6"])
def test_every_game_builds_at_any_bleed(bleed, tmp_path, capsys):
    games = game_folders()
    assert {"graves", "syndicate"} <= set(games)
    assert main(["build", *games, "--paper", "a4", "--bleed", bleed, "--out", str(tmp_path)]) == 0, \
        capsys.readouterr().err
    for game in games:
        assert (tmp_path / game / f"{game}-a4.pdf").stat().st_size > 10_000


@pytest.mark.parametrize("offset", ["15,12", "0,-5.5", "nan,0"])
def test_an_absurd_back_offset_is_refused_with_the_range(offset, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["build", "graves", f"--back-offset={offset}"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "between -5 and 5 mm" in err and "Traceback" not in err


def test_png_names_number_each_design_without_gaps(tmp_path):
    problems = Problems()
    composed = compose_game("graves", BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    out = tmp_path / "png"
    export_pngs(composed, out, BuildOptions(dpi=12, workers=1))
    for cid, faces in composed.faces.items():
        names = sorted(p.name for p in (out / cid).glob("*.png"))
        designs = list(dict.fromkeys(f.card.id for f in faces))
        numbers: dict[str, set[str]] = defaultdict(set)
        for name in names:
            m = re.fullmatch(r"(\d{3})-([a-z0-9_]+?)(?:-x(\d+))?-(face|back)\.png", name)
            assert m, name
            numbers[m[1]].add(m[4])
            copies = next(f.card.copies for f in faces if f.card.id == m[2])
            assert (int(m[3]) if m[3] else 1) == copies, name
            assert designs.index(m[2]) + 1 == int(m[1]), name  # numbered in print order
        assert sorted(numbers) == [f"{n:03d}" for n in range(1, len(designs) + 1)], cid
        assert all(sides == {"face", "back"} for sides in numbers.values())
    # the 28 time tokens are one design printed 28 times; the trump tokens five designs of two
    assert [p.name for p in (out / "time_tokens").glob("*-face.png")] == ["001-time_token-x28-face.png"]
    assert sorted(p.name[:3] for p in (out / "trump_tokens").glob("*-face.png")) == ["001", "002", "003", "004", "005"]


# --- the composed cards: safe zone, duplex-proof backs, legibility ---------------------------


@pytest.fixture(scope="module", params=["graves", "syndicate"])
def composed(request):
    problems = Problems()
    result = compose_game(request.param, BuildOptions(papers=("a4",)), problems)
    assert result is not None, problems.format()
    return result


def ink_box(item) -> tuple[float, float, float, float] | None:
    """The box an item's ink covers (x0, y0, x1, y1 in the scene's mm), strokes and glyphs included."""
    if isinstance(item, TextRun):
        w = M.width(item.text, item.font, item.size) / PT_PER_MM
        a, d = M.ascent(item.font, item.size) / PT_PER_MM, M.descent(item.font, item.size) / PT_PER_MM
        return {0: (item.x, item.y - a, item.x + w, item.y + d), 180: (item.x - w, item.y - d, item.x, item.y + a),
                90: (item.x - d, item.y, item.x + a, item.y + w),
                270: (item.x - a, item.y - w, item.x + d, item.y)}[round(item.angle) % 360]
    half = item.width / 2 if getattr(item, "stroke", None) else 0.0
    if isinstance(item, Rect):
        return (item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half)
    if isinstance(item, Ellipse):
        return (item.cx - item.rx - half, item.cy - item.ry - half, item.cx + item.rx + half, item.cy + item.ry + half)
    if isinstance(item, Polyline):
        xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
        return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)
    return None


SAFE = 3.0  # mm inside the trim


def test_face_frames_and_text_keep_to_the_safe_zone(composed):
    """Every stroke and every glyph on a face lies 3 mm or more inside the trim; only fills reach the bleed."""
    outside = set()
    for cid, faces in composed.faces.items():
        for face in faces:
            scene, b = face.face, face.face.bleed
            lo_x, lo_y, hi_x, hi_y = b + SAFE, b + SAFE, scene.width - b - SAFE, scene.height - b - SAFE
            for item in scene.items:
                if not isinstance(item, TextRun) and not getattr(item, "stroke", None):
                    continue  # a fill: grounds run into the bleed by design
                x0, y0, x1, y1 = ink_box(item)
                if x0 < lo_x - 1e-6 or y0 < lo_y - 1e-6 or x1 > hi_x + 1e-6 or y1 > hi_y + 1e-6:
                    outside.add((cid, type(item).__name__, getattr(item, "text", ""), round(x0 - b, 2), round(y0 - b, 2)))
    assert not outside, sorted(outside)[:10]


DUPLEX_CLEAR = 5.0  # mm: what a back draws near its trim must run through the bleed, or keep this far in


def test_backs_have_nothing_that_follows_the_edge(composed):
    """A back printed off by a millimetre must not show it: no frame, no edge line.

    Each item either crosses the whole card in a direction (ground, pattern lines, a band
    through the bleed) or stays DUPLEX_CLEAR mm inside the trim in that direction.
    """
    near_edge = set()
    for cid, faces in composed.faces.items():
        scene = faces[0].back
        b = scene.bleed
        for item in scene.items:
            box = ink_box(item)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            if x1 <= 0 or y1 <= 0 or x0 >= scene.width or y0 >= scene.height:
                continue  # wholly off the card
            if isinstance(item, Polyline) and not item.closed:
                ends = (item.points[0], item.points[-1])
                edge = 0.05  # template arithmetic may stop a line a hair inside the bleed's edge
                if all(not (edge < x < scene.width - edge and edge < y < scene.height - edge) for x, y in ends):
                    continue  # a pattern line: it enters and leaves through the bleed
            for lo, hi, size in ((x0, x1, scene.width), (y0, y1, scene.height)):
                crosses = lo <= 1e-6 and hi >= size - 1e-6
                inside = lo >= b + DUPLEX_CLEAR - 1e-6 and hi <= size - b - DUPLEX_CLEAR + 1e-6
                if not (crosses or inside):
                    near_edge.add((cid, type(item).__name__, getattr(item, "text", ""), round(lo - b, 2), round(hi - b, 2)))
    assert not near_edge, sorted(near_edge)[:10]


def test_deck_cards_read_upside_down_too(composed):
    """Every card with a rank shows it in the top-left corner and, turned, in the bottom-right."""
    checked = 0
    for faces in composed.faces.values():
        for face in faces:
            rank = face.card.data.get("rank")
            if rank is None or str(rank) == "crown":  # a Crown shows a crown symbol, turned likewise
                continue
            scene, b = face.face, face.face.bleed
            runs = [r for r in scene.items if isinstance(r, TextRun) and r.text == str(rank)]
            upright = [r for r in runs if r.angle == 0 and r.x - b < 15 and r.y - b < 16]
            turned = [r for r in runs if r.angle == 180 and r.x - b > scene.width - 2 * b - 15
                      and r.y - b > scene.height - 2 * b - 16]
            assert upright and turned, (face.card.id, runs)
            checked += 1
    assert checked >= 30


def _ground(scene, index: int, x: float, y: float) -> str:
    """The colour under a point just before item `index` is drawn: the last filled rect or disc there."""
    for item in reversed(scene.items[:index]):
        if isinstance(item, Rect) and item.fill and item.x <= x <= item.x + item.w and item.y <= y <= item.y + item.h:
            return item.fill
        if isinstance(item, Ellipse) and item.fill and ((x - item.cx) / item.rx) ** 2 + ((y - item.cy) / item.ry) ** 2 <= 1:
            return item.fill
    return "#FFFFFF"


def _index_items(scene):
    """What the corner indexes draw (anchor within 13 x 26 mm of the top-left or, turned, the bottom-right
    corner), each with its colour and the colour it stands on."""
    b = scene.bleed
    w, h = scene.width - 2 * b, scene.height - 2 * b
    for index, item in enumerate(scene.items):
        if isinstance(item, TextRun):
            x, y, colour = item.x - b, item.y - b, item.colour
        elif isinstance(item, Polyline | Ellipse) and not isinstance(item, Rect):
            box = ink_box(item)
            x, y = (box[0] + box[2]) / 2 - b, (box[1] + box[3]) / 2 - b
            colour = item.fill or item.stroke
        else:
            continue
        in_corner = (3.5 <= x <= 13 and 3.5 <= y <= 26) or (w - 13 <= x <= w - 3.5 and h - 26 <= y <= h - 3.5)
        if in_corner and colour:
            yield item, colour, _ground(scene, index, x + b, y + b)


@pytest.mark.parametrize("ink_saver", [False, True])
def test_corner_indexes_reach_3_to_1_against_the_paper(ink_saver):
    for game in ("graves", "syndicate"):
        problems = Problems()
        composed = compose_game(game, BuildOptions(papers=("a4",), ink_saver=ink_saver), problems)
        assert composed is not None, problems.format()
        worst: dict[str, float] = {}
        for faces in composed.faces.values():
            for face in faces:
                if "rank" not in face.card.data:
                    continue  # no corner index (locations, tokens)
                for _, colour, ground in _index_items(face.face):
                    if colour.upper() == ground.upper():
                        continue  # a knockout: the ground showing through a symbol
                    ratio = contrast(colour, ground)
                    worst[colour] = min(worst.get(colour, 99.0), ratio)
        assert worst, game
        low = {c: round(r, 2) for c, r in worst.items() if r < ICON_CONTRAST_MIN}
        assert not low, (game, ink_saver, low)


def test_wcag_contrast_is_computed_as_the_standard_says():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast("#E69F00", "#FBF7EC") == pytest.approx(2.1, abs=0.05)  # the Suns the review flagged (2:1)
    assert relative_luminance("#FFFFFF") == pytest.approx(1.0)


def _probe(tmp_path, element: str):
    """A copy of layouts/ whose Graves evidence face carries one more element; the composed game's problems."""
    import shutil

    from casebook.generator.layouts import LAYOUTS_DIR

    root = tmp_path / "layouts"
    shutil.copytree(LAYOUTS_DIR, root)
    face = root / "graves" / "evidence-face.yaml"
    face.write_text(face.read_text(encoding="utf-8") + element, encoding="utf-8")
    problems = Problems()
    compose_game("graves", BuildOptions(papers=("a4",), layouts_dir=root), problems)
    return problems, face


def test_game_text_set_under_6_pt_is_reported_with_card_and_field(tmp_path):
    problems, face = _probe(tmp_path, (
        "  - id: suspect_hint\n    type: text\n    x: 5\n    y: 40\n    w: 10\n    h: 3\n"
        "    text: \"{{ by_id[card.viable[0]].name }}\"\n    size: 5.3\n    game_text: true\n"))
    text = problems.format()
    assert "game text 'suspect_hint' is set at 5.3 pt, under the 6 pt" in text, text
    assert "card 'evidence_" in text and f"{face.name}:" in text
    assert text.count("suspect_hint") >= 10  # each of the ten evidence cards, named


def test_only_text_marked_as_fine_print_may_be_small(tmp_path):
    problems, _ = _probe(tmp_path, (
        "  - id: tiny_credit\n    type: text\n    x: 5\n    y: 40\n    w: 40\n    h: 3\n    text: credit\n    size: 4.5\n"
        "    fine_print: true\n"))
    assert not problems, problems.format()
    problems, _ = _probe(tmp_path / "unmarked", (
        "  - id: tiny_credit\n    type: text\n    x: 5\n    y: 40\n    w: 40\n    h: 3\n    text: credit\n    size: 4.5\n"))
    assert "game text 'tiny_credit' is set at 4.5 pt, under the 6 pt" in problems.format()


def test_validate_reports_small_game_text(tmp_path, capsys):
    import shutil

    from casebook.generator.layouts import LAYOUTS_DIR

    root = tmp_path / "layouts"
    shutil.copytree(LAYOUTS_DIR, root)
    face = root / "graves" / "identity-face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace("size: 12\n    min_size: 8", "size: 5.5\n    min_size: 5"),
                    encoding="utf-8")
    assert main(["validate", "graves", "--layouts", str(root)]) == 1
    out = capsys.readouterr().out
    assert "game text 'name' is set at 5.5 pt" in out and "card 'ezra" in out.lower()


def test_the_build_says_what_it_changed_by_itself(tmp_path, capsys):
    assert main(["build", "graves", "--paper", "a4", "--gutter", "6", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "note: a4, poker cards: sheets turned to landscape: 8 cards a sheet instead of 6" in out
    assert main(["build", "graves", "--paper", "letter", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "note:" not in captured.out + captured.err  # marks over the bleed: Letter's normal way, not a note
    assert "narrowed" not in captured.out + captured.err  # the bleed is kept whole
