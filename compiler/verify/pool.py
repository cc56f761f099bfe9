"""Stage 6, verify, across cores: `warm`, which checks the titles' transitions on a pool of forked
processes (or a Dask cluster) before `verifier.verify_title` gathers them, its `plan`, and
`rulec verify`'s entry point, `run`, which runs both.

Moved out of `verifier.py` (which is the checks themselves) as it was; see `warm` for how the tasks
are made and dealt.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Iterable, TextIO

from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.progress import worker_pool
from compiler.verify.model import GapError, Unsupported
from compiler.verify.report import cache_counts, render_report
from compiler.verify.verifier import (_WARM_VERIFIERS, _WARMED, TIMEOUT_SECONDS, TRANSLATION_SLOT, Cache,
                                      CheckResult, Verifier, select_titles, verify_title)

#: The titles the worker processes of `warm` check, set before they fork: a forked worker finds
#: them in its copy of the parent's memory (neither a Title nor a z3 term is sent between processes).
_WARM_TITLES: dict[str, Title] = {}
#: In a worker: the cache as the parent held it, and a verifier per title.
_WARM_STATE: dict[str, Any] = {}


class _RecordingCache(Cache):
    """A worker's cache: the parent's results as it held them, and the results it adds."""

    def __init__(self, data: dict[str, dict[str, Any]]):
        super().__init__(None)
        self.data = data
        self.added: dict[str, dict[str, Any]] = {}

    def put(self, key: str, value: dict[str, Any]) -> None:
        super().put(key, value)
        self.added[key] = value


#: A task of `warm`: (the titles, transition or "init", timeout, options, the invariants to check:
#: all when None). The titles are a title and its variants that have the transition (`_families`),
#: checked one after the other in one process: a check whose key (`Verifier.check_keys`) a title
#: shares with one before it is taken from the cache, not solved again.
WarmTask = tuple[tuple[str, ...], str, float, tuple[str, ...], "tuple[str, ...] | None"]
#: What a transition is estimated to take where no earlier run's time is known (`warm`, `cold_estimate`):
#: this many seconds per node of its IR (its routine's and those it calls', `ir_nodes`) and per square
#: root of its bindings. A transition's bindings share much of their work (the together query, the
#: monotone condition, a split once found needed), and one routine that hands over a presidency costs
#: more per binding than one that moves a train: on a cold run of every title on 2 processes
#: (benchmarks/warm_tasks.py, 75 tasks) this orders the tasks as their CPU time does by a rank
#: correlation of 0.71, the bindings alone 0.48 (18CO's, 1846's and 1880 Romania's sell_shares, 6
#: bindings and 28-46 s, were dealt among the last; a task of 46 s left to the end leaves the other
#: core idle for it)
SECONDS_PER_NODE = 1 / 200
#: the nodes counted for a runtime step that translates no routine of the DSL (`Transition.routines`)
RUNTIME_NODES = 60
#: A transition estimated to take more than this share of a process's work is shared out among
#: the processes, its invariants dealt in turn (`warm`)
HEAVY_SHARE = 0.25


def check_one(verifier: "Verifier", transition: str,
              invariants: "Iterable[str] | None" = None) -> list["CheckResult"]:
    """One transition of a title (its initial state for "init"), through the verifier's cache;
    `invariants`: only these (all when None)."""
    if transition == "init":
        return verifier.check_init()
    wanted = None if invariants is None else set(invariants)
    if wanted is not None and not wanted & {inv.name for inv in verifier.invariants}:
        return []
    return verifier.check_transition(next(t for t in verifier.transitions if t.name == transition),
                                     invariants=invariants)


def _warm_one(task: WarmTask) -> tuple[str, list[tuple[str, list["CheckResult"]]], dict[str, dict[str, Any]]]:
    """In a worker: one transition of a family of titles (or their initial states, "init"), each
    through the cache in turn; the transition, each title's results and the cache entries added."""
    names, transition, timeout, options, invariants = task
    cache = _RecordingCache(_WARM_STATE["cache"])
    verifiers = _WARM_STATE.setdefault("verifiers", {})
    out = []
    for name in names:
        if name not in verifiers:
            # the parent's (`_WARM_VERIFIERS`, this process's copy of it) where it built one
            verifiers[name] = (_WARM_VERIFIERS.get((name, options, timeout))
                               or Verifier(_WARM_TITLES[name], timeout, None, None, options))
        verifier = verifiers[name]
        verifier.cache = cache
        out.append((name, check_one(verifier, transition, invariants)))
    return transition, out, cache.added


