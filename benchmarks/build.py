"""How long the main job takes: `rulec build` on a fresh clone, cold, warm and after an erratum.

    python benchmarks/build.py [--reprove] [--jobs N] [--titles TITLE...] [--save-json PATH]

Clones this checkout's HEAD into a temporary folder and runs, with an empty verify cache of
its own (`RULEC_CACHE_DIR`):

1. cold: `rulec build` on the fresh clone (titles whose committed record, site/proofs.json,
   is fresh are taken from it; with `--reprove` every title is proved from nothing);
2. warm: `rulec build` again with nothing changed;
3. erratum: one clause changed, the price of the 2-train (by 10) of 1846, or of the first
   title `--titles` names: `rulec build` again, the titles built on it verified again,
   through the cache only their checks whose transition, or what it reads, changed;
4. the ten slowest checks, from `rulec verify --json` (the times the cache holds: the wall
   seconds each check took when it was proved, on a busy machine more than its CPU time): with
   `--reprove` every title's, the cold run's; else the erratum's title's (with its variants),
   whose checks the erratum proved again (those taken from the record, which keeps no times,
   read 0).

The issue's must-show (issue 33: cold under 3 minutes on 2 cores, warm under 10 s, erratum
under 30 s) is `python benchmarks/build.py --reprove --jobs 2`: the warm run takes every title
from the record the cold run wrote, the erratum proves again, through the cache, only the
checks of the titles it touches whose transition, or what it reads, changed.

Prints the wall time of each, its CPU time (user + system, the verifier's worker processes
too: on a machine others use, the CPU time is the figure to compare) and the ratio to the cold
run, each line as soon as its run ends. `--titles 1800 18co` (a slug of `rulec titles`, or a
title's name): the clone keeps only those titles' rulespecs (and those they extend, with the
library), a quick check of the whole job on part of it. Figures only; nothing here passes or
fails. The clone is the committed HEAD: commit before measuring a change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the CPU time (user + system, seconds) of every run so far, the worker processes' too
CPU: list[float] = []

_TITLE = re.compile(r'^title\s+"([^"]+)"(?:\s+extends\s+"([^"]+)")?', re.M)
_VARIANT = re.compile(r'^(?:variant|errata)\s+"[^"]+"\s+of\s+"([^"]+)"', re.M)


def say(text: str) -> None:
    print(text, flush=True)


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
    if done.returncode != 0 and not lines:
        lines = done.stderr.strip().splitlines()[-4:]
    return "\n      ".join(lines[:4])


def slug(name: str) -> str:
    """A title's name as `rulec titles` spells its slug ("1880 Romania" -> "1880-romania")."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def rulespec_titles(folder: Path) -> dict[Path, tuple[str, str | None]]:
    """Each rulespec of `folder` (not the library) with the title it declares or varies, and the
    title that one extends (None)."""
    out: dict[Path, tuple[str, str | None]] = {}
    for path in sorted(folder.glob("*.rules")):
        text = path.read_text(encoding="utf-8")
        title = _TITLE.search(text)
        if title:
            out[path] = (title.group(1), title.group(2))
        else:
            variant = _VARIANT.search(text)
            if variant:
                out[path] = (variant.group(1), None)
    return out


def keep_titles(clone: Path, wanted: list[str]) -> list[str]:
    """Remove from the clone's rulespecs/ every title `wanted` (names or slugs) does not name nor
    build on; the titles kept, in order. Exits when a name matches no title."""
    files = rulespec_titles(clone / "rulespecs")
    extends = {t: base for t, base in files.values() if base is not None}
    names = sorted({t for t, _ in files.values()})
    chosen: list[str] = []
    for w in wanted:
        match = [n for n in names if slug(n) == slug(w)]
        if not match:
            sys.exit(f"build.py: no title {w!r} (one of: {', '.join(slug(n) for n in names)})")
        chosen.append(match[0])
    keep = set(chosen)
    for name in chosen:
        while name in extends:
            name = extends[name]
            keep.add(name)
    for path, (title, _) in files.items():
        if title not in keep:
            path.unlink()
    return chosen


def erratum(clone: Path, title: str) -> str:
    """Raise the 2-train's price of `title` by 10 in its rulespec (in that of the title it extends,
    where its own gives none): what changed, said."""
    files = rulespec_titles(clone / "rulespecs")
    while title is not None:
        base = None
        for path, (name, extends) in files.items():
            text = path.read_text(encoding="utf-8")
            if name != title or not _TITLE.search(text):
                continue
            base = extends
            at = text.find('train "2"')
            price = re.compile(r"price: (\D{0,3}?)(\d+)").search(text, at) if at >= 0 else None
            if price is not None:
                new = f"{price.group(1)}{int(price.group(2)) + 10}"
                path.write_text(text[:price.start()] + f"price: {new}" + text[price.end():], encoding="utf-8")
                return f"{title}'s 2-train at {new} ({path.name})"
        title = base
    return "no 2-train price found: nothing changed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reprove", action="store_true", help="prove every title in the cold run")
    parser.add_argument("--jobs", type=int, help="processes for the verifier (default: every core)")
    parser.add_argument("--titles", nargs="+", metavar="TITLE",
                        help="only these titles (slugs or names) and what they build on: a quick check")
    parser.add_argument("--save-json", metavar="PATH", help="write the last `rulec verify --json` (after the "
                        "erratum) to PATH, to compare statuses with the record (with --reprove)")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory(prefix="rulec-build-bench-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        target = "1846"
        scope = "every title"
        if args.titles:
            chosen = keep_titles(clone, args.titles)
            target, scope = chosen[0], ", ".join(chosen) + " (and what they build on)"
        env = dict(os.environ, RULEC_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(clone))
        say(f"rulec build on a fresh clone of {ROOT} (HEAD), {os.cpu_count()} cores, {scope}"
            f"{', --reprove' if args.reprove else ''}")
        cold, done = run(clone, env, "build", "-q", *jobs, *(["--reprove"] if args.reprove else []))
        say(f"  cold     {cold:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}\n      {summary(done)}")
        warm, done = run(clone, env, "build", "-q", *jobs)
        say(f"  warm     {warm:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}  ({warm / cold:.2f} of cold)"
            f"\n      {summary(done)}")
        changed = erratum(clone, target)
        took, done = run(clone, env, "build", "-q", *jobs)
        say(f"  erratum  {took:7.1f} s  (CPU {CPU[-1]:.1f} s)  exit {done.returncode}  ({took / cold:.2f} of cold; "
            f"{changed})\n      {summary(done)}")
        # (without --reprove only the erratum's title and its variants are in the cache: the others,
        # taken from the record, would be proved from nothing)
        _, done = run(clone, env, "verify", *([] if args.reprove else [slug(target)]), "--json", "-q", *jobs)
        if args.save_json:
            Path(args.save_json).write_text(done.stdout, encoding="utf-8")
        try:
            rows = [(r["seconds"], t["title"], r["invariant"], r["transition"], r["status"])
                    for t in json.loads(done.stdout)["titles"] for r in t["results"]]
        except (ValueError, KeyError, TypeError):
            rows = []
        which = "the cold run's" if args.reprove else f"{target}'s after the erratum"
        say(f"  the ten slowest checks ({which} wall seconds, from the cache; `verify --json` took "
            f"{CPU[-1]:.1f} s CPU):")
        for seconds, title, invariant, transition, status in sorted(rows, reverse=True)[:10]:
            say(f"    {seconds:7.1f} s  {title}: {invariant} after {transition} ({status})")
        if not rows:
            say(f"    (none read: `rulec verify --json` exited {done.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
