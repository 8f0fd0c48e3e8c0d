"""The history screen's content: every event described, grouped by case and location (or turn).

Plain Python (no Kivy). The undone events (what Redo brings back) follow the log, marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casebook.rules.engine import IllegalAction
from casebook.rules.log import start


@dataclass
class Line:
    number: int  # the event's number in the log (undone events continue the count)
    text: str
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
    """The log and the undone events, described as they happened, in groups."""
    engine = session.engine
    state = start(session.db, session.log)
    events = [(e, False) for e in session.log.events] + [(e, True) for e in reversed(session.redo_stack)]
    groups: list[Group] = []
    case = None
    for number, (event, undone) in enumerate(events, start=1):
        heading, title = group_titles(engine.summary(state, None))
        if not groups or groups[-1].title != title or heading != case:
            groups.append(Group(title, [], heading if heading != case else ""))
            case = heading
        groups[-1].lines.append(Line(number, engine.describe(state, event), undone))
        try:
            engine.apply(state, event)
        except IllegalAction:  # an undone event read back from a hand-edited save: list it and stop
            break
    return groups
