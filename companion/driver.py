"""Drive the real app from a script (CASEBOOK_SCRIPT=steps.json): the GUI tests' hands and eyes.

Steps, one at a time, each only once the layout has settled (no widget moved or changed size for
SETTLE_FRAMES frames): {"tap": testid}, {"tap_prefix": "resume_"}, {"press": testid} and
{"release": testid} (a held button), {"finger_down": testid} / {"finger_move": [dx, dy]} /
{"finger_up": true} (a real touch through the window: down on the control's centre, moved by dx, dy dp
from there, lifted), {"key": 27} (Escape / Back), {"window": "on_minimize"},
{"app": "on_pause"}, {"text": ["screen.id", "value"]},
{"shot": "file.png"}, {"dump": "file.json"} (screen, game summary, every text shown, controls
smaller than 48 dp, words split across lines, texts cut (drawn past their box), texts under 12 sp (small_texts: each
one's smallest size in sp), numbers wrapped away from their word (torn_numbers), lines of a button's text its own
picture covers (covered_texts), lines of text a scrolling part's edge cuts through (cut_lines), each labelled
control's lines as drawn, the action bar's place, each button's text and fill colours;
whether each control's bottom and top edges are in view), {"wait": seconds},
{"mark": "file"} (touch a file: the test knows this point was reached), {"quit": true},
{"listen": "folder"} (from then on, take each next step from `folder/<n>.json` as another process writes
it, and touch `<n>.done` once it is done: tools/play_window.py taps a real window by X events and asks
the driver only where the controls are).
A step that cannot be done writes `<script>.error` and quits with the app.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.metrics import dp, dpi2px, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from casebook.companion.widgets import MARKUP, WholeLines, drawn_lines, text_in, widest_word

SIZE_MARKUP = re.compile(r"\[size=(\d+(?:\.\d+)?)(px|pt|in|cm|mm|dp|sp)?\]")  # a part in another font size
MIN_TEXT_SP = 12  # no text on show is smaller
SETTLE_FRAMES = 4  # frames in a row with no widget moved or resized before a step runs
SETTLE_LIMIT = 30.0  # seconds: a layout still moving after this is a failure of its own (a busy machine is slow)


def clips(widget: Any) -> bool:
    """Whether a widget scrolls what it holds, clipping it at its edges: a plain ScrollView, or the table's state and
    pad (WholeLines); not a WrapLine, a text's own fixed place in which it scrolls whole."""
    return type(widget) is ScrollView or isinstance(widget, WholeLines)


def walk(widget: Any) -> Any:
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown(app: Any) -> Any:
    """Every widget on show: any popup first (it is on top), then the current screen."""
    for root in Window.children:
        if isinstance(root, ModalView):
            yield from walk(root)
    yield from walk(app.root.current_screen)


