"""Located YAML: duplicate keys are errors, syntax errors and values carry file:line:col."""

from __future__ import annotations

from rules.problems import Problems
from rules.yamlsource import Node, load_yaml


def load(tmp_path, text):
    path = tmp_path / "x.yaml"
    path.write_text(text)
    problems = Problems()
    return load_yaml(path, problems), problems


def test_values_know_their_place(tmp_path):
    data, problems = load(tmp_path, "cards:\n  - id: a\n    rank: 7\n")
    assert not problems
    card = data["cards"][0]
    assert isinstance(card, Node)
    assert (card.value_place("rank").line, card.value_place("rank").col) == (3, 11)
    assert data["cards"].item_place(0).line == 2


def test_duplicate_key_is_an_error_with_both_lines(tmp_path):
    _, problems = load(tmp_path, "a: 1\nb:\n  c: 2\n  c: 3\n")
    text = problems.format()
    assert "x.yaml:4:3: error: duplicate key 'c' (first given at line 3)" in text
    assert ">>   c: 3" in text


def test_syntax_error_names_line(tmp_path):
    data, problems = load(tmp_path, "a: [1, 2\nb: 3\n")
    assert data is None
    assert problems.errors[0].place.line == 2
    assert "YAML syntax" in problems.errors[0].message


def test_anchors_and_aliases_resolve(tmp_path):
    data, problems = load(tmp_path, "a: &x {t: 1}\nb: *x\n")
    assert not problems and data["b"] == {"t": 1}


def test_missing_and_undecodable_files(tmp_path):
    problems = Problems()
    assert load_yaml(tmp_path / "none.yaml", problems) is None
    bad = tmp_path / "bin.yaml"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    assert load_yaml(bad, problems) is None
    assert len(problems.errors) == 2
