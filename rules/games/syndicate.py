"""The Syndicate (the basic Decktet, exactly 3 players): plots, who counts, scores to 12.

The table tracks the scores, whose turn it is and each plot; the engine also keeps count
of every hand and of the draw pile, and knows the discard pile, because all of that
follows from the cards played. That lets it refuse a card that is in the discard pile and
a card that proves an enforcer did not follow when they could have, and a card shuffled back into the
draw pile that its player cannot have drawn.

summary(state) gives everything a table or game-over screen shows, by name:
  game, players, variants, events, phase (plot, over), turn, mastermind and enforcers (None once over),
  scores, hands (counts), draw_pile, discard_pile, reshuffles, next_draw (cards, reshuffle),
  plots: every plot in order (turn, mastermind, lead, face_down, enforcers {name: card}, counted
  [{player, card, value}], ace_value, totals {mastermind, enforcers}, outcome (succeeds, foiled, tie),
  points {name: n} for those who scored, drawn, reshuffled),
  result: scores, over, and once over winner, decided_by ('score') and why (a sentence).
describe(before, event, after=None) tells one plot for the history: 'Plot 4: Cy leads 8 Diplomat; ...'.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

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

ID = "syndicate"
TITLE = "The Syndicate"

PLAYERS = 3
DEAL = (5, 4, 3)
HAND = 5
TARGET = 12
DECK = "decktet"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "crown")
RANK_WORDS = {"a": "A", "ace": "A", "crown": "crown", "c": "crown", "k": "crown"}

R_SETUP = Rule("Setup", "setup_players")
R_TURN = Rule("The mastermind", "turn_mastermind")
R_PLOT = Rule("The plot", "plot_lead")
R_FACE_DOWN = Rule("The face-down card", "plot_face_down")
R_FOLLOW_MARK = Rule("Follow the lead's mark", "follow_mark")
R_FOLLOW_SUIT = Rule("Follow the Ace's suit", "follow_ace_suit")
R_DISCARD = Rule("The discard pile", "turn_draw")
R_RESHUFFLED = Rule("A reshuffled card", "faq_reshuffled_card")
R_END = Rule("End of the game", "end_twelve")


# --- the deck --------------------------------------------------------------------------------

@dataclass(frozen=True)
class DCard(engine.Unchanging):
    """A Decktet card as the rules see it."""

    id: str
    name: str
    rank: str  # "A", "2".."9", "crown"
    suits: tuple[str, ...]
    marks: tuple[str, ...]

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def is_crown(self) -> bool:
        return self.rank == "crown"

    @property
    def rank_text(self) -> str:
        return {"A": "A", "crown": "Crown"}.get(self.rank, self.rank)


def deck(db: GameDatabase) -> dict[str, DCard]:
    """The 36 cards by id."""
    return _lookup(db)[0]


def card_value(card: DCard) -> int:
    """The printed value: 2-9 as printed, Crowns 10, Aces 1 (11 is decided by the plot)."""
    if card.is_crown:
        return 10
    if card.is_ace:
        return 1
    return int(card.rank)


Lookup = tuple[dict[str, DCard], dict[tuple[str, str], DCard], dict[str, str], dict[str, DCard]]


def _lookup(db: GameDatabase) -> Lookup:
    """The deck by id, by (rank, suit), the words for each suit and the cards by lower-case name; built once."""
    cached: Lookup | None = getattr(db, "_syndicate_lookup", None)
    if cached is None:
        cards = {c.id: DCard(c.id, str(c["name"]), str(c["rank"]), tuple(c["suits"]), tuple(c["marks"]))
                 for c in db.components[DECK].cards}
        by_rank_suit = {(c.rank, s): c for c in cards.values() for s in c.suits}
        suit_words: dict[str, str] = {}
        for sid, suit in db.suits.items():
            for word in (sid, suit.name, suit.plural, suit.name.rstrip("s"), sid.rstrip("s"),
                         re.sub("ves$", "f", sid)):
                suit_words[word.lower()] = sid
        names = {c.name.lower(): c for c in cards.values()} | {c.id: c for c in cards.values()}
        cached = (cards, by_rank_suit, suit_words, names)
        db._syndicate_lookup = cached  # type: ignore[attr-defined]  # the database never changes once loaded
    return cached


def parse_card(db: GameDatabase, text: Any) -> DCard:
    """A card from log notation: its name ('the Diplomat'), rank and suit ('8 moons'), or rank and name."""
    if not isinstance(text, str | int) or isinstance(text, bool) or not str(text).strip():
        raise IllegalAction(f"{text!r} is not a card: write a name ('Diplomat') or a rank and suit ('8 moons')",
                            R_PLOT)
    cards, by_rank_suit, suit_words, names = _lookup(db)
    words = re.sub(r"\s+", " ", str(text).strip().lower())
    bare = words[4:] if words.startswith("the ") else words
    if bare in names:
        return names[bare]
    if bare.startswith("ace of ") and bare[7:] in suit_words:
        return by_rank_suit[("A", suit_words[bare[7:]])]
    head, _, rest = bare.partition(" ")
    rank = RANK_WORDS.get(head, head)
    rest = rest[3:] if rest.startswith("of ") else rest
    rest = rest[4:] if rest.startswith("the ") else rest
    if rank in RANKS and rest:
        if rest in suit_words:
            return by_rank_suit[(rank, suit_words[rest])]
        if rest in names:
            card = names[rest]
            if card.rank != rank:
                raise IllegalAction(f"'{text}': the {card.name} is rank {card.rank_text}, not {RANK_WORDS.get(rank, rank)}", R_PLOT)
            return card
    close = difflib.get_close_matches(bare, [c.name.lower() for c in cards.values()], n=1)
    hint = f"did you mean {next(c.name for c in cards.values() if c.name.lower() == close[0])}? " if close else ""
    raise IllegalAction(f"unknown card '{text}': {hint}write a card's name (Diplomat) or its rank and a suit (8 moons)",
                        R_PLOT)


def card_name(card: DCard) -> str:
    """'8 Diplomat', 'A Moons', 'Crown Huntress'."""
    if card.is_ace:
        return card.name
    return f"{card.rank_text} {card.name}"


# --- database facts --------------------------------------------------------------------------

def check_database(db: GameDatabase, problems: Problems) -> None:
    """The basic Decktet: an Ace and a Crown of each suit with one suit each, and every rank 2-9
    once in each suit (two suits a card); Aces have no mark, every other card one or two."""
    comp = db.components.get(DECK)
    if comp is None:
        problems.add(db.place, f"no component '{DECK}'", f"a component with id: {DECK}")
        return
    seen: dict[tuple[str, str], str] = {}
    for card in comp.cards:
        rank, suits, marks = str(card["rank"]), list(card["suits"]), list(card["marks"])
        want = 1 if rank in ("A", "crown") else 2
        if len(suits) != want or len(set(suits)) != len(suits):
            problems.add(card.field_place("suits"), f"card '{card.id}' has {len(suits)} suit(s)",
                         f"{want} different suit(s) for rank {rank}")
        if rank == "A" and marks:
            problems.add(card.field_place("marks"), f"Ace '{card.id}' has a mark", "marks: [] (Aces carry no mark)")
        if rank != "A" and not 1 <= len(set(marks)) == len(marks) <= 2:
            problems.add(card.field_place("marks"), f"card '{card.id}' has {len(marks)} mark(s)",
                         "one or two different marks")
        if card.copies != 1:
            problems.add(card.place, f"card '{card.id}' has {card.copies} copies", "each Decktet card is unique")
        for suit in suits:
            if (rank, suit) in seen:
                problems.add(card.field_place("suits"), f"two cards of rank {rank} in {suit}: "
                             f"'{seen[(rank, suit)]}' and '{card.id}'", "every rank once in each suit")
            seen[(rank, suit)] = card.id
    for rank in RANKS:
        for suit in db.suits:
            if (rank, suit) not in seen:
                problems.add(comp.place, f"no card of rank {rank} in {suit}", "every rank once in each suit")


# --- state ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plot(engine.Unchanging):
    """One resolved turn (never changed once made)."""

    turn: int
    mastermind: int
    lead: DCard
    face_down: DCard | None
    enforcers: list[tuple[int, DCard]]  # in the order they play: the mastermind's left first
    counted: list[tuple[int, DCard, int]]  # (player, card, value) of every card that counts
    ace_value: int | None
    totals: tuple[int, int]  # mastermind, enforcers
    outcome: str  # "succeeds", "foiled", "tie"
    points: list[int]
    drawn: int  # cards the mastermind drew at the start of the turn
    reshuffled: bool


@dataclass
class State(SharesDatabase):
    """A game of Syndicate in play: the players, scores, hands, the draw pile and the discards."""
    db: GameDatabase
    players: list[str]
    scores: list[int] = field(default_factory=lambda: [0, 0, 0])
    hands: list[int] = field(default_factory=lambda: list(DEAL))
    draw_pile: int = 36 - sum(DEAL)
    discard: dict[str, int] = field(default_factory=dict)  # card id -> turn it was played
    reshuffles: int = 0
    voids: list[dict[tuple[str, str], int]] = field(default_factory=lambda: [{}, {}, {}])  # (kind, id) -> turn
    # cards shuffled into the draw pile since a player last drew: card id -> the turn of that reshuffle
    out_of_reach: list[dict[str, int]] = field(default_factory=lambda: [{}, {}, {}])
    plots: list[Plot] = field(default_factory=list)
    mastermind: int = 0
    over: bool = False
    events: int = 0

    @property
    def turn(self) -> int:
        return len(self.plots) + 1

    def left_of(self, player: int) -> int:
        return (player + 1) % PLAYERS



def new_state(db: GameDatabase, setup: dict[str, Any]) -> State:
    """A game from a log header: exactly three players, in seating order; the first plots first."""
    players = setup.get("players") or []
    if len(players) != PLAYERS:
        raise IllegalAction(f"The Syndicate is for exactly 3 players, not {len(players)}", R_SETUP)
    if len(set(players)) != PLAYERS:
        raise IllegalAction("the three players need different names", R_SETUP)
    variants = setup.get("variants") or []
    if variants:
        raise IllegalAction(f"The Syndicate has no variants (got {', '.join(map(str, variants))})", R_SETUP)
    unknown = set(setup) - {"players", "variants", "seed", "colours"}
    if unknown:
        raise IllegalAction(f"unknown setup key(s): {', '.join(sorted(unknown))}", R_SETUP)
    return State(db, [str(p) for p in players])


# --- events ----------------------------------------------------------------------------------

def _player(state: State, who: Any, what: str) -> int:
    if who not in state.players:
        raise IllegalAction(f"{what}: '{who}' is not a player ({', '.join(state.players)})", R_TURN)
    return state.players.index(who)


class Draw(NamedTuple):
    """The mastermind's draw at the start of a turn."""

    cards: int
    reshuffled: bool
    pile: int  # the draw pile after it
    discard: dict[str, int]  # the discard pile after it
    drew_after_reshuffle: bool  # the mastermind drew from the new pile (a reshuffle part way through)


