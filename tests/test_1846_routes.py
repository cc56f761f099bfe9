"""1846's route bonuses on the real map (§"Running Trains"): the East-West bonus, the one-East limit,
an N/M train's choice of paid stops, revenue markers and the Mail Contract in the best-route search.

The bonuses are data (`revenue_bonus east_west` in `rulespecs/1846.rules`, the privates' abilities);
the runtime reads them generically (`Game._route_extras`, `track.RouteBonus`). Track is put on the real
1846 board directly (test setup: `Board.lay` without the lay rules), along a shortest chain of plain
hexes, so that the tests need not play a whole game to reach an East-West route.
"""

from __future__ import annotations

from collections import deque

import pytest

from compiler.runtime import track
from compiler.runtime.errors import IllegalAction
from test_1846_rules import new_game

STRAIGHT_AND_CURVES = ("7", "8", "9")  # plain yellow track: every pair of edges
CITY_TILES = ("5", "6", "57")  # a yellow city with two exits


def plain(board, h):
    tile = board.tile_at(h)
    return tile.color == "white" and not tile.nodes


def chain(board, start, start_edges, goal, goal_edges, avoid=()):
    """A shortest chain of plain hexes from `start` (leaving by one of `start_edges`) to `goal` (entering
    by one of `goal_edges`): [(hex, in_edge, out_edge)]."""
    queue = deque()
    seen = set(avoid)
    for e in start_edges:
        nb = board.nbr[start][e]
        if nb is not None and nb == goal and track.opposite(e) in goal_edges:
            return []
        if nb is not None and plain(board, nb) and nb not in seen:
            seen.add(nb)
            queue.append((nb, track.opposite(e), []))
    while queue:
        h, came, path = queue.popleft()
        for e in range(6):
            if e == came or (h, e) in board.borders:
                continue
            nb = board.nbr[h][e]
            if nb == goal and track.opposite(e) in goal_edges:
                return path + [(h, came, e)]
            if nb is not None and plain(board, nb) and nb not in seen:
                seen.add(nb)
                queue.append((nb, track.opposite(e), path + [(h, came, e)]))
    raise AssertionError(f"no chain from {start} to {goal}")


def lay_chain(board, steps, tiles=STRAIGHT_AND_CURVES):
    """Test setup: a yellow tile on each hex of the chain joining its two edges."""
    for h, a, b in steps:
        for name in tiles:
            rotation = next((r for r in range(6) if board.tiles[name].exits(r) == {a, b}), None)
            if rotation is not None:
                board.lay(h, name, rotation)
                break
        else:
            raise AssertionError(f"no tile joins edges {a} and {b} of {h}")


def exits(board, h):
    return sorted(board.tile_at(h).exits(board.rotation(h)))


def train(g, name):
    return {**g.DATA.component("train", name), "id": f"{name}-0"}


@pytest.fixture()
def st_louis_to_charleston():
    """CO holds its home station in Huntington (I15); track runs from St. Louis (I1, West) to Huntington,
    whose printed track goes on to Charleston (I17, East). Phase I values: 50, 20, 20."""
    g = new_game(4)
    board = g.board
    lay_chain(board, chain(board, "I1", exits(board, "I1"), "I15", [2, 3]))
    if "CO" not in board.holders(("I15", 0)):
        board.place_token("CO", ("I15", 0))
    return g, g.entity("corporation", "CO")


def test_running_trains_east_west_bonus_is_the_sum_of_both_printed_bonuses(st_louis_to_charleston):
    g, co = st_louis_to_charleston
    route = [{"train": train(g, "4"), "nodes": ["I1-0", "I15-0", "I17-0"]}]
    assert track.route_revenue(g.board, "CO", route, "I").revenue == 50 + 20 + 20
    run = track.route_revenue(g.board, "CO", route, "I", extras=g._route_extras(co))
    assert run.revenue == 50 + 20 + 20 + (20 + 20)  # St. Louis's $20 and Charleston's $20
    # no East area, no bonus
    west_only = [{"train": train(g, "4"), "nodes": ["I1-0", "I15-0"]}]
    assert track.route_revenue(g.board, "CO", west_only, "I", extras=g._route_extras(co)).revenue == 70
    # phase III values: 70 + 20 + 50, the same printed bonuses
    assert track.route_revenue(g.board, "CO", route, "III", extras=g._route_extras(co)).revenue == 140 + 40


def test_running_trains_the_best_route_search_counts_the_east_west_bonus(st_louis_to_charleston):
    g, co = st_louis_to_charleston
    best = track.best_routes(g.board, "CO", [train(g, "4")], "I", extras=g._route_extras(co))
    assert best.complete and best.revenue == 130
    assert set(best.runs[0].nodes) == {"I1-0", "I15-0", "I17-0"}
    assert track.best_routes(g.board, "CO", [train(g, "4")], "I").revenue == 90  # without the bonus data


