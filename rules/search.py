"""Rules search: find the rule, FAQ ruling or card text that answers a question at the table.

Pure Python and the standard library only (the companion runs it on a phone). One index is
built from one or more card databases; everything is precomputed in `RulesIndex.build`, so a
search is a few dictionary look-ups.

Ranking is BM25F over normalised tokens:

* normalisation: lower case, accents and punctuation stripped, possessive 's dropped, common
  function words and question fillers dropped ("what happens if", "am I allowed to", and
  their typos: "waht"), "face up"/"face down"/"face card" as one word each, "can't" as "cannot", "run
  out of" as "out of", irregular forms read as their verb ("led" -> "lead"), light stemming
  (plural -s/-es/-ies, -ing, -ed, final -e, -tion and -able read as their verb), so "parks",
  "park" and "Park's" are one token, and "restricted" finds "restriction";
* in a query, a passive "get" ("which pile gets reviewed") is dropped, light words ("get",
  "cannot") weigh less, and table phrases read as the rules' ("my suspect": the secret one; "the point
  of" is why, "my neighbour" another player, not an adjacent district; "by myself" the player count;
  "work out" is no work; "put my card on" is playing it; "2v2" a player count; "what's the first thing I do"
  asks what a turn holds, "what do we do first" (no turn named) the setup; "in the same game" is together;
  a deck "run dry" has run out, "end up with no cards" is running out of them; "the new guy" a new player);
* before those, each game's own table words (game.yaml `table_words:`, see TableWords) read what players
  at that game's table call a thing as its rules' word: "round" is a mini-game in P.I. alone, "the glass"
  the loupe in Hasty but the Magnifying Glass suit in graves;
* fields: title x3, keywords x2, text x1; also an entry's id (a meaningful slug, shown with
  every hit) x2, a rule's section x2 (its context: "Resolving a location"), a card's
  facts ("Clocks: 3. Trump: Shoeprints.") x0.5 and the words of what its art draws (its picture or
  symbol: "brass knuckles", "spider") x1.5;
* each entry's `asks` (questions players ask that it answers) count twice: as a light field of
  the bag of words, and each ask on its own, the entry taking its best ask's likeness to the
  query (above a floor); a "how many" question takes less from an ask that counts nothing; a card with
  an ask that is the question, word for word, is not weighed below the rules for being a card;
* a small synonym table (deuce/two/2, tie/equal, worth/value, stop/foil, ...) expands a
  query word at a reduced weight, never worth more than the word the player typed; some
  words point one way only ("draw" may mean a tie, but a tie never means drawing cards);
* a related-word table from WordNet 3.0 (rules/data/related.txt, read on the first query) expands
  a query word with its broader and narrower words at a small share, and makes a word the
  game never uses a real word rather than a typo ("weapon" finds the knife); an entry holding
  a word only through such a relative counts it as a fraction of a word;
* typo tolerance: a query word that is neither in the vocabulary nor a known synonym matches
  the nearest vocabulary words within Damerau-Levenshtein distance 1 (2 for words of 6+ letters), at
  a reduced weight, swapped letters ("tei" -> "tie") weighing most;
* a phrase bonus when consecutive query words stand next to each other in a title, keyword
  or text, and a bonus when the query is exactly an entry's title;
* a question ("can I play two different suits") wants a rule: cards rank below rules then,
  while a bare name ("2 of shoeprints"), a question naming a card ("where does the loupe
  go when I play Wrong Turning") or asking for one ("a card that ...") still finds the card;
  variants, worked examples and strategy tips (by their section or title) rank a little
  below the rules, and an FAQ ruling a little below a basic rule it ties with, but above a rule
  it refines when the question holds more of the ruling's words besides all the rule's;
* a card's printed rules texts (an ability, a Hasty suspect's power) are its text; an FAQ ruling that
  names a card (or refers to it) comes before it when the question names the card and holds as much of
  the ruling as of the card, some of it words the card lacks that few entries hold;
* "which suspect ...", "which site ...", "the site where ...", "the agent that ...": the question asks
  for one of that kind, which comes before the rules and the game's other cards that share its words;
* a question naming a card by its whole name, or by a word of it few entries hold ("lestrade"), wants
  the card; "which crime plan" asks for a Crime Plan as "which site" for a site; a card whose name
  shares only loose words with the question ("look" of Second Look) was not asked about, and weighs less;
* "which 4 is a personality", "which of the 9s are events": the cards of that rank are asked for, and gain
  a share of the query's weight;
* a deck card named by rank and suit ("the 7 of moons", "crown of knots") is named: it comes
  first, unless two cards are named (a question about how they meet wants a rule) or the question's other
  words are a rule's ("do I have to play a leaf on an ace of leaves lead"); named suit first ("briefcase 3") it
  is named too, with a smaller bonus;
* a question naming two cards or districts or more (by whole names, rank and suit, a rare name word, or a
  one-word name few entries hold: "he led the lunatic and I threw the journey, does mine count") asks how
  they meet: the named ones rank below the rules and rulings; a later clause that asks ("..., does mine
  count") makes a question of it here;
* a card shows its copies ("Copies: 5.") and counts itself, so "how many garrottes" finds the card; a
  list on a card counts what it lists ("Adjacent: ..." counts districts); an ordinal counts as a number
  ("the fifth location": five locations);
* "how many X" ("how big", "how large", "number of") wants the rule that states a count, best of all the count of X: a rule
  saying "5 investigators" answers "how many investigators" before one saying "five turns".

Each hit carries `source_label`, the source as a player reads it ("Rule: The Park", "FAQ:
<question>", "Card: 3 of Shoeprints"), with the game's short title in front when a search
runs across several games ("Detective Graves · Rule: A tie loses the evidence").

Cards of one kind that print the same rules text (the ten deuces; Hasty's Keyhole and Spyglass, whose
restrictions differ) come back as one hit whose `also` names the others.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from casebook.rules.query_focus import STORY_WEIGHT, story_words, without_table_chatter

__all__ = ["Entry", "Hit", "RulesIndex", "tokenize", "normalize", "stem", "damerau_levenshtein"]


@dataclass(frozen=True)
class Entry:
    """One searchable thing: a rule, an FAQ ruling, a card or a location."""

    kind: str  # "rule" | "faq" | "card" | "location"
    id: str
    game: str
    title: str
    text: str
    source: str  # "rule turn_draw", "FAQ faq_clock_turns", "card detective_shoeprints_3", "location park"
    name: str = ""  # a card's own name without its component ("2 of Shoeprints"); else the title

    @property
    def label(self) -> str:
        """What a player reads as the source: "Rule: The Park", "FAQ: <question>", "Card: 2 of Shoeprints"."""
        return f"{KIND_LABELS.get(self.kind, self.kind.capitalize())}: {self.title}"


KIND_LABELS = {"rule": "Rule", "faq": "FAQ", "card": "Card", "location": "Location"}
GAME_SEPARATOR = " \u00b7 "  # "Detective Graves · Rule: Ties"


@dataclass(frozen=True)
class Hit:
    """One answer: the entry, its score, the cards folded into it and the label to show for it.

    `source_label` is what the player reads as the source ("Rule: A tie loses the evidence",
    "Card: 3 of Shoeprints" for a card printed in both decks); a search across several games
    puts the game's short title in front ("Detective Graves · Rule: ...").
    """

    entry: Entry
    score: float
    also: tuple[Entry, ...] = ()  # cards printing exactly the same text, folded into this hit
    source_label: str = ""


# --- tunables ----------------------------------------------------------------------------

FIELD_WEIGHTS = {"title": 3.0, "keywords": 2.0, "asks": 0.25, "slug": 2.0, "section": 2.0, "facts": 0.5, "text": 1.0,
                 "count": 1.0, "count_one": 0.5, "picture": 1.5}
# `asks` (questions players ask, written for each entry) weigh little: many of them share the table's
# common words, and weighed like keywords they pulled general rules over their FAQ rulings (fitted on the
# question sets 1 to 9: 0.25 best of 0.1 to 2.5)
# length normalisation: strong on titles (a long FAQ question is about more than the query),
# weak on keyword lists (a long list is not a diluted one)
FIELD_B = {"title": 0.95, "keywords": 0.2, "asks": 0.8, "slug": 0.7, "section": 0.3, "facts": 0.3, "text": 0.8,
           "count": 0.0, "count_one": 0.0, "picture": 0.0}
# `picture`: the words of what a card's art draws ("brass knuckles", "prayer beads"), so "the spider one" or
# "which crime is the brass knuckles one" finds the card that shows it
K1 = 5.0  # BM25F field weights inflate tf, so saturate late
SYNONYM_WEIGHT = 0.7
# a typo match's weight by (edits, letters only swapped): a swap is the commonest slip, so
# "tei" reads "tie" before "ten"
TYPO_WEIGHT = {(1, True): 0.7, (1, False): 0.5, (2, True): 0.45, (2, False): 0.4}
# bonus for consecutive query words found next to each other, by field
PHRASE_WEIGHT = {"title": 1.0, "keywords": 0.8, "asks": 0.6, "slug": 0.8, "text": 0.5}
PHRASE_SCALE = 0.4
EXACT_TITLE_BONUS = 1.0  # times the mean idf of the query words
COVERAGE_EXPONENT = 0.75  # score *= (query words matched / query words) ** this
# Each of an entry's `asks` is a question of its own: the query is compared with each ask apart and the
# entry takes its best one, so an ask that IS the question outweighs many asks that share a word each.
# An ask's likeness is the idf mass of the query words it holds over the geometric mean of the two masses
# (query and ask); below ASK_FLOOR it adds nothing, above it ASK_WEIGHT x likeness x the query's idf mass.
ASK_FLOOR = 0.3
ASK_WEIGHT = 0.3
# An ask that is the question, word for word (or near: ASK_SAME of the likeness), was written for it: a card
# holding one is not weighed below the rules as a card that merely shares the question's words
ASK_SAME = 0.95
# "how many X" is answered by an ask that counts ("how many X do I get"), less by one that names X
ASK_NOT_COUNTING = 0.75
# An FAQ ruling refines the rules it refers to: when the question holds every word of such a rule that
# it matches, and more of the ruling's besides, the ruling ranks FAQ_OVER_RULE times above that rule
FAQ_OVER_RULE = 1.15
# ... and a ruling that names a card comes before the card when the question holds words of the ruling that the
# card lacks, of an idf mass RULING_EXTRA_IDF or more: a word fewer than about a sixth of a game's entries hold
# ("extra step" for Ottoline Vesey's ruling), not only "play" ("why can't I play Family Lawyer on someone else's
# suspect" is the card's restriction, not the ruling on the Traitor playing it)
RULING_EXTRA_IDF = 1.5
# A question naming two cards or more asks how they meet: each named card weighs MEETING_WEIGHT (and the
# question's kind weight) below the rules and rulings that settle it
MEETING_WEIGHT = 0.5
# A card named by its rank and suit(s) ("the 7 of moons", "crown of knots", "9 of moons and suns"):
# the cards of that rank holding every suit named gain CARD_BY_RANK_WEIGHT x the query's idf mass and
# count as named (a question naming a card wants the card). The rest of the question counts as for any entry: a
# question about the card in play ("do I have to play a leaf on an ace of leaves lead") holds words the card
# lacks, and the rule holding them comes first.
CARD_BY_RANK_WEIGHT = 1.0
# "which 4 is a personality", "which of the 9s are events": the cards of that rank gain RANK_ASKED_WEIGHT x the
# query's idf mass, and the question asks for a card
RANK_ASKED_WEIGHT = 0.5
# "briefcase 3", "shoeprints 4": a card named suit first is named, with SUIT_FIRST_WEIGHT x the query's idf mass
SUIT_FIRST_WEIGHT = 0.5
# A question that denies ("why don't I draw", "what if I can't play any card") wants the rule whose title
# denies ("Enforcers never draw", "No playable card"): those weigh NEGATED_TITLE_WEIGHT. "Neither of us played a
# card" denies of both players what "nobody played" denies of all ("Neither player played a card at a location")
NEGATIONS = frozenset(["not", "never", "no", "cannot", "nothing", "none", "nobody", "neither", "nor"])
NEGATED_TITLE_WEIGHT = 1.3
# ... and "what does the 2 do" names the cards of that rank (as "2 of shoeprints" names one): the words after
# the rank that ask what they do
RANK_DOES = frozenset(["do", "does", "mean", "means"])
# A question ("can I play two different suits") asks for a rule: a card that shares its words
# ranks below the rules unless it matches much better. A bare name ("2 of shoeprints") does not.
QUESTION_KIND_WEIGHT = {"card": 0.6}

# ... unless the question asks for a card ("is there a card that lets me look") or names one
# ("where does the loupe go when I play Wrong Turning"): a card answers it as well as a rule.
_CARD_WANTED = re.compile(r"\b(?:cards?|agents?)\s+(?:that|which|lets?|makes?|gives?|allows?)\b"
                          r"|\bwhich\s+(?:of\s+\w+\s+)?(?:cards?|agents?)\b")
# ... and one who asks for a card ("is there a card that lets me peek") wants the card before
# a rule that shares its words
CARD_WANTED_KIND_WEIGHT = {"rule": 0.6, "faq": 0.6, "location": 1.0}
# ... and one who asks for a kind of them ("which suspect ...", "which site ...") wants one of that kind
# before the game's other cards (an action card doing the same thing, say)
OTHER_KIND_WEIGHT = 0.7
KIND_ASKED_RULE_WEIGHT = 0.3

# A card whose name shares only loose words with the question ("which pile gets looked at": Second Look;
# "who goes first": First Player) was not asked about: words of its name that LOOSE_DF or more entries
# hold, without the rest of the name, weigh its score by PARTIAL_NAME_WEIGHT. A rare word of a name
# ("lestrade" for Inspector Lestrade) still names the card.
PARTIAL_NAME_WEIGHT = 0.5
# A card a question names (by its whole name or a word of its name no other holds; not a deck card with a
# rank, named as a lead as often as a topic), not only as what happened
# before the question, counts as holding at least this share of the question's words: what is asked of it
# ("whats different this round", "which suits is it in") is words its own text need not hold. Not where two
# things are named (the question asks how they meet: MEETING_WEIGHT).
NAMED_COVER = 0.6
LOOSE_DF = 5
# ... while a word of a name that few entries hold names the card: the question is about it
RARE_NAME_DF = 3

# Rules in a section (or with a title) of these words vary or illustrate the game: variants,
# worked examples, strategy tips. A player asking about the game wants its rules first; one
# who names the variant still finds it, as its name matches.
SECONDARY_WORDS = frozenset(["variant", "example", "strategy", "tip"])
SECONDARY_WEIGHT = 0.8
# An FAQ ruling settles a narrow case: when it matches a question no better than a basic rule,
# the rule comes first ("who goes first" is the setup rule, not the ruling on the first round).
FAQ_WEIGHT = 0.97

# "How many investigators", "number of rounds": the answer states a count. Such a query carries
# COUNT_TERM as one more word, which every rule whose text states a number holds, so a count rule
# sharing the question's words ranks above one that merely names them. Better still is the rule
# that counts the very thing asked about: a rule stating "5 investigators" holds
# COUNTED_PREFIX + "investigator", which "how many investigators" asks for in place of COUNT_TERM.
COUNT_QUERY = re.compile(r"\b(?:how\s+(?:many|much|big|large)|number\s+of)\b")
COUNT_TERM = "#count"
COUNTED_PREFIX = "#count:"
COUNTED_WEIGHT = 1.5  # the count of the very thing asked about outweighs any count
COUNTED_WINDOW = 2  # words after a number that name what it counts ("36 evidence cards")
# a number's phrase ends at punctuation: "scores 7. Each later solver" counts no solver
_CLAUSE = re.compile(r"[.,;:()!?\u2013\u2014]")
_ONE_HYPHEN = re.compile(r"\bone-")  # "a one-page aid" counts no pages
_NUMBER_TEXT = """two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen twenty thirty once twice"""
# a count stated without a number: "play as many cards as you like", "any number of"
_LOOSE_COUNT = re.compile(r"\b(?:as many|any number|up to)\b")
_AT_ONCE = re.compile(r"\b(?:at|all at) once\b")  # "happens at once" counts nothing

_STOPWORD_TEXT = """
a an the of to in on at by for from with into onto upon and or but nor so as than then
is are was were be been being am do does did done can could may might will would shall
should i me my mine you your yours we us our they them their theirs he him his she her hers
it its itself this that these those there here what which who whom whose when where why how
if not any some such very just also about many much
happen happens happened happening anything something anyone someone thing things
ok okay allowed have has had having instead rather
don doesn didn isn aren wasn weren wouldn shouldn couldn mustn haven hasn hadn ll ve re
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
# Words that say little in a question ("can I play only trumps") but belong to the rules' texts
# ("Only the mastermind draws"): left out of queries, kept in the index.
QUERY_FILLERS = frozenset(["only", "now"])

