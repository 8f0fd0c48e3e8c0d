"""Incremental builds: the scene cache beside the output composes only what changed, gives the
same bytes as a cold build, is safe to delete or spoil, and --png redraws only changed images.
Identical backs are composed once, drawn once (one PDF form XObject) and rendered once.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

from casebook.cli import main
from casebook.generator.cache import FILE_NAME, SceneStore
from casebook.generator.scene import Rect, Scene

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def build(cards: Path, layouts: Path, out: Path, *extra: str) -> tuple[int, int]:
    """Build the test game through the command; (scenes composed, scenes kept from the last build)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["build", "moth", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                     "--paper", "a4", *extra]) == 0, err.getvalue()
    found = re.search(r"\((\d+) scenes composed, (\d+) unchanged since the last build\)", err.getvalue())
    assert found, err.getvalue()
    return int(found.group(1)), int(found.group(2))


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny" / "cards", tmp_path / "tiny" / "layouts"


@pytest.fixture
def built(game, tmp_path) -> tuple[Path, Path, Path]:
    """The test game built once (its cache written): cards, layouts, output folder."""
    cards, layouts = game
    build(cards, layouts, tmp_path / "out")
    return cards, layouts, tmp_path / "out"


def rename(cards: Path, old: str, new: str) -> None:
    deck = cards / "moth" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    assert text.count(old) == 1
    deck.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edited_card_is_the_only_scene_composed_and_the_pdf_is_a_cold_builds(game, tmp_path):
    cards, layouts = game
    out = tmp_path / "out"
    assert build(cards, layouts, out) == (7, 0)  # six faces and the one back they share
    pdf = out / "moth" / "moth-a4.pdf"
    first = pdf.read_bytes()
    assert build(cards, layouts, out) == (0, 7)
    assert pdf.read_bytes() == first

    rename(cards, "Luna Moth", "Lunar Moth")
    assert build(cards, layouts, out) == (1, 6)
    cold = tmp_path / "cold"
    assert build(cards, layouts, cold) == (7, 0)
    assert pdf.read_bytes() == (cold / "moth" / "moth-a4.pdf").read_bytes() != first


def test_a_layout_edit_recomposes_the_cards_that_use_it(built):
    cards, layouts, out = built
    back = layouts / "moth" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8").replace('"#2B2340"', '"#2B2341"'), encoding="utf-8")
    assert build(cards, layouts, out) == (1, 6)  # only the back changed
    frame = layouts / "moth" / "frame.yaml"  # both extend it
    frame.write_text(frame.read_text(encoding="utf-8").replace("width: 0.6", "width: 0.7"), encoding="utf-8")
    assert build(cards, layouts, out) == (7, 0)


def test_the_cache_is_safe_to_delete_or_spoil(built):
    cards, layouts, out = built
    first = (out / "moth" / "moth-a4.pdf").read_bytes()
    cache = out / "moth" / ".cache"
    assert (cache / FILE_NAME).is_file()
    (cache / FILE_NAME).write_bytes(b"not a cache at all" * 10)
    assert build(cards, layouts, out) == (7, 0)
    assert (out / "moth" / "moth-a4.pdf").read_bytes() == first
    shutil.rmtree(cache)
    assert build(cards, layouts, out) == (7, 0)
    assert (out / "moth" / "moth-a4.pdf").read_bytes() == first
    assert sorted(p.name for p in cache.iterdir()) == [FILE_NAME]  # no temporary file left


def test_a_failed_build_keeps_the_last_good_cache(built):
    cards, layouts, out = built
    rename(cards, "name: Luna Moth", "name: [Luna Moth")  # a YAML syntax error
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", "moth", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out)]) == 1
    rename(cards, "name: [Luna Moth", "name: Luna Moth")
    assert build(cards, layouts, out) == (0, 7)


def test_identical_backs_are_one_form_xobject(built):
    cards, layouts, out = built
    data = (out / "moth" / "moth-a4.pdf").read_bytes()
    pictures = set(re.findall(rb"/FormXob\.(Pic[0-9a-f]{12})", data))  # each big outline's form (issue 22)
    assert set(re.findall(rb"/FormXob\.(Scene\d+)", data)) == {b"Scene1"}
    assert len(re.findall(rb"/Subtype /Form", data)) == 1 + len(pictures)
    from tests.generator.test_new_game import page_texts

    texts = page_texts(out / "moth" / "moth-a4.pdf")
    assert texts[1].count("Moth and Lamp") >= 6  # the back page shows the form six times


