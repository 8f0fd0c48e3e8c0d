"""The Graves unmasking on the shared screen: a guess is asked before it counts ("Ann guesses X: sure?",
with Cancel), and once a case is over the table says who the Mastermind was."""

from __future__ import annotations

import re

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.companion.tables.graves.pad import GravesPad
from casebook.rules.cards import load_database
from casebook.rules.log import GameLog

IDENTITY = "odile_varnier"


def at_the_unmasking(tmp_path) -> Session:
    """Case 1 played out (every location passed, The Bank Vault's decks said empty), Ben's identity entered."""
    db = load_database("graves")
    log = GameLog("graves", db.rules_version, ["Ann", "Ben"], [], 2026,
                  {"detective": "Ann", "colours": ["blue", "vermillion"], "identity": IDENTITY})
    session = Session.new(db, log, Store(tmp_path))
    while session.state.phase == "play":
        st, p = session.state, session.state.players
        if st.location.kind == "reveal_top_card" and not all(st.location.revealed):
            event = {"action": "reveal_top", "by": p[st.location.revealed.index(False)], "empty": True}
        else:
            event = {"action": "pass", "by": p[st.to_act]}
        assert session.do(event).ok
    assert session.state.phase == "unmasking"
    return session


def test_a_guess_asks_first_and_cancel_changes_nothing(tmp_path):
    session = at_the_unmasking(tmp_path)
    pad = GravesPad(session)
    events = len(session.log.events)
    pad.ask_guess("ezra_hollowmere")
    assert pad.guess_question() == "Ann guesses Ezra Hollowmere, the Spinner: sure?"
    assert len(session.log.events) == events and session.state.phase == "unmasking"
    pad.clear()  # Cancel (or Back)
    assert pad.guessing is None and pad.guess_question() == ""
    assert len(session.log.events) == events
    pad.ask_guess(IDENTITY)
    out = pad.confirm_guess()
    assert out.ok and pad.guessing is None
    assert session.state.done[0].guess == IDENTITY and session.state.case.number == 2
    # the table is told at once who the Mastermind was
    assert pad.message == "Case 1 is over: Ben was Odile Varnier, the Hundred Faces (Ann guessed right)."
    assert pad.set_identity("ezra_hollowmere").ok and pad.message == ""  # Ann's card for case 2: entered unseen
    assert not pad.confirm_guess().ok  # nothing asked: nothing recorded


def test_a_guess_the_table_has_seen_answered_cannot_be_undone(tmp_path):
    """The Detective who reads the answer could otherwise undo and guess again: undo stops after the guess,
    says why, and the events after it still undo."""
    session = at_the_unmasking(tmp_path)
    before = len(session.log.events)
    assert session.locked == 0 and session.undo() and session.redo()
    pad = GravesPad(session)
    pad.ask_guess("ezra_hollowmere")
    assert pad.confirm_guess().ok
    guessed = len(session.log.events)
    assert guessed == before + 1 and session.locked == guessed
    assert not session.undo() and not session.undo(5)
    assert len(session.log.events) == guessed and session.redo_stack == []
    session.go_to(before)  # History's "go back to event N": not past the guess either
    assert len(session.log.events) == guessed and session.state.done[0].guess == "ezra_hollowmere"
    reason = session.locked_reason()
    assert reason == f"Event {guessed} showed the table a secret: it and what came before cannot be undone."
    assert session.do({"action": "identity", "by": "Ann", "identity": IDENTITY}).ok  # case 2 goes on ...
    assert session.undo() and len(session.log.events) == guessed  # ... and what follows the guess undoes
    reopened = Session.resume(session.db, Store(tmp_path), session.game_id)
    assert reopened.locked == guessed and not reopened.undo()  # worked out from the log: a resumed game keeps it


