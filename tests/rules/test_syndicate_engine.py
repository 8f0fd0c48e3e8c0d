"""The Syndicate's rules engine: the rulebook's two worked examples, then each rule on its own."""

from __future__ import annotations

import pytest

from casebook.rules.engine import IllegalAction
from casebook.rules.games import syndicate as s
from casebook.rules.log import GameLog, replay

PLAYERS = ["Ann", "Ben", "Cat"]


def new(db):
    return s.new_state(db, {"players": PLAYERS, "variants": [], "seed": None})


def plot(by, lead, enforcers, face_down=None):
    event = {"action": "plot", "by": by, "lead": lead, "enforcers": enforcers}
    if face_down is not None:
        event["face_down"] = face_down
    return event


def play(db, *events):
    state = new(db)
    for event in events:
        s.apply(state, event)
    return state


# --- the rulebook's examples ----------------------------------------------------------------

def test_rulebook_example_mark_lead_with_face_down_card(syndicate_db):
    """'The mastermind leads 8 [personality] and plays 2 [personality] face down. The first enforcer
    plays 9 [personality]. The second has no personalities and plays another type. 10 > 9: the plot
    succeeds' -- worth 1 point, because a face-down card was played."""
    state = play(syndicate_db, plot("Ann", "8 Diplomat", {"Ben": "9 Merchant", "Cat": "7 Castle"}, face_down="2 Author"))
    last = state.plots[-1]
    assert last.totals == (10, 9)
    assert last.outcome == "succeeds"
    assert state.scores == [1, 0, 0]
    assert [c.name for _, c, _ in last.counted] == ["Diplomat", "Author", "Merchant"]  # the Castle does not count


def test_rulebook_example_ace_lead_foiled(syndicate_db):
    """'The mastermind leads the Ace with no face-down card; the enforcers play a 4 and a 3 of its suit:
    7 > 1, the plot is foiled' -- each enforcer scores 1."""
    state = play(syndicate_db, plot("Ann", "A moons", {"Ben": "4 moons", "Cat": "3 moons"}))
    last = state.plots[-1]
    assert (last.lead.name, last.enforcers[0][1].name, last.enforcers[1][1].name) == ("Ace of Moons", "Mountain", "Journey")
    assert last.ace_value == 1
    assert last.totals == (1, 7)
    assert last.outcome == "foiled"
    assert state.scores == [0, 1, 1]


# --- counting -------------------------------------------------------------------------------

def test_success_without_face_down_card_scores_two(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Darkness", {"Ben": "7 Cave", "Cat": "5 Soldier"}))  # L lead; Soldier is P
    assert state.plots[-1].totals == (9, 7)
    assert state.scores == [2, 0, 0]


def test_face_down_card_that_does_not_count_still_makes_a_success_worth_one(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Darkness", {"Ben": "7 Cave", "Cat": "5 Soldier"}, face_down="3 Painter"))
    assert state.plots[-1].totals == (9, 7)
    assert state.scores == [1, 0, 0]


def test_equal_totals_score_nothing(syndicate_db):
    state = play(syndicate_db, plot("Ann", "7 Chance Meeting", {"Ben": "4 Battle", "Cat": "3 Journey"}))
    assert state.plots[-1].totals == (7, 7)
    assert state.plots[-1].outcome == "tie"
    assert state.scores == [0, 0, 0]
    assert state.mastermind == 1  # the turn still passes to the left


def test_crown_counts_ten(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "crown Calamity", "Cat": "2 Desert"}))  # E lead
    assert state.plots[-1].totals == (9, 10)
    assert state.scores == [0, 1, 1]


def test_two_mark_cards_share_either_mark_and_count_once(syndicate_db):
    # Origin (location + event) leads: the Cave (location) and the Journey (event) both count
    state = play(syndicate_db, plot("Ann", "2 Origin", {"Ben": "7 Cave", "Cat": "3 Journey"}))
    assert state.plots[-1].totals == (2, 10)
    # the Market (location + event) follows a location lead, and counts its 6 once
    state = play(syndicate_db, plot("Ann", "9 Darkness", {"Ben": "6 Market", "Cat": "5 Soldier"}))
    assert state.plots[-1].totals == (9, 6)