def _draw(state: State) -> Draw:
    """What the mastermind draws at the start of this turn, and whether the discards become the draw pile."""
    if state.turn == 1:
        return Draw(0, False, state.draw_pile, state.discard, False)
    need = HAND - state.hands[state.mastermind]
    pile, discard, reshuffled, after = state.draw_pile, state.discard, False, False
    if need > pile:  # draw what is there, shuffle the discards into a new pile, draw the rest
        pile, discard, reshuffled, after = pile + len(discard), {}, True, True
    pile -= need
    if pile == 0 and discard:  # the last card drawn exactly: the pile is depleted, shuffle at once
        pile, discard, reshuffled = len(discard), {}, True
    return Draw(need, reshuffled, pile, discard, after)


def _out_of_reach(state: State, draw: Draw) -> list[dict[str, int]]:
    """Per player, the cards they cannot hold after this draw: shuffled into the draw pile since they last drew."""
    shuffled = dict.fromkeys(state.discard, state.turn) if draw.reshuffled else {}
    reach = []
    for p in range(PLAYERS):
        if p == state.mastermind and draw.cards:
            reach.append({} if draw.drew_after_reshuffle else dict(shuffled))
        else:
            reach.append({**state.out_of_reach[p], **shuffled})
    return reach


def follows(lead: DCard, card: DCard) -> bool:
    """A card follows (and counts for) the lead: a shared mark; for an Ace lead, the Ace's suit."""
    if lead.is_ace:
        return lead.suits[0] in card.suits
    return bool(set(lead.marks) & set(card.marks))


