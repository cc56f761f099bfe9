"""Track, part 3: what a company reaches (`reach`), tile lays (`legal_lays`, `check_lay`) and
station tokens (`legal_tokens`, `check_token`).

Part of `compiler.runtime.track` (its docstring holds the conventions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence

from compiler.runtime.errors import IllegalAction
from compiler.runtime.track.tiles import COLORS, _Layout, _layout, NODE, node_id, node_map, NodeRef, OFF_MAP_COLORS, opposite, _other, Refusal, Tile
from compiler.runtime.track.board import Board


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
        return self._in(0, hex_id)

    def nodes_in(self, hex_id: str) -> frozenset[int]:
        """The nodes of `hex_id` the company reaches."""
        return self._in(1, hex_id)

    def paths_in(self, hex_id: str) -> frozenset[int]:
        """The paths of `hex_id`'s tile the company can run on."""
        return self._in(2, hex_id)

    def _in(self, which: int, hex_id: str) -> frozenset[int]:
        """The entries (0), nodes (1) or paths (2) in `hex_id`: grouped by hex once (`_by_hex`), each hex's
        made a frozenset when first asked (a listing asks of a few hexes of a company's whole reach)."""
        index = self._by_hex()[which]
        found = index.get(hex_id)
        if found is None:
            return _NONE_IN
        if found.__class__ is not frozenset:
            found = index[hex_id] = frozenset(found)
        return found

    def _by_hex(self) -> tuple[dict[str, set[int] | frozenset[int]], ...]:
        # entries, nodes and paths by hex, worked out once (a lay is judged hex by hex)
        found = self.__dict__.get("_index")
        if found is None:
            found = tuple(_group(pairs) for pairs in (self.entries, self.nodes, self.paths))
            object.__setattr__(self, "_index", found)
        return found


#: what a hex the company does not reach holds of its reach
_NONE_IN: frozenset[int] = frozenset()
#: no border types, no special tiles: `_judge`'s defaults, in the keys of the verdicts a listing keeps
_NONE: frozenset = frozenset()


def _group(pairs: Iterable[tuple[str, int]]) -> dict[str, set[int]]:
    """The second of each pair by the first (a hex): sets, made frozensets as `Reach._in` reads them."""
    grouped: dict[str, set[int]] = {}
    for h, x in pairs:
        held = grouped.get(h)
        if held is None:
            grouped[h] = {x}
        else:
            held.add(x)
    return grouped


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


class _HexLinks:
    """Where track leads within one hex's tile (at its rotation), for `_walk`: entering by edge `e`
    (`from_edge[e]`) or leaving node `i` (`from_node[i]`), each as (the paths met, as (hex, path); the
    junctions met, as (hex, node); what the walk goes on to: (hex, NODE + node) for a node that is no
    junction, (hex, edge) for the track leaving the hex by that edge). A junction is passed whatever
    holds it, so what lies behind it belongs to the same entry; `kinds` and `terminal` are the tile's
    nodes' kinds and its terminal nodes, for the test of a node that is no junction."""

    __slots__ = ("from_edge", "from_node", "kinds", "terminal")

    def __init__(self, hex_id: str, tile: Tile, lay: _Layout):
        self.kinds = tuple(n.kind for n in tile.nodes)
        self.terminal = lay.terminal
        ends = lay.ends

        def spread(start: int, first: Sequence[int]) -> tuple[tuple, tuple, tuple]:
            paths: dict[tuple[str, int], None] = {}
            junctions: dict[tuple[str, int], None] = {}
            onward: dict[tuple[str, int], None] = {}
            seen = {start} if start >= NODE and self.kinds[start - NODE] == "junction" else set()
            todo = [(start, p) for p in first]
            while todo:
                frm, p = todo.pop()
                paths[(hex_id, p)] = None
                a, b = ends[p]
                other = b if a == frm else a
                if other >= NODE and self.kinds[other - NODE] == "junction":
                    junctions[(hex_id, other - NODE)] = None
                    if other not in seen:
                        seen.add(other)
                        todo.extend((other, q) for q in lay.node_paths[other - NODE])
                else:
                    onward[(hex_id, other)] = None
            return tuple(paths), tuple(junctions), tuple(onward)

        self.from_edge = tuple(spread(e, lay.edge_paths[e]) for e in range(6))
        self.from_node = tuple(spread(NODE + i, lay.node_paths[i]) for i in range(len(tile.nodes)))


