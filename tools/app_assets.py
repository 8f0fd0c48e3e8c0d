"""Render the symbols the companion shows (suits, identities, marks) to small PNGs in
companion/assets/symbols/, from layouts/symbols.yaml, so the app needs no generator on a phone.

python tools/app_assets.py [--check]   (--check: exit 1 if the committed PNGs are out of date)
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from casebook.generator.backends import png  # noqa: E402
from casebook.generator.layouts import load_library  # noqa: E402
from casebook.generator.scene import Rect, Scene  # noqa: E402
from casebook.generator.symbols import draw_symbol  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402

OUT = ROOT / "companion" / "assets" / "symbols"
SIZE_MM = 8.0
DPI = 254  # 80 px


def render_all() -> dict[str, bytes]:
    problems = Problems()
    lib = load_library(problems=problems)
    if problems:
        raise SystemExit(problems.format())
    out = {}
    for name, parts in sorted(lib.symbols.items()):
        scene = Scene(SIZE_MM, SIZE_MM, items=[Rect(0, 0, SIZE_MM, SIZE_MM, fill="#000000")])
        scene.items.extend(draw_symbol(parts, 0.0, 0.0, SIZE_MM, SIZE_MM, "#FFFFFF", "#000000"))
        img = png.render(scene, DPI).convert("L")  # white shape on black: used as an alpha mask
        white = Image.new("RGBA", img.size, (255, 255, 255, 0))
        white.putalpha(img)
        buf = io.BytesIO()
        white.save(buf, format="PNG", optimize=True)
        out[f"{name}.png"] = buf.getvalue()
    return out


def main(argv: list[str]) -> int:
    files = render_all()
    if "--check" in argv:
        stale = [n for n, data in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != data]
        if stale:
            print("out of date: " + ", ".join(stale) + " (run python tools/app_assets.py)")
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(files)} symbols to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
