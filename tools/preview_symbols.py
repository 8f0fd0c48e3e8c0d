"""Render every symbol of layouts/symbols.yaml to one PNG contact sheet: python tools/preview_symbols.py OUT.png"""

from __future__ import annotations

import sys

from casebook.generator.backends import png
from casebook.generator.layouts import load_library
from casebook.generator.scene import Rect, Scene, TextRun
from casebook.generator.symbols import draw_symbol
from casebook.rules.problems import Problems


def main(out: str) -> int:
    problems = Problems()
    lib = load_library(problems=problems)
    if problems:
        print(problems.format())
        return 1
    names = sorted(lib.symbols)
    cols = 6
    rows = (len(names) + cols - 1) // cols
    scene = Scene(cols * 30.0, rows * 36.0)
    for i, name in enumerate(names):
        x, y = (i % cols) * 30.0, (i // cols) * 36.0
        scene.add(Rect(x + 1, y + 1, 28, 28, fill="#F4EFE3"))
        scene.items.extend(draw_symbol(lib.symbols[name], x + 3, y + 3, 24, 24, "#1F3A5F", "#F4EFE3"))
        scene.add(TextRun(x + 2, y + 33, name, "regular", 7, "#000000"))
    png.save_png(png.render(scene, dpi=200), out, 200)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/symbols.png"))
