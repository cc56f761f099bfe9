"""18 Grand Junction's Company Presidents in play: the deck and the abilities.

The rulespec transcribes §"Company Presidents", §"New Presidents in Phase 3",
§"Using the Company Presidents" and each president's section as
`company_president` cards (the title's `ability_cards`); the runtime keeps
which company holds which card and the cubes left on it. Each test plays the
engine through `process`: a president is selected with `select_president`
right after the company is started, a counted power is declared in the
company's operating turn with `use_ability` (which discards its cubes), and
each refusal raises `IllegalAction` naming the president's section (or the
deck's) with the game unchanged (`snapshot`).

The map is a gap in the title; the games here run on the marked, invented
test map `tests/fixtures/18gj_test_map.rules`. Where play would take too long
a test edits the state directly and says so (test setup).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.emit.engines import overlay_game_class
from compiler.runtime.entities import BANK
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, C, overlay_game, P

FIXTURE = Path(__file__).parent / "fixtures" / "18gj_test_map.rules"


# ---------------------------------------------------------------- helpers


def new_game(players=4, seed=1):
    Game = overlay_game("18 Grand Junction", "Two-Player" if players == 2 else None, FIXTURE)
    g = Game(players=[f"P{i + 1}" for i in range(players)], seed=seed)
    g._test_monitor = Monitor(g)
    return g


def select(corp, card, player):
    return P(player, "select_president", corporation=corp, company_president=card)


def use(corp, count=1):
    return C(corp, "use_ability", count=count)


def start(g, corp, price, card):
    """The player on turn starts `corp` at `price` and selects `card` for it; returns the player."""
    player = acting(g)
    cell = g.market.par_cell(price)
    act(g, P(player, "par", corporation=corp, share_price=f"{price},{cell[0]},{cell[1]}"))
    act(g, select(corp, card, player))
    return player


def pass_(g):
    """The entity on turn passes; a company that must buy a train buys the bank's first instead, and a
    president asked for a Company President at the end of an operating round declines."""
    entity = g.current_entity()
    offers = g.g.get("state:card_offers")  # (the title's list state: each offer ("player", P, "corporation", C, required))
    if g.g.get("state:decisions") and offers:
        act(g, select(offers[0][3], "none", entity.id))
        return
    if entity.kind == "corporation" and g.call("must_buy_train", entity):
        train = g.b_available_trains()[0]
        act(g, C(entity.id, "buy_train", train=train.id, price=g.call("bank_price", entity, train)))
        if not g.call("must_buy_train", entity) and g.g["operating"] == entity.id and g.g["step"] == "buy_train":
            act(g, C(entity.id, "pass"))
        return
    act(g, {"type": "pass", "entity": entity.id, "entity_type": entity.kind})


def all_pass(g):
    """Everyone passes until the round changes."""
    kind = g.g["round"]
    while g.g["round"] == kind and not g.finished:
        pass_(g)


def to_step(g, corp, step):
    """Pass the operating companies' steps until `corp` is at `step`."""
    for _ in range(200):
        if g.g["round"] == "operating" and g.g["operating"] == corp and g.g["step"] == step:
            return
        pass_(g)
    raise AssertionError(f"{corp} never reached {step}")


def next_turn(g, corp, step="track_and_token"):
    """Play on (passing) to `corp`'s next operating turn, at `step`."""
    pass_(g)
    to_step(g, corp, step)


def first_or(g, starts):
    """Start the companies ({corp: (price, card)}) in the first stock round, then reach the first OR."""
    for corp, (price, card) in starts.items():
        start(g, corp, price, card)
    all_pass(g)
    assert g.g["round"] == "operating"


def cubes(g, corp):
    return g.state_amount("cubes", g.entity("corporation", corp))  # the library's state


def card(g, corp):
    return g.card_of(g.entity("corporation", corp))


def enter_phase(g, key):
    """Test setup: the phase `key` begins (as the first train of its type would start it)."""
    g._enter_phase(next(p for p in g.phases if p["key"] == key))


# ---------------------------------------------------------------- the deck


def test_company_presidents_selected_by_whoever_starts_the_company():
    g = new_game()
    player = acting(g)
    cell = g.market.par_cell(100)
    act(g, P(player, "par", corporation="DRG", share_price=f"100,{cell[0]},{cell[1]}"))
    # the starting player must select now: every card of the deck is offered, and nothing else
    legal = g.legal_actions()
    assert {a["type"] for a in legal} == {"select_president"}
    assert {a["company_president"] for a in legal} == {c["key"] for c in g.DATA.components_of("company_president")}
    assert len(g.b_deck()) == 18 and g.state_amount("cards_taken") == 0 and not g.call("deck_empty")
    assert_refused(g, select("DRG", "none", player), "Company Presidents", "must take")
    other = next(p.id for p in g.players if p.id != player)
    assert_refused(g, select("DRG", "MEYER", other), "Stock Round", "turn")  # the starting player decides
    act(g, select("DRG", "MEYER", player))
    assert card(g, "DRG") == "MEYER" and cubes(g, "DRG") == 3
    assert "MEYER" not in g.b_deck() and len(g.b_deck()) == 17
    assert g.state_amount("cards_taken") == 1 and not g.call("deck_empty")  # (the title's count of cards taken)
    # the next company cannot take a president already in play
    second = acting(g)
    act(g, P(second, "par", corporation="DSPP", share_price=f"100,{cell[0]},{cell[1]}"))
    assert_refused(g, select("DSPP", "MEYER", second), "Company Presidents", "not left in the deck")
    act(g, select("DSPP", "DELANEY", second))
    assert card(g, "DSPP") == "DELANEY" and cubes(g, "DSPP") == 0


