"""The PNG backend: draws the same scenes as the PDF backend into a Pillow image.

Shapes are drawn at twice the resolution and reduced, for smooth edges; text is
FreeType-rendered from the same TTF files as the PDF's fonts.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from casebook.generator.backends import imagefiles
from casebook.generator.backends.fonts import font_path
from casebook.generator.scene import (
    Clip,
    Ellipse,
    Picture,
    Point,
    Polyline,
    Rect,
    Scene,
    Shape,
    TextRun,
    Unclip,
)

SUPERSAMPLE = 2
# glyphs set at their advance widths, as the PDF sets them: no kerning or ligatures from the shaper (libraqm)
TEXT_FEATURES = ["-kern", "-liga"] if features.check_feature("raqm") else None


@cache
def _font(style: str, px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(style)), px)


@cache
def _rgb(hexstr: str) -> tuple[int, int, int]:
    h = hexstr.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def render(scene: Scene, dpi: float = 300.0, supersample: int = SUPERSAMPLE) -> Image.Image:
    """The scene as an RGB image at dpi (whole scene: trim and bleed)."""
    k = dpi / 25.4 * supersample
    size = (max(1, round(scene.width * dpi / 25.4)) * supersample, max(1, round(scene.height * dpi / 25.4)) * supersample)
    img = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    stack: list[tuple[Image.Image, ImageDraw.ImageDraw, tuple[int, int, int, int]]] = []
    for item in scene.items:
        if isinstance(item, Clip):
            box = (round(item.x * k), round(item.y * k), round((item.x + item.w) * k), round((item.y + item.h) * k))
            stack.append((img, draw, box))
            img = img.copy()
            draw = ImageDraw.Draw(img)
            continue
        if isinstance(item, Unclip):
            if stack:
                outer, outer_draw, box = stack.pop()
                outer.paste(img.crop(box), box[:2])
                img, draw = outer, outer_draw
            continue
        if isinstance(item, Picture):
            _picture(img, item, k)
            continue
        _draw_item(draw, item, k)
    if supersample > 1:
        img = img.reduce(supersample)
    return img


def _picture(img: Image.Image, item: Picture, k: float) -> None:
    """An image resampled from its file (Lanczos) straight to the pixels it covers, alpha and clip kept."""
    box = (round(item.x * k), round(item.y * k), round((item.x + item.w) * k), round((item.y + item.h) * k))
    seen = (max(box[0], 0), max(box[1], 0), min(box[2], img.width), min(box[3], img.height))
    if item.clip is not None:
        cx, cy, cw, ch = item.clip
        clip = (round(cx * k), round(cy * k), round((cx + cw) * k), round((cy + ch) * k))
        seen = (max(seen[0], clip[0]), max(seen[1], clip[1]), min(seen[2], clip[2]), min(seen[3], clip[3]))
    if seen[2] <= seen[0] or seen[3] <= seen[1] or box[2] <= box[0] or box[3] <= box[1]:
        return
    tile = _tile(item, box, seen)
    mask = tile.getchannel("A") if tile.mode in ("LA", "RGBA") else None
    if item.clip is not None and item.radius > 0:
        rounded = Image.new("L", (seen[2] - seen[0], seen[3] - seen[1]), 0)
        ImageDraw.Draw(rounded).rounded_rectangle((clip[0] - seen[0], clip[1] - seen[1], clip[2] - seen[0] - 1,
                                                   clip[3] - seen[1] - 1), round(item.radius * k), fill=255)
        mask = rounded if mask is None else ImageChops.multiply(mask, rounded)
    img.paste(tile.convert("RGB"), seen[:2], mask)


@lru_cache(maxsize=2)
def _tile(item: Picture, box: tuple[int, int, int, int], seen: tuple[int, int, int, int]) -> Image.Image:
    """The part `seen` of a picture drawn on `box` (pixels), remembered: a deck's shared art is resampled once."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    # the part that shows, of the picture as stored: a turned one's part is found half a turn round
    part = (seen[0] - box[0], seen[1] - box[1], seen[2] - box[0], seen[3] - box[1])
    if item.angle:
        part = (bw - part[2], bh - part[3], bw - part[0], bh - part[1])
    if item.kind == "svg":  # only that part is drawn
        tile = imagefiles.svg_pixels(item.path, item.digest, item.root, bw, bh, part)
    else:  # resampled from that part of the file
        source = imagefiles.pixels(item.path, item.digest)
        sx, sy = source.width / bw, source.height / bh
        tile = source.resize((part[2] - part[0], part[3] - part[1]), Image.Resampling.LANCZOS,
                             box=(part[0] * sx, part[1] * sy, part[2] * sx, part[3] * sy))
    return tile.transpose(Image.Transpose.ROTATE_180) if item.angle else tile


