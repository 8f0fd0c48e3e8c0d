"""The 6 pt rule on everything we print: every character of every page of every PDF a build writes
(card sheets, aids, scoresheets, notebook, cover, board tiles and assembly pages, the A2/A3
boards, fold and split-sides files, per-card files, a print service's PDFs, both papers), read
back with its size; and
the build's refusal of a layout that sets game text under 6 pt."""

from __future__ import annotations

import ctypes
import math
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.exports.cover import _Page
from casebook.generator.layouts import LAYOUTS_DIR
from casebook.generator.legibility import FINE_PRINT_MIN, GAME_TEXT_MIN
from casebook.generator.scene import Rect, TextRun
from casebook.rules.problems import Problems
from tests.generator.test_print_quality import ink_box

GAMES = ("graves", "pi", "syndicate", "clash", "hasty")
EVERY_OUTPUT = ["--cover", "--fold", "--split-sides", "--per-card", "--service", "drivethru"]  # A2/A3 boards: always


# the label furniture prints on a card sheet, for sorting sheets (generator/furniture.py: LABEL_MIN, 4.5 pt)
SHEET_LABEL = re.compile(r"sheet \d+ of \d+")


def text_runs(path: Path) -> Iterator[tuple[int, float, str]]:
    """(page, size in pt as printed, text) for each run of characters of one size on one line of a PDF.

    The size is the font size times the scale of the character's whole transformation (text
    matrix, forms, page), so a card drawn reduced on a page counts at its printed size.
    """
    pdf = pdfium.PdfDocument(str(path))
    try:
        for n in range(len(pdf)):
            page = pdf[n]
            text = page.get_textpage()
            run: list[str] = []
            size = -1.0
            for i in range(text.count_chars()):
                char = chr(pdfium_raw.FPDFText_GetUnicode(text.raw, i))
                m = pdfium_raw.FS_MATRIX()
                pdfium_raw.FPDFText_GetMatrix(text.raw, i, ctypes.byref(m))
                printed = round(pdfium_raw.FPDFText_GetFontSize(text.raw, i) * math.sqrt(abs(m.a * m.d - m.b * m.c)), 2)
                if char in "\r\n" or printed != size:
                    if "".join(run).strip():
                        yield n + 1, size, "".join(run)
                    run, size = [], printed
                if char not in "\r\n":
                    run.append(char)
            if "".join(run).strip():
                yield n + 1, size, "".join(run)
    finally:
        pdf.close()


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module", params=GAMES)
def every_pdf(request, tmp_path_factory):
    """One game built through the command with every output that writes a PDF, A4 and Letter; its fine print."""
    game = request.param
    out = tmp_path_factory.mktemp(game)
    sets = ["--set", "all"] if game == "hasty" else []
    assert main(["build", game, "--out", str(out), *EVERY_OUTPUT, *sets]) == 0
    composed = compose_game(game, BuildOptions(sets=("all",) if sets else ()), Problems())
    assert composed is not None
    return game, sorted((out / game).rglob("*.pdf")), composed.composer.fine_print


def test_the_build_writes_every_kind_of_pdf(every_pdf):
    game, pdfs, _ = every_pdf
    names = {p.name for p in pdfs}
    for paper in ("a4", "letter"):
        for kind in ("", "-faces", "-backs", "-fold", "-cover"):
            assert f"{game}-{paper}{kind}.pdf" in names, (game, paper, kind)
    assert any(p.parent.name == "cards" for p in pdfs)
    assert any(p.parent.name == "drivethru" for p in pdfs)  # a print service's PDFs, cards scaled to its trim
    if game == "pi":
        assert {"pi-board-a2.pdf", "pi-board-a3.pdf"} <= names


def test_no_page_of_any_pdf_sets_text_under_6_pt(every_pdf):
    """Under 6 pt only fine print (the layouts' codes and credits, a card sheet's label), at 4 pt or more."""
    game, pdfs, fine = every_pdf
    fine_flat = [_flat(t) for t in fine]
    small = set()
    for path in pdfs:
        runs = list(text_runs(path))
        assert runs, f"{path.name}: no text read back"  # every PDF we write says something
        for page, size, text in runs:
            if size >= GAME_TEXT_MIN - 0.01:
                continue
            is_fine = any(_flat(text) in t for t in fine_flat) or SHEET_LABEL.search(text) is not None
            if not is_fine or size < FINE_PRINT_MIN - 0.01:
                small.add((path.relative_to(path.parents[1]).as_posix(), page, size, text.strip()[:60]))
    assert not small, sorted(small)[:20]


