"""Bound probes the emitter derives from an action's guards (`compiler/emit/bounds.py`, issue 42): 18CO's
buy_shares refused for cash whatever the certificate and its seller. Its guards branch on the seller (a
corporation holding the certificate, or the market and the treasury), each branch with its own cost; the
bound probe of the buyer and the corporation (`qb2_buy_shares`) refuses the group where the buyer's cash is
under the least cost of every branch (a certificate's least percent and shares, `GameBase._least_certificate`;
the share cost's `match` on the source, the least of its cases). Listed as the oracle lists."""

from __future__ import annotations

import pytest

from compiler.emit import bounds
from compiler.lang import syntax as s
from tests.test_18co_rules import turn_to
from tests.test_18co_sales import _game


def _buys(actions) -> list[str]:
    return sorted(repr(a) for a in actions if a.get("type") == "buy_shares")


def _with_cash(amount: int):
    g = _game()
    turn_to(g, "Ann")
    ann = g.find("Ann")
    g.cash[ann] = amount  # (test setup)
    return g, ann


def test_buys_the_buyer_cannot_pay_for_are_refused_by_the_bound_probe_as_the_oracle_refuses_them():
    g, ann = _with_cash(5)
    probe = dict(g.PREFIX_PROBES["buy_shares"])[2]
    assert probe(g, ann, g.find("KPAC")) is not None  # under the least cost of either branch
    assert _buys(g.legal_actions()) == _buys(g.oracle_legal_actions()) == []


def test_buys_the_buyer_can_pay_for_are_listed_as_the_oracle_lists_them():
    g, ann = _with_cash(60)
    probe = dict(g.PREFIX_PROBES["buy_shares"])[2]
    assert g.call("price", g.find("KPAC")) == 60 and probe(g, ann, g.find("KPAC")) is None
    listed = _buys(g.legal_actions())
    assert listed and listed == _buys(g.oracle_legal_actions())


def test_a_bound_above_the_least_certificate_refuses_what_the_oracle_lists(monkeypatch):
    """The comparison has teeth: a certificate's least percent and shares put too high (a bound that is no
    lower bound) refuse buys the guards allow, and the listing differs from the oracle's."""
    g, _ann = _with_cash(60)
    monkeypatch.setattr(type(g), "_least_certificate", lambda self, field: 1000)
    assert _buys(g.legal_actions()) != _buys(g.oracle_legal_actions())


def _function(name, params, result):
    return s.Routine("function", name, tuple(s.ParamDecl(p, s.TypeRef(("int",))) for p in params), None,
                     s.NO_PROVENANCE, result=result)


class _Clause:
    def __init__(self, decl):
        self.decl, self.kind = decl, decl.kind


class _Compiler:
    def __init__(self, functions, hidden):
        self.routines = {f.name: _Clause(f) for f in functions}
        self.states = {}
        self.bound_locals = frozenset(hidden)


def test_a_function_is_put_in_place_of_its_call_unless_a_name_of_its_own_would_be_hidden():
    """`bounds._inlined`: `cost(n) = n * fee` put in as `x * fee`; not where the caller binds `fee` itself (the
    call's `fee` is the title's, the caller's would stand in its place)."""
    body = s.Binary("*", s.Name("n"), s.Name("fee"))
    call = s.Call(s.Name("cost"), (s.Name("x"),))
    put = bounds._inlined(_Compiler([_function("cost", ["n"], body)], {"x"}), call)
    assert put == s.Binary("*", s.Name("x"), s.Name("fee"))
    assert bounds._inlined(_Compiler([_function("cost", ["n"], body)], {"x", "fee"}), call) is None


@pytest.mark.parametrize("field", ["percent", "shares"])
def test_the_least_certificate_is_the_least_of_the_certificates_now(field):
    g, _ann = _with_cash(60)
    assert g._least_certificate(field) == min(getattr(c, field) for certs in g.certs_of.values() for c in certs)


class _Judge(_Compiler):
    """A compiler whose bounded guards are the `require`s of `>=` (`Compiler._bounded_guard`'s own test stubbed)."""

    def __init__(self):
        super().__init__([], set())

    def _reaches(self, names, targets):
        return False

    def _bounded_guard(self, st, scope, tainted, lets, rule, lower=None):
        return [] if isinstance(st.cond, s.Binary) and st.cond.op == ">=" else None


def _require(cond):
    return s.Require(cond, None, "refused")


@pytest.mark.parametrize("orelse_guarded", [True, False])
def test_a_group_is_judged_by_its_branches_only_where_every_branch_opens_with_a_bounded_guard(orelse_guarded):
    """`bounds.branch_guard`: where one branch has no guard a bound judges, a candidate taking it may be legal
    whatever the other branch's bound says: no entry."""
    cash = s.Binary(">=", s.Name("cash"), s.Name("cost"))
    other = s.Binary("==", s.Name("seller"), s.Name("pool"))
    branch = (s.Let("cost", s.Name("price")), _require(cash))
    orelse = (_require(cash if orelse_guarded else other),)
    body = (_require(s.Name("open")), s.If(((s.Name("held"), branch),), orelse))
    found = bounds.branch_guard(_Judge(), body, frozenset(), {"cost", "seller"}, {})
    if orelse_guarded:
        assert found is not None and len(found[1]) == 2
    else:
        assert found is None


def _auction(cash: int):
    from tests.engine_helpers import acting
    from tests.test_18co_rules import new_game

    g = new_game()
    assert g.g["round"] == "auction"
    bidder = g.find(acting(g))
    g.cash[bidder] = cash  # (test setup)
    return g, bidder


def _bids(actions) -> list[str]:
    return sorted(repr(a) for a in actions if a.get("type") in ("bid", "move_bid"))


def test_a_bid_under_the_privates_cost_is_refused_by_the_greatest_of_its_lower_limits():
    """18CO's bid: `price >= company.cost and price >= highest_bid(company) + min_bid_raise`, then the cash
    guard: the bound probe of the bidder and the private judges the cash by the greater of the two limits
    (`bounds.limits_code`), the private's cost where nobody has bid yet, not the $5 over no bid. Listed as the
    oracle lists."""
    g, bidder = _auction(15)
    probe = dict(g.PREFIX_PROBES["bid"])[2]
    costs = {p.id: int(p.get("cost")) for p in g.privates if g.owner[p.id] == g.find("bank")}
    dear = next(p for p, cost in costs.items() if cost > 15)
    assert probe(g, bidder, g.entity("private", dear)) is not None
    assert _bids(g.legal_actions()) == _bids(g.oracle_legal_actions())


def test_a_greatest_limit_set_too_high_refuses_what_the_oracle_lists(monkeypatch):
    """The comparison has teeth: the greatest of the limits put above every one of them refuses bids the
    guards allow, and the listing differs from the oracle's."""
    g, _bidder = _auction(1000)
    listed = _bids(g.oracle_legal_actions())
    assert listed
    monkeypatch.setattr(type(g), "_greatest", staticmethod(lambda *limits: 10 ** 6))
    assert _bids(g.legal_actions()) != listed
