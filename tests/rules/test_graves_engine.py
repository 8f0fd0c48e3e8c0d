"""The Graves engine against the rulebook's worked examples and stated numbers, and FAQ rulings."""

from __future__ import annotations

import pytest

from casebook.rules.engine import IllegalAction
from casebook.rules.games import graves as g
from casebook.rules.log import GameLog, replay

ROW = ["station", "library", "palace_grounds", "record_office", "park"]


def new(graves_db, locations=ROW, **setup):
    return g.new_state(graves_db, {"players": ["Ann", "Ben"], "detective": "Ann", "locations": locations,
                                   "identity": "josiah_tumbrel", **setup})


def do(state, *events):
    for event in events:
        g.apply(state, event)
    return state


def play(by, *cards, **extra):
    return {"action": "play", "by": by, "cards": list(cards), **extra}


def pas(by):
    return {"action": "pass", "by": by}


def refused(state, event, *words):
    with pytest.raises(IllegalAction) as exc:
        g.apply(state, event)
    for word in words:
        assert word.lower() in str(exc.value).lower(), str(exc.value)
    return exc.value


# --- passes and time ---------------------------------------------------------------------------

def test_lead_passes_then_second_passes_finishes_the_location(graves_db):
    s = do(new(graves_db), pas("Ann"), pas("Ben"))
    assert s.locations[0].resolved and s.active == 1


def test_second_passes_then_lead_passes_next_turn_finishes_it_too(graves_db):
    s = do(new(graves_db), play("Ann", "5 notebook"), pas("Ben"))
    assert not s.locations[0].resolved and s.locations[0].time == 4  # turn over: a token gone
    do(s, pas("Ann"))
    assert s.locations[0].resolved and s.locations[0].winner == 0


def test_a_pass_between_plays_does_not_count_towards_two_in_a_row(graves_db):
    s = do(new(graves_db), pas("Ann"), play("Ben", "5 briefcase"), pas("Ann"))
    assert not s.locations[0].resolved


def test_n_clocks_is_n_turns(graves_db):
    s = new(graves_db)
    station = s.locations[0]
    assert station.clocks == station.time == 5
    suits = ["notebook", "briefcase", "shoeprints", "question_mark", "magnifying_glass"]
    for turn in range(5):
        assert not station.resolved
        do(s, play("Ann", f"{turn + 5} {suits[0]}"), play("Ben", f"{turn + 5} {suits[1]}"))
    assert station.resolved and station.time == 0


# --- values and resolution --------------------------------------------------------------------

def test_trumps_double_and_ace_is_ten(graves_db):
    # The Station: trump Notebooks. Ann: A + 9 notebook (trump) = 38; Ben: A + 9 briefcase = 19
    s = do(new(graves_db), play("Ann", "A notebook", "9 notebook"), play("Ben", "A briefcase", "9 briefcase"),
           pas("Ann"), pas("Ben"))
    assert s.locations[0].totals == (38, 19)
    assert s.locations[0].winner == 0 and s.case.evidence_won == [1, 0]


def test_record_office_ace_is_twelve_and_trump_ace_twenty_four(graves_db):
    s = new(graves_db, locations=["record_office", "station", "library", "park", "alley"])
    do(s, play("Ann", "A magnifying_glass"), play("Ben", "A briefcase"), pas("Ann"), pas("Ben"))
    assert s.locations[0].totals == (24, 12)


def test_tie_discards_the_evidence_and_the_same_player_leads(graves_db):
    s = do(new(graves_db), play("Ann", "7 briefcase"), play("Ben", "7 shoeprints"), pas("Ann"), pas("Ben"))
    assert s.locations[0].winner is None and s.case.evidence_won == [0, 0]
    assert s.lead == 0 and s.to_act == 0


