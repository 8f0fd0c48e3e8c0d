"""Read YAML safely and keep where every value came from; duplicate keys are errors.

PyYAML silently keeps the last of two equal keys; we build the values ourselves from the
parser's events so that a duplicate, and every later problem, can name its file, line and
column. Files are shared between phones and designers, so one may be built to hurt: the
reader refuses, quickly and with its place, a file too large, a line too long, a NUL byte,
text that is not UTF-8, nesting too deep, aliases that expand to too many values (an
"alias bomb") and, where the caller says so (game logs), any anchor or alias at all.
"""

from __future__ import annotations

import codecs
import contextlib
import copyreg
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.rules.cache_dir import cache_folder as cache_folder
from casebook.rules.problems import Place, Problem, Problems

if TYPE_CHECKING:
    import yaml

# PyYAML is imported when a file is first parsed, not with this module: a build whose files are all
# found parsed in the user's cache (ParseCache) never imports it.


def __getattr__(name: str) -> Any:
    if name == "_LOADER":  # libyaml's parser (bundled with PyYAML's wheels) keeps the same marks and is ~10x faster
        import yaml

        return getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Node(dict):
    """A YAML mapping that remembers its own place and the place of each key and value."""

    __slots__ = ("place", "key_places", "value_places")
    place: Place
    key_places: dict[str, Place]
    value_places: dict[str, Place]

    def key_place(self, key: str) -> Place:
        return self.key_places.get(key, self.place)

    def value_place(self, key: str) -> Place:
        return self.value_places.get(key, self.key_place(key))


class Seq(list):
    """A YAML sequence that remembers its own place and each item's place."""

    __slots__ = ("place", "item_places")
    place: Place
    item_places: list[Place]

    def item_place(self, index: int) -> Place:
        if 0 <= index < len(self.item_places):
            return self.item_places[index]
        return self.place

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a list, then its places; a list of packed cards leaves out its items' places (each card's
        own, pickled with it; see PackedNode.__reduce__), which unpickling takes back from the cards."""
        places = getattr(self, "item_places", None)
        if places is not None and len(places) == len(self) and all(
                type(item) is PackedNode and item.place is place for item, place in zip(self, places, strict=True)):
            places = None
        return (Seq, (), (getattr(self, "place", None), places), iter(self))

    def __setstate__(self, state: tuple[Place | None, list[Place] | None]) -> None:
        place, places = state
        if place is not None:
            self.place = place
        self.item_places = [item.place for item in self] if places is None else places


class Text(str):
    """A YAML string scalar that remembers where it began and how it was written."""

    place: Place
    style: str | None


class PackedNode(Node):
    """A mapping once it is checked (a card): its text values plain strings, their places small numbers.

    Located values cost a Place and a Text a value (~3.7 KB a card); a deck of thousands
    keeps only this once its cards are checked, and every place can still be asked for.
    Mappings and lists inside it stay located as they were.
    """

    __slots__ = ("_spots",)

    def __init__(self, node: Node, pool: dict[str, str] | None = None):
        super().__init__()
        base = node.place
        spots: list[int] = []
        for key, value in node.items():
            kp, vp = node.key_place(key), node.value_place(key)
            dict.__setitem__(self, key, _shared(value, pool) if isinstance(value, Text) else value)
            spots += (kp.line - base.line, kp.col, vp.line - base.line, vp.col)
        self.place = base
        # four small numbers a key: as bytes (a sixth of a tuple's size) when each fits in one
        self._spots: bytes | tuple[int, ...] = bytes(spots) if all(0 <= n < 256 for n in spots) else tuple(spots)

    def _at(self, key: str, which: int) -> Place:
        for i, k in enumerate(self):
            if k == key and 4 * i + which + 1 < len(self._spots):
                line, col = self._spots[4 * i + which], self._spots[4 * i + which + 1]
                return Place(self.place.path, self.place.line + line, col)
        return self.place

    def key_place(self, key: str) -> Place:
        return self._at(key, 0)

    def value_place(self, key: str) -> Place:
        return self._at(key, 2) if key in self else self.place

    @property
    def key_places(self) -> dict[str, Place]:  # type: ignore[override]
        return {key: self._at(key, 0) for key in self}

    @property
    def value_places(self) -> dict[str, Place]:  # type: ignore[override]
        return {key: self._at(key, 2) for key in self}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as an empty node, then its place and spots (as list items: see extend) and its entries.

        Nothing made only to carry them is memoized: an unpickler keeps every memoized object
        until the whole file is read, and a deck's thousands of such tuples and dicts, let go
        together at the end, would leave holes all through the memory its cards keep (4 MB at 10,000 cards).
        """
        place = self.place
        return (_blank, (), None, iter((place.path, place.line, place.col, self._spots)), iter(dict.items(self)))

    def __copy__(self) -> PackedNode:
        return self._clone(lambda value: value)

    def __deepcopy__(self, memo: dict[int, Any]) -> PackedNode:
        import copy

        return self._clone(lambda value: copy.deepcopy(value, memo), memo)

    def _clone(self, copied: Any, memo: dict[int, Any] | None = None) -> PackedNode:
        """A node of the same kind with the same slots (place, spots, a row's columns) and each value copied.

        copy's default would rebuild it from __reduce__'s items through append, which a packed node has not."""
        new = type(self).__new__(type(self))
        if memo is not None:
            memo[id(self)] = new
        for cls in type(self).__mro__:
            for name in cls.__dict__.get("__slots__", ()):
                slot = cls.__dict__[name]
                with contextlib.suppress(AttributeError):  # a slot never set (a plain Node's key_places on a packed one)
                    slot.__set__(new, slot.__get__(self))
        for key, value in dict.items(self):
            dict.__setitem__(new, key, copied(value))
        return new

    def extend(self, parts: list[Any]) -> None:
        """The node's place and spots, as unpickling hands them over (the list items of __reduce__)."""
        path, line, col, self._spots = parts
        self.place = Place(path, line, col)


