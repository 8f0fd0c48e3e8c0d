"""Read a component's cards from a spreadsheet (CSV, or .xlsx through rules/workbook.py), each cell remembering its row and column.

One card a row under a header row of field names, as Google Sheets, Excel and LibreOffice
export it: quoted cells may hold line breaks, a UTF-8 byte-order mark is dropped, empty rows
after the last card are ignored and one between cards is refused (row numbers are the spreadsheet's). Cells are text; a cell
of an `int` or `bool` field is read as a number or yes/no here, and every card then goes
through the same checks as a YAML card (rules/cards.py). A file built to hurt is refused
quickly and with its place: too large, a cell too long, too many rows or columns, a NUL
byte, text that is not UTF-8.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

from casebook.rules.problems import CellPlace, Place, Problem, Problems, column_letter
from casebook.rules.yamlsource import MAX_BYTES, MAX_SCALAR, Node, PackedNode, Seq

# cards (rows) in one CSV sheet: a 10,000-card deck is a fifth of it; 5 MB of rows of ~100 characters. The
# rows are held while the header is checked, so this bounds memory (an empty row is a list) as MAX_BYTES bounds text.
MAX_ROWS = 50_000
MAX_WORKBOOK_ROWS = 5_000  # rows in a workbook's sheet: its XML limit (rules/workbook.py) holds ~10,000 cells anyway
MAX_COLUMNS = 100  # columns in one sheet; a card has a dozen fields at most
MAX_CELL = MAX_SCALAR  # characters in one cell, as in one YAML value
BUILT_IN = ("id", "copies", "designed", "sets")  # columns every sheet may have (rules.cards.CARD_KEYS)
LIST_SEPARATOR = ";"  # between the items of a list cell (`base; advanced`)
RE_EXPORT = ("re-export it as UTF-8: Google Sheets: File > Download > Comma-separated values; "
             "Excel: Save As > 'CSV UTF-8 (Comma delimited)'; LibreOffice: Save As > Text CSV, "
             "character set 'Unicode (UTF-8)'")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")  # a line and its end, as a file opened with newline="" gives it
_INT = re.compile(r"^[+-]?\d{1,18}(\.0*)?$")  # 7, or 7.0 as some exports write whole numbers
_YES, _NO = {"true", "yes", "y", "1"}, {"false", "no", "n", "0"}
SHARED_TEXT = 24  # characters: a text this short (a suit, a kind, a set) may recur on many rows, and is kept once
COPIES_NAMES = ("copies", "copy", "qty", "quantity", "count", "number", "how_many", "amount")  # a sheet's names for copies


class SheetRow(PackedNode):
    """One card read from a row: plain values; each field's place is its cell, made when asked for."""

    __slots__ = ("_columns",)  # its row and line are its place's (a CellPlace)

    def __init__(self, items: dict[str, Any], place: CellPlace, columns: Mapping[str, tuple[int, str]]):
        dict.__init__(self, items)
        self.place, self._columns = place, columns

    @property
    def row(self) -> int:
        """The spreadsheet's number of this row (a card without an id is `<component>_<row>`)."""
        return cast(CellPlace, self.place).row

    def column_number(self, key: str) -> int:
        """The number of the column a field is read from (after every column if none)."""
        return self._columns[key][0] if key in self._columns else MAX_COLUMNS + 1

    def _cell(self, key: str) -> Place:
        if key not in self._columns:
            return self.place
        number, header = self._columns[key]
        return CellPlace(self.place.path, self.place.line, number, self.row, header)

    def key_place(self, key: str) -> Place:
        return self._cell(key)

    def value_place(self, key: str) -> Place:
        return self._cell(key)

    @property
    def key_places(self) -> dict[str, Place]:  # type: ignore[override]
        return {key: self._cell(key) for key in self}

    @property
    def value_places(self) -> dict[str, Place]:  # type: ignore[override]
        return self.key_places

    def __reduce__(self) -> tuple[Any, ...]:
        return (SheetRow, (dict(self), self.place, dict(self._columns)))


