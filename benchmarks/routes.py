"""Time the best-revenue route search on a constructed late-game board.

    python benchmarks/routes.py [--seed S] [--columns N] [--time-limit SECONDS]

Builds a flat-hex board programmatically (default 8 columns x 6 rows = 48
hexes): brown cities with two stations, green and brown plain track in the
other hexes (tracks kept on the map), a few towns and off-board arrows on the
edges; tokens of the running company and of two rivals (which block some
cities). Then times `best_routes` for the company's three trains, and for
comparison one and two trains. Figures only; nothing here passes or fails.

Then the real maps: 1800's and 18CO's boards from their generated engines,
brought to a late-game position by laying random legal tiles (yellow, then
green, then brown) for a running company and two rivals and placing their
tokens, and the same search for three trains.
"""

from __future__ import annotations

import argparse
import random

import time

from compiler.runtime.track import Board, Geometry, best_routes, legal_lays, legal_tokens, reach

ARROW = {"2": 20, "5": 50}


def build(columns: int, rows: int, seed: int, density: float) -> tuple[Board, dict]:
    """A synthetic late-game board and facts about it.

    Each pair of neighbouring hexes is joined by track with probability
    `density`; a city joins all its track sides to its station; a plain hex
    joins its sides in pairs plus a diverging branch or two, as the green and
    brown plain tiles do (at most four paths); arrows sit on the left and
    right edges."""
    rng = random.Random(seed)
    geo = Geometry("flat")
    ids = [geo.hex_id(x, y) for x in range(columns) for y in range(x % 2, 2 * rows, 2)]
    on_map = set(ids)
    kinds = {}
    for hex_id in ids:
        x, y = geo.xy(hex_id)
        roll = rng.random()
        if x in (0, columns - 1) and roll < 0.3:
            kinds[hex_id] = "offboard"
        elif roll < 0.35:
            kinds[hex_id] = "city"
        elif roll < 0.45:
            kinds[hex_id] = "town"
        else:
            kinds[hex_id] = "plain"
    sides: dict[str, set[int]] = {h: set() for h in ids}
    for hex_id in ids:
        for edge in (3, 4, 5):  # each side once
            other = geo.neighbour(hex_id, edge)
            if other not in on_map or rng.random() > density:
                continue
            if "offboard" in (kinds[hex_id], kinds[other]) and (
                sides[hex_id] if kinds[hex_id] == "offboard" else sides[other]
            ):
                continue  # one arrow per off-board hex
            sides[hex_id].add(edge)
            sides[other].add((edge + 3) % 6)
    hexes: dict[str, dict] = {}
    for hex_id in ids:
        kind, edges = kinds[hex_id], sorted(sides[hex_id])
        if kind == "offboard" and edges:
            hexes[hex_id] = {
                "color": "red",
                "nodes": [{"kind": "offboard", "revenue": ARROW}],
                "paths": [{"a": edges[0], "b": "n0"}],
            }
        elif kind == "city" or (kind == "town" and len(edges) >= 2):
            node = (
                {"kind": "city", "revenue": rng.choice((30, 40, 50, 60)), "slots": 2}
                if kind == "city"
                else {"kind": "town", "revenue": 20}
            )
            hexes[hex_id] = {
                "color": "brown" if kind == "city" else "green",
                "nodes": [node],
                "paths": [{"a": e, "b": "n0"} for e in edges],
            }
        else:
            rng.shuffle(edges)
            pairs = [(edges[k], edges[k + 1]) for k in range(0, len(edges) - 1, 2)]
            if len(edges) % 2 and len(edges) > 1:
                pairs.append((edges[-1], edges[0]))  # a diverging branch
            while len(pairs) < 4 and len(edges) >= 3 and rng.random() < 0.4:
                a, b = rng.sample(edges, 2)
                if (a, b) not in pairs and (b, a) not in pairs:
                    pairs.append((a, b))
            color = "brown" if len(pairs) > 2 else "green"
            hexes[hex_id] = {
                "color": color if pairs else "white",
                "paths": [{"a": a, "b": b} for a, b in pairs],
            }
    board = Board(hexes, layout="flat", phases=["2", "3", "4", "5", "6"])
    cities = [ref for ref in board.nodes() if board.node(ref).kind == "city"]
    rng.shuffle(cities)
    for ref in cities[:3]:
        board.place_token("ME", ref)
    for ref in cities[3:6]:  # rivals fill some cities completely
        board.place_token("R1", ref)
        board.place_token("R2", ref)
    facts = {
        "hexes": len(ids),
        "track hexes": sum(1 for h in hexes.values() if h.get("paths")),
        "cities": len(cities),
        "towns": sum(1 for r in board.nodes() if board.node(r).kind == "town"),
        "off-boards": sum(1 for r in board.nodes() if board.node(r).kind == "offboard"),
        "pieces of track": sum(len(h.get("paths", ())) for h in hexes.values()),
    }
    return board, facts


def train(name: str, distance: int | list) -> dict:
    return {"id": name, "name": name.split("-")[0], "distance": distance}


