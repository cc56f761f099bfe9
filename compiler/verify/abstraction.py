"""The engine's state as the model's: translation validation's abstraction (`validate`).

`abstract_state(game, model)` reads a generated engine's state into the values of the model's
state variables (`verify.model`); `scope_exact` and `depot_exact` say whether the model can
describe it at all. `Compiled` and `Evaluator` evaluate the model's z3 terms on such values
with no solver: z3 terms turned into plain nodes once, then interpreted per state.
"""

from __future__ import annotations

import operator
from typing import Any

import z3

from compiler.runtime.entities import BANK as RT_BANK
from compiler.runtime.entities import Entity
from compiler.runtime.game import GameBase
from compiler.verify.lists import abstract as abstract_list
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
    Model,
    Unsupported,
    hold_name,
    state_var,
)


class Unknown(Exception):
    """A term depends on a value the evaluation does not have."""


_OPS = {
    z3.Z3_OP_ITE: "ite", z3.Z3_OP_AND: "and", z3.Z3_OP_OR: "or", z3.Z3_OP_NOT: "not",
    z3.Z3_OP_IMPLIES: "implies", z3.Z3_OP_EQ: "eq", z3.Z3_OP_DISTINCT: "distinct",
    z3.Z3_OP_LE: "le", z3.Z3_OP_LT: "lt", z3.Z3_OP_GE: "ge", z3.Z3_OP_GT: "gt",
    z3.Z3_OP_ADD: "add", z3.Z3_OP_SUB: "sub", z3.Z3_OP_MUL: "mul", z3.Z3_OP_UMINUS: "neg",
    z3.Z3_OP_IDIV: "div", z3.Z3_OP_DIV: "div", z3.Z3_OP_MOD: "mod",
}


class _RawZ3:
    """z3's C functions that `Compiled.add` calls, without the Python API's wrappers (each wrapper
    checks z3's error state after the call; these calls only read terms)."""

    def __init__(self) -> None:
        for name in ("Z3_get_ast_id", "Z3_get_ast_kind", "Z3_get_sort", "Z3_get_sort_kind", "Z3_get_numeral_string",
                     "Z3_get_app_decl", "Z3_get_decl_kind", "Z3_get_app_num_args", "Z3_get_app_arg"):
            wrapper = getattr(z3.z3core, name)
            setattr(self, name, wrapper.__defaults__[-1].f)  # (its `Elementaries`: the C function)


_Z3 = _RawZ3()


def _decl_name(ctx: z3.Context, decl: Any) -> str:
    """A declaration's name, as `z3.FuncDeclRef.name` gives it."""
    return z3.z3._symbol2py(ctx, z3.z3core.Z3_get_decl_name(ctx.ref(), decl))


