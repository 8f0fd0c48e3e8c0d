"""Card databases: read `cards/<game>/` and check it against its own declared schema.

This is the one module of the rules core that reads files. Everything is collected as
problems with places, so a designer sees every mistake at once. A game with rules adds its
own checks by registering them here (register_game_checks, done by rules/games/__init__.py).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from casebook.rules.problems import DataError, Place, Problems
from casebook.rules.yamlsource import PARSE_CACHE, Node, PackedNode, Seq, place_of, plain

if TYPE_CHECKING:
    from casebook.rules.sheetsource import SheetRow


def shipped_folder(package: str) -> Path:
    """The folder of a data package that ships inside casebook (the games, the layouts).

    Found where the import system finds the package (its spec, without importing it or
    importlib.resources), so an installed wheel, an editable install and the phone package
    (whose folders are mapped in by main.py) all read the same files.
    """
    spec = find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    # a package of another kind (in a zip): as importlib.resources sees it
    from importlib.resources import files

    return Path(str(files(package)))


CARDS_DIR = shipped_folder("casebook.cards")

SHEET_SUFFIXES = (".csv", ".xlsx")  # card files read as spreadsheets (rules/sheetsource.py, imported for them alone)


def _is_row(data: object) -> TypeGuard[SheetRow]:
    """Whether `data` is a spreadsheet's row (rules/sheetsource.py SheetRow): never, while no sheet was read."""
    sheetsource = sys.modules.get("casebook.rules.sheetsource")
    return sheetsource is not None and isinstance(data, sheetsource.SheetRow)


SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
FIELD_TYPES = {"str", "text", "int", "bool", "enum", "suit", "mark", "symbol", "ref", "list", "map"}
SPEC_KEYS = {"type", "required", "nullable", "values", "words", "min", "max", "to", "item", "length", "fields"}
CARD_KEYS = {"id", "copies", "designed", "sets", "asks"}  # asks: questions players ask that the card answers (rules lookup)
DEFAULT_COLOUR = "#000000"  # a suit's colour (and ink) when game.yaml gives none
DEFAULT_SIZE = "poker"  # a component's card size when game.yaml gives none (layouts/sizes.yaml)


@dataclass(frozen=True)
class Suit:
    """One suit of a game: its names, the symbol drawn for it and its colour."""
    id: str
    name: str
    plural: str
    symbol: str  # a shape in layouts/symbols.yaml; "" if the game draws none for this suit
    colour: str
    ink: str
    place: Place

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("id", "name", "plural", "symbol", "colour", "ink")}


@dataclass(frozen=True)
class Mark:
    """A card type shown by a symbol alone (the Decktet's personality, location, event)."""

    id: str
    name: str
    plural: str
    symbol: str  # "" if game.yaml names none (a layout that draws it is then refused)
    place: Place

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("id", "name", "plural", "symbol")}


@dataclass(slots=True)  # a deck may hold thousands
class Card:
    """One card design; `copies` physical cards are printed from it."""

    id: str
    component: str
    data: dict[str, Any]
    copies: int
    designed: bool
    place: Place
    sets: tuple[str, ...] = ()  # the card sets it belongs to (its component's when empty; none: every set)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def field_place(self, key: str) -> Place:
        return place_of(self.data, key, self.place)

    def label(self, number: int, names: tuple[str, ...] = ()) -> str:
        """How a message names this card (`number`: its place in its component's list, from 1); see card_label."""
        return card_label(self.id, self.data, self.component, number, names)


NAME_FIELDS = ("name", "title")  # the fields a designer knows a card by, when it has no id of its own


def card_label(cid: str, data: Any, component: str, number: int, names: tuple[str, ...] = ()) -> str:
    """A card as a message names it: `card 'lamp'` by a written id; else by what the designer wrote and where.

    `card 'Phoenix Ash' (row 6)` from a spreadsheet (`card in row 6` without a value to name it by),
    `card 'Phoenix Ash' (number 3 in 'deck')` or `card 3 of 'deck'` from a YAML list: a default id
    (`deck_6`) is one the designer never wrote. `names`: the fields it may be named by
    (Component.name_fields), else name and title; the first filled one-line value names it.
    """
    if "id" in data:
        return f"card '{cid}'"
    if _is_row(data) and len(names) > 1:  # a sheet's first text column, as the designer sees it
        names = tuple(sorted(names, key=lambda key: (key not in NAME_FIELDS, data.column_number(key))))
    values = (data.get(key) for key in names or NAME_FIELDS)
    name = next((v.strip() for v in values if isinstance(v, str) and v.strip() and "\n" not in v.strip()), "")
    if len(name) > 40:
        name = name[:39] + "…"
    if _is_row(data):
        return f"card '{name}' (row {data.row})" if name else f"card in row {data.row}"
    return f"card '{name}' (number {number} in '{component}')" if name else f"card {number} of '{component}'"


@dataclass
class Component:
    """One kind of card of a game (a deck, a case file): its layouts, its fields and its cards."""
    id: str
    name: str
    code: str
    count: int  # the physical cards game.yaml says it prints, checked; 0 when it does not say
    size: str
    face: str
    back: str
    fields: dict[str, Any]
    cards: list[Card]
    place: Place
    places: dict[str, Place] = field(default_factory=dict)  # of each key's value
    loaded: bool = True  # False when its card file could not be read: later checks skip it
    sets: tuple[str, ...] = ()  # the card sets it belongs to; empty: every set

    @property
    def printed(self) -> int:
        return sum(card.copies for card in self.cards)

    def field_place(self, key: str) -> Place:
        return self.places.get(key, self.place)

    @cached_property
    def name_fields(self) -> tuple[str, ...]:
        """The fields a message may name a card by: its name or title, and its one-line text fields (`str`)."""
        texts = [name for name, spec in self.fields.items() if isinstance(spec, dict) and spec.get("type") == "str"]
        return (*(name for name in NAME_FIELDS if name in self.fields), *(name for name in texts if name not in NAME_FIELDS))

    @cached_property
    def suit_field(self) -> str:
        """The field a layout's `suit` reads: `suit`, else the first field of type suit (`element: {type: suit}`)."""
        if "suit" in self.fields:
            return "suit"
        return next((name for name, spec in self.fields.items() if isinstance(spec, dict) and spec.get("type") == "suit"),
                    "suit")


