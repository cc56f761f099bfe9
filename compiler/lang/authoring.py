"""Stage 4, check (authoring): an author's slips the schema accepts and play runs into.

Each value below has the right type and names what exists, so the other stages accept it; played,
it loops, stalls or stops on a Python error, or it silently does nothing. Found by a breaker writing a
title as a designer would (`rulec check` said nothing of any of them):

- E020 a market with no cell, an empty row, a negative price, a price below the one on its left in
  its row or above the one over it in its column (a two-dimensional market falls to the right and
  down: `80, 70, 120` is a slip of the pen, and a token moving right would fall);
- E033 a second market: the runtime plays a title's first market and ignores the others;
- E020 an `end_share_price` above every price of the market, where `game_end` names share_price: the
  game never ends by share price;
- E033 a phase's `train_limit` by kind of company (`{major => 4, minor => 2}`): the library's
  train_limit(C) reads a number (play stopped on a TypeError at the first train bought);
- E020 a path whose two ends are one (`(a: 5, b: 5)`): the route search went round it until the
  action cap;
- E020 `operating_steps`, `minor_operating_steps`, `game_end` or `dividend_kinds` naming an item twice (a second `dividend`
  step looped the operating turn until the action cap), an empty `operating_steps` (no turn ever
  ends), an empty `dividend_kinds` where a `dividend` step is taken (the step has no choice: play
  stalled); a `dividend` step before `run_routes` (there is no revenue yet: the turn looped), and a
  title whose corporations must own a train with no `buy_train` step (the turn looped);
- E020 a bank smaller than the starting cash it pays out (`bank: $1000`, two players at $3000: the
  bank broke before the first action);
- E020 a phase's `train_limit: 0`: no company may hold a train (where it must own one, play stalled);
- E020 a `transfer` of a negative written amount (`transfer -10 from bank to ...`): the runtime
  refuses every negative payment, so the rule refused play wherever it ran;
- E020 a division by a written expression that is 0 (`x / (1 - 1)`; a written `/ 0` is typecheck's);
- E011 a component with two abilities of one name: the second hid the first;
- E020 a train that is the other side of itself (`variant_of` its own name);
- E021 a map by player count (`count: {3 => 5, 4 => 6}`) without a value for a count the title
  takes (play refused that count at setup); E011 a map literal giving one key twice;
- E020 a private's `min_price` above its `max_price`: no price between;
- E022 an ability's `city` the hex it names does not have (`hex: D6`, `city: 7` of four cities);
- E038 a `for` over, or a condition on, a value a runtime event binds that is no collection and no
  condition (`on corporation_started(corporation, price)`: `for x in price`, `if corporation`), or
  over a builtin holder (`for x in bank`), and a field or an element of such a number (`price.foo`,
  `price[0]`): the engine stopped on a TypeError or a RuleGap;
- E038 a written literal where it certainly cannot stand: what `sum`/`all`/... go over (`sum(x in 5: x)`),
  a string, a flag or none in arithmetic (`price + "x"`), a number or a string under `not`/`and`/`or`,
  what a `move` moves (`move 5 ...`), a `do` of no call (`do 5`);
- W001 a gap that gives no reason (`gap ""`), as an assumption that gives none.
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, Span, error, warning
from compiler.lang import syntax as s
from compiler.lang.exprtypes import HOLDERS
from compiler.lang.ir import Title, statements
from compiler.lang.typecheck import key_of
from compiler.runtime.vocabulary import RUNTIME_EVENTS


def check_authoring(title: Title) -> list[Diagnostic]:
    """The findings of this stage for one resolved title (or title + variant)."""
    out: list[Diagnostic] = []
    out.extend(_markets(title))
    out.extend(_end_price(title))
    out.extend(_paths(title))
    out.extend(_listed_once(title))
    out.extend(_bank_and_cash(title))
    out.extend(_train_limits(title))
    out.extend(_rules(title))
    out.extend(_abilities(title))
    out.extend(_train_sides(title))
    out.extend(_maps(title))
    out.extend(_price_ranges(title))
    out.extend(_silent_gaps(title))
    return out


def _at(node, fallback) -> Span:
    span = getattr(node, "span", None)
    return span if span and span.line else fallback.span




# ---------------------------------------------------------------- E020/E033 the market


def _price(cell) -> int | None:
    if isinstance(cell, s.Int):
        return cell.value
    if isinstance(cell, s.Unary) and cell.op == "-" and isinstance(cell.operand, s.Int):
        return -cell.operand.value
    if isinstance(cell, s.Record):
        value = cell.get("price")
        return _price(value) if value is not None else None
    return None


def _markets(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    markets = title.components("market")
    for extra in markets[1:]:
        out.append(error(
            "E033", f"a second market, {extra.key}: the runtime plays a title's first market ({markets[0].key}) "
                    "and no other", extra.span, notes=((markets[0].span, "the market played"),),
            help="a title has one stock market: merge the rows into it"))
    for market in markets:
        prop = market.get("rows")
        if prop is None or not isinstance(prop.value, s.ListLit):
            continue
        rows = [row for row in prop.value.items if isinstance(row, s.ListLit)]
        if len(rows) != len(prop.value.items):
            continue  # a row that is no list: the schema's E025
        if not any(_price(cell) is not None for row in rows for cell in row.items):
            out.append(error(
                "E020", f"market {market.key} has no cell: no corporation can be started on it",
                prop.value.span or prop.span, help="`rows` lists the cells row by row: `rows: [[50, 60, 70, ...]]`"))
            continue
        grid: list[list[int | None]] = []
        for row in rows:
            if not row.items:
                out.append(error("E020", f"an empty row of market {market.key}", _at(row, prop),
                                 help="a row lists its cells; leave the row out, or write `none` for a gap"))
            prices = [_price(cell) for cell in row.items]
            grid.append(prices)
            for cell, price in zip(row.items, prices):
                if price is not None and price < 0:
                    out.append(error("E020", f"a market price of {price}: a share is worth $0 or more",
                                     _at(cell, prop), help="a cell's price is what a share of a company there costs"))
            for (left, right), cell in zip(zip(prices, prices[1:]), row.items[1:]):
                if left is not None and right is not None and 0 <= right < left:
                    out.append(error(
                        "E020", f"the market price {right} is below the {left} on its left: a row rises from left "
                                "to right", _at(cell, prop),
                        help="a company's price moves right as it rises; check the printed market"))
                    break
        for r in range(1, len(grid)):
            for c, price in enumerate(grid[r]):
                above = grid[r - 1][c] if c < len(grid[r - 1]) else None
                if price is not None and above is not None and price > above >= 0:
                    out.append(error(
                        "E020", f"the market price {price} is above the {above} over it: a column falls from top "
                                "to bottom", _at(rows[r].items[c], prop),
                        help="a company's price moves down as it falls; check the printed market"))
                    break
    return out


def _end_price(title: Title) -> list[Diagnostic]:
    """E020 for an `end_share_price` above every price of the market where `game_end` names share_price:
    no price ever reaches it (the runtime ends the game at a price at or above it)."""
    ends, ceiling = title.prop("game_end"), title.prop("end_share_price")
    if ends is None or ceiling is None or not isinstance(ceiling.value, s.Money) \
            or not isinstance(ends.value, s.ListLit) or "share_price" not in map(key_of, ends.value.items):
        return []
    prices = [price for market in title.components("market")[:1] if (rows := market.get("rows")) is not None
              and isinstance(rows.value, s.ListLit) for row in rows.value.items if isinstance(row, s.ListLit)
              for cell in row.items if (price := _price(cell)) is not None]
    if not prices or max(prices) >= ceiling.value.amount:
        return []
    money = ceiling.value.currency
    return [error(
        "E020", f"no price of the market reaches the end_share_price of {money}{ceiling.value.amount}: the highest "
                f"is {money}{max(prices)}, so the game never ends by share price",
        _at(ceiling.value, ceiling), help="`end_share_price` is a price of the market, the one that ends the game")]


# ---------------------------------------------------------------- E020 a path from an end to itself


def _paths(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for kind in ("hex", "tile"):
        for comp in title.components(kind):
            prop = comp.get("paths")
            if prop is None or not isinstance(prop.value, s.ListLit):
                continue
            for path in prop.value.items:
                if not isinstance(path, s.Record):
                    continue
                a, b = path.get("a"), path.get("b")
                if a is not None and b is not None and key_of(a) is not None and key_of(a) == key_of(b):
                    out.append(error(
                        "E020", f"a path of {kind} {comp.key} from {key_of(a)} to {key_of(a)}: its two ends are one",
                        _at(path, prop), help="a path joins an edge (0-5) and a node (n0, ...), two edges or two nodes"))
    return out


# ---------------------------------------------------------------- E020 lists that take an item once


#: the title's lists in which an item named twice is a slip (and the runtime takes each item as it comes)
_ONCE = {"operating_steps": "step of the operating turn", "minor_operating_steps": "step of a minor's turn",
         "game_end": "end condition", "dividend_kinds": "use of a revenue"}


def _listed_once(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for name, what in _ONCE.items():
        prop = title.prop(name)
        if prop is None or not isinstance(prop.value, s.ListLit):
            continue
        seen: set[str] = set()
        for item in prop.value.items:
            key = key_of(item)
            if key in seen:
                out.append(error("E020", f"`{name}` names {key} twice", _at(item, prop),
                                 help=f"each {what} is listed once"))
            if key is not None:
                seen.add(key)
    steps = title.prop("operating_steps")
    if steps is not None and isinstance(steps.value, s.ListLit) and not steps.value.items:
        out.append(error("E020", "`operating_steps` is empty: an operating turn with no step never ends",
                         steps.value.span or steps.span, help="list the steps of a company's turn, in order"))
    for name in ("operating_steps", "minor_operating_steps"):
        prop = title.prop(name)
        if prop is None or not isinstance(prop.value, s.ListLit):
            continue
        order = [key_of(item) for item in prop.value.items]
        if "dividend" in order and "run_routes" in order and order.index("dividend") < order.index("run_routes"):
            out.append(error(
                "E020", f"`{name}` takes the dividend before the trains run: there is no revenue to pay out yet",
                _at(prop.value.items[order.index("dividend")], prop),
                help="the trains run (`run_routes`), then their revenue is paid out or withheld (`dividend`)"))
    must = title.prop("must_own_train")
    if must is not None and isinstance(must.value, s.Bool) and must.value.value and steps is not None \
            and isinstance(steps.value, s.ListLit) and steps.value.items \
            and "buy_train" not in map(key_of, steps.value.items):
        out.append(error(
            "E020", "`must_own_train` is true, and the operating turn has no `buy_train` step: a corporation "
                    "without a train can never buy the one it must own", steps.value.span or steps.span,
            notes=((must.span, "must_own_train"),), help="add `buy_train` to `operating_steps`"))
    kinds = title.prop("dividend_kinds")
    if kinds is not None and isinstance(kinds.value, s.ListLit) and not kinds.value.items and steps is not None \
            and isinstance(steps.value, s.ListLit) and "dividend" in map(key_of, steps.value.items):
        out.append(error(
            "E020", "`dividend_kinds` is empty, and the operating turn has a `dividend` step: it has nothing to "
                    "choose", kinds.value.span or kinds.span, help="list what a company may do with its revenue: "
                                                                  "[payout, withhold]"))
    return out


# ---------------------------------------------------------------- E020 a bank short of the starting cash


def _bank_and_cash(title: Title) -> list[Diagnostic]:
    bank = title.prop("bank")
    if bank is None or not isinstance(bank.value, s.Money):
        return []
    out: list[Diagnostic] = []
    for clause in title.of_kind("table"):
        table = clause.decl
        if not isinstance(table, s.Table) or table.name != "starting_cash" or table.dims != ("players",):
            continue
        for row in table.rows:
            key = row.keys[0] if row.keys else None
            counts = [key] if isinstance(key, int) else list(key) if isinstance(key, tuple) else []
            if isinstance(row.value, s.Money) and counts:
                most = max(counts)
                if most * row.value.amount > bank.value.amount:
                    out.append(error(
                        "E020", f"the bank, {bank.value.currency}{bank.value.amount}, cannot pay {most} players "
                                f"{row.value.currency}{row.value.amount} each to start",
                        _at(row.value, row), notes=((bank.span, "the bank"),),
                        help="the bank pays each player's starting cash out of its own: check both amounts"))
    return out


# ---------------------------------------------------------------- E020 a train limit of 0


def _train_limits(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for phase in title.components("phase"):
        prop = phase.get("train_limit")
        if prop is not None and isinstance(prop.value, s.MapLit):
            out.append(error(
                "E033", f"phase {phase.key}'s train limit is a map by kind of company, which the runtime does not "
                        "play: the library's train_limit(C) reads one number for every company",
                prop.value.span or prop.span,
                help="give one number (`train_limit: 4`); the play stopped on a TypeError at the first train bought"))
        if prop is not None and isinstance(prop.value, s.Int) and prop.value.value == 0:
            out.append(error(
                "E020", f"phase {phase.key}'s train limit is 0: no company may hold a train in it",
                _at(prop.value, prop), help="`train_limit` is the most trains a company may hold, at least 1 "
                                            "(a map by kind of company gives each kind its own)"))
    return out


# ---------------------------------------------------------------- rules: transfers, divisions, loops


#: the builtin holders (`DslSupport._FIXED_NAMES`): one thing each, no collection, no condition
_HOLDERS = tuple(HOLDERS)
#: what a value a runtime event gives is (`RUNTIME_EVENTS`' words): a component or a number
_EVENT_VALUES = {"corporation": "a corporation", "par price": "a number", "former president": "a player",
                 "new president": "a player", "special round": "a value of the title's enum special_round"}


def _fold(expr) -> int | None:
    """A written arithmetic of numbers' value, or None."""
    if isinstance(expr, s.Int):
        return expr.value
    if isinstance(expr, s.Money):
        return expr.amount
    if isinstance(expr, s.Unary) and expr.op == "-":
        inner = _fold(expr.operand)
        return -inner if inner is not None else None
    if isinstance(expr, s.Binary) and expr.op in ("+", "-", "*"):
        left, right = _fold(expr.left), _fold(expr.right)
        if left is None or right is None:
            return None
        return left + right if expr.op == "+" else left - right if expr.op == "-" else left * right
    return None


