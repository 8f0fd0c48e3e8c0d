"""What a designer who followed docs/make-your-own.md with a spreadsheet of his own ran into, each held:
a suit column of another name, empty names said per card, cards named as he wrote them, a column
without a header said once by its letter, one error a cell, suits shown as written, validate's counts.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from casebook.cli import main
from casebook.rules.problems import column_letter
from tests.cli.page_steps import PAGE, ROOT
from tests.cli.test_make_your_own import FONT
from tests.generator.test_new_game import page_texts


@pytest.fixture
def garden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A game made by `casebook new garden` in an empty working folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "garden"]) == 0
    capsys.readouterr()
    return Path("garden")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def build(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["build", "garden", "--paper", "a4", *args])
    out, err = capsys.readouterr()
    return code, out + err


def refused(capsys: pytest.CaptureFixture[str]) -> str:
    """What a build that must fail said."""
    code, said = build(capsys)
    assert code == 1, said
    return said


def errors(said: str) -> list[str]:
    return [line for line in said.splitlines() if ": error: " in line]


def test_a_suit_field_of_another_name_is_the_layouts_suit(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "game.yaml", "suit: {type: suit, required: true}", "element: {type: suit, required: true}")
    edit(garden / "cards.csv", "Name,Suit,", "Name,Element,")
    code, said = build(capsys)
    assert code == 0, said
    assert Path("output/garden/garden-a4.pdf").is_file()


def test_an_empty_suit_is_named_for_the_card(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "game.yaml", "suit: {type: suit, required: true}", "suit: {type: suit}")
    edit(garden / "cards.csv", "Rainbow,rain,", "Rainbow,,")
    code, said = build(capsys)
    assert code == 1
    assert re.search(r"garden/face\.yaml:\d+:\d+: error: card 'Rainbow' \(row 5\): 'suit' is empty here "
                     r"\(suit\.colour\), in 'fill'", said), said
    assert "has no attribute" not in said and "None" not in said, said
    hints = [line for line in said.splitlines() if "a name the template context has" in line]
    assert hints and all("card, number" in h and " suit," not in h.split("has:")[1] for h in hints), hints


def test_a_field_the_card_lacks_is_named_with_those_it_has(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "face.yaml", "{{ card.name }}", "{{ card.title }}")
    code, said = build(capsys)
    assert code == 1
    assert "error: card 'Sunrise' (row 2): card.title: 'card' has no field 'title', in 'text'" in said, said
    assert "one of its fields: name, suit, cost, text," in said, said


def test_a_column_without_a_header_is_said_once_by_its_letter(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (garden / "cards.csv").write_text("Name,Suit,Cost,,Text,Copies\nSunrise,sun,1,a note,Draw a card.,2\n"
                                      "Rainbow,rain,,,Counts as a card of every suit.,1\n", encoding="utf-8")
    code, said = build(capsys)
    assert code == 1
    assert errors(said) == [f"{Path('garden/cards.csv')}:1: column D: error: column D (4) has no header, but row 2 has "
                            "a value in it"], said
    assert "name it in row 1 (one of: name, suit, cost, text," in said and "or delete the column" in said


def test_a_deleted_header_cell_is_one_error_not_one_a_card(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", "Name,Suit,Text,Copies,")  # Cost deleted, names shifted left
    code, said = build(capsys)
    assert code == 1
    assert len(errors(said)) == 1, said
    assert ("cards.csv:1: column E: error: column E (5) has no header, but every card has a value in it; row 1 names "
            "4 columns and the cards fill 5: was a header cell deleted, moving the names after it one column to the "
            "left?") in said, said


@pytest.mark.parametrize(("cell", "what"), [("two", "must be a whole number, not text ('two')"), ("0", "is 0")])
def test_a_bad_copies_cell_is_one_error(garden: Path, capsys: pytest.CaptureFixture[str], cell: str, what: str) -> None:
    edit(garden / "cards.csv", "Sunrise,sun,1,Draw a card.,2", f"Sunrise,sun,1,Draw a card.,{cell}")
    said = refused(capsys)
    assert errors(said) == [f"{Path('garden/cards.csv')}:2: column 'Copies': error: card 'Sunrise' (row 2): 'copies' "
                            + what], said
    assert "expected: copies: a whole number, 1 or more (empty: 1)" in said, said


def test_an_unknown_suit_is_shown_as_written(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "cards.csv", "Sunrise,sun,", "Sunrise,Aether,")
    edit(garden / "cards.csv", "Heatwave,sun,", "Heatwave,Sun,")  # another case of a known suit is still that suit
    said = refused(capsys)
    assert errors(said) == [f"{Path('garden/cards.csv')}:2: column 'Suit': error: card 'Sunrise' (row 2): 'suit': "
                            "unknown suit 'Aether'"], said


def test_yaml_cards_without_ids_are_named_by_name_and_place(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "game.yaml", "file: cards.csv", "cards: [{name: Dawn, suit: sun}, {name: Noon, suit: sun, cost: 12}, "
                                                  "{suit: sun}]")
    said = refused(capsys)
    assert "error: card 'Noon' (number 2 in 'cards'): 'cost' is 12, out of range" in said, said
    assert "error: card 3 of 'cards' is missing the field 'name'" in said, said
    assert "cards_2" not in said and "cards_3" not in said, said


def test_validate_leaves_out_what_a_print_only_game_has_none_of(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "garden"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "garden: ok (9 cards)"


def test_the_scaffolds_cards_are_the_pages() -> None:
    page = PAGE.read_text(encoding="utf-8")
    shown = re.search(r"```csv\n(.*?)```", page, re.S)
    assert shown is not None
    assert (ROOT / "casebook" / "new_game" / "cards.csv").read_text(encoding="utf-8") == shown.group(1)


def test_columns_are_named_by_their_letters() -> None:
    assert [column_letter(n) for n in (1, 4, 26, 27, 52, 101)] == ["A", "D", "Z", "AA", "AZ", "CW"]


@pytest.mark.parametrize("header", ["How many", "qty", "Quantity", "COUNT", "Number", "Amount", "Copy", "how_many"])
def test_a_copies_column_may_have_its_common_names(garden: Path, capsys: pytest.CaptureFixture[str], header: str) -> None:
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", f"Name,Suit,Cost,Text,{header}")
    assert main(["validate", "garden"]) == 0, capsys.readouterr()
    assert capsys.readouterr().out.splitlines()[-1] == "garden: ok (9 cards)"  # Sunrise, Spring Shower, Seedling: 2 each
    edit(garden / "cards.csv", "Sunrise,sun,1,Draw a card.,2", "Sunrise,sun,1,Draw a card.,many")
    said = refused(capsys)
    assert f"column '{header}': error: card 'Sunrise' (row 2): 'copies' must be a whole number" in said, said


def test_two_copies_columns_are_refused_naming_both(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", "Name,Suit,Cost,Text,Copies,Qty")
    said = refused(capsys)
    assert errors(said) == [f"{Path('garden/cards.csv')}:1: column 'Qty': error: two columns say how many of a card "
                            "to print: 'Copies' (column E) and 'Qty' (column F)"], said


def test_a_field_named_like_copies_stays_that_field(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "game.yaml", "      text: {type: text}", "      text: {type: text}\n      number: {type: str}")
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", "Name,Suit,Cost,Text,Number")
    assert main(["validate", "garden"]) == 0, capsys.readouterr()
    assert capsys.readouterr().out.splitlines()[-1] == "garden: ok (6 cards)"  # read as the field, one of each card


def test_a_game_printed_without_backs_needs_no_back_layout(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "game.yaml", "    back: back ", "    # (no back) ")
    code, said = build(capsys)
    assert code == 1 and "error: missing 'back'" in said, said  # backs printed: a back layout is needed
    edit(garden / "game.yaml", "# print: {backs: false, calibration: false, labels: false}", "print: {backs: false}")
    code, said = build(capsys, "--png", "--dpi", "30")
    assert code == 0, said
    faces, *rest = page_texts(Path("output/garden/garden-a4.pdf"))
    assert "Sunrise" in faces and not any("Sunrise" in page for page in rest)
    assert len(list(Path("output/garden/png/cards").glob("*-back.png"))) == 6  # blank backs, for the exports


def test_a_card_is_named_by_its_first_text_column(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sheet whose name column is called Monster: its cards are named by it, the sheet's first text column."""
    edit(garden / "game.yaml", "      name: {type: str, required: true}",
         "      flavour: {type: str}\n      monster: {type: str, required: true}")
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", "Monster,Suit,Cost,Text,Copies,Flavour")
    edit(garden / "cards.csv", "Sunrise,sun,1,Draw a card.,2", "Sunrise,sun,12,Draw a card.,2,Bright")
    edit(garden / "face.yaml", "{{ card.name }}", "{{ card.monster }}")
    said = refused(capsys)
    assert errors(said) == [f"{Path('garden/cards.csv')}:2: column 'Cost': error: card 'Sunrise' (row 2): 'cost' is 12, "
                            "out of range"], said


