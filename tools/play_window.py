"""Play the companion in a real window as a player would: X mouse clicks and keystrokes (xdotool) on an Xvfb
screen the size of the window, screenshots of that screen (ImageMagick `import`). The app is asked only where its
controls are and what it shows (the driver's `listen` step: each `<n>.json` step file it is given, it answers
with `<n>.done`); every tap reaches it as a real click through SDL, as a finger would on a phone.

Used by tools/play_hasty7.py and tools/play_pi5.py; needs Xvfb, xdotool and ImageMagick
(apt-get install xvfb xdotool imagemagick). Each play writes its screenshots to tests/_screens/ and, beside them,
`<tag>-seen.json`: for every screenshot what the app's own dump found on it (texts cut, texts under 12 sp,
controls under 48 dp, words split, names a picture covers) and which hold-to-see buttons were off the window.
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
DISPLAY = os.environ.get("CASEBOOK_PLAY_DISPLAY", ":77")  # another X display number if :77 is taken
STEP_TIMEOUT = 300.0  # seconds for one driver step: the machine is shared, the app can be slow
CHANGE_TIMEOUT = 20.0  # seconds a tap's effect is looked for before it is reported as having none


class Window:
    """A running app in its own Xvfb screen of exactly the window's size. Use it as `with Window(...) as w:`: however
    the play ends (done, a sys.exit of its own, an error), the app and the X screen stop, what the screenshots
    found is written and the warnings are printed."""

    def __init__(self, tag: str, size: tuple[int, int] = (360, 640), shots: Path = ROOT / "tests" / "_screens"):
        for tool in ("Xvfb", "xdotool", "import"):
            if shutil.which(tool) is None:
                sys.exit(f"play_window: '{tool}' is not installed (apt-get install xvfb xdotool imagemagick)")
        if Path(f"/tmp/.X11-unix/X{DISPLAY[1:]}").exists():
            sys.exit(f"play_window: display {DISPLAY} is in use (another play still running?)")
        self.tag, self.size, self.shots = tag, size, shots
        self.shots.mkdir(parents=True, exist_ok=True)
        for old in self.shots.glob(f"{tag}-*"):
            old.unlink()
        self.tmp = Path(tempfile.mkdtemp(prefix="casebook-window-"))
        self.listen = self.tmp / "steps"
        self.listen.mkdir()
        self.n = 0  # driver steps asked for
        self.shot_count = 0
        self.seen: list[dict[str, Any]] = []  # what each screenshot's dump found
        self.warnings: list[str] = []
        self.xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until = time.monotonic() + 30
        while not Path(f"/tmp/.X11-unix/X{DISPLAY[1:]}").exists():
            if time.monotonic() > until:
                sys.exit("play_window: Xvfb did not start")
            time.sleep(0.1)
        script = self.tmp / "script.json"
        script.write_text(json.dumps([{"listen": str(self.listen)}]))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "SDL_VIDEODRIVER"))}
        env.update(DISPLAY=DISPLAY, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
                   KIVY_HOME=str(self.tmp / "kivy"), CASEBOOK_DATA=str(self.tmp / "data"),
                   CASEBOOK_SCRIPT=str(script), CASEBOOK_WIDTH=str(size[0]), CASEBOOK_HEIGHT=str(size[1]),
                   KCFG_GRAPHICS_WIDTH=str(size[0]), KCFG_GRAPHICS_HEIGHT=str(size[1]))
        self.log = (self.tmp / "app.log").open("w")
        self.app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "companion" / "run_app.py")], env=env,
                                    cwd=self.tmp, stdout=self.log, stderr=subprocess.STDOUT)
        self.origin = (0, 0)
        self.last = self.dump()  # the start screen is up
        self.origin = self._window_origin()

    # -- the X side: clicks, keys, pictures

    def _x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": DISPLAY}, check=True,
                              capture_output=True, text=True, timeout=60).stdout

    def _window_origin(self) -> tuple[int, int]:
        """Where the app's window sits on the X screen (no window manager: at 0, 0)."""
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.app.pid)],
                               env={**os.environ, "DISPLAY": DISPLAY}, capture_output=True, text=True, timeout=60)
        wid = found.stdout.split()
        if not wid:
            return (0, 0)
        values = dict(line.split("=", 1) for line in self._x("getwindowgeometry", "--shell", wid[0]).split())
        return int(values["X"]), int(values["Y"])

    # -- the app side: one driver step at a time

    def ask(self, step: dict[str, Any], timeout: float = STEP_TIMEOUT) -> None:
        """One driver step (run once the layout has settled), waited for by its `.done` file."""
        self.n += 1
        part = self.listen / f"{self.n}.json.part"
        part.write_text(json.dumps(step))
        part.rename(self.listen / f"{self.n}.json")
        done = self.listen / f"{self.n}.done"
        until = time.monotonic() + timeout
        while not done.exists():
            if self.app.poll() is not None:
                sys.exit(f"play_window: the app stopped at step {self.n} {step}:\n"
                         + (self.tmp / "app.log").read_text()[-3000:])
            error = self.tmp / "script.error"
            if error.exists():
                sys.exit(f"play_window: {error.read_text()}")
            if time.monotonic() > until:
                sys.exit(f"play_window: step {self.n} {step} not done in {timeout} s")
            time.sleep(0.05)

    def dump(self) -> dict[str, Any]:
        """What the app shows: screen, game summary, texts, controls and where (the driver's dump)."""
        path = self.tmp / f"dump{self.n + 1}.json"
        self.ask({"dump": str(path)})
        data: dict[str, Any] = json.loads(path.read_text())
        path.unlink()
        return data

    @staticmethod
    def _face(dump: dict[str, Any]) -> Any:
        """What a tap can change: the screen, the game, the texts, which controls are there, live and lit (a rank
        tapped in Graves shows only by its fill)."""
        controls = {k: (v["disabled"], [round(n) for n in v["rect"]], v.get("fill_rgba")) for k, v in dump["controls"].items()}
        return dump["screen"], json.dumps(dump["summary"], sort_keys=True, default=str), dump["texts"], controls

    def where(self, testid: str, scroll: bool = False) -> tuple[int, int]:
        """The screen point at the centre of a control, checked to be on the window and live; with `scroll`,
        the mouse wheel (as a finger would swipe) first brings it into view."""
        dump = self.dump()
        control = dump["controls"].get(testid)
        if control is not None and not control["in_window"] and scroll and testid.removeprefix("secret_").isdigit():
            self.warnings.append(f"'{testid}' on '{dump['screen']}' had to be scrolled into view "
                                 f"(after screenshot {self.shot_count:03d})")
        at_edge = False  # the wheel mid-window first; where that moves nothing, over the control's edge in view
        for _ in range(60):
            if control is None:
                sys.exit(f"play_window: no control '{testid}' on '{dump['screen']}': {sorted(dump['controls'])}")
            if control["in_window"] or not scroll:
                break
            self._wheel_towards(dump, testid, at_edge)
            dump, rect = self.dump(), control["rect"]
            control = dump["controls"].get(testid)
            at_edge = at_edge or (control is not None and control["rect"] == rect)
        if control is None or not control["in_window"]:
            sys.exit(f"play_window: '{testid}' is not on the window without scrolling ({dump['screen']})")
        for _ in range(100):  # still: a list swiped (or scrolled by the app) glides on after the layout settles
            time.sleep(0.05)
            again = self.dump()
            moved = again["controls"].get(testid)
            if moved is None or moved["rect"] == control["rect"]:
                break
            dump, control = again, moved
        if control["disabled"]:
            sys.exit(f"play_window: '{testid}' is greyed out ({dump['screen']})")
        self.last = dump
        x, y, w, h = control["rect"]
        height = dump["window"][1]
        return self.origin[0] + round(x + w / 2), self.origin[1] + round(height - (y + h / 2))

    def _wheel_towards(self, dump: dict[str, Any], testid: str, at_edge: bool) -> None:
        """One click of the mouse wheel (a finger's swipe) towards a control: mid-window, or `at_edge` over the
        scrolling part that holds it (the part of it still in view, else a control of its kind in view); down
        if the control lies below that point, else up."""
        height = dump["window"][1]
        x, y, w, h = dump["controls"][testid]["rect"]  # Kivy's y runs upwards: low y is the bottom of the window
        bottom_in, top_in = dump["controls"][testid].get("edges_in_view", [False, False])
        kind = testid.rstrip("0123456789")  # secret_ for secret_4
        kin = [c["rect"] for t, c in dump["controls"].items() if t.startswith(kind) and c["in_window"]]
        px, py = x + w / 2, height / 2
        if at_edge and top_in and not bottom_in:
            py = y + h - 4
        elif at_edge and bottom_in and not top_in:
            py = y + 4
        elif at_edge and kin:
            px, py = kin[0][0] + kin[0][2] / 2, kin[0][1] + kin[0][3] / 2
        down = y + h / 2 < py
        point = self.origin[0] + round(px), self.origin[1] + round(height - py)
        self._x("mousemove", *map(str, point), "click", "5" if down else "4")

    def tap(self, testid: str, scroll: bool = False) -> dict[str, Any]:
        """Click a control as a finger would, then wait until the app shows its effect; the dump after it."""
        x, y = self.where(testid, scroll)
        before = self._face(self.last)
        self._x("mousemove", str(x), str(y), "click", "1")
        until = time.monotonic() + CHANGE_TIMEOUT
        while True:
            after = self.dump()
            if self._face(after) != before:
                break
            if time.monotonic() > until:
                self.warnings.append(f"tap '{testid}' on '{after['screen']}': nothing changed in {CHANGE_TIMEOUT} s")
                break
        self.last = after
        return after

    def hold(self, testid: str, seconds: float = 1.0, shot: str | None = None, scroll: bool = False) -> dict[str, Any]:
        """Press and keep the finger down (a hold-to-see), photograph it held if asked, then lift; the dump
        while held. With `scroll`, a button out of view is scrolled to first (a hold-to-see, `secret_<n>`, out of
        view is noted in the warnings: each player's should be in reach without scrolling)."""
        x, y = self.where(testid, scroll)
        self._x("mousemove", str(x), str(y), "mousedown", "1")
        time.sleep(seconds)  # a hold is a length of time, not an effect to wait for
        held = self.shot(shot) if shot else self.dump()
        self._x("mouseup", "1")
        return held

    def type_into(self, testid: str, text: str) -> None:
        """Tap a text field, clear it and type, as on a keyboard."""
        x, y = self.where(testid, scroll=True)
        self._x("mousemove", str(x), str(y), "click", "1")
        self.dump()  # the click taken in (the field focused) before a key goes to it
        self._x("key", "ctrl+a", "BackSpace")
        self._x("type", "--delay", "30", text)
        self.last = self.dump()

    def back(self) -> dict[str, Any]:
        """The phone's Back (Escape on a desktop)."""
        before = self._face(self.last)
        self._x("key", "Escape")
        until = time.monotonic() + CHANGE_TIMEOUT
        while True:
            self.last = self.dump()
            if self._face(self.last) != before or time.monotonic() > until:
                return self.last

    def off_window(self, testids: list[str]) -> list[str]:
        """Which of these controls are not all on the window as things stand (nothing scrolled first)."""
        dump = self.dump()
        return [t for t in testids if not dump["controls"].get(t, {}).get("in_window")]

    def shot(self, what: str, holds: list[str] | None = None) -> dict[str, Any]:
        """The whole X screen as tests/_screens/<tag>-<nnn>-<what>.png once the layout has settled, and what the
        app's dump finds on it (with `holds`, which of those buttons are off the window); the dump."""
        dump = self.last = self.dump()
        self.shot_count += 1
        path = self.shots / f"{self.tag}-{self.shot_count:03d}-{what}.png"
        subprocess.run(["import", "-window", "root", str(path)], env={**os.environ, "DISPLAY": DISPLAY},
                       check=True, timeout=60)
        seen = {"shot": path.name, "screen": dump["screen"], "message": dump.get("message", ""),
                **{k: dump.get(k, []) for k in ("cut_texts", "small_texts", "small_controls", "split_words",
                                                "covered_texts")}}
        if holds:
            seen["holds_off_window"] = [t for t in holds if not dump["controls"].get(t, {}).get("in_window")]
        self.seen.append(seen)
        return dump

    def __enter__(self) -> Window:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
        for warning in self.warnings:
            print("warning:", warning)

    def close(self) -> None:
        """Quit the app, stop the X screen, and write what the screenshots' dumps found."""
        (self.shots / f"{self.tag}-seen.json").write_text(
            json.dumps({"warnings": self.warnings, "shots": self.seen}, indent=1))
        if self.app.poll() is None:
            self.n += 1
            (self.listen / f"{self.n}.json").write_text(json.dumps({"quit": True}))
            try:
                self.app.wait(60)
            except subprocess.TimeoutExpired:
                self.app.kill()
        self.xvfb.terminate()
        self.xvfb.wait(30)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def new_game(w: Window, game: str, names: list[str], adds: int) -> None:
    """The new-game form as a table fills it: the game chosen, `adds` players added, each name typed."""
    w.tap("new_game")
    w.shot("new-game")
    w.tap(f"game_{game}", scroll=True)
    w.shot(f"{game}-chosen")
    for _ in range(adds):
        w.tap("players_more", scroll=True)
    for n, name in enumerate(names, start=1):
        w.type_into(f"name_p{n}", name)