def test_company_presidents_cubes_on_each_gray_square():
    g = new_game()
    uses = {c["key"]: c.get("uses") for c in g.DATA.components_of("company_president")}
    assert uses["MEYER"] == 3 and uses["THOMPSON"] == 2 and uses["SNAPE"] == 2 and uses["DELANEY"] is None
    first_or(g, {"DRG": (100, "SNAPE"), "DSPP": (100, "LANGHORNE")})
    assert cubes(g, "DRG") == 2 and cubes(g, "DSPP") == 0
    assert g.state()["company_presidents"]["DRG"] == {"company_president": "SNAPE", "uses_left": 2}


def test_new_presidents_in_phase_3_removed_from_the_game():
    g = new_game()
    first_or(g, {"DRG": (100, "MEYER"), "DSPP": (100, "PURCELL")})
    # test setup: phase III begins
    enter_phase(g, "III")
    assert card(g, "DRG") is None and card(g, "DSPP") is None
    assert cubes(g, "DRG") == 0
    assert "MEYER" not in g.b_deck() and "PURCELL" not in g.b_deck() and len(g.b_deck()) == 16
    assert g.state_amount("cards_taken") == 2  # the cards out of the game stay taken: the deck does not grow
    g.state_put("cards_taken", (), 18)  # test setup: every card taken
    assert g.call("deck_empty") and len(g.name("all_ability_cards")) == 18


def test_new_presidents_in_phase_3_selected_at_the_end_of_an_operating_round():
    g = new_game()
    first_or(g, {"DRG": (100, "MEYER"), "DSPP": (100, "PURCELL")})
    order = list(g.order_ids())
    enter_phase(g, "III")  # test setup
    # the round plays out; at its end each company without a president may select one, in operating order
    for _ in range(50):
        if g.g.get("state:decisions"):
            break
        pass_(g)
    assert g.g["round"] == "operating" and g.g["operating"] is None
    first = g.call("president", g.entity("corporation", order[0])).id
    offered = {a["company_president"] for a in g.legal_actions() if a["corporation"] == order[0]}
    assert offered == set(g.b_deck()) | {"none"} and "MEYER" not in offered
    assert_refused(g, select(order[0], "MEYER", first), "Company Presidents", "not left in the deck")
    assert_refused(g, select(order[1], "SNAPE", first), "Company Presidents")
    act(g, select(order[0], "none", first))  # a president may decline
    assert card(g, order[0]) is None
    second = g.call("president", g.entity("corporation", order[1])).id
    act(g, select(order[1], "GILLIS", second))
    assert card(g, order[1]) == "GILLIS" and cubes(g, order[1]) == 3
    # the decisions taken, play goes on with the next round
    assert not g.g.get("state:decisions") and g.g["round"] in ("operating", "stock") and not g.finished


# ---------------------------------------------------------------- the abilities


def test_walton_purcell_twenty_from_the_bank_each_operating_round():
    g = new_game()
    start(g, "DRG", 100, "PURCELL")
    start(g, "DSPP", 100, "DELANEY")
    bank = g.cash[BANK]
    all_pass(g)
    assert g.g["round"] == "operating"
    assert g.cash[g.entity("corporation", "DRG")] == 200 + 20
    assert g.cash[g.entity("corporation", "DSPP")] == 200
    assert g.cash[BANK] == bank - 20
    # a lasting power: no cubes, nothing to declare
    to_step(g, "DRG", "track_and_token")
    assert cubes(g, "DRG") == 0
    assert_refused(g, use("DRG"), "Using the Company Presidents", "acts by itself")


def test_homer_cropper_bank_pays_two_shares_at_par_on_start():
    g = new_game()
    start(g, "DRG", 100, "CROPPER")
    assert g.cash[g.entity("corporation", "DRG")] == 200 + 2 * 100
    assert cubes(g, "DRG") == 0  # its one use is spent
    start(g, "DSPP", 40, "DELANEY")
    assert g.cash[g.entity("corporation", "DSPP")] == 80


def test_max_delaney_company_need_not_own_a_train():
    g = new_game()
    first_or(g, {"DRG": (100, "DELANEY"), "DSPP": (100, "MEYER")})
    order = list(g.order_ids())
    for corp in order:
        to_step(g, corp, "buy_train")
        if corp == "DSPP":
            assert_refused(g, C("DSPP", "pass"), "Buying Trains", "must buy one")
            train = g.b_available_trains()[0]
            act(g, C("DSPP", "buy_train", train=train.id, price=train.price))
            pass_(g)
        else:
            act(g, C("DRG", "pass"))  # Delaney: no train needed
            assert not g.b_trains(g.entity("corporation", "DRG"))


