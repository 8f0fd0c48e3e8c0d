"""Hasty Accusations' input pad: the pile tapped for a play, the card waiting for its choice (no widgets)."""

from __future__ import annotations

from dataclasses import dataclass

from casebook.companion.session import Outcome, Session
from casebook.rules.engine import Event
from casebook.rules.games import hasty


@dataclass
class HastyPad:
    """The half-entered action: the pile tapped for a play, the card waiting for its choice. Plain Python."""

    session: Session
    picked: str | None = None  # the suspect whose pile gets the card
    card: str | None = None  # a card (face up at the loupe, or revealed) waiting for the active player's choice
    message: str = ""

    @property
    def state(self) -> hasty.State:
        return self.session.state

    def active(self) -> str:
        return self.state.players[self.state.active]

    def name(self, sid: str) -> str:
        return self.state.name(sid)

    def cards(self) -> list[hasty.ActionCard]:
        """The action card types of the sets in play, in the database's order."""
        return [c for c in hasty.actions(self.session.db).values() if set(c.sets) & set(self.state.sets)]

    def at_loupe(self) -> bool:
        st = self.state
        return self.picked is not None and self.picked in st.row and st.row.index(self.picked) == st.loupe

    def clear(self) -> None:
        self.picked = self.card = None
        self.message = ""

    # --- taps ----------------------------------------------------------------------------------

    def tap_suspect(self, sid: str) -> Outcome | None:
        """A suspect in the row: the pile to play on (tapped again: let go), or on a tie the pile to review."""
        st = self.state
        self.message = ""
        if self.card is not None and (self.choices(self.card) or ("", []))[0] == "target":
            return self.choose(sid)  # the suspect a waiting card needs
        if st.phase == "pick":
            return self._do({"action": "pick", "by": self.active(), "pile": sid})
        if st.phase != "play" or sid not in st.row:
            return None
        self.card = None
        self.picked = None if self.picked == sid else sid
        return None

    def face_down(self) -> Outcome:
        if self.picked is None:
            return Outcome(False, "Tap the suspect whose pile gets the card first.")
        if self.at_loupe():
            return Outcome(False, f"{self.name(self.picked)} has the loupe: a card played there lies face up, "
                                  "so tap which card it is.")
        return self._do({"action": "play", "by": self.active(), "at": self.picked})

    def tap_card(self, cid: str) -> Outcome | None:
        """A card type: played face up at the loupe, or the next card revealed; None while a choice is due."""
        event = self._card_event(cid)
        if event is None:
            return Outcome(False, "Tap the suspect with the loupe first: a card is named only when played there.")
        options = self.choices(cid)
        if options:
            key, values = options
            why = self.session.check({**event, key: values[0]})
            if why is not None:
                return Outcome(False, why)
            self.card = cid
            return None
        return self._do(event)

    def choose(self, value: str) -> Outcome:
        """The active player's choice for the waiting card: a suspect or a player."""
        if self.card is None:
            return Outcome(False, "No card is waiting for a choice.")
        event = self._card_event(self.card)
        options = self.choices(self.card)
        assert event is not None and options is not None
        return self._do({**event, options[0]: value})

    def stuck(self, cid: str) -> Outcome:
        """No card in hand can be played anywhere: the one discarded."""
        return self._do({"action": "stuck", "by": self.active(), "card": cid})

    # --- what the taps add up to ----------------------------------------------------------------

    def choices(self, cid: str) -> tuple[str, list[str]] | None:
        """The choice a card needs now and its options (as the engine takes them), or None."""
        card = hasty.actions(self.session.db)[cid]
        st = self.state
        here = st.review.suspect if st.phase == "reveal" and st.review else self.picked
        if card.choice == "target":
            options = [s for s in st.row if s != here] if card.op == "move_under" else list(st.row)
            return ("target", options) if options else None
        if card.choice == "player":
            others = [st.players[p] for p in st.players_in() if p != st.active]
            return ("player", others) if others else None
        return None

    def _card_event(self, cid: str) -> Event | None:
        st = self.state
        if st.phase == "reveal":
            return {"action": "reveal", "by": self.active(), "card": cid}
        if st.phase == "play" and self.at_loupe():
            return {"action": "play", "by": self.active(), "at": self.picked, "card": cid}
        return None

    def _do(self, event: Event) -> Outcome:
        outcome = self.session.do(event)
        if outcome.ok:
            self.picked = self.card = None
        return outcome

    def prompt(self) -> str:
        """One line on what the table does next, under the row."""
        st = self.state
        who = self.active()
        if st.phase == "over":
            return ""
        if st.phase == "pick":
            return f"[b]{who}[/b] picks the pile to review: tap " + " or ".join(self.name(s) for s in st.tied)
        if st.phase == "reveal" and st.review is not None:
            return (f"[b]Review of {self.name(st.review.suspect)}[/b]: {who} reveals the next card, top down "
                    f"({st.review.pos + 1} left)")
        if self.card is not None:
            card = hasty.actions(self.session.db)[self.card]
            which = "tap a suspect" if card.choice == "target" else "tap a player above"
            return f"[b]{who}[/b] chooses for {card.name}: {which}"
        if self.picked is None:
            return f"[b]{who}[/b]: tap the pile to play on"
        if self.at_loupe():
            return (f"[b]{who}[/b] plays face up at the loupe on [b]{self.name(self.picked)}[/b]: tap the card "
                    "(its effect happens now)")
        return f"[b]{who}[/b] plays face down on [b]{self.name(self.picked)}[/b]: tap Face down"
