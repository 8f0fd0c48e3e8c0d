"""A game's preview: one picture of the set laid out like a product shot (`casebook build GAME --preview`).

Composed from the game's own scenes, drawn by the PNG backend: at the top the large piece
(the board, else the largest card) and the player aid (or the game's first sheet); below, a
few faces of each deck fanned over its back; last, one of each token. About WIDTH pixels
wide, written as a palette PNG so that it stays small (under 300 KB) for a README.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from casebook.generator.build import Composed, is_board
from casebook.generator.compose import Face
from casebook.generator.files import atomic_file
from casebook.generator.scene import Scene
from casebook.rules.problems import Problems

WIDTH = 1200  # px: the picture's default width
WIDTHS = (400, 2400)  # the widths --preview-width takes
TABLE = (236, 230, 219)  # the table the set lies on
MARGIN = 0.025  # of the width: around the picture and between its parts
DECKS = 6  # at most this many decks are shown (the largest first)
FACES = 3  # faces fanned over a deck's back
COLOURS = 192  # the palette: what keeps the file small


def trimmed(scene: Scene, height_px: float, shape: str = "card") -> Image.Image:
    """The scene drawn `height_px` high at its trim (the bleed cut away), corners rounded or round."""
    trim_h = scene.height - 2 * scene.bleed
    dpi = height_px / trim_h * 25.4
    from casebook.generator.backends import png

    img = png.render(scene, dpi, supersample=2)
    cut = round(scene.bleed * dpi / 25.4)
    img = img.crop((cut, cut, img.width - cut, img.height - cut)).convert("RGBA")
    mask = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(mask)
    box = (0, 0, img.width - 1, img.height - 1)
    if shape == "round":
        draw.ellipse(box, fill=255)
    elif shape == "card":
        draw.rounded_rectangle(box, radius=max(2, round(3 * dpi / 25.4)), fill=255)
    else:
        draw.rectangle(box, fill=255)
    img.putalpha(mask)
    return img


def _lay(table: Image.Image, img: Image.Image, x: int, y: int, angle: float = 0.0) -> None:
    """Lay a piece on the table at (x, y), turned by `angle` degrees, with a soft shadow."""
    if angle:
        img = img.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    shade = max(2, min(5, img.width // 60))
    shadow = Image.new("RGBA", img.size, (60, 45, 30, 0))
    shadow.putalpha(img.getchannel("A").point(lambda a: a * 0.45))
    shadow = shadow.filter(ImageFilter.GaussianBlur(shade))
    table.alpha_composite(shadow, (x + shade, y + shade))
    table.alpha_composite(img, (x, y))


def decks_shown(composed: Composed) -> list[list[Face]]:
    """The decks to show: a component's faces (one per card design), the largest decks first."""
    decks = []
    for cid, faces in composed.faces.items():
        comp = composed.db.components[cid]
        size = composed.lib.sizes[comp.size]
        if size.round or not faces:
            continue
        distinct = list({f.card.id: f for f in faces}.values())
        decks.append((len(faces), cid, distinct))
    decks.sort(key=lambda d: -d[0])
    return [d[2] for d in decks[:DECKS]]


def tokens_shown(composed: Composed) -> list[Face]:
    return [faces[0] for cid, faces in composed.faces.items()
            if faces and composed.lib.sizes[composed.db.components[cid].size].round]


def large_piece(composed: Composed) -> tuple[Scene, str] | None:
    """The board (a sheet with a size of its own), else the largest card larger than a poker card."""
    from casebook.generator.board import board_size, compose_board

    for sheet in composed.db.sheets:
        size = board_size(composed.lib, composed.composer, sheet)
        if size is not None:
            scene = compose_board(composed.composer, sheet, size)
            if scene is not None:
                return scene, "board"
    largest = None
    for cid, faces in composed.faces.items():
        size = composed.lib.sizes[composed.db.components[cid].size]
        area = size.width * size.height
        if faces and not size.round and area > 63 * 88 + 1 and (largest is None or area > largest[0]):
            largest = (area, faces[0].face)
    return (largest[1], "card") if largest else None


