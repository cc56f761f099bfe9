"""Stage 4, check (play): what the schema accepts that would leave a title unplayable.

Each value below has the right type, so `compiler.lang.typecheck` accepts it; played,
it would stall, loop or fail as a KeyError. `rulec check` refuses it here, at the
value's own span:

- E030 a title whose trains run routes (`run_routes` among its operating steps) and
  that has no map (no hex, and no `map: gap "why"`): nothing ever earns, and random
  play turns round and round to the action cap;
- E031 a home station that is no city: a corporation's or minor's `home` hex with
  no city at the node its station goes to (node 0, or the one its hex's `homes`
  names), or a hex's `homes` entry naming a node that is not a city of the hex;
- E032 a tile the title names (an upgrade chart row, an ability's tile) that is
  not in its tile set, the `tile_counts` table: no copy of it is ever in the supply;
- E033 a value the library accepts that the runtime does not play
  (`compiler.runtime.built`), set where the runtime would read it; and a `free_pick`
  the library's pick does not play (without `picks_operate: true`, or with no
  opening auction to follow);
- W006 an action random play never tries: a parameter of a kind it does not
  enumerate (an `int` with no `<action>_options`, a percent, a bool, ...), as
  `compiler.runtime.enumerated.untried_parameter` reads the runtime's listing; a warning,
  since a log may still take the action.
"""

from __future__ import annotations

from compiler.lang import syntax as s
from compiler.diagnostics import Diagnostic, Span, error, warning
from compiler.lang.ir import Title
from compiler.runtime.built import unbuilt
from compiler.runtime.track.tiles import Geometry
from compiler.runtime.enumerated import untried_parameter
from compiler.lang.builtins import listing as runtime_listing
from compiler.lang.schema import did_you_mean, listing, nearest


def check_play(title: Title) -> list[Diagnostic]:
    """The findings of this stage for one resolved title (or title + variant)."""
    out: list[Diagnostic] = []
    out.extend(_no_map(title))
    out.extend(_homes(title))
    out.extend(_tile_set(title))
    out.extend(_unbuilt(title))
    out.extend(_free_picks(title))
    out.extend(_grid(title))
    out.extend(_phases_and_trains(title))
    out.extend(_player_rows(title))
    out.extend(_par_prices(title))
    out.extend(_untried(title))
    out.extend(_share_totals(title))
    return out


def _share_totals(title: Title) -> list[Diagnostic]:
    """E020 for a corporation's `shares` that do not make 100%: the runtime's monitor stops the first
    game at its first action (shares_sum_to_100), and the z3 model's invariant is false from the start;
    and for a holding cap below a corporation's president's certificate (`holding_cap: 10%`): the monitor
    stopped the first game at the first par (holding_cap)."""
    out = []
    for clause in title.clauses:
        comp = clause.decl
        if not isinstance(comp, s.Component) or comp.kind not in ("corporation", "minor"):
            continue
        prop = comp.get("shares")
        if prop is None or not isinstance(prop.value, s.ListLit) \
                or not all(isinstance(item, s.Percent) for item in prop.value.items):
            continue
        total = sum(item.value for item in prop.value.items)
        if total != 100:
            out.append(error(
                "E020", f"the certificates of {comp.kind} {comp.key} make {total:g}%, not 100%",
                prop.value.span or prop.span,
                help="a corporation's certificates, the president's first, make 100% of it"))
        cap = comp.get("holding_cap") or title.prop("holding_cap")
        first = prop.value.items[0] if prop.value.items else None
        if comp.kind == "corporation" and cap is not None and isinstance(cap.value, s.Percent) \
                and isinstance(first, s.Percent) and first.value > cap.value.value:
            out.append(error(
                "E020", f"the holding cap, {cap.value.value:g}%, is below the president's certificate of {comp.kind} "
                        f"{comp.key}, {first.value:g}%: whoever starts it is over the cap at once",
                cap.value.span or cap.span, notes=((first.span or prop.span, "the president's certificate"),),
                help="the most of a corporation a player may hold is at least its president's certificate"))
    return out


def _name(expr) -> str | None:
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, s.Str):
        return expr.value
    if isinstance(expr, s.Int):
        return str(expr.value)
    return None


