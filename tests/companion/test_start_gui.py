"""The real app at phone size, in its own process: the start screen's saved games (progress, result,
statistics, delete after a confirmation, export), a Graves game set up as dealt at the table with
the identity entered unseen, the history with Redo kept over a restart, and the rules of a picked game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("kivy")

from casebook.companion.session import Session  # noqa: E402
from casebook.companion.store import Store  # noqa: E402
from casebook.rules.games import GAMES  # noqa: E402
from casebook.rules.log import GameLog, parse_log, start  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "tests" / "_screens"
LOGS = ROOT / "tests" / "data" / "logs"
ROW = ["museum", "slums", "park", "river", "alley"]


def run(tmp: Path, steps: list, name: str = "script") -> None:
    script = tmp / f"{name}.json"
    script.write_text(json.dumps(steps))
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY")}
    env.update(PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=str(tmp / "kivy"), CASEBOOK_DATA=str(tmp / "data"), CASEBOOK_SCRIPT=str(script))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env, cwd=tmp,
                          capture_output=True, text=True, timeout=120)
    error = script.with_suffix(".error")
    assert not error.exists(), error.read_text() + proc.stderr[-3000:]
    assert proc.returncode == 0, proc.stderr[-3000:]


def saved(store: Store, db, name: str, game_id: str, first: int | None = None, undo: int = 0) -> Session:
    """A referee's log played into the store as the app saves it."""
    full = parse_log((LOGS / name).read_text(), name, Problems())
    assert full is not None
    s = Session(db, GameLog(full.game, 1, full.players, full.variants, full.seed, full.setup), store, game_id)
    s.save()
    for event in full.events[:first]:
        assert s.do(event).ok
    if undo:
        s.undo(undo)
    return s


def dumped(path: Path) -> dict:
    d = json.loads(path.read_text())
    assert d["window"] == [360, 640]
    assert d["small_controls"] == [], f"controls under 48 dp: {d['small_controls']}"
    return d


def test_saved_games_show_progress_result_statistics_and_delete_after_asking(tmp_path, graves_db):
    from casebook.rules.cards import load_database

    store = Store(tmp_path / "data" / "games")
    saved(store, graves_db, "standard_two_cases.yaml", "graves-20261121-201500")
    saved(store, graves_db, "standard_two_cases.yaml", "graves-20261122-100000", first=12)
    saved(store, load_database("syndicate"), "syndicate/short_game.yaml", "syndicate-20261121-211000")
    damaged = store.path("graves-20261122-100000")
    damaged.write_bytes(damaged.read_bytes()[:-7])
    SCREENS.mkdir(exist_ok=True)
    d = {n: tmp_path / f"{n}.json" for n in ("start", "ask", "kept", "shared", "deleted")}
    run(tmp_path, [
        {"dump": str(d["start"])}, {"shot": str(SCREENS / "start-saves.png")},
        {"tap": "delete_syndicate-20261121-211000"}, {"dump": str(d["ask"])},
        {"shot": str(SCREENS / "start-delete.png")},
        {"tap": "delete_no_syndicate-20261121-211000"}, {"dump": str(d["kept"])},
        {"tap": "share_graves-20261121-201500"}, {"dump": str(d["shared"])},
        {"tap": "delete_syndicate-20261121-211000"}, {"tap": "delete_yes_syndicate-20261121-211000"},
        {"dump": str(d["deleted"])}, {"quit": True}])
    start = dumped(d["start"])
    texts = "\n".join(start["texts"])
    assert "The save of Detective Graves, Ann v Ben was damaged: 11 events kept, 1 lost." in texts
    assert "Detective Graves: 2 played, 1 finished · wins: " in texts
    assert "The Syndicate: 1 played, 1 finished · wins: " in texts
    assert "case 1 of 2 · Ann 0, Ben 0" in texts  # the damaged game, from its backup
    assert any(t.startswith("Detective Graves: Ann v Ben\nfinished: ") and " won " in t
               for t in start["texts"])
    assert "share_graves-20261121-201500" in start["controls"]
    assert "share_graves-20261122-100000" not in start["controls"]  # not finished: nothing to share
    ask = dumped(d["ask"])
    assert any(t.startswith("Delete The Syndicate: ") for t in ask["texts"])
    kept = dumped(d["kept"])
    assert "resume_syndicate-20261121-211000" in kept["controls"]  # Keep: still there
    assert not any(t.startswith("Delete The Syndicate") for t in kept["texts"])
    exports = tmp_path / "data" / "exports"
    assert sorted(p.name for p in exports.iterdir()) == ["graves-20261121-201500-result.txt",
                                                         "graves-20261121-201500.yaml"]
    assert any(str(exports) in t for t in dumped(d["shared"])["texts"])
    assert not store.path("syndicate-20261121-211000").exists()
    assert "The Syndicate: 1 played" not in "\n".join(dumped(d["deleted"])["texts"])


