"""New-game forms beyond names, colours and variants: what the players took from the physical game.

A game's NEW_GAME may be a SetupSpec: its `picks` are rows dealt at the table and entered by
name in order (Graves: the five locations), its `secrets` values one player enters unseen by
the others (Graves: the identity card the Mastermind drew). The new-game screen draws both
and adds them to the log's setup under their keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casebook.companion.tables.base import NewGameSpec


@dataclass
class PickInOrder:
    """`count` of a component's cards, picked by name in the order they were dealt."""

    key: str  # the setup key the ids go to ("locations")
    component: str  # the card database component they come from
    count: int
    noun: str  # what they are, plural: "locations"
    title: str  # what the players do: "Tap the locations as dealt, left to right"
    seeded: str | None = None  # if set, the app may deal them from a seed instead; the note for that choice


@dataclass
class SecretEntry:
    """One card a player drew and keeps secret, entered on the phone unseen by the others."""

    key: str  # the setup key ("identity")
    component: str
    player: int  # who enters it: an index into the players
    noun: str  # "identity card"
    what: str  # "the identity card you drew"
    later: str  # what happens if it is left out: "or at the table, before the unmasking"
    choices: list[tuple[str, str]] = field(default_factory=list)  # (id, name) to offer; empty: the component's cards
    into: str = ""  # if set, the value goes to setup[into][the player's name] (Hasty: secrets: {Ann: ...})


@dataclass
class SetupSpec(NewGameSpec):
    picks: list[PickInOrder] = field(default_factory=list)
    secrets: list[SecretEntry] = field(default_factory=list)


def options(db: Any, component: str) -> list[tuple[str, str]]:
    """A component's cards as (id, name), in the database's order."""
    return [(c.id, str(c["name"])) for c in db.components[component].cards]


def pick_grid(choices: list[tuple[str, str]], chosen: list[str], prefix: str, on_pick: Any, game: str = "") -> Any:
    """The cards as buttons, three a row: a picked one shows its place and ignores taps, the others call on_pick(id).
    With `game`, each shows its card's picture (companion/pictures.py) in its corner."""
    from kivy.app import App
    from kivy.lang import Builder
    from kivy.metrics import dp
    from kivy.uix.gridlayout import GridLayout

    from casebook.companion.pictures import picture_for
    from casebook.companion.widgets import button, line_height, top_picture

    grid = GridLayout(cols=3, size_hint_y=None, spacing=dp(4))
    grid.bind(minimum_height=grid.setter("height"))
    for cid, name in choices:
        short = name[4:] if name.startswith("The ") else name
        if cid in chosen:  # in the row already: shown filled with its place; a tap changes nothing
            b = button(f"{chosen.index(cid) + 1}. {short}", f"{prefix}_{cid}", lambda: None)
        else:
            b = button(short, f"{prefix}_{cid}", lambda c=cid: on_pick(c), flat=True)
        app = App.get_running_app()
        if game and app is not None:  # (a table drawn without a window, as the secrets' tests draw it: names only)
            colours = app.colors
            path = picture_for(game, cid)
            top_picture(b, path, colours["text" if b.flat else "button_text"], size=16)  # on top, over the words
            if path:  # every key as tall as two lines under it, tapped or not: the row never moves as it is tapped
                Builder.unbind_property(b, "height")  # the kv rule's: as tall as its words
                b.height = dp(16 + 3) + 2 * line_height(b.font_size) + dp(12)
        grid.add_widget(b)
    return grid


def row_text(names: dict[str, str], chosen: list[str], count: int) -> str:
    """The row picked so far, numbered in order ("1. The Slums · 2. The Park"), or how many are still to pick."""
    return " · ".join(f"{i}. {names[c]}" for i, c in enumerate(chosen, start=1)) or f"Row: none yet (0 of {count})"


def missing(pick: PickInOrder, picked: list[str]) -> str | None:
    """Why a row cannot start a game yet, or None when it is complete."""
    if len(picked) == pick.count:
        return None
    return f"Pick the {pick.count} {pick.noun} in the order they were dealt ({len(picked)} of {pick.count} so far)."
