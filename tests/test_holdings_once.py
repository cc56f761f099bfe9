"""A corporation's holdings met once each (issue 32): the library's `opens_holding(X)`, over which a loop
through a corporation's certificates pays each holding once (pay_dividends, a take-over's payout), in place of
the builtin `shareholders` and its hand-written z3 twin. Played on the toy title through its engine, and
translated for the z3 model."""

from __future__ import annotations

import z3

from tests.engine_helpers import P, act
from tests.test_library_rules import new_game, toy


def _spread(game):
    """TOY (four certificates) started by A (the president's certificate), A then given one more and B one,
    by the runtime's move: A holds the certificates 0 and 1, B the certificate 2, the treasury the last."""
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    corp = game.find("TOY")
    certs = game.certs_of[corp.id]
    a, b = game.find("A"), game.find("B")
    assert len(certs) == 4
    for cert, holder in ((certs[1], a), (certs[2], b)):
        game.move(cert, game.owner[cert.id], holder)
    return corp, certs, a, b


def test_each_holding_opens_at_its_first_certificate_in_the_engine():
    game = new_game(toy())
    corp, certs, a, b = _spread(game)
    opens = [game.call("opens_holding", c) for c in certs]
    # A's holding opens at the president's certificate, B's at the third, the treasury's at the fourth
    assert opens == [True, False, True, True]
    assert {game.owner[c.id] for c, o in zip(certs, opens) if o} == {a, b, corp}


def test_a_dividend_pays_each_holding_once():
    game = new_game(toy())
    corp, certs, a, b = _spread(game)
    before = {h: game.cash[h] for h in (a, b, corp)}
    held = {h: game.b_percent(h, corp) for h in (a, b, corp)}
    game.call("pay_dividends", corp, 100)
    # each holding earns its percentage of the dividend once: A's two certificates one payment
    assert held[a] == certs[0].percent + certs[1].percent and held[b] == certs[2].percent
    assert game.cash[a] - before[a] == 100 * held[a] // 100
    assert game.cash[b] - before[b] == 100 * held[b] // 100
    # the toy's treasury shares pay the company
    assert game.cash[corp] - before[corp] == 100 * held[corp] // 100


def test_the_model_opens_a_holding_exactly_where_no_earlier_certificate_has_its_holder():
    """The z3 term of opens_holding(X) is, in every state, that no certificate of X's corporation before X has
    X's holder (the holders the model keeps, and one outside its scope)."""
    from compiler.verify.model import Model
    from compiler.verify.terms import Sel
    from compiler.verify.translate import Translator

    loaded = toy()
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title = next(iter(t for t in loaded.program.titles.values() if t.name == "Toy"))
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    (corp,) = model.corporations
    certs = model.certs_for(corp.id)
    assert len(certs) >= 3
    holders = [tr.builtins.holder(ctx, x) for x in certs]
    for i, cert in enumerate(certs):
        value = tr.call_routine(tr.routines["opens_holding"], [Sel([(cert, True)])], {}, ctx)
        exact = z3.And(*[holders[j] != holders[i] for j in range(i)]) if i else z3.BoolVal(True)
        solver = z3.Solver()
        solver.add(*ctx.shared.guards, value != exact)
        assert solver.check() == z3.unsat, cert.id
