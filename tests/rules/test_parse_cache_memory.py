"""A packed card file kept in the parse cache is read back without leaving holes (rules/yamlsource.py).

An unpickler keeps every memoized object until the whole file is read. A card pickled with
a tuple or a dict made only to carry its parts (its entries, its place, a Place's __dict__)
leaves one such object a card alive to the end: a 10,000-card deck's cards then sit amid
megabytes of freed blocks that the build never gets back. So a packed card, a Place and a list
of packed cards are pickled with nothing memoized but what the tree keeps.
"""

from __future__ import annotations

import pickle
import pickletools

from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import PackedNode, Seq, _reduce_place, parse_yaml

DECK = "cards:\n" + "".join(f"  - {{id: c{i}, name: Card {i}, value: {i % 3}}}\n" for i in range(200))


def _pickled(tree: object) -> bytes:
    """As ParseCache writes a tree."""
    import copyreg
    import io

    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, Place: _reduce_place}
    pickler.dump(tree)
    return out.getvalue()


def test_a_packed_deck_pickles_no_container_a_card() -> None:
    tree = parse_yaml(DECK, "deck.yaml", Problems(), packed="cards")
    cards = tree["cards"]
    assert isinstance(cards, Seq) and all(type(card) is PackedNode for card in cards)
    data = _pickled(tree)
    ops = [op.name for op, _, _ in pickletools.genops(data)]
    containers = sum(ops.count(name) for name in ("TUPLE1", "TUPLE2", "TUPLE3", "TUPLE", "EMPTY_DICT", "DICT"))
    assert containers < 20, containers  # the tree's own few, none a card (was 3 a card: 600 here)


def test_a_packed_deck_reads_back_the_same_with_its_places() -> None:
    tree = parse_yaml(DECK, "deck.yaml", Problems(), packed="cards")
    again = pickle.loads(_pickled(tree))
    cards, before = again["cards"], tree["cards"]
    assert [dict(card) for card in cards] == [dict(card) for card in before]
    for i, (card, was) in enumerate(zip(cards, before, strict=True)):
        assert card.place == was.place and card.value_place("name") == was.value_place("name")
        assert cards.item_place(i) is card.place  # one Place, shared as parsing shares it
    assert cards.place == before.place and again.value_place("cards") == tree.value_place("cards")


def test_a_list_of_located_mappings_keeps_its_own_places() -> None:
    tree = parse_yaml("- {a: 1}\n- {b: 2}\n", "list.yaml", Problems())
    again = pickle.loads(_pickled(tree))
    assert again == tree and again.item_places == tree.item_places and again.place == tree.place


def test_a_packed_card_copies_with_its_places_and_values() -> None:
    """A game's database is deep-copied (a test changing one card's picture); a packed card has no append, so
    copy's default rebuild (items through append) broke on it."""
    import copy

    tree = parse_yaml("cards:\n  - id: c1\n    name: Card\n    tags: [a, b]\n", "deck.yaml", Problems(), packed="cards")
    card = tree["cards"][0]
    for copied in (copy.copy(card), copy.deepcopy(tree)["cards"][0]):
        assert type(copied) is PackedNode and copied == card and copied.place == card.place
        assert copied.value_place("tags") == card.value_place("tags") == Place("deck.yaml", 4, 11)
    deep = copy.deepcopy(card)
    deep["tags"].append("c")
    assert card["tags"] == ["a", "b"]  # a deep copy's lists are its own


def test_a_spreadsheet_row_copies_with_its_cells(tmp_path) -> None:
    import copy

    from casebook.rules.sheetsource import load_sheet

    sheet = tmp_path / "deck.csv"
    sheet.write_text("id,name\na1,Alpha\n", encoding="utf-8")
    problems = Problems()
    node = load_sheet(sheet, {"name": {"type": "str", "required": True}}, problems, {})
    assert node is not None, problems
    row = node["cards"][0]
    twin = copy.deepcopy(row)
    assert type(twin) is type(row) and twin == row and twin.value_place("name") == row.value_place("name")
