"""Prepare once, apply many (house-style pattern 8), per element: an element of a card layout is drawn once for
each set of values its templates read (compiled()'s paths: `suit.colour`, not the whole card), and the cards
that agree on them share that drawing. What comes out is what drawing every element of every card gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import casebook.generator.compose as compose
import casebook.rules.games  # noqa: F401 - the games' own checks
from casebook.generator.compose import Composer
from casebook.generator.layouts import LAYOUTS_DIR, load_library
from casebook.rules.cards import CARDS_DIR, read_database
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def composed(game: str, cards: Path, layouts: Path) -> tuple[Composer, list[str]]:
    """A game's every card composed: the composer and every face's and back's key, in order."""
    problems = Problems()
    db = read_database(game, cards, problems)
    assert db is not None and not problems, problems.format()
    composer = Composer(load_library(layouts, problems), db, problems)
    keys = [key for comp in db.components.values() for f in composer.faces(comp) for key in (f.face_key, f.back_key)]
    assert not problems.errors, problems.format()
    return composer, keys


@pytest.mark.parametrize("game", ["graves", "pi", "syndicate", "clash", "hasty"])
def test_shared_drawings_make_the_scenes_that_drawing_every_element_makes(game, monkeypatch):
    shared, keys = composed(game, CARDS_DIR, LAYOUTS_DIR)
    monkeypatch.setattr(compose, "SHARED_PER_ELEMENT", 0)  # nothing kept: every element of every card drawn
    alone, same_keys = composed(game, CARDS_DIR, LAYOUTS_DIR)
    assert keys == same_keys
    assert all(shared.store.get(key) == alone.store.get(key) for key in dict.fromkeys(keys))
    assert sum(len(d) for _, d in shared._drawn.values()) > 0 and not any(d for _, d in alone._drawn.values())


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny" / "cards", tmp_path / "tiny" / "layouts"


def drawn_per_element(cards: Path, layouts: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts: dict[str, int] = {}
    original = Composer._element

    def counting(self: Composer, scene, pe, *args):  # type: ignore[no-untyped-def]
        counts[str(pe.el.data.get("id"))] = counts.get(str(pe.el.data.get("id")), 0) + 1
        return original(self, scene, pe, *args)

    monkeypatch.setattr(Composer, "_element", counting)
    composed("moth", cards, layouts)
    return counts


def test_an_element_is_drawn_once_for_each_set_of_values_it_reads(tiny, monkeypatch):
    counts = drawn_per_element(*tiny, monkeypatch)
    # six cards of two suits: the name and the footer (number/total) differ on every card, the emblem and the
    # suit's name once a suit; the background reads only the layout's paper: once on the faces, once on the backs
    assert counts["name"] == 6 and counts["footer"] == 6
    assert counts["suit_name"] == 2
    assert counts["emblem"] == 2 + 1  # the faces' two suits, the back's one lamp
    assert counts["background"] == 2


def test_a_problem_is_said_for_every_card_that_has_it(tiny, monkeypatch):
    cards, layouts = tiny
    face = layouts / "moth" / "face.yaml"  # the suit's name, fixed at a size that cannot fit its box
    face.write_text(face.read_text(encoding="utf-8").replace('text: "{{ suit.name }}"',
                                                             'text: "{{ (suit.name ~ \' \') * 12 }}"\n'
                                                             '    min_size: 8'), encoding="utf-8")
    problems = Problems()
    db = read_database("moth", cards, problems)
    assert db is not None
    composer = Composer(load_library(layouts, problems), db, problems)
    composer.faces(db.components["deck"])
    said = [p.message for p in problems.errors if "suit_name" in p.message]
    assert len(said) == 6, said  # one for each card, each naming its card, though the six read only two suits
    assert len(set(said)) == 6


def test_a_deck_of_different_names_keeps_a_bounded_number_of_drawings(tiny, monkeypatch):
    cards, layouts = tiny
    deck = cards / "moth" / "deck.yaml"
    n = compose.SHARED_PER_ELEMENT + 50
    deck.write_text("cards:\n" + "".join(f"  - {{id: card_{i:04d}, name: Name {i}, suit: wing, value: 1}}\n"
                                         for i in range(n)), encoding="utf-8")
    game = cards / "moth" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("count: 6", f"count: {n}").replace("gas_mantle", "card_0001"), encoding="utf-8")
    rules = cards / "moth" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("gas_mantle", "card_0001"), encoding="utf-8")
    composer, keys = composed("moth", cards, layouts)
    assert len(set(keys)) == n + 1
    assert max(len(d) for _, d in composer._drawn.values()) == compose.SHARED_PER_ELEMENT


REPEATED = '''  - id: dots
    type: rect
    repeat: 5
    x: "{{ 2 + 3 * i }}"
    y: "{{ 40 + 1 }}"
    w: "{{ 1 + 1 }}"
    h: 2
    fill: "{{ vars.line }}"
  - id: spots
    type: rect
    repeat: 5
    x: "{{ [1, 2, 3, 4, 5, 6, 7, 8, 9] | random }}"
    y: 50
    w: 1
    h: 1
'''


def test_a_repeated_elements_templates_that_read_no_copy_render_once(tiny, monkeypatch):
    """A repeat's copies differ only in `i`: a template that reads neither it nor chance renders once for all
    the copies (a board's hundreds of pattern marks), and the drawing is what rendering it for each copy gives."""
    cards, layouts = tiny
    back = layouts / "moth" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8") + REPEATED, encoding="utf-8")
    rendered: dict[tuple[str, str], int] = {}
    original = Composer._render

    def counting(self, value, el, key, ctx, who):  # type: ignore[no-untyped-def]
        name = (str(el.data.get("id")), key)
        rendered[name] = rendered.get(name, 0) + 1
        return original(self, value, el, key, ctx, who)

    monkeypatch.setattr(Composer, "_render", counting)
    composer, keys = composed("moth", cards, layouts)
    drawn = rendered[("dots", "x")] // 5  # the times the element was drawn: each copy's x is its own
    assert drawn >= 1 and rendered[("dots", "x")] == 5 * drawn
    assert rendered[("dots", "y")] == rendered[("dots", "w")] == rendered[("dots", "fill")] == drawn
    assert rendered[("spots", "x")] == 5 * drawn  # chance: each copy draws its own
    back_scene = next(composer.store.get(k) for k in keys if composer.store.get(k) is not None
                      and any(getattr(item, "y", None) == 41 + composer.bleed for item in composer.store.get(k).items))
    dots = [item for item in back_scene.items if getattr(item, "y", None) == 41 + composer.bleed]
    assert [round(d.x - composer.bleed, 6) for d in dots] == [2, 5, 8, 11, 14] and {d.w for d in dots} == {2}
    rendered.clear()
    monkeypatch.setattr(Composer, "_same_for_copies", lambda self, pe: frozenset())  # every copy renders all
    alone, same_keys = composed("moth", cards, layouts)
    assert rendered[("dots", "y")] == 5 * drawn
    assert same_keys == keys

    def drawing(scene):  # type: ignore[no-untyped-def]
        return [item for item in scene.items if getattr(item, "y", None) != 50 + composer.bleed]  # but chance's spots

    assert all(drawing(composer.store.get(k)) == drawing(alone.store.get(k)) for k in dict.fromkeys(keys))
