"""Decks with card art, built through the command: `python benchmarks/images.py [cards]`.

The Gallery test game (tests/data/artgame) grown to N cards (100 by default), each with
art of its own, 1600 x 1200 pixels, in three kinds: camera JPEGs (embedded as their own
bytes), opaque PNGs (embedded as their own compressed rows) and PNGs with alpha (decoded
and deflated, with a soft mask); and one deck sharing one JPEG. For each, in a fresh
process: a cold build (no cache), a rebuild with nothing changed, the peak memory of the
cold build, the PDF's size against the art's, and how many image objects it holds.
The machine is shared: compare figures within one run.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT / "tests" / "data" / "artgame"


def picture(seed: int, alpha: bool) -> Image.Image:
    """A blurred-noise ground with a disc: something between a photo and an illustration."""
    rng = random.Random(seed)
    img = Image.effect_noise((1600, 1200), 40).convert("RGB").filter(ImageFilter.GaussianBlur(3))
    ImageDraw.Draw(img).ellipse((400, 300, 1200, 900), fill=(rng.randrange(256), 100, 50))
    if alpha:
        img = img.convert("RGBA")
        img.putalpha(Image.linear_gradient("L").resize(img.size))
    return img


def make_game(folder: Path, cards: int, kind: str) -> int:
    """The Gallery with `cards` cards of art of one kind; returns the art's total size in bytes."""
    shutil.copytree(ART, folder)
    game = folder / "cards" / "gallery"
    rows, total = [], 0
    for i in range(cards):
        name = "shared.jpg" if kind == "shared" else f"p{i}.{'jpg' if kind == 'jpeg' else 'png'}"
        path = game / "art" / name
        if not path.exists():
            img = picture(i, alpha=kind == "rgba")
            img.save(path, quality=85) if name.endswith(".jpg") else img.save(path, compress_level=6)
            total += path.stat().st_size
        rows.append(f"  - {{id: c{i}, name: Card {i}, suit: ink, art: art/{name}, fit: cover}}")
    (game / "deck.yaml").write_text("cards:\n" + "\n".join(rows) + "\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("count: 4", f"count: {cards}")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    return total


def build(folder: Path) -> tuple[float, float]:
    """One build through the command in a fresh process: (seconds, that process's peak memory in MiB)."""
    command = [sys.executable, "-m", "casebook", "build", "gallery", "--cards", str(folder / "cards"),
               "--layouts", str(folder / "layouts"), "--out", str(folder / "out"), "--paper", "a4"]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURED, *command], cwd=ROOT, check=True, capture_output=True,
                          text=True)
    return time.perf_counter() - started, int(done.stdout.split()[-1]) / 1024


MEASURED = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def main() -> None:
    cards = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"{cards} cards, 1600 x 1200 art each (a build includes ~0.5 s of starting Python and ReportLab)")
    for kind in ("jpeg", "png", "rgba", "shared"):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "game"
            art = make_game(folder, cards, kind)
            cold, peak = build(folder)
            warm, _ = build(folder)
            pdf = folder / "out" / "gallery" / "gallery-a4.pdf"
            objects = len(re.findall(rb"/Subtype /Image", pdf.read_bytes()))
            print(f"{kind:>6}: cold {cold:5.1f} s, unchanged rebuild {warm:4.1f} s, peak {peak:.0f} MiB; "
                  f"PDF {pdf.stat().st_size / 1e6:5.1f} MB for {art / 1e6:5.1f} MB of art, {objects} image objects")


if __name__ == "__main__":
    main()
