"""Stage 4, check (expression types): what a rule's expressions certainly are, where the engine
or its z3 model would fail on them. Part of `compiler.lang.typecheck`, whose `Checker` runs these
checks (`ExpressionTypes`); it imports this module, never the other way.

- E038 a value certainly of the wrong type for where it is: a `for` over no collection, a condition
  that is no true or false, a `set` of a state to a value its type does not take, arithmetic on no
  number, a `transfer` of no amount or to or from what holds no money;
- E039 a routine, trigger or invariant nested deeper than the engine's Python can run;
- E040 an enum's value compared with a property that reads as something else of the same name
  (`first_round == private_sale` where `private_sale` is also a property, a component or a local).
"""

from __future__ import annotations

from collections import Counter

from compiler.diagnostics import Diagnostic, error
from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.lang.schema import SCALARS, nearest


#: how deep the engine's Python can nest what a rule nests: loops one inside another (CPython's 20
#: statically nested blocks), blocks (its 100 levels of indentation, less the function's own) and
#: operations in one expression (its 200 nested parentheses, less what the emitter wraps around them)
NESTING_LIMITS = {"loop": 20, "block": 90, "expression": 150}
_EXPRESSIONS = (s.ListLit, s.SetLit, s.MapLit, s.Record, s.Range, s.Unary, s.Binary, s.Cond, s.Member, s.Call,
                s.Index, s.Quantifier, s.MatchExpr)


