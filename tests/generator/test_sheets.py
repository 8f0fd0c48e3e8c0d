"""Imposition geometry: cards per sheet, crop marks in the margin, backs behind faces."""

from __future__ import annotations

import math

import pytest

from casebook.generator.sheets import MARK_GAP, MARK_WIDTH, best_plan, fill_sheets, plan_sheet

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.0, 88.0)
LARGE = (70.0, 120.0)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_poker_cards_are_three_by_three(paper):
    plan = plan_sheet(*POKER, *paper, bleed=3.0)
    assert (plan.cols, plan.rows) == (3, 3)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_large_cards_two_by_two(paper):
    plan = plan_sheet(*LARGE, *paper, bleed=3.0)
    assert plan.per_sheet == 4


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("gutter", [0.0, 2.0, 6.0])
@pytest.mark.parametrize("bleed", [0.0, 3.0, 6.0])
@pytest.mark.parametrize("card", [POKER, LARGE, (22.0, 22.0)], ids=["poker", "large", "token"])
def test_crop_marks_stay_in_the_margin(paper, gutter, bleed, card):
    plan = best_plan(*card, *paper, bleed=bleed, gutter=gutter)
    assert plan is not None
    bx0, by0, bx1, by1 = plan.block()
    rooms = (bx0, by0, plan.paper_w - bx1, plan.paper_h - by1)
    assert plan.outer == tuple(min(bleed, r - 5.0) for r in rooms), "the full bleed, short only of the 5 mm margin"
    pw, ph = plan.paper_w, plan.paper_h
    trims = [(s.x, s.y, plan.card_w, plan.card_h) for s in map(plan.slot, range(plan.per_sheet))]
    bleeds = [plan.clip(plan.slot(i)) for i in range(plan.per_sheet)]
    over = plan.marks_over_bleed()
    for (x1, y1), (x2, y2) in plan.crop_marks():
        for x, y in ((x1, y1), (x2, y2)):
            # the mark's ink (round caps of half its width) stays out of the 5 mm margin
            assert 5.0 + MARK_WIDTH / 2 - 1e-9 <= x <= pw - 5.0 - MARK_WIDTH / 2 + 1e-9, "within 5 mm of a side"
            assert 5.0 + MARK_WIDTH / 2 - 1e-9 <= y <= ph - 5.0 - MARK_WIDTH / 2 + 1e-9, "within 5 mm of top or bottom"
        for boxes, what in ((trims, "a card"), (bleeds, "a card's bleed")):
            if what == "a card's bleed" and ((x1, y1), (x2, y2)) in over:
                continue  # a mark over the outer bleed, drawn on a halo
            for cx, cy, cw, ch in boxes:
                overlap_x = min(x1, x2) < cx + cw and max(x1, x2) > cx
                overlap_y = min(y1, y2) < cy + ch and max(y1, y2) > cy
                assert not (overlap_x and overlap_y), f"a crop mark runs into {what}"
        # a mark stands on a trim line and ends at least MARK_GAP short of the card
        assert min(math.dist(p, (cx + dx, cy + dy)) for p in ((x1, y1), (x2, y2)) for cx, cy, cw, ch in trims
                   for dx in (0, cw) for dy in (0, ch)) >= MARK_GAP - 1e-9


def test_every_trim_line_has_marks_top_and_bottom():
    plan = plan_sheet(*POKER, *A4, bleed=3.0)
    xs, ys = plan.trim_lines()
    assert len(xs) == 4 and len(ys) == 4  # abutting: one cut between neighbours
    marks = plan.crop_marks()
    vertical = [m for m in marks if m[0][0] == m[1][0]]
    horizontal = [m for m in marks if m[0][1] == m[1][1]]
    assert sorted({round(m[0][0], 4) for m in vertical}) == xs
    assert sorted({round(m[0][1], 4) for m in horizontal}) == ys
    assert [round(b - a, 6) for a, b in zip(xs, xs[1:], strict=False)] == [63.0] * 3
    assert [round(b - a, 6) for a, b in zip(ys, ys[1:], strict=False)] == [88.0] * 3


