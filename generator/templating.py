"""The Jinja2 side of layouts: the one sandboxed environment templates render in, and the code generator that
notes what a template reads as it compiles it.

Imported only when a template is compiled or rendered (generator/layouts.py compiled() and Compiled.template):
a rebuild whose scenes are all in the store, or found by the names their templates read as the template cache
kept them, never imports Jinja2.
"""

from __future__ import annotations

from functools import cache
from io import StringIO
from types import BuiltinMethodType
from typing import Any

import jinja2
from jinja2 import TemplateSyntaxError, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.idtracking import VAR_LOAD_RESOLVE
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from casebook.generator.template_values import DICT_ATTRIBUTES, Path_, shade, tint

__all__ = ["NamesGenerator", "Sandbox", "TemplateSyntaxError", "environment"]


class Sandbox(SandboxedEnvironment):
    """Jinja2's sandbox, answering its hottest questions faster with the same answers.

    A plain dict's key read as an attribute (`card.name`) is looked up directly, not after a
    failed getattr; whether an attribute is safe, which depends only on the object's type and
    the attribute's name, is worked out once per pair; and a plain dict's, list's or string's
    own method (`by_id.get(x)`, the board's hottest call) is called as Context.call would call
    it, without asking first what it never is (unsafe, or in want of the context).
    """

    def __init__(self, **options: Any):
        super().__init__(**options)
        self._safe: dict[tuple[type, str], bool] = {}

    def getattr(self, obj: Any, attribute: str) -> Any:
        """SandboxedEnvironment.getattr, step for step."""
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:  # getattr would fail: the key, or undefined
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        try:
            value = getattr(obj, attribute)
        except AttributeError:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                pass
        else:
            fmt = self.wrap_str_format(value)
            if fmt is not None:
                return fmt
            if self.is_safe_attribute(obj, attribute, value):
                return value
            return self.unsafe_undefined(obj, attribute)
        return self.undefined(obj=obj, name=attribute)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        key = (type(obj), attr)
        safe = self._safe.get(key)
        if safe is None:
            safe = self._safe[key] = super().is_safe_attribute(obj, attr, value)
        return safe

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - as Jinja2's
        # a builtin method has no `unsafe_callable`, `alters_data` or `jinja_pass_arg`: safe, called as it is
        if type(__obj) is BuiltinMethodType and type(__obj.__self__) in _PLAIN:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:  # as Context.call says it
                return __context.environment.undefined(
                    "value was undefined because a callable raised a StopIteration exception")
        return super().call(__context, __obj, *args, **kwargs)


_PLAIN = frozenset({dict, list, tuple, str})


@cache
def environment() -> SandboxedEnvironment:
    """The one template environment: shared, so compiled templates outlive a library (a --watch rebuild)."""
    env = Sandbox(undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True,
                   lstrip_blocks=True, keep_trailing_newline=False)
    env.filters.update(tint=tint, shade=shade)
    return env


def _whole_bounds(arg: nodes.Expr) -> str | None:
    """`start:stop` of a slice whose bounds are whole numbers written out, or left out; None for anything else."""
    if not isinstance(arg, nodes.Slice) or arg.step is not None:
        return None
    out = []
    for bound in (arg.start, arg.stop):
        if bound is None:
            out.append("")
        elif isinstance(bound, nodes.Const) and type(bound.value) is int:
            out.append(str(bound.value))
        else:
            return None
    return ":".join(out)


class NamesGenerator(CodeGenerator):
    """Jinja2's code generator, noting as it goes the names a template reads from its context (as
    jinja2.meta.find_undeclared_variables does, without generating the code a second time) and how it
    reads them: a name whose every use is `name.key` is read only for those keys."""

    def __init__(self, environment: jinja2.Environment):
        self.code = StringIO()
        super().__init__(environment, None, None, self.code)  # no name nor file: as Environment.compile names it
        self.undeclared: set[str] = set()
        self.keys: dict[str, set[str]] = {}  # name -> the keys read of it as name.key
        self.whole: set[str] = set()  # names read otherwise
        self.slices: dict[str, set[tuple[str, str]]] = {}  # name -> (key, "start:stop") read as name.key[start:stop]
        self._under: nodes.Name | None = None  # the name a `.key` is being generated for
        self._sliced: nodes.Getattr | None = None  # the `name.key` a `[start:stop]` is being generated for

    def enter_frame(self, frame: Frame) -> None:
        super().enter_frame(frame)
        for _, (action, param) in frame.symbols.loads.items():
            if action == VAR_LOAD_RESOLVE and param not in self.environment.globals:
                self.undeclared.add(param)

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        """`name.key[start:stop]` with whole-number bounds written out (`cards.deck[:6]`): read only for that slice
        (Jinja2 slices without the sandbox's getitem, as Python does)."""
        inner, bounds = node.node, _whole_bounds(node.arg)
        if bounds is not None and isinstance(inner, nodes.Getattr) and isinstance(inner.node, nodes.Name) \
                and inner.node.ctx == "load":
            self.slices.setdefault(inner.node.name, set()).add((inner.attr, bounds))
            self._sliced = inner
        super().visit_Getitem(node, frame)

    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        inner = node.node
        if isinstance(inner, nodes.Name) and inner.ctx == "load":
            if node is self._sliced:
                self._sliced = None
            else:
                self.keys.setdefault(inner.name, set()).add(node.attr)
            self._under = inner
        super().visit_Getattr(node, frame)

    def visit_Name(self, node: nodes.Name, frame: Frame) -> None:
        if node is self._under:
            self._under = None
        elif node.ctx == "load":
            self.whole.add(node.name)
        super().visit_Name(node, frame)

    def paths(self) -> frozenset[Path_]:
        """How the template reads each context name: some keys of it (`card.name`) or slices of them
        (`cards.deck[:6]`: ("cards", "deck", ":6")), or the value itself; a name seen nowhere but in the frames
        (no use of it generated) counts as read whole."""
        out: set[Path_] = set()
        for name in self.undeclared:
            keys, slices = self.keys.get(name, set()), self.slices.get(name, set())
            if name in self.whole or not (keys or slices):
                out.add((name,))
                continue
            out.update((name, key) for key in keys)
            out.update((name, key, bounds) for key, bounds in slices if key not in keys)  # a key read whole: enough
        return frozenset(out)
