"""The fine print a composer keeps (generator/legibility.py FinePrint): a set of texts held as one text."""

from __future__ import annotations

import sys

from casebook.generator.legibility import FinePrint


def test_it_answers_as_a_set_of_its_texts() -> None:
    fine = FinePrint()
    fine.update(["MO 1/3", "MO 2/3"])
    fine.add("MO 1/3")
    fine.add("© Casebook")
    assert "MO 1/3" in fine and "© Casebook" in fine
    assert "MO 1" not in fine and "1/3" not in fine and "" not in fine and 3 not in fine  # whole texts only
    assert list(fine) == ["MO 1/3", "MO 2/3", "© Casebook"] and len(fine) == 3


def test_a_text_holding_the_separator_is_taken_apart_and_never_matches_whole() -> None:
    fine = FinePrint()
    fine.add("a\0b")
    assert "a" in fine and "b" in fine and "a\0b" not in fine


def test_a_deck_of_codes_is_held_in_a_fraction_of_a_set() -> None:
    codes = [f"MO {n}/10000" for n in range(1, 10_001)]
    fine = FinePrint()
    fine.update(codes)
    assert all(code in fine for code in codes[:: 997]) and len(fine) == 10_000
    as_set = sys.getsizeof(set(codes)) + sum(sys.getsizeof(c) for c in codes)
    assert sys.getsizeof(fine._joined) * 5 < as_set
