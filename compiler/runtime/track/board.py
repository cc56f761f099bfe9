"""Track, part 2: the map and what is on it (`Board`: hexes, placed tiles, station tokens, home
reservations, borders and the tile supply; `MapHex`, `Border`, `TrackRules`).

Part of `compiler.runtime.track` (its docstring holds the conventions).
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from compiler.runtime.track.tiles import (COLORS, Geometry, _Layout, _layout, Node, node_id, node_map, NodeRef, opposite,
                                          parse_node_id, Tile)


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
#: a tile set's token in `_TILE_SETS` -> its tiles grouped by (colour, label, towns, off-board areas), each
#: group in the set's order: the candidates of a derived upgrade (`Board.upgrade_targets`)
_TILE_GROUPS: dict[int, dict[tuple, tuple[Tile, ...]]] = {}


def _exit_mask(tile: Tile) -> int:
    """The edges a tile's track reaches at rotation 0, as bits (edge e: 1 << e)."""
    mask = _EXIT_MASKS.get(tile)
    if mask is None:
        mask = _EXIT_MASKS[tile] = sum(1 << e for e in _layout(tile, 0).exits)
    return mask


#: `_exit_mask` of each tile met
_EXIT_MASKS: dict[Tile, int] = {}


def _rotated_mask(mask: int, rotation: int) -> int:
    """An exit mask at `rotation` (edge e goes to (e + rotation) % 6, as `_layout` turns it)."""
    return ((mask << rotation) | (mask >> (6 - rotation))) & 0b111111 if rotation else mask


#: each exit mask at rotations 0-5 (`_rotated_mask`)
_ROTATED_MASKS = tuple(tuple(_rotated_mask(mask, r) for r in range(6)) for mask in range(64))


def _tile_groups(token: int, tiles: Mapping[str, Tile]) -> dict[tuple, tuple[Tile, ...]]:
    groups = _TILE_GROUPS.get(token)
    if groups is None:
        lists: dict[tuple, list[Tile]] = {}
        for t in tiles.values():
            lists.setdefault((t.color, t.label, t.towns, t.count("offboard")), []).append(t)
        groups = _TILE_GROUPS[token] = {k: tuple(v) for k, v in lists.items()}
    return groups
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


#: the MapHex built from each hex dict, by the dict's identity (as `_TILES_BY_DICT`: with the dict, the
#: hex id and the geometry that checked the id), so that every game of a title reads its map's dicts once
_HEXES_BY_DICT: dict[int, tuple[Mapping[str, Any], str, Geometry, "MapHex"]] = {}
#: `Board.nbr` by (geometry, hex ids in order)
_NEIGHBOURS: dict[tuple[Geometry, tuple[str, ...]], dict[str, tuple[str | None, ...]]] = {}


