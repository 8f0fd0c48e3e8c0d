"""The companion's small widgets, shared by the frame's screens and the games' tables: buttons,
labels that fit their words, a confirmation, and the secret view (one player's eyes only)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.graphics.stencil_instructions import StencilPop
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from casebook.companion.theme import readable, rgba

SYMBOLS = Path(__file__).resolve().parent / "assets" / "symbols"
SECRET_HOLD = 0.4  # seconds a "hold to see" button must be held before the secret shows
SECRET_SECONDS = 8.0  # a secret left open closes itself after this long
MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def widest_word(text: str, font_size: float, bold: bool = False, font_name: str = "Roboto") -> float:
    """The width in pixels of the widest word of `text` (markup left out) at `font_size`."""
    words = MARKUP.sub("", text).split()
    if not words:
        return 0.0
    core = CoreLabel(font_size=font_size, bold=bold, font_name=font_name)
    return max(core.get_extents(w)[0] for w in words)


class CButton(Button):
    testid = StringProperty("")
    flat = BooleanProperty(False)


class Tile(Button):
    """A tile in a strip (a location, a player): fixed height, whatever its text. Its font shrinks (to
    70 % at most) until its widest word fits: text wraps between words, never inside one."""

    testid = StringProperty("")
    flat = BooleanProperty(False)

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.base_font = float(self.font_size)  # type: ignore[has-type]
        self.bind(width=self.fit_words, text=self.fit_words)

    def fit_words(self, *_args: Any) -> None:
        room = self.width - dp(4)  # the width its text wraps in (widgets.kv: text_size)
        if room <= 0 or not self.text:
            return
        size = self.base_font
        while size > self.base_font * 0.7 and widest_word(self.text, size, self.bold, self.font_name) > room:
            size -= 1
        self.font_size = size


class CLabel(Label):
    muted = BooleanProperty(False)


class FitLabel(Label):
    """A label of fixed height (a banner, a headline) whose font shrinks until its text fits, never under 12 sp
    (min_font): what is below it never moves when the text grows. A text that may grow long takes a WrapLine."""

    base_font = NumericProperty(0)
    min_font = NumericProperty(0)

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.bind(text=self._restart, width=self._restart, texture_size=self._shrink)

    def _restart(self, *_args: Any) -> None:
        if self.base_font:
            self.font_size = self.base_font

    def _shrink(self, *_args: Any) -> None:
        if self.texture_size[1] > self.height and self.font_size > (self.min_font or sp(12)):
            self.font_size -= 1


BEFORE_NUMBER = re.compile(r" (?=\d)")


def numbers_kept_on(text: str) -> str:
    """`text` with a no-break space before each number: 'Ben 1', 'won 10–10' wrap as one word, so a number never
    starts a line away from the name or word it goes with (Kivy breaks lines at plain spaces only)."""
    return BEFORE_NUMBER.sub("\u00a0", text)


def line_height(font_size: float) -> float:
    """The height of one line of text at `font_size` (pixels)."""
    return float(CoreLabel(font_size=font_size).get_extents("Hg")[1])


def drawn_lines(label: Label) -> list[tuple[float, float]]:
    """Each line of a label's text as it is drawn: (bottom, top) in window coordinates (style.kv draws the texture
    centred on the label; each laid-out line says how far below the texture's top it starts, and how tall it is)."""
    lines = getattr(label._label, "_cached_lines", None) or []
    if not label.text or not lines or label.opacity == 0:
        return []
    height = label.texture_size[1]
    top = label.to_window(label.x, int(label.center_y - height / 2.0) + height)[1]
    return [(top - line.y - line.h, top - line.y) for line in lines]


def text_in(content: Widget) -> Iterable[Label]:
    """The labels of plain text inside a scrolling part's content: not a button's, not one of a scrolling part of
    its own (a WrapLine is sized to whole lines itself)."""
    for child in content.children:
        if isinstance(child, ScrollView):
            continue
        if isinstance(child, Label) and not isinstance(child, ButtonBehavior):
            yield child
        yield from text_in(child)