# clockwise quarter turns: the transpose, and where a point (u, v) of a w x h mask lands
_TURNS = {
    90: (Image.Transpose.ROTATE_270, lambda u, v, w, h: (h - v, u)),
    180: (Image.Transpose.ROTATE_180, lambda u, v, w, h: (w - u, h - v)),
    270: (Image.Transpose.ROTATE_90, lambda u, v, w, h: (v, w - u)),
}


def _turned_text(draw: ImageDraw.ImageDraw, item: TextRun, font: ImageFont.FreeTypeFont, k: float) -> None:
    """A run turned about its start: drawn upright into a mask, the mask turned and stamped."""
    left, top, right, bottom = (int(v) for v in font.getbbox(item.text, anchor="ls", features=TEXT_FEATURES))
    w, h = max(1, right - left), max(1, bottom - top)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), item.text, font=font, fill=255, anchor="ls", features=TEXT_FEATURES)
    transpose, move = _TURNS[round(item.angle) % 360]
    ax, ay = move(-left, -top, w, h)
    draw.bitmap((round(item.x * k - ax), round(item.y * k - ay)), mask.transpose(transpose), fill=_rgb(item.colour))


def _rounded(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float, **paint: Any) -> None:
    """A rounded rectangle; a box only a few pixels across (a symbol's detail at low dpi) is drawn square,
    as Pillow cannot round it."""
    px = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
    if min(px[2] - px[0], px[3] - px[1]) < 2 * radius + 4:
        draw.rectangle(px, **paint)
    else:
        draw.rounded_rectangle(px, radius, **paint)


def _w(width: float, k: float) -> int:
    return max(1, round(width * k))


def _draw_item(draw: ImageDraw.ImageDraw, item: object, k: float) -> None:
    if isinstance(item, TextRun):
        px = max(1.0, round(item.size / 72.0 * 25.4 * k, 2))
        if item.angle % 360:
            _turned_text(draw, item, _font(item.font, px), k)
        else:
            draw.text((item.x * k, item.y * k), item.text, font=_font(item.font, px), fill=_rgb(item.colour), anchor="ls",
                      features=TEXT_FEATURES)
    elif isinstance(item, Rect):
        x0, y0, x1, y1 = item.x * k, item.y * k, (item.x + item.w) * k, (item.y + item.h) * k
        r = item.radius * k
        if item.fill:
            if r > 0:
                _rounded(draw, (x0, y0, x1, y1), r, fill=_rgb(item.fill))
            else:
                draw.rectangle((x0, y0, x1, y1), fill=_rgb(item.fill))
        if item.stroke:
            half = item.width * k / 2
            if item.dash:
                corners = [(item.x, item.y), (item.x + item.w, item.y), (item.x + item.w, item.y + item.h),
                           (item.x, item.y + item.h), (item.x, item.y)]
                _stroke_line(draw, [(p[0] * k, p[1] * k) for p in corners], item.stroke, item.width, k, item.dash)
            elif r > 0:
                _rounded(draw, (x0 - half, y0 - half, x1 + half, y1 + half), r + half,
                         outline=_rgb(item.stroke), width=_w(item.width, k))
            else:
                draw.rectangle((x0 - half, y0 - half, x1 + half, y1 + half), outline=_rgb(item.stroke), width=_w(item.width, k))
    elif isinstance(item, Ellipse):
        box = ((item.cx - item.rx) * k, (item.cy - item.ry) * k, (item.cx + item.rx) * k, (item.cy + item.ry) * k)
        if item.fill:
            draw.ellipse(box, fill=_rgb(item.fill))
        if item.stroke:
            half = item.width * k / 2
            draw.ellipse((box[0] - half, box[1] - half, box[2] + half, box[3] + half),
                         outline=_rgb(item.stroke), width=_w(item.width, k))
    elif isinstance(item, Polyline):
        pts = [(x * k, y * k) for x, y in item.points]
        if item.closed and item.fill and len(pts) > 2:
            draw.polygon(pts, fill=_rgb(item.fill))
        if item.stroke:
            if item.closed:
                pts = [*pts, pts[0]]
            _stroke_line(draw, pts, item.stroke, item.width, k, item.dash, caps=not item.closed)

    elif isinstance(item, Shape):
        rings = [[(x * k, y * k) for x, y in ring] for ring in item.subpaths]
        if item.fill:
            _fill_rings(draw, rings, _rgb(item.fill), item.even_odd)
        if item.stroke:
            for ring in rings:
                _stroke_line(draw, [*ring, ring[0]], item.stroke, item.width, k, (), caps=False)


