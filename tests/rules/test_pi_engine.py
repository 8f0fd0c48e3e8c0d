"""P.I. rules: the rulebook's worked example move by move, the answer helper and the 'not told twice'
ruling's worked cases, points boxes, penalties, the last player, misleading and tie-breaks."""

from __future__ import annotations

import pytest

from casebook.rules.engine import IllegalAction
from casebook.rules.games import pi
from casebook.rules.log import GameLog, replay
from tests.rules.test_pi_support import EXAMPLE_DISPLAY, EXAMPLE_TILES, pi_database

# Seated clockwise Blue, Red, Green: Blue holds Red's case (he is on her right), Green holds Blue's, Red Green's.
CASES = {"Blue": ["bubbles", "murder", "downtown"], "Green": ["velvet_vance", "arson", "hilltop"],
         "Red": ["lucky_pell", "smuggling", "northgate"]}


@pytest.fixture(scope="module")
def db():
    return pi_database()


def dealt(db, players=("Blue", "Red", "Green"), cases=None, **setup):
    state = pi.new_state(db, {"players": list(players), **setup})
    pi.apply(state, {"action": "deal", "tiles": EXAMPLE_TILES, "display": EXAMPLE_DISPLAY,
                     "cases": cases or CASES})
    return state


def act(state, by, action, **fields):
    pi.apply(state, {"action": action, "by": by, **fields})
    return state.last_answer


def test_the_database_proves_the_city(db):
    c = pi.city(db)
    assert len(c.districts) == 14 and len(c.suspects) == 12 and len(c.crimes) == 10
    assert all(a in c.adjacent[b] for a in c.districts for b in c.adjacent[a])
    assert pi.example_problems(c) == []


def test_worked_example_move_by_move(db):
    state = dealt(db)
    act(state, "Blue", "investigate", district="theatre_row")
    assert pi.answer_for(state, 1, "investigate", "little_italy")["text"] == \
        "Red: place 1 disc and 1 cube on your investigator in Little Italy"
    a = act(state, "Red", "investigate", district="Little Italy")
    assert (a["discs"], a["cubes"]) == (1, 1)  # Bubbles in Little Italy; Murder next door in Foundry Row
    act(state, "Green", "investigate", district="northgate")
    act(state, "Blue", "investigate", district="hilltop")
    a = act(state, "Red", "investigate", district="main_street")
    assert (a["discs"], a["cubes"]) == (0, 2)  # No Crime there, yet Murder and Downtown lie next door
    act(state, "Green", "evidence", card="gasworks", draw="shipyard")
    act(state, "Blue", "evidence", card="hilltop", draw="rail_yards")
    a = act(state, "Red", "evidence", card="Waterfront", draw="main_street")
    assert a["answer"] == "cube"  # Downtown lies next to Waterfront
    assert ("cube", "location", "waterfront", "waterfront") in state.markers[1]
    act(state, "Green", "evidence", card="canal_street", draw="mr_whisper")
    act(state, "Blue", "evidence", card="velvet_vance", draw="lantern_quarter")
    a = act(state, "Red", "evidence", card="murder", draw="extortion")
    assert a["answer"] == "disc" and ("disc", "crime", "foundry_row", "murder") in state.markers[1]
    act(state, "Green", "investigate", district="rail_yards")
    a = act(state, "Blue", "solve", suspect="velvet_vance", crime="arson", location="hilltop")
    assert a["right"] and state.points[0][0] == 7
    a = act(state, "Red", "solve", suspect="Bubbles", crime="Murder", location="Downtown", answer="right")
    assert a["right"] and state.points[1][0] == 7  # the same number of turns as Blue: the same box
    assert state.turns[:2] == [5, 5]
    # Green has taken 4 turns, fewer than the last solver: one more turn, then the mini-game ends
    assert state.current == 2 and state.mini == 1
    act(state, "Green", "evidence", card="arson", draw="bank_robbery")
    assert state.mini == 2 and state.phase == "deal"
    assert [p[0] for p in state.points] == [7, 7, 0]
    assert state.first == 1  # the first-player marker moves clockwise: Red starts mini-game 2
    assert state.investigators_left == [3, 3, 3]