@dataclass(frozen=True)
class CardSet:
    """A set of cards players may choose to print and play (base, advanced, ...)."""

    id: str
    name: str
    default: bool
    count: int  # physical cards the set prints across its components, copies counted (the check proves it)
    place: Place


def in_sets(sets: tuple[str, ...], chosen: list[str] | tuple[str, ...] | set[str]) -> bool:
    """Whether a card or component of `sets` is printed for the chosen sets (no sets: always)."""
    return not sets or bool(set(sets) & set(chosen))


@dataclass(frozen=True)
class Sheet:
    """A sheet a game prints that is not a card (a player aid, a board), drawn by its layout."""
    id: str
    name: str
    layout: str
    place: Place


@dataclass(frozen=True)
class RuleEntry:
    """One section of a game's rules, as the rules search finds it."""
    id: str
    section: str
    title: str
    text: str
    keywords: tuple[str, ...]
    place: Place
    asks: tuple[str, ...] = ()  # questions players ask that this entry answers, in their words


@dataclass(frozen=True)
class Ruling:
    """One FAQ ruling: a question, its answer and the rules it refers to."""
    id: str
    question: str
    ruling: str
    refs: tuple[str, ...]
    place: Place
    keywords: tuple[str, ...] = ()  # a player's words for the situation, as on a rule
    asks: tuple[str, ...] = ()  # as on a rule


@dataclass
class GameDatabase:
    """A game's whole card database, checked."""

    id: str
    title: str
    short_title: str
    players: tuple[int, int] | None  # None: a print-only game that does not say (its layouts see `game.players` empty)
    rules_version: int | None  # None: a print-only game without one; written into game logs, so needed by one with rules
    credit: str
    suits: dict[str, Suit]
    components: dict[str, Component]
    sheets: list[Sheet]
    rules: list[RuleEntry]
    faq: list[Ruling]
    folder: Path
    place: Place
    extra: dict[str, Any] = field(default_factory=dict)
    marks: dict[str, Mark] = field(default_factory=dict)
    records: dict[str, Component] = field(default_factory=dict)  # data the cards refer to, not printed
    sets: dict[str, CardSet] = field(default_factory=dict)  # the card sets, if the game has any
    printing: dict[str, bool] = field(default_factory=dict)  # game.yaml `print:` switches (backs, calibration, labels)
    # game.yaml `table_words:` what players at this game's table say -> the rules' words ("round" -> "mini-game"
    # in P.I., where a round is one of three mini-games); the rules lookup reads a question through it
    table_words: dict[str, str] = field(default_factory=dict)

    @property
    def player_counts(self) -> tuple[int, int]:
        """The fewest and most players; asked only by a game with rules, which the check makes give them."""
        if self.players is None:
            raise ValueError(f"game '{self.id}' does not say how many play it: players: {{min, max}} in game.yaml")
        return self.players

    @property
    def default_sets(self) -> tuple[str, ...]:
        """The sets printed and played when none are chosen: those marked default (all if none is)."""
        return tuple(s.id for s in self.sets.values() if s.default) or tuple(self.sets)

    def set_cards(self, set_id: str) -> list[Card]:
        """The cards that belong to a set (directly or through their component)."""
        return [c for comp in self.components.values() for c in comp.cards
                if set_id in (c.sets or comp.sets)]

    def set_printed(self, set_id: str) -> int:
        """How many physical cards a set prints, copies counted."""
        return sum(c.copies for c in self.set_cards(set_id))

    def all_records(self) -> Iterator[Card]:
        for record_set in self.records.values():
            yield from record_set.cards

    def record(self, record_id: str) -> Card:
        for record in self.all_records():
            if record.id == record_id:
                return record
        raise KeyError(record_id)

    def all_cards(self) -> Iterator[Card]:
        for component in self.components.values():
            yield from component.cards

    def card(self, card_id: str) -> Card:
        for card in self.all_cards():
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def has_id(self, some_id: str) -> bool:
        return any(some_id == c.id for c in self.all_cards()) or some_id in self.components \
            or any(some_id == c.id for c in self.all_records()) or some_id in self.records \
            or any(some_id == r.id for r in self.rules) or any(some_id == f.id for f in self.faq)


# --- reading ---------------------------------------------------------------------------


def game_folders(cards_dir: Path = CARDS_DIR) -> list[str]:
    """The game ids that have a folder with a game.yaml."""
    if not cards_dir.is_dir():
        return []
    return sorted(p.name for p in cards_dir.iterdir() if (p / "game.yaml").is_file())


GameCheck = Callable[["GameDatabase", Problems], None]  # adds what is wrong to the problems, never raises

# The games with rules (rules/games/<id>.py) and their own checks, by game id: filled by the games'
# registry (rules/games/__init__.py) as it is imported, so that this loader never imports the games.
GAME_CHECKS: dict[str, GameCheck] = {}


def register_game_checks(game_id: str, check: GameCheck) -> None:
    """Have read_database run a game's own checks, and ask that game's game.yaml for players and rules_version."""
    GAME_CHECKS[game_id] = check


def load_database(game_id: str, cards_dir: Path = CARDS_DIR) -> GameDatabase:
    """Load and check a game's database; raise DataError with every problem found."""
    problems = Problems()
    db = read_database(game_id, cards_dir, problems)
    if problems or db is None:
        raise DataError(problems)
    return db