def resolve(lead: DCard, face_down: DCard | None, enforcer_cards: list[DCard]) -> tuple[int, int, int | None]:
    """The totals (mastermind, enforcers) of a plot, and the Ace's value for an Ace lead."""
    ace_value = None
    if lead.is_ace:
        crown_played = any(c.is_crown and follows(lead, c) for c in [*enforcer_cards, *([face_down] if face_down else [])])
        ace_value = 11 if crown_played else 1
        mine = ace_value
    else:
        mine = card_value(lead)
    if face_down is not None and follows(lead, face_down):
        mine += card_value(face_down)
    theirs = sum(card_value(c) for c in enforcer_cards if follows(lead, c))
    return mine, theirs, ace_value


def outcome_of(totals: tuple[int, int], has_face_down: bool) -> tuple[str, int, int]:
    """('succeeds'|'foiled'|'tie', mastermind's points, each enforcer's points)."""
    mine, theirs = totals
    if theirs > mine:
        return "foiled", 0, 1
    if mine > theirs:
        return "succeeds", 1 if has_face_down else 2, 0
    return "tie", 0, 0


def _void_key(lead: DCard) -> list[tuple[str, str]]:
    return [("suit", lead.suits[0])] if lead.is_ace else [("mark", m) for m in lead.marks]


