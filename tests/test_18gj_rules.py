"""18 Grand Junction, rule by rule, on the marked test map.

The rulebook has no section numbers: each test is named after the heading it
checks (`test_government_subsidies_...` is §"Government Subsidies") and plays
the engine through `process` with the 18xx.games action vocabulary, the
invariant monitor watching every move. Refused actions go through
`assert_refused`: `IllegalAction` is raised, its `.rule` names the heading,
and nothing in the game changed.

The title's map is a gap; the games here run on tests/fixtures/18gj_test_map.rules,
an invented map (its hexes, homes, mountains, off-boards and income centres
are not the real board's). Where play would take too long a test edits the
state directly and says so in a comment (entering a phase with
`_enter_phase`, which applies that phase's rules; money moving from the bank,
so that the monitor's conservation check still holds).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.runtime import track
from compiler.runtime.entities import BANK, DEPOT, SCRAP, SUBSIDY
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import acting, assert_refused, C, overlay_game, P, seats
from tests.engine_helpers import act as act_watched

FIXTURE = Path(__file__).parent / "fixtures" / "18gj_test_map.rules"


# ---------------------------------------------------------------- helpers

#: Company Presidents whose powers act only when a company declares them (or not at all in the engine):
#: answering the deck with these keeps the rules tested here free of the presidents' abilities
#: (tests/test_18gj_presidents.py tests the deck and each president)
QUIET_PRESIDENTS = ("GRAHAM", "MEYER", "BLUIT", "GILLIS", "MAYNARD", "SNAPE", "WEDDELL", "BOLLEN", "MORRISSEY",
                    "MELVILLE")


def act(g, action):
    """Play one action with the monitor watching; then answer any Company President owed: a company just
    started takes the first quiet president left in the deck, one asked at the end of an operating round
    declines."""
    act_watched(g, action)
    while g.g.get("state:card_offers") and g.g["state:decisions"][0][2] == "select_president":
        _, player, _, corp, required = g.g["state:card_offers"][0]
        card = next(c for c in QUIET_PRESIDENTS if c in g.b_deck()) if required else "none"
        act_watched(g, P(player, "select_president", corporation=corp, company_president=card))



def new_game(players=4, seed=1):
    cls = overlay_game("18 Grand Junction", "Two-Player" if players == 2 else None, FIXTURE)
    g = cls(players=[f"P{i + 1}" for i in range(players)], seed=seed)
    g._test_monitor = Monitor(g)
    return g


def par_action(g, player, corp, price):
    cell = g.market.par_cell(price)
    return P(player, "par", corporation=corp, share_price=f"{price},{cell[0]},{cell[1]}")


def pass_(g):
    """The entity on turn passes; a company that must buy a train buys the bank's first."""
    entity = g.current_entity()
    if entity.kind == "corporation" and g.call("must_buy_train", entity):
        tid = g._available_train_ids()[0]
        act(g, C(entity.id, "buy_train", train=tid, price=g.trains[tid].price, variant=g.trains[tid].name))
        return
    act(g, {"type": "pass", "entity": acting(g), "entity_type": entity.kind})


def all_pass(g):
    """Everyone passes until the round changes."""
    kind = g.g["round"]
    while g.g["round"] == kind and not g.finished:
        pass_(g)


def to_first_or(g, pars):
    """In the initial stock round the players on turn start the given companies ({corp: price}), then
    all pass: the first operating round begins."""
    for corp, price in pars.items():
        act(g, par_action(g, acting(g), corp, price))
    all_pass(g)
    assert g.g["round"] == "operating"


def to_step(g, corp, step):
    """Pass the operating companies' steps until `corp` is at `step`."""
    for _ in range(200):
        if g.g["operating"] == corp and g.g["step"] == step:
            return
        pass_(g)
    raise AssertionError(f"{corp} never reached {step}")


def rotation(g, tile, edges):
    """The rotation at which `tile` has exactly `edges` as exits."""
    return next(r for r in range(6) if g.board.tiles[tile].exits(r) == set(edges))


def lay(g, corp, hex_id, tile, edges):
    act(g, C(corp, "lay_tile", hex=hex_id, tile=tile, rotation=rotation(g, tile, edges)))


def enter_phase(g, name):
    """Test setup: the game enters phase `name` as the first purchase of its train would make it."""
    g._enter_phase(next(p for p in g.phases if p["key"] == name))


