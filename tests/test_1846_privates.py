"""1846's private companies in play: revenue markers, route bonuses, closing, track abilities.

Each test plays the generated engine through `process` with the 18xx.games
vocabulary (`assign` with the private as entity and a hex as target) and
checks the abilities transcribed in `rulespecs/1846.rules` (§"Private
Companies"): the use, each refusal (`IllegalAction.rule` names the topic and
the game is unchanged) and the revenue counted. Where play would take too long
a test gives a private to a corporation directly and says so (test setup); the
positions with routes are reached by seeded random play.
"""

from __future__ import annotations

import random

import pytest

from compiler.runtime import track
from compiler.runtime.errors import IllegalAction
from test_1846_rules import C, acting, act, all_pass, assert_refused, corporation_to_step, new_game, par, take_passes

MARKER_HEXES = {"D6", "I1", "B8", "C5", "D14", "G19", "H12"}


def give_private(g, sym, corp):
    """Test setup: `corp` owns the private `sym`, open (it may have been removed at setup)."""
    g.j.set(g.closed, sym, False)
    g.j.set(g.owner, sym, g.entity("corporation", corp))


def assign(sym, hex_id):
    return {"type": "assign", "entity": sym, "entity_type": "company", "target": hex_id, "target_type": "hex"}


def at_routes_through(hexes, players=4):
    """Seeded random play up to a corporation's run_routes step whose best routes pass one of `hexes`:
    the game, the operating corporation's id, its best routes and the hexes hit."""
    for seed in range(1, 40):
        g = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            if g.g["round"] == "operating" and g.g["step"] == "run_routes" and g.g["operating"] in {
                    c.id for c in g.corporations}:
                runs = [a for a in g.legal_actions() if a["type"] == "run_routes" and a["routes"]]
                if runs:
                    hit = sorted({h for r in runs[0]["routes"] for h in r["hexes"]} & set(hexes))
                    if hit:
                        # the routes as a player declares them (a stated revenue would be checked against
                        # the rules' count, which the markers these tests place change)
                        routes = [{k: v for k, v in r.items() if k != "revenue"} for r in runs[0]["routes"]]
                        return g, g.g["operating"], routes, hit
            act(g, rng.choice(g.legal_actions()))
    raise AssertionError("no seed reached such a route")


def gt_at_track_step():
    """GT parred and at its first track step, in a 4-player game."""
    g = new_game(4)
    take_passes(g)
    par(g, acting(g), "GT", 100)
    all_pass(g)
    corporation_to_step(g, "GT", "track_and_token")
    return g


# ---------------------------------------------------------------- revenue markers


def test_private_companies_steamboat_marker_earns_20_per_port_on_the_owners_routes():
    g, corp, routes, hit = at_routes_through({"B8", "G19", "C5", "D14", "I1"})
    ability = next(a for a in g.entity("private", "SC").get("children") if a.get("key") == "port_marker")
    bonus = next(int(e["bonus"]) for e in ability["bonuses"] if e["hex"] == hit[0])
    give_private(g, "SC", corp)
    c = g.entity("corporation", corp)
    base = g.b_route_revenue(c, routes)
    act(g, assign("SC", hit[0]))
    assert ("SC", hit[0], corp, bonus) in g.b_markers()
    # each run stopping in the marked hex earns the bonus (18xx.games implementation: revenue per route)
    runs_there = sum(1 for r in routes if hit[0] in r["hexes"])
    bonus *= runs_there
    assert g.b_route_revenue(c, routes) == base + bonus
    # a corporation moves its port marker once in an operating round
    other = next(h for h in ("B8", "C5", "D14", "I1", "G19") if h != hit[0])
    assert_refused(g, assign("SC", other), "Private Companies", "once in an operating round")
    act(g, C(corp, "run_routes", routes=routes))
    assert g.corp[corp]["revenue"] == base + bonus


def test_private_companies_port_bonuses_follow_the_port_icons():
    # two port icons in Holland (B8) and Wheeling (G19), one in the others; $20 each
    g = new_game(4)
    ability = next(a for a in g.entity("private", "SC").get("children") if a.get("key") == "port_marker")
    assert {e["hex"]: int(e["bonus"]) for e in ability["bonuses"]} == {
        "B8": 40, "C5": 20, "D14": 20, "I1": 20, "G19": 40}


