"""Saved games: one game log a file, saved after every event so that killing the app loses nothing.

A save writes `<id>.yaml.tmp`, flushes and fsyncs it, keeps the previous good file as
`<id>.yaml.bak`, then renames the new file into place.

Each save begins with one comment line that states how many events it holds and a checksum
of everything below it:

    # casebook save: 12 events, 1 undone, sha256 <64 hex digits> of the lines below

and may end with the undone events (what Redo brings back), as comment lines:

    # undone (Redo brings them back in this order):
    #   - {action: pass, by: Ben}

Both are YAML comments, so the file stays a plain game log for `casebook replay`. A copy
whose checksum or count does not match is damaged, however it was cut or changed; loading
uses the newest good copy (.tmp, the file itself, .bak) and says in one sentence what was
kept and what was lost. Saves written before the checksum line are read as they are.

Beside a save may lie `<id>.draft`: what a table has tapped of an input not yet recorded (the Clash
Initial Setup laid so far), rewritten atomically on every tap so that a killed app loses none of it.
It is sealed the same way and bound to the events it was tapped after; a damaged or foreign draft is
set aside as `<id>.draft.damaged` with one sentence, and the saved game is never touched.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.rules.engine import Event
    from casebook.rules.log import GameLog

# the game logs (and with them every game's engine) and the YAML reader are imported by the first save read or
# written: an empty folder of saves is listed without them, so a first start is quick (benchmarks/app.py)

MARK = "# casebook save: "
SEAL = re.compile(r"# casebook save: (\d+) events?, (\d+) undone, sha256 ([0-9a-f]{64}) of the lines below\n")
UNDONE_HEAD = "# undone (Redo brings them back in this order):"
UNDONE_ITEM = "#   - "
SUFFIXES = (".tmp", "", ".bak")  # newest first: a complete .tmp was written after the file it replaces
DRAFT_MARK = "# casebook draft: sha256 "
DRAFT_SEAL = re.compile(r"# casebook draft: sha256 ([0-9a-f]{64}) of the lines below\n")


def seal(body: str, events: int, undone: int) -> str:
    """The first line of a save: the event count and the checksum of `body`."""
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return f"{MARK}{events} event{'' if events == 1 else 's'}, {undone} undone, sha256 {digest} of the lines below\n"


def format_save(log: GameLog, undone: list[Event] | tuple[Event, ...] = ()) -> str:
    """A save's text: the seal line, the game log, then the undone events as comments."""
    from casebook.rules.log import format_log
    from casebook.rules.yamlsource import dump_yaml, plain

    body = format_log(log)
    if undone:
        body += UNDONE_HEAD + "\n" + "".join(UNDONE_ITEM + dump_yaml(plain(e), flow=True) + "\n" for e in undone)
    return seal(body, len(log.events), len(undone)) + body


def write_atomically(path: Path, data: bytes, backup: Path | None = None) -> None:
    """Write `path` whole or not at all: a flushed and fsynced `.tmp` renamed into place; the file it
    replaces kept as `backup` if one is named (moved only once the new one is safely written)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    if backup is not None and path.exists():
        os.replace(path, backup)
    os.replace(tmp, path)


def events_digest(events: list[Event]) -> str:
    """A checksum of a log's events: a draft belongs to the game as it stood after exactly these."""
    return hashlib.sha256(json.dumps(events, sort_keys=True, default=str).encode("utf-8")).hexdigest()


@dataclass
class Draft:
    """A half-entered input read back: its table's data if it fits the game, else the sentence why not."""

    data: dict[str, Any] | None = None
    notice: str | None = None  # one plain sentence for the players, when a draft was set aside


@dataclass
class Copy:
    """One file of a saved game as read: its log if good, else why not."""

    path: Path
    log: GameLog | None = None
    undone: list[Event] = field(default_factory=list)
    claimed: int | None = None  # the events its seal line says it holds, when that line is whole
    problem: str = ""

    @property
    def is_good(self) -> bool:
        return self.log is not None


def _parse_undone(lines: list[str], name: str) -> list[Event] | None:
    items = [line[len(UNDONE_ITEM):] for line in lines if line.startswith(UNDONE_ITEM)]
    if not items:
        return []
    from casebook.rules.yamlsource import parse_yaml, plain

    problems = Problems()
    data = parse_yaml("undone:\n" + "".join(f"  - {item}\n" for item in items), name, problems)
    if data is None or problems or not all(isinstance(e, dict) for e in data.get("undone") or []):
        return None
    return [plain(e) for e in data["undone"]]


