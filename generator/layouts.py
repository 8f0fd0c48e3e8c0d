"""Layouts as data: sizes, papers, symbols and per-component faces and backs (layouts/*.yaml).

A layout may `extends:` another; its `vars` merge over the parent's and its `elements`
merge by `id` (same id: keys override; `remove: true` drops it; new ids append).
Lengths are mm unless they say in/pt/cm. Any string may be a Jinja2 template, rendered
in a sandbox where an undefined name is an error; besides Jinja2's own filters, colours
have `tint(f)` (that far towards white) and `shade(f)` (towards black): `{{ suit.colour | tint(0.8) }}`.
An element with `repeat: N` is drawn N times with `i` = 0..N-1; its `when`, if it uses `i`,
is asked of each copy. A text may turn clockwise in quarter turns (`rotate: 180` for the
turned index in a card's far corner), laid out in its box as it will be read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import keyword
import marshal
import os
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

from casebook.generator.symbols import ICONS_FILE, Part, load_icons, parse_library

# the colour filters and a template path's shape live in template_values (templating.py needs them without
# importing this module); layouts and the modules that read it keep taking them from here
from casebook.generator.template_values import DICT_ATTRIBUTES as DICT_ATTRIBUTES
from casebook.generator.template_values import Path_
from casebook.generator.template_values import shade as shade
from casebook.generator.template_values import tint as tint
from casebook.generator.units import parse_length
from casebook.rules import yamlsource
from casebook.rules.cards import shipped_folder
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, load_yaml, place_of
from casebook.rules.yamlsource import cache_folder as _cache_folder

if TYPE_CHECKING:
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

LAYOUTS_DIR = shipped_folder("casebook.layouts")
_MISSING = object()

COMMON_KEYS = {"id", "type", "x", "y", "w", "h", "when", "repeat", "step", "ink_saver", "remove"}
ELEMENT_KEYS: dict[str, set[str]] = {
    "rect": {"fill", "stroke", "width", "radius", "dash", "bleed"},
    "ellipse": {"fill", "stroke", "width"},
    "line": {"points", "stroke", "width", "dash"},
    "text": {"text", "font", "size", "min_size", "colour", "align", "valign", "leading", "heading_colour", "rotate",
             "game_text", "fine_print", "fit", "top", "icon_background"},
    "symbol": {"name", "colour", "background", "rotate"},
    "table": {"columns", "rows", "font", "size", "header_size", "header_height", "colour", "stroke", "width",
              "header_fill", "label_width", "stripe", "icon_background"},
    "image": {"src", "fit", "focus", "radius"},  # a PNG, JPEG or SVG in the game's folder (generator/images.py)
}
LAYOUT_KEYS = {"extends", "size", "page", "vars", "elements", "description"}







class Compiled:
    """A template compiled once: the names it reads and how it reads them, and what Environment.from_string gives.

    The template itself is made from its code when first rendered: a build whose scenes are found in the store
    by these names alone never imports Jinja2 (generator/templating.py).
    """

    __slots__ = ("names", "paths", "_code", "_template")

    def __init__(self, code: CodeType, names: frozenset[str], paths: frozenset[Path_]):
        self.names = names
        self.paths = paths  # ("card", "name") where it only reads card.name; ("card",) where it reads card itself
        self._code: CodeType | None = code
        self._template: jinja2.Template | None = None

    @property
    def template(self) -> jinja2.Template:
        if self._template is None:
            env, code = _environment(), self._code
            assert code is not None  # let go only once the template is made
            self._template = env.template_class.from_code(env, code, env.make_globals(None), None)
            self._code = None
        return self._template


_COMPILED: dict[str, Compiled | None] = {}  # template source -> compiled, in the one environment (None: it does not)


def _environment() -> SandboxedEnvironment:
    """The one template environment (generator/templating.py): Jinja2 imported when first asked for."""
    from casebook.generator.templating import environment

    return environment()


def compiled(source: str) -> Compiled | None:
    """A template parsed and compiled once, its names found in the same pass; None if it does not compile
    (Environment.from_string then raises the error, as it says it).

    What was compiled is also kept on disk (TemplateCache), as Python keeps a module's bytecode and
    Jinja2's bytecode caches keep a template's: the next run loads the code instead of compiling it.
    """
    found = _COMPILED.get(source, _MISSING)
    if found is _MISSING:
        found = TEMPLATE_CACHE.load(source)
        if found is None:
            from casebook.generator.templating import NamesGenerator, TemplateSyntaxError

            env = _environment()
            try:
                ast = env.parse(source)
                generator = NamesGenerator(env)
                generator.visit(ast)
                code = compile(generator.code.getvalue(), "<template>", "exec")  # as Environment.compile does
            except TemplateSyntaxError:
                found = None
            else:
                found = Compiled(code, frozenset(generator.undeclared), generator.paths())
                TEMPLATE_CACHE.save(source, code, found)
        _COMPILED[source] = found
    return found  # type: ignore[return-value]


def _jinja2_files() -> tuple[Path, ...]:
    """What the compiled code depends on besides this module, found without importing Jinja2: the code generator
    (generator/templating.py) and Jinja2's own __init__ (which says its version); () if Jinja2 is not installed."""
    from importlib.util import find_spec

    spec = find_spec("jinja2")
    if spec is None or spec.origin is None:
        return ()
    return (Path(__file__).with_name("templating.py"), Path(spec.origin))