class WholeLines(ScrollView):
    """A scrolling part that never shows a line of text cut through at its edges: over each edge a strip of the
    background reaches as far as the line the edge would cut, so a line half in view is hidden whole (scrolled on,
    it shows whole). A strip is as wide as the label whose line it hides: text side by side (Clash's three threads)
    keeps its own lines whole beside it. `hidden`: how much the strips cover, at the bottom and at the top (pixels,
    the deepest of them)."""

    hidden = ListProperty([0.0, 0.0])
    SLACK = 0.5  # pixels of a line over an edge that count as none (rounding)

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self._colour, self._strips = Color(0, 0, 0, 0), InstructionGroup()
        self._drawn = False
        self._again = Clock.create_trigger(self._mask)
        self._trigger = Clock.create_trigger(self._mask_twice)
        self.bind(scroll_y=self._trigger, pos=self._trigger, size=self._trigger, children=self._watch)

    def _watch(self, *_args: Any) -> None:
        for child in self.children:  # the content: new widgets in it, or a new height
            child.bind(size=self._trigger, children=self._trigger)
        self._trigger()

    def _mask_twice(self, *_args: Any) -> None:
        """Once now and once the next frame: a layout of the content that was due in this frame is done by then."""
        self._mask()
        self._again()

    def _draw_strips(self) -> None:
        """The strips, once the kv rules have drawn the stencil (a kv file makes its widgets first, then applies
        their rules): after the stencil's end (over the content, unclipped), under the scroll bar."""
        after = self.canvas.after
        at = next((i + 1 for i, x in enumerate(after.children) if isinstance(x, StencilPop)), len(after.children))
        after.insert(at, self._colour)
        after.insert(at + 1, self._strips)
        self._drawn = True

    def _mask(self, *_args: Any) -> None:
        if not self._drawn:
            self._draw_strips()
        wx, bottom = self.to_window(self.x, self.y)
        top = bottom + self.height
        low = high = 0.0
        self._strips.clear()
        for content in self.children:
            for label in text_in(content):
                left = max(label.to_window(label.x, label.y)[0], wx)
                width = min(left + label.width, wx + self.width) - left
                if width <= 0:
                    continue
                x = self.x + left - wx  # the strips are drawn where the scrolling part itself is
                for b, t in drawn_lines(label):
                    if b < bottom - self.SLACK and t > bottom + self.SLACK:
                        low = max(low, t - bottom)
                        self._strips.add(Rectangle(pos=(x, self.y), size=(width, min(t - bottom, self.height))))
                    if b < top - self.SLACK and t > top + self.SLACK:
                        high = max(high, top - b)
                        cover = min(top - b, self.height)
                        self._strips.add(Rectangle(pos=(x, self.top - cover), size=(width, cover)))
        self.hidden = [min(low, self.height), min(high, self.height)]
        app = App.get_running_app()
        self._colour.rgba = rgba(app.colors["bg"]) if app is not None else (0, 0, 0, 0)


