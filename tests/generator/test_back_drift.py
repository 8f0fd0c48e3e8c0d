"""No card can be told from its back after a duplex drift of up to 1 mm, on any sheet of any game.

Every game is built on A4 and Letter, with cards abutting and with a 6 mm gutter, and its
card pages are read back as pixels (pypdfium2, 5 px a mm). For every card:

- its back, and the ring 1 mm wide around its trim (where a drifted cut lands), look like
  that deck's own back: the mean colour of the card and of each side of the ring is within
  a tolerance of the back drawn alone. A neighbour of another colour, or a white edge where
  the bleed stops at the trim, moves a side's mean far beyond it;
- face and back keep their full bleed on every side that no abutting card covers (up to
  the 5 mm margin the printer cannot print);
- nothing is printed within 5 mm of the page's edge.

The builds are shared by all parametrisations (module fixtures); the pages are rendered once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from casebook.generator.build import BuildOptions, Composed, card_sheets, compose_game, write_pdf
from casebook.generator.sheets import SheetPlan, Slot
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems

PX = 5.0  # pixels a mm (127 dpi): fine enough to see a 1 mm strip as 5 rows of pixels
DRIFT = 1.0  # mm, in any direction
MARGIN = 5.0  # mm of the page edge a home printer leaves blank
TOLERANCE = 24.0  # the most a strip's mean colour may differ from the back drawn alone, per channel (of 255)
EDGE = 0.2  # mm left out at a strip's ends: anti-aliasing of the cut between two pixels

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm


@pytest.fixture(scope="module")
def composed() -> Iterator[dict[str, Composed]]:
    games: dict[str, Composed] = {}

    def get(game: str) -> Composed:
        if game not in games:
            problems = Problems()
            found = compose_game(game, BuildOptions(), problems)
            assert found is not None, problems.format()
            games[game] = found
        return games[game]

    yield get  # type: ignore[misc]


@dataclass
class Built:
    pdf: pdfium.PdfDocument
    # sheet n is pages 2n+1, 2n+2; each block on it (its own, then those placed below): plan, face keys, back keys
    sheets: list[list[tuple[SheetPlan, list[str], list[str]]]]
    composed: Composed
    alone: dict[str, tuple[pdfium.PdfDocument, int]]  # scene key -> its scene drawn alone: a document and page


@pytest.fixture(scope="module")
def built(composed, tmp_path_factory) -> Iterator[object]:
    done: dict[tuple[str, str, float], Built] = {}
    alone: dict[str, tuple[pdfium.PdfDocument, int]] = {}  # shared by every build: a scene is drawn alone once
    out = tmp_path_factory.mktemp("drift")

    def get(game: str, paper: str, gutter: float) -> Built:
        key = (game, paper, gutter)
        if key not in done:
            c = composed(game)
            opts = BuildOptions(papers=(paper,), gutter=gutter, out_dir=out)
            problems = Problems()
            path = out / f"{game}-{paper}-{gutter:g}.pdf"
            write_pdf(c, paper, path, opts, problems)
            assert not problems, problems.format()
            sheets = [[(part.plan, [f.face_key for f in part.faces], [f.back_key for f in part.faces])
                       for part, _ in s.parts()] for s in card_sheets(c, paper, opts, problems)]
            keys = [k for parts in sheets for _, faces, backs in parts for k in (*faces, *backs) if k not in alone]
            _draw_alone(c, list(dict.fromkeys(keys)), out / f"alone-{len(alone)}.pdf", alone)
            done[key] = Built(pdfium.PdfDocument(path), sheets, c, alone)
        return done[key]

    yield get


def _draw_alone(c: Composed, keys: list[str], path: Path, into: dict[str, tuple[pdfium.PdfDocument, int]]) -> None:
    """Each card scene drawn alone on a page of its own size, by the build's own backend, into one document."""
    from casebook.generator.backends.pdf import PdfDocument

    if not keys:
        return
    doc = PdfDocument(path, duplex=False)
    for key in keys:
        scene = c.composer.store.get(key)
        doc.begin_page(scene.width, scene.height)
        doc.draw(scene)
        doc.end_page()
    doc.save()
    pdf = pdfium.PdfDocument(path)
    into.update({key: (pdf, n) for n, key in enumerate(keys)})


