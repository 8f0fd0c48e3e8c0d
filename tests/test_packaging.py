"""Casebook as a Python package: one namespace, the games inside it, a lock that agrees with
pyproject.toml, and a wheel that works from an empty folder in a fresh virtualenv.

The install tests (marker `install`) build a wheel and an sdist with uv, install the wheel into a
new virtualenv at the lock's versions, and use it as a person who ran `pip install casebook`
would: from an empty folder, with nothing of the repository on the path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
DATA = ("cards", "layouts")  # folders shipped as package data
CODE = ("casebook", "rules", "generator", "companion")


def in_package(folder: str) -> str:
    """Where a top folder of the repository lives in the installed package."""
    return "casebook" if folder == "casebook" else f"casebook/{folder}"


def repository_files() -> dict[str, str]:
    """Every file of the folders that install (no caches), by its repository path: its path in the wheel."""
    out = {}
    for folder in CODE + DATA:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and not path.name.startswith("."):
                rel = path.relative_to(ROOT / folder).as_posix()
                out[f"{folder}/{rel}"] = f"{in_package(folder)}/{rel}"
    return out


# --- pyproject.toml and uv.lock, without building anything ------------------------------------


def test_every_folder_of_code_and_data_is_a_package_under_casebook():
    setup = PYPROJECT["tool"]["setuptools"]
    assert setup["package-dir"] == {in_package(f).replace("/", "."): f for f in CODE + DATA}
    found = set()
    for folder in CODE + DATA:
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((*in_package(folder).split("/"), *parts)))
    assert set(setup["packages"]) == found, "pyproject.toml [tool.setuptools] packages: name every subpackage"


def locked_versions() -> dict[str, str]:
    return {canonicalize_name(p["name"]): p["version"] for p in LOCK["package"]}


def test_the_lock_agrees_with_pyproject():
    """uv.lock was made from this pyproject.toml (python3 dev.py lock brings it in line), and each pin
    lies within the range users get."""
    project = PYPROJECT["project"]
    wanted = {Requirement(r) for r in project["dependencies"]}
    for extra, reqs in project["optional-dependencies"].items():
        wanted |= {Requirement(f"{r}; extra == '{extra}'") for r in reqs}
    root = next(p for p in LOCK["package"] if p["name"] == "casebook")
    locked = {Requirement(f"{r['name']}{r.get('specifier', '')}" + (f"; {r['marker']}" if "marker" in r else ""))
              for r in root["metadata"]["requires-dist"]}

    def key(r: Requirement) -> tuple[str, str, str]:
        return canonicalize_name(r.name), str(r.specifier), str(r.marker or "")

    assert sorted(map(key, wanted)) == sorted(map(key, locked)), "uv.lock is stale: run python3 dev.py lock"
    versions = locked_versions()
    for req in wanted:
        version = versions[canonicalize_name(req.name)]
        assert req.specifier.contains(version, prereleases=True), f"{req.name} {version} is outside {req.specifier}"


def test_dev_py_installs_the_uv_the_lock_pins():
    sys.path.insert(0, str(ROOT))
    try:
        import dev
    finally:
        sys.path.remove(str(ROOT))
    version, hashes = dev.locked("uv")
    assert version == locked_versions()["uv"] and hashes and all(len(h) == 64 for h in hashes)


# --- a wheel and an sdist, installed into a fresh virtualenv -----------------------------------

UV = Path(sys.executable).parent / ("uv.exe" if os.name == "nt" else "uv")
install = pytest.mark.install


def uv(*args: str, cwd: Path = ROOT, **kw) -> subprocess.CompletedProcess:
    assert UV.exists(), f"{UV} is missing: the dev extra brings uv (python3 dev.py test installs it)"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    result = subprocess.run([str(UV), *args], cwd=cwd, capture_output=True, text=True, env=env, **kw)
    assert result.returncode == 0, f"uv {' '.join(args)}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """A wheel and an sdist of this checkout (the wheel built from the sdist, as an index would)."""
    out = tmp_path_factory.mktemp("dist")
    uv("build", "--quiet", "--out-dir", str(out), str(ROOT))
    return {"wheel": next(out.glob("casebook-*.whl")), "sdist": next(out.glob("casebook-*.tar.gz"))}


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """A fresh virtualenv holding the wheel at the lock's versions (without the app extra); its bin folder."""
    where = tmp_path_factory.mktemp("venv")
    constraints = where / "constraints.txt"
    constraints.write_text(uv("export", "--frozen", "--all-extras", "--no-emit-project", "--no-hashes",
                              "--no-header", "--quiet").stdout)
    uv("venv", "--quiet", "--python", sys.executable, str(where / "venv"))
    py = where / "venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    uv("pip", "install", "--quiet", "--python", str(py), "-c", str(constraints), str(dist["wheel"]))
    return py.parent