def _links(board: Board, hex_id: str) -> _HexLinks:
    """The `_HexLinks` of the tile now on `hex_id`, kept in the board's `links` while it lies there."""
    here = board.placed[hex_id]
    kept = board.links.get(hex_id)
    if kept is not None and kept[0] is here:
        return kept[1]
    found = _HexLinks(hex_id, here.tile, _layout(here.tile, here.rotation))
    board.links[hex_id] = (here, found)
    return found


def _walk(board: Board, company: str) -> Reach:
    """`reach` worked out: from the company's station nodes along the track, hex by hex (`_HexLinks`: the
    paths and junctions an entry into a hex meets there, and where the track goes on), through every node
    but a terminal one or a city other companies' tokens fill, into every neighbouring hex the track
    leaves by, but across an impassable border."""
    nodes: set[NodeRef] = set()
    expanded: set[NodeRef] = set()
    entries: set[tuple[str, int]] = set()
    paths: set[tuple[str, int]] = set()
    starts = set(board.tokens_of(company))
    placed, nbr, borders, kept = board.placed, board.nbr, board.borders, board.links
    links: dict[str, _HexLinks] = {}  # each hex's, looked up once in the walk
    # (hex, NODE + node): a node reached; (hex, edge): the track leaving the hex by that edge
    stack: list[tuple[str, int]] = [(h, NODE + i) for h, i in starts]

    while stack:
        h, x = stack.pop()
        if x >= NODE:
            i = x - NODE
            ref = (h, i)
            nodes.add(ref)
            if ref in expanded:
                continue
            here = links.get(h)
            if here is None:
                found = kept.get(h)
                here = links[h] = found[1] if found is not None and found[0] is placed[h] else _links(board, h)
            if ref not in starts:
                # `Board.passable`: a junction is passed, a terminal node is not, nor a city it blocks
                kind = here.kinds[i]
                if kind != "junction" and (i in here.terminal or (kind == "city" and board.blocked(ref, company))):
                    continue
            expanded.add(ref)
            met, junctions, onward = here.from_node[i]
        else:  # leaving hex h through edge x
            nb = nbr[h][x]
            if nb is None:
                continue
            if borders:
                border = borders.get((h, x))
                if border is not None and border.type == "impassable":
                    continue
            e = (x + 3) % 6  # (`opposite`)
            side = (nb, e)
            if side in entries:
                continue
            entries.add(side)
            there = links.get(nb)
            if there is None:
                found = kept.get(nb)
                there = links[nb] = found[1] if found is not None and found[0] is placed[nb] else _links(board, nb)
            met, junctions, onward = there.from_edge[e]
        paths.update(met)
        if junctions:
            nodes.update(junctions)
        stack.extend(onward)
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
        near = near | _city_hexes(board)
    candidates = near if hexes is None else frozenset(hexes) & near
    return list(_iter_lays(board, company, colors, seen, cash, candidates))


def iter_legal_lays(
    board: Board,
    company: str,
    colors: Iterable[str],
    *,
    cash: int | None = None,
    exhaustive: bool = False,
    skip: Callable[[str], bool] | None = None,
) -> Iterator[Lay]:
    """`legal_lays`, one at a time (to stop at the first where only its existence matters);
    `exhaustive` judges every (hex, tile, rotation) (the test oracle, see `_iter_lays`). `skip(hex)`:
    the hexes the caller knows no lay is wanted in (neither judged nor listed)."""
    seen = reach(board, company)
    near = seen.hexes
    if board.rules.city_value_lays:
        near = near | _city_hexes(board)
    return _iter_lays(board, company, frozenset(colors), seen, cash, near, exhaustive, skip)


