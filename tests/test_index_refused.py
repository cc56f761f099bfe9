"""A rule that reads a list past its end (`shares[k]` with k its length) or before its start: the engine
refuses the action, naming where the rule is written, and leaves the game as it was — as the z3 model
requires the position within the list (`Translator.index`) — never a Python IndexError out of play, nor a
negative position read from the end."""

from __future__ import annotations

import pytest

from compiler.emit.engines import memory_game_class
from compiler.lang.pipeline import load_texts
from compiler.runtime.dsl_support import DslSupport
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor
from tests.conftest import LIBRARIES, TOY
from tests.engine_helpers import P, act, assert_refused

# a variant whose sale reads the certificate at a position the rule gives
_VARIANT = """
variant "Reach" of "Toy" §6 {
  section §6 "Reach"
  replace procedure price_drop_on_sale(seller: player | corporation, corporation: corporation, shares: list[certificate], sold: int)
      "A sale reads one certificate of those sold, at POSITION" §6 {
    let c = shares[POSITION]
    do market_move(corporation, down)
  }
}
"""


def _game(position: str):
    texts = {**LIBRARIES, "toy.rules": (TOY / "toy.rules").read_text(encoding="utf-8"),
             "reach.rules": _VARIANT.replace("POSITION", position)}
    loaded = load_texts(texts)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title = loaded.program.variants[("Toy", "Reach")]
    game = memory_game_class(title, loaded.sources, "<reach>")(players=["A", "B"], seed=1)
    game._test_monitor = Monitor(game)
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    act(game, P("A", "pass"))
    act(game, P("B", "buy_shares", shares=["TOY_1"], percent=20))
    return game


def test_a_position_within_the_list_is_read():
    game = _game("sold - 1")
    act(game, P("B", "sell_shares", shares=["TOY_1"], percent=20))


@pytest.mark.parametrize("position", ["sold", "0 - 1"])
def test_a_position_past_the_end_or_before_the_start_refuses_the_action(position):
    game = _game(position)
    refused = assert_refused(game, P("B", "sell_shares", shares=["TOY_1"], percent=20), None,
                             "there is no element")
    assert refused.at is not None and "reach.rules" in refused.at, refused.at


def test_item_reads_records_by_field_and_refuses_what_is_not_there():
    assert DslSupport.item([3, 4], 1) == 4
    assert DslSupport.item({"key": "a"}, "key") == "a"
    for coll, key in (([3, 4], 2), ([3, 4], -1), ((), 0), ({}, "key"), ([3], "x")):
        with pytest.raises(IllegalAction):
            DslSupport.item(coll, key)
