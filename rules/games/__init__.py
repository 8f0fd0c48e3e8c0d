"""The registry of games: one module per game, listed in GAMES, looked up by id."""

from __future__ import annotations

from typing import Any, Protocol

from rules.games import graves


class GameModule(Protocol):
    ID: str
    TITLE: str

    def check_database(self, db: Any, problems: Any) -> None: ...


GAMES: dict[str, GameModule] = {graves.ID: graves}

_MISSING = object()


def find_game(game_id: str, default: Any = _MISSING) -> GameModule:
    """The game module for an id; KeyError naming the known games if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        if default is not _MISSING:
            return default
        raise KeyError(f"unknown game '{game_id}'; known: {', '.join(sorted(GAMES))}") from None
