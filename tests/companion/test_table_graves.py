"""The Graves table in the real app: the early reveal asks first; the game-over screen tells every
case (evidence, unmasking, points), the totals and the winner with the reason, by name, never by id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.rules.cards import load_database
from casebook.rules.log import GameLog
from tests.companion.test_app_gui import SCREENS, location_steps, new_game_steps, read_dumps, run

pytest.importorskip("kivy")


def saved_finished_game(data: Path) -> Session:
    """A two-case game played to its end and saved where the app looks: every location passed out
    (The Bank Vault's decks said empty), Ann guesses wrong in case 1, Ben right in case 2."""
    db = load_database("graves")
    log = GameLog("graves", db.rules_version, ["Ann", "Ben"], [], 2026,
                  {"detective": "Ann", "colours": ["blue", "vermillion"]})
    session = Session.new(db, log, Store(data / "games"))
    guesses = iter(["ezra_hollowmere", "josiah_tumbrel"])
    while not session.is_over:
        st, p = session.state, session.state.players
        if st.phase == "play" and st.location.kind == "reveal_top_card" and not all(st.location.revealed):
            event = {"action": "reveal_top", "by": p[st.location.revealed.index(False)], "empty": True}
        elif st.phase == "play":
            event = {"action": "pass", "by": p[st.to_act]}
        elif st.case.identity is None:
            event = {"action": "identity", "by": p[st.case.mastermind], "identity": "josiah_tumbrel"}
        else:
            event = {"action": "guess", "by": p[st.case.detective], "identity": next(guesses)}
        out = session.do(event)
        assert out.ok, out.message
    return session


def test_game_over_tells_every_case_by_name(tmp_path):
    SCREENS.mkdir(exist_ok=True)
    session = saved_finished_game(tmp_path / "data")
    dump = tmp_path / "over.json"
    run(tmp_path, [{"tap_prefix": "resume_"}, {"dump": str(dump)}, {"shot": str(SCREENS / "game-over.png")},
                   {"quit": True}])
    d = json.loads(dump.read_text())
    text = "\n".join(d["texts"])
    assert d["summary"]["phase"] == "over" and d["summary"] == session.summary(None)
    for case in ("Case 1", "Case 2"):
        assert case in text
    assert "Ann named Ezra Hollowmere, the Spinner: wrong (it was Josiah Tumbrel, the Turnkey)" in text
    assert "Ben named Josiah Tumbrel, the Turnkey: right" in text
    assert "Evidence won: Ann 0, Ben 0" in text
    points = d["summary"]["result"]["scores"]
    assert f"Totals: Ann {points['Ann']}, Ben {points['Ben']}" in text
    assert "Ben wins" in text
    ids = [c.id for c in load_database("graves").components["identities"].cards]
    assert not [i for i in ids if i in text], "an identity shown by its id"


def test_the_early_reveal_asks_first(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("asked", "cancelled", "revealed")}
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"}] + location_steps()
    steps += [{"tap": "reveal"}, {"dump": d["asked"]}, {"shot": str(SCREENS / "reveal-confirm.png")},
              {"tap": "reveal_no"}, {"dump": d["cancelled"]}, {"tap": "reveal"}, {"tap": "reveal_yes"},
              {"dump": d["revealed"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    assert "reveal_yes" in data["asked"]["controls"] and data["asked"]["summary"]["phase"] == "unmasking"
    assert data["cancelled"]["summary"] == data["asked"]["summary"]  # Cancel changed nothing
    done = data["revealed"]["summary"]["cases_done"][0]
    assert done["revealed_early"] is True and data["revealed"]["summary"]["case"]["number"] == 2


def test_a_message_stays_with_its_game(tmp_path):
    """A refusal in one game is not shown when another game starts; Undo's note is not an error."""
    d = {n: str(tmp_path / f"{n}.json") for n in ("refused", "next_game", "undone")}
    steps = new_game_steps() + [{"tap": "play"}, {"dump": d["refused"]}, {"tap": "table_home"}]
    steps += new_game_steps() + [{"dump": d["next_game"]}, {"tap": "pass"}, {"tap": "undo"}, {"dump": d["undone"]},
                                 {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    assert data["refused"]["message"] and data["refused"]["message_kind"] == "error"
    assert data["next_game"]["message"] == ""
    assert (data["undone"]["message"], data["undone"]["message_kind"]) == ("Undone.", "info")


def test_slums_time_and_bank_vault_reveal_by_taps(tmp_path):
    """Locations dealt at the table (The Slums first, The Bank Vault next): the Detective moves a time token
    at The Slums before play; at The Bank Vault Ann reveals a 4 of Shoeprints and Ben's deck is empty."""
    d = {n: str(tmp_path / f"{n}.json") for n in ("slums", "vault_pad", "vault")}
    steps = [{"tap": "new_game"}] + [{"tap": f"pick_locations_{loc}"}
                                     for loc in ("slums", "bank_vault", "park", "alley", "river")]
    steps += [{"tap": "new_start"}, {"tap": "slums_here"}, {"tap": "slums_next"}, {"tap": "slums_next"},
              {"tap": "slums_set"}, {"dump": d["slums"]},
              {"tap": "rank_9"}, {"tap": "suit_notebook"}, {"tap": "play"}, {"tap": "pass"}, {"tap": "pass"},
              {"tap": "rank_4"}, {"tap": "suit_shoeprints"}, {"dump": d["vault_pad"]}, {"tap": "reveal_top"},
              {"tap": "deck_empty"}, {"dump": d["vault"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    slums, vault = data["slums"]["summary"]["locations"][:2]
    assert (slums["time"], vault["time"]) == (slums["clocks"] + 1, vault["clocks"] - 1)
    assert data["slums"]["controls"]["slums_set"]["disabled"]  # once only; the row stays put
    assert "reveal_top" in data["vault_pad"]["controls"] and "play" not in data["vault_pad"]["controls"]
    after = data["vault"]["summary"]["locations"][1]
    assert after["piles"] == {"Ann": ["4 Shoeprints"], "Ben": []} and after["totals"]["Ann"] == 4
    assert "play" in data["vault"]["controls"]  # both revealed: play begins