def _render(doc: pdfium.PdfDocument, index: int) -> Image.Image:
    return doc[index].render(scale=PX * 25.4 / 72).to_pil().convert("RGB")


_ALONE: dict[str, Image.Image] = {}  # scene key -> its rendering, for every test of the module


def _alone(b: Built, key: str) -> Image.Image:
    if key not in _ALONE:
        _ALONE[key] = _render(*b.alone[key])
    return _ALONE[key]


def _mean(img: Image.Image, box: Box, dx: float = 0.0, dy: float = 0.0) -> tuple[float, ...]:
    x0, y0, x1, y1 = box
    crop = img.crop((round((x0 + dx) * PX), round((y0 + dy) * PX), round((x1 + dx) * PX), round((y1 + dy) * PX)))
    return tuple(crop.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0)))  # type: ignore[arg-type]


def _differs(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return max(abs(p - q) for p, q in zip(a, b, strict=True))


def _strips(x: float, y: float, w: float, h: float, near: float, far: float, ends: float) -> dict[str, Box]:
    """The four strips from `near` to `far` mm outside a trim (x, y, w, h), running `ends` mm past its corners."""
    return {"left": (x - far, y - ends, x - near, y + h + ends),
            "right": (x + w + near, y - ends, x + w + far, y + h + ends),
            "top": (x - ends, y - far, x + w + ends, y - near),
            "bottom": (x - ends, y + h + near, x + w + ends, y + h + far)}


def _covered_sides(slot: Slot, slots: list[Slot], w: float, h: float) -> set[str]:
    """The sides of a card another card abuts (its trim is where this one's bleed would be)."""
    out = set()
    for o in slots:
        if o is slot:
            continue
        rows_meet = o.y < slot.y + h - 1e-6 and o.y + h > slot.y + 1e-6
        cols_meet = o.x < slot.x + w - 1e-6 and o.x + w > slot.x + 1e-6
        if rows_meet and abs(o.x + w - slot.x) < 1e-6:
            out.add("left")
        if rows_meet and abs(o.x - slot.x - w) < 1e-6:
            out.add("right")
        if cols_meet and abs(o.y + h - slot.y) < 1e-6:
            out.add("top")
        if cols_meet and abs(o.y - slot.y - h) < 1e-6:
            out.add("bottom")
    return out


def _bleed_room(plan: SheetPlan, slot: Slot, bleed: float) -> dict[str, float]:
    """The bleed a card keeps on each side: all of it, or up to the margin near the page's edge."""
    return {"left": min(bleed, slot.x - MARGIN), "top": min(bleed, slot.y - MARGIN),
            "right": min(bleed, plan.paper_w - slot.x - plan.card_w - MARGIN),
            "bottom": min(bleed, plan.paper_h - slot.y - plan.card_h - MARGIN)}


def _has_ink_near_the_edge(page: Image.Image) -> bool:
    width, height = page.size
    edge = round(MARGIN * PX) - 1  # whole pixels within the margin
    return any(page.crop(box).getextrema() != ((255, 255),) * 3
               for box in ((0, 0, width, edge), (0, height - edge, width, height), (0, 0, edge, height),
                           (width - edge, 0, width, height)))


def _ring_problems(page: Image.Image, alone: Image.Image, slot: Slot, w: float, h: float, bleed: float) -> list[str]:
    """How a back and the ring a 1 mm drift may show around it differ from its deck's back drawn alone."""
    ox, oy = slot.x - bleed, slot.y - bleed  # the page point where the scene's top-left lies
    out = []
    card = (slot.x, slot.y, slot.x + w, slot.y + h)
    if _differs(_mean(page, card), _mean(alone, card, -ox, -oy)) > TOLERANCE:
        out.append("not its deck's back")
    for side, box in _strips(slot.x, slot.y, w, h, 0.0, DRIFT, DRIFT).items():
        d = _differs(_mean(page, box), _mean(alone, box, -ox, -oy))
        if d > TOLERANCE:
            out.append(f"the {DRIFT:g} mm {side} of it differs from its deck's back by {d:.0f}")
    return out


def _bleed_problems(page: Image.Image, alone: Image.Image, plan: SheetPlan, slot: Slot, slots: list[Slot],
                    bleed: float) -> list[str]:
    """The sides where no card abuts this one and its bleed is cut short of the bleed it must keep."""
    w, h = plan.card_w, plan.card_h
    ox, oy = slot.x - bleed, slot.y - bleed
    covered = _covered_sides(slot, slots, w, h)
    room = _bleed_room(plan, slot, bleed)
    out = []
    for side, (x0, y0, x1, y1) in _strips(slot.x, slot.y, w, h, EDGE, bleed, -EDGE).items():
        if side in covered:
            continue
        keep = room[side] - EDGE  # the strip, cut to the bleed the card must keep there
        band = {"left": (slot.x - keep, y0, x1, y1), "right": (x0, y0, slot.x + w + keep, y1),
                "top": (x0, slot.y - keep, x1, y1), "bottom": (x0, y0, x1, slot.y + h + keep)}[side]
        d = _differs(_mean(page, band), _mean(alone, band, -ox, -oy))
        if d > TOLERANCE:
            out.append(f"its {side} bleed is cut short (differs by {d:.0f})")
    return out


CASES = [(game, paper, gutter) for game in game_folders() for paper in ("a4", "letter") for gutter in (0.0, 6.0)]


@pytest.mark.parametrize(("game", "paper", "gutter"), CASES, ids=[f"{g}-{p}-gutter{u:g}" for g, p, u in CASES])
def test_every_back_looks_like_its_decks_back_after_a_1mm_drift(built, game, paper, gutter):
    b = built(game, paper, gutter)
    wrong: list[str] = []
    for n, parts in enumerate(b.sheets):
        for is_back in (False, True):
            page = _render(b.pdf, 2 * n + is_back)
            what = f"{game} {paper} gutter {gutter:g} p{2 * n + is_back + 1}"
            if _has_ink_near_the_edge(page):
                wrong.append(f"{what}: ink within {MARGIN:g} mm of the page edge")
            wrong += _card_problems(b, page, what, parts, is_back)
    assert not wrong, f"{len(wrong)} problems:\n" + "\n".join(wrong[:40])


def _card_problems(b: Built, page: Image.Image, what: str, parts: list[tuple[SheetPlan, list[str], list[str]]],
                   is_back: bool) -> list[str]:
    """Every card of every block on a page: its bleed, and for a back the ring a drift may show."""
    store = b.composed.composer.store
    wrong: list[str] = []
    for plan, face_keys, back_keys in parts:
        keys = back_keys if is_back else face_keys
        slots = [plan.back_slot(i) if is_back else plan.slot(i) for i in range(len(keys))]
        for i, (slot, key) in enumerate(zip(slots, keys, strict=True)):
            scene = store.get(key)
            alone = _alone(b, key)
            name = f"{what} card {i + 1} ({'back' if is_back else 'face'})"
            if is_back:  # the back and a drift's ring around it: that deck's back
                wrong += [f"{name}: {p}" for p in _ring_problems(page, alone, slot, plan.card_w, plan.card_h,
                                                                 scene.bleed)]
            wrong += [f"{name}: {p}" for p in _bleed_problems(page, alone, plan, slot, slots, scene.bleed)]
    return wrong


def test_cards_whose_backs_look_alike_abut_whatever_their_scene_keys(composed):
    """Grouped by what a back shows, not by its key: a layout that reads the card gives each card its own key."""
    clash = composed("clash")
    opts = BuildOptions(papers=("a4",))
    sheets = card_sheets(clash, "a4", opts, Problems())
    influence = [s for s in sheets if {f.component.id for f in s.faces} == {"holmes_influence"}]
    assert len(influence) == 2 and all(s.plan.gutter == 0.0 and len(s.faces) == 9 for s in influence)
    assert len({f.back_key for s in influence for f in s.faces}) > 1  # several keys, one look: they abut
    hasty = composed("hasty")
    traitor = next(s for s in card_sheets(hasty, "a4", opts, Problems()) if any(f.card.id == "traitor" for f in s.faces))
    assert traitor.plan.gutter == 0.0 and {f.component.id for f in traitor.faces} == {"suspects", "traitor"}
