"""Hasty Accusations property tests: random legal games with every variant and set never crash and always
end, their cards always add up, undo is a replay of a prefix, logs survive YAML and JSON, and no view shows
another player's secret suspect."""

from __future__ import annotations

import copy
import random

import pytest

from casebook.rules.games import hasty as h
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems

VARIANT_CHOICES = ["traitor", "powers", "big_hands", "no_safe_round"]


@pytest.fixture(scope="module")
def db():
    from casebook.rules.cards import load_database

    return load_database("hasty")


def random_setup(seed: int) -> dict:
    rng = random.Random(seed)
    n = 2 + seed % 6
    return {"players": [f"P{i + 1}" for i in range(n)], "seed": seed,
            "variants": rng.sample(VARIANT_CHOICES, rng.randrange(4)),
            "sets": rng.sample(["base", "advanced", "expert"], 1 + rng.randrange(3))}


def random_game(db, seed: int):
    setup = random_setup(seed)
    rng = random.Random(seed)
    return setup, *h.simulate(db, setup, [h.Chooser(rng) for _ in setup["players"]], rng)


def played(db, seed: int):
    """A random game replayed from its log: each event with the state it led to."""
    setup, _, events = random_game(db, seed)
    state = h.new_state(db, setup)
    for event in events:
        h.apply(state, event)
        yield event, state


@pytest.mark.parametrize("seed", range(40))
def test_random_legal_games_end_and_their_cards_add_up(db, seed):
    for event, state in played(db, seed):
        assert h.problems(state) == [], (event, state.said)
    assert h.is_over(state), state.history[-3:]
    res = h.result(state)
    assert res["why"] and set(res["winners"]) <= set(state.players)
    if res["winner"]:
        assert res["winner"] not in res["out"]


@pytest.mark.parametrize("seed", range(6))
def test_undo_is_replaying_a_prefix(db, seed):
    setup, _, events = random_game(db, seed)
    cut = len(events) // 2
    log = GameLog("hasty", 1, list(setup["players"]), list(setup["variants"]), setup["seed"],
                  {"sets": setup["sets"]}, events)
    undone = replay(db, log, until=cut).state
    fresh = h.new_state(db, log.header())
    for event in events[:cut]:
        h.apply(fresh, event)
    assert h.summary(undone) == h.summary(fresh)
    again = copy.deepcopy(undone)
    for event in events[cut:]:
        h.apply(again, event)
    assert h.summary(again) == h.summary(replay(db, log).state)


@pytest.mark.parametrize("as_json", [False, True])
def test_logs_round_trip_through_yaml_and_json(db, as_json):
    setup, state, events = random_game(db, 3)
    log = GameLog("hasty", 1, list(setup["players"]), list(setup["variants"]), setup["seed"],
                  {"sets": setup["sets"]}, events)
    problems = Problems()
    back = parse_log(format_log(log, as_json=as_json), "round.log", problems)
    assert back is not None, problems.format()
    assert back.events == events and back.header() == log.header()
    assert h.summary(replay(db, back).state) == h.summary(state)


@pytest.mark.parametrize("seed", range(8))
def test_no_view_shows_another_players_secret_suspect(db, seed):
    for _, state in played(db, seed):
        if h.is_over(state):
            break
        for viewer in range(len(state.players)):
            seen = h.view(state, viewer)
            for other in range(len(state.players)):
                if other == viewer or other in state.exposed or (viewer, other) in state.peeks:
                    continue
                secret = state.secrets[other]
                if secret in state.dead:
                    continue  # murdered: everyone saw it
                name = state.players[other]
                assert all(r["owner"] != name for r in seen["row"]), (viewer, other)
                assert name not in seen["known_secrets"]
                face_down = [e.card for s in state.row for e in state.piles[s] if not e.face_up and e.card]
                assert not any(h.actions(db)[c].name in seen["row"][i]["face_up"]
                               for i in range(len(state.row)) for c in face_down
                               if c not in [e.card for e in state.piles[state.row[i]] if e.face_up])


def test_every_event_is_told_the_same_with_or_without_the_state_after(db):
    setup, _, events = random_game(db, 11)
    state = h.new_state(db, setup)
    for event in events:
        told = h.describe(state, event)
        after = copy.deepcopy(state)
        h.apply(after, event)
        assert told == h.describe(state, event, after) and told
        state = after