class TemplateCache:
    """Compiled templates kept between runs, one small file each, in the user's cache folder.

    `$CASEBOOK_CACHE_DIR` chooses the folder (empty: keep nothing); else `$XDG_CACHE_HOME/casebook`,
    else `~/.cache/casebook`. Each file holds a template's source, its Python code (marshal, as in
    a .pyc) and the names it reads, under a folder named for everything the code depends on: this
    module, the code generator's, Jinja2's version (its __init__) and Python's; a file that cannot be
    read or holds another source is compiled again. Safe to delete at any time; a folder that cannot
    be written is simply not used. Loading a template's names needs no Jinja2: only rendering it does.
    """

    def __init__(self) -> None:
        self._folder: Path | None | object = _MISSING  # found when first asked for

    def folder(self) -> Path | None:
        if self._folder is _MISSING:
            jinja = _jinja2_files()
            self._folder = _cache_folder("templates", (Path(__file__), *jinja), "") if jinja else None
        return self._folder  # type: ignore[return-value]

    def _path(self, source: str) -> Path | None:
        folder = self.folder()
        return folder / hashlib.sha1(source.encode()).hexdigest() if folder is not None else None

    def load(self, source: str) -> Compiled | None:
        path = self._path(source)
        if path is None:
            return None
        try:
            kept, code, names, paths = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if kept != source or not isinstance(code, CodeType):  # another template under the same digest
            return None
        return Compiled(code, frozenset(names), frozenset(tuple(p) for p in paths))

    def save(self, source: str, code: CodeType, found: Compiled) -> None:
        path = self._path(source)
        if path is None:
            return
        data = marshal.dumps((source, code, tuple(sorted(found.names)), tuple(sorted(found.paths))))
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, path)  # whole or not at all: two builds at once each write a whole file
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()


TEMPLATE_CACHE = TemplateCache()


class ParseCache(yamlsource.ParseCache):
    """Layout files as parsed, kept between runs in the user's cache folder (rules/yamlsource.py ParseCache)."""

    def parse(self, path: Path, problems: Problems, packed: str | None = None) -> Any:
        return load_yaml(path, problems)


PARSE_CACHE = ParseCache()


@dataclass(frozen=True)
class Size:
    """A card size by name, in mm."""
    id: str
    width: float
    height: float
    round: bool = False


@dataclass
class Element:
    """One element of a layout as read from its file, with the place of each of its values."""
    data: dict[str, Any]
    place: Place
    places: dict[str, Place]  # of each key's value

    @property
    def type(self) -> str:
        return str(self.data.get("type", ""))


@dataclass
class Layout:
    """One layout file as read: its card size (or a page), its variables and its elements."""
    name: str
    path: Path
    size: str | None
    page: bool
    vars: dict[str, Any]
    elements: list[Element]
    place: Place


@dataclass
class PrintSettings:
    """The print settings of the layouts (bleed, safe area, page margin), in mm."""
    bleed: float = 3.0
    safe: float = 3.0
    page_margin: float = 5.0


