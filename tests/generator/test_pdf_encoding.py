"""Writing the PDF's text and forms faster without changing a byte (generator/backends/pdf.py, issue 21): ASCII
text is encoded without ReportLab's Python codec, and a form's body is compressed once for every document of the
build that places it (the A4 and the Letter PDF place the same backs and pictures)."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc

import casebook.generator.backends.pdf as pdf
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.scene import Rect, Scene, TextRun

BACK = Scene(63, 88, items=[Rect(0, 0, 63, 88, fill="#7A5C99", stroke="#4F3A66", width=0.5, radius=2),
                            TextRun(10, 40, "Casebook", "bold", 14, "#F3EEDF")])


def test_text_is_encoded_as_reportlabs_codec_encodes_it():
    texts = [chr(i) for i in range(128)] + ["".join(chr(i) for i in range(32, 127)), "1 0 0 1 12.5 3 cm\nBT /F1+0 9 Tf",
                                            "Café · 3", "é", "\x18", "a\x1fb", ""]
    for text in texts:
        try:
            expected: object = text.encode("extpdfdoc")
        except UnicodeEncodeError as exc:
            expected = type(exc)
        try:
            got: object = pdf._pdfdoc_bytes(text)
        except UnicodeEncodeError as exc:
            got = type(exc)
        assert got == expected, repr(text)
    assert pdf._pdfdoc_bytes(b"\x00bytes") == b"\x00bytes"


def _write(path: Path) -> bytes:
    doc = PdfDocument(path, duplex=False)
    doc.begin_page(210, 297)
    doc.draw_reused("back", BACK, 10, 10)
    doc.draw_reused("back", BACK, 80, 10)
    doc.end_page()
    doc.save()
    return path.read_bytes()


def test_a_form_is_compressed_once_for_every_document_and_written_as_reportlab_writes_it(tmp_path, monkeypatch):
    bodies: list[bytes] = []

    class Counting:
        @staticmethod
        def compress(data: bytes) -> bytes:
            bodies.append(data)
            return zlib.compress(data)

    pdf._FORM_STREAMS.clear()
    monkeypatch.setattr(pdf, "zlib", Counting)
    a4 = _write(tmp_path / "a4.pdf")
    letter = _write(tmp_path / "letter.pdf")
    assert len(bodies) == 1  # the back's form, compressed for the first document and taken by the second
    assert a4 == letter

    pdf._FORM_STREAMS.clear()  # the body handed on as it is, and compressed by ReportLab as it writes the file
    monkeypatch.setattr(pdf, "_FLATED", pdfdoc.PDFZCompress)
    monkeypatch.setattr(pdf, "zlib", type("Plain", (), {"compress": staticmethod(lambda data: data)}))
    assert _write(tmp_path / "reportlab.pdf") == a4


def _is_reportlabs(function: object) -> bool:
    return getattr(function, "__module__", None) == "reportlab.pdfbase.pdfdoc" and function is pdf._pdfdoc_codec


def test_reportlabs_encoding_is_its_own_outside_our_writing(tmp_path, monkeypatch):
    """Our faster pdfdocEnc is swapped in only while we write (a form's body, the file): another ReportLab user in
    the same process meets ReportLab's own, before our build, after it and after one that failed."""
    assert _is_reportlabs(pdfdoc.pdfdocEnc)  # importing our backend changes nothing
    seen: list[object] = []
    format_object = pdfdoc.PDFIndirectObject.format

    def spying(self: pdfdoc.PDFIndirectObject, document: pdfdoc.PDFDocument) -> bytes:
        seen.append(pdfdoc.pdfdocEnc)
        return format_object(self, document)

    monkeypatch.setattr(pdfdoc.PDFIndirectObject, "format", spying)
    _write(tmp_path / "ours.pdf")
    assert seen and all(function is pdf._pdfdoc_bytes for function in seen)  # ours while our file is written
    assert _is_reportlabs(pdfdoc.pdfdocEnc)

    def failing(self: pdfdoc.PDFIndirectObject, document: pdfdoc.PDFDocument) -> bytes:
        raise OSError("disk full")

    monkeypatch.setattr(pdfdoc.PDFIndirectObject, "format", failing)
    with pytest.raises(OSError, match="disk full"):
        _write(tmp_path / "failed.pdf")
    assert _is_reportlabs(pdfdoc.pdfdocEnc)


def test_another_reportlab_canvas_writes_as_reportlab_does_beside_ours(tmp_path):
    """A plain ReportLab canvas in the process, before and after one of our documents, gives the same bytes."""
    from reportlab.pdfgen.canvas import Canvas

    def plain(path: Path) -> bytes:
        c = Canvas(str(path), invariant=1)
        c.setTitle("Café")
        c.drawString(72, 72, "plain ReportLab")
        c.save()
        return path.read_bytes()

    before = plain(tmp_path / "before.pdf")
    _write(tmp_path / "ours.pdf")
    assert plain(tmp_path / "after.pdf") == before


@pytest.fixture(autouse=True)
def _forget_forms():
    yield
    pdf._FORM_STREAMS.clear()
