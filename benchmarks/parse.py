"""Time to parse and resolve every file in rulespecs/.

    python benchmarks/parse.py [--repeat N]

Prints, per file, the best parse time over N runs, then the time to resolve
and check all of them together. Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import time

from compiler.check import check_title
from compiler.parse import parse_text, parser
from compiler.pipeline import Loaded, rulespec_files
from compiler.paths import display
from compiler.resolve import resolve
from compiler.diagnostics import SourceMap


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    args_parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args_parser.add_argument("--repeat", type=int, default=5)
    args = args_parser.parse_args()

    start = time.perf_counter()
    parser()
    print(f"grammar build (LALR, strict)      {1000 * (time.perf_counter() - start):8.1f} ms")

    modules = []
    total_parse = 0.0
    for path in rulespec_files():
        text = path.read_text(encoding="utf-8")
        shown = display(path)
        elapsed = best(lambda: parse_text(text, shown), args.repeat)
        module, _ = parse_text(text, shown)
        modules.append(module)
        total_parse += elapsed
        print(f"parse {shown:<40} {1000 * elapsed:8.1f} ms  {len(text.splitlines()):5d} lines")
    print(f"parse, all files                  {1000 * total_parse:8.1f} ms")

    elapsed = best(lambda: resolve(modules), args.repeat)
    program, _ = resolve(modules)
    print(f"resolve, all files                {1000 * elapsed:8.1f} ms  "
          f"{len(program.titles)} titles, {len(program.variants)} variants")

    titles = Loaded(program, modules, [], SourceMap()).every_title()
    elapsed = best(lambda: [check_title(t) for t in titles], args.repeat)
    print(f"check, every title and variant    {1000 * elapsed:8.1f} ms")


if __name__ == "__main__":
    main()
