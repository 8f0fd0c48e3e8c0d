"""The speed of a build as a user meets it: whole processes, interleaved, medians (issue 21, item 13).

`python benchmarks/speed.py [ROUNDS] [--big N] [--only NAME[,NAME...]]` (default 5 rounds, a 10,000-card big
deck; NAME: anchor, games, big, or a game's id for that game's build alone). Prints,
each against its target, every figure the median of ROUNDS rounds that run every command once,
in turn (so that a busy spell of the shared machine weighs on all of them alike):
- the anchor: a 500-card deck's cold A4 PDF against a bare ReportLab script drawing its 500 faces
  (benchmarks/bare_pdf.py: ReportLab and PyYAML only), both whole processes: at most 1.4x;
- what importing costs a build: the import time of every module a cold build imports that a bare
  `python -c pass` does not (`-X importtime`, all imports of the run, lazy ones included): under
  0.12 s; and Python's own start;
- one card edited and rebuilt in a new process (the scene cache of the build before) against the
  cold build: under half; and where the edit's CPU goes: Python's start, the imports any PDF build
  makes, the command line's options, reading the card files, composing, writing the PDF, the
  interpreter's exit (BREAKDOWN: one more edit a round, in a child run as the whole process runs);
- each game's A4 + Letter build, cold, in a new process: under 0.7 s;
- "cold" keeps what an earlier run compiled once, as a user's machine does: Python's .pyc files,
  the layouts' compiled templates and parsed layout files (generator/layouts.py TemplateCache and
  ParseCache); the anchor and each game are also measured with neither (CASEBOOK_CACHE_DIR empty),
  as the first build after an install or a layout edit finds it;
- a big deck (10,000 cards in one YAML file, and in one CSV file) against the 500-card one: build
  time and peak memory (the child's own high-water mark, VmHWM), at most 1.5x the memory.
Wall times and CPU times (user + system of the child) both: the machine is shared (2 cores, 8
engineers), so the load average is printed with the figures, and the CPU times are the steadier.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bare_pdf import bare_spec  # noqa: E402
from deck import GAME, edit_card, make_deck  # noqa: E402

PY = sys.executable
# as a user meets it: compiled modules kept (a session that sets PYTHONDONTWRITEBYTECODE would compile every run),
# and a cache of compiled templates and parsed files of its own (main() sets CASEBOOK_CACHE_DIR): on a shared
# machine the user's cache is pruned by other people's builds, and a pruned entry is parsed again in the run measured
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT)}
GAMES = ("graves", "pi", "syndicate", "clash", "hasty")
PEAK = (  # the command in this child, then its own high-water mark (ru_maxrss would be inherited across exec)
    "import sys\n"
    "from casebook.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "with open('/proc/self/status') as f:\n"
    "    print('peak', next(int(l.split()[1]) for l in f if l.startswith('VmHWM')))\n"
    "sys.exit(code)\n"
)


def _children_cpu() -> float:
    """User + system CPU of the reaped children: getrusage's microseconds where there is one (os.times counts
    in clock ticks, 10 ms: a one-card edit's ~0.13 s in 13 steps, too coarse for a ratio near 0.5)."""
    try:
        import resource
    except ImportError:  # Windows
        usage = os.times()
        return usage.children_user + usage.children_system
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return reaped.ru_utime + reaped.ru_stime


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str, str]:
    """Run a whole process: (wall s, CPU s of the child, its stdout, its stderr)."""
    cpu_before, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env or ENV, capture_output=True, text=True)  # reaped: its CPU is counted
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return wall, _children_cpu() - cpu_before, proc.stdout, proc.stderr


def build_imports(stderr: str, python_own: set[str]) -> tuple[float, list[str]]:
    """From -X importtime: the import time of the top-level imports Python's own start does not make, and their names."""
    total, names = 0, []
    for line in stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)  # top level: no indent before the name
        if m and m.group(2).strip() not in python_own and not m.group(2).strip().endswith("__main__"):
            total += int(m.group(1))
            names.append(m.group(2).strip())
    return total / 1e6, names


