"""Nothing required that the game does not need: "Lamps" (tests/data/sheets/) gives only a title, suits by
id, and a deck from a CSV with no ids, count, symbols, players or rules version; it validates and prints
through the real command, and only what would really need a missing value refuses it, with its place.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from casebook.rules.cards import read_database
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "tests" / "data" / "sheets"
CARDS, LAYOUTS = SHEETS / "cards", SHEETS / "layouts"


def casebook(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "casebook", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def lamps(root: Path, game: str | None = None, deck: tuple[str, str] | None = None) -> Path:
    """A copy of Lamps under `root`/cards, its game.yaml replaced by `game` and `deck` (name, text) added."""
    shutil.copytree(CARDS / "lamps", root / "cards" / "lamps")
    if game is not None:
        (root / "cards" / "lamps" / "game.yaml").write_text(game, encoding="utf-8")
    if deck is not None:
        (root / "cards" / "lamps" / deck[0]).write_text(deck[1], encoding="utf-8")
    return root / "cards"


def read(cards: Path) -> tuple[object, str]:
    problems = Problems()
    db = read_database("lamps", cards, problems)
    return db, problems.format()


YAML_GAME = """title: Lamps
suits: [{id: flame}, {id: wing}]
components:
  - id: deck
    file: deck.yaml
    face: lamps/face
    back: lamps/back
    fields:
      name: {type: str, required: true}
      suit: {type: suit, required: true}
      rank: {type: str, required: true}
      grade: {type: enum, values: ["1", "2", A]}
      text: {type: text}
      tags: {type: list, item: {type: str}}
"""


def test_the_defaults_of_what_is_left_out() -> None:
    db, said = read(CARDS)
    assert not said, said
    assert db is not None
    assert (db.id, db.title, db.short_title, db.players, db.rules_version, db.credit) == \
        ("lamps", "Lamps", "Lamps", None, None, "")
    flame = db.suits["flame"]
    assert (flame.name, flame.plural, flame.symbol, flame.colour, flame.ink) == ("Flame", "Flame", "", "#000000", "#000000")
    deck = db.components["deck"]
    assert (deck.name, deck.code, deck.count, deck.size, deck.printed) == ("Deck", "DECK", 0, "poker", 4)
    assert [c.id for c in deck.cards] == ["deck_2", "deck_3", "deck_4"]  # the sheet's rows
    assert not db.sheets and not db.rules and not db.marks


def test_it_validates_and_prints(tmp_path: Path) -> None:
    result = casebook("validate", "lamps", "--cards", str(CARDS), "--layouts", str(LAYOUTS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "lamps: ok (4 cards)\n" in result.stdout
    result = casebook("build", "lamps", "--cards", str(CARDS), "--layouts", str(LAYOUTS), "--out", str(tmp_path),
                      "--paper", "a4")
    assert result.returncode == 0, result.stdout + result.stderr
    from tests.generator.test_new_game import page_texts

    faces, backs = page_texts(tmp_path / "lamps" / "lamps-a4.pdf")[:2]
    assert faces.count("Tallow Candle") == 2 and "Luna Moth" in faces and "Oil Lantern" in faces, faces
    assert "DECK 1/4" in faces and "DECK 4/4" in faces and "Wing" in faces, faces
    assert backs.count("Lamps") >= 4, backs  # short_title is the title


def test_yaml_cards_without_ids_and_numbers_as_text(tmp_path: Path) -> None:
    deck = """cards:
  - {name: Candle, suit: flame, rank: 7, grade: 2, text: 1.5, tags: [3, hot]}
  - {name: Moth, suit: wing, rank: 7.5, grade: A}
  - {id: lantern, name: Lantern, suit: flame, rank: "10"}
