"""`casebook build --set`: a set the game lacks, or a game without sets, is refused before anything is written."""

from __future__ import annotations

import pytest

from casebook.cli import main


@pytest.mark.parametrize(("argv", "said"), [
    (["hasty", "--set", "bogus"], "hasty has no card set 'bogus'; its sets: base (default), advanced, expert, or all"),
    (["hasty", "--set", "base,basic", "--set", "expret"], "hasty has no card sets 'basic', 'expret'"),
    (["graves", "--set", "base"], "graves has no card sets, so --set does not apply to it"),
    (["graves", "hasty", "--set", "all"], "graves has no card sets"),
    (["hasty", "--set", ","], "name one or more card sets"),
])
def test_a_set_that_cannot_be_printed_is_refused_and_nothing_is_written(tmp_path, capsys, argv, said):
    out = tmp_path / "out"
    assert main(["build", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("casebook: --set: ") and said in err, err
    assert "Traceback" not in err
    assert not out.exists()  # not even the cache folder


def test_the_set_option_takes_a_comma_list_or_repeats(tmp_path, capsys):
    assert main(["build", "hasty", "--paper", "a4", "--set", "expert", "--set", "base,advanced", "--out",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "sets: base, advanced, expert" in out  # the build report names the sets printed, in the game's order


def _hasty_copy(tmp_path, find, replace):
    import shutil

    from casebook.rules.cards import CARDS_DIR

    shutil.copytree(CARDS_DIR / "hasty", tmp_path / "hasty")
    path = tmp_path / "hasty" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(find) == 1, find
    path.write_text(text.replace(find, replace), encoding="utf-8")
    return tmp_path


def test_validate_proves_each_sets_count(capsys):
    assert main(["validate", "hasty"]) == 0
    out = capsys.readouterr().out
    for line in ("set base: 47 cards", "set advanced: 50 cards", "set expert: 42 cards"):
        assert line in out, out


@pytest.mark.parametrize(("find", "replace", "said"), [
    ("{id: expert, name: Expert set, count: 42}", "{id: expert, name: Expert set}", "missing 'count'"),
    ("{id: expert, name: Expert set, count: 42}", "{id: expert, name: Expert set, count: 41}",
     "card set 'expert' prints 42 cards but the count is 41"),
    ("  - {id: expert, name: Expert set, count: 42}\n",
     "  - {id: expert, name: Expert set, count: 42}\n  - {id: promo, name: Promo cards, count: 3}\n",
     "card set 'promo' has no cards"),
])
def test_validate_refuses_a_set_whose_count_is_not_proved(tmp_path, capsys, find, replace, said):
    cards = _hasty_copy(tmp_path, find, replace)
    assert main(["validate", "hasty", "--cards", str(cards)]) == 1
    out = capsys.readouterr().out
    assert said in out and "game.yaml:" in out, out


def test_a_component_of_a_set_is_printed_only_with_that_set(tmp_path):
    """Graves given two sets: a component of a set prints only with it, one without sets always."""
    import shutil

    from casebook.generator.build import BuildOptions, compose_game
    from casebook.rules.cards import CARDS_DIR
    from casebook.rules.problems import Problems

    shutil.copytree(CARDS_DIR / "graves", tmp_path / "graves")
    game = tmp_path / "graves" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    for code, card_set in (("DET", "main"), ("ID", "extra")):
        assert text.count(f"    code: {code}\n") == 1
        text = text.replace(f"    code: {code}\n", f"    code: {code}\n    sets: [{card_set}]\n")
    text = text.replace("\ncomponents:\n", "\nsets:\n  - {id: main, name: Main set, default: true, count: 45}\n"
                        "  - {id: extra, name: Extra set, count: 5}\n\ncomponents:\n", 1)
    game.write_text(text, encoding="utf-8")
    printed = {}
    for sets in ((), ("extra",), ("main", "extra")):
        problems = Problems()
        composed = compose_game("graves", BuildOptions(papers=("a4",), cards_dir=tmp_path, sets=sets), problems)
        assert composed is not None, problems.format()
        printed[sets] = {cid: len(faces) for cid, faces in composed.faces.items()}
    assert printed[()]["detective"] == 45 and "identities" not in printed[()]
    assert printed[("extra",)]["identities"] == 5 and "detective" not in printed[("extra",)]
    assert printed[("main", "extra")]["detective"] == 45 and printed[("main", "extra")]["identities"] == 5
    assert all(p["mastermind"] == 45 and p["locations"] == 12 for p in printed.values())  # no sets: always