@dataclass
class LayoutLibrary:
    """Everything under layouts/: sizes, papers, symbols, and layouts loaded on demand."""

    root: Path
    sizes: dict[str, Size] = field(default_factory=dict)
    papers: dict[str, Size] = field(default_factory=dict)
    settings: PrintSettings = field(default_factory=PrintSettings)
    symbols: dict[str, list[Part]] = field(default_factory=dict)
    layouts: dict[str, Layout | None] = field(default_factory=dict)
    own: Path | None = None  # a designer's game folder (`casebook build PATH`): its layouts are found there first

    @property
    def env(self) -> SandboxedEnvironment:
        """The one environment templates render in: Jinja2 imported when first asked for (a rebuild whose scenes
        are all in the store never asks)."""
        return _environment()

    def template(self, source: str) -> jinja2.Template:
        found = compiled(source)
        if found is None:  # a template that does not compile: from_string raises its error, as it says it
            return self.env.from_string(source)
        return found.template

    def layout(self, name: str, problems: Problems, place: Place) -> Layout | None:
        """The layout called `name` (its path below layouts/ without .yaml), extends resolved."""
        if name not in self.layouts:
            self.layouts[name] = self._load(name, problems, place, ())
        return self.layouts[name]

    def _load(self, name: str, problems: Problems, place: Place, chain: tuple[str, ...]) -> Layout | None:
        if name in chain:
            problems.add(place, "layouts extend each other in a circle: " + " -> ".join([*chain, name]))
            return None
        path = self.root / f"{name}.yaml"
        if self.own is not None and (self.own / f"{name}.yaml").is_file():
            path = self.own / f"{name}.yaml"
        if not path.is_file():
            if self.own is not None:
                problems.add(place, f"no layout '{name}' ({self.own / name}.yaml does not exist)",
                             f"the name of a layout file in {self.own} without .yaml, e.g. face for face.yaml")
                return None
            problems.add(place, f"no layout '{name}' ({path} does not exist)",
                         "a layout name below layouts/ without .yaml, e.g. graves/detective-face")
            return None
        raw = PARSE_CACHE.load(path, problems)
        if raw is None:
            return None
        if not isinstance(raw, Node):
            problems.add(place_of(raw, fallback=Place(str(path))), "a layout must be a mapping")
            return None
        for key in raw:
            if key not in LAYOUT_KEYS:
                problems.add(raw.key_place(key), f"unknown key '{key}' in a layout",
                             "one of: " + ", ".join(sorted(LAYOUT_KEYS)))
        parent: Layout | None = None
        if "extends" in raw:
            parent = self._load(str(raw["extends"]), problems, raw.value_place("extends"), (*chain, name))
            if parent is None:
                return None  # its problem is reported; a half layout would only add noise
        size = raw.get("size", parent.size if parent else None)
        if size is not None and size not in self.sizes:
            problems.add(raw.value_place("size"), f"unknown size '{size}'", "one of: " + ", ".join(self.sizes))
        variables = dict(parent.vars) if parent else {}
        if "vars" in raw:
            if isinstance(raw["vars"], dict):
                variables.update(raw["vars"])
            else:
                problems.add(raw.value_place("vars"), "'vars' must be a mapping")
        elements = [Element(dict(e.data), e.place, dict(e.places)) for e in parent.elements] if parent else []
        for el in _element_nodes(raw, problems):
            _merge_element(elements, el, problems)
        return Layout(name, path, size if isinstance(size, str) else None,
                      bool(raw.get("page", parent.page if parent else False)), variables, elements, raw.place)


def _element_nodes(raw: Node, problems: Problems) -> list[Node]:
    els = raw.get("elements", [])
    if not isinstance(els, list):
        problems.add(raw.value_place("elements"), "'elements' must be a list")
        return []
    out = []
    for i, el in enumerate(els):
        if not isinstance(el, Node):
            problems.add(place_of(els, i), "an element must be a mapping", "- {type: text, x: 3, y: 3, ...}")
            continue
        out.append(el)
    return out


def _merge_element(elements: list[Element], node: Node, problems: Problems) -> None:
    eid = node.get("id")
    places = {k: node.value_place(k) for k in node}
    if eid is not None:
        for i, existing in enumerate(elements):
            if existing.data.get("id") == eid:
                if node.get("remove"):
                    del elements[i]
                    return
                existing.data.update(node)
                existing.places.update(places)
                existing.place = node.place
                _check_element(existing, problems)
                return
        if node.get("remove"):
            problems.add(node.place, f"no element '{eid}' in the parent layout to remove")
            return
    el = Element(dict(node), node.place, places)
    _check_element(el, problems)
    elements.append(el)