def test_orrin_langhorne_player_may_own_up_to_100_percent():
    g = new_game()
    owner = start(g, "DRG", 40, "LANGHORNE")
    rival = start(g, "DSPP", 40, "DELANEY")
    bought = {owner: 20, rival: 20}
    # each buys one share a turn; the others pass
    while bought[owner] < 70 or bought[rival] < 60:
        player = acting(g)
        corp = "DRG" if player == owner else "DSPP"
        if player in bought and bought[player] < (70 if player == owner else 60):
            share = g.b_next_certificate(g.entity("corporation", corp), "treasury")
            act(g, P(player, "buy_shares", shares=[share.id], percent=10))
            bought[player] += 10
        else:
            pass_(g)
    assert g.b_percent(g.entity("player", owner), g.entity("corporation", "DRG")) == 70  # past the 60% cap
    while acting(g) != rival:
        pass_(g)
    share = g.b_next_certificate(g.entity("corporation", "DSPP"), "treasury")
    assert_refused(g, P(rival, "buy_shares", shares=[share.id], percent=10), "Stock Round", "holding cap")


def test_orrin_langhorne_never_obliged_to_sell_down_when_he_leaves():
    g = new_game()
    owner = start(g, "DRG", 40, "LANGHORNE")
    # test setup: the owner holds 70% of DRG (the bank is paid)
    for share in [c for c in g.certs_of["DRG"] if not c.president][:5]:
        g.transfer(40, g.entity("player", owner), g.entity("corporation", "DRG"))
        g.j.set(g.owner, share.id, g.entity("player", owner))
    enter_phase(g, "III")  # test setup
    assert card(g, "DRG") is None
    assert ("holding_cap", owner) in g.g["sanctioned"]
    g._test_monitor.check(g)  # the excess is allowed, not a broken invariant


def at_a_paying_run(seed=1):
    """Seeded random play up to a company's run_routes step whose best run earns something: the game, the
    company and its best routes."""
    import random

    g = new_game(seed=seed)
    rng = random.Random(seed)
    while not g.finished:
        if g.g["round"] == "operating" and g.g["step"] == "run_routes":
            runs = [a for a in g.legal_actions() if a["type"] == "run_routes" and a["routes"]]
            if runs:
                # the routes as a player declares them (no stated revenue: the cards these tests give change it)
                return g, g.g["operating"], [{k: v for k, v in r.items() if k != "revenue"} for r in runs[0]["routes"]]
        act(g, rng.choice(g.legal_actions()))
    raise AssertionError("no paying run")


def give_card(g, corp, key):
    """Test setup: `corp` holds the Company President `key` (taken from the deck or another company), its cubes full."""
    for holder, k in g.g.get("cards", {}).items():
        if k == key and holder != corp:
            g.state_put("cubes", (holder,), 0)  # (the library's state: the cubes go with the card)
    cards = {c: k for c, k in g.g.get("cards", {}).items() if k != key}
    cards[corp] = key
    g.j.set(g.g, "cards", cards)
    uses = g.DATA.component("company_president", key).get("uses")
    g.state_put("cubes", (corp,), int(uses or 0))


def test_abel_jephcots_ten_per_stop_on_a_real_run():
    g, corp, routes = at_a_paying_run()
    c = g.entity("corporation", corp)
    if g.card_of(c) is not None and g._power(c, "stop_bonus") is None:
        g.j.set(g.g, "cards", {k: v for k, v in g.g["cards"].items() if k != corp})  # test setup: no card
    base = g.b_route_revenue(c, routes)
    give_card(g, corp, "JEPHCOTS")
    stops = max(len(r["hexes"]) for r in routes)
    assert g.b_route_revenue(c, routes) == base + 10 * stops
    # a route that states its revenue must earn that: the rules' count, with the card
    stale = [dict(r, revenue=base) for r in routes[:1]] + routes[1:]
    if len(routes) == 1:
        assert_refused(g, C(corp, "run_routes", routes=stale), None, "by the rules they earn")
    act(g, C(corp, "run_routes", routes=routes))
    assert g.corp[corp]["revenue"] == base + 10 * stops


def test_abel_jephcots_ten_per_stop_on_one_train():
    g = new_game()
    first_or(g, {"DRG": (100, "JEPHCOTS"), "DSPP": (100, "DELANEY")})
    assert g._route_extras(g.entity("corporation", "DRG")).per_stop == 10
    assert g._route_extras(g.entity("corporation", "DSPP")).per_stop == 0
    assert cubes(g, "DRG") == 0


