"""`casebook rules GAME QUERY...`: look up a rule, FAQ ruling or card text at the table."""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

from casebook.rules.problems import DataError, Problems


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
    p.add_argument("game", metavar="GAME", help="game id (a folder under cards/), or 'all' to search every game")
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


ALL_GAMES = "all"


def _load(game: str, cards_dir: Path) -> Any:
    """One game's database, or None after printing its problems to stderr."""
    import casebook.rules.games  # noqa: F401 - registers the games' own checks with read_database
    from casebook.rules.cards import read_database

    problems = Problems()
    try:
        db = read_database(game, cards_dir, problems)
    except DataError as exc:
        problems.extend(exc.problems)
        db = None
    except (OSError, ValueError) as exc:
        print(f"casebook rules: cannot read {game}: {exc}", file=sys.stderr)
        return None
    if problems.items:
        print(problems.format(), file=sys.stderr)
    if db is None or problems:
        print(f"{game}: the card database has {len(problems.errors)} problem(s); "
              "fix them, then search again", file=sys.stderr)
        return None
    return db


def run(args: argparse.Namespace) -> int:
    """Load the game (or every game), search and print the answers; 0 found, 1 none or bad data, 2 no such game."""
    from casebook.rules.cards import CARDS_DIR, game_folders
    from casebook.rules.search import RulesIndex

    cards_dir = args.cards or CARDS_DIR
    known = game_folders(cards_dir)
    across = args.game == ALL_GAMES and ALL_GAMES not in known
    if not across and args.game not in known:
        print(f"casebook rules: unknown game '{args.game}'; games in {cards_dir}: "
              f"{', '.join(known) or 'none'} (or '{ALL_GAMES}')", file=sys.stderr)
        return 2
    dbs = [db for db in (_load(game, cards_dir) for game in (known if across else [args.game])) if db is not None]
    if not dbs or (not across and len(dbs) != 1):
        return 1

    query = " ".join(args.query)
    index = RulesIndex.build(dbs)
    hits = index.search(query, game=None if across else dbs[0].id, limit=args.limit)
    if not hits:
        where = "any game" if across else (dbs[0].short_title or dbs[0].id)
        print(f"no matches for '{query}' in {where}")
        return 1
    width = _width()
    blocks = []
    for rank, hit in enumerate(hits, 1):
        lines = [f"{rank}. {hit.source_label}"]
        lines.extend(_indent(hit.entry.text, width))
        if hit.also:  # the label names the cards in short: here is each one
            lines.extend(_indent("Printed on: " + "; ".join(e.title for e in (hit.entry, *hit.also)), width))
            # twins that print the same rules text may differ in their facts (a restriction): show each one's own
            shown = set(hit.entry.text.splitlines())
            for twin in hit.also:
                own = [line for line in twin.text.splitlines() if line not in shown]
                if own:
                    lines.extend(_indent(f"{twin.title}: " + " ".join(own), width))
        blocks.append("\n".join(lines))
    print("\n\n".join(blocks))
    return 0
