"""The IR of a title's actions, procedures, functions and triggers, translated to z3.

One *transition* is an action schema (`action buy_shares(...)`), a trigger, a
library procedure the runtime calls at its moment (`check_take_over`, after every
action, where the title has 18CO's take-overs; `take_presidency`, the transition
`take_over`, the §9.2-style presidency exchange after a purchase), or a step of the runtime's
round machinery that the DSL does not spell out (a private sold to its bidder, a draft's end). A transition has *bindings*: its entity-typed and enum-typed
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
in `Builtins`, `compiler/verify/translator.py`). Two of the runtime's safety refusals are deliberately *not*
guards: a negative payment, and a move of an item from a holder that does not
hold it. A rule that relies on them is a transcription error, and the
invariants catch it (money or shares stop adding up, a cash goes negative).

Cascades: the round machinery that a builtin sets off after the action's own
effects (`end_step`, `pass_turn`, `bought`'s take-over check, a train type's
first purchase, an operating round's start with its triggers) is not inlined.
Each such step is a transition of its own, checked from every state the
invariants allow; an action's turn bookkeeping is havocked within its domain.

The translation's modules (this one re-exports their names): `terms.py`, the values, the
connectives and the records of a transition (a leaf); `translator.py`, the `Translator` and the
`Builtins`, whose methods are the mixins of `builtins_state.py` (holders, cash, the market,
certificates, the queries and the draft), `builtins_map.py` (tile lays and station tokens),
`builtins_effects.py` (the effects) and `builtins_abilities.py` (the engine's oracles, the
privates' abilities, the ability cards); here, the runtime steps and the initial state.
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.verify.list_vars import length_var
from compiler.verify.list_vars import variables as list_variables
from compiler.verify.model import (
    AUCTION,
    BANK,
    DEPOT,
    NONE,
    ROUNDS,
    Ent,
    GapError,
    Model,
    Reads,
    Unsupported,
    bid_var,
    component_data,
    hold_name,
    stable_hash,
    state_var,
)
from compiler.verify.terms import (
    AND,
    DIV,
    EMPTY_LIST,
    EVENT_ARGUMENTS,
    IF,
    IMPLIES,
    MOD,
    MUL,
    NEG,
    NOT,
    OR,
    OUT_OF_SCOPE_GROUPS,
    SUM,
    Binding,
    CardRef,
    Ctx,
    DeadPath,
    ListHead,
    Opaque,
    Routes,
    Sel,
    Shared,
    Step,
    SymList,
    Transition,
    _list_inner,
    ent_is,
    indexed_lists,
    is_z3,
    truth,
    zb,
    zi,
)
from compiler.verify.translator import Builtins, Translator

#: the translation's names, whichever of its modules defines them (`from compiler.verify.translate import X`)
__all__ = [
    "AND",
    "DIV",
    "EMPTY_LIST",
    "EVENT_ARGUMENTS",
    "IF",
    "IMPLIES",
    "MOD",
    "MUL",
    "NEG",
    "NOT",
    "OR",
    "OUT_OF_SCOPE_GROUPS",
    "SUM",
    "Binding",
    "Builtins",
    "CardRef",
    "Ctx",
    "DeadPath",
    "ListHead",
    "Opaque",
    "Routes",
    "Sel",
    "Shared",
    "Step",
    "SymList",
    "Transition",
    "Translator",
    "_list_inner",
    "ent_is",
    "indexed_lists",
    "initial_state",
    "is_z3",
    "runtime_transitions",
    "truth",
    "zb",
    "zi",
]


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

    take = tr.title.get("procedure", "take_presidency")

    def take_over(binding: Binding) -> Step:
        # the library's take_presidency, which the runtime calls for a corporation after a purchase of its
        # shares (`StockRound._check_president`), translated from the DSL as an action's body is; the step
        # is the exchange (where none happens, the check changes nothing)
        corp: Ent = binding.get("corporation")
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        if take is None:
            raise Unsupported("the title has no procedure take_presidency (the library's)")
        ctx.shared.calls.add("take_presidency")
        tr.call_routine(take, [m.z(corp)], {}, ctx)
        pres = m.certs_for(corp.id)[0]
        ctx.require(OR(*[ctx.state[hold_name(pres, h)] != pre[hold_name(pres, h)] for h in m.buckets[pres.kind]]))
        ctx.shared.settled.add(corp.id)
        return tr.finish(binding.label("take_over"), ctx, pre)

    out.append(Transition(
        "take_over", "runtime", None, f"{stock}._check_president" + (f", {take.decl.span}" if take is not None else ""),
        takeover_cite,
        "a player holding more than the president takes the presidency, giving shares worth the president's "
        "certificate (the library's take_presidency)",
        stable_hash("take_over/2", take.decl if take is not None else None), take_over_bindings, take_over,
        (take.decl,) if take is not None else ()))

    check = tr.title.get("procedure", "check_take_over")
    if m.prop_value("takeover_when") == "president_certificate_held" and check is not None:
        # the library's take-over check, which the runtime calls for each corporation after every action
        # (`OperatingRound._check_takeovers`): translated from the DSL, as an action's body is
        def check_take_over(binding: Binding) -> Step:
            corp: Ent = binding.get("corporation")
            pre = m.vars.fresh_state("pre")
            ctx = tr.new_ctx(pre)
            ctx.shared.calls.add("check_take_over")
            tr.call_routine(check, [m.z(corp)], {}, ctx)
            return tr.finish(binding.label("check_take_over"), ctx, pre)

        out.append(Transition(
            "check_take_over", "runtime", None, f"{operating}._check_takeovers, {check.decl.span}",
            _prop_cite(m, "takeover_when") or "runtime",
            "a corporation holding another's president's certificate takes it over (the library's take_over)",
            "check_take_over/1", take_over_bindings, check_take_over, (check.decl,)))

    def single() -> list[Binding]:
        return [Binding(())]

    def sale_bindings() -> list[Binding]:
        return [Binding((("private", x), ("player", p))) for x in m.privates for p in m.players]

    def sold_to_bidder(binding: Binding) -> Step:
        x: Ent = binding.get("private")
        p: Ent = binding.get("player")
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        on_sale = tr.call("private_on_sale", [], {}, ctx)  # the library's
        amount = z3.Int("param:amount")
        ctx.shared.params["amount"] = amount
        bid = pre[bid_var(x, p)]
        # (an auction's high bid is its bidder's standing bid: the library's auction_bid)
        sold = [AND(on_sale == m.z(x), bid > 0, amount == bid)]
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
            ctx.state[bid_var(x, q)] = 0
        ctx.shared.reads.add("property", "private_sale_bidding", m.prop_value("private_sale_bidding"))
        if m.prop_value("private_sale_bidding") is True:
            # the auction among the private's bidders (`_auction_won`) ends; another may begin
            ctx.havoc([AUCTION])
        b.turn_over(ctx)
        return tr.finish(binding.label("private_sold_to_bidder"), ctx, pre)

    out.append(Transition(
        "private_sold_to_bidder", "runtime", None, f"{auctions}._resolve_bids / _auction_won",
        _prop_cite(m, "private_sale_bidding") or "runtime",
        "a private on sale goes to its only bidder, or to the auction's winner, for the bid",
        "private_sold_to_bidder/1", sale_bindings, sold_to_bidder))

    end_draft = tr.title.get("procedure", "end_draft")
    # the title's triggers on the first stock round's start (the library's count_stock_rounds), which the
    # runtime's end of the draft raises
    round_starts = [c.decl for c in tr.title.of_kind("trigger")
                    if c.decl.event.name == "stock_round_start" and c.decl.event.when is None]

    def draft_ends(binding: Binding) -> Step:
        # the library's end_draft, which the runtime calls when only Pass cards are left (`_end_draft`: when
        # that is is the runtime's), translated from the DSL as an action's body is: each player pays the bank
        # for the companies he picked and takes them, a minor receives its starting treasury from the bank
        # (its start, `_start_minor`, is not the model's); then the first stock round begins, its triggers
        # on stock_round_start with it
        pre = m.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        if end_draft is None:
            raise Unsupported("the title has no procedure end_draft (the library's)")
        ctx.require(pre["round"] == ROUNDS.index("draft"))
        ctx.shared.calls.add("end_draft")
        tr.call_routine(end_draft, [], {}, ctx)
        b.turn_over(ctx)
        ctx.state["round"] = z3.IntVal(ROUNDS.index("stock"))
        for decl in round_starts:
            ctx.shared.reads.add("trigger", decl.name, decl)
            tr.stmts(decl.body, ctx)
        return tr.finish("draft_ends()", ctx, pre)

    if m.draft_items:
        out.append(Transition(
            "draft_ends", "runtime", None,
            f"{auctions}._end_draft" + (f", {end_draft.decl.span}" if end_draft is not None else ""),
            m.component_cites("draft") or "runtime",
            "only Pass cards are left: each player pays for the companies he picked and takes them; a minor "
            "receives its treasury; the first stock round begins (the library's end_draft)",
            stable_hash("draft_ends/3", end_draft.decl if end_draft is not None else None, round_starts), single,
            draft_ends, ((end_draft.decl,) if end_draft is not None else ()) + tuple(round_starts)))
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
    for decl in m.states():
        # the declared states start empty, as the engine's (an amount: 0; a list: no element, its slots blank)
        if decl.is_list:
            state.update({name: (m.z(NONE) if sort == "ent" else z3.IntVal(0)) if name != length_var(decl.name)
                          else z3.IntVal(0) for name, sort in list_variables(decl)})
            continue
        try:
            elements = m.state_elements(decl)
        except Unsupported:
            continue
        for parts in elements:
            state[state_var(decl.name, parts)] = z3.IntVal(0) if decl.is_amount else z3.BoolVal(False)
    _removals(tr, state, reads, axioms)
    state["phase"] = z3.IntVal(0)
    for t in m.train_types:
        state[f"first_bought:{t}"] = z3.BoolVal(False)
    for c in m.corporations:
        state[f"revenue:{c.id}"] = z3.IntVal(0)
    if m.cards is not None:
        for c in m.corporations:
            state[f"card:{c.id}"] = z3.IntVal(0)  # (and no cubes: the library's state `cubes`, above)
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
