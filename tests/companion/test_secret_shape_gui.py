"""A secret's box has the same shape for every player of a table: with the Traitor in a Hasty game, the
Traitor's four-line secret and a one-line secret suspect open boxes of the same size, so nobody reads who
holds the Traitor from the shape of the box across the table (found playing in a real window)."""

from __future__ import annotations

import pytest

from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.rules.cards import load_database
from casebook.rules.log import GameLog
from tests.companion.test_app_gui import SCREENS, read_dumps, run

pytest.importorskip("kivy")

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow", "ottoline_vesey",
       "barnaby_crewe", "imelda_thorne", "rufus_galloway", "perpetua_dawes", "felix_ambrose"]
SECRETS = dict(zip(NAMES, ["hattie_quill", "traitor", "dorian_fitch", "imelda_thorne", "silas_penhallow",
                           "perpetua_dawes", "rufus_galloway"], strict=True))


@pytest.mark.parametrize("size", [(360, 640), (640, 360)])
def test_the_traitors_secret_opens_a_box_shaped_like_everyone_elses(tmp_path, size):
    db = load_database("hasty")
    log = GameLog("hasty", db.rules_version, NAMES, ["traitor"], 7, {"sets": ["base"], "row": ROW, "secrets": SECRETS})
    session = Session.new(db, log, Store(tmp_path / "data" / "games"))
    SCREENS.mkdir(exist_ok=True)
    d = {name: str(tmp_path / f"{name}.json") for name in NAMES}
    steps: list = [{"tap": f"resume_{session.game_id}"}]
    for n, name in enumerate(NAMES):
        steps += [{"press": f"secret_{n}"}, {"wait": 0.6}, {"dump": d[name]}]
        if name in ("Ann", "Ben"):
            steps.append({"shot": str(SCREENS / f"hasty7-secret-{name}-{size[0]}x{size[1]}.png")})
        steps.append({"release": f"secret_{n}"})
    run(tmp_path, steps + [{"quit": True}], size=size)
    dumps = read_dumps(d)
    assert "the Traitor" in "\n".join(dumps["Ben"]["texts"])  # Ben's box is open, and holds the long text
    assert "Your secret suspect" in "\n".join(dumps["Ann"]["texts"])
    close = {name: dumps[name]["controls"]["secret_close"]["rect"] for name in NAMES}
    assert len({tuple(round(v) for v in rect) for rect in close.values()}) == 1, close
