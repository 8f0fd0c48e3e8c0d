"""Independent referee for the Clash of Minds engine: whole games and illegal logs in
tests/data/logs/clash/referee, written from the rulebook, game-facts, docs/game-log.md and cards/clash
only, each with its outcome worked out by hand in <name>.expected.yaml before the engine was read (every
Summary's thread totals and outcomes, the clock, reveals, Deduction Tokens, the First Player of each
Stage, hands, the ending; the refused event, its rule and words). Replayed with the same parse_log/replay
that `casebook replay` uses; the disagreements found and how they were settled are tested at the end."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from casebook.cli import main
from casebook.rules.cards import load_database
from casebook.rules.games import clash as c
from casebook.rules.log import GameLog, Replay, replay
from tests.rules.logfiles import read_log

REFEREE = Path(__file__).resolve().parents[1] / "data" / "logs" / "clash" / "referee"
LOGS = sorted(p.name for p in REFEREE.glob("*.yaml") if not p.name.endswith(".expected.yaml"))
EXPECTED = {name: yaml.safe_load((REFEREE / name.replace(".yaml", ".expected.yaml")).read_text()) for name in LOGS}
GAMES = [n for n in LOGS if "refused" not in EXPECTED[n]]
ILLEGAL = [n for n in LOGS if "refused" in EXPECTED[n]]
SIDES = ("holmes", "moriarty")


@functools.cache
def db():
    return load_database("clash")


@functools.cache
def read(name: str) -> GameLog:
    return read_log(REFEREE / name)


@functools.cache
def run(name: str, until: int | None = None) -> Replay:
    return replay(db(), read(name), until=until)


def table(name: str, after: int) -> dict[str, Any]:
    got = run(name, after)
    assert got.error is None and got.applied == after, str(got.error)
    return c.summary(got.state)


def totals(summary: dict[str, Any], thread: int) -> list[int]:
    t = summary["threads"][thread - 1]
    return [t["holmes"]["total"], t["moriarty"]["total"]]


def test_the_referee_covers_what_the_issue_asks():
    ends = {EXPECTED[n]["end"]["side"] for n in GAMES}
    assert len(GAMES) >= 6 and len(ILLEGAL) >= 6 and ends == {"holmes", "moriarty", "draw"}
    outcomes = {o for n in GAMES for s in EXPECTED[n]["summaries"] for o in s["outcomes"]}
    assert {"deduction", "revealed", "hour", "two_hours", "tie_hour"} <= outcomes
    assert any("agents" in read(n).variants for n in GAMES)
    assert any(EXPECTED[n]["end"]["side"] == "draw" and EXPECTED[n]["end"]["clock"] == 12 for n in GAMES)
    plans = {p for n in GAMES for p in read(n).setup["plan"]}
    assert plans == set(c.cards(db()).plans), "every crime plan revealed in some game"
    actions = {e["action"] for n in GAMES for e in read(n).events}
    assert {"site", "setup", "play", "draw", "use", "support", "activate", "end", "place", "reveal"} <= actions


@pytest.mark.parametrize("name", GAMES)
def test_the_game_ends_as_the_referee_worked_out(name):
    want = EXPECTED[name]["end"]
    got = run(name)
    assert got.error is None, str(got.error)
    assert got.applied == EXPECTED[name]["events"] == want["after"]
    result = c.result(got.state)
    assert result["over"] and not c.result(run(name, want["after"] - 1).state)["over"]
    assert (result["side"], result["winner"], result["decided_by"]) == (want["side"], want["winner"],
                                                                        want["decided_by"]), result["why"]
    summary = c.summary(got.state)
    assert summary["clock"]["hours"] == want["clock"]
    assert {s["player"]: s["hand"] for s in summary["tables"].values()} == want["hands"]
    for thread, supports in want.get("supports", {}).items():
        t = summary["threads"][thread - 1]
        assert [t[side]["support"] for side in SIDES] == supports, f"thread {thread}"
    assert c.problems(got.state) == []


def summaries():
    for name in GAMES:
        for stage, point in enumerate(EXPECTED[name]["summaries"], start=1):
            yield pytest.param(name, stage, point, id=f"{name}-stage{stage}")


@pytest.mark.parametrize(("name", "stage", "point"), list(summaries()))
def test_each_summary_counts_and_concludes_as_worked_out(name, stage, point):
    before, after = table(name, point["after"] - 1), table(name, point["after"])
    assert len(before["conclusions"]) == stage - 1 and len(after["conclusions"]) == stage, "the Summary's event"
    concluded = after["conclusions"][stage - 1]
    assert [[k["holmes"], k["moriarty"]] for k in concluded] == point["totals"]
    assert [k["outcome"] for k in concluded] == point["outcomes"]
    assert after["clock"]["hours"] == point["clock"]
    assert [t["revealed"] for t in after["threads"]] == point["revealed"]
    assert [t["deduction"] for t in after["threads"]] == point["deduction"]


@pytest.mark.parametrize("name", GAMES)
def test_each_thread_is_revealed_at_the_event_worked_out(name):
    for thread, event in EXPECTED[name]["revealed_at"].items():
        assert not table(name, event - 1)["threads"][thread - 1]["revealed"], f"thread {thread} early"
        assert table(name, event)["threads"][thread - 1]["revealed"], f"thread {thread} at {event}"
    last = table(name, EXPECTED[name]["events"])
    assert {t["thread"] for t in last["threads"] if t["revealed"]} == set(EXPECTED[name]["revealed_at"])


@pytest.mark.parametrize("name", GAMES)
def test_the_first_player_card_passes_as_worked_out(name):
    sites = [i for i, e in enumerate(read(name).events, start=1) if e["action"] == "site"]
    assert [table(name, i)["first_player"] for i in sites] == EXPECTED[name]["first_players"]


def checkpoints():
    for name in GAMES:
        for point in EXPECTED[name].get("checkpoints", []):
            yield pytest.param(name, point, id=f"{name}-after{point['after']}")


@pytest.mark.parametrize(("name", "point"), list(checkpoints()))
def test_the_table_at_each_checkpoint_is_as_worked_out(name, point):
    summary = table(name, point["after"])
    tables = {t["player"]: t for t in summary["tables"].values()}
    for key, want in point.items():
        if key == "clock":
            assert summary["clock"]["hours"] == want
        elif key == "hands":
            assert {p: tables[p]["hand"] for p in want} == want
        elif key == "totals":
            assert {thread: totals(summary, thread) for thread in want} == want
        elif key == "agents":
            assert {p: {k: tables[p]["agent"][k] for k in w} for p, w in want.items()} == want
        elif key != "after":
            assert summary[key] == want, key


@pytest.mark.parametrize("name", GAMES)
def test_every_event_is_told_for_people(name):
    for i, event in enumerate(read(name).events):
        told = c.describe(run(name, i).state, event)
        assert told and "None" not in told and "_" not in told, (i + 1, told)


@pytest.mark.parametrize("name", ILLEGAL)
def test_the_illegal_event_is_refused_with_the_rule(name):
    want = EXPECTED[name]["refused"]
    got = run(name)
    assert got.error is not None, "the illegal event was accepted"
    assert got.error.event_no == want["event"] and got.applied == want["event"] - 1, str(got.error)
    message = str(got.error).lower()
    assert all(word.lower() in message for word in want["words"]), str(got.error)


@pytest.mark.parametrize("name", ILLEGAL)
def test_casebook_replay_reports_the_refusal_with_its_event_and_rule(name):
    want = EXPECTED[name]["refused"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["replay", str(REFEREE / name), "--json"]) == 1
    error = json.loads(out.getvalue())["error"]
    assert error["kind"] == "event" and error["event"] == want["event"]
    assert error["rule_id"] in {r.id for r in db().rules} | {f.id for f in db().faq}
    if "rule_ids" in want:
        assert error["rule_id"] in want["rule_ids"], error


# --- the disagreements found, settled from the rulebook and the rulings (cards/clash/rules.yaml) ----------

def branch(name: str, keep: int, *events: dict[str, Any]) -> Replay:
    """A referee log's first `keep` events, then others: what the engine makes of a case the logs pass by."""
    log = read(name)
    return replay(db(), dataclasses.replace(log, events=[*log.events[:keep], *events], event_places=[]))


