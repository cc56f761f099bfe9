"""1846, mechanic by mechanic: the generated engine against the transcribed rules.

The 1846 rulebook is not among ours; the rulespec cites the public reference
data (`supplement from "18xx-games-1846.json"` / `"18xx-maker-1846.json"`) and,
where neither states a procedure, the documented behaviour of the 18xx.games
implementation. Each test is named after the rulespec topic it checks
(`test_draft_...` is §"Private Company Draft") and plays the engine through
`process` with the 18xx.games action vocabulary; every action a helper plays
is followed by the invariant monitor. Refused actions go through
`assert_refused`: `IllegalAction` is raised, its `.rule` names the topic, and
nothing in the game changed.

Positions are reached by play where that is short. Where play would take too
long a test edits the state directly and says so in a comment (money then
moves from the bank, so the monitor's conservation check still holds).
"""

from __future__ import annotations

import functools
import random

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.entities import BANK, POOL
from compiler.runtime import track
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, assumed_clauses, C, P

Game = game_class("1846")
TwoPlayer = game_class("1846", "Two-Player")


# ---------------------------------------------------------------- helpers


def new_game(players=4, seed=1, cls=Game, options=()):
    g = cls(players=[f"P{i + 1}" for i in range(players)], seed=seed, options=options)
    g._test_monitor = Monitor(g)
    return g


def take_passes(g):
    """Play the draft: each player keeps a Pass card when one is in his hand, else the first card."""
    while g.g["round"] == "draft":
        hand = g.b_draft_hand()
        player = acting(g)
        blanks = [c for c in hand if c.startswith("Pass")]
        if not hand or (len(g.g["draft"]["deck"]) == 1 and not blanks):
            act(g, P(player, "pass"))
            continue
        card = blanks[0] if blanks else hand[0]
        act(g, P(player, "bid", company=card, price=g.call("draft_price", g._company(card))))


def par(g, player, corp, price):
    cell = g.market.par_cell(price)
    act(g, P(player, "par", corporation=corp, share_price=f"{price},{cell[0]},{cell[1]}"))


def all_pass(g):
    """Everyone passes until the round changes."""
    kind = g.g["round"]
    while g.g["round"] == kind and not g.finished:
        act(g, {"type": "pass", "entity": acting(g), "entity_type": g.current_entity().kind})


def corporation_to_step(g, corp, step):
    """Pass the operating entities' steps until `corp` is at `step`."""
    for _ in range(200):
        if g.g["operating"] == corp and g.g["step"] == step:
            return
        act(g, {"type": "pass", "entity": acting(g), "entity_type": g.current_entity().kind})
    raise AssertionError(f"{corp} never reached {step}")


def first_or(g, pars):
    """Draft with Pass cards, par the given corporations ({corp: (player, price)}) and reach the first OR."""
    take_passes(g)
    for corp, (player, price) in pars.items():
        while acting(g) != player:
            act(g, P(acting(g), "pass"))
        par(g, player, corp, price)
    all_pass(g)
    assert g.g["round"] == "operating"


def give(g, entity, amount):
    """Test setup: the bank hands `amount` to `entity` (conserves money)."""
    g.transfer(amount, BANK, g.find(entity))


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("players,removed_corps,removed_privates", [(3, 2, 6), (4, 1, 4), (5, 0, 2)])
def test_setup_removals_by_player_count(players, removed_corps, removed_privates):
    g = new_game(players)
    removed = g.g["removed"]
    corps = [k for k in removed if k in {"CO", "ERIE", "PRR"}]
    privates = [k for k in removed if ("private", k) in g.by_id]
    assert len(corps) == removed_corps and len(privates) == removed_privates
    for k in corps:
        assert g.state()["corporations"][[c.id for c in g.corporations].index(k)]["closed"]
    # the certificate limit is read at the corporations left in the game
    assert g.g["corporations_in_game"] == 7 - removed_corps
    assert g.param("cert_limit") == {3: 14, 4: 12, 5: 11}[players]


def test_a_short_removal_group_caps_only_itself(monkeypatch):
    """§"Setup" (removal privates): each group loses `removed_per_group` of its members, or all of a
    group with fewer. A group of two (a patched orange group) loses both; the blue group after it still
    loses three at three players (the count once carried over from the short group: two)."""
    original = Game.DATA.components_of

    def patched(kind):
        comps = original(kind)
        if kind != "removal":
            return comps
        return [dict(c, orange_group=["LSL", "MC"]) if c["key"] == "privates" else c for c in comps]

    monkeypatch.setattr(Game.DATA, "components_of", patched)
    removed = set(new_game(3).g["removed"])
    assert {"LSL", "MC"} <= removed
    assert len(removed & {"SC", "MPC", "TBC", "BT"}) == 3


def test_setup_removed_corporation_cannot_be_started():
    g = new_game(4)
    take_passes(g)
    gone = next(k for k in g.g["removed"] if k in {"CO", "ERIE", "PRR"})
    cell = g.market.par_cell(100)
    assert_refused(g, P(acting(g), "par", corporation=gone, share_price=f"100,{cell[0]},{cell[1]}"),
                   "Stock Round", "out of the game")