def read_database(game_id: str, cards_dir: Path, problems: Problems) -> GameDatabase | None:
    """Load a game's database, adding every problem found; None if it cannot be used at all."""
    folder = cards_dir / game_id
    game_path = folder / "game.yaml"
    if not game_path.is_file():
        known = ", ".join(game_folders(cards_dir)) or "none"
        problems.add(Place(str(folder)), f"no game '{game_id}': {game_path} does not exist",
                     f"one of: {known}")
        return None
    raw = PARSE_CACHE.load(game_path, problems)
    if raw is None:
        return None
    if not isinstance(raw, Node):
        problems.add(place_of(raw, fallback=Place(str(game_path))), "game.yaml must be a mapping")
        return None
    r = _Reader(raw, problems)
    gid = r.text("id")  # the folder's name when not given
    if gid and gid != game_id:
        problems.add(raw.value_place("id"), f"id '{gid}' does not match the folder name '{game_id}'",
                     f"id: {game_id}")
    check = GAME_CHECKS.get(game_id)  # the game's own checks, if it has rules (and they registered)
    suits = _read_suits(raw, problems)
    db = GameDatabase(
        id=game_id,
        title=r.text("title", required=True),
        short_title=r.text("short_title") or r.text("title"),
        players=_read_players(raw, problems, f"rules/games/{game_id}.py" if check else ""),
        rules_version=r.int("rules_version") if "rules_version" in raw else None,
        credit=r.text("credit"),
        suits=suits,
        components={},
        sheets=[],
        rules=[],
        faq=[],
        folder=folder,
        place=raw.place,
        extra={k: v for k, v in raw.items() if k not in KNOWN_GAME_KEYS},
        marks=_read_marks(raw, problems),
        sets=_read_sets(raw, problems),
        printing=_read_printing(raw, problems),
        table_words=_read_table_words(raw, problems),
    )
    if check is not None and db.rules_version is None:
        problems.add(raw.place, f"missing 'rules_version': this game has rules (rules/games/{game_id}.py), "
                     "which write it into every game log", "rules_version: 1")
    for key in raw:
        if key not in KNOWN_GAME_KEYS:
            problems.add(raw.key_place(key), f"unknown key '{key}' in game.yaml",
                         "one of: " + ", ".join(sorted(KNOWN_GAME_KEYS)))
    for comp in _seq(raw, "components", problems, required=True):
        component = _read_component(comp, db, problems)
        if component is None:
            continue
        if component.id in db.components:
            problems.add(comp.value_place("id"), f"duplicate component id '{component.id}'")
            continue
        db.components[component.id] = component
    for sheet in _seq(raw, "sheets", problems):
        sr = _Reader(sheet, problems)
        sid = sr.slug("id")
        db.sheets.append(Sheet(sid, sr.text("name") or _id_as_name(sid), sr.text("layout", required=True), sheet.place))
    for node in _seq(raw, "records", problems):
        record_set = _read_component(node, db, problems, printed=False)
        if record_set is None:
            continue
        if record_set.id in db.components or record_set.id in db.records:
            problems.add(node.value_place("id"), f"duplicate component or record id '{record_set.id}'")
            continue
        db.records[record_set.id] = record_set
    if "board" in raw:
        db.extra["board"] = _read_board(raw, db, problems)
    if db.records:  # layouts see records as game.records.<id> (a list) and game.record[<id>]
        db.extra["records"] = {rid: [_plain_card(c) for c in rs.cards] for rid, rs in db.records.items()}
        db.extra["record"] = {c.id: _plain_card(c) for c in db.all_records()}
    if "rules" in raw:
        _read_rules(folder / str(raw["rules"]), db, problems)
    _cross_check(db, problems)
    if check is not None and not problems:
        check(db, problems)
    return db


KNOWN_GAME_KEYS = {"id", "title", "short_title", "players", "rules_version", "rulebook", "credit",
                   "suits", "marks", "components", "records", "board", "sheets", "rules", "sets", "print",
                   "table_words"}
BOARD_KEYS = {"width", "height", "columns", "rows", "districts"}
LENGTH = re.compile(r"^\d+(\.\d+)?(mm|cm|in|pt)$")


def _plain_card(card: Card) -> dict[str, Any]:
    """A card or record as plain data (its id and fields)."""
    return {"id": card.id, "set": card.component, **{k: plain(v) for k, v in card.data.items() if k not in CARD_KEYS}}


TABLE_WORD = re.compile(r"^[a-z0-9]+(?:[ '-][a-z0-9]+)*$")


def _read_table_words(raw: Node, problems: Problems) -> dict[str, str]:
    """game.yaml `table_words: {what players say: what the rules say}`, both in lower-case words."""
    node = raw.get("table_words")
    if node is None:
        return {}
    fix = 'table_words: {"the glass": loupe}  (lower-case words on both sides)'
    if not isinstance(node, Node):
        problems.add(raw.value_place("table_words"), "table_words must be a mapping of what players say "
                     "to what the rules say", fix)
        return {}
    words: dict[str, str] = {}
    for said, meant in node.items():
        if not isinstance(said, str) or not TABLE_WORD.match(said) or \
                not isinstance(meant, str) or not TABLE_WORD.match(meant):
            problems.add(node.value_place(said) if isinstance(said, str) else node.place,
                         f"table word '{said}: {meant}' must be lower-case words on both sides", fix)
        elif said == meant:
            problems.add(node.value_place(said), f"table word '{said}' means itself", "remove it from table_words")
        else:
            words[said] = meant
    return words


def _read_players(raw: Node, problems: Problems, rules_module: str) -> tuple[int, int] | None:
    """game.yaml `players: {min, max}`: needed only by a game with rules (rules/games/): its logs and the companion."""
    players = raw.get("players")
    if isinstance(players, Node):
        pr = _Reader(players, problems)
        return pr.int("min", required=True), pr.int("max", required=True)
    if "players" in raw:
        problems.add(raw.value_place("players"), "players must be given as a mapping", "players: {min: 2, max: 2}")
    elif rules_module:
        problems.add(raw.place, f"missing 'players': this game has rules ({rules_module}), which need them",
                     "players: {min: 2, max: 2}")
    return None


