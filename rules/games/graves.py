"""Detective Graves against The Mastermind: facts the card database must satisfy, and the rules engine.

summary(state, viewer=None) gives everything a table or game-over screen shows, people and things by name:
  game, players, variants, events, phase (play, unmasking, identity, deal, over),
  case: the case in play; once the game is over the last case stays here,
  cases_done: the finished cases other than `case`,
  cases: every case so far in order, the last one included (what a game-over screen lists),
  cases_total, locations (the current row: name, time, trump and trump_name, printed_trump and
  printed_trump_name, piles, totals, winner,
  to_reveal at The Bank Vault), active, turn, lead, to_act, passes_in_a_row, result.
  A case: number, detective, mastermind, identity and identity_name ('Ezra Hollowmere, the Spinner'; None
  while hidden from the viewer), guess and guess_name, correct, revealed_early, unmasking (how it went, in
  words), evidence_won, evidence_points, unmask_points, points (each by player name), locations (ids),
  results (each resolved location: location, winner or None for a tie, totals, trump), over,
  evidence_noted (and possible_masterminds in the Detective's view of the case in play).
  result: scores (the totals), over, correct_deductions, and once the game is over winner (None: a draw),
  decided_by (score, tie-break, draw) and why (a sentence: 'Ben wins with the higher total, 15 to 11').
describe(before, event, after=None) tells one event for the history, by name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
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
from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase

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


# =====================================================================================
# The engine: what the table tracks, what is legal, scoring. Driven by log events.
# =====================================================================================


VARIANTS = ("knows_all", "single_case", "long_haul", "life_is_pain")
ACTIONS = ("play", "pass", "ability", "reveal_top", "slums", "identity", "note_evidence", "reveal", "guess",
           "deal")

R_TURN = Rule("Play or pass", "turn_play_or_pass")
R_SUIT = Rule("What may be played", "turn_what_may_be_played")
R_PASS = Rule("Passing", "turn_pass")
R_ABILITY = Rule("Special abilities", "turn_discard_for_ability")
R_UNMASK = Rule("The unmasking", "case_unmasking")
R_SETUP = Rule("Setting up a case", "setup_locations")


Card = tuple[Any, str]  # (rank: 2-9 or "A", suit id)


@dataclass
class Location(engine.QuickCopy):
    """A location in play: its clocks, its ability's kind, its trump and time, each player's pile."""
    id: str
    name: str
    clocks: int
    kind: str  # the effect kind of its ability
    printed_trump: str | None
    trump: str | None
    time: int
    piles: list[list[Card]] = field(default_factory=lambda: [[], []])  # by player index
    started: bool = False  # anything has happened here (play, pass, ability)
    revealed: list[bool] = field(default_factory=lambda: [False, False])  # Bank Vault top cards
    slums_done: bool = False
    resolved: bool = False
    winner: int | None = None
    totals: tuple[int, int] | None = None


@dataclass(frozen=True)
class LocationResult(engine.Unchanging):
    """A resolved location, kept with its case: who won its evidence (None: a tie) and the totals."""

    name: str
    winner: int | None
    totals: tuple[int, int]
    trump: str | None


@dataclass
class Case(engine.QuickCopy):
    """One case: its detective, the identity, the evidence each player won and noted, and how it ended."""
    number: int
    detective: int
    identity: str | None = None
    evidence_won: list[int] = field(default_factory=lambda: [0, 0])
    notes: list[list[str]] = field(default_factory=lambda: [[], []])  # evidence ids each player recorded
    revealed_early: bool = False
    guess: str | None = None
    correct: bool | None = None
    evidence_points: list[int] = field(default_factory=lambda: [0, 0])
    unmask_points: list[int] = field(default_factory=lambda: [0, 0])
    locations: list[str] = field(default_factory=list)
    results: list[LocationResult] = field(default_factory=list)  # each location as it resolved, in order

    @property
    def mastermind(self) -> int:
        return 1 - self.detective

    @property
    def points(self) -> list[int]:
        return [self.evidence_points[i] + self.unmask_points[i] for i in (0, 1)]


@dataclass
class State(SharesDatabase):
    """A game of Graves in play: the players, the variants, the case now played and those done, the locations."""
    db: Any = field(repr=False, compare=False)
    players: list[str]
    variants: frozenset[str]
    cases_total: int
    seed: int | None
    case: Case
    done: list[Case] = field(default_factory=list)
    locations: list[Location] = field(default_factory=list)
    active: int = 0
    lead: int = 0
    to_act: int = 0
    acted: int = 0  # players who have acted this turn: 0 or 1
    turn: int = 1
    passes: int = 0  # passes in a row
    abilities_used: int = 0  # this player's turn
    wild_left: int = 0  # this player's turn
    phase: str = "play"  # play, unmasking, identity, deal, over
    events: int = 0

    @property
    def location(self) -> Location:
        return self.locations[self.active]



# --- cards --------------------------------------------------------------------------------

def _suit_lookup(db: GameDatabase) -> dict[str, str]:
    names: dict[str, str] = {}
    for suit in db.suits.values():
        for alias in (suit.id, suit.name, suit.plural, suit.id.replace("_", " ")):
            names[alias.lower().replace("_", " ")] = suit.id
    return names


def parse_card(db: GameDatabase, text: Any) -> Card:
    """'7 shoeprints', 'A Magnifying Glass', 'ace of notebooks' -> (rank, suit id)."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction(f"a card is written as '<rank> <suit>', e.g. '7 shoeprints', not {text!r}", R_TURN)
    words = text.strip().lower().replace("_", " ").split()
    rank_word, rest = words[0], words[1:]
    if rest and rest[0] == "of":
        rest = rest[1:]
    rank: Any
    if rank_word in ("a", "ace", "10"):
        rank = "A"
    elif rank_word.isdigit() and 2 <= int(rank_word) <= 9:
        rank = int(rank_word)
    elif rank_word in ("two", "deuce"):
        rank = 2
    else:
        raise IllegalAction(f"'{text}': no rank '{rank_word}'", Rule("The decks", "components_decks"))
    suit = _suit_lookup(db).get(" ".join(rest))
    if suit is None:
        raise IllegalAction(f"'{text}': unknown suit '{' '.join(rest)}' (suits: "
                            + ", ".join(s.name for s in db.suits.values()) + ")", Rule("The decks", "components_decks"))
    return (rank, suit)


