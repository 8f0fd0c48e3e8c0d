"""Issue 22's picture rules, read from what each game's set really draws (every card side, every sheet):

- every picture a game draws is our own (layouts/symbols.yaml) or listed in layouts/icons.yaml with its
  source, author and licence, its licence file beside it, and the set's credit names its authors;
- no two distinct things of a game share a picture: each card of a component whose cards stand for
  things (THINGS) draws a picture no other card of it draws, that is no suit's or mark's, and that no
  card of another such component has as its own;
- only what is drawn is vendored.

What a set draws is caught at draw_symbol while it is composed and written; a picture counts as on a
card side when all the items it drew are in that side's scene.
"""

from __future__ import annotations

import json
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from casebook.generator import compose, symbols
from casebook.generator.build import BuildOptions, compose_game, write_pdf
from casebook.generator.layouts import LAYOUTS_DIR, load_library
from casebook.generator.symbols import ICONS_FILE, Part, picture_registry
from casebook.rules.cards import game_folders
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_folders()
# Components whose cards each stand for a distinct thing, per game: a game joins as its pictures land (issue 22).
THINGS = {"graves": ("locations", "identities"),
          "pi": ("suspect_cases", "crime_cases", "location_cases")}  # one card each; tiles, evidence: same picture


@dataclass
class Drawn:
    """What one game's set draws: every symbol's name, and the names on each card side."""

    credit: str
    names: set[str] = field(default_factory=set)
    sides: dict[tuple[str, str, str], set[str]] = field(default_factory=dict)  # (component, card id, side) -> names
    markers: set[str] = field(default_factory=set)  # the symbols of the game's suits and marks


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> Iterator[Any]:
    lib = load_library()
    by_parts = {tuple(parts): name for name, parts in lib.symbols.items()}
    out = tmp_path_factory.mktemp("pictures")
    done: dict[str, Drawn] = {}

    def get(game: str) -> Drawn:
        if game in done:
            return done[game]
        # every drawing of a symbol as the set of items it made: a symbol is on a side when all its items are
        # (not just its first: two busts may begin with the same head and differ in their hat)
        drawings: dict[frozenset[object], str] = {}
        real = symbols.draw_symbol

        def spy(parts: list[Part], *args: Any, **kwargs: Any) -> list:
            items = real(parts, *args, **kwargs)
            name = by_parts.get(tuple(parts))
            assert name is not None, "a symbol the library does not hold was drawn"
            if items:
                drawings[frozenset(items)] = name
            return items

        mp = pytest.MonkeyPatch()
        mp.setattr(compose, "draw_symbol", spy)
        mp.setattr(symbols, "draw_symbol", spy)  # inline icons: {symbol:NAME}, {suit:ID}, {mark:ID}
        try:
            problems = Problems()
            opts = BuildOptions(papers=("a4",), out_dir=out)
            composed = compose_game(game, opts, problems)
            assert composed is not None, problems.format()
            write_pdf(composed, "a4", out / f"{game}.pdf", opts, problems)
            assert not problems, problems.format()
        finally:
            mp.undo()
        got = Drawn(composed.db.credit, set(drawings.values()))
        got.markers = {m.symbol for m in [*composed.db.suits.values(), *composed.db.marks.values()] if m.symbol}
        for cid, faces in composed.faces.items():
            for f in faces:
                for side, scene in (("face", f.face), ("back", f.back)):
                    present = set(scene.items)
                    names = {name for made, name in drawings.items() if made <= present}
                    got.sides.setdefault((cid, f.card.id, side), set()).update(names)
        done[game] = got
        return got

    yield get


def own_pictures(sides: dict[tuple[str, str, str], set[str]], component: str, markers: set[str]) -> dict[str, set[str]]:
    """Each card of a component: the pictures on its face that no other card of the component draws, suits' and
    marks' symbols left out (a location's trump is its suit's picture, not the location's)."""
    faces = {card: names for (cid, card, side), names in sides.items() if cid == component and side == "face"}
    return {card: {n for n in names if n not in markers
                   and not any(n in other for o, other in faces.items() if o != card)} for card, names in faces.items()}


