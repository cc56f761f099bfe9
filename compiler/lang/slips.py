"""Stage 4, check (slips): names and values a rule gets wrong that every other stage lets through.

Each of these checked clean, and in play it silently did nothing, never held, or stopped on a
Python error where play first reached it (found by a breaker mutating the real titles):

- E015 an event a phase or a train raises (`events: [close_minor]`) that no trigger is on, where
  its name is near one a trigger is on (`close_minors`, the library's `close_privates`): raising it
  did nothing. (An event no trigger is on and near none is a label: the titles list 18xx.games'
  events, `rust_2` or `float_30`, whose work other properties do.)
- E022 an ability's key named in `has_ability(X, "key")`, `ability_value(X, "key", ...)` or
  `use_ability(X, "key")` that no ability of the title has (or, X a component named, none of X's):
  `has_ability` was false in every game, `use_ability` refused every use; E024 an
  `ability_value(X, "key", "field")` whose field no ability of that key gives (refused in play);
- E038 `<`, `<=`, `>` or `>=` on none, true or false, a string against what is no string, a
  collection, or a component (a trigger's event value, a builtin's answer that is a player or a
  company): the engine stopped on a TypeError;
- E038 a component compared with a string (`corporation == "PRR"`): a component is never equal to a
  string, so the comparison is always false (`!=` always true), and E022 where the string names no
  component of its kind (`corporation == "TOYY"`);
- E036 a builtin given an argument of a type its runtime method does not take (`price(1)`: a number
  for a corporation): the engine stopped on an AttributeError or
  a TypeError in play. The types are the annotations of `GameBase`'s `b_` methods;
- E026 a builtin's argument, or a routine's parameter typed by an enum (the library's in_round, in_step), that
  names a value of an enum (`in_round("stok")`, `in_round(payout)`,
  `in_step(C, "lay_tiles")`, `call_round("presidents_choise")`) and is none of its values: the test was
  false in every game, the round never held; E022 a hex named by a string no hex has;
- E038 a component compared with a component of another kind (`corporation == MT`, MT a private; `p == c`
  over the players and the corporations): never equal;
- E020 a train that rusts or becomes obsolete on a train the bank sells before it (the first of that one
  bought scrapped every one of it, the bank's too, before one was sold) or only on trains never sold;
  a private `private_sale_order` leaves out where the first round is the private sale (never offered);
- E038 a `transfer` from or to a collection (`to players`), E020 one from a holder to itself (`from bank
  to bank`); E038 a field or an element of a literal or of a builtin's number (`price(C).value`);
- E026 a routine's enum parameter compared with a string none of its values (`kind == "withold"`);
  E022 a train's name compared with a string no train has (`t.name == "2 +2"` over the trains);
- E038 a corporation's market cell (`C.cell`) ordered, in arithmetic, or compared with a number or money
  (`C.cell > 0`, `C.cell == $100`): a cell is no number (the engine stopped on a TypeError, or the comparison
  was always false); its price is `C.cell.price`;
- E020 a later phase begun by no train (`on_train: none`), a run part paid for more stops than it
  visits, an upgrade to the tile itself or to an earlier colour, money in another currency than the
  title's, a president's certificate smaller than another of the corporation's.
"""

from __future__ import annotations

import functools
import inspect

from compiler.diagnostics import Diagnostic, Span, error
from compiler.lang import syntax as s
from compiler.lang.exprtypes import HOLDERS
from compiler.lang.ir import Title, statements
from compiler.lang.schema import did_you_mean, nearest
from compiler.runtime.vocabulary import RUNTIME_EVENTS


def check_slips(title: Title) -> list[Diagnostic]:
    """The findings of this stage for one resolved title (or title + variant)."""
    out: list[Diagnostic] = []
    # what names the title's components is checked where it was written (the last unit the title is built
    # from): a rule of 1846 naming an ability 18 Grand Junction, built on it, replaces is 1846's to name
    here = title.chain[-1] if title.chain else None
    out.extend(_events_near_handled(title, here))
    out.extend(_trains_taken_away(title))
    out.extend(_privates_never_offered(title))
    out.extend(_phases_begun_by_nothing(title))
    out.extend(_runs_paid_beyond_visits(title))
    out.extend(_upgrades_backwards(title, here))
    out.extend(_other_currency(title, here))
    out.extend(_presidents_certificates(title))
    rules = [clause for clause in title.clauses if clause.origin.kind != "library"
             and isinstance(clause.decl, (s.Routine, s.Trigger, s.Invariant))]
    if not rules:
        return out
    facts = _Facts(title)
    for clause in rules:
        decl = clause.decl
        scope = _Scope(decl, facts)
        if clause.origin == here:
            out.extend(_ability_keys(decl, facts))
        out.extend(_orderings(decl, scope))
        out.extend(_strings_for_components(decl, scope, facts, names=clause.origin == here))
        out.extend(_builtin_arguments(decl, scope))
        out.extend(_builtin_names(decl, scope, facts))
        out.extend(_transfers(decl, scope))
        out.extend(_fields_of_single_values(decl, scope))
        out.extend(_cells_as_numbers(decl, scope))
    return out


def _where(node, fallback) -> Span:
    span = getattr(node, "span", None)
    return span if span is not None and span.line else fallback.span


# ---------------------------------------------------------------- the builtins' annotations


@functools.cache
def annotations() -> dict[str, dict]:
    """name -> {"params": [[name, annotation, whether its default is None], ...] (the positional ones,
    as a rulespec passes them), "returns": annotation} of each of `GameBase`'s `b_` methods, the
    annotations as written (`"Entity"`, `"int"`, `"Entity | None"`). Kept in the cache
    (`.rulec-cache/annotations/`) as `compiler.lang.builtins.table` is."""
    from compiler.lang.builtins import _cached

    return _cached("annotations", _annotations)


