"""Track, part 5: routes (`route_revenue`, the given routes checked) and the best-revenue search
(`best_routes`), over the trains of `compiler.runtime.track.trains`.

Part of `compiler.runtime.track` (its docstring holds the conventions).
"""

from __future__ import annotations

import bisect
import itertools
import time
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Mapping, Sequence

from compiler.runtime.errors import IllegalAction
from compiler.runtime.track.tiles import NODE, _layout, node_id, NodeRef, opposite, _other, parse_node_id
from compiler.runtime.track.board import Board
from compiler.runtime.track.lays import reach
from compiler.runtime.track.trains import (
    _breaks_limit,
    _evaluate,
    _PLURAL,
    Bonuses,
    NO_BONUSES,
    OWN_CITY,
    run_value,
    TrainSpec,
)


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
        # each node but junctions, in order, with what the search reads of it: its kind, what its hex's
        # stops count as, its revenue in `phase`, whether a route may pass it (`Board.passable`) and
        # whether it holds the company's station (`Board.holders`), read in one pass over the nodes
        placed, hexes, tokens, phases = board.placed, board.hexes, board.tokens, board.phases
        refs: list[NodeRef] = []
        kinds: list[str] = []
        stops_as: list[str | None] = []
        rev: list[int] = []
        passable: list[bool] = []
        token: list[bool] = []
        for r in sorted(scope) if scope is not None else sorted(board.nodes()):
            here = placed[r[0]]
            node = here.tile.nodes[r[1]]
            kind = node.kind
            if kind == "junction":
                continue
            refs.append(r)
            kinds.append(kind)
            mh = hexes.get(r[0])
            stops_as.append(mh.stops_as if mh is not None else None)
            rev.append(node.revenue_at(phase, phases))
            held = tokens.get(r, ())
            held = tuple(held) + (None,) * (node.slots - len(held))
            if r[1] in _layout(here.tile, here.rotation).terminal:
                passable.append(False)
            else:
                passable.append(not (kind == "city" and bool(held) and None not in held and company not in held))
            token.append(company in held)
        self.refs = refs
        self.index = {r: k for k, r in enumerate(refs)}
        self.kind = kinds
        self.stops_as = stops_as
        self.rev = rev
        self.passable = passable
        self.token = token
        self.bits: dict[tuple[Any, ...], int] = {}
        self.seg_a: list[int] = []
        self.seg_b: list[int] = []
        self.seg_mask: list[int] = []
        self.seg_chain: list[tuple[str, ...]] = []
        self.adj: list[list[tuple[int, int]]] = [[] for _ in refs]
        self.by_chain: dict[tuple[str, ...], list[int]] = {}
        seen: set[tuple[int, int, int]] = set()
        bits = self.bits
        index, seg_a, seg_b, seg_mask, seg_chain = self.index, self.seg_a, self.seg_b, self.seg_mask, self.seg_chain
        adj, by_chain = self.adj, self.by_chain
        for k, (h, i) in enumerate(refs):
            trace, ends = _node_walks(board, h, i)
            for piece in trace:  # the track's bits, numbered in the order the walks meet the pieces
                if piece not in bits:
                    bits[piece] = 1 << len(bits)
            for end, pieces, chain in ends:
                other = index.get(end)
                if other is None or other == k:
                    continue
                mask = 0
                for piece in pieces:
                    mask |= bits[piece]
                key = (k, other, mask) if k < other else (other, k, mask)
                if key in seen:
                    continue
                seen.add(key)
                s = len(seg_a)
                seg_a.append(k)
                seg_b.append(other)
                seg_mask.append(mask)
                seg_chain.append(chain)
                adj[k].append((s, other))
                adj[other].append((s, k))
                by_chain.setdefault(chain, []).append(s)
                by_chain.setdefault(chain[::-1], []).append(s)

        for ways in self.adj:  # the search tries valuable neighbours first
            ways.sort(key=lambda way: -rev[way[1]])

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
    IllegalAction naming the route and the rule broken.

    The routes are read on the graph of what the company reaches (`_reach_graph`, the one the best-route
    search reads in the same state): every node of a legal route is reached from the company's station on
    it through nodes a route may pass, so a legal set of routes reads there as on the whole map, reading for
    reading, in the same order. Where they do not read there as a legal set, the whole map's graph
    (`_route_graph`) judges them, so that a refusal names what it names on the whole map."""
    if not routes:
        return RouteSet((), 0)  # no train runs: no graph to read
    ends = _chain_ends(routes)
    if ends is not None:
        # routes given by hex chains (18xx.games' `connections`) read only the nodes of their chains' end
        # hexes: a segment runs from a node of its chain's first hex to one of its last, so the reach graph
        # cut to the reached nodes of those hexes gives every reading the whole reach graph gives, in the
        # same order, with the same nodes; where it finds no legal one, the whole graphs judge as ever
        reached = reach(board, company)
        scope = [(h, i) for h in ends for i in reached.nodes_in(h)]
        try:
            return _route_revenue_on(_Graph(board, company, phase, scope=scope), company, routes, trains, extras)
        except IllegalAction:
            pass
    try:
        return _route_revenue_on(_reach_graph(board, company, phase), company, routes, trains, extras)
    except IllegalAction:
        return _route_revenue_on(_route_graph(board, company, phase), company, routes, trains, extras)


def _chain_ends(routes: Sequence[Mapping[str, Any]]) -> set[str] | None:
    """The hexes that begin or end a chain of `routes`' connections, where every route is given by its
    connections as lists of hex ids; else None."""
    ends: set[str] = set()
    for route in routes:
        chains = route.get("connections") if isinstance(route, Mapping) else None
        if not chains or not isinstance(chains, list):
            return None
        for chain in chains:
            if not isinstance(chain, (list, tuple)) or not chain or not all(isinstance(h, str) for h in chain):
                return None
            ends.add(chain[0])
            ends.add(chain[-1])
    return ends


def _route_revenue_on(
    g: _Graph,
    company: str,
    routes: Sequence[Mapping[str, Any]],
    trains: Mapping[str, Any] | None,
    extras: Bonuses,
) -> RouteSet:
    """`route_revenue` on the route graph `g`."""
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


def _node_walks(
    board: Board, h: str, i: int
) -> tuple[tuple[tuple[Any, ...], ...], list[tuple[NodeRef, tuple[tuple[Any, ...], ...], tuple[str, ...]]]]:
    """The segments that leave node `i` of hex `h`, path by path, through plain track and
    junctions, to the next node: (the pieces of track the walks meet, in the order they meet them;
    for each segment, its far node, the pieces it uses and the hexes it crosses). A piece is a
    hex side (hex, edge) or a path between two nodes (hex, "path", path). A function of the tiles
    on the hexes the walks cross and the borders they meet: kept in the board's `walks` while
    those stand (one lay changes the walks through one hex; a token, none), so that a route
    graph (`_Graph`) is built from the walks kept, as the walks themselves would build it."""
    placed, borders = board.placed, board.borders
    kept = board.walks.get((h, i))
    if kept is not None:
        tiles, sides, trace, ends = kept
        for x, held in tiles:
            if placed[x] is not held:
                break
        else:
            for side, border in sides:
                if borders.get(side) is not border:
                    break
            else:
                return trace, ends
    met: dict[tuple[Any, ...], None] = {}
    seen_tiles: dict[str, Any] = {}
    seen_sides: dict[tuple[str, int], Any] = {}
    found: list[tuple[NodeRef, tuple[tuple[Any, ...], ...], tuple[str, ...]]] = []

    def walk(h: str, p: int, frm: int, used: tuple[tuple[Any, ...], ...], chain: tuple[str, ...]) -> None:
        here = seen_tiles.setdefault(h, placed[h])
        lay = _layout(here.tile, here.rotation)
        other = _other(lay.ends[p], frm)
        if frm >= NODE and other >= NODE:
            piece: tuple[Any, ...] = (h, "path", p)
            met[piece] = None
            if piece in used:
                return
            used += (piece,)
        if other >= NODE:
            j = other - NODE
            if here.tile.nodes[j].kind == "junction":
                for q in lay.node_paths[j]:
                    if q != p:
                        walk(h, q, other, used, chain)
                return
            found.append(((h, j), used, chain))
            return
        piece = (h, other)
        met[piece] = None
        if piece in used:
            return
        used += (piece,)
        nb = board.nbr[h][other]
        border = seen_sides.setdefault((h, other), borders.get((h, other)))
        if nb is None or (border is not None and border.type == "impassable"):
            return
        e = opposite(other)
        piece = (nb, e)
        met[piece] = None
        if piece in used:
            return
        used += (piece,)
        there = seen_tiles.setdefault(nb, placed[nb])
        for q in _layout(there.tile, there.rotation).edge_paths[e]:
            walk(nb, q, e, used, chain + (nb,))

    start = seen_tiles.setdefault(h, placed[h])
    for p in _layout(start.tile, start.rotation).node_paths[i]:
        walk(h, p, NODE + i, (), (h,))
    trace = tuple(met)
    board.walks[(h, i)] = (tuple(seen_tiles.items()), tuple(seen_sides.items()), trace, found)
    return trace, found


def _reach_graph(board: Board, company: str, phase: str | None) -> _Graph:
    """The route graph of what `company` reaches (`lays.reach`), kept per board version as the whole
    map's is (`_route_graph`): the search's question whether any run pays, its search for the best and
    the check of the run taken ask it in one state."""
    key = (company, board.version, phase, "reach")
    g = board.graphs.get(key)
    if g is None:
        if len(board.graphs) >= _GRAPHS_KEPT:
            board.graphs.clear()
        g = board.graphs[key] = _Graph(board, company, phase, scope=reach(board, company).nodes)
    return g


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
    includes its bonuses (`extras`); a route breaking a stop limit is left out.

    A route's stops are numbered as the search meets them (`_StopSets`): one number per set of stops
    (as `_evaluate` reads them) the train may visit, and for each the number of that set grown by a
    stop, worked out once a search."""
    sets = _stop_sets(spec)
    counted = sets.counted(g.kind)
    stop_of = sets.stop_ids([(-g.rev[n], g.stop_kind(n, spec)) if counted[n] else None for n in range(len(counted))])
    grown_by, grow_set, sizes, values = sets.grown_by, sets.grow, sets.sizes, sets.values
    found: dict[tuple[tuple[int, ...], int], _Cand] = {}
    passable, adj, seg_mask, tick = g.passable, g.adj, g.seg_mask, budget.tick
    bonuses = bool(extras)

    def record(nodes: tuple[int, ...], segs: tuple[int, ...], mask: int, stops: int) -> None:
        key = (nodes if nodes[0] < nodes[-1] else nodes[::-1], mask)
        if key in found:
            return
        if bonuses:
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
            revenue = values[stops]
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
        stops: int,
    ) -> None:
        end = lnodes[-1] if lnodes else t
        if lnodes and not passable[end]:
            return
        # (a route is recorded where both its ends are stops and it has two: `record`'s tuples built then)
        right_counts = counted[right[-1]]
        for s, other in adj[end]:
            if budget.cut:
                return
            m = seg_mask[s]
            if members >> other & 1 or used & m:
                continue
            stop = stop_of[other]
            if stop is None:
                grown = stops
            else:
                grown = grown_by[stops].get(stop)
                if grown is None:
                    grown = grow_set(stops, stop)
                if grown < 0:
                    continue  # the train may not visit these stops
            tick()
            lnodes.append(other)
            lsegs.append(s)
            if right_counts and stop is not None and sizes[grown] >= 2:
                record(
                    tuple(reversed(lnodes)) + tuple(right),
                    tuple(reversed(lsegs)) + tuple(rsegs),
                    used | m,
                    grown,
                )
            if passable[other]:  # (past a node a route may not pass, `left` has nothing to grow)
                left(t, right, rsegs, lnodes, lsegs, used | m, members | 1 << other, grown)
            lnodes.pop()
            lsegs.pop()

    def grow(t: int, right: list[int], rsegs: list[int], used: int, members: int, stops: int) -> None:
        if len(right) > 1:
            if sizes[stops] >= 2 and stop_of[t] is not None and stop_of[right[-1]] is not None:
                record(tuple(right), tuple(rsegs), used, stops)
            if passable[t]:
                left(t, right, rsegs, [], [], used, members, stops)
        end = right[-1]
        if end != t and not passable[end]:
            return
        for s, other in adj[end]:
            if budget.cut:
                return
            m = seg_mask[s]
            if members >> other & 1 or used & m:
                continue
            stop = stop_of[other]
            if stop is None:
                grown = stops
            else:
                grown = grown_by[stops].get(stop)
                if grown is None:
                    grown = grow_set(stops, stop)
                if grown < 0:
                    continue  # the train may not visit these stops
            tick()
            right.append(other)
            rsegs.append(s)
            grow(t, right, rsegs, used | m, members | 1 << other, grown)
            right.pop()
            rsegs.pop()

    for t in range(len(g.refs)):
        if g.token[t] and not budget.cut:
            stop = stop_of[t]
            start = 0 if stop is None else grow_set(0, stop)
            if start >= 0:
                grow(t, [t], [], 0, 1 << t, start)
    return sorted(found.values(), key=lambda c: -c.revenue)