def _check_void(state: State, player: int, card: DCard) -> None:
    """A card an enforcer could not have: they showed they had none of its mark/suit and drew nothing since."""
    for (kind, key), turn in state.voids[player].items():
        if key in (card.suits if kind == "suit" else card.marks):
            what = state.db.suits[key].name if kind == "suit" else state.db.marks[key].name.lower()
            rule = R_FOLLOW_SUIT if kind == "suit" else R_FOLLOW_MARK
            raise IllegalAction(
                f"{state.players[player]} did not follow the {what} lead in turn {turn}, so held no {what} card, "
                f"and has drawn nothing since: {card_name(card)} ({_marks_text(state, card, kind)}) cannot be theirs",
                rule)


def _marks_text(state: State, card: DCard, kind: str) -> str:
    if kind == "suit":
        return "/".join(state.db.suits[s].name for s in card.suits)
    return "/".join(state.db.marks[m].name.lower() for m in card.marks) or "no mark"


def _plot(state: State, who: int, event: Event) -> None:
    if who != state.mastermind:
        raise IllegalAction(f"it is {state.players[state.mastermind]}'s turn to plot (turn {state.turn}), "
                            f"not {state.players[who]}'s", R_TURN)
    unknown = set(event) - {"action", "by", "lead", "face_down", "enforcers"}
    if unknown:
        raise IllegalAction(f"unknown field(s) {', '.join(sorted(unknown))}: a plot has lead, face_down, enforcers",
                            R_PLOT)
    if event.get("lead") is None:
        raise IllegalAction("a plot needs the face-up lead card: lead: <card>", R_PLOT)
    lead = parse_card(state.db, event["lead"])
    face_down = None if event.get("face_down") is None else parse_card(state.db, event["face_down"])
    given = event.get("enforcers")
    first, second = state.left_of(who), state.left_of(state.left_of(who))
    wanted = f"enforcers: {{{state.players[first]}: <card>, {state.players[second]}: <card>}}"
    if not isinstance(given, dict):
        raise IllegalAction(f"a plot needs the card each enforcer played: {wanted}", R_PLOT)
    names = set(given)
    if names != {state.players[first], state.players[second]}:
        extra = ", ".join(sorted(map(str, names - {state.players[first], state.players[second]})))
        missing = ", ".join(p for p in (state.players[first], state.players[second]) if p not in names)
        bits = ([f"{extra} is not an enforcer this turn"] if extra else []) + \
               ([f"no card for {missing}"] if missing else [])
        raise IllegalAction("; ".join(bits) + f" ({wanted})", R_PLOT)
    enforcers = [(p, parse_card(state.db, given[state.players[p]])) for p in (first, second)]
    played = [(who, lead), *([(who, face_down)] if face_down else []), *enforcers]
    seen: dict[str, int] = {}
    for p, card in played:
        if card.id in seen:
            raise IllegalAction(f"{card_name(card)} is played twice in this plot", R_PLOT)
        seen[card.id] = p
    draw = _draw(state)
    drawn, reshuffled = draw.cards, draw.reshuffled
    for _, card in played:
        if card.id in draw.discard:
            raise IllegalAction(f"{card_name(card)} was played in turn {draw.discard[card.id]} and is in the discard "
                                f"pile (no reshuffle since)", R_DISCARD)
    out_of_reach = _out_of_reach(state, draw)
    for p, card in played:
        if card.id in out_of_reach[p]:
            turn = out_of_reach[p][card.id]
            raise IllegalAction(f"{card_name(card)} was shuffled into the draw pile in turn {turn}, and "
                                f"{state.players[p]} has drawn nothing since: it cannot be in {state.players[p]}'s "
                                "hand", R_RESHUFFLED)
    for p, card in enforcers:
        _check_void(state, p, card)
    # everything is legal: change the state
    state.hands[who] += drawn
    if drawn:
        state.voids[who] = {}
    state.draw_pile, state.discard, state.out_of_reach = draw.pile, dict(draw.discard), out_of_reach
    state.reshuffles += int(reshuffled)
    state.hands[who] -= 1 + (face_down is not None)
    for p, card in enforcers:
        state.hands[p] -= 1
        if not follows(lead, card):
            for key in _void_key(lead):
                state.voids[p].setdefault(key, state.turn)
    mine, theirs, ace_value = resolve(lead, face_down, [c for _, c in enforcers])
    outcome, mm_points, enf_points = outcome_of((mine, theirs), face_down is not None)
    points = [0, 0, 0]
    points[who] = mm_points
    for p, _ in enforcers:
        points[p] = enf_points
    counted = [(p, c, (ace_value or 1) if c is lead and c.is_ace else card_value(c))
               for p, c in played if c is lead or follows(lead, c)]
    state.plots.append(Plot(state.turn, who, lead, face_down, enforcers, counted, ace_value, (mine, theirs),
                            outcome, points, drawn, reshuffled))
    for _, card in played:
        state.discard[card.id] = state.plots[-1].turn
    for p in range(PLAYERS):
        state.scores[p] += points[p]
    top = max(state.scores)
    if top >= TARGET and state.scores.count(top) == 1:
        state.over = True
    else:
        state.mastermind = state.left_of(who)


