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

import dataclasses
import hashlib
import marshal
import re
from pathlib import Path
from typing import cast

# isort: off
import casebook.generator.backends.lazy_pillow  # noqa: F401 - before ReportLab, which imports PIL.Image
# isort: on
import reportlab
from reportlab.pdfbase import pdfmetrics

from casebook.generator.backends.fonts import PDF_NAMES
from casebook.generator.backends.pdf import PdfDocument, _shared_part
from casebook.generator.cache import SceneStore
from casebook.generator.scene import Item, Picture, Scene, TextRun

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


Segment = str | tuple[float, float, str, str, float, str, float]  # operators as recorded, or a line of text drawn anew


def _recording(segments: list[Segment], height: float, fonts: tuple[str, ...],
               pictures: tuple[tuple[str, str], ...]) -> bytes:
    """A scene's PDF operators in its own coordinates, in segments: operators with fonts as placeholders, or a
    line of text (a TextRun's fields) that is drawn anew each time; its height; the fonts' styles in the order the
    scene first uses them; the picture forms it places (name, body), which the replaying document may not hold yet."""
    return marshal.dumps((tuple(segments), height, fonts, pictures))


_PLACED = re.compile(r"/FormXob\.(Pic[0-9a-f]{12}) Do")


def pictures_placed(doc: PdfDocument, ops: str) -> tuple[tuple[str, str], ...]:
    """The picture forms a drawing's operators place, each once: (name, body)."""
    names = dict.fromkeys(_PLACED.findall(ops))
    return tuple((name, doc.picture_body(name)) for name in names)


def _placeholder(style: str) -> str:
    return f"\x00{style}\x00"


def _live_items(scene: Scene) -> list[bool] | None:
    """For each item of a scene, whether it is drawn anew at every replay: a line of text that could encode
    differently in another document (not ASCII: a document gives its characters codes in the order it first
    meets them). None for a scene that is always drawn: one with a picture (its image is an object of this
    document) or one that shares a part (a tiled board's page)."""
    if _shared_part(scene) is not None or any(isinstance(item, Picture) for item in scene.items):
        return None
    return [isinstance(item, TextRun) and (not item.text.isascii() or not item.text.isprintable())
            for item in scene.items]


def _fonts(scene: Scene, doc: PdfDocument, live: list[bool]) -> tuple[str, ...] | None:
    """The fonts a scene uses in the order it first uses them; None if a recorded line of text holds a font's
    PDF name, which the placeholders must not touch (the scene is then not recorded)."""
    fonts = tuple(dict.fromkeys(item.font for item in scene.items if isinstance(item, TextRun)))
    names = [_subset_name(doc, style) for style in fonts]
    for item, drawn_anew in zip(scene.items, live, strict=True):
        if isinstance(item, TextRun) and not drawn_anew and any(name in item.text for name in names):
            return None
    return fonts


def _subset_name(doc: PdfDocument, style: str) -> str:
    """A font's name in this document, given when it is first asked for and the same after (asked once per style)."""
    names: dict[str, str] = doc.__dict__.setdefault("_subset_names", {})
    name = names.get(style)
    if name is None:
        font = pdfmetrics.getFont(PDF_NAMES[style])
        # the font's subsets in this document begun as drawing a line of text begins them (splitString: from the
        # font's own characters); getSubsetInternalName alone would begin them without it, giving ASCII's DEL a code
        # the font has no glyph for: the same file, but the document's state (a kept page's key) unlike a cold build's
        font._assignState(doc.canvas._doc)
        name = names[style] = str(font.getSubsetInternalName(0, doc.canvas._doc))
    return name


def draw_recorded(doc: PdfDocument, store: SceneStore, key: str, ox: float, oy: float,
                  clip: tuple[float, float, float, float] | None = None) -> None:
    """Draw the scene stored under `key` with its top-left at (ox, oy) mm, replaying it if it was drawn before.

    A replay appends the recorded operators and draws anew, in their place, the lines of text whose
    bytes depend on the document (see _live_items): the same calls in the same order as drawing
    the scene, so the same bytes.
    """
    rkey = _recording_key(key)
    kept = store.blob(rkey)
    if kept is not None:
        recording = marshal.loads(kept)
        doc.begin_placed(ox, oy, recording[1], clip)
        _replay(doc, recording)
    else:
        scene = store.get(key, hold=False)  # drawn once: not kept among the scenes held in memory
        doc.begin_placed(ox, oy, scene.height, clip)  # what saveState, clip_box and translate write
        _draw_and_record(doc, store, rkey, scene)
    doc.end_placed()


