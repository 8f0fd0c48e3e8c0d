"""Printed sheets break lines where a reader expects: Graves' scoresheet header 'Detective (A / B)' keeps
'(A / B)' on one line (no-break spaces), where it once wrapped as 'Detective (A' over '/ B)'."""

from __future__ import annotations

import pytest

from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import TextRun
from casebook.rules.problems import Problems


@pytest.fixture(scope="module")
def graves_pages():
    composed = compose_game("graves", BuildOptions(papers=("a4",)), Problems())
    assert composed is not None
    return composed.pages["a4"]


def test_a_slash_never_starts_a_line_of_the_scoresheet(graves_pages):
    scene = next(scene for name, scene in graves_pages if "scoresheet" in name.lower())
    runs = [item.text for item in scene.items if isinstance(item, TextRun)]
    assert any("(A\u00a0/\u00a0B)" in text for text in runs), [t for t in runs if "Detective" in t]
    assert not [t for t in runs if t.lstrip().startswith("/")]
