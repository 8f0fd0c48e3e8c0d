"""Random whole games of P.I. (three mini-games, seeded deals, random legal turns): the engine never
refuses a legal turn or crashes, every state is consistent, undo (a replayed prefix) restores the state
exactly, logs round-trip through YAML and JSON, and no player's view holds another player's case."""

from __future__ import annotations

import random

import pytest

from casebook.rules.games import pi
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems
from tests.rules.test_pi_support import pi_database

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]


@pytest.fixture(scope="module")
def db():
    return pi_database()


def random_game(db, seed: int) -> tuple[GameLog, list[dict]]:
    """A whole game played by random players who solve right more often the longer they play."""
    rng = random.Random(seed)
    players = NAMES[:rng.randint(2, 5)]
    state = pi.new_state(db, {"players": players, "seed": seed})
    events, views = [], []
    c = pi.city(db)
    while not pi.is_over(state):
        if state.phase == "deal":
            event: dict = {"action": "deal"}
        else:
            who = state.current
            name = players[who]
            case = state.cases[state.holder(who)]
            choices = ["solve"]
            if state.investigators_left[who]:
                choices.append("investigate")
            if state.display:
                choices += ["evidence"] * 2
            if len(choices) == 1 and rng.random() < 0.3:
                choices.append("pass")
            kind = rng.choice(choices)
            if kind == "solve" and rng.random() > 0.15 + 0.1 * state.turns[who]:
                kind = "evidence" if state.display else kind
            if kind == "investigate":
                event = {"action": "investigate", "by": name, "district": rng.choice(c.districts)}
            elif kind == "evidence":
                event = {"action": "evidence", "by": name, "card": rng.choice(state.display)}
            elif kind == "pass":
                event = {"action": "pass", "by": name}
            else:
                right = rng.random() < 0.7
                named = list(case) if right else [rng.choice(c.suspects), rng.choice(c.crimes), rng.choice(c.districts)]
                event = {"action": "solve", "by": name, **dict(zip(pi.KINDS, named, strict=True))}
                if rng.random() < 0.02:
                    event = {"action": "misled", "by": name}
            if kind == "pass" and pi.check(state, event) is not None:
                event = {"action": "solve", "by": name, **dict(zip(pi.KINDS, case, strict=True))}
        pi.apply(state, event)  # a legal turn is never refused
        assert pi.problems(state) == [], (seed, len(events))
        events.append(event)
        views.append({p: pi.view(state, i) for i, p in enumerate(players)})
        assert len(events) < 2000
    return GameLog("pi", 1, players, seed=seed, events=events), views


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_with_a_result(db, seed):
    log, _ = random_game(db, seed)
    result = replay(db, log)
    assert result.error is None, str(result.error)
    out = pi.result(result.state)
    assert out["over"] and (out["winner"] in log.players or len(out["winners"]) > 1)
    assert all(len(p) == 3 and None not in p for p in result.state.points)
    assert all(0 <= n <= pi.INVESTIGATORS for n in result.state.investigators_left)


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_undo_is_a_replayed_prefix(db, seed):
    log, _ = random_game(db, seed)
    state = pi.new_state(db, log.header())
    for k, event in enumerate(log.events, start=1):
        pi.apply(state, event)
        if k % 7 == 0 or k == len(log.events):
            again = replay(db, log, until=k).state
            assert pi.summary(again) == pi.summary(state)
            assert [pi.view(again, p) for p in range(len(log.players))] == \
                [pi.view(state, p) for p in range(len(log.players))]
            assert again.markers == state.markers and again.deck == state.deck


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("as_json", [False, True])
def test_logs_round_trip(db, seed, as_json):
    log, _ = random_game(db, seed)
    text = format_log(log, as_json=as_json)
    problems = Problems()
    back = parse_log(text, "game.yaml", problems)
    assert back is not None, problems.format()
    assert back.events == log.events and back.seed == log.seed
    assert pi.summary(replay(db, back).state) == pi.summary(replay(db, log).state)


def _strings(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_a_view_never_holds_another_players_case(db, seed):
    log, views = random_game(db, seed)
    state = pi.new_state(db, log.header())
    for event, seen in zip(log.events, views, strict=True):
        pi.apply(state, event)
        public = pi.summary(state)
        for p, name in enumerate(log.players):
            mine = seen[name]
            assert {k: v for k, v in mine.items() if k not in ("case", "case_for")} == public
            if state.phase in ("cases", "play"):
                case = state.cases[p]
                assert mine["case"] == (None if case is None else
                                        {k: pi.city(db).name[e] for k, e in zip(pi.KINDS, case, strict=True)})
        # the public summary holds no case of the mini-game in play, unless solved on the board
        assert "case" not in public