def test_evidence_moves_a_disc_from_the_investigator(db):
    state = dealt(db)
    act(state, "Blue", "investigate", district="hilltop")  # 3 discs: Velvet Vance, Arson and Hilltop are all here
    assert [m[0] for m in state.markers[0]] == ["disc"] * 3
    a = act(state, "Red", "investigate", district="little_italy")
    act(state, "Green", "investigate", district="rail_yards")
    a = act(state, "Blue", "evidence", card="hilltop", draw="rail_yards")
    assert a["answer"] == "disc" and a["moved"]
    assert sorted(m[3] for m in state.markers[0]) == ["hilltop", "investigator", "investigator"]


def test_not_told_twice_worked_cases(db):
    c = pi.city(db)
    tiles = {d: tuple(v) for d, v in EXAMPLE_TILES.items()}
    case = ("bubbles", "murder", "downtown")
    inv = pi.answer_investigation(c, tiles, case, [], "little_italy")
    # (1) investigate Little Italy, then the Bubbles card: the disc moves onto the tile
    ev = pi.answer_evidence(c, tiles, case, inv["markers"], "bubbles")
    assert (ev["answer"], ev["moved"]) == ("disc", True)
    # (2) the Bubbles card first, then Little Italy: only the cube is new
    first = pi.answer_evidence(c, tiles, case, [], "bubbles")
    again = pi.answer_investigation(c, tiles, case, [first["marker"]], "little_italy")
    assert (again["discs"], again["cubes"]) == (0, 1)
    # (3) Little Italy twice: nothing new
    twice = pi.answer_investigation(c, tiles, case, inv["markers"], "little_italy")
    assert (twice["discs"], twice["cubes"]) == (0, 0)
    # (4) Foundry Row, then Main Street: the Murder cube in Main Street is told all the same
    foundry = pi.answer_investigation(c, tiles, case, [], "foundry_row")
    assert (foundry["discs"], foundry["cubes"]) == (1, 1)
    main = pi.answer_investigation(c, tiles, case, foundry["markers"], "main_street")
    assert (main["discs"], main["cubes"]) == (0, 2)
    # (5) the Main Street card twice: a cube for Murder, then one for Downtown, then nothing
    one = pi.answer_evidence(c, tiles, case, [], "main_street")
    two = pi.answer_evidence(c, tiles, case, [one["marker"]], "main_street")
    three = pi.answer_evidence(c, tiles, case, [one["marker"], two["marker"]], "main_street")
    assert (one["marker"][1], two["marker"][1], three["answer"]) == ("crime", "location", "nothing")
    # a case card in the same district as the evidence card's tile is not adjacent: nothing
    assert pi.answer_evidence(c, tiles, case, [], "ingrid_halvorsen")["answer"] == "cube"  # Murder, Downtown next door
    assert pi.answer_evidence(c, tiles, case, [], "doc_farrow")["answer"] == "nothing"  # Downtown itself


def test_hand_answers_are_checked(db):
    state = dealt(db)
    with pytest.raises(IllegalAction, match="Green must answer 3 cubes"):
        act(state, "Blue", "investigate", district="theatre_row", answer={"discs": 1, "cubes": 2})
    act(state, "Blue", "investigate", district="theatre_row", answer={"cubes": 3})
    with pytest.raises(IllegalAction, match="Blue must answer wrong"):
        act(state, "Red", "solve", suspect="bubbles", crime="murder", location="waterfront", answer="right")


def test_wrong_solve_costs_a_penalty_and_play_goes_on(db):
    state = dealt(db)
    a = act(state, "Blue", "solve", suspect="bubbles", crime="arson", location="hilltop")
    assert not a["right"] and state.penalties == [1, 0, 0] and state.current == 1
    assert pi.totals(state) == [-2, 0, 0]


