"""Other ways to print one set: faces and backs as two PDFs, and fold-and-glue.

- Faces-only and backs-only (printers without duplex): the same sheets as the duplex PDF,
  split; page n of the backs goes behind page n of the faces when the stack is fed again
  (a one-sided page, such as the aid, has a blank page in the backs file).
- Fold-and-glue: each card's face and back side by side with a fold between them, so that
  folding and gluing the pair gives a double-sided card with no duplex at all. Side by side
  (a fold up the middle) the back needs no turning; one above the other (a fold across)
  the back is printed upside down. The build takes whichever fits more pairs on the page.
  Its sheets carry the build's crop marks, label and (--cut-lines) guillotine lines
  (generator/furniture.py); the fold ticks stand where the crop marks do, clear of the label.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from casebook.generator.build import switches, write_pdf
from casebook.generator.exports import atomic_file
from casebook.generator.exports.transform import turn_scene
from casebook.generator.furniture import cut_lines, draw_furniture
from casebook.generator.scene import Polyline, Scene
from casebook.generator.sheets import LABEL_PAD, MARK_HALO, Band, Segment, SheetPlan, best_plan
from casebook.rules.problems import Place, Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed

FOLD_DASH = (1.5, 1.0)
FOLD_WIDTH = 0.2


def write_split_sides(composed: Composed, paper: str, out: Path, game: str, opts: BuildOptions,
                      problems: Problems) -> list[tuple[Path, int]]:
    """<game>-<paper>-faces.pdf and -backs.pdf: the duplex PDF's two sides as two files."""
    written = []
    for side in ("faces", "backs") if switches(composed, opts)[0] else ("faces",):  # --no-backs: no backs file
        path = out / f"{game}-{paper}-{side}.pdf"
        pages = write_pdf(composed, paper, path, replace(opts, sides=side), problems)
        if problems:
            break
        written.append((path, pages))
    return written


@dataclass(frozen=True)
class FoldPlan:
    """Pairs on a sheet: `plan` places each pair; `across` means face above back (fold across)."""

    plan: SheetPlan
    across: bool
    card_w: float
    card_h: float


def fold_plan(card_w: float, card_h: float, paper_w: float, paper_h: float, bleed: float, gutter: float,
              margin: float) -> FoldPlan | None:
    """The fold layout that holds the most pairs: side by side, or one above the other."""
    gap = max(gutter, 2 * bleed)  # each pair is cut out with its own bleed
    options = []
    for across in (False, True):
        pair_w, pair_h = (card_w, 2 * card_h) if across else (2 * card_w, card_h)
        plan = best_plan(pair_w, pair_h, paper_w, paper_h, bleed=bleed, gutter=gap, margin=margin)
        if plan is not None:
            options.append(FoldPlan(plan, across, card_w, card_h))
    if not options:
        return None
    return max(options, key=lambda f: (f.plan.per_sheet, not f.across))


def _halves(fp: FoldPlan, slot_x: float, slot_y: float,
            clip: tuple[float, float, float, float]) -> tuple[tuple[float, float, tuple[float, float, float, float]],
                                                             tuple[float, float, tuple[float, float, float, float]]]:
    """Where the face and the back of a pair go (trim top-left) and the part each may paint."""
    cx, cy, cw, ch = clip
    if fp.across:
        fold = slot_y + fp.card_h
        return ((slot_x, slot_y, (cx, cy, cw, fold - cy)),
                (slot_x, fold, (cx, fold, cw, cy + ch - fold)))
    fold = slot_x + fp.card_w
    return ((slot_x, slot_y, (cx, cy, fold - cx, ch)),
            (fold, slot_y, (fold, cy, cx + cw - fold, ch)))


@dataclass
class FoldSheet(SheetPlan):
    """A fold-and-glue sheet: a sheet plan with fold ticks, whose label strips stop short of every tick."""

    folds: tuple[float, ...] = ()  # x of each fold (side by side), or y (one above the other)
    across: bool = False

    def fold_ticks(self) -> list[tuple[Segment, bool]]:
        """A tick in line with every fold, where the crop marks of those sides stand (never in the margin),
        and whether it lies over the bleed. Side by side: above and below the block; across: left and right."""
        out = []
        for side in ("left", "right") if self.across else ("top", "bottom"):
            near, far, over = self.mark_span(side)
            for t in self.folds:
                out.append((self.mark_segment(side, t, near, far), over))
        return out

    def label_bands(self, shift: tuple[float, float] = (0.0, 0.0)) -> list[Band]:
        keep = FOLD_WIDTH / 2 + LABEL_PAD
        out = []
        for band in super().label_bands(shift):
            x0, y0, x1, y1 = band.x, band.y, band.x + band.w, band.y + band.h
            lo, hi = (y0, y1) if self.across else (x0, x1)
            # a tick cuts the strip where the strip reaches over its length (as far from the edge as the crop marks)
            cuts = sorted({(a[1] if self.across else a[0]) for (a, b), _ in self.fold_ticks()
                           if (min(a[0], b[0]) < x1 and max(a[0], b[0]) > x0 if self.across
                               else min(a[1], b[1]) < y1 and max(a[1], b[1]) > y0)})
            cuts = [c for c in cuts if lo < c < hi]
            if not cuts:
                out.append(band)
                continue
            for a, b in zip([lo, *cuts], [*cuts, hi], strict=False):  # the strip between two ticks
                a, b = a + (keep if a != lo else 0.0), b - (keep if b != hi else 0.0)
                if b - a > 1e-9:
                    out.append(replace(band, y=a, h=b - a) if self.across else replace(band, x=a, w=b - a))
        return out


