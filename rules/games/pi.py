"""P.I. (2-5 players, three mini-games): the city's tiles, the cases, what each case holder must answer.

The table tracks the tiles on the board, each player's case (the three case cards they hold,
which the player on their left must solve), the evidence display and deck, every investigator
and the discs and cubes it earned, turns, solves, points boxes, penalties and investigators
left. The engine answers for the case holder (`answer_investigation`, `answer_evidence`),
taking the discs and cubes a player already has into account (FAQ faq_not_told_twice), and
checks a solution against the case.

Players are listed clockwise: a player's left is the next one, their right the one before;
player i's case is held by player i - 1.

Events (docs/game-log.md): deal, case, investigate, evidence, solve, pass, misled.

summary(state, viewer) gives, by name: game, players, colours, variants, events, phase (deal, cases,
play, over), mini_game, first_player, current (whose turn), turns, investigators_left, penalties,
points (per player, per mini-game), tiles, display, deck, discard, kept, investigators (per player:
districts with their markers), markers (on tiles), done, boxes (this mini-game's solvers and boxes),
mini_games (each finished one: points, cases), last_answer, case (only the viewer's own, if any),
result: scores, totals, over, winner, winners, decided_by (score, investigators, penalties, tie), why.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterable
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

ID = "pi"
TITLE = "P.I."

MINI_GAMES = 3
DISPLAY = 9
INVESTIGATORS = 5
CUBES, DISCS = 10, 3
BOXES = (7, 5, 3, 1)
MISLED_POINTS = 7
PENALTY = 2
KINDS = ("suspect", "crime", "location")
RECORD_SETS = {"suspect": "suspects", "crime": "crimes", "location": "districts"}
CASE_DECKS = {"suspect": "suspect_cases", "crime": "crime_cases", "location": "location_cases"}
TILE_SETS = {"suspect": "suspect_tiles", "crime": "crime_tiles"}
COLOUR_PIECES = {"investigator": INVESTIGATORS, "cube": CUBES, "disc": DISCS, "penalty": 1}

R_SETUP = Rule("Setup", "setup_first_player")
R_PLAYERS = Rule("Two to five players", "setup_players")
R_COLOURS = Rule("Each player's pieces", "components_pieces")
R_DEAL = Rule("Seed the board", "setup_tiles")
R_CASES = Rule("Deal the cases", "setup_cases")
R_DISPLAY = Rule("The evidence display", "setup_evidence")
R_TURN = Rule("Turns go clockwise", "turn_order")
R_CHOICES = Rule("One action a turn", "turn_choices")
R_INVESTIGATE = Rule("Place an investigator", "investigate_place")
R_ANSWER = Rule("Discs and cubes for a district", "investigate_answer")
R_ONE_USE = Rule("Five investigators for the whole game", "investigators_one_use")
R_EVIDENCE = Rule("Take an evidence card", "evidence_take")
R_EVIDENCE_ANSWER = Rule("A disc or a cube on the tile", "evidence_answer")
R_REFILL = Rule("Refill the display", "evidence_refill")
R_SOLVE = Rule("Try to solve", "solve_attempt")
R_PASS = Rule("A player with no investigators left", "faq_no_investigators")
R_MISLED = Rule("A wrong answer found out", "misleading")
R_END = Rule("Three mini-games", "game_end")
R_NEXT_DEAL = Rule("End of a mini-game", "mini_game_end")
R_NOTHING_TO_DRAW = Rule("An exhausted deck", "faq_exhausted_deck")


# --- the set ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class City(engine.Unchanging):
    """The elements of the set as the rules see them: names, kinds, adjacency; built once per database."""

    kind: dict[str, str]  # element id -> suspect, crime, location
    name: dict[str, str]
    adjacent: dict[str, frozenset[str]]  # district -> its neighbours
    districts: tuple[str, ...]
    suspects: tuple[str, ...]
    crimes: tuple[str, ...]
    words: dict[str, str]  # lower-case name or id -> element id

    def of_kind(self, kind: str) -> tuple[str, ...]:
        return {"suspect": self.suspects, "crime": self.crimes, "location": self.districts}[kind]


def city(db: GameDatabase) -> City:
    """The city of a database (cached on it: a database never changes once loaded)."""
    cached: City | None = getattr(db, "_pi_city", None)
    if cached is None:
        kind, name, adjacent, words = {}, {}, {}, {}
        ids: dict[str, tuple[str, ...]] = {}
        for k, set_id in RECORD_SETS.items():
            records = db.records[set_id].cards if set_id in db.records else []
            ids[k] = tuple(r.id for r in records)
            for r in records:
                kind[r.id], name[r.id] = k, str(r["name"])
                words[r.id] = words[str(r["name"]).lower()] = r.id
                if k == "location":
                    adjacent[r.id] = frozenset(str(a) for a in r.get("adjacent") or [])
        cached = City(kind, name, adjacent, ids["location"], ids["suspect"], ids["crime"], words)
        db._pi_city = cached  # type: ignore[attr-defined]
    return cached


def element(c: City, text: Any, kind: str | None = None, rule: Rule = R_EVIDENCE) -> str:
    """An element (suspect, crime or district) from log notation: its id, its name, or an evidence/case card id."""
    wanted = f"a {'district' if kind == 'location' else kind}" if kind else "a suspect, crime or district"
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction(f"{text!r} is not {wanted}: write its name or id", rule)
    word = " ".join(text.strip().lower().split())
    for prefix in ("evidence_", "case_", "tile_"):
        if word.startswith(prefix) and word[len(prefix):] in c.kind:
            word = word[len(prefix):]
    found = c.words.get(word) or c.words.get(word.replace(" ", "_"))
    if found is None or kind is not None and c.kind[found] != kind:
        pool = [c.name[e] for e in (c.of_kind(kind) if kind else c.kind)]
        close = difflib.get_close_matches(text, pool, n=1)
        hint = f": did you mean {close[0]}?" if close else f" (one of: {', '.join(pool)})"
        raise IllegalAction(f"'{text}' is not {wanted}{hint}", rule)
    return found


# --- database facts --------------------------------------------------------------------------

EXAMPLE = {"little_italy": "Little Italy", "main_street": "Main Street", "waterfront": "Waterfront",
           "downtown": "Downtown", "bubbles": "Bubbles", "murder": "Murder"}


def check_database(db: GameDatabase, problems: Problems) -> None:
    """The city is symmetric, connected and drawn as declared; every element has one evidence card and one
    case card; tile and piece counts; the rulebook's worked example plays out on this city."""
    for set_id in RECORD_SETS.values():
        if set_id not in db.records:
            problems.add(db.place, f"no record set '{set_id}'", f"records: - id: {set_id}")
            return
    c = city(db)
    _check_city(db, c, problems)
    _check_cards(db, c, problems)
    _check_pieces(db, problems)
    if not problems:
        for message in example_problems(c):
            problems.add(db.records["districts"].place, f"the rulebook's worked example does not play out: {message}",
                         "a city where it does (see game-facts.md, pi)")


