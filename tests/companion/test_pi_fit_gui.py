"""P.I. with five players on a phone, a bigger phone and a landscape phone: whose turn it is leads the table (in
portrait the player's row among the five at the head of the state),
the tiles dealt by the app read on the city map (All tiles), the map shows which districts touch (streets) and
which do not (canals), and no district name shrinks under 12 sp: landscape gives the map the whole right column."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from casebook.rules.games import pi
from tests.companion.test_app_gui import SCREENS, run
from tests.companion.test_pi_gui import BAR, NAMES, SEED, engine_game
from tests.rules.test_pi_support import pi_database

pytest.importorskip("kivy")

SIZES = [(360, 640), (411, 731), (640, 360)]
TABLE = Path(__file__).resolve().parents[2] / "companion" / "tables" / "pi" / "table.py"


def board() -> dict[tuple[int, int], str]:
    return {(int(r["cell"][0]), int(r["cell"][1])): r.id for r in pi_database().records["districts"].cards}


def neighbours() -> list[tuple[str, str, bool]]:
    """Each pair of districts in cells side by side or one above the other, and whether they touch (the rules)."""
    c, cells = pi.city(pi_database()), board()
    return [(d, cells[(x + dx, y + dy)], cells[(x + dx, y + dy)] in c.adjacent[d])
            for (x, y), d in cells.items() for dx, dy in ((1, 0), (0, 1)) if (x + dx, y + dy) in cells]


def short(name: str) -> str:
    return name[4:] if name.startswith("The ") else name


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_five_players_the_turn_the_tiles_and_the_canals(tmp_path, size):
    SCREENS.mkdir(exist_ok=True)
    w, h = size
    names = ("board", "dealt", "answer", "evidence", "solve", "again", "closed")
    dumps = {n: tmp_path / f"{n}.json" for n in names}

    def look(name: str) -> list[dict]:
        return [{"dump": str(dumps[name])}, {"shot": str(SCREENS / f"pi5-{w}x{h}-{name}.png")}]

    steps = [{"tap": "new_game"}, {"tap": "game_pi"}, {"tap": "players_more"}, {"tap": "players_more"}]
    steps += [{"text": [f"new.p{n}", name]} for n, name in enumerate(NAMES, start=1)]
    steps += [{"text": ["new.seed", str(SEED)]}, {"tap": "new_start"}, {"tap": "deal_seed"}, *look("board"),
              {"tap": "board_back"}, *look("dealt"), {"tap": "district_little_italy"}, {"tap": "confirm"},
              *look("answer"), {"tap": "mode_evidence"}, *look("evidence"), {"tap": "mode_solve"}, *look("solve"),
              {"tap": "mode_investigate"}, {"tap": "board"}, *look("again"), {"key": 27},
              {"dump": str(dumps["closed"])}, {"quit": True}]
    run(tmp_path, steps, size=size, timeout=150)
    data = {n: json.loads(p.read_text()) for n, p in dumps.items()}
    for name, d in data.items():
        assert d["small_controls"] == [], f"{name}: controls under 48 dp: {d['small_controls']}"
        assert d["split_words"] == [], f"{name}: words split or shrunk past their room: {d['split_words']}"
        assert d["small_texts"] == [], f"{name}: texts under 12 sp: {d['small_texts']}"

    # the tiles the app dealt, each district's on its cell of the map, over the whole window
    state = engine_game()
    c = pi.city(state.db)
    for name in ("board", "again"):
        shown = data[name]["texts"]
        for d, (suspect, crime) in state.tiles.items():
            cell = f"{short(c.name[d])}\n{c.name[suspect] if suspect else 'no suspect'}\n" \
                   f"{c.name[crime] if crime else 'no crime'}"
            assert cell in shown, f"{name}: {c.name[d]}'s tiles are not on its cell"
    # whose turn it is: on the window, larger than anything else (the turn's own line is the tallest text; in
    # portrait the player's own row, at the head of the five, in bold, underlined, larger than the other rows)
    for name, who in (("dealt", "Ann"), ("answer", "Ben"), ("evidence", "Ben"), ("solve", "Ben")):
        d = data[name]
        assert d["summary"]["current"] == who
        if w > h:
            turn = d["controls"]["turn"]
            assert turn["in_window"] and f"{who}'s turn" in d["texts"], name
        else:
            turn = d["controls"][f"player_{NAMES.index(who)}"]
            assert turn["in_window"] and turn["lines"][0].startswith(f"{who}'s turn"), name
        keys = [*BAR, *(f"mode_{m}" for m in ("investigate", "evidence", "solve"))]
        assert [k for k in keys if not d["controls"][k]["in_window"]] == [], name
        # every player's hold to see, Eve's too, in reach without scrolling (once below a ~125 px scrolling panel)
        holds = [f"secret_{n}" for n in range(5)]
        assert [k for k in holds if not d["controls"].get(k, {}).get("in_window")] == [], f"{name}: holds scrolled away"
    # the map: every district on the window, at least 60 dp wide (a name at 12 sp fits); a street between two
    # districts that touch, a canal between neighbours that do not, each in the gap between their two cells
    for name in ("dealt", "answer"):
        controls = data[name]["controls"]
        for d in c.districts:
            cell = controls[f"district_{d}"]
            assert cell["in_window"] and cell["rect"][2] >= 60, f"{name}: {d} {cell['rect']}"
        for a, b, touch in neighbours():
            link = controls.get(f"{'street' if touch else 'canal'}_{a}_{b}")
            assert link is not None, f"{name}: nothing shows whether {a} and {b} touch"
            assert f"{'canal' if touch else 'street'}_{a}_{b}" not in controls
            ax, ay, aw, ah = controls[f"district_{a}"]["rect"]
            bx, by, _bw, _bh = controls[f"district_{b}"]["rect"]
            lx, ly, lw, lh = link["rect"]
            if bx > ax:  # side by side
                assert ax + aw - 0.5 <= lx and lx + lw <= bx + 0.5 and ay <= ly and ly + lh <= ay + ah + 0.5
            else:
                assert by + ah - 0.5 <= ly and ly + lh <= ay + 0.5 and ax <= lx and lx + lw <= ax + aw + 0.5
    if w > h:  # landscape: the map has the right column to itself, the turn and the modes lead the left one
        controls = data["answer"]["controls"]
        right = [controls[f"district_{d}"]["rect"] for d in c.districts]
        assert min(r[0] for r in right) > w * 0.4 and max(r[0] + r[2] for r in right) > w - 20
        assert controls["mode_investigate"]["rect"][0] < w * 0.4 and controls["turn"]["rect"][0] < w * 0.4
    closed = data["closed"]  # Back closes All tiles, and only it
    assert closed["screen"] == "table" and "board_back" not in closed["controls"] and "board" in closed["controls"]


def test_no_text_on_the_pi_table_is_set_under_12_sp():
    """Every font size the table sets is 12 sp or more (the map's cells shrink to fit, never under it)."""
    sizes = [int(n) for n in re.findall(r"\bsp\((\d+)\)", TABLE.read_text())]
    assert sizes and min(sizes) >= 12, sorted(sizes)
    assert "MIN_FONT = 12" in TABLE.read_text()
