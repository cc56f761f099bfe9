"""The verification results on the reference site.

`prove(loaded)` runs `rulec verify` (through its cache) on every title and
variant and gives `{display name: TitleReport}`. The page writers use it for
each title's verification page (`titles/<slug>/verification.md`), the line
under each action's card naming the invariants checked after it and their
status, and the verification row of the reports page.

Only what does not change from run to run is shown: statuses, reasons and
counts, never times, so the committed pages stay deterministic.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from compiler.pipeline import Loaded

#: How each status reads on a page.
STATUS_TEXT = {
    "proved": "proved",
    "sanctioned": "sanctioned",
    "gap": "not checkable (a gap)",
    "unsupported": "not checkable (unsupported)",
    "counterexample": "counterexample",
    "unknown": "unknown",
}
STATUS_ORDER = ("counterexample", "unknown", "proved", "sanctioned", "gap", "unsupported")


def prove(loaded: Loaded) -> dict:
    """`{title display name: verify.TitleReport}` for every title and variant
    of `loaded` (which must have no errors). Uses the verify cache, so a
    second call after no change costs little."""
    from compiler import verify

    cache = verify.Cache.default()
    out = {}
    for title in verify.select_titles(loaded, None):
        out[title.display_name] = verify.verify_title(title, cache=cache)
    return out


def counts(report) -> dict[str, int]:
    """Checks per status, in `STATUS_ORDER`, zero counts left out."""
    c = Counter(r.status for r in report.results)
    return {k: c[k] for k in STATUS_ORDER if c[k]}


def by_transition(report) -> dict[str, list]:
    """`{transition name: [CheckResult, ...]}` in the invariants' order."""
    order = {inv.name: i for i, inv in enumerate(report.invariants)}
    out: dict[str, list] = defaultdict(list)
    for r in report.results:
        out[r.transition].append(r)
    for results in out.values():
        results.sort(key=lambda r: order.get(r.invariant, len(order)))
    return dict(out)


def by_invariant(report) -> dict[str, list]:
    """`{invariant name: [CheckResult, ...]}`."""
    out: dict[str, list] = defaultdict(list)
    for r in report.results:
        out[r.invariant].append(r)
    return dict(out)


def short_reason(reason: str | None) -> str:
    """A not-checkable reason without its 'not checkable: ' lead-in."""
    text = (reason or "").strip()
    for lead in ("not checkable: ",):
        if text.startswith(lead):
            text = text[len(lead):]
    return text


def status_summary(results) -> str:
    """'12 proved, 2 sanctioned' for a list of CheckResults."""
    c = Counter(r.status for r in results)
    return ", ".join(f"{c[k]} {STATUS_TEXT[k]}" for k in STATUS_ORDER if c[k])
