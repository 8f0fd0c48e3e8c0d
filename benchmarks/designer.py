"""The designer's loop on a 500-card deck, measured in one run: `python benchmarks/designer.py`.

Prints, each the best of a few runs (the machine is shared, so ratios within one run are
what to compare; the figures drawn in this process also as CPU time, which other users of
a shared machine disturb far less than the wall clock; the PDF, its bare script and the
rebuild in rounds that run each in turn, every round's ratios shown as median [lowest-highest]):
- the A4 PDF of the deck (500 faces + 500 backs, crop marks, aid, calibration) against a
  bare ReportLab script that draws the same 500 faces with canvas calls;
- the 1000 PNGs (faces and backs) against a bare Pillow script that draws the 500 faces
  in 2 processes;
- a rebuild after one card is edited (the PDF, and the PDF with --png) against a cold
  build, both through the command in this process (a cold build has no cache);
- peak memory of a PDF build of 8000 cards against 500 (each in a fresh process, its own
  high-water mark: not the size it inherits from this process).
  `python benchmarks/designer.py --memory [runs]` prints only this, the median of runs (3).

The deck is the test game (tests/data/tinygame) grown to N cards in a temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from deck import GAME, edit_card, make_deck  # noqa: E402

CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0


CPU: dict[int, float] = {}  # id(fn) -> its best CPU time, for the figures measured in this process


def best(runs: int, fn: Callable[[], object]) -> float:
    """The best wall time of `runs` calls; the best CPU time of this process is kept in CPU[id(fn)]."""
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    CPU[id(fn)] = min(cpu)
    return min(times)


def cpu(fn: Callable[[], object]) -> float:
    return CPU[id(fn)]


def interleaved(runs: int, *fns: Callable[[], object]) -> tuple[list[float], list[list[float]]]:
    """The best wall time of each fn over `runs` rounds that call each once, in turn, and every round's CPU times.

    A ratio of two figures measured in separate stretches of a shared machine also measures how
    busy it was in each; rounds put both under the same load. Best CPU times go in CPU too.
    """
    walls: list[list[float]] = [[] for _ in fns]
    cpus: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, wall, used in zip(fns, walls, cpus, strict=True):
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - start)
            used.append(time.process_time() - start_cpu)
    for fn, used in zip(fns, cpus, strict=True):
        CPU[id(fn)] = min(used)
    return [min(wall) for wall in walls], cpus


def spread(tops: list[float], bottoms: list[float]) -> str:
    """The ratios of one round each: median [lowest-highest]."""
    ratios = [a / b for a, b in zip(tops, bottoms, strict=True)]
    return f"{statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"


# --- the bare baselines: the same faces, drawn by hand ---------------------------------------


def _deck_rows(cards: Path) -> list[dict]:
    import yaml

    return yaml.safe_load((cards / GAME / "deck.yaml").read_text(encoding="utf-8"))["cards"]


def _symbols(layouts: Path) -> dict[str, list]:
    """Each suit's emblem as scene items at its place on the card (geometry a bare script would hard-code)."""
    from casebook.generator.layouts import load_library
    from casebook.generator.symbols import draw_symbol

    lib = load_library(layouts)
    return {suit: draw_symbol(lib.symbols[name], 16.5 + BLEED, 18 + BLEED, 30, 30, colour, "#FBF7EE")
            for suit, name, colour in (("wing", "moth", "#7A5C99"), ("flame", "lamp", "#E69F00"))}


SUITS = {"wing": ("Wing", "#7A5C99", "#4F3A66"), "flame": ("Flame", "#E69F00", "#8C6100")}


def bare_pdf(cards: Path, layouts: Path, path: Path) -> None:
    """The 500 faces with plain canvas calls, 3 x 3 a page (benchmarks/bare_pdf.py, in this process)."""
    import bare_pdf as script

    spec = path.with_name("bare-spec.json")
    if not spec.exists():
        script.bare_spec(layouts, spec)
    script.main(str(spec), str(cards / GAME / "deck.yaml"), str(path))


