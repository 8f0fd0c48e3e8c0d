"""The Hasty Accusations pad without a window: a play in two taps, a card face up at the loupe with its
choice, refusals in the engine's words that change nothing, a tie picked by tapping a pile, a review
walked card by card to a murder and an elimination; the new-game form shaped by players and toggles."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from casebook.companion.session import Session  # noqa: E402
from casebook.companion.store import Store  # noqa: E402
from casebook.companion.tables.hasty.pad import HastyPad  # noqa: E402
from casebook.companion.tables.hasty.table import NEW_GAME  # noqa: E402
from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.log import GameLog  # noqa: E402

ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow"]
SECRETS = {"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "cornelius_brandt"}


@pytest.fixture(scope="module")
def db():
    return load_database("hasty")


def new_pad(db, tmp_path, variants=(), secrets=None, row=ROW):
    log = GameLog("hasty", db.rules_version, list(SECRETS), list(variants), None,
                  {"sets": ["base"], "row": list(row), "secrets": secrets or dict(SECRETS),
                   "colours": ["blue", "vermillion", "green"]})
    return HastyPad(Session.new(db, log, Store(tmp_path / "saves")))


def test_a_face_down_play_is_two_taps(db, tmp_path):
    pad = new_pad(db, tmp_path)
    assert pad.tap_suspect("hattie_quill") is None and pad.picked == "hattie_quill"
    assert "face down on [b]Hattie Quill" in pad.prompt()
    out = pad.face_down()
    assert out.ok, out.message
    assert pad.session.log.events == [{"action": "play", "by": "Ann", "at": "hattie_quill"}]
    assert pad.picked is None and pad.state.loupe == 1 and pad.active() == "Ben"
    pad.tap_suspect("silas_penhallow")
    pad.tap_suspect("silas_penhallow")  # tapped again: let go
    assert pad.picked is None and not pad.face_down().ok


def test_at_the_loupe_the_card_is_named_and_refusals_change_nothing(db, tmp_path):
    pad = new_pad(db, tmp_path)
    pad.tap_suspect("dorian_fitch")  # the loupe starts on the first suspect
    assert pad.at_loupe() and "tap the card (its effect happens now)" in pad.prompt()
    refused = pad.face_down()
    assert not refused.ok and "has the loupe" in refused.message
    refused = pad.tap_card("letter_opener")  # can't be played at the loupe
    assert not refused.ok and refused.message == "Play restrictions: Letter Opener can't be played at the loupe"
    played = pad.tap_card("family_lawyer")  # must be played at your own suspect: Dorian Fitch is Ann's
    assert played is not None and played.ok, played.message
    assert pad.session.log.events[-1] == {"action": "play", "by": "Ann", "at": "dorian_fitch", "card": "family_lawyer"}
    assert pad.session.summary(None)["row"][0]["face_up"] == ["Family Lawyer"]


def test_a_card_that_needs_a_choice_waits_for_it(db, tmp_path):
    pad = new_pad(db, tmp_path)
    pad.tap_suspect("dorian_fitch")
    assert pad.tap_card("wrong_turning") is None  # the loupe goes to a suspect Ann chooses
    assert pad.card == "wrong_turning" and pad.choices("wrong_turning") == ("target", ROW)
    assert pad.session.log.events == []
    out = pad.tap_suspect("hattie_quill")  # a suspect tapped in the row is the choice
    assert out is not None and out.ok, out.message
    assert pad.session.log.events[-1]["target"] == "hattie_quill"
    assert pad.card is None and pad.state.row[pad.state.loupe] == "silas_penhallow"  # then one step on


def test_a_card_refused_before_its_choice_asks_nothing(db, tmp_path):
    pad = new_pad(db, tmp_path)
    for _ in range(3):  # every Wrong Turning lies face up: nobody can hold a fourth
        out = pad.session.do({"action": "play", "by": pad.active(), "at": pad.state.row[pad.state.loupe],
                              "card": "wrong_turning", "target": "dorian_fitch"})
        assert out.ok, out.message
    pad.tap_suspect(pad.state.row[pad.state.loupe])
    refused = pad.tap_card("wrong_turning")
    assert refused is not None and not refused.ok and "all 3 copies" in refused.message
    assert pad.card is None and len(pad.session.log.events) == 3


def test_a_card_barred_from_its_players_own_suspect_is_not_checked_there(db, tmp_path):
    """The phone is seen by all: a refusal would tell that Dorian Fitch is Ann's. Ann keeps the rule herself."""
    pad = new_pad(db, tmp_path)
    pad.tap_suspect("dorian_fitch")  # Ann's own suspect, at the loupe
    assert pad.tap_card("filing_mixup") is None and pad.card == "filing_mixup"  # its choice, as anywhere
    assert pad.session.log.events == []