ACTIONS = {"plot": _plot}


def apply(state: State, event: Event) -> None:
    """Apply one event; IllegalAction (naming the rule) if the rules forbid it."""
    action = action_of(event, ACTIONS, R_TURN)
    if state.over:
        raise IllegalAction(f"the game is over: {winner(state)} has won", R_END)
    who = _player(state, event.get("by"), "by")
    ACTIONS[action](state, who, event)
    state.events += 1


def check(state: State, event: Event) -> str | None:
    """Why an event would be refused, or None; the state is left as it was."""
    return check_on_copy(apply, state, event)


def describe(state: State, event: Event, after: State | None = None) -> str:
    """A plot told for people: 'Plot 4: Cy leads 8 Diplomat; Ann 9 Pact, Ben 3 Journey: 8 to 12, foiled, Ann
    and Ben score 1'. `state` is the state before the event, `after` the one it led to (worked out on a copy
    when left out); a refused plot is told as written."""
    def named(text: Any) -> str:
        try:
            return card_name(parse_card(state.db, text))
        except IllegalAction:
            return str(text)

    if not isinstance(event, dict):
        return str(event)
    if after is None:
        after = engine.state_after(apply, state, event)
    who = str(event.get("by", "someone"))
    if event.get("action") != "plot":
        return f"{who}: {event.get('action')}"
    text = f"Plot {state.turn}: {who} leads {named(event.get('lead'))}"
    if event.get("face_down") is not None:
        text += f" with {named(event['face_down'])} face down"
    enforcers = event.get("enforcers")
    if isinstance(enforcers, dict):
        text += "; " + ", ".join(f"{p} {named(c)}" for p, c in enforcers.items())
    if after is None or len(after.plots) <= len(state.plots):
        return text
    plot, names = after.plots[-1], after.players
    mine, theirs = plot.totals
    ace = f" (the Ace counts {plot.ace_value})" if plot.ace_value else ""
    if plot.outcome == "succeeds":
        result_text = f"succeeds, {names[plot.mastermind]} scores {plot.points[plot.mastermind]}"
    elif plot.outcome == "foiled":
        result_text = f"foiled, {engine.and_list([names[p] for p, _ in plot.enforcers])} score 1"
    else:
        result_text = "a tie, nobody scores"
    text += f": {mine} to {theirs}{ace}, {result_text}"
    if plot.reshuffled:
        text += f" ({names[plot.mastermind]}'s draw emptied the draw pile: the discards became a new one)"
    if after.over:
        text += f". Game over: {result(after)['why']}"
    return text


