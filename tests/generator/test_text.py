"""Text layout: wrapping, markup, shrink-to-fit and the report when text cannot fit."""

from __future__ import annotations

from generator.backends.fonts import metrics
from generator.text import TextStyle, fit_text
from generator.units import PT_PER_MM, parse_length

M = metrics()


def test_lengths_with_units():
    assert parse_length(12) == 12.0
    assert parse_length("0.125in") == 3.175
    assert abs(parse_length("72pt") - 25.4) < 1e-9
    for bad in ("3 parsecs", "", True, None):
        try:
            parse_length(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")


def test_short_text_keeps_its_size_and_stays_in_the_box():
    st = TextStyle(size=10, min_size=6)
    fitted = fit_text("Discard from hand: draw 2 cards.", 5, 5, 50, 20, st, M)
    assert fitted.fits and fitted.size == 10
    for run in fitted.runs:
        assert run.x >= 5 and run.x + M.width(run.text, run.font, run.size) / PT_PER_MM <= 55 + 1e-6
        assert 5 <= run.y <= 25


def test_long_text_shrinks_until_it_fits():
    text = "A long ability text " * 12
    st = TextStyle(size=12, min_size=5)
    fitted = fit_text(text, 0, 0, 40, 25, st, M)
    assert fitted.fits
    assert 5 <= fitted.size < 12
    assert fitted.height <= 25


def test_text_that_cannot_fit_is_reported_not_hidden():
    fitted = fit_text("word " * 200, 0, 0, 20, 5, TextStyle(size=8, min_size=7), M)
    assert not fitted.fits
    assert fitted.size == 7


def test_markup_bold_italic_and_blanks():
    fitted = fit_text("**Tie:** _discarded_ unseen. Name: ______", 0, 0, 150, 10, TextStyle(size=9), M)
    fonts = {run.text.strip(): run.font for run in fitted.runs}
    assert fonts["Tie:"] == "bold"
    assert fonts["discarded"] == "italic"
    assert any("______" in run.text for run in fitted.runs), "underscores to write on stay plain text"


def test_centered_lines_are_centred():
    fitted = fit_text("ab", 0, 0, 40, 10, TextStyle(size=10, align="center"), M)
    run = fitted.runs[0]
    width = M.width("ab", "regular", 10) / PT_PER_MM
    assert abs((run.x + width / 2) - 20) < 1e-6
