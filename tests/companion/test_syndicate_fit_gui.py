"""The Syndicate table in the real app at 360x640, 411x731 and 640x360: the last plot's summary is read whole,
in view without scrolling (it was cut by the state's scrolling panel), even on a turn whose draw empties the
pile (the reshuffle notice adds a line) after a plot with a face-down card; and a card the player of the slot
cannot hold (in the discard pile, or of a mark they showed they lack) is greyed out, drawn disabled and
readable, with the reason in the preview line and, for the one tapped, in the message slot."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.rules.log import GameLog
from tests.companion.test_app_gui import SCREENS, read_dumps, run
from tests.companion.test_disabled_gui import disabled_faults
from tests.companion.test_no_secret_shown_syndicate import PLAYERS, Table, syndicate_session
from tests.companion.test_syndicate_gui import card

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]


def saved_at_a_reshuffle(data: Path) -> Session:
    """A simulated game saved where the app would keep it, stopped at the first turn whose draw empties the pile
    right after a plot with a face-down card (the longest summary and the notice both on show)."""
    for seed in range(200):
        session = syndicate_session()
        table = Table(session.db, seed)
        while not session.is_over:
            event, played = table.plot(session.state)
            assert session.do(event).ok
            table.done(session.state, played)
            s = session.summary(None)
            if s["next_draw"] and s["next_draw"]["reshuffle"] and s["plots"][-1]["face_down"]:
                log = session.log
                saved = Session.new(session.db, GameLog(log.game, log.rules_version, log.players, [], None,
                                                        dict(log.setup)), Store(data / "games"))
                for e in log.events:
                    assert saved.do(e).ok
                return saved
    raise AssertionError("no simulated game reached a reshuffle after a face-down card")


@pytest.mark.parametrize("size", SIZES)
def test_the_last_plot_is_read_whole_and_a_card_nobody_can_play_is_greyed_with_why(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    tag = f"gs-{size[0]}x{size[1]}"
    saved = saved_at_a_reshuffle(tmp_path / "data")
    d = {n: str(tmp_path / f"{n}.json") for n in ("reshuffle", "greyed", "why", "undone", "after")}
    steps = [{"tap_prefix": "resume_"}, {"dump": d["reshuffle"]},
             {"shot": str(SCREENS / f"{tag}-syndicate-reshuffle.png")}, {"tap": "table_home"},
             {"tap": "new_game"}, {"tap": "game_syndicate"}]
    steps += [{"text": [f"new.p{i + 1}", name]} for i, name in enumerate(PLAYERS)] + [{"tap": "new_start"}]
    # turn 1, the rulebook's example: Cat does not follow Ann's personality lead (she plays the Castle)
    steps += card("8", "moons") + card("9", "knots") + card("7", "suns") + card("2", "knots") + [{"tap": "confirm"}]
    # turn 2: Ben leads the Ace of Waves; Cat's 3s: the Painter and the Savage are personalities, greyed for her
    steps += card("A", "waves") + [{"tap": "rank_3"}, {"dump": d["greyed"]},
                                   {"shot": str(SCREENS / f"{tag}-syndicate-greyed.png")},
                                   {"finger_down": "suit_suns"}, {"finger_up": True}, {"dump": d["why"]},
                                   {"shot": str(SCREENS / f"{tag}-syndicate-why.png")}, {"tap": "undo"},
                                   {"dump": d["undone"]}, {"tap": "rank_5"}, {"dump": d["after"]}, {"quit": True}]
    run(tmp_path, steps, size=size)
    data = read_dumps(d)
    for name, dump in data.items():
        assert dump["window"] == list(size) and dump["small_controls"] == [], (name, dump["small_controls"])
        assert dump["split_words"] == [], (name, dump["split_words"])
        if dump["summary"]["plots"]:
            assert dump["controls"]["last_plot"]["in_window"], (name, dump["controls"]["last_plot"])
    reshuffle = data["reshuffle"]
    assert reshuffle["summary"] == saved.summary(None)
    last = reshuffle["summary"]["plots"][-1]
    assert any(t.startswith(f"Turn {last['turn']}: ") and f"+ {last['face_down']} face down" in t
               for t in reshuffle["texts"])
    # told where the plot is entered, in view: the preview line (landscape: the message slot)
    who = reshuffle["summary"]["mastermind"]
    assert f"{who}'s draw empties the draw pile: shuffle the discards into a new one as you draw." in reshuffle["texts"]
    greyed = data["greyed"]
    off = {s for s in ("moons", "suns", "waves", "leaves", "wyrms", "knots")
           if greyed["controls"][f"suit_{s}"]["disabled"]}
    assert off == {"suns", "knots", "leaves", "wyrms"}
    assert "Greyed: Cat cannot play the 3 of Suns, Leaves, Wyrms, Knots now (tap one for why)." in greyed["texts"]
    assert disabled_faults(greyed, "light") == []
    why = data["why"]
    assert why["message"] == "Cat showed no personality card in turn 1 and has drawn none since: not the Painter."
    assert why["summary"] == greyed["summary"] and why["controls"]["slot_first"]  # nothing picked, nothing done
    # Undo says so, in landscape too (where the slot otherwise shows the preview); the next tap brings it back
    assert data["undone"]["message"] == "Undone." and data["undone"]["summary"]["turn"] == 1
    assert data["after"]["message"] == ("" if size[0] < size[1] else
                                        "Pick the lead and both enforcers' cards (and the face-down card, if any).")
