"""18CO: Rock & Stock — the East–West bonus (§5.8.8.5), the privates' abilities (Table B, completed from
the reference as supplements), players buying corporate certificates (§4.2.2, §8.4) and the rules the
issue calls easy to miss (§16.1, §9.5.4, §5.6.10, §4.4.2).

Everything here is data in `rulespecs/18co.rules` read by the generic runtime: the bonus is a
`revenue_bonus` component, the privates' abilities are `ability` sub-components with an `effect`.
Track for the route tests is put on the real 18CO board directly (test setup: `Board.lay` without the
lay rules), as the 1846 route tests do.
"""

from __future__ import annotations

import pytest

from compiler.runtime import track
from compiler.runtime.errors import IllegalAction
from tests.engine_helpers import A, C, P, act, acting
from tests.test_1846_routes import chain, lay_chain
from tests.test_18co_rules import assert_refused, end_auction, new_game


def _train(g, name):
    return {**g.DATA.component("train", name), "id": f"{name}-0"}


@pytest.fixture()
def kansas_city_to_salt_lake():
    """ROCK's station in Kansas City (G27); plain yellow track from the gray hex F26 west to Salt Lake
    City (E1). Phase 2 values: Kansas City 50, Salt Lake City 50."""
    g = new_game()
    board = g.board
    saved, board.borders = board.borders, {}  # the chain may cross mountain hexsides (test setup only)
    steps = chain(board, "F26", [0], "E1", [3])
    board.borders = saved
    lay_chain(board, steps)
    board.place_token("ROCK", ("G27", 0))
    return g, g.entity("corporation", "ROCK")


def test_5_8_8_5_east_west_bonus_from_an_eastern_off_board_to_salt_lake_city(kansas_city_to_salt_lake):
    g, rock = kansas_city_to_salt_lake
    extras = g._route_extras(rock)
    route = [{"train": _train(g, "E"), "nodes": ["G27-0", "E1-0"]}]
    assert track.route_revenue(g.board, "ROCK", route, "2").revenue == 100
    assert track.route_revenue(g.board, "ROCK", route, "2", extras=extras).revenue == 100 + 100
    best = track.best_routes(g.board, "ROCK", [_train(g, "E")], "2", extras=extras)
    assert best.revenue == 200 and set(best.runs[0].nodes) == {"G27-0", "E1-0"}
    # Phase 5's lower values: Kansas City 30, Salt Lake City 70, the same $100
    assert track.route_revenue(g.board, "ROCK", route, "5", extras=extras).revenue == 30 + 70 + 100


def test_5_8_8_5_no_bonus_unless_the_run_ends_at_both():
    g = new_game()
    extras = g._route_extras(g.entity("corporation", "DRG"))
    spec = track.TrainSpec.from_dict(g.DATA.component("train", "E")["distance"])
    # Lincoln to Salt Lake City: the bonus; each eastern off-board counts (§5.8.8.5 names all three places)
    for east in ("B26", "E27", "G27", "J26"):
        assert track.run_value(spec, [(east, "city", 50), ("E15", "city", 30), ("E1", "offboard", 50)],
                               (east, "E1"), extras) == 230
    # Salt Lake City not at an end, or no eastern off-board: no bonus
    assert track.run_value(spec, [("E15", "city", 30), ("E1", "offboard", 50), ("G27", "city", 50)],
                           ("E15", "G27"), extras) == 130
    assert track.run_value(spec, [("L2", "offboard", 20), ("E15", "city", 30), ("E1", "offboard", 50)],
                           ("L2", "E1"), extras) == 100


# ---------------------------------------------------------------- §4.2.2 corporate certificates in stock rounds


def _kpac_holds_a_cm_share():
    """Stock round 2 of the takeover tests' game (Dee presides KPAC and CS, Ann CM); test setup: KPAC
    holds one of CM's certificates (moved from CM's treasury, as a §5.5 purchase would have)."""
    from tests.test_18co_takeovers import _game
    g = _game()
    cm, km = g.find("CM"), g.find("KPAC")
    cert = g.call("treasury_certificates", cm)[0]
    g.move(cert, cm, km)
    return g, cert


def test_4_2_2_a_president_buys_a_corporate_certificate_his_corporation_holds():
    from tests.test_18co_rules import cash, corp_state, turn_to
    g, cert = _kpac_holds_a_cm_share()
    turn_to(g, "Dee")
    buy = P("Dee", "buy_shares", shares=[cert.id], percent=10)
    assert buy in g.legal_actions()
    price = corp_state(g, "CM")["share_price"]
    dee, kpac = cash(g, "Dee"), g.cash[g.find("KPAC")]
    act(g, buy)
    assert g.owner[cert.id] == g.find("Dee")
    assert cash(g, "Dee") == dee - price and g.cash[g.find("KPAC")] == kpac + price   # §4.2.4.2
    assert corp_state(g, "KPAC")["shares"] == {}


