"""Whole pages taken from the build before (generator/build.py write_pdf, backends/pdf.py replay_page; issue 21).

A card sheet's page is kept in the scene store under a digest of everything it draws and of the
document's state it reads (the codes its fonts give characters, the fonts' and forms' names); a
rebuild that draws the same page in the same state takes its compressed content whole, so one edited
card re-draws one page. The PDF is a cold build's, byte for byte; a page whose drawing adds to the document
(a font named, a new form) is never kept, one that adds characters to a font is kept with them (given their codes
again when it is taken), and a stored page that is not what it should be is drawn anew.
"""

from __future__ import annotations

import contextlib
import io
import marshal
import sys
from pathlib import Path

import pytest

from casebook.cli import main
from casebook.generator.backends import pdf
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.cache import SceneStore
from casebook.generator.scene import Rect, Scene, TextRun

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from deck import edit_card, make_deck  # noqa: E402


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each card page a build asks for: whether it was taken whole from the build before."""
    taken: list[bool] = []
    replay = PdfDocument.replay_page

    def counting(self: PdfDocument, key: str) -> bool:
        taken.append(replay(self, key))
        return taken[-1]

    monkeypatch.setattr(PdfDocument, "replay_page", counting)
    return taken


def build(cards: Path, layouts: Path, out: Path) -> bytes:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["build", "moth", "--cards", str(cards), "--layouts", str(layouts), "--out", str(out),
                     "--paper", "a4"]) == 0, err.getvalue()
    return (out / "moth" / "moth-a4.pdf").read_bytes()


def test_an_edited_card_redraws_its_own_page_and_the_pdf_is_a_cold_builds(tmp_path, pages, monkeypatch):
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "user-cache"))
    cards, layouts = make_deck(tmp_path / "deck", 45)  # 5 sheets of faces, 5 of backs
    out = tmp_path / "out"
    for _ in range(2):  # the second build replays each card's drawing, as every later one does: its pages kept
        build(cards, layouts, out)
    pages.clear()
    assert build(cards, layouts, out) == build(cards, layouts, tmp_path / "cold1")
    assert pages[:10].count(True) >= 7  # all but the first pages (fonts named, the back's form made there)

    edit_card(cards, 22, " Edited")  # a card of the third sheet
    pages.clear()
    edited = build(cards, layouts, out)
    assert edited == build(cards, layouts, tmp_path / "cold2")
    assert not pages[4]  # sheet 3's faces: drawn
    assert pages[:10].count(False) <= 3
    assert pages[6] and pages[8]  # the sheets after it: taken whole

    edit_card(cards, 4, " Ünïcode")  # new characters on the first sheet: every later page's codes may move
    pages.clear()
    assert build(cards, layouts, out) == build(cards, layouts, tmp_path / "cold3")


def test_the_first_edit_after_a_cold_build_takes_the_cold_builds_pages(tmp_path, pages, monkeypatch):
    """A cold build draws every card; the edit after it replays their recorded drawings. Replaying began a font's
    subsets without the font (ReportLab's getSubsetInternalName: DEL given a code the font has no glyph for), so the
    document's state, and every page's key with it, was not the cold build's: no page was taken until a second edit."""
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "user-cache"))
    cards, layouts = make_deck(tmp_path / "deck", 45)
    out = tmp_path / "out"
    build(cards, layouts, out)  # cold: nothing kept from before
    edit_card(cards, 22, " Edited")  # a card of the third sheet
    pages.clear()
    assert build(cards, layouts, out) == build(cards, layouts, tmp_path / "cold")
    assert not pages[4] and pages[:10].count(True) >= 7  # sheet 3's faces drawn; the pages but the first taken whole


