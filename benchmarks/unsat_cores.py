"""Would unsat-core reuse prove an erratum's checks without solving them? A measurement, nothing built on it.

    python benchmarks/unsat_cores.py [--title 1846] [--transitions buy_train ...] [--limit N] [--seconds S]

Loads the title twice in one process: as rulespecs/ has it, and with the erratum of
benchmarks/build.py (its 2-train's price raised by 10) in a copy of rulespecs/. For each transition
whose translation key differs between the two (`Verifier._translate`: the checks an erratum solves
again) and each of its bindings and invariants the step touches, the binding's query in one piece,
`assumption and axioms and guard and not property`, each conjunction split into its conjuncts:

1. before the erratum, solved plainly and with every conjunct tracked (`check(*literals)`), which
   gives the unsat core: what the tracking costs the first solve;
2. after it: whether every conjunct of that core is in the new query verbatim (by the text of its
   s-expression); if so the new query is unsat (a superset of an unsat set is), and the conjuncts
   are solved alone to confirm it, against the new query solved whole.

A check (invariant, transition) is covered when every binding's query is. CPU seconds (this
process's); the verifier's own strategy (together, split, cases, monotone) is not followed, so the
whole-query times here are not the verifier's, only comparable with each other.

Measured (1846, its first 2 to 4 bindings of each changed transition, 147 binding queries (some twice), a
machine at load 20-28): 91 covered, but they are the cheap ones, 9.6 s of the 54.7 s CPU the new
queries take whole; of the 56 not covered, 33 have a core with a conjunct the erratum changed (the
price in corporation_sell_shares' and sell_shares' emergency raise, draft_valid,
emergency_sale_keeps_presidency), 14 are not settled whole in 2 s (cert_limit, pool_cap: the
verifier splits them; split, 2 of 3 conjuncts covered), 9 are satisfiable whole (sanctioned). The
tracking costs the first solve +35 to +63% of CPU (54.2 -> 82.2 s). Not worth building in this
form; see the report of branch erratum62.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

import z3

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from build import erratum  # noqa: E402

from compiler.app.command import load  # noqa: E402
from compiler.verify import verifier as V  # noqa: E402
from compiler.verify.translate import truth, zb  # noqa: E402


def flat(term) -> list:
    if truth(term) is not None:
        return [z3.BoolVal(bool(term))]
    term = zb(term)
    if z3.is_and(term):
        return [x for child in term.children() for x in flat(child)]
    return [term]


def text_hash(term) -> str:
    return hashlib.sha256(term.sexpr().encode()).hexdigest()


def query(v: V.Verifier, step, inv, part: int | None = None) -> list:
    """The binding's query, conjuncts split; `part`: with only the property's conjunct of that index negated
    (the verifier's split), else the whole property."""
    prop = v._property(inv, step)
    if part is not None:
        prop = V._conjuncts(prop)[part]
    negated = z3.Not(zb(prop)) if truth(prop) is None else z3.BoolVal(not prop)
    return [x for a in [*v.assumption, *step.axioms, step.guard, negated] for x in flat(a)]


def covered_by_cores(old_parts: list, new_parts: list, units: int, totals: dict) -> tuple[bool, str]:
    """Solve the old query tracked; whether its core is in the new query and unsat there, and what was seen."""
    _, _, t_plain = solve(old_parts, units, False)
    r_old, core, t_tracked = solve(old_parts, units, True)
    totals["old plain"] += t_plain
    totals["old tracked"] += t_tracked
    line = f"old {r_old} {t_plain:.2f} s, tracked {t_tracked:.2f} s"
    if core is None:
        return False, line
    have = {}
    for part in new_parts:
        have.setdefault(text_hash(part), part)
    wanted = [text_hash(old_parts[i]) for i in core]
    missing = [h for h in wanted if h not in have]
    line += f", core {len(core)} of {len(old_parts)}, {len(missing)} not in the new query"
    if missing:
        return False, line
    r_core, _, t_core = solve([have[h] for h in wanted], units, False)
    totals["new core"] += t_core
    assert r_core != z3.sat, "a core's superset satisfiable: hashing is unsound"
    return r_core == z3.unsat, line + f", the core alone {r_core} {t_core:.3f} s"


def solve(parts: list, units: int, track: bool):
    s = z3.SimpleSolver()
    s.set("smt.arith.solver", V.ARITH_SOLVER)
    s.set("rlimit", units)
    c0 = time.process_time()
    if track:
        lits = [z3.Bool(f"__core{i}") for i in range(len(parts))]
        for lit, part in zip(lits, parts):
            s.add(z3.Implies(lit, part))
        r = s.check(*lits)
        core = [int(str(x)[6:]) for x in s.unsat_core()] if r == z3.unsat else None
    else:
        s.add(*parts)
        r, core = s.check(), None
    return r, core, time.process_time() - c0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="1846")
    parser.add_argument("--transitions", nargs="*", help="only these (default: every one the erratum changes)")
    parser.add_argument("--limit", type=int, default=0, help="the first N bindings of each transition (0: all)")
    parser.add_argument("--invariants", nargs="*", help="only these (default: every one)")
    parser.add_argument("--split", action="store_true", help="where the whole query is not settled, conjunct by "
                        "conjunct (slow)")
    parser.add_argument("--seconds", type=float, default=2.0, help="z3 work per query (RLIMIT_PER_SECOND units)")
    args = parser.parse_args()
    units = int(args.seconds * V.RLIMIT_PER_SECOND)
    with tempfile.TemporaryDirectory(prefix="rulec-cores-") as tmp:
        shutil.copytree(ROOT / "rulespecs", Path(tmp) / "rulespecs")
        print(erratum(Path(tmp), args.title), flush=True)
        pick = lambda loaded: next(t for t in loaded.every_title() if t.display_name == args.title)  # noqa: E731
        old_v = V.Verifier(pick(load(None)))
        new_v = V.Verifier(pick(load([Path(tmp) / "rulespecs"])))
    totals = {"old plain": 0.0, "old tracked": 0.0, "new whole": 0.0, "new core": 0.0}
    checks: dict[tuple[str, str], list[bool]] = {}
    for old_tn, new_tn in zip(old_v.transitions, new_v.transitions):
        if args.transitions and old_tn.name not in args.transitions:
            continue
        old_steps, old_key, _, _ = old_v._translate(old_tn)
        new_steps, new_key, _, _ = new_v._translate(new_tn)
        if old_key == new_key:
            continue
        old_by_label = {s.label: s for _, s in old_steps if isinstance(s, V.Step)}
        new_list = [s for _, s in new_steps if isinstance(s, V.Step)]
        for new_step in new_list[:args.limit or None]:
            old_step = old_by_label.get(new_step.label)
            changed = V._changed(new_step)
            for inv in new_v.invariants:
                if args.invariants and inv.name not in args.invariants:
                    continue
                if (inv.name in new_v._inv_gap or inv.name in new_v._inv_unsupported
                        or not new_v._touched(inv, new_step, changed)):
                    continue
                covered = False
                try:
                    new_parts = query(new_v, new_step, inv)
                    old_parts = query(old_v, old_step, inv) if old_step is not None else None
                except (V.GapError, V.Unsupported):
                    continue
                r_new, _, t_new = solve(new_parts, units, False)
                totals["new whole"] += t_new
                line = f"{new_tn.name} {inv.name} {new_step.label}: new {r_new} {t_new:.2f} s"
                if old_parts is not None:
                    covered, seen = covered_by_cores(old_parts, new_parts, units, totals)
                    line += "; " + seen
                    if not covered and r_new == z3.unknown and args.split:
                        # as the verifier does where the whole is not settled: conjunct by conjunct
                        n = len(V._conjuncts(new_v._property(inv, new_step)))
                        if n == len(V._conjuncts(old_v._property(inv, old_step))):
                            results = [covered_by_cores(query(old_v, old_step, inv, i), query(new_v, new_step, inv, i),
                                                        units, totals) for i in range(n)]
                            covered = all(ok for ok, _ in results)
                            line += f"; split in {n}: {sum(ok for ok, _ in results)} covered"
                checks.setdefault((new_tn.name, inv.name), []).append(covered)
                print("  " + line, flush=True)
    whole = sum(1 for v in checks.values() if all(v))
    bindings = sum(len(v) for v in checks.values())
    print(f"{whole} of {len(checks)} checks covered on every binding; {sum(sum(v) for v in checks.values())} "
          f"of {bindings} binding queries covered")
    print("CPU: " + ", ".join(f"{k} {v:.1f} s" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
