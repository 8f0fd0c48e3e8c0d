#!/usr/bin/env python3
"""Set up the project on a fresh machine and run it: `python3 dev.py build|test|check|bench`.

Creates .venv with the package and its dev tools on first use (only Python 3.11+
is needed beforehand), then runs the step inside it. Extra arguments are passed on.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".casebook-installed"
TYPECHECK = VENV / "typecheck"  # the package laid out as a wheel holds it, for mypy
TYPED = ("rules", "generator")  # beside casebook/ itself; the companion (Kivy, untyped) is not checked


def ensure_venv() -> None:
    """Create the virtualenv and install the package when pyproject.toml is newer."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on whatever python3 the machine has
        sys.exit(f"casebook needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pyproject = ROOT / "pyproject.toml"
    if STAMP.exists() and STAMP.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    print("dev.py: installing casebook and its dev tools into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-e", f"{ROOT}[dev,app]"], check=True)
    STAMP.write_text("ok\n")


def run(*cmd: str) -> int:
    return subprocess.run(list(cmd), cwd=ROOT).returncode


def mypy(py: str) -> int:
    """mypy on the package as it installs (casebook.rules, casebook.generator, ...).

    pyproject.toml maps the repository's top folders into the package at build time; mypy
    finds modules by folders and cannot follow that mapping, so the package is laid out in
    links under .venv and its paths are reported as the repository's.
    """
    shutil.rmtree(TYPECHECK, ignore_errors=True)
    package = TYPECHECK / "casebook"
    package.mkdir(parents=True)
    sources = {p.name: p for p in (ROOT / "casebook").iterdir() if p.name != "__pycache__"}
    sources.update({name: ROOT / name for name in TYPED})
    for name, source in sources.items():
        try:
            (package / name).symlink_to(source, target_is_directory=source.is_dir())
        except OSError:  # no symlinks (Windows without developer mode): a copy does as well
            (shutil.copytree if source.is_dir() else shutil.copy2)(source, package / name)
    result = subprocess.run([py, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                             "--cache-dir", str(ROOT / ".mypy_cache")],
                            cwd=TYPECHECK, capture_output=True, text=True)
    where = re.compile(f"^casebook/({'|'.join(TYPED)})/", re.M)
    sys.stdout.write(where.sub(r"\1/", result.stdout))
    sys.stderr.write(result.stderr)
    return result.returncode


def main(argv: list[str]) -> int:
    step, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if step not in {"build", "test", "check", "bench"}:
        print(__doc__)
        return 0 if step == "help" else 2
    ensure_venv()
    py = str(BIN / "python")
    if step == "build":
        return run(py, "-m", "casebook", "build", *rest)
    if step == "test":
        return run(py, "-m", "pytest", *rest)
    if step == "check":
        return run(py, "-m", "ruff", "check", ".") or mypy(py)
    return run(py, "benchmarks/build.py", *rest) or run(py, "benchmarks/designer.py") or run(py, "benchmarks/replay.py") \
        or run(py, "benchmarks/search.py") or run(py, "benchmarks/app.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
