"""The build's notes: what it changed by itself or left out, said once per build, not once per game.

Nothing is said for the normal way of printing on a paper: what a build with the default
settings does there anyway (crop marks over the bleed on Letter, a landscape fold sheet,
fold-and-glue pairs spaced twice the bleed) is in docs/printing.md. A note says what the
settings a designer chose changed, or what an export left out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed


class BuildNotes:
    """Notes gathered over a whole build: each said once, the normal ones not at all."""

    def __init__(self) -> None:
        self.normal: set[str] = set()
        self.said: set[str] = set()
        self.pending: list[str] = []

    def expect(self, notes: set[str]) -> None:
        """Notes that describe the normal way of printing: never said."""
        self.normal |= notes

    def add(self, note: str) -> None:
        if note not in self.normal and note not in self.said:
            self.said.add(note)
            self.pending.append(note)

    def take(self) -> list[str]:
        """The notes not yet said, as lines to print."""
        out, self.pending = self.pending, []
        return [f"note: {n}" for n in out]


def normal_sheet_notes(composed: Composed, opts: BuildOptions) -> set[str]:
    """The imposition notes a build with the default bleed, gutter and labels gives on the same papers."""
    from casebook.generator.build import plans_for

    default = replace(opts, bleed=None, gutter=0.0, labels=True)
    return {f"{paper}, {size_id} cards: {note}"  # as generator/build.py's write_pdf says them
            for paper in opts.papers if paper in composed.lib.papers
            for size_id, plan in plans_for(composed, paper, default, Problems()).items() for note in plan.notes}
