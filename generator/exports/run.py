"""The exports a build was asked for, run in turn after its PDFs; what each wrote, said in one line."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from casebook.generator.exports import ExportOptions, count
from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed


def export_options(args: argparse.Namespace) -> ExportOptions:
    return ExportOptions(per_card=args.per_card, services=tuple(dict.fromkeys(args.service or ())), tts=args.tts,
                         tts_url=args.tts_url, split_sides=args.split_sides, fold=args.fold, cover=args.cover,
                         preview=args.preview)


def unknown_services(exports: ExportOptions, opts: BuildOptions) -> str | None:
    """A message if a requested service is not in layouts/services.yaml (asked before composing)."""
    if not exports.services:
        return None
    from casebook.generator.exports.services import SERVICES_FILE, service_ids

    known = service_ids(opts.layouts_dir)
    unknown = [s for s in exports.services if s not in known]
    if not unknown:
        return None
    return (f"unknown print service {', '.join(unknown)}; {opts.layouts_dir / SERVICES_FILE} has: "
            f"{', '.join(known) or 'none'}")


def run_exports(composed: Composed, game: str, opts: BuildOptions, exports: ExportOptions, problems: Problems,
                progress: Callable[[str], None]) -> list[str]:
    """Every requested export of one composed game; returns 'wrote ...' lines (problems on failure).

    What an export changed or left out is added to `exports.notes`, for the build to say once.
    """
    out = opts.out_dir / game
    lines: list[str] = []
    if exports.per_card:
        from casebook.generator.build import switches
        from casebook.generator.exports.cards import write_card_pdfs

        progress(f"{game}: per-card PDFs")
        files = write_card_pdfs(composed, out / "cards", backs=switches(composed, opts)[0])
        lines.append(f"wrote {out / 'cards'}/ ({count(len(files), 'PDF')}, one card side a page)")
    for paper in opts.papers:
        if exports.split_sides:
            from casebook.generator.exports.variants import write_split_sides

            progress(f"{game}: faces-only and backs-only {paper}")
            for path, pages in write_split_sides(composed, paper, out, game, opts, problems):
                lines.append(f"wrote {path} ({count(pages, 'page')})")
        if exports.fold and not problems:
            from casebook.generator.exports.variants import write_fold_pdf

            progress(f"{game}: fold-and-glue {paper}")
            path = out / f"{game}-{paper}-fold.pdf"
            pages = write_fold_pdf(composed, paper, path, opts, problems, exports.notes)
            if not problems:
                lines.append(f"wrote {path} ({count(pages, 'page')})")
        if exports.cover and not problems:
            from casebook.generator.exports.cover import write_cover

            path = out / f"{game}-{paper}-cover.pdf"
            lines.append(f"wrote {path} ({count(write_cover(composed, paper, path, opts, exports, game), 'page')})")
        if problems:
            return lines
    if exports.services:
        from casebook.generator.exports.services import write_services

        progress(f"{game}: print-service files ({', '.join(exports.services)})")
        for folder, written in write_services(composed, exports.services, out, opts, problems, exports.notes):
            lines.append(f"wrote {folder}/ ({written.describe()})")
        if problems:
            return lines
    if exports.tts:
        from casebook.generator.exports.tts import write_tts

        progress(f"{game}: Tabletop Simulator sheets")
        saved = write_tts(composed, out / "tts", opts, exports.tts_url, exports.notes)
        tiles = sum(1 for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile")
        decks = count(len(saved["ObjectStates"]) - tiles, "deck") + (f", {count(tiles, 'sheet')}" if tiles else "")
        lines.append(f"wrote {out / 'tts' / (game + '.json')} ({decks}; "
                     "copy it into Tabletop Simulator's Saved Objects folder)")
    if exports.preview:
        from casebook.generator.exports.preview import write_previews

        progress(f"{game}: previews")
        lines.append(f"wrote {out / 'preview'}/ ({count(len(write_previews(composed, out / 'preview', opts)), 'picture')})")
    return lines  # the notes stay in exports.notes: the build says each once (generator/notes.py)