def test_aces_never_count_in_a_mark_plot(syndicate_db):
    state = play(syndicate_db, plot("Ann", "3 Savage", {"Ben": "A waves", "Cat": "A suns"}, face_down="A moons"))
    last = state.plots[-1]
    assert last.totals == (3, 0)
    assert state.scores == [1, 0, 0]


def test_ace_counts_eleven_with_its_crown(syndicate_db):
    # the Crown of the Ace's suit played face down: 11 + 10, the rulebook's unstoppable plot, 1 point
    state = play(syndicate_db, plot("Ann", "A waves", {"Ben": "9 Darkness", "Cat": "8 Mill"}, face_down="crown waves"))
    assert state.plots[-1].ace_value == 11
    assert state.plots[-1].totals == (21, 17)
    assert state.scores == [1, 0, 0]
    # played by an enforcer, the Crown counts 10 for the enforcers and still makes the Ace 11
    state = play(syndicate_db, plot("Ann", "A leaves", {"Ben": "crown End", "Cat": "2 Desert"}))
    assert state.plots[-1].ace_value == 11
    assert state.plots[-1].totals == (11, 10)
    assert state.scores == [2, 0, 0]


def test_ace_lead_counts_suit_not_marks(syndicate_db):
    # Ace of Knots: the Author (Moons/Knots) counts, the Journey (no Knots) does not, whatever its mark
    state = play(syndicate_db, plot("Ann", "A knots", {"Ben": "2 Author", "Cat": "3 Journey"}))
    assert state.plots[-1].totals == (1, 2)
    assert state.plots[-1].ace_value == 1


def test_preview_matches_the_resolved_plot(syndicate_db):
    state = new(syndicate_db)
    pv = s.preview(state, "A waves", "crown waves", ["9 Darkness", "8 Mill"])
    assert pv["totals"] == {"mastermind": 21, "enforcers": 17}
    assert pv["outcome"] == "succeeds" and pv["points"] == {"mastermind": 1, "each_enforcer": 0}
    assert state.plots == []  # a preview changes nothing


# --- turns, cards, refusals ------------------------------------------------------------------

def test_mastermind_rotates_left_and_enforcers_are_the_other_two(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    summary = s.summary(state)
    assert summary["mastermind"] == "Ben" and summary["enforcers"] == ["Cat", "Ann"]
    with pytest.raises(IllegalAction, match="Ben's turn"):
        s.apply(state, plot("Ann", "8 Mill", {"Ben": "7 Cave", "Cat": "6 Market"}))
    with pytest.raises(IllegalAction, match="Ben is not an enforcer"):
        s.apply(state, plot("Ben", "8 Mill", {"Ben": "7 Cave", "Cat": "6 Market"}))
    with pytest.raises(IllegalAction, match="no card for Ann"):
        s.apply(state, plot("Ben", "8 Mill", {"Cat": "6 Market"}))


def test_deal_sizes_and_the_draw_to_five(syndicate_db):
    state = new(syndicate_db)
    assert state.hands == [5, 4, 3] and state.draw_pile == 24
    s.apply(state, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}, face_down="5 Discovery"))
    assert state.hands == [3, 3, 2]
    assert s.summary(state)["next_draw"] == {"cards": 2, "reshuffle": False}  # Ben draws up to five
    s.apply(state, plot("Ben", "8 Mill", {"Cat": "7 Cave", "Ann": "6 Market"}))
    assert state.hands == [2, 4, 1] and state.draw_pile == 22


