"""Cards from a spreadsheet saved as CSV: the made-up "Moth and Lamp" (tests/data/tinygame/) with its
deck as `file: deck.csv` reads like its YAML deck, builds through the real command, and every broken
sheet is refused with its row and column, exit 1, no traceback and the earlier PDF untouched.
"""

from __future__ import annotations

import codecs
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from casebook.rules.cards import read_database
from casebook.rules.problems import CellPlace, Problems, column_letter
from casebook.rules.sheetsource import MAX_CELL, MAX_COLUMNS, MAX_ROWS, MAX_WORKBOOK_ROWS
from casebook.rules.yamlsource import MAX_BYTES, plain

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"
LAYOUTS = TINY / "layouts"

# the YAML deck of tests/data/tinygame/cards/moth/deck.yaml as a spreadsheet exports it: a byte-order
# mark, headers as a person writes them, ids only where a rule refers to the card, a number written
# 2.0, yes for true, a two-line quoted cell, a card in two copies, an empty row after the last card
GOOD = (
    "\ufeffName,Suit,Value,Flavour text,Designed,Copies,id\r\n"
    "Dusty Miller,wing,1,,,,\r\n"
    "Luna Moth,wing,2.0,,,,\r\n"
    'Death Head,wing,3,"Drawn to the flame,\r\nit never learns.",yes,,\r\n'
    "Tallow Candle,Flame,1,,,2,\r\n"
    "Gas Mantle,flame,3,,,,gas_mantle\r\n"
    ",,,,,,\r\n"
)