def test_private_companies_meat_packing_marker_once_in_st_louis_or_chicago():
    g = gt_at_track_step()
    # test setup: GT owns the Meat Packing Company
    give_private(g, "MPC", "GT")
    assert {a["target"] for a in g.legal_actions() if a["type"] == "assign" and a["entity"] == "MPC"} == {"I1", "D6"}
    assert_refused(g, assign("MPC", "H12"), "Private Companies", "may not go in H12")
    act(g, assign("MPC", "D6"))
    assert g.b_markers() == [("MPC", "D6", "GT", 30)]
    assert_refused(g, assign("MPC", "I1"), "Private Companies", "placed already")
    assert not [a for a in g.legal_actions() if a["type"] == "assign" and a["entity"] == "MPC"]


def test_private_companies_boomtown_marker_only_in_cincinnati():
    g = gt_at_track_step()
    # test setup: GT owns Boomtown
    give_private(g, "BT", "GT")
    assert_refused(g, assign("BT", "D6"), "Private Companies", "may not go in D6")
    act(g, assign("BT", "H12"))
    assert g.b_markers() == [("BT", "H12", "GT", 20)]


def test_private_companies_marker_refused_to_a_player_owner_and_out_of_the_owners_turn():
    g = gt_at_track_step()
    # test setup: a player owns the Meat Packing Company
    g.j.set(g.closed, "MPC", False)
    g.j.set(g.owner, "MPC", g.entity("player", "P1"))
    assert_refused(g, assign("MPC", "D6"), "Private Companies", "only the corporation that owns")
    # owned by a corporation that is not operating now
    g.j.set(g.owner, "MPC", g.entity("corporation", "NYC"))
    assert_refused(g, assign("MPC", "D6"), "Private Companies", "only the corporation that owns")
    # closed
    give_private(g, "MPC", "GT")
    g.j.set(g.closed, "MPC", True)
    assert_refused(g, assign("MPC", "D6"), "Private Companies", "closed")


def test_private_companies_marker_refused_after_the_trains_ran():
    g = gt_at_track_step()
    give_private(g, "MPC", "GT")
    act(g, C("GT", "pass"))  # no tile, no token; GT has no train to run
    assert g.g["operating"] == "GT" and g.g["step"] in ("dividend", "buy_train")
    assert_refused(g, assign("MPC", "D6"), "Private Companies", "before the corporation's trains run")


def test_phases_phase_four_removes_the_markers():
    g = gt_at_track_step()
    give_private(g, "MPC", "GT")
    act(g, assign("MPC", "D6"))
    g.emit("remove_markers")  # the event of phase IV (its trigger markers_removed)
    assert g.b_markers() == []


def test_phases_phase_four_removes_every_marker_one_by_one():
    """Phase IV removes the revenue markers (§"Phases"): the library's remove_markers() takes each private's
    off the map by place_marker(X, none), which takes X's alone; a closed private's goes too."""
    g = gt_at_track_step()
    give_private(g, "MPC", "GT")
    give_private(g, "BT", "GT")
    act(g, assign("MPC", "D6"))
    act(g, assign("BT", "H12"))
    g.call("place_marker", g.entity("private", "MPC"), None)
    assert g.b_markers() == [("BT", "H12", "GT", 20)]           # the Meat Packing Company's alone
    g.call("place_marker", g.entity("corporation", "GT"), None)
    assert g.b_markers() == [("BT", "H12", "GT", 20)]           # a corporation's: its cards' (none in 1846)
    g.call("close_privates")
    assert g.b_markers() == [("BT", "H12", "GT", 20)]           # a corporation's marker stays as privates close
    g.emit("remove_markers")
    assert g.b_markers() == []


# ---------------------------------------------------------------- the Steamboat Company held by a player


def steamboat_held_by_p1():
    """GT (P1) and NYC (P2) started; P1 holds the Steamboat Company as the first operating round begins."""
    g = new_game(4)
    take_passes(g)
    for corp, player, price in (("GT", "P1", 90), ("NYC", "P2", 100)):
        while acting(g) != player:
            act(g, {"type": "pass", "entity": acting(g), "entity_type": "player"})
        par(g, player, corp, price)
    # test setup: P1 owns the Steamboat Company, open (it may have been removed at setup or drafted)
    g.j.set(g.closed, "SC", False)
    g.j.set(g.owner, "SC", g.entity("player", "P1"))
    all_pass(g)
    return g


