"""Stage 3, the IR: a resolved title as frozen, typed values.

A `Title` is what emit, verify and docs read: every clause of the title after
its library, the title it extends, its errata and (when asked) one variant
have been applied, in order. Each `Clause` keeps its syntax node (with span
and provenance), the unit it came from, and what it replaced, so the docs can
show what an overlay changed.

Provenance of a clause: `clause.prov` — rulebook citations, supplements with
their source, assumptions with their reason. A value written `gap "..."` is a
gap (see `Title.gaps`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterator

from compiler.lang import syntax as s
from compiler.diagnostics import Span


#: the types the runtime holds as objects of its own (entities, trains, certificates, routes, and what the map has
#: checked, which a routine may take as a parameter: a tile lay, `check_lay` (of a company, or of a private's
#: ability), and a station's spot, `check_token`)
RUNTIME_TYPES = ("player", "corporation", "minor", "private", "bond", "company", "train", "certificate", "route", "lay",
                 "spot", "market_cell")

#: the kinds of entity a declared state's part may be (`state NAME: set[(player, corporation)]`): `company` is
#: a corporation, a minor or a private (as a parameter `company` is), which the z3 model keys by id
STATE_ENTITY_KINDS = ("player", "corporation", "private", "minor", "company", "certificate")


def state_component_kinds(title: Title) -> dict[str, tuple[str, ...]]:
    """The other kinds a declared state's part may be: every kind of the title (declared with `kind`, or of
    its components) that is not one of the runtime's types (RUNTIME_TYPES: entities, trains, certificates and
    routes, which the engine holds as objects), each with the keys of the title's components of that kind, in
    order (a card of 18GJ's `company_president`, an `effect` of the library). A value of such a part is the
    component's key, in the engine as in the z3 model."""
    out: dict[str, list[str]] = {}
    for clause in title.clauses:
        decl = clause.decl
        if isinstance(decl, s.KindDecl) and decl.name not in RUNTIME_TYPES:
            out.setdefault(decl.name, [])
        elif isinstance(decl, s.Component) and decl.kind not in RUNTIME_TYPES and decl.key:
            out.setdefault(decl.kind, []).append(decl.key)
    return {kind: tuple(keys) for kind, keys in out.items()}


def state_part_keys(title: Title) -> dict[str, tuple[str, ...]]:
    """The kinds a declared state's part may be besides the entities (`STATE_ENTITY_KINDS`) and the title's enums,
    each with its keys: those of `state_component_kinds`, `train`, a train type by its card's key (the library's
    `obsolete_trains`: a part the engine and the model both hold as the key, `card.key`, `t.name`), and `kind_name`,
    a kind the title's `collect_on_lay` names (`collect_kinds`)."""
    trains = tuple(clause.decl.key for clause in title.clauses
                   if isinstance(clause.decl, s.Component) and clause.decl.kind == "train" and clause.decl.key)
    return {**state_component_kinds(title), "train": trains, "kind_name": collect_kinds(title)}


def collect_kinds(title: Title) -> tuple[str, ...]:
    """The kinds a corporation collects components of by laying tiles (the title's `collect_on_lay`): the keys of
    a state's part `kind_name` (the library's `collected: map[(corporation, kind_name), int]`), in the engine as in
    the z3 model the kind's name."""
    prop = title.prop("collect_on_lay")
    value = prop.value if prop is not None else None
    items = value.items if isinstance(value, (s.ListLit, s.SetLit)) else ()
    return tuple(item.name if isinstance(item, s.Name) else str(getattr(item, "value", item)) for item in items)


def end_reasons(title: Title) -> tuple[str, ...]:
    """The values of the library's enum end_reason, in order (what `game_end_reason` may be besides none: the
    z3 model's oracle of it is 0 for none, else a reason's place from 1 here, as the validator reads the engine's)."""
    for clause in title.clauses:
        if isinstance(clause.decl, s.Enum) and clause.decl.name == "end_reason":
            return tuple(clause.decl.values)
    return ()


@dataclass(frozen=True)
class Origin:
    """Where a clause was last written: the unit's kind and name."""

    kind: str  # "library" | "title" | "variant" | "errata"
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name!r}"


@dataclass(frozen=True)
class Clause:
    """One named clause of a title: a property, component, table, param, enum,
    action, procedure, function, trigger, invariant or sanction.

    `change` says how the last unit touched it: "defined", "replaced" or
    "amended"; `previous` is the clause it replaced or amended.
    """

    kind: str
    name: str
    decl: s.Decl
    origin: Origin
    change: str = "defined"
    previous: "Clause | None" = field(default=None, compare=False)

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.name)

    @property
    def prov(self) -> s.Provenance:
        return getattr(self.decl, "prov", s.NO_PROVENANCE)

    @property
    def span(self) -> Span:
        return self.decl.span

    @property
    def title(self) -> str | None:
        return getattr(self.decl, "title", None)


