"""`casebook build --watch`: polling sees edits, additions and removals, waits for an editor to
finish writing, rebuilds the game whose files changed, survives a bad edit and stops on Ctrl-C with 0.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from casebook.generator.watch import build_rounds, changes, rounds_of_changes, snapshot

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def touch(path: Path, text: str, mtime_ns: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_changes_name_what_was_edited_added_and_removed(tmp_path):
    a, b, c = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    touch(a, "a", 1_000_000_000)
    touch(b, "b", 1_000_000_000)
    (tmp_path / ".a.yaml.swp").write_text("editor noise")
    (tmp_path / "notes.txt").write_text("not a card or layout file")
    before = snapshot([tmp_path, tmp_path / "missing"])
    assert sorted(p.name for p in before) == ["a.yaml", "b.yaml"]
    touch(a, "a2", 2_000_000_000)
    b.unlink()
    touch(c, "c", 1_000_000_000)
    assert changes(before, snapshot([tmp_path])) == [f"changed {a}", f"added {c}", f"removed {b}"]
    assert changes(before, before) == []


def test_a_change_is_reported_once_the_files_stand_still(tmp_path):
    card = tmp_path / "deck.yaml"
    touch(card, "v1", 1_000_000_000)
    steps = iter([
        lambda: None,                                          # poll 1: nothing
        lambda: touch(card, "v2 half", 2_000_000_000),         # poll 2: an editor starts writing
        lambda: touch(card, "v2 whole", 3_000_000_000),        # still writing
        lambda: None,                                          # it stood still: one change reported
        lambda: None,
    ])
    found = list(rounds_of_changes([tmp_path], interval=0, rounds=3, sleep=lambda s: next(steps)()))
    assert found == [[f"changed {card}"]]


def test_build_rounds_rebuild_the_game_whose_files_changed(tmp_path):
    cards, layouts = tmp_path / "cards", tmp_path / "layouts"
    for folder in (cards / "one", cards / "two", layouts):
        folder.mkdir(parents=True)
        touch(folder / "x.yaml", "x", 1_000_000_000)
    edits = iter([lambda: touch(cards / "two" / "x.yaml", "y", 2_000_000_000), lambda: None,
                  lambda: touch(layouts / "x.yaml", "y", 2_000_000_000), lambda: None])
    said: list[str] = []
    games = list(build_rounds(["one", "two"], cards, layouts, True, said.append, interval=0, rounds=2,
                              sleep=lambda s: next(edits, lambda: None)()))
    assert games == ["one", "two", "two", "one", "two"]  # all; the edited game; a layout: all
    assert any("changed" in s and "two" in s for s in said)
    assert list(build_rounds(["one"], cards, layouts, False)) == ["one"]


def test_watch_rebuilds_survives_a_bad_edit_and_stops_with_0(tmp_path):
    shutil.copytree(TINY, tmp_path / "tiny")
    cards, layouts, out = tmp_path / "tiny" / "cards", tmp_path / "tiny" / "layouts", tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "casebook", "build", "moth", "--watch", "--paper", "a4",
                             "--cards", str(cards), "--layouts", str(layouts), "--out", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            # started as a script's background job is: SIGINT ignored; Ctrl-C must still stop it
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert proc.stdout is not None
    lines: list[str] = []
    guard = threading.Timer(180, proc.kill)  # a hung watch fails the test instead of hanging the suite
    guard.start()

    def wait_for(text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if text in line:
                return
        raise AssertionError(f"no {text!r} in:\n{''.join(lines)}")

    try:
        wait_for("watching")
        pdf = out / "moth" / "moth-a4.pdf"
        good = pdf.read_bytes()
        deck = cards / "moth" / "deck.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("Luna Moth", "Lunar Moth"), encoding="utf-8")
        wait_for("deck.yaml")
        wait_for("1 scenes composed")
        edited = pdf.read_bytes()
        assert edited != good
        deck.write_text(deck.read_text(encoding="utf-8").replace("value: 2}", "value: 9}", 1), encoding="utf-8")
        wait_for("not built")
        assert pdf.read_bytes() == edited, "a bad edit left the last good PDF"
        assert any("deck.yaml:" in line and "error" in line for line in lines), "".join(lines)
        wait_for("watching")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    finally:
        guard.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    rest = proc.stdout.read()
    assert "Traceback" not in "".join(lines) + rest
