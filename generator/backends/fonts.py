"""The fonts: Bitstream Vera TTFs shipped with ReportLab, and a game's own TTFs, used by both backends.

A font is named in a scene by a key: one of the four Vera styles (`regular`, `bold`,
`italic`, `bolditalic`), or a game font's `font:<digest>:<path>` (the TTF's content
digest, so an edited file is a new font). One TTF file per key gives the PDF and the PNG
identical glyph metrics; the text layout measures with ReportLab's TTF parser.

A game's fonts are the .ttf/.otf files in its folder (the one holding game.yaml, any
depth), then those in layouts/fonts/ (the display faces the shipped games name), named by the
family and style in each file's own name table: a game's own file wins a name both hold.
"""

from __future__ import annotations

import contextlib
import hashlib
import struct
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

# isort: off
import casebook.generator.backends.lazy_pillow  # noqa: F401 - before ReportLab, which imports PIL.Image
# isort: on
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFile

FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"
FONT_FILES = {
    "regular": "Vera.ttf",
    "bold": "VeraBd.ttf",
    "italic": "VeraIt.ttf",
    "bolditalic": "VeraBI.ttf",
}
GAME_FONT = "font:"  # a game font's key: GAME_FONT + content digest + ":" + absolute path
FONT_SUFFIXES = (".ttf", ".otf")
MAX_FONT_BYTES = 20 * 1024 * 1024  # a font file larger than this is refused (the largest CJK TTFs are ~17 MB)
REGULAR_STYLES = ("regular", "book", "normal", "roman", "plain", "")  # what a family's upright text weight is called
CFF_ADVICE = ("convert it to TrueType outlines (FontForge: File > Generate Fonts > TrueType; or fontTools' otf2ttf), "
              "or use the family's .ttf files, which most font sites offer beside the .otf")


class _PdfNames(dict[str, str]):
    """Font key -> the name ReportLab knows it by; a game font is registered the first time it is asked for."""

    def __missing__(self, key: str) -> str:
        if not is_game_font(key):
            raise KeyError(key)
        name = f"Casebook-{key.split(':')[1]}"  # by content: a game's font never takes another's (or our) name
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(font_path(key))))
        self[key] = name
        return name


PDF_NAMES = _PdfNames({style: f"Casebook-{style}" for style in FONT_FILES})


def is_game_font(key: str) -> bool:
    return key.startswith(GAME_FONT)


def font_path(key: str) -> Path:
    """The TTF file a font key draws with."""
    if is_game_font(key):
        return Path(key.split(":", 2)[2])
    return FONT_DIR / FONT_FILES[key]


@cache
def register_pdf_fonts() -> None:
    for style in FONT_FILES:
        pdfmetrics.registerFont(TTFont(PDF_NAMES[style], str(font_path(style))))


def check_style(style: str) -> str:
    if style not in FONT_FILES:
        raise ValueError(f"unknown font '{style}'; one of: {', '.join(FONT_FILES)}")
    return style


WORDS_HELD = 2048  # words whose widths Metrics keeps (the common ones are measured again at most once per 2048 new)


class Metrics:
    """Text widths and vertical metrics in points, cached per word at size 1."""

    def __init__(self) -> None:
        register_pdf_fonts()
        self._cache: dict[tuple[str, str], float] = {}

    def width(self, text: str, style: str, size: float) -> float:
        key = (style, text)
        unit = self._cache.get(key)
        if unit is None:
            unit = pdfmetrics.stringWidth(text, PDF_NAMES[style], 1000.0) / 1000.0
            if len(self._cache) >= WORDS_HELD:  # a deck's numbered names would otherwise all stay: start afresh
                self._cache.clear()
            self._cache[key] = unit
        return unit * size

    def ascent(self, style: str, size: float) -> float:
        face = pdfmetrics.getFont(PDF_NAMES[style]).face
        return float(face.ascent) / 1000.0 * size

    def descent(self, style: str, size: float) -> float:
        face = pdfmetrics.getFont(PDF_NAMES[style]).face
        return -float(face.descent) / 1000.0 * size

    def cap_height(self, style: str, size: float) -> float:
        """How far a capital H stands above the baseline, from its outline (the fonts' own cap height field is not set)."""
        return _cap_unit(style) * size


