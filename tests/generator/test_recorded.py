"""A card's recorded drawing (generator/backends/recorded.py, issue 21): a card whose text is not all ASCII (a
"·" in its label, a "−") is recorded too, its other lines replayed as bytes and those lines drawn anew, so a
later document (another paper, the next build) replays it and writes what drawing it would have written."""

from __future__ import annotations

from pathlib import Path

import pytest

import casebook.generator.backends.pdf as pdf
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.backends.recorded import (
    backend_fingerprint,
    draw_recorded,
    draw_reused_recorded,
)
from casebook.generator.cache import SceneStore
from casebook.generator.scene import Clip, Rect, Scene, TextRun, Unclip

CARD = Scene(69, 94, items=[
    Rect(0, 0, 69, 94, fill="#F3EEDF"),
    TextRun(5, 10, "Suspect · 3", "bold", 9, "#222222"),  # not ASCII: its bytes depend on the document
    Clip(2, 2, 65, 90),
    TextRun(5, 20, "Plain words", "regular", 8, "#333333"),
    Rect(4, 30, 20, 10, fill="#7A1F1F", stroke="#000000", width=0.3),
    TextRun(5, 50, "Clue − naïve", "regular", 8, "#333333"),
    Unclip(),
    TextRun(5, 60, "The end", "bold", 7, "#111111", angle=90),
])
# drawn first in the later document: it gives "é" and "→" codes before the card's characters are met
OTHER = Scene(69, 94, items=[TextRun(5, 10, "Café → ·", "regular", 9, "#000000"), Rect(1, 1, 5, 5, fill="#123456")])


def build(path: Path, store: SceneStore, first: Scene | None = None) -> bytes:
    doc = PdfDocument(path, duplex=False, store=store)
    doc.begin_page(210, 297)
    if first is not None:
        doc.draw(first, 100, 100)
    draw_recorded(doc, store, "card", 10, 20, clip=(7, 17, 75, 100))
    draw_recorded(doc, store, "card", 90, 20)  # twice in one document: the second is a replay here too
    doc.end_page()
    doc.save()
    store.commit()
    return path.read_bytes()


def test_a_card_with_text_beyond_ascii_is_recorded_and_replayed_as_drawing_it_writes(tmp_path, monkeypatch):
    store = SceneStore(tmp_path / "cache")
    store.put("card", CARD)
    build(tmp_path / "first.pdf", store)
    assert store.has_blob(f"card:pdf:{backend_fingerprint()}")  # recorded, though some of its text is not ASCII

    later = SceneStore(tmp_path / "cache")  # the next build: the recording is read back from the file
    assert "card" in later
    monkeypatch.setattr(later, "get", lambda key, hold=True: pytest.fail(f"{key} drawn, not replayed"))
    pdf._SHAPE_OPS.clear()  # worked out afresh, as in another process
    replayed = build(tmp_path / "replayed.pdf", later, OTHER)

    fresh = SceneStore(tmp_path / "fresh")  # the same document drawn from the scene, nothing recorded before
    fresh.put("card", CARD)
    pdf._SHAPE_OPS.clear()
    drawn = build(tmp_path / "drawn.pdf", fresh, OTHER)
    assert replayed == drawn
    assert drawn != (tmp_path / "first.pdf").read_bytes()  # the characters' codes did differ from the first's


def test_a_card_whose_plain_text_holds_a_font_name_is_drawn_each_time(tmp_path):
    store = SceneStore(tmp_path / "cache")
    doc = PdfDocument(tmp_path / "probe.pdf", duplex=False, store=store)
    doc.begin_page(210, 297)
    probe = Scene(69, 94, items=[TextRun(5, 10, "x", "regular", 9, "#000000")])
    store.put("probe", probe)
    draw_recorded(doc, store, "probe", 0, 0)
    name = next(iter(doc.__dict__["_subset_names"].values()))  # the regular font's name in a document
    card = Scene(69, 94, items=[TextRun(5, 10, f"see {name} here", "regular", 9, "#000000")])
    store.put("named", card)
    draw_recorded(doc, store, "named", 0, 0)
    assert not store.has_blob(f"named:pdf:{backend_fingerprint()}")
    assert store.has_blob(f"probe:pdf:{backend_fingerprint()}")


def test_a_back_form_is_replayed_in_the_next_document_and_writes_what_drawing_it_writes(tmp_path, monkeypatch):
    store = SceneStore(tmp_path / "cache")
    store.put("back", CARD)

    def backs(path: Path) -> bytes:
        doc = PdfDocument(path, duplex=False, store=store)
        doc.begin_page(210, 297)
        for x in (10, 90):  # one form, placed twice
            draw_reused_recorded(doc, store, "back", x, 20, clip=(x - 3, 17, 75, 100))
        doc.end_page()
        doc.save()
        return path.read_bytes()

    drawn = backs(tmp_path / "a4.pdf")
    assert store.has_blob(f"back:pdf:{backend_fingerprint()}")
    monkeypatch.setattr(PdfDocument, "draw", lambda *a, **k: pytest.fail("the back drawn again, not replayed"))
    assert backs(tmp_path / "letter.pdf") == drawn
