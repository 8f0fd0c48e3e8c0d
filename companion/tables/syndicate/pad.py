"""The Syndicate table's input logic: the four cards of a plot picked by rank and suit, a preview
of the totals and the outcome, then one confirmed event. Plain Python: the table screen shows
it, tests drive it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casebook.companion.session import Outcome, Session
from casebook.rules.engine import IllegalAction
from casebook.rules.games import syndicate as sy

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "crown"]
RANK_LABELS = {"A": "A", "crown": "Crown"}
SLOTS = ("lead", "first", "second", "face_down")  # the order the cards are shown at the table


@dataclass
class SyndicatePad:
    session: Session
    slot: str = "lead"
    rank: str | None = None
    picks: dict[str, str] = field(default_factory=dict)  # slot -> card id
    message: str = ""

    @property
    def state(self) -> Any:
        return self.session.state

    def who(self, slot: str) -> str:
        """The player a slot belongs to this turn."""
        st = self.state
        first = st.left_of(st.mastermind)
        return st.players[{"lead": st.mastermind, "face_down": st.mastermind, "first": first,
                           "second": st.left_of(first)}[slot]]

    def slot_title(self, slot: str) -> str:
        return {"lead": f"{self.who('lead')} leads", "first": f"{self.who('first')} plays",
                "second": f"{self.who('second')} plays", "face_down": "Face down"}[slot]

    def card(self, slot: str) -> sy.DCard | None:
        cid = self.picks.get(slot)
        return sy.deck(self.session.db)[cid] if cid else None

    def pick_slot(self, slot: str) -> None:
        """Choose which card the next rank and suit taps name (tap a filled slot again to empty it)."""
        if slot == self.slot and slot in self.picks:
            del self.picks[slot]
        self.slot, self.rank, self.message = slot, None, ""

    def tap_rank(self, rank: str) -> None:
        self.rank = None if self.rank == rank else rank
        self.message = ""

    def tap_suit(self, suit: str) -> None:
        """A suit after a rank names exactly one card (each rank has one card of each suit)."""
        if self.rank is None:
            self.message = "Tap a rank first, then a suit."
            return
        card = sy.parse_card(self.session.db, f"{self.rank} {suit}")
        why = self.barred().get(card.id)
        if why is not None:
            self.message = why
            return
        self.message = ""
        for other, cid in list(self.picks.items()):
            if cid == card.id and other != self.slot:
                del self.picks[other]  # a card is in one place: moving it empties where it was
                self.message = f"The {card.name} moved from {self.slot_title(other)} to {self.slot_title(self.slot)}."
        self.picks[self.slot] = card.id
        self.rank = None
        empty = [s for s in SLOTS[:3] if s not in self.picks]
        self.slot = empty[0] if empty else "face_down"

    def discarded(self) -> set[str]:
        """Ids of the cards in the discard pile as this turn is played (after the draw and any reshuffle)."""
        return set(sy._draw(self.state)[3])

    def barred(self) -> dict[str, str]:
        """The cards the player of the chosen slot cannot play this turn, by id, each with why: in the discard
        pile, shuffled into the draw pile since they last drew, or of a mark or suit they showed they lack by not
        following it (and have drawn nothing since). All of it follows from cards played face up, so saying it
        tells the table nothing it has not seen."""
        st = self.state
        player = st.players.index(self.who(self.slot))
        cards, discarded, who = sy.deck(self.session.db), self.discarded(), self.who(self.slot)
        out = {}
        for cid, reason in sy.unplayable(st, player).items():
            card = cards[cid]
            if cid in discarded:
                out[cid] = f"The {card.name} is in the discard pile: it cannot be played until a reshuffle."
            elif reason.startswith("shuffled"):
                out[cid] = f"The {card.name} was {reason.split(';')[0]}; {who} has drawn none since."
            else:
                out[cid] = self._void(player, card)
        return out

    def _void(self, player: int, card: sy.DCard) -> str:
        """Why an enforcer cannot hold a card: a lead of its mark (an Ace's: its suit) they did not follow."""
        st, db, who = self.state, self.session.db, self.state.players[player]
        for (kind, key), turn in sorted(st.voids[player].items(), key=lambda kv: kv[1]):
            if key in (card.suits if kind == "suit" else card.marks):
                what = db.suits[key].name if kind == "suit" else db.marks[key].name.lower()
                return f"{who} showed no {what} card in turn {turn} and has drawn none since: not the {card.name}."
        return f"{who} cannot hold the {card.name} now."

    def greyed(self) -> dict[str, str]:
        """After the rank tapped, the suits that name a card the slot's player cannot play, each with why."""
        if self.rank is None:
            return {}
        barred = self.barred()
        out = {}
        for suit in self.session.db.suits:
            try:
                card = sy.parse_card(self.session.db, f"{self.rank} {suit}")
            except IllegalAction:
                continue
            if card.id in barred:
                out[suit] = barred[card.id]
        return out

    def out_of_play(self) -> set[str]:
        """The suits the pad greys out after the rank tapped."""
        return set(self.greyed())

    def why_greyed(self, suit: str) -> None:
        """A greyed suit tapped: say why its card cannot be played (a greyed key takes no pick)."""
        self.message = self.greyed().get(suit, "")

    def rank_text(self) -> str:
        return RANK_LABELS.get(self.rank or "", self.rank or "")

    def clear(self) -> None:
        self.slot, self.rank, self.picks, self.message = "lead", None, {}, ""

    def ready(self) -> bool:
        return all(s in self.picks for s in SLOTS[:3])

    def event(self) -> dict[str, Any]:
        names = sy.deck(self.session.db)
        event: dict[str, Any] = {"action": "plot", "by": self.who("lead"), "lead": names[self.picks["lead"]].name,
                                 "enforcers": {self.who(s): names[self.picks[s]].name for s in ("first", "second")}}
        if "face_down" in self.picks:
            event["face_down"] = names[self.picks["face_down"]].name
        return event

    def preview(self) -> dict[str, Any] | None:
        """Totals and outcome of the plot as picked so far (None until the lead and both enforcers' cards)."""
        if not self.ready():
            return None
        try:
            return sy.preview(self.state, self.picks["lead"], self.picks.get("face_down"),
                              [self.picks["first"], self.picks["second"]])
        except IllegalAction:
            return None

    def counts(self, slot: str) -> bool | None:
        """Whether the card in a slot counts towards its side (None if no lead or card yet)."""
        lead, card = self.card("lead"), self.card(slot)
        if lead is None or card is None:
            return None
        return slot == "lead" or sy.follows(lead, card)

    def confirm(self) -> Outcome:
        if not self.ready():
            missing = [self.slot_title(s) for s in SLOTS[:3] if s not in self.picks]
            self.message = "Still to pick: " + ", ".join(missing)
            return Outcome(False, self.message)
        out = self.session.do(self.event())
        if out.ok:
            self.clear()
        return out
