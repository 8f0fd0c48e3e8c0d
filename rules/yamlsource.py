"""Read YAML safely and keep where every value came from; duplicate keys are errors.

PyYAML silently keeps the last of two equal keys; we compose the node tree ourselves
so that a duplicate, and every later problem, can name its file, line and column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules.problems import Place, Problems

# libyaml's parser (bundled with PyYAML's wheels) keeps the same marks and is ~10x faster
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Node(dict):
    """A YAML mapping that remembers its own place and the place of each key and value."""

    place: Place
    key_places: dict[str, Place]
    value_places: dict[str, Place]

    def key_place(self, key: str) -> Place:
        return self.key_places.get(key, self.place)

    def value_place(self, key: str) -> Place:
        return self.value_places.get(key, self.key_place(key))


class Seq(list):
    """A YAML sequence that remembers its own place and each item's place."""

    place: Place
    item_places: list[Place]

    def item_place(self, index: int) -> Place:
        if 0 <= index < len(self.item_places):
            return self.item_places[index]
        return self.place


class Text(str):
    """A YAML string scalar that remembers where it began and how it was written."""

    place: Place
    style: str | None


def _place(path: str, node: yaml.Node) -> Place:
    mark = node.start_mark
    return Place(path, mark.line + 1, mark.column + 1)


class _Builder:
    def __init__(self, path: str, problems: Problems):
        self.path = path
        self.problems = problems
        self.constructor = yaml.SafeLoader("")

    def build(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node)
        if isinstance(node, yaml.SequenceNode):
            seq = Seq(self.build(item) for item in node.value)
            seq.place = _place(self.path, node)
            seq.item_places = [_place(self.path, item) for item in node.value]
            return seq
        value = self.constructor.construct_object(node, deep=True)
        if isinstance(value, str):
            text = Text(value)
            text.place = _place(self.path, node)
            text.style = node.style if isinstance(node, yaml.ScalarNode) else None
            return text
        return value

    def mapping(self, node: yaml.MappingNode) -> Node:
        self.constructor.flatten_mapping(node)  # resolves `<<: *anchor` merges
        out = Node()
        out.place = _place(self.path, node)
        out.key_places = {}
        out.value_places = {}
        for key_node, value_node in node.value:
            key = self.build(key_node)
            if not isinstance(key, str | int | float | bool) or key is None:
                self.problems.add(_place(self.path, key_node), "a key must be a plain word", "key: value")
                continue
            skey = str(key)
            if skey in out:
                first = out.key_places[skey]
                self.problems.add(
                    _place(self.path, key_node),
                    f"duplicate key '{skey}' (first given at line {first.line})",
                    "each key once per mapping; PyYAML would silently keep the last",
                )
                continue
            out[skey] = self.build(value_node)
            out.key_places[skey] = _place(self.path, key_node)
            out.value_places[skey] = _place(self.path, value_node)
        return out


def load_yaml(path: Path, problems: Problems) -> Any:
    """Load one YAML document with places; on a syntax error, add it and return None."""
    spath = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.add(Place(spath), "file not found")
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(Place(spath), f"cannot read file: {exc}", "a UTF-8 text file")
        return None
    return parse_yaml(text, spath, problems)


def parse_yaml(text: str, spath: str, problems: Problems) -> Any:
    """Parse YAML text named `spath` (for messages) with places, adding problems instead of raising."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = Place(spath, mark.line + 1, mark.column + 1) if mark else Place(spath)
        what = exc.problem or str(exc)
        if exc.context:
            what = f"{exc.context}, {what}"
            if exc.context_mark and mark and exc.context_mark.line != mark.line:
                what += f" (it began at line {exc.context_mark.line + 1})"
        problems.add(place, f"YAML syntax: {what}", "valid YAML (check indentation, colons and quotes)")
        return None
    except yaml.YAMLError as exc:
        problems.add(Place(spath), f"YAML: {exc}")
        return None
    if node is None:
        return None
    try:
        return _Builder(spath, problems).build(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = Place(spath, mark.line + 1, mark.column + 1) if mark else Place(spath)
        problems.add(place, f"YAML: {getattr(exc, 'problem', None) or exc}")
        return None


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