class WrapLine(ScrollView):
    """A place of fixed height (`lines` lines at its font) for text that may grow: a message, what to do, what
    just happened. A long text wraps there and scrolls, at its own font size, never shrunk (no text under
    12 sp); what is below it never moves. `text`, `color` and `font_size` are its label's."""

    text = StringProperty("")
    color = ColorProperty([0, 0, 0, 1])
    font_size = NumericProperty(0)  # 0: 14 sp in the app's text size
    lines = NumericProperty(2)

    def __init__(self, **kw: Any):
        kw.setdefault("size_hint_y", None)
        kw.setdefault("do_scroll_x", False)
        kw.setdefault("bar_width", dp(4))
        super().__init__(**kw)
        self.label = Label(markup=True, halign="center", valign="middle", size_hint_y=None)
        self.add_widget(self.label)
        self.label.bind(texture_size=self._fit)
        self.bind(text=self._show, color=self._show, font_size=self._show, lines=self._show, width=self._show,
                  height=self._fit)
        self._show()

    def _show(self, *_args: Any) -> None:
        app = App.get_running_app()
        size = self.font_size or (app.fs if app is not None else 1.0) * sp(14)
        self.label.font_size, self.label.color, self.label.text = size, self.color, self.text
        self.label.text_size = (max(0.0, self.width - dp(8)), None)
        self.height = self.lines * line_height(size) + dp(6)
        self.scroll_y = 1  # a new text is read from its start

    def _fit(self, *_args: Any) -> None:
        self.label.height = max(self.label.texture_size[1], self.height)


def button(text: str, testid: str, action: Any, flat: bool = False, **kw: Any) -> CButton:
    b = CButton(text=text, testid=testid, flat=flat, **kw)
    b.bind(on_release=lambda *_: action())
    return b


def label(text: str, **kw: Any) -> CLabel:
    return CLabel(text=text, **kw)


def symbol_button(testid: str, symbol: str, colour: str, action: Any, height: float = 64, flat: bool = True,
                  caption: str = "", **kw: Any) -> CButton:
    """A button showing one symbol (a suit), coloured to stand out 3:1 from the button, with its name
    below it at 12 sp when a caption is given, on two lines if one is too narrow (the symbol takes the height
    left); greyed out when disabled, its name still at 4.5:1."""
    # the key fills its row of the grid (widgets.kv's CButton height, from its empty text, would hold it to 48 dp)
    cell = CButton(testid=testid, text="", height=dp(height), flat=flat, size_hint_y=1, **kw)
    cell.bind(on_release=lambda *_: action())
    app = App.get_running_app()
    back = app.colors["disabled" if cell.disabled else "panel" if flat else "button"]
    img = Image(source=str(SYMBOLS / f"{symbol}.png"), color=rgba(readable(colour, back)), fit_mode="contain")
    if cell.disabled:
        img.opacity = 0.25
    cell.add_widget(img)
    name = Label(text=caption, font_size=app.fs * sp(12), size_hint=(None, None), halign="center", valign="bottom",
                 color=rgba(app.colors["muted"]), disabled_color=rgba(app.colors["disabled_text"]))  # greyed with it

    def place(w: Any, *_a: Any) -> None:
        name.text_size = (max(0.0, w.width - dp(4)), None)
        below = name.texture_size[1] + dp(2) if caption else 0
        name.pos, name.size = (w.x + dp(2), w.y + dp(2)), (w.width - dp(4), below)
        img.pos, img.size = (w.x + dp(6), w.y + dp(2) + below), (w.width - dp(12), w.height - dp(6) - below)

    cell.bind(pos=place, size=place)
    name.bind(texture_size=lambda *_a: place(cell))
    if caption:
        cell.add_widget(name)
    return cell


def picture(path: str, colour: str | None = None, size: float = 28) -> Image:
    """A thing's own picture (companion/pictures.py), `size` dp square, tinted `colour` (the text's by default)."""
    if colour is None:
        app = App.get_running_app()
        colour = app.colors["text"] if app is not None else "#1B1B1B"
    return Image(source=path, color=rgba(colour), fit_mode="contain", size_hint=(None, None), size=(dp(size), dp(size)))


def pictured(text: str, path: str | None, colour: str | None = None, size: float = 28, **kw: Any) -> Widget:
    """A line naming a thing, its picture beside the name (the label alone when it has none)."""
    line = label(text, **kw)
    if path is None:
        return line
    row = BoxLayout(size_hint_y=None, spacing=dp(6))
    row.add_widget(picture(path, colour, size))
    row.add_widget(line)
    line.bind(height=lambda _w, h: setattr(row, "height", max(h, dp(size))))
    row.height = max(line.height, dp(size))
    return row


