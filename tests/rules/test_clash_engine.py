"""The Clash referee on worked examples: the rulebook's own (Holmes 8 against Moriarty 3), and ours for
every step of a Stage, the Final Turn, the Summary, the endings, effects and agents; illegal plays are
refused with the rule's words."""

from __future__ import annotations

import pytest

from casebook.rules.cards import load_database
from casebook.rules.engine import IllegalAction
from casebook.rules.games import clash as c
from casebook.rules.log import replay as c_replay

ANN, BEN = "Ann", "Ben"  # Ann plays Holmes, Ben Moriarty
PLAN = ["lady_vale", "kidnapping", "crimson_sapphire"]  # victim in thread 1, felony in 2, object in 3


@pytest.fixture(scope="module")
def db():
    return load_database("clash")


def game(db, variants=(), plan=PLAN):
    state = c.new_state(db, {"players": [ANN, BEN], "holmes": ANN, "variants": list(variants)})
    c.apply(state, {"action": "plan", "by": BEN, "plan": list(plan)})
    return state


def run(state, *events):
    for event in events:
        c.apply(state, event)
    return state


def setup(state, site, holmes, moriarty):
    """Reveal a site and place both Initial Setups ((card, thread) x 3 each), first player first."""
    run(state, {"action": "site", "by": ANN, "site": site})
    order = [(ANN, holmes), (BEN, moriarty)] if state.first == "holmes" else [(BEN, moriarty), (ANN, holmes)]
    for k in range(3):
        for who, cards in order:
            c.apply(state, {"action": "setup", "by": who, "card": cards[k][0], "thread": cards[k][1]})
    return state


def plays(state, *moves):
    """Turns of the mandatory action alone: (player, card, thread) each, then the turn ends."""
    for who, card, thread in moves:
        run(state, {"action": "play", "by": who, "card": card, "thread": thread}, {"action": "end", "by": who})
    return state


def skip_final_turn(state):
    """Both players place their four Action Cards in thread 1 and skip every one of them."""
    first = state.name(state.first)
    second = ANN if first == BEN else BEN
    for card in c.ACTION_CARDS:
        for who in (first, second):
            c.apply(state, {"action": "place", "by": who, "card": card, "thread": 1})
    for card in c.ACTION_CARDS:
        for who in (first, second):
            c.apply(state, {"action": "reveal", "by": who, "card": card, "take": "skip"})
    return state


def refused(state, event, *words):
    with pytest.raises(IllegalAction) as exc:
        c.apply(state, event)
    for word in words:
        assert word in str(exc.value), str(exc.value)
    return str(exc.value)


def test_the_rulebook_example_holmes_8_against_moriarty_3_moves_the_token_to_5_and_reveals(db):
    # Holmes: 1 (Support Card) + 2 (a used card) + 3 + 2 (upright cards) = 8; Moriarty one card of 3
    state = setup(game(db), "waterloo_station",
                  holmes=[("interrogation", 1), ("informant", 1), ("keen_eye", 1)],
                  moriarty=[("intimidation", 1), ("paid_informer", 2), ("coded_message", 3)])
    assert state.tables["holmes"].hand == 5 and state.tables["holmes"].deck == 12  # 5, 3 placed, 3 drawn
    run(state, {"action": "use", "by": ANN, "card": "A Keen Eye"},  # its cancel finds no used card: no target
        {"action": "support", "by": ANN, "thread": 1},
        {"action": "play", "by": ANN, "card": "telegram", "thread": 2},
        {"action": "end", "by": ANN})
    assert c.thread_totals(state, 0) == {"holmes": 8, "moriarty": 3}
    assert c.summary(state)["threads"][0]["advantage"] == 5
    plays(state, (BEN, "bribery", 3), (ANN, "tailing", 3))
    assert state.last_turn == "moriarty"  # Holmes is at Waterloo's limit of 5: Moriarty takes one last turn
    plays(state, (BEN, "red_herring", 2))
    assert state.phase == "final_place"
    hours = state.hours
    skip_final_turn(state)
    first = state.conclusions[0][0]
    assert (first.holmes, first.moriarty, first.outcome) == (8, 3, "revealed")
    assert state.revealed == [True, False, False]
    # Lady Honoria Vale turns the clock back 1 hour; thread 2: Moriarty 2+1 v Holmes 1 (+1 hour); thread 3:
    # Moriarty 1+3 v Holmes 2 (+1 hour)
    assert [k.outcome for k in state.conclusions[0]] == ["revealed", "hour", "hour"]
    assert hours == 0 and state.hours == 0 + 2  # Waterloo adds no hour; the clock cannot go back before its start
    assert state.phase == "site" and state.first == "moriarty"  # archived; the First Player Card passes
    assert state.tables["holmes"].support == [1, 0, 0] and state.tables["holmes"].in_play() == 0


