"""Word wrap keeps together what is written without a space between: a full stop after bold or italic text."""

from __future__ import annotations

import pytest

from casebook.generator.backends.fonts import metrics
from casebook.generator.text import TextStyle, fit_text
from casebook.generator.units import PT_PER_MM

M = metrics()


def _lines(fitted) -> list[str]:
    """The text of each line, runs on one baseline joined."""
    by_line: dict[float, list[str]] = {}
    for run in fitted.runs:
        by_line.setdefault(round(run.y, 3), []).append(run.text)
    return ["".join(parts).strip() for _, parts in sorted(by_line.items())]


@pytest.mark.parametrize(("text", "styled", "font"), [
    ("Take the **Key**.", "Key", "bold"),
    ("Take the _Key_.", "Key", "italic"),
    ("Take the **Key**, then", "Key", "bold"),
])
def test_punctuation_after_markup_never_starts_a_line_alone(text, styled, font):
    st = TextStyle(size=9, fit="wrap")
    # wide enough for "Take the Key" but not for the full stop after it
    width = (M.width("Take the ", "regular", 9) + M.width(styled, font, 9) + 0.2) / PT_PER_MM
    lines = _lines(fit_text(text, 0, 0, width, 40, st, M))
    assert all(line[0] not in ".,;:!?" for line in lines), lines
    assert any(line.startswith(styled) for line in lines), f"{styled} and its punctuation go down together: {lines}"


def test_a_space_after_markup_still_breaks_there():
    st = TextStyle(size=9, fit="wrap")
    width = (M.width("Take the ", "regular", 9) + M.width("Key", "bold", 9) + 0.2) / PT_PER_MM
    lines = _lines(fit_text("Take the **Key** now.", 0, 0, width, 40, st, M))
    assert lines == ["Take the Key", "now."]
