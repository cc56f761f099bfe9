"""1880 Romania's foreign investors at work (II.3.2, V.2, VI.6, VII.1,
VII.3.5.2, VII.3.6, VII.3.7, IX.2), on the real map.

Games play the Starting Round for real (every private sold at face value)
and the selection of investors; refused actions go through
`assert_refused` (IllegalAction naming the section, and the game
unchanged). Where play would take too long a test edits the state
directly and says so.
"""

from __future__ import annotations



from compiler.emit.engines import game_class
from compiler.runtime.entities import DEPOT
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, P

Game = game_class("1880 Romania")
NAMES = ("Ann", "Bob", "Cid", "Dee")


# ---------------------------------------------------------------- helpers


def E(entity, type_, **fields):
    kind = "minor" if str(entity).isdigit() else "corporation"
    return {"type": type_, "entity": entity, "entity_type": kind, **fields}


def game_with_investors(picks=("6", "5", "1", "3")):
    """Every private sold at face value in the Starting Round but P7, sold for Ł185 so that its buyer
    (Ł255 left) and not P8's (Ł260) sits first; P8's buyer founds the TR at 70 (VI.6), and his first
    founding is done. Then the players, in their new seating, select `picks`. Returns the game at the
    first stock round and the seating."""
    g = Game(players=list(NAMES), seed=1)
    g._test_monitor = Monitor(g)
    while g.g["round"] == "auction" and not g.call("picking"):
        company = g.call("auction_company")
        price = 185 if company.id == "P7" else company.get("cost")
        act(g, P(acting(g), "bid", company=company.id, price=price))
        while g.g["round"] == "auction" and g.call("auction_company") == company and not g.call("picking"):
            act(g, P(acting(g), "pass"))
    act(g, P(acting(g), "par", corporation="TR", share_price="70,7,3", slot=0, president_percent=20))
    act(g, E("TR", "choose", choice="ABC"))
    seating = [p.id for p in g.players]
    assert g.call("president", g.entity("corporation", "TR")).id == seating[1]
    for name, investor in zip(seating, picks):
        act(g, P(name, "bid", minor=investor, price=0))
    assert g.g["round"] == "stock"
    return g, seating


def found(g, name, sym, rights="ABC", percent=20, price=100):
    while acting(g) != name:
        act(g, P(acting(g), "pass"))
    share_price, slot = next((a["share_price"], a["slot"]) for a in g._cand_par(g.find(name), {})
                             if a["corporation"] == sym and a["share_price"].startswith(f"{price},"))
    act(g, P(name, "par", corporation=sym, share_price=share_price, slot=slot, president_percent=percent))
    act(g, E(sym, "choose", choice=rights))


def to_operating(g):
    while g.g["round"] == "stock":
        act(g, P(acting(g), "pass"))


def cfr_to_pitesti(g):
    """A direct edit: track from Bucharest's CFR circle (I17) through I15 to Pitești (H14)."""
    g.board.lay("I17", "L148", 0)
    g.board.lay("I15", "8", 2)
    g.board.lay("H14", "57", 5)


# ---------------------------------------------------------------- V.2 / II.3.2


def test_v_2_a_selected_investor_places_its_home_station():
    g, seating = game_with_investors()
    assert g.board.tokens_of("6") == [("H14", 0)]       # German investors, Pitești
    assert g.board.tokens_of("1") == [("B4", 0)]        # Austro-Hungarian, Vienna (off-board)
    assert g.board.tokens_of("2") == []                 # not selected: out of the game
    assert g.corp["2"]["closed"]
    assert g.state()["investors"][5]["owner"] == seating[0]


# ---------------------------------------------------------------- VI.6 reserved share


def test_vi_6_first_founding_reserves_a_share_for_the_investor():
    g, seating = game_with_investors()
    owner = seating[0]
    found(g, owner, "CFR", price=70, percent=20, rights="ABC")
    investor = g.find("6")
    assert g.b_percent(investor, g.entity("corporation", "CFR")) == 10
    g.cash[g.find(owner)] += 200                        # a direct edit: the bank lends him the money
    g.flow["paid"] += 200
    found(g, owner, "GWR", price=70)                    # his second founding reserves nothing
    assert g.b_percent(investor, g.entity("corporation", "GWR")) == 0