def shared_pictures(sides: dict[tuple[str, str, str], set[str]], components: tuple[str, ...],
                    markers: set[str]) -> list[str]:
    """What breaks 'no two things share a picture': a card without a picture of its own, or one picture that is
    its own to cards of two components."""
    wrong: list[str] = []
    owner: dict[str, tuple[str, str]] = {}
    for component in components:
        for card, own in own_pictures(sides, component, markers).items():
            if not own:
                wrong.append(f"{component} '{card}' draws no picture of its own (shared, or none)")
            for name in own:
                if name in owner and owner[name][0] != component:
                    wrong.append(f"'{name}' is the picture of {owner[name][0]} '{owner[name][1]}' and {component} '{card}'")
                owner.setdefault(name, (component, card))
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_every_picture_a_game_draws_is_ours_or_listed_with_its_licence(drawn, game):
    got = drawn(game)
    registry = picture_registry(LAYOUTS_DIR)
    assert got.names, f"{game} draws no symbol at all: the spy saw nothing"
    unlisted = sorted(n for n in got.names if n not in registry.records)
    assert not unlisted, f"{game} draws pictures with no record of their source: {unlisted}"
    vendored = {n for n in got.names if registry.records[n].source != "own"}
    for name in vendored:
        record = registry.records[name]
        source = registry.sources[record.source]
        assert record.author and record.licence == source["licence"] and record.url.startswith("https://")
        assert (LAYOUTS_DIR / source["licence_file"]).is_file()
    if vendored:
        assert registry.credit(vendored).lower() in got.credit.lower(), (
            f"{game}'s credit (game.yaml, printed on its cover and aid) must say: {registry.credit(vendored)}")


@pytest.mark.parametrize("game", sorted(THINGS))
def test_no_two_distinct_things_share_a_picture(drawn, game):
    got = drawn(game)
    assert shared_pictures(got.sides, THINGS[game], got.markers) == []


def test_each_graves_location_draws_the_picture_its_card_names(drawn):
    from casebook.rules.cards import read_database

    db = read_database("graves", ROOT / "cards", Problems())
    assert db is not None
    own = own_pictures(drawn("graves").sides, "locations", drawn("graves").markers)
    for card in db.components["locations"].cards:
        assert own[card.id] == {card.data["picture"]}, card.id
    assert len({c.data["picture"] for c in db.components["locations"].cards}) == 12


def test_each_pi_thing_draws_its_picture_on_its_tiles_cases_evidence_and_the_board(drawn):
    """A suspect, crime or district has one picture of its own (its record's `picture`), drawn on every tile,
    case card and evidence card of it, and a district's on the board; no two of the 36 share one."""
    from casebook.rules.cards import read_database

    db = read_database("pi", ROOT / "cards", Problems())
    assert db is not None
    got = drawn("pi")
    picture = {r.id: r.data["picture"] for rs in db.records.values() for r in rs.cards}
    assert len(picture) == 36 and len(set(picture.values())) == 36
    for cid in ("evidence", "suspect_tiles", "crime_tiles", "suspect_cases", "crime_cases", "location_cases"):
        for card in db.components[cid].cards:
            element = card.data.get("element")
            if element:
                assert picture[element] in got.sides[(cid, card.id, "face")], (cid, card.id)
    board = {n for (cid, _, _), names in got.sides.items() if cid.startswith("board") for n in names}
    districts = {picture[d.id] for d in db.records["districts"].cards}
    assert districts <= got.names and (not board or districts <= board)


def test_the_sharing_check_can_fail():
    """Two locations with one picture, or a location drawing an identity's emblem, are found."""
    sides = {("locations", "park", "face"): {"clock", "park_bench"}, ("locations", "alley", "face"): {"clock", "park_bench"},
             ("locations", "river", "face"): {"clock", "spider", "magnifier"},
             ("identities", "weaver", "face"): {"spider"}, ("identities", "viper", "face"): {"serpent"}}
    wrong = shared_pictures(sides, ("locations", "identities"), markers={"magnifier"})
    assert "locations 'park' draws no picture of its own (shared, or none)" in wrong
    assert "locations 'alley' draws no picture of its own (shared, or none)" in wrong
    assert "'spider' is the picture of locations 'river' and identities 'weaver'" in wrong
    assert not any("viper" in w for w in wrong)


def test_only_what_a_game_draws_is_vendored(drawn):
    registry = picture_registry(LAYOUTS_DIR)
    vendored = {n for n, r in registry.records.items() if r.source != "own"}
    used = set().union(*(drawn(game).names for game in GAMES))
    assert vendored, "no icon is vendored: layouts/icons.yaml is missing"
    assert vendored <= used, f"vendored but drawn by no game (python tools/vendor_icons.py PACKAGE --drop NAME): " \
                             f"{sorted(vendored - used)}"