def test_gutter_of_twice_the_bleed_gives_every_card_its_bleed():
    plan = plan_sheet(*POKER, *A4, bleed=3.0, gutter=6.0)
    for i in range(plan.per_sheet):
        slot = plan.slot(i)
        x, y, w, h = plan.clip(slot)
        assert (round(slot.x - x, 6), round(slot.y - y, 6)) == (3.0, 3.0)
        assert (round(w, 6), round(h, 6)) == (69.0, 94.0)
    xs, _ = plan.trim_lines()
    assert len(xs) == 2 * plan.cols  # each card's own two cuts


def test_letter_bleed_stops_at_the_margin_and_marks_lie_over_it_on_a_halo():
    plan = plan_sheet(*POKER, *LETTER, bleed=3.0)
    # 7.7 mm above and below the block: 2.7 mm of bleed, and no ink within 5 mm of the edge
    assert plan.outer == pytest.approx((3.0, 2.7, 3.0, 2.7))
    assert any("2.7 mm, not 3" in note and "top and bottom" in note for note in plan.notes)
    assert plan.mark_span("top")[2] and plan.mark_span("bottom")[2]  # no room outside the bleed
    assert not plan.mark_span("left")[2] and not plan.mark_span("right")[2]
    over = plan.marks_over_bleed()
    assert len(over) == 2 * 4  # the four vertical trim lines, top and bottom
    for (x1, y1), (x2, y2) in over:
        assert x1 == x2 and min(y1, y2) >= 5.0 + MARK_WIDTH - 1e-9
        assert max(y1, y2) < plan.y0 or min(y1, y2) > plan.y0 + 3 * 88.0  # over the bleed, short of the trim
    assert any("over the outer bleed" in note for note in plan.notes)
    assert not plan_sheet(*POKER, *A4, bleed=3.0).marks_over_bleed()  # A4 has room outside the bleed
    assert plan_sheet(*POKER, *A4, bleed=3.0).outer == (3.0,) * 4


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("gutter", [0.0, 6.0])
@pytest.mark.parametrize("card", [POKER, LARGE, (22.0, 22.0), (25.0, 25.0)], ids=["poker", "large", "token", "tile"])
def test_no_card_paints_within_5mm_of_the_page_edge(paper, gutter, card):
    full = best_plan(*card, *paper, bleed=3.0, gutter=gutter)
    for count in (full.per_sheet, 1, full.cols + 1):
        plan = full.used(count)
        boxes = [plan.clip(plan.slot(i)) for i in range(count)] + [plan.back_clip(i) for i in range(count)]
        for x, y, w, h in boxes:
            assert x >= 5.0 - 1e-9 and y >= 5.0 - 1e-9, (count, x, y)
            assert x + w <= plan.paper_w - 5.0 + 1e-9 and y + h <= plan.paper_h - 5.0 + 1e-9, (count, x, y, w, h)


def test_a_gutter_that_leaves_fewer_cards_turns_the_sheet_to_landscape():
    portrait = plan_sheet(*POKER, *A4, bleed=3.0, gutter=6.0)
    plan = best_plan(*POKER, *A4, bleed=3.0, gutter=6.0)
    assert portrait.per_sheet == 6
    assert plan.landscape and (plan.paper_w, plan.paper_h) == (297.0, 210.0) and plan.per_sheet == 8
    assert "landscape" in plan.notes[0] and "8 cards a sheet instead of 6" in plan.notes[0]
    assert not best_plan(*POKER, *A4, bleed=3.0).landscape  # 3 x 3 portrait is already best


