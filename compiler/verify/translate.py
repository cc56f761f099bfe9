"""The IR of a title's actions, procedures, functions and triggers, translated to z3.

One *transition* is an action schema (`action buy_shares(...)`), a trigger, or
a step of the runtime's round machinery that the DSL does not spell out (the
§9.2-style take-over, the end of a stock round, the first purchase of a train
type, ...). A transition has *bindings*: its entity-typed and enum-typed
parameters are enumerated over the scope (`buy_shares(player=Player 1,
corporation=DRGW, source=pool)`), its money parameters and certificate lists
stay symbolic. `Transition.translate(binding)` (for an action,
`Translator.translate_routine(clause, binding)`) gives a `Step`:

- `guard`: when the engine accepts the action — every `require`, every
  `fail` path, and the runtime's own refusals that are rules of the game (the
  acting entity, a pending decision, a payer without the cash, a share price
  that does not exist yet);
- `post`: the state after the action's own effects, as z3 terms over the
  pre-state (a flat dict, see `verify_model.StateVars`);
- `axioms`: the domains of its symbolic parameters and oracles.

The translation follows `compiler/emit/emitter.py` (names resolve in the same order,
`and`/`or`/`?:` short-circuit, `/` is floor division) and the runtime
(`compiler/runtime/game.py`'s `GameBase` and its parts: each builtin `b_<name>` has a model
here, in `Builtins`). Two of the runtime's safety refusals are deliberately *not*
guards: a negative payment, and a move of an item from a holder that does not
hold it. A rule that relies on them is a transcription error, and the
invariants catch it (money or shares stop adding up, a cash goes negative).

Cascades: the round machinery that a builtin sets off after the action's own
effects (`end_step`, `pass_turn`, `bought`'s take-over check, a train type's
first purchase, an operating round's start with its triggers) is not inlined.
Each such step is a transition of its own, checked from every state the
invariants allow; an action's turn bookkeeping is havocked within its domain.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from compiler.lang import syntax as s
from compiler.lang.builtins import VALUES
from compiler.lang.ir import Clause, Title
from compiler.runtime.entities import exchange_sets
from compiler.runtime.game import COMBINED_STEPS, OUT_OF_TURN, GameBase
from compiler.verify.model import (
    BANK,
    DEPOT,
    ELSEWHERE,
    IPO,
    NONE,
    POOL,
    ROUNDS,
    SCRAP,
    STEPS,
    Ent,
    GapError,
    GapValue,
    Item,
    Model,
    Reads,
    Unsupported,
    component_data,
    hold_name,
    state_var,
)

# ---------------------------------------------------------------- values


@dataclass
class SymList:
    """A list whose members depend on the state: (value, condition) in order."""

    elems: list[tuple[Any, Any]]


class DeadPath(Exception):
    """An expression with no value on the current path (`shares[0]` of a list
    bound empty): the statement list that evaluates it stops there, refused.
    `path`: the path condition it was met on."""

    def __init__(self, path: Any, what: str):
        super().__init__(what)
        self.path = path
        self.what = what


#: Groups of the DSL's `VALUES` with no member in a model without minors (`x in
#: minors` is false for every entity the model has; a quantifier over one is
#: the engine's answer). A model with minors has them as entities.
OUT_OF_SCOPE_GROUPS = frozenset({"minors"})

# The arguments the runtime passes with an event (`GameBase.emit`), by kind;
# `Translator.translate_trigger` relates them to the state the emitting step
# left. An event not listed here cannot be a trigger with arguments.
EVENT_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "corporation_started": ("corporation", "money"),  # set_par: the corporation and its par price
    "floated": ("corporation",),  # check_float: the corporation that floated
    "phase_start": ("phase",),  # the new phase's name (the state's phase)
    "card_picked": ("corporation", "card", "bool"),  # pick_card: the company, its card, whether offered at its start
}


@dataclass(frozen=True)
class ListHead:
    """A binding of a certificate list by its first element (None: the empty
    list); see `Translator.list_head_options`."""

    cert: Any

    def __str__(self) -> str:
        return "[]" if self.cert is None else f"[{self.cert}, ...]"


EMPTY_LIST = ListHead(None)


def indexed_lists(decl: s.Routine) -> set[str]:
    """Names of the routine's parameters that its body indexes (`shares[0]`)."""
    params = {p.name for p in decl.params}
    return {n.obj.name for n in s.walk(decl.body)
            if isinstance(n, s.Index) and isinstance(n.obj, s.Name) and n.obj.name in params}


@dataclass
class Sel:
    """A choice of at most one item: (item, condition) alternatives."""

    alts: list[tuple[Item, Any]]


@dataclass(frozen=True)
class CardRef:
    """An ability card (the title's `ability_cards`) by its index among the title's cards, in order
    from 1; 0 is none (`card_of` of a company without one, a declined pick). `index`: an int or a z3
    term."""

    index: Any


@dataclass
class Routes:
    """The opaque `routes` parameter of `run_routes`."""


@dataclass
class Opaque:
    """A value the model does not follow (a hex or tile name, a checked tile
    lay, a station spot): it may be passed on to builtins, nothing else."""

    what: str


def _list_inner(t: s.TypeRef) -> str | None:
    """`list[x]` -> "x" (the parser nests the list type as an alternative)."""
    if t.is_list:
        return " | ".join(str(a) for a in t.alternatives)
    if len(t.alternatives) == 1 and isinstance(t.alternatives[0], s.TypeRef) and t.alternatives[0].is_list:
        return " | ".join(str(a) for a in t.alternatives[0].alternatives)
    return None


def is_z3(v: Any) -> bool:
    return isinstance(v, z3.ExprRef)


def zb(v: Any) -> z3.BoolRef:
    if isinstance(v, bool):
        return z3.BoolVal(v)
    if isinstance(v, z3.BoolRef):
        return v
    raise Unsupported(f"a condition that is not true/false: {v!r}")


def zi(v: Any) -> z3.ArithRef:
    if isinstance(v, bool):
        raise Unsupported("a truth value used as a number")
    if isinstance(v, int):
        return z3.IntVal(v)
    if isinstance(v, z3.ArithRef):
        return v
    raise Unsupported(f"a value that is not a number: {v!r}")


_TRUE = z3.BoolVal(True)
_FALSE = z3.BoolVal(False)
_TRUE_ID = _TRUE.get_id()
_FALSE_ID = _FALSE.get_id()
#: the ASTs' addresses: z3 shares equal terms (hash-consing), so two terms are one term when their
#: addresses are equal (what `ExprRef.eq`, `Z3_is_eq_ast`, compares), and true and false are one each
_TRUE_AST = _TRUE.as_ast().value
_FALSE_AST = _FALSE.as_ast().value


def truth(v: Any) -> bool | None:
    """A condition's constant value, when it has one (z3 shares the ASTs of
    true and false, so their addresses tell them)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, z3.BoolRef):
        i = v.ast.value
        if i == _TRUE_AST:
            return True
        if i == _FALSE_AST:
            return False
    return None


# The connectives below call z3's constructors directly where the Python API's would only check
# and coerce what is already known (terms of one context, truth values for `and`/`or`, two terms of
# one sort for `if`): the same terms, without most of the Python calls a translation made.
_mk_and, _mk_or, _mk_ite = z3.z3core.Z3_mk_and, z3.z3core.Z3_mk_or, z3.z3core.Z3_mk_ite
_mk_add = z3.z3core.Z3_mk_add
#: the classes of integer terms (`SUM`'s fast path)
_INT_TERMS = (z3.ArithRef, z3.IntNumRef)
#: z3's C functions for a term's sort kind (reading only: no error to check)
_get_sort = z3.z3core.Z3_get_sort.__defaults__[-1].f
_get_sort_kind = z3.z3core.Z3_get_sort_kind.__defaults__[-1].f


def _is_int_term(ctx: z3.Context, t: z3.ExprRef) -> bool:
    ref = ctx.ref()
    return _get_sort_kind(ref, _get_sort(ref, t.ast)) == z3.Z3_INT_SORT
#: the class `z3.If` gives an if-then-else of two terms of these classes (a numeral's is a term's)
_ITE_CLASS = {z3.ArithRef: z3.ArithRef, z3.IntNumRef: z3.ArithRef, z3.BoolRef: z3.BoolRef,
              z3.DatatypeRef: z3.DatatypeRef}


def _connective(mk: Callable, terms: list[z3.BoolRef]) -> z3.BoolRef:
    """`z3.And(terms)` or `z3.Or(terms)` of truth values (`zb`) of one context."""
    ctx = terms[0].ctx
    if any(t.ctx is not ctx for t in terms):
        return z3.And(terms) if mk is _mk_and else z3.Or(terms)
    args = (z3.Ast * len(terms))(*[t.ast for t in terms])
    return z3.BoolRef(mk(ctx.ref(), len(terms), args), ctx)


def _ite(c: z3.BoolRef, a: z3.ExprRef, b: z3.ExprRef) -> z3.ExprRef:
    """`z3.If(c, a, b)`."""
    ctx = c.ctx
    cls = _ITE_CLASS.get(type(a))
    if cls is None or cls is not _ITE_CLASS.get(type(b)) or a.ctx is not ctx or b.ctx is not ctx:
        return z3.If(c, a, b)  # (a mismatch or another kind of term: as z3 makes it)
    # (the model's numbers are all integers, so no coercion is left out; two datatypes of different
    # sorts are refused by z3's constructor, as by `z3.If`, with a `Z3Exception`)
    return cls(_mk_ite(ctx.ref(), c.ast, a.ast, b.ast), ctx)


def AND(*xs: Any) -> Any:
    out = []
    for x in xs:
        t = truth(x)
        if t is False:
            return False
        if t is None:
            out.append(zb(x))
    if not out:
        return True
    return out[0] if len(out) == 1 else _connective(_mk_and, out)


def OR(*xs: Any) -> Any:
    out = []
    for x in xs:
        t = truth(x)
        if t is True:
            return True
        if t is None:
            out.append(zb(x))
    if not out:
        return False
    return out[0] if len(out) == 1 else _connective(_mk_or, out)


def NOT(x: Any) -> Any:
    t = truth(x)
    if t is not None:
        return not t
    return z3.Not(zb(x))


def IMPLIES(a: Any, b: Any) -> Any:
    return OR(NOT(a), b)


def IF(c: Any, a: Any, b: Any) -> Any:
    """if-then-else on translator values, folding constant conditions."""
    t = truth(c)
    if t is True:
        return a
    if t is False:
        return b
    if a is b:
        return a
    if isinstance(a, bool) or isinstance(b, bool):
        if isinstance(a, bool) and isinstance(b, bool):
            if a == b:
                return a
            return zb(c) if a else NOT(c)
        a, b = zb(a), zb(b)
    else:
        if not is_z3(a) and not is_z3(b):
            if a == b:
                return a
        if isinstance(a, int):
            a = _int_val(a)
        if isinstance(b, int):
            b = _int_val(b)
    if not is_z3(a) or not is_z3(b):
        raise Unsupported(f"a choice between {a!r} and {b!r}")
    if a.ast.value == b.ast.value and a.ctx is b.ctx:  # (`a.eq(b)`)
        return a
    return _ite(zb(c), a, b)


#: `z3.IntVal` of the numbers `IF` met (z3 shares equal terms: the same numeral), up to `_INT_VALS_MOST`
_INT_VALS: dict[int, z3.ArithRef] = {}
_INT_VALS_MOST = 4096


def _int_val(n: int) -> z3.ArithRef:
    """`z3.IntVal(n)`."""
    found = _INT_VALS.get(n)
    if found is None:
        found = z3.IntVal(n)
        if len(_INT_VALS) < _INT_VALS_MOST:
            _INT_VALS[n] = found
    return found


def NEG(x: Any) -> Any:
    return -x


def SUM(xs: list[Any]) -> Any:
    consts = sum(x for x in xs if isinstance(x, int) and not isinstance(x, bool))
    terms = [x for x in xs if is_z3(x)]
    if not terms:
        return consts
    ctx = terms[0].ctx
    if all(type(t) in _INT_TERMS and t.ctx is ctx and _is_int_term(ctx, t) for t in terms):
        # (`z3.Sum(terms) + consts`, made by z3's constructor: the terms are integers of one context,
        # which the Python API's would only check and coerce)
        total = terms[0] if len(terms) == 1 else z3.ArithRef(
            _mk_add(ctx.ref(), len(terms), (z3.Ast * len(terms))(*[t.ast for t in terms])), ctx)
        if not consts:
            return total
        return z3.ArithRef(_mk_add(ctx.ref(), 2, (z3.Ast * 2)(total.ast, _int_val(consts).ast)), ctx)
    total = z3.Sum(terms) if len(terms) > 1 else terms[0]
    return total + consts if consts else total


def _const_tree(e: z3.ExprRef, budget: list[int]) -> bool:
    """Whether e is built from numerals by if-then-else, sums and products (a
    product with it can then be distributed into a linear term)."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if z3.is_int_value(e):
        return True
    if z3.is_app_of(e, z3.Z3_OP_ITE):
        return _const_tree(e.arg(1), budget) and _const_tree(e.arg(2), budget)
    if z3.is_add(e) or z3.is_mul(e):
        return all(_const_tree(a, budget) for a in e.children())
    return False


def _distribute(x: z3.ArithRef, tree: z3.ExprRef) -> z3.ArithRef:
    if z3.is_int_value(tree):
        n = tree.as_long()
        return z3.IntVal(0) if n == 0 else (x if n == 1 else x * n)
    if z3.is_app_of(tree, z3.Z3_OP_ITE):
        return z3.If(tree.arg(0), _distribute(x, tree.arg(1)), _distribute(x, tree.arg(2)))
    if z3.is_add(tree):
        return z3.Sum([_distribute(x, c) for c in tree.children()])
    if z3.is_mul(tree):
        out = x
        for c in tree.children():
            out = _distribute(out, c)
        return out
    return x * tree


def MUL(a: Any, b: Any) -> Any:
    """a * b, kept linear where one side is a tree of numerals (a percentage,
    a market price): x * ite(c, 10, 0) is written ite(c, 10x, 0)."""
    if not is_z3(a) and not is_z3(b):
        return int(a) * int(b)
    a, b = zi(a), zi(b)
    if z3.is_int_value(a) or z3.is_int_value(b):
        return a * b
    for x, tree in ((a, b), (b, a)):
        if _const_tree(tree, [3000]):
            return _distribute(x, tree)
    return a * b


def DIV(a: Any, b: Any) -> Any:
    """Floor division, as the engine's `//` (b > 0)."""
    if not is_z3(a) and not is_z3(b):
        return int(a) // int(b)
    return zi(a) / zi(b)


def MOD(a: Any, b: Any) -> Any:
    if not is_z3(a) and not is_z3(b):
        return int(a) % int(b)
    return zi(a) % zi(b)


# ---------------------------------------------------------------- transitions


@dataclass(frozen=True)
class Binding:
    """One instantiation of a transition: concrete values for its entity,
    train and enum parameters (`values`), in parameter order."""

    values: tuple[tuple[str, Any], ...]

    def get(self, name: str) -> Any:
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(name)

    def label(self, name: str) -> str:
        shown = [f"{k}={v}" for k, v in self.values]
        return f"{name}({', '.join(shown)})"


@dataclass
class Transition:
    """An action schema, a trigger or a runtime step, as the checks see it.

    `kind`: "action", "trigger" or "runtime"; `clause` the IR clause (None for a
    runtime step); `where`: the source place to print (file:line:col, or the
    runtime function); `cite`: the citation text; `decl_key`: what its cache
    key hashes (the IR, or the runtime step's version).
    """

    name: str
    kind: str
    clause: Clause | None
    where: str
    cite: str
    summary: str
    decl_key: str
    bindings: Callable[[], list[Binding]]
    translate: Callable[[Binding], "Step"]


@dataclass
class Shared:
    """What all the contexts of one translation share."""

    guards: list[Any] = field(default_factory=list)
    axioms: list[Any] = field(default_factory=list)
    params: dict[str, z3.ExprRef] = field(default_factory=dict)
    oracles: list[tuple[str, tuple, z3.ExprRef]] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)
    reads: Reads = field(default_factory=Reads)
    counter: itertools.count = field(default_factory=itertools.count)
    havocked: set[str] = field(default_factory=set)
    transfers: list[tuple[Any, Any, Any, Any, Any, Any]] = field(default_factory=list)
    #: (op, id, id) -> (operand, operand, truth value) of the tests on opaque values (`opaque_test`)
    opaque_tests: dict[tuple[str, int, int], tuple[Any, Any, Any]] = field(default_factory=dict)
    #: (id, field) -> (opaque value, its field) (`Translator.member`)
    opaque_fields: dict[tuple[int, str], tuple[Any, Any]] = field(default_factory=dict)
    #: corporation id -> when the step asked for the take-over check (`check_president`)
    checked: dict[str, Any] = field(default_factory=dict)
    #: corporations whose presidency the step settles (the `take_over` step)
    settled: set[str] = field(default_factory=set)
    #: oracles asked once per translation, by what they are about (`Builtins.minor_holds`)
    cached: dict[tuple, Any] = field(default_factory=dict)
    #: functions' values by name, arguments and state (`Translator.call_function`): (value, the guards
    #: its body added on no path, as one, what keeps the arguments' terms alive)
    memo: dict[tuple, tuple[Any, Any, tuple]] = field(default_factory=dict)
    #: (path, guard) ids a function's guards were required with (`Translator._require_once`), with the
    #: terms (kept so that no id is reused)
    required: dict[tuple, tuple[Any, Any]] = field(default_factory=dict)
    #: the states the memo's keys name, by the identities of their values (kept alive so that no
    #: identity is reused while a key names it)
    memo_states: dict[tuple, tuple] = field(default_factory=dict)
    depth: int = 0
    #: the outermost branches' path conditions (`Step.branches`), and how deep in `if`s the
    #: translation is
    branches: list[Any] = field(default_factory=list)
    if_depth: int = 0


def _memo_key(name: str, bound: dict[str, Any], state: dict[str, Any], shared: Shared) -> tuple | None:
    """The memo key of a function call (`Translator.call_function`): its name, its arguments (a term
    by its identity, a plain value by its type and value) and the state (the identities of its values);
    None for an argument of another kind (a list, a selection of items), whose call is not memoised."""
    args = []
    for arg_name, value in bound.items():
        if isinstance(value, z3.ExprRef):
            args.append((arg_name, "term", id(value)))
        elif value is None or isinstance(value, (bool, int, str, Ent)):
            args.append((arg_name, type(value).__name__, value))
        else:
            return None
    values = tuple(state.values())
    ids = tuple(map(id, values))
    if ids not in shared.memo_states:
        shared.memo_states[ids] = values
    return (name, tuple(args), ids)


def _memo_value(value: Any) -> bool:
    """Whether a function's value may be shared by the calls the memo answers: a term or a plain value."""
    return value is None or isinstance(value, (z3.ExprRef, bool, int, str, Ent))


@dataclass
class Step:
    """One binding's translation. `pre`/`post`: state dicts (z3 terms);
    `params`: the symbolic parameters; `oracles`: values the model leaves to
    the engine (a route's revenue), as (builtin, args, constant)."""

    label: str
    guard: Any
    pre: dict[str, z3.ExprRef]
    post: dict[str, Any]
    axioms: list[Any]
    params: dict[str, z3.ExprRef]
    oracles: list[tuple[str, tuple, z3.ExprRef]]
    calls: set[str]
    reads: Reads
    havocked: set[str]
    #: every transfer: (path, amount, source, target, source has cash, target has cash)
    transfers: list[tuple[Any, Any, Any, Any, Any, Any]] = field(default_factory=list)
    #: corporation id -> when the step asked for the take-over check
    checked: dict[str, Any] = field(default_factory=dict)
    #: corporations whose presidency the step settles (`take_over`)
    settled: set[str] = field(default_factory=set)
    #: the path conditions of the branches of the routine's own outermost `if`s (those in its body
    #: and in its `for` loops, not in a branch or a called routine), in order: the verifier may
    #: check the step case by case over them (`Verifier._cases`)
    branches: list[Any] = field(default_factory=list)


class Ctx:
    """A translation context: the current state, the path condition, locals."""

    def __init__(self, tr: "Translator", state: dict[str, Any], shared: Shared, path: Any = True,
                 local: dict[str, Any] | None = None):
        self.tr = tr
        self.state = state
        self.shared = shared
        self.path = path
        self.locals = dict(local or {})

    def fork(self, cond: Any) -> "Ctx":
        return Ctx(self.tr, dict(self.state), self.shared, AND(self.path, cond), self.locals)

    def require(self, cond: Any) -> None:
        """A refusal unless `cond` (on the current path)."""
        g = IMPLIES(self.path, cond)
        if truth(g) is not True:
            self.shared.guards.append(g)

    def fresh(self, prefix: str, sort: str = "int") -> z3.ExprRef:
        n = next(self.shared.counter)
        return self.tr.model.vars.const(f"{prefix}#{n}", sort)

    def havoc(self, names: list[str]) -> None:
        vars_ = self.tr.model.vars
        new: dict[str, z3.ExprRef] = {}
        n = next(self.shared.counter)
        for name in names:
            var = vars_.by_name[name]
            new[name] = vars_.const(f"havoc{n}.{name}", var.sort)
        for name, value in new.items():
            self.state[name] = IF(self.path, value, self.state[name])
        context = dict(self.state)
        context.update(new)
        self.shared.axioms.extend(vars_.domain(new, names, context))
        self.shared.havocked.update(names)


#: `ent_is`'s answers kept per model (`Model.ent_is_cache`) before the cache starts again
_ENT_IS_MOST = 200_000


def ent_is(m: Model, e: z3.ExprRef, k: Ent) -> Any:
    """e == k, with e's if-then-else chains of entity constants unfolded (once for each term and
    entity: a move of an item between holders named by terms asks it for every holder)."""
    known = m.ent_of(e)
    if known is not None:
        return known == k
    if not z3.is_app_of(e, z3.Z3_OP_ITE):
        return e == m.z(k)
    cache = m.ent_is_cache
    if len(cache) > _ENT_IS_MOST:
        cache.clear()
    key = (e.get_id(), k)
    found = cache.get(key)
    if found is not None:
        return found[0]
    c = e.arg(0)
    a, b = ent_is(m, e.arg(1), k), ent_is(m, e.arg(2), k)
    if truth(a) is not None and truth(a) == truth(b):
        out = a
    else:
        out = OR(AND(c, a), AND(NOT(c), b))
    cache[key] = (out, e)
    return out


# ---------------------------------------------------------------- the translator


