"""A game in progress: the log, the engine's state, undo and redo, saved after every event.

Plain Python, no Kivy: the screens call it and tests drive it directly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from casebook.companion.store import Store
from casebook.rules.cards import GameDatabase
from casebook.rules.engine import Event, IllegalAction
from casebook.rules.games import GAMES
from casebook.rules.log import GameLog, replay, start


@dataclass
class Outcome:
    ok: bool
    message: str = ""


@dataclass
class Session:
    db: GameDatabase
    log: GameLog
    store: Store | None = None
    game_id: str = ""
    redo_stack: list[Event] = field(default_factory=list)
    state: Any = None
    warning: str | None = None
    draft: dict[str, Any] | None = None  # a table's half-entered input read back on resume (the pad takes it)

    def __post_init__(self) -> None:
        self.engine = GAMES[self.log.game]
        self._rebuild()

    @classmethod
    def new(cls, db: GameDatabase, log: GameLog, store: Store | None) -> Session:
        """A new game; IllegalAction if its setup is wrong. Saved at once."""
        start(db, log)  # raises for a bad setup before anything is written
        session = cls(db, log, store, store.new_id(log.game) if store else "")
        session.save()
        return session

    @classmethod
    def resume(cls, db: GameDatabase, store: Store, game_id: str) -> Session:
        loaded = store.open(game_id)
        if loaded.log is None:
            raise IllegalAction(loaded.notice or "the saved game cannot be read")
        # redo_stack pops the next event to redo; the save lists them in the order Redo brings them back
        session = cls(db, loaded.log, store, game_id, list(reversed(loaded.undone)), warning=loaded.notice)
        if loaded.damaged:
            session.save()  # the recovered version becomes the good copy
        draft = store.open_draft(game_id, session.log)  # after any replay trim: bound to the events kept
        session.draft = draft.data
        if draft.notice:
            session.warning = f"{session.warning} {draft.notice}" if session.warning else draft.notice
        return session

    def _rebuild(self) -> None:
        result = replay(self.db, self.log)
        if result.error is not None:
            # a saved log that no longer replays (edited by hand, or rules changed): keep what replays
            self.warning = f"{result.error}; the game continues from event {result.applied}"
            self.log.events = self.log.events[:result.applied]
        self.state = result.state

    def save(self) -> None:
        if self.store is not None:
            self.store.save(self.game_id, self.log, list(reversed(self.redo_stack)))

    def keep_draft(self, what: str, data: dict[str, Any] | None) -> str | None:
        """Save a half-entered input (`what`, e.g. "Initial Setup") beside the game on every tap; None forgets it.
        A failed write stops nothing: the input goes on in memory, and the sentence returned says so."""
        if self.store is None:
            return None
        try:
            if data:
                self.store.save_draft(self.game_id, self.log, what, data)
            else:
                self.store.clear_draft(self.game_id)
        except OSError as exc:
            return (f"The {what} tapped so far could not be saved ({exc.strerror or exc}): "
                    "it is kept only until the app stops.")
        return None

    # --- actions -----------------------------------------------------------------------------

    def check(self, event: Event) -> str | None:
        return self.engine.check(self.state, event)

    def do(self, event: Event) -> Outcome:
        """Apply and save one event; a refused event changes nothing and says the rule."""
        trial = copy.deepcopy(self.state)
        try:
            self.engine.apply(trial, event)
        except IllegalAction as exc:
            return Outcome(False, str(exc))
        before, self.state = self.state, trial
        self.log.events.append(dict(event))
        self.redo_stack.clear()
        self.save()
        return Outcome(True, self.engine.describe(before, event, trial))

    @property
    def locked(self) -> int:
        """How many events can never be undone: up to the last that showed the table a secret (a Graves
        guess): what was seen cannot be unseen, so it is not undone to be played again."""
        shows = getattr(self.engine, "shows_secret", None)
        if shows is None:
            return 0
        return next((n for n in range(len(self.log.events), 0, -1) if shows(self.log.events[n - 1])), 0)

    def undo(self, steps: int = 1) -> bool:
        steps = min(steps, len(self.log.events) - self.locked)
        if steps < 1:
            return False
        for _ in range(steps):
            self.redo_stack.append(self.log.events.pop())
        self.state = replay(self.db, self.log).state
        self.save()
        return True

    def locked_reason(self) -> str:
        """Why undo stops where it does, for people; empty when nothing is locked."""
        n = self.locked
        if not n:
            return ""
        return f"Event {n} showed the table a secret: it and what came before cannot be undone."

    def redo(self, steps: int = 1) -> bool:
        if not self.redo_stack:
            return False
        for _ in range(min(steps, len(self.redo_stack))):
            trial = copy.deepcopy(self.state)
            try:
                self.engine.apply(trial, self.redo_stack[-1])
            except IllegalAction:  # an undone event read back from a hand-edited save
                self.redo_stack.clear()
                break
            self.state = trial
            self.log.events.append(self.redo_stack.pop())
        self.save()
        return True

    def go_to(self, n: int) -> None:
        """Undo or redo until exactly n events are applied."""
        have = len(self.log.events)
        if n < have:
            self.undo(have - n)
        elif n > have:
            self.redo(n - have)

    # --- reading -----------------------------------------------------------------------------

    def summary(self, viewer: int | None) -> dict[str, Any]:
        return self.engine.summary(self.state, viewer)

    def history(self) -> list[str]:
        """The log, readable: one line an event, numbered from 1 (identities stay hidden)."""
        state = start(self.db, self.log)
        lines = []
        for n, event in enumerate(self.log.events, start=1):
            lines.append(f"{n}. {self.engine.describe(state, event)}")
            self.engine.apply(state, event)
        return lines

    @property
    def is_over(self) -> bool:
        return bool(self.engine.is_over(self.state))