def _fill_rings(draw: ImageDraw.ImageDraw, rings: list[list[Point]], fill: tuple[int, int, int], even_odd: bool) -> None:
    """Closed outlines filled together by the nonzero (or even-odd) rule, as a PDF fills a path: a scanline
    fill sampling pixel (c, r) at the point (c, r), where Pillow's polygon fill samples it (that takes one
    outline and knows no holes), so a shape's edges land where a polygon's would."""
    edges = []  # (top, bottom, x at top, dx per unit of y, winding)
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
            if y0 == y1:
                continue
            wind = 1 if y1 > y0 else -1
            if y0 > y1:
                x0, y0, x1, y1 = x1, y1, x0, y0
            edges.append((y0, y1, x0, (x1 - x0) / (y1 - y0), wind))
    if not edges:
        return
    edges.sort()
    bottom = max(e[1] for e in edges)
    active: list[tuple[float, float, float, float, int]] = []
    at = 0
    row = max(0, math.ceil(edges[0][0]))
    while row < bottom:
        yc = float(row)
        while at < len(edges) and edges[at][0] <= yc:
            active.append(edges[at])
            at += 1
        active = [e for e in active if e[1] > yc]
        crossings = sorted((e[2] + (yc - e[0]) * e[3], e[4]) for e in active if e[0] <= yc)
        inside, left = 0, 0.0
        for x, wind in crossings:
            was = inside
            inside = inside ^ 1 if even_odd else inside + wind
            if not was and inside:
                left = x
            elif was and not inside:
                first, last = math.ceil(left), math.ceil(x) - 1
                if last >= first:
                    draw.rectangle((first, row, last, row), fill=fill)
        row += 1


def _stroke_line(draw: ImageDraw.ImageDraw, pts: list[Point], colour: str, width: float, k: float,
                 dash: tuple[float, ...], caps: bool = True) -> None:
    segments = _dashed(pts, [d * k for d in dash]) if dash else [pts]
    w = _w(width, k)
    fill = _rgb(colour)
    for seg in segments:
        if len(seg) < 2:
            continue
        draw.line(seg, fill=fill, width=w, joint="curve")
        if caps and w > 2:
            r = w / 2
            for x, y in (seg[0], seg[-1]):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _dashed(pts: list[Point], dash: list[float]) -> list[list[Point]]:
    """Split a polyline into the 'on' pieces of a dash pattern."""
    out: list[list[Point]] = []
    on, idx, left = True, 0, dash[0]
    current: list[Point] = [pts[0]]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(p)
                out.append(current)
            current = [p]
            on = not on
            idx = (idx + 1) % len(dash)
            left = dash[idx]
        left -= seg - pos
        if on:
            current.append((x1, y1))
        else:
            current = [(x1, y1)]
    if on and len(current) > 1:
        out.append(current)
    return out


def save_png(img: Image.Image, path: str, dpi: float) -> None:
    """PNG with its dpi recorded; a low zlib level: most of the time is compression."""
    img.save(path, format="PNG", dpi=(dpi, dpi), compress_level=3)