class _StopSets:
    """The sets of stops a train's route searches meet (`_enumerate`), numbered: 0 the empty set, each
    other one a set the train may visit. A stop is a number for its (-revenue, kind) pair (`stop_ids`); a
    set is the sorted tuple of its pairs, as `_evaluate` takes them (its answer, the set's revenue, in
    `values`). `grown_by[k][stop]`: the number of set k grown by `stop`, or -1 where the train may not
    visit that set (`grow` works it out the first time). A function of the train alone: kept for each kind
    of train (`_STOP_SETS`) from one search to the next, which meet the same sets again and again."""

    def __init__(self, spec: TrainSpec) -> None:
        self.spec = spec
        self.ids: dict[tuple[int, str], int] = {}
        self.pairs: list[tuple[int, str]] = []
        self.sets: list[tuple[tuple[int, str], ...]] = [()]
        self.sizes: list[int] = [0]
        self.values: list[int | None] = [None]
        self.grown_by: list[dict[int, int]] = [{}]
        self.number: dict[tuple[tuple[int, str], ...], int] = {(): 0}
        #: node kind -> whether the train stops there (`TrainSpec.counts`)
        self.counts: dict[str, bool] = {}

    def counted(self, kinds: Sequence[str]) -> list[bool]:
        """`TrainSpec.counts` of each of `kinds`."""
        counts, spec = self.counts, self.spec
        out = []
        for kind in kinds:
            found = counts.get(kind)
            if found is None:
                found = counts[kind] = spec.counts(kind)
            out.append(found)
        return out

    def stop_ids(self, stops: Sequence[tuple[int, str] | None]) -> list[int | None]:
        """The number of each stop of `stops` (None stays None)."""
        ids, pairs = self.ids, self.pairs
        out: list[int | None] = []
        for stop in stops:
            if stop is not None:
                found = ids.get(stop)
                if found is None:
                    found = ids[stop] = len(pairs)
                    pairs.append(stop)
                stop = found
            out.append(stop)
        return out

    def grow(self, k: int, stop: int) -> int:
        """The number of set `k` grown by `stop` (-1: the train may not visit it), kept in `grown_by`."""
        grown = list(self.sets[k])
        bisect.insort(grown, self.pairs[stop])
        new = tuple(grown)
        found = self.number.get(new)
        if found is None:
            value = _evaluate(self.spec, new)
            if value is None:
                found = -1
            else:
                found = len(self.sets)
                self.sets.append(new)
                self.sizes.append(len(new))
                self.values.append(value)
                self.grown_by.append({})
            self.number[new] = found
        self.grown_by[k][stop] = found
        return found