def ir_nodes(title: Title, decls: Iterable[Any]) -> int:
    """How many IR nodes `decls` hold with the title's procedures and functions they call (each
    routine once)."""
    seen: set[str] = set()
    total = 0
    todo = list(decls)
    while todo:
        decl = todo.pop()
        for node in s.walk(getattr(decl, "body", decl)):
            total += 1
            if isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.name not in seen:
                clause = title.get("procedure", node.func.name) or title.get("function", node.func.name)
                if clause is not None:
                    seen.add(node.func.name)
                    todo.append(clause.decl)
    return total


def cold_estimate(title: Title, tn: Any) -> float:
    """The seconds a transition is estimated to take where no run's time is known (`SECONDS_PER_NODE`)."""
    try:
        bindings = len(tn.bindings())
    except (GapError, Unsupported):
        return 0.0
    decls = ([tn.clause.decl] if tn.clause is not None else []) + list(tn.routines)
    nodes = ir_nodes(title, decls) if decls else RUNTIME_NODES
    return SECONDS_PER_NODE * nodes * bindings ** 0.5


def _families(titles: list[Title]) -> dict[str, tuple[str, ...]]:
    """Each title's family (by display name): the title and its variants, in `titles`' order.
    A variant (an errata overlay, another player count) shares most of its checks' keys with
    its base or a sibling (18CO (18xx.games) the most of 18CO's buy_shares, 1846 (Two-Player,
    18xx.games) of 1846 (Two-Player)'s): `warm` checks a family's transition in one task."""
    by_base: dict[str, list[str]] = {}
    for title in titles:
        by_base.setdefault(title.name, []).append(title.display_name)
    return {name: tuple(group) for group in by_base.values() for name in group}


def plan(estimates: list[tuple[float, Any, str, list[str]]], jobs: int, timeout: float,
         options: tuple[str, ...]) -> list[WarmTask]:
    """`warm`'s tasks, the heaviest first (so that the last to end is a light one), from each
    transition's estimate (seconds, titles, transition, their invariants); a transition estimated at
    more than `HEAVY_SHARE` of a process's work is dealt to `jobs` tasks, each with every
    `jobs`-th invariant."""
    total = sum(e for e, *_ in estimates)
    heavy = HEAVY_SHARE * total / max(1, jobs)
    weighted: list[tuple[float, WarmTask]] = []
    for seconds, names, transition, invariants in estimates:
        parts = jobs if jobs > 1 and seconds > heavy and len(invariants) >= jobs else 1
        if parts == 1:
            weighted.append((seconds, (names, transition, timeout, options, None)))
            continue
        for i in range(parts):
            weighted.append((seconds / parts, (names, transition, timeout, options, tuple(invariants[i::parts]))))
    weighted.sort(key=lambda wt: -wt[0])  # stable: equal estimates keep the titles' order
    return [task for _, task in weighted]