@cache
def _cap_unit(style: str) -> float:
    from PIL import ImageFont

    face = pdfmetrics.getFont(PDF_NAMES[style]).face
    em = 2048 if style in FONT_FILES else int(face.unitsPerEm)  # the font's units per em: the outline's height comes out exact
    if not face.charToGlyph.get(ord("H")):
        return float(face.capHeight) / 1000.0
    return -ImageFont.truetype(str(font_path(style)), em).getbbox("H", anchor="ls")[1] / em


@cache
def metrics() -> Metrics:
    return Metrics()


@cache
def _covered(key: str) -> frozenset[str]:
    """The characters a font has a glyph for."""
    face = pdfmetrics.getFont(PDF_NAMES[key]).face
    return frozenset(chr(code) for code, glyph in face.charToGlyph.items() if glyph)


def missing_glyphs(key: str, text: str) -> tuple[str, ...]:
    """The characters of `text` the font has no glyph for (spaces and controls aside), each once, in order."""
    covered = _covered(key)
    if covered.issuperset(text):
        return ()
    return tuple(ch for ch in dict.fromkeys(text) if ch not in covered and ch.isprintable() and not ch.isspace())


# --- a game's own fonts ---------------------------------------------------------------------


class FontError(ValueError):
    """A font a layout names that the game's folder does not hold; `expected` says what would be right."""

    def __init__(self, message: str, expected: str | None = None):
        super().__init__(message)
        self.expected = expected


@dataclass(frozen=True)
class GameFont:
    """One usable TTF of a game: its key and the names its name table gives it."""

    key: str
    path: Path
    family: str  # typographic family (name ID 16), else the family (ID 1)
    style: str  # typographic style (ID 17), else the style (ID 2)
    base_family: str  # ID 1: the family of up to four styles that bold and italic switch between
    base_style: str  # ID 2
    bold: bool
    italic: bool

    @property
    def name(self) -> str:
        return f"{self.family} {self.style}"

    @property
    def is_regular(self) -> bool:
        return not self.bold and not self.italic and _norm(self.base_style) in REGULAR_STYLES


@dataclass(frozen=True)
class RefusedFont:
    """A font file that cannot be used, and why; its names if they could be read."""

    path: Path
    reason: str
    names: tuple[str, ...] = ()  # normalised "family style" (and "family" for its regular), when readable
    advice: str | None = None


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _names(table: bytes) -> dict[int, str]:
    """Name IDs 1, 2, 16 and 17 of a TrueType name table, Windows English first."""
    found: dict[int, tuple[int, str]] = {}
    count, strings = struct.unpack(">HH", table[2:6])
    for i in range(count):
        platform, encoding, language, name_id, length, offset = struct.unpack(">6H", table[6 + 12 * i:18 + 12 * i])
        if name_id not in (1, 2, 16, 17):
            continue
        raw = table[strings + offset:strings + offset + length]
        if platform == 3 and encoding in (0, 1, 10):
            rank, text = (0 if language == 0x409 else 1), raw.decode("utf-16-be", "replace")
        elif platform == 0:
            rank, text = 2, raw.decode("utf-16-be", "replace")
        elif platform == 1 and encoding == 0:
            rank, text = 3, raw.decode("mac_roman", "replace")
        else:
            continue
        text = text.strip("\x00 ")
        if text and (name_id not in found or rank < found[name_id][0]):
            found[name_id] = (rank, text)
    return {k: v[1] for k, v in found.items()}


def read_font(path: Path) -> GameFont | RefusedFont:
    """A font file checked as both backends will read it: a GameFont, or why it is refused."""
    try:
        size = path.stat().st_size
        if size > MAX_FONT_BYTES:
            return RefusedFont(path, f"is {size / 1e6:.1f} MB, over the {MAX_FONT_BYTES // 2**20} MB a font file may be")
        data = path.read_bytes()
    except OSError as exc:
        return RefusedFont(path, f"cannot be read: {exc.strerror or exc}")
    if data[:4] == b"OTTO":
        return RefusedFont(path, "has PostScript (CFF) outlines, which cannot be embedded in the PDF (only TrueType ones can)",
                           _pillow_names(path), CFF_ADVICE)
    try:
        ttf = TTFontFile(str(path))
        names = _names(ttf.get_table("name"))
        mac_style = struct.unpack(">H", ttf.get_table("head")[44:46])[0]
        os2 = ttf.get_table("OS/2") if "OS/2" in ttf.table else b""
        selection = struct.unpack(">H", os2[62:64])[0] if len(os2) >= 64 else 0
        from PIL import ImageFont

        ImageFont.truetype(str(path), 12)  # the PNG backend's FreeType must read it too
    except Exception as exc:  # a corrupt file fails anywhere in either parser
        return RefusedFont(path, f"is not a TrueType font this tool can read ({exc or 'damaged'}): download the font "
                           "again, or use another .ttf of the family")
    base_family = names.get(1) or ttf.familyName.decode("latin-1")
    base_style = names.get(2) or "Regular"
    digest = hashlib.sha1(data).hexdigest()[:16]
    return GameFont(f"{GAME_FONT}{digest}:{path.resolve()}", path, names.get(16) or base_family,
                    names.get(17) or base_style, base_family, base_style,
                    bool(mac_style & 1 or selection & 32), bool(mac_style & 2 or selection & 1))


