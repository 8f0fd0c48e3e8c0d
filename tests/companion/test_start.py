"""What the start and history screens say, without a window: progress, results, statistics, export."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.companion.history import history
from casebook.companion.progress import Standing, progress_line, standing, statistics_line
from casebook.companion.session import Session
from casebook.companion.share import result_text, write_export
from casebook.companion.store import Store
from casebook.companion.tables.graves.table import NEW_GAME
from casebook.companion.tables.setup import missing
from casebook.rules.cards import load_database
from casebook.rules.games import GAMES
from casebook.rules.log import GameLog, parse_log, replay, start
from casebook.rules.problems import Problems

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"


@pytest.fixture(scope="module")
def syndicate_db():
    return load_database("syndicate")


def referee(name: str, first: int | None = None) -> GameLog:
    log = parse_log((LOGS / name).read_text(), name, Problems())
    assert log is not None
    log.events = log.events[:first]
    return log


def test_a_game_in_progress_says_where_it_stands(graves_db):
    st = standing(graves_db, referee("standard_two_cases.yaml", 10))
    assert st is not None and not st.finished
    assert progress_line(st, 10) == "case 1 of 2 · Ann 0, Ben 0"


def test_a_finished_game_says_who_won_and_by_how_much(graves_db, syndicate_db):
    log = referee("standard_two_cases.yaml")
    st = standing(graves_db, log)
    assert st is not None and st.finished
    result = GAMES["graves"].summary(Session(graves_db, log).state, None)["result"]
    assert st.winner == result["winner"] and st.scores == result["scores"]
    winner = st.winner
    loser = next(p for p in st.players if p != winner)
    assert progress_line(st, len(log.events)) == f"finished: {winner} won {st.scores[winner]}–{st.scores[loser]}"
    three = standing(syndicate_db, referee("syndicate/short_game.yaml"))
    assert three is not None and three.finished and three.winner
    line = progress_line(three, 0)
    assert line.startswith(f"finished: {three.winner} won {three.scores[three.winner]}–")
    assert line.count("–") == 2  # three scores, the winner's first


def test_statistics_count_games_finished_wins_and_draws(graves_db):
    done = standing(graves_db, referee("standard_two_cases.yaml"))
    going = standing(graves_db, referee("standard_two_cases.yaml", 5))
    assert done is not None and going is not None
    line = statistics_line("Detective Graves", [done, going, done, None])
    assert line == f"Detective Graves: 4 played, 2 finished · wins: {done.winner} 2"
    drawn = standing(graves_db, referee("standard_two_cases.yaml"))
    assert drawn is not None
    drawn.winner = None
    assert statistics_line("Detective Graves", [drawn]).endswith("1 finished · 1 draw")


def test_history_groups_events_by_case_and_location_and_shows_no_undone_event(graves_db, tmp_path):
    s = Session.new(graves_db, GameLog("graves", 1, ["Ann", "Ben"], setup=referee("standard_two_cases.yaml").setup),
                    Store(tmp_path))
    for event in referee("standard_two_cases.yaml", 8).events:
        assert s.do(event).ok
    told = [GAMES["graves"].describe(state, event) for state, event in
            ((replay(graves_db, referee("standard_two_cases.yaml", n)).state, e)
             for n, e in enumerate(referee("standard_two_cases.yaml", 8).events))]
    s.undo(2)
    groups = history(s)
    assert groups[0].heading == "Case 1: Ann Detective, Ben Mastermind"
    assert [g.title for g in groups if g.lines and not g.lines[0].undone] == ["The Station", "The Countryside"]
    assert [line.number for g in groups for line in g.lines] == list(range(1, 9))
    assert [line.undone for g in groups for line in g.lines] == [False] * 6 + [True] * 2
    assert [line.text for g in groups for line in g.lines][:6] == told[:6]
    # an undone event is no longer part of the game: the shared screen keeps no word of what it said
    shown = "\n".join(f"{g.heading}\n{g.title}\n" + "\n".join(line.text for line in g.lines) for g in groups)
    for gone in told[6:]:
        assert gone not in shown
    assert [line.text for g in groups for line in g.lines if line.undone] == ["", ""]
    first = referee("standard_two_cases.yaml", 1)
    assert groups[0].lines[0].text == GAMES["graves"].describe(start(graves_db, first), first.events[0])
    assert "7 Notebook" in groups[0].lines[0].text


def test_a_finished_game_exports_its_summary_and_log(graves_db, tmp_path):
    store = Store(tmp_path / "saves")
    log = referee("standard_two_cases.yaml")
    store.save("graves-1", log)
    st = standing(graves_db, log)
    assert st is not None
    text = result_text("Detective Graves", log, progress_line(st, len(log.events)), ["case 2 of 2: ..."],
                       ["1. play Ann 7 Notebook"])
    written = write_export(tmp_path / "exports", "graves-1", text, store.path("graves-1"))
    assert [p.name for p in written] == ["graves-1-result.txt", "graves-1.yaml"]
    summary = written[0].read_text()
    assert summary.startswith("Detective Graves: Ann v Ben\nFinished: ")
    assert "1. play Ann 7 Notebook" in summary
    assert parse_log(written[1].read_text(), "copy", Problems()).events == log.events  # the log, replayable


def test_a_row_dealt_at_the_table_starts_the_game_in_that_order(graves_db, tmp_path):
    pick = NEW_GAME.picks[0]
    row = ["museum", "slums", "park", "river", "alley"]
    assert missing(pick, row[:3]) == "Pick the 5 locations in the order they were dealt (3 of 5 so far)."
    assert missing(pick, row) is None
    setup = {**NEW_GAME.setup(["Ann", "Ben"], ["blue", "green"], []), pick.key: row,
             NEW_GAME.secrets[0].key: "odile_varnier"}
    s = Session.new(graves_db, GameLog("graves", 1, ["Ann", "Ben"], setup=setup), Store(tmp_path))
    assert [loc["id"] for loc in s.summary(None)["locations"]] == row
    assert s.state.case.identity == "odile_varnier"
    mastermind = NEW_GAME.secrets[0].player
    assert s.summary(0)["case"].get("identity") is None  # the Detective's view does not hold it
    assert ["Ann", "Ben"][mastermind] == s.summary(None)["case"]["mastermind"]


def test_an_elimination_game_says_who_is_in_and_who_won_without_points():
    hasty_db = load_database("hasty")
    log = referee("hasty/traitor_wins.yaml")
    whole = standing(hasty_db, log)
    assert whole is not None and whole.finished and whole.winner
    assert progress_line(whole, len(log.events)) == f"finished: {whole.winner} won"
    midway = standing(hasty_db, referee("hasty/traitor_wins.yaml", len(log.events) // 2))
    assert midway is not None and not midway.finished
    line = progress_line(midway, 0)
    state = Session(hasty_db, referee("hasty/traitor_wins.yaml", len(log.events) // 2)).state
    still_in = sum(not o for o in state.out)
    assert line == f"turn {state.turn} · {still_in} of {len(state.players)} in"


def test_clash_says_stage_clock_and_reveals_and_its_history_is_grouped_by_stage(tmp_path):
    clash_db = load_database("clash")
    log = referee("clash/holmes_wins_in_two_stages.yaml")
    whole = standing(clash_db, log)
    assert whole is not None and whole.finished and whole.winner
    assert progress_line(whole, len(log.events)) == f"finished: {whole.winner} won"
    half = referee("clash/holmes_wins_in_two_stages.yaml", len(log.events) // 2)
    state = Session(clash_db, half).state
    assert progress_line(standing(clash_db, half), 0) == \
        f"Stage {state.stage} · {state.hours} of 12 hours · {sum(state.revealed)} of 3 revealed"
    s = Session.new(clash_db, GameLog("clash", log.rules_version, log.players, log.variants, log.seed, log.setup),
                    Store(tmp_path))
    for event in log.events:
        assert s.do(event).ok
    groups = history(s)
    headings = [g.heading for g in groups if g.heading]
    assert [h.split(":")[0] for h in headings] == ["Stage 1", "Stage 2"]
    assert {g.title for g in groups} >= {"The Initial Setup", "Turns", "The Final Turn"}
    assert sum(len(g.lines) for g in groups) == len(log.events)


def test_a_clash_draw_says_a_draw_and_a_hasty_shared_win_stays_a_shared_win():
    clash_db = load_database("clash")
    log = referee("clash/referee/g03_agents_draw_at_twelve.yaml")
    drawn = standing(clash_db, log)
    assert drawn is not None and drawn.finished and drawn.winner is None and drawn.draw
    assert progress_line(drawn, len(log.events)) == "finished: a draw"
    shared = Standing(["Ann", "Ben", "Cy"], {}, True, None, "turn 9", scored=False)  # Hasty: two still in, both win
    assert not shared.draw and progress_line(shared, 0) == "finished: a shared win"


def test_a_tie_on_points_names_the_tie_break_that_decided_it(graves_db):
    """'Jude won 10–10' alone read as a mistake: the line says the tie-break, and 'a draw' only for a draw."""
    log = referee("knows_all_tiebreak.yaml")
    st = standing(graves_db, log)
    assert st is not None and st.finished and st.winner == "Jude"
    assert st.scores["Jude"] == st.scores["Iris"]
    line = progress_line(st, len(log.events))
    assert line.startswith(f"finished: Jude won {st.scores['Jude']}–{st.scores['Iris']} on the tie-break (")
    assert "draw" not in line and "Mastermind" in line
    pi = load_database("pi")
    tied = referee("pi/referee/ref_tie_break.yaml")
    st = standing(pi, tied)
    assert st is not None and st.finished
    result = GAMES["pi"].summary(replay(pi, tied).state, None)["result"]
    line = progress_line(st, len(tied.events))
    assert result["decided_by"] == "investigators"
    assert line == "finished: Ann won 12–12 on the tie-break (more investigators left, 3–2)"
    untied = standing(graves_db, referee("standard_two_cases.yaml"))
    assert untied is not None and "tie-break" not in progress_line(untied, 0)


def test_a_tie_the_tie_breaks_leave_is_a_shared_win_not_a_draw():
    """P.I.: players equal on points, investigators and penalties all win; that is not 'a draw'."""
    st = Standing(["Ann", "Ben", "Cy"], {"Ann": 9, "Ben": 9, "Cy": 4}, True, None, "game 3 of 3",
                  winners=["Ann", "Ben"])
    assert progress_line(st, 0) == "finished: Ann and Ben share the win, 9–9–4"
    drawn = Standing(["Ann", "Ben"], {"Ann": 10, "Ben": 10}, True, None, "case 2 of 2")
    assert progress_line(drawn, 0) == "finished: a draw, 10–10"


def test_statistics_count_a_shared_win_as_a_win_for_each_not_a_draw():
    shared = Standing(["Ann", "Ben"], {"Ann": 9, "Ben": 9}, True, None, "game 3 of 3", winners=["Ann", "Ben"])
    drawn = Standing(["Ann", "Ben"], {"Ann": 10, "Ben": 10}, True, None, "case 2 of 2")
    assert statistics_line("P.I.", [shared, drawn]) == "P.I.: 2 played, 2 finished · wins: Ann 1, Ben 1 · 1 draw"