def _annotations() -> dict[str, dict]:
    from compiler.runtime.game import GameBase

    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    out = {}
    for name, member in inspect.getmembers(GameBase, inspect.isfunction):
        if not name.startswith("b_"):
            continue
        signature = inspect.signature(member)
        params = list(signature.parameters.values())
        if not isinstance(inspect.getattr_static(GameBase, name), staticmethod):
            params = params[1:]  # not self
        out[name[2:]] = {
            "params": [[p.name, _shown(p.annotation), p.default is None] for p in params if p.kind in positional],
            "returns": _shown(signature.return_annotation)}
    return out


def _shown(annotation) -> str:
    if annotation is inspect.Parameter.empty:
        return ""
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))


# ---------------------------------------------------------------- what a rule's names certainly are


#: the runtime's lists of components: the kind of each element
_COMPONENT_LISTS = {"players": "player", "corporations": "corporation", "privates": "private", "minors": "minor",
                    "bonds": "bond"}
#: the runtime components a routine's parameter may be typed
_COMPONENT_TYPES = frozenset({"player", "corporation", "minor", "private", "bond", "company", "train", "certificate"})
#: the kinds of what a runtime event gives (`RUNTIME_EVENTS`' words)
_EVENT_KINDS = {"corporation": "corporation", "former president": "player", "new president": "player"}
#: the component kinds that one value may be under either name
_ALSO = {"company": ("corporation", "minor", "private"), "corporation": ("minor",), "minor": ("corporation",)}


def _meet(kind: str, kinds) -> bool:
    """Whether a component of `kind` may be one of `kinds` (a company is a corporation, a minor or a private)."""
    return any(kind == k or kind in _ALSO.get(k, ()) or k in _ALSO.get(kind, ()) for k in kinds)


class _Facts:
    """What the title declares that the checks read: its routines, states, components and abilities."""

    def __init__(self, title: Title):
        self.title = title
        self.routines = {c.decl.name for c in title.clauses if isinstance(c.decl, s.Routine)}
        self.functions = {c.decl.name: c.decl for c in title.clauses
                          if isinstance(c.decl, s.Routine) and c.decl.kind == "function" and c.decl.result is not None}
        self._results: dict[str, str] = {}
        self.states = {c.decl.name for c in title.clauses if isinstance(c.decl, s.StateDecl)}
        self.components: dict[str, s.Component] = {}
        self.kinds: dict[str, set[str]] = {}
        for clause in title.clauses:
            if isinstance(clause.decl, s.Component) and clause.decl.key:
                self.components.setdefault(clause.decl.key, clause.decl)
                self.kinds.setdefault(clause.decl.kind, set()).add(clause.decl.key)
        self.enums = {c.decl.name: c.decl.values for c in title.clauses if isinstance(c.decl, s.Enum)}
        self.enum_of = {value: name for name, values in self.enums.items() for value in values}
        # each routine's parameter typed by one enum (the library's in_round(R), in_step(C, s)), or a hex (its
        # tile_color(hex)): (routine, place) -> the enum, or "hex"
        self.enum_params = {(c.decl.name, i): p.type.alternatives[0] for c in title.clauses if isinstance(c.decl, s.Routine)
                            for i, p in enumerate(c.decl.params) if len(p.type.alternatives) == 1 and not p.type.values
                            and (p.type.alternatives[0] in self.enums or p.type.alternatives[0] == "hex")
                            and not (p.type.is_list or p.type.is_set)}
        # every ability of every component (its children, theirs, ...), by key
        self.abilities: dict[str, list[tuple[s.Component, s.Component]]] = {}
        for comp in self.components.values():
            stack = [comp]
            while stack:
                holder = stack.pop()
                for child in holder.children:
                    if child.kind == "ability" and child.key:
                        self.abilities.setdefault(child.key, []).append((comp, child))
                    stack.append(child)

    def result(self, name: str) -> str:
        """What the function `name` certainly gives, as a builtin's annotation says it ("int" for a number or
        money, "bool"), from its one expression; "" where that is not certain (or it calls itself)."""
        if name not in self._results:
            self._results[name] = ""  # (while its expression is read: a call back to it is not certain)
            self._results[name] = self._expr_result(self.functions[name].result)
        return self._results[name]

    def _expr_result(self, expr) -> str:
        if isinstance(expr, (s.Int, s.Money, s.Percent)):
            return "int"
        if isinstance(expr, s.Unary):
            return "bool" if expr.op == "not" else self._expr_result(expr.operand)
        if isinstance(expr, s.Binary):
            if expr.op in ("and", "or", "<", "<=", ">", ">=", "==", "!=", "in", "not in"):
                return "bool"
            return "int" if expr.op in ("+", "-", "*", "/", "mod") else ""
        if isinstance(expr, s.Cond):
            then = self._expr_result(expr.then)
            return then if then == self._expr_result(expr.otherwise) else ""
        if isinstance(expr, s.Quantifier):
            return {"any": "bool", "all": "bool", "sum": "int", "count": "int", "greatest": "int",
                    "least": "int"}.get(expr.kind, "")
        if isinstance(expr, s.Member) and expr.name == "price" and isinstance(expr.obj, s.Member) \
                and expr.obj.name == "cell":
            return "int"  # a market cell's price
        if isinstance(expr, s.Call) and isinstance(expr.func, s.Name):
            name = expr.func.name
            if name in self.functions:
                return self.result(name)
            if name not in self.routines and name not in self.states:
                found = annotations().get(name)
                return found["returns"] if found is not None and found["returns"] in ("int", "bool") else ""
        return ""

    def keys_of(self, kinds) -> set[str]:  # (the keys of the components of these kinds)
        out: set[str] = set()
        for kind in kinds:
            for one in (kind, *_ALSO.get(kind, ())):
                out |= self.kinds.get(one, set())
        return out


