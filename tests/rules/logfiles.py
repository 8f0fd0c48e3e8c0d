"""Reading a game log file in a test: parsed, or the test fails with the log's problems."""

from __future__ import annotations

from pathlib import Path

from casebook.rules.log import GameLog, parse_log
from casebook.rules.problems import Problems


def read_log(path: Path) -> GameLog:
    """The log at `path`; fails the test with every problem found if it does not parse."""
    problems = Problems()
    log = parse_log(path.read_text(), str(path), problems)
    assert log is not None, problems.format()
    return log
