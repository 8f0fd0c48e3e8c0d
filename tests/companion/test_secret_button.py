"""The hold-to-see button without a window: a finger that slides off the button before it lifts still
closes the secret (a real table: the phone is passed on with a thumb still moving)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("kivy")

from casebook.companion import widgets  # noqa: E402


class Touch:
    """Just what ButtonBehavior reads from a touch: where it is, grabbing, and its user data."""

    def __init__(self, x: float, y: float):
        self.pos = (x, y)
        self.x, self.y = x, y
        self.ud: dict[str, Any] = {}
        self.grab_current: Any = None
        self.is_mouse_scrolling = False
        self.grabbed: list[Any] = []

    def grab(self, widget: Any) -> None:
        self.grabbed.append(widget)

    def ungrab(self, widget: Any) -> None:
        if widget in self.grabbed:
            self.grabbed.remove(widget)


@pytest.mark.parametrize("lift_at", [(50, 20), (500, 400)], ids=["on the button", "slid off the button"])
def test_any_lift_closes_the_secret(monkeypatch, lift_at):
    closed: list[bool] = []
    monkeypatch.setattr(widgets.SecretView, "close_all", classmethod(lambda cls: closed.append(True)))
    button = widgets.SecretButton("Ben", lambda: "You are the Traitor", pos=(0, 0), size=(200, 48))
    down = Touch(50, 20)
    assert button.on_touch_down(down)
    assert button._pending is not None  # the hold has started
    up = Touch(*lift_at)
    up.ud = down.ud
    up.grab_current = button
    button.on_touch_up(up)
    assert closed, "the lift did not close the secret"
    assert button._pending is None  # and a hold not yet long enough never opens it later


@pytest.mark.parametrize("move_to", [(500, 400), (50, -30)], ids=["far off", "just below"])
def test_a_finger_sliding_off_closes_the_secret_before_it_lifts(monkeypatch, move_to):
    """README: the secret closes when the finger slides off the button, not only when it lifts."""
    closed: list[bool] = []
    monkeypatch.setattr(widgets.SecretView, "close_all", classmethod(lambda cls: closed.append(True)))
    button = widgets.SecretButton("Ben", lambda: "You are the Traitor", pos=(0, 0), size=(200, 48))
    down = Touch(50, 20)
    assert button.on_touch_down(down)
    inside = Touch(120, 30)
    inside.ud, inside.grab_current = down.ud, button
    button.on_touch_move(inside)
    assert not closed and button._pending is not None  # a finger that stays on the button keeps it
    off = Touch(*move_to)
    off.ud, off.grab_current = down.ud, button
    button.on_touch_move(off)
    assert closed, "the secret stayed open with the finger off the button"
    assert button._pending is None  # nor does it open later while the finger is away
    back = Touch(60, 20)
    back.ud, back.grab_current = down.ud, button
    button.on_touch_move(back)
    assert button._pending is None  # back on the button it stays shut: a new hold, a new look
