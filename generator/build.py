"""Build a game's print-and-play set: compose every card and sheet, impose, write atomically.

Nothing is written unless the whole game composed without an error, and every file
is written beside its target and renamed over it, so a failed build leaves the
previous output intact.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import casebook.rules.games  # noqa: F401 - registers the games' own checks with read_database
from casebook.generator.cache import SceneStore
from casebook.generator.calibration import calibration_pages
from casebook.generator.card_sets import SetChoiceError, chosen_sets, restrict
from casebook.generator.compose import Composer, Face
from casebook.generator.files import atomic_dir, atomic_file
from casebook.generator.furniture import cut_lines, draw_furniture
from casebook.generator.game_folder import add_own_folder
from casebook.generator.layouts import LAYOUTS_DIR, LayoutLibrary, Size, load_library
from casebook.generator.scene import Scene
from casebook.generator.sheets import SheetPlan, best_plan, fill_sheets
from casebook.rules.cards import CARDS_DIR, GameDatabase, Mark, Sheet, Suit, read_database
from casebook.rules.problems import Place, Problems

if TYPE_CHECKING:
    from casebook.generator.backends.pdf import PdfDocument

PAPERS = ("a4", "letter")
Progress = Callable[[str], None]


@dataclass
class BuildOptions:
    """What a build is asked for: papers, folders, bleed and gutter, marks, backs and the exports."""
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
    sides: str = "both"  # "faces" or "backs": one side only, for printers without duplex (exports/variants.py)
    cut_lines: bool = False  # guillotine lines edge to edge along the trims, on face pages
    sets: tuple[str, ...] = ()  # card sets to print (generator/card_sets.py); empty: the game's defaults
    backs: bool = True  # back pages (--no-backs; or game.yaml print: {backs: false})
    calibration: bool = True  # the two duplex calibration pages (--no-calibration)
    labels: bool = True  # the small label on each card sheet (--no-labels)
    game_folders: dict[str, Path] = field(default_factory=dict)  # game id -> a designer's folder (build PATH)


def cards_dir_of(game_id: str, opts: BuildOptions) -> Path:
    """Where a game's folder lies: beside its own folder for a game given by path, else the cards folder."""
    folder = opts.game_folders.get(game_id)
    return folder.parent if folder is not None else opts.cards_dir


@dataclass
class Composed:
    """A game ready to print: its database, the composed cards, the notes of imposition."""

    db: GameDatabase
    lib: LayoutLibrary
    composer: Composer
    faces: dict[str, list[Face]]  # their scenes are fetched from the composer's store as they are drawn
    pages: dict[str, list[tuple[str, Scene]]] = field(default_factory=dict)  # paper -> sheets
    repeated: set[str] = field(default_factory=set)  # scene keys printed more than once (a deck's backs)
    sets: tuple[str, ...] = ()  # the card sets printed (empty for a game without sets)


