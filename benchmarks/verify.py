"""Time `rulec verify`: cold, warm, and after a one-clause erratum.

    python benchmarks/verify.py [TITLE...] [--timeout SECONDS]

For each title and variant (all when none is named): the time of a cold
verification (empty cache), of a warm one (every check cached), and after a
one-clause erratum (one action's summary text changed, so its IR hash
changes: only that action's checks run again); the checks by status and the
five slowest. The cache lives in a temporary folder. Figures only; nothing
here passes or fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from compiler.lang.ir import Title
from compiler.lang.pipeline import load
from compiler.verify.verifier import Cache, select_titles, verify_title


def with_erratum(title: Title) -> tuple[Title, str] | None:
    """The title with its first action's summary text changed (a one-clause erratum)."""
    for i, clause in enumerate(title.clauses):
        if clause.kind == "action":
            decl = dataclasses.replace(clause.decl, title=(clause.decl.title or "") + " (erratum)")
            changed = dataclasses.replace(clause, decl=decl, change="replaced")
            clauses = title.clauses[:i] + (changed,) + title.clauses[i + 1:]
            return dataclasses.replace(title, clauses=clauses), clause.name
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    loaded = load()
    titles = select_titles(loaded, args.titles or None)
    print(f"{'title':<32} {'checks':>6} {'cold s':>8} {'warm s':>8} {'erratum s':>10} {'rerun':>6}  statuses")
    slow = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "verify.json"
        for title in titles:
            path.unlink(missing_ok=True)
            start = time.perf_counter()
            cold = verify_title(title, timeout=args.timeout, cache=Cache(path))
            cold_s = time.perf_counter() - start
            start = time.perf_counter()
            verify_title(title, timeout=args.timeout, cache=Cache(path))
            warm_s = time.perf_counter() - start
            erratum = with_erratum(title)
            err_s, rerun = 0.0, 0
            if erratum is not None:
                changed, _name = erratum
                cache = Cache(path)
                start = time.perf_counter()
                verify_title(changed, timeout=args.timeout, cache=cache)
                err_s = time.perf_counter() - start
                rerun = cache.misses
            counts = ", ".join(f"{v} {k}" for k, v in cold.counts().items() if v)
            print(f"{title.display_name:<32} {len(cold.results):>6} {cold_s:>8.1f} {warm_s:>8.1f} "
                  f"{err_s:>10.1f} {rerun:>6}  {counts}")
            slow.extend((r.seconds, title.display_name, r.invariant, r.transition) for r in cold.results)
    print()
    print("slowest checks:")
    for seconds, title, invariant, transition in sorted(slow, reverse=True)[:5]:
        print(f"  {seconds:7.3f}s  {title}: {invariant} after {transition}")


if __name__ == "__main__":
    main()
