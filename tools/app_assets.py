"""Render the pictures the companion shows to small PNGs in companion/assets/symbols/, from the print's own
library (layouts/symbols.yaml, ours, and layouts/icons.yaml, vendored), so the app needs no generator on a phone
and print and app never disagree: every symbol of symbols.yaml (suits, identities, marks), and the picture each
thing the app names draws on its card (a Graves location, a P.I. suspect, crime or district, a Hasty suspect, a
Clash site, agent or crime plan). pictures.yaml beside them says which thing draws which picture, read from the
card databases as the print reads them (companion/pictures.py looks things up there).

python tools/app_assets.py [--check]   (--check: exit 1 if the committed files are out of date)
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402
from PIL import Image  # noqa: E402

from casebook.generator.backends import png  # noqa: E402
from casebook.generator.layouts import load_library  # noqa: E402
from casebook.generator.scene import Rect, Scene  # noqa: E402
from casebook.generator.symbols import draw_symbol, picture_registry  # noqa: E402
from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402

OUT = ROOT / "companion" / "assets" / "symbols"
INDEX = "pictures.yaml"
SIZE_MM = 8.0
DPI = 304.8  # 96 px

# The things the app names, by game: (component or record, the card field its print layout draws it by). Each
# layout draws that field (layouts/<game>/*-face.yaml: card.picture, card.portrait, card.symbol).
THINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "graves": (("locations", "picture"), ("identities", "symbol")),
    "pi": (("suspects", "picture"), ("crimes", "picture"), ("districts", "picture")),
    "hasty": (("suspects", "portrait"),),
    "clash": (("sites", "picture"), ("holmes_agents", "picture"), ("moriarty_agents", "picture"),
              ("crime_plans", "picture")),
}
# Cards that show another thing's picture: a P.I. tile or case card draws its element's (layouts/pi/tile-face.yaml).
ELEMENTS: dict[str, tuple[str, ...]] = {
    "pi": ("suspect_tiles", "crime_tiles", "suspect_cases", "crime_cases", "location_cases"),
}


def index() -> dict[str, dict[str, str]]:
    """game -> thing id -> the symbol its card draws (a tile or case: its element's)."""
    out: dict[str, dict[str, str]] = {}
    for game, things in THINGS.items():
        db = load_database(game)
        groups = {**db.components, **db.records}
        mine: dict[str, str] = {}
        for group, key in things:
            for card in groups[group].cards:
                if card.get(key):
                    mine[card.id] = str(card[key])
        for group in ELEMENTS.get(game, ()):
            for card in groups[group].cards:
                if card.get("element") in mine:
                    mine[card.id] = mine[card["element"]]
        out[game] = dict(sorted(mine.items()))
    return out


def render(parts: list) -> bytes:  # type: ignore[type-arg]
    scene = Scene(SIZE_MM, SIZE_MM, items=[Rect(0, 0, SIZE_MM, SIZE_MM, fill="#000000")])
    scene.items.extend(draw_symbol(parts, 0.0, 0.0, SIZE_MM, SIZE_MM, "#FFFFFF", "#000000"))
    img = png.render(scene, DPI).convert("L")  # white shape on black: used as an alpha mask
    white = Image.new("RGBA", img.size, (255, 255, 255, 0))
    white.putalpha(img)
    buf = io.BytesIO()
    white.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def render_all() -> dict[str, bytes]:
    problems = Problems()
    lib = load_library(problems=problems)
    if problems:
        raise SystemExit(problems.format())
    own = yaml.safe_load((ROOT / "layouts" / "symbols.yaml").read_text(encoding="utf-8"))["symbols"]
    pictures = index()
    wanted = set(own) | {name for things in pictures.values() for name in things.values()}
    missing = sorted(wanted - set(lib.symbols))
    if missing:
        raise SystemExit("not in layouts/symbols.yaml or layouts/icons.yaml: " + ", ".join(missing))
    out = {f"{name}.png": render(lib.symbols[name]) for name in sorted(wanted)}
    credit = picture_registry(ROOT / "layouts").credit(wanted)  # the vendored icons' makers and licence
    out[INDEX] = ("# Which picture each thing the companion names draws (tools/app_assets.py writes it from the card\n"
                  "# databases: do not edit by hand). games: game -> thing id -> a picture here, <name>.png; credit:\n"
                  "# the makers of the icons among them, as the print credits them (the app's Settings show it).\n"
                  + yaml.safe_dump({"credit": credit, "games": pictures}, sort_keys=True, width=1000)).encode()
    return out


def main(argv: list[str]) -> int:
    files = render_all()
    if "--check" in argv:
        stale = [n for n, data in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != data]
        extra = sorted(p.name for p in OUT.iterdir() if p.name not in files) if OUT.is_dir() else []
        if stale or extra:
            print("; ".join(filter(None, ["out of date: " + ", ".join(stale) if stale else "",
                                          "not made any more: " + ", ".join(extra) if extra else ""]))
                  + " (run python tools/app_assets.py)")
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if old.name not in files:
            old.unlink()
    for name, data in files.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(files) - 1} pictures and {INDEX} to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