def _read_board(raw: Node, db: GameDatabase, problems: Problems) -> dict[str, Any]:
    """A board of `columns` x `rows` grid cells (optionally `width` x `height`); `districts` names the record
    set whose records each hold `cell: [column, row]` (or `cells: [[column, row], ...]`), every cell on the
    grid and in one record only."""
    node = raw["board"]
    if not isinstance(node, Node):
        problems.add(raw.value_place("board"), "'board' must be a mapping",
                     "board: {columns: 5, rows: 3, districts: <record set id>}")
        return {}
    for key in node:
        if key not in BOARD_KEYS:
            problems.add(node.key_place(key), f"unknown key '{key}' in board", "one of: " + ", ".join(sorted(BOARD_KEYS)))
    r = _Reader(node, problems)
    for key in ("width", "height"):
        value = r.text(key)
        if value and not LENGTH.match(value):
            problems.add(node.value_place(key), f"board {key} '{value}' is not a length", f"{key}: 384mm")
    columns, rows = r.int("columns", required=True), r.int("rows", required=True)
    set_id = r.text("districts", required=True)
    record_set = db.records.get(set_id)
    if set_id and record_set is None:
        problems.add(node.value_place("districts"), f"board districts: no record set '{set_id}'",
                     "one of: " + (", ".join(db.records) or "declare 'records:' first"))
    elif record_set is not None:
        owner: dict[tuple[int, int], str] = {}
        for card in record_set.cards:
            key = "cell" if "cell" in card.data else "cells"
            cells = [card.get("cell")] if key == "cell" else card.get("cells")
            if not isinstance(cells, list) or not cells:
                problems.add(card.place, f"'{card.id}' has no place on the board", "cell: [column, row]")
                continue
            for cell in cells:
                if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
                    continue  # the field check reports it
                col, row = cell
                if not (0 <= col < columns and 0 <= row < rows):
                    problems.add(card.field_place(key), f"'{card.id}': cell [{col}, {row}] is off the board",
                                 f"columns 0-{columns - 1}, rows 0-{rows - 1}")
                elif (col, row) in owner:
                    problems.add(card.field_place(key), f"'{card.id}': cell [{col}, {row}] is already "
                                 f"taken by '{owner[(col, row)]}'", "one district to a cell")
                else:
                    owner[(col, row)] = card.id
    return {k: plain(v) for k, v in node.items() if k in BOARD_KEYS}


class _Reader:
    """Typed access to a mapping's keys that reports a problem instead of raising."""

    def __init__(self, node: Node, problems: Problems):
        self.node, self.problems = node, problems

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.node:
            if required:
                self.problems.add(self.node.place, f"missing '{key}'", f"{key}: ...")
            return None
        return self.node[key]

    def text(self, key: str, required: bool = False) -> str:
        value = self._get(key, required)
        if value is None:
            return ""
        value = _text_of_number(value)
        if not isinstance(value, str):
            self.problems.add(self.node.value_place(key), f"'{key}' must be text, not {_kind(value)}"
                              + _QUOTE_IT * isinstance(value, bool))
            return ""
        return value

    def slug(self, key: str) -> str:
        value = self.text(key, required=True)
        if value and not SLUG.match(value):
            self.problems.add(self.node.value_place(key), f"'{value}' is not a valid id",
                              "a snake_case slug: lower-case letters, digits, underscores")
        return value

    def int(self, key: str, required: bool = False) -> int:
        value = self._get(key, required)
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.add(self.node.value_place(key), f"'{key}' must be a whole number, not {_kind(value)}")
            return 0
        return value


_QUOTE_IT = ": write it in quotes (\"yes\") if you mean the word"  # YAML reads yes, no, on, off, true as yes/no


def _text_of_number(value: Any) -> Any:
    """An unquoted number where text is asked for, as its text (`rank: 7` is "7", 7.5 is "7.5"); else the value."""
    return value if isinstance(value, bool) or not isinstance(value, int | float) else str(value)