def card_name(db: GameDatabase, card: Card) -> str:
    return f"{card[0]} {db.suits[card[1]].name}"


def value(card: Card, loc: Location) -> int:
    """A card's worth in a pile: Ace 10 (12 at the Record Office), doubled when trump."""
    rank, suit = card
    base = (12 if loc.kind == "ace_value" else 10) if rank == "A" else int(rank)
    return base * 2 if loc.trump is not None and suit == loc.trump else base


def totals(loc: Location) -> tuple[int, int]:
    return (sum(value(c, loc) for c in loc.piles[0]), sum(value(c, loc) for c in loc.piles[1]))


def _deck_card(state: State, player: int, card: Card) -> Any:
    deck = "detective" if player == state.case.detective else "mastermind"
    for c in state.db.components[deck].cards:
        if (c["rank"], c["suit"]) == card:
            return c
    raise IllegalAction(f"no such card in the {deck} deck", R_TURN)


def _on_table(state: State, player: int) -> set[Card]:
    return {c for loc in state.locations for c in loc.piles[player]}


# --- setting up ------------------------------------------------------------------------------

def _player(state_players: list[str], who: Any, what: str = "by") -> int:
    if isinstance(who, int) and not isinstance(who, bool) and who in (0, 1):
        return who
    for i, name in enumerate(state_players):
        if isinstance(who, str) and who.strip().lower() == name.lower():
            return i
    raise IllegalAction(f"'{what}: {who}' is not a player (players: {', '.join(state_players)})", R_SETUP)


def _location_rows(db: GameDatabase) -> dict[str, Any]:
    return {c.id: c for c in db.components["locations"].cards}


def _deal(db: GameDatabase, seed: int, case_no: int) -> list[str]:
    ids = sorted(_location_rows(db))
    return random.Random(f"graves:{seed}:{case_no}").sample(ids, LOCATIONS_PER_CASE)


def _lay_out(state: State, ids: list[str]) -> None:
    rows = _location_rows(state.db)
    unknown = [i for i in ids if i not in rows]
    if unknown:
        raise IllegalAction(f"unknown location {', '.join(unknown)} (locations: {', '.join(sorted(rows))})", R_SETUP)
    if len(ids) != LOCATIONS_PER_CASE or len(set(ids)) != len(ids):
        raise IllegalAction(f"a case is played at {LOCATIONS_PER_CASE} different locations, not {len(ids)}", R_SETUP)
    state.locations = []
    for lid in ids:
        card = rows[lid]
        kind = (card.get("effect") or {}).get("kind", "none")
        state.locations.append(Location(lid, card["name"], card["clocks"], kind, card["trump"], card["trump"],
                                        card["clocks"]))
    state.case.locations = list(ids)
    state.active, state.lead, state.to_act, state.acted, state.turn, state.passes = 0, state.case.detective, \
        state.case.detective, 0, 1, 0
    state.phase = "play"


def new_state(db: GameDatabase, setup: dict[str, Any]) -> State:
    """A game from a log header: players, variants, seed and the setup of the first case."""
    players = setup.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise IllegalAction("Graves is played by exactly 2 players, given by name", R_SETUP)
    if players[0].strip().lower() == players[1].strip().lower():
        raise IllegalAction("the two players need different names", R_SETUP)
    variants = setup.get("variants") or []
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        raise IllegalAction(f"unknown variant {', '.join(map(str, bad))} (variants: {', '.join(VARIANTS)})",
                            Rule("Variants", "variant_long_haul"))
    variants = frozenset(variants)
    cases = setup.get("cases")
    if "single_case" in variants:
        if cases not in (None, 1):
            raise IllegalAction("The Single Case is one case", Rule("The Single Case", "variant_single_case"))
        cases = 1
    elif cases is None:
        cases = 2
    if not isinstance(cases, int) or cases < 1 or ("single_case" not in variants and cases % 2):
        raise IllegalAction(f"{cases} cases: play an even number, so each player is the Mastermind equally often",
                            Rule("The Long Haul", "faq_long_haul_even"))
    if cases > 2 and "long_haul" not in variants:
        raise IllegalAction("more than two cases is The Long Haul: add the variant long_haul",
                            Rule("The Long Haul", "variant_long_haul"))
    seed = setup.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise IllegalAction("the seed is a whole number", R_SETUP)
    names = [p.strip() for p in players]
    detective = _player(names, setup.get("detective", names[0]), "detective")
    state = State(db, names, variants, cases, seed, Case(1, detective))
    ids = setup.get("locations")
    if ids is None:
        if seed is None:
            raise IllegalAction("give the five locations in order, or a seed to deal them", R_SETUP)
        ids = _deal(db, seed, 1)
    if not isinstance(ids, list):
        raise IllegalAction("locations: a list of five location ids", R_SETUP)
    _lay_out(state, [str(i) for i in ids])
    if setup.get("identity") is not None:
        _set_identity(state, setup["identity"])
    return state