def assign_corp(sym, corp):
    return {"type": "assign", "entity": sym, "entity_type": "company", "target": corp, "target_type": "corporation"}


def test_private_companies_steamboat_held_by_a_player_is_assigned_as_each_operating_round_begins():
    g = steamboat_held_by_p1()
    assert g.g["round"] == "operating" and g.g["state:decisions"][0] == ("private", "SC", "assign")
    assert acting(g) == "SC" and g.g["operating"] is None  # nobody operates before the assignment
    legal = g.legal_actions()
    assert {a["target"] for a in legal if a["type"] == "assign" and a["target_type"] == "hex"} == {"B8", "C5", "D14", "I1", "G19"}
    assert {"type": "pass", "entity": "SC", "entity_type": "company"} in legal
    # the hex and the corporation, in either order (18xx.games Assign#steamboat_assignable_to_hex?): the
    # corporation first, here; any floated corporation, not only those P1 directs
    assert {a["target"] for a in legal if a["type"] == "assign" and a["target_type"] == "corporation"} == {"GT", "NYC"}
    # or a minor (18xx.games Assign#assignable_corporations: the floated minors too)
    assert {a["target"] for a in legal if a["type"] == "assign" and a["target_type"] == "minor"} == {"MS", "BIG4"}
    act(g, assign_corp("SC", "NYC"))
    assert g.b_markers() == [("SC", "", "NYC", 0)]
    assert_refused(g, assign_corp("SC", "GT"), "Private Companies", "once in an operating round")
    act(g, assign("SC", "B8"))
    assert g.b_markers() == [("SC", "B8", "NYC", 40)]
    assert not g.g.get("state:decisions") and g.g["operating"] is not None  # the round begins
    nyc, gt = g.entity("corporation", "NYC"), g.entity("corporation", "GT")
    assert "SC marker" in {b.name for b in g._route_extras(nyc).bonuses}
    assert "SC marker" not in {b.name for b in g._route_extras(gt).bonuses}
    # out of the round's start the player assigns nothing
    assert_refused(g, assign("SC", "C5"), "Private Companies", "as an operating round begins")


def test_private_companies_steamboat_held_by_a_player_may_be_left_as_it_is():
    g = steamboat_held_by_p1()
    act(g, {"type": "pass", "entity": "SC", "entity_type": "company"})
    assert not g.g.get("state:decisions") and g.b_markers() == []
    # the marker of a player-owned Steamboat leaves the map when the privates close
    g2 = steamboat_held_by_p1()
    act(g2, assign("SC", "C5"))
    act(g2, assign_corp("SC", "GT"))
    g2.call("close_privates")
    assert g2.b_markers() == []


def test_private_companies_steamboat_sold_to_a_corporation_serves_the_buyer():
    g = steamboat_held_by_p1()
    act(g, assign("SC", "D14"))
    act(g, assign_corp("SC", "NYC"))
    corporation_to_step(g, "GT", "track_and_token")
    act(g, C("GT", "buy_company", company="SC", price=40))
    assert g.b_markers() == [("SC", "D14", "GT", 20)]
    # owned by a corporation, the marker moves in that corporation's turn, once, and stays when privates close
    act(g, assign("SC", "I1"))
    assert g.b_markers() == [("SC", "I1", "GT", 20)]
    g.call("close_privates")
    assert g.b_markers() == [("SC", "I1", "GT", 20)]


# ---------------------------------------------------------------- Mail Contract


def test_private_companies_mail_contract_adds_10_per_stop_of_the_longest_route():
    g, corp, routes, _hit = at_routes_through(MARKER_HEXES | {"F20", "D20", "E21", "I15", "K3", "B16"})
    c = g.entity("corporation", corp)
    # test setup: a player holds the Mail Contract, then the corporation does
    g.j.set(g.owner, "MAIL", g.entity("player", "P1"))
    base = g.b_route_revenue(c, routes)
    longest = max(len(r["nodes"]) for r in routes)
    give_private(g, "MAIL", corp)
    assert g.b_route_revenue(c, routes) == base + 10 * longest
    act(g, C(corp, "run_routes", routes=routes))
    assert g.corp[corp]["revenue"] == base + 10 * longest


