"""1880 Romania on its map: home stations, building rights, tile lays,
stations and trains (VI.6, VII.1, VII.3.1-VII.3.6), on the real map
transcribed from the reference.

Each test is named after the rulebook section it checks and plays the
engine through `process`; refused actions go through `assert_refused`
(IllegalAction naming the section, and the game unchanged). Where play
would take too long a test edits the state directly and says so.
"""

from __future__ import annotations


import pytest

from compiler.emit.engines import game_class
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import act, acting, assert_refused, C, P

Game = game_class("1880 Romania")
NAMES = ("Ann", "Bob", "Cid", "Dee")


# ---------------------------------------------------------------- helpers


def new_game():
    """The first stock round, Ann holding the priority deal; the Starting Round (V) is skipped by
    a direct state edit, as in test_1880_rules.py."""
    g = Game(players=list(NAMES), seed=1)
    g.players[:] = [g.find(name) for name in NAMES]
    g.g["priority"] = 0
    g._end_starting_round()
    g._test_monitor = Monitor(g)
    return g


def par(g, name, sym, price=100, percent=20):
    share_price, slot = next((a["share_price"], a["slot"]) for a in g._cand_par(g.find(name), {})
                             if a["corporation"] == sym and a["share_price"].startswith(f"{price},"))
    return P(name, "par", corporation=sym, share_price=share_price, slot=slot, president_percent=percent)


def found(g, name, sym, rights, percent=20, price=100):
    """`name` founds `sym` in his stock-round turn and chooses its building rights."""
    while acting(g) != name:
        act(g, P(acting(g), "pass"))
    act(g, par(g, name, sym, price, percent))
    act(g, C(sym, "choose", choice=rights))


def to_operating(g):
    while g.g["round"] == "stock":
        act(g, P(acting(g), "pass"))


def operating(g, name, sym, rights="ABC", percent=20):
    """`sym`, founded by `name`, at the start of its first operating turn."""
    found(g, name, sym, rights, percent)
    to_operating(g)
    assert acting(g) == sym and g.g["step"] == "lay_tile"
    return g


def lay(sym, hex_id, tile, rotation):
    return C(sym, "lay_tile", hex=hex_id, tile=tile, rotation=rotation)


def lay_direct(g, hex_id, tile, rotation):
    """A direct state edit: the tile is put on the map, as earlier turns would have."""
    g.board.lay(hex_id, tile, rotation)


# ---------------------------------------------------------------- VI.6 / VII.3.2 building rights


def test_vi_6_founder_owes_the_choice_of_building_rights():
    g = new_game()
    act(g, par(g, "Ann", "GWR"))
    assert acting(g) == "GWR" and g.g["state:decisions"][0][2] == "choose"
    assert_refused(g, P("Bob", "pass"), "VII.3.2")


@pytest.mark.parametrize("percent,wrong,right", [(20, "AB", "ABC"), (30, "A", "BD"), (40, "AB", "C")])
def test_vi_6_building_rights_by_the_size_of_the_presidents_certificate(percent, wrong, right):
    g = new_game()
    act(g, par(g, "Ann", "GWR", percent=percent))
    assert_refused(g, C("GWR", "choose", choice=wrong), "VI.6")
    act(g, C("GWR", "choose", choice=right))
    assert g.corp["GWR"]["building_rights"] == right


@pytest.mark.parametrize("choice", ["BA", "AE", "AAB", ""])
def test_vii_3_2_building_rights_are_phase_letters(choice):
    g = new_game()
    act(g, par(g, "Ann", "GWR"))
    assert_refused(g, C("GWR", "choose", choice=choice), "VII.3.2")


def test_vii_3_2_no_track_without_a_building_right_for_the_phase():
    g = operating(new_game(), "Ann", "GWR", rights="B", percent=40)
    assert_refused(g, lay("GWR", "I17", "L148", 0), "VII.3.2")


# ---------------------------------------------------------------- VII.1 / VII.3.4 home station


def test_vii_3_4_home_station_goes_down_at_the_first_operating_turn():
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    assert g.board.tokens_of("GWR") == []          # founded, not yet operating
    to_operating(g)
    assert g.board.tokens_of("GWR") == [("I17", 1)]
    assert g.corp["GWR"]["tokens"] == 1 and g.cash[g.find("GWR")] == 500   # free (VII.3.4), 5 x par (VI.7)


