"""Stage 5, emit: a resolved title -> `generated/<slug>.py`, a Python engine.

The module holds the title's data (`TitleData`) and its actions,
procedures, functions and triggers compiled to Python functions; it
subclasses `compiler.runtime.GameBase`, which does everything generic.
`rulec compile` writes what every engine shares once (`generated/library.py`,
`library_of`, with the library's routines as most titles compile them,
`library_functions_of`) and what a title's engines share once per title
(`generated/d_<title>.py`, `title_module_of`); an engine names those and
carries the rest. An engine built in memory carries everything.

Strings from a rulespec reach Python only through `repr()`; names become
identifiers only after `_ident` has checked them, so a rulespec cannot inject
code. The output is formatted with ruff (pinned) and is deterministic: the
same title gives the same bytes.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import jinja2

from compiler.emit.bounds import limits_code, more_bound
from compiler.emit.bounds import expr_names as _names
from compiler.emit.parts_cache import remembered_parts
from compiler.emit.pieces import (EmitError, _at, _cite, _ident, _Scope, literal,
                                 probe_prefix, unparse)
from compiler.emit.probes import ProbeCompiler
from compiler.emit.shared import (
    Library,
    TitleModule,
    _digests,
    _most_common,
    _relative,
    _shared_components,
    docstring,
    render_library,
    render_title_module,
    wrapped_list,
)
from compiler.lang import syntax as s
from compiler.lang.builtins import VALUES
from compiler.lang.ir import Clause, Title
from compiler.lang.schema import component_params
from compiler.names import engine_name
from compiler.paths import GENERATED, TEMPLATES
from compiler.runtime.dsl_support import ROUND_FIELDS


def module_name(title: Title) -> str:
    """`generated/` module name of a title: t_1880_romania, t_1800__three_player."""
    return engine_name(title.name, title.variant)


# ---------------------------------------------------------------- values


def py_value(expr) -> str:
    """Python source for a data value (property, component field, table cell)."""
    scalar = literal(expr)
    if scalar is not None:
        return scalar
    if isinstance(expr, s.Name):
        return repr(expr.name)
    if isinstance(expr, s.ListLit):
        return "[" + ", ".join(py_value(e) for e in expr.items) + "]"
    if isinstance(expr, s.SetLit):
        return "[" + ", ".join(py_value(e) for e in expr.items) + "]"
    if isinstance(expr, s.MapLit):
        return "{" + ", ".join(f"{py_value(k)}: {py_value(v)}" for k, v in expr.entries) + "}"
    if isinstance(expr, s.Record):
        return "{" + ", ".join(f"{name!r}: {py_value(v)}" for name, v in expr.fields) + "}"
    if isinstance(expr, s.Range):
        return f"({py_value(expr.low)}, {py_value(expr.high)})"
    if isinstance(expr, s.Gap):
        return f"Gap({expr.reason!r}, at={_at(expr.span)!r})"
    if isinstance(expr, s.Unary) and expr.op == "-" and isinstance(expr.operand, (s.Int, s.Money)):
        return repr(-int(py_value(expr.operand)))
    if isinstance(expr, s.Call) and isinstance(expr.func, s.Name):
        args = ", ".join(py_value(a) for a in expr.args)
        return f"{{'call': {expr.func.name!r}, 'args': [{args}]}}"
    if isinstance(expr, s.Binary):
        return repr(unparse(expr))
    return repr(unparse(expr))


def table_value(table: s.Table) -> str:
    rows = []
    for row in table.rows:
        keys = ", ".join(repr(k) for k in row.keys)
        rows.append(f"(({keys},), {py_value(row.value)})")
    return f"Table({tuple(table.dims)!r}, ({', '.join(rows)},))" if rows else f"Table({tuple(table.dims)!r}, ())"


#: the kinds of entity a parameter's type may name (`Game.as_entities` finds them by key)
_ENTITY_KINDS = frozenset({"corporation", "private", "minor", "player", "bond"})


def _names_entities(ref) -> bool:
    """Whether a parameter's type names a kind of entity, alone or inside a list (`list[private]`)."""
    if isinstance(ref, str):
        return ref in _ENTITY_KINDS
    if ref is None or ref.key is not None or ref.values:
        return False
    return any(_names_entities(alt) for alt in ref.alternatives)


def component_value(comp: s.Component, defaults: dict[str, s.Expr] | None = None) -> str:
    """A component's data as Python source; `defaults`: its kind's parameter defaults
    (`Title.kind_defaults`), for those it does not set."""
    parts = [f"'key': {comp.key!r}", f"'title': {comp.title!r}"]
    for prop in comp.properties:
        parts.append(f"{prop.name!r}: {py_value(prop.value)}")
    given = {prop.name for prop in comp.properties}
    for name, default in (defaults or {}).items():
        if name not in given:
            parts.append(f"{name!r}: {py_value(default)}")
    if comp.children:
        parts.append("'children': [" + ", ".join(
            component_value(c)[:-1] + f", 'kind': {c.kind!r}}}" for c in comp.children) + "]")
    return "{" + ", ".join(parts) + "}"


# ---------------------------------------------------------------- expressions


#: the kinds of card whose records the DSL's collections give (`train_cards`, `phases`, `X.abilities`: `GameBase.CARDS`)
CARD_KINDS = ("train", "phase", "market", "ability")


def ability_card_kind(title: Title) -> tuple[str, ...]:
    """The kind of the title's ability cards (its property `ability_cards`), whose records the DSL's
    `all_ability_cards` gives, as a CARDS kind; none for a title without."""
    value = getattr(title.get("property", "ability_cards"), "decl", None)
    value = getattr(value, "value", None)
    return (value.name,) if isinstance(value, s.Name) else (value.value,) if isinstance(value, s.Str) else ()

#: the engine class's data tables an engine names from its title's shared module where it has them
#: as most of the title's engines do (`TitleModule.tables`, `Library.table`)
CLASS_TABLES = ("ACTION_PARAMS", "ACTION_DEFAULTS", "STATES", "CARDS")

#: the collections of entities `x in NAME` asks about (builtin VALUES): compiled to `g.among(NAME, x)`
COLLECTIONS = frozenset({"players", "corporations", "privates", "minors", "bonds"}) & frozenset(VALUES)

