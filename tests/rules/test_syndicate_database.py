"""The Syndicate's card database: the basic Decktet as game-facts.md lists it, proved complete,
and its rules lookup answers the questions the issue names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.rules.cards import CARDS_DIR, read_database
from casebook.rules.problems import Problems
from casebook.rules.search import RulesIndex


def test_the_basic_decktet(syndicate_db):
    cards = syndicate_db.components["decktet"].cards
    assert len(cards) == 36
    by_rank = {}
    for c in cards:
        by_rank.setdefault(str(c["rank"]), []).append(c)
    assert sorted(by_rank) == ["2", "3", "4", "5", "6", "7", "8", "9", "A", "crown"]
    for rank, group in by_rank.items():
        suits = [s for c in group for s in c["suits"]]
        assert sorted(suits) == sorted(syndicate_db.suits), f"rank {rank}: each suit exactly once"
    assert all(not c["marks"] for c in by_rank["A"])
    two_marks = sorted(c["name"] for c in cards if len(c["marks"]) == 2)
    assert two_marks == ["End", "Market", "Origin"]
    assert {c["name"]: list(c["suits"]) for c in by_rank["crown"]}["Calamity"] == ["wyrms"]
    assert "P.D. Magnus" in syndicate_db.credit and "CC BY-NC-SA" in syndicate_db.credit


@pytest.mark.parametrize("find, replace, message", [
    ("id: ace_of_suns, name: Ace of Suns, rank: A, suits: [suns], marks: []",
     "id: ace_of_suns, name: Ace of Suns, rank: A, suits: [suns], marks: [event]", "Ace 'ace_of_suns' has a mark"),
    ("id: author, name: Author, rank: 2, suits: [moons, knots]",
     "id: author, name: Author, rank: 2, suits: [moons, suns]", "two cards of rank 2 in suns"),
    ("id: author, name: Author, rank: 2, suits: [moons, knots], marks: [personality]",
     "id: author, name: Author, rank: 2, suits: [moons, knots], marks: [villain]", "unknown mark 'villain'"),
])
def test_a_wrong_deck_is_refused_with_its_place(tmp_path: Path, find, replace, message):
    shutil.copytree(CARDS_DIR / "syndicate", tmp_path / "syndicate")
    path = tmp_path / "syndicate" / "deck.yaml"
    text = path.read_text()
    assert text.count(find) == 1
    path.write_text(text.replace(find, replace))
    problems = Problems()
    read_database("syndicate", tmp_path, problems)
    report = problems.format()
    assert message in report
    assert "deck.yaml:" in report


@pytest.mark.parametrize("query, want", [
    ("card with two marks", "faq_two_marks"),
    ("two players reach 12 at the same time", "faq_tie_at_twelve"),
    ("draw pile empty", "faq_empty_draw_pile"),
    ("ace eleven crown", "value_ace"),
    ("Calamity", "calamity"),
])
def test_rules_lookup_answers_table_questions(syndicate_db, query, want):
    hits = RulesIndex.build([syndicate_db]).search(query, game="syndicate", limit=3)
    assert want in [h.entry.id for h in hits], [h.entry.id for h in hits]
