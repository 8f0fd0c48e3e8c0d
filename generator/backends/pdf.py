"""The PDF backend: draws scenes as vector with embedded TrueType fonts (ReportLab).

Pages are written with invariant=1, so the same input gives the same bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import re
import zlib
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

# isort: off
import casebook.generator.backends.lazy_pillow  # noqa: F401 - before ReportLab, which imports PIL.Image
# isort: on
import reportlab
from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, PATH_OPS, Canvas

from casebook.generator.backends.fonts import PDF_NAMES, register_pdf_fonts
from casebook.generator.scene import (
    Clip,
    Ellipse,
    Item,
    Picture,
    Polyline,
    Rect,
    Scene,
    Shape,
    TextRun,
    Unclip,
)
from casebook.generator.units import mm_to_pt

if TYPE_CHECKING:
    from casebook.generator.cache import SceneStore


_UNMAPPED = re.compile("[\x18-\x1f]")  # the ASCII characters PDFDocEncoding has no code for (its codec refuses them)
_pdfdoc_codec = pdfdoc.pdfdocEnc
_FONT_NAMES = frozenset(PDF_NAMES.values())


def _pdfdoc_bytes(x: object) -> object:
    """ReportLab's pdfdocEnc, the same bytes, without its charmap codec for text that is ASCII (where each character
    is its own code: checked in tests/generator/test_pdf_encoding.py): a form's body or an object's text is encoded at
    once, not a character at a time through a Python codec (a tenth of a cold P.I. build's PDF writing)."""
    if isinstance(x, str) and x.isascii() and not _UNMAPPED.search(x):
        return x.encode("ascii")
    return _pdfdoc_codec(x)


@contextlib.contextmanager
def _our_encoding() -> Iterator[None]:
    """Our _pdfdoc_bytes as pdfdoc.pdfdocEnc (a module global read by pdfdoc's format() and
    PDFFormXObject.setStreamList) while we write, ReportLab's own again after, even on an error: another
    ReportLab user of the process meets ReportLab's function (the bytes would be the same, but the swap is ours
    to keep within our own writing). Nested uses put back what they found."""
    before = pdfdoc.pdfdocEnc
    pdfdoc.pdfdocEnc = _pdfdoc_bytes
    try:
        yield
    finally:
        pdfdoc.pdfdocEnc = before


@cache
def _colour(hexstr: str) -> Color:
    return HexColor(hexstr)


@cache
def _fill_op(hexstr: str) -> str:
    """What Canvas.setFillColor writes for a colour."""
    colour = _colour(hexstr)
    return f"{fp_str(colour.red, colour.green, colour.blue)} rg"


@cache
def _size_ops(size: float) -> str:
    """A font size as drawString sets it (the leading 1.2 times the size, as Canvas.setFont leaves it)."""
    return f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"


@cache
def _font(name: str) -> TTFont:
    return pdfmetrics.getFont(name)


def _placers(ox: float, oy: float, page_h: float) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """A scene's x and y in mm (y down, from (ox, oy)) as the page's points (y up)."""

    def X(v: float) -> float:
        return mm_to_pt(ox + v)

    def Y(v: float) -> float:
        return mm_to_pt(page_h - (oy + v))

    return X, Y


@cache
def _paint_ops(fill: str | None, stroke: str | None, width: float, dash: tuple[float, ...]) -> str:
    """What PdfDocument._paint writes (setFillColor, setStrokeColor, setLineWidth, setDash), each line ended."""
    ops = [_fill_op(fill)] if fill else []
    if stroke:
        colour = _colour(stroke)
        ops += [f"{fp_str(colour.red, colour.green, colour.blue)} RG", f"{fp_str(mm_to_pt(width))} w",
                f"[{fp_str([mm_to_pt(d) for d in dash])}] 0 d"]
    return "".join(f"{op}\n" for op in ops)


def _outline(points: tuple[tuple[float, float], ...], ox: float, oy: float, page_h: float, closed: bool) -> str:
    """A path's moveto and linetos (and h to close it) as PDFPathObject writes them, its numbers formatted at once."""
    numbers = fp_str(*[v for px, py in points for v in (mm_to_pt(ox + px), mm_to_pt(page_h - (oy + py)))]).split(" ")
    ops = [f"{numbers[0]} {numbers[1]} m", *(f"{numbers[i]} {numbers[i + 1]} l" for i in range(2, len(numbers), 2))]
    if closed:
        ops.append("h")
    return " ".join(ops)


def _shared_part(scene: Scene) -> tuple[Scene, tuple[float, float], tuple[int, int]] | None:
    """What of a scene is another scene moved, if the scene says so (a tiled board's page, board.TiledPage, offers
    shared_part(): the board, how far it is moved, which of the page's items are the board's)."""
    offer = getattr(scene, "shared_part", None)
    return offer() if callable(offer) else None


def _picture_form(points: list[tuple[float, float]], rings: list[tuple[int, bool]], paint: str,
                  ox: float, oy: float, page_h: float) -> tuple[str, float, float, float]:
    """A big outline as a form's body in its own units (its larger side FORM_UNITS long, y up from its
    bottom-left), with where it lands: (body, scale in points a unit, x and y of that corner in points).

    The body depends only on the outline's shape, not on where it is drawn nor how large: the same
    picture on every card, or the same board on every tile, gives the same body, written once.
    """
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    left, top = min(xs), min(ys)
    extent = max(max(xs) - left, max(ys) - top) or 1.0
    k = FORM_UNITS / extent
    bottom = max(ys)
    numbers = fp_str(*[v for x, y in points for v in (round((x - left) * k, 2), round((bottom - y) * k, 2))]).split(" ")
    ops, at = [], 0
    for count, closed in rings:
        ops.append(f"{numbers[2 * at]} {numbers[2 * at + 1]} m")
        ops.extend(f"{numbers[i]} {numbers[i + 1]} l" for i in range(2 * at + 2, 2 * (at + count), 2))
        if closed:
            ops.append("h")
        at += count
    body = f"n {' '.join(ops)}\n{paint}"
    return body, mm_to_pt(extent) / FORM_UNITS, mm_to_pt(ox + left), mm_to_pt(page_h - (oy + bottom))


def _placed_form(item: Polyline | Shape, ox: float, oy: float, page_h: float,
                 fill: str | None, paint: str) -> tuple[str, str, str] | None:
    """A big outline drawn through a picture form: (the operators placing it, the form's name, its body);
    None for a small one, a dashed one, or one whose line is wider than it (drawn as it is)."""
    if isinstance(item, Shape):
        rings = [(len(ring), True) for ring in item.subpaths]
        points = [p for ring in item.subpaths for p in ring]
        dash: tuple[float, ...] = ()
    else:
        rings, points, dash = [(len(item.points), item.closed)], list(item.points), item.dash
    if len(points) < PICTURE_POINTS or dash:
        return None
    body, scale, x, y = _picture_form(points, rings, paint, ox, oy, page_h)
    width = mm_to_pt(item.width) / scale if item.stroke else 0.0
    if width > FORM_UNITS:
        return None
    name = f"Pic{hashlib.sha1(body.encode()).hexdigest()[:12]}"
    ops = [_fill_op(fill)] if fill else []
    if item.stroke:
        colour = _colour(item.stroke)
        ops += [f"{fp_str(colour.red, colour.green, colour.blue)} RG", f"{fp_str(width)} w", "[] 0 d"]
    ops.append(f"{fp_str(scale, 0, 0, scale, x, y)} cm /{pdfdoc.xObjectName(name)} Do")
    return f"q\n{chr(10).join(ops)}\nQ", name, body


_MADE = ("_forms", "_pictures", "_images", "_svgs")  # the forms, pictures and images a document made (by name)
PICTURE_POINTS = 24  # an outline of this many points or more is a picture: written once a document, placed by reference
FORM_UNITS = 1000.0  # a picture form's larger side, in its own units
OPS_HELD = 4096  # drawn items whose operators are kept (a deck's recurring shapes; its names, drawn once each, come and go)
# (shape, ox, oy, page height) -> its operators, the same in every document; for a picture, with its form's name and body
_SHAPE_OPS: dict[tuple[object, ...], str | tuple[str, str, str]] = {}


class PdfDocument:
    """A PDF being written: pages of a size in mm, scenes drawn at offsets in mm."""

    def __init__(self, path: Path | str, title: str = "", author: str = "Casebook", duplex: bool = True,
                 store: SceneStore | None = None):
        self.store = store  # where compressed pages are kept for the next build
        register_pdf_fonts()
        # the initial font is one of ours, so the file names no font it does not embed (Helvetica)
        self.canvas = Canvas(str(path), invariant=1, pageCompression=1, pdfVersion=(1, 7),
                             initialFontName=PDF_NAMES["regular"])
        # print at actual size; sheets with mirrored backs are meant for long-edge duplex
        self.canvas.setViewerPreference("PrintScaling", "None")
        if duplex:
            self.canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
        self.canvas.setTitle(title)
        self.canvas.setAuthor(author)
        self.canvas.setCreator("Casebook")
        self.page_h = 0.0
        self.pages = 0
        self._texts: dict[tuple[object, ...], str] = {}  # (text run, ox, oy, page height) -> its operators here
        self._ascii: dict[str, set[str]] = {}  # font -> the ASCII characters that are their own codes in its subset 0

    def begin_page(self, width: float, height: float, trim: tuple[float, float, float, float] | None = None,
                   bleed: tuple[float, float, float, float] | None = None) -> None:
        """Start a page of width x height mm; trim/bleed boxes (x, y, w, h in mm, y down) if given."""
        c = self.canvas
        c.setPageSize((mm_to_pt(width), mm_to_pt(height)))
        self.page_h = height
        if trim is not None:
            c.setTrimBox(self._box(trim))
        if bleed is not None:
            c.setBleedBox(self._box(bleed))
        c.setLineCap(1)
        c.setLineJoin(1)

    def _box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x, y, w, h = box
        return (mm_to_pt(x), mm_to_pt(self.page_h - y - h), mm_to_pt(x + w), mm_to_pt(self.page_h - y))

    def end_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1
        page = self.canvas._doc.Pages.pages[-1]
        taken, keeping = self.__dict__.pop("_taken", None), self.__dict__.pop("_keeping", None)
        if taken is not None and self.store is not None:  # its content the page's kept whole (replay_page)
            page.Contents = _StoredStream(self.store, self.store.spot(taken), _filter_dictionary(_FLATE_NAMES))
            page.stream = None
        else:
            stored = _compress_now(page, self.store)
            if keeping is not None and stored is not None and self.store is not None:
                key, forms, grown = keeping
                self.store.put_blob(key, marshal.dumps((stored, forms, grown)))
        _finish_page(page, self.canvas._doc, self.__dict__.setdefault("_shared", {}))

    def _state(self) -> tuple[object, ...]:
        """What of this document drawing a page may read or add to, told apart cheaply (within a document it only
        grows): each font's subset state, the fonts named, the objects, forms, pictures and images made, the
        page's own resources."""
        c = self.canvas
        doc = c._doc
        fonts = []
        for name in PDF_NAMES.values():
            state = _font(name).state.get(doc)
            fonts.append(None if state is None else (state.internalName, len(state.assignments), state.nextCode))
        d = self.__dict__
        return (tuple(fonts), len(doc.fontMapping), len(doc.idToObject), len(c._formsinuse),
                *(len(d.get(k, ())) for k in _MADE), c._currentPageHasImages, len(c._colorsUsed),
                len(c._shadingUsed), c._extgstate.getState() is None)

    def _state_digest(self) -> str:
        """A digest of what a page's operators may depend on in this document besides what it draws (the codes its
        fonts give characters, the fonts' and forms' names), made again only when the document's state grew."""
        version = self._state()
        version = (version[:2], version[4:])  # not the objects nor the page's forms: those grow with every page
        kept = self.__dict__.get("_digest")
        if kept is not None and kept[0] == version:
            return cast(str, kept[1])
        digest = self._digest_of(None)
        self.__dict__["_digest"] = (version, digest)
        return digest

    def _digest_of(self, counts: tuple[int | None, ...] | None) -> str:
        """_state_digest's digest; with `counts` (each font's characters at a page's mark), the one the document had
        then, before the page added characters to its fonts (a font's characters are only ever added, in order)."""
        doc = self.canvas._doc
        fonts = []
        for i, name in enumerate(PDF_NAMES.values()):
            state = _font(name).state.get(doc)
            assigned = None if state is None else tuple(state.assignments.items())
            if assigned is not None and counts is not None:
                assigned = assigned[:counts[i]]
            fonts.append(None if state is None else (state.internalName, assigned))
        d = self.__dict__
        made = [sorted(d.get(k, {}).items()) if k != "_pictures" else sorted(d.get(k, {})) for k in _MADE]  # a body: its name
        return hashlib.sha1(repr((fonts, sorted(doc.fontMapping.items()), made)).encode()).hexdigest()

    def _new_characters(self, before: tuple[object, ...], after: tuple[object, ...]) -> tuple[tuple[str, str], ...] | None:
        """The characters a page added to each font of the document since `before` (_state()'s fonts), in the order
        they were given codes: (font, characters) for each font that has new ones; None if a font changed otherwise
        (first used on the page: its subset named)."""
        grown = []
        for name, was, now in zip(PDF_NAMES.values(), before, after, strict=True):
            if was == now:
                continue
            if not (isinstance(was, tuple) and isinstance(now, tuple) and was[0] == now[0]):
                return None
            assigned = list(_font(name).state[self.canvas._doc].assignments)
            grown.append((name, "".join(map(chr, assigned[was[1]:]))))
        return tuple(grown)

    def _can_add(self, grown: object) -> bool:
        """Whether `grown` (what _new_characters said of a kept page) is characters each font of it can give a code to
        here: none of them there yet, each in the font, none twice."""
        if type(grown) is not tuple:
            return False
        doc = self.canvas._doc
        for entry in grown:
            if type(entry) is not tuple or len(entry) != 2 or entry[0] not in _FONT_NAMES or type(entry[1]) is not str:
                return False
            name, chars = entry
            font, state = _font(name), _font(name).state.get(doc)
            codes = [ord(c) for c in chars]
            if state is None or not codes or len(set(codes)) != len(codes) or 0xA0 in codes \
                    or any(c in state.assignments or c not in font.face.charToGlyph for c in codes):
                return False
        return True

    def replay_page(self, key: str) -> bool:
        """Take the page an earlier build drew under `key` (a digest of everything the page draws) whole, if it kept
        it and this document is in the state it was in then (_state_digest): the forms it places are named and its
        content is the one kept compressed in the store (end_page puts it in). False (nothing drawn) if there is
        none to take: the caller draws the page, then calls keep_page."""
        if self.store is None or not self.store.has_previous():
            return False
        blob = self.store.blob(f"{key}:{self._state_digest()}:{_ENCODING}")  # kept for this state, or none
        if blob is None:
            return False
        try:
            content, forms, grown = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):  # a stored page cut short or corrupt: drawn anew
            return False
        if type(content) is not str or not content.startswith(f"zpage:{_ENCODING}:") or type(forms) is not tuple \
                or not all(type(form) is str for form in forms) or not self._can_add(grown) or content not in self.store:
            return False  # (`in` carries the compressed content into this build's store, if the last one kept it)
        self.canvas._formsinuse.extend(forms)
        for name, chars in grown:  # the codes its text was written with, given as drawing it gave them
            _font(name).splitString(chars, self.canvas._doc)
        self._taken = content
        return True

    def page_mark(self) -> tuple[int, tuple[object, ...]]:
        """Where a page's drawing begins, for keep_page."""
        return len(self.canvas._formsinuse), self._state()

    def keep_page(self, key: str, mark: tuple[int, tuple[object, ...]]) -> None:
        """Keep the page for the next build (with end_page, once it is compressed), if drawing it since `mark` added
        nothing to the document but its operators, the forms it places and new characters to fonts already used
        (no font named anew, no new form, picture or image): its content is then a function of what it draws and of
        this document's state alone, and the characters are given their codes again when it is taken (replay_page)."""
        forms_at, state = mark
        now = self._state()
        if self.store is None or now[1:3] != state[1:3] or now[4:] != state[4:]:
            return
        grown = self._new_characters(cast(tuple, state[0]), cast(tuple, now[0]))
        if grown is None:
            return
        # under the document's state before the page: with new characters, the digest it had then
        digest = self._digest_of(tuple(f and f[1] for f in cast(tuple, state[0]))) if grown else self._state_digest()
        self._keeping = (f"{key}:{digest}:{_ENCODING}", tuple(self.canvas._formsinuse[forms_at:]), grown)

    def bookmark(self, title: str, key: str, level: int = 0) -> None:
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(title, key, level=level)

    def draw(self, scene: Scene, ox: float = 0.0, oy: float = 0.0,
             clip: tuple[float, float, float, float] | None = None) -> None:
        """Draw a scene with its top-left corner at (ox, oy) mm, clipped to a page box if given.

        Each item's operators are the ones ReportLab's canvas calls write for it (the file's
        bytes are the same), made once and kept: a shape's in _SHAPE_OPS for every document
        (a deck's frames and emblems recur on every card), a line of text's for this one (its
        font's name is this document's). Between a Clip and its Unclip the operators are q
        and Q alone: no drawing here changes the canvas's own state, so none is saved.
        """
        c = self.canvas
        if clip is not None:
            c.saveState()
            self.clip_box(clip)
        shared = _shared_part(scene)
        if shared is None:
            self._draw_items(scene.items, ox, oy)
        else:  # a tiled board's page: the board drawn once as a form, placed on each of its pages
            board, (dx, dy), (start, stop) = shared
            self._draw_items(scene.items[:start], ox, oy)
            self.draw_reused(f"board-{id(board)}", board, ox + dx, oy + dy)
            self._draw_items(scene.items[stop:], ox, oy)
        if clip is not None:
            c.restoreState()

    def _draw_items(self, items: list[Item], ox: float, oy: float) -> None:
        """Scene items with the scene's top-left at (ox, oy) mm (see draw)."""
        code = self.canvas._code
        ph = self.page_h
        shapes, texts = _SHAPE_OPS, self._texts
        for item in items:
            kind = type(item)
            if kind is TextRun:
                key = (item, ox, oy, ph)
                ops = texts.get(key)
                if ops is None:
                    if len(texts) >= OPS_HELD:  # a deck's names are each drawn once: start afresh
                        texts.clear()
                    ops = texts[key] = self._text_ops(cast(TextRun, item), ox, oy)
                code.append(ops)
            elif kind is Unclip:
                code.append("Q")
            elif kind is Picture:
                self._picture(cast(Picture, item), *_placers(ox, oy, ph))
            else:
                key = (item, ox, oy, ph)
                drawn = shapes.get(key)
                if drawn is None:
                    if len(shapes) >= OPS_HELD:
                        shapes.clear()
                    drawn = shapes[key] = self._shape_ops(cast("Rect | Ellipse | Polyline | Shape | Clip", item), ox, oy)
                if isinstance(drawn, tuple):  # a picture: its form written into this document once
                    self.use_picture(drawn[1], drawn[2])
                    code.append(drawn[0])
                elif drawn:
                    code.append(drawn)

    def use_picture(self, name: str, body: str) -> None:
        """Let the page (or form) being drawn place the picture form `name`, written into this document the first time."""
        c = self.canvas
        pictures: dict[str, str] = self.__dict__.setdefault("_pictures", {})
        if name not in pictures:
            pictures[name] = body
            margin = FORM_UNITS / 2  # a stroke's half width at most (a wider line is not drawn as a form)
            form = pdfdoc.PDFFormXObject(-margin, -margin, FORM_UNITS + margin, FORM_UNITS + margin)
            form.hasImages = 0
            with _our_encoding():
                form.setStreamList(body)
            flate_only(form)
            c._doc.Reference(form, pdfdoc.xObjectName(name))
        c._formsinuse.append(name)

    def picture_body(self, name: str) -> str:
        """The body of a picture form this document holds."""
        return cast("dict[str, str]", self.__dict__["_pictures"])[name]

    def _shape_ops(self, item: Rect | Ellipse | Polyline | Shape | Clip, ox: float,
                   oy: float) -> str | tuple[str, str, str]:
        """The operators the canvas writes for a shape (or a Clip's q and clipping path), '' for one that paints nothing.

        A big outline (a picture's, a board's district) is placed as a form instead: (the operators,
        the form's name, its body), the form written once a document however often it is drawn.

        Straight outlines (a plain rectangle, a polyline, a compound shape: a board's thousands of
        pieces, each drawn once) are written here as Canvas.rect and drawPath write them; a rounded
        rectangle and an ellipse, whose curves ReportLab works out, through the canvas.
        """
        ph = self.page_h
        fill_mode = self.canvas._fillMode
        if isinstance(item, Rect) and item.radius <= 0:
            paint = _paint_ops(item.fill, item.stroke, item.width, item.dash)
            box = fp_str(mm_to_pt(ox + item.x), mm_to_pt(ph - (oy + (item.y + item.h))), mm_to_pt(item.w),
                         mm_to_pt(item.h))
            return f"{paint}n {box} re {PATH_OPS[int(bool(item.stroke)), int(bool(item.fill)), fill_mode]}"
        if isinstance(item, Polyline):
            fill = item.fill if item.closed else None
            if not fill and not item.stroke:
                return ""
            op = PATH_OPS[int(bool(item.stroke)), int(bool(fill)), fill_mode]
            placed = _placed_form(item, ox, oy, ph, fill, op)
            if placed is not None:
                return placed
            path = _outline(item.points, ox, oy, ph, item.closed)
            return (f"{_paint_ops(fill, item.stroke, item.width, item.dash)}n {path}\n"
                    f"{PATH_OPS[int(bool(item.stroke)), int(bool(fill)), fill_mode]}")
        if isinstance(item, Shape):
            if not item.fill and not item.stroke:
                return ""
            path = " ".join(_outline(ring, ox, oy, ph, True) for ring in item.subpaths)
            mode = FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO
            placed = _placed_form(item, ox, oy, ph, item.fill, PATH_OPS[int(bool(item.stroke)), int(bool(item.fill)), mode])
            if placed is not None:
                return placed
            return (f"{_paint_ops(item.fill, item.stroke, item.width, ())}n {path}\n"
                    f"{PATH_OPS[int(bool(item.stroke)), int(bool(item.fill)), mode]}")
        c = self.canvas
        code = c._code
        start = len(code)
        X, Y = _placers(ox, oy, ph)
        if isinstance(item, Rect):
            self._paint(item.fill, item.stroke, item.width, item.dash)
            c.roundRect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h),
                        mm_to_pt(item.radius), stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
        elif isinstance(item, Ellipse):
            self._paint(item.fill, item.stroke, item.width, ())
            c.ellipse(X(item.cx - item.rx), Y(item.cy + item.ry), X(item.cx + item.rx), Y(item.cy - item.ry),
                      stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
        else:  # Clip: what saveState writes (q), then the clipping path
            code.append("q")
            path = c.beginPath()
            path.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h))
            c.clipPath(path, stroke=0, fill=0)
        ops = "\n".join(code[start:])
        del code[start:]
        return ops

    def _text_ops(self, item: TextRun, ox: float, oy: float) -> str:
        """The operators setFillColor, setFont and drawString write for a line of text (the same bytes)."""
        X, Y = _placers(ox, oy, self.page_h)
        if item.angle:  # turned: through the canvas (its state is saved and put back around it)
            c = self.canvas
            code = c._code
            start = len(code)
            c.setFillColor(_colour(item.colour))
            c.setFont(PDF_NAMES[item.font], item.size)
            c.saveState()
            c.translate(X(item.x), Y(item.y))
            c.rotate(-item.angle)  # the scene turns clockwise with y down; PDF's y is up
            c.drawString(0, 0, item.text)
            c.restoreState()
            ops = "\n".join(code[start:])
            del code[start:]
            return ops
        return f"{_fill_op(item.colour)}\nBT 1 0 0 1 {fp_str(X(item.x), Y(item.y))} Tm {self._shown(item)} T* ET"

    def _shown(self, item: TextRun) -> str:
        """What PDFTextObject._formatText writes for a TrueType font: each subset's font, then its bytes shown."""
        name = PDF_NAMES[item.font]
        font = _font(name)
        doc = self.canvas._doc
        text = item.text
        known = self._ascii.get(name)
        if known is not None and text.isascii() and known.issuperset(text):
            parts = [(0, text.encode("ascii"))]  # each character is its own code in subset 0: no need to ask the font
        else:
            parts = font.splitString(text, doc)
            if font._asciiReadable and text.isascii() and parts == [(0, text.encode("ascii"))]:
                self._ascii.setdefault(name, set()).update(text)
        size = _size_ops(item.size)
        shown, current = [], -1
        for subset, chunk in parts:
            if subset != current:
                shown.append(f"{font.getSubsetInternalName(subset, doc)} {size}")
                current = subset
            shown.append(f"({escapePDF(chunk)}) Tj")
        return " ".join(shown)

    def _picture(self, item: Picture, X: Callable[[float], float], Y: Callable[[float], float]) -> None:
        """An image placed on its box: a raster file's pixels or an SVG's drawing, each embedded once per document."""
        # Pillow's image readers: imported only for a scene that shows a picture
        from casebook.generator.backends import imagefiles

        c = self.canvas
        c.saveState()
        if item.clip is not None:
            cx, cy, cw, ch = item.clip
            path = c.beginPath()
            if item.radius > 0:
                path.roundRect(X(cx), Y(cy + ch), mm_to_pt(cw), mm_to_pt(ch), mm_to_pt(item.radius))
            else:
                path.rect(X(cx), Y(cy + ch), mm_to_pt(cw), mm_to_pt(ch))
            c.clipPath(path, stroke=0, fill=0)
        x, y, w, h = X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h)
        if item.angle:  # half a turn about the box's centre
            c.transform(-1, 0, 0, -1, 2 * x + w, 2 * y + h)
        if item.kind == "svg":
            name, dw, dh = self._svg_form(item)
            c.transform(w / dw, 0, 0, h / dh, x, y)
            c.doForm(name)
        else:
            name, orientation = self._image_object(item)
            c.transform(*imagefiles.orientation_matrix(orientation, x, y, w, h))
            c._code.append(f"/{c._doc.getXObjectName(name)} Do")
            c._formsinuse.append(name)
            c._currentPageHasImages = 1
        c.restoreState()

    def _image_object(self, item: Picture) -> tuple[str, int]:
        """The image XObject of a raster file (named by its content), made the first time a page shows it."""
        made: dict[str, tuple[str, int]] = self.__dict__.setdefault("_images", {})
        found = made.get(item.digest)
        if found is None:
            from casebook.generator.backends import imagefiles

            doc = self.canvas._doc
            name = f"Img{item.digest[:20]}"
            image, alpha, orientation = imagefiles.pdf_image(item.path, item.digest, name, self.store)
            if alpha is not None:
                image.smask = doc.Reference(alpha, doc.getXObjectName(name + "A"))
            doc.Reference(image, doc.getXObjectName(name))
            found = made[item.digest] = (name, orientation)
        return found

    def _svg_form(self, item: Picture) -> tuple[str, float, float]:
        """An SVG drawn once as a form XObject in its own points: (its name, width, height)."""
        made: dict[str, tuple[str, float, float]] = self.__dict__.setdefault("_svgs", {})
        found = made.get(item.digest)
        if found is None:
            from casebook.generator.backends import imagefiles

            drawing = imagefiles.svg_drawing(item.path, item.digest, item.root)
            name = f"Svg{item.digest[:20]}"
            with _our_encoding():  # its body encoded as our forms are
                imagefiles.svg_form(self.canvas, name, drawing)
            flate_only(self.canvas._doc.idToObject[self.canvas._doc.getXObjectName(name)])
            found = made[item.digest] = (name, float(drawing.width), float(drawing.height))
        return found

    def _paint(self, fill: str | None, stroke: str | None, width: float, dash: tuple[float, ...]) -> None:
        c = self.canvas
        if fill:
            c.setFillColor(_colour(fill))
        if stroke:
            c.setStrokeColor(_colour(stroke))
            c.setLineWidth(mm_to_pt(width))
            c.setDash([mm_to_pt(d) for d in dash] if dash else [])

    def begin_placed(self, ox: float, oy: float, height: float,
                     clip: tuple[float, float, float, float] | None = None) -> None:
        """Open a drawing placed with its top-left at (ox, oy) mm, clipped to a page box if given.

        The operators saveState, clip_box and translate would write, written at once (a
        deck replays hundreds of these); close with end_placed. Between the two, q and Q
        keep the canvas's own state as it was, so nothing of it needs to change.
        """
        c = self.canvas
        code = c._code
        code.append("q")
        if clip is not None:
            x, y, w, h = clip
            rect = fp_str(mm_to_pt(x), mm_to_pt(self.page_h - y - h), mm_to_pt(w), mm_to_pt(h))
            code.append(f"n {rect} re {'W*' if c._fillMode == FILL_EVEN_ODD else 'W'} n")
        code.append(f"{fp_str(1, 0, 0, 1, mm_to_pt(ox), mm_to_pt(self.page_h - oy - height))} cm")

    def end_placed(self) -> None:
        self.canvas._code.append("Q")

    def clip_box(self, clip: tuple[float, float, float, float]) -> None:
        """Clip what follows to a box (x, y, w, h) in mm from the page's top-left corner."""
        path = self.canvas.beginPath()
        x, y, w, h = clip
        path.rect(mm_to_pt(x), mm_to_pt(self.page_h - y - h), mm_to_pt(w), mm_to_pt(h))
        self.canvas.clipPath(path, stroke=0, fill=0)

    def draw_reused(self, key: str, scene: Scene, ox: float = 0.0, oy: float = 0.0,
                    clip: tuple[float, float, float, float] | None = None,
                    content: Callable[[], None] | None = None) -> None:
        """Draw a scene that recurs (a deck's backs): written once as a form XObject, placed by reference.

        `content` draws the form's body in the scene's own units in place of drawing the scene (a recording
        replayed: backends/recorded.py)."""
        c = self.canvas
        forms: dict[str, str] = self.__dict__.setdefault("_forms", {})
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"Scene{len(forms) + 1}"  # numbered in order of use: the same bytes every build
            page_h, self.page_h = self.page_h, scene.height
            c.beginForm(name, 0, 0, mm_to_pt(scene.width), mm_to_pt(scene.height))
            if content is None:
                self.draw(scene)
            else:
                content()
            with _our_encoding():
                c.endForm()
            flate_only(c._doc.idToObject[c._doc.getXObjectName(name)])
            self.page_h = page_h
        self.begin_placed(ox, oy, scene.height, clip)
        c.doForm(name)
        self.end_placed()

    def save(self) -> None:
        """Write the file, each object as it is formatted (ReportLab would build the whole file in memory first)."""
        c = self.canvas
        if len(c._code):
            c.showPage()
        doc = c._doc
        doc.__class__ = _StreamingDocument
        with open(c._filename, "wb") as out, _our_encoding(), _kept_compression(self.store):
            doc.out = out
            doc.SaveToFile(out, c)  # writes what format() returns: nothing, all of it is written by then


