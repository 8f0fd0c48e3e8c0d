"""A draft beside a save, at the store alone (no table, no Kivy): written atomically with a seal, read back only
for the log it was tapped after, set aside with one sentence when damaged, and never touching the save."""

from __future__ import annotations

from casebook.companion.store import Store
from casebook.rules.log import GameLog

DATA = {"laid": [["holmes", 0], ["moriarty", 2]], "named": ["keen_eye"]}


def saved(tmp_path) -> tuple[Store, GameLog, str]:
    store = Store(tmp_path / "games")
    log = GameLog("clash", 1, ["Ann", "Ben"], [], 7, {}, events=[{"action": "site", "by": "Ann", "site": "x"}])
    gid = store.new_id("clash")
    store.save(gid, log)
    return store, log, gid


def test_a_draft_round_trips_and_is_forgotten(tmp_path):
    store, log, gid = saved(tmp_path)
    assert store.open_draft(gid, log).data is None  # none yet: nothing said
    store.save_draft(gid, log, "Initial Setup", DATA)
    assert store.open_draft(gid, log).data == DATA and store.open_draft(gid, log).notice is None
    assert not store.draft_path(gid).with_name(f"{gid}.draft.tmp").exists()  # renamed into place whole
    assert store.ids() == [gid]
    store.clear_draft(gid)
    assert not store.draft_path(gid).exists() and store.open_draft(gid, log).data is None


def test_a_damaged_draft_is_set_aside_with_one_sentence_and_the_save_kept(tmp_path):
    store, log, gid = saved(tmp_path)
    store.save_draft(gid, log, "Initial Setup", DATA)
    whole = store.draft_path(gid).read_bytes()
    save = store.path(gid).read_bytes()
    for bad in (whole[:len(whole) // 2], whole[:-2], whole.replace(b"keen_eye", b"keen_ear"), b"", b"\x00" * 40):
        store.draft_path(gid).write_bytes(bad)
        draft = store.open_draft(gid, log)
        assert draft.data is None
        assert draft.notice == "The half-entered input saved for this game was damaged and is left out: tap it in again."
        assert store.draft_path(gid).with_name(f"{gid}.draft.damaged").read_bytes() == bad  # kept, not read again
        assert store.open_draft(gid, log) == type(draft)()  # said once
        assert store.path(gid).read_bytes() == save and store.open(gid).log.events == log.events
