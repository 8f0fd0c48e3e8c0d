"""Image files for layouts, read with Pillow (PNG, JPEG) and svglib (SVG): checked and measured
once, then handed to the PDF backend as objects to embed and to the PNG backend as pixels.

An SVG becomes a ReportLab drawing: vector in the PDF, and for the PNG backend that same
drawing written as a one-page PDF and rasterised by PDFium (a wheel with no system
libraries, unlike ReportLab's renderPM, which needs Cairo), so both show one drawing.
"""

from __future__ import annotations

import hashlib
import io
import logging
import struct
import warnings
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageOps, UnidentifiedImageError
from reportlab.pdfbase import pdfdoc

from casebook.generator.backends.fonts import PDF_NAMES, register_pdf_fonts
from casebook.generator.scene import PictureChanged

MAX_BYTES = 50 * 1024 * 1024
MAX_PIXELS = 100_000_000  # a 10,000 x 10,000 photo; Pillow's own bomb guard stops at 179 megapixels
RASTER_FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG"}  # Pillow's name -> ours (MPO: a phone's JPEG)
ORIENTATION = 0x0112  # the EXIF tag: how a camera's JPEG is to be turned or mirrored to be seen upright


SAVE_AGAIN = "open it in an image editor and save it again as PNG or JPEG"
SAVE_SVG_AGAIN = "open it in a drawing program and save it again as plain SVG, or export it as PNG"


class ImageFileError(ValueError):
    """An image file that cannot be drawn, said for people."""


@dataclass(frozen=True)
class Measured:
    """What an image file is: its kind, its size as seen (pixels upright, or an SVG's points)."""

    kind: str  # "raster" or "svg"
    width: float
    height: float
    warnings: tuple[str, ...] = ()


def read_checked(path: str, digest: str) -> bytes:
    """The file's bytes, refused if they are no longer what was composed (edited during the build)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise PictureChanged(f"{path} could not be read again ({exc.strerror or exc}): build again") from None
    if hashlib.sha1(data).hexdigest() != digest:
        raise PictureChanged(f"{path} changed during the build: build again")
    return data


def measure(data: bytes, path: str, root: str) -> Measured:
    """Check an image file's bytes fully (decoded once: a damaged file is refused here, not drawn blank)."""
    if path.lower().endswith(".svg"):
        drawing, notes = _svg(data, path, root)
        return Measured("svg", float(drawing.width), float(drawing.height), notes)
    img = _open(data)
    w, h = img.size
    if _orientation(img) in (5, 6, 7, 8):
        w, h = h, w
    return Measured("raster", float(w), float(h))


