"""casebook: print-and-play sets for deduction card games, their rules, and a table companion.

  build     print-and-play PDFs (and PNGs, print-service files, ...) into ./output
  validate  check card databases and their layouts
  new       make a folder for a game of your own that builds at once
  replay    the state and scores a game log leads to
  rules     answer a rules question from a game's rules, rulings and cards
  app       open the table companion (needs the app extra)
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import casebook.generator.classcode  # noqa: F401 - before the first dataclass: their methods compiled once, kept
from casebook.generator.scene import PictureChanged
from casebook.rules.problems import Problems

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions


MAX_BACK_OFFSET = 5.0  # mm: a duplex printer that shifts more than this needs servicing, not a correction


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not X,Y in mm (for example 0.5,-1)") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise argparse.ArgumentTypeError(
            f"'{text}': each of X and Y must lie between -{MAX_BACK_OFFSET:g} and {MAX_BACK_OFFSET:g} mm "
            "(read it off the duplex calibration page; a larger shift means the paper feeds askew)")
    return (x + 0.0, y + 0.0)


def _mm(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of mm") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of mm")
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


COMMANDS = ("build", "validate", "replay", "new", "app", "rules")
# the build's flags that ask for an export (generator/exports/): without one, a build never imports the exports' code
EXPORT_FLAGS = ("per_card", "service", "tts", "split_sides", "fold", "cover", "preview")


def add_export_arguments(b: argparse.ArgumentParser) -> None:
    """The build command's export flags (EXPORT_FLAGS, --tts-url for --tts, and --cut-lines, which is not an export)."""
    b.add_argument("--per-card", action="store_true",
                   help="also one PDF per component, one card side a page, TrimBox/BleedBox set (cards/)")
    b.add_argument("--service", action="append", metavar="NAME",
                   help="also upload files for a print service: tgc, mpc, drivethru (layouts/services.yaml)")
    b.add_argument("--tts", action="store_true", help="also Tabletop Simulator deck sheets and a saved object (tts/)")
    b.add_argument("--tts-url", metavar="URL", help="where the TTS sheets will be hosted (default: file:/// paths)")
    b.add_argument("--split-sides", action="store_true",
                   help="also faces-only and backs-only PDFs, for printers without duplex")
    b.add_argument("--fold", action="store_true", help="also a fold-and-glue PDF: each face beside its back")
    b.add_argument("--cut-lines", action="store_true",
                   help="lines across the sheet along every trim, for a guillotine")
    b.add_argument("--cover", action="store_true",
                   help="also a cover page: contents to tick, which pages to print how, the settings")
    b.add_argument("--preview", action="store_true", help="also one fan picture of each component (preview/)")


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the command (one of COMMANDS), the options of that command alone are set up
    (a build does not set up, nor import, the rules lookup's): every command is still named, so that what the
    parser says of a mistake is the same."""
    ap = argparse.ArgumentParser(prog="casebook", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)

    def wanted(name: str) -> bool:
        if command in (None, name):
            return True
        sub.add_parser(name)  # named only: its options are not asked for
        return False

    if wanted("build"):
        _build_args(sub.add_parser("build", help="build print-and-play PDFs (and PNGs) into output/"))
    if wanted("validate"):
        _data_args(sub.add_parser("validate", help="check card databases and their layouts"))
    if wanted("replay"):
        r = sub.add_parser("replay", help="replay a game log and print the state and scores")
        r.add_argument("log", type=Path, metavar="LOG", help="a game log (YAML or JSON, docs/game-log.md)")
        r.add_argument("--until", type=int, metavar="N", help="stop after event N")
        r.add_argument("--json", action="store_true", help="print the state as JSON")
        r.add_argument("--cards", type=Path, help="card databases folder (default: the games casebook ships)")
    if wanted("new"):
        n = sub.add_parser("new", help="make a folder for a game of your own (game.yaml, cards.csv, layouts) that "
                           "builds at once")
        n.add_argument("folder", type=Path, metavar="GAME", help="the folder to make; its name is the game's id")
    if wanted("app"):
        sub.add_parser("app", help="open the table companion (needs the app extra: pip install 'casebook[app]')")
    if wanted("rules"):
        try:
            from casebook import rules_cmd
        except ImportError:  # pragma: no cover - the search command is optional while it is built
            pass
        else:
            rules_cmd.add_parser(sub)
    return ap


def _data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="game ids, or folders holding a game.yaml (default: every game in the cards folder)")
    p.add_argument("--cards", type=Path, help="card databases folder (default: the five games casebook ships)")
    p.add_argument("--layouts", type=Path, help="layouts folder (default: the layouts casebook ships)")


def _build_args(b: argparse.ArgumentParser) -> None:
    _data_args(b)
    b.add_argument("--paper", choices=["a4", "letter"], action="append", help="paper (default: both)")
    b.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output/)")
    b.add_argument("--bleed", type=_mm, help="bleed in mm (default 3)")
    b.add_argument("--gutter", type=_mm, default=0.0, help="space between cards in mm (default 0: cards abut)")
    b.add_argument("--no-crop-marks", action="store_true", help="leave out crop marks")
    b.add_argument("--no-backs", action="store_true", help="leave out the back pages (or game.yaml print: {backs: false})")
    b.add_argument("--no-calibration", action="store_true", help="leave out the two duplex calibration pages")
    b.add_argument("--no-labels", action="store_true", help="leave out the small label on each card sheet")
    b.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                   help="shift back pages by X,Y mm to correct a duplex printer")
    b.add_argument("--ink-saver", action="store_true", help="light backgrounds, for greyscale or low ink")
    b.add_argument("--png", action="store_true", help="also one PNG per card face and back (with bleed)")
    b.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300)")
    b.add_argument("--set", dest="sets", action="append", metavar="SET[,SET...]",
                   help="card sets to print, for a game that has them (default: the game's own; 'all': every set)")
    b.add_argument("--watch", action="store_true",
                   help="keep going: rebuild when a card or layout file changes (Ctrl-C stops)")
    add_export_arguments(b)
    b.add_argument("--preview-width", type=int, metavar="PX",
                   help="with --preview: the set's picture (preview/GAME.png) this many pixels wide (default 1200)")


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the whole process (the `casebook` script, `python -m casebook`): it ends when this returns
        try:
            return _main(None)
        finally:
            # what the command built stays alive until the interpreter ends, and its shutdown would walk every one
            # of those objects in a last garbage collection (a tenth of a build's CPU): nothing is left to collect
            # that matters once the command is done; files are closed and flushed as before
            gc.disable()
            gc.freeze()
    return _main(argv)


def _main(argv: list[str] | None) -> int:
    given = sys.argv[1:] if argv is None else argv
    args = parser(given[0] if given and given[0] in COMMANDS else None).parse_args(argv)
    try:
        if args.command == "build":
            return build(args)
        if args.command == "replay":
            return replay(args)
        if args.command == "new":
            from casebook.scaffold import new_game

            return new_game(args.folder)
        if args.command == "app":
            try:
                from casebook.companion.app import main as app_main
            except ImportError as exc:
                print(f"casebook: the companion needs Kivy ({exc}); install it with: pip install 'casebook[app]'",
                      file=sys.stderr)
                return 2
            return app_main()
        if args.command == "rules":
            from casebook import rules_cmd

            return rules_cmd.run(args)
        return validate(args)
    except BrokenPipeError:  # the reader left (`casebook rules all tie | head`): stop quietly, as cat does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 1
    except KeyboardInterrupt:
        print("casebook: interrupted; no output was changed", file=sys.stderr)
        return 0 if getattr(args, "watch", False) else 130  # Ctrl-C is how a watch ends
    except PictureChanged as exc:  # an image saved again while the build drew it
        print(f"casebook: {exc}; the file being written was left as it was", file=sys.stderr)
        return 1


def _options(args: argparse.Namespace) -> BuildOptions:
    from casebook.generator.build import BuildOptions

    opts = BuildOptions()
    if args.cards:
        opts.cards_dir = args.cards
    if args.layouts:
        opts.layouts_dir = args.layouts
    return opts


def _games(args: argparse.Namespace, opts: BuildOptions) -> list[str] | None:
    """The game ids to act on; a GAME that is a folder holding game.yaml is noted in opts.game_folders."""
    from casebook.generator.game_folder import game_folder
    from casebook.rules.cards import game_folders

    known = game_folders(opts.cards_dir)
    games: list[str] = []
    unknown: list[str] = []
    for arg in args.games or known:
        folder = game_folder(arg) if args.games else None
        if folder is None:
            (games if arg in known else unknown).append(arg)
        elif folder.name in opts.game_folders or folder.name in games:
            print(f"casebook: two games named {folder.name} (the folder {folder} and another); build them one at a time",
                  file=sys.stderr)
            return None
        else:
            opts.game_folders[folder.name] = folder
            games.append(folder.name)
    if not games and not unknown:
        print(f"casebook: no game found: {opts.cards_dir} holds no folder with a game.yaml. Name a game folder "
              "(casebook build FOLDER), point --cards at a folder of games, or make a game with: casebook new FOLDER",
              file=sys.stderr)
        return None
    if unknown:
        print(f"casebook: unknown game {', '.join(unknown)}; games in {opts.cards_dir}: {', '.join(known) or 'none'}; "
              "or a folder holding a game.yaml (casebook new FOLDER makes one)", file=sys.stderr)
        return None
    return games


def _refused_sets(games: list[str], opts: BuildOptions) -> str | None:
    """Why some game cannot print the chosen sets, before anything is built; None if all can."""
    import casebook.rules.games  # noqa: F401 - registers the games' own checks with read_database
    from casebook.generator.build import cards_dir_of
    from casebook.generator.card_sets import SetChoiceError, chosen_sets, no_sets
    from casebook.rules.cards import read_database

    if not opts.sets:
        return "name one or more card sets, e.g. --set base,advanced"
    reasons = []
    for game in games:
        db = read_database(game, cards_dir_of(game, opts), Problems())  # a broken database is reported by the build
        if db is not None and not db.sets:  # even 'all': asking a game without sets for sets is a mistake
            reasons.append(no_sets(game))
            continue
        try:
            if db is not None:
                chosen_sets(db, opts.sets)
        except SetChoiceError as exc:
            reasons.append(str(exc))
    return "; ".join(reasons) or None


def _refused_preview(args: argparse.Namespace) -> str | None:
    """Why the preview options cannot be used as given (None if they can)."""
    if args.preview_width is None:
        return None
    from casebook.generator.backends.preview import WIDTHS

    if not args.preview:
        return (f"--preview-width {args.preview_width}: it sets the width of the set's picture, which only --preview "
                f"draws; add --preview (casebook build GAME --preview --preview-width {args.preview_width})")
    low, high = WIDTHS
    if not low <= args.preview_width <= high:
        return (f"--preview-width {args.preview_width}: the set's picture is {low} to {high} pixels wide; "
                f"give a width in that range (default 1200)")
    return None


def validate(args: argparse.Namespace) -> int:
    from casebook.generator.build import compose_game
    from casebook.generator.card_sets import EVERY_SET

    opts = _options(args)
    opts.sets = (EVERY_SET,)  # every card of every set is composed and checked
    games = _games(args, opts)
    if games is None:
        return 2
    failed = 0
    for game in games:
        problems = Problems()
        composed = compose_game(game, opts, problems)
        if problems.items:
            print(problems.format())
        if composed is None or problems:
            failed += 1
            print(f"{game}: {len(problems.errors)} problem(s)")
        else:
            cards = sum(len(f) for f in composed.faces.values())
            counted = ((cards, "cards"), (len(composed.db.rules), "rules"), (len(composed.db.faq), "rulings"))
            print(f"{game}: ok ({', '.join(f'{n} {what}' for n, what in counted if n or what == 'cards')})"  # no "0 rules"
                  + "".join(f"\n  set {s.id}: {composed.db.set_printed(s.id)} cards, as its count says"
                            for s in composed.db.sets.values()))
    return 1 if failed else 0


def build(args: argparse.Namespace) -> int:
    """The build command, with Python's cycle collector paused while it runs (as it was again after).

    A build makes its scenes, pages and PDF objects and keeps nearly all of them until it ends, and what it
    drops is freed by reference counting: the collector's passes over everything alive found a few hundred
    objects in cycles (a cold P.I. build: a tenth of its CPU; a 10,000-card deck: 0.2 s), and the peak memory
    is the same without them. A watch collects before each round instead, so that its rounds leave nothing
    behind."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build(args)
    finally:
        if collecting:
            gc.enable()


def _build(args: argparse.Namespace) -> int:
    from casebook.generator.build import compose_game, export_pngs, is_board, write_pdf

    opts = _options(args)
    opts.out_dir = args.out
    opts.papers = tuple(args.paper) if args.paper else ("a4", "letter")
    opts.bleed, opts.gutter = args.bleed, args.gutter
    opts.crop_marks = not args.no_crop_marks
    opts.backs, opts.calibration, opts.labels = not args.no_backs, not args.no_calibration, not args.no_labels
    opts.back_offset, opts.ink_saver = args.back_offset, args.ink_saver
    opts.png, opts.dpi = args.png, args.dpi
    opts.cut_lines = args.cut_lines
    exports = None  # no export asked for: their code is not imported
    if any(getattr(args, flag) for flag in EXPORT_FLAGS):
        from casebook.generator.exports.run import export_options, run_exports, unknown_services

        exports = export_options(args)
    games = _games(args, opts)
    if games is None:
        return 2
    opts.sets = tuple(s.strip() for value in args.sets or () for s in value.split(",") if s.strip())
    if args.sets and (message := _refused_sets(games, opts)) is not None:
        print(f"casebook: --set: {message}", file=sys.stderr)
        return 2
    if exports is not None and (message := unknown_services(exports, opts)) is not None:
        print(f"casebook: {message}", file=sys.stderr)
        return 2
    if (message := _refused_preview(args)) is not None:
        print(f"casebook: {message}", file=sys.stderr)
        return 2

    from casebook.generator.notes import BuildNotes, normal_sheet_notes

    notes = BuildNotes()  # said once for the whole build, not once per game

    def progress(msg: str) -> None:
        if msg.startswith("note: "):  # the imposition's notes, from write_pdf
            notes.add(msg.removeprefix("note: "))
        else:
            print(msg, file=sys.stderr, flush=True)

    def say_notes() -> None:
        if exports is not None:
            for exported in exports.notes:
                notes.add(exported)
            exports.notes.clear()
        for line in notes.take():
            print(line)

    from casebook.generator.cache import SceneStore
    from casebook.generator.watch import build_rounds

    failed = 0
    for game in build_rounds(games, opts.cards_dir, opts.layouts_dir, args.watch, progress,
                             own=opts.game_folders, ignore=(opts.out_dir,)):
        if args.watch:  # what the rounds before left in cycles (the collector is paused: see build)
            gc.collect()
        started = time.perf_counter()
        progress(f"{game}: composing cards")
        problems = Problems()
        store = SceneStore(opts.out_dir / game / ".cache")  # what the last build composed: only changes are redone
        composed = compose_game(game, opts, problems, store)
        if composed is None or problems:
            store.close()
            print(problems.format(), file=sys.stderr)
            print(f"{game}: not built, {len(problems.errors)} problem(s); existing output left as it was",
                  file=sys.stderr)
            failed += 1
            continue
        notes.expect(normal_sheet_notes(composed, opts))
        for paper in opts.papers:
            path = opts.out_dir / game / f"{game}-{paper}.pdf"
            progress(f"{game}: imposing {paper}")
            pages = write_pdf(composed, paper, path, opts, problems, progress)
            if problems:
                print(problems.format(), file=sys.stderr)
                failed += 1
                break
            sets = f"; sets: {', '.join(composed.sets)}" if composed.sets else ""
            print(f"wrote {path} ({pages} pages, {path.stat().st_size / 1024:.0f} KiB{sets})")
        if not problems and any(is_board(composed.lib, s, problems) for s in composed.db.sheets):
            # boards (sheets with a size of their own) also whole, on A3 and A2
            from casebook.generator.board import write_boards

            for line in write_boards(composed.composer, composed.lib, composed.db, opts.out_dir / game, problems):
                print(line)
        if opts.png and not problems:
            progress(f"{game}: rendering PNGs at {opts.dpi} dpi")
            out = opts.out_dir / game / "png"
            count = export_pngs(composed, out, opts, progress)
            print(f"wrote {out}/ ({count} PNGs)")
        if exports is not None and exports.any and not problems:
            print("\n".join(run_exports(composed, game, opts, exports, problems, progress)))
            if problems:
                print(problems.format(), file=sys.stderr)
                failed += 1
        if args.preview and not problems:  # the whole set in one picture, beside the components' fans
            from casebook.generator.backends.preview import WIDTH, write_preview

            picture = opts.out_dir / game / "preview" / f"{game}.png"
            size = write_preview(composed, picture, args.preview_width or WIDTH)
            print(f"wrote {picture} (the set in one picture, {size / 1024:.0f} KiB)")
        if problems:
            store.close()  # this build's scenes are not kept: the next one sees its problems again
        else:
            store.commit()
        progress(f"{game}: done in {time.perf_counter() - started:.1f} s "
                 f"({composed.composer.composed} scenes composed, {store.reused_scenes} unchanged since the last build)")
        if args.watch:  # a watch has no end to say them at
            say_notes()
    say_notes()
    return 0 if args.watch else 1 if failed else 0  # a watch ends with Ctrl-C, after good and bad edits alike


def replay(args: argparse.Namespace) -> int:
    """Replay a log: the state and scores for people, or with --json one JSON object whatever happens."""
    import json

    from casebook.rules.cards import CARDS_DIR, read_database
    from casebook.rules.engine import IllegalAction
    from casebook.rules.games import GAMES  # importing it registers the games' own checks too
    from casebook.rules.log import parse_log
    from casebook.rules.log import replay as run_replay
    from casebook.rules.yamlsource import read_source

    out: dict[str, Any] = {"log": str(args.log), "game": None, "events_applied": 0, "state": None, "error": None}

    def refuse(code: int, message: str, kind: str, problems: Problems | None = None, **error: Any) -> int:
        """Say what is wrong on stderr; with --json also print the outcome with its error."""
        print(message, file=sys.stderr)
        if args.json:
            found = [{"place": str(p.place), "message": p.message, "expected": p.expected}
                     for p in (problems.errors if problems else [])]
            out["error"] = {"kind": kind, "event": None, "action": None, "rule": None, "rule_id": None,
                            "reason": found[0]["message"] if found else message.split(": ", 1)[-1],
                            "place": found[0]["place"] if found else str(args.log), "problems": found, **error}
            print(json.dumps(out, indent=2, ensure_ascii=False))
        return code

    if args.until is not None and args.until < 0:
        return refuse(2, "casebook: --until takes an event number (0 or more)", "usage")
    if not args.log.is_file():
        return refuse(1, f"casebook: {args.log}: no such file", "file")
    problems = Problems()
    text = read_source(args.log, problems)  # size, encoding and NUL bytes refused with their line
    if text is None:
        return refuse(1, problems.format() + f"\n{args.log}: cannot read it as a game log (UTF-8 text, "
                      "docs/game-log.md)", "file", problems)
    log = parse_log(text, str(args.log), problems)
    if log is None:
        return refuse(1, problems.format() + f"\n{args.log}: not a readable game log (see docs/game-log.md)", "log",
                      problems)
    out["game"] = log.game
    db = read_database(log.game, args.cards or CARDS_DIR, problems)
    if db is None or problems:
        return refuse(1, problems.format(), "cards", problems)
    game = GAMES[log.game]
    try:
        result = run_replay(db, log, args.until)
    except IllegalAction as exc:  # the header is refused: nothing can be replayed
        rule = exc.rule
        return refuse(1, f"{args.log}: error: {exc}", "header", event=0, action=exc.action,
                      rule=rule.name if rule else None, rule_id=rule.id if rule else None, reason=exc.reason)
    summary = game.summary(result.state)
    out["events_applied"], out["state"] = result.applied, summary
    place = log.place(result.error.event_no or 0) if result.error else None
    if result.error and args.json:
        rule = result.error.rule
        out["error"] = {"kind": "event", "event": result.error.event_no, "action": result.error.action,
                        "rule": rule.name if rule else None, "rule_id": rule.id if rule else None,
                        "reason": result.error.reason, "place": str(place or args.log), "problems": []}
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(format_summary(game, summary, result.applied))
    if result.error:
        print(f"{place or args.log}: error: {result.error}", file=sys.stderr)
        return 1
    return 0


def format_summary(game: Any, s: dict[str, Any], applied: int) -> str:
    """A game summary for people: the game's own report lines, then the scores and the winner."""
    players = s["players"]
    lines = [f"{s['game']}: {', '.join(players)}; after {applied} event(s); phase: {s['phase']}"]
    lines += game.report(s)
    res = s["result"]
    lines.append("total: " + ", ".join(f"{p} {res['scores'][p]}" for p in players))
    if res["over"]:
        lines.append(f"winner: {res['winner']} ({res['decided_by']})" if res["winner"] else "the game is a draw")
        if res.get("why"):
            lines.append(f"  {res['why']}")
    return "\n".join(lines)