def _blank() -> PackedNode:
    return PackedNode.__new__(PackedNode)


def _reduce_place(place: Place) -> tuple[Any, ...]:
    """A Place pickled as a call with its three values, not as an object and its __dict__ (a dict made at load and
    memoized: see PackedNode.__reduce__)."""
    return (Place, (place.path, place.line, place.col))


def _shared(text: str, pool: dict[str, str] | None = None) -> str:
    """A plain string; a short one (a suit, a kind) shared by every card that holds it.

    Shared through `pool` (a file's reader's, let go with it) or else interned: interning a
    deck's thousands of unique ids and names would keep a table of them all for good.
    """
    if len(text) > 24:
        return str(text)
    if pool is None:
        return sys.intern(str(text))
    plain_text = str(text)
    return pool.setdefault(plain_text, plain_text)


# Limits for files that may be built to hurt; real card files and logs stay far below them.
MAX_BYTES = 5_000_000  # our largest YAML file is 32 KB, a long game's log 13 KB
MAX_LINE = 100_000  # characters on one line
MAX_DEPTH = 64  # levels of nested mappings and lists; our layouts use fewer than 10
# Values written out in a file: MAX_NODES, or (in a larger file) one for every VALUE_CHARS characters read so far
# (ours hold < 2,400; a 10,000-card deck holds 90,000 values in 667 KB, one per 7 characters). Written out, a value
# takes 2 characters at least (`0,`): only values packed denser than any card file are refused, where they begin,
# and reading stays proportional to the file's size, in time and memory, up to MAX_BYTES.
MAX_NODES = 30_000
VALUE_CHARS = 4
# What aliases repeat: at most MAX_NODES, or ALIAS_FACTOR times the values written out. Honest aliases (`<<:
# *defaults` on every card) repeat about as much as is written; an alias bomb repeats a few lines a billion times,
# and one padded with 5 MB of comments is refused as fast as a bare one (the file's size buys it nothing).
ALIAS_FACTOR = 3
MAX_SCALAR = 20_000  # characters in one value; our longest text has 1,945 (and far longer ones stall the layout)
MAX_PROBLEMS = 50  # problems the reader reports in one file before it stops

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_MERGE = "tag:yaml.org,2002:merge"
_VALUE = "tag:yaml.org,2002:value"
_SHOWN = 240  # characters of a line shown under its problem
_LONG_LINE = re.compile(f"^[^\n]{{{MAX_LINE + 1}}}", re.MULTILINE)  # the first line of more than MAX_LINE characters


@dataclass(frozen=True)
class _LinedProblem(Problem):
    """A problem that shows its line from the text already read (clipped), not from the file again."""

    shown: str = ""

    def format(self) -> str:
        out = [f"{self.place}: {self.severity}: {self.message}"]
        if self.shown:
            out.append(f"  >> {self.shown}")
        if self.expected:
            out.append(f"     expected: {self.expected}")
        return "\n".join(out)


class _Refused(Exception):
    """Raised inside the reader to stop at a hostile construct; becomes one problem."""

    def __init__(self, mark: Any, message: str, expected: str):
        super().__init__(message)
        self.pos: int | None = None
        if isinstance(mark, Place):
            self.line, self.col = mark.line, mark.col
        else:  # a parser mark, 0-based, with the character's index
            self.line, self.col, self.pos = mark.line + 1, mark.column + 1, mark.index
        self.message, self.expected = message, expected


def _visible(line: str) -> str:
    """A line safe to print: clipped, control characters (a NUL) written as escapes."""
    clipped = line[:_SHOWN].rstrip()
    shown = "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in clipped)
    return shown + (f" ... ({len(line)} characters)" if len(line) > _SHOWN else "")


