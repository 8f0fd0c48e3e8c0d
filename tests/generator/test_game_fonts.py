"""A game's own fonts: the TTFs in its folder, named in layouts by the family and style of their name
tables; markup switching within the family; missing glyphs, missing styles and unusable files reported
with their place, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import ImageFont

from casebook.generator.backends import fonts, png
from casebook.generator.backends.fonts import (
    PDF_NAMES,
    FontError,
    GameFonts,
    RefusedFont,
    metrics,
    missing_glyphs,
    read_font,
)
from casebook.generator.text import TextStyle, fit_text, styles_asked

ROOT = Path(__file__).resolve().parents[2]
FONTGAME = ROOT / "tests" / "data" / "fontgame"
GAME_FONTS = FONTGAME / "cards" / "quill" / "fonts"
BOOK, BOLD = GAME_FONTS / "DejaVuSerif-Book-Latin1.ttf", GAME_FONTS / "DejaVuSerif-Bold-Latin1.ttf"
URW_OTF = Path("/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")  # a CFF OpenType, where installed


def casebook(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "casebook", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the font test game to break."""
    shutil.copytree(FONTGAME, tmp_path / "fontgame")
    return tmp_path / "fontgame"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def check(game: Path, command: str = "validate") -> subprocess.CompletedProcess[str]:
    extra = ["--out", str(game / "out")] if command == "build" else []
    return casebook(command, "quill", "--cards", str(game / "cards"), "--layouts", str(game / "layouts"), *extra)


# --- finding a font by family and style -------------------------------------------------------------


def test_family_and_style_come_from_the_name_table_not_the_file_name(tmp_path: Path) -> None:
    shutil.copy(BOOK, tmp_path / "zz-body.ttf")
    shutil.copy(BOLD, tmp_path / "title.TTF")
    found = GameFonts(tmp_path)
    regular = found.resolve("DejaVu Serif")
    assert fonts.font_path(regular) == (tmp_path / "zz-body.ttf").resolve()
    assert fonts.font_path(found.resolve({"family": "DejaVu Serif", "style": "Bold"})) == (tmp_path / "title.TTF").resolve()
    # the same font by every spelling a designer might write: its own style name (Book), "regular", any case
    for spec in ("DejaVu Serif Book", "dejavu serif regular", {"family": "DejaVu Serif"},
                 {"family": "dejavu serif", "style": "regular"}):
        assert found.resolve(spec) == regular, spec
    for spec in ("DejaVu Serif Bold", "DEJAVU SERIF bold", {"family": "DejaVu Serif", "style": "bold"}):
        assert found.resolve(spec) == found.resolve({"family": "DejaVu Serif", "style": "Bold"}), spec
    assert found.describe(regular) == "DejaVu Serif Book"


def test_the_four_vera_styles_stay_what_they_were(tmp_path: Path) -> None:
    shutil.copy(BOOK, tmp_path / "a.ttf")
    found = GameFonts(tmp_path)
    for style in ("regular", "bold", "italic", "bolditalic"):
        assert found.resolve(style) == style
        assert PDF_NAMES[style] == f"Casebook-{style}"  # the names the five games' PDFs were built with
        assert found.variants(style) == ()
    assert GameFonts(tmp_path / "none").resolve("bold") == "bold"  # a folder without fonts is never read for Vera


def test_an_unknown_family_lists_the_families_and_an_unknown_style_the_familys_styles(tmp_path: Path) -> None:
    shutil.copy(BOOK, tmp_path / "a.ttf")
    shutil.copy(BOLD, tmp_path / "b.ttf")
    found = GameFonts(tmp_path)
    with pytest.raises(FontError) as exc:
        found.resolve("Lobster Two Bold")
    assert "unknown font 'Lobster Two Bold'" in str(exc.value)
    assert "DejaVu Serif (Book, Bold)" in str(exc.value)
    assert "regular, bold, italic, bolditalic" in (exc.value.expected or "")
    with pytest.raises(FontError) as exc:
        found.resolve({"family": "DejaVu Serif", "style": "Light"})
    assert "has no style 'Light'" in str(exc.value) and exc.value.expected == "one of its styles: Book, Bold"
    with pytest.raises(FontError) as exc:  # family and style in one string: the family is found, the style not
        found.resolve("DejaVu Serif Condensed Light")
    assert "the font family 'DejaVu Serif' in" in str(exc.value) and "no style 'Condensed Light'" in str(exc.value)
    shutil.copy(BOLD, tmp_path / "b-again.ttf")  # a second copy of a style: listed once
    with pytest.raises(FontError) as exc:
        GameFonts(tmp_path).resolve("Lobster Two")
    assert "DejaVu Serif (Book, Bold)" in str(exc.value)
    with pytest.raises(FontError, match="takes 'family' and 'style'"):
        found.resolve({"famly": "DejaVu Serif"})
    with pytest.raises(FontError, match=r"no \.ttf font in"):
        GameFonts(tmp_path / "empty").resolve("DejaVu Serif")