def _literal(expr):
    """A property's value as the runtime reads a name or a bool, else None."""
    if isinstance(expr, s.Bool):
        return expr.value
    return _name(expr)


# ---------------------------------------------------------------- E030 no map


def _no_map(title: Title) -> list[Diagnostic]:
    steps = title.prop("operating_steps")
    runs = steps is not None and isinstance(steps.value, s.ListLit) and "run_routes" in map(_name, steps.value.items)
    if title.components("hex") or not runs or not title.components("train"):
        return []
    declared = title.prop("map")
    if declared is not None and isinstance(declared.value, s.Gap):
        return []  # the map is a declared gap (W002): play refuses with its reason; a `--map` overlay fills it
    return [error(
        "E030", f"{title.name} has no map: no hex for its trains to run on, so no company ever earns",
        title.span,
        help='describe the map as `hex` components (`hex A1 { color: ... nodes: [...] paths: [...] }`), '
             'or write `map: gap "why"` where the rulebook does not give it',
    )]


# ---------------------------------------------------------------- E031 homes that are no city


def _nodes(hex_comp: s.Component) -> list[str | None]:
    """The kind of each node of a hex, in order (None where not written)."""
    prop = hex_comp.get("nodes")
    if prop is None or not isinstance(prop.value, s.ListLit):
        return []
    return [_name(item.get("kind")) if isinstance(item, s.Record) else None for item in prop.value.items]


def _homes(title: Title) -> list[Diagnostic]:
    hexes = {h.key: h for h in title.components("hex")}
    if not hexes:
        return []  # no map: a home names no hex (E022), or the map is a gap
    out: list[Diagnostic] = []
    named_node: dict[str, tuple[str, int]] = {}
    reported: set[str | None] = set()  # companies whose `homes` entry is refused already
    for key, hex_comp in hexes.items():
        homes = hex_comp.get("homes")
        if homes is None or not isinstance(homes.value, s.ListLit):
            continue
        kinds = _nodes(hex_comp)
        for item in homes.value.items:
            if not isinstance(item, s.Record):
                continue
            corp, node = _name(item.get("corporation")), item.get("node")
            if not isinstance(node, s.Int):
                continue
            if corp is not None:
                named_node[corp] = (key, node.value)
            if not (0 <= node.value < len(kinds)) or kinds[node.value] != "city":
                reported.add(corp)
                out.append(error(
                    "E031", f"hex {key} has no city n{node.value} for {corp or 'a'} home station", node.span,
                    help=f"the cities of hex {key}: " + (", ".join(f"n{i}" for i, k in enumerate(kinds) if k == "city")
                                                         or "none"),
                ))
    for kind in ("corporation", "minor"):
        for comp in title.components(kind):
            prop = comp.get("home")
            where = _name(prop.value) if prop is not None else None
            if where is None or where not in hexes or comp.key in reported:
                continue  # none, chosen_on_float, or a hex that does not exist (E022)
            kinds = _nodes(hexes[where])
            at, node = named_node.get(comp.key or "", (where, 0))
            if at != where:
                node = 0
            if not (0 <= node < len(kinds)) or kinds[node] != "city":
                out.append(error(
                    "E031", f"the home of {kind} {comp.key}, hex {where}, has no city "
                    + (f"n{node}" if kinds else "(no node at all)") + " for its home station",
                    prop.value.span,
                    help=f"name a hex with a city; a hex whose first city is not n0 says which in "
                         f"`homes: [(corporation: {comp.key}, node: N)]`",
                ))
    return out


# ---------------------------------------------------------------- E032 tiles outside the tile set


def _table_rows(title: Title, name: str) -> s.Table | None:
    clause = title.get("table", name)
    return clause.decl if clause is not None and isinstance(clause.decl, s.Table) else None


