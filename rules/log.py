"""Game logs: a header (game, rules version, players, variants, seed, setup) and numbered events.

The format is documented in docs/game-log.md. This module turns text into a log and a
log into text, and replays a log through the game's engine; reading and writing files
is the caller's (the command line's, the companion's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.rules.engine import Event, IllegalAction
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, Seq, dump_yaml, parse_yaml, plain

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase

# a log is read (and a list of saved games made) without importing any engine: the registry (rules/games) is
# imported only to replay one; which games there are is read from its folder, one module a game
GAMES_DIR = Path(__file__).resolve().parent / "games"


def game_ids() -> list[str]:
    """The ids of the games the engines know (rules/games/<id>.py), without importing them."""
    return sorted(p.stem for p in GAMES_DIR.glob("*.py") if not p.stem.startswith("_"))


FORMAT = "casebook-log"
VERSION = 1
HEADER_KEYS = ("game", "rules_version", "created", "players", "variants", "seed", "setup")


@dataclass
class GameLog:
    """A game's log: the game, its rules version, players, variants, seed, setup and events in order."""
    game: str
    rules_version: int
    players: list[str]
    variants: list[str] = field(default_factory=list)
    seed: int | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    created: str | None = None
    event_places: list[Place] = field(default_factory=list)  # where each event was read, if from text

    def header(self) -> dict[str, Any]:
        """What a game module's new_state takes: players, variants, seed and the setup keys."""
        return {**self.setup, "players": list(self.players), "variants": list(self.variants), "seed": self.seed}

    def place(self, number: int) -> Place | None:
        return self.event_places[number - 1] if 0 < number <= len(self.event_places) else None


def parse_log(text: str, name: str, problems: Problems) -> GameLog | None:
    """Read a log from YAML or JSON text; every problem is added with its place, None if unusable."""
    if not text.strip():
        problems.add(Place(name), "the log is empty", f"a {FORMAT}: {VERSION} document (see docs/game-log.md)")
        return None
    data = parse_yaml(text, name, problems, aliases=False)  # JSON is YAML too; logs never need aliases
    if data is None:
        if not problems:
            problems.add(Place(name), "the log is empty")
        return None
    if not isinstance(data, Node):
        problems.add(Place(name, 1, 1), "a log is a mapping with a header and 'events'", f"{FORMAT}: {VERSION}")
        return None
    version = data.get(FORMAT)
    if version != VERSION:
        problems.add(data.key_place(FORMAT) if FORMAT in data else data.place,
                     f"not a version-{VERSION} Casebook game log ({FORMAT}: {version!r})", f"{FORMAT}: {VERSION}")
        return None
    for key in data:
        if key not in (FORMAT, *HEADER_KEYS, "events"):
            problems.add(data.key_place(key), f"unknown key '{key}' in the log header",
                         "one of: " + ", ".join((FORMAT, *HEADER_KEYS, "events")))
    game = data.get("game")
    known = game_ids()
    if game not in known:
        problems.add(data.value_place("game") if "game" in data else data.place, f"unknown game {game!r}",
                     "one of: " + ", ".join(known))
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        problems.add(data.value_place("players") if "players" in data else data.place, "players: a list of names",
                     "players: [Ann, Ben]")
    version_no = data.get("rules_version")
    if isinstance(version_no, bool) or not isinstance(version_no, int):
        problems.add(data.value_place("rules_version") if "rules_version" in data else data.place,
                     "rules_version: a whole number", "rules_version: 1")
    setup = data.get("setup", {})
    if not isinstance(setup, dict):
        problems.add(data.value_place("setup"), "setup: a mapping", "setup: {detective: Ann, locations: [...]}")
        setup = {}
    events = data.get("events", [])
    if not isinstance(events, Seq):
        problems.add(data.value_place("events") if "events" in data else data.place, "events: a list", "events: []")
        events = Seq()
        events.place, events.item_places = data.place, []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            problems.add(events.item_place(i), f"event {i + 1} is not a mapping", "- {action: pass, by: Ann}")
    if problems or not isinstance(players, list) or not isinstance(version_no, int):
        return None
    return GameLog(str(game), version_no, [str(p) for p in players], [str(v) for v in data.get("variants") or []],
                   data.get("seed"), plain(setup), [plain(e) for e in events],
                   str(data["created"]) if data.get("created") is not None else None,
                   [events.item_place(i) for i in range(len(events))])


def format_log(log: GameLog, as_json: bool = False) -> str:
    """The log as text: YAML with one event a line (or JSON)."""
    header: dict[str, Any] = {FORMAT: VERSION, "game": log.game, "rules_version": log.rules_version}
    if log.created:
        header["created"] = log.created
    header["players"] = list(log.players)
    header["variants"] = list(log.variants)
    if log.seed is not None:
        header["seed"] = log.seed
    header["setup"] = plain(log.setup)
    header = plain(header)
    events = plain(log.events)
    if as_json:
        return json.dumps({**header, "events": events}, indent=1, ensure_ascii=False) + "\n"
    out = dump_yaml(header)
    lines = ["events:"] if events else ["events: []"]
    for event in events:
        lines.append("  - " + dump_yaml(event, flow=True))
    return out + "\n".join(lines) + "\n"


@dataclass
class Replay:
    """A log replayed: the state reached, how many events applied, and the error that stopped it, if any."""
    state: Any
    applied: int
    error: IllegalAction | None = None


def start(db: GameDatabase, log: GameLog) -> Any:
    """The state before the first event; IllegalAction (event 0) if the header is wrong."""
    from casebook.rules.games import GAMES

    game = GAMES[log.game]
    if db.rules_version is None:
        raise IllegalAction(f"the game '{db.id}' has no rules version (rules_version: in its game.yaml), so no log "
                            "can be played against its cards", event_no=0, action="header")
    if log.rules_version > db.rules_version:
        raise IllegalAction(f"the log needs rules version {log.rules_version}; these cards have {db.rules_version}",
                            event_no=0, action="header")
    try:
        return game.new_state(db, log.header())
    except IllegalAction as exc:
        raise exc.located(0, "setup") from None


def replay(db: GameDatabase, log: GameLog, until: int | None = None) -> Replay:
    """Apply the events in order (up to `until`); stop at the first illegal one and say which."""
    from casebook.rules.games import GAMES

    game = GAMES[log.game]
    state = start(db, log)
    stop = len(log.events) if until is None else min(until, len(log.events))
    for number, event in enumerate(log.events[:stop], start=1):
        try:
            game.apply(state, event)
        except IllegalAction as exc:
            # a refused event may have changed part of the state before the rule stopped it: step again to
            # the last good event (only on this path, so a clean replay applies each event once, uncopied)
            state = start(db, log)
            for earlier in log.events[:number - 1]:
                game.apply(state, earlier)
            return Replay(state, number - 1, exc.located(number, game.describe(state, event)))
    return Replay(state, stop)