def warm(titles: list[Title], cache: Cache, jobs: int | None = None, *, timeout: float = TIMEOUT_SECONDS,
         options: tuple[str, ...] = (), progress: Callable[[str], None] | None = None,
         scheduler: str | None = None) -> int:
    """Check every (invariant, transition) of `titles` on `jobs` processes (all the machine's cores
    when None), through `cache`, and keep the results for `verify_title`, which then only gathers
    them (and puts what was new in `cache`). Each process translates and checks one transition at
    a time, through the cache, of a title and of its variants one after the other (`_families`:
    a check a variant shares with its base is solved once); one process (`jobs` 1) leaves all the
    work to `verify_title`. The transitions go heaviest first, by the seconds they took when last
    checked (`Cache.times`), else by their IR and bindings (`cold_estimate`), and a heavy one is shared out by invariant
    (`plan`). With `scheduler` (a Dask scheduler's address), the tasks run on that cluster instead
    (`scheduler`), whatever `jobs` says. Returns how many results were new."""
    jobs = jobs or os.cpu_count() or 1
    if (jobs <= 1 and scheduler is None) or not titles:
        return 0
    import multiprocessing
    from concurrent.futures import as_completed

    families = _families(titles)
    # (family, transition) -> [seconds, titles, invariants], in the titles' order
    grouped: dict[tuple[tuple[str, ...], str], list[Any]] = {}
    order: dict[str, dict[str, int]] = {}

    def estimate(name: str, transition: str, seconds: float, invariants: list[str]) -> None:
        entry = grouped.setdefault((families[name], transition), [0.0, [], []])
        entry[0] += seconds
        entry[1].append(name)
        entry[2].extend(n for n in invariants if n not in entry[2])

    for title in titles:
        try:
            verifier = Verifier(title, timeout, None, None, options)
        except (GapError, Unsupported):
            continue  # `verify_title` reports it
        name = title.display_name
        _WARM_TITLES[name] = title
        _WARM_VERIFIERS[(name, options, timeout)] = verifier
        invariants = [inv.name for inv in verifier.invariants]
        order[name] = {n: i for i, n in enumerate(invariants)}
        estimate(name, "init", cache.times.get(Cache.times_key(name, options, "init"), 0.0), [])
        for tn in verifier.transitions:
            seconds = cache.times.get(Cache.times_key(name, options, tn.name))
            if seconds is None:
                seconds = cold_estimate(title, tn)
            estimate(name, tn.name, seconds, invariants)
    estimates = [(seconds, tuple(names), transition, invariants)
                 for (_, transition), (seconds, names, invariants) in grouped.items()]
    tasks = plan(estimates, 1 if scheduler is not None else jobs, timeout, options)
    parts_left: dict[tuple[str, str], int] = {}
    for names, transition, *_ in tasks:
        for name in names:
            parts_left[(name, transition)] = parts_left.get((name, transition), 0) + 1
    pieces: dict[tuple[str, str], list[CheckResult]] = {}
    added = 0

    def gathered(transition: str, by_title: list[tuple[str, list[CheckResult]]], new: dict) -> None:
        nonlocal added
        for key, value in new.items():
            cache.put(key, value)
        added += sum(1 for key in new if not key.startswith(TRANSLATION_SLOT))  # check results only
        for name, results in by_title:
            pieces.setdefault((name, transition), []).extend(results)
            parts_left[(name, transition)] -= 1
            if parts_left[(name, transition)]:
                continue  # a transition shared out is taken whole or not at all (`verify_title` checks the rest)
            whole = sorted(pieces.pop((name, transition)), key=lambda r: order[name].get(r.invariant, -1))
            _WARMED.setdefault((name, options, timeout), {})[transition] = whole
            # (a result taken from the cache has the seconds of the run that made it: the sum is the cold cost)
            cache.times[Cache.times_key(name, options, transition)] = round(sum(r.seconds for r in whole), 3)
            if progress is not None:
                progress(f"{name}: {transition}")

    if scheduler is not None:
        from compiler.verify.scheduler import warm_on

        try:
            warm_on(scheduler, dict(_WARM_TITLES), tasks, cache.data, gathered, (Verifier, _RecordingCache, check_one))
        finally:
            _WARM_TITLES.clear()
        cache.save()
        return added
    _WARM_STATE["cache"] = cache.data
    try:
        with worker_pool(min(jobs, len(tasks)), multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_warm_one, task) for task in tasks]
            for future in as_completed(futures):
                try:
                    transition, by_title, new = future.result()
                except Exception:  # noqa: BLE001 - a worker lost: `verify_title` checks it itself
                    continue
                gathered(transition, by_title, new)
    finally:
        _WARM_TITLES.clear()
        _WARM_STATE.clear()
        cache.save()
    return added