def test_png_rebuild_redraws_only_the_changed_image(game, tmp_path):
    cards, layouts = game
    out = tmp_path / "out"
    build(cards, layouts, out, "--png", "--dpi", "40")
    folder = out / "moth" / "png" / "deck"
    before = {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.glob("*.png")}
    assert len(before) == 12
    backs = {before[n][1] for n in before if n.endswith("-back.png")}
    assert len(backs) == 1  # one back, rendered once, under six names

    rename(cards, "Luna Moth", "Lunar Moth")
    build(cards, layouts, out, "--png", "--dpi", "40")
    after = {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.glob("*.png")}
    assert after.keys() == before.keys()
    changed = sorted(n for n in after if after[n][1] != before[n][1])
    assert changed == ["002-luna_moth-face.png"]
    kept = [n for n in after if n not in changed]
    assert all(after[n][0] == before[n][0] for n in kept), "unchanged images are the same files, not redrawn"

    build(cards, layouts, out, "--png", "--dpi", "30")  # another resolution: everything is drawn anew
    assert all((folder / n).read_bytes() != after[n][1] for n in after)


def test_png_of_a_removed_card_is_removed(game, tmp_path):
    cards, layouts = game
    out = tmp_path / "out"
    build(cards, layouts, out, "--png", "--dpi", "30")
    deck = cards / "moth" / "deck.yaml"
    deck.write_text("\n".join(line for line in deck.read_text(encoding="utf-8").splitlines()
                              if "gas_mantle" not in line) + "\n", encoding="utf-8")
    game_yaml = cards / "moth" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("count: 6", "count: 5"), encoding="utf-8")
    rules = cards / "moth" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(", gas_mantle", ""), encoding="utf-8")
    build(cards, layouts, out, "--png", "--dpi", "30")
    names = sorted(p.name for p in (out / "moth" / "png" / "deck").glob("*.png"))
    assert len(names) == 10 and not any("gas_mantle" in n for n in names)


def test_the_store_keeps_only_what_a_build_asked_for(tmp_path):
    one, two = Scene(10, 10, items=[Rect(0, 0, 1, 1, "#000000")]), Scene(20, 20)
    store = SceneStore(tmp_path / "cache")
    store.put("one", one)
    store.put("two", two)
    assert store.get("one") == one and store.get("two") == two
    store.commit()
    again = SceneStore(tmp_path / "cache", keep=0)  # nothing held in memory: read back from the file
    assert "one" in again and "three" not in again
    assert again.get("one") == one and again.reused == 1
    again.commit()
    last = SceneStore(tmp_path / "cache")
    assert "one" in last and "two" not in last  # 'two' was not asked for by the build before
    last.close()


def test_a_rebuild_takes_unchanged_pages_compressed_and_gives_a_cold_builds_bytes(game, tmp_path, monkeypatch):
    cards, layouts = game
    out = tmp_path / "out"
    build(cards, layouts, out)
    found: list[bool] = []  # for each page: was its compressed stream in the cache?
    blob = SceneStore.blob

    def seen(self: SceneStore, key: str) -> bytes | None:
        data = blob(self, key)
        if key.startswith("zpage:"):  # a page's stream (a card's recorded drawing is kept as bytes too)
            found.append(data is not None)
        return data

    monkeypatch.setattr(SceneStore, "blob", seen)
    build(cards, layouts, out)  # nothing changed: every page comes from the cache
    assert found and all(found)
    found.clear()
    rename(cards, "Luna Moth", "Lunar Moth")
    build(cards, layouts, out)
    # compressed again: the edited card's sheet and the aid that lists it (the calibration pages are taken whole)
    assert found == [False, True, False]
    cold = tmp_path / "cold"
    build(cards, layouts, cold)
    assert (out / "moth" / "moth-a4.pdf").read_bytes() == (cold / "moth" / "moth-a4.pdf").read_bytes()