def _city_hexes(board: Board) -> frozenset[str]:
    """The hexes whose tile has a city (a lay raising a city's value needs no route, 18CO 5.6.10): read
    of each tile's count of its nodes by kind, made once (`Tile.count`)."""
    kept = board.__dict__.get("_city_hexes")
    if kept is not None and kept[0] == board.version:
        return kept[1]  # (kept by the board's version, which moves with every change to it)
    placed = board.placed
    found = frozenset(h for h in board.hexes if placed[h].tile._kinds.get("city"))  # (`Tile.count` inline)
    board.__dict__["_city_hexes"] = (board.version, found)
    return found


def _iter_lays(board: Board, company: str, colors: frozenset[str], seen: "Reach", cash: int | None,
               candidates: Iterable[str], exhaustive: bool = False,
               skip: Callable[[str], bool] | None = None) -> Iterator[Lay]:
    """The legal lays on `candidates`, each (hex, tile, rotation) judged by `_judge`. Unless
    `exhaustive`, the triples `_judge` would refuse whatever the state beyond the hex's own tile (an
    off-board area, a tile of a colour the phase does not allow or none left in the supply, a
    rotation that does not keep the old track: `_keeps_track`) are not judged, and a hex's lays are
    judged once for each state of what the verdicts read there (`_hex_state`), kept on the board
    across its versions (`Board.hex_lays`); the lays are the same (the exhaustive listing, which
    judges every triple anew, is the test oracle). `skip(hex)`: hexes with tiles to judge that the caller
    wants no lay in (`iter_legal_lays`; never with `exhaustive`)."""
    kept = board.hex_lays
    for h in sorted(candidates):
        if h not in board.hexes:
            continue
        old = board.placed[h]
        if not exhaustive and old.tile.color in OFF_MAP_COLORS:
            continue
        if exhaustive:
            for name in sorted(set(board.upgrade_targets(old.tile))):
                for rotation in range(6):
                    verdict = _judge(board, company, h, name, rotation, colors, seen, cash)
                    if isinstance(verdict, Lay):
                        yield verdict
            continue
        tiles = [(name, tile) for name, tile in _targets_of(board, old.tile, colors) if board.available(name) != 0]
        if not tiles or (skip is not None and skip(h)):
            continue
        key = (company, h, colors, tuple(name for name, _ in tiles), _hex_state(board, h, seen))
        lays = kept.get(key)
        if lays is None:
            walks = _TRIAL_WALKS[0]
            found = []
            # each tile's lays, kept by the hex's state alone (`Board.tile_lays`): the colours and the
            # supply only say which tiles are judged (a phase's new colour, a tile run out, leave the
            # verdicts of the others as they were)
            by_tile = board.tile_lays
            state = key[-1]
            version = board.version
            for name, tile in tiles:
                tile_key = (company, h, name, state)
                of_tile = by_tile.get(tile_key)
                if of_tile is not None:
                    for lay in of_tile:
                        _keep_verdict(board, (version, company, h, name, lay.rotation, colors, True, _NONE,
                                              _NONE, None), lay)
                    found += of_tile
                    continue
                tile_walks = _TRIAL_WALKS[0]
                of_tile = []
                for rotation in _keeps_track(board, old.tile, old.rotation, tile, name):
                    # judged anew (a verdict `Board.judged` keeps may have walked the whole board), and kept
                    # there for the trial of the lay in the same state
                    # (`_judge_placed`: the tests of `_judge_anew` before it passed, by the choice of `tiles`)
                    verdict = _judge_placed(board, company, h, name, rotation, tile, seen)
                    _keep_verdict(board, (version, company, h, name, rotation, colors, True, _NONE, _NONE, None), verdict)
                    if isinstance(verdict, Lay):
                        of_tile.append(verdict)
                found += of_tile
                if _TRIAL_WALKS[0] == tile_walks:
                    # (as `kept` below: no verdict walked the whole board)
                    if len(by_tile) >= 20_000:
                        by_tile.clear()
                    by_tile[tile_key] = tuple(of_tile)
            lays = tuple(found)
            if _TRIAL_WALKS[0] == walks:
                # no verdict walked the whole board (`_connects`' loop check): each is a function of the key
                if len(kept) >= 20_000:
                    kept.clear()
                kept[key] = lays
        else:
            # kept in `Board.judged` as well, for the trial of a listed lay in the same state
            version = board.version
            for lay in lays:
                _keep_verdict(board, (version, company, h, lay.tile, lay.rotation, colors, True, _NONE, _NONE, None), lay)
        for lay in lays:
            if cash is None or lay.cost <= cash:
                yield lay


