"""cheapest_train_price() and dearest_side_price() are the library's functions (issue 32) over the bank's trains
(`available_trains()`) and the train cards' records (`train_cards`: each card's price, and the card it is the
other side of, `variant_of`), with the DSL's `least` and `greatest` over a collection: no builtin with a z3 twin.
Checked against the rule itself at every state of a random game (each side of each card the bank sells that
meets the duty to own a train), and in the model against 1846's cards."""

from __future__ import annotations

import z3

from compiler.app.playout import play_one
from compiler.emit.engines import game_class


def _side_prices(game, train) -> list[int]:
    """The printed prices of the sides of `train`'s card, from the title's data: the card and each card
    `variant_of` it."""
    return [comp["price"] for comp in game.DATA.components_of("train")
            if comp["key"] == train.name or comp.get("variant_of") == train.name]


def _reference(game) -> tuple[int, int]:
    cards = [t for t in game.b_available_trains()
             if game.DATA.component("train", t.name).get("satisfies_train_obligation", True) is not False]
    if not cards:
        return 0, 0
    cheapest = min(min(_side_prices(game, t)) for t in cards)
    first = next(t for t in cards if min(_side_prices(game, t)) == cheapest)
    return cheapest, max(_side_prices(game, first))


def test_the_functions_follow_the_rule_through_random_games():
    """1846 (a 4 sold as a 3/5 at $160, a 5 as a 4/6, a 6 as a 7/8) and 1880 (rebuilt 2-trains that meet
    no duty): at every state of a game the functions give the rule's answer, and the bank's stock runs
    through more than one price."""
    for title, n in (("1846", 4), ("1880 Romania", 4)):
        seen = set()

        def observe(game, action):
            expected = _reference(game)
            assert (game.call("cheapest_train_price"), game.call("dearest_side_price")) == expected, action
            seen.add(expected)

        play_one(game_class(title), [f"P{i}" for i in range(1, n + 1)], 1, observe=observe)
        assert len(seen) >= 2, (title, seen)


def test_a_side_is_read_from_the_cards():
    g = game_class("1846")(players=["A", "B", "C"], seed=1)
    four = next(t for t in g.trains.values() if t.name == "4")
    assert g.call("cheapest_side", four) == 160 and g.call("dearest_side", four) == 180
    two = next(t for t in g.trains.values() if t.name == "2")
    assert g.call("cheapest_side", two) == g.call("dearest_side", two) == 80


def test_neither_is_a_builtin():
    from compiler.runtime.game import GameBase
    from compiler.verify.translator import Builtins

    for name in ("cheapest_train_price", "dearest_side_price"):
        assert not hasattr(GameBase, f"b_{name}") and not hasattr(Builtins, f"b_{name}")


def test_least_and_most_in_the_model(rulespecs_loaded):
    """In the model, the cheapest side of each card is its least price, and, with every 2-train gone
    from the bank, the cheapest train the bank sells is the 4's other side, a 3/5 ($160), and the dearest
    side of that card the 4 ($180), as in the engine."""
    from compiler.lang.titles import find_title
    from compiler.verify.model import Model
    from compiler.verify.model import DEPOT, hold_name
    from compiler.verify.terms import Sel, zi
    from compiler.verify.translate import Translator

    model = Model(find_title(rulespecs_loaded, "1846", None))
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    four = next(t for t in model.trains if t.name == "4")
    assert tr.call("cheapest_side", [Sel([(four, True)])], {}, ctx) == 160
    assert tr.call("dearest_side", [Sel([(four, True)])], {}, ctx) == 180
    cheapest = tr.call("cheapest_train_price", [], {}, ctx)
    dearest = tr.call("dearest_side_price", [], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    for t in model.trains:
        var = hold_name(t, DEPOT)
        if var in ctx.state:
            solver.add(ctx.state[var] == (0 if t.name == "2" else 1))
    assert solver.check() == z3.sat
    assert solver.check(zi(cheapest) != 160) == z3.unsat
    assert solver.check(zi(dearest) != 180) == z3.unsat
    assert solver.check(zi(cheapest) == 160, zi(dearest) == 180) == z3.sat


def test_the_dearest_train_price_follows_the_rule_through_random_games():
    """dearest_train_price() is the library's function (issue 32; a builtin with a z3 twin before): at every
    state of a 1846 game, the highest price of a side of any card the depot offers or the pool holds that
    meets the duty to own a train, 0 when there is none; the answer changes as the trains sell."""
    seen = set()

    def reference(game) -> int:
        from compiler.runtime.entities import POOL

        cards = list(game.b_available_trains()) + list(game.b_trains(POOL))
        return max((p for t in cards
                    if game.DATA.component("train", t.name).get("satisfies_train_obligation", True) is not False
                    for p in _side_prices(game, t)), default=0)

    def observe(game, action):
        expected = reference(game)
        assert game.call("dearest_train_price") == expected, action
        seen.add(expected)

    play_one(game_class("1846"), ["P1", "P2", "P3", "P4"], 1, observe=observe)
    assert len(seen) >= 2, seen
    from compiler.runtime.game import GameBase
    from compiler.verify.translator import Builtins

    assert not hasattr(GameBase, "b_dearest_train_price") and not hasattr(Builtins, "b_dearest_train_price")
