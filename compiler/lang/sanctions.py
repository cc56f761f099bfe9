"""Stage 4, check (sanctions): what a `sanction INVARIANT for ACTION` clause may name.

A sanction lets ACTION break INVARIANT, as the rules allow. The verifier attaches it to
the invariant of that name and applies it where a transition of that name, or one that
calls a routine or builtin of that name, breaks it; the runtime's monitor allows the
breach where the action being played, or a step of the runtime inside it, has that name.
A sanction naming neither (a typo: `sanction cert_limt for take_ovr`) was never applied,
checked clean, and `rulec verify` only listed it among the sanctions no check needed.
`rulec check` refuses it here (E010), at the name, with the nearest known name.

The invariants' names are `compiler.lang.invariant_names`, which the verifier proves under; the runtime
steps are the verifier's runtime transitions and the runtime's, which this room may not read while
checking: the tests hold that list to theirs (`tests/test_check.py`).
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, error
from compiler.lang import invariant_names
from compiler.lang import syntax as s
from compiler.lang.builtins import table as builtin_table
from compiler.lang.ir import Title
from compiler.lang.schema import did_you_mean, nearest

#: the invariants `rulec verify` proves of every title, and its lemmas (the one list of them); a title's own
#: `invariant` clauses are the rest
STANDARD_INVARIANTS: tuple[str, ...] = invariant_names.ALL

#: the runtime's steps a sanction may name besides the title's actions, triggers and routines: the
#: verifier's runtime transitions (`compiler.verify.translate.runtime_transitions`) and the steps the
#: runtime asks about (`StockRound._sanctioned`, `_sanction_excess`; `end_stock_round`, the action the
#: runtime plays at the end of a stock round)
RUNTIME_STEPS: tuple[str, ...] = (
    "take_over", "check_take_over", "private_sold_to_bidder", "draft_ends",
    "acquisition_round", "corporation_closed", "hold_card", "market_move", "end_stock_round",
)

#: the clauses whose names a sanction's action may be: what the verifier's transitions are named after
#: and what their translations record as called
_ACTION_KINDS = ("action", "trigger", "procedure", "function", "state")


def check_sanctions(title: Title) -> list[Diagnostic]:
    """E010 for a sanction naming an invariant or an action that does not exist."""
    clauses = list(title.of_kind("sanction"))
    if not clauses:
        return []
    invariants = set(STANDARD_INVARIANTS) | {c.name for c in title.of_kind("invariant")}
    actions = set(RUNTIME_STEPS) | set(builtin_table())
    for kind in _ACTION_KINDS:
        actions |= {c.name for c in title.of_kind(kind)}
    out: list[Diagnostic] = []
    for clause in clauses:
        decl: s.Sanction = clause.decl  # type: ignore[assignment]
        spans = decl.name_spans if len(decl.name_spans) == 2 else (decl.span, decl.span)
        if decl.invariant not in invariants:
            out.append(error(
                "E010", f"sanction names no invariant `{decl.invariant}`"
                + did_you_mean(nearest(decl.invariant, invariants)), spans[0],
                help="a sanction names an invariant `rulec verify` proves (" + ", ".join(STANDARD_INVARIANTS[:5])
                     + ", ...) or one of the title's `invariant` clauses",
                suggestions=tuple(nearest(decl.invariant, invariants))))
        if decl.action not in actions:
            out.append(error(
                "E010", f"sanction names no action, trigger, routine or runtime step `{decl.action}`"
                + did_you_mean(nearest(decl.action, actions)), spans[1],
                help="a sanction names what may break the invariant: an action, a trigger, a procedure or "
                     "function it calls, a builtin, or a step of the runtime (" + ", ".join(RUNTIME_STEPS) + ")",
                suggestions=tuple(nearest(decl.action, actions))))
    return out