def test_setup_first_edition_option_removes_boomtown_and_little_miami():
    g = new_game(4, options=("first_edition",))
    assert {"BT", "LM"} <= set(g.g["removed"])
    # and one of each first-edition group of three
    assert len([k for k in g.g["removed"] if k in {"LSL", "MC", "OI"}]) == 1
    assert len([k for k in g.g["removed"] if k in {"SC", "MPC", "TBC"}]) == 1


def test_setup_minors_start_with_a_train_and_their_home_station():
    g = new_game(4)
    for minor in ("MS", "BIG4"):
        m = g.entity("minor", minor)
        assert [t.name for t in g.b_trains(m)] == ["2"]
        assert g.board.tokens_of(minor)


# ---------------------------------------------------------------- the draft


def test_draft_runs_in_reverse_order_with_a_hand_of_players_plus_two():
    g = new_game(4)
    assert g.state()["round"]["type"] == "draft"
    assert acting(g) == "P4"
    assert len(g.b_draft_hand()) == 6
    hand = g.b_draft_hand()
    act(g, P("P4", "bid", company=hand[0], price=g.call("draft_price", g._company(hand[0]))))
    assert acting(g) == "P3"


def test_draft_refuses_a_card_not_in_the_hand():
    g = new_game(4)
    hand = set(g.b_draft_hand())
    other = next(c for c in ["MS", "BIG4", "CWI", "MAIL", "LSL", "SC", "TBC", "LM"]
                 if c not in hand and c not in g.g["removed"])
    item = g._company(other)
    assert_refused(g, P("P4", "bid", company=other, price=g.call("draft_price", item)), "Private Company Draft",
                   "not among those drawn")


def test_draft_refuses_a_wrong_price_and_a_pass_before_the_last_company():
    g = new_game(4)
    card = next(c for c in g.b_draft_hand() if not c.startswith("Pass"))
    assert_refused(g, P("P4", "bid", company=card, price=1), "Private Company Draft", "draft price")
    assert_refused(g, P("P4", "pass"), "Private Company Draft", "only the last company")


def test_draft_payment_at_the_end_and_minor_treasury():
    g = new_game(4, seed=3)
    # pick companies while they come; nobody pays before the draft ends
    picked = {}
    while g.g["round"] == "draft":
        player = acting(g)
        hand = g.b_draft_hand()
        real = [c for c in hand if not c.startswith("Pass")]
        if len(g.g["draft"]["deck"]) == 1 and real:
            act(g, P(player, "bid", company=real[0], price=g.call("draft_price", g._company(real[0]))))
            picked.setdefault(player, []).append(real[0])
            continue
        card = real[0] if real else hand[0]
        price = g.call("draft_price", g._company(card))
        if g.g["round"] == "draft" and len(g.g["draft"]["deck"]) > 1:
            assert g.cash[g.entity("player", player)] == 400
        act(g, P(player, "bid", company=card, price=price))
        if not card.startswith("Pass"):
            picked.setdefault(player, []).append(card)
    assert g.g["round"] == "stock"
    for player, cards in picked.items():
        cost = sum(g.call("draft_cost", g._company(c)) for c in cards)
        assert g.cash[g.entity("player", player)] == 400 - cost
    state = g.state()
    for minor in state["minors"]:
        # a minor starts with its face value ("Starts with $60", 18xx.games g_1846/entities.rb)
        treasury = {"MS": 60, "BIG4": 40}[minor["sym"]]
        assert minor["owner"] is not None and minor["treasury"] == treasury


def test_draft_last_company_discount_then_forced_take():
    g = new_game(3, seed=5)
    # play the draft down to one company left
    while g.g["round"] == "draft" and not g._only_one_left():
        hand = g.b_draft_hand()
        blanks = [c for c in hand if c.startswith("Pass")]
        card = hand[0] if len([c for c in g.g["draft"]["deck"] if not c.startswith("Pass")]) > 1 or not blanks \
            else blanks[0]
        act(g, P(acting(g), "bid", company=card, price=g.call("draft_price", g._company(card))))
    if g.g["round"] != "draft":
        pytest.skip("this seed's draft ended without a single last company")
    last = g._company(g.g["draft"]["deck"][0])
    start = g.call("draft_price", last)
    act(g, P(acting(g), "pass"))
    assert g.call("draft_price", last) == start - 10
    floor = g.call("draft_least_price", last)
    while g.g["round"] == "draft":
        act(g, P(acting(g), "pass"))
    # the player on turn when the price reached its floor took it at that price
    assert g.owner[last.id].kind == "player"
    assert g.g["draft"]["choices"][-1][2] == floor


# ---------------------------------------------------------------- stock round and market


def test_stock_round_only_the_president_sells_before_the_corporation_operates():
    """18xx.games' SELL_AFTER = :p_any_operate (check_sale_timing): the president of a corporation may
    sell its shares at any time, its other holders once it has operated."""
    g = new_game(4)
    take_passes(g)
    par(g, "P1", "GT", 100)
    # a buy ends the turn: nothing else may follow it (sell, then buy)
    assert acting(g) == "P2"
    act(g, P("P2", "buy_shares", shares=["GT_2"], percent=10))
    for p in ("P3", "P4"):
        act(g, P(p, "pass"))
    assert acting(g) == "P1"
    act(g, P("P1", "buy_shares", shares=["GT_1"], percent=10))
    assert acting(g) == "P2"  # still the first stock round, and GT has not operated
    assert_refused(g, P("P2", "sell_shares", shares=["GT_2"], percent=10), "Stock Round", "first stock round")
    act(g, P("P2", "pass"))
    while acting(g) != "P1":
        act(g, P(acting(g), "pass"))
    gt = g.entity("corporation", "GT")
    price = g.call("price", gt)
    act(g, P("P1", "sell_shares", shares=["GT_1"], percent=10))
    assert g.call("price", gt) < price  # the president's sale moves the price left (left_block_pres)