_FEW = r"(?:two|three|four|five|six|seven|eight|[2-8])"
_ORDINALS = {"one": "first", "1": "first", "two": "second", "2": "second", "three": "third", "3": "third"}
_SHORTHAND = {"ppl": "people", "pts": "points", "hrs": "hours", "thru": "through", "outta": "out of",
              "wanna": "want to", "gonna": "going to", "gotta": "must", "u": "you", "ur": "your", "b4": "before",
              "w": "with", "n": "and", "1st": "first", "2nd": "second", "3rd": "third"}
_OUT_VERB = r"(?:work|works|worked|working|figure|figures|figured|figuring)\s+out"


@dataclass(frozen=True)
class Rewrite:
    """One rewrite of players' words into the rules' words: a phrase (a regular expression over normalised,
    lower-case text), what replaces it (a template, or a function of the match), the question it exists for,
    and whether it reads queries only ("query") or every text, the index's too ("all")."""

    phrase: re.Pattern[str]
    replacement: str | Callable[[re.Match[str]], str]
    example: str
    scope: str = "query"


def _rw(phrase: str, replacement: str | Callable[[re.Match[str]], str], example: str, scope: str = "query") -> Rewrite:
    return Rewrite(re.compile(phrase), replacement, example, scope)


# Every rewrite, in the order it is made: the "query" rows turn players' words at the table into the rules'
# words (queries only); the "all" rows then read every text, queries and rules alike, so that a phrase means
# one thing wherever it is written. tests/rules/test_search_rewrites.py runs each row's example.
REWRITES: tuple[Rewrite, ...] = (
    # texting shorthand, spelled out first so that every row below reads the words: "can 4 ppl play", "how many
    # pts", "w my lead", "me n 2 mates", "thru the pile", "ran outta cards", "a 2nd card"
    _rw(r"\b(?:ppl|pts|hrs|thru|outta|wanna|gonna|gotta|u|ur|b4|w|n|1st|2nd|3rd)\b(?!['\u2019-])",
        lambda m: _SHORTHAND[m.group(0)], "can 4 ppl play graves or nah"),
    # "my suspect" is the player's own, secret suspect (a word of its own, "mysuspect", that leans to
    # "secret" at a share: see ONE_WAY_SYNONYMS)
    _rw(r"\b(my|your|own)\s+(own\s+)?suspects?\b", r"\1 \2suspect mysuspect", "can i play a card on my suspect"),
    # what triggers a review
    _rw(r"\b(when\s+(?:does|do|will|can|is|are)\b.*?\b)happen(?:s|ed)?\b", r"\1trigger",
        "when does a review happen"),
    # what the game uses
    _rw(r"\b(?:play|plays|playing)\s+with\b", "use", "how many cards do we play with"),
    # the components
    _rw(r"\b(?:in|inside)\s+the\s+box\b|\bcomes?\s+with\b", "components", "what comes in the box"),
    # why the thing is there, not the points it scores
    _rw(r"\b(?:what|whats|what\s+is|is\s+there|any)\s+(?:the\s+|a\s+)?point\s+(?:of|in|to)\b", "why",
        "whats the point of the face down card"),
    # "which crook ..." asks for a suspect as "which suspect ..." does (the crooks of the city are the suspects)
    _rw(r"\bwhich\s+(?:crook|gangster|mobster|thug)s?\b", "which suspect", "which crook plays cards for a living"),
    # another player, who the question is not about (a district's neighbours stay adjacent ones, below)
    _rw(r"\b(?:my|your|his|her|their|our)\s+neighbou?rs?\b", "someone", "can my neighbour lie about his case"),
    # what is adjacent
    _rw(r"\bnext\s+to\b|\b(?:touch|touches|touching|border|borders|bordering|neighbou?rs?|neighbou?ring)\b",
        "adjacent", "which districts touch downtown"),
    # equal totals: "it ended in a draw" (a drawn card is not, nor "a draw step"), "both sides add up (to) the same", "the same total";
    # a drawn contest, "we drew on points", "they drew there" ("we drew 2 cards", "we both drew the last card",
    # "drew from the deck" keep the draw); a score against the same score, "9 v 9", "10 vs 10" (not a player
    # count, "2v2": from 5 on)
    _rw(r"\b(?:in|was|is|its|it|a)\s+(?:a\s+)?draw\b(?!\s+(?:step|phase|pile|deck|action|cards?)\b)|\badd(?:s|ed|ing)?\s+up\s+(?:to\s+)?(?:the\s+)?same\b"
        r"|\bthe\s+same\s+(?:total|score|points)\b|\b([5-9]|\d\d)\s*(?:v|vs|versus)\.?\s*\1\b(?![.,]?\d)"
        r"|\b(?:we|they|both|you|it)\s+(?:both\s+)?drew\b(?!\s+(?:a|an|the|\d+|one|two|three|four|five|six|seven"
        r"|eight|nine|ten|all|cards?|from|up|back|more|another|some|new|our|my|your|their|his|her|its|no|any|every"
        r"|last|first|extra)\b)", "tie", "what if both sides add up to the same"),
    # "whatever card he likes", "whichever one I want": any card (the wish is no word of the rules; "whatever it
    # is" in a ruling's text keeps its word: queries only)
    _rw(r"\b(?:whatever|whichever)\b((?:\s+(?!(?:i|he|she|you|they|we)\b)[a-z]+)?)"
        r"(?:\s+(?:i|he|she|you|they|we)\s+(?:like|likes|want|wants|wish|wishes|fancy|fancies|choose|chooses"
        r"|please|pleases)\b)?", r"any\1", "can the mastermind play whatever card he likes"),
    # "round one", "turn 1", "case 2": the first round, the first turn, the second case, as the rules
    # count them ("turn one of my cards" turns a card; "the 5-turn one" is no turn of the game)
    _rw(r"(?<![-\w])(round|turn|game|location|stage|plot|case|mini-game|minigame)\s+(one|1|two|2|three|3)\b(?!\s+of\b|-)",
        lambda m: f"{_ORDINALS[m.group(2)]} {m.group(1)}", "can anyone be knocked out in round one"),
    # "loads of cards", "a ton of cards", "a bunch of cards": too many cards (a hand limit, most often asked of)
    _rw(r"\b(?:a\s+(?:lot|load|ton|heap|bunch|stack)|loads|lots|tons|heaps|stacks)\s+of\b", "too many",
        "ive got loads of cards in my hand, do i need to get rid of some"),
    # "at the very start", "at the begining": the setup, before the first turn ("at the start of a round" and "at
    # the start of my turn" keep their start); an opening hand is the starting hand
    _rw(r"\b(?:at|from)\s+the\s+(?:very\s+)?(?:start|beginning|begining|outset)\b(?!\s+of\b)"
        r"|\bbefore\s+we\s+(?:start|begin)\b", "at setup", "how many cards do we pick up at the very start"),
    _rw(r"\bopening\s+(hands?)\b", r"starting \1", "whats the opening hand size for each seat"),
    # "who sets out the board": the setup, as "set up" is (queries only; "setting everything up" is read before,
    # in query_focus.READINGS)
    _rw(r"\b(?:set|sets|setting)\s+out\b", "setup", "am i the one who sets out the board"),
    # the score a game is "played to" is the score that wins it ("what score are we playing to", "play to 12")
    _rw(r"\b(?:play|plays|playing|played)\s+(?:up\s+)?to(?=\s*(?:$|[?.!,;]|\d+\b))", "win at",
        "what score are we playing to"),
    # "is it legal to", "is it ok to" only ask whether one may, as "can I" does: no word of what is asked about
    # (a hand with nothing "legal to play" is a stuck one, and keeps its word)
    _rw(r"\b(?:is\s+it|its|it)\s+(?:legal|ok|okay|fine|allowed)\s+(?:for\s+(?:me|us)\s+)?to\b", "can i",
        "is it legal to play a card face up if its not at the loupe"),
    # what a card "counts for", asked at the end of a what-question, is its worth ("what does a support card count
    # for"); "does it count for us" asks whose side it counts for
    _rw(r"\b(whats?\b.*?\b)count\s+for(?=\s*(?:$|[?.!,;]))", r"\1count worth", "what does a support card count for"),
    # even totals are equal ones: "the totals are even", "we came out (exactly) even" (not "even if", "even though")
    _rw(r"\b(?:are|is|was|were|be|its|come|comes|came|end|ends|ended|finish|finished)\s+(?:up\s+|out\s+)?(?:exactly\s+|dead\s+|perfectly\s+)?even\b"
        r"(?!\s+(?:if|though|tho|when|after|before|with|so|more|less)\b)", "equal", "what if the totals are even"),
    # how many may play: "can four of us play", "can six people play", "can 7 of us squeeze into one game", "max
    # players?", "minimum number of players",
    # whether the game suits a number: "does pi work with 4", "is it good for three players"
    _rw(rf"\bcan\s+(?:we\s+play\s+with\s+)?{_FEW}\s+(?:of\s+us|players|people)"
        r"(?:\s+(?:play|fit|squeeze|join|sit)(?:\s+(?:in|into|at))?(?:\s+(?:one|a|the|this)\s+(?:game|table))?)?\b"
        r"|\b(?:max|maximum|min|minimum|most|fewest|least)\s+(?:number\s+of\s+)?(?:players|people)\b"
        rf"|\b(?:work|works|playable|good|fun|ok|okay|fine)\s+(?:with|for)\s+{_FEW}"
        r"(?:\s+(?:players|people|of\s+us))?(?!\s*[a-z])",
        "how many players", "can four of us play"),
    # players
    _rw(rf"\b({_FEW})\s+of\s+us\b", r"\1 players", "two of us solved on the same turn"),
    # a turn: "my go", "skip their go", "on the same go"
    _rw(r"\b(my|your|their|his|her|our|same|next|a|one|each|every|whose|this|that|per|first|last|another|extra)\s+go\b",
        r"\1 turn", "who skips their go"),
    # "the first thing I do", "what do I do first" ask what a turn holds (not the game's first turn or round):
    # "whats the first thing i do on my go" is "what do i do on my turn" (a turn's steps come in order)
    # ("does it have to be the first thing I do" asks about the order, and keeps its "first")
    _rw(r"\b(what(?:s|\s+is)?\s+)(?:the\s+)?first\s+(thing\s+(?:i|you)\s+(?:do|does|must|have\s+to|need\s+to))\b"
        r"|\b(what\s+(?:do|must|should)\s+(?:i|you)\s+do)\s+first\b",
        lambda m: m.group(3) or m.group(1) + m.group(2),
        "whats the first thing i do on my go"),
    # "what do we do first", "the first thing we do when we sit down", with no turn or round in the question: the
    # setup (not the first round's rules)
    _rw(r"^(?!.*\b(?:turn|turns|go|round|rounds|plot|review|location|case)\b)(.*?)"
        r"\b(?:what\s+do\s+we\s+do\s+first|(?:what(?:s|\s+is)\s+)?(?:the\s+)?first\s+thing\s+we\s+do)\b",
        r"\1how do we setup", "whats the first thing we do when we sit down"),
    # the whole question "how do you play", "how do we play this game", "how does the game work": the game's overview
    # and goal ("play" alone is in every rule on playing a card, and the other words are function words)
    _rw(r"^\s*(?:so\s+|ok\s+|okay\s+)?how\s+(?:do|does|should|would)\s+(?:you|we|i|one|(?:this|the)\s+game)\s+"
        r"(?:play|work)(?:\s+(?:this|the)(?:\s+game)?|\s+(?:it|again|exactly))?\s*[?.!]*\s*$",
        "overview goal how to play", "how do you play"),
    # where the players sit is the seating ("everyone" and a lone "sit" lean anywhere)
    _rw(r"\bwhere\s+(?:(?:do|does|should|will|must)\s+)?(?:we|everyone|everybody|people|players|each\s+player|i|you)\s+"
        r"(?:sit|sits|sitting)\b", "seating sit", "how do we decide where everyone sits"),
    # a "cap" on cards is their limit: "the card cap from the site", "is there a hand cap"
    _rw(r"\b(card|cards|hand|influence|support|site|location)\s+caps?\b|\b(the|a)\s+caps?\b(?=\s+(?:on|of|for|from)\b)",
        lambda m: f"{m.group(1) or m.group(2)} limit", "does the card cap from the site still apply"),
    # "none of us have a single card left": nobody has any ("none" and "single" alone lean to the single last player)
    _rw(r"\b(?:none\s+of\s+(?:us|you|them)|nobody|no\s+one|noone)\s+(?:has|have|had|holds?|hold)\s+(?:a\s+single|even\s+one)"
        r"\s+(card|cube|disc|tile)s?\b", r"nobody has any \1s", "none of us have a single card left"),
    # "all my cubes are on the board already": every one is out, none left to place (not where they lie)
    _rw(r"\ball\s+(?:of\s+)?(?:my|our|your|his|her|their|the)\s+(\w+)\s+(?:are|r|is|were)\s+(?:already\s+)?(?:on|in|out\s+on)"
        r"\s+the\s+(?:board|table|map)(?:\s+already)?\b", r"run out of \1", "all my cubes r on the board already"),
    # "what's different about playing there", "what's special about the museum": what the place or card does
    # ("different" and "playing" alone lean to the rulings that tell one case apart)
    _rw(r"\bwhat(?:s|\s+is|\s+are)?\s+(?:so\s+)?(?:different|special|unusual)\s+(?:about|at|with|in)"
        r"(?:\s+(?:playing|being|going|it))?\b", "what does it do", "whats different about playing there"),
    # "in the same game", "in one game": played together (not equal totals, which "same" leans to)
    _rw(r"\b(?:in|during|for)\s+(?:the\s+)?(?:same|one)\s+(?:game|match)\b", "together",
        "can we do the traitor and the suspect powers in the same game"),
    # "the new guy", "a newbie": a new player, not a new card ("is he allowed a new one" asks for a new hand)
    _rw(r"\b(?:the|a|our)\s+new\s+(?:guy|girl|kid|person|bloke)\b|\bnewbies?\b|\bnoobs?\b", "new player",
        "who should play holmes, the new guy or the one who knows the game"),
    # a deck "run dry" (or "gone dry") has run out
    _rw(r"\b(?:run|runs|ran|running|gone|went|goes|is|its|has)\s+dry\b", "out", "the deck's run dry, what now"),
    # "could i end up with no cards" asks whether one can run out of them
    _rw(r"\b(?:end|ends|ended|ending)\s+up\s+with\s+(?:no|zero|nothing\s+(?:in|of))\b", "run out of",
        "could i end up with no cards in my hand"),
    # ahead: "Moriarty's up by 3", "Moriarty's 2 up"
    _rw(r"\bup\s+by\b", "ahead by", "moriarty is up by 3 in a thread"),
    _rw(rf"\b({_FEW}|one)\s+up\b", r"ahead by \1", "moriarty is 2 up in a thread"),
    # the player count: "can I play this by myself", "on my own" (not "on my own suspect"), "single player"
    _rw(r"\b(?:by\s+(?:myself|yourself|ourselves)|on\s+(?:my|your)\s+own\b(?!\s+[a-z])|single[\s-]player"
        r"|one[\s-]player)\b", "solo players", "can i play this by myself"),
    # "I figured out which tile it is": I know it; "how do we work out the winner": finding out says nothing
    # of what is asked about (neither is work)
    _rw(rf"\b{_OUT_VERB}\b(?=(\s+(?:which|what|who|where|whose)\b)?)", lambda m: "know" if m.group(1) else "",
        "i worked out which tile my disc is for"),
    # playing it there: "put my card on", and the table's "chuck", "slap", "stick", "shove" a card on or into a
    # place (not on the discard pile; "chuck it away" is discarding, below; "put a card into play" is the action)
    _rw(r"\b(?:put|puts|putting|chuck|chucks|chucked|chucking|slap|slaps|slapped|stick|sticks|shove|shoves|shoved|"
        r"plonk|plonks|plonked|bung|bungs|bunged)\s+((?:a|my|the|this|that|your|one)\s+(?:\w+\s+)?cards?)"
        r"(?:\s+(?:over|down|back))?\s+(on|onto|to|under|into|in)\b(?!\s+(?:the\s+|a\s+)?discard|\s+play\b)",
        r"play \1 \2", "can i put my card on any suspect"),
    # a player count: "can we play 2v2", "3 vs 1"
    _rw(r"\b(\d)\s*(?:v|vs|versus)\s*(\d)\b", r"\1 against \2 players", "can we play 2v2"),
    # "put out" is put, placed ("how many detectives do i get to put out"): not out of the game, nor out of cards
    _rw(r"\b(put|puts|putting)\s+out\b", r"\1", "how many detectives do i get to put out"),
    # discard it
    # ... as is throwing it away: "throw some away", "threw my card away" (Hasty's own "throw away" reads first)
    _rw(r"\bget(?:s|ting)?\s+rid\s+of\b|\b(?:throw|throws|threw|thrown|throwing|chuck|chucks|toss|tosses)"
        r"((?:\s+(?:some|them|it|one|two|cards?|(?:my|a|the|your|his|her|their)\s+(?:\w+\s+)?cards?))?)\s+away\b",
        lambda m: f"discard{m.group(1) or ''}", "can i get rid of a card"),
    # who goes first, not the first round's rules: "who takes the first turn", "who plays first", "who starts"
    _rw(r"\b(?:take|takes|took|taking|has|have|gets?|play|plays)\s+(?:the\s+)?first\s+turn\b", "goes first",
        "who takes the first turn"),
    _rw(r"\bwho\s+(?:plays|starts|begins)(?:\s+first)?\b|\bwho(?:s|\s+is)\s+up\s+first\b", "who goes first",
        "who starts"),
    # "who gets to be the mastermind first" asks who is the first mastermind (not what the mastermind does first)
    _rw(r"\bwho\s+(?:gets\s+to\s+be|is|will\s+be|becomes?)\s+(?:the\s+)?([a-z]+)\s+first\b", r"who is the first \1",
        "who gets to be the mastermind first"),
    # "when is the game over", "is the location over?": it ends ("over" alone leans to "end" at a share only, and
    # "move it over" keeps its word)
    _rw(r"\b(is|are|was|its|game|case|location|stage)\s+over(?=\s*(?:$|[?.!,;]))", r"\1 end",
        "when is the whole game over"),
    # cards picked up are drawn: "do i pick up cards", "how many do I pick up" (not "pick", which chooses)
    _rw(r"\b(?:pick|picks|picked|picking)\s+up\b", "draw", "im not the mastermind this turn, do i pick up cards"),
    # a deck gone through is run out: "we've gone through all the site cards", "went through the whole deck" ("go
    # through the discards" looks at them, and keeps its words)
    _rw(r"\b(?:gone|went|been|got)\s+through\s+(?=(?:all|every|the\s+whole|the\s+entire)\b)", "out of ",
        "we've gone through all the site cards, now what"),
    # "which locations don't have a trump": the ones with no trump, as the rules say it (the "not" alone denies a
    # verb; "no trump" is the rules' phrase)
    _rw(r"\b(?:do|does)(?:n['\u2019]?t|\s+not)\s+have\s+(?:a|an|any)\b", "have no", "which locations don't have a trump"),
    # --- every text ---
    # "can't", "cant" and "can not" are "cannot", a word of their own: "can" alone is a function word and the
    # "t" a lone letter, so "can't be played" would lose its sense entirely
    _rw(r"\bcan(?:['\u2019]t|t|\s+not)\b", "cannot", "why can't i play this card here", "all"),
    # "don't", "dont", "won't", "isnt": the verb and "not" (a function word), not a word "dont" nor "won" (win)
    _rw(r"\b(do|does|did|is|are|was|were|has|have|had|would|should|could|must|need)n['\u2019]?t\b|\b(wo)n['\u2019]?t\b",
        lambda m: f"{m.group(1) or 'will'} not", "why dont i get to draw", "all"),
    # "run out (of)" is "out (of)": "I ran out of cubes" is about cubes, as the rules' "out of cards"
    _rw(r"\b(?:run|runs|ran|running)\s+out\b", "out", "i ran out of cubes", "all"),
    # "U-Turn", "X-ray": a lone letter joined to its word is one word ("uturn"), not a dropped letter and "turn"
    _rw(r"\b([a-z])-(?=[a-z]{2})", r"\1", "what does the u-turn do", "all"),
    # "face up" and "face down" (or "face-down") are one word each: "up" alone would match "add up"
    _rw(r"\bface[\s-]+(up|down)\b", r"face\1", "does the face down card count", "all"),
    # "face card" (a personality, a court card) is one word: not a face-down or face-up card (nor Hasty's
    # About Face card)
    _rw(r"(?<!about\s)\bface[\s-]+cards?\b", "facecard", "how many face cards are there", "all"),
    # "set up" (or "set-up") is the setup, not a set of cards: "how do we set up" asks for the Setup rules
    _rw(r"\b(?:set|sets|setting)[\s-]+up\b", "setup", "how do we set up", "all"),
    # "have to", "need to", "got to" are "must": an obligation is what the following rules speak of
    _rw(r"\b(?:have|has|had|need|needs|got)\s+to\b", "must", "do i have to follow", "all"),
)