def test_vii_1_a_home_station_waits_while_its_circle_is_taken_and_goes_down_on_a_later_turn():
    """The home station is tried at each of the company's turns until it is placed: while the
    circle is taken (here by a direct edit: an investor's token) the company operates without
    it; once free, its next turn puts it down."""
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    g.board.tokens[("I17", 1)] = ["FI1"]                  # direct edit: the circle is taken
    g.board.touch()
    to_operating(g)
    assert acting(g) == "GWR" and g.board.tokens_of("GWR") == []
    g.board.tokens[("I17", 1)] = [None]                   # direct edit: the circle frees
    g.board.touch()
    g._first_operation_home(g.entity("corporation", "GWR"))
    assert g.board.tokens_of("GWR") == [("I17", 1)]
    g._first_operation_home(g.entity("corporation", "GWR"))   # placed once only
    assert g.board.tokens_of("GWR") == [("I17", 1)] and g.corp["GWR"]["tokens"] == 1


def test_vii_3_4_a_home_circle_is_kept_for_its_company():
    """Bucharest's two circles are the CFR's and the GWR's homes: the CFR cannot take the GWR's."""
    g = operating(new_game(), "Ann", "CFR")
    assert g.board.tokens_of("CFR") == [("I17", 0)]
    assert g.board.free_slot(("I17", 1), "CFR") is None


# ---------------------------------------------------------------- VII.3.1 laying track


def test_vii_3_1_one_tile_in_phase_a():
    g = operating(new_game(), "Ann", "GWR")
    act(g, lay("GWR", "I17", "L148", 0))
    assert g.board.tile_at("I17").name == "L148"
    assert g.g["step"] != "lay_tile"                 # the one lay is used


def test_vii_3_1_bucharest_takes_only_its_b_tile():
    g = operating(new_game(), "Ann", "GWR")
    assert_refused(g, lay("GWR", "I17", "57", 0), "VII.3.1")


def test_vii_3_1_no_tile_on_red_or_blue_hexes():
    g = operating(new_game(), "Ann", "GWR")
    assert_refused(g, lay("GWR", "J26", "57", 0), "VII.3.1")


def test_vii_3_1_terrain_cost_on_the_first_tile():
    """Sibiu (F12) has mountain symbols worth Ł20 (the reference's cost); the TR's own ability
    (supplement) takes Ł10 off."""
    g = operating(new_game(), "Ann", "TR")
    before = g.cash[g.find("TR")]
    act(g, lay("TR", "F12", "57", 1))
    assert g.cash[g.find("TR")] == before - 10


def test_vii_3_1_town_or_city_on_a_dot_and_circle_hex():
    """C9 (Zalău) prints a town and a city: a town tile or a city tile may go there."""
    targets = Game(players=list(NAMES), seed=1).board.upgrade_targets
    g = Game(players=list(NAMES), seed=1)
    assert {"57", "8850"} <= set(targets(g.board.tile_at("C9")))
    assert set(targets(g.board.tile_at("H16"))) == {"235"}          # two cities: OO only


def test_vii_3_1_dotted_border_is_closed_in_the_yellow_phase():
    """LCR's home Cernăuți (A17) has the dotted border on its side 0: no track across it in phase A;
    the border opens with phase B1 (a direct edit fires the phase's event)."""
    g = operating(new_game(), "Ann", "LCR")
    assert_refused(g, lay("LCR", "A17", "447", 0), "VII.3.1")
    g.emit("dotted_border_opens")
    act(g, lay("LCR", "A17", "447", 0))


# ---------------------------------------------------------------- VII.3.3 upgrading


def test_vii_3_3_two_yellow_tiles_or_one_upgrade_from_phase_b():
    """A direct edit puts the game in phase B1 with Bucharest's B tile laid."""
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    g.g["phase"] = "B1"
    lay_direct(g, "I17", "L148", 0)
    to_operating(g)
    act(g, lay("GWR", "I19", "9", 1))                  # a yellow tile
    assert_refused(g, lay("GWR", "I17", "L149", 0), "VII.3.3")   # no upgrade after it
    act(g, lay("GWR", "J18", "9", 2))                  # a second yellow tile


def test_vii_3_3_upgrade_is_the_only_tile():
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    g.g["phase"] = "B1"
    lay_direct(g, "I17", "L148", 0)
    to_operating(g)
    act(g, lay("GWR", "I17", "L149", 0))
    assert_refused(g, lay("GWR", "I19", "9", 1), "VII.3.3")


