"""The Hasty Accusations print set: each card set alone and combined, the Traitor's back, the icons
(restrictions, power triggers, kinds) on the cards and the aid, the tracker, and legibility."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image, ImageChops, ImageFilter, ImageStat

import casebook.generator.compose as compose_module
from casebook.cli import main
from casebook.generator.backends import png
from casebook.generator.backends.pdf import scenes_to_pdf
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Scene, TextRun
from casebook.generator.symbols import draw_symbol
from casebook.rules.games.hasty import ROW_SIZE, TRAITOR_ROW_EXTRA
from casebook.rules.problems import Problems
from tests.generator.test_build import page_texts
from tests.generator.test_render_agree import FAILED, RMS_TOLERANCE

RESTRICTIONS = ("must_loupe", "cant_loupe", "must_own", "cant_own")
TRIGGERS = ("on_death", "on_play")
KINDS = ("kill", "protect", "pile", "review", "information", "order", "misc")
# each kind's picture (layouts/hasty/kinds.yaml `picture`): our kind_* or a clearer icon (issue 22)
KIND_PICTURES = {k: v["picture"] for k, v in yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "layouts" / "hasty" / "kinds.yaml").read_text())["vars"]["kinds"].items()}
ALWAYS = {"suspects": 24, "traitor": 1, "loupe": 1}  # printed whatever the sets


def _compose(sets=(), paper="a4", ink_saver=False):
    problems = Problems()
    composed = compose_game("hasty", BuildOptions(papers=(paper,), sets=tuple(sets), ink_saver=ink_saver), problems)
    assert composed is not None and not problems.items, problems.format()
    return composed


@pytest.fixture(scope="module")
def every_set():
    return _compose(["all"])


@pytest.fixture(scope="module")
def declared():
    """The sets game.yaml declares, with their counts: what the printed decks must hold."""
    from casebook.rules.cards import load_database

    return {s.id: s.count for s in load_database("hasty").sets.values()}


@pytest.mark.parametrize("sets", [(), ("base",), ("advanced",), ("expert",), ("base", "advanced"),
                                  ("advanced", "expert"), ("base", "expert"), ("base", "advanced", "expert")])
def test_each_set_prints_alone_and_combined_with_its_counts(sets, declared):
    composed = _compose(sets)
    chosen = sets or ("base",)  # the game's default
    assert composed.sets == tuple(s for s in declared if s in chosen)
    printed = {cid: len(faces) for cid, faces in composed.faces.items()}
    assert printed == {**ALWAYS, "actions": sum(declared[s] for s in chosen)}
    for face in composed.faces["actions"]:
        assert set(face.card.sets) & set(chosen), face.card.id
    # numbered within what is printed: 1..n with no gaps
    assert [f.number for f in composed.faces["actions"]] == list(range(1, printed["actions"] + 1))


def test_the_default_is_the_base_set_of_47_cards():
    assert len(_compose().faces["actions"]) == 47  # docs/hasty.md: base (default) 47


def test_an_unknown_set_is_refused_with_the_known_ones():
    problems = Problems()
    assert compose_game("hasty", BuildOptions(papers=("a4",), sets=("basic",)), problems) is None
    assert "hasty has no card set 'basic'; its sets: base (default), advanced, expert, or all" in problems.format()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The PDFs of two choices, built through the command: the advanced set; base and expert together."""
    out = {}
    for sets in ("advanced", "expert,base"):
        folder = tmp_path_factory.mktemp("hasty-" + sets.replace(",", "-"))
        assert main(["build", "hasty", "--set", sets, "--cover", "--out", str(folder)]) == 0
        out[sets] = folder / "hasty"
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("sets", "chosen"), [("advanced", ("advanced",)), ("expert,base", ("base", "expert"))])
def test_the_pdf_holds_the_chosen_sets_cards_and_names_them(built, every_set, declared, paper, sets, chosen):
    texts = page_texts(built[sets] / f"hasty-{paper}.pdf")
    whole = "\n".join(texts)
    # every action face says its set at the foot, once
    feet = re.findall(r"(Base|Advanced|Expert) set · \d+ in the set", whole)
    assert len(feet) == sum(declared[s] for s in chosen)
    assert {f.lower() for f in feet} == set(chosen)
    names = {f.card["name"]: f.card.sets[0] for f in every_set.faces["actions"]}
    for name, card_set in names.items():
        assert (name in whole) == (card_set in chosen), name
    # the sheets say which sets they print, and so does the aid
    assert sum(f"Hasty Accusations ({'+'.join(chosen)})" in t for t in texts) >= 2
    printed = " + ".join(f"{s.capitalize()} set" for s in chosen)
    assert f"Action cards printed: {printed}" in whole
    cover = "\n".join(page_texts(built[sets] / f"hasty-{paper}-cover.pdf"))
    listed = ", ".join(f"{s.capitalize()} set" for s in chosen)
    assert f"Card sets: {listed} (rebuild with --set {','.join(chosen)}" in " ".join(cover.split())