def _hex_of(geometry: Geometry, hex_id: str, data: Any) -> "MapHex":
    """The MapHex of `data` at `hex_id` (its id checked by `geometry`: ValueError when malformed)."""
    kept = _HEXES_BY_DICT.get(id(data))
    if kept is not None and kept[0] is data and kept[1] == hex_id and kept[2] == geometry:
        return kept[3]
    geometry.xy(hex_id)
    found = data if isinstance(data, MapHex) else MapHex.from_dict(hex_id, data)
    if len(_HEXES_BY_DICT) >= _TILES_KEPT:
        _HEXES_BY_DICT.clear()
    _HEXES_BY_DICT[id(data)] = (data, hex_id, geometry, found)
    return found


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
        #: (company, version) -> Reach (`lays.reach`), for the versions seen lately (lays and routes
        #: use the board; the board names neither, so the three import one way)
        self.reaches: dict[tuple[str, int], Any] = {}
        #: (company, version, phase) -> the whole map's route graph (`_route_graph`), lately
        self.graphs: dict[tuple, Any] = {}  # routes._Graph (and the graph of what the company reaches)
        #: (hex, node) -> the track walked from a node along each of its paths, with the tiles and
        #: borders the walks met (`routes._node_walks`): kept while those stand, whatever else changes
        self.walks: dict[tuple[str, int], Any] = {}
        #: hex -> (its placed tile, where track entering it by each edge or leaving each node leads within
        #: the hex, through its junctions: `lays._links`), kept while that tile lies there
        self.links: dict[str, Any] = {}
        #: (version, company, hex, tile, rotation, ...) -> a lay's verdict whatever the cash (`lays._judge`):
        #: the listing judges a lay, then its trial judges it again in the same state
        self.judged: dict[tuple, Any] = {}
        #: (company, hex, colours, tiles in the supply, `lays._hex_state`) -> the hex's legal lays whatever
        #: the cash (`lays._iter_lays`): kept across versions, as the verdicts read only that
        self.hex_lays: dict[tuple, Any] = {}
        #: (company, hex, tile, `lays._hex_state`) -> that tile's legal lays on the hex whatever the cash,
        #: at every rotation (`lays._iter_lays`, where `hex_lays` has none for the colours and supply now)
        self.tile_lays: dict[tuple, Any] = {}
        self.geometry = Geometry(layout, axes)
        self.hexes: dict[str, MapHex] = {}
        for hex_id, data in _items(hexes):
            self.hexes[hex_id] = _hex_of(self.geometry, hex_id, data)
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
        #: each hex's neighbours by edge (None off the map): a function of the geometry and the hex ids,
        #: shared by every board of the same map (never changed)
        nbr_key = (self.geometry, tuple(self.hexes))
        nbr = _NEIGHBOURS.get(nbr_key)
        if nbr is None:
            nbr = {
                h: tuple(
                    n if (n := self.geometry.neighbour(h, e)) in self.hexes else None for e in range(6)
                )
                for h in self.hexes
            }
            if len(_NEIGHBOURS) >= 64:
                _NEIGHBOURS.clear()
            _NEIGHBOURS[nbr_key] = nbr
        self.nbr: dict[str, tuple[str | None, ...]] = nbr
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

    def city_ref(self, city: str) -> NodeRef:
        """The node a city names: an 18xx.games city id ("57-0-0", `city`) or a route node id ("E15-2",
        `parse_node_id`). Raises ValueError where it names none."""
        return self.city(city) if city.count("-") == 2 else parse_node_id(city)

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
                # the tiles of the next colour with the old tile's label, towns and off-board areas (the
                # title's tiles grouped so once, in their order), then the cities and the track kept
                group = _tile_groups(self._tile_set, self.tiles).get(
                    (nxt, old.label, old.towns, old.count("offboard")), ())
                # (a rotation at which the new tile's track misses an old exit keeps no track: `node_map`'s
                # first test, asked of the exits' bit masks before a map is sought)
                need, cities, names = _exit_mask(old), old.cities, []
                for t in group:
                    merge = self.merges(old, t)
                    if t.cities != cities and not merge:
                        continue
                    turned = _ROTATED_MASKS[_exit_mask(t)]
                    if any(turned[r] & need == need and node_map(old, 0, t, r, merge=merge) is not None
                           for r in range(6)):
                        names.append(t.name)
                found = _DERIVED_UPGRADES[key] = tuple(names)
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

    def held(self) -> tuple:
        """The mutable state's own containers (not copies) and the version, for `adopt`. Taken just before
        a `restore`, which replaces every one of them, they hold the state as it was then, and nothing
        changes them after (a rolled-back trial's board, made again by `Journal.redo`)."""
        return (self.placed, self.in_use, self.tokens, self.reserved, self.home_nodes, self.paid_borders,
                self.borders, self.version)

    def adopt(self, held: tuple) -> None:
        """Put back the containers `held` gave (the board as it was then), themselves."""
        (self.placed, self.in_use, self.tokens, self.reserved, self.home_nodes, self.paid_borders,
         self.borders, self.version) = held

    def touch(self) -> None:
        """The board has changed (or is about to): what was worked out from
        its state before no longer applies. Who changes the board's
        attributes directly (not through its methods) calls this."""
        self.version = next(_BOARD_VERSIONS)