_REWRITES_BY_SCOPE = {scope: tuple(row for row in REWRITES if row.scope == scope) for scope in ("query", "all")}


def rewrite(text: str, scope: str, rows: Iterable[Rewrite] | None = None) -> str:
    """The text with every rewrite of a scope ("query" or "all") made in order (of `rows`, by default all of
    REWRITES)."""
    for row in _REWRITES_BY_SCOPE[scope] if rows is None else (row for row in rows if row.scope == scope):
        text = row.phrase.sub(row.replacement, text)
    return text


class TableWords:
    """One game's own table words (game.yaml `table_words:`): what players at that game's table call a thing,
    read as the rules' word before the shared rewrites above ("round" is a mini-game in P.I. alone: in Hasty a
    round is a round). The longest phrase wins where two overlap ("second round" before "round")."""

    def __init__(self, words: dict[str, str]):
        self.words = {normalize(said): normalize(meant) for said, meant in words.items()}
        ordered = sorted(self.words, key=len, reverse=True)
        self.phrase = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in ordered) + r")\b") if ordered else None

    @functools.lru_cache(maxsize=1024)  # noqa: B019 -- one per game, kept for the index's life
    def read(self, query: str) -> str:
        text = normalize(query)
        return self.phrase.sub(lambda m: self.words[m.group(0)], text) if self.phrase else text