def buy_two_train(g, corp):
    to_step(g, corp, "buy_train")
    tid = g._available_train_ids()[0]
    act(g, C(corp, "buy_train", train=tid, price=g.trains[tid].price, variant=g.trains[tid].name))


def relegated(players, seed):
    return new_game(players, seed).g.get("relegated", ())


# ---------------------------------------------------------------- setting up the game


def test_setting_up_the_game_random_player_order_and_the_initial_stock_round_first():
    orders = {tuple(seats(new_game(4, seed))) for seed in range(1, 9)}
    assert len(orders) > 1  # the player order cards are dealt at random
    g = new_game(4)
    assert g.state()["round"] == {"type": "stock", "number": 1}
    assert g.state()["privates"] == [] and "minors" not in g.state()
    assert acting(g) == seats(g)[0]


# ---------------------------------------------------------------- relegation and tiers


@pytest.mark.parametrize("players", [3, 4])
def test_relegation_of_railroad_companies_the_slvs_always_under_five_players(players):
    for seed in range(1, 6):
        assert "SLVS" in relegated(players, seed)


def test_relegation_of_railroad_companies_none_with_five_players():
    g = new_game(5)
    assert g.g.get("relegated", ()) == ()
    assert all(g.b_available(c) for c in g.corporations)


def test_relegation_of_railroad_companies_one_of_cc_and_ccp_at_random_with_three_players():
    drawn = set()
    for seed in range(1, 13):
        r = relegated(3, seed)
        assert len(r) == 2 and r[0] == "SLVS" and r[1] in ("CC", "CCP")
        drawn.add(r[1])
    assert drawn == {"CC", "CCP"}
    assert relegated(4, 1) == ("SLVS",)  # four players: the SLVS only


def test_relegation_of_railroad_companies_no_token_in_a_relegated_home():
    g = new_game(3, seed=2)
    (other,) = [c for c in g.g["relegated"] if c != "SLVS"]
    home = {"CC": ("C11", 0), "CCP": ("E11", 0)}[other]
    assert list(g.board.holders(home)) == [None]
    assert g.state()["corporations"][[c.id for c in g.corporations].index(other)]["tokens_placed"] == 0
    # reading: the home stays kept for the company, which may start there from phase 3
    with pytest.raises(IllegalAction, match=f"reserved for other companies: {other}"):
        track.check_token(g.board, "DRG", home, home=True)


def test_tier_2_companies_may_be_started_only_from_phase_3():
    g = new_game(3, seed=2)
    (other,) = [c for c in g.g["relegated"] if c != "SLVS"]
    tier1 = {"CC": "CCP", "CCP": "CC"}[other]
    player = acting(g)
    for corp in ("SLVS", other):
        assert_refused(g, par_action(g, player, corp, 100), 'Tier 2 Companies', "phase 3")
    pars = {a["corporation"] for a in g.legal_actions() if a["type"] == "par"}
    assert pars == {"DRG", "DSPP", "CNW", "GSLP", tier1}
    # the limit counts the five companies available now
    assert g.b_companies_available() == 5 and g.param("cert_limit") == 14
    enter_phase(g, "II")
    assert not g.b_available(g.entity("corporation", other))
    enter_phase(g, "III")
    assert g.b_available(g.entity("corporation", other)) and g.b_available(g.entity("corporation", "SLVS"))
    assert g.b_companies_available() == 7 and g.param("cert_limit") == 17
    act(g, par_action(g, player, other, 100))
    assert g.corp[other]["floated"]


# ---------------------------------------------------------------- the SLVS's home


def test_san_luis_valley_southern_railway_chooses_any_open_city_as_its_home():
    g = new_game(4)
    enter_phase(g, "III")  # test setup: the SLVS (Tier 2) is available
    player = acting(g)
    act(g, par_action(g, player, "SLVS", 100))
    # the SLVS owes its choice of home before play goes on
    assert acting(g) == "SLVS"
    cities = {a["city"] for a in g.legal_actions()}
    assert {a["type"] for a in g.legal_actions()} == {"place_token"}
    assert cities == {"B8-0-0", "D4-0-0", "D12-0-0", "F8-0-0"}  # the others are kept for their companies' homes
    assert_refused(g, P(seats(g)[1], "pass"), "San Luis Valley Southern Railway", "must first place token")
    # C5 is CNW's home: the map's reservation (the overlay's hex C5) refuses it
    assert_refused(g, C("SLVS", "place_token", city="C5-0"), "test fixture", "reserved for other companies: CNW")
    act(g, C("SLVS", "place_token", city="F8-0-0"))
    assert list(g.board.holders(("F8", 0))) == ["SLVS"]
    assert g.corp["SLVS"]["tokens"] == 1 and g.current_entity().kind == "player"
    # outside that choice, a company places tokens only in its operating turn
    assert_refused(g, C("SLVS", "place_token", city="B8-0"), "Stock Round", "turn")


