"""Templates compiled once (generator/layouts.py compiled()): the same code, names and results as Jinja2's own
from_string, meta.find_undeclared_variables and SandboxedEnvironment give, in one pass and with the sandbox's
hottest checks answered faster."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jinja2
import jinja2.meta
import pytest
import yaml
from jinja2.sandbox import SandboxedEnvironment

from casebook.generator.layouts import compiled
from casebook.generator.templating import NamesGenerator
from casebook.generator.templating import environment as _environment

ROOT = Path(__file__).resolve().parents[2]


def templates_in(value: object) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in templates_in(v)]
    if isinstance(value, list):
        return [t for v in value for t in templates_in(v)]
    return [value] if isinstance(value, str) and ("{{" in value or "{%" in value) else []


def shipped_templates() -> list[str]:
    found: set[str] = set()
    for path in [*(ROOT / "layouts").rglob("*.yaml"), *(ROOT / "tests" / "data").rglob("layouts/**/*.yaml")]:
        try:
            found.update(templates_in(yaml.safe_load(path.read_text(encoding="utf-8"))))
        except yaml.YAMLError:
            continue  # a test's deliberately broken layout
    return sorted(found)


def reference_sandbox() -> SandboxedEnvironment:
    env = SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=False)
    env.filters.update(_environment().filters)
    return env


def test_every_shipped_template_compiles_to_jinjas_own_code_and_names():
    env, sources = _environment(), shipped_templates()
    assert len(sources) > 500
    for source in sources:
        found = compiled(source)
        assert found is not None, source
        generator = NamesGenerator(env)
        generator.visit(env.parse(source))
        assert generator.code.getvalue() == env.compile(source, raw=True), source
        assert found.names == jinja2.meta.find_undeclared_variables(env.parse(source)), source


@pytest.mark.parametrize(("source", "paths"), [
    ("{{ card.name }}", {("card", "name")}),
    ("{{ card.name }} {{ card.value }}", {("card", "name"), ("card", "value")}),
    ("{{ card.name }}{% for card in cards %}{{ card }}{% endfor %}", {("card",), ("cards",)}),  # card read whole
    ("{% set c = card %}{{ c.name }}", {("card",)}),
    ("{{ suit | attr('colour') }}", {("suit",)}),
    ("{{ card.name.upper() }}", {("card", "name")}),
    ("{{ vars.spaces[i][0] }}", {("vars", "spaces"), ("i",)}),
    ("{% macro m(x) %}{{ x.a }}{{ card.b }}{% endmacro %}{{ m(suit) }}", {("card", "b"), ("suit",)}),
    # a slice with whole-number bounds written out: read only for it (a page listing a deck's first cards)
    ("{% for c in cards.deck[:6] %}{{ c.name }}{% endfor %}", {("cards", "deck", ":6")}),
    ("{{ cards.deck[2:4] }}{{ cards.deck[1:] }}", {("cards", "deck", "2:4"), ("cards", "deck", "1:")}),
    ("{{ cards.deck[:6] }}{{ cards.deck | length }}", {("cards", "deck")}),  # the key read whole too: that
    ("{{ cards.deck[:6] }}{{ cards }}", {("cards",)}),
    ("{{ cards.deck[:n] }}", {("cards", "deck"), ("n",)}),  # bounds not written out: the key whole
    ("{{ cards.deck[-2:] }}", {("cards", "deck")}),
    ("{{ cards.deck[::2] }}", {("cards", "deck")}),
    ("{{ cards.deck[0] }}", {("cards", "deck")}),
])
def test_what_a_template_reads_of_each_name(source, paths):
    found = compiled(source)
    assert found is not None and found.paths == paths


def test_a_template_that_does_not_compile_raises_as_from_string_does():
    from casebook.generator.layouts import load_library

    lib = load_library(ROOT / "layouts")
    assert compiled("{{ card.name ") is None
    with pytest.raises(jinja2.TemplateSyntaxError) as ours:
        lib.template("{{ card.name ")
    with pytest.raises(jinja2.TemplateSyntaxError) as theirs:
        _environment().from_string("{{ card.name ")
    assert (ours.value.message, ours.value.lineno) == (theirs.value.message, theirs.value.lineno)
    assert compiled("{{ x | no_such_filter }}") is None  # refused while generating code, not while parsing


class Thing:
    colour = "#123456"

    def __init__(self) -> None:
        self._secret = "no"


CASES = [
    "{{ card.name }}", "{{ card.missing }}", "{{ card.items }}", "{{ card['items'] }}", "{{ card.get('name') }}",
    "{{ card.get('nothing', 'x') }}", "{% for k, v in card.items() %}{{ k }}={{ v }};{% endfor %}",
    "{{ card.values | list }}", "{{ card.__class__ }}", "{{ card.name.__class__ }}", "{{ thing.colour }}",
    "{{ thing._secret }}", "{{ thing.nothing }}", "{{ '{}-{}'.format(card.name, 3) }}", "{{ '{0.__class__}'.format(card) }}",
    "{{ names.index('b') }}", "{{ names.append }}", "{% set ns = namespace(d=1) %}{% set ns.d = ns.d + 1 %}{{ ns.d }}",
    "{{ card.name.startswith('Lu') }}", "{{ names | join(',') }}", "{{ suit.colour | tint(0.5) }}",
    "{% for n in names %}{{ loop.index }}{{ by_id.get(n, '-') }}{% endfor %}", "{{ range(3) | list }}",
    "{{ card.update }}", "{{ names.pop }}", "{{ nothing.name }}", "{{ (1, 2).count(1) }}",
]


def outcome(env: SandboxedEnvironment, source: str) -> str:
    values = {"card": {"name": "Luna", "items": "a list", "value": 3}, "thing": Thing(), "names": ["a", "b"],
              "suit": {"colour": "#7A5C99"}, "by_id": {"a": 1}}
    try:
        said = "ok: " + env.from_string(source).render(values)
    except Exception as exc:  # what fails must fail alike, with the same message
        said = f"{type(exc).__name__}: {exc}"
    return re.sub(r" at 0x[0-9a-f]+", "", said)  # a method's repr names where it lies in memory


@pytest.mark.parametrize("source", CASES)
def test_our_sandbox_answers_as_jinjas_does(source):
    assert outcome(_environment(), source) == outcome(reference_sandbox(), source)


COUNTED = """
import json, sys
import casebook.generator.layouts as layouts
import casebook.generator.templating as templating

