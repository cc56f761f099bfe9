"""The stock market: a grid of cells (1-D is one row), zones and moves.

A cell is (row, column), counted from 0 at the top left. `rows` holds each
cell's price, or None where the grid has no cell. Zones are tags on cells
("par", "no_cert_limit", ...). Moves follow the title's edge rules:

- `left_edge`: what a left move does in a row's first cell ("down" or "stay");
- `right_edge`: what a right move does in a row's last cell ("up" or "stay");
- `top_edge`: what an up move does in the top row ("right" or "stay");
- any other move onto no cell stays put.

A market component in a rulespec gives `rows` and, optionally, the three edge
rules (defaults: left_edge down, right_edge up, top_edge stay); see
`Market.from_spec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

Cell = tuple[int, int]


@dataclass(frozen=True)
class Market:
    rows: tuple[tuple[int | None, ...], ...]
    zones: dict[Cell, frozenset[str]]
    left_edge: str = "down"
    right_edge: str = "up"
    top_edge: str = "stay"

    #: The values each edge rule may take.
    EDGE_RULES = {"left_edge": ("down", "stay"), "right_edge": ("up", "stay"), "top_edge": ("right", "stay")}

    @classmethod
    def from_spec(cls, data: dict) -> "Market":
        """The market of a rulespec's market component (`rows` and the edge rules).

        Raises ValueError naming the property when an edge rule is not one of
        `EDGE_RULES` (a prose value, say)."""
        defaults = {"left_edge": "down", "right_edge": "up", "top_edge": "stay"}
        return cls.from_rows(data["rows"], **{k: data.get(k, v) for k, v in defaults.items()})

    @classmethod
    def from_rows(cls, rows, left_edge: str = "down", right_edge: str = "up", top_edge: str = "stay") -> "Market":
        """`rows`: lists of cells, each None, a price, or {"price", "zones"}.

        Raises ValueError for an edge rule outside `EDGE_RULES`."""
        for name, value in (("left_edge", left_edge), ("right_edge", right_edge), ("top_edge", top_edge)):
            if value not in cls.EDGE_RULES[name]:
                allowed = " or ".join(cls.EDGE_RULES[name])
                raise ValueError(f"market {name} is {value!r}: it must be {allowed}")
        prices: list[tuple[int | None, ...]] = []
        zones: dict[Cell, frozenset[str]] = {}
        for r, row in enumerate(rows):
            line = []
            for c, cell in enumerate(row):
                if isinstance(cell, dict):
                    line.append(cell["price"])
                    zones[(r, c)] = frozenset(cell.get("zones", ()))
                else:
                    line.append(cell)
            prices.append(tuple(line))
        return cls(tuple(prices), zones, left_edge, right_edge, top_edge)

    # -- queries
    def exists(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r]) and self.rows[r][c] is not None

    def price(self, cell: Cell) -> int:
        r, c = cell
        value = self.rows[r][c]
        assert value is not None
        return value

    def zones_of(self, cell: Cell) -> frozenset[str]:
        return self.zones.get(cell, frozenset())

    def cells(self):
        for r, row in enumerate(self.rows):
            for c, price in enumerate(row):
                if price is not None:
                    yield (r, c)

    def par_cells(self) -> list[Cell]:
        return list(self._par_cells)

    @cached_property
    def _par_cells(self) -> tuple[Cell, ...]:
        return tuple(cell for cell in self.cells() if "par" in self.zones_of(cell))

    def par_cell(self, price: int) -> Cell | None:
        """The par cell for `price` (the rightmost if several)."""
        try:
            return self._par_cell_of[price]
        except (KeyError, TypeError):
            return None

    @cached_property
    def _par_cell_of(self) -> dict[int, Cell]:
        """`par_cell` of each par price (the market never changes in play): made once."""
        out: dict[int, Cell] = {}
        for price in {self.price(cell) for cell in self._par_cells}:
            found = [cell for cell in self._par_cells if self.price(cell) == price]
            out[price] = max(found, key=lambda rc: (rc[1], -rc[0]))
        return out

    @property
    def is_one_dimensional(self) -> bool:
        return len(self.rows) == 1

    # -- moves
    def up(self, cell: Cell) -> Cell:
        if self.is_one_dimensional:
            return self.right(cell)
        r, c = cell
        if self.exists((r - 1, c)):
            return (r - 1, c)
        if r == 0 and self.top_edge == "right" and self.exists((r, c + 1)):
            return (r, c + 1)
        return cell

    def down(self, cell: Cell) -> Cell:
        if self.is_one_dimensional:
            return self.left(cell)
        r, c = cell
        return (r + 1, c) if self.exists((r + 1, c)) else cell

    def right(self, cell: Cell) -> Cell:
        r, c = cell
        if self.exists((r, c + 1)):
            return (r, c + 1)
        if self.right_edge == "up" and not self.is_one_dimensional:
            return self.up(cell)
        return cell

    def left(self, cell: Cell) -> Cell:
        r, c = cell
        if self.exists((r, c - 1)):
            return (r, c - 1)
        if self.left_edge == "down" and not self.is_one_dimensional:
            return self.down(cell)
        return cell

    def move(self, cell: Cell, direction: str) -> Cell:
        """Move one step: direction is "up", "down", "left" or "right"."""
        return {"up": self.up, "down": self.down, "left": self.left, "right": self.right}[direction](cell)

    # -- the cells as the DSL reads them (`C.cell`, `market_cells`)
    def record(self, cell: Cell) -> "MarketCell":
        """The cell as a record of the DSL: made once a game for each cell (the market never changes in play)."""
        return self._records[cell]

    def records(self) -> list["MarketCell"]:
        """Every cell of the market as a record, row by row from the top, each row from the left."""
        return list(self._records.values())

    @cached_property
    def _records(self) -> dict[Cell, "MarketCell"]:
        return {cell: MarketCell(self, cell) for cell in self.cells()}

    def way(self, cell: Cell, direction: str) -> tuple[Cell, ...]:
        """The cells a price token on `cell` passes moving in `direction` again and again, `cell` first, to the
        cell where a further move stays. Every way ends so: the edge rules turn a token up or right (up, right),
        down or left (down, left), never back, so each move that is no stay takes it farther along one order of
        the cells; a way longer than the market has cells is a fault of the market's rules (AssertionError)."""
        out = [cell]
        while True:
            nxt = self.move(out[-1], direction)
            if nxt == out[-1]:
                return tuple(out)
            out.append(nxt)
            assert len(out) <= len(self._records), f"the market's {direction} moves from {cell} never stay"

    def ways(self, cell: Cell) -> dict[str, "MarketWay"]:
        """`X.way` in the DSL: the way of each direction (`way`), as the DSL reads it: made once a game for each cell."""
        found = self._ways.get(cell)
        if found is None:
            found = self._ways[cell] = {d: MarketWay(tuple(self.record(c) for c in self.way(cell, d)))
                                        for d in MarketCell.MOVES}
        return found

    @cached_property
    def _ways(self) -> dict[Cell, dict[str, "MarketWay"]]:
        return {}