ICON = {"path": "M 10 10 H 90 V 90 H 10 Z", "source": "game-icons", "author": "Lorc", "licence": "CC BY 3.0",
        "url": "https://game-icons.net/1x1/lorc/box.html"}


def _icons_yaml(folder: Path, icons: dict[str, dict[str, str]], licence_file: bool = True) -> Path:
    import yaml

    (folder / "symbols.yaml").write_text("symbols:\n  key:\n    - {circle: [50, 50, 40]}\n")
    if licence_file:
        (folder / "LICENSE-x.txt").write_text("CC BY 3.0")
    (folder / ICONS_FILE).write_text(yaml.safe_dump({
        "sources": {"game-icons": {"title": "game-icons.net", "url": "https://game-icons.net", "licence": "CC BY 3.0",
                                   "licence_file": "LICENSE-x.txt"}}, "icons": icons}, sort_keys=False))
    return folder


@pytest.mark.parametrize("icon, licence_file, said", [
    ({**ICON, "author": ""}, True, "icon 'box' needs author"),
    ({**ICON, "source": "elsewhere"}, True, "icon 'box': unknown source 'elsewhere'"),
    ({**ICON, "path": "M 0 0 L 5"}, True, "a number is missing after 'L'"),
    (ICON, False, "its licence file LICENSE-x.txt is not beside icons.yaml"),
])
def test_a_bad_icons_file_is_reported_with_file_and_line(tmp_path, icon, licence_file, said):
    folder = _icons_yaml(tmp_path, {"box": icon}, licence_file)
    problems = Problems()
    lib = load_library(folder, problems)
    found = [p for p in problems.items if said in p.message]
    assert found, problems.format()
    assert found[0].place.path.endswith(ICONS_FILE) and found[0].place.line > 1
    assert ("box" in lib.symbols) == (not licence_file)  # a missing licence file is reported, the icon still drawn


def test_an_icon_may_not_take_the_name_of_our_own_symbol(tmp_path):
    problems = Problems()
    lib = load_library(_icons_yaml(tmp_path, {"key": ICON}), problems)
    assert any("icon 'key' has the name of one of our own symbols" in p.message for p in problems.items)
    assert lib.symbols["key"][0].shape == "circle"