def _kind(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"a yes/no value ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"text ('{value}')" if len(value) < 40 else "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _seq(node: Node, key: str, problems: Problems, required: bool = False) -> list[Node]:
    """The mappings of a list under `key`; non-mappings are reported and skipped."""
    return [item for _, item in _numbered(node, key, problems, required)]


def _numbered(node: Node, key: str, problems: Problems, required: bool = False) -> list[tuple[int, Node]]:
    """The mappings of a list under `key`, each with its 1-based position; non-mappings are reported and skipped."""
    if key not in node:
        if required:
            problems.add(node.place, f"missing '{key}'", f"{key}: [...]")
        return []
    value = node[key]
    if not isinstance(value, Seq):
        problems.add(node.value_place(key), f"'{key}' must be a list, not {_kind(value)}", f"{key}:\\n  - ...")
        return []
    out = []
    for i, item in enumerate(value):
        if isinstance(item, Node):
            out.append((i + 1, item))
        else:
            problems.add(value.item_place(i), f"each entry of '{key}' must be a mapping, not {_kind(item)}")
    return out


def _read_suits(raw: Node, problems: Problems) -> dict[str, Suit]:
    suits: dict[str, Suit] = {}
    for node in _seq(raw, "suits", problems):
        r = _Reader(node, problems)
        sid = r.slug("id")
        given = {key: r.text(key) for key in ("colour", "ink")}
        for key, value in given.items():
            if value and not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
                problems.add(node.value_place(key), f"'{value}' is not a colour", "#rrggbb, e.g. \"#0072B2\"")
        colour = given["colour"] or DEFAULT_COLOUR
        ink = given["ink"] or colour
        if sid in suits:
            problems.add(node.value_place("id"), f"duplicate suit id '{sid}'")
        name = r.text("name") or _id_as_name(sid)
        suits[sid] = Suit(sid, name, r.text("plural") or name, r.text("symbol"), colour, ink, node.place)
    return suits


def _id_as_name(some_id: str) -> str:
    """A name for what game.yaml names only by id: `red_moon` is `Red moon`."""
    return some_id.replace("_", " ").capitalize()


PRINT_SWITCHES = ("backs", "calibration", "labels")  # parts of a PDF a game may leave out (casebook build --no-...)


def _read_printing(raw: Node, problems: Problems) -> dict[str, bool]:
    """game.yaml `print: {backs: false, calibration: false, labels: false}`: what the PDFs leave out."""
    node = raw.get("print")
    if node is None:
        return {}
    if not isinstance(node, Node):
        problems.add(raw.value_place("print"), "print must be a mapping", "print: {backs: false}")
        return {}
    switches = {}
    for key, value in node.items():
        if key not in PRINT_SWITCHES:
            problems.add(node.key_place(key), f"unknown key '{key}' in print", "one of: " + ", ".join(PRINT_SWITCHES))
        elif not isinstance(value, bool):
            problems.add(node.value_place(key), f"print: {key} must be true or false, not {value!r}",
                         f"{key}: false (leave it out) or true (the default)")
        else:
            switches[key] = value
    return switches


def _read_sets(raw: Node, problems: Problems) -> dict[str, CardSet]:
    """The game's card sets: `sets: [{id, name, default: true, count: N}, ...]`."""
    sets: dict[str, CardSet] = {}
    for node in _seq(raw, "sets", problems):
        for key in node:
            if key not in ("id", "name", "default", "count"):
                problems.add(node.key_place(key), f"unknown key '{key}' in a card set", "one of: count, default, id, name")
        r = _Reader(node, problems)
        sid = r.slug("id")
        default = node.get("default", False)
        if not isinstance(default, bool):
            problems.add(node.value_place("default"), f"'default' must be true or false, not {_kind(default)}")
            default = False
        if sid in sets:
            problems.add(node.value_place("id"), f"duplicate card set id '{sid}'")
        sets[sid] = CardSet(sid, r.text("name", required=True), default, r.int("count", required=True), node.place)
    return sets


def _set_list(node: Node, db: GameDatabase, problems: Problems, who: str) -> tuple[str, ...]:
    """The `sets:` of a card or component: ids of sets declared in game.yaml."""
    if "sets" not in node:
        return ()
    value = node["sets"]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        problems.add(node.value_place("sets"), f"{who}: 'sets' must be a list of card set ids, not {_kind(value)}",
                     "sets: [" + ", ".join(db.sets or {"base": None}) + "]")
        return ()
    for i, set_id in enumerate(value):
        if set_id not in db.sets:
            problems.add(place_of(value, i, node.value_place("sets")), f"{who}: unknown card set '{set_id}'",
                         "one of: " + ", ".join(db.sets) if db.sets else "declare 'sets:' in game.yaml")
    return tuple(value)


def _read_marks(raw: Node, problems: Problems) -> dict[str, Mark]:
    marks: dict[str, Mark] = {}
    for node in _seq(raw, "marks", problems):
        r = _Reader(node, problems)
        mid = r.slug("id")
        if mid in marks:
            problems.add(node.value_place("id"), f"duplicate mark id '{mid}'")
        name = r.text("name") or _id_as_name(mid)
        marks[mid] = Mark(mid, name, r.text("plural") or name, r.text("symbol"), node.place)
    return marks


def _read_component(node: Node, db: GameDatabase, problems: Problems, printed: bool = True) -> Component | None:
    """A component (printed cards) or, with printed=False, a record set (data the cards refer to)."""
    r = _Reader(node, problems)
    known = {"id", "name", "code", "file", "cards", "count", "size", "face", "back", "fields", "sets"}
    if not printed:
        known = {"id", "name", "file", "cards", "fields"}
    for key in node:
        if key not in known:
            problems.add(node.key_place(key), f"unknown key '{key}' in a {'component' if printed else 'record set'}",
                         "one of: " + ", ".join(sorted(known)))
    cid = r.slug("id")
    fields = node.get("fields")
    if fields is None:
        fields = Node()
        fields.place, fields.key_places, fields.value_places = node.place, {}, {}
    elif not isinstance(fields, Node):
        problems.add(node.value_place("fields"), "'fields' must be a mapping of field name to spec")
        fields = Node()
        fields.place, fields.key_places, fields.value_places = node.place, {}, {}
    _check_specs(fields, problems)
    component = Component(
        id=cid, name=r.text("name") or _id_as_name(cid), code=r.text("code") or cid.upper(),
        count=r.int("count"), size=r.text("size") or (DEFAULT_SIZE if printed else ""),
        face=r.text("face", required=printed), back=r.text("back", required=printed and db.printing.get("backs", True)),
        fields=fields, cards=[], place=node.place, places={k: node.value_place(k) for k in node},
        sets=_set_list(node, db, problems, f"component '{cid}'"),
    )
    if "file" in node and "cards" in node:
        problems.add(node.key_place("cards"), "give the cards either in 'file' or inline in 'cards', not both")
        return component
    if "file" in node:
        path = db.folder / r.text("file")
        if path.suffix.lower() in SHEET_SUFFIXES:  # a spreadsheet saved as CSV, one card a row
            from casebook.rules.sheetsource import load_sheet

            data = load_sheet(path, fields, problems, {"suit": db.suits, "mark": db.marks})
        else:
            data = PARSE_CACHE.load(path, problems, packed="cards")
        if data is None:
            component.loaded = False
            return component
        if not isinstance(data, Node) or "cards" not in data:
            problems.add(place_of(data, fallback=Place(str(path))), "a card file must hold a 'cards:' list",
                         "cards:\n  - id: ...")
            component.loaded = False
            return component
        holder = data
    elif "cards" in node:
        holder = node
    else:
        problems.add(node.place, f"component '{cid}' has no cards", "file: <name>.yaml, or cards: [...]")
        return component
    for number, card_node in _numbered(holder, "cards", problems, required=True):
        card = _read_card(card_node, card_node.row if _is_row(card_node) else number, component, db, problems)
        if card is not None:
            component.cards.append(card)
    return component


def _check_specs(fields: Node, problems: Problems) -> None:
    """Check a component's field schema itself (the designer may write it wrong too)."""
    for name, spec in fields.items():
        if name in CARD_KEYS:
            problems.add(fields.key_place(name), f"'{name}' is built in and cannot be redefined")
            continue
        _check_spec(spec, fields.value_place(name), name, problems)


def _check_spec(spec: Any, place: Place, name: str, problems: Problems) -> None:
    if not isinstance(spec, Node):
        problems.add(place, f"the spec of field '{name}' must be a mapping", "{type: str, required: true}")
        return
    for key in spec:
        if key not in SPEC_KEYS:
            problems.add(spec.key_place(key), f"unknown key '{key}' in the spec of '{name}'",
                         "one of: " + ", ".join(sorted(SPEC_KEYS)))
    ftype = spec.get("type")
    if ftype not in FIELD_TYPES:
        problems.add(spec.value_place("type") if "type" in spec else spec.place,
                     f"field '{name}' has unknown type '{ftype}'", "one of: " + ", ".join(sorted(FIELD_TYPES)))
        return
    for key in ("min", "max", "length"):
        if key in spec and (isinstance(spec[key], bool) or not isinstance(spec[key], int | float)
                            or key == "length" and not isinstance(spec[key], int)):
            problems.add(spec.value_place(key), f"'{key}' of field '{name}' must be a number, not {_kind(spec[key])}")
            del spec[key]
    if ftype == "enum" and not isinstance(spec.get("values"), list):
        problems.add(spec.place, f"enum field '{name}' needs 'values'", "values: [a, b, c]")
    if "words" in spec:
        _check_words(spec, name, ftype, problems)
    to = spec.get("to")
    if ftype == "ref" and not (isinstance(to, str) or isinstance(to, list) and to and all(isinstance(t, str) for t in to)):
        problems.add(spec.place, f"ref field '{name}' needs 'to' (a component or record set id, or a list of them)",
                     "to: <component id>, or to: [<id>, <id>]")
    if ftype == "list":
        if "item" not in spec:
            problems.add(spec.place, f"list field '{name}' needs 'item'", "item: {type: ...}")
        else:
            _check_spec(spec["item"], spec.value_place("item"), f"{name}[]", problems)
    if ftype == "map" and "fields" in spec:
        if isinstance(spec["fields"], Node):
            _check_specs(spec["fields"], problems)
        else:
            problems.add(spec.value_place("fields"), f"'fields' of '{name}' must be a mapping")


def _check_words(spec: Node, name: str, ftype: Any, problems: Problems) -> None:
    """An enum's optional `words`: what a player reads for a value (the rules lookup shows "Restriction: can't be
    played at the loupe", not the value's id `cant_loupe`). Every key one of its values, every word a text."""
    words, values = spec["words"], spec.get("values")
    if ftype != "enum":
        problems.add(spec.key_place("words"), f"'words' of field '{name}' is for an enum field only, not '{ftype}'",
                     "remove 'words', or make the field {type: enum, values: [...]}")
        return
    if not isinstance(words, Node) or not all(isinstance(w, str) and w.strip() for w in words.values()):
        problems.add(spec.value_place("words"), f"'words' of field '{name}' must map each value to its words",
                     'words: {must_loupe: "must be played at the loupe"}')
        return
    for key in words:
        if isinstance(values, list) and key not in values:
            problems.add(words.key_place(key), f"'words' of field '{name}' names '{key}', which is not one of its values",
                         "one of: " + ", ".join(str(v) for v in values))


def _read_card(node: Node, number: int, component: Component, db: GameDatabase, problems: Problems) -> Card | None:
    """A component's card `number` (its place in the list from 1, or its sheet's row); without an id `<component>_<number>`."""
    r = _Reader(node, problems)
    cid = r.slug("id") if "id" in node else f"{component.id}_{number}"
    who = card_label(cid, node, component.id, number, component.name_fields)
    copies = _copies(node, who, problems)
    designed = node.get("designed", False)
    if not isinstance(designed, bool):
        problems.add(node.value_place("designed"), f"'designed' must be true or false, not {_kind(designed)}")
        designed = False
    if "asks" in node:
        _asks(node, problems)
    fields = component.fields
    for key in node:
        if key not in CARD_KEYS and key not in fields:
            problems.add(node.key_place(key), f"unknown field '{key}' on {who}" + f" of {component.id}" * ("id" in node),
                         "one of: " + ", ".join(sorted(set(fields) | CARD_KEYS)))
    _check_fields(node, fields, db, problems, who)
    sets = _set_list(node, db, problems, who)
    # checked: kept packed (plain text, places as numbers), so a deck of thousands stays small
    data = node if isinstance(node, PackedNode) else PackedNode(node)  # a spreadsheet row comes packed
    return Card(data["id"] if data.get("id") == cid else str(cid), component.id, data, max(copies, 1), designed,
                node.place, sets)


def _copies(node: Node, who: str, problems: Problems) -> int:
    """How many of a card to print (1 if not said); a value that is not a whole number from 1 is said with the card."""
    value = node.get("copies", 1)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    what = f"is {value}" if isinstance(value, int) and not isinstance(value, bool) else f"must be a whole number, not {_kind(value)}"
    problems.add(node.value_place("copies"), f"{who}: 'copies' {what}", "copies: a whole number, 1 or more (empty: 1)")
    return 1


def _check_fields(node: Node, fields: dict[str, Any], db: GameDatabase, problems: Problems, who: str) -> None:
    for name, spec in fields.items():
        if not isinstance(spec, dict):
            continue
        if name not in node:
            if spec.get("required"):
                problems.add(node.place, f"{who} is missing the field '{name}'", _describe(spec, db, name))
            continue
        value = _as_field_type(node[name], spec)
        if value is not node[name]:
            node[name] = value
        _check_value(value, spec, (node, name), db, problems, f"{who}: '{name}'", name)


def _as_field_type(value: Any, spec: dict[str, Any]) -> Any:
    """A number given unquoted to a `str` or `text` field (or an `enum` whose values hold it as text) as its text."""
    ftype = spec.get("type")
    text = _text_of_number(value)
    values = spec.get("values") or []
    if ftype in ("str", "text") or ftype == "enum" and value not in values and text in [str(v) for v in values]:
        return text
    return value


def _check_value(value: Any, spec: dict[str, Any], where: Place | tuple[Node, str], db: GameDatabase,
                 problems: Problems, what: str, name: str) -> None:
    """Check a field's value against its spec. `where`: its place, or (its mapping, its key) to find the place in
    only if a problem is said or a list's items need it (a deck's every field is checked: most have none)."""

    def place() -> Place:
        return where if isinstance(where, Place) else where[0].value_place(where[1])

    ftype = spec.get("type")
    if value is None:
        if not spec.get("nullable"):
            problems.add(place(), f"{what} is empty", _describe(spec, db, name))
        return
    bad = False
    if ftype in ("str", "text", "symbol"):
        bad = not isinstance(value, str)
        if not bad and ftype in ("str", "symbol") and "\n" in value.strip():
            problems.add(place(), f"{what} must be one line")
    elif ftype == "int":
        bad = isinstance(value, bool) or not isinstance(value, int)
        if not bad and ("min" in spec and value < spec["min"] or "max" in spec and value > spec["max"]):
            problems.add(place(), f"{what} is {value}, out of range",
                         f"a whole number from {spec.get('min', '-')} to {spec.get('max', '-')}")
    elif ftype == "bool":
        bad = not isinstance(value, bool)
    elif ftype == "enum":
        values = spec.get("values") or []
        if value not in values or isinstance(value, bool):
            problems.add(place(), f"{what} is {value!r}, not an allowed value" + _QUOTE_IT * isinstance(value, bool),
                         "one of: " + ", ".join(str(v) for v in values))
    elif ftype == "suit":
        if value not in db.suits:
            problems.add(place(), f"{what}: unknown suit '{value}'", "one of: " + ", ".join(db.suits))
    elif ftype == "mark":
        if value not in db.marks:
            problems.add(place(), f"{what}: unknown mark '{value}'",
                         "one of: " + ", ".join(db.marks) if db.marks else "declare 'marks:' in game.yaml")
    elif ftype == "ref":
        bad = not isinstance(value, str)
        # resolved in _cross_check, once every component is read
    elif ftype == "list":
        if not isinstance(value, list):
            bad = True
        else:
            if "length" in spec and len(value) != spec["length"]:
                problems.add(place(), f"{what} has {len(value)} entries", f"exactly {spec['length']}")
            item, at = spec.get("item") or {}, place()
            for i, entry in enumerate(value):
                if (converted := _as_field_type(entry, item)) is not entry:
                    value[i] = entry = converted
                _check_value(entry, item, place_of(value, i, at), db, problems, f"{what}[{i + 1}]", name)
    elif ftype == "map":
        if not isinstance(value, Node):
            bad = True
        elif isinstance(spec.get("fields"), dict):
            sub = spec["fields"]
            for key in value:
                if key not in sub:
                    problems.add(value.key_place(key), f"unknown key '{key}' in {what}",
                                 "one of: " + ", ".join(sub))
            _check_fields(value, sub, db, problems, what)
    if bad:
        problems.add(place(), f"{what} must be {_type_name(spec)}, not {_kind(value)}"
                     + _QUOTE_IT * (isinstance(value, bool) and ftype in ("str", "text")), _describe(spec, db, name))


def _type_name(spec: dict[str, Any]) -> str:
    return {"str": "text", "text": "text", "symbol": "a symbol name", "int": "a whole number",
            "bool": "true or false", "ref": "a card id", "list": "a list", "map": "a mapping"}.get(
        str(spec.get("type")), str(spec.get("type")))


def _describe(spec: dict[str, Any], db: GameDatabase, name: str) -> str:
    ftype = spec.get("type")
    if ftype == "suit":
        return f"{name}: one of " + ", ".join(db.suits)
    if ftype == "mark":
        return f"{name}: one of " + ", ".join(db.marks)
    if ftype == "enum":
        return f"{name}: one of " + ", ".join(str(v) for v in spec.get("values") or [])
    if ftype == "ref":
        return f"{name}: the id of a card in " + " or ".join(f"'{t}'" for t in _targets(spec))
    if ftype == "list":
        return f"{name}: a list" + (f" of {spec['length']}" if "length" in spec else "")
    return f"{name}: {_type_name(spec)}"


def _targets(spec: dict[str, Any]) -> list[str]:
    """The component or record set ids a ref field may point into."""
    to = spec.get("to")
    return [str(t) for t in to] if isinstance(to, list) else [str(to)]


_MAY_REFER = ("ref", "list", "map")  # the field types _iter_refs looks into


def _iter_refs(value: Any, spec: dict[str, Any], place: Place) -> Iterator[tuple[str, list[str], Place]]:
    ftype = spec.get("type")
    if ftype == "ref" and isinstance(value, str):
        yield value, _targets(spec), place
    elif ftype == "list" and isinstance(value, list):
        for i, entry in enumerate(value):
            yield from _iter_refs(entry, spec.get("item") or {}, place_of(value, i, place))
    elif ftype == "map" and isinstance(value, Node) and isinstance(spec.get("fields"), dict):
        for key, sub in spec["fields"].items():
            if key in value:
                yield from _iter_refs(value[key], sub, value.value_place(key))


def _cross_check(db: GameDatabase, problems: Problems) -> None:
    """Ids unique across the game, references resolve, counts match the component list."""
    seen: dict[str, Card] = {}
    for card in [*db.all_cards(), *db.all_records()]:
        first = seen.setdefault(card.id, card)
        if first is not card:
            problems.add(card.data.value_place("id") if isinstance(card.data, Node) else card.place,
                         f"duplicate card id '{card.id}'{_unwritten(card)} (first at {first.place}{_unwritten(first)})",
                         "ids unique in the game: give one of them another id")
    for component in [*db.components.values(), *db.records.values()]:
        if not component.loaded:
            continue
        if component.id in db.components and component.count and component.printed != component.count:
            problems.add(component.place,
                         f"component '{component.id}' prints {component.printed} cards but the count is {component.count}",
                         f"{component.count} cards (counting copies), or correct 'count'")
        # the fields that may hold a reference (_iter_refs finds none in any other): a deck of plain fields asks no
        # card for a place
        may_refer = [(name, spec) for name, spec in component.fields.items()
                     if isinstance(spec, dict) and spec.get("type") in _MAY_REFER]
        for card in component.cards:
            for name, spec in may_refer:
                if name not in card.data:
                    continue
                for ref, targets, place in _iter_refs(card.data[name], spec, card.field_place(name)):
                    comps = [db.components.get(t) or db.records.get(t) for t in targets]
                    if any(comp is not None and not comp.loaded for comp in comps):
                        continue
                    unknown = [t for t, comp in zip(targets, comps, strict=True) if comp is None]
                    if unknown:
                        problems.add(place, f"'{name}' refers to unknown component '{unknown[0]}'",
                                     "one of: " + ", ".join([*db.components, *db.records]))
                    elif not any(c.id == ref for comp in comps if comp for c in comp.cards):
                        where = " or ".join(targets)
                        problems.add(place, f"unknown card id '{ref}' in '{name}' (no such card in {where})",
                                     "one of: " + ", ".join(c.id for comp in comps if comp for c in comp.cards))
    for card_set in db.sets.values():
        printed = db.set_printed(card_set.id)
        if not printed:
            problems.add(card_set.place, f"card set '{card_set.id}' has no cards",
                         f"give its cards (or their component) 'sets: [{card_set.id}]', or drop the set")
        elif card_set.count and printed != card_set.count:
            problems.add(card_set.place, f"card set '{card_set.id}' prints {printed} cards but the count is "
                         f"{card_set.count}", f"count: {printed}, or correct the copies")
    for entry in db.faq:
        for ref in entry.refs:
            if not db.has_id(ref):
                problems.add(entry.place, f"FAQ '{entry.id}' refers to unknown id '{ref}'",
                             "a rule id, card id or component id of this game")


def _unwritten(card: Card) -> str:
    """What to say of an id the card does not write (`<component>_<n>`: its place in the list, or its sheet's row)."""
    if "id" in card.data:
        return ""
    return f", the id of a card without one (its component and {'row' if _is_row(card.data) else 'place in the list'})"


def _keywords(node: Node, problems: Problems) -> tuple[str, ...]:
    """A rule's or ruling's optional `keywords`: the words a player might type that its text lacks."""
    keywords = node.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str | int) for k in keywords):
        problems.add(node.value_place("keywords"), "keywords must be a list of words", "keywords: [deuce, trump]")
        return ()
    return tuple(str(k) for k in keywords)