def test_vii_3_3_at_most_one_tile_is_upgraded_in_a_turn():
    """VII.3.3: "at most one tile may be upgraded": after an upgrade a second upgrade is refused, as is
    a yellow tile (phase B1 with two lays; a direct edit lays the yellow tiles upgraded)."""
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    g.g["phase"] = "B1"
    lay_direct(g, "I17", "L148", 0)
    lay_direct(g, "I19", "9", 1)
    to_operating(g)
    act(g, lay("GWR", "I17", "L149", 0))
    upgrades = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
    assert upgrades == []
    assert_refused(g, lay("GWR", "I19", "16", 1), "VII.3.3")


def test_vii_3_3_an_upgraded_tile_needs_only_to_be_reachable():
    """VII.3.3: a company may upgrade a tile that "after the upgrade, is reachable from one of its own
    station markers": the upgrade's new track need not be the part it reaches. The TR reaches the
    yellow OO tile at H16 (Târgoviște / Ploiești) from Sibiu through F14 and G15, up to the VRL's full
    circle; the green 8862 adds track beyond that circle, which the TR does not reach, yet the tile is
    reachable (the position of an 18xx.games game, whose engine accepts the upgrade). A direct edit
    lays the tiles and the VRL's station and puts the game in phase B1, whose event opens the dotted
    border between F14 and G15."""
    g = new_game()
    found(g, "Ann", "TR", "ABC")
    g.g["phase"] = "B1"
    g.emit("dotted_border_opens")
    lay_direct(g, "F12", "15", 1)
    lay_direct(g, "F14", "8851", 1)
    lay_direct(g, "G15", "8852", 2)
    lay_direct(g, "H16", "235", 2)
    g.board.place_token("VRL", ("H16", 0))
    to_operating(g)
    act(g, lay("TR", "H16", "8862", 2))
    assert g.board.tile_at("H16").name == "8862"


# ---------------------------------------------------------------- VII.3.4 stations, VII.3.5 trains


def _cfr_to_pitesti(g):
    """A direct edit: the CFR's track from Bucharest (I17) through I15 to Pitești (H14)."""
    lay_direct(g, "I17", "L148", 0)
    lay_direct(g, "I15", "8", 2)
    lay_direct(g, "H14", "57", 5)


@pytest.mark.parametrize("phase,cost", [("A1", 40), ("D1", 80)])
def test_vii_3_4_second_station_costs_40_doubled_in_phase_d(phase, cost):
    g = new_game()
    found(g, "Ann", "CFR", "ABCD"[:3] if phase == "A1" else "BCD")
    g.g["phase"] = phase
    _cfr_to_pitesti(g)
    to_operating(g)
    act(g, C("CFR", "pass"))                           # no track this turn
    before = g.cash[g.find("CFR")]
    act(g, C("CFR", "place_token", city="H14-0"))
    assert g.cash[g.find("CFR")] == before - cost
    assert ("H14", 0) in g.board.tokens_of("CFR")


def test_vii_3_4_a_station_needs_a_route_to_it():
    g = operating(new_game(), "Ann", "CFR")
    act(g, C("CFR", "pass"))
    assert_refused(g, C("CFR", "place_token", city="H14-0"), "VII.3.4")


def test_vii_3_5_2_a_train_runs_for_the_stops_it_serves():
    """The CFR's 2-train runs Bucharest (30 on the B tile) to Pitești (20): Ł50."""
    g = new_game()
    found(g, "Ann", "CFR", "ABC")
    _cfr_to_pitesti(g)
    to_operating(g)
    train = next(t for t in g.train_order if g.trains[t].name == "2")
    g.owner[train] = g.find("CFR")       # a direct edit: the CFR bought a 2-train last round
    g.cash[g.find("CFR")] -= 100
    g.flow["received"] += 100
    g._test_monitor = Monitor(g)
    act(g, C("CFR", "pass"))
    act(g, C("CFR", "pass"))
    best = g._route_candidates(g.find("CFR"), {"entity": "CFR", "entity_type": "corporation"})[0]
    assert g.b_route_revenue(g.find("CFR"), best["routes"]) == 50
    act(g, best)
    assert g.corp["CFR"]["revenue"] == 50


def test_vii_3_1_the_first_tile_goes_on_the_home_hex():
    g = operating(new_game(), "Ann", "GWR")
    assert_refused(g, lay("GWR", "I19", "9", 1), "VII.3.1")      # Bucharest first
    act(g, lay("GWR", "I17", "L148", 0))


