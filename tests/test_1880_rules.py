"""1880 Romania, rule by rule: the generated engine against the rulebook.

Each test is named after the rulebook section it checks (`test_vi_4_...` is
VI.4) and plays the engine through `process` with the 18xx.games action
vocabulary; every action a helper plays is followed by the invariant
monitor. Refused actions go through `assert_refused`: `IllegalAction` is
raised, its `.rule` names the section, and nothing in the game changed.

Track, stations and routes on the real map are tested in test_1880_map.py;
positions here are reached by play, and where play would take too long a test
edits the state directly and says so (money then comes from the unlimited
bank's books, so the monitor's conservation check still holds).

The Starting Round (V) has its own tests in test_1880_starting_round.py;
the games here skip it. Rules not built yet (the round track's order and
the other gaps of the rulespec) have no tests here.
"""

from __future__ import annotations


import pytest

from compiler.emit.engines import game_class
from compiler.app.playout import play_one
from compiler.runtime.entities import DEPOT, POOL, SCRAP
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import A, acting, assert_refused, C, P

Game = game_class("1880 Romania")
NAMES = ("Ann", "Bob", "Cid", "Dee")


# ---------------------------------------------------------------- helpers


def new_game(players=NAMES, seed=1):
    """A game at the start of its first stock round, seated as `players` lists them, with Ann holding
    the priority deal. A direct state edit: the Starting Round (V), tested in
    test_1880_starting_round.py, is skipped, so the privates stay unsold and no investor is chosen."""
    g = Game(players=list(players), seed=seed)
    assert g.g["round"] == "auction"
    g.players[:] = [g.find(name) for name in players]
    g.g["priority"] = 0
    g._end_starting_round()
    g._test_monitor = Monitor(g)
    return g


def skip_track(g, sym):
    """The company passes its track and station steps (VII.1) and is at running trains or later."""
    while g.g["round"] == "operating" and acting(g) == sym and g.g["step"] in ("lay_tile", "place_token"):
        g.process({"type": "pass", "entity": sym, "entity_type": "corporation"})


def act(g, action):
    if action.get("entity_type") == "corporation" and action["type"] not in ("pass", "lay_tile", "place_token"):
        skip_track(g, action["entity"])
    g.process(action)
    g._test_monitor.check(g, action)


def cash(g, name):
    return g.cash[g.find(name)]


def pct(g, holder, sym):
    return g.b_percent(g.find(holder), g.entity("corporation", sym))


def price(g, sym):
    cell = g.corp[sym]["cell"]
    return g.market.price(cell) if cell is not None else None


def inject(g, name, amount):
    """A direct state edit: the unlimited bank pays `amount` to a player or company."""
    who = g.find(name)
    g.flow["paid"] += amount
    g.cash[who] += amount


def pass_(g, name=None):
    act(g, A(g, name or acting(g), "pass"))


def to_turn(g, name):
    for _ in range(len(g.players)):
        if acting(g) == name:
            return
        assert g.g["round"] == "stock"
        pass_(g)
    assert acting(g) == name


def par_action(g, name, sym, par, president_percent=20, slot=None):
    """`name` founds `sym` at `par` on row `slot` of the price's four (the topmost empty one by default; 0
    where all four are taken, which the engine refuses)."""
    cell = {70: "70,7,3", 80: "80,5,3", 90: "90,3,3", 100: "100,1,3"}.get(par, f"{par},0,0")
    if slot is None:
        slot = next(iter(g._round_track_slots(par)), 0)
    return P(name, "par", corporation=sym, president_percent=president_percent, share_price=cell, slot=slot)


def buy_action(g, name, sym):
    """A share bought from the company's stack in the bank: its IPO (partial capitalisation, VI.7)."""
    ipo = g.name("initial_offering")
    cert = next(c for c in g.certs_of[sym] if g.owner[c.id] == ipo and not c.president)
    return P(name, "buy_shares", shares=[cert.id], percent=cert.percent)


def sell_action(g, name, sym, n=1):
    who = g.entity("player", name)
    certs = [c for c in g.certs_of[sym] if g.owner[c.id] == who and not c.president][:n]
    assert len(certs) == n
    return P(name, "sell_shares", shares=[c.id for c in certs], percent=sum(c.percent for c in certs))