"""
    db, said = read(lamps(tmp_path, YAML_GAME, ("deck.yaml", deck)))
    assert not said, said
    assert db is not None
    candle, moth, lantern = db.components["deck"].cards
    # an id-less card is <component>_<its place in the list>, as a sheet's row is <component>_<row>
    assert (candle.id, moth.id, lantern.id) == ("deck_1", "deck_2", "lantern")
    assert (candle["rank"], moth["rank"], lantern["rank"]) == ("7", "7.5", "10")
    assert (candle["grade"], moth["grade"], candle["text"], candle["tags"]) == ("2", "A", "1.5", ["3", "hot"])
    # the text reaches the layouts as written: the build prints it
    result = casebook("build", "lamps", "--cards", str(tmp_path / "cards"), "--layouts", str(LAYOUTS),
                      "--out", str(tmp_path / "out"), "--paper", "a4")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("deck", "expected"), [
    # a yes/no is not a number: YAML reads `yes` as true, and that is refused with how to write the word
    ("cards:\n  - {name: Candle, suit: flame, rank: yes}\n",
     "deck.yaml:2:39: error: card 'Candle' (number 1 in 'deck'): 'rank' must be text, not a yes/no value (true): "
     "write it in quotes (\"yes\") if you mean the word"),
    # a number that is none of an enum's values stays refused as the number it is
    ("cards:\n  - {name: Candle, suit: flame, rank: '1', grade: 3}\n",
     "deck.yaml:2:51: error: card 'Candle' (number 1 in 'deck'): 'grade' is 3, not an allowed value"),
    # a default id meeting a written one: both places named
    ("cards:\n  - {name: Candle, suit: flame, rank: '1'}\n  - {id: deck_1, name: Moth, suit: wing, rank: '2'}\n",
     "deck.yaml:3:10: error: duplicate card id 'deck_1' (first at {folder}/deck.yaml:2:5, the id of a card "
     "without one (its component and place in the list))"),
    ("cards:\n  - {id: deck_2, name: Candle, suit: flame, rank: '1'}\n  - {name: Moth, suit: wing, rank: '2'}\n",
     "deck.yaml:3:5: error: duplicate card id 'deck_2', the id of a card without one (its component and place "
     "in the list) (first at {folder}/deck.yaml:2:5)"),
])
def test_what_stays_refused(deck: str, expected: str, tmp_path: Path) -> None:
    cards = lamps(tmp_path, YAML_GAME, ("deck.yaml", deck))
    _, said = read(cards)
    assert expected.format(folder=cards / "lamps") in said, said


def test_the_count_is_checked_only_when_declared(tmp_path: Path) -> None:
    game = (CARDS / "lamps" / "game.yaml").read_text(encoding="utf-8")
    _, said = read(lamps(tmp_path / "five", game.replace("    file: deck.csv\n", "    file: deck.csv\n    count: 5\n")))
    assert "component 'deck' prints 4 cards but the count is 5" in said, said
    _, said = read(lamps(tmp_path / "four", game.replace("    file: deck.csv\n", "    file: deck.csv\n    count: 4\n")))
    assert not said, said


def test_a_layout_that_draws_a_missing_symbol_is_refused(tmp_path: Path) -> None:
    layouts = tmp_path / "layouts"
    shutil.copytree(LAYOUTS, layouts)
    face = layouts / "lamps" / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8") + """  - id: emblem
    type: symbol
    name: "{{ suit.symbol }}"
    x: 20
    y: 45
    w: 20
    h: 20
""", encoding="utf-8")
    game = (CARDS / "lamps" / "game.yaml").read_text(encoding="utf-8").replace("  - id: wing\n", "  - {id: wing, symbol: moth}\n")
    cards = lamps(tmp_path, game)
    out = tmp_path / "out"
    for command in (("validate", "lamps"), ("build", "lamps", "--out", str(out))):
        result = casebook(*command, "--cards", str(cards), "--layouts", str(layouts))
        said = result.stdout + result.stderr
        assert result.returncode == 1, said
        assert "Traceback" not in said
        # the flame cards only (wing has a symbol), each named, at the element's line of the layout
        assert f"{face}:62:11: error: card 'Tallow Candle' (row 2): element 'emblem' draws a symbol, but its name is empty " \
               "(a suit or mark without 'symbol' in game.yaml?)" in said, said
        assert "card 'Oil Lantern' (row 4): element 'emblem'" in said and "Luna Moth" not in said, said
        assert said.count("card 'Tallow Candle' (row 2): element 'emblem'") == 1, said  # once, not once for each copy
    assert not (out / "lamps").exists()


def test_a_game_with_rules_still_needs_players_and_a_rules_version(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "cards" / "graves", tmp_path / "graves")
    game = tmp_path / "graves" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith(("players:", "rules_version:"))]
    assert len(lines) == len(text.splitlines()) - 2
    game.write_text("".join(lines), encoding="utf-8")
    problems = Problems()
    read_database("graves", tmp_path, problems)
    said = problems.format()
    assert f"{game}:4:1: error: missing 'players': this game has rules (rules/games/graves.py), which need them" in said
    assert "missing 'rules_version': this game has rules (rules/games/graves.py), which write it into every " \
           "game log" in said, said


def test_a_log_cannot_start_without_a_rules_version() -> None:
    from dataclasses import replace

    from casebook.rules.cards import load_database
    from casebook.rules.engine import IllegalAction
    from casebook.rules.log import GameLog, start

    db = replace(load_database("graves"), rules_version=None)
    with pytest.raises(IllegalAction, match="the game 'graves' has no rules version"):
        start(db, GameLog("graves", 1, ["Ann", "Ben"], [], 1, {}))