class _Scope:
    """The names of one routine, trigger or invariant whose kind of component is certain: a routine's
    parameter typed by components, a trigger's value of a runtime event that is a corporation or a player,
    a variable bound once by a `for` or a quantifier over the players, corporations, ... (none of them
    bound again by a `let`); and every name the rule binds itself."""

    def __init__(self, decl, facts: _Facts):
        self.facts = facts
        lets = [node.name for node in s.walk(decl) if isinstance(node, s.Let)]
        loops = [(node.var, node.domain) for node in s.walk(decl) if isinstance(node, (s.For, s.Quantifier))]
        params = list(decl.params) if isinstance(decl, s.Routine) else []
        args = [a.name for a in decl.event.args if isinstance(a, s.Name)] if isinstance(decl, s.Trigger) else []
        names = lets + [var for var, _ in loops] + [p.name for p in params] + args
        self.bound = set(names)
        once = {name for name in self.bound if names.count(name) == 1}
        self.domains: dict[str, list] = {}
        for var, domain in loops:
            self.domains.setdefault(var, []).append(domain)
        self.others = set(lets) | {p.name for p in params} | set(args)  # the names bound otherwise than by a loop
        self.certain: dict[str, tuple[frozenset[str], str]] = {}
        self.events: set[str] = set()  # those of `certain` a runtime event gives
        for p in params:
            alts = p.type.alternatives
            if p.name in once and not (p.type.is_list or p.type.is_set or p.type.key is not None or p.type.parts
                                       or p.type.values) and alts \
                    and all(isinstance(a, str) and a in _COMPONENT_TYPES for a in alts):
                self.certain[p.name] = (frozenset(alts), f"the parameter `{p.name}: {p.type}`")
        self.scalars = {p.name: str(p.type) for p in params if p.name in once and not p.type.is_list
                        and not p.type.is_set and p.type.key is None and not p.type.parts and not p.type.values
                        and p.type.alternatives and all(a in ("int", "money", "percent", "bool", "string")
                                                        for a in p.type.alternatives)}
        # a routine's parameter typed by one enum of the title's, or by values of its own: (its enum, its values)
        self.enums: dict[str, tuple[str, tuple[str, ...]]] = {}
        for p in params:
            if p.name not in once or p.type.is_list or p.type.is_set or p.type.key is not None or p.type.parts:
                continue
            if p.type.values and not p.type.alternatives:
                self.enums[p.name] = (f"{{{', '.join(p.type.values)}}}", tuple(p.type.values))
            elif len(p.type.alternatives) == 1 and p.type.alternatives[0] in facts.enums and not p.type.values:
                name = p.type.alternatives[0]
                self.enums[p.name] = (f"enum {name}", tuple(facts.enums[name]))
        if isinstance(decl, s.Trigger):
            for arg, meaning in zip(decl.event.args, RUNTIME_EVENTS.get(decl.event.name, ())):
                if isinstance(arg, s.Name) and arg.name in once and meaning in _EVENT_KINDS:
                    kind = _EVENT_KINDS[meaning]
                    self.certain[arg.name] = (frozenset({kind}), f"`{arg.name}`, a {kind} (`{decl.event.name}` "
                                                                  f"gives its {meaning})")
                    self.events.add(arg.name)
        for var, domain in loops:
            if var in once and isinstance(domain, s.Name) and domain.name in _COMPONENT_LISTS \
                    and domain.name not in self.bound:
                kind = _COMPONENT_LISTS[domain.name]
                self.certain[var] = (frozenset({kind}), f"`{var}`, a {kind} (an element of `{domain.name}`)")

    def train_names(self, expr) -> bool:
        """Whether `expr` is a train's name: `t.name` of a train the rule goes over (`trains(C)`,
        `available_trains()`), or `card.key` of a card of `train_cards`."""
        if not (isinstance(expr, s.Member) and isinstance(expr.obj, s.Name) and expr.obj.name in self.domains
                and expr.obj.name not in self.others):
            return False

        def trains(domain) -> bool:
            if isinstance(domain, s.Name):
                return domain.name == "train_cards" and domain.name not in self.bound and expr.name in ("key", "name")
            found = self.builtin(domain)
            return found is not None and found["returns"] == "list[Train]" and expr.name == "name"

        # (each loop binding it goes over trains: a quantifier's variable is its own in each quantifier)
        return all(trains(domain) for domain in self.domains[expr.obj.name])

    def builtin(self, node) -> dict | None:
        """The annotations of the builtin `node` calls, or None where it calls none (a routine, a state)."""
        if not isinstance(node, s.Call) or not isinstance(node.func, s.Name):
            return None
        name = node.func.name
        if name in self.facts.routines or name in self.facts.states or name in self.bound:
            return None
        return annotations().get(name)

    def returns(self, node) -> str:
        """What the call `node` certainly gives, as a builtin's annotation says it: the builtin's own, or a
        library or title function's number or flag read off its expression (`_Facts.result`); "" else."""
        found = self.builtin(node)
        if found is not None:
            return found["returns"]
        if isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name in self.facts.functions \
                and node.func.name not in self.bound:
            return self.facts.result(node.func.name)
        return ""

    def component(self, expr) -> tuple[frozenset[str], str] | None:
        """(its kinds, how a message names it) where `expr` is certainly a component."""
        if isinstance(expr, s.Name):
            return self.certain.get(expr.name)
        found = self.builtin(expr)
        if found is not None and found["returns"] in ("Entity", "Entity | None"):
            return frozenset(), f"`{expr.func.name}(...)`, a component (a player or a company)"
        return None


# ---------------------------------------------------------------- E015 an event raised near one handled


