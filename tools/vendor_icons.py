"""Vendor pictures from game-icons.net into layouts/icons.yaml, converted, with their licence beside them.

    cd /tmp && npm pack @iconify-json/game-icons       # the icon set as published (CC BY 3.0)
    python tools/vendor_icons.py /tmp/iconify-json-game-icons-*.tgz delapouite/strongbox lorc/queen-crown
    python tools/vendor_icons.py PACKAGE --drop strongbox

Each picture is named as game-icons.net names it, AUTHOR/NAME (the author is the folder of its
page, https://game-icons.net/1x1/AUTHOR/NAME.html: the npm package does not record it), optionally
`=OUR_NAME` to vendor it under another name. Its 512 x 512 SVG path is rewritten in our symbols'
100 x 100 box as absolute lines and cubic curves (arcs, relative and shorthand commands resolved), so
the library reads it quickly; icons already in icons.yaml are kept. The licence text is written to
layouts/LICENSE-game-icons.txt. Vendor only what a game draws: tests/generator/test_pictures.py
fails on a vendored icon no game uses. docs/pictures.md tells the whole way.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tarfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from casebook.generator.symbols import Outline, parse_path  # noqa: E402

LAYOUTS = ROOT / "layouts"
ICONS = LAYOUTS / "icons.yaml"
LICENCE_FILE = "LICENSE-game-icons.txt"
SOURCE = {
    "title": "game-icons.net",
    "url": "https://game-icons.net",
    "licence": "CC BY 3.0",
    "licence_url": "https://creativecommons.org/licenses/by/3.0/",
    "licence_file": LICENCE_FILE,
}
AUTHORS = {"lorc": "Lorc", "delapouite": "Delapouite", "skoll": "Skoll", "carl-olsen": "Carl Olsen",
           "sbed": "Sbed", "john-colburn": "John Colburn", "felbrigg": "Felbrigg", "john-redman": "John Redman",
           "priorblue": "PriorBlue", "willdabeast": "Willdabeast", "viscious-speed": "Viscious Speed",
           "lord-berandas": "Lord Berandas", "irongamer": "Irongamer", "heavenly-dog": "HeavenlyDog",
           "cathelineau": "Cathelineau", "caro-asercion": "Caro Asercion", "faithtoken": "Faithtoken",
           "guard13007": "Guard13007", "generalace135": "GeneralAce135", "zajkonur": "Zajkonur"}
LICENCE_TEXT = """\
Pictures in icons.yaml whose source is game-icons: from game-icons.net, as published in the npm
package @iconify-json/game-icons, converted to Casebook's symbol format (scaled to a 100 x 100
box, path commands rewritten) by tools/vendor_icons.py. Each icon's author and page are given in
icons.yaml. What follows is the licence file of the game-icons.net repository
(https://github.com/game-icons/icons/blob/master/license.txt):

Icons provided under the Creative Commons 3.0 BY or CC0 if mentioned below.

Each subfolders in this archive correspond to a different contributor :

- Lorc, http://lorcblog.blogspot.com
- Delapouite, http://delapouite.com
- John Colburn, http://ninmunanmu.com
- Felbrigg, http://blackdogofdoom.blogspot.co.uk
- John Redman, http://www.uniquedicetowers.com
- Carl Olsen, https://twitter.com/unstoppableCarl
- Sbed, http://opengameart.org/content/95-game-icons
- PriorBlue
- Willdabeast, http://wjbstories.blogspot.com
- Viscious Speed, http://viscious-speed.deviantart.com - CC0
- Lord Berandas, http://berandas.deviantart.com
- Irongamer, http://ecesisllc.wix.com/home
- HeavenlyDog, http://www.gnomosygoblins.blogspot.com

Please, include a mention "Icons made by {author}" in your derivative work.

More info and icons available at http://game-icons.net

The licence, Creative Commons Attribution 3.0 Unported (CC BY 3.0), in full:
https://creativecommons.org/licenses/by/3.0/legalcode
You may share and adapt the material for any purpose, provided you give appropriate credit,
link to the licence and indicate if changes were made. Casebook prints the credit ("Icons made
by ...") on every set that uses these pictures: its cover and its player aid.
"""
HEADER = """\
# Pictures taken from openly licensed icon sets, vendored by tools/vendor_icons.py (edit through it, not by
# hand). With layouts/symbols.yaml (our own, drawn for Casebook) this is the one registry of every picture a
# game draws: each icon here names its source, author, page and licence; a source names its licence file,
# beside this one. An icon is one filled path in the symbols' 100 x 100 box (nonzero fill: outlines drawn the
# other way round are holes). docs/pictures.md: how to add one.
"""
_PATH = re.compile(r'<path\b([^>]*)/>')
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


class VendorError(Exception):
    """An icon that cannot be vendored, with what to do."""


def read_package(package: Path) -> dict[str, Any]:
    """The icon set's icons.json, from the npm package's folder or its .tgz."""
    if package.is_dir():
        path = package / "icons.json" if (package / "icons.json").is_file() else package / "package" / "icons.json"
        return dict(json.loads(path.read_text()))
    with tarfile.open(package) as tar:
        member = tar.extractfile("package/icons.json")
        if member is None:
            raise VendorError(f"{package}: no package/icons.json in it (npm pack @iconify-json/game-icons)")
        return dict(json.loads(member.read()))


def convert(body: str, size: float) -> tuple[str, str]:
    """An icon's SVG body as (our path in the 100 x 100 box, its fill rule)."""
    rest = _PATH.sub("", body).strip()
    if rest:
        raise VendorError(f"holds more than paths ({rest[:40]}...): draw it as our own symbol instead")
    outline: Outline = []
    rules = set()
    for attrs in _PATH.findall(body):
        found = dict(_ATTR.findall(attrs))
        if "transform" in found or "d" not in found:
            raise VendorError("a path with a transform or without d: draw it as our own symbol instead")
        rules.add(found.get("fill-rule", "nonzero"))
        outline.extend(parse_path(found["d"]))
    if len(rules) > 1:
        raise VendorError("its paths use different fill rules")
    k = 100.0 / size

    def pt(p: tuple[float, float]) -> str:
        return f"{_num(p[0] * k)} {_num(p[1] * k)}"

    words = []
    for start, segments, closed in outline:
        words.append("M " + pt(start))
        for seg in segments:
            words.append(("L " if seg[0] == "L" else "C ") + " ".join(pt(p) for p in seg[1:]))
        if closed:
            words.append("Z")
    return " ".join(words), rules.pop() if rules else "nonzero"


def _num(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def vendor(icon_set: dict[str, Any], wanted: list[str], drop: list[str], icons_path: Path = ICONS) -> dict[str, Any]:
    """icons.yaml's content with the wanted icons added (AUTHOR/NAME[=OUR_NAME]) and the dropped ones removed."""
    current = yaml.safe_load(icons_path.read_text()) if icons_path.is_file() else None
    icons: dict[str, Any] = dict((current or {}).get("icons") or {})
    for name in drop:
        if icons.pop(name, None) is None:
            raise VendorError(f"--drop {name}: not in {icons_path.name}")
    size = float(icon_set.get("width", 512))
    for spec in wanted:
        got = re.fullmatch(r"([\w-]+)/([\w-]+)(?:=(\w+))?", spec)
        if got is None:
            raise VendorError(f"{spec}: give AUTHOR/NAME as on game-icons.net (delapouite/strongbox), "
                              "optionally =OUR_NAME")
        author, name, ours = got.group(1), got.group(2), got.group(3) or got.group(2).replace("-", "_")
        icon = icon_set["icons"].get(name)
        if icon is None:
            raise VendorError(f"{name}: not in the package's icons.json")
        try:
            path, rule = convert(icon["body"], float(icon.get("width", size)))
        except (VendorError, ValueError) as exc:
            raise VendorError(f"{name}: {exc}") from exc
        entry = {"source": "game-icons", "name": name, "author": AUTHORS.get(author, author.replace("-", " ").title()),
                 "url": f"https://game-icons.net/1x1/{author}/{name}.html", "licence": SOURCE["licence"]}
        if rule != "nonzero":
            entry["fill_rule"] = rule
        entry["path"] = path
        icons[ours] = entry
    return {"sources": {"game-icons": SOURCE}, "icons": dict(sorted(icons.items()))}


def write(content: dict[str, Any], icons_path: Path = ICONS) -> None:
    text = yaml.safe_dump(content, sort_keys=False, width=100_000, allow_unicode=True)
    icons_path.write_text(HEADER + text)
    (icons_path.parent / LICENCE_FILE).write_text(LICENCE_TEXT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("package", type=Path, help="the npm package @iconify-json/game-icons: its .tgz or folder")
    parser.add_argument("icons", nargs="*", help="AUTHOR/NAME[=OUR_NAME], as on game-icons.net")
    parser.add_argument("--drop", action="append", default=[], metavar="NAME", help="remove a vendored icon")
    args = parser.parse_args(argv)
    try:
        content = vendor(read_package(args.package), args.icons, args.drop)
    except (VendorError, OSError, KeyError, json.JSONDecodeError, tarfile.TarError) as exc:
        print(f"vendor_icons: {exc}", file=sys.stderr)
        return 1
    write(content)
    print(f"wrote {ICONS.relative_to(ROOT)} ({len(content['icons'])} icons) and layouts/{LICENCE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