def top_picture(widget: Any, path: str | None, colour: str, size: float = 16, at: str = "top") -> None:
    """A thing's picture on a button or tile that names it: at the top, its words moved down to make room; at its
    left or right, half way up, its words moved over (`at="left"`, `at="right"`: the button no taller); or, on a
    tile whose words fill its height, in its top left corner (`at="corner"`) or bottom left one (`at="foot"`, beside
    a short last line such as a pile's size)."""
    if path is None:
        return
    img = picture(path, colour, size)
    pad = list(widget.padding)  # Kivy keeps it as four: left, top, right, bottom
    if at == "top":
        widget.padding = [0, dp(size + 3), 0, 0]
    elif at in ("left", "right"):  # the side's own padding kept (a colour bar's room), the picture's added
        pad[0 if at == "left" else 2] += dp(size + 6)
        widget.padding = pad

    def place(w: Any, *_a: Any) -> None:  # from x, y and size: the aliases (top, center_x) may lag behind a new size
        img.y = (w.y + dp(3) if at == "foot" else w.y + (w.height - img.height) / 2 if at in ("left", "right")
                 else w.y + w.height - dp(3) - img.height)
        img.x = (w.x + (w.width - img.width) / 2 if at == "top" else w.x + w.width - dp(3) - img.width
                 if at == "right" else w.x + dp(3))

    widget.bind(pos=place, size=place)
    widget.add_widget(img)


def colour_bar(widget: Any, hexcol: str, side: str = "top", thick: float = 6) -> None:
    """A player's colour as a bar along one side of a widget (always shown beside their name)."""
    with widget.canvas.after:
        Color(*rgba(hexcol))
        bar = Rectangle()

    def place(w: Any, *_a: Any) -> None:
        if side == "top":
            bar.pos, bar.size = (w.x, w.top - dp(thick)), (w.width, dp(thick))
        else:
            bar.pos, bar.size = (w.x, w.y), (dp(thick), w.height)

    widget.bind(pos=place, size=place)


def _panel(box: BoxLayout) -> None:
    """Paint a popup's box in the theme's panel colour (the ModalView's own background is dark grey)."""
    with box.canvas.before:
        Color(*rgba(App.get_running_app().colors["panel"]))
        rect = Rectangle()
    box.bind(pos=lambda w, *_a: setattr(rect, "pos", w.pos), size=lambda w, *_a: setattr(rect, "size", w.size))


def confirm(question: str, yes: str, on_yes: Callable[[], Any], testid: str = "confirm") -> ModalView:
    """Ask before something that cannot be taken back in one tap: `<testid>_yes` / `<testid>_no`."""
    view = ModalView(size_hint=(0.9, None), auto_dismiss=True)
    box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8), size_hint_y=None)
    box.bind(minimum_height=box.setter("height"))
    _panel(box)
    box.add_widget(label(question))
    row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))

    def agree() -> None:
        view.dismiss(animation=False)
        on_yes()

    row.add_widget(button(yes, f"{testid}_yes", agree))
    row.add_widget(button("Cancel", f"{testid}_no", lambda: view.dismiss(animation=False), flat=True))
    box.add_widget(row)
    box.bind(height=lambda _w, h: setattr(view, "height", h))
    view.add_widget(box)
    view.open(animation=False)
    return view


