"""Build a game's print-and-play set: compose every card and sheet, impose, write atomically.

Nothing is written unless the whole game composed without an error, and every file
is written beside its target and renamed over it, so a failed build leaves the
previous output intact.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from generator.backends.fonts import metrics
from generator.calibration import calibration_pages
from generator.compose import Composer, Face
from generator.layouts import LAYOUTS_DIR, LayoutLibrary, load_library
from generator.scene import Polyline, Scene, TextRun
from generator.sheets import MARK_WIDTH, SheetPlan, plan_sheet
from generator.units import PT_PER_MM
from rules.cards import CARDS_DIR, GameDatabase, Mark, Suit, read_database
from rules.problems import Place, Problems

PAPERS = ("a4", "letter")
Progress = Callable[[str], None]


@dataclass
class BuildOptions:
    papers: tuple[str, ...] = PAPERS
    cards_dir: Path = CARDS_DIR
    layouts_dir: Path = LAYOUTS_DIR
    out_dir: Path = Path("output")
    bleed: float | None = None
    gutter: float = 0.0
    crop_marks: bool = True
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    png: bool = False
    dpi: float = 300.0
    workers: int = 0  # 0: one per core


@dataclass
class Composed:
    """A game ready to print: its database, the composed cards, the notes of imposition."""

    db: GameDatabase
    lib: LayoutLibrary
    composer: Composer
    faces: dict[str, list[Face]]
    pages: dict[str, list[tuple[str, Scene]]] = field(default_factory=dict)  # paper -> sheets


def compose_game(game_id: str, opts: BuildOptions, problems: Problems) -> Composed | None:
    """Read and compose everything of one game; None (with problems) if anything is wrong."""
    lib = load_library(opts.layouts_dir, problems)
    db = read_database(game_id, opts.cards_dir, problems)
    if db is None or problems:
        return None
    composer = Composer(lib, db, problems, bleed=opts.bleed, ink_saver=opts.ink_saver)
    faces = {cid: composer.faces(comp) for cid, comp in db.components.items()}
    for comp in db.components.values():
        if comp.size not in lib.sizes:
            problems.add(comp.place, f"component '{comp.id}': unknown size '{comp.size}'", "one of: " + ", ".join(lib.sizes))
    for card in db.all_cards():
        comp = db.components[card.component]
        for name, spec in comp.fields.items():
            if isinstance(spec, dict) and spec.get("type") == "symbol" and name in card.data \
                    and card.data[name] not in lib.symbols:
                problems.add(card.field_place(name), f"unknown symbol '{card.data[name]}'",
                             "one of: " + ", ".join(sorted(lib.symbols)))
    markers: list[tuple[str, Suit | Mark]] = [*(("suit", s) for s in db.suits.values()),
                                              *(("mark", m) for m in db.marks.values())]
    for kind, marker in markers:
        if marker.symbol not in lib.symbols:
            problems.add(marker.place, f"{kind} '{marker.id}': unknown symbol '{marker.symbol}'",
                         "one of: " + ", ".join(sorted(lib.symbols)))
    composed = Composed(db, lib, composer, faces)
    for paper in opts.papers:
        size = lib.papers.get(paper)
        if size is None:
            problems.add(Place(str(opts.layouts_dir / "sizes.yaml")), f"unknown paper '{paper}'",
                         "one of: " + ", ".join(lib.papers))
            continue
        sheets = []
        for sheet in db.sheets:
            scene = composer.page(sheet.layout, size.width, size.height, sheet.place, {"sheet": {"id": sheet.id, "name": sheet.name}})
            if scene is not None:
                sheets.append((sheet.name, scene))
        composed.pages[paper] = sheets
        plans_for(composed, paper, opts, problems)  # every card size must fit the paper
    return None if problems else composed


def _groups(composed: Composed) -> list[tuple[str, list[Face]]]:
    """Consecutive components of one size share sheets."""
    groups: list[tuple[str, list[Face]]] = []
    for cid, faces in composed.faces.items():
        size = composed.db.components[cid].size
        if groups and groups[-1][0] == size:
            groups[-1][1].extend(faces)
        else:
            groups.append((size, list(faces)))
    return groups


def plans_for(composed: Composed, paper: str, opts: BuildOptions, problems: Problems) -> dict[str, SheetPlan]:
    lib = composed.lib
    p = lib.papers[paper]
    bleed = lib.settings.bleed if opts.bleed is None else opts.bleed
    plans = {}
    for size_id in sorted({c.size for c in composed.db.components.values()}):
        size = lib.sizes.get(size_id)
        if size is None:  # reported with the component
            continue
        plan = plan_sheet(size.width, size.height, p.width, p.height, bleed=bleed, gutter=opts.gutter,
                          margin=lib.settings.page_margin)
        if plan is None:
            problems.add(Place(str(opts.layouts_dir / "sizes.yaml")),
                         f"a {size_id} card ({size.width:g} x {size.height:g} mm) does not fit on {paper}")
            continue
        plans[size_id] = plan
    return plans


def write_pdf(composed: Composed, paper: str, path: Path, opts: BuildOptions, problems: Problems,
              progress: Progress = lambda s: None) -> int:
    """Impose every card and sheet onto `paper` and write the PDF atomically; returns pages."""
    from generator.backends.pdf import PdfDocument  # the backend, only when drawing

    plans = plans_for(composed, paper, opts, problems)
    if problems:
        return 0
    p = composed.lib.papers[paper]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        doc = PdfDocument(tmp, title=f"{composed.db.title} — print-and-play ({paper})")
        for size_id, faces in _groups(composed):
            full = plans[size_id]
            for start in range(0, len(faces), full.per_sheet):
                batch = faces[start:start + full.per_sheet]
                plan = full.used(len(batch))
                names = list(dict.fromkeys(f.component.name for f in batch))  # in order, once each
                sheet_no = start // plan.per_sheet + 1
                doc.begin_page(p.width, p.height)
                if start == 0 or batch[0].component is not faces[start - 1].component:
                    doc.bookmark(f"{batch[0].component.name}", f"{batch[0].component.id}-{paper}-{start}")
                for i, face in enumerate(batch):
                    slot = plan.slot(i)
                    doc.draw(face.face, slot.x - face.face.bleed, slot.y - face.face.bleed, clip=plan.clip(slot))
                _furniture(doc, plan, opts, f"{composed.db.short_title} · {' + '.join(names)} · {sheet_no} · faces", 0.0)
                doc.end_page()
                doc.begin_page(p.width, p.height)
                for i, face in enumerate(batch):
                    slot = plan.back_slot(i, opts.back_offset)
                    doc.draw(face.back, slot.x - face.back.bleed, slot.y - face.back.bleed,
                             clip=_shift(plan.clip(plan.back_slot(i)), opts.back_offset))
                _furniture(doc, plan, opts, f"{composed.db.short_title} · {' + '.join(names)} · {sheet_no} · backs",
                           opts.back_offset[0])
                doc.end_page()
        for name, scene in composed.pages.get(paper, []):
            doc.begin_page(p.width, p.height)
            doc.bookmark(name, f"sheet-{name}-{paper}")
            doc.draw(scene)
            doc.end_page()
        front, back = calibration_pages(p.width, p.height, opts.back_offset)
        for i, scene in enumerate((front, back)):
            doc.begin_page(p.width, p.height)
            if i == 0:
                doc.bookmark("Duplex calibration", f"calibration-{paper}")
            doc.draw(scene)
            doc.end_page()
        pages = doc.pages
        doc.save()
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return pages


def _shift(box: tuple[float, float, float, float], off: tuple[float, float]) -> tuple[float, float, float, float]:
    return (box[0] + off[0], box[1] + off[1], box[2], box[3])


def _furniture(doc: object, plan: SheetPlan, opts: BuildOptions, label: str, x_shift: float) -> None:
    """Crop marks, and a small page label in the widest gap between the marks above the block."""
    items: list[Polyline | TextRun] = []
    if opts.crop_marks:
        for a, b in plan.crop_marks(x_shift):
            items.append(Polyline((a, b), stroke="#000000", width=MARK_WIDTH))
    margin = 5.0
    xs = [margin, *(x + x_shift for x in plan.trim_lines()[0]), plan.paper_w - margin]
    gap_start, gap_end = max(zip(xs, xs[1:], strict=False), key=lambda g: g[1] - g[0])
    room = gap_end - gap_start - 2.0
    size = 6.5
    width = metrics().width(label, "regular", size) / PT_PER_MM
    if width > room:
        size *= room / width
        width = room
    top = plan.y0 - plan.outer[1]  # the block's bleed edge
    if size >= 4.5 and top - margin >= 2.5:
        items.append(TextRun(gap_start + (gap_end - gap_start - width) / 2, min(margin + 2.4, top - 0.4), label,
                             "regular", size, "#666666"))
    doc.draw(Scene(plan.paper_w, plan.paper_h, items=list(items)))  # type: ignore[attr-defined]


# --- PNG export ----------------------------------------------------------------------------


def _render_png(job: tuple[Scene, str, float]) -> str:
    from generator.backends import png

    scene, path, dpi = job
    png.save_png(png.render(scene, dpi), path, dpi)
    return path


def export_pngs(composed: Composed, out: Path, opts: BuildOptions, progress: Progress = lambda s: None) -> int:
    """One PNG with bleed per card design, face and back, rendered on every core; atomic per folder.

    Names number the designs of a component 001, 002, ... without gaps, in print order, and
    say how many copies to print: `007-deuce_shoeprints-x2-face.png` (a print service's
    quantity per image); a design printed once has no `-x1`.
    """
    jobs: list[tuple[Scene, str, float]] = []
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for cid, faces in composed.faces.items():
            seen: set[str] = set()
            for face in faces:
                if face.card.id in seen:
                    continue
                seen.add(face.card.id)
                (tmp / cid).mkdir(exist_ok=True)
                stem = f"{len(seen):03d}-{face.card.id}"
                if face.card.copies > 1:
                    stem += f"-x{face.card.copies}"
                jobs.append((face.face, str(tmp / cid / f"{stem}-face.png"), opts.dpi))
                jobs.append((face.back, str(tmp / cid / f"{stem}-back.png"), opts.dpi))
        workers = opts.workers or os.cpu_count() or 1
        done = 0
        if workers > 1 and len(jobs) > 4:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for _ in pool.map(_render_png, jobs, chunksize=4):
                    done += 1
                    if done % 50 == 0:
                        progress(f"  png {done}/{len(jobs)}")
        else:
            for job in jobs:
                _render_png(job)
        old = out.with_name(f".{out.name}.old")
        if out.exists():
            if old.exists():
                shutil.rmtree(old)
            os.replace(out, old)
        os.replace(tmp, out)
        if old.exists():
            shutil.rmtree(old)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return len(jobs)