def choose_rights(g):
    """A founder owes his company's building rights (VI.6, VII.3.2): the first phases, as many as
    the president's certificate gives."""
    pending = g.g.get("state:decisions")
    if pending and pending[0][2] == "choose":
        sym = pending[0][1]
        count = {20: 3, 30: 2, 40: 1}[g.certs_of[sym][0].percent]
        act(g, C(sym, "choose", choice="ABCD"[:count]))


def turn(g, name, *actions):
    to_turn(g, name)
    for a in actions:
        act(g, a)
        choose_rights(g)
    if g.g["round"] == "stock" and acting(g) == name:
        pass_(g, name)


def finish_turn(g, sym):
    """The company passes its remaining steps."""
    while g.g["round"] == "operating" and acting(g) == sym:
        pass_(g, sym)


def end_stock_round(g):
    while g.g["round"] == "stock":
        pass_(g)


def set_phase(g, key):
    """A direct state edit: the game is now in phase `key` (its events do not fire)."""
    g.g["phase"] = key


def first_sr_gwr(g):
    """Ann founds the GWR at 100 in the first stock round; the round ends."""
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    end_stock_round(g)


def train_id(g, name):
    return next(t for t in g.train_order if g.trains[t].name == name and g.owner[t] is DEPOT)


# ---------------------------------------------------------------- VI stock rounds


def test_vi_6_founding_pays_two_times_par_to_the_bank():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    assert cash(g, "Ann") == 480 - 200
    assert pct(g, "Ann", "GWR") == 20
    assert g.flow["received"] == 200


@pytest.mark.parametrize("size,certificates", [(30, 8), (40, 7)])
def test_vi_6_founder_chooses_a_30_or_40_percent_presidents_certificate(size, certificates):
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 80, president_percent=size))
    assert cash(g, "Ann") == 480 - size // 10 * 80
    assert pct(g, "Ann", "GWR") == size
    assert g.state()["players"][0]["certificates"] == 1      # one certificate whatever its size
    assert len(g.certs_of["GWR"]) == certificates
    assert sum(c.percent for c in g.certs_of["GWR"]) == 100


def test_vi_6_no_president_certificate_of_another_size():
    g = new_game()
    assert_refused(g, par_action(g, "Ann", "GWR", 80, president_percent=50), "VI.6")


def test_vi_6_par_prices_are_70_to_100():
    g = new_game()
    assert_refused(g, P("Ann", "par", corporation="GWR", share_price="95,1,2", slot=0, president_percent=20), "VI.6")


def test_vi_6_float_at_20_percent_in_phase_a_and_vi_7_five_times_par():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 90))
    assert g.corp["GWR"]["floated"]
    assert cash(g, "GWR") == 5 * 90


def test_vi_6_float_threshold_rises_with_the_phase():
    g = new_game()
    set_phase(g, "B1")
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    assert not g.corp["GWR"]["floated"]          # phase B: 30% must be sold
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    assert g.corp["GWR"]["floated"]
    assert cash(g, "GWR") == 5 * 100


def test_vi_7_ten_times_par_in_phase_d():
    g = new_game()
    set_phase(g, "D1")
    turn(g, "Ann", par_action(g, "Ann", "GWR", 70))
    for name in ("Bob", "Cid", "Dee", "Ann"):
        turn(g, name, buy_action(g, name, "GWR"))
    assert g.corp["GWR"]["floated"]              # 60% sold
    assert cash(g, "GWR") == 10 * 70


def test_vi_7_second_capitalisation_in_phase_b_once_the_card_shows():
    g = new_game()
    set_phase(g, "B1")
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    assert cash(g, "GWR") == 500
    turn(g, "Cid", buy_action(g, "Cid", "GWR"))
    assert cash(g, "GWR") == 500
    turn(g, "Dee", buy_action(g, "Dee", "GWR"))   # three 10% shares sold: the card shows
    assert cash(g, "GWR") == 1000
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    assert cash(g, "GWR") == 1000                 # paid once


