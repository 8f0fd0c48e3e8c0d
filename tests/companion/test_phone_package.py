"""The phone package: the files buildozer.spec puts in the APK, alone, run the companion and play each game.

The APK cannot be built here, so this does what buildozer does with the spec's file set: selects the
files as its `_copy_application_sources` does (our own code, same rules), copies them alone into a
folder, and runs `main.py` from there with a Python that has Kivy and PyYAML but no casebook installed
(a missing file cannot be made up for by the editable install). The real app then starts a game of each
of the five, records a few events by taps (companion/driver.py), and at exit lists every module it
loaded and every repository file it opened: all of casebook from the copy, nothing of the generator.
"""

from __future__ import annotations

import configparser
import fnmatch
import json
import os
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("kivy")

from tests.companion.test_app_gui import env_for, location_steps  # noqa: E402
from tests.companion.test_app_gui import new_game_steps as graves_new_game  # noqa: E402
from tests.companion.test_clash_pad import PLAN as CLASH_PLAN  # noqa: E402
from tests.companion.test_clash_pad import SEED as CLASH_SEED  # noqa: E402
from tests.companion.test_hasty_gui import new_game_steps as hasty_new_game  # noqa: E402
from tests.companion.test_hasty_gui import planned_game as hasty_taps  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "buildozer.spec"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
APP_PACKAGES = ("casebook.companion", "casebook.rules", "casebook.cards")  # what the phone runs
KEPT_OUT = ("generator", "layouts", "casebook", "tests", "benchmarks", "tools", "docs", "output")
GAMES = ("graves", "syndicate", "pi", "hasty", "clash")


# --- the file set, as buildozer selects it -----------------------------------------------------------

def spec_list(app: configparser.SectionProxy, key: str) -> list[str]:
    """A list option of the spec: comma separated, spaces around each item dropped."""
    return [item.strip() for item in app.get(key, "").split(",") if item.strip()]


def select_files(spec: Path, base: Path | None = None) -> list[str]:
    """The files buildozer copies into the APK, as paths relative to source.dir ('/'-separated).

    `base` is the folder buildozer runs in (where source.dir starts): the spec's own folder unless a
    test reads a changed copy of the spec against the repository. The rules are buildozer's: a folder
    with a part starting with '.' is skipped (os.walk still goes into it); a folder is excluded by
    exclude_dirs (a prefix, ending in '/') or an exclude pattern on its lowercased path plus '/', and
    brought back by an include pattern; an excluded folder's files are skipped, its subfolders tested
    on their own; a file by the patterns on its path, then by its extension (a file without one passes).
    """
    config = configparser.ConfigParser()
    config.read(spec, encoding="utf-8")
    app = config["app"]
    source = ((base or spec.parent) / app.get("source.dir", ".")).resolve()
    include_exts, exclude_exts = spec_list(app, "source.include_exts"), spec_list(app, "source.exclude_exts")
    exclude_dirs = [d if d.endswith("/") else d + "/" for d in spec_list(app, "source.exclude_dirs")]
    exclude_patterns = spec_list(app, "source.exclude_patterns")
    include_patterns = spec_list(app, "source.include_patterns")

    def excluded(name: str) -> bool:
        out = any(fnmatch.fnmatch(name, p) for p in exclude_patterns)
        return out and not any(fnmatch.fnmatch(name, p) for p in include_patterns)

    chosen = []
    for root, _dirs, files in os.walk(source, followlinks=True):
        if any(part.startswith(".") for part in root.split(os.sep)):
            continue
        relative = root[len(str(source)) + 1:]
        folder = relative.lower() + "/" if relative else ""
        if folder:
            by_dir = any(folder.startswith(d.lower()) for d in exclude_dirs)
            if by_dir and not any(fnmatch.fnmatch(folder, p) for p in include_patterns):
                continue
            if not by_dir and excluded(folder):
                continue
        for name in files:
            if name.startswith("."):
                continue
            if excluded(str(Path(folder, name)) if folder else name.lower()):
                continue
            ext = os.path.splitext(name)[1][1:]
            if ext and ((include_exts and ext not in include_exts) or ext in exclude_exts):
                continue
            chosen.append(Path(relative, name).as_posix())
    return sorted(chosen)


def copy_files(files: list[str], source: Path, dest: Path) -> Path:
    for name in files:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, dest / name)
    return dest


def wheel_files_of_the_app() -> set[str]:
    """What the wheel holds of the packages the phone runs (their modules and package data), by
    repository path: pyproject's package-dir, packages and package-data say which files those are."""
    tool = PYPROJECT["tool"]["setuptools"]
    package_dir, data = tool["package-dir"], tool["package-data"]
    out = set()
    for package in tool["packages"]:
        if not package.startswith(APP_PACKAGES):
            continue
        top = max((p for p in package_dir if package == p or package.startswith(p + ".")), key=len)
        folder = ROOT / package_dir[top] / Path(*package[len(top):].split(".")[1:])
        patterns = ["*.py", *data.get(package, [])]
        out |= {p.relative_to(ROOT).as_posix() for pattern in patterns for p in folder.glob(pattern) if p.is_file()}
    return out


