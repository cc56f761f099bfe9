"""Maps and tile-upgrade charts for the reference site, drawn as SVG by Python.

`board_of(module)` builds the runtime's `track.Board` from a generated
engine's data (the same hexes, tiles, tile counts and upgrade chart play
uses; None when the title has no map or its map cannot be read yet, with
the reason). `map_svg(board)` draws it: one hex per map hex, coloured as
printed, its pre-printed track, cities (one circle per station slot, home
reservations lettered in them), towns, off-board revenues, labels, terrain
costs and borders; hovering a hex shows its id, name and costs.
`upgrades_svg(board)` draws the tile set as columns by colour with a line
for each upgrade the chart (or, where the title gives none, the runtime's
derivation) allows.

Geometry follows `compiler/runtime/track/` (doubled coordinates; edges 0-5
clockwise). Output is deterministic: fixed sizes, numbers rounded, hexes in
sorted order.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from compiler.runtime import track

R = 30.0  # hex radius (centre to corner), in the drawing's units
MARGIN = 20.0
#: The map is shown at least this much larger than drawn (a hex 90 px across), and at least
#: MIN_WIDTH px wide: its revenues and hex names are then readable on a page.
MAP_SCALE = 1.5
MIN_WIDTH = 640.0
SQ3 = math.sqrt(3)

FILL = {
    "white": "#f3eedc", "yellow": "#fde900", "green": "#71bf44", "brown": "#cb7745",
    "gray": "#bcbdc0", "grey": "#bcbdc0", "red": "#e05050", "blue": "#6fa8dc",
}
TERRAIN = {"mountain": "#8d6e63", "hill": "#a1887f", "water": "#1e88e5", "river": "#1e88e5",
           "lake": "#1e88e5", "swamp": "#558b2f", "forest": "#2e7d32"}


def _f(v: float) -> str:
    """A coordinate, rounded so the text is deterministic."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def board_of(module) -> tuple[track.Board | None, str | None]:
    """(the engine's map as a Board, None) or (None, why there is none).

    `module`: a generated engine module (its `DATA`)."""
    data = module.DATA
    hexes = data.components_of("hex")
    if not hexes:
        return None, "the title has no map (no `hex` components)"
    try:
        tiles = {c["key"]: c for c in data.components_of("tile")}

        def table(name):
            t = data.properties.get(name)
            if t is None or not hasattr(t, "rows") or len(t.dims) != 1:
                return None
            return {keys[0]: value for keys, value in t.rows}

        counts = table("tile_counts")
        upgrades = table("upgrades")
        layout = data.properties.get("layout", "flat")
        probe = track.Board({c["key"]: c for c in hexes}, layout=layout, axes=data.properties.get("axes"),
                            tiles=tiles)
        if upgrades is not None:
            upgrades = {k: (list(v) if isinstance(v, (list, tuple)) else
                            list(probe.upgrade_targets(probe.tiles[k])) if k in probe.tiles else [])
                        for k, v in upgrades.items()}
        board = track.Board({c["key"]: c for c in hexes}, layout=layout, axes=data.properties.get("axes"),
                            tiles=tiles, tile_counts=counts, upgrades=upgrades)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return None, f"the map cannot be read yet ({type(exc).__name__}: {exc})"
    return board, None


# ---------------------------------------------------------------- geometry

def _centre(board: track.Board, hex_id: str) -> tuple[float, float]:
    x, y = board.geometry.xy(hex_id)
    if board.geometry.layout == "flat":
        return x * 1.5 * R, y * SQ3 / 2 * R
    return x * SQ3 / 2 * R, y * 1.5 * R


def _corners(cx: float, cy: float, layout: str, r: float = R) -> list[tuple[float, float]]:
    start = 0 if layout == "flat" else 30
    return [(cx + r * math.cos(math.radians(start + 60 * k)), cy + r * math.sin(math.radians(start + 60 * k)))
            for k in range(6)]


#: The screen angle (degrees, y down) of each edge's midpoint, by layout.
EDGE_ANGLE = {"flat": (90, 150, 210, 270, 330, 30), "pointy": (120, 180, 240, 300, 0, 60)}


def _edge_point(cx: float, cy: float, layout: str, edge: int, scale: float = 1.0) -> tuple[float, float]:
    a = math.radians(EDGE_ANGLE[layout][edge % 6])
    d = R * SQ3 / 2 * scale
    return cx + d * math.cos(a), cy + d * math.sin(a)


