"""A 10,000-card deck is read from one YAML file and from one CSV file; hostile files are still refused.

The reader's value budget grows with the text it reads (one value for every 4 characters past
30,000) and what aliases repeat is bounded by what the file writes out: an honest deck is not
cut, an alias bomb is refused even when padded to the file size limit. (Timings and memory:
benchmarks/speed.py; the hostile corpus: test_hostile.py.)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from casebook.rules.cards import read_database
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import ALIAS_FACTOR, MAX_BYTES, MAX_NODES, VALUE_CHARS, parse_yaml
from tests.rules.hostile_corpus import CASES

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_deck", ROOT / "benchmarks" / "deck.py")
assert _spec is not None and _spec.loader is not None
deck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(deck)


@pytest.mark.parametrize("sheet", [False, True], ids=["yaml", "csv"])
def test_a_10000_card_deck_in_one_file_is_read(sheet: bool, tmp_path: Path) -> None:
    cards, _ = deck.make_deck(tmp_path, 10_000, sheet=sheet)
    problems = Problems()
    db = read_database(deck.GAME, cards, problems)
    assert db is not None and not problems, problems.format()[:2000]
    read = db.components["deck"].cards
    assert len(read) == 10_000
    assert read[-1].id == "card_10000" and read[-1].data["name"] == "Tallow Gas 10000"
    assert read[2730].data["suit"] == "wing" and read[2730].data["value"] == 1  # where the old limit cut


def test_honest_aliases_on_every_card_are_read() -> None:
    text = "defaults: &d {suit: wing, value: 1, tags: [a, b]}\ncards:\n"
    text += "".join(f"  - {{<<: *d, id: c{i}, name: Card {i}}}\n" for i in range(10_000))
    problems = Problems()
    data = parse_yaml(text, "deck.yaml", problems, packed="cards")
    assert data is not None and not problems, problems.format()
    assert len(data["cards"]) == 10_000 and data["cards"][-1]["tags"] == ["a", "b"]


def _bomb(name: str) -> str:
    return next(case for case in CASES if case.name == name).tail()


@pytest.mark.parametrize("name", ["bomb_lists", "bomb_mappings", "bomb_merge_keys", "bomb_block_style"])
def test_an_alias_bomb_padded_to_the_size_limit_is_refused_at_once(name: str) -> None:
    """A large file does not buy an alias bomb a larger budget: it is refused past MAX_NODES repeated values."""
    padding = "# " + "filler " * 11 + "\n"
    text = "a: 1\n" + padding * ((MAX_BYTES - 10_000) // len(padding)) + _bomb(name)
    assert len(text) < MAX_BYTES
    problems = Problems()
    assert parse_yaml(text, "x.yaml", problems) is None
    message = problems.errors[0].message
    assert "an alias bomb?" in message, message
    repeated = int(message.split("aliases repeat ")[1].split()[0])
    assert MAX_NODES < repeated < 2 * MAX_NODES  # refused at the alias that passed the budget, not later


def test_aliases_may_repeat_a_few_times_what_the_file_writes_out() -> None:
    written = "a: &a [" + ", ".join(["x"] * 999) + "]\n"  # 1,001 values written out (with the list and the key)
    filler = "".join(f"k{i}: [{i}, {i}]\n" for i in range(12_000))  # 48,000 values written out, at ~12 characters each
    within = written + filler + "b: [" + ", ".join(["*a"] * (ALIAS_FACTOR * 49)) + "]\n"
    problems = Problems()
    assert parse_yaml(within, "x.yaml", problems) is not None, problems.format()
    beyond = written + filler + "b: [" + ", ".join(["*a"] * (ALIAS_FACTOR * 51)) + "]\n"
    problems = Problems()
    assert parse_yaml(beyond, "x.yaml", problems) is None
    assert "aliases repeat" in problems.errors[0].message


def test_values_denser_than_any_deck_are_refused_before_the_end() -> None:
    """The budget is the text read so far: an honest start lends a dense run some room, not the rest of the file."""
    cards = "cards:\n" + "".join(f"  - {{id: c{i}, name: Card {i}}}\n" for i in range(20_000))  # 100,000 values
    dense = "many: [\n" + ("0," * 40_000 + "\n") * 10 + "0]\n"  # 400,000 values of 2 characters
    problems = Problems()
    assert parse_yaml(cards + dense, "x.yaml", problems) is None
    error = problems.errors[0]
    assert f"(more than one for every {VALUE_CHARS})" in error.message
    assert 20_002 < error.place.line < 20_010, error.place  # ~140,000 values into the run, not at its end
