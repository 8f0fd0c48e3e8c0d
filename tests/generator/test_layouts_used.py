"""Every layout under layouts/<game>/ is used: named by the game's card data (a component's face or back, a
sheet's layout), or extended by one that is. A layout left behind (graves/back-base, the common back no
deck extended any more) is dead weight a reader takes for live."""

from __future__ import annotations

import re

from casebook.generator.layouts import LAYOUTS_DIR
from casebook.rules.cards import CARDS_DIR

COMPANION = LAYOUTS_DIR.parent / "companion"

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


DESIGNER = "# Shapes a designer's own deck often needs"  # symbols.yaml: the generic shapes below it are for anyone


def test_every_own_symbol_is_drawn_by_a_game_or_offered_to_designers():
    """An own symbol no layout, card or companion screen names (P.I.'s old player marks, Hasty's old review
    shape, replaced by suits and a vendored gavel) is dead art; the designer's generic shapes stay."""
    text = (LAYOUTS_DIR / "symbols.yaml").read_text(encoding="utf-8")
    own, generic = text.split(DESIGNER, 1)
    names = set(re.findall(r"^  ([a-z0-9_]+):\s*$", own, re.M))
    sources = [*LAYOUTS_DIR.glob("*/*.yaml"), *CARDS_DIR.glob("*/*.yaml"), *COMPANION.glob("**/*.py"),
               *COMPANION.glob("**/*.kv"), COMPANION / "assets" / "symbols" / "pictures.yaml"]
    said = "\n".join(path.read_text(encoding="utf-8") for path in sources)
    unused = sorted(n for n in names if not re.search(rf"\b{n}\b", said))
    assert not unused, unused
    assert re.search(r"^  heart:", generic, re.M)
