"""Track: the map, tiles, the track graph, tile lays, station tokens and routes.

Generic track machinery for every title: nothing here names a title. The
title's data arrives as plain dicts, shaped as `grammar/README.md` ("Maps
and tiles") describes them:

    tile  {"color": "yellow", "label": "OO",
           "nodes": [{"kind": "city", "revenue": 20, "slots": 1}, ...],
           "paths": [{"a": 0, "b": "n0"}, {"a": "n0", "b": 3}]}
    hex   {"color": "white", "nodes": [...], "paths": [...], "label": "D",
           "terrain": "mountain", "cost": 50, "upgrade_cost": 40,
           "homes": [{"corporation": "DRGW", "node": 0}], "reserved_for": "DRGW",
           "borders": [{"edge": 2, "type": "impassable"},
                       {"edge": 3, "type": "mountain", "cost": 40}]}

An off-board revenue is an int or a map from the phase it applies from to
the amount (`{"2": 10, "4": 40}`: 10 from phase 2, 40 from phase 4 on).

Conventions (those of the 18xx.games engine, so that its logs replay)
---------------------------------------------------------------------
* **Hex ids** are printed coordinates, letters then a number ("E7", "AA12").
  Letters count from A = 0 (then AA, AB, ... as in a spreadsheet), numbers
  from 1. The grid uses *doubled* coordinates: one printed coordinate is the
  x axis, the other the y axis, and neighbours differ by (±2, 0)/(0, ±2)
  along the doubled axis and by (±1, ±1) diagonally. Which printed
  coordinate is x is the title's `axes`: the engine's default puts the
  letter on x; every pointy-hex title in our fixtures (1846, 1880 Romania,
  18CO) puts the number on x, so `Geometry` defaults to "letter" for flat
  maps and "number" for pointy maps. (Sources: the engine's `lib/engine/hex.rb`
  - doubled coordinates, the direction table below, `axes` - and 18CO's
  `AXES = {x: :number, y: :letter}`; checked against the fixtures, where every
  step of a pointy title's route chain keeps the letter and moves the number
  by 2, or moves both by 1.)
* **Edges** are numbered 0-5 clockwise. Flat hexes: 0 is the bottom side
  (x, y+2), then 1 lower-left (x-1, y+1), 2 upper-left (x-1, y-1), 3 top
  (x, y-2), 4 upper-right (x+1, y-1), 5 lower-right (x+1, y+1). Pointy hexes:
  0 lower-left (x-1, y+1), 1 left (x-2, y), 2 upper-left (x-1, y-1),
  3 upper-right (x+1, y-1), 4 right (x+2, y), 5 lower-right (x+1, y+1).
  Edge e faces edge (e + 3) % 6 of the neighbour across it.
* **Rotation** r turns a tile clockwise: the tile's edge e lies on map edge
  (e + r) % 6. Nodes keep their numbers.
* **Tile ids** in actions are "name-copy" ("57-2": the third copy of #57);
  a pre-printed hex's tile is named after the hex ("H12"). **City ids** are
  "tile id-node" ("57-2-0", "H12-0-0"); the engine numbers a tile's parts in
  the order its tile code lists them, which puts nodes first, so its part
  number is our node number. Its middle number for a pre-printed hex is the
  hex's place in the title's hex list, which we do not keep: `Board.city`
  accepts any. **Route nodes** are "hex-node" ("E15-2"); a route's
  `connections` are chains of hexes from one node to the next, each chain in
  either direction, chains in route order.
* **Track identity** (1800 §11.3, 1880 VII.2 and VII.3.5.2, 18CO 5.8.6): a
  piece of track is one side of one hex - every path end at an edge uses
  that (hex, edge), so two paths leaving the same side are the same track,
  and crossing paths with different sides are not. A path between two nodes
  of one tile is its own piece.

Scope: map geometry (`Geometry`), tiles (`Tile`), the map and its state
(`Board`), what a company reaches (`reach`), tile lays (`legal_lays`,
`check_lay`, `Board.lay`), station tokens (`legal_tokens`, `check_token`),
routes (`TrainSpec`, `route_revenue`) and the best-revenue search
(`best_routes`).
"""

from __future__ import annotations

from compiler.runtime.track.tiles import (  # noqa: F401
    COLORS,
    Geometry,
    NODE,
    Node,
    node_id,
    NODE_KINDS,
    node_map,
    NodeRef,
    OFF_MAP_COLORS,
    opposite,
    parse_node_id,
    Path,
    Refusal,
    Tile,
)
from compiler.runtime.track.board import (  # noqa: F401
    Board,
    Border,
    MapHex,
    TrackRules,
)
from compiler.runtime.track.lays import (  # noqa: F401
    check_lay,
    check_token,
    iter_legal_lays,
    judge_lay,
    Lay,
    legal_lays,
    legal_tokens,
    linked,
    Reach,
    reach,
    TokenSpot,
)
from compiler.runtime.track.routes import (  # noqa: F401
    best_routes,
    ROUTE_ANSWERS_KEPT,
    route_revenue,
    RouteSet,
    Run,
)
from compiler.runtime.track.trains import (  # noqa: F401
    Bonuses,
    EVERY_STOP,
    NO_BONUSES,
    OWN_CITY,
    RouteBonus,
    run_value,
    StopLimit,
    TrainPart,
    TrainSpec,
    UNLIMITED_VISITS,
)

__all__ = [
    "Board",
    "Bonuses",
    "Border",
    "COLORS",
    "Geometry",
    "Lay",
    "MapHex",
    "Node",
    "NO_BONUSES",
    "Path",
    "Reach",
    "RouteBonus",
    "RouteSet",
    "Run",
    "StopLimit",
    "Tile",
    "TokenSpot",
    "TrackRules",
    "TrainPart",
    "TrainSpec",
    "best_routes",
    "check_lay",
    "judge_lay",
    "check_token",
    "legal_lays",
    "legal_tokens",
    "node_id",
    "node_map",
    "opposite",
    "parse_node_id",
    "reach",
    "route_revenue",
    "run_value",
]
