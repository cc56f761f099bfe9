"""`rulec verify`'s report of one title as text: the table of transitions by invariants, each
check's status and time, then what is not proved (counterexamples, unknowns, sanctions), what is not
checkable and why, and the table checks."""

from __future__ import annotations

from typing import Any, TextIO

#: each status's letter in the table
STATUS_CODES = {
    "proved": "P",
    "counterexample": "C",
    "unknown": "U",
    "sanctioned": "S",
    "gap": "G",
    "unsupported": "X",
}


def render_report(report: Any, out: TextIO) -> None:
    """The table of transitions x invariants, then the details, of a `verifier.TitleReport` (not
    imported: the verifier imports this module)."""
    print(f"== {report.title}", file=out)
    if report.error:
        print(f"   error: {report.error}", file=out)
        return
    print(f"   scope: {report.scope}", file=out)
    for note in report.notes:
        print(f"   scope: {note}", file=out)
    invs = report.invariants
    print("   invariants:", file=out)
    for i, inv in enumerate(invs, 1):
        kind = "" if inv.kind == "standard" else f" ({inv.kind})"
        cite = f" [{inv.cite}]" if inv.cite else ""
        print(f"   I{i:<2} {inv.name}{kind}{cite}", file=out)
    header = f"   {'transition':<26}" + "".join(f"{'I' + str(i):>7}" for i in range(1, len(invs) + 1))
    print(header, file=out)
    names = ["init"] + [t.name for t in report.transitions]
    checked = {r.transition for r in report.results}
    for name in names:
        if name not in checked:
            continue
        cells = []
        for inv in invs:
            r = report.result(inv.name, name)
            if r is None:
                cells.append(f"{'-':>7}")
                continue
            ms = int(round(r.seconds * 1000))
            cells.append(f"{STATUS_CODES[r.status] + ' ' + _ms(ms):>7}")
        print(f"   {name:<26}" + "".join(cells), file=out)
    print("   P proved, C counterexample, U unknown, S sanctioned, G not checkable (gap), "
          "X not checkable (unsupported); times in ms", file=out)
    by_where = {t.name: t for t in report.transitions}
    for r in report.results:
        if r.status in ("counterexample", "unknown", "sanctioned"):
            inv = next(i for i in invs if i.name == r.invariant)
            tn = by_where.get(r.transition)
            print("", file=out)
            print(f"   {r.status.upper()}: {r.invariant} after {r.transition}", file=out)
            print(f"     invariant {inv.name}: {inv.summary}", file=out)
            print(f"       at {inv.where}" + (f", cites {inv.cite}" if inv.cite else ""), file=out)
            if tn is not None:
                print(f"     {tn.kind} {tn.name}: {tn.summary}", file=out)
                print(f"       at {tn.where}, cites {tn.cite}", file=out)
            if r.reason:
                print(f"     {r.reason}", file=out)
            if r.detail:
                for line in r.detail.splitlines():
                    print(f"     {line}", file=out)
    gaps: dict[str, list[str]] = {}
    for r in report.results:
        if r.status in ("gap", "unsupported") and r.reason:
            gaps.setdefault(r.reason, []).append(f"{r.transition}/{r.invariant}")
    if gaps:
        print("", file=out)
        print("   not checkable:", file=out)
        for reason, pairs in sorted(gaps.items()):
            transitions = sorted({p.split("/")[0] for p in pairs})
            print(f"     {reason}: {len(pairs)} checks ({', '.join(transitions[:6])}"
                  f"{', ...' if len(transitions) > 6 else ''})", file=out)
    print("", file=out)
    print("   table checks:", file=out)
    for t in report.tables:
        print(f"     {t.status:<7} {t.name}: {t.summary}", file=out)
        for d in t.details:
            print(f"               {d}", file=out)
        for n in t.notes:
            print(f"               note: {n}", file=out)
    for text in report.unused_sanctions:
        print(f"   note: {text}", file=out)
    counts = report.counts()
    slow = report.slowest()
    print("", file=out)
    solved = [r for r in report.results if not r.cached]
    # the checks solved in this run (in the verifier's own processes or this one) and their solving time;
    # the rest taken from the cache (the command's wall time is on its last line)
    print("   totals: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v)
          + f"; {len(report.results)} checks, {len(solved)} solved in {sum(r.seconds for r in solved):.1f} s"
          + f", {len(report.results) - len(solved)} from the cache", file=out)
    if slow is not None:
        print(f"   slowest: {slow.invariant} after {slow.transition}, {slow.seconds:.3f}s"
              + (" (cached)" if slow.cached else ""), file=out)


def _ms(ms: int) -> str:
    return str(ms) if ms < 10000 else f"{ms // 1000}s"


def cache_counts(reports) -> dict[str, int]:
    """The checks of `reports` taken from the cache (`hits`) and solved in this run (`misses`), wherever
    they were solved (`warm`'s processes put what they solve in the cache themselves)."""
    results = [r for report in reports for r in report.results]
    hits = sum(1 for r in results if r.cached)
    return {"hits": hits, "misses": len(results) - hits}
