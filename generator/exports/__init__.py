"""Exports beyond the home-print PDFs: per-card PDFs, print services, Tabletop Simulator,
one-sided and fold-and-glue PDFs, a cover page and previews (docs/printing.md).

Each export takes a composed game (generator.build.Composed) and writes into a temporary
file or folder beside its target, renamed over it only when complete, so a failed build
leaves the previous output as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from casebook.generator.files import atomic_dir, atomic_file  # noqa: F401 - the exports' own names for them
from casebook.generator.scene import Scene

if TYPE_CHECKING:
    from casebook.generator.compose import Face

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class ExportOptions:
    """Which exports a build writes besides its PDFs (all off: the default build)."""

    per_card: bool = False
    services: tuple[str, ...] = ()
    tts: bool = False
    tts_url: str | None = None  # where the sheets will be hosted; default: file:/// paths
    split_sides: bool = False
    fold: bool = False
    cover: bool = False
    preview: bool = False
    notes: list[str] = field(default_factory=list)  # what an export left out, said to the user

    @property
    def any(self) -> bool:
        return bool(self.per_card or self.services or self.tts or self.split_sides or self.fold
                    or self.cover or self.preview)


def count(n: int, thing: str) -> str:
    """'1 deck', '7 decks': a number and its noun, agreeing."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def same_drawing(a: Scene, b: Scene) -> bool:
    """Two scenes that print alike (their labels may differ)."""
    return a.width == b.width and a.height == b.height and a.bleed == b.bleed and a.items == b.items


@dataclass
class Design:
    """One distinct card picture within a component, and the printed copies that show it."""

    face: Scene
    back: Scene
    copies: list[Face]

    @property
    def name(self) -> str:
        return card_name(self.copies[0])


def card_name(face: Face) -> str:
    """What people call a printed card: its name field, else its id."""
    return str(face.card.get("name") or face.card.id)


def designs(faces: list[Face]) -> list[Design]:
    """A component's printed cards grouped by identical face and back, in print order."""
    found: dict[tuple[Any, ...], Design] = {}
    for face in faces:
        key = (face.face.width, face.face.height, tuple(face.face.items), tuple(face.back.items))
        if key in found:
            found[key].copies.append(face)
        else:
            found[key] = Design(face.face, face.back, [face])
    return list(found.values())


def backs_alike(faces: list[Face]) -> bool:
    """Every card of the component has the same back."""
    return all(same_drawing(f.back, faces[0].back) for f in faces[1:])


def run_parallel(fn: Callable[[T], R], jobs: list[T], workers: int = 0) -> list[R]:
    """fn over jobs on every core (in order); in this process when there are few."""
    workers = workers or os.cpu_count() or 1
    if workers < 2 or len(jobs) < 8:
        return [fn(job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, jobs, chunksize=4))
