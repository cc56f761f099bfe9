"""Track, part 1: map geometry (`Geometry`: hex ids, neighbours, edges) and tiles (`Tile`, its
nodes and paths, `node_map` between an old tile and its upgrade).

Part of `compiler.runtime.track` (its docstring holds the conventions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence



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
        # a function of the phase map, the phase and the order: worked out once (each route graph asks it
        # of every stop on the map)
        key = (self.revenue, phase, tuple(phases))
        found = _REVENUES.get(key)
        if found is None:
            if len(_REVENUES) >= 4096:
                _REVENUES.clear()
            found = _REVENUES[key] = self._phase_revenue(phase, phases)
        return found

    def _phase_revenue(self, phase: str | None, phases: Sequence[str]) -> int:
        """`revenue_at` of a phase map, worked out."""
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


#: (phase map, phase, phase order) -> `Node.revenue_at`
_REVENUES: dict[tuple[Any, ...], int] = {}


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
    #: the number of nodes of each kind, counted once: a derived upgrade chart compares them for every
    #: pair of tiles (`Board.upgrade_targets`)
    _kinds: dict = field(init=False, compare=False, repr=False)
    #: the tile's `_layout` at each rotation 0-5, made when first asked (a list, filled in place): read at
    #: every lay judged, without hashing the tile for a cache
    _layouts: list = field(init=False, compare=False, repr=False)
    #: `node_map`'s answers with this tile as the old one, by (old rotation, the new tile's identity, new
    #: rotation, strict kinds, merge) -> (the new tile, the answer)
    _maps: dict = field(init=False, compare=False, repr=False)
    #: other answers of a function of this tile as the old one and a new tile (the rotations that keep its
    #: track, the paths a lay adds: compiler/runtime/track/lays.py), by (the function, its arguments with
    #: the new tile's identity) -> (the new tile, the answer): each game builds its own tiles, and a cache
    #: keyed by equal tiles compares them field by field at every lookup
    _pairs: dict = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_layouts", [None] * 6)
        object.__setattr__(self, "_maps", {})
        object.__setattr__(self, "_pairs", {})
        object.__setattr__(self, "_hash", hash((self.name, self.color, self.label, len(self.nodes), len(self.paths))))
        kinds: dict[str, int] = {}
        for n in self.nodes:
            kinds[n.kind] = kinds.get(n.kind, 0) + 1
        object.__setattr__(self, "_kinds", kinds)

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
        return self._kinds.get(kind, 0)

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


def _layout(tile: Tile, rotation: int) -> _Layout:
    """The tile at `rotation`, pre-digested (`_Layout`): made once for each tile and rotation 0-5 (kept on
    the tile), any other rotation through `_layout_made`'s cache."""
    if rotation.__class__ is int and 0 <= rotation < 6:
        made = tile._layouts[rotation]
        if made is None:
            made = tile._layouts[rotation] = _layout_made(tile, rotation)
        return made
    return _layout_made(tile, rotation)


@lru_cache(maxsize=None)
def _layout_made(tile: Tile, rotation: int) -> _Layout:
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


def node_map(
    old: Tile, old_rotation: int, new: Tile, new_rotation: int, strict_kinds: bool = True,
    merge: bool = False,
) -> tuple[int, ...] | None:
    """`_node_map`'s answer, kept on the old tile by the new tile's identity (`Tile._maps`): asked for
    every lay judged, without hashing the tiles for a cache."""
    key = (old_rotation, id(new), new_rotation, strict_kinds, merge)
    maps = old._maps
    found = maps.get(key)
    if found is not None and found[0] is new:
        return found[1]
    answer = _node_map(old, old_rotation, new, new_rotation, strict_kinds, merge)
    if len(maps) >= 4096:
        maps.clear()
    maps[key] = (new, answer)
    return answer


@lru_cache(maxsize=1 << 16)
def _node_map(
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
    if not old_lay.exits <= new_lay.exits:
        return None  # an old path's edge is no edge of the new tile's track: no map keeps it (edges stay)
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
    assign = None  # (the search calls itself through its closure: a cycle for the collector, broken here)
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
