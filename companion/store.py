"""Saved games: one game log a file, saved after every event so that killing the app loses nothing.

A save writes `<id>.yaml.tmp`, flushes and fsyncs it, keeps the previous good file as
`<id>.yaml.bak`, then renames the new file into place. Loading a file that is corrupt or
half-written (by anything) reports it and falls back to the newest good copy.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from rules.log import GameLog, format_log, parse_log
from rules.problems import Problems


@dataclass
class SavedGame:
    id: str
    path: Path
    game: str
    players: list[str]
    modified: float
    events: int
    finished: bool
    warning: str | None = None  # set when the main file was bad and a backup was used


class Store:
    """The folder of saved games."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.yaml"

    def new_id(self, game: str) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = f"{game}-{stamp}"
        n, gid = 1, base
        while self.path(gid).exists():
            n += 1
            gid = f"{base}-{n}"
        return gid

    def save(self, game_id: str, log: GameLog) -> None:
        """Write the log atomically; the previous version stays as a backup."""
        path = self.path(game_id)
        tmp = path.with_name(path.name + ".tmp")
        data = format_log(log).encode("utf-8")
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.replace(path, path.with_name(path.name + ".bak"))
        os.replace(tmp, path)

    def load(self, game_id: str) -> tuple[GameLog | None, str | None]:
        """The log, and a warning naming what was wrong if a backup had to be used."""
        path = self.path(game_id)
        first_error = None
        for candidate in (path, path.with_name(path.name + ".tmp"), path.with_name(path.name + ".bak")):
            if not candidate.exists():
                continue
            problems = Problems()
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                first_error = first_error or f"{candidate.name}: cannot be read ({exc})"
                continue
            log = parse_log(text, candidate.name, problems)
            if log is None:
                first_error = first_error or problems.format().splitlines()[0]
                continue
            if candidate != path:
                return log, f"{first_error or path.name + ' is missing'}; restored from {candidate.name}"
            return log, None
        return None, first_error or f"{path.name}: no such saved game"

    def delete(self, game_id: str) -> None:
        for suffix in ("", ".tmp", ".bak"):
            p = self.path(game_id).with_name(self.path(game_id).name + suffix)
            if p.exists():
                p.unlink()

    def games(self, is_finished: object = None) -> list[SavedGame]:
        """Every saved game, newest first. `is_finished(log) -> bool` marks finished games."""
        ids = {p.name.split(".yaml")[0] for p in self.folder.glob("*.yaml*")}
        out = []
        for gid in ids:
            log, warning = self.load(gid)
            if log is None:
                continue
            files = [p for p in self.folder.glob(f"{gid}.yaml*") if p.exists()]
            modified = max(p.stat().st_mtime for p in files)
            finished = bool(is_finished(log)) if callable(is_finished) else False
            out.append(SavedGame(gid, self.path(gid), log.game, log.players, modified, len(log.events), finished, warning))
        return sorted(out, key=lambda g: g.modified, reverse=True)
