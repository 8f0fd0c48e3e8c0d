"""Random whole games of Clash of Minds, played with real shuffled decks by a simulation that keeps every
hand: the engine never refuses a legal play, its deck counts match the real decks, undo (a replayed
prefix) restores the state exactly, check never changes the state, and logs round-trip."""

from __future__ import annotations

import copy
import random

import pytest

from casebook.rules.cards import load_database
from casebook.rules.games import clash as c
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems

PLAYERS = ["Ann", "Ben"]


@pytest.fixture(scope="module")
def db():
    return load_database("clash")


class Checked(c.Player):
    """A random player that checks, before each choice, that the referee's counts are the real table's."""

    def __init__(self, rng):
        super().__init__(rng)

    def choose(self, state, side, options):
        assert options, "a player always has a legal option"
        for event, _ in self.rng.sample(options, min(3, len(options))):
            assert c.check(state, event) is None, (event, c.check(state, event))
        return super().choose(state, side, options)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_and_follow_the_real_table(db, seed):
    rng = random.Random(seed)
    variants = ["agents"] if seed % 2 else []
    setup = {"players": PLAYERS, "variants": variants}
    players = {"holmes": Checked(rng), "moriarty": Checked(rng)}
    if seed % 3 == 0:
        players["moriarty"] = c.GreedyPlayer(rng)
    state, events = c.simulate(db, setup, players, rng)
    assert c.is_over(state) and state.winner in ("holmes", "moriarty", "draw")
    assert c.problems(state) == []
    assert state.stage <= 12  # every Stage moves the clock on at least one hour
    result = c.result(state)
    if state.winner == "holmes":
        assert all(state.revealed) and state.hours < 12
    elif state.winner == "moriarty":
        assert not all(state.revealed) and state.hours >= 12
    else:
        assert all(state.revealed) and state.hours >= 12 and result["winner"] is None

    log = GameLog("clash", 1, PLAYERS, variants, events=events)
    end = c.summary(state)
    # undo: any prefix replays to the state the game had then, step by step or by replay
    for n in sorted(random.Random(seed).sample(range(len(events) + 1), 4)):
        again = replay(db, GameLog("clash", 1, PLAYERS, variants, events=events[:n]))
        assert again.error is None, str(again.error)
        step = c.new_state(db, setup)
        for event in events[:n]:
            c.apply(step, event)
        assert c.summary(again.state) == c.summary(step)
        assert c.problems(step) == []
    for as_json in (False, True):
        problems = Problems()
        back = parse_log(format_log(log, as_json=as_json), "game.yaml", problems)
        assert back is not None, problems.format()
        assert c.summary(replay(db, back).state) == end


def test_the_real_decks_match_the_referee_s_counts(db, monkeypatch):
    """The simulation's hidden table and the referee agree after every event of several games."""
    real_sync = c._sync
    checks = []

    def checked_sync(state, hidden, rng):
        real_sync(state, hidden, rng)
        for side in c.SIDES:
            t = state.tables[side]
            assert len(hidden.hands[side]) == t.hand
            assert len(c._pool(state, hidden, side)) == t.deck
            assert [len(s) for s in hidden.support[side]] == t.support
            assert len(hidden.agent_support[side]) == t.agent_support
            assert not state.agents_mode or len(hidden.agent_deck[side]) == t.agent_deck
        checks.append(state.events)

    monkeypatch.setattr(c, "_sync", checked_sync)
    longest = 0
    for seed in range(40):  # with agents: games of 5 Stages or more shuffle the agent discards into a new deck
        rng = random.Random(100 + seed)
        checks.clear()
        state, events = c.simulate(db, {"players": PLAYERS, "variants": ["agents"] if seed % 4 else []},
                                   {"holmes": c.Player(rng), "moriarty": c.Player(rng)}, rng)
        assert checks == list(range(1, len(events) + 1)) and c.is_over(state)
        longest = max(longest, state.stage if seed % 4 else 0)
    assert longest >= 5


def test_check_never_changes_the_state_and_refuses_strangers(db):
    rng = random.Random(7)
    state, events = c.simulate(db, {"players": PLAYERS}, {"holmes": c.Player(rng), "moriarty": c.Player(rng)}, rng)
    step = c.new_state(db, {"players": PLAYERS})
    for event in events:
        before = copy.deepcopy(step)
        assert c.check(step, event) is None
        assert c.check(step, {**event, "by": "Nobody"}) is not None
        assert c.summary(step) == c.summary(before)
        described = c.describe(step, event)
        c.apply(step, event)
        assert described == step.history[-1]
    assert c.summary(step) == c.summary(state)


JUNK = [None, [], {}, [1], {"a": 1}, -1, 0, 4, 1.5, True, "", "x" * 300, "1", "agent", "skip", "play", "Ann",
        "keen_eye", "hyde_park", ["lady_vale", "kidnapping", "crimson_sapphire"]]
FIELDS = ["action", "by", "card", "thread", "site", "plan", "target", "target_thread", "to", "discarded", "influence",
          "take", "agent", "cards"]


@pytest.mark.parametrize("seed", range(2))
def test_any_field_garbled_is_refused_or_accepted_never_a_crash(db, seed):
    """Every event of a real game, with one field replaced by junk or dropped: check says why (or accepts it),
    and describe tells it, without raising."""
    rng = random.Random(seed)
    variants = ["agents"] if seed else []
    _, events = c.simulate(db, {"players": PLAYERS, "variants": variants},
                           {"holmes": c.Player(rng), "moriarty": c.Player(rng)}, rng)
    state = c.new_state(db, {"players": PLAYERS, "variants": variants})
    refused = 0
    for event in events:
        for _ in range(4):
            bad = {**event, rng.choice(FIELDS): rng.choice(JUNK)}
            if rng.random() < 0.3:
                bad.pop(rng.choice(list(bad)))
            refused += c.check(state, bad) is not None
            assert isinstance(c.describe(state, bad), str)
        c.apply(state, event)
    assert refused > len(events)  # most garbled events are refused, with a reason