def _rules(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for clause in title.clauses:
        decl = clause.decl
        if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)) or clause.origin.kind == "library":
            continue
        for node in s.walk(decl):
            if isinstance(node, s.Binary) and node.op in ("/", "mod") and isinstance(node.right, (s.Binary, s.Unary)) \
                    and _fold(node.right) == 0:
                out.append(error("E020", f"a division by zero: `{node.op}` by a written amount that is 0",
                                 node.right.span or node.span, help="divide by a number that cannot be 0"))
        out.extend(_written_values(decl))
        if isinstance(decl, s.Invariant):
            continue
        for st in statements(decl.body):
            if isinstance(st, s.Transfer):
                amount = _fold(st.amount)
                if amount is not None and amount < 0:
                    out.append(error(
                        "E020", f"a transfer of {amount}: the runtime pays no negative amount",
                        st.amount.span or st.span, help="transfer the amount the other way: `from` the payee "
                                                        "`to` the payer"))
        out.extend(_single_values(decl))
    return out


#: the literals that are one value of no collection, no condition and (but numbers) no amount, by what they are
_LITERALS = {s.Int: "a number", s.Money: "money", s.Percent: "a percentage", s.Str: "a string", s.Bool: "true or false",
             s.NoneLit: "none"}


def _literal_shape(expr) -> str | None:
    if isinstance(expr, s.Unary) and expr.op == "-" and isinstance(expr.operand, (s.Int, s.Money, s.Percent)):
        return _LITERALS[type(expr.operand)]
    return _LITERALS.get(type(expr))


