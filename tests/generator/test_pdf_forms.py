"""Pictures written once (issue 22): the PDF backend writes a big outline (a vendored icon's, a board's) once a
document as a form XObject and places it with a transform wherever it is drawn; a tiled board is one form that
each of its pages places; streams are Flate-compressed without ASCII85. The pages look as they did."""

from __future__ import annotations

import math
import re
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat

import casebook.generator.backends.pdf as pdf
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.backends.recorded import draw_recorded
from casebook.generator.board import tile_page, tiling
from casebook.generator.cache import SceneStore
from casebook.generator.layouts import load_library
from casebook.generator.scene import Polyline, Rect, Scene, Shape, TextRun
from casebook.generator.symbols import draw_symbol

ICON = "steam_locomotive"  # a vendored icon: one compound outline of some hundreds of points
PLACES = [(10, 10, 37, "#2F4A3A"), (50, 60, 20, "#7A1F1F"), (5, 100, 55, "#223355"), (30, 30, 12.5, "#000000")]


def icon_card(x: float, y: float, size: float, colour: str) -> Scene:
    scene = Scene(76, 166, items=[Rect(0, 0, 76, 166, fill="#F3EEDF")])
    scene.items.extend(draw_symbol(load_library().symbols[ICON], x, y, size, size, colour, "#F3EEDF"))
    return scene


def big_outlines(scene: Scene) -> int:
    return sum(1 for i in scene.items if isinstance(i, Shape | Polyline)
               and sum(len(r) for r in (i.subpaths if isinstance(i, Shape) else (i.points,))) >= pdf.PICTURE_POINTS)


def write(path: Path, scenes: list[Scene]) -> bytes:
    doc = PdfDocument(path, duplex=False)
    for scene in scenes:
        doc.begin_page(scene.width, scene.height)
        doc.draw(scene)
        doc.end_page()
    doc.save()
    return path.read_bytes()


