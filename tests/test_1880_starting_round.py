"""1880 Romania's Starting Round (rulebook V), rule by rule.

V.1: the privates are auctioned one at a time in number order, each auction
opened by the next player in the provisional order (player-order cards dealt
at random, §IV Game Setup); opening bid at least the face value, raises of at
least Ł5; a pass is final for that auction; all passing on the first private
gives it away at random for nothing, on a later one pays the privates' income
and starts the auction again; afterwards the seating is by cash, ascending.
V.2: in that order each player selects one foreign investor for free; the rest
leave the game; then the first stock round begins.

Refused actions go through `assert_refused`: `IllegalAction` is raised, its
`.rule` names the section, and nothing in the game changed. Every action a
helper plays is followed by the invariant monitor.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from compiler.emit.engines import game_class
from compiler.app.playout import play_one
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, P, seats

Game = game_class("1880 Romania")
NAMES = ("Ann", "Bob", "Cid", "Dee")
FACE = {"P1": 20, "P2": 30, "P3": 40, "P4": 60, "P5": 70, "P6": 70, "P7": 100, "P8": 160}
INCOME = {"P1": 5, "P2": 10, "P3": 10, "P4": 20, "P5": 10, "P6": 10, "P7": 5, "P8": 0}
FIXTURE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "1880Romania" / \
    "1880_romania_game_end_final_phase.json"


# ---------------------------------------------------------------- helpers


def new_game(players=NAMES, seed=1):
    g = Game(players=list(players), seed=seed)
    g._test_monitor = Monitor(g)
    return g


def bid(name, company, price):
    return P(name, "bid", company=company, price=price)


def pick(name, investor):
    return P(name, "bid", minor=investor, price=0)


def cash(g, name):
    return g.cash[g.find(name)]


def owner(g, sym):
    return next(x["owner"] for x in g.state()["privates"] if x["sym"] == sym)


def on_auction(g):
    return g.state()["auction"]["company"]


def pass_(g, name=None):
    act(g, P(name or acting(g), "pass"))


def sell_at_face(g):
    """The player on turn opens the auction at face value and every other player passes."""
    sym = on_auction(g)
    act(g, bid(acting(g), sym, FACE[sym]))
    while on_auction(g) == sym:
        pass_(g)


# ---------------------------------------------------------------- §IV setup and V.1 order


def test_iv_setup_player_order_cards_are_dealt_at_random():
    orders = {tuple(seats(new_game(seed=s))) for s in range(12)}
    assert len(orders) > 1                                        # the deal is random ...
    assert seats(new_game(seed=5)) == seats(new_game(seed=5))     # ... and the seed replays it
    assert all(sorted(o) == sorted(NAMES) for o in orders)


def test_v_1_the_game_opens_with_the_auction_of_no_1_by_the_lowest_card():
    g = new_game()
    state = g.state()
    assert state["round"]["type"] == "auction"
    assert state["auction"] == {"company": "P1", "high_bid": None, "passed": [], "picks": None}
    assert acting(g) == seats(g)[0]                               # the lowest card holds the bat
    assert all(x["owner"] is None for x in state["privates"])
    assert all(p["cash"] == 480 for p in state["players"])


def test_v_1_privates_are_auctioned_in_numerical_order():
    g = new_game()
    assert_refused(g, bid(acting(g), "P2", 30), "V.1", "numerical order")
    for expected in FACE:
        assert on_auction(g) == expected
        sell_at_face(g)
    assert g.state()["auction"]["company"] is None


def test_v_1_each_auction_is_opened_by_the_next_player():
    g = new_game()
    order = seats(g)
    for i in range(8):
        assert acting(g) == order[i % 4], f"auction {i + 1}"
        sell_at_face(g)


def test_v_1_opening_bid_at_least_the_face_value():
    g = new_game()
    a = acting(g)
    assert_refused(g, bid(a, "P1", 15), "V.1", "face value")
    act(g, bid(a, "P1", 25))                                      # it may be higher
    assert g.state()["auction"]["high_bid"] == [a, 25]


def test_v_1_each_raise_at_least_five():
    g = new_game()
    a, b = seats(g)[:2]
    act(g, bid(a, "P1", 20))
    assert_refused(g, bid(b, "P1", 24), "V.1", "at least")
    act(g, bid(b, "P1", 25))
    assert g.state()["auction"]["high_bid"] == [b, 25]


def test_v_1_a_bid_is_at_most_the_bidders_cash():
    g = new_game()
    a = acting(g)
    assert_refused(g, bid(a, "P1", 485), "V.1", "cash")


@pytest.mark.parametrize("action", [
    {"company": "P9", "price": 20},
    {"minor": "9", "price": 0},
    {"company": "P1"},
    {"company": "P1", "price": "twenty"},
    {"company": "P1", "price": None},
])
def test_v_1_a_malformed_bid_is_refused_cleanly(action):
    g = new_game()
    assert_refused(g, P(acting(g), "bid", **action), "V.1")


def test_v_1_a_player_who_passed_may_not_re_enter_that_auction():
    g = new_game()
    a, b, c, d = seats(g)
    act(g, bid(a, "P1", 20))
    pass_(g, b)
    act(g, bid(c, "P1", 25))
    assert acting(g) == d
    assert_refused(g, bid(b, "P1", 30), "V.1", "re-enter")
    pass_(g, d)
    assert acting(g) == a                                         # the turn skips b
    act(g, bid(a, "P1", 30))
    assert acting(g) == c


def test_v_1_a_player_who_passed_may_bid_in_later_auctions():
    g = new_game()
    a, b, c, d = seats(g)
    act(g, bid(a, "P1", 20))
    pass_(g, b)
    pass_(g, c)
    pass_(g, d)
    assert on_auction(g) == "P2" and acting(g) == b
    act(g, bid(b, "P2", 30))
    assert g.state()["auction"]["high_bid"] == [b, 30]


def test_v_1_the_winner_pays_the_bank_and_takes_the_private():
    g = new_game()
    a, b, c, d = seats(g)
    act(g, bid(a, "P1", 20))
    act(g, bid(b, "P1", 35))
    pass_(g, c)
    pass_(g, d)
    assert on_auction(g) == "P1"                                  # a has not passed yet
    pass_(g, a)
    assert owner(g, "P1") == b
    assert cash(g, b) == 480 - 35 and cash(g, a) == 480
    assert g.flow["received"] == 35
    assert on_auction(g) == "P2" and acting(g) == b               # the second auction, the next player


def test_v_1_the_high_bid_is_its_bidders_standing_bid_until_the_sale():
    """The high bid is the library's: its bidder's standing bid (standing_bid), the only one on the
    private (auction_bid); highest_bid reads it; the sale takes it away, and nothing stays set aside."""
    g = new_game()
    a, b, c, d = seats(g)
    act(g, bid(a, "P1", 20))
    assert g._bids() == [("P1", g.find(a).id, 20)] and g.call("highest_bid", g.find("P1")) == 20
    act(g, bid(b, "P1", 35))
    assert g._bids() == [("P1", g.find(b).id, 35)] and g.call("highest_bid", g.find("P1")) == 35
    assert g.call("free_cash", g.find(b)) == 480 - 35 and g.call("free_cash", g.find(a)) == 480
    pass_(g, c)
    pass_(g, d)
    pass_(g, a)
    assert owner(g, "P1") == b and g._bids() == []
    assert g.call("free_cash", g.find(b)) == cash(g, b) == 480 - 35
    assert g.call("highest_bid", g.find("P2")) == 0


def test_v_1_all_pass_on_the_first_private_gives_it_at_random_for_nothing():
    winners = set()
    for seed in range(10):
        g = new_game(seed=seed)
        for _ in range(4):
            pass_(g)
        winner = owner(g, "P1")
        assert winner in NAMES
        assert all(p["cash"] == 480 for p in g.state()["players"])  # at a price of zero
        assert on_auction(g) == "P2"
        winners.add(seats(g).index(winner))
        again = new_game(seed=seed)
        for _ in range(4):
            pass_(again)
        assert owner(again, "P1") == winner                       # the game's seeded draw
    assert len(winners) > 1


def test_v_1_all_pass_on_a_later_private_pays_income_and_restarts_that_auction():
    g = new_game()
    a, b, c, d = seats(g)
    sell_at_face(g)                                               # a buys P1 for 20
    assert on_auction(g) == "P2" and acting(g) == b
    for name in (b, c, d, a):
        pass_(g, name)
    assert cash(g, a) == 480 - 20 + INCOME["P1"]                  # owners receive their dividend
    assert cash(g, b) == cash(g, c) == cash(g, d) == 480
    assert on_auction(g) == "P2"                                  # the same private again
    assert g.state()["auction"]["passed"] == []                   # a new auction: everyone may bid
    assert acting(g) == c                                         # opened by the next player
    act(g, bid(c, "P2", 30))
    assert g.state()["auction"]["high_bid"] == [c, 30]


def test_v_1_final_seating_by_cash_ascending_ties_keep_the_earlier_order():
    g = new_game()
    p0, p1, p2, p3 = seats(g)
    act(g, bid(p0, "P1", 30))                                     # p0 pays 30 + 70 = 100, as p1 (30 + 70)
    for name in (p1, p2, p3):
        pass_(g, name)
    for _ in range(7):
        sell_at_face(g)
    spent = {p0: 100, p1: 100, p2: 140, p3: 220}
    assert {n: cash(g, n) for n in NAMES} == {n: 480 - spent[n] for n in NAMES}
    assert seats(g) == [p3, p2, p0, p1]                           # 260, 340, then the tie 380/380 as before
    found_tr(g)                                                   # VI.6: P8's buyer founds the TR first
    assert g.g["priority"] == 0 and acting(g) == p3               # the poorest holds the bat and selects first
    assert [p["name"] for p in g.state()["players"]] == [p3, p2, p0, p1]


# ---------------------------------------------------------------- V.2


def found_tr(g, price=90):
    """The buyer of P8 founds the TR at once (VI.6) with its three building rights (VII.3.2)."""
    share_price = {70: "70,7,3", 80: "80,5,3", 90: "90,3,3", 100: "100,1,3"}[price]
    act(g, P(owner(g, "P8"), "par", corporation="TR", share_price=share_price, slot=0, president_percent=20))
    act(g, {"type": "choose", "entity": "TR", "entity_type": "corporation", "choice": "ABC"})


def auction_done(seed=1):
    """Every private sold at face value and the TR founded with P8's certificate: the selection of
    investors (V.2) is next."""
    g = new_game(seed=seed)
    for _ in range(8):
        sell_at_face(g)
    found_tr(g)
    return g


def test_v_2_each_player_selects_one_foreign_investor_for_free():
    g = auction_done()
    order = seats(g)
    assert g.state()["auction"]["picks"] == ["1", "2", "3", "4", "5", "6"]
    assert_refused(g, P(order[0], "pass"), "V.2", "investor")
    assert_refused(g, P(order[0], "bid", minor="1", price=10), "V.2", "free")
    assert_refused(g, pick(order[1], "1"), "V.2")                  # not his turn
    before = {n: cash(g, n) for n in NAMES}
    act(g, pick(order[0], "3"))
    assert acting(g) == order[1]
    assert_refused(g, pick(order[1], "3"), "V.2", "still on offer")
    act(g, pick(order[1], "1"))
    act(g, pick(order[2], "6"))
    act(g, pick(order[3], "2"))
    assert {n: cash(g, n) for n in NAMES} == before
    investors = {x["sym"]: x for x in g.state()["investors"]}
    assert {k: v["owner"] for k, v in investors.items()} == {
        "1": order[1], "2": order[3], "3": order[0], "4": None, "5": None, "6": order[2]}
    assert investors["4"]["removed"] and investors["5"]["removed"]  # unselected investors leave the game
    assert not investors["1"]["removed"]


def test_v_2_then_the_first_stock_round_begins_with_the_priority_deal():
    g = auction_done()
    order = seats(g)
    for name, inv in zip(order, ("1", "2", "3", "4")):
        act(g, pick(name, inv))
    state = g.state()
    assert state["round"] == {"type": "stock", "number": 1}
    assert "auction" not in state
    assert acting(g) == order[0]
    assert_refused(g, bid(order[0], "P1", 50), "V.1")             # no private is sold after the Starting Round


def test_v_2_selection_with_three_players_removes_three_investors():
    g = auction_done_n(("Ann", "Bob", "Cid"))
    order = seats(g)
    for name, inv in zip(order, ("6", "5", "4")):
        act(g, pick(name, inv))
    removed = sorted(x["sym"] for x in g.state()["investors"] if x["removed"])
    assert removed == ["1", "2", "3"]
    assert g.state()["round"]["type"] == "stock"


def auction_done_n(players):
    g = new_game(players=players)
    for _ in range(8):
        sell_at_face(g)
    found_tr(g)
    return g


# ---------------------------------------------------------------- VI.6 the Orient Express (P8) founds the TR


def _sell_all_privates(g):
    for _ in range(8):
        sell_at_face(g)
    return owner(g, "P8")


def _tr_par(name, price=90, percent=20):
    share_price = {70: "70,7,3", 80: "80,5,3", 90: "90,3,3", 100: "100,1,3"}[price]
    return P(name, "par", corporation="TR", share_price=share_price, slot=0, president_percent=percent)


def test_vi_6_the_buyer_of_p8_founds_the_tr_at_once():
    g = new_game()
    buyer = _sell_all_privates(g)
    assert g.g["round"] == "auction" and acting(g) == buyer
    assert {a["corporation"] for a in g.legal_actions()} == {"TR"}
    before = cash(g, buyer)
    gwr = P(buyer, "par", corporation="GWR", share_price="90,3,3", slot=0, president_percent=20)
    assert_refused(g, gwr, "VI.6", "Orient Express")                     # the TR, no other company
    assert_refused(g, _tr_par(buyer, percent=30), "VI.6", "20%")        # P8's certificate is the 20%
    assert_refused(g, pick(buyer, "1"), "VI.6", "must first par")        # the par comes first
    act(g, _tr_par(buyer, 90))
    assert cash(g, buyer) == before                                       # the auction paid for it
    tr = g.entity("corporation", "TR")
    assert g.b_percent(g.find(buyer), tr) == 20 and g.call("president", tr) == g.find(buyer)
    assert g.corp["TR"]["floated"] and g.cash[tr] == 5 * 90               # VI.6 20% sold; VI.7 5 x par
    assert g._track_row("TR") == 4                                 # the top row of the 90 group
    assert g.g["state:decisions"] == (("corporation", "TR", "choose"),)          # VI.6 three building rights
    act(g, {"type": "choose", "entity": "TR", "entity_type": "corporation", "choice": "ABC"})
    assert g.corp["TR"]["building_rights"] == "ABC"
    assert g.call("picking") and acting(g) == g.players[0].id                 # V.2 goes on


def test_vi_6_no_one_else_founds_the_tr():
    g = new_game()
    buyer = _sell_all_privates(g)
    other = next(n for n in NAMES if n != buyer)
    assert_refused(g, _tr_par(other), "VI.", "turn")                     # the buyer owes the par
    act(g, _tr_par(buyer))
    act(g, {"type": "choose", "entity": "TR", "entity_type": "corporation", "choice": "ABC"})
    assert g.call("president", g.entity("corporation", "TR")) == g.find(buyer)


def test_vi_6_p8s_certificate_reserves_a_share_for_the_investor_selected_after_the_auction():
    g = new_game()
    buyer = _sell_all_privates(g)
    act(g, _tr_par(buyer, 100))
    act(g, {"type": "choose", "entity": "TR", "entity_type": "corporation", "choice": "ABC"})
    investors = {}
    while g.call("picking"):
        name, choice = acting(g), g.g["starting"]["picks"][0]
        act(g, pick(name, choice))
        investors[name] = g.entity("minor", choice)
    tr = g.entity("corporation", "TR")
    assert g.b_percent(investors[buyer], tr) == 10
    assert all(g.b_percent(m, tr) == 0 for n, m in investors.items() if n != buyer)
    assert g.g["round"] == "stock"
    # his next founding is not his first (VI.6): no second reserved share
    while acting(g) != buyer:
        act(g, P(acting(g), "pass"))
    act(g, P(buyer, "par", corporation="GWR", share_price="70,7,3", slot=0, president_percent=20))
    assert g.b_percent(investors[buyer], g.entity("corporation", "GWR")) == 0


# ---------------------------------------------------------------- a real log


@pytest.mark.skipif(not FIXTURE.exists(), reason="../shared/fixtures is absent")
def test_v_starting_round_of_a_real_game_replays():
    """The Starting Round of a 3-player game from 18xx.games: eight auctions at face value, then the
    selection of investors in the new seating order. Its 25th action founds the TR with P8's
    president's certificate at once (VI.6): 18xx.games neither names the certificate's size (P8's is
    20%) nor asks for the TR's building rights; the replay adds both (VI.6, VII.3.2)."""
    log = json.loads(FIXTURE.read_text())
    actions = []
    for a in log["actions"]:
        if a["id"] > 28:
            break
        if a["id"] == 25:
            actions.append({**a, "president_percent": 20})
            actions.append({"type": "choose", "entity": "TR", "entity_type": "corporation", "choice": "ABC"})
            continue
        actions.append(a)
    g = Game.from_log({**log, "actions": actions})
    state = g.state()
    names = {p["id"]: p["name"] for p in log["players"]}
    assert [p["name"] for p in state["players"]] == [names[1], names[0], names[2]]   # by cash: 340, 420, 490
    assert [p["cash"] for p in state["players"]] == [340, 420, 490]
    assert {x["sym"]: x["owner"] for x in state["privates"]} == {
        "P1": names[0], "P2": names[1], "P3": names[2], "P4": names[0],
        "P5": names[1], "P6": names[2], "P7": names[0], "P8": names[1]}
    owners = {x["sym"]: x["owner"] for x in state["investors"]}
    assert owners["1"] == names[1] and owners["6"] == names[0] and owners["2"] == names[2]
    assert state["round"] == {"type": "stock", "number": 1} and state["acting"] == names[1]
    tr = next(c for c in state["corporations"] if c["sym"] == "TR")
    assert tr["president"] == names[1] and tr["share_price"] == 100 and tr["floated"]
    assert tr["treasury"] == 500                                     # VI.7: five times par
    assert g.b_percent(g.entity("minor", "1"), g.entity("corporation", "TR")) == 10   # VI.6: reserved share


