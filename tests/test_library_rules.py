"""Rules the library writes over the runtime's primitives (issue 32): `filter`, the functions that
replaced builtins, and E036 for a call with the wrong arguments. Played on the toy title through
its engine, emitted in memory from the rulespecs."""

from __future__ import annotations

import pytest

from compiler.emit.engines import memory_game_class
from compiler.lang import syntax as s
from compiler.lang.parse import parse_text
from compiler.lang.pipeline import load_texts
from tests.conftest import LIBRARIES, TOY
from tests.engine_helpers import P, act


def toy(extra: str = ""):
    texts = {**LIBRARIES, "toy.rules": (TOY / "toy.rules").read_text(encoding="utf-8")}
    if extra:
        texts["extra.rules"] = extra
    return load_texts(texts)


def new_game(loaded):
    from compiler.runtime.monitor import Monitor

    title = next(iter(t for t in loaded.program.titles.values() if t.name == "Toy"))
    game = memory_game_class(title, loaded.sources, "<toy>")(players=["A", "B"], seed=1)
    game._test_monitor = Monitor(game)
    return game


def test_filter_parses_as_a_quantifier():
    module, errors = parse_text('library "l" { function f(xs: list[certificate]) "f" = filter(c in xs: c.president) }',
                                "l.rules")
    assert not errors
    (fn,) = [d for d in module.units[0].items if isinstance(d, s.Routine)]
    assert isinstance(fn.result, s.Quantifier) and fn.result.kind == "filter" and fn.result.var == "c"


def test_treasury_certificates_are_the_corporations_own_in_order_without_the_presidents():
    loaded = toy()
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    game = new_game(loaded)
    corp = game.find("TOY")
    own = [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp]
    assert own[0].president
    assert game.call("treasury_certificates", corp) == own[1:]
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    # the president's certificate went to A; the rest stay in the IPO, in their order
    assert game.call("treasury_certificates", corp) == [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp]
    assert game.call("pool_percent", corp) == 0 and game.call("sold_percent", corp) == own[0].percent
    assert game.call("may_buy_now", game.find("A")) is False  # he bought in this turn (the par)


def test_a_call_with_more_arguments_than_the_function_takes_is_E036():
    loaded = toy('variant "Three" of "Toy" {\n'
                 '  function least_of_three(a: int, b: int, c: int) "the least" §1 = min(a, b, c)\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E036" and "`min` takes 2 arguments" in found.message
    assert found.span.path == "extra.rules" and found.span.line == 2


@pytest.mark.parametrize("call, missing", [("pool_percent()", "corporation"), ("director()", "operator")])
def test_a_call_without_a_required_argument_is_E036(call, missing):
    loaded = toy('variant "Bare" of "Toy" {\n'
                 f'  function bare(corporation: corporation) "x" §1 = {call}\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E036" and f"without `{missing}`" in found.message
