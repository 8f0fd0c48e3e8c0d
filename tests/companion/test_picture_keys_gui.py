"""A card's picture on the key that names it never covers the name (issue 22 / issue 20's window play): P.I.'s
three-column keys of the city's cards (the evidence display; the case keys are the same buttons) with five players,
on a phone, a bigger phone and a landscape phone. The driver's dump lists each line of a button's text that its
own picture is drawn over (covered_texts)."""

from __future__ import annotations

import json

import pytest

from casebook.companion.pictures import symbol_for
from casebook.rules.games import pi
from tests.companion.test_app_gui import run
from tests.companion.test_pi_gui import NAMES, SEED, engine_game

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_p_i_display_keys_show_each_cards_picture_clear_of_its_name(tmp_path, size):
    dump = tmp_path / "display.json"
    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, {"tap": "board_back"},
              {"tap": "mode_evidence"}, {"dump": str(dump)}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=150)
    d = json.loads(dump.read_text())
    state = engine_game()
    names = pi.city(state.db).name
    for card in state.display:  # each card of the display: its key, its picture, its whole name
        assert symbol_for("pi", card) in d["pictures"]["table"], card
        assert d["controls"][f"card_{card}"]["in_window"], card
        assert any(t.startswith(names.get(card, "?")) for t in d["texts"]), card
    assert any(" " in names.get(c, "") for c in state.display)  # a long name of two words is among them
    assert d["covered_texts"] == [], f"pictures over the names: {d['covered_texts']}"
    assert d["split_words"] == [] and d["small_texts"] == [], (d["split_words"], d["small_texts"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hasty_seven_players_each_suspects_bust_clear_of_its_pile_line(tmp_path, size):
    """The bust in a row tile's bottom left corner beside its last line ("0 cards", "LOUPE · 0" where it fits):
    never over it (at 360 px it covered the L of LOUPE)."""
    from tests.companion.test_hasty_fit_gui import ROW, new_game_steps

    dump = tmp_path / "row.json"
    run(tmp_path, [*new_game_steps(), {"dump": str(dump)}, {"quit": True}], size=size, timeout=150)
    d = json.loads(dump.read_text())
    for sid in ROW:
        assert symbol_for("hasty", sid) in d["pictures"]["table"], sid
    for r in d["summary"]["row"]:  # each tile still says how many cards its pile holds (the loupe: its bar)
        assert any(t.startswith(r["name"] + "\n") and "0" in t.split("\n", 1)[1] for t in d["texts"]), r["name"]
    assert d["covered_texts"] == [], f"busts over the words: {d['covered_texts']}"
    assert d["split_words"] == [] and d["small_texts"] == [], (d["split_words"], d["small_texts"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_graves_identity_keys_show_each_identitys_picture(tmp_path, size):
    """The Mastermind's picker and the Detective's unmasking: each identity's button shows its card's picture
    (issue 22: the companion shows the print's picture wherever it names one), clear of its name, all in view."""
    from casebook.rules.cards import load_database
    from tests.companion.test_app_gui import location_steps, new_game_steps

    d = {n: tmp_path / f"{n}.json" for n in ("picker", "unmask")}
    steps = [*new_game_steps(), {"tap": "set_identity"}, {"dump": str(d["picker"])},
             {"tap": "identity_odile_varnier"}, *location_steps(), {"dump": str(d["unmask"])}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=150)
    identities = [c.id for c in load_database("graves").components["identities"].cards]
    for name, kind in (("picker", "identity"), ("unmask", "guess")):
        dump = json.loads(d[name].read_text())
        for iid in identities:
            assert symbol_for("graves", iid) in dump["pictures"]["table"], (name, iid)
            assert dump["controls"][f"{kind}_{iid}"]["in_window"], (name, iid, dump["controls"][f"{kind}_{iid}"])
        assert dump["covered_texts"] == [] and dump["cut_texts"] == [], (name, dump["covered_texts"])
        assert dump["small_controls"] == [] and dump["split_words"] == [], name


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clash_an_active_agents_line_shows_its_picture(tmp_path, size):
    """The referee game with Agents, resumed late in Stage 2: the player's line that names their active agent
    shows that agent card's picture (issue 22), clear of the line's words, nothing cut."""
    from casebook.rules.cards import load_database
    from tests.companion.test_clash_fit_gui import save_agents_game

    save_agents_game(tmp_path)
    dump = tmp_path / "agents.json"
    run(tmp_path, [{"tap_prefix": "resume_"}, {"scroll": ["table.scroll", 1]}, {"dump": str(dump)}, {"quit": True}],
        size=size)
    d = json.loads(dump.read_text())
    agents = {a["name"]: a.id for kind, cards in load_database("clash").components.items() if "agent" in kind
              for a in cards.cards}
    active = [t["agent"]["active"] for t in d["summary"]["tables"].values() if t["agent"]["active"]]
    assert active, "an agent is active in this game"
    for name in active:
        assert any(f"agent {name} active" in t for t in d["texts"]), name
        assert symbol_for("clash", agents[name]) in d["pictures"]["table"], name
    assert d["covered_texts"] == [] and d["cut_texts"] == [], (d["covered_texts"], d["cut_texts"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hasty_secret_suspect_keys_show_each_suspects_bust(tmp_path, size):
    """The new game's page where a player enters their secret suspect, seven players and the Traitor: each suspect's
    button shows its bust left of its name (as the row's keys above it do: each bust is drawn twice), clear of it."""
    from tests.companion.test_hasty_fit_gui import NAMES, ROW

    dump = tmp_path / "picker.json"
    steps: list = [{"tap": "new_game"}, {"tap": "game_hasty"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"tap": "variant_traitor"}, *({"tap": f"pick_row_{s}"} for s in ROW), {"tap": "secret_secret_6"},
              {"dump": str(dump)}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=150)
    d = json.loads(dump.read_text())
    for sid in ROW:
        assert d["pictures"]["table"].count(symbol_for("hasty", sid)) == 2, sid  # its row key's and its secret key's
        assert f"secret_secret_6_{sid}" in d["controls"], sid
    assert d["covered_texts"] == [] and d["cut_texts"] == [], (d["covered_texts"], d["cut_texts"])  # the row's too
    assert d["small_controls"] == [] and d["split_words"] == [], (d["small_controls"], d["split_words"])
