"""How many of the proofs' checks a variant shares with its base: what `verify.warm` solves once.

    python benchmarks/variant_sharing.py [TITLE...]

Translates every transition of the titles named (all when none; `rulec verify`'s names) and
computes each check's cache key (`Verifier.check_keys`, `init_keys`), then prints how many checks
there are, how many distinct keys, and, by pair of titles and by transition, how many checks have
a key a title earlier in the list has too. Where the verify cache (`.rulec-cache/verify.json`, or
`RULEC_CACHE_DIR`) holds a key's result, its seconds are counted: the work a cold run saves by
solving such a check once (issue 33: 171.6 s of the 719 s of a cold run's checks, before `warm`
checked a title and its variants in one task). Also the CPU time the keys took (the translation).
Figures only.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

from compiler.lang.pipeline import load
from compiler.verify import verifier as V


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*")
    args = parser.parse_args()
    titles = V.select_titles(load(), args.titles or None)
    cache = V.Cache.default()
    users: dict[str, list[tuple[str, str, str]]] = collections.defaultdict(list)
    t0 = time.process_time()
    for title in titles:
        verifier = V.Verifier(title, V.TIMEOUT_SECONDS, None)
        keys, _ = verifier.init_keys()
        for inv, key in keys.items():
            users[key].append((title.display_name, inv, "init"))
        for tn in verifier.transitions:
            keys, _ = verifier.check_keys(tn)
            for inv, key in keys.items():
                users[key].append((title.display_name, inv, tn.name))
    cpu = time.process_time() - t0
    checks = sum(len(u) for u in users.values())
    pairs: collections.Counter = collections.Counter()
    pair_seconds: collections.Counter = collections.Counter()
    transitions: collections.Counter = collections.Counter()
    seconds = known = 0.0
    for key, who in users.items():
        found = cache.data.get(key)
        s = float(found["seconds"]) if found else 0.0
        known += s * len(who) if found else 0.0
        for other in who[1:]:
            pairs[(who[0][0], other[0])] += 1
            pair_seconds[(who[0][0], other[0])] += s
            transitions[other[2]] += s
            seconds += s
    print(f"{len(titles)} titles: {checks} checks, {len(users)} distinct keys "
          f"({checks - len(users)} shared with a title before), keys in {cpu:.1f} s CPU")
    print(f"  the cache knows {known:.1f} s of these checks; the shared ones took {seconds:.1f} s")
    for (a, b), n in pairs.most_common(12):
        print(f"  {b:<36} shares {n:5} checks with {a} ({pair_seconds[(a, b)]:.1f} s)")
    for name, s in transitions.most_common(8):
        print(f"  {name:<28} {s:7.1f} s shared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
