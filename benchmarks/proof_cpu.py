"""Where a title's cold proofs spend their CPU time, in one process.

    python benchmarks/proof_cpu.py TITLE [TRANSITION...] [--invariant NAME...]

Proves the title (`rulec verify`'s slug: `1846`, `1880-romania/18xx-games`) from nothing, with no
cache, on this process only, and prints the CPU time (not the wall time: on a machine others use
the wall time says more about them) of: building the verifier, translating the transitions, the
solving in all, z3's checks within it, the `Invariant.monotone` conditions and the readings of
z3's resource count; how many checks z3 ran; the ten transitions that took the most; and whether
each (invariant, transition, status) is the one `site/proofs.json` records. `--invariant`: only
those invariants' checks (the others still assumed), e.g. one check alone:
`python benchmarks/proof_cpu.py 1880-romania/18xx-games player_choose --invariant cert_limit`
(issue 33: 128 s of CPU before the verifier checked a branching step case by case, 9 s after).
`--by-attempt`: also z3's CPU by invariant and attempt (`Verifier._solve`'s quick, cases, split;
a case by its number in `_cases`' order; the guard's, `_monotone`'s and `_forced_false`'s
checks by their own name) and the ten costliest single z3 checks, with their binding: e.g. 18CO's
sell_shares spends most of its time in the cases of a sale that hands over the presidency.
`--set NAME=VALUE`: one of the verifier's numeric settings put to another value for this run (may
be repeated), to compare two settings on the same checks in the same period, e.g. z3's older
arithmetic solver against its default: `--set ARITH_SOLVER=6`.
Figures only.
"""

from __future__ import annotations

import argparse
import collections
import inspect
import json
import sys
import time

from compiler.lang.pipeline import load
from compiler.paths import ROOT
from compiler.verify import verifier as V

cpu = time.process_time
spent: collections.Counter = collections.Counter()
counts: collections.Counter = collections.Counter()
by_transition: list[tuple[float, str, int]] = []


def timed(owner, name: str, label: str, count: bool = False, per_transition: bool = False) -> None:
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        t0 = cpu()
        out = original(*args, **kwargs)
        d = cpu() - t0
        spent[label] += d
        if count:
            counts[label] += 1
        if per_transition:
            by_transition.append((d, args[1].name, len(args[2])))
        return out

    setattr(owner, name, wrapper)


#: with --by-attempt: (CPU seconds, binding, invariant, attempt, case, result) of every z3 check
attempts: list[tuple[float, str, str, str, str, str]] = []


def by_attempt() -> None:
    """Wrap `verifier._check` to note each z3 check's CPU and where `_solve` (or another caller)
    made it: which of `_solve`'s calls by its line (the invariants together, the guard's, an
    attempt's, in the order they are written), the attempt and case read from its locals (a
    benchmark's look, not an interface)."""
    original = V._check
    named: dict[int, str] = {}

    def wrapper(solver, units):
        caller = sys._getframe(1)
        here = caller.f_locals
        t0 = cpu()
        out = original(solver, units)
        step, inv, case = here.get("step"), here.get("inv"), "-"
        kind = caller.f_code.co_name.strip("_")
        if kind == "solve":
            if not named:
                lines, first = inspect.getsourcelines(caller.f_code)
                sites = [first + i for i, line in enumerate(lines) if "_check(" in line]
                named.update(zip(sites, ("together", "guard", "attempt", "attempt")))  # (a split part: core, then Solver)
            kind = named.get(caller.f_lineno, "?")
            if kind == "attempt":
                kind = here.get("kind", "?")
                if kind == "cases":
                    case = str(next((i for i, (c, _) in enumerate(here["within"]) if c is here["case"]), "?"))
        name = inv.name if inv is not None and kind not in ("guard", "together", "forced_false") else "-"
        attempts.append((cpu() - t0, getattr(step, "label", "?"), name, kind, case, str(out[0])))
        return out

    V._check = wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title")
    parser.add_argument("transitions", nargs="*")
    parser.add_argument("--invariant", action="append", help="only this invariant's checks (may be repeated)")
    parser.add_argument("--by-attempt", action="store_true",
                        help="z3's CPU by invariant, attempt and case, and the costliest checks")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="one of the verifier's numeric settings put to VALUE (may be repeated)")
    args = parser.parse_args()
    for setting in args.set:
        key, _, value = setting.partition("=")
        if not isinstance(getattr(V, key, None), (int, float)):
            parser.error(f"--set {setting}: the verifier has no numeric setting {key!r}")
        setattr(V, key, type(getattr(V, key))(value))
    name, only = args.title, args.transitions or None
    title = V.select_titles(load(), [name])[0]
    timed(V, "_check", "z3 checks", count=True)
    timed(V, "_resource_count", "resource count readings")
    timed(V.Verifier, "_translate", "translation")
    timed(V.Verifier, "_monotone", "monotone conditions", count=True)
    timed(V.Verifier, "_solve", "solving", per_transition=True)
    if args.by_attempt:
        by_attempt()  # (outside `timed`'s wrapper: it reads its caller's frame)
    t0, w0 = cpu(), time.perf_counter()
    verifier = V.Verifier(title, V.TIMEOUT_SECONDS, V.Cache(None))
    if args.invariant:
        verifier.invariants = [inv for inv in verifier.invariants if inv.name in set(args.invariant)]
        verifier.partial = True
    spent["the verifier built"] = cpu() - t0
    report = verifier.run(only)
    total, wall = cpu() - t0, time.perf_counter() - w0
    print(f"{title.display_name}: {len(report.results)} checks, CPU {total:.2f} s (wall {wall:.1f} s); "
          + ", ".join(f"{v} {k}" for k, v in report.counts().items() if v))
    for label, seconds in spent.most_common():
        print(f"  {label:<26} {seconds:8.2f} s CPU" + (f"  ({counts[label]} calls)" if label in counts else ""))
    print("  the transitions that took the most (solving, CPU):")
    for seconds, transition, bindings in sorted(by_transition, reverse=True)[:10]:
        print(f"    {seconds:7.2f} s  {transition} ({bindings} bindings)")
    if args.by_attempt:
        grouped: collections.Counter = collections.Counter()
        for seconds, _, invariant, kind, case, _ in attempts:
            grouped[(invariant, kind, case)] += seconds
        print("  z3's CPU by invariant, attempt and case:")
        for (invariant, kind, case), seconds in grouped.most_common(15):
            print(f"    {seconds:7.2f} s  {invariant} {kind}" + (f" case {case}" if case != "-" else ""))
        print("  the costliest z3 checks:")
        for seconds, label, invariant, kind, case, result in sorted(attempts, reverse=True)[:10]:
            print(f"    {seconds:7.2f} s  {label}: {invariant} {kind}" + (f" case {case}" if case != "-" else "")
                  + f" ({result})")
    record = json.loads((ROOT / "site" / "proofs.json").read_text(encoding="utf-8"))["titles"].get(title.display_name)
    if record is not None and only is None and not args.invariant:
        ours = sorted((r.invariant, r.transition, r.status) for r in report.results)
        theirs = sorted(tuple(r[:3]) for r in record["results"])
        print("  results: " + ("the record's" if ours == theirs else
                               f"{len(set(ours) ^ set(theirs))} differ from site/proofs.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