def _line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of character `pos`."""
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


class _Source:
    """A text being read, its name and the problems found in it, each shown with its line."""

    def __init__(self, spath: str, text: str, problems: Problems):
        self.spath, self.text, self.problems = spath, text, problems
        self.starts = [0]  # where each line begins, as far as a problem needed

    def line_text(self, line: int, pos: int | None = None) -> str:
        """Line `line` (1-based); `pos`, a character on it, saves finding the line in a huge text."""
        text = self.text
        if pos is None:
            starts = self.starts
            while len(starts) < line:  # only as far as this line: a refusal may come early in 5 MB
                newline = text.find("\n", starts[-1])
                if newline < 0:
                    return ""
                starts.append(newline + 1)
            pos = starts[line - 1]
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        return text[start:end if end >= 0 else len(text)]

    def add(self, line: int, col: int, message: str, expected: str, pos: int | None = None) -> None:
        shown = _visible(self.line_text(line, pos))
        self.problems.items.append(_LinedProblem(Place(self.spath, line, col), message, expected, shown=shown))

    def add_at(self, pos: int, message: str, expected: str) -> None:
        """A problem at character `pos`."""
        line, col = _line_col(self.text, pos)
        self.add(line, col, message, expected, pos)


def _check_text(source: _Source) -> bool:
    """Refuse text too large, with a NUL byte or a line too long; True if it may be parsed."""
    text = source.text
    if len(text) > MAX_BYTES:
        source.add_at(MAX_BYTES, f"the file is too large ({len(text) / 1e6:.1f} million characters; it passes "
                      f"the limit of {MAX_BYTES / 1e6:.0f} MB here)",
                      f"a card file or game log under {MAX_BYTES / 1e6:.0f} MB (real ones are a few KB)")
        return False
    nul = text.find("\x00")
    if nul >= 0:
        source.add_at(nul, "a NUL byte: this is a binary file or not UTF-8 text", "YAML text saved as UTF-8")
        return False
    if len(text) > MAX_LINE:
        long_line = _LONG_LINE.search(text)  # found in place: a deck's 10,000 lines are not copied out to measure
        if long_line is not None:
            start = long_line.start()
            end = text.find("\n", start)
            line = text.count("\n", 0, start) + 1
            source.add(line, MAX_LINE + 1, f"line {line} is {(end if end >= 0 else len(text)) - start} characters long",
                       f"lines under {MAX_LINE} characters", start)
            return False
    return True


def _copy(value: Any) -> Any:
    """A fresh copy of a built value (for an alias), keeping every place; depth is bounded."""
    if isinstance(value, Node):
        out = Node((k, _copy(v)) for k, v in value.items())
        out.place, out.key_places, out.value_places = value.place, dict(value.key_places), dict(value.value_places)
        return out
    if isinstance(value, Seq):
        seq = Seq(_copy(v) for v in value)
        seq.place, seq.item_places = value.place, list(value.item_places)
        return seq
    return value  # Text and other scalars are immutable


class _MergeKey:
    """The key `<<` of a YAML merge (`<<: *defaults`)."""


_MERGE_KEY = _MergeKey()
_NO_KEY = object()  # a mapping frame that waits for its next key
_BAD_KEY = object()  # a key that was refused; its value is read and dropped
_OPEN = object()  # an anchor whose collection is still being read (an alias to it would recurse)


class _Frame:
    """A mapping or list being read: its value, its size so far (values inside) and height."""

    __slots__ = ("value", "place", "anchor", "size", "height", "key", "key_place", "merges")

    def __init__(self, value: Node | Seq, place: Place, anchor: str | None):
        self.value, self.place, self.anchor = value, place, anchor
        self.size, self.height = 1, 1
        self.key: Any = _NO_KEY
        self.key_place = place
        self.merges: list[Node] = []


class _Reader:
    """Builds located values from the parser's events, counting depth and values as it goes."""

    def __init__(self, source: _Source, allow_aliases: bool, packed: str | None = None, loader: Any = None):
        import yaml

        self.source = source
        self.parser_class = loader or getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        self.implicit = yaml.SafeLoader.yaml_implicit_resolvers  # first character -> [(tag, pattern)]
        self.packed = packed  # the key of the top-level list whose mappings are packed as each ends
        self.path = source.spath
        self.problems_before = len(source.problems.items)
        self.allow_aliases = allow_aliases
        self.loader = yaml.SafeLoader("")  # the resolver and constructor for scalars
        self.constructors = self.loader.yaml_constructors
        self.tags: dict[str, str] = {}  # plain scalar text -> its resolved tag
        self.scalars: dict[tuple[str, str], Any] = {}  # (tag, text) -> the constructed number, bool or null
        self.pool: dict[str, str] = {}  # short texts of packed cards, one string each however many cards hold it
        self.stack: list[_Frame] = []
        self.anchors: dict[str, Any] = {}
        self.anchor_marks: dict[str, Any] = {}
        self.nodes = 0  # values read so far, aliases counted as the values they repeat
        self.repeated = 0  # of which repeated by aliases
        self.root: Any = None

    def place(self, mark: Any) -> Place:
        return Place(self.path, mark.line + 1, mark.column + 1)

    def read(self, text: str) -> Any:
        import yaml

        parser = self.parser_class(text)
        try:
            get_event = parser.get_event
            first_document: Any = None
            while True:
                event = get_event()
                kind = type(event)
                if kind is yaml.ScalarEvent:
                    self.scalar(event)
                elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                    self.start(event, Node() if kind is yaml.MappingStartEvent else Seq())
                elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                    self.end()
                elif kind is yaml.AliasEvent:
                    self.alias(event)
                elif kind is yaml.DocumentStartEvent:
                    if first_document is not None:
                        raise yaml.composer.ComposerError("expected a single document in the stream", first_document,
                                                          "but found another document", event.start_mark)
                    first_document = event.start_mark
                elif event is None or kind is yaml.StreamEndEvent:
                    return self.root
        finally:
            parser.dispose()

    def count(self, mark: Any, added: int = 1, alias: bool = False) -> None:
        """Count values read (an alias: the values it repeats); refuse a file past its budgets."""
        self.nodes += added
        if alias:
            self.repeated += added
            written = self.nodes - self.repeated
            if self.repeated > max(MAX_NODES, ALIAS_FACTOR * written):
                raise _Refused(mark, f"aliases repeat {self.repeated} values where the file writes out {written} "
                               "(an alias bomb?)", f"aliases that repeat at most {MAX_NODES} values, or "
                               f"{ALIAS_FACTOR} times what the file writes out")
        elif self.nodes - self.repeated > MAX_NODES:
            self.check_density(mark)

    def check_density(self, mark: Any) -> None:
        """Past MAX_NODES values written out, refuse more than one for every VALUE_CHARS characters read so far.

        Counted against the text up to here, not the whole file's size: a dense run of values
        is refused where it begins, not after reading what the rest of the file would allow.
        """
        written, chars = self.nodes - self.repeated, max(mark.index, 0)
        if written > max(MAX_NODES, chars // VALUE_CHARS):
            raise _Refused(mark, f"the file holds {written} values in its first {chars} characters (more than one "
                           f"for every {VALUE_CHARS})", f"at most {MAX_NODES} values, or one for every {VALUE_CHARS} "
                           "characters (card files and logs take 6 characters or more a value)")

    def problem(self, place: Place, message: str, expected: str) -> None:
        """Add a problem; a file with too many (20,000 duplicate keys) is refused instead."""
        if len(self.source.problems.items) - self.problems_before >= MAX_PROBLEMS:
            raise _Refused(place, f"more than {MAX_PROBLEMS} problems in this file; reading stops here",
                           "fix the problems above and read the file again")
        self.source.add(place.line, place.col, message, expected)

    def check_anchor(self, event: Any) -> None:
        import yaml

        anchor = event.anchor
        if not self.allow_aliases:
            raise _Refused(event.start_mark, f"an anchor (&{anchor}) in a game log",
                           "every value written out in full; logs never use anchors or aliases")
        if anchor in self.anchor_marks:
            raise yaml.composer.ComposerError(f"found duplicate anchor {anchor!r}; first occurrence",
                                              self.anchor_marks[anchor], "second occurrence", event.start_mark)
        self.anchor_marks[anchor] = event.start_mark

    def scalar(self, event: Any) -> None:
        self.nodes += 1
        if self.nodes - self.repeated > MAX_NODES:
            self.check_density(event.start_mark)
        if len(event.value) > MAX_SCALAR:
            raise _Refused(event.start_mark, f"a value of {len(event.value)} characters",
                           f"at most {MAX_SCALAR} characters in one value (our longest text has under 2,000)")
        mark = event.start_mark
        place = Place(self.path, mark.line + 1, mark.column + 1)
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.resolve(event.value) if event.implicit[0] else _STR
        value: Any
        if tag in (_STR, _VALUE) or (tag == _MERGE and not self.wants_key()):
            value = Text(event.value)
            value.place = place
            value.style = event.style
        elif tag == _MERGE:
            value = _MERGE_KEY
        else:
            value = self.construct(tag, event, place)
        if event.anchor is not None:
            self.check_anchor(event)
            self.anchors[event.anchor] = (value, place, 1, 0)
        self.add(value, place, 1, 0)

    def resolve(self, plain_text: str) -> str:
        """The tag of a plain scalar (7 is an int, true a bool); remembered, as values repeat."""
        tag = self.tags.get(plain_text)
        if tag is None:
            tag = _STR  # what SafeLoader.resolve does for a plain scalar, without its per-call set-up
            for candidate, pattern in self.implicit.get(plain_text[:1], ()):
                if pattern.match(plain_text):
                    tag = candidate
                    break
            self.tags[plain_text] = tag
        return tag

    def construct(self, tag: str, event: Any, place: Place) -> Any:
        import yaml

        text = event.value
        if tag == _INT and len(text) < 19 and text.isascii() and text.isdigit() and (text[0] != "0" or len(text) == 1):
            return int(text)  # the common case, without YAML 1.1's octal, sexagesimal and underscores
        known = self.scalars.get((tag, text), self)
        if known is not self:
            return known
        node = yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style)
        constructor = self.constructors.get(tag)
        if constructor is None:
            return self.loader.construct_object(node, deep=True)  # raises: no constructor for this tag
        try:
            value = constructor(self.loader, node)
        except yaml.YAMLError:
            raise
        except Exception:  # !!int abc, or 5000 digits: int(), float() or a regex fail
            kind = tag.rsplit(":", 1)[-1]
            shown = text if len(text) <= 40 else f"{text[:40]}... ({len(text)} characters)"
            raise yaml.constructor.ConstructorError(None, None, f"cannot read '{shown}' as {kind}",
                                                    event.start_mark) from None
        if isinstance(value, str):
            located = Text(value)
            located.place, located.style = place, event.style
            return located
        self.scalars[(tag, text)] = value  # numbers, booleans, null, dates: immutable, safe to share
        return value

    def wants_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, Node) and self.stack[-1].key is _NO_KEY

    def start(self, event: Any, value: Node | Seq) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise _Refused(event.start_mark, f"nested more than {MAX_DEPTH} levels deep",
                           f"at most {MAX_DEPTH} levels of mappings and lists (real files use fewer than 10)")
        self.count(event.start_mark)
        place = self.place(event.start_mark)
        value.place = place
        if isinstance(value, Node):
            value.key_places, value.value_places = {}, {}
        else:
            value.item_places = []
        if event.anchor is not None:
            self.check_anchor(event)
            self.anchors[event.anchor] = _OPEN
        self.stack.append(_Frame(value, place, event.anchor))

    def end(self) -> None:
        frame = self.stack.pop()
        value = frame.value
        if frame.merges and isinstance(value, Node):
            value = self.merged(value, frame.merges)
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (value, frame.place, frame.size, frame.height)
        elif (self.packed is not None and len(self.stack) == 2 and isinstance(value, Node)
              and isinstance(self.stack[1].value, Seq) and self.stack[0].key == self.packed):
            value = PackedNode(value, self.pool)  # a card: its located text let go at once, not after the file
        self.add(value, frame.place, frame.size, frame.height)

    def alias(self, event: Any) -> None:
        import yaml

        if not self.allow_aliases:
            raise _Refused(event.start_mark, f"an alias (*{event.anchor}) in a game log",
                           "every value written out in full; logs never use anchors or aliases")
        anchored = self.anchors.get(event.anchor)
        if anchored is None:
            raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                              event.start_mark)
        if anchored is _OPEN:
            raise _Refused(event.start_mark, f"the alias *{event.anchor} stands inside the value it names "
                           "(it would repeat itself without end)", "an alias after the anchored value ends")
        value, place, size, height = anchored
        if len(self.stack) + height > MAX_DEPTH:
            raise _Refused(event.start_mark, f"with the alias *{event.anchor} the values nest more than "
                           f"{MAX_DEPTH} levels deep", f"at most {MAX_DEPTH} levels of mappings and lists")
        self.count(event.start_mark, size, alias=True)
        self.add(_copy(value), place, size, height)

    def add(self, value: Any, place: Place, size: int, height: int) -> None:
        """Put a finished value into the mapping or list being read (or make it the document)."""
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.size += size
        if height >= frame.height:
            frame.height = height + 1
        target = frame.value
        if isinstance(target, Seq):
            target.append(value)
            target.item_places.append(place)
            return
        if frame.key is _NO_KEY:
            if value is _MERGE_KEY:
                frame.key = _MERGE_KEY
            elif isinstance(value, str | int | float | bool):
                frame.key, frame.key_place = sys.intern(str(value)), place  # the same few keys on every card
            else:
                self.problem(place, "a key must be a plain word", "key: value")
                frame.key = _BAD_KEY
            return
        key, frame.key = frame.key, _NO_KEY
        if key is _MERGE_KEY:
            self.merge_from(frame, value, place)
        elif key is _BAD_KEY:
            return
        elif key in target:
            first = target.key_places[key]
            self.problem(frame.key_place, f"duplicate key '{key}' (first given at line {first.line})",
                              "each key once per mapping; PyYAML would silently keep the last")
        else:
            target[key] = value
            target.key_places[key] = frame.key_place
            target.value_places[key] = place

    def merge_from(self, frame: _Frame, value: Any, place: Place) -> None:
        """`<<: *a` or `<<: [*a, *b]`: remember the mappings whose keys this mapping takes."""
        sources = value if isinstance(value, Seq) else [value]
        if not all(isinstance(source, Node) for source in sources):
            self.problem(place, "'<<' merges a mapping or a list of mappings", "<<: *defaults")
            return
        frame.merges.extend(sources)

    @staticmethod
    def merged(own: Node, sources: list[Node]) -> Node:
        """The mapping with the merged keys first: its own keys win, then the earlier source."""
        out = Node()
        out.place, out.key_places, out.value_places = own.place, {}, {}
        for source in sources:
            for key, value in source.items():
                if key not in out:
                    out[key] = value
                    out.key_places[key], out.value_places[key] = source.key_place(key), source.value_place(key)
        for key, value in own.items():
            out[key] = value
            out.key_places[key], out.value_places[key] = own.key_places[key], own.value_places[key]
        return out


