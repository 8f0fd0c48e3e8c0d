"""The Syndicate's plot pad without a window: four cards by rank and suit, the preview before
confirming, one saved event, refusals that change nothing."""

from __future__ import annotations

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.companion.tables.syndicate.pad import SyndicatePad
from casebook.rules.log import GameLog


@pytest.fixture
def pad(syndicate_db, tmp_path):
    log = GameLog("syndicate", 1, ["Ann", "Ben", "Cat"], setup={})
    return SyndicatePad(Session.new(syndicate_db, log, Store(tmp_path / "saves")))


def pick(pad, rank, suit):
    pad.tap_rank(rank)
    pad.tap_suit(suit)


def test_a_plot_in_eight_taps_with_preview_and_save(pad, syndicate_db, tmp_path):
    assert [pad.slot_title(s) for s in ("lead", "first", "second", "face_down")] == \
        ["Ann leads", "Ben plays", "Cat plays", "Face down"]
    pick(pad, "8", "moons")      # the Diplomat
    assert pad.slot == "first"
    pick(pad, "9", "knots")      # the Merchant
    pick(pad, "7", "suns")       # the Castle
    assert pad.slot == "face_down"
    assert pad.preview()["totals"] == {"mastermind": 8, "enforcers": 9}
    assert pad.preview()["outcome"] == "foiled"
    assert (pad.counts("first"), pad.counts("second")) == (True, False)
    pick(pad, "2", "knots")      # the Author, face down: the rulebook's example
    assert pad.preview()["totals"] == {"mastermind": 10, "enforcers": 9}
    assert pad.preview()["points"] == {"mastermind": 1, "each_enforcer": 0}
    out = pad.confirm()
    assert out.ok, out.message
    assert pad.picks == {} and pad.slot == "lead"
    assert pad.session.state.scores == [1, 0, 0]
    saved, _ = Store(tmp_path / "saves").load(pad.session.game_id)
    assert saved.events == [{"action": "plot", "by": "Ann", "lead": "Diplomat", "face_down": "Author",
                             "enforcers": {"Ben": "Merchant", "Cat": "Castle"}}]
    assert pad.slot_title("lead") == "Ben leads"  # the mastermind moved to the left


def test_rank_before_suit_and_moving_a_card(pad):
    pad.tap_suit("moons")
    assert "rank first" in pad.message
    pick(pad, "A", "waves")
    pick(pad, "A", "waves")  # the same card again, for the first enforcer: it moves there
    assert pad.picks == {"first": "ace_of_waves"} and "moved" in pad.message
    pad.pick_slot("first")
    pad.pick_slot("first")  # a second tap on a filled slot empties it
    assert pad.picks == {}


def test_confirm_needs_three_cards_and_a_refusal_keeps_the_picks(pad):
    pick(pad, "9", "moons")
    out = pad.confirm()
    assert not out.ok and "Still to pick: Ben plays, Cat plays" in out.message
    pick(pad, "4", "wyrms")
    pick(pad, "2", "suns")
    assert pad.confirm().ok
    # Ben now plots; Cat looks for the Pact, which is in the discard pile: greyed out, and refused if tapped
    pick(pad, "8", "waves")
    pad.tap_rank("9")
    assert pad.out_of_play() == {"moons", "suns"}
    pad.tap_suit("suns")
    assert "Pact is in the discard pile" in pad.message
    assert pad.picks == {"lead": "mill"} and pad.slot == "first"
    assert len(pad.session.log.events) == 1


def test_moving_a_card_says_so(pad):
    pick(pad, "A", "waves")
    pick(pad, "A", "waves")
    assert pad.message == "The Ace of Waves moved from Ann leads to Ben plays."


def test_a_card_the_player_cannot_hold_is_greyed_with_why(pad):
    """Cat did not follow Ann's personality lead in turn 1 (she played the Castle): in turn 2 the pad greys the
    personality cards for her slot, and a tap on one says why; for Ann's slot the same suit is open."""
    for rank, suit in (("8", "moons"), ("9", "knots"), ("7", "suns"), ("2", "knots")):
        pick(pad, rank, suit)
    assert pad.confirm().ok
    pick(pad, "A", "waves")  # Ben leads; Cat plays first
    assert pad.slot == "first" and pad.who("first") == "Cat"
    pad.tap_rank("3")
    assert set(pad.greyed()) == {"suns", "knots", "leaves", "wyrms"}
    why = "Cat showed no personality card in turn 1 and has drawn none since: not the Painter."
    assert pad.greyed()["suns"] == why
    pad.tap_suit("suns")
    assert pad.message == why and "first" not in pad.picks
    pad.pick_slot("second")  # Ann's card: she followed, so the Painter may be hers
    pad.tap_rank("3")
    assert pad.greyed() == {}
    pad.tap_suit("suns")
    assert pad.picks["second"] == "painter"