@pytest.mark.parametrize(("name", "rule_id"), [("g01_holmes_reveals_all.yaml", "end_holmes"),
                                               ("g02_moriarty_clock.yaml", "end_moriarty"),
                                               ("g03_agents_draw_at_twelve.yaml", "end_draw")])
def test_an_event_after_the_end_names_the_ending_that_came(name, rule_id):
    got = branch(name, EXPECTED[name]["events"], {"action": "site", "by": "Ann", "site": "reading_room"})
    assert got.error is not None and got.error.rule is not None, "accepted after the end"
    assert got.error.rule.id == rule_id, str(got.error)  # was end_moriarty for all three


def test_a_used_card_used_again_is_refused_as_used_not_as_missing():
    got = run("i10_use_twice.yaml")
    assert got.error is not None and got.error.rule is not None and "already used" in str(got.error)
    assert got.error.rule.id == "action_use"


def test_a_refused_event_is_told_with_card_names():
    got = run("i03_second_mandatory.yaml")
    assert got.error is not None and "Urgent Telegram" in str(got.error) and "telegram," not in str(got.error)


WHITECHAPEL = [{"action": "site", "by": "Ann", "site": "whitechapel"}] + [
    {"action": "setup", "by": who, "card": card, "thread": thread} for who, card, thread in
    [("Ann", "yard_help", 1), ("Ben", "bribery", 2), ("Ann", "telegram", 2), ("Ben", "coded_message", 1),
     ("Ann", "informant", 3), ("Ben", "paid_informer", 3)]]