def test_4_2_2_other_players_wait_until_the_presidents_choice_round_8_4():
    from tests.test_18co_rules import turn_to
    g, cert = _kpac_holds_a_cm_share()
    turn_to(g, "Ann")                                             # Ann presides CM, not KPAC
    buy = P("Ann", "buy_shares", shares=[cert.id], percent=10)
    assert buy not in g.legal_actions()
    assert_refused(g, buy, "§4.2.2")
    # test setup: the President's Choice Round has been held (§8.4): the certificate is open to all
    g.state_set("presidents_choice_held", (), True)              # (18CO's state, its trigger sets it)
    assert buy in g.legal_actions()
    act(g, buy)
    assert g.owner[cert.id] == g.find("Ann")


def test_4_2_2_no_certificate_from_another_player():
    from tests.test_18co_rules import turn_to
    from tests.test_18co_takeovers import _cert
    g, _ = _kpac_holds_a_cm_share()
    turn_to(g, "Dee")
    bobs = _cert(g, "CM", "Bob")
    assert_refused(g, P("Dee", "buy_shares", shares=[bobs.id], percent=10), "§4.2.2")


# ---------------------------------------------------------------- Table B: the privates' abilities


def _kpac_owns(private):
    """KPAC in its operating turn, at its track step (the takeover tests' game, $200 more in its
    treasury); test setup: KPAC owns `private` (the auction had no bids, so it was in the Market)."""
    from tests.test_18co_takeovers import _game, _kpac_operating
    from compiler.runtime.entities import POOL
    g = _game()
    _kpac_operating(g)
    while g.g["step"] != "lay_tile":                              # its share steps (§5.2.2, §5.2.3) passed
        act(g, C("KPAC", "pass"))
    item, km = g.entity("private", private), g.find("KPAC")
    assert g.owner[private] == POOL
    g.move(item, POOL, km)
    return g, km


def test_table_b_lnpw_lays_one_free_extra_yellow_tile():
    g, km = _kpac_owns("LNPW")
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "LNPW"]
    assert lays and all(a["tile"].split("-")[0] in {"7", "8", "9", "57", "58a", "3a", "4a", "5", "6", "co1", "co5"}
                        for a in lays)
    treasury = g.cash[km]
    act(g, lays[0])
    assert g.board.tile_at(lays[0]["hex"]).name == lays[0]["tile"].split("-")[0]
    assert g.cash[km] == treasury                                  # free
    assert g.call("in_step", km, "lay_tile")                             # KPAC's own lays are still to come
    # its use closes it (the site's description of the private: "Action closes the company")
    assert g.closed["LNPW"]
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "LNPW"]
    second = next(a for a in lays if a["hex"] != lays[0]["hex"])
    assert_refused(g, second, ("Table B", "§9.5.4"))               # once only


def test_table_b_lnpw_is_used_only_by_its_owning_corporation_in_its_turn():
    g, km = _kpac_owns("LNPW")
    lay = next(a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "LNPW")
    from compiler.runtime.entities import POOL
    g.move(g.entity("private", "LNPW"), km, POOL)                  # test setup: back to the Market
    assert_refused(g, lay, "Table B")


def test_table_b_toll_road_takes_20_off_a_hex_cost():
    import dataclasses
    from compiler.runtime import track as tr
    g, km = _kpac_owns("Toll")
    base = tr.legal_lays(g.board, "KPAC", g._phase_colors())[0]
    mountain = dataclasses.replace(base, hex="K15", cost=40, upgrade=False, borders=())   # a $40 mountain hex
    assert g.board.hexes["K15"].cost == 40
    assert g.b_lay_cost(mountain) == 20
    crossing = dataclasses.replace(mountain, cost=80, borders=(("K15", 1),))            # and a $40 hexside
    assert g.b_lay_cost(crossing) == 60
    from compiler.runtime.entities import POOL
    g.move(g.entity("private", "Toll"), km, POOL)                  # in the Market it serves nobody
    assert g.b_lay_cost(mountain) == 40