_BINOPS = {
    "+": "+", "-": "-", "*": "*", "/": "//", "mod": "%", "==": "==", "!=": "!=",
    "<": "<", "<=": "<=", ">": ">", ">=": ">=", "and": "and", "or": "or", "in": "in", "not in": "not in",
}


class Compiler(ProbeCompiler):
    """DSL routines -> Python source, one function each."""

    def __init__(self, title: Title):
        self.title = title
        self.routines = {
            c.name: c for c in title.clauses if c.kind in ("procedure", "function")
        }
        self.constants: set[str] = set()
        self.entities: dict[str, str] = {}
        #: the components that are no entity (a round track, a market, a draft ...), by key: their kind; a
        #: field of one (`main.par_groups`) is read from the title's data, as the model reads it
        self.components: dict[str, str] = {}
        self.params: dict[str, s.Provenance] = {}
        #: the declared defaults of parameters the title does not set (`param NAME: bool = false`): a read
        #: of one is its default, as the verifier reads it (`Model.param`)
        self.param_defaults: dict[str, s.Expr] = {}
        #: the parameters whose type names a kind of entity (`private_sale_order: list[private]`): read as
        #: entities, not their keys (as the model's `Translator.lift` reads them)
        self.entity_params: set[str] = set()
        #: the parameters whose type names a kind of component that is no entity (the library's
        #: `operating_track: round_track`), by name: their kind; a field of one (`operating_track.par_groups`)
        #: is read from the data of the component the title names there, as the model reads it
        self.component_params: dict[str, str] = component_params(title)
        self.cites: dict[str, s.Provenance] = {}
        for clause in title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Enum):
                self.constants.update(decl.values)
            elif isinstance(decl, s.Component):
                if decl.kind in ("corporation", "private", "bond", "minor"):
                    self.entities[decl.key or ""] = decl.kind
                else:
                    self.constants.add(decl.key or "")
                    self.components.setdefault(decl.key or "", decl.kind)
            elif isinstance(decl, (s.Property, s.Table)):
                self.params[decl.name] = decl.prov
            elif isinstance(decl, s.Param):
                self.params.setdefault(decl.name, s.NO_PROVENANCE)
                if _names_entities(decl.type):
                    self.entity_params.add(decl.name)
                if decl.default is not None:
                    self.param_defaults[decl.name] = decl.default
            elif isinstance(decl, s.Cite):
                self.cites[f"{decl.kind} {decl.name}"] = decl.prov
        for clause in title.clauses:
            if isinstance(clause.decl, (s.Property, s.Table)):
                self.param_defaults.pop(clause.decl.name, None)
        self.constants.update(c.name for c in title.clauses if c.kind in ("action", "enum"))
        #: the declared states (`state NAME: set[...]`), read `NAME(a, b)` and written `set NAME(a, b) = v`
        self.states = {c.name: c.decl for c in title.clauses if isinstance(c.decl, s.StateDecl)}
        #: while a function's result is compiled: how often it reads each of ONCE_NAMES ([reads, reads in
        #: a quantifier's body]), those read once a call, the quantifier bodies and iterables it is in
        self._once: dict[str, list[int]] | None = None
        self._once_emit: frozenset[str] = frozenset()
        self._in_body = 0
        self._in_iterable = False

    def rule_for(self, exprs, default: str) -> str:
        """The citation a guard names: the title's citations of the
        parameters it reads, else the clause's own citation."""
        cites: list[str] = []
        for expr in exprs:
            for name in _names(expr):
                prov = self.params.get(name)
                text = _cite(prov) if prov is not None else None
                if text and text not in cites:
                    cites.append(text)
        return ", ".join(cites) or default

    # -- expressions
    def _component_named(self, e, scope: _Scope) -> str | None:
        """The key of the component (no entity: a round track, a draft ...) that the name `e` means, or
        None: a name no local, holder, parameter or entity shadows."""
        if not isinstance(e, s.Name) or e.name not in self.components or e.name in scope.locals:
            return None
        if e.name in VALUES or e.name in self.params or e.name in self.param_defaults or e.name in self.entities:
            return None
        return e.name

    def expr(self, e, scope: _Scope) -> str:
        if isinstance(e, s.Name):
            if e.name in scope.locals:
                return _ident(e.name)
            if e.name in VALUES:  # the holders: `bank` is the bank, not the title's `bank:` size
                # (the round and the step: their field of the game's round state, as `DslSupport.name` reads it)
                read = f"g.g[{ROUND_FIELDS[e.name]!r}]" if e.name in ROUND_FIELDS else f"g.name({e.name!r})"
                if self._once is None or e.name not in self.ONCE_NAMES or self._in_iterable:
                    return read
                # in a function, a value the state gives read once a call (`Compiler.routine`)
                uses = self._once.setdefault(e.name, [0, 0])
                uses[0] += 1
                uses[1] += self._in_body > 0
                if e.name not in self._once_emit:
                    return read
                held = f"_once_{e.name}"
                return f"({held} if {held} is not None else ({held} := {read}))"
            if e.name in self.param_defaults:
                read = f"g.param_or({e.name!r}, {py_value(self.param_defaults[e.name])})"
                return f"g.as_entities({read})" if e.name in self.entity_params else read
            if e.name in self.params:
                read = f"g.param({e.name!r})"
                return f"g.as_entities({read})" if e.name in self.entity_params else read
            if e.name in self.entities:
                return f"g.entity({self.entities[e.name]!r}, {e.name!r})"
            if e.name in self.constants:
                return repr(e.name)
            raise EmitError(f"unknown name {e.name!r}", e.span)
        scalar = literal(e)
        if scalar is not None:
            return scalar
        if isinstance(e, s.ListLit):
            return "[" + ", ".join(self.expr(x, scope) for x in e.items) + "]"
        if isinstance(e, s.SetLit):
            return "frozenset((" + "".join(self.expr(x, scope) + ", " for x in e.items) + "))"
        if isinstance(e, s.MapLit):
            return "{" + ", ".join(f"{self.expr(k, scope)}: {self.expr(v, scope)}" for k, v in e.entries) + "}"
        if isinstance(e, s.Record):
            return "{" + ", ".join(f"{k!r}: {self.expr(v, scope)}" for k, v in e.fields) + "}"
        if isinstance(e, s.Range):
            return f"range({self.expr(e.low, scope)}, ({self.expr(e.high, scope)}) + 1)"
        if isinstance(e, s.Unary):
            inner = self.expr(e.operand, scope)
            return f"(not {inner})" if e.op == "not" else f"(-{inner})"
        if isinstance(e, s.Binary):
            op = _BINOPS[e.op]
            if e.op in ("in", "not in") and isinstance(e.right, s.Name) and e.right.name in COLLECTIONS \
                    and e.right.name not in scope.locals:
                # membership in one of the game's collections: a set lookup, not a list built and compared
                # element by element (`GameBase.among`)
                test = f"g.among({e.right.name!r}, {self.expr(e.left, scope)})"
                return test if e.op == "in" else f"(not {test})"
            return f"({self.expr(e.left, scope)} {op} {self.expr(e.right, scope)})"
        if isinstance(e, s.Cond):
            return f"({self.expr(e.then, scope)} if {self.expr(e.test, scope)} else {self.expr(e.otherwise, scope)})"
        if isinstance(e, s.Member):
            key = self._component_named(e.obj, scope)
            if key is not None:
                return f"g.component_attr({self.components[key]!r}, {key!r}, {e.name!r})"
            named = e.obj.name if isinstance(e.obj, s.Name) and e.obj.name not in scope.locals else None
            if named in self.component_params:
                kind = self.component_params[named]
                return f"g.component_attr({kind!r}, g.param({named!r}), {e.name!r})"
            return f"g.attr({self.expr(e.obj, scope)}, {e.name!r})"
        if isinstance(e, s.Index):
            return f"g.item({self.expr(e.obj, scope)}, {self.expr(e.index, scope)})"
        if isinstance(e, s.Call):
            args = [self.expr(a, scope) for a in e.args]
            args += [f"{_ident(k)}={self.expr(v, scope)}" for k, v in e.kwargs]
            if isinstance(e.func, s.Member) and isinstance(e.func.obj, s.Name) and e.func.obj.name in self.states \
                    and self.states[e.func.obj.name].is_list and e.func.obj.name not in scope.locals:
                # a list state's operation (`decisions.first(E, a)`, `do decisions.append(E, a)`)
                return f"g.list_{e.func.name}({e.func.obj.name!r}, ({''.join(a + ', ' for a in args)}))"
            if not isinstance(e.func, s.Name):
                raise EmitError("only named routines can be called", e.span)
            name = e.func.name
            if name in self.states and name not in scope.locals:
                read = "state_amount" if self.states[name].is_amount else "state_has"
                return f"g.{read}({name!r}{''.join(', ' + a for a in args)})"
            if name in self.routines:
                return f"{_ident(name, 'r_')}(g{''.join(', ' + a for a in args)})"
            _ident(name)
            return f"g.b_{name}({', '.join(args)})"
        if isinstance(e, s.MatchExpr):
            # the same lowering the z3 translation runs (`MatchExpr.as_cond`)
            return self.expr(e.as_cond(), scope)
        if isinstance(e, s.Quantifier):
            var = _ident(e.var)
            inner = _Scope(scope.locals | {e.var}, scope.routines)
            # (no assignment expression may stand in a comprehension's iterable)
            was, self._in_iterable = self._in_iterable, True
            try:
                domain = self.expr(e.domain, scope)
            finally:
                self._in_iterable = was
            self._in_body += 1
            try:
                body = self.expr(e.body, inner)
            finally:
                self._in_body -= 1
            if e.kind == "all":
                return f"all({body} for {var} in {domain})"
            if e.kind == "any":
                return f"any({body} for {var} in {domain})"
            if e.kind == "sum":
                return f"sum({body} for {var} in {domain})"
            if e.kind in ("greatest", "least"):
                return f"{'max' if e.kind == 'greatest' else 'min'}(({body} for {var} in {domain}), default=0)"
            if e.kind == "filter":
                return f"[{var} for {var} in {domain} if {body}]"
            return f"sum(1 for {var} in {domain} if {body})"
        raise EmitError(f"cannot compile {type(e).__name__}", getattr(e, "span", None))

    # -- statements
    def stmts(self, body, scope: _Scope, rule: str, indent: int) -> list[str]:
        pad = "    " * indent
        out: list[str] = []
        for st in body:
            cite = _cite(getattr(st, "prov", s.NO_PROVENANCE)) or rule
            at = _at(getattr(st, "span", None))
            if at is not None and not isinstance(st, s.Match):
                # where the statement is written: a refusal raised inside it by the runtime names it
                # (`errors.clause_at` reads this line back from the traceback)
                out.append(f"{pad}# at {at}")
            if isinstance(st, s.Require):
                if not st.prov.citations:
                    cite = self.rule_for([st.cond] + ([st.unless] if st.unless else []), rule)
                cond = self.expr(st.cond, scope)
                if st.unless is not None:
                    cond = f"{cond} or {self.expr(st.unless, scope)}"
                message = st.message or f"requires {unparse(st.cond)}"
                out.append(f"{pad}if not ({cond}):")
                out.append(f"{pad}    raise IllegalAction({message!r}, rule={cite!r}, at={_at(st.span)!r})")
            elif isinstance(st, s.Transfer):
                out.append(f"{pad}g.transfer({self.expr(st.amount, scope)}, {self.expr(st.source, scope)}, {self.expr(st.target, scope)})")
            elif isinstance(st, s.Move):
                out.append(f"{pad}g.move({self.expr(st.what, scope)}, {self.expr(st.source, scope)}, {self.expr(st.target, scope)})")
            elif isinstance(st, s.Assign):
                if isinstance(st.target, s.Member):
                    out.append(f"{pad}g.set_attr({self.expr(st.target.obj, scope)}, {st.target.name!r}, {self.expr(st.value, scope)})")
                elif (isinstance(st.target, s.Call) and isinstance(st.target.func, s.Name)
                      and st.target.func.name in self.states and not st.target.kwargs):
                    parts = "".join(self.expr(a, scope) + ", " for a in st.target.args)
                    write = "state_put" if self.states[st.target.func.name].is_amount else "state_set"
                    out.append(f"{pad}g.{write}({st.target.func.name!r}, ({parts}), {self.expr(st.value, scope)})")
                elif isinstance(st.target, s.Name) and st.target.name in scope.locals:
                    out.append(f"{pad}{_ident(st.target.name)} = {self.expr(st.value, scope)}")
                else:
                    raise EmitError("`set` assigns to a local, an entity's field or a declared state's element", st.span)
            elif isinstance(st, s.Let):
                out.append(f"{pad}{_ident(st.name)} = {self.expr(st.value, scope)}")
                scope.locals.add(st.name)
            elif isinstance(st, s.If):
                for i, (cond, branch) in enumerate(st.branches):
                    out.append(f"{pad}{'if' if i == 0 else 'elif'} {self.expr(cond, scope)}:")
                    out.extend(self.stmts(branch, scope, rule, indent + 1) or [f"{pad}    pass"])
                if st.orelse:
                    out.append(f"{pad}else:")
                    out.extend(self.stmts(st.orelse, scope, rule, indent + 1) or [f"{pad}    pass"])
            elif isinstance(st, s.For):
                out.append(f"{pad}for {_ident(st.var)} in {self.expr(st.domain, scope)}:")
                inner = _Scope(scope.locals | {st.var}, scope.routines)
                out.extend(self.stmts(st.body, inner, rule, indent + 1) or [f"{pad}    pass"])
                scope.locals |= inner.locals
            elif isinstance(st, s.Match):
                # the same lowering the z3 translation runs (`Match.as_if`)
                out.extend(self.stmts((st.as_if(),), scope, rule, indent))
            elif isinstance(st, s.Do):
                out.append(f"{pad}{self.expr(st.call, scope)}")
            elif isinstance(st, s.Emit):
                args = "".join(", " + self.expr(a, scope) for a in st.args)
                out.append(f"{pad}g.emit({st.event!r}{args})")
            elif isinstance(st, s.Fail):
                out.append(f"{pad}raise IllegalAction({st.message!r}, rule={cite!r}, at={_at(st.span)!r})")
        return out

    #: builtin values a function's call reads once where it reads them for each element of a quantifier
    #: or more than once (none of them is ever none, the mark of one not yet read): the state does not
    #: change while a function is evaluated, and the read is made where the expression first makes it,
    #: so the same value and the same refusal (a title without phases reads no `phase_number` in
    #: `sum(p in phases: ...)`)
    ONCE_NAMES = frozenset({"phase_number", "phases", "train_cards", "markets", "all_ability_cards"})

    def _function_result(self, result, scope: _Scope) -> list[str]:
        """A function's body: its result returned, after the marks of the values read once a call."""
        self._once, self._once_emit = {}, frozenset()
        try:
            self.expr(result, scope)  # which of ONCE_NAMES it reads, and where
            self._once_emit = frozenset(name for name, (reads, in_body) in self._once.items()
                                        if reads > 1 or in_body)
            self._once = {}
            value = self.expr(result, scope)
            held = [f"    _once_{name} = None" for name in sorted(self._once_emit)]
        finally:
            self._once, self._once_emit = None, frozenset()
        return held + [f"    return {value}"]

    def routine(self, clause: Clause) -> str:
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        prefix = "a_" if decl.kind == "action" else "r_"
        params = [p.name for p in decl.params]
        scope = _Scope(set(params), self.routines)
        rule = (
            _cite(self.cites.get(f"{decl.kind} {decl.name}", s.NO_PROVENANCE))
            or _cite(decl.prov)
            or f"{clause.origin} {decl.kind} {decl.name}"
        )
        sig = ", ".join(["g"] + [_ident(p) for p in params])
        doc = (decl.title or decl.name) + (f" ({rule})" if rule else "")
        lines = [f"def {_ident(decl.name, prefix)}({sig}):", f"    {docstring(doc)}"]
        if decl.kind == "function":
            at = _at(getattr(decl.result, "span", None) or clause.span)
            if at is not None:
                lines.append(f"    # at {at}")
            lines.extend(self._function_result(decl.result, scope))
        else:
            lines.extend(self.stmts(decl.body, scope, rule, 1))
        return "\n".join(lines)

    #: builtins that read what the action being dispatched names beyond its parameters (its `shares`,
    #: `GameBase._named_shares`): a guard calling one is never in a probe
    ACTION_READERS = frozenset({"next_certificate"})

    #: builtins of a value with a lower bound whatever their arguments, judged once a listing: name ->
    #: the `GameBase` method that gives the bound (`probe(..., bounded=True)`)
    BOUNDS = {"lay_cost": "_least_lay_cost"}

    #: builtins of `BOUNDS` with a closer bound where an argument is known: name -> (the builtin whose
    #: value its argument is, that builtin's argument the closer bound reads, the `GameBase` method that
    #: gives it): `lay_cost(lay)` of `let lay = check_lay(C, hex, tile, rotation)` with the hex a probe's
    #: parameter, at least `_least_lay_cost_at(hex)` (a bound probe of two parameters, `qb2_`)
    BOUNDS_AT = {"lay_cost": ("check_lay", 1, "_least_lay_cost_at")}

    def _bound(self, e, scope: _Scope | None, tainted: set[str], lets: dict, lower: dict | None = None) -> str | None:
        """Python for a lower bound of expression `e` over the values of the `tainted` names (those the
        candidates enumerate), or None where there is none to give: a builtin of `BOUNDS` (whatever its
        arguments), a tainted `let`'s value (`lets`) bound so, a tainted parameter an earlier guard bounds
        (`lower`: `require p in E` gives the least of `E`, `require p >= E` gives `E`), a value that reads
        no tainted name (itself), a choice (the bound of the branch its test takes, or the lesser of the
        two where the test is tainted), a sum of bounded terms, a product of two and a quotient by a value
        that reads none (where the bounds are at least 0 and the divisor positive, else no bound: the
        probe lets the candidates through, `GameBase._least_product`). Without a `scope`, only whether
        there is one ("" for yes)."""
        lower = lower or {}

        def code(x) -> str:
            return "" if scope is None else self.expr(x, scope)

        def bound(x) -> str | None:
            return self._bound(x, scope, tainted, lets, lower)

        if isinstance(e, s.Call) and isinstance(e.func, s.Name) and e.func.name in self.BOUNDS \
                and e.func.name not in self.routines and e.func.name not in self.states:
            at = self._bound_at(e, tainted, lets)
            if at is not None:
                return "" if scope is None else f"g.{self.BOUNDS_AT[e.func.name][2]}({code(at)})"
            return "" if scope is None else f"g.{self.BOUNDS[e.func.name]}()"
        if isinstance(e, s.Name) and e.name in lets:
            return bound(lets[e.name])
        if isinstance(e, s.Name) and e.name in lower:
            return "" if scope is None else limits_code(lower[e.name], code)  # (the greatest of its limits)
        names = set(_names(e))
        if not names & tainted and not self._reaches(names, self.ACTION_READERS):
            return code(e)
        if isinstance(e, s.Cond):
            then, otherwise = (bound(x) for x in (e.then, e.otherwise))
            if then is not None and otherwise is not None:
                if scope is None:
                    return ""
                if not set(_names(e.test)) & tainted and not self._reaches(set(_names(e.test)), self.ACTION_READERS):
                    return f"({then} if {code(e.test)} else {otherwise})"
                return f"min({then}, {otherwise})"
        if isinstance(e, s.Binary) and e.op in ("+", "*"):
            left, right = (bound(x) for x in (e.left, e.right))
            if left is not None and right is not None:
                if scope is None:
                    return ""
                return f"({left} + {right})" if e.op == "+" else f"g._least_product({left}, {right})"
        if isinstance(e, s.Binary) and e.op == "/":
            names = set(_names(e.right))
            left = bound(e.left)
            if left is not None and not names & tainted and not self._reaches(names, self.ACTION_READERS):
                return "" if scope is None else f"g._least_quotient({left}, {code(e.right)})"
        return more_bound(self, e, scope, tainted, lets, lower)  # (a certificate's field, a function, a match)

    def _bound_at(self, e, tainted: set[str], lets: dict):
        """For a call `e` of a builtin of `BOUNDS_AT` whose one argument is a `let` (`lets`) of the builtin
        it names, called with no keyword, the argument that builtin's closer bound reads, where it reads
        no tainted name (a probe's parameter or what reads none); else None (the bound whatever the
        arguments)."""
        source, index, _method = self.BOUNDS_AT.get(e.func.name, (None, 0, None))
        if source is None or len(e.args) != 1 or e.kwargs or not isinstance(e.args[0], s.Name) \
                or e.args[0].name not in lets:
            return None
        value = lets[e.args[0].name]
        if not (isinstance(value, s.Call) and isinstance(value.func, s.Name) and value.func.name == source
                and value.func.name not in self.routines and value.func.name not in self.states
                and not value.kwargs and len(value.args) > index):
            return None
        arg = value.args[index]
        names = set(_names(arg))
        if names & tainted or self._reaches(names, self.ACTION_READERS):
            return None
        return arg

    def _lower_limits(self, st, tainted: set[str], lower: dict) -> None:
        """Record in `lower` the lower limits a guard `require A and B ...` (no `unless`) sets on its
        tainted parameters: a conjunct `p in E` or `p >= E` (`E <= p`) whose `E` reads no tainted name.
        A candidate that passes the guard has `p` at least the least of `E` (or `E`)."""
        if not isinstance(st, s.Require) or st.unless is not None:
            return
        todo = [st.cond]
        while todo:
            e = todo.pop()
            if not isinstance(e, s.Binary):
                continue
            if e.op == "and":
                todo += [e.left, e.right]
                continue
            op, left, right = e.op, e.left, e.right
            if op in ("<=", "<"):
                op, left, right = {"<=": ">=", "<": ">"}[op], right, left
            if op not in ("in", ">=", ">") or not isinstance(left, s.Name) or left.name not in tainted:
                continue
            names = set(_names(right))
            if names & tainted or self._reaches(names, self.ACTION_READERS):
                continue
            lower[left.name] = lower.get(left.name, ()) + ((op, right),)  # (each a lower limit: `limits_code`)

    def _bounded_guard(self, st, scope: _Scope | None, tainted: set[str], lets: dict, rule: str,
                       lower: dict | None = None) -> list[str] | None:
        """The lines of a guard `require A >= B` (or `>`, `<=`, `<`) whose `A` reads no tainted name and
        whose `B` has a lower bound (`_bound`), judged with the bound for `B`: where `A` is under the
        bound it is under `B` for every candidate, which the guard refuses. None for any other guard;
        without a `scope`, [] for such a guard."""
        if not isinstance(st, s.Require) or st.unless is not None or not isinstance(st.cond, s.Binary):
            return None
        op, left, right = st.cond.op, st.cond.left, st.cond.right
        if op in ("<=", "<"):
            op, left, right = {"<=": ">=", "<": ">"}[op], right, left
        names = set(_names(left))
        if op not in (">=", ">") or names & tainted or self._reaches(names, self.ACTION_READERS):
            return None
        bound = self._bound(right, scope, tainted, lets, lower)
        if bound is None or scope is None:
            return None if bound is None else []
        cite = self.rule_for([st.cond], rule) if not st.prov.citations else _cite(st.prov)
        message = st.message or f"requires {unparse(st.cond)}"
        at = _at(st.span)
        return [f"    # at {at}"] * (at is not None) + [
            f"    if not ({self.expr(left, scope)} {op} {bound}):",
            f"        raise IllegalAction({message!r}, rule={cite!r}, at={at!r})"]

    def trigger(self, clause: Clause) -> tuple[str, str, str | None]:
        decl: s.Trigger = clause.decl  # type: ignore[assignment]
        names = [a.name for a in decl.event.args if isinstance(a, s.Name)]
        scope = _Scope(set(names), self.routines)
        rule = _cite(decl.prov) or ""
        params = ", ".join(["g"] + [_ident(n) for n in names] + ["*_rest"])
        fn = _ident(decl.name, "t_")
        lines = [f"def {fn}({params}):", f"    {docstring(decl.title or decl.name)}"]
        lines.extend(self.stmts(decl.body, scope, rule, 1) or ["    pass"])
        when_fn = None
        filters = [(i, a) for i, a in enumerate(decl.event.args) if not isinstance(a, s.Name)]
        if decl.event.when is not None or filters:
            when_fn = _ident(decl.name, "w_")
            conds = []
            for i, lit in filters:
                conds.append(f"(len(_args) > {i} and _args[{i}] == {py_value(lit)})")
            inner = _Scope(set(names), self.routines)
            if decl.event.when is not None:
                conds.append(self.expr(decl.event.when, inner))
            binds = "".join(f"    {_ident(n)} = _args[{i}] if len(_args) > {i} else None\n"
                            for i, n in enumerate(names))
            lines.append("")
            lines.append(f"def {when_fn}(g, *_args):\n{binds}    return {' and '.join(conds) or 'True'}")
        return decl.event.name, "\n".join(lines), when_fn


