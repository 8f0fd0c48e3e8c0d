"""The rules search's one table of rewrites (rules/search.py REWRITES): every row exists for its example."""

from __future__ import annotations

import functools

import pytest

from casebook.rules.cards import load_database
from casebook.rules.search import _WORD, REWRITES, Rewrite, RulesIndex, normalize, rewrite


def _read(text: str, rows: tuple[Rewrite, ...]) -> list[str]:
    """A query's words as the search reads them, with these rewrites only."""
    return _WORD.findall(rewrite(rewrite(normalize(text), "query", rows), "all", rows))


@pytest.mark.parametrize("row", REWRITES, ids=[row.example for row in REWRITES])
def test_every_rewrite_changes_the_question_it_exists_for(row):
    """The row's phrase is in its example, and leaving the row out reads the example otherwise: no row is
    dead or shadowed by another."""
    before = tuple(REWRITES[:REWRITES.index(row)])
    assert row.phrase.search(rewrite(rewrite(normalize(row.example), "query", before), "all", before))
    without = tuple(r for r in REWRITES if r is not row)
    assert _read(row.example, REWRITES) != _read(row.example, without)


def test_query_rewrites_come_before_the_rewrites_of_every_text():
    scopes = [row.scope for row in REWRITES]
    assert set(scopes) == {"query", "all"} and scopes == sorted(scopes, key=lambda s: s != "query")


def test_no_two_rewrites_of_a_scope_make_the_same_replacement():
    """Two phrases for one replacement are one row (one alternation)."""
    for scope in ("query", "all"):
        made = [row.replacement for row in REWRITES if row.scope == scope and isinstance(row.replacement, str)]
        assert len(made) == len(set(made)), scope


def test_work_out_is_knowing_before_which_and_nothing_otherwise():
    assert rewrite("i worked out which tile", "query") == "i know which tile"
    assert rewrite("how do we work out the winner", "query").split() == ["how", "do", "we", "the", "winner"]


def test_is_it_legal_to_asks_can_i_but_a_hand_legal_to_play_keeps_its_word():
    assert rewrite(normalize("is it legal to play a card face up"), "query") == "can i play a card face up"
    assert rewrite(normalize("it's fine for me to pass?"), "query") == "can i pass?"
    assert "legal" in rewrite(normalize("nothing in my hand is legal to play"), "query")


@pytest.mark.parametrize("question", ["as an enforcer could i end up with no cards in hand",
                                      "can an enforcer end up with zero cards"])
def test_ending_up_with_no_cards_is_running_out_of_them(question):
    from casebook.rules.cards import load_database
    from casebook.rules.search import RulesIndex

    index = RulesIndex.build([load_database("syndicate")])
    assert index.search(question, game="syndicate", limit=1)[0].entry.id == "faq_hand_runs_out"


@functools.cache
def _index(game: str) -> RulesIndex:
    return RulesIndex.build([load_database(game)])


@pytest.mark.parametrize(("game", "question", "want"), [
    ("graves", "our piles add up the same, who gets the evidence card", ["resolve_tie"]),  # "to" left out
    ("syndicate", "can the mastermind play whatever card he likes", ["follow_mastermind_free"]),  # any card
    ("hasty", "can anyone be knocked out in round one", ["turn_first_round", "faq_first_round"]),  # the first round
    ("graves", "after case 1 do we swap sides", ["case_second"]),  # the first case
    # texting shorthand
    ("graves", "i won a clue card, how many pts is that", ["case_evidence_points"]),
    ("clash", "me n 2 mates wanna play this, does it work w 3", ["setup_players"]),
    ("syndicate", "can i flip thru the used pile to see whats gone", ["faq_look_discards"]),
    # loads of cards: too many; getting rid of them: discarding
    ("graves", "i've got loads of cards in my hand now, like 11, do i need to get rid of some of them?",
     ["faq_hand_limit"]),
    ("syndicate", "sorry if this is obvious but how many cards am i meant to give each of us at the begining? the "
     "kids ended up with different amounts and im worried we did it wrong", ["setup_deal"]),  # the setup
    ("pi", "blew my solve attempt, whats the penalty", ["solve_wrong"]),  # blown: wrong
    ("hasty", "whos up first, is there a rule for that", ["setup_hands"]),  # who goes first
    ("hasty", "where does the magnifying glass token go when we're setting everything up?", ["setup_loupe"]),
    ("syndicate", "what score are we playing to", ["end_twelve", "faq_past_twelve"]),  # the score that wins
    ("graves", "how many cards are we supposed to pick up at the very start? my son really hated his first hand, is "
     "he allowed a new one?", ["setup_hands"]),  # supposed to: must; a new one is a new hand, not a new player
    ("clash", "im playing holmes, am i the one who sets out the board and shuffles everything or does my son do it?",
     ["setup_table", "faq_choose_sides"]),  # setting out is the setup
    ("syndicate", "can me and the other enforcer coordinate out loud", ["faq_table_talk"]),  # coordinating: talk
    ("syndicate", "my buddy didnt follow when he could have and we already counted it up, redo?", ["faq_misplay"]),
])
def test_players_words_find_the_rule_they_ask_about(game: str, question: str, want: list[str]) -> None:
    assert _index(game).search(question, game=game, limit=1)[0].entry.id in want