def _check_element(el: Element, problems: Problems) -> None:
    etype = el.type
    if etype not in ELEMENT_KEYS:
        problems.add(el.places.get("type", el.place), f"unknown element type '{etype}'",
                     "one of: " + ", ".join(ELEMENT_KEYS))
        return
    allowed = COMMON_KEYS | ELEMENT_KEYS[etype]
    for key in el.data:
        if key not in allowed:
            problems.add(el.places.get(key, el.place), f"unknown key '{key}' for a {etype} element",
                         "one of: " + ", ".join(sorted(allowed)))
    dash = el.data.get("dash")
    if dash is not None:
        try:
            if not isinstance(dash, list):
                raise TypeError
            for d in dash:
                parse_length(d)
        except (ValueError, TypeError):
            problems.add(el.places.get("dash", el.place), "dash must be a list of lengths", "dash: [1mm, 1mm]")
    for key in ("x", "y", "w", "h", "width", "radius"):
        value = el.data.get(key)
        if value is None or is_template(value):
            continue
        try:
            parse_length(value)
        except ValueError as exc:
            problems.add(el.places.get(key, el.place), f"{key}: {exc}")


def is_template(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


_PUT = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\s*\}\}")
# names a `{{ name }}` does not simply read from the context: Jinja2's literals, Python's keywords, and what its code
# generator or a loop or macro gives a meaning of its own
_NOT_PLAIN = frozenset({"true", "false", "none", "self", "loop", "caller", "varargs", "kwargs", "super",
                        *keyword.kwlist, *keyword.softkwlist})
Put = tuple[str, str | None, str | None]  # text, then the name (and key) whose value follows it; the last: no name
_PUTS: dict[str, tuple[Put, ...] | None] = {}


def puts(source: str) -> tuple[Put, ...] | None:
    """A template that only puts values into text (`{{ name }}`, `{{ name.key }}`, and text around them), as its
    parts; None for any other (filters, tests, statements, comments, whitespace control, a carriage return).

    Such a template renders, in the environment's settings (no autoescape, no finalize, trailing newline
    dropped), as its text with str() of each value, a dict's key read as the sandbox reads it: compose.py
    fills it in without Jinja2, and hands Jinja2 whatever it cannot read plainly (test_compiled_templates.py).
    """
    found = _PUTS.get(source, _MISSING)
    if found is _MISSING:
        found = _PUTS[source] = _parse_puts(source)
    return found  # type: ignore[return-value]


def _parse_puts(source: str) -> tuple[Put, ...] | None:
    if "\r" in source:  # Jinja2's lexer makes every line end one "\n": left to it
        return None
    if source.endswith("\n"):  # keep_trailing_newline=False: one is dropped
        source = source[:-1]
    parts: list[Put] = []
    at = 0
    for m in _PUT.finditer(source):
        name, key = m.group(1), m.group(2)
        text = source[at:m.start()]
        if name in _NOT_PLAIN or (key is not None and key in _NOT_PLAIN) or not _plain_text(text):
            return None
        parts.append((text, name, key))
        at = m.end()
    text = source[at:]
    if not _plain_text(text):
        return None
    parts.append((text, None, None))
    return tuple(parts)


def _plain_text(text: str) -> bool:
    return "{{" not in text and "{%" not in text and "{#" not in text


def holds_template(value: Any) -> bool:
    """A template, or a list or mapping with one inside."""
    if isinstance(value, list):
        return any(holds_template(v) for v in value)
    if isinstance(value, dict):
        return any(holds_template(v) for v in value.values())
    return is_template(value)


@dataclass(frozen=True)
class PreparedElement:
    """One element made ready for many cards: its keys split into fixed values and templates."""

    el: Element
    data: dict[str, Any]  # ink-saver overrides already merged
    templated: frozenset[str]  # keys whose value holds a template; every other value is fixed
    when_per_copy: bool  # repeated, and its `when` reads the repeat index `i`: asked of each copy
    paths: tuple[Path_, ...] = ()  # what its templates read, as compiled() says (`i` left out): equal, equal drawing


@dataclass(frozen=True)
class PreparedLayout:
    """A layout turned once into a plan; per card only `templated` keys are evaluated.

    `names` are the context names its templates read, so two cards that agree on them get
    the same scene; `fingerprint` changes whenever anything in the layout does.
    """

    layout: Layout
    elements: tuple[PreparedElement, ...]
    names: frozenset[str]
    fingerprint: str


