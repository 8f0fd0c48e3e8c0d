"""The real app in its own process at phone size: a whole case by taps, SIGKILL mid-game and
restart, every control at least 48 dp, screenshots of each screen (kept in tests/_screens/)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("kivy")

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "tests" / "_screens"
SEED = "2026"


PHONE = (360, 640)
SIZES = [(360, 640), (411, 731), (640, 360), (800, 1280)]  # phones, a landscape phone, a tablet


def env_for(tmp: Path, script: Path, size: tuple[int, int] = PHONE) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY")}
    env.update(PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=str(tmp / "kivy"), CASEBOOK_DATA=str(tmp / "data"), CASEBOOK_SCRIPT=str(script),
               CASEBOOK_WIDTH=str(size[0]), CASEBOOK_HEIGHT=str(size[1]))
    return env


def run(tmp: Path, steps: list, name: str = "script", timeout: float = 300,
        size: tuple[int, int] = PHONE) -> subprocess.CompletedProcess:
    """Run the app through `steps` (companion/driver.py); fails with the driver's own error message."""
    script = tmp / f"{name}.json"
    script.write_text(json.dumps(steps))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")],
                          env=env_for(tmp, script, size), cwd=tmp, capture_output=True, text=True, timeout=timeout)
    error = script.with_suffix(".error")
    assert not error.exists(), error.read_text() + proc.stderr[-3000:]
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def killed_after(tmp: Path, steps: list, timeout: float = 90) -> None:
    """Run the app through `steps`, then SIGKILL it (as a phone kills an app: no on_pause, no on_stop)."""
    last_mark = tmp / "reached"
    script = tmp / "kill.json"
    script.write_text(json.dumps([*steps, {"mark": str(last_mark)}, {"wait": 60}]))
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")],
                            env=env_for(tmp, script), cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + timeout
        while not last_mark.exists():
            assert proc.poll() is None, "the app stopped before it was killed"
            assert time.time() < deadline
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    last_mark.unlink()


def read_dumps(paths: dict[str, str]) -> dict[str, dict]:
    """The driver's dumps by name."""
    return {name: json.loads(Path(path).read_text()) for name, path in paths.items()}


def new_game_steps() -> list:
    return [{"tap": "new_game"}, {"text": ["new.p1", "Ann"]}, {"text": ["new.p2", "Ben"]}, {"tap": "deal_seed"},
            {"text": ["new.seed", SEED]}, {"tap": "new_start"}]


BANK_VAULT = 2  # in the row seed 2026 deals, The Bank Vault is the third location


def location_steps() -> list:
    """At each location Ann plays the 9 and Ben the 5 of one suit, then both pass: Ann wins all five.
    At The Bank Vault both first reveal their deck's top card: Ann a 2 of Notebooks, Ben says his deck is empty."""
    steps = []
    for n, suit in enumerate(("magnifying_glass", "shoeprints", "question_mark", "notebook", "briefcase")):
        if n == BANK_VAULT:
            steps += [{"tap": "rank_2"}, {"tap": "suit_notebook"}, {"tap": "reveal_top"}, {"tap": "deck_empty"}]
        steps += [{"tap": "rank_9"}, {"tap": f"suit_{suit}"}, {"tap": "play"},
                  {"tap": "rank_5"}, {"tap": f"suit_{suit}"}, {"tap": "play"},
                  {"tap": "pass"}, {"tap": "pass"}]
    return steps


