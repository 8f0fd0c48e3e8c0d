"""What a build lets go of to keep a large deck's memory flat, and that composing after it still works.

(The memory itself is measured by `benchmarks/designer.py --memory`, not here.)
"""

from __future__ import annotations

from pathlib import Path

from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import TextRun
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def test_cards_values_let_go_after_composing_and_made_again_when_asked():
    problems = Problems()
    opts = BuildOptions(papers=("a4",), cards_dir=TINY / "cards", layouts_dir=TINY / "layouts")
    composed = compose_game("moth", opts, problems)
    assert composed is not None, problems.format()
    composer = composed.composer
    assert "cards" not in composer.base and "by_id" not in composer.base  # not held while the PDF is drawn
    deck = composed.db.components["deck"]
    again = composer.faces(deck)  # as a print service's export composes again
    assert [(f.face_key, f.back_key) for f in again] == [(f.face_key, f.back_key) for f in composed.faces["deck"]]
    aid = composer.page("moth/aid", 210, 297, composed.db.place, {"sheet": {"id": "aid", "name": "Player aid"},
                                                                 "sets": []})
    assert aid is not None and not problems, problems.format()
    names = {item.text for item in aid.items if isinstance(item, TextRun)}
    assert {c.data["name"] for c in deck.cards} <= names  # the aid's table lists every card, read through `cards`
