"""18CO: the optional rules 18xx.games offers (rulespecs/18co.rules, `option`). Our rulebook has no text
for them; their meaning is the site's description and implementation, cited as supplements.

- Priority Order Pass: the players take their seats in the order in which each began passing, in the
  Private Company Auction and in every Stock Round; a player who bids, buys or sells leaves that order.
- Pay Per Trash: several shares of a corporation that has not yet operated sell at the prices of each
  step the token falls through, from the current one.
- Major Investors: a corporation's purchase of another corporation's certificate may not pass that
  corporation's presidency to another player.
"""

from __future__ import annotations

from compiler.runtime.monitor import Monitor
from tests.engine_helpers import C, P, act, acting, assert_refused, seats
from tests.test_18co_rules import FACE, Game, NAMES, buy, cash, corp_state, par, pass_


def _game(*options, seed=1):
    g = Game(players=list(NAMES), seed=seed, options=list(options))
    g._test_monitor = Monitor(g)
    return g


# ---------------------------------------------------------------- Priority Order Pass


def test_priority_order_pass_the_auction_seats_the_players_in_the_order_they_began_passing():
    g = _game("priority_order_pass")
    first, second, third, fourth = seats(g)
    act(g, P(first, "pass"))                                      # first to pass ...
    act(g, P(second, "bid", company="IMC", price=FACE["IMC"]))    # ... a bid keeps the bidder out of the order
    act(g, P(third, "pass"))
    act(g, P(fourth, "pass"))
    act(g, P(first, "pass"))                                      # already in the order: he keeps his place
    act(g, P(second, "pass"))                                     # all have passed: the auction ends
    assert g.g["round"] == "stock"
    assert seats(g) == [first, third, fourth, second]
    assert acting(g) == first                                     # the first to pass has the priority deal


def test_without_the_option_the_priority_goes_left_of_the_last_bidder_2_8():
    g = _game()
    first, second, third, fourth = seats(g)
    act(g, P(first, "pass"))
    act(g, P(second, "bid", company="IMC", price=FACE["IMC"]))
    for name in (third, fourth, first, second):
        act(g, P(name, "pass"))
    assert seats(g) == [first, second, third, fourth] and acting(g) == third


def test_priority_order_pass_a_stock_round_reseats_by_first_pass_and_a_buyer_leaves_the_order():
    g = _game("priority_order_pass")
    while g.g["round"] == "auction":
        pass_(g)
    order = seats(g)                                              # the auction's order of passing
    a, b, c, d = order
    act(g, P(a, "pass"))                                          # a passes first
    par(g, b, "KPAC", 60)                                         # b buys: not passing
    act(g, P(c, "pass"))
    act(g, P(d, "pass"))
    buy(g, a, "KPAC")                                             # a comes back and buys: he leaves the order
    act(g, P(b, "pass"))
    act(g, P(c, "pass"))
    act(g, P(d, "pass"))
    act(g, P(a, "pass"))                                          # all four passed in a row: the round ends
    assert g.state_amount("stock_round_number") == 2  # (nothing floated: no operating round)
    assert seats(g) == [c, d, b, a] and acting(g) == c


# ---------------------------------------------------------------- Pay Per Trash


def _second_stock_round(*options):
    """KPAC launched at 80 (purple: 50% to float, §4.3.1.2) by the first player and two shares bought by
    the second in stock round 1: 40% sold, not floated, so stock round 2 begins with KPAC not yet operated."""
    g = _game(*options)
    while g.g["round"] == "auction":
        pass_(g)
    a, b = acting(g), seats(g)[(seats(g).index(acting(g)) + 1) % 4]
    par(g, a, "KPAC", 80)
    for _ in range(2):
        while acting(g) != b:
            pass_(g)
        buy(g, b, "KPAC")
    while g.state_amount("stock_round_number") == 1:
        pass_(g)                                                  # nothing floated: no operating round
    assert g.g["round"] == "stock"
    return g, a, b