def _too_deep(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[str, int, object] | None:
    """The first place in a routine, trigger or invariant nested deeper than `NESTING_LIMITS`: (what,
    how deep, the node), or None. Iterative: a rule nested a few hundred deep would exhaust the
    recursion of a walk that recursed."""
    stack: list[tuple[object, int, int, int]] = [(decl, 0, 0, 0)]
    while stack:
        item, loops, blocks, exprs = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend((x, loops, blocks, exprs) for x in reversed(item))
            continue
        fields = getattr(item, "__dataclass_fields__", None)
        if fields is None:
            continue
        if isinstance(item, s.For):
            loops, blocks = loops + 1, blocks + 1
        elif isinstance(item, (s.If, s.Match)):
            blocks += 1
        elif isinstance(item, _EXPRESSIONS):
            exprs += 1
        for what, depth in (("loop", loops), ("block", blocks), ("expression", exprs)):
            if depth > NESTING_LIMITS[what]:
                return what, depth, item
        stack.extend((getattr(item, name), loops, blocks, exprs) for name in reversed(list(fields))
                     if name not in ("span", "prov", "value_spans"))
    return None


_too_deep = s.ByNode(_too_deep)


#: the arithmetic operators: a number's or money's, no component's
_ARITHMETIC = ("+", "-", "*", "/", "mod")


#: the quantifiers that add or compare their bodies' values as numbers (0 over no element)
_NUMERIC_QUANTIFIERS = ("sum", "greatest", "least")


def _money_sites(decl: s.Routine | s.Trigger | s.Invariant) -> tuple[tuple, tuple, frozenset, tuple]:
    """The arithmetic (`+ - * / mod`, and the `sum`, `greatest` and `least` quantifiers) and the transfers
    of a routine, trigger or invariant, the names its quantifiers bind, and each `for` or quantifier's
    (variable, the name it goes over, or None), in the order of `walk`."""
    nodes = list(s.walk(decl))
    arithmetic = tuple(n for n in nodes if (isinstance(n, s.Binary) and n.op in _ARITHMETIC)
                       or (isinstance(n, s.Quantifier) and n.kind in _NUMERIC_QUANTIFIERS))
    transfers = tuple(n for n in nodes if isinstance(n, s.Transfer))
    bound = frozenset(n.var for n in nodes if isinstance(n, s.Quantifier))
    loops = tuple((n.var, n.domain.name if isinstance(n.domain, s.Name) else None)
                  for n in nodes if isinstance(n, (s.For, s.Quantifier)))
    return arithmetic, transfers, bound, loops


#: the runtime's lists of components (`compiler.lang.builtins.VALUES`): the kind of each element
_COMPONENT_LISTS = {"players": "player", "corporations": "corporation", "privates": "private", "minors": "minor",
                    "bonds": "bond"}


_money_sites = s.ByNode(_money_sites)


def shape(expr) -> str:
    """How a message names what a value is."""
    if isinstance(expr, s.Int) or (isinstance(expr, s.Unary) and isinstance(expr.operand, s.Int)):
        return "a number"
    if isinstance(expr, s.Money):
        return "money"
    if isinstance(expr, s.Percent):
        return "a percentage"
    if isinstance(expr, s.Str):
        return "a string"
    if isinstance(expr, s.Bool):
        return "true or false"
    if isinstance(expr, s.NoneLit):
        return "none"
    if isinstance(expr, s.Name):
        return f"the name `{expr.name}`"
    if isinstance(expr, (s.ListLit, s.SetLit)):
        return "a list"
    if isinstance(expr, s.MapLit):
        return "a map"
    if isinstance(expr, s.Record):
        return "a record"
    if isinstance(expr, s.Range):
        return "a range"
    if isinstance(expr, s.Call):
        return "a call"
    return "an expression"


#: the operators whose result is true or false
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


def _certain_type(expr, states: dict[str, s.StateDecl]) -> str | None:
    """What an expression certainly is, as a message names it (`shape`'s words), or None where it is
    not certain without types the checker does not have: a literal, a negated number, a comparison or
    `not`, a read of a declared state (true or false; an amount's number or money)."""
    if isinstance(expr, s.Unary):
        if expr.op == "not":
            return "true or false"
        return _certain_type(expr.operand, states) if isinstance(expr.operand, (s.Int, s.Money, s.Percent)) else None
    if isinstance(expr, s.Binary):
        return "true or false" if expr.op in _COMPARISONS else None
    if isinstance(expr, s.Call) and isinstance(expr.func, s.Name) and expr.func.name in states:
        state = states[expr.func.name]
        if state.is_amount:
            return "money" if state.type.alternatives == ("money",) else "a number"
        return "true or false"
    if isinstance(expr, (s.Int, s.Money, s.Percent, s.Str, s.Bool, s.NoneLit, s.ListLit, s.SetLit, s.MapLit,
                         s.Range)):
        return shape(expr)
    return None


#: the types whose values are no collection: numbers, money, flags, strings and the runtime's components
_SINGLE_TYPES = frozenset({"int", "money", "percent", "bool", "string", "player", "corporation", "minor", "private",
                           "bond", "company", "train", "certificate"})


#: the runtime's components, of which a literal number, string or list is none
_COMPONENT_TYPES = frozenset({"player", "corporation", "minor", "private", "bond", "company", "train", "certificate"})


#: the builtin holders (`compiler.lang.builtins.VALUES`) that are one thing, no number: those that hold
#: money (`GameBase.cash`: the bank), and those that hold none, where a `transfer` would fail in play
_MONEY_HOLDERS = {"bank": "the bank"}
_NO_MONEY_HOLDERS = {"pool": "the bank pool", "initial_offering": "the IPO", "depot": "the depot",
                     "scrap": "the scrap"}
#: every builtin holder's name, what it is (`slips.py` and `authoring.py` read it too)
HOLDERS = {**_MONEY_HOLDERS, **_NO_MONEY_HOLDERS}
#: the runtime's components that hold money (`GameBase.cash`): a player, a corporation, a minor
_MONEY_COMPONENTS = frozenset({"player", "corporation", "minor"})


#: the components whose fields a rule may `set` (`DslSupport.set_attr`: a corporation's, a minor's record;
#: a `company` may be either)
_SETTABLE = frozenset({"corporation", "minor", "company"})
#: the one field of the others a rule may `set`: whether it is closed (the library's close_private)
_SETTABLE_FIELDS = {"private": frozenset({"closed"})}


def _component_types(type_: s.TypeRef) -> frozenset[str] | None:
    """The component kinds a parameter of type `type_` certainly is one of (`_COMPONENT_TYPES`), or None
    when it may be something else (a number, a list, an enum's value, a kind of the title's)."""
    if type_.is_list or type_.is_set or type_.key is not None or type_.parts or type_.values:
        return None
    alts = type_.alternatives
    if alts and all(isinstance(a, str) and a in _COMPONENT_TYPES for a in alts):
        return frozenset(alts)
    return None


def _unassignable(target, decl, states: dict, clauses: dict[str, str]) -> str | None:
    """Why `set TARGET = ...` names nothing the engine can assign (as `compiler.emit.emitter` lowers it: an
    entity's field, a declared state's element, a local), or None: `set cert_limit = 5` (a property) or
    `set can_buy(P) = true` (a function) checked clean and the emitter refused the title in play."""
    if isinstance(target, s.Member):
        return None
    if isinstance(target, s.Call) and isinstance(target.func, s.Name):
        name = target.func.name
        if name in states and not target.kwargs:
            return None
        kind = clauses.get(name)
        return f"`{name}` is {'a ' + kind if kind else 'no declared state'}" + (
            ", not a state" if kind and kind != "state" else "")
    if isinstance(target, s.Name):
        local = {p.name for p in decl.params} if isinstance(decl, s.Routine) else \
            {a.name for a in decl.event.args if isinstance(a, s.Name)}
        local |= {node.name for node in s.walk(decl.body) if isinstance(node, s.Let)}
        local |= {node.var for node in s.walk(decl.body) if isinstance(node, s.For)}
        if target.name in local:
            return None
        kind = clauses.get(target.name)
        return f"`{target.name}` is {'a ' + kind + ' of the title' if kind else 'no local of the rule'}"
    return "this is none of them"


def typed_params(decl) -> dict[str, frozenset[str]]:
    """A routine's parameters typed by components only (`P: player`), where nothing in its body binds the
    name again (a `let`, a `for`, a quantifier's variable): what each certainly is, by its kinds."""
    if not isinstance(decl, s.Routine):
        return {}
    bound = {node.name for node in s.walk(decl.body) if isinstance(node, s.Let)} \
        | {node.var for node in s.walk(decl.body) if isinstance(node, (s.For, s.Quantifier))}
    out = {}
    for param in decl.params:
        kinds = _component_types(param.type)
        if kinds and param.name not in bound:
            out[param.name] = kinds
    return out


#: the component kinds that one value may be under either name: a company is a corporation, a minor or a
#: private; a minor is a corporation of the runtime (the library's procedures take it as one)
_ALSO = {"company": {"corporation", "minor", "private"}, "corporation": {"minor", "company"},
         "minor": {"corporation", "company"}, "private": {"company"}}


def kinds_meet(given: frozenset[str], wanted) -> bool:
    """Whether a value of one of the kinds `given` may be of one of the kinds `wanted`."""
    return any(g == w or w in _ALSO.get(g, ()) for g in given for w in wanted)


def _no_collection(type_: s.TypeRef) -> bool:
    """Whether a parameter of type `type_` is certainly no collection: no list, set or map, and every
    alternative a number, money, a flag, a string, a component, or an inline enum's value."""
    if type_.is_list or type_.is_set or type_.key is not None or type_.parts:
        return False
    if type_.values and not type_.alternatives:
        return True
    return bool(type_.alternatives) and all(isinstance(a, str) and a in _SINGLE_TYPES for a in type_.alternatives)



class ExpressionTypes:
    """The E038 and E039 checks of `Checker` (`compiler.lang.typecheck`), which runs them."""

    title: Title
    out: list[Diagnostic]

    def _nesting(self) -> None:
        """E039 for a routine, trigger or invariant nested deeper than the engine's Python can run
        (`NESTING_LIMITS`): 21 `for`s one inside another, a hundred `if`s, a sum of 200 terms checked
        clean, and the engine did not compile (a SyntaxError or IndentationError from `rulec play`)."""
        words = {"loop": ("`for` loops one inside another", "write the inner loops as a procedure of their own"),
                 "block": ("blocks (`if`, `for`, `match`) one inside another",
                           "write the inner blocks as a procedure of their own"),
                 "expression": ("operations one inside another in an expression",
                                "split it with `let`s, or a function of its own")}
        for clause in self.title.clauses:
            if not isinstance(clause.decl, (s.Routine, s.Trigger, s.Invariant)):
                continue
            found = _too_deep(clause.decl)
            if found is None:
                continue
            what, depth, node = found
            said, help_ = words[what]
            self.out.append(error(
                "E039", f"{clause.decl.name} nests {depth} {said}: the engine runs at most {NESTING_LIMITS[what]}",
                getattr(node, "span", None) or clause.decl.span, help=help_))

    def _loop_locals(self) -> None:
        """E038 for a `set` of a local inside a `for` that the loop's body did not bind (a `let` of its own, or
        the loop's variable): the engine's Python carries the value out of the loop and into its next
        iteration, the z3 model gives each iteration its own locals (`Translator.stmt`), so the two would
        read different values after it (a count kept across a loop's iterations stayed 0 in the model)."""
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger)) or isinstance(decl, s.Routine) and decl.kind == "function":
                continue
            for loop in s.walk(decl.body):
                if not isinstance(loop, s.For):
                    continue
                bound = {loop.var} | {n.name for n in s.walk(loop.body) if isinstance(n, s.Let)}
                for node in s.walk(loop.body):
                    if isinstance(node, s.Assign) and isinstance(node.target, s.Name) and node.target.name not in bound:
                        self.out.append(error(
                            "E038", f"`set {node.target.name}` inside a `for` changes a local bound outside the "
                                    "loop: each of the loop's turns has its own locals in the verifier's model",
                            node.span or loop.span,
                            help="count or add up with a quantifier after the loop (`count(x in xs: ...)`, "
                                 "`sum(...)`), or read the state the loop changed"))

    # -- the types of a rule's expressions, where they are certain
    def _expression_types(self) -> None:
        """E038 for a `for` over what is certainly no collection (a number, money, a percentage, a
        string, true or false, none, a comparison, a flag or amount state read), and a `set` of a declared
        state to a value its type certainly does not take (a flag or a set's membership to anything but
        true or false; an amount to true or false, a string, a percentage, none or a collection): the engine
        would stop on a TypeError where play reaches the loop, or keep a value the z3 model reads as
        another type. A routine's parameter typed a number or a component (`n: int`) counts as what it
        is: no collection to go over, no condition of an `if`, `elif`, `require` or `unless` (nor is a
        literal or an amount read there: the engine would take the number's truth, the z3 translation meet
        an integer for a condition). Only literals, parameters and what they certainly are count; a name or
        a call of unknown type is left alone."""
        from compiler.lang.ir import statements

        states = {clause.decl.name: clause.decl for clause in self.title.clauses if isinstance(clause.decl, s.StateDecl)}
        clauses = {clause.name: clause.kind for clause in self.title.clauses}
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, s.Invariant):
                # `invariant x { 3 }`: the monitor took the number's truth and never failed
                what = _certain_type(decl.expr, states)
                if what not in (None, "true or false"):
                    self.out.append(error(
                        "E038", f"invariant `{decl.name}` states {what}, not true or false",
                        decl.expr.span or decl.span,
                        help="an invariant is a condition every state meets: a comparison (`cash(h) >= 0`), "
                             "`all(x in xs: ...)`, `not`, a flag"))
                continue
            if not isinstance(decl, (s.Routine, s.Trigger)):
                continue
            shadowed = {p.name for p in decl.params} if isinstance(decl, s.Routine) else set()
            shadowed |= {st.name for st in statements(decl.body) if isinstance(st, s.Let)}
            shadowed |= {st.var for st in statements(decl.body) if isinstance(st, s.For)}
            own = {name: state for name, state in states.items() if name not in shadowed}
            # a routine's parameters typed by what is no collection (a number, a component), where no
            # `let` or `for` of the same name hides them
            rebound = {st.name for st in statements(decl.body) if isinstance(st, s.Let)} \
                | {st.var for st in statements(decl.body) if isinstance(st, s.For)}
            single = {p.name: p for p in decl.params if p.name not in rebound and _no_collection(p.type)} \
                if isinstance(decl, s.Routine) else {}
            for stmt in statements(decl.body):
                conditions = ([("if" if i == 0 else "elif", cond) for i, (cond, _) in enumerate(stmt.branches)]
                              if isinstance(stmt, s.If) else
                              [("require", stmt.cond), ("unless", stmt.unless)] if isinstance(stmt, s.Require) else [])
                for word, cond in conditions:
                    if cond is None:
                        continue
                    if isinstance(cond, s.Name) and cond.name in single and "bool" not in single[cond.name].type.alternatives:
                        param = single[cond.name]
                        what = f"the parameter `{param.name}: {param.type}`"
                    else:
                        what = _certain_type(cond, own)
                        if what in (None, "true or false"):
                            continue
                    self.out.append(error(
                        "E038", f"`{word}` asks {what}, not true or false", cond.span or stmt.span,
                        help="a condition is true or false: a comparison (`n > 0`), `not`, a flag, a test builtin"))
                if isinstance(stmt, s.For) and isinstance(stmt.domain, s.Name) and stmt.domain.name in single:
                    param = single[stmt.domain.name]
                    self.out.append(error(
                        "E038", f"`for {stmt.var} in ...` goes over the parameter `{param.name}: {param.type}`, "
                                "not a collection",
                        stmt.domain.span or stmt.span,
                        help="a `for` goes over a list, a set or a map: players, corporations, "
                             "trains(corporation), a list parameter, ..."))
                elif isinstance(stmt, s.For):
                    what = _certain_type(stmt.domain, own)
                    if what is not None and what not in ("a list", "a map", "a range"):
                        self.out.append(error(
                            "E038", f"`for {stmt.var} in ...` goes over {what}, not a collection",
                            stmt.domain.span or stmt.span,
                            help="a `for` goes over a list, a set or a map: players, corporations, "
                                 "trains(corporation), a list parameter, ..."))
                elif isinstance(stmt, s.Assign) and (why := _unassignable(stmt.target, decl, own, clauses)):
                    self.out.append(error(
                        "E038", f"`set` assigns to a local, an entity's field or a declared state's element; {why}",
                        stmt.target.span or stmt.span,
                        help="keep what the rule changes in a `state` (`state NAME: ...`, `set NAME(...) = ...`), "
                             "or name a `let` of the routine; the engine could not be built"))
                elif isinstance(stmt, s.Assign) and isinstance(stmt.target, s.Member) \
                        and isinstance(stmt.target.obj, s.Name) and stmt.target.obj.name in single:
                    param = single[stmt.target.obj.name]
                    kinds = _component_types(param.type)
                    if kinds and not kinds & _SETTABLE and not all(
                            stmt.target.name in _SETTABLE_FIELDS.get(k, ()) for k in kinds):
                        self.out.append(error(
                            "E038", f"`set {param.name}.{stmt.target.name}` sets a field of the parameter "
                                    f"`{param.name}: {param.type}`: only a corporation's or a minor's fields "
                                    "(and a private's closed) are set",
                            stmt.target.span or stmt.span,
                            help="the engine refuses it every time (`cannot set`): keep what the rule needs in a "
                                 "`state` (`state NAME: set[player] ...`, `set NAME(x) = true`)"))
                elif isinstance(stmt, s.Assign) and isinstance(stmt.target, s.Call) \
                        and isinstance(stmt.target.func, s.Name) and stmt.target.func.name in own:
                    state = own[stmt.target.func.name]
                    what = _certain_type(stmt.value, own)
                    if what is None:
                        continue
                    if state.is_amount:
                        takes = SCALARS.get(state.type.alternatives[0], state.type.alternatives[0])
                        wrong = what not in ("a number", "money")
                    else:
                        takes = "true or false"
                        wrong = what != "true or false"
                    if wrong:
                        self.out.append(error(
                            "E038", f"state `{state.name}` is {state.type}: `set` takes {takes}, not {what}",
                            stmt.value.span or stmt.span,
                            help=f"state {state.name} is declared at {state.span.path}:{state.span.line}"
                                 + ("" if state.is_amount else "; `set NAME(...) = true` puts an element in, "
                                                                "`= false` takes it out")))

    # -- arithmetic and money on what is no number, no holder of money
    def _money_and_arithmetic(self) -> None:
        """E038 for arithmetic (`+ - * / mod`) on what is certainly no number: a parameter typed a component
        (`corporation + 1` with `corporation: corporation`), a holder (`bank`, `pool`, ...), true or false
        (a literal, a comparison, `not`, a flag state read) or none; and for a `transfer` whose amount is
        certainly no number or money (a string, a percentage, true or false, none, a collection, a
        component or a holder), or whose source or target certainly holds no money: the bank pool, the IPO,
        the depot, the scrap, a parameter typed a private, a train, a certificate or a bond, or a literal.
        The engine stopped in play on a TypeError or a KeyError (`GameBase.cash` has no entry for it); the
        z3 model counted the money as gone. Only literals, parameters not rebound by a `let`, `for` or
        quantifier, and the builtin holders not shadowed count; a name or call of unknown type is left alone."""
        from compiler.lang.ir import statements

        states = {clause.decl.name: clause.decl for clause in self.title.clauses if isinstance(clause.decl, s.StateDecl)}
        for clause in self.title.clauses:
            decl = clause.decl
            if not isinstance(decl, (s.Routine, s.Trigger)):
                continue
            arithmetic, transfers, bound, loops = _money_sites(decl)
            # `P > 3` with `P: player`: the engine stopped on "'>' not supported between 'Entity' and 'int'"
            orderings = [n for n in s.walk(decl) if isinstance(n, s.Binary) and n.op in ("<", "<=", ">", ">=")]
            if not arithmetic and not transfers and not orderings:
                continue
            params = {p.name: p for p in decl.params} if isinstance(decl, s.Routine) else {}
            lets = [st.name for st in statements(decl.body) if isinstance(st, s.Let)]
            rebound = set(lets) | {st.var for st in statements(decl.body) if isinstance(st, s.For)} | bound
            if isinstance(decl, s.Trigger):
                rebound |= {a.name for a in decl.event.args if isinstance(a, s.Name)}
            components = {name: kinds for name, p in params.items()
                          if name not in rebound and (kinds := _component_types(p.type)) is not None}
            own = {name: state for name, state in states.items() if name not in rebound and name not in params}
            # a variable bound once, by a `for` or quantifier over the players, corporations, ... (not
            # themselves rebound): an element of that list, wherever it is read
            times = Counter([var for var, _ in loops] + lets + list(params) + (
                [a.name for a in decl.event.args if isinstance(a, s.Name)] if isinstance(decl, s.Trigger) else []))
            elements = {var: _COMPONENT_LISTS[over] for var, over in loops
                        if times[var] == 1 and over in _COMPONENT_LISTS and over not in params and over not in lets}

            def holder(expr) -> tuple[str, bool] | None:
                """(how a message names it, whether it holds money) where `expr` is certainly one thing."""
                if isinstance(expr, s.Name) and expr.name in elements:
                    kind = elements[expr.name]
                    return f"`{expr.name}`, a {kind}", kind in _MONEY_COMPONENTS
                if not isinstance(expr, s.Name) or expr.name in rebound or (expr.name in params and expr.name not in components):
                    return None
                if expr.name in components:
                    param = params[expr.name]
                    return f"the parameter `{param.name}: {param.type}`", components[expr.name] <= _MONEY_COMPONENTS
                if expr.name in _MONEY_HOLDERS:
                    return _MONEY_HOLDERS[expr.name], True
                if expr.name in _NO_MONEY_HOLDERS:
                    return _NO_MONEY_HOLDERS[expr.name], False
                return None

            def no_number(expr) -> str | None:
                """How a message names `expr` where it is certainly no number and no money."""
                found = holder(expr)
                if found is not None:
                    return found[0]
                what = _certain_type(expr, own)
                return what if what in ("true or false", "none", "a string", "a list", "a map", "a range") else None

            for node in arithmetic:
                if isinstance(node, s.Quantifier):
                    what = no_number(node.body)
                    if what is not None:
                        self.out.append(error(
                            "E038", f"`{node.kind}` is arithmetic on {what}, not on a number or money",
                            node.body.span or node.span,
                            help=f"`{node.kind}(x in LIST: EXPR)` adds or compares numbers, money or percentages; "
                                 "`count(x in LIST: CONDITION)` counts the elements a condition holds for"))
                    continue
                for side in (node.left, node.right):
                    what = no_number(side)
                    if what is None or (what == "a string" and node.op == "+") or \
                            (what in ("a list", "a map", "a range") and node.op in ("+", "-")):
                        continue  # a string's or a collection's own `+`, `-`: the engine's Python has them
                    self.out.append(error(
                        "E038", f"`{node.op}` is arithmetic on {what}, not on a number or money",
                        side.span or node.span,
                        help="arithmetic takes numbers, money and percentages: a component's number is one of its "
                             "properties or a builtin's answer (`price(corporation)`, `cash(corporation)`)"))
                    break
            for node in orderings:
                for side in (node.left, node.right):
                    found = holder(side)
                    if found is None:
                        continue
                    self.out.append(error(
                        "E038", f"`{node.op}` orders {found[0]}, which is no number or money", side.span or node.span,
                        help="`<`, `>` compare numbers, money and percentages: a component's number is one of its "
                             "properties or a builtin's answer (`price(corporation)`, `cash(player)`)"))
                    break
            for node in transfers:
                what = no_number(node.amount)
                if what is None and _certain_type(node.amount, own) == "a percentage":
                    what = "a percentage"
                if what is not None:
                    self.out.append(error(
                        "E038", f"`transfer` moves an amount of money, not {what}", node.amount.span or node.span,
                        help="write the amount as money or a number: `transfer $20 from ...`, "
                             "`transfer price(corporation) * 2 from ...`"))
                for word, end in (("from", node.source), ("to", node.target)):
                    found = holder(end)
                    if found is not None and found[1]:
                        continue
                    what = found[0] if found is not None else _certain_type(end, own)
                    if what is None:
                        continue
                    self.out.append(error(
                        "E038", f"`transfer ... {word}` names {what}, which holds no money",
                        end.span or node.span,
                        help="money is held by the bank, the players, the corporations and the minors; "
                             "a certificate, private, train or bond moves by `move`"))