def _auction_won(private, price, seed=1):
    """The auction: Ann bids `price` on `private`, everyone then passes (test helper)."""
    from tests.test_18co_rules import bid
    g = new_game(seed=seed)
    while acting(g) != "Ann":
        act(g, A(g, acting(g), "pass"))
    act(g, bid("Ann", private, price))
    end_auction(g)
    assert g.owner[private] == g.find("Ann")
    return g


def test_table_b_dprt_gives_a_random_share_of_cs_dpac_kpac_or_cm():
    drawn = set()
    for seed in range(1, 9):
        g = _auction_won("DPRT", 100, seed=seed)
        held = {sym: pct for sym, pct in next(p for p in g.state()["players"] if p["name"] == "Ann")["shares"].items()
                if pct}
        assert len(held) == 1 and list(held.values()) == [10], held
        (sym,) = held
        assert sym in {"CS", "DPAC", "KPAC", "CM"}
        drawn.add(sym)
    assert len(drawn) > 1                                          # drawn, not fixed


def test_table_b_drgr_gives_the_dsng_presidents_certificate_started_at_75():
    from tests.test_18co_rules import corp_state
    g = _auction_won("DRGR", 120)
    dsng = corp_state(g, "DSNG")
    assert dsng["president"] == "Ann" and dsng["share_price"] == 75          # §4.3.1.1
    assert dsng["treasury"] == 0 and not dsng["floated"]                     # no money came with it
    from tests.test_18co_rules import turn_to
    turn_to(g, "Ann")
    assert_refused(g, P("Ann", "par", corporation="DSNG", share_price="75,3,2"), "§4.3")


def test_10_drgr_is_worth_nothing_at_the_end():
    g = _auction_won("DRGR", 120)
    assert g.DATA.component("private", "DRGR")["end_value"] == 0


def test_table_b_dnp_takes_a_station_back_for_its_cost_and_closes():
    g, km = _kpac_owns("DNP")
    assert not [a for a in g.legal_actions() if a["type"] == "remove_token"]   # one station: it stays
    # test setup: KPAC's second station, in Fort Collins (C15), as if placed for its $40
    g.board.place_token("KPAC", ("C15", 0))
    g.j.set(g.corp["KPAC"], "tokens", g.corp["KPAC"]["tokens"] + 1)
    home = next(r for r in g.board.tokens_of("KPAC") if r[0] != "C15")
    offered = {a["city"] for a in g.legal_actions() if a["type"] == "remove_token"}
    assert offered == {"C15-0", f"{home[0]}-{home[1]}"}
    treasury, left = g.cash[km], g.call("tokens_left", km)
    act(g, {"type": "remove_token", "entity": "DNP", "entity_type": "company", "city": "C15-0"})
    assert ("C15", 0) not in g.board.tokens_of("KPAC")
    assert g.cash[km] == treasury + 40 and g.call("tokens_left", km) == left + 1
    assert g.call("next_token_cost", km) == 40                           # the token is back in its place
    assert g.closed["DNP"]                                         # the action closes the company


def test_table_b_dnp_never_takes_the_last_station():
    g, km = _kpac_owns("DNP")
    (home,) = g.board.tokens_of("KPAC")
    assert_refused(g, {"type": "remove_token", "entity": "DNP", "entity_type": "company",
                       "city": f"{home[0]}-{home[1]}"}, "Table B")


def test_table_b_gjgr_upgrades_a_yellow_town_to_a_green_city_and_closes():
    g, km = _kpac_owns("GJGR")
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "GJGR"]
    g.board.lay("C17", "4a", 0)                                   # test setup: a yellow town in Greeley
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "GJGR"]
    assert lays and {a["hex"] for a in lays} == {"C17"} and {a["tile"].split("-")[0] for a in lays} <= {"14", "15"}
    assert g.g["phase"] == "2"                                    # a green tile in phase 2: the ability allows it
    treasury = g.cash[km]
    act(g, lays[0])
    tile = g.board.tile_at("C17")
    assert tile.name in ("14", "15") and tile.color == "green" and tile.cities
    assert g.cash[km] == treasury and g.closed["GJGR"]             # free; the action closes the company


def test_table_b_gjgr_only_on_its_towns():
    g, km = _kpac_owns("GJGR")
    g.board.lay("C17", "4a", 0)
    g.board.lay("F20", "4a", 0)                                   # Limon has no upgrade icon
    lay = next(a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "GJGR")
    assert_refused(g, {**lay, "hex": "F20"}, "Table B")


# ---------------------------------------------------------------- §7.1.4 certificates of a liquidated corporation