def test_a_misspelt_font_is_the_layouts_mistake_said_once(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FONT, garden / FONT.name)
    with (garden / "face.yaml").open("a", encoding="utf-8") as f:
        f.write("  - {id: name, font: DejaVu Serif Bld}\n")
    said = refused(capsys)
    assert len(errors(said)) == 1, said
    assert re.search(r"garden/face\.yaml:\d+:\d+: error: the font family 'DejaVu Serif' in \S+ has no style 'Bld'$",
                     errors(said)[0]), said
    assert "expected: one of its styles: Bold" in said, said


@pytest.fixture
def pictured(garden: Path) -> Path:
    """The garden with a Picture column naming each card's file in art/ (sun.png and rain.jpg are there)."""
    (garden / "art").mkdir()
    Image.new("RGB", (8, 8), "#F0C030").save(garden / "art" / "sun.png")
    Image.new("RGB", (8, 8), "#2F6690").save(garden / "art" / "rain.jpg")
    edit(garden / "game.yaml", "      text: {type: text}", "      text: {type: text}\n      picture: {type: str}")
    with (garden / "face.yaml").open("a", encoding="utf-8") as f:
        f.write('  - {id: art_picture, type: image, when: "{{ card.picture }}", src: "art/{{ card.picture }}",\n'
                "     x: 6, y: 17, w: 51, h: 34, fit: cover}\n")
    edit(garden / "cards.csv", "Name,Suit,Cost,Text,Copies", "Name,Suit,Cost,Text,Copies,Picture")
    return garden


