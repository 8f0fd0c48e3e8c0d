"""Clash of Minds in the real app at 360 x 640: a new game set up by taps (names, green and red, the seed),
then a whole game kept by taps alone: the plan entered by Moriarty alone, sites dealt from the seed, the
Initial Setup laid and named, cards played, used and supported, the Final Turn placed alone and revealed in
turn, each Summary thread by thread, to the ending; history and rules lookup. No hidden crime plan card and
no face-down Action Card shows anywhere but in its owner's hold or entry page; every control 48 dp or more,
and every key of the pad and bar on the window without scrolling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from casebook.rules.cards import load_database
from casebook.rules.log import GameLog, parse_log
from casebook.rules.problems import Problems
from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_clash_pad import PLAN, SEED, planned_game

pytest.importorskip("kivy")

BAR = ["undo", "history", "table_rules", "table_home"]
PLAN_NAMES = ["Lady Honoria Vale", "Kidnapping", "The Crimson Sapphire"]
HOLDS = ("Your Crime Plan", "Your Action Cards")  # the words of a hold: never on the table itself


def leaks(dump: dict) -> list[str]:
    """Hidden things on the table: a crime plan card of a thread not yet revealed, a hold's words."""
    s = dump["summary"]
    if dump["screen"] != "table" or s is None or s["phase"] == "over":
        return []
    shown = "\n".join(dump["texts"])
    hidden = [PLAN_NAMES[i] for i, t in enumerate(s["threads"]) if not t["revealed"]]
    return [w for w in (*hidden, *HOLDS) if w in shown]


