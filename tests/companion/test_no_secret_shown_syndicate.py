"""The Syndicate's shared screen tells the table no more than the physical game would: a whole simulated game
walked through the app's own session (no window), the secrets known to the test.

What The Syndicate keeps secret (rulebook, rules/games/syndicate.py): the cards in each hand, and the
mastermind's face-down card until it is revealed at the end of the plot. The app is told a plot only once it
is played out (every card face up), so it never holds a hand; what it could still give away is a plot entered
wrongly and undone (its face-down card the table never saw turned up), or a card in a hand named anywhere.
So: the game is played twice, the same at the table, but each time a wrong plot is entered and undone it has
a different face-down card: History, every refusal of a probe event, the start screen's line, the summary the
table's labels are drawn from and the pad's texts read the same, word for word. And no card still in a hand,
never played, is named in what the table reads. Then in the real app: every label of the table and History.

Greyed cards (a card in the discard pile, or of a mark an enforcer showed they lack by not following) are
inferred from cards played face up only: what every player at the table saw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from casebook.companion.session import Session
from casebook.companion.tables.syndicate.pad import SLOTS, SyndicatePad
from casebook.rules.cards import load_database
from casebook.rules.engine import Event
from casebook.rules.games import syndicate as sy
from casebook.rules.log import GameLog
from tests.companion.test_no_secret_shown import history_texts, refusals, start_line

PLAYERS = ["Ann", "Ben", "Cat"]


class Table:
    """The physical game the test knows whole: the shuffled deck, every hand, the draw and discard piles."""

    def __init__(self, db: Any, seed: int):
        self.rng = random.Random(seed)
        self.cards = sy.deck(db)
        ids = sorted(self.cards)
        self.rng.shuffle(ids)
        self.hands = [ids[:5], ids[5:9], ids[9:12]]
        self.pile, self.discard = ids[12:], []

    def draw(self, player: int) -> None:
        """The mastermind draws up to five; an empty draw pile takes the discards, shuffled (at once when the
        last card is drawn exactly)."""
        while len(self.hands[player]) < sy.HAND:
            if not self.pile:
                self.pile, self.discard = self._shuffled(), []
            self.hands[player].append(self.pile.pop())
        if not self.pile and self.discard:
            self.pile, self.discard = self._shuffled(), []

    def _shuffled(self) -> list[str]:
        cards = list(self.discard)
        self.rng.shuffle(cards)
        return cards

    def plot(self, state: sy.State) -> tuple[Event, list[str]]:
        """The mastermind's plot, each enforcer following the lead when they can; and the cards played."""
        mm = state.mastermind
        if state.turn > 1:
            self.draw(mm)
        hand = self.hands[mm]
        lead = self.rng.choice(hand)
        rest = [c for c in hand if c != lead]
        face_down = self.rng.choice(rest) if rest and self.rng.random() < 0.4 else None
        played = [lead] + ([face_down] if face_down else [])
        event: Event = {"action": "plot", "by": PLAYERS[mm], "lead": self.name(lead), "enforcers": {}}
        if face_down:
            event["face_down"] = self.name(face_down)
        first = state.left_of(mm)
        for p in (first, state.left_of(first)):
            follow = [c for c in self.hands[p] if sy.follows(self.cards[lead], self.cards[c])]
            card = self.rng.choice(follow or self.hands[p])
            event["enforcers"][PLAYERS[p]] = self.name(card)
            played.append(card)
        return event, played

    def done(self, state: sy.State, played: list[str]) -> None:
        for hand in self.hands:
            hand[:] = [c for c in hand if c not in played]
        self.discard += played

    def name(self, cid: str) -> str:
        return sy.card_name(self.cards[cid])


def syndicate_session() -> Session:
    db = load_database("syndicate")
    log = GameLog("syndicate", db.rules_version, list(PLAYERS), [], None, {"colours": ["blue", "vermillion", "green"]})
    return Session.new(db, log, None)  # nothing saved: the start line reads the log itself


def probes(session: Session) -> list[Event]:
    """Plots a player might try: every card of the deck as the lead, and as the first enforcer's card (the other
    cards the lowest ids not in question): each refused, or not, from what the table has seen alone."""
    st = session.state
    if st.over:
        return []
    ids = sorted(sy.deck(session.db))
    mm, first = st.mastermind, st.left_of(st.mastermind)
    second = st.left_of(first)
    out: list[Event] = []
    for cid in ids:
        others = [c for c in ids if c != cid][:2]
        out.append({"action": "plot", "by": PLAYERS[mm], "lead": cid,
                    "enforcers": {PLAYERS[first]: others[0], PLAYERS[second]: others[1]}})
        out.append({"action": "plot", "by": PLAYERS[mm], "lead": others[0],
                    "enforcers": {PLAYERS[first]: cid, PLAYERS[second]: others[1]}})
    return out


