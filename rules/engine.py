"""The engine contract every game follows: events in, state out, illegal events refused with the rule.

A game module (rules/games/<id>.py) provides:
  new_state(db, setup) -> state          a state built from a log header's setup
  apply(state, event) -> None            change the state, or raise IllegalAction
  check(state, event) -> str | None      the reason an event is illegal, without raising
  problems(state) -> list[str]           what is inconsistent in a state, without raising
  view(state, player) -> dict            what one player may see (hidden information removed)
  summary(state) -> dict                 the whole state for replay output (JSON-able)
  report(summary) -> list[str]           that summary as lines for people (the game's own part)
  is_over(state) -> bool, result(state) -> dict
  describe(before, event, after=None) -> str
                                         the event told for people, by name, for the history and for
                                         refusals: `before` is the state the event was applied to, `after`
                                         the state it led to (worked out on a copy when left out; a refused
                                         event is told as written, in the present tense)
and may provide
  shows_secret(event) -> bool            True for an event that shows the table a secret it cannot unsee
                                         (a Graves guess): undo stops before it
Undo is replaying the log without its last events; the log is the history.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Event = dict[str, Any]


@dataclass
class Rule:
    """The rule that forbids something: a readable name and the id of its rules entry."""

    name: str
    id: str = ""


class IllegalAction(ValueError):
    """An event the rules forbid, naming the event, the rule and what is wrong."""

    def __init__(self, reason: str, rule: Rule | None = None, event_no: int | None = None, action: str = ""):
        self.reason, self.rule, self.event_no, self.action = reason, rule, event_no, action
        super().__init__(str(self))

    def located(self, event_no: int, action: str) -> IllegalAction:
        return IllegalAction(self.reason, self.rule, event_no, action)

    def __str__(self) -> str:
        head = ""
        if self.event_no is not None:
            head = f"event {self.event_no}" + (f" ({self.action})" if self.action else "") + ": "
        rule = f"{self.rule.name}: " if self.rule else ""
        return f"{head}{rule}{self.reason}"


def check_on_copy(apply: Callable[[Any, Event], None], state: Any, event: Event) -> str | None:
    """Why an event would be refused, or None: it is applied to a copy, so the state is left as it was."""
    try:
        apply(copy.deepcopy(state), event)
    except IllegalAction as exc:
        return str(exc)
    return None


def state_after(apply: Callable[[Any, Event], None], state: Any, event: Event) -> Any | None:
    """The state an event leads to, on a copy; None if the rules refuse it."""
    after = copy.deepcopy(state)
    try:
        apply(after, event)
    except IllegalAction:
        return None
    return after


def told(apply: Callable[[Any, Event], None], state: Any, event: Event, after: Any | None = None) -> str | None:
    """What an accepted event said for people (its state's `said` lines joined), or None if the rules refuse it:
    the start of describe() in engines that record their own words while applying."""
    if after is None:
        after = state_after(apply, state, event)
    return "; ".join(after.said) if after is not None and after.events > state.events else None


def and_list(items: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


class Unchanging:
    """A value never changed once made (a card, a finished plot): copies of a state share it."""

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


_SCALARS = (int, str, float, type(None))  # and their subclasses (a string read with its place): never changed


def copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy that takes the plain containers a state holds (lists, dicts, sets, tuples of scalars)
    the quick way and leaves everything else to copy.deepcopy."""
    if isinstance(value, _SCALARS):
        return value
    kind = type(value)
    if kind is tuple and all(isinstance(v, _SCALARS) for v in value):
        return value
    if kind is list:
        return [copy_value(v, memo) for v in value]
    if kind is dict:
        return {k: copy_value(v, memo) for k, v in value.items()}
    if kind is set or kind is frozenset:
        return kind(copy_value(v, memo) for v in value)
    return copy.deepcopy(value, memo)


class QuickCopy:
    """A part of a game state whose deep copy takes its plain values the quick way (copy_value)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        clone = type(self).__new__(type(self))
        for name, value in self.__dict__.items():
            setattr(clone, name, copy_value(value, memo))
        return clone


class SharesDatabase:
    """A game state whose deep copy shares its card database (`self.db`), which never changes:
    copies for `check` and undo cost only what the table tracks."""

    db: Any

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        memo[id(self.db)] = self.db
        clone = type(self).__new__(type(self))
        for name, value in self.__dict__.items():
            setattr(clone, name, value if name == "db" else copy_value(value, memo))
        return clone


def action_of(event: Any, actions: Any, rule: Rule) -> str:
    """The action an event names, once it is known to be a mapping with a known 'action'."""
    if not isinstance(event, dict):
        raise IllegalAction("an event is a mapping with 'action' and 'by'", rule)
    action = event.get("action")
    if not isinstance(action, str) or action not in actions:  # a list or mapping is no action (and unhashable)
        raise IllegalAction(f"unknown action '{action}' (actions: {', '.join(actions)})", rule)
    return str(action)
