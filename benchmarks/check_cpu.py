"""The costliest checks of a cold `rulec verify` of a title with its variants, in CPU seconds of one process.

    python benchmarks/check_cpu.py TITLE [--top N] [--transition NAME...] [--json PATH]

Proves the title (`rulec verify`'s slug: `1846`; a variant's, `1846/18xx-games`, alone) and each of its
variants from nothing, one after the other on this process, through one cache kept in memory, as
`rulec verify --jobs 1` does (a check whose key a variant shares with its base is solved once). Prints the
CPU time (not the wall time: on a machine others use the wall time says more about them) of each title
and in all, then the N costliest checks (15 by default): the CPU z3 spent on the check (the solving of its
transition, split among its invariants as their seconds are) and, apart, the translation of its
transition (which its checks share); then the costliest translations and transitions. `--transition`:
only those transitions' checks. `--json PATH`: the results in `rulec verify --json`'s form, for
`cmpproofs.py` or a comparison of two runs. Issue 33: no check over 15 s, a cold build under 3 minutes
on 2 cores. Figures only.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

from compiler.lang.pipeline import load
from compiler.verify import verifier as V

cpu = time.process_time
#: (title, transition) -> CPU seconds of its translations (abstract and concrete)
translated: collections.Counter = collections.Counter()
#: (title, transition, invariant) -> CPU seconds of z3's solving
solved: collections.Counter = collections.Counter()


def instrument() -> None:
    translate, solve = V.Verifier._translate, V.Verifier._solve

    def _translate(self, tn, concrete=False):
        t0 = cpu()
        out = translate(self, tn, concrete)
        translated[(self.title.display_name, tn.name)] += cpu() - t0
        return out

    def _solve(self, tn, steps, invs, *args, **kwargs):
        t0 = cpu()
        out = solve(self, tn, steps, invs, *args, **kwargs)
        seconds, shares = cpu() - t0, sum(o.seconds for o in out.values())
        for name, o in out.items():
            share = o.seconds / shares if shares > 0 else 1 / len(out)
            solved[(self.title.display_name, tn.name, name)] += seconds * share
        return out

    V.Verifier._translate, V.Verifier._solve = _translate, _solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--transition", action="append", help="only this transition's checks (may be repeated)")
    parser.add_argument("--json", metavar="PATH", help="the results, as `rulec verify --json` writes them")
    args = parser.parse_args()
    instrument()
    titles = V.select_titles(load(), [args.title])
    cache, reports, total = V.Cache(None), [], cpu()
    for title in titles:
        t0 = cpu()
        reports.append(V.verify_title(title, cache=cache, only=args.transition))
        print(f"{title.display_name}: {len(reports[-1].results)} checks, CPU {cpu() - t0:.1f} s", flush=True)
    print(f"in all: CPU {cpu() - total:.1f} s")
    print(f"the {args.top} costliest checks (CPU s: z3, the transition's translation):")
    for (title, transition, invariant), seconds in solved.most_common(args.top):
        print(f"  {seconds:6.2f} {translated[(title, transition)]:6.2f}  {title}: {invariant} after {transition}")
    print("the costliest translations:")
    for (title, transition), seconds in translated.most_common(5):
        print(f"  {seconds:6.2f}  {title}: {transition}")
    by_transition: collections.Counter = collections.Counter()
    for (title, transition, _), seconds in solved.items():
        by_transition[(title, transition)] += seconds
    print("the costliest transitions (z3):")
    for (title, transition), seconds in by_transition.most_common(5):
        print(f"  {seconds:6.2f}  {title}: {transition}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"titles": [r.to_json() for r in reports]}, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
