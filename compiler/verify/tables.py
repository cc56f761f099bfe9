"""Table consistency checks of `rulec verify`: facts about a title's data that
need no solver.

- `phases_monotone`: phases come in the order of the trains that start them,
  and never take away the latest tile colour or operating rounds;
- `train_names_exist`: every phase trigger, rust, obsolescence and
  availability names a train of the title;
- `market_moves_on_grid`: from every cell, each of the four moves lands on a
  cell of the grid (the runtime's edge rules applied);
- `par_cells_exist`: the market has par cells, and every par price a
  corporation may choose has one;
- `share_layouts`: each corporation's certificates add up to 100%;
- `upgrades_consistent`: each row of the `upgrades` table names an existing
  tile (or pre-printed hex) and tiles of a later colour (a skipped colour is
  noted, as 1800's gray Small Town tiles on yellow are by the rules).

Each gives a `TableCheck` with status "ok", "failed" or "gap".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.runtime.market import Market
from compiler.verify.model import GapValue, component_data, data_value

#: Upgrade order; "white" is an empty map hex (its first tile is yellow).
COLOURS = ("white", "yellow", "green", "brown", "gray")


@dataclass
class TableCheck:
    """One data check: `status` "ok" | "failed" | "gap"; `details` the findings."""

    name: str
    status: str
    summary: str
    details: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "summary": self.summary,
                "details": self.details, "notes": self.notes}


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value if v is not None]
    if isinstance(value, dict) and "call" in value:
        return [str(a) for a in value.get("args", [])]
    return [str(value)]


def _at(node) -> str:
    """ " (path:line)": where a clause a finding is about is written (every finding names it)."""
    span = getattr(node, "span", None)
    if span is None or not span.path or span.path.startswith("<") or span.line <= 0:
        return ""
    return f" ({span.path}:{span.line})"


def check_tables(title: Title) -> list[TableCheck]:
    """Every table check of one title (or title + variant)."""
    return [
        _phases_monotone(title),
        _train_names(title),
        _market_moves(title),
        _par_cells(title),
        _share_layouts(title),
        _upgrades(title),
    ]


def _supply_rank(title: Title) -> dict[str, int]:
    trains = [c.key or "" for c in title.components("train")]
    prop = title.prop("train_supply_order")
    order = data_value(prop.value) if prop is not None else None
    names = list(dict.fromkeys(str(x) for x in order)) if isinstance(order, list) else []
    names += [t for t in trains if t not in names]
    return {name: i for i, name in enumerate(names)}


def _phases_monotone(title: Title) -> TableCheck:
    check = TableCheck("phases_monotone", "ok", "phases follow the train order; tile colours and operating rounds never go back")
    comps = title.components("phase")
    phases = [component_data(p) for p in comps]
    if not phases:
        check.status = "gap"
        check.details.append("the title has no phases")
        return check
    rank = _supply_rank(title)
    last_rank = -1
    last_colour = -1
    last_ors: int | None = None
    for comp, phase in zip(comps, phases):
        key = phase["key"]
        triggers = [t for t in _names(phase.get("on_train")) if t in rank]
        if triggers:
            r = min(rank[t] for t in triggers)
            if r < last_rank:
                check.details.append(f"phase {key} starts with train {triggers[0]}, sold before the previous phase's train"
                                     + _at(comp))
            last_rank = max(last_rank, r)
        tiles = phase.get("tiles")
        if isinstance(tiles, list):
            idx = [COLOURS.index(str(c)) for c in tiles if str(c) in COLOURS]
            if idx:
                top = max(idx)
                if top < last_colour:
                    check.details.append(f"phase {key} allows only up to {COLOURS[top]}, less than before" + _at(comp))
                last_colour = max(last_colour, top)
        ors = phase.get("operating_rounds")
        if isinstance(ors, int):
            if last_ors is not None and ors < last_ors:
                check.details.append(f"phase {key} has {ors} operating rounds, fewer than the phase before" + _at(comp))
            last_ors = ors
    if check.details:
        check.status = "failed"
    return check


def _train_names(title: Title) -> TableCheck:
    check = TableCheck("train_names_exist", "ok", "every phase trigger, rust, obsolescence and availability names a train")
    trains = {c.key for c in title.components("train")}
    for phase in title.components("phase"):
        data = component_data(phase)
        for name in _names(data.get("on_train")):
            if name not in trains:
                check.details.append(f"phase {phase.key} is started by train {name!r}, which the title does not have"
                                     + _at(phase.get("on_train") or phase))
    for comp in title.components("train"):
        data = component_data(comp)
        for field_name in ("rusts_on", "obsolete_on", "available_after"):
            for name in _names(data.get(field_name)):
                if name not in trains:
                    check.details.append(f"train {comp.key} {field_name} {name!r}: no such train"
                                         + _at(comp.get(field_name) or comp))
    if check.details:
        check.status = "failed"
    return check


def _market(title: Title) -> tuple[Market | None, str | None]:
    markets = title.components("market")
    if not markets:
        return None, "the title has no market"
    data = component_data(markets[0])
    rows = data.get("rows")
    if isinstance(rows, GapValue):
        return None, f"gap: {rows.reason}"
    if not isinstance(rows, list):
        return None, "the market has no rows"
    try:
        return Market.from_spec({**data, "rows": rows}), None
    except (ValueError, TypeError, KeyError) as exc:
        return None, str(exc)


def _market_moves(title: Title) -> TableCheck:
    check = TableCheck("market_moves_on_grid", "ok", "every move from every market cell stays on the grid")
    market, error = _market(title)
    if market is None:
        check.status = "gap" if error and error.startswith("gap") else "failed"
        check.details.append(f"the market cannot be read: {error}")
        return check
    cells = list(market.cells())
    for cell in cells:
        for direction in ("up", "down", "left", "right"):
            target = market.move(cell, direction)
            if not market.exists(target):
                check.details.append(f"{direction} from {cell} lands on {target}, not a cell"
                                     + _at(title.components("market")[0]))
    check.notes.append(f"{len(cells)} cells, {4 * len(cells)} moves")
    if check.details:
        check.status = "failed"
    return check


def _par_cells(title: Title) -> TableCheck:
    check = TableCheck("par_cells_exist", "ok", "the market has par cells for every par price")
    market, error = _market(title)
    if market is None:
        check.status = "gap" if error and error.startswith("gap") else "failed"
        check.details.append(f"the market cannot be read: {error}")
        return check
    cells = market.par_cells()
    if not cells:
        check.details.append("no cell of the market is in zone par")
    prop = title.prop("par_prices")
    default = data_value(prop.value) if prop is not None else None
    for comp in title.components("corporation"):
        # (the library's par_prices: its own, else the title's)
        prices = component_data(comp).get("par_prices") or default
        if not prices:
            check.details.append(f"corporation {comp.key} has no par prices: neither its own par_prices nor "
                                 "the title's" + _at(comp))
            continue
        if not isinstance(prices, list):
            check.details.append(f"corporation {comp.key}: par prices {prices!r} are not a list"
                                     + _at(comp.get("par_prices") or comp))
            continue
        for price in prices:
            if isinstance(price, int) and market.par_cell(price) is None:
                check.details.append(f"corporation {comp.key} may par at {price}, but no par cell has that price"
                                     + _at(comp))
    if check.details:
        check.status = "failed"
    return check


def _share_layouts(title: Title) -> TableCheck:
    check = TableCheck("share_layouts", "ok", "each corporation's certificates add up to 100%")
    gaps = []
    for comp in title.components("corporation"):
        shares = component_data(comp).get("shares")
        if not isinstance(shares, list):
            gaps.append((comp.key or "") + _at(comp))
            continue
        total = sum(p for p in shares if isinstance(p, int))
        if total != 100:
            check.details.append(f"corporation {comp.key}: certificates add up to {total}%" + _at(comp.get("shares") or comp))
    if gaps:
        check.notes.append(f"no `shares` layout: {', '.join(gaps)}")
    if check.details:
        check.status = "failed"
    elif gaps and len(gaps) == len(title.components("corporation")):
        check.status = "gap"
    return check


def _upgrades(title: Title) -> TableCheck:
    check = TableCheck("upgrades_consistent", "ok", "upgrade charts name existing tiles of a later colour")
    clause = title.get("table", "upgrades")
    if clause is None:
        check.notes.append("no upgrades table: the runtime derives upgrades")
        return check
    table: s.Table = clause.decl  # type: ignore[assignment]
    colour: dict[str, str] = {}
    for kind in ("tile", "hex"):
        for comp in title.components(kind):
            c = component_data(comp).get("color")
            colour[comp.key or ""] = str(c) if c is not None else ""
    gaps = 0
    for row in table.rows:
        key = str(row.keys[0]) if row.keys else ""
        value = data_value(row.value)
        if isinstance(value, GapValue):
            gaps += 1
            check.notes.append(f"row {key}: gap ({value.reason})" + _at(row))
            continue
        if key not in colour:
            check.details.append(f"row {key}: no tile or hex {key}" + _at(row))
            continue
        if not isinstance(value, list):
            check.details.append(f"row {key}: {value!r} is not a list of tiles" + _at(row))
            continue
        src = colour[key]
        for target in value:
            target = str(target)
            if target not in colour:
                check.details.append(f"{key} -> {target}: no tile {target}" + _at(row))
                continue
            dst = colour[target]
            if src not in COLOURS or dst not in COLOURS:
                check.details.append(f"{key} ({src}) -> {target} ({dst}): unknown colour" + _at(row))
                continue
            step = COLOURS.index(dst) - COLOURS.index(src)
            if step <= 0:
                check.details.append(f"{key} ({src}) -> {target} ({dst}): not a later colour" + _at(row))
            elif step > 1:
                check.notes.append(f"{key} ({src}) -> {target} ({dst}) skips a colour" + _at(row))
    if check.details:
        check.status = "failed"
    elif gaps:
        check.status = "gap"
    return check