def checked_font(path: Path) -> GameFont | RefusedFont:
    """read_font(path), kept in the user's cache (rules/yamlsource.py cache_folder) for a usable font: a build
    does not parse with both backends' readers, on every run, each display face its layouts may name.

    An entry is named for the file's absolute path, size and time of change (as GameFonts.fingerprint
    tells a font's edit), under a folder named for this module's code and ReportLab's and Pillow's
    versions. A refused font is never kept: its message is said on every run."""
    import os
    import pickle

    from casebook.rules.yamlsource import _prune

    folder = _font_cache()
    if folder is None:
        return read_font(path)
    try:
        st = path.stat()
        where = path.resolve()
    except OSError:
        return read_font(path)  # says it cannot be read
    entry = folder / hashlib.sha1(f"{where}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()
    try:
        with open(entry, "rb") as f:
            kept = pickle.load(f)
        if isinstance(kept, GameFont) and kept.path == path:
            return kept
    except Exception:  # noqa: BLE001 - none kept yet, or an entry cut short, corrupt or of another make
        pass
    got = read_font(path)
    if isinstance(got, GameFont):
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(pickle.dumps(got, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, entry)  # whole or not at all
        except (OSError, pickle.PicklingError):
            with contextlib.suppress(OSError):
                tmp.unlink()
        else:
            _prune(folder)  # a new font file (or an edit of one): rare
    return got


@cache
def _font_cache() -> Path | None:
    import PIL  # its package alone (the version), not PIL.Image

    from casebook.rules.yamlsource import cache_folder

    return cache_folder("fonts", (Path(__file__),), f"{reportlab.Version} {PIL.__version__}")


def _pillow_names(path: Path) -> tuple[str, ...]:
    """The names FreeType reads from a font ReportLab cannot use (a CFF OpenType), for a clearer message."""
    try:
        from PIL import ImageFont

        family, style = ImageFont.truetype(str(path), 12).getname()
    except Exception:
        return ()
    return tuple(_norm(n) for n in (f"{family} {style}", family if _norm(style or "") in REGULAR_STYLES else "") if n)


def font_files(folder: Path) -> list[Path]:
    """The .ttf and .otf files below a game's folder, in path order."""
    try:
        return sorted(p for p in folder.rglob("*") if p.suffix.lower() in FONT_SUFFIXES and p.is_file())
    except OSError:
        return []


@dataclass
class GameFonts:
    """A game's own fonts: the TTFs in its folder, found by family and style; read when first asked for."""

    folder: Path
    shared: Path | None = None  # layouts/fonts/: display faces any game's layouts may name, after its own
    _fonts: list[GameFont] | None = None
    refused: list[RefusedFont] = field(default_factory=list)
    _by_name: dict[str, GameFont] = field(default_factory=dict)
    _by_key: dict[str, GameFont] = field(default_factory=dict)

    def fingerprint(self) -> str:
        """What the fonts' files are (path, size, time), without reading them: '' when the folder has none."""
        stats = []
        for path in self.files():
            try:
                st = path.stat()
            except OSError:
                continue
            stats.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
        return hashlib.sha1("\n".join(stats).encode()).hexdigest() if stats else ""

    def files(self) -> list[Path]:
        """The game folder's font files, then the shared folder's."""
        return font_files(self.folder) + (font_files(self.shared) if self.shared is not None else [])

    @property
    def fonts(self) -> list[GameFont]:
        if self._fonts is None:
            self._fonts = []
            for path in self.files():
                got = checked_font(path)
                if isinstance(got, RefusedFont):
                    self.refused.append(got)
                    continue
                self._fonts.append(got)
                self._by_key[got.key] = got
                names = {(got.family, got.style), (got.base_family, got.base_style)}
                for family, style in sorted(names):
                    self._by_name.setdefault(_norm(family + style), got)
                    if got.is_regular or (_norm(style) in REGULAR_STYLES and not got.bold and not got.italic):
                        self._by_name.setdefault(_norm(family), got)
                        self._by_name.setdefault(_norm(family + "regular"), got)
        return self._fonts

    def resolve(self, spec: Any) -> str:
        """The font key a layout's `font:` names: a Vera style, "Family Style", or {family, style}; FontError if none."""
        if isinstance(spec, dict):
            unknown = sorted(set(spec) - {"family", "style"})
            if unknown or not str(spec.get("family", "")).strip():
                raise FontError(f"a font mapping takes 'family' and 'style' (not {', '.join(unknown) or 'without family'})",
                                'font: {family: "Lobster Two", style: bold}')
            family, style = str(spec["family"]).strip(), str(spec.get("style", "regular")).strip()
            wanted = f"{family} {style}"
        else:
            wanted = str(spec).strip()
            if wanted in FONT_FILES:
                return wanted
            family, style = wanted, ""
        found = self._by_name.get(_norm(wanted)) if self.fonts else None
        if found is not None:
            return found.key
        raise self._unknown(wanted, family, style)

    def _unknown(self, wanted: str, family: str, style: str) -> FontError:
        for bad in self.refused:
            if _norm(wanted) in bad.names:
                return FontError(f"the font '{wanted}' is {bad.path}, which {bad.reason}", bad.advice)
        families: dict[str, list[str]] = {}
        for f in sorted(self.fonts, key=lambda f: (f.bold, f.italic, f.style)):  # regular, italic, bold, ...
            if f.style not in families.setdefault(f.family, []):
                families[f.family].append(f.style)
        refused = self.refused_note()
        if not style:  # "Family Style" in one string: the longest family it starts with
            starts = [f for f in families if _norm(wanted).startswith(_norm(f)) and _norm(wanted) != _norm(f)]
            if starts:
                family = max(starts, key=len)
                words = len(family.split())
                style = " ".join(wanted.split()[words:]) or wanted
        if style and _norm(family) in {_norm(f) for f in families}:
            styles = next(v for k, v in families.items() if _norm(k) == _norm(family))
            return FontError(f"the font family '{family}' in {self.folder} has no style '{style}'{refused}",
                             "one of its styles: " + ", ".join(styles))
        listing = "; ".join(f"{name} ({', '.join(styles)})" for name, styles in sorted(families.items()))
        where = f"the families in {self.folder}: {listing}" if families else f"no .ttf font in {self.folder}"
        return FontError(f"unknown font '{wanted}': {where}{refused}",
                         "a family and style from that list (\"Family Style\" or {family: ..., style: ...}), "
                         "or one of regular, bold, italic, bolditalic (Bitstream Vera)")

    def refused_note(self) -> str:
        """The font files of the folder that cannot be used, as a note to a message ('' if none)."""
        return "".join(f"; refused: {bad.path.name} ({bad.reason})" for bad in self.refused)

    def variants(self, key: str) -> tuple[str, ...]:
        """A game font's keys as itself, made bold, italic and both by markup ('' where its family has none); () for Vera."""
        font = self._by_key.get(key)
        if font is None:
            return ()
        out = []
        for add_bold, add_italic in ((False, False), (True, False), (False, True), (True, True)):
            bold, italic = font.bold or add_bold, font.italic or add_italic
            out.append(self._styled(font, bold, italic))
        return tuple(out)

    def _styled(self, font: GameFont, bold: bool, italic: bool) -> str:
        if (bold, italic) == (font.bold, font.italic):
            return font.key
        for other in self.fonts:  # the same four-style family first (name ID 1), as font menus pair them
            if other.base_family == font.base_family and (other.bold, other.italic) == (bold, italic):
                return other.key
        plain = "bolditalic" if bold and italic else "bold" if bold else "italic"
        for other in self.fonts:
            if other.family == font.family and _norm(other.style) in (plain, plain.replace("italic", "oblique")):
                return other.key
        return ""

    def describe(self, key: str) -> str:
        """A font key as a designer names it: 'DejaVu Serif Bold', or the Vera style."""
        font = self._by_key.get(key)
        return font.name if font is not None else f"{key} (Bitstream Vera)"

    def family_of(self, key: str) -> str:
        font = self._by_key.get(key)
        return font.family if font is not None else "Bitstream Vera"