def load_sheet(path: Path, fields: Mapping[str, Any], problems: Problems,
               ids: Mapping[str, Collection[str]] | None = None) -> Node | None:
    """The cards of a CSV file or workbook as `{cards: [row, ...]}` for rules/cards.py; None (with problems) if unusable.

    `ids` holds the game's suit and mark ids (`{"suit": ..., "mark": ...}`): a cell naming one in another case
    (`Flame`) is read as its id; a cell naming none is kept as written, for the message to show it so.
    """
    spath = str(path)
    refused: list[Problem] = []  # a limit or a format error that ended the reading
    if path.suffix.lower() == ".xlsx":
        from casebook.rules.workbook import workbook_rows

        rows = workbook_rows(path, refused, MAX_WORKBOOK_ROWS, MAX_COLUMNS, MAX_CELL)
    else:
        text = _read_text(path, problems)
        if text is None:
            return None
        if "\x00" in text:
            problems.add(_place_at(spath, text, text.index("\x00")), "a NUL byte: this is not a CSV text file",
                         "the sheet saved as CSV (a workbook saved under a .csv name?): " + RE_EXPORT)
            return None
        rows = _rows(spath, text, refused)
    header = next((row for row in rows if _filled(row[2])), None)  # the rows are read one at a time, never all kept
    if header is None:
        problems.items.extend(refused)
        if not refused:
            problems.add(Place(spath), "the sheet is empty", "a header row naming the fields, then one card a row")
        return None
    before = len(problems.items)
    columns = _columns(spath, header, fields, problems)
    misread = len(problems.items) > before
    cards = Seq()
    cards.place, cards.item_places = Place(spath, 1, 1), []
    gaps: list[Problem] = []  # empty rows between cards: said once the header row is known to be right
    empty: list[tuple[int, int]] = []  # (row, line) of the empty rows since the last card: refused if a card follows
    unnamed = _Unnamed(header[2])
    pool: dict[str, str] = {}  # short texts (a suit, a kind), one string however many rows hold them
    for row, line, cells in rows:
        if not _filled(cells):
            empty.append((row, line))
            continue
        unnamed.see(row, cells)
        if empty:
            gaps.append(_empty_rows(spath, empty))
            empty = []
        if not misread:  # a wrong header row would misread every card: none is made
            card = _card(spath, row, line, cells, columns, fields, ids, pool)
            cards.append(card)
            cards.item_places.append(card.place)
    if unnamed.report(spath, header, [*fields, *BUILT_IN], problems) or misread:
        problems.items.extend(refused)
        return None  # the cards wait until the header row is right
    problems.items.extend(gaps)
    if refused:
        problems.items.extend(refused)
        return None  # nothing is checked half-read
    holder = Node(cards=cards)
    holder.place, holder.key_places, holder.value_places = Place(spath, 1, 1), {}, {}
    return holder


def _filled(cells: list[str]) -> bool:
    """Whether a row holds anything but blanks."""
    return any(cell.strip() for cell in cells)


def _empty_rows(spath: str, empty: list[tuple[int, int]]) -> Problem:
    """Empty rows between cards: a card forgotten, or rows to delete (empty rows after the last card are ignored)."""
    (first, line), last = empty[0], empty[-1][0]
    rows = f"row {first} is empty: delete it" if first == last else f"rows {first}-{last} are empty: delete them"
    return Problem(CellPlace(spath, line, 1, first), f"{rows} (empty rows at the end are ignored)",
                   "one card a row, with no empty rows between cards")


def _read_text(path: Path, problems: Problems) -> str | None:
    """The file's text, its UTF-8 byte-order mark dropped; refused if too large or not UTF-8."""
    spath = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)  # never more: a 40 MB file is refused without reading it all
    except OSError as exc:
        missing = isinstance(exc, FileNotFoundError)
        problems.add(Place(spath), "file not found" if missing else f"cannot read file: {exc.strerror or exc}",
                     "the sheet saved as CSV beside game.yaml, readable")
        return None
    if len(data) > MAX_BYTES:
        problems.add(Place(spath), f"the file is too large (more than {MAX_BYTES / 1e6:.0f} MB)",
                     f"a sheet under {MAX_BYTES / 1e6:.0f} MB (a 500-card deck is about 100 KB)")
        return None
    if data.startswith(b"PK\x03\x04"):
        problems.add(Place(spath), "this is a workbook (.xlsx or .ods), not CSV text", RE_EXPORT)
        return None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _utf16_unmarked(data):
        problems.add(CellPlace(spath, 1, 1, 1, 1), "the file is UTF-16 text (Excel's 'Unicode Text'), not UTF-8", RE_EXPORT)
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
        text = data[:start].decode("utf-8-sig", errors="replace")
        problems.add(_place_at(spath, text, len(text)), f"not UTF-8 text: byte 0x{data[start]:02x} cannot be read (saved as Windows-1252 "
                     "or Latin-1, Excel's plain 'CSV'?)", RE_EXPORT)
        return None


