"""The pictures at the table (issue 22), in the real app at 360 x 640: each public thing the table names shows its
card's picture; a secret's picture is in no widget of the shared screen, only in the hold-to-see view."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from casebook.companion.pictures import symbol_for
from tests.companion.test_app_gui import new_game_steps, read_dumps, run

pytest.importorskip("kivy")

SHOTS = Path(os.environ.get("CASEBOOK_SHOTS", "")) if os.environ.get("CASEBOOK_SHOTS") else None


def shot(name: str) -> list:
    return [{"shot": str(SHOTS / f"pictures-{name}.png")}] if SHOTS else []


def test_graves_locations_show_their_pictures_and_the_identity_only_while_held(tmp_path):
    d = {n: str(tmp_path / f"{n}.json") for n in ("table", "held", "released")}
    steps = new_game_steps() + [{"tap": "set_identity"}, {"tap": "identity_odile_varnier"}, {"dump": d["table"]},
                                *shot("graves"), {"press": "secret_1"}, {"wait": 0.6}, {"dump": d["held"]},
                                *shot("graves-held"), {"release": "secret_1"}, {"dump": d["released"]}, {"quit": True}]
    run(tmp_path, steps)
    data = read_dumps(d)
    table = data["table"]
    mask = symbol_for("graves", "odile_varnier")
    for loc in table["summary"]["locations"]:
        assert symbol_for("graves", loc["id"]) in table["pictures"]["table"], loc["id"]
    for name in ("table", "released"):
        assert mask not in data[name]["pictures"]["table"] + data[name]["pictures"]["popup"], name
    assert data["held"]["pictures"]["popup"] == [mask]
    assert mask not in data["held"]["pictures"]["table"]


def test_p_i_districts_and_display_show_their_pictures_and_the_case_its_own_only_while_held(tmp_path):
    from casebook.rules.games import pi
    from tests.companion.test_pi_gui import NAMES, SEED, engine_game

    d = {n: str(tmp_path / f"{n}.json") for n in ("table", "held", "display", "board")}
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"},
              {"dump": d["table"]}, *shot("pi"), {"press": "secret_1"}, {"wait": 0.6}, {"dump": d["held"]},
              *shot("pi-held"), {"release": "secret_1"}, {"tap": "mode_evidence"}, {"dump": d["display"]},
              *shot("pi-display"), {"tap": "mode_investigate"}, {"tap": "board"},
              {"dump": d["board"]}, *shot("pi-board"), {"quit": True}]
    run(tmp_path, steps, timeout=120)
    data = read_dumps(d)
    state = engine_game()
    shown = data["table"]["pictures"]["table"]
    for district in pi.city(state.db).districts:
        assert symbol_for("pi", district) in shown, district
    for card in state.display:
        assert symbol_for("pi", card) in data["display"]["pictures"]["table"], card
    assert not data["table"]["pictures"]["popup"]
    board = data["board"]["pictures"]["popup"]  # All tiles: each district with its suspect's and crime's pictures
    for district, (suspect, crime) in state.tiles.items():
        assert {symbol_for("pi", e) for e in (district, suspect, crime) if e} <= set(board), district
    assert sorted(data["held"]["pictures"]["popup"]) == sorted(symbol_for("pi", e) for e in state.cases[1])  # Ben's


def test_hasty_row_shows_each_suspects_bust_and_a_secret_suspects_only_while_held(tmp_path):
    from tests.companion.test_hasty_gui import ROW, SECRETS
    from tests.companion.test_hasty_gui import new_game_steps as hasty_steps

    d = {n: str(tmp_path / f"{n}.json") for n in ("table", "held", "traitor")}
    steps = hasty_steps() + [*shot("hasty-new"), {"tap": "new_start"}, {"dump": d["table"]}, *shot("hasty"),
                             {"press": "secret_0"}, {"wait": 0.6},
                             {"dump": d["held"]}, *shot("hasty-held"), {"release": "secret_0"},
                             {"press": "secret_1"}, {"wait": 0.6}, {"dump": d["traitor"]}, {"release": "secret_1"},
                             {"quit": True}]
    run(tmp_path, steps, timeout=120)
    data = read_dumps(d)
    shown = data["table"]["pictures"]["table"]
    for sid in ROW:
        assert symbol_for("hasty", sid) in shown, sid
    assert not data["table"]["pictures"]["popup"]
    assert data["held"]["pictures"]["popup"] == [symbol_for("hasty", SECRETS["Ann"])]
    assert data["traitor"]["pictures"]["popup"] == []  # Ben is the Traitor: no bust, the same box


def test_clash_site_shows_its_picture_and_a_hidden_crime_plan_only_in_moriartys_hold(tmp_path):
    from casebook.rules.cards import load_database
    from tests.companion.test_clash_pad import PLAN, SEED, planned_game

    taps, _pad = planned_game(load_database("clash"), SEED)
    laid = taps.index("deal_site")
    d = {n: str(tmp_path / f"{n}.json") for n in ("plan_laid", "held", "site")}
    steps: list = [{"tap": "new_game"}, {"tap": "game_clash"}, {"text": ["new.p1", "Ann"]},
                   {"text": ["new.p2", "Ben"]}, {"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}]
    steps += [{"tap": tap} for tap in taps[:laid]]
    steps += [{"dump": d["plan_laid"]}, {"press": "secret_1"}, {"wait": 0.6}, {"dump": d["held"]}, *shot("clash-held"),
              {"release": "secret_1"}, {"tap": "deal_site"}, {"dump": d["site"]}, *shot("clash"), {"quit": True}]
    run(tmp_path, steps, timeout=120)
    data = read_dumps(d)
    plans = sorted(symbol_for("clash", p) for p in PLAN)
    for name in ("plan_laid", "site"):
        on_table = data[name]["pictures"]["table"] + data[name]["pictures"]["popup"]
        assert not set(plans) & set(on_table), (name, on_table)
    assert sorted(data["held"]["pictures"]["popup"]) == plans
    site = data["site"]["summary"]["site"]["id"]
    assert symbol_for("clash", site) in data["site"]["pictures"]["table"]


def test_settings_name_the_icons_makers(tmp_path):
    from casebook.companion.pictures import credit

    dump = str(tmp_path / "settings.json")
    run(tmp_path, [{"tap": "start_settings"}, {"dump": dump}, *shot("settings"), {"quit": True}])
    texts = read_dumps({"s": dump})["s"]["texts"]
    assert f"Pictures: {credit()}." in texts
