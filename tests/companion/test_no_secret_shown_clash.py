"""Clash of Minds' shared screen never tells the table more than the physical game would: a whole simulated game
walked through the app's own session (no window), the secrets known to the test, undone events included.

Two secrets: Moriarty's Crime Plan (which card, hence which kind, lies face down in each thread, until the thread
is revealed) and, in the Final Turn, which Action Card each player laid face down in which thread (until it is
turned over). The same game with those dealt otherwise must read the same, word for word: History, the refusal
of every probe event, the start screen's line, the pad's prompt and every label of the table (its state, its
pad, its action bar and which players have something to hold), until the game reveals them."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import pytest

from casebook.companion.session import Session
from casebook.rules.cards import load_database
from casebook.rules.engine import Event
from casebook.rules.games import clash
from casebook.rules.log import GameLog
from tests.companion.test_clash_pad import PLAN, SEED, planned_game
from tests.companion.test_no_secret_shown import history_texts, refusals, start_line

# the Final Turn as laid: each side's Action Cards in this order, in threads 1, 2, 3, 1 (the planned game lays all
# in thread 1); the other game swaps the cards laid in threads 1 and 2, and in 3 and 1, so the threads match
THREADS = [1, 2, 3, 1]
SWAP = {"play": "draw_use", "draw_use": "play", "draw_support": "use_support", "use_support": "draw_support"}


def true_game() -> list[Event]:
    """The planned game's events (test_clash_pad.planned_game), its Final Turn laid across the threads."""
    db = load_database("clash")
    _taps, pad = planned_game(db, SEED)
    events, laid = [], {"Ann": 0, "Ben": 0}
    for event in pad.session.log.events:
        if event["action"] == "place":
            event = {**event, "thread": THREADS[laid[event["by"]] % len(THREADS)]}
            laid[event["by"]] += 1
        events.append(event)
    return events


def other_plan(db: Any, revealed: set[int]) -> list[str]:
    """A crime plan that agrees with PLAN on the revealed threads and differs on every hidden one: other cards,
    and the kinds of two hidden threads swapped."""
    plans = clash.cards(db).plans
    kind = {p: plans[p].thread for p in plans}
    hidden = [i for i in range(3) if i not in revealed]
    kinds = [kind[PLAN[i]] for i in hidden]
    kinds = kinds[1:] + kinds[:1]  # each hidden thread another kind (one hidden thread: the same kind)
    out = list(PLAN)
    for i, k in zip(hidden, kinds, strict=True):
        out[i] = next(p for p in plans if kind[p] == k and p not in PLAN and p not in out)
    return out


def variant(events: list[Event], plan: list[str], swap_from: int | None, start: int = 0) -> list[Event]:
    """`events` (from index `start` of the game) with the other plan and, from index `swap_from` on, the Action
    Cards laid in the Final Turn swapped (SWAP)."""
    out = []
    for n, event in enumerate(events, start=start):
        if event["action"] == "plan":
            event = {**event, "plan": list(plan)}
        elif event["action"] == "place" and swap_from is not None and n >= swap_from:
            event = {**event, "card": SWAP[event["card"]]}
        out.append(event)
    return out


def session_of(events: list[Event]) -> Session:
    db = load_database("clash")
    log = GameLog("clash", db.rules_version, ["Ann", "Ben"], [], SEED, {"colours": ["green", "vermillion"]})
    session = Session.new(db, log, None)
    for event in events:
        out = session.do(event)
        assert out.ok, out.message
    return session


def probes(session: Session) -> list[Event]:
    """Tries a player might make at any moment: the plan again, a card revealed or laid by either player, a card
    into each thread; each refused (or not) the same whatever the secrets."""
    st = session.state
    out: list[Event] = [{"action": "plan", "by": "Ben", "plan": list(PLAN)}]
    for who in ("Ann", "Ben"):
        out += [{"action": "reveal", "by": who, "card": c, "take": "skip"} for c in clash.ACTION_CARDS]
        if st.phase != "final_place" or st.name(st.active) != who:  # the layer's own page offers what is left
            out += [{"action": "place", "by": who, "card": c, "thread": 2} for c in clash.ACTION_CARDS]
        out += [{"action": "play", "by": who, "card": "interrogation", "thread": t} for t in (1, 2, 3)]
    return out


def table_texts(session: Session) -> list[str]:
    """Every text of the table as the app builds it (no window): scoreline, state, pad, action bar, whose holds."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.uix.label import Label

    from casebook.companion.tables.clash.table import Table
    from casebook.companion.theme import THEMES

    def walk(w: Any) -> Any:
        yield w
        for c in w.children:
            yield from walk(c)

    out = []
    for landscape in (False, True):
        scroll = SimpleNamespace(scroll_y=1)
        screen = SimpleNamespace(landscape=landscape, width=640 if landscape else 360,
                                 ids={"scroll": scroll, "pad_scroll": scroll}, say=lambda *_a: None)
        table = Table(SimpleNamespace(colors=THEMES["light"], fs=1.0), screen, session)
        s = session.summary(None)
        out.append(table.scoreline(s))
        widgets = [*table.widgets(s), *table.pad_widgets(s), *table.actions(s)]
        out += [x.text for w in widgets for x in walk(w) if isinstance(x, Label) and x.text]
        out += [f"holds: {', '.join(sorted(table.secrets(s)))}", table.pad.prompt()]
    return out


def seen(session: Session) -> list[str]:
    return [*history_texts(session), *start_line(session), *refusals(session, probes(session)),
            *table_texts(session)]


def secrets_out(session: Session) -> tuple[frozenset[int], int]:
    """What the table knows of the secrets: the threads revealed, and the Action Cards turned over so far."""
    st = session.state
    return frozenset(i for i in range(3) if st.revealed[i]), sum(1 for e in session.log.events if e["action"] == "reveal")


def test_a_whole_clash_game_reads_the_same_whatever_the_crime_plan_and_the_final_turn(tmp_path):
    pytest.importorskip("kivy")
    db = load_database("clash")
    events = true_game()
    true = session_of([])
    other: Session | None = None
    built: tuple[frozenset[int], int] | None = None
    plan, swap_from = list(PLAN), 0
    compared = 0
    for n, event in enumerate(events):
        if (n % 7 == 3 or event["action"] == "reveal") and other is not None:  # recorded, undone, recorded again
            assert true.do(event).ok and true.undo()
            assert other.do(variant([event], plan, swap_from, n)[0]).ok and other.undo()
            assert seen(true) == seen(other), f"after undoing event {n + 1}"
            compared += 1
        out = true.do(event)
        assert out.ok, out.message
        if clash.is_over(true.state):
            break
        known = secrets_out(true)
        if known != built:  # the table learnt something: a game that differs in all it cannot know yet
            built = known
            plan = other_plan(db, set(known[0]))
            reveals = [i for i, e in enumerate(events[:n + 1]) if e["action"] == "reveal"]
            swap_from = reveals[-1] + 1 if reveals else 0  # the Final Turn laid since the last card turned over
            other = session_of(variant(events[:n + 1], plan, swap_from))
        else:
            assert other is not None and other.do(variant([event], plan, swap_from, n)[0]).ok
        assert seen(true) == seen(other), f"after event {n + 1}: {true.history()[-1]}"
        compared += 1
    assert compared > len(events) // 2
    told = " ".join(history_texts(true))  # the secrets were there to find: revealed, History tells them
    assert all(clash.cards(db).plans[p].name in told for p in PLAN)
