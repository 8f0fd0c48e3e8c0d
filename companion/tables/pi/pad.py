"""The P.I. table's input logic: the deal (by the app from the seed, or entered tile by tile from the
table), each case entered by its holder alone, and a turn in two or three taps (a district, an
evidence card, or a suspect, crime and district to solve) with the engine's answer told large.
Plain Python: the table screen shows it, tests drive it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casebook.companion.session import Outcome, Session
from casebook.rules.games import pi

MODES = ("investigate", "evidence", "solve")
SLOTS = ("suspect", "crime")  # the two tiles of a district, entered in this order


@dataclass
class PiPad:
    session: Session
    mode: str = "investigate"
    target: str | None = None  # the district or evidence card picked for this turn
    picks: dict[str, str] = field(default_factory=dict)  # a solve: kind -> element id
    drawing: bool = False  # the evidence card is picked and confirmed: which card refills the display?
    answer: str = ""  # the last answer, told large while its event is the last one
    answer_at: int = -1  # how many events the log held when it was told
    message: str = ""
    # the deal entered from the table
    entering_deal: bool = False
    tiles: list[tuple[str | None, str | None]] = field(default_factory=list)  # in district order, as entered
    slot: int = 0  # 0: the district's suspect tile next, 1: its crime tile
    half: tuple[str | None, str | None] | None = None  # the current district's suspect tile, before its crime
    display: list[str] = field(default_factory=list)
    # a case entered by its holder alone
    case_by: int | None = None
    case: dict[str, str] = field(default_factory=dict)

    @property
    def state(self) -> pi.State:
        return self.session.state

    @property
    def city(self) -> pi.City:
        return pi.city(self.session.db)

    def name(self, e: str | None) -> str:
        return self.city.name[e] if e else "none"

    def player(self) -> str:
        return self.state.players[self.state.current]

    # --- the turn ------------------------------------------------------------------------------

    def tap_mode(self, mode: str) -> None:
        if mode != self.mode:
            self.mode, self.target, self.picks, self.drawing = mode, None, {}, False
        self.message = ""

    def tap_district(self, district: str) -> None:
        """A district on the map: where to investigate, or (solving) the district named."""
        self.message = ""
        if self.mode == "solve":
            self.tap_solve("location", district)
        else:
            self.mode, self.target, self.drawing = "investigate", district, False

    def tap_card(self, card: str) -> None:
        """An evidence card on display (or, once confirmed from a table deal, the card drawn to refill it)."""
        self.message = ""
        if self.drawing:
            self.drawing = False
            self._take_evidence(card)
            return
        self.mode, self.target = "evidence", card

    def tap_solve(self, kind: str, e: str) -> None:
        self.mode, self.message = "solve", ""
        if self.picks.get(kind) == e:
            del self.picks[kind]
        else:
            self.picks[kind] = e

    def solve_step(self) -> str:
        """The kind the solve pad asks for next: suspect, crime, then location."""
        return next((k for k in pi.KINDS if k not in self.picks), "location")

    def draws_named(self) -> bool:
        """Whether this mini-game was dealt at the table: each card drawn to refill the display is named."""
        deals = [e for e in self.session.log.events if e.get("action") == "deal"]
        return bool(deals) and "display" in deals[-1]

    def deck_cards(self) -> list[str]:
        """The cards the refill may be drawn from: the deck, or the discards it will be shuffled from (the
        card just taken among them when it earns a disc or cube, as it is discarded before the reshuffle)."""
        return pi.refill_cards(self.state, self.target) if self.target else list(self.state.deck)

    def preview(self) -> str:
        """What Confirm will record, in words (never the answer: that is told once it is recorded)."""
        who = self.player()
        if self.drawing:
            return f"Which card did {who} draw to refill the display?"
        if self.mode == "investigate":
            return f"{who} investigates {self.name(self.target)}" if self.target else \
                f"{who}: tap a district to investigate (* where you have one)"
        if self.mode == "evidence":
            return f"{who} takes the {self.name(self.target)} evidence card" if self.target else \
                f"{who}: tap an evidence card to take"
        named = ", ".join(self.name(self.picks[k]) for k in pi.KINDS if k in self.picks)
        step = {"suspect": "a suspect", "crime": "a crime", "location": "a district"}[self.solve_step()]
        if len(self.picks) == 3:
            return f"{who} names {named}"
        return f"{who} solves: {named + '; ' if named else ''}tap {step}"

    def ready(self) -> bool:
        return len(self.picks) == 3 if self.mode == "solve" else self.target is not None

    def confirm(self) -> Outcome:
        """Record the turn picked; the answer the case holder gives is told in `answer`."""
        st = self.state
        if not self.ready():
            self.message = {"investigate": "Tap a district first.", "evidence": "Tap an evidence card first.",
                            "solve": "Name a suspect, a crime and a district first."}[self.mode]
            return Outcome(False, self.message)
        who = self.player()
        if self.mode == "investigate":
            assert self.target is not None
            if st.investigators_left[st.current] == 0:
                return self._refused(f"{who} has no investigators left (five for the whole game)")
            told = pi.answer_for(st, st.current, "investigate", self.target)["text"]
            return self._record({"action": "investigate", "by": who, "district": self.target}, told)
        if self.mode == "evidence":
            assert self.target is not None
            if self.draws_named() and self.deck_cards():
                self.drawing = True
                self.message = f"Which card did {who} draw to refill the display? Tap it below."
                return Outcome(True, "")
            return self._take_evidence(None)
        event = {"action": "solve", "by": who, **self.picks}
        named = [self.picks[k] for k in pi.KINDS]
        out = self.session.do(event)
        if out.ok:
            a = self.state.last_answer or {}
            if a.get("right"):
                points = self.state.points[st.current][st.mini - 1]
                told = f"{who}: right! {', '.join(self.name(e) for e in named)}: {points} points."
                if self.state.phase == "play":  # the mini-game goes on: clear your pieces; at its end the board is
                    told += " Remove your cubes; your discs go on the three tiles named"  # cleared, the game's end too
            else:
                told = f"{who}: wrong. Penalty counter down one (-{pi.PENALTY}); play goes on"
            self._done(told)
        return out

    def _take_evidence(self, drawn: str | None) -> Outcome:
        st = self.state
        assert self.target is not None
        told = pi.answer_for(st, st.current, "evidence", self.target)["text"]
        event: dict[str, Any] = {"action": "evidence", "by": self.player(), "card": self.target}
        if drawn is not None:
            event["draw"] = drawn
        return self._record(event, told)

    def _record(self, event: dict[str, Any], told: str) -> Outcome:
        out = self.session.do(event)
        if out.ok:
            self._done(told)
        else:
            self.drawing = False
            self.message = out.message
        return out

    def _refused(self, why: str) -> Outcome:
        self.message = why
        return Outcome(False, why)

    def _done(self, told: str) -> None:
        self.target, self.picks, self.drawing, self.message = None, {}, False, ""
        self.mode = "investigate"
        self.tell(told)

    def tell(self, told: str) -> None:
        self.answer, self.answer_at = told, len(self.session.log.events)

    def told(self) -> str:
        """The answer to the last event, while it is the last (an undo takes it away)."""
        return self.answer if self.answer_at == len(self.session.log.events) else ""

    def pass_turn(self) -> Outcome:
        out = self.session.do({"action": "pass", "by": self.player()})
        if out.ok:
            self._done(out.message)
        return out

    def misled(self, player: str) -> Outcome:
        """The misled player scores 7 this mini-game, the holder of their case 0 (the rulebook's misleading)."""
        out = self.session.do({"action": "misled", "by": player})
        if out.ok:
            self._done(out.message)
        return out

    # --- the deal --------------------------------------------------------------------------------

    def deal_by_seed(self) -> Outcome:
        out = self.session.do({"action": "deal"})
        if out.ok:
            self.clear()
            self.tell("Lay out the tiles as All tiles shows; hold your button to see the case you hold.")
        return out

    def start_deal(self) -> None:
        self.entering_deal, self.tiles, self.slot, self.display, self.message = True, [], 0, [], ""

    def deal_district(self) -> str | None:
        """The district whose tile is asked next (None once all 14 are entered)."""
        districts = self.city.districts
        return districts[len(self.tiles)] if len(self.tiles) < len(districts) else None

    def tile_choices(self) -> list[str | None]:
        """The tiles still to place in the current slot (None: a 'No Suspect' / 'No Crime' tile, while one is left)."""
        c, kind = self.city, SLOTS[self.slot]
        placed = [t[self.slot] for t in self.tiles]
        left: list[str | None] = [e for e in c.of_kind(kind) if e not in placed]
        blanks = len(c.districts) - len(c.of_kind(kind)) - sum(p is None for p in placed)
        return left + ([None] if blanks > 0 else [])

    def tap_tile(self, e: str | None) -> None:
        if self.deal_district() is None or e not in self.tile_choices():
            return
        self.message = ""
        if self.slot == 0:
            self.half, self.slot = (e, None), 1
        else:
            assert self.half is not None
            self.tiles.append((self.half[0], e))
            self.half, self.slot = None, 0

    def take_back_tile(self) -> None:
        if self.slot == 1:
            self.half, self.slot = None, 0
        elif self.tiles:
            s, _k = self.tiles.pop()
            self.half, self.slot = (s, None), 1

    def tap_display(self, e: str) -> None:
        if e in self.display:
            self.display.remove(e)
        elif len(self.display) < pi.DISPLAY:
            self.display.append(e)

    def confirm_deal(self) -> Outcome:
        if self.deal_district() is not None or len(self.display) != pi.DISPLAY:
            self.message = (f"Enter every district's tiles ({len(self.tiles)} of {len(self.city.districts)} so far) "
                            f"and the {pi.DISPLAY} evidence cards on display ({len(self.display)} so far).")
            return Outcome(False, self.message)
        districts = self.city.districts
        tiles = {d: [s or "none", k or "none"] for d, (s, k) in zip(districts, self.tiles, strict=True)}
        out = self.session.do({"action": "deal", "tiles": tiles, "display": list(self.display)})
        if out.ok:
            self.clear()
            self.tell(f"Mini-game {self.state.mini} dealt: each player now enters the case they hold, alone.")
        else:
            self.message = out.message
        return out

    # --- a case, entered by its holder alone --------------------------------------------------

    def open_case(self, player: int) -> None:
        self.case_by, self.case, self.message = player, {}, ""

    def tap_case(self, kind: str, e: str) -> None:
        if self.case.get(kind) == e:
            del self.case[kind]
        else:
            self.case[kind] = e

    def close_case(self) -> None:
        """Close the holder's page, and with it any refusal said on it (it may name a card another player holds)."""
        if self.case_by is not None:
            self.message = ""
        self.case_by, self.case = None, {}

    def confirm_case(self) -> Outcome:
        if self.case_by is None or len(self.case) != 3:
            return Outcome(False, "Tap the suspect, the crime and the district on the three case cards you hold.")
        who = self.state.players[self.case_by]
        out = self.session.do({"action": "case", "by": who, **self.case})
        if out.ok:
            self.close_case()
        else:  # said on the holder's page alone, where only they look: it goes when the page closes
            self.message = out.message
        return out

    # --- the frame -------------------------------------------------------------------------------

    def has_draft(self) -> bool:
        return bool(self.target or self.picks or self.drawing or self.case_by is not None
                    or self.entering_deal and (self.tiles or self.display or self.slot))

    def clear(self) -> None:
        self.mode, self.target, self.picks, self.drawing, self.message = "investigate", None, {}, False, ""
        self.entering_deal, self.tiles, self.slot, self.display, self.half = False, [], 0, [], None
        self.close_case()
