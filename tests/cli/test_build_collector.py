"""The build command pauses Python's cycle collector while it builds (issue 21: its passes over the scenes a
build keeps were a tenth of a cold P.I. build's CPU and found almost nothing), and puts it back as it found it,
even when the build fails; a watch collects before each of its rounds instead."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from casebook.cli import main
from casebook.generator import build as generator_build
from casebook.generator import watch

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"


def tiny_build(tmp_path: Path, *more: str) -> list[str]:
    return ["build", "moth", "--cards", str(TINY / "cards"), "--layouts", str(TINY / "layouts"), "--paper", "a4",
            "--out", str(tmp_path / "out"), *more]


def watch_collector(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the collector ran, each time a game was composed."""
    seen: list[bool] = []
    compose = generator_build.compose_game

    def composing(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return compose(*args, **kwargs)

    monkeypatch.setattr(generator_build, "compose_game", composing)
    return seen


def test_the_collector_is_paused_while_building_and_back_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    seen = watch_collector(monkeypatch)
    assert gc.isenabled()
    assert main(tiny_build(tmp_path)) == 0
    assert seen == [False]
    assert gc.isenabled()
    assert (tmp_path / "out" / "moth" / "moth-a4.pdf").stat().st_size > 0


def test_a_failed_build_puts_the_collector_back_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug in composing")

    monkeypatch.setattr(generator_build, "compose_game", broken)
    with pytest.raises(RuntimeError):
        main(tiny_build(tmp_path))
    assert gc.isenabled()


def test_a_caller_without_the_collector_keeps_it_off(tmp_path: Path) -> None:
    gc.disable()
    try:
        assert main(tiny_build(tmp_path)) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_watch_collects_before_each_round(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = watch_collector(monkeypatch)
    collections: list[int] = []
    monkeypatch.setattr(watch, "build_rounds", lambda games, *args, **kwargs: iter(games * 3))  # three rounds
    monkeypatch.setattr(gc, "collect", lambda generation=2: collections.append(generation) or 0)
    assert main(tiny_build(tmp_path, "--watch")) == 0
    assert seen == [False, False, False]
    assert collections == [2, 2, 2]
    assert gc.isenabled()
