"""Throughput of `rulec simulate` on a Dask local cluster of 1 and of 2 workers, and the ratio.

    python benchmarks/simulate.py [--games K] [--policy P] [--players N] [--seed S] [--workers 1,2] [TITLE]

Starts a `LocalCluster` of each size (one process per worker, one thread each), warms every
worker (the engine built, the runtime imported) with one game per worker, then times the
study of K games (default 80 of 1800, 2 players, random policy) from submission to the last
result, and prints games/s and actions/s per size and each size's speed-up over one worker.
The statistics of every run are compared: they must be the same bytes, whatever the size.
`cpu s/game` is the workers' CPU time per game (the same at every size when Dask adds no work)
and `cpu share` the part of its workers' cores the study had (the CPU time over the wall time
times the workers: below 100% where other work took the cores, which lowers the speed-up);
`on idle cores` projects the speed-up had each worker had its core to itself (the games/s over
the cpu share) -- a projection for a shared machine, not a measurement.
On a machine of 2 cores the ideal ratio is 2.0; the issue's target is at least 1.7. Run it on
an otherwise idle machine: other work on the cores counts against the larger cluster.
Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os

from compiler.emit.engines import game_class
from compiler.app.simulate import Study, engine_source, local_cluster, run_study, statistics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title", nargs="?", default="1800")
    parser.add_argument("--variant")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--policy", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="1,2", help="cluster sizes, comma-separated (default 1,2)")
    args = parser.parse_args()
    from distributed import Client

    Game = game_class(args.title, args.variant)
    source = engine_source(Game)
    study = Study(args.title, args.variant, args.players, args.games, tuple(args.policy.split(",")), args.seed)
    print(f"{args.title}, {args.players} players, {args.games} games, policy {args.policy}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(f"{'workers':>7} {'seconds':>8} {'games/s':>8} {'actions/s':>9} {'speed-up':>8} "
          f"{'cpu s/game':>10} {'cpu share':>9} {'on idle cores':>13}")
    first = first_idle = None
    expected = None
    for size in [int(w) for w in args.workers.split(",")]:
        with local_cluster(size) as cluster, Client(cluster) as client:
            client.wait_for_workers(size)
            warm = Study(args.title, args.variant, args.players, size, study.policies, args.seed + 10_000)
            run_study(warm, source, client=client)
            run = run_study(study, source, client=client)
        actions = sum(g.get("actions", 0) for g in run.games)
        rate = len(run.games) / run.seconds
        first = first or rate
        # the share of its workers' cores the study got: below 1 where other work took them
        share = run.cpu_seconds / (run.seconds * size)
        idle = rate / share  # projected: the games/s had the workers had their cores to themselves
        first_idle = first_idle or idle
        print(f"{size:>7} {run.seconds:>8.2f} {rate:>8.2f} {actions / run.seconds:>9.0f} {rate / first:>7.2f}x "
              f"{run.cpu_seconds / len(run.games):>10.3f} {share:>9.0%} {idle / first_idle:>12.2f}x")
        found = json.dumps(statistics(study, run.games), sort_keys=True)
        if expected is None:
            expected = found
        elif found != expected:
            print(f"  the statistics with {size} workers differ from those with the first size")


if __name__ == "__main__":
    main()