# ---------------------------------------------------------------- the module


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def library_of(titles: list[Title], sources) -> Library | None:
    """The library the `titles` share: each library clause as most titles have it (a title whose
    variant or erratum changed one carries its own). None without `sources` (no digests to name
    the library by)."""
    if sources is None:
        return None
    from collections import Counter

    values: dict[tuple[str, str], Counter] = {}
    cites: dict[str, Counter] = {}
    paths: set[str] = set()
    for title in titles:
        for clause in title.clauses:
            if clause.origin.kind != "library":
                continue
            paths.add(clause.span.path)
            if isinstance(clause.decl, s.Component):
                values.setdefault((clause.decl.kind, clause.decl.key), Counter())[
                    component_value(clause.decl, title.kind_defaults(clause.decl.kind))] += 1
            cite = _cite(clause.prov)
            if cite:
                cites.setdefault(f"{clause.kind} {clause.name}", Counter())[cite] += 1
    digests = tuple((path, sources.digest(path)) for path in sorted(p for p in paths if p))
    if not values or any(digest is None for _, digest in digests):
        return None
    return Library(
        components={key: counter.most_common(1)[0][0] for key, counter in values.items()},
        rules={name: counter.most_common(1)[0][0] for name, counter in cites.items()},
        sources=digests,
    )


