"""The methods @dataclass writes are compiled once and kept between runs (generator/classcode.py, issue 21): a
second run of the command line compiles none of its dataclasses' methods, and the classes made so are the same
classes (fields, replace, pickling, frozen, hashing, annotations of __init__) as the dataclasses module makes."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from casebook.generator.classcode import FILE, ClassCode

ROOT = Path(__file__).resolve().parents[2]

# a fresh process importing what a build of a PDF imports, as the command line does; then what it compiled
IMPORTS = """
import json, time
start = time.process_time()
import casebook.cli, casebook.generator.build, casebook.generator.backends.pdf, casebook.generator.backends.recorded
from casebook.generator.classcode import CODE
print(json.dumps({"new": len(CODE.new) if CODE else -1, "used": len(CODE.used) if CODE else -1}))
"""


def imports_with(cache: Path | str) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CASEBOOK_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", IMPORTS], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def test_a_second_run_compiles_none_of_the_builds_dataclass_methods(tmp_path: Path) -> None:
    first, second = imports_with(tmp_path), imports_with(tmp_path)
    assert first["new"] >= 100  # every method of the build's ~48 dataclasses, compiled and kept
    assert second["new"] == 0 and second["used"] == first["used"]  # all found kept
    assert len(list(tmp_path.glob(f"classcode-*/{FILE}"))) == 1


def test_nothing_is_kept_when_the_cache_is_off(tmp_path: Path) -> None:
    assert imports_with("")["new"] >= 100
    assert imports_with("")["new"] >= 100


def test_an_unreadable_file_is_compiled_again_and_written_whole(tmp_path: Path) -> None:
    imports_with(tmp_path)
    (kept,) = tmp_path.glob(f"classcode-*/{FILE}")
    kept.write_bytes(b"\x00 not marshal")
    again = imports_with(tmp_path)
    assert again["new"] >= 100
    assert imports_with(tmp_path)["new"] == 0


def with_code(code: ClassCode, make):  # the class made while the dataclasses module compiles through `code`
    saved = dataclasses.__dict__.get("exec")
    dataclasses.exec = code.run  # type: ignore[attr-defined]
    try:
        return make()
    finally:
        if saved is None:
            del dataclasses.exec  # type: ignore[attr-defined]
        else:
            dataclasses.exec = saved  # type: ignore[attr-defined]


def point_class():
    return dataclasses.make_dataclass("Point", [("x", int), ("y", float, dataclasses.field(default=0.5))],
                                      frozen=True, namespace={"__module__": __name__})


@pytest.mark.parametrize("kept", [False, True])
def test_a_class_made_through_it_is_the_class_the_dataclasses_module_makes(tmp_path: Path, monkeypatch, kept: bool):
    monkeypatch.setenv("CASEBOOK_CACHE_DIR", str(tmp_path))
    first = ClassCode()
    mine = with_code(first, point_class)
    if kept:  # made again in a "next run", from the code kept by the first
        first.save()
        second = ClassCode()
        assert second.kept
        mine = with_code(second, point_class)
        assert not second.new
    plain = point_class()
    assert mine.__init__.__annotations__ == plain.__init__.__annotations__ == {"x": int, "y": float, "return": None}
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        assert getattr(mine, name).__code__.co_code == getattr(plain, name).__code__.co_code, name
    p = mine(1)
    assert repr(p) == repr(plain(1)) == "Point(x=1, y=0.5)"
    assert dataclasses.replace(p, y=2.0) == mine(1, 2.0) and hash(mine(1)) == hash(p)
    assert [f.name for f in dataclasses.fields(mine)] == ["x", "y"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    globals()["Point"] = mine  # pickled by its module and name, as the scene store pickles its items
    try:
        assert pickle.loads(pickle.dumps(p)) == p
    finally:
        del globals()["Point"]
