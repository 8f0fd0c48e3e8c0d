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
    expected, expected_problems = whole(path)
    assert located(tree) == located(expected)
    assert [p.format() for p in problems.items] == expected_problems


def test_random_edits_of_a_larger_deck_match_the_whole_parse(tmp_path: Path, cache: Path) -> None:
    """Characters changed at random in a 60-card deck, one run after another, each checked against a whole parse."""
    rng = random.Random(21)
    path = tmp_path / "deck.yaml"
    text = HEAD + "".join(CARDS[k % len(CARDS)].replace(f"id: c{k % len(CARDS) + 1}", f"id: k{k}") for k in range(60))
    path.write_text(text, encoding="utf-8")
    load(path)
    good, spliced_runs = text, 0
    alphabet = "abc XYZ 01:-#{}[],'\"|>&*!\n"
    for _ in range(150):
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice(alphabet) + text[at + 1:]
        path.write_text(text, encoding="utf-8")
        tree, problems, spliced = load(path)
        expected, expected_problems = whole(path)
        assert located(tree) == located(expected), text
        assert [p.format() for p in problems.items] == expected_problems
        spliced_runs += spliced
        if problems:  # put the file back as it was last read well, so that most edits are of a good file
            text = good
            path.write_text(text, encoding="utf-8")
            load(path)
        good = text
    assert spliced_runs > 10  # the way was taken often, not only refused


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
