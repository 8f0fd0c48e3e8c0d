"""The Final Turn's Action Cards lie face down: refusing a second placing of one names none of them, so the
table does not learn which card lies where (issue 20: nothing shown tells more than the physical game)."""

from __future__ import annotations

import pytest

from casebook.rules.cards import load_database
from casebook.rules.engine import IllegalAction
from casebook.rules.games import clash as c
from tests.rules.test_clash_engine import ANN, BEN, game, plays, setup


@pytest.mark.parametrize("card", c.ACTION_CARDS)
def test_placing_a_card_twice_is_refused_without_naming_a_card(card):
    state = setup(game(load_database("clash")), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "cross_examination", 3), (BEN, "hired_muscle", 3))
    assert state.phase == "final_place" and state.active == "holmes"
    c.apply(state, {"action": "place", "by": ANN, "card": card, "thread": 2})
    c.apply(state, {"action": "place", "by": BEN, "card": "play", "thread": 1})
    with pytest.raises(IllegalAction) as refused:
        c.apply(state, {"action": "place", "by": ANN, "card": card, "thread": 3})
    said = str(refused.value)
    assert "placed that Action Card already" in said and refused.value.rule.id == "final_place"
    named = [name for name in c.ACTION_CARD_NAMES.values() if name.lower() in said.lower()]
    assert named == [], f"the refusal names a face-down card: {named} in {said!r}"
    assert "thread 2" not in said  # nor where it lies
