"""Seven players of Hasty Accusations with the Traitor, played to the end in a real window as a new table would.

Every tap is a real click on an X screen (tools/play_window.py). The moves are planned on the rules engine so that
the game ends: each card goes on the pile of the next player's suspect to die (face up when that suspect has the
loupe: a Wrong Turning once, which asks where the loupe goes, then Fresh Leads); each review reveals a Bitter
Almonds (one of two: nobody dies) and then a Letter Opener (a murder), until Ben, the Traitor, wins.
Each player holds their own button when the phone comes round at the start, and again once mid-game.

A screenshot after each turn and each card revealed: tests/_screens/window-hasty7-<w>x<h>-<nnn>-<what>.png, with
`...-seen.json` beside them (what the app's dump found on each). Look at them with an image viewer.

Run (about 20-40 minutes on a busy machine): .venv/bin/python tools/play_hasty7.py [WIDTHxHEIGHT [TAG]] [--few]
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.games import hasty  # noqa: E402
from tools.play_window import Window, new_game  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow", "ottoline_vesey",
       "barnaby_crewe", "imelda_thorne", "rufus_galloway", "perpetua_dawes", "felix_ambrose"]  # 9, +2 for the Traitor
SECRETS = {"Ann": "hattie_quill", "Ben": "traitor", "Cat": "dorian_fitch", "Dan": "imelda_thorne",
           "Eve": "silas_penhallow", "Fay": "perpetua_dawes", "Gus": "rufus_galloway"}


def holds(w: Window) -> list[str]:
    """The hold-to-see buttons of the players still in (a player who is out has none)."""
    out = (w.last["summary"] or {}).get("out", [])
    return [f"secret_{i}" for i, name in enumerate(NAMES) if name not in out]


def plan() -> list[tuple[str, list[str]]]:
    """The game as turns: (what the screenshot after it is called, the taps of that turn or reveal)."""
    db = load_database("hasty")
    state = hasty.new_state(db, {"players": NAMES, "variants": ["traitor"], "sets": ["base"], "row": ROW,
                                 "secrets": SECRETS})
    victims = [SECRETS[p] for p in NAMES if SECRETS[p] != "traitor"]
    turns: list[tuple[str, list[str]]] = []
    turned = False  # the Wrong Turning played once

    def legal(event: dict) -> bool:
        return hasty.check(copy.deepcopy(state), event) is None

    while not hasty.is_over(state):
        who = state.players[state.active]
        if state.phase == "reveal":
            assert state.review is not None
            first = "bitter_almonds" if not state.review.revealed and state.review.pos > 0 else "letter_opener"
            card = next(c for c in (first, "letter_opener", "bitter_almonds", "fresh_lead")
                        if legal({"action": "reveal", "by": who, "card": c}))
            event = {"action": "reveal", "by": who, "card": card}
            turns.append((f"{who}-reveals-{card}", [f"reveal_{card}"]))
        elif state.phase == "pick":
            event = {"action": "pick", "by": who, "pile": state.tied[0]}
            turns.append((f"{who}-picks", [f"suspect_{state.tied[0]}"]))
        else:
            target = next(v for v in victims if v in state.row)
            event = {"action": "play", "by": who, "at": target}
            at_loupe = state.row.index(target) == state.loupe
            if at_loupe and not turned and legal({**event, "card": "wrong_turning", "target": target}):
                event.update(card="wrong_turning", target=target)  # the loupe goes where the player chooses
                taps = [f"suspect_{target}", "card_wrong_turning", f"suspect_{target}"]
                turned = True
            elif at_loupe:
                event["card"] = "fresh_lead"
                taps = [f"suspect_{target}", "card_fresh_lead"]
            else:
                taps = [f"suspect_{target}", "face_down"]
            turns.append((f"{who}-plays-{event.get('card', 'face-down')}", taps))
        hasty.apply(state, event)
        assert len(turns) < 400, "the planned game does not end"
    assert state.winners == [NAMES.index("Ben")], state.winners  # the Traitor wins: every other player is out
    return turns


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--few"]
    few = "--few" in sys.argv  # a screenshot per review, per review's card and the first turns, not every turn
    size = tuple(int(v) for v in args[0].split("x")) if args else (360, 640)
    tag = args[1] if len(args) > 1 else f"window-hasty7-{size[0]}x{size[1]}"
    turns = plan()
    with Window(tag, (size[0], size[1])) as w:
        w.shot("start")
        new_game(w, "hasty", NAMES, adds=2)
        w.shot("names")
        w.tap("variant_traitor", scroll=True)
        w.shot("traitor")
        for s in ROW:  # the row as it was laid out on the table
            w.tap(f"pick_row_{s}", scroll=True)
        w.shot("row")
        for i, name in enumerate(NAMES):  # the phone goes round: each enters their own, unseen
            w.tap(f"secret_secret_{i}", scroll=True)
            if i in (0, 6):
                w.shot(f"secret-entry-{name}")
            w.tap(f"secret_secret_{i}_{SECRETS[name]}", scroll=True)
            if i in (0, 6):
                w.shot(f"secret-entered-{name}")
        w.tap("new_start")
        if (w.last["summary"] or {}).get("players") != NAMES:
            sys.exit(f"play: the names typed came out as {(w.last['summary'] or {}).get('players')}")
        w.shot("table", holds=holds(w))
        names = {c.id: c["name"] for c in load_database("hasty").components["suspects"].cards}
        for i, name in enumerate(NAMES):  # the phone goes round: each holds their own button
            held = w.hold(f"secret_{i}", 0.8, shot=f"held-{name}")
            if not any(f"{name} only" in t for t in held["texts"]):
                w.warnings.append(f"{name}'s press on their hold showed nothing")
            secret = SECRETS[name]
            want = "You are the Traitor" if secret == "traitor" else f"Your secret suspect: {names[secret]}"
            if not any(want in t for t in held["texts"]):
                w.warnings.append(f"{name}'s hold does not say {want!r}: the secret entered is not the one tapped for")
            w.shot(f"after-hold-{name}")
        reviews = 0
        for n, (what, taps) in enumerate(turns):
            for k, tap in enumerate(taps):
                w.tap(tap)
                if k == 0 and len(taps) > 1 and n < 14:  # the suspect chosen: what the pad asks next
                    w.shot(f"{what}-picked")
                if tap == "card_wrong_turning":
                    w.shot(f"{what}-choice")
            if taps[0].startswith("reveal_"):
                reviews += 1
            review = (w.last["summary"] or {}).get("phase") == "reveal"
            if not few or n < 8 or review or taps[0].startswith("reveal_") or n % 15 == 0:
                w.shot(f"{n:03d}-{what}", holds=holds(w))
            if n == len(turns) // 2:  # mid-game: the phone goes round again for a look, among those still in
                for hold in holds(w):
                    name = NAMES[int(hold.split("_")[1])]
                    w.hold(hold, 0.8, shot=f"midgame-held-{name}" if name in ("Ben", "Gus") else None)
        summary = w.last["summary"] or {}
        if summary.get("phase") != "over" or (summary.get("result") or {}).get("winners") != ["Ben"]:
            w.warnings.append(f"the game is not over with Ben the winner at the end of the plan: "
                              f"{summary.get('phase')}, winners {(summary.get('result') or {}).get('winners')}")
        w.shot("over")
        w.tap("history")
        w.shot("history")
        w.back()
        w.shot("back-from-history")
        w.tap("table_rules")
        w.shot("rules")
        w.back()
        w.tap("table_home")
        w.shot("home")
        print(f"played {len(turns)} turns and reviews to the end ({reviews} reveals); "
              f"screenshots tests/_screens/{tag}-*.png")


if __name__ == "__main__":
    main()
