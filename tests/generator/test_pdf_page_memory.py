"""What a finished page keeps until the PDF is written (generator/backends/pdf.py): little, and what pages share once."""

from __future__ import annotations

from pathlib import Path

from casebook.generator.backends.pdf import PdfDocument, _StoredStream
from casebook.generator.cache import SceneStore
from casebook.generator.scene import Rect, Scene, TextRun

BACK = Scene(63, 88, items=[Rect(0, 0, 63, 88, fill="#7A5C99", stroke="#4F3A66", width=0.5, radius=2)])


def _pages(path: Path, store: SceneStore | None) -> PdfDocument:
    doc = PdfDocument(path, title="Pages", store=store)
    for n in range(4):
        doc.begin_page(210, 297)
        doc.draw(Scene(63, 88, items=[TextRun(5, 10, f"Card {n}", "bold", 12, colour="#222222")]), 10, 10)
        doc.draw_reused("back", BACK, 80, 10, clip=(78, 8, 67, 92))
        doc.end_page()
    return doc


def test_pages_share_their_forms_and_size_and_hold_where_their_stream_lies(tmp_path: Path) -> None:
    store = SceneStore(tmp_path / "cache")
    doc = _pages(tmp_path / "a.pdf", store)
    pdf = doc.canvas._doc
    pages = pdf.Pages.pages
    assert all(pdf.idToObject[page.__InternalName__] is page for page in pages)  # the kept page is the one written
    assert len({id(page.XObjects) for page in pages}) == 1 and len({id(page.pagewidth) for page in pages}) == 1
    for page in pages:
        assert type(page.Contents) is _StoredStream and isinstance(page.Contents.spot, int)
        assert not hasattr(page.Contents, "key") and page.Rotate == 0 and page.compression == 1
    doc.save()
    store.close()
    plain = _pages(tmp_path / "unused.pdf", None)
    assert (tmp_path / "a.pdf").read_bytes() == plain.canvas.getpdfdata()  # ReportLab's own writing of the same