def test_boxes_same_turns_share_and_next_goes_one_down(db):
    state = dealt(db, players=("Blue", "Red", "Green", "Ann"), cases={
        "Blue": ["bubbles", "murder", "downtown"], "Green": ["velvet_vance", "arson", "hilltop"],
        "Red": ["lucky_pell", "smuggling", "northgate"], "Ann": ["rosie_kane", "forgery", "shipyard"]})
    # Red's case is held by Blue, Green's by Red, Ann's by Green, Blue's by Ann
    act(state, "Blue", "investigate", district="shipyard")
    act(state, "Red", "solve", suspect="bubbles", crime="murder", location="downtown")  # turn 1: 7
    act(state, "Green", "solve", suspect="lucky_pell", crime="smuggling", location="northgate")  # turn 1: 7
    act(state, "Ann", "investigate", district="hilltop")
    act(state, "Blue", "solve", suspect="rosie_kane", crime="forgery", location="shipyard")  # turn 2: 5
    assert [s["points"] for s in state.solved] == [7, 7, 5]
    assert state.mini == 1 and state.current == 3  # Ann: 1 turn < 2, she plays once more
    act(state, "Ann", "solve", suspect="velvet_vance", crime="arson", location="hilltop")  # turn 2: shares the 5
    assert state.mini == 2
    assert [p[0] for p in state.points] == [5, 7, 7, 5]


def test_last_player_does_not_play_after_the_round(db):
    state = dealt(db, players=("Blue", "Red"), cases={"Blue": ["bubbles", "murder", "downtown"],
                                                     "Red": ["velvet_vance", "arson", "hilltop"]})
    act(state, "Blue", "solve", suspect="velvet_vance", crime="arson", location="hilltop")  # Blue's case: held by Red
    assert state.mini == 1 and state.current == 1  # Red has had 0 turns < 1
    act(state, "Red", "investigate", district="gasworks")
    assert state.mini == 2 and [p[0] for p in state.points] == [7, 0]


def test_misled(db):
    state = dealt(db)
    act(state, "Blue", "solve", suspect="velvet_vance", crime="arson", location="hilltop")
    act(state, "Red", "misled")  # Blue misled Red: Blue 0 for this mini-game, Red 7, both done
    assert state.mini == 1 and state.current == 2
    assert state.points[0][0] == 0 and state.points[1][0] == 7
    act(state, "Green", "investigate", district="northgate")  # Green played on; last solver 1 turn: ends
    assert state.mini == 2 and [p[0] for p in state.points] == [0, 7, 0]


def test_investigators_are_for_the_whole_game_and_pass(db):
    state = dealt(db, players=("Blue", "Red"), cases={"Blue": ["bubbles", "murder", "downtown"],
                                                     "Red": ["velvet_vance", "arson", "hilltop"]})
    state.investigators_left = [0, 5]
    with pytest.raises(IllegalAction, match="all 5 investigators"):
        act(state, "Blue", "investigate", district="gasworks")
    with pytest.raises(IllegalAction, match="may not pass while they can take evidence"):
        act(state, "Blue", "pass")


def test_turn_order_and_unknown_names(db):
    state = dealt(db)
    with pytest.raises(IllegalAction, match="it is Blue's turn, not Red's"):
        act(state, "Red", "investigate", district="gasworks")
    with pytest.raises(IllegalAction, match="did you mean Little Italy"):
        act(state, "Blue", "investigate", district="Litle Italy")
    with pytest.raises(IllegalAction, match="not on display"):
        act(state, "Blue", "evidence", card="bubbles", draw="shipyard")


def test_exhausted_deck_reshuffles_the_discards(db):
    state = dealt(db, seed=3)
    c = pi.city(db)
    state.deck = []  # as if every other card were in front of players or discarded
    state.discard = ["shipyard"]
    state.kept[0] = [e for e in c.kind if e not in state.display and e != "shipyard"]
    act(state, "Blue", "evidence", card="canal_street")  # nothing for Blue's case: kept in front of him
    assert state.reshuffles == 1 and "shipyard" in state.display and state.deck == []
    assert state.kept[0][-1] == "canal_street"
    # a cube (Bubbles next door): Gasworks is discarded first, then the empty deck is made again from the
    # discard pile, which is Gasworks alone, so it is drawn straight back (evidence_keep_or_discard, then
    # evidence_refill: "If you do place a disc/cube then you discard the card. You then draw a card")
    act(state, "Red", "evidence", card="gasworks")
    assert state.reshuffles == 2 and len(state.display) == 9 and "gasworks" in state.display
    assert state.deck == [] and state.discard == []
    assert pi.problems(state) == []


