"""Hasty Accusations in the real app at 360 x 640: five players and the Traitor set up by taps (the row as
laid out, each secret suspect entered by its player alone), then a whole game by taps (plays face down,
a card face up at the loupe, reviews walked card by card, murders, eliminations) to the Traitor's win.
No secret suspect shows anywhere but in its owner's hold; every control at least 48 dp."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.rules.cards import load_database
from casebook.rules.games import hasty
from tests.companion.test_app_gui import SCREENS, run

pytest.importorskip("kivy")

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow",
       "ottoline_vesey", "barnaby_crewe", "imelda_thorne", "rufus_galloway"]
SECRETS = {"Ann": "hattie_quill", "Ben": "traitor", "Cat": "dorian_fitch", "Dan": "imelda_thorne",
           "Eve": "silas_penhallow"}
BAR = ["face_down", "clear", "stuck", "undo", "history", "table_rules", "table_home"]
LEAKS = ("Your secret suspect", "You are the Traitor", "You know")


def new_game_steps() -> list:
    """Hasty, five players, the Traitor; the row tapped as laid out; each secret entered by its player."""
    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"tap": "variant_traitor"}]
    steps += [{"tap": f"pick_row_{s}"} for s in ROW]
    steps += [{"tap": "new_start"}]  # refused: nobody has entered a secret suspect yet
    for i, name in enumerate(NAMES):
        steps += [{"tap": f"secret_secret_{i}"}, {"tap": f"secret_secret_{i}_{SECRETS[name]}"}]
    return steps


def planned_game() -> list[str]:
    """The taps of a whole game, worked out on the engine: every card goes on the pile of the next
    player's suspect to die (face up when it has the loupe: a Wrong Turning, which asks where the loupe goes,
    then Fresh Leads); each review reveals a
    Bitter Almonds (one of two: nobody dies) and then a Letter Opener (a murder)."""
    db = load_database("hasty")
    state = hasty.new_state(db, {"players": NAMES, "variants": ["traitor"], "sets": ["base"], "row": ROW,
                                 "secrets": SECRETS})
    victims = [SECRETS[p] for p in NAMES if SECRETS[p] != "traitor"]
    taps: list[str] = []
    while not hasty.is_over(state):
        who = state.players[state.active]
        if state.phase == "reveal":
            assert state.review is not None
            card = "bitter_almonds" if not state.review.revealed and state.review.pos > 0 else "letter_opener"
            event = {"action": "reveal", "by": who, "card": card}
            taps.append(f"reveal_{card}")
        else:
            target = next(v for v in victims if v in state.row)
            event = {"action": "play", "by": who, "at": target}
            if state.row.index(target) == state.loupe and "card_wrong_turning" not in taps:
                event.update(card="wrong_turning", target=target)  # the loupe goes where Ann chooses
                taps += [f"suspect_{target}", "card_wrong_turning", f"suspect_{target}"]
            elif state.row.index(target) == state.loupe:
                event["card"] = "fresh_lead"
                taps += [f"suspect_{target}", "card_fresh_lead"]
            else:
                taps += [f"suspect_{target}", "face_down"]
        hasty.apply(state, event)
        assert len(taps) < 400
    assert state.winners == [NAMES.index("Ben")]  # the Traitor wins: every other player is out
    return taps


def leaks(dump: dict, held: str | None = None) -> list[str]:
    """Secret text on show: a hold's words (outside `held`'s own hold), or a suspect marked with its owner."""
    shown = dump["texts"]
    out = [t for t in shown if any(w in t for w in LEAKS)] if held is None else []
    alive = [p for p in NAMES if p not in (dump["summary"] or {}).get("out", [])]
    if not (dump["summary"] or {}).get("result", {}).get("over"):
        out += [t for t in shown for p in alive if f"({p})" in t]
    return out


def test_five_players_and_the_traitor_a_whole_game_by_taps(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    taps = planned_game()
    dumps: dict[str, Path] = {}

    def dump(name: str, shot: bool = False) -> list:
        dumps[name] = tmp_path / f"{name}.json"
        out: list = [{"dump": str(dumps[name])}]
        return out + ([{"shot": str(SCREENS / f"hasty-{name}.png")}] if shot else [])

    steps = new_game_steps()
    steps[-1:-1] = dump("secret-entry", shot=True)  # Eve alone, picking hers
    steps[len(steps) - 2 * len(NAMES) - 1:len(steps) - 2 * len(NAMES) - 1] = dump("missing")
    steps += dump("new", shot=True) + [{"tap": "new_start"}] + dump("start", shot=True)
    steps += [{"press": "secret_1"}, {"wait": 0.6}, *dump("held-ben", shot=True), {"release": "secret_1"}]
    steps += [{"press": "secret_0"}, {"wait": 0.6}, *dump("held-ann"), {"release": "secret_0"}]
    reviews = 0
    for n, tap in enumerate(taps):
        if tap.startswith("reveal_") and not reviews:
            steps.append({"scroll": ["table.scroll", 0]})  # a finger scrolled the state down: the next step is on top
        steps.append({"tap": tap})
        if n == 0:
            steps += dump("picked", shot=True)
        if tap == "card_wrong_turning":
            steps.pop()
            steps += dump("loupe", shot=True) + [{"tap": tap}] + dump("choice", shot=True)
        if tap.startswith("reveal_"):
            reviews += 1
            steps += dump(f"review-{reviews}", shot=reviews in (1, 2, 3))
    steps += dump("over", shot=True)
    steps += [{"tap": "history"}, *dump("history", shot=True), {"key": 27}, {"tap": "table_rules"},
              {"text": ["rules.query", "traitor"]}, *dump("rules", shot=True), {"quit": True}]
    run(tmp_path, steps, timeout=600)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
        if not name.startswith("held"):
            assert leaks(d) == [], f"{name}: a secret on the table: {leaks(d)}"
    assert "Eve only" in "\n".join(data["secret-entry"]["texts"])
    assert data["missing"]["screen"] == "new"
    assert "Ann: enter your secret suspect first (the button 'Ann: enter it secretly')." in data["missing"]["texts"]
    start = data["start"]["summary"]
    assert start["players"] == NAMES and start["phase"] == "play" and start["variants"] == ["traitor"]
    assert [r["id"] for r in start["row"]] == ROW and start["sets"] == ["base"]
    base = [c.id for c in hasty.actions(load_database("hasty")).values() if "base" in c.sets]
    in_reach = {"start": BAR + [f"suspect_{s}" for s in ROW], "picked": BAR + [f"suspect_{s}" for s in ROW],
                "loupe": BAR + [f"card_{c}" for c in base], "review-1": BAR[3:] + [f"reveal_{c}" for c in base]}
    for d, keys in in_reach.items():  # the row to play on, or every card type to tap, in view with the bar
        out = [k for k in keys if not data[d]["controls"].get(k, {}).get("in_window")]
        assert out == [], f"{d}: not on the window without scrolling: {out}"
    held_ben = "\n".join(data["held-ben"]["texts"])
    assert "Ben only" in held_ben and "You are the Traitor" in held_ben
    held_ann = "\n".join(data["held-ann"]["texts"])
    assert "Your secret suspect: Hattie Quill" in held_ann and "Traitor" not in held_ann
    picked = data["picked"]
    assert picked["summary"]["events"] == 0 and not picked["controls"]["face_down"]["disabled"]
    assert "Ann plays face down on Hattie Quill: tap Face down" in picked["texts"]
    loupe = data["loupe"]
    assert loupe["controls"]["face_down"]["disabled"] and "card_letter_opener" in loupe["controls"]
    choice = data["choice"]
    assert "Wrong Turning: Move the loupe to any suspect" in "\n".join(choice["texts"])
    assert choice["summary"]["events"] == data["loupe"]["summary"]["events"]  # nothing recorded before the choice
    assert all(choice["controls"][k]["in_window"] for k in [f"suspect_{s}" for s in ROW] + ["choice_cancel"])
    first = data["review-1"]
    assert any("Bitter Almonds: 1 of 2 revealed, no murder yet" in t for t in first["texts"])
    assert first["controls"]["review_prompt"]["in_window"]  # its "Last:" sits in the fixed pad
    murders = [d for n, d in data.items() if n.startswith("review-") and d["summary"]["out"]]
    assert murders, "no murder in any review"
    over = data["over"]
    s = over["summary"]
    assert s["phase"] == "over" and s["result"]["winners"] == ["Ben"] and s["result"]["decided_by"] == "traitor"
    shown = "\n".join(over["texts"])
    assert "Ben wins" in shown and "Ben is the Traitor and wins" in shown and "Ben: the Traitor" in shown
    assert any("murdered" in t for t in over["texts"])
    last = next(t for t in over["texts"] if t.startswith("Last:"))  # in full, in view, the winner not told twice
    assert over["controls"]["last"]["in_window"] and "is murdered" in last and "Game over" not in last
    history = "\n".join(data["history"]["texts"])
    assert "Hattie Quill is murdered" in history or "is murdered" in history
    assert data["rules"]["screen"] == "rules" and any("Traitor" in t for t in data["rules"]["texts"])


def test_two_sets_dealt_from_a_seed(tmp_path):
    """Seven players (seven colours, none under 48 dp), the advanced and expert sets, a seed: the card
    types of both sets under their names at the loupe, one played; each secret in its player's hold."""
    db = load_database("hasty")
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    state = hasty.new_state(db, {"players": names, "variants": [], "sets": ["advanced", "expert"], "seed": 5})
    dumps = {n: tmp_path / f"{n}.json" for n in ("form", "loupe", "played", "held")}
    steps = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"},
             {"tap": "variant_set_advanced"}, {"tap": "variant_set_expert"}, {"tap": "deal_seed"},
             {"text": ["new.seed", "5"]}, {"dump": str(dumps["form"])}, {"shot": str(SCREENS / "hasty-new-seven.png")},
             {"tap": "new_start"}, {"tap": f"suspect_{state.row[0]}"}, {"dump": str(dumps["loupe"])},
             {"shot": str(SCREENS / "hasty-two-sets.png")}, {"tap": "card_ambush"}, {"dump": str(dumps["played"])},
             {"press": "secret_6"}, {"wait": 0.6}, {"dump": str(dumps["held"])}, {"release": "secret_6"}, {"quit": True}]
    run(tmp_path, steps)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
    assert all(f"colour_p7_{c}" in data["form"]["controls"] for c in ("yellow", "sky", "blue"))
    loupe = data["loupe"]
    assert {"Advanced set", "Expert set"} <= set(loupe["texts"])
    assert "card_letter_opener" not in loupe["controls"] and "card_spyglass" in loupe["controls"]
    played = data["played"]["summary"]
    assert played["sets"] == ["advanced", "expert"] and played["row"][0]["face_up"] == ["Ambush"]
    gus = hasty.view(state, 6)["secret"]
    assert f"Your secret suspect: {gus}" in data["held"]["texts"]
    assert not any("Your secret suspect" in t for t in data["played"]["texts"])


