"""1880 Romania's private companies' abilities (II.3.1), on the real map.

The rulebook's private table stops after No. 4; P5 to P7 have no ability in
either source and stay declared gaps; P8's founding of the TR is tested with
the Starting Round (test_1880_starting_round.py, VI.6). Games skip the Starting Round (V) by a direct
state edit and hand out privates directly; each test says so. Refused actions
go through `assert_refused` (IllegalAction naming the section, the game
unchanged).
"""

from __future__ import annotations

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, C, P

Game = game_class("1880 Romania")
NAMES = ("Ann", "Bob", "Cid", "Dee")


def new_game(**privates):
    """The first stock round, Ann holding the priority deal; the Starting Round is skipped and
    each private of `privates` (sym -> player) handed to its owner by a direct state edit."""
    g = Game(players=list(NAMES), seed=1)
    g.players[:] = [g.find(name) for name in NAMES]
    g.g["priority"] = 0
    g._end_starting_round()
    for sym, owner in privates.items():
        g.owner[sym] = g.find(owner)
    g._test_monitor = Monitor(g)
    return g


def X(sym, type_, **fields):
    """An action of the private `sym` (18xx.games: entity_type company)."""
    return {"type": type_, "entity": sym, "entity_type": "company", **fields}


def found(g, name, sym, rights="ABC", price=100):
    while acting(g) != name:
        act(g, P(acting(g), "pass"))
    share_price, slot = next((a["share_price"], a["slot"]) for a in g._cand_par(g.find(name), {})
                             if a["corporation"] == sym and a["share_price"].startswith(f"{price},"))
    act(g, P(name, "par", corporation=sym, share_price=share_price, slot=slot, president_percent=20))
    act(g, C(sym, "choose", choice=rights))


def to_operating(g):
    while g.g["round"] == "stock":
        act(g, P(acting(g), "pass"))


# ---------------------------------------------------------------- P1 Banater Montanbahn


def test_ii_3_1_p1_closes_for_20_to_its_owner_at_any_time():
    g = new_game(P1="Ann")
    act(g, P("Ann", "pass"))                             # Bob's turn: Ann may close it all the same
    cash = g.cash[g.find("Ann")]
    act(g, X("P1", "close_for_cash", target="Ann"))
    assert g.cash[g.find("Ann")] == cash + 20
    assert g.closed["P1"]
    assert_refused(g, X("P1", "close_for_cash", target="Ann"), "II.3.1")   # closed: once only


def test_ii_3_1_p1_closes_for_40_to_a_company_its_owner_directs():
    g = new_game(P1="Ann")
    found(g, "Ann", "GWR")
    found(g, "Bob", "CFR")
    assert_refused(g, X("P1", "close_for_cash", target="CFR"), "II.3.1")   # Bob's company
    assert_refused(g, X("P1", "close_for_cash", target="Bob"), "II.3.1")   # another player
    gwr = g.find("GWR")
    treasury = g.cash[gwr]
    act(g, X("P1", "close_for_cash", target="GWR"))
    assert g.cash[gwr] == treasury + 40
    assert g.closed["P1"]


def test_ii_3_1_only_p1_closes_for_cash():
    g = new_game(P3="Ann")
    assert_refused(g, X("P3", "close_for_cash", target="Ann"), "II.3.1")


# ---------------------------------------------------------------- P3 Valea Jiului


@pytest.mark.parametrize("p3_owner, cost", [("Ann", 0), ("Bob", 10)])
def test_ii_3_1_p3_discounts_two_mountain_symbols_for_its_owners_companies(p3_owner, cost):
    """Sibiu (F12) costs Ł20 of mountains; the TR's own ability takes Ł10 off (supplement) and
    P3 two symbols (Ł20) more when the TR's president owns it, never below nothing."""
    g = new_game(P3=p3_owner)
    found(g, "Ann", "TR")
    to_operating(g)
    while acting(g) != "TR":
        act(g, {"type": "pass", "entity": acting(g), "entity_type": "minor"})
    tr = g.find("TR")
    before = g.cash[tr]
    act(g, C("TR", "lay_tile", hex="F12", tile="57", rotation=1))
    assert g.cash[tr] == before - cost


# ---------------------------------------------------------------- P4 D.B.S.R.


