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

import bisect
import itertools
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Iterable, Iterator, Mapping, Sequence

from compiler.runtime.errors import IllegalAction

#: Tile colours in upgrade order; a derived upgrade goes one step along.
COLORS = ("white", "yellow", "green", "brown", "gray")
#: Hex colours that never take a tile.
OFF_MAP_COLORS = frozenset({"red", "blue"})
NODE_KINDS = frozenset({"city", "town", "offboard", "junction"})
#: Internal path-end encoding: edges are 0-5, node i is NODE + i.
NODE = 6

NodeRef = tuple[str, int]  # (hex id, node number on the hex's current tile)


def opposite(edge: int) -> int:
    """The edge facing `edge` across the hex side: (edge + 3) % 6."""
    return (edge + 3) % 6


def node_id(ref: NodeRef) -> str:
    """A node as 18xx.games names it in routes: ("E15", 2) -> "E15-2"."""
    return f"{ref[0]}-{ref[1]}"


def parse_node_id(text: str | Sequence[Any]) -> NodeRef:
    """ "E15-2" (or ("E15", 2)) -> ("E15", 2). Raises ValueError when malformed."""
    if not isinstance(text, str):
        hex_id, index = text
        return (str(hex_id), int(index))
    hex_id, _, index = text.rpartition("-")
    if not hex_id or not index.isdigit():
        raise ValueError(f"{text!r} is not a node id like 'E15-2'")
    return (hex_id, int(index))


# ---------------------------------------------------------------- geometry

_STEPS = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}
_HEX_ID = re.compile(r"^([A-Z]+)(\d+)$")


def _letter_index(letters: str) -> int:
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


@dataclass(frozen=True)
class Geometry:
    """How hex ids sit on the grid: `layout` "flat" or "pointy"; `axes`
    "letter" or "number", the printed coordinate that is the x axis
    (default: "letter" for flat, "number" for pointy; see the module notes).

    >>> Geometry("flat").neighbour("C5", 0)
    'C7'
    >>> Geometry("pointy").neighbour("E15", 3)
    'D16'
    """

    layout: str = "flat"
    axes: str | None = None

    def __post_init__(self) -> None:
        if self.layout not in _STEPS:
            raise ValueError(f"layout must be 'flat' or 'pointy', not {self.layout!r}")
        if self.axes is None:
            object.__setattr__(self, "axes", "letter" if self.layout == "flat" else "number")
        if self.axes not in ("letter", "number"):
            raise ValueError(f"axes must be 'letter' or 'number', not {self.axes!r}")

    def xy(self, hex_id: str) -> tuple[int, int]:
        """Doubled grid coordinates of a hex id. Raises ValueError when malformed."""
        match = _HEX_ID.match(hex_id)
        if not match:
            raise ValueError(f"{hex_id!r} is not a hex id like 'E7'")
        letter, number = _letter_index(match.group(1)), int(match.group(2)) - 1
        return (letter, number) if self.axes == "letter" else (number, letter)

    def hex_id(self, x: int, y: int) -> str | None:
        """The hex id at grid point (x, y), or None off the printable range."""
        letter, number = (x, y) if self.axes == "letter" else (y, x)
        if letter < 0 or number < 0:
            return None
        return f"{_letters(letter)}{number + 1}"

    def neighbour(self, hex_id: str, edge: int) -> str | None:
        """The id of the hex across `edge` (whether or not it is on the map)."""
        x, y = self.xy(hex_id)
        dx, dy = _STEPS[self.layout][edge % 6]
        return self.hex_id(x + dx, y + dy)

    def edge_between(self, a: str, b: str) -> int | None:
        """The edge of `a` that faces `b`, or None if they are not neighbours."""
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        try:
            return _STEPS[self.layout].index((bx - ax, by - ay))
        except ValueError:
            return None


# ---------------------------------------------------------------- tiles


@dataclass(frozen=True)
class Node:
    """A revenue location (or a junction) on a tile.

    `kind`: city, town, offboard or junction; `revenue`: an amount, or for a
    phase-dependent value a tuple of (phase it applies from, amount);
    `slots`: station circles (cities).
    """

    kind: str
    revenue: int | tuple[tuple[str, int], ...] = 0
    slots: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Node:
        kind = data.get("kind", "city")
        if kind not in NODE_KINDS:
            raise ValueError(f"node kind must be one of {sorted(NODE_KINDS)}, not {kind!r}")
        revenue = data.get("revenue", 0)
        if isinstance(revenue, Mapping):
            revenue = tuple((str(k), int(v)) for k, v in revenue.items())
        elif not isinstance(revenue, int):
            raise ValueError(f"node revenue must be an amount or a phase map, not {revenue!r}")
        slots = int(data.get("slots", 1 if kind == "city" else 0))
        return cls(kind, revenue, slots)

    def revenue_at(self, phase: str | None, phases: Sequence[str] = ()) -> int:
        """The revenue in `phase`: for a phase map, the amount of the latest
        phase at or before `phase` in `phases` (or, without an order, by
        number). Raises ValueError if `phase` comes before every entry or
        cannot be placed in the order."""
        if isinstance(self.revenue, int):
            return self.revenue
        if phase is None:
            raise ValueError("a phase-dependent revenue needs the phase")
        order = list(phases)
        if order and str(phase) in order and all(k in order for k, _ in self.revenue):
            rank = order.index
            now = rank(str(phase))
        elif all(str(k).isdigit() for k, _ in self.revenue) and str(phase).isdigit():
            rank = int  # type: ignore[assignment]
            now = int(phase)
        elif str(phase) in dict(self.revenue):
            return dict(self.revenue)[str(phase)]
        else:
            raise ValueError(f"cannot place phase {phase!r} among {[k for k, _ in self.revenue]}")
        best: tuple[Any, int] | None = None
        for key, amount in self.revenue:
            at = rank(key)
            if at <= now and (best is None or at >= best[0]):
                best = (at, amount)
        if best is None:
            raise ValueError(f"no revenue given for phase {phase!r} or earlier")
        return best[1]


def _end(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= 5:
            raise ValueError(f"{what}: edge {value} is not 0-5")
        return value
    if isinstance(value, str) and re.fullmatch(r"n\d+", value):
        return NODE + int(value[1:])
    raise ValueError(f"{what}: a path end is an edge 0-5 or a node 'n0', not {value!r}")


@dataclass(frozen=True)
class Path:
    """A piece of track on a tile between two ends `a` and `b`: an edge
    0-5 or a node "n0", "n1", ... `terminal`: a route may not continue
    through the node at its end (red off-board arrows)."""

    a: int | str
    b: int | str
    track: str | None = None
    terminal: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Path:
        return cls(data["a"], data["b"], data.get("track"), bool(data.get("terminal", False)))


@dataclass(frozen=True)
class _Layout:
    """A tile at one rotation, pre-digested for the graph walks."""

    ends: tuple[tuple[int, int], ...]  # per path: its two ends (edges rotated)
    edge_paths: tuple[tuple[int, ...], ...]  # per map edge: paths touching it
    node_paths: tuple[tuple[int, ...], ...]  # per node: paths touching it
    terminal: frozenset[int]  # nodes a route may not pass through
    exits: frozenset[int]


@dataclass(frozen=True)
class Tile:
    """A tile (or what is printed on a map hex): name, colour, nodes, paths,
    label, and `reserved`: (company, node) station circles the tile keeps
    for a company while it lies on the map (1800 §C.2's green Denver #802).
    Build it from the DSL's dict with `Tile.from_dict(name, data)`."""

    name: str
    color: str
    nodes: tuple[Node, ...] = ()
    paths: tuple[Path, ...] = ()
    label: str | None = None
    reserved: tuple[tuple[str, int], ...] = ()
    #: the hash, made once: tiles key the layout, track-map and upgrade caches, asked of at every lay
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.name, self.color, self.label, len(self.nodes), len(self.paths))))

    @classmethod
    def from_dict(cls, name: str, data: Mapping[str, Any]) -> Tile:
        """Raises ValueError for a malformed tile (bad edge, unknown node)."""
        nodes = tuple(Node.from_dict(n) for n in data.get("nodes") or ())
        paths = tuple(Path.from_dict(p) for p in data.get("paths") or ())
        reserved = []
        for slot in data.get("reserved_slots") or ():
            node = int(slot.get("node", 0))
            if not 0 <= node < len(nodes) or nodes[node].kind != "city":
                raise ValueError(f"tile {name}: reserved slot on node {node}, which is not a city of the tile")
            reserved.append((str(slot["corporation"]), node))
        tile = cls(str(name), str(data.get("color", "white")), nodes, paths, data.get("label"), tuple(reserved))
        for path in paths:
            for end in (path.a, path.b):
                code = _end(end, f"tile {name}")
                if code >= NODE and code - NODE >= len(nodes):
                    raise ValueError(f"tile {name}: path end {end!r} names a node it does not have")
        return tile

    def __hash__(self) -> int:
        # tiles key the layout and track-map caches: a cheap hash, consistent
        # with equality (equal tiles share these fields)
        return self._hash

    def count(self, kind: str) -> int:
        return sum(1 for n in self.nodes if n.kind == kind)

    @property
    def cities(self) -> int:
        return self.count("city")

    @property
    def towns(self) -> int:
        return self.count("town")

    def exits(self, rotation: int = 0) -> frozenset[int]:
        """Map edges the tile's track reaches at `rotation`."""
        return _layout(self, rotation).exits

    def rotated_paths(self, rotation: int = 0) -> tuple[tuple[int | str, int | str], ...]:
        """Each path's ends at `rotation`: edges as map edges, nodes as "n0"."""
        show = lambda e: e if e < NODE else f"n{e - NODE}"  # noqa: E731
        return tuple((show(a), show(b)) for a, b in _layout(self, rotation).ends)


@lru_cache(maxsize=None)
def _layout(tile: Tile, rotation: int) -> _Layout:
    def rot(end: int) -> int:
        return end if end >= NODE else (end + rotation) % 6

    ends = tuple((rot(_end(p.a, tile.name)), rot(_end(p.b, tile.name))) for p in tile.paths)
    edge_paths: list[list[int]] = [[] for _ in range(6)]
    node_paths: list[list[int]] = [[] for _ in tile.nodes]
    terminal = {i for i, n in enumerate(tile.nodes) if n.kind == "offboard"}
    for index, (a, b) in enumerate(ends):
        for end in (a, b):
            if end < NODE:
                edge_paths[end].append(index)
            else:
                node_paths[end - NODE].append(index)
                if tile.paths[index].terminal:
                    terminal.add(end - NODE)
    return _Layout(
        ends,
        tuple(tuple(x) for x in edge_paths),
        tuple(tuple(x) for x in node_paths),
        frozenset(terminal),
        frozenset(e for pair in ends for e in pair if e < NODE),
    )


def _other(ends: tuple[int, int], end: int) -> int:
    return ends[1] if ends[0] == end else ends[0]


@lru_cache(maxsize=1 << 16)
@lru_cache(maxsize=None)
def node_map(
    old: Tile, old_rotation: int, new: Tile, new_rotation: int, strict_kinds: bool = True,
    merge: bool = False,
) -> tuple[int, ...] | None:
    """How `new` (at its rotation) keeps the track of `old` (at its): a tuple
    giving, for each node of `old`, the node of `new` that takes its place,
    such that every old path is a path of the new tile; None if there is no
    such map. Different old nodes go to different new nodes, so a brown tile
    may not join two stations' tracks on one city (1800 §11.1, Appendix E).

    With `strict_kinds` a city stays a city and a town a town. Without it
    (an upgrade the chart names) kinds may change; a printed node with no
    track may be dropped (-1), as on 1880 VII.3.1's hexes "showing a black
    dot and a circle" that take a town tile or a city tile; and where the
    new tile has fewer nodes than the old, old nodes may merge into one (18CO's
    Denver tiles: three cities, then two, then one). `merge` allows that
    merging while kinds stay strict (a derived upgrade between tiles of one
    label, see `Board.upgrade_targets`). A function of its arguments alone (tiles are
    immutable values): kept once computed, for the title's whole tile set."""
    old_lay, new_lay = _layout(old, old_rotation), _layout(new, new_rotation)
    have = {frozenset(pair) for pair in new_lay.ends}
    count = len(old.nodes)
    choice = [-1] * count

    def mapped(end: int) -> int:
        return end if end < NODE else NODE + choice[end - NODE]

    def assign(
        i: int, used: frozenset[int], kinds: bool, loose: bool, merge: bool
    ) -> tuple[int, ...] | None:
        if i == count:
            if all(frozenset((mapped(a), mapped(b))) in have for a, b in old_lay.ends):
                return tuple(choice)
            return None
        options = [
            j
            for j in range(len(new.nodes))
            if (merge or j not in used) and (not kinds or new.nodes[j].kind == old.nodes[i].kind)
        ]
        if loose and not old_lay.node_paths[i]:
            options.append(-1)
        for j in options:
            choice[i] = j
            found = assign(i + 1, used | {j} if j >= 0 else used, kinds, loose, merge)
            if found is not None:
                return found
        choice[i] = -1
        return None

    found = assign(0, frozenset(), True, False, False)
    if found is None and merge and len(new.nodes) < len(old.nodes):
        found = assign(0, frozenset(), True, False, True)
    if found is None and not strict_kinds:
        found = assign(0, frozenset(), False, True, False)
        if found is None and len(new.nodes) < len(old.nodes):
            found = assign(0, frozenset(), False, True, True)
    return found


class Refusal(str):
    """Why a lay or a token is refused, with the map clause behind it when
    one is (`source`: ("hex", "B4") for a reserved hex, ("tile", "802") for a
    circle a tile keeps), so that the engine can cite that clause."""

    source: tuple[str, str] | None = None

    def __new__(cls, text: str, source: tuple[str, str] | None = None) -> "Refusal":
        obj = super().__new__(cls, text)
        obj.source = source
        return obj


# ---------------------------------------------------------------- the map


@dataclass(frozen=True)
class Border:
    """A hex side with a rule: `type` "impassable" (no track crosses) or a
    terrain paid once by the first tile whose track crosses it (`cost`)."""

    edge: int
    type: str | None = None
    cost: int = 0


