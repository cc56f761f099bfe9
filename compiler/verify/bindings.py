"""The translator's bindings and whole routines: an action's or a trigger's parameters bound to the
model's values (`action_bindings`, `trigger_bindings`), and a routine translated under one binding
(`translate_routine`, `translate_trigger`). A mixin of `translator.Translator`, whose expressions and
statements it uses.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from compiler.lang import syntax as s
from compiler.lang.ir import Clause
from compiler.runtime.game import OUT_OF_TURN
from compiler.verify.model import NONE, ROUNDS, Ent, Item, Unsupported
from compiler.verify.terms import (AND, EMPTY_LIST, EVENT_ARGUMENTS, NOT, OR, Binding, CardRef, Ctx, ListHead, Opaque,
                                   Routes, Sel, Step, SymList, _list_inner, indexed_lists)


class RoutineBindings:
    """Bindings and whole routines, for `Translator`."""

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
            else:  # an enum's values, or the keys of the title's components of a kind (an effect)
                clause = self.title.get("enum", alt)
                keys = clause.decl.values if clause is not None else m.component_keys(alt)  # type: ignore[union-attr]
                if keys is None:
                    raise Unsupported(f"parameter type {alt}")
                out.extend(keys)
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
                        turn = OR(turn, *[AND(pre["acting"] == m.z(c), self.call("president", [m.z(c)], {}, ctx) == first)
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
                declined = OR(*self.builtins.declines(ctx, first)) if decl.name == "pass" else False
                ctx.require(OR(NOT(self.builtins.owed_other(pre, code)), declined))  # (`decisions`' first)
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
        m = self.model
        domains = {"corporation": lambda: list(m.corporations), "phase": lambda: [str(k) for k in m.phase_keys],
                   # a train of each type (the event reads only its type)
                   "train": lambda: [t for t in m.train_types if any(x.name == t for x in m.trains)]}
        choices = [[(name, value) for value in domains[kind]()]
                   for name, kind in zip(names, kinds) if kind in domains]
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
                elif kind == "train":
                    # the first train of its type
                    ctx.locals[name] = Sel([(next(x for x in self.model.trains if x.name == binding.get(name)), True)])
                elif kind == "card":
                    # the card just picked: the one the company holds now
                    assert corp is not None
                    card = self.builtins.card_of(ctx, self.model.z(corp))
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