def test_landscape_backs_flip_on_the_long_top_edge():
    plan = best_plan(*POKER, *A4, bleed=3.0, gutter=6.0)
    for i in range(plan.per_sheet):
        face, back = plan.slot(i), plan.back_slot(i)
        # the long edge is now the top one: y maps to paper_h - y, x stays
        assert back.x == pytest.approx(face.x)
        assert back.y == pytest.approx(plan.paper_h - (face.y + plan.card_h))
        assert back.row == plan.rows - 1 - face.row
    # an offset measured on the portrait calibration page turns with the page (a quarter to the left)
    shifted, plain = plan.back_slot(0, (1.0, 2.0)), plan.back_slot(0)
    assert (shifted.x - plain.x, shifted.y - plain.y) == pytest.approx((-2.0, 1.0))


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("gutter", [0.0, 6.0])
@pytest.mark.parametrize("card", [POKER, LARGE, (22.0, 22.0)], ids=["poker", "large", "token"])
def test_every_sheet_has_a_band_for_its_label_clear_of_marks_and_cards(paper, gutter, card):
    plan = best_plan(*card, *paper, bleed=3.0, gutter=gutter)
    bands = plan.label_bands()
    assert bands, "no room for a label"
    long_enough = [b for b in bands if max(b.w, b.h) >= 100 and min(b.w, b.h) >= 2.0]
    assert long_enough, bands
    bleeds = [plan.clip(plan.slot(i)) for i in range(plan.per_sheet)]
    trims = [(s.x, s.y, plan.card_w, plan.card_h) for s in map(plan.slot, range(plan.per_sheet))]
    for band in bands:
        assert band.x >= 5.0 and band.y >= 5.0 and band.x + band.w <= plan.paper_w - 5.0 and band.y + band.h <= plan.paper_h - 5.0
        for (x1, y1), (x2, y2) in plan.crop_marks():
            hit_x = min(x1, x2) - MARK_WIDTH < band.x + band.w and max(x1, x2) + MARK_WIDTH > band.x
            hit_y = min(y1, y2) - MARK_WIDTH < band.y + band.h and max(y1, y2) + MARK_WIDTH > band.y
            assert not (hit_x and hit_y), ("a label band crosses a mark", band)
        # a band may reach over the outer bleed (it says so: the label goes on a white patch), never a trim
        for cx, cy, cw, ch in trims if band.on_bleed else bleeds:
            assert not (band.x < cx + cw and band.x + band.w > cx and band.y < cy + ch and band.y + band.h > cy)
        assert band.on_bleed == any(band.x < cx + cw and band.x + band.w > cx and band.y < cy + ch
                                    and band.y + band.h > cy for cx, cy, cw, ch in bleeds)


def _grid_without_label(card, paper, bleed, gutter):
    """How many pieces the page holds by the marks alone, as if no sheet had a label."""
    from casebook.generator.sheets import _fit

    return max(_fit(pw, card[0], gutter, 5.0) * _fit(ph, card[1], gutter, 5.0) for pw, ph in (paper, paper[::-1]))


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("gutter", [0.0, 6.0])
@pytest.mark.parametrize("bleed", [0.0, 3.0, 6.0])
@pytest.mark.parametrize("card", [POKER, LARGE, (22.0, 22.0), (25.0, 25.0)], ids=["poker", "large", "token", "tile"])
def test_the_label_costs_no_pieces(paper, gutter, bleed, card):
    plan = best_plan(*card, *paper, bleed=bleed, gutter=gutter)
    assert plan.per_sheet == _grid_without_label(card, paper, bleed, gutter)
    assert plan.has_label_room() and plan.marks_fit()
    assert not any("fewer" in note for note in plan.notes)


