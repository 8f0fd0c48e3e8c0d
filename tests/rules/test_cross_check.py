"""The cross check of a game's cards (rules/cards.py _cross_check) looks for references only in the fields that may
hold one (ref, list, map): a deck of plain fields asks none of its cards for a field's place (a build's edit reads
every card again); a reference that does not resolve is still found, at its place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.rules.cards import Card, read_database
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]


def test_a_deck_of_plain_fields_asks_no_card_for_a_place(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: Card, key: str) -> None:
        raise AssertionError(f"asked {self.id} for the place of {key}")

    monkeypatch.setattr(Card, "field_place", refused)
    problems = Problems()
    db = read_database("moth", ROOT / "tests" / "data" / "tinygame" / "cards", problems)
    assert db is not None and not problems and len(db.components["deck"].cards) == 6


def test_a_reference_that_does_not_resolve_is_found_at_its_place(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "cards" / "pi", tmp_path / "pi")
    cases = tmp_path / "pi" / "suspect_cases.yaml"
    text = cases.read_text(encoding="utf-8")
    assert "  - {id: case_velvet_vance, element: velvet_vance}\n" in text
    cases.write_text(text.replace("element: velvet_vance}", "element: velvet_vanse}"), encoding="utf-8")
    problems = Problems()
    read_database("pi", tmp_path, problems)
    line = text.splitlines().index("  - {id: case_velvet_vance, element: velvet_vance}") + 1
    found = [(p.place.path, p.place.line, p.message) for p in problems.errors]
    assert (str(cases), line, "unknown card id 'velvet_vanse' in 'element' (no such card in suspects)") in found, found


def test_checking_plain_fields_finds_no_place_and_a_wrong_value_is_said_at_its_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's fields are checked against their specs (rules/cards.py _check_value) with the place of each value
    found only if a problem is said: a sound deck of plain fields asks none (a 500-card deck: 1,500 places)."""
    from casebook.rules import cards
    from casebook.rules.yamlsource import Node, PackedNode

    asked: list[str] = []  # the places asked for while a card's fields are checked
    checking: list[bool] = []
    for cls in (Node, PackedNode):
        def value_place(self: Node, key: str, real=cls.value_place) -> object:
            if checking:
                asked.append(key)
            return real(self, key)

        monkeypatch.setattr(cls, "value_place", value_place)

    def check_fields(*args: object, real=cards._check_fields) -> None:
        checking.append(True)
        try:
            real(*args)
        finally:
            checking.pop()

    monkeypatch.setattr(cards, "_check_fields", check_fields)
    shutil.copytree(ROOT / "tests" / "data" / "tinygame" / "cards", tmp_path / "cards")
    problems = Problems()
    assert read_database("moth", tmp_path / "cards", problems) is not None and not problems
    assert not asked, asked
    deck = tmp_path / "cards" / "moth" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if "suit: wing" in line]
    deck.write_text(text.replace("suit: wing", "suit: wig", 1), encoding="utf-8")
    problems = Problems()
    read_database("moth", tmp_path / "cards", problems)
    assert [(p.place.line, "unknown suit 'wig'" in p.message) for p in problems.errors] == [(lines[0], True)]
