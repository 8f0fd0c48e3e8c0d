"""Images in layouts: the Gallery test game (tests/data/artgame/) shows a PNG with transparency,
a camera JPEG stored on its side and an SVG, fitted by contain, cover and stretch.

Each file is embedded once in the PDF at its own resolution, drawn the same by both
backends, confined to the game's folder, and refused with its place when it cannot be used.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from casebook.cli import main
from casebook.generator import images
from casebook.generator.backends import imagefiles, png
from casebook.generator.backends.pdf import scenes_to_pdf
from casebook.generator.build import BuildOptions, compose_game
from casebook.generator.scene import Picture, Scene
from casebook.rules.problems import Problems
from tests.generator.test_render_agree import RMS_TOLERANCE, render_both, rms

ROOT = Path(__file__).resolve().parents[2]
ART = ROOT / "tests" / "data" / "artgame"
PAPER = (0xFB, 0xF7, 0xEE)  # the face's background


def build(game: Path, out: Path) -> tuple[int, str]:
    """Build the Gallery game through the command: (exit code, what it printed on stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["build", "gallery", "--cards", str(game / "cards"), "--layouts", str(game / "layouts"),
                     "--out", str(out), "--paper", "a4"])
    return code, err.getvalue()


def counts(err: str) -> tuple[int, int]:
    found = re.search(r"\((\d+) scenes composed, (\d+) unchanged since the last build\)", err)
    assert found, err
    return int(found.group(1)), int(found.group(2))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    shutil.copytree(ART, tmp_path / "art")
    return tmp_path / "art"


def deck(game: Path) -> Path:
    return game / "cards" / "gallery" / "deck.yaml"


def image_objects(pdf: Path) -> list[bytes]:
    """The dictionaries of the PDF's image XObjects (ReportLab writes objects uncompressed, streams aside)."""
    data = pdf.read_bytes()
    return [m.group(0) for m in re.finditer(rb"<<[^<>]*(?:<<[^<>]*>>[^<>]*)*/Subtype /Image[^<>]*>>", data)]


# --- fitting -----------------------------------------------------------------------------


def test_contain_fits_the_whole_image_and_shares_the_room_as_focus_says():
    assert images.fit(200, 100, (10, 20, 40, 40), "contain") == (10, 30, 40, 20)
    assert images.fit(200, 100, (10, 20, 40, 40), "contain", (0.5, 0.0)) == (10, 20, 40, 20)
    assert images.fit(100, 200, (0, 0, 40, 40), "contain", (1.0, 0.5)) == (20, 0, 20, 40)


def test_cover_fills_the_box_and_keeps_the_focus_in_view_as_far_as_the_box_allows():
    # 2:1 into a square: 80 x 40 high, centred: 20 mm cut from each side
    assert images.fit(200, 100, (0, 0, 40, 40), "cover") == (-20, 0, 80, 40)
    # the point a quarter across is brought to the centre: (20 - 0.25 * 80) = 0, the left edge
    assert images.fit(200, 100, (0, 0, 40, 40), "cover", (0.25, 0.5)) == (0, 0, 80, 40)
    # a focus at the far left cannot pull the image's edge into the box
    assert images.fit(200, 100, (0, 0, 40, 40), "cover", (0.0, 0.5)) == (0, 0, 80, 40)
    assert images.fit(200, 100, (0, 0, 40, 40), "cover", (1.0, 0.5)) == (-40, 0, 80, 40)
    assert images.fit(100, 300, (5, 5, 30, 30), "cover", (0.5, 0.3))[1] == pytest.approx(5 + 15 - 0.3 * 90)


def test_stretch_is_the_box():
    assert images.fit(200, 100, (1, 2, 3, 4), "stretch") == (1, 2, 3, 4)


# --- building ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory):
    problems = Problems()
    opts = BuildOptions(papers=("a4",), cards_dir=ART / "cards", layouts_dir=ART / "layouts")
    composed = compose_game("gallery", opts, problems)
    assert composed is not None, problems.format()
    assert not problems.items, problems.format()
    return composed


