"""The secret view in the real app: the Mastermind's identity is never on the table; it shows only
while Ben holds his own button, and closes on release, on the next event, when the app is paused
or minimised, and after a few seconds."""

from __future__ import annotations

import pytest

from casebook.companion.widgets import SECRET_SECONDS
from tests.companion.test_app_gui import new_game_steps, read_dumps, run

pytest.importorskip("kivy")

SECRET = "You are Odile Varnier, the Hundred Faces."


def held(dump: str) -> list:
    """Ben holds his button long enough for it to open, and the screen is read while he holds it."""
    return [{"press": "secret_1"}, {"wait": 0.6}, {"dump": dump}]


def test_the_identity_shows_only_while_held_and_closes_itself(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("picker", "table", "tapped", "held", "released", "event",
                                                    "event_held", "minimised", "paused", "timed_out")}
    steps = new_game_steps() + [{"tap": "set_identity"}, {"dump": d["picker"]}, {"tap": "identity_odile_varnier"},
                                {"dump": d["table"]}, {"tap": "secret_1"}, {"dump": d["tapped"]}]
    steps += held(d["held"]) + [{"release": "secret_1"}, {"dump": d["released"]}]
    # held while Ann records a play: the event closes it
    steps += held(d["event_held"]) + [{"tap": "rank_9"}, {"tap": "suit_magnifying_glass"}, {"tap": "play"},
                                      {"dump": d["event"]}, {"release": "secret_1"}]
    steps += held("/dev/null") + [{"window": "on_minimize"}, {"dump": d["minimised"]}, {"release": "secret_1"}]
    steps += held("/dev/null") + [{"app": "on_pause"}, {"dump": d["paused"]}, {"app": "on_resume"},
                                  {"release": "secret_1"}]
    steps += held("/dev/null") + [{"wait": SECRET_SECONDS + 0.5}, {"dump": d["timed_out"]}, {"release": "secret_1"},
                                  {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    assert data["picker"]["screen"] == "table" and any("Ben only" in t for t in data["picker"]["texts"])
    assert data["table"]["summary"]["case"]["identity"] == "odile_varnier"  # set, and saved in the log
    for name in ("held", "event_held"):
        assert SECRET in data[name]["texts"], name
    for name in ("table", "tapped", "released", "event", "minimised", "paused", "timed_out"):
        texts = data[name]["texts"]
        assert not any("Odile" in t or "odile" in t for t in texts), (name, texts)
        assert "secret_1" in data[name]["controls"], name  # the way to see it stays on the table
    assert data["event"]["summary"]["events"] == 2  # the identity, then Ann's play


def test_a_real_finger_sliding_off_the_button_closes_the_identity(tmp_path):
    """A touch through the window, as a thumb does it: held (it opens), slid off the button (it closes at
    once, the finger still down), slid back (it stays shut), lifted."""
    d = {n: str(tmp_path / f"{n}.json") for n in ("held", "slid_off", "still_off", "slid_back", "lifted")}
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"},
                                {"finger_down": "secret_1"}, {"wait": 0.7}, {"dump": d["held"]},
                                {"finger_move": [0, -80]}, {"dump": d["slid_off"]}, {"wait": 0.6},
                                {"dump": d["still_off"]}, {"finger_move": [0, 0]}, {"wait": 0.6},
                                {"dump": d["slid_back"]}, {"finger_up": True}, {"dump": d["lifted"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    assert SECRET in data["held"]["texts"]
    for name in ("slid_off", "still_off", "slid_back", "lifted"):
        texts = data[name]["texts"]
        assert not any("Odile" in t for t in texts), (name, texts)
    assert data["lifted"]["summary"]["events"] == 1  # the identity only: the finger recorded nothing