@pytest.mark.parametrize("size,buyers", [(30, ("Bob", "Cid")), (40, ("Bob",))])
def test_vi_7_second_capitalisation_when_half_is_sold_whatever_the_presidents_certificate(size, buyers):
    """VI.7: the second five times par comes once the "100% operating capital" card shows, and that card
    lies under the president's certificate and the shares that make 50% with it (§IV Game Setup): with a
    30% certificate two 10% shares uncover it, with a 40% one a single share (issue 39, case 6: the
    engine counted the president's certificate plus three shares, 50% only for the 20% certificate)."""
    g = new_game()
    set_phase(g, "B1")
    turn(g, "Ann", par_action(g, "Ann", "GWR", 70, president_percent=size))
    *before, last = buyers
    for name in before:
        turn(g, name, buy_action(g, name, "GWR"))
    assert g.corp["GWR"]["floated"] and cash(g, "GWR") == 5 * 70
    turn(g, last, buy_action(g, last, "GWR"))     # 50% out of the stack: the card shows
    assert sum(pct(g, n, "GWR") for n in NAMES) == 50
    assert cash(g, "GWR") == 10 * 70
    turn(g, "Dee", buy_action(g, "Dee", "GWR"))
    assert cash(g, "GWR") == 10 * 70              # paid once


def test_vi_1_only_half_of_a_company_until_phase_b():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    for name in ("Bob", "Cid", "Dee"):
        turn(g, name, buy_action(g, name, "GWR"))
    to_turn(g, "Ann")
    assert pct(g, "Ann", "GWR") + pct(g, "Bob", "GWR") + pct(g, "Cid", "GWR") + pct(g, "Dee", "GWR") == 50
    assert_refused(g, buy_action(g, "Ann", "GWR"), "VI.1")


def test_vi_1_no_share_bought_from_another_player():
    """VI.1: shares are bought from the bank, never from another player; the share named in the action
    is Bob's."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    to_turn(g, "Cid")
    bobs = next(c for c in g.certs_of["GWR"] if g.owner[c.id] == g.entity("player", "Bob"))
    assert_refused(g, P("Cid", "buy_shares", shares=[bobs.id], percent=10), "VI.1", "never trade")


def test_vi_4_no_share_bought_from_a_bank_pool():
    """VI.4: there is no bank pool. A direct state edit puts a GWR share in the pool all the same."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    to_turn(g, "Bob")
    cert = next(c for c in g.certs_of["GWR"] if g.owner[c.id] == g.name("initial_offering"))
    g.owner[cert.id] = POOL
    g._test_monitor = None  # the edit itself breaks pool_cap (no pool at all): nothing for the monitor to watch
    assert_refused(g, P("Bob", "buy_shares", shares=[cert.id], percent=10), "VI.4", "no bank pool")


def test_vi_4_no_selling_in_the_first_stock_round():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    to_turn(g, "Bob")
    assert_refused(g, sell_action(g, "Bob", "GWR"), "VI.4")


def test_vi_4_sale_returns_shares_to_the_bank_less_five_per_share_and_drops_the_price():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    turn(g, "Cid", buy_action(g, "Cid", "GWR"))
    g.state_put("stock_round_number", (), 2)  # a direct state edit: a later stock round
    to_turn(g, "Bob")
    before_price, before_cash = price(g, "GWR"), cash(g, "Bob")
    act(g, sell_action(g, "Bob", "GWR"))
    assert cash(g, "Bob") == before_cash + before_price - 5
    # back on the company's stack in the bank, its IPO (partial capitalisation: the company holds none)
    assert g.b_percent(g.name("initial_offering"), g.entity("corporation", "GWR")) == 70
    assert pct(g, "GWR", "GWR") == 0
    assert g.b_percent(POOL, g.entity("corporation", "GWR")) == 0   # there is no pool
    assert price(g, "GWR") < before_price          # one row down per 10% sold
    assert_refused(g, buy_action(g, "Bob", "GWR"), "VI.5")   # no buy-back in the same round


def test_vi_4_the_presidents_share_is_never_sold():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    g.state_put("stock_round_number", (), 2)
    to_turn(g, "Ann")
    pres = g.certs_of["GWR"][0]
    assert_refused(g, P("Ann", "sell_shares", shares=[pres.id], percent=20), "VI.4")


