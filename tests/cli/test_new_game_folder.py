"""`casebook new GAME` makes a folder that builds at once, and `casebook build|validate PATH`
builds a game from a folder of its own anywhere: its layouts there first, its own sizes and
symbols over ours, output in output/<folder name>/, errors naming the folder's files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casebook.cli import main
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.watch import build_rounds, snapshot
from casebook.rules.problems import Problems
from tests.generator.test_new_game import page_texts

SAMPLE_NAMES = ["Sunrise", "Heatwave", "Spring Shower", "Rainbow", "Seedling", "Old Oak"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def garden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A game made by `casebook new garden` in an empty working folder."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "garden")
    assert code == 0, err
    return Path("garden")


def test_new_makes_the_four_files_and_says_what_to_run(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sorted(p.name for p in garden.iterdir()) == ["back.yaml", "cards.csv", "face.yaml", "game.yaml"]
    game = (garden / "game.yaml").read_text(encoding="utf-8")
    assert 'title: "Garden"' in game
    # only what a print-only game needs: no id, players, rules version, counts or symbols to fill in
    assert not re.search(r"^(id|players|rules_version):", game, re.M)
    assert not re.search(r"^[^#]*\b(count|symbol):", game, re.M)
    header = (garden / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "Name,Suit,Cost,Text,Copies"  # no id column
    main(["new", "garden-two"])
    out = capsys.readouterr().out
    assert "next: casebook build garden-two" in out and "cards.csv" in out and "face.yaml" in out


def test_new_builds_at_once_into_a_pdf_of_its_cards(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "build", "garden", "--paper", "a4")
    assert code == 0, err
    pdf = Path("output/garden/garden-a4.pdf")
    assert f"wrote {pdf}" in out
    faces, backs, calibration, _ = page_texts(pdf)  # 9 cards (copies counted) on one sheet, its backs, calibration
    for name in SAMPLE_NAMES:
        assert name in faces, name
    assert faces.count("Sunrise") == 2 and faces.count("Put them back in any order.") == 2  # the Copies column
    assert "Look at the top three cards. Put them back in any order." in faces  # the multi-line cell
    assert backs.count("Garden") == 9 + 1 and "Sunrise" not in backs  # each back, and the sheet label
    assert "Duplex calibration" in calibration
    code, out, err = run(capsys, "validate", "garden")
    assert code == 0, out + err
    assert "garden: ok (9 cards" in out


def test_new_refuses_a_folder_that_holds_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    code, out, err = run(capsys, "new", str(mine))
    assert code == 1
    assert f"{mine} already exists and is not empty; nothing was written" in err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    code, out, err = run(capsys, "new", str(tmp_path / "pi"))  # a game that comes with Casebook
    assert code == 1 and "'pi' is the name of a game that comes with Casebook" in err
    assert not (tmp_path / "pi").exists()
    (tmp_path / "empty").mkdir()  # an empty folder is fine
    assert run(capsys, "new", str(tmp_path / "empty"))[0] == 0
    assert (tmp_path / "empty" / "game.yaml").is_file()


def test_a_game_folder_builds_from_anywhere_into_output_of_its_name(tmp_path: Path, garden: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "build", str(tmp_path / "garden"), "--paper", "letter")
    assert code == 0, err
    assert (elsewhere / "output" / "garden" / "garden-letter.pdf").is_file()
    monkeypatch.chdir(tmp_path / "garden")  # `casebook build .` inside the folder: named by the folder
    code, out, err = run(capsys, "build", ".", "--paper", "a4")
    assert code == 0, err
    assert (tmp_path / "garden" / "output" / "garden" / "garden-a4.pdf").is_file()


def test_errors_name_the_folders_files_and_keep_the_last_pdf(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "build", "garden", "--paper", "a4")[0] == 0
    pdf = Path("output/garden/garden-a4.pdf")
    before = pdf.read_bytes()
    cards = garden / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Sunrise,sun,1,", "Sunrise,sun,lots,"), encoding="utf-8")
    code, out, err = run(capsys, "build", "garden", "--paper", "a4")
    assert code == 1
    assert re.search(r"garden/cards\.csv:2: column 'Cost': error: .*'lots'", err), err
    assert "existing output left as it was" in err and "Traceback" not in err
    assert pdf.read_bytes() == before
    cards.write_text(cards.read_text(encoding="utf-8").replace("lots", "1"), encoding="utf-8")
    face = garden / "face.yaml"
    lines = face.read_text(encoding="utf-8").splitlines()
    at = lines.index("    font: bold           # regular, bold, italic or bolditalic")
    lines[at] = "    font: fancy"
    face.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "build", "garden", "--paper", "a4")
    assert code == 1
    assert f"garden/face.yaml:{at + 1}:11: error:" in err and "unknown font 'fancy'" in err, err
    game = garden / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("face: face ", "face: front"), encoding="utf-8")
    code, out, err = run(capsys, "validate", "garden")
    assert code == 1
    assert "no layout 'front' (garden/front.yaml does not exist)" in err + out
    assert pdf.read_bytes() == before


def test_a_folder_may_bring_its_own_sizes_and_symbols(garden: Path) -> None:
    (garden / "sizes.yaml").write_text("sizes:\n  mini: {width: 44mm, height: 63mm}\n", encoding="utf-8")
    (garden / "symbols.yaml").write_text(
        "symbols:\n  drop:\n    - {circle: [50, 60, 30]}\n", encoding="utf-8")
    game = garden / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("size: poker ", "size: mini  "), encoding="utf-8")
    for layout in ("face.yaml", "back.yaml"):
        path = garden / layout
        path.write_text(path.read_text(encoding="utf-8").replace("size: poker", "size: mini"), encoding="utf-8")
    problems = Problems()
    opts = BuildOptions(papers=("a4",), game_folders={"garden": garden})
    composed = compose_game("garden", opts, problems)
    assert composed is not None, problems.format()
    assert composed.lib.sizes["mini"].width == 44 and "poker" in composed.lib.sizes  # ours still there
    assert "drop" in composed.lib.symbols and len(composed.lib.symbols) > 1  # ours still there too
    face = composed.faces["cards"][0]
    scene = composed.composer.store.get(face.face_key)
    assert round(scene.width - 2 * composed.composer.bleed, 3) == 44


def test_games_given_by_folder_are_refused_with_a_reason(tmp_path: Path, garden: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    Path("notagame").mkdir()
    code, out, err = run(capsys, "build", "notagame")
    assert code == 2 and "unknown game notagame" in err and "a folder holding a game.yaml" in err
    (tmp_path / "other").mkdir()
    assert run(capsys, "new", str(tmp_path / "other" / "garden"))[0] == 0
    code, out, err = run(capsys, "validate", "garden", str(tmp_path / "other" / "garden"))
    assert code == 2 and "two games named garden" in err


def test_watch_follows_a_game_folder_but_not_the_output_inside_it(tmp_path: Path) -> None:
    game, layouts = tmp_path / "mine", tmp_path / "layouts"
    (game / "output" / "mine" / "png").mkdir(parents=True)
    layouts.mkdir()
    (game / "cards.csv").write_text("Name\nA\n", encoding="utf-8")
    (game / "output" / "mine" / "png" / "001-face.png").write_bytes(b"png")
    assert sorted(p.name for p in snapshot([game], ignore=[game / "output"])) == ["cards.csv"]

    edits = iter([lambda: (game / "cards.csv").write_text("Name\nA\nB\n", encoding="utf-8")])

    def edit(_: float) -> None:  # the first poll sees one edit; later polls see the file stand still
        next(edits, lambda: None)()

    rounds = build_rounds(["mine", "ours"], tmp_path / "cards", layouts, True, lambda s: None, interval=0, rounds=1,
                          sleep=edit, own={"mine": game}, ignore=(game / "output",))
    assert list(rounds) == ["mine", "ours", "mine"]  # both once, then the game whose folder changed


def test_the_templates_are_package_data() -> None:
    """A normal install (not -e) copies only what pyproject's package-data names: every template must be in it."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["casebook"]
    from casebook.scaffold import TEMPLATES

    files = sorted(p.relative_to(root / "casebook").as_posix() for p in (root / "casebook" / "new_game").iterdir())
    assert files == sorted(f"new_game/{name}" for name in TEMPLATES)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name