def _events_near_handled(title: Title, here) -> list[Diagnostic]:
    handled = {c.decl.event.name for c in title.clauses if isinstance(c.decl, s.Trigger)}
    emitted = {st.event for c in title.clauses if isinstance(c.decl, (s.Routine, s.Trigger))
               for st in statements(c.decl.body) if isinstance(st, s.Emit)}
    candidates = sorted(handled - set(RUNTIME_EVENTS))
    out: list[Diagnostic] = []
    for clause in title.clauses:
        if clause.origin != here or not isinstance(clause.decl, s.Component):
            continue
        for node in s.walk(clause.decl):
            if not isinstance(node, s.Component):
                continue
            prop = node.get("events")
            if prop is None or not isinstance(prop.value, (s.ListLit, s.SetLit)):
                continue
            for item in prop.value.items:
                name = item.name if isinstance(item, s.Name) else item.value if isinstance(item, s.Str) else None
                if name is None or name in handled or name in RUNTIME_EVENTS or name in emitted:
                    continue
                near = [c for c in nearest(name, candidates) if _near(name, c)]
                if not near:
                    continue
                out.append(error(
                    "E015", f"no trigger is on `{name}`: {node.kind} {node.key} raises it and nothing happens"
                            + did_you_mean(near),
                    _where(item, prop),
                    help="a trigger `on EVENT` acts on an event a phase or a train raises; the triggers are on "
                         + ", ".join(f"`{c}`" for c in candidates)))
    return out


def _near(name: str, other: str) -> bool:
    """Whether `name` is a slip of `other`: one or two letters changed, added or dropped."""
    if abs(len(name) - len(other)) > 2:
        return False
    previous = list(range(len(other) + 1))
    for i, a in enumerate(name, 1):
        current = [i]
        for j, b in enumerate(other, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1] <= 2 and not (name.rstrip("0123456789") == other.rstrip("0123456789"))


# ---------------------------------------------------------------- E022/E024 abilities named by key


#: the calls that name an ability by its key (the second argument), and those that name its field (the third)
_ABILITY_CALLS = ("has_ability", "ability_value", "use_ability")


def _ability_keys(decl, facts: _Facts) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not (isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name in _ABILITY_CALLS
                and len(node.args) >= 2 and isinstance(node.args[1], s.Str)):
            continue
        key, arg = node.args[1].value, node.args[1]
        holder = node.args[0]
        named = facts.components.get(holder.name) if isinstance(holder, s.Name) else None
        every = facts.abilities.get(key, [])
        if named is not None:
            every = [(comp, ability) for comp, ability in every if comp is named]
            own = sorted({a.key for k, pairs in facts.abilities.items() for c, a in pairs if c is named})
            if not every:
                out.append(error(
                    "E022", f"{named.kind} {named.key} has no ability `{key}`" + did_you_mean(nearest(key, own)),
                    _where(arg, node), help=f"its abilities: {', '.join(own) or 'none'}"))
                continue
        elif not every:
            keys = sorted(facts.abilities)
            out.append(error(
                "E022", f"no ability `{key}`: no component of the title has an ability of that key, so "
                        f"`{node.func.name}` " + ("is false in every game" if node.func.name == "has_ability"
                                                 else "is refused wherever play reaches it")
                        + did_you_mean(nearest(key, keys)),
                _where(arg, node), help="the abilities' keys: " + (", ".join(keys) or "none")))
            continue
        if node.func.name == "ability_value" and len(node.args) >= 3 and isinstance(node.args[2], s.Str):
            field = node.args[2].value
            given = sorted({p.name for _, ability in every for p in ability.properties})
            if field not in given:
                out.append(error(
                    "E024", f"no ability `{key}` gives `{field}`: `ability_value` is refused wherever play reaches "
                            "it" + did_you_mean(nearest(field, given)),
                    _where(node.args[2], node), help=f"the fields its abilities give: {', '.join(given)}"))
    return out


# ---------------------------------------------------------------- E038 orderings of what has no order


_ORDERINGS = ("<", "<=", ">", ">=")
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


def _unordered(expr, other, scope: _Scope) -> str | None:
    """How a message names `expr` where `<` cannot order it against `other`, or None."""
    if isinstance(expr, s.NoneLit):
        return "none"
    if isinstance(expr, s.Bool) or (isinstance(expr, s.Binary) and expr.op in _COMPARISONS) \
            or (isinstance(expr, s.Unary) and expr.op == "not"):
        return "true or false"
    if isinstance(expr, s.Str) and not isinstance(other, s.Str):
        return "a string"
    if isinstance(expr, (s.ListLit, s.SetLit)):
        return "a list"
    if isinstance(expr, (s.MapLit, s.Record)):
        return "a map" if isinstance(expr, s.MapLit) else "a record"
    if isinstance(expr, s.Name) and expr.name in scope.events:
        return scope.certain[expr.name][1]  # (a parameter's and a loop variable's are exprtypes')
    if isinstance(expr, s.Call):
        found = scope.component(expr)
        if found is not None:
            return found[1]
    return None


def _orderings(decl, scope: _Scope) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not (isinstance(node, s.Binary) and node.op in _ORDERINGS):
            continue
        for side, other in ((node.left, node.right), (node.right, node.left)):
            what = _unordered(side, other, scope)
            if what is None:
                continue
            out.append(error(
                "E038", f"`{node.op}` orders {what}, which is no number or money", _where(side, node),
                help="`<`, `>` compare numbers, money and percentages"
                     + ("; `== none` asks whether a value is unset" if what == "none" else
                        "; a component's number is one of its properties or a builtin's answer (`price(C)`)")))
            break
    return out


# ---------------------------------------------------------------- E038/E022 a component compared with a string


#: the builtin holders, each one thing a rule names without quotes (`holder_of(x) == bank`)
_HOLDERS = tuple(HOLDERS)


