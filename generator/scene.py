"""The neutral scene: what a card or page looks like, in millimetres, belonging to no backend.

Origin top-left, y down. Text arrives laid out (lines and positions fixed by the
composer), so every backend draws the same glyphs in the same places; a picture arrives
fitted (where the whole image lands, and the box that cuts it), so every backend shows
the same part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    """A rectangle by its top-left corner and size (mm), its corners rounded by `radius`."""
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
    """An ellipse by its centre and radii (mm)."""
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
class Shape:
    """One filled shape of several closed outlines (a compound path): where outlines overlap, the nonzero
    winding rule (or, with `even_odd`, the even-odd rule) decides what is inside, so an outline running
    the other way round cuts a hole through which whatever lies below shows."""

    subpaths: tuple[tuple[Point, ...], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    even_odd: bool = False

    def moved(self, move: Callable[[Point], Point], k: float = 1.0) -> Shape:
        """Every point moved by `move`, the line width scaled by k."""
        return replace(self, subpaths=tuple(tuple(move(p) for p in ring) for ring in self.subpaths), width=self.width * k)


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
    """The end of the clipping begun by the matching Clip."""


@dataclass(frozen=True)
class Picture:
    """An image file (PNG, JPEG or SVG) drawn so that the whole image fills (x, y, w, h).

    What falls outside `clip` (x, y, w, h; its corners rounded by `radius`) is cut away.
    `digest` is the file's content (backends embed or decode each once, and check the
    file did not change since it was composed); `root` is the game's folder, the only
    place an SVG may take images of its own from. `angle` turns it about the centre of
    its box, clockwise: 0 or 180 (a card turned for a fold).
    """

    x: float
    y: float
    w: float
    h: float
    path: str
    digest: str
    kind: str  # "raster" (PNG, JPEG) or "svg"
    root: str
    clip: tuple[float, float, float, float] | None = None
    radius: float = 0.0
    angle: float = 0.0

    def shifted(self, dx: float, dy: float) -> Picture:
        clip = self.clip and (self.clip[0] + dx, self.clip[1] + dy, self.clip[2], self.clip[3])
        return replace(self, x=self.x + dx, y=self.y + dy, clip=clip)

    def scaled(self, k: float) -> Picture:
        clip = self.clip and (self.clip[0] * k, self.clip[1] * k, self.clip[2] * k, self.clip[3] * k)
        return replace(self, x=self.x * k, y=self.y * k, w=self.w * k, h=self.h * k, clip=clip, radius=self.radius * k)

    def turned(self, width: float, height: float) -> Picture:
        """Turned half a turn about the centre of a drawing width x height mm."""
        clip = self.clip and (width - self.clip[0] - self.clip[2], height - self.clip[1] - self.clip[3],
                              self.clip[2], self.clip[3])
        return replace(self, x=width - self.x - self.w, y=height - self.y - self.h, clip=clip,
                       angle=(self.angle + 180) % 360)


Item = Rect | Ellipse | Polyline | Shape | TextRun | Clip | Unclip | Picture


class PictureChanged(Exception):
    """A picture's file was edited or removed after its scene was composed, before it was drawn."""


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
