"""The Clash of Minds pad without a window: the crime plan entered by Moriarty alone, a site tapped or dealt
from the seed, the Initial Setup laid face down and named once turned up, a card played in two taps, a
support in two, a use with its effect's choices, the Final Turn placed and revealed in turn, refusals in
the engine's words that change nothing, and a whole game planned tap by tap to its ending."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("kivy")

from casebook.companion.session import Session  # noqa: E402
from casebook.companion.tables.clash.pad import ClashPad  # noqa: E402
from casebook.companion.tables.clash.table import NEW_GAME  # noqa: E402
from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import clash  # noqa: E402
from casebook.rules.log import GameLog  # noqa: E402

PLAN = ["lady_vale", "kidnapping", "crimson_sapphire"]  # victim in thread 1, felony in 2, object in 3
SEED = 7


@pytest.fixture(scope="module")
def db():
    return load_database("clash")


def new_pad(db, variants=(), seed: int | None = SEED) -> ClashPad:
    log = GameLog("clash", db.rules_version, ["Ann", "Ben"], list(variants), seed, {"colours": ["green", "vermillion"]})
    return ClashPad(Session(db, log))


def after_plan(db, seed: int | None = SEED, variants=()) -> ClashPad:
    """A pad with the crime plan laid (PLAN), before the first site."""
    pad = new_pad(db, variants, seed=seed)
    for p in PLAN:
        pad.tap_plan(p)
    assert pad.lay_plan().ok
    return pad


def laid_out(db, site="waterloo_station", variants=()) -> ClashPad:
    """A pad past the plan, the site and the Initial Setup (the rulebook example's first cards)."""
    pad = after_plan(db, variants=variants)
    assert pad.tap_site(site).ok
    for t in (0, 0, 1, 2, 0, 1):
        pad.tap_thread(t)
    for c in ("interrogation", "intimidation", "informant", "paid_informer", "keen_eye", "coded_message"):
        pad.tap_card(c)
    assert pad.record_setup().ok
    return pad


def test_the_plan_is_three_cards_one_of_each_kind_in_thread_order(db):
    pad = new_pad(db)
    assert pad.need() == "plan" and "Ben" in pad.prompt()
    assert not pad.lay_plan().ok and pad.session.log.events == []
    pad.tap_plan("lady_vale")
    pad.tap_plan("banker_quill")  # a second victim
    assert "one victim only" in pad.message and pad.plan == ["lady_vale"]
    pad.tap_plan("kidnapping")
    pad.tap_plan("lady_vale")  # tapped again: taken back, and what came after it
    assert pad.plan == []
    for p in PLAN:
        pad.tap_plan(p)
    out = pad.lay_plan()
    assert out.ok and out.message == "Ben lays the Crime Plan face down"  # the history names no card
    assert pad.session.log.events == [{"action": "plan", "by": "Ben", "plan": PLAN}] and pad.plan == []
    assert pad.need() == "site"


def test_a_site_tapped_or_dealt_from_the_seed(db):
    pad = after_plan(db)
    dealt = pad.dealt_site()
    assert after_plan(db).dealt_site() == dealt  # the same seed deals the same site at the same Stage
    others = {new_pad(db, seed=s).dealt_site() for s in range(12)}
    assert len(others) > 1  # other seeds deal other sites
    assert pad.deal_site().ok and pad.state.site == dealt
    assert pad.state.hours == pad.cards.sites[dealt].hours and pad.need() == "lay"


def test_the_initial_setup_is_laid_face_down_then_named_once_turned_up(db):
    pad = after_plan(db)
    pad.tap_site("waterloo_station")
    assert pad.side() == "holmes" and "Ann" in pad.prompt()
    pad.tap_thread(0)
    assert pad.side() == "moriarty" and "Ben" in pad.prompt()  # turns alternate, first player first
    for t in (0, 1, 2, 0, 1):
        pad.tap_thread(t)
    assert pad.need() == "name" and pad.session.log.events[-1]["action"] == "site"  # nothing recorded yet
    assert "Ann's card in thread 1" in pad.prompt()
    pad.take_back()
    assert pad.need() == "lay" and len(pad.laid) == 5
    pad.tap_thread(1)
    for c in ("interrogation", "intimidation", "informant", "paid_informer", "keen_eye"):
        assert pad.tap_card(c) is None
    assert not pad.record_setup().ok  # one card still to name
    pad.tap_card("coded_message")
    out = pad.record_setup()
    assert out.ok and "Ann reveals Interrogation (thread 1), A Keen Eye (thread 1) and Street Informant" in out.message
    assert [e["action"] for e in pad.session.log.events[-6:]] == ["setup"] * 6
    # the message slot tells the first whole clauses of it; History and Last tell it all
    assert pad.message.endswith(" …") and out.message.startswith(pad.message[:-2]) and len(pad.message) <= 112
    assert pad.state.phase == "turns" and pad.need() == "card" and pad.laid == pad.named == []


def test_a_setup_naming_a_card_three_times_is_refused_before_anything_is_recorded(db):
    pad = after_plan(db)
    pad.tap_site("waterloo_station")
    for t in (0, 0, 1, 2, 0, 1):
        pad.tap_thread(t)
    pad.tap_card("telegram")
    pad.tap_card("coded_message")
    pad.tap_card("telegram")
    pad.tap_card("coded_message")
    out = pad.tap_card("telegram")  # Holmes' deck holds two Urgent Telegrams
    assert out is not None and not out.ok and "Every copy of Urgent Telegram" in out.message
    assert not pad.playable("holmes", "telegram") and len(pad.named) == 4


def test_a_card_into_play_is_two_taps_and_a_support_two(db):
    pad = laid_out(db)
    assert pad.tap_card("telegram") is None and pad.need() == "thread"
    assert "Urgent Telegram" in pad.prompt()
    out = pad.tap_thread(1)
    assert out is not None and out.ok and out.message == "Ann puts Urgent Telegram into play in thread 2"
    assert pad.need() is None and not pad.must_play()
    assert pad.choose_mode("support") is None and pad.need() == "thread"
    out = pad.tap_thread(0)
    assert out is not None and out.ok and pad.state.tables["holmes"].support == [1, 0, 0]
    assert pad.session.log.events[-1] == {"action": "support", "by": "Ann", "thread": 1}


def test_a_use_asks_for_its_effect_s_choices(db):
    pad = laid_out(db)
    pad.tap_card("telegram")
    pad.tap_thread(1)
    assert pad.choose_mode("use") is None and pad.need() == "use"
    assert (0, "interrogation") in pad.use_choices()
    assert pad.tap_in_play(0, "interrogation") is None and pad.need() == "discarded"  # Ben discards, his choice
    assert "makes Ben discard" in pad.prompt()
    out = pad.tap_card("bribery")
    assert out is not None and out.ok and out.message == "Ann uses Interrogation in thread 1 (now worth 2); Ben " \
        "discards Bribery"
    out = pad.choose_mode("end")
    assert out is not None and out.ok and pad.side() == "moriarty"
    pad.tap_card("red_herring")
    pad.tap_thread(2)
    pad.choose_mode("use")
    pad.tap_in_play(2, "red_herring")  # move one of Holmes' cards to another thread
    assert pad.need() == "target" and pad.target_side() == "holmes" and "moves which of Ann's cards" in pad.prompt()
    assert (1, "telegram") in pad.targets()
    assert pad.tap_in_play(1, "telegram") is None and pad.need() == "to"
    out = pad.tap_thread(0)
    assert out is not None and out.ok and "Urgent Telegram moves from thread 2 to thread 1" in out.message


def test_a_refused_play_changes_nothing_and_says_the_rule(db):
    pad = laid_out(db)
    before = list(pad.session.log.events)
    out = pad.choose_mode("end")  # the mandatory action first
    assert out is not None and not out.ok and "mandatory" in out.message
    assert pad.session.log.events == before


def final_turn(db, variants=()) -> ClashPad:
    """Both players up to the Final Turn: each plays until the limit of Waterloo Station (5); with Agents,
    Holmes first adds a Support Card under his."""
    pad = laid_out(db, variants=variants)
    plays = iter([("telegram", 1), ("bribery", 2), ("tailing", 2), ("red_herring", 1)])
    if variants:
        pad.choose_mode("support")
        assert pad.support_agent().ok
    while pad.state.phase == "turns":
        if pad.must_play():
            card, thread = next(plays)
            pad.tap_card(card)
            assert pad.tap_thread(thread).ok  # type: ignore[union-attr]
        assert pad.choose_mode("end").ok  # type: ignore[union-attr]
    return pad


def skip_final_turn(pad: ClashPad) -> None:
    """Every Action Card placed in thread 1 and skipped, to the Archiving."""
    while pad.state.phase not in ("site", "over"):
        if pad.state.phase == "final_place":
            me = pad.state.active
            assert pad.place(next(c for c in clash.ACTION_CARDS if c not in [x for x, _ in pad.state.placed[me]]), 0).ok
        else:
            pad.reveal(next(c for c in clash.ACTION_CARDS if c not in pad.state.revealed_actions[pad.side()]))
            assert pad.choose_take("skip").ok  # type: ignore[union-attr]


def test_the_final_turn_is_placed_alone_and_revealed_in_turn(db):
    pad = final_turn(db)
    assert pad.state.phase == "final_place" and pad.need() is None
    assert "[b]Ann[/b] places an Action Card face down" in pad.prompt()
    placed = pad.place("draw_use", 0)
    assert placed.ok and placed.message == "Ann places an Action Card face down in thread 1"  # the card unsaid
    for who, card in (("Ben", "play"), ("Ann", "play"), ("Ben", "draw_use"), ("Ann", "use_support"),
                      ("Ben", "use_support"), ("Ann", "draw_support"), ("Ben", "draw_support")):
        assert pad.who(pad.state.active) == who
        assert pad.place(card, 2).ok
    assert pad.state.phase == "final_reveal" and pad.need() == "action_card"
    pad.reveal("draw_use")
    assert pad.need() == "take" and "Ann" in pad.prompt()
    assert pad.choose_take("use") is None and pad.need() == "use"
    assert {t for t, _c in pad.use_choices()} == {0}  # only the revealed card's thread
    used = pad.tap_in_play(0, "keen_eye")  # A Keen Eye: no used card of Ben to cancel
    assert used is not None and used.ok, used
    pad.reveal("play")
    assert pad.take_refusal("play") == "at the limit (5 of 5)"  # Ben is at Waterloo's limit: greyed, with why
    refused = pad.choose_take("play")
    assert refused is not None and not refused.ok and "limit" in refused.message and pad.need() == "take"
    assert "Final Turn" in pad.prompt() and "End turn" not in pad.prompt()
    assert pad.choose_take("skip").ok  # type: ignore[union-attr]
    while pad.state.phase == "final_reveal":
        pad.reveal(next(c for c in clash.ACTION_CARDS if c not in pad.state.revealed_actions[pad.side()]))
        assert pad.choose_take("skip").ok  # type: ignore[union-attr]
    assert pad.state.phase in ("site", "over") and len(pad.state.conclusions) == 1


def test_archiving_discards_from_hand(db):
    pad = final_turn(db)
    skip_final_turn(pad)
    hand = pad.state.tables["holmes"].hand
    assert not pad.record_discard("holmes").ok
    pad.toggle_discard("holmes", "racing_the_clock")
    pad.toggle_discard("holmes", "yard_help")
    pad.toggle_discard("holmes", "yard_help")  # tapped again: kept
    out = pad.record_discard("holmes")
    assert out.ok and out.message == "Ann discards Racing the Clock from hand"
    assert pad.state.tables["holmes"].hand == hand - 1


def test_the_new_game_form_is_two_players_green_and_red_with_agents(db):
    assert NEW_GAME.players == 2 and NEW_GAME.variants == {"agents": "Agents (4 a side)"}
    assert set(NEW_GAME.palette) == {"green", "vermillion"} and NEW_GAME.seed_note
    assert NEW_GAME.setup(["Ann", "Ben"], ["green", "vermillion"], ["agents"]) == {"colours": ["green", "vermillion"]}


# --- a whole game, tap by tap (the GUI test plays the same taps) ----------------------------------------

Tap = tuple[str, Callable[[], Any]]


def planned_game(db, seed: int = SEED) -> tuple[list[str], ClashPad]:
    """The testids of a whole game's taps, checked on a pad: Holmes works the hidden threads, Moriarty thread 3
    and, once a thread is revealed, that one (for the hours); each plays the strongest card still unseen, uses
    a card with no choice to make when one lies upright, and the Final Turn draws once and skips the rest.
    Sites dealt from the seed."""
    pad = new_pad(db, seed=seed)
    taps: list[str] = []

    def tap(testid: str, outcome: Any) -> None:
        assert outcome is None or outcome.ok, (testid, outcome.message)
        taps.append(testid)

    tap("plan", None)
    for p in PLAN:
        pad.tap_plan(p)
        tap(f"plan_{p}", None)
    tap("plan_lay", pad.lay_plan())
    strong = {s: sorted(pad.designs(s), key=lambda c: -c.value) for s in clash.SIDES}
    easy = {"draw", "clock", "weaken"}

    def best(side: str) -> str:
        return next(c.id for c in strong[side] if pad.playable(side, c.id))

    def thread_for(side: str, k: int) -> int:
        hidden = [i for i in range(3) if not pad.state.revealed[i]] or [0, 1, 2]
        if side == "moriarty":
            shown = [i for i in range(3) if pad.state.revealed[i]]
            return shown[0] if shown else 2
        return hidden[k % len(hidden)]

    while not clash.is_over(pad.state):
        st = pad.state
        if st.phase == "site":
            tap("deal_site", pad.deal_site())
        elif st.phase == "setup":
            for k in range(6):
                side = pad.side()
                tap(f"thread_{thread_for(side, k // 2) + 1}", pad.tap_thread(thread_for(side, k // 2)))
            for k in range(6):
                side = pad.laid[k][0]
                card = best(side)
                tap(f"card_{card}", pad.tap_card(card))
            tap("record_setup", pad.record_setup())
        elif st.phase == "turns":
            me = st.active
            if pad.must_play():
                card = best(me)
                tap(f"card_{card}", pad.tap_card(card))
                thread = thread_for(me, st.tables[me].in_play())
                tap(f"thread_{thread + 1}", pad.tap_thread(thread))
            upright = [(t, c) for t, c in pad.in_play(me, lambda p: not p.used)
                       if pad.cards.influence[me][c].op in easy]
            if upright and pad.state.phase == "turns" and "use" not in pad.state.optional:
                tap("use", pad.choose_mode("use"))
                t, c = upright[0]
                tap(f"use_{t + 1}_{c}", pad.tap_in_play(t, c))
            if pad.state.phase == "turns":
                tap("end_turn", pad.choose_mode("end"))
        elif st.phase == "final_place":
            me = st.active
            card = next(c for c in clash.ACTION_CARDS if c not in [x for x, _ in st.placed[me]])
            tap("place", None)
            tap(f"place_{card}_1", pad.place(card, 0))
        elif st.phase == "final_reveal":
            me = pad.side()
            card = next(c for c in clash.ACTION_CARDS if c not in st.revealed_actions[me])
            pad.reveal(card)
            tap(f"reveal_{card}", None)
            take = "draw" if card == "draw_use" and pad.state.site_op() != "no_draw" and \
                (pad.state.tables[me].deck or pad.state.tables[me].discards()) else "skip"
            tap(f"take_{take}", pad.choose_take(take))
        assert len(taps) < 900, "the planned game does not end"
    return taps, pad


def test_a_whole_game_by_the_pad_reaches_an_ending_with_every_summary_kind(db):
    taps, pad = planned_game(db)
    s = pad.session.summary(None)
    assert s["phase"] == "over" and s["result"]["why"]
    outcomes = {k["outcome"] for stage in s["conclusions"] for k in stage}
    assert "revealed" in outcomes and outcomes & {"hour", "two_hours"}, outcomes
    assert taps.count("record_setup") == len(s["conclusions"])


def test_with_agents_a_support_goes_under_the_agent_and_activates_it(db):
    pad = new_pad(db, variants=["agents"])
    for p in PLAN:
        pad.tap_plan(p)
    pad.lay_plan()
    pad.tap_site("waterloo_station")
    assert pad.state.tables["holmes"].agent_here  # each side drew a face-down agent
    for t in (0, 0, 1, 2, 0, 1):
        pad.tap_thread(t)
    for c in ("interrogation", "intimidation", "informant", "paid_informer", "keen_eye", "coded_message"):
        pad.tap_card(c)
    assert pad.record_setup().ok
    pad.tap_card("telegram")
    pad.tap_thread(1)
    pad.choose_mode("support")
    out = pad.support_agent()
    assert out.ok and out.message == "Ann adds a Support Card under the Agent (1)"
    pad.choose_mode("support")
    assert pad.support_agent().ok
    assert pad.choose_mode("agent") is None and pad.need() == "agent"
    assert pad.tap_agent("lestrade") is None and pad.need() == "bonus"  # Lestrade: +2 in a thread named
    named = pad.tap_thread(2)
    assert named is not None and named.ok, named
    assert pad.session.log.events[-1] == {"action": "activate", "by": "Ann", "agent": "lestrade", "thread": 3}
    assert pad.state.tables["holmes"].bonus == [0, 0, 2]
    pad.choose_mode("agent")
    refused = pad.tap_agent("dr_fell")  # one agent a Stage, and it is active already
    assert refused is not None and not refused.ok and pad.state.tables["holmes"].agent == "lestrade"


def test_with_agents_an_agent_acts_in_the_final_turn_before_its_card_is_revealed(db):
    pad = final_turn(db, variants=["agents"])
    for card in clash.ACTION_CARDS:
        for _ in range(2):
            assert pad.place(card, 0).ok
    assert pad.state.phase == "final_reveal" and pad.side() == "holmes"
    assert pad.choose_mode("agent") is None and pad.need() == "agent"
    out = pad.tap_agent("irene_adler")  # cost 1: no used card of Ben to cancel, so nothing to pick
    assert out is not None and out.ok, out
    assert pad.session.log.events[-1] == {"action": "activate", "by": "Ann", "agent": "irene_adler"}
    assert pad.need() == "action_card" and pad.state.tables["holmes"].agent == "irene_adler"


def test_the_site_bars_what_it_forbids_and_an_agent_may_go_back_at_archiving(db):
    pad = final_turn(db, variants=["agents"])  # at Waterloo Station: no Draw
    assert pad.barred() == {"draw"}
    skip_final_turn(pad)
    assert pad.state.tables["moriarty"].agent_here
    out = pad.replace_agent("moriarty")
    assert out.ok and out.message == "Ben puts the face-down Agent back under the Agent deck"
    assert not pad.state.tables["moriarty"].agent_here
    assert not pad.replace_agent("moriarty").ok  # none left face down


def test_the_final_turn_greys_what_cannot_be_done_an_empty_hand_or_no_upright_card(db):
    from pathlib import Path

    from casebook.rules.log import parse_log
    from casebook.rules.problems import Problems

    path = Path(__file__).resolve().parent.parent / "data" / "logs" / "clash" / "referee" / "g04_hands_empty_forgery.yaml"
    log = parse_log(path.read_text(), path.name, Problems())
    assert log is not None
    log.events = log.events[:31]  # both hands empty: the Final Turn's reveals
    pad = ClashPad(Session(db, log))
    assert pad.state.phase == "final_reveal" and pad.state.tables[pad.side()].hand == 0
    pad.reveal("use_support")
    assert pad.take_refusal("support") == "hand empty" and pad.take_refusal("skip") is None
    events = len(pad.session.log.events)
    refused = pad.choose_take("support")
    assert refused is not None and not refused.ok and refused.message == "Add support: hand empty."
    assert len(pad.session.log.events) == events and pad.need() == "take"
    thread = dict(pad.state.placed[pad.side()])["use_support"]
    assert pad.take_refusal("use") is None and pad.use_choices()
    for p in pad.state.tables[pad.side()].threads[thread]:
        p.used = True  # every card of the thread used already: nothing upright to use
    assert pad.take_refusal("use") == "no upright card here" and pad.use_choices() == []
    assert not pad.choose_take("use").ok and pad.need() == "take"  # type: ignore[union-attr]
    assert "Final Turn" in pad.prompt() and "End turn" not in pad.prompt()


def test_the_setup_thread_keys_say_what_lies_there_and_a_greyed_card_says_why(db):
    from types import SimpleNamespace

    from casebook.companion.tables.clash.table import GreyTile

    pad = after_plan(db)
    pad.tap_site("waterloo_station")
    assert pad.laid_note() == {0: "none yet", 1: "none yet", 2: "none yet"}
    for t in (0, 0, 1):
        pad.tap_thread(t)
    assert pad.laid_note() == {0: "Ann 1 · Ben 1", 1: "Ann 1", 2: "none yet"}
    pad.take_back()
    assert pad.laid_note()[1] == "none yet"
    for t in (1, 2, 0, 1):
        pad.tap_thread(t)
    for c in ("telegram", "coded_message", "telegram", "coded_message"):
        pad.tap_card(c)
    said: list = []
    tile = GreyTile(text="Urgent Telegram", disabled=True, pos=(0, 0), size=(100, 52))
    tile.on_grey = lambda: said.append(pad.tap_card("telegram"))  # Ann's two Urgent Telegrams are both named
    tile.on_touch_down(SimpleNamespace(pos=(50, 20)))
    assert len(said) == 1 and said[0] is not None and not said[0].ok and "Every copy of Urgent Telegram" in said[0].message
    tile.disabled = False  # upright again: a tap runs its key, not the reason
    assert not tile.on_touch_down(SimpleNamespace(pos=(500, 20), x=500, y=20, is_mouse_scrolling=False)) and len(said) == 1



def test_in_a_turn_a_card_whose_copies_are_all_seen_says_so_when_tapped(db):
    pad = laid_out(db)
    assert pad.tap_card("interrogation") is None and pad.tap_thread(0).ok  # type: ignore[union-attr]
    assert pad.choose_mode("end").ok  # type: ignore[union-attr]
    assert pad.tap_card("intimidation") is None and pad.tap_thread(1).ok  # type: ignore[union-attr]
    assert pad.choose_mode("end").ok and pad.side() == "holmes"  # type: ignore[union-attr]
    assert not pad.playable("holmes", "interrogation")  # one laid in the setup, one played: both seen
    refused = pad.tap_card("interrogation")
    assert refused is not None and not refused.ok and "Every copy of Interrogation" in refused.message
    assert pad.card is None and pad.need() == "card"