def test_stock_market_treasury_shares_pay_the_corporation_at_market_price():
    g = new_game(4)
    take_passes(g)
    par(g, "P1", "NYC", 80)
    nyc = g.entity("corporation", "NYC")
    assert g.cash[nyc] == 160  # the president's certificate: two shares at par, into the treasury
    assert g.corp["NYC"]["floated"] and g.board.tokens_of("NYC")  # floated at 20%: the home station is placed
    act(g, P("P2", "buy_shares", shares=["NYC_1"], percent=10))
    assert g.cash[nyc] == 240


def test_stock_market_end_of_round_moves_sold_out_right_and_pool_left():
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100), "NYC": ("P2", 100)})
    # test setup (no play reaches this quickly): all of GT with players, some NYC in the market
    for i in range(1, 9):
        g.j.set(g.owner, f"GT_{i}", g.entity("player", "P1" if i < 4 else "P3" if i < 7 else "P4"))
    g.j.set(g.owner, "NYC_1", POOL)
    g.j.set(g.g, "end_reason", "test")  # test setup: end the game instead of starting an OR; only the moves matter
    g._end_stock_round()
    assert g.call("price", g.entity("corporation", "GT")) == 112  # sold out: right one
    assert g.call("price", g.entity("corporation", "NYC")) == 90  # shares in the market: left one


def test_stock_market_only_the_presidents_sale_moves_the_price():
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    # test setup: skip to the second stock round, P2 holding two GT shares bought in the first
    g.j.set(g.owner, "GT_1", g.entity("player", "P2"))
    g.j.set(g.owner, "GT_2", g.entity("player", "P1"))
    g.j.set(g.g, "round", "stock")
    g.state_put("stock_round_number", (), 2)
    g.j.set(g.g, "turn", 1)
    g.j.set(g.corp["GT"], "operated", True)  # (GT has operated: its other holders may sell)
    g._new_turn()
    gt = g.entity("corporation", "GT")
    before = g.call("price", gt)
    act(g, P("P2", "sell_shares", shares=["GT_1"], percent=10))
    assert g.call("price", gt) == before
    act(g, P("P2", "pass"))
    while acting(g) != "P1":
        act(g, P(acting(g), "pass"))
    act(g, P("P1", "sell_shares", shares=["GT_2"], percent=10))
    assert g.call("price", gt) == g.market.price(g.market.left(g.market.par_cell(100)))


def test_stock_round_a_percent_that_is_not_the_certificates_named_is_refused():
    """§"Stock Round" (issue 39; the library's sell_shares): a sale names its certificates and the percent
    they make; P3, holding three GT shares, may not sell one as 20% or two as 10%."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    for cert in ("GT_3", "GT_4", "GT_5"):
        g.j.set(g.owner, cert, g.entity("player", "P3"))   # test setup: the second stock round, P3 with 30%
    g.j.set(g.g, "round", "stock")
    g.state_put("stock_round_number", (), 2)
    g.j.set(g.g, "turn", 2)
    g.j.set(g.corp["GT"], "operated", True)
    g._new_turn()
    assert acting(g) == "P3"
    assert_refused(g, P("P3", "sell_shares", shares=["GT_3"], percent=20), "Stock Round", "never read as another")
    assert_refused(g, P("P3", "sell_shares", shares=["GT_3", "GT_4"], percent=10), "Stock Round",
                   "never read as another")
    act(g, P("P3", "sell_shares", shares=["GT_3", "GT_4"], percent=20))
    assert g.b_percent(g.entity("player", "P3"), g.entity("corporation", "GT")) == 10


def test_stock_round_a_corporations_shares_are_sold_in_one_block_a_turn():
    """sell_in_blocks (18xx.games' MUST_SELL_IN_BLOCKS): after a sale of GT in his turn, P3 sells no more
    GT in that turn; the library's state sold_this_turn, emptied as the next turn starts, says so."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    for cert in ("GT_3", "GT_4", "GT_5"):
        g.j.set(g.owner, cert, g.entity("player", "P3"))   # test setup: the second stock round, P3 with 30%
    g.j.set(g.g, "round", "stock")
    g.state_put("stock_round_number", (), 2)
    g.j.set(g.g, "turn", 2)
    g.j.set(g.corp["GT"], "operated", True)
    g._new_turn()
    p3, gt = g.entity("player", "P3"), g.entity("corporation", "GT")
    act(g, P("P3", "sell_shares", shares=["GT_3"], percent=10))
    assert g.state_has("sold_this_turn", gt) and g._sellable(p3, gt) == []
    assert_refused(g, P("P3", "sell_shares", shares=["GT_4"], percent=10), "Stock Round", "cannot be sold")
    act(g, P("P3", "pass"))
    assert acting(g) == "P4" and not g.state_has("sold_this_turn", gt)
    assert [c.id for c in g._sellable(p3, gt)] == ["GT_5", "GT_4"]


# ---------------------------------------------------------------- operating round


def test_operating_order_minors_first_then_lowest_price_in_the_first_or():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 100), "NYC": ("P2", 60), "BO": ("P3", 80)})
    order = list(g.order_ids())
    assert order[:2] == ["MS", "BIG4"]
    assert order[2:] == ["NYC", "BO", "GT"]