def compose_game(game_id: str, opts: BuildOptions, problems: Problems, store: SceneStore | None = None) -> Composed | None:
    """Read and compose everything of one game; None (with problems) if anything is wrong.

    Card scenes go into `store` (in memory if None); a store kept beside the output
    lets a rebuild compose only the cards whose scenes changed.
    """
    lib = load_library(opts.layouts_dir, problems)
    if game_id in opts.game_folders:  # its own layouts, sizes and symbols first
        add_own_folder(lib, opts.game_folders[game_id], problems)
    db = read_database(game_id, cards_dir_of(game_id, opts), problems)
    if db is None or problems:
        return None
    try:
        sets = chosen_sets(db, opts.sets)
    except SetChoiceError as exc:
        problems.add(db.place, str(exc))
        return None
    # templates see every card (a printed card may name one of a set left out); only the chosen are printed
    composer = Composer(lib, db, problems, bleed=opts.bleed, ink_saver=opts.ink_saver, store=store)
    db = restrict(db, sets)  # what the chosen sets print, for every output alike
    printed_sets = [{"id": s, "name": db.sets[s].name} for s in sets]  # for sheets that say what was printed
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
        if marker.symbol and marker.symbol not in lib.symbols:  # none named: only a layout that draws it is refused
            problems.add(marker.place, f"{kind} '{marker.id}': unknown symbol '{marker.symbol}'",
                         "one of: " + ", ".join(sorted(lib.symbols)))
    uses = Counter(key for group in faces.values() for f in group for key in (f.face_key, f.back_key))
    composed = Composed(db, lib, composer, faces, repeated={key for key, n in uses.items() if n > 1}, sets=sets)
    for paper in opts.papers:
        size = lib.papers.get(paper)
        if size is None:
            problems.add(Place(str(opts.layouts_dir / "sizes.yaml")), f"unknown paper '{paper}'",
                         "one of: " + ", ".join(lib.papers))
            continue
        sheets = []
        for sheet in db.sheets:
            board = _board_pages(composer, lib, sheet, size, problems)  # a sheet with a size of its own: tiled
            if board is not None:
                sheets.extend(board)
                continue
            scene = composer.page(sheet.layout, size.width, size.height, sheet.place,
                                  {"sheet": {"id": sheet.id, "name": sheet.name}, "sets": printed_sets})
            if scene is not None:
                sheets.append((sheet.name, scene))
        composed.pages[paper] = sheets
        plans_for(composed, paper, opts, problems)  # every card size must fit the paper
    composer.forget_cards()  # every card and sheet is composed: what only templates read is let go while drawing
    return None if problems else composed


def _board_pages(composer: Composer, lib: LayoutLibrary, sheet: Sheet, paper: Size,
                 problems: Problems) -> list[tuple[str, Scene]] | None:
    """board.board_pages for a sheet whose layout declares a size (a board); None, importing nothing, for a page."""
    if not is_board(lib, sheet, problems):
        return None
    from casebook.generator.board import board_pages

    return board_pages(composer, lib, sheet, paper, problems)


def is_board(lib: LayoutLibrary, sheet: Sheet, problems: Problems) -> bool:
    """Whether a sheet's layout declares a size of its own (generator/board.py lays it out)."""
    layout = lib.layout(sheet.layout, problems, sheet.place)
    return layout is not None and layout.size is not None


def size_groups(composed: Composed) -> list[tuple[str, list[Face]]]:
    """Consecutive components of one size share sheets."""
    groups: list[tuple[str, list[Face]]] = []
    for cid, faces in composed.faces.items():
        size = composed.db.components[cid].size
        if groups and groups[-1][0] == size:
            groups[-1][1].extend(faces)
        else:
            groups.append((size, list(faces)))
    return groups


def switches(composed: Composed, opts: BuildOptions) -> tuple[bool, bool, bool]:
    """Whether the PDFs carry backs, calibration pages and sheet labels: the --no- flags, then game.yaml's print:."""
    on = composed.db.printing
    return (opts.backs and on.get("backs", True), opts.calibration and on.get("calibration", True),
            opts.labels and on.get("labels", True))


def plans_for(composed: Composed, paper: str, opts: BuildOptions, problems: Problems) -> dict[str, SheetPlan]:
    lib = composed.lib
    plans = {}
    for size_id in sorted({c.size for c in composed.db.components.values()}):
        size = lib.sizes.get(size_id)
        if size is None:  # reported with the component
            continue
        plan = _size_plan(composed, paper, opts, size_id, opts.gutter)
        if plan is None:
            problems.add(Place(str(opts.layouts_dir / "sizes.yaml")),
                         f"a {size_id} card ({size.width:g} x {size.height:g} mm) does not fit on {paper}")
            continue
        plans[size_id] = plan
    return plans


def _size_plan(composed: Composed, paper: str, opts: BuildOptions, size_id: str, gutter: float) -> SheetPlan | None:
    lib = composed.lib
    p, size = lib.papers[paper], lib.sizes[size_id]
    bleed = lib.settings.bleed if opts.bleed is None else opts.bleed
    labelled = switches(composed, opts)[2]  # without labels no room is kept for one
    return best_plan(size.width, size.height, p.width, p.height, bleed=bleed, gutter=gutter,
                     margin=lib.settings.page_margin, labels=labelled)