def test_7_1_4_a_liquidated_corporations_certificates_go_to_the_market_past_its_five_shares():
    """Found by `rulec play 18CO --players 6 --seed 1`: a corporation liquidated without bids held a share
    of a corporation whose five shares were already in the Market; the monitor saw 60% there."""
    from compiler.runtime.entities import POOL
    from tests.test_18co_takeovers import _game, _target, _to_acquisition_round, _to_zone
    g = _game()
    cm, km = g.find("CM"), g.find("KPAC")
    certs = g.call("treasury_certificates", cm)
    for cert in certs[:5]:
        g.move(cert, cm, POOL)                                     # test setup: five CM shares in the Market
    g.move(certs[5], cm, km)                                       # and one held by KPAC
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    assert _target(g) == "KPAC"
    act(g, C("CM", "pass"))                                        # no bid: KPAC is liquidated (monitor checks)
    assert g.owner[certs[5].id] is POOL and g.call("pool_percent", cm) == 60


# ---------------------------------------------------------------- the rules easy to miss


def test_5_6_10_a_lay_that_raises_a_citys_value_needs_no_route():
    """KPAC (home in Kansas City) cannot reach Pueblo (I17) or the empty hex beside it; a city tile in
    Pueblo raises its value from nothing, so it may be laid there; plain track beside it may not."""
    g, km = _kpac_owns("IMC")
    reach = track.reach(g.board, "KPAC")
    assert "I17" not in reach.hexes and "I19" not in reach.hexes
    city = track.check_lay(g.board, "KPAC", "I17", "57", 0, g._phase_colors())
    assert city.hex == "I17"
    assert any(a["hex"] == "I17" for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "KPAC")
    with pytest.raises(IllegalAction, match="can reach"):
        track.check_lay(g.board, "KPAC", "I19", "7", 0, g._phase_colors())


def test_16_1_1_no_emergency_money_for_a_corporation_holding_the_permanent_2():
    from compiler.runtime.entities import BANK
    from tests.test_18co_rules import _at_buy_train
    g = _at_buy_train()
    km = g.find("KPAC")
    g.transfer(g.cash[km], km, BANK)                               # test setup: an empty treasury
    assert g.call("must_buy_train", km)                                  # without a train KPAC must buy one
    president = g.call("president", km)
    permanent = next(t for t in g.trains if g.trains[t].name == "2P")
    g.move(g.trains[permanent], g.owner[permanent], km)            # test setup: KPAC holds the DSNG's 2P
    assert not g.call("must_buy_train", km) and not g.call("emergency_seller", president)
    assert_refused(g, C("KPAC", "contribute", player=president.id, amount=10), "§5.10.6")
    assert_refused(g, C("KPAC", "bankrupt"), "§5.10.6")


def test_9_5_4_phase_5_closes_the_privates_but_not_the_idarado_in_a_corporations_hands():
    g, km = _kpac_owns("IMC")
    from compiler.runtime.entities import POOL
    g.move(g.entity("private", "LNPW"), POOL, g.find("Ann"))      # test setup: a player's private
    g.emit("close_privates")                                       # Phase 5's event
    assert not g.closed["IMC"] and g.closed["LNPW"] and g.closed["DNP"]
    g.emit("close_IMC")                                            # Phase 6 removes it (§9.7.3)
    assert g.closed["IMC"]


def test_9_5_4_a_player_owned_idarado_closes_in_phase_5():
    g, km = _kpac_owns("IMC")
    g.move(g.entity("private", "IMC"), km, g.find("Ann"))         # test setup: Ann owns it
    g.emit("close_privates")
    assert g.closed["IMC"]


def test_the_sites_optional_rules_are_options_named_as_its_logs_name_them():
    """The optional rules 18xx.games offers for 18CO are options of the title, read from a log's
    `settings.optional_rules` by their `log_names` (tests/test_18co_options.py plays each)."""
    from compiler.emit.engines import game_class
    Game = game_class("18CO")
    for name in ("priority_order_pass", "pay_per_trash", "major_investors"):
        assert Game(players=["Ann", "Bob", "Cid"], seed=1, options=[name]).options == (name,)


def test_4_4_2_a_player_over_the_certificate_limit_sells_at_the_first_legal_opportunity():
    from tests.test_18co_rules import turn_to
    from tests.test_18co_takeovers import _game
    g = _game()
    turn_to(g, "Cid")
    cid = g.find("Cid")
    for sym in ("CM", "CS", "KPAC"):                               # test setup: Cid is handed certificates
        for cert in g.call("treasury_certificates", g.find(sym)):
            if g.b_certificates(cid) > g.param("cert_limit"):
                break
            g.move(cert, g.find(sym), cid)
    assert g.b_certificates(cid) > g.param("cert_limit")
    g._test_monitor = None  # the setup itself breaks cert_limit: the refusal below is what this tests
    assert_refused(g, P("Cid", "pass"), "§4.4")
    assert not [a for a in g.legal_actions() if a["type"] in ("pass", "buy_shares", "par")]
    assert [a for a in g.legal_actions() if a["type"] == "sell_shares"]


