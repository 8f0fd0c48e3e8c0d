"""Back (Escape on a desktop) in the real app: it clears a half-entered play before leaving the
table, goes back a screen everywhere else, and leaves the app only from the start screen, after
asking; nothing recorded is lost."""

from __future__ import annotations

import pytest

from tests.companion.test_app_gui import new_game_steps, read_dumps, run

pytest.importorskip("kivy")

BACK = {"key": 27}


def test_back_clears_then_goes_back_and_asks_before_leaving(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("asked", "stayed", "half", "cleared", "left_table", "history",
                                                    "from_history", "rules", "from_rules", "ability",
                                                    "from_ability", "resumed", "from_new")}
    steps = [BACK, {"dump": d["asked"]}, {"tap": "leave_no"}, {"dump": d["stayed"]}]
    steps += [{"tap": "new_game"}, BACK, {"dump": d["from_new"]}]
    steps += new_game_steps() + [{"tap": "rank_9"}, {"tap": "suit_notebook"}, {"tap": "play"},
                                 {"tap": "rank_5"}, {"tap": "suit_notebook"}, {"dump": d["half"]}, BACK,
                                 {"dump": d["cleared"]}]
    steps += [{"tap": "history"}, {"dump": d["history"]}, BACK, {"dump": d["from_history"]}]
    steps += [{"tap": "table_rules"}, {"dump": d["rules"]}, BACK, {"dump": d["from_rules"]}]
    steps += [{"tap": "ability"}, {"dump": d["ability"]}, BACK, {"dump": d["from_ability"]}]
    steps += [BACK, {"dump": d["left_table"]}, {"tap_prefix": "resume_"}, {"dump": d["resumed"]},
              {"tap": "table_home"}, BACK, {"tap": "leave_yes"}, {"mark": str(tmp_path / "still-running")}]
    run(tmp_path, steps)
    data = read_dumps(d)
    assert data["asked"]["screen"] == "start" and "leave_yes" in data["asked"]["controls"]
    assert data["stayed"]["screen"] == "start" and "leave_yes" not in data["stayed"]["controls"]
    assert data["from_new"]["screen"] == "start"
    assert "5 Notebook" in " ".join(data["half"]["texts"])
    cleared = data["cleared"]
    assert cleared["screen"] == "table" and "5 Notebook" not in " ".join(cleared["texts"])
    assert cleared["summary"]["events"] == 1  # Ann's play stays; only Ben's unfinished one went
    assert (data["history"]["screen"], data["from_history"]["screen"]) == ("history", "table")
    assert (data["rules"]["screen"], data["from_rules"]["screen"]) == ("rules", "table")
    ability = data["ability"]["controls"]
    assert "page_cancel" in ability and not any(c.endswith("_back") for c in ability)  # one way back: the bar's
    assert "play" in data["from_ability"]["controls"]
    assert data["left_table"]["screen"] == "start"
    assert data["resumed"]["summary"] == cleared["summary"]
    assert not (tmp_path / "still-running").exists()  # Leave stopped the app before the next step
