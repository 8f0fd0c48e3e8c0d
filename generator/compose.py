"""Layout + card (or page) -> neutral scene. Template and fitting problems name file:line."""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from casebook.generator.backends.fonts import FontError, GameFonts, metrics
from casebook.generator.cache import DRAWING, SceneStore, library_fingerprint
from casebook.generator.font_check import check_text_fonts, may_lack
from casebook.generator.layouts import (
    DICT_ATTRIBUTES,
    Element,
    LayoutLibrary,
    Path_,
    PreparedElement,
    PreparedLayout,
    Put,
    compiled,
    is_template,
    prepare,
    puts,
)
from casebook.generator.legibility import FinePrint, check_game_text, floor_of
from casebook.generator.scene import Ellipse, Item, Picture, Polyline, Rect, Scene
from casebook.generator.symbols import InlineIcons, UnknownIcon, draw_symbol
from casebook.generator.text import FITS, TOPS, Fitted, TextStyle, fit_text, overflow
from casebook.generator.text_places import field_holding
from casebook.generator.units import parse_length
from casebook.rules.cards import Card, Component, GameDatabase
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import plain

if TYPE_CHECKING:
    from jinja2.runtime import Context

FALSY = {"", "false", "none", "0", "no", "[]", "{}"}
_MISSING = object()
_UNSETTLED = itertools.count()  # an image path not known before composing: a key no other scene has
SYMBOLS_PICTURED = " (Casebook's shapes, each drawn with its name: docs/symbols.png)"


def _digest(value: Any) -> str:
    """A stable text for a template value: what a scene's key is made of.

    repr() of the plain data templates see (dicts, lists, strings, numbers) is the same in
    every run and tells apart what JSON would not (1 and 1.0 and True); a field order
    changed in the YAML only costs a recompose. Several times faster than json.dumps.
    """
    if value is _MISSING:
        return "-"
    return repr(value)


def _read(values: dict[str, Any], path: Path_) -> Any:
    """What a template reading `path` (compiled()'s paths) sees of it; for a key a plain dict may not give as
    Jinja2 would (a dict method's name), the whole value: coarser, never wrong."""
    value = values.get(path[0], _MISSING)
    if len(path) >= 2 and type(value) is dict and path[1] not in DICT_ATTRIBUTES:
        value = value.get(path[1], _MISSING)
        if len(path) == 3 and type(value) in (list, tuple):  # a slice of it: `cards.deck[:6]`
            start, stop = (int(bound) if bound else None for bound in path[2].split(":"))
            return value[start:stop]
    return value


# what a text's style reads (Composer._style): none of them templated, the style is the element's, not the card's
_STYLE_KEYS = frozenset({"font", "align", "valign", "fit", "top", "size", "min_size", "colour", "leading",
                         "heading_colour"})
SHARED_PER_ELEMENT = 256  # drawings of one element kept for later cards: a deck's few suits and values, not its names


class _Skip(Exception):
    """An element could not be drawn; its problem is already reported."""


@dataclass(slots=True)
class Face:
    """One physical card: which card, which copy; its scenes are fetched by content key when drawn."""

    component: Component
    card: Card
    number: int  # 1-based among the component's printed cards
    face_key: str
    back_key: str
    store: SceneStore = field(repr=False)

    @property
    def face(self) -> Scene:
        return self.store.get(self.face_key)

    @property
    def back(self) -> Scene:
        return self.store.get(self.back_key)


def _per_copy(value: Any) -> bool:
    """Whether a templated value may render otherwise for each copy of a repeated element: it reads the copy's
    `i`, may draw at random (Jinja2's `random` filter, `lipsum`), or does not compile (said at each copy, as ever)."""
    if isinstance(value, list):
        return any(_per_copy(v) for v in value)
    if isinstance(value, dict):
        return any(_per_copy(v) for v in value.values())
    if not is_template(value):
        return False
    found = compiled(str(value))
    return found is None or "random" in value or "lipsum" in value or any(path[0] == "i" for path in found.paths)


def card_context(card: Card, fields: dict[str, Any]) -> dict[str, Any]:
    """A card's fields for templates; declared fields it leaves out are None, others undefined."""
    ctx: dict[str, Any] = dict.fromkeys(fields)
    ctx.update(plain(card.data))
    ctx.update(id=card.id, copies=card.copies, designed=card.designed, component=card.component)
    return ctx


@lru_cache(maxsize=4096, typed=True)
def _length_of(value: str | float) -> float:
    """parse_length, remembered: the same few strings come back for every card."""
    return parse_length(value.strip() if isinstance(value, str) else value)


@lru_cache(maxsize=1024)
def _is_colour(value: str) -> bool:
    if len(value) != 7 or not value.startswith("#"):
        return False
    try:
        int(value[1:], 16)
    except ValueError:
        return False
    return True


# a 500-card deck's texts (its names and numbers, ~1000) stay for the next build in the same process (--watch, after
# an edit that recomposes every card but moves no text); a larger deck's hold at most ~0.8 MiB (its unique names
# would not come back before the next build anyway; the recurring texts stay, being the most recently used)
@lru_cache(maxsize=1024)
def _fitted(text: str, x: float, y: float, w: float, h: float, st: TextStyle) -> Fitted:
    """fit_text, remembered for texts that recur across cards (suit names, values, titles)."""
    return fit_text(text, x, y, w, h, st, metrics())


def _put(parts: tuple[Put, ...], values: dict[str, Any]) -> str | None:
    """A template that only puts values into text (layouts.puts), filled in as Jinja2's code fills it: each value as
    str() gives it, a plain dict's key read as the sandbox reads it; None where a value is not there (Jinja2
    renders it then, and says what is wrong)."""
    out = []
    for text, name, key in parts:
        out.append(text)
        if name is None:
            continue
        value = values.get(name, _MISSING)
        if key is not None:
            if type(value) is not dict or key in DICT_ATTRIBUTES:
                return None
            value = value.get(key, _MISSING)
        if value is _MISSING:
            return None
        try:
            out.append(str(value))  # as Jinja2's code does
        except Exception:  # said by Jinja2's rendering
            return None
    return "".join(out)


