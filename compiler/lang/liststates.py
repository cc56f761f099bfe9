"""The checks of list states (`state decisions: list[(player | corporation, action)] max 6`): E037.

A list state keeps its elements in order (duplicates allowed). It is read and changed only through its
operations (`syntax.LIST_OPERATIONS`): `NAME.first(a, b)` (whether (a, b) is its first element),
`NAME.contains(a, b)`, `NAME.length()`, `NAME.first_for(a, b)` (whether the first element whose first part is a
goes on with b: its first parts, two at least), `NAME.elements()` (its elements in order, of a list whose
elements have one part: `for c in NAME.elements()`), and the statements `do NAME.append(a, b)` (to the end),
`do NAME.insert(i, a, b)` (before the element at place i, from 0; at the end past it), `do NAME.remove(a, b)`
(its first occurrence) and `do NAME.pop()` (the first element). Its declaration names
how many elements the z3 model follows exactly (`max N`: past them, any value the engine may hold).

Refused, each with its place: a part of a kind the engine and the model cannot both keep (a list's part is
a player, corporation, private or minor, several of them (`player | corporation`), an action of the
title, a value of an enum of the title, or a truth value, `bool`); a list without its bound, a bound on what is no list; a list
read or set as a set is (`NAME(a)`, `set NAME(a) = true`); an operation it does not have; an operation
given another number of arguments than its elements have parts, an argument of another kind, an action
or enum value the title does not have; a statement operation read as a value, a value done.
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, error
from compiler.lang import syntax as s
from compiler.lang.exprtypes import kinds_meet, typed_params
from compiler.lang.schema import did_you_mean, listing, nearest

#: the kinds of entity a list's part may name (several at once: `player | corporation`)
ENTITY_KINDS = ("player", "corporation", "private", "minor")
#: the part that names an action of the title (`require_decision(P, par)`: `par`)
ACTION = "action"
#: the part that is a truth value (`state card_offers: list[(player, corporation, bool)]`: whether one must take it)
BOOL = "bool"


def part_kinds(part: str) -> tuple[str, ...]:
    """The kinds of a part of a list's element: `player | corporation` -> ("player", "corporation")."""
    return tuple(k.strip() for k in part.split("|"))


def _bad_part(part: str, enums: dict[str, tuple[str, ...]]) -> bool:
    kinds = part_kinds(part)
    if len(kinds) == 1 and (kinds[0] in enums or kinds[0] in (ACTION, BOOL)):
        return False
    return not all(k in ENTITY_KINDS for k in kinds)


def check_declaration(decl: s.StateDecl, enums: dict[str, tuple[str, ...]]) -> list[Diagnostic]:
    """E037 for a list state's declaration: its parts and its bound (`max N`); a bound on what is no list."""
    out: list[Diagnostic] = []
    if not decl.is_list:
        if decl.bound is not None:
            out.append(error("E037", f"state `{decl.name}` is `{decl.type}`: `max {decl.bound}` bounds a list "
                                     "state, and this is none", decl.span,
                             help="write the state as list[...] or leave out `max`"))
        return out
    if not decl.element or any(_bad_part(part, enums) for part in decl.element):
        out.append(error(
            "E037", f"state `{decl.name}` is `{decl.type}`: a state is a set of player, corporation, private, minor, "
                    "certificate or values of an enum of the title, or of tuples of them; a list's parts are "
                    f"{', '.join(ENTITY_KINDS)} (or several of them: `player | corporation`), `action` (an action of "
                    "the title), `bool` or an enum of the title",
            decl.type.span or decl.span,
            help="write list[(player | corporation, action)], list[corporation] or list[(player, ENUM)]"))
        return out
    if decl.bound is None or decl.bound < 1:
        out.append(error(
            "E037", f"list state `{decl.name}` names no bound: the z3 model follows a list up to a length the "
                    "declaration gives" + ("" if decl.bound is None else f" (at least 1, not {decl.bound})"),
            decl.type.span or decl.span,
            help=f"write `state {decl.name}: {decl.type} max 4` (past the bound the model reads any value the "
                 "engine may hold)"))
    return out