@functools.lru_cache(maxsize=1024)
def _rewritten_query(query: str) -> str:
    """A question through the rewrites every game shares (REWRITES, query scope); a game's own table words
    (TableWords) are read before it, by the game's index."""
    return rewrite(normalize(query), "query")


# Verbs that say little of what a question is about ("how many discs do I get"): they count, but
# less than the words that name the thing asked about.
LIGHT_WORDS = {"get": 0.3, "cannot": 0.3}
# ... and they count less towards how much of the question an entry holds (COVERAGE_EXPONENT): half a word, so
# "why can't I draw cards when I'm not the mastermind" is not answered by "Draw up to five" for holding "cannot"
# beside the words "Enforcers never draw" holds too
LIGHT_COVER = dict.fromkeys(LIGHT_WORDS, 0.5)

# "get" before a past participle makes a passive ("my suspect got killed"): a filler then.
PASSIVE_GET = frozenset(["get", "gets", "got", "getting", "gotten"])


def _is_participle(word: str) -> bool:
    return (word.endswith("ed") and len(word) > 4) or word in IRREGULAR_PARTICIPLES


# A query that opens with one of these (or carries a "?") is a question: the player wants the
# rule, so a card that merely shares a word ranks below the rules (see QUESTION_KIND_WEIGHT).
_QUESTION_OPENER_TEXT = """
what whats which who whom whose when where why how can could may might must should shall
do does did is are was am will would if
"""
QUESTION_OPENERS = frozenset(_QUESTION_OPENER_TEXT.split())

# Words that mean the same at the table, with the share of a match each is worth for the
# others. Stemmed at import (so plural and -ing forms listed here fall together with their
# word); a query word expands to the rest of its groups.
SYNONYM_GROUPS: tuple[tuple[float, tuple[str, ...]], ...] = (
    (0.5, ("deuce", "two", "2")),
    (0.9, ("ace", "a")),  # "a" only as a rank: "a of shoeprints"
    (0.6, ("tie", "equal", "level")),
    (0.9, ("trump", "trumps")),
    (SYNONYM_WEIGHT, ("clock", "clocks", "time", "turn", "token")),
    (0.9, ("pass", "passes", "passing")),
    (0.9, ("mastermind", "villain")),
    (SYNONYM_WEIGHT, ("unmask", "unmasking", "guess", "reveal")),
    (0.5, ("facedown", "faceup")),  # both answer "which way up"
    (0.8, ("shuffle", "reshuffle")),
    (SYNONYM_WEIGHT, ("see", "look", "peek", "view")),
    (0.5, ("hidden", "secret", "unseen")),
    (0.9, ("success", "successful", "succeed", "succeeds")),
    (SYNONYM_WEIGHT, ("foil", "foiled", "stop", "thwart", "fail", "fails")),
    (SYNONYM_WEIGHT, ("worth", "value")),
    (0.5, ("start", "setup", "begin", "beginning")),
    (0.5, ("different", "mix", "mixed", "several")),
    (0.8, ("put", "place", "placing")),
    (0.8, ("pick", "choose", "choice", "select")),
    (0.8, ("skip", "miss")),  # "skip their go": "misses their turn"  # "who picks the card": "of their choice"
    (0.8, ("district", "location")),  # P.I.'s rulebook calls its districts locations
    *((0.9, pair) for pair in (("zero", "0"), ("one", "1"), ("two", "2"), ("three", "3"), ("four", "4"),
                               ("five", "5"), ("six", "6"), ("seven", "7"), ("eight", "8"),
                               ("nine", "9"), ("ten", "10"), ("eleven", "11"), ("twelve", "12"))),
)

# Words that point to others but not back: a drawn game is a tie, but a player who asks about
# a tie does not mean drawing cards (nor does "draw" alone, mostly: the tie rules list it).
ONE_WAY_SYNONYMS: tuple[tuple[float, tuple[str, ...], tuple[str, ...]], ...] = (
    (0.5, ("mysuspect",), ("secret",)),  # "my suspect" (REWRITES) is the secret one
    (0.6, ("drawn",), ("tie", "equal")),
    (0.4, ("get", "gets"), ("take",)),  # "who gets the evidence"
    (0.5, ("same",), ("equal", "tie")),  # "the same total"
    (0.4, ("play", "plays", "played"), ("follow",)),  # an enforcer's play follows the lead
    (0.5, ("must",), ("optional",)),  # "do I have to ..." is answered by "must" or by "optional"
    (0.8, ("face",), ("facedown", "faceup")),
    (0.8, ("rulebook",), ("rule",)),
    (0.5, ("beat", "beats", "override", "overrule"), ("win", "higher")),
    (0.5, ("everyone", "everybody"), ("each",)),
    (0.4, ("go", "goes"), ("put", "place")),  # "where do the evidence cards go"
    (0.4, ("after",), ("next",)),  # "where do we go after this location"
    (0.4, ("before",), ("early", "premature")),  # "reveal before the end"
    (0.6, ("more", "bigger", "greater"), ("higher",)),
    (0.7, ("number",), ("rank",)),  # "what number is the Cave": its rank
    (0.8, ("hit", "hits"), ("reach", "reached")),  # "I hit my card limit"
    (0.6, ("over", "finished"), ("end", "finish")),
    (0.5, ("worth",), ("point", "score")),  # "how much is evidence worth": its points
    (0.5, ("best", "good", "advice", "dumb", "stupid", "smart", "wise", "clever", "idea"), ("strategy", "tip")),
    (0.5, ("two", "2"), ("twice", "second")),
    (0.9, ("winner",), ("win",)),  # "who is the winner": who wins
    (0.5, ("team", "teams", "partner", "partners"), ("player",)),  # "can we play in teams"
    # the crooks of the city, at the table, are the suspects ("which crook opens safes for a living")
    (0.8, ("crook", "crooks", "gangster", "gangsters", "mobster", "mobsters", "thug", "thugs"), ("suspect",)),
    # a card flipped is turned over, mostly to show it ("a thread thats already flipped": a revealed one); a card
    # shifted or slid is moved
    (0.7, ("flip", "flips", "flipped", "flipping"), ("reveal", "turn")),
    (0.8, ("shift", "shifts", "shifted", "shifting", "slide", "slides", "slid", "sliding"), ("move",)),
    # players who coordinate or collude talk it over ("can me and the other enforcer coordinate out loud")
    (0.7, ("coordinate", "coordinating", "collude", "colluding", "confer", "conferring", "conspire"),
     ("talk", "discuss")),
    # a play done over, or forgotten, is a mistake to fix ("my son forgot he had a matching card ... redo?")
    (0.6, ("redo", "undo", "rewind", "forgot", "forget", "forgotten", "oops", "accidentally"), ("mistake", "fix")),
    # a solve blown, botched or flubbed went wrong ("blew my solve attempt, whats the penalty")
    (0.7, ("blew", "blow", "blown", "botch", "botched", "flub", "flubbed", "fluff", "fluffed", "muff", "muffed"),
     ("wrong", "fail")),
    (0.8, ("bin", "binned", "chuck", "ditch", "toss", "dump"), ("discard",)),
    # a magnifier is the magnifying glass (Hasty's loupe token, a Graves suit)
    (0.8, ("magnifier", "magnifiers"), ("loupe", "magnify")),  # "do my cards get binned"  # "two investigators in one district": a second one there
)

# Related words from WordNet 3.0 (rules/data/related.txt, written by tools/build_synonyms.py; its licence
# beside it): a query word also finds the words of its commonest senses at RELATED_SAME of a match, and
# their broader and narrower words at RELATED_NEAR, never more than a synonym the table above gives.
RELATED_SAME = 0.0
RELATED_NEAR = 0.05
# a word an entry holds only through a related word counts share / RELATED_COVER of a word held
# (a synonym of the table above, share over RELATED_COVER, counts as the word)
RELATED_COVER = 0.35
RELATED_FILE = Path(__file__).resolve().parent / "data" / "related.txt"


@functools.lru_cache(maxsize=1)
def _related_lines() -> dict[str, str]:
    """The related-word table's lines by their word, read on the first query (the rest split on demand)."""
    try:
        text = RELATED_FILE.read_text(encoding="utf-8")
    except OSError:
        return {}  # a search without it still works, on the table above alone
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


@functools.lru_cache(maxsize=4096)
def _related_words(word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    same, _, near = _related_lines().get(word, "").partition("\t")
    return tuple(same.split()), tuple(near.split())


def related(word: str) -> dict[str, float]:
    """WordNet's words related to a stemmed word, each with its share of a match (RELATED_SAME, RELATED_NEAR)."""
    same, near = _related_words(word)
    out = dict.fromkeys(near, RELATED_NEAR)
    out.update(dict.fromkeys(same, RELATED_SAME))
    out.pop(word, None)
    return out


RANK_NAMES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}


# --- normalisation -----------------------------------------------------------------------

_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s\b")
_WORD = re.compile(r"[a-z0-9]+")


def normalize(text: str) -> str:
    """Lower case, accents stripped, possessive 's dropped."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _POSSESSIVE.sub("", text)


def _undouble(word: str) -> str:
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouslz":
        return word[:-1]
    return word


# Irregular forms a player (or a rule) uses, read as their plain verb: "the led Ace" is the lead.
# ("drawn" is left alone: a drawn game is a tie, see ONE_WAY_SYNONYMS.)
IRREGULAR = {
    "led": "lead", "dealt": "deal", "drew": "draw", "won": "win", "took": "take", "taken": "take",
    "chose": "choose", "chosen": "choose", "went": "go", "gone": "go", "lost": "lose", "shown": "show",
    "hid": "hide", "hidden": "hide", "seen": "see", "saw": "see", "ran": "run", "got": "get",
    "gotten": "get", "gave": "give", "given": "give", "made": "make", "beaten": "beat", "held": "hold",
    "kept": "keep", "threw": "throw", "thrown": "throw", "knew": "know", "known": "know", "paid": "pay",
    # "lied" is only ever the untruth ("lay" is the past of lying somewhere): the rules' "misled"
    "misled": "mislead", "lied": "mislead",
}


IRREGULAR_PARTICIPLES = frozenset(["dealt", "taken", "chosen", "gone", "lost", "shown", "hidden", "seen", "given",
                                   "made", "beaten", "held", "kept", "thrown", "known", "paid", "won", "led",
                                   "drawn", "stuck", "caught", "hit", "put", "shot", "slain", "struck"])


def stem(word: str) -> str:
    """A light stemmer: irregular forms, plural -s/-es/-ies, -ing, -ed, -tion, -able and a final -e ("parks" -> "park")."""
    w = IRREGULAR.get(word, word)
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ed") and not w.endswith("eed"):
        w = _undouble(w[:-2]) if len(w) > 4 else w[:-1]
    elif w.endswith("ing") and len(w) > 5:
        w = _undouble(w[:-3])
    # a noun or adjective made from a verb reads as the verb: "restriction" -> "restrict" (as
    # "restricted"), "playable" -> "play", "elimination" -> "eliminat" (as "eliminated")
    if w.endswith("tion") and len(w) > 6:
        return w[:-3]
    if w.endswith("able") and len(w) > 6:
        return w[:-4]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def _words(text: str) -> list[str]:
    return _WORD.findall(rewrite(normalize(text), "all"))


def tokenize(text: str) -> list[str]:
    """The normalised, stemmed tokens of a text, function words and lone letters left out."""
    out = []
    for word in _words(text):
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        out.append(stem(word))
    return out


@functools.lru_cache(maxsize=4096)
def is_stopword_typo(word: str) -> bool:
    """True for a mistyped function word: one edit from one of 4+ letters ("waht"), or two letters swapped ("cna")."""
    if word in STOPWORDS or not word.isalpha() or len(word) < 3:
        return False
    for stop in STOPWORDS:
        if len(stop) < 3 or abs(len(stop) - len(word)) > 1:
            continue
        if len(word) == 3 and len(stop) == 3:
            if sorted(stop) == sorted(word) and damerau_levenshtein(word, stop, 1) == 1:
                return True
        elif len(stop) >= 4 and damerau_levenshtein(word, stop, 1) == 1:
            return True
    return False


@functools.lru_cache(maxsize=1024)
def is_question(text: str) -> bool:
    """True for a query phrased as a question: it opens with a question word (or its typo) or carries a "?"."""
    words = _words(text)
    if "?" in text or not words:
        return "?" in text
    first = words[0]
    return first in QUESTION_OPENERS or (is_stopword_typo(first) and any(
        damerau_levenshtein(first, opener, 1) <= 1 for opener in QUESTION_OPENERS))


# A question typed on after what happened with no comma ("they led the ace of moons what can I play", "I played
# on Hattie Quill's pile does my card get thrown away"): its clause starts at a question word that a subject
# or a verb follows
_ASK_START = re.compile(r"\s(?=(?:do|does|did|can|could|may|must|should|will|would)\s+"
                        r"(?:i|we|you|he|she|it|they|that|this|my|your|his|her|their|the)\b"
                        r"|(?:what|whats|how|why)\s+(?:can|do|does|did|should|happens?|now|if|about|is|are|am|i|we)\b)")


def _clauses(text: str) -> list[str]:
    """A normalised text's clauses: parted at punctuation, and before a question typed on without a comma."""
    return [clause for part in _CLAUSE.split(text) for clause in _ASK_START.split(part)]


