"""What a template that failed on an empty or missing name read, said in a designer's words.

Jinja2 says `'None' has no attribute 'colour'`; a designer needs `'suit' is empty here (suit.colour)`,
or `card.name: this card has no field 'name' (its fields: title, cost, ...)`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import jinja2
from jinja2 import nodes

# what a card's layout sees, in the order a designer meets them (more in docs/card-database.md, "What a layout sees")
CONTEXT_NAMES = ("card", "suit", "number", "total", "copy", "component", "game", "suits", "marks", "vars", "size", "page")
_ABSENT = object()


def _paths(tree: nodes.Node) -> Iterator[list[str]]:
    """Each dotted name the template reads (`suit.colour`, `card['name']`) as its parts, outermost first."""
    for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Name)):
        parts: list[str] = []
        at: nodes.Node = node
        while isinstance(at, nodes.Getattr | nodes.Getitem):
            if isinstance(at, nodes.Getattr):
                parts.append(at.attr)
            elif isinstance(at.arg, nodes.Const) and isinstance(at.arg.value, str):
                parts.append(at.arg.value)
            else:
                break
            at = at.node
        else:
            if isinstance(at, nodes.Name) and at.ctx == "load":
                yield [at.name, *reversed(parts)]


def _lookup(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(key, _ABSENT)
    return getattr(value, key, _ABSENT)


def available(values: Mapping[str, Any]) -> str:
    """The names a template may read here: those this card or page has a value for."""
    names = [n for n in CONTEXT_NAMES if values.get(n) is not None and n in values]
    return "a name the template context has: " + ", ".join(names) + ", ..."


def explain_undefined(source: str, env: jinja2.Environment, values: Mapping[str, Any]) -> tuple[str, str] | None:
    """(what was empty or missing, what would be right) for a template that failed on it; None if not found."""
    try:
        tree = env.parse(source)
    except jinja2.TemplateSyntaxError:
        return None
    assigned = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    for parts in _paths(tree):
        if parts[0] in assigned or parts[0] in env.globals or len(parts) < 2 and parts[0] in values:
            continue
        value = values.get(parts[0], _ABSENT) if parts[0] in values else _ABSENT
        if value is _ABSENT:
            return f"'{parts[0]}' is not a name a layout knows", available(values)
        for depth, key in enumerate(parts[1:], 1):
            read = ".".join(parts[:depth + 1])
            if value is None:
                empty = ".".join(parts[:depth])
                value_for = ("a suit in this card's field of type suit (its Suit column)" if empty == "suit"
                             else f"a value for '{empty}' on this card")
                return (f"'{empty}' is empty here ({read})",
                        f"{value_for}, or a `when:` that leaves this element out where it is empty "
                        f"(when: \"{{{{ {empty} }}}}\"); {available(values)}")
            found = _lookup(value, key)
            if found is _ABSENT:
                owner = ".".join(parts[:depth])
                if isinstance(value, Mapping):
                    keys = ", ".join(str(k) for k in value if not str(k).startswith("_"))
                    what = "field" if owner == "card" else "key"
                    return (f"{read}: '{owner}' has no {what} '{key}'",
                            f"one of its {what}s: {keys}" + (" (from a spreadsheet: its column's header in lower case, spaces as underscores)"
                                                             if owner == "card" else ""))
                return f"{read}: '{owner}' has no '{key}'", available(values)
            value = found
    return None
