"""P.I.: the shared screen never tells the table more than the physical game would. A whole 5-player game (three
mini-games) walked through the app's own session (no window), the cases known to the test, undone events included:
the same game with one case dealt otherwise reads the same, word for word (History, the refusal of every probe
the table could tap, the start screen's line, the table's scoreline, the pad's lines and the summary every label
of the table is drawn from), until the physical game would tell (an answer that differs, the end of the mini-game
when the cases are shown)."""

from __future__ import annotations

from typing import Any

import pytest

from casebook.companion.session import Session
from casebook.rules.engine import Event
from casebook.rules.games import pi
from casebook.rules.log import GameLog
from tests.companion.test_no_secret_shown import history_texts, refusals, start_line
from tests.rules.test_pi_support import EXAMPLE_DISPLAY, EXAMPLE_TILES, pi_database

pytest.importorskip("kivy")

from casebook.companion.tables.pi.pad import PiPad  # noqa: E402
from casebook.companion.tables.pi.table import Table  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
Case = tuple[str, str, str]
# the case each player holds (the case of the player on their left), one set a mini-game
CASES: list[list[Case]] = [
    [("bubbles", "murder", "downtown"), ("velvet_vance", "arson", "hilltop"), ("lucky_pell", "smuggling", "northgate"),
     ("rosie_kane", "forgery", "shipyard"), ("mr_whisper", "extortion", "gasworks")],
    [("slim_coyle", "blackmail", "waterfront"), ("doc_farrow", "kidnapping", "little_italy"),
     ("the_deacon", "bootlegging", "foundry_row"), ("dutch_moreau", "jewel_theft", "canal_street"),
     ("madame_orsini", "bank_robbery", "main_street")],
    [("tommy_two_hats", "arson", "theatre_row"), ("ingrid_halvorsen", "murder", "rail_yards"),
     ("bubbles", "forgery", "lantern_quarter"), ("lucky_pell", "extortion", "chapel_square"),
     ("rosie_kane", "smuggling", "downtown")],
]
ROUNDS = 3  # turns each player takes before the mini-game is brought to its end


def new_session(cases: list[list[Case]]) -> Session:
    db = pi_database()
    log = GameLog("pi", db.rules_version, list(PLAYERS), [], None,
                  {"colours": ["red", "blue", "green", "yellow", "purple"]})
    s = Session.new(db, log, None)
    s.cases_by_test = cases  # type: ignore[attr-defined]
    return s


def next_event(s: Session, cases: list[list[Case]]) -> Event | None:
    """The next event of a plain game: the deal entered from the table, each case entered by its holder, turns
    that investigate or take evidence, then (the true cases) a right solve and the rest misled."""
    st = s.state
    if st.phase == "over":
        return None
    if st.phase == "deal":
        return {"action": "deal", "tiles": {d: [t or "none" for t in ts] for d, ts in EXAMPLE_TILES.items()},
                "display": list(EXAMPLE_DISPLAY)}
    mine = cases[st.mini - 1]
    if st.phase == "cases":
        p = st.cases.index(None)
        return {"action": "case", "by": PLAYERS[p], **dict(zip(pi.KINDS, mine[p], strict=True))}
    p = st.current
    who, turn = PLAYERS[p], st.turns[st.current]
    if turn >= ROUNDS:
        if not any(st.done):  # the first to get here solves their own case (held by the player on their right)
            return {"action": "solve", "by": who, **dict(zip(pi.KINDS, mine[st.holder(p)], strict=True))}
        return {"action": "misled", "by": who}
    c = pi.city(st.db)
    if (turn + p) % 2 == 0 and st.investigators_left[p]:
        return {"action": "investigate", "by": who, "district": c.districts[(3 * turn + 5 * p + st.mini) % 14]}
    card = st.display[(turn + p) % len(st.display)]
    event: Event = {"action": "evidence", "by": who, "card": card}
    pool = pi.refill_cards(st, card)
    if len(pool) > 1:
        event["draw"] = pool[(turn + p) % len(pool)]
    return event