def _tile_set(title: Title) -> list[Diagnostic]:
    counts = _table_rows(title, "tile_counts")
    if counts is None or list(counts.dims) != ["tile"]:
        return []  # no tile set declared: every tile of the title is in play
    tile_set = {str(row.keys[0]) for row in counts.rows}
    hexes = {h.key for h in title.components("hex")}
    tiles = {t.key for t in title.components("tile")}
    out: list[Diagnostic] = []

    def refuse(name: str | None, span, where: str) -> None:
        if name is None or name in tile_set or name in hexes or name not in tiles:
            return  # a map hex's printed tile is upgraded like a tile; a tile of no kind at all is E022
        out.append(error(
            "E032", f"tile {name!r} ({where}) is not in the title's tile set" + did_you_mean(nearest(name, tile_set)),
            span, help=f"the tile set is the `tile_counts` table: {listing(tile_set)}; add a row for it there",
        ))

    upgrades = _table_rows(title, "upgrades")
    if upgrades is not None and list(upgrades.dims) == ["tile"]:
        for row in upgrades.rows:
            refuse(str(row.keys[0]), row.span, "a row of `upgrades`")
            if isinstance(row.value, s.ListLit):
                for item in row.value.items:
                    refuse(_name(item), item.span, f"an upgrade of {row.keys[0]}")
    for comp in _every_component(title):
        if comp.kind != "ability":
            continue
        for prop in comp.properties:
            if prop.name == "tile":
                refuse(_name(prop.value), prop.value.span, f"ability {comp.key or ''}".strip())
            elif prop.name == "tiles" and isinstance(prop.value, s.ListLit):
                for item in prop.value.items:
                    refuse(_name(item), item.span, f"ability {comp.key or ''}".strip())
    return out


def _every_component(title: Title):
    stack = [c.decl for c in title.clauses if isinstance(c.decl, s.Component)]
    while stack:
        comp = stack.pop()
        yield comp
        stack.extend(comp.children)


# ---------------------------------------------------------------- E033 values the runtime does not play


