"""Clash of Minds in the real app at 360 x 640, killed with SIGKILL twice mid-input: while Moriarty taps his
Crime Plan alone, and with three Initial Setup cards laid. Started again, the game comes back with what was
tapped: the setup's cards in their threads on the keys and the prompt, the plan only on Moriarty's own page,
none of it on the table."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.companion.test_app_gui import ROOT, SCREENS, env_for, run
from tests.companion.test_clash_gui import PLAN_NAMES, leaks
from tests.companion.test_clash_pad import PLAN, SEED

pytest.importorskip("kivy")


def run_then_kill(tmp: Path, steps: list, name: str) -> None:
    """Run the app through `steps`, then SIGKILL it while it waits: nothing is saved on the way out."""
    reached = tmp / f"{name}.reached"
    script = tmp / f"{name}.json"
    script.write_text(json.dumps([*steps, {"mark": str(reached)}, {"wait": 120}]))
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")],
                            env=env_for(tmp, script), cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 180
        while not reached.exists():
            error = script.with_suffix(".error")
            assert not error.exists(), error.read_text()
            assert proc.poll() is None, "the app stopped before it was killed"
            assert time.time() < deadline, f"{name}: the steps were not done in time"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()


def test_killed_mid_plan_and_mid_setup_the_taps_come_back_and_the_plan_stays_hidden(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    dumps: dict[str, Path] = {}

    def dump(name: str) -> list:
        dumps[name] = tmp_path / f"{name}.json"
        return [{"dump": str(dumps[name])}, {"shot": str(SCREENS / f"clash-killed-{name}.png")}]

    new_game = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}]
    run_then_kill(tmp_path, [*new_game, {"tap": "plan"}, {"tap": f"plan_{PLAN[0]}"}, {"tap": f"plan_{PLAN[1]}"},
                             *dump("plan-before")], "plan")
    run_then_kill(tmp_path, [{"tap_prefix": "resume_"}, *dump("plan-resumed"), {"tap": "plan"}, *dump("plan-page"),
                             {"tap": f"plan_{PLAN[2]}"}, {"tap": "plan_lay"}, {"tap": "deal_site"},
                             {"tap": "thread_1"}, {"tap": "thread_2"}, {"tap": "thread_1"}, *dump("setup-before")],
                  "setup")
    run(tmp_path, [{"tap_prefix": "resume_"}, *dump("setup-resumed"), {"press": "secret_1"}, {"wait": 0.6},
                   *dump("held"), {"release": "secret_1"}, {"tap": "thread_3"}, *dump("setup-goes-on"),
                   {"quit": True}], name="restart")
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}

    for name in ("plan-before", "plan-page"):  # Moriarty's own page: the plan as tapped, numbered
        shown = "\n".join(data[name]["texts"])
        assert "Ben only" in shown and f"1. {PLAN_NAMES[0]}" in shown and f"2. {PLAN_NAMES[1]}" in shown, name
        assert f"3. {PLAN_NAMES[2]}" not in shown, name
    resumed = data["plan-resumed"]
    assert resumed["screen"] == "table" and resumed["summary"]["phase"] == "plan"
    assert not any(n in "\n".join(resumed["texts"]) for n in PLAN_NAMES)  # the table: no word of the plan
    assert resumed["message"] == ""

    before, after = data["setup-before"], data["setup-resumed"]
    assert before["summary"]["events"] == after["summary"]["events"] == 2  # the plan and the site
    assert after["summary"] == before["summary"] and after["summary"]["phase"] == "setup"
    shown = "\n".join(after["texts"])
    assert "Thread 1\nAnn 2" in shown and "Thread 2\nBen 1" in shown and "Thread 3\nnone yet" in shown
    assert "Ben lays a card face down: tap its thread (4 of 6)" in shown
    assert after["message"] == "The Initial Setup as tapped before the app stopped is back: 3 of 6 laid."
    for name in ("plan-resumed", "setup-before", "setup-resumed", "setup-goes-on"):
        assert leaks(data[name]) == [], f"{name}: hidden on the table: {leaks(data[name])}"
    assert all(k in after["controls"] for k in ("secret_1", "take_back", "record_setup", "thread_1"))
    held = "\n".join(data["held"]["texts"])
    assert "Your Crime Plan" in held and all(n in held for n in PLAN_NAMES)  # only in Ben's hold, while held
    goes_on = "\n".join(data["setup-goes-on"]["texts"])
    assert "Thread 3\nBen 1" in goes_on and "(5 of 6)" in goes_on
