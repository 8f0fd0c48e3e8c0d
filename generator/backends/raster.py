"""Raster work on rendered cards: a print service's canvas, deck sheets, and a fan of cards.

The exports in generator/exports decide sizes and places; this module only moves pixels.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

from casebook.generator.backends import png
from casebook.generator.scene import Scene


def render_trimmed(scene: Scene, size: tuple[int, int]) -> Image.Image:
    """The card's trim only (its bleed cut away), resampled to exactly `size` pixels."""
    w_px = size[0] / (scene.width - 2 * scene.bleed)  # pixels per mm across the trim
    img = png.render(scene, w_px * 25.4)
    k = img.width / scene.width
    box = (round(scene.bleed * k), round(scene.bleed * k), round((scene.width - scene.bleed) * k),
           round((scene.height - scene.bleed) * k))
    img = img.crop(box)
    return img if img.size == size else img.resize(size, Image.Resampling.LANCZOS)


def render_on_canvas(scene: Scene, px_per_mm: float, canvas: tuple[int, int]) -> tuple[Image.Image, int]:
    """The scene at px_per_mm, centred on a canvas of exactly `canvas` pixels.

    Where the scene's bleed is too short for the canvas, its edge pixels are repeated
    outwards; returns the image and how many pixels (at most, on any side) were repeated.
    """
    img = png.render(scene, px_per_mm * 25.4)
    cw, ch = canvas
    dx, dy = (cw - img.width) // 2, (ch - img.height) // 2
    left, top = max(0, dx), max(0, dy)
    right, bottom = max(0, cw - img.width - dx), max(0, ch - img.height - dy)
    padded = pad_edges(img, left, top, right, bottom)
    x0, y0 = left - dx, top - dy
    return padded.crop((x0, y0, x0 + cw, y0 + ch)), max(left, top, right, bottom)


def pad_edges(img: Image.Image, left: int, top: int, right: int, bottom: int) -> Image.Image:
    """The image grown by repeating its outermost rows and columns."""
    if not (left or top or right or bottom):
        return img
    w, h = img.size
    out = Image.new(img.mode, (w + left + right, h + top + bottom))
    out.paste(img, (left, top))
    if left:
        out.paste(img.crop((0, 0, 1, h)).resize((left, h)), (0, top))
    if right:
        out.paste(img.crop((w - 1, 0, w, h)).resize((right, h)), (left + w, top))
    width = out.width
    if top:
        out.paste(out.crop((0, top, width, top + 1)).resize((width, top)), (0, 0))
    if bottom:
        out.paste(out.crop((0, top + h - 1, width, top + h)).resize((width, bottom)), (0, top + h))
    return out


def grid_sheet(images: list[Image.Image], cols: int, rows: int, cell: tuple[int, int],
               last: Image.Image | None = None) -> Image.Image:
    """Images in reading order on a cols x rows grid of `cell` pixels; `last` in the final slot."""
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), (255, 255, 255))
    for i, img in enumerate(images):
        sheet.paste(img, ((i % cols) * cell[0], (i // cols) * cell[1]))
    if last is not None:
        sheet.paste(last, ((cols - 1) * cell[0], (rows - 1) * cell[1]))
    return sheet


def fan(cards: list[Image.Image], spread: float = 40.0, round_shape: bool = False) -> Image.Image:
    """Cards held as a fan (leftmost at the bottom), on a transparent ground, cropped to them."""
    w, h = cards[0].size
    radius = h * 1.6  # the cards turn about a point this far below their centres
    step = spread / max(1, len(cards) - 1)
    angles = [(-spread / 2 + i * step) if len(cards) > 1 else 0.0 for i in range(len(cards))]
    reach = radius + math.hypot(w, h)
    size = (round(2 * reach), round(2 * reach))
    pivot = (size[0] / 2, size[1] / 2 + radius)
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    for img, angle in zip(cards, angles, strict=True):
        card = _outlined(img, round_shape)
        turned = card.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        a = math.radians(angle)
        cx, cy = pivot[0] + radius * math.sin(a), pivot[1] - radius * math.cos(a)
        canvas.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    box = canvas.getbbox()
    return canvas.crop(box) if box else canvas


def _outlined(img: Image.Image, round_shape: bool) -> Image.Image:
    """The card with rounded corners (or round) and a thin grey edge, so white cards show."""
    w, h = img.size
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    edge = max(1, round(w / 200))
    if round_shape:
        draw.ellipse((0, 0, w - 1, h - 1), fill=255)
    else:
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=round(w * 0.05), fill=255)
    card = Image.new("RGBA", (w, h), (90, 90, 90, 255))
    inner = Image.new("L", (w, h), 0)
    inner_draw = ImageDraw.Draw(inner)
    if round_shape:
        inner_draw.ellipse((edge, edge, w - 1 - edge, h - 1 - edge), fill=255)
    else:
        inner_draw.rounded_rectangle((edge, edge, w - 1 - edge, h - 1 - edge), radius=round(w * 0.05) - edge, fill=255)
    card.paste(img.convert("RGBA"), (0, 0), inner)
    card.putalpha(mask)
    return card


def save(img: Image.Image, path: Path, dpi: float = 72.0) -> None:
    """PNG with its dpi recorded (RGBA kept for fans)."""
    img.save(path, format="PNG", dpi=(dpi, dpi), compress_level=6 if img.mode == "RGBA" else 3)