class Compiled:
    """z3 terms turned into a table of plain nodes once, so that evaluating
    them on many states needs no calls into z3: (op, payload, children).

    One table may hold the terms of many steps (a validation's steps share most of their terms: the
    market's chains, the holdings): it keeps each term it is given alive, as its keys are z3's term
    ids, and says of each node whether it reads the depot (`reads_depot`)."""

    def __init__(self, model: Model):
        self.model = model
        self.nodes: list[tuple[str, Any, tuple[int, ...]]] = []
        self.index: dict[int, int] = {}
        #: whether each node reads a holding of the depot (a variable `...@depot`), itself or below
        self.depot: list[bool] = []
        #: the terms added (z3 reuses the id of a term no longer referenced)
        self.kept: list[Any] = []
        #: whether each node reads nothing but the pre-state (`pre.X` variables and constants): its
        #: value is the same for every candidate tried on one state (`Evaluator`'s `shared`)
        self.pre_only: list[bool] = []

    def reads_depot(self, nodes: Any) -> bool:
        """Whether any of these nodes reads a holding of the depot."""
        return any(self.depot[n] for n in nodes)

    def add(self, e: Any) -> int:
        """The node of a term (a Python int or bool is a constant).

        The walk calls z3's C functions directly (the Python API's objects and
        error checks made most of a validation's time)."""
        if not isinstance(e, z3.ExprRef):
            self.nodes.append(("const", e, ()))
            self.depot.append(False)
            self.pre_only.append(True)
            return len(self.nodes) - 1
        lib, c = _Z3, e.ctx.ref()
        index, by_id = self.index, self.model._by_id
        key = lib.Z3_get_ast_id(c, e.as_ast())
        found = index.get(key)
        if found is not None:
            return found
        self.kept.append(e)
        # iterative post-order walk (terms can be deep); a term's children are read once, and kept on
        # the stack with it until they are in the table
        get_id, put = lib.Z3_get_ast_id, self._put
        stack: list[tuple[Any, Any]] = [(e.as_ast(), None)]
        while stack:
            term, ready = stack.pop()
            if ready is not None:
                k, kind, decl, children = ready
                if k in index:
                    continue
                op = _OPS.get(kind)
                args = tuple(index[get_id(c, child)] for child in children)
                if op is None:
                    # (its arguments are in the table only for what they read: it is not evaluated)
                    put(k, ("unknown", _decl_name(e.ctx, decl), args))
                else:
                    put(k, (op, None, args))
                continue
            k = get_id(c, term)
            if k in index:
                continue
            numeral = lib.Z3_get_ast_kind(c, term) == z3.Z3_NUMERAL_AST
            if numeral and lib.Z3_get_sort_kind(c, lib.Z3_get_sort(c, term)) == z3.Z3_INT_SORT:
                put(k, ("const", int(lib.Z3_get_numeral_string(c, term)), ()))
                continue
            decl = lib.Z3_get_app_decl(c, term)
            kind = lib.Z3_get_decl_kind(c, decl)
            if kind == z3.Z3_OP_TRUE or kind == z3.Z3_OP_FALSE:
                put(k, ("const", kind == z3.Z3_OP_TRUE, ()))
                continue
            ent = by_id.get(k)
            if ent is not None:
                put(k, ("const", ent, ()))
                continue
            count = lib.Z3_get_app_num_args(c, term)
            if kind == z3.Z3_OP_UNINTERPRETED and count == 0:
                put(k, ("var", _decl_name(e.ctx, decl), ()))
                continue
            children = [lib.Z3_get_app_arg(c, term, i) for i in range(count)]
            stack.append((term, (k, kind, decl, children)))
            for child in children:
                if get_id(c, child) not in index:
                    stack.append((child, None))
        return index[key]

    def _put(self, key: int, node: tuple[str, Any, tuple[int, ...]]) -> None:
        op, payload, args = node
        depot = self.depot
        depot.append(payload.endswith("@depot") if op == "var" else any(depot[a] for a in args))
        pre_only = self.pre_only
        pre_only.append(payload.startswith("pre.") if op == "var" else
                        op != "unknown" and all(pre_only[a] for a in args))
        self.nodes.append(node)
        self.index[key] = len(self.nodes) - 1