def test_operating_order_later_rounds_highest_price_first():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 100), "NYC": ("P2", 60), "BO": ("P3", 80)})
    g.j.begin()
    g.j.set(g.g, "or", 2)
    g._start_operating_round()
    order = list(g.order_ids())
    g.j.rollback()
    assert order[2:] == ["GT", "BO", "NYC"]


def _dividend_position(price, revenue, seed=2):
    g = new_game(4, seed=seed)
    first_or(g, {"GT": ("P1", price)})
    corporation_to_step(g, "GT", "run_routes") if g.b_trains(g.entity("corporation", "GT")) else None
    # test setup: GT has run for `revenue` and stands at its dividend step
    g.j.set(g.g, "operating", "GT")
    g.j.set(g.g, "step", "dividend")
    g.j.set(g.corp["GT"], "revenue", revenue)
    return g


@pytest.mark.parametrize("price,revenue,kind,spaces", [
    (100, 40, "payout", -1),     # under half the price: left
    (100, 50, "payout", 0),      # half or more, under the price: stays
    (100, 100, "payout", 1),     # at least the price: right one
    (100, 200, "payout", 2),     # twice: right two
    (100, 300, "payout", 2),     # three times, but the price is under $165: two
    (150, 300, "half", 1),       # half pay: the shareholders get 150, the price: right one
    (100, 60, "withhold", -1),   # withhold: nothing paid, left
])
def test_paying_dividends_price_moves_by_multiples(price, revenue, kind, spaces):
    g = _dividend_position(price, revenue)
    col = g.corp["GT"]["cell"][1]
    act(g, C("GT", "dividend", kind=kind))
    assert g.corp["GT"]["cell"][1] == col + spaces


def test_paying_dividends_three_spaces_from_165():
    g = _dividend_position(150, 0)
    # test setup: GT's price moved to $165
    g._place_token(g.entity("corporation", "GT"), (0, 15))
    g.j.set(g.corp["GT"], "revenue", 500)
    act(g, C("GT", "dividend", kind="payout"))
    assert g.corp["GT"]["cell"] == (0, 18)


def test_paying_dividends_half_pay_rounding():
    g = _dividend_position(100, 150)
    gt = g.entity("corporation", "GT")
    treasury = g.cash[gt]
    p1 = g.cash[g.entity("player", "P1")]
    act(g, C("GT", "dividend", kind="half"))
    # the corporation keeps 70 (half rounded down to its ten shares) and its 80% in the treasury
    # earns 80% of the 80 paid out; P1's 20% earns 16
    assert g.cash[g.entity("player", "P1")] - p1 == 16
    assert g.cash[gt] - treasury == 70 + 64


def test_paying_dividends_the_dividend_step_cannot_be_passed():
    g = _dividend_position(100, 60)
    assert "pass" not in {a["type"] for a in g.legal_actions() if a["entity"] == "GT"}
    assert_refused(g, C("GT", "pass"), "Paying Dividends", "cannot be passed")
    act(g, C("GT", "dividend", kind="withhold"))
    assert g.g["operating"] != "GT" or g.g["step"] != "dividend"


def test_paying_dividends_no_run_still_withholds_and_moves_left():
    g = _dividend_position(100, 0)
    col = g.corp["GT"]["cell"][1]
    assert_refused(g, C("GT", "pass"), "Paying Dividends")
    act(g, C("GT", "dividend", kind="withhold"))
    assert g.corp["GT"]["cell"][1] == col - 1


def test_paying_dividends_price_zero_closes_the_corporation():
    g = _dividend_position(100, 0)
    gt = g.entity("corporation", "GT")
    # test setup: GT one space above the closing cell
    g._place_token(gt, (0, 1))
    g.j.set(g.corp["GT"], "revenue", 10)
    act(g, C("GT", "dividend", kind="withhold"))
    assert g.corp["GT"]["closed"]
    assert g.b_percent(g.entity("player", "P1"), gt) == 0
    assert g.g["operating"] != "GT"


def test_issuing_shares_at_one_space_left_and_limit():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 100)})
    # test setup: P2 and P3 each hold a GT share
    g.j.set(g.owner, "GT_1", g.entity("player", "P2"))
    g.j.set(g.owner, "GT_2", g.entity("player", "P3"))
    corporation_to_step(g, "GT", "track_and_token")
    gt = g.entity("corporation", "GT")
    # players hold 4 shares, none in the market: at most 4 may be issued
    assert g.call("issuable", gt) == 4
    assert_refused(g, C("GT", "sell_shares", shares=["GT_3", "GT_4", "GT_5", "GT_6", "GT_7"], percent=50),
                   "Issuing and Redeeming Shares", "no more shares than players hold")
    cash = g.cash[gt]
    act(g, C("GT", "sell_shares", shares=["GT_3", "GT_4"], percent=20))
    assert g.cash[gt] - cash == 2 * 90  # one space left of $100
    assert g.call("pool_percent", gt) == 20 and g.state_has("done_this_turn", "issued_or_redeemed")
    assert g.call("price", gt) == 100  # issuing does not move the price


