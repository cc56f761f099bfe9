"""The translator: a title's expressions, statements and routines as z3 (`Translator`), and the
runtime's builtins as z3 (`Builtins`, its methods in the mixins of `builtins_*.py`). See
`translate.py`'s docstring for what a translation gives.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import z3

from compiler.lang import syntax as s
from compiler.lang.builtins import VALUES
from compiler.lang.ir import Clause, Title
from compiler.lang.schema import component_params
from compiler.runtime.dsl_support import HEX_FIELDS
from compiler.verify import cells
from compiler.verify.bindings import RoutineBindings
from compiler.verify.builtins_abilities import AbilityBuiltins
from compiler.verify.builtins_effects import EffectBuiltins
from compiler.verify.builtins_map import TOKEN_FIELDS, MapBuiltins
from compiler.verify.builtins_state import StateBuiltins
from compiler.verify.left_out import translate_left_out
from compiler.verify.model import (BANK, CORP_STATE_FIELDS, DEPOT, IPO, NONE, POOL, SCRAP, Ent, GapError,
                                   Item, Model, Unsupported, component_data, state_var)
from compiler.verify.terms import (
    AnyAmounts,
    AND,
    CMP,
    DIV,
    IF,
    IMPLIES,
    MOD,
    MUL,
    NOT,
    OR,
    OUT_OF_SCOPE_GROUPS,
    SUM,
    CardRef,
    Choice,
    Ctx,
    DeadPath,
    Opaque,
    Sel,
    Shared,
    Step,
    SymList,
    _int_val,
    _memo_key,
    _memo_value,
    ent_is,
    has_sort,
    is_z3,
    truth,
    zb,
    zi,
)


#: a name a dict did not hold (`Translator._beyond_bound`)
_MISSING = object()


class _TrainRecord(dict):
    """A train card as a record (`Translator.card_records`): its `key` and the fields its kind declares,
    each read from `Model.train_data` only when the rules read it (so recorded field by field); a field
    that may name several cards as a list, as the engine's `GameBase.card_records` gives it."""

    def __init__(self, tr: "Translator", card: str, fields: Any):
        super().__init__()
        self.tr, self.card = tr, card
        self.several = dict(fields)

    def __contains__(self, name: Any) -> bool:
        return name == "key" or name in self.several

    def __getitem__(self, name: Any) -> Any:
        if name == "key":
            return self.card
        if name not in self.several:
            raise KeyError(name)
        value = self.tr.model.card_value(self.card, name)
        if self.several[name]:
            value = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
        return self.tr.lift(value) if value is not None else None

    def get(self, name: Any, default: Any = None) -> Any:
        return self[name] if name in self else default

    __hash__ = None  # type: ignore[assignment]


def _same_term(a: Any, b: Any) -> bool:
    """Whether two values of the translation are the same term (z3's structural equality for terms)."""
    if a is b:
        return True
    if is_z3(a) and is_z3(b):
        return a.eq(b)
    if is_z3(a) or is_z3(b) or a is _MISSING or b is _MISSING:
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values with no plain equality are different terms
        return False

# ---------------------------------------------------------------- the translator


