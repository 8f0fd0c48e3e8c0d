"""The registry of games: one module per game, listed in GAMES, looked up by id.

Importing it also registers each game's own database checks with the loader (rules/cards.py),
which does not import the games itself: whatever reads a game's database imports this first.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from casebook.rules.cards import register_game_checks
from casebook.rules.games import clash, graves, hasty, pi, syndicate

GAMES: dict[str, ModuleType] = {graves.ID: graves, syndicate.ID: syndicate, pi.ID: pi, hasty.ID: hasty,
                              clash.ID: clash}
for _game in GAMES.values():
    register_game_checks(_game.ID, _game.check_database)

_MISSING = object()


def find_game(game_id: str, default: Any = _MISSING) -> Any:
    """The game module for an id; KeyError naming the known games if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        if default is not _MISSING:
            return default
        raise KeyError(f"unknown game '{game_id}'; known: {', '.join(sorted(GAMES))}") from None