class _Values:
    """What a scene's templates see, and Jinja2's Context of it, made only when a template is rendered by Jinja2
    (one that only puts values into text is filled in by _put): a rebuild that composes one edited card of a
    plain layout never imports Jinja2."""

    __slots__ = ("parent", "_lib", "_jinja")

    def __init__(self, lib: LayoutLibrary, values: dict[str, Any]):
        self.parent = values  # the values alone: Jinja2's Context adds the environment's globals below them
        self._lib = lib
        self._jinja: Context | None = None

    @property
    def jinja(self) -> Context:
        if self._jinja is None:
            env = self._lib.env
            self._jinja = env.context_class(env, {**env.globals, **self.parent}, None, {}, globals=env.globals)
        return self._jinja

    def get(self, name: str) -> Any:
        """A value as a template would read it (after a template set it: that), None if there is none."""
        return self.parent.get(name) if self._jinja is None else self._jinja.get(name)


class Composer:
    """Builds scenes for one game's cards and sheets, collecting problems as it goes.

    Card scenes go into a SceneStore under a content key: the layout's fingerprint, the
    values its templates read, the build options and the code. Cards that agree on all
    of those (the backs of a deck, usually) are composed once.
    """

    def __init__(self, lib: LayoutLibrary, db: GameDatabase, problems: Problems, *, bleed: float | None = None,
                 ink_saver: bool = False, store: SceneStore | None = None):
        self.lib, self.db, self.problems = lib, db, problems
        self.bleed = lib.settings.bleed if bleed is None else bleed
        self.ink_saver = ink_saver
        self.store = store if store is not None else SceneStore()
        self.metrics = metrics()
        self.composed = 0  # card scenes composed by this composer (not found in the store)
        self._reported: set[tuple[Place, str]] = set()  # one report per template fault, not per card
        self.fine_print = FinePrint()  # the fine print composed (generator/legibility.py), for the PDF check
        self._prepared: dict[str, PreparedLayout] = {}
        self._digests: dict[str, str] = {}
        self._keys: dict[str, str] = {}
        # by id(prepared layout): (it, size, the parts its keys start with, names read, image elements)
        self._shared_keys: dict[str, str] = {}  # by the parts a layout's keys start with
        self._plans: dict[int, tuple[PreparedLayout, Any, str, tuple[str | Path_, ...], tuple[PreparedElement, ...]]] = {}
        # while an element's copies are drawn (repeat): its keys the same for every copy, and their values as rendered
        self._once: tuple[PreparedElement, frozenset[str], dict[str, str]] | None = None
        self._same_per_copy: dict[int, tuple[PreparedElement, frozenset[str]]] = {}  # by id(element), kept with it
        # an element's drawing by what its templates read: the cards that agree on it share it (a deck's frame, its
        # suit's emblem); by id(element), kept with the element so that the id stays its own
        self._drawn: dict[int, tuple[PreparedElement, dict[tuple[Any, ...], tuple[Item, ...]]]] = {}
        # the drawings of it put in the store for the next build (drawn for two cards, or found there): (id(element), key)
        self._kept_drawings: set[tuple[int, tuple[Any, ...]]] = set()
        self._game_parts: dict[tuple[int, Path_], tuple[Any, str]] = {}  # game-wide values read at a path, as text
        self._styles: dict[tuple[Any, ...], tuple[PreparedElement, TextStyle]] = {}  # plainly written styles (_style)
        self.icons = InlineIcons(lib.symbols, {sid: (s.symbol, s.ink) for sid, s in db.suits.items()},
                                 {mid: m.symbol for mid, m in db.marks.items()})
        # a text's {suit:ID} draws that suit's symbol in its ink, whatever the layout's templates read
        self._library = library_fingerprint(lib) + repr((self.icons.suits, self.icons.marks))
        # the game's own TTFs, then layouts/fonts/; read when a layout first names one
        self.fonts = GameFonts(db.folder, lib.root / "fonts")
        self._library += self.fonts.fingerprint()  # a font file edited: its texts are measured again
        self.base: dict[str, Any] = {
            "game": {"id": db.id, "title": db.title, "short_title": db.short_title, "credit": db.credit,
                     "players": db.players and {"min": db.players[0], "max": db.players[1]}, **plain(db.extra)},
            "suits": {sid: s.as_dict() for sid, s in db.suits.items()},
            "marks": {mid: m.as_dict() for mid, m in db.marks.items()},
            **self._card_values(),
            "components": {cid: {"id": c.id, "name": c.name, "code": c.code, "count": c.count or c.printed}
                           for cid, c in db.components.items()},
            "rules": [{"id": r.id, "section": r.section, "title": r.title, "text": r.text} for r in db.rules],
            "faq": [{"id": f.id, "question": f.question, "ruling": f.ruling} for f in db.faq],
            "ink_saver": ink_saver,
        }

    def _card_values(self) -> dict[str, Any]:
        """`cards` (each component's cards) and `by_id` as templates see them: every card's values."""
        cards = {cid: [card_context(c, comp.fields) for c in comp.cards] for cid, comp in self.db.components.items()}
        return {"cards": cards, "by_id": {c["id"]: c for group in cards.values() for c in group}}

    def _with_cards(self) -> dict[str, Any]:
        """What every template sees, the cards' values made again if they were let go."""
        if "by_id" not in self.base:
            self.base.update(self._card_values())
        return self.base

    # --- public -----------------------------------------------------------------------

    def forget_cards(self) -> None:
        """Let go of every card's template values once all is composed (a deck of thousands would hold them
        while it is drawn); composing again makes them anew."""
        self.base.pop("cards", None)
        self.base.pop("by_id", None)
        self._game_parts.clear()  # it holds what it read of them

    @property
    def library_fingerprint(self) -> str:
        """What every scene of the library shares (code, fonts, symbols, sizes, print settings, the game's icons and
        fonts), as its scenes' keys hold it: a drawing of them keyed by it (a PDF's page) changes when they do."""
        return self._library

    def faces(self, component: Component) -> list[Face]:
        """Every printed card of a component, copies expanded; scenes not yet in the store are composed."""
        self._with_cards()
        face_layout = self._prepare(component.face, component.field_place("face"))
        back_layout: PreparedLayout | None
        if face_layout is not None and not component.back:  # a game printed without backs may give none: blank backs
            back_layout = prepare(replace(face_layout.layout, name=f"{component.id} (no back)", elements=[]),
                                  self.ink_saver)
        else:
            back_layout = self._prepare(component.back, component.field_place("back"))
        if face_layout is None or back_layout is None:
            return []
        out: list[Face] = []
        number = 0
        total = component.printed  # once: summing every copy for every card was quadratic
        for index, card in enumerate(component.cards, 1):
            who = card.label(index, component.name_fields)  # as the designer knows it: by its id, else its name and row
            for copy in range(card.copies):
                number += 1
                ctx = self._card_ctx(component, card, number, total, copy)
                face = self._stored(face_layout, ctx, who)
                back = self._stored(back_layout, ctx, f"{who} (back)")
                back = self._keys.setdefault(back, back)  # a deck's one back key, held once
                out.append(Face(component, card, number, face, back, self.store))
        return out

    def page(self, layout_name: str, width: float, height: float, place: Place, extra: dict[str, Any]) -> Scene | None:
        prepared = self._prepare(layout_name, place)
        if prepared is None:
            return None
        ctx = {**self._with_cards(), "page": {"width": width, "height": height}, **extra}
        # kept in the store as a card's scene is, by what its templates read ("page:": the counts of card scenes
        # composed and reused leave it out): a rebuild after a card's edit that the page does not show renders
        # nothing of it (and never imports Jinja2 for it)
        # kept with the fine print it set: a board's credit may go under 6 pt on the A3 page only as fine print,
        # and a page taken from the store is not composed again to say which of its texts are
        key = "page:" + self.key(prepared, ctx, (width, height), bleed=0.0, by_paths=True)
        if key in self.store:
            kept = self.store.get(key)
            if (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], Scene)
                    and isinstance(kept[1], tuple) and all(isinstance(t, str) for t in kept[1])):
                self.fine_print.update(kept[1])
                return kept[0]
        before, outer = len(self.problems.items), self.fine_print
        self.fine_print = own = FinePrint()
        try:
            scene = self.scene(prepared, ctx, f"sheet '{layout_name}'", size=(width, height), bleed=0.0)
        finally:
            self.fine_print = outer
        fine = tuple(own)
        outer.update(fine)
        self.store.put(key, (scene, fine), keep=len(self.problems.items) == before)  # with problems: said again
        return scene

    def _prepare(self, name: str, place: Place) -> PreparedLayout | None:
        prepared = self._prepared.get(name)
        if prepared is None:
            layout = self.lib.layout(name, self.problems, place)
            if layout is None:
                return None
            prepared = self._prepared[name] = prepare(layout, self.ink_saver)
        return prepared

    def _card_ctx(self, component: Component, card: Card, number: int, total: int, copy: int) -> dict[str, Any]:
        cdict = self.base["by_id"][card.id]
        ctx = dict(self.base)
        ctx.update(card=cdict, component=self.base["components"][component.id], number=number,
                   total=total, copy=copy + 1)
        suit = cdict.get(component.suit_field)  # `suit`, else the component's first field of type suit
        ctx["suit"] = self.base["suits"].get(suit) if isinstance(suit, str) else None
        return ctx

    def _size(self, prepared: PreparedLayout) -> tuple[float, float] | None:
        dims = self.lib.sizes.get(prepared.layout.size or "")
        if dims is None:
            self.problems.add(prepared.layout.place, f"layout '{prepared.layout.name}' has no card size", "size: poker")
            return None
        return (dims.width, dims.height)

    def _stored(self, prepared: PreparedLayout, ctx: dict[str, Any], who: str) -> str:
        """The content key of a card's scene, composing it only if the store lacks it."""
        size = self._size(prepared)
        key = self.key(prepared, ctx, size)
        if key not in self.store:
            before = len(self.problems.items)
            scene = self.scene(prepared, ctx, who, size, share=True) if size else Scene(1, 1)
            self.composed += 1
            # a scene whose composing found problems is not kept for later builds: they must see them again
            self.store.put(key, scene, keep=len(self.problems.items) == before)
        return key

    def key(self, prepared: PreparedLayout, ctx: dict[str, Any], size: tuple[float, float] | None,
            bleed: float | None = None, by_paths: bool = False) -> str:
        """What a card's scene (or with bleed=0, a page's) depends on, as a digest: equal keys, equal scenes.

        `by_paths` (a page's): by what its templates read of each name (compiled()'s paths), not the names' whole
        values: a player aid listing `cards.deck[:6]` is the same page after an edit of the deck's 250th card."""
        b = self.bleed if bleed is None else bleed
        head, names, pictures = self._key_plan(prepared, size, b, by_paths)
        parts = [head]
        base, digests, per_card = self.base, self._digests, False
        for name in names:
            if isinstance(name, tuple):  # a page's path: read anew for each page (a few a build)
                per_card = True
                parts.append(f"{name!r}={_digest(_read(ctx, name))}")
                continue
            value = ctx.get(name, _MISSING)
            if value is base.get(name, _MISSING):  # a game-wide value: digested once per build
                part = digests.get(name)
                if part is None:
                    part = digests[name] = f"{name}={_digest(value)}"
                parts.append(part)
            else:
                per_card = True
                parts.append(f"{name}={_digest(value)}")
        if pictures:  # most layouts have none: nothing to read per card
            parts.extend(self._image_files(pictures, prepared, ctx, size, b))
        elif not per_card:  # only game-wide values (a deck's back): the same key for every card, made once
            key = self._shared_keys.get(head)
            if key is None:
                key = self._shared_keys[head] = hashlib.sha1("\n".join(parts).encode()).hexdigest()
            return key
        return hashlib.sha1("\n".join(parts).encode()).hexdigest()

    def _key_plan(self, prepared: PreparedLayout, size: tuple[float, float] | None, bleed: float, by_paths: bool
                  ) -> tuple[str, tuple[str | Path_, ...], tuple[PreparedElement, ...]]:
        """What a layout's keys share, made once per build, not once per card: the parts every key of it starts with,
        the names its templates read in order (by_paths: the paths its elements' templates read), its image elements."""
        plan = self._plans.get(id(prepared))
        if plan is None or plan[0] is not prepared or plan[1] != (size, bleed, by_paths):
            head = "\n".join([self._library, prepared.fingerprint, repr(size), repr(bleed)])
            names: tuple[str | Path_, ...] = tuple(sorted({path for pe in prepared.elements for path in pe.paths})) \
                if by_paths else tuple(sorted(prepared.names))
            plan = self._plans[id(prepared)] = (prepared, (size, bleed, by_paths), head, names,
                                                tuple(pe for pe in prepared.elements if pe.el.type == "image"))
        return plan[2:]

    def _image_files(self, pictures: tuple[PreparedElement, ...], prepared: PreparedLayout, ctx: dict[str, Any],
                     size: tuple[float, float] | None, bleed: float) -> list[str]:
        """The image files a card's scene shows, by path and content: an edited picture, a new scene."""
        # Pillow's readers: imported only for a layout that shows pictures
        from casebook.generator import images

        out, jctx = [], None
        for pe in pictures:
            src = pe.data.get("src")
            if "src" in pe.templated:
                w, h = size or (0.0, 0.0)
                jctx = jctx or self._context({**ctx, "vars": prepared.layout.vars,
                                              "size": {"width": w, "height": h, "bleed": bleed}})
                try:
                    src = "".join(self.lib.template(str(src)).root_render_func(jctx.jinja))
                except Exception:  # reported when composed; until then a key no build finds again
                    out.append(f"image:unsettled:{id(self)}:{next(_UNSETTLED)}")
                    continue
            out.append("image:" + images.signature(self.db.folder, str(src)))
        return out

    def scene(self, prepared: PreparedLayout, ctx: dict[str, Any], who: str, size: tuple[float, float] | None = None,
              bleed: float | None = None, share: bool = False) -> Scene:
        """A card's or page's scene; with `share`, an element drawn for an earlier card from the same values is
        not drawn again (prepare once, apply many: per card only what it reads differently is composed)."""
        if size is None:
            size = self._size(prepared)
            if size is None:
                return Scene(1, 1)
        b = self.bleed if bleed is None else bleed
        w, h = size
        scene = Scene(w + 2 * b, h + 2 * b, b, label=who)
        values = {**ctx, "vars": prepared.layout.vars, "size": {"width": w, "height": h, "bleed": b}}
        # one template context for the whole card, not one per templated value
        jctx = self._context(values)
        for n, pe in enumerate(prepared.elements):
            drawn, key = self._drawn_before(pe, values, (w, h, b)) if share else (None, ())
            if drawn is not None:
                items = drawn.get(key)
                if items is not None:
                    scene.items.extend(items)
                    if (id(pe), key) not in self._kept_drawings:  # drawn for two cards: kept for the next build too
                        self._kept_drawings.add((id(pe), key))
                        self.store.put(self._drawing_key(prepared, n, key), items)
                    continue
                if self.store.has_previous():  # the previous build's drawing of it (a new process has none held)
                    items = self._kept_drawing(prepared, n, key)
                    if items is not None:
                        self._kept_drawings.add((id(pe), key))
                        drawn[key] = items
                        scene.items.extend(items)
                        continue
            start, problems = len(scene.items), len(self.problems.items)
            try:
                self._element(scene, pe, jctx, who, w, h, b)
            except _Skip:
                continue
            # kept only if it said nothing: a problem is said for every card that has it
            if drawn is not None and len(self.problems.items) == problems and len(drawn) < SHARED_PER_ELEMENT:
                drawn[key] = tuple(scene.items[start:])
        return scene

    def _drawing_key(self, prepared: PreparedLayout, n: int, key: tuple[Any, ...]) -> str:
        """The store's key of the drawing of a layout's n-th element from what its templates read (`key`): the
        library and the layout as a card's key holds them, so that what changes them changes it."""
        return DRAWING + hashlib.sha1(repr((self._library, prepared.fingerprint, n, key)).encode()).hexdigest()

    def _kept_drawing(self, prepared: PreparedLayout, n: int, key: tuple[Any, ...]) -> tuple[Item, ...] | None:
        """An element's drawing shared by two cards of the build before (a deck's frame, a suit's emblem), if kept."""
        found = self._drawing_key(prepared, n, key)
        if found not in self.store:
            return None
        items = self.store.get(found, hold=False)
        return items if isinstance(items, tuple) else None

    def _drawn_before(self, pe: PreparedElement, values: dict[str, Any], box: tuple[float, float, float]
                      ) -> tuple[dict[tuple[Any, ...], tuple[Item, ...]] | None, tuple[Any, ...]]:
        """The drawings kept of an element, and the key of this card's: what its templates read of the card."""
        if pe.el.type == "image":  # a picture's file is read as it is drawn
            return None, ()
        entry = self._drawn.get(id(pe))
        if entry is None:
            entry = self._drawn[id(pe)] = (pe, {})
        return entry[1], (box, *(self._part(values, path) for path in pe.paths))

    def _part(self, values: dict[str, Any], path: Path_) -> str:
        """What a card reads at `path`, as text; a game-wide value (the same object for every card) once per build."""
        name = path[0]
        value = values.get(name, _MISSING)
        if value is not self.base.get(name, _MISSING) and name != "vars":  # read per card
            return _digest(_read(values, path))
        held = self._game_parts.get((id(value), path))
        if held is None or held[0] is not value:  # (held, the id cannot be another's)
            held = self._game_parts[id(value), path] = (value, _digest(_read(values, path)))
        return held[1]

    def _context(self, values: dict[str, Any]) -> _Values:
        return _Values(self.lib, values)

    # --- elements -----------------------------------------------------------------------

    def _render(self, value: Any, el: Element, key: str, ctx: _Values, who: str) -> Any:
        if isinstance(value, list):
            return [self._render(v, el, key, ctx, who) for v in value]
        if isinstance(value, dict):
            return {k: self._render(v, el, key, ctx, who) for k, v in value.items()}
        if not is_template(value):
            return value
        parts = puts(value)
        if parts is not None:  # only values put into text: filled in here, unless one is not read plainly
            text = _put(parts, ctx.parent)
            if text is not None:
                return text
        place = el.places.get(key, el.place)
        try:
            template = self.lib.template(value)
            jctx = ctx.jinja
            jctx.vars.clear()  # what one template sets is not seen by the next
            jctx.exported_vars.clear()
            return "".join(template.root_render_func(jctx))
        except Exception as exc:
            self._template_failed(exc, value, key, place, ctx, who)
        raise _Skip

    def _template_failed(self, exc: Exception, value: Any, key: str, place: Place, ctx: _Values, who: str) -> None:
        """Say why a template failed, as a designer would read it (Jinja2 already imported: it was rendering)."""
        import jinja2

        from casebook.generator.template_names import available, explain_undefined

        if isinstance(exc, jinja2.TemplateSyntaxError):
            style = getattr(value, "style", None)
            shift = (exc.lineno or 1) - 1 + (1 if style in ("|", ">") else 0)
            if (place, str(exc.message)) not in self._reported:
                self._reported.add((place, str(exc.message)))
                self.problems.add(place.shifted(shift), f"template syntax in '{key}': {exc.message}",
                                  "Jinja2: {{ name }}, {% if ... %}...{% endif %}")
        elif isinstance(exc, jinja2.UndefinedError):
            if (place, str(exc.message)) not in self._reported:
                self._reported.add((place, str(exc.message)))
                values = ctx.jinja.get_all()  # said as a designer would: which name was empty or missing for this card
                what, expected = explain_undefined(str(value), self.lib.env, values) or (
                    f"undefined name in '{key}': {exc.message}", available(values))
                self.problems.add(place, f"{who}: {what}, in '{key}'", expected)
        elif isinstance(exc, jinja2.TemplateError):
            self.problems.add(place, f"{who}: template error in '{key}': {exc}")
        else:  # arithmetic on bad data inside a template, and the like
            self.problems.add(place, f"{who}: template failed in '{key}': {type(exc).__name__}: {exc}")

    def _get(self, pe: PreparedElement, key: str, ctx: _Values, who: str, default: Any = None) -> Any:
        if key not in pe.data:
            return default
        if key in pe.templated:
            once = self._once
            if once is not None and once[0] is pe and key in once[1]:
                done = once[2].get(key)
                if done is None:
                    value = self._render(pe.data[key], pe.el, key, ctx, who)
                    if isinstance(value, str):  # (a list or mapping is made anew for each copy, as ever)
                        once[2][key] = value
                    return value
                return done
            return self._render(pe.data[key], pe.el, key, ctx, who)
        return pe.data[key]

    def _length(self, pe: PreparedElement, key: str, ctx: _Values, who: str, default: float) -> float:
        value = self._get(pe, key, ctx, who)
        if value is None:
            return default
        try:
            return _length_of(value) if isinstance(value, str | int | float) else parse_length(value)
        except ValueError as exc:
            if key in pe.templated:  # a literal was already reported when the layout was read
                self.problems.add(pe.el.places.get(key, pe.el.place), f"{who}: {key}: {exc}")
            raise _Skip from None

    def _number(self, pe: PreparedElement, key: str, ctx: _Values, who: str, default: float) -> float:
        value = self._get(pe, key, ctx, who)
        if value is None:
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            self.problems.add(pe.el.places.get(key, pe.el.place), f"{who}: {key} must be a number, not {value!r}")
            raise _Skip from None

    def _colour(self, pe: PreparedElement, key: str, ctx: _Values, who: str, default: str | None) -> str | None:
        value = self._get(pe, key, ctx, who, default)
        if value in (None, "", "none"):
            return None
        value = str(value).strip()
        if _is_colour(value):
            return value
        self.problems.add(pe.el.places.get(key, pe.el.place), f"{who}: {key} '{value}' is not a colour", "#rrggbb or none")
        raise _Skip

    def _element(self, scene: Scene, pe: PreparedElement, ctx: _Values, who: str, w: float, h: float, b: float) -> None:
        data = pe.data
        # a `when` that uses `i` is asked of each repeated copy; any other, once for the element
        if "when" in data and not pe.when_per_copy and not self._truthy(pe, ctx, who):
            return
        count, step = 1, (0.0, 0.0)
        if "repeat" in data:
            try:
                count = int(str(self._get(pe, "repeat", ctx, who)).strip())
            except ValueError:
                self.problems.add(pe.el.places.get("repeat", pe.el.place), f"{who}: repeat must be a whole number")
                raise _Skip from None
            raw_step = data.get("step", [0, 0])
            try:
                step = (parse_length(raw_step[0]), parse_length(raw_step[1]))
            except (ValueError, TypeError, IndexError):
                self.problems.add(pe.el.places.get("step", pe.el.place), f"{who}: step must be [dx, dy]", "step: [6mm, 0]")
                raise _Skip from None
        if count > 1:  # what reads neither `i` nor chance is rendered once, for the first copy, not once a copy
            self._once = (pe, self._same_for_copies(pe), {})
        try:
            for i in range(count):
                local = self._context({**ctx.parent, "i": i}) if "repeat" in data else ctx
                if pe.when_per_copy and not self._truthy(pe, local, who):
                    continue
                self._draw(scene, pe, local, who, w, h, b, step[0] * i, step[1] * i)
        finally:
            self._once = None

    def _same_for_copies(self, pe: PreparedElement) -> frozenset[str]:
        """The templated keys of a repeated element that render alike for every copy."""
        held = self._same_per_copy.get(id(pe))
        if held is None or held[0] is not pe:
            held = self._same_per_copy[id(pe)] = (pe, frozenset(k for k in pe.templated if not _per_copy(pe.data[k])))
        return held[1]

    def _truthy(self, pe: PreparedElement, ctx: _Values, who: str) -> bool:
        return str(self._get(pe, "when", ctx, who)).strip().lower() not in FALSY

    def _draw(self, scene: Scene, pe: PreparedElement, ctx: _Values, who: str,
              w: float, h: float, b: float, dx: float, dy: float) -> None:
        el, data = pe.el, pe.data
        etype = el.type
        x = self._length(pe, "x", ctx, who, 0.0) + b + dx
        y = self._length(pe, "y", ctx, who, 0.0) + b + dy
        ew = self._length(pe, "w", ctx, who, w)
        eh = self._length(pe, "h", ctx, who, h)
        if etype == "rect":
            if data.get("bleed"):
                x, y, ew, eh = 0.0, 0.0, scene.width, scene.height
            dash = self._dash(pe, who)
            scene.add(Rect(x, y, ew, eh, self._colour(pe, "fill", ctx, who, None),
                           self._colour(pe, "stroke", ctx, who, None),
                           self._length(pe, "width", ctx, who, 0.3), self._length(pe, "radius", ctx, who, 0.0), dash))
        elif etype == "ellipse":
            scene.add(Ellipse(x + ew / 2, y + eh / 2, ew / 2, eh / 2, self._colour(pe, "fill", ctx, who, None),
                              self._colour(pe, "stroke", ctx, who, None), self._length(pe, "width", ctx, who, 0.3)))
        elif etype == "line":
            pts = self._get(pe, "points", ctx, who, [])
            try:
                points = tuple((parse_length(p[0]) + b + dx, parse_length(p[1]) + b + dy) for p in pts)
            except (ValueError, TypeError, IndexError):
                self.problems.add(el.places.get("points", el.place), f"{who}: points must be [[x, y], ...]")
                raise _Skip from None
            dash = self._dash(pe, who)
            scene.add(Polyline(points, False, None, self._colour(pe, "stroke", ctx, who, "#000000"),
                               self._length(pe, "width", ctx, who, 0.3), dash))
        elif etype == "text":
            self._text(scene, pe, ctx, who, x, y, ew, eh)
        elif etype == "symbol":
            name = str(self._get(pe, "name", ctx, who, "")).strip()
            parts = self.lib.symbols.get(name)
            if not name:  # a suit or mark of game.yaml without a `symbol`, drawn by this element: once a card
                why = (f"{who}: element '{el.data.get('id', 'symbol')}' draws a symbol, but its name is empty "
                       "(a suit or mark without 'symbol' in game.yaml?)")
                if (el.place, why) not in self._reported:
                    self._reported.add((el.place, why))
                    self.problems.add(el.places.get("name", el.place), why,
                                      "give that suit or mark a symbol: in game.yaml, or draw no symbol for it here")
                raise _Skip
            if parts is None:
                self.problems.add(el.places.get("name", el.place), f"{who}: unknown symbol '{name}'",
                                  "one of: " + ", ".join(sorted(self.lib.symbols)) + SYMBOLS_PICTURED)
                raise _Skip
            colour = self._colour(pe, "colour", ctx, who, "#000000") or "#000000"
            background = self._colour(pe, "background", ctx, who, "#FFFFFF") or "#FFFFFF"
            for item in draw_symbol(parts, x, y, ew, eh, colour, background, self._number(pe, "rotate", ctx, who, 0.0)):
                scene.add(item)
        elif etype == "table":
            self._table(scene, pe, ctx, who, x, y, ew, eh)
        elif etype == "image":
            self._image(scene, pe, ctx, who, x, y, ew, eh)

    def _image(self, scene: Scene, pe: PreparedElement, ctx: _Values, who: str,
               x: float, y: float, w: float, h: float) -> None:
        # Pillow's readers: imported only for a layout that shows pictures
        from casebook.generator import images

        el = pe.el
        if w <= 0 or h <= 0:
            self.problems.add(el.place, f"{who}: image '{el.data.get('id', 'image')}' has a box {w:g} x {h:g} mm",
                              "w and h: lengths above 0")
            raise _Skip
        src = str(self._get(pe, "src", ctx, who, ""))
        try:
            found = images.load(self.db.folder, src)
        except images.ImageError as exc:
            self._image_problem(pe, ctx, who, str(exc))
            raise _Skip from None
        for note in found.warnings:  # what svglib could not draw, once per element and file
            if (el.place, note) not in self._reported:
                self._reported.add((el.place, note))
                self.problems.warn(el.places.get("src", el.place), f"image '{src.strip()}': {note}")
        fit = str(self._get(pe, "fit", ctx, who, "contain")).strip()
        if fit not in images.FITS:
            self.problems.add(el.places.get("fit", el.place), f"{who}: fit '{fit}' is not known",
                              "fit: " + " or ".join(images.FITS))
            raise _Skip
        focus = self._get(pe, "focus", ctx, who, [0.5, 0.5])
        try:
            fx, fy = (float(v) for v in focus)
            if not (0 <= fx <= 1 and 0 <= fy <= 1):
                raise ValueError
        except (TypeError, ValueError):
            self.problems.add(el.places.get("focus", el.place), f"{who}: focus must be [across, down], each 0 to 1",
                              "focus: [0.5, 0.3] (the point of the image kept in view: a half across, 30 % down)")
            raise _Skip from None
        radius = self._length(pe, "radius", ctx, who, 0.0)
        box = images.fit(found.width, found.height, (x, y, w, h), fit, (fx, fy))
        clip = (x, y, w, h) if fit == "cover" or radius > 0 else None
        scene.add(Picture(*box, found.path, found.digest, found.kind, found.root, clip, radius))

    def _image_problem(self, pe: PreparedElement, ctx: _Values, who: str, why: str) -> None:
        """An image that cannot be drawn: at the card's field its path comes from, or at the element's src."""
        from casebook.generator import images

        el = pe.el
        place = el.places.get("src", el.place)
        if "src" not in pe.templated:  # the same for every card: said once
            if (place, why) not in self._reported:
                self._reported.add((place, why))
                self.problems.add(place, f"image: {why}", "src: a PNG, JPEG or SVG file in the game's folder, "
                                  "e.g. art/lamp.png")
            return
        card = ctx.get("card")
        field_name = images.card_field(str(pe.data["src"]))
        try:
            held = self.db.card(card["id"]) if isinstance(card, dict) and field_name in card else None
        except KeyError:
            held = None
        if held is not None and field_name in held.data:
            cell = held.field_place(field_name)
            if (cell, why) not in self._reported:  # once a cell, not once a copy
                self._reported.add((cell, why))
                self.problems.add(cell, f"{who}: image: {why} (the layout's src: {place})",
                                  "a PNG, JPEG or SVG file in the game's folder")
            return
        self.problems.add(place, f"{who}: image: {why}", "a PNG, JPEG or SVG file in the game's folder")

    def _dash(self, pe: PreparedElement, who: str) -> tuple[float, ...]:
        el, data = pe.el, pe.data
        try:
            return tuple(parse_length(d) for d in data.get("dash") or [])
        except (ValueError, TypeError):
            self.problems.add(el.places.get("dash", el.place), f"{who}: dash must be a list of lengths", "dash: [1mm, 1mm]")
            raise _Skip from None

    def _style(self, pe: PreparedElement, ctx: _Values, who: str, **defaults: Any) -> TextStyle:
        """A text's style; one whose keys are all written plainly (no template) is the same for every card: worked
        out for the first, then kept with its element (a fault in it is not kept: said for each card, as ever)."""
        if not pe.templated & _STYLE_KEYS:
            held = self._styles.get((id(pe), *defaults.items()))
            if held is not None and held[0] is pe:  # (held with the element: its id cannot be another's)
                return held[1]
            style = self._style_now(pe, ctx, who, defaults)
            self._styles[(id(pe), *defaults.items())] = (pe, style)
            return style
        return self._style_now(pe, ctx, who, defaults)

    def _style_now(self, pe: PreparedElement, ctx: _Values, who: str, defaults: dict[str, Any]) -> TextStyle:
        el = pe.el
        try:
            font = self.fonts.resolve(self._get(pe, "font", ctx, who, defaults.get("font", "regular")))
        except FontError as exc:
            place = el.places.get("font", el.place)
            if (place, str(exc)) not in self._reported:  # once, not once per card
                self._reported.add((place, str(exc)))  # a card is named only where its values choose the font
                self.problems.add(place, f"{who}: {exc}" if "font" in pe.templated else str(exc), exc.expected)
            raise _Skip from None
        align = str(self._get(pe, "align", ctx, who, defaults.get("align", "left")))
        valign = str(self._get(pe, "valign", ctx, who, defaults.get("valign", "top")))
        if align not in ("left", "center", "right") or valign not in ("top", "middle", "bottom"):
            self.problems.add(el.place, f"{who}: align is left/center/right and valign top/middle/bottom")
            raise _Skip
        fit, top = str(self._get(pe, "fit", ctx, who, "shrink")), str(self._get(pe, "top", ctx, who, ""))
        if fit not in FITS or top not in ("", *TOPS):
            key = "fit" if fit not in FITS else "top"
            self.problems.add(el.places.get(key, el.place), f"{who}: {key} '{fit if key == 'fit' else top}' is not known",
                              f"{key}: " + " or ".join(FITS if key == "fit" else TOPS))
            raise _Skip
        size = self._number(pe, "size", ctx, who, defaults.get("size", 9.0))
        return TextStyle(
            font=font, size=size, min_size=self._number(pe, "min_size", ctx, who, min(size, defaults.get("min_size", 6.0))),
            colour=self._colour(pe, "colour", ctx, who, "#000000") or "#000000", align=align, valign=valign,
            leading=self._number(pe, "leading", ctx, who, 1.2),
            heading_colour=self._colour(pe, "heading_colour", ctx, who, None), fit=fit, top=top,
            variants=self.fonts.variants(font),
        )

    def _text(self, scene: Scene, pe: PreparedElement, ctx: _Values, who: str,
              x: float, y: float, w: float, h: float) -> None:
        el = pe.el
        text = str(self._get(pe, "text", ctx, who, "")).strip("\n")
        if not text.strip():
            return
        st = self._style(pe, ctx, who)
        angle = self._number(pe, "rotate", ctx, who, 0.0) % 360
        if angle not in (0, 90, 180, 270):
            self.problems.add(el.places.get("rotate", el.place), f"{who}: text turns in quarter turns only, not {angle:g}",
                              "rotate: 90, 180 or 270 (clockwise)")
            raise _Skip
        # a turned text is laid out upright in the box as it will be seen, then turned about its centre
        cx, cy = x + w / 2, y + h / 2
        box = (cx - h / 2, cy - w / 2, h, w) if angle in (90, 270) else (x, y, w, h)
        fitted = _fitted(text, *box, st)
        if not fitted.fits:
            self.problems.add(el.places.get("text", el.place), *overflow(fitted, st, who, el.data.get("id", "text"), w, h,
                                                                        box[2:]))
        check_game_text(fitted, el, who, self.problems, self.fine_print)
        if may_lack(fitted, st):
            card = ctx.get("card")
            check_text_fonts(fitted, st, text, self.fonts, self.db, card.get("id") if isinstance(card, dict) else None,
                             el, who, self.problems)
        if fitted.icons:
            scene.items.extend(self._icons(fitted, pe, ctx, who, angle, (cx, cy)))
        if not angle:
            scene.items.extend(fitted.runs)
            return
        cos, sin = round(math.cos(math.radians(angle))), round(math.sin(math.radians(angle)))
        for run in fitted.runs:
            dx, dy = run.x - cx, run.y - cy
            scene.add(replace(run, x=cx + dx * cos - dy * sin, y=cy + dx * sin + dy * cos, angle=angle))

    def _icons(self, fitted: Fitted, pe: PreparedElement, ctx: _Values, who: str, angle: float = 0.0,
               centre: tuple[float, float] = (0.0, 0.0)) -> list[Item]:
        """A text's inline icons as scene items; an unknown one is a problem at the card's field that names it."""
        if not fitted.icons:
            return []
        try:
            return self.icons.draw(fitted.icons, self._colour(pe, "icon_background", ctx, who, "#FFFFFF") or "#FFFFFF",
                                   angle, centre)
        except UnknownIcon as exc:
            card = ctx.get("card")
            place, _ = field_holding(self.db, card.get("id") if isinstance(card, dict) else None, exc.holds,
                                     pe.el.places.get("text", pe.el.place))
            self.problems.add(place, f"{who}: text '{pe.el.data.get('id', 'text')}' draws {exc.written}: {exc}",
                              "one of: " + ", ".join(exc.known) + SYMBOLS_PICTURED * (exc.kind == "symbol") if exc.known else "")
            raise _Skip from None

    def _table(self, scene: Scene, pe: PreparedElement, ctx: _Values, who: str,
               x: float, y: float, w: float, h: float) -> None:
        el = pe.el
        columns = self._get(pe, "columns", ctx, who, [])
        rows = self._get(pe, "rows", ctx, who, [])
        if isinstance(rows, str):  # a template listing one row label a line
            rows = [line.strip() for line in rows.splitlines() if line.strip()]
        if not isinstance(columns, list) or not columns or not isinstance(rows, list) or not rows:
            self.problems.add(el.place, f"{who}: a table needs 'columns' and 'rows' lists",
                              "columns: [{title: Case, width: 2}, ...], rows: [Case 1, ...]")
            raise _Skip
        stroke = self._colour(pe, "stroke", ctx, who, "#333333") or "#333333"
        line_w = self._length(pe, "width", ctx, who, 0.25)
        header_h = self._length(pe, "header_height", ctx, who, 10.0)
        header_fill = self._colour(pe, "header_fill", ctx, who, None)
        stripe = self._colour(pe, "stripe", ctx, who, None)
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
        head = self._style(pe, ctx, who, font="bold", size=self._number(pe, "header_size", ctx, who, 8.0),
                           align="center", valign="middle")
        floor = floor_of(el)  # a table's titles and rows are game text: shrunk to fit, never under 6 pt
        head = TextStyle(font="bold", size=head.size, min_size=min(head.size, floor), colour=head.colour,
                         align="center", valign="middle")
        body = TextStyle(font="regular", size=self._number(pe, "size", ctx, who, 8.0), min_size=floor,
                         colour=self._colour(pe, "colour", ctx, who, "#000000") or "#000000", valign="middle")
        pad = 1.2
        for i, col in enumerate(columns):
            title = str(col.get("title", "")) if isinstance(col, dict) else str(col)
            fitted = fit_text(title, xs[i] + pad, y + 0.6, xs[i + 1] - xs[i] - 2 * pad, header_h - 1.2, head, self.metrics)
            if not fitted.fits:
                self.problems.add(el.places.get("columns", el.place), f"{who}: column title '{title}' does not fit")
            check_game_text(fitted, el, who, self.problems, self.fine_print, f"column title '{title}'", "header_size")
            scene.items.extend([*fitted.runs, *self._icons(fitted, pe, ctx, who)])
        for r, label in enumerate(rows):
            fitted = fit_text(str(label), xs[0] + pad, y + header_h + r * row_h + 0.4, xs[1] - xs[0] - 2 * pad,
                              row_h - 0.8, body, self.metrics)
            if not fitted.fits:
                self.problems.add(el.places.get("rows", el.place), f"{who}: row label '{label}' does not fit")
            check_game_text(fitted, el, who, self.problems, self.fine_print, f"row label '{label}'")
            scene.items.extend([*fitted.runs, *self._icons(fitted, pe, ctx, who)])
        lines: list[Item] = [Rect(x, y, w, h, stroke=stroke, width=line_w * 1.6)]
        for r in range(len(rows)):
            yy = y + header_h + r * row_h
            lines.append(Polyline(((x, yy), (x + w, yy)), stroke=stroke, width=line_w * (1.6 if r == 0 else 1)))
        for xx in xs[1:-1]:
            lines.append(Polyline(((xx, y), (xx, y + h)), stroke=stroke, width=line_w))
        scene.items.extend(lines)
