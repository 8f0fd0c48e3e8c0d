"""Entering secrets on the new-game form at 360 x 640 (Hasty, seven players): Back with a player's picker open
closes that picker only, and every secret entered so far stays; after a refused set (two the same) everyone
enters theirs again and the red refusal goes once they have."""

from __future__ import annotations

import pytest

from tests.companion.test_app_gui import SCREENS, read_dumps, run

pytest.importorskip("kivy")

BACK = {"key": 27}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow", "ottoline_vesey",
       "barnaby_crewe", "imelda_thorne", "rufus_galloway"]


def form() -> list:
    """Hasty for seven, the row tapped in as laid out."""
    return ([{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"}]
            + [{"tap": f"pick_row_{s}"} for s in ROW])


def enter(players: range, secrets: list[str]) -> list:
    return [step for i in players for step in ({"tap": f"secret_secret_{i}"}, {"tap": f"secret_secret_{i}_{secrets[i]}"})]


def test_back_closes_the_open_picker_and_keeps_the_secrets_entered(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("open", "closed", "left")}
    steps = form() + enter(range(3), ROW) + [{"tap": "secret_secret_3"}, {"dump": d["open"]}, BACK,
                                              {"dump": d["closed"]}, {"shot": str(SCREENS / "hasty-back-picker.png")},
                                              BACK, {"dump": d["left"]}, {"quit": True}]
    SCREENS.mkdir(exist_ok=True)
    run(tmp_path, steps)
    data = read_dumps(d)
    assert data["open"]["screen"] == "new" and "secret_secret_3_traitor" not in data["open"]["controls"]
    assert "secret_secret_3_" + ROW[0] in data["open"]["controls"]  # Dan's picker is open
    closed = data["closed"]
    assert closed["screen"] == "new", "Back with the picker open left the form"
    assert not any(c.startswith("secret_secret_3_") for c in closed["controls"])  # the picker is shut
    text = "\n".join(closed["texts"])
    for name in NAMES[:3]:
        assert f"{name}'s secret suspect is entered and hidden." in text, name
    assert "Dan: enter it secretly" in text
    assert data["left"]["screen"] == "start"  # Back again leaves the form (and its secrets with it)


def test_a_refused_set_is_entered_again_and_its_refusal_then_goes(tmp_path):
    same = [ROW[0], *ROW[:6]]  # Ann and Ben both on Dorian Fitch
    d = {n: str(tmp_path / f"{n}.json") for n in ("refused", "half", "again")}
    steps = form() + enter(range(7), same) + [{"tap": "new_start"}, {"dump": d["refused"]}]
    steps += enter(range(4), ROW) + [{"dump": d["half"]}]
    steps += enter(range(4, 7), ROW) + [{"dump": d["again"]}, {"shot": str(SCREENS / "hasty-secrets-again.png")},
                                        {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    refusal = "Enter the secrets again, each player unseen by the others"
    assert any(refusal in t for t in data["refused"]["texts"])
    assert any(refusal in t for t in data["half"]["texts"])  # three still to enter theirs: it still applies
    again = "\n".join(data["again"]["texts"])
    assert refusal not in again, "the refusal stayed after everyone entered their secret again"
    assert "Gus's secret suspect is entered and hidden." in again
    assert data["again"]["screen"] == "new"
