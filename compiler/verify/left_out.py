"""The loops over the corporations a cut-down scope leaves out (issue 32): over-approximated, or said in the report.

A title with more corporations than `model.CORPORATIONS_ALL_UP_TO` is verified for the first two (the
scope); the others' certificates that players hold are one frame count per player (`other_certs:P`).
An expression over `corporations` reads the left-out ones too, as the engine answers
(`Translator.quantifier`, `engines_answer`). A *statement* `for c in corporations` runs its body for the
scope's corporations (`Translator.stmt`), and then for those left out as this module says
(`translate_left_out`). Their iterations are read off the body, procedures it calls followed into with
the left-out corporation's parameters, every condition taken both ways:

- what changes only the left-out corporation's own state, which the model keeps none of, is nothing: a
  `set` of a state's element keyed by it or of its field, `unreserve` on it (station slots are outside the
  model), `move_price` on it (its price), `check_president` on it (the take-over it asks for is a
  transition of its own, `take_over`, of the scope's corporations, as for the scope's), a function's call
  (it writes nothing), a `require` (a refusal of theirs is not the model's);
- a `transfer` between holders the loop's corporation does not name is over-approximated: any amount, 0
  or more (as many iterations may pay it, or none), from the one to the other (money still moves only by
  transfer: the money invariant stays meaningful);
- a `move` of a value of the left-out corporation (its certificate: what else of it another holds) between
  holders it does not name leaves each player it may leave any count of the others' certificates up to
  what he held, and each player it may reach any count from what he held (`other_certs:P`); other
  holders keep no certificate of a left-out corporation in the model;
- anything else (a transfer or a move to or from the left-out corporation, a `set` of another state, an
  event, another builtin, a loop over a value not of it) may change what the model keeps in ways it
  cannot bound: the loop is *not followed* for the left-out corporations, `loops_left_out` says so, one
  note per loop, which the report prints with the scope's notes (`Verifier.scope_notes`). Those checks
  hold of the game on the scope's corporations; the note says what they leave out, never silently.

The notes describe the translations and change none of them: they are not part of the scope's key
(`Model.scope_key`).
"""

from __future__ import annotations

from typing import Any

from compiler.lang import syntax as s
from compiler.verify.model import Unsupported
from compiler.verify.terms import AND, IF, IMPLIES, NOT, OR, Ctx, truth

#: the builtins whose call on a corporation the scope leaves out changes only what the model keeps none
#: of (the first argument that corporation): its station slots kept on the map, its price, its presidency
#: (a take-over step of its own, `take_over`, bound to the scope's corporations)
OWN_BUILTINS = frozenset({"unreserve", "move_price", "check_president"})

#: the library's procedures the runtime calls of itself that the model translates as transitions of their
#: own (`translate.runtime_transitions`); the title's actions and triggers are the other roots, and
#: `check_take_over` one where the title's take-overs follow a president's certificate held
RUNTIME_TRANSITIONS = ("take_presidency", "end_draft", "receive_drafted")

#: what a loop's iterations for the left-out corporations do, as `classify` finds: nothing the model keeps,
#: what `translate_left_out` over-approximates, or what it does not follow (with the reason)
OWN, APPROXIMATED = "own", "approximated"


def _depends(expr: Any, dep: set[str]) -> bool:
    """Whether an expression reads a name bound to the left-out corporation (or a value of it)."""
    return any(isinstance(n, s.Name) and n.name in dep for n in s.walk(expr))


def _called(call: Any) -> str | None:
    return call.func.name if isinstance(call, s.Call) and isinstance(call.func, s.Name) else None


def _at(node: Any) -> str:
    span = getattr(node, "span", None)
    return f"{span.path}:{span.line}" if span is not None and span.line > 0 else "?"


def _assigned(body: Any) -> set[str]:
    """The locals a block `set`s or binds anew (read after it, each may hold any of its values)."""
    return {n.target.name for n in s.walk(body) if isinstance(n, s.Assign) and isinstance(n.target, s.Name)} \
        | {n.name for n in s.walk(body) if isinstance(n, s.Let)}