def streams(data: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every stream of the file by its object number: (its dictionary, its content inflated)."""
    out = {}
    for m in re.finditer(rb"\n(\d+) 0 obj\s*(<<(?:(?!endobj).)*?>>)\s*stream\r?\n", data, re.S):
        head = m.group(2)
        length = int(re.search(rb"/Length (\d+)", head).group(1))
        raw = data[m.end():m.end() + length]
        out[int(m.group(1))] = (head, zlib.decompress(raw) if b"FlateDecode" in head else raw)
    return out


def forms(data: bytes) -> list[bytes]:
    return [body for head, body in streams(data).values() if b"/Subtype /Form" in head]


def pages_content(data: bytes) -> list[bytes]:
    """Each page's content stream, in page order."""
    held = streams(data)
    return [held[int(n)][1] for n in re.findall(rb"/Contents (\d+) 0 R", data)]


def render(path: Path, dpi: float = 120) -> list:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def assert_look_alike(a: Path, b: Path) -> None:
    """The same pages to the eye: anti-aliasing may differ at an edge, nothing more."""
    for n, (x, y) in enumerate(zip(render(a), render(b), strict=True)):
        diff = ImageChops.difference(x, y).convert("L")
        assert ImageStat.Stat(diff).rms[0] < 1.0, n
        assert sum(1 for v in diff.get_flattened_data() if v > 64) <= 10, n


@pytest.fixture
def without_forms(monkeypatch):
    """The backend as it was: every outline written out where it is drawn."""
    pdf._SHAPE_OPS.clear()
    monkeypatch.setattr(pdf, "PICTURE_POINTS", 10**9)
    yield
    pdf._SHAPE_OPS.clear()


def test_a_picture_drawn_n_times_is_stored_once_and_each_page_places_it(tmp_path):
    pdf._SHAPE_OPS.clear()
    scenes = [icon_card(*place) for place in PLACES]
    parts = big_outlines(scenes[0])
    assert parts >= 1
    data = write(tmp_path / "icons.pdf", scenes)
    held = forms(data)
    assert len(held) == parts  # the icon's outlines once, for four cards at four sizes in four colours
    assert all(len(re.findall(rb" l\b", body)) >= pdf.PICTURE_POINTS - 1 for body in held)  # the outline is in the form
    names = set(re.findall(rb"/FormXob\.(Pic[0-9a-f]{12})", data))
    assert len(names) == parts
    for content in pages_content(data):
        placed = re.findall(rb"cm /FormXob\.(Pic[0-9a-f]{12}) Do", content)
        assert len(placed) == parts and set(placed) == names  # each page places the form with a transform
        assert len(re.findall(rb" l\b", content)) < pdf.PICTURE_POINTS  # and does not write the outline again
    assert b"ASCII85Decode" not in data


def test_pictures_as_forms_look_as_written_out(tmp_path, monkeypatch):
    scenes = [icon_card(*place) for place in PLACES]
    write(tmp_path / "forms.pdf", scenes)
    pdf._SHAPE_OPS.clear()
    monkeypatch.setattr(pdf, "PICTURE_POINTS", 10**9)
    data = write(tmp_path / "plain.pdf", scenes)
    pdf._SHAPE_OPS.clear()
    assert not forms(data)
    assert (tmp_path / "forms.pdf").stat().st_size < (tmp_path / "plain.pdf").stat().st_size
    assert_look_alike(tmp_path / "plain.pdf", tmp_path / "forms.pdf")


def test_a_stroked_outline_keeps_its_line_width_at_any_size(tmp_path, monkeypatch):
    ring = tuple((50 + 40 * math.cos(k / 5), 50 + 40 * math.sin(k / 5)) for k in range(32))
    scenes = []
    for k, width in ((1.0, 0.3), (0.3, 1.2), (0.6, 0.05)):
        scene = Scene(120, 120, items=[Rect(0, 0, 120, 120, fill="#FFFFFF")])
        scene.items.append(Polyline(tuple((x * k, y * k) for x, y in ring), closed=True, fill="#88AA22",
                                    stroke="#112233", width=width))
        scene.items.append(Polyline(tuple((x * k + 10, y * k + 5) for x, y in ring), stroke="#AA1122", width=width))
        scenes.append(scene)
    data = write(tmp_path / "forms.pdf", scenes)
    assert len(forms(data)) == 2  # the filled-and-stroked ring and the open one, each once for three sizes
    pdf._SHAPE_OPS.clear()
    monkeypatch.setattr(pdf, "PICTURE_POINTS", 10**9)
    write(tmp_path / "plain.pdf", scenes)
    pdf._SHAPE_OPS.clear()
    assert_look_alike(tmp_path / "plain.pdf", tmp_path / "forms.pdf")


def test_the_same_input_gives_the_same_bytes(tmp_path):
    scenes = [icon_card(*place) for place in PLACES]
    first = write(tmp_path / "a.pdf", scenes)
    pdf._SHAPE_OPS.clear()  # worked out afresh, as in another process
    assert write(tmp_path / "b.pdf", scenes) == first


def test_a_replayed_card_brings_its_picture_forms_into_a_new_document(tmp_path):
    scene = icon_card(*PLACES[0])
    outputs = []
    for name in ("drawn.pdf", "replayed.pdf"):  # the second build replays the first's recording
        pdf._SHAPE_OPS.clear()
        store = SceneStore(tmp_path / "cache")
        if name == "drawn.pdf":
            store.put("card", scene)
        doc = PdfDocument(tmp_path / name, duplex=False, store=store)
        doc.begin_page(100, 200)
        draw_recorded(doc, store, "card", 10, 20)
        doc.end_page()
        doc.save()
        store.commit()
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    assert len(forms(outputs[1])) == big_outlines(scene)
    assert_look_alike(tmp_path / "drawn.pdf", tmp_path / "replayed.pdf")


def test_a_tiled_board_is_one_form_its_pages_place(tmp_path, monkeypatch):
    board = Scene(400, 260, items=[Rect(0, 0, 400, 260, fill="#EEE8D5")])
    for n in range(12):
        x, y = 20 + (n % 4) * 95, 20 + (n // 4) * 80
        board.items.append(Rect(x, y, 80, 60, fill="#D8C9A3", stroke="#5A4A2A", width=0.4))
        board.items.append(TextRun(x + 4, y + 10, f"District {n}", "bold", 11, "#222222"))
        board.items.extend(draw_symbol(load_library().symbols[ICON], x + 40, y + 15, 35, 35, "#2F4A3A", "#D8C9A3"))
    t = tiling(400, 260, 210, 297, 5.0)
    assert t is not None and len(t.pages) > 1
    pages = [tile_page(board, t, p, "Board") for p in t.pages]
    data = write(tmp_path / "tiles.pdf", pages)
    contents = pages_content(data)
    assert len(contents) == len(t.pages)
    assert all(b"(District 0) Tj" not in c for c in contents)  # no page writes the board
    held = [body for body in forms(data) if b"(District 0) Tj" in body]
    assert len(held) == 1  # the board, once
    board_form = re.findall(rb"/FormXob\.(Scene\d+)", data)
    assert set(board_form) == {b"Scene1"}
    assert all(re.search(rb"cm\s*/FormXob\.Scene1 Do", c) for c in contents)  # each page places it
    pdf._SHAPE_OPS.clear()
    monkeypatch.setattr(pdf, "PICTURE_POINTS", 10**9)
    monkeypatch.setattr(pdf, "_shared_part", lambda scene: None)
    plain = write(tmp_path / "plain.pdf", pages)
    pdf._SHAPE_OPS.clear()
    assert len(data) < 0.6 * len(plain)  # fonts apart, the board is written once, not on each of its pages
    assert_look_alike(tmp_path / "plain.pdf", tmp_path / "tiles.pdf")


def test_a_tiled_page_whose_items_were_replaced_is_drawn_as_it_says(tmp_path):
    board = Scene(400, 260, items=[Rect(0, 0, 400, 260, fill="#EEE8D5"), TextRun(5, 10, "Corner", "bold", 11, "#222222")])
    t = tiling(400, 260, 210, 297, 5.0)
    assert t is not None
    page = tile_page(board, t, t.pages[0], "Board")
    assert page.shared_part() is not None
    page.items[2] = TextRun(5, 10, "Changed", "bold", 11, "#222222")
    assert page.shared_part() is None
    data = write(tmp_path / "changed.pdf", [page])
    assert b"(Changed) Tj" in pages_content(data)[0]
