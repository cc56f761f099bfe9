"""The syntax tree of a rulespec: frozen dataclasses with source spans.

`compiler.lang.parse` builds these from the Lark tree; `compiler.lang.resolve` turns a
set of units into the IR (`compiler.lang.ir`), which keeps these expression and
statement nodes as they are. Spans take no part in equality or hashing, so
two clauses that say the same thing compare equal wherever they are written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Union

from compiler.diagnostics import Span

_NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


def _span() -> Span:
    return field(default=_NO_SPAN, compare=False, repr=False)


class ByNode:
    """Answers computed from a syntax node, kept by the node's identity: the library's clauses and an
    unchanged title's are the same objects from one check to the next (`rulec lsp`, the mutation
    tests), where hashing a frozen node would walk all of it. Each entry keeps its node, so that the
    id is not reused while the entry stands; `kept` bounds the entries (all dropped when full)."""

    def __init__(self, make: Callable[[Any], Any], kept: int = 4000):
        self.make = make
        self.kept = kept
        self._answers: dict[int, tuple[object, Any]] = {}

    def __call__(self, node: object) -> Any:
        found = self._answers.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        answer = self.make(node)
        if len(self._answers) >= self.kept:
            self._answers.clear()
        self._answers[id(node)] = (node, answer)
        return answer


def walk(node: object) -> Iterator[object]:
    """Every syntax node under `node`, itself included, depth first: lists and
    tuples are walked through; spans and provenance are left out."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
            continue
        fields = getattr(item, "__dataclass_fields__", None)
        if fields is None:
            continue
        yield item
        stack.extend(reversed([getattr(item, name) for name in fields if name not in ("span", "prov")]))


# ---------------------------------------------------------------- provenance


@dataclass(frozen=True)
class Citation:
    """One source of a clause.

    kind: "section" (§8.1, VII.3.8, optionally told apart by `heading`),
    "heading" (a section known by its heading only), "appendix", "table",
    "supplement" (`ref` is the source named), "assumed" (`ref` is the reason).
    """

    kind: str
    ref: str
    heading: str | None = None
    span: Span = _span()

    @property
    def is_rulebook(self) -> bool:
        return self.kind in ("section", "heading", "appendix", "table")

    def __str__(self) -> str:
        if self.kind == "section":
            return self.ref + (f'("{self.heading}")' if self.heading else "")
        if self.kind == "heading":
            return f'§"{self.ref}"'
        if self.kind == "appendix":
            return f"Appendix {self.ref}"
        if self.kind == "table":
            return f"Table {self.ref}"
        if self.kind == "supplement":
            return f'supplement from "{self.ref}"'
        return f'assumed "{self.ref}"'

    @property
    def section_id(self) -> str:
        """The key that names the cited section in a title's section list.

        `§8.1` and `8.1` name the same section; a heading tells duplicates apart.
        """
        if self.kind == "section":
            ref = self.ref.lstrip("§")
            return f"{ref}({self.heading})" if self.heading else ref
        if self.kind == "heading":
            return f'"{self.ref}"'
        if self.kind == "appendix":
            return f"Appendix {self.ref}"
        if self.kind == "table":
            return f"Table {self.ref}"
        return ""


@dataclass(frozen=True)
class Provenance:
    citations: tuple[Citation, ...] = ()
    span: Span = _span()

    @property
    def rulebook(self) -> tuple[Citation, ...]:
        return tuple(c for c in self.citations if c.is_rulebook)

    @property
    def supplements(self) -> tuple[Citation, ...]:
        return tuple(c for c in self.citations if c.kind == "supplement")

    @property
    def assumptions(self) -> tuple[Citation, ...]:
        return tuple(c for c in self.citations if c.kind == "assumed")

    @property
    def is_cited(self) -> bool:
        return bool(self.citations)

    def __str__(self) -> str:
        return ", ".join(str(c) for c in self.citations)


NO_PROVENANCE = Provenance()


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Name:
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Int:
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class Money:
    """An amount in the title's currency units; `currency` is the symbol written."""

    amount: int
    currency: str
    span: Span = _span()