def test_letter_tokens_keep_all_twelve_rows_with_the_label_beside_them():
    plan = best_plan(22.0, 22.0, *LETTER, bleed=3.0)
    assert (plan.cols, plan.rows) == (9, 12)  # 108 tokens: the row a label used to cost is back
    assert any("off the centre" in note for note in plan.notes)
    backs = plan.for_backs()
    # the block moved for the label: the backs' block is its mirror image, so every back still lands behind its face
    face_block, back_block = plan.block(), backs.block()
    assert back_block[0] == pytest.approx(plan.paper_w - face_block[2])
    assert back_block[2] == pytest.approx(plan.paper_w - face_block[0])
    xs, ys = backs.trim_lines()
    assert xs == sorted({round(plan.back_slot(i).x + d, 4) for i in range(plan.cols) for d in (0.0, 22.0)})
    assert ys == plan.trim_lines()[1]
    # each side's label strip: the face's on one side, the back's mirrored to the other
    face_band = max(plan.label_bands(), key=lambda b: min(b.w, b.h))
    back_band = max(backs.label_bands(), key=lambda b: min(b.w, b.h))
    assert face_band.turned and back_band.turned and face_band.x < face_block[0] and back_band.x > back_block[2]
    # a centred plan is its own back plan (the sheets that had room are drawn as before)
    a4 = best_plan(*POKER, *A4, bleed=3.0)
    assert a4.for_backs() is a4


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("card", [POKER, (22.0, 22.0), (25.0, 25.0)], ids=["poker", "token", "tile"])
@pytest.mark.parametrize("bleed", [0.0, 3.0, 6.0])
def test_the_drawn_label_is_on_the_page_clear_of_every_trim(paper, card, bleed):
    from casebook.generator.backends.fonts import metrics
    from casebook.generator.furniture import label_run
    from casebook.generator.scene import Rect, TextRun
    from casebook.generator.units import PT_PER_MM

    label = "Detective Graves · Time tokens · sheet 1 of 1 + Trump-change tokens · sheet 1 of 1 · faces"
    m = metrics()
    face = best_plan(*card, *paper, bleed=bleed)
    backs = face.for_backs()
    for plan, offset in ((face, (0.0, 0.0)), (backs, (0.0, 0.0)), (backs, (0.5, -0.5)), (backs, (1.5, -2.0))):
        items = label_run(plan, label, plan.page_offset(offset))
        if not items and max(map(abs, offset)) > 1.0:
            continue  # a back shifted far into a narrow margin may have no room left for its label
        run = next(i for i in items if isinstance(i, TextRun))
        assert run.size >= 4.5
        width = m.width(label, "regular", run.size) / PT_PER_MM
        up, down = m.ascent("regular", run.size) / PT_PER_MM, m.descent("regular", run.size) / PT_PER_MM
        # the glyphs' box; a turned run reads up the page with its glyphs left of the baseline
        text = (run.x - up, run.y - width, up + down, width) if run.angle else (run.x, run.y - up, width, up + down)
        boxes = [text] + [(i.x, i.y, i.w, i.h) for i in items if isinstance(i, Rect)]
        for x, y, w, h in boxes:
            assert x >= 0 and x + w <= plan.paper_w and y >= 0 and y + h <= plan.paper_h, (x, y, w, h)
            for i in range(plan.per_sheet):
                slot = plan.slot(i) if plan is face else face.back_slot(i, offset)
                assert not (x < slot.x + plan.card_w and x + w > slot.x and y < slot.y + plan.card_h
                            and y + h > slot.y), ("the label covers a piece", (x, y, w, h), slot)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_back_sits_behind_its_face_after_a_long_edge_flip(paper):
    plan = plan_sheet(*POKER, *paper, bleed=3.0)
    for i in range(plan.per_sheet):
        face, back = plan.slot(i), plan.back_slot(i)
        # flipping on the long (vertical) edge maps x to paper_w - x; the card's box must coincide
        assert back.x == pytest.approx(paper[0] - (face.x + plan.card_w))
        assert back.y == pytest.approx(face.y)
        assert back.col == plan.cols - 1 - face.col  # a face in the left column has its back on the right


def test_back_offset_shifts_backs():
    plan = plan_sheet(*POKER, *A4, bleed=3.0)
    plain, shifted = plan.back_slot(0), plan.back_slot(0, (1.5, -0.5))
    assert (shifted.x - plain.x, shifted.y - plain.y) == pytest.approx((1.5, -0.5))