def test_a_card_that_earned_a_marker_is_discarded_before_the_reshuffle(db):
    """The rulebook, Select an Evidence card: "If you do place a disc/cube then you discard the card. You
    then draw a card to make the display up to nine cards again. If the deck is exhausted then shuffle the
    discard pile to make a new deck." Discard first: the card is in the new deck and may be drawn back."""
    c = pi.city(db)
    deck = [e for e in c.kind if e not in EXAMPLE_DISPLAY]  # the table's own deck, every draw named
    assert len(deck) == 27
    events = [{"action": "deal", "tiles": EXAMPLE_TILES, "display": EXAMPLE_DISPLAY,
               "cases": {"Ben": ["bubbles", "murder", "downtown"], "Ann": ["velvet_vance", "arson", "hilltop"]}}]
    taken = "canal_street"
    for i, drawn in enumerate(deck):  # 27 turns: each takes the card drawn the turn before, and draws the next
        events.append({"action": "evidence", "by": ("Ann", "Ben")[i % 2], "card": taken, "draw": drawn})
        taken = drawn
    # the deck is empty. Ben's turn: Arson (Ben's case, held by Ann: Velvet Vance, Arson, Hilltop) lies in
    # Hilltop: a disc on its tile, so the card is discarded; the discard pile, Arson in it, becomes the
    # new deck, and the table happens to draw Arson straight back.
    events.append({"action": "evidence", "by": "Ben", "card": "arson", "answer": "disc", "draw": "arson"})
    before = replay(db, GameLog("pi", 1, ["Ann", "Ben"], events=events[:-1])).state
    assert before.deck == [] and "arson" in pi.refill_cards(before, "arson")  # what a table may name
    assert "arson" not in before.discard
    # a card named that is in neither: refused, and the refusal moves nothing (Arson stays on display)
    shown, discards = list(before.display), list(before.discard)
    with pytest.raises(IllegalAction, match="Hilltop evidence card is not in the discard pile"):
        act(before, "Ben", "evidence", card="arson", draw="hilltop")
    assert before.display == shown and before.discard == discards and before.reshuffles == 0
    log = GameLog("pi", 1, ["Ann", "Ben"], events=events)
    out = replay(db, log)
    assert out.error is None, str(out.error)
    state = out.state
    assert state.reshuffles == 1 and "arson" in state.display and len(state.display) == 9
    assert "arson" not in state.deck + state.discard
    assert ("disc", "crime", "hilltop", "arson") in state.markers[1]
    assert pi.problems(state) == []


def test_a_display_laid_out_by_the_table_needs_each_draw_named_even_with_a_seed(db):
    state = dealt(db, seed=3)  # the seed deals nothing here: the table laid out its own display
    with pytest.raises(IllegalAction, match="name the evidence card drawn"):
        act(state, "Blue", "evidence", card="canal_street")
    assert "canal_street" in state.display  # the refusal moved nothing
    act(state, "Blue", "evidence", card="canal_street", draw="shipyard")
    assert "shipyard" in state.display and "shipyard" not in state.deck


def test_tie_breaks(db):
    state = pi.new_state(db, {"players": ["Ann", "Ben", "Cy"]})
    state.phase = "over"
    state.points = [[7, 5, 0], [5, 7, 0], [7, 0, 3]]
    state.penalties, state.investigators_left = [0, 0, 0], [1, 2, 0]
    out = pi.result(state)
    assert out["scores"] == {"Ann": 12, "Ben": 12, "Cy": 10}
    assert (out["winner"], out["decided_by"]) == ("Ben", "investigators")
    state.investigators_left = [2, 2, 0]
    state.points[0], state.penalties = [7, 7, 0], [1, 0, 0]
    out = pi.result(state)
    assert (out["winner"], out["decided_by"]) == ("Ben", "penalties")
    state.penalties = [1, 1, 0]
    state.points[1] = [7, 7, 0]
    out = pi.result(state)
    assert (out["winner"], out["decided_by"], out["winners"]) == (None, "tie", ["Ann", "Ben"])
    assert out["why"] == "Ann and Ben tie with 12 points, 2 investigators left and 1 penalty each"
    state.investigators_left, state.penalties = [1, 1, 0], [0, 0, 0]
    state.points[0] = state.points[1] = [7, 5, 0]
    assert pi.result(state)["why"] == "Ann and Ben tie with 12 points, 1 investigator left and 0 penalties each"