def write_pdf(composed: Composed, paper: str, path: Path, opts: BuildOptions, problems: Problems,
              progress: Progress = lambda s: None) -> int:
    """Impose every card and sheet onto `paper` and write the PDF atomically; returns pages."""
    from casebook.generator.backends.pdf import PdfDocument  # the backend, only when drawing

    plans = plans_for(composed, paper, opts, problems)
    if problems:
        return 0
    sheets = card_sheets(composed, paper, opts, problems)
    for size_id, plan in plans.items():
        for note in plan.notes:  # every setting the imposition changed by itself, said
            progress(f"note: {paper}, {size_id} cards: {note}")
    p = composed.lib.papers[paper]
    backs, calibration, labelled = switches(composed, opts)
    with atomic_file(path) as tmp:
        doc = PdfDocument(tmp, title=f"{composed.db.title}{_sets_tag(composed)} — print-and-play ({paper})",
                          store=composed.composer.store)  # pages kept compressed for the next build
        bookmarked: set[str] = set()
        page_inputs = _page_inputs(composed, paper, opts)
        plan_texts: dict[int, tuple[SheetPlan, str]] = {}
        for n, sheet in enumerate(sheets):
            label = f"{composed.db.short_title}{_sets_tag(composed)} · {sheet.label}"
            if opts.sides != "backs":
                doc.begin_page(sheet.plan.paper_w, sheet.plan.paper_h)

                def mark_components(faces: list[Face], n: int = n) -> None:
                    for comp in (f.component for f in faces):
                        if comp.id not in bookmarked:
                            bookmarked.add(comp.id)
                            doc.bookmark(comp.name, f"{comp.id}-{paper}-{n}")

                key = _page_key(page_inputs, "faces", sheet, label, composed, plan_texts)
                if doc.replay_page(key):  # drawn by the build before, this document as it was then: taken whole
                    mark_components(sheet.all_faces())
                else:
                    mark = doc.page_mark()
                    for part, span in sheet.parts():  # its own cards, then the blocks placed below them
                        plan, batch = part.plan, part.faces
                        mark_components(batch)
                        for i, face in enumerate(batch):
                            slot = plan.slot(i)
                            _draw_card(doc, composed, face.face_key, slot.x, slot.y, plan.clip(slot))
                        if opts.cut_lines:
                            doc.draw(cut_lines(plan, span))
                        draw_furniture(doc, plan, opts.crop_marks,
                                       f"{label} · faces" if labelled and part is sheet else "",
                                       (0.0, 0.0), composed.composer.store)
                    doc.keep_page(key, mark)
                doc.end_page()
            if opts.sides != "faces" and backs:
                doc.begin_page(sheet.plan.paper_w, sheet.plan.paper_h)
                key = _page_key(page_inputs, "backs", sheet, label, composed, plan_texts)
                if not doc.replay_page(key):
                    mark = doc.page_mark()
                    for part, _ in sheet.parts():
                        plan, batch = part.plan, part.faces
                        shift = plan.page_offset(opts.back_offset)
                        for i, face in enumerate(batch):
                            slot = plan.back_slot(i, opts.back_offset)
                            _draw_card(doc, composed, face.back_key, slot.x, slot.y,
                                       plan.back_clip(i, opts.back_offset))
                        draw_furniture(doc, plan.for_backs(), opts.crop_marks,
                                       f"{label} · backs" if labelled and part is sheet else "", shift,
                                       composed.composer.store)
                    doc.keep_page(key, mark)
                doc.end_page()
        sheets.clear()  # drawn: a deck's thousands of sheets are not held while the file is written
        for name, scene in composed.pages.get(paper, []):
            doc.begin_page(scene.width, scene.height)  # a tiled board's pages may lie landscape
            if opts.sides != "backs":  # backs only: a blank page, so page n of both files is one sheet
                doc.bookmark(name, f"sheet-{name}-{paper}")
                doc.draw(scene)
            doc.end_page()
        drawn: tuple[Scene, Scene] | None = None  # made only if a page is not taken from the build before
        for i in range(2) if calibration else ():
            if (i == 0 and opts.sides == "backs") or (i == 1 and (opts.sides == "faces" or not backs)):
                continue  # one side only: its half of the calibration
            doc.begin_page(p.width, p.height)
            if i == 0:
                doc.bookmark("Duplex calibration", f"calibration-{paper}")
            # what it draws: the paper and the back offset (in page_inputs), and the code (calibration.py in _PAGE_CODE)
            key = "calibration:" + hashlib.sha1(repr((page_inputs, i, p.width, p.height)).encode()).hexdigest()
            if not doc.replay_page(key):
                mark = doc.page_mark()
                drawn = drawn or calibration_pages(p.width, p.height, opts.back_offset)
                doc.draw(drawn[i])
                doc.keep_page(key, mark)
            doc.end_page()
        pages = doc.pages
        doc.save()
    return pages