def test_a_page_listing_the_decks_first_cards_is_composed_again_only_when_one_of_them_changes(tmp_path, monkeypatch):
    """The tiny game's aid lists `cards.deck[:6]`: its key holds those six cards, not the deck (compose.py key,
    by_paths), so an edit of a later card takes it from the store (no Jinja2 to render it), and an edit of one of
    the six composes it again. The PDF is a cold build's either way."""
    from casebook.generator.compose import Composer

    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "user-cache"))
    cards, layouts = make_deck(tmp_path / "deck", 45)
    out = tmp_path / "out"
    sheets: list[str] = []
    scene = Composer.scene

    def composing(self, prepared, ctx, who, *args, **kwargs):
        if who.startswith("sheet"):
            sheets.append(who)
        return scene(self, prepared, ctx, who, *args, **kwargs)

    monkeypatch.setattr(Composer, "scene", composing)
    build(cards, layouts, out)
    assert "sheet 'moth/aid'" in sheets
    edit_card(cards, 22, " Edited")  # not one of the six
    sheets.clear()
    assert build(cards, layouts, out) == build(cards, layouts, tmp_path / "cold1")
    assert sheets.count("sheet 'moth/aid'") == 1  # the cold build's alone
    edit_card(cards, 3, " Edited")  # the fourth: on the aid
    sheets.clear()
    edited = build(cards, layouts, out)
    assert edited == build(cards, layouts, tmp_path / "cold2") and sheets.count("sheet 'moth/aid'") == 2


SCENE = Scene(63, 88, items=[Rect(2, 2, 59, 84, fill="#7A5C99", stroke="#4F3A66", width=0.5),
                             TextRun(10, 40, "Moth", "bold", 14, "#F3EEDF")])


def _page(doc: PdfDocument, key: str) -> bool:
    """Draw one page through replay_page/keep_page, as write_pdf does; whether it was taken whole."""
    doc.begin_page(210, 297)
    taken = doc.replay_page(key)
    if not taken:
        mark = doc.page_mark()
        doc.draw(SCENE, 10, 10)
        doc.keep_page(key, mark)
    doc.end_page()
    return taken


def test_a_page_is_kept_only_when_its_drawing_adds_nothing_to_the_document(tmp_path):
    store = SceneStore(tmp_path / "cache")
    doc = PdfDocument(tmp_path / "a.pdf", store=store)
    assert not _page(doc, "sheetpage:first")  # names its fonts: not kept
    assert not any(key.startswith("sheetpage:first") for key in _kept(store))
    assert not _page(doc, "sheetpage:second")  # the same drawing now adds nothing: kept
    assert any(key.startswith("sheetpage:second") for key in _kept(store))
    doc.save()
    store.commit()
    first = (tmp_path / "a.pdf").read_bytes()

    store = SceneStore(tmp_path / "cache")  # the next build
    doc = PdfDocument(tmp_path / "a.pdf", store=store)
    assert not _page(doc, "sheetpage:first")
    assert _page(doc, "sheetpage:second")  # in the same state: taken whole
    doc.save()
    store.commit()
    assert (tmp_path / "a.pdf").read_bytes() == first


def _kept(store: SceneStore) -> list[str]:
    """The pages this build kept in the store, under any state digest a document gave."""
    return [key for key in ("sheetpage:first", "sheetpage:second") for digest in _DIGESTS
            if store.has_blob(f"{key}:{digest}:{pdf._ENCODING}")]


_DIGESTS: list[str] = []


@pytest.fixture(autouse=True)
def _digests(monkeypatch):
    """Every state digest a document gives, so that the test can look up what was kept under each."""
    digest = PdfDocument._state_digest

    def noting(self: PdfDocument) -> str:
        found = digest(self)
        if found not in _DIGESTS:
            _DIGESTS.append(found)
        return found

    monkeypatch.setattr(PdfDocument, "_state_digest", noting)
    yield
    _DIGESTS.clear()


@pytest.mark.parametrize("stored", [b"", b"\x00garbage", marshal.dumps((1, 2)), marshal.dumps(((b"ops",), ())),
                                    marshal.dumps(("notzpage:x", ())),
                                    marshal.dumps((f"zpage:{pdf._ENCODING}:/FlateDecode:none-kept", ())),
                                    marshal.dumps((f"zpage:{pdf._ENCODING}:/FlateDecode:none-kept", (3,)))])