def _unbuilt(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for given, with_option in _settings(title):
        for name, expr in given.items():
            found = unbuilt(name, _literal(expr))
            if found is None:
                continue
            if found.when is not None and _literal(given.get(found.when[0])) != found.when[1]:
                continue  # the runtime does not read it here
            if (name, expr.span) in seen:
                continue
            seen.add((name, expr.span))
            out.append(error(
                "E033", f"`{name}: {str(found.value).lower()}` is not implemented by the runtime{with_option}: "
                f"{found.why}", expr.span,
                help="choose a value the runtime plays, or build this one (compiler/runtime/built.py lists "
                     "what is missing)",
            ))
    return out


def _settings(title: Title) -> list[tuple[dict[str, s.Expr], str]]:
    """The title's properties by name, and the same with each option's `sets` over them (with a word
    for a message: "", " with option KEY")."""
    values = {c.decl.name: c.decl.value for c in title.of_kind("property") if isinstance(c.decl, s.Property)}
    settings: list[tuple[dict[str, s.Expr], str]] = [(values, "")]
    for option in title.components("option"):
        sets = option.get("sets")
        if sets is not None and isinstance(sets.value, s.Record):
            settings.append(({**values, **dict(sets.value.fields)}, f" with option {option.key}"))
    return settings


def _free_picks(title: Title) -> list[Diagnostic]:
    """E033 for a `free_pick` the library does not play: the library's pick offers only components that
    operate as minors once picked (`pickable`: `picks_operate`), so with `picks_operate` false (or unset)
    no player could pick one, nobody may pass while the players pick, and the opening auction never
    ended (random play: "no legal action" at the first pick); and the picks follow an opening auction
    only (`picking`: `first_round: auction`), so elsewhere they never happened, without a word."""
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for given, with_option in _settings(title):
        pick = given.get("free_pick")
        if pick is None or _literal(pick) in (None, "none"):
            continue
        kind = _literal(pick)
        if _literal(given.get("first_round")) != "auction":
            found = ("first_round", pick.span), error(
                "E033", f"`free_pick: {kind}` is not played{with_option}: the players pick after an opening "
                        f"auction only (`first_round: auction`)", pick.span,
                help="the library's picking() is true in the auction round, once every private is sold; "
                     "set `first_round: auction`, or leave free_pick out")
        elif _literal(given.get("picks_operate")) is not True:
            found = ("picks_operate", pick.span), error(
                "E033", f"`free_pick: {kind}` without `picks_operate: true` is not played{with_option}: no "
                        f"player could pick a {kind}, and the opening auction would never end", pick.span,
                help="the library's pickable() offers only components that operate as minors once picked: "
                     "set `picks_operate: true` (the picked components are then the title's minors)")
        else:
            continue
        if found[0] not in seen:
            seen.add(found[0])
            out.append(found[1])
    return out


# ---------------------------------------------------------------- E020 a par price off the market


def _market_prices(expr, out: set[int]) -> None:
    """The prices of a market's `rows`: each cell's, a number or a cell record's `price`."""
    if isinstance(expr, s.Int):
        out.add(expr.value)
    elif isinstance(expr, s.Record):
        out.update(v.value for k, v in expr.fields if k == "price" and isinstance(v, s.Int))
    elif isinstance(expr, s.ListLit):
        for item in expr.items:
            _market_prices(item, out)


def _par_prices(title: Title) -> list[Diagnostic]:
    """E020 for a par price (the title's `par_prices`, a corporation's own) that no cell of the market
    has: a corporation started at it has no place on the market (`$61` for `$60` checked clean)."""
    cells: set[int] = set()
    for market in title.components("market"):
        rows = market.get("rows")
        if rows is not None:
            _market_prices(rows.value, cells)
    if not cells:
        return []
    props = [title.prop("par_prices"), *(c.get("par_prices") for c in title.components("corporation"))]
    out = []
    for prop in props:
        if prop is None or not isinstance(prop.value, s.ListLit):
            continue
        for item in prop.value.items:
            if isinstance(item, s.Money) and item.amount not in cells:
                near = sorted(cells, key=lambda price: (abs(price - item.amount), price))[:2]
                out.append(error(
                    "E020", f"the par price {item.currency}{item.amount} is no price of the market",
                    _at(item, prop), help="a par price is a cell of the market; the nearest: "
                                          + ", ".join(f"{item.currency}{p}" for p in sorted(near))))
    return out


# ---------------------------------------------------------------- E021 a player count without a row


def _player_rows(title: Title) -> list[Diagnostic]:
    """E021 for a table by players with no row for a player count the title takes (`players: 2..3`
    and `table starting_cash by players { 2 => $520 }`): play refused that count at setup ("the table
    has no row for {'players': 3}") though `rulec check` said nothing."""
    takes = title.players
    if takes is None:
        return []
    out = []
    for clause in title.of_kind("table"):
        table = clause.decl
        if not isinstance(table, s.Table) or "players" not in table.dims:
            continue
        at = table.dims.index("players")
        covered: set[int] = set()
        for row in table.rows:
            key = row.keys[at] if at < len(row.keys) else None
            if isinstance(key, int):
                covered.add(key)
            elif isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, int) for k in key):
                covered.update(range(key[0], key[1] + 1))
        missing = [n for n in range(takes[0], takes[1] + 1) if n not in covered]
        if missing:
            shown = ", ".join(map(str, missing))
            out.append(error(
                "E021", f"table `{table.name}` has no row for {shown} player{'s' if missing != [1] else ''}, "
                        f"though {title.display_name} takes {takes[0]}..{takes[1]}",
                Span(table.span.path, table.span.line, table.span.column, table.span.line, table.span.column + 5),
                help=f"add a row for each player count (`{missing[0]} => ...`, or `gap \"why\"` where the rules do "
                     f"not give it), or narrow `players`"))
    return out


# ---------------------------------------------------------------- E020 phases that never come


def _named(expr) -> list[tuple[str, s.Expr]]:
    """The names a value gives, with each one's node: itself, or a list's items (none for `none`)."""
    items = expr.items if isinstance(expr, s.ListLit) else (expr,)
    return [(name, item) for item in items if (name := _name(item)) is not None]


def _at(node, prop: s.Property) -> Span:
    return node.span if node.span and node.span.line else prop.span