def _utf16_unmarked(data: bytes) -> bool:
    """UTF-16 text without a byte-order mark: every other byte of its (Latin) header NUL."""
    head = data[:64]
    return len(head) >= 8 and any(head[i::2].count(0) == len(head[i::2]) for i in (0, 1))


def _place_at(spath: str, text: str, pos: int) -> CellPlace:
    """The cell of character `pos` (its row and column found by reading the text before it)."""
    rows = list(csv.reader(io.StringIO(text[:pos] + "x", newline=""), delimiter=_delimiter(text)))
    row, number = len(rows), len(rows[-1])
    header = rows[0][number - 1].strip() if row > 1 and number <= len(rows[0]) else ""
    return CellPlace(spath, text.count("\n", 0, pos) + 1, number, row, header or number)


def _delimiter(text: str) -> str:
    """A comma, or what the first line is split by (a semicolon from European Excel, a tab)."""
    first = text[:text.find("\n") if "\n" in text else len(text)]
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: (counts[d], d == ","))


def _rows(spath: str, text: str, refused: list[Problem]) -> Iterator[tuple[int, int, list[str]]]:
    """(row, first line, cells) of each row, empty ones too; a refusal is added to `refused` and ends it."""
    lines = (m.group() for m in _LINE.finditer(text))  # one line at a time: a StringIO would copy the text, 4 bytes a character
    reader = csv.reader(lines, delimiter=_delimiter(text), strict=True)
    row = 0
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            what = str(exc)
            if "field larger than field limit" in what:
                what = f"a cell of more than {csv.field_size_limit()} characters"
            elif "unexpected end of data" in what:
                what = f"a quote opened in row {row + 1} is never closed"
            refused.append(Problem(CellPlace(spath, line, 1, row + 1), f"CSV: {what}",
                                   f"cells under {MAX_CELL} characters, quotes doubled inside quoted cells (\"\")"))
            return
        row += 1
        if row > MAX_ROWS + 1:
            refused.append(Problem(CellPlace(spath, line, 1, row), f"more than {MAX_ROWS} rows of cards",
                                   f"at most {MAX_ROWS} cards a sheet: split the deck into components"))
            return
        if len(cells) > MAX_COLUMNS:
            refused.append(Problem(CellPlace(spath, line, MAX_COLUMNS + 1, row, MAX_COLUMNS + 1),
                                   f"the row has {len(cells)} columns", f"at most {MAX_COLUMNS} columns"))
            return
        for number, cell in enumerate(cells, 1):
            if len(cell) > MAX_CELL:
                refused.append(Problem(CellPlace(spath, line, number, row, number),
                                       f"a cell of {len(cell)} characters", f"at most {MAX_CELL} characters in one cell"))
                return
        yield row, line, cells


def _column_name(header: str) -> str:
    """A header as a field name: `Rank` and ` rank ` are `rank`, `Flavour text` is `flavour_text`."""
    return "_".join(header.strip().lower().split())


def _columns(spath: str, header: tuple[int, int, list[str]], fields: Mapping[str, Any],
             problems: Problems) -> dict[str, tuple[int, str]]:
    """Each field's column number and header; each problem of the header row is added to `problems`."""
    row, line, cells = header
    known = [*fields, *BUILT_IN]
    columns: dict[str, tuple[int, str]] = {}
    for number, cell in enumerate(cells, 1):
        name, place = _column_name(cell), CellPlace(spath, line, number, row, cell.strip() or number)
        if not name:
            continue  # a column without a header must stay empty: _unnamed_columns
        if name in COPIES_NAMES and name not in fields:
            name = "copies"  # How many, Qty, Count ...: how many of a card to print, unless a field has that name
        if name in columns and name == "copies" and _column_name(columns[name][1]) != _column_name(cell):
            first = columns[name]
            problems.add(place, f"two columns say how many of a card to print: '{first[1]}' (column "
                         f"{column_letter(first[0])}) and '{cell.strip()}' (column {column_letter(number)})",
                         "one of them: delete the other, or rename it if it means something else")
        elif name in columns:
            problems.add(place, f"a second column '{cell.strip()}' (first is column {columns[name][0]})",
                         "each field in one column")
        elif name not in known:
            problems.add(place, f"unknown column '{cell.strip()}'", "a field of this component: " + ", ".join(known))
        elif isinstance(fields.get(name), Mapping) and fields[name].get("type") == "map":
            problems.add(place, f"the field '{name}' is a mapping, which a cell cannot hold",
                         "give this component's cards in YAML, or split the mapping into fields")
        else:
            columns[name] = (number, cell.strip())
    for name, spec in fields.items():
        if isinstance(spec, Mapping) and spec.get("required") and name not in columns:
            problems.add(CellPlace(spath, line, 1, row), f"no column '{name}' (a required field)",
                         f"a header cell '{name}' in row {row}")
    return columns


