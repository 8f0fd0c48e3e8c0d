"""The one place the companion asks which picture a thing draws: the same symbol its printed card draws (a Graves
location, a P.I. suspect, crime, district or its tile and case cards, a Hasty suspect, a Clash site, agent or crime
plan), as tools/app_assets.py rendered it from the print's library. The index is read at the first question, not at
start: a table that names nothing with a picture never reads it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

SYMBOLS = Path(__file__).resolve().parent / "assets" / "symbols"
INDEX = SYMBOLS / "pictures.yaml"


@lru_cache(maxsize=1)
def _read() -> dict[str, Any]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(INDEX.read_text(encoding="utf-8"), Loader=loader)
    except (OSError, yaml.YAMLError):
        return {}  # no pictures beats no app: every name still shows
    return data if isinstance(data, dict) else {}


def _index() -> dict[str, dict[str, str]]:
    games = _read().get("games")
    return games if isinstance(games, dict) else {}


def credit() -> str:
    """Who made the icons among the pictures (their licence asks that they be named), '' if all are ours."""
    return str(_read().get("credit") or "")


def symbol_for(game: str, thing_id: str | None) -> str | None:
    """The symbol (the library's name) a thing's card draws, or None if it draws none of its own."""
    if not thing_id:
        return None
    found = (_index().get(game) or {}).get(thing_id)
    return str(found) if found else None


def picture_for(game: str, thing_id: str | None) -> str | None:
    """The PNG of the picture a thing's card draws (white on transparent: tint it), or None."""
    name = symbol_for(game, thing_id)
    if name is None:
        return None
    path = SYMBOLS / f"{name}.png"
    return str(path) if path.is_file() else None