@dataclass(frozen=True)
class MapHex:
    """A hex of the map as printed: its pre-printed tile (named after the
    hex), location name, terrain and costs (`cost` for the first tile,
    `upgrade_cost` for the tile that replaces the pre-printed one), reserved home stations (`homes`:
    (company, node)), `reserved_for` (only that company may lay its first
    tile) and `borders`. `stops_as`: the kind its revenue locations count as
    for a train's distance, where it differs from the node's kind for track
    and stations (1880's blue ports: a city or off-board on the map, a port
    for a plus train's small number, VII.3.5.1). `hex_blocking_homes`: the
    companies of `homes` marked `blocks_hex: true`, before whose home station
    no other company places a station anywhere in the hex (1880 VII.3.4: H16
    and the VRL)."""

    id: str
    tile: Tile
    location: str | None = None
    terrain: str | None = None
    cost: int = 0
    upgrade_cost: int = 0
    homes: tuple[tuple[str, int], ...] = ()
    reserved_for: str | None = None
    borders: tuple[Border, ...] = ()
    stops_as: str | None = None
    hex_blocking_homes: tuple[str, ...] = ()
    #: a hex of several terrains (`terrains: [(type: river, cost: $20), (type: mountain, cost: $60)]`): each
    #: with its cost; `cost` is their sum and `terrain` the first one's type
    terrains: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_dict(cls, hex_id: str, data: Mapping[str, Any]) -> MapHex:
        tile = Tile.from_dict(hex_id, data)
        homes = []
        blocking = []
        for home in data.get("homes") or ():
            if isinstance(home, Mapping):
                homes.append((str(home["corporation"]), int(home.get("node", 0))))
                if home.get("blocks_hex") is True:
                    blocking.append(str(home["corporation"]))
            else:
                homes.append((str(home), 0))
        borders = tuple(
            Border(int(b["edge"]), b.get("type"), int(b.get("cost", 0) or 0))
            for b in data.get("borders") or ()
        )
        terrains = tuple((str(part["type"]), int(part.get("cost", 0) or 0)) for part in data.get("terrains") or ())
        return cls(
            hex_id,
            tile,
            data.get("title") or data.get("location"),
            terrains[0][0] if terrains else data.get("terrain"),
            sum(cost for _, cost in terrains) if terrains else int(data.get("cost", 0) or 0),
            int(data.get("upgrade_cost", 0) or 0),
            tuple(homes),
            data.get("reserved_for"),
            borders,
            data.get("stops_as"),
            tuple(blocking),
            terrains,
        )


@dataclass(frozen=True)
class TrackRules:
    """A title's track-laying policy.

    `off_board`: new track may point at a side with no hex beyond it (1800
    §11.1, 18CO 5.6.3 and 1880 VII.3.1 say no). `dead_end_colors`: colours of
    fixed hexes (red, blue, gray) whose sides without track new track may not
    point at: none in 1800 ("track can run into a blank hex side", §11.1),
    gray in 18CO (5.6.3), blue in 1880 Romania (Odessa's edge, VII.3.1).
    `same_track_upgrades`: an upgrade whose tile keeps exactly the old track
    (the chart's revenue-only upgrades, 1800's #12 to #804 and the Denver
    tiles) may be laid where the company can run on the hex's track; without
    it every upgrade must add track the company reaches.
    `city_value_lays`: a lay that raises the value of a city on the hex needs
    no track the company can reach (18CO 5.6.10: "either the value of a City
    must be increased, or" the new track must be reachable).
    `border_cost_on_connection`: a hexside's printed cost is paid by the lay that joins track on both
    sides of it (18xx.games), not by the first lay whose track points across it.
    `any_exit_reach`: a lay needs the company to reach the hex through one of the new tile's sides, or
    a city of the hex (18xx.games' Tracker#legal_tile_rotation?), not new track of its own.
    `reached_upgrades`: an upgrade needs the upgraded tile reachable from a station, some of its track
    old or new (1880 Romania VII.3.3: "tiles that, after the upgrade, are reachable from one of its own
    station markers"), not new track the company reaches."""

    off_board: bool = False
    dead_end_colors: frozenset[str] = frozenset()
    same_track_upgrades: bool = False
    city_value_lays: bool = False
    border_cost_on_connection: bool = False
    any_exit_reach: bool = False
    reached_upgrades: bool = False


def _items(data: Mapping[str, Any] | Iterable[Mapping[str, Any]] | None) -> list[tuple[str, Any]]:
    if data is None:
        return []
    if isinstance(data, Mapping):
        return [(str(k), v) for k, v in data.items()]
    return [(str(d["key"]), d) for d in data]


@dataclass(frozen=True)
class _Placed:
    tile: Tile
    rotation: int
    copy: int | None  # None: the pre-printed tile


# every state of every board gets a number never used before, so that what
# is worked out from a board's state (what a company reaches) can be kept
# for as long as the board is in that state, and found again after a rollback
_BOARD_VERSIONS = itertools.count(1)


#: derived upgrades (`Board.upgrade_targets`) by (old tile, the title's tiles' token in
#: `_TILE_SETS`), for every board
_DERIVED_UPGRADES: dict[tuple[Tile, int], tuple[str, ...]] = {}
#: each tile set seen (a title's tiles, in order) -> a small number standing for it in the keys above
_TILE_SETS: dict[tuple[Tile, ...], int] = {}
#: the Tile built from each tile dict, by the dict's identity (with the dict and the name, so an
#: identity is never taken for another dict's): a title's engine builds the board of every game from
#: the same dicts of its DATA, and gets the same Tile objects back. The caches keyed by tiles then
#: compare them at once; equal tiles that are different objects compare field by field (a derived
#: upgrade chart asked of 473 tiles, each compared with the 473 of the set, was four fifths of
#: starting a game of 1880 Romania).
_TILES_BY_DICT: dict[int, tuple[Mapping[str, Any], str, "Tile"]] = {}
_TILES_KEPT = 20_000


def _tile_of(name: str, data: Any) -> "Tile":
    if isinstance(data, Tile):
        return data
    kept = _TILES_BY_DICT.get(id(data))
    if kept is not None and kept[0] is data and kept[1] == name:
        return kept[2]
    tile = Tile.from_dict(name, data)
    if len(_TILES_BY_DICT) >= _TILES_KEPT:
        _TILES_BY_DICT.clear()
    _TILES_BY_DICT[id(data)] = (data, name, tile)
    return tile


def _mutates(method):
    """A Board method that changes the board: the board's version moves on
    (before, so nothing is kept for a half-changed board, and after)."""

    def changing(self, *args, **kwargs):
        self.touch()
        try:
            return method(self, *args, **kwargs)
        finally:
            self.touch()

    changing.__name__, changing.__doc__ = method.__name__, method.__doc__
    changing.__wrapped__ = method
    return changing