def test_vi_7_a_share_reserved_for_an_investor_uncovers_the_card_too():
    """VI.7 with VI.6: the share reserved for an investor is taken from the company's stack, so it is one
    of the 50% above the "100% operating capital" card: a 20% president's certificate, the reserved share
    and two shares bought make 50%, and the second five times par comes (a direct edit puts the game in
    phase B1, its events not fired). The reserved share is not sold: the 30% to float in phase B are the
    players' (VI.6)."""
    g, seating = game_with_investors()
    owner = seating[0]
    g.g["phase"] = "B1"
    found(g, owner, "CFR", price=70, percent=20, rights="ABC")
    cfr = g.entity("corporation", "CFR")
    assert g.b_percent(g.find("6"), cfr) == 10 and not g.corp["CFR"]["floated"]
    for expected in (5 * 70, 10 * 70):
        name = acting(g)
        cert = next(c for c in g.certs_of["CFR"] if g.owner[c.id] == g.name("initial_offering") and not c.president)
        act(g, P(name, "buy_shares", shares=[cert.id], percent=10))
        assert g.corp["CFR"]["floated"] and g.cash[cfr] == expected
    assert sum(g.b_percent(g.find(n), cfr) for n in seating) == 40


# ---------------------------------------------------------------- VII.1 / VII.3.5.2 the investor's turn


def test_vii_1_investors_operate_before_the_companies():
    g, seating = game_with_investors()
    found(g, seating[1], "GWR")
    to_operating(g)
    assert acting(g) == "1"                             # investors by number, then companies
    assert g.g["step"] == "lay_tile"


def test_vii_1_an_investor_lays_one_tile_only():
    """A direct edit puts the game in phase B1, when a company could lay two yellow tiles."""
    g, seating = game_with_investors(picks=("5", "6", "1", "3"))
    found(g, seating[1], "GWR")
    g.g["phase"] = "B1"
    to_operating(g)
    while acting(g) != "5":
        act(g, E(acting(g), "pass"))
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
    act(g, lays[0])
    assert_refused(g, E("5", "lay_tile", hex=lays[0]["hex"], tile="9-1", rotation=0), "VII.1")


def test_vii_3_5_2_an_investor_leases_the_top_train_and_withholds():
    g, seating = game_with_investors()
    found(g, seating[0], "CFR")
    cfr_to_pitesti(g)
    to_operating(g)
    while acting(g) != "6":
        act(g, E(acting(g), "pass"))
    act(g, E("6", "pass"))                              # no track
    assert g.g["step"] == "run_routes"
    run = next(a for a in g.legal_actions() if a["type"] == "run_routes")
    assert run["routes"][0]["train"] == "2-0"           # the top train of the stack
    depot_before = [t for t in g.train_order if g.owner[t] is DEPOT]
    act(g, run)
    assert g.cash[g.find("6")] == 50                    # Pitești 20 + Bucharest 30, withheld
    assert [t for t in g.train_order if g.owner[t] is DEPOT] == depot_before   # the train stays
    assert g.g["phase"] == "A1"                         # leasing opens no phase


# ---------------------------------------------------------------- VII.3.7 closing


def test_vii_3_7_no_connection_before_the_company_has_a_station():
    """The CFR's home station goes down in its first turn, after the investors (VII.1)."""
    g, seating = game_with_investors()
    found(g, seating[0], "CFR")
    cfr_to_pitesti(g)
    to_operating(g)
    while acting(g) != "6":
        act(g, E(acting(g), "pass"))
    act(g, E("6", "pass"))
    act(g, next(a for a in g.legal_actions() if a["type"] == "run_routes"))
    assert acting(g) == "CFR" and not g.g.get("state:decisions")
    assert not g.corp["6"]["closed"]


def _connected(to):
    """A direct edit also puts the CFR's home station down, as its first turn would have."""
    g, seating = game_with_investors()
    owner = seating[0]
    found(g, owner, "CFR")
    cfr_to_pitesti(g)
    g.call("place_home_token", g.entity("corporation", "CFR"))
    to_operating(g)
    while acting(g) != "6":
        act(g, E(acting(g), "pass"))
    act(g, E("6", "pass"))
    act(g, next(a for a in g.legal_actions() if a["type"] == "run_routes"))
    assert acting(g) == "6" and g.g["state:decisions"][0][2] == "choose"
    return g, owner