def test_winner_leads_the_next_location(graves_db):
    s = do(new(graves_db), pas("Ann"), play("Ben", "5 briefcase"), pas("Ann"), pas("Ben"))
    assert s.locations[0].winner == 1 and s.lead == 1 and s.to_act == 1


def test_evidence_piles_stay_and_a_card_cannot_be_played_twice(graves_db):
    s = do(new(graves_db), play("Ann", "9 notebook"), pas("Ben"), pas("Ann"))
    refused(s, play("Ann", "9 notebook"), "already in an evidence pile")
    assert s.locations[0].piles[0] == [(9, "notebook")]


# --- what may be played --------------------------------------------------------------------

def test_one_suit_plus_trumps(graves_db):
    s = new(graves_db)  # The Station: trump Notebooks
    do(s, play("Ann", "5 briefcase", "6 briefcase", "7 notebook"))
    err = refused(s, play("Ben", "5 briefcase", "6 shoeprints"), "one suit")
    assert err.rule.id == "turn_what_may_be_played"


def test_palace_grounds_refuses_low_cards_naming_the_location(graves_db, tmp_path):
    log = GameLog("graves", 1, ["Ann", "Ben"], setup={"detective": "Ann", "locations": ["palace_grounds", *ROW[:2], "park", "alley"]},
                  events=[play("Ann", "9 shoeprints"), play("Ben", "3 shoeprints")])
    result = replay(graves_db, log)
    assert result.applied == 1
    assert str(result.error).startswith("event 2 (Ben plays 3 Shoeprints at The Palace Grounds): The Palace Grounds: cards of value 4 "
                                      "or lower")


def test_library_forbids_abilities_and_the_deuce_trump_change(graves_db):
    s = new(graves_db, locations=["library", *ROW[2:], "station"])
    refused(s, play("Ann", "2 notebook", change_trump="notebook"), "Library")
    do(s, play("Ann", "2 notebook"))  # the deuce may still be played, without its ability
    refused(s, {"action": "ability", "by": "Ben", "card": "4 shoeprints"}, "Library")


def test_a_deuce_changes_trump_to_its_suit_and_counts_double(graves_db):
    s = do(new(graves_db), play("Ann", "2 shoeprints", "8 shoeprints", change_trump="shoeprints"))
    assert s.locations[0].trump == "shoeprints"
    do(s, play("Ben", "9 notebook"), pas("Ann"), pas("Ben"))
    assert s.locations[0].totals == (20, 9)
    assert s.locations[1].trump == s.locations[1].printed_trump  # the next location keeps its own trump


def test_strongroom_card_count_rule(graves_db):
    s = new(graves_db, locations=["bank_strongroom", *ROW[:4]])
    do(s, play("Ann", "5 briefcase"))
    # Ben has 0 < 1: one non-trump card is fine, a second would pass the Detective's count
    refused(s, play("Ben", "5 shoeprints", "6 shoeprints"), "Strongroom")
    do(s, play("Ben", "5 shoeprints", "6 notebook", "7 notebook"))  # trumps (Notebooks) ignore the rule
    assert len(s.locations[0].piles[1]) == 3


def test_alley_holds_three_cards(graves_db):
    s = new(graves_db, locations=["alley", *ROW[:4]])
    do(s, play("Ann", "5 briefcase", "6 briefcase", "7 briefcase"), pas("Ben"))
    refused(s, play("Ann", "8 briefcase"), "Alley")
    do(s, play("Ann", "8 briefcase", alley_discard=["5 briefcase"]))
    assert sorted(c[0] for c in s.locations[0].piles[0]) == [6, 7, 8]


def test_park_needs_a_discard_per_high_non_trump_card(graves_db):
    s = new(graves_db, locations=["park", *ROW[:4]])
    err = refused(s, play("Ann", "9 briefcase", "8 briefcase"), "The Park", "needs 2, not 0")
    assert "discards:" not in str(err) and "write" not in str(err)  # the rule, not the log format
    do(s, play("Ann", "9 briefcase", "8 briefcase", "9 shoeprints", discards=2))