def _operation(node) -> tuple[str, str] | None:
    """(state name, operation) of `NAME.OP(...)`, or None."""
    if isinstance(node, s.Call) and isinstance(node.func, s.Member) and isinstance(node.func.obj, s.Name):
        return node.func.obj.name, node.func.name
    return None


def check_uses(title, states: dict[str, s.StateDecl], enums: dict[str, tuple[str, ...]]) -> list[Diagnostic]:
    """E037 for the reads and changes of list states in the title's routines, triggers and invariants (and
    for `NAME.OP(...)` of a state that is no list)."""
    out: list[Diagnostic] = []
    lists = {name: decl for name, decl in states.items() if decl.is_list}
    actions = sorted(clause.name for clause in title.clauses if clause.kind == "action")
    for clause in title.clauses:
        decl = clause.decl
        if not isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
            continue
        shadowed = {p.name for p in decl.params} if isinstance(decl, s.Routine) else set()
        shadowed |= {n.name for n in s.walk(decl) if isinstance(n, s.Let)}
        shadowed |= {n.var for n in s.walk(decl) if isinstance(n, (s.For, s.Quantifier))}
        done = {id(st.call) for st in s.walk(decl) if isinstance(st, s.Do)}
        typed = None
        for node in s.walk(decl):
            if isinstance(node, s.Assign) and isinstance(node.target, s.Call) and isinstance(node.target.func, s.Name) \
                    and node.target.func.name in lists and node.target.func.name not in shadowed:
                state = lists[node.target.func.name]
                out.append(error(
                    "E037", f"state `{state.name}` is a list: it changes by its operations, not by `set`",
                    node.target.span or node.span,
                    help=f"do {state.name}.append(...), do {state.name}.remove(...) or do {state.name}.pop()"))
                continue
            if isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name in lists \
                    and node.func.name not in shadowed and id(node) not in {id(a.target) for a in s.walk(decl)
                                                                        if isinstance(a, s.Assign)}:
                state = lists[node.func.name]
                out.append(error(
                    "E037", f"state `{state.name}` is a list: it is read by its operations, not as a set is",
                    node.span, help=f"{state.name}.first(...), {state.name}.contains(...) or {state.name}.length()"))
                continue
            found = _operation(node)
            if found is None or found[0] in shadowed:
                continue
            name, op = found
            if name not in lists:
                if name in states:
                    out.append(error(
                        "E037", f"state `{name}` is `{states[name].type}`: only a list state has operations "
                                f"(`{name}.{op}(...)`)", node.span,
                        help=f"read it {name}(...), set it `set {name}(...) = ...`"))
                continue
            state = lists[name]
            if op not in s.LIST_OPERATIONS:
                out.append(error(
                    "E037", f"a list state has no operation `{op}`" + did_you_mean(nearest(op, list(s.LIST_OPERATIONS))),
                    node.func.span or node.span, help="its operations: " + listing(list(s.LIST_OPERATIONS))))
                continue
            statement, takes = s.LIST_OPERATIONS[op]
            if statement and id(node) not in done:
                out.append(error(
                    "E037", f"`{name}.{op}(...)` changes the list and gives no value: run it with `do`",
                    node.span, help=f"do {name}.{op}(...)"))
                continue
            if not statement and id(node) in done:
                out.append(error(
                    "E037", f"`{name}.{op}(...)` gives a value and changes nothing: `do` would do nothing",
                    node.span, help="read it in a `require`, `if`, `let` or `set`"))
                continue
            parts = len(state.element)
            if takes == "one" and parts != 1:
                out.append(error(
                    "E037", f"`{name}.{op}()` gives the elements of a list whose elements have one part; `{name}`'s "
                            f"have {parts} ({', '.join(state.element)})",
                    node.span, help=f"read it by {name}.first(...), {name}.contains(...) or {name}.length()"))
                continue
            if takes == "prefix" and parts < 2:
                out.append(error(
                    "E037", f"`{name}.{op}` reads the first element of one key, its first part, in a list whose "
                            f"elements have more parts; `{name}`'s have one ({state.element[0] if state.element else ''})",
                    node.span, help=f"{name}.first(...) or {name}.contains(...)"))
                continue
            wanted = range(parts, parts + 1) if takes == "parts" else range(2, parts + 1) if takes == "prefix" \
                else range(parts + 1, parts + 2) if takes == "at" else range(0, 1)
            if len(node.args) not in wanted or node.kwargs:
                given = len(node.args) + len(node.kwargs)
                least, most = wanted[0], wanted[-1]
                told = f"{least} to {most} arguments" if least < most else f"{most} argument{'s' if most != 1 else ''}"
                out.append(error(
                    "E037", f"`{name}.{op}` takes {told}"
                            + (f" (a place, from 0, then its elements' parts: {', '.join(state.element)})"
                               if takes == "at" else
                               f" (its elements' {'first ' if takes == 'prefix' else ''}parts: "
                               f"{', '.join(state.element)})" if most else "")
                            + f"; this gives {given}",
                    node.span, help=f"state {name} is declared at {state.span.path}:{state.span.line}"))
                continue
            typed = typed_params(decl) if typed is None else typed
            args = node.args
            if takes == "at":
                place, args = args[0], args[1:]
                out.extend(_place(name, place, typed, node))
            for part, arg in zip(state.element, args):
                out.extend(_argument(name, part, arg, typed, shadowed, enums, actions, node))
    return out