def test_vii_3_7_connected_investor_closes_capital_to_the_company():
    g, owner = _connected("company")
    cfr = g.entity("corporation", "CFR")
    cash_before, cfr_before = g.cash[g.find(owner)], g.cash[cfr]
    assert_refused(g, E("6", "choose", choice="ABC"), "VII.3.7")
    act(g, E("6", "choose", choice="capital_to_company"))
    assert g.corp["6"]["closed"]
    assert g.b_percent(g.find(owner), cfr) == 30          # the reserved share, free
    assert g.cash[g.find(owner)] == cash_before + 50      # and the Ł50 bonus
    assert g.cash[cfr] == cfr_before + 50                 # the investor's capital
    assert g.board.tokens_of("6") == []


def test_vii_3_7_or_the_owner_takes_20_percent_of_the_capital():
    g, owner = _connected("owner")
    cash_before = g.cash[g.find(owner)]
    act(g, E("6", "choose", choice="capital_to_owner"))
    assert g.cash[g.find(owner)] == cash_before + 50 + 10
    assert g.cash[g.find("6")] == 0


def test_vii_3_6_a_reserved_share_earns_no_dividend():
    g, seating = game_with_investors()
    found(g, seating[0], "CFR")
    cfr = g.entity("corporation", "CFR")
    assert g.b_percent(g.find("6"), cfr) == 10
    investor_cash = g.cash[g.find("6")]
    g.ROUTINES["pay_dividends"](g, cfr, 100)
    assert g.cash[g.find("6")] == investor_cash


def test_ix_2_an_open_investor_is_worth_20_percent_of_its_capital():
    """A direct edit gives investor 6 Ł200 of capital from the bank."""
    g, seating = game_with_investors()
    before = g.player_value(g.find(seating[0]))
    g.cash[g.find("6")] += 200
    assert g.player_value(g.find(seating[0])) == before + 40


def test_vii_1_after_phase_b1_an_investor_only_checks_its_connection():
    """A direct edit puts the game in phase B2."""
    g, seating = game_with_investors()
    found(g, seating[1], "GWR")
    g.g["phase"] = "B2"
    to_operating(g)
    assert acting(g) == "GWR"                           # the investors' turns were empty


def test_vi_6_the_reserved_share_is_one_of_the_50_percent_of_phase_a():
    """The reading taken (reserved_share_in_phase_a): the investor's 10% comes out of the stack above
    the '100%' card, so with a 20% president's certificate players may buy only two more shares."""
    g, seating = game_with_investors()
    owner = seating[0]
    found(g, owner, "GWR", price=70)
    gwr = g.entity("corporation", "GWR")
    assert g.b_percent(g.find("6"), gwr) == 10
    buyers = [p for p in seating if p != owner]

    def buy(name):
        while acting(g) != name:
            act(g, P(acting(g), "pass"))
        cert = next(c for c in g.certs_of["GWR"] if g.owner[c.id] == g.name("initial_offering") and not c.president)
        return P(name, "buy_shares", shares=[cert.id], percent=10)

    act(g, buy(buyers[0]))
    act(g, buy(buyers[1]))                              # 20 + 10 reserved + 20: half the company out
    assert_refused(g, buy(buyers[2]), "VI.1")


def test_vii_3_7_the_company_may_take_the_investors_station_with_its_cheapest_marker():
    g, owner = _connected("company")
    cfr = g.entity("corporation", "CFR")
    cash_before = g.cash[cfr]
    act(g, E("6", "choose", choice="capital_to_company_take_station"))
    assert g.corp["6"]["closed"]
    assert g.board.tokens_of("6") == []
    assert ("H14", 0) in g.board.tokens_of("CFR")       # Pitești, in the investor's circle
    assert g.cash[cfr] == cash_before + 50              # the capital; the marker cost nothing
    assert g.call("tokens_left", cfr) == 1 and g.call("next_token_cost", cfr) == 100   # the Ł40 marker went


def test_vii_3_7_no_station_for_a_company_without_a_marker_left():
    """A direct edit: the CFR has placed all three of its station markers."""
    g, owner = _connected("company")
    g.corp["CFR"]["tokens"] = 3
    assert_refused(g, E("6", "choose", choice="capital_to_owner_take_station"), "VII.3.7")
    act(g, E("6", "choose", choice="capital_to_owner"))
    assert g.board.tokens_of("6") == []