def test_a_whole_game_by_taps_at_phone_size(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    db = load_database("clash")
    taps, pad = planned_game(db, SEED)
    final = pad.session.summary(None)
    dumps: dict[str, Path] = {}

    def dump(name: str, shot: bool = False) -> list:
        dumps[name] = tmp_path / f"{name}.json"
        out: list = [{"dump": str(dumps[name])}]
        return out + ([{"shot": str(SCREENS / f"clash-{name}.png")}] if shot else [])

    steps: list = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                   {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(SEED)]}, *dump("new", shot=True),
                   {"tap": "new_start"}, *dump("start", shot=True)]
    marks = {"plan_lay": "plan-page", "deal_site": "site", "thread_1": "lay", "record_setup": "named",
             "end_turn": "turn", "place": "final-place", "take_draw": "take", "take_skip": "reveal"}
    seen: set[str] = set()
    for n, tap in enumerate(taps):
        if tap == "deal_site" and "site" in seen and "summary" not in seen:  # Stage 1 summed up, before Stage 2
            seen.add("summary")
            steps += dump("summary", shot=True)
        if tap.startswith("card_") and taps[n - 1].startswith("thread_") and "naming" not in seen:
            seen.add("naming")  # the Initial Setup turned up: each card named on the hand's grid
            steps += dump("naming", shot=True)
        first = marks.get(tap)
        if first and first not in seen:  # the screen just before the first tap of each kind
            seen.add(first)
            steps += dump(first, shot=True)
        if tap == "place" and "held" not in seen:  # Moriarty's hold: his plan, none of it on the table
            seen.add("held")
            steps += [{"press": "secret_1"}, {"wait": 0.6}, *dump("held", shot=True), {"release": "secret_1"}]
        if tap == "deal_site" and "site-page" not in seen:  # the sites to tap, had the table drawn its own
            seen.add("site-page")
            steps += [{"tap": "pick_site"}, *dump("site-page", shot=True), {"tap": "page_cancel"}]
        steps.append({"tap": tap})
        if tap.startswith("card_") and taps[n - 1] in ("end_turn", "record_setup") and "picked" not in seen:
            seen.add("picked")
            steps += dump("picked", shot=True)
        if tap == "use" and "use" not in seen:
            seen.add("use")
            steps += dump("use", shot=True)
        if tap == "place" and "place-page" not in seen:
            seen.add("place-page")
            steps += dump("place-page", shot=True)
    steps += dump("over", shot=True)
    steps += [{"tap": "history"}, *dump("history", shot=True), {"key": 27}, {"tap": "table_rules"},
              {"text": ["rules.query", "deduction token"]}, *dump("rules", shot=True), {"quit": True}]
    run(tmp_path, steps, timeout=900)

    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
        if name not in ("held", "plan-page", "place-page"):
            assert leaks(d) == [], f"{name}: hidden on the table: {leaks(d)}"
    start = data["start"]["summary"]
    assert start["players"] == ["Ann", "Ben"] and start["holmes"] == "Ann" and start["phase"] == "plan"
    assert any("0 of 12 hours" in t for t in data["start"]["texts"])
    in_reach = {"start": ["plan"], "site": ["pick_site", "deal_site"],
                "site-page": [f"site_{s}" for s in pad.cards.sites],
                "lay": ["thread_1", "thread_2", "thread_3", "take_back", "record_setup"],
                "naming": [f"card_{c}" for c in pad.cards.influence["holmes"]] + ["take_back", "record_setup"],
                "named": ["take_back", "record_setup"],
                "picked": ["thread_1", "thread_2", "thread_3", "support", "use", "draw", "clear"],
                "turn": ["support", "use", "draw", "end_turn"], "final-place": ["place"],
                "reveal": ["take_skip"], "summary": ["deal_site", "discard"]}
    for name, keys in in_reach.items():
        out = [k for k in keys if not data[name]["controls"].get(k, {}).get("in_window")]
        assert out == [], f"{name}: not on the window without scrolling: {out}"
        assert name == "site-page" or all(k in data[name]["controls"] for k in BAR), name
    for name in ("start", "site", "lay", "picked", "use", "turn", "final-place", "reveal", "place-page"):
        d = data[name]
        if d["screen"] != "table" or name == "place-page":
            continue
        whole = [k for k in d["controls"] if k.startswith(("secret_", "total_"))]  # each new step from the top
        cut = [k for k in whole if not d["controls"][k]["in_window"]]
        assert cut == [], f"{name}: hold buttons or thread totals scrolled off or cut: {cut}"
    assert "secret_1" in data["picked"]["controls"] and "total_1" in data["picked"]["controls"]
    held = "\n".join(data["held"]["texts"])
    assert "Ben only" in held and all(n in held for n in PLAN_NAMES)
    assert data["held"]["summary"]["phase"] == "final_place"
    place = "\n".join(data["place-page"]["texts"])
    assert "only" in place and "Into Play" in place
    summary = data["summary"]
    assert summary["controls"]["deal_site"]["in_window"]
    stage1 = final["conclusions"][0]
    shown = "\n".join(summary["texts"])
    assert "Summary of Stage 1" in shown
    for k in stage1:  # each thread told with its count and what it did
        assert f"Thread {k['thread']}: {k['holmes']} : {k['moriarty']}" in shown
    revealed = [k for k in stage1 if k["outcome"] == "revealed"]
    assert revealed and all(k["plan"] in shown for k in revealed)
    assert "Turn the clock back 1 hour" in shown or "Each player draws 1 Influence Card" in shown
    assert any(f"Moriarty leads by {k['moriarty'] - k['holmes']}: +2 hours" in shown for k in stage1)
    over = data["over"]
    res = over["summary"]["result"]
    assert over["summary"]["phase"] == "over" and res == final["result"]
    text = "\n".join(over["texts"])
    assert (f"{res['winner']} wins" if res["winner"] else "A draw") in text and res["why"] in text
    assert f"{over['summary']['clock']['hours']} of 12 hours" in text
    history = "\n".join(data["history"]["texts"])
    assert "Ben lays the Crime Plan face down" in history and "places an Action Card face down in thread 1" in history
    assert not any(f"plan: {p}" in history for p in PLAN)
    rules = data["rules"]
    assert rules["screen"] == "rules" and any("Deduction" in t for t in rules["texts"])