# what draws a sheet's page besides the scenes, and the calibration pages
_PAGE_CODE = ("build.py", "calibration.py", "furniture.py", "sheets.py", "text.py")
_page_code: str | None = None  # a digest of the code that draws a page (read once a process)


def _page_inputs(composed: Composed, paper: str, opts: BuildOptions) -> str:
    """What every card page of a PDF shares that its drawing depends on: the code (the generator's, the backend's,
    what imposes and marks a sheet), the library (fonts, sizes, print settings), the paper and the options."""
    from casebook.generator.backends.recorded import backend_fingerprint
    from casebook.generator.cache import code_fingerprint, files_digest

    global _page_code
    if _page_code is None:
        _page_code = files_digest(f"{code_fingerprint()} {backend_fingerprint()}", _PAGE_CODE)
    library = composed.composer.library_fingerprint  # worked out once by the composer (its scenes' keys hold it)
    sha = hashlib.sha1(f"{_page_code} {library}".encode())
    sha.update(repr((paper, composed.composer.bleed, opts.cut_lines, opts.crop_marks, opts.back_offset,
                     switches(composed, opts))).encode())
    return sha.hexdigest()


def _page_key(inputs: str, side: str, sheet: CardSheet, label: str, composed: Composed,
              plans: dict[int, tuple[SheetPlan, str]]) -> str:
    """A digest of everything a sheet's page of faces or backs draws: each part's plan, span and cards (by the
    content keys of the side's scenes, and whether each is placed as a form), its label; with what every page
    shares. A page of backs does not change with its faces. `plans`: each plan's repr by its id, worked out
    once for the sheets of a PDF that share the plan (the plan held, so that its id is not another's)."""
    keys = [[f.face_key if side == "faces" else f.back_key for f in part.faces] for part, _ in sheet.parts()]
    texts = []
    for part, _ in sheet.parts():
        kept = plans.get(id(part.plan))
        if kept is None:
            kept = plans[id(part.plan)] = (part.plan, repr(part.plan))
        texts.append(kept[1])
    parts = [(text, span, [(key, key in composed.repeated) for key in part_keys])
             for (_, span), text, part_keys in zip(sheet.parts(), texts, keys, strict=True)]
    return "sheetpage:" + hashlib.sha1(repr((inputs, side, label, parts)).encode()).hexdigest()


def _sets_tag(composed: Composed) -> str:
    """The printed sets on a page label, ` (base+advanced)`; nothing for a game without sets."""
    return f" ({'+'.join(composed.sets)})" if composed.sets else ""


def _draw_card(doc: PdfDocument, composed: Composed, key: str, x: float, y: float,
               clip: tuple[float, float, float, float]) -> None:
    """A card's scene with its trim's top-left at (x, y).

    One that recurs (a deck's backs) is drawn once a document and placed by reference; every one is
    replayed from the drawing an earlier document or build kept in the store, or drawn and kept.
    """
    from casebook.generator.backends.recorded import draw_recorded, draw_reused_recorded

    store, bleed = composed.composer.store, composed.composer.bleed
    if key in composed.repeated:
        draw_reused_recorded(doc, store, key, x - bleed, y - bleed, clip=clip)
    else:
        draw_recorded(doc, store, key, x - bleed, y - bleed, clip)