def test_views_hide_other_cases(db):
    state = dealt(db)
    public = pi.summary(state)
    assert "case" not in public
    c = pi.city(db)
    for p, name in enumerate(state.players):
        seen = pi.view(state, p)
        assert seen["case"] == {k: c.name[e] for k, e in zip(pi.KINDS, CASES[name], strict=True)}
        assert seen["case_for"] == state.players[(p + 1) % 3]
        assert {k: v for k, v in seen.items() if k not in ("case", "case_for")} == public  # nothing else private


def test_seeded_deal_is_complete_and_reproducible(db):
    one = pi.new_state(db, {"players": ["Ann", "Ben"], "seed": 11})
    two = pi.new_state(db, {"players": ["Ann", "Ben"], "seed": 11})
    for state in (one, two):
        pi.apply(state, {"action": "deal"})
    assert one.tiles == two.tiles and one.cases == two.cases and one.display == two.display
    assert one.phase == "play" and len(one.display) == 9 and len(one.deck) == 27
    assert sum(1 for s, _ in one.tiles.values() if s is None) == 2
    assert sum(1 for _, k in one.tiles.values() if k is None) == 4


def test_physical_deal_then_cases_entered(db):
    state = pi.new_state(db, {"players": ["Ann", "Ben"]})
    pi.apply(state, {"action": "deal", "tiles": EXAMPLE_TILES, "display": EXAMPLE_DISPLAY})
    assert state.phase == "cases"
    with pytest.raises(IllegalAction, match="enters the case they hold first"):
        act(state, "Ann", "investigate", district="gasworks")
    act(state, "Ann", "case", suspect="bubbles", crime="murder", location="downtown")
    with pytest.raises(IllegalAction, match="dealt to two players"):
        act(state, "Ben", "case", suspect="bubbles", crime="arson", location="hilltop")
    act(state, "Ben", "case", suspect="rosie_kane", crime="arson", location="hilltop")
    assert state.phase == "play"
    with pytest.raises(IllegalAction, match="name the evidence card drawn"):
        act(state, "Ann", "evidence", card="murder")


def test_describe_tells_the_answer(db):
    state = dealt(db)
    text = pi.describe(state, {"action": "investigate", "by": "Blue", "district": "hilltop"})
    assert text == "Blue investigates Hilltop: 3 discs"
    assert pi.describe(state, {"action": "investigate", "by": "Red", "district": "hilltop"}) == \
        "Red investigates Hilltop"


def test_every_rule_the_engine_names_is_in_the_rules(db):
    ids = {r.id for r in db.rules} | {f.id for f in db.faq}
    named = {v.id for v in vars(pi).values() if isinstance(v, pi.Rule)}
    assert named and named <= ids, named - ids


def test_a_city_where_the_worked_example_fails_is_told(db):
    import dataclasses

    c = pi.city(db)
    adjacent = dict(c.adjacent)
    adjacent["little_italy"] = c.adjacent["little_italy"] | {"main_street"}
    adjacent["main_street"] = c.adjacent["main_street"] | {"little_italy"}
    broken = dataclasses.replace(c, adjacent=adjacent)
    found = pi.example_problems(broken)
    assert any("neither Main Street nor Downtown" in f for f in found), found
    adjacent = dict(c.adjacent)
    adjacent["waterfront"] = c.adjacent["waterfront"] | {"theatre_row"}
    adjacent["theatre_row"] = c.adjacent["theatre_row"] | {"waterfront"}
    found = pi.example_problems(dataclasses.replace(c, adjacent=adjacent))
    assert any("only district adjacent to both Waterfront and Main Street" in f for f in found), found


