"""Legibility rules a print-and-play set keeps: game text of at least 6 pt, icons in contrast.

Every text a layout sets is game text unless the layout says otherwise: a name, a rule, a
value, a label, a table's titles and rows, a page map, a scoresheet's captions. The composer
reports any game text set (or shrunk to fit) under GAME_TEXT_MIN, naming the layout's
file:line and the element, and the build refuses to write. The one exception is fine print,
an element marked `fine_print: true`: text nobody needs to play (a card's collation code
such as "EV 3/36", a licence or copyright credit, the attribution under a quote), which may
go down to FINE_PRINT_MIN; so may the label on a card sheet, which is for sorting sheets
(generator/furniture.py, LABEL_MIN). The PDFs themselves are checked by tests/generator/test_legibility.py,
which extracts every character with its size from every page of every PDF a build writes.
Contrast follows WCAG 2.x.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from casebook.generator.scene import Scene, TextRun
from casebook.generator.text import Fitted
from casebook.rules.problems import Place, Problems

GAME_TEXT_MIN = 6.0  # pt: below this, print-and-play reviewers (and older eyes) call text unreadable
FINE_PRINT_MIN = 4.0  # pt: the floor of fine print (`fine_print: true`), which no player needs to read to play
ICON_CONTRAST_MIN = 3.0  # WCAG 2.x, non-text contrast: icons that carry meaning


class FinePrint:
    """The fine print a composer set, as a set of texts held as one text (each ended by a NUL).

    A deck's fine print is mostly its collation codes, one of its own a card: 10,000 cards' as a
    set of strings take 1 MB, in one text 150 KB. Asking whether a text is among them reads
    the whole (a board's few hundred texts, a test's checks of a PDF); adding costs nothing more.
    """

    _END = "\0"

    def __init__(self) -> None:
        self._joined = self._END
        self._added: list[str] = []  # joined in every _BATCH texts: no str of its own is held long

    _BATCH = 256

    def add(self, text: str) -> None:
        if self._END in text:  # no fine print holds one; a text that did is taken apart at it
            self.update(text.split(self._END))
            return
        self._added.append(text)
        if len(self._added) >= self._BATCH:
            self._join()

    def update(self, texts: Iterable[str]) -> None:
        for text in texts:
            self.add(text)

    def _join(self) -> None:
        if self._added:
            self._joined += self._END.join(self._added) + self._END
            self._added = []

    def __contains__(self, text: object) -> bool:
        if not isinstance(text, str) or self._END in text:
            return False
        self._join()
        return f"{self._END}{text}{self._END}" in self._joined

    def __iter__(self) -> Iterator[str]:
        self._join()
        return iter(dict.fromkeys(self._joined.split(self._END)[1:-1]))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def is_fine_print(el: Any) -> bool:
    """Whether a layout element is fine print (a code, a credit), not game text."""
    return el.data.get("fine_print") is True


def floor_of(el: Any) -> float:
    """The smallest size a layout element's text may be set at."""
    return FINE_PRINT_MIN if is_fine_print(el) else GAME_TEXT_MIN


def check_game_text(fitted: Fitted, el: Any, who: str, problems: Problems, fine: FinePrint | None = None,
                    what: str = "", key: str = "size") -> None:
    """Report text fitted under its floor (GAME_TEXT_MIN, or FINE_PRINT_MIN for fine print) at the element's line.

    `what` names a part of the element (a table's column title) and `key` the layout key that
    sizes it (a table's header_size); `fine` collects the fine print set, so that a check of
    the written PDF can tell it from game text.
    """
    floor = floor_of(el)
    if fine is not None and floor < GAME_TEXT_MIN:
        fine.update(" ".join(run.text.split()) for run in fitted.runs)
    if fitted.size >= floor - 1e-9:
        return
    place = el.places.get(key, el.places.get("text", el.place))
    name = f"'{el.data.get('id', el.data.get('type', 'text'))}'" + (f" ({what})" if what else "")
    if floor < GAME_TEXT_MIN:
        problems.add(place, f"{who}: fine print {name} is set at {fitted.size:g} pt, under the {floor:g} pt "
                            f"that prints cleanly", f"size and min_size of {floor:g} pt or more")
        return
    problems.add(place, f"{who}: game text {name} is set at {fitted.size:g} pt, "
                        f"under the {GAME_TEXT_MIN:g} pt a player can read",
                 f"size and min_size of {GAME_TEXT_MIN:g} pt or more, and a box the text fits at that size "
                 f"(only text no player needs, such as a card's code or a credit, may be marked fine_print: true "
                 f"and go down to {FINE_PRINT_MIN:g} pt)")


def check_reduced(scene: Scene, scale: float, fine: FinePrint, place: Place, who: str, problems: Problems) -> None:
    """Report the text of a drawing that a reduced print (a board on A3) sets under its floor, once per text."""
    said: set[str] = set()
    for run in scene.items:
        if not isinstance(run, TextRun) or run.text in said:
            continue
        floor = FINE_PRINT_MIN if " ".join(run.text.split()) in fine else GAME_TEXT_MIN
        if run.size * scale < floor - 1e-9:
            said.add(run.text)
            problems.add(place, f"{who}: text '{run.text}' is set at {run.size:g} pt, which is "
                                f"{run.size * scale:.2g} pt at {scale * 100:.0f} %, under the {floor:g} pt a player can read",
                         f"{floor / scale:.1f} pt or more for this text (size and min_size)")


def readable_only(scene: Scene) -> Scene:
    """A reduced copy of a drawing without the text it made too small to read (an assembly page's miniature).

    The full-size drawing is printed too; text in its miniature below GAME_TEXT_MIN would only be grey smudge.
    """
    return replace(scene, items=[item for item in scene.items
                                 if not isinstance(item, TextRun) or item.size >= GAME_TEXT_MIN - 1e-9])


def relative_luminance(hexstr: str) -> float:
    """WCAG relative luminance of a #rrggbb colour (0 black .. 1 white)."""
    h = hexstr.lstrip("#")
    channels = []
    for i in (0, 2, 4):
        c = int(h[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 .. 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
