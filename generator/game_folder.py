"""A designer's game in a folder of its own, anywhere (`casebook build PATH`).

The folder holds game.yaml, its cards and its layouts side by side: a component's
`face: face` is `<folder>/face.yaml` (any layout not there is looked up in our layouts/).
It may bring a sizes.yaml (`sizes: {mini: {width: 44mm, height: 63mm}}`) and a
symbols.yaml of its own, read over ours; papers and print settings stay ours.
"""

from __future__ import annotations

from pathlib import Path

from casebook.generator.layouts import LayoutLibrary, Size
from casebook.generator.symbols import parse_library
from casebook.generator.units import parse_length
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, load_yaml

GAME_FILE = "game.yaml"


def game_folder(arg: str) -> Path | None:
    """The folder a command-line GAME names if it holds a game.yaml (the game's id is its name), else None.

    `.` and `..` become the folders they mean, so that the folder has a name.
    """
    folder = Path(arg)
    if not (folder / GAME_FILE).is_file():
        return None
    return folder.resolve() if folder.name in ("", ".", "..") else folder


def add_own_folder(lib: LayoutLibrary, folder: Path, problems: Problems) -> None:
    """Let the library find the game's own layouts first, and read its sizes and symbols over ours."""
    lib.own = folder
    sizes_path = folder / "sizes.yaml"
    if sizes_path.is_file():
        raw = load_yaml(sizes_path, problems)
        entries = raw.get("sizes") if isinstance(raw, Node) else None
        if not isinstance(entries, Node):
            if raw is not None:
                problems.add(Place(str(sizes_path)), "a game's sizes.yaml holds 'sizes:' (a mapping of card sizes)",
                             "sizes:\n  mini: {width: 44mm, height: 63mm}")
            entries = Node()
        for sid, spec in entries.items():
            try:
                if not isinstance(spec, Node):
                    raise ValueError("give it as {width: 44mm, height: 63mm}")
                lib.sizes[sid] = Size(sid, parse_length(spec.get("width")), parse_length(spec.get("height")),
                                      spec.get("shape") == "round")
            except ValueError as exc:
                problems.add(entries.value_place(sid), f"size '{sid}': {exc}")
    symbols_path = folder / "symbols.yaml"
    if symbols_path.is_file():
        raw = load_yaml(symbols_path, problems)
        if raw is not None:
            lib.symbols = {**lib.symbols, **parse_library(raw, problems, Place(str(symbols_path)))}
