"""Lower bounds a listing's bound probes judge guards by, beyond those `Compiler._bound` gives itself (issue 42).

`Compiler._bound` bounds an expression over the values of the names a group of candidates leaves open (its
`tainted` names). This module adds three cases it hands on (`more_bound`):

- a certificate's `percent` or `shares` (`cert.percent` of `let cert = shares[0]`, or of `let cert =
  next_certificate(C, source)`): at least the least of every certificate of the game now
  (`GameBase._least_certificate`);
- a call of one of the title's functions whose arguments read a tainted name (`share_cost(corporation,
  source)` with the source open): the function's expression with its arguments put in (`_inlined`), bound
  so;
- a `match` expression: the least of its cases' bounds.

And one kind of guard `Compiler._probe_plan` finds after an action's opening (`branch_guard`): where that
opening ends in an `if` with an `else` whose tests reach no procedure, and every branch opens with a
bounded guard (`Compiler._bounded_guard`) before any statement of another kind or reaching a procedure,
the group is refused where every branch's guard is under its bound: whichever branch a candidate takes,
its guard (or one before it) refuses it. 18CO's `buy_shares` refused for cash whatever the certificate
and its seller (a corporation holding it, or the market or the treasury).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace

from compiler.lang import syntax as s

#: a certificate's fields of a number with a least over the game's certificates: field -> the attribute
#: `GameBase._least_certificate` reads
CERTIFICATE_FIELDS = {"percent": "percent", "shares": "shares"}

#: builtins whose value is a certificate (or none, which a guard before the bound refuses)
CERTIFICATE_BUILTINS = frozenset({"next_certificate"})

#: the expressions a function's body may hold to be put in place of its call (`_inlined`): none binds a name
_INLINABLE = (s.Name, s.Int, s.Str, s.Bool, s.NoneLit, s.Member, s.Call, s.Binary, s.Unary, s.Cond, s.MatchExpr,
              s.Index)

#: how deep calls are put in, one in another
_DEPTH = 4


def more_bound(compiler, e, scope, tainted: set[str], lets: dict, lower: dict, depth: int = 0) -> str | None:
    """Python for a lower bound of `e` in the cases `Compiler._bound` hands on (see the module), or None;
    without a `scope`, "" for a bound."""

    def bound(x) -> str | None:
        return compiler._bound(x, scope, tainted, lets, lower)

    if isinstance(e, s.Member) and e.name in CERTIFICATE_FIELDS and _certificate_valued(compiler, e.obj, lets):
        return "" if scope is None else f"g._least_certificate({CERTIFICATE_FIELDS[e.name]!r})"
    if isinstance(e, s.MatchExpr):
        found = [bound(x) for _values, x in e.cases] + ([bound(e.orelse)] if e.orelse is not None else [])
        if found and all(x is not None for x in found):
            return "" if scope is None else (found[0] if len(found) == 1 else f"min({', '.join(found)})")
        return None
    if isinstance(e, s.Call) and depth < _DEPTH:
        inlined = _inlined(compiler, e)
        if inlined is not None:
            return bound(inlined)
    return None


def _certificate_valued(compiler, e, lets: dict) -> bool:
    """Whether expression `e` is a certificate (or none): a `let` whose value is an element of a parameter of
    type `list[certificate]` (`shares[0]`) or a call of a builtin of `CERTIFICATE_BUILTINS`."""
    seen = 0
    while isinstance(e, s.Name) and e.name in lets and seen < 8:
        e, seen = lets[e.name], seen + 1
    if isinstance(e, s.Index) and isinstance(e.obj, s.Name):
        return getattr(compiler, "bound_params", {}).get(e.obj.name) == "list[certificate]"
    return (isinstance(e, s.Call) and isinstance(e.func, s.Name) and e.func.name in CERTIFICATE_BUILTINS
            and e.func.name not in compiler.routines and e.func.name not in compiler.states)


def _inlined(compiler, call: s.Call):
    """The expression of the title's function `call` calls, its parameters replaced by the call's arguments;
    None where it calls no such function (a builtin, a procedure, a state), names a keyword, or the
    function's expression holds anything but `_INLINABLE` (nothing that binds a name of its own)."""
    if not isinstance(call.func, s.Name) or call.kwargs or call.func.name in compiler.states:
        return None
    clause = compiler.routines.get(call.func.name)
    if clause is None or clause.kind != "function":
        return None
    decl: s.Routine = clause.decl  # type: ignore[assignment]
    if decl.result is None or len(decl.params) != len(call.args) or any(p.default is not None for p in decl.params):
        return None
    given = {p.name: arg for p, arg in zip(decl.params, call.args)}
    hidden = getattr(compiler, "bound_locals", None)
    if hidden is None or (set(expr_names(decl.result)) - set(given)) & hidden:
        return None  # (a name of its own the caller's parameters or `let`s would hide: not put in)
    return _put(decl.result, given)