def _check_city(db: GameDatabase, c: City, problems: Problems) -> None:
    records = {r.id: r for r in db.records["districts"].cards}
    cells: dict[tuple[int, int], str] = {}
    for r in records.values():
        for cell in _cells(r.data):
            cells[cell] = r.id
    touching: dict[str, set[str]] = {d: set() for d in records}
    for (x, y), a in cells.items():
        for nb in ((x + 1, y), (x, y + 1)):
            b = cells.get(nb)
            if b is not None and b != a:
                touching[a].add(b)
                touching[b].add(a)
    for d, r in records.items():
        listed = list(r.get("adjacent") or [])
        place = r.field_place("adjacent")
        if d in listed:
            problems.add(place, f"district '{d}' lists itself as adjacent", "only other districts")
        if len(set(listed)) != len(listed):
            problems.add(place, f"district '{d}' lists a neighbour twice", "each neighbour once")
        for other in listed:
            if other in records and d not in records[other].get("adjacent", []):
                problems.add(place, f"adjacency is not symmetric: '{d}' lists '{other}', but '{other}' does not "
                             f"list '{d}'", f"add {d} to the adjacent list of {other}, or remove {other} here")
        for other in sorted(set(listed) - touching[d] - {d}):
            problems.add(place, f"'{d}' lists '{other}' as adjacent, but on the board they share no border",
                         "adjacent districts sit in cells that share an edge (a canal separates the others)")
        own = {cell for cell, owner in cells.items() if owner == d}
        if own and len(_reach(next(iter(own)), lambda cell, own=own: [n for n in _around(cell) if n in own])) != len(own):
            problems.add(r.field_place("cells"), f"district '{d}' is in pieces on the board", "cells that touch")
    if records and len(_reach(next(iter(records)), lambda d: c.adjacent.get(d, ()))) != len(records):
        problems.add(db.records["districts"].place, "the city is not connected: some districts cannot be reached "
                     "from the others", "adjacency that joins every district")
    for kind, want in (("location", 14), ("suspect", 12), ("crime", 10)):
        have = len(c.of_kind(kind))
        if have != want:
            problems.add(db.records[RECORD_SETS[kind]].place, f"{have} {RECORD_SETS[kind]}, the game has {want}",
                         f"{want} records")
    for eid, name in EXAMPLE.items():
        if eid not in c.kind:
            problems.add(db.records["districts"].place, f"no '{eid}': the rulebook's worked example needs {name}",
                         f"a record with id: {eid}")


def _cells(data: Any) -> list[tuple[int, int]]:
    """A district's cells on the board grid: `cell: [column, row]` or `cells: [[column, row], ...]`."""
    given = [data.get("cell")] if data.get("cell") is not None else data.get("cells") or []
    return [(int(v[0]), int(v[1])) for v in given if isinstance(v, list) and len(v) == 2]