def pad_texts(session: Session) -> list[str]:
    pad = SyndicatePad(session)
    return [*(pad.slot_title(s) for s in SLOTS), pad.message]


def seen(session: Session) -> list[Any]:
    """Everything the table reads: History, the start line, refusals of the probes, the pad and the summary
    (every label of the table is drawn from it)."""
    return [*history_texts(session), *start_line(session), *refusals(session, probes(session)),
            *pad_texts(session), session.summary(None)]


def told(session: Session) -> str:
    """What the table reads, but refusals (a refusal names the card the probe itself named)."""
    return "\n".join([*history_texts(session), *start_line(session), *pad_texts(session),
                      str(session.summary(None))])


def shown(session: Session) -> set[str]:
    """The cards the table has seen played (a card shuffled back and drawn again is no secret by name)."""
    return {c.id for plot in session.state.plots
            for c in (plot.lead, plot.face_down, *(card for _, card in plot.enforcers)) if c}


def wrong_plot(event: Event, face_down: str) -> Event:
    return {**event, "face_down": face_down}


def test_a_whole_syndicate_game_tells_no_hand_and_no_undone_face_down_card():
    games = {"a": syndicate_session(), "b": syndicate_session()}
    table = Table(games["a"].db, seed=7)
    undone = compared = 0
    while not games["a"].is_over:
        assert games["a"].state.turn < 80, "the simulated game should end"
        event, played = table.plot(games["a"].state)
        mm = games["a"].state.mastermind
        if games["a"].state.turn % 3 == 2:
            # a wrong plot entered, then undone: in game a its face-down card is one the mastermind holds and does
            # not play; in game b one another player holds. Neither was ever shown at the table.
            kept = [c for c in table.hands[mm] if c not in played]
            others = [c for p in range(3) if p != mm for c in table.hands[p] if c not in played]
            wrong = {"a": wrong_plot(event, table.name(kept[0])) if kept else None,
                     "b": wrong_plot(event, table.name(others[-1])) if others else None}
            if wrong["a"] and wrong["b"] and all(games[w].check(wrong[w]) is None for w in games):
                for w, s in games.items():
                    assert s.do(wrong[w]).ok and s.undo()
                    assert not [n for n in (kept[0], others[-1]) if n not in shown(s) and table.name(n) in told(s)]
                assert seen(games["a"]) == seen(games["b"]), f"after undoing turn {games['a'].state.turn}"
                undone += 1
        for s in games.values():
            out = s.do(event)
            assert out.ok, out.message
        table.done(games["a"].state, played)
        assert seen(games["a"]) == seen(games["b"]), f"after turn {games['a'].state.turn - 1}"
        compared += 1
        secret = {c for hand in table.hands for c in hand} - shown(games["a"])
        text = told(games["a"])
        assert not [table.name(c) for c in secret if table.name(c) in text]
    assert undone >= 5 and compared >= 10


def test_every_label_of_the_syndicate_table_reads_the_same_whatever_an_undone_face_down_card_was(tmp_path):
    """In the real app, twice: turn 2 is entered with a face-down card (the 4 of Moons, or the 6 of Suns), confirmed,
    then undone. The table's every text and History then read the same, and neither card is named."""
    pytest.importorskip("kivy")
    from tests.companion.test_app_gui import read_dumps, run
    from tests.companion.test_syndicate_gui import card

    texts, names = {}, {"a": ("4", "moons"), "b": ("6", "suns")}
    db = load_database("syndicate")
    for w, (rank, suit) in names.items():
        folder = tmp_path / w
        folder.mkdir()
        d = {n: str(folder / f"{n}.json") for n in ("undone", "history")}
        steps = [{"tap": "new_game"}, {"tap": "game_syndicate"}]
        steps += [{"text": [f"new.p{i + 1}", name]} for i, name in enumerate(PLAYERS)] + [{"tap": "new_start"}]
        steps += card("8", "moons") + card("9", "knots") + card("7", "suns") + card("2", "knots") + [{"tap": "confirm"}]
        steps += card("A", "waves") + card("crown", "waves") + card("8", "waves") + card(rank, suit)
        steps += [{"tap": "confirm"}, {"tap": "undo"}, {"dump": d["undone"]}, {"tap": "history"},
                  {"dump": d["history"]}, {"quit": True}]
        run(folder, steps)
        dumps = read_dumps(d)
        assert dumps["undone"]["summary"]["turn"] == 2 and "Undone." in dumps["undone"]["texts"]
        texts[w] = {n: dump["texts"] for n, dump in dumps.items()}
    assert texts["a"] == texts["b"]
    for rank, suit in names.values():
        name = sy.parse_card(db, f"{rank} {suit}").name
        assert not [t for ts in texts["a"].values() for t in ts if name in t]