def test_game_fonts_register_under_names_of_their_own(tmp_path: Path) -> None:
    shutil.copy(BOOK, tmp_path / "a.ttf")
    key = GameFonts(tmp_path).resolve("DejaVu Serif")
    name = PDF_NAMES[key]
    assert name.startswith("Casebook-") and name not in {f"Casebook-{s}" for s in fonts.FONT_FILES}
    # another game's different file of the same family and style gets another name; the same bytes, the same
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(BOLD, other / "a.ttf")
    assert PDF_NAMES[GameFonts(other).resolve("DejaVu Serif Bold")] != name
    same = tmp_path / "same"
    same.mkdir()
    shutil.copy(BOOK, same / "copy.ttf")
    assert PDF_NAMES[GameFonts(same).resolve("DejaVu Serif")] == name


# --- measuring and markup ------------------------------------------------------------------------


def test_the_layout_measures_with_the_file_the_png_backend_draws() -> None:
    found = GameFonts(GAME_FONTS)
    for path, spec in ((BOOK, "DejaVu Serif"), (BOLD, "DejaVu Serif Bold")):
        key = found.resolve(spec)
        assert fonts.font_path(key) == path.resolve()
        text = "Façade — “Sealed” letters: AV To Wa fi"
        # as the PNG backend sets it: advance widths, no kerning (the PDF has none); within a rounding
        pillow = ImageFont.truetype(str(path), 1000).getlength(text, features=png.TEXT_FEATURES)
        assert metrics().width(text, key, 1000) == pytest.approx(pillow, abs=1.0)
        assert metrics().width(text, key, 10) != pytest.approx(metrics().width(text, "regular", 10), rel=0.01)


def test_markup_switches_to_the_familys_own_bold() -> None:
    found = GameFonts(GAME_FONTS)
    book, bold = found.resolve("DejaVu Serif"), found.resolve("DejaVu Serif Bold")
    assert found.variants(book) == (book, bold, "", "")  # the family has no italic
    assert found.variants(bold) == (bold, bold, "", "")
    st = TextStyle(font=book, size=10, variants=found.variants(book))
    fitted = fit_text("Open a letter. **Draw two**, then _keep_ one.\n## Heading", 0, 0, 50, 40, st, metrics())
    by_text = {run.text.strip(): run.font for run in fitted.runs}
    assert by_text["Draw two"] == bold and by_text["Heading"] == bold
    assert by_text["Open a letter."] == book
    # no italic file: the base kept (and the composer reports it), never another family's italic
    assert [font for text, font in by_text.items() if "keep" in text] == [book]
    assert set(by_text.values()) == {book, bold}
    assert styles_asked("a **b** _c_\n## d _e_") == {1, 2, 3}
    assert styles_asked("plain text, blanks ____ to write on") == set()


def test_missing_glyphs_are_found_for_game_fonts_and_for_vera() -> None:
    key = GameFonts(GAME_FONTS).resolve("DejaVu Serif")
    assert missing_glyphs(key, "Łódź é ł") == ("Ł", "ź", "ł")
    assert missing_glyphs(key, "Façade — “ok” …") == ()
    assert missing_glyphs("regular", "ok ł → ő") == ("→", "ő")  # Vera: Latin-1 and a little more


# --- files that cannot be used -----------------------------------------------------------------------


def test_a_cff_opentype_is_refused_with_what_to_do(tmp_path: Path) -> None:
    shutil.copy(BOOK, tmp_path / "TrueTypeOutlines.otf")  # an .otf with TrueType outlines is used like a .ttf
    assert fonts.font_path(GameFonts(tmp_path).resolve("DejaVu Serif")).name == "TrueTypeOutlines.otf"
    (tmp_path / "Fake.otf").write_bytes(b"OTTO" + bytes(200))
    got = read_font(tmp_path / "Fake.otf")
    assert isinstance(got, RefusedFont) and "PostScript (CFF) outlines" in got.reason
    assert got.advice is not None and "TrueType" in got.advice
    if URW_OTF.is_file():  # a real one: named by its family, the message says which file and why
        shutil.copy(URW_OTF, tmp_path / "NimbusSans-Regular.otf")
        with pytest.raises(FontError) as exc:
            GameFonts(tmp_path).resolve("Nimbus Sans")
        assert "NimbusSans-Regular.otf, which has PostScript (CFF) outlines" in str(exc.value)
        assert "convert it to TrueType" in (exc.value.expected or "")


def test_corrupt_truncated_and_oversized_files_are_refused_with_their_path(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "noise.ttf").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "cut.ttf").write_bytes(BOOK.read_bytes()[:4000])
    for name in ("noise.ttf", "cut.ttf"):
        got = read_font(tmp_path / name)
        assert isinstance(got, RefusedFont) and "is not a TrueType font this tool can read" in got.reason, got
    monkeypatch.setattr(fonts, "MAX_FONT_BYTES", 10_000)
    shutil.copy(BOOK, tmp_path / "big.ttf")
    got = read_font(tmp_path / "big.ttf")
    assert isinstance(got, RefusedFont) and "over the" in got.reason
    with pytest.raises(FontError) as exc:
        GameFonts(tmp_path).resolve("DejaVu Serif")
    for name in ("noise.ttf", "cut.ttf", "big.ttf"):
        assert f"refused: {name} (" in str(exc.value)


