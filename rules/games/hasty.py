"""Hasty Accusations (2-7 players): a row of suspects, evidence piles, the loupe, reviews, murders.

The table tracks the row, the loupe, the size of every pile, every hand's size and the deck's;
a face-down card is known only once it is revealed in a review (a simulator may name it when it
plays it: the engine then checks the reveal against it). Each player's secret suspect is in the
setup and shows only in that player's view until it is murdered or exposed.

Events: play (by the active player: `at` a suspect, `card` when played at the loupe, `target` /
`player` for the card's choice), pick (the active player picks the pile on a tie for the largest),
reveal (the next card of the pile under review, top to bottom, with its choice if it needs one).
Effects are data: each action card has `effect: {op, ...}` from OPS, each suspect a `power:
{trigger, op, ...}` from POWER_OPS; effect_text() writes the card text the database must print.

summary(state) gives everything a table or game-over screen shows, by name:
  game, players, variants, sets, events, phase (play, pick, reveal, over), turn, round, active,
  direction, loupe (suspect id or None), row [{id, name, alive, pile, face_up [card names], owner
  (only when known to the viewer)}], hands {name: n}, deck, out [names], secret (the viewer's
  own), exposed {name: suspect}, review (None or {suspect, left, revealed}), tied (on pick),
  called_off (reviews a card called off, still to come), history [sentences], result.
"""

from __future__ import annotations

import difflib
import random
from collections import Counter
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
from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase

ID = "hasty"
TITLE = "Hasty Accusations"
MIN_PLAYERS, MAX_PLAYERS = 2, 7
HAND = 4
SUSPECTS = "suspects"
ACTIONS_COMPONENT = "actions"
TRAITOR = "traitor"
VARIANTS = ("traitor", "powers", "big_hands", "no_safe_round")
KINDS = ("kill", "protect", "pile", "review", "information", "order", "misc")
RESTRICTIONS = ("none", "must_loupe", "cant_loupe", "must_own", "cant_own")
RESTRICTION_WORDS = {"none": "", "must_loupe": "must be played at the loupe",
                     "cant_loupe": "can't be played at the loupe",
                     "must_own": "must be played at your own suspect",
                     "cant_own": "can't be played at your own suspect"}
# the deck's make-up: suspects in the row for each player count (the rest are dealt or set aside)
ROW_SIZE = {2: 5, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9}
TRAITOR_ROW_EXTRA = 2  # the Traitor variant lays more suspects: the Traitor loses when one is left

R_SETUP = Rule("Setup", "setup_row")
R_SECRETS = Rule("Secret suspects", "setup_secrets")
R_TURN = Rule("Your turn", "turn_play")
R_LOUPE = Rule("Playing at the loupe", "turn_loupe")
R_RESTRICT = Rule("Play restrictions", "cards_restrictions")
R_REVIEW = Rule("The review", "review_largest")
R_REVEAL = Rule("Revealing a pile", "review_reveal")
R_CHOICE = Rule("Choices", "review_choice")
R_END = Rule("End of the game", "end_last_player")
R_TRAITOR = Rule("Traitor variant", "variant_traitor")
R_NO_CARDS = Rule("Out of cards", "end_no_cards")
R_NOBODY_LEFT = Rule("The Traitor with one suspect left", "faq_traitor_one_suspect")
END_RULES = {r.id: r for r in (R_END, R_TRAITOR, R_NO_CARDS, R_NOBODY_LEFT)}
R_STUCK = Rule("No playable card", "turn_stuck")
R_COPIES = Rule("How many copies", "cards_copies")
R_SETS = Rule("Choose the card sets", "setup_sets")

# op -> (parameters with their allowed values, needs a choice: "target" (suspect), "player" or "")
OPS: dict[str, tuple[dict[str, tuple[Any, ...]], str]] = {
    "murder": ({"copies": (1, 2, 3), "ignores_protect": (False, True)}, ""),
    "protect": ({}, ""),
    "rush": ({}, ""),
    "discard_under": ({"count": (1, 2, 3, "all")}, ""),
    "move_under": ({}, "target"),
    "flip_under": ({}, ""),
    "cancel_review": ({}, ""),
    "expose": ({}, ""),
    "peek": ({}, "player"),
    "loupe_to": ({}, "target"),
    "reverse_turns": ({}, ""),
    "skip_next": ({}, ""),
    "draw": ({"count": (1, 2)}, ""),
}
POWER_OPS: dict[str, tuple[str, ...]] = {  # op -> the triggers it may have
    "reverse_turns": ("death", "play"), "skip_next": ("death", "play"), "draw": ("death", "play"),
    "each_draws": ("death",), "discard_tops": ("death",), "loupe_to_last": ("death",),
    "discard_bottom": ("play",), "loupe_step": ("play",), "discard_from_hand": ("play",),
}


# --- card text from effects --------------------------------------------------------------------

def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def effect_text(effect: dict[str, Any], name: str = "") -> str:
    """The printed text of an action card's effect: the card database must print exactly this."""
    op = effect.get("op")
    if op == "murder":
        n = int(effect.get("copies", 1))
        unless = "even if protected" if effect.get("ignores_protect") else "unless protected"
        if n == 1:
            return f"Murder: this suspect dies, {unless}."
        return f"Murder, if {n} or more {name} cards are revealed in this pile: this suspect dies, {unless}."
    count = effect.get("count")
    return {
        "protect": "Protect: while this card is revealed, this suspect cannot be murdered.",
        "rush": "While this card is revealed, murder cards in this pile need one copy fewer.",
        "discard_under": ("Discard every card under this one unseen." if count == "all" else
                          "Discard the card under this one unseen." if count == 1 else
                          f"Discard the {count} cards under this one unseen."),
        "move_under": "Move the cards under this one, in order, onto another suspect's pile (active player chooses).",
        "flip_under": "Turn the stack of cards under this one over: its bottom card comes next.",
        "cancel_review": "In a review: it ends now, nobody dies. At the loupe: the next review is called off.",
        "expose": "The player whose secret suspect this is must say so.",
        "peek": "The active player secretly looks at another player's secret suspect.",
        "loupe_to": "Move the loupe to any suspect (active player chooses); after a review it starts there.",
        "reverse_turns": "Reverse the turn order.",
        "skip_next": "The next player misses their turn.",
        "draw": ("The active player draws a card" if count == 1 else f"The active player draws {count} cards")
        + " (after drawing back up).",
    }.get(str(op), f"(unknown effect {op})")


def power_text(power: dict[str, Any]) -> str:
    """The printed text of a suspect's power."""
    head = "When murdered: " if power.get("trigger") == "death" else "When a card is played here: "
    op, count = power.get("op"), power.get("count", 1)
    body = {
        "reverse_turns": "reverse the turn order.",
        "skip_next": "the next player misses their turn.",
        "draw": ("its player draws a card (after drawing back up)." if power.get("trigger") == "play" else
                 f"the active player draws {count} card{'s' if count != 1 else ''} (after drawing back up)."),
        "each_draws": "every player still in draws a card (the active player after drawing back up).",
        "discard_tops": "discard the top card of every other pile unseen.",
        "loupe_to_last": "the loupe starts at the last suspect, not the first.",
        "discard_bottom": "discard the bottom card of this pile unseen.",
        "loupe_step": "the loupe moves one extra step this turn.",
        "discard_from_hand": "its player discards a card from hand.",
    }.get(str(op), f"(unknown power {op})")
    return head + body


