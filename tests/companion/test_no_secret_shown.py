"""The shared screen never tells the table more than the physical game would: whole simulated games walked
through the app's own session (no window), the secrets known to the test, undone events included.

Two ways of looking. A secret's own words (a Mastermind's identity) must not appear in what the table reads.
And, stronger, the same game with the secrets dealt otherwise must read the same, word for word: History,
every refusal of a probe event, the start screen's line and (Hasty) the table's whole summary, until the
physical game would tell (the unmasking; a murder or an exposed owner)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from casebook.companion.history import history
from casebook.companion.progress import progress_line, standing, statistics_line
from casebook.companion.session import Session
from casebook.companion.tables.graves.pad import GravesPad
from casebook.companion.tables.hasty.pad import HastyPad
from casebook.rules.cards import load_database
from casebook.rules.engine import Event
from casebook.rules.games import hasty as h
from casebook.rules.log import GameLog


def history_texts(session: Session) -> list[str]:
    return [text for g in history(session) for text in (g.heading, g.title, *(f"{line.number}. {line.text}"
                                                                              for line in g.lines))]


def start_line(session: Session) -> list[str]:
    st = standing(session.db, session.log)
    return [progress_line(st, len(session.log.events)), statistics_line(session.db.short_title, [st])]


def refusals(session: Session, probes: list[Event]) -> list[str]:
    return [str(session.check(p)) for p in probes]


# --- Detective Graves: the Mastermind's identity ----------------------------------------------------

IDENTITIES = {"a": ("odile_varnier", "livia_marchbank"), "b": ("ezra_hollowmere", "thaddeus_wrenlow")}
WRONG = "josiah_tumbrel"  # the Detective's guess in each case: wrong in both games


def graves_session(tmp_path, which: str) -> Session:
    db = load_database("graves")
    log = GameLog("graves", db.rules_version, ["Ann", "Ben"], [], 2026,
                  {"detective": "Ann", "colours": ["blue", "vermillion"], "identity": IDENTITIES[which][0]})
    return Session.new(db, log, None)  # nothing saved: the start line reads the log itself


def graves_move(session: Session) -> Event | None:
    """The next event of a plain game: each player plays one card at each location (the Detective a 9, the
    Mastermind a 5, of the location's own suit in the row's order), then both pass; The Bank Vault's decks
    are said empty; the Detective notes an evidence card won. None at the unmasking (the test guesses)."""
    st = session.state
    p = st.players
    if st.phase != "play":
        return None
    loc = st.location
    who = st.to_act
    if loc.kind == "reveal_top_card" and not all(loc.revealed):
        return {"action": "reveal_top", "by": p[loc.revealed.index(False)], "empty": True}
    case = st.case
    if len(case.notes[case.detective]) < case.evidence_won[case.detective]:
        evidence = sorted(c.id for c in session.db.components["evidence"].cards)
        return {"action": "note_evidence", "by": p[case.detective], "evidence": evidence[len(case.notes[case.detective])]}
    if not loc.piles[who]:
        suit = list(session.db.suits)[st.active % len(session.db.suits)]
        play: Event = {"action": "play", "by": p[who], "cards": [f"{'9' if who == case.detective else '5'} {suit}"]}
        if loc.kind == "park_discard":
            play["discards"] = 0
        if session.check(play) is None:
            return play
    return {"action": "pass", "by": p[who]}


def graves_probes(session: Session) -> list[Event]:
    """Events a player might try at any moment: each refused (or not) the same whoever the Mastermind is."""
    st = session.state
    p, case = st.players, st.case
    det, mm = p[case.detective], p[case.mastermind]
    ids = [c.id for c in session.db.components["identities"].cards]
    out: list[Event] = [{"action": "guess", "by": mm, "identity": i} for i in ids]
    out += [{"action": "identity", "by": mm, "identity": i} for i in ids]
    out += [{"action": "identity", "by": det, "identity": ids[0]}, {"action": "reveal", "by": det},
            {"action": "note_evidence", "by": mm, "evidence": "evidence_01"}, {"action": "pass", "by": "Nobody"}]
    if st.phase != "play":
        out += [{"action": "guess", "by": det, "identity": i} for i in ids]  # not applied: only checked
    return out


def graves_seen(session: Session) -> list[str]:
    pad = GravesPad(session)
    return [*history_texts(session), *start_line(session), *refusals(session, graves_probes(session)),
            pad.selection_text()]


def test_a_whole_graves_game_tells_no_identity_before_its_unmasking(tmp_path):
    games = {w: graves_session(tmp_path, w) for w in IDENTITIES}
    for number in (1, 2):
        while True:
            moves = {w: graves_move(s) for w, s in games.items()}
            assert moves["a"] == moves["b"]  # the same game at the table
            if moves["a"] is None:
                break
            for w, s in games.items():
                out = s.do(moves[w])
                assert out.ok, out.message
                assert not any(IDENTITIES[w][number - 1].split("_")[0].title() in t for t in graves_seen(s))
            if number == 1:
                assert graves_seen(games["a"]) == graves_seen(games["b"])
            if len(games["a"].log.events) % 7 == 3:  # now and then undone: what the table sees keeps no trace
                assert all(s.undo() for s in games.values())
                for w, s in games.items():
                    assert not any(IDENTITIES[w][number - 1].split("_")[0].title() in t for t in graves_seen(s))
                if number == 1:
                    assert graves_seen(games["a"]) == graves_seen(games["b"])
                assert all(s.redo() for s in games.values())
        for w, s in games.items():
            pad = GravesPad(s)
            secret = IDENTITIES[w][number - 1]
            name = secret.split("_")[0].title()
            pad.ask_guess(secret)  # the right name, tapped, then cancelled: it leaves no trace
            pad.clear()
            seen = graves_seen(s) + [pad.guess_question()]
            assert not any(name in t for t in seen), [t for t in seen if name in t]
            pad.ask_guess(WRONG)
            assert pad.confirm_guess().ok
            # answered, the guess cannot be undone to guess again (the table has seen the identity)
            assert not s.undo() and s.locked == len(s.log.events)
        if number == 1:
            # the first case is over: its Mastermind is public now (History says who it was); Ann, the Mastermind
            # of case 2, enters her identity card at the table, unseen
            for w, s in games.items():
                assert s.do({"action": "identity", "by": "Ann", "identity": IDENTITIES[w][1]}).ok
                told = "\n".join(history_texts(s))
                assert IDENTITIES[w][0].split("_")[0].title() in told
                assert IDENTITIES[w][1].split("_")[0].title() not in told
    for s in games.values():
        assert s.is_over


# --- Hasty Accusations: each player's secret suspect ----------------------------------------------

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def hasty_game(seed: int) -> tuple[dict[str, Any], list[Event]]:
    """A whole simulated 4-player game with the Traitor (base and advanced sets), as the app records it: a card
    played face down is not named until it is revealed."""
    db = load_database("hasty")
    setup = {"players": PLAYERS, "variants": ["traitor"], "sets": ["base", "advanced"], "seed": seed}
    rng = random.Random(seed)
    state, events = h.simulate(db, setup, [h.Chooser(rng) for _ in PLAYERS], rng)
    assert h.is_over(state)
    fresh = h.new_state(db, setup)
    secrets = {PLAYERS[p]: fresh.secrets[p] for p in range(len(PLAYERS))}
    row = list(fresh.row)
    as_recorded = []
    for event in events:
        if event["action"] == "play" and fresh.row.index(h.suspect_id(fresh, event["at"])) != fresh.loupe:
            event = {k: v for k, v in event.items() if k != "card"}
        h.apply(fresh, event)
        as_recorded.append(event)
    return {"sets": ["base", "advanced"], "row": row, "secrets": secrets}, as_recorded


def hasty_session(tmp_path, setup: dict[str, Any], name: str) -> Session:
    db = load_database("hasty")
    log = GameLog("hasty", db.rules_version, list(PLAYERS), ["traitor"], None, dict(setup))
    return Session.new(db, log, None)


def hidden(state: h.State) -> list[int]:
    """The players whose secret the table cannot know yet: still in, never exposed."""
    return [p for p in range(len(state.players)) if not state.out[p] and p not in state.exposed]


def hasty_probes(state: h.State) -> list[Event]:
    """Tries a player might make: a card barred from (or bound to) its player's own suspect on every pile,
    and 'can't play' with it."""
    if state.phase != "play":
        return []
    who = state.players[state.active]
    out: list[Event] = []
    for cid, card in h.actions(state.db).items():
        if card.restriction not in ("must_own", "cant_own") or not set(card.sets) & set(state.sets):
            continue
        for i, sid in enumerate(state.row):
            play: Event = {"action": "play", "by": who, "at": sid, "card": cid}  # named even face down: checked
            if i == state.loupe and card.choice == "target":
                play["target"] = next((s for s in state.row if s != sid), sid)
            out.append(play)
        out.append({"action": "stuck", "by": who, "card": cid})
    return out