class Board:
    """The map and what is on it: each hex's tile (pre-printed hexes count as
    tiles) and rotation, station tokens in city slots, home reservations,
    borders paid, and the tile supply.

    `hexes`: hex id -> hex dict (or a list of dicts with "key"); `tiles`:
    tile name -> tile dict; `tile_counts`: name -> copies (None or
    "unlimited": no limit; a name missing from it: none); `upgrades`: the
    upgrade chart, tile name -> names it upgrades to (a hex id names a
    pre-printed hex), or None to derive upgrades (§"Maps and tiles");
    `phases`: phase names in order, to read phase-dependent revenue.
    """

    def __init__(
        self,
        hexes: Mapping[str, Any] | Iterable[Mapping[str, Any]],
        *,
        layout: str = "flat",
        axes: str | None = None,
        tiles: Mapping[str, Any] | Iterable[Mapping[str, Any]] | None = None,
        tile_counts: Mapping[str, int | str | None] | None = None,
        upgrades: Mapping[str, Sequence[str]] | None = None,
        phases: Sequence[str] = (),
        rules: TrackRules | None = None,
    ):
        self.version = next(_BOARD_VERSIONS)
        #: (company, version) -> Reach, for the versions seen lately
        self.reaches: dict[tuple[str, int], Reach] = {}
        #: (company, version, phase) -> the whole map's route graph (`_route_graph`), lately
        self.graphs: dict[tuple[str, int, str | None], _Graph] = {}
        self.geometry = Geometry(layout, axes)
        self.hexes: dict[str, MapHex] = {}
        for hex_id, data in _items(hexes):
            self.geometry.xy(hex_id)
            self.hexes[hex_id] = (
                data if isinstance(data, MapHex) else MapHex.from_dict(hex_id, data)
            )
        self.tiles: dict[str, Tile] = {name: _tile_of(name, data) for name, data in _items(tiles)}
        if tile_counts is None:
            self.counts: dict[str, int | None] = {name: None for name in self.tiles}
        else:
            self.counts = {
                str(k): (None if v in (None, "unlimited") else int(v))
                for k, v in tile_counts.items()
            }
        self.upgrades = (
            None if upgrades is None else {str(k): tuple(v) for k, v in upgrades.items()}
        )
        self.phases = tuple(str(p) for p in phases)
        self.rules = rules or TrackRules()
        self.nbr: dict[str, tuple[str | None, ...]] = {
            h: tuple(
                n if (n := self.geometry.neighbour(h, e)) in self.hexes else None for e in range(6)
            )
            for h in self.hexes
        }
        self.borders: dict[tuple[str, int], Border] = {}
        for h, mh in self.hexes.items():
            for border in mh.borders:
                self.borders[(h, border.edge)] = border
                nb = self.nbr[h][border.edge]
                if nb is not None:
                    self.borders.setdefault((nb, opposite(border.edge)), border)
        self.placed: dict[str, _Placed] = {
            h: _Placed(mh.tile, 0, None) for h, mh in self.hexes.items()
        }
        self.in_use: dict[str, set[int]] = {}
        self.tokens: dict[NodeRef, list[str | None]] = {}
        self.reserved: dict[NodeRef, list[str]] = {}
        #: each company's home city as the tiles now on the map number it: the printed `homes`,
        #: moved with every upgrade (two cities merged into one), reserved or not
        self.home_nodes: dict[str, NodeRef] = {}
        for h, mh in self.hexes.items():
            for company, node in mh.homes:
                self.reserved.setdefault((h, node), []).append(company)
                self.home_nodes[company] = (h, node)
        self.paid_borders: set[tuple[str, int]] = set()
        self._derived: dict[Tile, tuple[str, ...]] = {}
        self._tile_set: int | None = None

    # ------------------------------------------------------------ reading

    def tile_at(self, hex_id: str) -> Tile:
        return self.placed[hex_id].tile

    def rotation(self, hex_id: str) -> int:
        return self.placed[hex_id].rotation

    def layout_at(self, hex_id: str) -> _Layout:
        placed = self.placed[hex_id]
        return _layout(placed.tile, placed.rotation)

    def tile_id(self, hex_id: str) -> str:
        """The 18xx.games id of the hex's tile: "57-2", or "H12-0" pre-printed."""
        placed = self.placed[hex_id]
        return f"{placed.tile.name}-{placed.copy or 0}"

    def city(self, city_id: str) -> NodeRef:
        """The node an 18xx.games city id names ("57-2-0", "H12-0-0").
        Raises ValueError if no hex holds that tile."""
        parts = city_id.rsplit("-", 2)
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            raise ValueError(f"{city_id!r} is not a city id like '57-0-0'")
        name, copy, index = parts[0], int(parts[1]), int(parts[2])
        if name in self.placed and self.placed[name].copy is None:
            return (name, index)
        for h, placed in self.placed.items():
            if placed.tile.name == name and placed.copy == copy:
                return (h, index)
        raise ValueError(f"no hex holds tile {name}-{copy}")

    def city_id(self, ref: NodeRef) -> str:
        return f"{self.tile_id(ref[0])}-{ref[1]}"

    def node(self, ref: NodeRef) -> Node:
        return self.placed[ref[0]].tile.nodes[ref[1]]

    def nodes(self) -> Iterator[NodeRef]:
        for h, placed in self.placed.items():
            for i in range(len(placed.tile.nodes)):
                yield (h, i)

    def available(self, name: str) -> int | None:
        """Copies of tile `name` in the supply (None: unlimited)."""
        if name not in self.counts:
            return 0
        count = self.counts[name]
        return None if count is None else count - len(self.in_use.get(name, ()))

    def revenue(self, ref: NodeRef, phase: str | None) -> int:
        return self.node(ref).revenue_at(phase, self.phases)

    # ------------------------------------------------------------ tokens

    def holders(self, ref: NodeRef) -> tuple[str | None, ...]:
        """The companies in a city's slots (None: an empty slot)."""
        slots = self.node(ref).slots
        held = self.tokens.get(ref, [])
        return tuple(held) + (None,) * (slots - len(held))

    def tokens_of(self, company: str) -> list[NodeRef]:
        return sorted(ref for ref, held in self.tokens.items() if company in held)

    def blocked(self, ref: NodeRef, company: str) -> bool:
        """Every slot of the city holds another company's token (1800 §11.3,
        18CO 5.8.5, 1880 VII.3.4); reservations do not block."""
        node = self.node(ref)
        if node.kind != "city":
            return False
        held = self.holders(ref)
        return bool(held) and None not in held and company not in held

    def passable(self, ref: NodeRef, company: str) -> bool:
        """A route or a track walk may continue through this node."""
        node = self.node(ref)
        if node.kind == "junction":
            return True
        if ref[1] in self.layout_at(ref[0]).terminal:
            return False
        return not self.blocked(ref, company)

    def reservations(self, ref: NodeRef) -> list[str]:
        """Companies a city's empty circles are kept for: home reservations
        (they move with upgrades), and the circles the hex's current tile
        keeps for a company with no token in the hex yet (they go with the
        tile: an upgrade to a tile without them opens the circle to all)."""
        out = list(self.reserved.get(ref, []))
        hex_id = ref[0]
        for company, node in self.placed[hex_id].tile.reserved:
            if node == ref[1] and not any(
                company in held for (h, _), held in self.tokens.items() if h == hex_id
            ):
                out.append(company)
        return out

    def free_slot(self, ref: NodeRef, company: str) -> int | None:
        """The slot a token of `company` would take, or None: empty slots
        left after other companies' reservations."""
        held = self.holders(ref)
        empty = [i for i, c in enumerate(held) if c is None]
        others = [c for c in self.reservations(ref) if c != company]
        if len(empty) <= len(others):
            return None
        return empty[0]

    @_mutates
    def place_token(self, company: str, ref: NodeRef, slot: int | None = None, beside: bool = False) -> int:
        """Put a token in a city slot (no legality check; see `check_token`).
        Clears the company's reservation there. Raises ValueError if the
        slot is taken or the node is not a city. Returns the slot.
        `beside`: the token goes beside the city's circles, as one more slot
        (18 Grand Junction's Brice Melville)."""
        node = self.node(ref)
        if node.kind != "city":
            raise ValueError(f"{node_id(ref)} is not a city")
        held = list(self.holders(ref))
        if beside:
            held.append(None)
            slot = len(held) - 1
        if slot is None:
            slot = next((i for i, c in enumerate(held) if c is None), None)
        if slot is None or not 0 <= slot < len(held) or held[slot] is not None:
            raise ValueError(f"no free slot {slot} in {node_id(ref)}")
        held[slot] = company
        self.tokens[ref] = held
        if company in self.reserved.get(ref, []):
            self.reserved[ref].remove(company)
        return slot

    @_mutates
    def remove_token(self, company: str, ref: NodeRef) -> None:
        held = list(self.holders(ref))
        held[held.index(company)] = None
        self.tokens[ref] = held

    @_mutates
    def remove_borders(self, type: str | None = None) -> None:
        """Take borders off the map (all, or those of one `type`), as a
        title's event does (1880 Romania's border opens after the yellow phase)."""
        self.borders = {
            k: b for k, b in self.borders.items() if type is not None and b.type != type
        }

    @_mutates
    def open_border(self, hex_id: str, edge: int) -> None:
        """Take the border off one hex side (both hexes' views of it): track now crosses it."""
        self.borders.pop((hex_id, edge), None)
        nb = self.nbr[hex_id][edge]
        if nb is not None:
            self.borders.pop((nb, opposite(edge)), None)

    def printed_border(self, hex_id: str, edge: int) -> Border | None:
        """The border printed on a hex side (from either hex), whether or not it is still on the map."""
        for b in self.hexes[hex_id].borders:
            if b.edge == edge:
                return b
        nb = self.nbr[hex_id][edge]
        if nb is not None:
            for b in self.hexes[nb].borders:
                if b.edge == opposite(edge):
                    return b
        return None

    @_mutates
    def unreserve(self, company: str) -> None:
        """Drop the company's home reservations (e.g. 18CO's "unreserve" event)."""
        for held in self.reserved.values():
            while company in held:
                held.remove(company)

    # ------------------------------------------------------------ laying

    def upgrade_targets(self, old: Tile) -> tuple[str, ...]:
        """Tile names that may replace `old`: the chart's entry when the chart
        has one; otherwise (no chart, or a white hex) the derived upgrades:
        the next colour, the same label, the same numbers of cities and towns
        and all of the old track kept under some rotation. Between tiles that
        carry one label (a named city's own tiles: 18CO's Denver "D", three
        cities, then two, then one) the number of cities may change: cities
        may merge or split, as long as all old track is kept."""
        if self.upgrades is not None and old.name in self.upgrades:
            return self.upgrades[old.name]
        if self.upgrades is not None and old.color != "white":
            return ()
        if old not in self._derived:
            if self._tile_set is None:
                self._tile_set = _TILE_SETS.setdefault(tuple(self.tiles.values()), len(_TILE_SETS))
            # a function of the old tile and the title's tiles: kept for every game of the title
            key = (old, self._tile_set)
            found = _DERIVED_UPGRADES.get(key)
            if found is None:
                nxt = COLORS[COLORS.index(old.color) + 1] if old.color in COLORS[:-1] else None
                found = _DERIVED_UPGRADES[key] = tuple(
                    t.name
                    for t in self.tiles.values()
                    if t.color == nxt
                    and t.label == old.label
                    and (t.cities == old.cities or self.merges(old, t))
                    and t.towns == old.towns
                    and t.count("offboard") == old.count("offboard")
                    and any(node_map(old, 0, t, r, merge=self.merges(old, t)) is not None for r in range(6))
                )
            self._derived[old] = found
        return self._derived[old]

    def merges(self, old: Tile, new: Tile) -> bool:
        """Whether a derived upgrade of `old` to `new` may change the number
        of cities (merging or splitting them): both carry the same label, so
        they are one named city's tiles (see `upgrade_targets`)."""
        return bool(old.label) and old.label == new.label

    @_mutates
    def lay(
        self,
        hex_id: str,
        tile: str | Tile,
        rotation: int,
        copy: int | None = None,
        mapping: tuple[int, ...] | None = None,
    ) -> int:
        """Put a tile on a hex (no legality check; see `check_lay`): the old
        tile goes back to the supply, tokens and reservations move to the
        nodes that replace theirs. Raises ValueError if the supply has no
        such copy or the new tile cannot keep the old track. Returns the copy."""
        new = tile if isinstance(tile, Tile) else self.tiles[tile]
        old = self.placed[hex_id]
        if mapping is None:
            mapping = node_map(old.tile, old.rotation, new, rotation % 6)
            if mapping is None:
                mapping = node_map(old.tile, old.rotation, new, rotation % 6, strict_kinds=False)
            if mapping is None:
                raise ValueError(
                    f"{new.name} at rotation {rotation} does not keep the track on {hex_id}"
                )
        if self._drops_station(hex_id, mapping):
            raise ValueError(f"{new.name} would remove a station or reservation on {hex_id}")
        copy = self._take(new.name, copy)
        if old.copy is not None:
            self.in_use[old.tile.name].discard(old.copy)
        self._move_stations(hex_id, mapping, new)
        self.placed[hex_id] = _Placed(new, rotation % 6, copy)
        for f in _layout(new, rotation % 6).exits:
            if (hex_id, f) in self.borders and not (
                    self.rules.border_cost_on_connection and (self.nbr[hex_id][f] is None
                                                           or opposite(f) not in self.layout_at(self.nbr[hex_id][f]).exits)):
                self.paid_borders.add(self._border_key(hex_id, f))
        return copy

    def _drops_station(self, hex_id: str, mapping: Sequence[int]) -> bool:
        return any(
            j < 0 and (any(self.tokens.get((hex_id, i), ())) or self.reserved.get((hex_id, i)))
            for i, j in enumerate(mapping)
        )

    def _take(self, name: str, copy: int | None) -> int:
        used = self.in_use.setdefault(name, set())
        limit = self.counts.get(name, 0)
        if copy is None:
            copy = next(i for i in itertools.count() if i not in used)
        if copy in used or (limit is not None and copy >= limit):
            raise ValueError(f"tile {name}-{copy} is not in the supply")
        used.add(copy)
        return copy

    def _move_stations(self, hex_id: str, mapping: Sequence[int], new: Tile) -> None:
        tokens = {
            i: self.tokens.pop((hex_id, i))
            for i in range(len(mapping))
            if (hex_id, i) in self.tokens
        }
        reserved = {
            i: self.reserved.pop((hex_id, i))
            for i in range(len(mapping))
            if (hex_id, i) in self.reserved
        }
        for i, held in tokens.items():
            j = mapping[i]
            if j < 0:
                continue
            merged = [c for c in self.tokens.get((hex_id, j), []) + held if c is not None]
            slots = max(new.nodes[j].slots, len(merged))
            self.tokens[(hex_id, j)] = merged + [None] * (slots - len(merged))
        for i, held in reserved.items():
            if mapping[i] >= 0:
                self.reserved.setdefault((hex_id, mapping[i]), []).extend(held)
        for company, (h, i) in list(self.home_nodes.items()):
            if h == hex_id and i < len(mapping) and mapping[i] >= 0:
                self.home_nodes[company] = (h, mapping[i])

    def _border_key(self, hex_id: str, edge: int) -> tuple[str, int]:
        nb = self.nbr[hex_id][edge]
        if nb is None:
            return (hex_id, edge)
        return min((hex_id, edge), (nb, opposite(edge)))

    @contextmanager
    def _trial(
        self, hex_id: str, tile: Tile, rotation: int, mapping: Sequence[int]
    ) -> Iterator[None]:
        saved = (
            self.placed[hex_id],
            dict(self.tokens),
            {k: list(v) for k, v in self.reserved.items()},
            dict(self.home_nodes),
            self.version,
        )
        self.touch()
        self._move_stations(hex_id, mapping, tile)
        self.placed[hex_id] = _Placed(tile, rotation, None)
        self.touch()
        try:
            yield
        finally:
            self.placed[hex_id], self.tokens, self.reserved, self.home_nodes, self.version = saved

    # ------------------------------------------------------------ state

    def snapshot(self) -> dict[str, Any]:
        """The mutable state, to restore after a refused action."""
        return {
            "placed": dict(self.placed),
            "in_use": {k: set(v) for k, v in self.in_use.items()},
            "tokens": {k: list(v) for k, v in self.tokens.items()},
            "reserved": {k: list(v) for k, v in self.reserved.items()},
            "home_nodes": dict(self.home_nodes),
            "paid_borders": set(self.paid_borders),
            "borders": dict(self.borders),
            "version": self.version,
        }

    def restore(self, snap: Mapping[str, Any]) -> None:
        """Put the board back in a `snapshot`'s state (and version)."""
        self.placed = dict(snap["placed"])
        self.in_use = {k: set(v) for k, v in snap["in_use"].items()}
        self.tokens = {k: list(v) for k, v in snap["tokens"].items()}
        self.reserved = {k: list(v) for k, v in snap["reserved"].items()}
        self.home_nodes = dict(snap["home_nodes"])
        self.paid_borders = set(snap["paid_borders"])
        self.borders = dict(snap["borders"])
        self.version = snap["version"]

    def touch(self) -> None:
        """The board has changed (or is about to): what was worked out from
        its state before no longer applies. Who changes the board's
        attributes directly (not through its methods) calls this."""
        self.version = next(_BOARD_VERSIONS)


# ---------------------------------------------------------------- reach


@dataclass(frozen=True)
class Reach:
    """What a company reaches from its tokens without passing a city filled
    by other companies' tokens (it may enter one) or an off-board area.

    `nodes`: nodes reached; `entries`: (hex, edge) sides through which the
    company's track arrives at a hex from its neighbour; `paths`: (hex, path
    number) of track the company can run on."""

    company: str
    nodes: frozenset[NodeRef]
    entries: frozenset[tuple[str, int]]
    paths: frozenset[tuple[str, int]]

    @property
    def hexes(self) -> frozenset[str]:
        return frozenset(h for h, _ in self.nodes) | frozenset(h for h, _ in self.entries)

    def entries_in(self, hex_id: str) -> frozenset[int]:
        """The sides by which the company's track enters `hex_id`."""
        return self._by_hex()[0].get(hex_id, frozenset())

    def nodes_in(self, hex_id: str) -> frozenset[int]:
        """The nodes of `hex_id` the company reaches."""
        return self._by_hex()[1].get(hex_id, frozenset())

    def paths_in(self, hex_id: str) -> frozenset[int]:
        """The paths of `hex_id`'s tile the company can run on."""
        return self._by_hex()[2].get(hex_id, frozenset())

    def _by_hex(self) -> tuple[dict[str, frozenset[int]], ...]:
        # entries, nodes and paths by hex, worked out once (a lay is judged hex by hex)
        found = self.__dict__.get("_index")
        if found is None:
            found = tuple(_group(pairs) for pairs in (self.entries, self.nodes, self.paths))
            object.__setattr__(self, "_index", found)
        return found


def _group(pairs: Iterable[tuple[str, int]]) -> dict[str, frozenset[int]]:
    grouped: dict[str, set[int]] = {}
    for h, x in pairs:
        grouped.setdefault(h, set()).add(x)
    return {h: frozenset(xs) for h, xs in grouped.items()}


def reach(board: Board, company: str) -> Reach:
    """Walk the track from every token of `company` (1800 §11.1-§11.2,
    18CO 5.7.3, 1880 VII.3.1/VII.3.4). Kept per board version: asked again
    of an unchanged board, the walk is not repeated."""
    key = (company, board.version)
    found = board.reaches.get(key)
    if found is None:
        if len(board.reaches) >= _REACHES_KEPT:
            board.reaches.clear()
        found = board.reaches[key] = _walk(board, company)
    return found


# how many walks a board keeps
_REACHES_KEPT = 512


def _walk(board: Board, company: str) -> Reach:
    nodes: set[NodeRef] = set()
    expanded: set[NodeRef] = set()
    entries: set[tuple[str, int]] = set()
    paths: set[tuple[str, int]] = set()
    starts = set(board.tokens_of(company))
    stack: list[tuple[str, str, int]] = [("n", h, i) for h, i in starts]

    while stack:
        what, h, x = stack.pop()
        if what == "n":
            ref = (h, x)
            nodes.add(ref)
            if ref in expanded or not (ref in starts or board.passable(ref, company)):
                continue
            expanded.add(ref)
            lay = board.layout_at(h)
            for p in lay.node_paths[x]:
                paths.add((h, p))
                other = _other(lay.ends[p], NODE + x)
                stack.append(("n", h, other - NODE) if other >= NODE else ("x", h, other))
        elif what == "x":  # leaving hex h through edge x
            nb = board.nbr[h][x]
            border = board.borders.get((h, x))
            if nb is None or (border is not None and border.type == "impassable"):
                continue
            e = opposite(x)
            if (nb, e) in entries:
                continue
            entries.add((nb, e))
            lay = board.layout_at(nb)
            for p in lay.edge_paths[e]:
                paths.add((nb, p))
                other = _other(lay.ends[p], e)
                stack.append(("n", nb, other - NODE) if other >= NODE else ("x", nb, other))
    return Reach(company, frozenset(nodes), frozenset(entries), frozenset(paths))


