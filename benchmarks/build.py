"""How long the main job takes: `rulec build` on a fresh clone, cold and warm.

    python benchmarks/build.py [--reprove] [--jobs N]

Clones this checkout's HEAD into a temporary folder and runs, with an empty verify cache of
its own (`RULEC_CACHE_DIR`):

1. cold: `rulec build` on the fresh clone (titles whose committed record, site/proofs.json,
   is fresh are taken from it; with `--reprove` every title is proved from nothing, and the
   ten slowest checks are printed from `rulec verify --json`);
2. warm: `rulec build` again with nothing changed;
3. erratum: one clause of 1846 changed (the 2-train's price), `rulec build` again: the titles
   built on 1846 are verified again, through the cache only their checks whose transition, or what it reads, changed.

Prints the wall time of each, its CPU time (user + system, the verifier's worker processes
too: on a machine others use, the CPU time is the figure to compare) and the ratio to the cold
run. Figures only; nothing here passes or fails. The clone is the committed HEAD: commit
before measuring a change.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


#: the CPU time (user + system, seconds) of every run so far, the worker processes' too
CPU: list[float] = []


def run(clone: Path, env: dict, *args: str) -> tuple[float, subprocess.CompletedProcess]:
    """Wall seconds and the finished process; its CPU time (with its workers') goes on `CPU`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "compiler.app.cli", *args], cwd=clone, env=env,
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return time.monotonic() - started, done


def summary(done: subprocess.CompletedProcess) -> str:
    lines = [line.strip() for line in done.stdout.splitlines() if line.startswith("  ")]
    return "\n      ".join(lines[:4])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reprove", action="store_true", help="prove every title in the cold run")
    parser.add_argument("--jobs", type=int, help="processes for the verifier (default: every core)")
    parser.add_argument("--save-json", metavar="PATH", help="with --reprove: write the last `rulec verify --json` "
                        "(after the erratum) to PATH, to compare statuses with the record")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory(prefix="rulec-build-bench-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = dict(os.environ, RULEC_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(clone))
        print(f"rulec build on a fresh clone of {ROOT} (HEAD), {os.cpu_count()} cores")
        cold, done = run(clone, env, "build", *jobs, *(["--reprove"] if args.reprove else []))
        print(f"  cold     {cold:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}\n      {summary(done)}")
        warm, done = run(clone, env, "build", *jobs)
        print(f"  warm     {warm:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}  ({warm / cold:.2f} of cold)\n      {summary(done)}")
        spec = clone / "rulespecs" / "1846.rules"
        text = spec.read_text(encoding="utf-8")
        at = text.index('train "2"')
        spec.write_text(text[:at] + text[at:].replace("price: $80", "price: $90", 1), encoding="utf-8")
        changed = spec.read_text(encoding="utf-8") != text
        erratum, done = run(clone, env, "build", *jobs)
        print(f"  erratum  {erratum:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}  ({erratum / cold:.2f} of cold; "
              f"{'the 2-train at $90' if changed else 'no 2-train price found: nothing changed'})"
              f"\n      {summary(done)}")
        if args.reprove:
            _, done = run(clone, env, "verify", "--json", *jobs)
            if args.save_json:
                Path(args.save_json).write_text(done.stdout, encoding="utf-8")
            try:
                rows = [(r["seconds"], t["title"], r["invariant"], r["transition"], r["status"])
                        for t in json.loads(done.stdout)["titles"] for r in t["results"]]
            except (ValueError, KeyError, TypeError):
                rows = []
            print("  the ten slowest checks (the cold run's times, from the cache):")
            for seconds, title, invariant, transition, status in sorted(rows, reverse=True)[:10]:
                print(f"    {seconds:7.1f} s  {title}: {invariant} after {transition} ({status})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
