"""Layout + card (or page) -> neutral scene. Template and fitting problems name file:line."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import jinja2
import jinja2.meta

from generator.backends.fonts import FONT_FILES, metrics
from generator.layouts import Element, Layout, LayoutLibrary, is_template
from generator.legibility import check_game_text
from generator.scene import Ellipse, Item, Polyline, Rect, Scene
from generator.symbols import draw_symbol
from generator.text import TextStyle, fit_text
from generator.units import parse_length
from rules.cards import Card, Component, GameDatabase
from rules.problems import Place, Problems
from rules.yamlsource import plain

FALSY = {"", "false", "none", "0", "no", "[]", "{}"}


class _Skip(Exception):
    """An element could not be drawn; its problem is already reported."""


@dataclass
class Face:
    """One physical card: which card, which copy, its scenes."""

    component: Component
    card: Card
    number: int  # 1-based among the component's printed cards
    face: Scene
    back: Scene


def card_context(card: Card, fields: dict[str, Any]) -> dict[str, Any]:
    """A card's fields for templates; declared fields it leaves out are None, others undefined."""
    ctx: dict[str, Any] = dict.fromkeys(fields)
    ctx.update(plain(card.data))
    ctx.update(id=card.id, copies=card.copies, designed=card.designed, component=card.component)
    return ctx