def _enum_string(one, other, node: s.Binary, scope: _Scope) -> list[Diagnostic]:
    """E026 for a routine's parameter typed by an enum compared with a string that is none of its values
    (`kind == "withold"`): always false (`!=`: always true)."""
    if not (isinstance(one, s.Name) and one.name in scope.enums and isinstance(other, s.Str)):
        return []
    enum, values = scope.enums[one.name]
    if other.value in values:
        return []
    return [error(
        "E026", f"`{one.name}` is a value of {enum}; the string \"{other.value}\" is none of them, so the comparison "
                f"is always {'false' if node.op in ('==', 'in') else 'true'}" + did_you_mean(nearest(other.value, list(values))),
        _where(other, node), help=f"the values of {enum}: {', '.join(values)}")]


def _strings_for_components(decl, scope: _Scope, facts: _Facts, names: bool) -> list[Diagnostic]:
    """E038 for a component compared with a string naming one; E022 (where `names`: the rule was written in
    the unit that makes the title) for one naming none."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not (isinstance(node, s.Binary) and node.op in ("==", "!=", "in", "not in")):
            continue
        if node.op in ("in", "not in"):
            pairs = [(node.left, item) for item in node.right.items] \
                if isinstance(node.right, (s.ListLit, s.SetLit)) else []
        else:
            pairs = [(node.left, node.right), (node.right, node.left)]
        for one, other in pairs:
            if names and scope.train_names(one) and isinstance(other, (s.Str, s.Int)) \
                    and str(other.value) not in facts.kinds.get("train", set()):
                # `t.name == "2 +2"` over the corporation's trains: no train has that name, never true
                keys = sorted(facts.kinds.get("train", set()))
                out.append(error(
                    "E022", f"no train `{other.value}`: the comparison is always "
                            f"{'false' if node.op in ('==', 'in') else 'true'}" + did_you_mean(nearest(str(other.value), keys)),
                    _where(other, node), help=f"the trains: {', '.join(keys)}"))
                continue
            found = scope.component(one)
            if found is None:
                out.extend(_enum_string(one, other, node, scope))
                continue
            kinds, said = found
            named = facts.components.get(other.name) if isinstance(other, s.Name) and other.name not in scope.bound \
                else None
            theirs = (frozenset({named.kind}), f"{named.kind} {named.key}") if named is not None else \
                scope.component(other) if node.op in ("==", "!=") else None
            if theirs is not None and kinds and theirs[0] and not any(_meet(k, kinds) for k in theirs[0]):
                # `corporation == MT`, MT a private; `p == c`, a player and a corporation: never equal
                out.append(error(
                    "E038", f"{said} is compared with {theirs[1]}: a {' or '.join(sorted(kinds))} is never a "
                            f"{' or '.join(sorted(theirs[0]))}, so the comparison is always "
                            f"{'false' if node.op in ('==', 'in') else 'true'}",
                    _where(other, node), help=f"compare it with a {' or '.join(sorted(kinds))}"))
                if node.op in ("==", "!="):
                    break
                continue
            if not isinstance(other, s.Str):
                continue
            keys = facts.keys_of(kinds) if kinds else set(facts.components) | set(_HOLDERS)
            what = " or ".join(sorted(kinds)) or "component"
            always = "false" if node.op in ("==", "in") else "true"
            if other.value in keys or not names:
                out.append(error(
                    "E038", f"{said} is compared with the string \"{other.value}\": a {what} is never equal to a "
                            f"string, so the comparison is always {always}",
                    _where(other, node), help=f"name the {what} itself, without quotes: `{other.value}`"))
            else:
                out.append(error(
                    "E022", f"no {what} `{other.value}`, and {said} is never equal to a string: the comparison is "
                            f"always {always}" + did_you_mean(nearest(other.value, sorted(keys))),
                    _where(other, node), help=f"name the {what} itself, without quotes (its key)"))
    return out


# ---------------------------------------------------------------- E036 a builtin's argument of the wrong type


def _literal(expr) -> str | None:
    if isinstance(expr, s.Int) or (isinstance(expr, s.Unary) and expr.op == "-" and isinstance(expr.operand, s.Int)):
        return "a number"
    return {s.Money: "money", s.Percent: "a percentage", s.Str: "a string", s.Bool: "true or false",
            s.NoneLit: "none", s.ListLit: "a list", s.SetLit: "a set", s.MapLit: "a map", s.Record: "a record",
            s.Range: "a range"}.get(type(expr))


#: what each annotation of a builtin's parameter takes in words, and the literals it certainly does not take
_TAKES = {
    "Entity": ("a component (a player, a corporation, a private, a train, ...)",
               {"a number", "money", "a percentage", "a string", "true or false", "none", "a list", "a set", "a map",
                "a record", "a range"}),
    "Entity | None": ("a component or none", {"a number", "money", "a percentage", "a string", "true or false",
                                              "a list", "a set", "a map", "a record", "a range"}),
    "int": ("a number", {"a string", "true or false", "none", "a list", "a set", "a map", "a record", "a range"}),
    "str": ("a name", {"money", "a percentage", "true or false", "none", "a list", "a set", "a map", "a record",
                       "a range"}),
    "bool": ("true or false", {"a number", "money", "a percentage", "a string", "none", "a list", "a set", "a map",
                               "a record", "a range"}),
}


def _builtin_arguments(decl, scope: _Scope) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        found = scope.builtin(node)
        if found is None:
            continue
        params = {name: (annotation, default_none) for name, annotation, default_none in found["params"]}
        pairs = list(zip(found["params"], node.args)) + [
            ([k, *params[k]], v) for k, v in node.kwargs if k in params]
        for (name, annotation, default_none), arg in pairs:
            if annotation not in _TAKES:
                continue
            takes, wrong = _TAKES[annotation]
            what = _literal(arg)
            if what == "none" and default_none:
                continue
            if what is None and isinstance(arg, s.Name):
                if arg.name in scope.scalars and annotation.startswith("Entity"):
                    what = f"the parameter `{arg.name}: {scope.scalars[arg.name]}`"
                elif arg.name in scope.certain and annotation in ("int", "bool"):
                    what = scope.certain[arg.name][1]
                if what is not None:
                    wrong = {what}
            if what is None or what not in wrong:
                continue
            out.append(error(
                "E036", f"the builtin `{node.func.name}`'s argument `{name}` is {takes}; this call gives it {what}",
                _where(arg, node), help=f"the runtime's `b_{node.func.name}` takes {name}: {annotation}"))
    return out


# ---------------------------------------------------------------- E026/E022 a builtin's name of no value


#: the builtins' arguments that name a value of an enum (of the library or the title), or a hex: (the builtin,
#: the argument's place) -> the enum's name, or "hex"
_BUILTIN_NAMES = {("next_certificate", 1): "source", ("end_game_now", 0): "end_reason",
                  ("call_round", 0): "special_round", ("in_special_round", 0): "special_round",
                  ("special_round_held", 0): "special_round", ("place_marker", 1): "hex",
                  ("move_turn", 1): "turn_move"}


def _builtin_names(decl, scope: _Scope, facts: _Facts) -> list[Diagnostic]:
    """E026 for a builtin's argument, or a routine's parameter typed by one enum (`_Facts.enum_params`: the
    library's in_round), naming a value of an enum that is none of its values: a string
    (`in_round("stok")`) or another enum's value (`in_round(payout)`): the test was false in every game, the
    round never called; E022 for a hex named by a string no hex has (`tile_color("Z9")`, `place_marker(X, "Z9")`)."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        routine = isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name in facts.routines \
            and node.func.name not in scope.bound
        if not routine and scope.builtin(node) is None:
            continue
        for place, arg in enumerate(node.args):
            wanted = (facts.enum_params if routine else _BUILTIN_NAMES).get((node.func.name, place))
            if wanted is None:
                continue
            if wanted == "hex":
                if isinstance(arg, s.Str) and arg.value not in facts.kinds.get("hex", set()):
                    keys = sorted(facts.kinds.get("hex", set()))
                    out.append(error("E022", f"no hex `{arg.value}`" + did_you_mean(nearest(arg.value, keys)),
                                     _where(arg, node), help=f"`{node.func.name}` names a hex of the map by its id"))
                continue
            values = facts.enums.get(wanted)
            if values is None:
                continue
            if isinstance(arg, s.Str):
                value, said = arg.value, f"the string \"{arg.value}\""
            elif isinstance(arg, s.Name) and arg.name not in scope.bound and arg.name in facts.enum_of \
                    and arg.name not in values:
                value, said = arg.name, f"`{arg.name}`, a value of enum {facts.enum_of[arg.name]},"
            else:
                continue
            if value in values:
                continue
            out.append(error(
                "E026", f"`{node.func.name}` takes a value of enum {wanted}; {said} is none of them, so it "
                        "never matches" + did_you_mean(nearest(value, list(values))),
                _where(arg, node), help=f"the values of {wanted}: {', '.join(values)}"))
    return out


# ---------------------------------------------------------------- E020 trains and privates play never reaches


def _sold_order(title: Title) -> tuple[dict[str, int], dict[str, str]] | None:
    """Each train's place in `train_supply_order` (the first of it, or of its card's other side), and
    the trains' other sides; None where the title gives no order."""
    order = title.prop("train_supply_order")
    if order is None or not isinstance(order.value, s.ListLit):
        return None
    places: dict[str, int] = {}
    for i, item in enumerate(order.value.items):
        name = _named(item)
        if name is not None:
            places.setdefault(name, i)
    sides = {}
    for train in title.components("train"):
        other = train.get("variant_of")
        if other is not None and _named(other.value) is not None:
            sides[train.key] = _named(other.value)
            sides.setdefault(_named(other.value), train.key)
    return places, sides


def _named(expr) -> str | None:
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, (s.Str, s.Int)):
        return str(expr.value)
    return None