def _node_points(tile: track.Tile, rotation: int, cx: float, cy: float, layout: str) -> list[tuple[float, float]]:
    """Where each node of a tile is drawn: the centre for a lone node; else
    pulled towards the edges its track reaches, or spread round the centre."""
    n = len(tile.nodes)
    if n == 1:
        return [(cx, cy)]
    points = []
    for i in range(n):
        edges = []
        for a, b in tile.rotated_paths(rotation):
            ends = (a, b)
            if f"n{i}" in ends:
                other = b if a == f"n{i}" else a
                if isinstance(other, int):
                    edges.append(other)
        if edges:
            xs = [_edge_point(cx, cy, layout, e, 0.5) for e in edges]
            points.append((sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)))
        else:
            a = math.radians(90 + 360 * i / n)
            points.append((cx + R * 0.4 * math.cos(a), cy + R * 0.4 * math.sin(a)))
    return points


def _tile_body(tile: track.Tile, rotation: int, cx: float, cy: float, layout: str,
               homes: dict[int, list[str]] | None = None, fill: str | None = None) -> list[str]:
    """SVG elements of a tile (or a pre-printed hex) centred on (cx, cy)."""
    out = []
    colour = fill or FILL.get(tile.color, "#dddddd")
    pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in _corners(cx, cy, layout))
    out.append(f'<polygon points="{pts}" fill="{colour}" stroke="#555" stroke-width="1"/>')
    nodes = _node_points(tile, rotation, cx, cy, layout)
    for a, b in tile.rotated_paths(rotation):
        p = [_edge_point(cx, cy, layout, e) if isinstance(e, int) else nodes[int(e[1:])] for e in (a, b)]
        if isinstance(a, int) and isinstance(b, int):
            out.append(f'<path d="M{_f(p[0][0])},{_f(p[0][1])} Q{_f(cx)},{_f(cy)} {_f(p[1][0])},{_f(p[1][1])}" '
                       'fill="none" stroke="#222" stroke-width="4"/>')
        else:
            out.append(f'<line x1="{_f(p[0][0])}" y1="{_f(p[0][1])}" x2="{_f(p[1][0])}" y2="{_f(p[1][1])}" '
                       'stroke="#222" stroke-width="4"/>')
    for i, (node, (x, y)) in enumerate(zip(tile.nodes, nodes)):
        revenue = node.revenue if isinstance(node.revenue, int) else "/".join(str(v) for _, v in node.revenue)
        if node.kind == "city":
            slots = max(1, node.slots)
            r = R * (0.24 if slots == 1 else 0.19)
            who = (homes or {}).get(i, [])
            for k in range(slots):
                sx = x + (k - (slots - 1) / 2) * 2 * r
                out.append(f'<circle cx="{_f(sx)}" cy="{_f(y)}" r="{_f(r)}" fill="#fff" stroke="#222" stroke-width="1.5"/>')
                if k < len(who):
                    out.append(f'<text x="{_f(sx)}" y="{_f(y + 2.5)}" font-size="6.5" text-anchor="middle">'
                               f'{escape(who[k][:4])}</text>')
            if revenue:
                out.append(f'<text x="{_f(x)}" y="{_f(y - r - 2)}" font-size="8" text-anchor="middle" '
                           f'font-weight="bold">{escape(str(revenue))}</text>')
        elif node.kind == "town":
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(R * 0.11)}" fill="#222"/>')
            if revenue:
                out.append(f'<text x="{_f(x)}" y="{_f(y - R * 0.18)}" font-size="8" text-anchor="middle" '
                           f'font-weight="bold">{escape(str(revenue))}</text>')
        elif node.kind == "offboard":
            out.append(f'<text x="{_f(x)}" y="{_f(y + 3)}" font-size="8" text-anchor="middle" '
                       f'font-weight="bold">{escape(str(revenue))}</text>')
    if tile.label:
        lx, ly = _corners(cx, cy, layout, R * 0.62)[3 if layout == "flat" else 4]
        out.append(f'<text x="{_f(lx)}" y="{_f(ly + 3)}" font-size="9" font-weight="bold" '
                   f'text-anchor="middle">{escape(tile.label)}</text>')
    return out


