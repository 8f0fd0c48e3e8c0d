"""Drive the real app from a script (CASEBOOK_SCRIPT=steps.json): the GUI tests' hands and eyes.

Steps, one per frame: {"tap": testid}, {"tap_prefix": "resume_"}, {"text": ["screen.id", "value"]}, {"shot": "file.png"},
{"dump": "file.json"} (screen, game summary, controls smaller than 48 dp), {"wait": seconds},
{"mark": "file"} (touch a file: the test knows this point was reached), {"quit": true}.
A step that cannot be done writes `<script>.error` and quits with the app.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.textinput import TextInput


def walk(widget: Any) -> Any:
    yield widget
    for child in widget.children:
        yield from walk(child)


class Driver:
    def __init__(self, app: Any, script: Path):
        self.app, self.script = app, script
        self.steps: list[dict[str, Any]] = json.loads(script.read_text())
        self.i = 0

    def start(self) -> None:
        # let the first layout passes settle (a benchmark of start-up asks for no wait)
        Clock.schedule_once(self.step, float(os.environ.get("CASEBOOK_FIRST_STEP", "1.0")))

    def find(self, testid: str) -> Any:
        for w in walk(self.app.root.current_screen):
            if getattr(w, "testid", None) == testid:
                return w
        return None

    def fail(self, message: str) -> None:
        self.script.with_suffix(".error").write_text(f"step {self.i}: {message}\n")
        self.app.stop()

    def step(self, _dt: float) -> None:
        if self.i >= len(self.steps):
            self.app.stop()
            return
        step = self.steps[self.i]
        delay = 0.05
        if "tap_prefix" in step:  # the first control whose testid starts so (e.g. the newest saved game)
            found = [x for x in walk(self.app.root.current_screen)
                     if str(getattr(x, "testid", "")).startswith(step["tap_prefix"])]
            if not found:
                return self.fail(f"no control starting '{step['tap_prefix']}' on '{self.app.root.current}'")
            found[-1].dispatch("on_release")  # children are listed last-added first
        elif "tap" in step:
            w = self.find(step["tap"])
            if w is None:
                ids = sorted(getattr(x, "testid", "") for x in walk(self.app.root.current_screen) if getattr(x, "testid", ""))
                return self.fail(f"no control '{step['tap']}' on screen '{self.app.root.current}' (there: {ids})")
            w.dispatch("on_release")
        elif "text" in step:
            where, value = step["text"]
            screen, wid = where.split(".")
            self.app.root.get_screen(screen).ids[wid].text = value
        elif "shot" in step:
            made = Window.screenshot(name=str(step["shot"]))  # Kivy numbers the file: give it its name
            if made:
                os.replace(made, step["shot"])
        elif "dump" in step:
            Path(step["dump"]).write_text(json.dumps(self.dump(), indent=1, default=str))
        elif "wait" in step:
            delay = float(step["wait"])
        elif "mark" in step:
            Path(step["mark"]).write_text("ok")
        elif "quit" in step:
            self.app.stop()
            return
        self.i += 1
        Clock.schedule_once(self.step, delay)

    def dump(self) -> dict[str, Any]:
        screen = self.app.root.current_screen
        small = []
        for w in walk(screen):
            visible = isinstance(w, Button | TextInput) and w.get_root_window() is not None and w.width > 0 \
                and not (w.disabled and w.opacity == 0)  # a hidden field (a third player in a 2-player game)
            if visible and (w.height < dp(48) - 0.5 or w.width < dp(48) - 0.5):
                small.append({"testid": getattr(w, "testid", ""), "text": getattr(w, "text", "")[:30],
                                  "size": [w.width, w.height]})
        session = self.app.session
        return {"screen": self.app.root.current, "window": list(Window.size),
                "summary": session.summary(None) if session else None,
                "message": screen.ids.message.text if "message" in screen.ids else "",
                "small_controls": small}