def _comparisons(node) -> list[s.Binary]:
    """Every `==`, `!=`, `in` and `not in` in a rule or condition, outermost first."""
    return [item for item in s.walk(node) if isinstance(item, s.Binary) and item.op in ("==", "!=", "in", "not in")]


def _read(decl) -> tuple:
    """What a routine, trigger or invariant reads: a routine's body and (a function's) result, a
    trigger's `when` and body, an invariant's expression."""
    if isinstance(decl, s.Routine):
        return (decl.body, decl.result)
    if isinstance(decl, s.Trigger):
        return (decl.event.when, decl.body)
    return (decl.expr,)


def _locals(decl) -> set[str]:
    """The names a routine, trigger or invariant binds itself: its parameters, `let`s, `for` and
    quantifier variables, its event's arguments (a binding anywhere in it counts: a name bound there
    is not read as a property)."""
    from compiler.lang.ir import statements

    names = {p.name for p in decl.params} if isinstance(decl, s.Routine) else set()
    if isinstance(decl, s.Trigger):
        names |= {a.name for a in decl.event.args if isinstance(a, s.Name)}
    for st in statements(getattr(decl, "body", ())):
        if isinstance(st, s.Let):
            names.add(st.name)
        elif isinstance(st, s.For):
            names.add(st.var)
    names |= {item.var for item in s.walk(_read(decl)) if isinstance(item, s.Quantifier)}
    return names


