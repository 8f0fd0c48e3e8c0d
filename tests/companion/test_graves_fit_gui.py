"""The Graves table in the real app at 360x640, 411x731 and 640x360: what a player must do next is in view
without scrolling (case 2's new Mastermind setting her identity, even at The Park, whose row makes the pad
taller), and an ability the rules refuse at the active location (The Library: none at all) is greyed out with
its reason on the list instead of being offered and refused afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from casebook.companion.session import Session
from casebook.companion.tables.graves.pad import GravesPad
from casebook.rules.cards import load_database
from casebook.rules.log import GameLog
from tests.companion.test_app_gui import SCREENS, location_steps, new_game_steps, read_dumps, run
from tests.companion.test_disabled_gui import disabled_faults

SIZES = [(360, 640), (411, 731), (640, 360)]


def graves_session() -> Session:
    db = load_database("graves")
    log = GameLog("graves", db.rules_version, ["Ann", "Ben"], [], 2026, {"detective": "Ann"})
    return Session.new(db, log, None)


def test_no_ability_is_offered_at_the_library_and_each_says_why():
    session = graves_session()
    pad = GravesPad(session)
    assert session.state.location.name == "The Library"
    abilities = pad.abilities()
    assert abilities
    for card, _text, kind in abilities:
        assert pad.ability_refusal(card, kind) == "not at The Library: no ability may be used here"
        assert session.check({"action": "ability", "by": "Ann", "card": card, "target": "2 notebook"}) is not None
    pad.tap_rank("2")
    pad.tap_suit("notebook")
    assert "(no trump change at The Library)" in pad.selection_text()


def test_at_the_countryside_an_ability_with_nothing_to_take_says_so():
    session = graves_session()
    st = session.state
    while st.location.kind == "no_abilities":  # pass The Library by
        assert session.do({"action": "pass", "by": st.players[st.to_act]}).ok
        st = session.state
    pad = GravesPad(session)
    refusals = {kind: pad.ability_refusal(card, kind) for card, _t, kind in pad.abilities()}
    assert refusals["take_back"] == "no card here to take"  # nobody has played here yet
    assert refusals["time"] is None and refusals["draw"] is None


def case2_at_the_park(dumped: Any) -> list:
    """(From the start of the game) case 1 won by Ann, then in case 2 (Ben the Detective) both pass every location up to The Park;
    Ann, now the Mastermind, has not yet entered her identity card."""
    steps = [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"}] + location_steps()
    steps += [{"dump": dumped("unmask")}, {"tap": "guess_ezra_hollowmere"}, {"tap": "guess_yes"}]
    steps += [{"tap": "pass"}, {"tap": "pass"}, {"tap": "pass"}, {"tap": "pass"},  # The Library, The Countryside
              {"tap": "deck_empty"}, {"tap": "deck_empty"}, {"tap": "pass"}, {"tap": "pass"},  # The Bank Vault
              {"tap": "pass"}, {"tap": "pass"}]  # The Museum
    return steps


@pytest.mark.parametrize("size", SIZES)
def test_the_next_thing_to_do_is_in_view_and_refused_abilities_are_greyed(tmp_path, size):
    pytest.importorskip("kivy")
    SCREENS.mkdir(exist_ok=True)
    tag = f"gs-{size[0]}x{size[1]}"
    d = {n: str(tmp_path / f"{n}.json") for n in ("library", "abilities", "unmask", "park", "undone")}
    steps = new_game_steps() + [{"dump": d["library"]}, {"tap": "ability"}, {"dump": d["abilities"]},
                                {"shot": str(SCREENS / f"{tag}-graves-library-abilities.png")},
                                {"tap": "page_cancel"}]
    steps += case2_at_the_park(lambda name: d[name]) + [
        {"dump": d["park"]}, {"shot": str(SCREENS / f"{tag}-graves-case2-park.png")}, {"tap": "undo"},
        {"dump": d["undone"]}, {"quit": True}]
    run(tmp_path, steps, size=size)
    data = read_dumps(d)
    for name, dump in data.items():
        assert dump["window"] == list(size) and dump["small_controls"] == [], (name, dump["small_controls"])
    # case 2 at The Park: Ann's identity button is on screen, not scrolled away under the piles
    park = data["park"]
    assert park["summary"]["case"]["number"] == 2 and park["summary"]["case"]["identity"] is None
    assert park["summary"]["locations"][park["summary"]["active"]]["name"] == "The Park"
    assert park["controls"]["set_identity"]["in_window"], park["controls"]["set_identity"]
    assert "Ann: set your identity" in park["texts"]
    # and what the Park asks of the player to act: the discards row and the line saying who acts (landscape: the
    # row under the strip, the line in the message slot; the pad column holds ranks and suits alone)
    assert park["controls"]["park_minus"]["in_window"] and park["controls"]["park_plus"]["in_window"]
    assert any(t.startswith("Ben to act (turn 1, lead Ben)") for t in park["texts"])
    assert data["undone"]["message"] == "Undone."  # in landscape too, where the slot otherwise says who acts
    # the unmasking: every name to guess in view
    unmask = data["unmask"]
    guesses = [t for t in unmask["controls"] if t.startswith("guess_")]
    assert len(guesses) == 5 and all(unmask["controls"][t]["in_window"] for t in guesses), unmask["controls"]
    # The Library: every ability greyed, each with its reason, drawn as disabled and readable
    abilities = data["abilities"]
    keys = [t for t in abilities["controls"] if t.startswith("ab_")]
    assert len(keys) >= 10 and all(abilities["controls"][t]["disabled"] for t in keys)
    assert sum("not at The Library: no ability may be used here" in t for t in abilities["texts"]) == len(keys)
    assert disabled_faults(abilities, "light") == []
    assert abilities["split_words"] == []