def test_slums_adds_or_removes_time_never_below_one(graves_db):
    s = new(graves_db, locations=["slums", "park", *ROW[:3]])
    refused(s, {"action": "slums", "by": "Ben", "here": 1, "next": 0}, "Detective")
    do(s, {"action": "slums", "by": "Ann", "here": 1, "next": -1})
    assert (s.locations[0].time, s.locations[1].time) == (5, 2)
    refused(s, {"action": "slums", "by": "Ann", "here": 1, "next": 0}, "once")


def test_bank_vault_reveals_top_cards_into_the_piles(graves_db):
    s = new(graves_db, locations=["bank_vault", *ROW[:4]])
    do(s, {"action": "reveal_top", "by": "Ann", "card": "2 briefcase"},
       {"action": "reveal_top", "by": "Ben", "card": "A magnifying_glass"})
    assert s.locations[0].trump == "magnifying_glass"  # a revealed deuce changes nothing
    assert g.totals(s.locations[0]) == (2, 20)


def test_bank_vault_refuses_any_play_before_both_top_cards_are_revealed(graves_db):
    s = new(graves_db, locations=[*ROW[:1], "bank_vault", *ROW[1:4]])
    assert g.summary(s)["locations"][1]["to_reveal"] == []  # not active yet
    do(s, pas("Ann"), pas("Ben"))  # the Station resolves: a tie, Ann leads again at the Bank Vault
    for early in (play("Ann", "5 notebook"), pas("Ann"),
                  {"action": "ability", "by": "Ann", "card": "3 briefcase"}):
        err = refused(s, early, "The Bank Vault", "reveals the top card", "Ann and Ben")
        assert err.rule is not None and err.rule.id == "faq_bank_vault_first"
    assert g.summary(s)["locations"][1]["to_reveal"] == ["Ann", "Ben"]
    do(s, {"action": "reveal_top", "by": "Ben", "card": "7 notebook"})
    refused(s, play("Ann", "5 notebook"), "still to reveal: Ann")
    assert g.summary(s)["locations"][1]["to_reveal"] == ["Ann"]
    do(s, {"action": "reveal_top", "by": "Ann", "card": "9 magnifying_glass"}, play("Ann", "5 notebook"))
    assert g.totals(s.locations[1]) == (18 + 5, 7)
    refused(s, {"action": "reveal_top", "by": "Ben", "card": "8 notebook"}, "before anyone plays")


def test_bank_vault_an_empty_deck_is_said_and_reveals_nothing(graves_db):
    s = new(graves_db, locations=["bank_vault", *ROW[:4]])
    refused(s, {"action": "reveal_top", "by": "Ann"}, "which card", "deck is empty")
    refused(s, {"action": "reveal_top", "by": "Ann", "card": "5 notebook", "empty": True}, "either")
    do(s, {"action": "reveal_top", "by": "Ann", "empty": True},
       {"action": "reveal_top", "by": "Ben", "card": "A magnifying_glass"})
    assert s.locations[0].piles == [[], [("A", "magnifying_glass")]]
    refused(s, {"action": "reveal_top", "by": "Ann", "empty": True}, "already revealed")
    do(s, play("Ann", "5 notebook"))


def test_designed_abilities_change_what_the_table_tracks(graves_db):
    s = new(graves_db)
    # the Detective's +1 time (by its effect in the database)
    plus = next(c for c in graves_db.components["detective"].cards
                if c.get("ability") and c["ability"]["effect"]["kind"] == "time" and c["ability"]["effect"]["delta"] == 1)
    card = f"{plus['rank']} {plus['suit']}"
    do(s, {"action": "ability", "by": "Ann", "card": card})
    assert s.locations[0].time == 6
    refused(s, pas("Ann"), "ability")
    do(s, play("Ann"))  # ends the turn with no cards after an ability
    assert s.to_act == 1