def test_a_lead_of_1_or_2_puts_a_deduction_token_and_a_second_reveals(db):
    state = setup(game(db), "waterloo_station",
                  holmes=[("informant", 1), ("telegram", 2), ("telegram", 3)],
                  moriarty=[("coded_message", 1), ("paid_informer", 2), ("paid_informer", 3)])
    plays(state, (ANN, "false_trail", 2), (BEN, "coded_message", 3), (ANN, "racing_the_clock", 3), (BEN, "red_herring", 2))
    skip_final_turn(state)
    # thread 1: 2 v 1 (a token); thread 2: 1+1 v 2+1 (+1 hour); thread 3: 1+1 v 2+1 (+1 hour)
    assert [k.outcome for k in state.conclusions[0]] == ["deduction", "hour", "hour"]
    assert state.deductions == [1, 0, 0] and state.hours == 0 + 2  # Waterloo Station adds no hour
    summary = c.summary(state)
    assert summary["threads"][0]["deduction"] == 1 and summary["threads"][0]["plan"] == "lady_vale"
    assert c.view(state, 0)["threads"][0]["plan"] is None  # Holmes does not see a hidden thread's card
    assert c.view(state, 1)["threads"][0]["plan"] == "lady_vale"
    # Stage 2: Moriarty starts; Holmes leads thread 1 by 1 again: the second token reveals it
    setup(state, "hyde_park", holmes=[("cross_examination", 1), ("keen_eye", 2), ("tailing", 3)],
          moriarty=[("bribery", 1), ("stopped_clock", 2), ("sleight_of_hand", 3)])
    assert state.first == "moriarty" and state.active == "moriarty"
    run(state, {"action": "support", "by": BEN, "thread": 2},
        {"action": "play", "by": BEN, "card": "hired_muscle", "thread": 3}, {"action": "end", "by": BEN},
        {"action": "support", "by": ANN, "thread": 1},
        {"action": "play", "by": ANN, "card": "yard_help", "thread": 2}, {"action": "end", "by": ANN},
        {"action": "play", "by": BEN, "card": "master_stroke", "thread": 2}, {"action": "end", "by": BEN})
    assert state.last_turn == "holmes"
    plays(state, (ANN, "keen_eye", 3))
    skip_final_turn(state)
    # thread 1: 3 + 1 v 3; thread 2: 2+2 v 1+4+1 (1 hour); thread 3: 2+2 v 2+2 (no advantage)
    assert [(k.holmes, k.moriarty, k.outcome) for k in state.conclusions[1]] == \
        [(4, 3, "revealed"), (4, 6, "hour"), (4, 4, "none")]
    assert state.revealed == [True, False, False] and state.deductions == [0, 0, 0]