def _around(cell: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def _reach(start: Any, neighbours: Any) -> set[Any]:
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _check_cards(db: GameDatabase, c: City, problems: Problems) -> None:
    decks = {"evidence": tuple(c.kind), **{CASE_DECKS[k]: c.of_kind(k) for k in KINDS}}
    for comp_id, elements in decks.items():
        comp = db.components.get(comp_id)
        if comp is None:
            problems.add(db.place, f"no component '{comp_id}'", f"a component with id: {comp_id}")
            continue
        seen: dict[str, str] = {}
        for card in comp.cards:
            e = card.get("element")
            if e in seen:
                problems.add(card.field_place("element"), f"'{e}' is on two cards of {comp_id}: '{seen[e]}' and "
                             f"'{card.id}'", "each element on exactly one card")
            elif e not in elements:
                problems.add(card.field_place("element"), f"'{e}' does not belong in {comp_id}",
                             "one of: " + ", ".join(elements))
            seen[str(e)] = card.id
            if card.copies != 1:
                problems.add(card.place, f"card '{card.id}' has {card.copies} copies", "one of each")
        for e in elements:
            if e not in seen:
                problems.add(comp.place, f"'{e}' has no card in {comp_id}", "each element on exactly one card")
    for kind, comp_id in TILE_SETS.items():
        comp = db.components.get(comp_id)
        if comp is None:
            problems.add(db.place, f"no component '{comp_id}'", f"a component with id: {comp_id}")
            continue
        blanks = sum(card.copies for card in comp.cards if card.get("element") is None)
        want = len(c.districts) - len(c.of_kind(kind))
        if blanks != want:
            problems.add(comp.place, f"{comp_id} has {blanks} 'No {kind.title()}' tile(s); the board needs {want}",
                         f"one tile per {kind} and {want} blanks: one for each of the {len(c.districts)} districts")
        named = [card for card in comp.cards if card.get("element") is not None]
        for e in c.of_kind(kind):
            count = sum(card.copies for card in named if card.get("element") == e)
            if count != 1:
                problems.add(comp.place, f"{comp_id} has {count} tile(s) for '{e}'", "exactly one")


def _check_pieces(db: GameDatabase, problems: Problems) -> None:
    comp = db.components.get("pieces")
    if comp is None:
        problems.add(db.place, "no component 'pieces'", "a component with id: pieces")
        return
    symbols = [s.symbol for s in db.suits.values()]
    if len(set(symbols)) != len(symbols):
        problems.add(db.place, "two player colours share a symbol", "a symbol of its own for each colour")
    if len(db.suits) < db.player_counts[1]:
        problems.add(db.place, f"{len(db.suits)} colours for up to {db.player_counts[1]} players", "one colour a player")
    count: dict[tuple[Any, Any, Any], int] = {}
    for card in comp.cards:
        key = (card.get("colour"), card.get("kind"), card.get("mini_game"))
        count[key] = count.get(key, 0) + card.copies
    wanted: dict[tuple[Any, Any, Any], int] = {(None, "black_disc", None): 3, (None, "first_player", None): 1}
    for colour in db.suits:
        wanted |= {(colour, kind, None): n for kind, n in COLOUR_PIECES.items()}
        wanted |= {(colour, "points", n): 1 for n in range(1, MINI_GAMES + 1)}
    for key, n in wanted.items():
        if count.get(key, 0) != n:
            colour, kind, mini = key
            what = f"{colour + ' ' if colour else ''}{kind}" + (f" (mini-game {mini})" if mini else "")
            problems.add(comp.place, f"pieces: {count.get(key, 0)} {what}, the game has {n}", f"{n}")
    for key in set(count) - set(wanted):
        problems.add(comp.place, f"pieces: an unexpected piece {key}", "only the rulebook's pieces")


def example_problems(c: City) -> list[str]:
    """Whether the rulebook's worked example plays out on this city: each step's answer and the deduction."""
    if any(e not in c.kind for e in EXAMPLE):
        return ["it needs Little Italy, Main Street, Waterfront, Downtown, Bubbles and Murder"]
    li, ms, wf, dt = "little_italy", "main_street", "waterfront", "downtown"
    adj = c.adjacent
    found = []
    if ms in adj[li] or dt in adj[li]:
        found.append("Little Italy must be adjacent to neither Main Street nor Downtown")
    if wf in adj[li] or wf == li:
        found.append("Little Italy must not be adjacent to Waterfront (the cube there rules it out as the hideout)")
    if dt not in adj[wf] or dt not in adj[ms]:
        found.append("Waterfront and Main Street must both touch Downtown")
    both = sorted(d for d in c.districts if wf in adj[d] and ms in adj[d])
    if both != [dt]:
        found.append(f"Downtown must be the only district adjacent to both Waterfront and Main Street, not {both}")
    murder_at = [d for d in c.districts if li in adj[d] and ms in adj[d] and d != dt]
    if not murder_at:
        found.append("no district adjacent to both Little Italy and Main Street (other than Downtown) for Murder")
    if found:
        return found
    tiles = example_tiles(c, murder_at[0])
    case = ("bubbles", "murder", dt)
    steps = [("investigate Little Italy", answer_investigation(c, tiles, case, [], li), {"discs": 1, "cubes": 1}),
             ("investigate Main Street", answer_investigation(c, tiles, case, [], ms), {"discs": 0, "cubes": 2}),
             ("the Waterfront evidence card", answer_evidence(c, tiles, case, [], wf)["answer"], "cube"),
             ("the Murder evidence card", answer_evidence(c, tiles, case, [], "murder")["answer"], "disc")]
    for what, got, want in steps:
        got = {"discs": got["discs"], "cubes": got["cubes"]} if isinstance(got, dict) else got
        if got != want:
            found.append(f"{what} gives {got}, the rulebook says {want}")
    return found


def example_tiles(c: City, murder_at: str) -> dict[str, tuple[str | None, str | None]]:
    """A board for the worked example: Bubbles in Little Italy, Murder next door, No Crime on Main Street."""
    suspects = [s for s in c.suspects if s != "bubbles"]
    crimes = [k for k in c.crimes if k != "murder"]
    tiles: dict[str, tuple[str | None, str | None]] = {}
    for d in c.districts:
        s = "bubbles" if d == "little_italy" else (suspects.pop(0) if suspects and d != "main_street" else None)
        k = "murder" if d == murder_at else (crimes.pop(0) if crimes and d != "main_street" else None)
        tiles[d] = (s, k)
    return tiles


# --- answers -----------------------------------------------------------------------------------

Tiles = dict[str, tuple[str | None, str | None]]
# a marker: (kind 'disc'|'cube', the case card's kind it stands for, its district, where: 'investigator' or a tile)
Marker = tuple[str, str, str, str]


def home(tiles: Tiles, kind: str, e: str) -> str:
    """The district of a case card's element: where its tile lies, or the district itself."""
    if kind == "location":
        return e
    slot = 0 if kind == "suspect" else 1
    for d, pair in tiles.items():
        if pair[slot] == e:
            return d
    raise KeyError(e)


def _shown(markers: Iterable[Marker], district: str) -> dict[str, Marker]:
    """The case cards already shown in a district, each by its marker there."""
    return {m[1]: m for m in markers if m[2] == district}


def answer_investigation(c: City, tiles: Tiles, case: tuple[str, str, str], markers: list[Marker],
                         district: str) -> dict[str, Any]:
    """What the holder answers for an investigator in a district: new discs and cubes, each with the case card
    kind it stands for (the holder's knowledge, never shown to the investigator)."""
    shown = _shown(markers, district)
    new: list[Marker] = []
    for kind, e in zip(KINDS, case, strict=True):
        where = home(tiles, kind, e)
        if kind in shown:
            continue
        if where == district:
            new.append(("disc", kind, district, "investigator"))
        elif where in c.adjacent[district]:
            new.append(("cube", kind, district, "investigator"))
    return {"discs": sum(m[0] == "disc" for m in new), "cubes": sum(m[0] == "cube" for m in new), "markers": new}


def tile_district(c: City, tiles: Tiles, e: str) -> str:
    """The district an evidence card's tile lies in (a district card: the district itself)."""
    kind = c.kind[e]
    return home(tiles, kind, e)


def answer_evidence(c: City, tiles: Tiles, case: tuple[str, str, str], markers: list[Marker],
                    card: str) -> dict[str, Any]:
    """What the holder answers for an evidence card: answer 'disc', 'cube' or 'nothing', the marker placed on the
    card's tile (or None) and whether it moves there from an investigator in that district."""
    district = tile_district(c, tiles, card)
    shown = _shown(markers, district)
    on_tile = {m[1] for m in markers if m[2] == district and m[3] != "investigator"}
    choice: tuple[str, str] | None = None
    if card in case:
        kind = KINDS[case.index(card)]
        if kind not in on_tile:
            choice = ("disc", kind)
    else:
        for kind, e in zip(KINDS, case, strict=True):
            if kind not in on_tile and home(tiles, kind, e) in c.adjacent[district]:
                choice = ("cube", kind)
                break
    if choice is None:
        return {"answer": "nothing", "marker": None, "moved": False, "discs": 0, "cubes": 0}
    kind_of_marker, kind = choice
    moved = kind in shown and shown[kind][3] == "investigator"
    marker = (kind_of_marker, kind, district, card)
    return {"answer": kind_of_marker, "marker": marker, "moved": moved,
            "discs": int(kind_of_marker == "disc"), "cubes": int(kind_of_marker == "cube")}


# --- state ---------------------------------------------------------------------------------

@dataclass
class State(SharesDatabase):
    """A game of P.I. in play: the players and their colours, the mini-game, its phase and the tiles."""
    db: GameDatabase
    players: list[str]
    colours: list[str]
    seed: int | str | None
    first: int  # the first player of the current mini-game
    mini: int = 1
    phase: str = "deal"  # deal, cases, play, over
    tiles: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    cases: list[tuple[str, str, str] | None] = field(default_factory=list)  # the case each player holds
    display: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # in draw order when dealt from a seed
    dealt_deck: bool = False  # the deck's order is known (dealt from the seed)
    discard: list[str] = field(default_factory=list)
    kept: list[list[str]] = field(default_factory=list)
    reshuffles: int = 0
    current: int = 0
    turns: list[int] = field(default_factory=list)
    markers: list[list[Marker]] = field(default_factory=list)
    investigators: list[list[str]] = field(default_factory=list)  # districts, this mini-game
    investigators_left: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    points: list[list[int | None]] = field(default_factory=list)  # per player, per mini-game
    done: list[bool] = field(default_factory=list)
    solved: list[dict[str, Any]] = field(default_factory=list)  # this mini-game: player, turns, box, points
    next_box: int = 0
    last_box: tuple[int, int] | None = None  # (box, turns) of the latest solver
    solutions: dict[int, tuple[str, str, str]] = field(default_factory=dict)  # solved cases on the board
    finished: list[dict[str, Any]] = field(default_factory=list)  # each finished mini-game
    last_answer: dict[str, Any] | None = None
    events: int = 0

    def holder(self, player: int) -> int:
        """The player on the right: the one who holds this player's case."""
        return (player - 1) % len(self.players)

    def left_of(self, player: int) -> int:
        return (player + 1) % len(self.players)


def new_state(db: GameDatabase, setup: dict[str, Any]) -> State:
    """A game from a log header: 2-5 players listed clockwise, optional colours, first player and seed."""
    players = [str(p) for p in setup.get("players") or []]
    low, high = db.player_counts
    if not low <= len(players) <= high:
        raise IllegalAction(f"P.I. is for {low} to {high} players, not {len(players)}", R_PLAYERS)
    if len(set(players)) != len(players):
        raise IllegalAction("the players need different names", R_SETUP)
    if setup.get("variants"):
        raise IllegalAction(f"P.I. has no variants (got {', '.join(map(str, setup['variants']))})", R_SETUP)
    unknown = set(setup) - {"players", "variants", "seed", "colours", "first"}
    if unknown:
        raise IllegalAction(f"unknown setup key(s): {', '.join(sorted(unknown))} (setup: colours, first)", R_SETUP)
    colours = setup.get("colours") or list(db.suits)[:len(players)]
    if isinstance(colours, dict):
        colours = [colours.get(p) for p in players]
    if not isinstance(colours, list) or len(colours) != len(players) or len(set(map(str, colours))) != len(colours) \
            or any(col not in db.suits for col in colours):
        raise IllegalAction(f"colours: one different colour per player, from {', '.join(db.suits)}", R_COLOURS)
    first = setup.get("first", players[0])
    if first not in players:
        raise IllegalAction(f"first: '{first}' is not a player ({', '.join(players)})", R_SETUP)
    seed = setup.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise IllegalAction("seed: a whole number", R_SETUP)
    n = len(players)
    state = State(db, players, [str(col) for col in colours], seed, players.index(first),
                  investigators_left=[INVESTIGATORS] * n, penalties=[0] * n,
                  points=[[None] * MINI_GAMES for _ in range(n)])
    _reset_mini_game(state)
    return state


def _reset_mini_game(state: State) -> None:
    n = len(state.players)
    state.phase = "deal"
    state.tiles, state.cases, state.display, state.deck, state.discard = {}, [None] * n, [], [], []
    state.kept, state.turns, state.markers = [[] for _ in range(n)], [0] * n, [[] for _ in range(n)]
    state.investigators, state.done, state.solved = [[] for _ in range(n)], [False] * n, []
    state.next_box, state.last_box, state.solutions, state.reshuffles = 0, None, {}, 0
    state.dealt_deck = False
    state.current = state.first


def _rng(state: State, what: str) -> random.Random:
    return random.Random(f"pi/{state.seed}/{state.mini}/{what}")


# --- events ----------------------------------------------------------------------------------

def _player(state: State, who: Any, what: str = "by") -> int:
    if who not in state.players:
        raise IllegalAction(f"{what}: '{who}' is not a player ({', '.join(state.players)})", R_TURN)
    return state.players.index(who)


def _fields(event: Event, allowed: set[str], rule: Rule) -> None:
    unknown = set(event) - {"action", "by"} - allowed
    if unknown:
        raise IllegalAction(f"unknown field(s) {', '.join(sorted(unknown))} (this event takes: "
                            f"{', '.join(sorted(allowed)) or 'nothing more'})", rule)


def _deal(state: State, event: Event) -> None:
    if state.phase != "deal":
        raise IllegalAction(f"mini-game {state.mini} is already dealt: the next deal comes when it ends", R_NEXT_DEAL)
    _fields(event, {"tiles", "display", "cases"}, R_DEAL)
    c = city(state.db)
    if (event.get("tiles") is None or event.get("display") is None) and state.seed is None:
        raise IllegalAction("without a seed in the log header, the deal names the tiles and the display "
                            "(tiles: {district: [suspect or none, crime or none]}, display: [9 cards])", R_DEAL)
    tiles = _read_tiles(c, event["tiles"]) if event.get("tiles") is not None else _deal_tiles(state, c)
    if event.get("display") is not None:
        display = _read_cards(c, event["display"], "display")
        if len(display) != DISPLAY:
            raise IllegalAction(f"the display holds {DISPLAY} evidence cards, not {len(display)}", R_DISPLAY)
        # the table laid out the display from its own deck: the order of what is left is unknown
        # even with a seed in the header, so every card drawn must be named (draw: <card>)
        deck = sorted(set(c.kind) - set(display), key=list(c.kind).index)
        dealt_deck = False
    else:
        deck = list(c.kind)
        _rng(state, "evidence").shuffle(deck)
        display, deck, dealt_deck = deck[:DISPLAY], deck[DISPLAY:], True
    cases: list[tuple[str, str, str] | None] = [None] * len(state.players)
    given = event.get("cases")
    if given is not None:
        if not isinstance(given, dict) or set(given) != set(state.players):
            raise IllegalAction("cases: {player: [suspect, crime, district]} for every player", R_CASES)
        for name, case in given.items():
            cases[state.players.index(name)] = _read_case(c, case, name)
    elif state.seed is not None and event.get("tiles") is None:
        picks = {k: _rng(state, k).sample(list(c.of_kind(k)), len(state.players)) for k in KINDS}
        cases = [(picks["suspect"][i], picks["crime"][i], picks["location"][i]) for i in range(len(state.players))]
    _distinct_cases(state, cases)
    state.tiles, state.display, state.deck, state.dealt_deck, state.cases = tiles, display, deck, dealt_deck, cases
    state.phase = "play" if all(cases) else "cases"


def _read_tiles(c: City, given: Any) -> Tiles:
    want = "tiles: {district: [suspect or none, crime or none]} for all 14 districts"
    if not isinstance(given, dict):
        raise IllegalAction(want, R_DEAL)
    districts = {}
    for key in given:
        districts[element(c, str(key), "location", R_DEAL)] = given[key]
    missing = [c.name[d] for d in c.districts if d not in districts]
    if missing:
        raise IllegalAction(f"no tiles given for {engine.and_list(missing)} ({want})", R_DEAL)
    tiles: Tiles = {}
    for d in c.districts:
        pair = districts[d]
        if not isinstance(pair, list) or len(pair) != 2:
            raise IllegalAction(f"{c.name[d]}: [suspect or none, crime or none], not {pair!r}", R_DEAL)
        s, k = (None if _is_none(v) else element(c, str(v), kind, R_DEAL) for v, kind in zip(pair, KINDS, strict=False))
        tiles[d] = (s, k)
    for slot, kind in enumerate(("suspect", "crime")):
        placed = [e for t in tiles.values() if (e := t[slot]) is not None]
        twice = sorted({c.name[e] for e in placed if placed.count(e) > 1})
        if twice:
            raise IllegalAction(f"{engine.and_list(twice)}: one tile each, placed twice", R_DEAL)
        absent = [c.name[e] for e in c.of_kind(kind) if e not in placed]
        if absent:
            raise IllegalAction(f"every {kind} tile lies on the board; missing: {engine.and_list(absent)} "
                                f"(only {len(c.districts) - len(c.of_kind(kind))} 'no {kind}' tiles)", R_DEAL)
    return tiles


def _is_none(value: Any) -> bool:
    return value is None or isinstance(value, str) and value.strip().lower() in ("none", "no suspect", "no crime", "-")


def _deal_tiles(state: State, c: City) -> Tiles:
    suspects: list[str | None] = [*c.suspects, *[None] * (len(c.districts) - len(c.suspects))]
    crimes: list[str | None] = [*c.crimes, *[None] * (len(c.districts) - len(c.crimes))]
    _rng(state, "suspect tiles").shuffle(suspects)
    _rng(state, "crime tiles").shuffle(crimes)
    return {d: (suspects[i], crimes[i]) for i, d in enumerate(c.districts)}


def _read_cards(c: City, given: Any, what: str) -> list[str]:
    if not isinstance(given, list):
        raise IllegalAction(f"{what}: a list of evidence cards", R_DISPLAY)
    cards = [element(c, str(v), None, R_DISPLAY) for v in given]
    twice = sorted({c.name[e] for e in cards if cards.count(e) > 1})
    if twice:
        raise IllegalAction(f"{what}: {engine.and_list(twice)} twice (one evidence card each)", R_DISPLAY)
    return cards


def _read_case(c: City, case: Any, name: str) -> tuple[str, str, str]:
    if isinstance(case, dict):
        case = [case.get(k) for k in ("suspect", "crime", "location")]
    if not isinstance(case, list) or len(case) != 3:
        raise IllegalAction(f"{name}'s case: [suspect, crime, district]", R_CASES)
    s, k, loc = (element(c, str(v), kind, R_CASES) for v, kind in zip(case, KINDS, strict=True))
    return s, k, loc


def _distinct_cases(state: State, cases: list[tuple[str, str, str] | None]) -> None:
    held = [e for case in cases if case for e in case]
    twice = sorted({e for e in held if held.count(e) > 1})
    if twice:
        c = city(state.db)
        raise IllegalAction(f"{engine.and_list([c.name[e] for e in twice])} dealt to two players: each case card "
                            "is one card", R_CASES)


def _case(state: State, who: int, event: Event) -> None:
    if state.phase != "cases":
        raise IllegalAction("cases are entered after the deal and before the first turn, when the deal did not "
                            "give them", R_CASES)
    _fields(event, {"suspect", "crime", "location"}, R_CASES)
    if state.cases[who] is not None:
        raise IllegalAction(f"{state.players[who]} has entered a case already", R_CASES)
    c = city(state.db)
    case = _read_case(c, [event.get(k) for k in KINDS], state.players[who])
    cases = list(state.cases)
    cases[who] = case
    _distinct_cases(state, cases)
    state.cases = cases
    if all(state.cases):
        state.phase = "play"


def _my_turn(state: State, who: int) -> None:
    if state.phase != "play":
        wanted = {"deal": f"mini-game {state.mini} is not dealt yet (a deal event comes first)",
                  "cases": "every player enters the case they hold first (case events)",
                  "over": "the game is over"}[state.phase]
        # the rule that says what comes now: the board set up (again), the cases dealt, the end
        rule = {"deal": R_DEAL if state.mini == 1 else R_NEXT_DEAL, "cases": R_CASES, "over": R_END}[state.phase]
        raise IllegalAction(wanted, rule)
    if who != state.current:
        raise IllegalAction(f"it is {state.players[state.current]}'s turn, not {state.players[who]}'s", R_TURN)


def _held(state: State, who: int) -> tuple[str, str, str]:
    case = state.cases[state.holder(who)]
    assert case is not None  # every case is known once play starts
    return case


def _investigate(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    _fields(event, {"district", "answer"}, R_INVESTIGATE)
    c = city(state.db)
    district = element(c, event.get("district"), "location", R_INVESTIGATE)
    if state.investigators_left[who] == 0:
        raise IllegalAction(f"{state.players[who]} has used all {INVESTIGATORS} investigators (they are for the "
                            "whole game)", R_ONE_USE)
    answer = answer_investigation(c, state.tiles, _held(state, who), state.markers[who], district)
    given = event.get("answer")
    if given is not None:
        want = {"discs": answer["discs"], "cubes": answer["cubes"]}
        if not isinstance(given, dict) or {k: given.get(k, 0) for k in want} != want or set(given) - set(want):
            said = _markers_text({k: given.get(k, 0) for k in want}) if isinstance(given, dict) else repr(given)
            raise IllegalAction(f"{state.players[state.holder(who)]} must answer {_markers_text(want)}, "
                                f"not {said}", R_ANSWER)
    state.investigators_left[who] -= 1
    state.investigators[who].append(district)
    state.markers[who].extend(answer["markers"])
    state.last_answer = {"by": state.players[who], "action": "investigate", "district": district,
                         "discs": answer["discs"], "cubes": answer["cubes"]}
    _end_turn(state, who)


def _markers_text(answer: dict[str, int]) -> str:
    bits = [f"{n} {word}{'s' if n != 1 else ''}" for word, n in (("disc", answer["discs"]), ("cube", answer["cubes"])) if n]
    return " and ".join(bits) or "nothing"


def _evidence(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    _fields(event, {"card", "answer", "draw"}, R_EVIDENCE)
    c = city(state.db)
    card = element(c, event.get("card"), None, R_EVIDENCE)
    if card not in state.display:
        raise IllegalAction(f"the {c.name[card]} evidence card is not on display "
                            f"({', '.join(c.name[e] for e in state.display) or 'the display is empty'})", R_EVIDENCE)
    answer = answer_evidence(c, state.tiles, _held(state, who), state.markers[who], card)
    given = event.get("answer")
    accepted = {answer["answer"], "none"} if answer["answer"] == "nothing" else {answer["answer"]}
    if given is not None and str(given).lower() not in accepted:
        raise IllegalAction(f"{state.players[state.holder(who)]} must answer {answer['answer']}, not {given!r}",
                            R_EVIDENCE_ANSWER)
    marker = answer["marker"]
    # a card that earned a disc or cube is discarded before the refill, so an empty deck is made again
    # from a discard pile that holds it (evidence_keep_or_discard, then evidence_refill)
    drawn = _refill(state, card, event.get("draw"), discarded=marker is not None)
    if marker is not None:
        if answer["moved"]:
            state.markers[who].remove(next(m for m in state.markers[who] if m[1] == marker[1] and m[2] == marker[2]
                                           and m[3] == "investigator"))
        state.markers[who].append(marker)
    else:
        state.kept[who].append(card)
    state.last_answer = {"by": state.players[who], "action": "evidence", "card": card, "answer": answer["answer"],
                         "moved": answer["moved"], "drawn": drawn}
    _end_turn(state, who)


def refill_cards(state: State, taken: str) -> list[str]:
    """The cards the display may be refilled from once `taken` is taken: the deck, or when it is empty the
    discard pile it is made again from, with `taken` in it if it earns a disc or cube (a table names one)."""
    if state.deck:
        return list(state.deck)
    c = city(state.db)
    discards = list(state.discard)
    if taken in state.display and state.phase == "play" \
            and answer_evidence(c, state.tiles, _held(state, state.current), state.markers[state.current],
                                taken)["marker"] is not None:
        discards.append(taken)
    return sorted(discards, key=list(c.kind).index)


def _refill(state: State, taken: str, named: Any, discarded: bool) -> str | None:
    """Take a card from the display (onto the discard pile if `discarded`) and draw one to bring the display
    back to nine; the card drawn, if any. Every refusal comes before anything moves."""
    c = city(state.db)
    # the cards the draw comes from: the deck, or once it is empty the discard pile it is made again from
    pool = state.deck or state.discard + ([taken] if discarded else [])
    reshuffle = not state.deck and bool(pool)
    known = state.dealt_deck and (state.seed is not None or not reshuffle)  # a table's own deck stays unknown
    drawn: str | None = None
    if named is not None:
        if not pool:
            raise IllegalAction("the evidence deck and the discard pile are empty: nothing can be drawn",
                                R_NOTHING_TO_DRAW)
        drawn = element(c, named, None, R_REFILL)
        if drawn not in pool:
            where = "the deck" if state.deck else "the discard pile shuffled into a new deck"
            raise IllegalAction(f"the {c.name[drawn]} evidence card is not in {where}", R_REFILL)
    elif len(pool) > 1 and not known:  # one card left: the draw is forced
        raise IllegalAction("name the evidence card drawn to refill the display (draw: <card>)", R_REFILL)
    state.display.remove(taken)
    if discarded:
        state.discard.append(taken)
    if reshuffle:  # shuffle the discards into a new deck
        state.deck = sorted(state.discard, key=list(c.kind).index)
        if state.seed is not None:
            _rng(state, f"reshuffle {state.reshuffles}").shuffle(state.deck)
        state.discard, state.reshuffles = [], state.reshuffles + 1
        state.dealt_deck = known
    if not state.deck:
        return None
    if drawn is None:
        drawn = state.deck[0]
    state.deck.remove(drawn)
    state.display.append(drawn)
    return drawn


def _solve(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    _fields(event, {"suspect", "crime", "location", "answer"}, R_SOLVE)
    c = city(state.db)
    named = tuple(element(c, event.get(k), k, R_SOLVE) for k in KINDS)
    case = _held(state, who)
    right = named == case
    given = event.get("answer")
    if given is not None and str(given).lower() != ("right" if right else "wrong"):
        raise IllegalAction(f"{state.players[state.holder(who)]} must answer {'right' if right else 'wrong'}, "
                            f"not {given!r}", Rule("Try to solve", "solve_right" if right else "solve_wrong"))
    state.turns[who] += 1
    if right:
        turns = state.turns[who]
        if state.last_box is not None and state.last_box[1] == turns:
            box = state.last_box[0]
        else:
            box, state.next_box = state.next_box, state.next_box + 1
        state.last_box = (box, turns)
        points = BOXES[box] if box < len(BOXES) else 0
        state.points[who][state.mini - 1] = points
        state.done[who] = True
        state.solutions[who] = case
        state.markers[who] = [m for m in state.markers[who] if m[0] == "disc"]
        state.solved.append({"player": who, "turns": turns, "box": box, "points": points})
    else:
        state.penalties[who] += 1
    state.last_answer = {"by": state.players[who], "action": "solve", "right": right, "named": list(named)}
    _end_turn(state, who, counted=True)


def _pass(state: State, who: int, event: Event) -> None:
    _my_turn(state, who)
    _fields(event, set(), R_PASS)
    if state.investigators_left[who] or state.display:
        raise IllegalAction(f"{state.players[who]} may not pass while they can "
                            + ("place an investigator" if state.investigators_left[who] else "take evidence"), R_PASS)
    state.last_answer = {"by": state.players[who], "action": "pass"}
    _end_turn(state, who)


def _misled(state: State, who: int, event: Event) -> None:
    if state.phase != "play":
        raise IllegalAction("misleading information is settled during a mini-game's play", R_MISLED)
    _fields(event, set(), R_MISLED)
    misleader = state.holder(who)
    if state.done[who] and state.points[who][state.mini - 1] == MISLED_POINTS and state.done[misleader] \
            and state.points[misleader][state.mini - 1] == 0:
        raise IllegalAction(f"{state.players[who]}'s misleading has been settled already", R_MISLED)
    state.points[who][state.mini - 1] = MISLED_POINTS
    state.points[misleader][state.mini - 1] = 0
    state.done[who] = state.done[misleader] = True
    state.last_answer = {"by": state.players[who], "action": "misled", "misleader": state.players[misleader]}
    if not _mini_game_over(state) and state.done[state.current]:
        state.current = _next_player(state, state.current)
    if _mini_game_over(state):
        _finish_mini_game(state)


def _end_turn(state: State, who: int, counted: bool = False) -> None:
    if not counted:
        state.turns[who] += 1
    if _mini_game_over(state):
        _finish_mini_game(state)
    else:
        state.current = _next_player(state, who)


def _next_player(state: State, who: int) -> int:
    p = state.left_of(who)
    while state.done[p]:
        p = state.left_of(p)
    return p


def _mini_game_over(state: State) -> bool:
    """Everyone has scored, or one player is left who cannot solve in the same number of turns as the last solver."""
    left = [p for p in range(len(state.players)) if not state.done[p]]
    if not left:
        return True
    if len(left) > 1:
        return False
    return state.last_box is None or state.turns[left[0]] >= state.last_box[1]


def _finish_mini_game(state: State) -> None:
    for p in range(len(state.players)):
        if state.points[p][state.mini - 1] is None:
            state.points[p][state.mini - 1] = 0
    state.finished.append({
        "mini_game": state.mini, "first": state.first,
        "points": [state.points[p][state.mini - 1] for p in range(len(state.players))],
        "turns": list(state.turns), "cases": list(state.cases), "solved": list(state.solved)})
    if state.mini == MINI_GAMES:
        state.phase = "over"
        return
    state.mini += 1
    state.first = state.left_of(state.first)
    _reset_mini_game(state)


ACTIONS = {"deal": _deal, "case": _case, "investigate": _investigate, "evidence": _evidence, "solve": _solve,
           "pass": _pass, "misled": _misled}


def apply(state: State, event: Event) -> None:
    """Apply one event; IllegalAction (naming the rule) if the rules forbid it."""
    action = action_of(event, ACTIONS, R_CHOICES)
    if state.phase == "over":
        raise IllegalAction(f"the game is over: {result(state)['why']}", R_END)
    if action == "deal":
        if "by" in event:
            _player(state, event["by"])
        _deal(state, event)
    else:
        ACTIONS[action](state, _player(state, event.get("by")), event)  # type: ignore[operator]
    state.events += 1


def check(state: State, event: Event) -> str | None:
    """Why an event would be refused, or None; the state is left as it was."""
    return check_on_copy(apply, state, event)


# --- answers for the table --------------------------------------------------------------------

def answer_for(state: State, player: int, action: str, target: str) -> dict[str, Any]:
    """What the case holder must answer if `player` investigates a district or takes an evidence card now, told
    for the table: {'answer', 'discs', 'cubes', 'moved', 'text'} ('Red: place 1 disc and 1 cube on your
    investigator in Little Italy')."""
    c = city(state.db)
    case = _held(state, player)
    who = state.players[player]
    if action == "investigate":
        district = element(c, target, "location", R_INVESTIGATE)
        a = answer_investigation(c, state.tiles, case, state.markers[player], district)
        told = _markers_text(a)
        text = f"{who}: place {told} on your investigator in {c.name[district]}" if told != "nothing" \
            else f"{who}: nothing {'new ' if _shown(state.markers[player], district) else ''}in {c.name[district]}"
        return {"answer": told, "discs": a["discs"], "cubes": a["cubes"], "moved": False, "text": text}
    card = element(c, target, None, R_EVIDENCE)
    a = answer_evidence(c, state.tiles, case, state.markers[player], card)
    tile = _tile_name(c, card)
    if a["answer"] == "nothing":
        text = f"{who}: nothing; keep the {c.name[card]} card in front of you"
    elif a["moved"]:
        text = f"{who}: move the {a['answer']} from your investigator in {c.name[a['marker'][2]]} onto {tile}"
    else:
        text = f"{who}: place a {a['answer']} on {tile}"
    return {"answer": a["answer"], "discs": a["discs"], "cubes": a["cubes"], "moved": a["moved"], "text": text}


def _tile_name(c: City, e: str) -> str:
    return f"the {c.name[e]} tile" if c.kind[e] != "location" else c.name[e]


# --- telling events --------------------------------------------------------------------------

def describe(state: State, event: Event, after: State | None = None) -> str:
    """An event told for people: 'Red investigates Little Italy: 1 disc and 1 cube'. `state` is the state before
    the event, `after` the one it led to (worked out on a copy when left out); a refused event is told as written."""
    if not isinstance(event, dict):
        return str(event)
    if after is None:
        after = engine.state_after(apply, state, event)
    c = city(state.db)
    who = str(event.get("by", "the table"))
    action = event.get("action")

    def name(v: Any) -> str:
        try:
            return c.name[element(c, v)]
        except IllegalAction:
            return str(v)

    if action == "deal":
        text = f"Mini-game {state.mini} dealt"
    elif action == "case":
        text = f"{who} enters the case they hold"
    elif action == "investigate":
        text = f"{who} investigates {name(event.get('district'))}"
    elif action == "evidence":
        text = f"{who} takes the {name(event.get('card'))} evidence card"
    elif action == "solve":
        text = f"{who} names {', '.join(name(event.get(k)) for k in KINDS)}"
    elif action == "pass":
        text = f"{who} passes"
    elif action == "misled":
        text = f"{who} was misled"
    else:
        return f"{who}: {action}"
    if after is None or after.events <= state.events:
        return text
    a = after.last_answer or {}
    if action == "investigate":
        text += f": {_markers_text(a)}"
    elif action == "evidence":
        moved = " (moved from an investigator)" if a.get("moved") else ""
        text += f": {a.get('answer')}{moved}" + (f"; {name(a['drawn'])} drawn" if a.get("drawn") else "")
    elif action == "solve":
        if a.get("right"):
            p = state.players.index(who)
            text += f": right, {after.points[p][state.mini - 1]} points"
        else:
            text += f": wrong, a penalty (-{PENALTY})"
    elif action == "misled":
        text += f": {who} scores {MISLED_POINTS}, {a.get('misleader')} 0"
    if after.mini != state.mini or after.phase == "over" and state.phase != "over":
        text += f". Mini-game {state.mini} ends"
    if after.phase == "over" and state.phase != "over":
        text += f". Game over: {result(after)['why']}"
    return text


# --- reading the state ----------------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.phase == "over"


def totals(state: State) -> list[int]:
    return [sum(p or 0 for p in state.points[i]) - PENALTY * state.penalties[i] for i in range(len(state.players))]


def result(state: State) -> dict[str, Any]:
    """Scores (points less penalties), and once the game is over the winner(s) and the tie-break that decided."""
    names, score = state.players, totals(state)
    out: dict[str, Any] = {"scores": dict(zip(names, score, strict=True)), "over": state.phase == "over"}
    if state.phase != "over":
        return out
    best = [p for p in range(len(names)) if score[p] == max(score)]
    decided_by = "score"
    for key, word in ((lambda p: state.investigators_left[p], "investigators"), (lambda p: -state.penalties[p], "penalties")):
        if len(best) > 1:
            top = max(key(p) for p in best)
            if any(key(p) != top for p in best):
                decided_by = word
            best = [p for p in best if key(p) == top]
    winners = [names[p] for p in best]
    out["winners"] = winners
    out["winner"] = winners[0] if len(winners) == 1 else None
    if len(winners) > 1:
        out["decided_by"] = "tie"
        left, penalties = state.investigators_left[best[0]], state.penalties[best[0]]
        out["why"] = (f"{engine.and_list(winners)} tie with {max(score)} points, {left} "
                      f"investigator{'' if left == 1 else 's'} left and {penalties} "
                      f"penalt{'y' if penalties == 1 else 'ies'} each")
    else:
        out["decided_by"] = decided_by
        w = best[0]
        why = {"score": f"{names[w]} wins with {score[w]} points",
               "investigators": f"{names[w]} wins the tie at {score[w]} points with the most investigators left "
                                f"({state.investigators_left[w]})",
               "penalties": f"{names[w]} wins the tie at {score[w]} points with the fewest penalties "
                            f"({state.penalties[w]})"}[decided_by]
        others = ", ".join(f"{names[p]} {score[p]}" for p in range(len(names)) if p != w)
        out["why"] = f"{why} ({others})"
    return out


def summary(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The state as plain data, by name; the cases of the current mini-game only for their holder (viewer)."""
    c = city(state.db)
    names = state.players

    def case_dict(case: tuple[str, str, str] | None) -> dict[str, str] | None:
        return None if case is None else {k: c.name[e] for k, e in zip(KINDS, case, strict=True)}

    def tile_of(where: str) -> str | None:
        return None if where == "investigator" else c.name[where]

    out: dict[str, Any] = {
        "game": ID, "players": list(names), "colours": dict(zip(names, state.colours, strict=True)), "variants": [],
        "events": state.events, "phase": state.phase, "mini_game": state.mini, "step": f"mini-game {state.mini}",
        "first_player": names[state.first],
        "current": names[state.current] if state.phase == "play" else None,
        "turns": dict(zip(names, state.turns, strict=True)),
        "investigators_left": dict(zip(names, state.investigators_left, strict=True)),
        "penalties": dict(zip(names, state.penalties, strict=True)),
        "points": {names[p]: list(state.points[p]) for p in range(len(names))},
        "tiles": {c.name[d]: {"suspect": c.name[s] if s else None, "crime": c.name[k] if k else None}
                  for d, (s, k) in state.tiles.items()},
        "display": [c.name[e] for e in state.display],
        "deck": len(state.deck), "discard": len(state.discard), "reshuffles": state.reshuffles,
        "kept": {names[p]: [c.name[e] for e in state.kept[p]] for p in range(len(names))},
        "investigators": {names[p]: _investigators(state, c, p) for p in range(len(names))},
        "markers": {names[p]: [{"kind": m[0], "district": c.name[m[2]], "tile": tile_of(m[3])}
                               for m in state.markers[p] if m[3] != "investigator"] for p in range(len(names))},
        "done": dict(zip(names, state.done, strict=True)),
        "boxes": [{"player": names[s["player"]], "turns": s["turns"], "box": BOXES[s["box"]] if s["box"] < len(BOXES)
                   else None, "points": s["points"]} for s in state.solved],
        "solutions": {names[p]: case_dict(case) for p, case in state.solutions.items()},
        "mini_games": [{"mini_game": f["mini_game"], "first_player": names[f["first"]],
                        "points": dict(zip(names, f["points"], strict=True)),
                        "turns": dict(zip(names, f["turns"], strict=True)),
                        "cases": {names[(p + 1) % len(names)]: case_dict(case) for p, case in enumerate(f["cases"])}}
                       for f in state.finished],
        "last_answer": _answer_dict(c, state.last_answer),
        "result": result(state),
    }
    if viewer is not None and state.phase in ("cases", "play"):
        out["case"] = case_dict(state.cases[viewer])
        out["case_for"] = names[state.left_of(viewer)]
    return out


def _investigators(state: State, c: City, player: int) -> list[dict[str, Any]]:
    """A player's investigators with the discs and cubes on them; a district's markers sit on the first
    investigator placed there (a later one there finds nothing new)."""
    out, seen = [], set()
    for d in state.investigators[player]:
        on = [m[0] for m in state.markers[player] if m[2] == d and m[3] == "investigator"] if d not in seen else []
        seen.add(d)
        out.append({"district": c.name[d], "discs": on.count("disc"), "cubes": on.count("cube")})
    return out


def _answer_dict(c: City, answer: dict[str, Any] | None) -> dict[str, Any] | None:
    if answer is None:
        return None
    out = dict(answer)
    for key in ("district", "card", "drawn"):
        if out.get(key):
            out[key] = c.name[out[key]]
    if "named" in out:
        out["named"] = [c.name[e] for e in out["named"]]
    return out


def report(s: dict[str, Any]) -> list[str]:
    """The state for people (replay output): each mini-game's points, then where play stands."""
    lines = []
    for f in s["mini_games"]:
        points = ", ".join(f"{p} {n}" for p, n in f["points"].items())
        lines.append(f"mini-game {f['mini_game']} (first: {f['first_player']}): {points}")
    lines.append("penalties: " + ", ".join(f"{p} {n}" for p, n in s["penalties"].items())
                 + "; investigators left: " + ", ".join(f"{p} {n}" for p, n in s["investigators_left"].items()))
    if s["phase"] == "play":
        boxes = ", ".join(f"{b['player']} {b['points']}" for b in s["boxes"]) or "nobody yet"
        lines.append(f"mini-game {s['mini_game']}: {s['current']} to play; solved: {boxes}; display "
                     f"{len(s['display'])}, deck {s['deck']}, discards {s['discard']}")
    elif s["phase"] in ("deal", "cases"):
        lines.append(f"mini-game {s['mini_game']}: waiting for the " + ("deal" if s["phase"] == "deal" else "cases"))
    return lines


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: everything public, and the case they hold (no other case)."""
    return summary(state, viewer=player)


def problems(state: State) -> list[str]:
    """What is inconsistent in a state (for a corrupt save), without raising."""
    found = []
    n = len(state.players)
    for p in range(n):
        if not 0 <= state.investigators_left[p] <= INVESTIGATORS - len(state.investigators[p]):
            found.append(f"{state.players[p]}: {state.investigators_left[p]} investigators left")
        if state.penalties[p] < 0:
            found.append(f"{state.players[p]}: {state.penalties[p]} penalties")
    if state.phase in ("play", "cases"):
        cards = state.display + state.deck + state.discard + [e for k in state.kept for e in k]
        if sorted(cards) != sorted(city(state.db).kind):
            found.append("the evidence cards do not add up to the 36 of the set")
        if len(state.display) > DISPLAY:
            found.append(f"{len(state.display)} evidence cards on display")
    return found