def test_a_picture_column_holds_file_names(pictured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(pictured / "cards.csv", "Sunrise,sun,1,Draw a card.,2", "Sunrise,sun,1,Draw a card.,2,sun.png")
    edit(pictured / "cards.csv", "Rainbow,rain,,Counts as a card of every suit.,1",
         "Rainbow,rain,,Counts as a card of every suit.,1,rain.jpg")
    code, said = build(capsys)
    assert code == 0, said


@pytest.mark.parametrize(("cell", "near"), [("Sun.PNG", "art/sun.png"), ("rian.jpg", "art/rain.jpg"),
                                            ("sun", "art/sun.png")])
def test_a_missing_picture_names_the_one_meant(pictured: Path, capsys: pytest.CaptureFixture[str],
                                               cell: str, near: str) -> None:
    edit(pictured / "cards.csv", "Sunrise,sun,1,Draw a card.,2", f"Sunrise,sun,1,Draw a card.,2,{cell}")
    said = refused(capsys)
    assert len(errors(said)) == 1, said
    assert errors(said)[0].startswith(f"{Path('garden/cards.csv')}:2: column 'Picture': error: card 'Sunrise' (row 2): "
                                      f"image: "), said
    assert f"'art/{cell}'" in said and f"; did you mean '{near}'?" in said, said


def test_a_picture_far_from_any_file_is_only_missing(pictured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(pictured / "cards.csv", "Sunrise,sun,1,Draw a card.,2", "Sunrise,sun,1,Draw a card.,2,dragon.png")
    said = refused(capsys)
    assert "no image 'art/dragon.png' in " in said and "did you mean" not in said, said


@pytest.mark.parametrize(("cell", "inside"), [("/etc/passwd", "/etc/passwd"), ("C:\\art\\sun.png", "C:/art/sun.png")])
def test_an_absolute_path_in_a_cell_is_said_so(pictured: Path, capsys: pytest.CaptureFixture[str],
                                              cell: str, inside: str) -> None:
    edit(pictured / "cards.csv", "Sunrise,sun,1,Draw a card.,2", f"Sunrise,sun,1,Draw a card.,2,{cell}")
    said = refused(capsys)
    assert f"image: 'art/{cell}' holds an absolute path, '{inside}', after 'art/': it leads outside the game's folder" \
        in said, said
    assert "by its name" not in said, said


def test_an_unknown_symbol_points_at_the_picture_of_them_all(garden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(garden / "cards.csv", "{symbol:wave}", "{symbol:wav}")
    said = refused(capsys)
    assert "error: card 'Heatwave' (row 3): text 'text' draws {symbol:wav}: unknown symbol 'wav'" in said, said
    assert ", flame, " in said and ", heart, " in said and "(Casebook's shapes, each drawn with its name: docs/symbols.png)" in said, said
    assert (ROOT / "docs" / "symbols.png").is_file()