def test_vi_4_a_percent_that_is_not_the_shares_named_is_refused():
    """VI.4 (issue 39): a sale is of the shares it names; one naming a 10% share and saying 20%, or two and
    saying 10%, is refused, never read as another sale."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    g.state_put("stock_round_number", (), 2)  # a direct state edit: a later stock round, Bob with a second share
    g.move(next(c for c in g.certs_of["GWR"] if g.owner[c.id] == g.name("initial_offering") and not c.president),
           g.name("initial_offering"), g.entity("player", "Bob"))
    to_turn(g, "Bob")
    one, two = (c.id for c in g.certs_of["GWR"] if g.owner[c.id] == g.entity("player", "Bob"))
    assert_refused(g, P("Bob", "sell_shares", shares=[one], percent=20), "VI.4", "never read as another")
    assert_refused(g, P("Bob", "sell_shares", shares=[one, two], percent=10), "VI.4", "never read as another")
    act(g, P("Bob", "sell_shares", shares=[one, two], percent=20))
    assert pct(g, "Bob", "GWR") == 0


def test_viii_4_communist_phase_freezes_prices_and_bars_presidents_from_selling():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    turn(g, "Ann", buy_action(g, "Ann", "GWR"))
    g.state_put("stock_round_number", (), 2)
    set_phase(g, "B2")
    to_turn(g, "Bob")
    before = price(g, "GWR")
    act(g, sell_action(g, "Bob", "GWR"))
    assert price(g, "GWR") == before             # frozen
    assert cash(g, "Bob") == 480 - 100 + 100 - 5  # the fee still applies
    pass_(g, "Bob")
    to_turn(g, "Ann")
    assert_refused(g, sell_action(g, "Ann", "GWR"), "VIII.4")


# ---------------------------------------------------------------- VII operating rounds


def test_vii_3_8_a_company_without_a_train_must_buy_one():
    g = new_game()
    first_sr_gwr(g)
    assert g.g["round"] == "operating" and acting(g) == "GWR"
    skip_track(g, "GWR")
    assert_refused(g, C("GWR", "pass"), "VII.3.8")


def test_vii_3_8_no_trains_between_companies_before_phase_b():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 100))
    end_stock_round(g)
    first = acting(g)
    act(g, C(first, "buy_train", train=train_id(g, "2"), price=100))
    pass_(g, first)
    other = acting(g)
    owned = g.b_trains(g.entity("corporation", first))[0]
    assert_refused(g, C(other, "buy_train", train=owned.id, price=50), "VII.3.8")


def test_vii_3_9_emergency_funding_president_pays_then_borrows_with_interest():
    g = new_game()
    first_sr_gwr(g)
    gwr = g.entity("corporation", "GWR")
    # a direct state edit: the GWR has Ł40 and Ann Ł30, and the 2-trains are gone
    g.flow["received"] += cash(g, "GWR") - 40
    g.cash[gwr] = 40
    ann = g.entity("player", "Ann")
    g.flow["received"] += cash(g, "Ann") - 30
    g.cash[ann] = 30
    for tid in g.train_order:
        if g.trains[tid].name == "2":
            g.owner[tid] = SCRAP
    t = train_id(g, "2+2")
    act(g, C("GWR", "buy_train", train=t, price=180))
    assert cash(g, "GWR") == 0 and cash(g, "Ann") == 0
    assert g.state_amount("debt", g.entity("player", "Ann")) == 110 + 55               # the loan plus 50% interest, rounded down
    assert g.state()["loans"] == {"Ann": 165}
    assert g.player_value(ann) == 0 - 165 + 2 * price(g, "GWR")   # IX.2: debts are deducted


def _in_debt(g, amount):
    """A direct state edit: Ann owes `amount`."""
    g.state_put("debt", (g.entity("player", "Ann"),), amount)


def test_vii_3_9_debt_blocks_buying_and_grows_at_the_end_of_a_stock_round():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    _in_debt(g, 101)
    to_turn(g, "Ann")
    assert_refused(g, par_action(g, "Ann", "VRL", 70), "VII.3.9")
    assert_refused(g, buy_action(g, "Ann", "GWR"), "VII.3.9")
    end_stock_round(g)
    assert g.state_amount("debt", g.entity("player", "Ann")) == 101 + 50


def test_vii_3_9_repaying_a_loan():
    g = new_game()
    _in_debt(g, 100)
    act(g, P("Ann", "payoff_player_debt"))
    assert g.state_amount("debt", g.entity("player", "Ann")) == 0 and cash(g, "Ann") == 380
    act(g, par_action(g, "Ann", "GWR", 100))
    choose_rights(g)
    to_turn(g, "Bob")
    assert_refused(g, P("Bob", "payoff_player_debt"), "VII.3.9")


def test_vii_3_8_last_train_of_a_type_calls_a_stock_round_and_the_round_resumes():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 100))
    end_stock_round(g)
    first = acting(g)
    # a direct state edit: one 2-train is left in the bank
    left = [t for t in g.train_order if g.trains[t].name == "2"]
    for tid in left[:-1]:
        g.owner[tid] = SCRAP
    act(g, C(first, "buy_train", train=left[-1], price=100))
    assert g.g["round"] == "stock"               # at once, in the middle of the turn
    end_stock_round(g)
    assert g.g["round"] == "operating"
    assert acting(g) == first and g.g["step"] == "buy_train"   # the interrupted company buys again
    act(g, C(first, "buy_train", train=train_id(g, "2+2"), price=180))
    assert g.g["phase"] == "A2"
    pass_(g, first)
    assert acting(g) not in (first, None)        # the next company goes on


def test_vii_3_10_export_when_the_marked_company_comes_round_without_buying():
    g = new_game()
    first_sr_gwr(g)
    act(g, C("GWR", "buy_train", train=train_id(g, "2"), price=100))
    pass_(g, "GWR")
    # the next operating round: the GWR (beside the train purchase marker) buys nothing
    assert g.g["round"] == "operating" and acting(g) == "GWR"
    finish_turn(g, "GWR")
    assert not any(g.trains[t].name == "2" and g.owner[t] is DEPOT for t in g.train_order)
    assert g.g["phase"] == "A1"                   # exported 2s: the first 2+2 is not yet bought
    assert g.g["round"] == "stock"               # an export calls a stock round
    end_stock_round(g)
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"   # the exporter may buy the new type
    pass_(g, "GWR")
    assert any(g.trains[t].name == "2+2" and g.owner[t] is DEPOT for t in g.train_order)   # no second export


def test_vii_3_10_exporting_the_first_of_a_type_starts_its_phase():
    g = new_game()
    first_sr_gwr(g)
    act(g, C("GWR", "buy_train", train=train_id(g, "2"), price=100))
    pass_(g, "GWR")
    finish_turn(g, "GWR")                         # 2s exported
    end_stock_round(g)
    pass_(g, "GWR")                               # declines the 2+2 after the stock round
    finish_turn(g, "GWR")                         # its next turn: 2+2s exported without a purchase
    assert g.g["phase"] == "A2"


def test_ix_1_three_more_turns_after_the_last_6e():
    g = new_game()
    first_sr_gwr(g)
    # a direct state edit: every train before the 6E is gone; phase D1
    for tid in g.train_order:
        if g.trains[tid].name in ("2", "2+2", "3", "3+3", "4", "4+4", "6"):
            g.owner[tid] = SCRAP
    g.g["first_bought"] = frozenset({"2", "2+2", "3", "3+3", "4", "4+4", "6"})
    set_phase(g, "D1")
    inject(g, "GWR", 2000)
    act(g, C("GWR", "buy_train", train=train_id(g, "6E"), price=700))
    act(g, C("GWR", "buy_train", train=train_id(g, "6E"), price=700))
    assert g.g["end_reason"] == "last_train"
    assert g.g["round"] == "stock"               # the final stock round
    end_stock_round(g)
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"
    pass_(g, "GWR")                               # the rest of the interrupted turn
    rounds = set()
    while not g.finished:
        assert acting(g) == "GWR"
        rounds.add(g.g["or"])
        pass_(g, "GWR")
    assert len(rounds) == 3                      # three more turns, then the end
    assert g.state()["end_reason"] == "last_train"


def test_iv_unlimited_bank_state():
    g = new_game()
    assert g.state()["bank"]["cash"] is None
    assert sum(1 for t in g.trains.values() if t.name == "8E") == 12 * 4


# ---------------------------------------------------------------- random games


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ix_random_games_end_by_the_last_6e(players):
    names = [f"P{i}" for i in range(players)]
    for seed in (1, 2):
        record = play_one(Game, names, seed)
        assert record["finished"] and record["end_reason"] == "last_train"


def test_ix_1_an_end_set_in_motion_is_played_out_even_when_play_stalls():
    """IX.1: once the last 6E is bought, one final stock round and three more turns end the game. Seed 6
    at four players reaches, after that trigger, a stock round in which nobody acts after rounds that
    moved no money (no company earns, nobody can pay for anything): that is no stalemate, the final
    turns are played and the game ends by the last 6E (it stopped at the stalemate gap before)."""
    record = play_one(Game, [f"Player {i + 1}" for i in range(4)], 6)
    assert record["finished"] and record["end_reason"] == "last_train"


def test_vii_3_9_an_emergency_purchase_takes_the_cheapest_train():
    """A direct state edit: phase B1, a 2-train (Ł100) in the train pool, the 2+2s bought up, the GWR
    without cash or trains; the bank's cheapest is then a 3 (Ł180)."""
    g = new_game()
    first_sr_gwr(g)
    gwr = g.entity("corporation", "GWR")
    g.flow["received"] += cash(g, "GWR")
    g.cash[gwr] = 0
    set_phase(g, "B1")
    pooled = train_id(g, "2")
    for tid in g.train_order:
        if g.trains[tid].name in ("2", "2+2") and g.owner[tid] is DEPOT:
            g.owner[tid] = SCRAP
    g.owner[pooled] = POOL
    skip_track(g, "GWR")
    assert_refused(g, C("GWR", "buy_train", train=train_id(g, "3"), price=180), "VII.3.9")
    act(g, C("GWR", "buy_train", train=pooled, price=100))
    assert [t.id for t in g.b_trains(gwr)] == [pooled]