KEPT_STREAM_BYTES = 4096  # a stream compressed as the file is written is kept in the store from this size


@contextlib.contextmanager
def _kept_compression(store: SceneStore | None) -> Iterator[None]:
    """While a document is written: what ReportLab compresses then (the fonts' subsets, ~90 KB for the anchor deck's
    three: a few ms of zlib) taken from the store by the digest of the bytes compressed, or compressed and kept
    there, as a page's content is (_compress_now): a rebuild using the same characters compresses none of it.
    ReportLab's own filter (the object every stream names) is put back as it was found after, even on an error."""
    if store is None or store.folder is None:  # nothing is kept for a next build
        yield
        return
    flate = pdfdoc.PDFZCompress
    encode, found_before = flate.encode, flate.__dict__.get("encode")

    def kept(text: str | bytes) -> bytes:
        data = text.encode("utf8") if isinstance(text, str) else text  # as PDFStreamFilterZCompress.encode takes it
        if len(data) < KEPT_STREAM_BYTES:
            return cast(bytes, encode(data))
        key = f"zstream:{hashlib.sha1(data).hexdigest()}"
        found = store.blob(key)
        if found is None:
            found = cast(bytes, encode(data))
            store.put_blob(key, found)
        return found

    flate.encode = kept  # the instance's, over its class's method
    try:
        yield
    finally:
        if found_before is None:
            del flate.encode
        else:
            flate.encode = found_before