def library_functions_of(families: list[list[EngineParts]], modules: list[TitleModule | None]) -> dict[str, str]:
    """The library's compiled routines as most titles compile them, where two or more do: each
    title's as its shared module holds them (`modules`, one per family of `families`; a title with
    none, one engine, carries its routines itself). A routine whose code reads the title's data, or
    that a title replaces, compiles otherwise in that title, which keeps its own."""
    versions = []
    for family, module in zip(families, modules, strict=True):
        if module is not None:
            ours = set().union(*(engine.library_functions for engine in family))
            versions.append({name: source for name, source in module.functions.items() if name in ours})
    return _most_common(versions)


@dataclass
class EngineParts:
    """An engine's pieces as the template lays them out, compiled once (`parts`)."""

    title: Title
    properties: list[tuple[str, str]]
    #: kind -> [(key, value)], in clause order
    components: dict[str, list[tuple[str, str]]]
    #: every citation by rule name, the "at action" places included
    rules: dict[str, str]
    #: (name, section, source) of each compiled function; section: routine, probe or trigger
    functions: list[tuple[str, str, str]]
    #: the names of those compiled from a library clause
    library_functions: frozenset[str]
    routines: list[tuple[str, str]]  # (ROUTINES key, function name)
    action_params: list[tuple[str, str]]
    action_defaults: list[tuple[str, str]]
    probes: list[tuple[str, str]]  # (action, function)
    pair_probes: list[tuple[str, str]]
    bound_probes: list[tuple[str, str]]
    prefix_probes: list[tuple[str, str]]  # (action, a tuple of (arity, function) as source)
    static_probes: list[tuple[str, str]]
    round_probes: list[tuple[str, str]]
    step_probes: list[tuple[str, str]]
    default_probes: list[tuple[str, str]]  # (action, function): `Compiler.probe(..., defaults=True)`
    trigger_table: list[tuple[str, list[tuple[str | None, str]]]]
    states: list[tuple[str, object]]
    #: the fields of a record of the train cards and the phases (`Title.card_fields`): kind -> ((name, as a list), ...)
    cards: list[tuple[str, tuple[tuple[str, bool], ...]]]

    def tables(self) -> dict[str, str]:
        """The engine class's data tables (`CLASS_TABLES`) it has, each as the source of a dict literal."""
        entries = {"ACTION_PARAMS": self.action_params, "ACTION_DEFAULTS": self.action_defaults,
                   "STATES": [(name, repr(reset)) for name, reset in self.states],
                   "CARDS": [(kind, repr(fields)) for kind, fields in self.cards]}
        return {name: "{\n" + "".join(f"    {key!r}: {value},\n" for key, value in entries[name]) + "}"
                for name in CLASS_TABLES if entries[name] or name == "ACTION_PARAMS"}


