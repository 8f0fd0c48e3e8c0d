"""The table screen of each game, drawn inside the frame's TableScreen.

A game's folder here holds its table, table.py (NEW_GAME, what the new-game screen asks, and a
Table class, a GameTable), beside its input pad, pad.py (the half-entered action, plain Python):
adding a game is adding a folder and a line to TABLES.
"""

from __future__ import annotations

import importlib
from types import ModuleType

TABLES = {"graves": "casebook.companion.tables.graves.table", "syndicate": "casebook.companion.tables.syndicate.table",
          "pi": "casebook.companion.tables.pi.table", "hasty": "casebook.companion.tables.hasty.table",
          "clash": "casebook.companion.tables.clash.table"}


def table_module(game_id: str) -> ModuleType:
    return importlib.import_module(TABLES[game_id])
