"""Located YAML: duplicate keys are errors, syntax errors and values carry file:line:col."""

from __future__ import annotations

import yaml

from casebook.rules.problems import Problems
from casebook.rules.yamlsource import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_LINE,
    Node,
    load_yaml,
    parse_yaml,
    read_source,
)


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


def parse(text, aliases=True):
    problems = Problems()
    return parse_yaml(text, "x.yaml", problems, aliases=aliases), problems


def test_aliases_are_fresh_copies_that_keep_the_anchors_places():
    data, problems = parse("a: &x {t: [1, 2]}\nb: *x\n")
    assert not problems and data["b"] == {"t": [1, 2]}
    assert data["b"] is not data["a"] and data["b"]["t"] is not data["a"]["t"]
    assert data.value_place("b").line == 1 and data["b"]["t"].place.line == 1


def test_merge_keys_own_keys_win_then_the_earlier_mapping():
    data, problems = parse("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc: {<<: [*a, *b], x: 3}\n")
    assert not problems
    assert data["c"] == {"x": 3, "y": 1, "z": 2}
    assert data["c"].key_place("x").line == 3 and data["c"].key_place("z").line == 2


def test_merging_a_scalar_is_an_error_with_its_place():
    _, problems = parse("a: {<<: 5}\n")
    assert "x.yaml:1:9: error: '<<' merges a mapping or a list of mappings" in problems.format()


def test_one_alias_inside_its_own_anchor_is_refused():
    data, problems = parse("a: &x [1, {b: *x}]\n")
    assert data is None
    assert problems.errors[0].place.col == 15 and "stands inside the value it names" in problems.errors[0].message


def test_undefined_alias_and_duplicate_anchor_are_located():
    _, problems = parse("a: 1\nb: *nowhere\n")
    assert "x.yaml:2:4: error: YAML syntax: found undefined alias 'nowhere'" in problems.format()
    _, problems = parse("a: &x 1\nb: &x 2\n")
    assert "x.yaml:2:4: error: YAML syntax: found duplicate anchor 'x'" in problems.format()


def test_logs_refuse_anchors_and_aliases():
    _, problems = parse("a: 1\nb: &x 2\n", aliases=False)
    assert "x.yaml:2:4: error: an anchor (&x) in a game log" in problems.format()
    _, problems = parse("a: 1\nb: *x\n", aliases=False)
    assert "x.yaml:2:4: error: an alias (*x) in a game log" in problems.format()
    data, problems = parse('{"a": [1, {"b": "c"}]}', aliases=False)  # JSON logs have neither
    assert not problems and data == {"a": [1, {"b": "c"}]}


def test_depth_limit_counts_levels_and_alias_depth():
    deep = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"  # the mapping is the first level
    assert parse(deep)[1].errors == []
    _, problems = parse("a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    assert problems.errors[0].place.col == 3 + MAX_DEPTH and "nested more than" in problems.errors[0].message
    half = MAX_DEPTH // 2 + 1
    _, problems = parse(f"a: &x {'[' * half}{']' * half}\nb: {'[' * half}*x{']' * half}\n")
    assert "with the alias *x the values nest more than" in problems.format()


def test_node_budget_counts_what_aliases_repeat():
    width = 100
    text = f"a: &a [{', '.join(['x'] * width)}]\n"
    text += f"b: &b [{', '.join(['*a'] * width)}]\n"  # 100 x 101 values: within the budget
    assert parse(text)[1].errors == []
    text += f"c: [{', '.join(['*b'] * width)}]\n"  # 100 x 10,101: beyond it
    data, problems = parse(text)
    assert data is None and problems.errors[0].place.line == 3
    assert "an alias bomb?" in problems.errors[0].message


def test_refusals_show_their_line_clipped_and_escaped():
    _, problems = parse("a: 1\nb: x\x00y\n")
    assert problems.format().splitlines()[:2] == ["x.yaml:2:5: error: a NUL byte: this is a binary file or not UTF-8 text",
                                                   "  >> b: x\\x00y"]
    _, problems = parse("long: " + "z" * (MAX_LINE + 5) + "\n")
    shown = problems.format().splitlines()[1]
    assert shown.endswith(f"... ({MAX_LINE + 11} characters)") and len(shown) < 300


def test_a_bad_value_for_an_explicit_tag_is_an_error_not_a_crash():
    _, problems = parse("a: 1\nb: !!int abc\n")
    assert "x.yaml:2:4: error: YAML syntax: cannot read 'abc' as int" in problems.format()


def test_read_source_names_the_line_of_a_byte_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("a: é\nb: 1\nc: caf".encode() + b"\xe9\n")
    problems = Problems()
    assert read_source(path, problems) is None
    assert str(problems.errors[0].place) == f"{path}:3:7"
    assert "byte 0xe9" in problems.errors[0].message


def test_read_source_refuses_a_large_file_without_reading_it_all(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# filler\n" * (MAX_BYTES // 9 + 10))
    problems = Problems()
    assert read_source(path, problems) is None
    place = problems.errors[0].place
    assert place.line == MAX_BYTES // 9 + 1 and "too large" in problems.errors[0].message


def test_normal_values_resolve_as_pyyaml_does():
    data, problems = parse("i: 7\nneg: -3\noct: 012\nhex: 0x1f\nf: 1.5\nb: yes\nn: ~\nd: 2026-01-02\ns: '7'\nbig: 123456789012345678901\n")
    assert not problems
    assert data == yaml.safe_load("i: 7\nneg: -3\noct: 012\nhex: 0x1f\nf: 1.5\nb: yes\nn: ~\nd: 2026-01-02\ns: '7'\n"
                                  "big: 123456789012345678901\n")
