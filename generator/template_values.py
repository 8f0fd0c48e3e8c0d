"""What layouts and their templates share without importing each other (generator/layouts.py reads templates,
generator/templating.py renders them and is imported only when a template must be): the colour filters, the dict
attributes a template's key read skips, and the shape of a path a template reads."""

from __future__ import annotations

__all__ = ["DICT_ATTRIBUTES", "Path_", "shade", "tint"]

Path_ = tuple[str, ...]  # a context name, or a name and one key of it: ("card",), ("card", "name")


def _mix(colour: str, target: int, amount: float) -> str:
    """A #rrggbb colour moved `amount` (0..1) of the way towards grey level `target`."""
    text = str(colour).strip()
    if len(text) != 7 or not text.startswith("#"):
        raise ValueError(f"'{colour}' is not a #rrggbb colour")
    amount = min(1.0, max(0.0, float(amount)))
    rgb = [int(text[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (target - c) * amount):02X}" for c in rgb)


def tint(colour: str, amount: float = 0.5) -> str:
    """The colour mixed with white: tint(c, 0.85) is a pale ground that matches c."""
    return _mix(colour, 255, amount)


def shade(colour: str, amount: float = 0.5) -> str:
    """The colour mixed with black."""
    return _mix(colour, 0, amount)


DICT_ATTRIBUTES = frozenset(dir(dict))