def test_san_luis_valley_southern_railway_cannot_start_without_an_open_city():
    g = new_game(4)
    enter_phase(g, "III")
    for hex_id in ("B8", "D4", "D12", "F8", "E5", "C11", "E11", "C5"):
        g.board.place_token("X", (hex_id, 0))  # test setup: every other city full
    g.board.place_token("Y", ("D8", 0))
    g.board.place_token("Z", ("D8", 0))
    assert_refused(g, par_action(g, acting(g), "SLVS", 100), "San Luis Valley Southern Railway")


# ---------------------------------------------------------------- the initial stock round


def test_initial_stock_round_pass_buy_a_started_company_or_start_one():
    g = new_game(4)
    assert {a["type"] for a in g.legal_actions()} == {"par", "pass"}
    act(g, par_action(g, acting(g), "DRG", 100))
    assert {a["type"] for a in g.legal_actions()} == {"par", "pass", "buy_shares"}
    # no selling in the initial stock round
    owner = seats(g)[0]
    g.j.set(g.g, "turn", 0)  # test setup: back to the company's president
    g.state_set("bought_this_turn", (), False)
    g.j.set(g.g, "acted", False)
    g.j.set(g.owner, "DRG_1", g.entity("player", owner))  # test setup: he holds a 10% share
    g.transfer(0, BANK, g.entity("player", owner))
    assert_refused(g, P(owner, "sell_shares", shares=["DRG_1"], percent=10), "Initial Stock Round")


# ---------------------------------------------------------------- priority order by passing order


def test_priority_order_by_passing_order_the_passing_order_is_the_next_player_order():
    g = new_game(4)
    a, b, c, d = seats(g)
    act(g, par_action(g, a, "DRG", 100))
    for player in (b, c, d):  # b takes the First Pass card, then c, then d
        act(g, P(player, "pass"))
    assert g.b_passing_order() == [b, c, d]
    act(g, P(a, "pass"))
    assert g.g["round"] == "operating"
    assert seats(g) == [b, c, d, a] and g.g["priority"] == 0


def test_priority_order_by_passing_order_a_player_reentering_forfeits_his_card():
    g = new_game(4)
    a, b, c, d = seats(g)
    act(g, par_action(g, a, "DRG", 100))
    act(g, P(b, "pass"))
    act(g, P(c, "pass"))
    act(g, P(d, "buy_shares", shares=["DRG_1"], percent=10))
    act(g, P(a, "pass"))
    assert g.b_passing_order() == [b, c, a]
    act(g, P(b, "buy_shares", shares=["DRG_2"], percent=10))  # b re-enters: the others close up
    assert g.b_passing_order() == [c, a]
    act(g, P(c, "pass"))  # c keeps his card
    act(g, P(d, "pass"))
    act(g, P(a, "pass"))
    assert g.b_passing_order() == [c, a, d]
    act(g, P(b, "pass"))
    assert g.g["round"] == "operating"
    assert seats(g) == [c, a, d, b]


# ---------------------------------------------------------------- certificate limit


@pytest.mark.parametrize("players,available,limit", [(3, 5, 14), (4, 6, 12), (5, 7, 11)])
def test_certificate_limit_by_companies_available_and_players(players, available, limit):
    g = new_game(players)
    assert g.b_companies_available() == available and g.param("cert_limit") == limit


def test_certificate_limit_rises_when_tier_2_becomes_available_and_falls_when_a_company_closes():
    g = new_game(4)
    to_first_or(g, {"DRG": 100, "DSPP": 100})
    assert g.param("cert_limit") == 12
    enter_phase(g, "II")
    enter_phase(g, "III")  # test setup: the SLVS is available
    assert g.param("cert_limit") == 14
    g.j.begin()
    g._close_corporation(g.entity("corporation", "DSPP"))  # test setup: its price reached the closing cell
    g.j.commit()
    assert g.b_companies_available() == 6 and g.param("cert_limit") == 12


