"""An enum field's `words`: what a player reads for each value. The rules lookup shows a card's facts in them
("Restriction: can't be played at the loupe", not the value's id `cant_loupe`), and a bad `words` is refused
with its place and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.rules.cards import load_database, read_database
from casebook.rules.problems import Problems
from casebook.rules.search import RulesIndex
from tests.rules.test_print_only_game import YAML_GAME, lamps


def test_a_hasty_cards_restriction_reads_as_words_not_its_id():
    index = RulesIndex.build([load_database("hasty")])
    hit = index.search("what does stalling do", game="hasty")[0]
    assert hit.entry.id == "stalling"
    assert "Restriction: can't be played at the loupe." in hit.entry.text
    assert "cant_loupe" not in hit.entry.text


def test_every_restriction_of_the_hasty_deck_has_words():
    db = load_database("hasty")
    spec = db.components["actions"].fields["restriction"]
    assert set(spec["words"]) == set(spec["values"])


def _words_problem(tmp_path: Path, words: str, field: str = "grade: {type: enum, values: [\"1\", \"2\", A]") -> str:
    game = YAML_GAME.replace('grade: {type: enum, values: ["1", "2", A]}', f"{field}, words: {words}}}")
    assert game != YAML_GAME
    problems = Problems()
    read_database("lamps", lamps(tmp_path, game, ("deck.yaml", "cards:\n  - {name: Moth, suit: wing, rank: 7, grade: A}\n")),
                  problems)
    return problems.format()


def test_good_words_are_taken(tmp_path):
    assert _words_problem(tmp_path, '{A: "an ace"}') == ""


@pytest.mark.parametrize(("words", "field", "said"), [
    ('{B: "a bee"}', 'grade: {type: enum, values: ["1", "2", A]', "names 'B', which is not one of its values"),
    ('{A: 3}', 'grade: {type: enum, values: ["1", "2", A]', "must map each value to its words"),
    ('"an ace"', 'grade: {type: enum, values: ["1", "2", A]', "must map each value to its words"),
    ('{A: "an ace"}', "grade: {type: str", "is for an enum field only, not 'str'"),
])
def test_bad_words_are_refused_with_the_place_and_the_fix(tmp_path, words, field, said):
    message = _words_problem(tmp_path, words, field)
    assert said in message
    assert "game.yaml:" in message  # file:line