class _Flated:
    """The Flate filter for content compressed already: PDFStream.format names it as it names PDFZCompress (the same
    dictionary, in the same order) and leaves the bytes as they are."""

    pdfname = "FlateDecode"

    def encode(self, content: bytes) -> bytes:
        return content


_FLATED = _Flated()
FORMS_HELD = 1024  # forms' compressed bodies kept for the documents after (a deck's backs and pictures: a few)
_FORM_STREAMS: dict[bytes, bytes] = {}  # a form body's SHA-1 -> the body compressed


def flate_only(form: pdfdoc.PDFFormXObject) -> None:
    """A form's stream compressed without ASCII85, as the pages' (ReportLab would add it: a quarter more bytes).

    Compressed now (the zlib call PDFZCompress makes when the file is written), once for every document of
    the process that has the same form: the A4 and Letter PDFs place the same backs and pictures, and a
    board's PDFs the same pictures.
    """
    body = form.stream
    if isinstance(body, str):
        body = body.encode("utf8")  # as PDFZCompress would
    digest = hashlib.sha1(body).digest()
    content = _FORM_STREAMS.get(digest)
    if content is None:
        if len(_FORM_STREAMS) >= FORMS_HELD:
            _FORM_STREAMS.clear()
        content = _FORM_STREAMS[digest] = zlib.compress(body)
    stream = pdfdoc.PDFStream(content=content, filters=[_FLATED])
    stream.__Comment__ = "xobject form stream"
    form.Contents, form.compression, form.stream = stream, 0, None