def test_partial_sheet_marks_only_the_rows_used():
    plan = plan_sheet(*POKER, *A4, bleed=3.0).used(5)
    assert plan.rows == 2
    _, ys = plan.trim_lines()
    assert len(ys) == 3


def test_calibration_back_cross_moves_with_the_offset():
    from casebook.generator.calibration import calibration_pages
    from casebook.generator.scene import Polyline

    def cross_centre(scene):
        lines = [i for i in scene.items if isinstance(i, Polyline) and i.width >= 0.5]
        (x1, y), (x2, _) = lines[0].points
        return ((x1 + x2) / 2, y)

    _, plain = calibration_pages(*A4, (0.0, 0.0))
    _, shifted = calibration_pages(*A4, (1.5, -1.0))
    assert cross_centre(plain) == pytest.approx((105.0, 148.5))
    assert cross_centre(shifted) == pytest.approx((106.5, 147.5))


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_calibration_has_corner_scales_and_their_crosses_land_on_them(paper):
    from casebook.generator.calibration import calibration_pages, scale_centres
    from casebook.generator.scene import Polyline, TextRun

    front, back = calibration_pages(*paper, (0.0, 0.0))
    centres = scale_centres(*paper)
    assert len(centres) == 5
    w, h = paper
    for cx, cy in centres:
        # every scale: a horizontal and a vertical axis through its centre, with ticks
        axes = [i for i in front.items if isinstance(i, Polyline) and (cx, cy) in (
            ((i.points[0][0] + i.points[1][0]) / 2, (i.points[0][1] + i.points[1][1]) / 2),)]
        assert len(axes) >= 2, (cx, cy)
        # near the corners, and clear of the 5 mm edge
        assert 20 <= cx <= w - 20 and 20 <= cy <= h - 20
    assert {round(x) for x, _ in centres[1:]} == {round(centres[1][0]), round(w - centres[1][0])}
    # the back's crosses, mirrored for the long-edge flip, each centred behind a scale
    bold = [i for i in back.items if isinstance(i, Polyline) and i.width >= 0.5]
    crosses = {(round((i.points[0][0] + i.points[1][0]) / 2, 3), round((i.points[0][1] + i.points[1][1]) / 2, 3))
               for i in bold}
    assert crosses == {(round(w - cx, 3), round(cy, 3)) for cx, cy in centres}
    text = " ".join(i.text for i in front.items if isinstance(i, TextRun))
    assert "corners disagree" in text and "skew" in text and "scaled" in text
    assert "between -5 and 5" in text


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_a_card_beside_an_empty_slot_keeps_its_whole_bleed_there(paper):
    plan = plan_sheet(*POKER, *paper, bleed=3.0).used(5)  # 3 + 2: slots 5 (below card 2) and 6 stay empty
    assert plan.bleeds(2)[3] == 3.0  # card 2's bottom: the empty slot below it
    assert plan.bleeds(4)[2] == 3.0  # card 4's right: the empty slot beside it
    assert plan.bleeds(1)[3] == 0.0  # card 1 abuts card 4 below it
    x, y, w, h = plan.clip(plan.slot(4))
    assert x + w == pytest.approx(plan.slot(4).x + 63.0 + 3.0)
    # on the back page the empty slot is on the other side: the back keeps its bleed there too
    back = plan.back_slot(4)
    bx, by, bw, bh = plan.back_clip(4)
    assert bx == pytest.approx(back.x - 3.0) and bx + bw == pytest.approx(back.x + 63.0)
    bx, by, bw, bh = plan.back_clip(2, (0.5, -1.0))
    assert by + bh == pytest.approx(plan.back_slot(2, (0.5, -1.0)).y + 88.0 + 3.0)


