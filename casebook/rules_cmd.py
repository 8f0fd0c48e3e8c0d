"""`casebook rules GAME QUERY...`: look up a rule, FAQ ruling or card text at the table."""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from pathlib import Path

from rules.problems import DataError, Problems


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `rules` subcommand to a subparsers object."""
    p = sub.add_parser("rules", help="search a game's rules, FAQ rulings and card texts",
                       description="Search a game's rules, FAQ rulings and card texts, best answer first.")
    p.add_argument("game", metavar="GAME", help="game id (a folder under cards/)")
    p.add_argument("query", nargs="+", metavar="QUERY", help="words to look for, e.g. deuce palace")
    p.add_argument("--limit", type=_positive, default=5, metavar="N", help="show at most N answers (default 5)")
    p.add_argument("--cards", type=Path, metavar="DIR", help="card databases folder (default: cards/)")


def _width() -> int:
    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def _indent(text: str, width: int, prefix: str = "   ") -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines():
        if paragraph.strip():
            lines.extend(textwrap.wrap(paragraph.strip(), width, initial_indent=prefix,
                                       subsequent_indent=prefix, break_on_hyphens=False))
    return lines


def run(args: argparse.Namespace) -> int:
    """Load the game, search it and print the answers; 0 found, 1 none or bad data, 2 no such game."""
    from rules.cards import CARDS_DIR, game_folders, read_database
    from rules.search import RulesIndex

    cards_dir = args.cards or CARDS_DIR
    known = game_folders(cards_dir)
    if args.game not in known:
        print(f"casebook rules: unknown game '{args.game}'; games in {cards_dir}: {', '.join(known) or 'none'}",
              file=sys.stderr)
        return 2
    problems = Problems()
    try:
        db = read_database(args.game, cards_dir, problems)
    except DataError as exc:
        problems.extend(exc.problems)
        db = None
    except (OSError, ValueError) as exc:
        print(f"casebook rules: cannot read {args.game}: {exc}", file=sys.stderr)
        return 1
    if problems.items:
        print(problems.format(), file=sys.stderr)
    if db is None or problems:
        print(f"{args.game}: the card database has {len(problems.errors)} problem(s); "
              "fix them, then search again", file=sys.stderr)
        return 1

    query = " ".join(args.query)
    hits = RulesIndex.build([db]).search(query, game=db.id, limit=args.limit)
    if not hits:
        print(f"no matches for '{query}' in {db.short_title or db.id}")
        return 1
    width = _width()
    blocks = []
    for rank, hit in enumerate(hits, 1):
        entry = hit.entry
        lines = [f"{rank}. [{entry.source}] {entry.title}"]
        lines.extend(_indent(entry.text, width))
        if hit.also:
            lines.extend(_indent("Same text on: " + "; ".join(e.title for e in hit.also), width))
        blocks.append("\n".join(lines))
    print("\n\n".join(blocks))
    return 0