class MarketWay:
    """A way of the market as a value of the DSL (`X.way[d]`, `Market.way`): `way[n]` is the cell n moves in its
    direction reach from its first cell (n from 0: that cell), past its end its last cell, where a move stays.
    A position that is no count (a negative one, no number) has no cell: KeyError, which the engine's
    `item` refuses as it does a position out of a list."""

    __slots__ = ("cells",)

    def __init__(self, cells: tuple["MarketCell", ...]) -> None:
        self.cells = cells

    def __getitem__(self, n: int) -> "MarketCell":
        if n.__class__ is not int or n < 0:
            raise KeyError(n)
        cells = self.cells
        return cells[n] if n < len(cells) else cells[-1]

    def __repr__(self) -> str:
        return f"way {[c.cell for c in self.cells]}"


class MarketCell:
    """A cell of the market as a value of the DSL: a corporation's `cell` (none where its price token is off the
    market) and each element of `market_cells`. Its fields: `row` and `column` (from 0 at the top left), `price`,
    `zones` (the zones' names) and the cell a move of a token on it reaches, `up`, `down`, `left`, `right` (the
    title's edge rules: `Market.move`), and `way`, the way a token on it takes moving in each direction again
    and again (`way[d][n]`: the cell n moves reach; `Market.ways`). Two are equal where they are the same cell."""

    __slots__ = ("market", "cell", "row", "column", "price", "zones")
    MOVES = ("up", "down", "left", "right")

    def __init__(self, market: Market, cell: Cell) -> None:
        self.market, self.cell = market, cell
        self.row, self.column = cell
        self.price = market.price(cell)
        self.zones = market.zones_of(cell)

    def __getitem__(self, name: str):
        if name == "price":
            return self.price  # (the library's price(C), in the listing's guards)
        if name in self.MOVES:
            return self.market.record(self.market.move(self.cell, name))
        if name == "way":
            return self.market.ways(self.cell)
        if name in self.__slots__[2:]:
            return getattr(self, name)
        raise KeyError(name)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is MarketCell and other.cell == self.cell  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self.cell)

    def __repr__(self) -> str:
        return f"cell {self.cell} ({self.price})"
