"""Saved games on disk: the seal line (count and checksum), damage at any byte, undone events kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store, format_save, read_copy
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"


def referee_log(first: int) -> GameLog:
    """The referee's standard two-case game, cut to its first events."""
    log = parse_log((LOGS / "standard_two_cases.yaml").read_text(), "standard_two_cases.yaml", Problems())
    assert log is not None
    log.events = log.events[:first]
    log.event_places = []
    return log


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "saves", titles={"graves": "Graves"})


def played(graves_db, store, events: int, undo: int = 0) -> Session:
    """A game saved after every event, the way the app plays it; the last `undo` events undone."""
    full = referee_log(events)
    s = Session.new(graves_db, GameLog(full.game, 1, full.players, setup=full.setup), store)
    for event in full.events:
        assert s.do(event).ok
    if undo:
        s.undo(undo)
    return s


def test_a_save_states_its_events_and_checksum_and_stays_a_replayable_log(graves_db, store):
    s = played(graves_db, store, 12, undo=2)
    text = store.path(s.game_id).read_text()
    first = text.splitlines()[0]
    assert first.startswith("# casebook save: 10 events, 2 undone, sha256 ")
    log = parse_log(text, "save.yaml", Problems())  # what `casebook replay` reads: the comments are ignored
    assert log is not None and log.events == s.log.events
    assert replay(graves_db, log).applied == 10
    assert "# undone (Redo brings them back in this order):" in text


def test_casebook_replay_reads_a_save(graves_db, store, capsys):
    from casebook.cli import main

    s = played(graves_db, store, 8, undo=1)
    assert main(["replay", str(store.path(s.game_id))]) == 0
    assert "Ann" in capsys.readouterr().out


def test_redo_survives_a_restart(graves_db, store):
    s = played(graves_db, store, 12, undo=3)
    undone = list(reversed(s.redo_stack))
    again = Session.resume(graves_db, store, s.game_id)
    assert again.warning is None
    assert list(reversed(again.redo_stack)) == undone
    assert again.redo(3)
    assert again.log.events == referee_log(12).events
    assert again.state == played(graves_db, store, 12).state


def test_a_new_event_drops_the_saved_undone_ones(graves_db, store):
    s = played(graves_db, store, 6, undo=2)
    assert s.do(referee_log(5).events[4]).ok
    assert Session.resume(graves_db, store, s.game_id).redo_stack == []


def test_a_save_cut_at_every_byte_is_caught_and_the_newest_good_copy_kept(graves_db, store):
    s = played(graves_db, store, 14, undo=1)  # the file: 13 events and 1 undone; the backup: 14 events
    path = store.path(s.game_id)
    whole = path.read_bytes()
    backup = read_copy(path.with_name(path.name + ".bak"))
    assert backup.log is not None and len(backup.log.events) == 14
    first_line = whole.index(b"\n") + 1
    for cut in range(len(whole)):
        path.write_bytes(whole[:cut])
        loaded = store.open(s.game_id)
        assert loaded.damaged, f"a cut at byte {cut} of {len(whole)} went unnoticed"
        assert loaded.log is not None and loaded.log.events == backup.log.events, cut
        assert loaded.used == path.with_name(path.name + ".bak")
        assert loaded.notice is not None and loaded.notice.count(".") == 1, loaded.notice  # one sentence
        assert loaded.notice.startswith("The save of Graves, Ann v Ben was damaged: 14 events kept")
        if cut >= first_line:
            assert loaded.lost == 0 and loaded.notice.endswith("14 events kept, 0 lost.")
    path.write_bytes(whole)
    assert not store.open(s.game_id).damaged


def test_the_sentence_counts_the_events_lost(graves_db, store):
    s = played(graves_db, store, 10)
    path = store.path(s.game_id)
    older = format_save(referee_log(7))  # the backup is three events behind
    path.with_name(path.name + ".bak").write_text(older)
    path.write_bytes(path.read_bytes()[:-30])  # the last line cut mid-way
    log, notice = store.load(s.game_id)
    assert log is not None and len(log.events) == 7
    assert notice == "The save of Graves, Ann v Ben was damaged: 7 events kept, 3 lost."


def test_a_cut_exactly_at_a_line_end_is_caught(graves_db, store):
    """The old bug: a save cut after its second-to-last event line read as a shorter, good game."""
    s = played(graves_db, store, 10)
    path = store.path(s.game_id)
    text = path.read_text()
    path.write_text(text[: text.rstrip("\n").rindex("\n") + 1])
    loaded = store.open(s.game_id)
    assert loaded.damaged and loaded.lost == 1 and len(loaded.log.events) == 9


def test_a_changed_byte_is_caught(graves_db, store):
    s = played(graves_db, store, 10)
    path = store.path(s.game_id)
    data = bytearray(path.read_bytes())
    at = data.index(b"9 question_mark")
    data[at] = ord("8")  # still a readable, legal-looking log
    path.write_bytes(bytes(data))
    assert store.open(s.game_id).damaged


def test_the_newest_good_copy_wins(graves_db, store):
    s = played(graves_db, store, 6)
    path = store.path(s.game_id)
    tmp = path.with_name(path.name + ".tmp")
    # killed after the new copy was written in full, before it was renamed into place
    tmp.write_text(format_save(referee_log(7)))
    loaded = store.open(s.game_id)
    assert not loaded.damaged and len(loaded.log.events) == 7 and loaded.used == tmp
    # killed while writing it: the file itself is the newest good copy, and nothing seen was lost
    tmp.write_text(format_save(referee_log(7))[:-10])
    loaded = store.open(s.game_id)
    assert not loaded.damaged and len(loaded.log.events) == 6 and loaded.used == path


def test_no_good_copy_left_is_one_sentence(graves_db, store):
    s = played(graves_db, store, 5)
    path = store.path(s.game_id)
    path.write_bytes(path.read_bytes()[:200])
    path.with_name(path.name + ".bak").write_bytes(b"\x00\xff")
    loaded = store.open(s.game_id)
    assert loaded.log is None and loaded.notice == (
        f"The save of Graves ({s.game_id}) is damaged and no good copy is left: no event kept, 5 lost.")
    with pytest.raises(Exception, match="no good copy"):
        Session.resume(graves_db, store, s.game_id)
    listed = store.games()
    assert [g.id for g in listed] == [s.game_id] and listed[0].warning == loaded.notice


def test_a_save_from_before_checksums_still_loads(graves_db, store):
    store.path("graves-20260101-120000").write_text(format_log(referee_log(9)))
    loaded = store.open("graves-20260101-120000")
    assert not loaded.damaged and len(loaded.log.events) == 9


def test_resuming_a_damaged_save_makes_the_kept_copy_the_good_one(graves_db, store):
    s = played(graves_db, store, 8)
    path = store.path(s.game_id)
    path.write_bytes(path.read_bytes()[:-5])
    again = Session.resume(graves_db, store, s.game_id)
    assert again.warning == "The save of Graves, Ann v Ben was damaged: 7 events kept, 1 lost."
    assert not store.open(s.game_id).damaged  # the next start lists it as a good game


def test_delete_removes_every_copy(graves_db, store):
    s = played(graves_db, store, 3)
    path = store.path(s.game_id)
    path.with_name(path.name + ".tmp").write_text("half")
    store.delete(s.game_id)
    assert list(store.folder.iterdir()) == [] and store.games() == []