MAX_ASKS = 12


def _asks(node: Node, problems: Problems) -> tuple[str, ...]:
    """A rule's or ruling's optional `asks`: questions players ask at the table that it answers."""
    asks = node.get("asks") or []
    if not isinstance(asks, list) or not all(isinstance(a, str) and a.strip() for a in asks):
        problems.add(node.value_place("asks"), "asks must be a list of questions (strings)",
                     'asks: ["how many cards do I draw"]')
        return ()
    if len(asks) > MAX_ASKS:
        problems.add(node.value_place("asks"), f"asks holds {len(asks)} questions; at most {MAX_ASKS}",
                     "keep the ones players really ask")
        return ()
    return tuple(asks)


def _read_rules(path: Path, db: GameDatabase, problems: Problems) -> None:
    data = PARSE_CACHE.load(path, problems)
    if data is None:
        return
    if not isinstance(data, Node):
        problems.add(place_of(data, fallback=Place(str(path))), "the rules file must be a mapping",
                     "rules: [...] and faq: [...]")
        return
    ids: dict[str, Place] = {}

    def unique(node: Node, rid: str) -> None:
        if rid in ids:
            problems.add(node.value_place("id"), f"duplicate rule id '{rid}' (first at {ids[rid]})")
        ids[rid] = node.value_place("id")

    for node in _seq(data, "rules", problems, required=True):
        r = _Reader(node, problems)
        rid = r.slug("id")
        unique(node, rid)
        db.rules.append(RuleEntry(rid, r.text("section", required=True), r.text("title", required=True),
                                  r.text("text", required=True), _keywords(node, problems), node.place,
                                  _asks(node, problems)))
    for node in _seq(data, "faq", problems):
        r = _Reader(node, problems)
        rid = r.slug("id")
        unique(node, rid)
        refs = node.get("refs") or []
        if not isinstance(refs, list):
            problems.add(node.value_place("refs"), "refs must be a list of ids")
            refs = []
        db.faq.append(Ruling(rid, r.text("question", required=True), r.text("ruling", required=True),
                             tuple(str(x) for x in refs), node.place, _keywords(node, problems),
                             _asks(node, problems)))
