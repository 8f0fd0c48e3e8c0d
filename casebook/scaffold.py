"""`casebook new GAME`: a folder for a game of one's own that builds at once.

The files are the templates in casebook/new_game/ (package data): game.yaml, a sample
cards.csv, and face.yaml and back.yaml layouts explained line by line.
"""

from __future__ import annotations

import json
import shlex
import sys
from importlib import resources
from pathlib import Path

TEMPLATES = ("game.yaml", "cards.csv", "face.yaml", "back.yaml")
WHAT = {
    "game.yaml": "the title, the suits and what is printed",
    "cards.csv": "the cards, one a row (open it in a spreadsheet)",
    "face.yaml": "the layout of the card faces",
    "back.yaml": "the layout of the card backs",
}


def title_of(name: str) -> str:
    """A title from a folder name: `moth-and-lamp` is "Moth And Lamp", `Garden` stays "Garden"."""
    words = name.replace("_", " ").replace("-", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or name


def template(name: str) -> str:
    return (resources.files("casebook") / "new_game" / name).read_text(encoding="utf-8")


def new_game(folder: Path) -> int:
    """Write the templates into `folder` (made if missing); refuse a folder that holds anything."""
    if folder.name in ("", ".", ".."):
        folder = folder.resolve()
    from casebook.rules.cards import game_folders

    if folder.name in game_folders():  # its rules module's checks would apply, and its output would be replaced
        print(f"casebook new: '{folder.name}' is the name of a game that comes with Casebook; "
              "nothing was written (choose another name)", file=sys.stderr)
        return 1
    if folder.exists() and not folder.is_dir():
        print(f"casebook new: {folder} is a file, not a folder; nothing was written", file=sys.stderr)
        return 1
    if folder.is_dir() and any(folder.iterdir()):
        print(f"casebook new: {folder} already exists and is not empty; nothing was written "
              "(give a new folder's name, or empty this one)", file=sys.stderr)
        return 1
    texts = {name: template(name) for name in TEMPLATES}
    texts["game.yaml"] = texts["game.yaml"].replace("__TITLE__", json.dumps(title_of(folder.name), ensure_ascii=False))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (folder / name).write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        print(f"casebook new: cannot write {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"made {folder}/ for the game '{folder.name}':")
    for name in TEMPLATES:
        print(f"  {name:<10} {WHAT[name]}")
    command = f"casebook build {shlex.quote(str(folder))}"
    print(f"next: {command}   (writes output/{folder.name}/{folder.name}-a4.pdf and -letter.pdf)")
    print(f"then: {command} --watch   (rebuilds each time you save a file; Ctrl-C stops)")
    return 0
