"""A log is read without importing any engine: which games there are comes from rules/games' folder, and it is
the registry's own list; an unknown game is refused naming them."""

from __future__ import annotations

import subprocess
import sys

from casebook.rules.games import GAMES
from casebook.rules.log import game_ids, parse_log
from casebook.rules.problems import Problems

LOG = "casebook-log: 1\ngame: {game}\nrules_version: 1\nplayers: [Ann, Ben]\nevents: []\n"


def test_the_games_read_from_the_folder_are_the_registry_s():
    assert game_ids() == sorted(GAMES)


def test_an_unknown_game_is_refused_naming_the_known_ones():
    problems = Problems()
    assert parse_log(LOG.format(game="chess"), "x.yaml", problems) is None
    assert "unknown game 'chess'" in str(problems) and "graves" in str(problems)


def test_reading_a_log_imports_no_engine():
    probe = ("import sys; from casebook.rules.log import parse_log; from casebook.rules.problems import Problems; "
             f"log = parse_log({LOG.format(game='graves')!r}, 'x.yaml', Problems()); assert log.game == 'graves'; "
             "print(sorted(m for m in sys.modules if m.startswith('casebook.rules.games')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
