"""The bar for broken spreadsheets: a good deck of "Lamps" (tests/data/sheets/) built through the real
command, as CSV and as .xlsx, then its sheet broken one way at a time (a missing column, a bad number, an
unknown suit, an empty row, a bad encoding, a missing required cell, an unknown column): each is refused
with file:row and the column, exit 1, no traceback, the earlier PDF and the whole output folder as they were.
The good deck also proves a multi-line cell prints on two lines and a `copies` column prints its copies.
"""

from __future__ import annotations

import codecs
import io
import re
import shutil
from pathlib import Path

import pytest

from tests.rules.test_print_only_game import CARDS, LAYOUTS, casebook

GOOD = (CARDS / "lamps" / "deck.csv").read_bytes().decode("utf-8")  # CRLF as Excel writes; one cell holds a line break


def rows_of(text: str) -> list[list[object]]:
    """The CSV text as a workbook's rows (numbers as numbers, as a person types them into Excel)."""
    import csv

    return [[int(cell) if cell.isdigit() else cell or None for cell in row]
            for row in csv.reader(io.StringIO(text, newline=""))]


def workbook(rows: list[list[object]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    for number, row in enumerate(rows, 1):
        for column, value in enumerate(row, 1):
            book.active.cell(row=number, column=column, value=value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def sheet_bytes(text: str, kind: str) -> bytes:
    return text.encode("utf-8") if kind == "csv" else workbook(rows_of(text))


def game(root: Path, kind: str, deck: bytes) -> Path:
    """A copy of Lamps under `root`/cards whose deck is `deck.<kind>` holding `deck`."""
    folder = root / "cards" / "lamps"
    shutil.copytree(CARDS / "lamps", folder)
    (folder / "deck.csv").unlink()
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("file: deck.csv", f"file: deck.{kind}"),
                         encoding="utf-8")
    (folder / f"deck.{kind}").write_bytes(deck)
    return root / "cards"


def build(cards: Path, out: Path) -> tuple[int, str]:
    result = casebook("build", "lamps", "--cards", str(cards), "--layouts", str(LAYOUTS), "--out", str(out),
                      "--paper", "a4", cwd=cards.parent)
    return result.returncode, result.stdout + result.stderr


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (hidden ones too) and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module", params=["csv", "xlsx"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The good deck built once for each kind of sheet: the output every broken sheet must leave as it was."""
    kind = request.param
    root = tmp_path_factory.mktemp(f"good-{kind}")
    code, said = build(game(root, kind, sheet_bytes(GOOD, kind)), root / "out")
    assert code == 0, said
    return kind, root / "out"


def pdf_text(pdf: Path) -> str:
    """The first page's text as PDFium reads it, its lines kept."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        textpage.close()
        page.close()
        return str(text)
    finally:
        doc.close()


def test_a_multi_line_cell_prints_on_two_lines_and_copies_print(built: tuple[str, Path]) -> None:
    _, out = built
    text = pdf_text(out / "lamps" / "lamps-a4.pdf")
    # Tallow Candle's text cell holds a line break, and the card is printed twice (its Copies cell)
    assert len(re.findall(r"Burns low\.[ ]*\r?\n[ ]*Lights the way\.", text)) == 2, text
    assert "Burns low. Lights the way." not in text
    assert text.count("Tallow Candle") == 2 and text.count("Luna Moth") == 1, text
    assert "DECK 4/4" in text and "DECK 5/4" not in text, text


BREAKS: dict[str, tuple[str, str]] = {
    # a missing column: the row of the headers, the column by the field's name
    "missing column": (GOOD.replace("Name,Suit,Rank,", "Name,Suit,").replace("Candle,Flame,1,", "Candle,Flame,")
                       .replace("Moth,wing,7,", "Moth,wing,").replace("Lantern,flame,3,", "Lantern,flame,"),
                       "deck.{kind}:1: error: no column 'rank' (a required field)"),
    "bad number": (GOOD.replace("Luna Moth,wing,7,", "Luna Moth,wing,seven,"),
                   "deck.{kind}:3: column 'Rank': error: card 'Luna Moth' (row 3): 'rank' must be a whole number, not text ('seven')"),
    "number out of range": (GOOD.replace("Luna Moth,wing,7,", "Luna Moth,wing,11,"),
                            "deck.{kind}:3: column 'Rank': error: card 'Luna Moth' (row 3): 'rank' is 11, out of range"),
    "unknown suit": (GOOD.replace("Oil Lantern,flame,", "Oil Lantern,moon,"),
                     "deck.{kind}:4: column 'Suit': error: card 'Oil Lantern' (row 4): 'suit': unknown suit 'moon'"),
    "empty row between cards": (GOOD.replace("Luna Moth,", ",,,,\r\nLuna Moth,"),
                                "deck.{kind}:3: error: row 3 is empty: delete it (empty rows at the end are ignored)"),
    "empty rows between cards": (GOOD.replace("Luna Moth,", ",,,,\r\n,,,,\r\nLuna Moth,"),
                                 "deck.{kind}:3: error: rows 3-4 are empty: delete them (empty rows at the end are ignored)"),
    "missing required cell": (GOOD.replace("Luna Moth,wing,", ",wing,"),
                              "deck.{kind}:3: column 'Name': error: card in row 3: 'name' is empty"),
    "a row of copies alone": (GOOD.replace("Luna Moth,wing,7,,", ",,,,3"),
                              "deck.{kind}:3: column 'Name': error: card in row 3: 'name' is empty"),
    # a default id (<component>_<row>) meeting one written in the id column: both rows named
    "a default id taken": (GOOD.replace("Copies\r\n", "Copies,id\r\n").replace('way.",2\r\n', 'way.",2,deck_3\r\n'),
                           "deck.{kind}:3: column 'id': error: duplicate card id 'deck_3', the id of a card without one "
                           "(its component and row) (first at "),
    "unknown column": (GOOD.replace("Copies\r\n", "Copies,Colour\r\n").replace("Carried far.,", "Carried far.,,grey"),
                       "deck.{kind}:1: column 'Colour': error: unknown column 'Colour'"),
}


@pytest.mark.parametrize("case", list(BREAKS))
def test_a_broken_sheet_is_refused_and_the_output_kept(case: str, built: tuple[str, Path], tmp_path: Path) -> None:
    kind, out = built
    text, expected = BREAKS[case]
    assert text != GOOD
    before = tree(out)
    code, said = build(game(tmp_path, kind, sheet_bytes(text, kind)), out)
    assert code == 1, said
    assert expected.format(kind=kind) in said, said
    if case == "a default id taken":
        assert f"deck.{kind}:2)" in said, said
    assert "Traceback" not in said
    assert "existing output left as it was" in said, said
    assert tree(out) == before  # the PDF's bytes, and nothing half-written beside it


def test_a_row_of_copies_alone_names_each_empty_column(tmp_path: Path) -> None:
    code, said = build(game(tmp_path, "csv", BREAKS["a row of copies alone"][0].encode("utf-8")), tmp_path / "out")
    assert code == 1
    for column, field in (("Name", "name"), ("Suit", "suit"), ("Rank", "rank")):
        assert f"deck.csv:3: column '{column}': error: card in row 3: '{field}' is empty" in said, said


def test_empty_rows_after_the_last_card_are_ignored(tmp_path: Path) -> None:
    for kind in ("csv", "xlsx"):
        cards = game(tmp_path / kind, kind, sheet_bytes(GOOD + ",,,,\r\n,,,,\r\n", kind))
        code, said = build(cards, tmp_path / kind / "out")
        assert code == 0, said


ENCODINGS = {
    # Excel's plain "CSV" (Windows-1252): the row and column of the first byte that is not UTF-8
    "Windows-1252": (GOOD.replace("Oil Lantern", "Oil Lantern Café").encode("cp1252"),
                     "deck.csv:4: column 'Name': error: not UTF-8 text: byte 0xe9 cannot be read"),
    "Windows-1252 in a multi-line cell": (GOOD.replace("Lights the way", "Lights the café").encode("cp1252"),
                                          "deck.csv:2: column 'Text': error: not UTF-8 text: byte 0xe9"),
    # Excel's "Unicode Text": its byte-order mark, the first bytes of the file
    "UTF-16": (codecs.BOM_UTF16_LE + GOOD.encode("utf-16-le"),
               "deck.csv:1: column A: error: the file is UTF-16 text (Excel's 'Unicode Text'), not UTF-8"),
    "UTF-16 without a byte-order mark": (GOOD.encode("utf-16-be"),
                                         "deck.csv:1: column A: error: the file is UTF-16 text"),
}


@pytest.mark.parametrize("case", list(ENCODINGS))
def test_a_bad_encoding_is_refused_at_its_row_and_column(case: str, built: tuple[str, Path], tmp_path: Path) -> None:
    kind, out = built
    if kind != "csv":
        pytest.skip("an encoding is the CSV's: a workbook's text is always Unicode")
    deck, expected = ENCODINGS[case]
    before = tree(out)
    code, said = build(game(tmp_path, "csv", deck), out)
    assert code == 1, said
    assert expected in said, said
    assert "CSV UTF-8" in said and "Traceback" not in said
    assert tree(out) == before


def test_a_workbook_with_damaged_text_is_refused(built: tuple[str, Path], tmp_path: Path) -> None:
    kind, out = built
    if kind != "xlsx":
        pytest.skip("the workbook's own case")
    good = workbook(rows_of(GOOD))
    import zipfile

    damaged = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as source, zipfile.ZipFile(damaged, "w") as target:
        for part in source.infolist():
            data = source.read(part)
            if part.filename == "xl/worksheets/sheet1.xml":  # openpyxl writes strings inline
                data = data.replace(b"Oil Lantern", "Oil Lantern Caf\xe9".encode("cp1252"))
            target.writestr(part, data)
    before = tree(out)
    code, said = build(game(tmp_path, "xlsx", damaged.getvalue()), out)
    assert code == 1, said
    # a byte that is not UTF-8 inside the sheet's XML: at the cell that holds it
    assert "deck.xlsx:4: column 'Name': error: cannot read the workbook: not well-formed" in said, said
    assert "Traceback" not in said
    assert tree(out) == before