@dataclass
class CardSheet:
    """One sheet of cards: the plan it is laid out on, its cards in slot order, what its label says."""

    size_id: str
    plan: SheetPlan
    faces: list[Face]
    label: str = ""
    riders: list[CardSheet] = field(default_factory=list)  # blocks of other cards placed below its own (SheetPlan.below)

    def parts(self) -> list[tuple[CardSheet, tuple[float, float]]]:
        """Its own block, then each placed below it, with the part of the page each one's cut lines run down."""
        blocks = [self, *self.riders]
        cuts = [0.0, *(a.plan.parting(b.plan) for a, b in zip(blocks, blocks[1:], strict=False)), self.plan.paper_h]
        return [(block, (cuts[i], cuts[i + 1])) for i, block in enumerate(blocks)]

    def all_faces(self) -> list[Face]:
        return [face for part, _ in self.parts() for face in part.faces]


def card_sheets(composed: Composed, paper: str, opts: BuildOptions, problems: Problems) -> list[CardSheet]:
    """Every card sheet of the PDF in page order, each with its own plan (a partly filled one marks only its cards).

    The cards of a size share sheets, grouped by back (sheets.fill_sheets): abutting cards have the
    same back; cards with different backs share only a sheet that gives each its own bleed.
    """
    plans = plans_for(composed, paper, opts, problems)
    sheets: list[CardSheet] = []
    for size_id, groups in back_groups(composed):
        plain = plans.get(size_id)
        if plain is None:  # reported by plans_for
            continue
        spaced = None if plain.gutter >= 2 * plain.bleed else \
            _size_plan(composed, paper, opts, size_id, 2 * plain.bleed)
        for plan, batch in fill_sheets(groups, plain, spaced):
            sheets.append(CardSheet(size_id, plan, batch))
    sheets = _placed_below(sheets)
    for sheet, label in zip(sheets, sheet_labels([s.all_faces() for s in sheets]), strict=True):
        sheet.label = label
    return sheets


def _placed_below(sheets: list[CardSheet]) -> list[CardSheet]:
    """Each sheet whose cards fit in the free rows below an earlier sheet's cards, moved there (a page pair less).

    A lone token, the last few pieces of a size, ride on a part-filled sheet of cards, each
    block with its own bleed and marks, parted from the block above by a cut across the page.
    """
    kept: list[CardSheet] = []
    # the sheets kept, by the plan of their last block (whether a block fits below depends on the two plans alone):
    # a deck of thousands of sheets shares a few plans, so each sheet asks each plan once, not every sheet before it
    by_last: dict[int, tuple[SheetPlan, list[int]]] = {}
    for sheet in sheets:
        nearest: tuple[int, SheetPlan] | None = None  # the nearest first: pieces stay near their place in the PDF
        for last_plan, hosts in by_last.values():
            if hosts and (nearest is None or hosts[-1] > nearest[0]):
                placed = last_plan.below(sheet.plan)
                if placed is not None:
                    nearest = (hosts[-1], placed)
        if nearest is None:
            by_last.setdefault(id(sheet.plan), (sheet.plan, []))[1].append(len(kept))
            kept.append(sheet)
            continue
        at, placed = nearest
        host = kept[at]
        by_last[id((host.riders or [host])[-1].plan)][1].remove(at)
        if not host.riders:  # its label keeps above the blocks below
            host.plan = replace(host.plan, clear_below=host.plan.parting(placed))
        host.riders.append(CardSheet(sheet.size_id, placed, sheet.faces))
        hosts = by_last.setdefault(id(placed), (placed, []))[1]
        hosts.append(at)
        hosts.sort()
    return kept


def back_groups(composed: Composed) -> list[tuple[str, list[list[Face]]]]:
    """The printed cards by size, then by what their backs look like, each in the order they first come."""
    looks: dict[str, str] = {}  # back key -> a digest of what the back shows (keys differ where a layout reads the card)
    by_size: dict[str, dict[str, list[Face]]] = {}
    store = composed.composer.store
    for cid, faces in composed.faces.items():
        size = composed.db.components[cid].size
        groups = by_size.setdefault(size, {})
        for face in faces:
            look = looks.get(face.back_key)
            if look is None:
                back = store.get(face.back_key)
                look = looks[face.back_key] = hashlib.sha1(
                    repr((back.width, back.height, back.bleed, back.items)).encode()).hexdigest()
            groups.setdefault(look, []).append(face)
    return [(size, list(groups.values())) for size, groups in by_size.items()]