def test_vii_3_9_emergency_share_sales_before_the_loan():
    """A direct state edit: the 2-trains are gone, the GWR has no cash and Ann Ł30; she holds a VRL share."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 70))
    turn(g, "Cid", buy_action(g, "Cid", "VRL"))
    turn(g, "Ann", buy_action(g, "Ann", "VRL"))
    end_stock_round(g)
    gwr, ann = g.entity("corporation", "GWR"), g.entity("player", "Ann")
    for tid in g.train_order:
        if g.trains[tid].name == "2":
            g.owner[tid] = SCRAP
    g.flow["received"] += cash(g, "GWR") + cash(g, "Ann") - 30
    g.cash[gwr], g.cash[ann] = 0, 30
    skip_track(g, "GWR")
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"
    assert_refused(g, sell_action(g, "Cid", "VRL"), "VI.1")           # not his turn: it is the GWR's
    vrl = price(g, "VRL")
    act(g, sell_action(g, "Ann", "VRL"))                             # market price less Ł5
    assert cash(g, "Ann") == 30 + vrl - 5 and pct(g, "Ann", "VRL") == 0
    act(g, C("GWR", "buy_train", train=train_id(g, "2+2"), price=180))
    short = 180 - (30 + vrl - 5)
    assert cash(g, "Ann") == 0 and g.state_amount("debt", g.entity("player", "Ann")) == short + short // 2


def test_vii_3_5_1_rebuilt_2_trains_from_phase_c2():
    """A direct state edit: phase C2, with the GWR rich enough for two rebuilt 2-trains."""
    g = new_game()
    first_sr_gwr(g)
    skip_track(g, "GWR")
    assert not any(a["type"] == "buy_train" and a["train"].startswith("2R") for a in g.legal_actions())
    set_phase(g, "C2")
    inject(g, "GWR", 1000)
    rebuilt = [a for a in g.legal_actions() if a["type"] == "buy_train" and a["train"].startswith("2R")]
    assert rebuilt and rebuilt[0]["price"] == 250
    marker = g._train_marker_holder()                          # (the library's state train_marker)
    act(g, rebuilt[0])
    assert g._train_marker_holder() == marker                 # the train purchase marker stays
    assert_refused(g, C("GWR", "pass"), "VII.3.8")              # a rebuilt 2-train meets no obligation
    second = next(t for t in g.train_order if g.trains[t].name == "2R" and g.owner[t] is DEPOT)
    assert_refused(g, C("GWR", "buy_train", train=second, price=250), "VII.3.5.1")


def test_vii_3_10_a_company_without_a_train_may_decline_to_export():
    """A direct state edit takes the GWR's 2-train away (as scrapping would) before its next turn."""
    g = new_game()
    first_sr_gwr(g)
    bought = train_id(g, "2")
    act(g, C("GWR", "buy_train", train=bought, price=100))
    pass_(g, "GWR")
    assert acting(g) == "GWR"
    g.owner[bought] = SCRAP
    skip_track(g, "GWR")
    assert g.g["step"] == "buy_train"
    act(g, C("GWR", "pass"))                      # declines although it owns no train: the 2s are exported
    assert g.g["round"] == "stock"
    end_stock_round(g)
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"
    assert_refused(g, C("GWR", "pass"), "VII.3.8")   # now it must buy
    act(g, C("GWR", "buy_train", train=train_id(g, "2+2"), price=180))