def test_a_fifth_solver_shares_the_fourth_box(db):
    """faq_fifth_solver: with five players the fifth can only solve in as many turns as the fourth."""
    players = ("A", "B", "C", "D", "E")
    held = {"E": ["bubbles", "murder", "downtown"], "A": ["velvet_vance", "arson", "hilltop"],
            "B": ["lucky_pell", "smuggling", "northgate"], "C": ["rosie_kane", "jewel_theft", "waterfront"],
            "D": ["doc_farrow", "bank_robbery", "main_street"]}
    state = dealt(db, players=players, cases=held)
    solution = {p: held[players[(i - 1) % 5]] for i, p in enumerate(players)}

    def solve(p):
        act(state, p, "solve", **dict(zip(pi.KINDS, solution[p], strict=True)))

    def look(*ps):
        for p in ps:
            act(state, p, "investigate", district="gasworks")

    solve("A"), look("B", "C", "D", "E")          # round 1: A 7
    solve("B"), look("C", "D", "E")               # round 2: B 5
    solve("C"), look("D", "E")                    # round 3: C 3
    solve("D")                                    # round 4: D 1; E has had 3 turns: one more
    assert state.mini == 1 and state.current == 4
    solve("E")                                    # round 4 too: shares the 1
    assert [p[0] for p in state.points] == [7, 5, 3, 1, 1] and state.mini == 2


def refusal(state, event):
    """The refusal of an event (the rule it names and its words); the test fails if it is accepted."""
    with pytest.raises(IllegalAction) as exc:
        pi.apply(state, event)
    return exc.value


def test_a_refusal_names_the_rule_a_player_would_look_up(db):
    """Issue 20, item 15: a deal in the middle of a mini-game is refused by the rule that says when the board is
    dealt again (mini_game_end: "Everything goes back, is shuffled and dealt again"), not by how tiles are laid."""
    from pathlib import Path

    from tests.rules.logfiles import read_log

    log = read_log(Path(__file__).resolve().parents[1] / "data" / "logs" / "pi" / "two_players.yaml")
    deal = log.events[0]
    log.events.insert(2, dict(deal))  # a second deal after Ann's first turn
    out = replay(db, log)
    assert out.error is not None and out.error.event_no == 3
    assert out.error.rule.id == "mini_game_end", str(out.error)
    assert "mini-game 1 is already dealt" in out.error.reason

    # a turn before the deal: mini-game 1 is set up (setup_tiles), a later one dealt again (mini_game_end)
    state = pi.new_state(db, {"players": ["Ann", "Ben"]})
    assert refusal(state, {"action": "investigate", "by": "Ann", "district": "hilltop"}).rule.id == "setup_tiles"
    state.mini = 2
    assert refusal(state, {"action": "investigate", "by": "Ann", "district": "hilltop"}).rule.id == "mini_game_end"
    state = pi.new_state(db, {"players": ["Ann", "Ben"]})
    pi.apply(state, {"action": "deal", "tiles": EXAMPLE_TILES, "display": EXAMPLE_DISPLAY})
    assert refusal(state, {"action": "investigate", "by": "Ann", "district": "hilltop"}).rule.id == "setup_cases"

    # how many players: a rule of its own, with the rulebook's "two to five players"
    with pytest.raises(IllegalAction) as six:
        pi.new_state(db, {"players": ["A", "B", "C", "D", "E", "F"]})
    assert six.value.rule.id == "setup_players" and "2 to 5 players" in six.value.reason
    assert "2 to 5 players" in next(r.text for r in db.rules if r.id == "setup_players")
    with pytest.raises(IllegalAction) as colour:
        pi.new_state(db, {"players": ["Ann", "Ben"], "colours": ["red", "red"]})
    assert colour.value.rule.id == "components_pieces"  # "in a colour of their own"

    # a draw named when the deck and the discards are empty: the ruling on an exhausted deck
    state = dealt(db)
    state.deck, state.discard = [], []
    refused = refusal(state, {"action": "evidence", "by": "Blue", "card": "canal_street", "draw": "shipyard"})
    assert refused.rule.id == "faq_exhausted_deck", str(refused)
