"""The Clash of Minds print set: every component of the rulebook's list counted in the built PDFs,
green and red backs (alike within a side, apart between sides, in greyscale too), influence cards
readable upright and turned, legibility, safe zone, duplex (the board: test_clash_board.py)."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from casebook.cli import main
from casebook.generator.backends import png
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Rect, TextRun
from casebook.rules.problems import Problems
from tests.generator import test_print_quality as quality
from tests.generator.test_build import page_texts
from tests.generator.test_colour_safety import (
    edge_signature,
    hex_rgb,
    lightness_image,
    mean_lightness,
    seen,
)

# The rulebook's "Components" list (seeds/003_...), line by line, and the components that print it;
# the First Player Card is not in the list but in the setup ("he places the First Player Card"). The
# "6 Influence Tracks Tokens" and the "1 Clock Tower Card" are one board (BOARD_LINES), not cards.
RULEBOOK = {
    "7 Investigation Site Cards": ("sites",),
    "9 Crime Plan Cards": ("crime_plans",),
    "8 Agents Cards (4 for each player)": ("holmes_agents", "moriarty_agents"),
    "40 Influence Cards (20 for each player)": ("holmes_influence", "moriarty_influence"),
    "8 Action Cards (4 for each player)": ("actions",),
    "2 help cards": ("help_cards",),
    "3 Influence Tokens": ("influence_tokens",),
    "1 Time Marker Token": ("time_marker",),
    "8 Distraction Tokens": ("distraction_tokens",),
    "3 Deduction Tokens": ("deduction_tokens",),
    "1 First Player Card": ("first_player",),
}
PER_SIDE = {"holmes_agents": 4, "moriarty_agents": 4, "holmes_influence": 20, "moriarty_influence": 20}
BOARD_LINES = {"6 Influence Tracks Tokens": ("THREAD", 2), "1 Clock Tower Card": ("THE CLOCK TOWER", 1)}
TOKEN_WORDS = {"influence_tokens": "Influence", "time_marker": "TIME", "distraction_tokens": "DISTRACTION",
               "deduction_tokens": "DEDUCTION"}
SIDE_PAIRS = [("holmes_influence", "moriarty_influence"), ("holmes_agents", "moriarty_agents")]
LIGHTNESS_APART = 20.0  # L*, as tests/generator/test_colour_safety.py asks of decks sorted apart
PATTERN_APART = 0.3


def _compose(paper="a4", ink_saver=False):
    problems = Problems()
    composed = compose_game("clash", BuildOptions(papers=(paper,), ink_saver=ink_saver), problems)
    assert composed is not None and not problems.items, problems.format()
    return composed


@pytest.fixture(scope="module")
def composed():
    return _compose()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`casebook build clash` through the command, A4 and Letter."""
    folder = tmp_path_factory.mktemp("clash")
    assert main(["build", "clash", "--out", str(folder)]) == 0
    return folder / "clash"


def _count(line: str) -> int:
    return int(line.split()[0])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_component_count_of_the_rulebook_is_in_the_pdf(built, composed, paper):
    texts = page_texts(built / f"clash-{paper}.pdf")
    whole = "\n".join(texts)
    codes = {comp.code: cid for cid, comp in composed.db.components.items()}
    printed: Counter[str] = Counter()
    numbers: dict[str, set[int]] = {}
    for code, number, total in re.findall(r"\b([A-Z]{3}) (\d+)/(\d+)\b", whole):
        cid = codes[code]
        printed[cid] += 1
        numbers.setdefault(cid, set()).add(int(number))
        assert int(total) == composed.db.components[cid].count, (code, total)
    # tokens carry no code (a round token has no room): their words on the token sheets' face pages, labels aside
    names = [composed.db.components[cid].name for cid in TOKEN_WORDS]
    token_pages = [t for t in texts if " · faces" in t and any(f"{n} · sheet" in t for n in names)]
    words = "\n".join(line for t in token_pages for line in t.splitlines() if " · sheet " not in line)
    for cid, word in TOKEN_WORDS.items():
        printed[cid] = len(re.findall(rf"\b{word}\b", words))
    for line, components in RULEBOOK.items():
        assert sum(printed[c] for c in components) == _count(line), (paper, line, {c: printed[c] for c in components})
    # the board: its whole page (A3) shows one clock tower and a track (two halves) per Crime Thread
    board = page_texts(built / "clash-board-a3.pdf")[0]
    for line, (word, per) in BOARD_LINES.items():
        assert board.count(word) * per == _count(line), (line, word, board.count(word))
    for cid, seen_numbers in numbers.items():
        assert seen_numbers == set(range(1, printed[cid] + 1)), cid  # every card once: 1/20 .. 20/20
    for cid, n in PER_SIDE.items():
        assert printed[cid] == n


