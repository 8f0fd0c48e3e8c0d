"""The Graves table's input logic: building a play from rank and suit taps, abilities, the
unmasking. Plain Python: the table screen shows it, tests drive it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casebook.companion.session import Outcome, Session
from casebook.rules.games import graves as g

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "A"]


@dataclass
class GravesPad:
    session: Session
    rank: str | None = None
    cards: list[tuple[str, str]] = field(default_factory=list)  # (rank, suit id)
    change_trump: bool = False
    discards: int = 0
    message: str = ""
    slums_here: int = 0  # The Slums: the Detective's change of time tokens here and at the next location
    slums_next: int = 0
    guessing: str | None = None  # the identity the Detective tapped, waiting for "sure?" (a guess is final)

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def db(self) -> Any:
        return self.session.db

    def player_to_act(self) -> str | None:
        return self.state.players[self.state.to_act] if self.state.phase == "play" else None

    def tap_rank(self, rank: str) -> None:
        self.rank = None if self.rank == rank else rank

    def tap_suit(self, suit: str) -> None:
        """A suit after a rank adds that card to the play (a second tap on it removes it)."""
        if self.rank is None:
            self.message = "Tap a rank first, then its suit."
            return
        card = (self.rank, suit)
        if card in self.cards:
            self.cards.remove(card)
        else:
            self.cards.append(card)
            if self.state.location.kind == "park_discard" and suit != self.state.location.trump \
                    and g.card_value("A" if self.rank == "A" else int(self.rank)) >= 6:
                self.discards += 1
        self.rank = None
        self.message = ""

    def clear(self) -> None:
        self.rank, self.cards, self.change_trump, self.discards, self.message = None, [], False, 0, ""
        self.slums_here = self.slums_next = 0
        self.guessing = None

    def card_text(self, card: tuple[str, str]) -> str:
        return f"{card[0]} {self.db.suits[card[1]].name}"

    def selection_text(self) -> str:
        if not self.cards:
            return "Tap a rank, then a suit, for each card played."
        extra = " + trump change" if self.change_trump else ""
        loc = self.state.location
        if loc.kind == "no_abilities" and any(r == "2" for r, _ in self.cards):  # why New trump stays greyed
            extra += f" (no trump change at {loc.name})"
        if self.discards:
            extra += f", {self.discards} discarded first"
        return "Play: " + ", ".join(self.card_text(c) for c in self.cards) + extra

    def preview_total(self) -> int | None:
        """What the player's pile here would total with the selected cards."""
        loc = self.state.location
        who = self.state.to_act
        pile = list(loc.piles[who]) + [("A" if r == "A" else int(r), s) for r, s in self.cards]
        trump = loc.trump
        if self.change_trump:
            deuces = [c for c in self.cards if c[0] == "2"]
            trump = deuces[0][1] if deuces else trump
        fake = g.Location(loc.id, loc.name, loc.clocks, loc.kind, loc.printed_trump, trump, loc.time)
        return sum(g.value(c, fake) for c in pile)

    def _finish(self, out: Outcome) -> Outcome:
        self.message = "" if out.ok else out.message
        if out.ok:
            self.clear()
        return out

    def play(self) -> Outcome:
        event: dict[str, Any] = {"action": "play", "by": self.player_to_act(),
                                 "cards": [f"{r} {s}" for r, s in self.cards]}
        if self.change_trump:
            deuces = [s for r, s in self.cards if r == "2"]
            event["change_trump"] = deuces[0] if deuces else True
        if self.state.location.kind == "park_discard":
            event["discards"] = self.discards
        return self._finish(self.session.do(event))

    def reveal_pending(self) -> str | None:
        """At The Bank Vault, before anyone plays: the player who still reveals their deck's top card."""
        state = self.state
        loc = state.location if state.phase == "play" else None
        if loc is None or loc.kind != "reveal_top_card":
            return None
        for p in (state.to_act, 1 - state.to_act):
            if not loc.revealed[p]:
                return str(state.players[p])
        return None

    def reveal_top(self, empty: bool = False) -> Outcome:
        """The top card of the revealing player's deck (the one card tapped), or their deck said empty."""
        who = self.reveal_pending()
        event: dict[str, Any] = {"action": "reveal_top", "by": who}
        if empty:
            event["empty"] = True
        elif len(self.cards) != 1:
            self.message = f"Tap the rank and suit of the card on top of {who}'s deck (one card), or Deck empty."
            return Outcome(False, self.message)
        else:
            event["card"] = f"{self.cards[0][0]} {self.cards[0][1]}"
        return self._finish(self.session.do(event))

    def slums_pending(self) -> bool:
        """At The Slums, before anyone plays: the Detective may still change the time tokens."""
        state = self.state
        loc = state.location if state.phase == "play" else None
        return bool(loc is not None and loc.kind == "slums_time" and not loc.slums_done and not loc.started)

    def slums(self, here: int, following: int) -> Outcome:
        """The Detective's change at The Slums: -1, 0 or +1 token here and at the next location."""
        case = self.state.case
        return self._finish(self.session.do({"action": "slums", "by": self.state.players[case.detective],
                                             "here": here, "next": following}))

    def pass_turn(self) -> Outcome:
        return self._finish(self.session.do({"action": "pass", "by": self.player_to_act()}))

    def abilities(self) -> list[tuple[str, str, str]]:
        """(card, text, effect kind) for ability cards of the player to act that are not on the table."""
        state = self.state
        if state.phase != "play":
            return []
        who = state.to_act
        deck = "detective" if who == state.case.detective else "mastermind"
        on_table = {c for loc in state.locations for c in loc.piles[who]}
        out = []
        for card in self.db.components[deck].cards:
            ability = card.get("ability")
            if ability and ability["timing"] == "discarded" and (card["rank"], card["suit"]) not in on_table:
                out.append((f"{card['rank']} {card['suit']}", str(ability["text"]), ability["effect"]["kind"]))
        return out

    def ability_targets(self, kind: str) -> list[str]:
        loc = self.state.location
        who = self.state.to_act
        owner = 1 - who if kind == "discard_from_opponent_pile" else who
        return [f"{r} {s}" for r, s in loc.piles[owner]]

    def ability_refusal(self, card: str, kind: str, target: str | None = None) -> str | None:
        """Why an ability (on a target, for one that takes a card) cannot be used now, or None: what the rules
        engine would refuse, known from the table alone (the active location, the piles), so the list greys it
        out with this reason instead of offering it. No hand is known to the app: nothing here tells one."""
        loc = self.state.location
        if loc.kind == "no_abilities":
            return f"not at {loc.name}: no ability may be used here"
        if kind in ("discard_from_opponent_pile", "take_back") and target is None:
            return None if self.ability_targets(kind) else "no card here to take"
        event: dict[str, Any] = {"action": "ability", "by": self.player_to_act(), "card": card}
        if target:
            event["target"] = target
        return self.session.check(event)

    def use_ability(self, card: str, target: str | None = None) -> Outcome:
        event: dict[str, Any] = {"action": "ability", "by": self.player_to_act(), "card": card}
        if target:
            event["target"] = target
        out = self.session.do(event)
        self.message = "" if out.ok else out.message
        return out

    def ask_guess(self, identity: str) -> None:
        """The Detective tapped a name: nothing counts until they confirm (the table sees the question first)."""
        self.guessing = identity
        self.message = ""

    def guess_question(self) -> str:
        """'Ann guesses Odile Varnier, the Forger: sure?' while a guess waits, else ''."""
        if self.guessing is None:
            return ""
        names = dict(self.identities())
        detective = self.state.players[self.state.case.detective]
        return f"{detective} guesses {names.get(self.guessing, self.guessing)}: sure?"

    def confirm_guess(self) -> Outcome:
        """Record the guess asked for (the case ends with it)."""
        if self.guessing is None:
            return Outcome(False, "Tap the name the Detective guesses first.")
        out = self.guess(self.guessing)
        self.guessing = None
        return out

    def _case_over(self, out: Outcome, cases_before: int) -> Outcome:
        """An event that ended a case: the table is told at once who the Mastermind was (a notice that stays until
        the next card is tapped; the table keeps a line of it too)."""
        if out.ok and len(self.state.done) > cases_before:
            case = self.state.done[-1]
            names, players = dict(self.identities()), self.state.players
            how = ("revealed early" if case.revealed_early else
                   f"{players[case.detective]} guessed {'right' if case.correct else 'wrong'}")
            self.message = (f"Case {case.number} is over: {players[case.mastermind]} was "
                            f"{names.get(str(case.identity), case.identity)} ({how}).")
        return out

    def guess(self, identity: str) -> Outcome:
        case, before = self.state.case, len(self.state.done)
        return self._case_over(self._finish(self.session.do({"action": "guess", "by": self.state.players[case.detective],
                                                             "identity": identity})), before)

    def reveal(self) -> Outcome:
        case, before = self.state.case, len(self.state.done)
        return self._case_over(self._finish(self.session.do({"action": "reveal",
                                                             "by": self.state.players[case.mastermind]})), before)

    def set_identity(self, identity: str) -> Outcome:
        """The Mastermind's identity card: entered unseen, or shown after the guess (which then ends the case)."""
        case, before = self.state.case, len(self.state.done)
        return self._case_over(self._finish(self.session.do({"action": "identity",
                                                             "by": self.state.players[case.mastermind],
                                                             "identity": identity})), before)

    def identities(self) -> list[tuple[str, str]]:
        return [(c.id, f"{c['name']}, {c['epithet']}") for c in self.db.components["identities"].cards]
