"""The registry of games: one module per game, listed in GAMES, looked up by id."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from rules.games import clash, graves, hasty, pi, syndicate

GAMES: dict[str, ModuleType] = {graves.ID: graves, syndicate.ID: syndicate, pi.ID: pi, hasty.ID: hasty,
                              clash.ID: clash}

_MISSING = object()


def find_game(game_id: str, default: Any = _MISSING) -> Any:
    """The game module for an id; KeyError naming the known games if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        if default is not _MISSING:
            return default
        raise KeyError(f"unknown game '{game_id}'; known: {', '.join(sorted(GAMES))}") from None
