"""The focus of a long question (rules/query_focus.py): the family and the chatter around a question are no words of
it, and a remark after its "?" weighs below it; and the rules search reads questions through them."""

from __future__ import annotations

import pytest

from casebook.rules.cards import load_database
from casebook.rules.query_focus import STORY_WEIGHT, story_words, without_table_chatter
from casebook.rules.search import STOPWORDS, RulesIndex


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex.build([load_database(game) for game in ("clash", "syndicate", "hasty", "pi")])


def _first(index: RulesIndex, game: str, ask: str, n: int = 1) -> list[str]:
    return [hit.entry.id for hit in index.search(ask, game=game, limit=n)]


@pytest.mark.parametrize("ask, read", [
    ("my daughter has 8 cards in her hand", "they has 8 cards in her hand"),
    ("My Youngest asked who my suspect was", "they asked who my suspect was"),
    ("can the kids play too", "can they play too"),
    ("the grandparents are here, can 6 play", "they are here, can 6 play"),
])
def test_the_family_at_the_table_is_they(ask, read):
    assert without_table_chatter(ask) == read


@pytest.mark.parametrize("ask", [
    "what does the ambassador's daughter do",  # a name, not one's own daughter
    "which crime is the son",  # a crime's ask ("the snatched son")
    "can i play the family lawyer on my suspect",  # a Hasty card
    "can i tell my partner what i have",  # the rules' own word for another player
    "just 2 of us, my mate solved, do i get one more go",
])
def test_names_and_the_rules_own_words_for_players_stay(ask):
    assert without_table_chatter(ask) == ask


@pytest.mark.parametrize("ask, read", [
    ("sorry if this is obvious but how many cards do we get", "but how many cards do we get"),
    ("who won? we cant agree and its getting heated lol", "who won? and"),
    ("which pile do we do? we had a bit of an argument about it", "which pile do we do?"),
    ("they never draw, is that right or have we missed a step somewhere?", "they never draw, ?"),
    # why the player asks, told after the question, is no word of it (the ace lead led to the ace rules)
    ("cave, which suits is it in, need to know for an ace lead", "cave, which suits is it in"),
    ("which suits is the cave in, im asking cos of an ace lead", "which suits is the cave in"),
])
def test_chatter_around_the_question_goes(ask, read):
    assert without_table_chatter(ask) == read


@pytest.mark.parametrize("ask, read", [
    ("am i supposed to be honest with her", "am i tell the truth with her"),
    ("does the holder have to answer honestly", "does the holder have to tell the truth"),
    ("are we supposed to check a pile now", "are we check a pile now"),  # "supposed" leans to "suspect"
    ("when it's time to check a pile", "when check a pile"),  # no time token
    ("we've got to the palace grounds", "we've at the palace grounds"),  # not "must"
    ("where does it go when we're setting everything up", "where does it go when we're setup"),
])
def test_table_phrases_in_the_rules_words(ask, read):
    assert without_table_chatter(ask) == read


def test_a_remark_after_the_question_is_story():
    words = story_words("how many place cards do we lay out? the box has loads", STOPWORDS)
    assert words == {"the", "box", "has", "loads"}
    assert 0 < STORY_WEIGHT < 1


@pytest.mark.parametrize("text", [
    "how many place cards do we lay out on the table",  # no "?"
    "how many place cards do we lay out?",  # nothing after it
    "is that ok? my son wants to look at the discards",  # the question holds no words of its own: the story is it
    "my son used bribery on my thread, what does it do?",  # a story before the question names its topic
    "how many cards at the start? my son hated his hand, can he get a new one?",  # a second question
])
def test_no_story_words(text):
    assert story_words(text, STOPWORDS) == frozenset()


def test_a_daughter_at_the_table_is_not_the_ambassadors(index):
    """"daughter" alone matched the card named Ambassador's Daughter."""
    assert "ambassadors_daughter" not in _first(index, "clash", "my daughter is holding 9 cards now, does she have to "
                                                               "discard some", 3)
    assert _first(index, "clash", "what does the ambassador's daughter do") == ["ambassadors_daughter"]


def test_a_remark_after_the_question_does_not_lead_the_search(index):
    """The remark's words ("number", "add up") led to the rule on numbered cards' worth and the scoring."""
    ask = "what is the diplomat worth if it counts? it has no number printed and we keep adding it up differently"
    assert _first(index, "syndicate", ask) == ["diplomat"]


@pytest.mark.parametrize("game, ask, answer", [
    # the ruling on lying about one's suspect: "honest" is no word of it, "tell the truth" is
    ("hasty", "my brother asked which suspect was mine and i pointed at another one, am i supposed to be honest?",
     "faq_bluffing"),
    ("pi", "does the case holder have to answer honestly", "faq_no_bluffing"),
])
def test_honesty_is_telling_the_truth(index, game, ask, answer):
    assert _first(index, game, ask) == [answer]


def test_time_to_check_is_no_time_token(index):
    """"time" leans to the time tokens and the turn: 'play a card on your turn' came first."""
    assert _first(index, "hasty", "when it's time to check a pile and two are equally big, which one gets checked") \
        in (["faq_tie_largest"], ["review_largest"])


def test_setting_everything_up_is_the_setup(index):
    """"setting everything up" split the setup's words: the loupe's move in a turn came first."""
    assert _first(index, "hasty", "where do we put the magnifying glass token when we're setting everything up") == \
        ["setup_loupe"]


def test_why_the_player_asks_does_not_lead_the_search():
    from casebook.rules.cards import load_database
    from casebook.rules.search import RulesIndex

    index = RulesIndex.build([load_database("syndicate")])
    for ask, card in [("which suits is the painter in, i need to know for an ace lead", "painter"),
                      ("what suits does the lunatic have, asking because of an ace lead", "lunatic")]:
        assert index.search(ask, game="syndicate", limit=1)[0].entry.id == card, ask
    # "need to know" inside the question stays: "do i need to know for sure" is no reason told
    assert "know" in without_table_chatter("do i need to know for sure which suit")