def sheet_labels(sheets: list[list[Face]]) -> list[str]:
    """Each sheet's label: every component on it, with the sheet's number among that component's."""
    on: dict[str, list[int]] = {}  # component name -> the sheets it appears on
    for n, batch in enumerate(sheets):
        for name in dict.fromkeys(f.component.name for f in batch):
            on.setdefault(name, []).append(n)
    return [" + ".join(f"{name} · sheet {on[name].index(n) + 1} of {len(on[name])}"
                       for name in dict.fromkeys(f.component.name for f in batch))
            for n, batch in enumerate(sheets)]


# --- PNG export ----------------------------------------------------------------------------


def _render_png(job: tuple[Scene, str, float]) -> str:
    from casebook.generator.backends import png

    scene, path, dpi = job
    png.save_png(png.render(scene, dpi), path, dpi)
    return path


def export_pngs(composed: Composed, out: Path, opts: BuildOptions, progress: Progress = lambda s: None) -> int:
    """One PNG with bleed per card design, face and back, rendered on every core; atomic per folder.

    Names number the designs of a component 001, 002, ... without gaps, in print order, and
    say how many copies to print: `007-deuce_shoeprints-x2-face.png` (a print service's
    quantity per image); a design printed once has no `-x1`.
    """
    files: list[tuple[str, str]] = []  # (scene key, path below out)
    with atomic_dir(out) as tmp:
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
                files.append((face.face_key, f"{cid}/{stem}-face.png"))
                files.append((face.back_key, f"{cid}/{stem}-back.png"))
        drawn = _render_files(composed, files, out, tmp, opts, progress)
        progress(f"  {drawn} of {len(files)} PNGs drawn; the others are unchanged or show the same image")
    return len(files)


PNG_MANIFEST = ".scenes.json"  # which scene, at which dpi, each PNG shows: what the next export may keep


def _render_files(composed: Composed, files: list[tuple[str, str]], out: Path, tmp: Path, opts: BuildOptions,
                  progress: Progress) -> int:
    """Write every PNG into tmp, drawing each scene once; returns how many were drawn.

    A scene shown by several files (a deck's backs) is drawn once and linked; one the
    previous export in `out` drew at the same dpi is linked from there, not drawn again.
    """
    try:
        previous = json.loads((out / PNG_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        previous = {}
    earlier: dict[str, str] = {}
    for name, tag in previous.items() if isinstance(previous, dict) else ():
        earlier.setdefault(str(tag), str(name))
    first: dict[str, str] = {}  # scene key -> the file that shows it first
    jobs: list[tuple[str, str]] = []
    copies: list[tuple[str, str]] = []
    for key, name in files:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        if key in first:
            copies.append((first[key], name))
            continue
        first[key] = name
        kept = earlier.get(f"{key}@{opts.dpi:g}")
        if kept is not None and (out / kept).is_file():
            _link(out / kept, tmp / name)
        else:
            jobs.append((key, name))
    workers = min(opts.workers or os.cpu_count() or 1, len(jobs))
    store = composed.composer.store

    def batches() -> Iterator[list[tuple[Scene, str, float]]]:
        for start in range(0, len(jobs), 64):  # a batch of scenes at a time: memory stays flat
            yield [(store.get(key), str(tmp / name), opts.dpi) for key, name in jobs[start:start + 64]]

    done = 0
    if workers > 1 and len(jobs) > 4:
        # multiprocessing: imported only when PNGs are drawn
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            for batch in batches():
                done += sum(1 for _ in pool.map(_render_png, batch, chunksize=4))
                progress(f"  png {done}/{len(jobs)} drawn")
    else:
        for batch in batches():
            for job in batch:
                _render_png(job)
    for source, name in copies:
        _link(tmp / source, tmp / name)
    (tmp / PNG_MANIFEST).write_text(json.dumps({name: f"{key}@{opts.dpi:g}" for key, name in files}, indent=0),
                                    encoding="utf-8")
    return len(jobs)


def _link(source: Path, target: Path) -> None:
    """The same image under another name: a hard link where the file system has them, else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
