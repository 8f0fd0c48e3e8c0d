"""Drawing a card's scene into the PDF once, and replaying it in later builds.

A scene is drawn in its own coordinates (moved into place by one `cm`), so its PDF
operators do not depend on where it lands; they are kept in the scene store under the
scene's content key and appended as they are next time, which is what makes a rebuild
after one edit cheap. Only what is safe to replay is kept: text in ASCII, whose bytes are
the same in every document (ReportLab's ASCII-readable TrueType subsets), with the
fonts' document-wide names left as placeholders that are filled in, in the order the
fonts were first used, so a replayed scene gives the same bytes as a drawn one.

A recording is kept as bytes (marshal) in the store's file, not as an object in its memory:
the scenes a build is still to draw stay among the store's recent ones.
"""

from __future__ import annotations

import hashlib
import marshal
import re
from pathlib import Path

# isort: off
import casebook.generator.backends.lazy_pillow  # noqa: F401 - before ReportLab, which imports PIL.Image
# isort: on
import reportlab
from reportlab.pdfbase import pdfmetrics

from casebook.generator.backends.fonts import PDF_NAMES
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.cache import SceneStore
from casebook.generator.scene import Picture, Scene, TextRun

_fingerprint: str | None = None


def backend_fingerprint() -> str:
    """The PDF backend's code and ReportLab's version: new drawing code, new recordings."""
    global _fingerprint
    if _fingerprint is None:
        here = Path(__file__).resolve().parent
        sha = hashlib.sha1(reportlab.Version.encode())
        for name in ("pdf.py", "recorded.py", "fonts.py"):
            sha.update((here / name).read_bytes())
        _fingerprint = sha.hexdigest()[:16]
    return _fingerprint


def _recording(ops: str, height: float, fonts: tuple[str, ...], pictures: tuple[tuple[str, str], ...]) -> bytes:
    """A scene's PDF operators in its own coordinates, fonts as placeholders; its height; the fonts' styles in the
    order the scene first uses them; the picture forms it places (name, body), which the replaying document may
    not hold yet."""
    return marshal.dumps((ops, height, fonts, pictures))


_PLACED = re.compile(r"/FormXob\.(Pic[0-9a-f]{12}) Do")


def pictures_placed(doc: PdfDocument, ops: str) -> tuple[tuple[str, str], ...]:
    """The picture forms a drawing's operators place, each once: (name, body)."""
    names = dict.fromkeys(_PLACED.findall(ops))
    return tuple((name, doc.picture_body(name)) for name in names)


def _placeholder(style: str) -> str:
    return f"\x00{style}\x00"


def _replayable(scene: Scene, doc: PdfDocument) -> tuple[str, ...] | None:
    """The fonts a scene uses in order, or None if its text could encode differently in another document
    (or holds a font's PDF name, which the placeholders must not touch)."""
    fonts: dict[str, None] = {}
    for item in scene.items:
        if isinstance(item, TextRun):
            fonts.setdefault(item.font)
        elif isinstance(item, Picture):  # its image is an object of this document: drawn again, never replayed
            return None
    names = [_subset_name(doc, style) for style in fonts]
    for item in scene.items:
        if isinstance(item, TextRun) and (not item.text.isascii() or not item.text.isprintable()
                                          or any(name in item.text for name in names)):
            return None
    return tuple(fonts)


def _subset_name(doc: PdfDocument, style: str) -> str:
    """A font's name in this document, given when it is first asked for and the same after (asked once per style)."""
    names: dict[str, str] = doc.__dict__.setdefault("_subset_names", {})
    name = names.get(style)
    if name is None:
        name = names[style] = str(pdfmetrics.getFont(PDF_NAMES[style]).getSubsetInternalName(0, doc.canvas._doc))
    return name


def draw_recorded(doc: PdfDocument, store: SceneStore, key: str, ox: float, oy: float,
                  clip: tuple[float, float, float, float] | None = None) -> None:
    """Draw the scene stored under `key` with its top-left at (ox, oy) mm, replaying it if it was drawn before."""
    c = doc.canvas
    rkey = f"{key}:pdf:{backend_fingerprint()}"
    kept = store.blob(rkey)
    if kept is not None:
        ops, height, fonts, pictures = marshal.loads(kept)
        doc.begin_placed(ox, oy, height, clip)
        for name, body in pictures:
            doc.use_picture(name, body)
        for style in fonts:  # named now, in first-use order, as drawing would have named them
            ops = ops.replace(_placeholder(style), _subset_name(doc, style))
        c._code.append(ops)
        doc.end_placed()
        return
    scene = store.get(key, hold=False)  # drawn once: not kept among the scenes held in memory
    doc.begin_placed(ox, oy, scene.height, clip)  # what saveState, clip_box and translate write
    start = len(c._code)
    page_h, doc.page_h = doc.page_h, scene.height
    try:
        doc.draw(scene)  # changes nothing of the canvas's state: end_placed's Q is all it needs
    finally:
        doc.page_h = page_h
    replayable = _replayable(scene, doc)
    if replayable is not None:
        ops = "\n".join(c._code[start:])
        for style in replayable:
            ops = ops.replace(f"{_subset_name(doc, style)} ", f"{_placeholder(style)} ")
        store.put_blob(rkey, _recording(ops, scene.height, replayable, pictures_placed(doc, ops)))
    doc.end_placed()


def draw_page_marks(doc: PdfDocument, scene: Scene, store: SceneStore | None) -> None:
    """Draw a whole-page scene (crop marks and a label); its shapes, the same on many pages, are replayed.

    The text (a page's label, different on every sheet) is drawn as usual, after the shapes.
    """
    shapes = Scene(scene.width, scene.height, items=[i for i in scene.items if not isinstance(i, TextRun)])
    texts = Scene(scene.width, scene.height, items=[i for i in scene.items if isinstance(i, TextRun)])
    if store is None or not shapes.items:
        doc.draw(shapes)
    else:
        keys: dict[tuple[object, ...], str] = doc.__dict__.setdefault("_page_keys", {})
        seen = (doc.page_h, shapes.width, shapes.height, *shapes.items)  # hashed, not written out, on every page
        rkey = keys.get(seen)
        if rkey is None:
            digest = hashlib.sha1(f"{backend_fingerprint()}{doc.page_h!r}{shapes!r}".encode()).hexdigest()
            rkey = keys[seen] = "page:" + digest
        if rkey in store:
            doc.canvas._code.append(store.get(rkey))
        else:
            start = len(doc.canvas._code)
            doc.draw(shapes)
            ops = "\n".join(doc.canvas._code[start:])
            if not pictures_placed(doc, ops):  # one that places a picture form is drawn each time (the form is this document's)
                store.put(rkey, ops)
    if texts.items:
        doc.draw(texts)
