"""Who may import whom (house-style.md), held by walking every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = __import__("sys").stdlib_module_names


PARTS = {"rules", "generator", "companion", "cards", "layouts"}  # casebook's subpackages (pyproject.toml)


def part(module: str) -> str:
    """Who a module belongs to: casebook.rules.cards -> rules, casebook.cli -> casebook, yaml -> yaml."""
    names = module.split(".")
    return names[1] if names[0] == "casebook" and len(names) > 1 and names[1] in PARTS else names[0]


def imported(path: Path) -> list[str]:
    """Every absolute module name a file imports."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def imports(package: str) -> dict[str, set[str]]:
    """For each module of a folder, the parts it imports (rules, generator, kivy, yaml, ...)."""
    return {str(path.relative_to(ROOT)): {part(m) for m in imported(path)} for path in (ROOT / package).rglob("*.py")}


def test_everything_imports_casebook_by_its_one_name():
    """rules, generator and companion install as casebook.*; no file imports them by a second name."""
    for folder in ("casebook", *PARTS, "tests", "benchmarks", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            bare = {m for m in imported(path) if m.split(".")[0] in PARTS}
            assert not bare, f"{path.relative_to(ROOT)} imports {bare}: write casebook.{sorted(bare)[0]}"
    assert not {m for m in imported(ROOT / "main.py") if m.split(".")[0] in PARTS}


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


def test_kv_files_import_casebook_by_its_one_name():
    """A kv file's `#:import` is an import too (found only when the app loads it, and not by ast)."""
    for path in (ROOT / "companion").rglob("*.kv"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("#:import"):
                module = line.split()[2]
                assert module.split(".")[0] not in PARTS, f"{path.relative_to(ROOT)}:{number}: write casebook.{module}"


@pytest.mark.parametrize("folder", sorted(PARTS))
def test_a_folder_imported_by_its_bare_name_says_which_name_to_use(folder):
    """From the repository's top (as `python -m pytest` runs), `import rules` would load a second copy."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", f"import {folder}"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0 and f"is the package casebook.{folder}: import it by that name" in result.stderr
