"""The PDF and PNG backends draw the same scene: rasterised PDF vs Pillow within a tolerance.

On failure the images are left in tests/_failed/ (expected, actual, diff) to look at.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from casebook.generator.backends import png
from casebook.generator.backends.pdf import scenes_to_pdf
from casebook.generator.build import BuildOptions, compose_game
from casebook.rules.problems import Problems

FAILED = Path(__file__).resolve().parent.parent / "_failed"
DPI = 150
RMS_TOLERANCE = 7.0  # of 255, mean over channels, after the blur below
# PDFium and FreeType anti-alias and hint glyph edges differently; a light blur compares
# what is drawn where (shapes, text, colours) rather than how each rasteriser shades an edge.
BLUR = 1.5


def render_both(scene, tmp_path: Path) -> tuple[Image.Image, Image.Image]:
    """One scene drawn by both backends at DPI: (the PDF rasterised by pdfium, the PNG backend's)."""
    pdf_path = tmp_path / "one.pdf"
    scenes_to_pdf([scene], pdf_path)
    doc = pdfium.PdfDocument(str(pdf_path))
    from_pdf = doc[0].render(scale=DPI / 72).to_pil().convert("RGB")
    doc.close()
    return from_pdf, png.render(scene, DPI)


def rms(a: Image.Image, b: Image.Image) -> float:
    a, b = a.filter(ImageFilter.GaussianBlur(BLUR)), b.filter(ImageFilter.GaussianBlur(BLUR))
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).rms) / 3


@pytest.fixture(scope="module")
def composed():
    problems = Problems()
    result = compose_game("graves", BuildOptions(papers=("a4",)), problems)
    assert result is not None, problems.format()
    return result


def _pick(composed):
    faces = composed.faces
    return {
        "detective-ability": faces["detective"][1].face,
        "mastermind-ace": faces["mastermind"][8].face,
        "location": faces["locations"][1].face,
        "evidence": faces["evidence"][0].face,
        "identity-back": faces["identities"][0].back,
        "detective-back": faces["detective"][0].back,  # a lattice running off the card
        "mastermind-back": faces["mastermind"][0].back,
        "trump-token": faces["trump_tokens"][0].face,
    }


@pytest.mark.parametrize("name", ["detective-ability", "mastermind-ace", "location", "evidence", "identity-back",
                                  "detective-back", "mastermind-back", "trump-token"])
def test_pdf_and_png_agree(composed, name, tmp_path):
    assert_agree(name, _pick(composed)[name], tmp_path)


def assert_agree(name: str, scene, tmp_path: Path) -> Image.Image:
    """Both backends draw the scene alike (images left in tests/_failed/ if not); returns the PNG backend's."""
    from_pdf, from_png = render_both(scene, tmp_path)
    w, h = min(from_pdf.width, from_png.width), min(from_pdf.height, from_png.height)
    assert abs(from_pdf.width - from_png.width) <= 1 and abs(from_pdf.height - from_png.height) <= 1
    a, b = from_pdf.crop((0, 0, w, h)), from_png.crop((0, 0, w, h))
    diff = ImageChops.difference(a, b)
    got = rms(a, b)
    if got > RMS_TOLERANCE:
        FAILED.mkdir(exist_ok=True)
        a.save(FAILED / f"{name}-expected.png")
        b.save(FAILED / f"{name}-actual.png")
        Image.eval(diff, lambda v: min(255, v * 4)).save(FAILED / f"{name}-failed-diff.png")
    assert got <= RMS_TOLERANCE, f"{name}: RMS {got:.2f} > {RMS_TOLERANCE}; images in {FAILED}"
    return from_png


def test_a_different_scene_does_not_agree(composed):
    """The comparison can fail: two different cards are far apart."""
    picks = _pick(composed)
    a, b = png.render(picks["detective-ability"], DPI), png.render(picks["mastermind-ace"], DPI)
    assert rms(a, b) > RMS_TOLERANCE * 2
    # and a small shift of the same card (1 mm) is caught too
    from casebook.generator.scene import Scene

    scene = picks["detective-ability"]
    moved = Scene(scene.width, scene.height, scene.bleed,
                  [type(i)(**{**i.__dict__, "x": i.x + 1.0}) if hasattr(i, "x") and hasattr(i, "text") else i
                   for i in scene.items])
    assert rms(png.render(scene, DPI), png.render(moved, DPI)) > RMS_TOLERANCE


def test_single_card_pdf_sets_trim_and_bleed_boxes(composed, tmp_path):
    scene = _pick(composed)["detective-ability"]
    path = tmp_path / "card.pdf"
    scenes_to_pdf([scene], path)
    data = path.read_bytes()
    assert b"/TrimBox" in data and b"/BleedBox" in data
    doc = pdfium.PdfDocument(str(path))
    w, h = doc[0].get_size()
    doc.close()
    assert abs(w / 72 * 25.4 - 69.0) < 0.05 and abs(h / 72 * 25.4 - 94.0) < 0.05


ART = Path(__file__).resolve().parents[1] / "data" / "artgame"


@pytest.fixture(scope="module")
def gallery():
    """The Gallery test game: a PNG with transparency, a JPEG on its side (EXIF), an SVG; contain, cover, stretch."""
    problems = Problems()
    result = compose_game("gallery", BuildOptions(papers=("a4",), cards_dir=ART / "cards", layouts_dir=ART / "layouts"),
                          problems)
    assert result is not None, problems.format()
    return result


