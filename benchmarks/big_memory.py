"""Peak memory of a big deck's build against a 500-card deck's, CSV and YAML (issue 21, item 12).

`python benchmarks/big_memory.py [N] [ROUNDS]` (default 10,000 cards, 3 rounds). A quicker look
than `speed.py --big`: only the peaks, each the child's own high-water mark (VmHWM) of a cold
A4 build in a new process, the median of ROUNDS rounds run in turn. Target: a big deck at most
1.5x the memory of the 500-card one, read from YAML and from CSV alike.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

from deck import GAME, make_deck  # noqa: E402
from speed import PEAK, PY, median, run, verdict  # noqa: E402


def peak(cards: Path, layouts: Path, out: Path) -> float:
    """MiB: the high-water mark of one cold A4 build of the deck, in a new process."""
    shutil.rmtree(out, ignore_errors=True)
    _, _, stdout, stderr = run([PY, "-c", PEAK, "build", GAME, "--cards", str(cards), "--layouts", str(layouts),
                                "--paper", "a4", "--out", str(out)])
    if "peak" not in stdout:
        raise SystemExit(f"the build failed:\n{stderr}")
    return int(stdout.split()[-1]) / 1024


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    n_rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        decks = {"500, YAML": make_deck(tmp / "y500", 500), "500, CSV": make_deck(tmp / "c500", 500, sheet=True),
                 f"{n}, YAML": make_deck(tmp / f"y{n}", n), f"{n}, CSV": make_deck(tmp / f"c{n}", n, sheet=True)}
        peaks: dict[str, list[float]] = {name: [] for name in decks}
        for _ in range(n_rounds):
            for i, (name, (cards, layouts)) in enumerate(decks.items()):
                peaks[name].append(peak(cards, layouts, tmp / f"out-{i}"))
    base = median(peaks["500, YAML"])
    print(f"peak memory of a cold A4 build, a new process ({n_rounds} rounds; medians):")
    for name, values in peaks.items():
        line = f"  {name + ' cards:':<18} {median(values):6.1f} MiB"
        if not name.startswith("500,"):
            ratio = median(values) / base
            line += f"   x{ratio:4.2f} the 500-card YAML deck's (target <= 1.5: {verdict(ratio <= 1.5)})"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
