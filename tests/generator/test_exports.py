"""The build's other outputs, read back: per-card PDFs, one-sided PDFs, cut lines, fold-and-glue,
the cover page and previews; and that an export that fails leaves the previous one as it was."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from PIL import Image

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game, plans_for
from casebook.generator.exports import atomic_dir
from casebook.generator.exports.cover import page_map
from casebook.generator.exports.transform import turn_scene
from casebook.generator.exports.variants import fold_plan
from casebook.generator.scene import Rect, Scene, TextRun
from casebook.rules.problems import Problems

PT = 72 / 25.4
ALL = ["--per-card", "--split-sides", "--fold", "--cover", "--preview", "--cut-lines", "--tts"]


@pytest.fixture(scope="session")
def graves_exports(tmp_path_factory):
    """Graves on A4 with every export, built once through the command."""
    out = tmp_path_factory.mktemp("exports")
    assert main(["build", "graves", "--paper", "a4", "--out", str(out), *ALL]) == 0
    return out / "graves"


@pytest.fixture(scope="module")
def graves_a4():
    problems = Problems()
    composed = compose_game("graves", BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    return composed


def texts(path):
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_per_card_pdfs_hold_every_printed_card_with_exact_trim_and_bleed_boxes(graves_exports, graves_db):
    for cid, comp in graves_db.components.items():
        size = {"poker": (63, 88), "large": (70, 120), "token": (22, 22)}[comp.size]
        pdf = pdfium.PdfDocument(str(graves_exports / "cards" / f"{cid}.pdf"))
        try:
            assert len(pdf) == 2 * comp.printed, cid  # face and back of every copy
            for i in (0, 1, len(pdf) - 1):
                page = pdf[i]
                x0, y0, x1, y1 = page.get_trimbox()
                assert (x1 - x0, y1 - y0) == pytest.approx((size[0] * PT, size[1] * PT), abs=0.01), cid
                assert (x0, y0) == pytest.approx((3 * PT, 3 * PT), abs=0.01)
                assert page.get_bleedbox() == pytest.approx((0, 0, (size[0] + 6) * PT, (size[1] + 6) * PT), abs=0.01)
        finally:
            pdf.close()


def test_faces_and_backs_pdfs_are_the_duplex_pdf_split(graves_exports):
    whole = texts(graves_exports / "graves-a4.pdf")
    faces = texts(graves_exports / "graves-a4-faces.pdf")
    backs = texts(graves_exports / "graves-a4-backs.pdf")
    card_pages = sum(1 for t in whole if re.search(r"· (faces|backs)", t))
    assert len(faces) == card_pages // 2 + 2 + 1  # face pages, scoresheet and aid, calibration front
    assert len(backs) == len(faces)  # back pages, two blank pages behind the scoresheet and aid, calibration back
    assert [t for t in whole if "· faces" in t] == [t for t in faces if "· faces" in t]
    assert [t for t in whole if "· backs" in t] == [t for t in backs if "· backs" in t]
    assert not any("· backs" in t for t in faces) and not any("· faces" in t for t in backs)


def _dark_columns(png_row, threshold=180):
    return [x for x, v in enumerate(png_row) if v < threshold]


def test_cut_lines_run_the_full_length_of_face_pages_along_every_trim(graves_exports, graves_a4):
    plan = plans_for(graves_a4, "a4", BuildOptions(papers=("a4",)), Problems())["poker"]
    xs, ys = plan.trim_lines()
    scale = 4.0  # 288 dpi: a 0.1 mm line is over a pixel wide
    pdf = pdfium.PdfDocument(str(graves_exports / "graves-a4-faces.pdf"))
    try:
        img = pdf[0].render(scale=scale).to_pil().convert("L")
    finally:
        pdf.close()
    px = scale * PT  # pixels per mm
    for y_mm in (1.0, plan.paper_h - 1.0):  # inside the printers' margin, where nothing else is drawn
        row = [img.getpixel((x, round(y_mm * px))) for x in range(img.width)]
        dark = _dark_columns(row)
        for x in xs:
            assert any(abs(d - x * px) <= 2 for d in dark), (x, y_mm)
    column = [img.getpixel((round(1.0 * px), y)) for y in range(img.height)]
    for y in ys:
        assert any(abs(d - y * px) <= 2 for d in _dark_columns(column)), y


def test_the_default_build_draws_no_cut_lines(graves_build):
    pdf = pdfium.PdfDocument(str(graves_build / "graves-a4.pdf"))
    try:
        img = pdf[0].render(scale=2.0).to_pil().convert("L")
    finally:
        pdf.close()
    assert min(img.getpixel((x, round(1.0 * 2 * PT))) for x in range(img.width)) > 240


def test_fold_layout_puts_each_back_beside_its_face_or_below_it_turned():
    a4 = fold_plan(63, 88, 210, 297, bleed=3, gutter=0, margin=5)
    assert a4 is not None and not a4.across and a4.plan.per_sheet == 4  # side by side, landscape, 2 x 2
    letter = fold_plan(70, 120, 215.9, 279.4, bleed=3, gutter=0, margin=5)
    assert letter is not None and letter.plan.per_sheet >= 2
    assert fold_plan(200, 280, 210, 297, bleed=3, gutter=0, margin=5) is None


def test_a_turned_back_is_the_same_drawing_upside_down():
    scene = Scene(69, 94, 3, [Rect(3, 3, 10, 20, fill="#112233"), TextRun(10, 12, "Back", "bold", 8, "#000000")])
    once = turn_scene(scene)
    assert once.items[0] == Rect(56, 71, 10, 20, fill="#112233")
    assert once.items[1].angle == 180 and (once.items[1].x, once.items[1].y) == (59, 82)
    assert turn_scene(once).items == scene.items


def test_the_fold_pdf_pairs_each_face_with_its_own_back(graves_exports, graves_a4):
    fp = fold_plan(63, 88, 210, 297, bleed=3, gutter=0, margin=5)
    pdf = pdfium.PdfDocument(str(graves_exports / "graves-a4-fold.pdf"))
    try:
        page = pdf[0]
        assert page.get_size() == pytest.approx((297 * PT, 210 * PT))
        textpage = page.get_textpage()
        slot = fp.plan.slot(0)
        height = fp.plan.paper_h

        def text_in(x0, x1):  # PDF space: y up
            return textpage.get_text_bounded(x0 * PT, (height - slot.y - 88) * PT, x1 * PT, (height - slot.y) * PT)

        face_half = text_in(slot.x, slot.x + 63)
        back_half = text_in(slot.x + 63, slot.x + 126)
        assert "DET 1/45" in face_half and "DET" not in back_half.replace("DETECTIVE", "")
        assert "Detective Graves against The Mastermind" in back_half
    finally:
        pdf.close()
    whole = texts(graves_exports / "graves-a4-fold.pdf")
    for n in range(1, 46):
        assert sum(f"DET {n}/45" in t for t in whole) == 1


def test_the_cover_lists_the_contents_and_maps_the_pages_as_they_are(graves_exports, graves_a4, graves_db):
    (cover,) = texts(graves_exports / "graves-a4-cover.pdf")
    flat = " ".join(cover.split())
    for comp in graves_db.components.values():
        assert f"{comp.name} [{comp.code}]: {comp.printed} ×" in flat
    assert "Case scoresheet" in flat and "Player aid" in flat and "Bleed 3 mm" in flat and "cut lines on" in flat
    whole = texts(graves_exports / "graves-a4.pdf")
    entries = page_map(graves_a4, "a4", BuildOptions(papers=("a4",)))
    assert entries[-1].last == len(whole)
    for entry in entries:
        assert f"{entry.pages}: {entry.what}" in flat
        pages = whole[entry.first - 1:entry.last]
        if "faces then backs" in entry.what:
            assert all("· faces" in t for t in pages[0::2]) and all("· backs" in t for t in pages[1::2])
        elif entry.what == "Duplex calibration":
            assert len(pages) == 2
        else:
            assert entry.what.lower() in pages[0].lower()


def test_previews_are_one_small_fan_per_component(graves_exports, graves_db):
    for cid in graves_db.components:
        with Image.open(graves_exports / "preview" / f"{cid}.png") as img:
            assert img.mode == "RGBA" and max(img.size) <= 1000 and min(img.size) >= 200
            assert img.getpixel((0, 0))[3] == 0  # a transparent ground, for light and dark pages


def test_a_failed_export_leaves_the_previous_one_as_it_was(tmp_path):
    out = tmp_path / "preview"
    with atomic_dir(out) as tmp:
        (tmp / "a.png").write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_dir(out) as tmp:
        (tmp / "a.png").write_bytes(b"new")
        raise RuntimeError("the renderer failed")
    assert (out / "a.png").read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["preview"]  # nothing half-written left beside it


def test_the_cover_of_a_set_with_a_board_lists_its_tiles_and_the_one_page_files(tmp_path):
    assert main(["build", "pi", "--paper", "letter", "--out", str(tmp_path), "--cover"]) == 0
    out = tmp_path / "pi"
    (cover,) = texts(out / "pi-letter-cover.pdf")
    flat = " ".join(cover.split())
    whole = texts(out / "pi-letter.pdf")
    tiles = [t for t in whole if re.search(r"The city · page [A-Z]\d\b", t)]
    assert len(tiles) == 6  # 560 x 400 mm over Letter pages
    assert "The city: 560 x 400 mm board, 6 tiled pages A1–B3 + an assembly page" in flat
    assert "The city: 1 sheet" not in flat
    # every file the build wrote beside the set is named on the cover
    written = sorted(p.name for p in out.glob("*.pdf") if p.name not in ("pi-letter.pdf", "pi-letter-cover.pdf"))
    assert written == ["pi-board-a2.pdf", "pi-board-a3.pdf"]
    for name in written:
        assert f"{name}: The city whole on one page" in flat
    assert "(A2, 1:1)" in flat and "(A3, at 69 %)" in flat
    # the page map gives the board's pages as one entry: its assembly page, then its tiles, as in the PDF
    (board,) = [e for e in page_map_of(out, "pi") if e.what.startswith("The city")]
    assert board.last - board.first + 1 == 7
    assert "The city: assembling 6 pages" in whole[board.first - 1]
    assert whole[board.first:board.last] == tiles
    assert f"{board.pages}: The city: assembly page, then 6 tiles A1–B3" in flat


def page_map_of(out, game):
    problems = Problems()
    opts = BuildOptions(papers=("letter",))
    composed = compose_game(game, opts, problems)
    assert composed is not None, problems.format()
    return page_map(composed, "letter", opts)
