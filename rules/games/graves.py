"""Detective Graves against The Mastermind: facts the card database must satisfy."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from rules.problems import Problems

if TYPE_CHECKING:
    from rules.cards import GameDatabase

ID = "graves"
TITLE = "Detective Graves against The Mastermind"

RANKS: tuple[int | str, ...] = (2, 3, 4, 5, 6, 7, 8, 9, "A")
DECKS = ("detective", "mastermind")
LOCATIONS_PER_CASE = 5
TIME_TOKENS = 28

# Designed special abilities the rules core can apply: kind -> {parameter: allowed values}.
EFFECTS: dict[str, dict[str, tuple[int, ...]]] = {
    "change_trump": {},
    "draw": {"count": (1, 2, 3)},
    "time": {"delta": (1, -1)},
    "discard_from_opponent_pile": {"max_value": tuple(range(2, 11))},
    "take_back": {},
    "peek_evidence": {},
    "recover": {"count": (1, 2)},
    "opponent_discards": {"count": (1,)},
    "wild_card": {"count": (1,)},
    "reshuffle": {},
}
MIN_DESIGNED_ABILITIES = 8


def card_value(rank: int | str) -> int:
    """A deck card's printed value: ranks 2-9 as printed, the Ace 10."""
    return 10 if rank == "A" else int(rank)


def check_database(db: GameDatabase, problems: Problems) -> None:
    """The rulebook's structure: full decks, deuces, the 10 evidence cards, enough time tokens."""
    for deck in DECKS:
        _check_deck(db, deck, problems)
    _check_evidence(db, problems)
    _check_time_tokens(db, problems)


def _check_deck(db: GameDatabase, deck: str, problems: Problems) -> None:
    component = db.components.get(deck)
    if component is None:
        problems.add(db.place, f"the {deck} deck is missing", f"a component with id '{deck}'")
        return
    seen: dict[tuple[str, Any], str] = {}
    designed = 0
    for card in component.cards:
        key = (card["suit"], card["rank"])
        if key in seen:
            problems.add(card.place, f"{deck}: {card['rank']} of {card['suit']} appears twice (also '{seen[key]}')",
                         "each suit once in each rank 2-9 and A")
        seen[key] = card.id
        ability = card.get("ability")
        if card["rank"] == 2:
            if not ability or ability.get("effect", {}).get("kind") != "change_trump" or ability.get("timing") != "played":
                problems.add(card.place, f"{card.id}: every deuce carries the optional trump change",
                             "ability: {timing: played, text: ..., effect: {kind: change_trump}}")
        elif ability:
            designed += 1
            if ability.get("timing") != "discarded":
                problems.add(card.field_place("ability"), f"{card.id}: only deuces work when played",
                             "timing: discarded")
        if ability:
            _check_effect(card, ability.get("effect"), problems)
    missing = [f"{r} of {s}" for s in db.suits for r in RANKS if (s, r) not in seen]
    if missing:
        problems.add(component.place, f"the {deck} deck lacks: " + ", ".join(missing),
                     f"{len(db.suits)} suits x ranks 2-9 and A")
    if designed < MIN_DESIGNED_ABILITIES:
        problems.add(component.place, f"the {deck} deck has {designed} designed abilities besides deuces",
                     f"at least {MIN_DESIGNED_ABILITIES}")


def _check_effect(card: Any, effect: Any, problems: Problems) -> None:
    ability = card.get("ability")
    place = ability.value_place("effect") if hasattr(ability, "value_place") and "effect" in ability \
        else card.field_place("ability")
    if not isinstance(effect, dict):
        problems.add(place, f"{card.id}: the ability has no effect", "effect: {kind: ...}")
        return
    kind = effect.get("kind")
    if kind not in EFFECTS:
        problems.add(place, f"{card.id}: unknown effect kind '{kind}'", "one of: " + ", ".join(EFFECTS))
        return
    params = EFFECTS[kind]
    for key, value in effect.items():
        if key == "kind":
            continue
        if key not in params:
            problems.add(place, f"{card.id}: effect '{kind}' takes no '{key}'",
                         ("parameters: " + ", ".join(params)) if params else "no parameters")
        elif value not in params[key]:
            problems.add(place, f"{card.id}: {kind} {key} {value!r} is not allowed",
                         "one of: " + ", ".join(str(v) for v in params[key]))
    for key in params:
        if key not in effect:
            problems.add(place, f"{card.id}: effect '{kind}' needs '{key}'",
                         "one of: " + ", ".join(str(v) for v in params[key]))


def _check_evidence(db: GameDatabase, problems: Problems) -> None:
    """The evidence cards are exactly the ways to pick 3 viable identities of 5."""
    identities = db.components.get("identities")
    evidence = db.components.get("evidence")
    if identities is None or evidence is None:
        problems.add(db.place, "identities and evidence components are required")
        return
    ids = [c.id for c in identities.cards]
    want = {frozenset(v) for v in combinations(ids, 3)}
    seen: dict[frozenset[str], str] = {}
    for card in evidence.cards:
        viable, cleared = frozenset(card["viable"]), frozenset(card["cleared"])
        if viable & cleared or len(viable | cleared) != len(ids) or len(viable) != 3:
            problems.add(card.place, f"{card.id}: cleared and viable must split the {len(ids)} identities 2 + 3",
                         "3 viable and the other 2 cleared")
            continue
        if viable in seen:
            problems.add(card.place, f"{card.id}: the same 3 viable identities as '{seen[viable]}'")
        seen[viable] = card.id
    absent = want - set(seen)
    if absent:
        problems.add(evidence.place, "evidence is incomplete; missing viable sets: "
                     + "; ".join(", ".join(sorted(v)) for v in sorted(absent, key=sorted)),
                     f"all {len(want)} combinations of 3 viable out of {len(ids)}")
    for ident in ids:
        count = sum(ident in v for v in seen)
        if count != 6 and not absent:
            problems.add(evidence.place, f"identity '{ident}' is viable on {count} evidence cards", "6")


def time_tokens_needed(clocks: list[int], slums: list[bool]) -> int:
    """Tokens a row of locations can need: clocks, plus the Slums' +1 on itself and the next."""
    total = sum(clocks)
    for i, is_slums in enumerate(slums):
        if is_slums:
            total += 2 if i + 1 < len(clocks) else 1
    return total


def _check_time_tokens(db: GameDatabase, problems: Problems) -> None:
    locations = db.components.get("locations")
    tokens = db.components.get("time_tokens")
    if locations is None or tokens is None:
        return
    cards = locations.cards
    worst = 0
    for row in combinations(cards, LOCATIONS_PER_CASE):
        is_slums = [(c.get("effect") or {}).get("kind") == "slums_time" for c in row]
        # the Slums needs a next location to add to: put it first for the worst case
        order = sorted(range(len(row)), key=lambda i: not is_slums[i])
        worst = max(worst, time_tokens_needed([row[i]["clocks"] for i in order], [is_slums[i] for i in order]))
    if tokens.printed < worst:
        problems.add(tokens.place, f"{tokens.printed} time tokens; five locations can need {worst}",
                     f"at least {worst}")
