"""The focus of a long question: what the player asks, apart from the story told around it.

A parent teaching the family tells the situation before asking ("my daughter has about 8 cards in her hand
now, is she supposed to throw some away or is that fine"), apologises ("sorry if this is obvious but ..."),
and ends on how the table feels ("we cant agree and its getting heated lol"). The rules search (rules/search.py)
reads every question through two pieces of this module, before a game's own table words:

* `without_table_chatter`: the words about the family at the table (my son, the kids, my youngest, the
  grandparents) and the chatter around the question (apologies, "lol", "we had a bit of an argument about it") are
  no words of the question: "daughter" alone matches a card named Ambassador's Daughter. A person is dropped
  only where the question speaks of one of its own ("my daughter", "the kids"), never inside a name. A few
  table phrases read as the rules' words besides (READINGS: "be honest" is telling the truth, "setting
  everything up" the setup).
* `story_words`: the words of a remark made after the question's "?" ("... lay out on the table? the box has
  loads"), not in the question: why the player asks, which the search weighs below the question's words
  (STORY_WEIGHT). Only there: a story told BEFORE the question ("my son used bribery on my thread, what does it
  do") names its topic, and weighing it down lost more questions of the sets than it won.

Pure standard library, on normalised (lower-case) text.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["STORY_WEIGHT", "story_words", "without_table_chatter"]

# The family at the table, spoken of as one's own ("my son", "our kids"; "the kids"). Only family: the rules'
# own entries speak of "my partner" and "my mate" as another player, while "son", "daughter" and "wife" are written
# only in card names and texts ("The Ambassador's Daughter")
_PEOPLE = (r"sons?|daughters?|kids?|children|child|youngest|eldest|oldest|wife|husband|hubby|"
           r"mum|mom|dad|mother|father|brother|sister|grandparents?|grandma|grandpa|nan|nana|"
           r"niece|nephew|cousin|little\s+one|other\s+half")
_OWNER = r"(?:my|our|your|his|her|their)"
PEOPLE = re.compile(rf"\b{_OWNER}\s+(?:(?:little|youngest|eldest|oldest|older|younger|\d+\s+year\s+old)\s+)?"
                    rf"(?:{_PEOPLE})\b(?!\s+(?:card|cards|one)\b)"
                    r"|\bthe\s+(?:kids|children|grandparents)\b")  # "the son" may be a card's: "the snatched son"
# chatter around the question: apologies, laughter, how the table feels, why the player asks
CHATTER = re.compile(
    r"\bsorry\b(?:\s+(?:if\s+this\s+is\s+(?:obvious|a\s+dumb\s+question|silly|stupid)|newbie\s+here|to\s+ask))?"
    r"|\b(?:lol|lmao|haha+|thanks?(?:\s+(?:you|in\s+advance))?|cheers|please|pls|plz)\b"
    r"|\bwe\s+(?:cannot|cant|can't|could\s+not|couldnt|couldn't|dont|don't|do\s+not)\s+agree\b"
    r"|\b(?:its|it's|it\s+is|things\s+are)\s+getting\s+(?:heated|tense|silly)\b"
    r"|\bwe\s+had\s+(?:a\s+(?:bit\s+of\s+(?:an?\s+)?)?)?(?:argument|row|debate|disagreement)(?:\s+about\s+it)?\b"
    r"|\b(?:i'm|im|i\s+am)\s+worried\s+we\s+did\s+it\s+wrong\b"
    r"|\b(?:or\s+)?is\s+(?:that|this)\s+(?:right|fine|correct|normal)\b(?=\s*(?:$|[?.!,;]|or\b))"
    r"|\b(?:or\s+)?(?:have|did)\s+we\s+(?:missed\s+(?:a\s+step|something)|do\s+it\s+wrong|get\s+it\s+wrong)(?:\s+somewhere)?\b"
    r"|\b(?:or\s+)?is\s+(?:that|this|it)\s+cheating\b"
    r"|\bor\s+will\s+it\s+ruin\s+(?:things|it|the\s+game)\b"
    r"|\bjust\s+(?:checking|to\s+(?:check|be\s+sure|make\s+sure))\b(?!\s+(?:a|the|which|what|who)\b)"
    # why the player asks, told after the question: ", need to know for an ace lead", "- asking because ..."
    r"|[,;.\u2013\u2014-]\s*(?:(?:i|we)\s+)?(?:need\s+to\s+know(?:\s+(?:this|it|that))?|(?:(?:i'm|im|i\s+am)\s+)?asking)"
    r"\s+(?:for|because|since|cos|cause)\b[^?]*")


# The table's own phrases read as the rules': "am i supposed to be honest" asks whether one must tell the truth, the
# rulings' words ("supposed" alone leans to "suspect" and "guess" in WordNet, a word of every game); "when it's time
# to check a pile" is when a pile is checked (not the time tokens); "we've got to the palace grounds" is at them (not
# "got to", which the search reads "must"); "setting everything up" is the setup, as "setting up" is
READINGS = ((re.compile(r"\b(?:be|being|answer|play)\s+honest(?:ly)?\b"), "tell the truth"),
            (re.compile(r"\bsupposed\s+to\b"), ""),
            (re.compile(r"\b(?:it'?s|it\s+is)\s+time\s+(?:to|for)\b"), ""),
            (re.compile(r"\b(?:got|gotten|come|came|made\s+it)\s+to\s+(?=the\b)"), "at "),
            (re.compile(r"\b(?:set|sets|setting)\s+(?:everything|it\s+all|things|it|them|the\s+(?:game|table|board)|stuff)"
                        r"\s+up\b"), "setup"))


def without_table_chatter(text: str) -> str:
    """The question without the people at the table ("my son" is "they") and the chatter around it."""
    text = PEOPLE.sub("they", text.lower())
    for phrase, meant in READINGS:
        text = phrase.sub(meant, text)
    return re.sub(r"\s{2,}", " ", CHATTER.sub(" ", text)).strip()


_WORD = re.compile(r"[a-z0-9]+")


def story_words(text: str, function_words: Collection[str], least: int = 2) -> frozenset[str]:
    """The words said only after the question is asked: a remark after its last "?" ("how many place cards do we
    lay out? the box has loads") that tells why the player asks, when the question before it holds `least` words
    or more besides `function_words`. A second question ("... at the start? he hated his hand, can he get a new
    one?") is no remark."""
    asked, mark, after = text.lower().rpartition("?")
    if not mark or not after.strip():
        return frozenset()
    before = set(_WORD.findall(asked))
    if len(before - set(function_words)) < least:
        return frozenset()
    return frozenset(_WORD.findall(after)) - before


# what a word said only after the question weighs against a word of the question (fitted on the question sets: 0.25
# best of 0.2 to 1; 0.2 and below drowned a remark that names the topic, "we keep forgetting the clock tokens")
STORY_WEIGHT = 0.25

