"""Every layout under layouts/<game>/ is used: named by the game's card data (a component's face or back, a
sheet's layout), or extended by one that is. A layout left behind (graves/back-base, the common back no
deck extended any more) is dead weight a reader takes for live."""

from __future__ import annotations

import re

from casebook.generator.layouts import LAYOUTS_DIR
from casebook.rules.cards import CARDS_DIR

NAME = re.compile(r"\b([a-z]+/[a-z0-9_-]+)\b")
EXTENDS = re.compile(r"^extends:\s*(\S+)", re.M)


def _layouts() -> set[str]:
    return {f"{p.parent.name}/{p.stem}" for p in LAYOUTS_DIR.glob("*/*.yaml")}


def _used(names: set[str]) -> set[str]:
    """The layouts the card data names, and every layout they extend."""
    used: set[str] = set()
    todo = [n for path in CARDS_DIR.glob("*/*.yaml") for n in NAME.findall(path.read_text(encoding="utf-8"))
            if n in names]
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        todo += EXTENDS.findall((LAYOUTS_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    return used


def test_every_layout_is_used_by_a_game():
    names = _layouts()
    assert "graves/door-back" in _used(names)  # through extends
    assert not names - _used(names), sorted(names - _used(names))