def parts(title: Title) -> EngineParts:
    """An engine's data and compiled functions (what `render_module` lays out)."""
    compiler = Compiler(title)
    properties = []
    values: dict[str, list[tuple[str, str]]] = {}
    for clause in title.clauses:
        decl = clause.decl
        if isinstance(decl, s.Property):
            properties.append((decl.name, py_value(decl.value)))
        elif isinstance(decl, s.Table):
            properties.append((decl.name, table_value(decl)))
        elif isinstance(decl, s.Component):
            values.setdefault(decl.kind, []).append((decl.key, component_value(decl, title.kind_defaults(decl.kind))))
    functions: list[tuple[str, str, str]] = []
    probe_functions: list[tuple[str, str, str]] = []
    routines = []
    action_params = []
    probes = []  # (action, function): each action's listing probe (`Compiler.probe`)
    pair_probes = []  # the same of its first two parameters
    bound_probes = []  # its probe with the guards a lower bound judges (`Compiler.probe(..., bounded=True)`)
    static_probes = []  # its opening guards that read nothing that changes during play (`Compiler.static_probe`)
    round_probes = []  # its opening guards that read only the round (`Compiler.round_probe`)
    step_probes = []  # its opening guards that read only the round, the step and whose turn (`Compiler.step_probe`)
    prefix_probes = []  # its probes of more parameters, and bound probes of two or more: (action, tuple source)
    default_probes = []  # its probe of its entity and optional parameters (`Compiler.probe(..., defaults=True)`)
    action_defaults = []  # an action's optional fields: the value bound where a log leaves one out
    pair_functions = []
    library_functions: set[str] = set()  # those compiled from a library clause: its routine and probes
    for clause in title.clauses:
        written = (len(functions), len(probe_functions), len(pair_functions))
        if clause.kind in ("action", "procedure", "function"):
            fn = _ident(clause.name, "a_" if clause.kind == "action" else "r_")
            functions.append((fn, "routine", compiler.routine(clause)))
            routines.append(("action:" + clause.name if clause.kind == "action" else clause.name, fn))
            if clause.kind == "action":
                decl = clause.decl
                params = [
                    (p.name, (str(p.type),) if p.type.is_list else tuple(str(a) for a in p.type.alternatives))
                    for p in decl.params
                ]
                action_params.append((decl.name, repr(params)))
                probe = compiler.probe(clause)
                if probe is not None:
                    probes.append((decl.name, _ident(decl.name, "q_")))
                    probe_functions.append((_ident(decl.name, "q_"), "probe", probe))
                pair = compiler.probe(clause, 2)
                if pair is not None:
                    pair_probes.append((decl.name, _ident(decl.name, "q2_")))
                    pair_functions.append((_ident(decl.name, "q2_"), "probe", pair))
                static = compiler.static_probe(clause)
                if static is not None:
                    static_probes.append((decl.name, _ident(decl.name, "qs_")))
                    pair_functions.append((_ident(decl.name, "qs_"), "probe", static))
                by_round = compiler.round_probe(clause)
                if by_round is not None:
                    round_probes.append((decl.name, _ident(decl.name, "qr_")))
                    pair_functions.append((_ident(decl.name, "qr_"), "probe", by_round))
                by_step = compiler.step_probe(clause)
                if by_step is not None:
                    step_probes.append((decl.name, _ident(decl.name, "qt_")))
                    pair_functions.append((_ident(decl.name, "qt_"), "probe", by_step))
                at_defaults = compiler.probe(clause, defaults=True)
                if at_defaults is not None:
                    default_probes.append((decl.name, _ident(decl.name, "qd_")))
                    pair_functions.append((_ident(decl.name, "qd_"), "probe", at_defaults))
                bound = compiler.probe(clause, bounded=True)
                if bound is not None:
                    bound_probes.append((decl.name, _ident(decl.name, "qb_")))
                    pair_functions.append((_ident(decl.name, "qb_"), "probe", bound))
                # the probes of more parameters (`q3_`, ...) and the bound probes of two or more (`qb2_`,
                # ...) where they judge a guard no probe of fewer judges: asked of each candidate tried
                # (`GameBase._prefix_refused`)
                prefixed = []
                judged = bound and bound.split('"""', 2)[2]
                for arity in range(2, len(decl.params)):
                    source = compiler.probe(clause, arity) if arity >= 3 else None
                    if source is not None:
                        prefixed.append((arity, False))
                        pair_functions.append((_ident(decl.name, probe_prefix(arity, False)), "probe", source))
                    # a bound probe where it judges a guard the one of fewer parameters does not, or judges
                    # one with a closer bound (its guards' code differs)
                    guards = compiler.probe(clause, arity, bounded=True)
                    body = guards and guards.split('"""', 2)[2]
                    if body and body != judged:
                        prefixed.append((arity, True))
                        pair_functions.append((_ident(decl.name, probe_prefix(arity, True)), "probe", guards))
                    judged = body or judged
                if prefixed:
                    prefix_probes.append((decl.name, "(" + "".join(
                        f"({arity}, {_ident(decl.name, probe_prefix(arity, bounded))}), " for arity, bounded in prefixed) + ")"))
                optional = {p.name: py_value(p.default) for p in decl.params if p.default is not None}
                if optional:
                    action_defaults.append((decl.name, "{" + ", ".join(f"{k!r}: {v}" for k, v in optional.items()) + "}"))
        if clause.origin.kind == "library":
            for made, start in zip((functions, probe_functions, pair_functions), written, strict=True):
                library_functions.update(name for name, _, _ in made[start:])
    functions += probe_functions + pair_functions
    # every trigger of an event, in clause order (one dict entry per event: a title may have several)
    by_event: dict[str, list[tuple[str | None, str]]] = {}
    for clause in title.clauses:
        if clause.kind == "trigger":
            event, source, when = compiler.trigger(clause)
            fn = _ident(clause.name, "t_")
            if when is not None:
                source, rest = source.split(f"\n\ndef {when}(", 1)
                functions += [(fn, "trigger", source), (when, "trigger", f"def {when}({rest}")]
            else:
                functions.append((fn, "trigger", source))
            by_event.setdefault(event, []).append((when, fn))
            if clause.origin.kind == "library":
                library_functions.update((fn, when) if when is not None else (fn,))
    rules = {}
    for clause in title.clauses:
        cite = _cite(clause.prov)
        if cite:
            rules[f"{clause.kind} {clause.name}"] = cite
        if clause.kind == "action" and _at(clause.span) is not None:
            # where the action is written: `rulec play` names it when the monitor finds an invariant broken
            rules[f"at action {clause.name}"] = _at(clause.span)
    return EngineParts(
        title=title, properties=properties, components=values, rules=rules, functions=functions,
        library_functions=frozenset(library_functions),
        routines=routines, action_params=action_params, action_defaults=action_defaults, probes=probes,
        pair_probes=pair_probes, bound_probes=bound_probes, prefix_probes=prefix_probes, static_probes=static_probes,
        round_probes=round_probes, step_probes=step_probes,
        default_probes=default_probes, trigger_table=list(by_event.items()),
        states=[(name, decl.reset_on) for name, decl in compiler.states.items()],
        cards=[(kind, title.card_fields(kind)) for kind in (*CARD_KINDS, *ability_card_kind(title)) if title.card_fields(kind)],
    )


