"""Seven players of Hasty Accusations with the Traitor, played to the end in a real 360x640 window.

Every tap is a real click (tools/play_window.py); the moves are planned on the rules engine so that the game
ends (each card on the next victim's pile, face up at the loupe; reviews revealed card by card). Each player
holds their own button once (as they would when the phone comes round); screenshots go to
tests/_screens/window-hasty7-*.png. Run: .venv/bin/python tools/play_hasty7.py [WIDTHxHEIGHT]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import hasty  # noqa: E402
from tools.play_window import Window  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow",
       "ottoline_vesey", "barnaby_crewe", "imelda_thorne", "rufus_galloway"]
SECRETS = {"Ann": "hattie_quill", "Ben": "traitor", "Cat": "dorian_fitch", "Dan": "imelda_thorne",
           "Eve": "silas_penhallow", "Fay": "ottoline_vesey", "Gus": "barnaby_crewe"}


def plan() -> list[str]:
    """The taps of a whole game, worked out on the engine (as tests/companion/test_hasty_gui.py plans five)."""
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
            if state.row.index(target) == state.loupe:
                event["card"] = "fresh_lead"
                taps += [f"suspect_{target}", "card_fresh_lead"]
            else:
                taps += [f"suspect_{target}", "face_down"]
        hasty.apply(state, event)
        assert len(taps) < 600
    assert state.winners == [NAMES.index("Ben")]
    return taps


def main() -> None:
    size = tuple(int(v) for v in sys.argv[1].split("x")) if len(sys.argv) > 1 else (360, 640)
    tag = f"window-hasty7-{size[0]}x{size[1]}"
    taps = plan()
    w = Window(size)
    try:
        w.shot(f"{tag}-01-start.png")
        w.tap("new_game")
        w.tap("game_hasty")
        w.tap("players_more", scroll=True)
        w.tap("players_more", scroll=True)
        for n, name in enumerate(NAMES, start=1):
            w.type_into(f"name_p{n}", name)
        w.tap("variant_traitor", scroll=True)
        for s in ROW:
            w.tap(f"pick_row_{s}", scroll=True)
        for i, name in enumerate(NAMES):  # the phone goes round: each enters their own, unseen
            w.tap(f"secret_secret_{i}", scroll=True)
            if i == 6:
                w.shot(f"{tag}-02-secret-entry.png")
            w.tap(f"secret_secret_{i}_{SECRETS[name]}", scroll=True)
        w.shot(f"{tag}-03-form.png")
        w.tap("new_start")
        w.shot(f"{tag}-04-table.png")
        for i in range(len(NAMES)):  # every player's hold on the window, held by its owner
            w.hold(f"secret_{i}", 0.6, shot=f"{tag}-05-held-{NAMES[i]}.png" if i in (1, 6) else None)
        reviews = 0
        for n, tap in enumerate(taps):
            w.tap(tap)
            if n in (0, 1):
                w.shot(f"{tag}-06-turn-{n}.png")
            if tap.startswith("reveal_"):
                reviews += 1
                if reviews in (1, 3):
                    w.shot(f"{tag}-07-review-{reviews}.png")
            if n == len(taps) // 2:
                w.shot(f"{tag}-08-midgame.png")
                for i in range(len(NAMES)):  # late in the game every hold is still on the window
                    w.where(f"secret_{i}")
        w.shot(f"{tag}-09-over.png")
        w.tap("history")
        w.shot(f"{tag}-10-history.png")
        w.back()
        w.tap("table_rules")
        w.shot(f"{tag}-11-rules.png")
        print(f"played {len(taps)} taps to the end; screenshots tests/_screens/{tag}-*.png")
    finally:
        w.close()


if __name__ == "__main__":
    main()