def test_a_checked_font_is_kept_and_read_again_when_its_file_changes(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each build checks every display face with both backends' readers: kept in the user's cache, by the
    file's path, size and time of change; a refused file is checked (and said) on every run."""
    (tmp_path / "game").mkdir()
    shutil.copy(BOOK, tmp_path / "game" / "body.ttf")
    (tmp_path / "game" / "cut.ttf").write_bytes(BOOK.read_bytes()[:4000])
    read: list[str] = []
    original = fonts.read_font

    def counting(path: Path) -> object:
        read.append(path.name)
        return original(path)

    monkeypatch.setattr(fonts, "read_font", counting)
    monkeypatch.setattr(fonts, "_font_cache", lambda: tmp_path / "cache")
    first = GameFonts(tmp_path / "game")
    assert [f.name for f in first.fonts] == ["DejaVu Serif Book"] and len(first.refused) == 1
    again = GameFonts(tmp_path / "game")  # a new run
    assert again.fonts == first.fonts and again.refused == first.refused
    assert again.resolve("DejaVu Serif") == first.resolve("DejaVu Serif")
    assert read == ["body.ttf", "cut.ttf", "cut.ttf"]
    shutil.copy(BOLD, tmp_path / "game" / "body.ttf")  # edited: another size and time
    assert [f.name for f in GameFonts(tmp_path / "game").fonts] == ["DejaVu Serif Bold"]
    assert read[3:] == ["body.ttf", "cut.ttf"]
    monkeypatch.setattr(fonts, "_font_cache", lambda: None)  # CASEBOOK_CACHE_DIR empty: nothing kept
    assert [f.name for f in GameFonts(tmp_path / "game").fonts] == ["DejaVu Serif Bold"]
    assert read[5:] == ["body.ttf", "cut.ttf"]


# --- through the command: validate and build ---------------------------------------------------------


def test_the_font_game_validates_and_builds() -> None:
    result = casebook("validate", "quill", "--cards", str(FONTGAME / "cards"), "--layouts", str(FONTGAME / "layouts"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "quill: ok (4 cards" in result.stdout


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_missing_glyph_is_reported_at_the_card_and_field(game: Path, command: str) -> None:
    deck = game / "cards" / "quill" / "deck.yaml"
    edit(deck, "name: Façade", "name: Łódź")
    result = check(game, command)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "Traceback" not in out
    line = next(i for i, text in enumerate(deck.read_text(encoding="utf-8").splitlines(), 1) if "Łódź" in text)
    assert (f"deck.yaml:{line}:24: error: card 'facade' field 'name' (text 'name'): the font 'DejaVu Serif Bold' "
            "has no glyph for 'Ł' (U+0141), 'ź' (U+017A)") in out
    assert not (game / "out" / "quill" / "quill-a4.pdf").exists()  # nothing half-made


def test_markup_asking_for_a_style_the_family_lacks_is_reported(game: Path) -> None:
    edit(game / "cards" / "quill" / "deck.yaml", "**Draw two**", "_Draw two_")
    result = check(game)
    assert result.returncode == 1
    assert ("face.yaml:32:11: error: card 'salutation': text 'body' is set in 'DejaVu Serif Book' and its markup "
            "asks for italic") in result.stdout
    assert "the font family 'DejaVu Serif'" in result.stdout and "has no italic style" in result.stdout


def test_an_unknown_font_is_a_layout_error_once(game: Path) -> None:
    edit(game / "layouts" / "quill" / "face.yaml", "font: DejaVu Serif\n", "font: DejaVu Sans\n")
    result = check(game)
    assert result.returncode == 1
    problems = [line for line in result.stdout.splitlines() if "unknown font 'DejaVu Sans'" in line]
    assert len(problems) == 1, result.stdout  # four cards, one layout line: one report
    face = (game / "layouts" / "quill" / "face.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(face, 1) if "font: DejaVu Sans" in text)
    assert f"face.yaml:{line}:11: error: " in problems[0]
    assert "DejaVu Serif (Book, Bold)" in problems[0]


def test_top_cap_puts_a_game_fonts_capitals_at_the_box_top() -> None:
    """`top: cap` and `ascent` measure the element's own font (Noto Mono: taller than Vera), not Vera's."""
    key = GameFonts(GAME_FONTS).resolve("Noto Mono")
    em = 2048
    cap = -ImageFont.truetype(str(GAME_FONTS / "NotoMono-Regular-Latin1.ttf"), em).getbbox("H", anchor="ls")[1] / em
    assert metrics().cap_height(key, 1.0) == pytest.approx(cap)
    assert abs(metrics().ascent(key, 1.0) - metrics().ascent("regular", 1.0)) > 0.1
    for top, drop in (("cap", cap), ("ascent", metrics().ascent(key, 1.0)), ("", metrics().ascent(key, 1.0) * 0.93)):
        st = TextStyle(font=key, size=20, top=top, fit="none")
        run = fit_text("Hello", 10, 10, 60, 20, st, metrics()).runs[0]
        assert run.y - 10 == pytest.approx(drop * 20 / 72 * 25.4), top