# ---------------------------------------------------------------- random play


def test_v_random_starting_rounds_keep_the_invariants():
    for seed in range(20):
        g = new_game(players=NAMES[:3] if seed % 2 else NAMES, seed=seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if g.g["round"] != "auction":
                break
            act(g, rng.choice(g.legal_actions()))
        assert g.g["round"] == "stock"
        state = g.state()
        assert all(x["owner"] is not None for x in state["privates"])
        cash_order = [p["cash"] for p in state["players"]]
        assert cash_order == sorted(cash_order)
        assert sum(1 for x in state["investors"] if x["owner"]) == len(g.players)


@pytest.mark.parametrize("players", [3, 6])
def test_v_random_games_play_through_the_starting_round_to_the_end(players):
    names = [f"P{i}" for i in range(players)]
    record = play_one(Game, names, 1)
    assert record["finished"] and record["end_reason"] == "last_train"


def test_v_own_log_replays_after_the_new_seating():
    """The final seating (V.1) reorders the players; a log lists them as the game was given them, so
    that the replay deals the same player-order cards (§IV Game Setup) and reaches the same state."""
    g = new_game(seed=5)
    rng = random.Random(5)
    while g.g["round"] == "auction":
        act(g, rng.choice(g.legal_actions()))
    for _ in range(30):
        act(g, rng.choice(g.legal_actions()))
    log = g.to_log()
    assert [p["name"] for p in log["players"]] == list(NAMES)
    assert Game.from_log(log).state() == g.state()