def read_source(path: Path, problems: Problems) -> str | None:
    """The text of a file, refused (with its line) if too large, not UTF-8 or holding a NUL byte."""
    spath = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)  # never more: a 40 MB file is refused without reading it all
    except FileNotFoundError:
        problems.add(Place(spath), "file not found")
        return None
    except OSError as exc:
        problems.add(Place(spath), f"cannot read file: {exc.strerror or exc}", "a readable UTF-8 text file")
        return None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        _Source(spath, "", problems).add(1, 1, "the file is UTF-16 text (it starts with a UTF-16 byte-order mark)",
                                         "the file saved as UTF-8")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(data) > MAX_BYTES - 4 and exc.start >= len(data) - 4:  # the limit cut a character in two
            text = data[:exc.start].decode("utf-8")
        else:
            before = data[:exc.start].decode("utf-8", errors="replace")
            source = _Source(spath, before + data[exc.start:].decode("utf-8", errors="replace"), problems)
            source.add_at(len(before), f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be read "
                          "(a Latin-1 or Windows-1252 file?)", "the file saved as UTF-8")
            return None
    if len(data) > MAX_BYTES:
        size = path.stat().st_size
        _Source(spath, text, problems).add_at(
            len(text) - 1, f"the file is too large ({size / 1e6:.1f} MB; it passes the limit of "
            f"{MAX_BYTES / 1e6:.0f} MB here)", f"a card file or game log under {MAX_BYTES / 1e6:.0f} MB "
            "(real ones are a few KB)")
        return None
    return text