def problems_of(files: list[str]) -> list[str]:
    """What is wrong with a file set for the APK: what the app needs and lacks, what must stay out."""
    have = set(files)
    need = {"main.py", "cards/__init__.py", *(f"cards/{g}/game.yaml" for g in GAMES)} | wheel_files_of_the_app()
    assert any(n.endswith(".kv") for n in need) and any(n.startswith("companion/assets/symbols/") for n in need)
    out = [f"missing: {n}" for n in sorted(need - have)]
    for name in files:
        parts = name.split("/")
        if parts[0] in KEPT_OUT or name == "dev.py" or any(p.startswith(".") for p in parts):
            out.append(f"must stay out: {name}")
        elif name.endswith(".py") and name != "main.py" and parts[0] not in ("companion", "rules", "cards"):
            out.append(f"code the app does not run: {name}")
    return out


def test_the_spec_selects_what_the_app_needs_and_keeps_the_rest_out():
    files = select_files(SPEC)
    assert problems_of(files) == []
    assert "companion/kv/table.kv" in files and "companion/assets/symbols/magnifier.png" in files


def test_a_spec_that_leaves_out_the_cards_is_caught(tmp_path):
    config = configparser.ConfigParser()
    config.read(SPEC, encoding="utf-8")
    config["app"]["source.exclude_dirs"] += ",cards"
    broken = tmp_path / "buildozer.spec"
    with broken.open("w", encoding="utf-8") as f:
        config.write(f)
    problems = problems_of(select_files(broken, base=ROOT))
    assert "missing: cards/graves/game.yaml" in problems and "missing: cards/__init__.py" in problems
    assert all(p.startswith("missing: cards/") for p in problems)


# --- a Python without casebook ----------------------------------------------------------------------

RECORDER = '''\
"""Test-only (test_phone_package.py): at exit, write every loaded module's file, and every file opened
in the repository ($CASEBOOK_REPO) or the folder the app started in, to $CASEBOOK_RECORD."""
import atexit, json, os, sys

if os.environ.get("CASEBOOK_RECORD"):
    _watched = (os.path.join(os.environ["CASEBOOK_REPO"], ""), os.path.join(os.getcwd(), ""))
    _opened = set()

    def _on_open(event, args):
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.path.abspath(os.fsdecode(args[0]))
            if path.startswith(_watched):
                _opened.add(path)

    sys.addaudithook(_on_open)

    @atexit.register
    def _write():
        modules = {name: os.path.abspath(m.__file__) if isinstance(getattr(m, "__file__", None), str) else None
                   for name, m in list(sys.modules.items())}
        with open(os.environ["CASEBOOK_RECORD"], "w") as f:
            json.dump({"modules": modules, "opened": sorted(_opened)}, f)
'''


def make_python(where: Path) -> Path:
    """A new venv: no pip, no casebook; this interpreter's site-packages (Kivy, PyYAML) on its path by a
    .pth line, which does not run the .pth files in that folder (so not the editable install's finder)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = site.getsitepackages()
    if sys.prefix == sys.base_prefix:  # not itself a venv: Kivy may be in the user's site-packages
        ours.append(site.getusersitepackages())
    (Path(purelib) / "outside.pth").write_text("".join(f"{p}\n" for p in ours))
    (Path(purelib) / "sitecustomize.py").write_text(RECORDER)
    return python


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    """The APK's file set copied alone, and a Python without casebook to run it."""
    tmp = tmp_path_factory.mktemp("phone")
    app = copy_files(select_files(SPEC), ROOT, tmp / "app")
    return app, make_python(tmp / "venv")


def test_the_python_has_kivy_and_yaml_but_no_casebook(phone, tmp_path):
    app, python = phone
    probe = ("import importlib.util as u, json; "
             "print(json.dumps({m: u.find_spec(m) is not None for m in ('kivy', 'yaml', 'casebook')}))")
    found = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert json.loads(found.stdout) == {"kivy": True, "yaml": True, "casebook": False}, found.stderr
    plain = subprocess.run([str(python), "-c", "import casebook.rules"], cwd=app.parent, capture_output=True,
                           text=True, timeout=60)
    assert plain.returncode != 0 and "No module named 'casebook'" in plain.stderr


# --- each game played from the copy -----------------------------------------------------------------