def test_pay_per_trash_several_shares_before_the_first_operating_round_fetch_the_falling_prices():
    g, a, b = _second_stock_round("pay_per_trash")
    assert not g.corp["KPAC"]["operated"]
    while acting(g) != b:
        pass_(g)
    row, col = corp_state(g, "KPAC")["market_cell"]
    prices = [g.market.price((row + k, col)) for k in range(2)]   # 80, then 65 one step down
    assert prices == [80, 65]
    before = cash(g, b)
    mine = [c.id for c in g.certs_of["KPAC"] if g.owner[c.id] == g.find(b)]
    act(g, P(b, "sell_shares", shares=mine, percent=20))
    assert cash(g, b) == before + 80 + 65                         # not 2 x 80
    assert tuple(corp_state(g, "KPAC")["market_cell"]) == (row + 2, col)   # §4.1.4.2: two steps down


def test_without_pay_per_trash_every_share_fetches_the_current_price_4_1_3():
    g, a, b = _second_stock_round()
    while acting(g) != b:
        pass_(g)
    price = corp_state(g, "KPAC")["share_price"]
    before = cash(g, b)
    mine = [c.id for c in g.certs_of["KPAC"] if g.owner[c.id] == g.find(b)]
    act(g, P(b, "sell_shares", shares=mine, percent=20))
    assert cash(g, b) == before + 2 * price


def test_priority_order_pass_a_seller_leaves_the_order_and_his_pass_after_the_sale_is_no_pass():
    """A sale is acting (the library's sold_this_turn, read by the runtime): the seller's pass that ends his
    turn takes no card and breaks the run of passes, and a seller who had passed gives up his card."""
    g, a, b = _second_stock_round("priority_order_pass")
    c, d = [p for p in seats(g) if p not in (a, b)]
    assert acting(g) == c and seats(g) == [c, d, a, b]            # (seed 1: the order this test walks)
    act(g, P(c, "pass"))
    act(g, P(d, "pass"))
    buy(g, a, "KPAC")                                             # a buys: his turn ends, the run is broken
    act(g, P(b, "pass"))                                          # b takes the third card
    act(g, P(c, "pass"))
    act(g, P(d, "pass"))
    buy(g, a, "KPAC")
    assert g.b_passing_order() == [c, d, b]
    mine = [x.id for x in g.certs_of["KPAC"] if g.owner[x.id] == g.find(b)][:1]
    act(g, P(b, "sell_shares", shares=mine, percent=10))          # b acts again: he gives up his card
    act(g, P(b, "pass"))                                          # ... and his pass after the sale is none
    assert g.b_passing_order() == [c, d] and g.g["passes"] == 0
    for name in (c, d, a, b):
        act(g, P(name, "pass"))                                   # all four pass in a row: the round ends
    assert seats(g) == [c, d, a, b] and g.g["round"] == "operating"


# ---------------------------------------------------------------- Major Investors


def test_major_investors_a_purchase_may_not_pass_the_presidency_to_another_player():
    from tests.test_18co_rules import end_auction, second_stock_round
    from tests.test_18co_takeovers import _cm_in_market, _kpac_operating
    for options, allowed in (((), True), (("major_investors",), False)):
        g = _game(*options)
        end_auction(g)
        holdings = {"Dee": [("KPAC", 60), ("CS", 60)], "Ann": [("CM", 60)],
                    "Cid": [("KPAC", None), ("KPAC", None)],
                    "Bob": [("CM", None), ("CM", None), ("CS", None), ("CS", None)]}
        second_stock_round(g, holdings)
        # test setup: Dee (KPAC's president) holds one CM share, Bob two; two CM shares in the Market
        _cm_in_market(g, 2)
        dee_share = next(c for c in g.certs_of["CM"] if g.owner[c.id] == g.find("Bob"))
        g.move(dee_share, g.find("Bob"), g.find("Dee"))
        _kpac_operating(g)
        cert = g.call("pool_certificates", g.find("CM"))[0]
        buy_one = C("KPAC", "corporate_buy_shares", shares=[cert.id], percent=10)
        # KPAC's president Dee holds 10% of CM, CM's president Ann 20%: the share would not make KPAC CM's
        # largest holder (a takeover), and Ann's 20% plus it is more than Dee's 10%, so the option refuses
        # it (the site's test, CorporateBuyShares#can_buy?); without the option it is bought
        if allowed:
            act(g, buy_one)
            assert g.owner[cert.id] == g.find("KPAC")
        else:
            assert_refused(g, buy_one, "corporate_buy_shares.rb")