def _compress_now(page: pdfdoc.PDFPage, store: SceneStore | None) -> str | None:
    """Flate the page's content stream as soon as the page ends, as ReportLab would at save.

    ReportLab keeps every page's operators as text until the document is saved; an 8000-card
    deck's pages then hold tens of MB. Compressed now (the same zlib call, Flate alone: ASCII85,
    which ReportLab adds by default, makes a stream a quarter larger), each page keeps a fraction of that. With a
    store, a page the previous build compressed (all but the edited card's, in a rebuild)
    is taken from it by the digest of its operators.
    """
    if not page.compression or page.Override_default_compilation or not page.stream:
        return None
    filters = [pdfdoc.PDFZCompress]  # no ASCII85: it makes a compressed stream a quarter larger
    names = _FLATE_NAMES
    key, content = None, None
    if store is not None:
        key = f"zpage:{_ENCODING}:{'/'.join(names)}:{hashlib.sha1(page.stream.encode('utf8')).hexdigest()}"
        content = store.blob(key)
    if content is None:
        encoded: str | bytes = page.stream
        for f in reversed(filters):
            encoded = f.encode(encoded)  # in the order PDFStream.format applies them
        content = encoded.encode("latin-1") if isinstance(encoded, str) else encoded
        if key is not None and store is not None:
            store.put_blob(key, content)
    dictionary = _filter_dictionary(names)  # one for every page: PDFStream.format writes a copy
    kept = key is not None and store is not None and store.has_blob(key)
    if kept and store is not None and key is not None:
        stream: pdfdoc.PDFStream = _StoredStream(store, store.spot(key), dictionary)
    else:
        stream = pdfdoc.PDFStream(dictionary, content)
        stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None
    return key if kept else None


