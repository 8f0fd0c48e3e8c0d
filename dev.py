#!/usr/bin/env python3
"""Set up the project on a fresh machine and run it: `python3 dev.py build|test|check|bench|lock`.

Creates .venv on first use (only Python 3.11+ is needed beforehand) and installs into it
exactly what uv.lock says, Casebook itself editable with its dev tools and the app, then runs
the step inside it. Extra arguments are passed on.

  build   build the print-and-play sets into output/ (casebook build ...)
  test    run every test (pytest ...)
  check   ruff, mypy, and that uv.lock still agrees with pyproject.toml
  bench   the benchmarks
  lock    bring uv.lock in line with pyproject.toml after an edit; `lock --upgrade` refreshes
          every pin to the newest release within pyproject.toml's ranges
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
EXE = ".exe" if os.name == "nt" else ""
PYTHON = BIN / f"python{EXE}"
LOCK = ROOT / "uv.lock"
STAMP = VENV / ".casebook-lock"  # the digest of uv.lock and pyproject.toml last installed
TYPECHECK = VENV / "typecheck"  # the package laid out as a wheel holds it, for mypy
TYPED = ("rules", "generator")  # beside casebook/ itself; the companion (Kivy, untyped) is not checked


def locked(name: str) -> tuple[str, list[str]]:
    """The version uv.lock pins for a package, and the sha256 of each of its files."""
    import tomllib

    for package in tomllib.loads(LOCK.read_text(encoding="utf-8"))["package"]:
        if package["name"] == name:
            files = [package.get("sdist", {}), *package.get("wheels", [])]
            return package["version"], [f["hash"].removeprefix("sha256:") for f in files if "hash" in f]
    sys.exit(f"dev.py: uv.lock pins no {name}; refresh it with: python3 dev.py lock")


def bootstrap_uv() -> Path:
    """uv, at the version the lock pins (hash-checked), inside .venv."""
    uv = BIN / f"uv{EXE}"
    version, hashes = locked("uv")
    if uv.exists():
        said = subprocess.run([str(uv), "--version"], capture_output=True, text=True).stdout.split()
        if said[1:2] == [version]:
            return uv
    py = str(PYTHON)
    if subprocess.run([py, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        subprocess.run([py, "-m", "ensurepip", "-q"], check=True)  # uv sync leaves out pip: it is not locked
    with tempfile.TemporaryDirectory() as tmp:
        pin = Path(tmp) / "uv.txt"
        pin.write_text(f"uv=={version} " + " ".join(f"--hash=sha256:{h}" for h in hashes) + "\n")
        subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--require-hashes",
                        "-r", str(pin)], check=True)
    return uv


def ensure_python() -> None:
    """A Python new enough, and .venv made with it."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on whatever python3 the machine has
        sys.exit(f"casebook needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        print("dev.py: creating .venv", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)


def ensure_venv() -> Path:
    """Install the lock into .venv when uv.lock or pyproject.toml changed; uv's path."""
    ensure_python()
    uv = bootstrap_uv()
    digest = hashlib.sha256(LOCK.read_bytes() + (ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        return uv
    print("dev.py: installing casebook, its dev tools and the app into .venv, as uv.lock pins them", flush=True)
    # --locked: refuse a lock that no longer agrees with pyproject.toml rather than change it.
    # --compile-bytecode, as pip does: else every process compiles ReportLab, Pillow, ... anew
    # where bytecode is not written at run time (PYTHONDONTWRITEBYTECODE, a read-only venv).
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV)}
    subprocess.run([str(uv), "sync", "--locked", "--all-extras", "--compile-bytecode", "--python", str(PYTHON), "-q"],
                   cwd=ROOT, env=env, check=True)
    STAMP.write_text(digest + "\n")
    return uv


def run(*cmd: str, cwd: Path = ROOT) -> int:
    return subprocess.run(list(cmd), cwd=cwd).returncode


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
    if step not in {"build", "test", "check", "bench", "lock"}:
        print(__doc__)
        return 0 if step == "help" else 2
    if step == "lock":  # before anything is installed from the lock it changes
        ensure_python()
        return run(str(bootstrap_uv()), "lock", *rest)
    uv = ensure_venv()
    py = str(PYTHON)
    if step == "build":
        return run(py, "-m", "casebook", "build", *rest)
    if step == "test":
        return run(py, "-m", "pytest", *rest)
    if step == "check":
        return run(py, "-m", "ruff", "check", ".") or mypy(py) or run(str(uv), "lock", "--check", "-q")
    return run(py, "benchmarks/build.py", *rest) or run(py, "benchmarks/designer.py") or run(py, "benchmarks/replay.py") \
        or run(py, "benchmarks/search.py") or run(py, "benchmarks/app.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