def load_yaml(path: Path, problems: Problems, packed: str | None = None) -> Any:
    """Load one YAML document with places; on a syntax error or a hostile file, add it and return None."""
    text = read_source(path, problems)
    return None if text is None else parse_yaml(text, str(path), problems, packed=packed)


_UNSET = object()


class ParseCache:
    """YAML files as parsed, kept between runs in the user's cache folder (see `cache_folder`).

    A file's entry is found by its path (and how it is read: `packed`) and holds a digest of the
    file's bytes with the parsed tree (pickle: mappings and lists that know their places); a file
    whose bytes changed, or an entry that cannot be read, is parsed again. The folder is named for
    the parser's code (this module, rules/problems.py) and PyYAML's, and Python's version. A file
    with a problem is never kept: its problems are said again on every run. A build whose files are
    all found here never imports PyYAML. A card file (`packed`) keeps its bytes too: once edited, only
    the cards whose lines changed are parsed again and put in the kept tree in their place (_spliced).
    """

    def __init__(self) -> None:
        self._folder: Path | None | object = _UNSET  # found when first asked for
        self._kept: int | None = None  # entries in the folder as last counted, plus those written since
        self.spliced = 0  # card files re-parsed only where they changed (see _spliced)

    def folder(self) -> Path | None:
        if self._folder is _UNSET:
            from importlib.util import find_spec

            from casebook.rules import problems

            spec = find_spec("yaml")  # its version is in its __init__.py: read, not imported
            origin = Path(spec.origin) if spec is not None and spec.origin else Path(__file__)
            self._folder = cache_folder("yaml", (Path(__file__), Path(problems.__file__), origin), "")
        return self._folder  # type: ignore[return-value]

    def parse(self, path: Path, problems: Problems, packed: str | None = None) -> Any:
        return load_yaml(path, problems, packed=packed)

    def load(self, path: Path, problems: Problems, packed: str | None = None) -> Any:
        """load_yaml(path, problems, packed), from the cache when the file's bytes are those kept."""
        import hashlib
        import os
        import pickle

        folder = self.folder()
        if folder is None:
            return self.parse(path, problems, packed)
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError:
            return self.parse(path, problems, packed)  # says it cannot be read
        if len(data) > MAX_BYTES:
            return self.parse(path, problems, packed)  # refused, as ever
        stamp = (str(path), packed, hashlib.sha1(data).hexdigest())
        entry = folder / hashlib.sha1(f"{path}\0{packed}".encode()).hexdigest()
        earlier: tuple[Any, bytes] | None = None  # a card file's tree and bytes as an earlier run kept them
        try:
            with open(entry, "rb") as f:
                kept = pickle.load(f)
                old_data = pickle.load(f)  # before the tree: an entry cut short loses its tree, never trusted
                if kept == stamp:
                    return pickle.load(f)
                if packed is not None and kept[:2] == stamp[:2]:
                    old_tree = pickle.load(f)
                    if isinstance(old_data, bytes) and hashlib.sha1(old_data).hexdigest() == kept[2]:
                        earlier = (old_tree, old_data)  # the bytes are those the tree was parsed from
        except Exception:  # noqa: BLE001 - a cache entry cut short, corrupt or of another make: parsed again
            pass
        before = len(problems)
        tree = None
        if earlier is not None and packed is not None:
            tree = _spliced(earlier[0], earlier[1], data, str(path), packed)
            self.spliced += tree is not None
        if tree is None:
            tree = self.parse(path, problems, packed)
        if tree is not None and len(problems) == before:
            tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(tmp, "wb") as f:
                    pickle.dump(stamp, f, protocol=pickle.HIGHEST_PROTOCOL)
                    # a card file's bytes too: the next edit re-parses only the cards whose lines changed
                    pickle.dump(data if packed is not None else None, f, protocol=pickle.HIGHEST_PROTOCOL)
                    pickler = pickle.Pickler(f, protocol=pickle.HIGHEST_PROTOCOL)
                    pickler.dispatch_table = {**copyreg.dispatch_table, Place: _reduce_place}
                    pickler.dump(tree)
                os.replace(tmp, entry)  # whole or not at all
            except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
                with contextlib.suppress(OSError):
                    tmp.unlink()
            else:
                self._written(folder)
        return tree

    def _written(self, folder: Path) -> None:
        """Count a new entry; past MAX_KEPT, prune. The folder is listed (names only) once a process, not
        once an entry: a count gone stale by other processes' builds is put right when it comes to pruning."""
        if self._kept is None:
            self._kept = _count(folder)
        else:
            self._kept += 1
        if self._kept > MAX_KEPT:
            self._kept = _prune(folder)


