"""Checked cards are kept packed (plain text, places as numbers) and still name every place exactly."""

from __future__ import annotations

import pickle

from casebook.rules.cards import read_database
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import Node, PackedNode, Text, parse_yaml

CARD_FILE = """cards:
  - {id: lamp, name: Gas Lamp, suit: flame, value: 2}
  - id: moth
    name: Luna Moth
    suit: wing
    value: 3
    tags: [night, soft]
"""


def test_a_packed_node_keeps_every_key_and_value_place():
    problems = Problems()
    cards = parse_yaml(CARD_FILE, "deck.yaml", problems)["cards"]
    for node in cards:
        packed = PackedNode(node)
        assert isinstance(packed, Node) and dict(packed) == dict(node)
        for key in node:
            assert packed.key_place(key) == node.key_place(key), key
            assert packed.value_place(key) == node.value_place(key), key
        assert packed.key_places == node.key_places and packed.value_places == node.value_places
        assert packed.value_place("nonesuch") == node.place
        # text values are plain strings; nested lists stay located
        assert all(type(v) is str for v in packed.values() if isinstance(v, str))
        if "tags" in packed:
            assert packed["tags"].item_place(1) == node["tags"].item_place(1)
        copy = pickle.loads(pickle.dumps(packed))
        assert copy == packed and copy.value_place("suit") == node.value_place("suit")
    assert str(cards[1].value_place("suit")) == "deck.yaml:5:11"


def test_the_database_keeps_cards_packed_and_names_their_fields(graves_db):
    for card in graves_db.all_cards():
        assert isinstance(card.data, PackedNode)
        assert not any(isinstance(v, Text) for v in card.data.values())
        assert card.field_place("id").line >= card.place.line
    problems = Problems()
    db = read_database("graves", graves_db.folder.parent, problems)
    assert db is not None and not problems
    first = next(db.all_cards())
    line = (db.folder / "detective.yaml").read_text(encoding="utf-8").splitlines()[first.field_place("id").line - 1]
    assert first.id in line
