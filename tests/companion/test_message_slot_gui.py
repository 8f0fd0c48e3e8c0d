"""The table's shared message slot holds the longest refusal an engine can word (each engine's refusals read from
its source, names filled in long): at 360 x 640, 411 x 731 and 640 x 360 the text wraps and scrolls in its two
lines at 14 sp (it was shrunk to 10 sp and still cut), nothing under 12 sp, and nothing around it moves.
Screenshots: tests/_screens/message-<w>x<h>[-end].png."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests.companion.test_app_gui import ROOT, SCREENS, new_game_steps, run

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]
NAME = "Marguerite Lowe"  # what stands for each value put into a refusal's words: a long name


def _words(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(NAME if isinstance(v, ast.FormattedValue) else _words(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _words(node.left) + _words(node.right)
    return NAME


def longest_refusal() -> str:
    """The longest "<rule>: <reason>" any engine in rules/games raises, as the app shows a refusal."""
    longest = ""
    for source in sorted((ROOT / "rules" / "games").glob("*.py")):
        tree = ast.parse(source.read_text())
        rules = {n.targets[0].id: n.value.args[0].value for n in tree.body
                 if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 and getattr(n.value.func, "id", "") == "Rule" and isinstance(n.targets[0], ast.Name)}
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "IllegalAction" and n.args:
                rule = n.args[1] if len(n.args) > 1 else None
                name = rules.get(getattr(rule, "id", ""), max(rules.values(), key=len, default="")) if rule else ""
                text = f"{name}: {_words(n.args[0])}" if name else _words(n.args[0])
                longest = max(longest, text, key=len)
    return longest


def test_the_longest_refusal_is_long():
    assert len(longest_refusal()) > 200  # five lines and more at 14 sp on a phone


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_longest_refusal_wraps_and_scrolls_in_its_slot(tmp_path: Path, size):
    SCREENS.mkdir(exist_ok=True)
    w, h = size
    refusal = longest_refusal()
    dumps = {n: tmp_path / f"{n}.json" for n in ("before", "said", "end")}
    steps = [*new_game_steps(), {"dump": str(dumps["before"])}, {"text": ["table.message", refusal]},
             {"dump": str(dumps["said"])}, {"shot": str(SCREENS / f"message-{w}x{h}.png")},
             {"scroll": ["table.message", 0]}, {"dump": str(dumps["end"])},
             {"shot": str(SCREENS / f"message-{w}x{h}-end.png")}, {"quit": True}]
    run(tmp_path, steps, size=size)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    said = data["said"]
    assert said["message"] == refusal and refusal in said["texts"]
    for name in ("said", "end"):
        d = data[name]
        assert d["small_texts"] == [], f"{name}: text under 12 sp: {d['small_texts']}"
        assert d["cut_texts"] == [], f"{name}: texts cut: {d['cut_texts']}"
        assert d["split_words"] == [], f"{name}: words split: {d['split_words']}"
        moved = {k: (c["rect"], d["controls"][k]["rect"]) for k, c in data["before"]["controls"].items()
                 if k in d["controls"] and c["rect"] != d["controls"][k]["rect"]}
        assert moved == {}, f"{name}: the message moved controls: {moved}"
        off = [k for k, c in d["controls"].items() if data["before"]["controls"].get(k, {}).get("in_window")
               and not c["in_window"]]
        assert off == [], f"{name}: controls pushed off the window: {off}"
