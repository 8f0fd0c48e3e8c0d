"""The YAML reader refuses hostile files (hostile_corpus.py) with file:line:col, never a traceback.

Each case runs in its own subprocess with a timeout and a memory limit: a reader that expands
an alias bomb or recurses without end fails the test instead of taking the machine down.
How fast the refusals are is measured by benchmarks/hostile.py, not here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.rules.hostile_corpus import CARD_CASES, LOG_CASES, Hostile, card_host, log_host, python

READ_CARD_FILE = """
import json, sys
from pathlib import Path
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import load_yaml
problems = Problems()
data = load_yaml(Path(sys.argv[1]), problems)
print(json.dumps({"data": data is not None, "problems": [p.format() for p in problems.items]}))
"""

READ_LOG = """
import json, sys
from pathlib import Path
from casebook.rules.log import parse_log
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import read_source
problems = Problems()
text = read_source(Path(sys.argv[1]), problems)
log = None if text is None else parse_log(text, sys.argv[1], problems)
print(json.dumps({"data": log is not None, "problems": [p.format() for p in problems.items]}))
"""


def assert_refused(case: Hostile, path: Path, host: str, in_log: bool, code: str) -> None:
    result = python(code, str(path))
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert not report["data"], f"{case.name}: the hostile file was read"
    problems = report["problems"]
    expect = case.log if in_log else case.card
    assert expect is not None
    located = [p for p in problems if re.search(expect, p.splitlines()[0])]
    assert located, f"{case.name}: no problem matching {expect!r} in:\n" + "\n".join(problems)[:3000]
    first = located[0].splitlines()[0]
    match = re.match(re.escape(str(path)) + r":(\d+):(\d+): error: ", first)
    assert match, f"{case.name}: not 'file:line:col: error:': {first[:300]}"
    line = int(match.group(1))
    host_lines = host.rstrip("\n").count("\n") + 1
    expected = case.expected_line(host, in_log)
    if expected is None:
        assert line > host_lines, f"{case.name}: line {line} is not in the hostile tail (after line {host_lines})"
    else:
        assert line == expected, f"{case.name}: refused at line {line}, expected {expected}:\n{first}"
    assert "expected: " in located[0], f"{case.name}: the refusal does not say what would be right"
    assert max(len(p) for p in problems) < 2000, f"{case.name}: a message holds a huge line"


KINDS = [pytest.param(case, "card", id=f"card-{case.name}") for case in CARD_CASES]
KINDS += [pytest.param(case, "log", id=f"log-{case.name}") for case in LOG_CASES]


@pytest.mark.parametrize(("case", "kind"), KINDS)
def test_hostile_file_is_refused(case: Hostile, kind: str, tmp_path: Path) -> None:
    host = card_host() if kind == "card" else log_host()
    path = tmp_path / ("locations.yaml" if kind == "card" else "game.yaml")
    path.write_bytes(case.file_bytes(host))
    assert_refused(case, path, host, kind == "log", READ_CARD_FILE if kind == "card" else READ_LOG)


def test_hosts_alone_are_read(tmp_path: Path) -> None:
    """The harness is sound: the host files without a hostile tail are read without a problem."""
    for host, code in ((card_host(), READ_CARD_FILE), (log_host(), READ_LOG)):
        path = tmp_path / "host.yaml"
        path.write_text(host, encoding="utf-8")
        report = json.loads(python(code, str(path)).stdout)
        assert report == {"data": True, "problems": []}


def test_a_card_file_may_use_anchors_a_log_may_not(tmp_path: Path) -> None:
    case = next(c for c in CARD_CASES + LOG_CASES if c.name == "anchors_in_log")
    path = tmp_path / "locations.yaml"
    path.write_bytes(case.file_bytes(card_host()))
    assert json.loads(python(READ_CARD_FILE, str(path)).stdout) == {"data": True, "problems": []}


DEEP = [pytest.param(case, id=case.name) for case in CARD_CASES if case.name.startswith("deep_")]


@pytest.mark.parametrize("case", DEEP)
def test_deep_nesting_is_refused_in_our_words_whatever_the_parser_allows(case: Hostile) -> None:
    """libyaml has had a nesting limit of its own since PyYAML 6.0.4; the pure parser has none.

    The same file gives the same refusal, at the same place, through either parser: the
    message a user reads does not depend on which PyYAML (or libyaml) is installed.
    """
    import yaml

    from casebook.rules import yamlsource
    from casebook.rules.problems import Problems

    text = case.file_bytes(card_host()).decode("utf-8")
    said = []
    for loader in (yamlsource._LOADER, yaml.SafeLoader):
        problems = Problems()
        source = yamlsource._Source("locations.yaml", text, problems)
        try:
            yamlsource._Reader(source, True, loader=loader).read(text)
        except yamlsource._Refused as refused:
            said.append((refused.line, refused.col, refused.message))
        except yaml.MarkedYAMLError as exc:  # the library's own limit: translated as parse_yaml does
            ours = yamlsource._own_refusal_before(text, "locations.yaml", True, exc)
            said.append(None if ours is None else (ours.line, ours.col, ours.message))
    assert said[0] is not None and re.search(case.card or "", said[0][2]), said
    assert said[0] == said[1], f"{case.name}: the two parsers refuse differently: {said}"
