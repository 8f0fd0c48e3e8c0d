"""Random legal games: never crash, undo (replaying a prefix) restores the state exactly,
a log written and read back replays to the same state, and views keep secrets."""

from __future__ import annotations

import copy
import random
import re

import pytest

from casebook.rules.games import graves as g
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems

RANKS = [2, 3, 4, 5, 6, 7, 8, 9, "A"]


def _deck(db, state, who):
    deck = "detective" if who == state.case.detective else "mastermind"
    return db.components[deck].cards


def _try(state, event):
    return g.check(state, event) is None


def random_event(db, state, rng):
    """A legal event for whoever is to act (the rules engine itself judges legality)."""
    players = state.players
    if state.phase == "deal":
        ids = sorted(c.id for c in db.components["locations"].cards)
        return {"action": "deal", "by": players[0], "locations": rng.sample(ids, 5)}
    if state.phase == "identity":
        return {"action": "identity", "by": players[state.case.mastermind],
                "identity": rng.choice([c.id for c in db.components["identities"].cards])}
    if state.phase == "unmasking":
        if rng.random() < 0.3:
            event = {"action": "reveal", "by": players[state.case.mastermind]}
            if _try(state, event):
                return event
        return {"action": "guess", "by": players[state.case.detective],
                "identity": rng.choice([c.id for c in db.components["identities"].cards])}
    who = state.to_act
    me = players[who]
    loc = state.location
    on_table = {c for lc in state.locations for c in lc.piles[who]}
    hand = [c for c in _deck(db, state, who) if (c["rank"], c["suit"]) not in on_table]
    name = lambda c: f"{c['rank']} {c['suit']}"  # noqa: E731
    if loc.kind == "reveal_top_card" and not all(loc.revealed):  # the Bank Vault's reveal comes first
        who = loc.revealed.index(False)
        if rng.random() < 0.1:
            return {"action": "reveal_top", "by": players[who], "empty": True}
        table = {c for lc in state.locations for c in lc.piles[who]}
        deck = [c for c in _deck(db, state, who) if (c["rank"], c["suit"]) not in table]
        return {"action": "reveal_top", "by": players[who], "card": name(rng.choice(deck))}
    roll = rng.random()
    if not loc.started and roll < 0.3:
        for event in ({"action": "reveal_top", "by": me, "card": name(rng.choice(hand))},
                      {"action": "slums", "by": me, "here": rng.choice([-1, 0, 1]), "next": rng.choice([-1, 0, 1])}):
            if _try(state, event):
                return event
    if roll < 0.12 and not state.abilities_used:
        able = [c for c in hand if c.get("ability") and c["ability"]["timing"] == "discarded"]
        if able:
            card = rng.choice(able)
            event = {"action": "ability", "by": me, "card": name(card)}
            if card["ability"]["effect"]["kind"] in ("discard_from_opponent_pile", "take_back"):
                owner = 1 - who if card["ability"]["effect"]["kind"] == "discard_from_opponent_pile" else who
                if not loc.piles[owner]:
                    return {"action": "pass", "by": me}
                rank, suit = rng.choice(loc.piles[owner])
                event["target"] = f"{rank} {suit}"
            if _try(state, event):
                return event
    if roll < 0.35 and not state.abilities_used:
        return {"action": "pass", "by": me}
    for _ in range(6):
        suit = rng.choice(list(db.suits))
        pool = [c for c in hand if c["suit"] in (suit, loc.trump)]
        if not pool:
            continue
        chosen = rng.sample(pool, min(len(pool), rng.randint(1, 3)))
        event = {"action": "play", "by": me, "cards": [name(c) for c in chosen]}
        if rng.random() < 0.5 and any(c["rank"] == 2 for c in chosen):
            event["change_trump"] = True
        if loc.kind == "park_discard":
            event["discards"] = sum(1 for c in chosen if c["suit"] != loc.trump and g.card_value(c["rank"]) >= 6)
        if _try(state, event):
            return event
    return {"action": "play", "by": me, "cards": []} if state.abilities_used else {"action": "pass", "by": me}