class Finger(MotionEvent):
    """One finger on the glass, dispatched as the window's own touches are (grabs, scroll views and all)."""

    def __init__(self, x: float, y: float):
        super().__init__("driver", 1, self._args(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    @staticmethod
    def _args(x: float, y: float) -> dict[str, float]:
        return {"x": x / (Window.width - 1.0), "y": y / (Window.height - 1.0)}

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)

    def to(self, x: float, y: float) -> None:
        self.move(self._args(x, y))


class Driver:
    def __init__(self, app: Any, script: Path):
        self.app, self.script = app, script
        self.steps: list[dict[str, Any]] = json.loads(script.read_text())
        self.i = 0
        self._shape: Any = None
        self._still = 0
        self._since = 0.0
        self.finger: Finger | None = None
        self._finger_at = (0.0, 0.0)
        self.listen: Path | None = None

    def _wait_for_step(self) -> bool:
        """While listening: take the next step once its file is there (look again in a moment). False: no listener."""
        if self.listen is None:
            return False
        ask = self.listen / f"{self.i}.json"
        if ask.exists():
            self.steps.append(json.loads(ask.read_text()))
            Clock.schedule_once(self.step, 0)
        else:
            Clock.schedule_once(self.step, 0.05)
        return True

    def start(self) -> None:
        # a benchmark of start-up asks for no wait before the first step; tests wait for the layout
        first = float(os.environ.get("CASEBOOK_FIRST_STEP", "0"))
        Clock.schedule_once(self.step, first)

    def find(self, testid: str) -> Any:
        for w in shown(self.app):
            if getattr(w, "testid", None) == testid:
                return w
        return None

    def fail(self, message: str) -> None:
        self.script.with_suffix(".error").write_text(f"step {self.i}: {message}\n")
        self.app.stop()

    def shape(self) -> tuple[Any, ...]:
        """Where everything on show is and how big: the layout has settled when this stops changing."""
        return (tuple(Window.size), self.app.root.current,
                tuple((type(w).__name__, *map(round, w.pos), *map(round, w.size), round(w.opacity, 2))
                      for w in shown(self.app)))

    def settled(self) -> bool:
        now = self.shape()
        if now == self._shape:
            self._still += 1
        else:
            self._shape, self._still = now, 0
        return self._still >= SETTLE_FRAMES

    def step(self, _dt: float) -> None:
        if not self._since:
            self._since = time.monotonic()
        if not self.settled():
            if time.monotonic() - self._since > SETTLE_LIMIT:
                return self.fail(f"the layout of '{self.app.root.current}' did not settle in {SETTLE_LIMIT} s")
            Clock.schedule_once(self.step, 0)
            return
        self._since = 0.0
        if self.i >= len(self.steps):
            if not self._wait_for_step():
                self.app.stop()
            return
        step = self.steps[self.i]
        delay = 0.0
        if "tap_prefix" in step:  # the first control whose testid starts so (e.g. the newest saved game)
            found = [x for x in shown(self.app) if str(getattr(x, "testid", "")).startswith(step["tap_prefix"])]
            if not found:
                return self.fail(f"no control starting '{step['tap_prefix']}' on '{self.app.root.current}'")
            found[-1].dispatch("on_release")  # children are listed last-added first
        elif "tap" in step or "press" in step or "release" in step:
            testid = str(step.get("tap") or step.get("press") or step.get("release"))
            w = self.find(testid)
            if w is None:
                ids = sorted(getattr(x, "testid", "") for x in shown(self.app) if getattr(x, "testid", ""))
                return self.fail(f"no control '{testid}' on screen '{self.app.root.current}' (there: {ids})")
            if w.disabled:
                return self.fail(f"control '{testid}' is greyed out")
            if "press" in step:
                w.dispatch("on_press")
            elif "release" in step:
                w.dispatch("on_release")
            else:
                w.dispatch("on_press")
                w.dispatch("on_release")
        elif "finger_down" in step:
            w = self.find(str(step["finger_down"]))
            if w is None:
                return self.fail(f"no control '{step['finger_down']}' on screen '{self.app.root.current}'")
            self._finger_at = w.to_window(*w.center)
            self.finger = Finger(*self._finger_at)
            EventLoop.post_dispatch_input("begin", self.finger)
        elif "finger_move" in step or "finger_up" in step:
            if self.finger is None:
                return self.fail("no finger is down")
            if "finger_move" in step:
                dx, dy = step["finger_move"]
                self.finger.to(self._finger_at[0] + dp(dx), self._finger_at[1] + dp(dy))
                EventLoop.post_dispatch_input("update", self.finger)
            else:
                EventLoop.post_dispatch_input("end", self.finger)
                self.finger = None
        elif "key" in step:
            Window.dispatch("on_keyboard", int(step["key"]), 0, None, [])
        elif "window" in step:  # a window event: on_minimize, on_hide
            Window.dispatch(step["window"])
        elif "app" in step:  # an app event: on_pause (the phone switched to another app), on_resume
            self.app.dispatch(step["app"])
        elif "text" in step:
            where, value = step["text"]
            screen, wid = where.split(".")
            self.app.root.get_screen(screen).ids[wid].text = value
        elif "scroll" in step:  # a scrolling part moved by a finger: ["table.scroll", 0] (0 the bottom, 1 the top)
            where, value = step["scroll"]
            screen, wid = where.split(".")
            self.app.root.get_screen(screen).ids[wid].scroll_y = float(value)
        elif "shot" in step:
            self.screenshot(str(step["shot"]))
        elif "dump" in step:
            Path(step["dump"]).write_text(json.dumps(self.dump(), indent=1, default=str))
        elif "wait" in step:
            delay = float(step["wait"])
        elif "mark" in step:
            Path(step["mark"]).write_text("ok")
        elif "quit" in step:
            self.app.stop()
            return
        elif "listen" in step:
            self.listen = Path(step["listen"])
        if self.listen is not None and self.i > 0:
            (self.listen / f"{self.i}.done").write_text("ok")
        self.i += 1
        Clock.schedule_once(self.step, delay)

    @staticmethod
    def screenshot(path: str) -> None:
        """The window as a PNG, read as RGBA (Kivy's own RGB screenshot skews windows of odd widths, 411 px)."""
        width, height = Window.size
        data = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
        texture = Texture.create(size=(width, height), colorfmt="rgba")
        texture.blit_buffer(data, colorfmt="rgba", bufferfmt="ubyte")
        CoreImage(texture).save(path, flipped=True)  # GL rows run bottom to top

    def dump(self) -> dict[str, Any]:
        screen = self.app.root.current_screen
        small, split, texts, controls, cut, tiny, torn, cut_lines, covered = [], [], [], {}, [], [], [], [], []
        pictures: dict[str, list[str]] = {"table": [], "popup": []}  # the symbols drawn, by name: on the screen, over it
        in_popup = {id(x) for root in Window.children if isinstance(root, ModalView) for x in walk(root)}
        for w in shown(self.app):
            on_window = w.get_root_window() is not None and w.width > 0 and w.opacity > 0
            if not on_window:
                continue
            if isinstance(w, Image) and w.source:
                pictures["popup" if id(w) in in_popup else "table"].append(Path(w.source).stem)
                covered += self.covered_lines(w)
            text = str(getattr(w, "text", "") or "")
            if isinstance(w, Label) and text:
                texts.append(MARKUP.sub("", text).replace("\u00a0", " "))  # a no-break space reads as a space
                torn_number = self.torn_number(w)
                if torn_number:
                    torn.append(torn_number)
                room = (w.text_size[0] if w.text_size and w.text_size[0] else None)
                if room:  # the label's own padding left and right takes from the width its lines wrap in
                    room -= w.padding[0] + w.padding[2] if len(w.padding) == 4 else 2 * w.padding[0]
                if room and widest_word(text, w.font_size, w.bold, w.font_name) > room + 1:
                    split.append({"text": text[:40], "room": room, "font_size": w.font_size})
                small_text = self.small_text(w, text)
                if small_text:
                    tiny.append(small_text)
                if self._cut(w):
                    cut.append({"text": text[:40], "size": [w.width, w.height], "texture": list(w.texture_size)})
            if isinstance(w, ScrollView):
                cut_lines += self.cut_lines(w)
            visible = isinstance(w, Button | TextInput) and not (w.disabled and w.opacity == 0)
            if visible and (w.height < dp(48) - 0.5 or w.width < dp(48) - 0.5):
                small.append({"testid": getattr(w, "testid", ""), "text": text[:30], "size": [w.width, w.height]})
            testid = getattr(w, "testid", "")
            if testid:
                x, y = w.to_window(*w.pos)
                controls[testid] = {"rect": [x, y, w.width, w.height], "in_window": self._in_view(w),
                                    "edges_in_view": [self._y_in_view(w, w.y), self._y_in_view(w, w.top)],
                                    "disabled": bool(w.disabled)}
                if isinstance(w, Label):
                    controls[testid]["lines"] = self.lines(w)
                if isinstance(w, Button):  # what it is drawn in: the text's colour on the fill (an image tinted)
                    controls[testid].update(
                        text_rgba=list(w.disabled_color if w.disabled else w.color),
                        fill_rgba=list(w.background_color),
                        fill_image=w.background_disabled_normal if w.disabled else w.background_normal,
                        captions=[[c.text, list(c.disabled_color if c.disabled else c.color)]  # a suit's name under it
                                  for c in w.children if isinstance(c, Label) and c.text])
        session = self.app.session
        return {"screen": self.app.root.current, "window": list(Window.size),
                "summary": session.summary(None) if session else None,
                "message": screen.ids.message.text if "message" in screen.ids else "",
                "message_kind": getattr(screen, "message_kind", ""),
                "texts": texts, "small_controls": small, "split_words": split, "cut_texts": cut, "small_texts": tiny,
                "torn_numbers": torn, "cut_lines": cut_lines, "covered_texts": covered, "controls": controls,
                "pictures": pictures}

    @staticmethod
    def cut_lines(view: Any) -> list[dict[str, Any]]:
        """The lines of text a scrolling part's edge cuts through, that show in part (not hidden whole under a
        WholeLines' strip): each with the edge, how much of it shows and the part's kind."""
        bottom = view.to_window(view.x, view.y)[1]
        top = bottom + view.height
        hidden = getattr(view, "hidden", [0.0, 0.0])
        out = []
        for content in view.children:
            for label in text_in(content):
                for n, (b, t) in enumerate(drawn_lines(label)):
                    for edge, cuts, shows, strip in (("bottom", b < bottom - 0.5 < t - 1, t - bottom, hidden[0]),
                                                     ("top", b + 1 < top + 0.5 < t, top - b, hidden[1])):
                        if cuts and shows > strip + 0.5:
                            out.append({"text": MARKUP.sub("", label.text)[:60], "line": n, "edge": edge,
                                        "shows": round(shows - strip, 1), "part": type(view).__name__})
        return out

    @staticmethod
    def covered_lines(img: Any) -> list[dict[str, Any]]:
        """The lines of a button's (or label's) text its own picture is drawn over (widgets.top_picture puts it
        inside the button): each with the picture's name and the line's words."""
        owner = img.parent
        if not isinstance(owner, Label) or not owner.text:
            return []
        ix, iy = img.to_window(*img.pos)
        left = owner.to_window(int(owner.center_x - owner.texture_size[0] / 2.0), owner.y)[0]
        out = []
        for line, (bottom, top) in zip(getattr(owner._label, "_cached_lines", []), drawn_lines(owner), strict=False):
            x0, x1 = left + line.x, left + line.x + line.w
            if line.w and x0 < ix + img.width - 1 and ix + 1 < x1 and bottom < iy + img.height - 1 and iy + 1 < top:
                out.append({"testid": getattr(owner, "testid", ""), "text": MARKUP.sub("", owner.text)[:40],
                            "picture": Path(img.source).stem,
                            "line": "".join(word.text for word in line.words)})
        return out

    @staticmethod
    def lines(w: Any) -> list[str]:
        """A label's text as it is drawn, line by line (wrapped where its width ends, markup left out)."""
        return ["".join(word.text for word in line.words).replace("\u00a0", " ")
                for line in getattr(w._label, "_cached_lines", [])]

    @staticmethod
    def torn_number(w: Any) -> dict[str, Any] | None:
        """A label whose text wraps a number onto a line of its own start, away from the word it goes with (the
        'Ben' of 'Ben 1' at a line's end, the '1' under it); a line the text itself begins is no fault."""
        drawn = getattr(w._label, "_cached_lines", [])
        for before, line in zip(drawn, drawn[1:], strict=False):
            first = "".join(word.text for word in line.words)
            if line.line_wrap and first[:1].isdigit():
                return {"text": MARKUP.sub("", w.text)[:60], "line_before": "".join(x.text for x in before.words),
                        "line": first}
        return None

    @staticmethod
    def small_text(w: Any, text: str) -> dict[str, Any] | None:
        """A label drawn (in part) under MIN_TEXT_SP, measured in sp: its own font and any [size=] in its text, each
        in Kivy's units (a bare number is pixels). A [size=] is read whether or not markup is on: with markup off
        Kivy draws the tag itself as text at the label's font, which is a fault of its own, and the size it asks
        for is what the label shows the day its markup is switched on; either way the label is reported."""
        sizes = [float(w.font_size)] + [dpi2px(n, unit) if unit else float(n) for n, unit in SIZE_MARKUP.findall(text)]
        smallest = min(sizes) / sp(1)
        if smallest >= MIN_TEXT_SP - 0.01:  # a hundredth of an sp: float rounding, nothing a reader would see
            return None
        found = {"text": MARKUP.sub("", text)[:40], "sp": round(smallest, 2), "font_size": round(min(sizes), 2)}
        if not w.markup and SIZE_MARKUP.search(text):
            found["markup_off"] = True  # the [size=] tag is on show as text
        return found

    @staticmethod
    def _cut(w: Any) -> bool:
        """Whether a label's text is drawn bigger than its box, or its box reaches out of the box holding it."""
        tw, th = w.texture_size
        if tw > w.width + 1 or th > w.height + 1:
            return True
        parent = w.parent
        if not isinstance(parent, BoxLayout | GridLayout):
            return False
        x, y = w.to_window(*w.pos)
        px, py = parent.to_window(*parent.pos)
        return bool(x < px - 1 or y < py - 1 or x + w.width > px + parent.width + 1
                    or y + w.height > py + parent.height + 1)

    @staticmethod
    def _y_in_view(w: Any, y: float) -> bool:
        """Whether the height `y` of a widget (its bottom or top edge) is on the window, not scrolled away: a
        control taller than its scrolling part can be read whole if each edge comes into view at some scroll."""
        y = w.to_window(w.x, y)[1]
        parent = w.parent
        while parent is not None and parent is not Window:
            if clips(parent):
                py = parent.to_window(*parent.pos)[1]
                if not py - 0.5 <= y <= py + parent.height + 0.5:
                    return False
            parent = parent.parent
        return bool(-0.5 <= y <= Window.height + 0.5)

    @staticmethod
    def _in_view(w: Any) -> bool:
        """Whether all of a widget is on the window and not clipped away by a scrolling parent."""
        x, y = w.to_window(*w.pos)
        inside = x >= -0.5 and y >= -0.5 and x + w.width <= Window.width + 0.5 and y + w.height <= Window.height + 0.5
        parent = w.parent
        while parent is not None and parent is not Window:
            if clips(parent):
                px, py = parent.to_window(*parent.pos)
                if y < py - 0.5 or y + w.height > py + parent.height + 0.5:
                    return False
            parent = parent.parent
        return inside