def _written_values(decl) -> list[Diagnostic]:
    """E038 for what a written literal certainly cannot be: the domain of `all`/`any`/`sum`/`count`/
    `filter`/`greatest`/`least` (`sum(x in 5: x)`: a TypeError in play), an operand of arithmetic that is a
    string added to what is not one (`price + "x"`), an operand of `not`/`and`/`or` that is a number, money,
    a percentage, a string or none (the engine took its truth), what a `move` moves (`move 5 from ...`),
    and a `do` of no call (`do 5`: nothing is done)."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if isinstance(node, s.Quantifier) and (what := _literal_shape(node.domain)) is not None:
            out.append(error(
                "E038", f"`{node.kind}({node.var} in ...)` goes over {what}, not a collection",
                node.domain.span or node.span,
                help="it goes over a list, a set or a map: players, corporations, trains(corporation), ..."))
        elif isinstance(node, s.Binary) and node.op == "+":
            # (arithmetic on none, true or false, and a string's `-`, `*`, `/` are the typecheck's, exprtypes;
            # a string's own `+` of another is the engine's Python's: what is left is a string added to what
            # is not one, `price + "x"`, a TypeError in play)
            shapes = [_literal_shape(side) for side in (node.left, node.right)]
            for side, what, other in ((node.left, shapes[0], shapes[1]), (node.right, shapes[1], shapes[0])):
                if what == "a string" and other != "a string":
                    out.append(error("E038", f"`{node.op}` on {what}: arithmetic is on numbers and money",
                                     side.span or node.span, help="write a number, money or what gives one"))
        elif isinstance(node, (s.Binary, s.Unary)) and node.op in ("and", "or", "not"):
            for side in ((node.left, node.right) if isinstance(node, s.Binary) else (node.operand,)):
                what = _literal_shape(side)
                if what not in (None, "true or false"):
                    out.append(error("E038", f"`{node.op}` on {what}, not true or false", side.span or node.span,
                                     help="a condition is true or false: a comparison (`n > 0`), `not`, a flag"))
        elif isinstance(node, s.Move) and (what := _literal_shape(node.what)) is not None:
            out.append(error("E038", f"`move` moves a certificate, a train, a token or a private, not {what}",
                             node.what.span or node.span, help="money moves by `transfer`"))
        elif isinstance(node, s.Do) and not isinstance(node.call, s.Call):
            out.append(error("E038", "`do` calls a procedure or a builtin; this names no call",
                             getattr(node.call, "span", None) or node.span,
                             help="write the call: `do close_privates()`"))
    return out


def _single_values(decl: s.Routine | s.Trigger) -> list[Diagnostic]:
    """E038 for a `for` over, or a condition on, a builtin holder or a runtime event's value."""
    rebound = {st.name for st in statements(decl.body) if isinstance(st, s.Let)} \
        | {st.var for st in statements(decl.body) if isinstance(st, s.For)}
    rebound |= {node.var for node in s.walk(decl.body) if isinstance(node, s.Quantifier)}
    if isinstance(decl, s.Routine):
        rebound |= {p.name for p in decl.params}
    single = {name: f"the {name}" if name == "bank" else f"the builtin holder `{name}`" for name in _HOLDERS}
    if isinstance(decl, s.Trigger):
        given = RUNTIME_EVENTS.get(decl.event.name, ())
        for arg, meaning in zip(decl.event.args, given):
            if isinstance(arg, s.Name) and meaning in _EVENT_VALUES:
                single[arg.name] = f"`{arg.name}`, {_EVENT_VALUES[meaning]} (`{decl.event.name}` gives its {meaning})"
    single = {name: what for name, what in single.items() if name not in rebound}
    numbers = {name for name, what in single.items() if "a number" in what}
    out: list[Diagnostic] = []
    for node in s.walk(decl.body):
        if isinstance(node, (s.Member, s.Index)) and isinstance(node.obj, s.Name) and node.obj.name in numbers:
            what = f"a field `.{node.name}`" if isinstance(node, s.Member) else "an element `[...]`"
            out.append(error(
                "E038", f"{what} of {single[node.obj.name]}: a number has none", node.span or node.obj.span,
                help="read the number itself, or what the event's other values give"))
        if isinstance(node, s.Quantifier) and isinstance(node.domain, s.Name) and node.domain.name in single:
            out.append(error(
                "E038", f"`{node.kind}({node.var} in ...)` goes over {single[node.domain.name]}, not a collection",
                node.domain.span or node.span,
                help="it goes over a list, a set or a map: players, corporations, trains(corporation), ..."))
    for st in statements(decl.body):
        if isinstance(st, s.For) and isinstance(st.domain, s.Name) and st.domain.name in single:
            out.append(error(
                "E038", f"`for {st.var} in ...` goes over {single[st.domain.name]}, not a collection",
                st.domain.span or st.span,
                help="a `for` goes over a list, a set or a map: players, corporations, trains(corporation), ..."))
        conditions = [cond for cond, _ in st.branches] if isinstance(st, s.If) else \
            [st.cond] if isinstance(st, s.Require) else []
        for cond in conditions:
            if isinstance(cond, s.Name) and cond.name in single:
                out.append(error(
                    "E038", f"the condition is {single[cond.name]}, not true or false", cond.span or st.span,
                    help="a condition is true or false: a comparison (`price > 0`), `not`, a flag, a test builtin"))
    return out