def test_vii_3_1_unless_a_tile_lies_there_already():
    """A direct edit puts the B tile on Bucharest, as the CFR would have."""
    g = new_game()
    found(g, "Ann", "GWR", "ABC")
    lay_direct(g, "I17", "L148", 0)
    to_operating(g)
    act(g, lay("GWR", "I19", "9", 1))


def test_vii_3_1_a_hexs_colour_is_the_tile_on_it():
    """The rule above asks the library's tile_color(corporation.home), a hex's field `color` (the map's,
    `GameBase.hex_field`): white while Bucharest has only its printed city, the B tile's colour once it lies
    there; a hex the map has not, refused."""
    g = new_game()
    assert g.call("tile_color", "I17") == g.attr("I17", "color") == "white"
    lay_direct(g, "I17", "L148", 0)
    assert g.call("tile_color", "I17") == g.board.tile_at("I17").color != "white"
    with pytest.raises(IllegalAction, match="Z99 is not on the map"):
        g.attr("Z99", "color")


# ---------------------------------------------------------------- VII.3.5.1 express trains


def test_vii_3_5_1_an_express_train_is_paid_for_a_city_with_its_own_station():
    """A 6E may visit any number of stops but is paid for six, one of them a city with one of its
    company's stations: here the own city (20) replaces the sixth best (30)."""
    from compiler.runtime.track import OWN_CITY, TrainSpec

    g = Game(players=list(NAMES), seed=1)
    six_e = TrainSpec.from_dict(g.DATA.component("train", "6E"), name="6E")
    foreign = [("city", 60), ("city", 50), ("offboard", 50), ("city", 40), ("town", 40), ("city", 30)]
    assert six_e.revenue(foreign + [(OWN_CITY, 20)]) == 60 + 50 + 50 + 40 + 40 + 20
    assert six_e.revenue(foreign + [(OWN_CITY, 70)]) == 70 + 60 + 50 + 50 + 40 + 40
    assert six_e.revenue(foreign) is None               # no city of its own among the stops
    six = TrainSpec.from_dict(g.DATA.component("train", "6"), name="6")
    assert six.revenue(foreign) == 270                  # a plain 6 needs none


def test_vii_3_5_1_ports_count_for_a_plus_trains_small_number():
    """The blue ports (Odesa H26, Marea Neagră J26) are an off-board and a city on the map but count
    as ports for a train (VII.3.5.1): a 2+2 pays two cities and a port, not three cities."""
    from compiler.runtime import track

    g = Game(players=list(NAMES), seed=1)
    graph = track.routes._Graph(g.board, "DR", "A1")
    plus = track.TrainSpec.from_dict(g.DATA.component("train", "2+2"), name="2+2")
    kinds = {g.board.node(ref).kind: graph.stop_kind(k, plus) for k, ref in enumerate(graph.refs)
             if ref[0] in ("H26", "J26")}
    assert kinds == {"offboard": "port", "city": "port"}
    assert plus.revenue([("city", 30), ("city", 20), ("port", 20)]) == 70
    assert plus.revenue([("city", 30), ("city", 20), ("city", 20)]) is None
    two = track.TrainSpec.from_dict(g.DATA.component("train", "2"), name="2")
    assert two.revenue([("city", 30), ("port", 20)]) == 50          # a plain train counts a port


def test_vii_3_6_example_a_4_plus_4_serves_four_cities_and_its_towns():
    """The rulebook's brown-phase example: the CFR's 4+4 runs A to G, 4 cities plus 3 towns,
    20 + 60 + 20 + 40 + 50 + 20 + 20 = 230 (the Ł20 stops read as the towns and one yellow
    city); it may not go on to H, a fifth city. Its 3-train runs H-B-I for 40 + 60 + 50 = 150."""
    from compiler.runtime.track import TrainSpec

    g = Game(players=list(NAMES), seed=1)
    four_plus_four = TrainSpec.from_dict(g.DATA.component("train", "4+4"), name="4+4")
    a_to_g = [("city", 20), ("city", 60), ("town", 20), ("city", 40), ("city", 50), ("town", 20), ("town", 20)]
    assert four_plus_four.revenue(a_to_g) == 230
    assert four_plus_four.revenue(a_to_g + [("city", 50)]) is None
    three = TrainSpec.from_dict(g.DATA.component("train", "3"), name="3")
    assert three.revenue([("city", 40), ("city", 60), ("city", 50)]) == 150


