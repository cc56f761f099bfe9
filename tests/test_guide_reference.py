"""The author's guide cannot drift (issue 43): the library's reference pages, generated from the one
schema (`rulec docs` writes them to site/docs/library/), list every parameter of the library with
its meaning, every property of every kind, every action, and every ability effect with its meaning;
and every effect the runtime acts on is one of the library's. Adding a parameter, an effect or an
action to the library without its entry (its meaning) fails here.

The pages are rendered for the toy title alone (a site of one title renders in a fraction of a
second); what a page lists of the library does not depend on the titles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from compiler.lang import syntax as s
from compiler.docs.model import anchor_for
from compiler.docs.render import esc
from compiler.paths import ROOT
from tests.conftest import TOY


@pytest.fixture(scope="module")
def guide():
    """The library units, and their reference pages as `rulec docs` renders them."""
    from compiler.docs.model import Site
    from compiler.docs.pages import Writer
    from compiler.lang.pipeline import load

    loaded = load([TOY])
    assert loaded.ok, [d.message for d in loaded.errors]
    site = Site(loaded, {})
    writer = Writer(site)
    libraries = {name: unit for name, (unit, _) in site.libraries.items()}
    assert set(libraries) == {"18xx", "tiles"}
    return libraries, {name: writer.library_page(name) for name in libraries}


def _items(unit, kind):
    return [item for item in unit.items if isinstance(item, kind)]


def test_every_library_parameter_is_listed_with_its_meaning(guide):
    libraries, pages = guide
    params = [(name, p) for name, unit in libraries.items() for p in _items(unit, s.Param)]
    assert len(params) > 100
    for name, param in params:
        assert param.title, f"library parameter {param.name} has no meaning"
        assert f"{{#{anchor_for('param', param.name)}}}" in pages[name], param.name
        assert esc(param.title) in pages[name], param.name


def test_every_property_of_every_library_kind_is_listed_with_its_meaning(guide):
    libraries, pages = guide
    for name, unit in libraries.items():
        for kind in _items(unit, s.KindDecl):
            for param in kind.params:
                assert param.title, f"property {param.name} of kind {kind.name} has no meaning"
                row = f"| `{param.name}` | "
                assert any(line.startswith(row) and esc(param.title) in line for line in pages[name].splitlines()), \
                    f"kind {kind.name}: {param.name}"


def test_every_library_action_is_listed(guide):
    libraries, pages = guide
    actions = [(name, r) for name, unit in libraries.items() for r in _items(unit, s.Routine) if r.kind == "action"]
    assert len(actions) > 10
    for name, action in actions:
        assert action.title, f"action {action.name} has no meaning"
        assert f"{{#{anchor_for('action', action.name)}}}" in pages[name], action.name


def test_every_optional_field_of_a_library_action_is_listed_with_its_default(guide):
    from compiler.docs.render import signature

    libraries, pages = guide
    optional = [(name, r) for name, unit in libraries.items() for r in _items(unit, s.Routine)
                if r.kind == "action" and any(p.default is not None for p in r.params)]
    assert any(r.name == "buy_train" for _, r in optional)  # the trade-in's exchange
    for name, action in optional:
        assert esc(signature(action)) in pages[name] or signature(action) in pages[name], action.name
        assert "exchange: train | none = none" in signature(action) or action.name != "buy_train"


def _effects(unit) -> dict[str, s.Component]:
    return {c.key: c for c in _items(unit, s.Component) if c.kind == "effect"}


def test_every_ability_effect_is_listed_with_its_meaning(guide):
    libraries, pages = guide
    effects = _effects(libraries["18xx"])
    assert len(effects) >= 28
    for key, effect in effects.items():
        summary = effect.get("summary")
        assert summary is not None and isinstance(summary.value, s.Str) and summary.value.value, key
        assert f"{{#{anchor_for('effect', key)}}}" in pages["18xx"], key
        assert esc(summary.value.value) in pages["18xx"], key


def _effects_the_runtime_reads() -> set[str]:
    """The effects compiler/runtime/game.py's `GameBase` and its parts (the modules of its bases) name:
    `_abilities(X, "effect")`, `_power(X, "effect")`, `_armed(X, "effect")` (a declared use), `a.get("effect") ==
    "..."` or `in (...)`, and the library's has_power and power_value it calls (`self.call("has_power", X,
    "effect")`)."""
    import inspect

    from compiler.runtime.game import GameBase

    modules = sorted({Path(inspect.getfile(cls)).resolve() for cls in GameBase.__mro__ if cls is not object})
    assert (ROOT / "compiler" / "runtime" / "game.py").resolve() in modules and len(modules) > 1, modules
    found: set[str] = set()
    for node in (node for path in modules for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("_abilities", "_power", "_armed") and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant):
            found.add(node.args[1].value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call" \
                and len(node.args) >= 3 and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value in ("has_power", "power_value") and isinstance(node.args[2], ast.Constant):
            found.add(node.args[2].value)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) \
                and isinstance(node.left.func, ast.Attribute) and node.left.func.attr == "get" \
                and node.left.args and isinstance(node.left.args[0], ast.Constant) and node.left.args[0].value == "effect":
            for right in node.comparators:
                found |= {c.value for c in ast.walk(right) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return found


def test_every_effect_the_runtime_acts_on_is_one_of_the_library(guide):
    libraries, _ = guide
    read = _effects_the_runtime_reads()
    assert {"free_lay", "reserved_slot", "hex_marker", "free_token", "stop_bonus", "bonus_token"} <= read  # the scan finds them
    assert read <= set(_effects(libraries["18xx"])), sorted(read - set(_effects(libraries["18xx"])))


def test_an_effect_without_its_meaning_or_outside_the_library_is_refused_by_check():
    from tests.conftest import check_source

    loaded = check_source('library "more" {\n  effect teleport "Teleport" { }\n}\n'
                          'title "t" {\n  uses lib "18xx"\n  uses lib "more"\n  private P §1 {\n'
                          '    ability a §1 { effect: free_lya }\n  }\n}\n', with_library=True)
    found = {(d.code, d.span.line) for d in loaded.diagnostics if d.code in ("E022", "E027")}
    assert ("E027", 2) in found  # an effect with no summary
    assert ("E022", 8) in found  # no effect `free_lya`