def test_private_companies_mail_contract_stays_open_when_a_corporation_owns_it():
    g = new_game(4)
    give_private(g, "MAIL", "GT")
    g.j.set(g.closed, "TBC", False)
    g.j.set(g.owner, "TBC", g.entity("player", "P1"))
    g.call("close_privates")
    assert not g.closed["MAIL"] and g.closed["TBC"]
    # owned by a player it closes with the others
    g.j.set(g.owner, "MAIL", g.entity("player", "P2"))
    g.call("close_privates")
    assert g.closed["MAIL"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_private_companies_random_play_with_markers_finishes(players):
    g = new_game(players, seed=5)
    rng = random.Random(5)
    while not g.finished:
        legal = g.legal_actions()
        assigns = [a for a in legal if a["type"] == "assign"]
        act(g, rng.choice(assigns or legal))
    assert set(g.result()) == {f"P{i + 1}" for i in range(players)}


# ---------------------------------------------------------------- track abilities


def company_lay(sym, hex_id, tile, rotation):
    return {"type": "lay_tile", "entity": sym, "entity_type": "company", "hex": hex_id, "tile": tile,
            "rotation": rotation}


def ability_lays(g, sym, hex_id=None):
    return [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == sym
            and (hex_id is None or a["hex"] == hex_id)]


def test_private_companies_tunnel_blasting_takes_20_off_mountain_hexsides():
    g = gt_at_track_step()
    # a plain yellow lay in E19 across its $40 mountain hexside: $20 for the lay and $40 for the border
    key = g.board._border_key("E19", 5)
    fake = track.Lay("E19", "7", 0, 40, False, borders=(key,))
    assert g.b_lay_cost(fake) == 60
    # test setup: GT owns the Tunnel Blasting Company
    give_private(g, "TBC", "GT")
    assert g.b_lay_cost(fake) == 40
    # a water hexside keeps its price
    water = g.board._border_key("J6", 1)
    assert g.b_lay_cost(track.Lay("J6", "7", 0, 40, False, borders=(water,))) == 60


def test_private_companies_michigan_central_lays_two_free_yellow_tiles_in_one_turn():
    g = gt_at_track_step()
    # test setup: GT owns the Michigan Central
    give_private(g, "MC", "GT")
    lays = ability_lays(g, "MC")
    assert {a["hex"] for a in lays} == {"B10", "B12"}
    assert {a["tile"].split("-")[0] for a in lays} <= {"7", "8", "9"}
    gt = g.entity("corporation", "GT")
    cash, own_lays = g.cash[gt], g.g.get("lays", 0)
    act(g, next(a for a in lays if a["hex"] == "B12"))
    # free, and none of GT's own two lays is used
    assert g.cash[gt] == cash and g.g.get("lays", 0) == own_lays
    assert g.board.tile_at("B12").name in {"7", "8", "9"}
    assert g.g["operating"] == "GT" and g.g["step"] == "track_and_token"
    act(g, ability_lays(g, "MC", "B10")[0])
    assert g.board.tile_at("B10").name in {"7", "8", "9"}
    assert not ability_lays(g, "MC")


def test_private_companies_michigan_central_refusals():
    g = gt_at_track_step()
    give_private(g, "MC", "GT")
    lay = ability_lays(g, "MC", "B12")[0]
    assert_refused(g, company_lay("MC", "F14", "7-0", 0), "Private Companies", "not for F14")
    assert_refused(g, company_lay("MC", "B12", "57-0", lay["rotation"]), "Private Companies", "not for tile 57")
    # a player owner cannot use it
    g.j.set(g.owner, "MC", g.entity("player", "P1"))
    assert_refused(g, lay, "Private Companies", "only the corporation that owns")
    give_private(g, "MC", "GT")
    act(g, lay)
    # test setup: a later turn of GT (this turn's marks cleared): the second lay has lapsed
    g.j.set(g.g, "turn_marks", frozenset())
    second = company_lay("MC", "B10", "7-0", 0)
    assert_refused(g, second, "Private Companies", "lapsed")


def test_private_companies_ohio_and_indiana_lays_in_its_hexes_without_a_route():
    g = gt_at_track_step()
    # GT (home B16) has no route to F14/F16
    give_private(g, "OI", "GT")
    assert {a["hex"] for a in ability_lays(g, "OI")} == {"F14", "F16"}
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "GT"
                and a["hex"] in ("F14", "F16")]
    act(g, ability_lays(g, "OI", "F16")[0])
    assert g.board.tile_at("F16").name in {"7", "8", "9"}


