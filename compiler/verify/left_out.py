"""The loops over the corporations a cut-down scope leaves out (issue 32), said in the proof report.

A title with more corporations than `model.CORPORATIONS_ALL_UP_TO` is verified for the first two (the
scope); the others' certificates that players hold are one frame count per player (`other_certs:P`).
An expression over `corporations` reads the left-out ones too, as the engine answers
(`Translator.quantifier`, `engines_answer`). A *statement* `for c in corporations` runs its body only for
the corporations of the scope: what its iterations for the others would change is not in the model.
Where that is only the left-out corporation's own state, which the model keeps none of, nothing is
missed: a `set` of a state's element keyed by it or of its field, a call of `unreserve` on it (station
slots are outside the model), a function's call (it writes nothing), a `require`. Anything else (a
`transfer`, a `move`, a `set` of another state, an event, a builtin, a procedure doing one of these)
may change what the model keeps (the bank's and a holder's cash, a player's certificates, a decision
owed): the loop is *not followed* for the left-out corporations, and `loops_left_out` says so, one note
per loop, which the report prints with the scope's notes (`Verifier.report`). Those checks hold of the
game on the scope's corporations; the note says what they leave out, never silently.

The notes describe the translations and change none of them: they are not part of the scope's key
(`Model.scope_key`), so no proof is filed anew for them.
"""

from __future__ import annotations

from typing import Any

from compiler.lang import syntax as s

#: the builtins whose call on a corporation the scope leaves out changes only what the model keeps none
#: of: `unreserve(C, home)`, its station slots kept on the map (the map is outside the model)
OWN_BUILTINS = frozenset({"unreserve"})

#: the library's procedures the runtime calls of itself that the model translates as transitions of their
#: own (`translate.runtime_transitions`); the title's actions and triggers are the other roots, and
#: `check_take_over` one where the title's take-overs follow a president's certificate held
RUNTIME_TRANSITIONS = ("take_presidency", "on_first_train", "end_draft", "receive_drafted")


def _depends(expr: Any, dep: set[str]) -> bool:
    """Whether an expression reads a name bound to the left-out corporation (or a value of it)."""
    return any(isinstance(n, s.Name) and n.name in dep for n in s.walk(expr))


def _called(call: Any) -> str | None:
    return call.func.name if isinstance(call, s.Call) and isinstance(call.func, s.Name) else None


def kept_write(body: tuple, dep: set[str], routines: dict[str, Any], stack: tuple[str, ...] = ()) -> str | None:
    """What the first statement of `body` writes of the state the model keeps, for a corporation the
    scope leaves out bound to the names `dep` (the loop's variable, and the locals and parameters
    holding a value of it), as words; None where the body writes only that corporation's own state.
    Procedures are followed into, their parameters bound as their arguments are."""
    dep = set(dep)
    for st in body:
        why = _stmt_write(st, dep, routines, stack)
        if why is not None:
            return why
    return None


def _at(node: Any) -> str:
    span = getattr(node, "span", None)
    return f"{span.path}:{span.line}" if span is not None and span.line > 0 else "?"