@pytest.mark.parametrize("card", ["moth_contain", "moth_cover", "lamp_cover", "frame_stretch", "back", "turned"])
def test_pdf_and_png_agree_on_pictures(gallery, card, tmp_path):
    from casebook.generator.exports.transform import turn_scene

    faces = {f.card.id: f for f in gallery.faces["deck"]}
    scene = {"back": faces["moth_contain"].back, "turned": turn_scene(faces["lamp_cover"].face)}.get(card) \
        or faces[card].face
    from_png = assert_agree(f"picture-{card}", scene, tmp_path)
    # and the picture is there: the card is far from the same card without it
    bare = type(scene)(scene.width, scene.height, scene.bleed, [i for i in scene.items if type(i).__name__ != "Picture"])
    assert rms(png.render(bare, DPI), from_png) > RMS_TOLERANCE


FONTGAME = Path(__file__).resolve().parents[1] / "data" / "fontgame"


@pytest.mark.parametrize("side", ["face", "back"])
def test_pdf_and_png_agree_in_a_games_own_font(side, tmp_path):
    """A card set in the game's own TTFs (DejaVu Serif Book and Bold, bold by markup): both backends draw the same."""
    opts = BuildOptions(papers=("a4",))
    opts.cards_dir, opts.layouts_dir = FONTGAME / "cards", FONTGAME / "layouts"
    problems = Problems()
    quill = compose_game("quill", opts, problems)
    assert quill is not None, problems.format()
    card = quill.faces["deck"][1]  # "Add a line — **after** the signature."
    scene = card.face if side == "face" else card.back
    assert any(item.font.startswith("font:") for item in scene.items if hasattr(item, "font"))
    assert_agree(f"quill-{side}", scene, tmp_path)


def test_a_line_in_a_games_own_font_is_as_long_in_both_backends(tmp_path):
    """A long line full of kerning pairs: the PNG sets each glyph at its advance width, as the PDF does, so the
    line ends in the same pixel column (a shaper's kerning would end it over a millimetre short)."""
    from casebook.generator.backends.fonts import GameFonts
    from casebook.generator.scene import Scene, TextRun

    key = GameFonts(FONTGAME / "cards" / "quill" / "fonts").resolve("DejaVu Serif Bold")
    text = "AVAWAY To Ta Te Ty Va Vo Wa We Yo LT LY P. F, r. y. " * 2
    scene = Scene(200, 20, 0.0, [TextRun(5, 12, text, key, 9, "#000000")])
    pdf_path = tmp_path / "line.pdf"
    scenes_to_pdf([scene], pdf_path)
    doc = pdfium.PdfDocument(str(pdf_path))
    from_pdf = doc[0].render(scale=300 / 72).to_pil().convert("L")
    doc.close()
    from_png = png.render(scene, 300).convert("L")
    ends = [img.point(lambda v: 255 if v < 128 else 0).getbbox() for img in (from_pdf, from_png)]
    assert ends[0] is not None and ends[1] is not None
    assert abs(ends[0][0] - ends[1][0]) <= 1 and abs(ends[0][2] - ends[1][2]) <= 2, ends


def test_pdf_and_png_agree_on_holed_icons_over_a_striped_ground(tmp_path):
    """A vendored icon (one path of many outlines, holes among them) and a ring, over stripes: both backends
    draw the same, and through the ring's hole both show the ground (a hole is cut, not painted)."""
    from casebook.generator.layouts import load_library
    from casebook.generator.scene import Rect, Scene, Shape
    from casebook.generator.symbols import draw_symbol

    lib = load_library()
    scene = Scene(60, 30, 0.0, [Rect(0, 0, 60, 30, fill="#F3EEDF")]
                  + [Rect(0, y, 60, 5.0, fill="#D55E00") for y in range(0, 30, 10)] + [Rect(0, 0, 30, 30, fill="#0072B2")])
    ring = [Shape(((( 5.0, 5.0), (25.0, 5.0), (25.0, 25.0), (5.0, 25.0)), ((10.0, 10.0), (10.0, 20.0), (20.0, 20.0),
                                                                            (20.0, 10.0))), "#2F4A3A")]
    scene.items.extend(ring)
    icon = draw_symbol(lib.symbols["strongbox"], 31, 1, 28, 28, "#2F4A3A", "#F3EEDF")
    assert any(isinstance(item, Shape) and len(item.subpaths) > 1 for item in icon)
    scene.items.extend(icon)
    from_png = assert_agree("holed-icons", scene, tmp_path)
    from_pdf, _ = render_both(scene, tmp_path)
    k = DPI / 25.4

    def blue(img: Image.Image, x: float, y: float) -> int:
        pixel = img.getpixel((round(x * k), round(y * k)))
        assert isinstance(pixel, tuple)
        return int(pixel[2])

    for img in (from_pdf, from_png):
        assert blue(img, 15, 15) > 150, "the ring's hole shows the blue ground"
        assert blue(img, 7, 15) < 100, "the ring itself is drawn"
    # and the icon's holes matter: filled without them, the picture is far from what both backends drew
    solid = Scene(scene.width, scene.height, 0.0, [i if not isinstance(i, Shape) or i in ring
                                                   else Shape(i.subpaths[:1], i.fill) for i in scene.items])
    assert rms(png.render(solid, DPI), from_png) > 1.0