def _tool() -> Any:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("vendor_icons", ROOT / "tools" / "vendor_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_vendor_tool_writes_icons_the_library_reads_and_draws_as_the_original(tmp_path):
    from casebook.generator.symbols import flatten, parse_path

    tool = _tool()
    body = ('<path fill="currentColor" d="M256 56a200 200 0 1 1 0 400a200 200 0 1 1 0-400zm0 100v200a100 100 0 0 0 '
            '0-200z"/>')
    package = tmp_path / "pkg.tgz"
    data = json.dumps({"prefix": "game-icons", "width": 512, "height": 512, "icons": {"half-moon": {"body": body}}})
    (tmp_path / "icons.json").write_text(data)
    with tarfile.open(package, "w:gz") as tar:
        tar.add(tmp_path / "icons.json", "package/icons.json")
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "symbols.yaml").write_text("symbols:\n  key:\n    - {circle: [50, 50, 40]}\n")
    content = tool.vendor(tool.read_package(package), ["lorc/half-moon=moon_half"], [], folder / ICONS_FILE)
    tool.write(content, folder / ICONS_FILE)
    entry = content["icons"]["moon_half"]
    assert entry["author"] == "Lorc" and entry["url"] == "https://game-icons.net/1x1/lorc/half-moon.html"
    assert set(entry["path"].split()) <= set("MLCZ") | {w for w in entry["path"].split() if w[0] in "-0123456789"}
    problems = Problems()
    lib = load_library(folder, problems)
    assert [p.message for p in problems.items if not p.place.path.endswith("sizes.yaml")] == []
    ours = [p for pts, _ in lib.symbols["moon_half"][0].data for p in pts]
    original = [(x * 100 / 512, y * 100 / 512) for pts, _ in flatten(parse_path(body.split('d="')[1].split('"')[0]))
                for x, y in pts]
    # every point of ours lies on the original's outline: the circle of radius 200/512 or the inner half circle
    for x, y in ours:
        r = ((x - 50) ** 2 + (y - 50) ** 2) ** 0.5
        assert abs(r - 39.0625) < 0.3 or abs(((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 - 19.53) < 0.3 or abs(x - 50) < 0.01
    assert len(original) > 8
    assert (folder / "LICENSE-game-icons.txt").read_text().startswith("Pictures in icons.yaml")
    with pytest.raises(tool.VendorError, match="not in the package"):
        tool.vendor(tool.read_package(package), ["lorc/no-such-icon"], [], folder / ICONS_FILE)
    with pytest.raises(tool.VendorError, match="AUTHOR/NAME"):
        tool.vendor(tool.read_package(package), ["half-moon"], [], folder / ICONS_FILE)


def test_the_vendor_tool_refuses_an_icon_that_is_more_than_paths():
    tool = _tool()
    with pytest.raises(tool.VendorError, match="holds more than paths"):
        tool.convert('<g><path d="M0 0h10v10z"/></g>', 512)


# Clash and Hasty (issue 22): their own functions, beside Graves' rules above.
CLASH_THINGS = ("sites", "crime_plans", "holmes_agents", "moriarty_agents")


def _cards(game: str, component: str) -> list[Any]:
    from casebook.rules.cards import read_database

    db = read_database(game, ROOT / "cards", Problems())
    assert db is not None
    return list(db.components[component].cards)


def test_no_two_clash_sites_agents_or_crime_plans_share_a_picture(drawn):
    got = drawn("clash")
    assert shared_pictures(got.sides, CLASH_THINGS, got.markers) == []


def test_each_clash_site_agent_and_crime_plan_draws_the_picture_its_card_names(drawn):
    got = drawn("clash")
    for component in CLASH_THINGS:
        own = own_pictures(got.sides, component, got.markers)
        cards = _cards("clash", component)
        for card in cards:
            assert own[card.id] == {card.data["picture"]}, (component, card.id, own[card.id])
        assert len({c.data["picture"] for c in cards}) == len(cards)


def kind_pictures(sides: dict[tuple[str, str, str], set[str]], kind_of: dict[str, str],
                  markers: set[str]) -> dict[str, set[str]]:
    """Each kind of action card: the pictures its cards' faces all draw and no card of another kind draws."""
    by_kind: dict[str, list[set[str]]] = {}
    for (cid, card, side), names in sides.items():
        if cid == "actions" and side == "face":
            by_kind.setdefault(kind_of[card], []).append(names - markers)
    common = {kind: set.intersection(*faces) for kind, faces in by_kind.items()}
    return {kind: {n for n in names if not any(n in f for k, faces in by_kind.items() if k != kind for f in faces)}
            for kind, names in common.items()}


def test_each_hasty_kind_of_action_card_has_a_picture_no_other_kind_draws(drawn):
    got = drawn("hasty")
    kind_of = {c.id: c.data["kind"] for c in _cards("hasty", "actions")}
    own = kind_pictures(got.sides, kind_of, got.markers)
    assert set(own) == set(kind_of.values())
    import yaml

    pictures = {k: v["picture"] for k, v in yaml.safe_load((LAYOUTS_DIR / "hasty" / "kinds.yaml").read_text())["vars"]
                ["kinds"].items()}
    for kind in own:
        assert pictures[kind] in own[kind], (kind, own[kind])
    assert len(set(pictures.values())) == len(pictures)


def test_no_two_hasty_suspects_share_a_bust(drawn):
    got = drawn("hasty")
    assert shared_pictures(got.sides, ("suspects", "traitor"), got.markers) == []
    own = own_pictures(got.sides, "suspects", got.markers)
    for card in _cards("hasty", "suspects"):
        assert own[card.id] == {card.data["portrait"]}, card.id


def test_the_kind_check_can_fail():
    """Two kinds drawing one picture, and only shared ones, are found; a picture on every card of a kind is its own."""
    sides = {("actions", "a", "face"): {"dagger", "loupe"}, ("actions", "b", "face"): {"dagger"},
             ("actions", "c", "face"): {"shield", "loupe"}, ("actions", "d", "face"): {"dagger", "eye"}}
    own = kind_pictures(sides, {"a": "kill", "b": "kill", "c": "protect", "d": "information"}, markers=set())
    assert own == {"kill": set(), "protect": {"shield"}, "information": {"eye"}}
