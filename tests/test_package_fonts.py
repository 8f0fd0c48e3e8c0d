"""The display faces the shipped layouts name: each file is in layouts/fonts/, matched by the
package data of pyproject.toml, a TrueType font both backends read, with its licence beside it;
and a built wheel holds the fonts and their licences (marker `install`)."""

from __future__ import annotations

import fnmatch
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

from casebook.generator.backends.fonts import (
    FONT_FILES,
    GameFonts,
    RefusedFont,
    font_path,
    is_game_font,
    read_font,
)
from casebook.generator.layouts import LAYOUTS_DIR

ROOT = Path(__file__).resolve().parent.parent
FONTS = LAYOUTS_DIR / "fonts"
PACKAGE_DATA = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]


def _font_specs(node: object) -> list[object]:
    """Every value of a `font:` key in a layout's YAML, at any depth."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "font"] + [s for v in node.values() for s in _font_specs(v)]
    if isinstance(node, list):
        return [s for v in node for s in _font_specs(v)]
    return []


def named_fonts() -> dict[str, set[str]]:
    """The game fonts the shipped layouts name: the font file -> the layouts naming it."""
    fonts = GameFonts(ROOT / "no-game-folder", FONTS)  # what a shipped game's layouts resolve against
    out: dict[str, set[str]] = {}
    for path in sorted(LAYOUTS_DIR.rglob("*.yaml")):
        for spec in _font_specs(yaml.safe_load(path.read_text(encoding="utf-8"))):
            if isinstance(spec, str) and ("{{" in spec or spec in FONT_FILES):
                continue  # a Vera style, or a template chosen per card
            key = fonts.resolve(spec)
            if is_game_font(key):
                out.setdefault(str(font_path(key).resolve()), set()).add(path.relative_to(LAYOUTS_DIR).as_posix())
    return out


def licence_of(font: Path) -> Path:
    """A font's licence: OFL-<family>.txt beside it, the family being the file name up to its first hyphen."""
    return font.with_name(f"OFL-{font.stem.split('-')[0]}.txt")


def in_package_data(rel: str) -> bool:
    return any(fnmatch.fnmatchcase(rel, pattern) for pattern in PACKAGE_DATA["casebook.layouts"])


def test_the_three_games_name_their_display_faces():
    named = {Path(p).name: layouts for p, layouts in named_fonts().items()}
    for font, game in (("CenturyCatalogue-Regular.ttf", "graves/"), ("BebasNeue-Bold.ttf", "pi/"),
                       ("YanoneKaffeesatz-Bold.ttf", "syndicate/")):
        assert font in named, f"no layout names {font}"
        assert all(layout.startswith(game) for layout in named[font]), named[font]


def test_every_font_a_layout_names_is_shipped_readable_and_licensed():
    named = named_fonts()
    assert named, "no layout names a game font"
    for file, layouts in named.items():
        path = Path(file)
        assert path.parent == FONTS.resolve(), f"{path} (named by {sorted(layouts)}) is not in layouts/fonts/"
        assert in_package_data(f"fonts/{path.name}"), f"pyproject.toml's package data leaves out {path.name}"
        assert not isinstance(read_font(path), RefusedFont), read_font(path)
        assert path.stat().st_size < 400_000, f"{path.name}: subset it (docs/fonts.md)"  # Old Standard ships unmodified (380 KB); PDFs embed subsets
        licence = licence_of(path)
        assert licence.is_file(), f"{path.name} has no licence beside it ({licence.name})"
        assert in_package_data(f"fonts/{licence.name}"), f"pyproject.toml's package data leaves out {licence.name}"
        assert "Open Font License" in licence.read_text(encoding="utf-8"), licence


def test_docs_name_each_face_its_file_and_its_licence():
    doc = (ROOT / "docs" / "fonts.md").read_text(encoding="utf-8")
    for font in ("CenturyCatalogue-Regular.ttf", "BebasNeue-Bold.ttf", "YanoneKaffeesatz-Bold.ttf"):
        assert font in doc and licence_of(FONTS / font).name in doc, f"docs/fonts.md does not describe {font}"


@pytest.mark.install
def test_the_wheel_holds_the_fonts_and_their_licences(tmp_path):
    from tests.test_packaging import uv

    uv("build", "--quiet", "--wheel", "--out-dir", str(tmp_path), str(ROOT))
    names = set(zipfile.ZipFile(next(tmp_path.glob("casebook-*.whl"))).namelist())
    for file in named_fonts():
        path = Path(file)
        for shipped in (path, licence_of(path)):
            assert f"casebook/layouts/fonts/{shipped.name}" in names, f"the wheel lacks {shipped.name}"