def test_redeeming_shares_at_one_space_right_and_only_in_its_step():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 100)})
    # test setup: two GT shares in the market
    g.j.set(g.owner, "GT_1", POOL)
    g.j.set(g.owner, "GT_2", POOL)
    corporation_to_step(g, "GT", "track_and_token")
    gt = g.entity("corporation", "GT")
    cash = g.cash[gt]
    act(g, C("GT", "buy_shares", shares=["GT_1"], percent=10))
    assert cash - g.cash[gt] == 112
    assert g.owner["GT_1"] == gt
    assert_refused(g, C("GT", "buy_shares", shares=["GT_2"], percent=10),
                   "Issuing and Redeeming Shares", "once in a turn")


def test_laying_track_two_lays_one_upgrade_and_twenty_dollars_each():
    g = new_game(4, seed=2)
    first_or(g, {"NYC": ("P1", 100)})
    corporation_to_step(g, "NYC", "track_and_token")
    nyc = g.entity("corporation", "NYC")
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
    assert lays
    cash = g.cash[nyc]
    act(g, lays[0])
    assert cash - g.cash[nyc] >= 20
    assert g.g["step"] == "track_and_token" and g.g["lays"] == 1
    # a second lay is allowed; after an upgrade, another upgrade is not
    g.j.set(g.g, "upgraded", True)
    upgrades = [a for a in g._cand_lay_tile(nyc, {}) if g.board.placed[a["hex"]].tile.color != "white"]
    for a in upgrades:
        assert_refused(g, a, "Laying Track", "may not be an upgrade")
        break


def test_buying_trains_either_side_of_a_card():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 150)})
    gt = g.entity("corporation", "GT")
    give(g, "GT", 1000)
    corporation_to_step(g, "GT", "buy_train")
    # test setup: the 2-trains are sold
    for tid, t in g.trains.items():
        if t.name == "2" and g.owner[tid].kind == "depot":
            g.j.set(g.owner, tid, BANK)
    assert_refused(g, C("GT", "buy_train", train="4-0", price=180, variant="3/6"), "Buying Trains", "no side")
    assert_refused(g, C("GT", "buy_train", train="4-0", price=180, variant="3/5"), "Buying Trains", "printed price")
    act(g, C("GT", "buy_train", train="4-0", price=160, variant="3/5"))
    assert g.state()["phase"] == "II"
    assert g._train_dicts(gt)["4-0"]["key"] == "3/5"
    act(g, C("GT", "buy_train", train="4-1", price=180, variant="4"))
    assert g._train_dicts(gt)["4-1"]["key"] == "4"


def test_emergency_money_raising_issue_first_then_president_then_bankruptcy():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 40)})
    gt = g.entity("corporation", "GT")
    # test setup: P2 holds two shares; GT has spent its money
    g.j.set(g.owner, "GT_1", g.entity("player", "P2"))
    g.j.set(g.owner, "GT_2", g.entity("player", "P2"))
    g.transfer(g.cash[gt], gt, BANK)
    corporation_to_step(g, "GT", "buy_train")
    assert g.call("must_buy_train", gt)
    assert_refused(g, C("GT", "pass"), "Buying Trains", "must buy one")
    assert_refused(g, C("GT", "contribute", player="P1", amount=10), "Emergency Money Raising", "first issue")
    assert_refused(g, C("GT", "bankrupt"), "Emergency Money Raising", "first issue")
    # at $30 (the first run moved it) with four shares in players' hands: one share raises $10 (two
    # spaces left), two shares nothing (three spaces left: $0); $80 is out of reach, so all the shares
    # that raise something are issued (18xx.games Game#emergency_issuable_bundles)
    assert g.call("price", gt) == 30
    assert [g.call("emergency_raise", gt, n) for n in (1, 2)] == [10, 0]
    assert_refused(g, C("GT", "sell_shares", shares=["GT_3", "GT_4"], percent=20), "Emergency Money Raising", "none that raise nothing")
    act(g, C("GT", "sell_shares", shares=["GT_3"], percent=10))
    assert g.cash[gt] == 10 and g.call("price", gt) == 20  # the price moves a space left per share issued
    assert_refused(g, C("GT", "contribute", player="P2", amount=10), "Emergency Money Raising", "only the president")
    assert_refused(g, C("GT", "bankrupt"), "Emergency Money Raising", "can pay")
    assert_refused(g, C("GT", "contribute", player="P1", amount=81 - g.cash[gt]), "Emergency Money Raising", "at most")
    act(g, C("GT", "contribute", player="P1", amount=80 - g.cash[gt]))
    act(g, C("GT", "buy_train", train=g._available_train_ids()[0], price=80, variant="2"))
    assert len(g.b_trains(gt)) == 1


def _broke_gt(g, players_shares=()):
    """Test setup: GT (P1 president, parred at $40) and P1 are broke and nothing is left to issue or sell;
    `players_shares` gives other players GT certificates ({cert: player}) before GT's train step."""
    first_or(g, {"GT": ("P1", 40)})
    gt = g.entity("corporation", "GT")
    p1 = g.entity("player", "P1")
    g.transfer(g.cash[gt], gt, BANK)
    g.transfer(g.cash[p1], p1, BANK)
    for i in range(1, 5):
        g.j.set(g.owner, f"GT_{i}", POOL)
    for cert, player in dict(players_shares).items():
        g.j.set(g.owner, cert, g.entity("player", player))
    corporation_to_step(g, "GT", "buy_train")
    assert g.call("president", gt) == p1 and not g.call("can_emergency_sell", p1)
    assert g.call("issuable", gt) == 0
    return gt, p1


