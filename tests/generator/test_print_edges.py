"""Every PDF page a build writes, read back: no ink within 5 mm of the paper's edge, fold ticks
clear of the sheet's label, and the one-sided files paired page by page (issue 21, items 6 and 8).

Each game is built once through the command on A4 and Letter with the duplex PDF, the
fold-and-glue, faces/backs and cover files and its boards, and every page is rendered.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from casebook.cli import main
from casebook.generator.backends.fonts import metrics
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.exports.variants import _fold_marks, fold_plan, fold_sheet
from casebook.generator.furniture import label_run
from casebook.generator.scene import Polyline, TextRun
from casebook.generator.units import PT_PER_MM
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems

PX_PER_MM = 4.0  # 101.6 dpi: a 0.25 mm crop mark still darkens its pixel
EDGE_MM = 5.0  # home printers print nothing nearer the edge than this
INK = 245  # a pixel darker than this (of 255) on any channel is ink
PAPERS = ("a4", "letter")
_built: dict[str, Path] = {}


def built(game: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's folder of PDFs, built once per session."""
    if game not in _built:
        out = tmp_path_factory.mktemp(f"edges-{game}")
        assert main(["build", game, "--out", str(out), "--fold", "--split-sides", "--cover"]) == 0
        _built[game] = out / game
    return _built[game]


def inked_edges(page: pdfium.PdfPage) -> list[str]:
    """Which sides of a rendered page have ink within EDGE_MM of the paper's edge."""
    img: Image.Image = page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("L")
    band = int(EDGE_MM * PX_PER_MM) - 1  # the pixel on the 5 mm line may be touched by what stands just inside it
    w, h = img.size
    strips = {"left": (0, 0, band, h), "top": (0, 0, w, band), "right": (w - band, 0, w, h),
              "bottom": (0, h - band, w, h)}
    return [side for side, box in strips.items()
            if img.crop(box).point(lambda v: 255 if v < INK else 0).getbbox() is not None]


def _files(folder: Path) -> list[Path]:
    """Every multi-page PDF of the build (the per-card and service files are single cards with their bleed)."""
    return sorted(folder.glob("*.pdf"))


@pytest.mark.parametrize("game", game_folders())
def test_no_page_of_any_pdf_has_ink_within_5_mm_of_the_edge(game, tmp_path_factory):
    folder = built(game, tmp_path_factory)
    files = _files(folder)
    kinds = {p.name.removeprefix(game + "-") for p in files}
    for paper in PAPERS:  # every kind of file was written and is looked at
        assert {f"{paper}.pdf", f"{paper}-fold.pdf", f"{paper}-faces.pdf", f"{paper}-backs.pdf",
                f"{paper}-cover.pdf"} <= kinds, kinds
    found = []
    for path in files:
        pdf = pdfium.PdfDocument(str(path))
        try:
            for i in range(len(pdf)):
                sides = inked_edges(pdf[i])
                if sides:
                    found.append(f"{path.name} p{i + 1}: {', '.join(sides)}")
        finally:
            pdf.close()
    assert not found, "; ".join(found)


def _label_box(run: TextRun) -> tuple[float, float, float, float]:
    """A label's ink box x0, y0, x1, y1 in mm (upright, or turned a quarter to read up the page)."""
    m = metrics()
    length = m.width(run.text, run.font, run.size) / PT_PER_MM
    asc, desc = m.ascent(run.font, run.size) / PT_PER_MM, m.descent(run.font, run.size) / PT_PER_MM
    if run.angle == 270:
        return (run.x - asc, run.y - length, run.x + desc, run.y)
    assert run.angle == 0
    return (run.x, run.y - asc, run.x + length, run.y + desc)


def _crosses(line: Polyline, box: tuple[float, float, float, float]) -> bool:
    (ax, ay), (bx, by) = line.points[0], line.points[-1]
    x0, y0, x1, y1 = box
    return min(ax, bx) <= x1 and max(ax, bx) >= x0 and min(ay, by) <= y1 and max(ay, by) >= y0


