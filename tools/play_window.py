"""Play the companion in a real window as a player would: X mouse clicks and keystrokes (xdotool) on an Xvfb
screen, screenshots of the whole screen (ImageMagick `import`). The app is asked only where its controls are
(the driver's `listen` step); every tap reaches it as a real click through SDL, as on a desktop.

Used by tools/play_hasty7.py and tools/play_pi5.py; needs Xvfb, xdotool and imagemagick
(apt-get install xvfb xdotool imagemagick).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DISPLAY = ":77"


class Window:
    """A running app in its own Xvfb screen of exactly the window's size."""

    def __init__(self, size: tuple[int, int] = (360, 640), shots: Path = ROOT / "tests" / "_screens"):
        for tool in ("Xvfb", "xdotool", "import"):
            if shutil.which(tool) is None:
                sys.exit(f"play_window: '{tool}' is not installed (apt-get install xvfb xdotool imagemagick)")
        self.size, self.shots = size, shots
        self.tmp = Path(tempfile.mkdtemp(prefix="casebook-window-"))
        self.listen = self.tmp / "steps"
        self.listen.mkdir()
        self.n = 0
        self.xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        script = self.tmp / "script.json"
        script.write_text(json.dumps([{"listen": str(self.listen)}]))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "SDL_VIDEODRIVER"))}
        env.update(DISPLAY=DISPLAY, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
                   KIVY_HOME=str(self.tmp / "kivy"), CASEBOOK_DATA=str(self.tmp / "data"),
                   CASEBOOK_SCRIPT=str(script), CASEBOOK_WIDTH=str(size[0]), CASEBOOK_HEIGHT=str(size[1]))
        self.log = (self.tmp / "app.log").open("w")
        self.app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env,
                                    cwd=self.tmp, stdout=self.log, stderr=subprocess.STDOUT)
        self.origin = (0, 0)
        self.dump()  # the start screen is up
        self.origin = self._window_origin()

    def _x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": DISPLAY}, check=True,
                              capture_output=True, text=True).stdout

    def _window_origin(self) -> tuple[int, int]:
        wid = self._x("search", "--onlyvisible", "--pid", str(self.app.pid)).split()
        if not wid:
            return (0, 0)
        geometry = self._x("getwindowgeometry", "--shell", wid[0])
        values = dict(line.split("=", 1) for line in geometry.split())
        return int(values["X"]), int(values["Y"])

    def ask(self, step: dict[str, Any], timeout: float = 120) -> None:
        """One driver step (after the layout has settled), waited for."""
        self.n += 1
        (self.listen / f"{self.n}.json.part").write_text(json.dumps(step))
        (self.listen / f"{self.n}.json.part").rename(self.listen / f"{self.n}.json")
        done = self.listen / f"{self.n}.done"
        until = time.monotonic() + timeout
        while not done.exists():
            if self.app.poll() is not None:
                sys.exit(f"play_window: the app stopped at step {self.n} {step}:\n" + (self.tmp / "app.log").read_text()[-3000:])
            error = self.tmp / "script.error"
            if error.exists():
                sys.exit(f"play_window: {error.read_text()}")
            if time.monotonic() > until:
                sys.exit(f"play_window: step {self.n} {step} not done in {timeout} s")
            time.sleep(0.05)

    def dump(self) -> dict[str, Any]:
        """What the app shows: texts, controls and where (the driver's dump)."""
        path = self.tmp / f"dump{self.n + 1}.json"
        self.ask({"dump": str(path)})
        return json.loads(path.read_text())

    def where(self, testid: str, scroll: bool = False) -> tuple[int, int]:
        """The screen point at the centre of a control, checked to be on the window and live; with `scroll`,
        the mouse wheel (as a finger would swipe) first brings it into view."""
        dump = self.dump()
        for _ in range(40):
            control = dump["controls"].get(testid)
            if control is None:
                sys.exit(f"play_window: no control '{testid}' on '{dump['screen']}': {sorted(dump['controls'])}")
            if control["in_window"] or not scroll:
                break
            x, y, w, h = control["rect"]
            below = y < dump["window"][1] / 2  # Kivy's y runs upwards: low y is the bottom of the window
            centre = self.origin[0] + round(x + w / 2), self.origin[1] + dump["window"][1] // 2
            self._x("mousemove", *map(str, centre), "click", "5" if below else "4")
            dump = self.dump()
        if not control["in_window"]:
            sys.exit(f"play_window: '{testid}' is not on the window without scrolling ({dump['screen']})")
        if control["disabled"]:
            sys.exit(f"play_window: '{testid}' is greyed out")
        x, y, w, h = control["rect"]
        height = dump["window"][1]
        return self.origin[0] + round(x + w / 2), self.origin[1] + round(height - (y + h / 2))

    def tap(self, testid: str, scroll: bool = False) -> None:
        x, y = self.where(testid, scroll)
        self._x("mousemove", str(x), str(y), "click", "1")

    def hold(self, testid: str, seconds: float = 1.0, shot: str | None = None) -> None:
        """Press and keep the finger down (a hold-to-see), optionally photograph it held, then lift."""
        x, y = self.where(testid)
        self._x("mousemove", str(x), str(y), "mousedown", "1")
        time.sleep(seconds)
        if shot:
            self.shot(shot)
        self._x("mouseup", "1")

    def type_into(self, testid: str, text: str) -> None:
        self.tap(testid, scroll=True)
        self._x("key", "ctrl+a", "BackSpace")
        self._x("type", "--delay", "20", text)

    def back(self) -> None:
        self._x("key", "Escape")

    def shot(self, name: str) -> Path:
        """The whole X screen as a PNG in tests/_screens/."""
        self.dump()  # settled first
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / name
        subprocess.run(["import", "-window", "root", str(path)], env={**os.environ, "DISPLAY": DISPLAY}, check=True)
        return path

    def close(self) -> None:
        if self.app.poll() is None:
            self.n += 1
            (self.listen / f"{self.n}.json").write_text(json.dumps({"quit": True}))
            try:
                self.app.wait(20)
            except subprocess.TimeoutExpired:
                self.app.kill()
        self.xvfb.terminate()
        self.log.close()