def _set_identity(state: State, ident: Any) -> None:
    ids = [c.id for c in state.db.components["identities"].cards]
    if ident not in ids:
        raise IllegalAction(f"no Mastermind '{ident}' (identities: {', '.join(ids)})", R_UNMASK)
    state.case.identity = str(ident)


# --- applying events ---------------------------------------------------------------------------

def describe(state: State, event: Event, after: State | None = None) -> str:
    """An event told for people, by name: 'Ann played 7 Shoeprints at The Park; Ann wins The Park 24–17,
    takes the evidence'. `state` is the state before the event, `after` the one it led to (worked out on a
    copy when left out); a refused event is told as written. The identity stays hidden until it is shown,
    and noted evidence stays private."""
    if not isinstance(event, dict):
        return str(event)
    if after is None:
        after = engine.state_after(apply, state, event)
    done = after is not None
    try:
        who = _player(state.players, event.get("by"))
        name = state.players[who]
    except IllegalAction:
        who, name = -1, str(event.get("by", "someone"))
    text = _tell_action(state, event, after, who, name, done)
    if after is None:
        return text
    return text + _tell_consequences(state, after)


def _verb(done: bool, past: str, present: str) -> str:
    return past if done else present


def _named(state: State, text: Any) -> str:
    try:
        return card_name(state.db, parse_card(state.db, text))
    except IllegalAction:
        return str(text)


def _suit_plural(state: State, suit: str | None) -> str:
    return "no trump" if suit is None else state.db.suits[suit].plural


def _tell_action(state: State, event: Event, after: State | None, who: int, name: str, done: bool) -> str:
    """What the player did (or, for a refused event, does), without what follows from it."""
    action = event.get("action")
    loc = state.location if state.phase == "play" and state.locations else None
    here = f" at {loc.name}" if loc else ""
    if action == "play":
        cards = [_named(state, c) for c in event.get("cards") or []] if isinstance(event.get("cards"), list) else []
        if not cards:
            return f"{name} {_verb(done, 'ended', 'ends')} the turn having used only abilities{here}"
        text = f"{name} {_verb(done, 'played', 'plays')} {engine.and_list(cards)}{here}"
        if event.get("discards"):
            text += f", discarding {event['discards']} from hand first"
        alley = event.get("alley_discard") or []
        if isinstance(alley, list) and alley:
            text += f", after discarding {engine.and_list([_named(state, c) for c in alley])} from the pile"
        if after is not None and loc is not None:
            trump = after.locations[state.active].trump
            if trump != loc.trump:
                text += f"; trump is now {_suit_plural(state, trump)}"
        return text
    if action == "pass":
        return f"{name} {_verb(done, 'passed', 'passes')}{here}"
    if action == "ability":
        card = _named(state, event.get("card"))
        text = f"{name} {_verb(done, 'discarded', 'discards')} {card} for its ability"
        effect = _effect_text(state, event, after, who)
        return text + (f": {effect}" if effect else "")
    if action == "reveal_top":
        if event.get("empty"):
            return f"{name}'s deck is empty: nothing revealed{here}"
        return f"{name} {_verb(done, 'revealed', 'reveals')} {_named(state, event.get('card'))} from the top of " \
               f"the deck into the pile{here}"
    if action == "slums":
        return _slums_text(state, event, after, name, done)
    if action == "identity":
        if after is not None and state.phase == "identity":
            return f"{name} showed the identity card: {identity_name(state.db, after.done[-1].identity)}"
        return f"{name} {_verb(done, 'took', 'takes')} the Mastermind's identity card (kept hidden)"
    if action == "note_evidence":
        return f"{name} {_verb(done, 'noted', 'notes')} an evidence card won (kept private)"
    if action == "reveal":
        shown = after.done[-1].identity if after is not None else None
        as_who = f" as {identity_name(state.db, shown)}" if shown else ""
        detective = state.players[state.case.detective]
        return f"{name} {_verb(done, 'revealed', 'reveals')} early{as_who}" + (f": {detective} scores 2" if done else "")
    if action == "guess":
        return f"{name} {_verb(done, 'guessed', 'guesses')} {identity_name(state.db, str(event.get('identity')))}"
    if action == "deal":
        rows = _location_rows(state.db)
        given = event.get("locations")
        names = [str(rows[i]["name"]) if i in rows else str(i) for i in (given if isinstance(given, list) else [])]
        return f"{name} {_verb(done, 'dealt', 'deals')} a new row: {engine.and_list(names)}"
    return f"{name}: {action}"


def _effect_text(state: State, event: Event, after: State | None, who: int) -> str:
    """What a discarded card's ability did, in words."""
    try:
        entry = _deck_card(state, who, parse_card(state.db, event.get("card")))
    except (IllegalAction, IndexError):
        return ""
    effect = (entry.get("ability") or {}).get("effect") or {}
    kind, loc = effect.get("kind"), state.location if state.locations else None
    opponent = state.players[1 - who] if who in (0, 1) else "the opponent"
    count = effect.get("count", 1)
    if kind == "time" and loc is not None:
        left = after.locations[state.active].time if after is not None else loc.time
        if after is not None and left == loc.time:
            return f"the last time token at {loc.name} stays"
        more = "one time token more" if effect.get("delta", 0) > 0 else "one time token fewer"
        return f"{more} at {loc.name}" + (f" ({left} left)" if after is not None else "")
    if kind == "discard_from_opponent_pile":
        return f"{_named(state, event.get('target'))} is discarded from {opponent}'s pile"
    if kind == "take_back":
        return f"{_named(state, event.get('target'))} goes back from the pile to hand"
    words = {"wild_card": "one card may break the one-suit rule this turn",
             "draw": f"draws {count} card{'s' if count != 1 else ''}",
             "peek_evidence": "looks at the evidence of an unresolved location",
             "recover": "takes the top card of the discard pile back into hand" if count == 1
             else f"takes {count} cards of the discard pile back into hand",
             "opponent_discards": f"{opponent} discards a card from hand",
             "reshuffle": "shuffles the discard pile into the deck"}
    return words.get(str(kind), "")


