"""Text layout: wrapping, markup, shrink-to-fit and the report when text cannot fit."""

from __future__ import annotations

from casebook.generator.backends.fonts import metrics
from casebook.generator.text import TextStyle, fit_text
from casebook.generator.units import PT_PER_MM, parse_length

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


# --- fit: shrink | none | wrap, and top: cap | ascent -----------------------------------------

LONG = "Reveal the top card of the deck; if it is a Clue, keep it and draw again."


def test_fit_none_sets_each_written_line_at_its_size_without_wrapping():
    st = TextStyle(size=10, min_size=6, fit="none")
    fitted = fit_text(LONG + "\nSecond line", 0, 0, 30, 40, st, M)
    assert fitted.size == 10 and {r.size for r in fitted.runs} == {10}
    assert len({r.y for r in fitted.runs}) == 2  # the written newline only
    assert not fitted.fits
    assert abs(fitted.widest - M.width(LONG, "regular", 10) / PT_PER_MM) < 1e-6
    assert fit_text("Short", 0, 0, 30, 40, st, M).fits


def test_fit_wrap_wraps_at_its_size_and_never_shrinks():
    st = TextStyle(size=10, min_size=6, fit="wrap")
    tall = fit_text(LONG, 0, 0, 30, 40, st, M)
    assert tall.fits and tall.size == 10 and len({r.y for r in tall.runs}) > 2
    short = fit_text(LONG, 0, 0, 30, 8, st, M)
    assert not short.fits and short.size == 10 and short.height > 8
    assert [(r.x, r.y, r.text) for r in short.runs] == [(r.x, r.y, r.text) for r in tall.runs]
    # the old way of saying it, min_size equal to size, still gives the same
    same = fit_text(LONG, 0, 0, 30, 8, TextStyle(size=10, min_size=10), M)
    assert same.runs == short.runs and not same.fits


def test_fit_shrink_is_the_default_and_shrinks():
    assert TextStyle().fit == "shrink"
    fitted = fit_text(LONG, 0, 0, 30, 8, TextStyle(size=10, min_size=5), M)
    assert fitted.fits and fitted.size < 10


VERA_CAP, VERA_ASCENT = 1493 / 2048, 1556 / 2048  # Bitstream Vera: the H's outline and the ascent, per em


def test_top_cap_and_ascent_put_the_first_baseline_where_they_say():
    assert abs(M.cap_height("regular", 1) - VERA_CAP) < 1e-9
    assert abs(M.ascent("regular", 1) - VERA_ASCENT) < 1e-9
    for top, drop in (("cap", VERA_CAP), ("ascent", VERA_ASCENT), ("", VERA_ASCENT * 0.93)):
        fitted = fit_text("Hx\nHx", 5, 7, 40, 30, TextStyle(size=10, leading=1.25, top=top), M)
        first, second = sorted({r.y for r in fitted.runs})
        assert abs(first - (7 + 10 * drop / PT_PER_MM)) < 1e-9, top
        assert abs(second - first - 12.5 / PT_PER_MM) < 1e-9, top  # then a line each leading


def test_top_moves_a_bottom_aligned_block_as_little_as_its_height():
    def last_baseline(top):
        fitted = fit_text("Hx\nHx", 0, 0, 40, 30, TextStyle(size=10, valign="bottom", top=top), M)
        return max(r.y for r in fitted.runs)

    assert abs(last_baseline("cap") - last_baseline("ascent")) < 1e-9  # the block's foot stays on the box bottom


def _probe(tmp_path, element):
    from casebook.rules.problems import Place
    from tests.generator.test_syndicate_build import _tiny_layout

    composer, problems = _tiny_layout(tmp_path, f"  - {{type: text, id: ability, x: 10, y: 10, w: 30, h: 8, {element}}}\n")
    composer.page("probe", 100, 100, Place("test"), {})
    return problems.format()


def test_overflow_is_reported_with_the_card_and_field_for_each_fit(tmp_path):
    none = _probe(tmp_path / "n", f"size: 10, fit: none, text: '{LONG}'")
    assert "text 'ability' at 10 pt on lines as written (fit: none) overflows its 30.0 x 8.0 mm box" in none
    assert "mm too wide" in none and "too tall" not in none
    wrap = _probe(tmp_path / "w", f"size: 10, fit: wrap, text: '{LONG}'")
    assert "text 'ability' at 10 pt wrapped (fit: wrap) overflows its 30.0 x 8.0 mm box" in wrap
    assert "mm too tall" in wrap and "or fit: shrink" in wrap
    shrink = _probe(tmp_path / "s", f"size: 10, min_size: 9, text: '{LONG}'")
    assert "does not fit its 30.0 x 8.0 mm box even at the minimum size 9 pt" in shrink
    assert _probe(tmp_path / "ok", f"size: 10, min_size: 5, text: '{LONG}'") == ""


def test_unknown_fit_or_top_is_refused_with_its_place(tmp_path):
    bad_fit = _probe(tmp_path / "f", "fit: squeeze, text: Hi")
    assert "probe.yaml:3" in bad_fit and "fit 'squeeze' is not known" in bad_fit and "shrink or none or wrap" in bad_fit
    bad_top = _probe(tmp_path / "t", "top: baseline, text: Hi")
    assert "top 'baseline' is not known" in bad_top and "cap or ascent" in bad_top
