"""The cover page: what the set holds (a checklist to tick while cutting), which pages of the
PDF to print how, and the settings it was built with. Written as <game>-<paper>-cover.pdf,
beside the set rather than inside it, so no card stock is spent on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from casebook.generator.backends.fonts import metrics
from casebook.generator.exports import ExportOptions, atomic_file, count
from casebook.generator.legibility import GAME_TEXT_MIN
from casebook.generator.scene import Rect, Scene, TextRun
from casebook.generator.units import PT_PER_MM
from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed
    from casebook.rules.cards import Sheet

MARGIN = 15.0
INK = "#222222"
GREY = "#666666"


@dataclass(frozen=True)
class PageRange:
    """Pages first..last (1-based) of the set's PDF, what they hold and how to print them."""

    first: int
    last: int
    what: str
    how: str

    @property
    def pages(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def page_map(composed: Composed, paper: str, opts: BuildOptions) -> list[PageRange]:
    """The pages of <game>-<paper>.pdf in order, as write_pdf lays them out."""
    from casebook.generator.build import card_sheets, switches

    backs, calibration, _ = switches(composed, opts)
    sides = 2 if backs else 1
    out: list[PageRange] = []
    page = 1
    runs: list[tuple[str, int, dict[str, None]]] = []  # consecutive sheets of one size: how many, their components
    for card_sheet in card_sheets(composed, paper, opts, Problems()):
        if not runs or runs[-1][0] != card_sheet.size_id:
            runs.append((card_sheet.size_id, 0, {}))
        size_id, n, on = runs[-1]
        runs[-1] = (size_id, n + 1, on | dict.fromkeys(f.component.name for f in card_sheet.all_faces()))
    for _, sheets, on in runs:
        names = " + ".join(on)
        if backs:
            out.append(PageRange(page, page + 2 * sheets - 1, f"{names}: {count(sheets, 'sheet')}, faces then backs",
                                 "double-sided, flip on the long edge (or odd pages, then even pages fed again)"))
        else:
            out.append(PageRange(page, page + sheets - 1, f"{names}: {count(sheets, 'sheet')}, faces only",
                                 "single-sided"))
        page += sides * sheets
    for sheet, on_pages in sheet_pages(composed, paper):
        if len(on_pages) == 1:
            out.append(PageRange(page, page, on_pages[0], "single-sided, on plain paper"))
        else:  # a board tiled over pages: its assembly page, then the tiles
            tiles = on_pages[1:]
            out.append(PageRange(page, page + len(on_pages) - 1,
                                 f"{sheet.name}: assembly page, then {count(len(tiles), 'tile')} "
                                 f"{_tile(tiles[0])}–{_tile(tiles[-1])}",
                                 "single-sided, on plain paper; cut and glue the tiles as the assembly page shows"))
        page += len(on_pages)
    if calibration:
        out.append(PageRange(page, page + sides - 1, "Duplex calibration", "double-sided, once, to measure --back-offset"
                             if backs else "its front half: the backs are left out"))
    return out


def sheet_pages(composed: Composed, paper: str) -> list[tuple[Sheet, list[str]]]:
    """Each sheet with the names of its pages on `paper`: one, or a tiled board's assembly page and tiles."""
    pages = [name for name, _ in composed.pages.get(paper, [])]
    out = []
    at = 0
    for sheet in composed.db.sheets:
        names = []
        while at < len(pages) and (pages[at] == sheet.name or pages[at].startswith(f"{sheet.name} · ")):
            names.append(pages[at])
            at += 1
        if names:
            out.append((sheet, names))
    return out


def _tile(name: str) -> str:
    return name.rsplit(" · ", 1)[-1]


def whole_boards(composed: Composed) -> list[tuple[Sheet, str, str]]:
    """The one-page board files the build writes beside the set: (sheet, file name, paper and scale)."""
    from casebook.generator.board import LARGE_PAPERS, board_size, large_page

    out = []
    for sheet in composed.db.sheets:
        size = board_size(composed.lib, composed.composer, sheet)
        if size is None:
            continue
        for large in sorted(LARGE_PAPERS):  # A2 (1:1 if it fits) first
            lp = large_page(size.width, size.height, large, composed.lib.settings.page_margin)
            scale = "1:1" if lp.scale == 1.0 else f"at {lp.scale * 100:.0f} %"
            out.append((sheet, f"{composed.db.id}-{sheet.id}-{large}.pdf", f"{large.upper()}, {scale}"))
    return out


def contents(composed: Composed, paper: str) -> list[tuple[str, str]]:
    """Each component and sheet with its count and size: (what, detail)."""
    from casebook.generator.board import board_size

    lib = composed.lib
    rows = []
    for cid, faces in composed.faces.items():
        comp = composed.db.components[cid]
        size = lib.sizes.get(comp.size)
        shape = "round " if size is not None and size.round else ""
        dims = f"{size.width:g} x {size.height:g} mm" if size is not None else comp.size
        designs = len({f.card.id for f in faces})
        detail = f"{len(faces)} × {shape}{comp.size} ({dims})"
        if designs != len(faces):
            detail += f", {count(designs, 'design')}"
        rows.append((f"{comp.name} [{comp.code}]", detail))
    wholes = whole_boards(composed)  # written beside the set by every build (generator.board.write_boards)
    for sheet, names in sheet_pages(composed, paper):
        if len(names) == 1:
            rows.append((sheet.name, "1 sheet"))
            continue
        size = board_size(lib, composed.composer, sheet)
        dims = f"{size.width:g} x {size.height:g} mm board" if size is not None else "board"
        whole = [how.split(",")[0] for s, _, how in wholes if s is sheet]  # the files: under "Also in this folder"
        rows.append((sheet.name, f"{dims}, {count(len(names) - 1, 'tiled page')} {_tile(names[1])}–{_tile(names[-1])}"
                                 " + an assembly page" + (f"; or whole on {'/'.join(whole)}" if whole else "")))
    return rows


def settings(composed: Composed, paper: str, opts: BuildOptions) -> list[str]:
    """The print settings of this build, one line each, as a person would set them again."""
    lib = composed.lib
    bleed = lib.settings.bleed if opts.bleed is None else opts.bleed
    p = lib.papers[paper]
    return [
        f"Paper: {paper} ({p.width:g} x {p.height:g} mm); print at 100 % (actual size), not 'fit to page'",
        f"Bleed {bleed:g} mm; gutter {opts.gutter:g} mm ({'cards abut: one cut between neighbours' if not opts.gutter else 'cards spaced'})",
        f"Crop marks {'on' if opts.crop_marks else 'off'}; cut lines {'on' if opts.cut_lines else 'off'}; "
        f"ink saver {'on' if opts.ink_saver else 'off'}",
        f"Back offset {opts.back_offset[0]:g}, {opts.back_offset[1]:g} mm (rebuild with --back-offset X,Y to correct a duplex shift)",
    ] + ([f"Card sets: {', '.join(composed.db.sets[s].name for s in composed.sets)} "
          f"(rebuild with --set {','.join(composed.sets)}; --set all prints every set)"] if composed.sets else [])


class _Page:
    """Lines of text placed down a page, starting a new page when one is full."""

    def __init__(self, width: float, height: float):
        self.width, self.height = width, height
        self.scenes: list[Scene] = []
        self._new()

    def _new(self) -> None:
        self.scene = Scene(self.width, self.height)
        self.scenes.append(self.scene)
        self.y = MARGIN

    def line(self, text: str, size: float = 9.0, font: str = "regular", colour: str = INK, x: float = MARGIN,
             box: bool = False, gap: float = 1.35) -> None:
        """A line of text, wrapped at word breaks where it is longer than the page is wide (never shrunk).

        A wrapped line goes on under its own text, past the tick box; only one word wider than
        the whole page is set smaller, and never under GAME_TEXT_MIN.
        """
        side = size * 0.8 / PT_PER_MM if box else 0.0
        indent = side + 2.0 if box else 0.0
        room = self.width - MARGIN - x - indent
        for n, part in enumerate(_wrapped(text, font, size, room)):
            step = size * gap / PT_PER_MM
            if self.y + step > self.height - MARGIN:
                self._new()
            self.y += step
            if box and n == 0:
                self.scene.add(Rect(x, self.y - side, side, side, stroke=INK, width=0.25))
            width = metrics().width(part, font, size) / PT_PER_MM
            fitted = max(GAME_TEXT_MIN, size * room / width) if width > room else size
            self.scene.add(TextRun(x + indent, self.y, part, font, min(size, fitted), colour))

    def para(self, text: str, size: float = 8.5, colour: str = INK, x: float = MARGIN) -> None:
        """Text wrapped at word breaks to the page's width."""
        self.line(text, size, colour=colour, x=x)

    def space(self, mm: float) -> None:
        self.y += mm


def _wrapped(text: str, font: str, size: float, room_mm: float) -> list[str]:
    """The text broken at spaces into lines no wider than room_mm (a longer word alone on its line)."""
    room = room_mm * PT_PER_MM
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and metrics().width(trial, font, size) > room:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def cover_scenes(composed: Composed, paper: str, opts: BuildOptions, exports: ExportOptions, game: str) -> list[Scene]:
    """The cover as page scenes (one page for a set of today's size)."""
    p = composed.lib.papers[paper]
    page = _Page(p.width, p.height)
    db = composed.db
    page.line(db.title, 18, "bold")
    page.line(f"Print-and-play set · {paper} · made by Casebook", 9, colour=GREY)
    page.space(3)
    page.line("Contents — tick each as you cut it", 11, "bold")
    for what, detail in contents(composed, paper):
        page.line(f"{what}: {detail}", 9.5, box=True, gap=1.6)
    page.space(3)
    page.line(f"Pages of {game}-{paper}.pdf", 11, "bold")
    for entry in page_map(composed, paper, opts):
        page.line(f"{entry.pages}: {entry.what}", 9, "bold")
        page.para(entry.how, 8.5, x=MARGIN + 6)
    extra = []
    if exports.split_sides:
        extra.append(f"{game}-{paper}-faces.pdf and -backs.pdf: the card sheets' two sides as two files, for a "
                     "printer without duplex: print the faces, put the whole stack back in the tray turned over, print "
                     "the backs (page n of the one belongs behind page n of the other)")
    if exports.fold:
        extra.append(f"{game}-{paper}-fold.pdf: each card's face beside its back; cut out the pair, fold, glue")
    for sheet, name, how in whole_boards(composed):
        extra.append(f"{name}: {sheet.name} whole on one page ({how}), for a copy shop instead of the tiles")
    if extra:
        page.space(2)
        page.line("Also in this folder", 11, "bold")
        for text in extra:
            page.para(text, 8.5)
    page.space(3)
    page.line("Print settings of this build", 11, "bold")
    for text in settings(composed, paper, opts):
        page.para(text, 8.5)
    if db.credit:
        page.space(3)
        page.para(db.credit, 7.5, colour=GREY)
    return page.scenes


def write_cover(composed: Composed, paper: str, path: Path, opts: BuildOptions, exports: ExportOptions,
                game: str) -> int:
    """<game>-<paper>-cover.pdf, atomically; returns its pages."""
    from casebook.generator.backends.pdf import PdfDocument

    scenes = cover_scenes(composed, paper, opts, exports, game)
    with atomic_file(path) as tmp:
        doc = PdfDocument(tmp, title=f"{composed.db.title} — cover ({paper})", duplex=False)
        for scene in scenes:
            doc.begin_page(scene.width, scene.height)
            doc.draw(scene)
            doc.end_page()
        doc.save()
    return len(scenes)
