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


def _widow_case(align: str):
    """A centred text whose last word alone would be on the last line."""
    text = "In a review: it ends now, nobody dies. At the loupe: the next review is called off."
    st = TextStyle(size=9, fit="wrap", align=align)
    width = (M.width("In a review: it ends now, nobody dies.", "regular", 9) + 1) / PT_PER_MM
    return _lines(fit_text(text, 0, 0, width, 60, st, M))


def test_a_centred_paragraph_never_ends_on_a_lone_word():
    left = _widow_case("left")
    assert len(left[-1].split()) == 1, f"the case has a widow when set left: {left}"
    centred = _widow_case("center")
    assert len(centred[-1].split()) == 2 and len(centred[-2].split()) >= 2, centred
    assert " ".join(centred) == " ".join(left)  # the same words, in order


def test_a_widow_stays_when_taking_a_word_would_leave_a_lone_word_above():
    st = TextStyle(size=9, fit="wrap", align="center")
    width = (M.width("Wordy wordy", "regular", 9) + 0.5) / PT_PER_MM
    lines = _lines(fit_text("Wordy wordy end.", 0, 0, width, 40, st, M))
    assert lines == ["Wordy wordy", "end."]