def title_module_of(engines: list[EngineParts], sources) -> TitleModule | None:
    """What a title's engines share (`engines`: the title's first, then its variants and readings);
    None without `sources` (no digests to name the module by) or where nothing is shared by two."""
    if sources is None or len(engines) < 2:
        return None
    components: list[dict] = []
    for engine in engines:
        mine = {}
        for kind, items in engine.components.items():
            keys = [key for key, _ in items]
            # a key listed twice in a kind is never named (`TitleData.component` takes the first)
            mine.update({(kind, key): value for key, value in items if keys.count(key) == 1})
        components.append(mine)
    shared = _most_common(components)
    lists: dict[str, list[str]] = {}
    for engine in engines:
        for kind, items in engine.components.items():
            known = lists.setdefault(kind, [])
            known += [key for key, _ in items if (kind, key) in shared and key not in known]
    functions = _most_common([{name: source for name, _, source in e.functions} for e in engines])
    if not functions and not shared:
        return None
    digests = sorted({pair for e in engines for pair in _digests(e.title, sources)})
    return TitleModule(
        name="d_" + engine_name(engines[0].title.name).removeprefix("t_"),
        sources=tuple(digests),
        # every property, in the title's order (an engine's are in the order of the module's)
        properties=_most_common([dict(e.properties) for e in engines], least=1),
        components=shared,
        lists={kind: keys for kind, keys in lists.items() if keys},
        rules=_most_common([e.rules for e in engines]),
        functions=functions,
        tables=_most_common([e.tables() for e in engines]),
    )


