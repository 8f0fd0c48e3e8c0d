"""The games register their own database checks with the loader (rules/cards.py), which never imports them.

What reads a game's database imports the registry of games (rules/games/__init__.py) first; the
build is held to it here in a fresh interpreter, where nothing else can have imported the games.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from casebook.rules.cards import GAME_CHECKS
from casebook.rules.games import GAMES
from tests.test_import_cycles import import_graph

ROOT = Path(__file__).resolve().parents[2]
CHECKS = {gid: f"casebook.rules.games.{gid}.check_database" for gid in ("clash", "graves", "hasty", "pi", "syndicate")}

# Graves' own check of its evidence cards (as in tests/cli/broken_corpus.yaml): two cards keep the same 3 viable.
EVIDENCE_02 = ("- id: evidence_02\n    cleared: [thaddeus_wrenlow, josiah_tumbrel]\n"
               "    viable: [ezra_hollowmere, livia_marchbank, odile_varnier]\n")
EVIDENCE_02_AS_01 = ("- id: evidence_02\n    cleared: [odile_varnier, josiah_tumbrel]\n"
                     "    viable: [ezra_hollowmere, livia_marchbank, thaddeus_wrenlow]\n")

THROUGH_THE_BUILD = """
import json, sys
from pathlib import Path

from casebook.generator.build import BuildOptions, compose_game  # the only import of casebook before the checks
from casebook.rules.cards import GAME_CHECKS
from casebook.rules.problems import Problems

problems = Problems()
composed = compose_game("graves", BuildOptions(cards_dir=Path(sys.argv[1])), problems)
engines = sorted(m for m in sys.modules if m.startswith("casebook.rules.games."))  # imported by this build
checks = {gid: f"{check.target.__module__}.{check.target.__name__}" for gid, check in GAME_CHECKS.items()}
print(json.dumps({"checks": checks, "engines": engines, "composed": composed is not None, "said": problems.format()}))
"""

LOADER_ALONE = """
import json, sys
from pathlib import Path

from casebook.rules.cards import GAME_CHECKS, read_database
from casebook.rules.problems import Problems

problems = Problems()
read_database("graves", Path(sys.argv[1]), problems)
print(json.dumps({"checks": sorted(GAME_CHECKS), "games_imported": "casebook.rules.games" in sys.modules,
                  "said": problems.format()}))
"""


def run(code: str, *args: str) -> dict[str, object]:
    """What a fresh interpreter printed as JSON after running `code`."""
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def broken_graves(tmp_path: Path) -> Path:
    """A copy of the cards with Graves' evidence broken in a way only Graves' own check sees."""
    shutil.copytree(ROOT / "cards" / "graves", tmp_path / "cards" / "graves")
    evidence = tmp_path / "cards" / "graves" / "evidence.yaml"
    text = evidence.read_text(encoding="utf-8")
    assert text.count(EVIDENCE_02) == 1
    evidence.write_text(text.replace(EVIDENCE_02, EVIDENCE_02_AS_01), encoding="utf-8")
    return tmp_path / "cards"


def test_every_game_registers_its_check_database():
    assert set(GAME_CHECKS) == set(GAMES)
    assert all(GAME_CHECKS[gid].target is game.check_database for gid, game in GAMES.items())


def test_the_registry_lists_every_engine_by_its_own_id():
    """The table of names (MODULES) is the folder's engines, and each module says the id it is listed under."""
    engines = sorted(p.stem for p in (ROOT / "rules" / "games").glob("*.py") if not p.stem.startswith("_"))
    assert sorted(GAMES) == engines
    assert all(gid == GAMES[gid].ID for gid in GAMES)


def test_the_loader_imports_nothing_of_the_games():
    """Pattern 9 (house-style.md): the games register with the core; the core does not reach for them."""
    reached = {m for m in import_graph()["casebook.rules.cards"] if m.startswith("casebook.rules.games")}
    assert not reached


def test_importing_the_build_alone_registers_the_games_and_their_checks_still_refuse(tmp_path):
    out = run(THROUGH_THE_BUILD, str(broken_graves(tmp_path)))
    assert out["checks"] == CHECKS
    assert out["engines"] == ["casebook.rules.games.graves"]  # the other four engines are not imported
    assert out["composed"] is False
    said = str(out["said"])
    assert "evidence_02: the same 3 viable identities as 'evidence_01'" in said, said
    assert "evidence.yaml:" in said, said


def test_the_loader_alone_runs_no_game_checks(tmp_path):
    """Without the registry imported the same database passes the generic checks: the registering is what matters."""
    out = run(LOADER_ALONE, str(broken_graves(tmp_path)))
    assert out == {"checks": [], "games_imported": False, "said": ""}
