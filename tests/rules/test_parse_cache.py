"""Card and rules files read through the user's cache (rules/yamlsource.py ParseCache), and what a build skips with it.

A file is parsed once; a later run finds the tree kept under the file's bytes, so an edit (even
one that keeps the size, within the same clock tick) is parsed again, a corrupt entry is
ignored, an empty CASEBOOK_CACHE_DIR keeps nothing, and a run whose files are all kept never
imports PyYAML.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from casebook.rules import cards as cards_module
from casebook.rules import yamlsource
from casebook.rules.cards import read_database, shipped_folder
from casebook.rules.problems import Problems
from casebook.rules.yamlsource import ParseCache

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files actually parsed (not found in the cache), with the cache in tmp_path/cache."""
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    parsed: list[Path] = []
    original = yamlsource.load_yaml

    def counting(path: Path, problems: Problems, packed: str | None = None) -> object:
        parsed.append(path)
        return original(path, problems, packed=packed)

    monkeypatch.setattr(yamlsource, "load_yaml", counting)
    return parsed


def cards_file(tmp_path: Path, name: str = "Moth") -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(f"cards:\n  - {{id: a, name: {name}, value: 1}}\n  - {{id: b, name: Lamp, value: 2}}\n")
    return path


def test_a_kept_card_file_is_not_parsed_again_and_keeps_its_places(tmp_path: Path, counted: list[Path]) -> None:
    path = cards_file(tmp_path)
    first = ParseCache().load(path, Problems(), packed="cards")
    again = ParseCache().load(path, Problems(), packed="cards")  # a new run
    assert counted == [path]
    assert again == first
    assert [c.value_place("name") for c in again["cards"]] == [c.value_place("name") for c in first["cards"]]
    assert again["cards"][1].value_place("name").line == 3


def test_an_edit_of_the_same_size_is_parsed_again(tmp_path: Path, counted: list[Path]) -> None:
    path = cards_file(tmp_path, "Moth")
    ParseCache().load(path, Problems(), packed="cards")
    stat = path.stat()
    cards_file(tmp_path, "Mote")  # same size; its time set back: only the bytes tell
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    parse_cache = ParseCache()
    edited = parse_cache.load(path, Problems(), packed="cards")  # parsed whole, or only its edited card (spliced)
    assert len(counted) + parse_cache.spliced == 2 and edited["cards"][0]["name"] == "Mote"


def test_a_corrupt_cache_entry_is_ignored(tmp_path: Path, counted: list[Path]) -> None:
    path = cards_file(tmp_path)
    first = ParseCache().load(path, Problems(), packed="cards")
    entries = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert len(entries) == 1
    for junk in (b"", b"\x80\x05garbage", entries[0].read_bytes()[:-7]):
        entries[0].write_bytes(junk)
        problems = Problems()
        assert ParseCache().load(path, problems, packed="cards") == first and not problems
    assert len(counted) == 4


def test_a_file_with_a_problem_is_said_on_every_run(tmp_path: Path, counted: list[Path]) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("cards:\n  - {id: a, id: b}\n")
    for _ in range(2):
        problems = Problems()
        ParseCache().load(path, problems, packed="cards")
        assert len(problems) == 1 and "duplicate key" in str(problems.items[0])
    assert len(counted) == 2


def test_an_empty_cache_dir_keeps_nothing(tmp_path: Path, counted: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", "")
    path = cards_file(tmp_path)
    for _ in range(2):
        ParseCache().load(path, Problems(), packed="cards")
    assert len(counted) == 2 and not (tmp_path / "cache").exists()


def test_a_database_read_from_the_cache_is_the_one_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(TINY / "cards", cards)
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", "")
    plain = read_database("moth", cards, Problems())
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):  # the first run keeps, the second finds
        monkeypatch.setattr(cards_module, "PARSE_CACHE", ParseCache())
        kept = read_database("moth", cards, Problems())
        assert plain is not None and kept is not None
        assert any(p.is_file() for p in (tmp_path / "cache").rglob("*"))
        assert [(c.id, c.data, c.place) for c in kept.all_cards()] == [(c.id, c.data, c.place) for c in plain.all_cards()]