# --- the database --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ActionCard(engine.Unchanging):
    """An action card: its kind, restriction, effect, copies and the card sets it belongs to."""
    id: str
    name: str
    kind: str
    restriction: str
    effect: dict[str, Any]
    copies: int
    sets: tuple[str, ...]

    @property
    def op(self) -> str:
        return str(self.effect["op"])

    @property
    def choice(self) -> str:
        return OPS[self.op][1]


@dataclass(frozen=True)
class Suspect(engine.Unchanging):
    """A suspect card and its power."""
    id: str
    name: str
    power: dict[str, Any]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def actions(db: GameDatabase) -> dict[str, ActionCard]:
    """Every action card type by id (all sets), built once."""
    cached: dict[str, ActionCard] | None = getattr(db, "_hasty_actions", None)
    if cached is None:
        cached = {c.id: ActionCard(c.id, str(c["name"]), str(c["kind"]), str(c["restriction"]),
                                   _plain(dict(c["effect"])), c.copies, tuple(getattr(c, "sets", ()) or ()))
                  for c in db.components[ACTIONS_COMPONENT].cards}
        db._hasty_actions = cached  # type: ignore[attr-defined]  # the database never changes once loaded
    return cached


def suspects(db: GameDatabase) -> dict[str, Suspect]:
    """Every suspect by id, built once."""
    cached: dict[str, Suspect] | None = getattr(db, "_hasty_suspects", None)
    if cached is None:
        cached = {c.id: Suspect(c.id, str(c["name"]), _plain(dict(c["power"])))
                  for c in db.components[SUSPECTS].cards}
        db._hasty_suspects = cached  # type: ignore[attr-defined]
    return cached


def set_ids(db: GameDatabase) -> list[str]:
    """The card sets of the action deck, in the order they are declared."""
    declared = list(getattr(db, "sets", {}) or {})
    return declared or sorted({s for c in actions(db).values() for s in c.sets})


def default_sets(db: GameDatabase) -> list[str]:
    chosen = list(getattr(db, "default_sets", ()) or ())
    return chosen or set_ids(db)[:1]


def deck_cards(db: GameDatabase, chosen: list[str]) -> list[str]:
    """The physical action deck for the chosen sets: one id per printed card."""
    return [c.id for c in actions(db).values() if set(c.sets) & set(chosen) for _ in range(c.copies)]


def check_database(db: GameDatabase, problems: Problems) -> None:
    """Every effect and power from the vocabulary with its printed text, each set a playable deck."""
    comp = db.components.get(ACTIONS_COMPONENT)
    sus = db.components.get(SUSPECTS)
    if comp is None or sus is None:
        problems.add(db.place, "Hasty needs the components 'suspects' and 'actions'",
                     "components with id: suspects and id: actions")
        return
    for card in comp.cards:
        effect = card["effect"]
        op = effect.get("op") if isinstance(effect, dict) else None
        if op not in OPS:
            problems.add(card.field_place("effect"), f"card '{card.id}': unknown effect op {op!r}",
                         "op: one of " + ", ".join(OPS))
            continue
        params, _ = OPS[str(op)]
        for key, value in effect.items():
            if key == "op":
                continue
            if key not in params:
                problems.add(card.field_place("effect"), f"card '{card.id}': '{op}' takes no '{key}'",
                             "parameters: " + (", ".join(params) or "none"))
            elif value not in params[key] or isinstance(value, bool) != isinstance(params[key][-1], bool):
                problems.add(card.field_place("effect"), f"card '{card.id}': {key} {value!r} is not allowed",
                             f"{key}: one of " + ", ".join(str(v) for v in params[key]))
        want = effect_text(_plain(dict(effect)), str(card["name"]))
        if card["text"] != want:
            problems.add(card.field_place("text"), f"card '{card.id}': the text does not say what the effect does",
                         f"text: \"{want}\"")
        if op == "murder" and int(effect.get("copies", 1)) > card.copies:
            problems.add(card.field_place("effect"), f"card '{card.id}' needs {effect.get('copies')} copies "
                         f"in a pile but has {card.copies}", f"copies: {effect.get('copies')} or more")
        if not getattr(card, "sets", ()):
            problems.add(card.place, f"action card '{card.id}' belongs to no set", "sets: [base]")
    kinds = {"death": 0, "play": 0}
    for card in sus.cards:
        power = card["power"]
        op, trigger = power.get("op"), power.get("trigger")
        if op not in POWER_OPS or trigger not in POWER_OPS.get(str(op), ()):
            problems.add(card.field_place("power"), f"suspect '{card.id}': power {op!r} on {trigger!r} is unknown",
                         "op: one of " + ", ".join(f"{o} ({'/'.join(t)})" for o, t in POWER_OPS.items()))
            continue
        kinds[str(trigger)] += 1
        if power.get("text") != power_text(_plain(dict(power))):
            problems.add(card.field_place("power"), f"suspect '{card.id}': the power text does not say what it does",
                         f"text: \"{power_text(_plain(dict(power)))}\"")
    most = ROW_SIZE[MAX_PLAYERS] + TRAITOR_ROW_EXTRA
    if len(sus.cards) < most:
        problems.add(sus.place, f"{len(sus.cards)} suspects", f"at least {most} (the row for 7 with the Traitor)")
    if abs(kinds["death"] - kinds["play"]) > 2:
        problems.add(sus.place, f"{kinds['death']} death powers and {kinds['play']} play powers",
                     "a balanced mix (they differ by 2 at most)")
    for set_id in set_ids(db):
        _check_set(db, set_id, problems)


MIN_TYPES, MIN_DECK = 10, 40


def _check_set(db: GameDatabase, set_id: str, problems: Problems) -> None:
    """One set alone is a deck: enough types and cards, every kind, kill cards the most numerous."""
    comp = db.components[ACTIONS_COMPONENT]
    cards = [c for c in actions(db).values() if set_id in c.sets]
    per_kind = {k: sum(c.copies for c in cards if c.kind == k) for k in KINDS}
    total = sum(per_kind.values())
    declared = (getattr(db, "sets", {}) or {}).get(set_id)
    count = getattr(declared, "count", 0) if declared is not None else 0
    where = getattr(declared, "place", comp.place) if declared is not None else comp.place
    if count and count != total:
        problems.add(where, f"set '{set_id}' prints {total} action cards but declares count {count}",
                     f"count: {total}, or change the copies")
    if len(cards) < MIN_TYPES:
        problems.add(where, f"set '{set_id}' has {len(cards)} action types", f"at least {MIN_TYPES}")
    if total < MIN_DECK:
        problems.add(where, f"set '{set_id}' has {total} action cards", f"at least {MIN_DECK} (7 hands of 4 and more)")
    missing = [k for k in KINDS if k != "misc" and not per_kind[k]]
    if missing:
        problems.add(where, f"set '{set_id}' has no {', '.join(missing)} card", "every kind in every set")
    if per_kind["kill"] < max(v for k, v in per_kind.items() if k != "kill"):
        problems.add(where, f"set '{set_id}': kill cards ({per_kind['kill']}) are not the most numerous kind",
                     "more kill cards than any other kind")


# --- state ---------------------------------------------------------------------------------------

@dataclass
class Entry(engine.QuickCopy):
    """One card in a pile: its id if known, whether it lies face up, who played it."""

    card: str | None
    face_up: bool
    by: int
    played_at: str  # the suspect it was played on (a card may be moved to another pile later)


@dataclass
class Review(engine.QuickCopy):
    """A suspect's pile being reviewed: the next card to reveal and what has been revealed."""
    suspect: str
    pos: int  # index (from the bottom) of the next card to reveal; -1 when done
    revealed: list[str] = field(default_factory=list)
    big_hands_for: int | None = None  # the player who takes the pile if nobody dies (Big Hands)


