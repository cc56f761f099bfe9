"""Stage 4, check (fields): a field read of a routine's parameter (or of a variable over the title's
corporations, privates or minors, or a trigger's corporation) that its kind does not have.

`private.cots` in an action whose parameter is `private: private` checked clean; the engine's
`attr` found no such field in the private's data and play stopped on a RuleGap ("the rulespec
does not give it"), which says nothing of a typo. Here a field read of a parameter typed by one
kind of the title (and not bound again in the routine) must name a property that kind declares,
its `key` or `title`, or, for a corporation or a minor, what the runtime keeps of one
(`RUNTIME_FIELDS`). E024 at the field, with the nearest.

Trains and certificates are the runtime's own objects, players and routes have no kind: their
fields are not checked here.
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, error
from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.lang.schema import Schema, did_you_mean, listing, nearest
from compiler.runtime.vocabulary import CORP_DATA_FIELDS, CORP_STATE, PRIVATE_STATE_FIELDS, RUNTIME_EVENTS, TOKEN_COUNTS

#: what every component's data holds besides its kind's properties (and `abilities`: its `ability` clauses as records,
#: none where it has none, `GameBase.ability_records`)
COMMON_FIELDS = ("key", "title", "abilities")
#: what the runtime keeps of a corporation or minor besides its data (`GameBase.corp`'s state and
#: `DslSupport.attr`'s own answers, named in `compiler.runtime.vocabulary`)
RUNTIME_FIELDS = (*CORP_STATE, *CORP_DATA_FIELDS, *TOKEN_COUNTS)
#: the kinds whose objects are the runtime's own, whose fields are not the kind's data
_UNCHECKED = ("train", "certificate", "player", "route")


def _bound_again(decl, name: str) -> bool:
    return any(isinstance(n, s.Let) and n.name == name or isinstance(n, (s.For, s.Quantifier)) and n.var == name
               for n in s.walk(decl))


#: the runtime's lists of components whose elements are of a kind of the title
_LISTS = {"corporations": "corporation", "privates": "private", "minors": "minor"}
#: what a runtime event gives that is a component of a kind of the title (`RUNTIME_EVENTS`' words)
_EVENT_KINDS = {"corporation": "corporation"}


def check_fields(title: Title, schema: Schema) -> list[Diagnostic]:
    """E024 for each field read of a kind-typed parameter that the kind does not have (and of a variable
    bound once over `corporations`, `privates` or `minors`, and a trigger's corporation)."""
    out: list[Diagnostic] = []
    for clause in title.clauses:
        decl = clause.decl
        if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
            continue
        typed: dict[str, tuple[str, ...]] = {}
        for param in decl.params if isinstance(decl, s.Routine) else ():
            kinds = param.type.alternatives
            if param.type.is_list or param.type.key is not None or param.type.values \
                    or not all(isinstance(k, str) and k not in _UNCHECKED and schema.kind(k) is not None
                               for k in kinds) or _bound_again(decl, param.name):
                continue
            typed[param.name] = kinds
        typed.update(_elements(decl, schema))
        if not typed:
            continue
        body = (decl.body, decl.result) if isinstance(decl, s.Routine) else \
            (decl.event.when, decl.body) if isinstance(decl, s.Trigger) else decl.expr
        for node in s.walk(body):
            if not (isinstance(node, s.Member) and isinstance(node.obj, s.Name) and node.obj.name in typed):
                continue
            kinds = typed[node.obj.name]
            declared = sorted({name for kind in kinds for name in schema.kind(kind).params})
            known = [*COMMON_FIELDS, *declared]
            if {"corporation", "minor"} & set(kinds):
                known += RUNTIME_FIELDS
            if "private" in kinds:
                known += PRIVATE_STATE_FIELDS
            if node.name in known:
                continue
            suggestions = nearest(node.name, known)
            what = " or ".join(kinds)
            out.append(error(
                "E024", f"a {what} has no field `{node.name}`" + did_you_mean(suggestions), node.span,
                help=f"`{node.obj.name}` is a {what}: its fields are its key, its title and what its kind "
                     f"declares: {listing(declared)}",
                suggestions=tuple(suggestions)))
    return out


def _elements(decl, schema: Schema) -> dict[str, tuple[str, ...]]:
    """The variables of a rule bound once, and by a `for` or quantifier over the title's corporations,
    privates or minors (not bound again), or by a trigger to a runtime event's corporation: the kind each
    certainly is. (`for c in corporations { ... c.flaot ... }` checked clean, and play stopped on a
    RuleGap where it read it.)"""
    loops = [(n.var, n.domain) for n in s.walk(decl) if isinstance(n, (s.For, s.Quantifier))]
    names = [n.name for n in s.walk(decl) if isinstance(n, s.Let)] + [var for var, _ in loops]
    if isinstance(decl, s.Routine):
        names += [p.name for p in decl.params]
    given: list[tuple[str, str]] = []
    if isinstance(decl, s.Trigger):
        args = [a.name for a in decl.event.args if isinstance(a, s.Name)]
        names += args
        given = [(a.name, _EVENT_KINDS[meaning]) for a, meaning in zip(decl.event.args, RUNTIME_EVENTS.get(
            decl.event.name, ())) if isinstance(a, s.Name) and meaning in _EVENT_KINDS]
    found = [(var, _LISTS[domain.name]) for var, domain in loops
             if isinstance(domain, s.Name) and domain.name in _LISTS and domain.name not in names]
    return {var: (kind,) for var, kind in [*found, *given] if names.count(var) == 1 and schema.kind(kind) is not None}