def test_each_side_has_its_half_of_the_shared_components(composed):
    sides = Counter((cid, f.card.data.get("side")) for cid in ("actions", "help_cards") for f in composed.faces[cid])
    assert sides == {("actions", "holmes"): 4, ("actions", "moriarty"): 4, ("help_cards", "holmes"): 1,
                     ("help_cards", "moriarty"): 1}
    mandatory = Counter(f.card.data["side"] for f in composed.faces["actions"] if f.card.data["actions"] == ["play"])
    assert mandatory == {"holmes": 1, "moriarty": 1}  # one mandatory and three optional cards a side


def _backs_by_side(composed, cid):
    """Each side's rendered backs of a component (side from the card, or from the component's id)."""
    out: dict[str, list] = {}
    for face in composed.faces[cid]:
        side = face.card.data.get("side") or cid.split("_")[0]
        out.setdefault(side, []).append(png.render(face.back, 20, supersample=1))
    return out


@pytest.mark.parametrize("cid", ["holmes_influence", "moriarty_influence", "holmes_agents", "moriarty_agents",
                                 "actions", "help_cards", "crime_plans", "sites"])
def test_backs_are_identical_within_each_side(composed, cid):
    for side, backs in _backs_by_side(composed, cid).items():
        first = backs[0].tobytes()
        assert all(b.tobytes() == first for b in backs[1:]), (cid, side)
        assert len(backs) > 1 or cid == "help_cards"


@pytest.mark.parametrize("vision", ["normal", "greyscale", "deuteranopia", "protanopia"])
@pytest.mark.parametrize("cid", ["influence", "agents", "actions"])
def test_the_sides_backs_differ_in_lightness_and_pattern(composed, cid, vision):
    if cid in ("influence", "agents"):
        holmes, moriarty = _backs_by_side(composed, f"holmes_{cid}")["holmes"][0], \
            _backs_by_side(composed, f"moriarty_{cid}")["moriarty"][0]
    else:
        by_side = _backs_by_side(composed, cid)
        holmes, moriarty = by_side["holmes"][0], by_side["moriarty"][0]
    lh, lm = mean_lightness(holmes, vision), mean_lightness(moriarty, vision)
    assert abs(lh - lm) >= LIGHTNESS_APART, (cid, vision, round(lh, 1), round(lm, 1))
    (th, dh), (tm, dm) = edge_signature(lightness_image(holmes, vision)), edge_signature(lightness_image(moriarty, vision))
    assert min(th, tm) >= 1.0 and abs(dh - dm) >= PATTERN_APART, (cid, vision, round(dh, 2), round(dm, 2))


