"""Counterexamples shown as text: what a sat check of `Verifier` breaks, in which state.

A check that z3 answers sat has a model; `counterexample` makes it smaller (`_shrink`: numbers the
violation does not need set to zero), names the invariant's atoms it breaks with their measure and
bound (`_violated`), and shows the state variables that changed or that those atoms read, holdings
grouped as each item's holder (`_group_rows`).
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.verify.invariants import Invariant, money_moves_by_transfer
from compiler.verify.model import GapError, Model, Unsupported
from compiler.verify.translate import Step, Translator, zb

def lift(v: Any) -> z3.ExprRef:
    """A Python value as a z3 term (a term stays as it is)."""
    if isinstance(v, bool):
        return z3.BoolVal(v)
    if isinstance(v, int):
        return z3.IntVal(v)
    return v


def counterexample(solver: z3.Solver, step: Step, inv: Invariant, tr: Translator, strict: Any, rlimit: int) -> str:
    """What a sat check shows (`solver` just answered sat): the step, the atoms it breaks and the state
    before and after. `strict`: a sanctioned invariant's pre-state atoms, not assumed beforehand: a breach
    from a state within the invariant is shown if there is one. `rlimit`: z3's resource units for each
    try at making it smaller."""
    model = solver.model()
    solver.push()
    if strict is not None:
        solver.add(zb(strict))
        if solver.check() == z3.sat:
            model = solver.model()
        else:
            solver.pop()
            solver.push()
    detail = render(solver, model, step, inv, tr, rlimit)
    solver.pop()
    return detail

def render(solver: z3.Solver, model: z3.ModelRef, step: Step, inv: Invariant, tr: Translator, rlimit: int) -> str:
    """A counterexample as text: the step and its parameters, what it breaks, the state that changed."""
    model = _shrink(solver, model, step, tr.model.vars.list, rlimit)
    violated, support = _violated(inv, tr, step, model)
    labels = {part for v in violated for part in v[0].split("/")}
    values: dict[str, tuple[str, str, bool]] = {}
    for var in tr.model.vars.list:
        name = var.name
        before = model.eval(step.pre[name], model_completion=True)
        after_term = step.post[name]
        after = model.eval(after_term if z3.is_expr(after_term) else lift(after_term), model_completion=True)
        values[name] = (_show(tr.model, before), _show(tr.model, after), str(before) != str(after))
    rows = []
    shown_items: set[str] = set()
    for var in tr.model.vars.list:
        name = var.name
        before, after, changed = values[name]
        if name in step.havocked and name not in support:
            continue
        if not changed:
            if name not in support:
                continue
            if name.startswith("hold:"):
                item, holder = name[5:].split("@", 1)
                if before == "0" or not (holder in labels or item in labels):
                    continue
        if name.startswith("hold:"):
            shown_items.add(name[5:].split("@", 1)[0])
            continue
        rows.append((name, before, after, changed))
    for var in tr.model.vars.list:
        if var.name.startswith("hold:") and var.name[5:].split("@", 1)[0] in shown_items:
            rows.append((var.name, *values[var.name]))
    params = []
    for pname, const in sorted(step.params.items()):
        value = model.eval(const, model_completion=True)
        if z3.is_bool(const):
            if z3.is_true(value):
                params.append(pname.split(":", 1)[-1] if ":" in pname else pname)
        else:
            params.append(f"{pname}={value}")
    oracles = [f"{name}={model.eval(c, model_completion=True)}" for name, _, c in step.oracles]
    lines = [f"{step.label}" + (f"  with {', '.join(params)}" if params else "")
             + (f"  [{', '.join(oracles)}]" if oracles else "")]
    for label, text in violated:
        lines.append(f"breaks {inv.name}[{label}]" + (f": {text}" if text else ""))
    lines.append(f"  {'state (* changed)':<38} {'before':>14}    {'after':<14}")
    for name, before, after, changed in _group_rows(tr.model, rows):
        mark = "*" if changed else " "
        lines.append(f"{mark} {name:<38} {before:>14} -> {after:<14}")
    return "\n".join(lines)

def render_state_only(m: Model, model: z3.ModelRef, state: dict[str, Any], inv: Invariant) -> str:
    """A counterexample to an invariant in the initial state: its money and corporation variables."""
    lines = []
    for var in m.vars.list:
        if var.group in ("money", "corp"):
            value = model.eval(state[var.name] if z3.is_expr(state[var.name]) else lift(state[var.name]),
                               model_completion=True)
            lines.append(f"  {var.name:<38} {_show(m, value):>14}")
    return "\n".join(lines)


def _show(model: Model, value: z3.ExprRef) -> str:
    ent = model.ent_of(value)
    if ent is not None:
        return ent.id
    text = str(value)
    return {"True": "true", "False": "false"}.get(text, text)


def consts(e: Any, out: set[str], seen: set[int]) -> None:
    """The pre-state variables a term reads, into `out`."""
    if not z3.is_expr(e) or e.get_id() in seen:
        return
    seen.add(e.get_id())
    if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        name = str(e)
        if name.startswith("pre."):
            out.add(name[4:])
        return
    for c in e.children():
        consts(c, out, seen)


def _violated(inv: Invariant, tr: Translator, step: Step, model: z3.ModelRef) -> tuple[list[tuple[str, str]], set[str]]:
    """The atoms the counterexample breaks, with their measure and bound, and
    the state variables they read."""
    out: list[tuple[str, str]] = []
    support: set[str] = set()
    if inv.step_property is money_moves_by_transfer:
        for path, amount, source, target, src_in, dst_in in step.transfers:
            taken = model.eval(zb(path) if z3.is_expr(path) else z3.BoolVal(bool(path)), model_completion=True)
            if not z3.is_true(taken):
                continue
            ins = [model.eval(x if z3.is_expr(x) else z3.BoolVal(bool(x)), model_completion=True) for x in (src_in, dst_in)]
            amt = model.eval(amount if z3.is_expr(amount) else z3.IntVal(amount), model_completion=True)
            if str(ins[0]) != str(ins[1]) and str(amt) != "0":
                src = _show(tr.model, model.eval(source, model_completion=True))
                dst = _show(tr.model, model.eval(target, model_completion=True))
                out.append(("money", f"a transfer of {amt} from {src} to {dst}: "
                                     f"{src if not z3.is_true(ins[0]) else dst} holds no cash, so money "
                                     f"{'appears' if not z3.is_true(ins[0]) else 'vanishes'}"))
        return out, support
    try:
        before, _ = inv.atoms(tr, step.pre)
        after, _ = inv.atoms(tr, step.post)
    except (GapError, Unsupported):
        return out, support

    def value(e: Any) -> str:
        if not z3.is_expr(e):
            return str(e)
        return str(model.eval(e, model_completion=True))

    for a, b in zip(before, after):
        held = model.eval(zb(b.holds) if z3.is_expr(b.holds) else z3.BoolVal(bool(b.holds)), model_completion=True)
        if z3.is_true(held):
            continue
        if inv.sanctions and b.measure is not None:
            grew = model.eval(zb(tr.cmp(">", b.measure, a.measure)), model_completion=True)
            if not z3.is_true(grew):
                continue
        text = ""
        if b.measure is not None:
            text = f"{value(a.measure)} -> {value(b.measure)}, bound {value(b.bound)}"
        out.append((b.label, text))
        seen: set[int] = set()
        consts(a.holds, support, seen)
        # the post atom's terms are over the pre-state too
        consts(b.holds, support, seen)
    return out, support


def _shrink(solver: z3.Solver, model: z3.ModelRef, step: Step, variables: list, rlimit: int) -> z3.ModelRef:
    """Make a counterexample smaller: try to set numbers of the pre-state that
    the violation does not need to zero (greedy, a few tries)."""
    tries = 0
    solver.set("rlimit", rlimit)
    solver.push()
    for var in variables:
        if var.sort != "int" or tries >= 24:
            continue
        const = step.pre[var.name]
        value = model.eval(const, model_completion=True)
        if not z3.is_int_value(value) or value.as_long() == 0 or var.name.startswith("hold:"):
            continue
        tries += 1
        solver.push()
        solver.add(const == 0)
        if solver.check() == z3.sat:
            model = solver.model()
            solver.pop()
            solver.add(const == 0)
        else:
            solver.pop()
    solver.pop()
    return model


def _group_rows(model: Model, rows: list[tuple[str, str, str, bool]]) -> list[tuple[str, str, str, bool]]:
    """Holding counts shown as each item's holder: `DRGW_1 held by  Player 1 -> pool`."""
    holds: dict[str, dict[str, tuple[str, str, bool]]] = {}
    other = []
    for name, before, after, changed in rows:
        if name.startswith("hold:"):
            item, holder = name[5:].split("@", 1)
            holds.setdefault(item, {})[holder] = (before, after, changed)
        else:
            other.append((name, before, after, changed))
    out = list(other)
    for item_id, by_holder in holds.items():
        item = model.item(item_id)
        if item is None:
            continue
        full_before, full_after, changed = [], [], False
        # read every bucket of the item (the model has them all)
        for holder, (before, after, ch) in by_holder.items():
            changed = changed or ch
            if before != "0":
                full_before.append(holder if before == "1" else f"{holder}x{before}")
            if after != "0":
                full_after.append(holder if after == "1" else f"{holder}x{after}")
        out.append((f"holder of {item_id}", ",".join(full_before) or "-", ",".join(full_after) or "-", changed))
    return out
