"""What the frame needs from a game's table: the new-game form and the table's widgets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class NewGameSpec:
    """The new-game screen for one game: how many players, which variants, whether a seed deals."""

    players: int
    names: list[str]
    players_note: str
    variants: dict[str, str] = field(default_factory=dict)
    exclusive: list[tuple[str, str]] = field(default_factory=list)  # variants that rule each other out
    seed_note: str | None = None  # None: the game deals nothing the app must know
    min_players: int = 0  # the form may go down to this many players (0: exactly `players`)
    max_players: int = 0  # and up to this many (0: exactly `players`); `names` gives one default each
    palette: dict[str, str] = field(default_factory=dict)  # colour id -> hex to pick from (empty: the app's)
    one_of: tuple[str, ...] = ()  # toggles of which one is always played (the first when none is ticked): the form
    # shows the first ticked then, and the last played cannot be unticked

    def setup(self, names: list[str], colours: list[str], variants: list[str]) -> dict[str, Any]:
        return {"colours": colours}


class GameTable:
    """A game's table, redrawn from the state summary after every tap.

    The frame (TableScreen) lays out what a game returns: `scoreline` on top, `widgets` (the state,
    scrolling), `pad` (the input, fixed under the state), `actions` (the buttons that record an
    event, in a fixed bar that is always visible). `secrets` names what only one player may see:
    the frame shows it behind a "hold to see" button for that player and never on the table.
    `pad_class` is the game's input logic (plain Python, built on the session): what has been
    tapped of an action not yet confirmed."""

    pad_class: Any = None
    secrets_after: int | None = None  # how many of `widgets` come before the "hold to see" row (None: all)

    def __init__(self, app: Any, screen: Any, session: Any):
        self.app, self.screen, self.session = app, screen, session
        self.pad = self.pad_class(session)
        self.message = ""

    def scoreline(self, s: dict[str, Any]) -> str:
        raise NotImplementedError

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        raise NotImplementedError

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        """The input pad (ranks, suits, what is picked so far): fixed below the state."""
        return []

    def actions(self, s: dict[str, Any]) -> list[Any]:
        """The buttons of the fixed action bar (Play, Pass, Confirm, Clear...)."""
        return []

    def secrets(self, s: dict[str, Any]) -> dict[str, str]:
        """What one player alone may see now, by player name (the summary `s` is the referee's, whole)."""
        return {}

    def secret_pictures(self, s: dict[str, Any]) -> dict[str, list[str]]:
        """The pictures of what `secrets` names, by player (companion/pictures.py): shown only in the hold's view,
        never on the table."""
        return {}

    def secret_actions(self, s: dict[str, Any]) -> list[Any]:
        """Buttons beside the "hold to see" ones for what one player enters alone (the identity drawn)."""
        return []

    def _tap(self, tap: Any, *args: Any) -> None:
        """A tap on the pad: an event's outcome shown (a refusal in the engine's words), else a redraw."""
        self.screen.say("")
        outcome = tap(*args)
        if outcome is None:
            self.screen.refresh()
        else:
            self.screen.do(outcome)

    def _line(self, text: str) -> Any:
        """One line of what to do or what just happened, in a place of its own that never grows: a long one
        wraps and scrolls there, its text never smaller than 14 sp."""
        from kivy.metrics import sp

        from casebook.companion.theme import rgba
        from casebook.companion.widgets import WrapLine

        return WrapLine(text=text, font_size=self.app.fs * sp(14), color=rgba(self.app.colors["text"]))

    def has_draft(self) -> bool:
        """Whether an action is half entered (Back clears it before leaving the table)."""
        return False

    def clear(self) -> None:
        """Forget a half-entered action (after undo, or on Back)."""
        self.pad.clear()
        self.message = ""