def linked(board: Board, starts: Iterable[NodeRef]) -> frozenset[NodeRef]:
    """The nodes joined by track to any of `starts`, whoever's tokens fill
    the cities between (a physical connection, not a route: 1880 VII.3.7);
    a route's dead end (a terminal node, an off-board area) is reached but
    not passed."""
    starts = set(starts)
    seen: set[NodeRef] = set()
    entries: set[tuple[str, int]] = set()
    stack: list[tuple[str, str, int]] = [("n", h, i) for h, i in starts]
    while stack:
        what, h, x = stack.pop()
        if what == "n":
            ref = (h, x)
            if ref in seen:
                continue
            seen.add(ref)
            lay = board.layout_at(h)
            if ref not in starts and (x in lay.terminal or board.node(ref).kind == "offboard"):
                continue
            for p in lay.node_paths[x]:
                other = _other(lay.ends[p], NODE + x)
                stack.append(("n", h, other - NODE) if other >= NODE else ("x", h, other))
        else:  # leaving hex h through edge x
            nb = board.nbr[h][x]
            border = board.borders.get((h, x))
            if nb is None or (border is not None and border.type == "impassable"):
                continue
            e = opposite(x)
            if (nb, e) in entries:
                continue
            entries.add((nb, e))
            lay = board.layout_at(nb)
            for p in lay.edge_paths[e]:
                other = _other(lay.ends[p], e)
                stack.append(("n", nb, other - NODE) if other >= NODE else ("x", nb, other))
    return frozenset(seen)


# ---------------------------------------------------------------- tile lays


@dataclass(frozen=True)
class Lay:
    """A legal tile lay: `tile` on `hex` at `rotation`, replacing `replaces`;
    `cost` the terrain and border costs in the title's money; `upgrade`
    whether it replaces a laid or pre-printed non-white tile; `mapping` the
    old nodes' new numbers (tokens follow them)."""

    hex: str
    tile: str
    rotation: int
    cost: int = 0
    upgrade: bool = False
    replaces: str = ""
    mapping: tuple[int, ...] = ()
    borders: tuple[tuple[str, int], ...] = ()
    new_exits: tuple[int, ...] = ()
    crossed: tuple[tuple[str, int], ...] = ()

    def action(self, entity: str, copy: int | None = None) -> dict[str, Any]:
        """The lay as an 18xx.games `lay_tile` action."""
        return {
            "type": "lay_tile",
            "entity": entity,
            "entity_type": "corporation",
            "hex": self.hex,
            "tile": f"{self.tile}-{copy or 0}",
            "rotation": self.rotation,
        }


def legal_lays(
    board: Board,
    company: str,
    colors: Iterable[str],
    *,
    cash: int | None = None,
    hexes: Iterable[str] | None = None,
) -> list[Lay]:
    """Every legal (hex, tile, rotation) for `company` now (1800 §11.1,
    Appendix E; 1880 VII.3.1/VII.3.3; 18CO 5.6): tiles of the phase's
    `colors`, from the upgrade chart or derived, in the supply, keeping all
    old track, with no track off the board (see `TrackRules`), some new
    track reachable from the company's tokens, reserved hexes honoured and
    (if `cash` is given) affordable; `hexes` limits the search to those
    hexes. Ordered by hex, tile, rotation."""
    colors = frozenset(colors)
    seen = reach(board, company)
    near = seen.hexes
    if board.rules.city_value_lays:
        # a lay raising a city's value needs no route (18CO 5.6.10): every hex with a city is a candidate
        near = near | frozenset(h for h in board.hexes if any(n.kind == "city" for n in board.tile_at(h).nodes))
    candidates = near if hexes is None else frozenset(hexes) & near
    return list(_iter_lays(board, company, colors, seen, cash, candidates))


def iter_legal_lays(
    board: Board,
    company: str,
    colors: Iterable[str],
    *,
    cash: int | None = None,
    exhaustive: bool = False,
) -> Iterator[Lay]:
    """`legal_lays`, one at a time (to stop at the first where only its existence matters);
    `exhaustive` judges every (hex, tile, rotation) (the test oracle, see `_iter_lays`)."""
    seen = reach(board, company)
    near = seen.hexes
    if board.rules.city_value_lays:
        near = near | frozenset(h for h in board.hexes if any(n.kind == "city" for n in board.tile_at(h).nodes))
    return _iter_lays(board, company, frozenset(colors), seen, cash, near, exhaustive)


def _iter_lays(board: Board, company: str, colors: frozenset[str], seen: "Reach", cash: int | None,
               candidates: Iterable[str], exhaustive: bool = False) -> Iterator[Lay]:
    """The legal lays on `candidates`, each (hex, tile, rotation) judged by `_judge`. Unless
    `exhaustive`, the triples `_judge` would refuse whatever the state beyond the hex's own tile (an
    off-board area, a tile of a colour the phase does not allow or none left in the supply, a
    rotation that does not keep the old track: `_keeps_track`) are not judged; the lays are the same
    (the exhaustive listing is the test oracle)."""
    for h in sorted(candidates):
        if h not in board.hexes:
            continue
        old = board.placed[h]
        if not exhaustive and old.tile.color in OFF_MAP_COLORS:
            continue
        for name in sorted(set(board.upgrade_targets(old.tile))):
            if exhaustive:
                rotations: Iterable[int] = range(6)
            else:
                tile = board.tiles.get(name)
                if tile is None or tile.color not in colors or board.available(name) == 0:
                    continue
                rotations = _keeps_track(board, old.tile, old.rotation, tile, name)
            for rotation in rotations:
                verdict = _judge(board, company, h, name, rotation, colors, seen, cash)
                if isinstance(verdict, Lay):
                    yield verdict


def _keeps_track(board: Board, old: Tile, old_rotation: int, tile: Tile, name: str) -> tuple[int, ...]:
    """The rotations at which `tile` keeps the track of `old` (at `old_rotation`) as `_judge`
    maps it (a lay outside a private's special power): a function of the tiles and of the
    board's fixed rules (its upgrade chart, `merges`)."""
    loose = name in (board.upgrades or {}).get(old.name, ())
    return _rotations_keeping(old, old_rotation, tile, loose, board.merges(old, tile))


@lru_cache(maxsize=None)
def _rotations_keeping(old: Tile, old_rotation: int, tile: Tile, loose: bool, merge: bool) -> tuple[int, ...]:
    """`_keeps_track`'s answer, a function of the tiles alone: worked out once per title."""
    return tuple(r for r in range(6) if node_map(old, old_rotation, tile, r, merge=merge) is not None
                 or (loose and node_map(old, old_rotation, tile, r, strict_kinds=False) is not None))


def check_lay(
    board: Board,
    company: str,
    hex_id: str,
    tile: str,
    rotation: int,
    colors: Iterable[str],
    *,
    cash: int | None = None,
    reachable: bool = True,
    crossable: frozenset[str] = frozenset(),
    special: frozenset[str] = frozenset(),
    special_from: str | None = None,
) -> Lay:
    """The `Lay` if laying `tile` on `hex_id` at `rotation` is legal for
    `company`; raises IllegalAction saying why not. `reachable=False` (a
    private's tile-lay ability) waives the need for new track the company
    can reach from its tokens. `crossable`: border types this company may
    run track across (1880 P2's dotted border, II.3.1); the lay lists the
    borders it crosses in `crossed`. `special` (with `special_from`, a
    colour): tiles that may replace a tile of that colour whatever the
    phase and the upgrade chart say, its towns becoming cities (18CO's
    GJGR: a yellow town upgraded to a green city); old track still stays."""
    tile = tile.rsplit("-", 1)[0] if tile not in board.tiles and "-" in tile else tile
    verdict = _judge(
        board, company, hex_id, tile, rotation, frozenset(colors), reach(board, company), cash,
        reachable=reachable, crossable=crossable, special=special, special_from=special_from,
    )
    if isinstance(verdict, str):
        raise IllegalAction(verdict, source=getattr(verdict, "source", None))
    return verdict


def _judge(
    board: Board,
    company: str,
    h: str,
    name: str,
    rotation: int,
    colors: frozenset[str],
    seen: Reach,
    cash: int | None,
    *,
    reachable: bool = True,
    crossable: frozenset[str] = frozenset(),
    special: frozenset[str] = frozenset(),
    special_from: str | None = None,
) -> Lay | str:
    if h not in board.hexes:
        return f"{h} is not on the map"
    if not isinstance(rotation, int) or not 0 <= rotation <= 5:
        return f"rotation must be 0-5, not {rotation!r}"
    mh = board.hexes[h]
    old = board.placed[h]
    if old.tile.color in OFF_MAP_COLORS:
        return f"{h} is an off-board area; no tile may be laid there"
    tile = board.tiles.get(name)
    if tile is None:
        return f"there is no tile #{name}"
    label = f"#{name} at rotation {rotation}"
    special_lay = name in special and special_from is not None and old.tile.color == special_from
    if special_lay:
        colors = colors | {tile.color}
    if tile.color not in colors:
        allowed = ", ".join(c for c in COLORS if c in colors)
        return f"#{name} is a {tile.color} tile; this phase allows {allowed} tiles"
    targets = board.upgrade_targets(old.tile)
    if special_lay:
        targets = tuple(targets) + (name,)
    if name not in targets:
        what = "the printed hex" if old.copy is None else f"#{old.tile.name}"
        chart = ("table", "upgrades") if board.upgrades is not None else None
        if not targets:
            return Refusal(f"{what} on {h} cannot be replaced", chart)
        return Refusal(f"#{name} cannot replace {what} on {h} (it may become #{', #'.join(targets)})", chart)
    if board.available(name) == 0:
        return Refusal(f"no #{name} tile is left in the supply", ("table", "tile_counts"))
    first = old.tile.color == "white"
    if not first and old.copy is not None:
        # a hex's printed label stays with it under unlabelled tiles (Denver's
        # "D" under a #5): an upgrade of a laid tile keeps the label (1800
        # §11.1: no #12 in Denver); a printed tile upgrades as its chart row says
        held = old.tile.label or mh.tile.label
        if (tile.label or held) and tile.label != held:
            return f"#{name} ({tile.label or 'no label'}) cannot replace a tile labelled {held or 'nothing'} on {h}"
    if first and mh.reserved_for and mh.reserved_for != company:
        return Refusal(f"{h} is reserved for {mh.reserved_for}; only it may lay the first tile there", ("hex", h))
    mapping = node_map(old.tile, old.rotation, tile, rotation, merge=board.merges(old.tile, tile))
    if mapping is None and (special_lay or name in (board.upgrades or {}).get(old.tile.name, ())):
        mapping = node_map(old.tile, old.rotation, tile, rotation, strict_kinds=False)
    if mapping is None or board._drops_station(h, mapping):
        return f"{label} does not keep the existing track and stations on {h}"
    old_lay, new_lay = _layout(old.tile, old.rotation), _layout(tile, rotation)
    new_exits = new_lay.exits - old_lay.exits
    # terrain is paid once: a first tile pays the hex's cost, the tile replacing a pre-printed one
    # its upgrade cost (Detroit's river, 1846), the upgrade of a laid tile nothing
    cost = mh.cost if first else (mh.upgrade_cost if old.copy is None else 0)
    paid: list[tuple[str, int]] = []
    crossed: list[tuple[str, int]] = []
    for f in sorted(new_exits):
        nb = board.nbr[h][f]
        border = board.borders.get((h, f))
        if nb is None:
            if not board.rules.off_board:
                return f"{label} runs track off the board at edge {f} of {h}"
            continue
        if border is not None and border.type in crossable:
            crossed.append((h, f))
        elif border is not None and border.type == "impassable":
            return f"{label} runs track across the impassable border at edge {f} of {h}"
        nb_tile = board.placed[nb].tile
        if (
            nb_tile.color in board.rules.dead_end_colors
            and opposite(f) not in board.layout_at(nb).exits
        ):
            return f"{label} runs track into a side of {nb} that has no track"
        if border is not None and border.cost and board._border_key(h, f) not in board.paid_borders and not (
                board.rules.border_cost_on_connection and opposite(f) not in board.layout_at(nb).exits):
            cost += border.cost
            paid.append(board._border_key(h, f))
    if reachable and not _connects(board, company, h, tile, rotation, mapping, seen,
                                   any_path=board.rules.reached_upgrades and not first) and not (
        board.rules.city_value_lays and _raises_a_city(old.tile, tile, mapping)
    ) and not (
        board.rules.same_track_upgrades
        and not first
        and _same_track(old_lay, new_lay, mapping)
        and bool(seen.paths_in(h))
    ) and not (
        board.rules.any_exit_reach
        and (bool(seen.entries_in(h) & new_lay.exits) or bool(seen.nodes_in(h)))
    ):
        return f"{label} adds no new track that {company} can reach from its tokens"
    if cash is not None and cost > cash:
        return f"{label} costs {cost}; {company} has {cash}"
    return Lay(h, name, rotation, cost, not first, old.tile.name, mapping, tuple(paid),
               tuple(sorted(new_exits)), tuple(crossed))


def _raises_a_city(old: Tile, new: Tile, mapping: Sequence[int]) -> bool:
    """Some city of `old` becomes a city of `new` with a higher fixed value
    (a printed city with no value counts as 0)."""
    for i, node in enumerate(old.nodes):
        j = mapping[i] if i < len(mapping) else -1
        if node.kind != "city" or j < 0 or new.nodes[j].kind != "city":
            continue
        before, after = node.revenue, new.nodes[j].revenue
        if isinstance(before, int) and isinstance(after, int) and after > before:
            return True
    return False


def _same_track(old_lay: _Layout, new_lay: _Layout, mapping: Sequence[int]) -> bool:
    """The new tile's track is exactly the old tile's (its nodes renumbered by `mapping`)."""

    def mapped(end: int) -> int:
        return end if end < NODE else NODE + mapping[end - NODE]

    old_paths = {frozenset((mapped(a), mapped(b))) for a, b in old_lay.ends}
    return old_paths == {frozenset(pair) for pair in new_lay.ends}