def _place(name, arg, typed, node) -> list[Diagnostic]:
    """E037 for the place of `NAME.insert(at, ...)` that is no number: a string, or a parameter of a kind of
    entity."""
    entity = isinstance(arg, s.Name) and arg.name in typed and any(k in ENTITY_KINDS for k in typed[arg.name])
    if isinstance(arg, s.Str) or entity:
        what = f"`{arg.name}` is the parameter `{arg.name}: {' | '.join(sorted(typed[arg.name]))}`" if entity \
            else "this is a string"
        return [error("E037", f"`{name}.insert` takes a place in the list first, a number from 0; {what}",
                      arg.span or node.span, help=f"do {name}.insert(0, ...) puts the element first")]
    return []


def _argument(name, part, arg, typed, shadowed, enums, actions, node) -> list[Diagnostic]:
    kinds = part_kinds(part)
    if isinstance(arg, s.Name) and arg.name in typed:
        if kinds[0] in ENTITY_KINDS and not kinds_meet(typed[arg.name], set(kinds)):
            return [error("E037", f"state `{name}`'s part is {part}; `{arg.name}` is the parameter "
                                  f"`{arg.name}: {' | '.join(sorted(typed[arg.name]))}`",
                          arg.span or node.span, help=f"give a {' or '.join(kinds)}")]
        return []
    literal = arg.value if isinstance(arg, s.Str) else (
        arg.name if isinstance(arg, s.Name) and arg.name not in shadowed else None)
    if literal is None:
        return []
    if kinds == (ACTION,) and literal not in actions:
        return [error("E037", f"`{literal}` is no action of the title, the part of state `{name}`"
                              + did_you_mean(nearest(literal, actions)),
                      arg.span or node.span, help="a decision names the action that takes it")]
    if len(kinds) == 1 and kinds[0] in enums and literal not in enums[kinds[0]]:
        return [error("E037", f"`{literal}` is no value of enum {kinds[0]}, the part of state `{name}`"
                              + did_you_mean(nearest(literal, list(enums[kinds[0]]))),
                      arg.span or node.span, help=f"its values: {listing(list(enums[kinds[0]]))}")]
    return []
