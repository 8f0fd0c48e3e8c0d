"""Where a composed text came from: the card field that holds it, for problems that name file:line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from casebook.rules.cards import GameDatabase
from casebook.rules.problems import Place


def field_holding(db: GameDatabase, card_id: Any, holds: Callable[[str], bool],
                  fallback: Place) -> tuple[Place, str | None]:
    """The place and name of the card's first text field for which `holds` is true, else (fallback, None).

    `card_id` is what a template context's `card` says (None on a sheet); the fallback is the layout's text line.
    """
    try:
        card = db.card(card_id) if isinstance(card_id, str) else None
    except KeyError:
        card = None
    if card is not None:
        for key, value in card.data.items():
            if isinstance(value, str) and holds(value):
                return card.field_place(key), key
    return fallback, None
