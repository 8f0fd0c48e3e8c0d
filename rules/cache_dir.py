"""Where the user's cache keeps what a run made for the next (parsed files, compiled templates and classes).

No dataclass and nothing of ours imported: the first module a build asks for it (generator/classcode.py)
runs before any dataclass is made.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def cache_folder(kind: str, sources: tuple[Path, ...], versions: str) -> Path | None:
    """A folder of the user's cache for what was made by the code in `sources` (and libraries at `versions`).

    `$CASEBOOK_CACHE_DIR` chooses the cache (empty: keep nothing); else `$XDG_CACHE_HOME/casebook`,
    else `~/.cache/casebook`. None when nothing is kept.
    """
    chosen = os.environ.get("CASEBOOK_CACHE_DIR")
    if chosen is None:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        chosen = os.path.join(home, "casebook")
    if not chosen:
        return None
    flavour = hashlib.sha1(f"{versions} {sys.version} {sys.implementation.cache_tag}".encode())
    try:  # (a package shipped as bytecode alone has no source to name the folder by: nothing kept)
        for source in sources:
            flavour.update(source.read_bytes())
    except OSError:
        return None
    return Path(chosen) / f"{kind}-{flavour.hexdigest()[:16]}"