def _targets_of(board: Board, old: Tile, colors: frozenset[str]) -> tuple[tuple[str, Tile], ...]:
    """The tiles that may replace `old` (`Board.upgrade_targets`), each once, by name, those of `colors`
    that the title has: (name, tile) pairs. A function of the board's tiles and upgrades, which never
    change in play, kept on the board for each old tile and set of colours (asked of every hex in reach in
    every lay listing)."""
    kept = board.__dict__.get("_targets_of")
    if kept is None:
        kept = board.__dict__["_targets_of"] = {}
    key = (old, colors)
    found = kept.get(key)
    if found is None:
        tiles = board.tiles
        found = kept[key] = tuple((name, tiles[name]) for name in sorted(set(board.upgrade_targets(old)))
                                  if name in tiles and tiles[name] is not None and tiles[name].color in colors)
    return found


#: how many times `_connects` has walked the whole board with a tile on trial: a verdict that did reads
#: more than its hex's state (`_hex_state`), and is not kept by it
_TRIAL_WALKS = [0]


def _hex_state(board: Board, h: str, seen: "Reach") -> tuple:
    """What `_judge_anew`'s verdicts on hex `h` read of the board and of what the company reaches, but
    for a walk of the whole board (`_connects`' loop check, counted in `_TRIAL_WALKS`): the tile on the
    hex, the stations and reservations on its nodes, the sides and nodes the company reaches there and
    whether it runs on some path of it; on each side the border, whether its cost is paid, whether the
    neighbour's tile is of a dead-end colour and has track to this side, and whether the company's
    track enters the neighbour from this hex. (The hex's printed data, the tiles, the upgrade chart and
    the track rules never change; the supply is in the key of `Board.hex_lays`.)"""
    placed, tokens, reserved, borders, paid = board.placed, board.tokens, board.reserved, board.borders, board.paid_borders
    dead_end = board.rules.dead_end_colors
    old = placed[h]
    stations = tuple([(tuple(tokens.get((h, i), ())), tuple(reserved.get((h, i), ())))
                      for i in range(len(old.tile.nodes))])
    entries = seen.entries
    sides = []
    for f, nb in enumerate(board.nbr[h]):
        border = borders.get((h, f))
        if nb is None:
            sides.append((None, border))
            continue
        there = placed[nb]
        back = (f + 3) % 6
        sides.append((border, border is not None and board._border_key(h, f) in paid, there.tile.color in dead_end,
                      back in _layout(there.tile, there.rotation).exits, (nb, back) in entries))
    return (old.tile, old.rotation, old.copy, stations, seen.entries_in(h), seen.nodes_in(h), bool(seen.paths_in(h)),
            tuple(sides))


def _keeps_track(board: Board, old: Tile, old_rotation: int, tile: Tile, name: str) -> tuple[int, ...]:
    """The rotations at which `tile` keeps the track of `old` (at `old_rotation`) as `_judge`
    maps it (a lay outside a private's special power): a function of the tiles and of the
    board's fixed rules (its upgrade chart, `merges`)."""
    loose = name in (board.upgrades or {}).get(old.name, ())
    merge = board.merges(old, tile)
    return _paired(old, (_rotations_keeping, old_rotation, id(tile), loose, merge), tile,
                   _rotations_keeping, old, old_rotation, tile, loose, merge)


