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
