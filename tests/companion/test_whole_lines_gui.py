"""The table's scrolling state never shows a line of text cut through at its edges: Hasty with seven players late in a
long game (long "Last:" and "Face up:" lines), at two phone sizes and a landscape phone, scrolled to the top, the
middle and the bottom. A line an edge would cut is hidden whole under a strip of the background."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("kivy")

from casebook.companion.session import Session  # noqa: E402
from casebook.companion.store import Store  # noqa: E402
from casebook.companion.theme import PLAYER_COLOURS  # noqa: E402
from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.log import GameLog  # noqa: E402
from tests.companion.test_app_gui import SCREENS, run  # noqa: E402
from tests.companion.test_hasty_fit_gui import NAMES, ROW, SECRETS, long_game_events  # noqa: E402

SIZES = [(360, 640), (411, 731), (640, 360)]
AT = {"top": 1, "middle": 0.5, "bottom": 0}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_line_cut_at_the_edges_of_the_state(tmp_path, size):
    _taps, _moments, events, at = long_game_events()
    log = GameLog("hasty", 1, NAMES, ["traitor"], None,
                  {"sets": ["base"], "row": ROW, "secrets": SECRETS, "colours": list(PLAYER_COLOURS)})
    session = Session(load_database("hasty"), log, Store(tmp_path / "data" / "games"), "hasty-20261128-010000")
    session.save()
    for event in events[:at["late"]]:
        assert session.do(dict(event)).ok
    SCREENS.mkdir(exist_ok=True)
    w, h = size
    dumps = {name: tmp_path / f"{name}.json" for name in AT}
    steps: list = [{"tap_prefix": "resume_"}]
    for name, y in AT.items():
        steps += [{"scroll": ["table.scroll", y]}, {"dump": str(dumps[name])},
                  {"shot": str(SCREENS / f"whole-lines-hasty7-{w}x{h}-{name}.png")}]
    run(tmp_path, [*steps, {"quit": True}], size=size)
    for name, path in dumps.items():
        d = json.loads(path.read_text())
        assert d["screen"] == "table" and d["summary"]["events"] == at["late"]
        cut = [c for c in d["cut_lines"] if c["part"] != "WrapLine"]  # a WrapLine is sized to its lines itself
        assert cut == [], f"{w}x{h} scrolled to the {name}: lines cut at the state's edge: {cut}"