EXPRESS = [
    {"nodes": ["city", "offboard"], "pay": 99, "visit": 99},  # 18CO's E: no limit
    {"nodes": ["town"], "pay": 99, "visit": 99},
]
TRAIN_SETS = [
    [train("4-0", 4)],
    [train("4-0", 4), train("5-0", 5)],
    [train("4-0", 4), train("5-0", 5), train("6-0", 6)],
    [train("5-0", 5), train("6-0", 6), train("E-0", EXPRESS)],
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1800)
    parser.add_argument("--density", type=float, default=0.75)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--sizes", default="8x6,12x8", help="boards as COLUMNSxROWS,...")
    args = parser.parse_args()

    print(
        "synthetic late-game boards; the real 1800/18CO maps will be used here once "
        "their transcription into the rulespecs lands"
    )
    for size in args.sizes.split(","):
        columns, rows = (int(n) for n in size.split("x"))
        board, facts = build(columns, rows, args.seed, args.density)
        seen = reach(board, "ME")
        print(f"\nboard {size}: " + ", ".join(f"{v} {k}" for k, v in facts.items()))
        print(
            f"  company ME (3 tokens) reaches {len(seen.nodes)} nodes over {len(seen.paths)} paths"
        )
        for trains in TRAIN_SETS:
            result = best_routes(board, "ME", trains, "5", time_limit=args.time_limit)
            names = "+".join(t["id"] for t in trains)
            state = "exact" if result.complete else "cut short: best so far"
            print(
                f"  best_routes {names:<16} {1000 * result.seconds:9.1f} ms"
                f"  revenue {result.revenue:5d}  {result.steps:8d} steps  {state}"
            )
            for run in result.runs:
                print(f"      {run.train}: {'-'.join(run.nodes)}  ({run.revenue})")




def real_board(title: str) -> Board:
    """The title's map, built from its generated engine's data (no game is
    started, so titles whose rules are still gaps can be timed too)."""
    from compiler.emit.engines import game_class
    from compiler.runtime.data import Table

    data = game_class(title).DATA

    def table(name):
        value = data.properties.get(name)
        return {k[0]: v for k, v in value.rows} if isinstance(value, Table) else None

    upgrades = table("upgrades")
    if upgrades is not None:
        upgrades = {k: v for k, v in upgrades.items() if isinstance(v, list)}
    return Board(
        {c["key"]: c for c in data.components_of("hex")},
        layout=data.properties.get("layout", "flat"),
        axes=data.properties.get("axes"),
        tiles={c["key"]: c for c in data.components_of("tile")},
        tile_counts=table("tile_counts"),
        upgrades=upgrades,
        phases=[p["key"] for p in data.components_of("phase")],
    )


def late_game(board: Board, companies: list[str], seed: int, lays: int) -> Board:
    """Random legal lays, colour by colour, by the companies in turn, with
    a token now and then: a late-game position on a real map."""
    rng = random.Random(seed)
    homes = {c: [(h, n) for h, mh in board.hexes.items() for who, n in mh.homes if who == c] for c in companies}
    for company in companies:
        for ref in homes[company][:1]:
            board.place_token(company, ref)
    for colors in (["yellow"], ["yellow", "green"], ["yellow", "green", "brown"]):
        for i in range(lays):
            company = companies[i % len(companies)]
            options = legal_lays(board, company, colors)
            if options:
                lay = rng.choice(options)
                try:
                    board.lay(lay.hex, lay.tile, lay.rotation, None, lay.mapping or None)
                except ValueError:
                    pass
            if i % 6 == 5:
                spots = legal_tokens(board, company)
                if spots:
                    spot = rng.choice(spots)
                    board.place_token(company, (spot.hex, spot.node), spot.slot)
    return board


def time_real(title: str, companies: list[str], trains: list[dict], phase: str, lays: int,
              time_limit: float) -> None:
    board = late_game(real_board(title), companies, seed=1, lays=lays)
    laid = sum(1 for placed in board.placed.values() if placed.copy is not None)
    start = time.perf_counter()
    result = best_routes(board, companies[0], trains, phase, time_limit=time_limit)
    seconds = time.perf_counter() - start
    names = "+".join(t.get("id", "?") for t in trains)
    print(f"{title} real map: {len(board.hexes)} hexes, {laid} tiles laid, "
          f"{len(reach(board, companies[0]).nodes)} nodes reached; {names}: "
          f"{1000 * seconds:.0f} ms, revenue {result.revenue}, "
          f"{'exact' if result.complete else 'cut short (best so far)'}")


def main_real(time_limit: float) -> None:
    time_real("1800", ["DRGW", "CS"], [train("4", 4), train("5", 5), train("2E", [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}])],
              "6", 12, time_limit)
    homed = sorted({who for mh in real_board("18CO").hexes.values() for who, _ in mh.homes})
    time_real("18CO", homed[:3], [train("4", 4), train("5", 5), train("6", 6)], "6", 60, time_limit)


if __name__ == "__main__":
    main()
    main_real(10.0)
