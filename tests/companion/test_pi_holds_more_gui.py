"""P.I. with five players: in landscape each player's "hold to see" reads on one or two lines (not a word a line), and
the More... page has one way back to the table, the Cancel in the fixed action bar where every page keeps it."""

from __future__ import annotations

import json

import pytest

from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_pi_gui import NAMES, SEED

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]
BACK_WORDS = ("back", "cancel", "close", "return")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_holds_on_two_lines_and_one_way_back_from_more(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    w, h = size
    dumps = {n: tmp_path / f"{n}.json" for n in ("table", "more", "cancelled", "more2", "backed")}

    def look(name: str) -> list[dict]:
        return [{"dump": str(dumps[name])}, {"shot": str(SCREENS / f"pi5-{w}x{h}-{name}.png")}]

    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"},
              *look("table"), {"tap": "more"}, *look("more"), {"tap": "page_cancel"}, {"dump": str(dumps["cancelled"])},
              {"tap": "more"}, {"dump": str(dumps["more2"])}, {"key": 27}, {"dump": str(dumps["backed"])},
              {"quit": True}]
    run(tmp_path, steps, size=size, timeout=300)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}

    table = data["table"]
    holds = {n: table["controls"][f"secret_{n}"] for n in range(len(NAMES))}
    assert all(c["in_window"] for c in holds.values()), f"{w}x{h}: a hold is off the window"
    if w > h:  # landscape: the state's column is narrow; each hold on one or two lines, never a word a line
        lines = {NAMES[n]: c["lines"] for n, c in holds.items()}
        assert all(1 <= len(x) <= 2 for x in lines.values()), f"{w}x{h}: holds wrapped past two lines: {lines}"
    for name in ("table", "more"):
        d = data[name]
        assert d["small_controls"] == [] and d["split_words"] == [] and d["small_texts"] == [], name

    more = data["more"]  # one way back, in the fixed action bar, in view
    back = {k: " ".join(c.get("lines", [])) for k, c in more["controls"].items()
            if any(word in " ".join(c.get("lines", [])).lower() for word in BACK_WORDS)}
    assert list(back) == ["page_cancel"], f"{w}x{h}: ways back from More...: {back}"
    assert more["controls"]["page_cancel"]["in_window"] and "more_back" not in more["controls"]
    assert any(k.startswith("misled_") for k in more["controls"])
    for name in ("cancelled", "backed"):  # Cancel and Back both lead to the table, as it was
        d = data[name]
        assert d["screen"] == "table" and "more" in d["controls"] and "page_cancel" not in d["controls"], name
        assert d["summary"] == table["summary"], name
