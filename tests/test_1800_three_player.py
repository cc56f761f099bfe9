"""1800 Appendix C, the Three-Player Expansion, rule by rule.

Each test is named after the section of Appendix C it checks (`test_c4_...`
is §C.4) and plays the three-player engine through `process` with the
18xx.games action vocabulary; the invariant monitor checks every action a
helper plays. Refused actions go through `assert_refused`: `IllegalAction`
is raised, its `.rule` names the section, and nothing in the game changed.

As in test_1800_rules.py, the share and operating rules are played without
the map (routes declared as their revenue stops); the map rules (§C.2,
§C.3) are played on the real three-player map, with the track that leads
up to the position laid directly (said where), and the tile lay or token
under test always going through `process`.
"""

from __future__ import annotations

import copy
import random

import pytest

from compiler.emit.engines import game_class
from compiler.runtime import track
from compiler.runtime.entities import BANK, POOL
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, C, P

Game = game_class("1800", "Three-Player")
TwoPlayer = game_class("1800")
PLAYERS = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------- helpers


def new_game(seed=1, track_=False, cls=Game, players=PLAYERS):
    """A new three-player game; without `track_` it runs without its map."""
    g = cls(players=list(players), seed=seed)
    if not track_:
        g.board = None
    g._test_monitor = Monitor(g)
    return g


def player(g, name):
    return next(p for p in g.state()["players"] if p["name"] == name)


def corp(g, sym):
    return next(c for c in g.state()["corporations"] if c["sym"] == sym)


def cash(g, name):
    if name == "bank":
        return g.cash[BANK]
    return g.cash[g.find(name)]


def money(g):
    return {k: cash(g, k) for k in (*PLAYERS, "DRGW", "CS", "CW", "bank")}


def pct(g, holder, sym):
    ent = POOL if holder == "pool" else g.find(holder)
    return g.b_percent(ent, g.entity("corporation", sym))


def pass_(g, name=None):
    act(g, P(name or acting(g), "pass"))
    skip_map_steps(g)


def to_turn(g, name):
    for _ in range(len(g.players)):
        if acting(g) == name:
            return
        assert g.g["round"] == "stock"
        pass_(g)
    assert acting(g) == name


def turn(g, name, *actions):
    to_turn(g, name)
    for a in actions:
        act(g, a)
    pass_(g, name)


def sell_privates(g, buyers=("Ann", "Bob", "Cy")):
    for item, buyer in zip(("MT", "DSL", "RGS"), buyers):
        while acting(g) != buyer:
            pass_(g)
        act(g, P(buyer, "buy_company", company=item, price=g.call("sale_price")))


def par(g, name, sym, price_):
    to_turn(g, name)
    action = next(a for a in g.legal_actions()
                  if a["type"] == "par" and a["corporation"] == sym and a["share_price"].startswith(f"{price_},"))
    turn(g, name, action)


def buy_action(g, name, sym):
    holder = g.entity("corporation", sym)
    cert = next(c for c in g.certs_of[sym] if g.owner[c.id] == holder and not c.president)
    return P(name, "buy_shares", shares=[cert.id], percent=cert.percent)


def sell_action(g, name, sym):
    who = g.entity("player", name)
    cert = next(c for c in g.certs_of[sym] if g.owner[c.id] == who and not c.president)
    return P(name, "sell_shares", shares=[cert.id], percent=cert.percent)


def end_sr(g):
    while g.g["round"] == "stock":
        pass_(g)
    skip_map_steps(g)


def skip_map_steps(g):
    while g.g["round"] == "operating" and g.g["step"] in ("lay_tile", "place_token"):
        act(g, C(acting(g), "pass"))


def route(train, *stops):
    return {"train": train, "stops": list(stops)}


def operate(g, sym, routes=(), kind="withhold", train=None):
    """`sym`'s Operational Turn without the map: run, dispose, buy `train`, end."""
    assert acting(g) == sym, (acting(g), sym)
    skip_map_steps(g)
    if g.g["step"] == "run_routes":
        act(g, C(sym, "run_routes", routes=list(routes)))
    if g.g["step"] == "dividend":
        act(g, C(sym, "dividend", kind=kind))
    if train is not None:
        act(g, C(sym, "buy_train", train=train, price=g.trains[train].price))
    if g.g["operating"] == sym and not g.g.get("state:decisions"):
        act(g, C(sym, "pass"))
    skip_map_steps(g)