def render_module(title: Title, sources=None, library: Library | None = None,
                  title_module: TitleModule | None = None, engine: EngineParts | None = None) -> str:
    """The engine module's source for one title (or title + variant), unformatted.

    `sources`: the `SourceMap` the title was read from; the module records a
    digest of each file the title is built from (`SOURCES`), so that a stale
    engine is noticed (`compiler.emit.engines.current_game_class`).
    `library`: the shared library (`generated/library.py`) the engine names its library
    components and citations from; `title_module`: what the title's engines share
    (`generated/d_<title>.py`), the data and compiled functions the engine names from it. None for
    an engine that carries them all (one built in memory). `engine`: its `parts`, where compiled."""
    engine = engine or parts(title)
    components = {kind: _shared_components(kind, items, library, title_module)
                  for kind, items in engine.components.items()}
    # the properties, citations and functions as the engine changes the title module's
    properties = own_properties = unshared_properties = None
    rules = unshared_rules = None
    unshared_functions: list[str] = []
    shared_functions: set[str] = set()
    if title_module is not None:
        own_properties, unshared_properties = _relative(dict(engine.properties), title_module.properties)
        merged = [n for n in title_module.properties if n not in unshared_properties]
        merged += [n for n in own_properties if n not in title_module.properties]
        if merged != [name for name, _ in engine.properties]:
            own_properties = unshared_properties = None  # not in the module's order: written whole
        rules, unshared_rules = _relative(engine.rules, title_module.rules)
        mine = {name: source for name, _, source in engine.functions}
        own_functions, unshared_functions = _relative(mine, title_module.functions)
        unshared_functions = sorted(set(unshared_functions) | (set(own_functions) & set(title_module.functions)))
        shared_functions = set(mine) - set(own_functions)
    elif library is not None:
        rules, unshared_rules = _relative(engine.rules, library.rules)
        # the library's citations this title does not share (it has no such rule, or its own)
        unshared_rules = sorted(set(unshared_rules) | (set(rules) & set(library.rules)))
    if own_properties is None:
        properties = engine.properties
    template = _environment().get_template("engine.py.j2")
    return template.render(
        sources=_digests(title, sources),
        title=title,
        title_name=repr(title.name),
        variant=repr(title.variant),
        chain=" -> ".join(str(o) for o in title.chain),
        properties=properties,
        own_properties=list((own_properties or {}).items()),
        unshared_properties=sorted(unshared_properties or []),
        components=sorted(components.items()),
        functions=[(name, section, source) for name, section, source in engine.functions
                   if name not in shared_functions],
        unshared_functions=unshared_functions,
        routines=engine.routines,
        action_params=engine.action_params,
        action_defaults=engine.action_defaults,
        probes=engine.probes,
        pair_probes=engine.pair_probes,
        bound_probes=engine.bound_probes,
        prefix_probes=engine.prefix_probes,
        static_probes=engine.static_probes,
        round_probes=engine.round_probes,
        step_probes=engine.step_probes,
        default_probes=engine.default_probes,
        trigger_table=engine.trigger_table,
        tables=[(name, "_TITLE.table(" + repr(name) + ")"
                 if title_module is not None and title_module.tables.get(name) == source
                 else source.replace("\n", "\n    "))
                for name, source in engine.tables().items()],
        rules=sorted((engine.rules if rules is None else rules).items()),
        library=library,
        title_module=title_module,
        unshared_rules=sorted(unshared_rules or []),
        wrap=wrapped_list,
        repr=repr,
        docstring=docstring,
    )