def test_running_trains_the_engine_offers_and_accepts_the_bonus_route(st_louis_to_charleston):
    g, co = st_louis_to_charleston
    # test setup: CO owns a 4-train
    four = next(t for t in g.trains if t.startswith("4-") and g.owner[t].id == "depot")
    g.j.set(g.owner, four, co)
    (candidate,) = g._route_candidates(co, {"entity": "CO", "entity_type": "corporation"})
    assert sum(r["revenue"] for r in candidate["routes"]) == 130
    assert g.b_route_revenue(co, candidate["routes"]) == 130


def test_running_trains_one_east_area_per_run():
    """Homewood (F20, the PRR's home) lies between two East areas, Pittsburgh (G21) and F22."""
    g = new_game(4)
    if "PRR" not in g.board.holders(("F20", 0)):
        g.board.place_token("PRR", ("F20", 0))
    prr = g.entity("corporation", "PRR")
    route = [{"train": train(g, "4"), "nodes": ["G21-0", "F20-0", "F22-0"]}]
    assert track.route_revenue(g.board, "PRR", route, "I").revenue == 70  # legal without the limit
    with pytest.raises(IllegalAction, match="east_west"):
        track.route_revenue(g.board, "PRR", route, "I", extras=g._route_extras(prr))
    best = track.best_routes(g.board, "PRR", [train(g, "4")], "I", extras=g._route_extras(prr))
    assert best.revenue == 40 and len(best.runs[0].nodes) == 2


def test_running_trains_nm_train_chooses_paid_stops_to_earn_the_bonus():
    g = new_game(4)
    extras = g._route_extras(g.entity("corporation", "IC"))
    pays_two = track.TrainSpec.from_dict({"distance": [{"nodes": ["city", "offboard"], "pay": 2, "visit": 3}]},
                                         name="2/3")
    # St. Louis 50, a city worth 60, Cumberland 20: the best two pay 110; St. Louis and Cumberland with
    # their bonus ($20 + $30) pay 120
    stops = [("I1", "offboard", 50), ("G9", "city", 60), ("H20", "offboard", 20)]
    assert track.run_value(pays_two, stops, ("I1", "H20"), extras) == 120
    # with a city worth 100 the bonus is not worth it
    stops = [("I1", "offboard", 50), ("G9", "city", 100), ("H20", "offboard", 20)]
    assert track.run_value(pays_two, stops, ("I1", "H20"), extras) == 150


def test_running_trains_revenue_markers_and_mail_contract_in_the_search(st_louis_to_charleston):
    g, co = st_louis_to_charleston
    # test setup: CO's meat marker in St. Louis (I1, $30) and CO owns the Mail Contract ($10 a stop)
    g.j.set(g.g, "markers", (("MPC", "I1", "CO", 30),))
    g.j.set(g.closed, "MAIL", False)
    g.j.set(g.owner, "MAIL", co)
    extras = g._route_extras(co)
    assert extras.per_stop == 10
    trains = [train(g, "2"), train(g, "4")]
    best = track.best_routes(g.board, "CO", trains, "I", extras=extras)
    assert best.revenue == 130 + 30 + 3 * 10
    declared = [{**r.as_dict(), "train": trains[[t["id"] for t in trains].index(r.train)]} for r in best.runs]
    assert track.route_revenue(g.board, "CO", declared, "I", extras=extras).revenue == best.revenue
    # another corporation's marker earns CO nothing
    g.j.set(g.g, "markers", (("MPC", "I1", "NYC", 30),))
    assert track.best_routes(g.board, "CO", trains, "I", extras=g._route_extras(co)).revenue == 130 + 30


def test_running_trains_at_ends_bonus_as_18co_states_it():
    """The same mechanism says 18CO §5.8.8.5: a run from an eastern off-board ending in Salt Lake City
    earns $100 (a fixed amount, the two at the run's ends)."""
    slc = track.RouteBonus("east_west", (("B26", 0), ("E27", 0), ("G27", 0), ("J26", 0)), (("E1", 0),),
                           amount=100, at_ends=True)
    extras = track.Bonuses((slc,))
    spec = track.TrainSpec.from_dict(4)
    assert track.run_value(spec, [("E27", "offboard", 30), ("X5", "city", 20), ("E1", "offboard", 40)],
                           ("E27", "E1"), extras) == 190
    assert track.run_value(spec, [("E27", "offboard", 30), ("E1", "city", 40), ("X5", "city", 20)],
                           ("E27", "X5"), extras) == 90


def test_running_trains_18_grand_junction_limits_one_east_and_one_west():
    from compiler.emit.engines import game_class
    data = game_class("18 Grand Junction").DATA
    (bonus,) = data.components_of("revenue_bonus")
    assert bonus["limit_a"] == 1 and bonus["limit_b"] == 1
    assert type(bonus["stops_a"]).__name__ == "Gap"  # which areas are East is on its map, a gap