def opening(g):
    """The first round: MT to Ann, D&SL to Bob, RGS (and the free D&RGW share)
    to Cy; Ann pars the D&RGW, Bob the C&S, Cy the C&W, all at $60; Bob and Cy
    buy a second share to float theirs. The first OR then starts."""
    sell_privates(g)
    par(g, "Ann", "DRGW", 60)
    par(g, "Bob", "CS", 60)
    par(g, "Cy", "CW", 60)
    turn(g, "Bob", buy_action(g, "Bob", "CS"))
    turn(g, "Cy", buy_action(g, "Cy", "CW"))
    end_sr(g)
    assert g.g["round"] == "operating"
    assert {acting(g)} <= {"DRGW", "CS", "CW"}


def first_or(g):
    """OR 1: each company, trainless, buys a 2-train ($180 of its $300)."""
    for _ in range(3):
        operate(g, acting(g), train=g.state()["trains_available"][0])
    assert g.g["round"] == "stock" and g.state()["phase"] == "2"


def with_pool_share(g):
    """The opening, OR 1, and in SR 2 Cy sells his free D&RGW share to the
    Bank Pool (Bob, holding the D&SL, does nothing)."""
    opening(g)
    first_or(g)
    turn(g, "Cy", sell_action(g, "Cy", "DRGW"))
    assert pct(g, "pool", "DRGW") == 10


def pool_cert(g, sym):
    return next(c.id for c in g.certs_of[sym] if g.owner[c.id] is POOL)


def trade(company, *certs):
    """The D&SL trade as 18xx.games writes a private's exchange for a share."""
    return {"type": "buy_shares", "entity": company, "entity_type": "company",
            "shares": list(certs), "percent": 10 * len(certs)}


def to_phase_5(g, pool_share=True):
    """Play to the first 5-train: OR 1 three 2s (Phase 2); SR 2 (Cy sells his
    D&RGW share when `pool_share`); OR 2.1 the first company buys a 3
    (Phase 3), the second the other 3, the third the 4 (Phase 4: the 2s rust);
    OR 3.1 the first company to operate buys the 5 (Phase 5). Stops just
    before that purchase, at the buying company's train step."""
    opening(g)
    first_or(g)
    if pool_share:
        turn(g, "Cy", sell_action(g, "Cy", "DRGW"))
    end_sr(g)
    for train in ("3-0", "3-1", "4-0"):
        sym = acting(g)
        operate(g, sym, routes=[route(train_of(g, sym)[0], 300, 300)], train=train)
    assert g.state()["phase"] == "4"
    end_sr(g)
    sym = acting(g)
    act(g, C(sym, "run_routes", routes=[route(train_of(g, sym)[0], 300, 300, 300)]))
    act(g, C(sym, "dividend", kind="withhold"))
    assert g.g["step"] == "buy_train" and cash(g, sym) >= 450
    return sym


def train_of(g, sym):
    return corp(g, sym)["trains"]


# ---------------------------------------------------------------- §C.1 Components


def test_c1_the_expansion_is_for_three_players_who_start_with_520_each():
    with pytest.raises(ValueError):
        Game(players=["Ann", "Bob"], seed=1)
    g = new_game()
    assert [player(g, n)["cash"] for n in PLAYERS] == [520, 520, 520]
    assert g.state()["bank"]["cash"] == 3720 - 3 * 520
    assert g.state()["variant"] == "Three-Player"


def test_c1_five_more_train_cards_2_3_5_2e_3e():
    base = new_game(cls=TwoPlayer, players=("Ann", "Bob"))
    g = new_game()

    def counts(game):
        out = {}
        for tid in game.state()["trains_available"]:
            name = tid.rsplit("-", 1)[0]
            out[name] = out.get(name, 0) + 1
        return out

    added = {k: counts(g)[k] - counts(base).get(k, 0) for k in counts(g)}
    assert {k: v for k, v in added.items() if v} == {"2": 1, "3": 1, "5": 1, "2E": 1, "3E": 1}
    assert g.state()["trains_available"] == [
        "2-0", "2-1", "2-2", "3-0", "3-1", "4-0", "5-0", "5-1", "2E-0", "2E-1", "2E-2", "3E-0", "3E-1", "2x2E-0"]


