"""The neutral scene: what a card or page looks like, in millimetres, belonging to no backend.

Origin top-left, y down. Text arrives laid out (lines and positions fixed by the
composer), so every backend draws the same glyphs in the same places.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3


@dataclass(frozen=True)
class Polyline:
    """Straight segments; closed polygons may be filled, open ones are stroked with round caps."""

    points: tuple[Point, ...]
    closed: bool = False
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class TextRun:
    """One run of text on one baseline: x is where it starts, y the baseline.

    `angle` turns the run clockwise about that point, in quarter turns (90, 180, 270).
    """

    x: float
    y: float
    text: str
    font: str
    size: float  # points
    colour: str
    angle: float = 0.0


@dataclass(frozen=True)
class Clip:
    """Everything after this, up to the matching Unclip, is clipped to the rectangle."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Unclip:
    pass


Item = Rect | Ellipse | Polyline | TextRun | Clip | Unclip


@dataclass
class Scene:
    """A drawing of width x height mm; `bleed` mm of it on every side lies outside the trim."""

    width: float
    height: float
    bleed: float = 0.0
    items: list[Item] = field(default_factory=list)
    label: str = ""

    def add(self, item: Item) -> None:
        self.items.append(item)

    @property
    def trim(self) -> tuple[float, float, float, float]:
        b = self.bleed
        return (b, b, self.width - 2 * b, self.height - 2 * b)