class _Walk:
    """One walk of a loop's body for the corporations left out. Without a translator (`tr` None) it only
    classifies (`worst`: OWN, APPROXIMATED, or the reason it is not followed); with one, it translates
    what it over-approximates into `ctx`."""

    def __init__(self, routines: dict[str, Any], tr: Any = None, ctx: Any = None):
        self.routines, self.tr, self.ctx = routines, tr, ctx
        self.worst: str = OWN
        #: the transfers and moves made (source and target terms): another between the same two is covered
        #: (a sum of amounts of 0 or more is one; a count any value up to, or from, the one before is one
        #: within, or from, the count before)
        self.paid: list[tuple[Any, Any]] = []
        self.moved: list[tuple[Any, Any]] = []

    def stmts(self, body: tuple, dep: set[str], env: dict[str, Any], stack: tuple[str, ...]) -> str | None:
        for st in body:
            why = self.stmt(st, dep, env, stack)
            if why is not None:
                return why
        return None

    def _value(self, expr: Any, env: dict[str, Any]) -> Any:
        ctx = self.ctx
        return self.tr.expr(expr, Ctx(self.tr, ctx.state, ctx.shared, ctx.path, dict(env)))

    def _local(self, name: str, value: Any, dep: set[str], env: dict[str, Any]) -> None:
        if _depends(value, dep):
            dep.add(name)
            env.pop(name, None)
        else:
            dep.discard(name)
            if self.tr is not None:
                env[name] = self._value(value, env)

    def stmt(self, st: Any, dep: set[str], env: dict[str, Any], stack: tuple[str, ...]) -> str | None:
        if isinstance(st, (s.Require, s.Fail)):
            return None
        if isinstance(st, s.Let):
            self._local(st.name, st.value, dep, env)
            return None
        if isinstance(st, s.Assign):
            target = st.target
            if isinstance(target, s.Name):
                self._local(target.name, st.value, dep, env)
                return None
            if isinstance(target, s.Member) and _depends(target.obj, dep):
                return None  # a field of the left-out corporation: the model keeps none
            if isinstance(target, s.Call) and _called(target) is not None and any(_depends(a, dep) for a in target.args):
                return None  # a state's element keyed by it: the model keeps none
            return f"`set` at {_at(st)}"
        if isinstance(st, (s.If, s.For)):
            # every condition both ways, a loop's body once (what it over-approximates covers any number
            # of runs); the locals it sets may hold anything after it
            blocks = [b for _, b in st.branches] + [st.orelse] if isinstance(st, s.If) else [st.body]
            inner = set(dep)
            if isinstance(st, s.For):
                if not _depends(st.domain, dep):
                    return f"a `for` over a value not of it at {_at(st)}"
                inner.add(st.var)  # an element of a value of the left-out corporation (its certificates)
            for block in blocks:
                why = self.stmts(block, set(inner), dict(env), stack)
                if why is not None:
                    return why
            for name in _assigned(blocks):
                dep.add(name)
                env.pop(name, None)
            return None
        if isinstance(st, s.Match):
            return self.stmt(st.as_if(), dep, env, stack)
        if isinstance(st, s.Do):
            return self.call(st, dep, env, stack)
        if isinstance(st, s.Transfer):
            if _depends(st.source, dep) or _depends(st.target, dep):
                return f"a `transfer` to or from it at {_at(st)}"
            self.worst = APPROXIMATED
            if self.tr is not None:
                ctx = self.ctx
                source, target = (self.tr.as_ent(self._value(e, env)) for e in (st.source, st.target))
                if any(_same(source, s_) and _same(target, t_) for s_, t_ in self.paid):
                    return None
                self.paid.append((source, target))
                amount = ctx.fresh("left_out_transfer")
                ctx.shared.axioms.append(amount >= 0)
                self.tr.builtins.transfer(ctx, amount, source, target)
            return None
        if isinstance(st, s.Move):
            if not _depends(st.what, dep) or _depends(st.source, dep) or _depends(st.target, dep):
                return f"a `move` at {_at(st)}"
            self.worst = APPROXIMATED
            if self.tr is not None:
                self._move(*(self.tr.as_ent(self._value(e, env)) for e in (st.source, st.target)))
            return None
        if isinstance(st, s.Emit):
            return f"`emit {st.event}` at {_at(st)}"
        return f"a {type(st).__name__} at {_at(st)}"

    def call(self, st: Any, dep: set[str], env: dict[str, Any], stack: tuple[str, ...]) -> str | None:
        name = _called(st.call)
        if name is None:
            return f"a call at {_at(st)}"
        routine = self.routines.get(name)
        if routine is not None and routine.kind == "function":
            return None  # a function writes nothing
        if routine is not None:
            if name in stack:
                return None  # (a call of itself is refused by `rulec check`, E013)
            inner: set[str] = set()
            bound: dict[str, Any] = {}
            given = list(zip(routine.params, st.call.args)) + [
                (p, a) for k, a in st.call.kwargs for p in routine.params if p.name == k]
            for p, a in given:
                if _depends(a, dep):
                    inner.add(p.name)
                elif self.tr is not None:
                    bound[p.name] = self._value(a, env)
            why = self.stmts(routine.body, inner, bound, stack + (name,))
            return None if why is None else f"`{name}`: {why}"
        if name in OWN_BUILTINS and st.call.args and _depends(st.call.args[0], dep):
            return None
        return f"`{name}` at {_at(st)}"

    def _move(self, source: Any, target: Any) -> None:
        """A certificate of a left-out corporation from `source` to `target`: each player it may leave
        holds any count of the others' certificates up to what he held, each it may reach any from it."""
        tr, ctx = self.tr, self.ctx
        if any(_same(source, s_) and _same(target, t_) for s_, t_ in self.moved):
            return  # (covered by the counts havocked for the same holders before)
        self.moved.append((source, target))
        for q in tr.model.players:
            leaves, reaches = tr.ent_is(source, q), tr.ent_is(target, q)
            if truth(leaves) is False and truth(reaches) is False:
                continue
            name = f"other_certs:{q.id}"
            was = ctx.state[name]
            now = ctx.fresh(f"left_out_certs:{q.id}")
            ctx.shared.axioms.append(AND(now >= 0, IMPLIES(AND(leaves, NOT(reaches)), now <= was),
                                         IMPLIES(AND(reaches, NOT(leaves)), now >= was)))
            ctx.state[name] = IF(AND(ctx.path, OR(leaves, reaches)), now, was)


