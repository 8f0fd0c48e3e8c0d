"""Players' questions, phrased as at the table, find their answer: first for 90 %, in the first three for all.

The questions and the entries that answer them are data (tests/rules/questions/<game>.yaml),
written from the rulebooks before the ranking was tuned; heldout*/ hold sets each written
before a round of tuning and measured once after it (the figures are in their headers; the
search benchmark prints them all).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.rules.cards import load_database
from casebook.rules.search import RulesIndex
from tests.rules.question_set import (
    QUESTIONS_DIR,
    SETS,
    TUNING,
    Outcome,
    QuestionSetError,
    evaluate,
    games_in,
    load_questions,
    share_first,
)

GAMES = ("graves", "syndicate", "pi", "hasty")
FIRST_BAR = 0.9
# The sets each game is held to: Graves and The Syndicate have one in every folder; P.I. and Hasty
# joined with issue 20 (a tuning set and the first held-out set at least) and have one where
# their <game>.yaml is.
SETS_OF = {game: [name for name, folder in SETS.items() if game in ("graves", "syndicate") or game in games_in(folder)]
           for game in GAMES}


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    """One index over the games, as the companion builds it: each question searches its own game."""
    return RulesIndex.build([load_database(game) for game in GAMES])


def _report(outcomes: list[Outcome]) -> str:
    return "\n".join(f"  [{o.place or '-'}] {o.question.ask!r}: want {list(o.question.answer)}, "
                     f"got {list(o.ranking[:3])}" for o in outcomes if o.place != 1)


@pytest.mark.parametrize(("game", "folder"), [(game, SETS[name]) for game in GAMES for name in SETS_OF[game]],
                         ids=[f"{game}-{name}" for game in GAMES for name in SETS_OF[game]])
def test_each_set_the_bar_pools_is_big_enough(game, folder):
    """(load_questions itself refuses an answer that names no entry of the game.)"""
    assert len(load_questions(folder, game)) >= (25 if folder == TUNING else 10)


def _still_blind(folder: Path) -> bool:
    """A blind set (its header says it is still to be measured) is opened by nobody before its one measure."""
    return any("Measured once: (to be filled)" in f.read_text(encoding="utf-8") for f in folder.glob("*.yaml"))


# every set but a blind one, which is measured once at the end of a round
_MEASURED_FOLDERS = [QUESTIONS_DIR, *(f for f in sorted(QUESTIONS_DIR.iterdir()) if f.is_dir() and not _still_blind(f))]


@pytest.mark.parametrize("folder", _MEASURED_FOLDERS, ids=[f.name for f in _MEASURED_FOLDERS])
def test_every_set_loads_with_answers_that_name_a_searchable_entry(folder):
    """load_questions refuses an answer naming no entry, so every set of every game loads."""
    for game in games_in(folder):
        assert load_questions(folder, game)


def test_an_answer_naming_no_entry_is_refused_with_the_file_and_the_question(tmp_path):
    (tmp_path / "clash.yaml").write_text(
        "game: clash\nquestions:\n  - ask: how long is the influence track\n    answer: [summary_track, 'track_*']\n"
        "  - ask: what is the goal\n    answer: [goal]\n", encoding="utf-8")
    with pytest.raises(QuestionSetError) as refused:
        load_questions(tmp_path, "clash")
    message = str(refused.value)
    assert str(tmp_path / "clash.yaml") in message
    assert "'how long is the influence track'" in message and "'track_*'" in message
    assert "summary_track" not in message.split("answers", 1)[1]  # only the dead pattern is named


def test_a_set_for_another_game_is_refused(tmp_path):
    (tmp_path / "pi.yaml").write_text("game: clash\nquestions: []\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match="is for 'clash', not 'pi'"):
        load_questions(tmp_path, "pi")


def _assert_the_bar(outcomes: list[Outcome]) -> None:
    missed = [o for o in outcomes if not 1 <= o.place <= 3]
    assert not missed, f"not in the first three:\n{_report(missed)}"
    first = share_first(outcomes)
    assert first >= FIRST_BAR, f"right answer first for only {first:.0%}:\n{_report(outcomes)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_right_entry_comes_first_for_90_percent_and_in_the_first_three_for_all(index, game):
    _assert_the_bar(evaluate(index, load_questions(TUNING, game)))


@pytest.mark.parametrize("game", GAMES)
def test_the_bar_holds_for_every_question_set_together(index, game):
    """The held-out sets too; pooled, as ten questions are too few to measure 90 % on their own."""
    _assert_the_bar(evaluate(index, [q for name in SETS_OF[game] for q in load_questions(SETS[name], game)]))


@pytest.mark.parametrize("game", ("pi", "hasty"))
def test_pi_and_hasty_have_a_tuning_and_a_held_out_set(game):
    assert {"tuning", "held-out"} <= set(SETS_OF[game])


def test_a_question_about_a_rule_does_not_get_a_card_first(index):
    """The issue's case: "two" in a question is a count, not the deuce card."""
    hit = index.search("can I play two different suits", game="graves")[0]
    assert hit.entry.kind == "rule"
    assert index.search("2 of shoeprints", game="graves")[0].entry.kind == "card"  # a name still finds the card


def test_a_tie_question_does_not_find_the_draw_pile(index):
    """"tie" means equal totals; only "draw"/"drawn" lean towards a tie, never the other way."""
    ids = [h.entry.id for h in index.search("what happens on a tie", game="syndicate", limit=3)]
    assert ids[0] == "score_tie" and "faq_empty_draw_pile" not in ids
    assert index.search("drawn game", game="graves")[0].entry.id == "end_tiebreak"


@pytest.mark.parametrize("game", ("graves", "pi", "syndicate", "clash", "hasty"))
def test_held_out_set_6_stays_at_90_percent_first_after_it_was_tuned_on(game):
    """Set 6 (all five games) was tuned on in issue 20: the ranking must not slip back below the bar."""
    from tests.rules.question_set import HELD_OUT_6

    index = RulesIndex.build([load_database(game)])
    outcomes = evaluate(index, load_questions(HELD_OUT_6, game))
    first = share_first(outcomes)
    assert first >= FIRST_BAR, f"held-out 6, {game}: first for only {first:.0%}:\n{_report(outcomes)}"
