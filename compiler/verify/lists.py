"""The z3 model of a list state (`state decisions: list[(player | corporation, action)] max 6`).

A list is its length, `state:NAME#len` (the engine's, any number), and `max` slots, `state:NAME#I.J`: part J
of element I. A slot past the length holds the part's blank (the entity none, 0), so the model of a list
the engine holds is one state; a list longer than its bound has its first `max` elements exact and the rest
any value the engine may hold (a read that reaches past the bound is a fresh answer, a slot shifted in
from there a fresh value). Every operation is total: an append past the bound counts the element and keeps
none of it, a pop or remove of an empty list changes nothing.

An entity part is a term of the model's entity sort, an `action` part the action's code
(`Vars.action_code`), an enum's part its value's place in the enum, a `bool` part a truth value.
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.lang import syntax as s
from compiler.lang.liststates import ACTION, BOOL, part_kinds
from compiler.verify.list_vars import blank as _blank
from compiler.verify.list_vars import length_var, slot_var, sorts, variables
from compiler.verify.model import NONE, Unsupported
from compiler.verify.terms import AND, IF, NOT, OR, Ctx, SymList


def abstract(model, decl: s.StateDecl, held: tuple, entity_of) -> dict[str, Any]:
    """The engine's list (`g["state:NAME"]`, each element flat: an entity part as kind and id) as the
    model's variables; `entity_of(kind, id)`: the model's entity, or None outside the scope."""
    enums = {c.decl.name: c.decl.values for c in model.title.clauses if isinstance(c.decl, s.Enum)}
    kinds = [part_kinds(part) for part in decl.element]
    out: dict[str, Any] = {length_var(decl.name): len(held)}
    for i in range(decl.bound or 0):
        element = list(held[i]) if i < len(held) else None
        for j, sort in enumerate(sorts(decl)):
            if element is None:
                value: Any = NONE if sort == "ent" else 0
            elif sort == "ent":
                kind, key = element.pop(0), element.pop(0)
                value = entity_of(kind, key) or NONE
            elif sort == "bool":
                value = bool(element.pop(0))
            elif kinds[j] == (ACTION,):
                value = model.vars.action_code(str(element.pop(0)))
            else:
                value = list(enums[kinds[j][0]]).index(element.pop(0)) + 1
            out[slot_var(decl.name, i, j)] = value
    return out


# ---------------------------------------------------------------- the operations, as the translator reads them


def operation(tr, e: s.Call, ctx: Ctx) -> Any:
    """`NAME.OP(args)` of a list state: its value (None for a statement's); Unsupported for any other call
    of what is not a name."""
    func = e.func
    if not (isinstance(func, s.Member) and isinstance(func.obj, s.Name) and func.obj.name in tr.states
            and tr.states[func.obj.name].is_list and func.obj.name not in ctx.locals):
        raise Unsupported("a call of something that is not a name")
    decl = tr.states[func.obj.name]
    if decl.bound is None or func.name not in s.LIST_OPERATIONS:
        raise Unsupported(f"{decl.name}.{func.name}: no such operation of a bounded list")
    ctx.shared.reads.add("state", decl.name, (decl.element, decl.reset_on, decl.bound))
    ctx.shared.calls.add(decl.name)
    args = [tr.expr(a, ctx) for a in e.args]
    return getattr(_List(tr, decl, ctx), func.name)(*args)


class _List:
    def __init__(self, tr, decl: s.StateDecl, ctx: Ctx):
        self.tr, self.m, self.decl, self.ctx = tr, tr.model, decl, ctx
        self.k = decl.bound
        self.sorts = sorts(decl)
        self.len_name = length_var(decl.name)

    @property
    def length_term(self) -> Any:
        return self.ctx.state[self.len_name]

    def slot(self, i: int) -> list[Any]:
        return [self.ctx.state[slot_var(self.decl.name, i, j)] for j in range(len(self.sorts))]

    def values(self, args: tuple, prefix: bool = False) -> list[Any]:
        """The arguments as the slots' terms (with `prefix`, the first parts' only)."""
        if len(args) != len(self.sorts) and not (prefix and 0 < len(args) <= len(self.sorts)):
            raise Unsupported(f"{self.decl.name} has {len(self.sorts)} parts; {len(args)} given")
        enums = {c.decl.name: c.decl.values for c in self.m.title.clauses if isinstance(c.decl, s.Enum)}
        out = []
        for arg, sort, part in zip(args, self.sorts, self.decl.element):
            if sort == "ent":
                out.append(self.tr.as_ent(arg))
                continue
            if part == BOOL:
                out.append(self.tr.truthy(arg))
                continue
            if not isinstance(arg, str):
                raise Unsupported(f"a part of {self.decl.name} that is not named ({arg!r})")
            kinds = part_kinds(part)
            if kinds == (ACTION,):
                out.append(z3.IntVal(self.m.vars.action_code(arg)))
            elif arg in enums[kinds[0]]:
                out.append(z3.IntVal(list(enums[kinds[0]]).index(arg) + 1))
            else:
                raise Unsupported(f"`{arg}` is no value of enum {kinds[0]}")
        return out

    def _is(self, i: int, values: list[Any]) -> Any:
        return AND(*[a == b for a, b in zip(self.slot(i), values)])

    def _write(self, i: int, values: list[Any], when: Any) -> None:
        for j, value in enumerate(values):
            name = slot_var(self.decl.name, i, j)
            self.ctx.state[name] = IF(when, value, self.ctx.state[name])

    def _beyond(self, what: str) -> Any:
        """A fresh answer for the part of a list past its bound."""
        return self.ctx.fresh(f"{self.decl.name}.{what}_beyond", "bool")

    def _vacated(self) -> list[Any]:
        """The last slot's parts once an element leaves: blank, or, where the list is longer than its bound, the
        element shifted in from past it (any value)."""
        over = self.length_term > self.k
        return [IF(over, self.ctx.fresh(f"{self.decl.name}.slot", sort), _blank(self.m, sort, NONE)) for sort in self.sorts]

    # the values
    def first(self, *args) -> Any:
        return AND(self.length_term >= 1, self._is(0, self.values(args)))

    def starts(self, *args) -> list[Any]:
        """For each slot, whether it holds an element whose first parts are `args` (within the length)."""
        values, n = self.values(args, prefix=True), self.length_term
        return [AND(n > i, self._is(i, values)) for i in range(self.k)]

    def first_starting(self, *args) -> list[Any]:
        """For each slot, whether it holds the first element whose first parts are `args`."""
        at = self.starts(*args)
        return [AND(at[i], *[NOT(at[j]) for j in range(i)]) for i in range(self.k)]

    def first_for(self, *args) -> Any:
        """Whether the first element whose first part is `args[0]` goes on with the rest of `args`; past the
        bound, where no slot within it starts with `args[0]`, any answer."""
        keyed, whole = self.first_starting(args[0]), self.starts(*args)
        found = [AND(keyed[i], whole[i]) for i in range(self.k)]
        return OR(*found, AND(self.length_term > self.k, NOT(OR(*keyed)), self._beyond("first_for")))

    def contains(self, *args) -> Any:
        values = self.values(args)
        inside = [AND(self.length_term > i, self._is(i, values)) for i in range(self.k)]
        return OR(*inside, AND(self.length_term > self.k, self._beyond("contains")))

    def length(self) -> Any:
        return self.length_term

    def elements(self) -> SymList:
        """The elements of a list of one part, in order: each slot's within the length (an entity part one of
        the scope's: the model follows no other); where the list is longer than its bound, what a loop over it
        works out is any value (`SymList.beyond`)."""
        n = self.length_term
        out = []
        for i in range(self.k):
            (value,) = self.slot(i)
            cond = AND(n > i, value != self.m.z(NONE)) if self.sorts[0] == "ent" else n > i
            out.append((value, cond))
        return SymList(out, n > self.k)

    # the statements
    def append(self, *args) -> None:
        values, path, n = self.values(args), self.ctx.path, self.length_term
        for i in range(self.k):
            self._write(i, values, AND(path, n == i))
        self.ctx.state[self.len_name] = IF(path, n + 1, n)

    def insert(self, at: Any, *args) -> None:
        """The element comes before the one at place `at` (from 0; past the end, last; before 0, first): each
        slot from there takes the one before's parts; past the bound, it counts and keeps none of them."""
        values, path, n = self.values(args), self.ctx.path, self.length_term
        place = IF(at < 0, 0, IF(at > n, n, at))
        before = [self.slot(i) for i in range(self.k)]
        for i in range(self.k):
            self._write(i, values, AND(path, place == i))
            if i > 0:
                self._write(i, before[i - 1], AND(path, place < i))
        self.ctx.state[self.len_name] = IF(path, n + 1, n)

    def pop(self) -> None:
        path, n = self.ctx.path, self.length_term
        when = AND(path, n >= 1)
        shifted = [self.slot(i + 1) for i in range(self.k - 1)] + [self._vacated()]
        for i, values in enumerate(shifted):
            self._write(i, values, when)
        self.ctx.state[self.len_name] = IF(when, n - 1, n)

    def remove(self, *args) -> None:
        values = self.values(args)
        self._remove_at([AND(self.length_term > i, self._is(i, values)) for i in range(self.k)])

    def _remove_at(self, at: list[Any]) -> None:
        """The element of the first slot of `at` (each slot's condition) leaves; every slot from it on takes
        the next one's parts (none of them: past the bound, any element may be the one that leaves)."""
        path, n = self.ctx.path, self.length_term
        removed = []
        for i in range(self.k):
            removed.append(OR(*at[: i + 1]))
        found = removed[-1] if removed else False
        beyond = AND(NOT(found), n > self.k, self._beyond("remove"))
        shifted = [self.slot(i + 1) for i in range(self.k - 1)] + [self._vacated()]
        for i, new in enumerate(shifted):
            self._write(i, new, AND(path, removed[i]))
        self.ctx.state[self.len_name] = IF(AND(path, OR(found, beyond)), n - 1, n)