@dataclass(frozen=True)
class Removal:
    """A clause an overlay removed, kept for the docs."""

    clause: Clause
    origin: Origin
    prov: s.Provenance
    span: Span


@dataclass(frozen=True)
class Title:
    """A resolved title, or a title with one variant applied.

    `name` is the title as printed ("1880 Romania"); `variant` the variant's
    name or None; `chain` the units applied, first to last; `clauses` in
    definition order; `sections` the rulebook sections the title declares.
    """

    name: str
    variant: str | None
    rulebook: str | None
    libraries: tuple[str, ...]
    extends: str | None
    chain: tuple[Origin, ...]
    clauses: tuple[Clause, ...]
    sections: tuple[s.Section, ...]
    removals: tuple[Removal, ...]
    span: Span
    path: str
    #: the implementation's reading applied on top (an `errata` holding `implementation: "..."`, e.g.
    #: "18xx.games"), or None; `base_variant` the variant it is applied to, or None for the title itself
    reading: str | None = None
    base_variant: str | None = None

    # -- lookups
    def get(self, kind: str, name: str) -> Clause | None:
        return self._by_key.get((kind, name))

    @functools.cached_property
    def _by_key(self) -> dict[tuple[str, str], Clause]:
        """Each clause by (kind, name), the first where several share one."""
        out: dict[tuple[str, str], Clause] = {}
        for clause in self.clauses:
            out.setdefault(clause.key, clause)
        return out

    def of_kind(self, kind: str) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if c.kind == kind)

    def components(self, kind: str) -> tuple[s.Component, ...]:
        return tuple(c.decl for c in self.of_kind(kind) if isinstance(c.decl, s.Component))

    def kind_defaults(self, kind: str) -> dict[str, s.Expr]:
        """The defaults the `kind` declares for its parameters (`param x: int = 0`): what a component of
        that kind reads where it does not set the parameter (the engine's data and the model's alike)."""
        clause = self.get("kind", kind)
        if clause is None or not isinstance(clause.decl, s.KindDecl):
            return {}
        return {p.name: p.default for p in clause.decl.params if p.default is not None}

    def card_fields(self, kind: str) -> tuple[tuple[str, bool], ...]:
        """The parameters the `kind` declares, each with whether it is one or several of a type (`rusts_on:
        train | list[train] | none`): a record of the kind's cards (the DSL's `train_cards`, `phases`) has every
        parameter (none where the card does not set it), and reads each of these as a list, none as an empty
        one, so that `x in card.rusts_on` asks for an element, never a part of a name (the engine's
        `GameBase.card_records` and the model's `Translator.card_records` alike)."""
        clause = self.get("kind", kind)
        if clause is None or not isinstance(clause.decl, s.KindDecl):
            return ()
        out = []
        for p in clause.decl.params:
            alts = p.type.alternatives
            lists = [a for a in alts if isinstance(a, s.TypeRef) and a.is_list]
            scalars = [str(a) for a in alts if isinstance(a, str) and a != "none"]
            several = len(lists) == 1 and bool(scalars) and set(scalars) <= {str(x) for x in lists[0].alternatives}
            out.append((p.name, several))
        return tuple(out)

    def prop(self, name: str) -> s.Property | None:
        clause = self.get("property", name)
        return clause.decl if clause else None  # type: ignore[return-value]

    def source_paths(self) -> tuple[str, ...]:
        """The files this title (with its variant) is built from: its own, its
        libraries', its base titles', its variant's and errata's (each that
        contributes a clause, a removal or a section)."""
        paths = {self.path}
        paths.update(clause.span.path for clause in self.clauses)
        paths.update(removal.span.path for removal in self.removals)
        paths.update(section.span.path for section in self.sections)
        return tuple(sorted(p for p in paths if p and not p.startswith("<")))

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.variant})" if self.variant else self.name

    @property
    def players(self) -> tuple[int, int] | None:
        """The players range (low, high), when the title states it."""
        prop = self.prop("players")
        if prop is None:
            return None
        value = prop.value
        if isinstance(value, s.Range) and isinstance(value.low, s.Int) and isinstance(value.high, s.Int):
            return (value.low.value, value.high.value)
        if isinstance(value, s.Int):
            return (value.value, value.value)
        return None

    # -- provenance walks
    def provenances(self) -> Iterator[tuple[Clause, str, s.Provenance, Span]]:
        """Every provenance in the title: (clause, where, provenance, span).

        `where` names the part of the clause ("" for the clause itself,
        "cost" for a component's property, "row 3" for a table row, ...).
        """
        for clause in self.clauses:
            for where, prov, span in _provenances_of(clause.decl):
                yield clause, where, prov, span

    def gaps(self) -> Iterator[tuple[Clause, str, s.Gap]]:
        """Every gap: (clause, where, gap)."""
        for clause in self.clauses:
            for where, gap in _gaps_of(clause.decl):
                yield clause, where, gap


