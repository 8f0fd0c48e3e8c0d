"""What a laid-out text's fonts cannot draw: a character without a glyph, or markup asking for a style
the game's font family lacks. Reported at the card's field that holds the text, else the layout's text."""

from __future__ import annotations

from typing import Any

from casebook.generator.backends.fonts import GameFonts, missing_glyphs
from casebook.generator.text import Fitted, TextStyle, styles_asked
from casebook.generator.text_places import field_holding
from casebook.rules.cards import GameDatabase
from casebook.rules.problems import Place, Problems

STYLE_NAMES = {1: "bold", 2: "italic", 3: "bold italic"}


def _field_holding(db: GameDatabase, card_id: Any, char: str, fallback: Place) -> tuple[Place, str | None]:
    """The card field that holds `char` (its file:line and name), else the fallback and None."""
    return field_holding(db, card_id, lambda value: char in value, fallback)


def _add_once(problems: Problems, place: Place, message: str, expected: str) -> None:
    """A problem, unless the same one is already reported (a sheet is composed once per paper)."""
    if not any(p.place == place and p.message == message for p in problems.items):
        problems.add(place, message, expected)


def may_lack(fitted: Fitted, st: TextStyle) -> bool:
    """Whether a text's fonts may lack a glyph or a style it asks for; its glyphs looked up once per fitted text."""
    if fitted.covered is None:  # a fitted text recurs (suit names, values): the same runs, the same answer
        fitted.covered = not any(missing_glyphs(run.font, run.text) for run in fitted.runs)
    return not fitted.covered or bool(st.variants)


def check_text_fonts(fitted: Fitted, st: TextStyle, text: str, fonts: GameFonts, db: GameDatabase, card_id: Any,
                     el: Any, who: str, problems: Problems) -> None:
    """Report the characters a text's fonts have no glyph for, and markup styles its game font family lacks."""
    element = el.data.get("id", "text")
    at = el.places.get("text", el.place)
    missing: dict[str, dict[str, None]] = {}
    for run in fitted.runs:
        for char in missing_glyphs(run.font, run.text):
            missing.setdefault(run.font, {})[char] = None
    for key, chars in missing.items():
        place, field = _field_holding(db, card_id, next(iter(chars)), at)
        where = f"{who} field '{field}' (text '{element}')" if field else f"{who}: text '{element}'"
        listed = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)
        _add_once(problems, place, f"{where}: the font '{fonts.describe(key)}' has no glyph for {listed}",
                  "other characters, or a font that has these (a character without a glyph would print as a box)")
    if not st.variants:
        return
    lacking = [STYLE_NAMES[i] for i in sorted(styles_asked(text)) if not st.variants[i]]
    if lacking:
        wanted = " and ".join(lacking)
        _add_once(problems, at, f"{who}: text '{element}' is set in '{fonts.describe(st.font)}' and its markup asks for "
                      f"{wanted} (**bold**, _italic_ or a ## heading), but the font family "
                      f"'{fonts.family_of(st.font)}' in {fonts.folder} has no {wanted} style{fonts.refused_note()}",
                  f"the family's {wanted} .ttf in the game folder, or the text without that markup")
