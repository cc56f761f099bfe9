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
from tests.engine_helpers import C, P, act, acting
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
