"""The schema of a title: every property it may set, of every kind, declared once in the DSL.

A title's schema is read from its own resolved clauses, so the library and the
title declare it the same way:

- `param NAME: TYPE "meaning"` at unit level is a parameter of the title (a
  title-level property or table: `bank`, `cert_limit`);
- `kind KIND "meaning" { param NAME: TYPE "meaning" ... }` declares the
  properties of the components of that kind (`private`, `train`, `hex`) and of
  the records of that shape (`node`, `path`); a kind declared again in a title
  adds the title's own properties to it;
- `enum NAME { a, b }` is a closed set of names a type may name.

A parameter may be `required` (always, or `required when CONDITION` on the
title's properties), `documentation` (only the site shows it: the engine and
the verifier do not read it), and have a default (`= VALUE`).

Types (`TypeRef`): the scalars of `SCALARS`; an enum's name; an inline enum
`{a, b}`; a kind's name (a reference to a component of that kind by its key,
written `E7`, `"4"` or `phase("5")`, or a record of that kind's shape);
`list[T]`; `map[K, V]`; and alternatives `A | B`. `check` (compiler.lang.typecheck)
checks every value of a title against it; the docs and the language server
read it for meanings and completions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import get_close_matches

from compiler.lang import syntax as s
from compiler.lang.ir import Title

#: The scalar types, with how a message names a value of each.
SCALARS: dict[str, str] = {
    "int": "a number",
    "money": "money ($20)",
    "percent": "a percentage (10%)",
    "bool": "true or false",
    "string": 'a string ("...")',
    "name": "a name",
    "range": "a range (2..5)",
    "colour_code": 'a colour written "#rrggbb"',
    "none": "none",
    "table": "a table (`table NAME by ...`)",
    "parameters": "a record of the title's parameters",
}

#: Names a value may refer to that are not components: what each is.
REFERENCES: dict[str, str] = {
    "action": "an action the title declares",
    "kind_name": "the name of a declared kind",
    "phase_group": "a phase group (the `group` of a phase)",
    "parameter": "a parameter of the title",
}

#: The dimensions a table may be keyed by besides a kind: numbers.
NUMBER_DIMENSIONS = {"players", "corporations", "companies_available", "closed_companies"}


@dataclass(frozen=True)
class Kind:
    """The properties of one kind, by name (library ones first)."""

    name: str
    meaning: str | None
    params: dict[str, s.Param]
    span: s.Span | None = None


@dataclass
class Schema:
    """What a title may say: its parameters, its kinds, its enums, and the keys of
    its components by kind (what a reference may name)."""

    params: dict[str, s.Param]
    kinds: dict[str, Kind]
    enums: dict[str, tuple[str, ...]]
    keys: dict[str, set[str]] = field(default_factory=dict)
    #: the title's properties as written (for `required when` conditions)
    values: dict[str, s.Expr] = field(default_factory=dict)

    def kind(self, name: str) -> Kind | None:
        return self.kinds.get(name)

    def kinds_with_key(self, key: str) -> list[str]:
        """The kinds that have a component with this key (for a reference to the wrong kind)."""
        return sorted(kind for kind, keys in self.keys.items() if key in keys)


def schema_of(title: Title) -> Schema:
    """The schema a resolved title declares (library and title alike)."""
    params: dict[str, s.Param] = {}
    kinds: dict[str, Kind] = {}
    enums: dict[str, tuple[str, ...]] = {}
    keys: dict[str, set[str]] = {}
    values: dict[str, s.Expr] = {}
    for clause in title.clauses:
        decl = clause.decl
        if isinstance(decl, s.Param):
            params[decl.name] = decl
        elif isinstance(decl, s.KindDecl):
            kinds[decl.name] = Kind(decl.name, decl.title, {p.name: p for p in decl.params}, decl.span)
        elif isinstance(decl, s.Enum):
            enums[decl.name] = decl.values
        elif isinstance(decl, s.Component):
            _collect_keys(decl, keys)
        elif isinstance(decl, s.Property):
            values[decl.name] = decl.value
        elif isinstance(decl, s.Routine) and decl.kind == "action":
            keys.setdefault("action", set()).add(decl.name)
    keys["kind_name"] = set(kinds)
    keys["parameter"] = set(params)
    keys["phase_group"] = {
        _key_text(prop.value) for phase in title.components("phase")
        for prop in phase.properties if prop.name == "group" and _key_text(prop.value) is not None
    }
    return Schema(params, kinds, enums, keys, values)


#: the kinds whose components are entities of play, which a parameter's type may name too
ENTITY_KINDS = frozenset({"corporation", "private", "minor", "player", "bond"})


def names_component_kind(ref: str | s.TypeRef | None, kinds: set[str]) -> str | None:
    """The kind a parameter's type names where it is one of `kinds` (the title's declared kinds) and no
    entity's, alone (`operating_track: round_track`): a field of the parameter (`operating_track.par_groups`)
    is then the named component's, read from the title's data by the engine and the model alike; else None."""
    if isinstance(ref, s.TypeRef) and not ref.is_list and not ref.is_set and ref.key is None \
            and not ref.values and not ref.parts and len(ref.alternatives) == 1:
        ref = ref.alternatives[0]
    if isinstance(ref, str) and ref in kinds and ref not in ENTITY_KINDS:
        return ref
    return None


def component_params(title: Title) -> dict[str, str]:
    """The title's parameters whose type names a kind of component that is no entity, by name: their kind
    (the library's `operating_track: round_track`)."""
    kinds = {c.decl.name for c in title.clauses if isinstance(c.decl, s.KindDecl)}
    found = {c.decl.name: names_component_kind(c.decl.type, kinds) for c in title.clauses if isinstance(c.decl, s.Param)}
    return {name: kind for name, kind in found.items() if kind is not None}


def _key_text(expr) -> str | None:
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, s.Str):
        return expr.value
    return None


def _collect_keys(comp: s.Component, keys: dict[str, set[str]]) -> None:
    if comp.key is not None:
        keys.setdefault(comp.kind, set()).add(comp.key)
    for child in comp.children:
        _collect_keys(child, keys)


def nearest(name: str, candidates, n: int = 3) -> list[str]:
    """The names among `candidates` closest to `name` (for "did you mean")."""
    pool = sorted(set(candidates))
    found = get_close_matches(name, pool, n=n, cutoff=0.6)
    if not found:
        lowered = {c.lower(): c for c in pool}
        found = [lowered[c] for c in get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)]
    return found


def did_you_mean(names: list[str]) -> str:
    if not names:
        return ""
    shown = " or ".join(f"`{n}`" for n in names)
    return f"; did you mean {shown}?"


def listing(names, limit: int = 40) -> str:
    """A comma-separated list of names, cut after `limit`."""
    names = sorted(names)
    shown = ", ".join(names[:limit])
    if len(names) > limit:
        shown += f", … ({len(names)} in all)"
    return shown
