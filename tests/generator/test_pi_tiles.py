"""P.I.'s 25 mm tiles: each shows its element's picture large on the coloured band (once 6.5 mm, hard to
tell across a table), and a No Suspect / No Crime tile's cross stays on the band with it."""

from __future__ import annotations

import pytest

from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Ellipse, Polyline, Rect, Shape
from casebook.rules.problems import Problems
from tests.generator.test_print_quality import ink_box

BIG = 7.5  # mm: the picture's larger side (the 9 mm box; 6 mm before)


@pytest.fixture(scope="module")
def tiles():
    composed = compose_game("pi", BuildOptions(papers=("a4",)), Problems())
    assert composed is not None
    return [face.face for cid in ("suspect_tiles", "crime_tiles") for face in composed.faces[cid]]


def _box(items):
    """The box the items cover: shapes by their points, the rest (polylines, ellipses, rects) by their ink."""
    boxes = [(min(p[0] for path in i.subpaths for p in path), min(p[1] for path in i.subpaths for p in path),
              max(p[0] for path in i.subpaths for p in path), max(p[1] for path in i.subpaths for p in path))
             if isinstance(i, Shape) else ink_box(i) for i in items]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _inked(scene, colour):
    """The drawn items filled or stroked in this colour."""
    return [i for i in scene.items if isinstance(i, Shape | Polyline | Ellipse | Rect)
            and colour in ((getattr(i, "fill", None) or "").upper(), (getattr(i, "stroke", None) or "").upper())]


def test_each_tiles_picture_is_large_and_on_its_band(tiles):
    assert len(tiles) == 28  # 12 suspects and 2 No Suspect, 10 crimes and 4 No Crime
    for scene in tiles:
        band = next(i for i in scene.items if isinstance(i, Rect) and i.x < 0)  # the band runs into the bleed
        if "'tile_no_" in scene.label:  # a No tile: our plain mark under a cross
            assert _box(_inked(scene, "#222222"))[3] <= band.y + band.h + 1e-6, "the cross runs off the band"
            continue
        x0, y0, x1, y1 = _box(_inked(scene, "#FFFFFF"))
        assert max(x1 - x0, y1 - y0) >= BIG, (scene.label, x1 - x0, y1 - y0)
        assert y1 <= band.y + band.h + 1e-6
