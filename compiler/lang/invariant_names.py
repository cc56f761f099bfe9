"""The names of the invariants `rulec verify` proves of every title: the one list of them.

The verifier (`compiler.verify.invariants`) proves each under its name here, with the formula named
after it, in this order; the checker (`compiler.lang.sanctions`) accepts them in a `sanction` clause.
A title's own `invariant` clauses are the rest. A leaf: it imports nothing.
"""

from __future__ import annotations

#: the standard invariants, proved of every title
STANDARD: tuple[str, ...] = (
    "money_conserved", "shares_sum_to_100", "cert_limit", "holding_cap", "pool_cap", "no_negative_cash",
    "market_on_grid", "trains_conserved", "president_holds_most",
)
#: the invariants proved of the titles that set the property they are named after
GUARDED: tuple[str, ...] = ("emergency_sale_keeps_presidency",)
#: the lemmas the standard invariants' proofs assume, proved in turn
LEMMAS: tuple[str, ...] = (
    "items_held_once", "unstarted_on_mat", "grants_bounded", "no_shares_during_private_sale", "bids_valid",
    "floated_started", "private_owners_floated", "par_valid", "president_not_in_pool", "phase_valid",
    "draft_valid", "tokens_valid",
)
#: every one, in the verifier's order
ALL: tuple[str, ...] = STANDARD + GUARDED + LEMMAS
