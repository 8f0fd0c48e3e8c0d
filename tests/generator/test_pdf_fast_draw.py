"""Drawing fast without changing a byte (issue 21, item 13): the PDF backend writes each scene item's
operators itself, as ReportLab's canvas calls would write them, and makes a recurring shape's once;
layout files are parsed once and kept between runs; Pillow's Image module runs only when an image is used.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

import casebook.generator.backends.pdf as pdf
from casebook.generator.backends.fonts import PDF_NAMES
from casebook.generator.backends.pdf import PdfDocument
from casebook.generator.layouts import ParseCache
from casebook.generator.scene import Clip, Ellipse, Polyline, Rect, Scene, Shape, TextRun, Unclip
from casebook.generator.units import mm_to_pt
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def every_kind(dx: float = 0.0) -> Scene:
    """A scene with an item of every kind the backend draws (dx moves it: other numbers, the same operators)."""
    scene = Scene(66, 94, bleed=3)
    scene.items += [
        Rect(0, 0, 66, 94, fill="#FBF7EE"),
        Rect(6 + dx, 6, 54, 82, stroke="#7A5C99", width=0.6, radius=2),
        Rect(8 + dx, 9, 20, 4, fill="#112233", stroke="#445566", width=0.25, dash=(1.0, 0.5)),
        Ellipse(33 + dx, 40, 7, 12.5, fill="#E69F00"),
        Ellipse(20 + dx, 30, 3, 3, stroke="#000000", width=0.4),
        Polyline(((10 + dx, 10), (20, 15.25), (30.125, 12)), stroke="#4F3A66", width=0.9),
        Polyline(((10 + dx, 50), (20, 55), (15, 60)), closed=True, fill="#123456"),
        Polyline(((1 + dx, 1), (2, 2)), closed=False, fill="#123456"),  # paints nothing: no operators
        Shape((((10 + dx, 70), (30, 70), (30, 90), (10, 90)), ((15, 75), (15, 85), (25, 85), (25, 75))),
              fill="#654321", even_odd=True),
        Shape((((40 + dx, 70), (50, 70), (45, 80)),), fill="#ABCDEF", stroke="#000000", width=0.2),
        Clip(5 + dx, 5, 50, 50),
        TextRun(8 + dx, 20, "Dusty (Luna) 1\\2", "bold", 13, "#555555"),
        TextRun(8 + dx, 30, "Café — naïve", "italic", 8, "#4F3A66"),
        Unclip(),
        TextRun(60 + dx, 80, "turned", "regular", 5, "#000000", angle=90),
        TextRun(8 + dx, 88, "", "regular", 5, "#000000"),
    ]
    return scene


def canvas_ops(scene: Scene, page_h: float) -> str:
    """The scene drawn through ReportLab's canvas calls, one by one, as the backend drew it before."""
    c = Canvas(os.devnull, invariant=1, initialFontName=PDF_NAMES["regular"])
    code = c._code
    start = len(code)

    def X(v: float) -> float:
        return mm_to_pt(v)

    def Y(v: float) -> float:
        return mm_to_pt(page_h - v)

    def paint(fill: str | None, stroke: str | None, width: float, dash: tuple[float, ...]) -> None:
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(mm_to_pt(width))
            c.setDash([mm_to_pt(d) for d in dash] if dash else [])

    for item in scene.items:
        if isinstance(item, TextRun):
            c.setFillColor(HexColor(item.colour))
            c.setFont(PDF_NAMES[item.font], item.size)
            if item.angle:
                c.saveState()
                c.translate(X(item.x), Y(item.y))
                c.rotate(-item.angle)
                c.drawString(0, 0, item.text)
                c.restoreState()
            else:
                c.drawString(X(item.x), Y(item.y), item.text)
        elif isinstance(item, Rect):
            paint(item.fill, item.stroke, item.width, item.dash)
            if item.radius > 0:
                c.roundRect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h), mm_to_pt(item.radius),
                            stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
            else:
                c.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h),
                       stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
        elif isinstance(item, Ellipse):
            paint(item.fill, item.stroke, item.width, ())
            c.ellipse(X(item.cx - item.rx), Y(item.cy + item.ry), X(item.cx + item.rx), Y(item.cy - item.ry),
                      stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
        elif isinstance(item, Polyline):
            fill = item.fill if item.closed else None
            if not fill and not item.stroke:
                continue
            paint(fill, item.stroke, item.width, item.dash)
            path = c.beginPath()
            path.moveTo(X(item.points[0][0]), Y(item.points[0][1]))
            for px, py in item.points[1:]:
                path.lineTo(X(px), Y(py))
            if item.closed:
                path.close()
            c.drawPath(path, stroke=int(bool(item.stroke)), fill=int(bool(fill)))
        elif isinstance(item, Shape):
            paint(item.fill, item.stroke, item.width, ())
            path = c.beginPath()
            for ring in item.subpaths:
                path.moveTo(X(ring[0][0]), Y(ring[0][1]))
                for px, py in ring[1:]:
                    path.lineTo(X(px), Y(py))
                path.close()
            c.drawPath(path, stroke=int(bool(item.stroke)), fill=int(bool(item.fill)),
                       fillMode=FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO)
        elif isinstance(item, Clip):
            c.saveState()
            path = c.beginPath()
            path.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h))
            c.clipPath(path, stroke=0, fill=0)
        elif isinstance(item, Unclip):
            c.restoreState()
    return "\n".join(code[start:])


