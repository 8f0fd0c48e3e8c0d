"""Tabletop Simulator export, read back: every deck's counts and every sheet's size and grid agree
with the saved object, the hidden slot shows the back, and the sheets keep TTS's limits."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops

from casebook.cli import main
from casebook.generator.board import board_size
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.exports.tts import (
    MAX_COLS,
    MAX_PX,
    MAX_ROWS,
    grid_for,
    plan_sheets,
    write_tts,
)
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems

GAMES = ["graves", "syndicate"]


@pytest.fixture(scope="module", params=GAMES)
def tts_build(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp(f"tts-{game}")
    assert main(["build", game, "--paper", "a4", "--out", str(out), "--tts"]) == 0
    return game, out / game / "tts"


def _file(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def test_the_saved_object_loads_every_deck_with_its_back(tts_build):
    from casebook.rules.cards import load_database

    game, folder = tts_build
    db = load_database(game)
    saved = json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))
    assert (folder / f"{game}.png").exists()  # the thumbnail TTS shows beside the file
    objects = {o["Nickname"]: o for o in saved["ObjectStates"]}
    assert set(objects) == {c.name for c in db.components.values()} | {s.name for s in db.sheets}
    for comp in db.components.values():
        deck = objects[comp.name]
        if comp.printed == 1:
            assert deck["Name"] == "Card"
            continue
        assert deck["Name"] == "Deck"
        cards = deck["ContainedObjects"]
        assert len(cards) == comp.printed  # one card object per printed copy
        assert deck["DeckIDs"] == [c["CardID"] for c in cards]
        for card in cards:
            key = str(card["CardID"] // 100)
            assert card["CustomDeck"][key] == deck["CustomDeck"][key]
            sheet = deck["CustomDeck"][key]
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1  # never the hidden slot
        if len(comp.cards) == 1:  # one design printed many times (time tokens): one slot, many cards
            assert len({c["CardID"] for c in cards}) == 1


def test_every_sheet_matches_its_grid_and_keeps_the_limits(tts_build):
    game, folder = tts_build
    saved = json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))
    checked = 0
    for obj in saved["ObjectStates"]:
        for sheet in obj.get("CustomDeck", {}).values():  # the sheets' tiles have a picture, no deck
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            assert 2 <= cols <= MAX_COLS and 2 <= rows <= MAX_ROWS
            with Image.open(_file(sheet["FaceURL"])) as face_img:
                face = face_img.convert("RGB")
            assert face.width <= MAX_PX and face.height <= MAX_PX
            assert face.width % cols == 0 and face.height % rows == 0
            cell = (face.width // cols, face.height // rows)
            with Image.open(_file(sheet["BackURL"])) as back_img:
                back = back_img.convert("RGB")
            if sheet["UniqueBack"]:
                assert back.size == face.size
            else:
                assert back.size == cell
                hidden = face.crop(((cols - 1) * cell[0], (rows - 1) * cell[1], cols * cell[0], rows * cell[1]))
                assert ImageChops.difference(hidden, back).getbbox() is None  # the last slot is the back
            checked += 1
    assert checked >= 1


def test_grids_are_the_smallest_that_hold_the_designs_and_the_hidden_card():
    assert grid_for(1, 63, 88) == (2, 2)
    cols, rows = grid_for(45, 63, 88)
    assert cols * rows == 48
    assert grid_for(69, 63, 88) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70, 63, 88)


def test_a_deck_of_more_than_69_designs_takes_more_sheets():
    from casebook.generator.exports import Design

    many = [Design(None, None, []) for _ in range(150)]
    plans = plan_sheets("big", many, 63, 88)
    assert [len(p.designs) for p in plans] == [69, 69, 12]
    for plan in plans:
        assert plan.size[0] <= MAX_PX and plan.size[1] <= MAX_PX


def test_a_hosting_url_replaces_the_file_paths(tmp_path):
    root = Path(__file__).resolve().parents[2] / "tests" / "data" / "tinygame"
    assert main(["build", "moth", "--cards", str(root / "cards"), "--layouts", str(root / "layouts"),
                 "--out", str(tmp_path), "--paper", "a4", "--tts", "--tts-url", "https://example.org/moth"]) == 0
    saved = json.loads((tmp_path / "moth" / "tts" / "moth.json").read_text(encoding="utf-8"))
    (deck,) = [o for o in saved["ObjectStates"] if o["Name"] == "Deck"]
    sheet = deck["CustomDeck"]["1"]
    assert sheet["FaceURL"] == "https://example.org/moth/deck-1.png"
    assert (tmp_path / "moth" / "tts" / "deck-1.png").exists()


@pytest.mark.parametrize("game", game_folders())
def test_every_printed_component_and_sheet_is_on_the_table(game, tmp_path):
    """Cards and tokens as decks or cards; every sheet (the P.I. city board, aids, scoresheets) as a tile
    whose picture is the sheet at its own proportions."""
    opts = BuildOptions(papers=("a4",), workers=1)
    problems = Problems()
    composed = compose_game(game, opts, problems)
    assert composed is not None, problems.format()
    saved = write_tts(composed, tmp_path / "tts", opts)
    by_name = {o["Nickname"]: o for o in saved["ObjectStates"]}
    for comp in composed.db.components.values():  # a lone card goes by its own name, its component in its description
        assert by_name.get(comp.name, {}).get("Name") == "Deck" or any(
            o["Name"] == "Card" and o["Description"].startswith(comp.name + " · ") for o in saved["ObjectStates"]), comp.id
    assert composed.db.sheets
    for sheet in composed.db.sheets:
        tile = by_name.get(sheet.name)
        assert tile is not None and tile["Name"] == "Custom_Tile", (game, sheet.id, sorted(by_name))
        image = tile["CustomImage"]
        assert image["CustomTile"]["Stretch"] is False
        with Image.open(_file(image["ImageURL"])) as img:
            assert max(img.size) <= MAX_PX
            size = board_size(composed.lib, composed.composer, sheet)
            w, h = (size.width, size.height) if size is not None else (composed.lib.papers["a4"].width,
                                                                        composed.lib.papers["a4"].height)
            assert img.width / img.height == pytest.approx(w / h, rel=0.01), sheet.id
    if game == "pi":  # the city: 560 x 400 mm, its largest side at most 4096 px
        (board,) = [s for s in composed.db.sheets if board_size(composed.lib, composed.composer, s) is not None]
        with Image.open(_file(by_name[board.name]["CustomImage"]["ImageURL"])) as img:
            assert img.size == (4096, 2926)