_FLATE_NAMES = (pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname),)  # a page stream's filters (Flate alone), as named


@cache
def _filter_dictionary(names: tuple[str, ...]) -> pdfdoc.PDFDictionary:
    """A page stream's dictionary before it is written: its filters (formatting copies it, adding the length)."""
    return pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray(list(names))})


_NO_TRANSITION = pdfdoc.PDFDictionary()  # the page transition every page has (none): written as the same empty << >>


class _DonePage(pdfdoc.PDFPage):
    """A page once drawn: what it leaves at its default is read from here, not held by each of a deck's pages."""

    _colorsUsed: dict[str, object] = {}  # read when the page is written, never added to
    _shadingUsed: dict[str, object] = {}
    ExtGState = None


for _name in pdfdoc.PDFPage.__NoDefault__:
    setattr(_DonePage, _name, None)
_DonePage.Rotate, _DonePage.compression = 0, 1  # what a drawn page has (canvas: no rotation; pageCompression=1)


# every entry a finished page has, or is given when it is written, in one order: each page sets them all in it, so
# Python keeps their values inline, in the page object (8 bytes an entry), not in a dict of its own (~300 bytes)
_PAGE_ENTRIES = ("__InternalName__", "Contents", "Rotate", "Trans", "pagewidth", "pageheight", "hasImages",
                 "compression", "XObjects", "TrimBox", "BleedBox", "MediaBox", "Annots", "Resources", "Parent")