def test_c1_six_more_tiles_and_the_replacement_denver_802():
    base = new_game(cls=TwoPlayer, players=("Ann", "Bob"), track_=True).board
    board = new_game(track_=True).board
    added = {name: board.counts.get(name, 0) - base.counts.get(name, 0) for name in board.counts}
    assert {name: n for name, n in added.items() if n > 0} == {"5": 1, "6": 1, "12": 1, "804": 1, "15": 1}
    assert board.counts["802"] == base.counts["802"] == 1  # replaced, not added
    assert board.tiles["802"].reserved == (("CW", 0),) and base.tiles["802"].reserved == ()
    assert board.tiles["15"].color == "green"


def test_c1_the_cw_has_a_mat_four_station_tokens_seven_certificates_and_a_bond():
    g = new_game()
    certs = g.certs_of["CW"]
    assert [c.percent for c in certs] == [40, 10, 10, 10, 10, 10, 10] and certs[0].president
    cw = g.entity("corporation", "CW")
    assert g.call("tokens_left", cw) == 3  # three station tokens on the mat; the fourth marks the price (§9.1)
    assert g.state()["bonds"]["CW_bond"] == "CW"


# ---------------------------------------------------------------- §C.2 Colorado & Western


def test_c2_the_cw_starts_in_colorado_springs_the_new_hex_south_of_denver():
    g = new_game(track_=True)
    board = g.board
    assert board.hexes["C9"].location == "Colorado Springs"
    assert board.tile_at("C9").cities == 1 and board.tile_at("C9").color == "white"
    assert board.nbr["C7"][0] == "C9"  # edge 0 is the south side: C9 lies just south of Denver
    # the two new Arrow Destinations face Colorado Springs
    assert board.nbr["B8"][5] == "C9" and board.tile_at("B8").exits() == frozenset({5})
    assert board.nbr["D8"][1] == "C9" and board.tile_at("D8").exits() == frozenset({1})
    sell_privates(g)
    par(g, "Cy", "CW", 70)
    assert board.tokens_of("CW") == [("C9", 0)]
    assert g.corp["CW"]["tokens"] == 1


def start_map_game(g):
    """Privates sold and all three companies started by play (their home tokens placed)."""
    sell_privates(g)
    par(g, "Ann", "DRGW", 100)
    par(g, "Bob", "CS", 100)
    par(g, "Cy", "CW", 90)


def start_two(g):
    """The two-player game for contrast: privates to Ann, Bob, Ann; Ann pars
    the D&RGW at $80, Bob the C&S at $100."""
    sell_privates(g, ("Ann", "Bob", "Ann"))
    par(g, "Ann", "DRGW", 80)
    par(g, "Bob", "CS", 100)


def set_turn(g, sym, phase, step="lay_tile"):
    # set directly: `sym` operates, at `step`, in `phase`
    g.g.update({"round": "operating", "operating": sym, "step": step, "phase": phase, "lays": 0,
                "state:bank_buys_this_turn": {}, "turn_marks": frozenset(), "state:done_this_turn": frozenset()})


def lay_directly(g, company, hex_id, exits, colors=("yellow",)):
    """Set directly: a tile the track rules let `company` lay on `hex_id` whose
    track reaches every edge in `exits`."""
    lay = next(lay for lay in track.legal_lays(g.board, company, list(colors), hexes=[hex_id])
               if set(exits) <= g.board.tiles[lay.tile].exits(lay.rotation))
    g.board.lay(lay.hex, lay.tile, lay.rotation)
    return lay


def token_directly(g, company, hex_id):
    g.board.place_token(company, (hex_id, 0))
    g.corp[company]["tokens"] += 1


def lay_action(g, company, hex_id, colors, exits=(), tile=None):
    """The `lay_tile` action the engine offers for `hex_id` (whose tile reaches `exits`)."""
    for lay in track.legal_lays(g.board, company, list(colors), hexes=[hex_id]):
        if (tile is None or lay.tile == tile) and set(exits) <= g.board.tiles[lay.tile].exits(lay.rotation):
            used = g.board.in_use.get(lay.tile, set())
            return lay.action(company, next(i for i in range(len(used) + 1) if i not in used))
    raise AssertionError(f"{company} has no such lay on {hex_id}")