def test_a_whole_case_by_taps_and_every_screen(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    dumps = {name: tmp_path / f"{name}.json" for name in ("start", "new", "table", "unmask", "history", "rules",
                                                           "settings", "case2", "notes")}
    steps = [{"dump": str(dumps["start"])}, {"shot": str(SCREENS / "start.png")}, {"tap": "new_game"},
             {"dump": str(dumps["new"])}, {"shot": str(SCREENS / "new-game.png")}, {"tap": "new_back"}]
    steps += new_game_steps()
    steps += location_steps()[:8]
    steps += [{"tap": "rank_7"}, {"tap": "suit_shoeprints"}, {"dump": str(dumps["table"])},
              {"shot": str(SCREENS / "table.png")}, {"tap": "clear"}]
    steps += location_steps()[8:]
    # the Detective notes two evidence cards won; the helper narrows the suspects
    steps += [{"tap": "note_evidence"}, {"tap": "evidence_evidence_01"},
              {"tap": "note_evidence"}, {"tap": "evidence_evidence_10"},
              {"press": "secret_0"}, {"wait": 0.6}, {"dump": str(dumps["notes"])},
              {"shot": str(SCREENS / "deduction.png")}, {"release": "secret_0"}]
    steps += [{"dump": str(dumps["unmask"])}, {"shot": str(SCREENS / "unmasking.png")},
              {"tap": "guess_josiah_tumbrel"}, {"tap": "guess_yes"}, {"tap": "identity_josiah_tumbrel"},
              {"dump": str(dumps["case2"])},
              {"tap": "history"}, {"dump": str(dumps["history"])}, {"shot": str(SCREENS / "history.png")},
              {"tap": "history_back"}, {"tap": "table_rules"}, {"text": ["rules.query", "deuse trump"]},
              {"dump": str(dumps["rules"])}, {"shot": str(SCREENS / "rules.png")}, {"tap": "hit_0"},
              {"shot": str(SCREENS / "rule-open.png")}, {"tap": "rules_back"}, {"tap": "table_home"},
              {"tap": "start_settings"}, {"dump": str(dumps["settings"])}, {"shot": str(SCREENS / "settings.png")},
              {"quit": True}]
    run(tmp_path, steps)
    data = {name: json.loads(path.read_text()) for name, path in dumps.items()}
    for name, d in data.items():
        assert d["window"] == [360, 640]
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
    s = data["case2"]["summary"]
    done = s["cases_done"][0]
    # 5 evidence x 2 for Ann, and her correct guess 3; the Mastermind nothing
    assert done["points"] == {"Ann": 13, "Ben": 0} and done["correct"] is True
    assert s["case"]["number"] == 2 and s["case"]["detective"] == "Ben"
    assert data["table"]["summary"]["locations"][0]["winner"] == "Ann"
    assert data["unmask"]["summary"]["phase"] == "unmasking"
    assert data["history"]["screen"] == "history"
    from casebook.rules.cards import load_database
    from casebook.rules.games.graves import possible_masterminds

    db = load_database("graves")
    notes = data["notes"]["summary"]["case"]["evidence_noted"]["Ann"]
    assert notes == ["evidence_01", "evidence_10"]
    assert len(possible_masterminds(db, notes)) < 5
    # the Detective's deduction is her secret: shown while she holds her button, never otherwise
    assert any("Still possible" in t for t in data["notes"]["texts"])
    assert not any("Still possible" in t for t in data["unmask"]["texts"] + data["table"]["texts"])
    for name, d in data.items():
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"


@pytest.mark.parametrize("taps", [3, 12, 16])
def test_killed_at_any_point_the_game_comes_back(tmp_path, taps):
    """SIGKILL after some events (1, 5 and 8 of them), then start again: the same state."""
    steps = new_game_steps() + location_steps()[:taps]
    killed_after(tmp_path, [*steps, {"dump": str(tmp_path / "before.json")}])
    before = json.loads((tmp_path / "before.json").read_text())["summary"]
    assert before["events"] == {3: 1, 12: 5, 16: 8}[taps]
    run(tmp_path, [{"tap_prefix": "resume_"}, {"dump": str(tmp_path / "after.json")}, {"quit": True}], name="restart")
    after = json.loads((tmp_path / "after.json").read_text())["summary"]
    assert after == before


def test_start_up_prints_no_alarming_lines(tmp_path):
    """A desktop without libmtdev, xclip or xsel is normal: Kivy's ERROR/CRITICAL lines about them
    are kept out of the console (they frightened users)."""
    script = tmp_path / "quit.json"
    script.write_text(json.dumps([{"quit": True}]))
    env = env_for(tmp_path, script)
    del env["KIVY_NO_CONSOLELOG"]
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-3000:]
    console = proc.stdout + proc.stderr
    assert "[Kivy        ] v" in console  # the console log was on
    alarming = [line for line in console.splitlines() if "ERROR" in line or "CRITICAL" in line or "Traceback" in line]
    assert alarming == []
