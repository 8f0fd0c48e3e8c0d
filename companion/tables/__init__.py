"""The table screen of each game, drawn inside the frame's TableScreen.

A game's module here provides NEW_GAME (what the new-game screen asks) and a Table class
(a GameTable): adding a game is adding a module and a line to TABLES.
"""

from __future__ import annotations

import importlib
from types import ModuleType

TABLES = {"graves": "companion.tables.graves", "syndicate": "companion.tables.syndicate",
          "pi": "companion.tables.pi", "hasty": "companion.tables.hasty",
          "clash": "companion.tables.clash"}


def table_module(game_id: str) -> ModuleType:
    return importlib.import_module(TABLES[game_id])
