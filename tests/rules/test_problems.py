"""Problem reports: each line shown as it stands, long lines clipped, floods counted."""

from __future__ import annotations

from pathlib import Path

from casebook.rules.problems import SHOWN_LINE, SHOWN_PROBLEMS, Place, Problems


def test_a_flood_of_problems_is_shown_in_part_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("".join(f"- id: card_{n}\n  rnak: 3\n" for n in range(5000)), encoding="utf-8")
    problems = Problems()
    for n in range(5000):
        problems.add(Place(str(path), 2 * n + 2, 3), "unknown field 'rnak'", "rank")
    text = problems.format()
    assert text.count("unknown field 'rnak'") == SHOWN_PROBLEMS
    assert f"and {5000 - SHOWN_PROBLEMS} more problem(s)" in text.splitlines()[-1]
    assert "  >>   rnak: 3" in text  # the line is still shown with each problem


def test_a_huge_line_is_shown_clipped(tmp_path: Path) -> None:
    path = tmp_path / "log.yaml"
    path.write_text("events:\n  - " + "x" * 100_000 + "\n", encoding="utf-8")
    problems = Problems()
    problems.add(Place(str(path), 2, 5), "a value too long")
    shown = [line for line in problems.format().splitlines() if line.startswith("  >> ")]
    assert len(shown) == 1 and len(shown[0]) <= SHOWN_LINE + 8 and shown[0].endswith(" …")


def test_the_line_shown_follows_the_file_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    place = Place(str(path), 1, 1)
    shown = []
    for text in ("first: 1\n", "second: 22\n"):  # a designer's edit between two validations
        path.write_text(text, encoding="utf-8")
        problems = Problems()
        problems.add(place, "x")
        shown.append(problems.format())
    assert "first: 1" in shown[0] and "second: 22" in shown[1]