def test_a_lone_token_is_marked_alone():
    full = best_plan(22.0, 22.0, *A4, bleed=3.0)
    plan = full.used(1)
    assert (plan.cols, plan.rows) == (1, 1)
    xs, ys = plan.trim_lines()
    assert len(xs) == 2 and len(ys) == 2  # no marks for the empty columns and rows
    assert len(plan.crop_marks()) == 8
    assert plan.clip(plan.slot(0))[2:] == (28.0, 28.0)


def _grouped(sheets):
    return [[card[0] for card in batch] for _, batch in sheets]


def test_abutting_cards_share_a_sheet_only_with_their_own_back():
    plain = plan_sheet(*POKER, *A4, bleed=3.0)
    spaced = best_plan(*POKER, *A4, bleed=3.0, gutter=6.0)
    sites = [("site", n) for n in range(7)]
    crimes = [("crime", n) for n in range(9)]
    victims = [("victim", n) for n in range(2)]
    sheets = fill_sheets([sites, crimes], plain, spaced)
    # a sheet for each: pooling 7 + 0 left over would save nothing
    assert _grouped(sheets) == [["crime"] * 9, ["site"] * 7]
    assert all(plan.gutter == 0.0 for plan, _ in sheets)
    # three remainders (7, 2, 4) fit on two spaced sheets instead of three: each card its own bleed there
    agents = [("agent", n) for n in range(4)]
    sheets = fill_sheets([sites, victims, agents], plain, spaced)
    assert len(sheets) == 2
    for plan, batch in sheets:
        if len({card[0] for card in batch}) > 1:
            assert plan.gutter == 6.0 and all(plan.bleeds(i) == (3.0,) * 4 for i in range(len(batch)))
    # with a gutter of twice the bleed already, any cards share sheets in order
    sheets = fill_sheets([sites, crimes], spaced, spaced)
    assert [len(batch) for _, batch in sheets] == [8, 8]


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("count", [1, 5, 30])
def test_a_part_filled_sheets_label_keeps_to_the_page_edge(paper, count):
    from casebook.generator.furniture import label_run
    from casebook.generator.scene import TextRun

    for card in (POKER, (25.0, 25.0), (22.0, 22.0)):
        full = best_plan(*card, *paper, bleed=3.0)
        plan = full.used(min(count, full.per_sheet))
        run = next(i for i in label_run(plan, "P.I. · Suspect tiles · sheet 1 of 1 · faces", (0.0, 0.0))
                   if isinstance(i, TextRun))
        # the baseline within 4 mm of the 5 mm margin on some side, as on a full sheet, not in the middle of the page
        far = (run.x, run.y, plan.paper_w - run.x, plan.paper_h - run.y)
        assert min(far) <= 9.0, (card, count, run)


def test_remainders_share_sheets_whole_so_no_card_is_left_alone():
    """P.I.'s case cards: 12, 10 and 14 leave 3, 1 and 5; pooled in order they filled a spaced sheet of 8 and
    left the last location alone on a sheet. Grouped whole: the 5 on a plain sheet, the 3 and the 1 on a spaced one."""
    plain = plan_sheet(*POKER, *A4, bleed=3.0)
    spaced = best_plan(*POKER, *A4, bleed=3.0, gutter=6.0)
    assert (plain.per_sheet, spaced.per_sheet) == (9, 8)
    suspects = [("suspect", n) for n in range(12)]
    crimes = [("crime", n) for n in range(10)]
    locations = [("location", n) for n in range(14)]
    sheets = fill_sheets([suspects, crimes, locations], plain, spaced)
    assert [len(batch) for _, batch in sheets] == [9, 9, 9, 4, 5]  # as few sheets as pooling in order (2 for the rest)
    assert _grouped(sheets)[3:] == [["suspect"] * 3 + ["crime"], ["location"] * 5]
    assert sheets[3][0].gutter == 6.0 and sheets[4][0].gutter == 0.0  # a back alone abuts; mixed backs are spaced
