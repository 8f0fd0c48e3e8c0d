"""Every dataclass of generator/ and rules/ (the modules a build imports) says what it is in a docstring (issue 21):
one without makes the dataclass decorator write one at import, from inspect.signature of the class, which was a
tenth of the CPU a build spends making its dataclasses. The rules search's own modules are not a build's."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_A_BUILDS = {Path("rules/search.py"), Path("rules/query_focus.py")}


def dataclasses_without_a_docstring(folder: str, root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / folder).rglob("*.py")):
        if path.relative_to(root) in NOT_A_BUILDS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None
                    and any("dataclass" in ast.unparse(d) for d in node.decorator_list)):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return found


def test_the_generators_dataclasses_say_what_they_are() -> None:
    assert dataclasses_without_a_docstring("generator") == []


def test_the_rules_dataclasses_say_what_they_are() -> None:
    assert dataclasses_without_a_docstring("rules") == []


def test_the_check_finds_a_dataclass_without_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\n"
                                           "class Bare:\n    x: int\n\n\n@dataclass\nclass Told:\n    \"\"\"Told.\"\"\"\n"
                                           "    y: int\n", encoding="utf-8")
    assert dataclasses_without_a_docstring("pkg", tmp_path) == ["pkg/m.py:5 Bare"]
