"""Benchmark the companion: cold start to the start screen (bar: 2 s) and saving an event (bar: 20 ms)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cold_start(tmp: Path) -> float:
    """From launching the process to the start screen drawn and listed (the driver's first step)."""
    mark = tmp / "up"
    script = tmp / "s.json"
    script.write_text(json.dumps([{"mark": str(mark)}, {"quit": True}]))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_CONSOLELOG": "1",
           "KIVY_HOME": str(tmp / "kivy"), "CASEBOOK_DATA": str(tmp / "data"), "CASEBOOK_SCRIPT": str(script),
           "CASEBOOK_FIRST_STEP": "0"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not mark.exists():
        time.sleep(0.005)
    took = time.perf_counter() - start
    proc.wait()
    mark.unlink()
    return took


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


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        runs = [cold_start(Path(tmp)) for _ in range(3)]
    print(f"companion cold start to the start screen: best {min(runs):.2f} s, worst {max(runs):.2f} s")
    times = save_times()
    print(f"apply + save one event (fsync'd): mean {sum(times) / len(times):.1f} ms, max {max(times):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