class Evaluator:
    """Evaluates compiled terms on concrete values: `env` maps constant names
    to ints, bools or entities. Raises `Unknown` for a constant it lacks."""

    def __init__(self, compiled: Compiled, env: dict[str, Any], shared: dict[int, Any] | None = None):
        """`shared`: the values of the nodes that read nothing but the pre-state (`Compiled.pre_only`)
        for evaluators of the same `pre.X` values in `env` (the candidates tried on one state)."""
        self.c = compiled
        self.env = env
        self.memo: dict[int, Any] = {}
        if shared is not None:
            self._shared, self._pre_only = shared, compiled.pre_only
        else:
            self._shared = None

    def __call__(self, i: int) -> Any:
        memo = self.memo
        if i in memo:
            value = memo[i]
            if isinstance(value, Unknown):
                raise value
            return value
        op, payload, args = self.c.nodes[i]
        if op == "const":
            return payload  # (a constant is its own value: nothing to keep)
        shared = self._shared
        if shared is not None and self._pre_only[i]:
            memo = shared
            if i in memo:
                value = memo[i]
                if isinstance(value, Unknown):
                    raise value
                return value
        try:
            value = self._eval(op, payload, args)
        except Unknown as exc:
            memo[i] = exc
            raise
        memo[i] = value
        return value

    def _eval(self, op: str, payload: Any, args: tuple[int, ...]) -> Any:
        if op == "var":
            env = self.env
            if payload not in env:
                raise Unknown(payload)
            return env[payload]
        if op == "ite":
            # a chain of ite in the else branches (a value per case) is walked
            # in a loop, not by recursion: the chains can be thousands long
            nodes, memo = self.c.nodes, self.memo
            while True:
                branch = args[1] if self(args[0]) else args[2]
                op, _, args = nodes[branch]
                if op != "ite" or branch in memo:
                    return self(branch)
        compare = _COMPARE.get(op)
        if compare is not None:
            return compare(self(args[0]), self(args[1]))
        if op in ("and", "or"):
            want = op == "or"
            unknown = None
            for a in args:
                try:
                    if bool(self(a)) == want:
                        return want
                except Unknown as exc:
                    unknown = exc
            if unknown is not None:
                raise unknown
            return not want
        if op == "not":
            return not self(args[0])
        if op == "implies":
            return (not self(args[0])) or bool(self(args[1]))
        if op == "unknown":
            raise Unknown(f"operator {payload}")
        values = [self(a) for a in args]
        if op == "distinct":
            return len(set(values)) == len(values)
        if op == "add":
            return sum(values)
        if op == "sub":
            out = values[0]
            for v in values[1:]:
                out -= v
            return out
        if op == "mul":
            out = 1
            for v in values:
                out *= v
            return out
        if op == "neg":
            return -values[0]
        a, b = values
        if b == 0:
            raise Unknown("division by zero")
        r = a % abs(b)
        if op == "div":
            return (a - r) // b
        return r


#: the binary comparisons `Evaluator` reads (z3's are of two arguments)
_COMPARE = {"eq": operator.eq, "le": operator.le, "lt": operator.lt, "ge": operator.ge, "gt": operator.gt}


# ---------------------------------------------------------------- abstraction


def _ent(model: Model, e: Any) -> Ent:
    if e is None:
        return NONE
    if isinstance(e, Entity):
        if e.kind == "bank":
            return BANK
        if e.kind == "pool":
            return POOL
        if e.kind == "ipo" and model.ipo_apart:
            return IPO
        if e.kind == "depot":
            return DEPOT
        if e.kind == "scrap":
            return SCRAP
        found = model.entity(e.kind, e.id)
        if found is None:
            raise Unsupported(f"{e.kind} {e.id} outside the scope")
        return found
    raise Unsupported(f"not an entity: {e!r}")


def model_entity(model: Model, e: Any) -> Ent | None:
    """The model's entity for an engine entity, or None for one outside the
    scope (a corporation the scope leaves out, a minor): what it holds is in
    the model's "elsewhere" bucket."""
    try:
        return _ent(model, e)
    except Unsupported:
        return None


def _other_certificates(game: Any, model: Model, player: Entity) -> int:
    """What counts against `player`'s certificate limit outside the scope:
    certificates of the corporations the scope leaves out (the model's
    `other_certs` frame)."""
    total = game.b_certificates(player)
    counts = set(game.param("cert_limit_counts"))
    if "shares" in counts:
        for corp in model.corporations:
            zones = game._zones(game.entity("corporation", corp.id))
            if "no_cert_limit" in zones:
                continue
            total -= sum(1 for cert in game.certs_of[corp.id] if game.owner[cert.id] == player)
    if "privates" in counts:
        total -= sum(1 for x in model.private_items if game.owner[x.id] == player and not game.closed[x.id])
    if "bonds" in counts:
        total -= sum(1 for b in model.bond_items if game.owner[b.id] == player)
    if "minors" in counts:
        total -= sum(1 for x in model.minors
                     if game.owner[x.id] == player and not game.corp[x.id]["closed"])
    return total


