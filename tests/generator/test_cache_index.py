"""The scene store's index (generator/cache.py): long keys held as digests, found again by the next build."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from casebook.generator.cache import FILE_NAME, SceneStore, _slot
from casebook.generator.scene import Scene


def test_long_keys_are_held_short_and_found_by_the_next_build(tmp_path: Path) -> None:
    scene_key, drawing_key = "a" * 40, "a" * 40 + ":pdf:" + "b" * 40
    assert _slot(scene_key) == scene_key  # a scene's key is held by its face anyway: kept as it is
    slot = _slot(drawing_key)  # 56 bits of its digest: an int of Python's smallest size past 30 bits
    assert isinstance(slot, int) and slot < 1 << 56 and sys.getsizeof(slot) <= sys.getsizeof(1 << 59)
    assert _slot(drawing_key) != _slot(drawing_key + "c")
    store = SceneStore(tmp_path)
    store.put(scene_key, Scene(10, 20))
    store.put_blob(drawing_key, b"drawn once")
    assert store.has_blob(drawing_key) and not store.has_blob(drawing_key + "c")
    assert store.blob(drawing_key) == b"drawn once"
    store.commit()
    again = SceneStore(tmp_path)
    assert again.blob(drawing_key) == b"drawn once" and again.blob(drawing_key + "c") is None
    assert scene_key in again and again.get(scene_key).width == 10
    assert again.reused == 2 and again.reused_scenes == 1
    again.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]


def test_a_scenes_drawing_rides_in_its_entry_and_is_found_by_the_next_build(tmp_path: Path) -> None:
    keys = [f"{n:040x}" for n in range(3)]
    drawn = [f"{key}:pdf:{'d' * 40}" for key in keys]
    store = SceneStore(tmp_path)
    for key in keys:
        store.put(key, Scene(10, 20))
    for key, drawing in zip(keys, drawn, strict=True):
        store.put_blob(drawing, f"ops of {key}".encode())
    store.put_blob("zpage:x:" + "e" * 40, b"a page")  # no scene of that key: an entry of its own
    store.put_blob(keys[0] + ":png:" + "f" * 40, b"another backend's")  # the one riding is pdf's: its own entry
    assert len(store._index) == 5  # three scenes carrying their drawings, the page, the other drawing
    assert [store.blob(d) for d in drawn] == [f"ops of {key}".encode() for key in keys]
    assert store.get(keys[1]).height == 20 and store.blob(keys[0] + ":png:" + "f" * 40) == b"another backend's"
    assert store.blob(keys[0] + ":pdf:" + "c" * 40) is None
    store.commit()
    again = SceneStore(tmp_path)
    assert all(key in again for key in keys)
    assert [again.blob(d) for d in drawn] == [f"ops of {key}".encode() for key in keys]
    assert again.blob("zpage:x:" + "e" * 40) == b"a page" and again.get(keys[2]).width == 10
    again.commit()


def test_a_scene_read_back_once_is_not_held(tmp_path: Path) -> None:
    store = SceneStore(tmp_path, keep=2)
    keys = [f"{n:040x}" for n in range(4)]
    for n, key in enumerate(keys):
        store.put(key, Scene(10 + n, 20))
    assert list(store._recent) == keys[2:]  # the two put last
    assert store.get(keys[0], hold=False).width == 10 and list(store._recent) == keys[2:]
    assert store.get(keys[1]).width == 11 and list(store._recent) == [keys[3], keys[1]]
    store.close()


def test_unchanged_entries_are_carried_in_runs_and_found_by_the_build_after(tmp_path: Path, monkeypatch) -> None:
    """A rebuild's hundreds of unchanged scenes lie side by side in the last build's file: they are copied into the
    new one a run at a time (an edited card's new scene between them starts another), each where its index says."""
    import casebook.generator.cache as cache

    keys = [f"{n:040x}" for n in range(200)]
    store = SceneStore(tmp_path)
    for n, key in enumerate(keys):
        store.put(key, Scene(n, 20))
    store.put_blob("zpage:x:" + "e" * 40, b"a page")
    store.commit()
    reads: list[int] = []
    real_pread = os.pread
    monkeypatch.setattr(cache.os, "pread", lambda fd, n, at: reads.append(n) or real_pread(fd, n, at))
    again = SceneStore(tmp_path)
    for key in keys[:100]:
        assert key in again
    again.put("f" * 40, Scene(999, 20))  # an edited card's scene
    for key in keys[101:]:
        assert key in again
    assert again.blob("zpage:x:" + "e" * 40) == b"a page"  # read from the last build's file, and carried on
    assert again.get(keys[150]).width == 150 and again.reused == 200
    again.commit()
    assert len(reads) <= 6  # the runs before and after the new scene, the page's; not one read an entry
    monkeypatch.undo()
    third = SceneStore(tmp_path)
    assert all(key in third for key in [*keys[:100], *keys[101:], "f" * 40]) and keys[100] not in third
    assert [third.get(key).width for key in (keys[0], keys[99], keys[101], keys[199], "f" * 40)] == [0, 99, 101, 199, 999]
    assert third.blob("zpage:x:" + "e" * 40) == b"a page"
    third.close()