IMPORT_CPU = (  # the same modules imported again in a fresh process: the CPU time it takes, less disturbed by load
    "import importlib, sys, time\n"
    "start = time.process_time()\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        importlib.import_module(name)\n"
    "    except ImportError:\n"
    "        pass  # a codec ReportLab registers (encodings.pdfdoc): found by its search function, not a module\n"
    "print(time.process_time() - start)\n"
)


PHASES = ("imports", "options", "parse", "compose", "write")
BREAKDOWN = (  # a build in this child, as a whole `casebook` process makes it (main() of the process: its collector
    # frozen at the end), and its CPU time by phase: what it imports before it starts (what any PDF build imports;
    # what only some builds import lazily, Jinja2 for a page's loop, counts in the phase importing it), setting up
    # the command line's options, reading the card files, composing, imposing and writing the PDF; then the CPU
    # time it has spent when main returns (what is left of the child's CPU is the interpreter's exit)
    "import sys, time\n"
    "start = time.process_time()\n"
    "import casebook.cli, casebook.generator.backends.pdf, casebook.generator.backends.recorded\n"
    "import casebook.generator.build as b\n"
    "spent = {'imports': time.process_time() - start, 'options': 0.0, 'parse': 0.0, 'compose': 0.0, 'write': 0.0}\n"
    "def timed(name, fn):\n"
    "    def run(*args, **kwargs):\n"
    "        began = time.process_time()\n"
    "        try:\n"
    "            return fn(*args, **kwargs)\n"
    "        finally:\n"
    "            spent[name] += time.process_time() - began\n"
    "    return run\n"
    "b.read_database = timed('parse', b.read_database)\n"
    "b.compose_game = timed('compose', b.compose_game)\n"
    "b.write_pdf = timed('write', b.write_pdf)\n"
    "casebook.cli.parser = timed('options', casebook.cli.parser)\n"
    "code = casebook.cli.main()  # the command line's arguments, read from sys.argv as the whole process reads them\n"
    "spent['compose'] -= spent['parse']  # the card files are read while a game is composed\n"
    "spent['main'] = time.process_time()\n"
    "print(' '.join(f'{name}={spent[name]}' for name in spent))\n"
    "sys.exit(code)\n"
)


def own_imports() -> set[str]:
    err = subprocess.run([PY, "-X", "importtime", "-c", "pass"], capture_output=True, text=True, env=ENV).stderr
    return {line.split("|")[-1].strip() for line in err.splitlines() if line.startswith("import time:")}


def median(values: list[float]) -> float:
    return statistics.median(values)


def ratios(tops: list[float], bottoms: list[float]) -> str:
    each = [a / b for a, b in zip(tops, bottoms, strict=True)]
    return f"{median(each):.2f} [{min(each):.2f}-{max(each):.2f}]"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def rounds(n: int, jobs: dict[str, Callable[[], tuple[float, float]]]) -> dict[str, tuple[list[float], list[float]]]:
    """Each job once a round, in turn, n rounds: its wall and CPU times."""
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in jobs}
    for _ in range(n):
        for name, job in jobs.items():
            wall, cpu = job()
            times[name][0].append(wall)
            times[name][1].append(cpu)
    return times