def test_a_tie_is_picked_by_tapping_a_pile_and_the_review_walks_to_a_murder(db, tmp_path):
    pad = new_pad(db, tmp_path, variants=["no_safe_round"])
    for at in ("marguerite_lowe", "silas_penhallow", "marguerite_lowe", "silas_penhallow", "cornelius_brandt"):
        pad.tap_suspect(at)
        assert pad.face_down().ok
    assert pad.state.phase == "pick" and "picks the pile to review" in pad.prompt()
    refused = pad.tap_suspect("cornelius_brandt")
    assert refused is not None and not refused.ok and "not among the largest piles" in refused.message
    assert pad.tap_suspect("marguerite_lowe").ok
    assert pad.state.phase == "reveal" and "Review of Marguerite Lowe" in pad.prompt()
    assert pad.tap_card("bitter_almonds").ok  # 1 of 2: no murder yet
    out = pad.tap_card("bitter_almonds")
    assert out.ok and "Marguerite Lowe is murdered" in out.message and "Ben is eliminated" in out.message
    s = pad.session.summary(None)
    assert s["out"] == ["Ben"] and s["phase"] == "play"
    assert [r["name"] for r in s["row"] if not r["alive"]] == ["Marguerite Lowe"]


def test_a_revealed_card_with_a_choice_is_entered_in_two_taps(db, tmp_path):
    pad = new_pad(db, tmp_path, variants=["no_safe_round"])
    for at in ("hattie_quill", "hattie_quill", "hattie_quill", "silas_penhallow", "cornelius_brandt"):
        pad.tap_suspect(at)
        assert pad.face_down().ok
    assert pad.state.phase == "reveal"
    assert pad.tap_card("filing_mixup") is None  # the cards under it go where the active player chooses
    key, options = pad.choices("filing_mixup")
    assert key == "target" and "hattie_quill" not in options
    assert pad.choose("dorian_fitch").ok
    assert pad.session.summary(None)["row"][0]["pile"] == 2


def test_a_stuck_player_is_refused_while_a_card_can_be_played(db, tmp_path):
    pad = new_pad(db, tmp_path)
    out = pad.stuck("bitter_almonds")
    assert not out.ok and "Bitter Almonds can be played" in out.message and pad.session.log.events == []


def test_the_new_game_form_follows_players_and_toggles(db):
    form = NEW_GAME.for_form(db, 7, ["traitor"], {"row": ROW[:3]}, False)
    assert form.picks[0].count == 11  # 9 for seven players, 2 more with the Traitor
    assert [s.player for s in form.secrets] == list(range(7)) and all(s.into == "secrets" for s in form.secrets)
    assert [c for c, _ in form.secrets[0].choices] == [*ROW[:3], "traitor"]  # the row tapped so far
    assert NEW_GAME.for_form(db, 5, [], {}, False).picks[0].count == 7
    assert NEW_GAME.for_form(db, 5, [], {}, True).secrets == []  # a seed deals them: nothing to enter
    setup = NEW_GAME.setup(["Ann", "Ben"], ["blue", "green"], ["set_advanced", "set_expert", "traitor"])
    assert setup == {"colours": ["blue", "green"], "sets": ["advanced", "expert"], "variants": ["traitor"]}
    assert NEW_GAME.setup(["Ann", "Ben"], ["blue", "green"], [])["sets"] == ["base"]


def test_each_secret_is_its_own_players_and_a_peek_adds_to_the_peekers_only(db, tmp_path):
    from casebook.companion.tables.hasty.table import Table

    log = GameLog("hasty", db.rules_version, list(SECRETS), ["traitor"], None,
                  {"sets": ["advanced"], "row": ROW, "secrets": {**SECRETS, "Cat": "traitor"}})
    session = Session.new(db, log, Store(tmp_path / "saves"))
    table = Table(None, None, session)
    secrets = table.secrets(session.summary(None))
    assert secrets["Ann"] == "Your secret suspect: [b]Dorian Fitch[/b]"
    assert secrets["Ben"] == "Your secret suspect: [b]Marguerite Lowe[/b]"
    assert secrets["Cat"].startswith("You are [b]the Traitor[/b]")
    pad = table.pad
    pad.tap_suspect("dorian_fitch")
    assert pad.tap_card("spyglass") is None and pad.choices("spyglass") == ("player", ["Ben", "Cat"])
    assert pad.choose("Cat").ok  # Ann looks at Cat's secret suspect: the Traitor
    secrets = table.secrets(session.summary(None))
    assert secrets["Ann"].endswith("You know: Cat's is the Traitor")
    assert "You know" not in secrets["Ben"] and "You know" not in secrets["Cat"]
    assert not any(r["owner"] for r in session.summary(None)["row"])  # nothing marked on the table
