"""Follow docs/make-your-own.md as a reader would: its commands, its files, the files it asks for.

The page's steps, in order:
- a ```sh block: commands, run by bash in the reader's current folder (`cd` carries over),
  with `casebook` on the PATH as `python -m casebook`; a `--watch` command is started and
  left running, and each later file edit waits for its rebuild; the next ```sh block first
  stops it with Ctrl-C, as the page says;
- a ```sh setup block: the one-time install, which is not run (it is the README's own);
- a fenced block whose preceding line names a file in backticks (`garden/cards.csv`): that
  file written in full, or added to its end when the line says "end of";
- a folder in backticks in the prose (`garden/fonts/`): where the reader puts a file of their
  own (a font), which the follower supplies from `bring`;
- a picture (`](make-your-own-1.png)`): nothing to do but look; the picture script renders it.
Used by tests/cli/test_make_your_own.py and tools/make_your_own_pictures.py.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "make-your-own.md"
FENCE = re.compile(r"^```(\S*)\s*(\S*)\s*$")
ROUND_ENDS = re.compile(r": done in |: not built")  # what a build round prints last, good or bad


@dataclass(frozen=True)
class Step:
    kind: str  # "setup", "sh", "file", "append", "bring", "picture"
    text: str  # the commands or the file's text
    path: str  # the file, the folder to bring a file into, or the picture's name
    line: int  # on the page, 1-based


def read_steps(text: str) -> list[Step]:
    """The page's steps in order."""
    steps: list[Step] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            body = "\n".join(lines[i + 1:end]) + "\n"
            info, extra = fence.groups()
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            named = re.findall(r"`([^`\s]+\.[a-z]+)`", before)
            if info == "sh":
                steps.append(Step("setup" if extra == "setup" else "sh", body, "", i + 1))
            elif named:
                steps.append(Step("append" if "end of" in before else "file", body, named[-1], i + 1))
            i = end + 1
            continue
        for name in re.findall(r"\]\((make-your-own-[\w-]+\.png)\)", lines[i]):
            steps.append(Step("picture", "", name, i + 1))
        for folder in re.findall(r"`([\w./-]+/)`", lines[i]):
            steps.append(Step("bring", "", folder, i + 1))
        i += 1
    return steps


class Reader:
    """A reader at a terminal in an empty home folder, doing what the page says."""

    def __init__(self, home: Path, bring: dict[str, list[Path]], say: Callable[[str], None] = lambda s: None):
        self.home, self.cwd, self.bring, self.say = home, home, bring, say
        bindir = home / ".casebook-bin"
        bindir.mkdir(parents=True, exist_ok=True)
        shim = bindir / "casebook"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m casebook "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
        self.env = {**os.environ, "HOME": str(home), "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
                    "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.watch: subprocess.Popen[str] | None = None
        self.watch_lines: list[str] = []
        self.brought: set[str] = set()
        self.outputs: list[str] = []  # what each command printed

    def follow(self, steps: list[Step], on_picture: Callable[[Step], None] = lambda s: None) -> None:
        try:
            self._follow(steps, on_picture)
        finally:  # a step that failed leaves no watch running behind the test
            if self.watch is not None and self.watch.poll() is None:
                os.killpg(self.watch.pid, signal.SIGKILL)
                self.watch.wait(timeout=60)

    def _follow(self, steps: list[Step], on_picture: Callable[[Step], None]) -> None:
        for step in steps:
            if step.kind == "sh":
                self.run(step)
            elif step.kind in ("file", "append"):
                self.write(step)
            elif step.kind == "bring":
                for source in self.bring.get(step.path, []):
                    target = self.cwd / step.path
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy(source, target / source.name)
                    self.brought.add(step.path)
                    self.wait_for_rebuild()
            elif step.kind == "picture":
                on_picture(step)
        self.stop_watch()

    def run(self, step: Step) -> None:
        self.stop_watch()
        commands = [c for c in step.text.splitlines() if c.strip() and not c.lstrip().startswith("#")]
        for command in commands:
            self.say(f"$ {command}")
            if "--watch" in command:
                self.start_watch(command, step)
                continue
            result = subprocess.run(["bash", "-c", f'set -e\n{command}\npwd > "$HOME/.casebook-pwd"'], cwd=self.cwd,
                                    env=self.env, capture_output=True, text=True, timeout=300)
            self.outputs.append(result.stdout + result.stderr)
            if result.returncode != 0:
                raise AssertionError(f"make-your-own.md:{step.line}: `{command}` failed ({result.returncode}):\n"
                                     f"{result.stdout}{result.stderr}")
            self.cwd = Path((self.home / ".casebook-pwd").read_text(encoding="utf-8").strip())

    def start_watch(self, command: str, step: Step) -> None:
        self.watch_lines = []
        self.watch = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=self.cwd, env=self.env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        stream = self.watch.stdout
        assert stream is not None
        threading.Thread(target=lambda: self.watch_lines.extend(iter(stream.readline, "")), daemon=True).start()
        self.wait_until(lambda: any("watching" in line for line in self.watch_lines), f"{step.line}: {command}")

    def wait_for_rebuild(self) -> None:
        """With a watch running, wait until it has rebuilt after the file just saved."""
        if self.watch is None:
            return
        rounds = sum(1 for line in self.watch_lines if ROUND_ENDS.search(line))
        self.wait_until(lambda: sum(1 for line in self.watch_lines if ROUND_ENDS.search(line)) > rounds,
                        "a rebuild by the watch")
        failed = [line for line in self.watch_lines if "not built" in line or ": error:" in line]
        if failed:
            raise AssertionError("the watch could not build:\n" + "".join(self.watch_lines))

    def wait_until(self, done: Callable[[], bool], what: str, limit: float = 180.0) -> None:
        start = time.monotonic()
        while not done():
            if self.watch is not None and self.watch.poll() is not None and not done():
                time.sleep(0.2)  # its last lines may still be on their way
                if done():
                    return
                raise AssertionError(f"the watch ended before {what}:\n" + "".join(self.watch_lines))
            if time.monotonic() - start > limit:
                raise AssertionError(f"no {what} after {limit:g} s:\n" + "".join(self.watch_lines))
            time.sleep(0.1)

    def write(self, step: Step) -> None:
        path = self.cwd / step.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if step.kind == "append":
            with path.open("a", encoding="utf-8") as f:
                f.write(step.text)
        else:
            path.write_text(step.text, encoding="utf-8")
        self.say(f"(saved {step.path})")
        self.wait_for_rebuild()

    def stop_watch(self) -> None:
        """Ctrl-C, as the page says; the watch ends with 0."""
        if self.watch is None:
            return
        watch, self.watch = self.watch, None
        os.killpg(watch.pid, signal.SIGINT)
        code = watch.wait(timeout=60)
        if code != 0:
            raise AssertionError(f"the watch ended with {code} on Ctrl-C:\n" + "".join(self.watch_lines))
