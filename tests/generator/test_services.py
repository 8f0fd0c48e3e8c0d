"""Print-service presets: the published pixel sizes, one file per printed copy, the fit, and data-only presets."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from casebook.cli import main
from casebook.generator.exports.services import Fit, Product, load_services
from casebook.generator.layouts import LAYOUTS_DIR
from casebook.rules.problems import Problems

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinygame"
PT = 72 / 25.4


def test_the_presets_hold_the_sizes_the_services_publish():
    services = load_services(LAYOUTS_DIR, problems := Problems())
    assert not problems, problems.format()
    # The Game Crafter and DriveThruCards: 2.5 x 3.5 in + 1/8 in bleed at 300 dpi; MakePlayingCards: 36 px bleed
    assert services["tgc"].products["poker"].image == (825, 1125)
    assert services["drivethru"].products["poker"].image == (825, 1125)
    assert services["mpc"].products["poker"].image == (822, 1122)
    assert services["tgc"].products["large"].image == (900, 1500)
    assert services["mpc"].products["large"].image == (897, 1497)
    for service in services.values():
        assert service.products["poker"].trim == (750, 1050)  # 2.5 x 3.5 in
        assert service.products["large"].trim == (825, 1425)  # 2.75 x 4.75 in


def test_the_fit_maps_our_trim_onto_theirs_and_our_bleed_covers_theirs():
    fit = Fit.of((63.0, 88.0), Product("Poker", (825, 1125), (750, 1050)))
    assert 63.0 * fit.px_per_mm >= 750 and 88.0 * fit.px_per_mm >= 1050  # covers their trim
    assert 63.0 * fit.px_per_mm - 750 < 2.0  # by under a pixel a side: the trims match
    assert (63.0 + 2 * fit.bleed) * fit.px_per_mm >= 825 and (88.0 + 2 * fit.bleed) * fit.px_per_mm >= 1125


@pytest.fixture(scope="module")
def syndicate_services(tmp_path_factory):
    out = tmp_path_factory.mktemp("services")
    assert main(["build", "syndicate", "--paper", "a4", "--out", str(out), "--service", "tgc", "--service", "mpc",
                 "--service", "drivethru"]) == 0
    return out / "syndicate"


@pytest.mark.parametrize(("service", "size"), [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_one_png_per_printed_card_at_the_services_exact_size(syndicate_services, syndicate_db, service, size):
    folder = syndicate_services / service / "decktet"
    fronts = sorted(folder.glob("front-*.png"))
    assert [f.name for f in fronts] == [f"front-{n:03d}.png" for n in range(1, 37)]
    assert (folder / "back.png").exists() and not list(folder.glob("back-*.png"))  # one back: all alike
    for path in [*fronts, folder / "back.png"]:
        with Image.open(path) as img:
            assert img.size == size, path
            assert round(img.info["dpi"][0]) == 300
    with (syndicate_services / service / "manifest.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == syndicate_db.components["decktet"].printed
    assert {r["card"] for r in rows} == {c.id for c in syndicate_db.components["decktet"].cards}


def test_the_bleed_is_the_cards_own_design_not_a_white_edge(syndicate_services):
    with Image.open(syndicate_services / "tgc" / "decktet" / "back.png") as img:
        rgb = img.convert("RGB")
        edge = [rgb.getpixel((x, y)) for x in range(0, rgb.width, 25) for y in (0, rgb.height - 1)]
        edge += [rgb.getpixel((x, y)) for y in range(0, rgb.height, 25) for x in (0, rgb.width - 1)]
    assert all(max(px) < 100 for px in edge)  # the dark ground of the back runs out to every edge


def test_drivethru_gets_one_pdf_a_deck_face_and_back_a_page_at_their_size(syndicate_services, syndicate_db):
    pdf = pdfium.PdfDocument(str(syndicate_services / "drivethru" / "decktet.pdf"))
    try:
        assert len(pdf) == 2 * syndicate_db.components["decktet"].printed
        for i in (0, 1, len(pdf) - 1):
            page = pdf[i]
            assert page.get_size() == pytest.approx((198.0, 270.0))  # 2.75 x 3.75 in
            assert page.get_trimbox() == pytest.approx((9.0, 9.0, 189.0, 261.0))  # 2.5 x 3.5 in, 1/8 in inside
            assert page.get_bleedbox() == pytest.approx((0.0, 0.0, 198.0, 270.0))
        texts = [pdf[i].get_textpage().get_text_range() for i in range(4)]
    finally:
        pdf.close()
    card = syndicate_db.components["decktet"].cards[0]
    assert card["name"] in texts[0]  # face, then its back
    assert card["name"] not in texts[1]


def test_a_service_is_data_a_new_one_needs_no_code(tmp_path):
    layouts = tmp_path / "layouts"
    shutil.copytree(TINY / "layouts", layouts)
    (layouts / "services.yaml").write_text(
        "services:\n"
        "  corner_shop:\n"
        "    name: The Corner Print Shop\n"
        "    files: png\n"
        "    dpi: 600\n"
        "    sizes:\n"
        "      poker: {product: Poker, image: [1600, 2200], trim: [1480, 2080]}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "moth", "--cards", str(TINY / "cards"), "--layouts", str(layouts), "--out", str(out),
                 "--paper", "a4", "--service", "corner_shop"]) == 0
    fronts = sorted((out / "moth" / "corner_shop" / "deck").glob("front-*.png"))
    assert len(fronts) == 6
    with Image.open(fronts[0]) as img:
        assert img.size == (1600, 2200)


def test_an_unknown_service_is_refused_before_anything_is_built(tmp_path, capsys):
    assert main(["build", "syndicate", "--out", str(tmp_path), "--service", "kinkos"]) == 2
    err = capsys.readouterr().err
    assert "kinkos" in err and "tgc" in err and "mpc" in err and "drivethru" in err
    assert not list(tmp_path.iterdir())


def test_a_broken_preset_names_its_file_and_line(tmp_path):
    (tmp_path / "services.yaml").write_text(
        "services:\n  tgc:\n    name: TGC\n    files: png\n    dpi: 300\n    sizes:\n"
        "      poker: {product: Poker, image: [825], trim: [750, 1050]}\n", encoding="utf-8")
    problems = Problems()
    assert "tgc" not in load_services(tmp_path, problems)
    text = problems.format()
    assert "services.yaml:7" in text and "poker" in text and "[825, 1125]" in text


def test_exports_leave_the_sets_pdfs_as_the_default_build_makes_them(syndicate_services, syndicate_build):
    assert (syndicate_services / "syndicate-a4.pdf").read_bytes() == (syndicate_build / "syndicate-a4.pdf").read_bytes()


def test_a_card_that_fails_at_the_services_bleed_leaves_the_previous_files(tmp_path, monkeypatch):
    from casebook.generator.build import BuildOptions, compose_game
    from casebook.generator.exports import services
    from casebook.rules.problems import Place

    opts = BuildOptions(papers=("a4",))
    composed = compose_game("syndicate", opts, Problems())
    assert composed is not None
    folder = tmp_path / "syndicate" / "mpc"
    folder.mkdir(parents=True)
    (folder / "front-001.png").write_bytes(b"the previous upload")

    class FailingComposer:
        def __init__(self, lib, db, problems, **kwargs):
            self.problems = problems

        def faces(self, component):
            self.problems.add(Place("layouts/syndicate/decktet-face.yaml", 3), "text does not fit at 3.3 mm bleed")
            return []

    monkeypatch.setattr(services, "Composer", FailingComposer)
    problems = Problems()
    assert services.write_services(composed, ("mpc",), tmp_path / "syndicate", opts, problems, []) == []
    assert "does not fit" in problems.format()
    assert [p.name for p in folder.iterdir()] == ["front-001.png"]
    assert (folder / "front-001.png").read_bytes() == b"the previous upload"
    assert sorted(p.name for p in folder.parent.iterdir()) == ["mpc"]  # no temporary folder left behind