MAX_KEPT = 1000  # parsed files kept in the cache; a new one past it prunes the oldest, down to 80 % of it
PRUNED_TO = 0.8  # in batches: the next prune is a fifth of MAX_KEPT new entries away


def _count(folder: Path) -> int:
    """The entries in the cache folder, by name (no file is looked into)."""
    import os

    try:
        with os.scandir(folder) as found:
            return sum(1 for e in found if not e.name.startswith("."))
    except OSError:
        return 0


def _prune(folder: Path) -> int:
    """Keep the cache from growing without end (every folder a deck was ever built from leaves its files):
    past MAX_KEPT entries, the oldest by the time each was written go, down to PRUNED_TO of MAX_KEPT.
    Returns how many are kept."""
    import os

    try:
        with os.scandir(folder) as found:
            entries = [(e.stat().st_mtime_ns, e.path) for e in found if e.is_file() and not e.name.startswith(".")]
    except OSError:
        return 0
    if len(entries) <= MAX_KEPT:
        return len(entries)
    keep = int(MAX_KEPT * PRUNED_TO)
    for _, path in sorted(entries)[:len(entries) - keep]:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return keep


_ITEM_START = re.compile(r" *- +")  # what comes before a card of a block list on its first line
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029")  # line breaks to YAML besides \n: such a file is parsed whole


