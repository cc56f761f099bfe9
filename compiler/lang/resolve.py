"""Stage 2, resolve: parsed modules -> `ir.Program`, plus diagnostics.

Applies, for each title: the libraries it uses, the title it `extends`, its
own clauses, then its errata; each variant is that title with the variant
applied on top. An erratum holding an `implementation` property is an implementation's reading
(18xx.games' decisions where the rulebook is silent or where the site differs): it is not applied to
the title, nor to a title extending it; it is resolved as a variant of its own, on the title and on
top of each of the title's variants (`ir.Program`), or of those it lists in `reading_variants`. Reports:

- E010 an unknown library, title or variant base;
- E011 a clause defined twice (a note points at the first definition; a clause
  that a library or base title already defines must be written `replace`);
- E012 replace / amend / remove naming a clause the base does not have;
- E013 a cycle of `extends` (or of libraries using each other);
- E014 two units with the same name, or names that make one engine's name (`Toy`, `TOY`: t_toy), or
  a title or variant whose name makes none (`""`);
- E015 an unknown name in an action, procedure, function, trigger or invariant;
- E016 an item that this kind of unit may not hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace as dc_replace
from typing import Iterable

from compiler.lang import syntax as s
from compiler.lang.builtins import table as builtin_table
from compiler.diagnostics import Diagnostic, Span, error
from compiler.lang.ir import Clause, Origin, Program, Removal, Title, statements
from compiler.names import slug


@dataclass
class _Scope:
    """The clauses of a title under construction, in definition order."""

    clauses: dict[tuple[str, str], Clause] = field(default_factory=dict)
    sections: dict[str, s.Section] = field(default_factory=dict)
    removals: list[Removal] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    chain: list[Origin] = field(default_factory=list)
    rulebook: str | None = None

    def copy(self) -> "_Scope":
        return _Scope(
            dict(self.clauses), dict(self.sections), list(self.removals),
            list(self.libraries), list(self.chain), self.rulebook,
        )


def _decl_key(decl: s.Decl) -> tuple[str, str]:
    return decl.clause_key


def is_reading(unit: s.Unit) -> bool:
    """Whether `unit` is an implementation's reading of its title: an erratum holding an
    `implementation` property (`errata "18xx.games" of "1846" { implementation: "18xx.games" ... }`)."""
    return unit.kind == "errata" and any(isinstance(item, s.Property) and item.name == "implementation"
                                         for item in unit.items)


def _reads_variant(reading: s.Unit, variant: str) -> bool:
    """Whether an implementation's reading also covers the title's variant `variant`: every variant,
    unless the reading lists the ones it covers (`reading_variants: [...]`; [] where the implementation
    plays none of them)."""
    prop = next((item for item in reading.items if isinstance(item, s.Property) and item.name == "reading_variants"),
                None)
    if prop is None or not isinstance(prop.value, s.ListLit):
        return True
    return variant in [item.value for item in prop.value.items if isinstance(item, s.Str)]


def _unit_label(unit: s.Unit) -> str:
    return f"{unit.kind} {unit.name!r}" + (f" of {unit.base!r}" if unit.kind in ("variant", "errata") else "")


#: Library units -> (the units, what resolving each of them on its own found); see
#: `Resolver._check_libraries`. Keyed by the units' ids, checked by identity of the units kept.
LIBRARY_FINDINGS: dict[tuple[int, ...], tuple[tuple[s.Unit, ...], tuple[Diagnostic, ...]]] = {}


class Resolver:
    def __init__(self, modules: Iterable[s.Module]):
        self.modules = list(modules)
        self.diagnostics: list[Diagnostic] = []
        self.libraries: dict[str, s.Unit] = {}
        self.titles: dict[str, s.Unit] = {}
        self.variants: dict[str, list[s.Unit]] = {}
        self.errata: dict[str, list[s.Unit]] = {}
        self.readings: dict[str, list[s.Unit]] = {}
        self._title_scopes: dict[str, _Scope | None] = {}
        self._resolving: list[str] = []
        self._reported: set[tuple[str, Span | None, str]] = set()

    # -- diagnostics
    def _report(self, diagnostic: Diagnostic) -> None:
        key = (diagnostic.code, diagnostic.span, diagnostic.message)
        if key in self._reported:
            return
        self._reported.add(key)
        self.diagnostics.append(diagnostic)

    # -- indexing
    def _index(self) -> None:
        for module in self.modules:
            for unit in module.units:
                if unit.kind == "library":
                    self._add_named(self.libraries, unit)
                elif unit.kind == "title":
                    self._add_named(self.titles, unit)
                elif unit.kind == "variant":
                    siblings = self.variants.setdefault(unit.base or "", [])
                    self._check_unique(siblings, unit)
                    siblings.append(unit)
                else:
                    table = self.readings if is_reading(unit) else self.errata
                    siblings = table.setdefault(unit.base or "", [])
                    self._check_unique(self.errata.get(unit.base or "", []) + self.readings.get(unit.base or "", []), unit)
                    siblings.append(unit)

    def _add_named(self, table: dict[str, s.Unit], unit: s.Unit) -> None:
        first = table.get(unit.name)
        if first is not None:
            self._report(error(
                "E014", f"{unit.kind} {unit.name!r} is defined twice", unit.name_span,
                notes=((first.name_span, "first defined here"),),
            ))
            return
        if unit.kind == "title":
            self._check_engine_name(table.values(), unit)
        table[unit.name] = unit

    def _check_unique(self, siblings: list[s.Unit], unit: s.Unit) -> None:
        for other in siblings:
            if other.name == unit.name:
                self._report(error(
                    "E014", f"{_unit_label(unit)} is defined twice", unit.name_span,
                    notes=((other.name_span, "first defined here"),),
                ))
                return
        if unit.kind == "variant":
            self._check_engine_name(siblings, unit)

    def _check_engine_name(self, others: Iterable[s.Unit], unit: s.Unit) -> None:
        """E014 for a title or variant whose name makes no engine name, or the one another's makes: the
        engines are files named by the names' slugs (`compiler.names.engine_name`), and `rulec compile`
        wrote the second over the first."""
        mine = slug(unit.name)
        if not mine:
            self._report(error(
                "E014", f"{_unit_label(unit)} has no letter or digit in its name: it names no engine",
                unit.name_span, help="name it as the box does: `title \"1846\"`, `variant \"Two-Player\"`"))
            return
        for other in others:
            if other.name != unit.name and slug(other.name) == mine:
                self._report(error(
                    "E014", f"{_unit_label(unit)} and {_unit_label(other)} make one engine name, {mine!r}: "
                            "one engine would be written over the other", unit.name_span,
                    notes=((other.name_span, "the other"),),
                    help="names differing only in case, spaces or punctuation name one title: rename one"))
                return

    # -- the main walk
    def run(self) -> Program:
        self._index()
        for base, variants in self.variants.items():
            if base not in self.titles:
                for unit in variants:
                    self._report(self._unknown_title(unit, base))
        for base, errata in list(self.errata.items()) + list(self.readings.items()):
            if base not in self.titles:
                for unit in errata:
                    self._report(self._unknown_title(unit, base))
        titles: dict[str, Title] = {}
        variants: dict[tuple[str, str], Title] = {}
        for name, unit in self.titles.items():
            scope = self._title_scope(name)
            if scope is None:
                continue
            title = self._freeze(unit, scope, None)
            self._check_names(title)
            titles[name] = title
            seen: set[str] = set()
            for variant in self.variants.get(name, []):
                if variant.name in seen:
                    continue
                seen.add(variant.name)
                vscope = scope.copy()
                self._apply_unit(vscope, variant)
                vtitle = self._freeze(unit, vscope, variant.name)
                self._check_names(vtitle)
                variants[(name, variant.name)] = vtitle
            plain = [v.name for v in self.variants.get(name, [])]
            for reading in self.readings.get(name, []):
                for base_variant in [None] + [v for v in dict.fromkeys(plain) if _reads_variant(reading, v)]:
                    rscope = scope.copy()
                    if base_variant is not None:
                        self._apply_unit(rscope, next(v for v in self.variants[name] if v.name == base_variant))
                    self._apply_unit(rscope, reading)
                    shown = reading.name if base_variant is None else f"{base_variant}, {reading.name}"
                    rtitle = dc_replace(self._freeze(unit, rscope, shown), reading=reading.name,
                                        base_variant=base_variant)
                    self._check_names(rtitle)
                    variants[(name, shown)] = rtitle
        self._check_libraries()
        return Program(titles, variants)

    def _check_libraries(self) -> None:
        """Each library resolved on its own, for what is wrong inside it (a title reports only what
        it uses). The findings depend on the library units alone, which are frozen: they are kept
        for the same units (`LIBRARY_FINDINGS`), so that a load reusing parsed libraries (the
        language server on each edit, `load_texts(parsed=...)`) does not resolve them again."""
        units = tuple(self.libraries.values())
        key = tuple(id(u) for u in units)
        known = LIBRARY_FINDINGS.get(key)
        if known is None or any(a is not b for a, b in zip(known[0], units)):
            before = len(self.diagnostics)
            reported = set(self._reported)
            self._reported = set()
            try:
                for library in units:
                    self._library_scope(library, [])
                found = tuple(self.diagnostics[before:])
            finally:
                del self.diagnostics[before:]
                self._reported = reported
            if len(LIBRARY_FINDINGS) > 8:
                LIBRARY_FINDINGS.clear()
            known = LIBRARY_FINDINGS[key] = (units, found)
        for diagnostic in known[1]:
            self._report(diagnostic)

    def _unknown_title(self, unit: s.Unit, base: str) -> Diagnostic:
        known = ", ".join(sorted(self.titles)) or "none"
        return error(
            "E010", f"{_unit_label(unit)} overlays unknown title {base!r}", unit.base_span,
            help=f"titles defined: {known}",
        )

    def _title_scope(self, name: str) -> _Scope | None:
        if name in self._title_scopes:
            return self._title_scopes[name]
        unit = self.titles[name]
        if name in self._resolving:
            cycle = " -> ".join(self._resolving[self._resolving.index(name):] + [name])
            self._report(error("E013", f"title {name!r} extends itself: {cycle}", unit.base_span))
            return None
        self._resolving.append(name)
        try:
            if unit.base is not None:
                if unit.base not in self.titles:
                    self._report(self._unknown_title(unit, unit.base))
                    scope = _Scope()
                else:
                    base_scope = self._title_scope(unit.base)
                    if base_scope is None:
                        self._title_scopes[name] = None
                        return None
                    scope = base_scope.copy()
            else:
                scope = _Scope()
            self._apply_unit(scope, unit)
            for erratum in self.errata.get(name, []):
                self._apply_unit(scope, erratum)
        finally:
            self._resolving.pop()
        self._title_scopes[name] = scope
        return scope

    def _library_scope(self, unit: s.Unit, stack: list[str]) -> _Scope:
        scope = _Scope()
        self._apply_library(scope, unit, stack)
        return scope

    def _apply_library(self, scope: _Scope, unit: s.Unit, stack: list[str]) -> None:
        if unit.name in stack:
            self._report(error(
                "E013", f"library {unit.name!r} uses itself: {' -> '.join(stack + [unit.name])}",
                unit.name_span,
            ))
            return
        if unit.name in scope.libraries:
            return
        scope.libraries.append(unit.name)
        self._apply_unit(scope, unit, stack + [unit.name])

    def _apply_unit(self, scope: _Scope, unit: s.Unit, lib_stack: list[str] | None = None) -> None:
        origin = Origin(unit.kind, unit.name)
        own: dict[tuple[str, str], Span] = {}
        own_sections: dict[str, Span] = {}
        # Libraries first, wherever the `uses` is written: a unit's own
        # clauses are applied on top of the libraries it uses.
        uses = [item for item in unit.items if isinstance(item, s.Uses)]
        rest = [item for item in unit.items if not isinstance(item, s.Uses)]
        for item in uses:
                if unit.kind not in ("title", "library"):
                    self._report(error("E016", f"a {unit.kind} cannot use a library; its title does", item.span))
                    continue
                library = self.libraries.get(item.library)
                if library is None:
                    known = ", ".join(sorted(self.libraries)) or "none"
                    self._report(error(
                        "E010", f"unknown library {item.library!r}", item.span,
                        help=f"libraries defined: {known}",
                    ))
                    continue
                self._apply_library(scope, library, lib_stack or [])
        scope.chain.append(origin)
        for item in rest:
            if isinstance(item, s.Rulebook):
                if unit.kind == "library":
                    self._report(error("E016", "a library has no rulebook", item.span))
                elif unit.kind == "title":
                    scope.rulebook = item.name
            elif isinstance(item, s.Section):
                sid = item.citation.section_id
                if sid in own_sections:
                    self._report(error(
                        "E011", f"section {item.citation} is declared twice", item.span,
                        notes=((own_sections[sid], "first declared here"),),
                    ))
                    continue
                own_sections[sid] = item.span
                scope.sections[sid] = item
            elif isinstance(item, s.Cite):
                if (item.kind, item.name) not in scope.clauses:
                    self._report(self._missing_target("cite", (item.kind, item.name), item.span, scope))
                    continue
                self._define(scope, item, origin, own, unit)
            elif isinstance(item, s.Replace):
                self._replace(scope, item, origin, own)
            elif isinstance(item, s.Amend):
                self._amend(scope, item, origin, own)
            elif isinstance(item, s.Remove):
                self._remove(scope, item, origin)
            else:
                self._define(scope, item, origin, own, unit)

    def _define(self, scope, decl, origin, own, unit) -> None:
        key = _decl_key(decl)
        existing = scope.clauses.get(key)
        if isinstance(decl, s.KindDecl) and existing is not None:
            self._extend_kind(scope, decl, existing, origin)
            return
        if key in own:
            self._report(error(
                "E011", f"{_describe(key)} is defined twice in {origin}", decl.span,
                notes=((own[key], "first defined here"),),
            ))
            return
        if existing is not None:
            self._report(error(
                "E011", f"{_describe(key)} is already defined by {existing.origin}", decl.span,
                notes=((existing.span, "defined here"),),
                help=f"to change it, write `replace` before it (or `amend {key[0]} {key[1]}` to change some properties)",
            ))
            return
        own[key] = decl.span
        scope.clauses[key] = Clause(key[0], key[1], decl, origin)

    def _extend_kind(self, scope, decl: s.KindDecl, existing: Clause, origin) -> None:
        """A kind declared again adds its properties to the kind (a title's own
        properties of a library kind); a property declared twice is E011."""
        base: s.KindDecl = existing.decl  # type: ignore[assignment]
        params = list(base.params)
        for param in decl.params:
            first = base.get(param.name)
            if first is not None:
                self._report(error(
                    "E011", f"property {param.name!r} of kind {decl.name!r} is declared twice", param.span,
                    notes=((first.span, "first declared here"),),
                ))
                continue
            params.append(param)
        merged = dc_replace(base, params=tuple(params))
        scope.clauses[existing.key] = Clause(existing.kind, existing.name, merged, existing.origin, "amended", existing)

    def _replace(self, scope, item: s.Replace, origin, own) -> None:
        key = _decl_key(item.decl)
        existing = scope.clauses.get(key)
        if existing is None:
            self._report(self._missing_target("replace", key, item.span, scope))
            return
        if key in own:
            self._report(error(
                "E011", f"{_describe(key)} is replaced in the same {origin.kind} that defines it",
                item.span, notes=((own[key], "defined here"),),
            ))
            return
        own[key] = item.span
        scope.clauses[key] = Clause(key[0], key[1], item.decl, origin, "replaced", existing)

    def _amend(self, scope, item: s.Amend, origin, own) -> None:
        key = (item.kind, item.key)
        existing = scope.clauses.get(key)
        if existing is None or not isinstance(existing.decl, s.Component):
            self._report(self._missing_target("amend", key, item.span, scope))
            return
        base: s.Component = existing.decl
        props = {p.name: p for p in base.properties}
        for prop in item.properties:
            props[prop.name] = prop
        children = {(c.kind, c.key): c for c in base.children}
        for child in item.children:
            children[(child.kind, child.key)] = child
        # the amendment's citations after the clause's own, a source both cite once (a train amended by
        # an erratum that cites the section the train is cited to)
        cited = {(c.kind, c.ref, c.heading) for c in base.prov.citations}
        prov = s.Provenance(base.prov.citations + tuple(c for c in item.prov.citations
                                                        if (c.kind, c.ref, c.heading) not in cited), base.prov.span)
        merged = dc_replace(
            base, properties=tuple(props.values()), children=tuple(children.values()), prov=prov
        )
        own[key] = item.span
        scope.clauses[key] = Clause(key[0], key[1], merged, origin, "amended", existing)

    def _remove(self, scope, item: s.Remove, origin) -> None:
        key = (item.kind, item.key)
        existing = scope.clauses.get(key)
        if existing is None:
            self._report(self._missing_target("remove", key, item.span, scope))
            return
        del scope.clauses[key]
        scope.removals.append(Removal(existing, origin, item.prov, item.span))

    def _missing_target(self, verb: str, key, span: Span, scope: _Scope) -> Diagnostic:
        same_kind = sorted(name for (kind, name) in scope.clauses if kind == key[0])
        hint = None
        if same_kind:
            shown = ", ".join(same_kind[:12]) + (", ..." if len(same_kind) > 12 else "")
            hint = f"{key[0]} clauses that exist: {shown}"
        return error(
            "E012", f"cannot {verb} {_describe(key)}: the base does not define it", span, help=hint
        )

    def _freeze(self, unit: s.Unit, scope: _Scope, variant: str | None) -> Title:
        return Title(
            name=unit.name,
            variant=variant,
            rulebook=scope.rulebook,
            libraries=tuple(scope.libraries),
            extends=unit.base,
            chain=tuple(scope.chain),
            clauses=tuple(scope.clauses.values()),
            sections=tuple(scope.sections.values()),
            removals=tuple(scope.removals),
            span=unit.span,
            path=unit.path,
        )

    # -- names in expressions
    def _check_names(self, title: Title) -> None:
        known: set[str] = set(builtin_table())
        for clause in title.clauses:
            if isinstance(clause.decl, s.KindDecl):
                continue  # a kind's name is no value: `corporation` alone names nothing the engine can read
            known.add(clause.name)
            if isinstance(clause.decl, s.Enum):
                known.update(clause.decl.values)
        for clause in title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Routine):
                local = {p.name for p in decl.params}
                for param in decl.params:
                    if param.default is None:
                        continue
                    if decl.kind != "action":
                        # only an action dict can leave a field out: a procedure's call gives every argument
                        self._report(error("E016", f"`{param.name}` of {decl.kind} {decl.name} has a default: only an "
                                           "action's field may be optional", param.default.span or param.span))
                    self._names_in_expr(param.default, known)
                    wrong = _default_misfit(param)
                    if wrong:
                        self._report(error("E029", f"the default of `{param.name}` is {wrong}, which its type "
                                           f"`{param.type}` does not take", param.default.span or param.span))
            if isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                for name, local in _free_names(decl):
                    self._unknown_name(name, known, local)

    def _names_in_expr(self, expr, known: set[str], local: frozenset[str] | set[str] = frozenset()) -> None:
        """E015 for each name in `expr` that is neither `known` (the title's and the builtins')
        nor `local`."""
        free: list[tuple[s.Name, frozenset[str]]] = []
        _collect_expr(expr, local, free)
        for name, local_there in free:
            self._unknown_name(name, known, local_there)

    def _unknown_name(self, name: s.Name, known: set[str], local: frozenset[str] | set[str] | tuple) -> None:
        if name.name not in known:
            from compiler.lang.schema import did_you_mean, nearest

            self._report(error(
                "E015", f"unknown name {name.name!r}", name.span,
                help="a name must be a parameter, a local, a clause of the title or a builtin (see `rulec` docs: "
                     "builtins)" + did_you_mean(nearest(name.name, set(known) | set(local))),
            ))


def _default_misfit(param: s.ParamDecl) -> str | None:
    """What is wrong with an optional field's default literal for its declared type (None: nothing seen):
    `none` where the type has no `none`, a number, amount, percent or truth value the type's scalars do
    not take. A name is left to the checks of names."""
    alts = {str(a) for a in param.type.alternatives} | set(param.type.values or ())
    default = param.default
    if param.type.is_list or param.type.key is not None:
        return None
    kinds = {s.NoneLit: ("none", {"none"}), s.Money: ("an amount", {"money"}), s.Int: ("a number", {"int", "money"}),
             s.Percent: ("a percentage", {"percent"}), s.Bool: ("a truth value", {"bool"}),
             s.Str: ("a string", {"string", "name"})}
    for cls, (what, takes) in kinds.items():
        if isinstance(default, cls):
            return None if alts & takes else what
    return None


def _expr_children(expr) -> tuple:
    if isinstance(expr, (s.ListLit, s.SetLit)):
        return expr.items
    if isinstance(expr, s.Range):
        return (expr.low, expr.high)
    if isinstance(expr, s.Unary):
        return (expr.operand,)
    if isinstance(expr, s.Binary):
        return (expr.left, expr.right)
    if isinstance(expr, s.Cond):
        return (expr.test, expr.then, expr.otherwise)
    if isinstance(expr, s.Index):
        return (expr.obj, expr.index)
    if isinstance(expr, s.MatchExpr):
        # the cases' values are checked against the subject's enum (typecheck, E034)
        return (expr.subject, *(value for _, value in expr.cases), *((expr.orelse,) if expr.orelse is not None else ()))
    return ()


def _stmt_exprs(stmt) -> tuple:
    if isinstance(stmt, s.Require):
        return tuple(e for e in (stmt.cond, stmt.unless) if e is not None)
    if isinstance(stmt, (s.Transfer,)):
        return (stmt.amount, stmt.source, stmt.target)
    if isinstance(stmt, s.Move):
        return (stmt.what, stmt.source, stmt.target)
    if isinstance(stmt, s.Assign):
        return (stmt.target, stmt.value)
    if isinstance(stmt, s.Do):
        return (stmt.call,)
    if isinstance(stmt, s.Emit):
        return stmt.args
    return ()


def _describe(key: tuple[str, str]) -> str:
    kind, name = key
    return f"{kind} {name!r}" if name else kind


def resolve(modules: Iterable[s.Module]) -> tuple[Program, list[Diagnostic]]:
    """Resolve parsed modules into a Program. Never raises for bad input."""
    resolver = Resolver(modules)
    program = resolver.run()
    return program, resolver.diagnostics


def resolve_overlaid(modules: Iterable[s.Module], overlay: Iterable[s.Unit], title: str,
                     variant: str | None) -> tuple[Title | None, list[Diagnostic]]:
    """`title` (and `variant`) resolved from `modules`, with the errata units of `overlay` applied last:
    after the variant, so that an overlay fills what the variant leaves open (a map overlay,
    `rulec play --map`: 1880 Romania's variants declare their own gaps). None if the title or the
    variant is unknown. Never raises for bad input."""
    resolver = Resolver(modules)
    program = resolver.run()
    if title not in resolver.titles:
        return None, resolver.diagnostics
    unit = resolver.titles[title]
    base = resolver._title_scope(title)
    if base is None:
        return None, resolver.diagnostics
    scope = base.copy()
    if variant is not None:
        found = next((v for v in resolver.variants.get(title, []) if v.name == variant and v.kind == "variant"), None)
        if found is None:
            return None, resolver.diagnostics
        resolver._apply_unit(scope, found)
    for erratum in overlay:
        resolver._apply_unit(scope, erratum)
    resolved = resolver._freeze(unit, scope, variant)
    resolver._check_names(resolved)
    del program
    return resolved, resolver.diagnostics


__all__ = ["resolve", "resolve_overlaid", "Resolver", "statements"]


def _free_names(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[tuple[s.Name, frozenset[str]], ...]:
    """The names a routine, trigger or invariant reads that it does not bind itself (a parameter, a
    `let`, a loop's or a quantifier's variable, an event's argument), in the order they are written,
    each with the locals bound where it is read: each must be a clause of the title or a builtin
    (E015)."""
    free: list[tuple[s.Name, frozenset[str]]] = []
    if isinstance(decl, s.Routine):
        # (a parameter's default is checked with the parameter: `_check_names`)
        local = {p.name for p in decl.params}
        if decl.result is not None:
            _collect_expr(decl.result, local, free)
        _collect_body(decl.body, local, free)
    elif isinstance(decl, s.Trigger):
        # an event's arguments name what the runtime passes with it: they bind locals
        local = {arg.name for arg in decl.event.args if isinstance(arg, s.Name)}
        for arg in decl.event.args:
            if not isinstance(arg, s.Name):
                _collect_expr(arg, frozenset(), free)
        if decl.event.when is not None:
            _collect_expr(decl.event.when, local, free)
        _collect_body(decl.body, local, free)
    else:
        _collect_expr(decl.expr, frozenset(), free)
    return tuple(free)


#: each clause's free names, kept by identity across resolves (`syntax.ByNode`)
_free_names = s.ByNode(_free_names)


def _collect_body(body, local: set[str], free: list) -> None:
    local = set(local)
    for stmt in body:
        if isinstance(stmt, s.Let):
            _collect_expr(stmt.value, local, free)
            local.add(stmt.name)
        elif isinstance(stmt, s.If):
            for cond, branch in stmt.branches:
                _collect_expr(cond, local, free)
                _collect_body(branch, local, free)
            _collect_body(stmt.orelse, local, free)
        elif isinstance(stmt, s.For):
            _collect_expr(stmt.domain, local, free)
            _collect_body(stmt.body, local | {stmt.var}, free)
        elif isinstance(stmt, s.Match):
            # the cases' values are checked against the subject's enum (typecheck, E034)
            _collect_expr(stmt.subject, local, free)
            for _, branch in stmt.cases:
                _collect_body(branch, local, free)
            _collect_body(stmt.orelse or (), local, free)
        else:
            for expr in _stmt_exprs(stmt):
                _collect_expr(expr, local, free)


def _collect_expr(expr, local: frozenset[str] | set[str], free: list) -> None:
    """Append to `free` each name in `expr` not in `local`, with the locals there (for a did-you-mean);
    the title's thousands of names are kept apart (`_check_names`)."""
    if isinstance(expr, s.Name):
        if expr.name not in local:
            free.append((expr, frozenset(local)))
    elif isinstance(expr, s.Quantifier):
        _collect_expr(expr.domain, local, free)
        _collect_expr(expr.body, local | {expr.var}, free)
    elif isinstance(expr, s.Member):
        _collect_expr(expr.obj, local, free)
    elif isinstance(expr, s.Record):
        for _, value in expr.fields:
            _collect_expr(value, local, free)
    elif isinstance(expr, s.Call):
        _collect_expr(expr.func, local, free)
        for arg in expr.args:
            _collect_expr(arg, local, free)
        for _, arg in expr.kwargs:
            _collect_expr(arg, local, free)
    elif isinstance(expr, s.MapLit):
        for k, v in expr.entries:
            _collect_expr(k, local, free)
            _collect_expr(v, local, free)
    else:
        for child in _expr_children(expr):
            _collect_expr(child, local, free)
