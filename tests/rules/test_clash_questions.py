"""Players' Clash questions find their answer: first for 90 %, in the first three for all."""

from __future__ import annotations

import pytest

from casebook.rules.cards import load_database
from casebook.rules.search import RulesIndex
from tests.rules.question_set import TUNING, evaluate, load_questions, share_first


@pytest.fixture(scope="module")
def outcomes():
    index = RulesIndex.build([load_database("clash")])
    return evaluate(index, load_questions(TUNING, "clash"))


def test_every_answer_is_a_clash_entry():
    ids = {e.id for e in load_database("clash").rules} | {f.id for f in load_database("clash").faq}
    questions = load_questions(TUNING, "clash")
    assert len(questions) >= 25
    assert all(a in ids for q in questions for a in q.answer)


def test_the_right_entry_comes_first_for_90_percent_and_in_the_first_three_for_all(outcomes):
    report = "\n".join(f"  [{o.place}] {o.question.ask!r}: got {list(o.ranking[:3])}" for o in outcomes if o.place != 1)
    assert all(1 <= o.place <= 3 for o in outcomes), report
    assert share_first(outcomes) >= 0.9, report
