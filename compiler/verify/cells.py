"""A cell of the stock market as a value of the z3 model, as the runtime's `MarketCell` (compiler/runtime/market.py).

A corporation's `cell` is its state's row and column terms (`row:C`, `col:C`) and whether it has one
(`has_cell:C`); an element of `market_cells` is a cell's constant row and column. Its fields read the market
through the builtins' chains over the cells (`StateBuiltins.chain_at`, kept by the row and column terms): its
`price`, `zones` and the cell a move reaches (`up`, `down`, `left`, `right`), so that the library's move_price
(`set C.cell = C.cell[d]`) makes the terms the hand-written move made before. `set C.cell = X` writes X's
terms into C's (`StateBuiltins.set_attr`). A cell's `way` is a `WayTerm` per direction, read at a count of
moves (`way_at`): the library's price_after_moves (`C.cell.way[d][n].price`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compiler.verify.model import Unsupported
from compiler.verify.terms import AND, EQ, IF, NOT, OR, SymList, is_z3, truth

MOVES = ("up", "down", "left", "right")


@dataclass(frozen=True, eq=False)
class CellTerm:
    """A market cell or none: `row` and `col` (ints or z3 terms, read where `present` holds) and `present`
    (a truth value or term: false is none)."""

    row: Any
    col: Any
    present: Any
    #: where the cell is a fixed map of another (`way_at`): that cell's row and column terms, the map and a key
    #: naming it, so that a field of it reads one chain over that cell (`field`), not a chain over a chain
    via: Any = None

    @property
    def fixed(self) -> tuple[int, int] | None:
        """The cell, where row and column are numbers (an element of `market_cells`)."""
        if isinstance(self.row, int) and isinstance(self.col, int) and truth(self.present) is True:
            return (self.row, self.col)
        return None


def corporation_cell(ctx: Any, corp: Any) -> CellTerm:
    """`C.cell`: the corporation's cell terms in the state."""
    st = ctx.state
    return CellTerm(st[f"row:{corp.id}"], st[f"col:{corp.id}"], st[f"has_cell:{corp.id}"])


def market_cells(builtins: Any, ctx: Any) -> SymList:
    """`market_cells`: every cell, row by row from the top (`Model.cells`, the runtime's `Market.cells` order)."""
    builtins.m.require_market()
    return SymList([(CellTerm(r, c, True), True) for r, c in builtins.m.cells])


def field(builtins: Any, ctx: Any, cell: CellTerm, name: str) -> Any:
    """`X.name` of a cell (none has none: the runtime's read of a field of none fails, the model's is refused)."""
    market = builtins.m.require_market()
    ctx.require(cell.present)
    fixed = cell.fixed
    if name == "row":
        return cell.row
    if name == "column":
        return cell.col
    if name == "price":
        ctx.shared.reads.add("market", "prices", market.rows)
        if fixed is not None:
            return market.price(fixed)
        if cell.via is not None:
            row, col, moved, key = cell.via
            return builtins.chain_at(row, col, lambda c: market.price(moved(c)), key=("price",) + key)
        return builtins.chain_at(cell.row, cell.col, market.price, key=("price",))
    if name == "zones":
        ctx.shared.reads.add("market", "zones", sorted(market.zones.items()))
        if fixed is not None:
            return frozenset(market.zones_of(fixed))
        return SymList([(zone, _in_cells(cell, [c for c in builtins.m.cells if zone in market.zones_of(c)]))
                        for zone in builtins.m.zone_names])
    if name in MOVES:
        ctx.shared.reads.add("market", "moves", (market.rows, sorted(market.zones.items()), market.left_edge,
                                                 market.right_edge, market.top_edge))
        if fixed is not None:
            row, col = market.move(fixed, name)
            return CellTerm(row, col, True)
        moved = {c: market.move(c, name) for c in builtins.m.cells}
        row = builtins.chain_at(cell.row, cell.col, lambda c: moved[c][0], key=("move", name, "row"))
        col = builtins.chain_at(cell.row, cell.col, lambda c: moved[c][1], key=("move", name, "col"))
        return CellTerm(row, col, cell.present)
    if name == "way":
        return {d: WayTerm(cell, d) for d in MOVES}
    raise Unsupported(f"a market cell has no field {name}")


@dataclass(frozen=True, eq=False)
class WayTerm:
    """`X.way[d]`: the way a price token on the cell X takes moving in direction d again and again (the runtime's
    `MarketWay`), read at a count of moves (`way_at`)."""

    cell: CellTerm
    direction: str


def way_at(builtins: Any, ctx: Any, way: WayTerm, n: Any) -> CellTerm:
    """`X.way[d][n]`: the cell n moves reach (as `Market.way`: past the way's end its last cell). A count that is a
    term is read at each count up to the longest way of the market in that direction, beyond which every way is at
    its end: exact, no bound of the model's. A negative count has no cell (the runtime refuses it)."""
    market = builtins.m.require_market()
    ctx.shared.reads.add("market", "moves", (market.rows, sorted(market.zones.items()), market.left_edge,
                                             market.right_edge, market.top_edge))
    d, cell = way.direction, way.cell
    ways = {c: market.way(c, d) for c in builtins.m.cells}
    longest = max(len(w) for w in ways.values())

    def at(k: int) -> CellTerm:
        def moved(c: tuple[int, int]) -> tuple[int, int]:
            return ways[c][min(k, len(ways[c]) - 1)]

        fixed = cell.fixed
        if fixed is not None:
            return CellTerm(*moved(fixed), True)
        key = ("way", d, min(k, longest - 1))
        row = builtins.chain_at(cell.row, cell.col, lambda c: moved(c)[0], key=key + ("row",))
        col = builtins.chain_at(cell.row, cell.col, lambda c: moved(c)[1], key=key + ("col",))
        return CellTerm(row, col, cell.present, via=(cell.row, cell.col, moved, key))

    if not is_z3(n):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise Unsupported(f"a way of the market read at {n!r}")
        return at(n)
    ctx.require(n >= 0)
    out = at(longest - 1)
    for k in reversed(range(longest - 1)):
        out = ite(n == k, at(k), out)
    return out


def _in_cells(cell: CellTerm, cells: list[tuple[int, int]]) -> Any:
    return OR(*[AND(EQ(cell.row, r), EQ(cell.col, c)) for r, c in cells])


def as_cell(value: Any) -> CellTerm:
    """A cell value or none as a CellTerm (none: no cell)."""
    if value is None:
        return CellTerm(0, 0, False)
    if isinstance(value, CellTerm):
        return value
    raise Unsupported(f"{value!r} is no market cell")


def ite(c: Any, a: Any, b: Any) -> CellTerm:
    """One cell or the other (none among them)."""
    a, b = as_cell(a), as_cell(b)
    t = truth(c)
    if t is True:
        return a
    if t is False:
        return b
    return CellTerm(IF(c, a.row, b.row), IF(c, a.col, b.col), IF(c, a.present, b.present))


def eq(a: Any, b: Any) -> Any:
    """Two cells the same (none equal to none only)."""
    a, b = as_cell(a), as_cell(b)
    both = AND(a.present, b.present)
    return OR(AND(NOT(a.present), NOT(b.present)), AND(both, EQ(a.row, b.row), EQ(a.col, b.col)))