# --- reading the state ----------------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.over


def winner(state: State) -> str | None:
    if not state.over:
        return None
    return state.players[state.scores.index(max(state.scores))]


def result(state: State) -> dict[str, Any]:
    """Scores, and once the game is over the winner (the first to 12 with the highest score alone)."""
    out: dict[str, Any] = {"scores": dict(zip(state.players, state.scores, strict=True)), "over": state.over}
    if state.over:
        name = winner(state)
        others = ", ".join(f"{p} {n}" for p, n in zip(state.players, state.scores, strict=True) if p != name)
        out["winner"], out["decided_by"] = name, "score"
        out["why"] = f"{name} wins with {max(state.scores)}, the highest score alone at {TARGET} or more ({others})"
    return out


def preview(state: State, lead: Any, face_down: Any, enforcer_cards: list[Any]) -> dict[str, Any]:
    """A plot's totals and outcome before it is confirmed (the table screen's preview)."""
    db = state.db
    lead_card = parse_card(db, lead)
    fd = None if face_down is None else parse_card(db, face_down)
    cards = [parse_card(db, c) for c in enforcer_cards]
    mine, theirs, ace_value = resolve(lead_card, fd, cards)
    outcome, mm_points, enf_points = outcome_of((mine, theirs), fd is not None)
    return {"totals": {"mastermind": mine, "enforcers": theirs}, "ace_value": ace_value, "outcome": outcome,
            "points": {"mastermind": mm_points, "each_enforcer": enf_points},
            "counts": {"face_down": fd is not None and follows(lead_card, fd),
                       "enforcers": [follows(lead_card, c) for c in cards]}}


def _plot_dict(state: State, plot: Plot) -> dict[str, Any]:
    name = state.players
    return {
        "turn": plot.turn, "mastermind": name[plot.mastermind], "lead": card_name(plot.lead),
        "face_down": card_name(plot.face_down) if plot.face_down else None,
        "enforcers": {name[p]: card_name(c) for p, c in plot.enforcers},
        "counted": [{"player": name[p], "card": card_name(c), "value": v} for p, c, v in plot.counted],
        "ace_value": plot.ace_value,
        "totals": {"mastermind": plot.totals[0], "enforcers": plot.totals[1]},
        "outcome": plot.outcome,
        "points": {name[p]: n for p, n in enumerate(plot.points) if n},
        "drawn": plot.drawn, "reshuffled": plot.reshuffled,
    }


