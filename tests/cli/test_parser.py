"""The command line's parser set up for one command (casebook/cli.py parser(command)): it reads what the whole
parser reads and says of a mistake what the whole parser says; a build sets up neither the rules lookup nor the
exports (tests/generator/test_lazy_build.py holds what a build imports)."""

from __future__ import annotations

import contextlib
import io

import pytest

from casebook.cli import COMMANDS, parser

GIVEN = [
    ["build", "graves", "--fold", "--paper", "a4", "--gutter", "6", "--service", "tgc", "--set", "base"],
    ["build"], ["validate", "pi", "--cards", "x"], ["replay", "log.yaml", "--until", "3", "--json"], ["new", "mine"],
    ["app"], ["rules", "graves", "tie", "break", "--limit", "2"],
    # mistakes: the message and the exit code
    ["build", "--bogus"], ["build", "--paper", "a5"], ["build", "--gutter", "-1"], ["build", "--back-offset", "9,0"],
    ["build", "graves", "extra", "--fold", "--nope"], ["validate", "--paper", "a4"], ["replay"], ["new"],
    ["app", "x"], ["rules", "graves"], ["rules", "graves", "tie", "--limit", "0"], ["build", "-h"], ["rules", "--help"],
]


def outcome(ap_command: str | None, argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result: object = vars(parser(ap_command).parse_args(argv))
        except SystemExit as exc:
            result = ("exit", exc.code)
    return result, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", GIVEN, ids=" ".join)
def test_the_parser_of_one_command_reads_and_refuses_as_the_whole_parser(argv: list[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # the help's wrapping, the same for both
    assert argv[0] in COMMANDS
    assert outcome(argv[0], argv) == outcome(None, argv)


def test_the_parser_of_one_command_sets_up_its_options_alone() -> None:
    build = parser("build")
    sub = next(a for a in build._actions if a.dest == "command")
    assert list(sub.choices) == list(COMMANDS)  # every command named, as the whole parser names them
    assert [a.dest for a in sub.choices["rules"]._actions] == ["help"]  # the rules lookup's options not set up
    assert "fold" in [a.dest for a in sub.choices["build"]._actions]
    assert "query" in [a.dest for a in parser(None)._subparsers._group_actions[0].choices["rules"]._actions]