def test_a_build_whose_files_are_kept_never_imports_pyyaml(tmp_path: Path) -> None:
    env = {**os.environ, "CASEBOOK_CACHE_DIR": str(tmp_path / "cache")}
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from casebook.generator.layouts import load_library\n"
        "from casebook.rules.cards import read_database\n"
        "from casebook.rules.problems import Problems\n"
        f"tiny = Path({str(TINY)!r})\n"
        "problems = Problems()\n"
        "assert read_database('moth', tiny / 'cards', problems) is not None\n"
        "lib = load_library(tiny / 'layouts', problems)\n"
        "assert not problems, problems\n"
        "print('yaml' in sys.modules)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs == ["True\n", "False\n"]


def test_shipped_folders_are_where_importlib_resources_finds_them() -> None:
    from importlib.resources import files

    for package in ("casebook.cards", "casebook.layouts"):
        assert shipped_folder(package) == Path(str(files(package)))


def test_pictures_are_kept_parsed_and_a_corrupt_entry_is_ignored(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from casebook.generator.layouts import LAYOUTS_DIR, load_library

    monkeypatch.setenv("CASEBOOK_CACHE_DIR", "")
    plain = load_library(LAYOUTS_DIR, Problems()).symbols
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    assert load_library(LAYOUTS_DIR, Problems()).symbols == plain
    entries = [p for p in (tmp_path / "cache").glob("pictures-*/*") if p.is_file()]
    assert len(entries) == 2  # symbols.yaml and icons.yaml
    assert load_library(LAYOUTS_DIR, Problems()).symbols == plain
    for entry in entries:
        entry.write_bytes(b"\x80\x05not a pickle")
    problems = Problems()
    assert load_library(LAYOUTS_DIR, problems).symbols == plain and not problems


def test_the_cache_lets_go_of_its_oldest_past_its_limit(tmp_path: Path, counted: list[Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlsource, "MAX_KEPT", 4)
    paths = []
    for i in range(5):
        path = tmp_path / f"deck{i}.yaml"
        path.write_text(f"cards:\n  - {{id: a{i}, name: Moth}}\n")
        os.utime(path)
        paths.append(path)
        ParseCache().load(path, Problems(), packed="cards")
        for entry in (tmp_path / "cache").rglob("*"):  # written in turn, a second apart (not within one clock tick)
            if entry.is_file() and entry.stat().st_mtime_ns > 10**12:
                os.utime(entry, ns=((i + 1) * 10**9, (i + 1) * 10**9))
    entries = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert len(entries) == 3  # the fifth went past 4: the oldest let go, down to 80 % of 4
    ParseCache().load(paths[-1], Problems(), packed="cards")  # the newest is still kept
    assert len(counted) == 5


def test_the_cache_folder_is_listed_once_a_run_and_pruned_in_batches(tmp_path: Path, counted: list[Path],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A new entry does not list the whole folder again (seconds, on a busy machine, for 1,000 files):
    one listing a run, and past the limit a prune down to 80 %, so the next is a fifth of the limit away."""
    monkeypatch.setattr(yamlsource, "MAX_KEPT", 10)
    listings: list[str] = []
    scandir = os.scandir

    def listing(folder: str | Path) -> object:
        listings.append(str(folder))
        return scandir(folder)

    monkeypatch.setattr(os, "scandir", listing)
    cache = ParseCache()  # one run
    sizes = []
    for i in range(14):
        path = tmp_path / f"deck{i}.yaml"
        path.write_text(f"cards:\n  - {{id: a{i}, name: Moth}}\n")
        cache.load(path, Problems(), packed="cards")
        sizes.append(len(os.listdir(cache.folder())))  # (not os.scandir, counted)
    assert sizes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 8, 9, 10, 8]  # pruned to 8 on the 11th and the 14th
    assert len(listings) == 3  # the first entry's count, then one for each prune
    other = ParseCache()  # a new run counts the folder once, as other runs may have added to it
    other.load(tmp_path / "deck0.yaml", Problems(), packed="cards")  # pruned: written again
    other.load(tmp_path / "deck1.yaml", Problems(), packed="cards")
    assert len(listings) == 4 and len(counted) == 16