def token_action(g, company, hex_id):
    return {"type": "place_token", "entity": company, "entity_type": "corporation",
            "city": g.board.city_id((hex_id, 0))}


def denver_green(g):
    """Yellow Denver with the D&RGW's token, and yellow track from Colorado
    Springs into Denver (set directly); then the D&RGW upgrades Denver to
    #802 by play, in Phase 3."""
    start_map_game(g)
    lay_directly(g, "CW", "C9", {3})  # Colorado Springs' track runs north into Denver
    token_directly(g, "DRGW", "C7")
    lay_directly(g, "DRGW", "C7", {0})
    set_turn(g, "DRGW", "3")
    act(g, lay_action(g, "DRGW", "C7", ["yellow", "green"], exits={0}, tile="802"))
    assert g.board.tile_at("C7").name == "802"
    assert g.board.holders(("C7", 0)) == ("DRGW", None)


def test_c2_one_of_the_two_circles_of_green_denver_802_is_kept_for_the_cw():
    g = new_game(track_=True)
    denver_green(g)
    # the other companies may not take the second circle
    set_turn(g, "CS", "3", step="place_token")
    assert_refused(g, token_action(g, "CS", "C7"), "§C.2", "reserved for other companies: CW")
    # the C&W may, over its track from Colorado Springs
    set_turn(g, "CW", "3", step="place_token")
    before = cash(g, "CW")
    offered = [a for a in g.legal_actions() if a["type"] == "place_token"]
    assert [a["city"] for a in offered] == [token_action(g, "CW", "C7")["city"]]
    act(g, offered[0])
    assert g.board.holders(("C7", 0)) == ("DRGW", "CW")
    assert cash(g, "CW") == before - 40  # its second token costs $40 (§11.2)


def test_c2_in_the_two_player_game_no_circle_of_802_is_kept():
    g = new_game(cls=TwoPlayer, players=("Ann", "Bob"), track_=True)
    start_two(g)
    token_directly(g, "DRGW", "C7")
    lay_directly(g, "DRGW", "C7", {0})
    set_turn(g, "DRGW", "3")
    act(g, lay_action(g, "DRGW", "C7", ["yellow", "green"], tile="802"))
    assert g.board.reservations(("C7", 0)) == []
    assert g.board.free_slot(("C7", 0), "CS") == 1


def test_c2_a_cw_token_in_yellow_denver_goes_onto_the_reserved_circle_of_802():
    g = new_game(track_=True)
    start_map_game(g)
    token_directly(g, "CW", "C7")
    lay_directly(g, "CW", "C7", {0})
    set_turn(g, "CW", "3")
    act(g, lay_action(g, "CW", "C7", ["yellow", "green"], tile="802"))
    assert g.board.holders(("C7", 0)) == ("CW", None)
    # its token fills the reserved circle: the other circle is open to all
    assert g.board.reservations(("C7", 0)) == []
    assert g.board.free_slot(("C7", 0), "CS") == 1 and g.board.free_slot(("C7", 0), "DRGW") == 1


def test_c2_if_the_cw_has_no_token_there_brown_denver_803_opens_both_circles():
    g = new_game(track_=True)
    denver_green(g)
    set_turn(g, "DRGW", "5")
    # #803 keeps #802's track: a revenue-only upgrade §11.1 names (clash revenue_only_upgrades)
    act(g, lay_action(g, "DRGW", "C7", ["yellow", "green", "brown"], tile="803"))
    assert g.board.tile_at("C7").name == "803" and g.board.holders(("C7", 0)) == ("DRGW", None)
    assert g.board.reservations(("C7", 0)) == []
    assert g.board.free_slot(("C7", 0), "CS") == 1
    set_turn(g, "CW", "5", step="place_token")
    act(g, token_action(g, "CW", "C7"))  # the C&W may still come, as anyone may
    set_turn(g, "DRGW", "6")
    act(g, lay_action(g, "DRGW", "C7", ["yellow", "green", "brown", "gray"], tile="805"))
    assert g.board.holders(("C7", 0)) == ("DRGW", "CW")