def _slums_text(state: State, event: Event, after: State | None, name: str, done: bool) -> str:
    here, nxt = event.get("here", 0), event.get("next", 0)
    loc = state.location if state.locations else None
    if not loc or (not here and not nxt):
        return f"{name} {_verb(done, 'left', 'leaves')} the time tokens at The Slums as they were"
    parts = []
    following = state.locations[state.active + 1] if state.active + 1 < len(state.locations) else None
    for delta, place, index in ((here, loc, state.active), (nxt, following, state.active + 1)):
        if delta and place is not None:
            more = "one token more" if delta > 0 else "one token fewer"
            left = f" ({after.locations[index].time})" if after is not None else ""
            parts.append(f"{more} at {place.name}{left}")
    return f"{name} {_verb(done, 'changed', 'changes')} the time: {engine.and_list(parts)}"


def _tell_consequences(before: State, after: State) -> str:
    """What followed from an applied event: a location resolved, the unmasking, a case or the game ended."""
    out = ""
    players = before.players
    if before.phase == "play" and before.locations and after.locations:
        old, new = before.location, after.locations[before.active]
        if new.resolved and not old.resolved and new.totals is not None:
            a, b = new.totals
            if new.winner is None:
                out += f"; {new.name} is a tie, {a}–{b}: its evidence is discarded unseen"
            else:
                high, low = (a, b) if new.winner == 0 else (b, a)
                out += f"; {players[new.winner]} wins {new.name} {high}–{low}, takes the evidence"
        if after.phase == "unmasking" and before.phase == "play":
            won = after.case.evidence_won
            out += f". The unmasking: evidence {players[0]} {won[0]}, {players[1]} {won[1]}"
    if len(after.done) > len(before.done):
        case = after.done[-1]
        if case.guess is not None and case.correct is not None:
            single = "single_case" in after.variants
            det, mm = players[case.detective], players[case.mastermind]
            if case.correct:
                out += f": right, {det} scores {4 if single else 3}"
            else:
                out += f": wrong, it was {identity_name(after.db, case.identity)}; {mm} scores {4 if single else 1}"
        out += f". Case {case.number}: {players[0]} {case.points[0]}, {players[1]} {case.points[1]}"
        if is_over(after):
            res = result(after)
            out += f". Game over: {res['why']}"
        else:
            out += f". Case {after.case.number}: {players[after.case.detective]} is the Detective"
            out += ", and a new row of locations is to be dealt" if after.phase == "deal" else ""
    elif before.phase == "unmasking" and after.phase == "identity":
        out += "; the Mastermind is still to show the identity card"
    return out


def check(state: State, event: Event) -> str | None:
    """Why an event would be refused, or None; the state is left as it was."""
    return check_on_copy(apply, state, event)


def apply(state: State, event: Event) -> None:
    """Apply one event; IllegalAction (naming the rule) if the rules forbid it."""
    action = action_of(event, ACTIONS, R_TURN)
    if state.phase == "over":
        raise IllegalAction("the game is over", Rule("End of the game", "end_winner"))
    who = _player(state.players, event.get("by"))
    handler = _HANDLERS[action]
    handler(state, who, event)
    state.events += 1


def _need_phase(state: State, *phases: str) -> None:
    if state.phase not in phases:
        wanted = {"play": "while a location is being played", "unmasking": "at the unmasking",
                  "identity": "when the Mastermind reveals who they are", "deal": "when a new row is dealt"}
        raise IllegalAction(f"this is allowed only {' or '.join(wanted[p] for p in phases)}; now: {_phase_text(state)}",
                            R_TURN if "play" in phases else R_UNMASK)


def _phase_text(state: State) -> str:
    if state.phase == "play":
        return f"{state.players[state.to_act]} to play at {state.location.name}"
    return {"unmasking": "the unmasking", "identity": "waiting for the Mastermind's identity",
            "deal": "waiting for a new row of locations", "over": "the game is over"}[state.phase]


def _my_turn(state: State, who: int) -> None:
    _need_phase(state, "play")
    if who != state.to_act:
        raise IllegalAction(f"it is {state.players[state.to_act]}'s turn, not {state.players[who]}'s", R_TURN)
    loc = state.location
    if loc.kind == "reveal_top_card" and not all(loc.revealed):
        waiting = " and ".join(state.players[p] for p in (0, 1) if not loc.revealed[p])
        raise IllegalAction(f"before anyone plays or passes here, each player reveals the top card of their deck "
                            f"into their evidence pile (or says their deck is empty); still to reveal: {waiting}",
                            Rule(loc.name, "faq_bank_vault_first"))


def _location_rule(loc: Location) -> Rule:
    return Rule(loc.name, f"location_{loc.id}")