def _side(g, hex_id, other):
    return g.board.geometry.edge_between(hex_id, other)


def test_private_companies_little_miami_lays_in_cincinnati_and_dayton_with_20_off():
    g = gt_at_track_step()
    # test setup: GT (home B16, far from both cities) owns the Little Miami
    give_private(g, "LM", "GT")
    lays = ability_lays(g, "LM")
    assert {a["hex"] for a in lays} == {"H12", "G13"}
    # every offered tile adds track on the side the two cities share
    for a in lays:
        other = "G13" if a["hex"] == "H12" else "H12"
        lay = g.b_check_lay(g._company("LM"), a["hex"], a["tile"], a["rotation"])
        assert _side(g, a["hex"], other) in lay.new_exits
    gt = g.entity("corporation", "GT")
    cash, own_lays = g.cash[gt], g.g.get("lays", 0)
    # Dayton: $20 for the tile, less $20
    act(g, ability_lays(g, "LM", "G13")[0])
    assert g.cash[gt] == cash and g.g.get("lays", 0) == own_lays
    assert g.g["operating"] == "GT" and g.g["step"] == "track_and_token"
    # one tile in each city: Dayton is done
    assert not ability_lays(g, "LM", "G13")
    # Cincinnati: the tile's $20 off; a river side crossed is paid
    lay = ability_lays(g, "LM", "H12")[0]
    checked = g.b_check_lay(g._company("LM"), "H12", lay["tile"], lay["rotation"])
    expected = g.b_lay_cost(checked) - 20
    assert g.call("ability_lay_cost", g._company("LM"), checked) == max(0, expected)  # the library's
    act(g, lay)
    assert g.cash[gt] == cash - max(0, expected)
    assert not ability_lays(g, "LM")


def test_private_companies_little_miami_refusals():
    g = gt_at_track_step()
    give_private(g, "LM", "GT")
    side = _side(g, "G13", "H12")
    # a straight city tile (57) in Dayton turned away from Cincinnati adds no track towards it
    away = [r for r in range(6) if side not in {(e + r) % 6 for e in (0, 3)}]
    assert away
    assert_refused(g, company_lay("LM", "G13", "57-0", away[0]), "Private Companies", "towards H12")
    assert_refused(g, company_lay("LM", "B12", "57-0", 0), "Private Companies", "not for B12")
    # a player owner cannot use it
    g.j.set(g.owner, "LM", g.entity("player", "P1"))
    assert_refused(g, company_lay("LM", "G13", "57-0", (side + 3) % 6), "Private Companies", "only the corporation")
    give_private(g, "LM", "GT")
    act(g, ability_lays(g, "LM", "G13")[0])
    # test setup: a later turn of GT: the Cincinnati lay has lapsed (both in one turn)
    g.j.set(g.g, "turn_marks", frozenset())
    assert not ability_lays(g, "LM")


def test_private_companies_lake_shore_line_upgrades_toledo_free_once():
    g = gt_at_track_step()
    give_private(g, "LSL", "GT")
    # phase I: no green tile may be laid, so the LSL has nothing to upgrade
    assert not ability_lays(g, "LSL")
    assert_refused(g, company_lay("LSL", "D14", "14-0", 0), "Private Companies")
    # test setup: a yellow tile in Toledo (D14) and phase II
    yellow = next(lay for r in range(6) for lay in [_try(g, "D14", "57", r)] if lay is not None)
    g._put_tile(yellow, "57-0")
    g.j.set(g.g, "phase", "II")
    gt = g.entity("corporation", "GT")
    cash = g.cash[gt]
    lays = ability_lays(g, "LSL")
    assert lays and {a["hex"] for a in lays} == {"D14"}
    act(g, lays[0])
    assert g.cash[gt] == cash and g.board.tile_at("D14").color == "green"
    assert not ability_lays(g, "LSL")


