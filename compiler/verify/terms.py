"""The translation's values and connectives, and its records of a transition.

Values: the symbolic list (`SymList`), a list's head (`ListHead`), a selection (`Sel`), an ability
card (`CardRef`), routes and opaque values; the connectives over z3 terms (`AND`, `OR`, `IF`, `SUM`,
...), which fold what is known; a transition (`Transition`, `Binding`, `Step`), the caches one
translation shares (`Shared`) and the context one routine is translated in (`Ctx`). A leaf: it
imports none of the translation's other modules (see `translate.py`'s docstring).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from compiler.lang import syntax as s
from compiler.lang.ir import Clause
from compiler.verify.model import Ent, Item, Model, Reads, Unsupported

#: what `Ctx.tr` is: the `Translator` of translator.py, which imports this module (so this one does
#: not import it back, not even for its type: tests/test_layers.py counts such a cycle)
Translator = Any


# ---------------------------------------------------------------- values


@dataclass
class SymList:
    """A list whose members depend on the state: (value, condition) in order. `beyond`: the
    condition under which the list has members past those held (a range whose end is a term, read
    up to the model's bound, `Translator.range_list`): where it holds, what is worked out over the
    list is any value (`Translator.quantifier`, the `for` statement), never the cut list's."""

    elems: list[tuple[Any, Any]]
    beyond: Any = False


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
    "first_of_type": ("train",),  # the first train of a type bought or exported (`_on_first_train`)
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


@dataclass
class Choice:
    """One of several values that no one term of the model holds (two names, two records): (value,
    condition) alternatives, one of which holds where it is read. A name chosen by the state (the phase's
    `group`), a record of a list read at a symbolic position (`phases[phase_number - 1]`): a field of it,
    a comparison, `in` are each read of every alternative (`Translator.ite`)."""

    alts: list[tuple[Any, Any]]


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


@dataclass(frozen=True)
class AnyAmounts:
    """A list of amounts the title leaves as a declared gap (18 Grand Junction's station token prices):
    each element read is any amount not below zero, an oracle `oracle` keyed by `key`
    (`Translator.index`); how many there are is the reader's (`Model.gap_constant`)."""

    oracle: str
    key: tuple[str, ...]


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
        return _int_val(v)
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
_mk_add, _mk_not, _mk_eq = z3.z3core.Z3_mk_add, z3.z3core.Z3_mk_not, z3.z3core.Z3_mk_eq
#: z3's constructors of the comparisons of two integers (`CMP`)
_MK_CMP = {"<": z3.z3core.Z3_mk_lt, "<=": z3.z3core.Z3_mk_le, ">": z3.z3core.Z3_mk_gt, ">=": z3.z3core.Z3_mk_ge}
#: the classes of integer terms (`SUM`'s fast path)
_INT_TERMS = (z3.ArithRef, z3.IntNumRef)
#: z3's C functions for a term's sort kind (reading only: no error to check)
_get_sort = z3.z3core.Z3_get_sort.__defaults__[-1].f
_get_sort_kind = z3.z3core.Z3_get_sort_kind.__defaults__[-1].f


def _is_int_term(ctx: z3.Context, t: z3.ExprRef) -> bool:
    ref = ctx.ref()
    return _get_sort_kind(ref, _get_sort(ref, t.ast)) == z3.Z3_INT_SORT


def has_sort(v: Any, sort: z3.SortRef) -> bool:
    """Whether `v` is a z3 term of `sort` (`is_z3(v) and v.sort() == sort`), read by z3's C functions
    (z3 shares sorts: one sort, one address), without a sort's Python object made for each."""
    if not isinstance(v, z3.ExprRef):
        return False
    ctx = v.ctx
    if ctx is not sort.ctx:
        return v.sort() == sort
    return _get_sort(ctx.ref(), v.ast).value == sort.ast.value


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
    x = zb(x)
    # (`z3.Not(x)`, made by z3's constructor: a truth value needs no coercion)
    return z3.BoolRef(_mk_not(x.ctx.ref(), x.ast), x.ctx)


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


def CMP(op: str, a: Any, b: Any) -> Any:
    """Python's `a op b` ("<", "<=", ">", ">=") of two numbers, terms or plain integers: the very term
    z3's operators make (or the truth value of two plain ones), made by z3's constructor where both are
    integers of one context, without the Python API's coercion, which was most of the CPU of a
    translation's comparisons (1880 Romania: 160,000 coercions, of a count to compare with 1 mostly).
    As Python's operator: a plain number on the left is the right term's reflected comparison
    (`1 <= x` is `x >= 1`), and so is a term whose class is a subclass of the left one's (a numeral,
    `x >= IntVal(0)` is `IntVal(0) <= x`)."""
    if not isinstance(a, z3.ExprRef):
        if not isinstance(b, z3.ExprRef):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        op, a, b = _REFLECTED[op], b, a
    elif isinstance(b, z3.ExprRef) and type(b) is not type(a) and isinstance(b, type(a)):
        op, a, b = _REFLECTED[op], b, a
    if type(b) is int and type(a) in _INT_TERMS:
        # (the number's numeral shared, `_int_val`: the same term, and none handed on)
        b = _int_val(b)
    ctx = a.ctx
    if (type(a) in _INT_TERMS and type(b) in _INT_TERMS and b.ctx is ctx
            and _is_int_term(ctx, a) and _is_int_term(ctx, b)):
        return z3.BoolRef(_MK_CMP[op](ctx.ref(), a.ast, b.ast), ctx)
    return {"<": a.__lt__, "<=": a.__le__, ">": a.__gt__, ">=": a.__ge__}[op](b)


def EQ(a: Any, b: Any) -> Any:
    """Python's `a == b` where `a` is a number or a term: the very term z3's `==` makes (or the truth
    value of two plain ones), made by z3's constructor where both are integers of one context (a plain
    integer on the right as its numeral, as z3's coercion makes it), as `CMP` does for the orderings
    (issue 33: a market's cells, `in_cells`, made ~17,000 such equalities a transition)."""
    if type(b) is int and type(a) in _INT_TERMS:
        b = _int_val(b)
    if type(a) in _INT_TERMS and type(b) in _INT_TERMS:
        ctx = a.ctx
        if b.ctx is ctx and _is_int_term(ctx, a) and _is_int_term(ctx, b):
            return z3.BoolRef(_mk_eq(ctx.ref(), a.ast, b.ast), ctx)
    return a == b


#: the comparison Python asks of the right operand for one of the left (`CMP`)
_REFLECTED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


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


#: `MUL`'s products of two terms neither a numeral, by the addresses of their ASTs (z3 shares equal
#: terms: one address, one term), each with the two terms, which the entry keeps alive (so that no
#: other term takes an address while it is a key), up to `_MUL_MOST` entries. A market price is a
#: tree of some hundred numerals that `_const_tree` walks and `_distribute` rebuilds through the
#: Python API, ~25 ms a product (18CO's sell_shares: 12 products of 4 pairs); the same pair gives the
#: same term, so one made before is taken.
_MUL_MEMO: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
_MUL_MOST = 4096


def MUL(a: Any, b: Any) -> Any:
    """a * b, kept linear where one side is a tree of numerals (a percentage,
    a market price): x * ite(c, 10, 0) is written ite(c, 10x, 0)."""
    if not is_z3(a) and not is_z3(b):
        return int(a) * int(b)
    a, b = zi(a), zi(b)
    if z3.is_int_value(a) or z3.is_int_value(b):
        return a * b
    key = (a.ast.value, b.ast.value)
    found = _MUL_MEMO.get(key)
    if found is not None and found[0].ctx is a.ctx and found[1].ctx is b.ctx:
        return found[2]
    for x, tree in ((a, b), (b, a)):
        if _const_tree(tree, [3000]):
            out = _distribute(x, tree)
            break
    else:
        out = a * b
    if len(_MUL_MEMO) >= _MUL_MOST:
        _MUL_MEMO.clear()
    _MUL_MEMO[key] = (a, b, out)
    return out


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
    key hashes (the IR, or the runtime step's version); `routines`: for a runtime
    step, the IR declarations it translates (a library procedure, a trigger), which
    `pool.warm` weighs a cold run's tasks by, with the clause's.
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
    routines: tuple[Any, ...] = ()


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
    opaque_fields: dict[tuple[int | str, str], tuple[Any, Any]] = field(default_factory=dict)
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