def probes(s: Session) -> list[Event]:
    """What the table could tap at any moment, by anyone: turns, a pass, misled, a deal."""
    st = s.state
    c = pi.city(st.db)
    out: list[Event] = [{"action": "deal"}]
    for who in PLAYERS:
        out += [{"action": "investigate", "by": who, "district": "little_italy"},
                {"action": "evidence", "by": who, "card": st.display[0] if st.display else "waterfront"},
                {"action": "solve", "by": who, "suspect": "bubbles", "crime": "murder", "location": "downtown"},
                {"action": "pass", "by": who}, {"action": "misled", "by": who}]
    for card in st.display:  # a card named as drawn, from the deck or not
        out.append({"action": "evidence", "by": PLAYERS[st.current], "card": st.display[0], "draw": card})
    out.append({"action": "investigate", "by": PLAYERS[st.current], "district": c.districts[-1]})
    return out


class Frame:
    """Just enough of the app for the table's own texts (its scoreline, its pad's lines)."""
    landscape = False


def seen(s: Session) -> list[Any]:
    pad = PiPad(s)
    table = Table.__new__(Table)
    table.session, table.pad, table.screen = s, pad, Frame()
    summary = s.summary(None)
    lines = [table.scoreline(summary)] if summary["phase"] != "over" else []
    if summary["phase"] == "play":
        lines += [pad.preview(), Table._display_line(summary).text]
        lines += [Table._found(summary, p) for p in PLAYERS]
    return [*history_texts(s), *start_line(s), *refusals(s, probes(s)), *lines, summary]


def events_of(cases: list[list[Case]]) -> list[Event]:
    s = new_session(cases)
    out = []
    while (e := next_event(s, cases)) is not None:
        assert s.do(e).ok, (e, s.check(e))
        out.append(e)
    return out


def alternatives(mini: int) -> list[list[list[Case]]]:
    """The same game with one case of mini-game `mini` dealt otherwise: one card of it changed for one not held."""
    out = []
    c = pi.city(pi_database())
    held = {e for case in CASES[mini - 1] for e in case}
    for p in range(len(PLAYERS)):
        for k, kind in enumerate(pi.KINDS):
            for e in c.of_kind(kind):
                if e in held:
                    continue
                case = list(CASES[mini - 1][p])
                case[k] = e
                cases = [list(m) for m in CASES]
                cases[mini - 1][p] = (case[0], case[1], case[2])
                out.append(cases)
    return out


def told_alike(events: list[Event], cases: list[list[Case]], mini: int) -> int:
    """How many of `events` the other deal answers as the true one: until an answer differs, or mini-game `mini`
    ends (its cases are shown then)."""
    true, other = new_session(CASES), new_session(cases)
    for n, e in enumerate(events):
        if not (true.do(e).ok and other.do(e).ok) or true.state.last_answer != other.state.last_answer \
                or len(true.state.finished) >= mini:
            return n
    return len(events)


def test_a_whole_five_player_game_reads_the_same_whatever_case_each_holds():
    events = events_of(CASES)
    assert new_session(CASES).engine.is_over(replayed(events).state)
    compared = 0
    for mini in (1, 2, 3):
        start = next(n for n, e in enumerate(events) if e["action"] == "deal" and mini == 1 + sum(
            x["action"] == "deal" for x in events[:n]))
        # the other deal that the table cannot tell from the true one for longest
        cases = max(alternatives(mini), key=lambda cs: told_alike(events, cs, mini))
        alike = told_alike(events, cases, mini)
        assert alike > start + len(PLAYERS) + 6, f"mini-game {mini}: no other deal reads alike for long"
        true, other = new_session(CASES), new_session(cases)
        for n, e in enumerate(events[:alike]):
            if n >= start and n % 5 == 2:  # now and then the event is recorded, undone, and compared
                for s in (true, other):
                    assert s.do(e).ok and s.undo()
                assert seen(true) == seen(other), f"mini-game {mini}, after undoing event {n + 1}: {e}"
                compared += 1
            assert true.do(e).ok and other.do(e).ok
            if n >= start:
                assert seen(true) == seen(other), f"mini-game {mini}, after event {n + 1}: {e}"
                compared += 1
    assert compared > len(events) // 2


def replayed(events: list[Event]) -> Session:
    s = new_session(CASES)
    for e in events:
        assert s.do(e).ok
    return s


