"""Lengths in layouts: numbers are millimetres; strings may say mm, cm, in or pt."""

from __future__ import annotations

import math
import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4
# any float a template can print: signs, exponents ("3.55e-15"), negative zero; not nan or inf
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(mm|cm|in|pt)?\s*$")


def parse_length(value: object) -> float:
    """Millimetres from 12, 12.5, "12mm", "0.125in", "9pt"; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a length (a finite number of mm)")
        return float(value) + 0.0  # -0.0 becomes 0.0
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            return float(match.group(1)) * MM_PER[match.group(2) or "mm"] + 0.0
    raise ValueError(f"{value!r} is not a length (a number of mm, or e.g. '3mm', '0.125in', '9pt')")


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def mm_to_px(mm: float, dpi: float) -> float:
    return mm * dpi / 25.4
