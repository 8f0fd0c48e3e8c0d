"""Every game's player count is a rule entry, and the rules search finds it first.

For each game, "how many players" (and a few other ways of asking) searched in that game, as
`casebook rules GAME QUESTION` and the companion do, puts first the rule entry whose text states
the game's player count; that text states the same count as game.yaml's `players`.
"""

from __future__ import annotations

import re

import pytest

from casebook.rules.cards import GameDatabase, load_database
from casebook.rules.search import RulesIndex

GAMES = ("graves", "syndicate", "pi", "hasty", "clash")
QUESTIONS = ("how many players", "number of players", "player count")
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def _number(n: int) -> str:
    return rf"(?:{n}|{WORDS.get(n, n)})"


def states_player_count(text: str, low: int, high: int) -> bool:
    """True when the text says "exactly N players" (one count) or "N to M players" (a range), in digits or words."""
    said = rf"exactly {_number(low)}" if low == high else rf"{_number(low)} to {_number(high)}"
    return re.search(rf"\b{said} players\b", text, re.I) is not None


@pytest.fixture(scope="module")
def databases() -> dict[str, GameDatabase]:
    return {game: load_database(game) for game in GAMES}


@pytest.fixture(scope="module")
def index(databases) -> RulesIndex:
    """One index over every game, as the companion builds it; each search asks in one game."""
    return RulesIndex.build(list(databases.values()))


@pytest.mark.parametrize("game", GAMES)
def test_one_rule_states_the_player_count_of_game_yaml(databases, game):
    db = databases[game]
    low, high = db.player_counts
    stating = [r.id for r in db.rules if states_player_count(r.text, low, high)]
    assert stating, f"cards/{game}/rules.yaml: no rule says the game is for {low}-{high} players"


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("game", GAMES)
def test_how_many_players_finds_the_player_count_rule_first(databases, index, game, question):
    db = databases[game]
    low, high = db.player_counts
    hits = index.search(question, game=game)
    assert hits, f"{game}: no hits for {question!r}"
    first = hits[0].entry
    ranking = ", ".join(h.entry.id for h in hits[:3])
    assert first.kind == "rule" and states_player_count(first.text, low, high), \
        f"{game}: {question!r} finds {ranking}; want first the rule that says {low}-{high} players"


def test_the_check_reads_counts_in_digits_and_words():
    assert states_player_count("The Syndicate is for exactly three players.", 3, 3)
    assert states_player_count("P.I. is for 2 to 5 players.", 2, 5)
    assert not states_player_count("P.I. is for 2 to 4 players.", 2, 5)
    assert not states_player_count("Each player has 5 investigators.", 2, 5)