def test_a_refused_case_entry_stays_on_its_holders_page():
    """A case that cannot be held (a card another player entered) is refused on the holder's own page, where only
    they look: closed, the table shows nothing of it."""
    s = new_session(CASES)
    assert s.do(next_event(s, CASES)).ok  # the deal
    assert s.do(next_event(s, CASES)).ok  # Ann's case
    pad = PiPad(s)
    pad.open_case(1)
    for kind, e in zip(pi.KINDS, CASES[0][0], strict=True):  # Ben taps Ann's cards
        pad.tap_case(kind, e)
    assert not pad.confirm_case().ok
    assert pad.case_by == 1 and pad.message  # still Ben's page, the reason on it
    pad.close_case()
    assert pad.message == "" and pad.case_by is None


# --- the real app: every label of the table ---------------------------------------------------------------------

TURNS: list[Event] = [{"action": "investigate", "by": "Ann", "district": "little_italy"},
                      {"action": "evidence", "by": "Ben", "card": "waterfront", "draw": "shipyard"},
                      {"action": "investigate", "by": "Cat", "district": "downtown"},
                      {"action": "investigate", "by": "Dan", "district": "hilltop"}]


def turn_taps(event: Event) -> list[dict[str, Any]]:
    if event["action"] == "investigate":
        return [{"tap": f"district_{event['district']}"}, {"tap": "confirm"}]
    return [{"tap": "mode_evidence"}, {"tap": f"card_{event['card']}"}, {"tap": "confirm"},
            {"tap": f"draw_{event['draw']}"}]


def test_every_label_of_the_pi_table_reads_the_same_whatever_case_each_holds(tmp_path):
    """In the real app, twice: the deal entered from the table, each case entered by its holder, four turns (the last
    undone), History. The second time one case is dealt otherwise, so that every answer is the same: every text on
    the table, after each step, is the same."""
    from tests.companion.test_app_gui import read_dumps, run

    first = events_of(CASES)[:1 + len(PLAYERS)]  # the deal and the five cases
    other = next(cs for cs in alternatives(1) if told_alike(first + TURNS, cs, 1) == len(first) + len(TURNS))
    texts = {}
    for name, cases in (("true", CASES), ("other", other)):
        folder = tmp_path / name
        folder.mkdir()
        d = {n: str(folder / f"{n}.json") for n in ("entered", "t1", "t2", "t3", "t4", "undone", "history")}
        steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
        steps += [{"text": [f"new.p{n}", p]} for n, p in enumerate(PLAYERS, start=1)]
        steps += [{"tap": "new_start"}, {"tap": "deal_table"}]
        for district in pi.city(pi_database()).districts:
            steps += [{"tap": f"tile_{e or 'none'}"} for e in EXAMPLE_TILES[district]]
        steps += [{"tap": f"display_{e}"} for e in EXAMPLE_DISPLAY] + [{"tap": "deal_confirm"}]
        for i, case in enumerate(cases[0]):
            steps += [{"tap": f"case_{i}"}, *({"tap": f"case_{e}"} for e in case), {"tap": "case_confirm"}]
        steps.append({"dump": d["entered"]})
        for n, event in enumerate(TURNS, start=1):
            steps += [*turn_taps(event), {"dump": d[f"t{n}"]}]
        steps += [{"tap": "undo"}, {"dump": d["undone"]}, {"tap": "history"}, {"dump": d["history"]}, {"quit": True}]
        run(folder, steps, timeout=200)
        texts[name] = {n: (dump["texts"], dump["summary"]["events"]) for n, dump in read_dumps(d).items()}
    assert texts["true"]["t4"][1] == len(first) + len(TURNS)  # every turn was taken
    assert texts["true"] == texts["other"]


def test_the_game_over_header_does_not_repeat_the_result():
    """The result stands once, in bold, as the table's first line; the header (one line, cut when long) only
    says the game is over (a real-window play showed the sentence twice, the second cut through)."""
    s = replayed(events_of(CASES))
    table = Table.__new__(Table)
    table.session, table.pad, table.screen = s, PiPad(s), Frame()
    summary = s.summary(None)
    assert summary["phase"] == "over"
    assert table.scoreline(summary) == "Game over · 3 mini-games played"
    assert "(s)" not in summary["result"]["why"] and "(ies)" not in summary["result"]["why"]
