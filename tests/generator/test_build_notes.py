"""Every setting a build changes by itself is said as a note; none is changed silently."""

from __future__ import annotations

import pytest

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game, plans_for
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems


@pytest.mark.parametrize("game", game_folders())
def test_the_outer_bleed_is_never_narrowed_on_either_paper(game):
    """The issue's A4 case (3.175 mm narrowed to 2.5 mm without a word) cannot come back unnoticed."""
    opts = BuildOptions()
    problems = Problems()
    composed = compose_game(game, opts, problems)
    assert composed is not None, problems.format()
    for paper in opts.papers:
        for size_id, plan in plans_for(composed, paper, opts, problems).items():
            assert plan.bleed == composed.lib.settings.bleed, (game, paper, size_id)
            bx0, by0, bx1, by1 = plan.block()  # the whole bleed, short only of the margin the printer leaves blank
            rooms = (bx0, by0, plan.paper_w - bx1, plan.paper_h - by1)
            assert plan.outer == tuple(min(plan.bleed, r - plan.margin) for r in rooms), (game, paper, size_id)
            assert plan.outer == (plan.bleed,) * 4 or any("stops at the" in n for n in plan.notes)
            assert sorted(plan.for_backs().outer) == sorted(plan.outer)  # the backs mirror, never narrow


def test_each_imposition_note_is_printed(capsys, tmp_path):
    opts = BuildOptions(papers=("letter",))
    problems = Problems()
    composed = compose_game("syndicate", opts, problems)
    assert composed is not None
    notes = [n for plan in plans_for(composed, "letter", opts, problems).values() for n in plan.notes]
    assert notes  # 3 x 3 poker cards on Letter: the marks lie over the bleed
    assert main(["build", "syndicate", "--paper", "letter", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    for note in notes:
        assert f"note: letter, poker cards: {note}" in err


def test_no_labels_spends_nothing_on_label_room(tmp_path, capsys):
    opts = BuildOptions(papers=("a4",))
    problems = Problems()
    composed = compose_game("pi", opts, problems)
    assert composed is not None
    labelled = plans_for(composed, "a4", opts, problems)
    bare = plans_for(composed, "a4", BuildOptions(papers=("a4",), labels=False), problems)
    for size_id, plan in labelled.items():
        assert bare[size_id].per_sheet >= plan.per_sheet
        assert not any("label" in n for n in bare[size_id].notes), size_id
        assert bare[size_id].reserve == (0.0,) * 4


def test_fold_and_glue_says_it_spaces_the_pairs_and_turns_the_sheet(tmp_path, capsys):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--fold"]) == 0
    out = capsys.readouterr().out
    assert ("note: a4, fold-and-glue poker pairs: spaced 6 mm apart (twice the bleed) instead of the gutter of 0 mm"
            in out)
    assert "note: a4, fold-and-glue poker pairs: sheets turned to landscape" in out
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--fold", "--gutter", "8"]) == 0
    assert "spaced" not in capsys.readouterr().out  # a gutter wider than two bleeds is kept as given


def test_a_print_service_says_the_bleed_it_composed_with(tmp_path, capsys):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--service", "tgc"]) == 0
    out = capsys.readouterr().out
    assert "note: The Game Crafter, poker cards: composed with a 3.3 mm bleed instead of 3 mm" in out


def test_tabletop_simulator_says_when_it_draws_coarser(tmp_path, capsys, monkeypatch):
    from casebook.generator.exports import tts

    monkeypatch.setattr(tts, "TARGET_DPI", 1000.0)  # more than MAX_PX allows for any sheet of the deck
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--tts"]) == 0
    out = capsys.readouterr().out
    assert "note: Tabletop Simulator, decktet: sheets drawn at " in out and "instead of 1000" in out