def test_the_librarys_spend_cubes_takes_cubes_off_the_card_and_no_more():
    """The library's procedure spend_cubes over its state cubes: n cubes come off the company's card;
    refused (the game unchanged) without a card, for none, or for more than are left."""
    g = new_game()
    drg = g.entity("corporation", "DRG")
    with pytest.raises(IllegalAction, match="no ability card"):
        g.call("spend_cubes", drg, 1)
    give_card(g, "DRG", "MEYER")
    assert cubes(g, "DRG") == 3
    for n in (0, 4):
        with pytest.raises(IllegalAction, match="not that many uses left"):
            g.call("spend_cubes", drg, n)
        assert cubes(g, "DRG") == 3
    g.call("spend_cubes", drg, 2)
    assert cubes(g, "DRG") == 1
    with pytest.raises(IllegalAction, match="not that many uses left"):
        g.call("spend_cubes", drg, 2)
    g.call("spend_cubes", drg, 1)
    assert cubes(g, "DRG") == 0 and card(g, "DRG") == "MEYER"
    # the cards leave the game with their cubes
    give_card(g, "DRG", "SNAPE")
    assert cubes(g, "DRG") > 0
    g.call("discard_cards")
    assert card(g, "DRG") is None and cubes(g, "DRG") == 0


def test_adolphus_meyer_discount_stacks_and_spends_uses():
    g = new_game()
    first_or(g, {"DRG": (100, "MEYER"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "buy_train")
    drg = g.entity("corporation", "DRG")
    train = g.b_available_trains()[0]
    assert train.price == 80
    act(g, use("DRG", 2))  # 20% off the next train from the bank
    assert cubes(g, "DRG") == 1
    assert {a["price"] for a in g.legal_actions() if a["type"] == "buy_train" and a["train"] == train.id} == {64}
    assert_refused(g, C("DRG", "buy_train", train=train.id, price=80), "Adolphus Meyer", "Meyer discount")
    # no second declaration while one waits to be spent
    assert_refused(g, use("DRG", 1), "Using the Company Presidents", "not spent yet")
    cash = g.cash[drg]
    act(g, C("DRG", "buy_train", train=train.id, price=64))
    assert g.cash[drg] == cash - 64
    # the discount went on that one train; the next costs the printed price
    nxt = g.b_available_trains()[0]
    assert_refused(g, C("DRG", "buy_train", train=nxt.id, price=64), "Adolphus Meyer")
    next_turn(g, "DRG")
    assert_refused(g, use("DRG", 2), "Using the Company Presidents", "fewer uses left")
    act(g, use("DRG", 1))
    assert cubes(g, "DRG") == 0
    next_turn(g, "DRG")
    assert_refused(g, use("DRG", 1), "Using the Company Presidents", "fewer uses left")


def test_arvid_bollen_price_does_not_fall_in_the_operating_round():
    g = new_game()
    first_or(g, {"DRG": (100, "BOLLEN"), "DSPP": (100, "DELANEY")})
    price = {c: g.call("price", g.entity("corporation", c)) for c in ("DRG", "DSPP")}
    to_step(g, "DRG", "track_and_token")
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 2
    # no train: the company earns nothing and withholds; the price would move left
    to_step(g, "DRG", "buy_train")
    assert g.call("price", g.entity("corporation", "DRG")) == price["DRG"]
    to_step(g, "DSPP", "buy_train")
    assert g.call("price", g.entity("corporation", "DSPP")) < price["DSPP"]


def test_logan_maynard_one_extra_tile_lay():
    g = new_game()
    first_or(g, {"DRG": (100, "MAYNARD"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    normal = len(g._lay_slots())
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 2
    assert len(g._lay_slots()) == normal + 1
    # the extra slot is used by laying: three lays where two were allowed
    for _ in range(normal + 1):
        lays = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
        assert lays
        act(g, lays[0])
    assert g.g["lays"] == normal + 1


def test_orville_gillis_ignores_terrain_cost():
    g = new_game()
    first_or(g, {"DRG": (100, "GILLIS"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    drg = g.entity("corporation", "DRG")
    # a first tile on the home city, pointing into the mountain D10 ($40)
    for lay in [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D8"]:
        g.j.begin()
        try:
            g.process(lay)
            into = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D10"]
        finally:
            g.j.rollback()
        if into:
            act(g, lay)
            break
    else:
        raise AssertionError("no home tile points into D10")
    mountain = into[0]
    tile = mountain["tile"].rsplit("-", 1)[0]
    checked = g.b_check_lay(drg, "D10", tile, mountain["rotation"])
    assert g.b_lay_cost(checked) == 40
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 2
    assert g.b_lay_cost(g.b_check_lay(drg, "D10", tile, mountain["rotation"])) == 20
    act(g, mountain)
    assert not g._armed(drg, "no_terrain_cost")  # one lay per use


def test_rufus_snape_free_station_token():
    g = new_game()
    first_or(g, {"DRG": (100, "SNAPE"), "DSPP": (100, "DELANEY")})
    drg = g.entity("corporation", "DRG")
    build_to(g, "B8")
    assert g.call("next_token_cost", drg) == 40
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 1
    cash = g.cash[drg]
    act(g, C("DRG", "place_token", city="B8-0"))
    assert g.cash[drg] == cash  # no cost
    assert ("B8", 0) in g.board.tokens_of("DRG")
    assert not g._armed(drg, "free_token")  # one token per use
    next_turn(g, "DRG")
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 0
    next_turn(g, "DRG")
    assert_refused(g, use("DRG"), "Using the Company Presidents", "fewer uses left")


def test_hugo_weddell_trains_score_one_more_stop_for_one_run():
    g = new_game()
    first_or(g, {"DRG": (100, "WEDDELL"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "buy_train")
    train = g.b_available_trains()[0]
    act(g, C("DRG", "buy_train", train=train.id, price=train.price))
    next_turn(g, "DRG")
    drg = g.entity("corporation", "DRG")
    assert g._train_dicts(drg)[train.id]["distance"] == 2
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 2
    assert g._train_dicts(drg)[train.id]["distance"] == 3  # a 2 runs as a 3
    to_step(g, "DRG", "run_routes")
    run = next(a for a in g.legal_actions() if a["type"] == "run_routes")
    act(g, run)
    # for one run: the train has run (it runs once in an operating round) and the card is spent
    assert train.id not in g._train_dicts(drg) and not g._armed(drg, "longer_trains")


def test_hugo_weddell_a_4_6_runs_as_a_5_6():
    g = new_game()
    four_six = g.DATA.component("train", "4/6")["distance"]
    longer = g._one_more_stop(four_six)
    assert [(p["pay"], p["visit"]) for p in longer] == [(5, 6)]
    assert g._one_more_stop(2) == 3


def test_neville_tinning_issues_and_redeems_at_the_market_price():
    g = new_game()
    first_or(g, {"DRG": (100, "TINNING"), "DSPP": (100, "DELANEY")})
    for corp, paid in (("DRG", 100), ("DSPP", 90)):  # Tinning: the price; otherwise one space left
        to_step(g, corp, "track_and_token")
        c = g.entity("corporation", corp)
        share = g.call("treasury_certificates", c)[0]
        cash = g.cash[c]
        act(g, C(corp, "sell_shares", shares=[share.id], percent=10))
        assert g.cash[c] == cash + paid
    next_turn(g, "DRG")
    drg = g.entity("corporation", "DRG")
    price, cash = g.call("price", drg), g.cash[drg]
    share = g.call("pool_certificates", drg)[0]
    act(g, C("DRG", "buy_shares", shares=[share.id], percent=10))
    assert g.cash[drg] == cash - price  # redeemed at the price, not one space right
    assert cubes(g, "DRG") == 0  # a lasting power, no cubes


def test_lemuel_morrissey_plus_20_token_on_a_city():
    g = new_game()
    first_or(g, {"DRG": (100, "MORRISSEY"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    drg = g.entity("corporation", "DRG")
    assign = {"type": "assign", "entity": "DRG", "entity_type": "corporation", "target_type": "hex"}
    targets = {a["target"] for a in g.legal_actions() if a["type"] == "assign"}
    assert "C11" in targets and "C9" not in targets  # cities only
    assert_refused(g, {**assign, "target": "C9"}, "Lemuel Morrissey", "goes on a city")
    act(g, {**assign, "target": "C11"})
    assert cubes(g, "DRG") == 0
    assert ("MORRISSEY", "C11", "DRG", 20) in g.b_markers()
    bonuses = g._route_extras(drg).bonuses
    assert any(b.first == (("C11", 20),) for b in bonuses)  # each run stopping there: +$20
    assert_refused(g, {**assign, "target": "D12"}, "Lemuel Morrissey", "0 use(s) left")
    # another corporation's markers leave the map (none), DRG's card's stay; phase 4 removes them all (§"The
    # Tile Set", the library's remove_markers(): place_marker(C, none) of each corporation, its cards' markers)
    g.call("place_marker", g.entity("corporation", "DSPP"), None)
    assert ("MORRISSEY", "C11", "DRG", 20) in g.b_markers()
    g.call("remove_markers")
    assert not g.b_markers()
    g.j.set(g.g, "markers", (("MORRISSEY", "C11", "DRG", 20),))  # test setup: the token back on the map
    # the token leaves the game with the president
    enter_phase(g, "III")  # test setup
    assert not g.b_markers()


def test_elias_bluit_upgrades_early_to_the_next_colour():
    g = new_game()
    first_or(g, {"DRG": (100, "BLUIT"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    drg = g.entity("corporation", "DRG")
    home = next(a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D8")
    act(g, home)  # the yellow home tile
    next_turn(g, "DRG")
    assert g.g["phase"] == "I"
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D8"]  # no green in phase I
    act(g, use("DRG"))
    assert cubes(g, "DRG") == 2
    green = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D8"]
    assert green
    act(g, green[0])
    assert g.call("tile_color", "D8") == "green"
    assert not g._armed(drg, "early_upgrade")  # one upgrade per use
    assert "green" not in g._phase_colors()


def test_corbett_thompson_chooses_when_the_company_operates():
    g = new_game()
    for corp, (price, name) in {"DRG": (100, "THOMPSON"), "DSPP": (50, "DELANEY"), "CNW": (80, "PURCELL")}.items():
        start(g, corp, price, name)
    all_pass(g)
    # the operating round waits for Thompson's president before anyone operates
    assert g.g["round"] == "operating" and g.g["operating"] is None
    boss = g.call("president", g.entity("corporation", "DRG")).id
    assert acting(g) == boss
    assert list(g.order_ids())[-1] == "DRG"  # lowest price first in the first round
    turn = lambda corp, n: P(boss, "choose_turn", corporation=corp, position=n)  # noqa: E731
    assert {a["position"] for a in g.legal_actions() if a["corporation"] == "DRG"} == {0, 1, 2, 3}
    assert_refused(g, turn("DRG", 4), "Corbett Thompson", "1st to the last")
    assert_refused(g, turn("DSPP", 1), "Corbett Thompson")
    act(g, turn("DRG", 1))
    assert cubes(g, "DRG") == 1
    assert list(g.order_ids())[0] == "DRG" and g.g["operating"] == "DRG"
    # next round: asked again; declining keeps the cube
    for _ in range(200):
        if g.g.get("state:decisions") and acting(g) == boss and g.g["operating"] is None and g.g["round"] == "operating":
            break
        pass_(g)
    act(g, turn("DRG", 0))
    assert cubes(g, "DRG") == 1
    for _ in range(200):
        if g.g.get("state:decisions") and acting(g) == boss and g.g["operating"] is None and g.g["round"] == "operating":
            break
        pass_(g)
    act(g, turn("DRG", 2))
    assert cubes(g, "DRG") == 0 and list(g.order_ids())[1] == "DRG"
    # spent out: no longer asked
    start_ors = g.g["or"], g.g["set"]
    for _ in range(300):
        if (g.g["or"], g.g["set"]) != start_ors and g.g["round"] == "operating" and g.g["operating"] is not None:
            break
        assert not (g.g.get("state:decisions") and g.g["state:decisions"][0][2] == "choose_turn")
        pass_(g)
    else:
        raise AssertionError("no later operating round")


def test_abraham_donaldson_tops_up_revenue_in_10_steps_to_a_triple_jump():
    g = new_game()
    first_or(g, {"DRG": (100, "DONALDSON"), "DSPP": (100, "DELANEY")})
    drg = g.entity("corporation", "DRG")
    # no train, nothing earned: the company still stops at its dividend, where it may top up
    to_step(g, "DRG", "dividend")
    assert g.corp["DRG"]["revenue"] == 0
    top = lambda n: C("DRG", "top_up_revenue", amount=n)  # noqa: E731
    assert_refused(g, top(15), "Abraham Donaldson", "$10 steps")
    assert_refused(g, top(310), "Abraham Donaldson", "triple jump")
    assert_refused(g, top(300), "Abraham Donaldson", "cannot pay")  # $200 in the treasury
    g.transfer(100, BANK, drg)  # test setup: the bank gives DRG $100
    cash = g.cash[drg]
    act(g, top(300))
    assert cubes(g, "DRG") == 2 and g.cash[drg] == cash - 300 and g.corp["DRG"]["revenue"] == 300
    assert_refused(g, top(10), "Abraham Donaldson", "one top-up a turn")
    act(g, C("DRG", "dividend", kind="payout"))
    # three times the price: a triple jump, though the price is under $165
    assert g.call("price", drg) == 137
    for left in (1, 0):
        next_turn(g, "DRG", "dividend")
        act(g, top(10))
        assert cubes(g, "DRG") == left
        act(g, C("DRG", "dividend", kind="withhold"))
    # spent out: with something earned the company reaches its dividend, and the top-up is refused
    next_turn(g, "DRG", "run_routes")
    g.call("set_revenue", drg, 50)  # test setup: its trains earned $50
    g._next_step()
    assert g.g["step"] == "dividend"
    assert_refused(g, top(10), "Abraham Donaldson", "no use left on the card")


def lays_into(g, hex_id, then):
    """The lay_tile actions in `hex_id` now after which some lay in `then` is legal (tried and rolled back)."""
    out = []
    for lay in [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == hex_id]:
        g.j.begin()
        try:
            g.process(lay)
            ok = any(a["type"] == "lay_tile" and a["hex"] == then for a in g.legal_actions())
        finally:
            g.j.rollback()
        if ok:
            out.append(lay)
    return out


def build_to(g, city="C11", corp="DRG"):
    """`corp` (home D8) builds through C9 into the city hex `city` (Gamma C11, Theta B8) over its next two
    turns; it is left at its track step with the city reached and its lay of the turn made."""
    to_step(g, corp, "track_and_token")
    act(g, lays_into(g, "D8", "C9")[0])
    into_c11 = []
    for lay in [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "C9"]:
        g.j.begin()
        try:
            g.process(lay)
            next_turn(g, corp)
            into_c11 = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == city]
        finally:
            g.j.rollback()
        if into_c11:
            act(g, lay)
            break
    assert into_c11
    next_turn(g, corp)
    act(g, into_c11[0])


def test_brice_melville_station_beside_a_full_city():
    g = new_game()
    first_or(g, {"DRG": (100, "MELVILLE"), "CC": (100, "DELANEY")})
    # DRG builds from its home D8 through C9 into Gamma (C11), whose one circle holds CC's home station
    build_to(g, "C11")
    assert g.board.holders(("C11", 0)) == ("CC",)
    token = C("DRG", "place_token", city="C11-0")
    assert token in [{k: a[k] for k in token} for a in g.legal_actions() if a["type"] == "place_token"]
    act(g, token)
    assert g.board.holders(("C11", 0)) == ("CC", "DRG")  # beside CC's circle
    assert cubes(g, "DRG") == 0  # a lasting power
    assert ("C11", 0) in g.board.tokens_of("DRG")


def test_brice_melville_not_in_grand_junction(tmp_path):
    g = new_game()
    melville = g.DATA.component("company_president", "MELVILLE")["children"][0]
    assert melville["excluded_city"] == "Grand Junction"
    # on a copy of the test map whose city Gamma (C11) is named Grand Junction
    text = FIXTURE.read_text(encoding="utf-8").replace('hex C11 "Gamma"', 'hex C11 "Grand Junction"')
    renamed = tmp_path / "gj_named.rules"
    renamed.write_text(text, encoding="utf-8")
    Named = overlay_game_class("18 Grand Junction", None, renamed)
    g = Named(players=["P1", "P2", "P3", "P4"], seed=1)
    g._test_monitor = Monitor(g)
    first_or(g, {"DRG": (100, "MELVILLE"), "CC": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    drg = g.entity("corporation", "DRG")
    # test setup: DRG can reach Gamma's full city (its route is the previous test's)
    import compiler.runtime.track as tr
    real_reach = tr.reach
    try:
        tr.reach = lambda board, company: type("R", (), {"nodes": {("C11", 0)}})()
        with pytest.raises(IllegalAction) as info:
            g.b_check_token(drg, "C11-0")
    finally:
        tr.reach = real_reach
    assert "Brice Melville" in info.value.rule and "Grand Junction" in str(info.value)


def test_adolphus_meyer_discount_in_the_two_player_game_too():
    # the Two-Player rules replace the train purchase (another company's last train); Meyer still applies
    g = new_game(players=2)
    first_or(g, {"DRG": (100, "MEYER"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "buy_train")
    train = g.b_available_trains()[0]
    act(g, use("DRG", 3))
    assert cubes(g, "DRG") == 0
    act(g, C("DRG", "buy_train", train=train.id, price=train.price * 70 // 100))
    assert train in g.b_trains(g.entity("corporation", "DRG"))


# ---------------------------------------------------------------- Cleveland Graham


def _to_pool(g, corp, n):
    """Test setup: `n` of `corp`'s treasury shares go to the open market (no money moves)."""
    from compiler.runtime.entities import POOL

    c = g.entity("corporation", corp)
    certs = g.call("treasury_certificates", c)[:n]
    for cert in certs:
        g.j.set(g.owner, cert.id, POOL)
    return certs


def test_cleveland_graham_buys_other_companies_shares_from_the_open_market():
    g = new_game()
    first_or(g, {"DRG": (100, "GRAHAM"), "DSPP": (90, "DELANEY")})
    assert len(g.b_deck()) == 16 and "GRAHAM" not in g.b_deck()
    drg, dspp = g.entity("corporation", "DRG"), g.entity("corporation", "DSPP")
    pooled = _to_pool(g, "DSPP", 3) + _to_pool(g, "DRG", 1)
    # DSPP (Delaney) operates first, at the lower price: without Graham it buys no other company's share
    to_step(g, "DSPP", "track_and_token")
    drg_share = g.call("pool_certificates", drg)[0]
    assert_refused(g, C("DSPP", "buy_shares", shares=[drg_share.id], percent=10), "Cleveland Graham",
                   "only a company with Cleveland Graham")
    to_step(g, "DRG", "track_and_token")
    offered = {tuple(a["shares"]) for a in g.legal_actions() if a["type"] == "buy_shares"}
    assert (pooled[0].id,) in offered
    # only from the open market: a share in DSPP's treasury is not for sale to DRG
    in_treasury = g.call("treasury_certificates", dspp)[0]
    assert_refused(g, C("DRG", "buy_shares", shares=[in_treasury.id], percent=10), "Cleveland Graham",
                   "from the open market")
    # never another company's president's certificate (test setup: DSPP's lies in the open market)
    from compiler.runtime.entities import POOL

    pres = g.call("president_certificate", dspp)
    holder = g.owner[pres.id]
    g.j.set(g.owner, pres.id, POOL)
    assert_refused(g, C("DRG", "buy_shares", shares=[pres.id], percent=20), "Cleveland Graham",
                   "president's certificate")
    g.j.set(g.owner, pres.id, holder)
    cash, price = g.cash[drg], g.call("price", dspp)
    act(g, C("DRG", "buy_shares", shares=[pooled[0].id, pooled[1].id], percent=20))
    assert g.cash[drg] == cash - 2 * price and g.b_percent(drg, dspp) == 20
    assert g.state()["corporations"][[c["sym"] for c in g.state()["corporations"]].index("DRG")]["shares"] == {"DSPP": 20}
    # once in a turn, by the redemption's rules
    assert_refused(g, C("DRG", "buy_shares", shares=[pooled[2].id], percent=10), "Issuing and Redeeming Shares",
                   "once in a turn")
    # never the president of another company, however much it holds
    assert g.call("president", dspp).kind == "player"
    # the shares it holds are not players' shares for DSPP's issue limit
    players = sum(g.b_percent(p, dspp) for p in g.players) // 10
    assert g.call("player_shares", dspp) == players
    # DSPP's dividends on them go to DRG's treasury
    cash = g.cash[drg]
    g.call("pay_dividends", dspp, 100)
    assert g.cash[drg] == cash + 20


def test_cleveland_graham_issues_held_shares_at_the_market_price_with_no_price_move():
    from compiler.runtime.entities import POOL

    g = new_game()
    first_or(g, {"DRG": (100, "GRAHAM"), "DSPP": (90, "DELANEY")})
    drg, dspp = g.entity("corporation", "DRG"), g.entity("corporation", "DSPP")
    pooled = _to_pool(g, "DSPP", 3)
    g.transfer(200, BANK, drg)  # test setup: DRG can pay for the shares and still for a train
    to_step(g, "DRG", "track_and_token")
    act(g, C("DRG", "buy_shares", shares=[pooled[0].id, pooled[1].id], percent=20))
    # next turn: DRG issues one of them to the open market at DSPP's price; neither price moves
    next_turn(g, "DRG")
    cells = (g.corp["DRG"]["cell"], g.corp["DSPP"]["cell"])
    cash, price = g.cash[drg], g.call("price", dspp)
    act(g, C("DRG", "sell_shares", shares=[pooled[0].id], percent=10))
    assert g.cash[drg] == cash + price and g.owner[pooled[0].id] is POOL
    assert g.b_percent(drg, dspp) == 10
    assert (g.corp["DRG"]["cell"], g.corp["DSPP"]["cell"]) == cells


def test_cleveland_graham_held_shares_go_to_the_open_market_when_the_company_closes():
    from compiler.runtime.entities import POOL

    g = new_game()
    first_or(g, {"DRG": (100, "GRAHAM"), "DSPP": (90, "DELANEY")})
    pooled = _to_pool(g, "DSPP", 1)
    to_step(g, "DRG", "track_and_token")
    act(g, C("DRG", "buy_shares", shares=[pooled[0].id], percent=10))
    g._close_corporation(g.entity("corporation", "DRG"))  # test setup: DRG's price reaches the closing cell
    assert g.owner[pooled[0].id] is POOL
    assert g.b_percent(g.entity("corporation", "DRG"), g.entity("corporation", "DSPP")) == 0


def test_company_presidents_the_deck_has_all_eighteen_with_their_abilities():
    g = new_game()
    cards = g.DATA.components_of("company_president")
    assert len(cards) == 18
    for card_ in cards:
        abilities = [a for a in card_.get("children") or () if a.get("kind") == "ability"]
        assert len(abilities) == 1 and abilities[0].get("effect"), card_["key"]
        assert "not played by the engine" not in str(abilities[0].get("engine_note", "")), card_["key"]


# ---------------------------------------------------------------- the cards' powers as the rules read them


def test_a_companys_card_abilities_are_the_abilities_of_the_card_it_holds():
    """`C.card_abilities`: the abilities of the card C holds now, as records (none before it holds one); the
    library's has_power and power_value read them (power_value is refused where the card has no such ability)."""
    g = new_game()
    drg = g.entity("corporation", "DRG")
    assert g.attr(drg, "card_abilities") == []
    assert not g.call("has_power", drg, "bank_income")
    with pytest.raises(IllegalAction):
        g.call("power_value", drg, "bank_income", "income")
    start(g, "DRG", 100, "PURCELL")
    assert [r["effect"] for r in g.attr(drg, "card_abilities")] == ["bank_income"]
    assert g.call("has_power", drg, "bank_income") and not g.call("has_power", drg, "train_discount")
    assert g.call("power_value", drg, "bank_income", "income") == 20
    with pytest.raises(IllegalAction):
        g.call("power_value", drg, "bank_income", "discount_per_use")  # a field the ability does not give
    for minor in g.minors:
        assert g.attr(minor, "card_abilities") == [] and not g.call("has_power", minor, "bank_income")


def test_a_declined_card_is_none_in_the_rules():
    """A decline names the card "none": the rules read it as none (`card == none` in 18GJ's pick_card)."""
    g = new_game()
    player = acting(g)
    cell = g.market.par_cell(100)
    act(g, P(player, "par", corporation="DRG", share_price=f"100,{cell[0]},{cell[1]}"))
    params = dict(g.ACTION_PARAMS["select_president"])
    action = select("DRG", "none", player)
    assert g._bind_param("select_president", "company_president", params["company_president"], action) is None
    assert g._bind_param("select_president", "company_president", params["company_president"],
                         select("DRG", "MEYER", player)) == "MEYER"


def test_a_power_not_stackable_is_declared_one_cube_at_a_time():
    """§"Using the Company Presidents": only Adolphus Meyer's cubes are spent together (use_power, 18GJ's procedure)."""
    g = new_game()
    first_or(g, {"DRG": (100, "MAYNARD"), "DSPP": (100, "DELANEY")})
    to_step(g, "DRG", "track_and_token")
    assert_refused(g, use("DRG", 2), "Using the Company Presidents", "one at a time")
    act(g, use("DRG", 1))
    drg = g.entity("corporation", "DRG")
    assert cubes(g, "DRG") == 2 and g.state_amount("declared_uses", drg, "extra_lay") == 1