def read_copy(path: Path) -> Copy:
    """Read one file of a save and check its seal; never raises for what is in the file."""
    copy = Copy(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        copy.problem = f"cannot be read ({exc.strerror or exc})"
        return copy
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        copy.problem = "is not text"
        return copy
    body = text
    if not text.strip():
        copy.problem = "is empty"
        return copy
    if text.startswith(MARK[: len(text)]) or text.startswith("#"):
        first, newline, body = text.partition("\n")
        match = SEAL.fullmatch(first + newline)
        if match is None:
            copy.problem = "is cut short in its first line"
            return copy
        copy.claimed = int(match.group(1))
        if hashlib.sha256(body.encode("utf-8")).hexdigest() != match.group(3):
            copy.problem = "does not match its checksum"
            return copy
    from casebook.rules.log import parse_log

    problems = Problems()
    log = parse_log(body, path.name, problems)
    if log is None:  # a save without a seal line (older than checksums) that does not read
        copy.problem = "is not a readable game log"
        return copy
    if copy.claimed is not None and copy.claimed != len(log.events):
        copy.problem = f"holds {len(log.events)} events, not the {copy.claimed} it states"
        return copy
    undone = _parse_undone(body.splitlines(), path.name)
    if undone is None:
        copy.problem = "has unreadable undone events"
        return copy
    copy.log, copy.undone = log, undone
    return copy


def _read_draft(raw: bytes) -> dict[str, Any] | None:
    """A draft file's fields if its seal holds and its shape is a draft's; None for anything else."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    first, newline, body = text.partition("\n")
    match = DRAFT_SEAL.fullmatch(first + newline)
    if match is None or hashlib.sha256(body.encode("utf-8")).hexdigest() != match.group(1):
        return None
    try:
        found = json.loads(body)
    except ValueError:
        return None
    if not (isinstance(found, dict) and isinstance(found.get("events"), int) and isinstance(found.get("after"), str)
            and isinstance(found.get("data"), dict)):
        return None
    return found


@dataclass
class Loaded:
    """A saved game as loaded: the newest good copy, and the sentence that explains any damage."""

    game_id: str
    log: GameLog | None
    undone: list[Event]
    used: Path | None
    damaged: bool = False
    kept: int = 0
    lost: int | None = None  # None when the damaged copy no longer says how many it held
    notice: str | None = None  # one plain sentence for the player, when something was damaged


@dataclass
class SavedGame:
    id: str
    path: Path
    game: str
    players: list[str]
    modified: float
    events: int
    finished: bool
    warning: str | None = None  # the sentence saying what was damaged and what was kept
    log: GameLog | None = None
    undone: list[Event] = field(default_factory=list)


def game_of(game_id: str) -> str:
    """The game named by a save's id (`graves-20261122-140501`)."""
    return game_id.split("-", 1)[0]


class Store:
    """The folder of saved games. `titles` maps a game id to the name players read ("Graves")."""

    def __init__(self, folder: Path, titles: dict[str, str] | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.titles = dict(titles or {})

    def path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.yaml"

    def copies(self, game_id: str) -> list[Path]:
        """The files of a saved game, newest first (.tmp, the file, .bak)."""
        path = self.path(game_id)
        return [path.with_name(path.name + suffix) for suffix in SUFFIXES]

    def new_id(self, game: str) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = f"{game}-{stamp}"
        n, gid = 1, base
        while any(p.exists() for p in self.copies(gid)):
            n += 1
            gid = f"{base}-{n}"
        return gid

    def save(self, game_id: str, log: GameLog, undone: list[Event] | tuple[Event, ...] = ()) -> None:
        """Write the log (and the undone events) atomically; the previous version stays as a backup."""
        path = self.path(game_id)
        write_atomically(path, format_save(log, undone).encode("utf-8"), backup=path.with_name(path.name + ".bak"))

    # --- the half-entered input beside a save ----------------------------------------------------

    def draft_path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.draft"

    def save_draft(self, game_id: str, log: GameLog, what: str, data: dict[str, Any]) -> None:
        """Keep what is tapped of `what` (e.g. "Initial Setup") after the log's events; atomically, every tap."""
        body = json.dumps({"game_id": game_id, "game": log.game, "what": what, "events": len(log.events),
                           "after": events_digest(log.events), "data": data}, sort_keys=True) + "\n"
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
        write_atomically(self.draft_path(game_id), f"{DRAFT_MARK}{digest} of the lines below\n{body}".encode())

    def clear_draft(self, game_id: str) -> None:
        """Forget the half-entered input (recorded, taken back or cleared)."""
        path = self.draft_path(game_id)
        for p in (path, path.with_name(path.name + ".tmp")):
            if p.exists():
                p.unlink()

    def open_draft(self, game_id: str, log: GameLog) -> Draft:
        """The draft tapped after exactly this log's events, if any; one that is damaged, another game's or
        another point's is set aside with a sentence (one the log has moved past was recorded: dropped)."""
        path = self.draft_path(game_id)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return Draft()
        except OSError as exc:
            return Draft(notice=f"The half-entered input saved for this game cannot be read ({exc.strerror or exc}) "
                                "and is left out: tap it in again.")
        found = _read_draft(raw)
        if found is None:
            return self._set_aside(path, "The half-entered input saved for this game was damaged and is left out: "
                                         "tap it in again.")
        what = str(found.get("what") or "input")
        if found.get("game_id") != game_id or found.get("game") != log.game:
            return self._set_aside(path, f"A half-entered {what} saved beside this game belongs to another game "
                                         f"({found.get('game_id')}) and is left out.")
        n = found["events"]
        if n <= len(log.events) and found["after"] == events_digest(log.events[:n]):
            if n == len(log.events):
                return Draft(found["data"])
            self.clear_draft(game_id)  # recorded before the app stopped: nothing is lost
            return Draft()
        return self._set_aside(path, f"A half-entered {what} was saved after event {n}, but the game now stands "
                                     f"at event {len(log.events)}; it is left out: tap it in again.")

    @staticmethod
    def _set_aside(path: Path, notice: str) -> Draft:
        """Move a draft that cannot be used out of the way (kept to look at, never read again)."""
        with contextlib.suppress(OSError):  # it is left out all the same; the sentence still says so
            os.replace(path, path.with_name(path.name + ".damaged"))
        return Draft(notice=notice)

    def open(self, game_id: str) -> Loaded:
        """The newest good copy of a saved game and, if the file itself was damaged, what was lost."""
        tmp, main, bak = (read_copy(p) for p in self.copies(game_id))
        for newest in (tmp, main):
            # a finished .tmp is newer than the file it was about to replace; an unfinished one beside
            # a good file is a save cut off by a kill before the screen changed: nothing seen is lost
            if newest.log is not None:
                return Loaded(game_id, newest.log, newest.undone, newest.path, kept=len(newest.log.events))
        main_exists = main.path.exists()
        if not (main_exists or tmp.path.exists() or bak.path.exists()):
            return Loaded(game_id, None, [], None, damaged=True, notice=f"There is no saved game {game_id}.")
        good = bak if bak.is_good else None
        damaged = main if main_exists else tmp
        claimed = damaged.claimed if damaged.path.exists() else None
        log = good.log if good else None
        kept = len(log.events) if log else 0
        lost = None if claimed is None else max(0, claimed - kept)
        loaded = Loaded(game_id, log, good.undone if good else [], good.path if good else None, True, kept, lost)
        loaded.notice = self.sentence(game_id, log, kept, lost)
        return loaded

    def sentence(self, game_id: str, log: GameLog | None, kept: int, lost: int | None) -> str:
        """One plain sentence: which game was damaged, how many events were kept and how many lost."""
        game = log.game if log else game_of(game_id)
        which = self.titles.get(game, game.capitalize())
        if log is not None:
            which += ", " + " v ".join(log.players)
        if log is None:
            gone = "" if lost is None else f": no event kept, {lost} lost"
            return f"The save of {which} ({game_id}) is damaged and no good copy is left{gone}."
        events = f"{kept} event{'' if kept == 1 else 's'} kept"
        if lost is None:
            return (f"The save of {which} was damaged: {events} from an earlier copy; "
                    "the damage hides how many later events were lost.")
        return f"The save of {which} was damaged: {events}, {lost} lost."

    def load(self, game_id: str) -> tuple[GameLog | None, str | None]:
        """The log, and the sentence saying what was damaged if an earlier copy had to be used."""
        loaded = self.open(game_id)
        return loaded.log, loaded.notice

    def delete(self, game_id: str) -> None:
        draft = self.draft_path(game_id)
        for p in [*self.copies(game_id), draft, draft.with_name(draft.name + ".tmp"),
                  draft.with_name(draft.name + ".damaged")]:
            if p.exists():
                p.unlink()

    def ids(self) -> list[str]:
        return sorted({p.name.split(".yaml")[0] for p in self.folder.glob("*.yaml*") if p.is_file()})

    def games(self, is_finished: Callable[[GameLog], Any] | None = None) -> list[SavedGame]:
        """Every saved game, newest first, damaged ones included. `is_finished(log)` marks finished games."""
        out = []
        for gid in self.ids():
            loaded = self.open(gid)
            files = [p for p in self.copies(gid) if p.exists()]
            if not files:
                continue
            modified = max(p.stat().st_mtime for p in files)
            log = loaded.log
            finished = bool(is_finished(log)) if log is not None and is_finished is not None else False
            out.append(SavedGame(gid, self.path(gid), log.game if log else game_of(gid),
                                 list(log.players) if log else [], modified, len(log.events) if log else 0,
                                 finished, loaded.notice, log, loaded.undone))
        return sorted(out, key=lambda g: g.modified, reverse=True)