def _paired(old: Tile, key: tuple, new: Tile, function: Callable, *args: Any) -> Any:
    """`function(*args)`, a function of the tiles `old` and `new` (and of values), kept on `old` by `key`
    (the function and its arguments with `new`'s identity, `Tile._pairs`)."""
    pairs = old._pairs
    found = pairs.get(key)
    if found is not None and found[0] is new:
        return found[1]
    answer = function(*args)
    if len(pairs) >= 4096:
        pairs.clear()
    pairs[key] = (new, answer)
    return answer


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
    verdict = judge_lay(board, company, hex_id, tile, rotation, colors, cash=cash, reachable=reachable,
                        crossable=crossable, special=special, special_from=special_from)
    if isinstance(verdict, str):
        raise IllegalAction(verdict, source=getattr(verdict, "source", None))
    return verdict


def judge_lay(
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
) -> Lay | str:
    """`check_lay`'s verdict without raising: the `Lay`, or why not (a listing that skips the refused
    lays, `GameBase._cand_ability_lays`, makes no exception for each)."""
    tile = tile.rsplit("-", 1)[0] if tile not in board.tiles and "-" in tile else tile
    return _judge(
        board, company, hex_id, tile, rotation, frozenset(colors), reach(board, company), cash,
        reachable=reachable, crossable=crossable, special=special, special_from=special_from,
    )


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
    """The `Lay` of `name` on `h` at `rotation` for `company`, or why not. `seen` is what the company
    reaches on the board (`reach(board, company)`); the verdict whatever the cash is kept on the board
    by its version (`Board.judged`), the cash checked last."""
    key = (board.version, company, h, name, rotation, colors, reachable, crossable, special, special_from)
    try:
        verdict = board.judged.get(key)
    except TypeError:  # an unhashable rotation or name: judged (and refused) as it comes
        verdict, key = None, None
    if verdict is None:
        verdict = _judge_anew(board, company, h, name, rotation, colors, seen, reachable=reachable,
                              crossable=crossable, special=special, special_from=special_from)
        if key is not None:
            _keep_verdict(board, key, verdict)
    if cash is not None and isinstance(verdict, Lay) and verdict.cost > cash:
        return f"#{name} at rotation {rotation} costs {verdict.cost}; {company} has {cash}"
    return verdict


def _keep_verdict(board: Board, key: tuple, verdict: Lay | str) -> None:
    """Keep a verdict whatever the cash in `Board.judged` (`_judge`'s key: the version, the company, the
    hex, tile and rotation, then `_judge`'s other arguments in order)."""
    if len(board.judged) >= 20_000:
        board.judged.clear()
    board.judged[key] = verdict


