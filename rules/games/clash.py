"""Clash of Minds: Holmes vs Moriarty (exactly 2 players): the card vocabulary, the referee and a simulator.

Every designed card carries its effect as data (`effect`, `ability`); the printed `text` must be exactly
what this module makes of it (influence_text, site_text, crime_text, agent_text, action_text), so the card
and the engine cannot disagree; check_database holds that, and the two influence decks alike.

The referee follows the engine contract (rules/engine.py). The table tracks the clock (hours passed since
12 o'clock), the Site, every card in each Crime Thread on each side, Support Cards (counted: face down),
Deduction Tokens, revealed threads, the turn and the actions left; every hand, deck and discard pile is
counted and the cards seen are known, so a card whose copies are all seen is refused. Draws are never
written: the engine makes them. summary(state) gives what a table shows (its keys: docs/game-log.md,
Clash); describe(before, event) tells an event with what it did.

simulate() plays whole games with real shuffled decks and hands for the balance benchmark and the property
tests: Player picks at random among options(), GreedyPlayer looks one step ahead with value_for_holmes.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from casebook.rules import engine
from casebook.rules.engine import (
    Event,
    IllegalAction,
    Rule,
    SharesDatabase,
    action_of,
    check_on_copy,
)
from casebook.rules.yamlsource import plain

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase
    from casebook.rules.problems import Problems

ID = "clash"
TITLE = "Clash of Minds"

SIDES = ("holmes", "moriarty")
SIDE_NAMES = {"holmes": "Holmes", "moriarty": "Moriarty"}
THREAD_KINDS = ("victim", "felony", "object")
OPTIONAL_ACTIONS = ("draw", "use", "support")
ACTION_WORDS = {"play": "Put one Influence Card into play", "draw": "Draw one Influence Card",
                "use": "Use one Influence Card", "support": "Add one Support Card"}

# op -> {parameter: allowed values}; every parameter is required
INFLUENCE_OPS: dict[str, dict[str, tuple[Any, ...]]] = {
    "draw": {"count": (1, 2)},
    "move_own": {},
    "move_opponent": {},
    "cancel": {},
    "weaken": {"amount": (1, 2, 3)},
    "clock": {"hours": (1,)},
    "discard": {"count": (1,)},
    "support": {},
    "recall": {},
}
SITE_OPS: dict[str, dict[str, tuple[Any, ...]]] = {
    "support_value": {"value": (2,)},
    "no_support": {},
    "no_draw": {},
    "tie_hour": {},
    "tie_deduction": {},
    "hand": {"size": (6,)},
    "no_effects": {},
}
CRIME_OPS: dict[str, dict[str, tuple[Any, ...]]] = {
    "clock": {"hours": (-1, 1)},
    "draw": {"who": ("holmes", "moriarty", "each"), "count": (1, 2)},
    "clear_support": {"side": ("holmes", "moriarty", "each")},
    "keep_first": {},
}
AGENT_OPS: dict[str, dict[str, tuple[Any, ...]]] = {
    "bonus": {"amount": (1, 2, 3)},
    "draw": {"count": (1, 2)},
    "cancel": {},
    "clock": {"hours": (1,)},
    "limit": {"amount": (1,)},
    "move_opponent": {},
}
CRIME_GOOD_FOR = {"victim": "holmes", "felony": None, "object": "moriarty"}


def _cards(n: int) -> str:
    return f"{n} Influence Card" + ("" if n == 1 else "s")


CANCEL_TEXT = "Cancel the effect of one of your opponent's used Influence Cards: put a Distraction Token on it."


def influence_text(effect: dict[str, Any]) -> str:
    """The printed effect of an influence card (resolved when the card is used)."""
    op = effect.get("op")
    if op == "draw":
        return f"Draw {_cards(int(effect['count']))}."
    if op == "weaken":
        return f"While this card is used, your opponent's Influence in this Crime Thread is {effect['amount']} lower."
    if op == "discard":
        return f"Your opponent discards {_cards(int(effect['count']))} from his hand (his choice)."
    if op == "clock":
        n = int(effect["hours"])
        hours = f"{n} hour" + ("" if n == 1 else "s")
        return f"Holmes turns the clock back {hours}; Moriarty adds {hours} to it."
    return {
        "move_own": "Move another of your Influence Cards in play to another Crime Thread.",
        "move_opponent": "Move one of your opponent's Influence Cards in play to another Crime Thread (on his side).",
        "cancel": CANCEL_TEXT,
        "support": "Put one Influence Card from your hand face down in this Crime Thread as a Support Card.",
        "recall": "Take another of your upright Influence Cards in play back into your hand.",
    }.get(str(op), f"(unknown effect {op})")


def site_text(effect: dict[str, Any]) -> str:
    """The printed rule change of an investigation site, for its Stage."""
    op = effect.get("op")
    if op == "support_value":
        return f"Support Cards are worth {effect['value']} in this Stage."
    if op == "hand":
        return f"Initiating Contacts: draw up to {effect['size']} cards, not 5."
    return {
        "no_support": "No Support Card may be added in this Stage.",
        "no_draw": "The optional action Draw one Influence Card may not be taken in this Stage.",
        "tie_hour": "Summary: each Crime Thread where neither side leads adds 1 hour to the clock.",
        "tie_deduction": "Summary: a hidden Crime Thread where neither side leads counts as Holmes' advantage of 1.",
        "no_effects": "Used Influence Cards resolve no effect in this Stage (they still count their used value).",
    }.get(str(op), f"(unknown effect {op})")


def crime_text(effect: dict[str, Any]) -> str:
    """The printed effect of a crime plan card, resolved when it is revealed."""
    op = effect.get("op")
    if op == "clock":
        n = int(effect["hours"])
        return "Turn the clock back 1 hour." if n < 0 else "Add 1 hour to the clock."
    if op == "draw":
        who = effect["who"]
        head = "Each player draws" if who == "each" else f"{SIDE_NAMES[who]} draws"
        return f"{head} {_cards(int(effect['count']))}."
    if op == "clear_support":
        side = effect["side"]
        whose = "all" if side == "each" else f"all of {SIDE_NAMES[side]}" + ("'" if side == "holmes" else "'s")
        return f"Discard {whose} Support Cards in this Crime Thread."
    if op == "keep_first":
        return "The First Player Card does not pass at the end of this Stage."
    return f"(unknown effect {op})"


def agent_text(ability: dict[str, Any], side: str) -> str:
    """The printed ability of an agent (activated on its owner's turn once its cost is under it)."""
    op = ability.get("op")
    if op == "bonus":
        return f"Name a Crime Thread: your Influence there is {ability['amount']} higher until Archiving."
    if op == "draw":
        return f"Draw {_cards(int(ability['count']))}."
    if op == "cancel":
        return CANCEL_TEXT
    if op == "clock":
        return "Turn the clock back 1 hour." if side == "holmes" else "Add 1 hour to the clock."
    if op == "limit":
        return f"Your Influence Card Limit is {ability['amount']} higher until Archiving."
    if op == "move_opponent":
        return influence_text({"op": "move_opponent"})
    return f"(unknown ability {op})"


def action_text(actions: list[str]) -> str:
    """The printed text of an action card: the mandatory one, or an optional one showing two choices."""
    if actions == ["play"]:
        return "Mandatory: Put one Influence Card into play."
    return "Optional, choose one: " + " or ".join(ACTION_WORDS[a] for a in actions) + "."


# --- the database --------------------------------------------------------------------------------

INFLUENCE = {"holmes": "holmes_influence", "moriarty": "moriarty_influence"}
AGENTS = {"holmes": "holmes_agents", "moriarty": "moriarty_agents"}
REQUIRED = ("sites", "crime_plans", "actions", *INFLUENCE.values(), *AGENTS.values())


def _check_effect(card: Any, key: str, ops: dict[str, dict[str, tuple[Any, ...]]], problems: Problems) -> bool:
    """An effect from the vocabulary with every parameter it needs and none it does not take."""
    effect: dict[str, Any] = plain(dict(card[key])) if hasattr(card[key], "items") else {}
    op = effect.get("op")
    if op not in ops:
        problems.add(card.field_place(key), f"card '{card.id}': unknown {key} op {op!r}", "op: one of " + ", ".join(ops))
        return False
    ok = True
    params = ops[str(op)]
    for name, value in effect.items():
        if name == "op":
            continue
        if name not in params:
            problems.add(card.field_place(key), f"card '{card.id}': '{op}' takes no '{name}'",
                         "parameters: " + (", ".join(params) or "none"))
            ok = False
        elif value not in params[name] or isinstance(value, bool):
            problems.add(card.field_place(key), f"card '{card.id}': {name} {value!r} is not allowed",
                         f"{name}: one of " + ", ".join(str(v) for v in params[name]))
            ok = False
    for name in params:
        if name not in effect:
            problems.add(card.field_place(key), f"card '{card.id}': '{op}' needs '{name}'",
                         f"{name}: one of " + ", ".join(str(v) for v in params[name]))
            ok = False
    return ok


def _check_text(card: Any, want: str, problems: Problems) -> None:
    if card["text"] != want:
        problems.add(card.field_place("text"), f"card '{card.id}': the text does not say what the card does",
                     f"text: \"{want}\"")


def deck_make_up(db: GameDatabase, side: str) -> Counter[tuple[int, int, str]]:
    """A side's influence deck as (value, used value, effect) counts: the two sides must be equal."""
    out: Counter[tuple[int, int, str]] = Counter()
    for card in db.components[INFLUENCE[side]].cards:
        out[(int(card["value"]), int(card["used_value"]), repr(sorted(plain(dict(card["effect"])).items())))] += card.copies
    return out


def check_database(db: GameDatabase, problems: Problems) -> None:
    """Every effect from the vocabulary with its printed text; the two influence decks alike; the crime
    plans three of each thread; each side's action cards one mandatory and three optional pairs."""
    missing = [c for c in REQUIRED if c not in db.components]
    if missing:
        problems.add(db.place, f"Clash needs the component(s) {', '.join(missing)}",
                     "components with those ids (see cards/clash/game.yaml)")
        return
    for card in db.components["sites"].cards:
        if _check_effect(card, "effect", SITE_OPS, problems):
            _check_text(card, site_text(plain(dict(card["effect"]))), problems)
    kinds: Counter[str] = Counter()
    for card in db.components["crime_plans"].cards:
        kinds[str(card["thread"])] += card.copies
        if _check_effect(card, "effect", CRIME_OPS, problems):
            effect = plain(dict(card["effect"]))
            _check_text(card, crime_text(effect), problems)
            good = crime_good_for(effect)
            if good != CRIME_GOOD_FOR[str(card["thread"])]:
                problems.add(card.field_place("effect"), f"crime plan '{card.id}' ({card['thread']}): its effect is "
                             f"good for {SIDE_NAMES.get(good or '', 'neither side')}",
                             "a victim's effect helps Holmes, an object's Moriarty, a felony's neither")
    for kind in THREAD_KINDS:
        if kinds[kind] != 3:
            problems.add(db.components["crime_plans"].place, f"{kinds[kind]} {kind} crime plan(s)", "3 of each thread")
    for side in SIDES:
        for card in db.components[INFLUENCE[side]].cards:
            _check_side(card, side, problems)
            if _check_effect(card, "effect", INFLUENCE_OPS, problems):
                _check_text(card, influence_text(plain(dict(card["effect"]))), problems)
        for card in db.components[AGENTS[side]].cards:
            _check_side(card, side, problems)
            if _check_effect(card, "ability", AGENT_OPS, problems):
                _check_text(card, agent_text(plain(dict(card["ability"])), side), problems)
        actions = [list(c["actions"]) for c in db.components["actions"].cards if c["side"] == side]
        want = [["play"], ["draw", "use"], ["draw", "support"], ["use", "support"]]
        if sorted(actions) != sorted(want):
            problems.add(db.components["actions"].place, f"{SIDE_NAMES[side]}'s action cards show {actions}",
                         "one [play] and the three pairs [draw, use], [draw, support], [use, support]")
    for card in db.components["actions"].cards:
        _check_text(card, action_text(list(card["actions"])), problems)
    if deck_make_up(db, "holmes") != deck_make_up(db, "moriarty"):
        problems.add(db.components[INFLUENCE["moriarty"]].place,
                     "the two influence decks differ in make-up (value, used value, effect and copies)",
                     "the same cards on both sides, under their own names")


def _check_side(card: Any, side: str, problems: Problems) -> None:
    if card["side"] != side:
        problems.add(card.field_place("side"), f"card '{card.id}' is in {SIDE_NAMES[side]}'s deck",
                     f"side: {side}")


def crime_good_for(effect: dict[str, Any]) -> str | None:
    """Which side a crime plan's effect helps: 'holmes', 'moriarty' or None (neutral)."""
    op = effect.get("op")
    if op == "clock":
        return "holmes" if int(effect["hours"]) < 0 else "moriarty"
    if op == "draw":
        return None if effect["who"] == "each" else str(effect["who"])
    if op == "clear_support":
        side = effect["side"]
        return None if side == "each" else ("moriarty" if side == "holmes" else "holmes")
    return None


# --- the cards as the engine sees them ----------------------------------------------------------

@dataclass(frozen=True)
class Influence(engine.Unchanging):
    """One influence card design of one side (the deck holds `copies` of it)."""

    id: str
    name: str
    side: str
    value: int
    used_value: int
    effect: dict[str, Any]
    copies: int

    @property
    def op(self) -> str:
        return str(self.effect["op"])


@dataclass(frozen=True)
class Agent(engine.Unchanging):
    """An agent card: its side, its cost and its ability."""
    id: str
    name: str
    side: str
    cost: int
    ability: dict[str, Any]

    @property
    def op(self) -> str:
        return str(self.ability["op"])


@dataclass(frozen=True)
class Site(engine.Unchanging):
    """A site card: its hours, its limit and its effect."""
    id: str
    name: str
    hours: int
    limit: int
    effect: dict[str, Any]

    @property
    def op(self) -> str:
        return str(self.effect["op"])


@dataclass(frozen=True)
class Plan(engine.Unchanging):
    """A plan card: the crime thread it belongs to and its effect."""
    id: str
    name: str
    thread: str  # victim, felony, object
    effect: dict[str, Any]

    @property
    def op(self) -> str:
        return str(self.effect["op"])


@dataclass(frozen=True)
class Cards(engine.Unchanging):
    """The database as the engine uses it, built once."""

    influence: dict[str, dict[str, Influence]]  # side -> id -> card
    agents: dict[str, dict[str, Agent]]
    sites: dict[str, Site]
    plans: dict[str, Plan]
    deck_size: dict[str, int]


def cards(db: GameDatabase) -> Cards:
    """The engine's view of the card database (cached on the database, which never changes)."""
    cached: Cards | None = getattr(db, "_clash_cards", None)
    if cached is None:
        influence = {side: {c.id: Influence(c.id, str(c["name"]), side, int(c["value"]), int(c["used_value"]),
                                            plain(dict(c["effect"])), c.copies)
                            for c in db.components[INFLUENCE[side]].cards} for side in SIDES}
        agents = {side: {c.id: Agent(c.id, str(c["name"]), side, int(c["cost"]), plain(dict(c["ability"])))
                         for c in db.components[AGENTS[side]].cards} for side in SIDES}
        sites = {c.id: Site(c.id, str(c["name"]), int(c["hours"]), int(c["limit"]), plain(dict(c["effect"])))
                 for c in db.components["sites"].cards}
        plans = {c.id: Plan(c.id, str(c["name"]), str(c["thread"]), plain(dict(c["effect"])))
                 for c in db.components["crime_plans"].cards}
        cached = Cards(influence, agents, sites, plans,
                       {side: sum(c.copies for c in influence[side].values()) for side in SIDES})
        db._clash_cards = cached  # type: ignore[attr-defined]  # the database never changes once loaded
    return cached


# --- rules the engine names when it refuses ------------------------------------------------------

R_SETUP = Rule("Setup", "setup_table")
R_PLAYERS = Rule("Two players", "setup_players")
R_PLAN = Rule("Moriarty prepares the crime", "setup_crime_plan")
R_SITE = Rule("Reveal an Investigation Site", "start_site")
R_INITIAL = Rule("Initial Setup", "start_initial_setup")
R_TURN = Rule("Turns", "turn_order")
R_MANDATORY = Rule("The mandatory action", "turn_mandatory")
R_OPTIONAL = Rule("The optional actions", "turn_optional")
R_USE = Rule("Use one Influence Card", "action_use")
R_SUPPORT = Rule("Add one Support Card", "action_support")
R_DRAW = Rule("Draw one Influence Card", "action_draw")
R_EMPTY_DECK = Rule("An empty Influence deck", "start_reshuffle")
R_WATERLOO_FINAL = Rule("Waterloo Station in the Final Turn", "faq_waterloo_final_draw")
R_LIMIT = Rule("The Influence Card Limit", "influence_limit")
R_CARDS = Rule("All plays are public", "faq_cards_seen")
R_EFFECT = Rule("Effects", "effects_this_thread")
R_CANCEL = Rule("Distraction Tokens", "effects_distraction")
R_FINAL_PLACE = Rule("Plan in secret", "final_place")
R_FINAL_REVEAL = Rule("Reveal and act", "final_reveal")
R_ARCHIVING = Rule("Archiving", "archiving")
R_AGENTS = Rule("Playing with Agents", "agents_setup")
R_AGENT_SUPPORT = Rule("Support under an Agent", "agents_support")
R_ACTIVATE = Rule("Activating an Agent", "agents_activate")
R_WHEN_ACTIVATE = Rule("When an Agent may be activated", "faq_agent_activation")
R_END = Rule("End of the game", "end_moriarty")
R_ENDS = {side: Rule("End of the game", f"end_{side}") for side in ("holmes", "moriarty", "draw")}  # the one that came

HAND = 5
SETUP_CARDS = 3
AFTER_SETUP_DRAW = 3
CLOCK_HOURS = 12
ACTION_CARDS = ("play", "draw_use", "draw_support", "use_support")
ACTION_CARD_NAMES = {"play": "Into Play", "draw_use": "Draw or Use", "draw_support": "Draw or Support",
                     "use_support": "Use or Support"}
ACTION_CARD_SHOWS = {"play": ("play",), "draw_use": ("draw", "use"), "draw_support": ("draw", "support"),
                     "use_support": ("use", "support")}
VARIANTS = ("agents",)


# --- state ---------------------------------------------------------------------------------------

@dataclass
class InPlay(engine.QuickCopy):
    """An influence card on the table: upright or used (turned), perhaps with a Distraction Token."""

    id: str
    used: bool = False
    distracted: bool = False
    resolved: bool = False  # its effect was resolved when used (not at a site without effects)


@dataclass
class Table(engine.QuickCopy):
    """One side's cards: counts for what is hidden, ids for what is seen."""

    hand: int = 0
    deck: int = 0
    discard: dict[str, int] = field(default_factory=dict)  # seen card id -> copies in the discard pile
    discard_unseen: int = 0  # support cards discarded (never shown)
    threads: list[list[InPlay]] = field(default_factory=lambda: [[], [], []])
    support: list[int] = field(default_factory=lambda: [0, 0, 0])
    agent_deck: int = 0
    agent_here: bool = False  # an agent face down (or active) on the table
    agent: str | None = None  # the agent activated this Stage
    agent_support: int = 0
    agent_discard: list[str] = field(default_factory=list)
    bonus: list[int] = field(default_factory=lambda: [0, 0, 0])  # agents' bonus per thread until Archiving
    limit_bonus: int = 0
    reshuffles: int = 0

    def in_play(self) -> int:
        return sum(len(t) for t in self.threads)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        clone = copy.copy(self)  # then every container anew: the quick way, as copies for look-ahead are many
        clone.discard, clone.support, clone.bonus = dict(self.discard), list(self.support), list(self.bonus)
        clone.threads = [[InPlay(p.id, p.used, p.distracted, p.resolved) for p in th] for th in self.threads]
        clone.agent_discard = list(self.agent_discard)
        return clone

    def discards(self) -> int:
        return sum(self.discard.values()) + self.discard_unseen


@dataclass
class Conclusion(engine.QuickCopy):
    """One thread's count at a Summary and what came of it."""

    thread: int
    holmes: int
    moriarty: int
    outcome: str  # deduction, revealed, hour, two_hours, none, tie_hour, revealed_already
    hours: int = 0
    plan: str | None = None  # the crime plan revealed here
    decided: list[tuple[str, str]] = field(default_factory=list)  # (side, card id) without which it ends otherwise


@dataclass
class State(SharesDatabase):
    """A game of Clash in play: the players, who plays Holmes, the tables, the plan and what is revealed."""
    db: GameDatabase
    players: list[str]
    holmes: int  # the index of the player who plays Holmes
    agents_mode: bool
    tables: dict[str, Table] = field(default_factory=dict)
    plan: list[str] | None = None
    revealed: list[bool] = field(default_factory=lambda: [False, False, False])
    deductions: list[int] = field(default_factory=lambda: [0, 0, 0])
    hours: int = 0
    stage: int = 0
    site: str | None = None
    sites_used: list[str] = field(default_factory=list)
    first: str = "holmes"
    phase: str = "plan"  # plan, site, setup, turns, final_place, final_reveal, over
    active: str = "holmes"
    mandatory_done: bool = False
    optional: list[str] = field(default_factory=list)  # optional actions taken this turn
    last_turn: str | None = None  # the side that takes one last turn before the Final Turn
    placed: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # side -> (action card, thread)
    revealed_actions: dict[str, list[str]] = field(default_factory=dict)
    setup_placed: dict[str, int] = field(default_factory=dict)
    keep_first: bool = False
    conclusions: list[list[Conclusion]] = field(default_factory=list)  # per Stage
    stage_sites: list[str] = field(default_factory=list)
    winner: str | None = None  # holmes, moriarty, draw
    why: str = ""
    said: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    events: int = 0

    def side_of(self, player: int) -> str:
        return "holmes" if player == self.holmes else "moriarty"

    def name(self, side: str) -> str:
        return self.players[self.holmes if side == "holmes" else 1 - self.holmes]

    def limit(self, side: str) -> int:
        site = self.site_card()
        return (site.limit if site else 0) + self.tables[side].limit_bonus

    def site_card(self) -> Site | None:
        return cards(self.db).sites[self.site] if self.site else None

    def here(self) -> Site:
        """The site of the Stage being played (there is one in every phase but plan and site)."""
        site = self.site_card()
        if site is None:
            raise IllegalAction("no Investigation Site is revealed yet", R_SITE)
        return site

    def site_op(self) -> str | None:
        site = self.site_card()
        return site.op if site else None


def other(side: str) -> str:
    return "moriarty" if side == "holmes" else "holmes"


def new_state(db: GameDatabase, setup: dict[str, Any]) -> State:
    """A game from a log header: two players; `holmes: <name>` (default the first named) plays Holmes and starts
    with the First Player Card; `plan: [3 crime plan ids]` may give Moriarty's plan, or a `plan` event does."""
    players = setup.get("players") or []
    if len(players) != 2 or len(set(players)) != 2:
        raise IllegalAction(f"Clash of Minds is for exactly 2 players with different names, not {players}",
                            R_PLAYERS)
    variants = [str(v) for v in setup.get("variants") or []]
    unknown_variants = [v for v in variants if v not in VARIANTS]
    if unknown_variants:
        raise IllegalAction(f"unknown variant(s) {', '.join(unknown_variants)} (variants: agents)", R_SETUP)
    unknown = set(setup) - {"players", "variants", "seed", "colours", "holmes", "plan"}
    if unknown:
        raise IllegalAction(f"unknown setup key(s): {', '.join(sorted(unknown))} (setup: holmes, plan)", R_SETUP)
    holmes = setup.get("holmes", players[0])
    if holmes not in players:
        raise IllegalAction(f"setup holmes: '{holmes}' is not a player ({', '.join(players)})", R_SETUP)
    state = State(db, [str(p) for p in players], players.index(holmes), "agents" in variants)
    c = cards(db)
    for side in SIDES:
        state.tables[side] = Table(deck=c.deck_size[side], agent_deck=len(c.agents[side]) if state.agents_mode else 0)
    if setup.get("plan") is not None:
        state.plan = _parse_plan(state, setup["plan"])
        state.phase = "site"
    return state


# --- reading names in events ---------------------------------------------------------------------

def _find(options: dict[str, str], text: Any, what: str, rule: Rule) -> str:
    """An id from an id or a name (any case); a refusal with the closest name if there is none."""
    key = str(text).strip().lower() if isinstance(text, str | int) and not isinstance(text, bool) else ""
    if key in options:
        return options[key]
    close = difflib.get_close_matches(key, list(options), n=1)
    hint = f" (did you mean '{options[close[0]]}'?)" if close else ""
    raise IllegalAction(f"unknown {what} {text!r}{hint}", rule)


def _names(items: dict[str, Any]) -> dict[str, str]:
    out = {cid: cid for cid in items}
    out.update({item.name.lower(): cid for cid, item in items.items()})
    return out


def influence_id(state: State, side: str, text: Any, rule: Rule = R_CARDS) -> str:
    return _find(_names(cards(state.db).influence[side]), text, f"{SIDE_NAMES[side]} influence card", rule)


def _thread(value: Any, rule: Rule, what: str = "thread") -> int:
    if isinstance(value, bool) or value not in (1, 2, 3, "1", "2", "3"):
        raise IllegalAction(f"{what}: {value!r} is not a Crime Thread: write 1, 2 or 3 (left to right)", rule)
    return int(value) - 1


def _parse_plan(state: State, value: Any) -> list[str]:
    plans = cards(state.db).plans
    if not isinstance(value, list) or len(value) != 3:
        raise IllegalAction("the crime plan is 3 cards in thread order: plan: [victim, felony, object ids, any order]",
                            R_PLAN)
    ids = [_find(_names(plans), v, "crime plan card", R_PLAN) for v in value]
    kinds = sorted(plans[i].thread for i in ids)
    if kinds != sorted(THREAD_KINDS):
        raise IllegalAction(f"the plan must be one victim, one felony and one object, not {', '.join(kinds)}", R_PLAN)
    return ids


def _player(state: State, who: Any) -> int:
    if who not in state.players:
        raise IllegalAction(f"by: '{who}' is not a player ({', '.join(state.players)})", R_TURN)
    return state.players.index(who)


def _fields(event: Event, allowed: set[str], rule: Rule) -> None:
    unknown = set(event) - allowed - {"action", "by"}
    if unknown:
        raise IllegalAction(f"unknown field(s) {', '.join(sorted(unknown))} (this event takes "
                            f"{', '.join(sorted(allowed)) or 'no field'})", rule)


def _say(state: State, text: str) -> None:
    state.said.append(text)


def card_name(state: State, side: str, cid: str) -> str:
    return cards(state.db).influence[side][cid].name


# --- drawing and the seen cards ------------------------------------------------------------------

def _draw(state: State, side: str, n: int) -> int:
    """Draw up to n cards (the discards become the deck when it runs out); the number drawn."""
    t = state.tables[side]
    drawn = 0
    for _ in range(n):
        if t.deck == 0:
            if not t.discards():
                break
            t.deck, t.discard, t.discard_unseen = t.discards(), {}, 0
            t.reshuffles += 1
            _say(state, f"{state.name(side)} shuffles the discard pile into a new deck")
        t.deck -= 1
        t.hand += 1
        drawn += 1
    return drawn


def _seen(state: State, side: str, cid: str) -> list[str]:
    """Where the copies of a card that are seen lie (in threads, the discard pile)."""
    t = state.tables[side]
    places = [f"thread {i + 1}" for i, th in enumerate(t.threads) for c in th if c.id == cid]
    places += ["the discard pile"] * t.discard.get(cid, 0)
    return places


def _from_hand(state: State, side: str, cid: str, rule: Rule) -> None:
    """A card leaves a hand: refused if the hand is empty or every copy is seen elsewhere."""
    t = state.tables[side]
    if t.hand <= 0:
        raise IllegalAction(f"{state.name(side)} has no card in hand", rule)
    card = cards(state.db).influence[side][cid]
    seen = _seen(state, side, cid)
    if len(seen) >= card.copies:
        where = engine.and_list([f"{n} in {place}" if n > 1 else place for place, n in sorted(Counter(seen).items())])
        raise IllegalAction(f"{state.name(side)} cannot hold {card.name}: all {card.copies} copies are seen "
                            f"({where})", R_CARDS)
    t.hand -= 1


# --- events: before the Course --------------------------------------------------------------------

def _plan(state: State, side: str, event: Event) -> None:
    _fields(event, {"plan"}, R_PLAN)
    if state.phase != "plan":
        raise IllegalAction("the crime plan is prepared once, before the first Stage", R_PLAN)
    if side != "moriarty":
        raise IllegalAction(f"{state.name('moriarty')} (Moriarty) prepares the crime, not {state.name(side)}", R_PLAN)
    state.plan = _parse_plan(state, event.get("plan"))
    state.phase = "site"
    _say(state, f"{state.name('moriarty')} lays the Crime Plan face down")


def _site(state: State, side: str, event: Event) -> None:
    _fields(event, {"site"}, R_SITE)
    if state.phase != "site":
        raise IllegalAction(_phase_words(state), _phase_rule(state))
    sites = cards(state.db).sites
    sid = _find(_names(sites), event.get("site"), "investigation site", R_SITE)
    if len(state.sites_used) == len(sites):
        state.sites_used = []  # all were used: the site deck is shuffled again
    if sid in state.sites_used:
        raise IllegalAction(f"{sites[sid].name} was revealed in an earlier Stage; the site deck holds "
                            f"{engine.and_list([sites[s].name for s in sites if s not in state.sites_used])}", R_SITE)
    site = sites[sid]
    state.stage += 1
    state.site, state.keep_first = sid, False
    state.sites_used.append(sid)
    state.stage_sites.append(sid)
    state.hours += site.hours
    hand = int(site.effect["size"]) if site.op == "hand" else HAND
    _say(state, f"Stage {state.stage}: {site.name} ({site.hours} hour{'s' if site.hours != 1 else ''}, limit "
         f"{site.limit}); the clock shows {clock_text(state.hours)}")
    for s in (state.first, other(state.first)):
        t = state.tables[s]
        _draw(state, s, max(0, hand - t.hand))
        if state.agents_mode and not t.agent_here:
            if t.agent_deck == 0 and t.agent_discard:
                t.agent_deck, t.agent_discard = len(t.agent_discard), []
            if t.agent_deck:
                t.agent_deck -= 1
                t.agent_here = True
                _say(state, f"{state.name(s)} draws an Agent")
    state.phase, state.setup_placed = "setup", {"holmes": 0, "moriarty": 0}
    state.active = state.first


def _discard(state: State, side: str, event: Event) -> None:
    """Archiving: a player discards cards from hand (seen, face up)."""
    _fields(event, {"cards"}, R_ARCHIVING)
    if state.phase != "site" or state.stage == 0:
        raise IllegalAction("cards are discarded from hand only at Archiving, before the next Site is revealed",
                            R_ARCHIVING)
    given = event.get("cards")
    if not isinstance(given, list) or not given:
        raise IllegalAction("cards: [the cards discarded from hand]", R_ARCHIVING)
    ids = [influence_id(state, side, c, R_ARCHIVING) for c in given]
    t = state.tables[side]
    if len(ids) > t.hand:
        raise IllegalAction(f"{state.name(side)} holds {t.hand} card{'s' if t.hand != 1 else ''}, not {len(ids)}",
                            R_ARCHIVING)
    for cid, n in Counter(ids).items():
        design = cards(state.db).influence[side][cid]
        if len(_seen(state, side, cid)) + n > design.copies:
            raise IllegalAction(f"{state.name(side)} cannot hold {n} {design.name}: {design.copies} copies, "
                                f"{len(_seen(state, side, cid))} seen", R_CARDS)
    for cid in ids:
        _from_hand(state, side, cid, R_ARCHIVING)
        t = state.tables[side]
        t.discard[cid] = t.discard.get(cid, 0) + 1
    _say(state, f"{state.name(side)} discards {engine.and_list([card_name(state, side, c) for c in ids])} from hand")


def _replace_agent(state: State, side: str, event: Event) -> None:
    _fields(event, set(), R_AGENTS)
    t = state.tables[side]
    if not state.agents_mode:
        raise IllegalAction("this game is played without Agents", R_AGENTS)
    if state.phase != "site" or not t.agent_here or t.agent:
        raise IllegalAction("an Agent not activated may be replaced at Archiving, before the next Site",
                            Rule("Agents at Archiving", "agents_archiving"))
    t.agent_here, t.agent_deck = False, t.agent_deck + 1  # it goes to the bottom of the agent deck, unseen
    _say(state, f"{state.name(side)} puts the face-down Agent back under the Agent deck")


def _setup(state: State, side: str, event: Event) -> None:
    _fields(event, {"card", "thread"}, R_INITIAL)
    if state.phase != "setup":
        raise IllegalAction(_phase_words(state), _phase_rule(state))
    if side != state.active:
        raise IllegalAction(f"it is {state.name(state.active)}'s turn to place a card in the Initial Setup", R_INITIAL)
    cid = influence_id(state, side, event.get("card"), R_INITIAL)
    thread = _thread(event.get("thread"), R_INITIAL)
    _from_hand(state, side, cid, R_INITIAL)
    state.tables[side].threads[thread].append(InPlay(cid))
    state.setup_placed[side] += 1
    _say(state, f"{state.name(side)} places a card face down in thread {thread + 1}")
    if all(n == SETUP_CARDS for n in state.setup_placed.values()):
        for s in SIDES:
            shown = [f"{card_name(state, s, c.id)} (thread {i + 1})" for i, th in enumerate(state.tables[s].threads)
                     for c in th if not c.used]
            _say(state, f"{state.name(s)} reveals {engine.and_list(shown)}")
        for s in (state.first, other(state.first)):
            _draw(state, s, AFTER_SETUP_DRAW)
        _start_course(state)
    elif state.setup_placed[other(side)] < SETUP_CARDS:
        state.active = other(side)


def _start_course(state: State) -> None:
    state.phase, state.active, state.last_turn = "turns", state.first, None
    state.mandatory_done, state.optional = False, []


# --- events: the Course ---------------------------------------------------------------------------

def _my_turn(state: State, side: str) -> None:
    if state.phase != "turns":
        raise IllegalAction(_phase_words(state), _phase_rule(state))
    if side != state.active:
        raise IllegalAction(f"it is {state.name(state.active)}'s turn", R_TURN)


def _put_into_play(state: State, side: str, cid: str, thread: int, rule: Rule = R_MANDATORY) -> None:
    """A card from hand upright in a thread: the mandatory action, or Into Play revealed in the Final Turn (`rule`)."""
    t = state.tables[side]
    if t.in_play() >= state.limit(side):
        raise IllegalAction(f"{state.name(side)} has {t.in_play()} Influence Cards in play, the limit of "
                            f"{state.here().name} ({state.limit(side)})",
                            R_LIMIT)
    if rule is R_FINAL_REVEAL and t.hand <= 0:
        raise IllegalAction(f"{state.name(side)} has no card in hand to put into play: skip the card (take: skip)",
                            rule)
    _from_hand(state, side, cid, rule)
    t.threads[thread].append(InPlay(cid))
    _say(state, f"{state.name(side)} puts {card_name(state, side, cid)} into play in thread {thread + 1}")


def _play(state: State, side: str, event: Event) -> None:
    _fields(event, {"card", "thread"}, R_MANDATORY)
    _my_turn(state, side)
    if state.mandatory_done:
        raise IllegalAction("the mandatory action was used this turn already (one card into play a turn)",
                            R_MANDATORY)
    cid = influence_id(state, side, event.get("card"), R_MANDATORY)
    _put_into_play(state, side, cid, _thread(event.get("thread"), R_MANDATORY))
    state.mandatory_done = True


def _can_take_optional(state: State, side: str, kind: str) -> None:
    """One optional action more must fit the three optional Action Cards (each kind twice, three in all)."""
    taken = [*state.optional, kind]
    if len(taken) > 3 or taken.count(kind) > 2:
        done = engine.and_list([ACTION_WORDS[k].lower() for k in state.optional])
        raise IllegalAction(f"{state.name(side)} has used both optional Action Cards showing "
                            f"'{ACTION_WORDS[kind]}' this turn (each optional card shows two of the three actions; "
                            f"taken: {', '.join(state.optional)})" if taken.count(kind) > 2 else
                            f"{state.name(side)} has used all three optional Action Cards this turn ({done})",
                            R_OPTIONAL)


def _draw_action(state: State, side: str, event: Event, thread: int | None = None) -> None:
    _fields(event, set() if thread is None else {"card", "take"}, R_DRAW)
    if state.site_op() == "no_draw":
        raise IllegalAction(f"{state.here().name}: {site_text(state.here().effect)}",
                            R_SITE if thread is None else R_WATERLOO_FINAL)
    t = state.tables[side]
    if not t.deck and not t.discards():
        raise IllegalAction(f"{state.name(side)}'s deck and discard pile are empty: there is nothing to draw",
                            R_EMPTY_DECK)
    _draw(state, side, 1)
    _say(state, f"{state.name(side)} draws a card")


def _draw_event(state: State, side: str, event: Event) -> None:
    _my_turn(state, side)
    _can_take_optional(state, side, "draw")
    _draw_action(state, side, event)
    state.optional.append("draw")


def _support_here(state: State, side: str, target: Any, rule: Rule) -> str:
    """Add a support card from hand to a thread or under the agent; the words for what was done."""
    if state.site_op() == "no_support":
        raise IllegalAction(f"{state.here().name}: {site_text(state.here().effect)}",
                            R_SITE)
    t = state.tables[side]
    if t.hand <= 0:
        raise IllegalAction(f"{state.name(side)} has no card in hand to add as a Support Card", rule)
    if target == "agent":
        if not state.agents_mode:
            raise IllegalAction("Support Cards go under an Agent only in the Agent mode (variants: [agents])",
                                R_AGENT_SUPPORT)
        if not t.agent_here or t.agent:
            raise IllegalAction(f"{state.name(side)} has no face-down Agent to put a Support Card under",
                                R_AGENT_SUPPORT)
        t.hand -= 1
        t.agent_support += 1
        return f"{state.name(side)} adds a Support Card under the Agent ({t.agent_support})"
    thread = _thread(target, rule)
    t.hand -= 1
    t.support[thread] += 1
    return f"{state.name(side)} adds a Support Card in thread {thread + 1}"


def _support(state: State, side: str, event: Event) -> None:
    _fields(event, {"thread"}, R_SUPPORT)
    _my_turn(state, side)
    _can_take_optional(state, side, "support")
    _say(state, _support_here(state, side, event.get("thread"), R_SUPPORT))
    state.optional.append("support")


def _locate(state: State, side: str, cid_text: Any, thread_text: Any, rule: Rule,
            ok: Callable[[InPlay], bool] = lambda c: True, exclude: InPlay | None = None,
            unfit: str = "cannot be chosen") -> tuple[int, InPlay]:
    """A card of one side in play: its thread (given, or the only one holding such a card) and the card; `unfit`
    says why a card that is there but fails `ok` cannot be chosen."""
    cid = influence_id(state, side, cid_text, rule)
    threads = [_thread(thread_text, rule)] if thread_text is not None else [0, 1, 2]
    found = [(i, c) for i in threads for c in state.tables[side].threads[i] if c.id == cid and c is not exclude
             and ok(c)]
    if not found:
        where = f"thread {threads[0] + 1}" if len(threads) == 1 else "play"
        if any(c.id == cid and c is not exclude for i in threads for c in state.tables[side].threads[i]):
            raise IllegalAction(f"{state.name(side)}'s {card_name(state, side, cid)} in {where} {unfit}", rule)
        raise IllegalAction(f"{state.name(side)} has no such {card_name(state, side, cid)} in {where}", rule)
    if len({i for i, _ in found}) > 1:
        raise IllegalAction(f"{card_name(state, side, cid)} lies in threads "
                            f"{engine.and_list([str(i + 1) for i, _ in found])}: say which with its thread", rule)
    return found[0]


def _use(state: State, side: str, event: Event, thread: int | None = None) -> None:
    allowed = {"card", "thread", "target", "target_thread", "to", "discarded"}
    _fields(event, allowed | ({"take"} if thread is not None else set()), R_USE)
    if thread is None:
        _my_turn(state, side)
        _can_take_optional(state, side, "use")
        given_thread = event.get("thread")
    else:
        given_thread = thread + 1
    where, card = _locate(state, side, event.get("card"), given_thread, R_USE, lambda c: not c.used,
                          unfit="is already used: a card is used only once")
    design = cards(state.db).influence[side][card.id]
    _say(state, f"{state.name(side)} uses {design.name} in thread {where + 1} (now worth {design.used_value})")
    if state.site_op() == "no_effects":
        _say(state, f"{state.here().name}: its effect is not resolved")
    else:
        _resolve(state, side, design.effect, where, card, event)  # checks its choices before it changes anything
        card.resolved = True
    card.used = True
    if thread is None:
        state.optional.append("use")


def _targets(state: State, side: str, ok: Callable[[InPlay], bool], exclude: InPlay | None = None) -> int:
    return sum(1 for th in state.tables[side].threads for c in th if c is not exclude and ok(c))


def _resolve(state: State, side: str, effect: dict[str, Any], where: int, card: InPlay | None, event: Event) -> None:
    """Resolve an influence card's or an agent's effect with the choices the event names."""
    op, me, them = effect["op"], state.name(side), state.name(other(side))
    if op == "draw":
        n = _draw(state, side, int(effect["count"]))
        _say(state, f"{me} draws {n} card{'s' if n != 1 else ''}")
    elif op == "clock":
        _clock(state, -int(effect["hours"]) if side == "holmes" else int(effect["hours"]))
    elif op == "weaken":
        _say(state, f"{them}'s Influence in thread {where + 1} is {effect['amount']} lower while it stays used")
    elif op == "support":
        if state.site_op() == "no_support":
            _say(state, f"{state.here().name}: no Support Card may be added in this Stage")
        elif state.tables[side].hand:
            _say(state, _support_here(state, side, where + 1, R_EFFECT))
        else:
            _say(state, f"{me} has no card in hand to add as a Support Card")
    elif op == "discard":
        _effect_discard(state, other(side), event)
    elif op in ("move_own", "move_opponent"):
        owner = side if op == "move_own" else other(side)
        _effect_move(state, owner, event, card if owner == side else None)
    elif op == "cancel":
        _effect_cancel(state, side, event)
    elif op == "recall":
        _effect_recall(state, side, event, card)


def _need_target(state: State, side: str, event: Event, ok: Callable[[InPlay], bool], exclude: InPlay | None,
                 what: str) -> bool:
    """Whether the event names a target; refused if it names none while one could be chosen."""
    if event.get("target") is not None:
        return True
    if _targets(state, side, ok, exclude):
        raise IllegalAction(f"the effect needs a target: target: <{what}>, target_thread: 1-3", R_EFFECT)
    _say(state, "there is no card to choose: the effect does nothing")
    return False


def _effect_move(state: State, owner: str, event: Event, exclude: InPlay | None) -> None:
    if not _need_target(state, owner, event, lambda c: True, exclude, f"a card of {state.name(owner)} in play"):
        return
    src, target = _locate(state, owner, event["target"], event.get("target_thread"), R_EFFECT, exclude=exclude)
    dest = _thread(event.get("to"), R_EFFECT, "to")
    if dest == src:
        raise IllegalAction(f"to: the card must move to another Crime Thread than {src + 1}", R_EFFECT)
    state.tables[owner].threads[src].remove(target)
    state.tables[owner].threads[dest].append(target)
    _say(state, f"{card_name(state, owner, target.id)} moves from thread {src + 1} to thread {dest + 1} "
         f"({state.name(owner)}'s side)")


def _effect_cancel(state: State, side: str, event: Event) -> None:
    foe = other(side)

    def ok(c: InPlay) -> bool:
        return c.used and not c.distracted

    if not _need_target(state, foe, event, ok, None, f"a used card of {state.name(foe)}"):
        return
    where, target = _locate(state, foe, event["target"], event.get("target_thread"), R_CANCEL, ok,
                            unfit="is upright or has a Distraction Token already: only a used card without one can be cancelled")
    target.distracted = True
    _say(state, f"a Distraction Token on {card_name(state, foe, target.id)} in thread {where + 1}: its effect is "
         "cancelled")


def _effect_recall(state: State, side: str, event: Event, card: InPlay | None) -> None:
    def ok(c: InPlay) -> bool:
        return not c.used

    if not _need_target(state, side, event, ok, card, "another upright card of yours"):
        return
    where, target = _locate(state, side, event["target"], event.get("target_thread"), R_EFFECT, ok, card,
                            unfit="is used: only an upright card goes back to hand")
    state.tables[side].threads[where].remove(target)
    state.tables[side].hand += 1
    _say(state, f"{state.name(side)} takes {card_name(state, side, target.id)} back into hand from thread {where + 1}")


def _effect_discard(state: State, foe: str, event: Event) -> None:
    t = state.tables[foe]
    if t.hand == 0:
        _say(state, f"{state.name(foe)} has no card in hand to discard")
        return
    if event.get("discarded") is None:
        raise IllegalAction(f"{state.name(foe)} discards a card of their choice: discarded: <the card>", R_EFFECT)
    cid = influence_id(state, foe, event["discarded"], R_EFFECT)
    _from_hand(state, foe, cid, R_EFFECT)
    t.discard[cid] = t.discard.get(cid, 0) + 1
    _say(state, f"{state.name(foe)} discards {card_name(state, foe, cid)}")


def _clock(state: State, delta: int, quiet: bool = False) -> None:
    """Move the clock (never back before its start) and say so, unless the caller tells it."""
    before = state.hours
    state.hours = max(0, state.hours + delta)
    if quiet:
        return
    if state.hours > before:
        _say(state, f"the clock moves on {state.hours - before} hour{'s' if state.hours - before != 1 else ''} to "
             f"{clock_text(state.hours)}")
    elif state.hours < before:
        _say(state, f"the clock is turned back to {clock_text(state.hours)}")
    else:
        _say(state, "the clock cannot go back before its start")


def _activate(state: State, side: str, event: Event) -> None:
    _fields(event, {"agent", "thread", "target", "target_thread", "to"}, R_ACTIVATE)
    if not state.agents_mode:
        raise IllegalAction("this game is played without Agents", R_AGENTS)
    final = state.phase == "final_reveal"
    if not (state.phase == "turns" or final) or (final and _next_revealer(state) != side) or \
            (not final and side != state.active):
        raise IllegalAction(f"{state.name(side)} may activate an Agent only on their own turn, or in the Final "
                            "Turn when it is theirs to reveal", R_WHEN_ACTIVATE)
    t = state.tables[side]
    if not t.agent_here or t.agent:
        raise IllegalAction(f"{state.name(side)} has no face-down Agent to activate", R_ACTIVATE)
    agents = cards(state.db).agents[side]
    aid = _find(_names(agents), event.get("agent"), f"{SIDE_NAMES[side]} agent", R_ACTIVATE)
    agent = agents[aid]
    if aid in t.agent_discard:
        raise IllegalAction(f"{agent.name} is in {state.name(side)}'s agent discard pile", R_ACTIVATE)
    if t.agent_support < agent.cost:
        raise IllegalAction(f"{agent.name} costs {agent.cost} Support Card{'s' if agent.cost != 1 else ''}; "
                            f"{t.agent_support} lie under it", R_ACTIVATE)
    op = agent.op
    thread = _thread(event.get("thread"), R_ACTIVATE) if op == "bonus" else 0
    _say(state, f"{state.name(side)} activates {agent.name}")
    if op == "bonus":
        t.bonus[thread] += int(agent.ability["amount"])
        _say(state, f"{state.name(side)}'s Influence in thread {thread + 1} is {agent.ability['amount']} higher "
             "until Archiving")
    elif op == "limit":
        t.limit_bonus += int(agent.ability["amount"])
        _say(state, f"{state.name(side)}'s limit is now {state.limit(side)}")
    else:
        _resolve(state, side, agent.ability, 0, None, event)
    t.agent = aid


def _end(state: State, side: str, event: Event) -> None:
    _fields(event, set(), R_TURN)
    _my_turn(state, side)
    t = state.tables[side]
    if not state.mandatory_done and t.hand > 0 and t.in_play() < state.limit(side):
        raise IllegalAction(f"{state.name(side)} must first put one Influence Card into play (the mandatory action)",
                            R_MANDATORY)
    _say(state, f"{state.name(side)} ends the turn")
    if all(state.tables[s].hand == 0 for s in SIDES):
        _say(state, "both hands are empty: the Final Turn begins")
        _start_final(state)
        return
    if state.last_turn == side:
        _say(state, "the last turn is over: the Final Turn begins")
        _start_final(state)
        return
    if state.last_turn is None and t.in_play() >= state.limit(side):
        state.last_turn = other(side)
        _say(state, f"{state.name(side)} is at the limit ({state.limit(side)}): {state.name(other(side))} takes "
             "one last turn")
    state.active, state.mandatory_done, state.optional = other(side), False, []


# --- the Final Turn -------------------------------------------------------------------------------

def _start_final(state: State) -> None:
    state.phase, state.active = "final_place", state.first
    state.placed = {"holmes": [], "moriarty": []}
    state.revealed_actions = {"holmes": [], "moriarty": []}


def _action_card(value: Any, rule: Rule) -> str:
    options = {a: a for a in ACTION_CARDS}
    options.update({n.lower(): a for a, n in ACTION_CARD_NAMES.items()})
    options.update({"mandatory": "play", "into_play": "play"})
    return _find(options, value, "action card (play, draw_use, draw_support, use_support)", rule)


def _place(state: State, side: str, event: Event) -> None:
    _fields(event, {"card", "thread"}, R_FINAL_PLACE)
    if state.phase != "final_place":
        raise IllegalAction(_phase_words(state), _phase_rule(state))
    if side != state.active:
        raise IllegalAction(f"it is {state.name(state.active)}'s turn to place an Action Card", R_FINAL_PLACE)
    card = _action_card(event.get("card"), R_FINAL_PLACE)
    if card in [c for c, _ in state.placed[side]]:
        # the cards lie face down: the refusal names none of them (the table would learn where one lies)
        raise IllegalAction(f"{state.name(side)} has placed that Action Card already: each of the four is placed "
                            "once", R_FINAL_PLACE)
    thread = _thread(event.get("thread"), R_FINAL_PLACE)
    state.placed[side].append((card, thread))
    _say(state, f"{state.name(side)} places an Action Card face down in thread {thread + 1}")
    if all(len(p) == len(ACTION_CARDS) for p in state.placed.values()):
        state.phase, state.active = "final_reveal", state.first
    else:
        state.active = other(side)


def _next_revealer(state: State) -> str:
    done = {s: len(state.revealed_actions[s]) for s in SIDES}
    return state.first if done[state.first] <= done[other(state.first)] else other(state.first)


def _reveal(state: State, side: str, event: Event) -> None:
    if state.phase != "final_reveal":
        raise IllegalAction(_phase_words(state), _phase_rule(state))
    if side != _next_revealer(state):
        raise IllegalAction(f"it is {state.name(_next_revealer(state))}'s turn to reveal an Action Card",
                            R_FINAL_REVEAL)
    card = _action_card(event.get("card"), R_FINAL_REVEAL)
    if card in state.revealed_actions[side]:
        raise IllegalAction(f"{state.name(side)}'s {ACTION_CARD_NAMES[card]} card is revealed already", R_FINAL_REVEAL)
    thread = dict(state.placed[side])[card]
    take = event.get("take", "skip")
    shows = ACTION_CARD_SHOWS[card]
    if take != "skip" and take not in shows:
        raise IllegalAction(f"take: the {ACTION_CARD_NAMES[card]} card shows {' or '.join(shows)} (or skip), "
                            f"not {take!r}", R_FINAL_REVEAL)
    _say(state, f"{state.name(side)} reveals {ACTION_CARD_NAMES[card]} in thread {thread + 1}")
    if take == "skip":
        _fields(event, {"card", "take"}, R_FINAL_REVEAL)
        _say(state, f"{state.name(side)} skips it")
    elif take == "play":
        _fields(event, {"card", "take", "influence"}, R_FINAL_REVEAL)
        cid = influence_id(state, side, event.get("influence"), R_FINAL_REVEAL)
        _put_into_play(state, side, cid, thread, R_FINAL_REVEAL)
    elif take == "draw":
        _draw_action(state, side, event, thread)
    elif take == "support":
        _fields(event, {"card", "take"}, R_FINAL_REVEAL)
        _say(state, _support_here(state, side, thread + 1, R_SUPPORT))
    else:
        inner = {k: v for k, v in event.items() if k not in ("card", "influence")}
        inner["card"] = event.get("influence")
        _use(state, side, inner, thread)
    state.revealed_actions[side].append(card)
    if all(len(r) == len(ACTION_CARDS) for r in state.revealed_actions.values()):
        _summary(state)


# --- the Summary and Archiving --------------------------------------------------------------------

def thread_totals(state: State, thread: int, without: InPlay | None = None) -> dict[str, int]:
    """Each side's Influence in a thread: values upright or used, Support Cards, lasting effects, agents
    (`without`: as if that card were not there)."""
    c = cards(state.db)
    support_value = int(state.here().effect["value"]) if state.site_op() == "support_value" else 1
    totals = {}
    for side in SIDES:
        t = state.tables[side]
        totals[side] = sum(c.influence[side][p.id].used_value if p.used else c.influence[side][p.id].value
                           for p in t.threads[thread] if p is not without) + support_value * t.support[thread] \
            + t.bonus[thread]
    for side in SIDES:
        for p in state.tables[side].threads[thread]:
            design = c.influence[side][p.id]
            if p is without:
                continue
            if p.used and p.resolved and not p.distracted and design.op == "weaken":
                totals[other(side)] -= int(design.effect["amount"])
    return {s: max(0, v) for s, v in totals.items()}


def _hours_words(n: int) -> str:
    return f"{n} hour" + ("" if n == 1 else "s")


def _summary(state: State) -> None:
    """Count each thread left to right, then archive (or end the game)."""
    stage: list[Conclusion] = []
    state.conclusions.append(stage)
    op = state.site_op()
    for i in range(3):
        totals = thread_totals(state, i)
        lead = totals["holmes"] - totals["moriarty"]
        conclusion = Conclusion(i + 1, totals["holmes"], totals["moriarty"], "none", decided=_deciding(state, i, lead))
        stage.append(conclusion)
        # one phrase a thread, told with its number, so that no two threads read alike in the history
        head = f"thread {i + 1} ({totals['holmes']} to {totals['moriarty']})"
        if lead == 0 and op == "tie_hour":
            conclusion.outcome, conclusion.hours = "tie_hour", 1
            _clock(state, 1, quiet=True)
            _say(state, f"{head} nobody leads so {state.here().name} adds 1 hour (now {clock_text(state.hours)})")
            continue
        if lead == 0 and op == "tie_deduction" and not state.revealed[i]:
            lead = 1
            head += f" nobody leads which {state.here().name} counts as Holmes' lead of 1 and"
        else:
            head += " Holmes leads by" if lead > 0 else " Moriarty leads by" if lead < 0 else " nobody leads"
        if lead > 0:
            if state.revealed[i]:
                conclusion.outcome = "revealed_already"
                _say(state, f"{head} {lead} but it is revealed already")
            elif lead >= 3 or state.deductions[i]:
                conclusion.outcome, conclusion.plan = "revealed", state.plan[i] if state.plan else None
                token = " with a Deduction Token there" if lead < 3 else ""
                _say(state, f"{head} {lead}{token} and reveals it")
                _reveal_thread(state, i)
            else:
                state.deductions[i] = 1
                conclusion.outcome = "deduction"
                _say(state, f"{head} {lead} and puts a Deduction Token there")
        elif lead < 0:
            hours = 1 if -lead <= 2 else 2
            conclusion.outcome, conclusion.hours = ("hour" if hours == 1 else "two_hours"), hours
            _clock(state, hours, quiet=True)
            _say(state, f"{head} {-lead} and adds {_hours_words(hours)} (now {clock_text(state.hours)})")
        else:
            _say(state, head)
    _archive(state)


def _band(lead: int) -> int:
    """The Summary's outcome band of a lead: Holmes by 3+, by 1-2, none, Moriarty by 1-2, by 3+."""
    return (lead >= 3) + (lead >= 1) - (lead <= -1) - (lead <= -3)


def _deciding(state: State, thread: int, lead: int) -> list[tuple[str, str]]:
    """The cards in a thread without which its Summary would fall in another band."""
    out = []
    for side in SIDES:
        for p in state.tables[side].threads[thread]:
            totals = thread_totals(state, thread, p)
            if _band(totals["holmes"] - totals["moriarty"]) != _band(lead):
                out.append((side, p.id))
    return out


def _reveal_thread(state: State, i: int) -> None:
    state.revealed[i], state.deductions[i] = True, 0
    plan = cards(state.db).plans[state.plan[i]] if state.plan else None
    if plan is None:
        return
    _say(state, f"it is {plan.name} ({plan.thread}): {crime_text(plan.effect).rstrip('.')}")
    op = plan.op
    if op == "clock":
        _clock(state, int(plan.effect["hours"]))
    elif op == "draw":
        for side in SIDES if plan.effect["who"] == "each" else (str(plan.effect["who"]),):
            n = _draw(state, side, int(plan.effect["count"]))
            if n < int(plan.effect["count"]):
                _say(state, f"{state.name(side)}'s deck and discards hold only {n} to draw")
    elif op == "clear_support":
        for side in SIDES if plan.effect["side"] == "each" else (str(plan.effect["side"]),):
            t = state.tables[side]
            if t.support[i]:
                _say(state, f"{state.name(side)}'s {t.support[i]} Support Card{'s' if t.support[i] != 1 else ''} in "
                     f"thread {i + 1} go to the discard pile")
            t.discard_unseen += t.support[i]
            t.support[i] = 0
    elif op == "keep_first":
        state.keep_first = True


def _archive(state: State) -> None:
    """Check the endings; if the game goes on, clear the table and pass the First Player Card."""
    if all(state.revealed):
        state.phase = "over"
        if state.hours < CLOCK_HOURS:
            state.winner = "holmes"
            state.why = (f"{state.name('holmes')} (Holmes) wins: all three threads are revealed and the clock shows "
                         f"{clock_text(state.hours)}, before it has gone round")
        else:
            state.winner = "draw"
            state.why = (f"a draw, an unresolved duel: the last thread is revealed but the clock has reached 12 "
                         f"({state.hours} hours)")
    elif state.hours >= CLOCK_HOURS:
        state.phase, state.winner = "over", "moriarty"
        hidden = engine.and_list([str(i + 1) for i in range(3) if not state.revealed[i]])
        state.why = (f"{state.name('moriarty')} (Moriarty) wins: the clock has reached 12 ({state.hours} hours) with "
                     f"thread{'s' if len(hidden) > 1 else ''} {hidden} still hidden")
    if state.phase == "over":
        _say(state, "game over: " + state.why)
        return
    for side in SIDES:
        t = state.tables[side]
        for thread in t.threads:
            for p in thread:
                t.discard[p.id] = t.discard.get(p.id, 0) + 1
        t.threads = [[], [], []]
        t.bonus, t.limit_bonus = [0, 0, 0], 0
        if t.agent:
            t.agent_discard.append(t.agent)
            t.discard_unseen += t.agent_support
            t.agent, t.agent_here, t.agent_support = None, False, 0
    if state.keep_first:
        _say(state, f"Archiving: the First Player Card stays with {state.name(state.first)}")
    else:
        state.first = other(state.first)
        _say(state, f"Archiving: the First Player Card passes to {state.name(state.first)}")
    state.phase, state.site, state.active = "site", None, state.first
    state.placed, state.revealed_actions = {}, {}


def clock_text(hours: int) -> str:
    """The clock face for the hours passed: 0 -> '12 o'clock', 5 -> '5 o'clock', 12 -> '12 o'clock (12 hours)'."""
    face = hours % 12 or 12
    return f"{face} o'clock" + (f" ({hours} hours passed)" if hours >= CLOCK_HOURS else "")


def _phase_words(state: State) -> str:
    return {
        "plan": f"first {state.name('moriarty')} (Moriarty) lays the crime plan: {{action: plan, plan: [...]}}",
        "site": "the next Stage starts with its Investigation Site: {action: site, site: <site>}",
        "setup": "the Initial Setup is on: each player places 3 cards face down, in turns ({action: setup})",
        "turns": f"it is {state.name(state.active)}'s turn in the Course of the Investigation",
        "final_place": "the Final Turn: the players place their Action Cards face down ({action: place})",
        "final_reveal": "the Final Turn: the players reveal their Action Cards ({action: reveal})",
    }.get(state.phase, state.phase)


def _phase_rule(state: State) -> Rule:
    """The rule of what comes now, for an event out of its phase: what a player looks up to see what to do."""
    return {"plan": R_PLAN, "site": R_SITE, "setup": R_INITIAL, "turns": R_TURN, "final_place": R_FINAL_PLACE,
            "final_reveal": R_FINAL_REVEAL}.get(state.phase, R_ENDS.get(str(state.winner), R_END))


ACTIONS: dict[str, Callable[[State, str, Event], None]] = {
    "plan": _plan, "site": _site, "setup": _setup, "play": _play, "draw": _draw_event, "use": _use,
    "support": _support, "activate": _activate, "end": _end, "place": _place, "reveal": _reveal,
    "discard": _discard, "replace_agent": _replace_agent,
}


def apply(state: State, event: Event) -> None:
    """Apply one event; IllegalAction (naming the rule) if the rules forbid it."""
    action = action_of(event, ACTIONS, R_TURN)
    if state.phase == "over":
        raise IllegalAction(f"the game is over: {state.why}", R_ENDS.get(str(state.winner), R_END))
    side = state.side_of(_player(state, event.get("by")))
    state.said = []
    ACTIONS[action](state, side, event)
    state.events += 1
    state.history.append("; ".join(state.said))


def check(state: State, event: Event) -> str | None:
    """Why an event would be refused, or None; the state is left as it was."""
    return check_on_copy(apply, state, event)


def describe(state: State, event: Event, after: State | None = None) -> str:
    """An event told for people with what it did: 'Ann puts Urgent Telegram into play in thread 2'."""
    if not isinstance(event, dict):
        return str(event)
    said = engine.told(apply, state, event, after)
    if said is not None:
        return said
    who, action = str(event.get("by", "someone")), event.get("action")
    bits = [f"{k} {_value_words(state, event.get('by'), k, v)}" for k, v in event.items() if k not in ("action", "by")]
    return f"{who}: {action}" + (f" ({', '.join(bits)})" if bits else "")


def _value_words(state: State, who: Any, key: str, value: Any) -> Any:
    """A field of an event the rules refused, by name where it names a known card ('Urgent Telegram')."""
    if not isinstance(value, str):
        return value
    if key == "card" and value in ACTION_CARD_NAMES:
        return ACTION_CARD_NAMES[value]
    c = cards(state.db)
    pools: list[dict[str, Any]] = [c.sites, c.plans]
    with contextlib.suppress(IllegalAction):
        side = state.side_of(_player(state, who))
        pools = [c.influence[side], c.influence[other(side)], c.agents[side], *pools]
    return next((pool[value].name for pool in pools if value in pool), value)


# --- reading the state ----------------------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.phase == "over"


def result(state: State) -> dict[str, Any]:
    """Once over: the winner's name (None for a draw), the side ('holmes', 'moriarty', 'draw') and why."""
    over = is_over(state)
    scores = {state.name(s): int(over and state.winner == s) for s in SIDES}
    out: dict[str, Any] = {"over": over, "scores": scores, "hours": state.hours, "revealed": sum(state.revealed)}
    if over:
        out["side"] = state.winner
        out["winner"] = state.name(state.winner) if state.winner in SIDES else None
        out["decided_by"] = {"holmes": "revealed", "moriarty": "clock", "draw": "draw"}[str(state.winner)]
        out["why"] = state.why
    return out


def _card_dict(state: State, side: str, p: InPlay) -> dict[str, Any]:
    design = cards(state.db).influence[side][p.id]
    return {"id": p.id, "name": design.name, "used": p.used, "distracted": p.distracted,
            "value": design.used_value if p.used else design.value, "text": design.effect and influence_text(design.effect)}


PHASE_TITLES = {"plan": "The Crime Plan", "site": "The site", "setup": "The Initial Setup", "turns": "Turns",
                "final_place": "The Final Turn", "final_reveal": "The Final Turn", "over": "The end"}


def _history_group(state: State) -> tuple[str, str]:
    """The history's heading and group for what happens next: the Stage (the site's turning up starts the
    next one), then its step."""
    stage = state.stage + 1 if state.phase == "site" else state.stage
    return (f"Stage {stage}" if stage else ""), PHASE_TITLES.get(state.phase, state.phase)


def actions_left(state: State) -> dict[str, Any]:
    """The active player's actions still open this turn: the mandatory one, and how many of each optional."""
    if state.phase != "turns":
        return {}
    left = {k: min(2 - state.optional.count(k), 3 - len(state.optional)) for k in OPTIONAL_ACTIONS}
    return {"mandatory": not state.mandatory_done, **left}


def summary(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The whole state as plain data; the crime plan of hidden threads, face-down setup cards and placed Action
    Cards only for the player they belong to (everything once the game is over)."""
    over = is_over(state)
    me = state.side_of(viewer) if viewer is not None else None
    setup_hidden = state.phase == "setup"
    c = cards(state.db)

    def sees(side: str) -> bool:
        return over or viewer is None or me == side

    threads = []
    for i in range(3):
        plan_id = state.plan[i] if state.plan else None
        shown = plan_id if plan_id and (state.revealed[i] or sees("moriarty")) else None
        totals = thread_totals(state, i)
        sides = {}
        for side in SIDES:
            t = state.tables[side]
            hidden = setup_hidden and not sees(side)
            sides[side] = {"cards": [{"id": None, "name": "face down"} if hidden else _card_dict(state, side, p)
                                     for p in t.threads[i]],
                           "support": t.support[i], "bonus": t.bonus[i], "total": None if setup_hidden else totals[side]}
        threads.append({"thread": i + 1, "revealed": state.revealed[i], "deduction": state.deductions[i],
                        "plan": shown, "plan_name": c.plans[shown].name if shown else None,
                        "kind": c.plans[shown].thread if shown else None,
                        "advantage": None if setup_hidden else totals["holmes"] - totals["moriarty"], **sides})
    site = state.site_card()
    tables = {}
    for side in SIDES:
        t = state.tables[side]
        tables[side] = {"player": state.name(side), "hand": t.hand, "deck": t.deck, "discard": t.discards(),
                        "discard_seen": {c.influence[side][k].name: n for k, n in sorted(t.discard.items())},
                        "in_play": t.in_play(), "limit": state.limit(side) if site else None,
                        "support": sum(t.support), "reshuffles": t.reshuffles}
        if state.agents_mode:
            tables[side]["agent"] = {"face_down": t.agent_here and not t.agent, "active": t.agent and
                                     c.agents[side][t.agent].name, "support": t.agent_support, "deck": t.agent_deck,
                                     "discard": [c.agents[side][a].name for a in t.agent_discard]}
    placed = {side: [{"thread": th + 1, "card": ACTION_CARD_NAMES[a] if sees(side) or a in
                      state.revealed_actions.get(side, []) else None,
                      "revealed": a in state.revealed_actions.get(side, [])} for a, th in state.placed.get(side, [])]
              for side in SIDES}
    active = None
    if state.phase in ("setup", "turns", "final_place"):
        active = state.name(state.active)
    elif state.phase == "final_reveal":
        active = state.name(_next_revealer(state))
    return {
        "game": ID, "players": list(state.players), "variants": ["agents"] if state.agents_mode else [],
        "events": state.events, "phase": state.phase, "stage": state.stage,
        "step": (f"Stage {state.stage} · {state.hours} of {CLOCK_HOURS} hours · {sum(state.revealed)} of 3 revealed"
                 if state.stage else "the crime plan"),
        "scored": False,  # no points: the clock and the threads are where a game stands
        "group": list(_history_group(state)),  # a list: the summary stays the same through JSON
        "holmes": state.name("holmes"), "moriarty": state.name("moriarty"),
        "first_player": state.name(state.first), "active": active,
        "clock": {"hours": state.hours, "shows": clock_text(state.hours), "left": max(0, CLOCK_HOURS - state.hours)},
        "site": None if site is None else {"id": site.id, "name": site.name, "hours": site.hours, "limit": site.limit,
                                           "text": site_text(site.effect)},
        "sites_used": [c.sites[s].name for s in state.stage_sites],
        "last_turn": state.name(state.last_turn) if state.last_turn else None,
        "actions_left": actions_left(state),
        "threads": threads, "tables": tables, "final_turn": placed,
        "conclusions": [[{"thread": k.thread, "holmes": k.holmes, "moriarty": k.moriarty, "outcome": k.outcome,
                          "hours": k.hours, "plan": c.plans[k.plan].name if k.plan else None} for k in stage]
                        for stage in state.conclusions],
        "history": list(state.history),
        "result": result(state),
    }


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: Moriarty his crime plan, each player his own face-down cards."""
    return summary(state, viewer=player)


def report(s: dict[str, Any]) -> list[str]:
    """The state for people (replay output): each Stage's Summary, the threads, the clock and what is next."""
    lines = []
    for n, stage in enumerate(s["conclusions"], start=1):
        parts = [f"{k['thread']}: {k['holmes']}-{k['moriarty']} {k['outcome'].replace('_', ' ')}"
                 + (f" ({k['plan']})" if k["plan"] else "") for k in stage]
        lines.append(f"Stage {n} ({s['sites_used'][n - 1]}): " + "; ".join(parts))
    threads = ", ".join(f"{t['thread']} " + ("revealed" if t["revealed"] else "hidden")
                        + (" +deduction" if t["deduction"] else "") for t in s["threads"])
    hours = s["clock"]["hours"]
    lines.append(f"clock: {s['clock']['shows']} ({hours} hour{'' if hours == 1 else 's'}); threads: {threads}")
    if s["result"]["over"]:
        lines.append(s["result"]["why"])
    else:
        lines.append(f"{s['step']}; {s['active'] or s['first_player']} to act")
    return lines


def problems(state: State) -> list[str]:
    """What is inconsistent in a state (for a corrupt save), without raising."""
    found = []
    c = cards(state.db)
    for side in SIDES:
        t = state.tables[side]
        if min(t.hand, t.deck, t.discard_unseen, *t.support) < 0:
            found.append(f"{SIDE_NAMES[side]}: negative card counts")
        total = t.hand + t.deck + t.discards() + t.in_play() + sum(t.support) + t.agent_support
        if total != c.deck_size[side]:
            found.append(f"{SIDE_NAMES[side]}'s cards do not add up: hand {t.hand} + deck {t.deck} + discards "
                         f"{t.discards()} + in play {t.in_play()} + support {sum(t.support) + t.agent_support} "
                         f"!= {c.deck_size[side]}")
        for cid, design in c.influence[side].items():
            if len(_seen(state, side, cid)) > design.copies:
                found.append(f"more than {design.copies} copies of {design.name} are seen")
    if state.hours < 0:
        found.append("the clock shows fewer than 0 hours")
    if state.phase == "over" and state.winner is None:
        found.append("the game is over without a result")
    return found


# --- simulation: a table that knows every card ----------------------------------------------------

Option = tuple[Event, list[tuple[str, str, Any]]]  # an event and what it does to the hidden cards: (op, side, x)


def value_for_holmes(state: State) -> float:
    """A rough worth of the table to Holmes (Moriarty wants it low): threads won, hours, cards in hand."""
    score = -1.0 * state.hours
    for i in range(3):
        totals = thread_totals(state, i)
        lead = totals["holmes"] - totals["moriarty"]
        if state.revealed[i]:
            score += 4
        elif lead >= 3 or (lead >= 1 and state.deductions[i]):
            score += 3.5
        elif lead >= 1:
            score += 1.6
        if lead < 0:
            score -= 1 if lead >= -2 else 2
    score += 0.3 * (state.tables["holmes"].hand - state.tables["moriarty"].hand)
    # Support Cards under a face-down agent are on their way to its ability (the costs run 1-3)
    score += 0.6 * (min(state.tables["holmes"].agent_support, 2) - min(state.tables["moriarty"].agent_support, 2))
    return score


class Player:
    """A simulated player: picks at random among the legal options (ending a turn now and then)."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: State, side: str, options: list[Option]) -> Option:
        ends = [o for o in options if o[0]["action"] == "end"]
        if ends and self.rng.random() < 0.35:
            return ends[0]
        return self.rng.choice(options)


class GreedyPlayer(Player):
    """A simulated player who takes the option that leaves the table best for its side (one step ahead)."""

    name = "greedy"

    def choose(self, state: State, side: str, options: list[Option]) -> Option:
        sign = 1 if side == "holmes" else -1
        best, best_value = options[0], -1e9
        kept = state.history, state.conclusions
        state.history, state.conclusions = [], []  # the look-ahead copies need neither
        try:
            afters = [engine.state_after(apply, state, option[0]) for option in options]
        finally:
            state.history, state.conclusions = kept
        for option, after in zip(options, afters, strict=True):
            if after is None:
                continue
            value = sign * value_for_holmes(after) + self.rng.random() * 0.05
            if option[0]["action"] == "end":
                value -= 0.01  # an action worth nothing is still taken before ending
            if value > best_value:
                best, best_value = option, value
        return best


@dataclass
class Hidden:
    """What the simulated table knows and the referee does not: hands, support cards, agents."""

    hands: dict[str, list[str]]
    support: dict[str, list[list[str]]]
    agent_support: dict[str, list[str]]
    unseen_discard: dict[str, list[str]]
    agent_deck: dict[str, list[str]]
    agent: dict[str, str | None]
    reshuffles: dict[str, int]


def _pool(state: State, hidden: Hidden, side: str) -> list[str]:
    """The cards of a side's deck: all of them but those in hand, in play, supporting or discarded."""
    c = cards(state.db)
    left = Counter({cid: d.copies for cid, d in c.influence[side].items()})
    t = state.tables[side]
    left.subtract(hidden.hands[side])
    left.subtract([x for th in hidden.support[side] for x in th] + hidden.agent_support[side])
    left.subtract([p.id for th in t.threads for p in th])
    left.subtract(t.discard)
    left.subtract(hidden.unseen_discard[side])
    return sorted(left.elements())


def _sync(state: State, hidden: Hidden, rng: random.Random) -> None:
    """After an event: support cards discarded, reshuffles, and the cards each side drew."""
    for side in SIDES:
        t = state.tables[side]
        for i in range(3):
            while len(hidden.support[side][i]) > t.support[i]:
                hidden.unseen_discard[side].append(hidden.support[side][i].pop())
        if t.agent_support == 0 and hidden.agent_support[side]:
            hidden.unseen_discard[side] += hidden.agent_support[side]
            hidden.agent_support[side] = []
        if t.reshuffles != hidden.reshuffles[side]:
            hidden.reshuffles[side] = t.reshuffles
            keep = t.discard_unseen
            hidden.unseen_discard[side] = hidden.unseen_discard[side][-keep:] if keep else []
        drawn = t.hand - len(hidden.hands[side])
        if drawn > 0:
            hidden.hands[side] += rng.sample(_pool(state, hidden, side), drawn)
        if state.agents_mode and t.agent_here and hidden.agent[side] is None:
            if not hidden.agent_deck[side]:  # the referee shuffled the agent discards into a new deck
                hidden.agent_deck[side] = sorted(set(cards(state.db).agents[side]) - set(t.agent_discard))
                rng.shuffle(hidden.agent_deck[side])
            hidden.agent[side] = hidden.agent_deck[side].pop()
        if not t.agent_here:
            hidden.agent[side] = None


def _least(state: State, side: str, hand: list[str]) -> str:
    """The card a player gives up most easily: the lowest upright value."""
    infl = cards(state.db).influence[side]
    return min(hand, key=lambda cid: (infl[cid].value, cid))


def _effect_choices(state: State, side: str, hidden: Hidden, op: str, thread: int,
                    card: InPlay | None) -> list[tuple[dict[str, Any], list[tuple[str, str, Any]]]]:
    """Every way to resolve an effect: the event fields and what they do to the hidden cards."""
    foe = other(side)
    if state.site_op() == "no_effects" and card is not None:
        return [({}, [])]
    out: list[tuple[dict[str, Any], list[tuple[str, str, Any]]]] = []
    if op in ("move_own", "move_opponent"):
        owner = side if op == "move_own" else foe
        for i, th in enumerate(state.tables[owner].threads):
            for p in {q.id: q for q in th if q is not card}.values():
                out += [({"target": p.id, "target_thread": i + 1, "to": to + 1}, []) for to in range(3) if to != i]
    elif op == "cancel":
        out = [({"target": p.id, "target_thread": i + 1}, []) for i, th in enumerate(state.tables[foe].threads)
               for p in th if p.used and not p.distracted]
    elif op == "recall":
        out = [({"target": p.id, "target_thread": i + 1}, [("hand_in", side, p.id)])
               for i, th in enumerate(state.tables[side].threads) for p in th if not p.used and p is not card]
    elif op == "discard" and hidden.hands[foe]:
        gone = _least(state, foe, hidden.hands[foe])
        out = [({"discarded": gone}, [("hand_out", foe, gone)])]
    elif op == "support" and hidden.hands[side] and state.site_op() != "no_support":
        gone = _least(state, side, hidden.hands[side])
        out = [({}, [("hand_out", side, gone), ("support", side, (thread, gone))])]
    return out or [({}, [])]


def options(state: State, side: str, hidden: Hidden) -> list[Option]:
    """Every legal event (with its choices) a side may take now, from the cards it really holds."""
    t, hand = state.tables[side], sorted(set(hidden.hands[side]))
    by = state.name(side)
    out: list[Option] = []
    if state.phase == "setup" and state.active == side:
        return [({"action": "setup", "by": by, "card": cid, "thread": i + 1}, [("hand_out", side, cid)])
                for cid in hand for i in range(3)]
    if state.phase == "turns" and state.active == side:
        left = actions_left(state)
        if left["mandatory"] and hand and t.in_play() < state.limit(side):
            out += [({"action": "play", "by": by, "card": cid, "thread": i + 1}, [("hand_out", side, cid)])
                    for cid in hand for i in range(3)]
        if left["draw"] > 0 and state.site_op() != "no_draw" and (t.deck or t.discards()):
            out.append(({"action": "draw", "by": by}, []))
        if left["support"] > 0 and hand and state.site_op() != "no_support":
            gone = _least(state, side, hidden.hands[side])
            out += [({"action": "support", "by": by, "thread": i + 1}, [("hand_out", side, gone),
                                                                       ("support", side, (i, gone))]) for i in range(3)]
            if state.agents_mode and t.agent_here and not t.agent:
                out.append(({"action": "support", "by": by, "thread": "agent"},
                            [("hand_out", side, gone), ("support", side, ("agent", gone))]))
        if left["use"] > 0:
            out += _use_options(state, side, hidden, None)
        out += _agent_options(state, side, hidden)
        if not left["mandatory"] or not hand or t.in_play() >= state.limit(side):
            out.append(({"action": "end", "by": by}, []))
    elif state.phase == "final_place" and state.active == side:
        done = [a for a, _ in state.placed[side]]
        out = [({"action": "place", "by": by, "card": a, "thread": i + 1}, []) for a in ACTION_CARDS if a not in done
               for i in range(3)]
    elif state.phase == "final_reveal" and _next_revealer(state) == side:
        for a, th in state.placed[side]:
            if a in state.revealed_actions[side]:
                continue
            base = {"action": "reveal", "by": by, "card": a}
            out.append(({**base, "take": "skip"}, []))
            for take in ACTION_CARD_SHOWS[a]:
                if take == "play" and t.in_play() < state.limit(side):
                    out += [({**base, "take": "play", "influence": cid}, [("hand_out", side, cid)]) for cid in hand]
                elif take == "draw" and state.site_op() != "no_draw" and (t.deck or t.discards()):
                    out.append(({**base, "take": "draw"}, []))
                elif take == "support" and hand and state.site_op() != "no_support":
                    gone = _least(state, side, hidden.hands[side])
                    out.append(({**base, "take": "support"}, [("hand_out", side, gone), ("support", side, (th, gone))]))
                elif take == "use":
                    out += [({**base, "take": "use", **{k: v for k, v in e.items() if k not in ("action", "by",
                                                                                              "card", "thread")},
                              "influence": e["card"]}, fx) for e, fx in _use_options(state, side, hidden, th)]
        if state.agents_mode:
            out += _agent_options(state, side, hidden)
    return out


def _use_options(state: State, side: str, hidden: Hidden, only: int | None) -> list[Option]:
    out: list[Option] = []
    infl = cards(state.db).influence[side]
    for i, th in enumerate(state.tables[side].threads):
        if only is not None and i != only:
            continue
        for p in {q.id: q for q in th if not q.used}.values():
            for fields, fx in _effect_choices(state, side, hidden, infl[p.id].op, i, p):
                out.append(({"action": "use", "by": state.name(side), "card": p.id, "thread": i + 1, **fields}, fx))
    return out


def _agent_options(state: State, side: str, hidden: Hidden) -> list[Option]:
    t, aid = state.tables[side], hidden.agent[side]
    if not state.agents_mode or aid is None or t.agent or not t.agent_here:
        return []
    agent = cards(state.db).agents[side][aid]
    if t.agent_support < agent.cost:
        return []
    base = {"action": "activate", "by": state.name(side), "agent": aid}
    if agent.op == "bonus":
        return [({**base, "thread": i + 1}, []) for i in range(3)]
    return [({**base, **fields}, fx) for fields, fx in _effect_choices(state, side, hidden, agent.op, 0, None)]


def _mirror(hidden: Hidden, fx: list[tuple[str, str, Any]]) -> None:
    for op, side, x in fx:
        if op == "hand_out":
            hidden.hands[side].remove(x)
        elif op == "hand_in":
            hidden.hands[side].append(x)
        elif op == "support":
            where, cid = x
            (hidden.agent_support[side] if where == "agent" else hidden.support[side][where]).append(cid)


def simulate(db: GameDatabase, setup: dict[str, Any], players: dict[str, Player], rng: random.Random,
             max_events: int = 3000) -> tuple[State, list[Event]]:
    """Play a whole game with real shuffled decks and the given players (by side); the state and its log."""
    state = new_state(db, setup)
    c = cards(db)
    hidden = Hidden({s: [] for s in SIDES}, {s: [[], [], []] for s in SIDES}, {s: [] for s in SIDES},
                    {s: [] for s in SIDES}, {s: rng.sample(sorted(c.agents[s]), len(c.agents[s])) for s in SIDES},
                    {s: None for s in SIDES}, {s: 0 for s in SIDES})
    plan = [rng.choice(sorted(p.id for p in c.plans.values() if p.thread == kind)) for kind in THREAD_KINDS]
    rng.shuffle(plan)
    events: list[Event] = []
    sites: list[str] = []

    def act(event: Event, fx: list[tuple[str, str, Any]]) -> None:
        apply(state, event)
        events.append(event)
        _mirror(hidden, fx)
        _sync(state, hidden, rng)

    if state.phase == "plan":
        act({"action": "plan", "by": state.name("moriarty"), "plan": plan}, [])
    while not is_over(state) and len(events) < max_events:
        if state.phase == "site":
            if not sites:
                sites = [s for s in c.sites if s not in state.sites_used] or sorted(c.sites)
                rng.shuffle(sites)
            act({"action": "site", "by": state.name(state.first), "site": sites.pop()}, [])
            continue
        side = state.active if state.phase != "final_reveal" else _next_revealer(state)
        choices = options(state, side, hidden)
        if not choices:
            raise RuntimeError(f"no legal option for {side} in phase {state.phase}")
        event, fx = players[side].choose(state, side, choices)
        act(event, fx)
    return state, events