def _template_paths(value: Any) -> set[Path_]:
    """What the templates in a value read (compiled(): `card.name` as ("card", "name"))."""
    if isinstance(value, list):
        return set().union(*(_template_paths(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_template_paths(v) for v in value.values())) if value else set()
    if not is_template(value):
        return set()
    found = compiled(str(value))
    return set(found.paths) if found is not None else set()  # one that does not compile is reported when rendered


def prepare(layout: Layout, ink_saver: bool) -> PreparedLayout:
    """Split every element of a layout into fixed values and templates, once."""
    elements = []
    names: set[str] = set()
    for el in layout.elements:
        data = el.data
        if ink_saver and isinstance(data.get("ink_saver"), dict):
            data = {**data, **data["ink_saver"]}
        templated = frozenset(k for k, v in data.items() if k != "ink_saver" and holds_template(v))
        read = set().union(*(_template_paths(data[k]) for k in templated)) if templated else set()
        names |= {path[0] for path in read}
        per_copy = "repeat" in data and any(path[0] == "i" for path in _template_paths(data.get("when")))
        read = {path for path in read if path[0] != "i" and (len(path) == 1 or (path[0],) not in read)}
        elements.append(PreparedElement(el, data, templated, per_copy, tuple(sorted(read))))
    names.discard("i")
    content = json.dumps([layout.name, layout.size, layout.page, layout.vars, [e.data for e in elements], ink_saver],
                         sort_keys=True, default=str)
    return PreparedLayout(layout, tuple(elements), frozenset(names), hashlib.sha1(content.encode()).hexdigest())


def load_library(root: Path = LAYOUTS_DIR, problems: Problems | None = None) -> LayoutLibrary:
    """Read sizes.yaml and symbols.yaml; layouts are read when first asked for."""
    problems = problems if problems is not None else Problems()
    lib = LayoutLibrary(root)
    sizes_path = root / "sizes.yaml"
    raw = PARSE_CACHE.load(sizes_path, problems)
    if isinstance(raw, Node):
        for group, target in (("sizes", lib.sizes), ("papers", lib.papers)):
            entries = raw.get(group)
            if not isinstance(entries, Node):
                problems.add(raw.place, f"sizes.yaml needs '{group}:' (a mapping)")
                continue
            for sid, spec in entries.items():
                if not isinstance(spec, Node):
                    problems.add(entries.value_place(sid), f"{group} '{sid}' must be a mapping", "{width: 63mm, height: 88mm}")
                    continue
                try:
                    target[sid] = Size(sid, parse_length(spec.get("width")), parse_length(spec.get("height")),
                                       spec.get("shape") == "round")
                except ValueError as exc:
                    problems.add(spec.place, f"{group} '{sid}': {exc}")
        settings = raw.get("print")
        if isinstance(settings, Node):
            for key in ("bleed", "safe", "page_margin"):
                if key in settings:
                    try:
                        setattr(lib.settings, key, parse_length(settings[key]))
                    except ValueError as exc:
                        problems.add(settings.value_place(key), f"{key}: {exc}")
    sym_path = root / "symbols.yaml"
    lib.symbols = _parsed_pictures(sym_path, problems)
    icons_path = root / ICONS_FILE  # pictures vendored from icon sets, beside our own
    if icons_path.is_file():
        lib.symbols |= _parsed_pictures(icons_path, problems, lib.symbols)
    return lib


def _parsed_pictures(path: Path, problems: Problems, own: dict[str, list[Part]] | None = None) -> dict[str, list[Part]]:
    """symbols.yaml (own=None) or icons.yaml beside it, parsed and flattened (generator/symbols.py) once, then kept.

    Kept in the user's cache, an entry named for the file's bytes, the names of our own symbols
    and of the files beside it (the icons' licence files), under a folder named for the code that
    parses it: any change finds no entry and parses again. A file with a problem is never kept:
    it is said on every run.
    """
    from casebook.generator import symbols

    folder = _cache_folder("pictures", (Path(symbols.__file__), Path(yamlsource.__file__)), "")
    entry = None
    if folder is not None:
        try:
            sha = hashlib.sha1(path.read_bytes())
            beside = sorted(os.listdir(path.parent)) if own is not None else []
            sha.update(repr((str(path), None if own is None else sorted(own), beside)).encode())
            entry = folder / sha.hexdigest()
            with open(entry, "rb") as f:
                kept = pickle.load(f)
            if isinstance(kept, dict):
                return kept
        except Exception:  # noqa: BLE001 - none kept yet, or an entry cut short or corrupt: parsed again
            pass
    before = len(problems)
    raw = PARSE_CACHE.load(path, problems)
    if own is None:
        parsed = parse_library(raw, problems, Place(str(path))) if raw is not None else {}
    else:
        parsed = load_icons(raw, problems, Place(str(path)), own)[0]
    if entry is not None and len(problems) == before:
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, entry)  # whole or not at all
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            with contextlib.suppress(OSError):
                tmp.unlink()
    return parsed
