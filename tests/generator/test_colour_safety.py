"""Greyscale and colour-blind safety, measured: every face and back is rendered (PNG backend,
low dpi) and seen as in greyscale and with simulated deuteranopia and protanopia; decks that
are sorted apart must stay apart in lightness and in pattern, and suits' index colours in
colour (their shapes differ besides, which carries them in greyscale)."""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageStat

from casebook.generator.backends import png
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Ellipse, Polyline, Rect
from casebook.rules.problems import Problems
from tests.generator.test_print_quality import ink_box

DPI = 25
# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
GREY = ((0.2126, 0.7152, 0.0722),) * 3
VISIONS = {"normal": None, "greyscale": GREY, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}

DECK_LIGHTNESS_APART = 20.0  # L*: two backs of decks that are sorted apart
FACE_LIGHTNESS_APART = 8.0  # L*: the papers of those decks' faces
PATTERN_APART = 0.3  # in the backs' edge-direction signature (-1 all vertical edges .. 1 all horizontal)
SUIT_COLOURS_APART = 15.0  # CIE76 delta E between any two suits' index colours, normal and colour-blind
# Decks that players sort back apart after play (game-facts.md: the piles mix at every location)
SORTED_APART = {"graves": [("detective", "mastermind")],
                # Clash: each player takes his own cards back (green Holmes, red Moriarty)
                "clash": [("holmes_influence", "moriarty_influence"), ("holmes_agents", "moriarty_agents")]}


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