def test_moriarty_adds_one_hour_for_a_lead_of_1_or_2_and_two_for_3_or_more(db):
    state = setup(game(db), "hyde_park",
                  holmes=[("telegram", 1), ("telegram", 2), ("informant", 3)],
                  moriarty=[("master_stroke", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "false_trail", 3), (BEN, "coded_message", 3), (ANN, "racing_the_clock", 3), (BEN, "stopped_clock", 3))
    skip_final_turn(state)
    # thread 1: 1 v 4 (2 hours); thread 2: 1 v 2 (1 hour); thread 3: 2+1+1 v 1+1+1 (a token)
    assert [k.outcome for k in state.conclusions[0]] == ["two_hours", "hour", "deduction"]
    assert state.hours == 0 + 3  # Hyde Park adds no hour


def test_three_endings(db):
    state = game(db)
    state.hours, state.revealed = 11, [True, True, False]
    state.phase = "over"  # a finished game refuses every event with the ending
    state.winner, state.why = "moriarty", "Ben (Moriarty) wins"
    refused(state, {"action": "site", "by": ANN, "site": "hyde_park"}, "End of the game", "the game is over")
    for hours, revealed, winner in [(11, [True] * 3, "holmes"), (12, [True] * 3, "draw"), (13, [True] * 3, "draw"),
                                    (12, [True, True, False], "moriarty"), (11, [True, True, False], None)]:
        state = game(db)
        state.hours, state.revealed = hours, revealed
        c._archive(state)
        assert state.winner == winner, (hours, revealed)
        assert (state.phase == "over") == (winner is not None)
    assert "unresolved duel" in c.result(_ended(db, 12))["why"]
    assert c.result(_ended(db, 11))["winner"] == ANN


def _ended(db, hours):
    state = game(db)
    state.hours, state.revealed = hours, [True] * 3
    c._archive(state)
    return state


def test_the_last_thread_revealed_with_the_clock_at_12_exactly_is_a_draw(db):
    state = setup(game(db), "waterloo_station",
                  holmes=[("interrogation", 1), ("informant", 1), ("keen_eye", 1)],
                  moriarty=[("intimidation", 2), ("paid_informer", 2), ("coded_message", 3)])
    state.revealed = [False, True, True]
    state.hours = 12  # the summary reveals thread 1 (Lady Vale would turn the clock back: use the felony plan)
    state.plan = ["kidnapping", "lady_vale", "crimson_sapphire"]
    plays(state, (ANN, "telegram", 1), (BEN, "bribery", 1), (ANN, "tailing", 1), (BEN, "red_herring", 3))
    skip_final_turn(state)
    # thread 1: 3+2+2+1+2 = 10 v 3: revealed; threads 2 and 3 (0 v 5, 0 v 2) add 3 hours, but the crime is out
    assert state.revealed == [True] * 3 and state.winner == "draw" and state.hours == 15
    assert c.result(state)["decided_by"] == "draw" and c.result(state)["winner"] is None


def test_moriarty_wins_at_the_archiving_once_12_hours_have_passed(db):
    state = setup(game(db), "hyde_park",
                  holmes=[("telegram", 1), ("telegram", 2), ("informant", 3)],
                  moriarty=[("master_stroke", 1), ("paid_informer", 2), ("coded_message", 3)])
    state.hours = 11
    plays(state, (ANN, "false_trail", 3), (BEN, "coded_message", 3), (ANN, "racing_the_clock", 3), (BEN, "stopped_clock", 3))
    skip_final_turn(state)
    assert state.winner == "moriarty" and "threads 1, 2 and 3 still hidden" in state.why
    assert c.is_over(state) and c.result(state)["winner"] == BEN


def test_the_clock_starts_at_12_and_cannot_go_back_before_it(db):
    state = game(db)
    assert c.clock_text(state.hours) == "12 o'clock" and state.hours == 0
    c._clock(state, -1)
    assert state.hours == 0
    run(state, {"action": "site", "by": ANN, "site": "covent_garden"})
    assert state.hours == 1 and c.summary(state)["clock"] == {"hours": 1, "shows": "1 o'clock", "left": 11}
    state.hours = 12
    assert c.summary(state)["clock"]["shows"] == "12 o'clock (12 hours passed)"


def test_initial_setup_alternates_and_hides_the_cards_until_revealed(db):
    state = run(game(db), {"action": "site", "by": ANN, "site": "waterloo_station"})
    refused(state, {"action": "setup", "by": BEN, "card": "bribery", "thread": 1}, "Initial Setup", "Ann's turn")
    run(state, {"action": "setup", "by": ANN, "card": "informant", "thread": 2})
    assert c.view(state, 1)["threads"][1]["holmes"]["cards"] == [{"id": None, "name": "face down"}]
    assert c.view(state, 0)["threads"][1]["holmes"]["cards"][0]["name"] == "Street Informant"
    refused(state, {"action": "play", "by": BEN, "card": "bribery", "thread": 1}, "the Initial Setup is on")


def test_the_turn_rules_mandatory_optional_and_the_limit(db):
    state = setup(game(db), "whitechapel",  # no Support Cards at Whitechapel, limit 5
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    refused(state, {"action": "end", "by": ANN}, "The mandatory action", "must first put one Influence Card")
    refused(state, {"action": "play", "by": BEN, "card": "bribery", "thread": 1}, "Turns", "Ann's turn")
    refused(state, {"action": "support", "by": ANN, "thread": 1}, "Whitechapel Alleys", "No Support Card")
    run(state, {"action": "draw", "by": ANN}, {"action": "draw", "by": ANN})
    refused(state, {"action": "draw", "by": ANN}, "The optional actions",
            "both optional Action Cards showing 'Draw one Influence Card'")
    run(state, {"action": "use", "by": ANN, "card": "informant"})  # draws 1
    refused(state, {"action": "use", "by": ANN, "card": "telegram"}, "all three optional Action Cards")
    assert state.tables["holmes"].hand == 8
    run(state, {"action": "play", "by": ANN, "card": "interrogation", "thread": 1})
    refused(state, {"action": "play", "by": ANN, "card": "interrogation", "thread": 1}, "used this turn already")
    run(state, {"action": "end", "by": ANN}, {"action": "play", "by": BEN, "card": "bribery", "thread": 1},
        {"action": "end", "by": BEN}, {"action": "play", "by": ANN, "card": "tailing", "thread": 1})
    refused(state, {"action": "play", "by": ANN, "card": "tailing", "thread": 1}, "used this turn already")
    run(state, {"action": "end", "by": ANN})
    assert state.last_turn == "moriarty" and state.tables["holmes"].in_play() == 5


def test_a_card_whose_copies_are_all_seen_cannot_be_played(db):
    state = setup(game(db), "waterloo_station",
                  holmes=[("telegram", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    refused(state, {"action": "play", "by": ANN, "card": "Urgent Telegram", "thread": 1},
            "All plays are public", "all 2 copies are seen (thread 1 and thread 2)")
    refused(state, {"action": "play", "by": ANN, "card": "Telegramm", "thread": 1}, "did you mean 'telegram'")


def test_the_limit_reached_by_both_players_gives_one_last_turn_only(db):
    state = setup(game(db), "embankment",  # limit 4
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "interrogation", 1))
    assert state.last_turn == "moriarty"
    run(state, {"action": "play", "by": BEN, "card": "bribery", "thread": 1})
    refused(state, {"action": "play", "by": BEN, "card": "bribery", "thread": 1}, "used this turn already")
    run(state, {"action": "end", "by": BEN})
    assert state.phase == "final_place" and state.active == "holmes"


def test_both_hands_empty_start_the_final_turn(db):
    state = setup(game(db), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    state.tables["holmes"].hand, state.tables["holmes"].deck = 0, 17
    state.tables["moriarty"].hand, state.tables["moriarty"].deck = 0, 17
    run(state, {"action": "end", "by": ANN})  # no card in hand: the mandatory action ends the turn
    assert state.phase == "final_place"


def test_the_final_turn_places_secretly_and_reveals_alternately_in_the_card_s_thread(db):
    state = setup(game(db), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "cross_examination", 3), (BEN, "hired_muscle", 3))
    refused(state, {"action": "place", "by": BEN, "card": "play", "thread": 1}, "Plan in secret", "Ann's turn")
    places = [(ANN, "use_support", 3), (BEN, "draw_use", 3), (ANN, "play", 1), (BEN, "play", 2),
              (ANN, "draw_use", 1), (BEN, "use_support", 1), (ANN, "draw_support", 2), (BEN, "draw_support", 2)]
    for who, card, thread in places[:2]:
        run(state, {"action": "place", "by": who, "card": card, "thread": thread})
    refused(state, {"action": "place", "by": ANN, "card": "Use or Support", "thread": 2}, "placed that Action Card")
    for who, card, thread in places[2:]:
        run(state, {"action": "place", "by": who, "card": card, "thread": thread})
    assert c.view(state, 0)["final_turn"]["moriarty"][0] == {"thread": 3, "card": None, "revealed": False}
    refused(state, {"action": "reveal", "by": BEN, "card": "play", "take": "skip"}, "Ann's turn to reveal")
    # Holmes' Use or Support lies in thread 3: Cross-examination there is used (Moriarty 2 lower in thread 3)
    run(state, {"action": "reveal", "by": ANN, "card": "use_support", "take": "use", "influence": "cross_examination"})
    assert c.thread_totals(state, 2) == {"holmes": 2 + 3, "moriarty": 1 + 2 - 2}
    refused(state, {"action": "reveal", "by": BEN, "card": "draw_use", "take": "support"}, "shows draw or use")
    run(state, {"action": "reveal", "by": BEN, "card": "draw_use", "take": "use", "influence": "hired_muscle"})
    assert state.tables["moriarty"].support[2] == 1  # Hired Muscle puts a Support Card in its thread
    refused(state, {"action": "reveal", "by": ANN, "card": "play", "take": "play", "influence": "informant"},
            "The Influence Card Limit")  # Holmes is at the Embankment's limit of 4
    run(state, {"action": "reveal", "by": ANN, "card": "play", "take": "skip"})


def test_effects_move_cancel_recall_discard_and_weaken(db):
    state = setup(game(db), "covent_garden",  # limit 6, hands of 6
                  holmes=[("false_trail", 1), ("tailing", 2), ("brilliant_deduction", 3)],
                  moriarty=[("bribery", 1), ("sleight_of_hand", 2), ("intimidation", 3)])
    assert state.tables["holmes"].hand == 6
    refused(state, {"action": "use", "by": ANN, "card": "false_trail"}, "the effect needs a target")
    refused(state, {"action": "use", "by": ANN, "card": "false_trail", "target": "bribery", "to": 1},
            "another Crime Thread than 1")
    run(state, {"action": "use", "by": ANN, "card": "false_trail", "target": "bribery", "to": 3})
    assert [p.id for p in state.tables["moriarty"].threads[2]] == ["intimidation", "bribery"]
    run(state, {"action": "use", "by": ANN, "card": "brilliant_deduction", "target": "tailing", "target_thread": 2})
    assert state.tables["holmes"].hand == 7 and state.tables["holmes"].threads[1] == []
    plays(state, (ANN, "cross_examination", 3))
    # Moriarty cancels nothing lasting yet; Holmes' used cards are A False Trail and Brilliant Deduction
    run(state, {"action": "use", "by": BEN, "card": "bribery"})  # Holmes 2 lower in thread 3 (where it was moved)
    before = c.thread_totals(state, 2)
    run(state, {"action": "use", "by": BEN, "card": "intimidation", "discarded": "informant"})
    assert state.tables["holmes"].discard == {"informant": 1} and state.tables["holmes"].hand == 5
    assert c.thread_totals(state, 2)["moriarty"] == before["moriarty"] - 3 + 2  # Intimidation now counts 2
    plays(state, (BEN, "shadow_man", 1))
    run(state, {"action": "use", "by": ANN, "card": "cross_examination"})
    plays(state, (ANN, "keen_eye", 3))
    run(state, {"action": "use", "by": BEN, "card": "sleight_of_hand", "target": "cross_examination"})
    holmes = state.tables["holmes"].threads[2]
    assert [p.distracted for p in holmes if p.id == "cross_examination"] == [True]
    # Holmes: Brilliant Deduction 2 + Cross-examination 3 + A Keen Eye 2, less Bribery's 2; Moriarty: Intimidation 2
    # + Bribery 3, and the cancelled Cross-examination no longer lowers it
    assert c.thread_totals(state, 2) == {"holmes": 2 + 3 + 2 - 2, "moriarty": 2 + 3}
    refused(state, {"action": "use", "by": BEN, "card": "shadow_man", "target": "bribery", "to": 3},
            "another Crime Thread than 3")


def test_a_card_moved_to_a_revealed_thread_counts_there_and_a_lead_there_gives_no_token(db):
    state = setup(game(db), "waterloo_station",
                  holmes=[("false_trail", 1), ("informant", 2), ("informant", 2)],
                  moriarty=[("bribery", 1), ("coded_message", 2), ("coded_message", 3)])
    state.revealed = [False, True, False]
    run(state, {"action": "use", "by": ANN, "card": "false_trail", "target": "bribery", "to": 2},
        {"action": "play", "by": ANN, "card": "telegram", "thread": 1}, {"action": "end", "by": ANN},
        {"action": "play", "by": BEN, "card": "stopped_clock", "thread": 3}, {"action": "end", "by": BEN},
        {"action": "play", "by": ANN, "card": "telegram", "thread": 2}, {"action": "end", "by": ANN},
        {"action": "play", "by": BEN, "card": "red_herring", "thread": 3}, {"action": "end", "by": BEN})
    skip_final_turn(state)
    # thread 1: 2+1 v 0 (revealed); thread 2 (revealed already): 2+2+1 v 1+3, no token; thread 3: 0 v 1+1+1
    assert [(k.holmes, k.moriarty, k.outcome) for k in state.conclusions[0]] == \
        [(3, 0, "revealed"), (5, 4, "revealed_already"), (0, 3, "two_hours")]
    assert state.deductions == [0, 0, 0]


def test_crime_plan_effects_on_reveal(db):
    state = setup(game(db, plan=["banker_quill", "arson", "vault_keys"]), "hyde_park",
                  holmes=[("interrogation", 1), ("interrogation", 2), ("brilliant_deduction", 3)],
                  moriarty=[("coded_message", 2), ("paid_informer", 3), ("paid_informer", 1)])
    run(state, {"action": "support", "by": ANN, "thread": 3}, {"action": "support", "by": ANN, "thread": 2},
        {"action": "play", "by": ANN, "card": "telegram", "thread": 1}, {"action": "end", "by": ANN},
        {"action": "support", "by": BEN, "thread": 2},
        {"action": "play", "by": BEN, "card": "coded_message", "thread": 1}, {"action": "end", "by": BEN},
        {"action": "play", "by": ANN, "card": "telegram", "thread": 1}, {"action": "end", "by": ANN},
        {"action": "play", "by": BEN, "card": "stopped_clock", "thread": 1}, {"action": "end", "by": BEN})
    hand = state.tables["holmes"].hand
    skip_final_turn(state)
    # 1: 3+1+1 v 2+1 (token); 2: 3+1 v 1+1 (token); 3: 4+1 v 2: revealed, the Bank Vault Keys clear Holmes' support
    assert [k.outcome for k in state.conclusions[0]] == ["deduction", "deduction", "revealed"]
    assert state.tables["holmes"].support == [0, 1, 0] and state.tables["holmes"].discard_unseen == 1
    assert state.tables["holmes"].hand == hand


def test_agents_cost_support_cards_and_act_once(db):
    state = setup(game(db, variants=["agents"]), "waterloo_station",
                  holmes=[("interrogation", 1), ("informant", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    assert state.tables["holmes"].agent_here and state.tables["holmes"].agent_deck == 3
    run(state, {"action": "support", "by": ANN, "thread": "agent"})
    refused(state, {"action": "activate", "by": ANN, "agent": "lestrade", "thread": 1}, "costs 2 Support Cards")
    run(state, {"action": "support", "by": ANN, "thread": "agent"},
        {"action": "activate", "by": ANN, "agent": "Inspector Lestrade", "thread": 1})
    assert c.thread_totals(state, 0)["holmes"] == 3 + 2
    refused(state, {"action": "activate", "by": ANN, "agent": "irene_adler"}, "no face-down Agent")
    refused(state, {"action": "activate", "by": BEN, "agent": "silas_crane"}, "only on their own turn")
    plays(state, (ANN, "telegram", 2), (BEN, "bribery", 1), (ANN, "telegram", 3), (BEN, "hired_muscle", 1))
    skip_final_turn(state)
    t = state.tables["holmes"]
    assert t.agent_discard == ["lestrade"] and t.agent_support == 0 and t.discard_unseen == 2 and not t.agent_here
    assert c.problems(state) == []
    run(state, {"action": "site", "by": ANN, "site": "hyde_park"})
    assert state.tables["holmes"].agent_here and state.tables["holmes"].agent_deck == 2
    assert state.tables["moriarty"].agent_here and state.tables["moriarty"].agent_deck == 3  # kept his


def test_bad_events_name_the_place_and_the_fix(db):
    state = c.new_state(db, {"players": [ANN, BEN]})
    refused(state, {"action": "site", "by": ANN, "site": "hyde_park"}, "first Ben (Moriarty) lays the crime plan")
    refused(state, {"action": "plan", "by": ANN, "plan": PLAN}, "Ben (Moriarty) prepares the crime")
    refused(state, {"action": "plan", "by": BEN, "plan": ["lady_vale", "banker_quill", "arson"]},
            "one victim, one felony and one object")
    refused(state, {"action": "dance", "by": BEN}, "unknown action 'dance'")
    refused(state, {"action": ["plan"], "by": BEN}, "unknown action")  # not a traceback: a list is no action
    with pytest.raises(IllegalAction, match="exactly 2 players"):
        c.new_state(db, {"players": [ANN]})
    with pytest.raises(IllegalAction, match="unknown variant"):
        c.new_state(db, {"players": [ANN, BEN], "variants": ["dogs"]})
    state = game(db)
    run(state, {"action": "site", "by": ANN, "site": "hyde_park"})
    assert "Hyde Park at Dawn" in state.history[-1]


def refusal(state, event):
    """The refusal of an event (its rule and words); the test fails if the event is accepted."""
    with pytest.raises(IllegalAction) as exc:
        c.apply(state, event)
    return exc.value


def test_a_refusal_names_the_rule_a_player_would_look_up_and_says_true_things(db):
    """Issue 20, item 15: a play in the Final Turn is refused by the Final Turn's rules, not turn_mandatory;
    a third Use is refused because the two optional cards that show Use are used (turn_optional: each card
    shows two of the three actions, so each action shows on two cards), not "all three"."""
    from pathlib import Path

    from tests.rules.logfiles import read_log

    # the referee's log: both hands empty, the Final Turn; Ann reveals Into Play with no card in hand
    referee = Path(__file__).resolve().parents[1] / "data" / "logs" / "clash" / "referee"
    out = c_replay(db, read_log(referee / "i11_play_from_empty_hand.yaml"))
    assert out.error is not None and out.error.event_no == 30
    assert out.error.rule.id == "final_reveal", str(out.error)
    assert "no card in hand" in out.error.reason and "skip" in out.error.reason
    # a play event of the Course while the Action Cards are placed, then revealed: the Final Turn's rules
    state = out.state
    assert refusal(state, {"action": "play", "by": ANN, "card": "keen_eye", "thread": 1}).rule.id == "final_reveal"
    state = setup(game(db), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "cross_examination", 3), (BEN, "hired_muscle", 3))
    assert state.phase == "final_place"
    for action in ({"action": "play", "by": ANN, "card": "telegram", "thread": 1}, {"action": "draw", "by": ANN},
                   {"action": "end", "by": ANN}, {"action": "site", "by": ANN, "site": "hyde_park"}):
        assert refusal(state, action).rule.id == "final_place", action

    # a third Use: two optional Action Cards show Use, both are turned
    state = setup(game(db), "whitechapel",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    run(state, {"action": "use", "by": ANN, "card": "informant"}, {"action": "use", "by": ANN, "card": "telegram"})
    third = refusal(state, {"action": "use", "by": ANN, "card": "keen_eye"})
    assert third.rule.id == "turn_optional"
    assert "all three" not in third.reason and "both optional Action Cards showing 'Use" in third.reason, third.reason

    # how many players: a rule of its own (the rulebook: "a two-player card game")
    with pytest.raises(IllegalAction) as three:
        c.new_state(db, {"players": [ANN, BEN, "Cat"]})
    assert three.value.rule.id == "setup_players"

    # a draw with deck and discard pile empty: the rule on an empty Influence deck says "you draw nothing"
    state = setup(game(db), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    state.tables["holmes"].deck, state.tables["holmes"].discard = 0, {}
    assert refusal(state, {"action": "draw", "by": ANN}).rule.id == "start_reshuffle"


def test_agent_and_waterloo_refusals_cite_their_own_rulings(db):
    state = setup(game(db, variants=["agents"]), "waterloo_station",
                  holmes=[("interrogation", 1), ("informant", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    run(state, {"action": "support", "by": ANN, "thread": "agent"}, {"action": "support", "by": ANN, "thread": "agent"},
        {"action": "activate", "by": ANN, "agent": "lestrade", "thread": 1})
    plays(state, (ANN, "telegram", 2), (BEN, "bribery", 1))
    # Lestrade is active: no face-down Agent left to put a Support Card under (agents_support)
    no_agent = refusal(state, {"action": "support", "by": ANN, "thread": "agent"})
    assert no_agent.rule.id == "agents_support" and "no face-down Agent" in no_agent.reason
    plays(state, (ANN, "telegram", 3), (BEN, "hired_muscle", 1))
    assert state.phase == "final_place"
    # Ben's Agent lies face down; placing Action Cards is nobody's turn to activate one (faq_agent_activation)
    state.tables["moriarty"].agent_support = 3
    early = refusal(state, {"action": "activate", "by": BEN, "agent": "silas_crane"})
    assert early.rule.id == "faq_agent_activation" and "when it is theirs to reveal" in early.reason
    for card in c.ACTION_CARDS:
        for who in (ANN, BEN):
            c.apply(state, {"action": "place", "by": who, "card": card, "thread": 1})
    run(state, {"action": "reveal", "by": ANN, "card": "play", "take": "skip"},
        {"action": "reveal", "by": BEN, "card": "play", "take": "skip"})
    # Waterloo Station in the Final Turn: its own ruling says the Draw may not be taken there either
    waterloo = refusal(state, {"action": "reveal", "by": ANN, "card": "draw_use", "take": "draw"})
    assert waterloo.rule.id == "faq_waterloo_final_draw", str(waterloo)


def test_every_rule_the_engine_names_is_an_entry_of_the_rules(db):
    entries = {r.id for r in db.rules} | {f.id for f in db.faq}
    named = {v.id for v in vars(c).values() if isinstance(v, c.Rule)}
    named |= {r.id for r in c.R_ENDS.values()}
    assert named and named <= entries, named - entries


def test_an_unknown_card_discarded_at_archiving_cites_archiving(db):
    state = setup(game(db), "embankment",
                  holmes=[("informant", 1), ("telegram", 2), ("keen_eye", 3)],
                  moriarty=[("bribery", 1), ("paid_informer", 2), ("coded_message", 3)])
    plays(state, (ANN, "cross_examination", 3), (BEN, "hired_muscle", 3))
    skip_final_turn(state)
    assert state.phase == "site"
    assert refusal(state, {"action": "discard", "by": ANN, "cards": ["Telegramm"]}).rule.id == "archiving"
