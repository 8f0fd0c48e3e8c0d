"""Read the first sheet of an Excel workbook (.xlsx) as rows of text cells, for rules/sheetsource.py.

The one module of the rules core that needs a library beyond PyYAML: openpyxl, the well-kept
reader of .xlsx, imported only when a component names a workbook (the companion never does).
A workbook is a zip of XML, so one may be built to hurt: its size on disk and unpacked is
bounded before openpyxl opens it, and reading stops at the sheet's row and column limits.
"""

from __future__ import annotations

import datetime
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from casebook.rules.problems import CellPlace, Place, Problem

MAX_BYTES = 5_000_000  # the workbook's size on disk
MAX_UNPACKED = 20_000_000  # all its parts unpacked: a 500-card deck is under 1 MB
# a sheet's or its strings' XML unpacked: openpyxl reads ~1.4 MB of it a second, so this bounds the time (~0.4 s);
# (a 1.6 MB workbook of 500,000 cells took 18.7 s); a cell is ~50 bytes: 500 cards of 8 columns ~200 KB
MAX_SHEET_XML = 500_000
MAX_PARTS = 1_000  # files inside the zip; Excel writes about a dozen
RESAVE = "the workbook saved again from Excel, Google Sheets or LibreOffice as .xlsx, or its sheet exported as CSV"


def _cell_text(value: Any) -> str:
    """A cell's value as the text a CSV export would hold (7, not 7.0; true; 2024-05-01)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def _refusal(path: Path) -> str | None:
    """Why a workbook is refused before it is opened (too large, not a zip, a zip bomb), or None."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            return "not a file"
        if size > MAX_BYTES:
            return f"the workbook is too large ({size / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB)"
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except FileNotFoundError:
        return "file not found"
    except (OSError, zipfile.BadZipFile) as exc:
        return f"not an .xlsx workbook ({exc})"
    for part in parts:
        if (part.filename.startswith("xl/worksheets/") or part.filename == "xl/sharedStrings.xml") \
                and part.file_size > MAX_SHEET_XML:
            return (f"{part.filename} unpacks to {part.file_size / 1e6:.1f} MB (the limit is "
                    f"{MAX_SHEET_XML / 1e6:.1f} MB, about 10,000 filled cells: split the deck into components, "
                    "or export it as CSV)")
    unpacked = sum(part.file_size for part in parts)
    if len(parts) > MAX_PARTS or unpacked > MAX_UNPACKED:
        return (f"the workbook unpacks to {unpacked / 1e6:.0f} MB in {len(parts)} parts (the limits are "
                f"{MAX_UNPACKED / 1e6:.0f} MB and {MAX_PARTS}: a zip bomb?)")
    return None


def _cell_of(path: Path, part: str, position: Any) -> tuple[int, int] | None:
    """The (row, column number) of the sheet cell whose XML holds a parse error's (line, column), if found."""
    if not part or not (isinstance(position, tuple) and len(position) == 2):
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            xml = archive.read(part)  # bounded by MAX_SHEET_XML before the workbook was opened
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    line, column = position
    start = sum(len(text) + 1 for text in xml.split(b"\n")[:max(line - 1, 0)])
    cells = re.findall(rb'<(?:\w+:)?c\b[^>]*?\br="([A-Z]{1,3})(\d+)"', xml[:start + column + 1])
    if not cells:
        return None
    letters, row = cells[-1]
    number = 0
    for letter in letters.decode():
        number = number * 26 + ord(letter) - ord("A") + 1
    return int(row), number


def workbook_rows(path: Path, refused: list[Problem], max_rows: int, max_columns: int,
                  max_cell: int) -> Iterator[tuple[int, int, list[str]]]:
    """(row, 0, cells) of each row of the first sheet, empty ones too; a refusal goes to `refused` and ends it."""
    spath = str(path)
    why = _refusal(path)
    if why is not None:
        refused.append(Problem(Place(spath), why, RESAVE))
        return
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file: each is the same refusal
        refused.append(Problem(Place(spath), f"cannot read the workbook: {exc or type(exc).__name__}", RESAVE))
        return
    header: list[str] = []  # the first filled row's cells: the column names of a damaged cell
    try:
        sheet = book.worksheets[0]
        declared = sheet.max_column  # from the sheet's own dimension, when it gives one
        if isinstance(declared, int) and declared > max_columns:
            refused.append(Problem(CellPlace(spath, 0, max_columns + 1, 1, max_columns + 1),
                                   f"the sheet's cells reach column {declared}", f"at most {max_columns} columns"))
            return
        for row, values in enumerate(sheet.iter_rows(min_row=1, max_col=max_columns + 1, values_only=True), 1):
            if row > max_rows + 1:
                refused.append(Problem(CellPlace(spath, 0, 1, row), f"more than {max_rows} rows of cards",
                                       f"at most {max_rows} cards a sheet: split the deck into components"))
                return
            cells = [_cell_text(value) for value in values]
            if len(cells) > max_columns and cells[max_columns]:
                refused.append(Problem(CellPlace(spath, 0, max_columns + 1, row, max_columns + 1),
                                       f"a value in column {max_columns + 1}", f"at most {max_columns} columns"))
                return
            for number, cell in enumerate(cells, 1):
                if len(cell) > max_cell:
                    refused.append(Problem(CellPlace(spath, 0, number, row, number), f"a cell of {len(cell)} characters",
                                           f"at most {max_cell} characters in one cell"))
                    return
            if not header and any(cell.strip() for cell in cells):
                header = cells
            yield row, 0, cells[:max_columns]
    except Exception as exc:  # damaged XML inside the zip, found while reading rows: at its cell when it says where
        where = _cell_of(path, getattr(sheet, "_worksheet_path", ""), getattr(exc, "position", None))
        place = Place(spath) if where is None else \
            CellPlace(spath, 0, where[1], where[0], header[where[1] - 1].strip() if where[1] <= len(header) else where[1])
        refused.append(Problem(place, f"cannot read the workbook: {exc or type(exc).__name__}", RESAVE))
    finally:
        book.close()
