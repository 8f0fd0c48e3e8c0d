"""The new-game screen at 360x640 in the real app: it opens at its top each time, a game button stays
where it was while a game is picked (a tap meant for P.I. chose Clash when it had moved), and the colour
swatches tell apart players who share an initial."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("kivy")

from tests.companion.test_app_gui import SCREENS, read_dumps, run  # noqa: E402

GAMES = ("game_graves", "game_pi", "game_syndicate", "game_clash", "game_hasty")


def places(d: dict) -> dict[str, list[float]]:
    return {g: [round(v) for v in d["controls"][g]["rect"]] for g in GAMES}


def test_new_game_opens_at_its_top_and_a_game_button_stays_under_the_finger(tmp_path: Path):
    SCREENS.mkdir(exist_ok=True)
    names = ("first", "scrolled", "again", "picked", "mid", "moved", "back")
    d = {n: str(tmp_path / f"{n}.json") for n in names}
    run(tmp_path, [
        {"tap": "new_game"}, {"dump": d["first"]},
        # the last table chose Hasty and scrolled down its long form, then left
        {"tap": "game_hasty"}, {"scroll": ["new.scroll", 0]}, {"dump": d["scrolled"]}, {"tap": "new_back"},
        {"tap": "new_game"}, {"dump": d["again"]}, {"shot": str(SCREENS / "new-game-reopened.png")},
        # a real finger on P.I. picks P.I.
        {"finger_down": "game_pi"}, {"finger_up": True}, {"dump": d["picked"]},
        # scrolled part-way, a pick that changes the form's height leaves the game buttons where they were
        {"scroll": ["new.scroll", 0.85]}, {"dump": d["mid"]},
        {"finger_down": "game_clash"}, {"finger_up": True}, {"dump": d["moved"]},
        {"shot": str(SCREENS / "new-game-picked.png")},
        # a rule looked up half-way down the form comes back to the same place, not to the top
        {"tap": "newgame_rules"}, {"key": 27}, {"dump": d["back"]}, {"quit": True}])
    dumps = read_dumps(d)
    for name, dump in dumps.items():
        assert dump["window"] == [360, 640]
        assert dump["small_controls"] == [], f"{name}: {dump['small_controls']}"
    assert places(dumps["scrolled"]) != places(dumps["first"])  # the scroll did move them
    assert places(dumps["again"]) == places(dumps["first"]), "New game reopened scrolled"
    assert all(dumps["again"]["controls"][g]["in_window"] for g in GAMES)
    assert "New game: P.I." in dumps["picked"]["texts"]
    assert dumps["mid"]["controls"]["game_clash"]["in_window"]
    assert places(dumps["mid"]) != places(dumps["picked"])  # part-way down
    assert "New game: Clash of Minds" in dumps["moved"]["texts"]
    assert places(dumps["moved"]) == places(dumps["mid"]), "the game buttons moved when a game was picked"
    assert dumps["back"]["screen"] == "new" and places(dumps["back"]) == places(dumps["moved"])


def test_colour_swatches_tell_apart_players_who_share_an_initial(tmp_path: Path):
    """Alexandra and Alexander both showed "A" on the colour each had taken: the shortest part of the name
    that tells them apart, or (names alike for more than 4 letters) the initial and the seat."""
    SCREENS.mkdir(exist_ok=True)
    d = {n: str(tmp_path / f"{n}.json") for n in ("alike", "short", "three")}
    run(tmp_path, [
        {"tap": "new_game"}, {"tap": "game_graves"},
        {"text": ["new.p1", "Alexandra"]}, {"text": ["new.p2", "Alexander"]}, {"dump": d["alike"]},
        {"shot": str(SCREENS / "new-game-swatches-alike.png")},
        {"text": ["new.p2", "Alba"]}, {"dump": d["short"]},
        {"tap": "game_syndicate"}, {"text": ["new.p1", "Alexandra"]}, {"text": ["new.p2", "Alexander"]},
        {"text": ["new.p3", "Ben"]}, {"dump": d["three"]}, {"shot": str(SCREENS / "new-game-swatches-three.png")},
        {"quit": True}])
    dumps = read_dumps(d)
    for name, dump in dumps.items():
        assert dump["small_controls"] == [] and dump["split_words"] == [], name
    assert "A" not in dumps["alike"]["texts"]
    assert {"A1", "A2"} <= set(dumps["alike"]["texts"])
    assert {"Ale", "Alb"} <= set(dumps["short"]["texts"]) and "A" not in dumps["short"]["texts"]
    assert {"A1", "A2", "B"} <= set(dumps["three"]["texts"])
