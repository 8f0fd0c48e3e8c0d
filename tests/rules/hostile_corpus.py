"""Hostile YAML files, generated at test time: alias bombs, deep nesting, huge files and lines,
bytes that are not UTF-8 text, too many values or problems.

Each case appends a hostile tail to a real host file (a Graves card file or a game log) and
says how the reader must refuse it there: a message pattern and the line within the tail.
Used by tests/rules/test_hostile.py, tests/cli/test_hostile_cli.py,
tests/companion/test_hostile_saves.py and benchmarks/hostile.py. Nothing large is committed.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARD_HOST = Path("cards/graves/locations.yaml")  # relative to a cards/ + layouts/ copy's parent, or ROOT
LOG_HOST = ROOT / "tests/data/logs/single_case.yaml"

LOG_REFUSES_ANCHOR = r"an anchor \(&\w+\) in a game log"
LOG_REFUSES_ALIAS = r"an alias \(\*\w+\) in a game log"


@dataclass(frozen=True)
class Hostile:
    """One hostile file: a tail after the host text, and the refusal expected in cards and in logs."""

    name: str
    tail: Callable[[], str]
    card: str | None  # the refusal's message pattern in a card file (None: a card file may hold it)
    log: str | None  # the same in a game log
    line: int | None = None  # the refusal's line within the tail (1 = its first line); None: any line of it
    log_line: int | None = None  # where a log's refusal differs (a bomb is refused at its first anchor)
    encoding: str = "utf-8"  # how the tail is written
    whole_file: str | None = None  # an encoding for the whole file (host too): the refusal is on line 1

    def file_bytes(self, host: str) -> bytes:
        """The host text, then the tail; the host is always UTF-8 unless the whole file is re-encoded."""
        if not host.endswith("\n"):
            host += "\n"
        if self.whole_file:
            return (host + self.tail()).encode(self.whole_file)
        return host.encode("utf-8") + self.tail().encode(self.encoding)

    def expected_line(self, host: str, in_log: bool) -> int | None:
        """The 1-based line of the file the refusal must name (None: any line of the tail)."""
        if self.whole_file:
            return 1
        line = self.log_line if in_log and self.log_line is not None else self.line
        return None if line is None else host.rstrip("\n").count("\n") + 1 + line


def _bomb_lists(levels: int = 10) -> str:
    lines = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _bomb_mappings(levels: int = 10) -> str:
    lines = ["m0: &m0 {a: lol, b: lol, c: lol, d: lol, e: lol, f: lol, g: lol, h: lol, i: lol}"]
    lines += [f"m{i}: &m{i} {{" + ", ".join(f"{k}: *m{i - 1}" for k in "abcdefghi") + "}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _bomb_merge(levels: int = 10) -> str:
    lines = ["m0: &m0 {a: lol, b: lol, c: lol, d: lol, e: lol, f: lol, g: lol, h: lol, i: lol}"]
    lines += [f"m{i}: &m{i} {{<<: *m{i - 1}, " + ", ".join(f"k{k}: *m{i - 1}" for k in range(8)) + "}"
              for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _bomb_block(levels: int = 10) -> str:
    out = ["lol0: &lol0"] + ["  - lol"] * 9
    for i in range(1, levels):
        out += [f"lol{i}: &lol{i}"] + [f"  - *lol{i - 1}"] * 9
    return "\n".join(out) + "\n"


def _deep_block_mappings(levels: int = 200) -> str:
    return "deep:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, levels)) + "  " * levels + "end: 1\n"


def _long_block_scalar(chars: int = 30_000) -> str:
    words = ("word " * (chars // 5)).strip()
    return "note: >-\n" + "".join("  " + words[i:i + 78] + "\n" for i in range(0, len(words), 78))


def _filler(megabytes: float) -> str:
    line = "# " + "filler " * 11 + "\n"
    return line * int(megabytes * 1_000_000 / len(line))


CASES: list[Hostile] = [
    Hostile("bomb_lists", _bomb_lists, card=r"alias bomb", log=LOG_REFUSES_ANCHOR, log_line=1),
    Hostile("bomb_mappings", _bomb_mappings, card=r"alias bomb", log=LOG_REFUSES_ANCHOR, log_line=1),
    Hostile("bomb_merge_keys", _bomb_merge, card=r"alias bomb", log=LOG_REFUSES_ANCHOR, log_line=1),
    Hostile("bomb_block_style", _bomb_block, card=r"alias bomb", log=LOG_REFUSES_ANCHOR, log_line=1),
    Hostile("alias_inside_itself", lambda: "loop: &loop [1, [2, *loop]]\n",
            card=r"the alias \*loop stands inside the value it names", log=LOG_REFUSES_ANCHOR, line=1),
    Hostile("anchors_in_log", lambda: "note: &n hello\nagain: *n\n", card=None, log=LOG_REFUSES_ANCHOR, line=1),
    Hostile("alias_in_log", lambda: "again: *n\n", card=r"undefined alias 'n'", log=LOG_REFUSES_ALIAS, line=1),
    Hostile("deep_brackets", lambda: "deep: " + "[" * 20_000 + "]" * 20_000 + "\n",
            card=r"nested more than 64 levels deep", log=r"nested more than 64 levels deep", line=1),
    Hostile("deep_braces", lambda: "deep: " + "{a: " * 15_000 + "}" * 15_000 + "\n",
            card=r"nested more than 64 levels deep", log=r"nested more than 64 levels deep", line=1),
    Hostile("deep_block_mappings", _deep_block_mappings,
            card=r"nested more than 64 levels deep", log=r"nested more than 64 levels deep"),
    Hostile("deep_block_dashes", lambda: "deep:\n  " + "- " * 20_000 + "x\n",
            card=r"nested more than 64 levels deep", log=r"nested more than 64 levels deep", line=2),
    Hostile("huge_file", lambda: "filler: 1\n" + _filler(6), card=r"the file is too large",
            log=r"the file is too large"),
    Hostile("huge_line_40mb", lambda: "long: " + "x" * 40_000_000 + "\n", card=r"the file is too large",
            log=r"the file is too large", line=1),
    Hostile("long_line", lambda: "long: " + "lol, " * 30_000 + "\n", card=r"line \d+ is 150006 characters long",
            log=r"line \d+ is 150006 characters long", line=1),
    Hostile("long_scalar", _long_block_scalar, card=r"a value of \d+ characters",
            log=r"a value of \d+ characters", line=1),
    # 2 MB of values of 2 characters: denser than any card file or log (the budget grows with the text read:
    # one value for every VALUE_CHARS characters), refused where they begin, not after the whole file
    Hostile("many_values", lambda: "many: [\n" + ("0," * 25_000 + "\n") * 40 + "0]\n",
            card=r"the file holds \d+ values in its first \d+ characters \(more than one for every 4\)",
            log=r"the file holds \d+ values in its first \d+ characters \(more than one for every 4\)"),
    Hostile("many_duplicate_keys", lambda: "dup: 1\n" * 20_000, card=r"more than 50 problems in this file",
            log=r"more than 50 problems in this file"),
    Hostile("nul_byte", lambda: "note: before\x00after\n", card=r"a NUL byte", log=r"a NUL byte", line=1),
    Hostile("control_character", lambda: "note: bell\x07here\n", card=r"U\+0007 is not allowed",
            log=r"U\+0007 is not allowed", line=1),
    Hostile("latin1_bytes", lambda: "ok: fine\nnote: caf\xe9 cr\xe8me\n", card=r"not UTF-8 text: byte 0xe9",
            log=r"not UTF-8 text: byte 0xe9", line=2, encoding="latin-1"),
    Hostile("utf16_bom", lambda: "note: plain\n", card=r"UTF-16", log=r"UTF-16", whole_file="utf-16"),
    Hostile("tab_indent_mix", lambda: "extra:\n  a: 1\n\tb: 2\n", card=r"YAML syntax: .*tab",
            log=r"YAML syntax: .*tab", line=3),
    Hostile("huge_number", lambda: "n: " + "9" * 5000 + "\n", card=r"cannot read '9+\.\.\. \(5000 characters\)' as int",
            log=r"cannot read '9+\.\.\. \(5000 characters\)' as int", line=1),
]

CARD_CASES = [c for c in CASES if c.card]
LOG_CASES = [c for c in CASES if c.log]


def card_host(root: Path = ROOT) -> str:
    return (root / CARD_HOST).read_text(encoding="utf-8")


def log_host() -> str:
    return LOG_HOST.read_text(encoding="utf-8")


def run_guarded(argv: list[str], timeout: float = 60, memory_mb: int = 1500,
                cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run a command with a hang guard (a timeout) and a memory guard (an address-space limit).

    A regression to the old reader would otherwise take minutes and 6-11 GB of a shared machine.
    """
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit, errors="replace")


def python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run Python code in a guarded subprocess (see run_guarded)."""
    return run_guarded([sys.executable, "-c", code, *args], timeout=timeout)