@dataclass(frozen=True)
class Percent:
    """A percentage as an integer 0..100 (or more, for caps)."""

    value: int
    span: Span = _span()


@dataclass(frozen=True)
class Str:
    value: str
    span: Span = _span()


@dataclass(frozen=True)
class Bool:
    value: bool
    span: Span = _span()


@dataclass(frozen=True)
class NoneLit:
    span: Span = _span()


@dataclass(frozen=True)
class ListLit:
    items: tuple["Expr", ...]
    span: Span = _span()


@dataclass(frozen=True)
class SetLit:
    items: tuple["Expr", ...]
    span: Span = _span()


@dataclass(frozen=True)
class MapLit:
    entries: tuple[tuple["Expr", "Expr"], ...]
    span: Span = _span()


@dataclass(frozen=True)
class Record:
    fields: tuple[tuple[str, "Expr"], ...]
    span: Span = _span()
    #: where each field's name is written, in the order of `fields`
    name_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)

    def get(self, name: str) -> "Expr | None":
        for key, value in self.fields:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class Range:
    low: "Expr"
    high: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Unary:
    op: str  # "-" or "not"
    operand: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Binary:
    """op: + - * / mod and or == != < <= > >= in "not in"."""

    op: str
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Cond:
    test: "Expr"
    then: "Expr"
    otherwise: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Member:
    obj: "Expr"
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Call:
    func: "Expr"
    args: tuple["Expr", ...]
    kwargs: tuple[tuple[str, "Expr"], ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class Index:
    obj: "Expr"
    index: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Quantifier:
    """all/any/sum/count/filter/greatest/least(var in domain: body); filter is the list of the domain's elements for
    which the body holds; greatest and least the greatest and the least value of the body (0 over no element, as a
    sum)."""

    kind: str
    var: str
    domain: "Expr"
    body: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Gap:
    """A value that the rulebook does not give and nobody supplied."""

    reason: str
    span: Span = _span()


@dataclass(frozen=True)
class MatchExpr:
    """`match SUBJECT { a, b => EXPR  c => EXPR  else => EXPR }`: the value of the case naming the
    subject's value, an enum value (the statement `Match`'s rules, E034 and E035: every value has a
    case, or there is an `else`)."""

    subject: "Expr"
    cases: tuple[tuple[tuple[str, ...], "Expr"], ...]
    orelse: "Expr | None" = None
    span: Span = _span()
    #: where each case's values are written, in the order of `cases`
    value_spans: tuple[tuple[Span, ...], ...] = field(default=(), compare=False, repr=False)

    def as_cond(self) -> "Expr":
        """The same choice as nested conditionals, each case a test of the subject against its values,
        in order. With no `else` the last case is the value where no test before it holds: `rulec
        check` has made sure every value of the enum has a case. The engine and the z3 model both
        run this one lowering."""
        out = self.orelse
        cases = list(self.cases)
        if out is None:
            out = cases.pop()[1]
        for values, value in reversed(cases):
            out = Cond(_case_test(self.subject, values, self.span), value, out, self.span)
        return out


def _case_test(subject, values: tuple[str, ...], span: Span):
    """`subject == a or subject == b`: a value as the value it is (not a name a local could shadow):
    enum values are strings to the engine and to the z3 model alike."""
    tests = [Binary("==", subject, NoneLit(span) if v == "none" else Str(v, span), span) for v in values]
    test = tests[0]
    for more in tests[1:]:
        test = Binary("or", test, more, span)
    return test


Expr = Union[
    Name, Int, Money, Percent, Str, Bool, NoneLit, ListLit, SetLit, MapLit, Record,
    Range, Unary, Binary, Cond, Member, Call, Index, Quantifier, Gap, MatchExpr,
]


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Require:
    cond: Expr
    unless: Expr | None = None
    message: str | None = None
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Transfer:
    """Money moves only by transfer: `amount` from `source` to `target`."""

    amount: Expr
    source: Expr
    target: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Move:
    """A certificate, train, token or private moves from one holder to another."""

    what: Expr
    source: Expr
    target: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Assign:
    target: Expr
    value: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Let:
    name: str
    value: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class If:
    branches: tuple[tuple[Expr, tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class For:
    var: str
    domain: Expr
    body: tuple["Stmt", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Do:
    call: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Emit:
    event: str
    args: tuple[Expr, ...] = ()
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Fail:
    message: str
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Match:
    """`match SUBJECT { a, b => { ... } c => { ... } else { ... } }`: the case naming the subject's
    value runs (an enum value: a title's parameter or a routine's, typed by an enum); `rulec check`
    refuses a case that is no value of the enum and a value with no case where there is no `else`
    (E034, E035), so one case always runs. `cases`: (the values, written as names or `none`; the body)."""

    subject: Expr
    cases: tuple[tuple[tuple[str, ...], tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...] | None = None
    span: Span = _span()
    #: where each case's values are written, in the order of `cases`
    value_spans: tuple[tuple[Span, ...], ...] = field(default=(), compare=False, repr=False)

    def as_if(self) -> If:
        """The same choice as an `if`: each case a test of the subject against its values, in order;
        with no `else`, a `fail` where no case holds (which `rulec check` makes unreachable). The
        engine and the z3 model both run this one lowering."""
        branches = [(_case_test(self.subject, values, self.span), body) for values, body in self.cases]
        orelse = self.orelse if self.orelse is not None else (
            Fail("no case of this match holds the value of "
                 + (f"`{self.subject.name}`" if isinstance(self.subject, Name) else "its subject"), span=self.span),)
        if not branches:
            return If(((Bool(True, self.span), orelse),), (), self.span)
        return If(tuple(branches), orelse, self.span)


Stmt = Union[Require, Transfer, Move, Assign, Let, If, For, Do, Emit, Fail, Match]


# ---------------------------------------------------------------- items


@dataclass(frozen=True)
class TypeRef:
    """A parameter's type: one or more alternatives; `list[...]` nests.

    `map[K, V]` is a TypeRef with `key` (K) whose alternatives are V's; an
    inline enum `{a, b}` has `values` and no alternatives.
    """

    alternatives: tuple[str | "TypeRef", ...]
    is_list: bool = False
    span: Span = _span()
    key: "TypeRef | None" = None
    values: tuple[str, ...] = ()
    #: `set[...]` (a declared state's type); `parts`: a tuple type `(player, corporation)`, the names of its parts
    is_set: bool = False
    parts: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.values:
            return "{" + ", ".join(self.values) + "}"
        if self.parts:
            return "(" + ", ".join(self.parts) + ")"
        inner = " | ".join(str(a) for a in self.alternatives)
        if self.is_set:
            return f"set[{inner}]"
        if self.key is not None:
            return f"map[{self.key}, {inner}]"
        return f"list[{inner}]" if self.is_list else inner


@dataclass(frozen=True)
class ParamDecl:
    """A parameter of an action, procedure or function. `default`: an action's optional field (a log may
    leave it out; the default is then bound), None where the field is required."""

    name: str
    type: TypeRef
    span: Span = _span()
    default: Expr | None = None


@dataclass(frozen=True)
class Property:
    name: str
    value: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("property", self.name)


@dataclass(frozen=True)
class Component:
    kind: str
    key: str | None
    title: str | None
    prov: Provenance
    properties: tuple[Property, ...]
    children: tuple["Component", ...]
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return (self.kind, self.key or "")

    def get(self, name: str) -> Property | None:
        for prop in self.properties:
            if prop.name == name:
                return prop
        return None


@dataclass(frozen=True)
class TableRow:
    keys: tuple[object, ...]  # int, str, or (low, high) for a range key
    value: Expr
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Table:
    name: str
    dims: tuple[str, ...]
    title: str | None
    prov: Provenance
    rows: tuple[TableRow, ...]
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("table", self.name)


@dataclass(frozen=True)
class Param:
    """A parameter of a title, or (inside a `kind`) a property of a kind.

    `title` is its one-line meaning; `required` says a value must be given
    (a `gap` counts as given), `required_when` only when that condition on
    the title's properties holds; `documentation`: only the site shows it
    (the engine and the verifier do not read it).
    """

    name: str
    type: TypeRef
    default: Expr | None
    title: str | None
    prov: Provenance
    span: Span = _span()
    required: bool = False
    required_when: Expr | None = None
    documentation: bool = False
    #: `in LOW..HIGH` (HIGH None: no most): the range of the numbers it holds (`rulec check`'s E020).
    #: Left out of `repr`, as spans are: only the checker reads it, and the verifier's keys are reprs
    bounds: tuple[int, int | None] | None = field(default=None, repr=False)
    #: where `in LOW..HIGH` is written (the checker's E029 for a range that holds nothing)
    bounds_span: Span | None = field(default=None, repr=False, compare=False)

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("param", self.name)


@dataclass(frozen=True)
class KindDecl:
    """`kind private "a private company" { param ... }`: the properties of the
    components of a kind (and of records of that shape). A kind declared in
    several units has the properties of all of them."""

    name: str
    title: str | None
    prov: Provenance
    params: tuple[Param, ...]
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("kind", self.name)

    def get(self, name: str) -> Param | None:
        for param in self.params:
            if param.name == name:
                return param
        return None


@dataclass(frozen=True)
class Enum:
    name: str
    title: str | None
    prov: Provenance
    values: tuple[str, ...]
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("enum", self.name)


@dataclass(frozen=True)
class StateDecl:
    """`state sold_this_round: set[(player, corporation)] reset on stock_round_start "meaning"`: state the
    rules keep themselves. A set of entities (or of tuples of them): `sold_this_round(P, C)` reads whether
    (P, C) is in it, `set sold_this_round(P, C) = true` (or false) puts it in (or takes it out). A part is a
    kind of entity (player, corporation, private, minor, certificate; `company`: a corporation, a minor or a
    private), an enum of the title, or another kind of the title's components (`map[(corporation, effect),
    int]`, `set[company_president]`), whose value is a component's key; or a flag
    (`bool`), read `NAME()`; or an amount per element (`map[player, money]`, `map[(player, corporation), int]`):
    `debt(P)` reads P's (0 until set), `set debt(P) = x` sets it; or one amount (`int`, `money`), read `NAME()`. The runtime empties it at each moment
    `reset_on` names (`runtime.game.STATE_RESETS`; `reset on stock_turn_start, operating_turn_start`: at
    either); with none it lasts the game."""

    name: str
    type: TypeRef
    reset_on: tuple[str, ...]
    title: str | None
    prov: Provenance
    span: Span = _span()
    #: a list's `max N`: how many elements the z3 model follows exactly (`compiler.verify.lists`)
    bound: int | None = None

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("state", self.name)

    @property
    def is_list(self) -> bool:
        """`state NAME: list[(player | corporation, action)] max N`: elements in order, duplicates
        allowed, read and changed by its operations (`LIST_OPERATIONS`: `NAME.first(a, b)`, `do
        NAME.append(a, b)`, ...)."""
        return self.type.is_list

    @property
    def is_flag(self) -> bool:
        """`state NAME: bool`: one truth value, read NAME(), set with `set NAME() = true` (a set whose one
        element is the empty tuple)."""
        return not self.type.is_set and not self.type.is_list and self.type.alternatives == ("bool",)

    @property
    def is_amount(self) -> bool:
        """`state NAME: map[KEY, money]` (or `int`): a number per element, 0 where none was set; `state NAME:
        int` (or `money`): one number, read NAME() (a map whose one element is the empty tuple)."""
        return not self.type.is_set and not self.type.is_list and self.type.alternatives in (("int",), ("money",))

    @property
    def element(self) -> tuple[str, ...]:
        """The kinds of an element's parts: ("player", "corporation") for set[(player, corporation)] (or an
        amount's map[(player, corporation), int]); none for a flag (`bool`)."""
        if self.is_amount:
            key = self.type.key
            if key is None:
                return ()  # one amount
            if key.parts:
                return key.parts
            return (key.alternatives[0],) if len(key.alternatives) == 1 and isinstance(key.alternatives[0], str) else ()
        inner = self.type.alternatives[0] if (self.type.is_set or self.type.is_list) and len(self.type.alternatives) == 1 else None
        if isinstance(inner, TypeRef) and inner.parts:
            return inner.parts
        if isinstance(inner, str):
            return (inner,)
        if self.type.is_list and self.type.alternatives and all(isinstance(a, str) for a in self.type.alternatives):
            return (" | ".join(self.type.alternatives),)  # list[player | corporation]: one part of either kind
        return ()


#: a list state's operations, `NAME.OP(...)`: each (whether it is a statement, run with `do`, or gives a value;
#: how many arguments it takes: "parts", one per part of an element, "prefix", its first parts (two at least:
#: `offers.first_for(P, C)`, whether the first element whose first part is P goes on with C), "at", a place
#: (from 0) then one per part (`do order.insert(0, C)`: C first), "one", none, of a list whose elements have
#: one part (`for c in order.elements()`), or none)
LIST_OPERATIONS = {"append": (True, "parts"), "remove": (True, "parts"), "pop": (True, "none"),
                   "insert": (True, "at"), "first": (False, "parts"), "contains": (False, "parts"),
                   "length": (False, "none"), "first_for": (False, "prefix"), "elements": (False, "one")}


@dataclass(frozen=True)
class Routine:
    """An action, procedure or function. A function's body is one expression."""

    kind: str  # "action" | "procedure" | "function"
    name: str
    params: tuple[ParamDecl, ...]
    title: str | None
    prov: Provenance
    body: tuple[Stmt, ...] = ()
    result: Expr | None = None
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return (self.kind, self.name)


@dataclass(frozen=True)
class Event:
    name: str
    args: tuple[Expr, ...] = ()
    when: Expr | None = None
    span: Span = _span()


@dataclass(frozen=True)
class Trigger:
    name: str
    event: Event
    title: str | None
    prov: Provenance
    body: tuple[Stmt, ...]
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("trigger", self.name)


@dataclass(frozen=True)
class Invariant:
    name: str
    title: str | None
    prov: Provenance
    expr: Expr
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("invariant", self.name)


@dataclass(frozen=True)
class Sanction:
    """A sanctioned exception: `invariant` may break after `action`, as cited."""

    invariant: str
    action: str
    title: str | None
    prov: Provenance
    reading: str | None
    span: Span = _span()
    #: the spans of the invariant's name and of the action's (a diagnostic's place)
    name_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("sanction", f"{self.invariant}/{self.action}")


Decl = Union[Property, Component, Table, Param, Enum, KindDecl, StateDecl, Routine, Trigger, Invariant, Sanction]


@dataclass(frozen=True)
class Uses:
    library: str
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


@dataclass(frozen=True)
class Cite:
    """`cite action buy_shares §8.1`: the title's rulebook states a clause
    that the title takes from its library."""

    kind: str
    name: str
    prov: Provenance
    span: Span = _span()

    @property
    def clause_key(self) -> tuple[str, str]:
        return ("cite", f"{self.kind} {self.name}")


@dataclass(frozen=True)
class Rulebook:
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Section:
    citation: Citation
    heading: str
    note: str | None = None
    span: Span = _span()


@dataclass(frozen=True)
class Replace:
    decl: Decl
    span: Span = _span()


@dataclass(frozen=True)
class Amend:
    kind: str
    key: str
    prov: Provenance
    properties: tuple[Property, ...]
    children: tuple[Component, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Remove:
    kind: str
    key: str
    prov: Provenance = NO_PROVENANCE
    span: Span = _span()


Item = Union[Decl, Uses, Cite, Rulebook, Section, Replace, Amend, Remove]


@dataclass(frozen=True)
class Unit:
    """A library, title, variant or erratum, as written in one file.

    `base` is the title extended (title) or overlaid (variant, errata).
    """

    kind: str  # "library" | "title" | "variant" | "errata"
    name: str
    base: str | None
    prov: Provenance
    items: tuple[Item, ...]
    path: str
    span: Span = _span()
    name_span: Span = _span()
    base_span: Span = _span()


@dataclass(frozen=True)
class Module:
    """One parsed file."""

    path: str
    units: tuple[Unit, ...]