def face(gallery, card_id: str):
    return next(f for f in gallery.faces["deck"] if f.card.id == card_id)


def pictures(scene) -> list[Picture]:
    return [i for i in scene.items if isinstance(i, Picture)]


def test_the_scene_holds_the_fitted_picture_in_mm(gallery):
    contain = pictures(face(gallery, "moth_contain").face)
    assert len(contain) == 1
    pic = contain[0]
    bleed = 3.0
    # 120 x 80 pixels contained in the 51 x 50 mm box at (6, 6): 51 x 34 mm, centred down
    assert (pic.x, pic.w, pic.h) == pytest.approx((6 + bleed, 51, 34))
    assert pic.y == pytest.approx(6 + bleed + 8)
    assert pic.kind == "raster" and pic.clip == (6 + bleed, 6 + bleed, 51, 50) and pic.radius == 3  # rounded box
    cover = pictures(face(gallery, "moth_cover").face)[0]
    assert (cover.w, cover.h) == pytest.approx((75, 50)) and cover.x == pytest.approx(6 + bleed - 12)
    # the camera's JPEG is stored 60 x 90 on its side: seen 90 x 60, so it covers as a landscape picture
    lamp = pictures(face(gallery, "lamp_cover").face)[0]
    assert (lamp.w, lamp.h) == pytest.approx((75, 50))
    svg = pictures(face(gallery, "frame_stretch").face)[0]
    assert svg.kind == "svg" and (svg.w, svg.h) == pytest.approx((51, 50))


def test_png_backend_keeps_transparency_orientation_and_the_rounded_clip(gallery):
    dpi = 100
    k = dpi / 25.4

    def at(img: Image.Image, x: float, y: float) -> tuple[int, ...]:
        return img.getpixel((round(x * k), round(y * k)))[:3]

    moth = png.render(face(gallery, "moth_contain").face, dpi)
    # the transparent hole in the middle of the moth shows the card's paper
    assert at(moth, 3 + 6 + 25.5, 3 + 6 + 25) == PAPER
    # red on the left, blue on the right, the yellow mark in the picture's top-left corner
    assert at(moth, 3 + 6 + 10, 3 + 6 + 25)[0] > 180 and at(moth, 3 + 6 + 45, 3 + 6 + 20)[2] > 180
    assert at(moth, 3 + 6 + 2, 3 + 6 + 8 + 2) == pytest.approx((250, 210, 0), abs=12)
    lamp = png.render(face(gallery, "lamp_cover").face, dpi)
    # stored: red square top-left, blue band at the bottom; seen upright: red top-right, blue on the left
    r, g, b = at(lamp, 3 + 6 + 48, 3 + 6 + 5)
    assert r > 150 and g < 80 and b < 80
    r, g, b = at(lamp, 3 + 6 + 3, 3 + 6 + 40)
    assert b > 120 and r < 80
    # the rounded clip: the box's very corner is paper, a little inside it is the picture
    cover = png.render(face(gallery, "moth_cover").face, dpi)
    assert at(cover, 3 + 6 + 0.3, 3 + 6 + 0.3) == PAPER
    assert at(cover, 3 + 6 + 3, 3 + 6 + 3) != PAPER


def test_each_file_is_embedded_once_at_its_own_resolution(game, tmp_path):
    code, err = build(game, tmp_path / "out")
    assert code == 0, err
    pdf = tmp_path / "out" / "gallery" / "gallery-a4.pdf"
    objects = image_objects(pdf)
    # moth.png (its pixels and its alpha as a soft mask) and lamp.jpg; the SVG is vector, not an image
    assert len(objects) == 3, objects
    assert sum(b"/Width 120 /Height 80" in o or (b"/Height 80" in o and b"/Width 120" in o) for o in objects) == 2
    jpeg = [o for o in objects if b"DCTDecode" in o]
    assert len(jpeg) == 1 and b"/Width 60" in jpeg[0] and b"/Height 90" in jpeg[0]  # as stored, turned when placed
    data = pdf.read_bytes()
    assert (game / "cards" / "gallery" / "art" / "lamp.jpg").read_bytes() in data  # the camera's own bytes
    assert data.count(b"/Subtype /Form") >= 1 and b"/ExtGState" in data  # the SVG, with its transparency
    assert b"Helvetica" not in data  # no font the file names without embedding it


