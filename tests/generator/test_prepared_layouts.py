"""Layouts prepared once per component: fixed values are split from templates, only templates
are evaluated per card (one Jinja2 context per card, what one template sets not seen by the
next), and a scene's key changes exactly when something it reads does.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.generator import compose
from casebook.generator.compose import Composer
from casebook.generator.layouts import load_library, prepare
from casebook.rules.cards import read_database
from casebook.rules.problems import Place, Problems

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny" / "cards", tmp_path / "tiny" / "layouts"


def composer_for(cards: Path, layouts: Path) -> tuple[Composer, Problems]:
    problems = Problems()
    lib = load_library(layouts, problems)
    db = read_database("moth", cards, problems)
    assert db is not None and not problems, problems.format()
    return Composer(lib, db, problems), problems


def test_fixed_values_and_templates_are_told_apart_once(tiny):
    cards, layouts = tiny
    problems = Problems()
    lib = load_library(layouts, problems)
    layout = lib.layout("moth/face", problems, Place("test"))
    assert layout is not None
    prepared = prepare(layout, ink_saver=False)
    by_id = {pe.data.get("id"): pe for pe in prepared.elements}
    assert by_id["frame"].templated == {"stroke", "w", "h"}  # x, y, radius, width are fixed
    assert by_id["name"].templated == {"text"}
    assert by_id["background"].templated == {"fill"}
    assert prepared.names == {"card", "suit", "vars", "size", "component", "number", "total"}
    back = prepare(lib.layout("moth/back", problems, Place("test")), ink_saver=False)
    assert "card" not in back.names and "number" not in back.names  # every card's back is the same scene


def test_only_templates_are_rendered_for_each_card(tiny, monkeypatch):
    cards, layouts = tiny
    composer, problems = composer_for(cards, layouts)
    rendered: list[str] = []
    original = compose.puts  # asked of every template rendered, whether filled in or rendered by Jinja2

    def counting(source: str):
        rendered.append(source)
        return original(source)

    monkeypatch.setattr(compose, "puts", counting)
    faces = composer.faces(composer.db.components["deck"])
    assert len(faces) == 6 and not problems
    face = composer._prepare("moth/face", Place("test"))
    back = composer._prepare("moth/back", Place("test"))
    per_face = sum(len(pe.templated) for pe in face.elements)
    per_back = sum(len(pe.templated) for pe in back.elements)
    # at most every template of every face, and the back once: all six agree on what it reads
    assert len(rendered) <= 6 * per_face + per_back
    assert all("{{" in s or "{%" in s for s in rendered)
    # an element is drawn again only for a card that reads something else in it: each name (all six differ)
    # is rendered six times, each suit's name once a suit
    assert rendered.count("{{ card.name }}") == 6
    suits = {f.card.data["suit"] for f in faces}
    assert rendered.count("{{ suit.name }}") == len(suits) == 2


def test_what_one_template_sets_is_not_seen_by_the_next(tiny):
    cards, layouts = tiny
    face = layouts / "moth" / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace(
        'text: "{{ suit.name }}"', 'text: "{% set name = \'x\' %}{{ suit.name }}"').replace(
        'text: "{{ card.name }}"', 'text: "{{ name | default(card.name) }}"'), encoding="utf-8")
    composer, problems = composer_for(cards, layouts)
    faces = composer.faces(composer.db.components["deck"])
    texts = [run.text for run in faces[0].face.items if getattr(run, "text", None)]
    assert "Dusty Miller" in texts and "x" not in texts and not problems


def test_a_scene_key_follows_what_its_layout_reads(tiny):
    cards, layouts = tiny
    composer, _ = composer_for(cards, layouts)
    before = composer.faces(composer.db.components["deck"])
    deck = cards / "moth" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Luna Moth", "Lunar Moth"), encoding="utf-8")
    composer, _ = composer_for(cards, layouts)
    after = composer.faces(composer.db.components["deck"])
    assert [a.face_key == b.face_key for a, b in zip(before, after, strict=True)] == [True, False, True, True, True, True]
    assert len({f.back_key for f in before + after}) == 1
    assert after[1].face != before[1].face and after[0].face == before[0].face


def style_work(composer: Composer, monkeypatch) -> list[str]:
    """The elements whose text style was worked out, once an entry each time."""
    worked: list[str] = []
    original = Composer._style_now

    def counting(self, pe, *args):
        worked.append(pe.data.get("id"))
        return original(self, pe, *args)

    monkeypatch.setattr(Composer, "_style_now", counting)
    return worked


def test_a_plainly_written_style_is_worked_out_once_not_for_each_card(tiny, monkeypatch):
    cards, layouts = tiny
    composer, problems = composer_for(cards, layouts)
    worked = style_work(composer, monkeypatch)
    faces = composer.faces(composer.db.components["deck"])
    assert len(faces) == 6 and not problems
    names = [run.text for f in faces for run in f.face.items if getattr(run, "size", 0) == 13]
    assert len(set(names)) == 6  # each card's name drawn, in the style of the layout
    assert worked.count("name") == 1  # font, size, align written plainly: the element's style, not the card's
    # a style reading the card (the value's colour is its suit's ink) is worked out for each drawing of it
    assert worked.count("value") == len({(f.card.data["value"], f.card.data["suit"]) for f in faces}) > 1


def test_a_fault_in_a_plain_style_is_still_said_for_each_card(tiny, monkeypatch):
    cards, layouts = tiny
    face = layouts / "moth" / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace("    align: center\n", "    align: middle\n", 1),
                    encoding="utf-8")
    problems = Problems()
    lib = load_library(layouts, problems)
    db = read_database("moth", cards, problems)
    assert db is not None and not problems, problems.format()
    composer = Composer(lib, db, problems)
    composer.faces(composer.db.components["deck"])
    said = [p.message for p in problems.items if "align is left/center/right" in p.message]
    assert len(said) == 6 and len(set(said)) == 6  # each card named in its own
