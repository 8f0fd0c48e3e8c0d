"""Clash of Minds: Holmes vs Moriarty (exactly 2 players): the card vocabulary and its printed texts.

Every designed card carries its effect as data (`effect`, `ability`); the printed `text` must be
exactly what this module makes of it, so the card and the engine cannot disagree.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rules.yamlsource import plain

if TYPE_CHECKING:
    from rules.cards import GameDatabase
    from rules.problems import Problems

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
        "tie_deduction": "Summary: each hidden Crime Thread where neither side leads gets a Deduction Token.",
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
        whose = "all" if side == "each" else f"all of {SIDE_NAMES[side]}'s"
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
    effect = plain(dict(card[key])) if hasattr(card[key], "items") else None
    op = effect.get("op") if effect else None
    if op not in ops:
        problems.add(card.field_place(key), f"card '{card.id}': unknown {key} op {op!r}", "op: one of " + ", ".join(ops))
        return False
    ok = True
    params = ops[str(op)]
    for name, value in effect.items():  # type: ignore[union-attr]
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
        if name not in effect:  # type: ignore[operator]
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
