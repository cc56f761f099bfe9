"""Where the cold proof run's cores idle: every task of `verify.warm`, when and where it ran.

    python benchmarks/warm_tasks.py [TITLE...] [--jobs N] [--times FILE] [--log FILE]

Runs `warm` (what `rulec verify --jobs N` does before it gathers) on the titles named (all when
none is) with an empty cache in a temporary folder, and no times file unless `--times` names one
(a `verify-times.json` to plan by, as a warm cache would), then `verify_title` on each to gather.
Logs each task as it ends (its process, start and end in wall seconds from the start, its CPU
seconds, its titles, transition and invariants) and prints: the wall and CPU
time of planning, of the tasks and of the gathering; each process's busy time and how long it sat
idle while another still worked; the ten longest tasks; the tasks that ran last; and every
(invariant, transition) whose status differs from the one `site/proofs.json` records.
`--log FILE`: the tasks as JSON lines too, for a closer look. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from compiler.lang.pipeline import load
from compiler.paths import ROOT
from compiler.verify import pool as P
from compiler.verify import verifier as V


def cpu_all() -> float:
    """CPU seconds (user + system) of this process and of its finished children."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


#: set by `main` before the workers fork: where they log, and the time the run started
LOG: dict[str, object] = {}
_warm_one = P._warm_one


def logged_one(task):
    """`pool._warm_one`, logged: run in a worker (a module-level function, so that the pool
    can send it by name)."""
    start, c = time.perf_counter() - LOG["t0"], time.process_time()
    out = _warm_one(task)
    row = {"pid": os.getpid(), "start": round(start, 3), "end": round(time.perf_counter() - LOG["t0"], 3),
           "cpu": round(time.process_time() - c, 3), "titles": list(task[0]), "transition": task[1],
           "invariants": None if task[4] is None else len(task[4])}
    with Path(LOG["path"]).open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--times", type=Path, help="a verify-times.json to plan by (none: a cold run's plan)")
    parser.add_argument("--log", type=Path, help="write each task as a JSON line here")
    args = parser.parse_args()
    titles = V.select_titles(load(), args.titles or None)
    stamps: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rulec-warm-tasks-") as tmp:
        tasks_log = Path(tmp) / "tasks.jsonl"
        if args.times:
            shutil.copy(args.times, Path(tmp) / "verify-times.json")
        cache = V.Cache(Path(tmp) / "verify.json")
        t0 = time.perf_counter()
        LOG.update(path=str(tasks_log), t0=t0)
        plan = P.plan

        def logged_plan(*a, **k):
            tasks = plan(*a, **k)
            stamps["planned"] = time.perf_counter() - t0
            return tasks

        P.plan, P._warm_one = logged_plan, logged_one
        c0 = cpu_all()
        P.warm(titles, cache, args.jobs)
        warm_wall, warm_cpu = time.perf_counter() - t0, cpu_all() - c0
        g0, c1 = time.perf_counter(), cpu_all()
        reports = [V.verify_title(title, cache=cache) for title in titles]
        gather_wall, gather_cpu = time.perf_counter() - g0, cpu_all() - c1
        rows = [json.loads(line) for line in tasks_log.read_text(encoding="utf-8").splitlines()] if tasks_log.exists() else []
    if args.log:
        args.log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(titles)} titles, {args.jobs} processes, {os.cpu_count()} cores; {len(rows)} tasks")
    print(f"  planning      {stamps.get('planned', 0):7.1f} s wall")
    print(f"  warm (all)    {warm_wall:7.1f} s wall  {warm_cpu:7.1f} s CPU")
    print(f"  gathering     {gather_wall:7.1f} s wall  {gather_cpu:7.1f} s CPU")
    if not rows:
        rows = [{"pid": 0, "start": 0.0, "end": 0.0, "cpu": 0.0, "titles": [], "transition": "none", "invariants": None}]
    last = max(r["end"] for r in rows)
    first = min(r["start"] for r in rows)
    for pid in sorted({r["pid"] for r in rows}):
        mine = [r for r in rows if r["pid"] == pid]
        busy = sum(r["end"] - r["start"] for r in mine)
        print(f"  process {pid}: {len(mine)} tasks, busy {busy:6.1f} s, cpu {sum(r['cpu'] for r in mine):6.1f} s, "
              f"ends {max(r['end'] for r in mine):6.1f} s ({last - max(r['end'] for r in mine):5.1f} s idle at the end)")
    print(f"  tasks from {first:.1f} s to {last:.1f} s")
    print("  the ten longest tasks (wall, cpu):")
    for r in sorted(rows, key=lambda r: r["start"] - r["end"])[:10]:
        print(f"    {r['end'] - r['start']:6.1f} s {r['cpu']:6.1f} s  {r['transition']} of {', '.join(r['titles'])}"
              + (f" ({r['invariants']} invariants)" if r["invariants"] else "") + f"  [{r['start']:.0f}-{r['end']:.0f}]")
    print("  the last tasks to end:")
    for r in sorted(rows, key=lambda r: -r["end"])[:6]:
        print(f"    {r['start']:6.1f}-{r['end']:6.1f} s  {r['transition']} of {', '.join(r['titles'])}"
              + (f" ({r['invariants']} invariants)" if r["invariants"] else ""))
    record = json.loads((ROOT / "site" / "proofs.json").read_text(encoding="utf-8"))["titles"]
    differ = [(r.title, x.invariant, x.transition, x.status, was)
              for r in reports for x in r.results
              for was in [{(row[0], row[1]): row[2] for row in record.get(r.title, {}).get("results", [])}.get((x.invariant, x.transition))]
              if was != x.status]
    print(f"statuses: {sum(len(r.results) for r in reports)} checks, {len(differ)} differ from site/proofs.json"
          + "".join(f"\n    {t}: {i} after {tn}: {st} (recorded {was})" for t, i, tn, st, was in differ[:20]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