def map_svg(board: track.Board, title: str) -> str:
    """The title's map as printed: an SVG document (text)."""
    layout = board.geometry.layout
    centres = {h: _centre(board, h) for h in sorted(board.hexes)}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    dx, dy = MARGIN + R - min(xs), MARGIN + R - min(ys)
    width, height = max(xs) - min(xs) + 2 * (R + MARGIN), max(ys) - min(ys) + 2 * (R + MARGIN)
    scale = max(MAP_SCALE, MIN_WIDTH / width)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width * scale)}" height="{_f(height * scale)}" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="sans-serif" role="img">',
           f"<title>The map of {escape(title)}</title>"]
    for h, (x, y) in centres.items():
        mh = board.hexes[h]
        cx, cy = x + dx, y + dy
        homes: dict[int, list[str]] = {}
        for company, node in mh.homes:
            homes.setdefault(node, []).append(company)
        tip = [h] + ([mh.location] if mh.location else []) + ([mh.terrain] if mh.terrain else [])
        if mh.cost:
            tip.append(f"lay cost {mh.cost}")
        if mh.upgrade_cost:
            tip.append(f"upgrade cost {mh.upgrade_cost}")
        if mh.reserved_for:
            tip.append(f"reserved for {mh.reserved_for}")
        out.append(f'<g id="hex-{escape(h)}"><title>{escape(" · ".join(tip))}</title>')
        out += _tile_body(mh.tile, 0, cx, cy, layout, homes)
        if mh.terrain in TERRAIN or mh.cost:
            colour = TERRAIN.get(mh.terrain or "", "#555")
            tx, ty = _corners(cx, cy, layout, R * 0.62)[1 if layout == "flat" else 2]
            if mh.terrain in ("mountain", "hill"):
                out.append(f'<polygon points="{_f(tx - 5)},{_f(ty + 3)} {_f(tx)},{_f(ty - 5)} {_f(tx + 5)},{_f(ty + 3)}" '
                           f'fill="{colour}"/>')
            if mh.cost:
                out.append(f'<text x="{_f(tx)}" y="{_f(ty + 11)}" font-size="7" text-anchor="middle" '
                           f'fill="{colour}">{mh.cost}</text>')
        for border in mh.borders:
            # the side is between the two corners nearest the edge's midpoint angle
            ang = EDGE_ANGLE[layout][border.edge]
            corners = _corners(cx, cy, layout)
            pair = sorted(corners, key=lambda p: abs(((math.degrees(math.atan2(p[1] - cy, p[0] - cx)) - ang + 180)
                                                      % 360) - 180))[:2]
            a, b = pair
            colour = "#d32f2f" if border.type == "impassable" else TERRAIN.get(border.type or "", "#1e88e5")
            out.append(f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" '
                       f'stroke="{colour}" stroke-width="4"/>')
        ix, iy = _corners(cx, cy, layout, R * 0.72)[4 if layout == "flat" else 3]
        out.append(f'<text x="{_f(ix)}" y="{_f(iy + 3)}" font-size="6" fill="#333" '
                   f'text-anchor="middle">{escape(h)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- upgrades

def tile_set(board: track.Board) -> list[str]:
    """The title's laid tiles: those with copies in its tile set (all its tiles
    when it gives no counts), by colour then number."""
    names = [n for n, c in board.counts.items() if n in board.tiles and c != 0]
    order = {c: i for i, c in enumerate(track.COLORS)}
    return sorted(names, key=lambda n: (order.get(board.tiles[n].color, 9), len(n), n))


def upgrade_edges(board: track.Board) -> list[tuple[str, str]]:
    """(from, to) for every upgrade between tiles of the tile set."""
    names = tile_set(board)
    have = set(names)
    return [(a, b) for a in names for b in board.upgrade_targets(board.tiles[a]) if b in have]


def upgrades_svg(board: track.Board, title: str) -> str:
    """The tile set in columns by colour, a line for each upgrade."""
    names = tile_set(board)
    columns: dict[str, list[str]] = {}
    for n in names:
        columns.setdefault(board.tiles[n].color, []).append(n)
    layout = board.geometry.layout
    step_x, step_y = 170.0, 2.2 * R
    pos = {}
    for ci, colour in enumerate(c for c in track.COLORS if c in columns):
        for ri, n in enumerate(columns[colour]):
            pos[n] = (MARGIN + R + ci * step_x, MARGIN + R + 12 + ri * step_y)
    width = MARGIN * 2 + 2 * R + step_x * (max(1, len(columns)) - 1)
    height = MARGIN * 2 + 2 * R + 12 + step_y * (max((len(v) for v in columns.values()), default=1) - 1) + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="sans-serif" role="img">',
           f"<title>Tile upgrades of {escape(title)}</title>"]
    for a, b in upgrade_edges(board):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        out.append(f'<line x1="{_f(x1 + R)}" y1="{_f(y1)}" x2="{_f(x2 - R)}" y2="{_f(y2)}" stroke="#7a7a7a" '
                   f'stroke-width="0.8"><title>{escape(a)} upgrades to {escape(b)}</title></line>')
    for n in names:
        x, y = pos[n]
        count = board.counts.get(n)
        out.append(f'<g id="tile-{escape(n)}"><title>tile {escape(n)}: '
                   f'{"unlimited" if count is None else count} '
                   f'{"copy" if count == 1 else "copies"}</title>')
        out += _tile_body(board.tiles[n], 0, x, y, layout)
        out.append(f'<text x="{_f(x)}" y="{_f(y + R + 10)}" font-size="9" text-anchor="middle">'
                   f'#{escape(n)} ×{"∞" if count is None else count}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
