"""Rules search: the ranking's mechanisms, each on a small made-up game where it decides the order.

Each test shows the order with the mechanism and, where a weight switches it off, the order
without it: each ask scored on its own, "how many" wanting a counting ask, a Decktet card named by
rank and suit, an FAQ ruling over the rule it refines, and WordNet's related words.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from casebook.rules import search
from casebook.rules.search import RulesIndex, related

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Rule:
    id: str
    title: str
    text: str
    section: str = "Play"
    keywords: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()


@dataclass
class Ruling:
    id: str
    question: str
    ruling: str
    refs: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()


@dataclass
class Card:
    id: str
    data: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass
class Named:
    name: str


@dataclass
class Component:
    id: str
    name: str
    fields: dict[str, Any]
    cards: list[Card]


@dataclass
class Game:
    """Just what RulesIndex.build reads of a GameDatabase."""

    rules: list[Rule]
    faq: list[Ruling] = field(default_factory=list)
    components: dict[str, Component] = field(default_factory=dict)
    suits: dict[str, Named] = field(default_factory=dict)
    id: str = "toy"
    short_title: str = "Toy"
    records: dict[str, Component] = field(default_factory=dict)
    marks: dict[str, Named] = field(default_factory=dict)

    def all_records(self) -> list[Card]:
        return []

    def all_cards(self) -> list[Card]:
        return [c for comp in self.components.values() for c in comp.cards]


# rules of no interest to the questions below, so that words have the weights they have in a real game
FILLER = [Rule(f"filler_{n}", title, text) for n, (title, text) in enumerate([
    ("Setup", "Shuffle the deck and deal five cards to each player."),
    ("Turn order", "Play goes clockwise, starting with the dealer's left."),
    ("Scoring", "Count the points in your tricks at the end of each round."),
    ("Game end", "The game ends when someone reaches twenty points."),
    ("Leading", "The winner of a trick leads the next one."),
    ("Following", "Follow the suit that was led when you can."),
    ("Trumps", "The trump suit beats every other suit."),
    ("Discarding", "A card you cannot use goes to the discard pile."),
])]


def first(game: Game, query: str) -> str:
    hits = RulesIndex.build([game]).search(query)
    return hits[0].entry.id if hits else ""


# --- each ask on its own ----------------------------------------------------------------------

TRADING = Game([*FILLER,
    # asks that share the question's words between them ...
    Rule("hands", "Secrecy", "Never show your hand to your partner.",
         asks=("can I show my hand", "is my partner across from me", "do we swap seats")),
    # ... and one ask that is the question
    Rule("trading", "Trading", "Once a round two players may exchange one card.",
         asks=("can I swap hands with my partner",)),
])


def scores(game: Game, query: str) -> dict[str, float]:
    return {h.entry.id: h.score for h in RulesIndex.build([game]).search(query)}


def test_an_ask_that_is_the_question_gains_more_than_asks_that_share_its_words_between_them(monkeypatch):
    on = scores(TRADING, "can I swap hands with my partner")
    monkeypatch.setattr(search, "ASK_WEIGHT", 0.0)  # the asks only as one bag of words
    off = scores(TRADING, "can I swap hands with my partner")
    assert on["trading"] - off["trading"] > 2 * (on["hands"] - off["hands"]) > 0


COUNTING = Game([*FILLER,
    Rule("token_kinds", "Tokens", "Tokens mark the clues.", asks=("which tokens do we get",)),
    Rule("token_supply", "Tokens", "Tokens mark the clues.", asks=("how many tokens do we get",)),
])


def test_how_many_wants_the_ask_that_counts(monkeypatch):
    assert first(COUNTING, "how many tokens do we get") == "token_supply"
    assert first(COUNTING, "which tokens do we get") == "token_kinds"
    monkeypatch.setattr(search, "ASK_NOT_COUNTING", 1.0)
    assert first(COUNTING, "how many tokens do we get") == "token_kinds"  # a tie: the first entry


LONG_ASK = Game([*FILLER, Rule("seating", "Seating", "Partners sit across the table from each other.",
                                asks=("may the first player of the round swap seats with the partner across the "
                                      "table before the dealer shuffles and deals the cards face down",))])


def test_an_ask_below_the_floor_adds_nothing(monkeypatch):
    # "partner" is one word of many in the seating ask: too little of the ask to count on its own
    score = RulesIndex.build([LONG_ASK]).search("partner")[0].score
    monkeypatch.setattr(search, "ASK_FLOOR", 0.0)
    assert RulesIndex.build([LONG_ASK]).search("partner")[0].score > score


# --- Decktet cards by rank and suit -----------------------------------------------------------

DECK_FIELDS = {"name": {"type": "str"}, "rank": {"type": "enum"}, "suits": {"type": "list", "item": {"type": "suit"}}}
DECKTET = Game(
    [*FILLER, Rule("value_crown", "Crowns", "A crown is worth 10. Each suit has one crown, and each crown one suit."),
     Rule("suits", "Suits", "There are six suits: moons, suns, waves, leaves, wyrms and knots.")],
    components={"deck": Component("deck", "Deck", DECK_FIELDS, [
        Card("huntress", {"name": "Huntress", "rank": "crown", "suits": ["moons"]}),
        Card("windfall", {"name": "Windfall", "rank": "crown", "suits": ["knots"]}),
        Card("ace_of_knots", {"name": "Ace of Knots", "rank": "A", "suits": ["knots"]}),
        Card("pact", {"name": "Pact", "rank": 9, "suits": ["moons", "suns"]}),
        Card("diplomat", {"name": "Diplomat", "rank": 8, "suits": ["moons", "suns"]}),
        Card("merchant", {"name": "Merchant", "rank": 9, "suits": ["leaves", "knots"]}),
    ])},
    suits={s: Named(s.capitalize()) for s in ("moons", "suns", "waves", "leaves", "wyrms", "knots")},
)


@pytest.mark.parametrize(("query", "card"), [
    ("what's the crown of knots", "windfall"),
    ("crown of moons?", "huntress"),
    ("which card is the 9 of moons and suns", "pact"),
    ("what is the nine of suns", "pact"),
    ("the ace of knots", "ace_of_knots"),
])
def test_a_card_named_by_rank_and_suit_comes_first(query, card):
    assert first(DECKTET, query) == card


def test_two_cards_named_ask_how_they_meet_not_for_either():
    index = RulesIndex.build([DECKTET])
    assert index._games["toy"].by_rank_and_suit(["they", "led", "the", "ace", "of", "knots", "and", "i", "threw", "the", "crown", "of", "moons"]) \
        == set()
    found = index._games["toy"].by_rank_and_suit(["the", "crown", "of", "moons"])
    assert [index._games["toy"].docs[d].id for d in found] == ["huntress"]


# --- an FAQ ruling over the rule it refines ---------------------------------------------------

PASSING = Game(
    [*FILLER, Rule("turn_pass", "Passing", "On your turn you may pass: play no card.", keywords=("pass", "passing", "skip")),
     Rule("turn_play", "Playing a card", "Play one card face up in front of you.")],
    faq=[Ruling("faq_pass_points", "Passing at the end", "A player may still pass when the points are counted.",
                refs=("turn_pass",))],
)


def test_a_ruling_that_holds_more_of_the_question_ranks_over_the_rule_it_refines(monkeypatch):
    # the rule matches "pass" alone, the ruling "pass" and "points": the ruling gains FAQ_OVER_RULE
    on = scores(PASSING, "pass points")
    monkeypatch.setattr(search, "FAQ_OVER_RULE", 1.0)
    off = scores(PASSING, "pass points")
    assert on["faq_pass_points"] == pytest.approx(1.15 * off["faq_pass_points"], rel=1e-3)
    assert on["turn_pass"] == off["turn_pass"]


def test_a_ruling_stays_as_it_is_when_its_rule_matches_a_word_it_does_not(monkeypatch):
    on = scores(PASSING, "skip pass points")  # "skip" is the rule's alone
    monkeypatch.setattr(search, "FAQ_OVER_RULE", 1.0)
    assert scores(PASSING, "skip pass points") == on


# --- WordNet's related words ------------------------------------------------------------------

ARMS = Game([*FILLER,
    Rule("knives", "Knives", "A knife may be thrown once per game."),
    Rule("setup_deal", "Deal", "Deal three cards to each player."),
])


def test_a_word_the_game_never_uses_finds_its_narrower_words(monkeypatch):
    assert "knif" in related("weapon")  # stemmed as the search stems
    assert first(ARMS, "weapon") == "knives"
    monkeypatch.setattr(search, "RELATED_NEAR", 0.0)
    monkeypatch.setattr(search, "RELATED_SAME", 0.0)
    assert first(ARMS, "weapon") == ""


def test_a_related_word_counts_for_less_than_the_word_itself():
    index = RulesIndex.build([ARMS])
    assert index.search("knife")[0].score > 5 * index.search("weapon")[0].score


def test_the_related_table_ships_in_the_package_with_its_licence():
    data = ROOT / "rules" / "data"
    assert (data / "related.txt").stat().st_size > 50_000
    assert "Princeton University" in (data / "LICENSE-wordnet.txt").read_text(encoding="utf-8")
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "data/*.txt" in setup["package-data"]["casebook.rules"]


def test_every_line_of_the_related_table_is_a_word_and_two_lists():
    for line in (ROOT / "rules" / "data" / "related.txt").read_text(encoding="utf-8").splitlines():
        word, same, near = line.split("\t")
        assert word.isalpha() and (same or near), line