def _try(g, hex_id, tile, rotation):
    try:
        return track.check_lay(g.board, "GT", hex_id, tile, rotation, ["yellow"], reachable=False)
    except IllegalAction:
        return None


# ---------------------------------------------------------------- station abilities


def test_private_companies_chicago_and_western_indiana_keeps_a_chicago_slot():
    g = new_game(4)
    assert "CWI" in g.board.reservations(("D6", 3))
    with pytest.raises(IllegalAction, match="reserved"):
        track.check_token(g.board, "GT", ("D6", 3), home=True)
    # closing the private opens the slot
    g.call("close_private", g.entity("private", "CWI"))
    assert "CWI" not in g.board.reservations(("D6", 3))


def test_private_companies_chicago_and_western_indiana_free_token_for_the_buyer():
    g = gt_at_track_step()
    # test setup: P1 holds the C&WI; GT buys it (phase I allows it), which ends the reservation
    g.j.set(g.closed, "CWI", False)
    g.j.set(g.owner, "CWI", g.entity("player", "P1"))
    token = {"type": "place_token", "entity": "CWI", "entity_type": "company", "city": "D6-3"}
    assert_refused(g, token, "Private Companies", "only the corporation that owns")
    act(g, C("GT", "buy_company", company="CWI", price=60))
    assert "CWI" not in g.board.reservations(("D6", 3))
    gt = g.entity("corporation", "GT")
    assert token in g.legal_actions()
    assert_refused(g, {**token, "city": "D6-0"}, "Private Companies", "goes only in D6")
    cash, placed, step = g.cash[gt], g.corp["GT"]["tokens"], g.g["step"]
    act(g, token)
    # free, no route needed, one of GT's tokens, and GT's own token step is still open
    assert g.cash[gt] == cash and g.corp["GT"]["tokens"] == placed + 1 and g.g["step"] == step
    assert "GT" in g.board.holders(("D6", 3))
    assert_refused(g, token, "procedure ability_token", "placed already")  # its count, the library's


def test_phases_phase_four_removes_reserved_slots():
    g = new_game(4)
    assert "CWI" in g.board.reservations(("D6", 3))
    g.emit("remove_reservations")  # the event of phase IV (its trigger reservations_removed)
    assert "CWI" not in g.board.reservations(("D6", 3))


# ---------------------------------------------------------------- corporations' reserved slots


def corporation_at_track_step(corp, players=5):
    g = new_game(players)
    take_passes(g)
    par(g, acting(g), corp, 100)
    all_pass(g)
    corporation_to_step(g, corp, "track_and_token")
    return g


def test_corporations_reserved_slots_are_kept_until_phase_four():
    g = new_game(5)
    for corp, hex_id in (("PRR", "E11"), ("BO", "H12"), ("ERIE", "D20"), ("IC", "I5")):
        assert corp in g.board.reservations((hex_id, 0)), corp
    with pytest.raises(IllegalAction, match="reserved"):
        track.check_token(g.board, "GT", ("E11", 0), home=True)
    g.emit("remove_reservations")
    assert all(c not in g.board.reservations((h, 0)) for c, h in (("PRR", "E11"), ("BO", "H12"), ("IC", "I5")))
    # the corporations' home stations stay reserved
    assert "PRR" in g.board.reservations(("F20", 0))


def test_corporations_removed_at_setup_keep_no_reserved_slot():
    g = new_game(3)
    removed = [c for c in ("PRR", "ERIE") if g.corp[c]["closed"]]
    spots = {"PRR": ("E11", 0), "ERIE": ("D20", 0)}
    for corp in removed:
        assert corp not in g.board.reservations(spots[corp])


def test_corporations_bo_teleports_to_cincinnati_for_100():
    g = corporation_at_track_step("BO")
    bo = g.entity("corporation", "BO")
    token = C("BO", "place_token", city="H12-0")
    assert token in g.legal_actions()
    cash, placed = g.cash[bo], g.corp["BO"]["tokens"]
    act(g, token)
    # no route from Wheeling to Cincinnati: the teleport price, not the $80 of its next token
    assert g.cash[bo] == cash - 100 and g.corp["BO"]["tokens"] == placed + 1
    assert "BO" in g.board.holders(("H12", 0))


