"""Graves in The Long Haul with the first row dealt at the table: the game gets no seed, so at case 3
the table asks for the new row, tapped in the order dealt, and the game goes on with it."""

from __future__ import annotations

import json

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.rules.cards import load_database
from tests.companion.test_app_gui import read_dumps, run

pytest.importorskip("kivy")

FIRST_ROW = ["slums", "park", "alley", "river", "record_office"]  # no Bank Vault: nothing to reveal


def play_to_the_new_row(session: Session) -> None:
    """Both players pass out every location of cases 1 and 2 and the Detective guesses: case 3 needs a new row."""
    while session.state.phase != "deal":
        st = session.state
        case, names = st.case, st.players
        if st.phase == "play":
            out = session.do({"action": "pass", "by": names[st.to_act]})
        elif case.identity is None:
            out = session.do({"action": "identity", "by": names[case.mastermind], "identity": "josiah_tumbrel"})
        else:
            out = session.do({"action": "guess", "by": names[case.detective], "identity": "ezra_hollowmere"})
        assert out.ok, out.message
        assert session.state.phase != "over"


def test_a_long_haul_dealt_at_the_table_asks_for_each_new_row(tmp_path):
    """Case 3 asks for the new row: twelve names, taps in order, one taken back, Confirm lays it out."""
    started = tmp_path / "started.json"
    steps = [{"tap": "new_game"}, {"tap": "variant_long_haul"}]
    steps += [{"tap": f"pick_locations_{loc}"} for loc in FIRST_ROW]
    steps += [{"tap": "new_start"}, {"dump": str(started)}, {"quit": True}]
    run(tmp_path, steps, name="start")
    assert json.loads(started.read_text())["summary"]["cases_total"] == 4

    db = load_database("graves")
    store = Store(tmp_path / "data" / "games")
    (game_id,) = store.ids()
    session = Session.resume(db, store, game_id)
    assert session.log.seed is None, "a row dealt at the table must not leave later rows to a seed"
    assert session.log.setup["locations"] == FIRST_ROW
    play_to_the_new_row(session)
    assert session.state.case.number == 3
    session.save()

    new_row = ["library", "station", "museum", "countryside", "slums"]
    known = [c.id for c in db.components["locations"].cards]
    assert set(new_row) <= set(known), known
    d = {n: str(tmp_path / f"{n}.json") for n in ("asked", "four", "taken_back", "dealt", "played")}
    steps = [{"tap_prefix": "resume_"}, {"dump": d["asked"]}]
    steps += [{"tap": f"row_{loc}"} for loc in new_row[:4]] + [{"dump": d["four"]}, {"shot": str(tmp_path / "deal.png")}]
    steps += [{"tap": "row_back"}, {"dump": d["taken_back"]}]
    steps += [{"tap": f"row_{loc}"} for loc in new_row[3:]] + [{"tap": "row_confirm"}, {"dump": d["dealt"]}]
    steps += [{"tap": "pass"}, {"dump": d["played"]}, {"quit": True}]
    run(tmp_path, steps, name="deal")
    data = read_dumps(d)

    asked = data["asked"]
    assert asked["summary"]["phase"] == "deal" and asked["summary"]["case"]["number"] == 3
    assert "deal five locations from the deck" in "\n".join(asked["texts"])
    assert asked["controls"]["row_confirm"]["disabled"] and asked["controls"]["row_back"]["disabled"]
    assert len([c for c in asked["controls"] if c.startswith("row_") and c not in ("row_back", "row_confirm")]) == 12
    assert not data["four"]["small_controls"], data["four"]["small_controls"]  # every button >= 48 dp
    assert data["four"]["controls"]["row_confirm"]["disabled"]  # four of five: not yet
    assert "4. " in "\n".join(data["four"]["texts"])
    assert "4. " not in "\n".join(data["taken_back"]["texts"])  # the last one taken back
    assert data["taken_back"]["summary"]["phase"] == "deal"

    dealt = data["dealt"]["summary"]
    assert dealt["phase"] == "play" and dealt["case"]["number"] == 3
    names = {c.id: str(c["name"]) for c in db.components["locations"].cards}
    assert [loc["name"] for loc in dealt["locations"]] == [names[i] for i in new_row]
    played = data["played"]["summary"]
    assert played["phase"] == "play" and played["passes_in_a_row"] == 1
    logged = Session.resume(db, store, game_id).log.events
    assert {"action": "deal", "by": dealt["case"]["detective"], "locations": new_row}.items() <= \
        next(e for e in logged if e.get("action") == "deal").items()
