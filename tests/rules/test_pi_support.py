"""Shared by the P.I. tests: the database (from cards/pi, or from a copy while game.yaml is still a draft)
and the worked example's deal. Holds no tests itself."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from casebook.rules.cards import CARDS_DIR, GameDatabase, load_database

# The rulebook's worked example on our city: Bubbles in Little Italy, Murder in Foundry Row (next to
# Little Italy and Main Street), No Crime on Main Street. Written out here, not taken from the engine.
EXAMPLE_TILES: dict[str, list[Any]] = {
    "hilltop": ["velvet_vance", "arson"], "theatre_row": ["dutch_moreau", "blackmail"],
    "chapel_square": ["the_deacon", "forgery"], "northgate": ["lucky_pell", "smuggling"],
    "rail_yards": ["madame_orsini", None], "gasworks": ["tommy_two_hats", "kidnapping"],
    "main_street": ["ingrid_halvorsen", None], "downtown": ["doc_farrow", "bank_robbery"],
    "waterfront": ["rosie_kane", "jewel_theft"], "shipyard": [None, "bootlegging"],
    "little_italy": ["bubbles", None], "foundry_row": ["slim_coyle", "murder"],
    "lantern_quarter": ["mr_whisper", "extortion"], "canal_street": [None, None],
}
EXAMPLE_DISPLAY = ["waterfront", "murder", "hilltop", "arson", "velvet_vance", "gasworks", "forgery",
                   "the_deacon", "canal_street"]


@cache
def pi_database() -> GameDatabase:
    """The P.I. database; while only game.yaml.draft exists, loaded from a copy with it renamed."""
    folder = CARDS_DIR / "pi"
    if (folder / "game.yaml").is_file():
        return load_database("pi")
    tmp = Path(tempfile.mkdtemp(prefix="pi-cards-")) / "cards"
    shutil.copytree(folder, tmp / "pi")
    (tmp / "pi" / "game.yaml.draft").rename(tmp / "pi" / "game.yaml")
    return load_database("pi", tmp)
