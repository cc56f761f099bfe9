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
Figures only.
"""

from __future__ import annotations

import argparse
import collections
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title")
    parser.add_argument("transitions", nargs="*")
    parser.add_argument("--invariant", action="append", help="only this invariant's checks (may be repeated)")
    args = parser.parse_args()
    name, only = args.title, args.transitions or None
    title = V.select_titles(load(), [name])[0]
    timed(V, "_check", "z3 checks", count=True)
    timed(V, "_resource_count", "resource count readings")
    timed(V.Verifier, "_translate", "translation")
    timed(V.Verifier, "_monotone", "monotone conditions", count=True)
    timed(V.Verifier, "_solve", "solving", per_transition=True)
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
    record = json.loads((ROOT / "site" / "proofs.json").read_text(encoding="utf-8"))["titles"].get(title.display_name)
    if record is not None and only is None and not args.invariant:
        ours = sorted((r.invariant, r.transition, r.status) for r in report.results)
        theirs = sorted(tuple(r[:3]) for r in record["results"])
        print("  results: " + ("the record's" if ours == theirs else
                               f"{len(set(ours) ^ set(theirs))} differ from site/proofs.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