def _connects(
    board: Board,
    company: str,
    h: str,
    tile: Tile,
    rotation: int,
    mapping: tuple[int, ...],
    seen: Reach,
    *,
    any_path: bool = False,
) -> bool:
    """Some path of `tile` that the old tile lacked is reachable by the
    company once the tile is laid (1800 §11.1: "at least one track on the
    tile must continue a path, unblocked ..., back to a token"); with
    `any_path`, some path of `tile`, old or new (`TrackRules.reached_upgrades`)."""
    old = board.placed[h]
    old_lay, lay = _layout(old.tile, old.rotation), _layout(tile, rotation)

    def mapped(end: int) -> int:
        return end if end < NODE else NODE + mapping[end - NODE]

    kept = {frozenset((mapped(a), mapped(b))) for a, b in old_lay.ends}
    new_paths = {p for p, (a, b) in enumerate(lay.ends)
                 if any_path or frozenset((a, b)) not in kept}
    if not new_paths:
        return False
    holders: dict[int, list[str | None]] = {}
    for i, j in enumerate(mapping):
        if j >= 0 and (h, i) in board.tokens:
            holders[j] = board.tokens[(h, i)]
    own = {j for j, held in holders.items() if company in held}

    def passable(j: int) -> bool:
        node = tile.nodes[j]
        if node.kind == "junction":
            return True
        if j in lay.terminal:
            return False
        held = holders.get(j, [])
        return not (
            node.kind == "city"
            and len(held) >= node.slots
            and None not in held
            and company not in held
            and held
        )

    entries = seen.entries_in(h)
    stack: list[tuple[str, int]] = [("e", e) for e in entries]
    stack += [("n", mapping[i]) for i in seen.nodes_in(h) if mapping[i] >= 0]
    done: set[tuple[str, int]] = set()
    touched: set[int] = set()
    left: set[int] = set()  # the edges the walk leaves the hex by
    while stack:
        item = stack.pop()
        if item in done:
            continue
        done.add(item)
        what, x = item
        if what == "e":
            ways = lay.edge_paths[x]
            start = x
        else:
            if x not in own and not passable(x):
                continue
            ways = lay.node_paths[x]
            start = NODE + x
        for p in ways:
            touched.add(p)
            other = _other(lay.ends[p], start)
            if other >= NODE:
                stack.append(("n", other - NODE))
            else:
                left.add(other)
    if touched & new_paths:
        return True
    # A new exit may meet track that loops back to this hex: walk it for real. Only track the
    # company did not reach before can (the rest of the map is as it was, and what the company
    # reached from it came into this hex by `entries`): track beyond a side the walk leaves by
    # that no walk entered from this hex (an old path reached now, through a city the new tile
    # opens).
    loops = [
        f
        for f in lay.exits - entries
        if (nb := board.nbr[h][f]) is not None and opposite(f) in board.layout_at(nb).exits
    ]
    if not loops:
        return False
    if not any((nb := board.nbr[h][x]) is not None and (nb, opposite(x)) not in seen.entries for x in left):
        return False
    with board._trial(h, tile, rotation, mapping):
        after = reach(board, company)
    return any((h, p) in after.paths for p in new_paths)


# ---------------------------------------------------------------- station tokens


@dataclass(frozen=True)
class TokenSpot:
    """A legal station: city `node` on `hex`, slot `slot`; `city` its
    18xx.games id."""

    hex: str
    node: int
    slot: int
    city: str

    def action(self, entity: str) -> dict[str, Any]:
        """The placement as an 18xx.games `place_token` action."""
        return {
            "type": "place_token",
            "entity": entity,
            "entity_type": "corporation",
            "city": self.city,
            "slot": self.slot,
        }


def legal_tokens(board: Board, company: str) -> list[TokenSpot]:
    """Cities where `company` may place a station token now (1800 §11.2,
    18CO 5.7, 1880 VII.3.4): reachable over unblocked track, a free slot
    after other companies' reservations, and no token of the company in the
    hex already."""
    out = []
    for ref in sorted(reach(board, company).nodes):
        verdict = _token_verdict(board, company, ref, reachable=True)
        if isinstance(verdict, TokenSpot):
            out.append(verdict)
    return out


def check_token(board: Board, company: str, ref: NodeRef | str, *, home: bool = False) -> TokenSpot:
    """The `TokenSpot` if `company` may place a token in `ref` (a NodeRef, a
    route node id "E15-2" or a city id "57-0-0"); raises IllegalAction.
    `home`: a home station, which needs no track connection."""
    if isinstance(ref, str):
        try:
            ref = board.city(ref) if ref.count("-") == 2 else parse_node_id(ref)
        except ValueError as err:
            raise IllegalAction(str(err)) from None
    if ref[0] not in board.hexes or not 0 <= ref[1] < len(board.tile_at(ref[0]).nodes):
        raise IllegalAction(f"there is no node {node_id(ref)}")
    reachable = home or ref in reach(board, company).nodes
    verdict = _token_verdict(board, company, ref, reachable)
    if isinstance(verdict, str):
        raise IllegalAction(verdict, source=getattr(verdict, "source", None))
    return verdict


def _token_verdict(board: Board, company: str, ref: NodeRef, reachable: bool) -> TokenSpot | str:
    h, i = ref
    where = f"{node_id(ref)}"
    if board.node(ref).kind != "city":
        return f"{where} is not a city; tokens go on city circles"
    if any(company in held for (hh, _), held in board.tokens.items() if hh == h):
        return f"{company} already has a token on {h}; one per hex"
    for blocker in board.hexes[h].hex_blocking_homes:
        if blocker != company and not any(blocker in held for (hh, _), held in board.tokens.items() if hh == h):
            return Refusal(f"no station on {h} before {blocker}'s home station is placed", ("hex", h))
    slot = board.free_slot(ref, company)
    if slot is None:
        if None in board.holders(ref):
            others = sorted(set(board.reservations(ref)) - {company})
            tile = board.tile_at(h)
            kept = [c for c, node in tile.reserved if node == i and c in others]
            source = ("tile", tile.name) if kept else ("hex", h)
            return Refusal(f"the free slots of {where} are reserved for other companies: {', '.join(others)}", source)
        return f"{where} has no free slot"
    if not reachable:
        return f"{company} has no unblocked track from its tokens to {where}"
    return TokenSpot(h, i, slot, board.city_id(ref))


# ---------------------------------------------------------------- trains


@dataclass(frozen=True)
class TrainPart:
    """One part of a train's distance: it may visit `visit` nodes of `kinds`
    and is paid for the best `pay` of them, times `multiplier`."""

    kinds: frozenset[str]
    pay: int
    visit: int
    multiplier: int = 1


@dataclass(frozen=True)
class TrainSpec:
    """What a train may run (1800 §11.3-§11.4, 1880 VII.3.5.1, 18CO 5.8.8).

    Build it from a DSL train dict with `TrainSpec.from_dict`: `distance` an
    int n (n stops of any kind, all paid), "n+m" (n cities/off-boards plus m
    towns), or a list of parts {nodes, pay, visit, multiplier} as in
    18xx.games; `multiplier` doubles a "D"/"x2" train. A node of a kind no
    part lists is passed without stopping (express trains skip towns).
    `own_station` (the train dict's `must_count_own_station_city`): among the
    stops the train is paid for there must be a city with one of the
    company's stations (1880 VII.3.5.1, the 6E and 8E); such a city is
    given to the evaluation as kind OWN_CITY."""

    name: str
    parts: tuple[TrainPart, ...]
    multiplier: int = 1
    own_station: bool = False

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | int | str | Sequence[Any], name: str | None = None
    ) -> TrainSpec:
        if isinstance(data, TrainSpec):
            return data
        if isinstance(data, Mapping):
            distance = data.get("distance")
            name = name or str(data.get("id") or data.get("name") or data.get("key") or distance)
            multiplier = int(data.get("multiplier", 1) or 1)
            own_station = bool(data.get("must_count_own_station_city", False))
        else:
            distance, multiplier, own_station = data, 1, False
            name = name or str(data)
        everything = EVERY_STOP
        if isinstance(distance, bool) or distance is None:
            raise ValueError(f"train {name}: no distance")
        if isinstance(distance, int):
            parts: tuple[TrainPart, ...] = (TrainPart(everything, distance, distance),)
        elif isinstance(distance, str) and re.fullmatch(r"\d+\+\d+", distance):
            big, small = (int(x) for x in distance.split("+"))
            parts = (
                TrainPart(frozenset({"city", "offboard"}), big, big),
                TrainPart(frozenset({"town"}), small, small),
            )
        elif isinstance(distance, str) and distance.isdigit():
            parts = (TrainPart(everything, int(distance), int(distance)),)
        elif isinstance(distance, Sequence) and not isinstance(distance, str):
            parts = tuple(
                TrainPart(
                    frozenset(p["nodes"]),
                    _visits(p["pay"]),
                    _visits(p.get("visit", p["pay"])),
                    int(p.get("multiplier", 1) or 1),
                )
                for p in distance
            )
        else:
            raise ValueError(f"train {name}: cannot read distance {distance!r}")
        return cls(name, parts, multiplier, own_station)

    def counts(self, kind: str) -> bool:
        """Whether a node of `kind` is a stop for this train."""
        return any(_takes(part, kind) for part in self.parts)

    def revenue(self, stops: Iterable[tuple[str, int]]) -> int | None:
        """Best revenue for visiting `stops` ((kind, revenue) of each counted
        node), or None if the train may not visit them all."""
        return _evaluate(self, tuple(sorted((-revenue, kind) for kind, revenue in stops)))

    def describe(self) -> str:
        """The distance in words: "2 stops", "4 cities/off-boards + 4 towns"."""
        bits = []
        for part in self.parts:
            kinds = "/".join(_PLURAL[k] for k in sorted(part.kinds))
            if part.kinds >= {"city", "town", "offboard"}:
                kinds = "stops"
            many = "any number of" if part.visit >= 99 else str(part.visit)
            paid = f" (paid for the best {part.pay})" if part.pay < part.visit else ""
            bits.append(f"{many} {kinds}{paid}")
        return " + ".join(bits)


def _visits(value: Any) -> int:
    """A train part's `pay` or `visit`: a number, or "unlimited" (an express train's any number of
    stops, 1880 VII.3.5.1; 18CO's E train, §5.8.8.4)."""
    return UNLIMITED_VISITS if value == "unlimited" else int(value)


#: what "unlimited" stands for: more stops than any route has
UNLIMITED_VISITS = 99

#: the stop kind of a city holding one of the running company's stations, for a train with
#: `own_station` (it counts as a city for the train's parts)
OWN_CITY = "own_city"


def _takes(part: TrainPart, kind: str) -> bool:
    """Whether a train part may take a stop of `kind` (an OWN_CITY is a city)."""
    return kind in part.kinds or (kind == OWN_CITY and "city" in part.kinds)

_PLURAL = {"city": "cities", "town": "towns", "offboard": "off-boards", "junction": "junctions",
           "port": "ports", "own_city": "cities with a station of the company"}

#: the stop kinds a plain n-train counts (a port only where a hex `stops_as: port`)
EVERY_STOP = frozenset({"city", "town", "offboard", "port"})


@lru_cache(maxsize=1 << 16)
def _evaluate(spec: TrainSpec, stops: tuple[tuple[int, str], ...]) -> int | None:
    """`TrainSpec.revenue` on stops given as sorted (-revenue, kind) pairs:
    `_evaluate_forced` with every stop free to go unpaid."""
    return _evaluate_forced(spec, tuple((1, negative, kind) for negative, kind in stops))


# ---------------------------------------------------------------- route bonuses


@dataclass(frozen=True)
class RouteBonus:
    """Revenue a run earns beyond its stops' values (1846's East-West bonus, 18CO
    §5.8.8.5's Salt Lake City bonus, a private's revenue marker).

    The run stops in a hex of `first` and, when `second` is given, also in a
    hex of `second`; it then earns `amount` plus the bonus listed with each of
    those two hexes (`first` and `second` are (hex, bonus) pairs; the best pair
    counts where several match). `at_ends`: the two stops must be the run's two
    ends. `paid_only`: only stops the train is paid for count (an N/M train
    chooses its paid stops to include them where it can)."""

    name: str
    first: tuple[tuple[str, int], ...]
    second: tuple[tuple[str, int], ...] | None = None
    amount: int = 0
    at_ends: bool = False
    paid_only: bool = True

    def hexes(self) -> frozenset[str]:
        return frozenset(h for h, _ in self.first + (self.second or ()))

    def earned(self, stops: Sequence[str], ends: tuple[str, str]) -> int:
        """What a run earns whose counted stops lie in the hexes `stops` and
        whose two ends lie in `ends`; 0 where the bonus does not apply."""
        if self.at_ends:
            a, b = ends
            pairs = [(a, b), (b, a)] if self.second is not None else [(a, a), (b, b)]
            best = None
            for x, y in pairs:
                one = [v for h, v in self.first if h == x and x in stops]
                two = [v for h, v in (self.second or ()) if h == y and y in stops]
                if one and (self.second is None or two):
                    value = max(one) + (max(two) if two else 0)
                    best = value if best is None else max(best, value)
            return 0 if best is None else self.amount + best
        here = set(stops)
        one = [(h, v) for h, v in self.first if h in here]
        if not one:
            return 0
        if self.second is None:
            return self.amount + max(v for _, v in one)
        two = [(h, v) for h, v in self.second if h in here]
        pairs = [a + b for ha, a in one for hb, b in two if ha != hb]
        return self.amount + max(pairs) if pairs else 0


@dataclass(frozen=True)
class StopLimit:
    """A run may stop in at most `most` of the hexes `hexes` (1846: one East
    off-board area per run; 18 Grand Junction: one East and one West)."""

    name: str
    hexes: frozenset[str]
    most: int = 1


@dataclass(frozen=True)
class Bonuses:
    """Everything a company's runs earn beyond their stops, and the limits on
    which stops a run may combine: `bonuses` per run, `limits` on each run,
    and `per_stop` (1846's Mail Contract): the company's run with the most
    stops earns that much more for each stop it visits."""

    bonuses: tuple[RouteBonus, ...] = ()
    limits: tuple[StopLimit, ...] = ()
    per_stop: int = 0

    def __bool__(self) -> bool:
        return bool(self.bonuses or self.limits or self.per_stop)


