"""Other ways to print one set: faces and backs as two PDFs, and fold-and-glue.

- Faces-only and backs-only (printers without duplex): the same sheets as the duplex PDF,
  split; page n of the backs goes behind page n of the faces when the stack is fed again.
- Fold-and-glue: each card's face and back side by side with a fold between them, so that
  folding and gluing the pair gives a double-sided card with no duplex at all. Side by side
  (a fold up the middle) the back needs no turning; one above the other (a fold across)
  the back is printed upside down. The build takes whichever fits more pairs on the page.
  Its sheets carry the build's crop marks, label and (--cut-lines) guillotine lines
  (generator/furniture.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from casebook.generator.build import switches, write_pdf
from casebook.generator.exports import atomic_file
from casebook.generator.exports.transform import turn_scene
from casebook.generator.furniture import cut_lines, draw_furniture
from casebook.generator.scene import Polyline, Scene
from casebook.generator.sheets import SheetPlan, best_plan
from casebook.rules.problems import Place, Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed

FOLD_DASH = (1.5, 1.0)


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


def _fold_marks(fp: FoldPlan) -> Scene:
    """Dashed fold lines in the margin beside the block, in line with every fold."""
    plan = fp.plan
    x0, y0, x1, y1 = plan.block()
    reach = 4.0
    items = []
    for i in range(plan.cols if not fp.across else plan.rows):
        if fp.across:
            y = plan.slot(i * plan.cols).y + fp.card_h
            items += [Polyline(((x0 - plan.bleed - reach - 1, y), (x0 - plan.bleed - 1, y)), stroke="#000000", width=0.2,
                               dash=FOLD_DASH),
                      Polyline(((x1 + plan.bleed + 1, y), (x1 + plan.bleed + reach + 1, y)), stroke="#000000", width=0.2,
                               dash=FOLD_DASH)]
        else:
            x = plan.slot(i).x + fp.card_w
            items += [Polyline(((x, y0 - plan.bleed - reach - 1), (x, y0 - plan.bleed - 1)), stroke="#000000", width=0.2,
                               dash=FOLD_DASH),
                      Polyline(((x, y1 + plan.bleed + 1), (x, y1 + plan.bleed + reach + 1)), stroke="#000000", width=0.2,
                               dash=FOLD_DASH)]
    return Scene(plan.paper_w, plan.paper_h, items=list(items))


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
            if notes is not None and not any(n.startswith(said) for n in notes):
                gap = fp.plan.gutter
                if gap != opts.gutter:
                    notes.append(f"{said}spaced {gap:g} mm apart (twice the bleed) instead of the gutter of "
                                 f"{opts.gutter:g} mm, so that each pair is cut out with its own bleed")
                notes.extend(said + note for note in fp.plan.notes)
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
                doc.draw(_fold_marks(fp if plan is fp.plan else replace(fp, plan=plan)))
                number = start // per + 1
                draw_furniture(doc, plan, opts.crop_marks, f"{composed.db.short_title} · {batch[0].component.name}"
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