def _other_certificates_of_players(game: Any, model: Model) -> dict[str, int]:
    """`_other_certificates` of every player of the scope, by id, counted in one pass over the
    holdings: the runtime's `b_certificates` (every certificate, private, bond and minor a player
    holds that counts against the limit, a corporation's shares outside its no-limit zones) less
    the scope's, as `_other_certificates` counts them. (Player by player, the engine's count walked
    every holding once per player and compared each holder field by field.)"""
    players = {p.id: game.entity("player", p.id) for p in model.players}
    if type(game).b_certificates is not GameBase.b_certificates:  # a title's own count: asked as it is
        return {pid: _other_certificates(game, model, player) for pid, player in players.items()}
    seat = {player: pid for pid, player in players.items()}
    totals = dict.fromkeys(players, 0)
    owner = game.owner

    def tally(ids: Any, sign: int, counted: Any = None) -> None:
        """Each item of `ids` a player of the scope holds (and `counted(id)`, when given) counted
        for him with `sign`."""
        for item_id in ids:
            pid = seat.get(owner[item_id])
            if pid is not None and (counted is None or counted(item_id)):
                totals[pid] += sign

    counts = set(game.param("cert_limit_counts"))
    if "shares" in counts:
        scope = [game.entity("corporation", c.id) for c in model.corporations]
        for corps, sign in ((game.corporations, 1), (scope, -1)):
            for corp in corps:
                certs = game.certs_of[corp.id]
                if any(owner[cert.id] in seat for cert in certs) and "no_cert_limit" not in game._zones(corp):
                    tally((cert.id for cert in certs), sign)
    if "privates" in counts:
        tally((x.id for x in game.privates), 1, lambda x: not game.closed[x])
        tally((x.id for x in model.private_items), -1, lambda x: not game.closed[x])
    if "bonds" in counts:
        tally((b.id for b in game.bonds), 1)
        tally((b.id for b in model.bond_items), -1)
    if "minors" in counts:
        tally((m.id for m in game.minors), 1, lambda m: not game.corp[m]["closed"])
        tally((m.id for m in model.minors), -1, lambda m: not game.corp[m]["closed"])
    return totals


def scope_exact(game: Any, model: Model) -> bool:
    """Whether the model's variables describe the engine's state: no
    corporation in the scope has closed, no entity in the scope holds a
    train copy the scope leaves out (the model would read such a corporation
    as trainless), and no decision is pending over the founding of a
    corporation outside the scope."""
    items = getattr(model, "_item_ids", None)
    if items is None:
        items = {item.id for item in model.items}
        model._item_ids = items  # type: ignore[attr-defined]
    for corp in model.corporations:
        if game.corp[corp.id].get("closed"):
            return False  # the model has no closed corporations (see `check`)
        if [(c.id, c.percent, bool(c.president)) for c in game.certs_of[corp.id]] not in _layouts(model, corp):
            return False  # a share layout the model does not know
    if game.g.get("state:decisions"):
        # a founding under way of a corporation outside the scope (1880 VI.6: its par set, its
        # president's certificate still with its unsold ones, the founder's choice of its size
        # pending): the decision pending is of that corporation, which the model has no variables for
        # (its par, its certificates); the model would read the state as one with no founding under
        # way, where the founder's answer changes nothing
        scoped = {c.id for c in model.corporations}
        for corp in game.corporations:
            if corp.id not in scoped and game.corp[corp.id]["par"] is not None and not game.corp[corp.id].get("closed") \
                    and game.owner[game.certs_of[corp.id][0].id] == game._ipo_of(corp):
                return False
    if "corporations" in (game.DATA.properties.get("presidency_contenders") or ()):
        # a corporation outside the scope holding certificates of one inside
        # contends for its presidency (`_check_president`); the model reads
        # those certificates as elsewhere
        scoped = {c.id for c in model.corporations}
        for corp in model.corporations:
            for cert in game.certs_of[corp.id]:
                holder = game.owner[cert.id]
                if isinstance(holder, Entity) and holder.kind == "corporation" and holder.id not in scoped:
                    return False
    for train_id in game.trains:
        if train_id in items:
            continue
        holder = model_entity(model, game.owner.get(train_id))
        if holder is not None and holder not in (DEPOT, SCRAP):
            return False
    return True