def test_the_traitor_back_is_the_suspects_back(every_set, tmp_path):
    traitor = every_set.faces["traitor"][0]
    suspect_backs = {f.back_key for f in every_set.faces["suspects"]}
    assert suspect_backs == {traitor.back_key}  # one back scene for all, the Traitor's included
    assert traitor.back == every_set.faces["suspects"][0].back
    assert png.render(traitor.back, 60).tobytes() == png.render(every_set.faces["suspects"][5].back, 60).tobytes()
    assert traitor.face_key not in suspect_backs and traitor.back_key != every_set.faces["actions"][0].back_key


def _drawn_symbols(monkeypatch, lib):
    """Record the symbols composed from now on, by name, with the size of their box."""
    names = {id(parts): name for name, parts in lib.symbols.items()}
    drawn: list[tuple[str, float, float]] = []  # name, width, height
    boxes: list[tuple[float, float, float, float]] = []  # x, y, width, height of each, in the scene

    def recording(parts, x, y, w, h, colour, background, rotate=0.0):
        drawn.append((names[id(parts)], w, h))
        boxes.append((x, y, w, h))
        return draw_symbol(parts, x, y, w, h, colour, background, rotate)

    monkeypatch.setattr(compose_module, "draw_symbol", recording)
    return drawn, boxes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_aid_shows_every_icon_at_5_mm_or_more_with_its_words(monkeypatch, every_set, paper):
    drawn, boxes = _drawn_symbols(monkeypatch, every_set.lib)
    size = every_set.lib.papers[paper]
    sheet = next(s for s in every_set.db.sheets if s.id == "aid")
    scene = every_set.composer.page(sheet.layout, size.width, size.height, sheet.place,
                                    {"sheet": {"id": "aid", "name": sheet.name}, "sets": [{"id": "base", "name": "Base set"}]})
    assert scene is not None and not every_set.composer.problems.items, every_set.composer.problems.format()
    icons = {name: min(w, h) for name, w, h in drawn}
    assert set(icons) == {*RESTRICTIONS, *TRIGGERS, *(KIND_PICTURES[k] for k in KINDS)}
    assert min(icons.values()) >= 5.0
    words = " ".join(r.text for r in scene.items if isinstance(r, TextRun))
    for said in ("MUST be played at the loupe", "CAN'T be played at the loupe", "MUST be played at your own",
                 "CAN'T be played at your own", "When murdered", "When a card is played here",
                 *(k.capitalize() for k in KINDS), "Your turn", "The review", "Traitor variant"):
        assert said in words, said


def test_each_action_card_shows_its_kind_shape_and_restriction_icon(monkeypatch, every_set):
    drawn, boxes = _drawn_symbols(monkeypatch, every_set.lib)
    composer = every_set.composer
    comp = every_set.db.components["actions"]
    layout = composer._prepare(comp.face, comp.place)
    for number, card in enumerate(comp.cards, 1):
        del drawn[:], boxes[:]
        composer.scene(layout, composer._card_ctx(comp, card, number, comp.printed, 0), card.id)
        names = [n for n, w, h in drawn if min(w, h) >= 5.0]
        # in the band, large above the effect, and turned at the foot
        assert names.count(KIND_PICTURES[card['kind']]) == 3, card.id
        expected = 0 if card["restriction"] == "none" else 3  # the corner, beside its words, turned
        assert names.count(card["restriction"]) == expected, card.id
        assert set(names) <= {KIND_PICTURES[card['kind']], card["restriction"]}, card.id