@dataclass
class State(SharesDatabase):
    """A game of Hasty in play: the players, variants and sets, the suspects alive and dead, secrets and piles."""
    db: GameDatabase
    players: list[str]
    variants: list[str]
    sets: list[str]
    row: list[str]  # suspects still alive, left to right
    dead: list[str]
    secrets: list[str]  # each player's secret suspect id (or 'traitor')
    piles: dict[str, list[Entry]]  # bottom first
    hands: list[int]
    deck: int
    out: list[bool]
    active: int = 0
    direction: int = 1
    loupe: int = 0
    loupe_start: int = 0  # where the loupe goes after the next review (loupe_to, loupe_to_last)
    turn: int = 1
    safe_pass_done: bool = False
    discards: int = 0  # the discard pile (cards out of hands and piles)
    reshuffles: int = 0
    bonus_draws: int = 0  # cards to draw after drawing back up this turn
    calls_off: int = 0  # pending cancelled reviews
    skips: int = 0  # players to skip
    loupe_extra: int = 0
    phase: str = "play"  # play, pick, reveal, over
    tied: list[str] = field(default_factory=list)
    review: Review | None = None
    exposed: dict[int, str] = field(default_factory=dict)
    peeks: list[tuple[int, int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    why: str = ""
    ended_by: str = ""  # the id of the rule the game ended by, cited when an event comes after the end
    events: int = 0
    said: list[str] = field(default_factory=list)  # what the last event did, for describe
    history: list[str] = field(default_factory=list)
    taken: list[str | None] = field(default_factory=list)  # the cards of the last pile taken in hand (Big Hands)
    taken_at: int = 0  # the event that took them
    acted: list[tuple[str, bool, str]] = field(default_factory=list)  # the last event's effects: (card, in review, what)
    hand_discards: list[int] = field(default_factory=list)  # the last event's discards from hand, by player
    murders: list[tuple[str, int | None]] = field(default_factory=list)  # (suspect, player eliminated)
    seen: list[str] = field(default_factory=list)  # known cards in the discard pile since it was last shuffled

    @property
    def first_round(self) -> bool:
        """Until the loupe first passes the last suspect (then it returns without a review)."""
        return not self.safe_pass_done and "no_safe_round" not in self.variants

    def name(self, sid: str) -> str:
        if sid == TRAITOR:
            return "the Traitor"
        return suspects(self.db)[sid].name

    def owner(self, sid: str) -> int | None:
        return self.secrets.index(sid) if sid in self.secrets else None

    def players_in(self) -> list[int]:
        return [p for p in range(len(self.players)) if not self.out[p]]


def _find(options: dict[str, str], text: Any, what: str, rule: Rule) -> str:
    """An id from its id or name, any case; a refusal naming the closest if there is none."""
    key = str(text).strip().lower() if text is not None else ""
    key = key[4:] if key.startswith("the ") else key
    if key in options:
        return options[key]
    close = difflib.get_close_matches(key, list(options), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise IllegalAction(f"unknown {what} {text!r}{hint}", rule)


def suspect_id(state: State, text: Any, rule: Rule = R_TURN) -> str:
    opts = {s.id: s.id for s in suspects(state.db).values()} | {s.name.lower(): s.id for s in suspects(state.db).values()}
    return _find(opts, text, "suspect", rule)


def card_id(state: State, text: Any, rule: Rule = R_SETS) -> str:
    """A card of the sets in play by id or name; else refused by the rule of which sets are played."""
    cards = [c for c in actions(state.db).values() if set(c.sets) & set(state.sets)]
    opts = {c.id: c.id for c in cards} | {c.name.lower(): c.id for c in cards}
    return _find(opts, text, f"card of the set(s) {', '.join(state.sets)}", rule)


def _player(state: State, who: Any, what: str = "by") -> int:
    if who not in state.players:
        raise IllegalAction(f"{what}: {who!r} is not a player ({', '.join(state.players)})", R_TURN)
    return state.players.index(who)


def new_state(db: GameDatabase, setup: dict[str, Any]) -> State:
    """The table after setup: `players`, `variants`, `sets`, `row` and `secrets` (or a `seed` deals them)."""
    players = list(setup.get("players") or [])
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise IllegalAction(f"{len(players)} players: Hasty is for {MIN_PLAYERS} to {MAX_PLAYERS} different names",
                            R_SETUP)
    variants = list(setup.get("variants") or [])
    for v in variants:
        if v not in VARIANTS:
            raise IllegalAction(f"unknown variant '{v}'", Rule(R_SETUP.name + " (variants: " + ", ".join(VARIANTS) + ")",
                                                                R_SETUP.id))
    chosen = list(setup.get("sets") or default_sets(db))
    for s in chosen:
        if s not in set_ids(db):
            raise IllegalAction(f"unknown card set '{s}'", Rule(f"Card sets ({', '.join(set_ids(db))})", "setup_sets"))
    rng = random.Random(setup.get("seed"))
    pool = sorted(suspects(db))
    size = int(setup.get("row_size") or ROW_SIZE[len(players)] + (TRAITOR_ROW_EXTRA if "traitor" in variants else 0))
    row_given = setup.get("row")
    if row_given is None:
        if setup.get("seed") is None:
            raise IllegalAction("setup needs the row (row: [suspects, left to right]) or a seed", R_SETUP)
        row = rng.sample(pool, size)
    else:
        row = [suspect_id_db(db, r) for r in row_given]
    if len(row) < max(5, len(players)) or len(set(row)) != len(row):
        raise IllegalAction(f"a row of {len(row)} suspects: use at least 5 different ones and one per player", R_SETUP)
    traitor = "traitor" in variants
    given = setup.get("secrets")
    if given is None:
        if setup.get("seed") is None:
            raise IllegalAction("setup needs each player's secret suspect (secrets: {Ann: <suspect>, ...}) or a seed",
                                R_SETUP)
        dealt = rng.sample(row, len(players))
        if traitor:
            dealt[rng.randrange(len(players))] = TRAITOR
        secrets = dealt
    else:
        if not isinstance(given, dict) or set(given) != set(players):
            raise IllegalAction("secrets: one suspect for each player ({Ann: <suspect>, ...})", R_SECRETS)
        secrets = [TRAITOR if str(given[p]).lower() in (TRAITOR, "the traitor") else
                   suspect_id_db(db, given[p], R_SECRETS) for p in players]
    # said without naming whose secret is wrong: the players read it together
    traitors = secrets.count(TRAITOR)
    if traitor and traitors != 1:
        raise IllegalAction(("nobody's secret suspect is the Traitor" if not traitors else
                             f"{traitors} players' secret suspects are the Traitor")
                            + ": with the Traitor variant exactly one player is the Traitor", R_SECRETS)
    if traitors and not traitor:
        raise IllegalAction("a secret suspect is the Traitor, but the Traitor variant is not played", R_SECRETS)
    real = [s for s in secrets if s != TRAITOR]
    if len(set(real)) != len(real):
        raise IllegalAction("two players have the same secret suspect: each is a different suspect of the row",
                            R_SECRETS)
    if any(s not in row for s in real):
        raise IllegalAction("a secret suspect is not in the row: each is a suspect of the row", R_SECRETS)
    total = len(deck_cards(db, chosen))
    if "big_hands" in variants:
        hands = [total // len(players) + (1 if i < total % len(players) else 0) for i in range(len(players))]
        deck = 0
    else:
        hands, deck = [HAND] * len(players), total - HAND * len(players)
    start = players.index(setup["first"]) if setup.get("first") in players else 0
    state = State(db, players, variants, chosen, row, [], secrets, {s: [] for s in row}, hands, deck,
                  [False] * len(players), active=start)
    return state


def suspect_id_db(db: GameDatabase, text: Any, rule: Rule = R_SETUP) -> str:
    opts = {s.id: s.id for s in suspects(db).values()} | {s.name.lower(): s.id for s in suspects(db).values()}
    return _find(opts, text, "suspect", rule)


# --- playing -------------------------------------------------------------------------------------

def _say(state: State, text: str) -> None:
    state.said.append(text)


# Whose suspect is whose is secret, and the phone lies on the table: like the players at a physical table, the
# engine never checks a card that must (or can't) go on its player's own suspect (a refusal, or a "stuck" refused
# for one player and not another, would tell the table the owner). The player keeps that restriction; only a
# player deciding alone (the simulator, which knows its own suspect) asks for it with `knows_own`.
OWN_RULE = {"must_own": "it must go on the player's own suspect", "cant_own": "it can't go on the player's own suspect"}


def _restriction_error(state: State, card: ActionCard, who: int, at: str, face_up: bool,
                       knows_own: bool = False) -> str | None:
    """Why a card may not lie where it was played, or None: the loupe's restrictions (public); the own
    suspect's only with `knows_own`, for the player alone."""
    r = card.restriction
    if r == "must_loupe" and not face_up:
        return f"{card.name} must be played at the loupe"
    if r == "cant_loupe" and face_up:
        return f"{card.name} can't be played at the loupe"
    own = state.secrets[who] == at
    if knows_own and (r == "must_own" and not own or r == "cant_own" and own):
        return f"{card.name} can't be played here: {OWN_RULE[r]}"
    return None


def allowed_at(state: State, player: int, cid: str) -> list[str]:
    """The suspects where a player who knows their own suspect may play a card (every restriction applied; the
    loupe's pile face up): the player's own choice, never the table's check."""
    card = actions(state.db)[cid]
    return [s for i, s in enumerate(state.row)
            if _restriction_error(state, card, player, s, face_up=i == state.loupe, knows_own=True) is None]


def next_to_reveal(state: State) -> Entry | None:
    """The card the review reveals next (its id is None if nobody knows it yet)."""
    if state.review is None or state.review.pos < 0:
        return None
    return state.piles[state.review.suspect][state.review.pos]


def _check_copies(state: State, cid: str, rule: Rule) -> None:
    """Refuse a card whose every copy in the sets in play lies known in a pile or in the discard pile."""
    card = actions(state.db)[cid]
    known = sum(e.card == cid for pile in state.piles.values() for e in pile) + state.seen.count(cid)
    if known >= card.copies:
        raise IllegalAction(f"{card.name}: all {card.copies} copies in play already lie face up or revealed in the "
                            f"piles or in the discard pile, so nobody can hold another", rule)


def _discard(state: State, entries: list[Entry]) -> None:
    """Cards of piles go to the discard pile; those known stay known until the next reshuffle."""
    state.discards += len(entries)
    state.seen.extend(str(e.card) for e in entries if e.card is not None)


def _play(state: State, who: int, event: Event) -> None:
    _need(state, "play")
    if who != state.active:
        raise IllegalAction(f"it is {state.players[state.active]}'s turn, not {state.players[who]}'s", R_TURN)
    _fields(event, {"at", "card", "target", "player"}, R_TURN)
    if event.get("at") is None:
        raise IllegalAction("a play says where: at: <suspect>", R_TURN)
    at = suspect_id(state, event["at"])
    if at not in state.row:
        raise IllegalAction(f"{state.name(at)} is not in the row (murdered or not in this game)", R_TURN)
    if state.hands[who] <= 0:
        raise IllegalAction(f"{state.players[who]} has no card in hand", R_TURN)
    face_up = state.row.index(at) == state.loupe
    cid = None if event.get("card") is None else card_id(state, event["card"])
    if face_up and cid is None:
        raise IllegalAction(f"{state.name(at)} has the loupe: the card is played face up, so say which (card: <name>)",
                            R_LOUPE)
    card = actions(state.db)[cid] if cid else None
    if card is not None:
        why = _restriction_error(state, card, who, at, face_up)
        if why:
            raise IllegalAction(why, R_RESTRICT)
        _check_copies(state, card.id, R_COPIES)
    if not face_up and (event.get("target") is not None or event.get("player") is not None):
        raise IllegalAction("a face-down card does nothing until it is revealed: give its choice then", R_CHOICE)
    if face_up and card is not None:
        _choice(state, card, event, at)  # refused before anything changes
    state.hands[who] -= 1
    state.piles[at].append(Entry(cid, face_up, who, at))
    where = f"{'face up at the loupe on' if face_up else 'face down on'} {state.name(at)}"
    _say(state, f"{state.players[who]} plays {card.name + ' ' if card and face_up else 'a card '}{where}")
    _power(state, at, "play", who)
    if face_up and card is not None and at in state.row:
        _effect(state, card, at, len(state.piles[at]) - 1, event, in_review=False)
    if state.phase == "over":
        return
    if "big_hands" in state.variants:
        state.bonus_draws = 0  # nobody draws in Big Hands: no draw waits for a later turn
        if state.hands[who] == 0 and not state.out[who]:
            _big_hands_review(state, who)
            return
    elif not state.out[who]:
        _draw(state, who, HAND - state.hands[who])
        _draw(state, who, state.bonus_draws)  # draws a card or power gave: after drawing back up, so they count
    state.bonus_draws = 0
    _move_loupe(state, murdered_here=at not in state.row and at in state.dead[-1:])


def _stuck(state: State, who: int, event: Event) -> None:
    """No card in hand can be played anywhere: show the hand, discard one card, draw, and the loupe moves on."""
    _need(state, "play")
    if who != state.active:
        raise IllegalAction(f"it is {state.players[state.active]}'s turn, not {state.players[who]}'s", R_TURN)
    _fields(event, {"card"}, R_STUCK)
    if state.hands[who] <= 0:
        raise IllegalAction(f"{state.players[who]} has no card in hand", R_TURN)
    cid = card_id(state, event.get("card"))
    card = actions(state.db)[cid]
    if card.restriction not in OWN_RULE and allowed_at(state, who, cid):  # an own-suspect card: the player's word
        where = engine.and_list([state.name(s) for s in allowed_at(state, who, cid)])
        raise IllegalAction(f"{card.name} can be played (at {where})", R_STUCK)
    _check_copies(state, cid, R_COPIES)
    state.hands[who] -= 1
    state.discards += 1
    state.seen.append(cid)
    _say(state, f"{state.players[who]} can play no card and discards {actions(state.db)[cid].name}")
    if "big_hands" in state.variants:
        if state.hands[who] == 0:
            _big_hands_review(state, who)
            return
    else:
        _draw(state, who, HAND - state.hands[who])
    _move_loupe(state)


def _draw(state: State, who: int, n: int) -> None:
    """Draw from the deck; when it runs out, the discards are shuffled into a new one (not in Big Hands)."""
    if state.out[who]:
        return  # an eliminated player's hand is gone for good
    if n > state.deck and state.discards and "big_hands" not in state.variants:
        state.deck, state.discards = state.deck + state.discards, 0
        state.seen = []
        state.reshuffles += 1
        _say(state, "the deck ran out: the discards are shuffled into a new deck")
    n = max(0, min(n, state.deck))
    state.hands[who] += n
    state.deck -= n


def _move_loupe(state: State, murdered_here: bool = False) -> None:
    """The loupe steps right (not when its suspect was just murdered: the next one moved up); past the last, a review."""
    state.loupe += (0 if murdered_here else 1) + state.loupe_extra
    state.loupe_extra = 0
    if state.loupe < len(state.row):
        _next_turn(state)
        return
    if state.first_round:
        state.loupe, state.safe_pass_done = 0, True
        _say(state, "the first round is safe: the loupe returns to the first suspect")
        _next_turn(state)
        return
    if state.calls_off:
        state.calls_off -= 1
        state.loupe = 0
        _say(state, "the review is called off: the loupe returns to the first suspect")
        _next_turn(state)
        return
    sizes = {s: len(state.piles[s]) for s in state.row}
    top = max(sizes.values(), default=0)
    tied = [s for s in state.row if sizes[s] == top]
    if top == 0:
        state.loupe = 0
        _say(state, "a review, but every pile is empty: the loupe returns to the first suspect")
        _next_turn(state)
        return
    if len(tied) > 1:
        state.phase, state.tied = "pick", tied
        _say(state, f"a review: {engine.and_list([state.name(s) for s in tied])} tie for the largest pile "
                    f"({top} cards); {state.players[state.active]} picks one")
        return
    _start_review(state, tied[0])


def _start_review(state: State, sid: str, big_hands_for: int | None = None) -> None:
    state.review = Review(sid, len(state.piles[sid]) - 1, big_hands_for=big_hands_for)
    state.phase = "reveal"
    _say(state, f"{state.name(sid)}'s pile ({len(state.piles[sid])} cards) is reviewed, top to bottom")
    _advance_review(state)


def _advance_review(state: State) -> None:
    """Skip the face-up cards (they acted when played) and finish the review when nothing is left to reveal."""
    review = state.review
    assert review is not None
    pile = state.piles[review.suspect]
    while review.pos >= 0 and pile[review.pos].face_up:
        review.revealed.append(str(pile[review.pos].card))
        review.pos -= 1
    if review.pos < 0:
        _end_review(state, murdered=False)


def _end_review(state: State, murdered: bool) -> None:
    review = state.review
    assert review is not None
    sid = review.suspect
    taker = review.big_hands_for
    state.review, state.phase = None, "play"
    if not murdered and sid in state.row:
        if taker is not None and not state.out[taker]:
            kept = state.piles[sid][:-1]  # the top card is discarded, so a game of Big Hands always ends
            state.taken, state.taken_at = [e.card for e in kept], state.events + 1
            state.hands[taker] += len(kept)
            _discard(state, state.piles[sid][-1:])
            _say(state, f"{state.name(sid)} survives: {state.players[taker]} takes the pile as a new hand "
                        f"({len(kept)} card{'s' if len(kept) != 1 else ''}; its top card is discarded)")
        else:
            _say(state, f"{state.name(sid)} survives; the pile is discarded")
            _discard(state, state.piles[sid])
        state.piles[sid] = []
    state.loupe, state.loupe_start = min(state.loupe_start, max(len(state.row) - 1, 0)), 0
    if state.phase != "over":
        _next_turn(state)


def _big_hands_review(state: State, who: int) -> None:
    """Big Hands: out of cards, your own suspect is reviewed (the Traitor's: the largest pile)."""
    own = state.secrets[who]
    if own == TRAITOR or own not in state.row:
        sizes = {s: len(state.piles[s]) for s in state.row}
        own = max(state.row, key=lambda s: sizes[s])
    _say(state, f"{state.players[who]} has no cards left")
    if not state.piles[own]:
        _say(state, f"{state.name(own)}'s pile is empty: {state.players[who]} is out of cards for good")
        _move_loupe(state)
        return
    _start_review(state, own, big_hands_for=who)


def _pick(state: State, who: int, event: Event) -> None:
    _need(state, "pick")
    if who != state.active:
        raise IllegalAction(f"{state.players[state.active]} picks the pile on a tie, not {state.players[who]}", R_REVIEW)
    _fields(event, {"pile"}, R_REVIEW)
    sid = suspect_id(state, event.get("pile"), R_REVIEW)
    if sid not in state.tied:
        raise IllegalAction(f"{state.name(sid)} is not among the largest piles "
                            f"({engine.and_list([state.name(s) for s in state.tied])})", R_REVIEW)
    state.tied = []
    _say(state, f"{state.players[who]} picks {state.name(sid)}")
    _start_review(state, sid)


def _reveal(state: State, who: int, event: Event) -> None:
    _need(state, "reveal")
    review = state.review
    assert review is not None
    if who != state.active:
        raise IllegalAction(f"{state.players[state.active]} reveals the cards of the review", R_REVEAL)
    _fields(event, {"card", "target", "player"}, R_REVEAL)
    entry = state.piles[review.suspect][review.pos]
    if event.get("card") is None:
        if entry.card is None:
            raise IllegalAction("say which card was revealed: card: <name>", R_REVEAL)
        cid = entry.card
    else:
        cid = card_id(state, event["card"])
        if entry.card is not None and entry.card != cid:
            raise IllegalAction(f"this card was played as {actions(state.db)[entry.card].name}, not "
                                f"{actions(state.db)[cid].name}", R_REVEAL)
        if entry.card is None:
            _check_copies(state, cid, R_COPIES)
    card = actions(state.db)[cid]
    why = _restriction_error(state, card, entry.by, entry.played_at, face_up=False)
    if why:
        raise IllegalAction(f"{state.players[entry.by]} played this card face down on {state.name(entry.played_at)}, "
                            f"but {why}; a mistake at the table to put right (undo back to that play)", R_RESTRICT)
    _choice(state, card, event, review.suspect)  # refused before anything changes
    entry.card = cid
    review.revealed.append(cid)
    pos = review.pos
    review.pos -= 1
    _say(state, f"{state.players[who]} reveals {card.name}")
    _effect(state, card, review.suspect, pos, event, in_review=True)
    if state.review is not None and state.phase == "reveal":
        _advance_review(state)


# --- effects -------------------------------------------------------------------------------------

def _revealed_here(state: State, sid: str, in_review: bool) -> list[str]:
    """The cards of a pile that are face up, plus those revealed in the review under way."""
    pile = state.piles[sid]
    if in_review and state.review is not None and state.review.suspect == sid:
        face_down = [e.card for i, e in enumerate(pile) if not e.face_up and i > state.review.pos]
        return [str(e.card) for e in pile if e.face_up] + [str(c) for c in face_down]
    return [str(e.card) for e in pile if e.face_up]


def _choice(state: State, card: ActionCard, event: Event, sid: str) -> str | int | None:
    """The active player's choice a card needs (a suspect or a player); None when nothing can be chosen."""
    if card.choice == "target":
        options = [s for s in state.row if s != sid] if card.op == "move_under" else list(state.row)
        if not options:
            return None
        if event.get("target") is None:
            raise IllegalAction(f"{card.name} needs the active player's choice: target: <suspect> "
                                f"({', '.join(state.name(s) for s in options)})", R_CHOICE)
        target = suspect_id(state, event["target"], R_CHOICE)
        if target not in options:
            raise IllegalAction(f"{state.name(target)} can't be chosen for {card.name}", R_CHOICE)
        return target
    if card.choice == "player":
        others = [p for p in state.players_in() if p != state.active]
        if not others:
            return None
        if event.get("player") is None:
            raise IllegalAction(f"{card.name} needs the active player's choice: player: <name>", R_CHOICE)
        p = _player(state, event["player"], "player")
        if p not in others:
            raise IllegalAction(f"{state.players[p]} can't be chosen for {card.name}", R_CHOICE)
        return p
    return None


def _effect(state: State, card: ActionCard, sid: str, pos: int, event: Event, in_review: bool) -> None:
    """Do what a card says: `pos` is its place in the pile of `sid` (from the bottom)."""
    choice = _choice(state, card, event, sid)
    op, fx = card.op, card.effect
    pile = state.piles[sid]
    under = pile[:pos]  # the cards under this one, bottom first
    if op == "murder":
        here = _revealed_here(state, sid, in_review)
        need = int(fx.get("copies", 1)) - (1 if any(actions(state.db)[c].op == "rush" for c in here) else 0)
        have = here.count(card.id)
        if have < need:
            _say(state, f"{card.name}: {have} of {need} revealed, no murder yet")
            state.acted.append((card.id, in_review, "short"))
            return
        guards = [c for c in here if actions(state.db)[c].op == "protect"]
        if not fx.get("ignores_protect") and guards:
            _say(state, f"{card.name}: {state.name(sid)} is protected")
            state.acted.append((card.id, in_review, "blocked"))
            state.acted.extend((c, in_review, "protected") for c in dict.fromkeys(guards))
            return
        state.acted.append((card.id, in_review, "murder"))
        state.acted.extend((c, in_review, "rushed") for c in dict.fromkeys(here)
                           if actions(state.db)[c].op == "rush" and have < int(fx.get("copies", 1)))
        _murder(state, sid, in_review)
    elif op in ("protect", "rush"):
        state.acted.append((card.id, in_review, "laid"))
        _say(state, f"{card.name}: {'protected' if op == 'protect' else 'murders here need one copy fewer'}")
    elif op == "discard_under":
        n = len(under) if fx["count"] == "all" else min(int(fx["count"]), len(under))
        gone = pile[pos - n:pos]
        state.acted.append((card.id, in_review, f"removed {[e.card for e in gone]}"))
        _discard(state, gone)
        del pile[pos - n:pos]
        _shift_review(state, sid, n)
        _say(state, f"{card.name}: {_discarded(state, gone)}")
    elif op == "move_under":
        if choice is None:
            return
        moved = pile[:pos]
        state.acted.append((card.id, in_review, f"removed {[e.card for e in moved]}"))
        del pile[:pos]
        state.piles[str(choice)].extend(moved)
        _shift_review(state, sid, len(moved))
        _say(state, f"{card.name}: {len(moved)} card{'s' if len(moved) != 1 else ''} moved onto {state.name(str(choice))}")
    elif op == "flip_under":
        pile[:pos] = list(reversed(pile[:pos]))
        state.acted.append((card.id, in_review, "flipped" if pos > 1 else "idle"))
        _say(state, f"{card.name}: the {len(under)} cards under it are turned over")
    elif op == "cancel_review":
        state.acted.append((card.id, in_review, "cancelled"))
        if in_review:
            _say(state, f"{card.name}: the review ends, nobody dies")
            _end_review(state, murdered=False)
        else:
            state.calls_off += 1
            _say(state, f"{card.name}: the next review is called off")
    elif op == "expose":
        owner = state.owner(sid)
        state.acted.append((card.id, in_review, "exposed" if owner is not None else "idle"))
        if owner is not None:
            state.exposed[owner] = sid
        _say(state, f"{card.name}: " + (f"{state.name(sid)} is {state.players[owner]}'s secret suspect"
                                        if owner is not None else f"{state.name(sid)} is nobody's secret suspect"))
    elif op == "peek":
        state.acted.append((card.id, in_review, "peeked" if choice is not None else "idle"))
        if choice is not None:
            state.peeks.append((state.active, int(choice)))
            _say(state, f"{card.name}: {state.players[state.active]} looks at {state.players[int(choice)]}'s suspect")
    elif op in ("loupe_to", "reverse_turns", "skip_next", "draw"):
        state.acted.append((card.id, in_review, "acted"))
    if op == "loupe_to":
        if choice is not None:
            index = state.row.index(str(choice))
            state.loupe_start = index  # the card says: after a review the loupe starts there
            if not in_review:
                state.loupe = index  # then it takes the turn's usual step (faq_loupe_to)
            _say(state, f"{card.name}: the loupe goes to {state.name(str(choice))}")
    elif op == "reverse_turns":
        state.direction *= -1
        _say(state, f"{card.name}: the turn order is reversed")
    elif op == "skip_next":
        state.skips += 1
        _say(state, f"{card.name}: the next player misses their turn")
    elif op == "draw":
        _say(state, f"{card.name}: {state.players[state.active]} draws {int(fx['count'])}"
                    + (" after drawing back up" if not in_review else ""))
        if in_review:
            _draw(state, state.active, int(fx["count"]))
        else:
            state.bonus_draws += int(fx["count"])


def _discarded(state: State, gone: list[Entry]) -> str:
    """The cards a discard took, for people: face-up ones by name (everyone saw them), the others unseen."""
    if not gone:
        return "no card under it to discard"
    hidden = sum(not e.face_up for e in gone)
    seen = [actions(state.db)[str(e.card)].name for e in gone if e.face_up]
    parts = ([f"{hidden} card{'s' if hidden != 1 else ''} discarded unseen"] if hidden else []) + \
        ([f"{engine.and_list(seen)} discarded face up"] if seen else [])
    return ", and ".join(parts)


def _shift_review(state: State, sid: str, removed: int) -> None:
    """Cards under the one being revealed were removed: the next card to reveal moves down."""
    if state.review is not None and state.review.suspect == sid:
        state.review.pos -= removed


def _murder(state: State, sid: str, in_review: bool) -> None:
    index = state.row.index(sid)
    state.row.remove(sid)
    state.dead.append(sid)
    owner = state.owner(sid)
    _say(state, f"{state.name(sid)} is murdered")
    if owner is not None and not state.out[owner]:
        state.out[owner] = True
        state.discards += state.hands[owner]
        state.hands[owner] = 0
        _say(state, f"{state.players[owner]} is eliminated and discards their hand")
    state.murders.append((sid, owner))
    _discard(state, state.piles.pop(sid))
    if index < state.loupe:
        state.loupe -= 1
    if index < state.loupe_start:
        state.loupe_start -= 1  # it stays on the same suspect
    _check_end(state)
    if state.phase != "over":
        _power(state, sid, "death", state.active, in_review)
    if in_review and state.phase != "over" and state.review is not None:
        state.review, state.phase = None, "play"
        state.loupe, state.loupe_start = min(state.loupe_start, max(len(state.row) - 1, 0)), 0
        _next_turn(state)


def _power(state: State, sid: str, trigger: str, who: int, in_review: bool = False) -> None:
    """A suspect's power, when the Suspect Powers variant is on.

    Cards it gives the player whose turn it is come after their draw back up to 4 (turn_draw), as a draw
    card's do: during a play they wait in bonus_draws; in a review that hand is drawn already, so at once."""
    if "powers" not in state.variants:
        return
    power = suspects(state.db)[sid].power
    if power.get("trigger") != trigger:
        return
    op = power["op"]
    text = power_text(power).rstrip(".")
    _say(state, f"{state.name(sid)}'s power: {text[0].lower()}{text[1:]}")
    if op == "reverse_turns":
        state.direction *= -1
    elif op == "skip_next":
        state.skips += 1
    elif op == "draw" and not in_review:
        state.bonus_draws += int(power.get("count", 1))
    elif op == "draw":
        _draw(state, who, int(power.get("count", 1)))
    elif op == "each_draws":
        for p in state.players_in():
            if p == who and not in_review:
                state.bonus_draws += 1
            else:
                _draw(state, p, 1)
    elif op == "discard_tops":
        for s in state.row:
            if state.piles[s] and not (state.review is not None and state.review.suspect == s):
                _discard(state, [state.piles[s].pop()])
    elif op == "loupe_to_last":
        state.loupe_start = max(len(state.row) - 1, 0)
    elif op == "discard_bottom":
        pile = state.piles[sid]
        if len(pile) > 1:
            _discard(state, [pile.pop(0)])
    elif op == "loupe_step":
        state.loupe_extra += 1
    elif op == "discard_from_hand" and state.hands[who] > 0:
        state.hands[who] -= 1
        state.discards += 1
        state.hand_discards.append(who)


def _check_end(state: State) -> None:
    """The game ends with one player left; the Traitor's own conditions; nobody with a card left."""
    left = state.players_in()
    traitor = state.secrets.index(TRAITOR) if TRAITOR in state.secrets else None
    if traitor is not None and not state.out[traitor]:
        others = [p for p in left if p != traitor]
        if len(state.row) == 1:
            state.out[traitor] = True
            state.discards += state.hands[traitor]
            state.hands[traitor] = 0
            state.exposed[traitor] = TRAITOR
            _say(state, f"one suspect remains: {state.players[traitor]} reveals the Traitor and loses")
            left = others
        elif not others:
            _over(state, [traitor], f"{state.players[traitor]} is the Traitor and wins: every other player is "
                                    f"out and {len(state.row)} suspects remain", R_TRAITOR)
            return
    if len(left) == 1:
        _over(state, left, f"{state.players[left[0]]} is the last player left", R_END)
    elif not left:
        _over(state, [], "nobody is left: the Traitor lost with the last suspect standing", R_NOBODY_LEFT)


def _over(state: State, winners: list[int], why: str, rule: Rule) -> None:
    state.phase, state.winners, state.why, state.ended_by = "over", winners, why, rule.id
    state.review = None
    _say(state, "Game over: " + why)


def _next_turn(state: State) -> None:
    """The next player in turn order who is still in (and has a card); skips and an all-empty table end here."""
    if state.phase == "over":
        return
    n = len(state.players)
    state.turn += 1
    p = state.active
    for _ in range(4 * n + state.skips + 2):
        p = (p + state.direction) % n
        if state.out[p]:
            continue
        if state.skips:
            state.skips -= 1
            _say(state, f"{state.players[p]} misses the turn")
            continue
        if state.hands[p] == 0:
            if not any(state.hands[q] for q in state.players_in()):
                break
            _say(state, f"{state.players[p]} has no card and passes")
            continue
        state.active = p
        return
    left = state.players_in()
    traitor = state.secrets.index(TRAITOR) if TRAITOR in state.secrets else None
    winners = [p for p in left if p != traitor]
    _over(state, winners, f"no player has a card left: {engine.and_list([state.players[p] for p in winners]) or 'nobody'}"
                          " share the win" + (" (the Traitor loses)" if traitor in left else ""), R_NO_CARDS)


def _need(state: State, *phases: str) -> None:
    if state.phase == "over":
        raise IllegalAction(f"the game is over: {state.why}", END_RULES.get(state.ended_by, R_END))
    if state.phase not in phases:
        wanted = {"play": "a play (no review is under way)",
                  "pick": f"{state.players[state.active]} picks the pile to review (pick)",
                  "reveal": "the next card of the review (reveal)"}[state.phase]
        raise IllegalAction(f"now comes {wanted}", {"play": R_TURN, "pick": R_REVIEW, "reveal": R_REVEAL}[state.phase])


def _fields(event: Event, allowed: set[str], rule: Rule) -> None:
    unknown = set(event) - allowed - {"action", "by"}
    if unknown:
        raise IllegalAction(f"unknown field(s) {', '.join(sorted(map(str, unknown)))} (allowed: "
                            f"{', '.join(sorted(allowed))})", rule)


ACTIONS = {"play": _play, "pick": _pick, "reveal": _reveal, "stuck": _stuck}


def apply(state: State, event: Event) -> None:
    """Apply one event; IllegalAction (naming the rule) if the rules forbid it."""
    action = action_of(event, ACTIONS, R_TURN)
    if state.phase == "over":
        raise IllegalAction(f"the game is over: {state.why}", END_RULES.get(state.ended_by, R_END))
    who = _player(state, event.get("by"))
    state.said, state.acted, state.hand_discards = [], [], []
    ACTIONS[action](state, who, event)
    state.events += 1
    state.history.append("; ".join(state.said))


def check(state: State, event: Event) -> str | None:
    """Why an event would be refused, or None; the state is left as it was."""
    return check_on_copy(apply, state, event)


def describe(state: State, event: Event, after: State | None = None) -> str:
    """An event told for people with what it did: 'Ann plays Carving Knife face up at the loupe on ...'."""
    if not isinstance(event, dict):
        return str(event)
    said = engine.told(apply, state, event, after)
    if said is not None:
        return said
    who, action = str(event.get("by", "someone")), event.get("action")

    def named(sid: object) -> str:  # a refused event may name a suspect not in the row, or nothing
        return state.name(sid) if isinstance(sid, str) and sid in suspects(state.db) else str(sid)

    def card_named(text: object) -> str:
        try:
            return actions(state.db)[card_id(state, text)].name
        except IllegalAction:
            return str(text)

    if action == "play":
        card = f"{card_named(event['card'])} " if event.get("card") else "a card "
        return f"{who} plays {card}at {named(event.get('at'))}"
    if action == "pick":
        return f"{who} picks {named(event.get('pile'))} for the review"
    if action == "reveal":
        return f"{who} reveals {card_named(event['card']) if event.get('card') else 'the next card'}"
    return f"{who}: {action}"


# --- reading the state ---------------------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.phase == "over"


def result(state: State) -> dict[str, Any]:
    """Who is still in (scores: 1 while in, and at the end 1 for each winner), and once over the winners and why."""
    over = is_over(state)
    standing = [p in state.winners if over else not state.out[p] for p in range(len(state.players))]
    out: dict[str, Any] = {"scores": {n: int(k) for n, k in zip(state.players, standing, strict=True)}, "over": over,
                           "out": [state.players[p] for p in range(len(state.players)) if state.out[p]]}
    if over:
        out["winners"] = [state.players[p] for p in state.winners]
        out["winner"] = state.players[state.winners[0]] if len(state.winners) == 1 else None
        out["decided_by"] = ("traitor" if "Traitor and wins" in state.why else "last player"
                             if len(state.winners) == 1 else "shared" if state.winners else "draw")
        out["why"] = state.why
        out["traitor"] = state.players[state.secrets.index(TRAITOR)] if TRAITOR in state.secrets else None
    return out


def summary(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The state as plain data; secret suspects only for their own viewer (all once the game is over)."""
    over = is_over(state)

    def knows(p: int) -> bool:
        return over or p == viewer or p in state.exposed or (viewer is not None and (viewer, p) in state.peeks)

    owners = {state.secrets[p]: state.players[p] for p in range(len(state.players)) if knows(p)}
    review = state.review
    return {
        "game": ID, "players": list(state.players), "variants": list(state.variants), "sets": list(state.sets),
        "events": state.events, "phase": state.phase, "turn": state.turn, "first_round": state.first_round,
        "step": f"turn {state.turn} · {sum(not o for o in state.out)} of {len(state.players)} in",
        "scored": False,  # an elimination game: no points to show, only who is still in
        "active": None if over else state.players[state.active],
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "loupe": state.row[state.loupe] if state.row and state.loupe < len(state.row) else None,
        "row": [{"id": s, "name": state.name(s), "alive": True, "pile": len(state.piles[s]),
                 "face_up": [actions(state.db)[str(e.card)].name for e in state.piles[s] if e.face_up],
                 "owner": owners.get(s)} for s in state.row]
        + [{"id": s, "name": state.name(s), "alive": False, "pile": 0, "face_up": [],
            "owner": _owner_name(state, s)} for s in state.dead],
        "hands": dict(zip(state.players, state.hands, strict=True)), "deck": state.deck,
        "discards": state.discards, "reshuffles": state.reshuffles, "called_off": state.calls_off,
        "out": [state.players[p] for p in range(len(state.players)) if state.out[p]],
        "secret": state.name(state.secrets[viewer]) if viewer is not None else None,
        "known_secrets": {state.players[p]: state.name(state.secrets[p]) for p in range(len(state.players))
                          if knows(p) and (p != viewer or over or p in state.exposed)},
        "review": None if review is None else {"suspect": state.name(review.suspect), "left": review.pos + 1,
                                               "revealed": [actions(state.db)[c].name for c in review.revealed]},
        "tied": [state.name(s) for s in state.tied],
        "history": list(state.history),
        "result": result(state),
    }


def _owner_name(state: State, sid: str) -> str | None:
    owner = state.owner(sid)
    return None if owner is None else state.players[owner]


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: their own secret suspect, no other's (unless exposed, peeked or over)."""
    return summary(state, viewer=player)


def report(s: dict[str, Any]) -> list[str]:
    """The state for people (replay output): the row, the hands, what happened."""
    lines = [f"event {i + 1}: {h}" for i, h in enumerate(s["history"])]
    row = ", ".join(f"{r['name']} {r['pile']}" + (" (loupe)" if r["id"] == s["loupe"] else "")
                    for r in s["row"] if r["alive"])
    lines.append(f"row: {row}; dead: {', '.join(r['name'] for r in s['row'] if not r['alive']) or 'none'}")
    lines.append("hands: " + ", ".join(f"{p} {n}" for p, n in s["hands"].items()) + f"; deck {s['deck']}")
    if s["result"]["over"]:
        lines.append(s["result"]["why"])
    else:
        lines.append(f"turn {s['turn']}: {s['active']} ({s['phase']})")
    return lines


def problems(state: State) -> list[str]:
    """What is inconsistent in a state (for a corrupt save), without raising."""
    found = []
    if any(h < 0 for h in state.hands) or state.deck < 0:
        found.append(f"negative card counts: hands {state.hands}, deck {state.deck}")
    total = len(deck_cards(state.db, state.sets))
    counted = sum(state.hands) + state.deck + state.discards + sum(len(p) for p in state.piles.values())
    if counted != total:
        found.append(f"cards do not add up: hands {sum(state.hands)} + deck {state.deck} + discards "
                     f"{state.discards} + piles {sum(len(p) for p in state.piles.values())} != {total}")
    if set(state.piles) != set(state.row):
        found.append("the piles do not match the row")
    if state.row and not 0 <= state.loupe < len(state.row) and state.phase == "play":
        found.append(f"the loupe is off the row ({state.loupe})")
    for p, sid in enumerate(state.secrets):
        if sid != TRAITOR and (sid in state.dead) != state.out[p]:
            found.append(f"{state.players[p]}'s suspect and their being out disagree")
    if state.phase == "play" and state.out[state.active]:
        found.append(f"the active player {state.players[state.active]} is out")
    return found


# --- simulation: a table that knows every card ---------------------------------------------------

class Chooser:
    """A simulated player's decisions; this one picks at random among the legal options."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def play(self, state: State, me: int, hand: list[str]) -> tuple[str, str]:
        """The card to play and the suspect to play it at."""
        return self.rng.choice([(c, s) for c in dict.fromkeys(hand) for s in allowed_at(state, me, c)])

    def pick(self, state: State, me: int) -> str:
        return self.rng.choice(state.tied)

    def target(self, state: State, me: int, card: ActionCard, here: str) -> str:
        return self.rng.choice([s for s in state.row if s != here] if card.op == "move_under" else list(state.row))

    def player(self, state: State, me: int) -> str:
        return state.players[self.rng.choice([p for p in state.players_in() if p != me])]


def simulate(db: GameDatabase, setup: dict[str, Any], choosers: list[Chooser], rng: random.Random,
             max_events: int = 3000) -> tuple[State, list[Event]]:
    """A whole game with a shuffled physical deck, every card named as it is played (so reveals need no
    card), each decision asked of the active player's chooser; the state and the events it took."""
    state = new_state(db, setup)
    deck = deck_cards(db, state.sets)
    rng.shuffle(deck)
    hands: list[list[str]] = []
    for n in state.hands:
        hands.append(deck[:n])
        del deck[:n]
    events: list[Event] = []
    while not is_over(state) and len(events) < max_events:
        me = state.active
        bot = choosers[me]
        event: Event = {"by": state.players[me]}
        if state.phase == "play" and not any(allowed_at(state, me, c) for c in hands[me]):
            event.update(action="stuck", card=hands[me][0])
            hands[me].remove(hands[me][0])
        elif state.phase == "play":
            cid, at = bot.play(state, me, hands[me])
            event.update(action="play", at=at, card=cid)
            if state.row.index(at) == state.loupe:
                _choose(state, bot, me, actions(db)[cid], at, event)
            hands[me].remove(cid)
        elif state.phase == "pick":
            event.update(action="pick", pile=bot.pick(state, me))
        else:
            entry = next_to_reveal(state)
            assert entry is not None and entry.card is not None and state.review is not None
            event.update(action="reveal", card=entry.card)
            _choose(state, bot, me, actions(db)[entry.card], state.review.suspect, event)
        apply(state, event)
        events.append(event)
        for p in state.hand_discards:  # a power made them discard a card of their choice
            hands[p].pop(rng.randrange(len(hands[p])))
        for p, hand in enumerate(hands):
            if state.out[p]:
                hand.clear()  # eliminated: the hand is discarded (before any reshuffle counts the discards)
        if state.taken_at == state.events and state.taken:
            taker = next(p for p in range(len(hands)) if state.hands[p] > len(hands[p]))
            hands[taker].extend(c for c in state.taken if c)
        pending = sum(max(0, state.hands[p] - len(hand)) for p, hand in enumerate(hands))
        need = state.deck + pending - len(deck)
        if need > 0:  # the engine shuffled discards into the deck: take them from what lies nowhere else
            left = Counter(deck_cards(db, state.sets))
            left.subtract(deck)
            for hand in hands:
                left.subtract(hand)
            for pile in state.piles.values():
                left.subtract(str(e.card) for e in pile)
            left.subtract(state.seen)  # discarded since the reshuffle, in sight: not in the new deck
            fresh = list(left.elements())
            rng.shuffle(fresh)
            deck = fresh[:need] + deck
        for p, hand in enumerate(hands):
            while len(hand) < state.hands[p] and deck:
                hand.append(deck.pop())
            while len(hand) > state.hands[p]:
                hand.pop(rng.randrange(len(hand)))
        if [len(hand) for hand in hands] != state.hands or len(deck) != state.deck:
            raise AssertionError(f"the simulated table and the engine disagree after event {len(events)} "
                                 f"({state.said}): hands {[len(hand) for hand in hands]} against {state.hands}, "
                                 f"deck {len(deck)} against {state.deck}")
    return state, events


def _choose(state: State, bot: Chooser, me: int, card: ActionCard, here: str, event: Event) -> None:
    """Add the choice a card needs, if anything can be chosen."""
    if card.choice == "target" and any(s != here or card.op != "move_under" for s in state.row):
        event["target"] = bot.target(state, me, card, here)
    elif card.choice == "player" and any(p != me for p in state.players_in()):
        event["player"] = bot.player(state, me)