# ---------------------------------------------------------------- Denver's and Colorado Springs' own tiles


def _lay_legal(board, company, hex_id, tile, colors):
    """Lay `tile` on `hex_id` at the first rotation the lay rules accept (test helper); the `Lay`."""
    for rotation in range(6):
        try:
            lay = track.check_lay(board, company, hex_id, tile, rotation, colors)
        except IllegalAction:  # a refused rotation; the next is tried
            continue
        board.lay(hex_id, tile, rotation, mapping=lay.mapping)
        return lay
    raise AssertionError(f"no rotation of #{tile} may be laid on {hex_id}")


def test_5_8_4_denvers_tiles_upgrade_yellow_to_green_to_brown_keeping_every_station():
    """§5.8.4 names "the yellow and green Denver tiles" and §4.3.4 brown ones: Table D is cut off, so the
    upgrades are derived. Denver's tiles carry the label D and have three cities, then two, then one:
    the cities merge and every station stays. (Before the derivation allowed it, no Denver tile could
    replace another, and a 5-player playout stalled for ever in phase 3.)"""
    g = new_game()
    board = g.board
    for corp, node in (("DRG", 0), ("DSL", 1), ("DPAC", 2)):
        board.place_token(corp, ("E15", node))                     # test setup: the three home stations
    assert board.upgrade_targets(board.tile_at("E15")) == ("co1",)
    _lay_legal(board, "DRG", "E15", "co1", ["yellow"])
    assert board.upgrade_targets(board.tile_at("E15")) == ("co2",)
    green = _lay_legal(board, "DRG", "E15", "co2", ["yellow", "green"])
    assert len(set(green.mapping)) == 2                            # three cities became two
    assert board.upgrade_targets(board.tile_at("E15")) == ("co3",)
    _lay_legal(board, "DRG", "E15", "co3", ["yellow", "green", "brown"])
    stations = [c for (h, _), held in board.tokens.items() if h == "E15" for c in held if c]
    assert sorted(stations) == ["DPAC", "DRG", "DSL"]
    assert board.tile_at("E15").cities == 1


def test_5_6_8_colorado_springs_takes_its_own_c_tiles():
    """Colorado Springs (G17, label C, CM's home) becomes #co5 (two cities), then #co6 and #co7 (one)."""
    g = new_game()
    board = g.board
    board.place_token("CM", ("G17", 0))                             # test setup: CM's home station
    _lay_legal(board, "CM", "G17", "co5", ["yellow"])
    assert board.upgrade_targets(board.tile_at("G17")) == ("co6",)
    _lay_legal(board, "CM", "G17", "co6", ["yellow", "green"])
    _lay_legal(board, "CM", "G17", "co7", ["yellow", "green", "brown"])
    assert [c for c in board.tokens[("G17", 0)] if c] == ["CM"]


def test_4_3_4_a_home_in_denver_follows_its_city_through_the_upgrades():
    """DPAC's home is the third of yellow Denver's cities; green Denver merges it into the first and
    brown Denver has one city. A corporation launched after the upgrades (its reservation gone,
    §4.3.4) finds its home in the city that took its place, not in a city the tile no longer has.
    (Found by a 6-player playout that crashed placing such a home.)"""
    g = new_game()
    board = g.board
    for corp in ("DRG", "DSL", "DPAC"):
        board.unreserve(corp)                                        # test setup: §4.3.4's brown phase
    board.place_token("DRG", ("E15", 0))                             # test setup: a station to build from
    _lay_legal(board, "DRG", "E15", "co1", ["yellow"])
    _lay_legal(board, "DRG", "E15", "co2", ["yellow", "green"])
    home = g._home_node(g.entity("corporation", "DPAC"))
    assert home[0] == "E15" and home[1] < len(board.tile_at("E15").nodes)
    _lay_legal(board, "DRG", "E15", "co3", ["yellow", "green", "brown"])
    assert g._home_node(g.entity("corporation", "DPAC")) == ("E15", 0)
    assert board.free_slot(g._home_node(g.entity("corporation", "DPAC")), "DPAC") is not None
