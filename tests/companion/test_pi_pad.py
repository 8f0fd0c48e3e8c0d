"""The P.I. pad without a window: the rulebook's worked example played by taps, from a deal entered
tile by tile and cases entered by their holders, with the answers the table is told; a seeded deal,
refusals that change nothing, misleading."""

from __future__ import annotations

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.companion.tables.pi.pad import PiPad
from casebook.rules.games import pi
from casebook.rules.log import GameLog
from tests.rules.test_pi_engine import CASES
from tests.rules.test_pi_support import EXAMPLE_DISPLAY, EXAMPLE_TILES, pi_database

PLAYERS = ["Blue", "Red", "Green"]  # clockwise: Blue holds Red's case, Red Green's, Green Blue's


@pytest.fixture
def db():
    return pi_database()


def new_pad(db, tmp_path, seed=None, players=PLAYERS):
    log = GameLog("pi", db.rules_version, list(players), seed=seed,
                  setup={"colours": ["blue", "red", "green", "yellow", "purple"][:len(players)]})
    return PiPad(Session.new(db, log, Store(tmp_path / "saves")))


def enter_deal(pad):
    """The table's deal by taps: each district's suspect then crime tile in board order, then the display."""
    pad.start_deal()
    for d in pi.city(pad.session.db).districts:
        assert pad.deal_district() == d
        suspect, crime = EXAMPLE_TILES[d]
        pad.tap_tile(suspect)
        pad.tap_tile(crime)
    assert pad.deal_district() is None
    for card in EXAMPLE_DISPLAY:
        pad.tap_display(card)
    return pad.confirm_deal()


def enter_cases(pad):
    for i, who in enumerate(PLAYERS):
        pad.open_case(i)
        for kind, e in zip(pi.KINDS, CASES[who], strict=True):
            pad.tap_case(kind, e)
        out = pad.confirm_case()
        assert out.ok, out.message
        assert pad.case_by is None and pad.case == {}  # the case left the screen at once


def investigate(pad, district):
    pad.tap_district(district)
    out = pad.confirm()
    assert out.ok, out.message
    return pad.told()


def evidence(pad, card, drawn):
    pad.tap_mode("evidence")
    pad.tap_card(card)
    out = pad.confirm()
    assert out.ok and pad.drawing and "draw to refill" in pad.message
    pad.tap_card(drawn)
    assert not pad.drawing, pad.message
    return pad.told()


def solve(pad, *named):
    pad.tap_mode("solve")
    for kind, e in zip(pi.KINDS, named, strict=True):
        assert pad.solve_step() == kind
        if kind == "location":
            pad.tap_district(e)
        else:
            pad.tap_solve(kind, e)
    out = pad.confirm()
    assert out.ok, out.message
    return pad.told()


def test_the_worked_example_by_taps(db, tmp_path):
    pad = new_pad(db, tmp_path)
    out = enter_deal(pad)
    assert out.ok, out.message
    assert pad.state.phase == "cases" and pad.draws_named()
    enter_cases(pad)
    assert pad.state.phase == "play" and pad.player() == "Blue"
    investigate(pad, "theatre_row")
    assert pad.preview().startswith("Red: tap a district to investigate")
    assert investigate(pad, "little_italy") == "Red: place 1 disc and 1 cube on your investigator in Little Italy"
    investigate(pad, "northgate")
    investigate(pad, "hilltop")
    assert investigate(pad, "main_street") == "Red: place 2 cubes on your investigator in Main Street"
    evidence(pad, "gasworks", "shipyard")
    evidence(pad, "hilltop", "rail_yards")
    assert evidence(pad, "waterfront", "main_street") == "Red: place a cube on Waterfront"
    evidence(pad, "canal_street", "mr_whisper")
    evidence(pad, "velvet_vance", "lantern_quarter")
    assert evidence(pad, "murder", "extortion") == "Red: place a disc on the Murder tile"
    investigate(pad, "rail_yards")
    assert solve(pad, "velvet_vance", "arson", "hilltop").startswith("Blue: right! Velvet Vance, Arson, Hilltop: 7 points")
    assert solve(pad, "bubbles", "murder", "downtown") == \
        "Red: right! Bubbles, Murder, Downtown: 7 points. Remove your cubes; your discs go on the three tiles named"
    evidence(pad, "arson", "bank_robbery")
    st = pad.state
    assert (st.mini, st.phase) == (2, "deal")  # Green's last turn ended mini-game 1
    assert [p[0] for p in st.points] == [7, 7, 0] and st.investigators_left == [3, 3, 3]
    saved, _ = Store(tmp_path / "saves").load(pad.session.game_id)
    assert len(saved.events) == 1 + 3 + 15
    assert saved.events[5] == {"action": "investigate", "by": "Red", "district": "little_italy"}
    assert saved.events[9] == {"action": "evidence", "by": "Green", "card": "gasworks", "draw": "shipyard"}