def test_certificate_limit_refuses_a_certificate_over_it():
    g = new_game(5)  # seven companies available: 11 certificates
    buyer = seats(g)[2]
    act(g, par_action(g, acting(g), "DRG", 50))
    act(g, par_action(g, acting(g), "DSPP", 50))
    # test setup: the buyer holds eleven certificates (shares of DSPP and DRG bought earlier, none
    # over the 60% holding cap, so that only the certificate limit refuses the twelfth)
    held = [f"DSPP_{i}" for i in range(1, 7)] + [f"DRG_{i}" for i in range(2, 7)]
    for cert in held:
        g.j.set(g.owner, cert, g.entity("player", buyer))
    g.j.set(g.g, "turn", 2)
    assert g.b_certificates(g.entity("player", buyer)) == 11
    assert_refused(g, P(buyer, "buy_shares", shares=["DRG_1"], percent=10), "Certificate Limit",
                   "certificate limit")


# ---------------------------------------------------------------- the tile set


def test_the_tile_set_city_tiles_yellow_plain_and_only_the_listed_green_plain():
    counts = new_game(4).board.counts
    assert {k: counts[k] for k in ("16", "17", "18", "19", "20", "21", "22")} == {
        "16": 2, "17": 1, "18": 1, "19": 2, "20": 2, "21": 1, "22": 1}
    for gone in ("23", "24", "25", "26", "39", "40", "41", "42", "43", "44", "45", "46", "47", "70"):
        assert gone not in counts  # other green plain, and every brown and gray plain tile, are out
    for kept in ("5", "6", "57", "14", "15", "619", "611", "51", "290", "300"):
        assert counts[kept] > 0  # the city tiles, as 1846 counts them
    assert counts["7"] is None and counts["8"] is None and counts["9"] is None  # yellow plain track


def drg_track(g):
    """DRG (home D8) lays #5 on D8 towards C7 and C9 and #8 on the $40 mountain C7 (from D8 to C5) in
    its first turn, buys a 2-train, and lays #7 on C9 (from D8 to C7) in its second: its track reaches
    C7 from two sides. Returns DRG's cash after each lay."""
    cash = []
    drg = g.entity("corporation", "DRG")
    to_step(g, "DRG", "track_and_token")
    lay(g, "DRG", "D8", "5", {2, 3})
    cash.append(g.cash[drg])
    lay(g, "DRG", "C7", "8", {5, 1})
    cash.append(g.cash[drg])
    buy_two_train(g, "DRG")
    to_step(g, "DRG", "track_and_token")  # its turn in the second operating round
    lay(g, "DRG", "C9", "7", {0, 1})
    cash.append(g.cash[drg])
    return cash


def test_the_tile_set_refuses_a_tile_out_of_the_set():
    g = new_game(4)
    to_first_or(g, {"DRG": 100})
    drg_track(g)
    enter_phase(g, "II")  # test setup: green tiles may be laid
    to_step(g, "DRG", "track_and_token")
    assert_refused(g, C("DRG", "lay_tile", hex="C7", tile="24", rotation=0), "The Tile Set", "tile set")


# ---------------------------------------------------------------- track building costs and subsidies


def test_track_building_costs_20_a_lay_and_the_mountain_cost_on_every_lay_and_upgrade():
    g = new_game(4)
    to_first_or(g, {"DRG": 100})
    drg = g.entity("corporation", "DRG")
    cash = g.cash[drg]
    after = drg_track(g)
    assert after[0] == cash - 20 + 10  # a hex with no printed cost: $20, half refunded
    assert after[1] == after[0] - 40 + 20  # a $40 mountain: $40, half refunded
    enter_phase(g, "II")  # test setup: green tiles may be laid
    to_step(g, "DRG", "track_and_token")
    up = C("DRG", "lay_tile", hex="C7", tile="16", rotation=rotation(g, "16", {4, 0, 5, 1}))
    upgrade = g.b_check_lay(drg, "C7", "16", up["rotation"])
    assert upgrade.upgrade and g.b_lay_cost(upgrade) == 40  # the mountain again, not 1846's $20
    cash = g.cash[drg]
    act(g, up)
    assert g.cash[drg] == cash - 40 + 20
    # the $60 mountain costs $60 to lay in
    e9 = track.check_lay(g.board, "DRG", "E9", "9", 0, ["yellow"], reachable=False)
    assert g.b_lay_cost(e9) == 60


