"""How many of a cold proof run's z3 queries are the same query asked again.

    python benchmarks/duplicate_queries.py TITLE [TITLE...]

Proves the titles named (`rulec verify`'s names or slugs: `18co` is 18CO and its variants) from
nothing, one after the other in this process, through one in-memory cache, as one of `warm`'s
tasks checks a family (a check whose key a title shares with one before it is taken from the
cache, not solved again). Each z3 query is named by its solver's kind and the ids of the terms it
asserts: z3 makes each term once in a context (hash-consing), so two queries with the same ids are
the same query (the terms are kept, so that no id is reused). Prints the z3 checks and their CPU
seconds, the CPU of those asked before (by the same title or by another, by the verifier's function
that asked and z3's answer, with the same resource cap) and the transitions whose queries took the
most. Issue 33: whether solving each distinct query once a build would pay (18CO and 18CO
(18xx.games): none asked by both, 3.4 of 95 s of z3's CPU asked again within a title; 1800 and its
Three-Player variant: none by both, 90 of 2,319 checks, under 1 s, within a title). Figures only.
"""

from __future__ import annotations

import collections
import sys
import time

from compiler.lang.pipeline import load
from compiler.verify import verifier as V

cpu = time.process_time


def main() -> int:
    names = sys.argv[1:]
    if not names:
        print(__doc__)
        return 2
    rows: list[tuple[str, str, str, int, tuple, str, float]] = []
    kept: list = []  # every query's terms, so that z3 reuses no id while the run lasts
    where = {"title": "", "transition": "init"}
    check, check_transition = V._check, V.Verifier.check_transition

    def counted(solver, units):
        caller = sys._getframe(1).f_code.co_name
        terms = solver.assertions()
        kept.append(terms)
        key = tuple(t.get_id() for t in terms)
        t0 = cpu()
        out = check(solver, units)
        rows.append((where["title"], where["transition"], caller, int(units), key, str(out[0]), cpu() - t0))
        return out

    def transition(self, tn, *args, **kwargs):
        where["transition"] = tn.name
        return check_transition(self, tn, *args, **kwargs)

    V._check = counted
    V.Verifier.check_transition = transition
    titles = V.select_titles(load(), names)
    cache = V.Cache(None)
    t0 = cpu()
    for title in titles:
        where["title"], where["transition"] = title.display_name, "init"
        V.Verifier(title, V.TIMEOUT_SECONDS, cache).run()
        print(f"{title.display_name}: CPU {cpu() - t0:.1f} s so far", flush=True)
    seen: dict[tuple, str] = {}  # each query's first asker (title)
    again: collections.Counter = collections.Counter()
    again_n: collections.Counter = collections.Counter()
    by_transition: collections.Counter = collections.Counter()
    for title, tn, caller, units, key, result, seconds in rows:
        by_transition[(title, tn)] += seconds
        # (the caller is in the name: a SimpleSolver and a Solver asked the same terms are not one query)
        name = (caller, units, key)
        if name in seen:
            what = ("by another title" if seen[name] != title else "by the same title", caller, result)
            again[what] += seconds
            again_n[what] += 1
        else:
            seen[name] = title
    total = sum(r[6] for r in rows)
    print(f"{len(rows)} z3 checks, {len(seen)} distinct: z3's CPU {total:.1f} s of {cpu() - t0:.1f} s")
    print(f"asked again: {sum(again_n.values())} checks, {sum(again.values()):.2f} s of z3's CPU")
    for (who, caller, result), seconds in again.most_common():
        print(f"  {seconds:7.2f} s  {again_n[(who, caller, result)]:5d}  {who}, {caller}, {result}")
    print("the transitions whose queries took the most (z3's CPU):")
    for (title, tn), seconds in by_transition.most_common(10):
        print(f"  {seconds:7.2f} s  {title}: {tn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
