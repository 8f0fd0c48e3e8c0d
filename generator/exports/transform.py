"""Whole-scene transforms the exports need: a card scaled to a service's trim, turned for a fold."""

from __future__ import annotations

from dataclasses import replace

from casebook.generator.scene import (
    Clip,
    Ellipse,
    Item,
    Picture,
    Polyline,
    Rect,
    Scene,
    Shape,
    TextRun,
)


def scale_scene(scene: Scene, k: float) -> Scene:
    """The same drawing k times larger (lengths, line widths, type sizes)."""
    return Scene(scene.width * k, scene.height * k, scene.bleed * k,
                 [_scale_item(item, k) for item in scene.items], scene.label)


def _scale_item(item: Item, k: float) -> Item:
    if isinstance(item, Rect):
        return replace(item, x=item.x * k, y=item.y * k, w=item.w * k, h=item.h * k, width=item.width * k,
                       radius=item.radius * k, dash=tuple(d * k for d in item.dash))
    if isinstance(item, Ellipse):
        return replace(item, cx=item.cx * k, cy=item.cy * k, rx=item.rx * k, ry=item.ry * k, width=item.width * k)
    if isinstance(item, Polyline):
        return replace(item, points=tuple((x * k, y * k) for x, y in item.points), width=item.width * k,
                       dash=tuple(d * k for d in item.dash))
    if isinstance(item, Shape):
        return item.moved(lambda p: (p[0] * k, p[1] * k), k)
    if isinstance(item, TextRun):
        return replace(item, x=item.x * k, y=item.y * k, size=item.size * k)
    if isinstance(item, Clip):
        return replace(item, x=item.x * k, y=item.y * k, w=item.w * k, h=item.h * k)
    if isinstance(item, Picture):
        return item.scaled(k)
    return item


def turn_scene(scene: Scene) -> Scene:
    """The drawing turned half a turn about its centre (upside down, not mirrored)."""
    w, h = scene.width, scene.height
    return Scene(w, h, scene.bleed, [_turn_item(item, w, h) for item in scene.items], scene.label)


def _turn_item(item: Item, w: float, h: float) -> Item:
    if isinstance(item, Rect | Clip):
        return replace(item, x=w - item.x - item.w, y=h - item.y - item.h)
    if isinstance(item, Ellipse):
        return replace(item, cx=w - item.cx, cy=h - item.cy)
    if isinstance(item, Polyline):
        return replace(item, points=tuple((w - x, h - y) for x, y in item.points))
    if isinstance(item, Shape):
        return item.moved(lambda p: (w - p[0], h - p[1]))
    if isinstance(item, TextRun):  # a run turns about its start, which moves with the page
        return replace(item, x=w - item.x, y=h - item.y, angle=(item.angle + 180) % 360)
    if isinstance(item, Picture):
        return item.turned(w, h)
    return item
