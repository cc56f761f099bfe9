"""Time `rulec impact`: saved games compared per second under an erratum.

    python benchmarks/impact.py [--jobs N] [--repeat R] [ERRATA.rules] [--logs LOG...]

The erratum (default: one that re-cites a clause of 1846 and rewords an action, so that every game
is unchanged and every action of every log is taken by both engines and their states compared: the
most work a game can cost) is measured against its title's fixture logs (../shared/fixtures), or
the logs given. For one process and for `--jobs` processes (default: every core), prints the
games and actions compared per wall-clock second (the best of R runs; the engines are built once,
before the clock starts; on one process per CPU second too, which other work on the machine does
not skew), and as a baseline the plain replay of the same logs on one engine (`sitelog.replay`, the
monitor on) per CPU second. Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from compiler.verify.impact import amend, fixture_logs, log_files, prepare, replay_all
from compiler.progress import Progress
from compiler.runtime.sitelog import replay

RE_CITED = """errata "Re-cited" of "1846" {
  replace private_purchase_from_phase: "I" §"Purchasing Private Companies", supplement from "the rules, second printing"
  replace action end_game(player: player) "The players agree to end the game" assumed "reworded for the benchmark" {
    require not in_round(draft) else "no game ends by agreement during the opening draft"
    do end_game_now(agreement)
  }
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("errata", nargs="?", type=Path)
    parser.add_argument("--logs", nargs="*", type=Path, default=[])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        errata = args.errata
        if errata is None:
            errata = Path(folder) / "re-cited.rules"
            errata.write_text(RE_CITED, encoding="utf-8")
        amendment = amend(errata)
        logs = log_files(args.logs) if args.logs else fixture_logs(amendment)
        tasks = prepare(amendment, logs, lambda note: None)
    games = [t for t in tasks if t.result is None]
    print(f"{errata.name if args.errata else 'a re-citing erratum of 1846'}: {len(games)} games")
    for jobs in sorted({1, args.jobs}):
        best, cpu, results = None, None, []
        for _ in range(args.repeat):
            for task in tasks:
                task.result = None if task.log is not None else task.result
            start, start_cpu = time.perf_counter(), time.process_time()
            with Progress("off").stage("impact") as stage:
                results = replay_all(tasks, to=None, jobs=jobs, progress=stage)
            seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
            best = seconds if best is None else min(best, seconds)
            cpu = cpu_seconds if cpu is None else min(cpu, cpu_seconds)
        compared = sum(r.actions for r in results)  # up to the first difference, where there is one
        changed = sum(1 for r in results if r.changed)
        print(f"  {jobs} process{'es' if jobs != 1 else ''}: {len(games) / best:6.2f} games/s, "
              f"{compared / best:7.0f} actions/s compared ({best:.1f} s; {changed} games change)"
              + (f"; per CPU second: {len(games) / cpu:.2f} games/s, {compared / cpu:.0f} actions/s"
                 if jobs == 1 else ""))
    start, actions = time.process_time(), 0
    for task in games:
        done = replay(task.before, task.log)
        actions += done.processed
    seconds = time.process_time() - start
    print(f"  baseline, one engine replaying the same logs: {len(games) / seconds:6.2f} games/s, "
          f"{actions / seconds:7.0f} actions/s (CPU)")


if __name__ == "__main__":
    main()
