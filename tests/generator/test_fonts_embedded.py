"""Built PDFs embed every font they use and name none they do not; viewers print them at actual
size and duplex them on the long edge (preflight checks, read back through PDFium)."""

from __future__ import annotations

import ctypes
import re
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from casebook.generator.backends.pdf import scenes_to_pdf
from casebook.generator.scene import Rect, Scene


def base_font_name(font) -> str:
    """A PDFium font's /BaseFont name, a subset's tag ("AAAAAA+") included."""
    buf = ctypes.create_string_buffer(256)
    n = pdfium_raw.FPDFFont_GetBaseFontName(font, buf, 256)
    return buf.raw[:max(0, n - 1)].decode("latin-1")


def text_objects(path) -> Iterator[tuple[str, bool, str]]:
    """Every text object on every page of a PDF: its font's base name (subset tag included), whether the file
    embeds that font, and its text."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in pdf:
            textpage = page.get_textpage()
            for obj in page.get_objects():
                if obj.type != pdfium_raw.FPDF_PAGEOBJ_TEXT:
                    continue
                font = pdfium_raw.FPDFTextObj_GetFont(obj.raw)
                size = pdfium_raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)  # bytes, the NUL included
                buf = ctypes.create_string_buffer(max(size, 2))
                pdfium_raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)),
                                               size)
                yield (base_font_name(font), bool(pdfium_raw.FPDFFont_GetIsEmbedded(font)),
                       buf.raw[:max(0, size - 2)].decode("utf-16-le"))
    finally:
        pdf.close()


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
                used[base_font_name(font)] = bool(pdfium_raw.FPDFFont_GetIsEmbedded(font))
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


FONTGAME = Path(__file__).resolve().parents[1] / "data" / "fontgame"


@pytest.fixture(scope="module")
def quill_build(tmp_path_factory):
    """The test game set in its own font (DejaVu Serif, from its folder), built through the real command."""
    from casebook.cli import main

    out = tmp_path_factory.mktemp("build-quill")
    assert main(["build", "quill", "--cards", str(FONTGAME / "cards"), "--layouts", str(FONTGAME / "layouts"),
                 "--out", str(out)]) == 0
    return out / "quill"


def test_a_games_own_fonts_are_embedded_and_named_only_where_used(quill_build):
    for paper in ("a4", "letter"):
        path = quill_build / f"quill-{paper}.pdf"
        used = _fonts_in_use(path)
        bare_used = {n.split("+", 1)[-1] for n in used}
        # its two styles (named in the layouts by family and style) beside the Vera the layouts still ask for
        assert bare_used == {"DejaVuSerif", "DejaVuSerif-Bold", "BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"}
        assert all(used.values()), f"{path.name}: not embedded: {[n for n, e in used.items() if not e]}"
        named = _fonts_named(path)
        assert {n.split("+", 1)[-1] for n in named} == bare_used, named
        assert not any("Noto" in n for n in named)  # the folder's Noto Mono: no layout names it
        # subset, as ReportLab embeds TrueType: the 28 KB file is not in the PDF whole
        assert all("+" in n for n in named)
        assert path.stat().st_size < 100_000


def test_a_font_in_the_game_folder_that_no_layout_names_is_not_in_the_pdf(tmp_path):
    """A font file the game folder holds but no text draws with is neither embedded nor named."""
    import shutil

    from casebook.cli import main

    game = tmp_path / "fontgame"
    shutil.copytree(FONTGAME, game)
    for name in ("face.yaml", "back.yaml", "aid.yaml"):
        layout = game / "layouts" / "quill" / name
        text = layout.read_text(encoding="utf-8")
        text = text.replace("{family: DejaVu Serif, style: Bold}", "bold").replace("{family: DejaVu Serif, style: bold}", "bold")
        layout.write_text(text.replace("DejaVu Serif Bold", "bold"), encoding="utf-8")
    assert main(["build", "quill", "--cards", str(game / "cards"), "--layouts", str(game / "layouts"),
                 "--out", str(tmp_path / "out"), "--paper", "a4"]) == 0
    named = {n.split("+", 1)[-1] for n in _fonts_named(tmp_path / "out" / "quill" / "quill-a4.pdf")}
    # the body's **bold** still switches to the family's bold file: the only Bold left is the one markup asks for
    assert "DejaVuSerif" in named and "DejaVuSerif-Bold" in named
    (game / "cards" / "quill" / "deck.yaml").write_text(
        (game / "cards" / "quill" / "deck.yaml").read_text(encoding="utf-8").replace("**", ""), encoding="utf-8")
    (game / "cards" / "quill" / "rules.yaml").write_text(
        (game / "cards" / "quill" / "rules.yaml").read_text(encoding="utf-8").replace("**", "").replace("## ", ""),
        encoding="utf-8")
    aid = game / "layouts" / "quill" / "aid.yaml"
    aid.write_text(aid.read_text(encoding="utf-8").replace("## ", ""), encoding="utf-8")
    assert main(["build", "quill", "--cards", str(game / "cards"), "--layouts", str(game / "layouts"),
                 "--out", str(tmp_path / "out"), "--paper", "a4"]) == 0
    named = {n.split("+", 1)[-1] for n in _fonts_named(tmp_path / "out" / "quill" / "quill-a4.pdf")}
    assert "DejaVuSerif" in named and "DejaVuSerif-Bold" not in named, named