def _play(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    loc = state.location
    raw = event.get("cards") or []
    if not isinstance(raw, list):
        raise IllegalAction("cards: a list such as ['7 shoeprints', 'A shoeprints']", R_TURN)
    cards = [parse_card(state.db, c) for c in raw]
    if not cards and not state.abilities_used:
        raise IllegalAction("play at least one card, use an ability, or pass", R_TURN)
    on_table = _on_table(state, who)
    for card in cards:
        _deck_card(state, who, card)
        if card in on_table or cards.count(card) > 1:
            raise IllegalAction(f"{card_name(state.db, card)} is already in an evidence pile", R_TURN)
    # the one-suit rule: every card not of the trump suit shares one suit (wild cards excepted)
    off = [c for c in cards if c[1] != loc.trump]
    suits = [c[1] for c in off]
    main = max(set(suits), key=suits.count) if suits else None
    strays = sum(1 for s in suits if s != main)
    if strays > state.wild_left:
        raise IllegalAction("cards played together must be of one suit, plus any trumps", R_SUIT)
    for card in cards:
        if loc.kind == "min_value" and card_value(card[0]) <= 4:
            raise IllegalAction("cards of value 4 or lower may not be played here", _location_rule(loc))
    # The Park: each non-trump card of value 6 or more needs one card discarded first
    if loc.kind == "park_discard":
        need = sum(1 for c in off if card_value(c[0]) >= 6)
        given = event.get("discards", 0)
        if given != need:
            raise IllegalAction(f"one card is discarded from hand for each non-trump card of value 6 or more "
                                f"played here: this play needs {need}, not {given}", _location_rule(loc))
    pile = loc.piles[who]
    alley = event.get("alley_discard") or []
    if alley:
        if loc.kind != "pile_limit":
            raise IllegalAction("only at The Alley are cards discarded from an evidence pile to make room", R_TURN)
        for text in alley:
            card = parse_card(state.db, text)
            if card not in pile:
                raise IllegalAction(f"{card_name(state.db, card)} is not in your evidence pile here", _location_rule(loc))
            pile.remove(card)
    if loc.kind == "pile_limit" and len(pile) + len(cards) > 3:
        raise IllegalAction(f"at most 3 cards in your evidence pile here; discard {len(pile) + len(cards) - 3} "
                            "of them from the pile first", _location_rule(loc))
    if loc.kind == "mastermind_card_count" and who == state.case.mastermind:
        count = len(pile)
        detective_count = len(loc.piles[state.case.detective])
        for card in cards:
            if card[1] != loc.trump and count >= detective_count:
                raise IllegalAction(f"the Mastermind may play a non-trump card here only with fewer cards here than"
                                    f" the Detective ({count} against {detective_count})", _location_rule(loc))
            count += 1
    change = event.get("change_trump")
    if change:
        deuces = [c for c in cards if c[0] == 2]
        if not deuces:
            raise IllegalAction("only a deuce played to a location changes the trump", Rule("Deuces", "faq_deuce_suit"))
        if loc.kind == "no_abilities":
            raise IllegalAction("no special ability may be used here, the deuces' trump change included",
                                _location_rule(loc))
        new = deuces[0][1] if change is True else _suit_lookup(state.db).get(str(change).lower().replace("_", " "))
        if new not in {d[1] for d in deuces}:
            raise IllegalAction(f"a deuce makes its own suit trump; none of this play's deuces is {change}",
                                Rule("Deuces", "faq_deuce_suit"))
        loc.trump = new
    pile.extend(cards)
    _end_action(state, who, passed=False)


def _pass(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    if state.abilities_used:
        raise IllegalAction("a player who used an ability this turn has played and cannot pass; the turn ends with a play, with cards or none", R_PASS)
    _end_action(state, who, passed=True)


def _end_action(state: State, who: int, passed: bool) -> None:
    loc = state.location
    loc.started = True
    state.abilities_used = state.wild_left = 0
    state.passes = state.passes + 1 if passed else 0
    if state.passes >= 2:
        _resolve(state)
        return
    if state.acted == 0:
        state.acted, state.to_act = 1, 1 - state.lead
        return
    # both have acted: time moves on
    state.acted, state.to_act, state.turn = 0, state.lead, state.turn + 1
    loc.time -= 1
    if loc.time <= 0:
        loc.time = 0
        _resolve(state)


def _resolve(state: State) -> None:
    loc = state.location
    loc.totals = totals(loc)
    loc.resolved = True
    a, b = loc.totals
    loc.winner = None if a == b else (0 if a > b else 1)
    state.case.results.append(LocationResult(loc.name, loc.winner, loc.totals, loc.trump))
    if loc.winner is not None:
        state.case.evidence_won[loc.winner] += 1
        state.lead = loc.winner
    if state.active + 1 < len(state.locations):
        state.active += 1
        state.to_act, state.acted, state.turn, state.passes = state.lead, 0, 1, 0
        state.abilities_used = state.wild_left = 0
    else:
        per = 3 if "single_case" in state.variants else 2
        state.case.evidence_points = [n * per for n in state.case.evidence_won]
        state.phase = "unmasking"


def _ability(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    loc = state.location
    card = parse_card(state.db, event.get("card"))
    entry = _deck_card(state, who, card)
    if card in _on_table(state, who):
        raise IllegalAction(f"{card_name(state.db, card)} is in an evidence pile, not in your hand", R_ABILITY)
    ability = entry.get("ability")
    if not ability or ability.get("timing") != "discarded":
        raise IllegalAction(f"{card_name(state.db, card)} has no ability used by discarding it", R_ABILITY)
    if loc.kind == "no_abilities":
        raise IllegalAction("no special ability may be used while this is the active location", _location_rule(loc))
    effect = ability["effect"]
    kind = effect["kind"]
    opponent = 1 - who
    if kind == "time":
        if effect["delta"] > 0:
            loc.time += 1
        elif loc.time > 1:  # the last token always stays (faq_last_token_card)
            loc.time -= 1
    elif kind in ("discard_from_opponent_pile", "take_back"):
        target = parse_card(state.db, event.get("target"))
        owner = opponent if kind == "discard_from_opponent_pile" else who
        if target not in loc.piles[owner]:
            whose = "your opponent's" if owner == opponent else "your"
            raise IllegalAction(f"{card_name(state.db, target)} is not in {whose} evidence pile here", R_ABILITY)
        if kind == "discard_from_opponent_pile" and card_value(target[0]) > effect["max_value"]:
            raise IllegalAction(f"this card discards only a card of printed value {effect['max_value']} or less",
                                Rule("Printed values", "faq_pile_value"))
        loc.piles[owner].remove(target)
    elif kind == "wild_card":
        state.wild_left += effect["count"]
    loc.started = True
    state.abilities_used += 1


def _before_start(state: State, loc: Location, rule: Rule) -> None:
    if loc.started:
        raise IllegalAction("this happens when the location becomes active, before anyone plays or passes", rule)


def _reveal_top(state: State, who: int, event: Event) -> None:
    _need_phase(state, "play")
    loc = state.location
    rule = _location_rule(loc)
    if loc.kind != "reveal_top_card":
        raise IllegalAction("only The Bank Vault reveals the top cards of the decks", R_TURN)
    _before_start(state, loc, rule)
    if loc.revealed[who]:
        raise IllegalAction(f"{state.players[who]} has already revealed the top card here", rule)
    empty, text = event.get("empty", False), event.get("card")
    if empty not in (True, False):
        raise IllegalAction("a deck is either empty or not: empty is true or false", rule)
    if empty and text is not None:
        raise IllegalAction("an empty deck reveals no card: either a card was revealed or the deck was empty",
                            Rule(loc.name, "faq_bank_vault_first"))
    if not empty and text is None:
        raise IllegalAction("say which card was revealed from the top of the deck, or that the deck is empty",
                            Rule(loc.name, "faq_bank_vault_first"))
    if text is not None:
        card = parse_card(state.db, text)
        _deck_card(state, who, card)
        if card in _on_table(state, who):
            raise IllegalAction(f"{card_name(state.db, card)} is already in an evidence pile", rule)
        loc.piles[who].append(card)  # not played: no suit rule, no trump change (faq_bank_vault_card)
    loc.revealed[who] = True


def _slums(state: State, who: int, event: Event) -> None:
    _need_phase(state, "play")
    loc = state.location
    rule = _location_rule(loc)
    if loc.kind != "slums_time":
        raise IllegalAction("only The Slums changes time tokens when it becomes active", R_TURN)
    if who != state.case.detective:
        raise IllegalAction("the Detective decides The Slums' time tokens", rule)
    _before_start(state, loc, rule)
    if loc.slums_done:
        raise IllegalAction("The Slums' change is made once", rule)
    here, nxt = event.get("here", 0), event.get("next", 0)
    if here not in (-1, 0, 1) or nxt not in (-1, 0, 1):
        raise IllegalAction("The Slums adds or takes away at most 1 time token here and 1 at the next location", rule)
    following = state.locations[state.active + 1] if state.active + 1 < len(state.locations) else None
    if nxt and following is None:
        raise IllegalAction("The Slums is the last location: only its own tokens change", Rule(loc.name, "faq_slums_last"))
    if loc.time + here < 1 or (following is not None and following.time + nxt < 1):
        raise IllegalAction("no location goes below 1 time token", Rule(loc.name, "faq_slums_minimum"))
    loc.time += here
    if following is not None:
        following.time += nxt
    loc.slums_done = True


def _identity(state: State, who: int, event: Event) -> None:
    if who != state.case.mastermind:
        raise IllegalAction("only the Mastermind holds the identity card", R_UNMASK)
    _need_phase(state, "play", "unmasking", "identity")
    if state.case.identity is not None:
        raise IllegalAction("the Mastermind's identity for this case is already set", R_UNMASK)
    _set_identity(state, event.get("identity"))
    if state.phase == "identity":
        _score_guess(state)


def _note_evidence(state: State, who: int, event: Event) -> None:
    evidence = {c.id for c in state.db.components["evidence"].cards}
    eid = event.get("evidence")
    if eid not in evidence:
        raise IllegalAction(f"no evidence card '{eid}'", Rule("Evidence cards", "components_evidence_card"))
    notes = state.case.notes[who]
    if eid in notes:
        raise IllegalAction(f"{eid} is already noted", R_UNMASK)
    if len(notes) >= state.case.evidence_won[who]:
        raise IllegalAction(f"{state.players[who]} has won {state.case.evidence_won[who]} evidence card(s) this case",
                            Rule("Resolving a location", "resolve_winner"))
    notes.append(str(eid))


def _reveal(state: State, who: int, event: Event) -> None:
    _need_phase(state, "unmasking")
    if who != state.case.mastermind:
        raise IllegalAction("only the Mastermind may reveal early", R_UNMASK)
    if "knows_all" in state.variants:
        raise IllegalAction("the Mastermind may not reveal early", Rule("The Mastermind Knows All", "faq_knows_all_reveal"))
    if "single_case" in state.variants:
        raise IllegalAction("the Mastermind may not reveal early", Rule("The Single Case", "variant_single_case"))
    state.case.revealed_early = True
    state.case.unmask_points[state.case.detective] += 2
    _next_case(state)


def shows_secret(event: Event) -> bool:
    """An event after which the table has seen the Mastermind's identity (a guess answered, an early
    reveal): as a card turned over at the table cannot be unseen, undo stops before it."""
    return event.get("action") in ("guess", "reveal")


def _guess(state: State, who: int, event: Event) -> None:
    _need_phase(state, "unmasking")
    if who != state.case.detective:
        raise IllegalAction("the Detective makes the guess", R_UNMASK)
    ids = [c.id for c in state.db.components["identities"].cards]
    if event.get("identity") not in ids:
        raise IllegalAction(f"no Mastermind '{event.get('identity')}' (identities: {', '.join(ids)})", R_UNMASK)
    state.case.guess = str(event["identity"])
    if state.case.identity is None:
        state.phase = "identity"
    else:
        _score_guess(state)


def _score_guess(state: State) -> None:
    case = state.case
    single = "single_case" in state.variants
    case.correct = case.guess == case.identity
    if case.correct:
        case.unmask_points[case.detective] += 4 if single else 3
    else:
        case.unmask_points[case.mastermind] += 4 if single else 1
    _next_case(state)


def _next_case(state: State) -> None:
    state.done.append(state.case)
    if len(state.done) >= state.cases_total:
        state.phase = "over"
        return
    number = len(state.done) + 1
    previous = state.case
    state.case = Case(number, previous.mastermind)
    reshuffle = "life_is_pain" in state.variants or ("long_haul" in state.variants and number % 2 == 1)
    if not reshuffle:
        _lay_out(state, previous.locations)
    elif state.seed is not None:
        _lay_out(state, _deal(state.db, state.seed, number))
    else:
        state.locations, state.phase = [], "deal"


def _deal_event(state: State, who: int, event: Event) -> None:
    _need_phase(state, "deal")
    ids = event.get("locations")
    if not isinstance(ids, list):
        raise IllegalAction("locations: a list of five location ids", R_SETUP)
    _lay_out(state, [str(i) for i in ids])


_HANDLERS = {"play": _play, "pass": _pass, "ability": _ability, "reveal_top": _reveal_top, "slums": _slums,
             "identity": _identity, "note_evidence": _note_evidence, "reveal": _reveal, "guess": _guess,
             "deal": _deal_event}


# --- reading the state --------------------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.phase == "over"


def scores(state: State) -> list[int]:
    current_done = any(c is state.case for c in state.done)
    cases = [*state.done] + ([] if current_done else [state.case])
    return [sum(c.points[i] for c in cases) for i in (0, 1)]


def result(state: State) -> dict[str, Any]:
    """Totals, and once the game is over the winner and why: higher total, then correct deductions, else a draw."""
    total = scores(state)
    correct = [sum(1 for c in state.done if c.correct and c.detective == i) for i in (0, 1)]
    out: dict[str, Any] = {"scores": dict(zip(state.players, total, strict=True)), "over": is_over(state),
                           "correct_deductions": dict(zip(state.players, correct, strict=True))}
    if is_over(state):
        high, low = max(total), min(total)
        if total[0] != total[1]:
            winner = state.players[total.index(high)]
            out["winner"], out["decided_by"] = winner, "score"
            out["why"] = f"{winner} wins with the higher total, {high} to {low}"
        elif correct[0] != correct[1]:
            best = 0 if correct[0] > correct[1] else 1
            out["winner"], out["decided_by"] = state.players[best], "tie-break"
            out["why"] = (f"{state.players[best]} wins the tie at {high}, having unmasked the Mastermind as the "
                          f"Detective {_times(correct[best])}, {state.players[1 - best]} {_times(correct[1 - best])}")
        else:
            out["winner"], out["decided_by"] = None, "draw"
            both = "both" if correct[0] else "neither"
            out["why"] = f"a draw at {high}, {both} having unmasked the Mastermind as the Detective"
    return out


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def identity_name(db: GameDatabase, ident: str | None) -> str | None:
    """'Ezra Hollowmere, the Spinner' for 'ezra_hollowmere' (None stays None; an unknown id is kept)."""
    if ident is None:
        return None
    for card in db.components["identities"].cards:
        if card.id == ident:
            return f"{card['name']}, {card['epithet']}" if card.get("epithet") else str(card["name"])
    return str(ident)


def possible_masterminds(db: GameDatabase, evidence_ids: list[str]) -> list[str]:
    """The deduction helper: identities still viable on every evidence card won."""
    ids = [c.id for c in db.components["identities"].cards]
    viable = set(ids)
    cards = {c.id: c for c in db.components["evidence"].cards}
    for eid in evidence_ids:
        viable &= set(cards[eid]["viable"])
    return [i for i in ids if i in viable]


def _unmasking_text(state: State, case: Case, hidden: bool) -> str:
    """How the case's unmasking went, in words ('' before it happens)."""
    det, mm = state.players[case.detective], state.players[case.mastermind]
    single = "single_case" in state.variants
    if case.revealed_early:
        who = "" if hidden or case.identity is None else f" as {identity_name(state.db, case.identity)}"
        return f"{mm} revealed early{who}: {det} scores 2"
    if case.guess is None:
        return ""
    text = f"{det} guessed {identity_name(state.db, case.guess)}"
    if case.correct is None:
        return text + "; the Mastermind's identity is still to be shown"
    if case.correct:
        return text + f": right, {det} scores {4 if single else 3}"
    return text + f": wrong, it was {identity_name(state.db, case.identity)}; {mm} scores {4 if single else 1}"


def _case_dict(state: State, case: Case, viewer: int | None, helper: bool = True) -> dict[str, Any]:
    hide = viewer is not None and case is state.case and state.phase not in ("over",) \
        and viewer != case.mastermind and case.guess is None and not case.revealed_early
    players = state.players
    data: dict[str, Any] = {
        "number": case.number,
        "detective": players[case.detective],
        "mastermind": players[case.mastermind],
        "identity": None if hide else case.identity,
        "identity_name": None if hide else identity_name(state.db, case.identity),
        "evidence_won": dict(zip(players, case.evidence_won, strict=True)),
        "revealed_early": case.revealed_early,
        "guess": case.guess,
        "guess_name": identity_name(state.db, case.guess),
        "correct": case.correct,
        "unmasking": _unmasking_text(state, case, hide),
        "evidence_points": dict(zip(players, case.evidence_points, strict=True)),
        "unmask_points": dict(zip(players, case.unmask_points, strict=True)),
        "points": dict(zip(players, case.points, strict=True)),
        "locations": list(case.locations),
        "results": [{"location": r.name, "winner": None if r.winner is None else players[r.winner],
                     "totals": dict(zip(players, r.totals, strict=True)),
                     "trump": None if r.trump is None else state.db.suits[r.trump].name}
                    for r in case.results],
        "over": any(c is case for c in state.done),
    }
    if viewer is None:
        data["evidence_noted"] = {players[i]: list(case.notes[i]) for i in (0, 1)}
    else:
        data["evidence_noted"] = {players[viewer]: list(case.notes[viewer])}
        if viewer == case.detective and helper:
            data["possible_masterminds"] = possible_masterminds(state.db, case.notes[viewer])
    return data


def summary(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The state as plain data, people and things by name (keys: the module docstring); with a viewer, only
    what that player may see."""
    locs = []
    for i, loc in enumerate(state.locations):
        t = loc.totals or totals(loc)
        locs.append({
            "id": loc.id, "name": loc.name, "clocks": loc.clocks, "time": loc.time,
            "trump": loc.trump, "printed_trump": loc.printed_trump,
            "trump_name": None if loc.trump is None else state.db.suits[loc.trump].name,
            "printed_trump_name": None if loc.printed_trump is None else state.db.suits[loc.printed_trump].name,
            "active": i == state.active and state.phase == "play",
            "resolved": loc.resolved,
            "winner": None if loc.winner is None else state.players[loc.winner],
            "piles": {state.players[p]: [card_name(state.db, c) for c in loc.piles[p]] for p in (0, 1)},
            "totals": dict(zip(state.players, t, strict=True)),
            "to_reveal": [state.players[p] for p in (0, 1) if not loc.revealed[p]]
            if loc.kind == "reveal_top_card" and i == state.active and state.phase == "play" and not loc.started
            else [],
        })
    cases = [*state.done] + ([] if any(c is state.case for c in state.done) else [state.case])
    return {
        "game": ID, "players": list(state.players), "variants": sorted(state.variants), "events": state.events,
        "phase": state.phase, "case": _case_dict(state, state.case, viewer),
        "cases_done": [_case_dict(state, c, viewer) for c in state.done if c is not state.case],
        "cases": [_case_dict(state, c, viewer, helper=False) for c in cases],
        "cases_total": state.cases_total, "locations": locs,
        "step": f"case {state.case.number} of {state.cases_total}",
        "group": list(_history_group(state, locs)),  # a list: the summary stays the same through JSON
        "active": state.active, "turn": state.turn, "lead": state.players[state.lead],
        "to_act": state.players[state.to_act] if state.phase == "play" else None, "passes_in_a_row": state.passes,
        "result": result(state),
    }


def _history_group(state: State, locs: list[dict[str, Any]]) -> tuple[str, str]:
    """The history's heading and group for what happens next: the case, and the location in play (or the row)."""
    case = (f"Case {state.case.number}: {state.players[state.case.detective]} Detective, "
            f"{state.players[state.case.mastermind]} Mastermind")
    if state.phase == "play":
        return case, str(locs[state.active]["name"])
    return case, "The unmasking" if state.phase in ("unmasking", "identity") else "A new row"


def view(state: State, player: int) -> dict[str, Any]:
    return summary(state, viewer=player)


def problems(state: State) -> list[str]:
    """What is inconsistent in a state (for a corrupt save), without raising."""
    found = []
    for loc in state.locations:
        if loc.time < 0:
            found.append(f"{loc.name}: {loc.time} time tokens")
        for p in (0, 1):
            if len(set(loc.piles[p])) != len(loc.piles[p]):
                found.append(f"{loc.name}: a card twice in {state.players[p]}'s pile")
    for p in (0, 1):
        seen: set[Card] = set()
        for loc in state.locations:
            dup = seen & set(loc.piles[p])
            if dup:
                found.append(f"{state.players[p]}: {card_name(state.db, next(iter(dup)))} in two piles")
            seen |= set(loc.piles[p])
    if sum(state.case.evidence_won) > sum(1 for loc in state.locations if loc.resolved):
        found.append("more evidence won than locations resolved")
    return found


def report(s: dict[str, Any]) -> list[str]:
    """The state for people (replay output): the row of locations, the case, the points per case."""
    players = s["players"]
    case = s["case"]
    lines = [f"case {case['number']} of {s['cases_total']}: Detective {case['detective']}, "
                 f"Mastermind {case['mastermind']}"]
    for i, loc in enumerate(s["locations"], start=1):
        mark = ">" if loc["active"] else " "
        trump = loc["trump_name"] or "no trump"
        if loc["trump"] != loc["printed_trump"]:
            trump += f" (changed from {loc['printed_trump_name'] or 'none'})"
        tot = " - ".join(f"{p} {loc['totals'][p]}" for p in players)
        state = (f"won by {loc['winner']}" if loc["winner"] else "tie") if loc["resolved"] else f"{loc['time']} time left"
        lines.append(f" {mark}{i}. {loc['name']:<20} {trump:<28} {tot:<18} {state}")
    if s["to_act"]:
        lines.append(f"turn {s['turn']}, lead {s['lead']}, {s['to_act']} to act, passes in a row: {s['passes_in_a_row']}")
    for past in s["cases"]:
        pts = ", ".join(f"{p} {past['points'][p]}" for p in players)
        lines.append(f"case {past['number']}: {pts}" + (f" ({past['unmasking']})" if past["unmasking"] else ""))
    return lines
