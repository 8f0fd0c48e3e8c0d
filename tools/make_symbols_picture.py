"""Remake docs/symbols.png, every shape of layouts/symbols.yaml with its name, for designers choosing an icon:
`python tools/make_symbols_picture.py`.

The shapes are the library's own, drawn as a layout's `{symbol:NAME}` is (generator/symbols.py) and
rasterised by our PNG backend, in name order on a grid; the picture is quantised to a few greys to
stay small.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from casebook.generator.backends.fonts import metrics  # noqa: E402
from casebook.generator.backends.png import render  # noqa: E402
from casebook.generator.layouts import load_library  # noqa: E402
from casebook.generator.scene import Scene, TextRun  # noqa: E402
from casebook.generator.symbols import Part, draw_symbol  # noqa: E402

PICTURE = ROOT / "docs" / "symbols.png"
COLUMNS = 8
CELL_W, CELL_H, SHAPE, MARGIN = 24.0, 21.0, 11.0, 3.0  # mm
NAME_SIZE, DPI, GREYS = 6.5, 110, 16


def symbols_picture(symbols: dict[str, list[Part]]) -> Image.Image:
    """Every symbol in name order, a grid of COLUMNS, each drawn above its name."""
    names = sorted(symbols)
    rows = -(-len(names) // COLUMNS)
    scene = Scene(COLUMNS * CELL_W + 2 * MARGIN, rows * CELL_H + 2 * MARGIN)
    fit = metrics()
    for at, name in enumerate(names):
        x = MARGIN + (at % COLUMNS) * CELL_W
        y = MARGIN + (at // COLUMNS) * CELL_H
        for item in draw_symbol(symbols[name], x + (CELL_W - SHAPE) / 2, y + 2, SHAPE, SHAPE, "#222222", "#FFFFFF"):
            scene.add(item)
        width = fit.width(name, "regular", NAME_SIZE) * 25.4 / 72
        scene.add(TextRun(x + (CELL_W - width) / 2, y + SHAPE + 6.5, name, "regular", NAME_SIZE, "#222222"))
    return render(scene, DPI).convert("L").quantize(colors=GREYS)


def main() -> int:
    image = symbols_picture(load_library().symbols)
    image.save(PICTURE, optimize=True)
    print(f"wrote {PICTURE.relative_to(ROOT)} ({image.width} x {image.height} px, {PICTURE.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