def in_empty_folder(bindir: Path, folder: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess:
    """Run the installed `casebook` from `folder`, with nothing of the repository on the path."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run([str(bindir / "casebook"), *args], cwd=folder, capture_output=True, text=True,
                            env=env, timeout=600)
    assert result.returncode == code, f"casebook {' '.join(args)} exited {result.returncode}:\n{result.stderr[-3000:]}"
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result


@install
def test_the_wheel_holds_casebook_alone_and_every_file_of_the_games_and_layouts(dist):
    names = set(zipfile.ZipFile(dist["wheel"]).namelist())
    name, version = dist["wheel"].name.split("-")[:2]
    assert {n.split("/")[0] for n in names} == {"casebook", f"{name}-{version}.dist-info"}
    missing = set(repository_files().values()) - names
    assert not missing, f"the wheel lacks {sorted(missing)[:10]}"
    assert not {n for n in names if "__pycache__" in n or n.endswith(".pyc")}


@install
def test_the_sdist_holds_the_repository_folders(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {"/".join(n.split("/")[1:]) for n in tar.getnames()}
    expected = set(repository_files())
    assert {"pyproject.toml", "README.md"} <= names
    assert not (expected - names), sorted(expected - names)[:10]


@install
def test_an_installed_wheel_builds_replays_answers_and_makes_games_from_an_empty_folder(installed, tmp_path):
    work = tmp_path / "work"
    in_empty_folder(installed, work, "build", "syndicate", "--paper", "a4")
    assert (work / "output" / "syndicate" / "syndicate-a4.pdf").stat().st_size > 10_000
    made = in_empty_folder(installed, work, "new", "demo")
    assert (work / "demo" / "game.yaml").is_file(), made.stdout
    in_empty_folder(installed, work, "build", "demo")
    assert (work / "output" / "demo" / "demo-a4.pdf").is_file()
    answer = in_empty_folder(installed, work, "rules", "graves", "tie")
    assert "tie" in answer.stdout.lower()
    shutil.copy(ROOT / "tests" / "data" / "logs" / "single_case.yaml", work / "game.yaml")
    replayed = in_empty_folder(installed, work, "replay", "game.yaml", "--json")
    assert '"error"' not in replayed.stdout or '"error": null' in replayed.stdout
    checked = in_empty_folder(installed, work, "validate", "graves")
    assert "graves: ok" in checked.stdout
    # nothing to do is an error that says where it looked
    (work / "empty").mkdir()
    for command in ("build", "validate"):
        said = in_empty_folder(installed, work, command, "--cards", "empty", code=2)
        assert "no game found" in said.stderr and "empty" in said.stderr and "casebook new" in said.stderr
    # without the app extra, `casebook app` says what to install
    said = in_empty_folder(installed, work, "app", code=2)
    assert "casebook[app]" in said.stderr


@install
def test_only_the_casebook_namespace_is_importable_from_the_wheel(installed, tmp_path):
    py = installed / "python"
    probe = ("import importlib.util, casebook.rules.cards as c, casebook.generator.layouts as l\n"
             "print(c.CARDS_DIR, l.LAYOUTS_DIR)\n"
             "print([n for n in ('rules', 'generator', 'companion', 'cards', 'layouts') if importlib.util.find_spec(n)])")
    out = subprocess.run([str(py), "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    cards, layouts = out.splitlines()[0].split()
    site = Path(cards).parent
    assert Path(cards) == site / "cards" and Path(layouts) == site / "layouts" and site.name == "casebook"
    assert "site-packages" in cards, cards
    assert out.splitlines()[1] == "[]", "a top-level module besides casebook is importable"


@install
def test_the_installed_build_is_the_editable_build_to_the_byte(installed, tmp_path):
    in_empty_folder(installed, tmp_path / "wheel", "build", "graves", "--paper", "a4")
    editable = subprocess.run([sys.executable, "-m", "casebook", "build", "graves", "--paper", "a4", "--out",
                               str(tmp_path / "editable")], cwd=tmp_path, capture_output=True, text=True)
    assert editable.returncode == 0, editable.stderr[-2000:]
    wheel_pdf = (tmp_path / "wheel" / "output" / "graves" / "graves-a4.pdf").read_bytes()
    assert wheel_pdf == (tmp_path / "editable" / "graves" / "graves-a4.pdf").read_bytes()


@install
def test_the_app_extra_starts_the_companion_from_the_wheel(installed, dist, tmp_path):
    """With `casebook[app]` the companion finds its screens, pictures and the games inside the package."""
    py = installed / "python"
    constraints = tmp_path / "constraints.txt"
    constraints.write_text(uv("export", "--frozen", "--all-extras", "--no-emit-project", "--no-hashes",
                              "--no-header", "--quiet").stdout)
    uv("pip", "install", "--quiet", "--python", str(py), "-c", str(constraints), f"{dist['wheel']}[app]")
    script, dump = tmp_path / "steps.json", tmp_path / "start.json"
    script.write_text(f'[{{"dump": "{dump.as_posix()}"}}, {{"tap": "new_game"}}, {{"tap": "game_pi"}}, '
                      f'{{"quit": true}}]')
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY") and k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"),
               CASEBOOK_DATA=str(tmp_path / "data"), CASEBOOK_SCRIPT=str(script))
    result = subprocess.run([str(installed / "casebook"), "app"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300)
    assert not script.with_suffix(".error").exists(), script.with_suffix(".error").read_text()
    assert result.returncode == 0, result.stderr[-3000:]
    assert '"screen": "start"' in dump.read_text().replace("'", '"')