def test_government_subsidies_refund_half_until_the_pool_is_empty():
    g = new_game(4)
    assert g.state()["subsidy_pool"] == 200  # four players, phase 1
    to_first_or(g, {"DRG": 100})
    drg = g.entity("corporation", "DRG")
    lay(g, "DRG", "D8", "5", {2, 3})
    assert g.state()["subsidy_pool"] == 190
    g.transfer(175, SUBSIDY, BANK)  # test setup: the pool has $15 left
    cash = g.cash[drg]
    lay(g, "DRG", "C7", "8", {5, 1})  # $40: the pool pays what it has left
    assert g.cash[drg] == cash - 40 + 15 and g.state()["subsidy_pool"] == 0
    buy_two_train(g, "DRG")
    to_step(g, "DRG", "track_and_token")
    cash = g.cash[drg]
    lay(g, "DRG", "C9", "7", {0, 1})  # $20, nothing left to refund
    assert g.cash[drg] == cash - 20


def test_track_building_costs_a_company_that_cannot_pay_lays_nothing_and_gets_no_subsidy():
    g = new_game(4)
    to_first_or(g, {"DRG": 100})
    drg = g.entity("corporation", "DRG")
    g.transfer(g.cash[drg] - 10, drg, BANK)  # test setup: DRG has $10 left
    action = C("DRG", "lay_tile", hex="D8", tile="5", rotation=rotation(g, "5", {2, 3}))
    assert_refused(g, action, "Track Building Costs", "cannot pay")
    assert g.state()["subsidy_pool"] == 200


@pytest.mark.parametrize("players,pools", [(2, [180, 200, 200, 160]), (3, [180, 200, 200, 160]),
                                           (4, [200, 240, 300, 200]), (5, [200, 240, 300, 200])])
def test_government_subsidies_a_new_pool_each_phase_and_the_rest_returned(players, pools):
    g = new_game(players)
    assert g.state()["subsidy_pool"] == pools[0]
    g.transfer(30, SUBSIDY, g.corporations[0])  # test setup: $30 refunded in phase 1
    for phase, pool in zip(("II", "III", "IV"), pools[1:]):
        left = g.cash[SUBSIDY]
        before = g.cash[BANK]
        enter_phase(g, phase)
        assert g.state()["subsidy_pool"] == pool
        assert g.cash[BANK] == before + left - pool  # the rest went back, the new pool came out
    g._test_monitor.check(g)


# ---------------------------------------------------------------- upgrading track


def test_upgrading_track_needs_new_track_the_company_can_reach():
    g = new_game(4)
    to_first_or(g, {"DRG": 100, "CNW": 90})  # the first operating round goes from the lowest price
    to_step(g, "CNW", "track_and_token")
    lay(g, "CNW", "C5", "57", {0, 3})  # CNW's track at C5 leads away from C7
    buy_two_train(g, "CNW")
    drg_track(g)
    enter_phase(g, "II")  # test setup: green tiles may be laid
    # #16 keeps C7's curve from D8 to C5 and adds one from C9: only DRG reaches it
    r16 = rotation(g, "16", {4, 0, 5, 1})
    to_step(g, "CNW", "track_and_token")
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "C7"]
    assert_refused(g, C("CNW", "lay_tile", hex="C7", tile="16", rotation=r16),
                   "Upgrading Track", "adds no new track that CNW can reach")
    to_step(g, "DRG", "track_and_token")
    ups = {(a["tile"].rsplit("-", 1)[0], a["rotation"]) for a in g.legal_actions()
           if a["type"] == "lay_tile" and a["hex"] == "C7"}
    assert ("16", r16) in ups
    # a green tile whose new track joins none of DRG's: #20's straights
    straight = next(r for r in range(6) if {5, 1} <= g.board.tiles["20"].exits(r))
    assert ("20", straight) not in ups


# ---------------------------------------------------------------- minor income centers


def test_minor_income_centers_the_first_company_laying_track_takes_the_disc():
    g = new_game(4)
    to_first_or(g, {"DRG": 100})
    assert set(g.state()["income_centers"]) == set()
    lay(g, "DRG", "D8", "57", {1, 4})  # towards D6, a disc hex
    lay(g, "DRG", "D6", "9", {1, 4})
    assert g.state()["income_centers"] == {"minor@D6": "DRG"}
    assert g.state_amount("collected", g.entity("corporation", "DRG"), "income_center") == 1