def test_c2_random_games_keep_the_reserved_circle_for_the_cw():
    """Random legal games on the three-player map: while green #802 lies in
    Denver without a C&W token, at most one other company is there; the C&W
    takes its circle in some of them."""
    cw_on_802 = False
    for seed in range(4):
        rng = random.Random(seed)
        g = new_game(seed=seed, track_=True)
        while not g.finished:
            act(g, rng.choice(g.legal_actions()))
            if g.board.tile_at("C7").name == "802":
                held = [c for c in g.board.holders(("C7", 0)) if c]
                if "CW" in held:
                    cw_on_802 = True
                else:
                    assert len(held) <= 1, held
                    assert g.board.reservations(("C7", 0)) == ["CW"]
        assert g.state()["end_reason"] in ("bank_broken", "share_price")
    assert cw_on_802


# ---------------------------------------------------------------- §C.3 Small Towns


def town_track(g, company="CS"):
    """Set directly: a `company` token in Denver, yellow Denver with track to
    the north-west, and a plain yellow tile on B6 from Denver towards the
    Small Town B4 (the D&RGW's own in the two-player game)."""
    token_directly(g, company, "C7")
    lay_directly(g, company, "C7", {2})
    lay_directly(g, company, "B6", {5, 3})


def test_c3_the_small_towns_are_no_longer_reserved():
    g = new_game(track_=True)
    start_map_game(g)
    town_track(g, "CS")
    set_turn(g, "CS", "2")
    act(g, lay_action(g, "CS", "B4", ["yellow"], exits={0}))
    assert g.board.tile_at("B4").towns == 1
    # the same lay in the two-player game: B4 is the D&RGW's
    base = new_game(cls=TwoPlayer, players=("Ann", "Bob"), track_=True)
    start_two(base)
    town_track(base, "CS")
    set_turn(base, "CS", "2")
    lay = {"type": "lay_tile", "entity": "CS", "entity_type": "corporation", "hex": "B4", "tile": "3-0",
           "rotation": 0}
    for tile in ("3", "4", "58"):
        for rotation in range(6):
            assert_refused(base, {**lay, "tile": f"{tile}-0", "rotation": rotation}, "§11.1")


def test_c3_one_small_town_may_become_the_green_15_which_takes_tokens_and_never_upgrades():
    g = new_game(track_=True)
    start_map_game(g)
    town_track(g, "CS")
    lay_directly(g, "CS", "B4", {0})
    set_turn(g, "CS", "2")
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["tile"].startswith("15-")]
    set_turn(g, "CS", "3")
    act(g, lay_action(g, "CS", "B4", ["yellow", "green"], tile="15"))
    assert g.board.tile_at("B4").cities == 1 and g.board.tile_at("B4").towns == 0
    # a station token may go onto #15
    act(g, token_action(g, "CS", "B4"))
    assert ("B4", 0) in g.board.tokens_of("CS")
    # #15 is not upgraded, even in Phase 6
    set_turn(g, "CS", "6")
    for tile in ("806", "807", "808", "43", "64"):
        for rotation in range(6):
            assert_refused(g, {"type": "lay_tile", "entity": "CS", "entity_type": "corporation", "hex": "B4",
                               "tile": f"{tile}-0", "rotation": rotation}, ("§C.3", "§11.1"))


def east_town(g):
    """Set directly: yellow track from the C&S Home Base to the Small Town D4."""
    lay_directly(g, "CS", "E5", {2})
    lay_directly(g, "CS", "D4", {5})


def test_c3_there_is_one_15_the_other_small_town_takes_a_gray_tile_in_phase_6():
    g = new_game(track_=True)
    start_map_game(g)
    town_track(g, "CS")
    lay_directly(g, "CS", "B4", {0})
    east_town(g)
    set_turn(g, "CS", "3")
    act(g, lay_action(g, "CS", "B4", ["yellow", "green"], tile="15"))
    assert g.board.available("15") == 0
    set_turn(g, "CS", "5")
    for rotation in range(6):
        # the only #15 is in B4
        assert_refused(g, {"type": "lay_tile", "entity": "CS", "entity_type": "corporation", "hex": "D4",
                           "tile": "15-0", "rotation": rotation}, ("§C.1", "§C.3"))
        # no gray tile before Phase 6
        assert_refused(g, {"type": "lay_tile", "entity": "CS", "entity_type": "corporation", "hex": "D4",
                           "tile": "806-0", "rotation": rotation}, "§11.1")
    set_turn(g, "CS", "6")
    gray = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "D4"]
    assert gray and {a["tile"].rsplit("-", 1)[0] for a in gray} <= {"806", "807", "808"}
    act(g, gray[0])
    assert g.board.tile_at("D4").color == "gray"


