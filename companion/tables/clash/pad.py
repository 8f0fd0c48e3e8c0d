"""Clash of Minds' input pad: what is tapped of an action not yet recorded (plain Python, no widgets)."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from casebook.companion.session import Outcome, Session
from casebook.rules.engine import Event, IllegalAction
from casebook.rules.games import clash

TAKE_WORDS = {"play": "Put into play", "draw": "Draw one", "use": "Use one", "support": "Add support",
              "skip": "Skip"}


@dataclass
class ClashPad:
    """The half-entered action, plain Python: the plan being laid, the Initial Setup's threads and names,
    a card picked for play, a card being used and its effect's choices, a Final Turn card revealed."""

    session: Session
    plan: list[str] = field(default_factory=list)  # crime plan cards tapped, thread 1 first (Moriarty alone)
    laid: list[tuple[str, int]] = field(default_factory=list)  # Initial Setup: (side, thread) face down, in order
    named: list[str] = field(default_factory=list)  # the same cards named once turned up
    card: str | None = None  # a card from the hand picked to put into play
    mode: str | None = None  # "support", "use" or "agent": an optional action chosen, its card/thread next
    using: tuple[int, str] | None = None  # the card being used: (thread index, card id)
    agent: str | None = None  # the agent being activated
    choice: dict[str, Any] = field(default_factory=dict)  # the effect's choices so far (target, to, discarded)
    action_card: str | None = None  # Final Turn: the Action Card just turned over
    take: str | None = None  # ... and the action taken with it (play, use) waiting for its card
    discarding: dict[str, list[str]] = field(default_factory=dict)  # Archiving: cards a side discards from hand
    message: str = ""
    restoring: bool = False  # the saved draft being tapped in again: not a new tap to save

    def __post_init__(self) -> None:
        if self.session.draft:
            self._restore(self.session.draft)

    # --- the half-entered plan and Initial Setup, kept beside the save on every tap -----------------

    def draft(self) -> dict[str, Any]:
        """What a killed app must not lose: the plan tapped so far (Moriarty's alone), the setup laid and named."""
        return {key: value for key, value in (("plan", list(self.plan)), ("laid", [list(x) for x in self.laid]),
                                              ("named", list(self.named))) if value}

    def keep(self) -> None:
        """Save the draft beside the game (or forget it once empty): called after every tap that changes it."""
        if self.restoring:
            return
        failed = self.session.keep_draft("Initial Setup" if self.laid else "Crime Plan", self.draft() or None)
        if failed:
            self.message = failed

    def _restore(self, draft: dict[str, Any]) -> None:
        """Tap the saved draft in again through the pad's own checks; one that does not fit the game is left out.
        The plan comes back only to Moriarty's own page: nothing of it shows on the table."""
        self.session.draft, self.restoring = None, True
        try:
            for pid in draft.get("plan", []):
                if str(pid) in self.cards.plans and self.need() == "plan":
                    self.tap_plan(str(pid))
            for side, thread in draft.get("laid", []):
                if self.need() == "lay" and side == self.side() and thread in (0, 1, 2):
                    self.tap_thread(int(thread))
            for cid in draft.get("named", []):
                if self.need() == "name" and str(cid) in self.cards.influence[self.laid[len(self.named)][0]]:
                    self.tap_card(str(cid))
            fits = self.draft() == draft
        except (TypeError, ValueError, KeyError):  # a draft of the right seal but another shape (hand-edited)
            fits = False
        finally:
            self.restoring = False
        if not fits:
            self.plan, self.laid, self.named = [], [], []
            self.message = "The half-entered input saved for this game does not fit it and is left out: tap it in again."
            self.keep()
        elif self.laid:
            self.message = (f"The Initial Setup as tapped before the app stopped is back: {len(self.laid)} of 6 laid"
                            + (f", {len(self.named)} named." if self.named else "."))

    @property
    def state(self) -> clash.State:
        return self.session.state

    @property
    def cards(self) -> clash.Cards:
        return clash.cards(self.session.db)

    def who(self, side: str) -> str:
        return self.state.name(side)

    def side(self) -> str:
        """The side that acts next (the next to lay a setup card, the next to reveal)."""
        st = self.state
        if st.phase == "plan":
            return "moriarty"
        if st.phase == "setup":
            k = len(self.laid) if len(self.laid) < 6 else len(self.named)
            return st.first if k % 2 == 0 else clash.other(st.first)
        if st.phase == "final_reveal":
            return clash._next_revealer(st)
        if st.phase == "site":
            return st.first
        return st.active

    def clear(self) -> None:
        had = self.plan or self.laid or self.named
        self.plan, self.laid, self.named, self.card, self.mode, self.using, self.agent = [], [], [], None, None, \
            None, None
        self.choice, self.action_card, self.take, self.discarding, self.message = {}, None, None, {}, ""
        if had:
            self.keep()

    def clear_action(self) -> None:
        """Let go of the action being entered (not the Initial Setup laid so far)."""
        self.card = self.mode = self.using = self.agent = self.action_card = self.take = None
        self.choice, self.message = {}, ""

    def has_draft(self) -> bool:
        return bool(self.plan or self.laid or self.card or self.mode or self.using or self.agent or self.action_card
                    or any(self.discarding.values()))

    # --- what the cards are ------------------------------------------------------------------------

    def designs(self, side: str) -> list[clash.Influence]:
        return list(self.cards.influence[side].values())

    def playable(self, side: str, cid: str) -> bool:
        """Whether a copy of the card may still be in the hand: not every copy is seen on the table or discarded."""
        seen = len(clash._seen(self.state, side, cid)) + self.discarding.get(side, []).count(cid)
        seen += sum(1 for (s, _t), n in zip(self.laid, self.named, strict=False) if s == side and n == cid)
        return seen < self.cards.influence[side][cid].copies

    def in_play(self, side: str, ok: Any = None) -> list[tuple[int, str]]:
        """A side's cards in play as (thread index, card id), thread by thread, those `ok` allows."""
        return [(i, p.id) for i, th in enumerate(self.state.tables[side].threads) for p in th if ok is None or ok(p)]

    def op_now(self) -> str | None:
        """The effect op whose choices are being entered: the used card's or the agent's (None: no choice)."""
        if self.agent is not None:
            return str(self.cards.agents[self.side()][self.agent].op)
        if self.using is not None and self.state.site_op() != "no_effects":
            return str(self.cards.influence[self.side()][self.using[1]].op)
        return None

    def targets(self) -> list[tuple[int, str]]:
        """Who the effect may pick: (thread index, card id) of the owner the op names."""
        op, me = self.op_now(), self.side()
        foe = clash.other(me)
        found: list[tuple[int, str]] = []
        if op == "move_own":
            found = self.in_play(me)
        elif op == "recall":
            found = self.in_play(me, lambda p: not p.used)
        elif op == "move_opponent":
            found = self.in_play(foe)
        elif op == "cancel":
            found = self.in_play(foe, lambda p: p.used and not p.distracted)
        if op in ("move_own", "recall") and self.using in found:
            found.remove(self.using)  # another card than the one used
        return found

    def target_side(self) -> str:
        return self.side() if self.op_now() in ("move_own", "recall") else clash.other(self.side())

    def need(self) -> str | None:
        """What the pad waits for next: plan, site, lay, name, card, thread, use, target, to, discarded,
        agent, bonus, action_card, take; None when nothing is half entered (or the phase needs no tap)."""
        st = self.state
        if st.phase == "plan":
            return "plan"
        if st.phase == "site":
            return "site"
        if st.phase == "setup":
            return "lay" if len(self.laid) < 6 else ("name" if len(self.named) < 6 else None)
        if st.phase == "final_place":
            return None
        if st.phase == "final_reveal" and self.mode != "agent":  # an Agent may act before the card is revealed
            if self.action_card is None:
                return "action_card"
            if self.take is None:
                return "take"
            if self.take == "play":
                return "card"
        if self.agent is None and self.mode == "agent":
            return "agent"
        if self.using is None and (self.mode == "use" or self.take == "use"):
            return "use"
        if self.using is not None or self.agent is not None:
            return self._effect_need()
        if self.mode == "support":
            return "thread"
        if st.phase == "turns":
            return "thread" if self.card else ("card" if self.must_play() else None)
        return None

    def _effect_need(self) -> str | None:
        op = self.op_now()
        if op == "bonus" and "thread" not in self.choice:
            return "bonus"
        if op in ("move_own", "move_opponent", "cancel", "recall") and "target" not in self.choice and self.targets():
            return "target"
        if op in ("move_own", "move_opponent") and "target" in self.choice and "to" not in self.choice:
            return "to"
        foe = clash.other(self.side())
        if op == "discard" and "discarded" not in self.choice and self.state.tables[foe].hand:
            return "discarded"
        return None

    def barred(self) -> set[str]:
        """The optional actions the Stage's site forbids (Waterloo: no draw; Whitechapel: no support)."""
        return {"no_draw": {"draw"}, "no_support": {"support"}}.get(str(self.state.site_op()), set())

    def replace_agent(self, side: str) -> Outcome:
        """Archiving: a face-down Agent not activated goes under the Agent deck."""
        return self._do({"action": "replace_agent", "by": self.who(side)})

    def must_play(self) -> bool:
        """Whether the mandatory action is still open: a card into play this turn."""
        st = self.state
        t = st.tables[st.active]
        return st.phase == "turns" and not st.mandatory_done and t.hand > 0 and t.in_play() < st.limit(st.active)

    # --- taps --------------------------------------------------------------------------------------

    def tap_plan(self, pid: str) -> None:
        """Moriarty alone taps the crime plan card by card, thread 1 first (a tapped one again: taken back)."""
        if pid in self.plan:
            self.plan = self.plan[:self.plan.index(pid)]
        elif len(self.plan) < 3:
            kinds = {self.cards.plans[p].thread for p in self.plan}
            if self.cards.plans[pid].thread in kinds:
                self.message = f"The plan holds one {self.cards.plans[pid].thread} only: tap another kind."
                return
            self.plan.append(pid)
        self.message = ""
        self.keep()

    def lay_plan(self) -> Outcome:
        if len(self.plan) < 3:
            return Outcome(False, "Tap three crime plan cards, thread 1 first: a victim, a felony and an object.")
        out = self._do({"action": "plan", "by": self.who("moriarty"), "plan": list(self.plan)})
        if out.ok:
            self.plan = []
            self.keep()  # after the event is saved: a kill in between leaves a draft the log has moved past
        return out

    def tap_site(self, sid: str) -> Outcome:
        return self._do({"action": "site", "by": self.who(self.state.first), "site": sid})

    def dealt_site(self) -> str:
        """The site the app deals for the next Stage from the game's seed (the same seed deals the same sites)."""
        st = self.state
        sites = list(self.cards.sites)
        left = [s for s in sites if s not in st.sites_used] or sites
        seed = self.session.log.seed if self.session.log.seed is not None else 0
        return random.Random(f"clash-site-{seed}-{st.stage + 1}").choice(left)

    def deal_site(self) -> Outcome:
        return self.tap_site(self.dealt_site())

    def tap_thread(self, thread: int) -> Outcome | None:
        """A Crime Thread (0-2): where a setup card lies, a card goes, a support goes, a moved card goes."""
        self.message = ""
        need, st, me = self.need(), self.state, self.side()
        if need == "lay":
            self.laid.append((me, thread))
            self.keep()
            return None
        if need == "to":
            self.choice["to"] = thread + 1
            return self._finish()
        if need == "bonus":
            self.choice["thread"] = thread + 1
            return self._finish()
        if need == "thread" and self.mode == "support":
            return self._do({"action": "support", "by": self.who(st.active), "thread": thread + 1})
        if need == "thread" and self.card:
            return self._do({"action": "play", "by": self.who(st.active), "card": self.card, "thread": thread + 1})
        return Outcome(False, "Tap a card first, then its thread.")

    def support_agent(self) -> Outcome:
        return self._do({"action": "support", "by": self.who(self.state.active), "thread": "agent"})

    def tap_card(self, cid: str) -> Outcome | None:
        """A card design of the side that acts: named in the setup, played, discarded by an effect's victim."""
        self.message = ""
        need, me = self.need(), self.side()
        if need == "name":
            side = self.laid[len(self.named)][0]
            if not self.playable(side, cid):
                return Outcome(False, f"Every copy of {self.cards.influence[side][cid].name} is seen already.")
            self.named.append(cid)
            self.keep()
            return None
        if need == "discarded":
            self.choice["discarded"] = cid
            return self._finish()
        if need == "card" and self.state.phase == "final_reveal":
            return self._do({"action": "reveal", "by": self.who(me), "card": self.action_card, "take": "play",
                             "influence": cid})
        if need in ("card", "thread") and not self.playable(me, cid):
            return Outcome(False, f"Every copy of {self.cards.influence[me][cid].name} is seen already.")
        if need in ("card", "thread") and self.mode is None:
            self.card = None if self.card == cid else cid
            return None
        return None

    def clear_plan(self) -> None:
        self.plan, self.message = [], ""
        self.keep()

    def laid_note(self) -> dict[int, str]:
        """Initial Setup: what lies face down in each thread so far, by whose ('Ann 1 · Ben 1', 'none yet')."""
        notes = {}
        for thread in range(3):
            mine = [side for side, th in self.laid if th == thread]
            notes[thread] = " · ".join(f"{self.who(side)} {mine.count(side)}" for side in clash.SIDES
                                       if side in mine) or "none yet"
        return notes

    def take_back(self) -> None:
        """Initial Setup: the last card laid or named taken back."""
        if self.named:
            self.named.pop()
        elif self.laid:
            self.laid.pop()
        self.message = ""
        self.keep()

    def record_setup(self) -> Outcome:
        """The six setup cards as laid and named, recorded in order (tried all together first)."""
        if len(self.named) < 6:
            return Outcome(False, "Lay all six cards face down, turn them up, then name each one.")
        events = [{"action": "setup", "by": self.who(side), "card": cid, "thread": thread + 1}
                  for (side, thread), cid in zip(self.laid, self.named, strict=True)]
        trial = copy.deepcopy(self.state)
        for event in events:
            try:
                clash.apply(trial, event)
            except IllegalAction as exc:
                return Outcome(False, str(exc))
        out = Outcome(True)
        for event in events:
            out = self.session.do(event)
        self.laid, self.named = [], []
        self.keep()  # after the events are saved: a draft the log has moved past is dropped on the next start
        self.said(out.message)
        return out

    def choose_mode(self, mode: str) -> Outcome | None:
        """An optional action from the bar: support or use wait for a thread or a card; draw is done at once."""
        self.clear_action()
        if mode == "draw":
            return self._do({"action": "draw", "by": self.who(self.state.active)})
        if mode == "end":
            return self._do({"action": "end", "by": self.who(self.state.active)})
        self.mode = mode
        return None

    def tap_in_play(self, thread: int, cid: str) -> Outcome | None:
        """A card in play: the one to use, or the effect's target."""
        self.message = ""
        need = self.need()
        if need == "use":
            self.using = (thread, cid)
            return self._finish()
        if need == "target":
            self.choice["target"], self.choice["target_thread"] = cid, thread + 1
            return self._finish()
        return None

    def tap_agent(self, aid: str) -> Outcome | None:
        self.agent = aid
        return self._finish()

    def reveal(self, action_card: str) -> None:
        """Final Turn: the Action Card the next revealer turned over (its thread was placed secretly)."""
        self.clear_action()
        self.action_card = action_card

    def choose_take(self, take: str) -> Outcome | None:
        """What to do with the revealed card: one action it shows, or skip; play and use wait for their card."""
        me = self.side()
        why = self.take_refusal(take)
        if why is not None:
            return Outcome(False, f"{TAKE_WORDS[take]}: {why}.")
        self.take = take
        if take in ("play", "use"):
            return None
        out = self._do({"action": "reveal", "by": self.who(me), "card": self.action_card, "take": take})
        if not out.ok:
            self.take = None  # refused: the revealed card's actions are offered again
        return out

    def take_refusal(self, take: str) -> str | None:
        """Why the revealed Action Card's action cannot be taken now (None: it can), in a few words."""
        me, st = self.side(), self.state
        t = st.tables[me]
        if take == "skip":
            return None
        if take in self.barred():
            return f"{st.here().name} forbids it"
        if take == "play" and t.in_play() >= st.limit(me):
            return f"at the limit ({t.in_play()} of {st.limit(me)})"
        if take in ("play", "support") and not t.hand:
            return "hand empty"
        if take == "use" and not self.use_choices():
            return "no upright card here"
        if take == "draw" and not (t.deck or t.discards()):
            return "nothing to draw"
        return None

    def toggle_discard(self, side: str, cid: str) -> None:
        """Archiving: a card a side discards from hand (tapped again: kept)."""
        mine = self.discarding.setdefault(side, [])
        if cid in mine:
            mine.remove(cid)
        elif len(mine) < self.state.tables[side].hand and self.playable(side, cid):
            mine.append(cid)

    def record_discard(self, side: str) -> Outcome:
        cards = self.discarding.get(side, [])
        if not cards:
            return Outcome(False, "Tap the cards discarded from hand first.")
        out = self._do({"action": "discard", "by": self.who(side), "cards": list(cards)})
        if out.ok:
            self.discarding[side] = []
        return out

    def place(self, action_card: str, thread: int) -> Outcome:
        """Final Turn: the placer alone says which Action Card lies face down in which thread."""
        return self._do({"action": "place", "by": self.who(self.state.active), "card": action_card,
                         "thread": thread + 1})

    # --- what the taps add up to -------------------------------------------------------------------

    def _finish(self) -> Outcome | None:
        """The use or activation, once every choice its effect needs is made."""
        if self._effect_need() is not None:
            return None
        me, st = self.side(), self.state
        event: Event
        if self.agent is not None:
            event = {"action": "activate", "by": self.who(me), "agent": self.agent, **self.choice}
        elif self.using is not None and st.phase == "final_reveal":
            event = {"action": "reveal", "by": self.who(me), "card": self.action_card, "take": "use",
                     "influence": self.using[1], **self.choice}
        elif self.using is not None:
            event = {"action": "use", "by": self.who(me), "card": self.using[1], "thread": self.using[0] + 1,
                     **self.choice}
        else:
            return None
        return self._do(event)

    def _do(self, event: Event) -> Outcome:
        outcome = self.session.do(event)
        if outcome.ok:
            self.clear_action()
            self.said(outcome.message)
        return outcome

    def said(self, text: str) -> None:
        """What an event did, in the engine's words, shown until the next tap (whole under Last and in History)."""
        if len(text) <= 110:
            self.message = text
            return
        shown: list[str] = []
        for clause in text.split("; "):  # whole clauses that fit, then a mark that there is more
            if shown and len("; ".join([*shown, clause])) > 100:
                break
            shown.append(clause)
        self.message = "; ".join(shown)[:110] + " …"

    def use_choices(self) -> list[tuple[int, str]]:
        """The cards that may be used now: own upright ones (in the revealed card's thread in the Final Turn)."""
        me, st = self.side(), self.state
        cards = self.in_play(me, lambda p: not p.used)
        if st.phase == "final_reveal" and self.action_card is not None:
            thread = dict(st.placed[me])[self.action_card]
            cards = [(t, c) for t, c in cards if t == thread]
        return cards

    def prompt(self) -> str:
        """One line on what the table does next."""
        st, need, me = self.state, self.need(), self.side()
        who = f"[b]{self.who(me)}[/b]"
        if st.phase == "over":
            return ""
        if need == "plan":
            return f"{who} (Moriarty) lays the Crime Plan face down, then enters it alone"
        if need == "site":
            return f"Stage {st.stage + 1}: reveal the top Investigation Site and tap it (or let the app deal one)"
        if need == "lay":
            return f"Initial Setup: {who} lays a card face down: tap its thread ({len(self.laid) + 1} of 6)"
        if need == "name":
            side, thread = self.laid[len(self.named)]
            return (f"Turn all six up. {self.who(side)}'s card in thread {thread + 1} is? "
                    f"({len(self.named) + 1} of 6)")
        if st.phase == "setup":
            return "All six named: tap Record setup"
        if st.phase == "final_place":
            return f"Final Turn: {who} places an Action Card face down, alone"
        if need == "action_card":
            return f"Final Turn: {who} turns an Action Card over: which is it?"
        if need == "thread":
            what = self.cards.influence[me][self.card].name if self.card else "a Support Card (face down)"
            return f"{who} puts {what} in which thread?"
        foe = self.who(clash.other(me))
        targets = {"move_own": "moves which other card of theirs", "recall": "takes which upright card back to hand",
                   "move_opponent": f"moves which of {foe}'s cards", "cancel": f"cancels which used card of {foe}"}
        under = st.tables[me].agent_support
        words = {"take": f"uses {clash.ACTION_CARD_NAMES.get(str(self.action_card), '')} for what",
                 "card": "puts which card into play", "use": "uses which card",
                 "target": targets.get(str(self.op_now()), "picks which card"), "to": "moves it to which thread",
                 "discarded": f"makes {foe} discard a card of {foe}'s choice: which",
                 "agent": f"activates which Agent ({under} Support Card{'' if under == 1 else 's'} under it)",
                 "bonus": "names the thread for the bonus"}
        if need in words:
            return f"{'Final Turn: ' if st.phase == 'final_reveal' else ''}{who} {words[need]}?"
        if st.phase == "final_reveal":
            card = clash.ACTION_CARD_NAMES.get(str(self.action_card), "the Action Card")
            return f"Final Turn: {who} takes one action of {card}, or Skip"
        left = st.tables[me]
        return f"{who}: optional actions, or End turn ({left.in_play()} of {st.limit(me)} in play)"
