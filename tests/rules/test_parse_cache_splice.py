"""An edited card file re-parsed only where it changed (rules/yamlsource.py ParseCache, _spliced; issue 21).

The cache keeps a card file's bytes with its tree; a run that finds the file edited parses only the
cards whose lines changed and puts them in the kept tree. What it gives must be what parsing the whole
file gives, every value and every place alike, or it must not be taken: each edit here is checked
against a whole parse, and edits it cannot be sure of (lines added, a document marker, an anchor, a
merge key, a broken card) are parsed whole. A kept entry whose bytes or tree are not what they claim
is never trusted.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from casebook.rules import yamlsource
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import Node, PackedNode, ParseCache, Seq, Text, parse_yaml

HEAD = "# A deck for the splice tests.\n\ncards:\n"
CARDS = [
    "  - {id: c1, name: Moth One, suit: wing, value: 1}\n",
    "  - id: c2\n    name: Lamp Two   # a comment\n    suit: flame\n    value: 2\n",
    "  # a comment between cards\n  - id: c3\n    name: \"Quoted: Three\"\n    text: |\n      First line.\n      Second line.\n\n",
    "  - id: c4\n    name: Four\n    tags: [a, b, c]\n    extra:\n      - x\n      - {y: 1}\n",
    "  - {id: c5, name: Five,\n     suit: wing, value: 3}\n",
    "  - id: c6\n    name: Six\n    text: >-\n      folded\n      text\n",
]


def located(value: Any) -> Any:
    """A tree as plain tuples holding every value, type and place (a PackedNode's places too)."""
    if isinstance(value, Node):
        return (type(value).__name__, value.place,
                tuple((k, value.key_place(k), value.value_place(k), located(v)) for k, v in dict.items(value)))
    if isinstance(value, Seq):
        return ("Seq", value.place, tuple(value.item_places), tuple(located(v) for v in value))
    if isinstance(value, Text):
        return ("Text", str(value), value.place, value.style)
    return (type(value).__name__, value)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def load(path: Path) -> tuple[Any, Problems, int]:
    """A new run's load of the file: (tree, problems, how many files it spliced)."""
    problems, parse_cache = Problems(), ParseCache()
    return parse_cache.load(path, problems, packed="cards"), problems, parse_cache.spliced


def whole(path: Path) -> tuple[Any, list[str]]:
    problems = Problems()
    tree = parse_yaml(path.read_text(encoding="utf-8"), str(path), problems, packed="cards")
    return tree, [p.format() for p in problems.items]


def assert_as_whole(path: Path, tree: Any, problems: Problems) -> None:
    """The tree and problems a load gave are what parsing the whole file gives, every value and place alike."""
    expected, expected_problems = whole(path)
    assert located(tree) == located(expected)
    assert [p.format() for p in problems.items] == expected_problems


def test_a_renamed_card_is_parsed_alone_and_the_tree_is_the_whole_parse(tmp_path: Path, cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(HEAD + "".join(CARDS), encoding="utf-8")
    load(path)
    path.write_text(HEAD + "".join(CARDS).replace("Lamp Two", "Lamp Twenty-Two"), encoding="utf-8")
    parsed: list[int] = []
    original = yamlsource._Reader.read

    def reading(self: Any, text: str) -> Any:
        parsed.append(text.count("id:"))
        return original(self, text)

    monkeypatch.setattr(yamlsource._Reader, "read", reading)
    tree, problems, spliced = load(path)
    assert spliced == 1 and not problems
    assert parsed == [1, 1]  # the card before the edit and after it, each alone; not the file's six
    assert tree["cards"][1]["name"] == "Lamp Twenty-Two"
    parsed.clear()
    assert located(tree) == located(whole(path)[0])
    again, _, spliced = load(path)  # the next run finds the spliced tree kept whole
    assert spliced == 0 and located(again) == located(tree)


EDITS = [
    lambda t: t.replace("Moth One", "Moth"),  # the first card, a flow mapping
    lambda t: t.replace("value: 3}", "value: 30}"),  # the second line of a multi-line flow mapping
    lambda t: t.replace("# a comment between cards", "# another comment"),
    lambda t: t.replace("Second line.", "Second, longer line."),  # inside a block scalar
    lambda t: t.replace("folded", "unfolded"),  # the last card, at the end of the file
    lambda t: t.replace("[a, b, c]", "[a, b]").replace("Moth One", "Moth 1"),  # two cards apart
    lambda t: t.replace("  - id: c4", "  - id: c4b"),  # a card's first line
    lambda t: t.replace("    name: Four\n", "  - name: Four\n"),  # one card made two
    lambda t: t.replace("  - id: c4\n", "    id: c4\n"),  # two cards made one (the line joins the card before)
    lambda t: t.replace("    name: Four\n", "...\n"),  # a document's end inside the list
    lambda t: t.replace("    name: Four\n", "---\n"),  # another document
    lambda t: t.replace("    name: Four\n", "other: 1\n"),  # a second top-level key
    lambda t: t.replace("    name: Four\n", "    name: &n Four\n"),  # an anchor
    lambda t: t.replace("    name: Six\n", "    name: *n\n").replace("name: Four", "name: &n Four"),
    lambda t: t.replace("    name: Four\n", "    name: Four\n    name: Again\n").replace("    tags: [a, b, c]\n", ""),
    lambda t: t.replace("    name: Four\n", "    name: [unclosed\n"),  # a syntax error
    lambda t: t.replace("    name: Four\n", "    name: \"open quote\n"),  # a quote running into the next card
    lambda t: t.replace("    name: Four\n", "    <<: {x: 1}\n"),  # a merge key
    lambda t: t.replace("    name: Four\n", "\tname: Four\n"),  # a tab
    lambda t: t.replace("\n", "\r\n"),  # another line break
    lambda t: t.replace("    name: Four\n", "    name: Four\n    more: 1\n"),  # a line added: parsed whole
    lambda t: t.replace("Lamp Two", "Lamp\x00Two"),  # a NUL byte
    lambda t: t.replace("    name: Four\n", "    name: |\n"),  # a block scalar taking the card's next lines
]


@pytest.mark.parametrize("edit", range(len(EDITS)))
def test_each_edit_gives_what_parsing_the_whole_file_gives(tmp_path: Path, cache: Path, edit: int) -> None:
    path = tmp_path / "deck.yaml"
    text = HEAD + "".join(CARDS)
    path.write_text(text, encoding="utf-8")
    load(path)
    edited = EDITS[edit](text)
    assert edited != text
    path.write_bytes(edited.encode("utf-8"))
    tree, problems, _ = load(path)
    assert_as_whole(path, tree, problems)


def random_edits(path: Path, text: str, alphabet: str, seed: int, runs: int, start: int = 0) -> int:
    """Characters of text changed at random (from `start` on), one run after another, each load checked against a
    whole parse; a file with problems is put back as it was last read well. Returns how many loads spliced."""
    rng = random.Random(seed)
    path.write_text(text, encoding="utf-8")
    load(path)
    good, spliced_runs = text, 0
    for _ in range(runs):
        at = rng.randrange(start, len(text))
        if start and text[at] == "\n":
            continue
        text = text[:at] + rng.choice(alphabet) + text[at + 1:]
        path.write_text(text, encoding="utf-8")
        tree, problems, spliced = load(path)
        assert_as_whole(path, tree, problems)
        spliced_runs += spliced
        if problems:  # put the file back as it was last read well, so that most edits are of a good file
            text = good
            path.write_text(text, encoding="utf-8")
            load(path)
        good = text
    return spliced_runs


def test_random_edits_of_a_larger_deck_match_the_whole_parse(tmp_path: Path, cache: Path) -> None:
    """Characters changed at random in a 60-card deck, one run after another, each checked against a whole parse."""
    text = HEAD + "".join(CARDS[k % len(CARDS)].replace(f"id: c{k % len(CARDS) + 1}", f"id: k{k}") for k in range(60))
    assert random_edits(tmp_path / "deck.yaml", text, "abc XYZ 01:-#{}[],'\"|>&*!\n", 21, 150) > 10  # taken often


def _entry(cache: Path) -> Path:
    [entry] = [p for p in cache.rglob("*") if p.is_file()]
    return entry


def _rewrite(entry: Path, change: Any) -> None:
    with open(entry, "rb") as f:
        parts = [pickle.load(f), pickle.load(f), pickle.load(f)]
    change(parts)
    with open(entry, "wb") as f:
        for part in parts:
            pickle.dump(part, f)


@pytest.mark.parametrize("tamper", ["bytes", "tree", "cut"])
def test_a_kept_entry_not_what_it_claims_is_never_spliced(tmp_path: Path, cache: Path, tamper: str) -> None:
    path = tmp_path / "deck.yaml"
    text = HEAD + "".join(CARDS)
    path.write_text(text, encoding="utf-8")
    load(path)
    entry = _entry(cache)
    if tamper == "bytes":  # kept bytes that are not those the stamp names (the tree was not parsed from them)
        _rewrite(entry, lambda parts: parts.__setitem__(1, parts[1].replace(b"Four", b"Fore")))
    elif tamper == "tree":  # a tree of another kind
        _rewrite(entry, lambda parts: parts.__setitem__(2, {"cards": [{"id": "c1"}]}))
    else:
        entry.write_bytes(entry.read_bytes()[:-20])
    path.write_text(text.replace("name: Four", "name: Fourth"), encoding="utf-8")
    tree, problems, spliced = load(path)
    assert spliced == 0 and not problems
    assert located(tree) == located(whole(path)[0])
    assert isinstance(tree["cards"][3], PackedNode) and tree["cards"][3]["name"] == "Fourth"


FLOW = [f"  - {{id: f{k}, name: Moth Lamp {k}, suit: {('wing', 'flame')[k % 2]}, value: {k % 3 + 1}}}\n" for k in range(40)]
FLOW_EDITS = [  # read without PyYAML: plain words and whole numbers; the rest, values YAML reads otherwise, read by it
    ("name: Moth Lamp 7,", "name: Moth  Lamp seven   ,", True), ("value: 3}", "value: 30 }", True),
    ("{id: f9,", "{ id: f9 ,", True), ("name: Moth Lamp 4,", "name: Moth_Lamp,   extra: 0,", True),
    ("name: Moth Lamp 5,", "name: yes,", False), ("name: Moth Lamp 5,", "name: NULL,", False),
    ("name: Moth Lamp 5,", "name: Off,", False), ("value: 2}", "value: 012}", False), ("value: 2}", "value: 1_0}", False),
    ("value: 2}", "value: -2}", False), ("value: 2}", "value: 2.5}", False), ("value: 2}", "value: 2001-01-01}", False),
    ("suit: wing,", "on: wing,", False), ("suit: wing,", "suit: 'wing',", False), ("suit: wing,", "suit: wing, suit: x,", False),
    ("value: 2}", "value: 2,}", False), ("value: 2}", "value: 2} # a comment", False), ("value: 2}", "value: {a: 1}}", False),
    ("name: Moth Lamp 5,", "name: Mothé,", False), ("value: 2}", "value:2}", False),
]


@pytest.mark.parametrize("edit", range(len(FLOW_EDITS)))
def test_a_flow_card_is_read_without_pyyaml_only_when_it_reads_as_pyyaml_reads_it(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, edit: int) -> None:
    old, new, fast = FLOW_EDITS[edit]
    path = tmp_path / "deck.yaml"
    text = HEAD + "".join(FLOW)
    path.write_text(text, encoding="utf-8")
    load(path)
    edited = text.replace(old, new, 1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    read_by_pyyaml: list[str] = []
    original = yamlsource._Reader.read

    def reading(self: Any, chunk: str) -> Any:
        read_by_pyyaml.append(chunk)
        return original(self, chunk)

    monkeypatch.setattr(yamlsource._Reader, "read", reading)
    tree, problems, spliced = load(path)
    assert (spliced == 1 and not read_by_pyyaml) if fast else read_by_pyyaml  # fast: not one card read by PyYAML
    assert_as_whole(path, tree, problems)


def test_random_edits_of_a_flow_deck_match_the_whole_parse(tmp_path: Path, cache: Path) -> None:
    """Characters changed at random in a deck of one-line cards (the edits read without PyYAML, most of them)."""
    assert random_edits(tmp_path / "deck.yaml", HEAD + "".join(FLOW), "abcYNo XZ 01_:-#{},'\".", 5, 200, len(HEAD)) > 50
