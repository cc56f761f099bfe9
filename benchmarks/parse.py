"""Time to parse and resolve every file in rulespecs/.

    python benchmarks/parse.py [--repeat N]

Prints the grammar's build (and its load from Lark's cache), per file the best
parse time over N runs (Lark and the tree builder, no cache), the time to read every
file's module back from the parse cache, then the time to resolve and check all of
them together. Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import lark

from compiler.lang import parse, parse_tree
from compiler.lang.check import check_title
from compiler.lang.pipeline import Loaded, rulespec_files
from compiler.paths import display
from compiler.lang.resolve import resolve
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

    grammar = parse_tree.GRAMMAR.read_text(encoding="utf-8")
    elapsed = best(lambda: lark.Lark(grammar, parser="lalr", strict=True, propagate_positions=True,
                                     maybe_placeholders=False), 1)
    print(f"grammar build (LALR, strict)      {1000 * elapsed:8.1f} ms")
    os.environ["RULEC_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulec-parse-bench-")
    parse_tree.parser()  # stores Lark's tables
    parse_tree.parser.cache_clear()
    elapsed = best(lambda: (parse_tree.parser.cache_clear(), parse_tree.parser()), args.repeat)
    print(f"grammar load from Lark's cache    {1000 * elapsed:8.1f} ms")

    modules = []
    texts = {}
    total_parse = 0.0
    for path in rulespec_files():
        text = path.read_text(encoding="utf-8")
        shown = display(path)
        texts[shown] = text
        elapsed = best(lambda: parse_tree.parse_now(text, shown), args.repeat)
        module, _ = parse_tree.parse_now(text, shown)
        modules.append(module)
        total_parse += elapsed
        print(f"parse {shown:<40} {1000 * elapsed:8.1f} ms  {len(text.splitlines()):5d} lines")
    print(f"parse, all files                  {1000 * total_parse:8.1f} ms")

    def from_cache():
        parse._parsed.cache_clear()
        return [parse.parse_text(text, shown) for shown, text in texts.items()]

    from_cache()  # stores every module
    elapsed = best(from_cache, args.repeat)
    print(f"parse cache, all files            {1000 * elapsed:8.1f} ms  (read back, the collector off)")

    elapsed = best(lambda: resolve(modules), args.repeat)
    program, _ = resolve(modules)
    print(f"resolve, all files                {1000 * elapsed:8.1f} ms  "
          f"{len(program.titles)} titles, {len(program.variants)} variants")

    titles = Loaded(program, modules, [], SourceMap()).every_title()
    elapsed = best(lambda: [check_title(t) for t in titles], args.repeat)
    print(f"check, every title and variant    {1000 * elapsed:8.1f} ms")


if __name__ == "__main__":
    main()
