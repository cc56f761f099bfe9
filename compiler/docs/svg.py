"""Pictures for the reference site, drawn as SVG text by Python.

`market_svg(component)` draws a stock market (`market` component, `rows:` a
list of rows; a cell is `none`, a price, or a record `(price: 60, zones:
[par])`): one box per cell with its price, boxes coloured by zone, par cells
outlined and marked "P". The output is deterministic: fixed sizes, sorted
zones, no timestamps, no random ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from compiler.lang import syntax as s

CELL_W, CELL_H, GAP, MARGIN = 46, 30, 2, 10
#: A market is shown at least this wide (px), scaled up where it is drawn narrower.
MIN_WIDTH = 640

#: Fill colours of the standard zones; other zones get the next palette colour.
ZONE_COLOURS = {
    "no_cert_limit": "#fff1a8",
    "unlimited_holding": "#ffc27a",
    "acquisition": "#f5a3a3",
    "close": "#9e9e9e",
    "end_game": "#c5a3f5",
    "frozen": "#a3d3f5",
    "bonus": "#a8e6a1",
}
#: Zones named after a colour (18CO's blue, purple and brown par bands) are drawn in a tint of it.
NAMED_COLOURS = {
    "blue": "#a9c8f5", "purple": "#d2b4f0", "brown": "#d9b48f", "yellow": "#fff1a8",
    "orange": "#ffc27a", "red": "#f5a3a3", "green": "#a8e6a1", "gray": "#c8c8c8", "grey": "#c8c8c8",
}
PALETTE = ("#b5e0dc", "#f7c6e0", "#d7e3a6", "#c9c3f0", "#f3d9a4", "#a9d6f2")
PAR_STROKE = "#c62828"


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int | None
    zones: tuple[str, ...]
    text: str


def market_cells(market: s.Component) -> list[list[Cell | None]]:
    """The grid of a market component: rows of cells (None where there is no cell)."""
    prop = market.get("rows")
    if prop is None or not isinstance(prop.value, s.ListLit):
        return []
    grid: list[list[Cell | None]] = []
    for r, row in enumerate(prop.value.items):
        items = row.items if isinstance(row, s.ListLit) else (row,)
        out: list[Cell | None] = []
        for c, item in enumerate(items):
            out.append(_cell(r, c, item))
        grid.append(out)
    return grid


def _cell(r: int, c: int, item) -> Cell | None:
    if isinstance(item, s.NoneLit):
        return None
    if isinstance(item, (s.Int, s.Money)):
        value = item.value if isinstance(item, s.Int) else item.amount
        return Cell(r, c, value, (), str(value))
    if isinstance(item, s.Record):
        price = item.get("price")
        zones = item.get("zones")
        value = None
        if isinstance(price, s.Int):
            value = price.value
        elif isinstance(price, s.Money):
            value = price.amount
        names = tuple(z.name for z in zones.items) if isinstance(zones, s.ListLit) else ()
        names += tuple(k for k, v in item.fields if k not in ("price", "zones") and isinstance(v, s.Bool) and v.value)
        return Cell(r, c, value, names, str(value) if value is not None else "?")
    return Cell(r, c, None, (), "?")


def zone_colours(grid) -> dict[str, str]:
    """Every zone drawn in the grid (par excepted) with its colour, in a fixed order."""
    names = sorted({z for row in grid for cell in row if cell for z in cell.zones if z != "par"})
    out, spare = {}, iter(PALETTE * 4)
    for name in names:
        out[name] = ZONE_COLOURS.get(name) or NAMED_COLOURS.get(name) or next(spare)
    return out


def market_svg(market: s.Component, caption: str) -> str:
    """The market as an SVG document."""
    grid = market_cells(market)
    colours = zone_colours(grid)
    cols = max((len(row) for row in grid), default=0)
    legend_items = [("par", None)] + [(z, c) for z, c in colours.items()]
    legend_w = sum(28 + 7 * len(name) for name, _ in legend_items)
    width = MARGIN * 2 + max(cols * (CELL_W + GAP), legend_w)
    legend_h = 24
    height = MARGIN * 2 + len(grid) * (CELL_H + GAP) + legend_h + 6
    scale = max(1.0, MIN_WIDTH / width)
    shown = f'width="{round(width * scale)}" height="{round(height * scale)}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" {shown} '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(caption, {chr(34): "&quot;"})}" '
        'font-family="sans-serif">',
        f"<title>{escape(caption)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for row in grid:
        for cell in row:
            if cell is None:
                continue
            x = MARGIN + cell.col * (CELL_W + GAP)
            y = MARGIN + cell.row * (CELL_H + GAP)
            fills = [colours[z] for z in cell.zones if z in colours] or ["#ffffff"]
            band = CELL_W / len(fills)
            for i, fill in enumerate(fills):
                out.append(f'<rect x="{x + i * band:.1f}" y="{y}" width="{band:.1f}" height="{CELL_H}" fill="{fill}"/>')
            par = "par" in cell.zones
            stroke = PAR_STROKE if par else "#555555"
            out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="none" '
                       f'stroke="{stroke}" stroke-width="{2.5 if par else 1}">'
                       f"<title>{escape(_cell_title(cell))}</title></rect>")
            weight = ' font-weight="bold"' if par else ""
            out.append(f'<text x="{x + CELL_W / 2:.1f}" y="{y + CELL_H / 2 + 5:.1f}" font-size="13" '
                       f'text-anchor="middle" fill="#111111"{weight}>{escape(cell.text)}</text>')
            if par:
                out.append(f'<text x="{x + 3}" y="{y + 10}" font-size="9" fill="{PAR_STROKE}">P</text>')
    y = MARGIN + len(grid) * (CELL_H + GAP) + 6
    x = MARGIN
    for name, colour in legend_items:
        if name == "par":
            out.append(f'<rect x="{x}" y="{y}" width="16" height="14" fill="#ffffff" stroke="{PAR_STROKE}" stroke-width="2.5"/>')
        else:
            out.append(f'<rect x="{x}" y="{y}" width="16" height="14" fill="{colour}" stroke="#555555"/>')
        label = name.replace("_", " ")
        out.append(f'<text x="{x + 20}" y="{y + 11}" font-size="11" fill="#111111">{escape(label)}</text>')
        x += 28 + 7 * len(label)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_title(cell: Cell) -> str:
    zones = ", ".join(z.replace("_", " ") for z in cell.zones)
    return f"row {cell.row + 1}, column {cell.col + 1}: {cell.text}" + (f" ({zones})" if zones else "")