def test_a_deck_of_50_sharing_one_picture_embeds_it_once(game, tmp_path):
    rows = "\n".join(f"  - {{id: card_{i}, name: Card {i}, suit: ink, art: art/lamp.jpg, fit: cover}}" for i in range(50))
    deck(game).write_text("cards:\n" + rows + "\n", encoding="utf-8")
    game_yaml = game / "cards" / "gallery" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("count: 4", "count: 50"), encoding="utf-8")
    code, err = build(game, tmp_path / "out")
    assert code == 0, err
    pdf = tmp_path / "out" / "gallery" / "gallery-a4.pdf"
    assert len(image_objects(pdf)) == 1
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        pages = len(doc)
        shown = sum(1 for i in range(pages) for obj in doc[i].get_objects(max_depth=3)
                    if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE)
    finally:
        doc.close()
    assert shown == 50  # placed on every card (6 face pages of 9), one object behind them
    assert pdf.stat().st_size < 120_000


def test_editing_a_picture_recomposes_only_the_cards_that_show_it(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    code, err = build(game, out)
    assert code == 0, err
    assert counts(err) == (5, 0)  # four faces and the back
    first = (out / "gallery" / "gallery-a4.pdf").read_bytes()
    # the moth's pixels, deflated by the first build, are taken from the cache (the store's keys are digests,
    # so the test asks the build not to read the pixels at all): the same bytes
    imagefiles._stream_bytes.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(imagefiles, "pixels", lambda *a: pytest.fail("the kept pixels were read from the file again"))
        code, err = build(game, out)
    assert code == 0, err
    assert counts(err) == (0, 5)
    assert (out / "gallery" / "gallery-a4.pdf").read_bytes() == first
    art = game / "cards" / "gallery" / "art" / "moth.png"
    img = Image.open(art).convert("RGBA")
    ImageDraw.Draw(img).rectangle((0, 0, 19, 19), fill=(0, 160, 0, 255))
    img.save(art)
    code, err = build(game, out)
    assert code == 0, err
    assert counts(err) == (2, 3)  # the two moth cards
    assert (out / "gallery" / "gallery-a4.pdf").read_bytes() != first
    cold = tmp_path / "cold"
    assert build(game, cold)[0] == 0
    assert (out / "gallery" / "gallery-a4.pdf").read_bytes() == (cold / "gallery" / "gallery-a4.pdf").read_bytes()


# --- refused, with the place --------------------------------------------------------------


def set_art(game: Path, card_id: str, art: str) -> None:
    text = deck(game).read_text(encoding="utf-8")
    text, n = re.subn(rf"(id: {card_id},.*?art: )[^,]+,", rf"\g<1>{art},", text)
    assert n == 1
    deck(game).write_text(text, encoding="utf-8")


def refused(game: Path, tmp_path: Path) -> str:
    out = tmp_path / "refused-out"
    code, err = build(game, out)
    assert code != 0, err
    assert "Traceback" not in err
    assert not (out / "gallery" / "gallery-a4.pdf").exists()
    return err


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


@pytest.mark.parametrize("art, why", [
    ('"../game.yaml.png"', "leads outside the game's folder"),
    ("/etc/hostname.png", "is an absolute path"),
    ("art/missing.png", "no image 'art/missing.png'"),
    ("art/notes.txt", "is not a PNG, JPEG or SVG file"),
])
def test_a_bad_path_in_a_card_is_refused_at_the_cards_line(game, tmp_path, art, why):
    set_art(game, "moth_cover", art)
    (game / "cards" / "gallery" / "art" / "notes.txt").write_text("not a picture", encoding="utf-8")
    err = refused(game, tmp_path)
    line = line_of(deck(game), "id: moth_cover")
    assert f"deck.yaml:{line}:" in err and "card 'moth_cover'" in err and why in err, err
    assert "face.yaml" in err  # and where the layout takes the path from


def test_a_link_leading_outside_the_folder_is_refused(game, tmp_path):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (4, 4)).save(secret)
    (game / "cards" / "gallery" / "art" / "link.png").symlink_to(secret)
    set_art(game, "moth_cover", "art/link.png")
    err = refused(game, tmp_path)
    assert "is a link leading outside the game's folder" in err and "card 'moth_cover'" in err, err


