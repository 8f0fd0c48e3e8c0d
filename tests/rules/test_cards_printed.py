"""Printed counts: a component prints the sum of its cards' copies, and every printed card is
numbered once, 1..total, with the same total (counted once per component)."""

from __future__ import annotations

from casebook.generator.build import BuildOptions, compose_game
from casebook.rules.problems import Problems


def test_printed_is_the_sum_of_copies(graves_db):
    for component in graves_db.components.values():
        assert component.printed == sum(card.copies for card in component.cards)
    assert graves_db.components["time_tokens"].printed == 28 and len(graves_db.components["time_tokens"].cards) == 1


def test_every_printed_card_is_numbered_once_out_of_the_total():
    problems = Problems()
    composed = compose_game("graves", BuildOptions(papers=()), problems)
    assert composed is not None, problems.format()
    for cid, faces in composed.faces.items():
        component = composed.db.components[cid]
        assert [f.number for f in faces] == list(range(1, component.printed + 1))
        copies = {}
        for f in faces:
            copies[f.card.id] = copies.get(f.card.id, 0) + 1
        assert copies == {card.id: card.copies for card in component.cards}