made = []
original = templating.NamesGenerator.__init__
templating.NamesGenerator.__init__ = lambda self, env: made.append(1) or original(self, env)
found = layouts.compiled(sys.argv[1])
print(json.dumps({"compiled": len(made), "names": sorted(found.names), "paths": sorted(found.paths),
                  "said": found.template.render(card={"name": "Luna"}, suit={"name": "Wing"})}))
"""


def run_counted(source: str, cache: Path | str) -> dict[str, object]:
    env = {**os.environ, "CASEBOOK_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", COUNTED, source], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_template_compiled_once_is_loaded_by_the_next_run(tmp_path):
    source = "{{ card.name }} of {{ suit.name | upper }}"
    first, second = run_counted(source, tmp_path), run_counted(source, tmp_path)
    assert first["compiled"] == 1 and second["compiled"] == 0  # the second run loads what the first compiled
    assert {k: v for k, v in first.items() if k != "compiled"} == {k: v for k, v in second.items() if k != "compiled"}
    assert first["said"] == "Luna of WING"
    [kept] = [p for p in tmp_path.rglob("*") if p.is_file()]
    kept.write_bytes(b"not marshal")  # a damaged file is compiled again, and written anew
    assert run_counted(source, tmp_path)["compiled"] == 1
    assert run_counted(source, tmp_path)["compiled"] == 0


def test_an_empty_cache_dir_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_counted("{{ card.name }}", "")["compiled"] == 1
    assert run_counted("{{ card.name }}", "")["compiled"] == 1
    assert not any(tmp_path.iterdir())


PUT_CASES = [
    "{{ card.name }}", "{{card.name}}", "a {{ card.name }} b {{ number }}/{{ total }}", "{{ card.name }}\n",
    "{{ card.name }}\n\n", "\n{{ card.name }}", "}} {{ card.value }} }}", "{{ card.nothing }}", "{{ nothing }}",
    "{{ card.items }}", "{{ card.get }}", "{{ card.none }}", "{{ none }}", "{{ true }}", "{{ True }}", "{{ self }}",
    "{{ range }}", "{{ card }}", "{{ names }}", "{{ names.count }}", "{{ suit.colour }}", "{{ blank.name }}",
    "{{ blank }}", "{{ card.value }}{{ card.odds }}", "{{ card.name | upper }}", "{{- card.name }}", "{# x #}{{ card.name }}",
    "{% if 1 %}{{ card.name }}{% endif %}", "a\r\n{{ card.name }}", "{{ card.name.upper }}", "{{ card['name'] }}",
]
PUT_VALUES = {"card": {"name": "Luna", "value": 3, "odds": 0.5, "items": "a list", "none": None},
              "names": ["a", "b"], "suit": {"colour": "#7A5C99"}, "blank": None, "number": 1, "total": 12}


@pytest.mark.parametrize("source", PUT_CASES)
def test_a_template_that_only_puts_values_is_filled_in_as_jinja_renders_it(source):
    from casebook.generator.compose import _put
    from casebook.generator.layouts import puts
    from casebook.rules.yamlsource import Text

    values = {**PUT_VALUES, "card": {**PUT_VALUES["card"], "name": Text("Luna")}}  # as a card file gives it
    parts = puts(source)
    filled = _put(parts, values) if parts is not None else None
    if filled is not None:  # else Jinja2 renders it, as before
        assert filled == _environment().from_string(source).render(values)


def test_which_templates_are_filled_in_without_jinja2():
    from casebook.generator.compose import _put
    from casebook.generator.layouts import puts

    def filled(source: str) -> str | None:
        parts = puts(source)
        return _put(parts, PUT_VALUES) if parts is not None else None

    assert filled("a {{ card.name }} b {{ number }}/{{ total }}\n") == "a Luna b 1/12"
    assert filled("{{ card.odds }} {{ blank }}") == "0.5 None"
    for jinjas in ("{{ card.nothing }}", "{{ nothing }}", "{{ card.items }}", "{{ blank.name }}", "{{ true }}",
                   "{{ card.name | upper }}", "{{- card.name }}", "{# c #}{{ card.name }}", "a\r\n{{ card.name }}"):
        assert filled(jinjas) is None, jinjas  # missing, a dict's method, a literal, a filter...: Jinja2's to render
