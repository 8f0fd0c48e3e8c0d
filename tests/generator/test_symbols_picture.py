"""docs/symbols.png shows every shape of layouts/symbols.yaml as it is now (remade by tools/make_symbols_picture.py),
and the generic shapes a designer's own deck needs are in the library."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from casebook.generator.layouts import load_library
from casebook.generator.symbols import draw_symbol

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "make_symbols_picture.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_symbols_picture", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_picture_shows_the_library_as_it_is() -> None:
    script = _script()
    made = script.symbols_picture(load_library().symbols).convert("L")
    shown = Image.open(script.PICTURE).convert("L")
    assert shown.size == made.size, "a symbol was added or removed: python tools/make_symbols_picture.py"
    rms = ImageStat.Stat(ImageChops.difference(made, shown)).rms[0]
    assert rms < 4.0, f"docs/symbols.png differs from the library (RMS {rms:.1f}): python tools/make_symbols_picture.py"
    assert script.PICTURE.stat().st_size < 60_000


def test_a_designers_generic_shapes_are_there_and_drawable() -> None:
    symbols = load_library().symbols
    for name in ("heart", "sword", "shield", "flame"):
        items = draw_symbol(symbols[name], 0, 0, 10, 10, "#000000", "#FFFFFF")
        assert items, name
        assert all(0 <= x <= 10 and 0 <= y <= 10 for item in items for x, y in getattr(item, "points", ())), name


def test_a_changed_shape_changes_the_picture() -> None:
    """The comparison above can fail: a library whose heart is a sword's draws another picture."""
    script = _script()
    symbols = load_library().symbols
    made = script.symbols_picture(symbols).convert("L")
    other = script.symbols_picture({**symbols, "heart": symbols["sword"]}).convert("L")
    assert ImageStat.Stat(ImageChops.difference(made, other)).rms[0] >= 4.0