def test_the_table_asks_before_a_guess_keeps_an_answered_one_and_names_the_mastermind_after(tmp_path):
    """In the real app: the guess asks first (Cancel changes nothing); after Sure, case 2's table says who Ben
    was; Undo then changes nothing and says why, and History cannot go back past the guess."""
    pytest.importorskip("kivy")
    from tests.companion.test_app_gui import (
        SCREENS,
        location_steps,
        new_game_steps,
        read_dumps,
        run,
    )

    SCREENS.mkdir(exist_ok=True)
    d = {n: str(tmp_path / f"{n}.json") for n in ("unmask", "asked", "cancelled", "back", "case2", "undone",
                                                  "history")}
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": f"identity_{IDENTITY}"}] + location_steps()
    steps += [{"dump": d["unmask"]}, {"tap": "guess_ezra_hollowmere"}, {"dump": d["asked"]},
              {"shot": str(SCREENS / "graves-guess-sure.png")}, {"tap": "guess_no"}, {"dump": d["cancelled"]},
              {"tap": "guess_livia_marchbank"}, {"key": 27}, {"dump": d["back"]},
              {"tap": "guess_ezra_hollowmere"}, {"tap": "guess_yes"}, {"dump": d["case2"]},
              {"shot": str(SCREENS / "graves-case2-mastermind.png")}, {"tap": "undo"}, {"dump": d["undone"]}, {"shot": str(SCREENS / "graves-undo-refused.png")},
              {"tap": "history"}, {"dump": d["history"]}, {"shot": str(SCREENS / "graves-history-answered-guess.png")},
              {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    asked = data["asked"]
    assert "Ann guesses Ezra Hollowmere, the Spinner: sure?" in "\n".join(asked["texts"])
    assert {"guess_yes", "guess_no"} <= set(asked["controls"])
    assert not [c for c in asked["controls"] if c.startswith("guess_") and c not in ("guess_yes", "guess_no")]
    assert asked["summary"] == data["unmask"]["summary"]  # asking recorded nothing
    assert data["cancelled"]["summary"] == data["unmask"]["summary"]
    assert "guess_ezra_hollowmere" in data["cancelled"]["controls"] and "guess_yes" not in data["cancelled"]["controls"]
    assert data["back"]["screen"] == "table" and data["back"]["summary"] == data["unmask"]["summary"]
    assert "guess_yes" not in data["back"]["controls"]  # Back closed the question, the table stays
    case2 = data["case2"]
    assert case2["summary"]["case"]["number"] == 2
    assert "Case 1: Ben was Odile Varnier. Ann guessed Ezra Hollowmere: wrong." in "\n".join(case2["texts"])
    # and at once where nothing needs scrolling: in the message slot above the action bar
    assert "Case 1 is over: Ben was Odile Varnier, the Hundred Faces (Ann guessed wrong)." in case2["texts"]
    # Undo changes nothing and says why, in the message slot
    assert data["undone"]["summary"] == case2["summary"]
    assert any("showed the table a secret" in t and "cannot be undone" in t for t in data["undone"]["texts"])
    history = data["history"]
    assert "Undone: tap to redo up to here" not in "\n".join(history["texts"])
    guessed = next(int(t.split(".")[0]) for t in history["texts"] if re.match(r"\d+\. Ann guessed", t))
    assert history["controls"][f"event_{guessed - 1}"]["disabled"]  # going back there would undo the guess
    assert not history["controls"][f"event_{guessed}"]["disabled"]


@pytest.mark.parametrize("size", [(411, 731), (640, 360)])
def test_the_guess_question_fits_other_windows(tmp_path, size):
    """A larger phone and a landscape phone: the question and both answers on screen, each at least 48 dp."""
    pytest.importorskip("kivy")
    from tests.companion.test_app_gui import (
        SCREENS,
        location_steps,
        new_game_steps,
        read_dumps,
        run,
    )

    SCREENS.mkdir(exist_ok=True)
    dump = str(tmp_path / "asked.json")
    shot = str(SCREENS / f"graves-guess-sure-{size[0]}x{size[1]}.png")
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": f"identity_{IDENTITY}"}] + location_steps()
    steps += [{"tap": "guess_ezra_hollowmere"}, {"dump": dump}, {"shot": shot}, {"quit": True}]
    run(tmp_path, steps, size=size)
    asked = read_dumps({"asked": dump})["asked"]
    assert asked["window"] == list(size) and asked["small_controls"] == []
    assert "Ann guesses Ezra Hollowmere, the Spinner: sure?" in "\n".join(asked["texts"])
    assert {"guess_yes", "guess_no"} <= set(asked["controls"])