def test_tiles_entered_offer_only_what_is_left_and_take_back(db, tmp_path):
    pad = new_pad(db, tmp_path)
    pad.start_deal()
    pad.tap_tile("velvet_vance")
    assert pad.slot == 1 and None in pad.tile_choices()  # four No Crime tiles
    pad.tap_tile("arson")
    assert "velvet_vance" not in pad.tile_choices()
    pad.tap_tile("velvet_vance")  # already on the board: nothing happens
    assert pad.slot == 0 and len(pad.tiles) == 1
    pad.tap_tile(None)
    pad.tap_tile(None)
    pad.tap_tile(None)
    pad.tap_tile(None)
    assert None not in pad.tile_choices()  # both No Suspect tiles are placed
    pad.take_back_tile()
    assert pad.slot == 1 and pad.half == (None, None) and len(pad.tiles) == 2
    out = pad.confirm_deal()
    assert not out.ok and "2 of 14" in out.message and pad.session.state.phase == "deal"


def test_a_seeded_deal_answers_without_naming_draws(db, tmp_path):
    pad = new_pad(db, tmp_path, seed=7, players=["Ann", "Ben", "Cat", "Dan", "Eve"])
    assert pad.deal_by_seed().ok
    st = pad.state
    assert st.phase == "play" and not pad.draws_named() and all(st.cases)
    card = st.display[0]
    want = pi.answer_for(st, st.current, "evidence", card)["text"]
    pad.tap_mode("evidence")
    pad.tap_card(card)
    assert pad.confirm().ok and not pad.drawing
    assert pad.told() == want and pad.state.events == 2
    pad.session.undo()
    assert pad.told() == ""  # the answer goes with its event


def test_refusals_change_nothing(db, tmp_path):
    pad = new_pad(db, tmp_path)
    enter_deal(pad)
    pad.open_case(0)
    pad.tap_case("suspect", "bubbles")
    assert not pad.confirm_case().ok and pad.state.cases[0] is None
    enter_cases(pad)
    out = pad.confirm()
    assert not out.ok and "Tap a district" in out.message
    pad.tap_mode("solve")
    pad.tap_solve("suspect", "bubbles")
    pad.tap_solve("suspect", "bubbles")  # a second tap takes it back
    assert pad.picks == {} and not pad.confirm().ok
    wrong = solve(pad, "bubbles", "arson", "hilltop")
    assert wrong.startswith("Blue: wrong") and pad.state.penalties == [1, 0, 0]


def test_misled_scores_seven_and_zero(db, tmp_path):
    pad = new_pad(db, tmp_path)
    enter_deal(pad)
    enter_cases(pad)
    assert pad.misled("Green").ok
    st = pad.state
    assert st.points[2][0] == 7 and st.points[1][0] == 0  # Red holds Green's case
    assert st.mini == 2  # Blue alone is left, and nobody has solved: the mini-game is over
    assert pad.told() == "Green was misled: Green scores 7, Red 0. Mini-game 1 ends"


def test_three_mini_games_to_the_end(db, tmp_path):
    """Seeded deals, a misled player each mini-game: the first player moves on, the game ends after three."""
    pad = new_pad(db, tmp_path, seed=11)
    for mini in (1, 2, 3):
        assert pad.deal_by_seed().ok and pad.state.mini == mini
        assert pad.player() == PLAYERS[mini - 1]  # the first-player marker moves clockwise
        assert pad.misled(PLAYERS[mini % 3]).ok
    st = pad.state
    assert st.phase == "over" and pi.totals(st) == [7, 7, 7]
    assert pi.result(st)["decided_by"] == "tie"
    assert not pad.deal_by_seed().ok  # nothing more to deal


def test_the_card_taken_when_the_deck_is_empty_can_be_named_as_the_draw(db, tmp_path):
    """A card that earns a disc or cube is discarded before the discards are shuffled into a new deck
    (the rulebook's order): the pad offers it among the cards the refill may be drawn from, and taps it."""
    events = []  # the log of the engine's test of the same rule (tests/rules/test_pi_engine.py)
    c = pi.city(db)
    deck = [e for e in c.kind if e not in EXAMPLE_DISPLAY]
    events.append({"action": "deal", "tiles": EXAMPLE_TILES, "display": EXAMPLE_DISPLAY,
                   "cases": {"Ben": ["bubbles", "murder", "downtown"], "Ann": ["velvet_vance", "arson", "hilltop"]}})
    taken = "canal_street"
    for i, drawn in enumerate(deck):
        events.append({"action": "evidence", "by": ("Ann", "Ben")[i % 2], "card": taken, "draw": drawn})
        taken = drawn
    log = GameLog("pi", db.rules_version, ["Ann", "Ben"], setup={"colours": ["blue", "red"]})
    session = Session.new(db, log, Store(tmp_path / "saves"))
    for event in events:
        assert session.do(event).ok
    pad = PiPad(session)
    assert pad.state.deck == [] and pad.player() == "Ben"
    pad.tap_card("arson")  # Arson earns Ben a disc: discarded, then the discards become the deck
    assert "arson" in pad.deck_cards()
    assert pad.confirm().ok and pad.drawing
    pad.tap_card("arson")  # the table drew it straight back
    assert "arson" in pad.state.display and pad.state.reshuffles == 1