class Composer:
    """Builds scenes for one game's cards and sheets, collecting problems as it goes."""

    def __init__(self, lib: LayoutLibrary, db: GameDatabase, problems: Problems, *, bleed: float | None = None,
                 ink_saver: bool = False):
        self.lib, self.db, self.problems = lib, db, problems
        self.bleed = lib.settings.bleed if bleed is None else bleed
        self.ink_saver = ink_saver
        self.metrics = metrics()
        self._reported: set[tuple[Place, str]] = set()  # one report per template fault, not per card
        self._uses_i_cache: dict[str, bool] = {}
        cards = {cid: [card_context(c, comp.fields) for c in comp.cards] for cid, comp in db.components.items()}
        self.base: dict[str, Any] = {
            "game": {"id": db.id, "title": db.title, "short_title": db.short_title, "credit": db.credit,
                     "players": {"min": db.players[0], "max": db.players[1]}, **plain(db.extra)},
            "suits": {sid: s.as_dict() for sid, s in db.suits.items()},
            "marks": {mid: m.as_dict() for mid, m in db.marks.items()},
            "cards": cards,
            "by_id": {c["id"]: c for group in cards.values() for c in group},
            "components": {cid: {"id": c.id, "name": c.name, "code": c.code, "count": c.count}
                           for cid, c in db.components.items()},
            "rules": [{"id": r.id, "section": r.section, "title": r.title, "text": r.text} for r in db.rules],
            "faq": [{"id": f.id, "question": f.question, "ruling": f.ruling} for f in db.faq],
            "ink_saver": ink_saver,
        }

    # --- public -----------------------------------------------------------------------

    def faces(self, component: Component) -> list[Face]:
        """Every printed card of a component, copies expanded, face and back composed."""
        face_layout = self.lib.layout(component.face, self.problems, component.field_place("face"))
        back_layout = self.lib.layout(component.back, self.problems, component.field_place("back"))
        if face_layout is None or back_layout is None:
            return []
        out: list[Face] = []
        number = 0
        for card in component.cards:
            for copy in range(card.copies):
                number += 1
                ctx = self._card_ctx(component, card, number, copy)
                face = self.scene(face_layout, ctx, f"card '{card.id}'")
                back = self.scene(back_layout, ctx, f"card '{card.id}' (back)")
                out.append(Face(component, card, number, face, back))
        return out

    def page(self, layout_name: str, width: float, height: float, place: Place, extra: dict[str, Any]) -> Scene | None:
        layout = self.lib.layout(layout_name, self.problems, place)
        if layout is None:
            return None
        ctx = {**self.base, "vars": layout.vars, "page": {"width": width, "height": height}, **extra}
        return self.scene(layout, ctx, f"sheet '{layout_name}'", size=(width, height), bleed=0.0)

    def _card_ctx(self, component: Component, card: Card, number: int, copy: int) -> dict[str, Any]:
        cdict = self.base["by_id"][card.id]
        ctx = dict(self.base)
        ctx.update(card=cdict, component=self.base["components"][component.id], number=number,
                   total=component.printed, copy=copy + 1)
        suit = cdict.get("suit")
        ctx["suit"] = self.base["suits"].get(suit) if isinstance(suit, str) else None
        return ctx

    def scene(self, layout: Layout, ctx: dict[str, Any], who: str, size: tuple[float, float] | None = None,
              bleed: float | None = None) -> Scene:
        if size is None:
            dims = self.lib.sizes.get(layout.size or "")
            if dims is None:
                self.problems.add(layout.place, f"layout '{layout.name}' has no card size", "size: poker")
                return Scene(1, 1)
            size = (dims.width, dims.height)
        b = self.bleed if bleed is None else bleed
        w, h = size
        scene = Scene(w + 2 * b, h + 2 * b, b, label=who)
        ctx = {**ctx, "vars": layout.vars, "size": {"width": w, "height": h, "bleed": b}}
        for el in layout.elements:
            try:
                self._element(scene, el, ctx, who, w, h, b)
            except _Skip:
                continue
        return scene

    # --- elements -----------------------------------------------------------------------

    def _render(self, value: Any, el: Element, key: str, ctx: dict[str, Any], who: str) -> Any:
        if isinstance(value, list):
            return [self._render(v, el, key, ctx, who) for v in value]
        if isinstance(value, dict):
            return {k: self._render(v, el, key, ctx, who) for k, v in value.items()}
        if not is_template(value):
            return value
        place = el.places.get(key, el.place)
        try:
            return self.lib.template(value).render(ctx)
        except jinja2.TemplateSyntaxError as exc:
            style = getattr(value, "style", None)
            shift = (exc.lineno or 1) - 1 + (1 if style in ("|", ">") else 0)
            if (place, str(exc.message)) not in self._reported:
                self._reported.add((place, str(exc.message)))
                self.problems.add(place.shifted(shift), f"template syntax in '{key}': {exc.message}",
                                  "Jinja2: {{ name }}, {% if ... %}...{% endif %}")
        except jinja2.UndefinedError as exc:
            if (place, str(exc.message)) not in self._reported:
                self._reported.add((place, str(exc.message)))
                self.problems.add(place, f"{who}: undefined name in '{key}': {exc.message}",
                                  "a name the template context has: card, suit, component, game, suits, marks, cards, by_id, vars, ...")
        except jinja2.TemplateError as exc:
            self.problems.add(place, f"{who}: template error in '{key}': {exc}")
        except Exception as exc:  # arithmetic on bad data inside a template, and the like
            self.problems.add(place, f"{who}: template failed in '{key}': {type(exc).__name__}: {exc}")
        raise _Skip

    def _get(self, data: dict[str, Any], el: Element, key: str, ctx: dict[str, Any], who: str, default: Any = None) -> Any:
        if key not in data:
            return default
        return self._render(data[key], el, key, ctx, who)

    def _length(self, data: dict[str, Any], el: Element, key: str, ctx: dict[str, Any], who: str, default: float) -> float:
        value = self._get(data, el, key, ctx, who)
        if value is None:
            return default
        try:
            return parse_length(value.strip() if isinstance(value, str) else value)
        except ValueError as exc:
            if is_template(data.get(key)):  # a literal was already reported when the layout was read
                self.problems.add(el.places.get(key, el.place), f"{who}: {key}: {exc}")
            raise _Skip from None

    def _number(self, data: dict[str, Any], el: Element, key: str, ctx: dict[str, Any], who: str, default: float) -> float:
        value = self._get(data, el, key, ctx, who)
        if value is None:
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            self.problems.add(el.places.get(key, el.place), f"{who}: {key} must be a number, not {value!r}")
            raise _Skip from None

    def _colour(self, data: dict[str, Any], el: Element, key: str, ctx: dict[str, Any], who: str, default: str | None) -> str | None:
        value = self._get(data, el, key, ctx, who, default)
        if value in (None, "", "none"):
            return None
        value = str(value).strip()
        if len(value) == 7 and value.startswith("#"):
            try:
                int(value[1:], 16)
                return value
            except ValueError:
                pass
        self.problems.add(el.places.get(key, el.place), f"{who}: {key} '{value}' is not a colour", "#rrggbb or none")
        raise _Skip

    def _element(self, scene: Scene, el: Element, ctx: dict[str, Any], who: str, w: float, h: float, b: float) -> None:
        data = el.data
        if self.ink_saver and isinstance(data.get("ink_saver"), dict):
            data = {**data, **data["ink_saver"]}
        # a `when` that uses `i` is asked of each repeated copy; any other, once for the element
        per_copy = "repeat" in data and "when" in data and self._uses_i(data["when"])
        if "when" in data and not per_copy and not self._truthy(data, el, ctx, who):
            return
        count, step = 1, (0.0, 0.0)
        if "repeat" in data:
            try:
                count = int(str(self._get(data, el, "repeat", ctx, who)).strip())
            except ValueError:
                self.problems.add(el.places.get("repeat", el.place), f"{who}: repeat must be a whole number")
                raise _Skip from None
            raw_step = data.get("step", [0, 0])
            try:
                step = (parse_length(raw_step[0]), parse_length(raw_step[1]))
            except (ValueError, TypeError, IndexError):
                self.problems.add(el.places.get("step", el.place), f"{who}: step must be [dx, dy]", "step: [6mm, 0]")
                raise _Skip from None
        for i in range(count):
            local = {**ctx, "i": i} if "repeat" in data else ctx
            if per_copy and not self._truthy(data, el, local, who):
                continue
            self._draw(scene, el, data, local, who, w, h, b, step[0] * i, step[1] * i)

    def _truthy(self, data: dict[str, Any], el: Element, ctx: dict[str, Any], who: str) -> bool:
        return str(self._get(data, el, "when", ctx, who)).strip().lower() not in FALSY

    def _uses_i(self, value: Any) -> bool:
        if not is_template(value):
            return False
        if value not in self._uses_i_cache:  # a template is parsed once, not once a card
            try:
                self._uses_i_cache[value] = "i" in jinja2.meta.find_undeclared_variables(self.lib.env.parse(value))
            except jinja2.TemplateSyntaxError:
                self._uses_i_cache[value] = False  # reported when it is rendered
        return self._uses_i_cache[value]

    def _draw(self, scene: Scene, el: Element, data: dict[str, Any], ctx: dict[str, Any], who: str,
              w: float, h: float, b: float, dx: float, dy: float) -> None:
        etype = el.type
        x = self._length(data, el, "x", ctx, who, 0.0) + b + dx
        y = self._length(data, el, "y", ctx, who, 0.0) + b + dy
        ew = self._length(data, el, "w", ctx, who, w)
        eh = self._length(data, el, "h", ctx, who, h)
        if etype == "rect":
            if data.get("bleed"):
                x, y, ew, eh = 0.0, 0.0, scene.width, scene.height
            dash = self._dash(data, el, who)
            scene.add(Rect(x, y, ew, eh, self._colour(data, el, "fill", ctx, who, None),
                           self._colour(data, el, "stroke", ctx, who, None),
                           self._length(data, el, "width", ctx, who, 0.3), self._length(data, el, "radius", ctx, who, 0.0), dash))
        elif etype == "ellipse":
            scene.add(Ellipse(x + ew / 2, y + eh / 2, ew / 2, eh / 2, self._colour(data, el, "fill", ctx, who, None),
                              self._colour(data, el, "stroke", ctx, who, None), self._length(data, el, "width", ctx, who, 0.3)))
        elif etype == "line":
            pts = self._get(data, el, "points", ctx, who, [])
            try:
                points = tuple((parse_length(p[0]) + b + dx, parse_length(p[1]) + b + dy) for p in pts)
            except (ValueError, TypeError, IndexError):
                self.problems.add(el.places.get("points", el.place), f"{who}: points must be [[x, y], ...]")
                raise _Skip from None
            dash = self._dash(data, el, who)
            scene.add(Polyline(points, False, None, self._colour(data, el, "stroke", ctx, who, "#000000"),
                               self._length(data, el, "width", ctx, who, 0.3), dash))
        elif etype == "text":
            self._text(scene, el, data, ctx, who, x, y, ew, eh)
        elif etype == "symbol":
            name = str(self._get(data, el, "name", ctx, who, "")).strip()
            parts = self.lib.symbols.get(name)
            if parts is None:
                self.problems.add(el.places.get("name", el.place), f"{who}: unknown symbol '{name}'",
                                  "one of: " + ", ".join(sorted(self.lib.symbols)))
                raise _Skip
            colour = self._colour(data, el, "colour", ctx, who, "#000000") or "#000000"
            background = self._colour(data, el, "background", ctx, who, "#FFFFFF") or "#FFFFFF"
            for item in draw_symbol(parts, x, y, ew, eh, colour, background, self._number(data, el, "rotate", ctx, who, 0.0)):
                scene.add(item)
        elif etype == "table":
            self._table(scene, el, data, ctx, who, x, y, ew, eh)

    def _dash(self, data: dict[str, Any], el: Element, who: str) -> tuple[float, ...]:
        try:
            return tuple(parse_length(d) for d in data.get("dash") or [])
        except (ValueError, TypeError):
            self.problems.add(el.places.get("dash", el.place), f"{who}: dash must be a list of lengths", "dash: [1mm, 1mm]")
            raise _Skip from None

    def _style(self, data: dict[str, Any], el: Element, ctx: dict[str, Any], who: str, **defaults: Any) -> TextStyle:
        font = str(self._get(data, el, "font", ctx, who, defaults.get("font", "regular")))
        if font not in FONT_FILES:
            self.problems.add(el.places.get("font", el.place), f"{who}: unknown font '{font}'", "one of: " + ", ".join(FONT_FILES))
            raise _Skip
        align = str(self._get(data, el, "align", ctx, who, defaults.get("align", "left")))
        valign = str(self._get(data, el, "valign", ctx, who, defaults.get("valign", "top")))
        if align not in ("left", "center", "right") or valign not in ("top", "middle", "bottom"):
            self.problems.add(el.place, f"{who}: align is left/center/right and valign top/middle/bottom")
            raise _Skip
        size = self._number(data, el, "size", ctx, who, defaults.get("size", 9.0))
        return TextStyle(
            font=font, size=size, min_size=self._number(data, el, "min_size", ctx, who, min(size, defaults.get("min_size", 6.0))),
            colour=self._colour(data, el, "colour", ctx, who, "#000000") or "#000000", align=align, valign=valign,
            leading=self._number(data, el, "leading", ctx, who, 1.2),
            heading_colour=self._colour(data, el, "heading_colour", ctx, who, None),
        )

    def _text(self, scene: Scene, el: Element, data: dict[str, Any], ctx: dict[str, Any], who: str,
              x: float, y: float, w: float, h: float) -> None:
        text = str(self._get(data, el, "text", ctx, who, "")).strip("\n")
        if not text.strip():
            return
        st = self._style(data, el, ctx, who)
        angle = self._number(data, el, "rotate", ctx, who, 0.0) % 360
        if angle not in (0, 90, 180, 270):
            self.problems.add(el.places.get("rotate", el.place), f"{who}: text turns in quarter turns only, not {angle:g}",
                              "rotate: 90, 180 or 270 (clockwise)")
            raise _Skip
        # a turned text is laid out upright in the box as it will be seen, then turned about its centre
        cx, cy = x + w / 2, y + h / 2
        box = (cx - h / 2, cy - w / 2, h, w) if angle in (90, 270) else (x, y, w, h)
        fitted = fit_text(text, *box, st, self.metrics)
        if not fitted.fits:
            self.problems.add(el.places.get("text", el.place),
                              f"{who}: text '{el.data.get('id', 'text')}' does not fit its {w:.1f} x {h:.1f} mm box "
                              f"even at the minimum size {st.min_size:g} pt",
                              "shorter text, a larger box, or a smaller min_size")
        check_game_text(fitted, el, who, self.problems)
        if not angle:
            scene.items.extend(fitted.runs)
            return
        cos, sin = round(math.cos(math.radians(angle))), round(math.sin(math.radians(angle)))
        for run in fitted.runs:
            dx, dy = run.x - cx, run.y - cy
            scene.add(replace(run, x=cx + dx * cos - dy * sin, y=cy + dx * sin + dy * cos, angle=angle))

    def _table(self, scene: Scene, el: Element, data: dict[str, Any], ctx: dict[str, Any], who: str,
               x: float, y: float, w: float, h: float) -> None:
        columns = self._get(data, el, "columns", ctx, who, [])
        rows = self._get(data, el, "rows", ctx, who, [])
        if isinstance(rows, str):  # a template listing one row label a line
            rows = [line.strip() for line in rows.splitlines() if line.strip()]
        if not isinstance(columns, list) or not columns or not isinstance(rows, list) or not rows:
            self.problems.add(el.place, f"{who}: a table needs 'columns' and 'rows' lists",
                              "columns: [{title: Case, width: 2}, ...], rows: [Case 1, ...]")
            raise _Skip
        stroke = self._colour(data, el, "stroke", ctx, who, "#333333") or "#333333"
        line_w = self._length(data, el, "width", ctx, who, 0.25)
        header_h = self._length(data, el, "header_height", ctx, who, 10.0)
        header_fill = self._colour(data, el, "header_fill", ctx, who, None)
        stripe = self._colour(data, el, "stripe", ctx, who, None)
        weights = []
        for col in columns:
            try:
                weights.append(float(col.get("width", 1)) if isinstance(col, dict) else 1.0)
            except (TypeError, ValueError):
                weights.append(1.0)
        total = sum(weights) or 1.0
        xs = [x]
        for wt in weights:
            xs.append(xs[-1] + w * wt / total)
        row_h = (h - header_h) / len(rows)
        if header_fill:
            scene.add(Rect(x, y, w, header_h, fill=header_fill))
        if stripe:
            for r in range(1, len(rows), 2):
                scene.add(Rect(x, y + header_h + r * row_h, w, row_h, fill=stripe))
        head = self._style(data, el, ctx, who, font="bold", size=self._number(data, el, "header_size", ctx, who, 8.0),
                           align="center", valign="middle")
        head = TextStyle(font="bold", size=head.size, min_size=min(head.size, 5.0), colour=head.colour,
                         align="center", valign="middle")
        body = TextStyle(font="regular", size=self._number(data, el, "size", ctx, who, 8.0), min_size=5.0,
                         colour=self._colour(data, el, "colour", ctx, who, "#000000") or "#000000", valign="middle")
        pad = 1.2
        for i, col in enumerate(columns):
            title = str(col.get("title", "")) if isinstance(col, dict) else str(col)
            fitted = fit_text(title, xs[i] + pad, y + 0.6, xs[i + 1] - xs[i] - 2 * pad, header_h - 1.2, head, self.metrics)
            if not fitted.fits:
                self.problems.add(el.places.get("columns", el.place), f"{who}: column title '{title}' does not fit")
            scene.items.extend(fitted.runs)
        for r, label in enumerate(rows):
            fitted = fit_text(str(label), xs[0] + pad, y + header_h + r * row_h + 0.4, xs[1] - xs[0] - 2 * pad,
                              row_h - 0.8, body, self.metrics)
            if not fitted.fits:
                self.problems.add(el.places.get("rows", el.place), f"{who}: row label '{label}' does not fit")
            scene.items.extend(fitted.runs)
        lines: list[Item] = [Rect(x, y, w, h, stroke=stroke, width=line_w * 1.6)]
        for r in range(len(rows)):
            yy = y + header_h + r * row_h
            lines.append(Polyline(((x, yy), (x + w, yy)), stroke=stroke, width=line_w * (1.6 if r == 0 else 1)))
        for xx in xs[1:-1]:
            lines.append(Polyline(((xx, y), (xx, y + h)), stroke=stroke, width=line_w))
        scene.items.extend(lines)