def test_no_page_prints_an_id_where_a_player_reads_words(every_pdf):
    """A snake_case id (no_safe_round) on a page is a name the set forgot to say in words."""
    _, pdfs, _ = every_pdf
    ids = set()
    for path in pdfs:
        for page, _, text in text_runs(path):
            for word in re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", text):
                ids.add((path.name, page, word))
    assert not ids, sorted(ids)[:10]


def test_text_runs_reads_sizes_as_printed(tmp_path):
    """The reader itself: a run drawn at 5 pt reads 5 pt, one at 9 pt reads 9 pt."""
    from casebook.generator.backends.pdf import PdfDocument
    from casebook.generator.scene import Scene

    doc = PdfDocument(tmp_path / "t.pdf", title="t")
    doc.begin_page(100, 100)
    doc.draw(Scene(100, 100, items=[TextRun(10, 20, "small words", "regular", 5, "#000000"),
                                    TextRun(10, 40, "large words", "bold", 9, "#000000")]))
    doc.end_page()
    doc.save()
    assert [(s, t) for _, s, t in text_runs(tmp_path / "t.pdf")] == [(5.0, "small words"), (9.0, "large words")]


# --- the build refuses --------------------------------------------------------------------------


def _layouts(tmp_path: Path) -> Path:
    root = tmp_path / "layouts"
    shutil.copytree(LAYOUTS_DIR, root)
    return root


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def _refused(tmp_path: Path, capsys, game: str, *extra: str) -> str:
    out = tmp_path / "out"
    assert main(["build", game, "--paper", "a4", "--layouts", str(tmp_path / "layouts"), "--out", str(out),
                 *extra]) == 1
    assert not list(out.rglob("*.pdf")), "a refused build writes no PDF"
    captured = capsys.readouterr()
    return captured.out + captured.err


def _add_text(layout: Path, eid: str, text: str, box: str, size: str) -> None:
    """One more text element at the end of a layout: `box` is "x y w h" in mm, `size` its size lines."""
    x, y, w, h = box.split()
    layout.write_text(layout.read_text(encoding="utf-8") + (
        f"  - id: {eid}\n    type: text\n    x: {x}\n    y: {y}\n    w: {w}\n    h: {h}\n"
        f"    text: {text}\n" + "".join(f"    {line}\n" for line in size.split(", "))), encoding="utf-8")


def test_a_page_layout_with_5_pt_text_fails_the_build_naming_file_line_and_element(tmp_path, capsys):
    sheet = _layouts(tmp_path) / "pi" / "scoresheet.yaml"
    _add_text(sheet, "tiny_rule", "Penalties count double in mini-game 3", "20 250 80 4", "size: 5")
    said = _refused(tmp_path, capsys, "pi")
    line = _line_of(sheet, "    size: 5")
    assert f"scoresheet.yaml:{line}:" in said, said
    assert "game text 'tiny_rule' is set at 5 pt, under the 6 pt a player can read" in said, said


def test_a_card_layout_with_5_pt_text_fails_the_build(tmp_path, capsys):
    face = _layouts(tmp_path) / "syndicate" / "decktet-face.yaml"
    _add_text(face, "reminder", "Aces count one", "10 40 40 4", "size: 5")
    said = _refused(tmp_path, capsys, "syndicate")
    assert f"decktet-face.yaml:{_line_of(face, '    size: 5')}:" in said
    assert "game text 'reminder' is set at 5 pt" in said and "card 'ace_of_" in said, said


def test_text_shrunk_under_6_pt_to_fit_its_box_fails_the_build(tmp_path, capsys):
    sheet = _layouts(tmp_path) / "syndicate" / "scorepad.yaml"
    _add_text(sheet, "cramped", "The mastermind scores two", "20 250 12 3", "size: 9, min_size: 4")
    said = _refused(tmp_path, capsys, "syndicate")
    assert re.search(r"game text 'cramped' is set at [45](\.\d+)? pt", said), said


def test_a_table_title_shrunk_under_6_pt_fails_the_build(tmp_path, capsys):
    """A table's titles and rows are game text too (the scoresheet's 'Investigators kept' was 5.5 pt)."""
    sheet = _layouts(tmp_path) / "pi" / "scoresheet.yaml"
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("header_size: 7.5", "header_size: 5.5"), encoding="utf-8")
    said = _refused(tmp_path, capsys, "pi")
    assert f"scoresheet.yaml:{_line_of(sheet, 'header_size: 5.5')}:" in said, said
    assert "game text 'games' (column title 'Investigators kept (of 5)') is set at 5.5 pt" in said, said
    # too long to fit at 6 pt: refused as well, never shrunk under it
    sheet.write_text(text.replace('{title: "Investigators kept (of 5)", width: 1.3}',
                                  '{title: "Investigators kept (of 5)", width: 0.7}'), encoding="utf-8")
    said = _refused(tmp_path, capsys, "pi")
    assert "column title 'Investigators kept (of 5)' does not fit" in said, said