def test_round_one_is_the_first_round_but_turning_one_of_my_cards_is_not():
    assert rewrite(normalize("round 1 is done, do we reshuffle"), "query") == "first round is done, do we reshuffle"
    assert rewrite(normalize("who leads at location two"), "query") == "who leads at second location"
    for kept in ("can i turn one of my face down supports", "the 5-turn one with notebook trump"):
        assert rewrite(normalize(kept), "query") == normalize(kept)


def test_texting_shorthand_is_spelled_out_but_a_letter_joined_to_a_word_is_kept():
    assert rewrite(normalize("can i slip a 2nd card face down w my lead"), "query") == \
        "can i slip a second card face down with my lead"
    assert rewrite(normalize("ran outta cards, how many pts n hrs"), "query") == "ran out of cards, how many points and hours"
    assert rewrite(normalize("what does the u-turn do"), "query") == "what does the u-turn do"  # not "you-turn"


def test_throwing_cards_away_is_discarding_them():
    assert rewrite(normalize("should she throw some away"), "query") == "should she discard some"
    assert rewrite(normalize("i threw my last card away"), "query") == "i discard my last card"


def test_playing_to_a_score_is_winning_at_it_but_playing_to_a_place_is_not():
    assert rewrite(normalize("do we play to 12"), "query") == "do we win at 12"
    assert rewrite(normalize("can i play to the loupe"), "query") == "can i play to the loupe"


def test_a_new_one_is_no_new_player():
    assert "player" not in rewrite(normalize("my son hated his first hand, is he allowed a new one?"), "query")
    assert rewrite(normalize("the new guy"), "query") == "new player"


def test_the_start_of_a_round_is_no_setup():
    assert rewrite(normalize("how many cards at the start of a round"), "query") == "how many cards at the start of a round"
    assert rewrite(normalize("at the very start"), "query") == "at setup"


def test_a_score_against_the_same_score_is_a_tie_but_a_player_count_is_not():
    # "9 v 9", "11 vs 11": both sides made the same total; "2v2" stays a player count
    assert _read("9 v 9 who gets the pts", REWRITES) == _read("tie who gets the points", REWRITES)
    assert "tie" in _read("we had 11 vs. 11", REWRITES)
    assert "tie" not in _read("can we play 2v2", REWRITES) and "tie" not in _read("9 v 10, who scores", REWRITES)
    index = RulesIndex.build([load_database("syndicate")])
    assert index.search("we had 11 v 11", game="syndicate", limit=1)[0].entry.id == "score_tie"


def test_not_having_a_thing_is_having_none_of_it():
    # "which locations don't have a trump" asks what "which locations have no trump" asks: a location with no
    # trump (before, a card's text about the trump came first)
    assert _read("which locations don't have a trump", REWRITES) == _read("which locations have no trump", REWRITES)
    index = RulesIndex.build([load_database("graves")])
    first = index.search("which locations don't have a trump", game="graves", limit=1)[0].entry.id
    assert first in {"river", "alley", "components_locations"}
