"""Problems found in data files, reported as `file:line:col: error: what` with the line shown.

A place is a line and column of a text file (Place), or a cell of a spreadsheet by its row
and column (CellPlace, for rules/sheetsource.py and rules/workbook.py alike).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Place:
    """Where something stands in a source file (1-based line and column)."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        where = display_path(self.path)
        if self.line:
            return f"{where}:{self.line}:{self.col or 1}"
        return where

    def shifted(self, lines: int) -> Place:
        return Place(self.path, self.line + lines, self.col if lines == 0 else 1)


def display_path(path: str) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


@dataclass(frozen=True)
class CellPlace(Place):
    """A place in a sheet: `line`/`col` in the file (for editors), `row` and `column` as a spreadsheet shows them."""

    row: int = 0
    column: str | int = ""  # the header, or the column's number where it has none (shown as its letter)

    def __str__(self) -> str:
        where = f"{display_path(self.path)}:{self.row}" if self.row else display_path(self.path)
        if isinstance(self.column, int):
            return f"{where}: column {column_letter(self.column)}"
        return f"{where}: column '{self.column}'" if self.column else where


def column_letter(number: int) -> str:
    """A column's letter as a spreadsheet shows it: 1 is A, 26 Z, 27 AA."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters or "?"


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the data, with where it is and what would be right."""

    place: Place
    message: str
    expected: str | None = None
    severity: str = "error"

    def format(self) -> str:
        out = [f"{self.place}: {self.severity}: {self.message}"]
        source = source_line(self.place)
        if source is not None:
            out.append(f"  >> {source}")
        if self.expected:
            out.append(f"     expected: {self.expected}")
        return "\n".join(out)


SHOWN_LINE = 240  # a refused 40 MB line is shown clipped, never whole
SHOWN_PROBLEMS = 200  # past this, a count: 20,000 copies of one mistake help nobody
_LINES_CACHE: dict[tuple[str, int, int], list[str]] = {}


def _lines(path: str) -> list[str] | None:
    """A file's lines, read once per version of the file however many problems point into it."""
    try:
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        if key not in _LINES_CACHE:
            if len(_LINES_CACHE) > 64:
                _LINES_CACHE.clear()
            _LINES_CACHE[key] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        return _LINES_CACHE[key]
    except OSError:
        return None


def source_line(place: Place) -> str | None:
    if not place.line:
        return None
    lines = _lines(place.path)
    if lines is not None and 1 <= place.line <= len(lines):
        line = lines[place.line - 1].rstrip()
        return line if len(line) <= SHOWN_LINE else line[:SHOWN_LINE] + " …"
    return None


@dataclass
class Problems:
    """A collector: checks add to it and carry on, so every problem is reported at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, place: Place, message: str, expected: str | None = None) -> None:
        self.items.append(Problem(place, message, expected))

    def warn(self, place: Place, message: str, expected: str | None = None) -> None:
        self.items.append(Problem(place, message, expected, severity="warning"))

    def extend(self, other: Problems) -> None:
        self.items.extend(other.items)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    def __bool__(self) -> bool:
        return bool(self.errors)

    def __len__(self) -> int:
        return len(self.items)

    def format(self) -> str:
        shown = [p.format() for p in self.items[:SHOWN_PROBLEMS]]
        if len(self.items) > SHOWN_PROBLEMS:
            shown.append(f"... and {len(self.items) - SHOWN_PROBLEMS} more problem(s) not shown: fix these first")
        return "\n".join(shown)


class DataError(Exception):
    """Raised when data cannot be used; carries every problem found."""

    def __init__(self, problems: Problems):
        self.problems = problems
        super().__init__(problems.format())
