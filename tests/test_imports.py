"""Who may import whom (house-style.md), held by walking every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = __import__("sys").stdlib_module_names


def imports(package: str) -> dict[str, set[str]]:
    out = {}
    for path in (ROOT / package).rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        out[str(path.relative_to(ROOT))] = names
    return out


def test_rules_imports_only_the_standard_library_and_pyyaml_in_one_place():
    for module, names in imports("rules").items():
        third = {n for n in names if n not in STDLIB and n not in {"rules", "__future__"}}
        if module in ("rules/yamlsource.py",):
            assert third <= {"yaml"}, module
        elif module == "rules/workbook.py":  # .xlsx card sheets, imported only for a workbook
            assert third <= {"openpyxl"}, module
        else:
            assert not third, f"{module} imports {third}"


def test_only_generator_backends_touch_reportlab_and_pillow():
    for module, names in imports("generator").items():
        if "/backends/" in module:
            continue
        # svglib (SVG card art) and pypdfium2 (rasterising it) are drawing libraries too
        assert not names & {"reportlab", "PIL", "svglib", "pypdfium2", "lxml"}, module
        assert "companion" not in names and "kivy" not in names, module
    for package in ("rules", "companion", "casebook"):
        for module, names in imports(package).items():
            assert not names & {"svglib", "pypdfium2"}, module


@pytest.mark.parametrize("package", ["rules", "generator"])
def test_nothing_imports_companion(package):
    """Only the command layer (`casebook app`) may start the companion."""
    for module, names in imports(package).items():
        assert "companion" not in names, module


def test_companion_imports_rules_and_kivy_not_the_generator():
    for module, names in imports("companion").items():
        assert not names & {"generator", "reportlab", "PIL", "jinja2"}, module
