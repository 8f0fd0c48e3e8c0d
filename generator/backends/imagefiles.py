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
import warnings
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 50 * 1024 * 1024
MAX_PIXELS = 100_000_000  # a 10,000 x 10,000 photo; Pillow's own bomb guard stops at 179 megapixels
RASTER_FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG"}  # Pillow's name -> ours (MPO: a phone's JPEG)
ORIENTATION = 0x0112  # the EXIF tag: how a camera's JPEG is to be turned or mirrored to be seen upright


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
        raise ImageFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if hashlib.sha1(data).hexdigest() != digest:
        raise ImageFileError(f"{path} changed during the build: build again")
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


def _open(data: bytes) -> Image.Image:
    """A PNG or JPEG, decoded and checked; too many pixels refused before decoding."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            if img.format not in RASTER_FORMATS:
                raise ImageFileError(f"is a {img.format} image; layouts take PNG, JPEG or SVG")
            if img.width * img.height > MAX_PIXELS:
                raise ImageFileError(f"has {img.width} x {img.height} pixels, over the {MAX_PIXELS // 1_000_000} "
                                     "megapixels a card image may have: scale it down")
            img.load()
    except Image.DecompressionBombError:
        raise ImageFileError(f"has too many pixels (over {MAX_PIXELS // 1_000_000} megapixels): scale it down") from None
    except UnidentifiedImageError:
        raise ImageFileError("is not an image Pillow can read (PNG or JPEG expected)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        if isinstance(exc, ImageFileError):
            raise
        raise ImageFileError(f"is damaged: {exc}") from None
    return img


def _orientation(img: Image.Image) -> int:
    try:
        value = img.getexif().get(ORIENTATION, 1)
    except Exception:  # a damaged EXIF block: the picture as stored
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _mode_for_drawing(img: Image.Image) -> Image.Image:
    """Grey stays grey (L, LA); everything else RGB, or RGBA where it has transparency."""
    mode, keyed = img.mode, "transparency" in img.info  # a colour key (tRNS) is transparency too
    if mode in ("L", "RGB") and not keyed or mode in ("LA", "RGBA"):
        return img
    if mode in ("1", "L", "La"):
        return img.convert("LA" if keyed or mode == "La" else "L")
    if mode.startswith("I") or mode == "F":  # 16-bit grey: its top 8 bits
        return img.point(lambda v: v / 256).convert("L")
    return img.convert("RGBA" if keyed or mode in ("RGB", "PA", "RGBa") else "RGB")  # P, CMYK, YCbCr, LAB, ...


@lru_cache(maxsize=2)
def pixels(path: str, digest: str) -> Image.Image:
    """The image as seen (EXIF orientation applied): mode L, LA, RGB or RGBA. Decoded once per file."""
    img = _open(read_checked(path, digest))
    upright = ImageOps.exif_transpose(img) if _orientation(img) != 1 else img
    return _mode_for_drawing(upright)


# --- PDF --------------------------------------------------------------------------------


def pdf_image(path: str, digest: str, name: str) -> tuple[Any, Any | None, int]:
    """ReportLab image XObjects for a raster file: (the image, its soft mask or None, the EXIF orientation
    the placement must apply). A JPEG in grey or RGB is embedded as its own bytes, turned by the
    placement; anything else as its decoded pixels, upright, compressed without loss."""
    from reportlab.pdfbase import pdfdoc, pdfutils

    def stream(content: bytes, width: int, height: int, colours: str, codec: str, obj_name: str) -> Any:
        obj = pdfdoc.PDFImageXObject(obj_name)
        obj.width, obj.height, obj.bitsPerComponent, obj.colorSpace = width, height, 8, colours
        obj.streamContent, obj._filters, obj.mask = content, (codec,), None  # binary: no ASCII85
        return obj

    data = read_checked(path, digest)
    img = _open(data)
    if img.format == "JPEG" and img.mode in ("L", "RGB"):
        width, height, components = pdfutils.readJPEGInfo(io.BytesIO(data))[:3]
        if components in (1, 3):
            colours = "DeviceGray" if components == 1 else "DeviceRGB"
            return stream(data, width, height, colours, "DCTDecode", name), None, _orientation(img)
    shown = pixels(path, digest)
    alpha = None
    if shown.mode in ("LA", "RGBA"):
        band = shown.getchannel("A")
        if band.getextrema() != (255, 255):  # wholly opaque: no mask
            alpha = stream(zlib.compress(band.tobytes()), band.width, band.height, "DeviceGray", "FlateDecode",
                           name + "A")
        shown = shown.convert(shown.mode[:-1])
    colours = "DeviceGray" if shown.mode == "L" else "DeviceRGB"
    return stream(zlib.compress(shown.tobytes()), shown.width, shown.height, colours, "FlateDecode", name), alpha, 1


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
        drawing = SvgRenderer(path, external_reference_root=root).render(node) if node is not None else None
    except Exception as exc:  # svglib on a malformed document
        raise ImageFileError(f"is not an SVG svglib can read: {type(exc).__name__}: {exc}") from None
    finally:
        log.removeHandler(handler)
        log.propagate = propagate
    messages = [r.getMessage() for r in handler.records]
    refused = [m for m in messages if m.startswith(("Refusing", "Circular", "Failed to load"))]
    if drawing is None or refused:
        raise ImageFileError(refused[0] if refused else "is not an SVG svglib can read")
    if not (drawing.width > 0 and drawing.height > 0):
        raise ImageFileError("has no size: give the <svg> a width and height or a viewBox")
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
def svg_pixels(path: str, digest: str, root: str, width: int, height: int) -> Image.Image:
    """The SVG drawn to exactly width x height pixels (RGBA, transparent where it draws nothing).

    The drawing the PDF embeds, written as a one-page PDF of that many points and rasterised
    by PDFium at one pixel a point.
    """
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

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
        bitmap = page.render(scale=1, fill_color=(255, 255, 255, 0))
        img = bitmap.to_pil().convert("RGBA")
        page.close()
    finally:
        doc.close()
    return img if img.size == (width, height) else img.resize((width, height), Image.Resampling.LANCZOS)
