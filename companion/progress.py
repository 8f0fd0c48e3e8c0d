"""What the start screen says about saved games: each game's progress or result, and per-game statistics.

Plain Python (no Kivy): it replays a saved log through the rules core once, and keeps what it found
(StandingCache, beside the saves) so that the next start lists the saved games without any engine.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.rules.engine import IllegalAction, and_list
from casebook.rules.log import GameLog

if TYPE_CHECKING:
    from casebook.rules.cards import GameDatabase


@dataclass
class Standing:
    """Where a saved game stands: its scores, and once finished the winner (None for a draw)."""

    players: list[str]
    scores: dict[str, int]
    finished: bool
    winner: str | None = None
    step: str = ""  # "case 2 of 2", "turn 7"
    scored: bool = True  # False for a game without points (Hasty: who is still in is the step)
    draw: bool = False  # the result says a draw (Clash), not a win shared by all (Hasty)
    extra: dict[str, Any] = field(default_factory=dict)
    tie_break: str = ""  # what decided a tie on points: 'more Masterminds unmasked as the Detective, 1–0'
    winners: list[str] = field(default_factory=list)  # a tie the tie-breaks leave (P.I.): all of them win


# what each engine's result.decided_by names when players tie on points: (the phrase, the summary's per-player
# counts or the result's, more is better); a tie-break not listed here is told by the engine's own `why`
TIE_BREAKS: dict[str, tuple[str, str, bool]] = {
    "tie-break": ("more Masterminds unmasked as the Detective", "correct_deductions", True),  # graves
    "investigators": ("more investigators left", "investigators_left", True),  # pi
    "penalties": ("fewer penalties", "penalties", False),  # pi
}


def tie_break_text(summary: dict[str, Any], result: dict[str, Any]) -> str:
    """What decided a tie on points, with each tied player's count, winner first; '' if the points decided."""
    scores, winner = result.get("scores") or {}, result.get("winner")
    if winner is None or winner not in scores:
        return ""
    tied = [p for p, v in scores.items() if v == scores[winner] and p != winner]
    if not tied:
        return ""
    phrase, key, _ = TIE_BREAKS.get(str(result.get("decided_by")), ("", "", True))
    counts = result.get(key) or summary.get(key) if key else None
    if not phrase or not isinstance(counts, dict) or winner not in counts:
        return str(result.get("why") or "")
    return f"{phrase}, " + "–".join(str(counts.get(p, 0)) for p in [winner, *tied])


def standing(db: GameDatabase, log: GameLog) -> Standing | None:
    """The standing a log leads to, or None if its header no longer starts a game."""
    from casebook.rules.log import replay

    try:
        state = replay(db, log).state
    except IllegalAction:
        return None
    return standing_of(state, log)


def standing_of(state: Any, log: GameLog) -> Standing:
    """The standing of a game whose state is at hand (the table's, after each event): nothing replayed."""
    from casebook.rules.games import GAMES

    s = GAMES[log.game].summary(state, None)
    result = s.get("result") or {}
    scores = {p: int(v) for p, v in (result.get("scores") or s.get("scores") or {}).items()}
    finished = bool(result.get("over"))
    step = s.get("step") or f"turn {s.get('turn', len(log.events) + 1)}"  # each engine says where a game stands
    draw = "draw" in (result.get("decided_by"), result.get("side"))
    winners = [str(w) for w in result.get("winners") or []]
    return Standing(list(s["players"]), scores, finished, result.get("winner"), step, bool(s.get("scored", True)),
                    draw=draw, tie_break=tie_break_text(s, result) if finished else "",
                    winners=winners if len(winners) > 1 else [])


def score_text(st: Standing) -> str:
    """'9–6' for two players, '12–8–5' for three: the winner's (or first player's) score first."""
    order = sorted(st.players, key=lambda p: (p != st.winner, -st.scores.get(p, 0))) if st.finished \
        else st.players
    return "–".join(str(st.scores.get(p, 0)) for p in order)


def progress_line(st: Standing | None, events: int) -> str:
    """'case 2 of 2 · Ann 5, Ben 3' while playing; 'finished: Ann won 9–6' at the end, and for a tie on points
    what broke it: 'finished: Ben won 10–10 on the tie-break (more Masterminds unmasked as the Detective, 1–0)'."""
    if st is None:
        return f"{events} events (no longer replays)"
    if st.finished:
        if st.winner is None:
            if st.winners:  # tied on points and on every tie-break: they share the win (P.I.), or all still in (Hasty)
                return f"finished: {and_list(st.winners)} share the win" + (f", {score_text(st)}" if st.scored
                                                                                 else "")
            if st.scored:
                return f"finished: a draw, {score_text(st)}"
            return "finished: a draw" if st.draw else "finished: a shared win"
        if not st.scored:
            return f"finished: {st.winner} won"
        line = f"finished: {st.winner} won {score_text(st)}"
        return f"{line} on the tie-break ({st.tie_break})" if st.tie_break else line
    if not st.scored:
        return st.step
    return f"{st.step} · " + ", ".join(f"{p} {st.scores.get(p, 0)}" for p in st.players)


def statistics_line(title: str, standings: list[Standing | None]) -> str:
    """'Detective Graves: 3 played, 2 finished · wins: Ann 1 · 1 draw' from the saved games."""
    done = [s for s in standings if s is not None and s.finished]
    wins: Counter[str] = Counter(w for s in done for w in ([s.winner] if s.winner is not None else s.winners))
    draws = sum(1 for s in done if s.winner is None and not s.winners)
    line = f"{title}: {len(standings)} played, {len(done)} finished"
    if wins:
        line += " · wins: " + ", ".join(f"{p} {n}" for p, n in wins.most_common())
    if draws:
        line += f" · {draws} draw{'' if draws == 1 else 's'}"
    return line


def log_digest(log: GameLog) -> str:
    """A checksum of everything a standing follows from: the header and every event."""
    whole = [log.game, log.rules_version, log.players, log.variants, log.seed, log.setup, log.events]
    return hashlib.sha256(json.dumps(whole, sort_keys=True, default=str).encode("utf-8")).hexdigest()


class StandingCache:
    """Each saved game's standing as last worked out, under the checksum of its log (standings.json beside the
    saves). Listing the saved games reads it and replays (importing the engines and card databases) only a game
    whose log changed since: a save the table wrote keeps its standing up to date, so a start lists without them.
    A file that cannot be read or written is no error: the standings are worked out again."""

    def __init__(self, path: Path):
        self.path = path
        self._known: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError):
            known = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(known, dict):
                self._known = known

    def get(self, game_id: str, log: GameLog) -> tuple[bool, Standing | None]:
        """(found, standing): found is False if the game's standing was never kept for this very log."""
        kept = self._known.get(game_id)
        if not isinstance(kept, dict) or kept.get("log") != log_digest(log):
            return False, None
        if kept.get("standing") is None:
            return True, None
        try:
            return True, Standing(**kept["standing"])
        except TypeError:  # kept by another version of the app
            return False, None

    def put(self, game_id: str, log: GameLog, standing: Standing | None) -> None:
        self._known[game_id] = {"log": log_digest(log), "standing": asdict(standing) if standing else None}

    def forget_all_but(self, game_ids: list[str]) -> None:
        self._known = {g: v for g, v in self._known.items() if g in game_ids}

    def save(self) -> None:
        """Written whole to a side file, then moved over the old one: a kill half-way leaves the old one."""
        with contextlib.suppress(OSError):
            side = self.path.with_suffix(".tmp")
            side.write_text(json.dumps(self._known, sort_keys=True), encoding="utf-8")
            os.replace(side, self.path)