def anchor(tmp: Path, n_rounds: int) -> None:
    cards, layouts = make_deck(tmp / "deck", 500)
    spec, out = tmp / "bare.json", tmp / "out"
    bare_spec(layouts, spec)
    build = [PY, "-m", "casebook", "build", GAME, "--cards", str(cards), "--layouts", str(layouts), "--paper", "a4",
             "--out", str(out)]
    python_own = own_imports()
    edits = iter(range(1_000_000))
    imports: list[float] = []
    imports_cpu: list[float] = []
    phases: dict[str, list[float]] = {}

    def bare() -> tuple[float, float]:
        return run([PY, str(ROOT / "benchmarks" / "bare_pdf.py"), str(spec), str(cards / GAME / "deck.yaml"),
                    str(tmp / "bare.pdf")])[:2]

    def cold() -> tuple[float, float]:
        shutil.rmtree(out, ignore_errors=True)
        return run(build)[:2]

    def first() -> tuple[float, float]:  # no compiled templates kept from an earlier run either
        shutil.rmtree(out, ignore_errors=True)
        return run(build, {**ENV, "CASEBOOK_CACHE_DIR": ""})[:2]

    def edited() -> tuple[float, float]:
        edit_card(cards, 250, f" {next(edits)}")  # a new name each round: one scene to compose again
        return run(build)[:2]

    def python() -> tuple[float, float]:
        return run([PY, "-c", "pass"])[:2]

    def edited_phases() -> tuple[float, float]:  # another edit, in a child that says where its time went
        edit_card(cards, 250, f" {next(edits)}")
        wall, cpu, out, _ = run([PY, "-c", BREAKDOWN, *build[3:]])
        spent = dict(part.split("=") for part in out.split("\n")[-2].split())
        for name in PHASES:
            phases.setdefault(name, []).append(float(spent[name]))
        phases.setdefault("exit", []).append(cpu - float(spent["main"]))  # after main returned: the interpreter's end
        return wall, cpu

    def importing() -> tuple[float, float]:
        shutil.rmtree(out, ignore_errors=True)
        wall, cpu, _, err = run([PY, "-X", "importtime", *build[1:]])
        seconds, names = build_imports(err, python_own)
        imports.append(seconds)
        imports_cpu.append(float(run([PY, "-c", IMPORT_CPU, *names])[2]))
        return wall, cpu

    run(build)  # compiled .pyc files and a warm disk cache for every later run
    t = rounds(n_rounds, {"bare": bare, "cold": cold, "first": first, "edited": edited, "python": python,
                          "imports": importing, "phases": edited_phases})
    (bw, bc), (cw, cc), (ew, ec), (pw, _), (fw, fc) = t["bare"], t["cold"], t["edited"], t["python"], t["first"]
    print(f"anchor: a 500-card deck, {n_rounds} rounds; medians, wall | CPU; per-round ratios median [range]")
    print(f"  bare ReportLab script, 500 faces:   {median(bw):5.2f} s | {median(bc):5.2f} s")
    print(f"  casebook A4 PDF, cold:              {median(cw):5.2f} s | {median(cc):5.2f} s   "
          f"ratio {median(cw) / median(bw):4.2f} | {median(cc) / median(bc):4.2f}  (target <= 1.4: "
          f"{verdict(median(cc) / median(bc) <= 1.4)})  rounds {ratios(cw, bw)} | {ratios(cc, bc)}")
    print(f"  the same, templates compiled anew:  {median(fw):5.2f} s | {median(fc):5.2f} s   "
          f"ratio {median(fw) / median(bw):4.2f} | {median(fc) / median(bc):4.2f}  (no template cache: the first "
          "build after an install or a layout edit)")
    print(f"  imports a build needs:              {median(imports):5.2f} s | {median(imports_cpu):5.2f} s   "
          f"(-X importtime | CPU; target < 0.12: {verdict(median(imports_cpu) < 0.12)})  rounds "
          f"{min(imports):.2f}-{max(imports):.2f} | {min(imports_cpu):.2f}-{max(imports_cpu):.2f};"
          f" Python's own start {median(pw):.2f} s")
    print(f"  one card edited, new process:       {median(ew):5.2f} s | {median(ec):5.2f} s   "
          f"ratio to cold {median(ew) / median(cw):4.2f} | {median(ec) / median(cc):4.2f}  (target < 0.5: "
          f"{verdict(median(ec) / median(cc) < 0.5)})  rounds {ratios(ew, cw)} | {ratios(ec, cc)}")
    parts = {"start": median(t["python"][1]), **{name: median(phases[name]) for name in (*PHASES, "exit")}}
    rest = median(t["phases"][1]) - sum(parts.values())  # what no phase holds: the store's opening and commit, notes
    print("    where the edit's CPU goes (medians): " + ", ".join(f"{name} {value:.3f} s" for name, value in parts.items())
          + f", the rest {rest:.3f} s, of {median(t['phases'][1]):.3f} s (its own edit, in a child timing each phase)")