def test_bankruptcy_the_player_leaves_and_the_corporation_enters_receivership():
    g = new_game(4, seed=2)
    gt, p1 = _broke_gt(g)
    price = g.call("price", gt)
    act(g, C("GT", "bankrupt"))
    assert not g.finished  # three players are left (all_but_one)
    assert g.state_has("out_of_game", g.entity("player", "P1")) and g.call("players_in_game") == 3
    # his president's certificate went to the market at the price (no sale moved it: he could sell
    # nothing by the usual rules), its 20% paid to him and on to GT, even past the 50% pool cap
    assert g.b_percent(POOL, gt) == 60 and g.b_percent(p1, gt) == 0 and g.cash[p1] == 0
    assert ("pool_cap", "GT") in g.g["sanctioned"]
    assert g.call("in_receivership", gt) and g.call("president", gt) is None
    # in receivership GT cannot pay for the cheapest train ($80) with that money: it buys none, and
    # nobody pays for it; its turn ended
    assert g.cash[gt] == 2 * price < 80 and g.b_trains(gt) == []
    assert g.g["operating"] != "GT"
    # test setup: GT has $100 by its next turn, when the runtime buys it the cheapest train
    give(g, "GT", 100 - g.cash[gt])
    while not g.b_trains(gt):
        assert g.current_entity() != gt  # GT never waits for a decision: the rules play it
        act(g, {"type": "pass", "entity": acting(g), "entity_type": g.current_entity().kind})
    assert [t.name for t in g.b_trains(gt)] == ["2"] and g.cash[gt] == 20


def test_bankruptcy_a_player_holding_20_percent_becomes_president():
    g = new_game(4, seed=2)
    gt, p1 = _broke_gt(g, {"GT_5": "P2", "GT_6": "P2"})
    act(g, C("GT", "bankrupt"))
    p2 = g.entity("player", "P2")
    assert g.call("president", gt) == p2 and not g.call("in_receivership", gt)
    # his two shares went to the market for the president's certificate: the market holds 60% still
    assert g.b_percent(p2, gt) == 20 and g.b_percent(POOL, gt) == 60 and g.call("president_certificate", gt).id == "GT_0"
    assert g.owner["GT_5"] is POOL and g.owner["GT_0"] == p2
    # the new president must buy GT's train
    assert g.g["operating"] == "GT" and g.call("must_buy_train", gt)


def test_receivership_operates_without_a_president_and_ends_when_a_player_holds_20_percent():
    g = new_game(4, seed=2)
    gt, p1 = _broke_gt(g)
    act(g, C("GT", "bankrupt"))
    while g.g["round"] == "operating":
        act(g, {"type": "pass", "entity": acting(g), "entity_type": g.current_entity().kind})
    assert g.g["round"] == "stock" and acting(g) != "P1"
    # in receivership GT ran its train and withheld in the second operating round (the runtime played it)
    assert g.corp["GT"]["operated"]
    # P1 is out: the turn order skips him for the whole round
    seen = set()
    while g.g["round"] == "stock":
        player = acting(g)
        seen.add(player)
        holder = g.entity("player", player)
        if g.b_percent(holder, gt) < 20 and g.call("in_receivership", gt) and g.cash[holder] >= g.call("price", gt):
            before = g.b_percent(holder, gt)
            act(g, P(player, "buy_shares", shares=[g.b_next_certificate(gt, "pool").id], percent=10))
            if before == 10:
                assert g.call("president", gt) == holder and not g.call("in_receivership", gt)
                break
            # 7.13 (as quoted from the rules by the 18xx.games tracker): no selling a company in receivership
            assert g._sellable(holder, gt) == []
        else:
            act(g, P(player, "pass"))
    assert "P1" not in seen
    assert not g.call("in_receivership", gt)


def test_receivership_pool_president_certificate_is_not_sold_directly():
    g = new_game(4, seed=2)
    gt, _p1 = _broke_gt(g)
    act(g, C("GT", "bankrupt"))
    cert = g.b_next_certificate(gt, "pool")
    assert cert is not None and not cert.president


def test_bankruptcy_with_two_players_ends_the_game():
    g = new_game(2, seed=10, cls=TwoPlayer)
    # reach the first operating round of the two-player game with GT parred by its president
    for _ in range(400):
        if g.g["round"] == "stock" and not g.g.get("auction"):
            break
        act(g, g.legal_actions()[0])
    while not any(a["type"] == "par" and a.get("corporation") == "GT" for a in g.legal_actions()):
        act(g, P(acting(g), "pass"))
    president = acting(g)
    par(g, president, "GT", 40)
    all_pass(g)
    gt = g.entity("corporation", "GT")
    player = g.entity("player", president)
    g.transfer(g.cash[gt], gt, BANK)
    g.transfer(g.cash[player], player, BANK)
    for i in range(1, 5):
        g.j.set(g.owner, f"GT_{i}", POOL)
    corporation_to_step(g, "GT", "buy_train")
    act(g, C("GT", "bankrupt"))
    assert g.finished and g.state()["end_reason"] == "bankruptcy"


# ---------------------------------------------------------------- phases and game end


