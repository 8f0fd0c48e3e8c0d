"""The PDF backend: draws scenes as vector with embedded TrueType fonts (ReportLab).

Pages are written with invariant=1, so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import reportlab
from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from casebook.generator.backends import imagefiles
from casebook.generator.backends.fonts import PDF_NAMES, register_pdf_fonts
from casebook.generator.scene import (
    Clip,
    Ellipse,
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


@cache
def _colour(hexstr: str) -> Color:
    return HexColor(hexstr)


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
        _compress_now(page, self.store)
        _compact(page)

    def bookmark(self, title: str, key: str, level: int = 0) -> None:
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(title, key, level=level)

    def draw(self, scene: Scene, ox: float = 0.0, oy: float = 0.0,
             clip: tuple[float, float, float, float] | None = None) -> None:
        """Draw a scene with its top-left corner at (ox, oy) mm, clipped to a page box if given."""
        c = self.canvas
        ph = self.page_h
        if clip is not None:
            c.saveState()
            self.clip_box(clip)

        def X(v: float) -> float:
            return mm_to_pt(ox + v)

        def Y(v: float) -> float:
            return mm_to_pt(ph - (oy + v))

        for item in scene.items:
            if isinstance(item, TextRun):
                c.setFillColor(_colour(item.colour))
                c.setFont(PDF_NAMES[item.font], item.size)
                if item.angle:
                    c.saveState()
                    c.translate(X(item.x), Y(item.y))
                    c.rotate(-item.angle)  # the scene turns clockwise with y down; PDF's y is up
                    c.drawString(0, 0, item.text)
                    c.restoreState()
                else:
                    c.drawString(X(item.x), Y(item.y), item.text)
            elif isinstance(item, Rect):
                self._paint(item.fill, item.stroke, item.width, item.dash)
                if item.radius > 0:
                    c.roundRect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h),
                                mm_to_pt(item.radius), stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
                else:
                    c.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h),
                           stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
            elif isinstance(item, Ellipse):
                self._paint(item.fill, item.stroke, item.width, ())
                c.ellipse(X(item.cx - item.rx), Y(item.cy + item.ry), X(item.cx + item.rx), Y(item.cy - item.ry),
                          stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
            elif isinstance(item, Polyline):
                fill = item.fill if item.closed else None
                if not fill and not item.stroke:
                    continue
                self._paint(fill, item.stroke, item.width, item.dash)
                path = c.beginPath()
                path.moveTo(X(item.points[0][0]), Y(item.points[0][1]))
                for px, py in item.points[1:]:
                    path.lineTo(X(px), Y(py))
                if item.closed:
                    path.close()
                c.drawPath(path, stroke=int(bool(item.stroke)), fill=int(bool(fill)))
            elif isinstance(item, Shape):
                if not item.fill and not item.stroke:
                    continue
                self._paint(item.fill, item.stroke, item.width, ())
                path = c.beginPath()
                for ring in item.subpaths:
                    path.moveTo(X(ring[0][0]), Y(ring[0][1]))
                    for px, py in ring[1:]:
                        path.lineTo(X(px), Y(py))
                    path.close()
                c.drawPath(path, stroke=int(bool(item.stroke)), fill=int(bool(item.fill)),
                           fillMode=FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO)
            elif isinstance(item, Clip):
                c.saveState()
                path = c.beginPath()
                path.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h))
                c.clipPath(path, stroke=0, fill=0)
            elif isinstance(item, Unclip):
                c.restoreState()
            elif isinstance(item, Picture):
                self._picture(item, X, Y)
        if clip is not None:
            c.restoreState()

    def _picture(self, item: Picture, X: Callable[[float], float], Y: Callable[[float], float]) -> None:
        """An image placed on its box: a raster file's pixels or an SVG's drawing, each embedded once per document."""
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
            drawing = imagefiles.svg_drawing(item.path, item.digest, item.root)
            name = f"Svg{item.digest[:20]}"
            imagefiles.svg_form(self.canvas, name, drawing)
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
                    clip: tuple[float, float, float, float] | None = None) -> None:
        """Draw a scene that recurs (a deck's backs): written once as a form XObject, placed by reference."""
        c = self.canvas
        forms: dict[str, str] = self.__dict__.setdefault("_forms", {})
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"Scene{len(forms) + 1}"  # numbered in order of use: the same bytes every build
            page_h, self.page_h = self.page_h, scene.height
            c.beginForm(name, 0, 0, mm_to_pt(scene.width), mm_to_pt(scene.height))
            self.draw(scene)
            c.endForm()
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
        with open(c._filename, "wb") as out:
            doc.out = out
            doc.SaveToFile(out, c)  # writes what format() returns: nothing, all of it is written by then


def _compress_now(page: pdfdoc.PDFPage, store: SceneStore | None) -> None:
    """Flate the page's content stream as soon as the page ends, as ReportLab would at save.

    ReportLab keeps every page's operators as text until the document is saved; an 8000-card
    deck's pages then hold tens of MB. Compressed now (the same zlib call, the same filter
    entries, so the file's bytes are unchanged), each page keeps a fraction of that. With a
    store, a page the previous build compressed (all but the edited card's, in a rebuild)
    is taken from it by the digest of its operators.
    """
    if not page.compression or page.Override_default_compilation or not page.stream:
        return
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    names: list[str] = [pdfdoc.PDFName(f.pdfname) for f in filters]
    key, content = None, None
    if store is not None:
        key = f"zpage:{_ENCODING}:{'/'.join(names)}:{hashlib.sha1(page.stream.encode('utf8')).hexdigest()}"
        content = store.blob(key)
    if content is None:
        encoded: str | bytes = page.stream
        for f in reversed(filters):
            encoded = f.encode(encoded)  # in the order PDFStream.format applies them
        # ASCII85 text held as the bytes save() would write for it (no second copy made then)
        content = encoded.encode("latin-1") if isinstance(encoded, str) else encoded
        if key is not None and store is not None:
            store.put_blob(key, content)
    stream = (_StoredStream(store, key) if key is not None and store is not None and store.has_blob(key)
              else pdfdoc.PDFStream(content=content))
    stream.dictionary = _filter_dictionary(tuple(names))  # one for every page: PDFStream.format writes a copy
    stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None


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


def _compact(page: pdfdoc.PDFPage) -> None:
    """Let go of a finished page's empty entries (ReportLab gives each page ~30, most None: 1.6 KB a page).

    The page reads the same (None, an empty list or dict from the class; ReportLab writes
    neither; an empty transition is one shared), so the file's bytes are unchanged; a 10,000-card deck's
    2,200 pages keep 4 MB less.
    """
    if type(page) is not pdfdoc.PDFPage:
        return
    kept = {name: value for name, value in vars(page).items()
            if value is not None and not (name in ("Annots", "_colorsUsed", "_shadingUsed") and not value)}
    trans = kept.get("Trans")
    if isinstance(trans, pdfdoc.PDFDictionary) and not trans.dict:
        kept["Trans"] = _NO_TRANSITION
    page.__class__ = _DonePage
    page.__dict__ = kept


class _StoredStream(pdfdoc.PDFStream):
    """A page's compressed content left in the scene store's file until the PDF is written (a deck's pages stay on disk)."""

    def __init__(self, store: SceneStore, key: str):
        super().__init__()
        self.store, self.key = store, key

    @property
    def content(self) -> bytes:
        return self.store.written(self.key)

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
