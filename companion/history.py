"""The history screen's content: every event described, grouped by case and location (or turn).

Plain Python (no Kivy). The undone events (what Redo brings back) follow the log as numbered places with no
words: an undone event is no longer part of the game, and the one shared screen must not keep what it said (an
undone guess would still tell the Mastermind's identity). Redo brings an event back with its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casebook.rules.log import start


@dataclass
class Line:
    number: int  # the event's number in the log (undone events continue the count)
    text: str  # "" for an undone event: what it said is not shown
    undone: bool = False


@dataclass
class Group:
    title: str  # "The Station", "Turn 3"; "" when the game has no grouping
    lines: list[Line]
    heading: str = ""  # set on the first group of a new case: "Case 1: Ann Detective, Ben Mastermind"


def group_titles(s: dict[str, Any]) -> tuple[str, str]:
    """Where the table stands before an event: the engine's own `group` (heading, title) if it gives one (Graves:
    the case and the location; Clash: the stage and its step), else ("", the turn)."""
    if "group" in s:
        heading, title = s["group"]
        return str(heading), str(title)
    if "turn" in s:
        return "", f"Turn {s['turn']}"
    return "", ""


def history(session: Any) -> list[Group]:
    """The events in force, described as they happened, in groups; then the undone ones, numbered, with no text."""
    engine = session.engine
    state = start(session.db, session.log)
    groups: list[Group] = []
    case = None
    for number, event in enumerate(session.log.events, start=1):
        heading, title = group_titles(engine.summary(state, None))
        if not groups or groups[-1].title != title or heading != case:
            groups.append(Group(title, [], heading if heading != case else ""))
            case = heading
        groups[-1].lines.append(Line(number, engine.describe(state, event)))
        engine.apply(state, event)
    first = len(session.log.events) + 1
    undone = [Line(n, "", undone=True) for n in range(first, first + len(session.redo_stack))]
    if undone:  # neither the words nor the case or location they fell in (a new case would tell a guess was made)
        groups.append(Group("Undone", undone))
    return groups