# --- the case and the game ---------------------------------------------------------------------

def _case(graves_db, s, wins):
    # no card twice: use different briefcases per location by shuffling the value per suit
    suits = ["briefcase", "notebook", "question_mark", "shoeprints", "magnifying_glass"]
    for i, w in enumerate(wins):
        lead, other = s.players[s.to_act], s.players[1 - s.to_act]
        value = {"Ann": 9 if w == "A" else 0, "Ben": 9 if w == "B" else 0}
        for p in (lead, other):
            if value[p]:
                loc = s.location
                park = loc.kind == "park_discard" and suits[i] != loc.trump
                do(s, play(p, f"{value[p]} {suits[i]}", discards=1 if park else 0))
            else:
                do(s, pas(p))
        if not s.locations[i].resolved:
            do(s, pas(lead), pas(other)) if s.passes == 0 else do(s, pas(s.players[s.to_act]))


def test_case_scoring_evidence_and_wrong_guess(graves_db):
    s = new(graves_db)
    _case(graves_db, s, "AABB=")
    assert s.phase == "unmasking" and s.case.evidence_points == [4, 4]
    do(s, {"action": "guess", "by": "Ann", "identity": "ezra_hollowmere"})
    assert s.done[0].points == [4, 5]  # wrong guess: the Mastermind scores 1


def test_premature_reveal_gives_the_detective_two(graves_db):
    s = new(graves_db)
    _case(graves_db, s, "AAAB=")
    refused(s, {"action": "reveal", "by": "Ann"}, "Mastermind")
    do(s, {"action": "reveal", "by": "Ben"})
    assert s.done[0].points == [8, 2]
    # the second case: roles swap, same locations, Ben leads as the Detective
    assert s.case.detective == 1 and s.to_act == 1 and s.case.locations == ROW


def test_correct_guess_gives_three_and_a_whole_game_result(graves_db):
    s = new(graves_db)
    _case(graves_db, s, "AB===")
    do(s, {"action": "guess", "by": "Ann", "identity": "josiah_tumbrel"})
    assert s.done[0].points == [5, 2]
    _case(graves_db, s, "ABB==")
    refused(s, {"action": "guess", "by": "Ben", "identity": "nobody"}, "no Mastermind")
    do(s, {"action": "guess", "by": "Ben", "identity": "odile_varnier"})
    assert s.phase == "identity"  # the Mastermind has not said who they were
    do(s, {"action": "identity", "by": "Ann", "identity": "odile_varnier"})
    assert s.done[1].points == [2, 7]
    assert g.is_over(s)
    assert g.result(s) == {"scores": {"Ann": 7, "Ben": 9}, "over": True, "winner": "Ben", "decided_by": "score",
                           "correct_deductions": {"Ann": 1, "Ben": 1}, "why": "Ben wins with the higher total, 9 to 7"}


def test_scores_add_up_over_two_cases(graves_db):
    s = new(graves_db)
    _case(graves_db, s, "AB===")
    do(s, {"action": "guess", "by": "Ann", "identity": "josiah_tumbrel"})  # Ann 5, Ben 2
    _case(graves_db, s, "AB===")
    do(s, {"action": "identity", "by": "Ann", "identity": "odile_varnier"},
       {"action": "guess", "by": "Ben", "identity": "ezra_hollowmere"})  # wrong: Ann +1 -> Ann 8, Ben 4
    assert g.result(s)["winner"] == "Ann"

    s = new(graves_db)
    _case(graves_db, s, "ABB==")
    do(s, {"action": "guess", "by": "Ann", "identity": "josiah_tumbrel"})  # Ann 2+3 = 5, Ben 4
    _case(graves_db, s, "A====")  # Ann wins one as Mastermind: Ann +2 -> 7
    do(s, {"action": "identity", "by": "Ann", "identity": "odile_varnier"})
    refused(s, {"action": "reveal", "by": "Ben"}, "Mastermind")  # Ben is the Detective now
    do(s, {"action": "reveal", "by": "Ann"})  # Ben +2 -> Ann 7, Ben 6
    assert g.result(s)["scores"] == {"Ann": 7, "Ben": 6}


