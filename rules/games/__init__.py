"""The registry of games: a table of game ids and their modules, each imported when first asked for.

As python-chess lists its variants, GAMES lists every game; unlike an import of all five,
looking one up imports that game's engine only (a build of one game does not pay for the
other four). Importing the registry also registers each game's own database checks with
the loader (rules/cards.py), which does not import the games itself: whatever reads a game's
database imports this first, and a check imports its engine when it first runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from casebook.rules.cards import register_game_checks

if TYPE_CHECKING:
    from casebook.rules.cards import GameCheck, GameDatabase
    from casebook.rules.problems import Problems

# game id -> its engine, rules/games/<id>.py (tests/rules/test_registry.py holds this table to the folder)
MODULES = {gid: f"{__name__}.{gid}" for gid in ("graves", "syndicate", "pi", "hasty", "clash")}


class Registry(Mapping[str, ModuleType]):
    """Every game by id; a game's module is imported the first time it is looked up."""

    def __getitem__(self, game_id: str) -> ModuleType:
        name = MODULES.get(game_id) if isinstance(game_id, str) else None
        if name is None:
            raise KeyError(game_id)
        return importlib.import_module(name)

    def __contains__(self, game_id: object) -> bool:  # without importing it (Mapping's would)
        return game_id in MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


GAMES = Registry()


class LazyCheck:
    """A game's check_database, its engine imported when the check first runs."""

    __slots__ = ("game_id",)

    def __init__(self, game_id: str):
        self.game_id = game_id

    @property
    def target(self) -> GameCheck:
        """The game's own check_database (importing its engine)."""
        check: GameCheck = GAMES[self.game_id].check_database
        return check

    def __call__(self, db: GameDatabase, problems: Problems) -> None:
        self.target(db, problems)

    def __repr__(self) -> str:
        return f"LazyCheck({MODULES[self.game_id]}.check_database)"


for _game_id in MODULES:
    register_game_checks(_game_id, LazyCheck(_game_id))

_MISSING = object()


def find_game(game_id: str, default: Any = _MISSING) -> Any:
    """The game module for an id; KeyError naming the known games if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        if default is not _MISSING:
            return default
        raise KeyError(f"unknown game '{game_id}'; known: {', '.join(sorted(GAMES))}") from None