def game_folder(root: Path, deck: str | bytes, name: str = "deck.csv") -> Path:
    """A copy of Moth and Lamp under `root`/cards whose deck is the file `name` holding `deck` (text or bytes)."""
    folder = root / "cards" / "moth"
    folder.mkdir(parents=True)
    shutil.copy(TINY / "cards" / "moth" / "rules.yaml", folder)
    game = (TINY / "cards" / "moth" / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("file: deck.yaml", f"file: {name}").replace(
        "      value: {type: int, min: 1, max: 3, required: true}",
        "      value: {type: int, min: 1, max: 3, required: true}\n      flavour_text: {type: text}")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    if isinstance(deck, str):
        deck = deck.encode("utf-8")
    (folder / name).write_bytes(deck)
    return root / "cards"


def casebook(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "casebook", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def build(cards: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return casebook("build", "moth", "--cards", str(cards), "--layouts", str(LAYOUTS), "--out", str(out),
                    "--paper", "a4", cwd=cards.parent)


def face_text(pdf: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        textpage = page.get_textpage()
        text = " ".join(textpage.get_text_range().split())
        textpage.close()
        page.close()
        return text
    finally:
        doc.close()


def test_the_csv_deck_reads_as_the_yaml_deck(tmp_path: Path) -> None:
    problems = Problems()
    db = read_database("moth", game_folder(tmp_path / "csv", GOOD), problems)
    assert not problems, problems.format()
    assert db is not None
    yaml_db = read_database("moth", TINY / "cards", Problems())
    assert yaml_db is not None
    cards = db.components["deck"].cards
    # ids default to the component and the spreadsheet's row
    assert [c.id for c in cards] == ["deck_2", "deck_3", "deck_4", "deck_5", "gas_mantle"]
    names = {c["name"]: c for c in cards}
    for card in yaml_db.components["deck"].cards:
        if card["name"] not in names:
            continue
        mine = names[card["name"]]
        assert (mine["suit"], mine["value"], mine.designed) == (card["suit"], card["value"], card.designed)
        assert type(mine["value"]) is int
    assert names["Tallow Candle"]["suit"] == "flame"  # written Flame: a suit cell is read as an id
    assert names["Death Head"]["flavour_text"] == "Drawn to the flame,\nit never learns."
    assert names["Tallow Candle"].copies == 2 and db.components["deck"].printed == 6
    assert {k: v for k, v in plain(dict(names["Gas Mantle"].data)).items()} == {
        "name": "Gas Mantle", "suit": "flame", "value": 3, "id": "gas_mantle"}
    # every value knows its cell: the file's line for an editor, the sheet's row and column for people
    place = names["Tallow Candle"].field_place("value")
    assert isinstance(place, CellPlace)
    assert (place.line, place.row, place.col, place.column) == (6, 5, 3, "Value")
    assert str(place).endswith("deck.csv:5: column 'Value'")
    # a checked card may be pickled (the build's cache) and keeps its cells' places
    again = pickle.loads(pickle.dumps(names["Tallow Candle"]))
    assert again.data == names["Tallow Candle"].data and again.field_place("value") == place


def test_google_sheets_and_european_excel_exports(tmp_path: Path) -> None:
    # Google Sheets: no byte-order mark, LF line ends; Excel in many European languages: semicolons
    exports = {"sheets": GOOD.lstrip("\ufeff").replace("\r\n", "\n"),
               "semi": GOOD.replace(",", ";").replace("flame;\r\nit", "flame,\r\nit"),
               "tab": GOOD.replace(",", "\t").replace("flame\t\r\nit", "flame,\r\nit")}
    for name, text in exports.items():
        problems = Problems()
        db = read_database("moth", game_folder(tmp_path / name, text), problems)
        assert not problems, problems.format()
        assert db is not None and db.components["deck"].printed == 6
        death_head = db.components["deck"].cards[2]
        assert death_head["flavour_text"] == "Drawn to the flame,\nit never learns.", name


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """The good deck built once: the PDF every broken sheet must leave as it was."""
    root = tmp_path_factory.mktemp("sheet-good")
    out = root / "out"
    result = build(game_folder(root, GOOD), out)
    assert result.returncode == 0, result.stdout + result.stderr
    pdf = out / "moth" / "moth-a4.pdf"
    return out, pdf.read_bytes()


def test_the_csv_deck_builds(built: tuple[Path, bytes]) -> None:
    out, _ = built
    faces = face_text(out / "moth" / "moth-a4.pdf")
    for name in ("Dusty Miller", "Luna Moth", "Death Head", "Gas Mantle"):
        assert faces.count(name) == 1, faces
    assert faces.count("Tallow Candle") == 2, faces
    assert "NGT 1/6" in faces and "NGT 6/6" in faces


def _rows(n: int) -> str:
    return "name,suit,value\n" + "Moth,wing,1\n" * n


BROKEN = {
    "missing required column": ("Name,Suit\nDusty Miller,wing\n",
                                "deck.csv:1: error: no column 'value' (a required field)"),
    "unknown column": ("Name,Suit,Value,Colour\nDusty Miller,wing,1,grey\n",
                       "deck.csv:1: column 'Colour': error: unknown column 'Colour'"),
    "bad number": ("Name,Suit,Value\nDusty Miller,wing,1\nLuna Moth,wing,two\n",
                   "deck.csv:3: column 'Value': error: card 'Luna Moth' (row 3): 'value' must be a whole number, not text ('two')"),
    "number out of range": ("Name,Suit,Value\nDusty Miller,wing,4\n",
                            "deck.csv:2: column 'Value': error: card 'Dusty Miller' (row 2): 'value' is 4, out of range"),
    "unknown suit": ("Name,Suit,Value\nDusty Miller,moon,1\n",
                     "deck.csv:2: column 'Suit': error: card 'Dusty Miller' (row 2): 'suit': unknown suit 'moon'"),
    "empty required cell": ("Name,Suit,Value\n,wing,1\n",
                            "deck.csv:2: column 'Name': error: card in row 2: 'name' is empty"),
    "copies not a number": ("Name,Suit,Value,Copies\nDusty Miller,wing,1,many\n",
                            "deck.csv:2: column 'Copies': error: card 'Dusty Miller' (row 2): 'copies' must be a whole "
                            "number, not text ('many')"),
    "id not a slug": ("id,Name,Suit,Value\nDusty Miller,Dusty Miller,wing,1\n", "deck.csv:2: column 'id': error:"),
    "value outside every column": ("Name,Suit,Value\nDusty Miller,wing,1,,grey\n",
                                   "deck.csv:1: column E: error: column E (5) has no header, but every card has a value in it; row 1 names 3 "
                                   "columns and the cards fill 5: was a header cell deleted"),
    "quote never closed": ('Name,Suit,Value\n"Dusty Miller,wing,1\nLuna Moth,wing,2\n',
                           "deck.csv:2: error: CSV: a quote opened in row 2 is never closed"),
    "Windows-1252": ("Name,Suit,Value\nDusty Miller,wing,1\nCafé Moth,wing,2\n".encode("cp1252"),
                     "deck.csv:3: column 'Name': error: not UTF-8 text: byte 0xe9"),
    "UTF-16": (codecs.BOM_UTF16_LE + "Name,Suit,Value\n".encode("utf-16-le"), "error: the file is UTF-16 text"),
    "workbook under a .csv name": (b"PK\x03\x04" + bytes(200), "error: this is a workbook (.xlsx or .ods), not CSV"),
    "NUL byte": ("Name,Suit,Value\nDusty\x00,wing,1\n", "deck.csv:2: column 'Name': error: a NUL byte"),
    "huge file": ("Name,Suit,Value\n" + "Moth,wing,1," + "x" * (MAX_BYTES + 10) + "\n",
                  "deck.csv: error: the file is too large (more than 5 MB)"),
    "huge cell": ('Name,Suit,Value\n"' + "x" * (MAX_CELL + 1) + '",wing,1\n',
                  f"deck.csv:2: column A: error: a cell of {MAX_CELL + 1} characters"),
    "cell past the CSV reader's limit": ('Name,Suit,Value\n"' + "x" * 200_000 + '",wing,1\n',
                                         "deck.csv:2: error: CSV: a cell of more than"),
    "too many rows": (_rows(MAX_ROWS + 1), f"deck.csv:{MAX_ROWS + 2}: error: more than {MAX_ROWS} rows of cards"),
    "too many columns": ("Name,Suit,Value\n" + "," * 100_000 + "\n",
                         f"deck.csv:2: column {column_letter(MAX_COLUMNS + 1)}: error: the row has 100001 columns"),
    "empty file": ("", "deck.csv: error: the sheet is empty"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_sheet_is_refused_and_the_pdf_kept(case: str, built: tuple[Path, bytes], tmp_path: Path) -> None:
    out, pdf_before = built
    deck, expected = BROKEN[case]
    result = build(game_folder(tmp_path, deck), out)
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert expected in said, said
    assert "Traceback" not in said
    assert "existing output left as it was" in said
    assert (out / "moth" / "moth-a4.pdf").read_bytes() == pdf_before


def test_bad_encoding_says_how_to_re_export(tmp_path: Path) -> None:
    problems = Problems()
    read_database("moth", game_folder(tmp_path, "Name,Suit,Value\nCafé,wing,1\n".encode("cp1252")), problems)
    said = problems.format()
    assert "CSV UTF-8" in said and "Google Sheets" in said, said


def test_every_problem_of_a_sheet_at_once(tmp_path: Path) -> None:
    problems = Problems()
    deck = "Name,Suit,Value\nDusty Miller,moon,1\nLuna Moth,wing,two\n,flame,2\nDeath Head,wing,3,x\n"
    read_database("moth", game_folder(tmp_path, deck), problems)
    places = sorted(str(p.place).split("deck.csv:")[1] for p in problems.errors if "deck.csv" in str(p.place))
    assert places == ["1: column D", "2: column 'Suit'", "3: column 'Value'", "4: column 'Name'"], problems.format()


def test_watch_sees_an_edited_sheet(tmp_path: Path) -> None:
    from casebook.generator.watch import changes, snapshot

    cards = game_folder(tmp_path, GOOD)
    before = snapshot([cards])
    deck = cards / "moth" / "deck.csv"
    assert deck in before
    deck.write_text(GOOD.replace("Luna Moth", "Luna Moths"), encoding="utf-8")
    assert changes(before, snapshot([cards]))


def workbook(rows: list[list[object]], far: tuple[int, str] | None = None) -> bytes:
    """An .xlsx workbook whose first sheet holds `rows` (and `far`: a value in column A of that row)."""
    import io

    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    if far is not None:
        book.active.cell(row=far[0], column=1, value=far[1])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


GOOD_ROWS: list[list[object]] = [
    ["Name", "Suit", "Value", "Flavour text", "Designed", "Copies", "id"],
    ["Dusty Miller", "wing", 1], ["Luna Moth", "wing", 2.0],
    ["Death Head", "wing", 3, "Drawn to the flame,\nit never learns.", True],
    ["Tallow Candle", "flame", 1, None, None, 2], ["Gas Mantle", "flame", 3, None, None, None, "gas_mantle"], [],
]


def test_a_workbook_reads_as_the_csv(tmp_path: Path) -> None:
    from_csv, from_xlsx = Problems(), Problems()
    csv_db = read_database("moth", game_folder(tmp_path / "csv", GOOD), from_csv)
    xlsx_db = read_database("moth", game_folder(tmp_path / "xlsx", workbook(GOOD_ROWS), "deck.xlsx"), from_xlsx)
    assert not from_csv and not from_xlsx, from_xlsx.format()
    assert csv_db is not None and xlsx_db is not None
    csv_cards, xlsx_cards = csv_db.components["deck"].cards, xlsx_db.components["deck"].cards
    assert [(c.id, dict(c.data), c.copies, c.designed) for c in xlsx_cards] == \
        [(c.id, dict(c.data), c.copies, c.designed) for c in csv_cards]
    assert str(xlsx_cards[3].field_place("value")).endswith("deck.xlsx:5: column 'Value'")


def test_a_workbook_builds(tmp_path: Path) -> None:
    cards = game_folder(tmp_path, workbook(GOOD_ROWS), "deck.xlsx")
    result = build(cards, tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    faces = face_text(tmp_path / "out" / "moth" / "moth-a4.pdf")
    assert faces.count("Tallow Candle") == 2 and "Gas Mantle" in faces, faces


def _zip_bomb() -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/image1.png", bytes(60_000_000))
    return out.getvalue()


BROKEN_WORKBOOKS = {
    "bad number": (lambda: workbook([["Name", "Suit", "Value"], ["Dusty Miller", "wing", "two"]]),
                   "deck.xlsx:2: column 'Value': error: card 'Dusty Miller' (row 2): 'value' must be a whole number, not text ('two')"),
    "unknown suit": (lambda: workbook([["Name", "Suit", "Value"], ["Luna Moth", "wing", 2], ["Dusty Miller", "moon", 1]]),
                     "deck.xlsx:3: column 'Suit': error: card 'Dusty Miller' (row 3): 'suit': unknown suit 'moon'"),
    "missing column": (lambda: workbook([["Name", "Suit"], ["Dusty Miller", "wing"]]),
                       "deck.xlsx:1: error: no column 'value' (a required field)"),
    "a cell far below": (lambda: workbook([["Name", "Suit", "Value"]], far=(1_000_000, "Moth")),
                         f"deck.xlsx:{MAX_WORKBOOK_ROWS + 2}: error: more than {MAX_WORKBOOK_ROWS} rows of cards"),
    "a sheet too large to read quickly": (lambda: workbook([["Name", "Suit", "Value"]] + [["Moth", "wing", 1] * 8] * 4000),
                                          "deck.xlsx: error: xl/worksheets/sheet1.xml unpacks to"),
    "too many columns": (lambda: workbook([["Name", "Suit", "Value"], ["Moth", "wing", 1] + [None] * 200 + ["x"]]),
                         f"deck.xlsx:1: column {column_letter(MAX_COLUMNS + 1)}: error: the sheet's cells reach column 204"),
    "CSV text under an .xlsx name": (lambda: GOOD.encode("utf-8"), "deck.xlsx: error: not an .xlsx workbook"),
    "damaged zip": (lambda: workbook(GOOD_ROWS)[:3000], "deck.xlsx: error: not an .xlsx workbook"),
    "zip without a workbook": (lambda: workbook(GOOD_ROWS).replace(b"xl/workbook.xml", b"xl/workbook.xmm"),
                               "deck.xlsx: error: cannot read the workbook"),
    "zip bomb": (_zip_bomb, "deck.xlsx: error: the workbook unpacks to 60 MB in 1 parts"),
    "huge file": (lambda: b"PK\x03\x04" + bytes(MAX_BYTES), "deck.xlsx: error: the workbook is too large"),
}


@pytest.mark.parametrize("case", list(BROKEN_WORKBOOKS))
def test_a_broken_workbook_is_refused_and_the_pdf_kept(case: str, built: tuple[Path, bytes], tmp_path: Path) -> None:
    out, pdf_before = built
    make, expected = BROKEN_WORKBOOKS[case]
    result = build(game_folder(tmp_path, make(), "deck.xlsx"), out)
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert expected in said, said
    assert "Traceback" not in said
    assert (out / "moth" / "moth-a4.pdf").read_bytes() == pdf_before