def test_help_from_the_yard_adds_no_support_at_whitechapel_and_says_why():
    """faq_support_effect_no_support: no Support Card may be added in that Stage, by action or by effect."""
    got = branch("i05_support_at_whitechapel.yaml", 0, *WHITECHAPEL, {"action": "play", "by": "Ann", "card": "keen_eye",
                                                                      "thread": 1},
                 {"action": "use", "by": "Ann", "card": "yard_help", "thread": 1})
    assert got.error is None, str(got.error)
    summary = c.summary(got.state)
    assert summary["tables"]["holmes"]["hand"] == 4 and summary["threads"][0]["holmes"]["support"] == 0
    assert totals(summary, 1) == [3 + 2, 1] and "Whitechapel Alleys" in summary["history"][-1]


def test_bribery_lowers_holmes_to_0_never_below():
    """faq_influence_not_below_zero: Holmes' 1 in thread 2 less 2 is 0, so Moriarty leads by 3 there."""
    events = [{**e, "site": "limehouse_docks"} if e["action"] == "site" else e for e in WHITECHAPEL]
    got = branch("i05_support_at_whitechapel.yaml", 0, *events, {"action": "play", "by": "Ann", "card": "keen_eye",
                                                                 "thread": 1}, {"action": "end", "by": "Ann"},
                 {"action": "use", "by": "Ben", "card": "bribery", "thread": 2})
    assert got.error is None, str(got.error)
    assert totals(c.summary(got.state), 2) == [0, 3]


def test_the_final_turn_draw_is_refused_at_waterloo_but_the_other_action_is_not():
    """faq_waterloo_final_draw: game 1's second Stage is at Waterloo Station; event 64 reveals Ben's Draw or Use."""
    drawn = branch("g01_holmes_reveals_all.yaml", 63, {"action": "reveal", "by": "Ben", "card": "draw_use", "take": "draw"})
    assert drawn.error is not None and drawn.error.event_no == 64 and "Waterloo Station" in str(drawn.error)
    used = branch("g01_holmes_reveals_all.yaml", 63, {"action": "reveal", "by": "Ben", "card": "draw_use", "take": "use",
                                                      "influence": "master_stroke", "target": "shadow_man"})
    assert used.error is None, str(used.error)


def test_every_ruling_the_referee_added_is_in_the_database():
    faq = {f.id for f in db().faq}
    assert {"faq_cards_seen", "faq_support_effect_no_support", "faq_influence_not_below_zero",
            "faq_waterloo_final_draw"} <= faq


G7 = "g07_agents_second_player_limit.yaml"
KEEN_EYE_INTO_PLAY = [{"action": "play", "by": "Ben", "card": "master_stroke", "thread": 1}, {"action": "end", "by": "Ben"},
                      {"action": "play", "by": "Ann", "card": "keen_eye", "thread": 3}]


@pytest.mark.parametrize(("keep", "events", "target"), [
    (10, KEEN_EYE_INTO_PLAY, "master_stroke"),      # upright: nothing to cancel yet
    (15, KEEN_EYE_INTO_PLAY[2:], "bribery"),        # Irene Adler's token lies on it already (faq_cancel_cancel)
])
def test_a_cancel_names_why_the_card_cannot_be_chosen(keep, events, target):
    got = branch(G7, keep, *events, {"action": "use", "by": "Ann", "card": "keen_eye", "thread": 3, "target": target,
                                     "target_thread": 1})
    assert got.error is not None and got.error.rule is not None and got.error.rule.id == "effects_distraction"
    assert "only a used card without one can be cancelled" in str(got.error)  # was 'Ben has no such ... in thread 1'


def test_a_support_under_an_agent_needs_the_agent_mode():
    got = branch("g01_holmes_reveals_all.yaml", 8, {"action": "support", "by": "Ann", "thread": "agent"})
    assert got.error is not None and got.error.rule is not None and got.error.rule.id == "agents_support"


def test_a_discard_at_archiving_cannot_name_more_copies_than_are_unseen():
    """Game 1's first Archiving: one Coded Message lies in Ben's discard pile, so he cannot discard two."""
    got = branch("g01_holmes_reveals_all.yaml", 35, {"action": "discard", "by": "Ben", "cards": ["coded_message"] * 2})
    assert got.error is not None and got.error.event_no == 36 and "Coded Message" in str(got.error)
    kept = branch("g01_holmes_reveals_all.yaml", 35, {"action": "discard", "by": "Ben", "cards": ["coded_message"]})
    assert kept.error is None and c.summary(kept.state)["tables"]["moriarty"]["hand"] == 1
