"""docs/make-your-own.md, followed literally: its commands (`casebook` as `python -m casebook`,
in a temporary home), its files as given, the font it asks the reader to bring, its watch
left running while the files are edited and stopped with Ctrl-C; the PDF holds the cards.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from tests.cli.page_steps import PAGE, ROOT, Reader, read_steps
from tests.generator.test_new_game import page_texts

FONT = ROOT / "tests" / "data" / "fontgame" / "cards" / "quill" / "fonts" / "DejaVuSerif-Bold-Latin1.ttf"
STEPS = read_steps(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_every_kind_of_step() -> None:
    kinds = [s.kind for s in STEPS]
    assert kinds.count("setup") == 1 and kinds.index("setup") < kinds.index("sh")
    assert {"sh", "file", "append", "bring", "picture"} <= set(kinds)
    assert any("--watch" in s.text for s in STEPS if s.kind == "sh")
    files = [(s.kind, s.path) for s in STEPS if s.kind in ("file", "append")]
    assert files == [("file", "garden/cards.csv"), ("file", "garden/face.yaml"), ("append", "garden/face.yaml"),
                     ("file", "garden/art/sun.svg"), ("append", "garden/face.yaml")], files  # each block the page shows


def test_the_setup_is_the_readmes() -> None:
    """The install step is not run here (it makes the venv these tests run in); it must be the README's own."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = next(s for s in STEPS if s.kind == "setup")
    commands = [c.strip() for c in setup.text.splitlines() if c.strip()]
    assert commands[0] == "python3 dev.py build" and commands[0] in readme
    assert commands[1] == "source .venv/bin/activate"
    assert "VENV = ROOT / \".venv\"" in (ROOT / "dev.py").read_text(encoding="utf-8")  # where dev.py makes it


def test_the_pictures_are_there_and_small() -> None:
    for step in (s for s in STEPS if s.kind == "picture"):
        picture = ROOT / "docs" / step.path
        assert picture.is_file(), f"{step.path}: python tools/make_your_own_pictures.py makes it"
        assert picture.stat().st_size < 60_000, step.path


def test_following_the_page_gives_a_pdf_of_the_cards(tmp_path: Path) -> None:
    reader = Reader(tmp_path, {"garden/fonts/": [FONT]})
    reader.follow(STEPS)
    assert reader.brought == {"garden/fonts/"}
    game = tmp_path / "my-games" / "garden"
    assert (game / "game.yaml").is_file() and (game / "fonts" / FONT.name).is_file()
    pdf = tmp_path / "my-games" / "output" / "garden" / "garden-a4.pdf"
    assert pdf.is_file()
    faces, backs, *_ = page_texts(pdf)
    rows = list(csv.DictReader(io.StringIO(next(s.text for s in STEPS if s.path == "garden/cards.csv"))))
    assert len(rows) == 6
    for row in rows:
        copies = int(row["Copies"] or 1)
        assert faces.count(row["Name"]) >= copies, row["Name"]
        for line in row["Text"].splitlines():  # each line of a multi-line cell, its icons drawn, not written
            words = re.sub(r"\s*\{symbol:\w+\}\s*", " ", line).split()
            assert " ".join(words) in faces, line
    assert "{symbol:" not in faces
    assert "Garden" in backs
