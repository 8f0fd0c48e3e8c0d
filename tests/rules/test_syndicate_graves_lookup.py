"""Table questions about The Syndicate and Detective Graves find the entry that answers them first.

Each question is phrased as a player types it, in words none of the entry's `asks` hold verbatim; each
came second or lower before the issue-20 data round (the entries' keywords and asks in cards/syndicate/
and cards/graves/), so these hold the player's words those entries now carry.
"""

from __future__ import annotations

import pytest

from casebook.rules.cards import load_database
from casebook.rules.search import RulesIndex

QUESTIONS = {
    "syndicate": [
        ("is the castle a face card", "castle"),  # an event or location card names its mark, not a face-down card
        ("can i put down three cards as mastermind", "plot_face_down"),
        ("do i get the hidden card back after my plot fails", "plot_discard"),
        ("whats the calamity worth", "value_crown"),
        ("whats the market worth", "market"),
        ("the 6 that's a location", "market"),  # a card told by its rank and mark
        ("name of the 5 personality", "soldier"),  # a numbered card names its rank; only a Crown needs the value rule
        ("is the sea a face card", "sea"),
        ("do we deal everything out at the start", "setup_draw_pile"),
        ("is the diplomat a personality", "diplomat"),  # not the worked example that names it
        ("is there a trump suit", "faq_no_trump"),  # a ruling where the rulebook is silent
        ("can us enforcers talk tactics", "faq_table_talk"),
        ("whats the lowest card", "value_ace"),
        ("can the mastermind pass", "plot_lead"),
        ("is there a guaranteed way to win a plot", "tip_ace_and_crown"),
        ("an ace was led, match suit or mark?", "follow_ace_suit"),
        ("how many events", "decktet_deck"),  # the deck entry now counts each mark's cards
        ("which direction does the mastermind pass", "turn_next"),
        ("how many points do you need", "end_twelve"),
        ("do enforcers play face up", "plot_enforcers"),
        ("do we show the face down card to everyone", "plot_reveal"),
        ("how many points if the enforcers win", "score_foiled"),  # not the game's end: winning a plot
        ("what happens when the deck is empty", "turn_reshuffle"),
        ("whats the mastermind's total", "count_sides"),
        ("who invented the syndicate", "credits"),
        ("how many people play the syndicate", "setup_players"),  # not the credits, which name the game
        ("i've got two cards that follow, which one do i play", "follow_mark"),
    ],
    "graves": [
        ("do we play all 12 locations", "setup_locations"),
        ("how many locations do we use in a case", "setup_locations"),  # not the second case's rule
        ("who's the bad guy", "setup_identity"),
        ("can we both be the detective", "setup_roles"),
        ("what's on the evidence cards", "components_evidence_card"),
        ("do we keep the same locations next case", "case_second"),
        ("what do the 4s do", "components_decks_differ"),
        ("what's different between the decks", "components_decks_differ"),
        ("whats in chaplin's notebook", "components_location_card"),
        ("must i play something every turn", "turn_play_or_pass"),
        ("how many cards are in the mastermind deck", "components_decks"),  # the count, not how the decks differ
        ("when is a location scored", "resolve_totals"),
        ("when is the case over", "resolve_last_location"),  # the case, not the game
        ("does a card i play into my pile use its power", "turn_played_abilities"),
        ("how is the winner of a location decided", "resolve_winner"),  # the location ability's box, not a Notebook card  # not the Palace, which bars cards of 4 or less
    ],
}


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    """One index over both games, as the companion builds it: each question searches its own game."""
    return RulesIndex.build([load_database(game) for game in QUESTIONS])


@pytest.mark.parametrize(("game", "ask", "answer"),
                         [(game, ask, answer) for game, pairs in QUESTIONS.items() for ask, answer in pairs])
def test_answer_comes_first(index: RulesIndex, game: str, ask: str, answer: str) -> None:
    hits = index.search(ask, game=game, limit=3)
    assert hits, f"{game}: nothing found for {ask!r}"
    assert hits[0].entry.id == answer, f"{game}: {ask!r} found {[h.entry.id for h in hits]} first, not {answer}"
