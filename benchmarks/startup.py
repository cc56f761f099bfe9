"""How long rulec takes to start: `rulec --help`, `rulec titles`, `rulec check FILE`, and the
commands that run an engine: `rulec play` (one game of 1846, four players; no game at all, which is
the time to the first action) and `rulec replay LOG --until 1` (a fixture log, where
../shared/fixtures holds one: its first action).

    python benchmarks/startup.py [--runs N] [--against REF] [--only TEXT]

Runs each command N times (default 5) in a fresh process and prints the median
wall time and the median CPU time (user + system: the wall time on an idle machine;
on a shared one the wall time also counts the waits for a core). Each command starts
with an empty cache (`.rulec-cache/`, here a temporary folder): the first run fills it
and is printed as "cold"; the medians are of the runs after it. Python writes its bytecode caches as it
does on a user's machine (PYTHONDONTWRITEBYTECODE is unset for the runs).
With `--against REF` (a git commit, e.g. `main`), the same commands run on REF's
code too (unpacked with `git archive` into a temporary folder) and the ratio
REF / now is printed. Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (label, arguments); the toy title is one small file, read with the two libraries; EDITED is a
#: copy of it with a comment added before each run, as a designer checks the file he is writing
EDITED = "<edited toy.rules>"
COMMANDS = (
    ("rulec --help", ["--help"]),
    ("rulec titles", ["titles"]),
    ("rulec check toy.rules", ["check", "tests/fixtures/toy/toy.rules"]),
    ("rulec check toy.rules, edited each run", ["check", EDITED]),
    ("rulec check 1846-two-player.rules", ["check", "rulespecs/1846-two-player.rules"]),
    ("rulec check 1846.rules", ["check", "rulespecs/1846.rules"]),
    ("rulec play 1846 --players 4 --games 0", ["play", "1846", "--players", "4", "--games", "0", "--quiet"]),
    ("rulec play 1846 --players 4 --games 1", ["play", "1846", "--players", "4", "--games", "1", "--quiet"]),
)
#: a fixture log replayed to its first action, where the fixtures are there
FIXTURE_LOGS = sorted((ROOT.parent / "shared" / "fixtures" / "1846").glob("*.json"))
if FIXTURE_LOGS:
    COMMANDS += (("rulec replay 1846 LOG --until 1", ["replay", str(FIXTURE_LOGS[0]), "--until", "1"]),)


def timed(code: Path, args: list[str], cache: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `python -m compiler.app.cli ARGS` run from the checkout `code`
    (`compiler.cli` in a checkout from before the rooms, for `--against`)."""
    env = dict(os.environ, PYTHONPATH=str(code), RULEC_CACHE_DIR=str(cache))
    cli = "compiler.app.cli" if (code / "compiler" / "app" / "cli.py").is_file() else "compiler.cli"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", cli, *args], cwd=code, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)


def measure(code: Path, runs: int, only: str | None = None) -> dict[str, tuple[float, float, float]]:
    """{label: (cold wall seconds, median wall seconds, median CPU seconds)} for the checkout at `code`:
    each command's first run with an empty cache, then `runs` more."""
    figures = {}
    with tempfile.TemporaryDirectory(prefix="rulec-startup-") as folder:
        edited = Path(folder) / "toy.rules"
        text = (ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
        cache = Path(folder) / "cache"
        for label, args in COMMANDS:
            if only and only not in label:
                continue
            shutil.rmtree(cache, ignore_errors=True)
            times = []
            for run in range(runs + 1):
                edited.write_text(text + f"// run {run}\n", encoding="utf-8")
                times.append(timed(code, [str(edited) if a == EDITED else a for a in args], cache))
            warm = times[1:]
            figures[label] = (times[0][0], statistics.median(w for w, _ in warm), statistics.median(c for _, c in warm))
    return figures


def unpack(ref: str, into: Path) -> None:
    """The tree of commit `ref` written under `into` (no worktree, no checkout)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (default 5)")
    parser.add_argument("--against", metavar="REF", help="a git commit to compare with (e.g. main)")
    parser.add_argument("--only", metavar="TEXT", help="only the commands whose label holds TEXT (e.g. check)")
    args = parser.parse_args()

    before = None
    if args.against:
        with tempfile.TemporaryDirectory(prefix="rulec-startup-ref-") as folder:
            unpack(args.against, Path(folder))
            before = measure(Path(folder), args.runs, args.only)
    now = measure(ROOT, args.runs, args.only)

    print(f"seconds; median of {args.runs} runs after a cold one")
    header = f"{'command':<40} {'cold':>6} {'wall':>6} {'CPU':>6}"
    if before:
        header += f"   {'before: wall':>12} {'CPU':>6} {'ratio (CPU)':>12}"
    print(header)
    for label, (cold, wall, cpu) in now.items():
        line = f"{label:<40} {cold:6.2f} {wall:6.2f} {cpu:6.2f}"
        if before:
            _, then_wall, then_cpu = before[label]
            line += f"   {then_wall:12.2f} {then_cpu:6.2f} {then_cpu / cpu:11.1f}x"
        print(line)
    if before:
        print(f"before: {args.against}")

if __name__ == "__main__":
    main()