def games(tmp: Path, n_rounds: int, chosen: tuple[str, ...] = GAMES) -> None:
    out = tmp / "games"

    def job(game: str, env: dict[str, str] | None = None) -> Callable[[], tuple[float, float]]:
        def go() -> tuple[float, float]:
            shutil.rmtree(out, ignore_errors=True)
            return run([PY, "-m", "casebook", "build", game, "--out", str(out)], env)[:2]
        return go

    for game in chosen:
        run([PY, "-m", "casebook", "build", game, "--out", str(out)])
    # the first build after an install or a layout edit: every template compiled (no template cache kept)
    first = {**ENV, "CASEBOOK_CACHE_DIR": ""}
    t = rounds(n_rounds, {**{game: job(game) for game in chosen}, **{f"{game} first": job(game, first) for game in chosen}})
    print(f"each game, A4 + Letter, cold, a new process ({n_rounds} rounds; medians, wall | CPU; target < 0.7 s; "
          "templates compiled by an earlier run kept, as Python keeps .pyc files | without them, compiled anew):")
    for game in chosen:
        (wall, cpu), (_, first_cpu) = t[game], t[f"{game} first"]
        print(f"  {game:<10} {median(wall):5.2f} s | {median(cpu):5.2f} s   {verdict(median(cpu) < 0.7):<6}   "
              f"templates compiled anew: {median(first_cpu):5.2f} s CPU")


def big(tmp: Path, n: int, n_rounds: int) -> None:
    decks = {"500, YAML": make_deck(tmp / "d500", 500), f"{n}, YAML": make_deck(tmp / f"y{n}", n),
             f"{n}, CSV": make_deck(tmp / f"c{n}", n, sheet=True)}

    def job(cards: Path, layouts: Path, out: Path) -> Callable[[], tuple[float, float]]:
        def go() -> tuple[float, float]:
            shutil.rmtree(out, ignore_errors=True)
            wall, cpu, stdout, _ = run([PY, "-c", PEAK, "build", GAME, "--cards", str(cards), "--layouts",
                                        str(layouts), "--paper", "a4", "--out", str(out)])
            peaks.setdefault(str(out), []).append(int(stdout.split()[-1]) / 1024)
            return wall, cpu
        return go

    peaks: dict[str, list[float]] = {}
    outs = {name: tmp / f"out-{i}" for i, name in enumerate(decks)}
    t = rounds(n_rounds, {name: job(*decks[name], outs[name]) for name in decks})
    base = "500, YAML"
    small_peak, small_cpu = median(peaks[str(outs[base])]), median(t[base][1])
    print(f"a big deck against 500 cards, cold A4 PDF, a new process ({n_rounds} rounds; medians):")
    for name in decks:
        wall, cpu = t[name]
        peak = median(peaks[str(outs[name])])
        line = (f"  {name + ' cards:':<18} {median(wall):6.2f} s | {median(cpu):6.2f} s CPU   peak {peak:6.1f} MiB")
        if name != base:
            line += (f"   x{median(cpu) / small_cpu:5.1f} the time, x{peak / small_peak:4.2f} the memory "
                     f"(target <= 1.5: {verdict(peak / small_peak <= 1.5)})")
        print(line)


def main() -> int:
    args = sys.argv[1:]
    n_big = 10_000
    if "--big" in args:
        at = args.index("--big")
        n_big = int(args[at + 1])
        del args[at:at + 2]
    only: set[str] = set()
    while "--only" in args:
        at = args.index("--only")
        only |= set(args[at + 1].split(","))
        del args[at:at + 2]
    unknown = only - {"anchor", "games", "big", *GAMES}
    if unknown:
        raise SystemExit(f"--only: no part named {', '.join(sorted(unknown))} (anchor, games, big, or one of "
                         f"{', '.join(GAMES)})")
    chosen = tuple(g for g in GAMES if not only or "games" in only or g in only)
    n_rounds = int(args[0]) if args else 5
    print(f"{load()} (start)")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        ENV["CASEBOOK_CACHE_DIR"] = str(tmp / "user-cache")  # filled by each part's first, unmeasured build
        if not only or "anchor" in only:
            anchor(tmp, n_rounds)
            print(load())
        if chosen:
            games(tmp, n_rounds, chosen)
            print(load())
        if not only or "big" in only:
            big(tmp, n_big, max(1, n_rounds // 2))
    print(f"{load()} (end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