def test_minor_income_centers_pay_10_per_disc_to_companies_with_a_train_until_phase_4():
    g = new_game(4)
    to_first_or(g, {"DRG": 100, "CNW": 100})
    to_step(g, "DRG", "track_and_token")
    lay(g, "DRG", "D8", "57", {1, 4})
    lay(g, "DRG", "D6", "9", {1, 4})
    buy_two_train(g, "DRG")
    to_step(g, "CNW", "track_and_token")
    lay(g, "CNW", "C5", "57", {1, 4})  # towards C3, a disc hex
    lay(g, "CNW", "C3", "9", {1, 4})
    drg, cnw = g.entity("corporation", "DRG"), g.entity("corporation", "CNW")
    to_step(g, "CNW", "buy_train")
    g.j.set(g.owner, g._available_train_ids()[0], SCRAP)  # test setup: no train for CNW, which has $200
    cash = {drg: g.cash[drg], cnw: g.cash[cnw]}
    # the next operating round starts: DRG (a train, one disc) earns $10; CNW (no train) nothing
    g.j.begin()
    g.emit("operating_round_start")
    g.j.commit()
    assert g.cash[drg] == cash[drg] + 10 and g.cash[cnw] == cash[cnw]
    enter_phase(g, "II")
    enter_phase(g, "III")
    enter_phase(g, "IV")  # the discs leave the map and the charters
    assert g.state_amount("collected", drg, "income_center") == 0
    assert set(g.state()["income_centers"].values()) == {"scrap"}
    cash = g.cash[drg]
    g.emit("operating_round_start")
    assert g.cash[drg] == cash


# ---------------------------------------------------------------- off board areas


#: test setup for each side: a yellow city between the two areas, and the track joining them to it
#: [(hex, tile, edges)]: West C1 - C3 - D4 (Epsilon) - E3 - E1; East C15 - C13 - D12 (Zeta) - E13 - E15
OFF_BOARD_TRACK = {
    "W": ("C1", "E1", "D4", [("D4", "6", {0, 2}), ("C3", "8", {1, 5}), ("E3", "8", {1, 3})]),
    "E": ("C15", "E15", "D12", [("D12", "6", {3, 5}), ("C13", "8", {0, 4}), ("E13", "8", {2, 4})]),
}


@pytest.mark.parametrize("side", ["W", "E"])
def test_off_board_areas_no_two_east_and_no_two_west_on_one_train(side):
    g = new_game(4)
    first, second, city, tiles = OFF_BOARD_TRACK[side]
    for hex_id, tile, edges in tiles:
        g.board.lay(hex_id, tile, rotation(g, tile, edges))  # test setup: track without the lay rules
    g.board.place_token("DRG", (city, 0))
    four = {**g.DATA.component("train", "4"), "id": "4-0"}
    route = [{"train": four, "nodes": [f"{first}-0", f"{city}-0", f"{second}-0"]}]
    drg = g.entity("corporation", "DRG")
    assert track.route_revenue(g.board, "DRG", route, "I").revenue > 0  # a run but for the rule
    with pytest.raises(IllegalAction, match="east_west"):
        track.route_revenue(g.board, "DRG", route, "I", extras=g._route_extras(drg))
    best = track.best_routes(g.board, "DRG", [four], "I", extras=g._route_extras(drg))
    assert best.revenue > 0
    assert len([n for n in best.runs[0].nodes if n.split("-")[0] in (first, second)]) == 1


# ---------------------------------------------------------------- emergency money raising (1846's, inherited)


def test_emergency_money_raising_no_train_from_another_company_after_an_emergency_issue():
    """§"Emergency Money Raising" (1846's rule, which the title keeps; issue 39 case 1): the second company of
    the first operating round, with no cash and a train it must buy, issues a share for it; then only the
    bank's train is for sale, not the first company's 2-train for $1 (the title's own buy_train, for Adolphus
    Meyer's discount, had lost the check)."""
    g = new_game(4)
    to_first_or(g, {"DRG": 100, "DSPP": 100})
    first, second = g.order_ids()[0], g.order_ids()[1]
    buy_two_train(g, first)
    to_step(g, second, "buy_train")
    buyer = g.entity("corporation", second)
    for cert, player in zip([c for c in g.certs_of[second] if g.owner[c.id] == buyer][:3], ("P2", "P3", "P4")):
        g.j.set(g.owner, cert.id, g.entity("player", player))  # test setup: players hold three shares
    g.transfer(g.cash[buyer], buyer, BANK)                      # and the company has no cash
    assert g.call("must_buy_train", buyer)
    theirs = g.b_trains(g.entity("corporation", first))[0]
    issued = next(c for c in g.certs_of[second] if g.owner[c.id] == buyer)
    act(g, C(second, "sell_shares", shares=[issued.id], percent=10))
    assert_refused(g, C(second, "buy_train", train=theirs.id, price=1), "Emergency Money Raising", "from another company")