def format_source(source: str) -> str:
    """Format with the pinned ruff (`python -m ruff format -`); the text it gave for the same source
    and ruff's version is taken from the build cache (`compiler.memo`): a build re-emitting every
    engine after an erratum formats only the modules whose text changed."""
    from importlib import metadata

    from compiler import memo

    try:
        version = metadata.version("ruff")
    except metadata.PackageNotFoundError:
        version = None
    key = memo.digest("ruff format --line-length 100", version, source) if version else None
    found = memo.recall("ruff", key) if key else None
    if isinstance(found, str):
        return found
    formatted = _ruff_format(source)
    if key:
        memo.keep("ruff", key, formatted)
    return formatted


def _ruff_format(source: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--line-length", "100", "-"],
        input=source, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise EmitError(f"ruff could not format the generated module: {done.stderr.strip()}")
    return done.stdout


def emit_title(title: Title, sources=None, library: Library | None = None,
               title_module: TitleModule | None = None, engine: EngineParts | None = None) -> str:
    """An engine's source, formatted; with `library` and `title_module`, naming what it shares."""
    return format_source(render_module(title, sources, library, title_module, engine))


def outputs(titles: list[Title], sources=None, remember: bool = False) -> dict[Path, str]:
    """Every generated file: path -> text (the package's __init__ included). `sources`: the `SourceMap`
    the titles were read from (`render_module`); `remember`: each title's parts from the build cache."""
    files: dict[Path, str] = {}
    names = []
    library = library_of(titles, sources)
    families: dict[str, list[EngineParts]] = {}
    for title, engine in zip(titles, remembered_parts(titles, sources if remember else None, parts, EngineParts), strict=True):  # title, then variants
        families.setdefault(title.name, []).append(engine)
    for family in families.values():
        family.sort(key=lambda engine: engine.title.variant is not None)
    modules = [title_module_of(family, sources) if library is not None else None for family in families.values()]
    if library is not None:
        library = replace(library, functions=library_functions_of(list(families.values()), modules))
        files[GENERATED / "library.py"] = format_source(render_library(library))
    for family, title_module in zip(families.values(), modules, strict=True):
        if title_module is not None:
            files[GENERATED / f"{title_module.name}.py"] = format_source(
                render_title_module(title_module, family[0].title, library))
        for engine in family:
            files[GENERATED / f"{module_name(engine.title)}.py"] = emit_title(
                engine.title, sources, library, title_module, engine)
    for title in titles:
        names.append((title, module_name(title)))
    index = ['"""Generated engines, one module per title and variant. Do not edit: `rulec compile`."""', "", "ENGINES = {"]
    for title, name in names:
        index.append(f"    ({title.name!r}, {title.variant!r}): {name!r},")
    index.append("}")
    files[GENERATED / "__init__.py"] = "\n".join(index) + "\n"
    return files