def test_c4_the_dsl_comes_without_the_800_tile():
    g = new_game(track_=True)
    assert g.board.available("800") == 0
    assert "800" not in g.board.upgrade_targets(g.board.tiles["3"])
    dsl = g.DATA.component("private", "DSL")
    assert [child["key"] for child in dsl["children"]] == ["share_exchange"]


# ---------------------------------------------------------------- §C.4 Private Railroads


def test_c4_the_mt_costs_25_and_drops_by_5_when_all_pass():
    g = new_game()
    assert g.call("sale_price") == 25
    assert [a for a in g.legal_actions() if a["type"] == "buy_company"] == [
        P(acting(g), "buy_company", company="MT", price=25)]
    assert_refused(g, P(acting(g), "buy_company", company="MT", price=20), "§6")
    for _ in range(3):
        pass_(g)
    assert g.call("sale_price") == 20


def test_c4_the_mt_sells_for_10_to_50():
    g = new_game()
    opening(g)
    first_or(g)
    end_sr(g)
    # OR 2.1: the first company buys a 3 (Phase 3); then the next may buy the MT from Ann
    first = acting(g)
    operate(g, first, routes=[route(train_of(g, first)[0], 300, 300)], train="3-0")
    assert g.state()["phase"] == "3"
    sym = acting(g)
    act(g, C(sym, "run_routes", routes=[route(train_of(g, sym)[0], 300, 300)]))
    act(g, C(sym, "dividend", kind="withhold"))
    for bad in (9, 51):
        assert_refused(g, C(sym, "buy_company", company="MT", price=bad), ("§C.4", "§11.8"))
    before = money(g)
    act(g, C(sym, "buy_company", company="MT", price=50))
    assert before["Ann"] + 50 == cash(g, "Ann") and before[sym] - 50 == cash(g, sym)
    assert g.state()["privates"][0]["owner"] == sym


def test_c4_the_dsl_holder_trades_it_for_a_share_in_the_bank_pool_which_closes_it():
    g = new_game()
    with_pool_share(g)
    share = pool_cert(g, "DRGW")
    offered = [a for a in g.legal_actions() if a.get("entity_type") == "company"]
    assert offered == [trade("DSL", share)]
    bob = player(g, "Bob")
    before = money(g)
    act(g, trade("DSL", share))
    assert g.owner[share] == g.entity("player", "Bob")
    assert pct(g, "Bob", "DRGW") == 10 and pct(g, "pool", "DRGW") == 0
    assert g.state()["privates"][1] == {"sym": "DSL", "owner": "Bob", "closed": True}
    assert player(g, "Bob")["privates"] == []
    # a share for the private (§8.2.2: a share in the outlined areas counts for nothing)
    counts = 0 if g.call("in_zone", g.entity("corporation", "DRGW"), "no_cert_limit") else 1
    assert player(g, "Bob")["certificates"] == bob["certificates"] - 1 + counts
    assert money(g) == before  # a trade: no money changes hands
    # a closed D&SL pays nothing in the next Operating Round
    end_sr(g)
    assert cash(g, "Bob") == before["Bob"]
    assert_refused(g, trade("DSL", share), "§C.4", "closed")


def test_c4_the_trade_may_be_made_at_any_time_even_out_of_turn():
    g = new_game()
    with_pool_share(g)
    end_sr(g)
    # OR 2.1: a company is operating, not Bob
    sym = acting(g)
    step = g.g["step"]
    share = pool_cert(g, "DRGW")
    assert trade("DSL", share) in g.legal_actions()
    act(g, trade("DSL", share))
    assert acting(g) == sym and g.g["step"] == step  # the company's turn goes on
    assert pct(g, "Bob", "DRGW") == 10


def test_c4_the_trade_in_another_players_share_dealing_turn():
    g = new_game()
    with_pool_share(g)
    to_turn(g, "Ann")
    act(g, trade("DSL", pool_cert(g, "DRGW")))
    assert acting(g) == "Ann" and pct(g, "Bob", "DRGW") == 10