def _spliced(old_tree: Any, old_data: bytes, data: bytes, spath: str, packed: str) -> Any:
    """The tree of a card file's new bytes made from the tree of its old ones, parsing only the cards whose lines
    changed; None where that cannot be sure to give what parsing the whole file gives (then it is parsed whole).

    Taken only for a file that is a block list of cards under its one key (`cards:`), edited without adding or
    removing lines (every other card keeps its places), the changed cards' lines all inside the list; the changed
    cards, old and new, read alone (blank lines before them: the same lines and columns) with no anchor and no
    problem; no merge key in the file; a tree within MAX_NODES values (so no budget of the reader is at stake).
    """
    try:
        old_text, text = old_data.decode("utf-8"), data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "<<" in text or ":merge" in text or "!!merge" in text or text.startswith("%") or "\n%" in text \
            or any(b in text or b in old_text for b in _OTHER_BREAKS):  # a merge key, a directive, another break
        return None
    if not (type(old_tree) is Node and list(old_tree) == [packed] and type(old_tree[packed]) is Seq):
        return None
    cards: Seq = old_tree[packed]
    if not cards or not all(type(card) is PackedNode for card in cards) or old_tree.key_place(packed).col != 1:
        return None
    old_lines, lines = old_text.split("\n"), text.split("\n")
    if len(old_lines) != len(lines) or not _check_text(_Source(spath, text, Problems())):
        return None
    first, end = 0, len(lines)  # the changed lines: [first, end)
    while first < end and old_lines[first] == lines[first]:
        first += 1
    while end > first and old_lines[end - 1] == lines[end - 1]:
        end -= 1
    starts = [card.place.line - 1 for card in cards]  # each card's first line (0-based)
    key_line = old_tree.key_place(packed).line - 1
    if first == end or first < starts[0] or key_line >= starts[0] \
            or re.fullmatch(rf"{re.escape(packed)}: *(#.*)?", lines[key_line]) is None:
        return None
    import bisect

    i = bisect.bisect_right(starts, first) - 1
    j = bisect.bisect_left(starts, end, lo=i + 1)
    stop = starts[j] if j < len(starts) else len(lines)
    dash = len(old_lines[starts[0]]) - len(old_lines[starts[0]].lstrip(" "))
    for k in range(i, min(j + 1, len(cards))):  # the cards re-read and the one after: each on its dash's line
        if _ITEM_START.fullmatch(old_lines[starts[k]][:cards[k].place.col - 1]) is None \
                or old_lines[starts[k]].index("-") != dash:
            return None
    for line in lines[starts[i]:stop]:
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if "\t" in line or not (not body or body.startswith("#") or indent > dash
                                 or (indent == dash and body[:2] in ("- ", "-"))):
            return None  # a line that might end the list, or the document, or start another
    head = "\n" * key_line + f"{packed}:" + "\n" * (starts[i] - key_line)

    def read(part: list[str]) -> Seq | None:
        simple = _flow_cards(part, starts[i], spath)  # cards of plain words and numbers on a line each: no PyYAML
        if simple is not None:
            return simple
        import yaml

        chunk = head + "\n".join(part) + ("\n" if stop < len(lines) else "")  # the break before the next card
        reader = _Reader(_Source(spath, chunk, Problems()), True, packed)
        try:
            tree = reader.read(chunk)
        except (_Refused, yaml.YAMLError):
            return None
        if reader.source.problems.items or reader.anchors or type(tree) is not Node or list(tree) != [packed]:
            return None
        items = tree[packed]
        return items if type(items) is Seq and all(type(card) is PackedNode for card in items) else None

    before, after = read(old_lines[starts[i]:stop]), read(lines[starts[i]:stop])
    if before is None or after is None or list(before) != cards[i:j] \
            or [(c.place, c._spots) for c in before] != [(c.place, c._spots) for c in cards[i:j]] \
            or [card.place.line - 1 for card in after][:1] != [starts[i]]:
        return None  # (the old cards read alone as they were read in the file: the way of reading them holds)
    for card in after:
        line = lines[card.place.line - 1]
        if _ITEM_START.fullmatch(line[:card.place.col - 1]) is None or line.index("-") != dash:
            return None
    merged = Seq([*cards[:i], *after, *cards[j:]])
    merged.place = after.place if i == 0 else cards.place
    merged.item_places = [*cards.item_places[:i], *after.item_places, *cards.item_places[j:]]
    root = Node({packed: merged})
    root.place, root.key_places = old_tree.place, dict(old_tree.key_places)
    root.value_places = {packed: merged.place if i == 0 else old_tree.value_place(packed)}
    return root if _values(root) <= MAX_NODES else None


_FLOW_CARD = re.compile(r"( *)- +\{([^{}]*)\} *")  # a card on one line as a flow mapping: `  - {id: c1, value: 2}`
_FLOW_ENTRY = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_]*): +([A-Za-z0-9][A-Za-z0-9 _]*?) *")  # `key: plain words or 12`
_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")  # a whole number as YAML 1.1 reads it (no sign, octal, _ or base 60)
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9 _]*")  # plain words: a str to YAML unless one of _RESOLVED
_RESOLVED = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "null"})  # bool or null (any case)


