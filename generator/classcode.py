"""The methods `@dataclass` writes, compiled once and kept between runs (issue 21).

Making a dataclass writes its __init__, __repr__, __eq__ (and a frozen one's __setattr__, __delattr__ and
__hash__) as Python source and compiles it: for the 48 dataclasses a build imports, compiling was most of
what its imports cost (~24 ms of CPU a run, a one-card edit's rebuild being ~160 ms). Once this module is
imported, the dataclasses module compiles each such source once: the code is kept in the user's cache
(rules/cache_dir.py; $CASEBOOK_CACHE_DIR empty keeps nothing) under a folder named for Python's exact
version and -O level, found again by the source itself, and run as the source would be. The classes are the
same: the same source, compiled by the same compiler with the same flags, run in the same namespaces.

Only the command line imports it (casebook/cli.py, before its first dataclass); a file that cannot be read
or written is not used, and a run that compiled something new writes the file again as it ends.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from types import CodeType
from typing import Any

from casebook.rules.cache_dir import cache_folder

FILE = "methods"
MAX_KEPT = 1000  # sources (~1 KB each; the command line's own ~500): past this, a file written keeps only what its run used (the classes changed over time)


class ClassCode:
    """The compiled sources of a run: those kept from earlier runs, found by their text, and those compiled now."""

    def __init__(self) -> None:
        self.kept: dict[str, CodeType] = {}
        self.new: dict[str, CodeType] = {}
        self.used: set[str] = set()
        self.path: Path | None = None
        folder = cache_folder("classcode", (), f"optimize {sys.flags.optimize}")  # -O compiles differently
        if folder is not None:
            self.path = folder / FILE
            try:
                kept = marshal.loads(self.path.read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                kept = None
            if type(kept) is dict:
                self.kept = {k: v for k, v in kept.items() if type(k) is str and type(v) is CodeType}

    def run(self, source: Any, globals: dict[str, Any] | None = None, locals: Mapping[str, object] | None = None) -> None:
        """exec(source, globals, locals), as the dataclasses module calls it."""
        if type(source) is not str:
            return builtins.exec(source, globals, locals)
        code = self.kept.get(source) or self.new.get(source)
        if code is None:
            # as exec() compiles a string called from the dataclasses module: no __future__ flags of this one
            code = compile(source, "<string>", "exec", dont_inherit=True)
            if not self.new and self.path is not None:
                import atexit

                atexit.register(self.save)
            self.new[source] = code
        self.used.add(source)
        return builtins.exec(code, globals, locals)

    def save(self) -> None:
        """Write the kept sources with the new ones, whole or not at all."""
        if self.path is None or not self.new:
            return
        codes = {**self.kept, **self.new}
        if len(codes) > MAX_KEPT:
            codes = {k: v for k, v in codes.items() if k in self.used}
        tmp = self.path.with_name(f".{FILE}.{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(marshal.dumps(codes))
            os.replace(tmp, self.path)  # two runs at once each write a whole file
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                tmp.unlink()


def install() -> ClassCode | None:
    """Have the dataclasses module compile through a ClassCode (once a process); None if it cannot be."""
    current = dataclasses.__dict__.get("exec")
    if current is not None:
        owner = getattr(current, "__self__", None)
        return owner if isinstance(owner, ClassCode) else None  # already ours, or someone else's: left alone
    code = ClassCode()
    dataclasses.exec = code.run  # type: ignore[attr-defined]  # found before the builtin by the module's calls
    return code


CODE = install()