def _judge_anew(
    board: Board,
    company: str,
    h: str,
    name: str,
    rotation: int,
    colors: frozenset[str],
    seen: Reach,
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
    old = board.placed[h]
    if old.tile.color in OFF_MAP_COLORS:
        return f"{h} is an off-board area; no tile may be laid there"
    tile = board.tiles.get(name)
    if tile is None:
        return f"there is no tile #{name}"
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
    return _judge_placed(board, company, h, name, rotation, tile, seen, reachable=reachable, crossable=crossable,
                         special_lay=special_lay)


def _judge_placed(board: Board, company: str, h: str, name: str, rotation: int, tile: Tile, seen: Reach, *,
                  reachable: bool = True, crossable: frozenset[str] = frozenset(), special_lay: bool = False) -> Lay | str:
    """`_judge_anew`'s verdict once the hex, the rotation, the tile's colour, the upgrade chart and the supply
    have allowed `tile` (named `name`) on `h` (its label, the reservation, the old track and stations kept,
    the sides its new track runs to, the cost and the reach to judge): what `_iter_lays` asks of each
    rotation of a tile it lists, having chosen the tiles by those tests (`_targets_of`, the supply)."""
    mh = board.hexes[h]
    old = board.placed[h]
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
    label = f"#{name} at rotation {rotation}"
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
    # the tests of the tiles and of what the company reaches first, the walk of the new track (`_connects`,
    # which may walk the whole board) last: any one lets the lay be
    if reachable and not (
        board.rules.city_value_lays and _raises_a_city(old.tile, tile, mapping)
    ) and not (
        board.rules.same_track_upgrades
        and not first
        and _same_track(old_lay, new_lay, mapping)
        and bool(seen.paths_in(h))
    ) and not (
        board.rules.any_exit_reach
        and (bool(seen.entries_in(h) & new_lay.exits) or bool(seen.nodes_in(h)))
    ) and not _connects(board, company, h, tile, rotation, mapping, seen,
                        any_path=board.rules.reached_upgrades and not first):
        return f"{label} adds no new track that {company} can reach from its tokens"
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


@lru_cache(maxsize=1 << 16)
def _new_paths(old: Tile, old_rotation: int, tile: Tile, rotation: int, mapping: tuple[int, ...],
               any_path: bool) -> frozenset[int]:
    """The paths of `tile` at `rotation` that `old` at `old_rotation` lacked, its nodes renumbered by
    `mapping` (every path with `any_path`): `_connects`' question, a function of the tiles alone."""
    lay = _layout(tile, rotation)
    if any_path:
        return frozenset(range(len(lay.ends)))
    # each path by its two ends, the lesser first (a path's ends in either order), the old tile's nodes
    # renumbered: written out, as asked for every new pair of tiles laid
    kept = set()
    for a, b in _layout(old, old_rotation).ends:
        if a >= NODE:
            a = NODE + mapping[a - NODE]
        if b >= NODE:
            b = NODE + mapping[b - NODE]
        kept.add((a, b) if a <= b else (b, a))
    return frozenset(p for p, (a, b) in enumerate(lay.ends) if ((a, b) if a <= b else (b, a)) not in kept)


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
    lay = _layout(tile, rotation)
    mapping = tuple(mapping)
    new_paths = _paired(old.tile, (_new_paths, old.rotation, id(tile), rotation, mapping, any_path), tile,
                        _new_paths, old.tile, old.rotation, tile, rotation, mapping, any_path)
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
    _TRIAL_WALKS[0] += 1
    with board._trial(h, tile, rotation, mapping):
        after = reach(board, company)
    return any((h, p) in after.paths for p in new_paths)


# ---------------------------------------------------------------- station tokens


@dataclass(frozen=True)
class TokenSpot:
    """A legal station: city `node` on `hex`, slot `slot`; `city` its
    18xx.games id; `company` the company it was checked for (its fields
    `reserved` and `reached` in the DSL are that company's: `GameBase.spot_field`)."""

    hex: str
    node: int
    slot: int
    city: str
    company: str = field(default="", compare=False)

    def action(self, entity: str) -> dict[str, Any]:
        """The placement as an 18xx.games `place_token` action."""
        return {
            "type": "place_token",
            "entity": entity,
            "entity_type": "corporation",
            "city": self.city,
            "slot": self.slot,
        }


def legal_tokens(board: Board, company: str, *, first: bool = False) -> list[TokenSpot]:
    """Cities where `company` may place a station token now (1800 §11.2,
    18CO 5.7, 1880 VII.3.4): reachable over unblocked track, a free slot
    after other companies' reservations, and no token of the company in the
    hex already. With `first`, only the first of them (whether there is one)."""
    out = []
    # the hexes where the company has a station: `_token_verdict` refuses their cities, as it does a node
    # that is no city
    placed = {h for (h, _), held in board.tokens.items() if company in held}
    for ref in sorted(reach(board, company).nodes):
        if ref[0] in placed or board.node(ref).kind != "city":
            continue
        verdict = _token_verdict(board, company, ref, reachable=True)
        if isinstance(verdict, TokenSpot):
            out.append(verdict)
            if first:
                break
    return out


def check_token(board: Board, company: str, ref: NodeRef | str, *, home: bool = False) -> TokenSpot:
    """The `TokenSpot` if `company` may place a token in `ref` (a NodeRef, a
    route node id "E15-2" or a city id "57-0-0"); raises IllegalAction.
    `home`: a home station, which needs no track connection."""
    if isinstance(ref, str):
        try:
            ref = board.city_ref(ref)
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
    return TokenSpot(h, i, slot, board.city_id(ref), company)