def _flow_cards(part: list[str], first: int, spath: str) -> Seq | None:
    """The cards of `part` (the file's lines from line `first`, 0-based) read without PyYAML, if every line is blank
    or one card written as a flow mapping of plain words and whole numbers (a benchmark's or spreadsheet-made deck:
    `  - {id: c1, name: Moth One, value: 2}`), with what PyYAML's reading gives: the values (str, int), the places of
    the card, each key and value, the list's. None for anything else (quotes, comments, other values, nesting, a key
    twice): PyYAML reads it. Importing PyYAML costs an edit more than the rest of its re-parse."""
    cards = Seq()
    cards.item_places = []
    pool: dict[str, str] = {}
    for k, line in enumerate(part):
        if not line.strip(" "):
            continue
        card = _FLOW_CARD.fullmatch(line)
        if card is None:
            return None
        row, at = first + k + 1, card.start(2)  # the body's first character, 0-based: `{` is at column `at`
        node = Node()
        node.place, node.key_places, node.value_places = Place(spath, row, at), {}, {}
        for entry_text in card.group(2).split(","):
            entry = _FLOW_ENTRY.fullmatch(entry_text)
            if entry is None:
                return None
            key, text = entry.group(2), entry.group(3)
            value_place = Place(spath, row, at + entry.start(3) + 1)
            value: Any
            if _WHOLE.fullmatch(text):
                value = int(text)
            elif _WORDS.fullmatch(text) and text.lower() not in _RESOLVED and len(text) <= MAX_SCALAR:
                value = Text(text)
                value.place, value.style = value_place, None
            else:
                return None
            if key.lower() in _RESOLVED or key in node:  # a key YAML reads as a bool or null; a key given twice
                return None
            key = sys.intern(key)
            node[key] = value
            node.key_places[key] = Place(spath, row, at + entry.start(2) + 1)
            node.value_places[key] = value_place
            at += len(entry_text) + 1
        if not cards:
            cards.place = Place(spath, row, len(card.group(1)) + 1)  # the list begins at its first card's dash
        packed = PackedNode(node, pool)
        cards.append(packed)
        cards.item_places.append(packed.place)
    return cards if cards else None


def _values(value: Any) -> int:
    """The values the reader counts in a tree read without merges (a mapping, each key, each value, nested)."""
    if isinstance(value, dict):
        return 1 + sum(1 + _values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(v) for v in value)
    return 1


PARSE_CACHE = ParseCache()


def parse_yaml(text: str, spath: str, problems: Problems, aliases: bool = True, packed: str | None = None) -> Any:
    """Parse YAML text named `spath` (for messages) with places, adding problems instead of raising.

    `aliases=False` (game logs) refuses any anchor or alias. `packed="cards"` (card files)
    keeps each mapping of the top-level `cards:` list as a PackedNode from the moment it
    ends: a file of thousands of cards never holds them all as located text at once.
    """
    import yaml

    source = _Source(spath, text, problems)
    if not _check_text(source):
        return None
    try:
        return _Reader(source, aliases, packed).read(text)
    except _Refused as exc:
        source.add(exc.line, exc.col, exc.message, exc.expected, exc.pos)
    except yaml.MarkedYAMLError as exc:
        ours = _own_refusal_before(text, spath, aliases, exc)
        if ours is not None:
            source.add(ours.line, ours.col, ours.message, ours.expected, ours.pos)
            return None
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or str(exc)
        if exc.context:
            what = f"{exc.context}, {what}"
            if exc.context_mark and mark and exc.context_mark.line != mark.line:
                what += f" (it began at line {exc.context_mark.line + 1})"
        expected = "valid YAML (check indentation, colons and quotes)"
        if mark:
            source.add(mark.line + 1, mark.column + 1, f"YAML syntax: {what}", expected, mark.index)
        else:
            problems.add(Place(spath), f"YAML syntax: {what}", expected)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow; its position counts UTF-8 bytes
        before = text.encode("utf-8")[:exc.position].decode("utf-8", errors="replace")
        source.add_at(len(before), f"the character U+{exc.character:04X} is not allowed in YAML ({exc.reason})",
                      "printable text; write control characters as escapes in double quotes (\"\\x01\")")
    except yaml.YAMLError as exc:
        problems.add(Place(spath), f"YAML: {exc}")
    return None


def _own_refusal_before(text: str, spath: str, aliases: bool, exc: yaml.MarkedYAMLError) -> _Refused | None:
    """Our refusal of a file that the YAML library refused first for nesting too deep, or None.

    libyaml (bundled with PyYAML 6.0.4 on) stops at a nesting limit of its own while it scans
    ahead, before its events reach our lower limit: so the user would read the library's
    words, at another place, depending on the PyYAML installed. The text up to where it
    stopped is read again with PyYAML's Python parser (which has no such limit), in growing
    heads (its look-ahead in flow nesting costs the square of the head), to refuse it with our
    own message at our own place.
    """
    import yaml

    mark = exc.problem_mark
    if mark is None or "maximum nesting depth" not in str(exc.problem):
        return None
    end, size = mark.index + 1, 256
    while True:
        head = text[:min(size, end)]
        try:
            _Reader(_Source(spath, head, Problems()), aliases, loader=yaml.SafeLoader).read(head)
        except _Refused as refused:
            return refused
        except yaml.YAMLError:
            pass  # the head ends mid-value: read a longer one
        if size >= end:
            return None
        size *= 4


def plain(value: Any) -> Any:
    """Located YAML values (Node, Seq, Text) as plain dicts, lists and strings."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def dump_yaml(data: Any, flow: bool = False) -> str:
    """Plain data as YAML text (block style, or one flow-style line)."""
    import yaml

    if flow:
        return str(yaml.safe_dump(data, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10_000)).strip()
    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None))


def place_of(container: Any, key: str | int | None = None, fallback: Place | None = None) -> Place:
    """The best known place for a value: the key's value in a Node, an item in a Seq."""
    if isinstance(container, Node) and isinstance(key, str):
        return container.value_place(key)
    if isinstance(container, Seq) and isinstance(key, int):
        return container.item_place(key)
    if isinstance(container, Node | Seq):
        return container.place
    place = getattr(container, "place", None)
    if isinstance(place, Place):
        return place
    return fallback or Place("<unknown>")