_PAGE_ENTRY_SET = frozenset(_PAGE_ENTRIES)
_EMPTY_LEFT = ("Annots", "_colorsUsed", "_shadingUsed")  # left to the class when empty (ReportLab writes neither)


def _finish_page(page: pdfdoc.PDFPage, doc: pdfdoc.PDFDocument, shared: dict[object, object]) -> None:
    """Keep a finished page small, in one pass over its entries; the file's bytes are unchanged.

    ReportLab gives each page ~30 entries, most None (1.6 KB a page). Those are let go, read from
    the class (_DonePage) instead; what many pages have alike is held once for the document: an
    empty transition, the size (two floats), the XObject dictionary (the forms it places: a deck's
    back pages all the same). Pages are written by reading these, never changing them. The page is
    then put in its place as one holding its entries inline (see _PAGE_ENTRIES); a page with an entry
    of another name (none drawn here has one) keeps them in its dict, less what the class has alike.
    A 10,000-card deck's 2,200 pages keep some 5 MB less.
    """
    if type(page) is not pdfdoc.PDFPage:
        return
    kept: dict[str, object] = {}
    for name, value in vars(page).items():
        if value is None or (not value and name in _EMPTY_LEFT):
            continue
        if name == "Trans" and isinstance(value, pdfdoc.PDFDictionary) and not value.dict:
            value = _NO_TRANSITION
        elif name in ("pagewidth", "pageheight") and type(value) is float:
            value = shared.setdefault((name, value), value)
        elif name == "XObjects" and isinstance(value, pdfdoc.PDFDictionary) and all(
                type(ref) is pdfdoc.PDFObjectReference and ref.name == form for form, ref in value.dict.items()):
            value = shared.setdefault(("XObjects", *value.dict), value)
        kept[name] = value
    name = page.__InternalName__
    if kept.keys() <= _PAGE_ENTRY_SET and doc.idToObject.get(name) is page and doc.Pages.pages[-1] is page:
        packed = _DonePage.__new__(_DonePage)
        for entry in _PAGE_ENTRIES:  # an entry the page left to the class: the class's value, the same one
            setattr(packed, entry, kept[entry] if entry in kept else getattr(_DonePage, entry))
        doc.idToObject[name] = doc.Pages.pages[-1] = packed
        return
    for entry in ("Rotate", "compression"):
        value = kept.get(entry)
        if type(value) is int and value == getattr(_DonePage, entry):
            del kept[entry]
    page.__class__ = _DonePage
    page.__dict__ = kept


