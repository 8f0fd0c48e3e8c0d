"""Images in layouts: a `src` found inside the game's folder, its file checked once, fitted into a box.

Paths are relative to the folder holding game.yaml; one that leads outside it (`..`, an
absolute path, a link pointing out) is refused, as is a file over 50 MB or 100 megapixels,
one that is missing, damaged or not PNG, JPEG or SVG. What a file holds is read once per
version of it (its size, modification time and inode), however many cards show it.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from itertools import islice
from pathlib import Path, PurePosixPath, PureWindowsPath

from casebook.generator.backends.imagefiles import MAX_BYTES, ImageFileError, measure

FITS = ("contain", "cover", "stretch")
SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MAX_LISTED = 10_000  # entries of one folder looked through for a name close to a missing one


class ImageError(ValueError):
    """Why an image cannot be used, said for people."""


@dataclass(frozen=True)
class ImageFile:
    """A checked image file: where it is, its content digest, kind and size as seen."""

    path: str
    digest: str
    kind: str  # "raster" or "svg"
    width: float  # pixels (upright), or an SVG's points
    height: float
    root: str  # the game's folder, resolved
    warnings: tuple[str, ...] = ()


_FILES: dict[tuple[str, int, int, int], ImageFile] = {}  # (path, mtime, size, inode) -> the file as read
_DIGESTS: dict[tuple[str, int, int, int], str] = {}  # the same -> its content digest (all a scene's key needs)


def resolve(folder: Path, src: str) -> Path:
    """The file `src` names inside the game's folder; ImageError if it leads outside or is not there."""
    text = src.strip()
    if not text:
        raise ImageError("src is empty")
    if PurePosixPath(text).is_absolute() or PureWindowsPath(text).is_absolute() or PureWindowsPath(text).drive:
        raise ImageError(f"'{text}' is an absolute path; an image's path is relative to the game's folder")
    if ".." in PurePosixPath(text.replace("\\", "/")).parts:
        raise ImageError(f"'{text}' leads outside the game's folder ('..')")
    root = folder.resolve()
    path = root / text
    real = path.resolve()
    if not real.is_relative_to(root):
        raise ImageError(f"'{text}' is a link leading outside the game's folder (to {real})")
    if not real.exists():
        _refuse_absolute_inside(text)
    if real.suffix.lower() not in SUFFIXES:
        raise ImageError(f"'{text}' is not a PNG, JPEG or SVG file (by its name){_did_you_mean(root, text)}")
    if not real.is_file():
        raise ImageError(f"no image '{text}' in {root}{_did_you_mean(root, text)}" if not real.exists()
                         else f"'{text}' is not a file")
    return real


def _refuse_absolute_inside(text: str) -> None:
    """A path with an absolute one inside (`art//etc/x.png`: a card's cell holding `/etc/x.png` after `art/`): refused, saying so."""
    parts = text.replace("\\", "/").split("/")
    for at, part in enumerate(parts[1:], 1):
        if part == "" and at < len(parts) - 1 or PureWindowsPath(part).drive:
            head, rest = "/".join(parts[:at]) + "/", "/".join(parts[at:])
            raise ImageError(f"'{text}' holds an absolute path, '{rest}', after '{head}': it leads outside the game's "
                             "folder (a picture's path is relative to the folder: a cell holds a name such as knight.jpg)")


def _nearest(wanted: str, names: list[str]) -> str:
    """The name meant by `wanted`: the same in another case, else one whose stem is close (a typo) with the same
    suffix, or any suffix when `wanted` has none of an image or its stem is the same ('' if none)."""
    lower = wanted.lower()
    same = [name for name in names if name.lower() == lower]
    if same:
        return same[0]
    stem, suffix = PurePosixPath(lower).stem, PurePosixPath(lower).suffix
    best, score = "", 0.75  # 'rian' for 'rain' and 'wsp' for 'wisp', not 'dragon' for 'rain' (0.6)
    for name in names:
        other = PurePosixPath(name.lower())
        if other.suffix != suffix and suffix in SUFFIXES and other.stem != stem:
            continue
        ratio = difflib.SequenceMatcher(None, stem, other.stem).ratio()
        if ratio >= score and (ratio > score or not best):
            best, score = name, ratio
    return best