def _same(a: Any, b: Any) -> bool:
    """Whether two holder terms are one (z3's structural equality)."""
    return a is b or (hasattr(a, "eq") and hasattr(b, "eq") and a.eq(b))


def classify(body: tuple, var: str, routines: dict[str, Any], stack: tuple[str, ...] = ()) -> str:
    """What a loop's iterations for the corporations left out do: OWN, APPROXIMATED, or the reason the
    model does not follow them."""
    walk = _Walk(routines)
    why = walk.stmts(body, {var}, {}, stack)
    return why if why is not None else walk.worst


def kept_write(body: tuple, dep: set[str], routines: dict[str, Any], stack: tuple[str, ...] = ()) -> str | None:
    """What the first statement of `body` writes of the state the model keeps that `translate_left_out`
    does not over-approximate, for a corporation the scope leaves out bound to the names `dep`; None
    where the model keeps or over-approximates all of it."""
    return _Walk(routines).stmts(body, set(dep), {}, stack)


def translate_left_out(tr: Any, st: Any, ctx: Any) -> None:
    """A statement `for c in corporations`' iterations for the corporations the scope leaves out, after
    the scope's: what they may change of the state the model keeps, over-approximated (the module's
    docstring); nothing where they change only their own state or where the model does not follow them
    (`loops_left_out` notes those). Locals the body binds stay inside it."""
    routines = {name: c.decl for name, c in tr.routines.items()}
    if classify(st.body, st.var, routines) != APPROXIMATED:
        return
    walk = _Walk(routines, tr, ctx)
    why = walk.stmts(st.body, {st.var}, dict(ctx.locals), ())
    if why is not None:  # (classify said it would not)
        raise Unsupported(f"the corporations the scope leaves out: {why}")


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
            why = classify(node.body, node.var, routines, (clause.name,))
            if why in (OWN, APPROXIMATED):
                continue
            span = node.span
            at = f" ({span.path}:{span.line})" if span.path and not span.path.startswith("<") and span.line > 0 else ""
            out.append(f"not followed: `for {node.var} in corporations` of {clause.kind} {clause.name}{at} for the "
                       f"corporations the scope leaves out, whose iterations may change what the model keeps "
                       f"({why}); its checks hold for the scope's corporations")
    return out