def test_a_bad_literal_src_is_refused_once_at_the_layouts_line(game, tmp_path):
    back = game / "layouts" / "gallery" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8").replace("art/frame.svg", "../../outside.svg"), encoding="utf-8")
    err = refused(game, tmp_path)
    assert err.count("leads outside the game's folder") == 1, err
    assert f"back.yaml:{line_of(back, 'outside.svg')}:" in err


def test_damaged_files_are_refused_with_what_is_wrong(game, tmp_path):
    folder = game / "cards" / "gallery" / "art"
    good = (folder / "moth.png").read_bytes()
    (folder / "moth.png").write_bytes(good[: len(good) // 2])  # cut short
    (folder / "lamp.jpg").write_bytes(b"this is not a jpeg at all")
    (folder / "frame.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'></svg>", encoding="utf-8")
    err = refused(game, tmp_path)
    assert "'art/moth.png' is damaged" in err, err
    assert ("'art/lamp.jpg' is not a picture this tool can read (PNG, JPEG or SVG); open it in an image editor "
            "and save it again as PNG or JPEG") in err, err
    assert "Pillow" not in err and "svglib" not in err, err
    assert "'art/frame.svg' has no size" in err, err
    assert "card 'moth_contain'" in err and "card 'lamp_cover'" in err and "card 'frame_stretch'" in err


def test_an_svg_may_not_take_images_from_outside_the_folder(game, tmp_path):
    Image.new("RGB", (4, 4), (255, 0, 0)).save(tmp_path / "secret.png")
    svg = game / "cards" / "gallery" / "art" / "frame.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                   'width="10" height="10"><image x="0" y="0" width="10" height="10" '
                   'xlink:href="../../../../secret.png"/></svg>', encoding="utf-8")
    err = refused(game, tmp_path)
    assert "Refusing out-of-root reference" in err and "art/frame.svg" in err, err


def test_files_too_large_are_refused_quickly(game, tmp_path):
    folder = game / "cards" / "gallery" / "art"
    with open(folder / "moth.png", "r+b") as f:  # sparse: 60 MB that take no room
        f.truncate(60 * 2**20)
    Image.new("1", (11_000, 10_000)).save(folder / "lamp.png")  # 110 megapixels in a small file
    set_art(game, "lamp_cover", "art/lamp.png")
    started = time.perf_counter()
    err = refused(game, tmp_path)
    took = time.perf_counter() - started
    assert "'art/moth.png' is 63 MB, over the 50 MB an image may have" in err, err
    assert "has 11000 x 10000 pixels, over the 100 megapixels" in err, err
    assert took < 30  # not a timing test: a bound that decoding 110 megapixels per card would blow


def test_layout_keys_are_checked(game, tmp_path):
    face_yaml = game / "layouts" / "gallery" / "face.yaml"
    text = face_yaml.read_text(encoding="utf-8").replace("focus: [0.5, 0.5]", "focus: [0.5, 2]")
    face_yaml.write_text(text, encoding="utf-8")
    err = refused(game, tmp_path)
    assert f"face.yaml:{line_of(face_yaml, 'focus:')}:" in err and "focus must be [across, down]" in err, err
    face_yaml.write_text(text.replace("focus: [0.5, 2]", "fit: fill").replace('fit: "{{ card.fit }}"', ""),
                         encoding="utf-8")
    err = refused(game, tmp_path)
    assert "fit 'fill' is not known" in err and "contain or cover or stretch" in err, err
    face_yaml.write_text(text.replace("focus: [0.5, 2]", "").replace("h: 50\n    fit", "h: 0\n    fit"), encoding="utf-8")
    err = refused(game, tmp_path)
    assert "image 'art' has a box 51 x 0 mm" in err, err


# --- every kind of raster file, drawn alike by both backends --------------------------------


def _art(mode: str) -> Image.Image:
    """A 360 x 240 picture with a mark in its top-left corner, in the given Pillow mode."""
    img = Image.new("RGBA", (360, 240), (40, 90, 200, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 179, 239), fill=(220, 60, 30, 255))
    draw.rectangle((0, 0, 59, 59), fill=(250, 220, 0, 255))
    draw.ellipse((200, 60, 320, 180), fill=(0, 0, 0, 0))
    if mode == "RGBA":
        return img
    flat = Image.new("RGB", img.size, PAPER)
    flat.paste(img, mask=img.getchannel("A"))
    if mode == "I;16":  # 16-bit grey, each 8-bit level stretched to 16
        return flat.convert("L").convert("I").point(lambda v: v * 257).convert("I;16")
    return flat.convert(mode, palette=Image.Palette.ADAPTIVE) if mode == "P" else flat.convert(mode)


@pytest.mark.parametrize("kind, embedded", [
    ("rgb.png", "its own rows"), ("grey.png", "its own rows"), ("interlaced.png", "pixels"),
    ("palette.png", "pixels"), ("keyed.png", "pixels and mask"), ("rgba.png", "pixels and mask"),
    ("sixteen.png", "pixels"), ("photo.jpg", "its own bytes"), ("grey.jpg", "its own bytes"),
    ("cmyk.jpg", "pixels"),
])
def test_every_kind_of_raster_file_is_drawn_alike_by_both_backends(tmp_path, kind, embedded):
    path = tmp_path / kind
    {
        "rgb.png": lambda: _art("RGB").save(path),
        "grey.png": lambda: _art("L").save(path),
        "interlaced.png": lambda: _art("RGB").save(path, interlace=1),
        "palette.png": lambda: _art("P").save(path),
        "keyed.png": lambda: _art("RGB").save(path, transparency=(40, 90, 200)),
        "rgba.png": lambda: _art("RGBA").save(path),
        "sixteen.png": lambda: _art("I;16").save(path),
        "photo.jpg": lambda: _art("RGB").save(path, quality=95),
        "grey.jpg": lambda: _art("L").save(path, quality=95),
        "cmyk.jpg": lambda: _art("CMYK").save(path, quality=95),
    }[kind]()
    found = images.load(tmp_path, kind)
    assert (found.kind, found.width, found.height) == ("raster", 360, 240)
    mm = 25.4 / 150  # the box on whole pixels at the compared 150 dpi: PDFium widens an image to them
    box = (30 * mm, 30 * mm, 240 * mm, 160 * mm)
    scene = Scene(50, 40)
    scene.add(Picture(*box, found.path, found.digest, found.kind, found.root, box if "keyed" in kind else None))
    from_pdf, from_png = render_both(scene, tmp_path)
    w, h = min(from_pdf.width, from_png.width), min(from_pdf.height, from_png.height)
    from_pdf, from_png = from_pdf.crop((0, 0, w, h)), from_png.crop((0, 0, w, h))
    assert rms(from_pdf, from_png) <= RMS_TOLERANCE, kind
    # the picture is the right way round, in both: the mark's corner, the red half and the blue half
    source = _art("L" if "grey" in kind or "sixteen" in kind else "P" if "palette" in kind else "RGB")
    for x, y in ((7, 7), (20, 25)) if "keyed" in kind else ((7, 7), (20, 25), (42, 8)):
        want = source.convert("RGB").getpixel((round((x / mm - 30) * 1.5), round((y / mm - 30) * 1.5)))
        for img in (from_pdf, from_png):
            got = img.getpixel((round(x / mm), round(y / mm)))[:3]
            assert max(abs(g - w) for g, w in zip(got, want, strict=True)) <= 12, (kind, (x, y), got, want)
    pdf = (tmp_path / "one.pdf").read_bytes()
    objects = image_objects(tmp_path / "one.pdf")
    assert len(objects) == (2 if "mask" in embedded else 1), objects
    if embedded == "its own bytes":
        assert path.read_bytes() in pdf
    if embedded == "its own rows":
        assert b"/Predictor 15" in pdf
    if "keyed" in kind:  # the colour key made transparent: the paper shows through the blue
        k = from_png.width / 50
        assert from_png.getpixel((round(42 * k), round(8 * k)))[:3] == (255, 255, 255)


def test_a_picture_saved_again_while_the_build_draws_it_stops_the_build_with_a_message(game, tmp_path, monkeypatch):
    from casebook.generator import build as build_module

    compose = build_module.compose_game

    def compose_then_edit(*args, **kwargs):
        composed = compose(*args, **kwargs)
        art = game / "cards" / "gallery" / "art" / "moth.png"
        art.write_bytes(art.read_bytes() + b"\0")  # saved again by the designer's editor, mid-build
        return composed

    monkeypatch.setattr(build_module, "compose_game", compose_then_edit)
    code, err = build(game, tmp_path / "out")
    assert code == 1 and "Traceback" not in err
    assert "moth.png changed during the build: build again" in err, err
    assert not (tmp_path / "out" / "gallery" / "gallery-a4.pdf").exists()


def test_text_in_an_svg_is_set_in_embedded_vera_on_every_machine(tmp_path):
    """svglib would look for the SVG's family on this machine (fc-match) or name Helvetica without embedding it."""
    import pypdfium2 as pdfium

    found = images.load(ART / "cards" / "gallery", "art/frame.svg")  # its ART is Georgia, bold
    scene = Scene(60, 40)
    scene.add(Picture(5, 5, 50, 30, found.path, found.digest, found.kind, found.root))
    path = tmp_path / "svg.pdf"
    scenes_to_pdf([scene], path)
    data = path.read_bytes()
    assert b"Helvetica" not in data and b"Georgia" not in data
    assert re.findall(rb"/BaseFont /\w+\+(\S+)", data) == [b"BitstreamVeraSans-Bold"]
    doc = pdfium.PdfDocument(str(path))
    try:
        textpage = doc[0].get_textpage()
        assert textpage.get_text_range().strip() == "ART"
    finally:
        doc.close()


@pytest.mark.parametrize("turned", [False, True])
def test_a_covered_svg_draws_only_what_shows_and_agrees_in_both_backends(tmp_path, turned):
    from casebook.generator.exports.transform import turn_scene
    from tests.generator.test_render_agree import assert_agree

    found = images.load(ART / "cards" / "gallery", "art/frame.svg")  # 100 x 60: a wide picture in a tall box
    box = (10.0, 5.0, 30.0, 40.0)
    placed = images.fit(found.width, found.height, box, "cover", (0.2, 0.5))
    assert placed[2] > 2 * box[2]  # most of it overflows
    scene = Scene(50, 50)
    scene.add(Picture(*placed, found.path, found.digest, found.kind, found.root, box, 2.0))
    if turned:
        scene = turn_scene(scene)
    from_png = assert_agree(f"svg-cover-{turned}", scene, tmp_path)
    # the box's far side from the focus shows the picture; outside the box is paper (white here)
    k = from_png.width / 50
    outside = (5, 25) if not turned else (45, 25)
    assert from_png.getpixel((round(outside[0] * k), round(outside[1] * k))) == (255, 255, 255)
