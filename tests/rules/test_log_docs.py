"""docs/game-log.md names every key of every game's `casebook replay LOG --json` state.

What it holds: each whole-game log under tests/data/logs (those that replay to the end) is run
through `casebook replay --json` itself, and stepped event by event with the same engine calls
(rules/log.py `start`, the game's `apply` and `summary`, then a trip through JSON), so the state
after every event is seen, not only the last one; every player's view (`view`, what the companion
shows one player) is walked too. Every key at any depth is collected, except the keys of maps
keyed by data rather than by name: player names, and names of things (`Little Italy`, a card's
name) which are not snake_case. Each key must appear in backticks (`key`) in that game's
"### `state`: <game>" section of docs/game-log.md.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from contextlib import redirect_stdout
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from casebook.cli import main
from casebook.rules.cards import load_database
from casebook.rules.games import GAMES
from casebook.rules.log import GameLog, replay, start
from tests.rules.logfiles import read_log

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "game-log.md"
LOGS = ROOT / "tests" / "data" / "logs"
TITLES = {"graves": "Graves", "syndicate": "The Syndicate", "pi": "P.I.", "hasty": "Hasty Accusations",
          "clash": "Clash of Minds"}
KEY = re.compile(r"[a-z][a-z0-9_]*\Z")


@cache
def database(game: str) -> Any:
    return load_database(game)


@cache
def whole_games() -> dict[str, list[tuple[Path, GameLog]]]:
    """Every log under tests/data/logs that replays to its end, by game."""
    found: dict[str, list[tuple[Path, GameLog]]] = {game: [] for game in TITLES}
    for path in sorted(LOGS.rglob("*.yaml")):
        if "expected" in path.name:
            continue
        log = read_log(path)
        if replay(database(log.game), log).error is None:
            found[log.game].append((path, log))
    return found


def keys(value: Any, where: str, players: set[str]) -> Iterator[tuple[str, str]]:
    """(key, where it was found) for every key at any depth; a map keyed by players or by names is crossed
    without taking its keys."""
    if isinstance(value, dict):
        for key, inner in value.items():
            named = KEY.match(key) and key not in players
            if named:
                yield key, f"{where}.{key}"
            yield from keys(inner, f"{where}.{key}" if named else f"{where}.<name>", players)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner, f"{where}[]", players)


def state_sections() -> dict[str, str]:
    """Each game's "### `state`: <game>" section, up to the next heading."""
    text, out = DOC.read_text(), {}
    for game, title in TITLES.items():
        found = re.search(rf"^### `state`: {re.escape(title)}\n(.*?)(?=^#)", text + "\n#", re.S | re.M)
        assert found, f"{DOC.name}: no section '### `state`: {title}'"
        out[game] = found.group(1)
    return out


def replay_json(path: Path) -> dict[str, Any]:
    """What `casebook replay PATH --json` prints, parsed."""
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["replay", str(path), "--json"])
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("game", sorted(TITLES))
def test_every_state_key_is_documented(game):
    logs = whole_games()[game]
    assert logs, f"no whole-game log of {game} under {LOGS}"
    seen: dict[str, str] = {}
    for path, log in logs:
        rules, players = GAMES[game], set(log.players)
        state = start(database(game), log)
        for event in [None, *log.events]:
            if event is not None:
                rules.apply(state, event)
            for summary in [rules.summary(state)] + [rules.view(state, p) for p in range(len(log.players))]:
                for key, where in keys(json.loads(json.dumps(summary)), "state", players):
                    seen.setdefault(key, f"{where} ({path.relative_to(ROOT)})")
        # the stepping above is what `casebook replay --json` does: its last state is the command's
        assert replay_json(path)["state"] == json.loads(json.dumps(rules.summary(state))), path
    section = state_sections()[game]
    missing = {key: where for key, where in seen.items() if f"`{key}`" not in section}
    assert not missing, (f"{DOC.name}, '### `state`: {TITLES[game]}' does not name "
                         + "; ".join(f"`{k}` (e.g. {w})" for k, w in sorted(missing.items())))
