"""The z3 model's variables of a list state and what the engine's list always is (its domain): what the
model (`compiler.verify.model`) declares and assumes of each list, apart from the operations on it
(`compiler.verify.lists`), which read the model. This module imports no other of the verifier's, so the
model may import it without a cycle.
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.lang import syntax as s
from compiler.lang.liststates import ACTION, BOOL, ENTITY_KINDS, part_kinds


def length_var(name: str) -> str:
    return f"state:{name}#len"


def slot_var(name: str, i: int, j: int) -> str:
    return f"state:{name}#{i}.{j}"


def sorts(decl: s.StateDecl) -> list[str]:
    """The sort of each part of an element: "ent" for an entity's, "bool" for a truth value's, "int" for an
    action's or an enum's."""
    return ["ent" if part_kinds(part)[0] in ENTITY_KINDS else "bool" if part == BOOL else "int"
            for part in decl.element]


def variables(decl: s.StateDecl) -> list[tuple[str, str]]:
    """The list's variables, (name, sort): its length, then each slot's parts."""
    out = [(length_var(decl.name), "int")]
    for i in range(decl.bound or 0):
        out += [(slot_var(decl.name, i, j), sort) for j, sort in enumerate(sorts(decl))]
    return out


def blank(model, sort: str, none: Any) -> Any:
    """A slot's value past the length: `none` (the model's entity none) for an entity part, false for a truth
    value, 0 for another."""
    return model.z(none) if sort == "ent" else z3.BoolVal(False) if sort == "bool" else z3.IntVal(0)


def domain(model, decl: s.StateDecl, state: dict[str, Any], want, none: Any) -> list[Any]:
    """What the engine's list always is: a length not negative, each slot past it blank, an entity part one
    of the scope's entities of its kinds (or none: one outside the scope), an enum's a value's place."""
    out: list[Any] = []
    length = length_var(decl.name)
    if want(length):
        out.append(state[length] >= 0)
    elements = _element_domains(model, decl)
    for i in range(decl.bound or 0):
        for j, sort in enumerate(sorts(decl)):
            name = slot_var(decl.name, i, j)
            if not want(name):
                continue
            out.append(z3.Implies(state[length] <= i, state[name] == blank(model, sort, none)))
            allowed = elements[j]
            if sort == "ent":
                out.append(z3.Or([state[name] == model.z(e) for e in allowed + [none]]))
            elif sort == "bool":
                continue  # (either truth value)
            elif allowed is not None:
                out.append(z3.And(state[name] >= 0, state[name] <= allowed))
            else:
                out.append(state[name] >= 0)
    return out


def _element_domains(model, decl: s.StateDecl) -> list[Any]:
    domains = {"player": model.players, "corporation": model.corporations, "private": model.privates,
               "minor": model.minors}
    enums = {c.decl.name: c.decl.values for c in model.title.clauses if isinstance(c.decl, s.Enum)}
    out: list[Any] = []
    for part in decl.element:
        kinds = part_kinds(part)
        if kinds[0] in ENTITY_KINDS:
            out.append([e for k in kinds for e in domains[k]])
        elif kinds in ((ACTION,), (BOOL,)):
            out.append(None)  # (an action's code: the model numbers the actions as it meets them)
        else:
            out.append(len(enums[kinds[0]]))
    return out
