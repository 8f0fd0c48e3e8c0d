"""The half-entered Clash Initial Setup and Crime Plan kept beside the save on every tap: back after a restart,
gone once recorded or taken back; a damaged, foreign or out-of-date draft is left out with one sentence and
the saved game is never touched."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from casebook.companion.session import Session  # noqa: E402
from casebook.companion.store import Store  # noqa: E402
from casebook.companion.tables.clash.pad import ClashPad  # noqa: E402
from casebook.companion.tables.clash.table import Table  # noqa: E402
from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.log import GameLog  # noqa: E402
from tests.companion.test_clash_pad import PLAN, SEED  # noqa: E402

SETUP_THREADS = (0, 0, 1, 2, 0, 1)
SETUP_NAMES = ("interrogation", "intimidation", "informant", "paid_informer", "keen_eye", "coded_message")


@pytest.fixture(scope="module")
def db():
    return load_database("clash")


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "games", titles={"clash": "Clash of Minds"})


def saved_pad(db, store, plan=True, site=True) -> ClashPad:
    """A saved Clash game with the plan laid and the first site tapped: the Initial Setup next."""
    log = GameLog("clash", db.rules_version, ["Ann", "Ben"], [], SEED, {"colours": ["green", "vermillion"]})
    pad = ClashPad(Session.new(db, log, store))
    if plan:
        for p in PLAN:
            pad.tap_plan(p)
        assert pad.lay_plan().ok
    if site:
        assert pad.tap_site("waterloo_station").ok
    return pad


def reopened(db, store, pad: ClashPad) -> ClashPad:
    """The game opened again as after a kill: a new session read from the files, a new pad on it."""
    return ClashPad(Session.resume(db, store, pad.session.game_id))


def test_the_setup_laid_so_far_comes_back_after_a_restart(db, store):
    pad = saved_pad(db, store)
    for t in SETUP_THREADS[:3]:
        pad.tap_thread(t)
    again = reopened(db, store, pad)
    assert again.laid == [("holmes", 0), ("moriarty", 0), ("holmes", 1)]
    assert again.need() == "lay" and "4 of 6" in again.prompt()
    assert again.message == "The Initial Setup as tapped before the app stopped is back: 3 of 6 laid."
    assert again.session.warning is None
    for t in SETUP_THREADS[3:]:  # the game goes on from there: laid, named, recorded
        again.tap_thread(t)
    for c in SETUP_NAMES[:2]:
        again.tap_card(c)
    third = reopened(db, store, again)
    assert third.laid == again.laid and third.named == list(SETUP_NAMES[:2])
    for c in SETUP_NAMES[2:]:
        third.tap_card(c)
    assert third.record_setup().ok
    assert not store.draft_path(pad.session.game_id).exists()
    after = reopened(db, store, third)
    assert after.laid == [] and after.state.phase == "turns" and after.message == ""


def test_taken_back_to_nothing_or_cleared_leaves_no_draft(db, store):
    pad = saved_pad(db, store)
    path = store.draft_path(pad.session.game_id)
    pad.tap_thread(2)
    pad.tap_thread(1)
    assert path.exists()
    pad.take_back()
    assert reopened(db, store, pad).laid == [("holmes", 2)]
    pad.take_back()
    assert not path.exists() and reopened(db, store, pad).laid == []
    pad.tap_thread(0)
    pad.clear()  # Back, or an undo
    assert not path.exists()


def test_the_plan_tapped_so_far_comes_back_to_moriarty_s_page_only(db, store):
    pad = saved_pad(db, store, plan=False, site=False)
    pad.tap_plan(PLAN[0])
    pad.tap_plan(PLAN[1])
    again = reopened(db, store, pad)
    assert again.plan == PLAN[:2] and again.need() == "plan"
    assert again.message == ""  # nothing said of it on the table
    assert not any(name in again.prompt() for name in ("Lady", "Kidnapping"))
    again.tap_plan(PLAN[2])
    assert again.lay_plan().ok and not store.draft_path(pad.session.game_id).exists()


def test_a_draft_the_log_moved_past_was_recorded_and_goes_quietly(db, store):
    pad = saved_pad(db, store)
    for t in SETUP_THREADS:
        pad.tap_thread(t)
    for c in SETUP_NAMES:
        pad.tap_card(c)
    path = store.draft_path(pad.session.game_id)
    kept = path.read_bytes()
    assert pad.record_setup().ok
    path.write_bytes(kept)  # as if killed after the six events were saved, before the draft was cleared
    again = reopened(db, store, pad)
    assert again.laid == [] and again.session.warning is None and not path.exists()


def test_a_draft_cut_or_changed_at_any_byte_is_left_out_with_one_sentence(db, store):
    pad = saved_pad(db, store)
    for t in SETUP_THREADS[:3]:
        pad.tap_thread(t)
    gid = pad.session.game_id
    path = store.draft_path(gid)
    whole = path.read_bytes()
    save = store.path(gid).read_bytes()
    events = list(pad.session.log.events)
    broken = [whole[:cut] for cut in range(0, len(whole), 7)] + [whole.replace(b'"laid"', b'"lain"'),
                                                                 whole.replace(b"holmes", b"watson", 1), b"\xff\xfe"]
    for bad in broken:
        path.write_bytes(bad)
        again = Session.resume(db, store, gid)
        fresh = ClashPad(again)
        assert fresh.laid == [] and again.log.events == events, bad[:60]
        assert again.warning == ("The half-entered input saved for this game was damaged and is left out: "
                                 "tap it in again."), bad[:60]
        assert not path.exists() and path.with_name(path.name + ".damaged").exists()
        assert store.path(gid).read_bytes() == save  # the saved game is untouched
        assert Session.resume(db, store, gid).warning is None  # said once: the draft is set aside


def test_a_draft_of_another_game_or_another_point_is_left_out(db, store):
    one, two = saved_pad(db, store), saved_pad(db, store)
    assert one.session.game_id != two.session.game_id
    for t in SETUP_THREADS[:2]:
        one.tap_thread(t)
    store.draft_path(two.session.game_id).write_bytes(store.draft_path(one.session.game_id).read_bytes())
    again = Session.resume(db, store, two.session.game_id)
    assert ClashPad(again).laid == []
    assert again.warning == (f"A half-entered Initial Setup saved beside this game belongs to another game "
                             f"({one.session.game_id}) and is left out.")
    one.session.undo()  # the site taken back in History (the pad's laid cards left as they were)
    again = Session.resume(db, store, one.session.game_id)
    assert ClashPad(again).laid == [] and again.state.phase == "site"
    assert again.warning == ("A half-entered Initial Setup was saved after event 2, but the game now stands at "
                             "event 1; it is left out: tap it in again.")


def test_a_sealed_draft_that_does_not_fit_the_game_is_left_out(db, store):
    pad = saved_pad(db, store)
    pad.tap_thread(0)
    gid = pad.session.game_id
    for data in ({"laid": [["moriarty", 0]]}, {"laid": [["holmes", 7]]}, {"laid": "holmes"},
                 {"named": ["interrogation"]}, {"plan": ["lady_vale"]}):
        store.save_draft(gid, pad.session.log, "Initial Setup", data)
        fresh = ClashPad(Session.resume(db, store, gid))
        assert (fresh.plan, fresh.laid, fresh.named) == ([], [], []), data
        assert "does not fit it and is left out" in fresh.message
        assert not store.draft_path(gid).exists()


def test_deleting_a_game_deletes_its_draft(db, store):
    pad = saved_pad(db, store)
    pad.tap_thread(0)
    gid = pad.session.game_id
    assert [g.id for g in store.games()] == [gid]  # the draft is no game of its own
    store.delete(gid)
    assert list(store.folder.iterdir()) == []


def test_back_in_the_initial_setup_takes_back_one_card_and_an_undo_clears_it_all(db, store):
    pad = saved_pad(db, store)
    table = Table(None, None, pad.session)  # what the frame's Back and Undo call
    for t in SETUP_THREADS:
        table.pad.tap_thread(t)
    table.pad.tap_card(SETUP_NAMES[0])
    assert table.has_draft()
    table.clear()  # Back: the card just named
    assert table.pad.named == [] and len(table.pad.laid) == 6
    table.clear()  # Back again: the last card laid
    assert len(table.pad.laid) == 5
    assert len(reopened(db, store, table.pad).laid) == 5  # and so it is kept
    assert table.session.undo()  # the site taken back: the setup laid on it goes too
    table.clear()
    assert table.pad.laid == [] and not store.draft_path(pad.session.game_id).exists()


def test_a_draft_that_cannot_be_written_stops_nothing_and_says_so(db, store):
    pad = saved_pad(db, store)
    pad.tap_thread(0)
    path = store.draft_path(pad.session.game_id)
    path.unlink()
    path.mkdir()  # the draft's name taken by a folder: the write fails
    pad.tap_thread(1)
    assert pad.laid == [("holmes", 0), ("moriarty", 1)]
    assert pad.message.startswith("The Initial Setup tapped so far could not be saved (")
    assert pad.message.endswith("): it is kept only until the app stops.")
    assert pad.session.log.events and store.open(pad.session.game_id).log is not None