def test_a_card_in_the_discard_pile_is_refused_until_a_reshuffle(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    with pytest.raises(IllegalAction, match="Pact was played in turn 1 and is in the discard pile"):
        s.apply(state, plot("Ben", "9 Pact", {"Cat": "7 Cave", "Ann": "6 Market"}))
    with pytest.raises(IllegalAction, match="played twice"):
        s.apply(state, plot("Ben", "8 Mill", {"Cat": "8 Mill", "Ann": "6 Market"}))


def test_an_enforcer_who_did_not_follow_cannot_later_show_that_mark(syndicate_db):
    # turn 1: Cat plays the Desert (location) on an event lead: Cat has no event card
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    # turn 2: Cat, still without drawing, plays the Journey (an event): impossible
    with pytest.raises(IllegalAction, match="Follow the lead's mark: Cat did not follow the event lead in turn 1"):
        s.apply(state, plot("Ben", "8 Mill", {"Cat": "3 Journey", "Ann": "6 Market"}))
    # a location is fine for Cat; after Cat draws as mastermind, an event is fine again
    s.apply(state, plot("Ben", "8 Mill", {"Cat": "7 Cave", "Ann": "6 Market"}))
    s.apply(state, plot("Cat", "3 Journey", {"Ann": "5 Discovery", "Ben": "A moons"}))
    assert state.voids[2] == {}


def test_an_enforcer_void_in_an_ace_suit(syndicate_db):
    state = play(syndicate_db, plot("Ann", "A suns", {"Ben": "4 Mountain", "Cat": "3 Journey"}))  # Cat: no Suns
    with pytest.raises(IllegalAction, match="Follow the Ace's suit: Cat did not follow the Suns lead in turn 1"):
        s.apply(state, plot("Ben", "8 Mill", {"Cat": "8 Diplomat", "Ann": "7 Cave"}))


def test_end_at_twelve_and_simultaneous_twelfths(syndicate_db):
    state = new(syndicate_db)
    state.scores = [10, 11, 11]
    # Ann's plot is foiled: Ben and Cat both reach 12 together, so the game goes on
    s.apply(state, plot("Ann", "A moons", {"Ben": "4 moons", "Cat": "3 moons"}))
    assert state.scores == [10, 12, 12] and not s.is_over(state)
    # Ben succeeds with a face-down card: 13 against 12, Ben has the highest score alone
    s.apply(state, plot("Ben", "9 Darkness", {"Cat": "7 Cave", "Ann": "5 Soldier"}, face_down="2 Author"))
    assert s.is_over(state)
    assert s.result(state) == {"scores": {"Ann": 10, "Ben": 13, "Cat": 12}, "over": True,
                               "winner": "Ben", "decided_by": "score",
                               "why": "Ben wins with 13, the highest score alone at 12 or more (Ann 10, Cat 12)"}
    with pytest.raises(IllegalAction, match="the game is over: Ben has won"):
        s.apply(state, plot("Cat", "8 Mill", {"Ann": "7 Castle", "Ben": "6 Market"}))


def test_mastermind_reaching_twelve_wins_at_once(syndicate_db):
    state = new(syndicate_db)
    state.scores = [10, 11, 0]
    s.apply(state, plot("Ann", "9 Darkness", {"Ben": "7 Cave", "Cat": "5 Soldier"}))
    assert s.is_over(state) and s.result(state)["winner"] == "Ann"


@pytest.mark.parametrize("players, match", [
    (["Ann", "Ben"], "exactly 3 players, not 2"),
    (["Ann", "Ben", "Cat", "Dee"], "exactly 3 players, not 4"),
    (["Ann", "Ann", "Cat"], "different names"),
])
def test_setup_needs_three_players(syndicate_db, players, match):
    with pytest.raises(IllegalAction, match=match):
        s.new_state(syndicate_db, {"players": players})


def test_unknown_cards_and_fields_are_refused_with_what_to_write(syndicate_db):
    state = new(syndicate_db)
    with pytest.raises(IllegalAction, match="unknown card 'Dragon'"):
        s.apply(state, plot("Ann", "Dragon", {"Ben": "7 Cave", "Cat": "5 Soldier"}))
    with pytest.raises(IllegalAction, match="the Mill is rank 8, not 9"):
        s.apply(state, plot("Ann", "9 Mill", {"Ben": "7 Cave", "Cat": "5 Soldier"}))
    with pytest.raises(IllegalAction, match="unknown field"):
        s.apply(state, {**plot("Ann", "8 Mill", {"Ben": "7 Cave", "Cat": "5 Soldier"}), "facedown": "2 Author"})
    assert state.plots == [] and state.events == 0  # a refused event changes nothing


def test_replay_names_the_event_and_rule(syndicate_db):
    log = GameLog("syndicate", 1, PLAYERS, events=[
        plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}),
        plot("Ben", "9 Pact", {"Cat": "7 Cave", "Ann": "6 Market"}),
    ])
    result = replay(syndicate_db, log)
    assert result.applied == 1
    assert str(result.error).startswith("event 2 (Plot 2: Ben leads 9 Pact; Cat 7 Cave, Ann 6 Market): The discard pile:")