def test_each_suspect_shows_its_trigger_icon(monkeypatch, every_set):
    drawn, boxes = _drawn_symbols(monkeypatch, every_set.lib)
    composer = every_set.composer
    comp = every_set.db.components["suspects"]
    layout = composer._prepare(comp.face, comp.place)
    triggers = set()
    for number, card in enumerate(comp.cards, 1):
        del drawn[:], boxes[:]
        composer.scene(layout, composer._card_ctx(comp, card, number, comp.printed, 0), card.id)
        trigger = f"on_{card['power']['trigger']}"
        assert (trigger, 9, 9) in drawn and (trigger, 6, 6) in drawn, card.id  # by the power, and in the top corner
        assert (card["portrait"], 30, 31) in drawn, card.id
        triggers.add(card["power"]["trigger"])
    assert triggers == {"death", "play"}


def _at_5mm(lib, name):
    scene = Scene(5, 5, items=draw_symbol(lib.symbols[name], 0, 0, 5, 5, "#000000", "#FFFFFF"))
    return png.render(scene, 300).convert("L")


@pytest.mark.parametrize("group", [RESTRICTIONS, TRIGGERS, tuple(KIND_PICTURES[k] for k in KINDS)])
def test_icons_of_a_group_differ_in_shape_at_5_mm(every_set, group):
    """In black on white, so no colour helps: any two differ in at least a quarter of their ink."""
    images = {name: _at_5mm(every_set.lib, name) for name in group}
    for a, b in itertools.combinations(group, 2):
        ink_a = 255 - ImageStat.Stat(images[a]).mean[0]
        differs = ImageStat.Stat(ImageChops.difference(images[a], images[b])).mean[0]
        assert differs >= 0.25 * ink_a, (a, b, differs, ink_a)


AGREE_DPI = 127  # 5 px a mm: a 69 x 94 mm card with its bleed is a whole number of pixels in both backends


AGREE_DPI = 300
AGREE_BLUR = 3  # px at 300 dpi (0.25 mm): the backends' edges may lie half a pixel apart, the shapes may not


@pytest.mark.parametrize("card_id", ["letter_opener", "family_lawyer", "filing_mixup", "wrong_turning",
                                     "dorian_fitch", "marguerite_lowe", "traitor"])
def test_pdf_and_png_draw_the_icons_alike(monkeypatch, every_set, tmp_path, card_id):
    """Each icon's box (1 mm around it), rasterised from the PDF and drawn by the PNG backend."""
    drawn, boxes = _drawn_symbols(monkeypatch, every_set.lib)
    composer = every_set.composer
    card = next(c for comp in every_set.db.components.values() for c in comp.cards if c.id == card_id)
    comp = every_set.db.components[card.component]
    scene = composer.scene(composer._prepare(comp.face, comp.place),
                           composer._card_ctx(comp, card, 1, comp.printed, 0), card_id)
    scenes_to_pdf([scene], tmp_path / "one.pdf")
    pdf = pdfium.PdfDocument(str(tmp_path / "one.pdf"))
    from_pdf = pdf[0].render(scale=AGREE_DPI / 72).to_pil().convert("RGB")
    pdf.close()
    from_png = png.render(scene, AGREE_DPI)
    assert boxes  # the Traitor has its mask only; others an icon or two besides
    for (name, _, _), (x, y, w, h) in zip(drawn, boxes, strict=True):
        box = tuple(round(v * AGREE_DPI / 25.4) for v in (x - 1, y - 1, x + w + 1, y + h + 1))
        a, b = from_pdf.crop(box), from_png.crop(box)
        got = sum(ImageStat.Stat(ImageChops.difference(a.filter(ImageFilter.GaussianBlur(AGREE_BLUR)),
                                                       b.filter(ImageFilter.GaussianBlur(AGREE_BLUR)))).rms) / 3
        if got > RMS_TOLERANCE:
            FAILED.mkdir(exist_ok=True)
            a.save(FAILED / f"hasty-{card_id}-{name}-expected.png")
            b.save(FAILED / f"hasty-{card_id}-{name}-actual.png")
        assert got <= RMS_TOLERANCE, f"{card_id}, {name}: RMS {got:.2f} > {RMS_TOLERANCE}; images in {FAILED}"