def test_a_stored_page_not_what_it_should_be_is_drawn_anew(tmp_path, stored):
    reference = PdfDocument(tmp_path / "ref.pdf")
    for _ in range(2):
        _page(reference, "sheetpage:p")
    reference.save()
    earlier = SceneStore(tmp_path / "cache")  # a build before, so that the store has one to look in
    earlier.put_blob("something:kept", b"x")
    earlier.commit()
    store = SceneStore(tmp_path / "cache")
    assert store.has_previous()
    doc = PdfDocument(tmp_path / "spoiled.pdf", store=store)
    _page(doc, "sheetpage:first")
    doc.begin_page(210, 297)
    store.put_blob(f"sheetpage:p:{doc._state_digest()}:{pdf._ENCODING}", stored)
    assert not doc.replay_page("sheetpage:p")
    doc.draw(SCENE, 10, 10)
    doc.end_page()
    doc.save()
    store.close()
    assert (tmp_path / "spoiled.pdf").read_bytes() == (tmp_path / "ref.pdf").read_bytes()


NEW_CHARACTERS = Scene(63, 88, items=[TextRun(10, 40, "Moth Ünïcode ß", "bold", 14, "#F3EEDF")])


def _pages_adding_characters(doc: PdfDocument) -> list[bool]:
    """Three pages: one naming the fonts, one adding characters to the bold font, one after it; which were taken."""
    taken = [_page(doc, "sheetpage:first")]
    for key in ("calibration:new", "sheetpage:after"):
        doc.begin_page(210, 297)
        taken.append(doc.replay_page(key))
        if not taken[-1]:
            mark = doc.page_mark()
            doc.draw(NEW_CHARACTERS if key == "calibration:new" else SCENE, 10, 10)
            doc.keep_page(key, mark)
        doc.end_page()
    return taken


def test_a_page_that_adds_characters_to_a_font_is_kept_and_gives_them_their_codes_again(tmp_path, monkeypatch):
    """The calibration page's text holds characters no card has: it is kept with them, and taken whole by the next
    build, which gives them the codes drawing it gave (ReportLab's own splitString): the page after it, drawn in
    the state they leave, is taken too, and the PDF is the first build's byte for byte."""
    for _ in range(2):  # the second build is the first to find the pages kept
        store = SceneStore(tmp_path / "cache")
        doc = PdfDocument(tmp_path / "a.pdf", store=store)
        taken = _pages_adding_characters(doc)
        doc.save()
        store.commit()
        if not any(taken):
            first = (tmp_path / "a.pdf").read_bytes()
    assert taken == [False, True, True]
    assert (tmp_path / "a.pdf").read_bytes() == first

    blob = SceneStore.blob  # a kept page whose characters are not what the font can be given: drawn anew
    for grown in [(("Casebook-bold", "M"),), (("Casebook-nofont", "é"),), (("Casebook-bold", "éé"),), "é", ((1, 2),)]:
        def spoiled(self: SceneStore, key: str, grown: object = grown) -> bytes | None:
            data = blob(self, key)
            if data is None or not key.startswith("calibration:new"):
                return data
            return marshal.dumps((*marshal.loads(data)[:2], grown))

        monkeypatch.setattr(SceneStore, "blob", spoiled)
        store = SceneStore(tmp_path / "cache")
        doc = PdfDocument(tmp_path / "b.pdf", store=store)
        assert _pages_adding_characters(doc)[1] is False
        doc.save()
        store.close()
        assert (tmp_path / "b.pdf").read_bytes() == first


def test_a_rebuild_takes_the_fonts_compressed_subsets_from_the_store(tmp_path, monkeypatch):
    """What ReportLab compresses as the file is written (each font's subset) is kept by the digest of its bytes: a
    rebuild with the same characters finds every one in the store (compresses none), and writes the same bytes;
    ReportLab's filter is its own again after."""
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "user-cache"))
    cards, layouts = make_deck(tmp_path / "deck", 18)
    out = tmp_path / "out"
    found: list[bool] = []  # for each stream compressed as the file is written: found in the store?
    blob = SceneStore.blob

    def seen(self: SceneStore, key: str) -> bytes | None:
        data = blob(self, key)
        if key.startswith("zstream:"):
            found.append(data is not None)
        return data

    monkeypatch.setattr(SceneStore, "blob", seen)
    first = build(cards, layouts, out)
    assert len(found) >= 3 and not any(found)  # the three fonts' subsets at least, compressed
    found.clear()
    assert build(cards, layouts, out) == first
    assert len(found) >= 3 and all(found)
    assert build(cards, layouts, tmp_path / "cold") == first
    assert "encode" not in vars(pdf.pdfdoc.PDFZCompress)
