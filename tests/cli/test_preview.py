"""`casebook build GAME --preview` also draws the whole set in one picture (issue 22):
output/GAME/preview/GAME.png, the board or large card, the aid, a few faces of each deck
over its back and the tokens, about 1200 px wide and under 300 KB; docs/ holds the five
games' pictures the README shows; a width the option cannot take is refused, saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from casebook.cli import main
from casebook.generator.backends.preview import (
    WIDTH,
    decks_shown,
    large_piece,
    preview_image,
    sheet_page,
    write_preview,
)
from casebook.generator.build import BuildOptions, compose_game
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("graves", "pi", "syndicate", "clash", "hasty")
MOST = 300 * 1024  # bytes: small enough for a README


def _composed(game: str):
    problems = Problems()
    composed = compose_game(game, BuildOptions(papers=("a4",)), problems)
    assert composed is not None, problems.format()
    return composed


def test_build_preview_writes_the_sets_picture(tmp_path, capsys):
    assert main(["build", "hasty", "--paper", "a4", "--preview", "--out", str(tmp_path)]) == 0
    picture = tmp_path / "hasty" / "preview" / "hasty.png"
    with Image.open(picture) as img:
        assert img.width == WIDTH == 1200
        assert img.height > 400
    assert picture.stat().st_size < MOST
    assert (tmp_path / "hasty" / "preview" / "suspects.png").is_file()  # the components' fans are still there
    assert f"wrote {picture}" in capsys.readouterr().out


def test_preview_width_sets_the_pictures_width(tmp_path):
    assert main(["build", "syndicate", "--paper", "a4", "--preview", "--preview-width", "800", "--out", str(tmp_path)]) == 0
    with Image.open(tmp_path / "syndicate" / "preview" / "syndicate.png") as img:
        assert img.width == 800


@pytest.mark.parametrize(("args", "words"), [
    (["--preview-width", "900"], ["--preview-width 900", "add --preview"]),
    (["--preview", "--preview-width", "90"], ["--preview-width 90", "400 to 2400 pixels"]),
    (["--preview", "--preview-width", "5000"], ["--preview-width 5000", "400 to 2400 pixels"]),
])
def test_a_width_the_preview_cannot_take_is_refused(tmp_path, capsys, args, words):
    assert main(["build", "hasty", "--paper", "a4", *args, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert all(w in err for w in words), err
    assert "Traceback" not in err
    assert not (tmp_path / "hasty").exists()  # refused before anything is built


@pytest.mark.parametrize("game", GAMES)
def test_each_sets_picture_is_1200_px_under_300_kb_and_shows_its_parts(tmp_path, game):
    composed = _composed(game)
    size = write_preview(composed, tmp_path / f"{game}.png")
    with Image.open(tmp_path / f"{game}.png") as img:
        assert img.width == 1200 and 500 <= img.height <= 2000, img.size
    assert size < MOST, size
    problems = Problems()
    assert sheet_page(composed, problems) is not None  # the aid (or the game's sheet)
    assert decks_shown(composed)  # a few faces of its decks
    large = large_piece(composed)
    if game in ("pi", "clash"):  # the games with a board show it
        assert large is not None and large[1] == "board"


def test_the_picture_is_drawn_from_the_scenes():
    """A deck's back colour shows in the picture: it is composed from the cards, not a stock image."""
    composed = _composed("clash")
    img = preview_image(composed, 600)
    colours = {c for _, c in img.getcolors(maxcolors=600 * 2000) or []}
    assert (122, 31, 31) in colours  # Moriarty's influence back ground, #7A1F1F


@pytest.mark.parametrize("game", GAMES)
def test_the_readme_shows_each_sets_committed_picture(game):
    picture = ROOT / "docs" / f"{game}-preview.png"
    with Image.open(picture) as img:
        assert img.width == 1200
    assert picture.stat().st_size < MOST
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## What the sets look like"):]
    assert f"(docs/{game}-preview.png)" in section.split("\n## ")[0]