def _cfr_to_giurgiu(g):
    """Direct edits: track from Bucharest's CFR circle (I17) through J16 to the harbour town of
    Giurgiu (K17), and a 2-train bought by the CFR in an earlier round."""
    g.board.lay("I17", "L148", 5)
    g.board.lay("J16", "8", 3)
    g.board.lay("K17", "8850", 2)
    train = next(t for t in g.train_order if g.trains[t].name == "2")
    g.owner[train] = g.find("CFR")
    g.cash[g.find("CFR")] -= 100
    g.flow["received"] += 100
    g._test_monitor = Monitor(g)


@pytest.mark.parametrize("p4_owner, revenue", [("Ann", 60), ("Bob", 50)])
def test_ii_3_1_p4_harbour_token_adds_10_for_its_owners_companies(p4_owner, revenue):
    """Bucharest's B tile (30) and Giurgiu (20 on tile 8850): Ł50, and Ł10 more with the token in Giurgiu when
    the CFR's president owns P4; the token serves no other player's company."""
    g = new_game(P4=p4_owner)
    act(g, X("P4", "assign", target="K17"))            # any time: here in the stock round
    assert ("P4", "K17", p4_owner, 10) in g.b_markers()
    assert not g.closed["P4"]                           # laying the token does not close it
    found(g, "Ann", "CFR")
    _cfr_to_giurgiu(g)
    to_operating(g)
    while acting(g) != "CFR":
        act(g, {"type": "pass", "entity": acting(g), "entity_type": "minor"})
    act(g, C("CFR", "pass"))
    act(g, C("CFR", "pass"))
    cfr = g.find("CFR")
    best = g._route_candidates(cfr, {"entity": "CFR", "entity_type": "corporation"})[0]
    act(g, best)
    assert g.corp["CFR"]["revenue"] == revenue


def test_ii_3_1_p4_token_goes_on_one_danube_harbour_once():
    g = new_game(P4="Ann", P1="Bob")
    assert_refused(g, X("P4", "assign", target="I17"), "II.3.1")          # not a harbour
    assert_refused(g, X("P1", "assign", target="K17"), "II.3.1")          # P1 has no token
    act(g, X("P4", "assign", target="G23"))
    assert_refused(g, X("P4", "assign", target="K17"), "II.3.1")          # one token, laid for good


# ---------------------------------------------------------------- P2 Consorţiu Bethel Henry Strousberg


def _lcr_at_home(p2_owner, phase="A1"):
    """Ann's LCR at the start of its first turn; Cernăuți (A17) has the dotted border on its side 0.
    A later phase is a direct edit (the border opens by B1's event)."""
    g = new_game(P2=p2_owner)
    found(g, "Ann", "LCR", rights="ABC")
    to_operating(g)
    while acting(g) != "LCR":
        act(g, {"type": "pass", "entity": acting(g), "entity_type": "minor"})
    if phase != "A1":
        g.g["phase"] = phase
        g.emit("dotted_border_opens")
    return g


def test_ii_3_1_p2_its_owners_companies_build_across_the_dotted_border_in_phase_a():
    g = _lcr_at_home("Ann")
    cash = g.cash[g.find("Ann")]
    act(g, C("LCR", "lay_tile", hex="A17", tile="447", rotation=0))
    assert g.cash[g.find("Ann")] == cash + 20            # a connection across the border pays its owner


def test_ii_3_1_p2_no_one_else_crosses_the_border_in_phase_a():
    g = _lcr_at_home("Bob")
    assert_refused(g, C("LCR", "lay_tile", hex="A17", tile="447", rotation=0), "VII.3.1")


@pytest.mark.parametrize("phase, bonus", [("B1", 20), ("B2", 0)])
def test_ii_3_1_p2_pays_for_every_crossing_until_the_communist_phase(phase, bonus):
    g = _lcr_at_home("Bob", phase)
    cash = g.cash[g.find("Bob")]
    act(g, C("LCR", "lay_tile", hex="A17", tile="447", rotation=0))
    assert g.cash[g.find("Bob")] == cash + bonus


@pytest.mark.parametrize("phase, income", [("A1", 10), ("B1", 10), ("B2", 0), ("C1", 0)])
def test_vii_1_privates_pay_their_income_until_the_communist_phase(phase, income):
    """VII.1, II.3.1: the privates pay their owners at the start of an operating round; from phase B2 on
    (VIII.4, the communist phase) they pay nothing. P2 (Ł10) handed to Bob; the phase set by a direct edit."""
    g = new_game(P2="Bob")
    found(g, "Ann", "GWR")
    g.g["phase"] = phase
    before = g.cash[g.find("Bob")]
    to_operating(g)
    assert g.g["round"] == "operating"
    assert g.cash[g.find("Bob")] == before + income
