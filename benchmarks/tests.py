"""What the test suite costs, test by test: where the README's test command spends its time.

    python benchmarks/tests.py [--workers N ...] [--top K] [PYTEST ARGS ...]

Runs the suite (`python -m pytest`, the README's command) once per `--workers` value (default: the
pytest default, `-n auto`), with a small plugin that records, for every test, the CPU time of the
worker process (user + system, setup and teardown included) and of the child processes it waited
for (Chromium, mkdocs, dask, `rulec` subprocesses), and its wall time. Prints, per run: the wall
time of the whole command, the CPU time of the processes (the workers and everything they started),
the cores kept busy on average (CPU / wall), the K costliest tests, and the CPU by test file and by
xdist group. With several `--workers` values the runs are compared side by side (e.g.
`--workers 2 3` on two cores: does a third worker fill the time the two spend waiting?).
Figures only; nothing here passes or fails. Measure on an idle machine: on a shared one the CPU
figures hold and the wall times do not.
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
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the plugin, loaded in the controller and in every xdist worker (`-p testcost`, found on
#: PYTHONPATH): one JSON file of rows per process, in the folder named by RULEC_TEST_COST
PLUGIN = '''
import json, os, resource, time
import pytest

_rows = []

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    own = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    yield
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    group = next((m.args[0] for m in item.iter_markers("xdist_group") if m.args), None)
    _rows.append({"test": item.nodeid.split("@")[0], "group": group,
                  "cpu": time.process_time() - own,
                  "children": done.ru_utime + done.ru_stime - kids.ru_utime - kids.ru_stime,
                  "wall": time.perf_counter() - wall})

def pytest_sessionfinish(session):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    folder = os.environ["RULEC_TEST_COST"]
    with open(os.path.join(folder, worker + ".json"), "w") as out:
        json.dump({"rows": _rows, "session_cpu": time.process_time()}, out)
'''


def run(workers: str | None, extra: list[str]) -> dict:
    """One run of the suite: its wall time, the CPU of every process and the rows of each test."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "testcost.py").write_text(PLUGIN, encoding="utf-8")
        env = dict(os.environ, RULEC_TEST_COST=folder,
                   PYTHONPATH=os.pathsep.join(p for p in (folder, os.environ.get("PYTHONPATH")) if p))
        command = [sys.executable, "-m", "pytest", "-q", "-p", "testcost", *extra]
        if workers is not None:
            command += ["-n", workers]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = []
        for path in Path(folder).glob("*.json"):
            rows += json.loads(path.read_text(encoding="utf-8"))["rows"]
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]
    return {"workers": workers or "auto", "wall": wall, "status": done.returncode, "summary": summary,
            "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, "rows": rows}


def report(result: dict, top: int) -> None:
    rows = result["rows"]
    tested = sum(r["cpu"] + r["children"] for r in rows)
    print(f"\n== -n {result['workers']}: {result['summary']} (exit {result['status']})")
    print(f"wall {result['wall']:.0f} s; CPU of every process {result['cpu']:.0f} s; "
          f"cores busy {result['cpu'] / result['wall']:.2f}; CPU inside the tests {tested:.0f} s "
          f"(the rest: start-up, collection, xdist); {len(rows)} tests")
    print(f"\n{'CPU s':>7} {'child':>6} {'wall s':>7}  costliest tests")
    for r in sorted(rows, key=lambda r: -(r["cpu"] + r["children"]))[:top]:
        print(f"{r['cpu'] + r['children']:>7.1f} {r['children']:>6.1f} {r['wall']:>7.1f}  {r['test']}")
    by_file: Counter = Counter()
    in_file: Counter = Counter()
    by_group: Counter = Counter()
    for r in rows:
        by_file[r["test"].split("::")[0]] += r["cpu"] + r["children"]
        in_file[r["test"].split("::")[0]] += 1
        if r["group"]:
            by_group[r["group"]] += r["cpu"] + r["children"]
    # the mean a test is what tests/conftest.py's COST_PER_TEST holds (the costliest handed out first)
    print(f"\n{'CPU s':>7} {'a test':>6}  by test file (the top {top})")
    for name, cpu in by_file.most_common(top):
        print(f"{cpu:>7.1f} {cpu / in_file[name]:>6.2f}  {name}")
    if by_group:
        print(f"\n{'CPU s':>7}  by xdist group (run by one worker each)")
        for name, cpu in by_group.most_common():
            print(f"{cpu:>7.1f}  {name}")


def _counts_apart(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """The values that follow `--workers` and look like a count (digits, `auto`, `logical`), and
    the other arguments: `--workers 1 tests/test_x.py` runs tests/test_x.py on one worker, where
    argparse's `nargs="*"` would take the path for another count."""
    rest, counts, i = [], None, 0
    while i < len(argv):
        if argv[i] == "--workers":
            counts, i = [], i + 1
            while i < len(argv) and (argv[i].isdigit() or argv[i] in ("auto", "logical")):
                counts.append(argv[i])
                i += 1
            continue
        rest.append(argv[i])
        i += 1
    return rest, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", nargs="*", metavar="N",
                        help="xdist worker counts to run the suite with, in turn (default: -n auto)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save", type=Path, help="also write every test's row to this JSON file")
    argv, counts = _counts_apart(sys.argv[1:])
    args, extra = parser.parse_known_args(argv)
    args.workers = counts or [None]
    results = [run(w, extra) for w in args.workers]
    for result in results:
        report(result, args.top)
    if args.save:
        args.save.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if len(results) > 1:
        print(f"\n{'workers':>8} {'wall s':>7} {'CPU s':>7} {'busy':>5} {'ratio':>6}")
        base = results[0]["wall"]
        for r in results:
            print(f"{r['workers']:>8} {r['wall']:>7.0f} {r['cpu']:>7.0f} {r['cpu'] / r['wall']:>5.2f} "
                  f"{r['wall'] / base:>6.2f}")


if __name__ == "__main__":
    main()