def _put(e, given: dict):
    """`e` with each name of `given` replaced by its expression; None where `e` holds an expression that is
    not `_INLINABLE`."""
    if isinstance(e, s.Name):
        return given.get(e.name, e)
    if not isinstance(e, _INLINABLE) or not is_dataclass(e):
        return None
    changes = {}
    for f in fields(e):
        if f.name == "span":
            continue
        value = getattr(e, f.name)
        if isinstance(value, tuple):
            out = []
            for item in value:
                if isinstance(item, tuple):  # a match case: (values, expression)
                    inner = tuple(_put(x, given) if hasattr(x, "span") else x for x in item)
                    if any(x is None for x in inner):
                        return None
                    out.append(inner)
                elif hasattr(item, "span"):
                    put = _put(item, given)
                    if put is None:
                        return None
                    out.append(put)
                else:
                    out.append(item)
            changes[f.name] = tuple(out)
        elif hasattr(value, "span") and not isinstance(value, str):
            put = _put(value, given)
            if put is None:
                return None
            changes[f.name] = put
    return replace(e, **changes)


def branch_guard(compiler, body, procedures: frozenset[str], tainted: set[str], lets: dict):
    """For `Compiler._probe_plan` (bounded): ("branches", [(guards, the branch's tainted names, its lets), ...],
    {}: no lower limits) where the statements of `body` after its opening `require`s and `let`s (none
    reaching a procedure) are an `if` with an `else` whose tests reach no procedure, and every branch opens
    (before any statement of another kind or reaching a procedure) with guards reading a tainted name that
    `Compiler._bounded_guard` judges by a lower bound, the branch's `let`s counted tainted (read through
    their values); else None. A branch refuses where one of its guards does."""
    rest = list(body)
    while rest and isinstance(rest[0], (s.Require, s.Let)):
        st = rest.pop(0)
        exprs = [st.value] if isinstance(st, s.Let) else [st.cond] + ([st.unless] if st.unless is not None else [])
        if compiler._reaches({n for x in exprs for n in expr_names(x)}, procedures):
            return None
    if not rest or not isinstance(rest[0], s.If) or not rest[0].orelse:
        return None
    st = rest[0]
    if any(compiler._reaches(set(expr_names(test)), procedures) for test, _body in st.branches):
        return None
    found = []
    for branch in [b for _test, b in st.branches] + [st.orelse]:
        mine, own = set(tainted), dict(lets)
        guards = []
        for x in branch:
            if not isinstance(x, (s.Require, s.Let)):
                break
            exprs = [x.value] if isinstance(x, s.Let) else [x.cond] + ([x.unless] if x.unless is not None else [])
            names = {n for y in exprs for n in expr_names(y)}
            if compiler._reaches(names, procedures):
                break
            if isinstance(x, s.Let):
                mine.add(x.name)
                own[x.name] = x.value
            elif names & mine and compiler._bounded_guard(x, None, mine, own, "", {}) is not None:
                guards.append(x)  # (a guard reading no tainted name is left to the trial: one that refuses
                # seldom costs the probe as much as the one that does)
        if not guards:
            return None  # (a branch with no guard a bound judges)
        found.append((tuple(guards), frozenset(mine), own))
    # the branches with fewest guards first: where one of them lets the group through, the rest are not asked
    return ("branches", sorted(found, key=lambda entry: len(entry[0])), {})


