"""History text: each game tells its events by name, never by id, with what followed from them
(trump changes, location results, who scored, the end of a case and of the game), and keeps secrets."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from casebook.rules.cards import load_database
from casebook.rules.games import GAMES
from casebook.rules.games import graves as g
from casebook.rules.games import syndicate as sy
from casebook.rules.log import parse_log, replay, start
from casebook.rules.problems import Problems
from tests.rules.test_pi_support import pi_database

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
ROW = ["station", "library", "palace_grounds", "record_office", "park"]


def graves_game(db, locations=ROW, **setup):
    return g.new_state(db, {"players": ["Ann", "Ben"], "detective": "Ann", "locations": locations,
                            "identity": "josiah_tumbrel", **setup})


def told(game, state, *events):
    """Each event's history line, applying it after it is told (as the history screen does)."""
    lines = []
    for event in events:
        lines.append(game.describe(state, event))
        game.apply(state, event)
    return lines


def history(db, name):
    problems = Problems()
    log = parse_log((LOGS / name).read_text(), name, problems)
    assert log is not None, problems.format()
    game = g if log.game == "graves" else sy
    return told(game, start(db, log), *log.events)


def play(by, *cards, **extra):
    return {"action": "play", "by": by, "cards": list(cards), **extra}


# --- Graves ---------------------------------------------------------------------------------------

def test_two_passes_in_a_row_finish_the_location_and_a_tie_discards_the_evidence(graves_db):
    """Rulebook: 'If the Lead Player passes and then the Second Player passes straight afterwards then the
    Location is finished'; 'If the result is a draw then the Evidence is discarded'."""
    lines = told(g, graves_game(graves_db), {"action": "pass", "by": "Ann"}, {"action": "pass", "by": "Ben"})
    assert lines == ["Ann passed at The Station",
                     "Ben passed at The Station; The Station is a tie, 0–0: its evidence is discarded unseen"]


def test_a_location_won_names_winner_location_and_totals(graves_db):
    """The Park: trumps (Shoeprints) double; one card discarded for each non-trump card of value 6+."""
    s = graves_game(graves_db, locations=["park", *ROW[:4]])
    lines = told(g, s, play("Ann", "7 shoeprints", "5 shoeprints"),
                 play("Ben", "9 notebook", "8 notebook", discards=2),
                 {"action": "pass", "by": "Ann"}, {"action": "pass", "by": "Ben"})
    assert lines == ["Ann played 7 Shoeprints and 5 Shoeprints at The Park",
                     "Ben played 9 Notebook and 8 Notebook at The Park, discarding 2 from hand first",
                     "Ann passed at The Park",
                     "Ben passed at The Park; Ann wins The Park 24–17, takes the evidence"]


def test_trump_changes_and_ability_only_turns_are_told(graves_db):
    s = graves_game(graves_db)  # The Station: trump Notebooks
    plus = next(c for c in graves_db.components["detective"].cards
                if c.get("ability") and c["ability"]["effect"] == {"kind": "time", "delta": 1})
    lines = told(g, s, play("Ann", "2 briefcase", change_trump="briefcase"),
                 {"action": "ability", "by": "Ben", "card": "4 shoeprints"}, play("Ben"),
                 {"action": "ability", "by": "Ann", "card": f"{plus['rank']} {plus['suit']}"}, play("Ann"))
    assert lines == [
        "Ann played 2 Briefcase at The Station; trump is now Briefcases",
        "Ben discarded 4 Shoeprints for its ability: one card may break the one-suit rule this turn",
        "Ben ended the turn having used only abilities at The Station",
        f"Ann discarded {plus['rank']} {graves_db.suits[plus['suit']].name} for its ability: "
        "one time token more at The Station (5 left)",
        "Ann ended the turn having used only abilities at The Station",
    ]


def test_bank_vault_reveals_and_an_empty_deck(graves_db):
    s = graves_game(graves_db, locations=["bank_vault", *ROW[:4]])
    lines = told(g, s, {"action": "reveal_top", "by": "Ann", "card": "5 magnifying_glass"},
                 {"action": "reveal_top", "by": "Ben", "empty": True})
    assert lines == ["Ann revealed 5 Magnifying Glass from the top of the deck into the pile at The Bank Vault",
                     "Ben's deck is empty: nothing revealed at The Bank Vault"]