def test_a_graves_game_as_dealt_at_the_table_with_the_identity_entered_unseen(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    d = {n: tmp_path / f"{n}.json" for n in ("new", "secret", "entered", "table")}
    steps = [{"tap": "new_game"}, {"tap": "game_graves"}, {"dump": str(d["new"])}]
    steps += [{"tap": f"pick_locations_{loc}"} for loc in ROW]
    steps += [{"tap": "secret_identity"}, {"dump": str(d["secret"])}, {"shot": str(SCREENS / "new-game-secret.png")},
              {"tap": "secret_identity_odile_varnier"}, {"dump": str(d["entered"])},
              {"shot": str(SCREENS / "new-game-dealt.png")},
              {"tap": "new_start"}, {"dump": str(d["table"])}, {"quit": True}]
    run(tmp_path, steps)
    new = dumped(d["new"])
    assert "pick_locations_museum" in new["controls"] and "deal_seed" in new["controls"]
    # Ann has blue: on Ben's row it shows her initial and is greyed out (the driver refuses to tap it)
    assert "A" in new["texts"] and "B" in new["texts"]
    secret = "\n".join(dumped(d["secret"])["texts"])
    assert "Ben only" in secret and "Odile Varnier" in secret  # the choices, while Ben alone looks
    entered = "\n".join(dumped(d["entered"])["texts"])
    assert "Odile Varnier" not in entered and "odile_varnier" not in entered
    assert "Ben's identity card is entered and hidden." in entered
    assert "1. The Museum · 2. The Slums · 3. The Park · 4. The River · 5. The Alley" in entered
    table = dumped(d["table"])
    assert table["screen"] == "table"
    assert [loc["id"] for loc in table["summary"]["locations"]] == ROW
    assert "Odile Varnier" not in "\n".join(table["texts"])
    log = parse_log(next((tmp_path / "data" / "games").glob("*.yaml")).read_text(), "save", Problems())
    assert log is not None and log.setup["identity"] == "odile_varnier" and log.setup["colours"] == ["blue", "vermillion"]


def test_history_tells_the_game_and_redo_survives_a_restart(tmp_path, graves_db):
    store = Store(tmp_path / "data" / "games")
    saved(store, graves_db, "standard_two_cases.yaml", "graves-20261122-100000", first=9, undo=3)
    SCREENS.mkdir(exist_ok=True)
    first, after = tmp_path / "history.json", tmp_path / "redone.json"
    run(tmp_path, [{"tap": "resume_graves-20261122-100000"}, {"tap": "history"}, {"dump": str(first)},
                   {"shot": str(SCREENS / "history-undone.png")}, {"tap": "event_8"}, {"dump": str(after)},
                   {"quit": True}])
    texts = dumped(first)["texts"]
    assert "6 events; 3 undone (Redo brings them back)." in texts
    assert any("Case 1: Ann Detective, Ben Mastermind" in t for t in texts)
    assert "9. Undone: tap to redo up to here" in texts
    # an undone event leaves no word on the shared screen (an undone guess would tell the identity)
    log = parse_log((LOGS / "standard_two_cases.yaml").read_text(), "log", Problems())
    assert log is not None
    state = start(graves_db, log)
    told = []
    for event in log.events[:9]:
        told.append(GAMES["graves"].describe(state, event))
        GAMES["graves"].apply(state, event)
    assert all(t in "\n".join(texts) for t in told[:6])
    for gone in told[6:]:
        assert not any(gone in t for t in texts), gone
    assert "8 events; 1 undone (Redo brings it back)." in dumped(after)["texts"]
    assert len(store.open("graves-20261122-100000").log.events) == 8


def test_rules_from_the_start_screen_search_the_game_picked_or_all(tmp_path):
    d = {n: tmp_path / f"{n}.json" for n in ("all", "syndicate")}
    run(tmp_path, [{"tap": "start_rules"}, {"text": ["rules.query", "tie"]}, {"dump": str(d["all"])},
                   {"tap": "rules_game_syndicate"}, {"dump": str(d["syndicate"])},
                   {"shot": str(SCREENS / "rules-syndicate.png")}, {"quit": True}])
    everything = dumped(d["all"])["texts"]
    assert "Searching all games" in everything
    hits = [t for t in everything if "\n" in t]
    assert any("Detective Graves" in t for t in hits) and any("The Syndicate" in t for t in hits)
    one = dumped(d["syndicate"])["texts"]
    assert "Searching The Syndicate" in one
    hits = [t for t in one if "\n" in t]
    assert hits and not any("Graves" in t for t in hits)
    assert all(t.startswith(("Rule: ", "FAQ: ", "Card: ", "Location: ")) for t in hits), hits