def game_steps() -> dict[str, list]:
    """A new game of each and two events by taps (the sequences of the games' own GUI tests)."""
    return {
        "graves": [{"tap": "new_game"}, {"tap": "game_graves"}, *graves_new_game()[1:], *location_steps()[:6]],
        "syndicate": [{"tap": "new_game"}, {"tap": "game_syndicate"}, {"text": ["new.p1", "Ann"]},
                      {"text": ["new.p2", "Ben"]}, {"text": ["new.p3", "Cat"]}, {"tap": "new_start"},
                      *({"tap": t} for t in ("rank_8", "suit_moons", "rank_9", "suit_knots", "rank_7", "suit_suns",
                                             "rank_2", "suit_knots", "confirm", "rank_A", "suit_waves",
                                             "rank_crown", "suit_waves", "rank_8", "suit_waves", "confirm"))],
        "pi": [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"},
               *({"text": [f"new.p{n}", name]} for n, name in enumerate(["Ann", "Ben", "Cat", "Dan", "Eve"], 1)),
               {"text": ["new.seed", "7"]}, {"tap": "new_start"}, {"tap": "deal_seed"},
               {"tap": "district_little_italy"}, {"tap": "confirm"}],
        "hasty": [*hasty_new_game(), {"tap": "new_start"}, *({"tap": t} for t in hasty_taps()[:4])],
        "clash": [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                  {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(CLASH_SEED)]}, {"tap": "new_start"},
                  *({"tap": t} for t in ("plan", *(f"plan_{p}" for p in CLASH_PLAN), "plan_lay", "deal_site"))],
    }


def kivy_log(tmp: Path) -> str:
    """The end of the app's Kivy log: with KIVY_NO_CONSOLELOG a traceback goes there, not to stderr."""
    logs = sorted((tmp / "kivy" / "logs").glob("*.txt"), key=lambda p: p.stat().st_mtime)
    return logs[-1].read_text(errors="replace")[-3000:] if logs else ""


def play_from_the_copy(app: Path, python: Path, tmp: Path, timeout: float = 180) -> dict:
    """`python main.py` in the app folder, as the phone starts it, through each game in turn; the dumps,
    the record of modules and files, and the process."""
    steps: list = []
    for game, taps in game_steps().items():
        steps += [*taps, {"dump": str(tmp / f"{game}.json")}, {"tap": "table_home"}]
    steps += [{"dump": str(tmp / "start.json")}, {"quit": True}]
    script = tmp / "phone.json"
    script.write_text(json.dumps(steps))
    env = env_for(tmp, script)
    for key in ("PYTHONPATH", "PYTHONHOME", "CASEBOOK_WIDTH", "CASEBOOK_HEIGHT"):  # those are run_app.py's
        env.pop(key, None)
    env.update(KCFG_GRAPHICS_WIDTH="360", KCFG_GRAPHICS_HEIGHT="640",  # Kivy's config from the environment
               CASEBOOK_RECORD=str(tmp / "record.json"), CASEBOOK_REPO=str(ROOT))
    proc = subprocess.run([str(python), "main.py"], cwd=app, env=env, capture_output=True, text=True,
                          timeout=timeout)
    error = script.with_suffix(".error")
    assert not error.exists(), error.read_text() + kivy_log(tmp)
    assert proc.returncode == 0, kivy_log(tmp) + proc.stderr[-3000:]
    dumps = {name: json.loads((tmp / f"{name}.json").read_text()) for name in (*GAMES, "start")}
    return {"dumps": dumps, "record": json.loads((tmp / "record.json").read_text()), "proc": proc}


EVENTS = {"graves": 2, "syndicate": 2, "pi": 2, "hasty": 2, "clash": 2}


def test_each_game_plays_from_the_copy_alone(phone, tmp_path):
    app, python = phone
    run = play_from_the_copy(app, python, tmp_path)
    dumps, record = run["dumps"], run["record"]
    for game in GAMES:
        d = dumps[game]
        assert d["screen"] == "table" and d["window"] == [360, 640], game
        assert d["summary"]["game"] == game and d["summary"]["events"] == EVENTS[game], (game, d["summary"])
    saved = [c for c in dumps["start"]["controls"] if c.startswith("resume_")]
    assert len(saved) == len(GAMES), saved

    app = app.resolve()

    libraries = Path(sys.prefix).resolve()  # Kivy, PyYAML, ...: dev.py's .venv lies inside the repository

    def where(path: str) -> str:
        p = Path(path).resolve()
        if p.is_relative_to(app):
            return "copy"
        return "libraries" if p.is_relative_to(libraries) else "repository" if p.is_relative_to(ROOT) else "elsewhere"

    # every casebook module from the copy, nothing from the repository; no generator, no second copy
    modules = {name: f for name, f in record["modules"].items() if f}
    ours = {name: f for name, f in modules.items() if name.startswith("casebook.")}
    assert "casebook.companion.app" in ours and "casebook.rules.games.clash" in ours
    assert {n: f for n, f in ours.items() if where(f) != "copy"} == {}
    assert [f for f in modules.values() if where(f) == "repository"] == []
    assert [n for n in record["modules"] if n == "casebook.generator" or n.startswith("casebook.generator.")] == []
    bare = [n for n in record["modules"] if n.split(".")[0] in ("rules", "companion", "cards", "generator")]
    assert bare == [], f"imported outside the casebook namespace: {bare}"
    # the card databases and kv files read from the copy (the record sees reads), nothing from the repository
    opened = {f: where(f) for f in record["opened"]}
    read = {Path(f).resolve().relative_to(app).as_posix() for f, w in opened.items() if w == "copy"}
    assert {"cards/clash/game.yaml", "companion/kv/table.kv"} <= read, sorted(read)
    assert [f for f, w in opened.items() if w == "repository"] == []