NO_BONUSES = Bonuses()


def _breaks_limit(extras: Bonuses, hexes: Sequence[str]) -> StopLimit | None:
    for limit in extras.limits:
        if sum(1 for h in hexes if h in limit.hexes) > limit.most:
            return limit
    return None


@lru_cache(maxsize=1 << 16)
def _evaluate_forced(spec: TrainSpec, stops: tuple[tuple[int, int, str], ...]) -> int | None:
    """The best revenue of a train (`spec`) on `stops`, sorted, given as
    (0, -revenue, kind) for a stop that must be paid and (1, -revenue, kind)
    for one that may go unpaid: the forced come first, then the best, so each
    part pays for the first `pay` stops it takes. None if the train may not
    visit them all or cannot pay all the forced ones.

    A dynamic programme over the stops: states are visits per part (with
    `own_station`, also paid per part and whether a city with the company's
    station is paid) -> best paid revenue."""
    if spec.own_station:
        return _evaluate_forced_own(spec, stops)
    parts = spec.parts
    states: dict[tuple[int, ...], int] = {(0,) * len(parts): 0}
    for free, negative, kind in stops:
        revenue = -negative
        nxt: dict[tuple[int, ...], int] = {}
        for counts, value in states.items():
            for k, part in enumerate(parts):
                if _takes(part, kind) and counts[k] < part.visit:
                    paid = counts[k] < part.pay
                    if not free and not paid:
                        continue
                    grown = counts[:k] + (counts[k] + 1,) + counts[k + 1 :]
                    worth = value + (revenue * part.multiplier if paid else 0)
                    if nxt.get(grown, -1) < worth:
                        nxt[grown] = worth
        if not nxt:
            return None
        states = nxt
    return max(states.values()) * spec.multiplier


def _evaluate_forced_own(spec: TrainSpec, stops: tuple[tuple[int, int, str], ...]) -> int | None:
    """`_evaluate_forced` for a train with `own_station`: the forced stops are paid, the others may
    be, keeping paid places for a city with the company's station (kind OWN_CITY); only paid sets
    with such a city count (1880 VII.3.5.1)."""
    parts = spec.parts
    n = len(parts)
    states: dict[tuple[int, ...], int] = {(0,) * (2 * n + 1): 0}
    for free, negative, kind in stops:
        revenue = -negative
        nxt: dict[tuple[int, ...], int] = {}
        for key, value in states.items():
            visits, paid, own = key[:n], key[n : 2 * n], key[2 * n]
            for k, part in enumerate(parts):
                if not _takes(part, kind) or visits[k] >= part.visit:
                    continue
                grown = visits[:k] + (visits[k] + 1,) + visits[k + 1 :]
                options = [(paid, own, value)] if free else []
                if paid[k] < part.pay:
                    options.append((paid[:k] + (paid[k] + 1,) + paid[k + 1 :],
                                    own or int(kind == OWN_CITY), value + revenue * part.multiplier))
                for paid2, own2, worth in options:
                    state = grown + paid2 + (own2,)
                    if nxt.get(state, -1) < worth:
                        nxt[state] = worth
        if not nxt:
            return None
        states = nxt
    best = [v for key, v in states.items() if key[-1]]
    return max(best) * spec.multiplier if best else None


def run_value(
    spec: TrainSpec, stops: Sequence[tuple[str, str, int]], ends: tuple[str, str], extras: Bonuses
) -> int | None:
    """The revenue of one run with its bonuses: `stops` are the counted stops
    as (hex, kind, revenue), `ends` the hexes of the run's two ends. None if
    the train may not visit them. An N/M train picks the paid stops that earn
    the most, bonuses included (18xx.games implementation: the bonus of an
    N/M train needs its stops among the paid ones). `per_stop` is not here:
    it belongs to the set of runs."""
    base = _evaluate(spec, tuple(sorted((-r, k) for _h, k, r in stops)))
    if base is None or not extras.bonuses:
        return base
    hexes = [h for h, _k, _r in stops]
    every = all(p.pay >= p.visit for p in spec.parts)
    loose = sum(b.earned(hexes, ends) for b in extras.bonuses if not b.paid_only)
    paid = [b for b in extras.bonuses if b.paid_only]
    if every or not paid:
        return base + loose + sum(b.earned(hexes, ends) for b in paid)
    relevant = set().union(*(b.hexes() for b in paid))
    marked = [i for i, (h, _k, _r) in enumerate(stops) if h in relevant]
    best = base
    for size in range(1, len(marked) + 1):
        for forced in itertools.combinations(marked, size):
            chosen = [stops[i][0] for i in forced]
            gain = sum(b.earned(chosen, ends) for b in paid)
            if not gain:
                continue
            value = _evaluate_forced(
                spec, tuple(sorted((0 if i in forced else 1, -r, k) for i, (_h, k, r) in enumerate(stops)))
            )
            if value is not None and value + gain > best:
                best = value + gain
    return best + loose


# ---------------------------------------------------------------- the route graph


class _Graph:
    """Nodes and the track between them for one company and phase.

    A segment is a run of track from one node to the next (through plain
    track and junctions); `mask` has a bit per piece of track it uses
    (see the module notes), `chain` the hexes it crosses."""

    def __init__(
        self, board: Board, company: str, phase: str | None, scope: Iterable[NodeRef] | None = None
    ):
        self.board = board
        refs = sorted(scope) if scope is not None else sorted(board.nodes())
        refs = [r for r in refs if board.node(r).kind != "junction"]
        self.refs = refs
        self.index = {r: k for k, r in enumerate(refs)}
        self.kind = [board.node(r).kind for r in refs]
        self.stops_as = [
            board.hexes[r[0]].stops_as if r[0] in board.hexes and self.kind[k] != "junction" else None
            for k, r in enumerate(refs)
        ]
        self.rev = [
            board.revenue(r, phase) if board.node(r).kind != "junction" else 0 for r in refs
        ]
        self.passable = [board.passable(r, company) for r in refs]
        self.token = [company in board.holders(r) for r in refs] if refs else []
        self.bits: dict[tuple[Any, ...], int] = {}
        self.seg_a: list[int] = []
        self.seg_b: list[int] = []
        self.seg_mask: list[int] = []
        self.seg_chain: list[tuple[str, ...]] = []
        self.adj: list[list[tuple[int, int]]] = [[] for _ in refs]
        self.by_chain: dict[tuple[str, ...], list[int]] = {}
        seen: set[tuple[int, int, int]] = set()
        for k, (h, i) in enumerate(refs):
            lay = board.layout_at(h)
            for p in lay.node_paths[i]:
                for end, mask, chain in self._walk(h, p, NODE + i, 0, (h,), 0):
                    other = self.index.get(end)
                    if other is None or other == k:
                        continue
                    key = (min(k, other), max(k, other), mask)
                    if key in seen:
                        continue
                    seen.add(key)
                    s = len(self.seg_a)
                    self.seg_a.append(k)
                    self.seg_b.append(other)
                    self.seg_mask.append(mask)
                    self.seg_chain.append(chain)
                    self.adj[k].append((s, other))
                    self.adj[other].append((s, k))
                    self.by_chain.setdefault(chain, []).append(s)
                    self.by_chain.setdefault(tuple(reversed(chain)), []).append(s)

        for ways in self.adj:  # the search tries valuable neighbours first
            ways.sort(key=lambda way: -self.rev[way[1]])

    def signature(self) -> tuple[Any, ...]:
        """Everything the route search reads from the graph: two graphs with one signature have
        the same routes, revenues and run records (node ids and hex chains)."""
        return (tuple(self.refs), tuple(self.kind), tuple(self.stops_as), tuple(self.rev),
                tuple(self.passable), tuple(self.token), tuple(self.bits), tuple(self.seg_a),
                tuple(self.seg_b), tuple(self.seg_mask), tuple(self.seg_chain))

    def bit(self, key: tuple[Any, ...]) -> int:
        if key not in self.bits:
            self.bits[key] = 1 << len(self.bits)
        return self.bits[key]

    def _walk(
        self, h: str, p: int, frm: int, mask: int, chain: tuple[str, ...], depth: int
    ) -> Iterator[tuple[NodeRef, int, tuple[str, ...]]]:
        board = self.board
        lay = board.layout_at(h)
        other = _other(lay.ends[p], frm)
        if frm >= NODE and other >= NODE:
            b = self.bit((h, "path", p))
            if mask & b:
                return
            mask |= b
        if other >= NODE:
            j = other - NODE
            if board.tile_at(h).nodes[j].kind == "junction":
                for q in lay.node_paths[j]:
                    if q != p:
                        yield from self._walk(h, q, other, mask, chain, depth + 1)
                return
            yield (h, j), mask, chain
            return
        b = self.bit((h, other))
        if mask & b:
            return
        mask |= b
        nb = board.nbr[h][other]
        border = board.borders.get((h, other))
        if nb is None or (border is not None and border.type == "impassable"):
            return
        e = opposite(other)
        b = self.bit((nb, e))
        if mask & b:
            return
        mask |= b
        nlay = board.layout_at(nb)
        for q in nlay.edge_paths[e]:
            yield from self._walk(nb, q, e, mask, chain + (nb,), depth + 1)

    def chain(self, seg: int, start: int) -> tuple[str, ...]:
        """The segment's hexes, from node `start`'s end."""
        chain = self.seg_chain[seg]
        return chain if self.seg_a[seg] == start else tuple(reversed(chain))

    def name(self, k: int) -> str:
        return node_id(self.refs[k])

    def stop_kind(self, k: int, spec: TrainSpec) -> str:
        """The kind node `k` counts as for `spec`: OWN_CITY for a city with the company's station when
        the train must be paid for one (1880 VII.3.5.1), else the node's kind."""
        as_ = self.stops_as[k]
        if as_ is not None:
            return as_
        if spec.own_station and self.kind[k] == "city" and self.token[k]:
            return OWN_CITY
        return self.kind[k]

    def track_named(self, mask: int) -> str:
        keys = [k for k, b in self.bits.items() if mask & b]
        key = keys[0] if keys else ("?",)
        return f"{key[0]} edge {key[1]}" if len(key) == 2 else f"{key[0]} path {key[2]}"


# ---------------------------------------------------------------- runs