class _StoredStream(pdfdoc.PDFStream):
    """A page's compressed content left in the scene store's file until the PDF is written (a deck's pages stay on disk).

    It holds only where the bytes lie in the store's file (one int, not their key) and its
    dictionary; what every page's stream has alike is read from the class.
    """

    filters = None
    __Comment__ = "page stream"

    def __init__(self, store: SceneStore, spot: int, dictionary: pdfdoc.PDFDictionary):
        self.store, self.spot, self.dictionary = store, spot, dictionary

    @property
    def content(self) -> bytes:
        return self.store.read_spot(self.spot)

    @content.setter
    def content(self, value: object) -> None:
        assert value is None, "a stored stream's content is the store's"


class _PdfFileWriter(pdfdoc.PDFFile):
    """ReportLab's output collector, writing each piece to the file instead of keeping it."""

    strings: list[bytes]

    def __init__(self, out: BinaryIO, pdf_version: tuple[int, int]):
        super().__init__(pdf_version)  # the header, collected as ReportLab does
        out.write(b"".join(self.strings))
        self.strings = []
        self.write = out.write

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        return b""


class _StreamingDocument(pdfdoc.PDFDocument):
    """ReportLab's document whose format() streams to self.out: the same objects in the same order, the same bytes."""

    out: BinaryIO

    def format(self) -> bytes:
        """PDFDocument.format (ReportLab 4-5, without encryption or signatures), its output written as it goes."""
        self.encrypt.prepare(self)
        cat, info = self.Catalog, self.info
        self.Reference(cat)
        self.Reference(info)
        if self.encrypt.info() or getattr(self, "_digiSigs", None):
            raise ValueError("the streaming writer covers unencrypted, unsigned documents only")
        comments = not rl_config.invariant and rl_config.pdfComments
        counter, ids = 0, []
        numbertoid, id_to_object, id_to_offset = self.numberToId, self.idToObject, self.idToOffset
        self.__accum__ = out = _PdfFileWriter(self.out, self._pdfVersion)
        while True:  # objects may be registered while others are formatted
            counter += 1
            if counter not in numbertoid:
                break
            oid = numbertoid[counter]
            obj = id_to_object[oid]
            if comments:
                out.add(f"% {ascii(oid)}: class {type(obj).__name__[:50]} \n")
            id_to_offset[oid] = out.add(pdfdoc.PDFIndirectObject(oid, obj).format(self))
            ids.append(oid)
            if isinstance(obj, pdfdoc.PDFPage):  # written: the entries formatting made for it go (a deck's pages stay small)
                obj.Resources = obj.MediaBox = obj.Parent = None
        del self.__accum__
        if counter - 1 != len(numbertoid):
            raise ValueError(f"counter {counter} does not match the {len(numbertoid)} numbered objects")
        xref_offset = _write_xref(out, ids, self.idToObjectNumberAndVersion, id_to_offset)
        out.add(pdfdoc.PDFTrailer(startxref=xref_offset, Size=len(numbertoid) + 1, Root=self.Reference(cat),
                                  Info=self.Reference(info), Encrypt=None, ID=self.ID()).format(self))
        return out.format(self)


