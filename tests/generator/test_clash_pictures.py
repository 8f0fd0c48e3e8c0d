"""Clash's crime plans show their own picture large (22 mm, once 16 mm in a half-empty card), and the
revealed effect below it still fits at its size."""

from __future__ import annotations

from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Shape, TextRun
from casebook.rules.problems import Problems

BIG = 19.0  # mm: the picture's larger side


def test_each_crime_plans_picture_is_large_and_its_effect_below_it():
    problems = Problems()
    composed = compose_game("clash", BuildOptions(papers=("a4",)), problems)
    assert composed is not None and not problems.items, problems.format()
    faces = composed.faces["crime_plans"]
    assert len(faces) == 9
    for face in faces:
        scene = face.face
        shapes = [i for i in scene.items if isinstance(i, Shape)]
        # the plan's picture: the shapes below the band and the kind's heading (30 mm into the card)
        picture = [s for s in shapes if min(p[1] for path in s.subpaths for p in path) > 30 + scene.bleed]
        assert picture, scene.label
        px = [p[0] for s in picture for path in s.subpaths for p in path]
        py = [p[1] for s in picture for path in s.subpaths for p in path]
        assert max(max(px) - min(px), max(py) - min(py)) >= BIG, (scene.label, max(px) - min(px), max(py) - min(py))
        below = [r for r in scene.items if isinstance(r, TextRun) and r.text.startswith("When revealed")]
        assert below and below[0].y > max(py), "the picture runs into 'When revealed:'"