# ---------------------------------------------------------------- VI.6 / VII.1 the round track


def test_vi_6_the_founder_puts_the_marker_on_an_empty_row_of_his_choice():
    """Four rows per par price (VI.6), the 100 group on top (assumed: see round_track main); the founder
    places the round marker "on the current space of an empty row" (VI.6; §X "a free row"): any empty
    row of his price, not only the topmost."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 70, slot=2))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 100, slot=3))
    assert {a["slot"] for a in g.legal_actions() if a["type"] == "par" and a["share_price"].startswith("70,")} \
        == {0, 1, 3}                                                 # row 2 of the 70s is GWR's
    assert_refused(g, par_action(g, "Cid", "MR", 70, slot=2), "VI.6", "empty row")
    assert_refused(g, par_action(g, "Cid", "MR", 70, slot=4), "VI.6")   # a price has four rows
    turn(g, "Cid", par_action(g, "Cid", "MR", 70, slot=0))
    turn(g, "Dee", par_action(g, "Dee", "CR", 90, slot=1))
    assert {s: g._track_row(s) for s in ("VRL", "CR", "GWR", "MR")} == \
        {"VRL": 3, "CR": 5, "GWR": 14, "MR": 12}


def test_vi_6_a_par_price_whose_four_rows_are_taken_cannot_be_chosen():
    g = new_game()
    for name, sym in zip(NAMES, ("GWR", "VRL", "MR", "CR")):
        turn(g, name, par_action(g, name, sym, 100))
    to_turn(g, "Ann")
    assert_refused(g, par_action(g, "Ann", "DR", 100), "VI.6", "all four taken")
    act(g, par_action(g, "Ann", "DR", 90))            # another par price still has rows
    assert g._track_row("DR") == 4


def test_vii_1_companies_operate_top_to_bottom_on_the_round_track():
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 70))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 100))
    turn(g, "Cid", par_action(g, "Cid", "MR", 90))
    end_stock_round(g)
    seen = []
    for _ in range(3):
        seen.append(acting(g))
        act(g, C(acting(g), "buy_train", train=train_id(g, "2"), price=100))
        pass_(g)
    assert seen == ["VRL", "MR", "GWR"]
    assert acting(g) == "VRL"                         # the rondel: round again from the top


def test_vii_1_after_an_interruption_the_topmost_waiting_company_goes_on():
    """GWR (row 0) buys the last 2-train (a direct edit leaves one); in the stock round Cid founds the
    MR at 90 (row 4), above the VRL at 70 (row 12) that has not yet acted: after the GWR's
    renewed train step, the MR acts before the VRL."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", par_action(g, "Bob", "VRL", 70))
    end_stock_round(g)
    assert acting(g) == "GWR"
    left = [t for t in g.train_order if g.trains[t].name == "2"]
    for tid in left[:-1]:
        g.owner[tid] = SCRAP
    act(g, C("GWR", "buy_train", train=left[-1], price=100))
    assert g.g["round"] == "stock"
    turn(g, "Cid", par_action(g, "Cid", "MR", 90))
    end_stock_round(g)
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"
    pass_(g, "GWR")
    assert acting(g) == "MR"
    act(g, C("MR", "buy_train", train=train_id(g, "2+2"), price=180))
    pass_(g, "MR")
    assert acting(g) == "VRL"


