"""What the CSV reader keeps of a big deck: rows read one at a time, a short text once (issue 21 item 12).

(The memory itself is measured by `benchmarks/big_memory.py` and `benchmarks/speed.py --big`.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.rules import sheetsource
from casebook.rules.problems import CellPlace, Problems
from casebook.rules.sheetsource import SheetRow, load_sheet

FIELDS = {"name": {"type": "str", "required": True}, "suit": {"type": "suit"}, "kind": {"type": "str"},
          "value": {"type": "int"}}
IDS = {"suit": {"wing", "flame"}, "mark": set()}


def _sheet(tmp_path: Path, rows: int, newline: str = "\n") -> Path:
    path = tmp_path / "deck.csv"
    lines = ["id,name,suit,kind,value"]
    lines += [f"card_{i:05d},Name {i},{('Wing', 'flame')[i % 2]},{('ghost', 'lamp')[i % 2]},{i % 3 + 1}"
              for i in range(1, rows + 1)]
    path.write_bytes((newline.join(lines) + newline).encode("utf-8"))
    return path


def _rows(node) -> list[SheetRow]:
    return list(node["cards"])


def test_a_short_text_is_one_string_however_many_rows_hold_it(tmp_path):
    """A suit read as its id (`Wing` is `wing`) and a kind: one string for the deck, not one a row."""
    node = load_sheet(_sheet(tmp_path, 40), FIELDS, Problems(), IDS)
    assert node is not None
    rows = _rows(node)
    for field in ("suit", "kind"):
        firsts: dict[str, str] = {}
        for row in rows:
            value = row[field]
            assert value is firsts.setdefault(value, value), f"{field} '{value}' held twice"
    assert {row["suit"] for row in rows} == {"wing", "flame"}


def test_rows_are_read_one_at_a_time_not_all_kept_first(tmp_path, monkeypatch):
    """The reader makes each card as its row is read: it never holds the whole table of cells."""
    read = 0
    ahead: list[int] = []
    rows_of, card_of = sheetsource._rows, sheetsource._card

    def counting(*args):
        nonlocal read
        for row in rows_of(*args):
            read += 1
            yield row

    def card(spath, row, *args):
        ahead.append(read - row)  # rows read beyond the one this card is made of
        return card_of(spath, row, *args)

    monkeypatch.setattr(sheetsource, "_rows", counting)
    monkeypatch.setattr(sheetsource, "_card", card)
    node = load_sheet(_sheet(tmp_path, 200), FIELDS, Problems(), IDS)
    assert node is not None and len(_rows(node)) == 200
    assert max(ahead) == 0


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_every_kind_of_line_end_reads_the_same_cards_and_places(tmp_path, newline):
    node = load_sheet(_sheet(tmp_path, 5, newline), FIELDS, Problems(), IDS)
    assert node is not None
    rows = _rows(node)
    assert [r["name"] for r in rows] == [f"Name {i}" for i in range(1, 6)]
    assert [(r.place.line, r.row) for r in rows] == [(i, i) for i in range(2, 7)]
    assert isinstance(rows[0].place, CellPlace) and str(rows[0].value_place("kind")).endswith(":2: column 'kind'")


def test_a_quoted_cell_over_two_lines_keeps_the_rows_and_lines_apart(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text('id,name,kind\na,"Two\nlines",x\nb,One,y\n', encoding="utf-8")
    node = load_sheet(path, {"name": {"type": "str"}, "kind": {"type": "str"}}, Problems())
    assert node is not None
    rows = _rows(node)
    assert rows[0]["name"] == "Two\nlines"
    assert [(r.row, r.place.line) for r in rows] == [(2, 2), (3, 4)]


def test_a_wrong_header_row_still_says_every_unnamed_column_once_and_makes_no_card(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("id,name\na,One,x\n\nb,Two,y\n", encoding="utf-8")
    problems = Problems()
    assert load_sheet(path, {"name": {"type": "str"}}, problems) is None
    messages = [p.message for p in problems.items]
    assert len(messages) == 1 and "column C (3) has no header, but every card has a value in it" in messages[0]
