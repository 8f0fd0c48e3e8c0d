"""Parts of a PDF a designer may leave out: backs, calibration pages, sheet labels (flags or game.yaml)."""

from __future__ import annotations

import re
import shutil

import pytest

from casebook.cli import main
from tests.conftest import ROOT
from tests.generator.test_build import page_texts


def _build(out, *flags, cards=None):
    argv = ["build", "syndicate", "--paper", "a4", "--out", str(out), *flags]
    if cards is not None:
        argv += ["--cards", str(cards)]
    assert main(argv) == 0
    return page_texts(out / "syndicate" / "syndicate-a4.pdf")


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("full"))


def _is_calibration(text):
    return "calibration" in text.lower()


def _card_sheets(texts):
    """Page texts of the card sheets: those with a page label (faces or backs)."""
    return [t for t in texts if "· faces" in t or "· backs" in t]


def test_the_default_build_has_backs_calibration_and_labels(full):
    sheets = _card_sheets(full)
    faces = [t for t in sheets if "· faces" in t]
    backs = [t for t in sheets if "· backs" in t]
    assert faces and len(backs) == len(faces)
    assert sum(map(_is_calibration, full)) == 2


def test_no_backs_leaves_out_every_back_page_and_the_back_calibration_page(full, tmp_path):
    texts = _build(tmp_path, "--no-backs")
    backs = len([t for t in full if "· backs" in t])
    assert not any("· backs" in t for t in texts)
    assert len(texts) == len(full) - backs - 1  # the calibration's back half goes with the backs
    assert sum(map(_is_calibration, texts)) == 1


def test_no_calibration_leaves_out_both_calibration_pages(full, tmp_path):
    texts = _build(tmp_path, "--no-calibration")
    assert len(texts) == len(full) - 2
    assert not any(map(_is_calibration, texts))
    assert _card_sheets(texts) == _card_sheets(full)


def test_no_labels_leaves_the_page_count_and_takes_the_labels_off_the_page_text(full, tmp_path):
    texts = _build(tmp_path, "--no-labels")
    assert len(texts) == len(full)
    label_pages = [i for i, t in enumerate(full) if "· faces" in t or "· backs" in t]
    assert label_pages
    for i in label_pages:
        assert "· faces" not in texts[i] and "· backs" not in texts[i]
        assert not re.search(r"sheet \d+ of \d+", texts[i])


def test_the_switches_combine(full, tmp_path):
    texts = _build(tmp_path, "--no-backs", "--no-calibration", "--no-labels")
    faces = len([t for t in full if "· faces" in t])
    assert len(texts) == len(full) - faces - 2  # one back per face page, two calibration pages
    assert not any("· faces" in t or "· backs" in t or _is_calibration(t) for t in texts)


@pytest.fixture
def own_cards(tmp_path):
    """A copy of the Syndicate's card folder whose game.yaml may be edited."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "syndicate", cards / "syndicate")
    return cards


def _add_to_game_yaml(cards, text):
    path = cards / "syndicate" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    return path


def test_game_yaml_print_switches_act_as_the_flags(full, own_cards, tmp_path):
    _add_to_game_yaml(own_cards, "\nprint:\n  backs: false\n  calibration: false\n  labels: false\n")
    texts = _build(tmp_path / "out", cards=own_cards)
    assert texts == _build(tmp_path / "flags", "--no-backs", "--no-calibration", "--no-labels")
    assert len(texts) < len(full)


def test_game_yaml_true_keeps_what_the_default_prints(full, own_cards, tmp_path):
    _add_to_game_yaml(own_cards, "\nprint:\n  backs: true\n")
    assert _build(tmp_path / "out", cards=own_cards) == full


@pytest.mark.parametrize("text, message", [
    ("\nprint:\n  backs: maybe\n", "print: backs must be true or false"),
    ("\nprint:\n  crop_marks: false\n", "unknown key 'crop_marks' in print"),
    ("\nprint: no backs\n", "print must be a mapping"),
])
def test_a_wrong_game_yaml_value_is_refused_with_its_line(own_cards, tmp_path, capsys, text, message):
    path = _add_to_game_yaml(own_cards, text)
    lines = path.read_text(encoding="utf-8").count("\n")
    out = tmp_path / "out"
    code = main(["build", "syndicate", "--paper", "a4", "--out", str(out), "--cards", str(own_cards)])
    err = capsys.readouterr().err
    assert code == 1
    assert message in err and "Traceback" not in err
    assert f"game.yaml:{lines}:" in err  # the line of the wrong value (the last one written)
    assert not (out / "syndicate" / "syndicate-a4.pdf").exists()


@pytest.mark.parametrize("argv, named", [
    (["--no-backs=yes"], "--no-backs"),
    (["--no-labels=false"], "--no-labels"),
    (["--no-calibrate"], "--no-calibrate"),
])
def test_a_flag_with_a_wrong_value_is_refused_clearly(tmp_path, capsys, argv, named):
    with pytest.raises(SystemExit) as exit_:
        main(["build", "syndicate", "--out", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert named in err and "Traceback" not in err
    assert not (tmp_path / "syndicate").exists()


def test_split_sides_without_backs_writes_the_faces_file_alone(tmp_path):
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(tmp_path), "--split-sides", "--no-backs"]) == 0
    folder = tmp_path / "syndicate"
    assert (folder / "syndicate-a4-faces.pdf").is_file()
    assert not (folder / "syndicate-a4-backs.pdf").exists()


@pytest.mark.parametrize("backs, calibration", [(True, True), (False, True), (True, False), (False, False)])
def test_the_cover_page_map_follows_the_switches(tmp_path, backs, calibration):
    from casebook.generator.build import BuildOptions, compose_game, write_pdf
    from casebook.generator.exports.cover import page_map
    from casebook.rules.problems import Problems

    opts = BuildOptions(papers=("a4",), backs=backs, calibration=calibration)
    problems = Problems()
    composed = compose_game("pi", opts, problems)
    assert composed is not None
    pages = write_pdf(composed, "a4", tmp_path / "pi.pdf", opts, problems)
    ranges = page_map(composed, "a4", opts)
    assert ranges[-1].last == pages
    assert all(b.first == a.last + 1 for a, b in zip(ranges, ranges[1:], strict=False))
    assert any("calibration" in r.what.lower() for r in ranges) == calibration
    assert any("faces then backs" in r.what for r in ranges) == backs


def test_per_card_pdfs_without_backs_hold_the_faces_alone(tmp_path):
    import pypdfium2 as pdfium

    counts = {}
    for flags in ((), ("--no-backs",)):
        out = tmp_path / ("bare" if flags else "full")
        assert main(["build", "syndicate", "--paper", "a4", "--out", str(out), "--per-card", *flags]) == 0
        pdf = pdfium.PdfDocument(str(out / "syndicate" / "cards" / "decktet.pdf"))
        counts[flags] = len(pdf)
        pdf.close()
    assert counts[()] == 2 * counts[("--no-backs",)] > 0
