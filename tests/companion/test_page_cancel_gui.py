"""Lists of choices opened over the table (Graves' abilities, Hasty's "can't play" discard, every page a game
opens) have a Cancel in the fixed action bar, always on the window however long the list, that does exactly
what Back does: the list closes and the table is as before it opened (a half-entered play kept, as Back keeps it)."""

from __future__ import annotations

import pytest

from tests.companion import test_hasty_gui
from tests.companion.test_app_gui import SCREENS, new_game_steps, read_dumps, run

pytest.importorskip("kivy")

BACK = {"key": 27}


def test_graves_abilities_cancel_on_screen_as_back_does(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    d = {n: str(tmp_path / f"{n}.json") for n in ("half", "page", "scrolled", "cancelled", "backed")}
    half = [{"tap": "rank_9"}, {"tap": "suit_notebook"}]
    steps = new_game_steps() + half + [{"dump": d["half"]}, {"tap": "ability"}, {"dump": d["page"]},
                                       {"shot": str(SCREENS / "graves-abilities-cancel.png")},
                                       {"scroll": ["table.scroll", 0.5]}, {"dump": d["scrolled"]},
                                       {"tap": "page_cancel"}, {"dump": d["cancelled"]},
                                       {"tap": "ability"}, BACK, {"dump": d["backed"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    for name in ("page", "scrolled"):
        cancel = data[name]["controls"].get("page_cancel")
        assert cancel is not None and cancel["in_window"], f"{name}: no Cancel on the window: {cancel}"
    assert any(t.startswith("ab_") for t in data["page"]["controls"])
    cancelled, backed = data["cancelled"], data["backed"]
    assert cancelled["screen"] == "table" and not any(t.startswith("ab_") for t in cancelled["controls"])
    assert "page_cancel" not in cancelled["controls"] and "play" in cancelled["controls"]
    assert cancelled["texts"] == backed["texts"] == data["half"]["texts"]  # Cancel is Back: the play half entered
    assert cancelled["summary"] == backed["summary"] == data["half"]["summary"]


def test_hasty_cant_play_cancel_on_screen_as_back_does(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("table", "page", "cancelled", "backed")}
    steps = test_hasty_gui.new_game_steps() + [{"tap": "new_start"}, {"dump": d["table"]}, {"tap": "stuck"}, {"dump": d["page"]},
                                               {"shot": str(SCREENS / "hasty-cant-play-cancel.png")},
                                               {"tap": "page_cancel"}, {"dump": d["cancelled"]},
                                               {"tap": "stuck"}, BACK, {"dump": d["backed"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    page = data["page"]
    assert any(t.startswith("stuck_") and t != "stuck_back" for t in page["controls"])
    assert page["controls"]["page_cancel"]["in_window"]
    cancelled, backed = data["cancelled"], data["backed"]
    assert "face_down" in cancelled["controls"] and not any(t.startswith("stuck_") for t in cancelled["controls"])
    assert cancelled["texts"] == backed["texts"] == data["table"]["texts"]
    assert cancelled["summary"] == backed["summary"] == data["table"]["summary"]


def test_clash_plan_cancel_clears_the_half_entered_plan_as_the_pages_back_does(tmp_path):
    """Moriarty's Crime Plan page: Cancel (and Back) clear the cards tapped so far, as the page's own Back
    does, so the plan tapped half-way never waits behind the table for the next person to open it."""
    from tests.companion.test_clash_pad import PLAN, SEED

    d = {n: str(tmp_path / f"{n}.json") for n in ("tapped", "cancelled", "reopened", "backed")}
    open_page = [{"tap": "plan"}, {"tap": f"plan_{PLAN[0]}"}]
    steps = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]}, {"text": ["new.p2", "Ben"]},
             {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, *open_page, {"dump": d["tapped"]},
             {"tap": "page_cancel"}, {"dump": d["cancelled"]}, {"tap": "plan"}, {"dump": d["reopened"]},
             {"tap": f"plan_{PLAN[0]}"}, BACK, {"tap": "plan"}, {"dump": d["backed"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    lit = [t for t in data["tapped"]["texts"] if t.startswith("1. ")]
    assert lit, "the tapped plan card is not marked 1."
    for name in ("reopened", "backed"):
        assert not [t for t in data[name]["texts"] if t.startswith("1. ")], f"{name}: the half plan came back"
    assert data["cancelled"]["screen"] == "table" and "page_cancel" not in data["cancelled"]["controls"]