# ---------------------------------------------------------------- abilities


def _abilities(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    hexes = {h.key: h for h in title.components("hex")}
    for clause in title.clauses:
        comp = clause.decl
        if not isinstance(comp, s.Component):
            continue
        seen: dict[str, s.Component] = {}
        for child in comp.children:
            if child.kind != "ability" or not child.key:
                continue
            if child.key in seen:
                out.append(error(
                    "E011", f"{comp.kind} {comp.key} has two abilities named {child.key}", child.span,
                    notes=((seen[child.key].span, "the first"),), help="give each ability its own name"))
            seen.setdefault(child.key, child)
            city, hex_prop = child.get("city"), child.get("hex")
            if city is None or hex_prop is None or not isinstance(city.value, s.Int):
                continue
            hex_comp = hexes.get(key_of(hex_prop.value) or "")
            nodes = hex_comp.get("nodes") if hex_comp is not None else None
            if nodes is None or not isinstance(nodes.value, s.ListLit):
                continue
            count = len(nodes.value.items)
            if not 0 <= city.value.value < count:
                out.append(error(
                    "E022", f"hex {hex_comp.key} has no node {city.value.value}: it has {count}, "
                            f"0 to {count - 1}", _at(city.value, city),
                    help="an ability's `city` is the number of a node of its hex, from 0, in the order of `nodes`"))
    return out


# ---------------------------------------------------------------- trains and privates


def _train_sides(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for train in title.components("train"):
        prop = train.get("variant_of")
        if prop is not None and key_of(prop.value) == train.key:
            out.append(error(
                "E020", f"train {train.key} is the other side of itself", _at(prop.value, prop),
                help="`variant_of` names the train whose card this one is the other side of"))
    return out


def _maps(title: Title) -> list[Diagnostic]:
    """E011 for a map literal giving a key twice; E021 for a train's `count` by player count without a
    value for a count the title takes."""
    out: list[Diagnostic] = []
    for clause in title.clauses:
        if clause.origin.kind == "library":
            continue
        for node in s.walk(clause.decl):
            if not isinstance(node, s.MapLit):
                continue
            seen: set[str] = set()
            for key, _ in node.entries:
                name = key_of(key)
                if name is not None and name in seen:
                    out.append(error("E011", f"a map gives the key {name} twice", key.span or node.span,
                                     help="give each key one value"))
                if name is not None:
                    seen.add(name)
    takes = title.players
    if takes is None:
        return out
    for train in title.components("train"):
        prop = train.get("count")
        if prop is None or not isinstance(prop.value, s.MapLit) \
                or not all(isinstance(k, s.Int) for k, _ in prop.value.entries):
            continue
        given = {k.value for k, _ in prop.value.entries}
        missing = [n for n in range(takes[0], takes[1] + 1) if n not in given]
        if missing:
            out.append(error(
                "E021", f"train {train.key}'s count has no value for {', '.join(map(str, missing))} players, "
                        f"though {title.display_name} takes {takes[0]}..{takes[1]}",
                prop.value.span or prop.span, help=f"add `{missing[0]} => N` to the map, or narrow `players`"))
    return out


def _price_ranges(title: Title) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for kind in ("private", "minor"):
        for comp in title.components(kind):
            low, high = comp.get("min_price"), comp.get("max_price")
            if low is not None and high is not None and isinstance(low.value, s.Money) \
                    and isinstance(high.value, s.Money) and low.value.amount > high.value.amount:
                out.append(error(
                    "E020", f"{kind} {comp.key}'s min_price, {low.value.currency}{low.value.amount}, is above its "
                            f"max_price, {high.value.currency}{high.value.amount}: no price lies between",
                    _at(low.value, low), notes=((high.span, "its max_price"),),
                    help="a corporation pays at least min_price and at most max_price for it"))
    return out


# ---------------------------------------------------------------- W001 a gap that gives no reason


def _silent_gaps(title: Title) -> list[Diagnostic]:
    """W001 for `gap ""`: a gap is its own provenance, its reason saying why the rulespec cannot give
    the value; play refused the title with an empty reason ("bank is a gap in the rulespec: ")."""
    out: list[Diagnostic] = []
    for clause, where, gap in title.gaps():
        if clause.origin.kind == "library" or gap.reason.strip():
            continue
        out.append(warning(
            "W001", f"{clause.kind} {clause.name!r}{f' ({where})' if where and where != clause.name else ''} is a "
                    "gap that gives no reason",
            gap.span if gap.span and gap.span.line else clause.decl.span,
            help='say why the rulebook does not give it: `gap "the rulebook prints no bank size"`'))
    return out
