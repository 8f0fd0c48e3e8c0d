"""A card file's cards are packed as each one ends: the same values and places as packing them afterwards."""

from __future__ import annotations

from casebook.rules.problems import Problems
from casebook.rules.yamlsource import Node, PackedNode, Text, parse_yaml

CARDS = """\
title: moths
cards:
  - {id: dusty, name: Dusty Luna, suit: wing, value: 1}
  - id: ember
    name: "Ember Ash"
    tags: [bright, hot]
    art: {file: ember.png, x: 3}
  - &twin {id: twin, name: Twin}
  - *twin
  - plain text
other:
  - {id: not_a_card, name: Left located}
"""


def test_cards_packed_while_read_keep_values_and_places() -> None:
    problems = Problems()
    packed = parse_yaml(CARDS, "deck.yaml", problems, packed="cards")
    located = parse_yaml(CARDS, "deck.yaml", Problems())
    assert not problems
    dusty, ember = packed["cards"][0], packed["cards"][1]
    assert isinstance(dusty, PackedNode) and isinstance(ember, PackedNode)
    assert not any(isinstance(v, Text) for v in dusty.values())  # no located text held per value
    for got, want in zip(packed["cards"][:2], located["cards"][:2], strict=True):
        assert got == want
        assert got.place == want.place
        for key in want:
            assert got.key_place(key) == want.key_place(key), key
            assert got.value_place(key) == want.value_place(key), key
    assert str(ember.value_place("name")) == "deck.yaml:5:11"
    assert ember["tags"].item_place(1).col == 20  # a list inside a card stays located
    # an anchored card is left located (an alias copies it); other lists and the top level are untouched
    assert type(packed["cards"][2]) is Node and packed["cards"][3] == {"id": "twin", "name": "Twin"}
    assert packed["cards"][4] == "plain text"
    assert type(packed["other"][0]) is Node and type(packed) is Node


def test_problems_in_a_packed_card_file_still_name_their_place() -> None:
    problems = Problems()
    parse_yaml("cards:\n  - {id: a, id: b}\n", "deck.yaml", problems, packed="cards")
    assert [str(p.place) for p in problems.errors] == ["deck.yaml:2:13"]
    assert "duplicate key 'id'" in problems.errors[0].message


def test_a_card_with_places_past_column_255_keeps_them() -> None:
    long_name = "N" * 300
    text = f"cards:\n  - {{id: a, name: {long_name}, suit: wing}}\n"
    card = parse_yaml(text, "deck.yaml", Problems(), packed="cards")["cards"][0]
    located = parse_yaml(text, "deck.yaml", Problems())["cards"][0]
    assert isinstance(card, PackedNode)
    assert card.value_place("suit") == located.value_place("suit")
    assert card.value_place("suit").col == text.splitlines()[1].index("wing") + 1 > 256
