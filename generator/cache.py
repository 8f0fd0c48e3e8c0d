"""Composed scenes by content key, kept beside the output so that a rebuild composes only what changed.

A key is a digest of everything a scene depends on (the layout, the template values it
reads, fonts, symbols, sizes, build options and the generator's own code), so a stale
entry can never be found: an edit gives new keys, and entries nobody asked for are
dropped when the cache is written again. The cache folder (output/<game>/.cache/) is
safe to delete at any time; a build without it composes everything.

In memory only the index and the most recently used scenes are held; every scene of
a build is written to a file as it is composed, so memory stays flat however large the deck.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import struct
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from casebook.generator.backends.fonts import FONT_FILES, font_path
from casebook.generator.scene import Scene

if TYPE_CHECKING:
    from casebook.generator.layouts import LayoutLibrary

CACHE_VERSION = 5  # 2: pictures in scenes; 3: long keys held as digests (_slot); 4: as ints; 5: drawings in their scenes' entries
FILE_NAME = f"scenes-v{CACHE_VERSION}.bin"
_TRAILER = struct.Struct("<Q8s")
_MAGIC = b"casebook"
_SPAN = 1 << 32  # an index entry is offset * _SPAN + length
_RIDER = 64  # a scene's entry may carry its drawing's above this bit (SceneStore._lookup)
DRAWING = "drawing:"  # the keys of element drawings (compose.py): kept for the next build even when not asked for
KEPT_DRAWINGS = 4096  # of them, at most this many (a deck's shared frames and emblems are a few dozen)
_LOW = (1 << _RIDER) - 1
_CODE = ("cache.py", "compose.py", "images.py", "layouts.py", "scene.py", "symbols.py", "template_values.py", "text.py",
         "units.py", "backends/fonts.py", "backends/imagefiles.py")
_code_digest: str | None = None


def _slot(key: str) -> str | int:
    """How the index holds a key: a scene's (a bare digest, held by its face anyway) as it is; a longer one (a
    backend's drawing or page, made anew for each lookup) as a 56-bit int of its digest: Python's smallest int
    of that range (32 bytes, half a 16-byte bytes object's; a 10,000-card deck's 12,000 such keys collide with odds
    of one in 10**9), never equal to a scene's key, which is text."""
    if ":" not in key:
        return key
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=7).digest(), "little")


def code_fingerprint() -> str:
    """A digest of the generator modules a scene depends on: new code, new keys."""
    global _code_digest
    if _code_digest is None:
        _code_digest = files_digest(f"v{CACHE_VERSION}", _CODE)
    return _code_digest


def files_digest(seed: str, names: tuple[str, ...]) -> str:
    """A digest of `seed` and the bytes of the generator's files `names` (paths from generator/)."""
    here = Path(__file__).resolve().parent
    sha = hashlib.sha1(seed.encode())
    for name in names:
        sha.update((here / name).read_bytes())
    return sha.hexdigest()


def library_fingerprint(lib: LayoutLibrary) -> str:
    """A digest of what every scene of a library shares: code, fonts, symbols, sizes and print settings."""
    fonts = [(style, os.path.getsize(font_path(style))) for style in FONT_FILES]
    content = json.dumps([code_fingerprint(), fonts, lib.symbols, lib.sizes, lib.settings], sort_keys=True, default=repr)
    return hashlib.sha1(content.encode()).hexdigest()


