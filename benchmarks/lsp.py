"""How long `rulec lsp` takes to show the diagnostics of an edit of rulespecs/18co.rules (2.8k lines).

    python benchmarks/lsp.py [--runs N]

Starts the server as an editor does (a subprocess over stdio, tests/lsp_client.py), opens 18co.rules,
warms up with a few edits, then times N edits of each kind, from the change sent to the diagnostics
of that version received (the 18CO title and its 18xx.games reading parsed, resolved and checked):

- a value typed inside a clause (`pool_cap: 50%` to `55%` and back): the clause is parsed alone;
- a comment typed between two clauses: the text between them is parsed alone;
- a new line inside an action (line 490 of 2.8k): the clause is parsed alone, the syntax of every
  line after it is moved a line down, and the components there are checked again (the check
  remembers a component's findings by the component itself, and a moved one is another).

The target is under 300 ms for an edit after warm-up. Figures only; nothing here passes or fails.
The machine's load is printed with them (a shared machine's wall times count waits for a core).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lsprotocol import types as lsp  # noqa: E402

from lsp_client import Client  # noqa: E402

PATH = ROOT / "rulespecs" / "18co.rules"
TARGET_MS = 300


def _position(text: str, needle: str, nth: int = 0) -> lsp.Position:
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    return lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))


def _apply(text: str, at: lsp.Range, new: str) -> str:
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[:at.start.line]) + at.start.character
    end = sum(len(line) + 1 for line in lines[:at.end.line]) + at.end.character
    return text[:start] + new + text[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="timed edits of each kind (default 20)")
    args = parser.parse_args()

    text = PATH.read_text(encoding="utf-8")
    uri = PATH.as_uri()
    client = Client()
    began = time.perf_counter()
    client.initialize()
    client.open(uri, text)
    first = client.diagnostics(uri, 1, timeout=120)
    print(f"rulec lsp on {PATH.relative_to(ROOT)} ({text.count(chr(10))} lines); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  start, open and first diagnostics: {1000 * (time.perf_counter() - began):.0f} ms "
          f"({len(first)} diagnostics)")

    value = _position(text, "pool_cap: 50%")
    value = lsp.Range(lsp.Position(value.line, value.character + 11), lsp.Position(value.line, value.character + 12))
    comment = _position(text, "  // ------------------------------------------------------------ the library's parameters")
    comment = lsp.Range(lsp.Position(comment.line, 5), lsp.Position(comment.line, 5))
    action = _position(text, "  action ")
    newline = lsp.Range(lsp.Position(action.line + 1, 0), lsp.Position(action.line + 1, 0))
    kinds = {
        "a value typed inside a clause": [(value, "5"), (value, "0")],
        "a comment typed between clauses": [(comment, "-"), (lsp.Range(comment.start, lsp.Position(
            comment.start.line, comment.start.character + 1)), "")],
        "a new line inside an action": [(newline, "\n"), (lsp.Range(newline.start, lsp.Position(
            newline.start.line + 1, 0)), "")],
    }
    version = 1
    for kind, edits in kinds.items():
        times = []
        for run in range(args.runs + 3):  # the first 3 warm up
            at, new = edits[run % 2]
            version += 1
            started = time.perf_counter()
            client.change(uri, version, new, at)
            found = client.diagnostics(uri, version, timeout=60)
            elapsed = 1000 * (time.perf_counter() - started)
            text = _apply(text, at, new)
            if run >= 3:
                times.append(elapsed)
        times.sort()
        errors = sum(1 for d in found if d.severity == lsp.DiagnosticSeverity.Error)
        print(f"  {kind:<44} median {statistics.median(times):4.0f} ms, p90 "
              f"{times[int(0.9 * (len(times) - 1))]:4.0f} ms, max {times[-1]:4.0f} ms over {len(times)} edits"
              f" ({errors} errors){'' if statistics.median(times) < TARGET_MS else '  (over the target)'}")
    print(f"  target: diagnostics of an edit in under {TARGET_MS} ms after warm-up")
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
