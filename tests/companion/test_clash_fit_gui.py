"""Clash of Minds fits its window: a whole game by taps at 360 x 640, 411 x 731 and 640 x 360, looked at (and
dumped) at each kind of moment from the top of the state and from its bottom. No text is cut (the thread
boxes' card lists and their "Moriarty +5" lines included), no word split, no control under 48 dp; every key
of the pad and the bar on the window without scrolling; every thread and both players' rows reachable by
scrolling; in landscape the right column holds the threads, not empty space. Screenshots:
tests/_screens/clashfit-<w>x<h>-<moment>[-bottom].png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.rules.cards import load_database
from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_clash_pad import SEED, planned_game

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]
BAR = ["undo", "history", "table_rules", "table_home"]
SCROLLS = [1, 0.75, 0.5, 0.25, 0]  # where the state is looked at: enough for a row to be whole at one of them
ROWS = ["player_holmes", "player_moriarty", "thread_box_1", "thread_box_2", "thread_box_3"]


def fit_steps(tmp: Path, size: tuple[int, int]) -> tuple[list, dict[str, Path], list[str]]:
    """The planned game's taps with, at each kind of moment, dumps at five scrolls of the state and the pad, and
    shots from their top and their bottom; and the moments whose keys must all be in view."""
    db = load_database("clash")
    taps, _pad = planned_game(db, SEED)
    dumps: dict[str, Path] = {}
    w, h = size

    def look(name: str) -> list:
        out: list = []
        for at in SCROLLS:  # both scrolling parts scrolled alike: 1 the top, 0 the bottom
            key = name if at == 1 else f"{name}@{at}"
            dumps[key] = tmp / f"{key}.json"
            out += [{"scroll": ["table.scroll", at]}, {"scroll": ["table.pad_scroll", at]}, {"dump": str(dumps[key])}]
            if at in (0, 1):
                out.append({"shot": str(SCREENS / f"clashfit-{w}x{h}-{name}{'' if at else '-bottom'}.png")})
        return [*out, {"scroll": ["table.scroll", 1]}, {"scroll": ["table.pad_scroll", 1]}]

    steps: list = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                   {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"},
                   *look("start")]
    turns = 0
    seen: set[str] = set()
    keys: list[str] = ["start"]  # the moments where the pad's keys and the bar must be on the window unscrolled
    for n, tap in enumerate(taps):
        moment = None
        if tap == "thread_1" and taps[n - 1] == "deal_site" and "lay" not in seen:
            moment = "lay"
        elif tap.startswith("card_") and taps[n - 1].startswith("thread_") and "naming" not in seen:
            moment = "naming"
        elif tap == "record_setup" and "named" not in seen:
            moment = "named"
        elif tap.startswith("thread_") and taps[n - 1].startswith("card_") and "picked" not in seen and turns:
            moment = "picked"
        elif tap == "end_turn":
            turns += 1
            moment = {4: "turn4", 10: "turn10"}.get(turns)
        elif tap == "place" and "place" not in seen:
            moment = "place"
        elif tap == "take_skip" and "reveal" not in seen:
            moment = "reveal"
        elif tap == "deal_site" and "lay" in seen and "summary" not in seen:
            moment = "summary"
        if moment:
            seen.add(moment)
            steps += look(moment)
            if moment not in ("summary", "turn4", "turn10"):
                keys.append(moment)
        steps.append({"tap": tap})
    steps += [*look("over"), {"quit": True}]
    return steps, dumps, keys


def pad_keys(d: dict) -> list[str]:
    """The testids of the pad's keys and the action bar (thread_1, card_..., end_turn, ...) on show."""
    boxes = ("thread_box_", "total_", "player_", "secret_", "clock_dial")
    return [k for k in d["controls"] if not k.startswith(boxes)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_clash_table_fits_every_window(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    steps, dumps, keys = fit_steps(tmp_path, size)
    run(tmp_path, steps, timeout=1500, size=size)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    assert len(data) == len(SCROLLS) * 11, sorted(data)  # every moment was reached
    for name, d in data.items():
        assert d["screen"] == "table" and d["window"] == list(size)
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
        assert d["cut_texts"] == [], f"{name}: texts cut: {d['cut_texts']}"
        assert d["small_texts"] == [], f"{name}: texts under 12 sp: {d['small_texts']}"
    for name in keys:  # every key of the pad and the bar on the window without scrolling
        d = data[name]
        out = [k for k in pad_keys(d) if not d["controls"][k]["in_window"]]
        assert out == [] and all(k in d["controls"] for k in BAR), f"{name}: keys off the window: {out}"
    for name in [n for n in data if "@" not in n]:
        # every row whole on the window at one of the scrolls or, taller than its scrolling part, each of its
        # edges in view at one of them (scrolling in between shows every line of it)
        looks = [data[name if at == 1 else f"{name}@{at}"]["controls"] for at in SCROLLS]
        drawn = [r for r in ROWS if any(r in c for c in looks)]
        assert drawn == ROWS, f"{name}: rows not drawn: {set(ROWS) - set(drawn)}"
        hidden = [r for r in ROWS if not any(c.get(r, {}).get("in_window") for c in looks)
                  and not all(any(c.get(r, {}).get("edges_in_view", [0, 0])[e] for c in looks) for e in (0, 1))]
        assert hidden == [], f"{name}: rows out of reach: {hidden}"
    w, h = size
    if w > h:  # landscape: the threads on the right, their counts in view from the top at a turn
        for name in ("turn4", "turn10", "picked", "over"):
            c = data[name]["controls"]
            for n in (1, 2, 3):
                assert c[f"thread_box_{n}"]["rect"][0] >= w * 0.4, f"{name}: thread {n} is not on the right"
            for n in (1, 2, 3):
                assert c[f"total_{n}"]["in_window"], f"{name}: thread {n}'s count off the window"


AGENTS_GAME = "g07_agents_second_player_limit"  # the Agent mode: agents, support under them, a cancelled card


def save_agents_game(tmp: Path) -> None:
    """The referee game with Agents saved late in Stage 2 (Ben's last turn) in the app's data under `tmp`: the most
    cards in the threads, an agent active, a card cancelled; the app resumes it."""
    import dataclasses

    from casebook.companion.store import Store
    from casebook.rules.log import parse_log
    from casebook.rules.problems import Problems

    path = Path(__file__).resolve().parent.parent / "data" / "logs" / "clash" / "referee" / f"{AGENTS_GAME}.yaml"
    log = parse_log(path.read_text(), path.name, Problems())
    assert log is not None
    late = next(n for n, e in enumerate(log.events) if e["action"] == "place" and n > 40) - 3
    store = Store(tmp / "data" / "games")
    store.save(store.new_id("clash"), dataclasses.replace(log, events=log.events[:late], event_places=[]))


AGENT_CASES = [*[(size, False) for size in SIZES], ((360, 640), True)]


@pytest.mark.parametrize("size,large", AGENT_CASES, ids=[f"{w}x{h}{'-large' * g}" for (w, h), g in AGENT_CASES])
def test_an_agents_game_late_in_stage_2_fits_every_window(tmp_path, size, large):
    """The referee game with Agents saved late in Stage 2 (the most cards in the threads, an agent active, a
    card cancelled) at a turn with five keys in the bar (Support, Use, Draw, Agent, End turn), resumed: nothing
    cut, every row in reach; in large text too (the five keys once split "Suppor t" and stood out of the bar)."""
    SCREENS.mkdir(exist_ok=True)
    save_agents_game(tmp_path)
    w, h = size
    dumps = {at: tmp_path / f"agents@{at}.json" for at in SCROLLS}
    steps: list = [{"tap": "start_settings"}, {"tap": "set_large"}, {"tap": "settings_back"}] if large else []
    steps.append({"tap_prefix": "resume_"})
    for at in SCROLLS:
        steps += [{"scroll": ["table.scroll", at]}, {"scroll": ["table.pad_scroll", at]}, {"dump": str(dumps[at])}]
        if at in (0, 1):
            steps.append({"shot": str(SCREENS / f"clashfit-{w}x{h}{'-large' * large}-agents{'' if at else '-bottom'}.png")})
    run(tmp_path, [*steps, {"quit": True}], size=size)
    data = {at: json.loads(p.read_text()) for at, p in dumps.items()}
    top = data[1]
    assert top["summary"]["variants"] == ["agents"] and top["summary"]["stage"] == 2
    assert any("agent" in t and "active" in t for t in top["texts"]) and any("cancelled" in t for t in top["texts"])
    for at, d in data.items():
        assert d["small_controls"] == [] and d["split_words"] == [], (at, d["small_controls"], d["split_words"])
        assert d["cut_texts"] == [], f"at scroll {at}: texts cut: {d['cut_texts']}"
        assert d["small_texts"] == [], f"at scroll {at}: texts under 12 sp: {d['small_texts']}"
    looks = [d["controls"] for d in data.values()]
    hidden = [r for r in ROWS if not any(c.get(r, {}).get("in_window") for c in looks)
              and not all(any(c.get(r, {}).get("edges_in_view", [0, 0])[e] for c in looks) for e in (0, 1))]
    assert hidden == [], f"rows out of reach: {hidden}"
    out = [k for k in pad_keys(top) if not top["controls"][k]["in_window"]]
    assert out == [], f"keys off the window: {out}"
    assert {"support", "use", "draw", "agent", "end_turn"} <= set(top["controls"])
    # the clock's dial is drawn (resumed in landscape it was once left blank): its outline in the text colour
    from PIL import Image

    x, y, dw, dh = top["controls"]["clock_dial"]["rect"]
    shot = Image.open(SCREENS / f"clashfit-{w}x{h}{'-large' * large}-agents.png").convert("L")
    box = (int(x), int(h - y - dh), int(x + dw), int(h - y))  # the window's y runs up, the picture's down
    assert shot.crop(box).getextrema()[0] < 80, f"no dial drawn in {box}"