class Translator(RoutineBindings):
    """Translates a title's routines for one `Model`."""

    def __init__(self, model: Model):
        self.model = model
        self.title: Title = model.title
        self.routines = {c.name: c for c in self.title.clauses if c.kind in ("procedure", "function")}
        self.entities: dict[str, str] = {}
        #: the components that are no entity (a round track, a draft ...), by key: a field of one
        #: (`main.par_groups`) is the title's data, as the engine reads it (`GameBase.component_attr`)
        self.components: dict[str, s.Component] = {}
        self.params: set[str] = set()
        #: the parameters naming such a component (`operating_track: round_track`): their kind (`component_named`)
        self.component_params = component_params(self.title)
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
                    self.components.setdefault(decl.key or "", decl)
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
                if name in ("train_cards", "phases", "markets", "all_ability_cards"):
                    return self.builtins.card_list(name, ctx)
                if name == "market_cells":
                    return cells.market_cells(self.builtins, ctx)
                if name == "all_trains":
                    return SymList([(Sel([(t, True)]), True) for t in m.trains])
                if name in ("phase_number", "current_round", "current_step", "operating_company", "acting_entity",
                            "game_end_reason"):
                    return self.builtins.state_value(ctx, name)  # (the phase's number, the round machinery's)
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
            comp = self.component_named(e.obj, ctx)
            if comp is not None:
                return self.component_attr(comp, e.name, ctx)
            return self.member(self.expr(e.obj, ctx), e.name, ctx)
        if isinstance(e, s.Index):
            return self.index(self.expr(e.obj, ctx), self.expr(e.index, ctx), ctx)
        if isinstance(e, s.Call):
            if not isinstance(e.func, s.Name):
                return self.builtins.list_operation(e, ctx)  # a list state's (`compiler.verify.lists`), else Unsupported
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

    def component_named(self, e: Any, ctx: Ctx) -> s.Component | None:
        """The component (no entity) that the name `e` means, or None: a name no local, holder,
        parameter or entity shadows, or a parameter naming one by key (as `Emitter._component_named`)."""
        if isinstance(e, s.Name) and e.name in self.component_params and e.name not in ctx.locals:
            key = str(self.model.param(e.name, ctx.shared.reads))  # (the checker's E022: one of that kind)
            return next((c for c in self.title.components(self.component_params[e.name]) if c.key == key), None)
        if not isinstance(e, s.Name) or e.name not in self.components or e.name in ctx.locals:
            return None
        if e.name in VALUES or e.name in self.params or e.name in self.entities:
            return None
        return self.components[e.name]

    def component_attr(self, comp: s.Component, name: str, ctx: Ctx) -> Any:
        """As GameBase.component_attr: the component's field from the title's data."""
        from compiler.verify.model import GapValue

        value = component_data(comp).get(name)
        ctx.shared.reads.add(comp.kind, f"{comp.key}.{name}", value)
        if isinstance(value, GapValue):
            raise GapError(f"{comp.kind} {comp.key}.{name}", value.reason)
        if value is None:
            raise GapError(f"{comp.kind} {comp.key}.{name}", "the rulespec does not give it")
        if isinstance(value, dict) and self.model.n_players in value:
            value = value[self.model.n_players]
        return self.lift(value)

    def card_records(self, kind: str, ctx: Ctx) -> SymList:
        """As GameBase.card_records: the cards of `kind` (train, phase) as records, in the title's order, each its
        `key` (a phase also its `number`, its place from 1) and every parameter its kind declares (none where unset; one that may name several cards, as
        a list: `Title.card_fields`). The title's data: every record is in the list whatever the state."""
        fields = self.title.card_fields(kind)
        if kind == "train":
            # a train card's field is read through the model's recorded channel (`Model.train_data`) when
            # the rules read it, field by field: a price erratum does not reach a procedure that reads
            # only `rusts_on` (which cards there are is in `Model.digest_unread`)
            return SymList([(_TrainRecord(self, name, fields), True) for name in self.model.train_types])
        records = []
        for number, comp in enumerate(self.title.components(kind), 1):
            data = component_data(comp, self.title.kind_defaults(kind))
            record: dict[str, Any] = {"key": comp.key or "", "number": number}
            for name, several in fields:
                value = data.get(name)
                if several:
                    value = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
                record[name] = self.lift(value) if value is not None else None
            records.append(record)
        ctx.shared.reads.add("cards", kind, [sorted(r.items(), key=lambda kv: kv[0]) for r in records])
        return SymList([(r, True) for r in records])

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
        if isinstance(v, Choice):
            return OR(*[AND(c, self.truthy(x)) for x, c in v.alts])
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
        if isinstance(a, cells.CellTerm) or isinstance(b, cells.CellTerm):
            return cells.ite(c, a, b)
        if self._chosen(a) and self._chosen(b) and not (a is None and b is None):
            # two names (or none), two records: no one term holds either; one of them, each where it holds
            if isinstance(a, str) and a == b:
                return a
            t = truth(c)
            if t is True:
                return a
            if t is False:
                return b
            return Choice([(v, AND(c, cond)) for v, cond in self._alternatives(a)]
                          + [(v, AND(NOT(c), cond)) for v, cond in self._alternatives(b)])
        if isinstance(a, Sel) or isinstance(b, Sel):
            a, b = self.as_sel(a), self.as_sel(b)
            return Sel([(it, AND(c, cond)) for it, cond in a.alts] + [(it, AND(NOT(c), cond)) for it, cond in b.alts])
        if self.is_ent(a) or self.is_ent(b) or a is None or b is None:
            return IF(c, self.as_ent(a), self.as_ent(b))
        if isinstance(a, str) or isinstance(b, str):
            if a == b:
                return a
            raise Unsupported("a conditional choice between two names")
        if isinstance(a, SymList) and isinstance(b, SymList):
            # the one list or the other: each element present where its list is chosen (the i-th present
            # element is the chosen list's, as `index` reads it)
            return SymList([(v, AND(c, cond)) for v, cond in a.elems] + [(v, AND(NOT(c), cond)) for v, cond in b.elems],
                           OR(AND(c, a.beyond), AND(NOT(c), b.beyond)))
        if isinstance(a, AnyAmounts) and isinstance(b, AnyAmounts):
            return a if a == b else AnyAmounts(a.oracle, a.key + b.key)  # any amounts, either way
        if isinstance(a, (SymList, AnyAmounts)) or isinstance(b, (SymList, AnyAmounts)):
            raise Unsupported("a conditional choice between two lists")
        return IF(c, a, b)

    def is_ent(self, v: Any) -> bool:
        return has_sort(v, self.model.sort)

    def _chosen(self, v: Any) -> bool:
        """Whether `v` is a value `ite` chooses as a `Choice`: a name that no entity has (one that has
        is the entity's term), none, a record, or a choice already."""
        if isinstance(v, str):
            return v not in self.entities and all(e.id != v for e in self.model.ents)
        return v is None or isinstance(v, (dict, Choice))

    @staticmethod
    def _alternatives(v: Any) -> list[tuple[Any, Any]]:
        return v.alts if isinstance(v, Choice) else [(v, True)]

    def _of_choice(self, choice: Choice, read: Callable[[Any], Any]) -> Any:
        """`read` of the value a `Choice` holds: each alternative's, chosen where it holds (one of them does)."""
        out = read(choice.alts[-1][0])
        for value, cond in reversed(choice.alts[:-1]):
            out = self.ite(cond, read(value), out)
        return out

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
            known = m.known_ent(v)
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
        if isinstance(a, cells.CellTerm) or isinstance(b, cells.CellTerm):
            return cells.eq(a, b)
        if isinstance(a, Choice) or isinstance(b, Choice):
            choice, other = (a, b) if isinstance(a, Choice) else (b, a)
            return OR(*[AND(cond, self.eq(v, other)) for v, cond in choice.alts])
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
        if (self.is_ent(a) or self.is_ent(b)) and (isinstance(a, Opaque) or isinstance(b, Opaque)):
            # a name field the model does not follow (`corporation.investor_closing == m`): either way
            return self.opaque_test("==", a, b, ctx=None)
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
            if isinstance(other, (int, str, bool, dict, SymList)) or is_z3(other):
                return False  # (a map, a train's `discount`, a list, is never none, as in the engine)
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
        if isinstance(coll, Choice):
            return OR(*[AND(cond, self.contains(v, x)) for v, cond in coll.alts])
        if isinstance(x, Choice) and not isinstance(coll, SymList):
            return OR(*[AND(cond, self.contains(coll, v)) for v, cond in x.alts])
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
        # (a plain number as `zi` makes it, its numeral shared: the comparison is of two terms)
        a = _int_val(a) if type(a) is int else zi(a)
        b = _int_val(b) if type(b) is int else zi(b)
        return CMP(op, a, b)

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
        if isinstance(obj, cells.CellTerm):
            return cells.field(self.builtins, ctx, obj, name)  # (a market cell's: compiler.verify.cells)
        if isinstance(obj, Choice):
            return self._of_choice(obj, lambda v: self.member(v, name, ctx))
        if isinstance(obj, Opaque):
            # a field of a value the model does not follow (`lay.upgrade`): as opaque,
            # the same value each time it is read in one translation
            cache = ctx.shared.opaque_fields
            key = (id(obj), name)
            if key not in cache:
                cache[key] = (obj, Opaque(f"{obj.what}.{name}"))
            return cache[key][1]
        if isinstance(obj, str) and name in HEX_FIELDS:
            # a hex's field by its key (`C.home.color`): the map is outside the model, opaque, the same value
            # each time one hex's is read in one translation
            cache = ctx.shared.opaque_fields
            key = (obj, name)
            if key not in cache:
                cache[key] = (obj, Opaque(f"{obj}.{name} (the map's)"))
            return cache[key][1]
        if isinstance(obj, dict):
            if name not in obj:
                raise Unsupported(f"record has no field {name}")
            return obj[name]
        if name == "closed" and (isinstance(obj, Ent) or self.is_ent(obj)):  # any entity's, as GameBase.attr's
            return self.builtins.is_closed(ctx, obj)
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
            known = m.known_ent(obj)
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
                price = m.train_price(item)
                sides = m.side_prices.get(item.name or "")
                ctx.shared.reads.add("train", f"{item.name}.price", (price, sides))
                if price is None:
                    raise GapError(f"train {item.name} price")
                if not sides:
                    return price
                if any(p is None for p in sides):
                    raise GapError(f"a side of train {item.name}: price")
                # a card with other sides (a 4-train sold as a 3/5): its price is the chosen side's,
                # which the buyer chooses (the runtime's `_train_side`); an oracle says which
                v = ctx.fresh(f"train_price:{item.id}", "int")
                ctx.shared.oracles.append(("train_side_price", (item.id,), v))
                ctx.shared.axioms.append(OR(*[v == p for p in [price, *sides]]))
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
        if name == "abilities":  # (as GameBase.ability_records: the component's data)
            return self.builtins.ability_records(ctx, ent)
        if name == "card_abilities":  # (as GameBase.card_ability_records: the abilities of the card it holds)
            return self.builtins.card_ability_records(ctx, ent)
        if ent.kind == "corporation":
            if name == "certificates":
                # as GameBase.attr: its certificates in the order of its layout, the president's first
                return SymList([(Sel([(cert, True)]), True) for cert in m.certs_for(ent.id)])
            if name == "par":
                ctx.require(st[f"has_par:{ent.id}"])
                return st[f"par:{ent.id}"]
            if name in ("started", "floated", "revenue"):  # (started: it has a par price)
                return st[f"{'has_par' if name == 'started' else name}:{ent.id}"]
            if name == "operated":
                # whether it has finished an operating turn: outside the model, an oracle per read
                return self.builtins.oracle(ctx, "operated", (ent.id,))
            if name in TOKEN_FIELDS:
                return self.builtins.token_field(ctx, ent, name)
            if name == "cell":
                return cells.corporation_cell(ctx, ent)  # (its price token's cell, none off the market)
            if name == "closed":
                raise Unsupported(f"corporation state field {name}")
            if name in m.corp_fields:
                return st[f"field:{ent.id}.{name}"]
            if name in m.set_fields:
                # a field the rules set that the model does not follow (a name): any value
                return Opaque(f"{ent.id}.{name}")
        if ent.kind == "minor" and name in CORP_STATE_FIELDS:
            raise Unsupported(f"{ent} is not a corporation: its {name} is the engine's")
        data = m.data.get(ent)
        if data is None:
            raise Unsupported(f"attribute {name} of {ent}")
        ctx.shared.reads.add(ent.kind, f"{ent.id}.{name}", data.get(name))
        if name in data and data[name] is None and name in self.title.kind_defaults(ent.kind):
            return None  # (as GameBase.attr: a parameter its kind declares none by default)
        if name not in data or data[name] is None:
            raise GapError(f"{ent.kind} {ent.id} {name}", "the rulespec does not give it")
        value = data[name]
        from compiler.verify.model import GapValue

        if isinstance(value, GapValue):
            if name == "home" and not m.title.components("hex"):
                # a title whose map is a gap, its homes too (18 Grand Junction's, an overlay's): a home is the
                # map's, any (as b_home_spots reads the map's answer where there are no hexes)
                return Opaque(f"{ent.id}.home")
            raise GapError(f"{ent.kind} {ent.id} {name}", value.reason)
        if isinstance(value, dict) and m.n_players in value:
            value = value[m.n_players]
        return self.lift(value)

    def index(self, coll: Any, i: Any, ctx: Ctx) -> Any:
        if isinstance(coll, cells.CellTerm) and isinstance(i, str):
            return cells.field(self.builtins, ctx, coll, i)  # (`C.cell[direction]`: the cell a move reaches)
        if isinstance(coll, cells.WayTerm):
            return cells.way_at(self.builtins, ctx, coll, i)  # (`X.way[d][n]`: the cell n moves reach)
        if isinstance(coll, Choice):  # (one of several records: `filter(...)[0][field]`)
            return self._of_choice(coll, lambda v: self.index(v, i, ctx))
        if isinstance(coll, AnyAmounts):
            v = ctx.fresh(f"{coll.oracle}:{':'.join(coll.key)}")
            ctx.shared.oracles.append((coll.oracle, coll.key, v))
            ctx.shared.axioms.append(v >= 0)
            return v
        if isinstance(coll, SymList):
            if is_z3(i) and coll.elems and all(truth(c) is True for _, c in coll.elems):
                # a list of fixed length (a title's data: 1880's round-track par_groups) at a symbolic
                # position: one of its elements (the runtime fails on any other position)
                values = [v for v, _ in coll.elems]
                ctx.require(AND(zi(i) >= 0, zi(i) < len(values)))
                result = values[-1]
                for k in reversed(range(len(values) - 1)):
                    result = self.ite(self.eq(i, k), values[k], result)
                return result
            if is_z3(i):
                # a list whose members depend on the state (one of several companies' data, `C.token_prices`
                # of a C the model chooses) at a symbolic position: as at a fixed one, below
                ctx.require(zi(i) >= 0)
            elems = coll.elems
            ctx.require(self.cmp(">", self.length(coll), i))
            # the i-th present element: present and exactly i present before it
            alts = []
            for k, (value, cond) in enumerate(elems):
                before = SUM([IF(c, 1, 0) for _, c in elems[:k]])
                alts.append((value, AND(cond, self.eq(before, i) if is_z3(before) or is_z3(i) else before == i)))
            if all(truth(c) is False for _, c in alts):
                raise DeadPath(ctx.path, f"element {i} of a list that cannot have one")
            alts = [(v, c) for v, c in alts if truth(c) is not False]  # (one that cannot be it is no fallback)
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
        if isinstance(domain, Opaque):
            # over a value the model does not follow (the letters of a name an action gives): any value
            # the engine could find, as for a group the model leaves out
            return self.engines_answer(e, ctx, f"{e.kind}_over_opaque", domain.what)
        domain = self.plain_domain(domain)
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
            value = AND(*[IMPLIES(c, self.truthy(b)) for c, b in parts])
        elif e.kind == "any":
            value = OR(*[AND(c, self.truthy(b)) for c, b in parts])
        elif e.kind == "sum":
            value = SUM([IF(c, b, 0) for c, b in parts])
        elif e.kind == "count":
            value = SUM([IF(AND(c, self.truthy(b)), 1, 0) for c, b in parts])
        elif e.kind in ("greatest", "least"):
            # the greatest (least) of the values of the elements there, 0 where none is (the engine's max, min,
            # default 0)
            op = ">" if e.kind == "greatest" else "<"
            value, seen = 0, False
            for c, b in parts:
                value = IF(AND(c, OR(NOT(seen), self.cmp(op, b, value))), b, value)
                seen = OR(seen, c)
        else:
            raise Unsupported(f"quantifier {e.kind}")
        if truth(domain.beyond) is not False:
            # a range past the model's bound: any value the engine could find there, but for an element held
            # (the list held is a part of the engine's): `any` holds where one of them satisfies the body,
            # `all` fails where one does not
            answer = self.engines_answer(e, ctx, f"{e.kind}_beyond_bound", "a range past the bound")
            if e.kind == "any":
                value = OR(value, AND(domain.beyond, answer))
            elif e.kind == "all":
                value = AND(value, IMPLIES(domain.beyond, answer))
            else:
                value = IF(domain.beyond, answer, value)
        return value

    def filtered(self, e: s.Quantifier, ctx: Ctx) -> "SymList":
        """filter(var in domain: body): the domain's elements, each present where it was and the body
        holds of it, past the domain's bound where it is (`SymList.beyond`). Over the model's members of a
        group only (as every list of the model): a cut-down scope's left-out corporations are in no list."""
        domain = self.plain_domain(self.expr(e.domain, ctx))
        if not isinstance(domain, SymList):
            raise Unsupported(f"filter over {domain!r}")
        elems = []
        for value, cond in domain.elems:
            if truth(cond) is False:
                continue
            sub = ctx.fork(cond)
            sub.locals[e.var] = value
            elems.append((value, AND(cond, self.truthy(self.expr(e.body, sub)))))
        return SymList(elems, beyond=domain.beyond)

    def plain_domain(self, domain: Any) -> Any:
        """A quantifier's domain as a list of the model (`SymList`) where it is a range, a list, tuple or set of
        values, or a name (its letters, as the engine iterates over a string); anything else as it is."""
        if isinstance(domain, tuple) and len(domain) == 3 and domain[0] == "range":
            return self.range_list(domain[1], domain[2])
        if isinstance(domain, str):
            domain = list(domain)
        if isinstance(domain, (set, frozenset)):
            domain = sorted(domain, key=str)  # (a market cell's zones: `greatest(z in c.zones: ...)`, the library's zone_float)
        if isinstance(domain, (list, tuple)):
            return SymList([(x, True) for x in domain])
        return domain

    def range_list(self, low: Any, high: Any, counts_shares: bool = False) -> "SymList":
        """The numbers low..high (both included) as a list: each with the condition that it is within
        the range where `high` is a term. A range's end that is a term counts certificates (the shares
        a corporation issues): it is read up to the most certificates a corporation has in the model;
        beyond that the list says so (`SymList.beyond`: high > the bound), and what is worked out over
        it there is any value, not the cut list's. `counts_shares`: it may count shares too (a sale of
        a president's certificate counted in shares), bounded by the most of either."""
        if is_z3(low) or not isinstance(low, int):
            raise Unsupported("a range whose start is not a number")
        if not is_z3(high):
            return SymList([(k, True) for k in range(low, int(high) + 1)])
        most = max((max(len(self.model.certs_for(c.id)),
                        sum(cert.percent for cert in self.model.certs_for(c.id)) // 10 if counts_shares else 0)
                    for c in self.model.corporations), default=0)
        return SymList([(k, high >= k) for k in range(low, most + 1)], beyond=high > most)

    def _beyond_bound(self, ctx: Ctx, beyond: Any, state_before: dict[str, Any]) -> None:
        """After a `for` over a range read up to the model's bound: where the range goes past it, every
        state variable the loop wrote is any value its domain allows (havocked), as the iterations the
        model did not run could leave it. (A loop's body binds no local outside it: each iteration's
        context has its own.)"""
        written = [name for name, value in ctx.state.items()
                   if not _same_term(state_before.get(name, _MISSING), value)]
        if not written:
            return
        if any(name not in self.model.vars.by_name for name in written):
            raise Unsupported("a loop past the model's bound writes what the model cannot widen")
        sub = Ctx(self, ctx.state, ctx.shared, AND(ctx.path, beyond), ctx.locals)
        sub.havoc(written)
        ctx.state = sub.state

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
        ctx.shared.reads.add("state", decl.name, (decl.element, decl.reset_on, elements))  # (the title may change them)
        ctx.shared.calls.add(decl.name)
        if len(args) != len(decl.element):
            raise Unsupported(f"state {decl.name} has {len(decl.element)} parts; {len(args)} given")
        # a part of an enum or of a component kind is a value named in the rules (a constant, a card); an entity's, a term
        terms = [a if isinstance(part, (str, Item)) else self.as_ent(a)
                 for a, part in zip(args, elements[0] if elements else ())]
        out = []
        for parts in elements:
            cond = AND(*[self._part_is(term, part) for term, part in zip(terms, parts)])
            if truth(cond) is not False:
                out.append((state_var(decl.name, parts), cond))
        return out

    def _part_is(self, term: Any, part: Ent | Item | str) -> Any:
        if isinstance(part, Item):
            # a certificate: the alternatives the term may be that are it
            return OR(*[cond for item, cond in self.as_sel(term).alts if item.id == part.id])
        if not isinstance(part, str):
            return self.ent_is(term, part)
        if isinstance(term, CardRef):  # a part of the title's `ability_cards` kind: by the card's index
            return self.eq(term.index, self.card_number(part))
        if isinstance(term, Sel):  # a train type given a train (`obsolete_trains(t)`): the alternatives of that type
            return OR(*[cond for item, cond in term.alts if item.kind == "train" and item.name == part])
        if not isinstance(term, (str, Choice)):  # (a Choice: one of several records' names, `powers[0].effect`)
            raise Unsupported(f"a value of an enum or a component that is not named ({term!r})")
        return self.eq(term, part)

    def state_has(self, decl: s.StateDecl, args: list[Any], ctx: Ctx) -> Any:
        """`NAME(a, b)`: whether (a, b) is in the state (an element outside the scope never is); of an
        amount (`map[..., int]`), its amount (0 for an element outside the scope, as the engine's unset)."""
        matches = self._state_matches(decl, args, ctx)
        if decl.is_amount:
            return SUM([IF(cond, ctx.state[name], 0) for name, cond in matches])
        return OR(*[AND(cond, ctx.state[name]) for name, cond in matches])

    def state_set(self, decl: s.StateDecl, args: list[Any], value: Any, ctx: Ctx) -> None:
        """`set NAME(a, b) = v`: (a, b) put in the state (v true) or taken out (v false), on the path; of an
        amount, (a, b)'s amount becomes v."""
        if not decl.is_amount:
            value = self.truthy(value)
        for name, cond in self._state_matches(decl, args, ctx):
            ctx.state[name] = IF(AND(ctx.path, cond), value, ctx.state[name])

    def call_routine(self, clause: Clause, args: list[Any], kwargs: dict[str, Any], ctx: Ctx) -> Any:
        decl: s.Routine = clause.decl  # type: ignore[assignment]
        if ctx.shared.depth > 30:
            raise Unsupported(f"recursion in {decl.name}")
        ctx.shared.reads.add_frozen(decl.kind, decl.name, decl)
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
        # (the state's names and values, to tell the body changed none: in order, by identity)
        names, values = list(ctx.state), list(ctx.state.values())
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
        if (sub.state is not ctx.state or list(ctx.state) != names
                or not all(map(operator.is_, ctx.state.values(), values))):
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
                self.state_set(self.states[st.target.func.name], args, self.expr(st.value, ctx), ctx)
            elif isinstance(st.target, s.Name) and st.target.name in ctx.locals:
                ctx.locals[st.target.name] = self.expr(st.value, ctx)
            else:
                raise Unsupported("`set` of something that is not a local, an entity's field or a state's element")
        elif isinstance(st, s.Let):
            ctx.locals[st.name] = self.expr(st.value, ctx)
        elif isinstance(st, s.If):
            # Every state update is guarded by its context's path condition, and the branches'
            # paths exclude each other: the branches run one after the other on the same state,
            # which keeps sums linear (no if-then-else of whole states).
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
            state_before = dict(ctx.state)
            for value, cond in domain.elems:
                if truth(cond) is False:
                    continue
                sub = Ctx(self, ctx.state, ctx.shared, AND(ctx.path, cond), ctx.locals)
                sub.locals[st.var] = value
                self.stmts(st.body, sub)
                ctx.state = sub.state
            if truth(domain.beyond) is not False:
                self._beyond_bound(ctx, domain.beyond, state_before)
            if self.model.truncated and isinstance(st.domain, s.Name) and st.domain.name == "corporations" \
                    and "corporations" not in ctx.locals:
                # the corporations the scope leaves out: what their iterations may change of the state the
                # model keeps, over-approximated, or noted in the report (`left_out`)
                translate_left_out(self, st, ctx)
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
                if self._chosen(value) and self._chosen(into[name]) and not (isinstance(value, str) and value == into[name]):
                    # two names (or records) a local holds after the branches: the later branch's, as before
                    # `ite` chose between names (a `Choice` is read by no builtin)
                    into[name] = value
                    continue
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


class Builtins(StateBuiltins, MapBuiltins, EffectBuiltins, AbilityBuiltins):
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
