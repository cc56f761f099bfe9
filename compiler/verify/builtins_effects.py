"""The runtime's builtins as z3 (`Builtins`, see `translator.py`): the effects (par, purchases,
sales, debts, the presidency, turns, abilities used, bids, certificates granted).
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.runtime.entities import exchange_sets
from compiler.verify.lists import decision_vars, front, pop_decision
from compiler.verify.lists import operation as list_operation
from compiler.verify.model import (
    ROUNDS,
    Ent,
    Item,
    Unsupported,
    granted_var,
    hold_name,
    state_var,
)
from compiler.verify.terms import (
    AND,
    CMP,
    IF,
    IMPLIES,
    NEG,
    NOT,
    OR,
    SUM,
    Ctx,
    Sel,
    SymList,
    ent_is,
    truth,
    zi,
)


class EffectBuiltins:
    """The builtins with effects: par, purchases, sales, debts, presidency, turns, abilities
    used, bids, certificates granted."""

    # ---------------------------------------------------------------- effects

    def bought(self, ctx: Ctx) -> None:
        """As GameBase._bought (move_turn(P, certificate_bought), after the library's bought checked the float
        and the presidency): the buyer's turn marks; in a special round (18CO §8.2: one certificate a turn)
        the turn moves on, which the round machinery says (havocked, as a pass's)."""
        st = ctx.state
        st["acted"] = IF(ctx.path, True, st["acted"])
        special = ctx.fork(ctx.state["round"] == ROUNDS.index("special"))
        self.turn_over(special)
        ctx.state = special.state

    def b_check_president(self, ctx: Ctx, corp: Any) -> None:
        """The take-over itself is a runtime step of its own (`take_over`);
        the step records when it asked for it, for `president_holds_most`."""
        for c, cond in self.corp_of(ctx, corp):
            when = AND(ctx.path, cond)
            ctx.shared.checked[c.id] = OR(ctx.shared.checked.get(c.id, False), when)

    def presidency_exchange(self, ctx: Ctx, corp: Ent, seller: Any = None,
                            sold: Any = 0) -> tuple[Any, list[tuple[Any, Ent, Ent, list[tuple[Item, Any]]]]]:
        """As `GameBase._check_president` on `ctx.state`: whether a take-over
        of `corp` happens, and its alternatives (condition, president,
        challenger, the challenger's certificates given and when). The
        challenger is the first player from the president's left holding the
        most, more than the president (`presidency_challengers`); he gives the first set of ordinary
        certificates worth exactly the president's certificate that he holds (`exchange_takes`)."""
        m = self.m
        st = ctx.state
        pres = m.certs_for(corp.id)[0]
        any_exchange: Any = False
        effects: list[tuple[Any, Ent, Ent, list[tuple[Item, Any]]]] = []
        takes_of: dict[Ent, tuple[Any, list[tuple[Item, Any]]]] = {}
        for p0 in m.players:
            is_pres = st[hold_name(pres, p0)] >= 1
            for p1, is_ch in self.presidency_challengers(ctx, corp, p0, seller, sold).items():
                if p1 not in takes_of:
                    takes_of[p1] = self.exchange_takes(ctx, corp, p1)
                found, given = takes_of[p1]
                cond = AND(is_pres, is_ch, found)
                effects.append((cond, p0, p1, given))
                any_exchange = OR(any_exchange, cond)
        return any_exchange, effects

    def presidency_rivals(self, corp: Ent) -> list[Ent]:
        """The corporations that contend for `corp`'s presidency (`presidency_contenders`): after the
        players, a started corporation holding more (their operating order is outside the model: with
        more than one in the scope the step is not supported)."""
        if "corporations" in (self.m.prop_value("presidency_contenders") or ()):
            rivals = [c for c in self.m.corporations if c != corp]
            if len(rivals) > 1:
                raise Unsupported("presidency contenders among corporations: their operating order")
            return rivals
        return []

    def presidency_challengers(self, ctx: Ctx, corp: Ent, p0: Ent, seller: Any = None,
                               sold: Any = 0) -> dict[Ent, Any]:
        """As `GameBase._presidency_challenger` for president `p0`: each holder with when he is the one
        holding the most, more than `p0` (the first from p0's left; then the rivals,
        `presidency_rivals`), whether or not he holds an exchange set. Where `seller` (an entity
        term) sells `sold` percent, his holding counts that much less."""
        m = self.m
        st = ctx.state
        held = {p: self.percent_of(ctx, m.z(p), corp) for p in m.players}
        if seller is not None:
            # a president selling shares of his certificate: his holding counts less what he sells
            held = {p: SUM([v, NEG(IF(ent_is(m, seller, p), sold, 0))]) for p, v in held.items()}
        rivals = self.presidency_rivals(corp)
        held.update({c: self.percent_of(ctx, m.z(c), corp) for c in rivals})
        i = m.players.index(p0)
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
        return challenger

    def exchange_takes(self, ctx: Ctx, corp: Ent, p1: Ent) -> tuple[Any, list[tuple[Item, Any]]]:
        """As `GameBase._exchange_given` for holder `p1`: whether he holds a set of ordinary certificates
        worth exactly the president's certificate, and each certificate he gives with when: the first
        such set he holds (`exchange_sets`: the fewest, then the highest-numbered, under each share
        layout the corporation may have). Where the title says `presidency_exchange: first_acquired` he
        gives the shares he came by first, an order the model does not hold: one of those sets he holds,
        which the engine chooses (the oracle `exchange_given`, about the corporation, the holder and the
        sets in the order it numbers them; the validator answers it with `GameBase._exchange_given`)."""
        m = self.m
        st = ctx.state
        certs = m.certs_for(corp.id)
        # the sets under each share layout the corporation may have (one, without share layouts)
        sets: list[tuple[Any, list[Item]]] = []
        original = {x.index: x for x in certs}
        for chosen, layout in self.layout_cases(ctx, corp):
            sets.extend((chosen, [original[x.index] for x in group]) for group in exchange_sets(layout))
        takes: dict[Item, Any] = {}
        found: Any = False
        if m.prop_value("presidency_exchange") == "first_acquired":
            # (the engine's choice: each set once, under whichever layout has it)
            distinct: dict[tuple[Item, ...], Any] = {}
            for chosen, group in sets:
                distinct[tuple(group)] = OR(distinct.get(tuple(group), False), chosen)
            held_sets = [AND(chosen, *[st[hold_name(cert, p1)] >= 1 for cert in group])
                         for group, chosen in distinct.items()]
            choice = self.oracle(ctx, "exchange_given", (corp.id, p1.id,
                                                         tuple(tuple(c.id for c in group) for group in distinct)),
                                 "int")
            found = OR(*held_sets)
            # the engine gives a set he holds, wherever he holds one
            ctx.shared.axioms.append(IMPLIES(found, OR(*[AND(choice == i, holds)
                                                         for i, holds in enumerate(held_sets)])))
            for i, (group, holds) in enumerate(zip(distinct, held_sets)):
                for cert in group:
                    takes[cert] = OR(takes.get(cert, False), AND(choice == i, holds))
            sets = []
        for chosen, group in sets:
            holds = AND(chosen, *[CMP(">=", st[hold_name(cert, p1)], 1) for cert in group])
            first = AND(holds, NOT(found))
            for cert in group:
                takes[cert] = OR(takes.get(cert, False), first)
            found = OR(found, holds)
        return found, [(cert, takes[cert]) for cert in sorted(takes, key=lambda c: -c.index)]

    def b_presidency_challengers(self, ctx: Ctx, corp: Any, president: Any, sold: Any) -> Any:
        """As GameBase.b_presidency_challengers: the holder taking the presidency from the president, the
        president's holding counted `sold` percent less (`presidency_challengers`), where he holds a set
        worth the president's certificate (`exchange_found`): each holder that may be it (the players,
        then `presidency_rivals`), present where he is."""
        m = self.m
        p = self.ent(president)
        parts: dict[Ent, list[Any]] = {}
        for c, cond in self.corp_of(ctx, corp):
            for p0 in m.players:
                at = ent_is(m, p, p0)
                if truth(at) is False:
                    continue
                for p1, is_ch in self.presidency_challengers(ctx, c, p0, p, sold).items():
                    parts.setdefault(p1, []).append(AND(cond, at, is_ch, self.exchange_found(ctx, c, p1)))
        return SymList([(m.z(h), OR(*parts[h])) for h in m.players + m.corporations if h in parts])

    def exchange_found(self, ctx: Ctx, corp: Ent, p1: Ent) -> Any:
        """Whether `p1` holds a set worth `corp`'s president's certificate (`exchange_takes`' first part,
        without the engine's choice among them)."""
        st = ctx.state
        original = {x.index: x for x in self.m.certs_for(corp.id)}
        return OR(*[AND(chosen, *[st[hold_name(original[x.index], p1)] >= 1 for x in group])
                    for chosen, layout in self.layout_cases(ctx, corp) for group in exchange_sets(layout)])

    def b_exchange_given(self, ctx: Ctx, corp: Any, holder: Any) -> Any:
        """As GameBase.b_exchange_given: the certificates the holder gives for the president's certificate
        (`exchange_takes`), none where he holds no set worth it; for the holders that may take a
        presidency (the players and `presidency_rivals`)."""
        m = self.m
        h = self.ent(holder)
        elems = []
        for c, cond in self.corp_of(ctx, corp):
            for p1 in m.players + self.presidency_rivals(c):
                if truth(ent_is(m, h, p1)) is False:
                    continue
                _, given = self.exchange_takes(ctx, c, p1)
                elems.extend((Sel([(cert, True)]), AND(cond, ent_is(m, h, p1), take)) for cert, take in given)
        return SymList(elems)

    def turn_over(self, ctx: Ctx) -> None:
        """The round machinery moves on: its bookkeeping is havocked (the draft, which only opens
        the game, never comes back)."""
        drafting = ctx.state["round"] == ROUNDS.index("draft")
        ctx.havoc(self.m.vars.turn_names())
        if self.m.draft_items:
            ctx.shared.axioms.append(IMPLIES(AND(ctx.path, NOT(drafting)), ctx.state["round"] != ROUNDS.index("draft")))

    def b_move_turn(self, ctx: Ctx, entity: Any, move: Any) -> None:
        """As GameBase.b_move_turn: after E's move (a value of the library's turn_move, named in the library's
        procedure that calls it) the round machinery moves on: a pass (`pass_turn`), a purchase (`bought`),
        the decisions owed changed (`next_decision`) as below; a bid, a private bought at its offered price,
        a step ended move the turn on as the round machinery says (havocked: `turn_over`; in the acquisition
        round the auction's resolution once the last bidder has bid is a runtime step the model does not
        follow)."""
        if not isinstance(move, str):
            raise Unsupported("move_turn of a non-name")
        if move == "passed":
            self.pass_turn_declining(ctx, entity)
        elif move == "certificate_bought":
            self.bought(ctx)
        elif move == "decisions_changed":
            self.next_decision(ctx)
        elif move in ("bid_made", "private_bought", "step_ended"):
            self.turn_over(ctx)
        else:
            raise Unsupported(f"move_turn of {move}, not a move of the library's turn_move")

    def declines(self, ctx: Ctx, entity: Any) -> tuple[Any, Any]:
        """As GameBase._dispatch and _pass_turn: whether a `pass` by `entity` declines the decision it
        owes (the first pending), (as one of the title's `declinable_decisions`, as a takeover's choice of the
        stations to replace: a `place_token` owed while the library's station_choice_open holds)."""
        m = self.m
        st = ctx.state
        listed = [str(a) for a in (m.prop_value("declinable_decisions") or [])]
        ctx.shared.reads.add("property", "declinable_decisions", listed)
        codes = [m.vars.action_code(a) for a in listed]
        e = self.ent(entity)
        owed, owing, owed_action = front(m, st)  # the first decision owed (the library's list `decisions`)
        swapping = []
        swaps = m.prop_value("takeover_token_swaps")
        ctx.shared.reads.add("property", "takeover_token_swaps", swaps)
        if isinstance(swaps, int) and swaps > 0:
            for c in m.corporations:
                found = self.tr.call("station_choice_open", [m.z(c)], {}, ctx)  # the library's
                swapping.append(AND(e == m.z(c), owed_action == m.vars.action_code("place_token"), found))
        return AND(owed, owing == e, OR(*[owed_action == code for code in codes])), AND(owed, owing == e, OR(*swapping))

    def pass_turn_declining(self, ctx: Ctx, entity: Any) -> None:
        """As GameBase._pass_turn (move_turn(E, passed)): a decision E owes declined, else `pass_turn`."""
        listed, swap = self.declines(ctx, entity)
        declining = OR(listed, swap)
        if truth(declining) is not False:
            # the decision is taken without being done, nothing else of a pass: a takeover's other stations
            # leave the map, and a further choice of the owner's may be owed next (the library's
            # end_station_swap, as GameBase._decline_station_swap calls it); one the title lists, the first
            # owed is the entity's: resolve_decision of it
            if truth(swap) is not False:
                sub = ctx.fork(swap)
                self.tr.call("end_station_swap", [entity], {}, sub)
                ctx.state = sub.state
            sub = ctx.fork(AND(listed, NOT(swap)))
            pop_decision(self.tr, sub)
            self.next_decision(sub)
            ctx.state = sub.state
            rest = ctx.fork(NOT(declining))
            self.pass_turn(rest, entity)
            ctx.state = rest.state
            return
        self.pass_turn(ctx, entity)

    def pass_turn(self, ctx: Ctx, entity: Any) -> None:
        """`pass_turn_declining` where no decision is declined."""
        if self.m.prop_value("first_round") == "auction":
            # as GameBase._starting_pass: while the players pick (`free_pick`), nobody may pass
            ctx.require(NOT(self.tr.truthy(self.tr.call("picking", [], {}, ctx))))  # the library's
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
        # the library's count of the turn's trains from the bank
        bought = state_var("bank_buys_this_turn", ())
        if bought in st:
            st[bought] = IF(counts, zi(st[bought]) + 1, st[bought])
        for t, cond in marked:
            name = f"first_bought:{t.name}"
            st[name] = IF(AND(when, cond), True, st[name])
        # the train purchase marker: the library's move_train_marker, which the runtime calls here
        marker = ctx.fork(counts)
        self.tr.call("move_train_marker", [corp], {}, marker)
        ctx.state = marker.state

    def b_enter_phase(self, ctx: Ctx, name: Any) -> None:
        """As GameBase.b_enter_phase: the phase begins. Its events, `phase_start` and the decisions owed as it
        begins (a private's, a discard over the new train limit) are the runtime's cascade: the pending
        decisions and the entity acting are any the domain allows (the subsidy pool the bank sets aside is
        counted with the bank, `b_subsidise_track`)."""
        m = self.m
        index = m.phase_index(str(name))
        ctx.state["phase"] = IF(ctx.path, index, ctx.state["phase"])
        ctx.shared.calls.add("emit:phase_start")
        for event in m.phases[index].get("events") or []:
            ctx.shared.calls.add(f"emit:{event}")
        ctx.havoc(decision_vars(m) + ["acting"])

    def list_operation(self, e: Any, ctx: Ctx) -> Any:
        """`NAME.OP(args)` of a list state (`compiler.verify.lists`); Unsupported for any other call of what is
        not a name."""
        return list_operation(self.tr, e, ctx)

    def owed_other(self, state: dict[str, Any], code: int) -> Any:
        """Whether a decision is owed (the first of the library's list `decisions`) of another action than
        the one of `code`: the runtime's dispatch refuses every other action then."""
        owed, _, action = front(self.m, state)
        return AND(owed, action != code)

    def next_decision(self, ctx: Ctx) -> None:
        """As GameBase._next_decision (move_turn(E, decisions_changed)): the decisions owed (the library's list `decisions`) have changed: the
        first one's entity acts; with none left, whoever acts next is the runtime's to say (play goes on
        where the decisions interrupted it: the round machinery's)."""
        owed, owing, _ = front(self.m, ctx.state)
        sub = ctx.fork(NOT(owed))
        sub.havoc(["acting"])
        ctx.state["acting"] = IF(AND(ctx.path, owed), owing, sub.state["acting"])

    def b_give_grants(self, ctx: Ctx, player: Any, item: Any) -> None:
        """As GameBase.b_give_grants: what the private grants its buyer (its `grants` record) is the buyer's."""
        self.grant(ctx, self.ent(player), self.ent(item))

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
                        granted = granted_var(cert)  # the library's state of granted certificates
                        if granted in ctx.state:
                            ctx.state[granted] = IF(go, True, ctx.state[granted])
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