# ---------------------------------------------------------------- rules easy to miss


def test_ii_4_an_export_triggers_the_first_and_last_train_effects_together():
    """No 2+2 was ever bought: their export is both the first of the type (phase A2 begins) and the last
    (a stock round breaks in), at once."""
    g = new_game()
    first_sr_gwr(g)
    act(g, C("GWR", "buy_train", train=train_id(g, "2"), price=100))
    pass_(g, "GWR")
    finish_turn(g, "GWR")                         # 2s exported
    end_stock_round(g)
    pass_(g, "GWR")                               # declines the 2+2 after the stock round
    assert g.g["phase"] == "A1" and g.g["round"] == "operating"
    finish_turn(g, "GWR")                         # its next turn: the 2+2s leave without a purchase
    assert not any(g.trains[t].name == "2+2" and g.owner[t] is DEPOT for t in g.train_order)
    assert g.g["phase"] == "A2"                   # first-train effect
    assert g.g["round"] == "stock"                # last-train effect


def test_vii_3_6_shares_in_the_bank_earn_no_dividend():
    """A payout of Ł100 pays Ł10 per 10% to players only: the GWR's 80% in the bank's stack earns nothing."""
    g = new_game()
    first_sr_gwr(g)
    gwr = g.entity("corporation", "GWR")
    before_ann, before_gwr = cash(g, "Ann"), cash(g, "GWR")
    g.ROUTINES["pay_dividends"](g, gwr, 100)
    assert cash(g, "Ann") == before_ann + 20
    assert cash(g, "GWR") == before_gwr


