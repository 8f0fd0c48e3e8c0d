"""Built PDFs embed every font they use and name none they do not; viewers print them at actual
size and duplex them on the long edge (preflight checks, read back through PDFium)."""

from __future__ import annotations

import ctypes
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from generator.backends.pdf import scenes_to_pdf
from generator.scene import Rect, Scene


def _fonts_in_use(path) -> dict[str, bool]:
    """Every font a text object on any page uses: its base name -> whether the file embeds it."""
    used: dict[str, bool] = {}
    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in pdf:
            for obj in page.get_objects():
                if obj.type != pdfium_raw.FPDF_PAGEOBJ_TEXT:
                    continue
                font = pdfium_raw.FPDFTextObj_GetFont(obj.raw)
                buf = ctypes.create_string_buffer(256)
                n = pdfium_raw.FPDFFont_GetBaseFontName(font, buf, 256)
                name = buf.raw[:max(0, n - 1)].decode("latin-1")
                used[name] = bool(pdfium_raw.FPDFFont_GetIsEmbedded(font))
    finally:
        pdf.close()
    return used


def _fonts_named(path) -> set[str]:
    """Every /BaseFont the file names, used or not (page resources and font dictionaries are plain text)."""
    return {m.decode("latin-1") for m in re.findall(rb"/BaseFont\s*/([^\s/<>\[\]()]+)", path.read_bytes())}


@pytest.mark.parametrize("game", ["graves", "syndicate"])
def test_every_font_is_embedded_and_none_unused_is_named(game, request):
    build = request.getfixturevalue(f"{game}_build")
    for paper in ("a4", "letter"):
        path = build / f"{game}-{paper}.pdf"
        used = _fonts_in_use(path)
        assert used, "no text found"
        assert all(used.values()), f"{path.name}: not embedded: {[n for n, e in used.items() if not e]}"
        named = _fonts_named(path)
        assert not any("Helvetica" in n for n in named), named
        # subset fonts carry a tag ("AAAAAA+Name"); PDFium reports the name with or without it
        bare = {n.split("+", 1)[-1] for n in named}
        assert bare == {n.split("+", 1)[-1] for n in used}, (named, used)


def _viewer_preferences(path) -> tuple[bool, int]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return bool(pdfium_raw.FPDF_VIEWERREF_GetPrintScaling(pdf.raw)), pdfium_raw.FPDF_VIEWERREF_GetDuplex(pdf.raw)
    finally:
        pdf.close()


@pytest.mark.parametrize("game", ["graves", "syndicate"])
def test_sheets_print_at_actual_size_and_flip_on_the_long_edge(game, request):
    build = request.getfixturevalue(f"{game}_build")
    for paper in ("a4", "letter"):
        scaling, duplex = _viewer_preferences(build / f"{game}-{paper}.pdf")
        assert scaling is False, "PrintScaling must be /None (actual size)"
        assert duplex == pdfium_raw.DuplexFlipLongEdge


def test_per_card_pdfs_print_at_actual_size_without_forcing_duplex(tmp_path):
    path = tmp_path / "cards.pdf"
    scenes_to_pdf([Scene(69, 94, 3.0, [Rect(0, 0, 69, 94, fill="#123456")])], path)
    scaling, duplex = _viewer_preferences(path)
    assert scaling is False and duplex == pdfium_raw.DuplexUndefined
    assert _fonts_named(path) == set()  # no text drawn: no font named at all