def random_game(db, seed):
    rng = random.Random(seed)
    variants = rng.choice([[], ["single_case"], ["knows_all"], ["life_is_pain"], ["long_haul"]])
    setup = {"detective": rng.choice(["Ann", "Ben"]), "cases": 4 if variants == ["long_haul"] else None}
    if rng.random() < 0.5:
        setup["identity"] = rng.choice([c.id for c in db.components["identities"].cards])
    log = GameLog("graves", 1, ["Ann", "Ben"], variants, seed=seed, setup={k: v for k, v in setup.items() if v})
    state = g.new_state(db, log.header())
    snapshots = [copy.deepcopy(state)]
    while not g.is_over(state) and len(log.events) < 1500:
        event = random_event(db, state, rng)
        g.apply(state, event)  # a legal event must never be refused, nor crash
        log.events.append(event)
        snapshots.append(copy.deepcopy(state))
        assert not g.problems(state), g.problems(state)
    return log, state, snapshots


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_games_finish_and_replay(graves_db, seed):
    log, state, snapshots = random_game(graves_db, seed)
    assert g.is_over(state), f"seed {seed}: not over after {len(log.events)} events"
    # replaying the log gives the same state
    assert replay(graves_db, log).state == state
    # undo: replaying any prefix restores that earlier state exactly
    rng = random.Random(seed)
    for n in rng.sample(range(len(snapshots)), min(8, len(snapshots))):
        assert replay(graves_db, log, until=n).state == snapshots[n]
    # the log survives being written and read back, as YAML and as JSON
    for as_json in (False, True):
        problems = Problems()
        again = parse_log(format_log(log, as_json), "game.log", problems)
        assert again is not None, problems.format()
        assert again.events == log.events and again.header() == log.header()
        assert replay(graves_db, again).state == state
    # scores add up: every case's points are its evidence and unmasking points
    for case in state.done:
        assert sum(case.points) == sum(case.evidence_points) + sum(case.unmask_points)


@pytest.mark.parametrize("seed", range(6))
def test_the_detective_never_sees_the_hidden_identity(graves_db, seed):
    log, _, snapshots = random_game(graves_db, 100 + seed)
    for state in snapshots:
        case = state.case
        if case.identity is None or case.guess is not None or case.revealed_early or state.phase == "over":
            continue
        seen = g.view(state, case.detective)
        seen["case"].pop("possible_masterminds", None)
        assert seen["case"]["identity"] is None
        assert case.identity not in repr(seen["case"])
        assert g.view(state, case.mastermind)["case"]["identity"] == case.identity
        # evidence noted by one player is not shown to the other
        other = g.view(state, case.detective)["case"]["evidence_noted"]
        assert set(other) == {state.players[case.detective]}


@pytest.mark.parametrize("seed", range(6))
def test_history_lines_name_things_and_keep_the_identity_hidden_until_shown(graves_db, seed):
    """Every event of a random game is told by name (no id), and the Mastermind's name appears in no line
    before the unmasking shows it (a guess, an early reveal, or the identity card shown after a guess)."""
    log, _, snapshots = random_game(graves_db, 200 + seed)
    names = {c.id: c["name"] for c in graves_db.components["identities"].cards}
    for i, event in enumerate(log.events):
        before, after = snapshots[i], snapshots[i + 1]
        line = g.describe(before, event, after)
        assert line == g.describe(before, event), "the state after is worked out the same way when left out"
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), line
        shown = event["action"] in ("guess", "reveal") or (event["action"] == "identity"
                                                           and before.phase == "identity")
        secret = before.case.identity or (event.get("identity") if event["action"] == "identity" else None)
        if secret and not shown:
            assert names[secret] not in line, line