def _layouts(model: Model, corp: Ent) -> list[list[tuple[str, int, bool]]]:
    """The certificates (id, percent, president's) of each share layout the model gives the
    corporation: its only layout, without `share_layouts` (worked out once a model: `scope_exact`
    asks at every state)."""
    known = getattr(model, "_layouts_by_corp", None)
    if known is None:
        known = model._layouts_by_corp = {}  # type: ignore[attr-defined]
    found = known.get(corp.id)
    if found is None:
        found = known[corp.id] = [[(c.id, c.percent, bool(c.president)) for c in certs]
                                  for _, certs in model.layout_certificates(corp)]
    return found


def depot_exact(game: Any, model: Model) -> bool:
    """Whether the trains the depot sells now are all copies in the scope:
    the model holds a few copies of each train type, so once the engine's
    next copy of a type is one it leaves out, the model reads the type as
    sold out (a wrong cheapest train, a wrong forced purchase). Actions that
    read the depot are played, not compared, in such a state."""
    items = getattr(model, "_item_ids", None)
    if items is None:
        items = {item.id for item in model.items}
        model._item_ids = items  # type: ignore[attr-defined]
    return all(t in items for t in game._available_train_ids())


def _holding_plan(model: Model) -> tuple[list[tuple[str, dict[Ent, str], str]], dict[str, int]]:
    """Each item's id, its holding variables by holder and its "elsewhere" variable; and every
    holding variable at 0, in that order (what `abstract_state` starts from)."""
    plan = getattr(model, "_holding_plan", None)
    if plan is None:
        items = [(item.id, {b: hold_name(item, b) for b in model.buckets[item.kind]}, hold_name(item, None))
                 for item in model.items]
        zeros = {name: 0 for _, buckets, other in items for name in (*buckets.values(), other)}
        plan = model._holding_plan = (items, zeros)  # type: ignore[attr-defined]
    return plan


def _states_plan(model: Model) -> list[tuple[str, list[tuple[str, tuple[str, ...]]]]]:
    """The title's declared states the model follows (`Model.states`, those of elements it can
    name), each as the engine's key and, for each element of the scope, its variable's name and
    the element's ids; made once a model (what `abstract_state` reads of them)."""
    plan = getattr(model, "_states_plan", None)
    if plan is None:
        plan = []
        for decl in model.states():
            if decl.is_list:
                continue  # (`abstract_state` reads a list: `compiler.verify.lists.abstract`)
            try:
                elements = model.state_elements(decl)
            except Unsupported:
                continue
            plan.append((f"state:{decl.name}",
                         [(state_var(decl.name, parts), tuple(p if isinstance(p, str) else p.id for p in parts))
                          for parts in elements]))
        model._states_plan = plan  # type: ignore[attr-defined]
    return plan


