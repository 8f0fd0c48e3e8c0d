"""`casebook build --watch`: rebuild a game when one of its card or layout files changes.

The files' modification times and sizes are polled (standard library only, on every
platform). A change is acted on once the files have stood still for one poll, so an
editor that writes a file in several steps causes one rebuild, not several.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from casebook.rules.cards import SHEET_SUFFIXES

Snapshot = dict[Path, tuple[int, int]]  # file -> (mtime in ns, size)
WATCHED = {".yaml", ".yml", ".ttf", ".otf", ".png", ".jpg", ".jpeg", ".svg", *SHEET_SUFFIXES}


def snapshot(folders: Iterable[Path], ignore: Iterable[Path] = ()) -> Snapshot:
    """The state of every watched file under the folders (a missing folder has none), except under `ignore`.

    A game folder may hold the build's own output (`cd mygame && casebook build . --watch`):
    its PNGs are not the designer's edits, so the output folder is passed as `ignore`.
    """
    skip = {p.resolve() for p in ignore}
    state: Snapshot = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for top, dirs, files in os.walk(folder):
            # hidden folders (.git, .cache) and editors' hidden swap and backup files are not the designer's edits
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and (Path(top) / d).resolve() not in skip)
            for name in files:
                path = Path(top) / name
                if path.suffix.lower() not in WATCHED or name.startswith("."):
                    continue
                try:
                    st = path.stat()
                except OSError:  # removed between the listing and the look
                    continue
                state[path] = (st.st_mtime_ns, st.st_size)
    return state


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs between two snapshots, for people: 'changed x', 'added y', 'removed z'."""
    out = [f"changed {p}" for p in sorted(after) if p in before and before[p] != after[p]]
    out += [f"added {p}" for p in sorted(after) if p not in before]
    out += [f"removed {p}" for p in sorted(before) if p not in after]
    return out


def rounds_of_changes(folders: list[Path], interval: float = 0.3, rounds: int | None = None,
                      sleep: Callable[[float], None] = time.sleep, since: Snapshot | None = None,
                      ignore: tuple[Path, ...] = ()) -> Iterator[list[str]]:
    """Wait for changes (after `since`, or now) and yield each settled set of them; `rounds` polls at most."""
    before = snapshot(folders, ignore) if since is None else since
    polls = 0
    while rounds is None or polls < rounds:
        sleep(interval)
        polls += 1
        after = snapshot(folders, ignore)
        if after == before:
            continue
        while True:  # let the editor finish writing: wait until one more poll sees nothing new
            sleep(interval)
            settled = snapshot(folders, ignore)
            if settled == after:
                break
            after = settled
        found = changes(before, after)
        before = after
        yield found


def build_rounds(games: list[str], cards_dir: Path, layouts_dir: Path, watching: bool,
                 say: Callable[[str], None] = print, interval: float = 0.3, rounds: int | None = None,
                 sleep: Callable[[float], None] = time.sleep, own: dict[str, Path] | None = None,
                 ignore: tuple[Path, ...] = ()) -> Iterator[str]:
    """The games to build, each once; when watching, again as their files change, until Ctrl-C.

    A change under cards/<game>/ (or a game's `own` folder, given by path) rebuilds that game;
    one under the layouts, every game. Nothing under `ignore` (the output) is watched.
    """
    homes = {game: (own or {}).get(game, cards_dir / game) for game in games}
    folders = [*homes.values(), layouts_dir]
    start = snapshot(folders, ignore) if watching else None  # an edit made during the first build counts too
    yield from games
    if not watching:
        return
    say(f"watching {', '.join(str(f) for f in folders)} (Ctrl-C stops)")
    _interrupt_stops()
    try:
        for found in rounds_of_changes(folders, interval, rounds, sleep, since=start, ignore=ignore):
            say("; ".join(found))
            paths = [Path(line.split(" ", 1)[1]) for line in found]
            touched = [g for g in games if any(p.is_relative_to(homes[g]) for p in paths)]
            yield from (games if any(p.is_relative_to(layouts_dir) for p in paths) else touched)
            say("watching (Ctrl-C stops)")
    except KeyboardInterrupt:
        say("stopped watching; the last good build is in place")


def _interrupt_stops() -> None:
    """Ctrl-C (SIGINT) stops the watch even when it was started with SIGINT ignored.

    A shell script's background job (`casebook build --watch &`, a CI step, a fresh-clone check) starts
    with SIGINT ignored, and Python then never turns it into KeyboardInterrupt: `kill -INT` did nothing and
    the watch ran on. The watch says "Ctrl-C stops", so it makes that true for itself.
    """
    import signal  # a watch's alone: a one-off build (every build imports this module) leaves them unimported
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