def test_corporations_erie_reserved_slot_needs_a_route():
    g = corporation_at_track_step("ERIE")
    assert_refused(g, C("ERIE", "place_token", city="D20-0"), "Placing Station Tokens", "no unblocked track")


def test_placing_station_tokens_a_kept_slots_price_is_the_librarys_token_cost():
    """§"Placing Station Tokens" (the reserved slots' prices, 18xx-games-1846.json): the library's token_cost
    (issue 32: no z3 twin) over the spot's `reserved` and `reached`, the map's answers for the company that
    checked it. The B&O's slot in Cincinnati costs $100 without a route (its teleport_price), not its next
    token's $80; after phase IV's end of reservations the lasting ability still prices it; a declared free_token
    use makes it free; a slot no ability of the company keeps costs its next token. The model translates
    the same function: for the B&O in Cincinnati it is $100 where no route reaches the slot, $40 where one does."""
    import z3

    from compiler.verify.model import Model
    from compiler.verify.terms import Opaque
    from compiler.verify.translate import Translator

    g = corporation_at_track_step("BO")
    bo, nyc = g.entity("corporation", "BO"), g.entity("corporation", "NYC")
    spot = g.b_check_token(bo, "H12-0")
    assert (g.attr(spot, "reserved"), g.attr(spot, "reached")) == (True, False)
    assert g.call("kept_slot", bo, spot) and g.call("slot_abilities", bo, spot)[0]["key"] == "reserved_token"
    assert g.call("token_cost", bo, spot) == 100
    g.call("remove_reservations")  # phase IV's event: the ability is lasting, its prices stay
    spot = g.b_check_token(bo, "H12-0")
    assert not g.attr(spot, "reserved") and g.call("token_cost", bo, spot) == 100
    g.state_put("declared_uses", (bo, "free_token"), 1)  # test setup: a free_token use declared this turn
    assert g.call("token_cost", bo, spot) == 0
    g.state_put("declared_uses", (bo, "free_token"), 0)
    elsewhere = g.b_check_token(nyc, "H12-0", True)  # NYC's spot there: no ability of NYC's keeps it
    g.corp["NYC"]["tokens"] = 1  # test setup: its home station placed, its next token the charter's $80
    assert g.call("kept_slot", nyc, elsewhere) is False
    assert g.call("token_cost", nyc, elsewhere) == g.call("next_token_cost", nyc) == 80

    # the model (its corporations in scope: the PRR's slot in Fort Wayne, $40, $60 without a route)
    from compiler.lang.pipeline import load

    model = Model(load().program.titles["1846"])
    tr = Translator(model)
    (prr,) = [c for c in model.corporations if c.id == "PRR"]
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    cost = tr.call_routine(tr.routines["token_cost"], [model.z(prr), Opaque("a station spot")], {}, ctx)
    oracle = {name: v for name, _, v in ctx.shared.oracles}
    in_e11, reserved, reached = (oracle["('E11' == a station spot.hex)"], oracle["(a station spot.reserved is true None)"],
                                 oracle["(a station spot.reached is true None)"])
    free = pre["state:declared_uses:PRR@free_token"]
    base = [*model.param_axioms, *ctx.shared.axioms, *ctx.shared.guards, free == 0]
    for facts, price in (((in_e11, z3.Not(reached)), 60), ((in_e11, reached), 40),
                         ((in_e11, z3.Not(reserved), reached), 40),
                         ((z3.Not(in_e11),), pre["tokens:PRR"])):
        solver = z3.Solver()
        solver.add(*base, *facts, cost != (price if isinstance(price, int) else
                                           tr.call_routine(tr.routines["next_token_cost"], [model.z(prr)], {}, ctx)))
        assert solver.check() == z3.unsat, (facts, price)
    solver = z3.Solver()
    solver.add(*model.param_axioms, *ctx.shared.axioms, *ctx.shared.guards, free > 0, cost != 0)
    assert solver.check() == z3.unsat