#: a clause's provenances and gaps depend on its syntax node alone: kept by the node's identity, as
#: the library's clauses are the same objects in every title built from it (a check walked every
#: title's clauses again; `rulec check`, the language server and the mutation tests check many titles
#: that share most of their clauses)
_provenances_of = s.ByNode(lambda decl: tuple((where, prov, span) for _, where, prov, span in _walk_provenance(None, decl, "")),
                           kept=20_000)
_gaps_of = s.ByNode(lambda decl: tuple((where, gap) for _, where, gap in _walk_gaps(None, decl, "")), kept=20_000)


def _rulebook_citations(decl: s.Decl) -> tuple[s.Citation, ...]:
    return tuple(citation for _, prov, _ in _provenances_of(decl) for citation in prov.rulebook)


#: the rulebook citations of a clause's provenances (`Title.provenances`), in order, kept as they are
rulebook_citations = s.ByNode(_rulebook_citations, kept=20_000)


def _walk_provenance(clause, decl, where) -> Iterator[tuple[Clause, str, s.Provenance, Span]]:
    prov = getattr(decl, "prov", None)
    if prov is not None:
        yield clause, where, prov, decl.span
    if isinstance(decl, s.Component):
        for prop in decl.properties:
            yield from _walk_provenance(clause, prop, _join(where, prop.name))
        for child in decl.children:
            yield from _walk_provenance(clause, child, _join(where, f"{child.kind} {child.key or ''}".strip()))
    elif isinstance(decl, s.Table):
        for row in decl.rows:
            label = ", ".join(str(k) for k in row.keys)
            yield clause, _join(where, label), row.prov, row.span
    elif isinstance(decl, (s.Routine, s.Trigger)):
        for stmt in _statements(decl.body):
            stmt_prov = getattr(stmt, "prov", None)
            if stmt_prov is not None:
                yield clause, _join(where, type(stmt).__name__.lower()), stmt_prov, stmt.span


def _walk_gaps(clause, decl, where) -> Iterator[tuple[Clause, str, s.Gap]]:
    if isinstance(decl, s.Property) and isinstance(decl.value, s.Gap):
        yield clause, where or decl.name, decl.value
    elif isinstance(decl, s.Component):
        for prop in decl.properties:
            yield from _walk_gaps(clause, prop, _join(where, prop.name))
        for child in decl.children:
            yield from _walk_gaps(clause, child, _join(where, f"{child.kind} {child.key or ''}".strip()))
    elif isinstance(decl, s.Table):
        for row in decl.rows:
            if isinstance(row.value, s.Gap):
                yield clause, _join(where, ", ".join(str(k) for k in row.keys)), row.value


def _statements(body) -> Iterator[s.Stmt]:
    for stmt in body:
        yield stmt
        if isinstance(stmt, s.If):
            for _, branch in stmt.branches:
                yield from _statements(branch)
            yield from _statements(stmt.orelse)
        elif isinstance(stmt, s.For):
            yield from _statements(stmt.body)
        elif isinstance(stmt, s.Match):
            for _, branch in stmt.cases:
                yield from _statements(branch)
            yield from _statements(stmt.orelse or ())


def statements(body) -> Iterator[s.Stmt]:
    """Every statement of a routine or trigger body, nested ones included."""
    return _statements(body)


def _join(where: str, part: str) -> str:
    return f"{where}.{part}" if where else part


@dataclass(frozen=True)
class Program:
    """Everything resolved from a rulespec tree.

    `titles`: each title with its errata applied (no variant), by name;
    `variants`: (title name, variant name) -> the title with that variant. An implementation's
    reading of a title (an `errata` unit holding an `implementation` property) is not applied to
    the title; it is listed here as a variant of its own name, and once more on top of each of the
    title's variants, named "VARIANT, READING" (see `Title.reading`).
    """

    titles: dict[str, Title]
    variants: dict[tuple[str, str], Title]

    def variant_names(self, title: str) -> tuple[str, ...]:
        return tuple(v for (t, v) in self.variants if t == title)

    def with_reading(self, title: "Title", reading: str) -> "Title | None":
        """`title` (a title or one of its plain variants) with the implementation's reading
        `reading` applied, if the rulespecs give one; `title` itself when it already has it."""
        if title.reading == reading:
            return title
        for (name, _), other in self.variants.items():
            if name == title.name and other.reading == reading and other.base_variant == title.variant:
                return other
        return None
