"""`casebook replay`: states and scores, --until, --json, and clear errors for bad logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from casebook.cli import main

ROOT = Path(__file__).resolve().parents[2]

LOG = """casebook-log: 1
game: graves
rules_version: 1
players: [Ann, Ben]
variants: []
setup: {detective: Ann, locations: [park, library, palace_grounds, station, record_office], identity: josiah_tumbrel}
events:
  - {action: play, by: Ann, cards: [7 shoeprints, 9 shoeprints]}
  - {action: pass, by: Ben}
  - {action: play, by: Ann, cards: [8 notebook], discards: 1}
  - {action: pass, by: Ben}
  - {action: pass, by: Ann}
  - {action: play, by: Ann, cards: [9 briefcase]}
  - {action: play, by: Ben, cards: [3 shoeprints, 5 notebook]}
"""


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_replay_prints_state_and_scores(tmp_path, capsys):
    path = write(tmp_path, LOG.rsplit("  - {action: play, by: Ann, cards: [9 briefcase]}", 1)[0])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The Park" in out and "won by Ann" in out and "Ann 40 - Ben 0" in out


def test_until_and_json(tmp_path, capsys):
    path = write(tmp_path, LOG)
    assert main(["replay", str(path), "--until", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events_applied"] == 2
    park = data["state"]["locations"][0]
    assert park["totals"] == {"Ann": 32, "Ben": 0} and park["time"] == 2


def test_illegal_event_names_number_action_and_rule(tmp_path, capsys):
    path = write(tmp_path, LOG)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:14:5: error: event 7 (Ben plays 3 Shoeprints and 5 Notebook at The Library): What may be "\
           "played: " in err


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    (LOG[:200], "YAML syntax"),  # cut off in the middle: a half-written file
    ("casebook-log: 2\ngame: graves\n", "version-1"),
    ("[1, 2]\n", "mapping"),
    (LOG.replace("game: graves", "game: chess"), "unknown game"),
    (LOG.replace("rules_version: 1", "rules_version: 99"), "rules version 99"),
    (LOG.replace("players: [Ann, Ben]", "players: [Ann]"), "exactly 2 players"),
    (LOG.replace("- {action: pass, by: Ben}", "- 17", 1), "event 2 is not a mapping"),
    (LOG.replace("- {action: pass, by: Ben}", "- {action: shout, by: Ben}", 1), "unknown action 'shout'"),
    (LOG.replace("- {action: pass, by: Ben}", "- {action: pass, by: Cyd}", 1), "not a player"),
    (LOG.replace("7 shoeprints", "7 hats"), "unknown suit"),
], ids=["empty", "truncated", "version", "not-mapping", "game", "rules-version", "players", "event-type",
        "action", "player", "suit"])
def test_bad_logs_give_a_clear_error_and_no_traceback(tmp_path, text, words):
    path = write(tmp_path, text)
    run = subprocess.run([sys.executable, "-m", "casebook", "replay", str(path)], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert words in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_binary_and_missing_files(tmp_path, capsys):
    bad = tmp_path / "bin.yaml"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    assert main(["replay", str(bad)]) == 1
    assert main(["replay", str(tmp_path / "none.yaml")]) == 1
    err = capsys.readouterr().err
    assert "cannot read" in err and "no such file" in err


SYNDICATE = """casebook-log: 1
game: syndicate
rules_version: 1
players: [Ann, Ben, Cat]
variants: []
setup: {}
events:
  - {action: plot, by: Ann, lead: 8 Diplomat, face_down: Author, enforcers: {Ben: Merchant, Cat: Castle}}
  - {action: plot, by: Ben, lead: A waves, enforcers: {Cat: crown waves, Ann: 8 Mill}}
  - {action: plot, by: Cat, lead: Dragon, enforcers: {Ann: Forest, Ben: Sailor}}
"""


def test_replay_of_a_syndicate_game(tmp_path, capsys):
    path = write(tmp_path, SYNDICATE)
    assert main(["replay", str(path), "--until", "2"]) == 0
    out = capsys.readouterr().out
    assert "turn  1: Ann leads 8 Diplomat + 2 Author face down; Ben 9 Merchant, Cat 7 Castle: 10 v 9, succeeds: Ann +1" in out
    assert "turn  2: Ben leads Ace of Waves; Cat Crown Sea, Ann 8 Mill: 11 (Ace 11) v 18, foiled: Ann +1, Cat +1" in out
    assert "turn 3: Cat is the mastermind" in out
    assert "total: Ann 2, Ben 0, Cat 1" in out
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:10:5: error: event 3 (Plot 3: Cat leads Dragon; Ann 5 Forest, Ben 4 Sailor): The plot: unknown card " \
           "'Dragon'" in err
    assert "Traceback" not in err


def replay_json(path, *extra):
    """Run `casebook replay --json` in its own process: the exit code and the one JSON object printed."""
    run = subprocess.run([sys.executable, "-m", "casebook", "replay", str(path), "--json", *extra], cwd=ROOT,
                         capture_output=True, text=True)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(run.stdout), run.stderr


def test_json_for_a_refused_event_keeps_the_state_before_it(tmp_path):
    code, data, err = replay_json(write(tmp_path, LOG))
    assert code == 1 and "event 7" in err
    assert data["game"] == "graves" and data["events_applied"] == 6
    assert data["error"]["kind"] == "event" and data["error"]["event"] == 7
    assert data["error"]["rule_id"] == "turn_what_may_be_played" and data["error"]["place"].endswith("game.yaml:14:5")
    assert data["state"]["locations"][1]["piles"] == {"Ann": ["9 Briefcase"], "Ben": []}


def test_json_for_a_refused_header_is_an_error_at_event_0(tmp_path):
    code, data, _ = replay_json(write(tmp_path, LOG.replace("players: [Ann, Ben]", "players: [Ann]")))
    assert code == 1 and data["state"] is None and data["events_applied"] == 0
    assert data["error"]["kind"] == "header" and data["error"]["event"] == 0
    assert "exactly 2 players" in data["error"]["reason"] and data["error"]["rule"] == "Setting up a case"


@pytest.mark.parametrize("content, kind, words", [
    (None, "file", "no such file"),
    (b"\x89PNG\r\n\x1a\n\x00\xff", "file", "cannot read it as a game log"),
    (LOG[:200].encode(), "log", "YAML syntax"),
    (b"casebook-log: 2\ngame: graves\n", "log", "version-1"),
], ids=["missing", "binary", "truncated", "version"])
def test_json_when_the_file_cannot_be_read_or_parsed(tmp_path, content, kind, words):
    path = tmp_path / "game.yaml"
    if content is not None:
        path.write_bytes(content)
    code, data, err = replay_json(path)
    assert code == 1 and data["state"] is None and data["error"]["kind"] == kind
    assert data["error"]["event"] is None and words in data["error"]["reason"] + err
    if kind == "log":
        assert data["error"]["problems"] and data["error"]["problems"][0]["place"].startswith(str(path))


def test_json_for_a_whole_game_has_every_case_and_the_winner(tmp_path):
    code, data, err = replay_json(ROOT / "tests" / "data" / "logs" / "locations_special.yaml")
    assert code == 0 and data["error"] is None, err
    state = data["state"]
    assert state["phase"] == "over" and state["case"]["number"] == 2  # the last case stays in state.case
    assert [c["number"] for c in state["cases_done"]] == [1]
    assert [c["points"] for c in state["cases"]] == [{"Ann": 7, "Ben": 6}, {"Ann": 4, "Ben": 9}]
    assert state["result"]["winner"] == "Ben"
