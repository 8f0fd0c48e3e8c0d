"""Shared fixtures: the Graves database and one build of it, made once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The tests read our games' databases through the loader directly, as the commands do once they have
# imported the games: this registers each game's own checks with it (rules/cards.py).
import casebook.rules.games  # noqa: F401

os.environ.setdefault("KIVY_NO_ARGS", "1")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def graves_db():
    from casebook.rules.cards import load_database

    return load_database("graves")


def build_once(tmp_path_factory, game: str) -> Path:
    """Both papers of a game's set, built through the real command; the game's output folder."""
    from casebook.cli import main

    out = tmp_path_factory.mktemp(f"build-{game}")
    assert main(["build", game, "--out", str(out)]) == 0
    return out / game


@pytest.fixture(scope="session")
def graves_build(tmp_path_factory):
    """Both papers of the Graves set, built once."""
    return build_once(tmp_path_factory, "graves")


@pytest.fixture(scope="session")
def syndicate_build(tmp_path_factory):
    """Both papers of the Syndicate set, built once."""
    return build_once(tmp_path_factory, "syndicate")


@pytest.fixture(scope="session")
def syndicate_db():
    from casebook.rules.cards import load_database

    return load_database("syndicate")