def _header(data: bytes) -> Image.Image:
    """A PNG or JPEG opened (its size, mode and EXIF read, its pixels not yet decoded); refused if it is
    neither or has too many pixels."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise ImageFileError(f"has too many pixels (over {MAX_PIXELS // 1_000_000} megapixels): scale it down") from None
    except UnidentifiedImageError:
        raise ImageFileError(f"is not a picture this tool can read (PNG, JPEG or SVG); {SAVE_AGAIN}") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageFileError(f"is damaged: {exc}") from None
    if img.format not in RASTER_FORMATS:
        raise ImageFileError(f"is a {img.format} image; layouts take PNG, JPEG or SVG")
    if img.width * img.height > MAX_PIXELS:
        raise ImageFileError(f"has {img.width} x {img.height} pixels, over the {MAX_PIXELS // 1_000_000} "
                             "megapixels a card image may have: scale it down")
    return img


def _open(data: bytes) -> Image.Image:
    """A PNG or JPEG, decoded and checked: a damaged file is refused here, not drawn blank."""
    img = _header(data)
    try:
        img.load()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageFileError(f"is damaged: {exc}") from None
    return img


def _orientation(img: Image.Image) -> int:
    try:
        value = img.getexif().get(ORIENTATION, 1)
    except Exception:  # a damaged EXIF block: the picture as stored
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _drawn_mode(img: Image.Image) -> str:
    """The mode a file's pixels are drawn in: grey stays grey (L, LA); the rest RGB, or RGBA where it has
    transparency (an alpha channel or a colour key)."""
    mode, keyed = img.mode, "transparency" in img.info
    if mode in ("1", "L", "La", "LA") or mode.startswith("I") or mode == "F":
        return "LA" if keyed or mode in ("La", "LA") else "L"
    return "RGBA" if keyed or mode in ("RGBA", "RGBa", "PA") else "RGB"


def _mode_for_drawing(img: Image.Image) -> Image.Image:
    """The decoded image in the mode it is drawn in (_drawn_mode)."""
    mode = _drawn_mode(img)
    if img.mode == mode:
        return img
    if img.mode.startswith("I") or img.mode == "F":  # 16-bit grey: its top 8 bits
        return img.point(lambda v: v / 256).convert("L")
    return img.convert(mode)


@lru_cache(maxsize=2)
def pixels(path: str, digest: str) -> Image.Image:
    """The image as seen (EXIF orientation applied): mode L, LA, RGB or RGBA. Decoded once per file."""
    img = _open(read_checked(path, digest))
    upright = ImageOps.exif_transpose(img) if _orientation(img) != 1 else img
    return _mode_for_drawing(upright)


# --- PDF --------------------------------------------------------------------------------


def pdf_image(path: str, digest: str, name: str, store: Any = None) -> tuple[Any, Any | None, int]:
    """PDF image XObjects for a raster file: (the image, its soft mask or None, the EXIF orientation the
    placement must apply). A JPEG in grey or RGB is embedded as its own bytes, turned by the placement;
    anything else as its decoded pixels, upright, compressed without loss.

    Nothing is decoded here: the bytes are made as the PDF is written, one image at a time, so
    a deck of photos is neither held in memory at once nor decoded once per card. With a scene
    store, deflated pixels are kept in it: a rebuild takes them from there.
    """
    from reportlab.pdfbase import pdfutils

    data = read_checked(path, digest)
    img = _header(data)
    if img.format == "JPEG" and img.mode in ("L", "RGB"):
        width, height, components = pdfutils.readJPEGInfo(io.BytesIO(data))[:3]
        if components in (1, 3):
            colours = "DeviceGray" if components == 1 else "DeviceRGB"
            return _FileImage((path, digest, "file"), colours, "DCTDecode", (width, height)), None, _orientation(img)
    png = _png_stream(data) if img.format == "PNG" else None
    if png is not None:  # an opaque 8-bit PNG: its own compressed rows, undone by the PDF's PNG predictor
        width, height, colours = png
        parms = {"Predictor": 15, "Colors": 1 if colours == "DeviceGray" else 3, "BitsPerComponent": 8, "Columns": width}
        return _FileImage((path, digest, "idat"), colours, "FlateDecode", (width, height), parms), None, 1
    mode = _drawn_mode(img)
    alpha = _FileImage((path, digest, "alpha"), "DeviceGray", "FlateDecode", store=store) if mode.endswith("A") else None
    colours = "DeviceGray" if mode.startswith("L") else "DeviceRGB"
    return _FileImage((path, digest, "pixels"), colours, "FlateDecode", store=store), alpha, 1


_SIZE = struct.Struct("<II")
_DEFLATED = f"zimage:zlib{zlib.ZLIB_RUNTIME_VERSION}"  # a kept image's bytes say which zlib made them


@lru_cache(maxsize=1)  # asked twice as an image is written (its bytes, its length)
def _stream_bytes(path: str, digest: str, part: str, store: Any) -> tuple[int, int, bytes]:
    """An image XObject's (width, height, bytes) when they are not the file's own: its pixels' colours or
    their alpha, deflated; taken from the scene store if an earlier build kept them."""
    if part == "idat":
        return 0, 0, b"".join(data for kind, data in _png_chunks(read_checked(path, digest)) if kind == b"IDAT")
    key = f"{_DEFLATED}:{part}:{digest}"
    kept = store.blob(key) if store is not None else None
    if kept is not None:
        return (*_SIZE.unpack_from(kept), kept[_SIZE.size:])
    shown = pixels(path, digest)
    band = shown.getchannel("A") if part == "alpha" else shown.convert(shown.mode[:-1]) if shown.mode in ("LA", "RGBA") \
        else shown
    content = zlib.compress(band.tobytes())
    if store is not None:
        store.put_blob(key, _SIZE.pack(*shown.size) + content)
    return shown.width, shown.height, content


def _png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks (type, data), in order; the file was checked whole when it was composed."""
    chunks, at = [], 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        chunks.append((data[at + 4:at + 8], data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks


def _png_stream(data: bytes) -> tuple[int, int, str] | None:
    """(width, height, colour space) of a PNG whose compressed rows a PDF can take as they are: 8-bit grey
    or RGB, not interlaced, without transparency or EXIF; None for any other."""
    chunks = _png_chunks(data)
    kinds = {kind for kind, _ in chunks}
    if not chunks or chunks[0][0] != b"IHDR" or kinds & {b"tRNS", b"eXIf"} or len(chunks[0][1]) != 13:
        return None
    header = chunks[0][1]
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    depth, colour_type, interlaced = header[8], header[9], header[12]
    if depth != 8 or colour_type not in (0, 2) or interlaced:
        return None
    return width, height, "DeviceGray" if colour_type == 0 else "DeviceRGB"


class _FileImage(pdfdoc.PDFObject):
    """An image XObject made from its file when the PDF is written (ReportLab's holds its bytes from the start)."""

    smask: Any = None  # a reference to the image's alpha, set when it has one

    def __init__(self, source: tuple[str, str, str], colours: str, codec: str, size: tuple[int, int] | None = None,
                 parms: dict[str, int] | None = None, store: Any = None):
        self.source, self.colours, self.codec, self.size, self.parms = source, colours, codec, size, parms
        self.store = store

    def format(self, document: Any) -> bytes:
        if self.source[2] == "file":
            content = read_checked(*self.source[:2])
        else:
            width, height, content = _stream_bytes(*self.source, self.store)
        width, height = self.size or (width, height)
        stream = pdfdoc.PDFStream(content=content)
        entries = stream.dictionary
        entries["Type"], entries["Subtype"] = pdfdoc.PDFName("XObject"), pdfdoc.PDFName("Image")
        entries["Width"], entries["Height"], entries["BitsPerComponent"] = width, height, 8
        entries["ColorSpace"] = pdfdoc.PDFName(self.colours)
        entries["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(self.codec)])  # already encoded: binary, no ASCII85
        entries["Length"] = len(content)
        if self.parms:
            entries["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary(dict(self.parms))])  # one per filter
        if self.smask is not None:
            entries["SMask"] = self.smask
        return stream.format(document)


def orientation_matrix(orientation: int, x: float, y: float, w: float, h: float) -> tuple[float, ...]:
    """The PDF `cm` that puts an image's unit square, stored as the file has it, upright on (x, y, w, h)
    (PDF points, y up), turned or mirrored as its EXIF orientation says."""
    return {
        1: (w, 0, 0, h, x, y),
        2: (-w, 0, 0, h, x + w, y),
        3: (-w, 0, 0, -h, x + w, y + h),
        4: (w, 0, 0, -h, x, y + h),
        5: (0, -h, -w, 0, x + w, y + h),
        6: (0, -h, w, 0, x, y + h),
        7: (0, h, w, 0, x, y),
        8: (0, h, -w, 0, x + w, y),
    }[orientation]


# --- SVG --------------------------------------------------------------------------------


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@lru_cache(maxsize=1)
def _vera_fonts() -> Any:
    """svglib's font map, answered with our embedded Vera for every family (bold and italic as asked).

    svglib would otherwise look for the family's file on this machine (fc-match), or fall back
    to Helvetica, which a PDF names without embedding: PDFs that differ from machine to machine,
    fonts a print service refuses.
    """
    from svglib.fonts import FontMap

    class VeraFonts(FontMap):
        def find_font(self, font_name: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
            bold = weight in ("bold", "bolder") or weight.isdigit() and int(weight) >= 600
            italic = style in ("italic", "oblique")
            return PDF_NAMES["bolditalic" if bold and italic else "bold" if bold else "italic" if italic
                             else "regular"], True

    register_pdf_fonts()
    return VeraFonts()


def _svg(data: bytes, path: str, root: str) -> tuple[Any, tuple[str, ...]]:
    """An SVG's ReportLab drawing and svglib's warnings; refused if it has no size or reaches outside `root`."""
    from svglib.svglib import SvgRenderer, load_svg_file

    log = logging.getLogger("svglib.svglib")
    handler = _Collect()
    log.addHandler(handler)
    propagate, log.propagate = log.propagate, False  # said as the build's problems, not printed
    try:
        # the checked bytes, parsed without entities; the path only for images the SVG names beside it
        node = load_svg_file(io.BytesIO(data))
        renderer = SvgRenderer(path, font_map=_vera_fonts(), external_reference_root=root)
        drawing = renderer.render(node) if node is not None else None
    except Exception as exc:  # svglib on a malformed document
        raise ImageFileError(f"is not an SVG drawing this tool can read ({exc}); {SAVE_SVG_AGAIN}") from None
    finally:
        log.removeHandler(handler)
        log.propagate = propagate
    messages = [r.getMessage() for r in handler.records]
    refused = [m for m in messages if m.startswith(("Refusing", "Circular", "Failed to load"))]
    if drawing is None or refused:
        raise ImageFileError(refused[0] if refused else f"is not an SVG drawing this tool can read; {SAVE_SVG_AGAIN}")
    if not (drawing.width > 0 and drawing.height > 0):
        raise ImageFileError("has no size: give the <svg> a width and height or a viewBox")
    drawing.initialFontName = PDF_NAMES["regular"]  # ReportLab's own start is Helvetica, named but not embedded
    return drawing, tuple(m for m in messages if m not in refused)


@lru_cache(maxsize=16)
def svg_drawing(path: str, digest: str, root: str) -> Any:
    """The SVG's ReportLab drawing (its size in points), read once per file."""
    return _svg(read_checked(path, digest), path, root)[0]


def svg_pdf_ops(canvas: Any, drawing: Any) -> None:
    """Draw an SVG's drawing on a ReportLab canvas, its bottom-left at the origin, one point a unit."""
    from reportlab.graphics import renderPDF

    renderPDF.draw(drawing, canvas, 0, 0)


def svg_form(canvas: Any, name: str, drawing: Any) -> None:
    """The drawing as a form XObject of the canvas's document, with every resource it uses.

    ReportLab's forms list only fonts and XObjects among their resources; an SVG's
    transparency (ExtGState), gradients (Shading) and colour spaces are added here.
    """
    from reportlab.pdfbase import pdfdoc

    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
    svg_pdf_ops(canvas, drawing)
    states, shadings, colours = canvas._extgstate.getState(), dict(canvas._shadingUsed), dict(canvas._colorsUsed)
    canvas.endForm()
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    resources.XObject = form.XObjects or {}
    resources.ExtGState = states or {}
    resources.setShading(shadings)
    resources.setColorSpace(colours)
    form.Resources = resources


@lru_cache(maxsize=4)
def svg_pixels(path: str, digest: str, root: str, width: int, height: int,
               part: tuple[int, int, int, int] | None = None) -> Image.Image:
    """The SVG drawn to width x height pixels, or only the `part` (left, top, right, bottom) of them that
    shows (a covered box's overflow is never drawn): RGBA, transparent where it draws nothing.

    The drawing the PDF embeds, written as a one-page PDF of that many points and rasterised
    by PDFium at one pixel a point.
    """
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    left, top, right, bottom = part or (0, 0, width, height)
    drawing = svg_drawing(path, digest, root)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(width, height), invariant=1)
    canvas.scale(width / drawing.width, height / drawing.height)
    svg_pdf_ops(canvas, drawing)
    canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        page = doc[0]
        bitmap = page.render(scale=1, fill_color=(255, 255, 255, 0),
                             crop=(left, height - bottom, width - right, top))  # PDF's left, bottom, right, top
        img = bitmap.to_pil().convert("RGBA")
        page.close()
    finally:
        doc.close()
    size = (right - left, bottom - top)
    return img if img.size == size else img.resize(size, Image.Resampling.LANCZOS)