def test_each_new_game_in_one_session_gets_a_fresh_seed_unless_one_is_typed(tmp_path):
    steps: list = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                   {"text": ["new.p2", "Ben"]}, {"tap": "new_start"}, {"tap": "table_home"}]
    for _ in range(2):  # two more games, nothing typed in the seed field
        steps += [{"tap": "new_game"}, {"tap": "new_start"}, {"tap": "table_home"}]
    steps += [{"tap": "new_game"}, {"text": ["new.seed", "77"]}, {"tap": "new_start"}, {"quit": True}]
    run(tmp_path, steps, timeout=300)
    seeds = [yaml.safe_load(p.read_text()).get("seed") for p in sorted((tmp_path / "data").rglob("*.yaml"),
                                                                       key=lambda p: p.stat().st_mtime)]
    assert len(seeds) == 4 and seeds[3] == 77, seeds
    assert len(set(seeds[:3])) == 3, f"the same seed for new games in one session: {seeds}"


def resumed(tmp_path: Path, referee: str, shot: str) -> tuple[GameLog, dict]:
    """A referee game saved, then resumed in the app: its log and the table's dump."""
    from casebook.companion.store import Store

    path = Path(__file__).resolve().parent.parent / "data" / "logs" / "clash" / "referee" / f"{referee}.yaml"
    log = parse_log(path.read_text(), path.name, Problems())
    assert log is not None
    store = Store(tmp_path / "data" / "games")
    store.save(store.new_id("clash"), log)
    over = tmp_path / "over.json"
    run(tmp_path, [{"tap_prefix": "resume_"}, {"dump": str(over)}, {"shot": str(SCREENS / f"clash-{shot}.png")},
                   {"quit": True}], name="over")
    return log, json.loads(over.read_text())


def test_a_cancelled_card_says_cancelled(tmp_path):
    _log, d = resumed(tmp_path, "g01_holmes_reveals_all", "cancelled")
    cancelled = [t for t in d["texts"] if "Bribery" in t and "cancelled" in t]
    assert cancelled, "Bribery, cancelled by a distraction token, does not say so"
    assert not any("fx" in t.split() for t in d["texts"])


def test_when_moriarty_wins_the_game_over_screen_shows_the_whole_crime_plan(tmp_path):
    log, d = resumed(tmp_path, "g02_moriarty_clock", "moriarty-wins")
    s = d["summary"]
    assert s["phase"] == "over" and s["result"]["side"] == "moriarty"
    hidden = [t for t in s["threads"] if not t["revealed"]]
    assert hidden, "the referee game ends with threads still hidden"
    shown = "\n".join(d["texts"])
    plans = load_database("clash").components["crime_plans"]
    names = {c.id: str(c["name"]) for c in plans.cards}
    for p in log.setup["plan"]:
        assert names[p] in shown, f"the crime plan card {names[p]} is not shown at the end"


def test_the_rules_search_hint_gives_words_of_the_game_searched():
    from casebook.companion.screens import search_hint
    from casebook.rules.search import RulesIndex

    index = RulesIndex.build([load_database(g) for g in ("clash", "graves", "hasty")])
    clash_hint = search_hint(index, "clash")
    assert clash_hint.startswith("a few words: ") and "park" not in clash_hint and "deuce" not in clash_hint
    titles = {e.title.lower() for e in index.entries if e.game == "clash" and e.kind == "rule"}
    words = clash_hint.removeprefix("a few words: ").split(", ")
    assert len(words) == 3 and all(any(w in t for t in titles) for w in words), words
    assert search_hint(index, "graves") != clash_hint
    everyone = search_hint(index, "").removeprefix("a few words: ").split(", ")
    assert len(everyone) == 3 and not set(everyone) & set(words[1:])  # one example from each game