def test_phase_three_closes_privates_and_minors():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 150)})
    give(g, "GT", 2000)
    corporation_to_step(g, "GT", "buy_train")
    # test setup: the 2s and 4s are sold
    for tid, t in g.trains.items():
        if t.name in ("2", "4") and g.owner[tid].kind == "depot":
            g.j.set(g.owner, tid, BANK)
    act(g, C("GT", "buy_train", train="5-0", price=450, variant="4/6"))
    state = g.state()
    assert state["phase"] == "III"
    assert all(p["closed"] for p in state["privates"])
    assert all(m["closed"] and m["treasury"] == 0 and not m["trains"] for m in state["minors"])


def test_game_end_final_train_plays_one_more_set():
    g = new_game(4, seed=2)
    first_or(g, {"GT": ("P1", 150)})
    give(g, "GT", 5000)
    corporation_to_step(g, "GT", "buy_train")
    # test setup: every train but the last 6 is sold, and GT has room for it
    left = [tid for tid in g.train_order if g.owner[tid].kind == "depot"]
    for tid in left[:-1]:
        g.j.set(g.owner, tid, BANK)
    act(g, C("GT", "buy_train", train=left[-1], price=800, variant="6"))
    assert g.g["end_reason"] == "final_train" and g.g["end_after_set"] == g.g["set"] + 1
    end_set = g.g["end_after_set"]
    rng = random.Random(1)
    while not g.finished:
        act(g, rng.choice(g.legal_actions()))
    assert g.g["set"] == end_set or g.state()["end_reason"] != "final_train"


@pytest.mark.parametrize("players,variant", [(3, None), (4, None), (5, None), (2, "Two-Player")])
def test_random_games_end_by_an_1846_end_condition(players, variant):
    cls = TwoPlayer if variant else Game
    for seed in (1, 2):
        g = new_game(players, seed=seed, cls=cls)
        rng = random.Random(seed)
        while not g.finished:
            act(g, rng.choice(g.legal_actions()))
        # an 1846 end, or the rulespec's declared reading of play that can no longer change
        # (random play closes corporations fast: 3 players, seed 1 ends with one nobody can start)
        assert g.state()["end_reason"] in {"bank_broken", "bankruptcy", "all_closed", "final_train", "stalemate"}
        assert set(g.result()) == {f"P{i + 1}" for i in range(players)}


# ---------------------------------------------------------------- private and corporation abilities


def test_corporations_illinois_central_subsidy_at_par():
    g = new_game(4)
    take_passes(g)
    player = acting(g)
    par(g, player, "IC", 60)
    # two shares at $60 paid in, and the bank's subsidy of the par price
    assert g.cash[g.entity("corporation", "IC")] == 2 * 60 + 60


def test_private_companies_michigan_central_blocks_its_hexes_while_a_player_owns_it():
    g = next(g for g in (new_game(5, seed=seed) for seed in range(1, 30)) if not g.closed["MC"])
    take_passes(g)
    # test setup: a player owns the MC, and GT (home B16) stands at its track step
    g.j.set(g.owner, "MC", g.entity("player", "P1"))
    first = acting(g)
    par(g, first, "GT", 100)
    all_pass(g)
    corporation_to_step(g, "GT", "track_and_token")
    blocked = g._blocked_by("B12")
    assert blocked is not None and blocked.id == "MC"
    assert all(a["hex"] not in ("B10", "B12") for a in g.legal_actions() if a["type"] == "lay_tile")
    assert_refused(g, C("GT", "lay_tile", hex="B12", tile="7-0", rotation=0), "Private Companies", "blocked")
    # owned by a corporation, the MC blocks nothing
    g.j.set(g.owner, "MC", g.entity("corporation", "GT"))
    assert g._blocked_by("B12") is None


def test_corporations_illinois_central_lays_yellow_free_in_its_hexes():
    g = new_game(4)
    take_passes(g)
    par(g, acting(g), "IC", 60)
    all_pass(g)
    corporation_to_step(g, "IC", "track_and_token")
    ic = g.entity("corporation", "IC")
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "J4"]
    assert lays
    lay = g.b_check_lay(ic, "J4", lays[0]["tile"].split("-")[0], lays[0]["rotation"])
    # the $20 a lay costs is waived there: only a border crossed is paid
    assert g.b_lay_cost(lay) == lay.cost
    cash = g.cash[ic]
    act(g, lays[0])
    assert cash - g.cash[ic] == lay.cost


def test_private_companies_tunnel_blasting_takes_20_off_mountains():
    g = new_game(4)
    take_passes(g)
    par(g, acting(g), "BO", 100)
    all_pass(g)
    corporation_to_step(g, "BO", "track_and_token")
    bo = g.entity("corporation", "BO")
    mountain = next(h for h, mh in g.board.hexes.items() if mh.terrain == "mountain" and mh.cost == 40)
    # test setup: price a plain lay on a $40 mountain hex for BO, without and with the TBC
    fake = track.Lay(mountain, "7", 0, 40, False)
    assert g.b_lay_cost(fake) == 40
    g.j.set(g.closed, "TBC", False)
    g.j.set(g.owner, "TBC", bo)
    assert g.b_lay_cost(fake) == 20


# ---------------------------------------------------------------- replaying 18xx.games logs