#: each kind of train's `_StopSets` (a train spec named "", as `_best_routes` names its kinds)
_STOP_SETS: dict[TrainSpec, _StopSets] = {}
#: how many sets of stops one `_StopSets` numbers before it starts again
_STOP_SETS_KEPT = 100_000


def _stop_sets(spec: TrainSpec) -> _StopSets:
    """The `_StopSets` of `spec`, new where it has none or numbers too many sets (a search keeps the one
    it starts with)."""
    sets = _STOP_SETS.get(spec)
    if sets is None or len(sets.sets) >= _STOP_SETS_KEPT:
        if len(_STOP_SETS) >= 256:
            _STOP_SETS.clear()
        sets = _STOP_SETS[spec] = _StopSets(spec)
    return sets


# how many sets of track in use one route index remembers the clashes of
_FREE_MEMO = 200_000


class _FreeIndex:
    """For a list of candidate routes: which of them avoid some track.

    Per segment of the graph, a bitset of the routes that run on it; a route
    is free of the track of other routes when none of its segments touches it (its bit is not
    in the union of `route_clash` of those routes)."""

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
        self._seg_mask = g.seg_mask
        # per segment: the routes that share some track with it (`route_clash`)
        self._seg_clashes: dict[int, int] = {}

    def route_clash(self, route: _Cand) -> int:
        """Bitset of the routes that share some track with `route`: the union of the clashes of its
        segments (its mask is the union of theirs), each the union of the clashes of its pieces of
        track, worked out once. The clash of two routes together is the union of their clashes: the
        search adds a route's (`_choose`)."""
        clash = self._clashes.get(route.mask)
        if clash is None:
            clash = 0
            seg_clashes, clash_on = self._seg_clashes, self.clash_on
            for seg in route.segs:
                more = seg_clashes.get(seg)
                if more is None:
                    more, rest = 0, self._seg_mask[seg]
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        more |= clash_on.get(low, 0)
                    seg_clashes[seg] = more
                clash |= more
            if len(self._clashes) < _FREE_MEMO:
                self._clashes[route.mask] = clash
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
    g = _reach_graph(board, company, phase)
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
        outside = ~c.mask
        # the list is sorted by revenue, so only an earlier route may dominate this one
        for m in masks:
            if not m & outside:
                break
        else:
            kept.append(i)
            masks.append(c.mask)
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

    clash_of = [index.route_clash for index in distinct]
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
        clash_of.append(where.route_clash)
    conflicts = [where.route_clash(c) for c in merged]
    revenue_at = [c.revenue for c in merged]
    # the merged routes of the trains from k on, and how many trains that is
    # (each list's routes in the merged list as a bitset, made from a string of its bits: a sum of
    # 1 << i over the routes costs time in the square of their number)
    owned = [int("".join("1" if s == k else "0" for s in reversed(owner)) or "0", 2) for k in range(len(distinct))]
    later_merged = []
    for k in range(len(lists) + 1):
        left_mask = 0
        for s in {slot[j] for j in range(k, len(lists))}:
            left_mask |= owned[s]
        later_merged.append(left_mask)
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
                grown: tuple[int, ...] = (clashes[0] | clash_of[0](c),)
            else:
                grown = tuple([clash | more(c) for clash, more in zip(clashes, clash_of)])
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
