"""The companion's logic without a window: saving, recovering, undo and redo, refusals."""

from __future__ import annotations

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.rules.log import GameLog

ROW = ["station", "library", "palace_grounds", "record_office", "park"]


def new_log():
    return GameLog("graves", 1, ["Ann", "Ben"], setup={"detective": "Ann", "locations": ROW})


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "saves", titles={"graves": "Graves"})


def test_every_event_is_saved_and_resumes(graves_db, store):
    s = Session.new(graves_db, new_log(), store)
    assert s.do({"action": "play", "by": "Ann", "cards": ["9 notebook"]}).ok
    assert s.do({"action": "pass", "by": "Ben"}).ok
    again = Session.resume(graves_db, store, s.game_id)
    assert again.state == s.state and again.warning is None
    assert [g.id for g in store.games()] == [s.game_id]


def test_refused_event_changes_nothing_and_names_the_rule(graves_db, store):
    s = Session.new(graves_db, new_log(), store)
    before = s.state
    out = s.do({"action": "play", "by": "Ben", "cards": ["9 notebook"]})
    assert not out.ok and "Ann's turn" in out.message
    assert s.state == before and s.log.events == []


def test_undo_redo_any_number_of_steps(graves_db, store):
    s = Session.new(graves_db, new_log(), store)
    events = [{"action": "play", "by": "Ann", "cards": ["9 notebook"]}, {"action": "pass", "by": "Ben"},
              {"action": "pass", "by": "Ann"}]
    states = [s.state]
    for e in events:
        s.do(e)
        states.append(s.state)
    import copy
    snapshots = [copy.deepcopy(x) for x in states]
    s.go_to(0)
    assert s.state == snapshots[0]
    s.go_to(2)
    assert s.state == snapshots[2]
    assert Session.resume(graves_db, store, s.game_id).state == snapshots[2]  # undo is saved too
    s.redo()
    assert s.state == snapshots[3]
    assert s.history()[0].startswith("1. Ann played 9 Notebook")


def test_corrupt_or_half_written_save_falls_back_to_the_last_good_copy(graves_db, store):
    s = Session.new(graves_db, new_log(), store)
    s.do({"action": "play", "by": "Ann", "cards": ["9 notebook"]})
    s.do({"action": "pass", "by": "Ben"})
    good = s.state
    path = store.path(s.game_id)
    path.write_text(path.read_text()[:150])  # cut off mid-write by something else
    again = Session.resume(graves_db, store, s.game_id)
    assert again.warning == "The save of Graves, Ann v Ben was damaged: 1 event kept, 1 lost."
    assert len(again.log.events) == 1  # the backup is one event behind, nothing else is lost
    assert again.state != good
    path.write_bytes(b"\x00\xff garbage")
    (path.with_name(path.name + ".bak")).write_bytes(b"")
    log, warning = store.load(s.game_id)
    assert log is None and warning


def test_interrupted_save_leaves_a_readable_game(graves_db, store):
    s = Session.new(graves_db, new_log(), store)
    s.do({"action": "play", "by": "Ann", "cards": ["9 notebook"]})
    path = store.path(s.game_id)
    # killed between the two renames: the main file is gone, .tmp holds the newest
    path.rename(path.with_name(path.name + ".tmp"))
    again = Session.resume(graves_db, store, s.game_id)
    assert len(again.log.events) == 1 and again.warning is None  # the newest copy, complete: nothing lost


def test_newest_first(graves_db, store):
    import os
    import time
    a = Session.new(graves_db, new_log(), store)
    b = Session.new(graves_db, new_log(), store)
    now = time.time()
    os.utime(store.path(a.game_id), (now + 5, now + 5))
    assert [g.id for g in store.games()] == [a.game_id, b.game_id]