def unplayable(state: State, player: int) -> dict[str, str]:
    """The cards a player cannot play this turn, by id, each with the reason (for a pad to grey them out)."""
    draw = _draw(state)
    out = {cid: f"played in turn {turn}: in the discard pile" for cid, turn in draw.discard.items()}
    for cid, turn in _out_of_reach(state, draw)[player].items():
        out.setdefault(cid, f"shuffled into the draw pile in turn {turn}; not drawn since")
    if player != state.mastermind:
        for card in deck(state.db).values():
            try:
                _check_void(state, player, card)
            except IllegalAction:
                out.setdefault(card.id, "did not follow its mark or suit earlier; not drawn since")
    return out


def next_draw(state: State) -> dict[str, Any]:
    """What the coming mastermind draws before plotting, and whether the discards are shuffled first."""
    draw = _draw(state)
    return {"cards": draw.cards, "reshuffle": draw.reshuffled}


def summary(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The state as plain data; nothing is hidden in The Syndicate (hands are not tracked by card)."""
    first = state.left_of(state.mastermind)
    return {
        "game": ID, "players": list(state.players), "variants": [], "events": state.events,
        "phase": "over" if state.over else "plot",
        "turn": state.turn if not state.over else len(state.plots),
        "step": f"turn {state.turn if not state.over else len(state.plots)}",
        "mastermind": None if state.over else state.players[state.mastermind],
        "enforcers": None if state.over else [state.players[first], state.players[state.left_of(first)]],
        "scores": dict(zip(state.players, state.scores, strict=True)),
        "hands": dict(zip(state.players, state.hands, strict=True)),
        "draw_pile": state.draw_pile, "discard_pile": len(state.discard), "reshuffles": state.reshuffles,
        "next_draw": None if state.over else next_draw(state),
        "plots": [_plot_dict(state, p) for p in state.plots],
        "result": result(state),
    }


def report(s: dict[str, Any]) -> list[str]:
    """The state for people (replay output): every plot, then whose turn it is."""
    lines = []
    for p in s["plots"]:
        fd = f" + {p['face_down']} face down" if p["face_down"] else ""
        enf = ", ".join(f"{who} {card}" for who, card in p["enforcers"].items())
        t = p["totals"]
        ace = f" (Ace {p['ace_value']})" if p["ace_value"] else ""
        points = ", ".join(f"{who} +{n}" for who, n in p["points"].items()) or "nobody scores"
        lines.append(f"turn {p['turn']:>2}: {p['mastermind']} leads {p['lead']}{fd}; {enf}: "
                     f"{t['mastermind']}{ace} v {t['enforcers']}, {p['outcome']}: {points}")
    if s["mastermind"]:
        lines.append(f"turn {s['turn']}: {s['mastermind']} is the mastermind; draw pile {s['draw_pile']}, "
                     f"discards {s['discard_pile']}, reshuffles {s['reshuffles']}")
    return lines


def view(state: State, player: int) -> dict[str, Any]:
    return summary(state, viewer=player)


def problems(state: State) -> list[str]:
    """What is inconsistent in a state (for a corrupt save), without raising."""
    found = []
    in_hands = sum(state.hands)
    if any(h < 0 or h > HAND for h in state.hands):
        found.append(f"hand sizes out of range: {state.hands}")
    if in_hands + state.draw_pile + len(state.discard) != len(deck(state.db)):
        found.append(f"cards do not add up: hands {in_hands} + draw pile {state.draw_pile} "
                     f"+ discards {len(state.discard)} != {len(deck(state.db))}")
    if sum(sum(p.points) for p in state.plots) != sum(state.scores):
        found.append("the scores do not add up to the points of the plots")
    tops = [s for s in state.scores if s == max(state.scores)]
    if state.over and (max(state.scores) < TARGET or len(tops) != 1):
        found.append("the game is over without a single leader at 12 or more")
    return found