def test_vi_8_more_shares_take_the_presidency_a_tie_does_not():
    """Phase B1 by a direct edit, so that more than half of the GWR can be sold."""
    g = new_game()
    set_phase(g, "B1")
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    gwr = g.entity("corporation", "GWR")
    assert pct(g, "Bob", "GWR") == 20 and g.call("president", gwr) == g.find("Ann")      # a tie: no change
    turn(g, "Bob", buy_action(g, "Bob", "GWR"))
    assert g.call("president", gwr) == g.find("Bob")                                      # more: Bob presides
    assert pct(g, "Bob", "GWR") == 30 and pct(g, "Ann", "GWR") == 20
    assert g.certs_of["GWR"][0].id in {c.id for c in g.certs_of["GWR"] if g.owner[c.id] == g.find("Bob")}


def test_vii_3_9_an_emergency_sale_may_not_change_a_presidency():
    """Ann presides the GWR (no train, no cash) and the VRL (40% against Cid's 30%); selling two VRL shares
    would give Cid the VRL, so she may sell only one. Direct edits: phase B1 after the GWR floats,
    the 2 and 2+2 trains gone, the GWR's cash nil."""
    g = new_game()
    turn(g, "Ann", par_action(g, "Ann", "GWR", 100))
    set_phase(g, "B1")
    turn(g, "Ann", par_action(g, "Ann", "VRL", 70))
    for _ in range(2):
        turn(g, "Cid", buy_action(g, "Cid", "VRL"))
        turn(g, "Ann", buy_action(g, "Ann", "VRL"))
    turn(g, "Cid", buy_action(g, "Cid", "VRL"))
    assert pct(g, "Ann", "VRL") == 40 and pct(g, "Cid", "VRL") == 30
    end_stock_round(g)
    gwr = g.entity("corporation", "GWR")
    for tid in g.train_order:
        if g.trains[tid].name in ("2", "2+2") and g.owner[tid] is DEPOT:
            g.owner[tid] = SCRAP
    g.flow["received"] += cash(g, "GWR")
    g.cash[gwr] = 0
    skip_track(g, "GWR")
    assert acting(g) == "GWR" and g.g["step"] == "buy_train"
    assert_refused(g, sell_action(g, "Ann", "VRL", 2), "VII.3.9", "president")
    act(g, sell_action(g, "Ann", "VRL", 1))                 # 30% against 30%: no change
    assert g.call("president", g.entity("corporation", "VRL")) == g.find("Ann")


@pytest.mark.parametrize("phase, needed", [("A1", 20), ("B1", 30), ("C1", 40), ("D1", 60)])
def test_vi_6_float_thresholds_by_phase(phase, needed):
    """VI.6, VII.3.11: a company starts to operate once 20/30/40/60% is sold in phase A/B/C/D, not before.
    The phase is set by a direct edit."""
    g = new_game()
    set_phase(g, phase)
    assert g.call("float_percent", g.entity("corporation", "GWR")) == needed  # (its float_by_phase, by group)
    turn(g, "Ann", par_action(g, "Ann", "GWR", 70))
    sold = 20
    buyers = iter(["Bob", "Cid", "Dee", "Bob"])
    while sold < needed:
        assert not g.corp["GWR"]["floated"], f"floated at {sold}%"
        name = next(buyers)
        turn(g, name, buy_action(g, name, "GWR"))
        sold += 10
    assert g.corp["GWR"]["floated"]