def test_card_names_in_every_notation(syndicate_db):
    names = {t: s.card_name(s.parse_card(syndicate_db, t)) for t in
             ["8 moons", "8 SUNS", "the Diplomat", "8 diplomat", "A Moons", "ace of waves", "Ace of Waves",
              "crown knots", "Crown Windfall", "Chance Meeting", "7 leaf", "windfall"]}
    assert names == {"8 moons": "8 Diplomat", "8 SUNS": "8 Diplomat", "the Diplomat": "8 Diplomat",
                     "8 diplomat": "8 Diplomat", "A Moons": "Ace of Moons", "ace of waves": "Ace of Waves",
                     "Ace of Waves": "Ace of Waves", "crown knots": "Crown Windfall",
                     "Crown Windfall": "Crown Windfall", "Chance Meeting": "7 Chance Meeting",
                     "7 leaf": "7 Chance Meeting", "windfall": "Crown Windfall"}


def test_the_draw_pile_emptied_exactly_is_reshuffled_at_once(syndicate_db):
    """FAQ faq_empty_draw_pile: the last card drawn exactly depletes the pile; shuffle at once."""
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    state.draw_pile, state.hands[1] = 2, 2  # Ben needs 3 and 2 are left: the pile runs out mid-draw
    assert s.next_draw(state) == {"cards": 3, "reshuffle": True}
    state.draw_pile = 3  # exactly 3 left: drawn to the last card, then the discards are shuffled
    s.apply(state, plot("Ben", "8 Mill", {"Cat": "7 Cave", "Ann": "6 Market"}))
    assert state.reshuffles == 1 and state.draw_pile == 3  # Pact, Battle, Desert became the new pile
    assert set(state.discard) == {"mill", "cave", "market"}


def test_a_reshuffled_card_is_out_of_reach_of_whoever_has_not_drawn_since(syndicate_db):
    """FAQ faq_reshuffled_card: enforcers never draw, so a card shuffled back into the draw pile is not
    in their hands; the mastermind who drew from the new pile may hold it."""
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    state.draw_pile, state.hands[1] = 2, 2  # Ben draws 2, the discards become the pile, Ben draws 1 more
    for enforcers, who in (({"Cat": "2 Desert", "Ann": "6 Market"}, "Cat"),
                           ({"Cat": "7 Cave", "Ann": "4 Battle"}, "Ann")):
        with pytest.raises(IllegalAction, match=f"shuffled into the draw pile in turn 2, and {who} has drawn "
                                                f"nothing since") as exc:
            s.apply(state, plot("Ben", "8 Mill", enforcers))
        assert exc.value.rule is not None and exc.value.rule.id == "faq_reshuffled_card"
    assert set(s.unplayable(state, 2)) >= {"pact", "battle", "desert"}
    assert not {"pact", "battle", "desert"} & set(s.unplayable(state, 1))  # Ben draws from the new pile
    s.apply(state, plot("Ben", "9 Pact", {"Cat": "7 Cave", "Ann": "6 Market"}))  # Ben drew it again: legal
    s.apply(state, plot("Cat", "2 Desert", {"Ann": "8 Mill", "Ben": "5 Forest"}))  # Cat has drawn since


def test_a_mastermind_who_drew_the_last_card_exactly_cannot_hold_the_reshuffled_cards(syndicate_db):
    state = play(syndicate_db, plot("Ann", "9 Pact", {"Ben": "4 Battle", "Cat": "2 Desert"}))
    state.draw_pile, state.hands[1] = 3, 2  # Ben draws the last 3; only then are the discards shuffled
    with pytest.raises(IllegalAction, match="Ben has drawn nothing since: it cannot be in Ben's hand"):
        s.apply(state, plot("Ben", "4 Battle", {"Cat": "7 Cave", "Ann": "6 Market"}))
    s.apply(state, plot("Ben", "8 Mill", {"Cat": "7 Cave", "Ann": "6 Market"}))