def _bare_png_batch(job: tuple[list[tuple[int, dict]], int, str, str]) -> int:
    from PIL import Image, ImageDraw

    from casebook.generator.backends.fonts import font_path

    rows, total, out, layouts = job
    from PIL import ImageFont

    symbols = _symbols(Path(layouts))
    k = 300 / 25.4 * 2  # 2x supersampled, as the PNG backend does
    fonts = {s: ImageFont.truetype(str(font_path(st)), round(size / 72 * 25.4 * k))
             for s, st, size in (("value", "bold", 20), ("name", "bold", 13), ("suit", "italic", 8), ("foot", "regular", 5))}
    from casebook.generator.scene import Ellipse, Polyline, Rect

    size = (round((CARD_W + 2 * BLEED) * 300 / 25.4) * 2, round((CARD_H + 2 * BLEED) * 300 / 25.4) * 2)
    for n, row in rows:
        name, colour, ink = SUITS[row["suit"]]
        img = Image.new("RGB", size, "#FBF7EE")
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((6 * k, 6 * k, (CARD_W) * k, (CARD_H) * k), 2 * k, outline=colour, width=round(0.6 * k))
        d.text((8 * k, 14.5 * k), str(row["value"]), font=fonts["value"], fill=ink, anchor="ls")
        for item in symbols[row["suit"]]:
            if isinstance(item, Ellipse):
                d.ellipse(((item.cx - item.rx) * k, (item.cy - item.ry) * k, (item.cx + item.rx) * k,
                           (item.cy + item.ry) * k), fill=item.fill or colour)
            elif isinstance(item, Rect):
                d.rounded_rectangle((item.x * k, item.y * k, (item.x + item.w) * k, (item.y + item.h) * k),
                                    item.radius * k, fill=item.fill or colour)
            elif isinstance(item, Polyline):
                pts = [(x * k, y * k) for x, y in item.points]
                if item.closed:
                    d.polygon(pts, fill=item.fill or colour)
                else:
                    d.line(pts, fill=item.stroke or colour, width=round(item.width * k))
        d.text((34.5 * k, 58 * k), row["name"], font=fonts["name"], fill="#555555", anchor="ms")
        d.text((34.5 * k, 67 * k), name, font=fonts["suit"], fill=ink, anchor="ms")
        d.text((61 * k, 86 * k), f"NGT {n + 1}/{total}", font=fonts["foot"], fill="#555555", anchor="rs")
        img.reduce(2).save(Path(out) / f"{n:04d}.png", format="PNG", dpi=(300, 300), compress_level=3)
    return len(rows)


def bare_png(cards: Path, layouts: Path, out: Path) -> None:
    """The 500 faces drawn with plain Pillow calls in 2 processes."""
    rows = list(enumerate(_deck_rows(cards)))
    out.mkdir(parents=True, exist_ok=True)
    halves = [(rows[i::2], len(rows), str(out), str(layouts)) for i in range(2)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(_bare_png_batch, halves))


# --- Casebook ------------------------------------------------------------------------------


def casebook(*args: str) -> None:
    """The command, in this process, its output swallowed."""
    from casebook.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", *args]) == 0


def cold(out: Path) -> None:
    """No cache, no earlier output: everything is composed and drawn."""
    shutil.rmtree(out, ignore_errors=True)


def memory(n: int) -> list[str]:
    """Peak RSS of a PDF build of n cards in a fresh process: after imports, and at the end (KiB).

    Linux keeps ru_maxrss across exec, so a child started from this (large) process would
    report the parent's size; the child's own high-water mark (VmHWM) is read instead.
    """
    code = (
        "import resource, sys, tempfile\n"
        "from pathlib import Path\n"
        "def peak():\n"
        "    try:\n"
        "        with open('/proc/self/status') as f:\n"
        "            return next(int(l.split()[1]) for l in f if l.startswith('VmHWM'))\n"
        "    except OSError:\n"
        "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1024 if sys.platform == 'darwin' else 1)\n"
        "sys.path[:0] = [sys.argv[1], sys.argv[1] + '/benchmarks']\n"
        "from deck import make_deck\n"
        "from casebook.cli import main\n"
        "import generator.backends.pdf, generator.build, generator.compose\n"
        "d = Path(tempfile.mkdtemp())\n"
        "cards, layouts = make_deck(d, int(sys.argv[2]))\n"
        "start = peak()\n"
        "assert main(['build', 'moth', '--cards', str(cards), '--layouts', str(layouts), '--paper', 'a4',"
        " '--out', str(d / 'out')]) == 0\n"
        "print(start, peak())\n"
    )
    res = subprocess.run([sys.executable, "-c", code, str(ROOT), str(n)], capture_output=True, text=True, check=True)
    return res.stdout.split()[-2:]