# ---------------------------------------------------------------- two-player rules


def test_two_player_rules_set_up_bank_cash_and_relegation():
    drawn = set()
    for seed in range(1, 9):
        g = new_game(2, seed)
        st = g.state()
        assert [p["cash"] for p in st["players"]] == [600, 600]
        assert st["bank"]["cash"] + st["subsidy_pool"] == 7000 - 1200
        r = g.g["relegated"]
        assert r[0] == "SLVS" and len(r) == 3 and set(r[1:]) <= {"CC", "CCP", "GSLP"}
        drawn |= set(r[1:])
        # a token in each removed railroad's home (the SLVS has none on the map)
        homes = {"CC": ("C11", 0), "CCP": ("E11", 0), "GSLP": ("E5", 0)}
        for corp in r[1:]:
            assert list(g.board.holders(homes[corp])) == [corp]
        assert not any(g.b_available(g.entity("corporation", c)) for c in r)
        assert g.param("cert_limit") == 20
    assert drawn == {"CC", "CCP", "GSLP"}


def test_two_player_rules_a_relegated_company_keeps_its_home_token_when_started():
    g = new_game(2, 1)
    corp = g.g["relegated"][1]
    enter_phase(g, "III")
    act(g, par_action(g, acting(g), corp, 100))
    assert g.corp[corp]["tokens"] == 1 and len(g.board.tokens_of(corp)) == 1


def test_two_player_rules_train_roster():
    g = new_game(2)
    count = {}
    for t in g.trains.values():
        count[t.name] = count.get(t.name, 0) + 1
    assert count == {"2": 5, "4": 5, "5": 3, "6": 5}


def test_two_player_rules_stock_ownership_70_percent():
    g = new_game(2)
    a, b = seats(g)
    assert g.param("holding_cap") == 70
    act(g, par_action(g, a, "DRG", 50))
    act(g, P(b, "buy_shares", shares=["DRG_1"], percent=10))
    act(g, P(a, "buy_shares", shares=["DRG_2"], percent=10))  # 30%: within the cap
    for cert in ("DRG_3", "DRG_4", "DRG_5", "DRG_6"):
        g.j.set(g.owner, cert, g.entity("player", a))  # test setup: a holds 70%
    g.j.set(g.g, "turn", 0)
    g.state_set("bought_this_turn", (), False)
    assert g.b_percent(g.entity("player", a), g.entity("corporation", "DRG")) == 70
    assert_refused(g, P(a, "buy_shares", shares=["DRG_7"], percent=10), "Stock Ownership", "holding cap")


def test_two_player_rules_certificate_limit_20_less_2_per_closed_company():
    g = new_game(2)
    to_first_or(g, {"DRG": 100, "DSPP": 100})
    assert g.param("cert_limit") == 20
    g.j.begin()
    g._close_corporation(g.entity("corporation", "DSPP"))  # test setup: its price reached the closing cell
    g.j.commit()
    assert g.param("cert_limit") == 18
    g.j.begin()
    g._close_corporation(g.entity("corporation", "DRG"))
    g.j.commit()
    assert g.param("cert_limit") == 16


def _phase_4_without_trains_for_sale(g):
    """Test setup: phase 4, and the bank's trains all gone (bought by others)."""
    enter_phase(g, "II")
    enter_phase(g, "III")
    enter_phase(g, "IV")
    for tid in list(g.trains):
        if g.owner[tid] is DEPOT:
            g.j.set(g.owner, tid, SCRAP)