def test_a_walk_at_the_table_form_and_table_hold_still_and_keep_secrets(tmp_path):
    """What a walk at 360x640 found: the row's buttons stay put as the row is tapped in (the form scrolled to its
    end); wrong secrets are refused for people and must be entered again; secrets do not outlive a form left with
    Back; at the table a new step shows the state from its top, face-up cards and a called-off review stay in
    view, and "Undone." does not outlast a Redo or a look at the rules."""
    row = ROW[:7]  # five players: seven suspects
    secrets = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow"]
    spare = "winifred_saltash"  # never tapped: its button must not move while the row is tapped in
    dumps: dict[str, Path] = {}

    def dump(name: str, shot: str = "") -> list:
        dumps[name] = tmp_path / f"{name}.json"
        return [{"dump": str(dumps[name])}] + ([{"shot": str(SCREENS / f"hasty-{shot}.png")}] if shot else [])

    def enter(chosen: list[str]) -> list:
        return [step for i, sid in enumerate(chosen)
                for step in ({"tap": f"secret_secret_{i}"}, {"tap": f"secret_secret_{i}_{sid}"})]

    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"scroll": ["new.scroll", 0.4]}]  # the row in view
    for n, sid in enumerate(row):
        steps += [{"tap": f"pick_row_{sid}"}, *dump(f"pick-{n + 1}", shot="new-row" if n == len(row) - 1 else "")]
    steps += enter([secrets[0], *secrets[:4]]) + [{"tap": "new_start"}, *dump("same", shot="secrets-again")]
    steps += enter(secrets) + [{"tap": "new_back"}, {"tap": "new_game"}, *dump("form-again")]
    steps += enter(secrets) + [{"tap": "new_start"}, {"tap": f"suspect_{row[0]}"}, *dump("loupe-picker")]
    steps += [{"tap": "card_solid_alibi"}, {"tap": f"suspect_{row[1]}"}, {"tap": "card_court_recess"}]
    steps += dump("recess", shot="called-off")
    steps += [{"scroll": ["table.scroll", 0]}, *dump("scrolled"), {"tap": f"suspect_{row[3]}"}, {"tap": "face_down"}]
    steps += dump("next-step")
    steps += [{"tap": "undo"}, *dump("undone"), {"tap": "history"}, {"tap": "history_redo"}, {"key": 27}]
    steps += dump("redone") + [{"tap": "undo"}, {"tap": "table_rules"}, {"key": 27}, *dump("after-rules")]
    steps += [{"quit": True}]
    run(tmp_path, steps)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split across lines: {d['split_words']}"
    places = {round(data[f"pick-{n}"]["controls"][f"pick_row_{spare}"]["rect"][1], 1) for n in range(1, len(row) + 1)}
    assert len(places) == 1, f"the row's buttons moved as it was tapped in: {places}"
    same = "\n".join(data["same"]["texts"])
    assert "Enter the secrets again, each player unseen by the others: two players have the same secret" in same
    assert "event 0" not in same and "Ann: enter it secretly" in same  # all to enter again, whose was wrong unsaid
    again = "\n".join(data["form-again"]["texts"])
    assert "entered and hidden" not in again and "Ann: enter it secretly" in again and "1. Dorian Fitch" in again
    picker = data["loupe-picker"]
    holds = [picker["controls"].get(f"secret_{n}", {}).get("in_window") for n in range(5)]
    assert all(holds), f"a hold out of reach while a card type is tapped: {holds}"  # each player's, at every moment
    assert all(c["in_window"] for k, c in picker["controls"].items() if k.startswith("card_"))
    recess = data["recess"]
    assert recess["summary"]["called_off"] == 1 and any("No review next" in t for t in recess["texts"])
    assert any("Solid Alibi" in t and "Dorian Fitch" in t for t in recess["texts"])  # on its tile
    assert not data["scrolled"]["controls"]["last"]["in_window"]  # a finger scrolled the state away...
    assert data["next-step"]["controls"]["last"]["in_window"]  # ...and the next step shows it from the top
    assert data["undone"]["message"] == "Undone."
    assert data["redone"]["screen"] == "table" and data["redone"]["message"] == ""
    assert data["redone"]["summary"]["events"] == data["next-step"]["summary"]["events"]
    assert data["after-rules"]["screen"] == "table" and data["after-rules"]["message"] == ""
