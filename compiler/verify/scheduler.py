"""`rulec verify --scheduler ADDRESS`: the checks of `pool.warm` as tasks on a Dask cluster.

The same tasks as the `--jobs` pool's (one per family of titles and transition, "init" for the
initial state), the same work per task (`Verifier.check_init` / `check_transition` through the
cache), the same gathering. What differs is what a worker knows: a Dask worker is not a fork
of this process, so the titles (`ir.Title`, pickled) and the cache as this process holds it
are sent once to every worker (scattered), and each worker builds a `Verifier` per title
once. No z3 term crosses a process boundary; the results (`CheckResult`) and the new cache
entries come back. The workers need rulec installed at the same version (the verifier's
code is theirs); they read no rulespec.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any, Callable

#: On a worker: a verifier per (titles sent, title, options, timeout).
_VERIFIERS: dict[tuple, Any] = {}


def check_task(titles: dict, cache_data: dict, token: str, kinds: tuple, names: tuple[str, ...],
               transition: str, timeout: float, options: tuple[str, ...],
               invariants: tuple[str, ...] | None = None) -> tuple[str, list, dict]:
    """On a worker: one transition of a family of titles (or their initial states, "init"), each
    through the cache in turn (`invariants`: only these, all when None); the transition, each
    title's results and the cache entries added. `kinds` is the verifier's `(Verifier, recording
    cache, check_one)`, sent by reference (the worker imports them), so that this module does
    not import the verifier that imports it."""
    Verifier, RecordingCache, check_one = kinds
    cache = RecordingCache(cache_data)
    out = []
    for name in names:
        key = (token, name, options, timeout)
        if key not in _VERIFIERS:
            _VERIFIERS[key] = Verifier(titles[name], timeout, None, None, options)
        verifier = _VERIFIERS[key]
        verifier.cache = cache
        out.append((name, check_one(verifier, transition, invariants)))
    return transition, out, cache.added


def warm_on(scheduler: str, titles: dict, tasks: list[tuple[tuple[str, ...], str, float, tuple[str, ...], tuple[str, ...] | None]],
            cache_data: dict, gathered: Callable[[str, list, dict], None], kinds: tuple) -> None:
    """Run `tasks` ((titles, transition, timeout, options, invariants or None for all)) on the Dask cluster at
    `scheduler`, calling `gathered(transition, [(title, results)], new cache entries)` as each ends. A task that
    fails is left to `verify_title`, which checks it in this process. `kinds`: see `check_task`."""
    from distributed import Client, as_completed

    token = hashlib.sha256(pickle.dumps(sorted(titles), protocol=5)
                           + pickle.dumps([titles[n] for n in sorted(titles)], protocol=5)).hexdigest()[:16]
    with Client(scheduler, timeout="10s") as client:
        titles_future, cache_future = client.scatter([titles, cache_data], broadcast=True, hash=False)
        futures = [client.submit(check_task, titles_future, cache_future, token, kinds, *task, pure=False)
                   for task in tasks]
        for future in as_completed(futures):
            try:
                transition, by_title, new = future.result()
            except Exception:  # noqa: BLE001 - a task lost: `verify_title` checks it itself
                continue
            gathered(transition, by_title, new)