def _phases_and_trains(title: Title) -> list[Diagnostic]:
    """E020 for what the schema takes and play never reaches: a phase whose `on_train` names a train an
    earlier phase begins on already (the first purchase begins the earlier one; this one never comes),
    or a train the bank never sells (not in the title's `train_supply_order`); a train that rusts or
    becomes obsolete on its own type (its first purchase would take it away at once: 1800's "2" with
    `rusts_on: "2"` stalled play); a private named twice in `private_sale_order`; a corporation or minor
    with a home and no station token (`tokens: []`): it played on without its home station."""
    out: list[Diagnostic] = []
    order = title.prop("train_supply_order")
    sold = {name for name, _ in _named(order.value)} if order is not None and isinstance(order.value, s.ListLit) \
        else None
    sides = {}
    for train in title.components("train"):
        other = train.get("variant_of")
        if other is not None and _name(other.value) is not None:
            sides[train.key] = _name(other.value)
    trains = {train.key for train in title.components("train")}  # (a train of no such name: E022, not this)
    begun: dict[str, s.Component] = {}
    sequence = [name for name, _ in _named(order.value)] if sold is not None else []
    last: tuple[int, s.Component, str] | None = None  # the latest phase so far by the bank's order
    for phase in title.components("phase"):
        prop = phase.get("on_train")
        if prop is None:
            continue
        firsts = [(sequence.index(name), name, node) for name, node in _named(prop.value) if name in sequence]
        if firsts:
            first = min(firsts, key=lambda f: f[0])
            if last is not None and first[0] < last[0]:
                out.append(error(
                    "E020", f"phase {phase.key} comes before phase {last[1].key}, which the title lists first: the "
                            f"bank sells the {first[1]} train before the {last[2]} train (`train_supply_order`)",
                    _at(first[2], prop), notes=((last[1].span, f"phase {last[1].key} begins on the {last[2]} train"),),
                    help="list the phases in the order their trains are sold, or correct `on_train`"))
            else:
                last = (first[0], phase, first[1])
        for name, node in _named(prop.value):
            if name in begun:
                out.append(error(
                    "E020", f"phase {phase.key} never comes: the first {name} train begins phase {begun[name].key}",
                    _at(node, prop), notes=((begun[name].span, f"phase {begun[name].key} begins on it here"),),
                    help="each train type begins one phase at most: check the phase's `on_train`"))
                continue
            begun[name] = phase
            if sold is not None and name not in sold and sides.get(name) not in sold and name in trains:
                out.append(error(
                    "E020", f"phase {phase.key} never comes: the bank never sells a {name} train (it is not in "
                            f"`train_supply_order`)", _at(node, prop), notes=((order.span, "the bank's trains"),),
                    help="add the train to `train_supply_order`, or begin the phase on a train the bank sells"))
    for train in title.components("train"):
        for field in ("rusts_on", "obsolete_on"):
            prop = train.get(field)
            if prop is None:
                continue
            for name, node in _named(prop.value):
                if name == train.key:
                    out.append(error(
                        "E020", f"train {train.key} {'rusts' if field == 'rusts_on' else 'becomes obsolete'} on "
                                f"its own type: the first {name} bought would leave at once", _at(node, prop),
                        help=f"`{field}` names a later train type, whose first purchase takes this one away"))
    for comp in [*title.components("corporation"), *title.components("minor")]:
        tokens, home = comp.get("tokens"), comp.get("home")
        if tokens is not None and isinstance(tokens.value, s.ListLit) and not tokens.value.items \
                and home is not None and _name(home.value) is not None:
            out.append(error(
                "E020", f"{comp.kind} {comp.key} has a home, {_name(home.value)}, and no station token to put there",
                tokens.value.span or tokens.span,
                help="`tokens` lists the price of each of its station tokens, the home station's first ($0)"))
    sale = title.prop("private_sale_order")
    if sale is not None and isinstance(sale.value, s.ListLit):
        seen: set[str] = set()
        for name, node in _named(sale.value):
            if name in seen:
                out.append(error(
                    "E020", f"`private_sale_order` names {name} twice", _at(node, sale),
                    help="each private is offered once, in the order the list gives"))
            seen.add(name)
    return out


# ---------------------------------------------------------------- E020 a hex off the grid


