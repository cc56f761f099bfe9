"""An action's listing probes (`Compiler.probe`, `static_probe`, `round_probe`): the opening guards
of its body a listing may judge without processing the action, compiled to a function that returns
the refusal's message or None. A mixin of `emitter.Compiler`, whose expressions and statements it
uses.
"""

from __future__ import annotations

from typing import Any, Callable

from compiler.emit.bounds import branch_guard, branch_lines, branch_names, local_names
from compiler.emit.bounds import expr_names as _names
from compiler.emit.pieces import _answering, _cite, _collection, _ident, _Scope, probe_prefix, unparse
from compiler.emit.shared import docstring
from compiler.lang import syntax as s
from compiler.lang.builtins import VALUES
from compiler.lang.ir import Clause


class ProbeCompiler:
    """The listing probes, for `Compiler`."""

    def _opening(self, body, procedures: frozenset[str], common: bool = False) -> list:
        """The statements of an action's `body` a probe may judge (`_probe_plan`): its opening `require`s
        and `let`s; with `common`, then, where the first statement of another kind is an `if` with an
        `else` whose tests reach no procedure, the guards that open every branch of it alike
        (`_common_guards`: 1880 Romania's `not done_this_turn("upgrade")` of a lay, an upgrade's or a
        yellow tile's). Where such a guard refuses, every branch refuses at it or before, as the action
        does after the opening."""
        opening = []
        for st in body:
            if not isinstance(st, (s.Require, s.Let)):
                if common and isinstance(st, s.If):
                    opening += self._common_guards(st, procedures)
                break
            opening.append(st)
        return opening

    def _common_guards(self, st: s.If, procedures: frozenset[str]) -> list:
        """The `require`s found, the same (condition, `unless`), among the opening statements of every
        branch of the `if` `st` (its `else` included: none where it has none), before any statement of
        another kind or one that reaches a procedure, each reading no name a `let` of the branch binds
        before it: a branch's test changes nothing (none reaches a procedure), so each branch, whichever
        is taken, judges the guard as it stands after the opening, at it or after guards of its own.
        Those of the first branch, in its order."""
        if not st.orelse or any(self._reaches(set(_names(test)), procedures) for test, _body in st.branches):
            return []
        common: dict | None = None
        for body in [b for _test, b in st.branches] + [st.orelse]:
            bound: set[str] = set()
            found: dict = {}
            for x in body:
                if not isinstance(x, (s.Require, s.Let)):
                    break
                exprs = [x.value] if isinstance(x, s.Let) else [x.cond] + ([x.unless] if x.unless is not None else [])
                names = {name for e in exprs for name in _names(e)}
                if self._reaches(names, procedures):
                    break
                if isinstance(x, s.Let):
                    bound.add(x.name)
                elif not names & bound:
                    key = (unparse(x.cond), unparse(x.unless) if x.unless is not None else None)
                    found.setdefault(key, x)
            common = found if common is None else {key: common[key] for key in common if key in found}
        return list((common or {}).values())

    def _probe_plan(self, clause: Clause, arity: int, bounded: bool, defaults: bool = False) -> tuple | None:
        """What `probe` writes: (the statements, the tainted names, the tainted `let`s), None where the
        probe has nothing to judge. A bounded guard is ("bound", statement, lower limits as they stand
        at it: `_lower_limits`). With `defaults` (arity 1), the action's optional parameters are read as
        well (at their defaults, `probe(..., defaults=True)`), and None where no guard reads one."""
        from compiler.runtime.game import OUT_OF_TURN, GameBase

        decl: s.Routine = clause.decl  # type: ignore[assignment]
        params = [p.name for p in decl.params]
        if decl.kind != "action" or len(params) < arity or (bounded and len(params) <= arity):
            return None
        if arity == 1 and any(decl.name == t or decl.name.endswith("_" + t)
                              for t in (*GameBase.UNPROBED, *OUT_OF_TURN)):
            return None  # listed without a probe (`GameBase.UNPROBED`) or never listed
        if arity >= 2 and any(_collection(p.type) for p in decl.params[1:arity]):
            return None  # a list names no group of candidates (`GameBase._pair_refused` keys by the values)
        if arity >= 3 and not bounded and arity >= len(params):
            return None  # a probe of every parameter judges one candidate: no cheaper than its trial
        procedures = frozenset(name for name, c in self.routines.items() if c.kind == "procedure")
        self.bound_params = {p.name: str(p.type) for p in decl.params}  # (`bounds.more_bound` reads their types)
        self.bound_locals = local_names(decl)  # (and the names it binds, `bounds._inlined`)
        tainted = set(params[arity:])  # what reads more than the probe's parameters, or the action's other fields
        optional = {p.name for p in decl.params[1:] if p.default is not None} if defaults else set()
        tainted -= optional
        newest = {params[arity - 1]} if arity >= 2 else set()  # and what reads its last parameter
        prefix: list = []
        lets: dict = {}  # the tainted `let`s: name -> value (for `_bound`)
        lower: dict = {}  # the tainted parameters' lower limits (`_lower_limits`)
        # with `bounded`, the guards every branch of the `if` after the opening starts with as well
        # (`_opening`): judged with the bound guards, which refuse a group as listed, so that random play
        # draws from the same candidates as without them (a probe's refusal lists none)
        opening = self._opening(decl.body, procedures, common=bounded)
        common = {id(st) for st in opening} - {id(st) for st in decl.body}
        for st in opening:
            if isinstance(st, s.Require):
                exprs = [st.cond] + ([st.unless] if st.unless is not None else [])
            elif isinstance(st, s.Let):
                exprs = [st.value]
            else:
                break
            names = {name for e in exprs for name in _names(e)}
            if self._reaches(names, procedures):
                break  # a procedure may change the state the guards after it read
            if names & tainted or self._reaches(names, self.ACTION_READERS):
                if isinstance(st, s.Let):
                    tainted.add(st.name)
                    lets[st.name] = st.value
                else:
                    if bounded and self._bounded_guard(st, None, tainted, lets, "", lower) is not None:
                        prefix.append(("bound", st, dict(lower)))  # judged with its lower bound (`_bounded_guard`)
                    self._lower_limits(st, tainted, lower)
                continue
            if bounded:
                prefix.append(st)
                continue
            if names & newest:
                if isinstance(st, s.Let):
                    newest.add(st.name)
                else:
                    newest.add("")  # a guard reads the last parameter: the probe is worth running
            elif arity >= 2 and isinstance(st, s.Require):
                # a guard of the parameters before the last alone: a probe of lower arity (`q_`, `q2_`, ...)
                # judges it once for every value of the last (where it would refuse, the action's dispatch
                # refuses at it or before: this probe may leave it out)
                continue
            prefix.append(st)
        if bounded and (branches := branch_guard(self, decl.body, procedures, tainted, lets)) is not None:
            prefix.append(branches)  # every branch of the `if` after the opening judged by a bound
        if arity >= 2 and not bounded:
            # a `let` of the parameters before the last that no guard left reads: a probe of lower arity
            # evaluates it
            needed: set[str] = set()
            kept: list = []
            for st in reversed(prefix):
                if isinstance(st, s.Let) and st.name not in needed and st.name not in newest:
                    continue
                exprs = [st.value] if isinstance(st, s.Let) else [st.cond] + ([st.unless] if st.unless is not None else [])
                needed |= {name for e in exprs for name in _names(e)}
                kept.append(st)
            prefix = kept[::-1]
        if bounded:
            # only the guards judged by a bound, and the lets they read: the probes without bounds, asked
            # first, judge the rest (where a bound refuses, the dispatch refuses at its guard or before)
            needed = set()
            kept = []
            for st in reversed(prefix):
                if isinstance(st, tuple):
                    todo = set(_names(st[1].cond)) if st[0] == "bound" else branch_names(st)
                    while todo:
                        name = todo.pop()
                        if name not in needed:
                            needed.add(name)
                            todo |= set(_names(lets[name])) if name in lets else set()
                            todo |= {n for _op, limit in st[2].get(name, ()) for n in _names(limit)}
                elif id(st) in common:
                    needed |= {name for e in (st.cond, st.unless) if e is not None for name in _names(e)}
                elif not (isinstance(st, s.Let) and st.name in needed):
                    continue
                else:
                    needed |= set(_names(st.value))
                kept.append(st)
            prefix = kept[::-1]
        while prefix and isinstance(prefix[-1], s.Let):
            prefix.pop()  # a trailing `let` refuses nothing
        if defaults:
            # a probe of the optional parameters only where a guard reads one, directly or through a `let`
            # (else the plain probe judges the same guards)
            read: set[str] = set()
            for st in reversed(prefix):
                exprs = [st.value] if isinstance(st, s.Let) else [st.cond] + ([st.unless] if st.unless is not None else [])
                if not isinstance(st, s.Let) or st.name in read:
                    read |= {name for e in exprs for name in _names(e)}
            if not read & optional:
                return None
        if not prefix or (arity >= 2 and not bounded and "" not in newest) \
                or (bounded and not any(isinstance(st, tuple) or id(st) in common for st in prefix)):
            return None
        return prefix, tainted, lets

    #: the fields of an entity that are its fixed data, never changed during play (`X.abilities`: its abilities)
    FIXED_FIELDS = frozenset({"abilities"})
    #: the quantifiers a static expression may hold (over a list of fixed data)
    STATIC_QUANTIFIERS = frozenset({"any", "all", "count"})

    def _static(self, e, entity: str, names: dict[str, str] | None = None, depth: int = 0) -> bool:
        """Whether expression `e` reads nothing that changes during play: literals, `not`, `and`, `or`, `==` and
        `!=`; the entity (`entity`) only for a field of its fixed data (`FIXED_FIELDS`, 1880 Romania's
        `any(a in company.abilities: a.key == "close_for_cash")`), a quantifier of `STATIC_QUANTIFIERS` over
        such a list, whose element's fields are data too; and a call of a function of the title whose arguments
        are the entity or literals and whose body is static so (the library's `has_ability(company, "key")`).
        `names`: what each local name is (`entity`, `record`: an element of fixed data, `literal`)."""
        names = {entity: "entity"} if names is None else names
        if isinstance(e, (s.Str, s.Int, s.Bool, s.NoneLit)):
            return True
        if isinstance(e, s.Name):
            return names.get(e.name) in ("record", "literal")
        if isinstance(e, s.Unary):
            return e.op == "not" and self._static(e.operand, entity, names, depth)
        if isinstance(e, s.Binary):
            return e.op in ("and", "or", "==", "!=") and self._static(e.left, entity, names, depth) \
                and self._static(e.right, entity, names, depth)
        if isinstance(e, s.Member) and isinstance(e.obj, s.Name):
            what = names.get(e.obj.name)
            return what == "record" or (what == "entity" and e.name in self.FIXED_FIELDS)
        if isinstance(e, s.Quantifier) and e.kind in self.STATIC_QUANTIFIERS and isinstance(e.domain, s.Member) \
                and isinstance(e.domain.obj, s.Name) and names.get(e.domain.obj.name) == "entity" \
                and e.domain.name in self.FIXED_FIELDS:
            return self._static(e.body, entity, {**names, e.var: "record"}, depth)
        if isinstance(e, s.Call) and isinstance(e.func, s.Name) and not e.kwargs and depth < 8:
            clause = self.routines.get(e.func.name)
            if clause is None or clause.kind != "function" or e.func.name in self.states:
                return False
            decl: s.Routine = clause.decl  # type: ignore[assignment]
            if decl.result is None or len(e.args) != len(decl.params):
                return False
            inner: dict[str, str] = {}
            for param, arg in zip(decl.params, e.args):
                if isinstance(arg, s.Name) and names.get(arg.name) == "entity":
                    inner[param.name] = "entity"
                elif isinstance(arg, (s.Str, s.Int, s.Bool)):
                    inner[param.name] = "literal"
                else:
                    return False
            return self._static(decl.result, entity, inner, depth + 1)
        return False

    def static_probe(self, clause: Clause) -> str | None:
        """The static probe of an action (`qs_`): its opening guards (those of its probe, `probe`) that read
        nothing that changes during play (`_static`: 1880 Romania's `has_ability(company,
        "close_for_cash")`), as a function of its entity; None where there is none. Where it refuses an
        entity it refuses it in every state, so a listing asks it once a game for each entity
        (`GameBase._static_refused`) and then lists nothing of the action for that entity, as the probe,
        which holds the same guard, would refuse it."""
        return self._guard_probe(clause, "qs_", lambda cond, entity, _local: self._static(cond, entity), True,
                                 "read only its entity, and nothing of it that changes during play (the listing "
                                 "static probe)", answering=False)

    #: the library's functions whose answer is a function of the round alone (in_round: `current_round == R`)
    ROUND_READERS = frozenset({"in_round"})

    def _round_only(self, e, local: set[str]) -> bool:
        """Whether expression `e` reads nothing but the round: calls of a builtin of `ROUND_READERS` whose
        arguments are literals or the title's constant names (no name of `local`, the action's parameters
        and `let`s), literals, `not`, `and`, `or`, `==` and `!=`."""
        if isinstance(e, (s.Str, s.Int, s.Bool, s.NoneLit)):
            return True
        if isinstance(e, s.Unary):
            return e.op == "not" and self._round_only(e.operand, local)
        if isinstance(e, s.Binary):
            return e.op in ("and", "or", "==", "!=") and self._round_only(e.left, local) \
                and self._round_only(e.right, local)
        if isinstance(e, s.Call) and isinstance(e.func, s.Name) and e.func.name in self.ROUND_READERS and not e.kwargs \
                and e.func.name in self.routines and self.routines[e.func.name].origin.kind == "library":
            return all(isinstance(a, (s.Str, s.Int, s.Bool))
                       or (isinstance(a, s.Name) and a.name in self.constants and a.name not in local
                           and a.name not in VALUES and a.name not in self.param_defaults
                           and a.name not in self.params and a.name not in self.entities)
                       for a in e.args)
        return False

    def round_probe(self, clause: Clause) -> str | None:
        """The round probe of an action (`qr_`): its opening guards (those of its probe, `probe`) that read
        only the round (`_round_only`: 18CO's `in_round(auction)` of `bid`), as a function of the game
        alone; None where there is none. Its answer is a function of the round, so a listing asks it once
        for each round (`GameBase._shaped_names`) and leaves the action out of the round's names where it
        refuses, as the probe, which holds the same guard, would refuse every entity there."""
        return self._guard_probe(clause, "qr_", lambda cond, _entity, local: self._round_only(cond, local), False,
                                 "read only the round (the listing round probe)", answering=False)

    #: the library's functions whose answer, given the entity and a literal, is a function of the round, the
    #: step, the operating company and the decisions owed alone (`in_step(C, s)`, `pending_decision(E, a)`)
    STEP_READERS = frozenset({"in_step", "pending_decision"})

    def _step_only(self, e, entity: str, local: set[str]) -> bool:
        """Whether expression `e` reads nothing but the round, the step, the operating company and the decisions
        owed, and reads one of the last three: `_round_only`'s, or a call of a library function of
        `STEP_READERS` whose first argument is the entity (`entity`) and whose others are literals or the
        title's constant names (1800's `in_step(corporation, lay_tile)`, `pending_decision(corporation,
        "discard_train")`), under `not`, `and`, `or`."""
        return self._step_reads(e, entity, local) == "step"

    def _step_reads(self, e, entity: str, local: set[str]) -> str | None:
        """`_step_only`'s answer: "step" where `e` reads a step reader, "round" where only what `_round_only`
        accepts, None where anything else."""
        if isinstance(e, s.Unary) and e.op == "not":
            return self._step_reads(e.operand, entity, local)
        if isinstance(e, s.Binary) and e.op in ("and", "or"):
            left, right = self._step_reads(e.left, entity, local), self._step_reads(e.right, entity, local)
            return None if left is None or right is None else "step" if "step" in (left, right) else "round"
        if isinstance(e, s.Call) and isinstance(e.func, s.Name) and e.func.name in self.STEP_READERS and not e.kwargs \
                and e.func.name in self.routines and self.routines[e.func.name].origin.kind == "library" \
                and e.args and isinstance(e.args[0], s.Name) and e.args[0].name == entity:
            return "step" if self._literal_args(e.args[1:], local) else None
        return "round" if self._round_only(e, local) else None

    def _literal_args(self, args, local: set[str]) -> bool:
        """Whether each of `args` is a literal or a constant name of the title (as `_round_only` reads them)."""
        return all(isinstance(a, (s.Str, s.Int, s.Bool))
                   or (isinstance(a, s.Name) and a.name in self.constants and a.name not in local
                       and a.name not in VALUES and a.name not in self.param_defaults
                       and a.name not in self.params and a.name not in self.entities)
                   for a in args)

    def step_probe(self, clause: Clause) -> str | None:
        """The step probe of an action (`qt_`): its opening guards (those of its probe, `probe`) that read only
        the round, the step, the operating company and the decisions owed, one of the last three among them
        (`_step_only`: 1800's `in_step(corporation, lay_tile)` of `lay_tile`), as a function of its entity; None
        where there is none. Where no decision is owed and the action opens quietly for the entity (no step
        passed before it: `GameBase._opens_quietly`), its answer is a function of the round, the step, the
        operating company and the entity, so a listing keeps it by those (`GameBase._step_refused`) and, where
        it refuses, leaves the action's candidates out as the probe, which holds the same guard, would."""
        return self._guard_probe(clause, "qt_", self._step_only, True,
                                 "read only the round, the step, the operating company and the decisions owed (the "
                                 "listing step probe)", answering=True)

    def _guard_probe(self, clause: Clause, prefix: str, keep: Callable[[Any, str, set[str]], bool],
                     of_entity: bool, what: str, answering: bool) -> str | None:
        """The probe `static_probe`, `round_probe` and `step_probe` write: the opening guards of the action's
        probe (`_probe_plan` of arity 1) that are a `require` with no `unless` whose condition `keep` accepts
        (given the condition, the entity's name and the names the action binds: its parameters and `let`s),
        as the function `prefix` + the action's name of the game and, with `of_entity`, its entity; its
        docstring says the guards `what`. With `answering`, a guard's refusal is returned (`_answering`),
        else raised. None where no guard is kept."""
        plan = self._probe_plan(clause, 1, False)
        if plan is None:
            return None
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        entity = decl.params[0].name
        local = {p.name for p in decl.params} | {st.name for st in decl.body if isinstance(st, s.Let)}
        guards = [st for st in plan[0] if isinstance(st, s.Require) and st.unless is None
                  and keep(st.cond, entity, local)]
        if not guards:
            return None
        rule = (
            _cite(self.cites.get(f"{decl.kind} {decl.name}", s.NO_PROVENANCE))
            or _cite(decl.prov)
            or f"{clause.origin} {decl.kind} {decl.name}"
        )
        scope = _Scope({entity} if of_entity else set(), self.routines)
        sig = f"g, {_ident(entity)}" if of_entity else "g"
        lines = [f"def {_ident(decl.name, prefix)}({sig}):",
                 f"    {docstring('The opening guards of ' + decl.name + ' that ' + what)}"]
        for st in guards:
            lines.extend(self.stmts((st,), scope, rule, 1))
        return "\n".join(_answering(lines) if answering else lines)

    def probe(self, clause: Clause, arity: int = 1, bounded: bool = False, defaults: bool = False) -> str | None:
        """The probe of an action: the guards among its opening `require`s and `let`s (those before its
        first statement of another kind) that read only its first parameter (the entity acting), as a
        function of that parameter; None where there is none. With `arity` k of 2 or more, those that read
        only its first k parameters and read the k-th (`q2_`, `q3_`, ..., for `GameBase._pair_refused` and
        `_prefix_refused`), None where none reads the k-th (the guards of fewer parameters left to the
        probes of lower arity, run before). With `bounded`, the guards that read more than those
        parameters judged by a lower bound (`qb_`, `qb2_`, ...: `_bounded_guard`), and the guards of those
        parameters that open every branch of the `if` after the opening (`_opening`). Listing runs it in the state the
        action's own dispatch would (`GameBase._group_refused`). The opening statements change
        nothing, so a guard of the probe that refuses refuses every candidate of the action for that
        entity (the action refuses it there or at an earlier guard), and none is generated. With `defaults`
        (`qd_`, `DEFAULT_PROBES`), the guards that read only its entity and its optional parameters, as a
        function of those: asked with their defaults of each candidate that leaves them out
        (`GameBase._defaults_refused`: 1846's trains bought without a trade-in, refused for the train limit
        whatever the train); None where no guard reads an optional parameter."""
        plan = self._probe_plan(clause, arity, bounded, defaults)
        if plan is None:
            return None
        prefix, tainted, lets = plan
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        params = [p.name for p in decl.params]
        if defaults:
            params = params[:1] + [p.name for p in decl.params[1:] if p.default is not None]
            arity = len(params)
        rule = (
            _cite(self.cites.get(f"{decl.kind} {decl.name}", s.NO_PROVENANCE))
            or _cite(decl.prov)
            or f"{clause.origin} {decl.kind} {decl.name}"
        )
        scope = _Scope(set(params[:arity]), self.routines)
        what = "its entity" if arity == 1 else f"its entity and {', '.join(params[1:arity])}"
        sig = ", ".join(["g"] + [_ident(p) for p in params[:arity]])
        if defaults:
            lines = [f"def {_ident(decl.name, 'qd_')}({sig}):",
                     f"    {docstring('The opening guards of ' + decl.name + ' that read only ' + what + ', its optional parameters (the listing probe of a candidate that leaves them at their defaults)')}"]
        elif bounded and not any(isinstance(st, tuple) for st in prefix):
            lines = [f"def {_ident(decl.name, probe_prefix(arity, bounded))}({sig}):",
                     f"    {docstring('The guards of ' + decl.name + ' that read only ' + what + ' and open every branch of its first if (the listing bound probe)')}"]
        elif bounded:
            lines = [f"def {_ident(decl.name, probe_prefix(arity, bounded))}({sig}):",
                     f"    {docstring('The opening guards of ' + decl.name + ' that read more than ' + what + ', judged by a lower bound (the listing bound probe)')}"]
        else:
            lines = [f"def {_ident(decl.name, probe_prefix(arity, bounded))}({sig}):",
                     f"    {docstring('The opening guards of ' + decl.name + ' that read only ' + what + ' (the listing probe)')}"]
        for st in prefix:
            if isinstance(st, tuple) and st[0] == "branches":
                lines.extend(branch_lines(self, st, scope, rule))
            elif isinstance(st, tuple):
                lines.extend(self._bounded_guard(st[1], scope, tainted, lets, rule, st[2]) or ())
            else:
                lines.extend(self.stmts((st,), scope, rule, 1))
        return "\n".join(_answering(lines))

    def _reaches(self, names: set[str], targets: frozenset[str]) -> bool:
        """Whether reading `names` calls one of `targets`, directly or through the title's routines."""
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in targets:
                return True
            if name in seen or name not in self.routines:
                continue
            seen.add(name)
            todo.extend(_names(self.routines[name].decl))
        return False