def branch_names(entry) -> set[str]:
    """The names a `branch_guard` entry reads outside its branches' own `let`s (the probe's `let`s it needs)."""
    names: set[str] = set()
    for guards, _mine, own in entry[1]:
        todo = {name for guard in guards for name in expr_names(guard.cond)}
        done: set[str] = set()
        while todo:
            name = todo.pop()
            if name in done:
                continue
            done.add(name)
            if name in own:
                todo |= set(expr_names(own[name]))
            names.add(name)
    return names


def branch_lines(compiler, entry, scope, rule: str) -> list[str]:
    """The lines of a `branch_guard` entry: the group refused where every branch's guard is under its bound."""
    conds, messages, first_at = [], [], None
    for guards, mine, own in entry[1]:
        tests = []
        for guard in guards:
            lines = compiler._bounded_guard(guard, scope, set(mine), own, rule, {})
            tests.append(next(line for line in lines if line.startswith("    if not ("))[len("    if "):-1])
            message = guard.message or "requires a bound"
            if message not in messages:
                messages.append(message)
            if first_at is None:
                first_at = next((line for line in lines if line.startswith("    # at ")), None)
        # (the branch refuses where one of its guards does, at it or before)
        conds.append(tests[0] if len(tests) == 1 else f"({' or '.join(tests)})")
    return [first_at] * (first_at is not None) + [
        f"    if {' and '.join(conds)}:",
        f"        raise IllegalAction({'; '.join(messages)!r}, rule={rule!r})"]


def expr_names(expr):
    """Every name an expression reads."""
    if isinstance(expr, s.Name):
        yield expr.name
        return
    for value in vars(expr).values() if hasattr(expr, "__dict__") else ():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, tuple):
                for sub in item:
                    if hasattr(sub, "span"):
                        yield from expr_names(sub)
            elif hasattr(item, "span") and not isinstance(item, str):
                yield from expr_names(item)



def local_names(decl) -> frozenset[str]:
    """The names an action binds: its parameters and every `let` (and loop variable) of its body, at any depth
    (`_inlined` puts in no function whose expression reads a name of these as its own)."""
    found = {p.name for p in decl.params}
    todo = list(decl.body)
    while todo:
        x = todo.pop()
        if isinstance(x, s.Let):
            found.add(x.name)
        var = getattr(x, "var", None)
        if isinstance(var, str):
            found.add(var)
        if is_dataclass(x):
            for f in fields(x):
                value = getattr(x, f.name)
                items = value if isinstance(value, tuple) else (value,)
                for item in items:
                    if isinstance(item, tuple):
                        todo += [y for y in item if is_dataclass(y) and not isinstance(y, type)]
                    elif is_dataclass(item) and not isinstance(item, type):
                        todo.append(item)
    return frozenset(found)


def limits_code(limits: tuple, code) -> str:
    """Python for the lower bound of a tainted parameter the guards before set lower limits on
    (`Compiler._lower_limits`: `p in E`, the least of `E`; `p >= E`, `E`; `p > E`, `E + 1`): the greatest of
    them (`GameBase._greatest`: those with no value left out), which every candidate that passed those guards
    reaches. `code`: an expression's Python."""
    parts = [f"g._least({code(limit)})" if op == "in" else f"({code(limit)}) + 1" if op == ">" else code(limit)
             for op, limit in limits]
    return parts[0] if len(parts) == 1 else f"g._greatest({', '.join(parts)})"
