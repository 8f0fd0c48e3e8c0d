"""The PDF is written to its file object by object: the bytes are those ReportLab's own save makes."""

from __future__ import annotations

from pathlib import Path

from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.scene import Rect, Scene, TextRun


def _document(path: Path) -> PdfDocument:
    """Three pages with text, a reused scene and bookmarks: fonts, forms and outlines all in the file."""
    doc = PdfDocument(path, title="Streaming")
    back = Scene(63, 88, items=[Rect(0, 0, 63, 88, fill="#7A5C99", stroke="#4F3A66", width=0.5, radius=2)])
    for n in range(3):
        doc.begin_page(210, 297, trim=(10, 10, 190, 277))
        doc.bookmark(f"Page {n + 1}", f"p{n}")
        doc.draw(Scene(63, 88, items=[TextRun(5, 10, f"Card {n} — ünïcode", "bold", 12, colour="#222222")]), 10, 10)
        doc.draw_reused("back", back, 80, 10, clip=(78, 8, 67, 92))
        doc.end_page()
    return doc


def test_streamed_file_is_byte_identical_to_reportlabs_save(tmp_path: Path) -> None:
    streamed = tmp_path / "streamed.pdf"
    _document(streamed).save()
    reference = _document(tmp_path / "unused.pdf").canvas.getpdfdata()  # ReportLab's whole-file-in-memory path
    data = streamed.read_bytes()
    assert data.startswith(b"%PDF-1.7") and data.rstrip().endswith(b"%%EOF")
    assert data == reference


def test_pages_kept_in_the_store_give_the_same_bytes_and_are_not_held(tmp_path: Path) -> None:
    from casebook.generator.cache import SceneStore

    store = SceneStore(tmp_path / "cache")
    doc = _document(tmp_path / "stored.pdf")
    doc.store = store
    doc.begin_page(210, 297)  # one more page, its content left in the store's file
    doc.draw(Scene(63, 88, items=[TextRun(5, 10, "Stored", "regular", 9, colour="#222222")]), 10, 10)
    doc.end_page()
    contents = doc.canvas._doc.Pages.pages[-1].Contents
    assert "content" not in vars(contents)  # read from the file when the PDF is written, not held
    doc.save()
    store.close()
    plain = _document(tmp_path / "unused.pdf")
    plain.begin_page(210, 297)
    plain.draw(Scene(63, 88, items=[TextRun(5, 10, "Stored", "regular", 9, colour="#222222")]), 10, 10)
    plain.end_page()
    assert (tmp_path / "stored.pdf").read_bytes() == plain.canvas.getpdfdata()
