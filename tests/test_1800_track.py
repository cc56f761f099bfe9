"""1800 on its real map: the track rules that need the whole engine.

Positions are reached by play up to the operating turn, then the board and
the turn are set directly (said where): the tile lay itself always goes
through `process`, so the rules tested are the engine's.
"""

from __future__ import annotations

import copy

import pytest

from compiler.emit.engines import game_class
from compiler.runtime import track
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor

Game = game_class("1800")


def started_game():
    """Privates sold, D&RGW and C&S started by play; then (set directly) the
    D&RGW operating at its tile step in phase 3."""
    g = Game(players=["Ann", "Bob"], seed=1)
    first = g.current_entity().id
    other = "Bob" if first == "Ann" else "Ann"
    for who, company, price in ((first, "MT", 20), (other, "DSL", 70), (first, "RGS", 150)):
        g.process({"type": "buy_company", "entity": who, "entity_type": "player", "company": company, "price": price})
    for who, corp in ((g.current_entity().id, "DRGW"), (None, "CS")):
        who = who or g.current_entity().id
        par = next(a for a in g.legal_actions() if a["type"] == "par" and a["corporation"] == corp
                   and a["share_price"].startswith("80,"))
        g.process(par)
        g.process({"type": "pass", "entity": who, "entity_type": "player"})
    return g


def connect_small_town(g, corp: str, home: str, town: str) -> None:
    """Set directly: yellow track from the company's home to its reserved
    small town, each lay one the track rules allow (found by `legal_lays`)."""
    geometry = g.board.geometry
    toward = geometry.edge_between(home, town)
    home_lay = next(lay for lay in track.legal_lays(g.board, corp, ["yellow"], hexes=[home])
                    if toward in g.board.tiles[lay.tile].exits(lay.rotation))
    g.board.lay(home_lay.hex, home_lay.tile, home_lay.rotation)
    town_lay = next(lay for lay in track.legal_lays(g.board, corp, ["yellow"], hexes=[town]))
    g.board.lay(town_lay.hex, town_lay.tile, town_lay.rotation)


def operate(g, corp: str, phase: str = "3"):
    # set directly: the corporation's tile step in the given phase
    g.g.update({"round": "operating", "operating": corp, "step": "lay_tile", "phase": phase, "lays": 0})


def test_s11_8_the_dsl_tile_is_laid_by_its_owning_company_and_closes_the_dsl():
    g = started_game()
    drgw = g.entity("corporation", "DRGW")
    g.owner["DSL"] = drgw  # set directly: the D&RGW bought the D&SL in phase 3 (§11.8)
    connect_small_town(g, "DRGW", "A5", "B4")
    operate(g, "DRGW")
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["tile"].startswith("800-")]
    assert lays, "the D&RGW, owning the D&SL, may lay #800 on its small town"
    monitor = Monitor(g)
    g.process(lays[0])
    monitor.check(g, lays[0])
    assert g.closed["DSL"], "laying #800 closes the D&SL (§11.8)"
    assert g.board.tile_at("B4").name == "800"


def test_s11_8_a_company_without_the_dsl_cannot_lay_its_tile():
    g = started_game()
    connect_small_town(g, "CS", "E5", "D4")
    operate(g, "CS")
    assert not [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["tile"].startswith("800-")]
    for rotation in range(6):
        action = {"type": "lay_tile", "entity": "CS", "entity_type": "corporation", "hex": "D4",
                  "tile": "800-0", "rotation": rotation}
        before = copy.deepcopy(g.state())
        with pytest.raises(IllegalAction):
            g.process(action)
        assert g.state() == before


def test_s9_1_the_home_token_is_placed_when_the_director_sets_the_price():
    g = started_game()
    assert g.board.tokens_of("DRGW") and g.board.tokens_of("CS")
    assert g.corp["DRGW"]["tokens"] == 1


def test_s11_1_a_refused_lay_leaves_the_board_as_it_was():
    g = started_game()
    operate(g, "DRGW", phase="1")
    snapshot = g.board.snapshot()
    with pytest.raises(IllegalAction):
        g.process({"type": "lay_tile", "entity": "DRGW", "entity_type": "corporation",
                   "hex": "C7", "tile": "802-0", "rotation": 0})  # green in phase 1
    assert g.board.snapshot() == snapshot


def test_s11_3_the_engine_runs_the_best_routes_it_finds():
    import random

    g = Game(players=["Ann", "Bob"], seed=3)
    rng = random.Random(3)
    runs = 0
    while not g.finished and runs < 5:
        legal = g.legal_actions()
        action = rng.choice(legal)
        if action["type"] == "run_routes" and action["routes"]:
            g.process(action)
            runs += 1
            corp = g.entity("corporation", action["entity"])
            assert g.corp[corp.id]["revenue"] == sum(r["revenue"] for r in action["routes"])
            continue
        g.process(action)
    assert runs == 5


def test_s8_2_2_a_price_leaving_the_outlined_areas_is_a_sanctioned_excess():
    """The verifier found it: a dividend's move out of the outlined areas can
    leave a holder over the limit; 1800.rules sanctions it (reading: sell
    down at the next chance), and the runtime records the excess."""
    g = Game(players=["Ann", "Bob"], seed=1)
    ann = g.entity("player", "Ann")
    drgw = g.entity("corporation", "DRGW")
    monitor = Monitor(g)
    # set directly: Ann holds all of the D&RGW and two privates; its price sits at $40 (row 4, col 0),
    # in both outlined areas, so its shares count for nothing
    for cert in g.certs_of["DRGW"]:
        g.owner[cert.id] = ann
    for item in ("MT", "DSL"):
        g.owner[item] = ann
    g.corp["DRGW"]["par"] = 60
    g._place_token(drgw, (4, 0))
    monitor.check(g)
    assert g.b_certificates(ann) == 2
    g.g["current_action"] = "dividend"
    g.call("market_move", drgw, "right")  # out of the lowest area: the 70% cap applies again
    assert ("holding_cap", "Ann") in g.g["sanctioned"]
    g.call("market_move", drgw, "right")  # out of both areas: seven certificates count again
    assert g.b_certificates(ann) == 9
    assert ("cert_limit", "Ann") in g.g["sanctioned"] and ("holding_cap", "Ann") in g.g["sanctioned"]
    monitor.check(g)  # sanctioned: no violation


def test_appendix_e_59_goes_into_fort_collins_in_one_of_two_orientations():
    """Appendix E: "The Fort Collins green #59 tile goes into the Fort Collins
    hex in one of two possible orientations" - on the real map, whose
    Fort Collins has no printed track: one D&RGW track reaches the hex, and
    either of #59's two cities may meet it."""
    g = started_game()
    board, geometry = g.board, g.board.geometry
    # set directly: yellow track from the D&RGW Home Base through its Small Town to Fort Collins
    to_town, town_to_fc = geometry.edge_between("A5", "B4"), geometry.edge_between("B4", "C5")
    home = next(lay for lay in track.legal_lays(board, "DRGW", ["yellow"], hexes=["A5"])
                if to_town in board.tiles[lay.tile].exits(lay.rotation))
    board.lay(home.hex, home.tile, home.rotation)
    town = next(lay for lay in track.legal_lays(board, "DRGW", ["yellow"], hexes=["B4"])
                if town_to_fc in board.tiles[lay.tile].exits(lay.rotation))
    board.lay(town.hex, town.tile, town.rotation)
    operate(g, "DRGW")
    lays = {(a["tile"], a["rotation"]) for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == "C5"}
    entry = (town_to_fc + 3) % 6
    assert lays == {("59-0", entry), ("59-0", (entry - 2) % 6)}
