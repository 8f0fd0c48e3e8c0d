"""Benchmark: how fast the YAML reader refuses hostile files, and what it costs normal ones.

`python benchmarks/hostile.py [RUNS]`. Prints, for every case of tests/rules/hostile_corpus.py,
the time to refuse it as a card file and as a game log (in this process, best of RUNS), then
the reader on every real YAML file, then `casebook validate` and `casebook replay` in fresh
processes (imports counted) on real data and on planted hostile files. The bar: every refusal
well under a second. The process's memory is capped at 2 GB so that a regression fails fast.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from casebook.rules.log import parse_log  # noqa: E402
from casebook.rules.problems import Problems  # noqa: E402
from casebook.rules.yamlsource import load_yaml, read_source  # noqa: E402
from tests.rules.hostile_corpus import CARD_HOST, CASES, card_host, log_host  # noqa: E402

CLI_CASES = ("bomb_lists", "bomb_merge_keys", "deep_brackets", "huge_line_40mb", "many_values", "nul_byte")


def read_card(path: Path, problems: Problems) -> object:
    return load_yaml(path, problems)


def read_log(path: Path, problems: Problems) -> object:
    text = read_source(path, problems)
    return None if text is None else parse_log(text, str(path), problems)


def best_ms(read: object, path: Path, runs: int) -> tuple[float, str]:
    """The best time of `runs` reads in ms, and the first line of the first problem."""
    best, first = float("inf"), ""
    for _ in range(runs):
        problems = Problems()
        start = time.perf_counter()
        data = read(path, problems)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
        first = problems.items[0].format().splitlines()[0] if problems.items else "(read, no problem)"
        assert data is None, f"{path}: a hostile file was read"
    return best * 1000, first


def loader_figures(tmp: Path, runs: int) -> None:
    print(f"{'case':<22}{'card file':>11}{'game log':>11}   refusal (card file)")
    cards, logs = card_host(), log_host()
    for case in CASES:
        cells, message = [], ""
        for kind, host, expect, read in (("card", cards, case.card, read_card), ("log", logs, case.log, read_log)):
            if expect is None:
                cells.append(f"{'-':>11}")
                continue
            path = tmp / f"{case.name}-{kind}.yaml"
            path.write_bytes(case.file_bytes(host))
            ms, first = best_ms(read, path, runs)
            cells.append(f"{ms:9.1f}ms")
            message = message or first.split(": error: ", 1)[-1]
            path.unlink()
        print(f"{case.name:<22}{''.join(cells)}   {message[:70]}")


def normal_figures(runs: int) -> None:
    files = [p for folder in ("cards", "layouts", "tests/data") for p in (ROOT / folder).rglob("*.yaml")]
    size = sum(p.stat().st_size for p in files)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for path in files:
            problems = Problems()
            load_yaml(path, problems)
        best = min(best, time.perf_counter() - start)
    print(f"\nreader on every real YAML file ({len(files)} files, {size / 1000:.0f} KB): {best * 1000:.0f} ms")


def timed(args: list[str]) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "casebook", *args], cwd=ROOT, env=env, timeout=120,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, result.returncode


def cli_figures(tmp: Path, runs: int) -> None:
    print("\nfresh processes, best of", runs)
    for game in ("graves", "syndicate"):
        secs = min(timed(["validate", game])[0] for _ in range(runs))
        print(f"  casebook validate {game} (real data):{'':<{22 - len(game)}}{secs:6.2f} s")
    shutil.copytree(ROOT / "cards", tmp / "cards")
    shutil.copytree(ROOT / "layouts", tmp / "layouts")
    target, host = tmp / CARD_HOST, card_host()
    by_name = {case.name: case for case in CASES}
    for name in CLI_CASES:
        case = by_name[name]
        target.write_bytes(case.file_bytes(host))
        runs_of = [timed(["validate", "graves", "--cards", str(tmp / "cards"), "--layouts", str(tmp / "layouts")])
                   for _ in range(runs)]
        log = tmp / "game.yaml"
        log.write_bytes(case.file_bytes(log_host()))
        replays = [timed(["replay", str(log)]) for _ in range(runs)]
        print(f"  {name:<18} validate {min(r[0] for r in runs_of):5.2f} s (exit {runs_of[0][1]}), "
              f"replay {min(r[0] for r in replays):5.2f} s (exit {replays[0][1]})")
    target.write_text(host, encoding="utf-8")


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cap = 2 * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        loader_figures(tmp, runs)
        normal_figures(runs)
        cli_figures(tmp, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