class SceneStore:
    """Scenes by content key: in memory, or (with a folder) in a file read back on demand.

    With a folder, the scenes of the previous build are found in its file; `commit()`
    makes this build's scenes (only those it asked for) the ones the next build finds.
    The file is one piece (scenes, then their index, then the index's offset), replaced
    atomically, so an interrupted build leaves the previous cache whole.
    """

    def __init__(self, folder: Path | None = None, keep: int = 512):
        self.folder = folder
        self.keep = keep  # scenes held in memory, most recent first (a 500-card deck all of them); the rest read back
        self.reused = 0  # entries found from the previous build
        self.reused_scenes = 0  # of them, scenes (not drawings kept by a backend)
        self._recent: OrderedDict[str, Any] = OrderedDict()
        self._held: dict[str, Any] = {}  # in memory only: no folder, or composed with problems
        # this build's entries in the new file: offset and length in one int (a deck of thousands has tens of thousands)
        self._index: dict[str | int, int] = {}  # by _slot(key)
        self._old_index: dict[str | int, int] = {}
        # what follows a scene's key in the key of the one drawing its entry carries (a backend's "pdf:<digest>")
        self._rider: str | None = None
        self._old_rider: str | None = None
        # the slots of element drawings (compose.py "drawing:" keys), carried to the next build whether asked for or
        # not: a rebuild that composes nothing asks for none, and the build after it would compose without them
        self._drawings: dict[int, None] = {}
        self._old_drawings: tuple[int, ...] = ()
        self._old: BinaryIO | None = None
        self._new: BinaryIO | None = None
        self._unflushed = False
        # the previous build's entry last found (`in`): its key and where it lies in the old file, read if asked for
        self._carried: tuple[str, int] | None = None
        # the previous build's entries being carried into the new file, not yet copied: one run of adjacent ones
        # (an edit's hundreds of unchanged cards lie side by side in both files), copied in one read and write
        self._run: tuple[int, int, int] | None = None  # (its start in the old file, its end there, its start in the new)
        self._made: list[Path] = []
        if folder is not None:
            self._open_previous(folder / FILE_NAME)

    def _open_previous(self, path: Path) -> None:
        try:
            f = open(path, "rb")  # noqa: SIM115 - held for the build, closed by close()
        except OSError:
            return
        try:
            f.seek(-len(_TRAILER.pack(0, b"")), os.SEEK_END)
            offset, magic = _TRAILER.unpack(f.read())
            f.seek(offset)
            saved = pickle.load(f)
            if magic != _MAGIC or saved.get("code") != code_fingerprint():
                raise ValueError("another version")
            self._old_index, self._old_rider, self._old = saved["index"], saved.get("rider"), f
            self._old_drawings = tuple(saved.get("drawings", ()))
        except (OSError, EOFError, pickle.UnpicklingError, struct.error, AttributeError, KeyError, TypeError, ValueError):
            f.close()  # unreadable or another version: compose everything

    @staticmethod
    def _lookup(index: dict[str | int, int], rider: str | None, key: str) -> int | None:
        """Where the bytes of `key` lie, by an index: a scene's drawing (`<scene key>:<rider>`) in its scene's entry,
        above _RIDER; any other key under its own _slot."""
        head, colon, tail = key.partition(":")
        if colon and tail == rider:
            riding = index.get(head, 0) >> _RIDER
            if riding:
                return riding
        spot = index.get(_slot(key))
        return None if spot is None else spot & _LOW

    def _place(self, key: str, spot: int) -> None:
        """Enter where the bytes of `key` lie: a drawing of a scene of this build in the scene's own entry (a deck's
        10,000 drawings need no key nor entry of their own, ~100 bytes each), anything else under its _slot."""
        head, colon, tail = key.partition(":")
        if colon and tail == (self._rider or tail) and head in self._index and not self._index[head] >> _RIDER \
                and spot <= _LOW:
            self._rider = tail
            self._index[head] = spot << _RIDER | self._index[head]
        else:
            self._index[_slot(key)] = spot

    def __contains__(self, key: str) -> bool:
        if key in self._recent or key in self._held or self._lookup(self._index, self._rider, key) is not None:
            return True
        old = self._lookup(self._old_index, self._old_rider, key)
        if old is not None:  # found from the previous build: carried into this one unread
            self._carry(key, old)
            self._carried = (key, old)  # asked for next, most likely: read from the old file, not the new one
            self.reused += 1
            self.reused_scenes += ":" not in key  # a scene's key is a bare digest; other entries say what they are
            self._note_drawing(key)
            return True
        return False

    def blob(self, key: str) -> bytes | None:
        """Bytes kept under `key` by this build or the previous one (a compressed page), or None.

        Never held in memory beyond the call: a large deck's pages stay on disk.
        """
        if self.has_blob(key):
            return self.written(key)
        if key in self:  # from the previous build: carried into this one
            return self._take_carried()
        return None

    def _take_carried(self) -> bytes:
        """The bytes of the previous build's entry last found, read from its file."""
        assert self._carried is not None and self._old is not None
        offset, length = divmod(self._carried[1], _SPAN)
        self._carried = None
        return os.pread(self._old.fileno(), length, offset)

    def has_previous(self) -> bool:
        """Whether a previous build's entries may be found (a first build's lookups all miss)."""
        return bool(self._old_index)

    def has_blob(self, key: str) -> bool:
        """Whether this build has written bytes under `key` (to be read back by `written`, not held)."""
        return self._lookup(self._index, self._rider, key) is not None

    def written(self, key: str) -> bytes:
        """The bytes this build wrote under `key`, read back from its file."""
        return self.read_spot(self.spot(key))

    def spot(self, key: str) -> int:
        """Where this build wrote the bytes under `key` (one int: a holder of thousands keeps that, not the key)."""
        spot = self._lookup(self._index, self._rider, key)
        assert spot is not None, f"nothing written under {key}"
        return spot

    def read_spot(self, spot: int) -> bytes:
        """The bytes this build wrote at `spot` (from spot()), read back from its file."""
        assert self._new is not None
        self._copy_run()
        if self._unflushed:
            self._new.flush()
            self._unflushed = False
        offset, length = divmod(spot, _SPAN)
        return os.pread(self._new.fileno(), length, offset)

    def put_blob(self, key: str, data: bytes) -> None:
        """Keep bytes for the next build (only with a folder: in memory they would only grow)."""
        if self.folder is not None and not self.has_blob(key):
            self._write(key, data)

    def put(self, key: str, scene: Scene | object, keep: bool = True) -> None:
        """Add a scene (or a backend's drawing of one); keep=False holds it for this build only."""
        if self.folder is None or not keep:
            self._held[key] = scene
            return
        if not self.has_blob(key):
            self._write(key, pickle.dumps(scene, protocol=pickle.HIGHEST_PROTOCOL))
            self._note_drawing(key)
        self._remember(key, scene)

    def _note_drawing(self, key: str) -> None:
        if key.startswith(DRAWING):
            slot = _slot(key)
            assert isinstance(slot, int)
            self._drawings[slot] = None

    def _carry_drawings(self) -> None:
        """The previous build's element drawings this build did not ask for, copied into its file (at most
        KEPT_DRAWINGS, the most recent: drawings of layouts since edited do not pile up)."""
        if self._old is None or self._new is None:
            return
        for slot in self._old_drawings:
            if slot in self._drawings or slot in self._index or slot not in self._old_index:
                continue
            self._carry(slot, self._old_index[slot] & _LOW)
            self._drawings[slot] = None
        while len(self._drawings) > KEPT_DRAWINGS:
            del self._drawings[next(iter(self._drawings))]

    def _open_new(self) -> BinaryIO:
        if self._new is None:
            assert self.folder is not None
            # folders made here go again if the build fails: a failed build leaves nothing behind
            self._made = [p for p in (self.folder, *self.folder.parents) if not p.exists()]
            self.folder.mkdir(parents=True, exist_ok=True)
            self._new = open(self.folder / f".{FILE_NAME}.tmp", "w+b")  # noqa: SIM115 - closed by commit/close
        return self._new

    def _write(self, key: str, blob: bytes) -> None:
        new = self._open_new()
        self._copy_run()
        self._place(key, new.tell() * _SPAN + len(blob))
        new.write(blob)
        self._unflushed = True

    def _carry(self, key: str | int, old: int) -> None:
        """Enter the previous build's entry at `old` (offset and length) under `key` (or an int: its slot) in the new
        file, its bytes copied with the run of adjacent entries it extends (_copy_run)."""
        new = self._open_new()
        offset, length = divmod(old, _SPAN)
        run = self._run
        if run is None or run[1] != offset:
            self._copy_run()
            run = (offset, offset, new.tell())
        self._run = (run[0], offset + length, run[2])
        spot = (run[2] + offset - run[0]) * _SPAN + length
        if isinstance(key, int):
            self._index[key] = spot
        else:
            self._place(key, spot)

    def _copy_run(self) -> None:
        """Copy the run of the previous build's entries waiting to be carried into the new file, where _carry
        placed them (before anything else is written to it or read from it)."""
        if self._run is not None:
            assert self._old is not None and self._new is not None
            start, end, _ = self._run
            self._run = None
            data = os.pread(self._old.fileno(), end - start, start)
            # a file cut short under us (it never is: it is replaced, not rewritten) leaves zeros, not later entries'
            # bytes, where _carry placed the missing ones: each entry still lies where its index says
            self._new.write(data.ljust(end - start, b"\0"))
            self._unflushed = True

    def get(self, key: str, hold: bool = True) -> Any:
        """The scene of a key that was put or found (`in`) in this build.

        hold=False for a scene asked for once (a card drawn into the PDF): one read back from the
        file is not added to the scenes held in memory (a large deck's drawing would fill them with
        scenes it never asks for again)."""
        scene = self._held.get(key)
        if scene is not None:
            return scene
        scene = self._recent.get(key)
        if scene is None and self._carried is not None and self._carried[0] == key:
            scene = pickle.loads(self._take_carried())
        if scene is None:
            assert self._new is not None, f"no scene {key}"
            scene = pickle.loads(self.read_spot(self.spot(key)))
            if not hold:
                return scene
        self._remember(key, scene)
        return scene

    def _remember(self, key: str, scene: Any) -> None:
        self._recent[key] = scene
        self._recent.move_to_end(key)
        while len(self._recent) > self.keep:
            self._recent.popitem(last=False)

    def commit(self) -> None:
        """Make this build's scenes the cache the next build finds, atomically; then close."""
        if self.folder is not None and self._new is not None:
            self._carry_drawings()
            self._copy_run()
            offset = self._new.tell()
            pickler = pickle.Pickler(self._new, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.fast = True  # no memo of the index's tens of thousands of keys (it holds no object twice): flat memory
            pickler.dump({"code": code_fingerprint(), "index": self._index, "rider": self._rider,
                          "drawings": tuple(self._drawings)})
            self._new.write(_TRAILER.pack(offset, _MAGIC))
            self._new.flush()
            os.replace(self._new.name, self.folder / FILE_NAME)
        self.close()

    def close(self) -> None:
        """Let go of the files; an uncommitted build's scenes are dropped."""
        if self._new is not None:
            self._new.close()
            if Path(self._new.name).exists():  # not committed
                Path(self._new.name).unlink()
                for folder in self._made:
                    if folder.exists() and not any(folder.iterdir()):
                        folder.rmdir()
        if self._old is not None:
            self._old.close()
        self._old = self._new = None
