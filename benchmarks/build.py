"""Benchmark the print pipeline: cold A4 builds of each game, and PNG cards per second at 300 dpi.

`python3 dev.py bench` (or python benchmarks/build.py). Each figure is the best of a few
runs in fresh processes, so imports and font loading are counted as a user meets them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - start


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    py = sys.executable
    with tempfile.TemporaryDirectory() as out:
        for game in ("graves", "syndicate"):
            cold = min(timed([py, "-m", "casebook", "build", game, "--paper", "a4", "--out", out]) for _ in range(runs))
            print(f"cold {game} build, A4 PDF:{'':<{14 - len(game)}}{cold:6.2f} s")
        code = (
            "import sys, time\n"
            "from generator.build import BuildOptions, compose_game, export_pngs\n"
            "from rules.problems import Problems\n"
            "from pathlib import Path\n"
            "p = Problems(); c = compose_game('graves', BuildOptions(papers=()), p)\n"
            "t = time.perf_counter(); n = export_pngs(c, Path(sys.argv[1]) / 'png', BuildOptions(dpi=300))\n"
            "print(n, time.perf_counter() - t)\n"
        )
        best = None
        for _ in range(runs):
            res = subprocess.run([py, "-c", code, out], cwd=ROOT, check=True, capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
            n, secs = res.stdout.split()
            rate = int(n) / float(secs)
            best = rate if best is None else max(best, rate)
        print(f"PNG export at 300 dpi ({n} images):  {best:6.1f} images/s on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