def test_vii_3_5_1_an_express_trains_own_city_holds_with_a_harbour_token():
    """P4's +10 token (II.3.1) counts only among a train's paid stops; a 6E's paid stops must still
    include its own station's city: the token's stop and the own city, not the two best."""
    from compiler.runtime.track import OWN_CITY, Bonuses, RouteBonus, TrainSpec, run_value

    g = Game(players=list(NAMES), seed=1)
    six_e = TrainSpec.from_dict(g.DATA.component("train", "6E"), name="6E")
    stops = [(f"X{i}", "city", 60) for i in range(5)] + [("G25", "city", 55), ("I17", OWN_CITY, 10)]
    token = Bonuses((RouteBonus("P4 marker", (("G25", 10),)),))
    assert run_value(six_e, stops, ("X0", "I17"), token) == 4 * 60 + 55 + 10 + 10   # not 5 * 60 + 55 + 10


def test_vii_3_4_no_station_on_h16_before_the_vrls_home_station():
    """VII.3.4: on H16, with two cities, no station goes down before the VRL's home station. A direct
    edit lays Bucharest's B tile and a green OO tile on H16 whose second city (not the VRL's) the CFR
    reaches from Bucharest; then the VRL's home station."""
    g = new_game()
    found(g, "Ann", "CFR", "ABC")
    lay_direct(g, "I17", "L148", 0)
    lay_direct(g, "H16", "L141", 4)
    to_operating(g)
    act(g, C("CFR", "pass"))                                       # no track this turn
    assert g.board.reservations(("H16", 1)) == []                   # the circle itself is nobody's home
    assert_refused(g, C("CFR", "place_token", city="H16-1"), "VII.3.4")
    g.board.place_token("VRL", ("H16", 0))
    act(g, C("CFR", "place_token", city="H16-1"))
    assert ("H16", 1) in g.board.tokens_of("CFR")



def test_vii_3_3_an_upgrade_pays_no_terrain_cost():
    """Sibiu (F12) costs Ł20 of mountain for its first tile; the TR's upgrade there costs nothing. Direct
    edits: phase B1 and the yellow city tile on F12."""
    g = new_game()
    found(g, "Ann", "TR", "ABC")
    g.g["phase"] = "B1"
    lay_direct(g, "F12", "57", 0)
    to_operating(g)
    assert acting(g) == "TR"
    upgrades = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "F12"]
    assert upgrades, "a green upgrade of Sibiu is open to the TR"
    before = g.cash[g.find("TR")]
    act(g, upgrades[0])
    assert g.board.tile_at("F12").color == "green"
    assert g.cash[g.find("TR")] == before


def test_vii_3_4_a_token_a_first_tile_took_up_goes_back_only_into_a_city_of_its_hex():
    """check_token(C, city, true) (in place of the builtin check_retoken: the 18xx.games reading's place_token
    calls it where the company owes a token placed again): no route is needed, but while C waits to put back a
    token a tile lay took up (`token_city_on_first_lay`), only a city of that hex takes it, and once it is
    placed there C waits no more. Refused otherwise, the game unchanged."""
    from compiler.runtime.errors import IllegalAction
    from tests.engine_helpers import snapshot

    g = new_game()
    corp = g.entity("corporation", next(c.id for c in g.corporations))
    board = g.board
    multi = next(h for h in board.hexes if sum(1 for n in board.tile_at(h).nodes if n.kind == "city") >= 2
                 and not any(held for (hh, _), held in board.tokens.items() if hh == h))
    elsewhere = next(board.city_id(r) for r in board.nodes() if r[0] != multi and board.node(r).kind == "city"
                     and board.free_slot(r, corp.id) is not None)
    here = next(board.city_id(r) for r in board.nodes() if r[0] == multi and board.node(r).kind == "city")
    g.j.set(g.g, "retoken", {corp.id: multi})  # test setup: a first tile on `multi` took up corp's token
    before = snapshot(g)
    with pytest.raises(IllegalAction, match=f"goes back into a city of {multi}"):
        g.b_check_token(corp, elsewhere, True)
    assert snapshot(g) == before
    spot = g.b_check_token(corp, here, True)
    assert spot.hex == multi and g.g["retoken"] == {}
    # without a token to put back, any open city takes it, with no route needed
    assert g.b_check_token(corp, elsewhere, True).city == elsewhere
    with pytest.raises(IllegalAction, match="no unblocked track"):
        g.b_check_token(corp, elsewhere)  # (without it: a route is needed, and corp has no station yet)
