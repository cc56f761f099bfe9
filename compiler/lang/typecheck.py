"""Stage 4, check (values): every property of a title against its schema (`compiler.lang.schema`).

Each finding is at the value's own span:

- E024 an unknown property (of the title, of a kind, of a record): "did you mean",
  and in help the properties the kind has;
- E025 a value of the wrong type: the type expected and the value's;
- E026 a name that is not one of an enum's values: the values allowed;
- E022 a reference to a component that does not exist (a corporation, private,
  train, phase, hex, tile, ...): the nearest keys of that kind, and the kinds that
  do have that key;
- E027 a required property missing (a `gap "why"` counts as given);
- E028 a component of a kind that no `kind` declares;
- E029 a schema declaration that is wrong (a type naming no type, enum or kind; a
  default of the wrong type).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

from compiler.lang import syntax as s
from compiler.diagnostics import Diagnostic, Span, error
from compiler.lang.exprtypes import (_COMPONENT_TYPES, EnumValuesRead, ExpressionTypes, _certain_type, kinds_meet,
                                     shape, typed_params)
from compiler.lang.ir import RUNTIME_TYPES, STATE_ENTITY_KINDS, Title, state_part_keys
from compiler.lang.schema import NUMBER_DIMENSIONS, REFERENCES, SCALARS, Kind, Schema, did_you_mean, listing, nearest, schema_of


def _builtin_help(name: str, params: list[str] | None) -> str:
    """The help of a builtin called wrongly: its parameters, and its meaning where its docstring gives one."""
    from compiler.lang.builtins import table

    meaning = table().get(name, "")
    shown = f"`{name}({', '.join(params)})`" if params is not None else f"`{name}`"
    return f"{shown}: {meaning}" if meaning else f"{shown} is a builtin of the runtime"


def _match_sites(decl: s.Routine | s.Trigger | s.Invariant) -> tuple:
    """The `match` statements and expressions of a routine, trigger or invariant, with its typed
    parameters and its local names (lets, loop and quantifier variables, an event's arguments)."""
    from compiler.lang.ir import statements

    typed = {p.name: p.type for p in decl.params} if isinstance(decl, s.Routine) else {}
    body = () if isinstance(decl, s.Invariant) else decl.body
    lets = {st.name for st in statements(body) if isinstance(st, s.Let)}
    lets |= {st.var for st in statements(body) if isinstance(st, s.For)}
    if isinstance(decl, s.Trigger):
        lets |= {a.name for a in decl.event.args if isinstance(a, s.Name)}
    nodes = list(s.walk(decl))
    lets |= {q.var for q in nodes if isinstance(q, s.Quantifier)}
    matches = tuple(node for node in nodes if isinstance(node, (s.Match, s.MatchExpr)))
    return matches, typed, frozenset(lets)


#: each clause's match sites, kept by identity across checks (a walk of every routine for its few
#: `match`es was a sixth of a title's check)
_match_sites = s.ByNode(_match_sites)


def _named_calls(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[s.Call, ...]:
    """The calls of a routine, trigger or invariant whose callee is a name, in the order of `walk`."""
    return tuple(node for node in s.walk(decl) if isinstance(node, s.Call) and isinstance(node.func, s.Name))


def _divisions(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[s.Binary, ...]:
    """The divisions (`/`, `mod`) of a routine, trigger or invariant by a written 0 ($0, 0%)."""
    return tuple(node for node in s.walk(decl) if isinstance(node, s.Binary) and node.op in ("/", "mod")
                 and isinstance(node.right, (s.Int, s.Money, s.Percent))
                 and getattr(node.right, "amount", getattr(node.right, "value", None)) == 0)


_divisions = s.ByNode(_divisions)


#: kept by identity as `_match_sites` (a walk of every routine for its calls of states and of the
#: title's procedures was a third of a title's check)
_named_calls = s.ByNode(_named_calls)


#: the builtins whose argument is the key of a card of the title (`b_rust_trains(name)`, ...): their kind
_BUILTIN_KEYS = {"enter_phase": "phase", "phase_at_least": "phase"}
#: the runtime's values that are lists of records of a kind's cards (`GameBase.card_records`)
_CARD_RECORDS = {"train_cards": "train", "phases": "phase", "markets": "market"}


def _card_fields_read(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[tuple[str, s.Member], ...]:
    """The fields read of a record of `train_cards` or `phases` in a routine, trigger or invariant: (the
    kind, the `card.field` read), where `card` is the variable of a `for` or quantifier over one of them
    and is not bound again inside it."""
    out = []
    for node in s.walk(decl):
        if isinstance(node, (s.For, s.Quantifier)) and isinstance(node.domain, s.Name) \
                and node.domain.name in _CARD_RECORDS:
            inner = list(s.walk(node.body))
            if any(isinstance(n, (s.For, s.Quantifier)) and n.var == node.var
                   or isinstance(n, s.Let) and n.name == node.var for n in inner):
                continue
            out.extend((_CARD_RECORDS[node.domain.name], n) for n in inner
                       if isinstance(n, s.Member) and isinstance(n.obj, s.Name) and n.obj.name == node.var)
    return tuple(out)


_card_fields_read = s.ByNode(_card_fields_read)


@dataclass(frozen=True)
class Atom:
    """One alternative of a type, normalised: `form` is scalar, enum, kind, list,
    map or unknown; `name` the scalar, enum or kind; `values` an enum's names;
    `elems` a list's item alternatives or a map's value alternatives; `keys` a
    map's key alternatives."""

    form: str
    name: str = ""
    values: tuple[str, ...] = ()
    elems: tuple["Atom", ...] = ()
    keys: tuple["Atom", ...] = ()


def atoms(typ: s.TypeRef, schema: Schema) -> tuple[Atom, ...]:
    """The alternatives of a declared type, normalised."""
    if typ.values:
        return (Atom("enum", "", typ.values),)
    if typ.is_list:
        return (Atom("list", elems=_flatten(typ.alternatives, schema)),)
    if typ.key is not None:
        return (Atom("map", elems=_flatten(typ.alternatives, schema), keys=atoms(typ.key, schema)),)
    return _flatten(typ.alternatives, schema)


def _flatten(alternatives, schema: Schema) -> tuple[Atom, ...]:
    out: list[Atom] = []
    for alt in alternatives:
        if isinstance(alt, s.TypeRef):
            out.extend(atoms(alt, schema))
        elif alt in SCALARS:
            out.append(Atom("scalar", alt))
        elif alt in schema.enums:
            out.append(Atom("enum", alt, schema.enums[alt]))
        elif alt in schema.kinds:
            out.append(Atom("kind", alt))
        elif alt in REFERENCES:
            out.append(Atom("ref", alt))
        else:
            out.append(Atom("unknown", alt))
    return tuple(out)


#: The types the runtime binds itself, with or without a `kind` of the library declaring them: an
#: action's field of one is read by `GameBase._bind_param` (a player, corporation, minor, private, bond
#: or company by its id, a train by its id, certificates by their ids, a route as the log's object):
#: `RUNTIME_TYPES`, defined in compiler/lang/ir.py beside the kinds a declared state's part may be.


#: The library's properties of the title whose meaning bounds their numbers: (least, most or None,
#: what it is, the literal bounded). A share of a corporation is at most its whole (100%).
TITLE_BOUNDS = {
    "players": (1, None, "a player count", s.Int),
    "float": (0, 100, "a share of a corporation", s.Percent),
    "holding_cap": (0, 100, "a share of a corporation", s.Percent),
    "pool_cap": (0, 100, "a share of a corporation", s.Percent),
    "capitalised_percent": (0, 100, "a part of a corporation's capital", s.Percent),
    "cert_limit": (1, None, "a number of certificates", s.Int),
    "bank_trains_per_turn": (1, None, "a number of trains", s.Int),
    "tokens_per_turn": (1, None, "a number of station tokens", s.Int),
    "tile_counts": (0, None, "a number of tiles", s.Int),
    "tile_lays": (0, None, "a number of tile lays", s.Int),
    "final_turns": (0, None, "a number of turns", s.Int),
    "takeover_token_swaps": (0, None, "a number of stations", s.Int),
    "takeover_train_limit_bonus": (0, None, "a number of trains", s.Int),
}
#: The same, of a component's properties (a corporation's float, a certificate's share, a train's count,
#: ...). A certificate is some part of its corporation: 0% is no certificate.
KIND_BOUNDS = {
    "float": TITLE_BOUNDS["float"],
    "holding_cap": TITLE_BOUNDS["holding_cap"],
    "percent": (1, 100, "a share of a corporation", s.Percent),
    "share": (1, 100, "a share of a corporation", s.Percent),
    "shares": (1, 100, "a share of a corporation", s.Percent),
    "count": (1, None, "a number of copies or uses", s.Int),
    "count_per_operating_round": (1, None, "a number of uses", s.Int),
    "distance": (1, None, "a number of stops", s.Int),
    "multiplier": (1, None, "a multiple of revenue", s.Int),
    "max_per_company": (1, None, "a number of trains", s.Int),
    "operating_rounds": (1, None, "a number of operating rounds", s.Int),
    "train_limit": (0, None, "a number of trains", s.Int),
    "tile_lays": TITLE_BOUNDS["tile_lays"],
    "pay": (0, None, "a number of stops", s.Int),
    "visit": (0, None, "a number of stops", s.Int),
    "price": (0, None, "a share price", s.Int),
}
#: a line of help for an out-of-bounds value of some of the properties above
_BOUNDS_HELP = {
    "players": "no game is played by fewer than one player",
    "count": "a train the bank has none of is no train of the title: leave it out, or give `variant_of` "
             "for a card's other side",
}


def _out_of_range(param: s.Param, value, name: str) -> list[Diagnostic]:
    """E020 at each number `value` holds (itself, a list's items, a map's values; not a map's keys, nor
    a record's fields, which their own kind's ranges hold) outside the range `param` declares (`param
    slots: int in 1..`: a city with no station circle)."""
    if param.bounds is None:
        return []
    low, high = param.bounds
    declared = f"in {low}..{'' if high is None else high}"
    out = []
    for node, amount, unit in _numbers(value):
        if low <= amount and (high is None or amount <= high):
            continue
        allowed = f"at least {low}{unit}" if high is None else f"from {low}{unit} to {high}{unit}"
        out.append(error(
            "E020", f"`{name}` is {allowed}, not {amount}{unit}", node.span if node.span.line else value.span,
            notes=((param.span, f"`{name}` is declared `{declared}` here"),),
            help=f"`{name}`: {param.title}" if param.title else None))
    return out


def _holds_numbers(type_: s.TypeRef) -> bool:
    """Whether a value of `type_` may hold a number `_out_of_range` reads: a number, money or a
    percentage, as itself, a list's or set's items or a map's values (not a map's keys)."""
    return any(alt in ("int", "money", "percent") if isinstance(alt, str) else _holds_numbers(alt)
               for alt in type_.alternatives)


def _numbers(value):
    """(the node, its number, "%" or "") of each number `value` holds as `_out_of_range` reads it."""
    if isinstance(value, s.Unary) and value.op == "-" and isinstance(value.operand, (s.Int, s.Money, s.Percent)):
        inner = value.operand
        yield value, -getattr(inner, "amount", getattr(inner, "value", 0)), "%" if isinstance(inner, s.Percent) else ""
    elif isinstance(value, (s.Int, s.Money, s.Percent)):
        yield value, getattr(value, "amount", getattr(value, "value", 0)), "%" if isinstance(value, s.Percent) else ""
    elif isinstance(value, s.ListLit):
        for item in value.items:
            yield from _numbers(item)
    elif isinstance(value, s.MapLit):
        for _key, item in value.entries:
            yield from _numbers(item)


def _bounded(value):
    """The numbers of a value that its property's meaning bounds (`TITLE_BOUNDS`, `KIND_BOUNDS`): itself,
    a negated literal as one, a list's or set's items, a map's values and a range's ends; not a map's keys
    nor a record's fields, which are other properties (a run part's `pay: 0` in a train's `distance`)."""
    if isinstance(value, s.Unary) and value.op == "-" and isinstance(value.operand, (s.Int, s.Money, s.Percent)):
        yield value
    elif isinstance(value, (s.Int, s.Money, s.Percent)):
        yield value
    elif isinstance(value, (s.ListLit, s.SetLit)):
        for item in value.items:
            yield from _bounded(item)
    elif isinstance(value, s.MapLit):
        for _key, item in value.entries:
            yield from _bounded(item)
    elif isinstance(value, s.Range):
        yield from _bounded(value.low)
        yield from _bounded(value.high)


def _named_nodes(name: str, value):
    """(the name of the property or record field that holds it, the node) for every node of `value`."""
    yield name, value
    if isinstance(value, s.Record):
        for field_name, item in value.fields:
            yield from _named_nodes(field_name, item)
        return
    stack = [getattr(value, f) for f in getattr(value, "__dataclass_fields__", ()) if f not in ("span", "prov")]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif getattr(item, "__dataclass_fields__", None) is not None:
            yield from _named_nodes(name, item)


def _outside_bounds(name: str, value, bounds: dict) -> list[Diagnostic]:
    """E020 for each number of `value` (`_bounded`) outside the bounds `bounds` gives `name`."""
    if name not in bounds:
        return []
    out = []
    least, most, what, literal = bounds[name]
    unit = "%" if literal is s.Percent else ""
    for node in _bounded(value):
        negated = isinstance(node, s.Unary)
        if not isinstance(node.operand if negated else node, literal):
            continue
        amount = -node.operand.value if negated else node.value
        if least <= amount and (most is None or amount <= most):
            continue
        allowed = f"at least {least}{unit}" if most is None else f"from {least}{unit} to {most}{unit}"
        out.append(error(
            "E020", f"`{name}` is {what}, {allowed}, not {amount}{unit}",
            node.span if node.span and node.span.line else value.span,
            help=_BOUNDS_HELP.get(name) or ("no corporation has more than its whole, 100%" if literal is s.Percent
                                            else f"{what} below {least} means nothing in play")))
    return out


def _unknown_types(alts: tuple[Atom, ...]) -> list[str]:
    """The names of a parameter's type that name no type (a scalar, enum, kind or `RUNTIME_TYPES`)."""
    out: list[str] = []
    for atom in alts:
        if atom.form == "unknown" and atom.name not in RUNTIME_TYPES:
            out.append(atom.name)
        out.extend(_unknown_types(atom.elems))
        out.extend(_unknown_types(atom.keys))
    return out


def describe(alts: tuple[Atom, ...]) -> str:
    """How a message names a type: 'money ($20) or `unlimited`'."""
    parts = []
    for atom in alts:
        if atom.form == "scalar":
            parts.append(SCALARS[atom.name])
        elif atom.form == "enum":
            if len(atom.values) == 1:
                parts.append(f"`{atom.values[0]}`")
            else:
                label = f"{atom.name} " if atom.name else ""
                parts.append(f"one of {label}({', '.join(atom.values)})")
        elif atom.form == "kind":
            parts.append(f"a {atom.name}")
        elif atom.form == "ref":
            parts.append(REFERENCES[atom.name])
        elif atom.form == "list":
            parts.append(f"a list of {describe(atom.elems)}")
        elif atom.form == "map":
            parts.append(f"a map from {describe(atom.keys)} to {describe(atom.elems)}")
        else:
            parts.append(f"`{atom.name}`")
    return " or ".join(parts) or "nothing"


def _fits(expr, atom: Atom) -> bool:
    """Whether a value has the shape of one alternative (its parts unchecked)."""
    if atom.form == "scalar":
        name = atom.name
        if name == "int":
            return isinstance(expr, s.Int) or (isinstance(expr, s.Unary) and isinstance(expr.operand, s.Int))
        if name == "money":
            return isinstance(expr, s.Money) or (isinstance(expr, s.Unary) and isinstance(expr.operand, s.Money))
        if name == "colour_code":
            return isinstance(expr, s.Str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", expr.value) is not None
        return isinstance(expr, {
            "percent": s.Percent, "bool": s.Bool, "string": s.Str, "name": s.Name, "range": s.Range,
            "none": s.NoneLit, "parameters": s.Record,
        }.get(name, ()))
    if atom.form == "enum":
        # a name, or a string that is one of the values ("brown" as a map's key)
        return isinstance(expr, s.Name) or (isinstance(expr, s.Str) and expr.value in atom.values)
    if atom.form == "kind":
        if isinstance(expr, s.Call):
            return isinstance(expr.func, s.Name) and expr.func.name == atom.name
        return isinstance(expr, (s.Name, s.Str, s.Int, s.Record))
    if atom.form == "ref":
        return isinstance(expr, (s.Name, s.Str))
    if atom.form == "list":
        return isinstance(expr, (s.ListLit, s.SetLit))
    if atom.form == "map":
        return isinstance(expr, s.MapLit)
    return False


def _path_end(value) -> list[Diagnostic]:
    """E020 for a path's end written as an edge outside 0-5 (`(a: 0, b: 9)`): the runtime's tile reader
    refused the whole map ("edge 9 is not 0-5"), and play said only that the title's data could not be
    read, "a rulec bug to report"."""
    negated = isinstance(value, s.Unary) and value.op == "-" and isinstance(value.operand, s.Int)
    if not (negated or isinstance(value, s.Int)):
        return []
    edge = -value.operand.value if negated else value.value
    if 0 <= edge <= 5:
        return []
    return [error("E020", f"a path's end is an edge from 0 to 5 or a node (n0, n1, ...), not {edge}", value.span,
                  help="a hex has six edges, numbered 0 to 5 round from its first (the layout says where that is)")]


def _path_nodes(comp: s.Component) -> list[Diagnostic]:
    """E022 for a path of a hex or tile whose end names a node it does not have (`n2` where it has two
    nodes, n0 and n1): the runtime's tile reader refused the map, as for an edge outside 0-5."""
    nodes = comp.get("nodes")
    paths = comp.get("paths")
    if nodes is None or paths is None or not isinstance(nodes.value, s.ListLit) \
            or not isinstance(paths.value, s.ListLit):
        return []
    count = len(nodes.value.items)
    out = []
    for path in paths.value.items:
        if not isinstance(path, s.Record):
            continue
        for name, end in path.fields:
            if name in ("a", "b") and isinstance(end, s.Name) and re.fullmatch(r"n\d+", end.name) \
                    and int(end.name[1:]) >= count:
                has = "no node" if not count else "one node, n0" if count == 1 else f"{count} nodes, n0 to n{count - 1}"
                out.append(error(
                    "E022", f"`{end.name}` names a node {comp.kind} {comp.key or ''} does not have: it has {has}",
                    end.span, help="a path's node end names one of the `nodes` listed, from n0"))
    return out


def key_of(expr) -> str | None:
    """The key a reference is written as: a name, a string, a number (`B&O`, `"B&O"`, `4`)."""
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, s.Str):
        return expr.value
    if isinstance(expr, s.Int):
        return str(expr.value)
    return None


def _name_span(span: Span, name: str) -> Span:
    """The span of a property's name, at the start of the property."""
    return Span(span.path, span.line, span.column, span.line, span.column + len(name))


#: the findings of components already checked: (id(component), schema fingerprint) ->
#: (the component, the schema objects of the fingerprint, its diagnostics)
_COMPONENTS: OrderedDict[tuple, tuple] = OrderedDict()
_COMPONENTS_KEPT = 60_000
#: schema fingerprint -> (its serial number, the objects it names, kept alive)
_FINGERPRINTS: dict[tuple, tuple[int, tuple]] = {}
#: the findings of the schema's own declarations (`Checker._check_schema`), by the serial number of
#: its fingerprint: they read only what the fingerprint names, as a component's check does
_SCHEMA_FINDINGS: dict[int, tuple[Diagnostic, ...]] = {}


#: the quantifiers' words (`grammar/rulespec.lark`, QUANTIFIER): a call of a routine of one of these names
#: parses as the quantifier
QUANTIFIERS = frozenset({"all", "any", "sum", "count", "filter", "greatest", "least"})


class Checker(ExpressionTypes, EnumValuesRead):
    """Checks one resolved title's values against its schema."""

    def __init__(self, title: Title, schema: Schema | None = None):
        self.title = title
        self.schema = schema or schema_of(title)
        self.out: list[Diagnostic] = []
        self._atoms: dict[int, tuple[Atom, ...]] = {}
        self._fp: tuple | None = None
        self._fp_serial: int | None = None
        self._kept: tuple = ()

    # -- entry
    def run(self) -> list[Diagnostic]:
        self._check_schema()
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Property):
                self._title_property(decl)
            elif isinstance(decl, s.Table):
                self._table(decl)
            elif isinstance(decl, s.Component):
                self._cached_component(decl)
        self._required_params()
        self._matches()
        self._arities()
        self._routine_params()
        self._recursion()
        self._trigger_events()
        self._divisions()
        self._states()
        self._expression_types()
        self._money_and_arithmetic()
        self._card_fields()
        self._nesting()
        self._loop_locals()
        self._enum_values_read_as_names()
        return self.out

    def _card_fields(self) -> None:
        """E024 for a field read of a record of `train_cards` or `phases` (`card.rusts`) that the kind of
        the cards does not declare: a record has its `key` and every parameter of its kind
        (`Title.card_fields`), a phase also its `number` (its place from 1, as `phase_number` counts:
        `GameBase.card_records`, `Translator.card_records`), and the engine stopped in play on a KeyError."""
        fields: dict[str, list[str]] = {}
        for clause in self.title.clauses:
            if not isinstance(clause.decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            for kind, member in _card_fields_read(clause.decl):
                if kind not in fields:
                    implicit = ["key", "number"] if kind == "phase" else ["key"]
                    fields[kind] = [*implicit, *(name for name, _ in self.title.card_fields(kind))]
                if member.name in fields[kind]:
                    continue
                suggestions = nearest(member.name, fields[kind])
                self.out.append(error(
                    "E024", f"a record of {'the train cards' if kind == 'train' else 'the phases'} has no field "
                            f"`{member.name}`" + did_you_mean(suggestions),
                    member.span, help=f"its fields: the key{', its number' if kind == 'phase' else ''} and what kind {kind} "
                         f"declares: {listing(fields[kind])}",
                    suggestions=tuple(suggestions)))

    # -- a routine's parameters
    def _routine_params(self) -> None:
        """E011 for a routine that names a parameter twice: the engine's function would not compile
        (a Python SyntaxError, or the emitter's "unknown name" for the other's uses). E029 for a parameter
        whose type names no type: no scalar, enum or kind of the title and none of the runtime's own
        (`RUNTIME_TYPES`); the engine would bind an action's field of that type as the raw string of the log."""
        known: list[str] | None = None
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.StateDecl) and decl.name in QUANTIFIERS:
                # a state is read `NAME(args)` as a routine is called: that parses as the quantifier too
                self.out.append(error(
                    "E011", f"`{decl.name}` is a quantifier of the DSL (`{decl.name}(x in LIST: EXPR)`): "
                            f"a state of that name could not be read", decl.span, help="give the state another name"))
            if not isinstance(decl, s.Routine):
                continue
            if decl.name in QUANTIFIERS:
                self.out.append(error(
                    "E011", f"`{decl.name}` is a quantifier of the DSL (`{decl.name}(x in LIST: EXPR)`): "
                            f"a {decl.kind} of that name could not be called",
                    decl.span, help=f"give the {decl.kind} another name"))
            seen: set[str] = set()
            for param in decl.params:
                unknown = _unknown_types(atoms(param.type, self.schema))
                if unknown:
                    if known is None:
                        known = sorted({*SCALARS, *RUNTIME_TYPES, *self.schema.enums, *self.schema.kinds}
                                       - {"range", "colour_code", "table", "parameters"})
                    name = unknown[0]
                    self.out.append(error(
                        "E029", f"`{param.name}` of {decl.kind} {decl.name} is typed `{name}`, which names no type"
                                + did_you_mean(nearest(name, known)),
                        param.type.span if param.type.span and param.type.span.line else param.span,
                        help="the types: " + listing(known, limit=len(known)) + " (and list[TYPE] of them)",
                        suggestions=tuple(nearest(name, known))))
                if param.name in seen:
                    self.out.append(error(
                        "E011", f"{decl.kind} `{decl.name}` names the parameter `{param.name}` twice",
                        param.span if param.span.line else decl.span,
                        help="give each parameter its own name"))
                seen.add(param.name)

    # -- the events triggers wait for
    def _trigger_events(self) -> None:
        """E015 for a trigger of the title (not the library's) on an event nothing raises: not the runtime
        (`RUNTIME_EVENTS`), not a phase or train of the title (its `events`), not a rule (`emit`). The
        trigger would never fire: a misspelt event (`operating_round_strat`) silently takes the rule out
        of play. And E015 for an `emit` of the title no trigger is on: it would start nothing."""
        from compiler.lang.ir import statements
        from compiler.runtime.vocabulary import RUNTIME_EVENTS

        awaited = {clause.decl.event.name for clause in self.title.clauses if isinstance(clause.decl, s.Trigger)}
        # the most values a trigger on each event binds (`on zork(a, b)`: two): an `emit zork(P)` giving fewer
        # stopped play on a TypeError in the trigger's call
        binds: dict[str, tuple[int, s.Trigger]] = {}
        for clause in self.title.clauses:
            if isinstance(clause.decl, s.Trigger):
                n = sum(isinstance(a, s.Name) for a in clause.decl.event.args)
                if n > binds.get(clause.decl.event.name, (0, None))[0]:
                    binds[clause.decl.event.name] = (n, clause.decl)
        for clause in self.title.clauses:
            if isinstance(clause.decl, (s.Routine, s.Trigger)):
                for st in statements(clause.decl.body):
                    if isinstance(st, s.Emit) and st.event in binds and len(st.args) < binds[st.event][0]:
                        n, trigger = binds[st.event]
                        self.out.append(error(
                            "E036", f"`emit {st.event}` gives {len(st.args)} value{'s' if len(st.args) != 1 else ''}; "
                                    f"trigger {trigger.name} on `{st.event}` binds {n}",
                            st.span, help=f"trigger {trigger.name} is declared at {trigger.span.path}:{trigger.span.line}"))
        # an event a rule of the title raises that no trigger waits for: the rule it was to start is absent
        for clause in self.title.clauses:
            if isinstance(clause.decl, (s.Routine, s.Trigger)) and clause.origin.kind != "library":
                for st in statements(clause.decl.body):
                    if isinstance(st, s.Emit) and st.event not in awaited:
                        self.out.append(error(
                            "E015", f"no trigger is on `{st.event}`: this `emit` starts nothing"
                                    + did_you_mean(nearest(st.event, sorted(awaited))),
                            st.span, help="write `trigger NAME on EVENT { ... }` for it, or emit an event a trigger is on"))
        # `on phase_start("9")` in a title with no phase "9": the filter is never met, the rule never runs
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Trigger) and decl.event.name == "phase_start" and decl.event.args \
                    and isinstance(decl.event.args[0], (s.Str, s.Int)):
                arg = decl.event.args[0]
                self._reference(str(arg.value), "phase", arg.span or decl.span)
        # the library's triggers wait for events some titles raise and others do not (close_privates)
        triggers = [clause.decl for clause in self.title.clauses
                    if isinstance(clause.decl, s.Trigger) and clause.origin.kind != "library"]
        if not triggers:
            return
        known = set(RUNTIME_EVENTS)

        def named(component: s.Component) -> None:
            for prop in component.properties:
                if prop.name == "events" and isinstance(prop.value, (s.ListLit, s.SetLit)):
                    known.update(item.name if isinstance(item, s.Name) else item.value for item in prop.value.items
                                 if isinstance(item, (s.Name, s.Str)))
            for child in component.children:
                named(child)

        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Component):
                named(decl)
            elif isinstance(decl, (s.Routine, s.Trigger)):
                known.update(st.event for st in statements(decl.body) if isinstance(st, s.Emit))
        for trigger in triggers:
            event = trigger.event.name
            if event not in known:
                self.out.append(error(
                    "E015", f"trigger {trigger.name} is on no event `{event}`: nothing raises it"
                            + did_you_mean(nearest(event, sorted(known))),
                    trigger.event.span if trigger.event.span and trigger.event.span.line else trigger.span,
                    help="the runtime raises " + listing(list(RUNTIME_EVENTS), limit=len(RUNTIME_EVENTS))
                         + "; a phase or train raises the events it names (`events: [...]`), a rule those it `emit`s"))

    # -- a division by a written zero
    def _divisions(self) -> None:
        """E020 for `x / 0` or `x mod 0` written so in a rule: the engine would stop on a
        ZeroDivisionError wherever play reaches it."""
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            for node in _divisions(decl):
                self.out.append(error("E020", f"a division by zero (`{node.op} 0`)", node.right.span or node.span,
                                      help="divide by a number that cannot be 0"))

    # -- routines that call themselves
    def _recursion(self) -> None:
        """E013 for a procedure or function that calls itself, directly or through others: the engine
        would recurse until Python's stack gives out (a RecursionError in play) and the z3 translation,
        which unfolds each call, would not end. One finding per cycle, at the call of its first routine
        (in the title's order) that enters it. (A call naming an action calls the builtin of that name:
        `do move_bid(...)` in 18CO's action move_bid.)"""
        routines = {clause.decl.name: clause.decl for clause in self.title.clauses
                    if isinstance(clause.decl, s.Routine) and clause.decl.kind in ("procedure", "function")}
        calls: dict[str, list[s.Call]] = {}
        for name, decl in routines.items():
            own = {p.name for p in decl.params}
            calls[name] = [node for node in _named_calls(decl)
                           if node.func.name in routines and node.func.name not in own]
        reported: set[str] = set()
        for name in routines:
            if name in reported:
                continue
            path = self._cycle(name, calls)
            if path is None:
                continue
            reported.update(path)
            first = next(node for node in calls[name] if node.func.name == (path[1] if len(path) > 1 else name))
            kind = routines[name].kind
            through = f" through {', '.join(f'`{n}`' for n in path[1:])}" if len(path) > 1 else ""
            self.out.append(error(
                "E013", f"{kind} `{name}` calls itself{through}: " + " -> ".join(path + [name]),
                first.span,
                help="a rule repeats by a `for` over what it repeats for; the engine and the z3 model unfold "
                     "every call, so none may come back to its caller"))

    @staticmethod
    def _cycle(start: str, calls: dict[str, list[s.Call]]) -> list[str] | None:
        """The shortest chain of routines from `start` back to itself (`start` first), or None."""
        seen = {start}
        queue: list[list[str]] = [[start]]
        while queue:
            path = queue.pop(0)
            for node in calls[path[-1]]:
                callee = node.func.name
                if callee == start:
                    return path
                if callee not in seen:
                    seen.add(callee)
                    queue.append(path + [callee])
        return None

    # -- declared states
    def _states(self) -> None:
        """E037 for a declared state that is not a set of entities (a `company`: a corporation, a minor or a
        private), components of a kind of the title (`state_part_keys`: an ability card, an effect, a train type) or
        values of the title's enums (or of tuples of them), one whose `reset on` names a moment (or one of its
        moments) the runtime does not empty states at, a read or a `set` of one with another number of arguments
        than its elements have parts, an enum part given a literal that is no value of its enum, a component
        part given a key that is no component of its kind, and a corporation part given a parameter that may
        only be a minor (the z3 model's elements are the corporations): the engine and the z3 model both need
        the elements' kinds and the moment."""
        from compiler.runtime.vocabulary import STATE_RESETS

        kinds = STATE_ENTITY_KINDS
        enums = {clause.decl.name: clause.decl.values for clause in self.title.clauses if isinstance(clause.decl, s.Enum)}
        constants = {v for values in enums.values() for v in values}
        # the other component kinds of the title (a card, a mine, an effect): a part of such a kind is one of
        # the title's components of that kind, named by its key
        components = state_part_keys(self.title)  # (and `train`: a train type by its card's key)
        keyed = {clause.decl.key for clause in self.title.clauses if isinstance(clause.decl, s.Component)}
        states = {clause.decl.name: clause.decl for clause in self.title.clauses if isinstance(clause.decl, s.StateDecl)}
        from compiler.lang import liststates

        for decl in states.values():
            self.out.extend(liststates.check_declaration(decl, enums))
            if decl.is_flag and decl.type.key is not None:
                # `map[player, bool]` read as the flag `bool` is (one truth value), its key dropped
                self.out.append(error(
                    "E037", f"state `{decl.name}` is `{decl.type}`: a map of a state holds amounts (int or money); "
                            "a truth value per element is a set (an element in it is true)",
                    decl.type.span or decl.span,
                    help=f"write set[{decl.type.key}] (`set {decl.name}(...) = true` puts an element in it)"))
                continue
            single = decl.is_flag or (decl.is_amount and decl.type.key is None)  # bool, int, money: one value
            unknown = [k for k in decl.element if k not in kinds and k not in enums and k not in components]
            if not single and not decl.is_list and (not decl.element or unknown):
                wrong = unknown[0] if unknown else None
                self.out.append(error(
                    "E037", f"state `{decl.name}` is `{decl.type}`: a state is a set of "
                            + ", ".join(kinds) + ", components of a kind of the title or values of an enum of the "
                            "title, or of tuples of them, or a bool, or an amount (int or money), one or per such element"
                            + (f"; `{wrong}` is none of these"
                               + did_you_mean(nearest(wrong, [*kinds, *enums, *components])) if wrong else ""),
                    decl.type.span or decl.span,
                    help="write set[corporation], set[(player, corporation)], set[company], set[ENUM], set[KIND] "
                         "(a kind with components: " + listing(sorted(components)) + "), bool, int or map[player, money]"))
            for moment in decl.reset_on:
                if moment not in STATE_RESETS:
                    self.out.append(error(
                        "E037", f"the runtime empties no state at `{moment}`"
                                + did_you_mean(nearest(moment, list(STATE_RESETS))),
                        decl.span, help="its moments: " + listing(list(STATE_RESETS))
                                        + " (no `reset`: the state lasts the game)"))
        if not states:
            return
        self.out.extend(liststates.check_uses(self.title, states, enums))
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            shadowed = {p.name for p in decl.params} if isinstance(decl, s.Routine) else set()
            typed = typed_params(decl)
            for node in _named_calls(decl):
                if not (node.func.name in states and node.func.name not in shadowed) or states[node.func.name].is_list:
                    continue
                state = states[node.func.name]
                if len(node.args) != len(state.element) or node.kwargs:
                    self.out.append(error(
                        "E037", f"state `{state.name}` is {state.type}: name {len(state.element)} "
                                f"part{'s' if len(state.element) != 1 else ''} ({', '.join(state.element)}); "
                                f"this gives {len(node.args) + len(node.kwargs)}",
                        node.span, help=f"state {state.name} is declared at {state.span.path}:{state.span.line}"))
                    continue
                for kind, arg in zip(state.element, node.args):
                    if kind == "corporation" and isinstance(arg, s.Name) and arg.name in typed \
                            and "minor" in typed[arg.name] and "corporation" not in typed[arg.name]:
                        # a minor in a part of corporations: the engine keeps it, the z3 model (whose elements
                        # are the corporations) would read it as in no element
                        self.out.append(error(
                            "E037", f"state `{state.name}` is {state.type}: its part is a corporation, whose elements "
                                    f"are the corporations; `{arg.name}` is the parameter `{arg.name}: "
                                    f"{' | '.join(sorted(typed[arg.name]))}`, which a minor may be",
                            arg.span or node.span,
                            help=f"declare the part `company` (a corporation, a minor or a private): state "
                                 f"{state.name} is declared at {state.span.path}:{state.span.line}"))
                        continue
                    if kind in components and not (isinstance(arg, s.Name) and arg.name in typed):
                        # a component named by its key (a string, or the bare key of a component): one of that kind
                        key = arg.value if isinstance(arg, s.Str) else (
                            arg.name if isinstance(arg, s.Name) and arg.name not in shadowed
                            and arg.name in keyed else None)
                        if key is not None and key not in components[kind]:
                            self.out.append(error(
                                "E037", f"`{key}` is no {kind} of the title, the part of state `{state.name}`"
                                        + did_you_mean(nearest(key, list(components[kind]))),
                                arg.span or node.span, help=f"the title's {kind} components: "
                                                            f"{listing(list(components[kind]))}"))
                        continue
                    if isinstance(arg, s.Name) and arg.name in typed and not kinds_meet(typed[arg.name], {kind}):
                        self.out.append(error(
                            "E037", f"state `{state.name}` is {state.type}: its part is a {kind}; `{arg.name}` is "
                                    f"the parameter `{arg.name}: {' | '.join(sorted(typed[arg.name]))}`",
                            arg.span or node.span,
                            help=f"state {state.name} is declared at {state.span.path}:{state.span.line}"))
                        continue
                    if kind not in enums:
                        continue
                    # a literal of an enum part: a string, or a bare name that is another enum's value
                    value = arg.value if isinstance(arg, s.Str) else (
                        arg.name if isinstance(arg, s.Name) and arg.name in constants and arg.name not in shadowed
                        else None)
                    if value is not None and value not in enums[kind]:
                        self.out.append(error(
                            "E037", f"`{value}` is no value of enum {kind}, the part of state `{state.name}`"
                                    + did_you_mean(nearest(value, list(enums[kind]))),
                            arg.span or node.span, help=f"its values: {listing(list(enums[kind]))}"))

    # -- calls of the title's procedures and functions
    def _arities(self) -> None:
        """E036 for a call of a procedure or function of the title (its library's among them) with more
        arguments than it has parameters, or without one it requires: the engine would fail at play and
        the z3 translation refuse it; and for a builtin (`GameBase`'s `b_` method) called with fewer or more
        arguments than the method takes, or a keyword it does not take, which the engine would meet as a
        TypeError in play."""
        from compiler.lang.builtins import signatures

        routines = {clause.decl.name: clause.decl for clause in self.title.clauses
                    if isinstance(clause.decl, s.Routine) and clause.decl.kind in ("procedure", "function")}
        # a call naming an action is the builtin of that name (actions are not called), as the emitter lowers it
        others = {clause.decl.name for clause in self.title.clauses if isinstance(clause.decl, s.StateDecl)}
        clauses = {clause.name: clause.kind for clause in self.title.clauses}
        builtins = None
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            done = {id(st.call) for st in s.walk(decl) if isinstance(st, s.Do)}
            typed = None
            for node in _named_calls(decl):
                callee = routines.get(node.func.name)
                if callee is not None and callee.kind == "procedure" and id(node) not in done:
                    # `function f(P) = pay(P)`, `require pay(P)`: a procedure acts and gives no value; the
                    # engine ran its transfers where a value was read, and the z3 model had no value for it
                    self.out.append(error(
                        "E036", f"`{callee.name}` is a procedure: it acts and gives no value; call it as a "
                                f"statement, `do {callee.name}(...)`",
                        node.span, help=f"procedure {callee.name} is declared at {callee.span.path}:{callee.span.line}; "
                                        "a value is a `function`'s"))
                elif callee is not None and callee.kind == "function" and id(node) in done:
                    # `do ready(P)`: the engine computed the value and dropped it; the rule did nothing
                    self.out.append(error(
                        "E036", f"`{callee.name}` is a function: it gives a value and does nothing, so "
                                f"`do {callee.name}(...)` has no effect",
                        node.span, help=f"function {callee.name} is declared at {callee.span.path}:{callee.span.line}; "
                                        "`do` runs a procedure; a value is read in a `require`, `if`, `let` or `set`"))
                if node.func.name not in routines:
                    if node.func.name not in others:
                        builtins = signatures() if builtins is None else builtins
                        self._builtin_arity(node, builtins.get(node.func.name), clauses.get(node.func.name))
                    continue
                callee = routines[node.func.name]
                names = [p.name for p in callee.params]
                given = set(names[:len(node.args)]) | {k for k, _ in node.kwargs}
                unknown = [k for k, _ in node.kwargs if k not in names]
                missing = [p.name for p in callee.params if p.name not in given and p.default is None]
                if len(node.args) <= len(names) and not unknown and not missing:
                    typed = typed_params(decl) if typed is None else typed
                    self._argument_types(node, callee, typed)
                    continue
                wanted = ", ".join(names) or "no arguments"
                given_n = len(node.args) + len(node.kwargs)
                self.out.append(error(
                    "E036", f"`{callee.name}` takes {len(names)} argument{'s' if len(names) != 1 else ''} "
                            f"({wanted}); this call gives {given_n}"
                            + (f", naming {', '.join(f'`{k}`' for k in unknown)}" if unknown else "")
                            + (f", without {', '.join(f'`{k}`' for k in missing)}" if missing else ""),
                    node.span,
                    help=f"{callee.kind} {callee.name} is declared at {callee.span.path}:{callee.span.line}",
                ))

    def _argument_types(self, node: s.Call, callee: s.Routine, typed: dict[str, frozenset[str]]) -> None:
        """E036 for a literal argument certainly not of its parameter's type: a number, money, a string or a
        list given to a component (`do give(5, player)`), true or false, a string or a collection given to
        an amount, a number, a string or a collection given to a flag. The engine would bind it as it is and
        stop in play (an AttributeError on the number taken for a corporation). Names and calls, whose types
        the checker does not know, are left alone."""
        params = {p.name: p for p in callee.params}
        pairs = list(zip(callee.params, node.args)) + [(params[k], v) for k, v in node.kwargs if k in params]
        for param, arg in pairs:
            type_ = param.type
            if type_.is_list or type_.is_set or type_.key is not None or type_.parts or type_.values \
                    or not type_.alternatives or not all(isinstance(a, str) for a in type_.alternatives):
                continue
            kinds = set(type_.alternatives)
            if kinds in ({"phase"}, {"train"}) and isinstance(arg, (s.Str, s.Int)):
                # a phase or a train type named by its key (`phase_at_least("4")`, `rust_trains("2")`, library
                # routines): one the title has
                self._reference(str(arg.value), next(iter(kinds)), arg.span or node.span)
                continue
            if isinstance(arg, s.Name) and arg.name in typed and kinds <= _COMPONENT_TYPES:
                # the caller's own parameter, typed another kind (`do float_it(P)` with `P: player`)
                if not kinds_meet(typed[arg.name], kinds):
                    self.out.append(error(
                        "E036", f"`{callee.name}`'s parameter `{param.name}` is {type_}; this call gives it the "
                                f"parameter `{arg.name}: {' | '.join(sorted(typed[arg.name]))}`",
                        arg.span or node.span,
                        help=f"{callee.kind} {callee.name} is declared at {callee.span.path}:{callee.span.line}"))
                continue
            what = _certain_type(arg, {})
            if what is None:
                continue
            if kinds <= _COMPONENT_TYPES:
                wrong = what in ("a number", "money", "a percentage", "a string", "true or false", "a list",
                                 "a map", "a range")
            elif kinds <= {"int", "money", "percent"}:
                wrong = what in ("a string", "true or false", "a list", "a map", "a range")
            elif kinds == {"bool"}:
                wrong = what in ("a number", "money", "a percentage", "a string", "a list", "a map", "a range")
            else:
                wrong = False
            if wrong:
                self.out.append(error(
                    "E036", f"`{callee.name}`'s parameter `{param.name}` is {type_}; this call gives it {what}",
                    arg.span or node.span,
                    help=f"{callee.kind} {callee.name} is declared at {callee.span.path}:{callee.span.line}"))

    def _builtin_arity(self, node: s.Call, signature: list | None, clause_kind: str | None) -> None:
        """E036 for a call of a builtin with another number of arguments than it takes, or a keyword it
        does not take (`signature`: `compiler.lang.builtins.signatures`'s; None for no builtin). E015 for
        a call naming a clause of the title that is no procedure or function (an action, a property)
        and no builtin: the engine would call a builtin that does not exist. (A name that is nothing
        at all is the resolver's E015.)"""
        if signature is None:
            from compiler.lang.builtins import VALUES

            if clause_kind is not None:
                self.out.append(error(
                    "E015", f"`{node.func.name}` is {'an' if clause_kind[0] in 'aeiou' else 'a'} {clause_kind}, "
                            "not a procedure, function or builtin: it cannot be called",
                    node.span, help="a rule calls procedures, functions and builtins; an action is taken by a "
                                    "player or company, not called (write the shared part as a procedure)"))
            elif node.func.name in VALUES:
                # `train_cards(1)`, `depot()`: the engine called a `b_` method that does not exist (AttributeError)
                self.out.append(error(
                    "E015", f"`{node.func.name}` is a value of the runtime "
                            f"({VALUES[node.func.name].split(': ')[0].split(' (')[0]}), "
                            "not a function: it cannot be called",
                    node.span, help=f"write `{node.func.name}` without parentheses"
                                    + (f"; an element is `{node.func.name}[i]`" if node.func.name.endswith("s") else "")))
            return
        least, most, keywords = signature
        unknown = [k for k, _ in node.kwargs if keywords is not None and k not in keywords]
        given = len(node.args)
        if least <= given + len(node.kwargs) and (most is None or given <= most) and not unknown:
            kind = _BUILTIN_KEYS.get(node.func.name)
            if kind is not None and node.args and isinstance(node.args[0], (s.Str, s.Int)):
                # `rust_trains("9")` rusted nothing, `enter_phase("Z")` stopped play on a RuleGap
                self._reference(str(node.args[0].value), kind, node.args[0].span or node.span)
            return
        if most is None:
            takes = f"at least {least} argument{'s' if least != 1 else ''}"
        elif least == most:
            takes = f"{least} argument{'s' if least != 1 else ''}"
        else:
            takes = f"{least} to {most} arguments"
        self.out.append(error(
            "E036", f"the builtin `{node.func.name}` takes {takes}; this call gives {given + len(node.kwargs)}"
                    + (f", naming {', '.join(f'`{k}`' for k in unknown)}" if unknown else ""),
            node.span, help=_builtin_help(node.func.name, keywords)))

    # -- `match` over an enum value
    def _matches(self) -> None:
        """E034 for a `match` whose subject is not an enum value (a parameter of the title or of the
        routine, typed by enums and `none`), or a case naming no value of it, or one named twice;
        E035 for a value with no case where the match has no `else`. So one case always runs: the
        engine's and the z3 model's lowering never reaches its `fail`."""
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            matches, typed, lets = _match_sites(decl)
            for node in matches:
                self._match(node, typed, lets)

    def _match(self, st: s.Match | s.MatchExpr, typed: dict[str, s.TypeRef], lets: set[str]) -> None:
        subject = st.subject
        alts: tuple[Atom, ...] = ()
        if isinstance(subject, s.Name) and subject.name not in lets:
            if subject.name in typed:
                alts = atoms(typed[subject.name], self.schema)
            elif subject.name in self.schema.params:
                alts = self.type_of(self.schema.params[subject.name])
        values: list[str] = []
        enum = bool(alts) and all(a.form == "enum" or (a.form == "scalar" and a.name == "none") for a in alts)
        for atom in alts if enum else ():
            for value in (atom.values if atom.form == "enum" else ("none",)):
                if value not in values:
                    values.append(value)
        if not enum:
            self.out.append(error(
                "E034", "`match` chooses by an enum value: a parameter of the title or of the routine whose "
                        "type is an enum" + (f" (`{subject.name}` is {describe(alts)})" if alts else ""),
                subject.span,
                help="write `if` for a test that is not of an enum value",
            ))
            return
        seen: set[str] = set()
        for i, (case_values, _) in enumerate(st.cases):
            spans = st.value_spans[i] if i < len(st.value_spans) else ()
            for j, value in enumerate(case_values):
                span = spans[j] if j < len(spans) else st.span
                if value not in values:
                    self.out.append(error(
                        "E034", f"`{value}` is no value of `{subject.name}`" + did_you_mean(nearest(value, values)),
                        span, help="its values: " + listing(values),
                    ))
                elif value in seen:
                    self.out.append(error("E034", f"`{value}` has two cases in this match", span))
                seen.add(value)
        missing = [v for v in values if v not in seen]
        if missing and st.orelse is None:
            self.out.append(error(
                "E035", f"this match over `{subject.name}` has no case for " + ", ".join(f"`{v}`" for v in missing),
                subject.span, help="add a case for each, or an `else` for the rest",
            ))

    def _cached_component(self, comp: s.Component) -> None:
        """`_component`, remembered: a component's findings depend only on it and on
        the schema (the same library tile is checked once for every title that has
        the same schema, and once for all the edits of a title's other clauses)."""
        key = (id(comp), self._serial())
        found = _COMPONENTS.get(key)
        if found is not None and found[0] is comp:
            _COMPONENTS.move_to_end(key)
            self.out.extend(found[2])
            return
        start = len(self.out)
        self._component(comp)
        _COMPONENTS[key] = (comp, self._kept, tuple(self.out[start:]))
        if len(_COMPONENTS) > _COMPONENTS_KEPT:
            _COMPONENTS.popitem(last=False)

    def _serial(self) -> int:
        """The fingerprint's serial number (a big tuple is hashed once per title, not per component)."""
        if self._fp_serial is None:
            fp = self._fingerprint()
            entry = _FINGERPRINTS.get(fp)
            if entry is None and len(_FINGERPRINTS) >= 10_000:
                _FINGERPRINTS.clear()
                _COMPONENTS.clear()
                _SCHEMA_FINDINGS.clear()  # their serial numbers are given again
            if entry is None:
                entry = _FINGERPRINTS[fp] = (len(_FINGERPRINTS), self._kept)
            self._fp_serial = entry[0]
        return self._fp_serial

    def _fingerprint(self) -> tuple:
        """What a component's check reads of the schema, by identity (the objects are
        kept alive with the cached result, so an identity is never reused for another)."""
        if self._fp is None:
            schema = self.schema
            params = tuple(schema.params.values())
            kinds = tuple((k.name, tuple(k.params.values())) for k in schema.kinds.values())
            conditions = tuple(
                (name, schema.values.get(name))
                for kind in schema.kinds.values() for p in kind.params.values() if p.required_when is not None
                for name in sorted({n.name for n in s.walk(p.required_when) if isinstance(n, s.Name)})
            )
            self._kept = (params, kinds, conditions)
            self._fp = (
                tuple(map(id, params)),
                tuple((name, tuple(map(id, ps))) for name, ps in kinds),
                tuple(sorted(schema.enums.items())),
                tuple(sorted((k, tuple(sorted(v))) for k, v in schema.keys.items())),
                tuple((name, id(value)) for name, value in conditions),
            )
        return self._fp

    def type_of(self, param: s.Param) -> tuple[Atom, ...]:
        found = self._atoms.get(id(param))
        if found is None:
            found = self._atoms[id(param)] = atoms(param.type, self.schema)
        return found

    # -- the schema itself
    def _check_schema(self) -> None:
        """`_check_schema_now`, remembered for the schema's fingerprint (the library's declarations
        are the same objects in every title)."""
        serial = self._serial()
        found = _SCHEMA_FINDINGS.get(serial)
        if found is None:
            start = len(self.out)
            self._check_schema_now()
            found = _SCHEMA_FINDINGS[serial] = tuple(self.out[start:])
        else:
            self.out.extend(found)

    def _check_schema_now(self) -> None:
        params = list(self.schema.params.values())
        for kind in self.schema.kinds.values():
            params.extend(kind.params.values())
        for param in params:
            unknown = self._unknown_atoms(self.type_of(param))
            for name in unknown:
                known = list(SCALARS) + list(REFERENCES) + list(self.schema.enums) + list(self.schema.kinds)
                self.out.append(error(
                    "E029", f"the type of `{param.name}` names `{name}`, which is no type, enum or kind"
                    + did_you_mean(nearest(name, known)), param.type.span or param.span,
                    help="a type is a scalar (" + ", ".join(SCALARS) + "), a name of "
                         + ", ".join(REFERENCES) + ", an enum, a kind, `{a, b}`, `list[T]` or `map[K, V]`",
                ))
            empty = self._empty_range(param)
            if param.default is not None and not unknown:
                if self._value(param.default, self.type_of(param), report=False):
                    self.out.append(error(
                        "E029", f"the default of `{param.name}` is {shape(param.default)}, "
                        f"not {describe(self.type_of(param))}", param.default.span,
                    ))
                elif not empty:
                    self.out.extend(_out_of_range(param, param.default, param.name))

    def _empty_range(self, param: s.Param) -> bool:
        """E029 for a declared range that holds no number (`in 5..1`), or on a type that holds none (a
        string, an enum, a map of strings): no value could be checked against it. True where so."""
        if param.bounds is None:
            return False
        low, high = param.bounds
        declared = f"in {low}..{'' if high is None else high}"
        at = param.bounds_span or param.span
        if high is not None and high < low:
            self.out.append(error(
                "E029", f"`{param.name}` is declared `{declared}`, which holds no number", at,
                help=f"the least first: `in {high}..{low}`"))
            return True
        if not _holds_numbers(param.type):
            self.out.append(error(
                "E029", f"`{param.name}` is declared `{declared}`, but its type `{param.type}` holds no number", at,
                help="a range bounds a number, money or a percentage: the value itself, a list's items, a map's values"))
            return True
        return False

    def _unknown_atoms(self, alts: tuple[Atom, ...]) -> list[str]:
        out = []
        for atom in alts:
            if atom.form == "unknown":
                out.append(atom.name)
            out.extend(self._unknown_atoms(atom.elems))
            out.extend(self._unknown_atoms(atom.keys))
        return out

    # -- the title's own properties and tables
    def _title_property(self, prop: s.Property) -> None:
        param = self.schema.params.get(prop.name)
        if param is None:
            self._unknown_property(prop.name, _name_span(prop.span, prop.name), None)
            return
        alts = tuple(a for a in self.type_of(param) if not (a.form == "scalar" and a.name == "table"))
        if not alts:
            self.out.append(error(
                "E025", f"`{prop.name}` is a table: write `table {prop.name} by ... {{ ... }}`",
                prop.value.span,
            ))
            return
        if not self._value(prop.value, alts, where=f"`{prop.name}`"):
            self._bounds(prop.name, prop.value, TITLE_BOUNDS)
            self.out.extend(_out_of_range(param, prop.value, prop.name))
            self._negative_money(prop.name, prop.value)

    def _negative_money(self, name: str, value) -> None:
        """E020 for an amount of money written negative (`price: -$180`, `2 => -$520`) anywhere in a
        value: no price, cost, income or cash of the library's is below $0 (as `$-180` is refused when it
        is read), and the runtime took it as it is: a train the bank paid the buyer for. Not again where
        the property's declared range already refused it (`in 0..`)."""
        for name, node in _named_nodes(name, value):
            if not (isinstance(node, s.Unary) and node.op == "-" and isinstance(node.operand, s.Money)):
                continue
            span = node.span if node.span and node.span.line else value.span
            if any(d.code == "E020" and d.span == span for d in self.out):
                continue
            self.out.append(error(
                "E020", f"`{name}` is an amount of money, {node.operand.currency}0 or more, "
                        f"not -{node.operand.currency}{node.operand.amount}", span,
                help="no amount of money in a rulespec is negative: what is paid, and to whom, is the "
                     "property's meaning"))

    def _bounds(self, name: str, value, bounds: dict) -> None:
        """E020 for a number or percentage of a property whose meaning bounds it (`TITLE_BOUNDS`,
        `KIND_BOUNDS`) outside its bounds: `players: 0` (no game is played by none), `float: 150%` (no
        corporation has more than its whole), a train's `count: -1` (the bank has none of it)."""
        self.out.extend(_outside_bounds(name, value, bounds))

    def _table(self, table: s.Table) -> None:
        param = self.schema.params.get(table.name)
        span = Span(table.span.path, table.span.line, table.span.column, table.span.line, table.span.column + 5)
        if param is None:
            self._unknown_property(table.name, span, None)
            return
        alts = self.type_of(param)
        if not any(a.form == "scalar" and a.name == "table" for a in alts):
            self.out.append(error(
                "E025", f"`{table.name}` is not a table: it takes {describe(alts)}", span,
                help=f"write it as a property: `{table.name}: ...`",
            ))
            return
        values = tuple(a for a in alts if not (a.form == "scalar" and a.name == "table"))
        for dim in table.dims:
            if dim not in NUMBER_DIMENSIONS and dim not in self.schema.kinds and dim not in REFERENCES \
                    and dim not in self.schema.enums:
                self.out.append(error(
                    "E022", f"a table cannot be keyed by `{dim}`: no such dimension"
                    + did_you_mean(nearest(dim, list(NUMBER_DIMENSIONS) + list(self.schema.kinds))), span,
                    help="a table is keyed by players, corporations, a kind (its rows name components of it) or an enum",
                ))
        self._table_rows_once(table)
        for row in table.rows:
            for dim, key in zip(table.dims, row.keys):
                if dim in NUMBER_DIMENSIONS:
                    if not isinstance(key, (int, tuple)):
                        self.out.append(error(
                            "E025", f"a row of `{table.name}` by {dim} has the key {key!r}, not a number",
                            row.span,
                        ))
                elif dim in self.schema.enums and dim not in self.schema.kinds:
                    if str(key) not in self.schema.enums[dim]:
                        self.out.append(error(
                            "E026", f"a row of `{table.name}` by {dim} has the key {key!r}, not one of "
                            + ", ".join(f"`{m}`" for m in self.schema.enums[dim]), row.span,
                        ))
                elif dim in self.schema.kinds or dim in REFERENCES:
                    if dim == "tile" and str(key) in self.schema.keys.get("hex", ()):
                        continue  # a map hex's printed tile is upgraded like a tile
                    self._reference(str(key), dim, row.span)
            if values and not self._value(row.value, values, where=f"a row of `{table.name}`"):
                self._bounds(table.name, row.value, TITLE_BOUNDS)
                self.out.extend(_out_of_range(param, row.value, table.name))
                self._negative_money(table.name, row.value)

    def _table_rows_once(self, table: s.Table) -> None:
        """E011 for a row whose key another row of the table already gives (the same keys, or, keyed
        by a number, a number or range inside an earlier row's): one of the two values would be
        dropped without a word."""
        seen: dict[tuple, s.TableRow] = {}
        numbers: list[tuple[int, int, s.TableRow]] = []
        single = len(table.dims) == 1 and table.dims[0] in NUMBER_DIMENSIONS
        for row in table.rows:
            key = tuple(tuple(k) if isinstance(k, list) else k for k in row.keys)
            first = seen.get(key)
            if first is None and single and len(row.keys) == 1 and isinstance(row.keys[0], (int, tuple)):
                low, high = row.keys[0] if isinstance(row.keys[0], tuple) else (row.keys[0], row.keys[0])
                if isinstance(low, int) and isinstance(high, int):
                    first = next((r for lo, hi, r in numbers if lo <= high and low <= hi), None)
                    numbers.append((low, high, row))
            if first is not None:
                shown = ", ".join(f"{k[0]}..{k[1]}" if isinstance(k, tuple) else str(k) for k in row.keys)
                self.out.append(error(
                    "E011", f"table `{table.name}` gives the row {shown} twice", row.span,
                    help=f"the row at {first.span.path}:{first.span.line} gives it first; keep one"))
            else:
                seen[key] = row

    def _required_params(self) -> None:
        given = {c.name for c in self.title.clauses if c.kind in ("property", "table")}
        for param in self.schema.params.values():
            if param.name in given or not self._required(param):
                continue
            self.out.append(error(
                "E027", f"{self.title.name} does not set the required parameter `{param.name}`"
                + (f" ({param.title})" if param.title else ""), self.title.span,
                help=f"set it: `{param.name}: ...` with its citation, or `{param.name}: gap \"why\"` "
                     "where the rules do not give it",
            ))

    def _required(self, param: s.Param, own: dict[str, s.Expr] | None = None, kind: Kind | None = None) -> bool:
        """Whether `param` must be given: `own` are the properties of the component or
        record of `kind` it belongs to (a condition reads them, an unset one as none,
        before the title's parameters, an unset one none too)."""
        if not param.required:
            return False
        if param.required_when is None:
            return True
        values = {name: s.NoneLit() for name in self.schema.params}  # a parameter the title leaves unset is none
        values.update(self.schema.values)
        if kind is not None:
            values.update({name: s.NoneLit() for name in kind.params})
            values.update(own or {})
        return bool(_holds(param.required_when, values, self.schema.keys))

    # -- components
    def _component(self, comp: s.Component) -> None:
        kind = self.schema.kind(comp.kind)
        if kind is None:
            self.out.append(error(
                "E028", f"no kind `{comp.kind}` is declared" + did_you_mean(nearest(comp.kind, self.schema.kinds)),
                _name_span(comp.span, comp.kind),
                help=f"declare it: `kind {comp.kind} \"what it is\" {{ param NAME: TYPE \"meaning\" ... }}`",
            ))
            return
        for prop in comp.properties:
            param = kind.params.get(prop.name)
            if param is None:
                self._unknown_property(prop.name, _name_span(prop.span, prop.name), kind)
                continue
            if not self._value(prop.value, self.type_of(param), where=f"`{prop.name}`"):
                self._bounds(prop.name, prop.value, KIND_BOUNDS)
                self.out.extend(_out_of_range(param, prop.value, prop.name))
                self._negative_money(prop.name, prop.value)
        self._missing(kind, {p.name: p.value for p in comp.properties}, comp.span, f"{comp.kind} {comp.key or ''}".strip())
        self.out.extend(_path_nodes(comp))
        for child in comp.children:
            self._component(child)

    def _missing(self, kind: Kind, given: dict[str, s.Expr], span: Span, what: str) -> None:
        for param in kind.params.values():
            if param.name not in given and self._required(param, given, kind):
                self.out.append(error(
                    "E027", f"{what} lacks the required property `{param.name}`"
                    + (f" ({param.title})" if param.title else ""), span,
                    help=f"add `{param.name}: ...` with its citation, or `{param.name}: gap \"why\"` "
                         "where the rules do not give it",
                ))

    def _unknown_property(self, name: str, span: Span, kind: Kind | None) -> None:
        known = kind.params if kind is not None else self.schema.params
        owner = f"kind `{kind.name}`" if kind is not None else "the title's parameters"
        suggestions = nearest(name, known)
        declare = (f"`kind {kind.name} {{ param {name}: TYPE \"meaning\" }}`" if kind is not None
                   else f"`param {name}: TYPE \"meaning\"`")
        # none declared (a title that uses no library): its help listed "the title's parameters: ;"
        listed = f"{owner}: {listing(known)}" if known else f"{owner}: none" + (
            " (the title uses no library: `uses lib \"18xx\"` declares the common ones)"
            if kind is None and not self.title.libraries else "")
        self.out.append(error(
            "E024", f"unknown property `{name}`: not one of {owner}" + did_you_mean(suggestions), span,
            help=f"{listed}; a property of the title's own is declared with {declare}",
            suggestions=tuple(suggestions),
        ))

    # -- values
    def _value(self, expr, alts: tuple[Atom, ...], where: str = "the value", report: bool = True) -> list[Diagnostic]:
        """Check `expr` against the alternatives; returns (and, with `report`, records) the problems."""
        problems = self._problems(expr, alts, where)
        if report:
            self.out.extend(problems)
        return problems

    def _problems(self, expr, alts: tuple[Atom, ...], where: str) -> list[Diagnostic]:
        if isinstance(expr, s.Gap):
            return []
        if any(a.form == "unknown" for a in alts):
            return []  # the schema is wrong (E029): nothing to check against
        fitting = [a for a in alts if _fits(expr, a)]
        first: list[Diagnostic] | None = None
        for atom in fitting:
            found = self._atom(expr, atom, where)
            if not found:
                return []
            if first is None:
                first = found
        if first is not None:
            return first
        return [error(
            "E025", f"{where} takes {describe(alts)}, not {shape(expr)}", expr.span,
        )]

    def _atom(self, expr, atom: Atom, where: str) -> list[Diagnostic]:
        if atom.form == "scalar":
            if atom.name == "range":
                if not any(isinstance(expr.low, k) and isinstance(expr.high, k) for k in (s.Int, s.Money, s.Percent)):
                    return [error("E025", f"{where} takes a range of numbers, money or percentages (2..5)", expr.span)]
                low, high = (getattr(end, "amount", getattr(end, "value", None)) for end in (expr.low, expr.high))
                if low > high:
                    # an empty range: `players: 5..2` takes no player count, and play refuses every one
                    return [error("E020", f"{where} is the empty range {low}..{high}: its first end is above its second",
                                  expr.span, help=f"write {high}..{low}")]
                return []
            if atom.name == "parameters":
                return self._record(expr, None, where)
            return []
        if atom.form == "enum":
            name = expr.name if isinstance(expr, s.Name) else expr.value
            if name in atom.values:
                return []
            suggestions = nearest(name, atom.values)
            label = f" of {atom.name}" if atom.name else ""
            return [error(
                "E026", f"{where} takes one of {', '.join(f'`{v}`' for v in atom.values)}{label}, "
                f"not `{name}`" + did_you_mean(suggestions), expr.span,
                expected=atom.values, suggestions=tuple(suggestions),
            )]
        if atom.form == "kind":
            if isinstance(expr, s.Record):
                return self._record(expr, self.schema.kind(atom.name), where)
            if isinstance(expr, s.Call):
                if len(expr.args) != 1 or expr.kwargs or key_of(expr.args[0]) is None:
                    return [error("E025", f"{where}: write `{atom.name}(KEY)` with one key", expr.span)]
                return self._reference(key_of(expr.args[0]), atom.name, expr.args[0].span, report=False)
            return self._reference(key_of(expr), atom.name, expr.span, report=False)
        if atom.form == "ref":
            return self._reference(key_of(expr), atom.name, expr.span, report=False)
        if atom.form == "list":
            out: list[Diagnostic] = []
            for item in expr.items:
                out.extend(self._problems(item, atom.elems, f"an item of {where}"))
            return out
        if atom.form == "map":
            out = []
            for key, value in expr.entries:
                out.extend(self._problems(key, atom.keys, f"a key of {where}"))
                out.extend(self._problems(value, atom.elems, f"a value of {where}"))
            return out
        return []

    def _record(self, rec: s.Record, kind: Kind | None, where: str) -> list[Diagnostic]:
        """A record against a kind's properties (None: the title's parameters)."""
        out: list[Diagnostic] = []
        known = kind.params if kind is not None else self.schema.params
        owner = f"kind `{kind.name}`" if kind is not None else "the title's parameters"
        for i, (name, value) in enumerate(rec.fields):
            span = rec.name_spans[i] if i < len(rec.name_spans) else value.span
            param = known.get(name)
            if param is None:
                suggestions = nearest(name, known)
                out.append(error(
                    "E024", f"unknown field `{name}` in {where}: not one of {owner}" + did_you_mean(suggestions),
                    span, help=f"{owner}: {listing(known)}", suggestions=tuple(suggestions),
                ))
                continue
            problems = self._problems(value, self.type_of(param), f"`{name}`")
            out.extend(problems or _out_of_range(param, value, name))
            if not problems:
                out.extend(_outside_bounds(name, value, KIND_BOUNDS if kind is not None else TITLE_BOUNDS))
            if not problems and kind is not None and kind.name == "path" and name in ("a", "b"):
                out.extend(_path_end(value))
        if kind is not None:
            given = dict(rec.fields)
            for param in kind.params.values():
                if param.name not in given and self._required(param, given, kind):
                    out.append(error(
                        "E027", f"{where} lacks the required field `{param.name}`"
                        + (f" ({param.title})" if param.title else ""), rec.span,
                    ))
        return out

    def _reference(self, key: str | None, kind: str, span: Span, report: bool = True) -> list[Diagnostic]:
        keys = self.schema.keys.get(kind, set())
        if key is not None and key in keys:
            return []
        suggestions = nearest(key or "", keys)
        elsewhere = [k for k in self.schema.kinds_with_key(key or "") if k != kind]
        label = {"action": "action", "kind_name": "kind", "phase_group": "phase group", "parameter": "parameter"}.get(kind, kind)
        found = [error(
            "E022", f"no {label} `{key}`" + did_you_mean(suggestions)
            + (f" (`{key}` is a {' and a '.join(elsewhere)})" if elsewhere else ""), span,
            help=f"{label}{'es' if label.endswith(('x', 's', 'ch')) else 's'}: {listing(keys)}" if keys
            else f"the title has no {label}",
            suggestions=tuple(suggestions),
        )]
        if report:
            self.out.extend(found)
        return found


def _python(expr, values: dict[str, s.Expr]):
    """A property's value as plain Python, for a `required when` condition."""
    if isinstance(expr, s.Name):
        if expr.name in values:
            return _python(values[expr.name], {})
        return expr.name
    if isinstance(expr, (s.Int, s.Percent, s.Str, s.Bool)):
        return expr.value
    if isinstance(expr, s.Money):
        return expr.amount
    if isinstance(expr, s.NoneLit):
        return None
    if isinstance(expr, (s.ListLit, s.SetLit)):
        return [_python(item, {}) for item in expr.items]
    return None


def _holds(expr, values: dict[str, s.Expr], keys: dict[str, set[str]]):
    """Evaluate a `required when` condition: names are the properties (a component's own
    first, then the title's; an unset one is none), `has(KIND)` whether the title has a
    component of that kind, other names stand for themselves."""
    if isinstance(expr, s.Binary):
        if expr.op == "and":
            return bool(_holds(expr.left, values, keys)) and bool(_holds(expr.right, values, keys))
        if expr.op == "or":
            return bool(_holds(expr.left, values, keys)) or bool(_holds(expr.right, values, keys))
        left, right = _holds(expr.left, values, keys), _holds(expr.right, values, keys)
        if expr.op in ("in", "not in"):
            inside = isinstance(right, list) and left in right
            return inside if expr.op == "in" else not inside
        if expr.op == "==":
            return left == right
        if expr.op == "!=":
            return left != right
        return None
    if isinstance(expr, s.Unary) and expr.op == "not":
        return not _holds(expr.operand, values, keys)
    if isinstance(expr, s.Call) and isinstance(expr.func, s.Name) and expr.func.name == "has" and len(expr.args) == 1:
        kind = expr.args[0]
        return isinstance(kind, s.Name) and bool(keys.get(kind.name))
    if isinstance(expr, s.Name) and expr.name in values:
        return _python(values[expr.name], {})
    if isinstance(expr, s.Name):
        return expr.name
    return _python(expr, values)


def check_types(title: Title) -> list[Diagnostic]:
    """Every value of a resolved title against its schema."""
    return Checker(title).run()