def hasty_seen(session: Session) -> list[Any]:
    pad = HastyPad(session)
    return [*history_texts(session), *start_line(session), *refusals(session, hasty_probes(session.state)),
            pad.prompt(), session.summary(None)]


def swapped(setup: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    secrets = dict(setup["secrets"])
    secrets[a], secrets[b] = secrets[b], secrets[a]
    return {**setup, "secrets": secrets}


@pytest.mark.parametrize("seed", [3])
def test_a_whole_hasty_game_reads_the_same_whoever_holds_which_suspect(tmp_path, seed):
    setup, events = hasty_game(seed)
    true = hasty_session(tmp_path, setup, "true")
    other: Session | None = None
    pair: tuple[int, int] | None = None
    compared = 0
    for n, event in enumerate(events):
        state = true.state
        if other is None or pair is None or not set(pair) <= set(hidden(state)):
            # a new game that differs only in two secrets nobody at the table can know yet
            free = hidden(state)
            other, pair = None, None
            if len(free) >= 2 and not h.is_over(state):
                pair = (free[n % len(free)], free[(n + 1) % len(free)])  # the Traitor's among them in turn
                other = hasty_session(tmp_path / str(n), swapped(setup, PLAYERS[pair[0]], PLAYERS[pair[1]]), "other")
                for earlier in events[:n]:
                    assert other.do(earlier).ok
        if n % 9 == 4:  # now and then the event is recorded, undone, and recorded again
            for s in filter(None, (true, other)):
                assert s.do(event).ok and s.undo()
            if other is not None:
                assert hasty_seen(true) == hasty_seen(other), f"after undoing event {n + 1}"
                compared += 1
        out = true.do(event)
        assert out.ok, out.message
        if other is not None:
            assert other.do(event).ok
            if pair is not None and set(pair) <= set(hidden(true.state)) and not h.is_over(true.state):
                assert hasty_seen(true) == hasty_seen(other), f"after event {n + 1}: {true.history()[-1]}"
                compared += 1
    assert true.is_over and compared > len(events) // 3


def test_every_label_of_the_graves_table_reads_the_same_whoever_the_mastermind_is(tmp_path):
    """In the real app, twice, with Ben's identity card Odile Varnier or Ezra Hollowmere: every text on the table,
    after entering it, through case 1, at the unmasking, after a right guess asked and cancelled, and in History,
    is the same."""
    pytest.importorskip("kivy")
    from tests.companion.test_app_gui import location_steps, new_game_steps, read_dumps, run

    texts = {}
    for identity in ("odile_varnier", "ezra_hollowmere"):
        folder = tmp_path / identity
        folder.mkdir()
        d = {n: str(folder / f"{n}.json") for n in ("entered", "midway", "unmask", "undone", "history")}
        steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": f"identity_{identity}"}, {"dump": d["entered"]}]
        steps += location_steps()[:12] + [{"dump": d["midway"]}] + location_steps()[12:]
        steps += [{"dump": d["unmask"]}, {"tap": f"guess_{identity}"}, {"tap": "guess_no"},
                  {"dump": d["undone"]}, {"tap": "history"}, {"dump": d["history"]}, {"quit": True}]
        run(folder, steps)
        texts[identity] = {n: dump["texts"] for n, dump in read_dumps(d).items()}
    assert texts["odile_varnier"] == texts["ezra_hollowmere"]
    assert not any("Hundred Faces" in t or "Spinner" in t for t in texts["odile_varnier"]["history"])