def _stmt_write(st: Any, dep: set[str], routines: dict[str, Any], stack: tuple[str, ...]) -> str | None:
    if isinstance(st, (s.Require, s.Fail)):
        return None
    if isinstance(st, s.Let):
        if _depends(st.value, dep):
            dep.add(st.name)
        else:
            dep.discard(st.name)
        return None
    if isinstance(st, s.Assign):
        target = st.target
        if isinstance(target, s.Name):
            # a local of the routine: what it holds is read where a statement uses it
            if _depends(st.value, dep):
                dep.add(target.name)
            return None
        if isinstance(target, s.Member) and _depends(target.obj, dep):
            return None  # a field of the left-out corporation: the model keeps none
        if isinstance(target, s.Call) and _called(target) is not None and any(_depends(a, dep) for a in target.args):
            return None  # a state's element keyed by it: the model keeps none
        return f"`set` at {_at(st)}"
    if isinstance(st, s.If):
        for _cond, branch in st.branches:
            why = kept_write(branch, dep, routines, stack)
            if why is not None:
                return why
        return kept_write(st.orelse, dep, routines, stack)
    if isinstance(st, s.Match):
        return _stmt_write(st.as_if(), dep, routines, stack)
    if isinstance(st, s.For):
        inner = set(dep) - {st.var}
        if _depends(st.domain, dep):
            inner.add(st.var)  # an element of a value of the left-out corporation (its certificates)
        return kept_write(st.body, inner, routines, stack)
    if isinstance(st, s.Do):
        name = _called(st.call)
        if name is None:
            return f"a call at {_at(st)}"
        routine = routines.get(name)
        if routine is not None and routine.kind == "function":
            return None  # a function writes nothing
        if routine is not None:
            if name in stack:
                return None  # (a call of itself is refused by `rulec check`, E013)
            args = st.call.args
            bound = {p.name for p, a in zip(routine.params, args) if _depends(a, dep)}
            bound |= {k for k, a in st.call.kwargs if _depends(a, dep)}
            why = kept_write(routine.body, bound, routines, stack + (name,))
            return None if why is None else f"`{name}`: {why}"
        if name in OWN_BUILTINS and st.call.args and _depends(st.call.args[0], dep):
            return None
        return f"`{name}` at {_at(st)}"
    if isinstance(st, s.Transfer):
        return f"a `transfer` at {_at(st)}"
    if isinstance(st, s.Move):
        return f"a `move` at {_at(st)}"
    if isinstance(st, s.Emit):
        return f"`emit {st.event}` at {_at(st)}"
    return f"a {type(st).__name__} at {_at(st)}"


def _reached(title: Any, routines: dict[str, Any], takeover_when: Any) -> list[Any]:
    """The title's actions and triggers, and the procedures they or the runtime call (its
    `RUNTIME_TRANSITIONS`), each once, in the title's order."""
    names = {c.name for c in title.clauses if c.kind in ("action", "trigger")}
    todo = [n for n in RUNTIME_TRANSITIONS if n in routines]
    if takeover_when == "president_certificate_held" and "check_take_over" in routines:
        todo.append("check_take_over")
    todo += [c.decl for c in title.clauses if c.kind in ("action", "trigger")]
    seen: set[str] = set()
    while todo:
        item = todo.pop()
        decl = routines.get(item) if isinstance(item, str) else item
        if decl is None or (isinstance(item, str) and item in seen):
            continue
        if isinstance(item, str):
            seen.add(item)
        for node in s.walk(decl.body):
            name = _called(node)
            if name is not None and name in routines and name not in seen:
                todo.append(name)
    return [c for c in title.clauses
            if (c.kind in ("action", "trigger") and c.name in names) or (c.kind == "procedure" and c.name in seen)]


def loops_left_out(title: Any, truncated: bool, takeover_when: Any = None) -> list[str]:
    """One scope note per statement loop over `corporations` that the model translates (in the title's
    actions and triggers and the procedures they and the runtime's transitions call; `takeover_when`: the
    title's value of it) whose iterations for a corporation the scope leaves out would change what the
    model keeps; none where the scope keeps every corporation (`truncated` false)."""
    if not truncated:
        return []
    routines = {c.name: c.decl for c in title.clauses if c.kind in ("procedure", "function")}
    out = []
    for clause in _reached(title, routines, takeover_when):
        params = {p.name for p in getattr(clause.decl, "params", ())}
        for node in s.walk(clause.decl.body):
            if not (isinstance(node, s.For) and isinstance(node.domain, s.Name) and node.domain.name == "corporations"
                    and "corporations" not in params):
                continue
            why = kept_write(node.body, {node.var}, routines, (clause.name,))
            if why is None:
                continue
            span = node.span
            at = f" ({span.path}:{span.line})" if span.path and not span.path.startswith("<") and span.line > 0 else ""
            out.append(f"not followed: `for {node.var} in corporations` of {clause.kind} {clause.name}{at} for the "
                       f"corporations the scope leaves out, whose iterations may change what the model keeps "
                       f"({why}); its checks hold for the scope's corporations")
    return out