class Translator:
    """Translates a title's routines for one `Model`."""

    def __init__(self, model: Model):
        self.model = model
        self.title: Title = model.title
        self.routines = {c.name: c for c in self.title.clauses if c.kind in ("procedure", "function")}
        self.entities: dict[str, str] = {}
        self.params: set[str] = set()
        self.constants: set[str] = set()
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Enum):
                self.constants.update(decl.values)
            elif isinstance(decl, s.Component):
                if decl.kind in ("corporation", "private", "bond", "minor"):
                    self.entities[decl.key or ""] = decl.kind
                else:
                    self.constants.add(decl.key or "")
            elif isinstance(decl, (s.Property, s.Table, s.Param)):
                self.params.add(decl.name)
        self.constants.update(c.name for c in self.title.clauses if c.kind in ("action", "enum"))
        #: the declared states (`state NAME: set[...]`): read `NAME(a, b)`, written `set NAME(a, b) = v`
        self.states = {c.name: c.decl for c in self.title.clauses if isinstance(c.decl, s.StateDecl)}
        self.builtins = Builtins(self)
        #: the translation under way (see `new_ctx`)
        self.current_shared = Shared()
        #: why the library's `ipo_of` gives no holder for some corporation (raised where one is needed)
        self._ipo_error: Exception | None = None
        self._settle_ipo()

    # -- where unsold certificates sit
    def _settle_ipo(self) -> None:
        """Translate the library's function `ipo_of(C)` (rulespecs/lib/18xx.rules; the engine calls the same
        function, compiled) for every corporation of the scope, and settle the model's certificate holders
        by it (`Model.settle_ipo`): the IPO is one only where the function puts certificates there. The
        function reads the title's properties, so its value is one holder per corporation; anything else
        is refused where a translation needs it. A title without the library has no IPO apart."""
        m = self.model
        clause = self.routines.get("ipo_of")
        holders: dict[Ent, Ent] = {}
        for corp in m.corporations:
            if clause is None:
                holders[corp] = corp
                continue
            ctx = Ctx(self, m.vars.fresh_state("ipo_of"), Shared())
            try:
                value = self.call_routine(clause, [m.z(corp)], {}, ctx)
            except (Unsupported, GapError) as exc:
                self._ipo_error = exc
                return
            holder = m.ent_of(value) if is_z3(value) else None
            if holder is None or ctx.shared.guards or ctx.shared.axioms:
                self._ipo_error = Unsupported(f"ipo_of({corp.id}) names no one holder whatever the state")
                return
            holders[corp] = holder
        m.settle_ipo(holders)

    def ipo_of(self, corp: Ent) -> Ent:
        """Where `corp`'s unsold certificates sit: the library's `ipo_of`, translated (`_settle_ipo`)."""
        if self._ipo_error is not None:
            raise self._ipo_error
        return self.model.ipo_holders[corp]

    # -- expressions
    def expr(self, e: Any, ctx: Ctx) -> Any:
        """`e` as a term of the model; an `Unsupported` construct, or a gap it needs, is reported where it is
    written (`Unsupported.locate`, `GapError.locate`)."""
        try:
            return self._expr(e, ctx)
        except (Unsupported, GapError) as exc:
            raise exc.locate(getattr(e, "span", None))

    def _expr(self, e: Any, ctx: Ctx) -> Any:
        m = self.model
        if isinstance(e, s.Name):
            name = e.name
            if name in ctx.locals:
                return ctx.locals[name]
            if name in VALUES:
                if name == "bank":
                    return m.z(BANK)
                if name == "pool":
                    return m.z(POOL)
                if name == "initial_offering":
                    # the IPO, as in the runtime; where the library's ipo_of puts no certificate there it is
                    # no certificate's holder (`Model.settle_ipo`), and holds nothing, as the runtime's IPO
                    return m.z(IPO)
                if name == "depot":
                    return m.z(DEPOT)
                if name == "scrap":
                    return m.z(SCRAP)
                # the model holds every minor of the title (`Model.minors`): a title with none reads an
                # empty list (18 Grand Junction's `close_minors`, 1846's minors removed)
                if name not in ("players", "corporations", "privates", "bonds", "minors"):
                    raise Unsupported(f"the {name} are outside the verified scope")
                group = {"players": m.players, "corporations": m.corporations, "privates": m.privates,
                         "minors": m.minors, "bonds": m.bonds}[name]
                return SymList([(m.z(x), True) for x in group])
            if name in self.params:
                return self.param_value(name, ctx)
            if name in self.entities:
                kind = self.entities[name]
                ent = m.entity(kind, name)
                if ent is None:
                    raise Unsupported(f"{kind} {name} is outside the verified scope")
                return m.z(ent)
            if name in self.constants:
                return name
            raise Unsupported(f"unknown name {name!r}")
        if isinstance(e, (s.Int, s.Percent)):
            return e.value
        if isinstance(e, s.Money):
            return e.amount
        if isinstance(e, s.Str):
            return e.value
        if isinstance(e, s.Bool):
            return e.value
        if isinstance(e, s.NoneLit):
            return None
        if isinstance(e, (s.ListLit, s.SetLit)):
            return SymList([(self.expr(x, ctx), True) for x in e.items])
        if isinstance(e, s.MapLit):
            return {self.expr(k, ctx): self.expr(v, ctx) for k, v in e.entries}
        if isinstance(e, s.Record):
            return {k: self.expr(v, ctx) for k, v in e.fields}
        if isinstance(e, s.Range):
            return ("range", self.expr(e.low, ctx), self.expr(e.high, ctx))
        if isinstance(e, s.Unary):
            inner = self.expr(e.operand, ctx)
            if e.op == "not":
                return NOT(self.truthy(inner))
            return -inner if not is_z3(inner) else -zi(inner)
        if isinstance(e, s.Binary):
            return self.binary(e, ctx)
        if isinstance(e, s.Cond):
            test = self.truthy(self.expr(e.test, ctx))
            t = truth(test)
            if t is True:
                return self.expr(e.then, ctx)
            if t is False:
                return self.expr(e.otherwise, ctx)
            a = self.expr(e.then, ctx.fork(test))
            b = self.expr(e.otherwise, ctx.fork(NOT(test)))
            return self.ite(test, a, b)
        if isinstance(e, s.Member):
            return self.member(self.expr(e.obj, ctx), e.name, ctx)
        if isinstance(e, s.Index):
            return self.index(self.expr(e.obj, ctx), self.expr(e.index, ctx), ctx)
        if isinstance(e, s.Call):
            if not isinstance(e.func, s.Name):
                raise Unsupported("a call of something that is not a name")
            name = e.func.name
            args = [self.expr(a, ctx) for a in e.args]
            kwargs = {k: self.expr(v, ctx) for k, v in e.kwargs}
            if name in self.states and name not in ctx.locals and not kwargs:
                return self.state_has(self.states[name], args, ctx)
            return self.call(name, args, kwargs, ctx)
        if isinstance(e, s.Quantifier):
            return self.quantifier(e, ctx)
        if isinstance(e, s.MatchExpr):
            # the engine's lowering (`MatchExpr.as_cond`)
            return self.expr(e.as_cond(), ctx)
        if isinstance(e, s.Gap):
            raise GapError("a value", e.reason)
        raise Unsupported(f"expression {type(e).__name__}")

    def param_value(self, name: str, ctx: Ctx) -> Any:
        value = self.model.param(name, ctx.shared.reads)
        return self.lift(value)

    def lift(self, value: Any) -> Any:
        """Plain data as a translator value (names of entities become entities)."""
        m = self.model
        if isinstance(value, list):
            return SymList([(self.lift(v), True) for v in value])
        if isinstance(value, str):
            for kind in ("corporation", "private", "player"):
                ent = m.entity(kind, value)
                if ent is not None:
                    return m.z(ent)
            return value
        if isinstance(value, dict):
            return {k: self.lift(v) for k, v in value.items()}
        if isinstance(value, tuple) and len(value) == 2:
            return ("range", value[0], value[1])
        return value

    def truthy(self, v: Any) -> Any:
        if isinstance(v, bool) or isinstance(v, z3.BoolRef):
            return v
        if isinstance(v, CardRef):
            return v.index != 0
        if v is None:
            return False
        if isinstance(v, int):
            return v != 0
        if isinstance(v, z3.ArithRef):
            return v != 0
        if isinstance(v, Sel):
            return OR(*[c for _, c in v.alts])
        if isinstance(v, SymList):
            return OR(*[c for _, c in v.elems])
        if is_z3(v) and v.sort() == self.model.sort:
            return v != self.model.z(NONE)
        if isinstance(v, str):
            return bool(v)
        if isinstance(v, Opaque):
            return self.opaque_test("is true", v, None, ctx=None)
        raise Unsupported(f"truth value of {v!r}")

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        if isinstance(a, Sel) or isinstance(b, Sel):
            a, b = self.as_sel(a), self.as_sel(b)
            return Sel([(it, AND(c, cond)) for it, cond in a.alts] + [(it, AND(NOT(c), cond)) for it, cond in b.alts])
        if self.is_ent(a) or self.is_ent(b) or a is None or b is None:
            return IF(c, self.as_ent(a), self.as_ent(b))
        if isinstance(a, str) or isinstance(b, str):
            if a == b:
                return a
            raise Unsupported("a conditional choice between two names")
        if isinstance(a, SymList) or isinstance(b, SymList):
            raise Unsupported("a conditional choice between two lists")
        return IF(c, a, b)

    def is_ent(self, v: Any) -> bool:
        return is_z3(v) and v.sort() == self.model.sort

    def as_ent(self, v: Any) -> z3.ExprRef:
        m = self.model
        if v is None:
            return m.z(NONE)
        if self.is_ent(v):
            return v
        if isinstance(v, Ent):
            return m.z(v)
        if isinstance(v, Sel):
            raise Unsupported("a certificate or train used as a holder")
        if isinstance(v, str):
            for ent in m.ents:
                if ent.id == v and ent.kind in ("bank", "pool", "ipo", "depot"):
                    return m.z(ent)
        raise Unsupported(f"not an entity: {v!r}")

    def as_sel(self, v: Any) -> Sel:
        m = self.model
        if isinstance(v, Sel):
            return v
        if v is None:
            return Sel([])
        if isinstance(v, Item):
            return Sel([(v, True)])
        if self.is_ent(v):
            known = m.ent_of(z3.simplify(v))
            if known is not None:
                item = m.item_of_ent(known)
                return Sel([(item, True)]) if item is not None else Sel([])
            return Sel([(m.item_of_ent(x), v == m.z(x)) for x in m.privates + m.bonds])  # type: ignore[misc]
        raise Unsupported(f"not an item: {v!r}")

    def ent_is(self, e: z3.ExprRef, k: Ent) -> Any:
        """e == k for an entity term, pushed through if-then-else chains of
        constants (so z3 sees plain truth values, not datatype equalities)."""
        return ent_is(self.model, e, k)

    def eq(self, a: Any, b: Any) -> Any:
        m = self.model
        if isinstance(a, CardRef) or isinstance(b, CardRef):
            return self.eq(self.card_number(a), self.card_number(b))
        if (isinstance(a, str) and self.is_ent(b)) or (isinstance(b, str) and self.is_ent(a)):
            name = a if isinstance(a, str) else b
            if name not in self.entities and all(x.id != name for x in m.players):
                # as the runtime: a name that is no component's (`source`'s "pool") is
                # never equal to an entity (the bank pool)
                return False
        if isinstance(a, Sel) or isinstance(b, Sel) or isinstance(a, Item) or isinstance(b, Item):
            if (a is None or isinstance(a, (Sel, Item))) and (b is None or isinstance(b, (Sel, Item))):
                sa, sb = self.as_sel(a), self.as_sel(b)
                if a is None or b is None:
                    other = sb if a is None else sa
                    return NOT(OR(*[c for _, c in other.alts]))
                return OR(*[AND(ca, cb) for ia, ca in sa.alts for ib, cb in sb.alts if ia.id == ib.id])
            sa, sb = self.as_sel(a), self.as_sel(b)
            return OR(*[AND(ca, cb) for ia, ca in sa.alts for ib, cb in sb.alts if ia.id == ib.id])
        if self.is_ent(a) or self.is_ent(b):
            ea, eb = self.as_ent(a), self.as_ent(b)
            ka, kb = m.ent_of(ea), m.ent_of(eb)
            if ka is not None and kb is not None:
                return ka == kb
            if kb is not None:
                return ent_is(m, ea, kb)
            if ka is not None:
                return ent_is(m, eb, ka)
            return ea == eb
        if isinstance(a, Opaque) or isinstance(b, Opaque):
            return self.opaque_test("==", a, b, ctx=None)
        if a is None or b is None:
            if a is None and b is None:
                return True
            other = b if a is None else a
            if isinstance(other, (int, str, bool, dict)) or is_z3(other):
                return False  # (a map, a train's `discount`, is never none, as in the engine)
            raise Unsupported(f"comparing {other!r} with none")
        if isinstance(a, str) or isinstance(b, str):
            return a == b
        if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, z3.BoolRef) or isinstance(b, z3.BoolRef):
            if isinstance(a, bool) and isinstance(b, bool):
                return a == b
            return zb(a) == zb(b)
        if is_z3(a) or is_z3(b):
            return zi(a) == zi(b)
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        raise Unsupported(f"comparing {a!r} and {b!r}")

    def card_number(self, v: Any) -> Any:
        """A card as its index (see `CardRef`): a card, none, or a card's key."""
        if isinstance(v, CardRef):
            return v.index
        index = self.model.card_index(v) if v is None or isinstance(v, str) else None
        if index is not None:
            return index
        raise Unsupported(f"comparing an ability card with {v!r}")

    def opaque_test(self, op: str, a: Any, b: Any, ctx: Ctx | None) -> Any:
        """A test on a value the model does not follow (`choice == "AB"`,
        `phase_group() in corporation.building_rights`): an unconstrained truth
        value, the same for the same operands within one translation, so that a
        proof holds whichever way the engine decides it."""
        sh = self.current_shared
        key = (op, id(a), id(b))
        cache = sh.opaque_tests
        if key not in cache:
            def show(x: Any) -> str:
                return x.what if isinstance(x, Opaque) else repr(x)

            v = z3.Bool(f"opaque{op}#{next(sh.counter)}")
            sh.oracles.append((f"({show(a)} {op} {show(b)})", (a, b), v))
            cache[key] = (a, b, v)
        return cache[key][2]

    def contains(self, coll: Any, x: Any) -> Any:
        if isinstance(coll, Opaque) or isinstance(x, Opaque):
            if isinstance(coll, SymList):
                return OR(*[AND(c, self.eq(x, e)) for e, c in coll.elems])
            return self.opaque_test("in", x, coll, ctx=None)
        if isinstance(coll, str) and isinstance(x, str):
            return x in coll
        if isinstance(coll, SymList):
            return OR(*[AND(c, self.eq(x, e)) for e, c in coll.elems])
        if isinstance(coll, tuple) and coll and coll[0] == "range":
            return AND(self.cmp(">=", x, coll[1]), self.cmp("<=", x, coll[2]))
        if isinstance(coll, (list, set, frozenset)):
            return OR(*[self.eq(x, e) for e in coll])
        if isinstance(coll, dict):
            return OR(*[self.eq(x, k) for k in coll])
        raise Unsupported(f"`in` over {coll!r}")

    def cmp(self, op: str, a: Any, b: Any) -> Any:
        if not is_z3(a) and not is_z3(b):
            if a is None or b is None:
                raise Unsupported("comparing none by size")
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        a, b = zi(a), zi(b)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]

    def binary(self, e: s.Binary, ctx: Ctx) -> Any:
        op = e.op
        if op in ("and", "or"):
            left = self.truthy(self.expr(e.left, ctx))
            t = truth(left)
            if op == "and":
                if t is False:
                    return False
                right = self.truthy(self.expr(e.right, ctx.fork(left)))
                return AND(left, right)
            if t is True:
                return True
            right = self.truthy(self.expr(e.right, ctx.fork(NOT(left))))
            return OR(left, right)
        if op in ("in", "not in") and isinstance(e.right, s.Name) and e.right.name in OUT_OF_SCOPE_GROUPS \
                and e.right.name not in ctx.locals and not self.model.minors:
            # every entity of the model is a player, a corporation in scope, a private,
            # a bond or a holder of the bank's: none is one of a group left out of it
            a = self.expr(e.left, ctx)
            if self.is_ent(a) or a is None:
                return op == "not in"
        else:
            a = self.expr(e.left, ctx)
        b = self.expr(e.right, ctx)
        if op == "==":
            return self.eq(a, b)
        if op == "!=":
            return NOT(self.eq(a, b))
        if op == "in":
            return self.contains(b, a)
        if op == "not in":
            return NOT(self.contains(b, a))
        if op in ("<", "<=", ">", ">="):
            return self.cmp(op, a, b)
        if op == "+":
            if isinstance(a, str) or isinstance(b, str):
                raise Unsupported("adding names")
            return a + b if not is_z3(a) and not is_z3(b) else zi(a) + zi(b)
        if op == "-":
            return a - b if not is_z3(a) and not is_z3(b) else zi(a) - zi(b)
        if op == "*":
            return MUL(a, b)
        if op == "/":
            if not is_z3(b) and b == 0:
                raise Unsupported("division by zero")
            if is_z3(b) and not z3.is_int_value(b):
                ctx.require(zi(b) != 0)
            return DIV(a, b)
        if op == "mod":
            return MOD(a, b)
        raise Unsupported(f"operator {op}")

    def member(self, obj: Any, name: str, ctx: Ctx) -> Any:
        m = self.model
        if isinstance(obj, Opaque):
            # a field of a value the model does not follow (`lay.upgrade`): as opaque,
            # the same value each time it is read in one translation
            cache = ctx.shared.opaque_fields
            key = (id(obj), name)
            if key not in cache:
                cache[key] = (obj, Opaque(f"{obj.what}.{name}"))
            return cache[key][1]
        if isinstance(obj, dict):
            if name not in obj:
                raise Unsupported(f"record has no field {name}")
            return obj[name]
        if isinstance(obj, Item):
            obj = Sel([(obj, True)])
        if isinstance(obj, Sel):
            values = []
            for item, cond in obj.alts:
                values.append((cond, self.item_attr(item, name, ctx)))
            if not values:
                ctx.require(False)
                return 0
            ctx.require(OR(*[c for c, _ in values]))
            out = values[-1][1]
            for cond, value in reversed(values[:-1]):
                out = self.ite(cond, value, out)
            return out
        if self.is_ent(obj):
            known = m.ent_of(z3.simplify(obj))
            if known is not None:
                return self.ent_attr(known, name, ctx)
            cands = [e for e in m.ents if e.kind in ("corporation", "private", "bond", "player")]
            values = []
            for ent in cands:
                cond = obj == m.z(ent)
                try:
                    values.append((cond, self.ent_attr(ent, name, ctx.fork(cond))))
                except (GapError, Unsupported):
                    ctx.fork(cond).require(False)
            if not values:
                raise Unsupported(f"attribute {name}")
            ctx.require(OR(*[c for c, _ in values]))
            out = values[-1][1]
            for cond, value in reversed(values[:-1]):
                out = self.ite(cond, value, out)
            return out
        raise Unsupported(f"attribute {name} of {obj!r}")

    def item_attr(self, item: Item, name: str, ctx: Ctx) -> Any:
        m = self.model
        if item.kind == "certificate":
            if name == "percent":
                return self.builtins.cert_percent(ctx, item)
            if name == "shares":
                return self.builtins.cert_shares(ctx, item)
            if name == "president":
                return item.president
            if name == "corporation":
                return m.z(m.corp(item.corp or ""))  # type: ignore[arg-type]
            raise Unsupported(f"certificate attribute {name}")
        if item.kind == "train":
            if name == "price":
                if item.price is None:
                    raise GapError(f"train {item.name} price")
                sides = m.side_prices.get(item.name or "")
                if not sides:
                    return item.price
                if any(p is None for p in sides):
                    raise GapError(f"a side of train {item.name}: price")
                # a card with other sides (a 4-train sold as a 3/5): its price is the chosen side's,
                # which the buyer chooses (the runtime's `_train_side`); an oracle says which
                v = ctx.fresh(f"train_price:{item.id}", "int")
                ctx.shared.oracles.append(("train_side_price", (item.id,), v))
                ctx.shared.axioms.append(OR(*[v == p for p in [item.price, *sides]]))
                return v
            if name == "name":
                return item.name
            data = m.train_data.get(item.name or "", {})
            ctx.shared.reads.add("train", f"{item.name}.{name}", data.get(name))
            value = data.get(name)
            if value is None:
                return None
            return self.lift(value)
        ent = m.entity(item.kind, item.id)
        assert ent is not None
        return self.ent_attr(ent, name, ctx)

    def ent_attr(self, ent: Ent, name: str, ctx: Ctx) -> Any:
        m = self.model
        st = ctx.state
        if ent.kind == "corporation":
            if name == "par":
                ctx.require(st[f"has_par:{ent.id}"])
                return st[f"par:{ent.id}"]
            if name == "floated":
                return st[f"floated:{ent.id}"]
            if name == "revenue":
                return st[f"revenue:{ent.id}"]
            if name in ("cell", "closed", "tokens", "operated"):
                raise Unsupported(f"corporation state field {name}")
            if name in m.corp_fields:
                return st[f"field:{ent.id}.{name}"]
            if name in m.set_fields:
                # a field the rules set that the model does not follow (a name): any value
                return Opaque(f"{ent.id}.{name}")
        data = m.data.get(ent)
        if data is None:
            raise Unsupported(f"attribute {name} of {ent}")
        ctx.shared.reads.add(ent.kind, f"{ent.id}.{name}", data.get(name))
        if name not in data or data[name] is None:
            raise GapError(f"{ent.kind} {ent.id} {name}", "the rulespec does not give it")
        value = data[name]
        from compiler.verify.model import GapValue

        if isinstance(value, GapValue):
            raise GapError(f"{ent.kind} {ent.id} {name}", value.reason)
        if isinstance(value, dict) and m.n_players in value:
            value = value[m.n_players]
        return self.lift(value)

    def index(self, coll: Any, i: Any, ctx: Ctx) -> Any:
        if isinstance(coll, SymList):
            if is_z3(i):
                raise Unsupported("indexing a list by a symbolic position")
            elems = coll.elems
            ctx.require(self.cmp(">", self.length(coll), i))
            # the i-th present element: present and exactly i present before it
            alts = []
            for k, (value, cond) in enumerate(elems):
                before = SUM([IF(c, 1, 0) for _, c in elems[:k]])
                alts.append((value, AND(cond, self.eq(before, i) if is_z3(before) else before == i)))
            if all(truth(c) is False for _, c in alts):
                raise DeadPath(ctx.path, f"element {i} of a list that cannot have one")
            if all(isinstance(v, (Sel, Item)) for v, _ in alts):
                out: list[tuple[Item, Any]] = []
                for v, c in alts:
                    for item, c2 in self.as_sel(v).alts:
                        out.append((item, AND(c, c2)))
                return Sel(out)
            result = alts[-1][0]
            for value, cond in reversed(alts[:-1]):
                result = self.ite(cond, value, result)
            return result
        if isinstance(coll, list):
            return coll[i]
        if isinstance(coll, dict) and coll:
            if not is_z3(i):
                if i not in coll:
                    raise Unsupported(f"indexing {coll!r} by {i!r}")
                return coll[i]
            # a symbolic key: one of the table's keys (the runtime fails on any other)
            keys = list(coll)
            ctx.require(OR(*[self.eq(i, k) for k in keys]))
            result = coll[keys[-1]]
            for k in reversed(keys[:-1]):
                result = self.ite(self.eq(i, k), coll[k], result)
            return result
        raise Unsupported(f"indexing {coll!r}")

    def length(self, coll: Any) -> Any:
        if isinstance(coll, SymList):
            return SUM([IF(c, 1, 0) for _, c in coll.elems])
        if isinstance(coll, (list, tuple, str)):
            return len(coll)
        if isinstance(coll, Opaque):
            # the length of a name the model does not follow: any length
            sh = self.current_shared
            v = z3.Int(f"opaque_len#{next(sh.counter)}")
            sh.oracles.append(("len", (coll,), v))
            sh.axioms.append(v >= 0)
            return v
        raise Unsupported(f"len of {coll!r}")

    def engines_answer(self, e: s.Quantifier, ctx: Ctx, prefix: str, domain: str) -> Any:
        """A quantifier's value over a group the model leaves out: any value the engine could find
        (an oracle named `kind(var in domain)`; a count is not negative)."""
        v = ctx.fresh(prefix, "bool" if e.kind in ("all", "any") else "int")
        ctx.shared.oracles.append((f"{e.kind}({e.var} in {domain})", (), v))
        if e.kind == "count":
            ctx.shared.axioms.append(v >= 0)
        return v

    def quantifier(self, e: s.Quantifier, ctx: Ctx) -> Any:
        if e.kind == "filter":
            return self.filtered(e, ctx)
        if isinstance(e.domain, s.Name) and e.domain.name in OUT_OF_SCOPE_GROUPS and e.domain.name not in ctx.locals \
                and not self.model.minors:
            # over a group the model leaves out (the minors' holdings)
            return self.engines_answer(e, ctx, f"{e.kind}_over_{e.domain.name}", e.domain.name)
        domain = self.expr(e.domain, ctx)
        if isinstance(domain, tuple) and len(domain) == 3 and domain[0] == "range":
            domain = self.range_list(domain[1], domain[2])
        if isinstance(domain, list):
            domain = SymList([(x, True) for x in domain])
        if not isinstance(domain, SymList):
            raise Unsupported(f"{e.kind} over {domain!r}")
        parts = []
        for value, cond in domain.elems:
            if truth(cond) is False:
                continue
            sub = ctx.fork(cond)
            sub.locals[e.var] = value
            body = self.expr(e.body, sub)
            parts.append((cond, body))
        if self.model.truncated and isinstance(e.domain, s.Name) and e.domain.name == "corporations" \
                and e.domain.name not in ctx.locals:
            # the corporations the scope leaves out (1880 VI.6: an investor holding nothing of any company,
            # its reserved share perhaps of one outside the scope)
            parts.append((True, self.engines_answer(e, ctx, f"{e.kind}_outside_scope",
                                                    "corporations outside the scope")))
        if e.kind == "all":
            return AND(*[IMPLIES(c, self.truthy(b)) for c, b in parts])
        if e.kind == "any":
            return OR(*[AND(c, self.truthy(b)) for c, b in parts])
        if e.kind == "sum":
            return SUM([IF(c, b, 0) for c, b in parts])
        if e.kind == "count":
            return SUM([IF(AND(c, self.truthy(b)), 1, 0) for c, b in parts])
        raise Unsupported(f"quantifier {e.kind}")

    def filtered(self, e: s.Quantifier, ctx: Ctx) -> "SymList":
        """filter(var in domain: body): the domain's elements, each present where it was and the body
        holds of it. Over the model's members of a group only (as every list of the model): the
        corporations a cut-down scope leaves out are in no list."""
        domain = self.expr(e.domain, ctx)
        if isinstance(domain, tuple) and len(domain) == 3 and domain[0] == "range":
            domain = self.range_list(domain[1], domain[2])
        if isinstance(domain, list):
            domain = SymList([(x, True) for x in domain])
        if not isinstance(domain, SymList):
            raise Unsupported(f"filter over {domain!r}")
        elems = []
        for value, cond in domain.elems:
            if truth(cond) is False:
                continue
            sub = ctx.fork(cond)
            sub.locals[e.var] = value
            elems.append((value, AND(cond, self.truthy(self.expr(e.body, sub)))))
        return SymList(elems)

    def range_list(self, low: Any, high: Any, counts_shares: bool = False) -> "SymList":
        """The numbers low..high (both included) as a list: each with the condition that it is within
        the range where `high` is a term. A range's end that is a term counts certificates (the shares
        a corporation issues): it is bounded by the most certificates a corporation has in the model,
        beyond which the range is refused (Unsupported), not cut. `counts_shares`: it may count shares
        too (a sale of a president's certificate counted in shares), bounded by the most of either."""
        if is_z3(low) or not isinstance(low, int):
            raise Unsupported("a range whose start is not a number")
        if not is_z3(high):
            return SymList([(k, True) for k in range(low, int(high) + 1)])
        most = max((max(len(self.model.certs_for(c.id)),
                        sum(cert.percent for cert in self.model.certs_for(c.id)) // 10 if counts_shares else 0)
                    for c in self.model.corporations), default=0)
        return SymList([(k, high >= k) for k in range(low, most + 1)])

    def call(self, name: str, args: list[Any], kwargs: dict[str, Any], ctx: Ctx) -> Any:
        ctx.shared.calls.add(name)
        if name in self.routines:
            return self.call_routine(self.routines[name], args, kwargs, ctx)
        fn = getattr(self.builtins, f"b_{name}", None)
        if fn is None:
            raise Unsupported(f"builtin {name}")
        return fn(ctx, *args, **kwargs)

    # -- declared states (`state NAME: set[...]`, the engine's GameBase.state_has and state_set)
    def _state_matches(self, decl: s.StateDecl, args: list[Any], ctx: Ctx) -> list[tuple[str, Any]]:
        """Each element's state variable, with the condition that the arguments are that element."""
        m = self.model
        elements = m.state_elements(decl)
        # (the elements: an enum's values among them, which the title may change)
        ctx.shared.reads.add("state", decl.name, (decl.element, decl.reset_on, elements))
        ctx.shared.calls.add(decl.name)
        if len(args) != len(decl.element):
            raise Unsupported(f"state {decl.name} has {len(decl.element)} parts; {len(args)} given")
        # a part of an enum is a value named in the rules (a constant), compared as it is; an entity's, a term
        terms = [a if isinstance(part, str) else self.as_ent(a) for a, part in zip(args, elements[0] if elements else ())]
        out = []
        for parts in elements:
            cond = AND(*[self._part_is(term, part) for term, part in zip(terms, parts)])
            if truth(cond) is not False:
                out.append((state_var(decl.name, parts), cond))
        return out

    def _part_is(self, term: Any, part: Ent | str) -> Any:
        if not isinstance(part, str):
            return self.ent_is(term, part)
        if not isinstance(term, str):
            raise Unsupported(f"a value of an enum that is not named ({term!r})")
        return term == part

    def state_has(self, decl: s.StateDecl, args: list[Any], ctx: Ctx) -> Any:
        """`NAME(a, b)`: whether (a, b) is in the state (an element outside the scope never is)."""
        return OR(*[AND(cond, ctx.state[name]) for name, cond in self._state_matches(decl, args, ctx)])

    def state_set(self, decl: s.StateDecl, args: list[Any], value: Any, ctx: Ctx) -> None:
        """`set NAME(a, b) = v`: (a, b) put in the state (v true) or taken out (v false), on the path."""
        for name, cond in self._state_matches(decl, args, ctx):
            ctx.state[name] = IF(AND(ctx.path, cond), value, ctx.state[name])

    def call_routine(self, clause: Clause, args: list[Any], kwargs: dict[str, Any], ctx: Ctx) -> Any:
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        if ctx.shared.depth > 30:
            raise Unsupported(f"recursion in {decl.name}")
        ctx.shared.reads.add(decl.kind, decl.name, decl)
        bound = {}
        for i, p in enumerate(decl.params):
            if i < len(args):
                bound[p.name] = args[i]
            elif p.name in kwargs:
                bound[p.name] = kwargs[p.name]
            else:
                raise Unsupported(f"{decl.name} called without {p.name}")
        if decl.kind == "function":
            return self.call_function(decl, bound, ctx)
        sub = Ctx(self, ctx.state, ctx.shared, ctx.path, bound)
        ctx.shared.depth += 1
        try:
            self.stmts(decl.body, sub)
            ctx.state = sub.state
            return None
        finally:
            ctx.shared.depth -= 1

    def call_function(self, decl: s.Routine, bound: dict[str, Any], ctx: Ctx) -> Any:
        """A function's value: its expression, read on the current state. A function is pure (it reads
        the state and its arguments, and may add guards, axioms and oracles), so within one translation
        its value for the same arguments on the same state is computed once (`Shared.memo`): the body is
        translated on no path, and the guards it adds, relative to that, are required on the path of
        each call. (1846's emergency functions call one another over ranges of share counts: without
        this their translation took seconds per action.)"""
        shared = ctx.shared
        key = _memo_key(decl.name, bound, ctx.state, shared)
        if key is not None:
            hit = shared.memo.get(key)
            if hit is not None:
                self._require_once(ctx, hit[1])
                return hit[0]
        before = dict(ctx.state)
        start = len(shared.guards)
        sub = Ctx(self, ctx.state, shared, True, bound)
        shared.depth += 1
        try:
            value = self.expr(decl.result, sub)
        except DeadPath as exc:
            if exc.path is sub.path:
                raise DeadPath(ctx.path, exc.what) from None
            raise
        finally:
            shared.depth -= 1
        if sub.state is not ctx.state or any(ctx.state[k] is not v for k, v in before.items()):
            raise Unsupported(f"function {decl.name} changes the state")
        guards = AND(*shared.guards[start:])
        del shared.guards[start:]
        self._require_once(ctx, guards)
        if key is not None and _memo_value(value):
            shared.memo[key] = (value, guards, tuple(bound.values()))
        return value

    @staticmethod
    def _require_once(ctx: Ctx, guard: Any) -> None:
        """`ctx.require(guard)`, unless the translation requires it on that path already (a function's
        guards, asked again by each call the memo answers)."""
        if truth(guard) is True:
            return
        key = tuple(x.get_id() if isinstance(x, z3.ExprRef) else ("value", x) for x in (ctx.path, guard))
        if key in ctx.shared.required:
            return
        ctx.shared.required[key] = (ctx.path, guard)
        ctx.require(guard)

    # -- statements
    def stmts(self, body: tuple, ctx: Ctx) -> None:
        for st in body:
            if truth(ctx.path) is False:
                return
            try:
                self.stmt(st, ctx)
            except (Unsupported, GapError) as exc:
                raise exc.locate(getattr(st, "span", None))
            except DeadPath as exc:
                if exc.path is not ctx.path:
                    raise Unsupported(exc.what) from None
                # the engine refuses on this path (`require`s before it made it
                # impossible): nothing after it runs
                ctx.require(False)
                return

    def stmt(self, st: Any, ctx: Ctx) -> None:
        if isinstance(st, s.Require):
            cond = self.truthy(self.expr(st.cond, ctx))
            if st.unless is not None:
                unless = self.truthy(self.expr(st.unless, ctx.fork(NOT(cond))))
                cond = OR(cond, unless)
            ctx.require(cond)
            if truth(cond) is False:
                # the engine refuses here on every state: nothing after it runs on this path (a binding of
                # 1880's dividend with `kind: half` stops at `kind in dividend_kinds`, before `half()`)
                ctx.path = False
        elif isinstance(st, s.Transfer):
            amount = self.expr(st.amount, ctx)
            source = self.as_ent(self.expr(st.source, ctx))
            target = self.as_ent(self.expr(st.target, ctx))
            self.builtins.transfer(ctx, amount, source, target)
        elif isinstance(st, s.Move):
            what = self.expr(st.what, ctx)
            source = self.expr(st.source, ctx)
            target = self.as_ent(self.expr(st.target, ctx))
            self.builtins.move(ctx, what, source, target)
        elif isinstance(st, s.Assign):
            if isinstance(st.target, s.Member):
                obj = self.expr(st.target.obj, ctx)
                value = self.expr(st.value, ctx)
                self.builtins.set_attr(ctx, obj, st.target.name, value)
            elif (isinstance(st.target, s.Call) and isinstance(st.target.func, s.Name)
                  and st.target.func.name in self.states and not st.target.kwargs):
                args = [self.expr(a, ctx) for a in st.target.args]
                self.state_set(self.states[st.target.func.name], args, self.truthy(self.expr(st.value, ctx)), ctx)
            elif isinstance(st.target, s.Name) and st.target.name in ctx.locals:
                ctx.locals[st.target.name] = self.expr(st.value, ctx)
            else:
                raise Unsupported("`set` of something that is not a local, an entity's field or a state's element")
        elif isinstance(st, s.Let):
            ctx.locals[st.name] = self.expr(st.value, ctx)
        elif isinstance(st, s.If):
            # Every state update is guarded by its context's path condition, and
            # the branches' paths exclude each other: the branches run one after
            # the other on the same state, which keeps sums linear (no
            # if-then-else of whole states).
            remaining: Any = True
            new_locals: dict[str, Any] = dict(ctx.locals)
            shared = ctx.shared
            outermost = shared.depth == 0 and shared.if_depth == 0
            shared.if_depth += 1
            try:
                for cond_expr, body in st.branches:
                    cond = self.truthy(self.expr(cond_expr, ctx.fork(remaining)))
                    take = AND(remaining, cond)
                    if truth(take) is not False:
                        sub = Ctx(self, ctx.state, ctx.shared, AND(ctx.path, take), ctx.locals)
                        if outermost and truth(sub.path) is None:
                            shared.branches.append(sub.path)
                        self.stmts(body, sub)
                        ctx.state = sub.state
                        self._merge_locals(new_locals, sub.locals, take)
                    remaining = AND(remaining, NOT(cond))
                    if truth(remaining) is False:
                        break
                if truth(remaining) is not False and st.orelse:
                    sub = Ctx(self, ctx.state, ctx.shared, AND(ctx.path, remaining), ctx.locals)
                    self.stmts(st.orelse, sub)
                    ctx.state = sub.state
                    self._merge_locals(new_locals, sub.locals, remaining)
            finally:
                shared.if_depth -= 1
            ctx.locals = new_locals
        elif isinstance(st, s.For):
            domain = self.expr(st.domain, ctx)
            if isinstance(domain, tuple) and len(domain) == 3 and domain[0] == "range":
                # `for k in 1..n`: n a count of shares or certificates (a sale's), read up to the most
                # any corporation of the model has of either
                domain = self.range_list(domain[1], domain[2], counts_shares=True)
            if not isinstance(domain, SymList):
                raise Unsupported(f"for over {domain!r}")
            for value, cond in domain.elems:
                if truth(cond) is False:
                    continue
                sub = Ctx(self, ctx.state, ctx.shared, AND(ctx.path, cond), ctx.locals)
                sub.locals[st.var] = value
                self.stmts(st.body, sub)
                ctx.state = sub.state
        elif isinstance(st, s.Match):
            # the engine's lowering (`Match.as_if`): a case per value; a subject that is a title's
            # parameter or an enum parameter bound per value decides the case at translation
            self.stmt(st.as_if(), ctx)
        elif isinstance(st, s.Do):
            self.expr(st.call, ctx)
        elif isinstance(st, s.Emit):
            ctx.shared.calls.add(f"emit:{st.event}")
            for a in st.args:
                self.expr(a, ctx)
        elif isinstance(st, s.Fail):
            ctx.require(False)
        else:
            raise Unsupported(f"statement {type(st).__name__}")

    def _merge_locals(self, into: dict[str, Any], new: dict[str, Any], cond: Any) -> None:
        for name, value in new.items():
            if name not in into:
                into[name] = value
            elif into[name] is not value:
                try:
                    into[name] = self.ite(cond, value, into[name])
                except Unsupported:
                    into[name] = value

    # -- whole transitions
    def new_ctx(self, pre: dict[str, z3.ExprRef]) -> Ctx:
        shared = Shared()
        #: the translation under way: tests on opaque values add their oracles to it
        self.current_shared = shared
        return Ctx(self, dict(pre), shared)

    def finish(self, label: str, ctx: Ctx, pre: dict[str, z3.ExprRef]) -> Step:
        sh = ctx.shared
        guard = AND(*sh.guards) if sh.guards else True
        return Step(label, guard, pre, ctx.state, list(sh.axioms), dict(sh.params), list(sh.oracles),
                    set(sh.calls), sh.reads, set(sh.havocked), list(sh.transfers), dict(sh.checked),
                    set(sh.settled), list(sh.branches))

    def action_bindings(self, decl: s.Routine) -> list[Binding]:
        """Every binding of an action's entity, train and enum parameters, and
        of the first element of each certificate list the body indexes."""
        choices: list[list[tuple[str, Any]]] = []
        heads = indexed_lists(decl)
        for p in decl.params:
            options = self.param_options(p)
            if options is None and p.name in heads:
                options = self.list_head_options(p)
            if options is None:
                continue
            choices.append([(p.name, o) for o in options])
        return [Binding(tuple(combo)) for combo in itertools.product(*choices)]

    def list_head_options(self, p: s.ParamDecl) -> list[Any] | None:
        """For a certificate list the body indexes (`shares[0]`): its first
        element, one binding per certificate, or `EMPTY`. The rest of the list
        stays symbolic. A partition of every list, so the proof still covers
        them all; it keeps `shares[0]` and whatever follows from it (its
        corporation, its holder) concrete, where one symbolic choice among
        every certificate of the scope makes the checks time out."""
        inner = _list_inner(p.type)
        if inner is None or "certificate" not in inner:
            return None
        return [ListHead(cert) for cert in self.model.certs] + [EMPTY_LIST]

    def param_options(self, p: s.ParamDecl) -> list[Any] | None:
        """The concrete values a parameter is enumerated over, or None when it
        stays symbolic (money, numbers, truth values, lists)."""
        m = self.model
        t = p.type
        if _list_inner(t) is not None:
            return None
        out: list[Any] = []
        for alt in t.alternatives:
            alt = str(alt)
            if alt == "player":
                out.extend(m.players)
            elif alt == "corporation":
                out.extend(m.corporations)
            elif alt == "private":
                out.extend(m.privates)
            elif alt == "minor":
                out.extend(m.minors)
            elif alt == "bond":
                out.extend(m.bonds)
            elif alt == "company":
                out.extend(m.privates + m.corporations)
            elif alt == "train" and p.default is not None:
                # an optional train (a trade-in's `exchange`): the trains of the types some train's `discount`
                # names; a train of any other type is refused by the guard (trade_in_discount is 0 for it) and
                # leaves the state as it was, which every invariant keeps
                out.extend(t for t in m.trains if t.name in m.trade_in_types)
            elif alt == "train":
                out.extend(m.trains)
            elif alt == "none":
                out.append(None)
            elif alt in ("money", "int", "percent", "bool", "route", "certificate", "name"):
                return None
            elif alt == m.prop_value("ability_cards"):
                return None  # a card stays symbolic (a `CardRef`; see bind_params)
            else:
                clause = self.title.get("enum", alt)
                if clause is None:
                    raise Unsupported(f"parameter type {alt}")
                out.extend(clause.decl.values)  # type: ignore[union-attr]
        return out

    def bind_params(self, decl: s.Routine, binding: Binding, ctx: Ctx) -> dict[str, Any]:
        m = self.model
        bound: dict[str, Any] = {}
        for p in decl.params:
            t = p.type
            try:
                value = binding.get(p.name)
            except KeyError:
                value = None
                alts = [str(a) for a in t.alternatives]
                inner = _list_inner(t)
                if inner is not None:
                    if "certificate" in inner:
                        elems = []
                        for cert in m.certs:
                            b = z3.Bool(f"param:{p.name}:{cert.id}")
                            ctx.shared.params[f"{p.name}:{cert.id}"] = b
                            elems.append((Sel([(cert, True)]), b))
                        bound[p.name] = SymList(elems)
                        continue
                    if "route" in inner:
                        bound[p.name] = Routes()
                        continue
                    raise Unsupported(f"parameter type {t}")
                if alts and alts[0] == "name":
                    bound[p.name] = Opaque(f"{p.name} (a name)")
                    continue
                if alts and alts[0] == m.prop_value("ability_cards"):
                    # one of the title's ability cards, or none (0): see `CardRef`
                    const = z3.Int(f"param:{p.name}")
                    ctx.shared.params[p.name] = const
                    ctx.shared.axioms.extend([const >= 0, const <= len(m.cards or ())])
                    bound[p.name] = CardRef(const)
                    continue
                if alts and alts[0] == "bool":
                    const = z3.Bool(f"param:{p.name}")
                else:
                    const = z3.Int(f"param:{p.name}")
                ctx.shared.params[p.name] = const
                bound[p.name] = const
                continue
            if isinstance(value, ListHead):
                bound[p.name] = self.headed_list(p.name, value, ctx)
            elif isinstance(value, Ent):
                bound[p.name] = m.z(value)
            elif isinstance(value, Item):
                bound[p.name] = Sel([(value, True)])
            else:
                bound[p.name] = value
        return bound

    def headed_list(self, name: str, head: "ListHead", ctx: Ctx) -> SymList:
        """A certificate list whose first element (in the scope's order) is
        `head.cert` (none for `EMPTY_LIST`): certificates before it absent,
        those after it symbolic."""
        elems: list[tuple[Any, Any]] = []
        after = False
        for cert in self.model.certs:
            if head.cert is not None and cert == head.cert:
                elems.append((Sel([(cert, True)]), True))
                after = True
            elif after:
                b = z3.Bool(f"param:{name}:{cert.id}")
                ctx.shared.params[f"{name}:{cert.id}"] = b
                elems.append((Sel([(cert, True)]), b))
        return SymList(elems)

    def translate_routine(self, clause: Clause, binding: Binding) -> Step:
        """An action's (or a procedure's) guard and effect for one binding."""
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        m = self.model
        pre = m.vars.fresh_state("pre")
        ctx = self.new_ctx(pre)
        ctx.shared.reads.add(decl.kind, decl.name, decl)
        ctx.locals = self.bind_params(decl, binding, ctx)
        if decl.kind == "action" and decl.params:
            first = ctx.locals[decl.params[0].name]
            if self.is_ent(first):
                # the runtime's dispatch (GameBase._dispatch): the acting entity, or any entity
                # for the title's `any_time_actions` and the vocabulary's out-of-turn `end_game`, or for `sell_shares` the president of the
                # corporation acting; no other pending decision; not finished
                any_time = [str(a) for a in (m.prop_value("any_time_actions") or [])] + list(OUT_OF_TURN)
                if decl.name not in any_time:
                    turn = pre["acting"] == first
                    if decl.name == "sell_shares":
                        turn = OR(turn, *[AND(pre["acting"] == m.z(c), self.builtins.b_president(ctx, m.z(c)) == first)
                                          for c in m.corporations])
                        if m.truncated:
                            # the acting corporation may be one the cut-down scope leaves out (`acting` is
                            # then NONE): whether the seller presides it is outside the model, an oracle says
                            outside = ctx.fresh("presides_acting_outside_scope", "bool")
                            ctx.shared.oracles.append(("presides_acting_outside_scope", (), outside))
                            turn = OR(turn, AND(pre["acting"] == m.z(NONE), outside))
                    ctx.require(turn)
                code = m.vars.action_code(decl.name)
                # (a pass may decline the decision pending where the runtime lets it: `declines`)
                declined = self.builtins.declines(ctx, first) if decl.name == "pass" else False
                ctx.require(OR(NOT(pre["pending"]), pre["pending_action"] == code, declined))
                ctx.require(pre["round"] != ROUNDS.index("finished"))
        self.stmts(decl.body, ctx)
        return self.finish(binding.label(decl.name), ctx, pre)

    def trigger_bindings(self, decl: s.Trigger) -> list[Binding]:
        """One binding per corporation an event's corporation argument can be
        (see `EVENT_ARGUMENTS`); a single empty one for an event without
        arguments."""
        names = [a.name for a in decl.event.args if isinstance(a, s.Name)]
        if not names:
            return [Binding(())]
        kinds = EVENT_ARGUMENTS.get(decl.event.name)
        if kinds is None or len(kinds) != len(decl.event.args):
            raise Unsupported(f"trigger event arguments of {decl.event.name}")
        choices = [[(name, c) for c in self.model.corporations] if kind == "corporation"
                   else [(name, str(key)) for key in self.model.phase_keys]
                   for name, kind in zip(names, kinds) if kind in ("corporation", "phase")]
        return [Binding(tuple(combo)) for combo in itertools.product(*choices)]

    def translate_trigger(self, clause: Clause, binding: Binding | None = None) -> Step:
        """A trigger's guard and effect. Its event's arguments are what the
        runtime passes when it emits the event (`EVENT_ARGUMENTS`): the
        corporation comes from the binding, the rest are terms of the state
        the emitting step left (a started corporation's price is its par)."""
        decl: s.Trigger = clause.decl  # type: ignore[assignment]
        binding = binding or Binding(())
        pre = self.model.vars.fresh_state("pre")
        ctx = self.new_ctx(pre)
        ctx.shared.reads.add("trigger", decl.name, decl)
        names = [a.name for a in decl.event.args if isinstance(a, s.Name)]
        if names:
            kinds = EVENT_ARGUMENTS.get(decl.event.name)
            if kinds is None or len(kinds) != len(decl.event.args):
                raise Unsupported(f"trigger event arguments of {decl.event.name}")
            corp: Ent | None = None
            for name, kind in zip(names, kinds):
                if kind == "corporation":
                    corp = binding.get(name)
                    ctx.locals[name] = self.model.z(corp)
                elif kind == "phase":
                    # the phase that just started: the state's
                    ctx.locals[name] = binding.get(name)
                    ctx.require(pre["phase"] == self.model.phase_index(binding.get(name)))
                elif kind == "card":
                    # the card just picked: the one the company holds now
                    assert corp is not None
                    card = self.builtins.b_card_of(ctx, self.model.z(corp))
                    ctx.require(self.truthy(card))
                    ctx.locals[name] = card
                elif kind == "bool":
                    ctx.locals[name] = self.builtins.oracle(ctx, f"event:{name}", ())
            if decl.event.name == "corporation_started":
                assert corp is not None
                ctx.require(pre[f"has_par:{corp.id}"])
                ctx.locals[names[1]] = pre[f"par:{corp.id}"]
            elif decl.event.name == "floated":
                assert corp is not None
                ctx.require(pre[f"floated:{corp.id}"])
        if decl.event.when is not None:
            ctx.require(self.truthy(self.expr(decl.event.when, ctx)))
        if self.model.draft_items:
            # the runtime's draft (its picks, passes and end) emits no event
            ctx.require(pre["round"] != ROUNDS.index("draft"))
        self.stmts(decl.body, ctx)
        return self.finish(binding.label(decl.name) if binding.values else decl.name, ctx, pre)


# ---------------------------------------------------------------- builtins


class Builtins:
    """The runtime vocabulary (`GameBase.b_<name>`) as z3. Each method takes
    the context first, then the DSL's arguments; effects update `ctx.state`."""

    def __init__(self, tr: Translator):
        self.tr = tr
        self.m = tr.model
        #: `cell_chain`'s terms by what they read of each cell and the corporation's row and column terms
        #: (z3's ids; the terms are kept with them, so no id is reused while cached)
        self.chains: dict[tuple, tuple[Any, Any, Any]] = {}
        #: `cell_chain`'s conditions by the row and column terms' ids (`_cell_conds`)
        self.cell_conds: dict[tuple, tuple[list[Any], Any, Any]] = {}

    # -- helpers over items and holders
    def ent(self, v: Any) -> z3.ExprRef:
        return self.tr.as_ent(v)

    def known(self, e: z3.ExprRef) -> Ent | None:
        return self.m.ent_of(z3.simplify(e)) if is_z3(e) else None

    def held(self, ctx: Ctx, item: Item, holder: Any) -> Any:
        """Whether `holder` (an entity term) holds `item` in the current state."""
        m = self.m
        st = ctx.state
        h = self.ent(holder)
        k = self.known(h)
        buckets = m.buckets[item.kind]
        if k is not None:
            if k in buckets:
                return st[hold_name(item, k)] >= 1
            if k.kind == "minor" and item.kind == "train":
                # a minor's trains are among those held elsewhere: which, the engine's to say
                return AND(self.minor_holds(ctx, k, item), st[hold_name(item, None)] >= 1)
            if k == ELSEWHERE:
                # a holder outside the scope (a corporation left out holding a share, as
                # `b_shareholders` lists it): what it holds earns a dividend the bank pays
                # out of the scope. The shares invariant keeps this empty in the proofs;
                # the states validation draws from real games need it.
                return st[hold_name(item, None)] >= 1
            return False
        return OR(*[AND(ent_is(m, h, b), st[hold_name(item, b)] >= 1) for b in buckets])

    def minor_holds(self, ctx: Ctx, minor: Ent, train: Item) -> Any:
        """Whether the minor held the train copy before the step (an oracle, one per minor and copy in a
        translation, which the validator reads from the engine's pre-state): the model counts a minor's
        trains among those held elsewhere."""
        key = ("minor_holds", minor.id, train.id)
        found = ctx.shared.cached.get(key)
        if found is None:
            found = ctx.shared.cached[key] = self.oracle(ctx, "minor_holds", (minor.id, train.id))
        return found

    def holder(self, ctx: Ctx, item: Item) -> z3.ExprRef:
        m = self.m
        st = ctx.state
        out = m.z(ELSEWHERE)
        for b in reversed(m.buckets[item.kind]):
            out = IF(st[hold_name(item, b)] >= 1, m.z(b), out)
        return out

    def sel(self, v: Any) -> Sel:
        return self.tr.as_sel(v)

    def corp_of(self, ctx: Ctx, c: Any) -> list[tuple[Ent, Any]]:
        """The scope's corporations a corporation term may be, with conditions."""
        m = self.m
        e = self.ent(c)
        k = self.known(e)
        if k is not None:
            if k.kind != "corporation":
                raise Unsupported(f"{k} is not a corporation")
            return [(k, True)]
        return [(x, e == m.z(x)) for x in m.corporations]

    def per_corp(self, ctx: Ctx, c: Any, f: Callable[[Ent], Any]) -> Any:
        k = self.known(self.ent(c))
        if k is not None and k.kind == "player" and self.m.corporations:
            # the runtime has no corporation state for a player (`floated(P)` fails): refused
            options = [(self.m.corporations[0], False)]
        else:
            options = self.corp_of(ctx, c)
        ctx.require(OR(*[cond for _, cond in options]))
        out = None
        for corp, cond in reversed(options):
            value = f(corp)
            out = value if out is None else self.tr.ite(cond, value, out)
        return out

    def param(self, ctx: Ctx, name: str) -> Any:
        return self.tr.param_value(name, ctx)

    # -- cash
    def cash_of(self, ctx: Ctx, e: z3.ExprRef) -> Any:
        m = self.m
        st = ctx.state
        unlimited = m.vars.unlimited_bank
        parts = []
        for h in m.money_holders:
            if h == BANK:
                value = 0 if unlimited else st["cash:bank"]
            else:
                value = st[f"cash:{h.id}"]
            parts.append((h, value))
        k = self.known(e)
        if k is not None:
            for h, value in parts:
                if h == k:
                    return value
            ctx.require(False)
            return 0
        ctx.require(OR(*[ent_is(m, e, h) for h, _ in parts]))
        out: Any = 0
        for h, value in reversed(parts):
            out = IF(ent_is(m, e, h), value, out)
        return out

    def transfer(self, ctx: Ctx, amount: Any, source: z3.ExprRef, target: z3.ExprRef) -> None:
        """`g.transfer`: the payer must have the cash (a rule of the game), the
        bank never refuses; a negative amount is *not* refused (see the module
        docstring). Money paid to or from a holder that has no cash (the pool,
        a private, the depot) appears or vanishes: the money invariant shows it."""
        m = self.m
        st = ctx.state
        unlimited = m.vars.unlimited_bank
        if isinstance(amount, str) or amount is None:
            raise Unsupported(f"transfer of {amount!r}")
        amt = amount
        ks, kt = self.known(source), self.known(target)
        # the payer's cash suffices (the runtime refuses otherwise)
        payers = [h for h in m.money_holders if h != BANK]
        if ks is None or ks in payers:
            have = OR(
                ent_is(m, source, BANK), self.tr.eq(source, target), self.tr.cmp("<=", amt, 0),
                *[AND(ent_is(m, source, h), self.tr.cmp(">=", st[f"cash:{h.id}"], amt)) for h in payers],
                *([] if ks is not None else [AND(*[NOT(ent_is(m, source, h)) for h in m.money_holders])]),
            )
            ctx.require(have)
        in_accounts = [BANK] + [h for h in m.money_holders if h != BANK]
        src_in = (ks in in_accounts) if ks is not None else OR(*[ent_is(m, source, h) for h in in_accounts])
        dst_in = (kt in in_accounts) if kt is not None else OR(*[ent_is(m, target, h) for h in in_accounts])
        ctx.shared.transfers.append((ctx.path, amt, source, target, src_in, dst_in))
        new = dict(st)
        for h in m.money_holders:
            out_ = AND(ctx.path, ent_is(m, source, h) if ks is None else ks == h)
            in_ = AND(ctx.path, ent_is(m, target, h) if kt is None else kt == h)
            if h == BANK and unlimited:
                # as the runtime, a payment from the bank to itself moves nothing (1880's dividend on
                # shares in the bank, VII.3.6, whose payee is the bank): neither flow counts it
                if truth(out_) is not False or truth(in_) is not False:
                    moves = NOT(self.tr.eq(source, target))
                    out_, in_ = AND(out_, moves), AND(in_, moves)
                if truth(out_) is not False:
                    new["flow:paid"] = SUM([new["flow:paid"], IF(out_, amt, 0)])
                if truth(in_) is not False:
                    new["flow:received"] = SUM([new["flow:received"], IF(in_, amt, 0)])
                continue
            name = "cash:bank" if h == BANK else f"cash:{h.id}"
            delta = SUM([IF(in_, amt, 0), NEG(IF(out_, amt, 0))])
            if not (isinstance(delta, int) and delta == 0):
                new[name] = SUM([new[name], delta])
        ctx.state = new

    # -- items
    def move(self, ctx: Ctx, what: Any, source: Any, target: z3.ExprRef) -> None:
        """`g.move`: take the item from `source`, give it to `target`. The
        runtime's check that `source` holds it is *not* a guard."""
        sel = self.sel(what)
        if not sel.alts:
            ctx.require(False)
            return
        ctx.require(OR(*[c for _, c in sel.alts]))
        for item, cond in sel.alts:
            if truth(cond) is False:
                continue
            src = self._source_holder(item, source)
            self._move_one(ctx, item, src, target, AND(ctx.path, cond))

    def _source_holder(self, item: Item, source: Any) -> z3.ExprRef:
        m = self.m
        if isinstance(source, str):
            if source == "pool":
                return m.z(POOL)
            if source == "ipo" and item.kind == "certificate":
                return m.z(self.tr.ipo_of(m.corp(item.corp or "")))  # type: ignore[arg-type]
            if source == "treasury" and item.kind == "certificate":
                return m.z(m.corp(item.corp or ""))  # type: ignore[arg-type]
            if source == "depot":
                return m.z(DEPOT)
            raise Unsupported(f"move from {source!r}")
        return self.ent(source)

    def _move_one(self, ctx: Ctx, item: Item, src: z3.ExprRef, dst: z3.ExprRef, when: Any) -> None:
        m = self.m
        buckets = m.buckets[item.kind]
        new = dict(ctx.state)
        ks, kd = self.known(src), self.known(dst)

        def at(e: z3.ExprRef, k: Ent | None, b: Ent | None) -> Any:
            if b is None:  # any holder outside the legal ones
                if k is not None:
                    return k not in buckets
                return AND(*[NOT(ent_is(m, e, x)) for x in buckets])
            if k is not None:
                return k == b
            return ent_is(m, e, b)

        for b in list(buckets) + [None]:
            name = hold_name(item, b)
            dec = AND(when, at(src, ks, b))
            inc = AND(when, at(dst, kd, b))
            if truth(dec) is False and truth(inc) is False:
                continue
            new[name] = SUM([new[name], IF(inc, 1, 0), NEG(IF(dec, 1, 0))])
        ctx.state = new

    def set_holder(self, ctx: Ctx, item: Item, holder: Ent, when: Any) -> None:
        """The runtime's direct `owner[item] = holder` (a reset, a rust)."""
        new = dict(ctx.state)
        for b in self.m.buckets[item.kind] + [None]:
            name = hold_name(item, b)
            value = 1 if b == holder else 0
            new[name] = IF(when, value, new[name])
        ctx.state = new

    def set_attr(self, ctx: Ctx, obj: Any, name: str, value: Any) -> None:
        for corp, cond in self.corp_of(ctx, obj):
            when = AND(ctx.path, cond)
            st = ctx.state
            if name == "par":
                if value is None:
                    st[f"has_par:{corp.id}"] = IF(when, False, st[f"has_par:{corp.id}"])
                else:
                    st[f"par:{corp.id}"] = IF(when, zi(value), st[f"par:{corp.id}"])
                    st[f"has_par:{corp.id}"] = IF(when, True, st[f"has_par:{corp.id}"])
            elif name == "floated":
                st[f"floated:{corp.id}"] = IF(when, zb(value), st[f"floated:{corp.id}"])
            elif name == "revenue":
                st[f"revenue:{corp.id}"] = IF(when, zi(value), st[f"revenue:{corp.id}"])
            elif name in self.m.corp_fields:
                var = f"field:{corp.id}.{name}"
                typed = zb(value) if self.m.corp_fields[name] == "bool" else zi(value)
                st[var] = IF(when, typed, st[var])
            elif name in self.m.set_fields:
                pass  # not followed: every read of it is an opaque value (`Translator.ent_attr`)
            else:
                raise Unsupported(f"set of corporation field {name}")

    # -- market
    def cell_chain(self, ctx: Ctx, corp: Ent, f: Callable[[tuple[int, int]], Any], key: tuple | None = None) -> Any:
        """`f(cell)` for the cell the corporation's token is on: a chain of cases over the market's
        cells. `key`: what `f` reads of a cell (a price, a move's row or column), where it reads only
        the market: the chain is then made once for each row and column term (the pre-state's, mostly)
        and kept across the translator's steps."""
        self.m.require_market()
        st = ctx.state
        if key is not None:
            row, col = st[f"row:{corp.id}"], st[f"col:{corp.id}"]
            ids = tuple(v.get_id() if isinstance(v, z3.ExprRef) else ("value", v) for v in (row, col))
            found = self.chains.get((key, corp.id, ids))
            if found is None:
                found = self.chains[(key, corp.id, ids)] = (self.cell_chain(ctx, corp, f), row, col)
            return found[0]
        cells = self.m.cells
        conds = self._cell_conds(st[f"row:{corp.id}"], st[f"col:{corp.id}"])
        out = f(cells[-1])
        for i in range(len(cells) - 2, -1, -1):
            out = IF(conds[i], f(cells[i]), out)
        return out

    def _cell_conds(self, row: Any, col: Any) -> list[Any]:
        """`row == r and col == c` for each market cell but the last (`cell_chain`'s cases), made once
        for each row and column term: the chains of one step read the same terms (z3 shares equal terms,
        so the chain is the term it was)."""
        ids = tuple(v.get_id() if isinstance(v, z3.ExprRef) else ("value", v) for v in (row, col))
        found = self.cell_conds.get(ids)
        if found is None:
            conds = [AND(row == r, col == c) for r, c in self.m.cells[:-1]]
            found = self.cell_conds[ids] = (conds, row, col)  # (the terms kept: no id reused while cached)
        return found[0]

    def in_cells(self, ctx: Ctx, corp: Ent, cells: list[tuple[int, int]]) -> Any:
        st = ctx.state
        return OR(*[AND(st[f"row:{corp.id}"] == r, st[f"col:{corp.id}"] == c) for r, c in cells])

    def zone_cond(self, ctx: Ctx, corp: Ent, zone: str) -> Any:
        market = self.m.require_market()
        cells = [c for c in self.m.cells if zone in market.zones_of(c)]
        if not cells:
            return False
        return AND(ctx.state[f"has_cell:{corp.id}"], self.in_cells(ctx, corp, cells))

    def market_move(self, ctx: Ctx, corp: Ent, direction: str, when: Any = True) -> None:
        market = self.m.require_market()
        if direction not in ("up", "down", "left", "right"):
            raise Unsupported(f"market move {direction!r}")
        ctx.shared.reads.add("market", "moves", (market.rows, sorted(market.zones.items()), market.left_edge, market.right_edge, market.top_edge))
        st = dict(ctx.state)
        moved = {cell: market.move(cell, direction) for cell in self.m.cells}
        row = self.cell_chain(ctx, corp, lambda cell: moved[cell][0], key=("move", direction, "row"))
        col = self.cell_chain(ctx, corp, lambda cell: moved[cell][1], key=("move", direction, "col"))
        on = AND(ctx.path, when, st[f"has_cell:{corp.id}"], NOT(self.b_prices_frozen(ctx)))
        if direction in ("left", "down"):
            on = AND(on, NOT(self.card_holds_price(ctx, corp)))
        st[f"row:{corp.id}"] = IF(on, row, st[f"row:{corp.id}"])
        st[f"col:{corp.id}"] = IF(on, col, st[f"col:{corp.id}"])
        ctx.state = st

    def price_of(self, ctx: Ctx, corp: Ent) -> Any:
        market = self.m.require_market()
        ctx.shared.reads.add("market", "prices", market.rows)
        ctx.require(ctx.state[f"has_cell:{corp.id}"])
        return self.cell_chain(ctx, corp, lambda cell: market.price(cell), key=("price",))

    # -- money, shares and certificates
    def percent_of(self, ctx: Ctx, holder: Any, corp: Ent) -> Any:
        return SUM([IF(self.held(ctx, c, holder), self.cert_percent(ctx, c), 0) for c in self.m.certs_for(corp.id)])

    def cert_percent(self, ctx: Ctx, cert: Item) -> Any:
        """A certificate's percent; for a corporation with share layouts, under the layout chosen
        (`layout:<corporation>`; 0 where it has no such certificate)."""
        return self._by_layout(ctx, cert, lambda percent: percent)

    def cert_shares(self, ctx: Ctx, cert: Item) -> Any:
        """A certificate's shares (its percent / 10), as `cert_percent`."""
        return self._by_layout(ctx, cert, lambda percent: percent // 10)

    def _by_layout(self, ctx: Ctx, cert: Item, f: Callable[[int], int]) -> Any:
        if not cert.layouts:
            return f(cert.percent)
        chosen = ctx.state[f"layout:{cert.corp}"]
        out: Any = f(cert.layouts[-1][1])
        for key, percent in reversed(cert.layouts[:-1]):
            out = IF(chosen == key, f(percent), out)
        return out

    def cert_exists(self, ctx: Ctx, cert: Item) -> Any:
        """Whether the layout chosen has the certificate (always, without share layouts)."""
        if all(percent > 0 for _, percent in cert.layouts):
            return True
        chosen = ctx.state[f"layout:{cert.corp}"]
        return OR(*[chosen == key for key, percent in cert.layouts if percent > 0])

    def layout_cases(self, ctx: Ctx, corp: Ent) -> list[tuple[Any, list[Item]]]:
        """The corporation's certificates under each layout it may have, with its condition: the
        certificates that layout has, each with its percent there (`Model.layout_certificates`)."""
        return [(True if key is None else ctx.state[f"layout:{corp.id}"] == key, certs)
                for key, certs in self.m.layout_certificates(corp)]

    def no_cert_limit(self, ctx: Ctx, corp: Ent) -> Any:
        if self.m.market is None:
            return False
        return self.zone_cond(ctx, corp, "no_cert_limit")

    def cert_count(self, ctx: Ctx, holder: Any) -> Any:
        """`b_certificates`: what counts against the certificate limit."""
        return SUM(self.cert_count_terms(ctx, holder))

    def cert_count_terms(self, ctx: Ctx, holder: Any) -> list[Any]:
        """`cert_count`'s terms, one per item (or frame count) that may count: their sum is the count."""
        m = self.m
        counts = self.param(ctx, "cert_limit_counts")
        if not isinstance(counts, SymList):
            raise Unsupported(f"cert_limit_counts is {counts!r}, not a list of shares/privates/bonds/minors")
        names = {e for e, c in counts.elems}
        if names - {"shares", "privates", "bonds", "minors"}:
            raise Unsupported(f"cert_limit_counts names {sorted(map(str, names))}, not only shares/privates/bonds/minors")
        parts: list[Any] = []
        if "shares" in names:
            for corp in m.corporations:
                certs = m.certs_for(corp.id)
                nc = self.no_cert_limit(ctx, corp)
                for cert in certs:
                    parts.append(IF(AND(self.held(ctx, cert, holder), NOT(nc)), 1, 0))
            if m.truncated:
                h = self.ent(holder)
                for p in m.players:
                    parts.append(IF(h == m.z(p), ctx.state[f"other_certs:{p.id}"], 0))
        if "privates" in names:
            for x in m.private_items:
                parts.append(IF(AND(self.held(ctx, x, holder), NOT(ctx.state[f"closed:{x.id}"])), 1, 0))
        if "bonds" in names:
            for b in m.bond_items:
                parts.append(IF(self.held(ctx, b, holder), 1, 0))
        if "minors" in names:
            h = self.ent(holder)
            for x in m.minors:
                parts.append(IF(AND(ctx.state[f"owner:{x.id}"] == h, NOT(ctx.state[f"closed:{x.id}"])), 1, 0))
        return parts

    # ---------------------------------------------------------------- queries

    def b_cash(self, ctx: Ctx, holder: Any) -> Any:
        return self.cash_of(ctx, self.ent(holder))

    def b_percent(self, ctx: Ctx, holder: Any, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: self.percent_of(ctx, holder, c))

    def b_holder_of(self, ctx: Ctx, item: Any) -> Any:
        k = self.known(item) if is_z3(item) else None
        if k is not None and k.kind == "minor":
            # (as the runtime's owner table: a minor's holder is its owner)
            return ctx.state[f"owner:{k.id}"]
        sel = self.sel(item)
        ctx.require(OR(*[c for _, c in sel.alts]))
        out: Any = self.m.z(NONE)
        for it, cond in reversed(sel.alts):
            out = IF(cond, self.holder(ctx, it), out)
        return out

    def b_president(self, ctx: Ctx, corp: Any) -> Any:
        m = self.m

        def pres(c: Ent) -> Any:
            certs = m.certs_for(c.id)
            cert0 = certs[0]
            out: Any = m.z(NONE)
            for p in reversed(m.players):
                out = IF(ctx.state[hold_name(cert0, p)] >= 1, m.z(p), out)
            return out

        return self.per_corp(ctx, corp, pres)

    def b_president_certificate(self, ctx: Ctx, corp: Any) -> Any:
        options = self.corp_of(ctx, corp)
        alts = []
        for c, cond in options:
            certs = self.m.certs_for(c.id)
            alts.append((certs[0], cond))
        return Sel(alts)

    def b_started(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: ctx.state[f"has_par:{c.id}"])

    def b_floated(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: ctx.state[f"floated:{c.id}"])

    def b_price(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: self.price_of(ctx, c))

    def b_par_price(self, ctx: Ctx, corp: Any) -> Any:
        def par(c: Ent) -> Any:
            ctx.require(ctx.state[f"has_par:{c.id}"])
            return ctx.state[f"par:{c.id}"]

        return self.per_corp(ctx, corp, par)

    def par_price_list(self, ctx: Ctx, corp: Ent) -> list[int]:
        m = self.m
        prices = m.data[corp].get("par") or m.prop_value("par_prices")
        ctx.shared.reads.add("par_prices", corp.id, prices)
        if prices is None:
            market = m.require_market()
            prices = sorted({market.price(c) for c in market.par_cells()})
        if not isinstance(prices, list) or not all(isinstance(p, int) for p in prices):
            raise GapError(f"corporation {corp.id} par", "par prices are not a list of amounts")
        return prices

    def b_par_prices(self, ctx: Ctx, corp: Any) -> Any:
        options = self.corp_of(ctx, corp)
        elems = []
        for c, cond in options:
            for p in self.par_price_list(ctx, c):
                elems.append((p, cond))
        return SymList(elems)

    def b_zones(self, ctx: Ctx, corp: Any) -> Any:
        m = self.m
        options = self.corp_of(ctx, corp)
        m.require_market()
        elems = []
        card_zones = self.card_zones(ctx)
        for zone in m.zone_names + [z for z in card_zones if z not in m.zone_names]:
            elems.append((zone, OR(*[AND(cond, OR(self.zone_cond(ctx, c, zone), self.card_zone(ctx, c, zone, card_zones)))
                                     for c, cond in options])))
        return SymList(elems)

    def card_zones(self, ctx: Ctx) -> dict[str, list[int]]:
        """zone -> the cards (indexes) whose `market_zone` ability puts their company in it (none for a
        title without ability cards)."""
        if self.m.prop_value("ability_cards") is None:
            return {}
        out: dict[str, list[int]] = {}
        for i, _card, ability in self.powers(ctx, "market_zone"):
            for zone in ability.get("zones") or ():
                out.setdefault(str(zone), []).append(i)
        return out

    def card_zone(self, ctx: Ctx, corp: Ent, zone: str, card_zones: dict[str, list[int]]) -> Any:
        """Whether C's card puts it in the zone (GameBase.b_zones: `effect: market_zone`)."""
        if zone not in card_zones:
            return False
        index = self.card_index(ctx, corp)
        return OR(*[index == i for i in card_zones[zone]])

    def b_in_round(self, ctx: Ctx, kind: Any) -> Any:
        if not isinstance(kind, str):
            raise Unsupported("in_round of a non-name")
        first_round = self.m.prop_value("first_round")
        ctx.shared.reads.add("property", "first_round", first_round)
        if kind == "draft" and first_round == "draft" and not self.m.draft_items:
            raise Unsupported("a draft with no private or minor to deal")
        if kind not in ROUNDS or (kind == "draft" and not self.m.draft_items):
            return False
        return ctx.state["round"] == ROUNDS.index(kind)

    # -- the draft (`first_round: draft`, GameBase._start_draft ... _end_draft). The model keeps each
    # company's drafter and price (`drafter:`, `draft_price:`); the deck, the hands and the Pass cards
    # are the runtime's (oracles). The purchases at the draft's end are the runtime step `draft_ends`.
    def draft_item(self, company: Any) -> Ent:
        """The draft's company a bound term names (Unsupported for any other)."""
        x = self.known(self.ent(company))
        if x is None or x not in self.m.draft_items:
            raise Unsupported(f"a draft pick of {company!r}, not a company of the draft")
        return x

    def draft_oracle(self, ctx: Ctx, name: str, x: Ent | None, sort: str) -> z3.ExprRef:
        """The runtime's answer `name` (about company `x`, if given) in this step's pre-state (one
        constant per step, so a guard and an effect read the same answer)."""
        key = (x.id,) if x is not None else ()
        for known, args, const in ctx.shared.oracles:
            if known == name and args == key:
                return const
        value = ctx.fresh(f"{name}:{x.id}" if x is not None else name, sort)
        ctx.shared.oracles.append((name, key, value))
        return value

    def draft_with_bank(self, ctx: Ctx, x: Ent) -> Any:
        """Whether company `x` (a private or a minor of the draft) is the bank's and open."""
        st = ctx.state
        if x.kind == "minor":
            return AND(st[f"owner:{x.id}"] == self.m.z(BANK), NOT(st[f"closed:{x.id}"]))
        item = self.m.item_of_ent(x)
        assert item is not None
        return AND(st[hold_name(item, BANK)] >= 1, NOT(st[f"closed:{x.id}"]))

    def draft_open(self, ctx: Ctx, x: Ent) -> Any:
        """Whether company `x` can still be dealt: the bank's, open, picked by nobody."""
        return AND(self.draft_with_bank(ctx, x), ctx.state[f"drafter:{x.id}"] == self.m.z(NONE))

    def draft_amount(self, x: Ent, key: str, reads: Reads) -> int:
        """A company's amount (`cost`, `draft_price`, `treasury`) in currency units."""
        value = self.m.data[x].get(key)
        reads.add(x.kind, f"{x.id}.{key}", value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise Unsupported(f"{x.kind} {x.id} {key}: not an amount")
        return value

    def draft_floor(self, ctx: Ctx, x: Ent) -> int:
        """As GameBase._draft_floor: the company's property that `last_company_floor` names, else 0."""
        floor = self.m.draft_component().get("last_company_floor")
        ctx.shared.reads.add("draft", "last_company_floor", floor)
        if floor is None or self.m.data[x].get(str(floor)) is None:
            return 0
        return self.draft_amount(x, str(floor), ctx.shared.reads)

    def b_in_draft_hand(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_in_draft_hand: whether the card is among those drawn for this pick (the
        runtime's deck: an oracle); a card dealt is a company still open and picked by nobody."""
        x = self.draft_item(company)
        drawn = self.draft_oracle(ctx, "in_draft_hand", x, "bool")
        return AND(ctx.state["round"] == ROUNDS.index("draft"), drawn, self.draft_open(ctx, x))

    def b_draft_price(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_draft_price: the company's price now, which passes on a last company lower
        (an oracle) from its price (a minor's `draft_price`, else its `cost`) down to its floor."""
        x = self.draft_item(company)
        price = self.draft_oracle(ctx, "draft_price", x, "int")
        full = self.draft_amount(x, "draft_price" if x.kind == "minor" else "cost", ctx.shared.reads)
        ctx.shared.axioms.append(AND(price >= self.draft_floor(ctx, x), price <= max(full, self.draft_floor(ctx, x))))
        return price

    def b_draft_committed(self, ctx: Ctx, player: Any) -> Any:
        """As GameBase.b_draft_committed: what the player's picks so far will cost when the draft ends."""
        m = self.m
        p = self.ent(player)
        st = ctx.state
        return SUM([IF(st[f"drafter:{x.id}"] == p, st[f"draft_price:{x.id}"], 0) for x in m.draft_items])

    def b_replaying(self, ctx: Ctx) -> Any:
        """As GameBase.b_replaying: the model is of games the engine plays itself, not of a replayed
        log of another engine (whose hidden draws let a pick take any card at its logged price)."""
        return False

    def b_draft_pick(self, ctx: Ctx, player: Any, company: Any) -> None:
        """As GameBase.b_draft_pick: the player keeps the company, at its draft price now; the draft
        goes on (its deck and turn are the runtime's; its end is the step `draft_ends`)."""
        x = self.draft_item(company)
        self.pick(ctx, self.ent(player), x, self.b_draft_price(ctx, company), ctx.path)
        self.draft_turn_over(ctx)

    def pick(self, ctx: Ctx, player: Any, x: Ent, price: Any, when: Any) -> None:
        """Where `when` holds, `player` has picked company `x` in the draft, to pay `price` at its end."""
        st = ctx.state
        st[f"drafter:{x.id}"] = IF(when, player, st[f"drafter:{x.id}"])
        st[f"draft_price:{x.id}"] = IF(when, price, st[f"draft_price:{x.id}"])

    def draft_turn_over(self, ctx: Ctx) -> None:
        """The draft's turn moves on: the round machinery is havocked, the round stays the draft."""
        ctx.havoc([name for name in self.m.vars.turn_names() if name != "round"])

    def draft_pass(self, ctx: Ctx) -> None:
        """As GameBase._draft_pass: a pass is allowed only when a single company is left in the deck
        (the runtime's deck: an oracle); it lowers the company's price, and at its floor the player
        then on turn takes it at that price (which company, and whether its price has reached the
        floor, are the runtime's: oracles, with the pick only of a company still dealt)."""
        m = self.m
        ctx.require(self.draft_oracle(ctx, "draft_last_company", None, "bool"))
        taker = ctx.fresh("draft_taker", "ent")
        ctx.shared.axioms.append(OR(*[taker == m.z(p) for p in m.players]))
        for x in m.draft_items:
            forced = self.draft_oracle(ctx, "draft_forced", x, "bool")
            self.pick(ctx, taker, x, self.draft_floor(ctx, x), AND(ctx.path, forced, self.draft_open(ctx, x)))
        self.draft_turn_over(ctx)

    def b_in_special_round(self, ctx: Ctx, name: Any) -> Any:
        """As GameBase.b_in_special_round: a special round is on (which one the model does not follow)."""
        return ctx.state["round"] == ROUNDS.index("special")

    def b_special_round_held(self, ctx: Ctx, name: Any) -> Any:
        """As GameBase.b_special_round_held: the runtime's record, not modelled (any value)."""
        return ctx.fresh("special_round_held", "bool")

    def b_call_round(self, ctx: Ctx, name: Any) -> None:
        """As GameBase.b_call_round: the runtime notes a special round to hold later; nothing the model
        holds changes."""

    def b_takeover_station(self, ctx: Ctx, owner: Any, city: Any) -> Any:
        """As GameBase.b_takeover_station: the runtime's record of a takeover (any truth value)."""
        return ctx.fresh("takeover_station", "bool")

    def b_swap_station(self, ctx: Ctx, owner: Any, city: Any) -> None:
        """As GameBase.b_swap_station: a station changes hands on the map (not modelled) and the decision
        may end: whoever acts next is the runtime's to say."""
        ctx.havoc(["pending", "pending_entity", "pending_action", "acting"])

    def b_acquisition_target(self, ctx: Ctx) -> Any:
        """As GameBase.b_acquisition_target: the corporation the runtime auctions (any entity)."""
        return ctx.fresh("acquisition_target", "ent")

    def b_highest_acquisition_bid(self, ctx: Ctx) -> Any:
        """As GameBase.b_highest_acquisition_bid: the runtime's record of bids (any amount, at least 0)."""
        high = ctx.fresh("acquisition_high")
        ctx.shared.axioms.append(high >= 0)
        return high

    def b_acquisition_bid(self, ctx: Ctx, bidder: Any, amount: Any) -> None:
        """As GameBase.b_acquisition_bid: the bid is recorded and the turn passes; the resolution (payment,
        takeover or liquidation) is a runtime step the model does not follow."""
        self.turn_over(ctx)

    def b_stock_round_number(self, ctx: Ctx) -> Any:
        return ctx.state["stock_rounds"]

    def b_acting(self, ctx: Ctx, entity: Any) -> Any:
        return ctx.state["acting"] == self.ent(entity)

    def b_in_step(self, ctx: Ctx, corp: Any, step: Any) -> Any:
        if not isinstance(step, str):
            raise Unsupported("in_step of a non-name")
        st = ctx.state
        # the step itself, or a combined step that includes it (track_and_token)
        names = [step] + [name for name, parts in COMBINED_STEPS.items() if step in parts]
        codes = [STEPS.index(n) + 1 if n in STEPS else -1 for n in names]
        return AND(st["round"] == ROUNDS.index("operating"), st["operating"] == self.ent(corp),
                   OR(*[st["step"] == code for code in codes]))

    def b_sold_this_turn(self, ctx: Ctx, player: Any, corp: Any) -> Any:
        """As GameBase.b_sold_this_turn: certificates of the corporation sold in this turn."""
        return OR(*[AND(cond, ctx.state[f"sold_this_turn:{c.id}"]) for c, cond in self.corp_of(ctx, corp)])

    def privates_for_sale(self, ctx: Ctx) -> list[tuple[Ent, Any]]:
        """`_privates_for_sale`: the sale order's privates still with the bank, open."""
        m = self.m
        order = m.prop_value("private_sale_order") or []
        ctx.shared.reads.add("property", "private_sale_order", order)
        out = []
        for key in order:
            ent = m.entity("private", str(key))
            if ent is None:
                continue
            item = m.item_of_ent(ent)
            assert item is not None
            out.append((ent, AND(ctx.state[hold_name(item, BANK)] >= 1, NOT(ctx.state[f"closed:{ent.id}"]))))
        return out

    def b_private_on_sale(self, ctx: Ctx) -> Any:
        m = self.m
        out: Any = m.z(NONE)
        for ent, cond in reversed(self.privates_for_sale(ctx)):
            out = IF(cond, m.z(ent), out)
        return out

    def b_certificates(self, ctx: Ctx, holder: Any) -> Any:
        return self.cert_count(ctx, holder)

    def b_next_certificate(self, ctx: Ctx, corp: Any, source: Any) -> Any:
        m = self.m
        if z3.is_expr(source) and source.eq(m.z(POOL)):
            source = "pool"  # the holder `pool` named where a source is meant (as the runtime reads it)
        elif z3.is_expr(source) and m.ipo_apart and source.eq(m.z(IPO)):
            source = "ipo"  # the holder `initial_offering` likewise
        if not isinstance(source, str):
            raise Unsupported("next_certificate from a non-name")
        alts = []
        for c, ccond in self.corp_of(ctx, corp):
            holder = POOL if source == "pool" else (self.tr.ipo_of(c) if source == "ipo" else c)
            started = ctx.state[f"has_par:{c.id}"]
            taken: Any = False
            for cert in m.certs_for(c.id):
                # (a president's certificate in receivership passes only by exchange, in the take-over)
                ok = AND(self.held(ctx, cert, m.z(holder)),
                         NOT(AND(cert.president, source != "pool", NOT(started))),
                         NOT(AND(cert.president, holder != POOL)),
                         NOT(AND(cert.president, self.in_receivership(ctx, c))))
                alts.append((cert, AND(ccond, ok, NOT(taken))))
                taken = OR(taken, ok)
        return Sel(alts)

    def in_receivership(self, ctx: Ctx, corp: Ent) -> Any:
        """As GameBase.b_in_receivership: where the title has `receivership_steps`, a started corporation
        whose president's certificate lies in the market (the model has no closed corporations)."""
        if not self.m.prop_value("receivership_steps"):
            return False
        return AND(ctx.state[f"has_par:{corp.id}"], self.held(ctx, self.m.certs_for(corp.id)[0], self.m.z(POOL)))

    def b_sellable(self, ctx: Ctx, player: Any, corp: Any) -> Any:
        """As GameBase.b_sellable: the certificates of the corporation the player may sell, president's
        last (`sellable_certs`)."""
        elems = []
        for c, cond in self.corp_of(ctx, corp):
            for cert, ok in self.sellable_certs(ctx, player, c):
                elems.append((Sel([(cert, True)]), AND(cond, ok)))
        return SymList(elems)

    def sellable_certs(self, ctx: Ctx, player: Any, c: Ent) -> list[tuple[Item, Any]]:
        """As GameBase.b_sellable, for corporation `c`: each certificate the player may sell (president's
        last, then by index from the last) with when he may. He holds it; none of a corporation in
        receivership where the title forbids selling it (`receivership_selling: forbidden`); the
        president's certificate only where the title lets it be sold and another player still in the game
        holds as much as it is worth (who then presides); none in a stock-round turn in which he sold some
        of the corporation already where the title says `sell_in_blocks: true`."""
        m = self.m
        st = ctx.state
        p = self.ent(player)
        saleable = self.param(ctx, "president_certificate_saleable") is True
        barred: Any = False
        # (titles that predate these properties: selling allowed, not in blocks; the runtime's `_param_or`)
        selling, blocks = m.prop_value("receivership_selling"), m.prop_value("sell_in_blocks")
        ctx.shared.reads.add("property", "receivership_selling", selling)
        ctx.shared.reads.add("property", "sell_in_blocks", blocks)
        if selling == "forbidden":
            barred = self.in_receivership(ctx, c)
        if blocks is True:
            barred = OR(barred, AND(st["round"] == ROUNDS.index("stock"), st[f"sold_this_turn:{c.id}"]))
        certs = m.certs_for(c.id)
        out = []
        for cert in sorted((x for x in certs if saleable or not x.president), key=lambda x: (x.president, -x.index)):
            ok = AND(self.held(ctx, cert, p), NOT(barred))
            if cert.president:
                worth = self.cert_percent(ctx, cert)
                ok = AND(ok, OR(*[AND(NOT(ent_is(m, p, q)), NOT(st[f"out:{q.id}"]),
                                      self.tr.cmp(">=", self.percent_of(ctx, m.z(q), c), worth))
                                  for q in m.players]))
            out.append((cert, ok))
        return out

    def b_granted(self, ctx: Ctx, cert: Any) -> Any:
        sel = self.sel(cert)
        return OR(*[AND(c, ctx.state[f"granted:{it.id}"]) for it, c in sel.alts if it.kind == "certificate"])

    def b_len(self, ctx: Ctx, xs: Any) -> Any:
        return self.tr.length(xs)

    def b_take(self, ctx: Ctx, xs: Any, n: Any) -> Any:
        """take(xs, n): the first n present elements (n a number the title gives)."""
        if is_z3(n):
            raise Unsupported("take of a symbolic count")
        if not isinstance(xs, SymList):
            return list(xs)[:n]
        out = []
        for k, (value, cond) in enumerate(xs.elems):
            before = SUM([IF(c, 1, 0) for _, c in xs.elems[:k]])
            out.append((value, AND(cond, self.tr.cmp("<", before, n))))
        return SymList(out)

    def b_first(self, ctx: Ctx, xs: Any) -> Any:
        if isinstance(xs, SymList) and not xs.elems:
            return None
        present = OR(*[c for _, c in xs.elems]) if isinstance(xs, SymList) else True
        sub = ctx.fork(present)
        value = self.tr.index(xs, 0, sub)
        return value

    def b_trains(self, ctx: Ctx, holder: Any) -> Any:
        return SymList([(Sel([(t, True)]), self.held(ctx, t, holder)) for t in self.m.trains])

    def b_revenue(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: ctx.state[f"revenue:{c.id}"])

    def b_shareholders(self, ctx: Ctx, corp: Any) -> Any:
        m = self.m
        (c, cond), *rest = self.corp_of(ctx, corp) or [(None, False)]
        if rest:
            raise Unsupported("shareholders of a symbolic corporation")
        certs = m.certs_for(c.id)
        elems = []
        for h in m.buckets["certificate"]:
            elems.append((m.z(h), AND(cond, OR(*[ctx.state[hold_name(x, h)] >= 1 for x in certs]))))
        elems.append((m.z(ELSEWHERE), AND(cond, OR(*[ctx.state[hold_name(x, None)] >= 1 for x in certs]))))
        return SymList(elems)

    def b_train_limit(self, ctx: Ctx, corp: Any = None) -> Any:
        m = self.m
        values = []
        for i, phase in enumerate(m.phases):
            limit = phase.get("train_limit")
            ctx.shared.reads.add("phase", f"{phase['key']}.train_limit", limit)
            from compiler.verify.model import GapValue

            if isinstance(limit, GapValue) or limit is None:
                raise GapError(f"phase {phase['key']} train_limit", getattr(limit, "reason", "not given"))
            if isinstance(limit, dict) and m.n_players in limit:
                limit = limit[m.n_players]
            if not isinstance(limit, int):
                raise Unsupported(f"phase {phase['key']} train_limit {limit!r} (by kind)")
            values.append(limit)
        if not values:
            raise GapError("phases")
        out: Any = values[-1]
        for i in reversed(range(len(values) - 1)):
            out = IF(ctx.state["phase"] == i, values[i], out)
        return out

    def b_phase_at_least(self, ctx: Ctx, name: Any) -> Any:
        return ctx.state["phase"] >= self.m.phase_index(str(name))

    def on_depot(self, ctx: Ctx, name: str, compute: Callable[[], Any]) -> Any:
        """`compute()`, a value read from the depot's holdings and the phase only (no guard), once a
        translation for each state of those (the emergency functions ask for the cheapest train in
        every case they weigh)."""
        m = self.m
        st = ctx.state
        values = tuple(st[var] for var in (hold_name(t, DEPOT) for t in m.train_order) if var in st) + (st["phase"],)
        key = ("depot", name, tuple(map(id, values)))
        hit = ctx.shared.cached.get(key)
        if hit is None:
            hit = ctx.shared.cached[key] = (compute(), values)
        return hit[0]

    def avail(self, ctx: Ctx) -> list[tuple[Item, Any]]:
        """`_available_train_ids`: which trains the depot sells now: the next in supply order, a train
        whose `available_after` types (one or a list) are all sold out, a train whose `available_from`
        phase has come (1880's rebuilt 2-trains, sold beside the stack, VII.3.5.1); never a train a
        corporation owns from the start (`owner`)."""
        return list(self.on_depot(ctx, "avail", lambda: self._avail(ctx)))

    def _avail(self, ctx: Ctx) -> list[tuple[Item, Any]]:
        m = self.m
        st = ctx.state
        order = [t for t in m.train_order if m.train_data.get(t.name or "", {}).get("owner") is None]
        in_depot = {t.id: st[hold_name(t, DEPOT)] >= 1 for t in order}
        first: dict[str, Any] = {}
        none_before: Any = True
        for t in order:
            first[t.id] = AND(in_depot[t.id], none_before)
            none_before = AND(none_before, NOT(in_depot[t.id]))
        sold_out = {name: AND(*[NOT(in_depot[t.id]) for t in order if t.name == name]) for name in m.train_types}
        out = []
        seen: dict[str, Any] = {}
        for t in order:
            data = m.train_data.get(t.name or "", {})
            after, since = data.get("available_after"), data.get("available_from")
            ctx.shared.reads.add("train", f"{t.name}.available_after", after)
            ctx.shared.reads.add("train", f"{t.name}.available_from", since)
            ok = first[t.id]
            if after is not None:
                after_all = [str(a) for a in after] if isinstance(after, (list, tuple)) else [str(after)]
                ok = OR(ok, AND(in_depot[t.id], *[sold_out.get(a, False) for a in after_all]))
            if isinstance(since, str):
                ok = OR(ok, AND(in_depot[t.id], self.b_phase_at_least(ctx, since)))
            earlier = seen.get(t.name or "", False)
            out.append((t, AND(ok, NOT(earlier))))
            seen[t.name or ""] = OR(earlier, ok)
        return out

    def b_available_trains(self, ctx: Ctx) -> Any:
        return SymList([(Sel([(t, True)]), cond) for t, cond in self.avail(ctx)])

    def b_bank_buys_this_turn(self, ctx: Ctx) -> Any:
        return ctx.state["bank_buys"]

    def b_corporation_of(self, ctx: Ctx, item: Any) -> Any:
        m = self.m
        e = self.ent(item)
        k = self.known(e)
        cands = [k] if k is not None else [x for x in m.bonds]
        out: Any = m.z(NONE)
        for x in reversed(cands):
            cid = m.data.get(x, {}).get("corporation")
            corp = m.corp(str(cid)) if cid is not None else None
            if corp is None:
                raise Unsupported(f"corporation_of({x})")
            out = IF(e == m.z(x), m.z(corp), out) if k is None else m.z(corp)
        return out

    def b_must_buy_train(self, ctx: Ctx, corp: Any) -> Any:
        m = self.m
        e = self.ent(corp)
        k = self.known(e)
        if k is not None and k.kind != "corporation":
            return False
        # a card's `no_train_needed` ability lifts the obligation (GameBase.b_must_buy_train)
        exempt = (self.b_has_power(ctx, e, "no_train_needed")
                  if m.prop_value("ability_cards") is not None and self.powers(ctx, "no_train_needed") else False)
        # a corporation in receivership is operated by the runtime, and owes no train (1846's receivership)
        exempt = OR(exempt, *[AND(cond, self.in_receivership(ctx, c)) for c, cond in self.corp_of(ctx, e)])
        return AND(self.b_in_step(ctx, e, "buy_train"),
                   NOT(OR(*[self.held(ctx, t, e) for t in m.trains if self.meets_obligation(ctx, t)])),
                   OR(*[c for _, c in self.avail(ctx)]), NOT(exempt))

    def meets_obligation(self, ctx: Ctx, train: Item) -> bool:
        """As GameBase._meets_obligation: whether the train counts for a corporation's duty to own one
        (not one with `satisfies_train_obligation: false`, 1880's rebuilt 2-train, VII.3.5.1)."""
        value = self.m.train_data.get(train.name or "", {}).get("satisfies_train_obligation", True)
        ctx.shared.reads.add("train", f"{train.name}.satisfies_train_obligation", value)
        return value is not False

    def b_cheapest_train_price(self, ctx: Ctx) -> Any:
        """As GameBase.b_cheapest_train_price: the cheapest side of a card the bank sells (1846's 4-train
        card sold as a 3/5 at $160); only a train that meets the duty to own one counts."""
        def cheapest() -> Any:
            avail = [(t, cond) for t, cond in self.avail(ctx) if self.meets_obligation(ctx, t)]
            out: Any = 0
            for t, cond in sorted(avail, key=lambda tc: -min(self.side_prices_of(tc[0]))):
                out = IF(cond, min(self.side_prices_of(t)), out)
            return out

        return self.on_depot(ctx, "cheapest_train_price", cheapest)

    def b_forced_shortfall(self, ctx: Ctx, corp: Any) -> Any:
        must = self.b_must_buy_train(ctx, corp)
        if truth(must) is False:
            return 0
        sub = ctx.fork(must)
        price = self.b_cheapest_train_price(sub)
        before = self.cash_of(sub, self.ent(corp))
        self.tr.call("forced_purchase_help", [corp, price], {}, sub)
        after = self.cash_of(sub, self.ent(corp))
        help_ = SUM([after, NEG(before)])
        short = SUM([price, NEG(before), NEG(help_)])
        return IF(must, IF(self.tr.cmp(">", short, 0), short, 0), 0)

    def b_closed(self, ctx: Ctx, item: Any) -> Any:
        m = self.m
        e = self.ent(item)
        return OR(*[AND(e == m.z(x), ctx.state[f"closed:{x.id}"]) for x in m.privates + m.minors])

    def b_bank_funded_shares(self, ctx: Ctx, corp: Any) -> Any:
        m = self.m

        def funded(c: Ent) -> Any:
            flag = m.data[c].get("bank_funds_on_par")
            ctx.shared.reads.add("corporation", f"{c.id}.bank_funds_on_par", flag)
            if not flag:
                return 0
            return SUM([IF(AND(ctx.state[f"granted:{x.id}"], OR(*[ctx.state[hold_name(x, p)] >= 1 for p in m.players])),
                           self.cert_shares(ctx, x), 0) for x in m.certs_for(c.id)])

        return self.per_corp(ctx, corp, funded)

    def b_free_cash(self, ctx: Ctx, player: Any) -> Any:
        m = self.m
        p = self.ent(player)
        locked = SUM([IF(p == m.z(q), ctx.state[f"bid:{x.id}@{q.id}"], 0) for x in m.privates for q in m.players])
        if m.draft_items:
            # in the draft, what the player's picks will cost is set aside too
            drafting = ctx.state["round"] == ROUNDS.index("draft")
            locked = SUM([locked, IF(drafting, self.b_draft_committed(ctx, player), 0)])
        return SUM([self.cash_of(ctx, p), NEG(locked)])

    def b_highest_bid(self, ctx: Ctx, item: Any) -> Any:
        m = self.m
        st = ctx.state
        e = self.ent(item)
        best: Any = 0
        for x in m.privates:
            for q in m.players:
                b = st[f"bid:{x.id}@{q.id}"]
                best = IF(AND(e == m.z(x), b > zi(best)), b, best)
        return IF(AND(st["auction"], st["auction_company"] == e), st["auction_high"], best)

    def b_in_auction(self, ctx: Ctx) -> Any:
        return ctx.state["auction"]

    def b_auction_company(self, ctx: Ctx) -> Any:
        st = ctx.state
        out = IF(st["auction"], st["auction_company"], self.m.z(NONE))
        first_round = self.m.prop_value("first_round")
        ctx.shared.reads.add("property", "first_round", first_round)
        if first_round == "auction":
            # as GameBase.b_auction_company: the Starting Round's private on auction
            out = IF(st["round"] == ROUNDS.index("auction"), self.starting_head(ctx), out)
        return out

    def starting_head(self, ctx: Ctx) -> Any:
        """The head of the opening auction's queue (`first_round: auction`): the first private, in the
        order the title lists them, still with the bank and open (the runtime's queue starts as every
        open private and loses its head at each sale); NONE when all are sold."""
        m = self.m
        out: Any = m.z(NONE)
        for x in reversed(m.privates):
            item = m.item_of_ent(x)
            assert item is not None
            out = IF(AND(ctx.state[hold_name(item, BANK)] >= 1, NOT(ctx.state[f"closed:{x.id}"])), m.z(x), out)
        return out

    def b_auction_bid(self, ctx: Ctx, player: Any, amount: Any) -> None:
        """As GameBase.b_auction_bid: the player's bid becomes the high bid on the private on auction
        (kept as that player's bid on it; the bid it beats is gone). Whether every other player has
        passed, so that the private is sold now, is the runtime's (`_next_bidder_in_auction`): the sale
        is the runtime step `private_sold_to_bidder`."""
        p = self.ent(player)
        self.rewrite_bids(ctx, self.starting_head(ctx), lambda q, old: IF(p == self.m.z(q), zi(amount), 0))
        self.turn_over(ctx)

    def rewrite_bids(self, ctx: Ctx, item: Any, new: Any) -> None:
        """Where the path holds, each player q's bid on the private `item` (a z3 term) becomes
        `new(q, old)`, `old` being that bid now (the `bid:<private>@<player>` variables)."""
        m = self.m
        for y in m.privates:
            for q in m.players:
                name = f"bid:{y.id}@{q.id}"
                ctx.state[name] = IF(AND(ctx.path, item == m.z(y)), new(q, ctx.state[name]), ctx.state[name])

    def b_offered_later(self, ctx: Ctx, item: Any) -> Any:
        e = self.ent(item)
        sale = self.privates_for_sale(ctx)
        parts = []
        for i, (x, cond) in enumerate(sale):
            earlier = OR(*[c for _, c in sale[:i]])
            parts.append(AND(e == self.m.z(x), cond, earlier))
        return OR(*parts)

    def b_sale_price(self, ctx: Ctx) -> Any:
        return ctx.state["sale_price"]

    def b_pending_decision(self, ctx: Ctx, entity: Any, action: Any) -> Any:
        st = ctx.state
        code = self.m.vars.action_code(str(action))
        return AND(st["pending"], st["pending_entity"] == self.ent(entity), st["pending_action"] == code)

    def b_route_revenue(self, ctx: Ctx, corp: Any, routes: Any) -> Any:
        v = ctx.fresh("route_revenue")
        ctx.shared.oracles.append(("route_revenue", (corp,), v))
        ctx.shared.axioms.append(v >= 0)
        if self.m.revenue_step > 1:
            ctx.shared.axioms.append(v % self.m.revenue_step == 0)
        return v

    def b_recorded_revenue(self, ctx: Ctx, corp: Any, routes: Any) -> Any:
        """As GameBase.b_recorded_revenue: a run's revenue as its record gives it, any amount the
        routes could earn (an oracle, as route_revenue)."""
        return self.b_route_revenue(ctx, corp, routes)

    # -- the map: tile lays and station tokens are not modelled; what they cost
    #    and which privates they close are left to the engine (oracles)
    def b_check_lay(self, ctx: Ctx, corp: Any, hex_id: Any, tile: Any, rotation: Any) -> Any:
        return Opaque("a checked tile lay")

    def b_lay_cost(self, ctx: Ctx, lay: Any) -> Any:
        v = ctx.fresh("lay_cost")
        ctx.shared.oracles.append(("lay_cost", (), v))
        ctx.shared.axioms.append(v >= 0)
        return v

    def b_ability_lay_cost(self, ctx: Ctx, company: Any, lay: Any) -> Any:
        """As GameBase.b_ability_lay_cost: the map is outside the model; an oracle says, at least 0."""
        v = ctx.fresh("ability_lay_cost")
        ctx.shared.oracles.append(("ability_lay_cost", (), v))
        ctx.shared.axioms.append(v >= 0)
        return v

    def b_lay(self, ctx: Ctx, corp: Any, lay: Any, tile: Any) -> None:
        self.tile_closes_private(ctx)
        self.border_bonus(ctx)
        # `_collect_on_lay`: which hex the tile goes to is outside the model; the laying corporation may
        # collect components there (an oracle says how many), nobody else's count changes
        for kind in self.m.collect_kinds():
            for c, cond in self.corp_of(ctx, corp):
                name = f"collected:{kind}@{c.id}"
                before = ctx.state[name]
                ctx.havoc([name])
                ctx.require(z3.Implies(AND(ctx.path, cond), ctx.state[name] >= before))
                ctx.state[name] = IF(cond, ctx.state[name], before)
        self.param(ctx, "tile_lays")
        self.turn_over(ctx)

    def border_bonus(self, ctx: Ctx) -> None:
        """The runtime's `_border_crossings` (1880 II.3.1, P2): which printed hex sides a lay's new track
        reaches for the first time is outside the model (an oracle counts those of each private's
        `border_type`, at least 0); each open private held by a player with a `border_crossing`
        ability pays its owner `bonus_per_crossing` (currency units) per crossing from the bank,
        before phase `bonus_until`."""
        m = self.m
        for x in m.privates:
            for a in m.data.get(x, {}).get("children") or ():
                if a.get("kind") != "ability" or a.get("effect") != "border_crossing":
                    continue
                bonus, until = a.get("bonus_per_crossing"), a.get("bonus_until")
                ctx.shared.reads.add("private", f"{x.id}.border_crossing", [bonus, until, a.get("border_type")])
                if isinstance(bonus, bool) or not isinstance(bonus, int):
                    raise Unsupported(f"private {x.id} bonus_per_crossing: not an amount")
                crossings = ctx.fresh(f"crossings:{x.id}", "int")
                ctx.shared.oracles.append(("border_crossings", (x.id, str(a.get("border_type"))), crossings))
                ctx.require(crossings >= 0)
                item = m.item_of_ent(x)
                assert item is not None
                pays: Any = NOT(ctx.state[f"closed:{x.id}"])
                if until is not None:
                    pays = AND(pays, ctx.state["phase"] < m.phase_index(str(until)))
                for p in m.players:
                    sub = Ctx(self.tr, ctx.state, ctx.shared, AND(ctx.path, pays, ctx.state[hold_name(item, p)] >= 1),
                              ctx.locals)
                    self.transfer(sub, bonus * crossings, m.z(BANK), m.z(p))
                    ctx.state = sub.state

    def tile_closes_private(self, ctx: Ctx) -> None:
        """The runtime's `_put_tile`: a tile tied to a private closes it (which
        tile is laid is outside the model: an oracle says whether it closes)."""
        m = self.m
        tied = set()
        for comp in m.title.components("tile"):
            prop = comp.get("private")
            if prop is not None:
                tied.add(str(prop.value.name if isinstance(prop.value, s.Name) else getattr(prop.value, "value", "")))
        ctx.shared.reads.add("tiles", "private", sorted(tied))
        for x in m.privates:
            if x.id in tied:
                closes = ctx.fresh(f"lay_closes:{x.id}", "bool")
                ctx.shared.oracles.append(("lay_closes", (x.id,), closes))
                name = f"closed:{x.id}"
                ctx.state[name] = IF(ctx.path, OR(ctx.state[name], closes), ctx.state[name])

    def b_check_token(self, ctx: Ctx, corp: Any, city: Any) -> Any:
        return Opaque("a station spot")

    def token_costs(self, ctx: Ctx, corp: Ent) -> list[int]:
        """The corporation's `tokens` data (the runtime's `corp.get("tokens")`)."""
        values = self.m.data[corp].get("tokens")
        ctx.shared.reads.add("corporation", f"{corp.id}.tokens", values)
        if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
            raise GapError(f"corporation {corp.id} tokens", getattr(values, "reason", "not a list of amounts"))
        return values

    def _token_gap(self, ctx: Ctx, corp: Ent) -> Any:
        """The corporation's `tokens` when the title declares them a gap (its GapValue), else None; a
        check that reads such a gap is proved for any value of it (`any_value` in its reads)."""
        from compiler.verify.model import GapValue

        values = self.m.data[corp].get("tokens")
        if isinstance(values, GapValue):
            ctx.shared.reads.add("corporation", f"{corp.id}.tokens", values)
            ctx.shared.reads.add("any_value", f"corporation {corp.id} tokens", values.reason)
            return values
        return None

    def token_count(self, ctx: Ctx, corp: Ent) -> Any:
        """How many station tokens the corporation has: the length of its `tokens` data, or, where
        the title declares them a gap, a constant standing for any count (`Model.gap_constant`)."""
        gap = self._token_gap(ctx, corp)
        if gap is not None:
            return self.m.gap_constant(f"corporation {corp.id} tokens", gap.reason, least=1,
                                       why="its home station is a token of its own")
        return len(self.token_costs(ctx, corp))

    def token_cost(self, ctx: Ctx, corp: Ent, placed_before: int) -> Any:
        """The printed price of the token placed after `placed_before` more than the corporation's
        count now (0: the next one; -1: the last one placed). Where its tokens are a gap, any amount
        not below zero (an oracle)."""
        if self._token_gap(ctx, corp) is not None:
            v = ctx.fresh(f"gap_token_cost:{corp.id}")
            ctx.shared.oracles.append(("gap_token_cost", (corp.id,), v))
            ctx.shared.axioms.append(v >= 0)
            return v
        costs = self.token_costs(ctx, corp)
        out: Any = 0
        placed = SUM([ctx.state[f"tokens:{corp.id}"], NEG(self.extra_tokens(ctx, corp))])
        for i in reversed(range(len(costs))):
            out = IF(placed + placed_before == i, costs[i], out)
        return out

    def extra_tokens(self, ctx: Ctx, corp: Ent) -> Any:
        """The station tokens the corporation holds beyond its charter (`Model.extra_tokens`; none where
        the title gives none): counted among those placed (`tokens`), not among the charter's."""
        return ctx.state[f"extra_tokens:{corp.id}"] if self.m.extra_tokens else 0

    def tokens_left(self, ctx: Ctx, c: Ent) -> Any:
        """As GameBase.b_tokens_left for a corporation of the scope: its charter's and its extra tokens,
        less those placed."""
        return SUM([self.token_count(ctx, c), self.extra_tokens(ctx, c), NEG(ctx.state[f"tokens:{c.id}"])])

    def b_tokens_left(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: self.tokens_left(ctx, c))

    def b_next_token_cost(self, ctx: Ctx, corp: Any) -> Any:
        return self.per_corp(ctx, corp, lambda c: self.token_cost(ctx, c, 0))

    def b_check_station(self, ctx: Ctx, corp: Any, city: Any) -> Any:
        """As GameBase.b_check_station: a spot on the map (outside the model)."""
        return Opaque("a station spot")

    def b_token_cost(self, ctx: Ctx, corp: Any, spot: Any) -> Any:
        """As GameBase.b_token_cost: read from the map and the abilities, an
        oracle here (any amount not below zero)."""
        v = ctx.fresh("token_cost")
        ctx.shared.oracles.append(("token_cost", (), v))
        ctx.shared.axioms.append(v >= 0)
        return v

    def b_check_ability_lay(self, ctx: Ctx, company: Any, hex_id: Any, tile: Any, rotation: Any) -> Any:
        """As GameBase.b_check_ability_lay: its owning corporation lays, when it may use the private
        (`ability_user`); the lay itself is the map's (outside the model). An ability with the library's
        generic timing (`when: stock_turn | operating_turn | any_time | sold`, `owner: player`) is judged by the runtime's
        record of turns and uses, not modelled: no refusal (the proof covers every moment)."""
        m = self.m
        e = self.ent(company)
        generic = [x for x in m.privates
                   if any(a.get("kind") == "ability" and a.get("effect") == "free_lay"
                          and (str(a.get("when", "")) in ("stock_turn", "operating_turn", "any_time", "sold")
                               or str(a.get("owner", "")) == "player")
                          for a in m.data.get(x, {}).get("children") or ())]
        if generic:
            sub = ctx.fork(AND(*[e != m.z(x) for x in generic]))
            self.ability_user(sub, company)  # its refusal holds only off the generic privates
        else:
            self.ability_user(ctx, company)
        return Opaque("a checked tile lay")

    def token_ability_user(self, ctx: Ctx, company: Any, effect: str) -> None:
        """As GameBase._token_ability_user: the title's window (`ability_user`) for a private whose ability
        of `effect` has no generic timing; one with it (`when: operating_turn | any_time | ...`) is judged
        by the runtime's record of turns and uses, not modelled: no refusal there (the proof covers every
        moment), the station still the holding corporation's."""
        m = self.m
        e = self.ent(company)
        generic = [x for x in m.privates
                   if any(a.get("kind") == "ability" and a.get("effect") == effect
                          and (str(a.get("when", "")) in ("stock_turn", "operating_turn", "any_time", "sold",
                                                          "phase_start")
                               or str(a.get("owner", "")) == "player")
                          for a in m.data.get(x, {}).get("children") or ())]
        if generic:
            self.ability_user(ctx.fork(AND(*[e != m.z(x) for x in generic])), company)
        else:
            self.ability_user(ctx, company)

    def ability_user(self, ctx: Ctx, company: Any) -> None:
        """As GameBase._ability_user (the title's window): refused unless a corporation of the scope
        holding the private `company` is operating, and, unless the title's `private_ability_window` is
        `turn`, at a step before its trains have run (track, tokens, routes)."""
        m = self.m
        window = m.prop_value("private_ability_window")
        ctx.shared.reads.add("property", "private_ability_window", window)
        st = ctx.state
        parts = []
        for c in m.corporations:
            now = AND(st["round"] == ROUNDS.index("operating"), st["operating"] == m.z(c))
            if window != "turn":
                now = AND(now, OR(*[self.b_in_step(ctx, m.z(c), step)
                                    for step in ("track_and_token", "lay_tile", "place_token", "run_routes")]))
            parts.append(AND(self.owning_corporation(ctx, company, c), now))
        ctx.require(OR(*parts))

    def b_ability_lay(self, ctx: Ctx, company: Any, lay: Any, tile: Any) -> None:
        """As GameBase.b_ability_lay: the tile goes on the map (outside the
        model); a tile tied to a private closes it, as with `lay`; a private
        whose tile-lay ability says `closes_private: true` closes."""
        self.tile_closes_private(ctx)
        self.ability_closes_private(ctx, company, "free_lay")
        # `_collect_on_lay` for the owning corporation: as with `lay`, it may collect there (an oracle)
        for kind in self.m.collect_kinds():
            for c in self.m.corporations:
                cond = self.owning_corporation(ctx, company, c)
                name = f"collected:{kind}@{c.id}"
                before = ctx.state[name]
                ctx.havoc([name])
                ctx.require(z3.Implies(AND(ctx.path, cond), ctx.state[name] >= before))
                ctx.state[name] = IF(cond, ctx.state[name], before)

    def ability_closes_private(self, ctx: Ctx, company: Any, effect: str) -> None:
        """The private `company` closes where an ability of it with `effect` says `closes_private: true`."""
        m = self.m
        e = self.ent(company)
        for x in m.privates:
            if any(a.get("kind") == "ability" and a.get("effect") == effect and a.get("closes_private")
                   for a in self.m.data.get(x, {}).get("children") or ()):
                name = f"closed:{x.id}"
                ctx.state[name] = IF(AND(ctx.path, e == m.z(x)), True, ctx.state[name])

    def owning_corporation(self, ctx: Ctx, company: Any, c: Ent) -> Any:
        """Whether corporation `c` holds the private `company`."""
        item = self.tr.as_sel(company)
        return OR(*[AND(cond, self.held(ctx, it, self.m.z(c))) for it, cond in item.alts])

    def b_check_return_token(self, ctx: Ctx, company: Any, city: Any) -> Any:
        """As GameBase.b_check_return_token: which station is outside the model; the owning
        corporation keeps one on the map, so it has two or more there. Its stations on the map are an
        oracle: those it placed from its charter (`tokens`) and those a take-over gave it (18CO §6.1.3:
        a station swapped, which the model does not follow); one placed is the one taken back. The
        corporation uses the private when it may (`ability_user`; an ability of the library's generic
        timing is judged by the runtime's turns and uses, not modelled: `token_ability_user`)."""
        self.token_ability_user(ctx, company, "return_token")
        for c in self.m.corporations:
            placed = ctx.state[f"tokens:{c.id}"]
            stations = self.oracle(ctx, "stations_on_map", (c.id,), "int")
            ctx.shared.axioms.append(stations >= placed)
            ctx.require(IMPLIES(self.owning_corporation(ctx, company, c), AND(stations >= 2, placed >= 1)))
        return Opaque("a station")

    def b_last_token_cost(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_last_token_cost: the printed price of the last token placed."""
        return self.per_corp(ctx, corp, lambda c: self.token_cost(ctx, c, -1))

    def b_return_token(self, ctx: Ctx, company: Any, city: Any) -> None:
        """As GameBase.b_return_token: the owning corporation has one token fewer on the map; the
        private closes where its ability says so."""
        for c in self.m.corporations:
            name = f"tokens:{c.id}"
            owns = self.owning_corporation(ctx, company, c)
            ctx.state[name] = IF(AND(ctx.path, owns), ctx.state[name] - 1, ctx.state[name])
        self.ability_closes_private(ctx, company, "return_token")

    def b_check_ability_token(self, ctx: Ctx, company: Any, city: Any) -> Any:
        """As GameBase.b_check_ability_token: the map is outside the model; the
        owning corporation must have a station token left, and may use the private now (`ability_user`;
        an ability of the library's generic timing is judged by the runtime: `token_ability_user`)."""
        m = self.m
        self.token_ability_user(ctx, company, "free_token")
        item = self.tr.as_sel(company)
        for c in m.corporations:
            owns = OR(*[AND(cond, self.held(ctx, it, m.z(c))) for it, cond in item.alts])
            ctx.require(IMPLIES(owns, zi(self.tokens_left(ctx, c)) > 0))
        return Opaque("a station spot")

    def b_ability_token(self, ctx: Ctx, company: Any, spot: Any) -> None:
        """As GameBase.b_ability_token: the station of the corporation that owns the private; a token
        beyond the charter (`extra_token`) counts as placed and as an extra token, so its tokens left
        and its next token's price stay as they were."""
        m = self.m
        item = self.tr.as_sel(company)
        extra = [it for it, _ in item.alts if any(
            a.get("extra_token") for a in (m.data.get(m.entity(it.kind, it.id)) or {}).get("children") or ()
            if a.get("effect") == "free_token")]
        for c in m.corporations:
            owns = OR(*[AND(cond, self.held(ctx, it, m.z(c))) for it, cond in item.alts])
            name = f"tokens:{c.id}"
            ctx.state[name] = IF(AND(ctx.path, owns), ctx.state[name] + 1, ctx.state[name])
            gives = OR(*[AND(cond, self.held(ctx, it, m.z(c))) for it, cond in item.alts if it in extra])
            if truth(gives) is not False:
                name = f"extra_tokens:{c.id}"
                ctx.state[name] = IF(AND(ctx.path, gives), ctx.state[name] + 1, ctx.state[name])

    def b_place_marker(self, ctx: Ctx, company: Any, hex_id: Any) -> None:
        """As GameBase.b_place_marker: a revenue marker on the map (outside the
        model: only route revenue, an oracle here, reads it). The marker's
        pending `assign` decision (a player's Steamboat) is taken once both its
        hex and its corporation are named, which the markers outside the model
        decide: as `resolve_decision`, whoever is pending and acts next is then
        the runtime's to say."""
        sub = ctx.fork(self.b_pending_decision(ctx, company, "assign"))
        names = ["pending", "pending_entity", "pending_action", "acting"]
        sub.havoc(names)
        for name in names:
            ctx.state[name] = sub.state[name]

    def b_remove_markers(self, ctx: Ctx, company: Any = None) -> None:
        """As GameBase.b_remove_markers (every marker, or a closing private's): markers are outside the model."""

    def b_remove_reservations(self, ctx: Ctx) -> None:
        """As GameBase.b_remove_reservations: station slots are outside the model."""

    def b_unreserve_home(self, ctx: Ctx, corp: Any) -> None:
        """As GameBase.b_unreserve_home: station slots are outside the model."""

    def b_remove_borders(self, ctx: Ctx, kind: Any) -> None:
        """As GameBase.b_remove_borders: the map's borders are outside the model."""

    def b_marker_assigned_by_player(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_marker_assigned_by_player: who owns a private's marker ability is outside the
        model; an oracle says, so every answer is checked."""
        v = ctx.fresh("marker_assigned_by_player", "bool")
        ctx.shared.oracles.append(("marker_assigned_by_player", (company,), v))
        return v

    def b_would_export(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_would_export: whether an export is due (the train purchase marker) is outside
        the model; an oracle says, so every answer is checked."""
        v = ctx.fresh("would_export", "bool")
        ctx.shared.oracles.append(("would_export", (), v))
        return v

    def b_available(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_available: whether the company's tier may be started. Which companies setup
        relegated and the tiers' phases are outside the model; an oracle says, so every answer is checked."""
        return self.oracle(ctx, "available", self.ids(corp))

    def b_home_open(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_home_open: whether an open city awaits a home chosen at float (the map is outside
        the model; an oracle says)."""
        return self.oracle(ctx, "home_open", self.ids(corp))

    def b_check_home_choice(self, ctx: Ctx, corp: Any, city: Any) -> Any:
        """As GameBase.b_check_home_choice: refused unless the corporation owes the choice of its home
        (`pending_decision`) and its home is one chosen when it floats (`home: chosen_on_float`, as
        18 Grand Junction's SLVS); the city spot is on the map (outside the model)."""
        chooses = []
        for c, cond in self.corp_of(ctx, corp):
            home = self.m.data[c].get("home")
            ctx.shared.reads.add("corporation", f"{c.id}.home", home)
            chooses.append(AND(cond, home == "chosen_on_float"))
        ctx.require(AND(self.b_pending_decision(ctx, corp, "place_token"), OR(*chooses)))
        return Opaque("a chosen home station")

    def b_auction_discount(self, ctx: Ctx, item: Any) -> Any:
        """As GameBase.b_auction_discount: how often everyone passed on the first private is outside the
        model: any amount not below zero."""
        v = self.oracle(ctx, "auction_discount", (item,), sort="int")
        ctx.shared.axioms.append(v >= 0)
        return v

    def b_row_after_marker(self, ctx: Ctx) -> Any:
        """As GameBase.b_row_after_marker: the round track is outside the model."""
        return self.oracle(ctx, "row_after_marker", (), sort="int")

    def b_row_price(self, ctx: Ctx, row: Any) -> Any:
        """As GameBase.b_row_price: the round track is outside the model."""
        return self.oracle(ctx, "row_price", (row,), sort="int")

    def b_row_slot(self, ctx: Ctx, row: Any) -> Any:
        """As GameBase.b_row_slot: the round track is outside the model."""
        return self.oracle(ctx, "row_slot", (row,), sort="int")

    def b_draw_unstarted(self, ctx: Ctx, excluded: Any = ()) -> Any:
        """As GameBase.b_draw_unstarted: a random draw, so any corporation of the model that has not
        started, or none."""
        m = self.m
        v = self.oracle(ctx, "draw_unstarted", (), sort="ent")
        ctx.shared.axioms.append(z3.Or([AND(v == m.z(c), NOT(ctx.state[f"has_par:{c.id}"])) for c in m.corporations]
                                       + [v == m.z(NONE)]))
        return v

    def b_part(self, ctx: Ctx, name: Any, sep: Any, index: Any) -> Any:
        """As GameBase.b_part: a piece of a name, which the model does not follow."""
        return Opaque(f"part {index} of a name")

    def b_letters_union(self, ctx: Ctx, a: Any, b: Any) -> Any:
        """As GameBase.b_letters_union: letters of names, which the model does not follow."""
        return Opaque("the letters of two names")

    def b_corporation_named(self, ctx: Ctx, name: Any) -> Any:
        """As GameBase.b_corporation_named: the name is opaque to the model, so one of its corporations
        or none, as the engine answers."""
        m = self.m
        v = self.oracle(ctx, "corporation_named", (name,), sort="ent")
        ctx.shared.axioms.append(z3.Or([v == m.z(c) for c in m.corporations] + [v == m.z(NONE)]))
        return v

    def b_extend_run(self, ctx: Ctx, corp: Any, position: Any, kind: Any) -> None:
        """As GameBase.b_extend_run: a train's stops for this turn's run; routes and their revenue are
        outside the model (an oracle), so nothing it follows changes."""

    def b_check_retoken(self, ctx: Ctx, corp: Any, city: Any) -> Any:
        """As GameBase.b_check_retoken: refused unless the corporation owes the placing again of a token
        (`pending_decision`); which hex and city is the map's, outside the model."""
        ctx.require(self.b_pending_decision(ctx, corp, "place_token"))
        return Opaque("a token placed again")

    def b_subsidise_track(self, ctx: Ctx, corp: Any, cost: Any) -> None:
        """As GameBase.b_subsidise_track: the subsidy pool refunds part of a track cost. The pool is money
        the bank sets aside each phase; the model counts it with the bank, so the refund is a payment from
        the bank of an oracle amount between 0 and the cost (the runtime's share of it, capped by the pool)."""
        v = ctx.fresh("subsidy")
        ctx.shared.oracles.append(("subsidy", (), v))
        ctx.shared.axioms.append(v >= 0)
        ctx.shared.axioms.append(v <= (zi(cost) if is_z3(cost) else cost))
        self.transfer(ctx, v, self.m.z(BANK), self.ent(corp))

    def b_end_game_now(self, ctx: Ctx, reason: Any) -> None:
        """As GameBase.b_end_game_now: the game is over; nobody acts."""
        st = ctx.state
        st["round"] = IF(ctx.path, ROUNDS.index("finished"), st["round"])
        st["acting"] = IF(ctx.path, self.m.z(NONE), st["acting"])

    def b_place_station(self, ctx: Ctx, corp: Any, spot: Any) -> None:
        for c, cond in self.corp_of(ctx, corp):
            name = f"tokens:{c.id}"
            ctx.state[name] = IF(AND(ctx.path, cond), ctx.state[name] + 1, ctx.state[name])

    def b_held_certificates(self, ctx: Ctx, holder: Any, corp: Any) -> Any:
        """As GameBase.b_held_certificates: the certificates of the corporation the holder holds."""
        elems = []
        for c, cond in self.corp_of(ctx, corp):
            for cert in self.m.certs_for(c.id):
                elems.append((Sel([(cert, True)]), AND(cond, self.held(ctx, cert, holder))))
        return SymList(elems)

    def b_take_station(self, ctx: Ctx, corp: Any, other: Any) -> None:
        """As GameBase.b_take_station: one of the corporation's station markers goes, free, where the
        other's station was (which circle is the map's, outside the model); refused without a marker
        left."""
        ctx.require(self.tr.cmp(">", self.b_tokens_left(ctx, corp), 0))
        self.b_place_station(ctx, corp, Opaque("the station taken over"))

    def b_place_home_token(self, ctx: Ctx, corp: Any) -> None:
        if not self.m.title.components("hex"):
            return
        for c, _ in self.corp_of(ctx, corp):
            home = self.m.data[c].get("home")
            ctx.shared.reads.add("corporation", f"{c.id}.home", home)
            if home is None or not isinstance(home, str):
                raise GapError(f"corporation {c.id} home", getattr(home, "reason", "not given"))
        self.b_place_station(ctx, corp, Opaque("the home station"))

    # ---------------------------------------------------------------- effects

    def b_set_par(self, ctx: Ctx, corp: Any, price: Any) -> None:
        market = self.m.require_market()
        ctx.shared.reads.add("market", "par_cells", [(c, market.price(c)) for c in market.par_cells()])
        cells = {}
        for cell in market.par_cells():
            p = market.price(cell)
            cells[p] = market.par_cell(p)
        for c, cond in self.corp_of(ctx, corp):
            when = AND(ctx.path, cond)
            ctx.fork(cond).require(OR(*[self.tr.eq(price, p) for p in cells]))
            st = ctx.state
            row: Any = st[f"row:{c.id}"]
            col: Any = st[f"col:{c.id}"]
            for p, cell in cells.items():
                hit = self.tr.eq(price, p)
                row = IF(hit, cell[0], row)  # type: ignore[index]
                col = IF(hit, cell[1], col)  # type: ignore[index]
            st[f"par:{c.id}"] = IF(when, zi(price), st[f"par:{c.id}"])
            st[f"has_par:{c.id}"] = IF(when, True, st[f"has_par:{c.id}"])
            st[f"row:{c.id}"] = IF(when, row, st[f"row:{c.id}"])
            st[f"col:{c.id}"] = IF(when, col, st[f"col:{c.id}"])
            st[f"has_cell:{c.id}"] = IF(when, True, st[f"has_cell:{c.id}"])

    def b_bought(self, ctx: Ctx, player: Any, corp: Any) -> None:
        """As GameBase.b_bought: the buyer's turn marks; the float and presidency checked; in a special
        round (18CO §8.2: one certificate a turn) the turn moves on, which the round machinery says
        (havocked, as a pass's)."""
        st = ctx.state
        st["acted"] = IF(ctx.path, True, st["acted"])
        for c, cond in self.corp_of(ctx, corp):
            self.check_float(ctx, c, cond)
        self.b_check_president(ctx, corp)
        special = ctx.fork(ctx.state["round"] == ROUNDS.index("special"))
        self.turn_over(special)
        ctx.state = special.state

    def check_float(self, ctx: Ctx, corp: Ent, cond: Any) -> None:
        m = self.m
        needed = m.data[corp].get("float") or m.prop_value("float")
        ctx.shared.reads.add("float", corp.id, needed)
        if needed is None:
            raise GapError("float", "neither the corporation nor the title gives the float")
        from compiler.verify.model import GapValue

        if isinstance(needed, GapValue):
            raise GapError("float", needed.reason)
        if isinstance(needed, dict) and any(str(k) in m.zone_names for k in needed):
            needed = self.float_by_par_zone(ctx, corp, needed)  # as GameBase._by_par_zone (18CO's 40/50/60%)
        if isinstance(needed, dict):  # by phase (1880's 20/30/40/60%)
            needed = self.b_phase_value(ctx.fork(cond), needed)
        if not isinstance(needed, int) and not is_z3(needed):
            raise Unsupported(f"corporation {corp.id} float {needed!r}")
        counts = m.prop_value("float_counts")
        ctx.shared.reads.add("property", "float_counts", counts)
        if counts == "sold_from_treasury":
            # as GameBase._check_float: every certificate out of the IPO counts, wherever it is now
            held = SUM([100, NEG(self.percent_of(ctx, m.z(self.tr.ipo_of(corp)), corp))])
        else:
            held = SUM([self.percent_of(ctx, m.z(p), corp) for p in m.players])
        st = ctx.state
        name = f"floated:{corp.id}"
        floats = AND(cond, NOT(st[name]), self.tr.cmp(">=", held, needed))
        st[name] = IF(AND(ctx.path, cond), OR(st[name], self.tr.cmp(">=", held, needed)), st[name])
        for t in m.trains:
            # as GameBase._deliver_own_trains: a train the corporation owns from its float (`owner` and
            # `delivered: float`, 18CO's DSNG 2P) leaves the depot for it
            data = m.train_data.get(t.name or "", {})
            if str(data.get("owner")) == corp.id and data.get("delivered") == "float":
                self._move_one(ctx, t, m.z(DEPOT), m.z(corp),
                               AND(ctx.path, floats, ctx.state[hold_name(t, DEPOT)] >= 1))
        if self.param(ctx, "home_token_at") == "float":
            # as GameBase._check_float: the home station is placed when the corporation floats
            sub = ctx.fork(floats)
            self.b_place_home_token(sub, m.z(corp))
            ctx.state = sub.state

    def float_by_par_zone(self, ctx: Ctx, corp: Ent, needed: dict) -> Any:
        """As GameBase._by_par_zone: the float of the zone (in name order) of the cell the corporation was
        started in, chosen by its par price."""
        market = self.m.require_market()
        par = ctx.state[f"par:{corp.id}"]
        out: Any = None
        for cell in market.par_cells():
            zone = next((z for z in sorted(market.zones_of(cell)) if z in needed), None)
            if zone is None:
                continue
            value = needed[zone]
            out = value if out is None else self.tr.ite(par == market.price(cell), value, out)
        if out is None:
            raise GapError("float", "no par zone has a float")
        return out

    def b_note_sold(self, ctx: Ctx, player: Any, corp: Any) -> None:
        """As GameBase.b_note_sold: the turn's sale marks (the round's sales are the library's state
        sold_this_round, which the sale sets itself)."""
        st = ctx.state
        st["sold"] = IF(ctx.path, True, st["sold"])
        st["acted"] = IF(ctx.path, True, st["acted"])
        for c, cond in self.corp_of(ctx, corp):
            name = f"sold_this_turn:{c.id}"
            st[name] = IF(AND(ctx.path, cond), True, st[name])

    def b_price_after_moves(self, ctx: Ctx, corp: Any, direction: Any, n: Any) -> Any:
        """As GameBase.b_price_after_moves: the price `n` market moves would give. A number of moves that
        is a term (a count of certificates and one more) is read up to the most certificates a corporation
        has in the model, and one more; beyond it the market's edge holds the price."""
        market = self.m.require_market()
        if str(direction) not in ("up", "down", "left", "right"):
            raise Unsupported(f"market move {direction!r}")
        ctx.shared.reads.add("market", "moves", (market.rows, sorted(market.zones.items()), market.left_edge, market.right_edge, market.top_edge))

        def moved(cell, k):
            for _ in range(int(k)):
                cell = market.move(cell, str(direction))
            return market.price(cell)

        if not is_z3(n):
            counts = [int(n)]
        else:
            most = max((len(self.m.certs_for(c.id)) for c in self.m.corporations), default=0) + 1
            counts = list(range(0, most + 1))

        def after(c: Ent) -> Any:
            ctx.require(ctx.state[f"has_cell:{c.id}"])
            out = self.cell_chain(ctx, c, lambda cell: moved(cell, counts[-1]), key=("price after", str(direction), counts[-1]))
            for k in reversed(counts[:-1]):
                out = IF(n == k, self.cell_chain(ctx, c, lambda cell, k=k: moved(cell, k),
                                                 key=("price after", str(direction), k)), out)
            return out

        return self.per_corp(ctx, corp, after)

    def side_prices_of(self, t: Item) -> list[int]:
        """The prices of a train card's sides (its own and its `variant_of` sides)."""
        sides = self.m.side_prices.get(t.name or "") or []
        if t.price is None or any(p is None for p in sides):
            raise GapError(f"train {t.name} price")
        return [t.price, *sides]

    def b_dearest_side_price(self, ctx: Ctx) -> Any:
        """As GameBase.b_dearest_side_price: the dearest side of the bank's cheapest card."""
        def dearest() -> Any:
            avail = [(t, cond) for t, cond in self.avail(ctx) if self.meets_obligation(ctx, t)]
            out: Any = 0
            for t, cond in sorted(avail, key=lambda tc: -min(self.side_prices_of(tc[0]))):
                out = IF(cond, max(self.side_prices_of(t)), out)
            return out

        return self.on_depot(ctx, "dearest_side_price", dearest)

    def b_dearest_train_price(self, ctx: Ctx) -> Any:
        """As GameBase.b_dearest_train_price: the dearest side of any card the bank sells, the pool's too."""
        m = self.m
        cards = [(t, cond) for t, cond in self.avail(ctx) if self.meets_obligation(ctx, t)]
        cards += [(t, ctx.state[hold_name(t, POOL)] >= 1) for t in m.trains
                  if self.meets_obligation(ctx, t) and hold_name(t, POOL) in ctx.state]
        out: Any = 0
        for t, cond in sorted(cards, key=lambda tc: max(self.side_prices_of(tc[0]))):
            out = IF(cond, max(self.side_prices_of(t)), out)
        return out

    def b_operated(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_operated: whether the corporation has finished an operating turn (outside the
        model: an oracle per corporation)."""
        return self.per_corp(ctx, corp, lambda c: self.oracle(ctx, "operated", (c.id,)))

    def b_limit_trains(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_limit_trains: the trains counted against the train limit; where phased-out ones are
        not (`obsolete_trains_count_for_limit: false`), which types are phased out is an oracle."""
        m = self.m
        e = self.ent(corp)
        if m.prop_value("obsolete_trains_count_for_limit") is not False:
            return SUM([IF(self.held(ctx, t, e), 1, 0) for t in m.trains])
        obsolete = {name: self.oracle(ctx, "obsolete", (name,)) for name in m.train_types
                    if m.train_data.get(name, {}).get("obsolete_on") is not None}
        return SUM([IF(AND(self.held(ctx, t, e), NOT(obsolete.get(t.name or "", False))), 1, 0) for t in m.trains])

    def b_face_value(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_face_value: the printed value of a company of the draft ($0 for a Pass card)."""
        x = self.draft_item(company)
        if x.kind not in ("private", "minor"):
            return 0
        return self.draft_amount(x, "cost", ctx.shared.reads)

    def b_absorb_station(self, ctx: Ctx, corp: Any, other: Any) -> None:
        """As GameBase.b_absorb_station: each station of the minor on the map becomes the corporation's, a
        token beyond its charter (placed and extra: its tokens left and its next token's price are as
        before), except where the corporation has a station in that city already (the minor's just leaves
        the map). Stations are outside the model: how many become the corporation's is an oracle the
        validator reads from the engine's map."""
        k = self.known(self.ent(other))
        if k is None or k.kind != "minor":
            raise Unsupported("absorb_station of an entity that is not a known minor")
        for c, cond in self.corp_of(ctx, corp):
            absorbed = self.oracle(ctx, "stations_absorbed", (c.id, k.id), "int")
            ctx.shared.axioms.append(absorbed >= 0)
            when = AND(ctx.path, cond)
            for name in (f"tokens:{c.id}", f"extra_tokens:{c.id}"):
                ctx.state[name] = IF(when, ctx.state[name] + absorbed, ctx.state[name])

    def b_falling_sale_value(self, ctx: Ctx, corp: Any, shares: Any) -> Any:
        """As GameBase.b_falling_sale_value: for each number of shares a sale may hold (at most every share
        of the corporation), the sum of that many prices on the token's way down from its cell (refused
        when the corporation has no price yet)."""
        market = self.m.require_market()
        ctx.shared.reads.add("market", "moves", (market.rows, sorted(market.zones.items()), market.left_edge, market.right_edge, market.top_edge))

        def value(c: Ent) -> Any:
            ctx.require(ctx.state[f"has_cell:{c.id}"])
            most = sum(cert.percent for cert in self.m.certs_for(c.id)) // 10

            def at(cell: tuple[int, int]) -> Any:
                out: Any = 0
                prices, here = [], cell
                for _ in range(most):
                    prices.append(market.price(here))
                    here = market.move(here, "down")
                for n in range(1, most + 1):
                    out = IF(self.tr.eq(shares, n), sum(prices[:n]), out)
                return out

            return self.cell_chain(ctx, c, at)

        return self.per_corp(ctx, corp, value)

    def b_can_emergency_sell(self, ctx: Ctx, player: Any) -> Any:
        """As GameBase.b_can_emergency_sell: the player holds a certificate of a
        corporation with a price that the pool could take now."""
        m = self.m
        cap = self.param(ctx, "pool_cap")
        parts = []
        for c in m.corporations:
            pool = self.percent_of(ctx, m.z(POOL), c)
            for cert, ok in self.sellable_certs(ctx, player, c):
                parts.append(AND(ctx.state[f"has_cell:{c.id}"], ok,
                                 self.tr.cmp("<=", pool + self.cert_percent(ctx, cert), cap)))
        if m.truncated:
            # a certificate of a corporation outside the scope: the engine's answer (any value)
            outside = ctx.fresh("emergency_sellable_outside_scope", "bool")
            ctx.shared.oracles.append(("emergency_sellable_outside_scope", (), outside))
            parts.append(outside)
        return OR(*parts)

    def b_sell_out(self, ctx: Ctx, player: Any) -> None:
        """As GameBase.b_sell_out: a bankrupt player's certificates all go to the pool, corporation by
        corporation. First those he may sell by the usual rules, within the pool's room, president's
        certificate last, as one sale paid at the price and moving it as his sale does; then the rest at
        the price then, which does not move. Each corporation's presidency is then settled (the
        `take_over` step); his privates and minors close. A corporation closed by the price drop (a
        close cell) is outside the model, as for every sale. (1846's certificate-limit check after it,
        a sum over every share, private and minor, is proved by `Invariant.monotone`.)"""
        m = self.m
        p = self.ent(player)
        if self.known(p) is None:
            # one player at a time: the holdings read are then plain variables, not terms over a
            # symbolic player
            for q in m.players:
                sub = ctx.fork(ent_is(m, p, q))
                self.b_sell_out(sub, m.z(q))
                ctx.state = sub.state
            return
        cap = self.param(ctx, "pool_cap")
        for c in m.corporations:
            certs = m.certs_for(c.id)
            held = {x.id: self.held(ctx, x, p) for x in certs}
            sub = ctx.fork(AND(ctx.state[f"has_cell:{c.id}"], OR(*held.values())))
            # the usual sale: what he may sell by the usual rules (`sellable_certs`), within the pool's room
            room: Any = SUM([cap, NEG(self.percent_of(sub, m.z(POOL), c))])
            taken: dict[str, Any] = {}
            for x, ok in self.sellable_certs(sub, p, c):
                size = self.cert_percent(sub, x)
                taken[x.id] = AND(ok, self.tr.cmp("<=", size, room))
                room = SUM([room, NEG(IF(taken[x.id], size, 0))])
            sale = sub.fork(OR(*taken.values()))
            percent = SUM([IF(taken.get(x.id, False), self.cert_percent(sub, x), 0) for x in certs])
            self.transfer(sale, DIV(MUL(self.price_of(sale, c), percent), 10), m.z(BANK), p)
            for x in certs:
                self._move_one(sale, x, p, m.z(POOL), AND(sale.path, taken.get(x.id, False)))
            # the library's price drop (it reads the holdings after the sale: the president, for a drop
            # by his sale), the sale naming no certificates, then the sale noted
            self.tr.call("price_drop_on_sale", [p, m.z(c), SymList([]), SUM([IF(t, 1, 0) for t in taken.values()])],
                         {}, sale)
            self.b_note_sold(sale, p, m.z(c))
            if "sold_this_round" in self.tr.states:  # as the runtime: the library's record of the round's sales
                self.tr.state_set(self.tr.states["sold_this_round"], [p, m.z(c)], True, sale)
            # the rest, at the price the sale left; every certificate he held ends in the pool, written
            # as one move from the holdings before (the end state of the runtime's two moves)
            holdings = {hold_name(x, b) for x in certs for b in m.buckets["certificate"] + [None]}
            sub.state = {name: (sub.state[name] if name in holdings else value) for name, value in sale.state.items()}
            percent = SUM([IF(AND(held[x.id], NOT(taken.get(x.id, False))), self.cert_percent(sub, x), 0)
                           for x in certs])
            self.transfer(sub, DIV(MUL(self.price_of(sub, c), percent), 10), m.z(BANK), p)
            for x in certs:
                self._move_one(sub, x, p, m.z(POOL), AND(sub.path, held[x.id]))
            self.b_check_president(sub, m.z(c))
            ctx.state = sub.state
        for x in m.privates:
            name = f"closed:{x.id}"
            ctx.state[name] = IF(AND(ctx.path, self.held(ctx, m.item(x.id), p)), True, ctx.state[name])  # type: ignore[arg-type]
        for x in m.minors:
            self.close_minor(ctx, x, self.tr.eq(ctx.state[f"owner:{x.id}"], p))
        if m.truncated:
            # his certificates of the started corporations outside the scope go to the pool as well, paid by
            # the bank (an amount the model does not follow); what stays (granted certificates of one not
            # started) is any count up to what he held
            proceeds = ctx.fresh("sell_out_outside_scope")
            ctx.shared.oracles.append(("sell_out_outside_scope", (), proceeds))
            ctx.shared.axioms.append(proceeds >= 0)
            self.transfer(ctx, proceeds, m.z(BANK), p)
            # whether one of those went as a usual sale (what he may sell within the pool's room), which
            # the runtime notes as his sale (`note_sold`: the round's sale marks)
            usual = ctx.fresh("sell_out_sale_outside_scope", "bool")
            ctx.shared.oracles.append(("sell_out_sale_outside_scope", (), usual))
            noted = AND(ctx.path, usual)
            for name in ("sold", "acted"):
                ctx.state[name] = IF(noted, True, ctx.state[name])
            for q in m.players:
                name = f"other_certs:{q.id}"
                left = ctx.fresh(f"sell_out_left:{q.id}")
                ctx.shared.axioms.append(AND(left >= 0, left <= ctx.state[name]))
                ctx.state[name] = IF(AND(ctx.path, ent_is(m, p, q)), left, ctx.state[name])

    def b_leave_game(self, ctx: Ctx, player: Any) -> None:
        """As GameBase.b_leave_game: the player is out of the game."""
        m = self.m
        p = self.ent(player)
        for q in m.players:
            name = f"out:{q.id}"
            ctx.state[name] = IF(AND(ctx.path, ent_is(m, p, q)), True, ctx.state[name])

    def b_players_in_game(self, ctx: Ctx) -> Any:
        """As GameBase.b_players_in_game: how many players are not out."""
        return SUM([IF(ctx.state[f"out:{q.id}"], 0, 1) for q in self.m.players])

    def b_prices_frozen(self, ctx: Ctx) -> Any:
        """As GameBase.b_prices_frozen: the phase is one the market's `frozen_in` names."""
        m = self.m
        ctx.shared.reads.add("market", "frozen_in", m.frozen_in)
        return OR(*[ctx.state["phase"] == m.phase_index(x) for x in m.frozen_in if x in m.phase_keys])

    def b_phase_value(self, ctx: Ctx, value: Any) -> Any:
        """As GameBase.b_phase_value: a map read at the current phase, by the
        phase's name or its group (refused where the map has neither)."""
        if not isinstance(value, dict):
            return value
        m = self.m
        out: Any = None
        for i, phase in reversed(list(enumerate(m.phases))):
            hit = next((value[str(k)] for k in (phase.get("key"), phase.get("group"))
                        if k is not None and str(k) in value), None)
            if hit is None:
                ctx.require(ctx.state["phase"] != i)
                continue
            out = hit if out is None else self.tr.ite(ctx.state["phase"] == i, hit, out)
        if out is None:
            raise GapError("phase_value", "no phase has a value")
        return out

    def debt_of(self, ctx: Ctx, player: Any) -> Any:
        m = self.m
        p = self.ent(player)
        out: Any = 0
        for q in reversed(m.players):
            out = IF(p == m.z(q), ctx.state[f"debt:{q.id}"], out)
        return out

    def b_debt(self, ctx: Ctx, player: Any) -> Any:
        """As GameBase.b_debt: what the player owes the bank."""
        return self.debt_of(ctx, player)

    def b_add_debt(self, ctx: Ctx, player: Any, amount: Any) -> None:
        """As GameBase.b_add_debt: refused for a negative amount."""
        m = self.m
        ctx.require(self.tr.cmp(">=", amount, 0))
        p = self.ent(player)
        for q in m.players:
            name = f"debt:{q.id}"
            ctx.state[name] = IF(AND(ctx.path, p == m.z(q)), zi(ctx.state[name]) + zi(amount), ctx.state[name])

    def b_reduce_debt(self, ctx: Ctx, player: Any, amount: Any) -> None:
        """As GameBase.b_reduce_debt: refused unless 0 <= amount <= the debt."""
        m = self.m
        ctx.require(AND(self.tr.cmp(">=", amount, 0), self.tr.cmp("<=", amount, self.debt_of(ctx, player))))
        p = self.ent(player)
        for q in m.players:
            name = f"debt:{q.id}"
            ctx.state[name] = IF(AND(ctx.path, p == m.z(q)), zi(ctx.state[name]) - zi(amount), ctx.state[name])

    def b_market_move(self, ctx: Ctx, corp: Any, direction: Any) -> None:
        for c, cond in self.corp_of(ctx, corp):
            self.market_move(ctx, c, str(direction), cond)

    def b_check_president(self, ctx: Ctx, corp: Any) -> None:
        """The take-over itself is a runtime step of its own (`take_over`);
        the step records when it asked for it, for `president_holds_most`."""
        for c, cond in self.corp_of(ctx, corp):
            when = AND(ctx.path, cond)
            ctx.shared.checked[c.id] = OR(ctx.shared.checked.get(c.id, False), when)

    def b_can_hand_over_presidency(self, ctx: Ctx, corp: Any, player: Any, sold: Any) -> Any:
        """As GameBase.b_can_hand_over_presidency: the player presides and `presidency_exchange`, his holding
        counted less `sold`, finds a taker."""
        p = self.ent(player)
        parts = []
        for c, cond in self.corp_of(ctx, corp):
            pres = self.m.certs_for(c.id)[0]
            holds = OR(*[AND(p == self.m.z(q), ctx.state[hold_name(pres, q)] >= 1) for q in self.m.players])
            any_exchange, _ = self.presidency_exchange(ctx, c, seller=p, sold=sold)
            parts.append(AND(cond, holds, any_exchange))
        return OR(*parts)

    def b_hand_over_presidency(self, ctx: Ctx, corp: Any, player: Any, sold: Any) -> None:
        """As GameBase.b_hand_over_presidency: the exchange of `presidency_exchange` with the seller's
        holding counted less the percent he sells; refused unless he presides and a holder takes it."""
        p = self.ent(player)
        for c, cond in self.corp_of(ctx, corp):
            sub = ctx.fork(cond)
            pres = self.m.certs_for(c.id)[0]
            sub.require(OR(*[AND(p == self.m.z(q), sub.state[hold_name(pres, q)] >= 1) for q in self.m.players]))
            any_exchange, effects = self.presidency_exchange(sub, c, seller=p, sold=sold)
            sub.require(any_exchange)
            for when, p0, p1, given in effects:
                for cert, take in given:
                    self._move_one(sub, cert, self.m.z(p1), self.m.z(p0), AND(sub.path, when, take))
                self._move_one(sub, pres, self.m.z(p0), self.m.z(p1), AND(sub.path, when))
            sub.shared.calls.add("emit:president_changed")
            ctx.state = sub.state

    def presidency_exchange(self, ctx: Ctx, corp: Ent, seller: Any = None,
                            sold: Any = 0) -> tuple[Any, list[tuple[Any, Ent, Ent, list[tuple[Item, Any]]]]]:
        """As `GameBase._check_president` on `ctx.state`: whether a take-over
        of `corp` happens, and its alternatives (condition, president,
        challenger, the challenger's certificates given and when). The
        challenger is the first player from the president's left holding the
        most, more than the president; he gives the first set of ordinary
        certificates worth exactly the president's certificate that he holds
        (`exchange_sets`: the fewest, then the highest-numbered). Where corporations contend
        too (`presidency_contenders`), a started corporation holding more comes
        after the players (their operating order is outside the model: with
        more than one in the scope the step is not supported)."""
        m = self.m
        st = ctx.state
        certs = m.certs_for(corp.id)
        pres = certs[0]
        held = {p: self.percent_of(ctx, m.z(p), corp) for p in m.players}
        if seller is not None:
            # a president selling shares of his certificate: his holding counts less what he sells
            held = {p: SUM([v, NEG(IF(seller == m.z(p), sold, 0))]) for p, v in held.items()}
        rivals: list[Ent] = []
        if "corporations" in (m.prop_value("presidency_contenders") or ()):
            rivals = [c for c in m.corporations if c != corp]
            if len(rivals) > 1:
                raise Unsupported("presidency contenders among corporations: their operating order")
            held.update({c: self.percent_of(ctx, m.z(c), corp) for c in rivals})
        any_exchange: Any = False
        effects: list[tuple[Any, Ent, Ent, list[tuple[Item, Any]]]] = []
        # the sets under each share layout the corporation may have (one, without share layouts)
        sets: list[tuple[Any, list[Item]]] = []
        original = {x.index: x for x in certs}
        for chosen, layout in self.layout_cases(ctx, corp):
            sets.extend((chosen, [original[x.index] for x in group]) for group in exchange_sets(layout))
        for i, p0 in enumerate(m.players):
            is_pres = st[hold_name(pres, p0)] >= 1
            order = m.players[i + 1:] + m.players[:i]
            best: Any = held[p0]
            challenger: dict[Ent, Any] = {}
            for p in order:
                better = self.tr.cmp(">", held[p], best)
                for q in list(challenger):
                    challenger[q] = AND(challenger[q], NOT(better))
                challenger[p] = better
                best = IF(better, held[p], best)
            for c in rivals:
                better = AND(st[f"has_cell:{c.id}"], self.tr.cmp(">", held[c], best))
                for q in list(challenger):
                    challenger[q] = AND(challenger[q], NOT(better))
                challenger[c] = better
                best = IF(better, held[c], best)
            for p1, is_ch in challenger.items():
                # the first of the sets worth the president's certificate that the challenger holds
                takes: dict[Item, Any] = {}
                found: Any = False
                for chosen, group in sets:
                    holds = AND(chosen, *[st[hold_name(cert, p1)] >= 1 for cert in group])
                    first = AND(holds, NOT(found))
                    for cert in group:
                        takes[cert] = OR(takes.get(cert, False), first)
                    found = OR(found, holds)
                given = [(cert, takes[cert]) for cert in sorted(takes, key=lambda c: -c.index)]
                cond = AND(is_pres, is_ch, found)
                effects.append((cond, p0, p1, given))
                any_exchange = OR(any_exchange, cond)
        return any_exchange, effects

    def b_check_float(self, ctx: Ctx, corp: Any) -> None:
        """As GameBase.b_check_float: the corporation floats if players now hold its float."""
        for c, cond in self.corp_of(ctx, corp):
            self.check_float(ctx, c, cond)

    def b_set_revenue(self, ctx: Ctx, corp: Any, amount: Any) -> None:
        for c, cond in self.corp_of(ctx, corp):
            name = f"revenue:{c.id}"
            ctx.state[name] = IF(AND(ctx.path, cond), zi(amount), ctx.state[name])

    def turn_over(self, ctx: Ctx) -> None:
        """The round machinery moves on: its bookkeeping is havocked (the draft, which only opens
        the game, never comes back)."""
        drafting = ctx.state["round"] == ROUNDS.index("draft")
        ctx.havoc(self.m.vars.turn_names())
        if self.m.draft_items:
            ctx.shared.axioms.append(IMPLIES(AND(ctx.path, NOT(drafting)), ctx.state["round"] != ROUNDS.index("draft")))

    def b_end_step(self, ctx: Ctx, corp: Any) -> None:
        self.turn_over(ctx)

    def b_end_turn(self, ctx: Ctx, corp: Any) -> None:
        self.turn_over(ctx)

    def declines(self, ctx: Ctx, entity: Any) -> Any:
        """As GameBase._dispatch and b_pass_turn: whether a `pass` by `entity` declines the decision it
        owes (the first pending): one of the title's `declinable_decisions`, or a takeover's choice of the
        stations to replace (a `place_token` owed while the runtime records a station swap, outside the
        model: an oracle asked once a translation, which the validator reads from the engine)."""
        m = self.m
        st = ctx.state
        listed = [str(a) for a in (m.prop_value("declinable_decisions") or [])]
        ctx.shared.reads.add("property", "declinable_decisions", listed)
        codes = [m.vars.action_code(a) for a in listed]
        e = self.ent(entity)
        swapping = []
        swaps = m.prop_value("takeover_token_swaps")
        ctx.shared.reads.add("property", "takeover_token_swaps", swaps)
        if isinstance(swaps, int) and swaps > 0:
            for c in m.corporations:
                key = ("station_swap_open", c.id)
                found = ctx.shared.cached.get(key)
                if found is None:
                    found = ctx.shared.cached[key] = self.oracle(ctx, "station_swap_open", (c.id,))
                swapping.append(AND(e == m.z(c), st["pending_action"] == m.vars.action_code("place_token"), found))
        return AND(st["pending"], st["pending_entity"] == e,
                   OR(*[st["pending_action"] == code for code in codes], *swapping))

    def b_pass_turn(self, ctx: Ctx, entity: Any) -> None:
        declining = self.declines(ctx, entity)
        if truth(declining) is not False:
            # the decision is taken without being done (a takeover's other stations leave the map, outside
            # the model): nothing else of a pass
            sub = ctx.fork(declining)
            self.b_resolve_decision(sub, entity, None)
            ctx.state = sub.state
            rest = ctx.fork(NOT(declining))
            self.pass_turn(rest, entity)
            ctx.state = rest.state
            return
        self.pass_turn(ctx, entity)

    def pass_turn(self, ctx: Ctx, entity: Any) -> None:
        """`b_pass_turn` where no decision is declined."""
        if self.m.prop_value("first_round") == "auction":
            # as GameBase._starting_pass: while the players pick (`free_pick`), nobody may pass
            ctx.require(NOT(self.b_picking(ctx)))
        if self.m.draft_items:
            # (each branch changes the state only on its own path)
            drafting = ctx.state["round"] == ROUNDS.index("draft")
            draft = ctx.fork(drafting)
            self.draft_pass(draft)
            ctx.state = draft.state
            other = ctx.fork(NOT(drafting))
            self.turn_over(other)
            ctx.state = other.state
            return
        self.turn_over(ctx)

    def b_train_bought(self, ctx: Ctx, corp: Any, train: Any, from_bank: Any) -> None:
        st = ctx.state
        alts = self.sel(train).alts
        # as GameBase: a train sold beside the stack (`moves_train_purchase_marker: false`, 1880's rebuilt
        # 2-train) counts as no bank purchase and starts nothing
        marked = [(t, cond) for t, cond in alts
                  if self.m.train_data.get(t.name or "", {}).get("moves_train_purchase_marker") is not False]
        when = AND(ctx.path, self.tr.truthy(from_bank))
        counts = when if len(marked) == len(alts) else AND(when, OR(*[cond for _, cond in marked]))
        st["bank_buys"] = IF(counts, zi(st["bank_buys"]) + 1, st["bank_buys"])
        for t, cond in marked:
            name = f"first_bought:{t.name}"
            st[name] = IF(AND(when, cond), True, st[name])

    def b_close_private(self, ctx: Ctx, item: Any) -> None:
        m = self.m
        e = self.ent(item)
        for x in m.privates:
            name = f"closed:{x.id}"
            ctx.state[name] = IF(AND(ctx.path, e == m.z(x)), True, ctx.state[name])

    def b_stays_open(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_stays_open: the private has an ability `effect: stays_open` whose `owner` (player, or
        corporation by default) is the kind of its holder (a holder outside the scope: either)."""
        m = self.m
        e = self.ent(company)
        out: list[Any] = []
        for x in m.privates:
            kinds = {str(a.get("owner", "corporation")) for a in m.data.get(x, {}).get("children") or ()
                     if a.get("kind") == "ability" and a.get("effect") == "stays_open"}
            ctx.shared.reads.add("private", f"{x.id}.stays_open", sorted(kinds))
            if not kinds:
                continue
            item = m.item_of_ent(x)
            holder = self.holder(ctx, item)
            held = [ent_is(m, holder, h) for kind in sorted(kinds)
                    for h in (m.players if kind == "player" else m.corporations if kind == "corporation" else [])]
            elsewhere = AND(ent_is(m, holder, ELSEWHERE), ctx.fresh("stays_open_elsewhere", "bool"))
            out.append(AND(self.tr.ent_is(e, x), OR(*held, elsewhere)))
        return OR(*out)

    def b_require_decision(self, ctx: Ctx, entity: Any, action: Any) -> None:
        st = ctx.state
        code = self.m.vars.action_code(str(action))
        fresh = NOT(st["pending"])
        st["pending_entity"] = IF(AND(ctx.path, fresh), self.ent(entity), st["pending_entity"])
        st["pending_action"] = IF(AND(ctx.path, fresh), code, st["pending_action"])
        st["acting"] = IF(AND(ctx.path, fresh), self.ent(entity), st["acting"])
        st["pending"] = IF(ctx.path, True, st["pending"])

    def b_ability_usable(self, ctx: Ctx, company: Any, key: Any) -> Any:
        """As GameBase.b_ability_usable: the ability's timing, phases and the uses counted are the runtime's
        record, not modelled (any truth value)."""
        return ctx.fresh("ability_usable", "bool")

    def b_use_ability(self, ctx: Ctx, company: Any, key: Any) -> None:
        """As GameBase.b_use_ability: the uses counted are the runtime's record, not modelled (its refusals
        are left out: the proof covers every use, allowed or not); where an ability of that key is a `when:
        sold` one, the private's owed decision is taken (`resolve_decision`)."""
        if any(a.get("kind") == "ability" and a.get("key") == str(key) and str(a.get("when", "")) in ("sold", "phase_start")
               for x in self.m.privates for a in self.m.data.get(x, {}).get("children") or ()):
            self.b_resolve_decision(ctx, company, None)

    def b_ability_sold(self, ctx: Ctx, company: Any) -> None:
        """As GameBase.b_ability_sold: a private sold to a corporation owes the `decision` of each ability
        of it with `when: sold` (whether its uses are spent is the runtime's record: owed or not, either)."""
        m = self.m
        e = self.ent(company)
        for x in m.privates:
            for a in m.data.get(x, {}).get("children") or ():
                if a.get("kind") == "ability" and str(a.get("when", "")) == "sold" and a.get("decision"):
                    owed = ctx.fresh("ability_decision_owed", "bool")
                    sub = ctx.fork(AND(e == m.z(x), owed))
                    self.b_require_decision(sub, m.z(x), str(a["decision"]))
                    ctx.state.update(sub.state)

    def b_resolve_decision(self, ctx: Ctx, entity: Any, action: Any) -> None:
        """The decision is taken: the next one pending (if any) comes first, and
        whoever acts next is the runtime's to say."""
        ctx.havoc(["pending", "pending_entity", "pending_action", "acting"])

    def b_place_bid(self, ctx: Ctx, player: Any, item: Any, amount: Any) -> None:
        p = self.ent(player)
        self.rewrite_bids(ctx, self.ent(item), lambda q, old: IF(p == self.m.z(q), zi(amount), old))
        self.turn_over(ctx)

    def b_collected(self, ctx: Ctx, holder: Any, kind: Any) -> Any:
        """As GameBase.b_collected: the components of `kind` the corporation has collected."""
        if str(kind) not in self.m.collect_kinds():
            raise Unsupported(f"collected({kind}): not a kind the title's collect_on_lay names")
        return self.per_corp(ctx, holder, lambda c: ctx.state[f"collected:{kind}@{c.id}"])

    def b_discard_collected(self, ctx: Ctx, kind: Any) -> None:
        """As GameBase.b_discard_collected: every component of `kind` leaves the game."""
        if str(kind) not in self.m.collect_kinds():
            raise Unsupported(f"discard_collected({kind}): not a kind the title's collect_on_lay names")
        for c in self.m.corporations:
            name = f"collected:{kind}@{c.id}"
            ctx.state[name] = IF(ctx.path, 0, ctx.state[name])

    def b_own_bid(self, ctx: Ctx, player: Any, item: Any) -> Any:
        """As GameBase.b_own_bid: the player's standing bid on the private, or 0."""
        m = self.m
        p, x = self.ent(player), self.ent(item)
        out: Any = 0
        for y in m.privates:
            for q in m.players:
                out = IF(AND(p == m.z(q), x == m.z(y)), ctx.state[f"bid:{y.id}@{q.id}"], out)
        return out

    def b_open_bid(self, ctx: Ctx, player: Any, item: Any, amount: Any) -> None:
        """As GameBase.b_open_bid: the player's bid on the private becomes `amount`."""
        self.b_place_bid(ctx, player, item, amount)

    def b_move_bid(self, ctx: Ctx, player: Any, old: Any, item: Any, amount: Any) -> None:
        """As GameBase.b_move_bid: the bid on `old` is withdrawn, the bid on `item` becomes `amount`."""
        p = self.ent(player)
        self.rewrite_bids(ctx, self.ent(old), lambda q, bid: IF(p == self.m.z(q), 0, bid))
        self.b_place_bid(ctx, player, item, amount)

    def b_raise_bid(self, ctx: Ctx, player: Any, amount: Any) -> None:
        st = ctx.state
        st["auction_high"] = IF(ctx.path, zi(amount), st["auction_high"])
        self.turn_over(ctx)

    def b_private_sold(self, ctx: Ctx, player: Any, item: Any) -> None:
        self.grant(ctx, self.ent(player), self.ent(item))
        self.turn_over(ctx)

    def grant(self, ctx: Ctx, player: z3.ExprRef, item: z3.ExprRef, when: Any = True) -> None:
        """`_grant`: a private's `grants` record gives its buyer a certificate."""
        m = self.m
        for x in m.privates:
            data = m.data[x]
            grant = data.get("grants")
            for child in data.get("children", []) or []:
                grant = grant or child.get("grants")
            if not isinstance(grant, dict):
                continue
            ctx.shared.reads.add("private", f"{x.id}.grants", grant)
            on = AND(ctx.path, when, item == m.z(x))
            if grant.get("president"):
                self.grant_president(ctx, x, grant, player, on)
                continue
            names = [str(k) for k in grant["corporations"]] if grant.get("corporations") else [str(grant.get("corporation"))]
            every = [m.corp(k) for k in names]
            if any(c is None for c in every) and not (grant.get("corporations") and m.truncated):
                raise Unsupported(f"private {x.id} grants a certificate of a corporation outside the scope")
            # a draw among several: one outside a truncated model's scope counts among the player's other
            # certificates (the model keeps only their number)
            corps = [c for c in every if c is not None]
            outside = len(every) - len(corps)
            want = grant.get("percent")

            def ordinary(corp: Ent) -> list:
                if corp in m.layout_corps:
                    raise Unsupported(f"private {x.id} grants a certificate of a corporation with share layouts")
                return [cert for cert in m.certs_for(corp.id) if not cert.president and cert.percent == want]

            has = [OR(*[ctx.state[hold_name(cert, self.tr.ipo_of(c))] >= 1 for cert in ordinary(c)]) for c in corps]
            def grant_first(picked: list) -> None:
                # the first ordinary certificate the corporation still holds, of the picked corporation
                for corp, chosen in zip(corps, picked):
                    taken: Any = False
                    for cert in ordinary(corp):
                        here = ctx.state[hold_name(cert, self.tr.ipo_of(corp))] >= 1
                        go = AND(on, chosen, here, NOT(taken))
                        self._move_one(ctx, cert, m.z(self.tr.ipo_of(corp)), player, go)
                        ctx.state[f"granted:{cert.id}"] = IF(go, True, ctx.state[f"granted:{cert.id}"])
                        taken = OR(taken, here)

            if outside:
                k = ctx.fresh(f"grant_draw:{x.id}", "int")
                ctx.shared.oracles.append(("grant_draw", (x.id,), k))
                ctx.shared.axioms.append(AND(k >= 0, k < len(every)))
                pick = [AND(k == i, has[i]) for i in range(len(corps))]
                other = AND(on, k >= len(corps))
                for p in m.players:
                    name = f"other_certs:{p.id}"
                    ctx.state[name] = IF(AND(other, player == m.z(p)), ctx.state[name] + 1, ctx.state[name])
                grant_first(pick)
                continue
            if len(corps) > 1:
                # a random draw among those with such a certificate left (the runtime's seeded draw): any of them
                k = ctx.fresh(f"grant_draw:{x.id}", "int")
                ctx.shared.oracles.append(("grant_draw", (x.id,), k))
                ctx.shared.axioms.append(AND(k >= 0, k < len(corps)))
                pick = [AND(k == i, has[i]) for i in range(len(corps))]
                ctx.require(IMPLIES(AND(on, OR(*has)), OR(*pick)))
            else:
                pick = [True]
            grant_first(pick)

    def grant_president(self, ctx: Ctx, x: Ent, grant: dict, player: z3.ExprRef, on: Any) -> None:
        """`_grant` of a president's certificate: it goes to the buyer (who presides: nobody else holds the
        corporation); an unstarted corporation starts at the grant's par price."""
        m = self.m
        corp = m.corp(str(grant.get("corporation")))
        if corp is None:
            raise Unsupported(f"private {x.id} grants a certificate of a corporation outside the scope")
        cert = m.certs_for(corp.id)[0]
        go = AND(on, ctx.state[hold_name(cert, self.tr.ipo_of(corp))] >= 1)
        par = grant.get("par")
        if par is not None:
            market = m.require_market()
            cell = market.par_cell(int(par))
            if cell is None:
                raise Unsupported(f"private {x.id} grants a par price that is not a par cell")
            st = ctx.state
            start = AND(go, NOT(st[f"has_par:{corp.id}"]))
            st[f"par:{corp.id}"] = IF(start, int(par), st[f"par:{corp.id}"])
            st[f"row:{corp.id}"] = IF(start, cell[0], st[f"row:{corp.id}"])
            st[f"col:{corp.id}"] = IF(start, cell[1], st[f"col:{corp.id}"])
            st[f"has_par:{corp.id}"] = IF(start, True, st[f"has_par:{corp.id}"])
            st[f"has_cell:{corp.id}"] = IF(start, True, st[f"has_cell:{corp.id}"])
        self._move_one(ctx, cert, m.z(self.tr.ipo_of(corp)), player, go)

    def b_choose_share_layout(self, ctx: Ctx, corp: Any, president_percent: Any) -> None:
        """As GameBase.b_choose_share_layout: refused unless the corporation has a share layout whose
        president's certificate is that percent and holds every certificate of its layout now; then
        its certificates are those of that layout, all on its mat (1880 VI.6, II.3.3)."""
        m = self.m
        for c, cond in self.corp_of(ctx, corp):
            if c.id in m.layout_errors:
                raise Unsupported(f"{c.id}'s share layouts (not keyed by the president's percent, not adding "
                                  "up to 100%, or without the layout it starts with)")
            if c not in m.layout_corps:
                ctx.require(NOT(cond))  # the engine refuses a corporation without share layouts
                continue
            keys = [key for key, _ in m.certs_for(c.id)[0].layouts]
            ctx.require(IMPLIES(cond, OR(*[zi(president_percent) == key for key in keys])))
            certs = m.certs_for(c.id)
            ctx.require(IMPLIES(cond, AND(*[IMPLIES(self.cert_exists(ctx, x), self.held(ctx, x, m.z(self.tr.ipo_of(c))))
                                            for x in certs])))
            when = AND(ctx.path, cond)
            st = ctx.state
            st[f"layout:{c.id}"] = IF(when, zi(president_percent), st[f"layout:{c.id}"])
            for x in certs:
                # in the IPO where the new layout has it, out of the game where it has none
                self.set_holder(ctx, x, self.tr.ipo_of(c), AND(when, self.cert_exists(ctx, x)))
                name = hold_name(x, self.tr.ipo_of(c))
                ctx.state[name] = IF(AND(when, NOT(self.cert_exists(ctx, x))), 0, ctx.state[name])

    def b_reset_corporation(self, ctx: Ctx, corp: Any) -> None:
        for c, cond in self.corp_of(ctx, corp):
            when = AND(ctx.path, cond)
            for cert in self.m.certs_for(c.id):
                # (a certificate the chosen share layout lacks stays out of the game)
                self.set_holder(ctx, cert, self.tr.ipo_of(c), AND(when, self.cert_exists(ctx, cert)))
            st = ctx.state
            st[f"has_par:{c.id}"] = IF(when, False, st[f"has_par:{c.id}"])
            st[f"has_cell:{c.id}"] = IF(when, False, st[f"has_cell:{c.id}"])
            st[f"floated:{c.id}"] = IF(when, False, st[f"floated:{c.id}"])
            st[f"tokens:{c.id}"] = IF(when, 0, st[f"tokens:{c.id}"])
            if self.m.extra_tokens:
                st[f"extra_tokens:{c.id}"] = IF(when, 0, st[f"extra_tokens:{c.id}"])
            st[f"revenue:{c.id}"] = IF(when, 0, st[f"revenue:{c.id}"])

    # -- values the model leaves to the engine: the round track's rows, the
    #    phase's group, the players' free picks (oracles, constrained only by
    #    what is certain), and the privates' abilities (static data)
    def oracle(self, ctx: Ctx, name: str, args: tuple, sort: str = "bool") -> Any:
        """A fact the model does not follow (a row of the round track, the deck is empty, an offer
        waits, a declaration is armed): any value of `sort`. `args`: what the fact is about (ids, a
        parameter's name), which the translation validator reads the engine's answer with."""
        v = ctx.fresh(name, sort)
        ctx.shared.oracles.append((name, args, v))
        return v

    def b_round_track_row_free(self, ctx: Ctx, price: Any, slot: Any) -> Any:
        """As GameBase.b_round_track_row_free: which rows of the round track are
        taken is outside the model, so any answer."""
        return self.oracle(ctx, "round_track_row_free", (price, slot))

    def b_tile_color(self, ctx: Ctx, hex_id: Any) -> Any:
        """As GameBase.b_tile_color: the map is outside the model."""
        return Opaque("the colour of a hex's tile")

    def b_pick(self, ctx: Ctx, player: Any, item: Any) -> None:
        """As GameBase.b_pick, for the components the model holds: none is of the
        `free_pick` kind (`b_pickable` is false), so it is never picked here."""
        ctx.require(self.b_pickable(ctx, item))

    def b_take_round_track_row(self, ctx: Ctx, corp: Any, slot: Any) -> None:
        """As GameBase.b_take_round_track_row: the round track is outside the model."""

    def b_phase_group(self, ctx: Ctx) -> Any:
        """As GameBase.b_phase_group: a name the model does not follow."""
        return Opaque("the phase's group")

    def b_picking(self, ctx: Ctx) -> Any:
        """As GameBase.b_picking: in the auction round, while picks are on offer.
        After an opening auction (`first_round: auction`) the picks follow the
        sale of the last private: the round is still the auction's and no
        private is left with the bank (with no `free_pick`, never). Otherwise
        an oracle says."""
        first_round = self.m.prop_value("first_round")
        ctx.shared.reads.add("property", "first_round", first_round)
        if first_round == "auction":
            kind = self.m.prop_value("free_pick")
            ctx.shared.reads.add("property", "free_pick", kind)
            if kind in (None, "none"):
                return False
            return AND(self.b_in_round(ctx, "auction"), self.starting_head(ctx) == self.m.z(NONE))
        return AND(self.b_in_round(ctx, "auction"), self.oracle(ctx, "picking", ()))

    def b_pickable(self, ctx: Ctx, item: Any) -> Any:
        """As GameBase.b_pickable: only a component of the title's `free_pick`
        kind is ever on offer; whether one of them still is, is outside the model."""
        kind = self.param(ctx, "free_pick") if self.m.has_param("free_pick") else None
        keys = {str(c.key) for c in self.m.title.components(str(kind))} if kind not in (None, "none") else set()
        ctx.shared.reads.add("property", "free_pick.keys", sorted(keys))
        sel = self.tr.as_sel(item)
        if all(it.id not in keys for it, _ in sel.alts):
            return False
        raise Unsupported("pickable of a component the model holds")

    def ability_of(self, ent: Ent, key: str) -> dict | None:
        for a in self.m.data.get(ent, {}).get("children") or ():
            if a.get("kind") == "ability" and a.get("key") == key:
                return a
        return None

    def b_has_ability(self, ctx: Ctx, company: Any, ability: Any) -> Any:
        """As GameBase.b_has_ability: from the component's data."""
        m = self.m
        key = str(ability)
        e = self.ent(company)
        out: list[Any] = []
        for x in m.privates + m.corporations:
            has = self.ability_of(x, key) is not None
            ctx.shared.reads.add(x.kind, f"{x.id}.ability.{key}", has)
            if has:
                out.append(self.tr.ent_is(e, x))
        return OR(*out)

    def b_ability_value(self, ctx: Ctx, company: Any, ability: Any, field_: Any) -> Any:
        """As GameBase.b_ability_value: a field of the component's ability (a
        refusal where the company has no such ability: the runtime's RuleGap)."""
        m = self.m
        e = self.ent(company)
        values: list[tuple[Any, Any]] = []
        for x in m.privates + m.corporations:
            a = self.ability_of(x, str(ability))
            value = None if a is None else a.get(str(field_))
            ctx.shared.reads.add(x.kind, f"{x.id}.ability.{ability}.{field_}", value)
            if value is None:
                continue
            if not isinstance(value, int):
                raise Unsupported(f"ability value {value!r}")
            values.append((self.tr.ent_is(e, x), value))
        if not values:
            raise GapError(f"ability {ability}.{field_}", "the rulespec does not give it")
        ctx.require(OR(*[c for c, _ in values]))
        out: Any = values[-1][1]
        for cond, value in reversed(values[:-1]):
            out = IF(cond, value, out)
        return out


    # -- ability cards (the title's `ability_cards`, e.g. 18 Grand Junction's Company Presidents).
    #    The card each corporation holds and the cubes left on it are state (`card:C`, `cubes:C`).
    #    The uses a corporation declared this turn, the deck and the offers waiting are the runtime's,
    #    not the model's: each is an oracle, bounded only by what the cards' data makes certain (a
    #    discount no larger than the most a card can give). Every proof then holds for whatever the
    #    engine holds.
    def cards(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The title's ability cards as data (`Model.cards`). Unsupported for a title without."""
        cards = self.m.cards
        if cards is None:
            raise Unsupported("ability cards: the title names no `ability_cards`")
        ctx.shared.reads.add("cards", str(self.m.prop_value("ability_cards")), cards)
        return cards

    def powers(self, ctx: Ctx, effect: str) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
        """(card index, card, ability) for each card with an ability of that `effect`."""
        out = []
        for i, card in enumerate(self.cards(ctx), start=1):
            for ability in card.get("children") or ():
                if ability.get("kind") == "ability" and ability.get("effect") == effect:
                    out.append((i, card, ability))
                    break
        return out

    def card_index(self, ctx: Ctx, corp: Ent) -> Any:
        """The index of the card `corp` holds (0: none)."""
        self.cards(ctx)
        return ctx.state[f"card:{corp.id}"]

    def card_uses(self, ctx: Ctx, index: Any) -> Any:
        """The cubes a card gets when it is picked (its `uses`; 0 without), for a card index term."""
        self.cards(ctx)
        return self.m.card_uses(zi(index))

    def cubes_of(self, ctx: Ctx, corp: Ent) -> Any:
        """The cubes left on `corp`'s card (0 to the card's `uses`)."""
        self.cards(ctx)
        return ctx.state[f"cubes:{corp.id}"]

    def has_power_of(self, ctx: Ctx, corp: Ent, effect: str) -> Any:
        index = self.card_index(ctx, corp)
        return OR(*[index == i for i, _, _ in self.powers(ctx, effect)])

    def ids(self, *terms: Any) -> tuple[str | None, ...]:
        """The ids of entity terms (None for one not known here): an oracle's arguments, which the
        translation validator reads the engine's answer with."""
        out = []
        for t in terms:
            k = self.known(self.ent(t))
            out.append(k.id if k is not None else None)
        return tuple(out)

    def b_card_of(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_card_of: the card C holds, or none (a `CardRef`; none for a non-corporation)."""
        e = self.ent(corp)
        k = self.known(e)
        if k is not None and k.kind != "corporation":
            return None
        options = self.corp_of(ctx, e)
        out: Any = 0
        for c, cond in reversed(options):
            out = IF(cond, self.card_index(ctx, c), out)
        return CardRef(out)

    def b_has_power(self, ctx: Ctx, corp: Any, effect: Any) -> Any:
        """As GameBase.b_has_power: C's card has an ability with that `effect` (false for anything but
        a corporation)."""
        e = self.ent(corp)
        k = self.known(e)
        if k is not None and k.kind != "corporation":
            return False
        return OR(*[AND(cond, self.has_power_of(ctx, c, str(effect))) for c, cond in self.corp_of(ctx, e)])

    def b_power_value(self, ctx: Ctx, corp: Any, effect: Any, field_: Any) -> Any:
        """As GameBase.b_power_value: the property of that ability of C's card; the engine stops (a
        rule gap) where C's card has no such ability, so that path has no after-state."""
        effect, name = str(effect), str(field_)
        powers = self.powers(ctx, effect)

        def value(c: Ent) -> Any:
            index = self.card_index(ctx, c)
            out: Any = None
            known = []
            for i, card, ability in powers:
                v = ability.get(name)
                if v is None:
                    continue
                if isinstance(v, GapValue):
                    raise GapError(f"{card['key']} {effect} {name}", v.reason)
                known.append(index == i)
                v = self.tr.lift(v)
                out = v if out is None else self.tr.ite(index == i, v, out)
            ctx.require(OR(*known))
            if out is None:
                raise GapError(f"ability {effect} {name}", "no card gives it")
            return out

        return self.per_corp(ctx, corp, value)

    def b_cubes(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_cubes: the cubes left on C's card (0 without a card)."""
        return self.per_corp(ctx, corp, lambda c: self.cubes_of(ctx, c))

    def spend(self, ctx: Ctx, c: Ent, n: Any, when: Any) -> None:
        """`spend_cubes` for one company: refused without a card or with fewer than n cubes left."""
        left = self.cubes_of(ctx, c)
        ctx.require(IMPLIES(when, AND(self.card_index(ctx, c) != 0, self.tr.cmp(">=", n, 1),
                                      self.tr.cmp("<=", n, left))))
        ctx.state[f"cubes:{c.id}"] = IF(AND(ctx.path, when), left - zi(n), left)

    def b_spend_cubes(self, ctx: Ctx, corp: Any, n: Any) -> None:
        """As GameBase.b_spend_cubes."""
        options = self.corp_of(ctx, corp)
        ctx.require(OR(*[cond for _, cond in options]))
        for c, cond in options:
            self.spend(ctx, c, n, cond)

    def b_use_power(self, ctx: Ctx, corp: Any, n: Any) -> None:
        """As GameBase.b_use_power: refused unless C's card has a declared ability (one of the runtime's
        DECLARED_EFFECTS), stackable for n > 1, and no declaration of C is waiting (an oracle), then
        n cubes are spent. The declaration itself is the runtime's (read back as an oracle)."""
        options = self.corp_of(ctx, corp)
        ctx.require(OR(*[cond for _, cond in options]))
        declared = [p for effect in sorted(GameBase.DECLARED_EFFECTS) for p in self.powers(ctx, effect)]
        for c, cond in options:
            index = self.card_index(ctx, c)
            armed = self.oracle(ctx, "armed", (c.id,))
            stackable = OR(*[index == i for i, _, a in declared if a.get("stackable") is True])
            ctx.require(IMPLIES(cond, AND(OR(*[index == i for i, _, _ in declared]), NOT(armed),
                                          OR(self.tr.cmp("<=", n, 1), stackable))))
            self.spend(ctx, c, n, cond)

    def b_place_card_marker(self, ctx: Ctx, corp: Any, hex_id: Any) -> None:
        """As GameBase.b_place_card_marker: refused unless C's card has a `bonus_token` ability and the
        hex has a city (the map is outside the model: an oracle), then a cube is spent. The marker
        itself only changes route revenue (an oracle)."""
        options = self.corp_of(ctx, corp)
        ctx.require(OR(*[cond for _, cond in options]))
        city = self.oracle(ctx, "marker_city", ())
        for c, cond in options:
            ctx.require(IMPLIES(cond, AND(self.has_power_of(ctx, c, "bonus_token"), city)))
            self.spend(ctx, c, 1, cond)

    def declared_discount(self, ctx: Ctx, c: Ent) -> Any:
        """The percent C's declared `train_discount` takes off a train from the bank now (an oracle:
        0, or up to `discount_per_use` times the cubes its card can spend at once)."""
        d = self.oracle(ctx, "train_discount", (c.id,), "int")
        index = self.card_index(ctx, c)
        most: Any = 0
        for i, card, ability in self.powers(ctx, "train_discount"):
            per = ability.get("discount_per_use")
            if not isinstance(per, int):
                raise GapError(f"{card['key']} discount_per_use", getattr(per, "reason", "not a percent"))
            uses = card.get("uses") if ability.get("stackable") is True else 1
            most = IF(index == i, per * (uses if isinstance(uses, int) else 1), most)
        ctx.shared.axioms.extend([d >= 0, d <= most])
        return d

    def b_bank_price(self, ctx: Ctx, corp: Any, train: Any) -> Any:
        """As GameBase.b_bank_price: the train's price less C's declared discount, rounded down."""
        price = self.tr.member(train, "price", ctx)

        def discounted(c: Ent) -> Any:
            d = self.declared_discount(ctx, c)
            return DIV(MUL(price, SUM([100, NEG(d)])), 100)

        return self.per_corp(ctx, corp, discounted)

    def b_discount_used(self, ctx: Ctx, corp: Any) -> None:
        """As GameBase.b_discount_used: the declaration is spent (the model keeps none)."""
        self.corp_of(ctx, corp)

    def b_operating_order(self, ctx: Ctx) -> Any:
        """As GameBase.b_operating_order: the companies of the current or last operating round, in
        their order. Which ones and in what order is the runtime's: position i holds an oracle
        company, all different, each there or not."""
        m = self.m
        elems = []
        ents = []
        for i in range(len(m.corporations)):
            e = self.oracle(ctx, "operating_order", (i,), "ent")
            ctx.shared.axioms.append(OR(*[e == m.z(c) for c in m.corporations]))
            ents.append(e)
            elems.append((e, self.oracle(ctx, "operates", (i,))))
        if len(ents) > 1:
            ctx.shared.axioms.append(z3.Distinct(ents))
        return SymList(elems)

    def b_offered(self, ctx: Ctx, player: Any, corp: Any) -> Any:
        """As GameBase.b_offered: an offer of a card for C waits on P first (an oracle)."""
        self.corp_of(ctx, corp)
        return self.oracle(ctx, "offered", self.ids(player, corp))

    def b_offer_card(self, ctx: Ctx, corp: Any, action: Any, required: Any) -> None:
        """As GameBase.b_offer_card: C's president (in a stock round, without one, the player acting)
        must take `action`, unless the deck is empty (an oracle) or nobody is a player to ask."""
        m = self.m
        st = ctx.state
        pres = self.b_president(ctx, corp)
        stock = st["round"] == ROUNDS.index("stock")
        decider = IF(AND(self.tr.eq(pres, None), stock), st["acting"], pres)
        asked = AND(OR(*[ent_is(m, decider, p) for p in m.players]), NOT(self.oracle(ctx, "deck_empty", ())))
        sub = ctx.fork(asked)
        self.b_require_decision(sub, decider, action)
        ctx.state = sub.state

    def b_pick_card(self, ctx: Ctx, player: Any, corp: Any, card: Any, action: Any) -> None:
        """As GameBase.b_pick_card: P names C's card (none declines, refused where the offer does not
        allow it; a card not in the deck is refused: oracles). C holds it with its `uses` cubes; P's
        decision is resolved unless another offer waits on him (an oracle); `card_picked` follows (a
        trigger of its own)."""
        if card is None or isinstance(card, str):
            card = CardRef(self.tr.card_number(card))
        if not isinstance(card, CardRef):
            raise Unsupported(f"pick_card of {card!r}")
        index = card.index
        declined = self.tr.eq(index, 0)
        offer = self.ids(player, corp)
        ctx.require(self.oracle(ctx, "offer_waits", offer))
        ctx.require(IMPLIES(declined, NOT(self.oracle(ctx, "offer_required", offer))))
        ctx.require(IMPLIES(NOT(declined), self.oracle(ctx, "in_deck", (str(index),))))
        options = self.corp_of(ctx, corp)
        ctx.require(OR(*[cond for _, cond in options]))
        for c, cond in options:
            when = AND(ctx.path, cond, NOT(declined))
            ctx.state[f"card:{c.id}"] = IF(when, index, self.card_index(ctx, c))
            ctx.state[f"cubes:{c.id}"] = IF(when, self.card_uses(ctx, index), self.cubes_of(ctx, c))
        last = ctx.fork(NOT(self.oracle(ctx, "more_offers", offer)))
        self.b_resolve_decision(last, player, action)
        ctx.state = last.state
        ctx.shared.calls.add("emit:card_picked")

    def b_discard_cards(self, ctx: Ctx) -> None:
        """As GameBase.b_discard_cards: every card held leaves the game (the model tracks no holding
        the card allowed beyond its own cap: the sanction is the runtime's)."""
        for c in self.m.corporations:
            ctx.state[f"card:{c.id}"] = IF(ctx.path, 0, self.card_index(ctx, c))
            ctx.state[f"cubes:{c.id}"] = IF(ctx.path, 0, self.cubes_of(ctx, c))

    def b_set_operating_position(self, ctx: Ctx, corp: Any, position: Any) -> None:
        """As GameBase.b_set_operating_position: refused once the round has begun, for a company not
        in it, or outside 1 to the number operating (the order is the runtime's: an oracle says
        whether the rest holds); the model keeps no order."""
        self.corp_of(ctx, corp)
        ctx.require(AND(self.tr.cmp(">=", position, 1),
                        self.oracle(ctx, "position_open", self.ids(corp) + (str(position),))))

    def b_close_minor(self, ctx: Ctx, minor: Any) -> None:
        """As GameBase.b_close_minor: that minor closes."""
        e = self.ent(minor)
        for x in self.m.minors:
            self.close_minor(ctx, x, AND(ctx.path, e == self.m.z(x)))

    def close_minor(self, ctx: Ctx, minor: Ent, when: Any) -> None:
        """As GameBase._close_minor, when `when`: the minor's cash goes to the bank and its trains to the
        scrap heap (which of the model's trains it holds is the engine's to say: an oracle per train
        held elsewhere); its stations leave the map (not modelled). A minor closed already is left
        as it is."""
        m = self.m
        sub = ctx.fork(AND(when, NOT(ctx.state[f"closed:{minor.id}"])))
        sub.state[f"closed:{minor.id}"] = IF(sub.path, True, sub.state[f"closed:{minor.id}"])
        self.transfer(sub, sub.state[f"cash:{minor.id}"], m.z(minor), m.z(BANK))
        for t in m.trains:
            self._move_one(sub, t, m.z(minor), m.z(SCRAP), AND(sub.path, self.held(sub, t, m.z(minor))))
        ctx.state = sub.state

    def card_holds_price(self, ctx: Ctx, corp: Ent) -> Any:
        """Whether C's declared `hold_price` keeps its price from moving left or down now (the
        runtime's market_move in an operating round): an oracle, possible only with such a card."""
        if self.m.prop_value("ability_cards") is None or not self.powers(ctx, "hold_price"):
            return False
        armed = self.oracle(ctx, "hold_price", (corp.id,))
        return AND(armed, self.has_power_of(ctx, corp, "hold_price"),
                   ctx.state["round"] == ROUNDS.index("operating"))


# ---------------------------------------------------------------- runtime steps


def runtime_transitions(tr: Translator) -> list[Transition]:
    """The runtime's round machinery as transitions (see the module docstring)."""
    m = tr.model
    b = tr.builtins
    stock, operating, auctions = ("compiler/runtime/stock.py StockRound", "compiler/runtime/operating.py OperatingRound",
                                  "compiler/runtime/auctions.py Auctions")  # GameBase's parts
    takeover_cite = _prop_cite(m, "takeover_when") or _prop_cite(m, "director_is") or "runtime"
    out: list[Transition] = []

    def take_over_bindings() -> list[Binding]:
        return [Binding((("corporation", c),)) for c in m.corporations]

    def take_over(binding: Binding) -> Step:
        corp: Ent = binding.get("corporation")
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        certs = m.certs_for(corp.id)
        ctx.shared.reads.add("runtime", "take_over", [(c.id, c.percent, c.layouts) for c in certs])
        pres = certs[0]
        any_exchange, effects = b.presidency_exchange(ctx, corp)
        ctx.require(any_exchange)
        for cond, p0, p1, given in effects:
            for cert, take in given:
                b._move_one(ctx, cert, m.z(p1), m.z(p0), AND(cond, take))
            b._move_one(ctx, pres, m.z(p0), m.z(p1), cond)
        ctx.shared.calls.add("emit:president_changed")
        ctx.shared.settled.add(corp.id)
        return tr.finish(binding.label("take_over"), ctx, pre)

    out.append(Transition(
        "take_over", "runtime", None, f"{stock}._check_president", takeover_cite,
        "a player holding more than the president takes the presidency, giving shares worth the president's certificate",
        "take_over/1", take_over_bindings, take_over))

    def single() -> list[Binding]:
        return [Binding(())]

    def end_stock_round(binding: Binding) -> Step:
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        ctx.require(pre["round"] == ROUNDS.index("stock"))
        rise = tr.param_value("sold_out_rise", ctx)
        holders = m.prop_value("sold_out_holders") or ()
        ctx.shared.reads.add("property", "sold_out_holders", holders)
        if rise is True or (isinstance(rise, str) and rise != "none"):
            own = tr.title.get("function", "sold_out")  # the title's reading of "sold out" (as GameBase._sold_out)
            for c in m.corporations:
                if own is not None:
                    out = tr.truthy(tr.call_routine(own, [m.z(c)], {}, ctx))
                else:
                    # as GameBase._end_stock_round: players' holdings, and other corporations' where the title says
                    owners = [m.z(p) for p in m.players] + (
                        [m.z(o) for o in m.corporations if o != c] if "corporations" in holders else [])
                    out = tr.eq(SUM([b.percent_of(ctx, e, c) for e in owners]), 100)
                b.market_move(ctx, c, "up", AND(pre[f"has_cell:{c.id}"], out))
        ctx.shared.calls.update({"market_move", "emit:operating_round_start"})
        b.turn_over(ctx)
        return tr.finish("end_stock_round()", ctx, pre)

    out.append(Transition(
        "end_stock_round", "runtime", None, f"{stock}._end_stock_round",
        _prop_cite(m, "sold_out_rise") or "runtime",
        "all players passed: sold-out corporations rise, the operating rounds begin",
        "end_stock_round/1", single, end_stock_round))

    def first_train_bindings() -> list[Binding]:
        return [Binding((("train_type", t),)) for t in m.train_types]

    def first_train(binding: Binding) -> Step:
        name: str = binding.get("train_type")
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        ctx.shared.reads.add("runtime", "first_train", (m.phases, m.train_data))
        # the next phase this train type starts, if any
        phase = pre["phase"]
        new_phase: Any = phase
        for i in reversed(range(len(m.phases))):
            triggers = m.phases[i].get("on_train")
            names = triggers if isinstance(triggers, list) else [triggers]
            if name in [str(n) for n in names if n is not None]:
                new_phase = IF(tr.cmp(">", i, phase), i, new_phase)
        ctx.state["phase"] = new_phase
        for other, data in m.train_data.items():
            rusts = data.get("rusts_on")
            hits = name in [str(r) for r in rusts] if isinstance(rusts, list) else (rusts is not None and str(rusts) == name)
            if hits:
                for t in m.trains:
                    if t.name == other:
                        b.set_holder(ctx, t, SCRAP, True)
        ctx.shared.calls.update({"emit:phase_start", "emit:first_train"})
        for phase_data in m.phases:
            for event in phase_data.get("events", []) or []:
                ctx.shared.calls.add(f"emit:{event}")
        ctx.havoc(["pending", "pending_entity", "pending_action", "acting"])
        return tr.finish(binding.label("first_train"), ctx, pre)

    out.append(Transition(
        "first_train", "runtime", None, f"{operating}._on_first_train",
        _prop_cite(m, "phase_change_timing") or "runtime",
        "the first train of a type is bought: the next phase starts, older trains rust",
        "first_train/1", first_train_bindings, first_train))

    def sale_bindings() -> list[Binding]:
        return [Binding((("private", x), ("player", p))) for x in m.privates for p in m.players]

    def sold_to_bidder(binding: Binding) -> Step:
        x: Ent = binding.get("private")
        p: Ent = binding.get("player")
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        on_sale = b.b_private_on_sale(ctx)
        amount = z3.Int("param:amount")
        ctx.shared.params["amount"] = amount
        bid = pre[f"bid:{x.id}@{p.id}"]
        sold = [AND(on_sale == m.z(x), OR(AND(bid > 0, amount == bid),
                                            AND(pre["auction"], pre["auction_company"] == m.z(x),
                                                amount == pre["auction_high"])))]
        ctx.shared.reads.add("property", "first_round", m.prop_value("first_round"))
        if m.prop_value("first_round") == "auction":
            # the Starting Round (`_auction_sold`): the private on auction goes to its high bidder once
            # every other player has passed; the first private, when all pass on it, to a player
            # drawn at random for nothing (`auction_all_pass_first: random_free`)
            on_auction = AND(pre["round"] == ROUNDS.index("auction"), b.starting_head(ctx) == m.z(x))
            sold.append(AND(on_auction, bid > 0, amount == bid))
            ctx.shared.reads.add("property", "auction_all_pass_first", m.prop_value("auction_all_pass_first"))
            if m.prop_value("auction_all_pass_first") == "random_free" and x == m.privates[0]:
                sold.append(AND(on_auction, amount == 0))
        ctx.require(OR(*sold))
        b.transfer(ctx, amount, m.z(p), m.z(BANK))
        b.move(ctx, m.z(x), m.z(BANK), m.z(p))
        b.grant(ctx, m.z(p), m.z(x))
        for q in m.players:
            ctx.state[f"bid:{x.id}@{q.id}"] = 0
        ctx.shared.reads.add("property", "private_sale_bidding", m.prop_value("private_sale_bidding"))
        if m.prop_value("private_sale_bidding") is True:
            # the auction among the private's bidders (`_auction_won`) ends; another may begin
            ctx.havoc(["auction", "auction_company", "auction_high"])
        b.turn_over(ctx)
        return tr.finish(binding.label("private_sold_to_bidder"), ctx, pre)

    out.append(Transition(
        "private_sold_to_bidder", "runtime", None, f"{auctions}._resolve_bids / _auction_won",
        _prop_cite(m, "private_sale_bidding") or "runtime",
        "a private on sale goes to its only bidder, or to the auction's winner, for the bid",
        "private_sold_to_bidder/1", sale_bindings, sold_to_bidder))

    def draft_ends(binding: Binding) -> Step:
        # as GameBase._end_draft: each player pays the bank for the companies he picked and takes
        # them; a minor receives its starting treasury from the bank (its float, `_start_minor`, is
        # not the model's); the first stock round begins. When the deck holds only Pass cards is the
        # runtime's to say.
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        ctx.require(pre["round"] == ROUNDS.index("draft"))
        for x in m.draft_items:
            for p in m.players:
                sub = ctx.fork(pre[f"drafter:{x.id}"] == m.z(p))
                b.transfer(sub, pre[f"draft_price:{x.id}"], m.z(p), m.z(BANK))
                if x.kind == "minor":
                    name = f"owner:{x.id}"
                    sub.state[name] = IF(sub.path, m.z(p), sub.state[name])
                    b.transfer(sub, b.draft_amount(x, "treasury", ctx.shared.reads), m.z(BANK), m.z(x))
                else:
                    b.move(sub, m.z(x), m.z(BANK), m.z(p))
                ctx.state = sub.state
            ctx.state[f"drafter:{x.id}"] = m.z(NONE)
            ctx.state[f"draft_price:{x.id}"] = z3.IntVal(0)
        ctx.shared.reads.add("runtime", "draft_ends", [(x.id, m.data[x].get("treasury")) for x in m.draft_items])
        b.turn_over(ctx)
        ctx.state["round"] = z3.IntVal(ROUNDS.index("stock"))
        return tr.finish("draft_ends()", ctx, pre)

    if m.draft_items:
        out.append(Transition(
            "draft_ends", "runtime", None, f"{auctions}._end_draft",
            m.component_cites("draft") or "runtime",
            "only Pass cards are left: each player pays for the companies he picked and takes them; a minor "
            "receives its treasury; the first stock round begins",
            "draft_ends/1", single, draft_ends))
    return out


def _prop_cite(m: Model, name: str) -> str | None:
    prop = m.title.prop(name)
    if prop is None or not prop.prov.citations:
        return None
    return ", ".join(str(c) for c in prop.prov.citations if c.is_rulebook) or str(prop.prov.citations[0])


# ---------------------------------------------------------------- the initial state


def initial_state(tr: Translator, reads: Reads, axioms: list[Any] | None = None) -> dict[str, Any]:
    """The state `GameBase.__init__` builds, before the first action: starting
    cash paid out of the bank, every certificate where the library's `ipo_of` puts it (`Translator.ipo_of`),
    privates with the bank (those setup's removals draw, closed: `axioms` gets
    how many of each group), bonds with their corporations, trains in the depot.
    Turn bookkeeping is left free. Raises `GapError` (bank, starting cash)."""
    axioms = axioms if axioms is not None else []
    m = tr.model
    vars_ = m.vars
    state: dict[str, Any] = vars_.fresh_state("init")
    start = m.param("starting_cash", reads)
    if not isinstance(start, int):
        raise GapError("starting_cash", "not an amount at this player count")
    bank = m.param("bank", reads)
    n = len(m.players)
    if vars_.unlimited_bank:
        state["flow:paid"] = z3.IntVal(start * n)
        state["flow:received"] = z3.IntVal(0)
    else:
        if not is_z3(bank) and not isinstance(bank, int):
            raise GapError("bank", "not an amount")
        state["cash:bank"] = zi(bank) - start * n
    for p in m.players:
        state[f"cash:{p.id}"] = z3.IntVal(start)
    for c in m.corporations + m.minors:
        state[f"cash:{c.id}"] = z3.IntVal(0)
    for x in m.minors:
        state[f"owner:{x.id}"] = m.z(BANK)
        state[f"closed:{x.id}"] = z3.BoolVal(False)
    home = {}
    for c in m.corporations:
        for cert in m.certs_of.get(c.id, []):
            home[cert.id] = tr.ipo_of(c)
    for x in m.private_items:
        home[x.id] = BANK
    for bond in m.bond_items:
        ent = m.entity("bond", bond.id)
        home[bond.id] = m.corp(str(m.data[ent].get("corporation")))  # type: ignore[index]
    for t in m.trains:
        home[t.id] = DEPOT
    for c in m.layout_corps:
        state[f"layout:{c.id}"] = z3.IntVal(m.certs_of[c.id][0].percent)
    for it in m.items:
        absent = it.kind == "certificate" and it.percent == 0  # not in the share layout the game starts with
        for b in m.buckets[it.kind] + [None]:
            state[hold_name(it, b)] = z3.IntVal(1 if b == home[it.id] and not absent else 0)
    for x in m.privates:
        state[f"closed:{x.id}"] = z3.BoolVal(False)
    for c in m.corporations:
        for name in ("has_par", "has_cell", "floated"):
            state[f"{name}:{c.id}"] = z3.BoolVal(False)
        state[f"tokens:{c.id}"] = z3.IntVal(0)
        if m.extra_tokens:
            state[f"extra_tokens:{c.id}"] = z3.IntVal(0)
        for name, sort in m.corp_fields.items():
            start = m.data[c].get(name)
            state[f"field:{c.id}.{name}"] = z3.BoolVal(bool(start)) if sort == "bool" else z3.IntVal(int(start))
    for p in m.players:
        state[f"debt:{p.id}"] = z3.IntVal(0)
        state[f"out:{p.id}"] = z3.BoolVal(False)
    for kind in m.collect_kinds():
        for c in m.corporations:
            state[f"collected:{kind}@{c.id}"] = z3.IntVal(0)
    for cert in m.certs:
        state[f"granted:{cert.id}"] = z3.BoolVal(False)
    for x in m.privates:
        for p in m.players:
            state[f"bid:{x.id}@{p.id}"] = z3.IntVal(0)
    state["auction"] = z3.BoolVal(False)
    for x in m.draft_items:
        state[f"drafter:{x.id}"] = m.z(NONE)
        state[f"draft_price:{x.id}"] = z3.IntVal(0)
    _removals(tr, state, reads, axioms)
    state["phase"] = z3.IntVal(0)
    for t in m.train_types:
        state[f"first_bought:{t}"] = z3.BoolVal(False)
    for c in m.corporations:
        state[f"revenue:{c.id}"] = z3.IntVal(0)
    if m.cards is not None:
        for c in m.corporations:
            state[f"card:{c.id}"] = z3.IntVal(0)
            state[f"cubes:{c.id}"] = z3.IntVal(0)
    if m.truncated:
        for p in m.players:
            state[f"other_certs:{p.id}"] = z3.IntVal(0)
    return state


def _removals(tr: Translator, state: dict[str, Any], reads: Reads, axioms: list[Any]) -> None:
    """As GameBase._setup_removals, for groups of privates: `removed_per_group` (at the scope's
    player count) of each `group` / `*_group` list close at setup, which ones the runtime draws
    (any of them). A group naming anything but the scope's privates is left open (the model's
    privates stay in play). The title is the one played without options (an option's
    `removes_privates` or `removal` is not the model's); a count the model cannot read at the
    scope's player count raises Unsupported."""
    m = tr.model
    n = len(m.players)
    for comp in m.title.components("removal"):
        data = component_data(comp)
        groups = []
        for name, group in data.items():
            if not (name == "group" or name.endswith("_group")) or not isinstance(group, list):
                continue
            members = [m.entity("private", str(k)) for k in group]
            if members and all(x is not None for x in members):
                groups.append(members)
        if not groups:
            continue
        counts = data.get("removed_per_group")
        reads.add("removal", comp.key or "", counts)
        count = counts.get(n) if isinstance(counts, dict) else counts
        if not isinstance(count, int) or isinstance(count, bool):
            raise Unsupported(f"removal {comp.key}: removed_per_group is not a count at {n} players")
        for members in groups:
            drawn = [z3.Bool(f"init.removed:{x.id}") for x in members]  # type: ignore[union-attr]
            for x, removed in zip(members, drawn):
                state[f"closed:{x.id}"] = removed  # type: ignore[union-attr]
            axioms.append(SUM([IF(r, 1, 0) for r in drawn]) == min(count, len(members)))
