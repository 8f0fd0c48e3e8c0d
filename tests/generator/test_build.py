"""The built Graves PDFs, read back: components all there, trim sizes, marks, determinism."""

from __future__ import annotations

import ctypes
import re
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from casebook.cli import main

PT = 72 / 25.4  # points per mm


def page_texts(path):
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_both_papers_are_built(graves_build):
    for paper in ("a4", "letter"):
        assert (graves_build / f"graves-{paper}.pdf").stat().st_size > 10_000


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_component_of_the_rulebook_is_printed(graves_build, graves_db, paper):
    texts = page_texts(graves_build / f"graves-{paper}.pdf")
    whole = "\n".join(texts)
    # each card carries "<code> n/total" in its corner: count the distinct ones per component
    expected = {"DET": 45, "MM": 45, "LOC": 12, "ID": 5, "EV": 10}
    for code, count in expected.items():
        found = set(re.findall(rf"\b{code} (\d+)/{count}\b", whole))
        assert found == {str(n) for n in range(1, count + 1)}, code
    # tokens carry their label; faces only (backs of time tokens repeat the face)
    faces = "\n".join(t for i, t in enumerate(texts) if "TRUMP" in t or "TIME" in t)
    assert Counter(re.findall(r"\bTRUMP\b", faces))["TRUMP"] == 10
    token_face_pages = [t for t in texts if "TIME" in t]
    assert sum(t.count("TIME") for t in token_face_pages) == 28  # faces only: the backs show the clock alone
    # the 12 locations by name, each identity, the scoresheet and the aid
    for card in graves_db.components["locations"].cards + graves_db.components["identities"].cards:
        assert card["name"] in whole
    assert "case scoresheet" in whole and "player aid" in whole
    assert "The Long Haul" in whole and "Tie-break" in whole


def _stroke_rgb(obj):
    """The stroke colour of a stroked, unfilled path; None for anything else."""
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
    if fill.value or not stroke.value:
        return None
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    pdfium_raw.FPDFPageObj_GetStrokeColor(obj.raw, *(ctypes.byref(v) for v in (r, g, b, a)))
    return (r.value, g.value, b.value)


def _marks(page):
    """Crop marks: short, thin, pure black strokes (no card art uses pure black)."""
    objs = [(o.get_bounds(), _stroke_rgb(o)) for o in page.get_objects() if o.type == pdfium_raw.FPDF_PAGEOBJ_PATH]
    vertical, horizontal = [], []
    for (x0, y0, x1, y1), rgb in objs:
        if rgb != (0, 0, 0):
            continue
        w, h = x1 - x0, y1 - y0
        if w < 2.0 and 1.0 * PT < h < 6.5 * PT:
            vertical.append((x0 + x1) / 2)
        elif h < 2.0 and 1.0 * PT < w < 6.5 * PT:
            horizontal.append((y0 + y1) / 2)
    bounds = [b for b, rgb in objs if rgb == (0, 0, 0)]
    return bounds, sorted({round(v / PT, 2) for v in vertical}), sorted({round(v / PT, 2) for v in horizontal})


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_trim_sizes_as_the_crop_marks_show(graves_build, paper):
    pdf = pdfium.PdfDocument(str(graves_build / f"graves-{paper}.pdf"))
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    checked = Counter()
    for i, text in enumerate(texts):
        if "DET 1/45" in text or "LOC 1/12" in text:
            size = (63.0, 88.0) if "DET" in text else (70.0, 120.0)
            objs, xs, ys = _marks(pdf[i])
            assert len(xs) >= 3 and len(ys) >= 3
            for a, b in zip(xs, xs[1:], strict=False):
                assert abs((b - a) - size[0]) <= 0.1, (paper, xs)
            for a, b in zip(ys, ys[1:], strict=False):
                assert abs((b - a) - size[1]) <= 0.1, (paper, ys)
            pw, ph = pdf[i].get_size()
            assert objs, "no crop marks found"
            for x0, y0, x1, y1 in objs:
                if True:  # every mark on the page (fills and colours excluded above)
                    assert x0 >= 5 * PT - 0.05 and y0 >= 5 * PT - 0.05, "mark within 5 mm of the edge"
                    assert x1 <= pw - 5 * PT + 0.05 and y1 <= ph - 5 * PT + 0.05, "mark within 5 mm of the edge"
            checked[size] += 1
    pdf.close()
    assert checked[(63.0, 88.0)] == 1 and checked[(70.0, 120.0)] == 1


def test_the_same_input_gives_the_same_bytes(graves_build, tmp_path):
    assert main(["build", "graves", "--paper", "a4", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "graves" / "graves-a4.pdf").read_bytes() == (graves_build / "graves-a4.pdf").read_bytes()


def test_back_pages_follow_face_pages(graves_build):
    texts = page_texts(graves_build / "graves-a4.pdf")
    # page 0: detective faces; page 1: their backs
    assert "DET 1/45" in texts[0] and "DET" not in texts[1].replace("DETECTIVE", "")
    assert "DETECTIVE" in texts[1]


def test_options_gutter_ink_saver_no_marks(tmp_path):
    assert main(["build", "graves", "--paper", "a4", "--out", str(tmp_path), "--gutter", "6",
                 "--ink-saver", "--no-crop-marks", "--back-offset", "0.5,-0.3"]) == 0
    path = tmp_path / "graves" / "graves-a4.pdf"
    texts = page_texts(path)
    # with a gutter of twice the bleed 2 x 3 poker cards fit portrait A4, 4 x 2 landscape: 45 cards on 6 sheets
    detective_faces = [i for i, t in enumerate(texts) if re.search(r"\bDET \d+/45", t)]
    assert len(detective_faces) == 6
    pdf = pdfium.PdfDocument(str(path))
    try:
        for i in detective_faces:
            w, h = pdf[i].get_size()
            assert (round(w / PT), round(h / PT)) == (297, 210)  # the face page and its back page
            assert tuple(round(v / PT) for v in pdf[i + 1].get_size()) == (297, 210)
    finally:
        pdf.close()
    last = " ".join(texts[detective_faces[-1]].split())  # shared with the first Mastermind cards
    assert "Detective deck · sheet 6 of 6 + Mastermind deck · sheet 1 of 7 · faces" in last


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_sheet_is_labelled_with_its_own_count(graves_build, graves_db, paper):
    texts = [" ".join(t.split()) for t in page_texts(graves_build / f"graves-{paper}.pdf")]
    labels = [m for t in texts for m in re.findall(r"Detective Graves · (.+?) · (faces|backs)", t)]
    seen: dict[str, list[int]] = {}
    for text, side in labels:
        for part in text.split(" + "):
            name, count = re.fullmatch(r"(.+) · sheet (\d+ of \d+)", part).groups()
            if side == "faces":
                seen.setdefault(name, []).append(int(count.split(" of ")[0]))
                assert int(count.split(" of ")[1]) >= int(count.split(" of ")[0])
    for comp in graves_db.components.values():
        assert comp.name in seen, (paper, comp.name)
        assert seen[comp.name] == list(range(1, len(seen[comp.name]) + 1)), (comp.name, seen[comp.name])
    assert len(seen["Detective deck"]) == 5 == len(seen["Mastermind deck"])  # 45 cards, 9 a sheet
    assert seen["Time tokens"] == [1] == seen["Trump-change tokens"]  # the tokens' sheet is labelled too