def _trains_taken_away(title: Title) -> list[Diagnostic]:
    """E020 for a train that rusts or becomes obsolete on a train the bank sells before it (the first of that
    one bought scraps every one of this type, the bank's too, or makes them obsolete, before one is sold:
    the library's on_first_train), or only on trains the bank never sells (it never goes)."""
    found = _sold_order(title)
    if found is None:
        return []
    places, sides = found

    def place(name: str) -> int | None:
        return places.get(name, places.get(sides.get(name, ""), None))

    trains = {train.key for train in title.components("train")}
    begins = {name for phase in title.components("phase") if (prop := phase.get("on_train")) is not None
              for item in (prop.value.items if isinstance(prop.value, s.ListLit) else (prop.value,))
              if (name := _named(item)) is not None}
    out: list[Diagnostic] = []
    for train in title.components("train"):
        own = place(train.key)
        if own is None:
            continue
        for field, verb in (("rusts_on", "rusts"), ("obsolete_on", "becomes obsolete")):
            prop = train.get(field)
            if prop is None:
                continue
            items = prop.value.items if isinstance(prop.value, s.ListLit) else (prop.value,)
            named = [(n, item) for item in items if (n := _named(item)) is not None and n in trains]
            earlier = [(n, item) for n, item in named if (at := place(n)) is not None and at < own]
            if not earlier and (not named or any(place(n) is not None for n, _ in named)):
                continue  # (a later one: it goes with the first of those bought; its own type is check_play's)
            name, item = (earlier or named)[0]
            if place(name) is None and name in begins:
                continue  # (check_play's: the phase it begins never comes, the bank never selling it)
            if place(name) is None:
                said = f"train {train.key} never {verb.replace('becomes', 'become')}: the bank never sells a {name} train"
            elif field == "rusts_on":
                said = (f"train {train.key} rusts on the {name}, which the bank sells before it "
                        f"(`train_supply_order`): the first {name} bought sends every {train.key}, the bank's too, "
                        "to the scrap heap before one is sold")
            else:
                said = (f"train {train.key} becomes obsolete on the {name}, which the bank sells before it "
                        f"(`train_supply_order`): every {train.key} is obsolete before one is sold")
            out.append(error("E020", said, _where(item, prop),
                             help=f"`{field}` names a later train type, whose first purchase takes this one away"))
    return out


