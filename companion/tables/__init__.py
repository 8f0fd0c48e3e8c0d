"""The table screen of each game, drawn inside the frame's TableScreen.

A game's folder here holds its table, table.py (NEW_GAME, what the new-game screen asks, and a
Table class, a GameTable), beside its input pad, pad.py (the half-entered action, plain Python):
adding a game is adding a folder and a line to TABLES. The games' card databases and titles are
read here, each when first asked for (GameDatabases, GameTitles).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase

TABLES = {"graves": "casebook.companion.tables.graves.table", "syndicate": "casebook.companion.tables.syndicate.table",
          "pi": "casebook.companion.tables.pi.table", "hasty": "casebook.companion.tables.hasty.table",
          "clash": "casebook.companion.tables.clash.table"}


def table_module(game_id: str) -> ModuleType:
    return importlib.import_module(TABLES[game_id])


class GameDatabases(Mapping[str, "GameDatabase"]):
    """Each game's card database, read and checked the first time something asks for it."""

    def __init__(self, games: list[str]):
        self._games = list(games)
        self._loaded: dict[str, GameDatabase] = {}

    def __getitem__(self, game: str) -> GameDatabase:
        if game not in self._loaded:
            if game not in self._games:
                raise KeyError(game)
            import casebook.rules.games  # noqa: F401 - registers the games' own checks with load_database
            from casebook.rules.cards import load_database

            self._loaded[game] = load_database(game)
        return self._loaded[game]

    def __contains__(self, game: object) -> bool:  # without reading it (Mapping's would)
        return game in self._games

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def is_loaded(self, game: str) -> bool:
        return game in self._loaded


class GameTitles(Mapping[str, str]):
    """Each game's short title ("Graves"), as its database names it; read from its game.yaml alone while the
    database is not loaded, so the new-game screen lists every game without reading five card databases."""

    def __init__(self, dbs: GameDatabases):
        self._dbs = dbs
        self._titles: dict[str, str] = {}

    def __getitem__(self, game: str) -> str:
        if self._dbs.is_loaded(game):
            return self._dbs[game].short_title
        if game not in self._titles:
            if game not in self._dbs:
                raise KeyError(game)
            self._titles[game] = self._read(game)
        return self._titles[game]

    @staticmethod
    def _read(game: str) -> str:
        from casebook.rules.cards import CARDS_DIR
        from casebook.rules.problems import Problems
        from casebook.rules.yamlsource import load_yaml, plain

        raw = plain(load_yaml(CARDS_DIR / game / "game.yaml", Problems()))
        found = raw.get("short_title") or raw.get("title") if isinstance(raw, dict) else None
        return str(found) if isinstance(found, str | int) and str(found) else game.capitalize()

    def __contains__(self, game: object) -> bool:
        return game in self._dbs

    def __iter__(self) -> Iterator[str]:
        return iter(self._dbs)

    def __len__(self) -> int:
        return len(self._dbs)
