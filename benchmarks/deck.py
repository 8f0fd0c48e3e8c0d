"""A large benchmark deck, generated at run time: the tiny test game (Moth and Lamp) with N cards.

Nothing here is committed output: `make_deck(folder, n)` copies tests/data/tinygame into
`folder` and rewrites its deck to n cards, so a benchmark can build and edit it freely.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "tinygame"
GAME = "moth"
WORDS = ("Dusty", "Luna", "Death", "Tallow", "Oil", "Gas", "Silver", "Ember", "Ash", "Velvet", "Paper", "Brass")


def card_line(i: int, name_suffix: str = "") -> str:
    """The YAML line of card i (0-based): a unique id and name, suits and values in turn."""
    suit = ("wing", "flame")[i % 2]
    name = f"{WORDS[i % len(WORDS)]} {WORDS[(i // len(WORDS)) % len(WORDS)]} {i + 1}{name_suffix}"
    return f"  - {{id: card_{i + 1:05d}, name: {name}, suit: {suit}, value: {i % 3 + 1}}}\n"


def csv_line(i: int) -> str:
    """Card i as a CSV row (id, name, suit, value), the same card as card_line(i)."""
    suit = ("wing", "flame")[i % 2]
    name = f"{WORDS[i % len(WORDS)]} {WORDS[(i // len(WORDS)) % len(WORDS)]} {i + 1}"
    return f"card_{i + 1:05d},{name},{suit},{i % 3 + 1}\n"


def make_deck(folder: Path, n: int = 500, per_file: int | None = None, sheet: bool = False) -> tuple[Path, Path]:
    """Copy the tiny game into folder with an n-card deck; returns (cards dir, layouts dir).

    The deck is one YAML file (`sheet`: one CSV file), or components of `per_file` cards each.
    """
    shutil.copytree(TINY, folder, dirs_exist_ok=True)
    cards, layouts = folder / "cards", folder / "layouts"
    per_file = per_file or max(n, 1)
    files = [range(start, min(n, start + per_file)) for start in range(0, n, per_file)]
    suffix = "csv" if sheet else "yaml"
    for k, part in enumerate(files):
        name = f"deck.{suffix}" if k == 0 else f"deck{k + 1}.{suffix}"
        text = ("id,name,suit,value\n" + "".join(csv_line(i) for i in part) if sheet
                else "cards:\n" + "".join(card_line(i) for i in part))
        (cards / GAME / name).write_text(text, encoding="utf-8")
    rules = cards / GAME / "rules.yaml"  # its one ruling names a card of the six
    rules.write_text(rules.read_text(encoding="utf-8").replace("gas_mantle", "card_00006"), encoding="utf-8")
    game = cards / GAME / "game.yaml"
    text = game.read_text(encoding="utf-8")
    head, rest = text.split("components:\n", 1)
    block, tail = rest.split("\nsheets:", 1)
    blocks = [re.sub(r"count: \d+", f"count: {len(part)}", block) if k == 0 else
              re.sub(r"count: \d+", f"count: {len(part)}", block).replace("id: deck", f"id: deck{k + 1}")
              .replace("file: deck.yaml", f"file: deck{k + 1}.yaml") for k, part in enumerate(files)]
    blocks = [block.replace(".yaml", f".{suffix}") if "file: deck" in block else block for block in blocks]
    game.write_text(head + "components:\n" + "".join(blocks) + "\nsheets:" + tail, encoding="utf-8")
    aid = layouts / GAME / "aid.yaml"  # its table lists the deck: the first six are enough on one page
    aid.write_text(aid.read_text(encoding="utf-8").replace("cards.deck %}", "cards.deck[:6] %}"), encoding="utf-8")
    return cards, layouts


def edit_card(cards: Path, index: int, suffix: str) -> None:
    """Rename one card (0-based index) in place, as a designer's edit would."""
    deck = cards / GAME / "deck.yaml"
    lines = deck.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[index + 1] = card_line(index, suffix)
    deck.write_text("".join(lines), encoding="utf-8")
