"""The companion shows each thing it names with the picture its printed card draws (issue 22): one place,
companion/pictures.py, answers from the index tools/app_assets.py renders from the print's own library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from casebook.companion.pictures import SYMBOLS, picture_for, symbol_for
from casebook.rules.cards import load_database

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ROOT / "layouts"

# What the app names, by game: the component (or record) and the card field its face layout draws it by.
NAMED = {
    "graves": [("locations", "picture"), ("identities", "symbol")],
    "pi": [("suspects", "picture"), ("crimes", "picture"), ("districts", "picture")],
    "hasty": [("suspects", "portrait")],
    "clash": [("sites", "picture"), ("holmes_agents", "picture"), ("moriarty_agents", "picture"),
              ("crime_plans", "picture")],
}


def things(game: str) -> list[tuple[str, str, object]]:
    db = load_database(game)
    groups = {**db.components, **db.records}
    return [(group, key, card) for group, key in NAMED[game] for card in groups[group].cards]


@pytest.mark.parametrize("game", sorted(NAMED))
def test_every_thing_the_app_names_has_the_picture_its_card_draws(game):
    db = load_database(game)
    for group, key, card in things(game):
        if group in db.components:  # its face layout draws that field (a P.I. record: through its tiles, below)
            face = (LAYOUTS / f"{db.components[group].face}.yaml").read_text(encoding="utf-8")
            assert f"card.{key}" in face, (game, group, key)
        assert card[key], (game, card.id)  # type: ignore[attr-defined,index]
        assert symbol_for(game, card.id) == card[key], (game, card.id)  # type: ignore[attr-defined,index]
        path = picture_for(game, card.id)  # type: ignore[attr-defined]
        assert path is not None and Path(path) == SYMBOLS / f"{card[key]}.png" and Path(path).is_file()  # type: ignore[index]


@pytest.mark.parametrize("game", sorted(NAMED))
def test_no_two_things_of_a_game_share_a_picture(game):
    seen: dict[str, str] = {}
    for _group, _key, card in things(game):
        name = symbol_for(game, card.id)  # type: ignore[attr-defined]
        assert name not in seen, f"{game}: {card.id} and {seen.get(name)} both draw {name}"  # type: ignore[attr-defined]
        seen[name] = card.id  # type: ignore[assignment,attr-defined,index]


def test_p_i_tiles_and_case_cards_show_their_elements_picture():
    db = load_database("pi")
    tile_face = (LAYOUTS / "pi" / "tile-face.yaml").read_text(encoding="utf-8")
    assert "e.get('picture')" in tile_face  # the print draws the element's picture on its tile
    for group in ("suspect_tiles", "crime_tiles", "suspect_cases", "crime_cases", "location_cases"):
        for card in db.components[group].cards:
            element = card.get("element")
            assert symbol_for("pi", card.id) == (symbol_for("pi", element) if element else None), card.id


def test_what_has_no_picture_says_none():
    assert picture_for("graves", "no_such_place") is None
    assert picture_for("syndicate", "anything") is None
    assert picture_for("pi", "tile_no_suspect") is None
    assert picture_for("pi", None) is None


def test_the_rendered_pictures_are_up_to_date_and_small():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "app_assets.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sum(p.stat().st_size for p in SYMBOLS.iterdir()) < 1_000_000


def test_the_icons_makers_are_credited_as_the_print_credits_them():
    from casebook.companion.pictures import credit
    from casebook.generator.symbols import picture_registry

    drawn = {p.stem for p in SYMBOLS.glob("*.png")}
    assert credit() == picture_registry(LAYOUTS).credit(drawn)
    assert "game-icons.net" in credit() and "CC BY" in credit()