def _privates_never_offered(title: Title) -> list[Diagnostic]:
    """E020 for a private `private_sale_order` does not name where the first round sells the privates in
    that order (`first_round: private_sale`): it stayed in the bank for the whole game."""
    first, sale = title.prop("first_round"), title.prop("private_sale_order")
    if first is None or _named(first.value) != "private_sale" or sale is None or not isinstance(sale.value, s.ListLit):
        return []
    offered = {_named(item) for item in sale.value.items}
    missing = [p.key for p in title.components("private") if p.key not in offered]
    if not missing:
        return []
    return [error(
        "E020", f"`private_sale_order` does not name {', '.join(missing)}: the private sale never offers "
                f"{'it' if len(missing) == 1 else 'them'}, and {'it stays' if len(missing) == 1 else 'they stay'} "
                "in the bank all game", sale.value.span or sale.span,
        help="list every private in the order the first round offers them")]


# ---------------------------------------------------------------- E038/E020 transfers, fields of what has none


#: the runtime's values that are collections or numbers (`compiler.lang.builtins.VALUES`), no holder of money
_COLLECTIONS = ("players", "corporations", "privates", "minors", "bonds", "train_cards", "phases", "markets", "all_ability_cards",
                "phase_number")


def _transfers(decl, scope: _Scope) -> list[Diagnostic]:
    """E038 for a `transfer` from or to a collection of the runtime (`to players`: the engine stopped on a
    KeyError; each player is paid in a `for`), E020 for one from a holder to itself (`from bank to bank`:
    nothing moves)."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not isinstance(node, s.Transfer):
            continue
        for word, end in (("from", node.source), ("to", node.target)):
            if isinstance(end, s.Name) and end.name in _COLLECTIONS and end.name not in scope.bound:
                out.append(error(
                    "E038", f"`transfer ... {word} {end.name}` names a collection, not one holder of money",
                    _where(end, node), help=f"pay each in a loop: `for x in {end.name} {{ transfer ... {word} x }}`"
                    if end.name != "phase_number" else "money is held by the bank, the players and the companies"))
        if isinstance(node.source, s.Name) and isinstance(node.target, s.Name) and node.source.name == node.target.name:
            out.append(error(
                "E020", f"a transfer from {node.source.name} to {node.target.name}: the money stays where it is",
                _where(node.target, node), help="name the holder that pays and the one paid"))
    return out


def _fields_of_single_values(decl, scope: _Scope) -> list[Diagnostic]:
    """E038 for a field or an element of a literal (`"PRR".cash`, `5[0]`) or of a builtin's number, flag or
    name (`cash(player)[0]`, `price(C).value`): the engine stopped on an AttributeError or a TypeError."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not isinstance(node, (s.Member, s.Index)):
            continue
        what = _literal(node.obj)
        if what in ("a list", "a set", "a map", "a record", "a range") or (what == "a string" and isinstance(node, s.Index)):
            continue
        if what is None:
            returns = scope.returns(node.obj)
            if returns not in ("int", "bool"):
                continue
            what = f"`{node.obj.func.name}(...)`, " + ("a number" if returns == "int" else "true or false")
        part = f"a field `.{node.name}`" if isinstance(node, s.Member) else "an element `[...]`"
        out.append(error("E038", f"{part} of {what}, which has none", _where(node, node.obj),
                         help="a field is a component's or a record's; an element a list's or a map's"))
    return out


#: the operators that take numbers: orderings and arithmetic
_NUMERIC = ("<", "<=", ">", ">=", "+", "-", "*", "/", "mod")


def _market_cell(expr, scope: _Scope) -> str | None:
    """How a message names `expr` where it is certainly a market cell: the `cell` of a corporation or a minor."""
    if not (isinstance(expr, s.Member) and expr.name == "cell"):
        return None
    found = scope.component(expr.obj)
    if found is None or not found[0] or not all(_meet(kind, ("corporation",)) for kind in found[0]):
        return None
    return f"`{_text(expr)}`, a market cell"


def _text(expr) -> str:
    """`C.cell` as written (where the corporation is a name), or the field alone."""
    return f"{expr.obj.name}.cell" if isinstance(expr, s.Member) and isinstance(expr.obj, s.Name) else "cell"


def _a_number(expr, scope: _Scope) -> str | None:
    """How a message names `expr` where it is certainly a number or money (a literal, a builtin's number)."""
    if isinstance(expr, (s.Int, s.Money, s.Percent)) or (isinstance(expr, s.Unary) and isinstance(expr.operand, s.Int)):
        return _literal(expr) or "a number"
    if scope.returns(expr) == "int":
        return f"`{expr.func.name}(...)`, a number"
    return None


def _cells_as_numbers(decl, scope: _Scope) -> list[Diagnostic]:
    """E038 for a corporation's market cell ordered or in arithmetic (`C.cell > 0`: the engine stopped on a
    TypeError), or compared with a number or money (`C.cell == $100`: never equal): a cell's price is its field."""
    out: list[Diagnostic] = []
    for node in s.walk(decl):
        if not (isinstance(node, s.Binary) and node.op in (*_NUMERIC, "==", "!=")):
            continue
        for side, other in ((node.left, node.right), (node.right, node.left)):
            cell = _market_cell(side, scope)
            if cell is None:
                continue
            if node.op in _NUMERIC:
                said = f"`{node.op}` orders {cell}" if node.op in _ORDERINGS else f"`{node.op}` is arithmetic on {cell}"
                out.append(error("E038", f"{said}, which is no number or money", _where(side, node),
                                 help=f"a cell's price is its field: `{_text(side)}.price`"))
                break
            number = _a_number(other, scope)
            if number is None:
                continue
            out.append(error(
                "E038", f"{cell}, is compared with {number}: a cell is never equal to a number, so the comparison is "
                        f"always {'false' if node.op == '==' else 'true'}", _where(side, node),
                help=f"a cell's price is its field: `{_text(side)}.price`"))
            break
    return out


