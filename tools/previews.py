"""Each game's set in one picture for the README: docs/<game>-preview.png (small palette PNGs, committed).

The same picture `casebook build GAME --preview` writes to output/GAME/preview/GAME.png
(generator/backends/preview.py), made here without building the PDFs.

python tools/previews.py [GAME ...]   (default: the five games)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from casebook.generator.backends.preview import write_preview  # noqa: E402
from casebook.generator.build import BuildOptions, compose_game  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402

GAMES = ("graves", "pi", "syndicate", "clash", "hasty")
DOCS = ROOT / "docs"


def main(argv: list[str]) -> int:
    games = argv or list(GAMES)
    failed = 0
    for game in games:
        problems = Problems()
        composed = compose_game(game, BuildOptions(papers=("a4",)), problems)
        if composed is None:
            print(problems.format(), file=sys.stderr)
            print(f"{game}: not drawn", file=sys.stderr)
            failed += 1
            continue
        path = DOCS / f"{game}-preview.png"
        size = write_preview(composed, path)
        print(f"wrote {path.relative_to(ROOT)} ({size / 1024:.0f} KiB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