def test_fine_print_may_be_small_but_not_under_its_floor(tmp_path, capsys):
    face = _layouts(tmp_path) / "syndicate" / "decktet-face.yaml"
    base = face.read_text(encoding="utf-8")
    _add_text(face, "printer_code", "batch 7", "10 40 40 4", "size: 4.5, fine_print: true")
    problems = Problems()
    assert compose_game("syndicate", BuildOptions(papers=("a4",), layouts_dir=tmp_path / "layouts"), problems)
    face.write_text(base, encoding="utf-8")
    _add_text(face, "printer_code", "batch 7", "10 40 40 4", "size: 3.5, fine_print: true")
    said = _refused(tmp_path, capsys, "syndicate")
    assert "fine print 'printer_code' is set at 3.5 pt, under the 4 pt" in said, said


def test_board_text_that_the_a3_board_would_print_under_6_pt_fails_the_build(tmp_path, capsys):
    """Every build writes the board whole on A3 at 69 %: 7 pt on the board would print at 4.8 pt there."""
    board = _layouts(tmp_path) / "pi" / "board.yaml"
    text = board.read_text(encoding="utf-8")
    at = text.index('text: "CRIME"')
    board.write_text(text[:at] + text[at:].replace("size: 9", "size: 7", 1), encoding="utf-8")
    said = _refused(tmp_path, capsys, "pi")
    assert "board.yaml" in said and "text 'CRIME' is set at 7 pt, which is 4.8 pt at 69 %" in said, said


def _ink(item: TextRun) -> tuple[float, float, float, float]:
    box = ink_box(item)
    assert box is not None
    return box


# --- what was under 6 pt ---------------------------------------------------------------------------


def test_cover_lines_wrap_rather_than_shrink():
    """The Clash cover's page map was shrunk to 4.3 pt to fit one line: it wraps, at its own size."""
    page = _Page(210, 297)
    long = " + ".join(["Investigation Sites", "Crime Plans", "Holmes' Agents", "Moriarty's Agents"] * 3)
    page.line(f"1–18: {long}: 9 sheets, faces then backs", 9, "bold")
    page.line("Player aid: 1 sheet " + "with a long tail " * 12, 9.5, box=True)
    runs = [r for r in page.scene.items if isinstance(r, TextRun)]
    assert len(runs) >= 4 and {r.size for r in runs} == {9, 9.5}
    boxes = [r for r in page.scene.items if isinstance(r, Rect)]
    assert len(boxes) == 1  # one tick box, its wrapped lines indented past it
    assert all(_ink(r)[2] <= 210 - 15 + 0.01 for r in runs)
    tail = [r for r in runs if r.size == 9.5]
    assert len(tail) >= 2 and all(r.x >= boxes[0].x + boxes[0].w for r in tail)


@pytest.fixture(scope="module")
def pi_composed():
    composed = compose_game("pi", BuildOptions(papers=("a4",)), Problems())
    assert composed is not None
    return composed


def test_pi_pieces_captions_read_and_nothing_covers_them(pi_composed):
    """PENALTY, GAME, SOLVE, FIRST at 6 pt or more; the first-player flag no longer covers FIRST."""
    seen = set()
    for face in pi_composed.faces["pieces"]:
        scene = face.face
        runs = [r for r in scene.items if isinstance(r, TextRun)]
        captions = [r for r in runs if r.text in ("PENALTY", "GAME", "SOLVE", "FIRST")]
        if not captions:
            continue
        caption = captions[0]
        seen.add(caption.text)
        assert caption.size >= GAME_TEXT_MIN, (face.card.id, caption.size)
        cx0, cy0, cx1, cy1 = _ink(caption)
        for item in scene.items:
            box = ink_box(item)
            if item is caption or box is None or (isinstance(item, Rect) and item.w >= scene.width):
                continue  # the ground lies under everything
            assert box[3] <= cy0 or box[1] >= cy1 or box[2] <= cx0 or box[0] >= cx1, (face.card.id, item)
    assert seen == {"PENALTY", "GAME", "SOLVE", "FIRST"}


def test_the_scoresheet_and_scorepad_captions_are_6_pt_or_more():
    for game, sheet in (("pi", "Scoresheet"), ("syndicate", "Scorepad")):
        composed = compose_game(game, BuildOptions(papers=("a4", "letter")), Problems())
        assert composed is not None
        for paper, pages in composed.pages.items():
            scene = next(s for name, s in pages if name.lower().startswith(sheet.lower()))
            small = {(r.text, r.size) for r in scene.items if isinstance(r, TextRun) and r.size < GAME_TEXT_MIN}
            assert not small - {(t, s) for t, s in small if _flat(t) in composed.composer.fine_print}, (game, paper, small)