def _did_you_mean(root: Path, text: str) -> str:
    """'; did you mean 'art/knight.jpg'?' for a file that is not there but one of a name in another case or close is."""
    here, found = root, []
    for part in PurePosixPath(text.replace("\\", "/")).parts:
        try:
            names = sorted(entry.name for entry in islice(here.iterdir(), MAX_LISTED)) if here.is_dir() else []
        except OSError:
            return ""
        if part not in names:
            part = _nearest(part, names)
            if not part:
                return ""
        here = here / part
        found.append(part)
    near = "/".join(found)
    return f"; did you mean '{near}'?" if near != text.strip().replace("\\", "/") and here.is_file() else ""


def _read(path: Path, src: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ImageError(f"'{src.strip()}' is {size / 1e6:.0f} MB, over the {MAX_BYTES // 2**20} MB an image may have")
        with open(path, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ImageError(f"cannot read '{src.strip()}': {exc.strerror}") from None


def _identify(folder: Path, src: str) -> tuple[Path, tuple[str, int, int, int], str]:
    """The file `src` names, its version (path, modification time, size, inode) and its content digest."""
    path = resolve(folder, src)
    try:
        st = path.stat()
    except OSError as exc:
        raise ImageError(f"cannot read '{src.strip()}': {exc.strerror}") from None
    version = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    digest = _DIGESTS.get(version)
    if digest is None:
        digest = hashlib.sha1(_read(path, src)).hexdigest()
        if len(_DIGESTS) > 4096:
            _DIGESTS.clear()
        _DIGESTS[version] = digest
    return path, version, digest


def load(folder: Path, src: str) -> ImageFile:
    """The checked image `src` names (ImageError if it cannot be used), read once per version of the file."""
    path, version, digest = _identify(folder, src)
    found = _FILES.get(version)
    if found is not None:
        return found
    data = _read(path, src)
    if hashlib.sha1(data).hexdigest() != digest:
        raise ImageError(f"'{src.strip()}' changed while it was read: build again")
    root = str(folder.resolve())
    try:
        measured = measure(data, str(path), root)
    except ImageFileError as exc:
        raise ImageError(f"'{src.strip()}' {exc}") from None
    found = ImageFile(str(path), digest, measured.kind, measured.width, measured.height, root, measured.warnings)
    if len(_FILES) > 4096:
        _FILES.clear()
    _FILES[version] = found
    return found


def signature(folder: Path, src: str) -> str:
    """What a scene showing `src` depends on: the file's path and content (read, not decoded), or why it cannot be shown."""
    try:
        path, _, digest = _identify(folder, src)
    except ImageError as exc:
        return f"refused:{exc}"
    return f"{path}:{digest}"


_CARD_FIELD = re.compile(r"""\bcard(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\])""")


def card_field(template: str) -> str | None:
    """The one card field (not its id) a src template reads (`{{ card.art }}`), where a bad path is the card's to fix."""
    names = {a or b for a, b in _CARD_FIELD.findall(template)} - {"id", "component", "copies", "designed"}
    return names.pop() if len(names) == 1 else None


def fit(image_w: float, image_h: float, box: tuple[float, float, float, float], mode: str,
        focus: tuple[float, float] = (0.5, 0.5)) -> tuple[float, float, float, float]:
    """Where the whole image lands (x, y, w, h) when fitted into box.

    contain: as large as fits, the room left shared as `focus` says (centred by default);
    cover: as small as fills the box, the point `focus` (fractions of the image across and
    down) as near the box's centre as the box allows; stretch: the box itself.
    """
    x, y, w, h = box
    if mode == "stretch" or image_w <= 0 or image_h <= 0:
        return box
    fx, fy = focus
    if mode == "contain":
        k = min(w / image_w, h / image_h)
        pw, ph = image_w * k, image_h * k
        return (x + (w - pw) * fx, y + (h - ph) * fy, pw, ph)
    k = max(w / image_w, h / image_h)
    pw, ph = image_w * k, image_h * k
    px = min(x, max(x + w - pw, x + w / 2 - fx * pw))
    py = min(y, max(y + h - ph, y + h / 2 - fy * ph))
    return (px, py, pw, ph)
