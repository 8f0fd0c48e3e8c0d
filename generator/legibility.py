"""Legibility rules a print-and-play set keeps: game text of at least 6 pt, icons in contrast.

A layout marks the text a player needs to play (`game_text: true`: ranks, names, abilities,
labels to sort by); the composer reports any such text that had to be set smaller than
GAME_TEXT_MIN to fit, naming the card and the element. Contrast follows WCAG 2.x.
"""

from __future__ import annotations

from typing import Any

from casebook.generator.text import Fitted
from casebook.rules.problems import Problems

GAME_TEXT_MIN = 6.0  # pt: below this, print-and-play reviewers (and older eyes) call text unreadable
ICON_CONTRAST_MIN = 3.0  # WCAG 2.x, non-text contrast: icons that carry meaning


def check_game_text(fitted: Fitted, el: Any, who: str, problems: Problems) -> None:
    """Report game text fitted under GAME_TEXT_MIN, at the element's size (or text) line."""
    if not el.data.get("game_text") or fitted.size >= GAME_TEXT_MIN - 1e-9:
        return
    place = el.places.get("size", el.places.get("text", el.place))
    problems.add(place, f"{who}: game text '{el.data.get('id', 'text')}' is set at {fitted.size:g} pt, "
                        f"under the {GAME_TEXT_MIN:g} pt a player can read",
                 f"size and min_size of {GAME_TEXT_MIN:g} pt or more, and a box the text fits at that size")


def relative_luminance(hexstr: str) -> float:
    """WCAG relative luminance of a #rrggbb colour (0 black .. 1 white)."""
    h = hexstr.lstrip("#")
    channels = []
    for i in (0, 2, 4):
        c = int(h[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 .. 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