def test_equal_totals_tie_break(graves_db):
    # both Detectives right and equal evidence: equal totals, and the tie-break cannot split them
    s = new(graves_db)
    _case(graves_db, s, "AB===")
    do(s, {"action": "guess", "by": "Ann", "identity": "josiah_tumbrel"})  # Ann 5, Ben 2
    _case(graves_db, s, "AB===")
    do(s, {"action": "identity", "by": "Ann", "identity": "odile_varnier"},
       {"action": "guess", "by": "Ben", "identity": "odile_varnier"})  # Ben 2+3: Ann 7, Ben 7
    assert g.result(s)["scores"] == {"Ann": 7, "Ben": 7}
    assert g.result(s)["winner"] is None and g.result(s)["decided_by"] == "draw"


def test_single_case_scores_three_and_four(graves_db):
    s = new(graves_db, variants=["single_case"])
    _case(graves_db, s, "AABB=")
    refused(s, {"action": "reveal", "by": "Ben"}, "Single Case")
    do(s, {"action": "guess", "by": "Ann", "identity": "ezra_hollowmere"})
    assert s.done[0].points == [6, 10] and g.is_over(s)


def test_knows_all_forbids_the_early_reveal(graves_db):
    s = new(graves_db, variants=["knows_all"])
    _case(graves_db, s, "AAAAA")
    refused(s, {"action": "reveal", "by": "Ben"}, "Knows All")


def test_long_haul_needs_an_even_number_and_reshuffles_after_a_pair(graves_db):
    with pytest.raises(IllegalAction, match="even"):
        new(graves_db, variants=["long_haul"], cases=3)
    s = new(graves_db, variants=["long_haul"], cases=4, seed=11)
    for _ in range(2):
        _case(graves_db, s, "=====")
        do(s, {"action": "reveal", "by": s.players[s.case.mastermind]})
    assert s.case.number == 3 and s.case.locations != ROW and len(s.case.locations) == 5


def test_life_is_pain_without_a_seed_waits_for_a_deal(graves_db):
    s = new(graves_db, variants=["life_is_pain"])
    _case(graves_db, s, "=====")
    do(s, {"action": "reveal", "by": "Ben"})
    assert s.phase == "deal"
    refused(s, pas("Ben"), "only")
    do(s, {"action": "deal", "by": "Ann", "locations": ["museum", "river", "alley", "slums", "countryside"]})
    assert s.phase == "play" and s.locations[0].id == "museum"


def test_deduction_helper(graves_db):
    ev = {c.id: c for c in graves_db.components["evidence"].cards}
    first = next(iter(ev))
    assert g.possible_masterminds(graves_db, [first]) == [i for i in
                                                           [c.id for c in graves_db.components["identities"].cards]
                                                           if i in ev[first]["viable"]]
    assert len(g.possible_masterminds(graves_db, [])) == 5


def test_the_detective_view_hides_the_mastermind(graves_db):
    s = new(graves_db)
    assert g.view(s, 0)["case"]["identity"] is None
    assert g.view(s, 1)["case"]["identity"] == "josiah_tumbrel"
    seen = g.view(s, 0)
    assert len(seen["case"].pop("possible_masterminds")) == 5  # the helper lists every suspect still open
    assert "josiah_tumbrel" not in repr(seen)


def test_unknown_location_and_bad_setup_are_refused(graves_db):
    with pytest.raises(IllegalAction, match="unknown location"):
        new(graves_db, locations=["moon", *ROW[:4]])
    with pytest.raises(IllegalAction, match="seed"):
        g.new_state(graves_db, {"players": ["Ann", "Ben"]})