def run(titles: list[str] | None, as_json: bool, out: TextIO, options: tuple[str, ...] = (),
        jobs: int | None = None, scheduler: str | None = None) -> int:
    """`rulec verify [TITLE...] [--option KEY...] [--json] [--jobs N] [--scheduler ADDRESS]`: verify
    the named titles (all when None), with the optional rules `options` in play, on `jobs` processes
    (every core when None) or on the Dask cluster at `scheduler`, print the table (or one JSON
    object) to `out`.

    Returns 0 when every proof is proved or sanctioned and no table check
    failed, 1 otherwise (a counterexample, an unknown, a check not checkable
    for a gap or an unsupported construct, a failed table check, or rulespecs
    that do not load), 2 when a title named matches nothing or does not
    declare an option named.
    """
    from compiler.diagnostics import render
    from compiler.lang.pipeline import load

    loaded = load()
    if loaded.errors:
        for d in loaded.errors:
            print(render(d, loaded.sources), file=out)
        return 1
    try:
        selected = select_titles(loaded, titles)
    except KeyError as exc:
        print(f"rulec verify: no title or variant {exc.args[0]!r}", file=out)
        return 2
    for title in selected:
        declared = sorted(c.key for c in title.components("option"))
        missing = [o for o in options if o not in declared]
        if missing:
            print(f"rulec verify: {title.display_name} has no option {missing[0]!r}; "
                  f"its options: {', '.join(declared) or 'none'}", file=out)
            return 2
    cache = Cache.default()
    interactive = hasattr(sys.stderr, "isatty") and sys.stderr.isatty() and not as_json

    def progress(text: str) -> None:
        if interactive:
            print(f"\r\033[Kverifying {text}", end="", file=sys.stderr, flush=True)

    reports = []
    start = time.perf_counter()
    warm(selected, cache, jobs, options=tuple(options), progress=progress, scheduler=scheduler)
    for title in selected:
        reports.append(verify_title(title, cache=cache, progress=progress, options=tuple(options)))
    if interactive:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    ok = all(r.ok for r in reports)
    if as_json:
        counts: dict[str, int] = {}
        for r in reports:
            for k, v in r.counts().items():
                counts[k] = counts.get(k, 0) + v
        slow = max((x for r in reports for x in r.results), key=lambda x: x.seconds, default=None)
        print(json.dumps({
            "ok": ok,
            "seconds": round(seconds, 3),
            "counts": counts,
            "slowest": ({"title": next(r.title for r in reports if slow in r.results), **slow.to_json()}
                        if slow else None),
            "cache": {"path": str(cache.path) if cache.path else None, **cache_counts(reports)},
            "titles": [r.to_json() for r in reports],
        }, indent=2, ensure_ascii=False), file=out)
        return 0 if ok else 1
    for r in reports:
        render_report(r, out)
        print("", file=out)
    totals: dict[str, int] = {}
    for r in reports:
        for k, v in r.counts().items():
            totals[k] = totals.get(k, 0) + v
    slowest = max(((r.title, x) for r in reports for x in r.results), key=lambda tx: tx[1].seconds, default=None)
    print(f"verified {len(reports)} titles and variants in {seconds:.1f}s: "
          + ", ".join(f"{v} {k}" for k, v in totals.items() if v)
          + " (cache: {hits} hits, {misses} misses)".format(**cache_counts(reports)), file=out)
    if slowest is not None:
        title, x = slowest
        print(f"slowest check: {title}: {x.invariant} after {x.transition}, {x.seconds:.3f}s", file=out)
    return 0 if ok else 1


__all__ = ["HEAVY_SHARE", "RUNTIME_NODES", "SECONDS_PER_NODE", "WarmTask", "check_one", "cold_estimate", "ir_nodes",
           "plan", "run", "warm"]
