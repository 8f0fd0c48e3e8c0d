"""Small pieces ride below a part-filled sheet's cards instead of taking a sheet (and its back) of their own.

Issue 21 item 5: Hasty's one 22 mm loupe took a whole A4 sheet and its back. A block placed
below another (SheetPlan.below) keeps its own bleed and crop marks, parted from the block
above by one cut across the page; its backs land behind its faces like any card's.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from casebook.generator.build import BuildOptions, card_sheets, compose_game
from casebook.generator.furniture import cut_lines
from casebook.generator.scene import Polyline
from casebook.generator.sheets import RIDER_GAP, SheetPlan, best_plan, plan_sheet
from casebook.rules.problems import Problems

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.0, 88.0)
TOKEN = (22.0, 22.0)


def _placed(paper: tuple[float, float], host_cards: int, rider_cards: int, gutter: float = 0.0
            ) -> tuple[SheetPlan, SheetPlan]:
    host = plan_sheet(*POKER, *paper, bleed=3.0, gutter=gutter)
    token = plan_sheet(*TOKEN, *paper, bleed=3.0, gutter=6.0, labels=False)
    assert host is not None and token is not None
    host = host.used(host_cards)
    rider = host.below(token.used(rider_cards))
    assert rider is not None
    return host, rider


def _bleed_box(plan: SheetPlan) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = plan.block()
    left, top, right, bottom = plan.outer
    return (x0 - left, y0 - top, x1 + right, y1 + bottom)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize(("host_cards", "rider_cards"), [(2, 1), (3, 7), (5, 14)])
def test_a_block_below_keeps_its_bleed_and_its_marks_clear_of_the_block_above(paper, host_cards, rider_cards):
    host, rider = _placed(paper, host_cards, rider_cards)
    hx0, hy0, hx1, hy1 = _bleed_box(host)
    rx0, ry0, rx1, ry1 = _bleed_box(rider)
    assert rider.outer == (3.0, 3.0, 3.0, 3.0), "every card of the block below keeps its whole bleed"
    assert ry0 - hy1 >= 2 * 3.0, "the two blocks' bleeds stand at least twice the bleed apart"
    host_tips = max(max(a[1], b[1]) for a, b in host.crop_marks())
    rider_tips = min(min(a[1], b[1]) for a, b in rider.crop_marks())
    assert rider_tips - host_tips >= RIDER_GAP - 1e-9, "the marks of the two blocks do not meet"
    assert host_tips < host.parting(rider) < rider_tips, "one cut across the page parts them, between the marks"
    over = rider.marks_over_bleed()  # where the margin is narrow: on a white halo, as on any sheet
    tx0, ty0, tx1, ty1 = rider.block()
    for (x1, y1), (x2, y2) in rider.crop_marks():
        assert min(y1, y2) > hy1 and min(x1, x2) > 5.0 and max(x1, x2) < rider.paper_w - 5.0
        assert max(y1, y2) < rider.paper_h - 5.0
        for (bx0, by0, bx1, by1), what in (((rx0, ry0, rx1, ry1), "bleed"), ((tx0, ty0, tx1, ty1), "trim")):
            if what == "bleed" and ((x1, y1), (x2, y2)) in over:
                continue
            inside_x = min(x1, x2) < bx1 - 1e-9 and max(x1, x2) > bx0 + 1e-9
            inside_y = min(y1, y2) < by1 - 1e-9 and max(y1, y2) > by0 + 1e-9
            assert not (inside_x and inside_y), f"a mark of the block below runs into its cards' {what}"


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_a_lone_piece_below_is_marked_on_its_own_trim_lines_only(paper):
    """No mark for empty columns: one 22 mm token has two marks on each side, no more."""
    _, rider = _placed(paper, 2, 1)
    xs, ys = rider.trim_lines()
    assert (len(xs), len(ys)) == (2, 2)
    assert len(rider.crop_marks()) == 8


def test_backs_below_mirror_about_the_page_like_the_faces():
    host, rider = _placed(A4, 2, 3)
    for i in range(3):
        face, back = rider.slot(i), rider.back_slot(i, (0.4, -0.3))
        assert back.y == pytest.approx(face.y - 0.3)
        assert back.x == pytest.approx(rider.paper_w - face.x - rider.card_w + 0.4)


def test_nothing_rides_where_it_does_not_fit_or_on_a_landscape_page():
    full = plan_sheet(*POKER, *A4, bleed=3.0)
    token = plan_sheet(*TOKEN, *A4, bleed=3.0, gutter=6.0, labels=False)
    assert full is not None and token is not None
    assert full.below(token.used(1)) is None, "3 x 3 poker cards on A4 leave no room below"
    assert full.used(6).below(token.used(14)) is not None, "two rows of tokens fit below two rows of cards"
    assert full.used(6).below(token.used(15)) is None, "three rows do not"
    landscape = best_plan(*POKER, *A4, bleed=3.0, gutter=6.0)
    assert landscape is not None and landscape.landscape
    assert landscape.used(4).below(token.used(1)) is None


def test_cut_lines_of_a_block_below_run_from_the_parting_cut_down():
    host, rider = _placed(A4, 2, 1)
    parting = host.parting(rider)
    lines = [item.points for item in cut_lines(rider, (parting, rider.paper_h)).items if isinstance(item, Polyline)]
    xs, ys = rider.trim_lines()
    vertical = [p for p in lines if p[0][0] == p[1][0]]
    assert sorted(p[0][0] for p in vertical) == xs and all(p[0][1] == parting for p in vertical)
    assert sorted(p[0][1] for p in lines if p[0][1] == p[1][1]) == [parting, *ys]
    above = [item.points for item in cut_lines(host, (0.0, parting)).items if isinstance(item, Polyline)]
    assert all(max(a[1], b[1]) <= parting for a, b in above)


@pytest.fixture(scope="module")
def hasty():
    problems = Problems()
    composed = compose_game("hasty", BuildOptions(), problems)
    assert composed is not None, problems.format()
    return composed


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hastys_loupe_shares_a_sheet_with_cards(hasty, paper):
    sheets = card_sheets(hasty, paper, BuildOptions(papers=(paper,)), Problems())
    loupe = [s for s in sheets if any(f.component.id == "loupe" for f in s.all_faces())]
    assert len(loupe) == 1
    sheet = loupe[0]
    assert {f.component.id for f in sheet.faces} == {"actions"}, "the action cards' sheet is its own block"
    assert [[f.component.id for f in r.faces] for r in sheet.riders] == [["loupe"]]
    assert "The loupe" in sheet.label, "the page's label names what rides on it"
    assert not any(s.size_id == "token" for s in sheets), "no sheet of its own for one token"


def test_a_game_takes_no_more_sheets_than_before(hasty):
    """Riding only takes sheets away: every card is on exactly one sheet, once."""
    for paper in ("a4", "letter"):
        for gutter in (0.0, 6.0):
            opts = BuildOptions(papers=(paper,), gutter=gutter)
            faces = [f for s in card_sheets(hasty, paper, opts, Problems()) for f in s.all_faces()]
            assert sorted(id(f) for f in faces) == sorted(id(f) for fs in hasty.faces.values() for f in fs)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_a_label_up_the_side_stops_above_the_block_below(paper):
    host, rider = _placed(paper, 2, 1)
    parting = host.parting(rider)
    assert any(b.turned and b.y + b.h > parting for b in host.label_bands()), "a side strip runs down the page"
    kept = replace(host, clear_below=parting)
    for shift in ((0.0, 0.0), (0.5, -0.8)):
        assert all(b.y + b.h <= parting + shift[1] for b in kept.label_bands(shift) if b.turned)
    assert [b for b in kept.label_bands() if not b.turned] == [b for b in host.label_bands() if not b.turned]


def test_below_asked_again_gives_the_same_placement_in_a_plan_of_its_own():
    """`below` is worked out once per pair of plans (a deck asks it of every earlier sheet); each answer is its own."""
    host = plan_sheet(*POKER, *A4, bleed=3.0)
    token = plan_sheet(*TOKEN, *A4, bleed=3.0, gutter=6.0, labels=False)
    assert host is not None and token is not None
    host, rider = host.used(6), token.used(14)
    first, again = host.below(rider), host.below(rider)
    assert first is not None and again is not None
    assert first == again and first is not again
    first.notes.append("a note of the first sheet only")
    assert again.notes == [] and host.below(rider) == again
    other = token.used(15)  # another plan: worked out for itself, not answered from the first
    assert host.below(other) is None and host.below(rider) == again