def test_two_player_rules_train_ownership_in_phase_4():
    g = new_game(2)
    to_first_or(g, {"DRG": 100, "DSPP": 100})
    _phase_4_without_trains_for_sale(g)
    first = g.g["operating"]
    other = "DSPP" if first == "DRG" else "DRG"
    sixes = [t for t in g.trains if t.startswith("6-")]
    g.j.set(g.owner, sixes[0], g.entity("corporation", other))  # test setup: the other company's last train
    g.j.set(g.g, "step", "buy_train")  # test setup: the company on turn is at its train purchase
    # no train for sale: the company need not own one ...
    assert not g.call("must_buy_train", g.entity("corporation", first))
    assert {a["type"] for a in g.legal_actions()} == {"pass"}
    # ... and may not buy the other company's last train
    assert_refused(g, C(first, "buy_train", train=sixes[0], price=1), "Train Ownership", "last train")
    g.j.set(g.owner, sixes[1], g.entity("corporation", other))  # test setup: now it has two
    act(g, C(first, "buy_train", train=sixes[0], price=1))
    assert g.owner[sixes[0]].id == first


def test_two_player_rules_no_such_limit_before_phase_4():
    g = new_game(2)
    to_first_or(g, {"DRG": 100, "DSPP": 100})
    first = g.g["operating"]
    other = "DSPP" if first == "DRG" else "DRG"
    two = g._available_train_ids()[0]
    g.j.set(g.owner, two, g.entity("corporation", other))  # test setup: the other company's only train
    g.j.set(g.g, "step", "buy_train")
    act(g, C(first, "buy_train", train=two, price=1))
    assert g.owner[two].id == first


def test_two_player_rules_additional_end_game_conditions_the_final_train():
    g = new_game(2)
    to_first_or(g, {"DRG": 100})
    enter_phase(g, "II")
    enter_phase(g, "III")
    enter_phase(g, "IV")
    drg = g.entity("corporation", "DRG")
    depot = [t for t in g.train_order if g.owner[t] is DEPOT]
    for tid in depot[:-1]:
        g.j.set(g.owner, tid, SCRAP)  # test setup: one 6-train left in the bank
    last = depot[-1]
    assert last.startswith("6-")
    g.transfer(800, BANK, drg)  # test setup: DRG can pay for it
    to_step(g, "DRG", "buy_train")
    act(g, C("DRG", "buy_train", train=last, price=800, variant="6"))
    now = g.g["set"]
    assert g.g["end_reason"] == "final_train" and g.g["end_after_set"] == now + 1
    # the rest of this set, a stock round, then one more complete set of operating rounds
    ors = set()
    while not g.finished:
        if g.g["round"] == "operating":
            ors.add((g.g["set"], g.g["or"]))
        pass_(g)
    assert g.g["set"] == now + 1 and (now + 1, 2) in ors
    assert g.state()["end_reason"] == "final_train"


# ---------------------------------------------------------------- what 18GJ changes in 1846 (coverage)


def test_coverage_names_the_1846_clause_each_18gj_clause_replaces_or_adds_to(rulespecs_loaded):
    from compiler.app.command import find_title
    from compiler.docs.coverage import coverage_report

    loaded = rulespecs_loaded
    report = coverage_report(find_title(loaded, "18 Grand Junction"))
    assert report.base == "1846"
    changes = {c.clause: c for c in report.changes}
    assert changes["action par"].change == "replaces" and "library '18xx'" in changes["action par"].target
    assert changes["table cert_limit"].change == "replaces" and "title '1846'" in changes["table cert_limit"].target
    assert changes["relegation setup"].change == "adds to"
    assert changes["relegation setup"].target == "removal corporations (title '1846')"
    assert changes["phase IV"].change == "adds to" and '§"The Tile Set"' in changes["phase IV"].cites
    assert changes["removal corporations"].change == "removes"
    assert changes["subsidy government"].target == "action lay_tile (library '18xx')"
    assert not [c for c in report.changes if "NOT IN THE BASE" in c.target]
    assert not [sc for sc in report.sections if not sc.uses and not sc.note]  # every heading covered
    text = report.to_text()
    assert "CHANGES TO 1846" in text and "hex B14, C11, C13" in text
    two = coverage_report(find_title(loaded, "18 Grand Junction", "Two-Player"))
    assert {c.clause: c.change for c in two.changes}["action buy_train"] == "replaces"


def test_two_players_play_the_mandatory_two_player_variant(capsys):
    import json

    from compiler.app.cli import main

    code = main(["play", "18 Grand Junction", "--players", "2", "--games", "1", "--seed", "3",
                 "--map", str(FIXTURE), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["variant"] == "Two-Player" and out["games"][0]["finished"]
