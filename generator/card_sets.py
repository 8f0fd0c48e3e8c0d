"""The set picker: which of a game's card sets a build prints, and the database cut down to them.

A component or card with `sets:` is printed only when one of its sets is chosen; one without
is printed with every choice. No choice means the game's default sets; `all` means every set.
"""

from __future__ import annotations

from dataclasses import replace

from casebook.rules.cards import GameDatabase, in_sets

EVERY_SET = "all"


class SetChoiceError(ValueError):
    """A --set the game cannot print: an unknown set id, or a game without sets."""


def known_sets(db: GameDatabase) -> str:
    """The game's sets for a message: `base (default), advanced, expert`."""
    return ", ".join(f"{s.id} (default)" if s.id in db.default_sets else s.id for s in db.sets.values())


def no_sets(game: str) -> str:
    """Why a game without card sets refuses --set."""
    return f"{game} has no card sets, so --set does not apply to it; leave --set out or name only games that have sets"


def chosen_sets(db: GameDatabase, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The sets to print, in the game's order: `wanted`, or the defaults when it is empty."""
    if not wanted:
        return db.default_sets
    if not db.sets:
        if wanted == (EVERY_SET,):
            return ()
        raise SetChoiceError(no_sets(db.id))
    if EVERY_SET in wanted:
        return tuple(db.sets)
    unknown = [s for s in dict.fromkeys(wanted) if s not in db.sets]
    if unknown:
        which = "sets" if len(unknown) > 1 else "set"
        raise SetChoiceError(f"{db.id} has no card {which} {', '.join(repr(s) for s in unknown)}; "
                             f"its sets: {known_sets(db)}, or {EVERY_SET}")
    return tuple(s for s in db.sets if s in wanted)


def restrict(db: GameDatabase, chosen: tuple[str, ...]) -> GameDatabase:
    """The database with only what the chosen sets print (a game without sets: itself)."""
    if not db.sets:
        return db
    components = {}
    for cid, comp in db.components.items():
        if not in_sets(comp.sets, chosen):
            continue
        cards = [c for c in comp.cards if in_sets(c.sets or comp.sets, chosen)]
        if not cards:
            continue
        if len(cards) != len(comp.cards):
            comp = replace(comp, cards=cards, count=sum(c.copies for c in cards))
        components[cid] = comp
    return replace(db, components=components)
