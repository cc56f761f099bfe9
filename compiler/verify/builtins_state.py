"""The runtime's builtins as z3 (`Builtins`, see `translator.py`): helpers over items and holders,
cash, items, the market, certificates, and the queries, the draft's among them.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from compiler.lang.ir import end_reasons
from compiler.verify import cells
from compiler.verify.model import (
    BANK,
    DEPOT,
    ELSEWHERE,
    IPO,
    NONE,
    POOL,
    ROUNDS,
    STEPS,
    Ent,
    Item,
    Unsupported,
    committed_var,
    drafted_var,
    hold_name,
    state_var,
)
from compiler.verify.terms import (
    AND,
    CMP,
    Choice,
    EQ,
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
    is_z3,
    truth,
    zb,
    zi,
)


class StateBuiltins:
    """The builtins' helpers over items, holders, cash and the market, and the queries
    (`b_cash`, `b_holder_of`, ...), the draft's among them."""

    # -- helpers over items and holders
    def ent(self, v: Any) -> z3.ExprRef:
        return self.tr.as_ent(v)

    def known(self, e: z3.ExprRef) -> Ent | None:
        return self.m.known_ent(e)

    def held(self, ctx: Ctx, item: Item, holder: Any) -> Any:
        """Whether `holder` (an entity term) holds `item` in the current state."""
        m = self.m
        st = ctx.state
        h = self.ent(holder)
        k = self.known(h)
        buckets = m.buckets[item.kind]
        if k is not None:
            if k in buckets:
                return CMP(">=", st[hold_name(item, k)], 1)
            if k.kind == "minor" and item.kind == "train":
                # a minor's trains are among those held elsewhere: which, the engine's to say
                return AND(self.minor_holds(ctx, k, item), CMP(">=", st[hold_name(item, None)], 1))
            if k == ELSEWHERE:
                # a holder outside the scope (a corporation left out holding a share, the
                # holder of one of its certificates): what it holds earns a dividend the bank pays
                # out of the scope. The shares invariant keeps this empty in the proofs;
                # the states validation draws from real games need it.
                return CMP(">=", st[hold_name(item, None)], 1)
            return False
        return OR(*[AND(ent_is(m, h, b), CMP(">=", st[hold_name(item, b)], 1)) for b in buckets])

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
            out = IF(CMP(">=", st[hold_name(item, b)], 1), m.z(b), out)
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
        runtime's check that `source` holds it is *not* a guard. A minor's owner is its variable `owner:`."""
        if self.tr.is_ent(what):
            minor = self.known(what)
            if minor is not None and minor.kind == "minor":
                name = f"owner:{minor.id}"
                ctx.state[name] = IF(ctx.path, target, ctx.state[name])
                return
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
        if name == "closed":
            self.set_closed(ctx, obj, value)
            return
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
            elif name == "cell":
                # as DslSupport.set_attr: the price token onto a market cell (set_par, move_price), or off
                # the market (none)
                cell = cells.as_cell(value)
                if cell.present is not False:
                    st[f"row:{corp.id}"] = IF(when, cell.row, st[f"row:{corp.id}"])
                    st[f"col:{corp.id}"] = IF(when, cell.col, st[f"col:{corp.id}"])
                if cell.present is not st[f"has_cell:{corp.id}"]:
                    st[f"has_cell:{corp.id}"] = IF(when, cell.present, st[f"has_cell:{corp.id}"])
            elif name == "tokens":
                st[f"tokens:{corp.id}"] = IF(when, zi(value), st[f"tokens:{corp.id}"])
            elif name == "extra_tokens" and self.m.extra_tokens:
                # its tokens beyond the charter (reset_corporation; the library's ability_token, `extra_token: true`)
                st[f"extra_tokens:{corp.id}"] = IF(when, zi(value), st[f"extra_tokens:{corp.id}"])
            elif name == "extra_tokens" and truth(self.tr.cmp("==", value, 0)) is True:
                pass  # (the model keeps none where the title gives none: 0, as it reads them)
            elif name == "tokens_right":
                pass  # those a take-over took off the right of the charter: the map's, read as none (`token_field`)
            elif name in self.m.corp_fields:
                var = f"field:{corp.id}.{name}"
                typed = zb(value) if self.m.corp_fields[name] == "bool" else zi(value)
                st[var] = IF(when, typed, st[var])
            elif name in self.m.set_fields:
                pass  # not followed: every read of it is an opaque value (`Translator.ent_attr`)
            else:
                raise Unsupported(f"set of corporation field {name}")

    def set_closed(self, ctx: Ctx, obj: Any, value: Any) -> None:
        """`set X.closed = v` (the library's close_private, close_minor, close_corporation), as GameBase.set_attr:
        the private's or the minor's `closed:` in the model. That a corporation is closed is outside the model
        (none of its state says so; what its closing moves, the library's close_corporation moves): nothing
        where X is one."""
        m = self.m
        e = self.ent(obj)
        k = self.known(e)
        if k is not None and k.kind == "corporation":
            return
        for x in m.privates + m.minors:
            if k is None or k == x:
                name = f"closed:{x.id}"
                ctx.state[name] = IF(AND(ctx.path, e == m.z(x)), zb(value), ctx.state[name])

    # -- market
    def cell_chain(self, ctx: Ctx, corp: Ent, f: Callable[[tuple[int, int]], Any], key: tuple | None = None) -> Any:
        """`f(cell)` for the cell the corporation's token is on: a chain of cases over the market's
        cells. `key`: what `f` reads of a cell (a price, a move's row or column), where it reads only
        the market: the chain is then made once for each row and column term (the pre-state's, mostly)
        and kept across the translator's steps."""
        st = ctx.state
        return self.chain_at(st[f"row:{corp.id}"], st[f"col:{corp.id}"], f, key)

    def chain_at(self, row: Any, col: Any, f: Callable[[tuple[int, int]], Any], key: tuple | None = None) -> Any:
        """`f(cell)` for the cell at (row, col), terms: `cell_chain`'s, of any cell value (`compiler.verify.cells`)."""
        self.m.require_market()
        if key is not None:
            ids = tuple(v.get_id() if isinstance(v, z3.ExprRef) else ("value", v) for v in (row, col))
            found = self.chains.get((key, ids))
            if found is None:
                found = self.chains[(key, ids)] = (self.chain_at(row, col, f), row, col)
            return found[0]
        cells = self.m.cells
        conds = self._cell_conds(row, col)
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
            conds = [AND(EQ(row, r), EQ(col, c)) for r, c in self.m.cells[:-1]]
            found = self.cell_conds[ids] = (conds, row, col)  # (the terms kept: no id reused while cached)
        return found[0]

    def in_cells(self, ctx: Ctx, corp: Ent, cells: list[tuple[int, int]]) -> Any:
        st = ctx.state
        row, col = st[f"row:{corp.id}"], st[f"col:{corp.id}"]
        return OR(*[AND(EQ(row, r), EQ(col, c)) for r, c in cells])

    def zone_cond(self, ctx: Ctx, corp: Ent, zone: str) -> Any:
        market = self.m.require_market()
        cells = [c for c in self.m.cells if zone in market.zones_of(c)]
        if not cells:
            return False
        return AND(ctx.state[f"has_cell:{corp.id}"], self.in_cells(ctx, corp, cells))

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
            out = IF(EQ(chosen, key), f(percent), out)
        return out

    def cert_exists(self, ctx: Ctx, cert: Item) -> Any:
        """Whether the layout chosen has the certificate (always, without share layouts)."""
        if all(percent > 0 for _, percent in cert.layouts):
            return True
        chosen = ctx.state[f"layout:{cert.corp}"]
        return OR(*[EQ(chosen, key) for key, percent in cert.layouts if percent > 0])

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
        """Whether C's card puts it in the zone (as the library's in_zone: `effect: market_zone`)."""
        if zone not in card_zones:
            return False
        index = self.card_index(ctx, corp)
        return OR(*[index == i for i in card_zones[zone]])

    def state_value(self, ctx: Ctx, name: str) -> Any:
        """A value the state gives, as GameBase.name reads it: `phase_number` (the model's phase is its index
        in the title's order of phases, as `card_records`), and the round machinery's: `current_round` and
        `current_step` (one of the names of the rounds, of the steps, each where the model's code of it holds:
        a draft only where the title deals one), `operating_company`, `acting_entity` (the model's own)."""
        st = ctx.state
        if name == "phase_number":
            return st["phase"] + 1
        if name == "current_round":
            first_round = self.m.prop_value("first_round")
            ctx.shared.reads.add("property", "first_round", first_round)
            if first_round == "draft" and not self.m.draft_items:
                raise Unsupported("a draft with no private or minor to deal")
            return Choice([(kind, st["round"] == i) for i, kind in enumerate(ROUNDS)
                           if kind != "draft" or self.m.draft_items])
        if name == "current_step":
            return Choice([(None, st["step"] == 0)] + [(step, st["step"] == i + 1) for i, step in enumerate(STEPS)])
        if name == "game_end_reason":
            # the runtime's record of the end conditions met (the last train of a type, the bank broken, a share
            # price), which the model does not follow: an oracle, the engine's answer in the state before the
            # action, 0 for none, else the end reason's place from 1 in the enum (`end_reasons`)
            reasons = end_reasons(self.tr.title)
            v = self.oracle(ctx, "game_end_reason", (), "int")
            ctx.shared.axioms.append(z3.And(v >= 0, v <= len(reasons)))
            return Choice([(None, v == 0)] + [(r, v == i + 1) for i, r in enumerate(reasons)])
        return st["operating" if name == "operating_company" else "acting"]

    # -- the draft (`first_round: draft`, GameBase._start_draft ... _end_draft). The picks are the library's
    # states (drafted_private, drafted_minor, draft_committed); the deck, the hands and the Pass cards are
    # the runtime's (oracles). The purchases at the draft's end are the library's end_draft (the step
    # `draft_ends`).
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
        return AND(self.draft_with_bank(ctx, x), *[NOT(ctx.state[drafted_var(x, p)]) for p in self.m.players])

    def b_in_draft_hand(self, ctx: Ctx, company: Any) -> Any:
        """As GameBase.b_in_draft_hand: whether the card is among those drawn for this pick (the
        runtime's deck: an oracle); a card dealt is a company still open and picked by nobody."""
        x = self.draft_item(company)
        drawn = self.draft_oracle(ctx, "in_draft_hand", x, "bool")
        return AND(ctx.state["round"] == ROUNDS.index("draft"), drawn, self.draft_open(ctx, x))

    def b_draft_pick(self, ctx: Ctx, player: Any, company: Any) -> None:
        """As GameBase.b_draft_pick: the player keeps the company, at its draft price now (the library's
        draft_price); the draft goes on (its deck and turn are the runtime's; its end is the step `draft_ends`)."""
        x = self.draft_item(company)
        self.pick(ctx, self.ent(player), x, self.tr.call("draft_price", [self.m.z(x)], {}, ctx), ctx.path)
        self.draft_turn_over(ctx)

    def pick(self, ctx: Ctx, player: Any, x: Ent, price: Any, when: Any) -> None:
        """Where `when` holds, `player` has picked company `x` in the draft, to pay `price` at its end (the
        library's states drafted_private or drafted_minor, and draft_committed); where the draft says `paid_at:
        pick` (GameBase.b_draft_pick), he pays for it and takes it at once (the library's receive_drafted),
        and nothing is left to pay at the end."""
        m = self.m
        if self.paid_at_pick(ctx):
            sub = Ctx(self.tr, ctx.state, ctx.shared, when, ctx.locals)
            self.transfer(sub, price, player, m.z(BANK))
            routine = self.tr.title.get("procedure", "receive_drafted")
            if routine is None:
                raise Unsupported("the title has no procedure receive_drafted (the library's)")
            ctx.shared.calls.add("receive_drafted")
            self.tr.call_routine(routine, [player, m.z(x)], {}, sub)
            ctx.state = sub.state
            return
        st = ctx.state
        for p in m.players:
            mine = AND(when, ent_is(m, player, p))
            st[drafted_var(x, p)] = IF(mine, True, st[drafted_var(x, p)])
            st[committed_var(p)] = IF(mine, st[committed_var(p)] + price, st[committed_var(p)])

    def paid_at_pick(self, ctx: Ctx) -> bool:
        """Whether the draft's companies are paid for and owned when picked (`paid_at: pick`)."""
        paid_at = self.m.draft_component().get("paid_at")
        ctx.shared.reads.add("draft", "paid_at", paid_at)
        return str(paid_at) == "pick"

    def draft_turn_over(self, ctx: Ctx) -> None:
        """The draft's turn moves on: the round machinery is havocked, the round stays the draft."""
        ctx.havoc([name for name in self.m.vars.turn_names() if name != "round"])

    def draft_pass(self, ctx: Ctx) -> None:
        """As GameBase._draft_pass: a pass is allowed only when a single company is left in the deck
        (the runtime's deck: an oracle); it lowers the company's price (the runtime's call of the library's
        decline_last_company, inside the round machinery: the library's draft_discount havocked, never
        lower), and at its floor (draft_least_price) the player then on turn takes it at that price (which
        company, and whether its price has reached the floor, are the runtime's: oracles, with the pick
        only of a company still dealt)."""
        m = self.m
        ctx.require(self.draft_oracle(ctx, "draft_last_company", None, "bool"))
        discount = state_var("draft_discount", ())
        before = ctx.state[discount]
        ctx.havoc([discount])
        ctx.shared.axioms.append(IMPLIES(ctx.path, ctx.state[discount] >= before))
        taker = ctx.fresh("draft_taker", "ent")
        ctx.shared.axioms.append(OR(*[taker == m.z(p) for p in m.players]))
        for x in m.draft_items:
            forced = self.draft_oracle(ctx, "draft_forced", x, "bool")
            floor = self.tr.call("draft_least_price", [m.z(x)], {}, ctx)
            self.pick(ctx, taker, x, floor, AND(ctx.path, forced, self.draft_open(ctx, x)))
        self.draft_turn_over(ctx)

    def b_stack_charter(self, ctx: Ctx, owner: Any, owned: Any, usable: Any) -> None:
        """As GameBase.b_stack_charter: which trains have run this round, and which components the owner now
        holds, are outside the model (how many it has collected is the library's state `collected`, which its
        take_over moves)."""


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
        """Whether the corporation is in receivership: the library's function `in_receivership`
        (rulespecs/lib/18xx.rules) translated, as the engine calls it compiled (GameBase._in_receivership);
        false for a title without it."""
        if "in_receivership" not in self.tr.routines:
            return False
        return self.tr.truthy(self.tr.call("in_receivership", [self.m.z(corp)], {}, ctx))

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

    def b_trains(self, ctx: Ctx, holder: Any) -> Any:
        return SymList([(Sel([(t, True)]), self.held(ctx, t, holder)) for t in self.m.trains])

    def phase_reached(self, ctx: Ctx, name: Any) -> Any:
        """As GameBase._phase_at_least: whether the phase `name` has begun (a train's `available_from`)."""
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
                ok = OR(ok, AND(in_depot[t.id], self.phase_reached(ctx, since)))
            earlier = seen.get(t.name or "", False)
            out.append((t, AND(ok, NOT(earlier))))
            seen[t.name or ""] = OR(earlier, ok)
        return out

    def b_available_trains(self, ctx: Ctx) -> Any:
        return SymList([(Sel([(t, True)]), cond) for t, cond in self.avail(ctx)])

    def is_closed(self, ctx: Ctx, item: Any) -> Any:
        """`X.closed` (the library's closed(X)), as GameBase.attr: a private's or a minor's `closed:` in the model;
        never a corporation's, whose closing is outside the model (`set_closed` refuses it), nor a player's."""
        m = self.m
        e = self.ent(item)
        return OR(*[AND(e == m.z(x), ctx.state[f"closed:{x.id}"]) for x in m.privates + m.minors])

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

    def b_route_revenue(self, ctx: Ctx, corp: Any, routes: Any, recorded: Any = False) -> Any:
        """As GameBase.b_route_revenue: a run's revenue, counted by the rules or (`recorded`) as its record
        gives it: any amount the routes could earn (an oracle; the map and the routes are outside the model)."""
        v = ctx.fresh("route_revenue")
        ctx.shared.oracles.append(("route_revenue", (corp,), v))
        ctx.shared.axioms.append(v >= 0)
        if self.m.revenue_step > 1:
            ctx.shared.axioms.append(v % self.m.revenue_step == 0)
        return v