def drawn_ops(doc: PdfDocument, scene: Scene) -> str:
    code = doc.canvas._code
    start = len(code)
    doc.draw(scene)
    return "\n".join(code[start:])


@pytest.mark.parametrize("dx", [0.0, 1.37])
def test_every_item_is_written_as_the_canvas_calls_write_it(tmp_path, dx):
    doc = PdfDocument(tmp_path / "a.pdf")
    doc.begin_page(66, 94)
    scene = every_kind(dx)
    first = drawn_ops(doc, scene)
    assert first == canvas_ops(scene, 94)
    assert drawn_ops(doc, scene) == first  # the second time from what the first kept


def test_a_recurring_shape_is_worked_out_once_in_every_document(tmp_path, monkeypatch):
    pdf._SHAPE_OPS.clear()
    made: list[object] = []
    original = PdfDocument._shape_ops

    def counted(self: PdfDocument, item: object, ox: float, oy: float) -> str:
        made.append(item)
        return original(self, item, ox, oy)

    monkeypatch.setattr(PdfDocument, "_shape_ops", counted)
    scenes = [every_kind(), every_kind()]
    for name in ("a4.pdf", "letter.pdf"):  # the A4 and the Letter PDF of one build
        doc = PdfDocument(tmp_path / name)
        doc.begin_page(66, 94)
        for scene in scenes:
            doc.draw(scene)
        doc.end_page()
        doc.save()
    shapes = [i for i in every_kind().items if not isinstance(i, TextRun | Unclip)]
    assert len(made) == len(shapes)  # each shape once: not again for the second card, nor for the second PDF


def test_the_shapes_kept_are_bounded(tmp_path):
    pdf._SHAPE_OPS.clear()
    doc = PdfDocument(tmp_path / "a.pdf")
    doc.begin_page(66, 94)
    scene = Scene(66, 94, items=[Rect(i / 1000, 0, 1, 1, fill="#000000") for i in range(pdf.OPS_HELD + 10)])
    doc.draw(scene)
    assert len(pdf._SHAPE_OPS) <= pdf.OPS_HELD


def test_a_layout_file_is_parsed_once_and_again_when_it_changes(tmp_path, monkeypatch):
    import casebook.generator.layouts as layouts

    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    parsed: list[Path] = []
    original = layouts.load_yaml

    def counted(path: Path, problems: Problems) -> object:
        parsed.append(path)
        return original(path, problems)

    monkeypatch.setattr(layouts, "load_yaml", counted)
    source = tmp_path / "face.yaml"
    source.write_text("elements:\n  - {id: name, type: text, x: 5, y: 6, w: 50, h: 8, text: '{{ card.name }}'}\n")
    first = ParseCache().load(source, Problems())
    again = ParseCache().load(source, Problems())  # a new run: read from the cache, not parsed
    assert parsed == [source]
    assert again == first and again.place == first.place and again["elements"].item_places == first["elements"].item_places
    source.write_text("elements:\n  - {id: name, type: text, x: 7, y: 6, w: 50, h: 8, text: '{{ card.name }}'}\n")
    edited = ParseCache().load(source, Problems())
    assert len(parsed) == 2 and edited["elements"][0]["x"] == 7
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", "")
    assert ParseCache().load(source, Problems()) == edited and len(parsed) == 3  # an empty cache dir keeps nothing


def test_a_layout_file_with_a_problem_is_never_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "bad.yaml"
    source.write_text("elements: [\n")
    for _ in range(2):  # said on every run
        problems = Problems()
        assert ParseCache().load(source, problems) is None
        assert len(problems) == 1 and "bad.yaml" in str(problems.items[0].place)
    assert not any(p.is_file() for p in (tmp_path / "cache").rglob("*"))


LOADED = """
import sys
from casebook.cli import main
code = main(["build", "moth", "--cards", sys.argv[1], "--layouts", sys.argv[2], "--out", sys.argv[3], "--paper", "a4"])
print(code, "PIL.ImageFile" in sys.modules, "PIL.ExifTags" in sys.modules)
"""


def test_a_build_without_pictures_never_runs_pillows_image_module(tmp_path):
    env = {**os.environ, "CASEBOOK_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-c", LOADED, str(TINY / "cards"), str(TINY / "layouts"),
                             str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-3:] == ["0", "False", "False"]  # PIL.Image imports both as it runs
    assert (tmp_path / "out" / "moth" / "moth-a4.pdf").stat().st_size > 1000