@pytest.mark.parametrize("game", game_folders())
def test_fold_ticks_stay_clear_of_the_margin_and_of_the_sheet_label(game):
    opts = BuildOptions()
    problems = Problems()
    composed = compose_game(game, opts, problems)
    assert composed is not None, problems.format()
    lib = composed.lib
    label = f"{composed.db.short_title} · a long component name · 1 · cut out each pair, fold on the dashed line, glue"
    for paper in PAPERS:
        p = lib.papers[paper]
        for size_id in {c.size for c in composed.db.components.values()}:
            size = lib.sizes[size_id]
            fp = fold_plan(size.width, size.height, p.width, p.height, lib.settings.bleed, 0.0,
                           lib.settings.page_margin)
            assert fp is not None
            for count in range(1, fp.plan.per_sheet + 1):  # full and part-filled sheets
                sheet = fold_sheet(fp, fp.plan.used(count))
                ticks = [t for t in _fold_marks(sheet).items if isinstance(t, Polyline) and t.stroke == "#000000"]
                assert len(ticks) == 2 * len(sheet.folds) > 0, (game, paper, size_id)
                for t in ticks:
                    for x, y in t.points:
                        assert EDGE_MM <= x <= sheet.paper_w - EDGE_MM and EDGE_MM <= y <= sheet.paper_h - EDGE_MM, \
                            (game, paper, size_id, t.points)
                runs = [r for r in label_run(sheet, label, (0.0, 0.0)) if isinstance(r, TextRun)]
                assert runs, (game, paper, size_id, "no room for the label")
                box = _label_box(runs[0])
                assert not any(_crosses(t, box) for t in ticks), (game, paper, size_id, count, box)


def _page_texts(path: Path) -> list[tuple[str, tuple[float, float], int]]:
    """Each page's text, size and number of drawn objects."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [(pdf[i].get_textpage().get_text_range(), tuple(round(v) for v in pdf[i].get_size()),
                 len(list(pdf[i].get_objects()))) for i in range(len(pdf))]
    finally:
        pdf.close()


def _label(text: str, side: str) -> str | None:
    """A card sheet's label without its side: 'The Syndicate · The basic Decktet · sheet 1 of 4'."""
    lines = [line.strip() for line in text.splitlines() if line.strip().endswith(f"· {side}")]
    return lines[-1].removesuffix(f"· {side}").strip() if lines else None


@pytest.mark.parametrize("game", game_folders())
def test_split_sides_page_n_of_faces_and_backs_belong_together(game, tmp_path_factory):
    """Refeeding the whole printed stack prints each back behind its own face: same count, pairs page by page."""
    folder = built(game, tmp_path_factory)
    for paper in PAPERS:
        faces = _page_texts(folder / f"{game}-{paper}-faces.pdf")
        backs = _page_texts(folder / f"{game}-{paper}-backs.pdf")
        assert len(faces) == len(backs), (paper, len(faces), len(backs))
        for n, ((ftext, fsize, fobjs), (btext, bsize, bobjs)) in enumerate(zip(faces, backs, strict=True), 1):
            assert fsize == bsize, (paper, n)
            if "· faces" in ftext:  # a card sheet: its own back, same label
                assert _label(btext, "backs") == _label(ftext, "faces"), (paper, n)
            elif "calibration" in ftext.lower():
                assert bobjs > 0 and "· backs" not in btext, (paper, n)  # the calibration's back (crosses)
            else:  # a one-sided page (scoresheet, aid, board tile): a blank back to keep the stack in step
                assert fobjs > 0 and bobjs == 0 and not btext.strip(), (paper, n, ftext[:60])
        cal = [n for n, (t, _, _) in enumerate(faces) if "calibration" in t.lower()]
        assert len(cal) == 1, (paper, cal)
