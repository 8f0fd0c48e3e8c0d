"""Remake the pictures of docs/make-your-own.md by following the page as its test does:
`python tools/make_your_own_pictures.py` (needs pdftoppm, from poppler-utils).

At each picture the page shows, the game as it stands is drawn: a `card` picture is the
first two cards' faces (the PNG export, cut at the trim), a `sheet` picture the first page of the
A4 PDF; each is quantised to a small palette to stay well under 60 KB.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from tests.cli.page_steps import PAGE, Reader, Step, read_steps  # noqa: E402
from tests.cli.test_make_your_own import FONT  # noqa: E402

DOCS = ROOT / "docs"
PICTURES = {  # what each picture shows
    "make-your-own-1.png": "card",
    "make-your-own-2.png": "card",
    "make-your-own-3.png": "card",
    "make-your-own-4.png": "sheet",
}
CARD_DPI, SHEET_DPI, BLEED_MM = 110, 50, 3.0


def small(image: Image.Image, path: Path, colours: int) -> int:
    """Save with a palette of `colours`; returns the file's size."""
    image.convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path.stat().st_size


def draw(step: Step, reader: Reader, work: Path) -> None:
    kind = PICTURES[step.path]
    game = reader.cwd / "garden"
    target = DOCS / step.path
    if kind == "card":
        out = work / f"png-{step.path}"
        subprocess.run([sys.executable, "-m", "casebook", "build", str(game), "--paper", "a4", "--png",
                        "--dpi", str(CARD_DPI), "--out", str(out)], check=True, capture_output=True, env=reader.env)
        cut, gap = round(BLEED_MM / 25.4 * CARD_DPI), round(CARD_DPI / 10)
        cards = []
        for number in ("001", "002"):
            face = Image.open(sorted((out / "garden" / "png" / "cards").glob(f"{number}-*-face.png"))[0])
            cards.append(face.crop((cut, cut, face.width - cut, face.height - cut)))
        image = Image.new("RGB", (sum(c.width for c in cards) + gap, cards[0].height), "#FFFFFF")
        image.paste(cards[0], (0, 0))
        image.paste(cards[1], (cards[0].width + gap, 0))
        size = small(image, target, 96)
    else:
        pdf = reader.cwd / "output" / "garden" / "garden-a4.pdf"
        stem = work / "sheet"
        subprocess.run(["pdftoppm", "-r", str(SHEET_DPI), "-f", "1", "-l", "1", "-png", "-singlefile", str(pdf),
                        str(stem)], check=True)
        size = small(Image.open(f"{stem}.png"), target, 64)
    print(f"wrote {target.relative_to(ROOT)} ({kind}, {size / 1024:.0f} KB)")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        reader = Reader(work / "home", {"garden/fonts/": [FONT]}, say=print)
        reader.follow(read_steps(PAGE.read_text(encoding="utf-8")), lambda step: draw(step, reader, work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
