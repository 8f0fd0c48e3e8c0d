"""Detective Graves, a whole game of two cases, played in a real window as a new table would (tools/play_window.py:
real clicks on an X screen, screenshots of it). Ann and Ben, the row and hands dealt from seed 2026 (the same game
the GUI tests script): in each case the Mastermind enters her identity, at each location the lead plays a 9 and
the other a 5 of one suit, both pass; at The Bank Vault both first reveal their deck's top card (Ben's deck is
empty); the Detective notes evidence won, holds the deduction, unmasks.

Screenshots: tests/_screens/<tag>-<nnn>-<what>.png (default tag window-graves2-<w>x<h>), `<tag>-seen.json` beside.
Run: .venv/bin/python tools/play_graves2.py [WIDTHxHEIGHT [TAG]]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.play_window import Window, new_game  # noqa: E402

SEED = "2026"
SUITS = ("magnifying_glass", "shoeprints", "question_mark", "notebook", "briefcase")
BANK_VAULT = 2  # in the row seed 2026 deals, The Bank Vault is the third location


def case(w: Window, number: int, identity: str, guess: str) -> None:
    """One case: the Mastermind's identity, five locations, evidence noted, the unmasking. The Mastermind's hold
    is there from her identity on (the Detective's only once evidence is noted: nothing to see before)."""
    holds = [f"secret_{1 if number == 1 else 0}"]
    w.tap("set_identity", scroll=True)
    w.shot(f"case{number}-identity-list")
    w.tap(f"identity_{identity}", scroll=True)
    w.shot(f"case{number}-start", holds=holds)
    for n, suit in enumerate(SUITS):
        if n == BANK_VAULT:
            for tap in ("rank_2", "suit_notebook", "reveal_top"):
                w.tap(tap)
            w.shot(f"case{number}-bank-vault-revealed")
            w.tap("deck_empty")
        w.tap("rank_9")
        w.tap(f"suit_{suit}")
        if n == 0:
            w.shot(f"case{number}-card-chosen")
        w.tap("play")
        w.tap("rank_5")
        w.tap(f"suit_{suit}")
        w.tap("play")
        w.shot(f"case{number}-loc{n + 1}-played", holds=holds)
        w.tap("pass")
        w.tap("pass")
        w.shot(f"case{number}-loc{n + 1}-done", holds=holds)
    for evidence in ("evidence_01", "evidence_10"):
        w.tap("note_evidence", scroll=True)
        w.tap(f"evidence_{evidence}", scroll=True)
    detective = 0 if number == 1 else 1
    w.hold(f"secret_{detective}", 0.8, shot=f"case{number}-deduction-held")
    w.shot(f"case{number}-unmasking")
    w.tap(f"guess_{guess}", scroll=True)
    w.shot(f"case{number}-guess-asked")
    w.tap("guess_yes", scroll=True)
    w.shot(f"case{number}-unmasked")


def main() -> None:
    size = tuple(int(v) for v in sys.argv[1].split("x")) if len(sys.argv) > 1 else (360, 640)
    tag = sys.argv[2] if len(sys.argv) > 2 else f"window-graves2-{size[0]}x{size[1]}"
    with Window(tag, (size[0], size[1])) as w:
        w.shot("start")
        new_game(w, "graves", ["Ann", "Ben"], adds=0)
        w.tap("deal_seed", scroll=True)
        w.type_into("new_seed", SEED)
        w.shot("form")
        w.tap("new_start", scroll=True)
        w.shot("table")
        case(w, 1, "odile_varnier", "ezra_hollowmere")
        case(w, 2, "josiah_tumbrel", "josiah_tumbrel")
        w.tap("history")
        w.shot("history")
        w.back()
        w.tap("table_home")
        w.shot("home")
        print(f"played two cases; screenshots tests/_screens/{tag}-*.png")


if __name__ == "__main__":
    main()
