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

    def setup(self, names: list[str], colours: list[str], variants: list[str]) -> dict[str, Any]:
        return {"colours": colours}


class GameTable:
    """A game's table: a score line and the body's widgets, redrawn from the state summary.

    `pad_class` is the game's input logic (plain Python, built on the session): what has been
    tapped of an action not yet confirmed."""

    pad_class: Any = None

    def __init__(self, app: Any, screen: Any, session: Any):
        self.app, self.screen, self.session = app, screen, session
        self.pad = self.pad_class(session)
        self.message = ""

    def scoreline(self, s: dict[str, Any]) -> str:
        raise NotImplementedError

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        raise NotImplementedError

    def clear(self) -> None:
        """Forget a half-entered action (after undo)."""
        self.pad.clear()