def draw_reused_recorded(doc: PdfDocument, store: SceneStore, key: str, ox: float, oy: float,
                         clip: tuple[float, float, float, float] | None = None) -> None:
    """A scene that recurs (a deck's back), drawn once a document as a form XObject (PdfDocument.draw_reused) and
    placed by reference; the form's body replayed from the scene's recording as draw_recorded replays a card (the
    Letter PDF takes the A4 PDF's, a rebuild the build's before)."""
    rkey = _recording_key(key)

    def content() -> None:
        kept = store.blob(rkey)
        if kept is not None:
            _replay(doc, marshal.loads(kept))
        else:
            _draw_and_record(doc, store, rkey, scene)

    scene = store.get(key)
    doc.draw_reused(key, scene, ox, oy, clip=clip, content=content)


def _recording_key(key: str) -> str:
    return f"{key}:pdf:{backend_fingerprint()}"


def _replay(doc: PdfDocument, recording: tuple[tuple[Segment, ...], float, tuple[str, ...], tuple[tuple[str, str], ...]]
            ) -> None:
    """A recorded scene's operators appended where the canvas draws now (a page, a form), in the scene's own units."""
    segments, height, fonts, pictures = recording
    code = doc.canvas._code
    for name, body in pictures:
        doc.use_picture(name, body)
    named = [(_placeholder(style), _subset_name(doc, style)) for style in fonts]  # in first-use order, as drawing
    page_h, doc.page_h = doc.page_h, height
    try:
        for segment in segments:
            if isinstance(segment, str):
                for placeholder, name in named:
                    segment = segment.replace(placeholder, name)
                code.append(segment)
            else:
                doc._draw_items([TextRun(*segment)], 0.0, 0.0)
    finally:
        doc.page_h = page_h


def _draw_and_record(doc: PdfDocument, store: SceneStore, rkey: str, scene: Scene) -> None:
    """Draw a scene where the canvas draws now, in its own units, and keep its recording if it may be replayed."""
    page_h, doc.page_h = doc.page_h, scene.height
    try:
        live = _live_items(scene)
        if live is None:
            doc.draw(scene)  # changes nothing of the canvas's state: end_placed's Q is all it needs
            return
        segments = _draw_segments(doc, scene.items, live)
        fonts = _fonts(scene, doc, live)
        if fonts is None:
            return
        names = [(f"{_subset_name(doc, style)} ", f"{_placeholder(style)} ") for style in fonts]
        for i, segment in enumerate(segments):
            if isinstance(segment, str):
                for name, placeholder in names:
                    segment = segment.replace(name, placeholder)
                segments[i] = segment
        ops = "\n".join(s for s in segments if isinstance(s, str))
        store.put_blob(rkey, _recording(segments, scene.height, fonts, pictures_placed(doc, ops)))
    finally:
        doc.page_h = page_h


def _draw_segments(doc: PdfDocument, items: list[Item], live: list[bool]) -> list[Segment]:
    """Draw a scene's items as doc.draw does (in their order, the same operators) and return them as segments:
    each run of recorded items' operators, each line of text drawn anew as its fields."""
    code = doc.canvas._code
    segments: list[Segment] = []
    at = 0
    while at < len(items):
        end = at
        while end < len(items) and live[end] == live[at]:
            end += 1
        start = len(code)
        doc._draw_items(items[at:end], 0.0, 0.0)
        if live[at]:
            segments.extend(dataclasses.astuple(cast(TextRun, item)) for item in items[at:end])
        elif len(code) > start:  # a run that painted nothing writes no line
            segments.append("\n".join(code[start:]))
        at = end
    return segments


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
