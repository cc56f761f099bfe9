"""A cell of the stock market as a value of the z3 model, as the runtime's `MarketCell` (compiler/runtime/market.py).

A corporation's `cell` is its state's row and column terms (`row:C`, `col:C`) and whether it has one
(`has_cell:C`); an element of `market_cells` is a cell's constant row and column. Its fields read the market
through the builtins' chains over the cells (`StateBuiltins.chain_at`, kept by the row and column terms): its
`price`, `zones` and the cell a move reaches (`up`, `down`, `left`, `right`), so that the library's move_price
(`set C.cell = C.cell[d]`) makes the terms the hand-written move made before. `set C.cell = X` writes X's
terms into C's (`StateBuiltins.set_attr`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compiler.verify.model import Unsupported
from compiler.verify.terms import AND, EQ, IF, NOT, OR, SymList, truth

MOVES = ("up", "down", "left", "right")


@dataclass(frozen=True, eq=False)
class CellTerm:
    """A market cell or none: `row` and `col` (ints or z3 terms, read where `present` holds) and `present`
    (a truth value or term: false is none)."""

    row: Any
    col: Any
    present: Any

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
    raise Unsupported(f"a market cell has no field {name}")


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
