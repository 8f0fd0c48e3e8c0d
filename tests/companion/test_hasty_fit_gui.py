"""Hasty Accusations with seven players and the Traitor, a long game by taps, at two phone sizes and a landscape
phone: every player's "hold to see" on the window without scrolling however long the "Last:" and "Face up:" lines
grow, no text under 12 sp (a long line wraps or scrolls in its own place), no control under 48 dp, no word split,
and in landscape both halves of the window used. Screenshots: tests/_screens/hasty7-<w>x<h>-<moment>.png."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from casebook.rules.cards import load_database
from casebook.rules.games import hasty
from tests.companion.test_app_gui import SCREENS, run

pytest.importorskip("kivy")

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow", "ottoline_vesey",
       "barnaby_crewe", "imelda_thorne", "rufus_galloway", "perpetua_dawes", "felix_ambrose"]  # nine and two more
SECRETS = dict(zip(NAMES, ["hattie_quill", "traitor", "dorian_fitch", "imelda_thorne", "silas_penhallow",
                           "perpetua_dawes", "rufus_galloway"], strict=True))
FACE_UP = ["solid_alibi", "second_look", "fresh_lead", "paper_shredder", "village_gossip"]  # no choice to make
REVEALED = ["solid_alibi", "paper_shredder", "court_recess", "fresh_lead", "second_look", "bitter_almonds",
            "letter_opener", "village_gossip", "about_face"]
SIZES = [(360, 640), (411, 731), (640, 360)]
def new_game_steps() -> list:
    """Seven players (the form's own names), the Traitor; the row tapped as laid out; each secret by its player."""
    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"tap": "variant_traitor"}]
    steps += [{"tap": f"pick_row_{s}"} for s in ROW]
    for i, name in enumerate(NAMES):
        steps += [{"tap": f"secret_secret_{i}"}, {"tap": f"secret_secret_{i}_{SECRETS[name]}"}]
    return steps + [{"tap": "new_start"}]


def long_game() -> tuple[list[str], dict[str, int]]:
    taps, moments, _events, _at = long_game_events()
    return taps, moments


def long_game_events() -> tuple[list[str], dict[str, int], list[dict], dict[str, int]]:
    """The taps of a long game worked out on the engine: a card with no choice face up at every loupe (the face-up
    cards pile up), else face down spread along the row; reviews reveal what keeps suspects alive. Also when to
    look: `late` after the longest "Last:" line of a play, `review` in a review whose "Last:" line is long. Also the
    events themselves, and how many of them are in at each moment."""
    db = load_database("hasty")
    state = hasty.new_state(db, {"players": NAMES, "variants": ["traitor"], "sets": ["base"], "row": ROW,
                                 "secrets": SECRETS})

    def legal(event: dict) -> bool:
        return hasty.check(copy.deepcopy(state), event) is None

    taps: list[str] = []
    events: list[dict] = []
    moments: dict[str, int] = {}
    at: dict[str, int] = {}
    longest = {"late": 0, "review": 0}
    plays = 0
    while not hasty.is_over(state) and len(taps) < 150:
        who = state.players[state.active]
        if state.phase == "reveal":
            event = next(e for c in REVEALED if legal(e := {"action": "reveal", "by": who, "card": c}))
            taps.append(f"reveal_{event['card']}")
        elif state.phase == "pick":
            event = {"action": "pick", "by": who, "pile": state.tied[0]}
            taps.append(f"suspect_{state.tied[0]}")
        else:
            loupe = state.row[state.loupe]
            ups = [e for c in FACE_UP[plays % len(FACE_UP):] + FACE_UP
                   if legal(e := {"action": "play", "by": who, "at": loupe, "card": c})]
            if ups:
                event = ups[0]
                taps += [f"suspect_{loupe}", f"card_{event['card']}"]
            else:
                others = [x for x in state.row if x != loupe]
                event = {"action": "play", "by": who, "at": others[plays * 3 % len(others)]}
                taps += [f"suspect_{event['at']}", "face_down"]
            plays += 1
        hasty.apply(state, copy.deepcopy(event))
        events.append(event)
        if not hasty.is_over(state) and state.phase in ("play", "reveal"):
            key = "late" if state.phase == "play" else "review"
            if len(state.history[-1]) >= longest[key]:
                longest[key], moments[key], at[key] = len(state.history[-1]), len(taps), len(events)
    return taps, moments, events, at