@functools.lru_cache(maxsize=1024)
def asks_somewhere(text: str) -> bool:
    """True for a question, or a query whose later clause asks ("he led the lunatic and I threw the journey,
    does mine count"): a player telling what happened before asking about it."""
    return is_question(text) or any(clause[:1] and clause[0] in QUESTION_OPENERS - CLAUSE_LINKS
                                    for clause in (_words(part) for part in _clauses(normalize(text))[1:]))


@functools.lru_cache(maxsize=1024)
def told_and_asked(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A query that tells what happened before the clause that asks ("they led the ace of moons and I have
    no moons, what can I play"): the words of the telling clauses and those from the asking one on; None
    when the query asks from its start (or never)."""
    if is_question(text):
        return None
    parts = _clauses(normalize(text))
    for at, part in enumerate(parts[1:], 1):
        clause = _words(part)
        if clause[:1] and clause[0] in QUESTION_OPENERS - CLAUSE_LINKS:
            return tuple(_words(_rewritten_query(" , ".join(parts[:at])))), tuple(_words(_rewritten_query(" , ".join(parts[at:]))))
    return None


# words that open a clause of a statement as well as a question ("the 7 of moons, if led")
CLAUSE_LINKS = frozenset(["if", "when", "where", "which", "who", "whom", "whose"])


def _synonym_table(groups: Iterable[tuple[float, tuple[str, ...]]]) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {}
    for weight, words in groups:
        stems = {stem(w) for w in words if w not in STOPWORDS and not (len(w) == 1 and w.isalpha())}
        for s in stems:
            slot = table.setdefault(s, {})
            for other in stems - {s}:
                slot[other] = max(slot.get(other, 0.0), weight)
    return table


def _one_way_table(table: dict[str, dict[str, float]],
                   pointers: Iterable[tuple[float, tuple[str, ...], tuple[str, ...]]]) -> dict[str, dict[str, float]]:
    for weight, sources, targets in pointers:
        for source in {stem(w) for w in sources}:
            slot = table.setdefault(source, {})
            for target in {stem(w) for w in targets} - {source}:
                slot[target] = max(slot.get(target, 0.0), weight)
    return table


SYNONYMS = _one_way_table(_synonym_table(SYNONYM_GROUPS), ONE_WAY_SYNONYMS)
NUMBER_WORDS = frozenset(_NUMBER_TEXT.split())
# "once the fifth location has resolved", "after the third mini-game": the last of a series says how many
# there are ("first" does not: the first player is one of any number)
ORDINAL_WORDS = frozenset(["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"])


def damerau_levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance with adjacent transpositions (optimal string alignment).

    With `limit`, any distance above it may be reported as limit + 1 (early exit).
    """
    if a == b:
        return 0
    la, lb = len(a), len(b)
    if limit is not None and abs(la - lb) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(lb + 1))
    for i in range(1, la + 1):
        cur = [i] + [0] * lb
        ca = a[i - 1]
        for j in range(1, lb + 1):
            cost = 0 if ca == b[j - 1] else 1
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == b[j - 1]:
                d = min(d, prev2[j - 2] + 1)
            cur[j] = d
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[lb]


def _deletes(word: str, depth: int) -> set[str]:
    """Every string made by deleting up to `depth` letters of `word`."""
    out = {word}
    frontier = {word}
    for _ in range(depth):
        nxt = set()
        for w in frontier:
            for i in range(len(w)):
                nxt.add(w[:i] + w[i + 1:])
        out |= nxt
        frontier = nxt
    return out


# --- entries from a database -------------------------------------------------------------


@dataclass
class _Doc:
    entry: Entry
    fields: dict[str, list[list[str]]]  # field -> segments of tokens (phrases never span segments)
    weight: float = 1.0  # below 1 for entries that only illustrate or vary the rules
    asks: tuple[tuple[frozenset[str], bool], ...] = ()  # each ask's tokens, and whether it asks for a count
    rank: str = ""  # a deck card's rank, as rank_key spells it ("a", "7", "crown")
    refs: tuple[str, ...] = ()  # an FAQ ruling's: the ids of the rules (and cards) it refines
    suits: frozenset[str] = frozenset()  # and its suits (stemmed names)
    kind_word: str = ""  # a card's: what its component's cards are ("suspect", "site"), see _head_noun
    # a card's printed texts (ability, powers, note, or its text fields) without its facts: cards printing the
    # same, of one kind (two agents, not an agent and an action), fold into one hit (Hasty's Keyhole and
    # Spyglass do the same, whatever their restrictions)
    fold: str = ""


_RANK_WORDS = {"ace": "a", "king": "k", "queen": "q", "jack": "j",
               **{w: str(n) for n, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])}}


def rank_key(word: str) -> str:
    """A card's rank as one spelling: "Ace", "A" and "a" are "a"; "seven" and "7" are "7"; "crowns" "crown"."""
    word = normalize(word).strip()
    return _RANK_WORDS.get(word, word if len(word) <= 2 else stem(word))


def _ask_list(asks: Iterable[str]) -> tuple[tuple[frozenset[str], bool], ...]:
    """Each ask (a question players ask) as its own token set, with whether it asks "how many"."""
    out = []
    for ask in asks:
        toks = frozenset(tokenize(ask))
        if toks:
            out.append((toks, bool(COUNT_QUERY.search(" ".join(_words(ask))))))
    return tuple(out)


def _segments(texts: Iterable[str]) -> list[list[str]]:
    return [toks for toks in (tokenize(t) for t in texts if t) if toks]