def test_the_tracker_lays_the_rows_the_engine_plays(every_set):
    layout = every_set.lib.layout("hasty/tracker", Problems(), every_set.db.place)
    assert layout is not None
    assert list(layout.vars["row_size"]) == [ROW_SIZE[n] for n in range(2, 8)]
    assert layout.vars["traitor_extra"] == TRAITOR_ROW_EXTRA


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_tracker_and_aid_are_printed(built, paper):
    texts = page_texts(built["advanced"] / f"hasty-{paper}.pdf")
    tracker = next(t for t in texts if "elimination tracker" in t)
    assert "Who went out" in tracker and "Game 6" in tracker and "Traitor variant" in tracker
    assert " ".join(["5", "5", "6", "7", "8", "9"]) in " ".join(tracker.split())  # suspects in the row, 2-7 players
    assert any("player aid" in t and "CAN'T be played at your own suspect" in t for t in texts)


@pytest.mark.parametrize(("paper", "ink_saver"), [("a4", False), ("letter", False), ("letter", True)])
def test_all_text_is_6_pt_or_more_on_every_card_and_sheet(paper, ink_saver):
    composed = _compose(["all"], paper, ink_saver)  # a game text under 6 pt would have been a problem
    scenes = [f.face for group in composed.faces.values() for f in group] + [s for _, s in composed.pages[paper]]
    sizes = [run.size for scene in scenes for run in scene.items if isinstance(run, TextRun)]
    assert sizes and min(sizes) >= 6.0


def test_backs_hide_the_card(every_set):
    """A deck's backs are one scene, so nothing on a back tells one card from another."""
    for cid in ("actions", "suspects"):
        assert len({f.back_key for f in every_set.faces[cid]}) == 1, cid


def test_a_kind_shows_in_greyscale_by_shape_not_by_colour_alone(every_set):
    """Two action faces of different kinds, seen in greyscale, still differ where the kind's shape is."""
    faces = {f.card["kind"]: f.face for f in every_set.faces["actions"] if f.card["restriction"] == "none"}
    band = (5 + 3, 4.7 + 3, 13 + 3, 12.7 + 3)  # the kind shape's box in the band, bleed included, mm
    crops = {}
    for kind, scene in faces.items():
        image = png.render(scene, 150).convert("L")
        px = [round(v * 150 / 25.4) for v in band]
        crop = image.crop(tuple(px))
        # stretch to black-and-white so only the shape, not the band's grey, is compared
        lo, hi = crop.getextrema()
        crops[kind] = crop.point(lambda v, lo=lo, hi=hi: 255 if v > (lo + hi) / 2 else 0)
    assert set(crops) == set(KINDS)
    for a, b in itertools.combinations(KINDS, 2):
        assert ImageStat.Stat(ImageChops.difference(crops[a], crops[b])).mean[0] > 20, (a, b)


def test_a_card_image_has_bleed_and_the_safe_zone_holds_the_text(every_set):
    """Every text run on a face starts at least 3 mm inside the trim (the safe zone)."""
    for group in every_set.faces.values():
        for face in group[:1] + group[-1:]:
            scene = face.face
            b = scene.bleed
            for run in scene.items:
                if isinstance(run, TextRun) and not run.angle:
                    assert run.x >= b + 3.0 - 1e-6, (face.card.id, run.text)
                    assert run.y <= scene.height - b - 3.0 + 1e-6, (face.card.id, run.text)
            assert Image is not None


def test_every_kind_has_a_colour_an_ink_and_a_shape(every_set):
    kinds = every_set.lib.layout("hasty/kinds", Problems(), every_set.db.place).vars["kinds"]
    declared = every_set.db.components["actions"].fields["kind"]["values"]
    assert list(kinds) == list(declared) == list(KINDS)
    assert len({k["colour"] for k in kinds.values()}) == len(KINDS)
    assert all(kinds[k]["picture"] in every_set.lib.symbols for k in KINDS)
    assert len({k["picture"] for k in kinds.values()}) == len(KINDS)
    from casebook.generator.legibility import contrast

    for kind, look in kinds.items():  # the kind's word on its band
        assert contrast(look["colour"], look["ink"]) >= 3.0, kind