def print_memory(runs: int = 1) -> None:
    """Peak memory of the 8000-card build against the 500-card one, the median of `runs` fresh processes each."""
    unit = 1024
    small = [memory(500) for _ in range(runs)]
    large = [memory(8000) for _ in range(runs)]
    peak_small = statistics.median(int(s[1]) for s in small) / unit
    peak_large = statistics.median(int(s[1]) for s in large) / unit
    print(f"peak memory, PDF build: 500 cards {peak_small:6.1f} MiB, 8000 cards {peak_large:6.1f} MiB"
          f"   ratio {peak_large / peak_small:4.2f} (bar 1.5); after imports "
          f"{statistics.median(int(s[0]) for s in small) / unit:.1f} MiB"
          + (f"   (median of {runs} runs each)" if runs > 1 else ""))


def main() -> int:
    if sys.argv[1:2] == ["--memory"]:  # only the memory figures: `designer.py --memory [runs]`
        print_memory(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
        return 0
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    n = 500
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cards, layouts = make_deck(tmp / "deck", n)
        out = tmp / "out"
        common = [GAME, "--cards", str(cards), "--layouts", str(layouts), "--paper", "a4", "--out", str(out)]
        casebook(*common)  # imports, fonts: what every later run shares

        def cold_pdf() -> None:
            cold(out)
            casebook(*common)

        def edited(*extra: str) -> Callable[[], None]:
            def run() -> None:
                edit_card(cards, n // 2, f" {next(edits)}")  # a new name each time
                casebook(*common, *extra)
            return run

        def cold_png() -> None:
            cold(out)
            casebook(*common, "--png")

        def bare_pngs() -> None:
            shutil.rmtree(tmp / "barepng", ignore_errors=True)
            bare_png(cards, layouts, tmp / "barepng")

        edits = iter(range(10_000))

        def bare_run() -> None:
            bare_pdf(cards, layouts, tmp / "bare.pdf")

        edit_run = edited()
        (bare, ours, rebuild), rounds = interleaved(runs, bare_run, cold_pdf, edit_run)
        print(f"A4 PDF, {n} faces + {n} backs:        {ours:6.2f} s   bare ReportLab, {n} faces: {bare:5.2f} s"
              f"   ratio {ours / bare:4.2f} (bar 1.6)   CPU: {cpu(cold_pdf):.2f} / {cpu(bare_run):.2f} s, "
              f"ratio {cpu(cold_pdf) / cpu(bare_run):4.2f}")

        print(f"one card edited, PDF rebuilt:         {rebuild:6.2f} s   cold build: {ours:5.2f} s"
              f"   ratio {rebuild / ours:4.2f} (bar 0.33)   CPU: {cpu(edit_run):.2f} / {cpu(cold_pdf):.2f} s, "
              f"ratio {cpu(edit_run) / cpu(cold_pdf):4.2f}")
        print(f"  each of {runs} rounds (bare, cold, edited in turn), CPU: PDF/bare {spread(rounds[1], rounds[0])}, "
              f"rebuild/cold {spread(rounds[2], rounds[1])}")

        bare_png_s = best(runs, bare_pngs)
        png_cold = best(max(1, runs - 1), cold_png)
        print(f"{2 * n} PNGs (faces and backs), cold:    {png_cold:6.2f} s   bare Pillow, {n} faces, 2 processes: "
              f"{bare_png_s:5.2f} s   ratio {png_cold / bare_png_s:4.2f}")
        png_edit = best(runs, edited("--png"))
        print(f"one card edited, PDF + PNGs rebuilt:  {png_edit:6.2f} s   (bar 1 s)")

        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "casebook", "build", *common], cwd=ROOT, check=True,
                       capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        print(f"(for reference: the command in a fresh process, cached: {time.perf_counter() - start:.2f} s)")

    print_memory()
    return 0


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