def _text_of(value: Any) -> str:
    """An ability (or similar) field's printed text: the string, or a mapping's `text`."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value["text"].strip()
    return ""


def _field_type(spec: Any) -> str:
    return str(spec.get("type")) if isinstance(spec, dict) else ""


def _kind_of(component: Any) -> str:
    """"location" for a component of locations (by its id or name), else "card"."""
    words = tokenize(f"{component.id} {component.name}")
    return "location" if stem("location") in words or stem("district") in words else "card"


def _value_text(value: Any, ftype: str, db: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_value_text(v, ftype, db) for v in value) or "none"
    if ftype == "suit":
        suit = db.suits.get(value)
        return suit.name if suit is not None else str(value)
    if ftype == "mark":
        mark = db.marks.get(value)
        return mark.name if mark is not None else str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _names_by_id(db: Any) -> dict[str, str]:
    """Every named record's and card's name by id, for the fields that refer to them."""
    return {c.id: c.data["name"] for c in [*db.all_records(), *db.all_cards()] if isinstance(c.data.get("name"), str)}


def _card_docs(db: Any) -> Iterator[_Doc]:
    """Every card worth looking up: any card with an ability text or a name; and the named records cards
    refer to (P.I.'s districts, with their neighbours)."""
    names = _names_by_id(db)
    kinds = {card.id: _head_noun(c) for c in [*db.components.values(), *db.records.values()] for card in c.cards}
    for component in [*db.components.values(), *db.records.values()]:
        specs = component.fields if isinstance(component.fields, dict) else {}
        kind = _kind_of(component)
        for card in component.cards:
            data = card.data
            ability = _text_of(data.get("ability"))
            # any other printed rules text of the card (a Hasty suspect's power): shown and indexed as its text
            powers = [_text_of(v) for k, v in data.items() if k != "ability" and isinstance(v, dict) and _text_of(v)]
            name = data.get("name") if isinstance(data.get("name"), str) else ""
            if not ability and not name:
                continue
            if name:
                title = name.strip()
                if isinstance(data.get("epithet"), str) and data["epithet"].strip():
                    title += ", " + data["epithet"].strip()
                facts = []
                worded: dict[str, str] = {}  # a fact as a player reads it, shown in its place (indexed as it was)
                listed: list[str] = []  # what a list of the card's counts: "Adjacent: ..." counts districts
                for key, spec in specs.items():
                    ftype = _field_type(spec)
                    if key in ("name", "epithet", *ART_FIELDS) or key not in data:
                        continue
                    item = _field_type(spec.get("item")) if ftype == "list" and isinstance(spec, dict) else ""
                    if ftype in ("int", "suit", "mark", "enum", "symbol", "bool") or \
                            (ftype == "str" and isinstance(data[key], str)):
                        label = key.replace("_", " ").capitalize()
                        facts.append(f"{label}: {_value_text(data[key], ftype, db)}")
                        words = spec.get("words") if ftype == "enum" else None  # shown: "can't be played at the loupe"
                        if isinstance(words, dict) and isinstance(words.get(data[key]), str):
                            worded[facts[-1]] = f"{label}: {words[data[key]]}"
                    elif item in ("suit", "mark") and isinstance(data[key], list):
                        label = key.replace("_", " ").capitalize()
                        facts.append(f"{label}: {_value_text(data[key], item, db)}")
                    elif item == "ref" and isinstance(data[key], list):  # "Adjacent: Theatre Row, Gasworks"
                        facts.append(f"{key.replace('_', ' ').capitalize()}: "
                                     f"{', '.join(names.get(v, str(v)) for v in data[key]) or 'none'}")
                        listed += [*tokenize(key.replace("_", " ")), *{kinds.get(v, "") for v in data[key]} - {""}]
                states_a_count = _states_a_count(" ".join(facts)) or bool(listed)
                fact_line = ". ".join(facts) + "." if facts else ""
                shown_facts = ". ".join(worded.get(f, f) for f in facts) + "." if facts else ""
            else:
                title = _deck_card_title(card, component, specs, db)
                fact_line, shown_facts, states_a_count, listed = "", "", False, []
            copies = getattr(card, "copies", 1)
            # "how many garrottes are there": the card shows its copies, and counts itself (only in the count
            # field: as a word of its facts, "copies" on most cards would no longer find the rule on copies)
            shown_copies = f"Copies: {copies}." if isinstance(copies, int) and copies > 1 and name else ""
            paragraphs = [ability] if ability else []
            if isinstance(data.get("note"), str) and data["note"].strip():
                paragraphs.append(data["note"].strip())
            if not paragraphs:  # a named card with no ability: its flavour and other texts
                for key, spec in specs.items():
                    if _field_type(spec) == "text" and isinstance(data.get(key), str) and data[key].strip():
                        paragraphs.append(data[key].strip())
            body = [*powers, *paragraphs]
            if fact_line or shown_copies:
                body.append(f"{shown_facts} {shown_copies}".strip())
            own_name = title.removesuffix(f" ({component.name})")
            rank = data.get("rank", data.get("value"))
            suits = frozenset(_card_suits(data, specs, db))
            entry = Entry(kind, card.id, db.id, title, "\n".join(body), f"{kind} {card.id}", own_name)
            yield _Doc(entry, {
                "title": _segments([title]),
                "slug": _segments([_slug_words(card.id)]),
                "facts": _segments([fact_line]),
                # a card stating a number (a cost) answers "how many"; its copies count the card itself
                "count": ([[COUNT_TERM]] if states_a_count else [])
                + ([[COUNTED_PREFIX + w] for w in tokenize(title)] if shown_copies else [])
                + [[COUNTED_PREFIX + w] for w in listed],
                "text": _segments([*powers, *paragraphs]),
                "asks": _segments(_card_asks(data)),
                "picture": _segments([_slug_words(data[key]) for key in data if isinstance(data[key], str) and (
                    key in ART_FIELDS or _field_type(specs.get(key)) == "symbol")]),
            }, asks=_ask_list(_card_asks(data)), rank=rank_key(str(rank)) if rank is not None and suits else "",
                suits=suits, kind_word=_head_noun(component),
                fold=f"{_head_noun(component)}\n" + "\n".join([*powers, *paragraphs]) if powers or paragraphs else "")


def _card_suits(data: Any, specs: dict[str, Any], db: Any) -> Iterator[str]:
    """The suits a card holds (its suit fields, single or lists), by their names and ids, stemmed."""
    for key, spec in specs.items():
        ftype = _field_type(spec)
        item = _field_type(spec.get("item")) if ftype == "list" and isinstance(spec, dict) else ""
        values = [data.get(key)] if ftype == "suit" else data.get(key) if item == "suit" else None
        for value in values if isinstance(values, list) else ():
            suit = db.suits.get(value) if value is not None else None
            if suit is not None:
                yield from (rank_key(w) for w in (suit.name, str(value)) if " " not in w.strip())


ART_FIELDS = ("portrait", "picture")  # what a card's art draws: a symbol's id, indexed as its words (no fact line)


def _card_asks(data: Any) -> list[str]:
    """A card's `asks` (checked by the loader): the questions players ask that it answers."""
    asks = data.get("asks")
    return [a for a in asks if isinstance(a, str)] if isinstance(asks, list) else []


CARD_WORD = stem("card")  # "the Market card" names the card called Market (see named_in)
GENERIC_KIND_WORDS = frozenset(stem(w) for w in ("card", "deck", "tile", "token", "piece", "marker", "tower"))


def _head_noun(component: Any) -> str:
    """What a component's cards are, in one stemmed word ("Investigation Sites": site); "" for a generic one."""
    words = tokenize(component.name)
    return words[-1] if words and words[-1] not in GENERIC_KIND_WORDS else ""


def _kind_words(db: Any) -> Iterator[str]:
    """The head noun of each component or record set whose cards have names ("Investigation Sites": site)."""
    for component in [*db.components.values(), *db.records.values()]:
        if _head_noun(component) and any(isinstance(card.data.get("name"), str) for card in component.cards):
            yield _head_noun(component)


def _deck_card_title(card: Any, component: Any, specs: dict[str, Any], db: Any) -> str:
    rank = card.get("rank", card.get("value"))
    suit = ""
    for key, spec in specs.items():
        if _field_type(spec) == "suit" and card.get(key) in db.suits:
            suit = db.suits[card.get(key)].name
            break
    if rank is not None:
        rank = RANK_NAMES.get(str(rank), str(rank))
    if rank is not None and suit:
        head = f"{rank} of {suit}"
    elif suit:
        head = f"{suit} card"
    elif rank is not None:
        head = f"{rank}"
    else:
        head = card.id.replace("_", " ").capitalize()
    return f"{head} ({component.name})"


def _slug_words(slug: str) -> str:
    """An id's words: ids are meaningful slugs, shown beside every hit and typed by players."""
    return slug.replace("_", " ")


def _states_a_count(text: str) -> bool:
    """True for a text that states a number ("deal each player 4 cards", "five investigators")."""
    text = _AT_ONCE.sub(" ", normalize(text))
    return bool(_LOOSE_COUNT.search(text)) or any(word.isdigit() or word in NUMBER_WORDS for word in _words(text))


def _is_number(word: str) -> bool:
    return word.isdigit() or word in NUMBER_WORDS


def _counted(texts: Iterable[str], one: bool = False) -> list[str]:
    """What the texts count: the words right after a number ("36 evidence cards" -> evidence, card),
    up to COUNTED_WINDOW of them before a function word or the clause's end, as COUNTED_PREFIX terms.
    With `one`, what "one" counts instead: the next word only ("play one card"; not "one-page")."""
    out: list[str] = []
    for text in texts:
        for clause in _CLAUSE.split(_ONE_HYPHEN.sub(" ", normalize(text)) if one else normalize(text)):
            words = _words(clause)
            for at, word in enumerate(words):
                counts = word == "one" if one else _is_number(word) or word in ORDINAL_WORDS
                if not counts:
                    continue
                for nxt in words[at + 1:at + 1 + (1 if one else COUNTED_WINDOW)]:
                    if nxt in STOPWORDS or _is_number(nxt) or len(nxt) == 1:
                        break
                    term = COUNTED_PREFIX + stem(nxt)
                    if term not in out:
                        out.append(term)
    return out


def _database_docs(db: Any) -> Iterator[_Doc]:
    for rule in db.rules:
        secondary = bool({stem(w) for w in SECONDARY_WORDS} & {*tokenize(rule.section), *tokenize(rule.title)})
        counted = _counted([rule.title, rule.text, *rule.keywords])
        yield _Doc(Entry("rule", rule.id, db.id, rule.title, rule.text, f"rule {rule.id}"), {
            "title": _segments([rule.title]),
            "keywords": _segments(rule.keywords),
            "asks": _segments(rule.asks),
            "slug": _segments([_slug_words(rule.id)]),
            "section": _segments([rule.section]),
            "text": _segments([rule.text]),
            "count": ([[COUNT_TERM]] if _states_a_count(rule.text) else []) + [[t] for t in counted],
            "count_one": [[t] for t in _counted([rule.title, rule.text, *rule.keywords], one=True) if t not in counted],
        }, SECONDARY_WEIGHT if secondary else 1.0, _ask_list(rule.asks))
    for ruling in db.faq:
        yield _Doc(Entry("faq", ruling.id, db.id, ruling.question, ruling.ruling, f"FAQ {ruling.id}"), {
            "title": _segments([ruling.question]),
            "keywords": _segments(ruling.keywords),
            "asks": _segments(ruling.asks),
            "slug": _segments([_slug_words(ruling.id)]),
            "text": _segments([ruling.ruling]),
        }, FAQ_WEIGHT, _ask_list(ruling.asks), refs=tuple(ruling.refs))
    yield from _card_docs(db)


# --- the index ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Base:
    """One reading of a query word (as typed, or a typo match) and the terms that count for it."""

    term: str
    weight: float
    idf: float
    terms: dict[str, float]  # term -> share of its tf (1 for the word itself, less for synonyms)


@dataclass(frozen=True)
class _Candidates:
    scores: dict[int, float]  # doc -> BM25F score, phrase and title bonuses included
    matched: dict[int, float]  # doc -> how many query words it matches (a word held only by a related word: less)
    n: float  # query words (a light word counts LIGHT_COVER of one)
    raw: list[str]  # the query's words as typed (table phrases rewritten)
    words_of: dict[int, set[int]]  # doc -> the query words (their numbers) it matches
    expanded: list[dict[str, tuple[float, float]]]  # per query word: term -> (weight, idf)
    ask_same: set[int] = field(default_factory=set)  # docs with an ask that is the query, near enough (ASK_SAME)


@dataclass
class _GameIndex:
    docs: list[Entry]
    postings: dict[str, dict[int, float]]  # term -> doc -> weighted, length-normalised tf (BM25F)
    idf: dict[str, float]
    bigrams: dict[tuple[str, str], dict[int, float]]  # term pair -> doc -> phrase weight
    titles: dict[frozenset[str], list[int]]  # a title's token set -> docs
    weights: list[float]  # each doc's standing (SECONDARY_WEIGHT for variants, examples, tips)
    names: dict[str, list[tuple[tuple[str, ...], int]]] = field(default_factory=dict)  # a card name's first token -> (name, doc)
    deletes: dict[str, set[str]] = field(default_factory=dict)  # for typo look-up
    kind_words: frozenset[str] = frozenset()  # the head nouns of the game's named things: site, agent, suspect
    kind_of: list[str] = field(default_factory=list)  # each doc's head noun (cards only; see _head_noun)
    fold_keys: list[str] = field(default_factory=list)  # each doc's printed rules text, for folding twins
    name_words: dict[int, frozenset[str]] = field(default_factory=dict)  # a card of a 2+ word name -> its words
    named_by: dict[str, list[int]] = field(default_factory=dict)  # a word of such names -> the cards holding it
    one_word_names: dict[str, list[int]] = field(default_factory=dict)  # a one-word name -> its cards
    typo_cache: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    ask_postings: dict[str, list[int]] = field(default_factory=dict)  # term -> the asks (their numbers) holding it
    asks: list[tuple[int, float, bool]] = field(default_factory=list)  # each ask: (doc, idf mass, counts)
    by_rank: dict[str, list[tuple[frozenset[str], int]]] = field(default_factory=dict)  # rank -> (suits, doc)
    suit_words: frozenset[str] = frozenset()  # the game's suits, as rank_key spells them
    refines: dict[int, list[int]] = field(default_factory=dict)  # an FAQ ruling -> the rules it refers to
    rulings_on: dict[int, list[int]] = field(default_factory=dict)  # a card -> the FAQ rulings that name it
    denying: frozenset[int] = frozenset()  # the rules and rulings whose title denies (see NEGATED_TITLE_WEIGHT)
    table_words: TableWords | None = None  # this game's table words (game.yaml `table_words:`), read first
    ranked: frozenset[int] = frozenset()  # the deck cards (with a rank): named as a lead as often as a topic

    @classmethod
    def build(cls, docs: list[_Doc]) -> _GameIndex:
        n = len(docs)
        totals: dict[str, float] = {}
        counts: dict[str, int] = {}
        for doc in docs:
            for name, segs in doc.fields.items():
                length = sum(len(s) for s in segs)
                if length:
                    totals[name] = totals.get(name, 0) + length
                    counts[name] = counts.get(name, 0) + 1
        avg = {name: totals[name] / counts[name] for name in totals}
        wtf: dict[str, dict[int, float]] = {}
        bigrams: dict[tuple[str, str], dict[int, float]] = {}
        titles: dict[frozenset[str], list[int]] = {}
        for i, doc in enumerate(docs):
            for name, segs in doc.fields.items():
                length = sum(len(s) for s in segs)
                if not length or not FIELD_WEIGHTS[name]:
                    continue
                b = FIELD_B[name]
                norm = FIELD_WEIGHTS[name] / (1 - b + b * length / avg[name])
                for seg in segs:
                    for tok in seg:
                        per = wtf.setdefault(tok, {})
                        per[i] = per.get(i, 0.0) + norm
                    pw = PHRASE_WEIGHT.get(name)
                    if pw:
                        for pair in zip(seg, seg[1:], strict=False):
                            slot = bigrams.setdefault(pair, {})
                            slot[i] = max(slot.get(i, 0.0), pw)
            title = frozenset(t for seg in doc.fields.get("title", []) for t in seg)
            if title:
                titles.setdefault(title, []).append(i)
        postings = wtf
        idf = {t: math.log(1 + (n - len(per) + 0.5) / (len(per) + 0.5)) for t, per in postings.items()}
        deletes: dict[str, set[str]] = {}
        for term in postings:
            if not term.isalpha() or len(term) < 2:
                continue
            for d in _deletes(term, 2 if len(term) >= 4 else 1):
                deletes.setdefault(d, set()).add(term)
        names: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        index_names: dict[int, frozenset[str]] = {}
        one_word_names: dict[str, list[int]] = {}
        for i, doc in enumerate(docs):
            words = tuple(tokenize(doc.entry.name))
            if doc.entry.kind in ("card", "location") and len(words) >= 2:
                names.setdefault(words[0], []).append((words, i))
                index_names[i] = frozenset(words)
            elif doc.entry.kind in ("card", "location") and len(words) == 1:
                one_word_names.setdefault(words[0], []).append(i)
        index = cls([d.entry for d in docs], postings, idf, bigrams, titles, [d.weight for d in docs], names, deletes)
        for i, doc in enumerate(docs):
            if doc.rank and doc.suits:
                index.by_rank.setdefault(doc.rank, []).append((doc.suits, i))
        # a deck ranked A, 2 to 9 and one face rank above them (the Decktet's Crowns, which count 10): "the 10 of
        # suns", "suns 10" name that rank
        faces = [rank for rank in index.by_rank if not rank.isdigit() and rank != "a"]
        if len(faces) == 1 and "9" in index.by_rank and "10" not in index.by_rank:
            index.by_rank["10"] = index.by_rank[faces[0]]
        index.ranked = frozenset(i for i, doc in enumerate(docs) if doc.rank)
        index.suit_words = frozenset(s for doc in docs for s in doc.suits)
        index.denying = frozenset(i for i, doc in enumerate(docs) if doc.entry.kind in ("rule", "faq")
                                  and NEGATIONS.intersection(_words(doc.entry.title)))
        index.kind_of = [doc.kind_word for doc in docs]
        index.fold_keys = [doc.fold or doc.entry.text for doc in docs]
        index.name_words = index_names
        index.one_word_names = one_word_names
        for card_doc, held in index_names.items():
            for name_word in held:
                index.named_by.setdefault(name_word, []).append(card_doc)
        rules = {doc.entry.id: i for i, doc in enumerate(docs) if doc.entry.kind == "rule"}
        for i, doc in enumerate(docs):
            refined = [rules[r] for r in doc.refs if r in rules]
            if refined:
                index.refines[i] = refined
        cards = {doc.entry.id: i for i, doc in enumerate(docs) if doc.entry.kind in ("card", "location")}
        for i, doc in enumerate(docs):
            if doc.entry.kind == "faq":
                said = _words(f"{doc.entry.title} {doc.entry.text}")
                for c in {cards[r] for r in doc.refs if r in cards} | index.named_in(said):
                    index.rulings_on.setdefault(c, []).append(i)
        for i, doc in enumerate(docs):
            for toks, counting in doc.asks:
                for tok in toks:
                    index.ask_postings.setdefault(tok, []).append(len(index.asks))
                index.asks.append((i, sum(idf.get(t, 0.0) for t in toks), counting))
        return index

    def typos(self, token: str, limit: int) -> dict[str, int]:
        """Vocabulary terms within `limit` edits (Damerau-Levenshtein) of an unknown token."""
        key = (token, limit)
        if key in self.typo_cache:
            return self.typo_cache[key]
        found: dict[str, int] = {}
        if limit and len(token) >= 3 and token.isalpha():
            candidates: set[str] = set()
            for d in _deletes(token, limit):
                candidates |= self.deletes.get(d, set())
            for term in candidates:
                dist = damerau_levenshtein(token, term, limit)
                if 0 < dist <= limit:
                    found[term] = dist
        if len(self.typo_cache) > 4096:
            self.typo_cache.clear()
        self.typo_cache[key] = found
        return found

    def plan(self, token: str, surface_len: int, typed: set[str]) -> list[_Base]:
        """How one query token is looked up: itself, or its typo matches, each with synonyms."""
        bases: list[tuple[str, float, float]] = []  # (term, weight, idf)
        if token in self.postings:
            bases.append((token, 1.0, self.idf[token]))
        else:
            # an unknown word with known synonyms is a real word ("everyone"), not a typo
            known = [self.idf[s] for s in SYNONYMS.get(token, {}) if s in self.postings]
            if not known:  # nor is a word WordNet knows, related to words the index holds
                known = [self.idf[s] for s in related(token) if s in self.postings]
            if known:
                bases.append((token, 1.0, max(known)))
            else:
                # the typo allowance follows the length the player typed, before stemming; only the nearest
                # words count ("plyers" is "player", one edit away, not "paper" or "poker", two away)
                # ... and never a function word ("per turn" is no mistyped "her")
                near = {t: d for t, d in self.typos(token, 2 if surface_len >= 6 else 1).items() if t not in STOPWORDS}
                nearest = min(near.values(), default=0)
                for term, dist in sorted((t, d) for t, d in near.items() if d == nearest):
                    bases.append((term, TYPO_WEIGHT[dist, sorted(term) == sorted(token)], self.idf[term]))
        plan = []
        for term, weight, idf in bases:
            terms = {term: 1.0} if term in self.postings else {}
            for syn, share in SYNONYMS.get(term, {}).items():
                # words of one group typed together are different facets: keep them apart
                if syn in self.postings and syn not in typed:
                    terms[syn] = share
            if RELATED_SAME or RELATED_NEAR:
                for rel, share in related(term).items():
                    if rel in self.postings and rel not in typed and rel not in terms:
                        terms[rel] = share
            if terms:
                plan.append(_Base(term, weight, idf, terms))
        return plan

    def search(self, query: str) -> list[tuple[float, int]]:
        query = without_table_chatter(query)
        if self.table_words is not None:
            query = self.table_words.read(query)
        told_only = self.told_only(query)
        found = self.candidates(query, told_only)
        if found is None:
            return []
        scores, matched, n, raw = found.scores, found.matched, found.n, found.raw
        asked_kind = self.asked_kind(raw)
        card_wanted = bool(_CARD_WANTED.search(" ".join(raw))) or bool(asked_kind) or bool(self.by_rank_asked(raw)) \
            or bool(self.by_rank_alone(raw))
        kind_weight = CARD_WANTED_KIND_WEIGHT if card_wanted else QUESTION_KIND_WEIGHT if is_question(query) else {}
        by_name = self.named_in(raw) | self.by_a_rare_name_word(raw)
        named = by_name | self.by_rank_and_suit(raw) | self.by_suit_and_rank(raw)
        # a question naming two cards or more ("they led the ace of wyrms and I've got the Calamity, what
        # happens") asks how they meet: a rule or ruling, not either card
        told = mentioned = named | self.by_a_one_word_name(raw)
        # a player telling what happened before asking ("I made shoeprints trump with my 2 and he played a
        # notebook 2, whats trump now") asks for a rule as a question does: a card that only shares its words
        # (none it names) weighs the question's kind weight
        shared_weight = QUESTION_KIND_WEIGHT if not kind_weight and asks_somewhere(query) else kind_weight
        # a location named by a word of its name that no other name holds ("at the palace") meets a card too
        places = {d for w in raw if w not in STOPWORDS for d in self.named_by.get(stem(w), [])
                  if len(self.named_by[stem(w)]) == 1 and self.docs[d].kind == "location"}
        meeting = not card_wanted and asks_somewhere(query) and len({self.docs[d].name for d in told | places}) >= 2
        if not meeting and not card_wanted:
            # ... and so does a card named only where the player tells what happened (see told_only)
            told = told_only
            meeting = bool(told)
        # a named card escapes the kind weight only where it has one to escape
        exempt = named if kind_weight and not card_wanted and not meeting else set()

        said = {stem(w) for w in raw if w not in STOPWORDS}

        def standing(d: int) -> float:
            if meeting and d in told:
                return MEETING_WEIGHT * kind_weight.get(self.docs[d].kind, 1.0)
            if d in exempt:
                return 1.0
            if d not in named and self.by_loose_name_words(d, said):
                return PARTIAL_NAME_WEIGHT * kind_weight.get(self.docs[d].kind, 1.0)
            if asked_kind and self.docs[d].kind in ("card", "location") and self.kind_of[d] != asked_kind:
                return OTHER_KIND_WEIGHT  # "which suspect ...": a suspect, before an action card
            if asked_kind and self.docs[d].kind in ("rule", "faq"):
                return KIND_ASKED_RULE_WEIGHT
            if d in found.ask_same:
                return 1.0  # the question was written for it (ASK_SAME)
            return (kind_weight if d in mentioned else shared_weight).get(self.docs[d].kind, 1.0)

        if not meeting and len({self.docs[d].name for d in named}) < 2:
            # a card the question names as its topic holds the question's words that ask what it does
            # ("embankment came up, whats different this round"), whatever words its text uses (NAMED_COVER)
            matched = dict(matched)
            for d in (by_name - told - self.ranked).intersection(matched):
                matched[d] = max(matched[d], NAMED_COVER * n)
        final = {d: s * (matched[d] / n) ** COVERAGE_EXPONENT * standing(d) * self.weights[d]
                 for d, s in scores.items()}
        # not "which cards can't be played": those cards; nor over an entry whose ask is the question (ASK_SAME:
        # "what happens to the evidence card nobody wins" was written for 'A tie loses the evidence', not for
        # 'Neither player played a card at a location'); among entries whose asks are all the question, the one
        # that denies still does ("do i draw when its not my turn": 'Enforcers never draw', not 'Draw up to five',
        # "not" being no word of either ask)
        if not card_wanted and NEGATIONS.intersection(raw):
            for d in self.denying.intersection(final):
                if not found.ask_same or d in found.ask_same:
                    final[d] *= NEGATED_TITLE_WEIGHT
        words_of = found.words_of
        for f, refined in self.refines.items():
            if f not in final:
                continue
            if any(r in final and words_of.get(r, set()) < words_of.get(f, set()) for r in refined):
                final[f] *= FAQ_OVER_RULE
        for d in named:
            # "I played on Ottoline Vesey ..., what happens to the extra step": a ruling that names the card
            # and holds as much of the question as the card, some of it words the card lacks, settles the case
            # the card only raises
            for f in self.rulings_on.get(d, ()):
                if f in final and d in final and matched[f] >= matched[d] and sum(
                        max((i for _, i in found.expanded[p].values()), default=0.0)
                        for p in words_of.get(f, set()) - words_of.get(d, set())) >= RULING_EXTRA_IDF:
                    final[f] = max(final[f], final[d] * FAQ_OVER_RULE)
        return [(s, d) for d, s in final.items()]

    def told_only(self, query: str) -> set[int]:
        """The cards a query names only where it tells what happened, when the clause that asks is not about
        them ("they led the ace of moons and I have no moons, what can I play"): the situation, not what is
        asked. A telling that only says which card ("keyhole, does everyone see it"), or opens with the card
        ("cornelius brandt got murdered, does everyone draw"), is about it: the topic, not the situation."""
        split = told_and_asked(query)
        if split is None:
            return set()
        telling, asking = list(split[0]), list(split[1])

        def naming(raw: list[str]) -> set[int]:
            return self.named_in(raw) | self.by_rank_and_suit(raw) | self.by_suit_and_rank(raw) | \
                self.by_a_rare_name_word(raw) | self.by_a_one_word_name(raw)

        told = naming(telling) - naming(asking)
        names = {form for d in told for w in _words(self.docs[d].name) for form in (stem(w), rank_key(w))}
        said = {stem(w) for w in telling if w not in STOPWORDS} - names
        if len(said) <= 1 and all(any(d in self.postings.get(t, {}) for d in told) for t in said):
            return set()  # the telling only says which card: "the detective's notebook 3, how many cards ..."
        opening = next((w for w in telling if w not in STOPWORDS), "")
        return set() if {stem(opening), rank_key(opening)} & names else told

    def candidates(self, query: str, told: set[int] | None = None) -> _Candidates | None:
        """Every entry that matches a word of the query, with its BM25F score and what it matched."""
        words: list[tuple[str, int]] = []
        raw = _words(_rewritten_query(query))
        count = COUNT_QUERY.search(" ".join(raw))
        for at, word in enumerate(raw):
            if word == "a" and raw[at + 1:at + 2] == ["of"]:
                word = "ace"  # a rank, as in "a of shoeprints"
            if word in STOPWORDS or word in QUERY_FILLERS or (len(word) == 1 and not word.isdigit()):
                continue
            if word in PASSIVE_GET and (count or at + 1 < len(raw) and _is_participle(raw[at + 1])):
                # "which pile gets reviewed": the pile is reviewed, nobody gets anything; "how
                # many discs do I get" asks how many discs one has
                continue
            tok = stem(word)
            if tok not in self.postings and tok not in SYNONYMS and is_stopword_typo(word):
                continue  # "waht happens": a mistyped question word, not a rules word
            if all(tok != w for w, _ in words):
                words.append((tok, len(word)))
        if not words:
            return None
        # a card named by its name alone where it meets another ("they led the ace of wyrms and I've got the
        # Calamity") is also its rank, a Crown: the rulings on how a Crown meets an Ace speak of that
        by_name = self.by_a_one_word_name(raw) | self.named_in(raw)
        if len({self.docs[d].name for d in by_name | self.by_rank_and_suit(raw)}) >= 2:
            rank_of = {d: rank for rank, held in self.by_rank.items() for _, d in held if not rank.isdigit()}
            for d in by_name:
                tok = stem(rank_of.get(d, ""))
                if tok in self.postings and all(tok != w for w, _ in words):
                    words.append((tok, len(tok)))
        typed = {tok for tok, _ in words}
        # how much each word counts towards coverage: a light word less (LIGHT_COVER)
        heft = [LIGHT_COVER.get(tok, 1.0) for tok, _ in words]
        story = {stem(w) for w in story_words(_rewritten_query(query), STOPWORDS)}  # see query_focus
        plans = [[replace(base, weight=base.weight * LIGHT_WORDS.get(tok, 1.0) * (STORY_WEIGHT if tok in story else 1.0))
                  for base in self.plan(tok, n, typed)] for tok, n in words]
        if count and COUNT_TERM in self.postings:
            # one more word: the count of the thing asked about, or failing that any count
            asked = _words(" ".join(raw)[count.end():])
            plan = [_Base(COUNT_TERM, 1.0, self.idf[COUNT_TERM], {COUNT_TERM: 1.0})]
            for word in asked[:COUNTED_WINDOW]:
                if word in STOPWORDS:
                    break
                term = COUNTED_PREFIX + stem(word)
                if term in self.postings:
                    plan.append(_Base(term, COUNTED_WEIGHT, self.idf[term], {term: 1.0}))
            plans.append(plan)
        # term -> (weight, idf) of each query word, for the phrase and title bonuses
        expanded = [{t: (b.weight * tw, b.idf) for b in plan for t, tw in b.terms.items()} for plan in plans]
        scores: dict[int, float] = {}
        matched: dict[int, float] = {}
        words_of: dict[int, set[int]] = {}
        k1 = K1
        for p, plan in enumerate(plans):
            best: dict[int, float] = {}
            cover: dict[int, float] = {}  # how fully the entry holds the word: 1, or a related word's share
            for base in plan:
                # the word's own tf, plus its best synonym's at a share (a cluster of
                # synonyms in one entry is not more evidence than one of them)
                own: dict[int, float] = {}
                syn: dict[int, float] = {}
                for term, tw in base.terms.items():
                    into = own if term == base.term else syn
                    held = 1.0 if tw > RELATED_COVER else tw / RELATED_COVER
                    for d, w in self.postings[term].items():
                        if tw * w > into.get(d, 0.0):
                            into[d] = tw * w
                        if held > cover.get(d, 0.0):
                            cover[d] = held
                tf = dict(own)
                for d, w in syn.items():
                    tf[d] = tf.get(d, 0.0) + w
                factor = base.weight * base.idf * (k1 + 1)
                for d, w in tf.items():
                    s = factor * w / (w + k1)
                    if s > best.get(d, 0.0):
                        best[d] = s
            for d, s in best.items():
                scores[d] = scores.get(d, 0.0) + s
                matched[d] = matched.get(d, 0) + cover.get(d, 1.0) * (heft[p] if p < len(heft) else 1.0)
                if cover.get(d, 1.0) >= 1.0:
                    words_of.setdefault(d, set()).add(p)
        if not scores:
            return None
        n_words = sum(heft) + len(plans) - len(heft)
        for left, right in zip(expanded, expanded[1:], strict=False):
            bonus: dict[int, float] = {}
            for t1, (w1, i1) in left.items():
                for t2, (w2, i2) in right.items():
                    slot = self.bigrams.get((t1, t2))
                    if not slot:
                        continue
                    value = PHRASE_SCALE * w1 * w2 * (i1 + i2) / 2
                    for d, pw in slot.items():
                        if value * pw > bonus.get(d, 0.0):
                            bonus[d] = value * pw
            for d, s in bonus.items():
                scores[d] = scores.get(d, 0.0) + s
        # the query is exactly an entry's title (best spelling of each word)
        readings = [max(plan, key=lambda base: base.weight) for plan in plans if plan]
        if len(readings) == len(plans):
            mean_idf = sum(base.idf for base in readings) / len(readings)
            for d in self.titles.get(frozenset(base.term for base in readings), ()):
                if d in scores:
                    scores[d] += EXACT_TITLE_BONUS * mean_idf
        ask_same = self.add_asks(expanded[:len(words)], bool(count), scores, matched)
        mass = sum(max((i for _, i in terms.values()), default=0.0) for terms in expanded[:len(words)])
        if told is None:  # a card told of, not asked about, gains no bonus for being named
            told = self.told_only(query)
        for d in self.by_rank_and_suit(raw) - told:
            scores[d] = scores.get(d, 0.0) + CARD_BY_RANK_WEIGHT * mass
            matched[d] = max(matched.get(d, 0), 1)  # the name is held; the question's other words count as held or not
        for d in self.by_suit_and_rank(raw) - told:
            scores[d] = scores.get(d, 0.0) + SUIT_FIRST_WEIGHT * mass
        for d in self.by_rank_asked(raw):
            scores[d] = scores.get(d, 0.0) + RANK_ASKED_WEIGHT * mass
            matched[d] = min(matched.get(d, 0) + 1, n_words)  # the rank is one word of the query, held
        return _Candidates(scores, matched, n_words, raw, words_of, expanded, ask_same)

    def add_asks(self, expanded: list[dict[str, tuple[float, float]]], count: bool,
                 scores: dict[int, float], matched: dict[int, float]) -> set[int]:
        """Add to each entry the likeness of its best ask to the query (see ASK_FLOOR, ASK_WEIGHT); return the
        entries with an ask that is the query (ASK_SAME)."""
        if not self.asks or not expanded:
            return set()
        held: dict[int, dict[int, float]] = {}  # ask -> query word -> best weighted idf it holds
        mass = 0.0
        for p, terms in enumerate(expanded):
            mass += max((i for _, i in terms.values()), default=0.0)
            for term, (weight, idf) in terms.items():
                for a in self.ask_postings.get(term, ()):
                    slot = held.setdefault(a, {})
                    if weight * idf > slot.get(p, 0.0):
                        slot[p] = weight * idf
        if mass <= 0:
            return set()
        best: dict[int, tuple[float, int]] = {}
        for a, words in held.items():
            d, ask_mass, counts = self.asks[a]
            likeness = sum(words.values()) / math.sqrt(mass * max(ask_mass, 1e-9))
            if count and not counts:
                likeness *= ASK_NOT_COUNTING
            if likeness > best.get(d, (0.0, 0))[0]:
                best[d] = (likeness, len(words))
        for d, (likeness, n) in best.items():
            if likeness < ASK_FLOOR:
                continue
            scores[d] = scores.get(d, 0.0) + ASK_WEIGHT * likeness * mass
            if d not in matched:
                matched[d] = n
        return {d for d, (likeness, _) in best.items() if likeness >= ASK_SAME}

    def by_rank_and_suit(self, raw: list[str]) -> set[int]:
        """The cards a query names by rank and suit: "the 7 of moons", "crown of knots", "9 of moons and suns"."""
        named: list[set[int]] = []
        if not self.by_rank:
            return set()
        for at, word in enumerate(raw[:-2]):
            cards = self.by_rank.get(rank_key(word))
            if not cards or raw[at + 1] != "of":
                continue
            suits = set()
            for nxt in raw[at + 2:]:
                if nxt in ("and", "&"):
                    continue
                key = rank_key(nxt)
                if key not in self.suit_words:
                    break
                suits.add(key)
            if suits:
                named.append({d for held, d in cards if suits <= held})
        # two cards named ("they led the ace of knots and I threw the ace of suns") ask how they meet:
        # a rule, not either card
        return named[0] if len(named) == 1 else set() if named else self.by_rank_alone(raw)

    def by_rank_alone(self, raw: list[str]) -> set[int]:
        """The cards a question names by their rank alone, asking what they do: "what does the 2 do", "what do
        the 4s mean"."""
        if raw[:1] not in (["what"], ["whats"]):
            return set()
        for at, word in enumerate(raw[2:-1], 2):
            rank = rank_key(word[:-1] if re.fullmatch(r"\d+s|aces|crowns", word) else word)
            if raw[at - 1] == "the" and raw[at + 1] in RANK_DOES and rank in self.by_rank:
                return {d for _, d in self.by_rank[rank]}
        return set()

    def by_rank_asked(self, raw: list[str]) -> set[int]:
        """The cards of the rank a question asks among: "which 4 is a personality", "which of the 9s are
        events" ("which 7 of ..." names a card: see by_rank_and_suit)."""
        if not self.by_rank:
            return set()
        for at, word in enumerate(raw):
            if word != "which":
                continue
            after = raw[at + 1:at + 5]
            while after[:1] in (["of"], ["the"]):
                after = after[1:]
            if not after or after[1:2] == ["of"]:
                continue
            rank = after[0][:-1] if re.fullmatch(r"\d+s", after[0]) else after[0]
            cards = self.by_rank.get(rank_key(rank))
            if cards:
                return {d for _, d in cards}
        return set()

    def by_suit_and_rank(self, raw: list[str]) -> set[int]:
        """The cards a query names suit first: "briefcase 3", "shoeprints 4" (a number only: "suns a" is no
        card). Named, so not weighed below the rules, with a smaller bonus than "3 of briefcase" (SUIT_FIRST_WEIGHT):
        a question telling such a card was played ("I ditched my notebook 3 to ...") still finds the ruling."""
        if not self.by_rank:
            return set()
        found: set[int] = set()
        for at, word in enumerate(raw[:-1]):
            suit, rank = rank_key(word), raw[at + 1]
            if suit in self.suit_words and rank.isdigit() and (at == 0 or raw[at - 1] != "of"):
                found |= {d for held, d in self.by_rank.get(rank_key(rank), ()) if suit in held}
        return found

    def by_loose_name_words(self, d: int, said: set[str]) -> bool:
        """True when the query holds some words of the card's name, not all, and only loose ones (LOOSE_DF)."""
        shared = self.name_words.get(d, frozenset()) & said
        return bool(shared) and shared != self.name_words[d] and all(
            len(self.postings.get(w, ())) >= LOOSE_DF for w in shared)

    def asked_kind(self, raw: list[str]) -> str:
        """ "which site ...", "which of the suspects ...", "the site where ...", "the agent that ...": the kind
        of the game's named things asked for, or ""."""
        for at, word in enumerate(raw[:-1]):
            if word in ("the", "a", "an") and stem(raw[at + 1]) in self.kind_words \
                    and raw[at + 2:at + 3] in (["that"], ["where"], ["who"], ["with"]):
                return stem(raw[at + 1])
        for at, word in enumerate(raw):
            if word != "which":
                continue
            after = raw[at + 1:at + 4]
            if after[:1] == ["of"]:
                after = after[1:]
            if after[:1] == ["the"]:
                after = after[1:]
            # "which site", or a kind of two words: "which crime plan"
            for word in after[:2]:
                if stem(word) in self.kind_words:
                    return stem(word)
        return ""

    def by_a_rare_name_word(self, raw: list[str]) -> set[int]:
        """The cards named by a word of their name that no other card's name holds and few entries hold
        ("lestrade" for Inspector Lestrade; not "look" for Second Look)."""
        found: set[int] = set()
        for word in {stem(w) for w in raw if w not in STOPWORDS and len(w) >= 4}:
            cards = self.named_by.get(word, ())
            if len(cards) == 1 and len(self.postings.get(word, ())) <= RARE_NAME_DF:
                found.add(cards[0])
        return found

    def by_a_one_word_name(self, raw: list[str]) -> set[int]:
        """The cards of a one-word name the query holds, a word fewer than LOOSE_DF entries hold ("the
        lunatic", "the Calamity"; not "the End", a word of many rules)."""
        found: set[int] = set()
        for word in {stem(w) for w in raw if w not in STOPWORDS and len(w) >= 4}:
            if len(self.postings.get(word, ())) < LOOSE_DF:
                found.update(self.one_word_names.get(word, ()))
        return found

    def named_in(self, raw: list[str]) -> set[int]:
        """The cards whose name (of two words or more) the query spells out, word for word; and a card of a
        one-word name the query calls the card ("the End card", "the Market card": not "the end", a word of many
        rules, nor "play a card", Clash's Play tile)."""
        tokens = [stem(w) for w in raw if w not in STOPWORDS]
        found: set[int] = set()
        for at, tok in enumerate(tokens):
            for name, d in self.names.get(tok, ()):
                if tuple(tokens[at:at + len(name)]) == name:
                    found.add(d)
        for at, word in enumerate(raw[:-2]):
            if word == "the" and stem(raw[at + 2]) == CARD_WORD:  # not "play a card": the verb
                found.update(self.one_word_names.get(stem(raw[at + 1]), ()))
        return found


class RulesIndex:
    """A search index over the rules, FAQ and card texts of one or more games."""

    def __init__(self, games: dict[str, _GameIndex], titles: dict[str, str] | None = None):
        self._games = games
        self._titles = titles or {}

    @classmethod
    def build(cls, databases: Iterable[Any]) -> RulesIndex:
        """Index each GameDatabase (rules.cards) given; games are ranked independently."""
        docs: dict[str, list[_Doc]] = {}
        titles: dict[str, str] = {}
        databases_seen = list(databases)
        for db in databases_seen:
            docs.setdefault(db.id, []).extend(_database_docs(db))
            titles[db.id] = getattr(db, "short_title", "") or getattr(db, "title", "") or db.id
        games = {game: _GameIndex.build(d) for game, d in docs.items()}
        for db in databases_seen:
            games[db.id].kind_words = frozenset(_kind_words(db))
            if getattr(db, "table_words", None):
                games[db.id].table_words = TableWords(db.table_words)
        return cls(games, titles)

    @property
    def games(self) -> list[str]:
        return list(self._games)

    def game_title(self, game: str) -> str:
        """The game's short title ("Detective Graves"), or its id when the index has none."""
        return self._titles.get(game, game)

    def source_label(self, hit: Hit, across_games: bool = False) -> str:
        """The source of a hit as a player reads it; with `across_games`, the game's title first."""
        entry = hit.entry
        label = entry.label
        if entry.kind == "card" and hit.also:
            names = {e.name for e in (entry, *hit.also)}
            # twins from several components share a name ("3 of Shoeprints"): say it once
            label = f"Card: {entry.name}" if len(names) == 1 else f"Card: {entry.name} (and {len(hit.also)} alike)"
        return f"{self.game_title(entry.game)}{GAME_SEPARATOR}{label}" if across_games else label

    @property
    def entries(self) -> list[Entry]:
        return [e for g in self._games.values() for e in g.docs]

    def __len__(self) -> int:
        return sum(len(g.docs) for g in self._games.values())

    def search(self, query: str, game: str | None = None, limit: int = 10) -> list[Hit]:
        """The best `limit` entries for a query, best first; [] when nothing matches."""
        if limit <= 0 or not query or not query.strip():
            return []
        if game is not None:
            indexes = [self._games[game]] if game in self._games else []
        else:
            indexes = list(self._games.values())
        ranked: list[tuple[float, int, int]] = []
        for gi, index in enumerate(indexes):
            ranked.extend((score, gi, d) for score, d in index.search(query))
        ranked.sort(key=lambda r: (-r[0], r[1], r[2]))
        hits: list[Hit] = []
        folded: dict[tuple[str, str], int] = {}  # (game, text) of a card hit -> its place in hits
        for score, gi, d in ranked:
            entry = indexes[gi].docs[d]
            if entry.kind == "card" and entry.text:
                key = (entry.game, indexes[gi].fold_keys[d])
                if key in folded:
                    at = folded[key]
                    first = hits[at]
                    hits[at] = Hit(first.entry, first.score, first.also + (entry,))
                    continue
                if len(hits) >= limit:
                    continue  # still gather the twins of hits already kept
                folded[key] = len(hits)
            elif len(hits) >= limit:
                continue
            hits.append(Hit(entry, round(score, 4)))
        across = game is None and len(self._games) > 1
        return [replace(h, source_label=self.source_label(h, across)) for h in hits]
