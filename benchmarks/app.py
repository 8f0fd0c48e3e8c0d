"""Benchmark the companion: cold start to a complete start screen (bar: 1.5 s), the first taps of a new game after
it (start -> new game -> table shown), a start with a saved game, and saving an event (bar: 20 ms).

Each figure is the median of several runs (--runs, 5 by default): on a shared machine one run says little.
The app runs as a phone or an installed wheel runs it, with its bytecode compiled once (PYTHONPYCACHEPREFIX
to a folder of its own, warmed by a first run that is not counted but printed: a checkout run with
PYTHONDONTWRITEBYTECODE compiles every module on every start).

Times are taken by the app's own driver (companion/driver.py): a `mark` step touches a file once the layout
has settled (no widget moved for a few frames), so each figure includes those frames. The load average is
printed beside them, and the CPU time a start takes (all threads: with software GL more than one core works).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

START_BAR = 1.5  # seconds, issue 20 item 12
SAVE_BAR = 20.0  # ms


def env_for(tmp: Path, data: Path, script: Path, pycache: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=str(tmp / "kivy"), CASEBOOK_DATA=str(data), CASEBOOK_SCRIPT=str(script),
               CASEBOOK_FIRST_STEP="0")
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def drive(tmp: Path, data: Path, steps: list, pycache: Path | None) -> dict[str, float]:
    """Launch the app through `steps`; each {"mark": name} becomes the seconds from launch to that point."""
    marks = {str(s["mark"]): tmp / f"mark_{s['mark']}" for s in steps if "mark" in s}
    for path in marks.values():
        path.unlink(missing_ok=True)
    script = tmp / "script.json"
    script.write_text(json.dumps([{"mark": str(marks[s["mark"]])} if "mark" in s else s for s in steps]))
    error = script.with_suffix(".error")
    error.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")],
                          env=env_for(tmp, data, script, pycache), cwd=tmp, capture_output=True, text=True,
                          timeout=300)
    if error.exists() or proc.returncode != 0:
        raise SystemExit(f"the app failed: {error.read_text() if error.exists() else proc.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"cpu": cpu, **{name: path.stat().st_mtime - start for name, path in marks.items()}}


# a Graves game for two, as tests/companion/test_app_gui.py starts one
NEW_GAME = [{"mark": "up"}, {"tap": "new_game"}, {"mark": "new"}, {"tap": "game_graves"},
            {"text": ["new.p1", "Ann"]}, {"text": ["new.p2", "Ben"]}, {"tap": "deal_seed"},
            {"text": ["new.seed", "2026"]}, {"mark": "ready"}, {"tap": "new_start"}, {"mark": "table"},
            {"quit": True}]


READ_FIRST = 3.0  # seconds a player looks at the start screen before the first tap, in the second tap figure
AFTER_READING = [NEW_GAME[0], {"wait": READ_FIRST}, *NEW_GAME[1:]]


def median(values: list[float]) -> float:
    return statistics.median(values)


def spread(values: list[float]) -> str:
    return f"median {median(values):.2f} s (runs {', '.join(f'{v:.2f}' for v in values)})"


def app_times(runs: int) -> int:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        pycache = tmp / "pyc"
        first = drive(tmp, tmp / "data0", [{"mark": "up"}, {"quit": True}], pycache)["up"]
        uncached = drive(tmp, tmp / "data0", [{"mark": "up"}, {"quit": True}], None)["up"]
        up, new, table, saved, cpu, new_read, table_read, rules, rules_read = [], [], [], [], [], [], [], [], []
        for i in range(runs):
            data = tmp / f"data{i + 1}"
            got = drive(tmp, data, NEW_GAME, pycache)  # a fresh phone: no saved game
            up.append(got["up"])
            new.append(got["new"] - got["up"])
            table.append(got["table"] - got["ready"])
            saved.append(drive(tmp, data, [{"mark": "up"}, {"quit": True}], pycache)["up"])  # the game just saved
            cpu.append(drive(tmp, tmp / f"fresh{i + 1}", [{"mark": "up"}, {"quit": True}], pycache)["cpu"])
            got = drive(tmp, tmp / f"read{i + 1}", AFTER_READING, pycache)
            new_read.append(got["new"] - got["up"] - READ_FIRST)
            table_read.append(got["table"] - got["ready"])
            for wait, into in ((0.0, rules), (READ_FIRST, rules_read)):
                got = drive(tmp, tmp / f"rules{i + 1}", [{"mark": "up"}, *([{"wait": wait}] if wait else []),
                                                         {"mark": "a"}, {"tap": "start_rules"}, {"mark": "rules"},
                                                         {"quit": True}], pycache)
                into.append(got["rules"] - got["a"])
        shutil.rmtree(pycache, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores while measuring")
    print(f"companion cold start to a complete start screen: {spread(up)}; bar {START_BAR} s: "
          f"{'met' if median(up) < START_BAR else 'NOT met'}")
    print(f"  its CPU time (user + system of every thread, software GL's included, to the start screen and quit; "
          f"not a wall time): {spread(cpu)}")
    print(f"  with one saved game listed: {spread(saved)}; bar {START_BAR} s: "
          f"{'met' if median(saved) < START_BAR else 'NOT met'}")
    print(f"  without cached bytecode (compiling every module, as a checkout under PYTHONDONTWRITEBYTECODE): "
          f"{uncached:.2f} s; the very first run, writing the bytecode: {first:.2f} s")
    print("the first taps (each includes the driver's settle frames), tapped as soon as the start screen is up:")
    print(f"  New game -> its form shown: {spread(new)}")
    print(f"  Start -> the table shown: {spread(table)}")
    print(f"  start -> new game -> table shown (the two taps): median {median(new) + median(table):.2f} s")
    print(f"the same taps after {READ_FIRST:.0f} s on the start screen (the warm-up has read what they need):")
    print(f"  New game -> its form shown: {spread(new_read)}")
    print(f"  Start -> the table shown: {spread(table_read)}")
    print(f"  start -> new game -> table shown (the two taps): median {median(new_read) + median(table_read):.2f} s")
    print(f"Rules on the start screen, first tap -> the Rules screen: {spread(rules)} at once; "
          f"{spread(rules_read)} after {READ_FIRST:.0f} s")
    return 0 if median(up) < START_BAR else 1


def save_times() -> list[float]:
    from casebook.companion.session import Session
    from casebook.companion.store import Store
    from casebook.rules.cards import load_database
    from casebook.rules.log import GameLog

    db = load_database("graves")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        s = Session.new(db, GameLog("graves", 1, ["Ann", "Ben"], seed=5, setup={"detective": "Ann"}), store)
        times = []
        for _ in range(40):
            who = s.state.players[s.state.to_act] if s.state.phase == "play" else None
            if who is None:
                break
            t = time.perf_counter()
            s.do({"action": "pass", "by": who})
            times.append((time.perf_counter() - t) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each figure; the median is printed")
    args = parser.parse_args(argv)
    status = app_times(args.runs)
    times = save_times()
    print(f"apply + save one event (fsync'd): mean {sum(times) / len(times):.1f} ms, max {max(times):.1f} ms; "
          f"bar {SAVE_BAR:.0f} ms")
    return status


if __name__ == "__main__":
    sys.exit(main())
