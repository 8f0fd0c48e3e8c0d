"""What the vendored pictures cost: reading the library (curves flattened once), drawing an icon into a card
(per card), rendering it in each backend, and each game's A4 and Letter PDF beside its size before the pictures
(benchmarks/pdf_baseline.json; issue 22 keeps each under 1.5 times that). `python benchmarks/pictures.py` prints
the figures.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from casebook.generator.backends import png  # noqa: E402
from casebook.generator.backends.pdf import scenes_to_pdf  # noqa: E402
from casebook.generator.layouts import load_library  # noqa: E402
from casebook.generator.scene import Rect, Scene, Shape  # noqa: E402
from casebook.generator.symbols import draw_symbol, picture_registry  # noqa: E402


def best(f: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of `repeat` runs of f(), in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    from casebook.generator.layouts import LAYOUTS_DIR

    print(f"load_library (symbols and icons, curves flattened): {best(load_library) * 1000:.1f} ms")
    lib = load_library()
    icons = sorted(n for n, r in picture_registry(LAYOUTS_DIR).records.items() if r.source != "own")
    points = sum(len(pts) for n in icons for part in lib.symbols[n] for pts, _ in part.data)
    print(f"{len(icons)} vendored icons, {points} points in all ({points // max(1, len(icons))} an icon)")
    per_draw = best(lambda: [draw_symbol(lib.symbols[n], 10, 10, 37, 37, "#2F4A3A", "#F3EEDF") for n in icons], 20)
    print(f"draw_symbol, one icon into a card: {per_draw / len(icons) * 1e6:.0f} us")
    scene = Scene(76, 126, 3.0, [Rect(0, 0, 76, 126, fill="#F3EEDF")])
    scene.items.extend(draw_symbol(lib.symbols["steam_locomotive"], 20, 30, 37, 37, "#2F4A3A", "#F3EEDF"))
    assert any(isinstance(i, Shape) for i in scene.items)
    print(f"PNG render of a location-sized card with one icon, 300 dpi: {best(lambda: png.render(scene, 300)) * 1000:.0f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "icons.pdf"
        scenes = []
        for n in icons:
            s = Scene(76, 126, 3.0, [Rect(0, 0, 76, 126, fill="#F3EEDF")])
            s.items.extend(draw_symbol(lib.symbols[n], 20, 30, 37, 37, "#2F4A3A", "#F3EEDF"))
            scenes.append(s)
        print(f"PDF of {len(icons)} cards, one icon each: {best(lambda: scenes_to_pdf(scenes, path), 3) * 1000:.0f} ms, "
              f"{path.stat().st_size / 1024:.0f} KiB")
    print_game_sizes()
    return 0


def print_game_sizes() -> None:
    """Each game's A4 and Letter print-and-play PDF: its size, the baseline's, and the ratio."""
    from casebook.cli import main as casebook

    baseline = json.loads((ROOT / "benchmarks" / "pdf_baseline.json").read_text(encoding="utf-8"))
    print(f"game PDFs against {baseline['commit']} (before the pictures):")
    with tempfile.TemporaryDirectory() as tmp:
        for game, sizes in sorted(baseline["sizes"].items()):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                failed = casebook(["build", game, "--out", tmp])
            if failed:
                print(f"  {game}: the build failed")
                continue
            for paper, before in sorted(sizes.items()):
                size = (Path(tmp) / game / f"{game}-{paper}.pdf").stat().st_size
                print(f"  {game:<10} {paper:<7} {size / 1024:7.0f} KiB, baseline {before / 1024:5.0f} KiB: "
                      f"{size / before:.2f} x")


if __name__ == "__main__":
    sys.exit(main())
