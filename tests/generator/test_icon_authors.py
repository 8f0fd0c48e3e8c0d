"""Each vendored icon is credited to the one who drew it. The npm package the icons come from records no
author, and game-icons.net has icons of one name by several authors (castle: Lorc's and Delapouite's), so a
record's author is checked against the upstream drawing: the upstream SVG's first point (game-icons/icons,
AUTHOR/NAME.svg, 512 px box) is where the vendored path starts, in our 100 x 100 box."""

from __future__ import annotations

import pytest
import yaml

from casebook.generator.layouts import LAYOUTS_DIR

ICONS = yaml.safe_load((LAYOUTS_DIR / "icons.yaml").read_text(encoding="utf-8"))["icons"]

# icon -> (author, upstream AUTHOR/NAME, the first point of that SVG's path), read from the upstream files:
# these four were credited to another author before (Delapouite; Lorc for the syringe)
UPSTREAM = {
    "cargo_crane": ("Lorc", "lorc/cargo-crane", (306.875, 18.22)),
    "castle": ("Lorc", "lorc/castle", (254.25, 15.344)),  # delapouite/castle starts at (255.95, 27.11)
    "revolver": ("Skoll", "skoll/revolver", (129.284, 156.072)),  # delapouite/revolver: (481.14, 125.357)
    "syringe": ("Sbed", "sbed/syringe", (289.023, 237.916)),  # lorc/syringe: (112.182, 18.393)
}


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_an_icon_is_credited_to_the_author_of_the_drawing_it_is(name):
    author, page, (x, y) = UPSTREAM[name]
    record = ICONS[name]
    first = record["path"].split()
    assert first[0] == "M" and abs(float(first[1]) - x / 5.12) < 0.01 and abs(float(first[2]) - y / 5.12) < 0.01
    assert record["author"] == author
    assert record["url"] == f"https://game-icons.net/1x1/{page}.html"


def test_every_icons_page_is_in_its_authors_folder():
    """game-icons.net's page of an icon is 1x1/AUTHOR/NAME.html, AUTHOR the author's name as a slug."""
    wrong = {name: (r["author"], r["url"]) for name, r in ICONS.items()
             if r["url"] != f"https://game-icons.net/1x1/{r['author'].lower().replace(' ', '-')}/{r['name']}.html"}
    assert not wrong, wrong