def _inline_values(type_: s.TypeRef) -> list[str]:
    """The values a type lists itself (`{a, b}`), in it or in its alternatives."""
    out = list(type_.values)
    for alt in type_.alternatives:
        if isinstance(alt, s.TypeRef):
            out.extend(_inline_values(alt))
    return out


class EnumValuesRead:
    """E040, run by `Checker` (`compiler.lang.typecheck`): a comparison of a title property typed by an
    enum with a name that is one of its values and also names something else (another property, a
    component, a local, a builtin holder): `first_round == private_sale` where `private_sale` is also a
    property, `held_shares_on_close == pool` (the bank pool). The
    engine, the z3 model and `required when` all read such a name as that other thing (the property's
    value, the component), so the comparison silently asks something else than it says."""

    title: Title
    out: list[Diagnostic]

    def _enum_values_read_as_names(self) -> None:
        params = self.schema.params
        components = set()
        for kind in ("corporation", "private", "bond", "minor"):
            components |= self.schema.keys.get(kind, set())

        def values_of(type_: s.TypeRef | None, listed: bool = False) -> tuple[str, ...]:
            """The enum values a value of `type_` is one of; `listed`: those a list or set of that type
            holds (`withhold in dividend_kinds`)."""
            values: list[str] = []

            def one_of(alts) -> None:
                for alt in alts:
                    if isinstance(alt, str) and alt in self.schema.enums:
                        values.extend(self.schema.enums[alt])
                    elif isinstance(alt, s.TypeRef) and not (alt.is_list or alt.is_set or alt.key is not None):
                        values.extend(alt.values)

            if type_ is None or type_.key is not None or type_.parts:
                return ()
            if not listed:
                if not (type_.is_list or type_.is_set):
                    values.extend(type_.values)
                    one_of(type_.alternatives)
            elif type_.is_list or type_.is_set:
                one_of(type_.alternatives)
            else:
                for alt in type_.alternatives:
                    if isinstance(alt, s.TypeRef) and (alt.is_list or alt.is_set) and alt.key is None:
                        one_of(alt.alternatives)
            return tuple(values)

        #: every enum value of the schema, with the enum (or the property whose type lists it) it is one of
        elsewhere: dict[str, str] = {}
        for enum, members in self.schema.enums.items():
            for member in members:
                elsewhere.setdefault(member, f"enum `{enum}`")
        for owner in [self.schema.params, *(k.params for k in self.schema.kinds.values())]:
            for param in owner.values():
                for member in _inline_values(param.type):
                    elsewhere.setdefault(member, f"`{param.name}`")

        def only_enum(subject: s.Name) -> bool:
            """Whether a name compared is a title's property whose type is enum values alone (not a kind's
            keys, a number, none, ...): a name that is none of them is never its value."""
            param = params.get(subject.name)
            if param is None or subject.name in local_names:
                return False
            type_ = param.type
            return not (type_.is_list or type_.is_set or type_.key is not None or type_.parts) and all(
                isinstance(alt, str) and alt in self.schema.enums
                or isinstance(alt, s.TypeRef) and alt.values and not (alt.is_list or alt.is_set or alt.key is not None)
                for alt in type_.alternatives) and bool(type_.alternatives or type_.values)

        local_names: set[str] = set()

        def check(expr, local: dict[str, str], where: str, typed: dict[str, s.TypeRef] | None = None) -> None:
            """`local`: the names read as something of the rule's own (what each is); `typed`: the types
            of those of them that are compared as a property is (a routine's parameters, a kind's
            properties in its `required when`)."""
            typed = typed or {}
            local_names.clear()
            local_names.update(local)
            for cmp in _comparisons(expr):
                # (the name compared, what it is compared with, whether the name is a list the other is sought in)
                sides = [(cmp.left, cmp.right, False), (cmp.right, cmp.left, True)] if cmp.op in ("in", "not in") \
                    else [(cmp.left, cmp.right, False), (cmp.right, cmp.left, False)]
                for subject, other, listed in sides:
                    if not isinstance(subject, s.Name):
                        continue
                    if subject.name in local:
                        values = values_of(typed.get(subject.name), listed)
                    else:
                        values = values_of(params[subject.name].type if subject.name in params else None, listed)
                    if not values:
                        continue
                    items = other.items if isinstance(other, (s.ListLit, s.SetLit)) and cmp.op in ("in", "not in") \
                        and not listed else [other]
                    for item in items:
                        if isinstance(item, s.Name) and item.name not in values and item.name not in local \
                                and item.name not in params and item.name not in components \
                                and item.name in elsewhere and only_enum(subject):
                            self.out.append(error(
                                "E026", f"`{subject.name}` is one of {', '.join(f'`{v}`' for v in values)}, never "
                                f"`{item.name}` (a value of {elsewhere[item.name]}): "
                                + ("that item of the list never matches" if len(items) > 1 or listed else
                                   f"the comparison is always {'false' if cmp.op in ('==', 'in') else 'true'}")
                                + where, item.span or cmp.span,
                                expected=values, suggestions=tuple(nearest(item.name, values))))
                            continue
                        if not isinstance(item, s.Name) or item.name not in values:
                            continue
                        if item.name in local:
                            what = local[item.name]
                        elif item.name in params:
                            what = f"the property `{item.name}`"
                        elif item.name in components:
                            what = f"the component `{item.name}`"
                        elif item.name in HOLDERS:
                            what = f"the builtin holder `{item.name}` ({HOLDERS[item.name]})"
                        else:
                            continue
                        self.out.append(error(
                            "E040", f"`{item.name}` here is {what}, not the value {item.name} of `{subject.name}`: "
                            f"the comparison asks something else than it says{where}",
                            item.span or cmp.span,
                            help=f"rename {what}" + ("" if where or listed else f", or compare with `match {subject.name} "
                                 f"{{ {item.name} => ... }}` (a `match` case names the enum's value)")))

        for param in params.values():
            if param.required_when is not None:
                check(param.required_when, {}, " (a `required when` reads names as the title's properties)")
        for kind in self.schema.kinds.values():
            for param in kind.params.values():
                if param.required_when is not None:
                    check(param.required_when, {n: f"the {kind.name}'s property `{n}`" for n in kind.params},
                          " (a `required when` reads names as the properties)",
                          {n: p.type for n, p in kind.params.items()})
        for clause in self.title.clauses:
            decl = clause.decl
            if isinstance(decl, (s.Routine, s.Trigger, s.Invariant)):
                check(_read(decl), {n: f"the local `{n}`" for n in _locals(decl)}, "",
                      {p.name: p.type for p in decl.params} if isinstance(decl, s.Routine) else None)