def test_c4_the_trade_is_for_one_share_and_only_one_in_the_bank_pool():
    g = new_game()
    opening(g)
    first_or(g)
    ipo = next(c.id for c in g.certs_of["DRGW"] if g.owner[c.id].id == "DRGW" and not c.president)
    assert_refused(g, trade("DSL", ipo), "§C.4", "Bank Pool")  # the pool is empty
    turn(g, "Cy", sell_action(g, "Cy", "DRGW"))
    assert_refused(g, trade("DSL", ipo), "§C.4", "Bank Pool")  # a share on the mat
    assert_refused(g, trade("DSL", pool_cert(g, "DRGW"), ipo), "§C.4", "one share")
    assert_refused(g, trade("DSL"), "§C.4", "one share")
    assert_refused(g, trade("MT", pool_cert(g, "DRGW")), "§C.4", "only the D&SL")
    assert_refused(g, trade("RGS", pool_cert(g, "DRGW")), "§C.4", "only the D&SL")


def test_c4_the_trade_respects_the_70_percent_limit():
    g = new_game()
    opening(g)
    first_or(g)
    bob = g.entity("player", "Bob")
    # set directly: Bob holds 70% of the C&S, and one C&S share waits in the pool
    mat = [c for c in g.certs_of["CS"] if g.owner[c.id].id == "CS" and not c.president]
    for cert in mat[:2]:
        g.owner[cert.id] = bob
    g.owner[mat[2].id] = POOL
    g._test_monitor.check(g)
    assert pct(g, "Bob", "CS") == 70
    assert_refused(g, trade("DSL", mat[2].id), "§8.1", "70%")


def test_c4_the_trade_may_make_the_trader_director():
    g = new_game()
    opening(g)
    first_or(g)
    ann, bob = g.entity("player", "Ann"), g.entity("player", "Bob")
    # set directly: Bob holds 40% of the D&RGW in 10% shares, and one more waits in the pool
    mat = [c for c in g.certs_of["DRGW"] if g.owner[c.id].id == "DRGW" and not c.president]
    for cert in mat[:4]:
        g.owner[cert.id] = bob
    g.owner[mat[4].id] = POOL
    g._test_monitor.check(g)
    act(g, trade("DSL", mat[4].id))
    assert corp(g, "DRGW")["president"] == "Bob"  # 50% against Ann's 40% (§9.2)
    assert pct(g, "Ann", "DRGW") == 40 and g.owner[g.certs_of["DRGW"][0].id] == bob
    assert [c for c in g.certs_of["DRGW"] if g.owner[c.id] == ann and c.president] == []


def test_c4_the_option_is_lost_once_a_company_buys_the_dsl():
    g = new_game()
    with_pool_share(g)
    end_sr(g)
    first = acting(g)
    operate(g, first, routes=[route(train_of(g, first)[0], 300, 300)], train="3-0")
    sym = acting(g)
    act(g, C(sym, "run_routes", routes=[route(train_of(g, sym)[0], 300, 300)]))
    act(g, C(sym, "dividend", kind="withhold"))
    act(g, C(sym, "buy_company", company="DSL", price=70))
    assert not [a for a in g.legal_actions() if a.get("entity_type") == "company"]
    assert_refused(g, trade("DSL", pool_cert(g, "DRGW")), "§C.4", "option is lost")


def test_c4_the_trade_is_forced_when_the_privates_close_at_the_start_of_phase_5():
    g = new_game()
    sym = to_phase_5(g)
    share = pool_cert(g, "DRGW")
    act(g, C(sym, "buy_train", train="5-0", price=450))
    assert g.state()["phase"] == "5"
    state = g.state()
    assert {p["sym"]: p["closed"] for p in state["privates"]} == {"MT": True, "DSL": False, "RGS": True}
    assert state["acting"] == "DSL"  # the game waits for the D&SL's holder
    assert g.legal_actions() == [trade("DSL", share)]
    assert_refused(g, C(sym, "pass"), "§C.4", "must first")
    assert_refused(g, P("Ann", "pass"), "§C.4")
    act(g, trade("DSL", share))
    assert pct(g, "Bob", "DRGW") == 10
    assert all(p["closed"] for p in g.state()["privates"])
    assert acting(g) == sym and g.g["step"] == "buy_train"  # the company's turn goes on
    act(g, C(sym, "pass"))
    assert acting(g) != sym


