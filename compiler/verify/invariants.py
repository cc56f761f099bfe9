"""The invariants `rulec verify` proves: the library's standard ones, supporting
lemmas, and the title's own `invariant` clauses.

The standard invariants are declared here in Python for now. They belong in
the library DSL (`rulespecs/lib/18xx.rules`) as `invariant` clauses once the
DSL can say "for every certificate, exactly one holder" and "the money the
game started with" without runtime help; a title's own `invariant` clause of
the same name replaces the Python one.

Each invariant is a list of *atoms* on one state (one per player, per
corporation, per certificate, ...). A limit-like atom also gives a *measure*
and a *bound* (`certificates(P) <= cert_limit`).

Sanctions: `sanction cert_limit for take_over §9.2 reading "..."` says the
rules themselves let that action break the invariant. For an invariant with
any sanction, no check assumes it beforehand, and each action is checked in a
relaxed, two-state form: it may not *create or deepen* a breach (a limit atom:
after <= bound, or after <= before; another atom: held before, holds after).
A sanctioned action that fails this relaxed check is reported "sanctioned";
any other action that fails it is a counterexample. A sanction may name an
action, a trigger, a runtime step (`take_over`, `check_take_over`,
`first_train`, ...), or a procedure or builtin, which then covers every
transition that calls it (`sanction cert_limit for market_move`).

Lemmas are inductive facts about the runtime's bookkeeping that the proofs of
the standard invariants need (an unstarted corporation's certificates wait on
its mat; no shares change hands while privates are on sale; ...). They are
checked like the others and reported as such.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from compiler.lang import invariant_names as names
from compiler.lang import syntax as s
from compiler.verify.model import (
    AUCTION,
    BANK,
    DEPOT,
    POOL,
    ROUNDS,
    SCRAP,
    GapError,
    Model,
    Reads,
    bid_var,
    committed_var,
    drafted_var,
    granted_var,
    hold_name,
    rulebook_cites,
    stable_hash,
)
from compiler.verify.translate import AND, IF, IMPLIES, MUL, NOT, OR, SUM, Ctx, Translator, truth, zi
from compiler.verify.terms import CMP, EQ

HERE = "compiler/verify/invariants.py"


@dataclass
class Atom:
    """One conjunct of an invariant on one state: `holds`, and for a limit its
    `measure` and `bound` (holds == measure <= bound); `terms`, where given,
    the measure as a sum (measure == SUM(terms), each term read alike on
    every state)."""

    label: str
    holds: Any
    measure: Any = None
    bound: Any = None
    terms: list[Any] | None = None


@dataclass
class Invariant:
    """A named invariant. `kind`: "standard", "lemma" or "title"; `where`: the
    source place (a DSL span or this module); `cite`: the title's citation
    for what it checks; `build(tr, ctx)` gives its atoms on `ctx.state`."""

    name: str
    kind: str
    summary: str
    where: str
    cite: str
    build: Callable[[Translator, Ctx], list[Atom]]
    key_text: str
    sanctions: list[s.Sanction] = field(default_factory=list)
    #: when given, what a transition must satisfy instead of the invariant on
    #: its post-state (the invariant on the pre-state being assumed, unless
    #: `assumed` is false: then the step property states what it needs of the
    #: pre-state itself)
    step_property: Callable[[Translator, Any], Any] | None = None
    #: whether the other checks may assume it on the pre-state
    assumed: bool = True

    def atoms(self, tr: Translator, state: dict[str, Any], reads: Reads | None = None) -> tuple[list[Atom], list[Any]]:
        """The atoms on `state`, and the definedness conditions met on the way.
        Raises `GapError`/`Unsupported`. On the pre-state, made once (`on_pre_state`)."""

        def build() -> tuple[list[Atom], list[Any], Reads]:
            ctx = tr.new_ctx(state)
            atoms = self.build(tr, ctx)
            return atoms, list(ctx.shared.guards) + list(ctx.shared.axioms), ctx.shared.reads

        atoms, defined, read = on_pre_state(tr, state, ("atoms", self.name, self.build), build)
        if reads is not None:
            reads.merge(read)
        return list(atoms), list(defined)

    def holds(self, tr: Translator, state: dict[str, Any]) -> Any:
        atoms, defined = self.atoms(tr, state)
        return AND(*defined, *[a.holds for a in atoms])

    def monotone(self, tr: Translator, pre: dict[str, Any], post: dict[str, Any]) -> Any | None:
        """A sufficient condition for the invariant after a step, for one whose limits are sums: no
        term of a measure grows and no bound shrinks, so a measure within its bound before is
        within it after (and a breach is not deepened: `relaxed`). Each conjunct compares two
        small terms, where the invariant itself sums many (a bankruptcy's sale and closings
        under the certificate limit, 1846). None unless every atom is a sum."""
        before, _ = self.atoms(tr, pre)
        after, defined = self.atoms(tr, post)
        if any(a.terms is None for a in before + after):
            return None
        parts = list(defined)
        for a, b in zip(before, after):
            assert a.terms is not None and b.terms is not None
            parts.extend(tr.cmp("<=", t1, t0) for t0, t1 in zip(a.terms, b.terms, strict=True))
            parts.append(tr.cmp(">=", b.bound, a.bound))
        return AND(*parts)

    def relaxed(self, tr: Translator, pre: dict[str, Any], post: dict[str, Any]) -> Any:
        """The two-state form: no breach created or deepened."""
        before, _ = self.atoms(tr, pre)
        after, defined = self.atoms(tr, post)
        parts = list(defined)
        for a, b in zip(before, after):
            if b.measure is not None:
                parts.append(OR(b.holds, tr.cmp("<=", b.measure, a.measure)))
            else:
                parts.append(IMPLIES(a.holds, b.holds))
        return AND(*parts)


def on_pre_state(tr: Translator, state: dict[str, Any], key: tuple, make: Callable[[], Any]) -> Any:
    """`make()`, a function of `state` alone, made once where `state` is the pre-state (the constants of
    `fresh_state("pre")`, every transition's): each binding's property reads the invariant on it
    again (a sanctioned invariant's relaxed form, `Invariant.monotone`, the presidency's two-state
    checks), the same terms each time (z3 shares equal terms; a translation's fresh constants are
    named by a count its context starts from 0), 18CO's buy_shares 612 times. A raised error is
    not kept: it is raised again each time."""
    if not tr.model.vars.is_fresh_state(state, "pre"):
        return make()
    memo = tr.__dict__.setdefault("_on_pre_state", {})
    if key not in memo:
        memo[key] = make()
    return memo[key]


def _cite_of(model: Model, *names: str) -> str:
    clauses = (model.title.get("property", name) or model.title.get("table", name) for name in names)
    return rulebook_cites(c for c in clauses if c is not None)


def _line(fn: Callable) -> str:
    try:
        return f"{HERE}:{inspect.getsourcelines(fn)[1]}"
    except (OSError, TypeError):
        return HERE


def _src_key(fn: Callable) -> str:
    try:
        return stable_hash(inspect.getsource(fn))
    except (OSError, TypeError):
        return fn.__name__


# ---------------------------------------------------------------- the standard invariants


def money_conserved(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    held = SUM([st[f"cash:{h.id}"] for h in m.players + m.corporations + m.minors])
    if m.vars.unlimited_bank:
        return [Atom("money", zi(held) == st["flow:paid"] - st["flow:received"])]
    total = m.param("bank", ctx.shared.reads)
    if not isinstance(total, int) and not isinstance(total, z3.ArithRef):
        raise GapError("bank", "not an amount")
    return [Atom("money", zi(SUM([held, st["cash:bank"]])) == zi(total))]


def money_moves_by_transfer(tr: Translator, step: Any) -> Any:
    """Money is conserved by a step when each transfer it makes has both ends
    in the accounts (bank, players, corporations), or moves nothing: the cash
    variables change only by transfers. Equivalent to checking the sum on the
    post-state, and far easier for z3 than an identity over sums of cases."""
    parts = []
    for path, amount, _source, _target, src_in, dst_in in step.transfers:
        ok = OR(tr.eq(src_in, dst_in), tr.eq(amount, 0))
        parts.append(IMPLIES(path, ok))
    return AND(*parts)


def _president_holds_most(tr: Translator, state: dict[str, Any], corp: Any) -> Any:
    return on_pre_state(tr, state, ("president_holds_most", corp.id),
                        lambda: _president_holds_most_made(tr, state, corp))


def _president_holds_most_made(tr: Translator, state: dict[str, Any], corp: Any) -> Any:
    m = tr.model
    b = tr.builtins
    ctx = tr.new_ctx(state)
    pres = m.certs_for(corp.id)[0]
    held = {p: b.percent_of(ctx, m.z(p), corp) for p in m.players}
    parts = []
    for p in m.players:
        others = [tr.cmp("<=", held[q], held[p]) for q in m.players if q != p]
        parts.append(IMPLIES(state[hold_name(pres, p)] >= 1, AND(*others)))
    return AND(*parts)


def president_holds_most(tr: Translator, ctx: Ctx) -> list[Atom]:
    """Where a player holds a corporation's president's certificate, no other
    player holds more of it."""
    return [Atom(c.id, _president_holds_most(tr, ctx.state, c)) for c in tr.model.corporations]


def presidency_settled(tr: Translator, step: Any) -> Any:
    """`president_holds_most` holds after every action once the runtime's
    take-over check has run. The model makes the take-over a step of its own
    (`take_over`), so a step must, for each corporation C:
    - `take_over` of C: leave C's new president holding the most, whatever
      the state before (the state an action left for the check);
    - any other step: keep C's president holding the most, or have asked for
      the take-over check of C (`check_president`) in a state where the
      take-over can happen (a challenger can give shares worth the president's
      certificate), so that the runtime's `take_over` step follows and
      settles it by the case above."""
    m = tr.model
    parts = []
    for c in m.corporations:
        after = _president_holds_most(tr, step.post, c)
        if c.id in step.settled:
            parts.append(after)
            continue
        before = _president_holds_most(tr, step.pre, c)
        if _same_term(before, after):
            continue  # the step leaves what it reads as it was: true whatever else (no exchange to build)
        asked = step.checked.get(c.id, False)
        if truth(asked) is False:
            parts.append(IMPLIES(before, after))
            continue
        exchange, _ = tr.builtins.presidency_exchange(tr.new_ctx(step.post), c)
        parts.append(IMPLIES(before, OR(after, AND(asked, exchange))))
    return AND(*parts)


def _same_term(a: Any, b: Any) -> bool:
    """Whether two terms are one (z3 shares equal terms: the same term, however it was built), or
    the same Python value."""
    if z3.is_expr(a) and z3.is_expr(b):
        return a.eq(b)
    return not z3.is_expr(a) and not z3.is_expr(b) and a == b


def emergency_sale_keeps_presidency(tr: Translator, ctx: Ctx) -> list[Atom]:
    """What the steps keep (`emergency_sale_steps`), shown per corporation in a counterexample: its
    president holds the most of it."""
    return president_holds_most(tr, ctx)


def emergency_sale_steps(tr: Translator, step: Any) -> Any:
    """A player's sale in an operating round is a president's sale to pay for a train the corporation
    operating now must buy (emergency money raising): where that corporation's president held the most of
    it before, he still does after, so no take-over follows and its presidency stays. Every other step
    holds it trivially."""
    if not step.label.startswith("sell_shares("):
        return True
    m = tr.model
    operating = step.pre["round"] == ROUNDS.index("operating")
    parts = []
    for c in m.corporations:
        buying = AND(operating, step.pre["acting"] == m.z(c))
        before = _president_holds_most(tr, step.pre, c)
        after = _president_holds_most(tr, step.post, c)
        parts.append(IMPLIES(AND(buying, before), after))
    return AND(*parts)


def shares_sum_to_100(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    b = tr.builtins
    st = ctx.state
    out = []
    for c in m.corporations:
        certs = m.certs_for(c.id)
        legal = m.buckets["certificate"]
        parts = []
        total = SUM([SUM([MUL(b.cert_percent(ctx, c2), st[hold_name(c2, h)]) for h in legal]) for c2 in certs])
        for cert in certs:
            parts.append(EQ(st[hold_name(cert, None)], 0))
            parts.extend(CMP(">=", st[hold_name(cert, h)], 0) for h in legal)
            # (held by nobody where the share layout chosen has no such certificate)
            parts.append(EQ(SUM([st[hold_name(cert, h)] for h in legal]), IF(b.cert_exists(ctx, cert), 1, 0)))
        out.append(Atom(c.id, AND(EQ(zi(total), 100), *parts)))
    return out


def cert_limit(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    limit = m.param("cert_limit", ctx.shared.reads)
    if not isinstance(limit, (int, z3.ArithRef)) or isinstance(limit, bool):
        raise GapError("cert_limit", "not a number at this player count")
    out = []
    for p in m.players:
        terms = tr.builtins.cert_count_terms(ctx, m.z(p))
        count = SUM(terms)
        out.append(Atom(p.id, tr.cmp("<=", count, limit), count, limit, terms))
    return out


def holding_cap(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    cap = m.param("holding_cap", ctx.shared.reads)
    b = tr.builtins
    out = []
    for p in m.players:
        for c in m.corporations:
            pct = b.percent_of(ctx, m.z(p), c)
            exempt = b.zone_cond(ctx, c, "unlimited_holding") if m.market is not None else False
            # or a zone the corporation's ability card puts it in (GameBase._zones, as the library's in_zone, whose zones the
            # runtime's own holding_cap check reads: a card with `effect: market_zone`)
            exempt = OR(exempt, b.card_zone(ctx, c, "unlimited_holding", b.card_zones(ctx)))
            measure = IF(exempt, 0, pct)
            out.append(Atom(f"{p.id}/{c.id}", tr.cmp("<=", measure, cap), measure, cap))
    return out


def pool_cap(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    cap = m.param("pool_cap", ctx.shared.reads)
    out = []
    for c in m.corporations:
        pct = tr.builtins.percent_of(ctx, m.z(POOL), c)
        out.append(Atom(c.id, tr.cmp("<=", pct, cap), pct, cap))
    return out


def no_negative_cash(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    out = []
    for h in m.players + m.corporations + m.minors:
        cash = ctx.state[f"cash:{h.id}"]
        out.append(Atom(h.id, cash >= 0, -cash, 0))
    return out


def market_on_grid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    m.require_market()
    b = tr.builtins
    st = ctx.state
    out = []
    for c in m.corporations:
        has_par, has_cell = st[f"has_par:{c.id}"], st[f"has_cell:{c.id}"]
        on_grid = b.in_cells(ctx, c, m.cells)
        out.append(Atom(c.id, AND(has_par == has_cell, IMPLIES(has_cell, on_grid))))
    return out


def trains_conserved(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    out = []
    legal = m.buckets["train"]
    for t in m.trains:
        parts = [EQ(st[hold_name(t, None)], 0)]
        parts.extend(CMP(">=", st[hold_name(t, b)], 0) for b in legal)
        parts.append(EQ(SUM([st[hold_name(t, b)] for b in legal]), 1))
        out.append(Atom(t.id, AND(*parts)))
    return out


# ---------------------------------------------------------------- lemmas


def items_held_once(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    out = []
    for it in m.private_items + m.bond_items:
        legal = m.buckets[it.kind]
        parts = [st[hold_name(it, None)] == 0]
        parts.extend(st[hold_name(it, b)] >= 0 for b in legal)
        parts.append(SUM([st[hold_name(it, b)] for b in legal]) == 1)
        out.append(Atom(it.id, AND(*parts)))
    return out


def unstarted_on_mat(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    out = []
    for c in m.corporations:
        parts = []
        for cert in m.certs_for(c.id):
            parts.append(IMPLIES(tr.builtins.cert_exists(ctx, cert),
                                 OR(st.get(granted_var(cert), False), st[hold_name(cert, tr.ipo_of(c))] >= 1)))
        out.append(Atom(c.id, IMPLIES(NOT(st[f"has_par:{c.id}"]), AND(*parts))))
    return out


def _granting(m: Model) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for x in m.privates:
        data = m.data[x]
        grant = data.get("grants")
        for child in data.get("children", []) or []:
            grant = grant or child.get("grants")
        if isinstance(grant, dict) and not grant.get("president"):
            names = grant.get("corporations") or [grant.get("corporation")]
            for name in names:
                out.setdefault(str(name), []).append(x.id)
    return out


def grants_bounded(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    granting = _granting(m)
    ctx.shared.reads.add("lemma", "granting", granting)
    out = []
    for c in m.corporations:
        granted = SUM([IF(st.get(granted_var(cert), False), 1, 0) for cert in m.certs_for(c.id)])
        sold = SUM([IF(st[hold_name(m.item(x), BANK)] >= 1, 0, 1) for x in granting.get(c.id, [])])  # type: ignore[arg-type]
        grants_ok = AND(*[NOT(st.get(granted_var(cert), False)) for cert in m.certs_for(c.id) if cert.president])
        out.append(Atom(c.id, AND(tr.cmp("<=", granted, sold), grants_ok)))
    return out


def no_shares_during_private_sale(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    for_sale = OR(*[cond for _, cond in tr.builtins.privates_for_sale(ctx)])
    out = []
    for p in m.players:
        parts = [IMPLIES(st[hold_name(cert, p)] >= 1, st.get(granted_var(cert), False)) for cert in m.certs]
        if m.truncated:
            parts.append(st[f"other_certs:{p.id}"] == 0)
        out.append(Atom(p.id, IMPLIES(for_sale, AND(*parts))))
    return out


def bids_valid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    bidding = m.prop_value("private_sale_bidding")
    ctx.shared.reads.add("property", "private_sale_bidding", bidding)
    # an open auction (first_round: open_auction) keeps standing bids like the 1830 procedure
    # (first_round: auction) the Starting Round's high bid is its bidder's bid on the private on auction
    open_auction = m.prop_value("first_round") in ("open_auction", "auction")
    ctx.shared.reads.add("property", "first_round", m.prop_value("first_round"))
    out = []
    for x in m.privates:
        for p in m.players:
            bid = st[bid_var(x, p)]
            out.append(Atom(f"{x.id}/{p.id}", bid >= 0 if bidding is True or open_auction else bid == 0))
    if bidding is not True:
        out.append(Atom("auction", NOT(st[AUCTION])))
    return out


def draft_valid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    if not m.draft_items:
        return []
    drafting = st["round"] == ROUNDS.index("draft")
    out = []
    for x in m.draft_items:
        # picked by one player at most, and only in the draft, while the bank holds it
        pickers = [st[drafted_var(x, p)] for p in m.players]
        picked = OR(*pickers)
        once = SUM([IF(b, 1, 0) for b in pickers]) <= 1
        out.append(Atom(x.id, AND(once, IMPLIES(picked, AND(drafting, tr.builtins.draft_with_bank(ctx, x))))))
    for p in m.players:
        # what a player's picks will cost: nothing owed outside the draft
        owed = st[committed_var(p)]
        out.append(Atom(f"{p.id}/owed", AND(owed >= 0, IMPLIES(NOT(drafting), owed == 0))))
    for p in m.players:
        parts = [st[hold_name(cert, p)] == 0 for cert in m.certs]
        if not tr.builtins.paid_at_pick(ctx):
            # (where the draft's companies are paid for when picked, a player owns his picks during it)
            parts += [st[hold_name(it, p)] == 0 for it in m.private_items]
            parts += [st[f"owner:{x.id}"] != m.z(p) for x in m.minors]
        if m.truncated:
            parts.append(st[f"other_certs:{p.id}"] == 0)
        out.append(Atom(p.id, IMPLIES(drafting, AND(*parts))))
    limit = m.param("cert_limit", ctx.shared.reads)
    if isinstance(limit, (int, z3.ArithRef)) and not isinstance(limit, bool):
        in_play = SUM([IF(st[f"closed:{x.id}"], 0, 1) for x in m.draft_items])
        out.append(Atom("in_play", IMPLIES(drafting, tr.cmp("<=", in_play, limit))))
    return out


def tokens_valid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    out = []
    for c in m.corporations:
        count = tr.builtins.token_count(ctx, c)
        placed = ctx.state[f"tokens:{c.id}"]
        unstarted = NOT(ctx.state[f"has_par:{c.id}"])
        if tr.model.prop_value("home_token_at") == "float":
            # the first token is the home station, placed when it floats
            unstarted = NOT(ctx.state[f"floated:{c.id}"])
        if m.extra_tokens:
            # tokens beyond the charter (a minor's station absorbed, a private's extra token) are placed
            # ones too: those from the charter are within it
            extra = ctx.state[f"extra_tokens:{c.id}"]
            out.append(Atom(c.id, AND(extra >= 0, placed - extra >= 0, placed - extra <= count,
                                      IMPLIES(unstarted, AND(placed == 0, extra == 0)))))
            continue
        out.append(Atom(c.id, AND(placed >= 0, placed <= count, IMPLIES(unstarted, placed == 0))))
    return out


def president_not_in_pool(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    return [Atom(cert.corp or cert.id, st[hold_name(cert, POOL)] == 0) for cert in m.certs if cert.president]


def private_owners_floated(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    out = []
    for x in m.private_items:
        for c in m.corporations:
            out.append(Atom(f"{x.id}/{c.id}", IMPLIES(st[hold_name(x, c)] >= 1, st[f"floated:{c.id}"])))
    return out


def par_valid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    out = []
    for c in m.corporations:
        # the par prices C may start at: the library's function par_prices, which the par action asks
        prices = tr.call("par_prices", [m.z(c)], {}, ctx)
        par = st[f"par:{c.id}"]
        out.append(Atom(c.id, IMPLIES(st[f"has_par:{c.id}"], OR(*[AND(cond, par == p) for p, cond in prices.elems]))))
    return out


def floated_started(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    st = ctx.state
    return [Atom(c.id, IMPLIES(st[f"floated:{c.id}"], st[f"has_par:{c.id}"])) for c in m.corporations]


def phase_valid(tr: Translator, ctx: Ctx) -> list[Atom]:
    m = tr.model
    phase = ctx.state["phase"]
    return [Atom("phase", AND(phase >= 0, phase < max(1, len(m.phases))))]


def title_invariant(decl: s.Invariant) -> Callable[[Translator, Ctx], list[Atom]]:
    def build(tr: Translator, ctx: Ctx) -> list[Atom]:
        value = tr.truthy(tr.expr(decl.expr, ctx))
        return [Atom(decl.name, value)]

    return build


def _named(order: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[Any]:
    """A table of invariants in the order of `order` (`compiler.lang.invariant_names`, the one list of their
    names), each row led by its name: a row is written (formula, summary[, properties cited]), the formula
    being the function named after its invariant. A name without a formula, or a formula without a name,
    stops the import here."""
    by_name = {row[0].__name__: row for row in rows}
    if len(by_name) != len(rows) or set(by_name) != set(order):
        raise RuntimeError(f"invariants without a formula: {sorted(set(order) - set(by_name))}; formulas named "
                           f"in no list of compiler/lang/invariant_names.py: {sorted(set(by_name) - set(order))}")
    return [(name, by_name[name][1], by_name[name][0], *by_name[name][2:]) for name in order]


STANDARD: list[tuple[str, str, Callable[[Translator, Ctx], list[Atom]], tuple[str, ...]]] = _named(names.STANDARD, [
    (money_conserved, "the bank, the players and the corporations (and the minors, where a title has "
     "them) together hold the money the game began with (with an unlimited bank: what it paid out less "
     "what it took in)", ("bank",)),
    (shares_sum_to_100, "each certificate of each corporation is held exactly once, by a player, a corporation, "
     "the bank pool or a minor (where a title's minors hold shares), or the scrap heap (a corporation taken "
     "over, where a title has take-overs), so each corporation's shares add up to 100% (of the share layout "
     "chosen, where a title has several)", ()),
    (cert_limit, "no player holds more certificates than the limit (certificates in exempt zones not counted)", ("cert_limit", "cert_limit_counts")),
    (holding_cap, "no player holds more of a corporation than the holding cap, outside exempt zones", ("holding_cap",)),
    (pool_cap, "the bank pool holds no more of a corporation than its cap", ("pool_cap",)),
    (no_negative_cash, "no player and no corporation has negative cash", ()),
    (market_on_grid, "a corporation has a market position exactly when it has a par price, and it is a cell of "
     "the grid", ()),
    (trains_conserved, "each train is held exactly once, by the depot, a corporation, the pool or the scrap heap", ()),
    (president_holds_most, "where a player holds a corporation's president's certificate, no other player holds "
     "more of it, once the take-over check has run", ("takeover_when", "director_is")),
])

#: invariants of the titles that set the property they are named after
GUARDED: list[tuple[str, str, Callable[[Translator, Ctx], list[Atom]], tuple[str, ...]]] = _named(names.GUARDED, [
    (emergency_sale_keeps_presidency, "an emergency sale never changes the presidency of the corporation "
     "buying the train: a president's sale in an operating round leaves him holding the most of the corporation "
     "operating, where he did before", ("emergency_sale_guard",)),
])

LEMMAS: list[tuple[str, str, Callable[[Translator, Ctx], list[Atom]]]] = _named(names.LEMMAS, [
    (items_held_once, "each private is held once, by the bank, a player, a corporation or the pool; each bond "
     "once, by a corporation or a player"),
    (unstarted_on_mat, "a corporation without a par price keeps its certificates on its mat, except those a "
     "private granted"),
    (grants_bounded, "no more certificates are marked granted than granting privates have left the bank, and "
     "never a president's"),
    (no_shares_during_private_sale, "while privates are on sale, players hold no certificates but granted ones"),
    (bids_valid, "bids are not negative; without private bidding there are no bids and no auction"),
    (floated_started, "a floated corporation has a par price"),
    (private_owners_floated, "a corporation that owns a private has floated"),
    (par_valid, "a started corporation's par is one of its par prices"),
    (president_not_in_pool, "the bank pool never holds a president's certificate"),
    (phase_valid, "the phase is one of the title's phases"),
    (draft_valid, "in the draft (which opens the game) players hold no certificates, privates or minors, no more "
     "companies are in play than the certificate limit, and a company picked, by one player, stays the bank's, "
     "open, until the draft ends; what the picks will cost is owed only in it"),
    (tokens_valid, "a corporation has placed no more station tokens than it has, and none before it is started "
     "(floated, where the home station comes with the float)"),
])


def invariants_for(model: Model) -> list[Invariant]:
    """The standard invariants, the lemmas and the title's own invariants, with
    the title's sanctions attached."""
    title = model.title
    sanctions: dict[str, list[s.Sanction]] = {}
    for clause in title.of_kind("sanction"):
        decl: s.Sanction = clause.decl  # type: ignore[assignment]
        sanctions.setdefault(decl.invariant, []).append(decl)
    own = {c.name: c for c in title.of_kind("invariant")}
    out: list[Invariant] = []
    for name, summary, fn, params in STANDARD + GUARDED:
        if name in own:
            continue
        if name == "emergency_sale_keeps_presidency" and model.prop_value("emergency_sale_guard") in (None, "none"):
            continue  # a title without the guard (or without the president's sale) promises nothing here
        cite = _cite_of(model, *params)
        if name == "shares_sum_to_100":
            cite = model.component_cites("corporation", "shares")
        elif name == "trains_conserved":
            cite = model.component_cites("train", "count") or cite
        elif name == "market_on_grid":
            cite = model.component_cites("market", "rows") or model.component_cites("market")
        inv = Invariant(name, "standard", summary, _line(fn), cite, fn, stable_hash(name, _src_key(fn)))
        if name == "money_conserved":
            inv.step_property = money_moves_by_transfer
            inv.key_text = stable_hash(inv.key_text, _src_key(money_moves_by_transfer))
        elif name == "emergency_sale_keeps_presidency":
            inv.step_property = emergency_sale_steps
            inv.assumed = False
            inv.key_text = stable_hash(inv.key_text, _src_key(emergency_sale_steps), _src_key(_president_holds_most))
        elif name == "president_holds_most":
            inv.step_property = presidency_settled
            inv.assumed = False
            inv.key_text = stable_hash(inv.key_text, _src_key(presidency_settled), _src_key(_president_holds_most))
        out.append(inv)
    for name, summary, fn in LEMMAS:
        if fn is draft_valid and not model.draft_items:
            continue  # a title without a draft
        out.append(Invariant(name, "lemma", summary, _line(fn), "runtime", fn, stable_hash(name, _src_key(fn))))
    for name, clause in own.items():
        decl: s.Invariant = clause.decl  # type: ignore[no-redef]
        where = span_text(decl.span)
        cite = ", ".join(str(c) for c in decl.prov.citations)
        out.append(Invariant(name, "title", decl.title or name, where, cite, title_invariant(decl),
                             stable_hash(name, decl)))
    for inv in out:
        inv.sanctions = sanctions.get(inv.name, [])
    return out


def span_text(span: Any) -> str:
    """`path:line:col` of a span (a syntax node's place)."""
    return str(span) if getattr(span, "line", 0) else "<builtin>"


__all__ = ["Atom", "Invariant", "invariants_for", "span_text", "truth", "DEPOT", "SCRAP"]