def test_a_whole_game_guesses_case_scores_and_the_winner_by_name(graves_db):
    lines = history(graves_db, "locations_special.yaml")
    assert lines[47] == ("Ann guessed Thaddeus Wrenlow, the Night Physician: right, Ann scores 3. "
                         "Case 1: Ann 7, Ben 6. Case 2: Ben is the Detective")
    assert lines[96] == "Ann took the Mastermind's identity card (kept hidden)"
    assert lines[97] == ("Ben guessed Ezra Hollowmere, the Spinner: right, Ben scores 3. Case 2: Ann 4, Ben 9. "
                         "Game over: Ben wins with the higher total, 15 to 11")
    assert lines[46].endswith("Ann wins The Bank Vault 70–62, takes the evidence. The unmasking: evidence Ann 2, Ben 3")
    assert lines[16] == "Ben discarded 4 Notebook for its ability: 6 Shoeprints is discarded from Ann's pile"
    assert lines[26] == ("Ann changed the time: one token more at The Slums (5) and one token fewer at "
                         "The Bank Vault (4)")


def test_a_wrong_guess_an_early_reveal_a_tie_break_and_a_draw(graves_db):
    lines = history(graves_db, "standard_two_cases.yaml")
    wrong = next(line for line in lines if "guessed" in line)
    assert wrong.startswith("Ann guessed Josiah Tumbrel, the Turnkey: wrong, it was Livia Marchbank, the Countess "
                            "of Whispers; Ben scores 1. Case 1: Ann 6, Ben 3")
    assert lines[-1] == ("Ann revealed early as Odile Varnier, the Hundred Faces: Ben scores 2. Case 2: Ann 2, Ben 8. "
                         "Game over: Ben wins with the higher total, 11 to 8")
    assert history(graves_db, "knows_all_tiebreak.yaml")[-1].endswith(
        "Game over: Jude wins the tie at 10, having unmasked the Mastermind as the Detective once, Iris never")
    assert history(graves_db, "draw.yaml")[-1].endswith(
        "Game over: a draw at 13, both having unmasked the Mastermind as the Detective")


def test_the_identity_stays_hidden_until_shown_and_noted_evidence_stays_private(graves_db):
    s = g.new_state(graves_db, {"players": ["Ann", "Ben"], "detective": "Ann", "locations": ROW})
    line = g.describe(s, {"action": "identity", "by": "Ben", "identity": "odile_varnier"})
    assert "Odile" not in line and "odile" not in line and "hidden" in line
    for i, _ in enumerate(ROW):
        told(g, s, play("Ann", f"{9 - i} shoeprints"), {"action": "pass", "by": "Ben"},
             {"action": "pass", "by": "Ann"})
    note = g.describe(s, {"action": "note_evidence", "by": "Ann", "evidence": "evidence_03"})
    assert "evidence_03" not in note and "private" in note
    lines = told(g, s, {"action": "guess", "by": "Ann", "identity": "odile_varnier"},
                 {"action": "identity", "by": "Ben", "identity": "odile_varnier"})
    assert lines == ["Ann guessed Odile Varnier, the Hundred Faces; the Mastermind is still to show the identity card",
                     "Ben showed the identity card: Odile Varnier, the Hundred Faces: right, Ann scores 3. "
                     "Case 1: Ann 13, Ben 0. Case 2: Ben is the Detective"]


def test_a_refused_event_is_told_as_written_and_its_reason_has_no_log_format(graves_db):
    s = graves_game(graves_db, locations=["park", *ROW[:4]])
    event = play("Ann", "9 briefcase", "8 briefcase")
    assert g.describe(s, event) == "Ann plays 9 Briefcase and 8 Briefcase at The Park"
    reason = g.check(s, event)
    assert reason == ("The Park: one card is discarded from hand for each non-trump card of value 6 or more played "
                      "here: this play needs 2, not 0")


# --- The Syndicate ----------------------------------------------------------------------------------