def test_the_influence_decks_backs_are_one_picture_a_side_in_green_and_red(composed):
    holmes, moriarty = (composed.faces[c][0].back for c in ("holmes_influence", "moriarty_influence"))
    grounds = [next(i.fill for i in s.items if isinstance(i, Rect)) for s in (holmes, moriarty)]
    assert grounds[0] == "#3F9B6E" and grounds[1] == "#7A1F1F"
    r, g, b = hex_rgb(grounds[0])
    assert g > r and g > b  # green
    r, g, b = hex_rgb(grounds[1])
    assert r > g and r > b  # red


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_the_sides_colours_on_the_faces_stay_apart(composed, vision):
    """The bands of Holmes' and Moriarty's faces (their emblems differ besides: magnifier, spider)."""
    bands = {}
    for cid in ("holmes_influence", "moriarty_influence"):
        scene = composed.faces[cid][0].face
        bands[cid] = next(i.fill for i in scene.items if isinstance(i, Rect) and i.fill and abs(i.h - 13.6) < 1e-6)
    d = math.dist(seen(hex_rgb(bands["holmes_influence"]), vision), seen(hex_rgb(bands["moriarty_influence"]), vision))
    assert d >= 15.0, (vision, bands, round(d, 1))
    symbols = {s.symbol for s in composed.db.suits.values()}
    assert symbols == {"magnifier", "spider"}


def _turned_clockwise(run: TextRun, width: float, height: float, bleed: float) -> tuple[float, float, float]:
    """Where a text run lands, and at what angle, when the card is turned 90 degrees clockwise."""
    x, y = run.x - bleed, run.y - bleed
    return (height - y, x, (run.angle + 90) % 360)


def test_influence_cards_read_upright_and_turned(composed):
    """Upright, the value is the upright number top right; turned 90 degrees clockwise (used), the used value is."""
    checked = 0
    for cid in ("holmes_influence", "moriarty_influence"):
        for face in composed.faces[cid]:
            scene, b = face.face, face.face.bleed
            w, h = scene.width - 2 * b, scene.height - 2 * b
            value, used = str(face.card.data["value"]), str(face.card.data["used_value"])
            big = [r for r in scene.items if isinstance(r, TextRun) and r.size >= 14]
            top_right_upright = [r for r in big if r.angle == 0 and r.x - b > w - 16 and r.y - b < 16]
            assert [r.text for r in top_right_upright] == [value], (face.card.id, top_right_upright)
            turned = [(r.text, _turned_clockwise(r, w, h, b)) for r in big]
            top_right_turned = [t for t, (x, y, angle) in turned if angle == 0 and x > h - 16 and y < 16]
            assert top_right_turned == [used], (face.card.id, turned)
            # the opponent, across the table, reads both in his own top right corner likewise
            half = [(r.text, (w - (r.x - b), h - (r.y - b), (r.angle + 180) % 360)) for r in big]
            assert [t for t, (x, y, a) in half if a == 0 and x > w - 16 and y < 16] == [value]
            checked += 1
    assert checked == 40


@pytest.mark.parametrize("ink_saver", [False, True])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_game_text_is_6_pt_or_more(paper, ink_saver):
    """The composer reports any game text fitted under 6 pt; what is smaller is only the card's code."""
    composed = _compose(paper, ink_saver)
    for faces in composed.faces.values():
        for face in faces:
            for scene in (face.face, face.back):
                small = {r.text for r in scene.items if isinstance(r, TextRun) and r.size < 6}
                assert all(re.fullmatch(r"[A-Z]{3} \d+/\d+", t) for t in small), (face.card.id, small)


def test_frames_and_text_keep_to_the_safe_zone(composed):
    quality.test_face_frames_and_text_keep_to_the_safe_zone(composed)


def test_backs_are_duplex_safe(composed):
    quality.test_backs_have_nothing_that_follows_the_edge(composed)


def test_validate_passes(capsys):
    assert main(["validate", "clash"]) == 0
    assert "clash: ok" in capsys.readouterr().out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_player_aid_page_lists_every_site_and_crime_plan_from_the_database(built, composed, paper):
    texts = page_texts(built / f"clash-{paper}.pdf")
    aid = next(t for t in texts if "player aid" in t)
    flat = " ".join(aid.split())
    for cid in ("sites", "crime_plans"):
        for card in composed.db.components[cid].cards:
            assert card["name"] in flat and " ".join(str(card["text"]).split()) in flat, card.id
    for said in ("Moriarty wins", "Holmes wins", "draw", "The Final Turn", "Deduction Token", "+2 hours"):
        assert said in flat, said