def _key_span(comp: s.Component) -> Span:
    """The span of a component's key, as written after its kind (`hex D4`)."""
    span = comp.span
    column = span.column + len(comp.kind) + 1
    return Span(span.path, span.line, column, span.line, column + len(comp.key or ""))


def _grid(title: Title) -> list[Diagnostic]:
    """E020 for a hex the runtime's board cannot place: a name that is no hex id (`d4`, `D`): play
    refused the whole map as "a rulec bug to report"; a hex off the grid the others are on (`D5` among
    A1, B2, C3 ...: on the doubled grid the letter's and the number's places have one parity on a map),
    which no hex neighbours; and a hex none of the map's hexes neighbours: track never reaches it."""
    hexes = [h for h in title.components("hex") if h.key]
    layout = title.prop("layout")
    layout_name = _literal(layout.value) if layout is not None else "flat"
    axes = title.prop("axes")
    axes_name = _literal(axes.value) if axes is not None else None
    if not hexes or layout_name not in ("flat", "pointy") or axes_name not in (None, "letter", "number"):
        return []
    geometry = Geometry(layout_name, axes_name)
    out: list[Diagnostic] = []
    placed: dict[str, tuple[int, int]] = {}
    for comp in hexes:
        try:
            placed[comp.key] = geometry.xy(comp.key)
        except ValueError:
            out.append(error(
                "E020", f"`{comp.key}` is no hex id: a hex is named by its column and row as printed, capital "
                        f"letters then a number (E7, AA12)", _key_span(comp),
                help="the board places a hex by its id; one it cannot place leaves the map unplayable"))
    parities = [(x + y) % 2 for x, y in placed.values()]
    if not parities:
        return out
    grid = max((0, 1), key=parities.count)  # the parity most of the map's hexes have
    on_grid = {key for key, (x, y) in placed.items() if (x + y) % 2 == grid}
    example = ", ".join(sorted(on_grid)[:3])
    for comp in hexes:
        if comp.key not in placed:
            continue
        if comp.key not in on_grid:
            out.append(error(
                "E020", f"hex {comp.key} is off the grid: on a {layout_name} map the hexes are {example}, ...; "
                        f"{comp.key} lies between them and neighbours none", _key_span(comp),
                help="on this map letters A, C, E, ... take " + ("odd" if grid == 0 else "even") + " numbers and letters "
                     "B, D, F, ... " + ("even" if grid == 0 else "odd") + " ones (check the printed id)"))
        elif len(on_grid) > 1 and not any(geometry.neighbour(comp.key, edge) in on_grid for edge in range(6)):
            out.append(error(
                "E020", f"hex {comp.key} neighbours no other hex of the map: no track ever reaches it",
                _key_span(comp), help="check the printed id; a map's hexes lie side by side"))
    return out


# ---------------------------------------------------------------- W006 actions random play never tries


class _Properties:
    """A title's properties as `untried_parameter` reads them: a list where the value is a list literal."""

    def __init__(self, title: Title):
        self.title = title

    def get(self, name: str):
        prop = self.title.prop(name)
        if prop is None:
            return None
        return [] if isinstance(prop.value, s.ListLit) else _literal(prop.value)


def _untried(title: Title) -> list[Diagnostic]:
    out = []
    properties = _Properties(title)
    for clause in title.clauses:
        decl = clause.decl
        if clause.kind != "action" or not isinstance(decl, s.Routine):
            continue
        params = [(p.name, (str(p.type),) if p.type.is_list else tuple(str(a) for a in p.type.alternatives))
                  for p in decl.params]
        optional = {p.name for p in decl.params if p.default is not None}
        name = untried_parameter(decl.name, params, properties, optional, runtime_listing())
        if name is None:
            continue
        param = next(p for p in decl.params if p.name == name)
        kind = dict(params)[name][0]
        out.append(warning(
            "W006", f"random play never tries action {decl.name}: its parameter `{name}` is of kind {kind}, "
                    f"which random play does not enumerate", param.span,
            help=f"list the values to try as the title's `{decl.name}_options: [...]` (an int or a name), give "
                 f"{name} a kind random play enumerates (a player, corporation, private, bond, train, hex, tile, "
                 f"money, certificate list), or make it an optional field with a default",
        ))
    return out
