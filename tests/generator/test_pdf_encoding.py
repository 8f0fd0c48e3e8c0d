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
            got: object = pdfdoc.pdfdocEnc(text)
        except UnicodeEncodeError as exc:
            got = type(exc)
        assert got == expected, repr(text)
    assert pdfdoc.pdfdocEnc(b"\x00bytes") == b"\x00bytes"


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


@pytest.fixture(autouse=True)
def _forget_forms():
    yield
    pdf._FORM_STREAMS.clear()
