"""Random whole games of The Syndicate, dealt and played with real hands by a simulation that
knows nothing of the engine's bookkeeping: the engine never refuses a legal play, its hand,
draw-pile and discard counts match the real ones, undo (a replayed prefix) restores the state
exactly, and logs round-trip through YAML and JSON."""

from __future__ import annotations

import copy
import random

import pytest

from casebook.rules.games import syndicate as s
from casebook.rules.log import GameLog, format_log, parse_log, replay
from casebook.rules.problems import Problems

PLAYERS = ["Ann", "Ben", "Cat"]


def _follows(lead, card) -> bool:
    """The table's rule, written again here: a shared mark; for an Ace lead, the Ace's suit."""
    if lead["rank"] == "A":
        return lead["suits"][0] in card["suits"]
    return bool(set(lead["marks"]) & set(card["marks"]))


def simulate(db, seed: int, max_turns: int = 120):
    """Deal and play a whole game with real hands; yield (event, the real table) after each plot."""
    rng = random.Random(seed)
    cards = {c.id: c for c in db.components["decktet"].cards}
    pile = sorted(cards)
    rng.shuffle(pile)
    hands = [[pile.pop() for _ in range(n)] for n in (5, 4, 3)]
    discard: list[str] = []
    reshuffles = 0
    mastermind = 0
    for turn in range(1, max_turns + 1):
        if turn > 1:
            while len(hands[mastermind]) < 5:
                hands[mastermind].append(pile.pop())
                if not pile:  # depleted: the discards become the new draw pile at once
                    pile, discard = discard, []
                    rng.shuffle(pile)
                    reshuffles += 1
        hand = hands[mastermind]
        lead = hand.pop(rng.randrange(len(hand)))
        face_down = hand.pop(rng.randrange(len(hand))) if rng.random() < 0.4 else None
        enforcers = {}
        for p in ((mastermind + 1) % 3, (mastermind + 2) % 3):
            must = [c for c in hands[p] if _follows(cards[lead], cards[c])]
            card = rng.choice(must or hands[p])
            hands[p].remove(card)
            enforcers[PLAYERS[p]] = card
        played = [lead, *([face_down] if face_down else []), *enforcers.values()]
        discard += played

        def name(cid):  # vary the notation: id, name, or rank and suit
            c = cards[cid]
            return rng.choice([cid, c["name"], f"{c['rank']} {rng.choice(c['suits'])}"])

        event = {"action": "plot", "by": PLAYERS[mastermind], "lead": name(lead),
                 "enforcers": {p: name(c) for p, c in enforcers.items()}}
        if face_down:
            event["face_down"] = name(face_down)
        yield event, {"hands": [len(h) for h in hands], "pile": len(pile), "discard": set(discard),
                      "reshuffles": reshuffles, "held": [set(h) for h in hands]}
        mastermind = (mastermind + 1) % 3


@pytest.mark.parametrize("seed", range(16))
def test_random_games_follow_the_real_table(syndicate_db, seed):
    state = s.new_state(syndicate_db, {"players": PLAYERS})
    events = []
    for event, table in simulate(syndicate_db, seed):
        s.apply(state, event)  # a legal play is never refused
        events.append(event)
        assert state.hands == table["hands"]
        assert state.draw_pile == table["pile"]
        assert set(state.discard) == table["discard"]
        assert state.reshuffles == table["reshuffles"]
        assert s.problems(state) == []
        if s.is_over(state):
            break
    assert s.is_over(state), "a random game did not end in 120 turns"
    scores = sorted(state.scores, reverse=True)
    assert scores[0] >= 12 and scores[0] > scores[1]
    # points per plot, added up by hand, are the scores
    totals = [0, 0, 0]
    for p in state.plots:
        mine, theirs = p.totals
        if mine > theirs:
            totals[p.mastermind] += 1 if p.face_down else 2
        elif theirs > mine:
            for who, _ in p.enforcers:
                totals[who] += 1
    assert totals == state.scores

    log = GameLog("syndicate", 1, PLAYERS, events=events)
    # undo: any prefix replays to the state the game had then
    for n in sorted(random.Random(seed).sample(range(len(events) + 1), 4)):
        again = replay(syndicate_db, GameLog("syndicate", 1, PLAYERS, events=events[:n])).state
        step = s.new_state(syndicate_db, {"players": PLAYERS})
        for e in events[:n]:
            s.apply(step, e)
        assert s.summary(again) == s.summary(step)
    # the log written and read back (YAML and JSON) replays to the same end
    for as_json in (False, True):
        problems = Problems()
        back = parse_log(format_log(log, as_json=as_json), "game.yaml", problems)
        assert back is not None, problems.format()
        assert s.summary(replay(syndicate_db, back).state) == s.summary(state)


def test_check_never_changes_the_state(syndicate_db):
    state = s.new_state(syndicate_db, {"players": PLAYERS})
    for event, _ in simulate(syndicate_db, 99):
        before = copy.deepcopy(state)
        assert s.check(state, event) is None
        assert s.check(state, {**event, "by": "Nobody"}) is not None
        assert s.summary(state) == s.summary(before)
        s.apply(state, event)
        if s.is_over(state):
            break


@pytest.mark.parametrize("seed", range(16))
def test_what_the_engine_rules_out_is_never_in_a_real_hand(syndicate_db, seed):
    """unplayable() infers from the plays alone (discards, reshuffles since a player drew, failures to
    follow); for each coming enforcer, none of it may be a card the real table has in their hand."""
    state = s.new_state(syndicate_db, {"players": PLAYERS})
    ruled_out = 0
    for event, table in simulate(syndicate_db, seed):
        s.apply(state, event)
        if s.is_over(state):
            break
        for p in range(3):
            if p != state.mastermind:  # an enforcer's hand does not change before they play
                gone = set(s.unplayable(state, p))
                assert not gone & table["held"][p], (state.turn, PLAYERS[p], gone & table["held"][p])
                ruled_out += len(gone)
    assert ruled_out > 0