@cache
def seen(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """A colour as a viewer with `vision` sees it, in CIE L*a*b* (D65)."""
    lin = [_linear(c) for c in rgb]
    m = VISIONS[vision]
    if m is not None:
        lin = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def lightness_image(img: Image.Image, vision: str) -> Image.Image:
    """The image's L* (0..100 scaled to 0..255) as `vision` sees it."""
    table = {rgb: seen(rgb, vision)[0] * 2.55 for _, rgb in img.getcolors(img.width * img.height)}
    out = Image.new("L", img.size)
    raw = img.tobytes()
    out.putdata([round(table[p]) for p in zip(raw[0::3], raw[1::3], raw[2::3], strict=True)])
    return out


def mean_lightness(img: Image.Image, vision: str) -> float:
    colours = img.getcolors(img.width * img.height)
    return sum(n * seen(rgb, vision)[0] for n, rgb in colours) / sum(n for n, _ in colours)


def paper_lightness(img: Image.Image, vision: str) -> float:
    """L* of a face's commonest colour: its paper, what shows when cards are sorted face up."""
    _, rgb = max(img.getcolors(img.width * img.height))
    return seen(rgb, vision)[0]


def edge_signature(img: Image.Image) -> tuple[float, float]:
    """(texture, direction) of the corners of a back, where only the pattern is: mean edge strength
    in L* units, and (horizontal - vertical edges) / all edges."""
    w, h = img.size
    hx = vx = 0.0
    for box in ((0, 0, w // 3, h // 5), (w - w // 3, h - h // 5, w, h)):
        part = img.crop(box)
        dy = ImageChops.difference(part.crop((0, 1, part.width, part.height)), part.crop((0, 0, part.width, part.height - 1)))
        dx = ImageChops.difference(part.crop((1, 0, part.width, part.height)), part.crop((0, 0, part.width - 1, part.height)))
        hx += ImageStat.Stat(dy).mean[0]  # brightness changing down the card: horizontal edges
        vx += ImageStat.Stat(dx).mean[0]
    total = hx + vx
    return (total / 2 / 2.55, (hx - vx) / total if total else 0.0)


@pytest.fixture(scope="module", params=["graves", "syndicate", "clash"])
def rendered(request):
    """Every face and back of a game, rendered once: {component: ([faces], [backs])}."""
    problems = Problems()
    composed = compose_game(request.param, BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    out = {}
    for cid, faces in composed.faces.items():
        designs = {f.card.id: f for f in faces}.values()  # copies print the same
        out[cid] = ([png.render(f.face, DPI, supersample=1) for f in designs],
                    [png.render(f.back, DPI, supersample=1) for f in designs])
    return request.param, composed, out


@pytest.mark.parametrize("vision", VISIONS)
def test_decks_sorted_apart_differ_in_lightness_and_pattern(rendered, vision):
    game, _, images = rendered
    for a, b in SORTED_APART.get(game, []):
        back_a, back_b = images[a][1][0], images[b][1][0]
        la, lb = mean_lightness(back_a, vision), mean_lightness(back_b, vision)
        assert abs(la - lb) >= DECK_LIGHTNESS_APART, (vision, a, b, round(la, 1), round(lb, 1))
        (ta, da), (tb, db) = edge_signature(lightness_image(back_a, vision)), edge_signature(lightness_image(back_b, vision))
        assert min(ta, tb) >= 1.0, "both backs carry a pattern"
        assert abs(da - db) >= PATTERN_APART, (vision, a, b, round(da, 2), round(db, 2))
        # their faces too: every face of one deck on a paper apart from every face of the other
        papers_a = {round(paper_lightness(img, vision), 1) for img in images[a][0]}
        papers_b = {round(paper_lightness(img, vision), 1) for img in images[b][0]}
        gap = min(abs(x - y) for x, y in itertools.product(papers_a, papers_b))
        assert gap >= FACE_LIGHTNESS_APART, (vision, a, b, papers_a, papers_b)


def test_every_card_of_a_deck_shares_its_back(rendered):
    """A back tells nothing: every design of a component (of one side, where cards have sides) has the very same back."""
    _, composed, images = rendered
    for cid, (_, backs) in images.items():
        sides = [f.card.data.get("side") for f in {f.card.id: f for f in composed.faces[cid]}.values()]
        for side in set(sides):
            same_side = [b.tobytes() for b, s in zip(backs, sides, strict=True) if s == side]
            assert all(b == same_side[0] for b in same_side), (cid, side)


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_suit_index_colours_stay_apart(rendered, vision):
    game, composed, _ = rendered
    if not any("rank" in f.card.data for faces in composed.faces.values() for f in faces):
        pytest.skip(f"{game} has no ranked cards with a suit index (Clash's sides: test_clash_build.py)")
    # each suit's index colour, read from the composed cards: the first suit symbol under the rank
    colours: dict[str, set[str]] = {}
    for faces in composed.faces.values():
        for face in faces:
            suits = face.card.data.get("suits") or [face.card.data.get("suit")]
            if "rank" not in face.card.data or len(suits) != 1:
                continue  # a card of two suits shows both under the rank
            suit = suits[0]
            b, items = face.face.bleed, face.face.items
            paper = next(i.fill for i in items if isinstance(i, Rect) and i.fill)
            for item in items:
                if not isinstance(item, Polyline | Ellipse):
                    continue
                box = ink_box(item)
                if box[0] - b >= 3 and box[2] - b <= 14.5 and box[1] - b >= 11.5 and box[3] - b <= 23:
                    colours.setdefault(suit, set()).update({c for c in (item.fill, item.stroke) if c} - {paper, "#FFFFFF"})  # holes; marks' glyphs
    assert set(colours) == set(composed.db.suits), (game, sorted(colours))
    assert all(len(c) == 1 for c in colours.values()), colours  # one colour a suit
    ink = {suit: next(iter(c)) for suit, c in colours.items()}
    for (s1, c1), (s2, c2) in itertools.combinations(sorted(ink.items()), 2):
        d = math.dist(seen(hex_rgb(c1), vision), seen(hex_rgb(c2), vision))
        assert d >= SUIT_COLOURS_APART, (game, vision, s1, c1, s2, c2, round(d, 1))


def test_suits_are_told_apart_by_shape_in_greyscale(rendered):
    """In greyscale colour cannot carry five or six suits; each suit has a symbol of its own."""
    _, composed, _ = rendered
    symbols = [s.symbol for s in composed.db.suits.values()]
    assert len(set(symbols)) == len(symbols)


def test_the_simulation_is_the_published_one():
    # pure red and green fall together for a protanope and a deuteranope, not for normal vision
    red, green = (255, 0, 0), (0, 128, 0)
    assert math.dist(seen(red, "normal"), seen(green, "normal")) > 80
    for vision in ("protanopia", "deuteranopia"):
        assert math.dist(seen(red, vision), seen(green, vision)) < 25
    assert seen((255, 255, 255), "greyscale")[0] == pytest.approx(100, abs=0.1)
    assert seen((0, 114, 178), "greyscale")[1:] == pytest.approx((0, 0), abs=0.5)  # no colour left