def test_c4_with_no_share_in_the_pool_the_dsl_simply_closes_at_phase_5():
    g = new_game()
    sym = to_phase_5(g, pool_share=False)
    assert pct(g, "pool", "DRGW") + pct(g, "pool", "CS") + pct(g, "pool", "CW") == 0
    act(g, C(sym, "buy_train", train="5-0", price=450))
    assert all(p["closed"] for p in g.state()["privates"])
    assert acting(g) == sym and not g.g.get("state:decisions")


def test_c4_the_forced_trade_is_only_for_a_share_the_holder_may_take():
    g = new_game()
    sym = to_phase_5(g, pool_share=False)
    bob = g.entity("player", "Bob")
    # set directly: Bob holds 70% of the C&S and the only pool share is a C&S share
    mat = [c for c in g.certs_of["CS"] if g.owner[c.id].id == "CS" and not c.president]
    for cert in mat[:2 - (pct(g, "Bob", "CS") - 50) // 10]:
        g.owner[cert.id] = bob
    g.owner[mat[-1].id] = POOL
    assert pct(g, "Bob", "CS") == 70
    act(g, C(sym, "buy_train", train="5-0", price=450))
    assert all(p["closed"] for p in g.state()["privates"])  # not possible: no trade is forced
    assert not g.g.get("state:decisions")


# ---------------------------------------------------------------- §C.5 Game End


def at_225(g):
    """OR 2.1 with the first company's price set directly to $200, at the end
    of the top row; it pays out $200 per share and reaches $225."""
    opening(g)
    first_or(g)
    end_sr(g)
    sym = acting(g)
    g._place_token(g.entity("corporation", sym), (0, 8))  # set directly: $200
    assert corp(g, sym)["share_price"] == 200
    return sym


def test_c5_a_stock_token_reaching_225_ends_the_game_after_the_round():
    g = new_game()
    sym = at_225(g)
    operate(g, sym, routes=[route(train_of(g, sym)[0], 1000, 1000)], kind="payout")
    assert corp(g, sym)["share_price"] == 225
    assert g.state()["end_reason"] == "share_price" and not g.state()["finished"]
    while not g.finished:  # the round is finished
        assert g.g["round"] == "operating"
        operate(g, acting(g), routes=[route(train_of(g, acting(g))[0], 10)], kind="payout")
    assert g.state()["finished"] and g.state()["result"] == {p["name"]: p["value"] for p in g.state()["players"]}
    assert_refused(g, P("Ann", "pass"), "§13")


def test_c5_in_the_two_player_game_225_does_not_end_it():
    g = new_game(cls=TwoPlayer, players=("Ann", "Bob"))
    sell_privates(g, ("Ann", "Bob", "Ann"))
    par(g, "Ann", "DRGW", 60)
    par(g, "Bob", "CS", 60)
    turn(g, "Bob", buy_action(g, "Bob", "CS"))
    end_sr(g)
    for _ in range(2):
        operate(g, acting(g), train=g.state()["trains_available"][0])
    end_sr(g)
    sym = acting(g)
    g._place_token(g.entity("corporation", sym), (0, 8))  # set directly: $200
    operate(g, sym, routes=[route(train_of(g, sym)[0], 1000, 1000)], kind="payout")
    assert corp(g, sym)["share_price"] == 225
    assert g.state()["end_reason"] is None


def test_c5_the_bank_running_out_of_money_still_ends_the_game():
    g = new_game()
    opening(g)
    first_or(g)
    end_sr(g)
    sym = acting(g)
    operate(g, sym, routes=[route(train_of(g, sym)[0], 3000, 2000)], kind="payout")
    assert cash(g, "bank") < 0 and g.state()["end_reason"] == "bank_broken"
    while not g.finished:
        operate(g, acting(g), routes=[route(train_of(g, acting(g))[0], 10)])
    assert g.state()["finished"]


# ---------------------------------------------------------------- a whole game


def test_c_a_logged_game_replays_to_the_same_state():
    rng = random.Random(7)
    g = Game(players=list(PLAYERS), seed=7)
    while not g.finished:
        g.process(rng.choice(g.legal_actions()))
    again = Game.from_log(copy.deepcopy(g.to_log()))
    assert again.state() == g.state() and again.result() == g.result()