def test_the_long_game_is_long():
    """What the GUI test below looks at: long lines, several face-up cards on several piles, all seven in."""
    taps, moments = long_game()
    assert moments["late"] > 100 and moments["review"] > 20 and len(taps) > moments["late"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_seven_players_fit_at_every_size(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    taps, moments = long_game()
    where = f"{size[0]}x{size[1]}"
    dumps: dict[str, Path] = {}

    def look(name: str) -> list:
        dumps[name] = tmp_path / f"{name}.json"
        return [{"dump": str(dumps[name])}, {"shot": str(SCREENS / f"hasty7-{where}-{name}.png")}]

    steps = new_game_steps() + look("start")
    for n, tap in enumerate(taps[:moments["late"]], start=1):
        steps.append({"tap": tap})
        if n == moments["review"]:
            steps += look("review")
    steps += look("late") + [{"scroll": ["table.scroll", 0]}] + look("late-scrolled") + [{"quit": True}]
    run(tmp_path, steps, timeout=900, size=size)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    late = data["late"]["summary"]
    assert late["phase"] == "play" and len(late["players"]) == 7 and not late["out"]
    assert sum(len(r["face_up"]) > 1 for r in late["row"]) >= 4, "the late look has few face-up piles"
    assert len(late["history"][-1]) > 150, "the late look's Last: line is short"
    for name, d in data.items():
        assert d["window"] == list(size)
        assert d["small_controls"] == [], f"{where} {name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{where} {name}: words split across lines: {d['split_words']}"
        assert d["small_texts"] == [], f"{where} {name}: text under 12 sp: {d['small_texts']}"
        assert d["covered_texts"] == [], f"{where} {name}: a bust over its tile's words: {d['covered_texts']}"
    for name in ("start", "late", "late-scrolled"):  # every hold: whole on the window, scrolled or not
        out = [n for n in range(7) if not data[name]["controls"].get(f"secret_{n}", {}).get("in_window")]
        assert out == [], f"{where} {name}: hold to see not on the window without scrolling: {out}"
    bar = ["face_down", "clear", "stuck", "undo", "history", "table_rules", "table_home"]
    for name in ("start", "late"):  # the row to play on and the bar: in view too
        keys = bar + [f"suspect_{r['id']}" for r in data[name]["summary"]["row"]]
        out = [k for k in keys if not data[name]["controls"].get(k, {}).get("in_window")]
        assert out == [], f"{where} {name}: not on the window without scrolling: {out}"
    for name in ("start", "late", "late-scrolled"):  # the players: each row whole in view or wholly out of it
        controls, active = data[name]["controls"], data[name]["summary"]["active"]
        rows = {n: controls.get(f"player_{n}") for n in range(7)}
        assert all(rows.values()), f"{where} {name}: a player's row is missing: {rows}"
        half = [n for n, c in rows.items() if not c["in_window"] and c["edges_in_view"] != [False, False]]
        assert half == [], f"{where} {name}: players' rows cut at the edge of their strip: {half}"
        assert rows[NAMES.index(active)]["in_window"], f"{where} {name}: {active}, to play, is not in view"
    review = data["review"]
    if size[1] > size[0]:  # a review: what the last card did shows whole, no line of it cut at its box's edge
        assert review["controls"]["last_text"]["in_window"], f"{where} review: the Last: line is cut"
    cards = [k for k in review["controls"] if k.startswith("reveal_")]
    assert len(cards) == 12 and all(review["controls"][k]["in_window"] for k in cards)
    assert len(review["summary"]["history"][-1]) > 100
    if size[0] > size[1]:  # landscape: the row on the left, the holds and the bar's actions on the right
        for name in ("start", "late"):
            centre = {k: c["rect"][0] + c["rect"][2] / 2 for k, c in data[name]["controls"].items()}
            row = [f"suspect_{r['id']}" for r in data[name]["summary"]["row"]]
            right = [f"secret_{n}" for n in range(7)] + ["face_down", "clear", "stuck"]
            assert all(centre[k] < size[0] / 2 for k in row), f"{name}: the row is not on the left"
            assert all(centre[k] > size[0] / 2 for k in right), f"{name}: the holds are not on the right"


def test_long_names_take_three_holds_a_row(tmp_path):
    """A name too wide for four holds a row: three a row, no word split, each still whole on the window."""
    names = ["Christopher", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    dump = tmp_path / "start.json"
    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(names, start=1)]
    steps += [{"tap": "variant_traitor"}, {"tap": "deal_seed"}, {"text": ["new.seed", "7"]}, {"tap": "new_start"},
              {"dump": str(dump)}, {"shot": str(SCREENS / "hasty7-360x640-long-name.png")}, {"quit": True}]
    run(tmp_path, steps, size=(360, 640))
    d = json.loads(dump.read_text())
    assert d["summary"]["players"] == names
    assert d["split_words"] == [] and d["small_controls"] == []
    rects = [d["controls"][f"secret_{n}"] for n in range(7)]
    assert all(r["in_window"] for r in rects)
    assert len({round(r["rect"][1]) for r in rects}) == 3, "not three rows of holds"


def test_a_choice_in_landscape_keeps_the_row_in_view(tmp_path):
    """Landscape, seven players: a Wrong Turning at the loupe waits for its suspect; every tile of the row (on the
    left) and Cancel in view, what to do on the right, no text under 12 sp."""
    db = load_database("hasty")
    state = hasty.new_state(db, {"players": NAMES, "variants": ["traitor"], "sets": ["base"], "seed": 7})
    dump = tmp_path / "choice.json"
    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"tap": "variant_traitor"}, {"tap": "deal_seed"}, {"text": ["new.seed", "7"]}, {"tap": "new_start"},
              {"tap": f"suspect_{state.row[0]}"}, {"tap": "card_wrong_turning"}, {"dump": str(dump)},
              {"shot": str(SCREENS / "hasty7-640x360-choice.png")}, {"quit": True}]
    run(tmp_path, steps, size=(640, 360))
    d = json.loads(dump.read_text())
    assert d["summary"]["events"] == 0 and len(d["summary"]["row"]) == 11
    keys = [f"suspect_{s}" for s in state.row] + ["choice_cancel"]
    assert [k for k in keys if not d["controls"][k]["in_window"]] == []
    assert any("Ann chooses: taps the suspect in the row on the left." in t for t in d["texts"])
    centre = {k: c["rect"][0] + c["rect"][2] / 2 for k, c in d["controls"].items()}
    assert all(centre[k] < 320 for k in keys[:-1]) and centre["choice_cancel"] > 320
    assert d["split_words"] == [] and d["small_controls"] == []
    assert d["small_texts"] == [], d["small_texts"]