@dataclass(frozen=True)
class Run:
    """One train's route: the nodes in order ("E15-2"), the hex chains
    between them (18xx.games `connections`), the revenue."""

    train: str
    nodes: tuple[str, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue: int

    def as_dict(self) -> dict[str, Any]:
        """The run as an entry of an 18xx.games `run_routes` action's routes."""
        return {
            "train": self.train,
            "connections": [list(c) for c in self.connections],
            "hexes": [n.rpartition("-")[0] for n in self.nodes],
            "revenue": self.revenue,
            "nodes": list(self.nodes),
        }


@dataclass(frozen=True)
class RouteSet:
    """A company's runs and their total revenue. `complete` is False when
    the best-revenue search was cut short by its bound (the runs are then
    the best found so far); `steps` and `seconds` say how much it searched."""

    runs: tuple[Run, ...]
    revenue: int
    complete: bool = True
    steps: int = 0
    seconds: float = 0.0


def _spec(train: Any, trains: Mapping[str, Any] | None) -> TrainSpec:
    if isinstance(train, TrainSpec):
        return train
    if isinstance(train, Mapping):
        return TrainSpec.from_dict(train)
    if isinstance(train, str) and trains is not None:
        if train in trains:
            return TrainSpec.from_dict(trains[train], name=train)
        base = train.rpartition("-")[0]
        if base in trains:
            return TrainSpec.from_dict(trains[base], name=train)
    if isinstance(train, (int, str)):
        return TrainSpec.from_dict(train)
    raise IllegalAction(f"unknown train {train!r}")


def route_revenue(
    board: Board,
    company: str,
    routes: Sequence[Mapping[str, Any]],
    phase: str | None,
    trains: Mapping[str, Any] | None = None,
    extras: Bonuses = NO_BONUSES,
) -> RouteSet:
    """Check a company's routes and count their revenue, bonuses included (`extras`) (1800 §11.3-§11.4,
    Appendix D; 1880 VII.2, VII.3.5-VII.3.6; 18CO 5.8).

    Each route is a dict with `train` (a train dict, a `TrainSpec`, or an id
    looked up in `trains` by id then by name before the "-") and either
    `nodes` (node ids "E15-2" in order; for a train that skips towns the
    towns between two stops may be left out) or `connections` (18xx.games
    hex chains). Rules: no node twice; no track twice within the company's
    routes; a company token on every route; blocked cities and off-boards
    only at the ends; no stop skipped; the train's distance. Raises
    IllegalAction naming the route and the rule broken."""
    g = _route_graph(board, company, phase)
    options: list[list[tuple[tuple[int, ...], tuple[int, ...], int, int]]] = []
    specs = []
    for number, route in enumerate(routes, 1):
        spec = _spec(route.get("train"), trains)
        specs.append(spec)
        where = f"route {number} ({spec.name})"
        found, first_error = [], None
        for nodes, segs in _resolve(g, spec, route, where):
            verdict = _check_run(g, spec, company, nodes, segs, where, extras)
            if isinstance(verdict, str):
                first_error = first_error or verdict
            else:
                found.append((nodes, segs) + verdict)
        if not found:
            raise IllegalAction(first_error or f"{where} runs on no track")
        options.append(found)
    # choose one reading per route so that no track is used twice
    best: list[Any] | None = None

    def choose(k: int, used: int, picked: list[Any]) -> bool:
        nonlocal best
        if k == len(options):
            best = list(picked)
            return True
        for option in options[k]:
            if not option[2] & used:
                picked.append(option)
                if choose(k + 1, used | option[2], picked):
                    return True
                picked.pop()
        return False

    if not choose(0, 0, []):
        for a, b in itertools.combinations(range(len(options)), 2):
            if all(x[2] & y[2] for x in options[a] for y in options[b]):
                clash = options[a][0][2] & options[b][0][2]
                raise IllegalAction(
                    f"routes {a + 1} and {b + 1} both use the track at {g.track_named(clash)}; "
                    "a company's trains may not share track"
                )
        raise IllegalAction("the routes cannot all run without sharing track")
    runs = tuple(
        _run(g, spec, nodes, segs, revenue)
        for spec, (nodes, segs, _mask, revenue) in zip(specs, best or [], strict=True)
    )
    runs = _with_per_stop(g, specs, runs, [b[0] for b in best or []], extras)
    return RouteSet(runs, sum(r.revenue for r in runs))


def _route_graph(board: Board, company: str, phase: str | None) -> _Graph:
    """The whole map's route graph for `company` in `phase`, kept per board version (a run is
    checked route by route and as a whole on one board)."""
    key = (company, board.version, phase)
    g = board.graphs.get(key)
    if g is None:
        if len(board.graphs) >= _GRAPHS_KEPT:
            board.graphs.clear()
        g = board.graphs[key] = _Graph(board, company, phase)
    return g


# how many route graphs a board keeps
_GRAPHS_KEPT = 16


def _stops(g: _Graph, spec: TrainSpec, nodes: Sequence[int]) -> int:
    return sum(1 for n in nodes if spec.counts(g.kind[n]))


def _with_per_stop(
    g: _Graph,
    specs: Sequence[TrainSpec],
    runs: Sequence[Run],
    nodes: Sequence[Sequence[int]],
    extras: Bonuses,
) -> tuple[Run, ...]:
    """The runs with `extras.per_stop` added to the one with the most stops
    (the first such run on a tie)."""
    runs = tuple(runs)
    if not extras.per_stop or not runs:
        return runs
    counts = [_stops(g, spec, n) for spec, n in zip(specs, nodes, strict=True)]
    k = counts.index(max(counts))
    longest = runs[k]
    grown = Run(longest.train, longest.nodes, longest.connections,
                longest.revenue + extras.per_stop * counts[k])
    return runs[:k] + (grown,) + runs[k + 1 :]


def _run(
    g: _Graph, spec: TrainSpec, nodes: Sequence[int], segs: Sequence[int], revenue: int
) -> Run:
    return Run(
        spec.name,
        tuple(g.name(n) for n in nodes),
        tuple(g.chain(s, nodes[k]) for k, s in enumerate(segs)),
        revenue,
    )


def _resolve(
    g: _Graph, spec: TrainSpec, route: Mapping[str, Any], where: str
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The readings of a route given by nodes or by connections: node
    sequences with the segment chosen between each pair."""
    if route.get("connections"):
        chains = [tuple(c) for c in route["connections"]]
        cands = []
        for chain in chains:
            segs = g.by_chain.get(chain, [])
            if not segs:
                raise IllegalAction(f"{where}: no track runs along {'-'.join(chain)}")
            cands.append(segs)

        def walk(k: int, at: int | None, nodes: list[int], segs: list[int]):
            if k == len(chains):
                yield tuple(nodes), tuple(segs)
                return
            for s in cands[k]:
                a, b = g.seg_a[s], g.seg_b[s]
                ways = (
                    [(a, b), (b, a)]
                    if at is None
                    else [(at, b)]
                    if a == at
                    else [(at, a)]
                    if b == at
                    else []
                )
                for start, end in ways:
                    yield from walk(k + 1, end, (nodes or [start]) + [end], segs + [s])

        yield from walk(0, None, [], [])
        return
    try:
        given = [g.index[parse_node_id(n)] for n in route.get("nodes") or ()]
    except (KeyError, ValueError):
        raise IllegalAction(f"{where}: names a node that is not on the map") from None
    if len(given) < 2:
        raise IllegalAction(f"{where}: a route needs at least two stops")
    legs = []
    for u, v in itertools.pairwise(given):
        found = list(_legs(g, spec, u, v))
        if not found:
            between = _between(g, u, v)
            if between:
                raise IllegalAction(
                    f"{where}: the track from {g.name(u)} to {g.name(v)} passes {between}, "
                    f"where train {spec.name} must stop; a train cannot skip a stop"
                )
            raise IllegalAction(f"{where}: no track joins {g.name(u)} and {g.name(v)}")
        legs.append(found)
    for choice in itertools.product(*legs):
        nodes, segs = [given[0]], []
        for leg_nodes, leg_segs in choice:
            nodes += leg_nodes
            segs += leg_segs
        yield tuple(nodes), tuple(segs)


def _legs(g: _Graph, spec: TrainSpec, u: int, v: int) -> Iterator[tuple[list[int], list[int]]]:
    """Ways from u to v passing only nodes the train does not stop at."""

    def go(at: int, nodes: list[int], segs: list[int], mask: int):
        for s, other in g.adj[at]:
            if g.seg_mask[s] & mask or other in nodes or other == u:
                continue
            if other == v:
                yield nodes + [other], segs + [s]
            elif not spec.counts(g.kind[other]) and g.passable[other] and len(nodes) < 12:
                yield from go(other, nodes + [other], segs + [s], mask | g.seg_mask[s])

    yield from go(u, [], [], 0)


def _between(g: _Graph, u: int, v: int) -> str | None:
    for s, mid in g.adj[u]:
        for t, other in g.adj[mid]:
            if other == v and not g.seg_mask[s] & g.seg_mask[t]:
                return f"{g.name(mid)} ({g.kind[mid]})"
    return None


def _check_run(
    g: _Graph,
    spec: TrainSpec,
    company: str,
    nodes: Sequence[int],
    segs: Sequence[int],
    where: str,
    extras: Bonuses = NO_BONUSES,
) -> tuple[int, int] | str:
    """(track mask, revenue with the run's bonuses) of a legal run, or why it is not legal."""
    if len(set(nodes)) != len(nodes):
        twice = next(g.name(n) for n in nodes if nodes.count(n) > 1)
        return f"{where} visits {twice} twice"
    mask = 0
    for s in segs:
        if g.seg_mask[s] & mask:
            return f"{where} uses the track at {g.track_named(g.seg_mask[s] & mask)} twice"
        mask |= g.seg_mask[s]
    for n in nodes[1:-1]:
        if not g.passable[n]:
            if g.kind[n] == "city" and g.board.blocked(g.refs[n], company):
                return (
                    f"{where} passes through {g.name(n)}, a city whose every station holds "
                    f"another company's token; it may only start or end there"
                )
            return (
                f"{where} passes through {g.name(n)}, an off-board area; "
                "it may only start or end there"
            )
    if not any(g.token[n] for n in nodes):
        return f"{where} does not include a {company} station"
    stops = [(g.kind[n], g.rev[n]) for n in nodes if spec.counts(g.kind[n])]
    if len(stops) < 2:
        return f"{where} needs at least two stops"
    counted = [n for n in nodes if spec.counts(g.kind[n])]
    limit = _breaks_limit(extras, [g.refs[n][0] for n in counted])
    if limit is not None:
        return (
            f"{where} stops in more than {limit.most} of {', '.join(sorted(limit.hexes))} "
            f"({limit.name})"
        )
    revenue = run_value(
        spec,
        [(g.refs[n][0], g.stop_kind(n, spec), g.rev[n]) for n in counted],
        (g.refs[nodes[0]][0], g.refs[nodes[-1]][0]),
        extras,
    )
    if revenue is None and spec.own_station and not any(
        g.stop_kind(n, spec) == OWN_CITY for n in counted
    ):
        return f"{where}: train {spec.name} must be paid for a city with one of {company}'s stations"
    if revenue is None:
        counted = {
            kind: sum(1 for k, _ in stops if k == kind) for kind in sorted({k for k, _ in stops})
        }
        tally = ", ".join(
            f"{n} {_PLURAL[kind] if n != 1 else kind.replace('offboard', 'off-board')}"
            for kind, n in counted.items()
        )
        return f"{where} visits {tally}; train {spec.name} may visit {spec.describe()}"
    return mask, revenue


# ---------------------------------------------------------------- best revenue


@dataclass(frozen=True)
class _Cand:
    revenue: int
    mask: int
    nodes: tuple[int, ...]
    segs: tuple[int, ...]


class _Budget:
    """A bound on search work: `max_steps` steps or `seconds` of time."""

    def __init__(self, max_steps: int, seconds: float):
        self.max_steps = max(1, max_steps)
        self.deadline = time.perf_counter() + max(0.0, seconds)
        self.steps = 0
        self.cut = False

    def tick(self) -> bool:
        self.steps += 1
        if self.steps >= self.max_steps or (
            not self.steps & 1023 and time.perf_counter() > self.deadline
        ):
            self.cut = True
        return self.cut


def _enumerate(
    g: _Graph, spec: TrainSpec, budget: _Budget, max_routes: int, extras: Bonuses = NO_BONUSES
) -> list[_Cand]:
    """Every legal route for one train, by depth-first search from the
    company's tokens, growing one end and then the other; a route is cut off
    as soon as the train could not visit its stops. A route's revenue
    includes its bonuses (`extras`); a route breaking a stop limit is left out."""
    counted = [spec.counts(k) for k in g.kind]
    found: dict[tuple[tuple[int, ...], int], _Cand] = {}

    def stops_with(
        stops: tuple[tuple[str, int], ...], n: int
    ) -> tuple[tuple[str, int], ...] | None:
        if not counted[n]:
            return stops
        grown = list(stops)
        bisect.insort(grown, (-g.rev[n], g.stop_kind(n, spec)))
        new = tuple(grown)
        return new if _evaluate(spec, new) is not None else None

    def record(
        nodes: tuple[int, ...], segs: tuple[int, ...], mask: int, stops: tuple[tuple[str, int], ...]
    ) -> None:
        if len(stops) < 2 or not counted[nodes[0]] or not counted[nodes[-1]]:
            return
        key = (nodes if nodes[0] < nodes[-1] else tuple(reversed(nodes)), mask)
        if key in found:
            return
        if extras:
            counted_nodes = [n for n in nodes if counted[n]]
            hexes = [g.refs[n][0] for n in counted_nodes]
            if _breaks_limit(extras, hexes) is not None:
                return
            revenue = run_value(
                spec,
                [(h, g.stop_kind(n, spec), g.rev[n]) for h, n in zip(hexes, counted_nodes, strict=True)],
                (hexes[0], hexes[-1]),
                extras,
            )
        else:
            revenue = _evaluate(spec, stops)
        if revenue:
            found[key] = _Cand(revenue, mask, nodes, segs)
            if len(found) >= max_routes:
                budget.cut = True

    def left(
        t: int,
        right: list[int],
        rsegs: list[int],
        lnodes: list[int],
        lsegs: list[int],
        used: int,
        members: int,
        stops: tuple,
    ) -> None:
        end = lnodes[-1] if lnodes else t
        if lnodes and not g.passable[end]:
            return
        for s, other in g.adj[end]:
            if budget.cut:
                return
            m = g.seg_mask[s]
            if members >> other & 1 or used & m:
                continue
            grown = stops_with(stops, other)
            if grown is None:
                continue
            budget.tick()
            lnodes.append(other)
            lsegs.append(s)
            record(
                tuple(reversed(lnodes)) + tuple(right),
                tuple(reversed(lsegs)) + tuple(rsegs),
                used | m,
                grown,
            )
            left(t, right, rsegs, lnodes, lsegs, used | m, members | 1 << other, grown)
            lnodes.pop()
            lsegs.pop()

    def grow(
        t: int, right: list[int], rsegs: list[int], used: int, members: int, stops: tuple
    ) -> None:
        if len(right) > 1:
            record(tuple(right), tuple(rsegs), used, stops)
            if g.passable[t]:
                left(t, right, rsegs, [], [], used, members, stops)
        end = right[-1]
        if end != t and not g.passable[end]:
            return
        for s, other in g.adj[end]:
            if budget.cut:
                return
            m = g.seg_mask[s]
            if members >> other & 1 or used & m:
                continue
            grown = stops_with(stops, other)
            if grown is None:
                continue
            budget.tick()
            right.append(other)
            rsegs.append(s)
            grow(t, right, rsegs, used | m, members | 1 << other, grown)
            right.pop()
            rsegs.pop()

    for t in range(len(g.refs)):
        if g.token[t] and not budget.cut:
            start = stops_with((), t)
            if start is not None:
                grow(t, [t], [], 0, 1 << t, start)
    return sorted(found.values(), key=lambda c: -c.revenue)


# how many sets of track in use one route index remembers the clashes of
_FREE_MEMO = 200_000


class _FreeIndex:
    """For a list of candidate routes: which of them avoid some track.

    Per segment of the graph, a bitset of the routes that run on it; a route
    is free of `used` when none of its segments touches `used` (its bit is not
    in `clash(used)`)."""

    def __init__(self, cands: Sequence[_Cand], g: _Graph):
        size = (len(cands) + 8) // 8
        rows: dict[int, bytearray] = {}
        for i, cand in enumerate(cands):
            for seg in cand.segs:
                row = rows.get(seg)
                if row is None:
                    row = rows[seg] = bytearray(size)
                row[i >> 3] |= 1 << (i & 7)
        self.rows = {seg: int.from_bytes(row, "little") for seg, row in rows.items()}
        # per piece of track: the routes that use it (the union of the rows
        # of the segments on it), so a clash is one OR per piece in use
        self.clash_on: dict[int, int] = {}
        for seg, row in self.rows.items():
            mask = g.seg_mask[seg]
            while mask:
                low = mask & -mask
                mask ^= low
                self.clash_on[low] = self.clash_on.get(low, 0) | row
        self.all = (1 << len(cands)) - 1
        # the search asks again and again about the same track in use
        self._clashes: dict[int, int] = {}

    def clash(self, used: int) -> int:
        """Bitset of the routes that share some track with `used`. The clash of two pieces of track
        together is the union of their clashes: the search adds a route's (`_choose`)."""
        clash = self._clashes.get(used)
        if clash is None:
            clash, rest = 0, used
            while rest:
                low = rest & -rest
                rest ^= low
                clash |= self.clash_on.get(low, 0)
            if len(self._clashes) < _FREE_MEMO:
                self._clashes[used] = clash
        return clash


def best_routes(
    board: Board,
    company: str,
    trains: Sequence[Any],
    phase: str | None,
    *,
    time_limit: float = 10.0,
    max_steps: int = 5_000_000,
    max_routes: int = 300_000,
    extras: Bonuses = NO_BONUSES,
    memo: dict[tuple[Any, ...], RouteSet] | None = None,
) -> RouteSet:
    """The legal set of routes with the highest total revenue for the
    company's `trains` (train dicts or `TrainSpec`s; name them with "id" to
    get ids like "2-0" in the runs) in `phase` (1800 §11.4: the Director
    "must try to score the highest amount of revenue possible"), bonuses
    included (`extras`: per-run bonuses and stop limits, and the per-stop
    bonus of the run with the most stops).

    Exact: enumerate each train's legal routes (depth-first from the tokens,
    pruned by the train's distance), then pick one route or none per train,
    pairwise track-disjoint, by branch and bound from a greedy start. With a
    per-stop bonus the choice is made once for each kind of train holding
    it, that train's routes counting the bonus; the best of those choices
    wins (the bonus of the run with the most stops is at least that of the
    train holding it, so the best choice is found).
    Bounded by `max_steps` search steps, `time_limit` seconds and
    `max_routes` routes kept per kind of train: past a bound it returns the
    best set found so far with `complete=False`.

    `memo` (a dict the caller keeps): answers of searches that ran to their end, by what the
    search reads (`_Graph.signature`: the track, stops, revenues and stations the company reaches;
    the trains; the bonuses). A company's track and trains often stand still from one operating
    turn to the next while others build elsewhere; the same question gets the same answer."""
    started = time.perf_counter()
    specs = [_spec(t, None) for t in trains]
    seen = reach(board, company)
    g = _Graph(board, company, phase, scope=seen.nodes)
    key: tuple[Any, ...] | None = None
    if memo is not None:
        key = (g.signature(), tuple(specs), extras, max_routes)
        try:
            found = memo.get(key)
        except TypeError:  # a bonus holding a mutable value: not kept
            found, key = None, None
        if found is not None:
            # the same track, stops, stations and trains as a search that ran to its end: its answer
            return replace(found, steps=0, seconds=time.perf_counter() - started)
    result = _best_routes(g, specs, time_limit, max_steps, max_routes, extras, started)
    if memo is not None and key is not None and result.complete:
        if len(memo) >= ROUTE_ANSWERS_KEPT:
            memo.pop(next(iter(memo)))
        memo[key] = result
    return result


#: how many answers a `best_routes` memo keeps (the oldest goes first)
ROUTE_ANSWERS_KEPT = 256


def _best_routes(
    g: _Graph,
    specs: list[TrainSpec],
    time_limit: float,
    max_steps: int,
    max_routes: int,
    extras: Bonuses,
    started: float,
) -> RouteSet:
    """`best_routes` on the company's route graph `g`."""
    cache: dict[TrainSpec, list[_Cand]] = {}
    cands, kinds = [], []
    for spec in specs:
        # (a train that must be paid for a city with a station is its own kind: its routes count otherwise)
        cache.setdefault(TrainSpec("", spec.parts, spec.multiplier, spec.own_station), [])
    # each kind of train gets an equal share of 80% of the bound to list its
    # routes; the choice among them gets the rest (and at least a greedy pick)
    share = 0.8 / len(cache) if cache else 0.0
    steps, complete = 0, True
    for key in cache:
        left = time_limit - (time.perf_counter() - started)
        part = _Budget(int(max_steps * share), min(left, time_limit * share))
        cache[key] = _enumerate(g, key, part, max_routes, extras)
        steps += part.steps
        complete = complete and not part.cut
    for spec in specs:
        key = TrainSpec("", spec.parts, spec.multiplier, spec.own_station)
        cands.append(cache[key])
        kinds.append(list(cache).index(key))
    holders: list[int | None] = [None]
    if extras.per_stop and specs:
        holders = [kinds.index(kind) for kind in sorted(set(kinds))]
    best_total, best_choice = -1, [None] * len(specs)
    for holder in holders:
        lists, kinds_now = list(cands), list(kinds)
        if holder is not None:
            spec = specs[holder]
            lists[holder] = sorted(
                (
                    _Cand(c.revenue + extras.per_stop * _stops(g, spec, c.nodes), c.mask, c.nodes, c.segs)
                    for c in cands[holder]
                ),
                key=lambda c: -c.revenue,
            )
            kinds_now[holder] = -1
        left = (time_limit - (time.perf_counter() - started)) / len(holders)
        budget = _Budget((max_steps - steps) // len(holders), left)
        total, choice = _choose(g, lists, kinds_now, budget)
        steps += budget.steps
        complete = complete and not budget.cut
        if total > best_total:
            best_total, best_choice = total, [
                lists[k][i] if i is not None else None for k, i in enumerate(choice)
            ]
    picked = [(k, c) for k, c in enumerate(best_choice) if c is not None]
    runs = [_run(g, specs[k], c.nodes, c.segs, _plain(g, specs[k], c, extras)) for k, c in picked]
    runs = list(
        _with_per_stop(g, [specs[k] for k, _ in picked], runs, [c.nodes for _, c in picked], extras)
    )
    return RouteSet(
        tuple(runs), sum(r.revenue for r in runs), complete, steps, time.perf_counter() - started
    )


def _plain(g: _Graph, spec: TrainSpec, c: _Cand, extras: Bonuses) -> int:
    """A candidate's revenue without the per-stop bonus (added to the run set afterwards)."""
    if not extras.per_stop:
        return c.revenue
    counted = [n for n in c.nodes if spec.counts(g.kind[n])]
    hexes = [g.refs[n][0] for n in counted]
    value = run_value(
        spec,
        [(h, g.stop_kind(n, spec), g.rev[n]) for h, n in zip(hexes, counted, strict=True)],
        (hexes[0], hexes[-1]),
        extras,
    )
    return value or 0


def _undominated(options: Sequence[_Cand]) -> list[int]:
    """The indexes of the routes of a list (sorted by revenue, best first) that no other route
    dominates: a route earning as much on a part of its track (its mask a subset of the other's;
    an identical route kept once). A dominated route is never needed: a set of disjoint routes
    using it stays disjoint, and earns no less, with the dominating route in its place (two
    routes of one list never run together if one's track is part of the other's)."""
    kept: list[int] = []
    masks: list[int] = []
    for i, c in enumerate(options):
        mask = c.mask
        # the list is sorted by revenue, so only an earlier route may dominate this one
        if any(not m & ~mask for m in masks):
            continue
        kept.append(i)
        masks.append(mask)
    return kept


def _choose(
    g: _Graph, cands: Sequence[list[_Cand]], kinds: Sequence[int], budget: _Budget
) -> tuple[int, list[int | None]]:
    """One candidate route or none per train, pairwise track-disjoint, with the
    highest total: (total, index chosen in each train's list or None).

    Branch and bound: routes a route of the same list dominates are left out first
    (`_undominated`); a train's choices are bounded by what the trains after it could still earn,
    each alone on its best free route, and by a cover of the free routes with cliques of routes
    that pairwise share track (`cover` in `_choose_among`)."""
    kept: dict[int, list[int]] = {}
    pruned: dict[int, list[_Cand]] = {}
    for options in cands:
        if id(options) not in kept:
            kept[id(options)] = _undominated(options)
            pruned[id(options)] = [options[i] for i in kept[id(options)]]
    total, choice = _choose_among(g, [pruned[id(options)] for options in cands], kinds, budget)
    return total, [None if i is None else kept[id(options)][i] for options, i in zip(cands, choice, strict=True)]


def _choose_among(
    g: _Graph, cands: Sequence[list[_Cand]], kinds: Sequence[int], budget: _Budget
) -> tuple[int, list[int | None]]:
    """`_choose` on lists with no dominated route."""
    # the train with the most routes first (its choice bounds the others' most: measured on 18CO's
    # seven-train companies, half the work of taking it last), identical trains side by side
    # (their choices are ordered)
    order = sorted(range(len(cands)), key=lambda k: (-len(cands[k]), kinds[k]))
    lists = [cands[k] for k in order]
    same = [
        k > 0 and kinds[order[k]] == kinds[order[k - 1]] and kinds[order[k]] >= 0
        for k in range(len(lists))
    ]
    # the trains from k on, identical ones side by side as one group: (their list, how many); m
    # identical trains run m different routes, so the m best of their list bound what they earn
    groups = []
    for k in range(len(lists) + 1):
        group: list[tuple[int, int]] = []
        for j in range(k, len(lists)):
            if j > k and same[j]:
                group[-1] = (group[-1][0], group[-1][1] + 1)
            else:
                group.append((j, 1))
        groups.append(group)
    rest = [sum(c.revenue for j, m in groups[k] for c in lists[j][:m]) for k in range(len(lists) + 1)]
    pick: list[int | None] = [None] * len(lists)
    # a greedy start: each train in turn takes its best route still free
    used, best_total = 0, 0
    best_pick: list[int | None] = [None] * len(lists)
    for k, options in enumerate(lists):
        start = best_pick[k - 1] + 1 if same[k] and best_pick[k - 1] is not None else 0
        if same[k] and best_pick[k - 1] is None:
            continue
        for index in range(start, len(options)):
            if not options[index].mask & used:
                best_pick[k], used = index, used | options[index].mask
                best_total += options[index].revenue
                break

    indexes: dict[int, _FreeIndex] = {}
    for options in lists:
        if id(options) not in indexes:
            indexes[id(options)] = _FreeIndex(options, g)
    distinct = list(indexes.values())
    # each list's index among `distinct`: the search carries, for each, the routes the track in use
    # clashes with (`clashes`), grown by each route it picks, rather than reading them off the track
    slot = [distinct.index(indexes[id(options)]) for options in lists]
    alls = [index.all for index in distinct]

    clash_of = [index.clash for index in distinct]
    single = len(distinct) == 1
    later = [[(slot[j], lists[j], m) for j, m in groups[k]] for k in range(len(lists))]

    def bound(k: int, clashes: tuple[int, ...]) -> int:
        """Each later train alone on its best route free of the track in use (m identical trains
        on the m best, as they run different routes)."""
        total = 0
        for s, options, m in later[k]:
            free = alls[s] & ~clashes[s]
            while free and m:
                bit = free & -free
                free ^= bit
                total += options[bit.bit_length() - 1].revenue
                m -= 1
        return total

    # the routes of every list in one list, best first, for the clique bound (`cover`); the
    # search carries its clashes as the last of `clashes` (with one list, that list's own)
    if single:
        merged, where, owner = lists[0], distinct[0], [0] * len(lists[0])
    else:
        listed = [(c, s) for s in range(len(distinct)) for c in lists[slot.index(s)]]
        listed.sort(key=lambda pair: -pair[0].revenue)
        merged, owner = [c for c, _ in listed], [s for _, s in listed]
        where = _FreeIndex(merged, g)
        clash_of.append(where.clash)
    conflicts = [where.clash(c.mask) for c in merged]
    revenue_at = [c.revenue for c in merged]
    # the merged routes of the trains from k on, and how many trains that is
    later_merged = []
    for k in range(len(lists) + 1):
        left_slots = {slot[j] for j in range(k, len(lists))}
        later_merged.append(sum(1 << i for i, s in enumerate(owner) if s in left_slots))
    trains_left = [len(lists) - k for k in range(len(lists) + 1)]

    def cover(k: int, clashes: tuple[int, ...]) -> int:
        """A bound from cliques of routes that pairwise share track: the free routes of the trains
        from k on, split greedily (best first) into such cliques; disjoint routes take at most one
        of each, and no more routes than trains are left, so they earn at most the best of each of
        the first cliques, one per train left."""
        left = later_merged[k] & ~clashes[-1]
        total, trains = 0, trains_left[k]
        while left and trains:
            top = left & -left
            i = top.bit_length() - 1
            total += revenue_at[i]
            trains -= 1
            left ^= top
            joined = left & conflicts[i]
            while joined:
                member = joined & -joined
                left ^= member
                joined &= conflicts[member.bit_length() - 1]
                joined &= ~member
        return total

    last = len(lists) - 1

    def search(k: int, clashes: tuple[int, ...], total: int) -> None:
        nonlocal best_total, best_pick
        if budget.tick():
            return
        start = 0
        if same[k]:
            if pick[k - 1] is None:  # an identical train before this one stayed idle
                if k < last:
                    search(k + 1, clashes, total)
                elif total > best_total:
                    best_total, best_pick = total, list(pick)
                return
            start = pick[k - 1] + 1
        options = lists[k]
        free = alls[slot[k]] & ~clashes[slot[k]] & ~((1 << start) - 1)
        if k == last:  # the last train simply takes its best free route
            index = (free & -free).bit_length() - 1 if free else None
            gain = options[index].revenue if index is not None else 0
            if total + gain > best_total:
                pick[k] = index
                best_total, best_pick = total + gain, list(pick)
                pick[k] = None
            return
        if total + rest[k] <= best_total or total + bound(k, clashes) <= best_total \
                or total + cover(k, clashes) <= best_total:
            return
        # what the trains after this one could earn with the track in use now: no more once this
        # one's route is in use too
        after = min(rest[k + 1], bound(k + 1, clashes), cover(k + 1, clashes)) if k + 1 < len(lists) else 0
        while free:
            bit = free & -free
            free ^= bit
            index = bit.bit_length() - 1
            c = options[index]
            if total + c.revenue + after <= best_total:
                break
            pick[k] = index
            if single:
                grown: tuple[int, ...] = (clashes[0] | clash_of[0](c.mask),)
            else:
                grown = tuple([clash | more(c.mask) for clash, more in zip(clashes, clash_of)])
            search(k + 1, grown, total + c.revenue)
            if budget.cut:
                break
        pick[k] = None
        search(k + 1, clashes, total)

    if lists:
        search(0, tuple(0 for _ in clash_of), 0)
    choice: list[int | None] = [None] * len(cands)
    for k, index in enumerate(best_pick):
        choice[order[k]] = index
    return best_total, choice


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