def fold_sheet(fp: FoldPlan, plan: SheetPlan) -> FoldSheet:
    """`plan` (the fold plan's, or a part-filled sheet's) with the folds its pairs have."""
    if fp.across:
        folds = tuple(plan.slot(r * plan.cols).y + fp.card_h for r in range(plan.rows))
    else:
        folds = tuple(plan.slot(c).x + fp.card_w for c in range(plan.cols))
    fields = {f.name: getattr(plan, f.name) for f in dataclasses.fields(SheetPlan) if f.init}
    return FoldSheet(**fields, folds=folds, across=fp.across)


def _fold_marks(sheet: FoldSheet) -> Scene:
    """Dashed fold ticks; over the pair's outer bleed (cut away) on a white halo, as the crop marks."""
    items: list[Polyline] = []
    for (a, b), over in sheet.fold_ticks():
        if over:
            items.append(Polyline((a, b), stroke="#FFFFFF", width=FOLD_WIDTH + 2 * MARK_HALO))
        items.append(Polyline((a, b), stroke="#000000", width=FOLD_WIDTH, dash=FOLD_DASH))
    return Scene(sheet.paper_w, sheet.paper_h, items=list(items))


def write_fold_pdf(composed: Composed, paper: str, path: Path, opts: BuildOptions, problems: Problems,
                   notes: list[str] | None = None) -> int:
    """<game>-<paper>-fold.pdf: every card as a face-and-back pair to fold, then the sheets; returns pages.

    What the layout changed by itself (the pairs' spacing, a turned sheet, ...) goes into `notes`.
    """
    from casebook.generator.backends.pdf import PdfDocument

    lib = composed.lib
    p = lib.papers[paper]
    bleed = lib.settings.bleed if opts.bleed is None else opts.bleed
    plans: dict[str, FoldPlan] = {}
    for cid, comp in composed.db.components.items():
        size = lib.sizes[comp.size]
        fp = fold_plan(size.width, size.height, p.width, p.height, bleed, opts.gutter, lib.settings.page_margin)
        if fp is None:
            problems.add(Place(str(opts.layouts_dir / "sizes.yaml")),
                         f"a {comp.size} card folded with its back ({comp.name}) does not fit on {paper}",
                         "a larger paper, or leave out --fold")
        else:
            plans[cid] = fp
            said = f"{paper}, fold-and-glue {comp.size} pairs: "
            gap = fp.plan.gutter
            if notes is not None and gap != opts.gutter and opts.gutter > 0:  # a gutter asked for and not kept
                spaced = (f"{paper}, fold-and-glue pairs: spaced {gap:g} mm apart (twice the bleed) instead of the "
                          f"gutter of {opts.gutter:g} mm, so that each pair is cut out with its own bleed")
                if spaced not in notes:  # the same for every size
                    notes.append(spaced)
            if notes is not None and not any(n.startswith(said) for n in notes):
                normal = fold_plan(size.width, size.height, p.width, p.height, lib.settings.bleed, 0.0,
                                   lib.settings.page_margin)  # the default settings: how a fold sheet is printed
                notes.extend(said + note for note in fp.plan.notes if normal is None or note not in normal.plan.notes)
    if problems:
        return 0
    turned: dict[tuple[object, ...], Scene] = {}
    with atomic_file(path) as tmp:
        doc = PdfDocument(tmp, title=f"{composed.db.title} — fold-and-glue ({paper})", duplex=False)
        for cid, faces in composed.faces.items():
            fp = plans[cid]
            per = fp.plan.per_sheet
            for start in range(0, len(faces), per):
                batch = faces[start:start + per]
                plan = fp.plan.used(len(batch))
                doc.begin_page(plan.paper_w, plan.paper_h)
                if start == 0:
                    doc.bookmark(batch[0].component.name, f"fold-{cid}-{paper}")
                for i, face in enumerate(batch):
                    slot = plan.slot(i)
                    (fx, fy, fclip), (bx, by, bclip) = _halves(fp, slot.x, slot.y, plan.clip(slot))
                    back = face.back
                    if fp.across:
                        key = (back.width, back.height, tuple(back.items))
                        back = turned.get(key) or turned.setdefault(key, turn_scene(back))
                    doc.draw(face.face, fx - face.face.bleed, fy - face.face.bleed, clip=fclip)
                    doc.draw(back, bx - back.bleed, by - back.bleed, clip=bclip)
                if opts.cut_lines:
                    doc.draw(cut_lines(plan))
                sheet = fold_sheet(fp, plan)
                doc.draw(_fold_marks(sheet))
                number = start // per + 1
                draw_furniture(doc, sheet, opts.crop_marks, f"{composed.db.short_title} · {batch[0].component.name}"
                               f" · {number} · cut out each pair, fold on the dashed line, glue", (0.0, 0.0))
                doc.end_page()
        for name, scene in composed.pages.get(paper, []):
            doc.begin_page(scene.width, scene.height)  # a tiled board's pages may lie landscape
            doc.bookmark(name, f"sheet-{name}-{paper}")
            doc.draw(scene)
            doc.end_page()
        pages = doc.pages
        doc.save()
    return pages