def test_syndicate_rulebook_examples(syndicate_db):
    """The rulebook's mark-lead example (10 against 9, a success worth 1 with a face-down card) and its
    Ace-lead example (the enforcers' 4 and 3 beat the Ace's 1: foiled)."""
    state = sy.new_state(syndicate_db, {"players": ["Ann", "Ben", "Cat"]})
    lines = told(sy, state,
                 {"action": "plot", "by": "Ann", "lead": "8 Diplomat", "face_down": "2 Author",
                  "enforcers": {"Ben": "9 Merchant", "Cat": "7 Castle"}},
                 {"action": "plot", "by": "Ben", "lead": "A moons", "enforcers": {"Cat": "4 moons", "Ann": "3 moons"}})
    assert lines == [
        "Plot 1: Ann leads 8 Diplomat with 2 Author face down; Ben 9 Merchant, Cat 7 Castle: 10 to 9, succeeds, "
        "Ann scores 1",
        "Plot 2: Ben leads Ace of Moons; Cat 4 Mountain, Ann 3 Journey: 1 to 7 (the Ace counts 1), foiled, "
        "Cat and Ann score 1",
    ]


def test_syndicate_ties_reshuffles_and_the_winner(syndicate_db):
    lines = history(syndicate_db, "syndicate/two_reshuffles.yaml")
    assert lines[6] == ("Plot 7: Max leads Crown Windfall with 9 Merchant face down; Nia Crown Calamity, "
                        "Oto Ace of Knots: 10 to 10, a tie, nobody scores")
    assert lines[7].endswith("(Nia's draw emptied the draw pile: the discards became a new one)")
    assert lines[-1].endswith("Game over: Nia wins with 12, the highest score alone at 12 or more (Max 7, Oto 7)")


def test_a_refused_plot_is_told_as_written(syndicate_db):
    state = sy.new_state(syndicate_db, {"players": ["Ann", "Ben", "Cat"]})
    event = {"action": "plot", "by": "Ann", "lead": "8 Diplomat", "enforcers": {"Ben": "8 Diplomat", "Cat": "Cave"}}
    assert sy.describe(state, event) == "Plot 1: Ann leads 8 Diplomat; Ben 8 Diplomat, Cat 7 Cave"


# --- every referee log -----------------------------------------------------------------------------

ALL_LOGS = sorted(p.relative_to(LOGS).as_posix() for p in LOGS.rglob("*.yaml")
                  if p.name != "expected.yaml" and not p.name.endswith(".expected.yaml"))


@pytest.mark.parametrize("name", ALL_LOGS)
def test_no_id_and_no_doubled_phrase_in_any_history_line(graves_db, syndicate_db, name):
    problems = Problems()
    log = parse_log((LOGS / name).read_text(), name, problems)
    assert log is not None
    db = {"graves": graves_db, "syndicate": syndicate_db}.get(log.game) or \
        (pi_database() if log.game == "pi" else load_database(log.game))
    game = GAMES[log.game]
    result = replay(db, log)
    state = start(db, log)
    for number, event in enumerate(log.events[:result.applied + (result.error is not None)], start=1):
        line = game.describe(state, event)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), f"event {number}: an id in {line!r}"
        pieces = re.split(r"[;:.,] ", line)
        assert all(pieces.count(p) == 1 for p in pieces), f"event {number}: a doubled phrase in {line!r}"
        if number <= result.applied:
            game.apply(state, event)


@pytest.mark.parametrize("module", [g, sy], ids=["graves", "syndicate"])
def test_every_rule_a_refusal_names_is_an_entry_of_the_games_rules(graves_db, syndicate_db, module):
    """A refusal's rule id leads to the rule or FAQ ruling in the game's rules.yaml (the app opens it)."""
    db = graves_db if module is g else syndicate_db
    source = Path(module.__file__).read_text()
    ids = set(re.findall(r'Rule\("[^"]*", "([a-z0-9_]+)"\)', source))
    if module is g:
        ids |= {f"location_{c.id}" for c in db.components["locations"].cards}
    entries = {r.id for r in db.rules} | {f.id for f in db.faq}
    assert len(ids) > 5 and ids <= entries, sorted(ids - entries)


def test_every_game_takes_the_state_before_and_after():
    """The engine contract (rules/engine.py): describe(before, event, after=None), as the companion calls it."""
    for game_id, module in GAMES.items():
        params = list(inspect.signature(module.describe).parameters.values())
        assert len(params) == 3 and params[2].default is None, f"{game_id}: describe{inspect.signature(module.describe)}"