class SecretView(ModalView):
    """One player's secret, open over the table: it closes on release, on Close, on the next event,
    when the app leaves the screen, and after SECRET_SECONDS, whichever comes first."""

    showing: list[SecretView] = []

    def __init__(self, player: str, text: str, peers: Iterable[str] = (), pictures: Iterable[str] = (),
                 picture_row: bool = False, **kw: Any):
        """`peers`: the other secrets the same table may show. The box is as tall as the tallest of them,
        so that its shape, seen across the table, tells nobody whose secret is the long one (the Traitor).
        `pictures`: the secret things' own pictures, in a row of their own under the words; `picture_row` keeps
        that row (empty if need be) whenever any secret of the table has pictures, for the same reason."""
        super().__init__(size_hint=(0.92, None), auto_dismiss=True, **kw)
        app = App.get_running_app()
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        _panel(box)
        box.add_widget(label(f"[b]{player} only[/b]", color=rgba(app.colors["accent"])))
        shown = label(text)
        room = BoxLayout(orientation="vertical", size_hint_y=None)
        room.add_widget(shown)
        room.add_widget(Widget())
        ghosts = [label(t) for t in dict.fromkeys(peers) if t != text]  # measured, never drawn

        def fit(*_args: Any) -> None:
            for ghost in ghosts:
                ghost.width = shown.width
                ghost.texture_update()
            room.height = max([shown.height, *(g.texture_size[1] + dp(6) for g in ghosts)])

        shown.bind(width=fit, height=fit)
        fit()
        box.add_widget(room)
        shown_pictures = list(pictures)
        if shown_pictures or picture_row:
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))
            row.add_widget(Widget())
            for path in shown_pictures:
                img = picture(path, app.colors["text"], 52)
                img.testid = "secret_picture"  # type: ignore[attr-defined]
                row.add_widget(img)
            row.add_widget(Widget())
            box.add_widget(row)
        box.add_widget(button("Close", "secret_close", lambda: self.dismiss(animation=False), flat=True))
        box.bind(height=lambda _w, h: setattr(self, "height", h))
        self.add_widget(box)
        self._timer = Clock.schedule_once(lambda _dt: self.dismiss(animation=False), SECRET_SECONDS)

    def on_open(self) -> None:
        SecretView.showing.append(self)

    def on_dismiss(self) -> None:
        self._timer.cancel()
        if self in SecretView.showing:
            SecretView.showing.remove(self)

    @classmethod
    def close_all(cls) -> None:
        for view in list(cls.showing):
            view.dismiss(animation=False)


def hold_text(player: str) -> str:
    return f"{player}: hold to see"


def hold_lines(player: str, width: float, font_size: float) -> int:
    """How many lines a player's "hold to see" takes on a button `width` wide (widgets.kv: its text keeps 16 dp
    clear of the colour bar), at `font_size`."""
    core = CoreLabel(text=hold_text(player), font_size=font_size, text_size=(max(1.0, width - dp(16)), None))
    core.refresh()
    return len(core._cached_lines)


class SecretButton(CButton):
    """"Ben: hold to see": held for SECRET_HOLD seconds it opens that player's secret, which stays
    while held; a tap does nothing, so nobody sees a secret by a stray touch. The finger sliding off
    the button closes it at once (and a slide back does not reopen it: a new look is a new hold); any
    lift closes it too, also one that slid off first (always_release)."""

    def __init__(self, player: str, secret: Callable[[], str], peers: Callable[[], Iterable[str]] = tuple,
                 pictures: Callable[[], tuple[list[str], bool]] = lambda: ([], False), **kw: Any):
        """`pictures`: read when held, the player's secret pictures and whether the table's secrets have any."""
        super().__init__(text=hold_text(player), flat=True, always_release=True, **kw)
        self.player, self.secret, self.peers, self.pictures = player, secret, peers, pictures
        self._pending: Any = None

    def on_press(self) -> None:
        self._pending = Clock.schedule_once(self._open, SECRET_HOLD)

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self and not self.collide_point(*touch.pos):
            self._close()
        return bool(super().on_touch_move(touch))

    def _open(self, _dt: float) -> None:
        SecretView.close_all()
        paths, row = self.pictures()
        SecretView(self.player, self.secret(), self.peers(), paths, row).open(animation=False)

    def on_release(self) -> None:
        self._close()

    def _close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        SecretView.close_all()
