"""What a print-and-play review checks: any bleed builds, lengths a template prints parse,
absurd back offsets are refused, PNG names number the designs without gaps."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from casebook.cli import main
from generator.build import BuildOptions, compose_game, export_pngs
from generator.units import parse_length
from rules.cards import game_folders
from rules.problems import Problems


@pytest.mark.parametrize("text, mm", [("3.55e-15", 3.55e-15), ("-0.0", 0.0), ("-0", 0.0), ("1E1mm", 10.0),
                                      ("+0.5in", 12.7), ("2.5e-1 cm", 2.5), (-0.0, 0.0), (".5", 0.5)])
def test_lengths_take_any_float_a_template_prints(text, mm):
    got = parse_length(text)
    assert got == pytest.approx(mm, abs=1e-18)
    assert str(got) != "-0.0"  # negative zero comes out as plain zero


@pytest.mark.parametrize("bad", ["nan", "inf", float("nan"), float("inf"), "1e", "e5", "--1", "1.2.3"])
def test_lengths_refuse_what_is_not_a_finite_number(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


@pytest.mark.parametrize("bleed", ["0", "0.1", "6"])
def test_every_game_builds_at_any_bleed(bleed, tmp_path, capsys):
    games = game_folders()
    assert {"graves", "syndicate"} <= set(games)
    assert main(["build", *games, "--paper", "a4", "--bleed", bleed, "--out", str(tmp_path)]) == 0, \
        capsys.readouterr().err
    for game in games:
        assert (tmp_path / game / f"{game}-a4.pdf").stat().st_size > 10_000


@pytest.mark.parametrize("offset", ["15,12", "0,-5.5", "nan,0"])
def test_an_absurd_back_offset_is_refused_with_the_range(offset, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["build", "graves", f"--back-offset={offset}"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "between -5 and 5 mm" in err and "Traceback" not in err


def test_png_names_number_each_design_without_gaps(tmp_path):
    problems = Problems()
    composed = compose_game("graves", BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    out = tmp_path / "png"
    export_pngs(composed, out, BuildOptions(dpi=12, workers=1))
    for cid, faces in composed.faces.items():
        names = sorted(p.name for p in (out / cid).glob("*.png"))
        designs = list(dict.fromkeys(f.card.id for f in faces))
        numbers: dict[str, set[str]] = defaultdict(set)
        for name in names:
            m = re.fullmatch(r"(\d{3})-([a-z0-9_]+?)(?:-x(\d+))?-(face|back)\.png", name)
            assert m, name
            numbers[m[1]].add(m[4])
            copies = next(f.card.copies for f in faces if f.card.id == m[2])
            assert (int(m[3]) if m[3] else 1) == copies, name
            assert designs.index(m[2]) + 1 == int(m[1]), name  # numbered in print order
        assert sorted(numbers) == [f"{n:03d}" for n in range(1, len(designs) + 1)], cid
        assert all(sides == {"face", "back"} for sides in numbers.values())
    # the 28 time tokens are one design printed 28 times; the trump tokens five designs of two
    assert [p.name for p in (out / "time_tokens").glob("*-face.png")] == ["001-time_token-x28-face.png"]
    assert sorted(p.name[:3] for p in (out / "trump_tokens").glob("*-face.png")) == ["001", "002", "003", "004", "005"]