class _Unnamed:
    """The columns without a header that hold a value, seen one row at a time: said once, by letter, at the header row."""

    def __init__(self, names: list[str]):
        self.names = names
        self.cards = 0  # rows holding anything
        self.filled: dict[int, list[int]] = {}  # a column without a header -> the rows with a value in it

    def see(self, row: int, cells: list[str]) -> None:
        self.cards += 1
        names = self.names
        for number, cell in enumerate(cells, 1):
            if cell.strip() and (number > len(names) or not names[number - 1].strip()):
                self.filled.setdefault(number, []).append(row)

    def report(self, spath: str, header: tuple[int, int, list[str]], known: list[str], problems: Problems) -> bool:
        """Each such column, once, at the header row by its letter (not once a card).

        True if a card of every row fills one: the header row is wrong (a name missing, or the names shifted)."""
        row, line, names = header
        named = [number for number, cell in enumerate(names, 1) if cell.strip()]
        every = False
        for number, rows in sorted(self.filled.items()):
            if len(rows) == self.cards:
                where, every = "every card has a value in it", True
            else:
                where = f"row {rows[0]} has a value in it" + (f" (and {len(rows) - 1} more rows)" if len(rows) > 1 else "")
            if len(rows) == self.cards and number > max(named, default=0):
                where += (f"; row {row} names {len(named)} columns and the cards fill {number}: was a header cell "
                          "deleted, moving the names after it one column to the left?")
            problems.add(CellPlace(spath, line, number, row, number),
                         f"column {column_letter(number)} ({number}) has no header, but {where}",
                         f"name it in row {row} (one of: {', '.join(known)}), or delete the column if it is not needed")
        return every


def _card(spath: str, row: int, line: int, cells: list[str], columns: dict[str, tuple[int, str]],
          fields: Mapping[str, Any], ids: Mapping[str, Collection[str]] | None, pool: dict[str, str]) -> SheetRow:
    """A row as a card's values, each cell read by its field's type (without an id it is `<component>_<row>`: rules/cards.py).

    A short text (a suit, a kind, a set) is one string in `pool` however many rows hold it.
    """
    by_number = {number: name for name, (number, _) in columns.items()}
    items: dict[str, Any] = {}
    for number, cell in enumerate(cells, 1):
        name = by_number.get(number)
        value = cell.replace("\r\n", "\n").strip()
        if name is None:
            continue  # a column without a header: empty, or refused at the header row
        spec = fields.get(name) if name not in BUILT_IN else {"type": {"copies": "int", "designed": "bool",
                                                                       "sets": "list"}.get(name, "str")}
        spec = spec if isinstance(spec, Mapping) else {}
        if value:
            items[name] = _shared(_value(value, spec, ids), pool)
        elif spec.get("required") or spec.get("nullable"):
            items[name] = None  # the shared check says it is empty, at this cell
    # one number for both where a row is one line (each a 28-byte object on a deck of thousands)
    return SheetRow(items, CellPlace(spath, row if line == row else line, 1, row), columns)


def _shared(value: Any, pool: dict[str, str]) -> Any:
    """A short text as the one string the sheet holds for it (a list's items too); anything else as it is."""
    if isinstance(value, str):
        return pool.setdefault(value, value) if len(value) <= SHARED_TEXT else value
    if isinstance(value, list):
        return [_shared(item, pool) for item in value]
    return value


def _value(cell: str, spec: Mapping[str, Any], ids: Mapping[str, Collection[str]] | None = None) -> Any:
    """A cell as its field's type; what cannot be read stays text as written, for the shared check to refuse."""
    ftype = spec.get("type")
    if ftype == "int" and _INT.match(cell):
        return int(cell.split(".")[0])
    if ftype == "bool" and cell.lower() in _YES | _NO:
        return cell.lower() in _YES
    if ftype in ("suit", "mark"):
        slug = _column_name(cell)  # ids are slugs: `Wing` and `Red moon` are `wing` and `red_moon`
        return slug if ids is None or slug in ids.get(str(ftype), ()) else cell
    if ftype == "enum":
        return next((v for v in spec.get("values") or [] if str(v) == cell), cell)
    if ftype == "list":
        item = spec.get("item")
        return [_value(part.strip(), item if isinstance(item, Mapping) else {}, ids) for part in cell.split(LIST_SEPARATOR) if part.strip()]
    return cell