# ---------------------------------------------------------------- the decisions owed: the library's list state

#: the library's list of the decisions owed (`state decisions: list[(player | corporation | private | minor,
#: action)] max N`), which the runtime reads to refuse other actions and to say who acts
DECISIONS = "decisions"


def decisions_decl(model) -> s.StateDecl | None:
    for decl in model.states():
        if decl.name == DECISIONS and decl.is_list and decl.bound:
            return decl
    return None


def decision_vars(model) -> list[str]:
    """The variables of the decisions owed (none where the title has no such list)."""
    decl = decisions_decl(model)
    return [name for name, _ in variables(decl)] if decl is not None else []


def front(model, state: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(whether a decision is owed, its entity, its action's code): the first of the decisions owed."""
    if decisions_decl(model) is None:
        return z3.BoolVal(False), model.z(NONE), z3.IntVal(0)
    return (state[length_var(DECISIONS)] >= 1, state[slot_var(DECISIONS, 0, 0)], state[slot_var(DECISIONS, 0, 1)])


def pop_decision(tr, ctx: Ctx) -> None:
    """The first decision owed is taken (declined: what was owed is not done)."""
    decl = decisions_decl(tr.model)
    if decl is None:
        return
    ctx.shared.reads.add("state", decl.name, (decl.element, decl.reset_on, decl.bound))
    _List(tr, decl, ctx).pop()