def _write_xref(out: _PdfFileWriter, ids: list[str], numbers: dict[str, tuple[int, int]],
                offsets: dict[str, int]) -> int:
    """The cross-reference table ReportLab's PDFCrossReferenceTable writes for objects 1..n, written a part at a
    time (ReportLab builds a list and a dict of every object's entry first: a large deck's ~1 MB at the peak)."""
    start = out.add(f"xref\n0 {len(ids) + 1}\n0000000000 65535 f \n".encode("latin-1"))
    for first in range(0, len(ids), 1024):
        lines = []
        for number, oid in enumerate(ids[first:first + 1024], first + 1):
            if numbers[oid][0] != number:
                raise ValueError(f"object {oid} is numbered {numbers[oid][0]}, not {number}")
            lines.append("%0.10d %0.5d n \n" % (offsets[oid], numbers[oid][1]))  # noqa: UP031 - ReportLab's own format
        out.add("".join(lines).encode("latin-1"))
    return start


_ENCODING = f"zlib{zlib.ZLIB_RUNTIME_VERSION}-rl{reportlab.Version}"  # what a kept page's bytes came from


def scenes_to_pdf(scenes: list[Scene], path: Path | str, title: str = "") -> None:
    """One scene a page, each page the scene's size with TrimBox and BleedBox set."""
    doc = PdfDocument(path, title, duplex=False)
    for scene in scenes:
        doc.begin_page(scene.width, scene.height, trim=scene.trim, bleed=(0, 0, scene.width, scene.height))
        doc.draw(scene)
        doc.end_page()
    doc.save()