def abstract_state(game: Any, model: Model) -> dict[str, Any]:
    """The engine's state as the model's variables: name -> int, bool or `Ent`."""
    out: dict[str, Any] = {}
    g = game.g
    if model.vars.unlimited_bank:
        out["flow:paid"] = game.flow["paid"]
        out["flow:received"] = game.flow["received"]
    else:
        out["cash:bank"] = game.cash[RT_BANK]
    for p in model.players + model.corporations + model.minors:
        out[f"cash:{p.id}"] = game.cash[game.by_id[(p.kind, p.id)]]
    for x in model.minors:
        out[f"owner:{x.id}"] = model_entity(model, game.owner[x.id]) or ELSEWHERE
        out[f"closed:{x.id}"] = bool(game.corp[x.id]["closed"])
    owner = game.owner
    plan, zeros = _holding_plan(model)
    out.update(zeros)
    #: the model's entity of each engine holder met (by the holder's identity: the game keeps it)
    holders: dict[int, Ent | None] = {}
    for item_id, buckets, other in plan:
        # an item the engine lacks (a train side the model counts as cards of
        # its own) is elsewhere
        if item_id in owner:
            engine_holder = owner[item_id]
            key = id(engine_holder)
            if key in holders:
                holder = holders[key]
            else:
                holder = holders[key] = model_entity(model, engine_holder)
            found = False
        else:
            holder = None
            # a certificate the share layout chosen lacks is held by nobody, not elsewhere
            found = item_id in model.layout_cert_ids
        name = buckets.get(holder) if holder is not None else None
        if name is not None:
            out[name] = 1
            found = True
        if not found:
            out[other] = 1
    for x in model.privates:
        out[f"closed:{x.id}"] = bool(game.closed[x.id])
    for c in model.corporations:
        st = game.corp[c.id]
        out[f"has_par:{c.id}"] = st["par"] is not None
        out[f"par:{c.id}"] = st["par"] if st["par"] is not None else 0
        cell = st["cell"]
        out[f"has_cell:{c.id}"] = cell is not None
        out[f"row:{c.id}"] = cell[0] if cell is not None else 0
        out[f"col:{c.id}"] = cell[1] if cell is not None else 0
        out[f"floated:{c.id}"] = bool(st["floated"])
        out[f"tokens:{c.id}"] = st["tokens"]
        if model.extra_tokens:
            out[f"extra_tokens:{c.id}"] = st.get("extra_tokens", 0)
        for name in model.corp_fields:
            out[f"field:{c.id}.{name}"] = st.get(name, model.data[c].get(name))
        out[f"revenue:{c.id}"] = st["revenue"]
    for c in model.layout_corps:
        out[f"layout:{c.id}"] = game.certs_of[c.id][0].percent
    out["phase"] = model.phase_keys.index(g["phase"])
    for t in model.train_types:
        out[f"first_bought:{t}"] = t in g["first_bought"]
    out["round"] = ROUNDS.index(g["round"]) if g["round"] in ROUNDS else -1
    out["step"] = STEPS.index(g["step"]) + 1 if g["step"] in STEPS else 0
    # (the decisions owed: the library's list state `decisions`, below)
    operating = g["operating"]
    out["operating"] = (model.entity("corporation", operating) or NONE) if operating else NONE
    acting = game.current_entity()
    out["acting"] = (model_entity(model, acting) or NONE) if acting is not None and acting.kind != "minor" else NONE
    if model.truncated:
        for pid, count in _other_certificates_of_players(game, model).items():
            out[f"other_certs:{pid}"] = count
    out["acted"] = bool(g["acted"])
    for key, elements in _states_plan(model):  # the declared states: each element of the scope in the set or not
        held = g.get(key, frozenset())
        for name, ids in elements:
            # (an amount's: its number, 0 where none was set)
            out[name] = held.get(ids, 0) if isinstance(held, dict) else ids in held
    for decl in model.states():
        if decl.is_list and decl.bound:  # a list state: its length and slots
            out.update(abstract_list(model, decl, g.get(f"state:{decl.name}", ()), model.entity))
    if model.cards is not None:  # (the cubes on each card: the library's state `cubes`, above)
        for c in model.corporations:
            key = g.get("cards", {}).get(c.id)
            out[f"card:{c.id}"] = model.card_index(key) or 0
    return out