def test_two_player_variant_draft_alternates_from_the_second_seat_until_every_company_is_owned():
    g = new_game(2, seed=4, cls=TwoPlayer)
    companies = [c for c in g.g["draft"]["deck"]]
    assert not [c for c in companies if c.startswith("Pass")]  # no Pass cards
    seen = []
    while g.g["round"] == "draft":
        player = acting(g)
        hand = g.b_draft_hand()
        left = [c for c in g.g["draft"]["deck"]]
        assert sorted(hand) == sorted(left)  # every company left is offered, face up
        if len(left) > 1:
            assert_refused(g, P(player, "pass"), "Two-Player Variant", "only the last company")
        seen.append(player)
        act(g, P(player, "bid", company=hand[0], price=g.call("draft_price", g._company(hand[0]))))
    assert seen == ["P2", "P1"] * (len(seen) // 2) + ["P2"] * (len(seen) % 2)
    assert len(seen) == len(companies)
    assert all(g.owner[c].kind == "player" for c in companies)
    assert g.g["round"] == "stock"  # no operating round between draft turns


def test_two_player_variant_replays_18xx_games_logs_through_the_draft(fixtures_dir):
    """Both two-player logs (first edition) play their draft through: the second seat picks first, the two
    alternate, and the first stock round follows the last pick."""
    import json

    from compiler.app.command import title_for_log
    from compiler.lang.pipeline import load
    from compiler.runtime import sitelog

    logs = sorted((fixtures_dir / "18462pVariant").glob("*.json"))
    if not logs:
        pytest.skip("no 1846 two-player fixtures")
    loaded = load(check=False)
    for path in logs:
        log = json.loads(path.read_text(encoding="utf-8"))
        title = title_for_log(loaded, log)  # the variant, with 18xx.games' reading of 1846 (a site log)
        assert (title.base_variant, title.reading) == ("Two-Player", "18xx.games")
        g = sitelog.game_from_log(game_class("1846", title.variant), log)
        steps = sitelog.processed_actions(log)
        for step in steps:
            if g.g["round"] != "draft":
                break
            g.process(step.action)
        assert g.g["round"] == "stock", path.name  # the draft is over: the first stock round, no operating round
        ids = {p["id"]: p.get("name", p["id"]) for p in log["players"]}
        picks = [s.action for s in steps if s.action["type"] == "bid"]
        assert [a["entity"] for a in picks[:6]] == [ids[log["players"][1]["id"]], ids[log["players"][0]["id"]]] * 3


def _play_to_the_stalemate(g, rng):
    """Random play that leaves the privates' abilities unused (a Steamboat owner passes on assigning),
    until the game ends or nothing is legal."""
    while not g.finished:
        legal = g.legal_actions()
        if not legal:
            return
        act(g, rng.choice([a for a in legal if a.get("entity_type") != "company"]
                          or [a for a in legal if a["type"] == "pass"]))


@functools.cache
def _stalemate_seed() -> int:
    """The first seed whose random play (3 players) closes every corporation but ones nobody can afford
    to start: the play that can no longer change. Searched once per process (both stalemate tests
    run in one xdist group, so on one worker)."""
    for seed in range(1, 40):
        g = new_game(3, seed=seed)
        _play_to_the_stalemate(g, random.Random(seed))
        state = g.state()
        if state["end_reason"] == "stalemate" and all(c["closed"] or c["share_price"] is None
                                                      for c in state["corporations"]):
            return seed
    raise AssertionError("no seed reached play that can no longer change")


@pytest.mark.xdist_group("stalemate")
def test_game_end_play_that_cannot_change_ends_as_a_stalemate(rulespecs_loaded):
    """The stalemate is an assumption of the rulespec (`stalemate_ends_game`), not an 1846 end."""
    seed = _stalemate_seed()
    g = new_game(3, seed=seed)
    _play_to_the_stalemate(g, random.Random(seed))
    # this seed's random play closes every corporation but one nobody can afford to start
    state = g.state()
    assert state["round"]["type"] == "finished"
    assert state["end_reason"] == "stalemate"
    assert all(c["closed"] or c["share_price"] is None for c in state["corporations"])
    assert "property stalemate_ends_game" in assumed_clauses(rulespecs_loaded, "1846")


@pytest.mark.xdist_group("stalemate")
def test_game_end_without_the_stalemate_reading_the_game_stops_at_a_gap(monkeypatch):
    """Without `stalemate_ends_game` the same play stops where it can no longer change, and what is
    refused names the missing reading: the runtime never ends a game the rulespec does not end."""
    seed = _stalemate_seed()
    g = new_game(3, seed=seed)
    monkeypatch.delitem(g.DATA.properties, "stalemate_ends_game")
    _play_to_the_stalemate(g, random.Random(seed))
    assert not g.finished and g.legal_actions() == []
    assert any("stalemate_ends_game" in gap for gap in g.refused_by_gaps())


def test_receivership_no_player_sells_its_shares():
    g = new_game(4, seed=2)
    gt, _p1 = _broke_gt(g, {"GT_7": "P3"})
    act(g, C("GT", "bankrupt"))
    assert g.call("in_receivership", gt)
    while g.g["round"] != "stock" or acting(g) != "P3":
        act(g, {"type": "pass", "entity": acting(g), "entity_type": g.current_entity().kind})
    assert_refused(g, P("P3", "sell_shares", shares=["GT_7"], percent=10), "Stock Round", "cannot be sold")