def sheet_page(composed: Composed, problems: Problems) -> Scene | None:
    """The player aid's page (or the first sheet that is not a board) on the first paper built."""
    if not composed.pages:
        return None
    pages = dict(next(iter(composed.pages.values())))
    sheets = [s for s in composed.db.sheets if not is_board(composed.lib, s, problems) and s.name in pages]
    sheets.sort(key=lambda s: "aid" not in s.id)
    return pages[sheets[0].name] if sheets else None


def preview_image(composed: Composed, width: int = WIDTH) -> Image.Image:
    """The picture of the set, `width` pixels wide, as an RGB image."""
    problems = Problems()
    gap = round(width * MARGIN)
    inner = width - 2 * gap
    parts: list[Image.Image] = []
    top_h = round(width * 0.34)
    large = large_piece(composed)
    page = sheet_page(composed, problems)
    if large is not None:
        scene, kind = large
        h = top_h
        trim_w = (scene.width - 2 * scene.bleed) / (scene.height - 2 * scene.bleed) * h
        room = inner * (0.68 if page is not None else 1.0)
        if trim_w > room:  # a wide board: as wide as the room allows
            h = round(h * room / trim_w)
        parts.append(trimmed(scene, h, "card" if kind == "card" else "sheet"))
    if page is not None:
        parts.append(trimmed(page, top_h, "sheet"))
    card_h = round(width * 0.16)
    rows: list[list[Image.Image]] = []
    if parts:
        rows.append(parts)
    decks = decks_shown(composed)
    poker = 88.0  # mm: the cards are shown at their sizes' ratio to a poker card
    fans = [_fan(deck, round(card_h * min(1.3, composed.lib.sizes[deck[0].component.size].height / poker)),
                 FACES if len(decks) > 1 else 2 * FACES) for deck in decks]
    row: list[Image.Image] = []
    used = 0
    for fan in fans:
        if row and used + gap + fan.width > inner:
            rows.append(row)
            row, used = [], 0
        row.append(fan)
        used += fan.width + (gap if len(row) > 1 else 0)
    tokens = [trimmed(f.face, round(card_h * 0.42), "round") for f in tokens_shown(composed)]
    if tokens:
        row_w = sum(t.width for t in tokens) + gap // 2 * (len(tokens) - 1)
        strip = Image.new("RGBA", (row_w + gap, max(t.height for t in tokens) + gap), (0, 0, 0, 0))
        at = 0
        for t in tokens:
            _lay(strip, t, at, 0)
            at += t.width + gap // 2
        if row and used + gap + strip.width > inner:
            rows.append(row)
            row = []
        row.append(strip)
    if row:
        rows.append(row)
    height = gap + sum(max(p.height for p in r) + gap for r in rows)
    table = Image.new("RGBA", (width, height), (*TABLE, 255))
    y = gap
    for r in rows:
        total = sum(p.width for p in r)
        space: float = min((inner - total) / (len(r) - 1) if len(r) > 1 else 0.0, gap * 3.0)
        x: float = gap + max(0, (inner - total - space * (len(r) - 1)) / 2)
        tall = max(p.height for p in r)
        for p in r:
            _lay(table, p, round(x), y + (tall - p.height) // 2)
            x += p.width + space
        y += tall + gap
    return table.convert("RGB")


def _fan(deck: list[Face], card_h: int, count: int = FACES) -> Image.Image:
    """A deck's back with up to `count` of its faces fanned over it, each turned a little."""
    back = trimmed(deck[0].back, card_h)
    faces = [trimmed(f.face, card_h) for f in deck[:count]]
    step = round(back.width * 0.42)
    pad = round(card_h * 0.12)
    w = back.width + step * len(faces) + 2 * pad
    h = card_h + 2 * pad
    fan = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _lay(fan, back, pad // 2, pad)
    angles = [4.0 * (i - (len(faces) - 1) / 2) / max(1, (len(faces) - 1) / 2) for i in range(len(faces))]
    for i, (img, angle) in enumerate(zip(faces, angles, strict=False)):
        _lay(fan, img, step * (i + 1), pad // 2 + (pad // 2 if abs(angle) < 1 else 0), angle)
    return fan


def write_preview(composed: Composed, path: Path, width: int = WIDTH) -> int:
    """Write the preview as a palette PNG (small: it goes in a README); its size in bytes."""
    image = preview_image(composed, width)
    small = image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as tmp:
        small.save(tmp, format="PNG", optimize=True)
    return path.stat().st_size
