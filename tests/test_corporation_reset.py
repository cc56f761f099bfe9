"""A corporation put back as before it started (issue 32): the library's procedure `reset_corporation` (1800
§11.11's bankrupt company), over moves, `remove_stations` and `set` of the corporation's state, in place of the
builtin and its hand-written z3 twin. `set C.cell = none` takes the price token off the market, in the engine
and in the model alike; no rule sets a cell."""

from __future__ import annotations

import pytest
import z3

from tests.engine_helpers import P, act
from tests.test_library_rules import new_game, toy


def _started(game):
    """TOY started by A at the toy's par (its president's certificate A's, its token on the market), one more
    certificate given to B, and a station counted."""
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    corp = game.find("TOY")
    certs = game.certs_of[corp.id]
    game.move(certs[1], game.owner[certs[1].id], game.find("B"))
    game.set_attr(corp, "tokens", 1)
    game.set_attr(corp, "revenue", 40)
    return corp, certs


def test_the_engine_puts_the_corporation_back_as_before_it_started():
    game = new_game(toy())
    corp, certs = _started(game)
    cell = game.corp[corp.id]["cell"]
    assert cell is not None and corp.id in game.stacks[cell]
    game.call("reset_corporation", corp)
    state = game.corp[corp.id]
    assert (state["par"], state["cell"], state["floated"], state["tokens"], state["revenue"]) == (None, None, False, 0, 0)
    assert corp.id not in game.stacks[cell]
    assert all(game.owner[c.id] == game._ipo_of(corp) for c in certs)
    assert not game.call("started", corp)


def test_the_journal_undoes_the_price_token_taken_off():
    game = new_game(toy())
    corp, _ = _started(game)
    cell = game.corp[corp.id]["cell"]
    game.j.begin()
    game.set_attr(corp, "cell", None)
    assert game.corp[corp.id]["cell"] is None and corp.id not in game.stacks[cell]
    game.j.rollback()
    assert game.corp[corp.id]["cell"] == cell and corp.id in game.stacks[cell]


def test_a_cell_is_set_only_to_a_market_cell():
    """`set C.cell = X` places the price token on a market cell (the library's set_par and move_price): no other
    value (a row and column as a pair) is one."""
    from compiler.runtime.errors import IllegalAction

    game = new_game(toy())
    corp, _ = _started(game)
    with pytest.raises(IllegalAction, match="onto a market cell"):
        game.set_attr(corp, "cell", (0, 0))
    target = game.market.record(next(c for c in game.market.cells() if c != game.corp[corp.id]["cell"]))
    game.set_attr(corp, "cell", target)
    assert game.corp[corp.id]["cell"] == target.cell and corp.id in game.stacks[target.cell]


def test_the_model_puts_the_corporation_back_as_the_engine_does():
    """The translated procedure leaves, in every state, C unstarted (no par, no price, not floated, no station,
    no revenue) with every certificate where its unsold ones sit."""
    from compiler.verify.model import Model, hold_name
    from compiler.verify.translate import Translator

    loaded = toy()
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title = next(iter(t for t in loaded.program.titles.values() if t.name == "Toy"))
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    (corp,) = model.corporations
    tr.call_routine(tr.routines["reset_corporation"], [model.z(corp)], {}, ctx)
    post = ctx.state
    ipo = tr.ipo_of(corp)
    back = [post[f"has_par:{corp.id}"] == False, post[f"has_cell:{corp.id}"] == False,  # noqa: E712
            post[f"floated:{corp.id}"] == False, post[f"tokens:{corp.id}"] == 0,  # noqa: E712
            post[f"revenue:{corp.id}"] == 0]
    # (each certificate held once, as the model's shares invariant keeps them, ends in the IPO)
    once = [z3.Sum([pre[hold_name(x, h)] for h in model.buckets["certificate"] + [None]]) == 1
            for x in model.certs_for(corp.id)]
    back += [post[hold_name(x, ipo)] == 1 for x in model.certs_for(corp.id)]
    solver = z3.Solver()
    solver.add(*ctx.shared.guards, *once, *[pre[hold_name(x, h)] >= 0 for x in model.certs_for(corp.id)
                                            for h in model.buckets["certificate"] + [None]])
    solver.add(z3.Not(z3.And(*back)))
    assert solver.check() == z3.unsat, solver.model() if solver.check() == z3.sat else None
