"""Time what the readings' pages add to `rulec docs`: measuring the saved games, cold and warm.

    python benchmarks/docs_readings.py [--jobs N]

Cold: no record and an empty cache (a folder of its own), so every saved game of every
implementation's reading under ../shared/fixtures is replayed under both readings and then under
the rules' reading alone (`docs_readings.measure`, on `--jobs` processes, default every core).
Warm: the same again with the record just written, as a second `rulec docs` finds it (nothing
replayed, nothing emitted: the engines' digests are remembered). Then the pages' render alone
(`docs_readings.add_pages` on the site rendered without them). Wall-clock and CPU seconds of this
process and of the replays' worker processes (which other work on the machine does not skew).
Figures only; nothing passes or fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["RULEC_CACHE_DIR"] = str(Path(folder) / "cache")
        from compiler import paths
        from compiler.docs import readings as docs_readings
        from compiler.docs.model import Site
        from compiler.docs.pages import Writer
        from compiler.docs.proofs import recorded
        from compiler.lang.pipeline import load

        loaded = load()
        root = Path(folder) / "site"
        root.mkdir()
        for name in ("cold", "warm"):
            wall, cpu, workers = time.perf_counter(), time.process_time(), _children()
            measured = docs_readings.measure(loaded, root, jobs=args.jobs)
            wall, cpu, workers = time.perf_counter() - wall, time.process_time() - cpu, _children() - workers
            games = sum(len(entry["games"]) for entry in measured.readings.values())
            print(f"{name}: {games} games ({measured.replayed} replayed, {measured.recorded} from the record, "
                  f"{measured.cached} cached) in {wall:.2f} s wall, {cpu:.2f} s CPU here + {workers:.2f} s "
                  f"in the worker processes")
            (root / docs_readings.RECORD).write_text(docs_readings.record_text(measured.readings), encoding="utf-8")
        writer = Writer(Site(loaded, recorded(loaded, paths.SITE).reports))
        pages, nav = writer.pages(), writer.nav()
        wall, cpu = time.perf_counter(), time.process_time()
        docs_readings.add_pages(writer, pages, nav, measured.readings)
        print(f"pages: {time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU")


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
