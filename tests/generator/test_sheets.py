"""Imposition geometry: cards per sheet, crop marks in the margin, backs behind faces."""

from __future__ import annotations

import pytest

from generator.sheets import MARK_GAP, plan_sheet

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
@pytest.mark.parametrize("card", [POKER, LARGE, (22.0, 22.0)], ids=["poker", "large", "token"])
def test_crop_marks_stay_in_the_margin(paper, gutter, card):
    plan = plan_sheet(*card, *paper, bleed=3.0, gutter=gutter)
    assert plan is not None
    cards = [plan.clip(plan.slot(i)) for i in range(plan.per_sheet)]  # each card with the bleed it owns
    for (x1, y1), (x2, y2) in plan.crop_marks():
        for x, y in ((x1, y1), (x2, y2)):
            assert 5.0 - 1e-9 <= x <= paper[0] - 5.0 + 1e-9, "a mark is within 5 mm of a side"
            assert 5.0 - 1e-9 <= y <= paper[1] - 5.0 + 1e-9, "a mark is within 5 mm of the top or bottom"
        for cx, cy, cw, ch in cards:
            # a mark segment and a card (with its bleed) never overlap
            overlap_x = min(x1, x2) < cx + cw and max(x1, x2) > cx
            overlap_y = min(y1, y2) < cy + ch and max(y1, y2) > cy
            assert not (overlap_x and overlap_y), "a crop mark runs into a card or its bleed"


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


def test_letter_narrows_outer_bleed_only_where_marks_need_room():
    plan = plan_sheet(*POKER, *LETTER, bleed=3.0)
    left, top, right, bottom = plan.outer
    assert left == right == 3.0
    assert 0 < top == bottom < 3.0
    assert plan.notes and "narrowed" in plan.notes[0]
    # the mark still stands clear of the bleed
    assert plan.y0 - top - MARK_GAP - plan.mark_len[1] >= 5.0 - 1e-9


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
    from generator.calibration import calibration_pages
    from generator.scene import Polyline

    def cross_centre(scene):
        lines = [i for i in scene.items if isinstance(i, Polyline) and i.width >= 0.5]
        (x1, y), (x2, _) = lines[0].points
        return ((x1 + x2) / 2, y)

    _, plain = calibration_pages(*A4, (0.0, 0.0))
    _, shifted = calibration_pages(*A4, (1.5, -1.0))
    assert cross_centre(plain) == pytest.approx((105.0, 148.5))
    assert cross_centre(shifted) == pytest.approx((106.5, 147.5))
