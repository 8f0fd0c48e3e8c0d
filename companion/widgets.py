"""The companion's small widgets, shared by the frame's screens and the games' tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label

from companion.theme import rgba

SYMBOLS = Path(__file__).resolve().parent / "assets" / "symbols"


class CButton(Button):
    testid = StringProperty("")
    flat = BooleanProperty(False)


class Tile(Button):
    """A tile in a strip (a location, a player): fixed height, whatever its text."""

    testid = StringProperty("")
    flat = BooleanProperty(False)


class CLabel(Label):
    muted = BooleanProperty(False)


def button(text: str, testid: str, action: Any, flat: bool = False, **kw: Any) -> CButton:
    b = CButton(text=text, testid=testid, flat=flat, **kw)
    b.bind(on_release=lambda *_: action())
    return b


def label(text: str, **kw: Any) -> CLabel:
    return CLabel(text=text, **kw)


def symbol_button(testid: str, symbol: str, colour: str, action: Any, height: float = 64, flat: bool = True) -> CButton:
    """A button showing one symbol (a suit), coloured, filling the button less a margin."""
    cell = CButton(testid=testid, text="", height=dp(height), flat=flat)
    cell.bind(on_release=lambda *_: action())
    img = Image(source=str(SYMBOLS / f"{symbol}.png"), color=rgba(colour), fit_mode="contain")
    cell.bind(pos=lambda w, *_a: setattr(img, "pos", (w.x + dp(6), w.y + dp(6))))
    cell.bind(size=lambda w, *_a: setattr(img, "size", (w.width - dp(12), w.height - dp(12))))
    cell.add_widget(img)
    return cell
