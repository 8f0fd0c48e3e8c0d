"""Text contrast of at least 4.5:1 in both themes; player colours from the colour-blind-safe set."""

from __future__ import annotations

import pytest

from casebook.companion.theme import PLAYER_COLOURS, TEXT_PAIRS, THEMES, contrast, readable


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("pair", TEXT_PAIRS, ids=lambda p: f"{p[0]}-on-{p[1]}")
def test_text_contrast(theme, pair):
    colours = THEMES[theme]
    assert contrast(colours[pair[0]], colours[pair[1]]) >= 4.5


def test_contrast_formula_on_known_values():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


def test_player_colours_are_okabe_ito():
    okabe_ito = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"}
    assert set(PLAYER_COLOURS.values()) <= okabe_ito


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("game", ["graves", "syndicate"])
def test_suit_symbols_stand_out_three_to_one(theme, game):
    """Every suit symbol, as the pad draws it, reaches 3:1 on the buttons and tiles it sits on
    (the Knots' grey was 2.1:1 on the dark panel)."""
    from casebook.rules.cards import load_database

    colours = THEMES[theme]
    for suit in load_database(game).suits.values():
        for back in ("panel", "button", "active"):
            shown = readable(suit.colour, colours[back])
            assert contrast(shown, colours[back]) >= 3.0, (suit.name, back, shown)


def test_readable_keeps_a_colour_that_already_stands_out():
    assert readable("#0072B2", "#FFFFFF") == "#0072B2"
    assert readable("#555555", THEMES["dark"]["panel"]) != "#555555"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_disabled_button_reads_and_looks_disabled(theme):
    """A greyed-out button's text on its fill reaches 4.5:1 (WCAG), and the fill is none of a live control's
    (the blue of a button, the panel of a flat one, a lit key's), so it does not look tappable."""
    from casebook.companion.theme import LIVE_FILLS

    colours = THEMES[theme]
    assert contrast(colours["disabled_text"], colours["disabled"]) >= 4.5
    for live in LIVE_FILLS:
        assert contrast(colours["disabled"], colours[live]) >= 1.2, live
    assert colours["disabled_text"] not in (colours["text"], colours["button_text"])  # greyer than live text


def test_a_taken_colour_keeps_its_letter_readable():
    from casebook.companion.theme import blend, text_on

    for theme in THEMES.values():
        for hexcol in PLAYER_COLOURS.values():
            for alpha in (1.0, 0.35):
                fill = blend(hexcol, theme["bg"], alpha)
                assert contrast(text_on(fill), fill) >= 4.5, (hexcol, alpha)