def _phases_begun_by_nothing(title: Title) -> list[Diagnostic]:
    """E020 for a phase after the first whose `on_train` is none (or absent) and that no rule enters
    (`enter_phase`): the game begins in the first phase, and each later one begins with the first train it
    names (the library's on_first_train); this one never came."""
    phases = title.components("phase")
    entered = {_named(node.args[0]) for clause in title.clauses for node in s.walk(clause.decl)
               if isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name == "enter_phase"
               and node.args}
    out: list[Diagnostic] = []
    for phase in phases[1:]:
        prop = phase.get("on_train")
        if (prop is not None and not isinstance(prop.value, s.NoneLit)) or phase.key in entered \
                or any(isinstance(node, s.Gap) for node in s.walk(prop)):
            continue
        out.append(error(
            "E020", f"phase {phase.key} never comes: it begins on no train (`on_train: none`), and only the first "
                    f"phase, {phases[0].key}, begins so", _where(prop.value, prop) if prop is not None else phase.span,
            help="name the train whose first purchase begins it: `on_train: \"3\"`"))
    return out


def _runs_paid_beyond_visits(title: Title) -> list[Diagnostic]:
    """E020 for a part of a train's run paid for more stops than it may visit (`(pay: 3, visit: 2)`): it is
    never paid for the third."""
    out: list[Diagnostic] = []
    for train in title.components("train"):
        prop = train.get("distance")
        if prop is None or not isinstance(prop.value, s.ListLit):
            continue
        for part in prop.value.items:
            if not isinstance(part, s.Record):
                continue
            pay, visit = part.get("pay"), part.get("visit")
            if isinstance(pay, s.Int) and isinstance(visit, s.Int) and pay.value > visit.value:
                out.append(error(
                    "E020", f"train {train.key} is paid for {pay.value} stops of a part of its run that visits "
                            f"{visit.value}: it is never paid for more than it visits", _where(pay, part),
                    help="`visit` is at least `pay` (an express visits more than it is paid for)"))
    return out


#: the colours of the tiles in the order they are laid
_COLOUR_ORDER = {"yellow": 1, "green": 2, "brown": 3, "gray": 4}


def _upgrades_backwards(title: Title, here) -> list[Diagnostic]:
    """E020 for a row of the `upgrades` table naming the tile itself, or a tile of its own colour or an
    earlier one (`"12" => ["9"]`, green to yellow): no upgrade goes back."""
    colours = {}
    for tile in title.components("tile"):
        prop = tile.get("color")
        if prop is not None and isinstance(prop.value, s.Name):
            colours[tile.key] = prop.value.name
    out: list[Diagnostic] = []
    for clause in title.clauses:
        table = clause.decl
        if clause.origin != here or not isinstance(table, s.Table) or table.name != "upgrades":
            continue
        for row in table.rows:
            if len(row.keys) != 1 or not isinstance(row.value, s.ListLit):
                continue
            old = str(row.keys[0])
            for item in row.value.items:
                new = _named(item)
                if new is None:
                    continue
                if new == old:
                    said = f"tile {old} upgrades to itself"
                elif colours.get(old) in _COLOUR_ORDER and colours.get(new) in _COLOUR_ORDER \
                        and _COLOUR_ORDER[colours[new]] <= _COLOUR_ORDER[colours[old]]:
                    said = (f"tile {old} ({colours[old]}) upgrades to tile {new} ({colours[new]}): an upgrade lays a "
                            "tile of a later colour")
                else:
                    continue
                out.append(error("E020", said, _where(item, row),
                                 help="yellow is upgraded to green, green to brown, brown to gray"))
    return out


def _other_currency(title: Title, here) -> list[Diagnostic]:
    """E020 for money written in another currency than the title's (`$80` in a title of `currency: "Ł"`): the
    engine reads the amount, the reference and the site print the wrong money."""
    prop = title.prop("currency")
    if prop is None or not isinstance(prop.value, s.Str) or not prop.value.value:
        return []
    currency = prop.value.value
    out: list[Diagnostic] = []
    for clause in title.clauses:
        if clause.origin != here:
            continue
        for node in s.walk(clause.decl):
            if isinstance(node, s.Money) and node.currency and node.currency != currency:
                out.append(error(
                    "E020", f"{node.currency}{node.amount} is money in {node.currency}; {title.name}'s currency is "
                            f"{currency}", _where(node, clause.decl), help=f"write {currency}{node.amount}"))
    return out


def _presidents_certificates(title: Title) -> list[Diagnostic]:
    """E020 for a corporation whose `shares` list a certificate larger than its first, the president's
    (`[10%, 40%, ...]`): the president's certificate is the largest, and the presidency exchanged for it."""
    out: list[Diagnostic] = []
    for kind in ("corporation", "minor"):
        for comp in title.components(kind):
            prop = comp.get("shares")
            if prop is None or not isinstance(prop.value, s.ListLit) or not prop.value.items:
                continue
            sizes = [item.value if isinstance(item, s.Percent) else None for item in prop.value.items]
            first = sizes[0]
            bigger = next((item for item, size in zip(prop.value.items[1:], sizes[1:])
                           if first is not None and size is not None and size > first), None)
            if bigger is not None:
                out.append(error(
                    "E020", f"{kind} {comp.key}'s president's certificate, the first of `shares`, is {first}%: "
                            f"smaller than its {bigger.value}% certificate", _where(bigger, prop),
                    help="`shares` lists the president's certificate first, then the others"))
    return out
