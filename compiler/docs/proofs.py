"""The verification results on the reference site, and their record.

`prove(loaded)` gives `{display name: TitleReport}` for every title and
variant: `rulec verify`'s results (through its cache), in the form they are
recorded in. The page writers use it for each title's verification page
(`titles/<slug>/verification.md`), the line under each action's card naming
the invariants checked after it and their status, and the verification row of
the reports page.

The results are recorded beside the pages, in `site/proofs.json` (`RECORD`):
per title, what the pages show (statuses, reasons, counterexamples, the
invariants and transitions with their places, the table checks), never times,
so the file is deterministic, and the title's `fingerprint`: the
verifier's version and the text of the title's files. A record whose
fingerprint is the title's current one is fresh: it is what `rulec verify`
would give now, and `prove` takes it instead of running the verifier again
(the tests render the pages from it, and check that it is fresh).
"""

from __future__ import annotations

import functools
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from compiler.lang.ir import Clause, Title
from compiler.lang.pipeline import Loaded

#: The record's file name, under the site's root (beside `mkdocs.yml`).
RECORD = "proofs.json"
#: The record's layout; a record of another layout is stale.
RECORD_FORMAT = 1

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


def prove(loaded: Loaded, recorded: "Recorded | None" = None, reports: dict | None = None,
          progress: Callable[[str], None] | None = None, jobs: int | None = None,
          item: Callable[[str], None] | None = None) -> dict:
    """`{title display name: verify.TitleReport}` for every title and variant of `loaded` (which
    must have no errors), each in its recorded form (`from_record(to_record(...))`, so pages made
    from a fresh record are the pages made from a run). A title's report is taken from `reports`
    (a run's, e.g. `rulec build`'s verify stage) when there, else from `recorded` when its
    record is fresh, else `rulec verify`'s through its cache. `progress` is told each title
    as it is taken (`Stage.next`). The titles left to `rulec verify` are checked on `jobs`
    processes (every core when None: `pool.warm`), `item` told each check as it is done."""
    from compiler.verify import pool
    from compiler.verify import verifier as verify

    cache = None
    out = {}
    selected = verify.select_titles(loaded, None)
    left = [t for t in selected if not (reports is not None and t.display_name in reports)
            and not (recorded is not None and t.display_name in recorded.reports
                     and t.display_name not in recorded.stale)]
    if left:
        cache = verify.Cache.default()
        seed_cache(cache, recorded, [t.display_name for t in left])
        pool.warm(left, cache, jobs, progress=item)
    for title in selected:
        name = title.display_name
        if progress is not None:
            progress(name)
        if reports is not None and name in reports:
            report = reports[name]
        elif recorded is not None and name in recorded.reports and name not in recorded.stale:
            out[name] = recorded.reports[name]
            continue
        else:
            cache = cache or verify.Cache.default()
            report = verify.verify_title(title, cache=cache)
        out[name] = from_record(to_record(report), title)
    return out


# ---------------------------------------------------------------- the record


@dataclass(frozen=True)
class RecordedInvariant:
    """An invariant as recorded: what the pages and `verify.render_report` show of it."""

    name: str
    kind: str
    summary: str
    where: str
    cite: str


@dataclass(frozen=True)
class RecordedTransition:
    """A transition as recorded; `clause` is the title's clause of that kind and name (None for a
    runtime step)."""

    name: str
    kind: str
    clause: Clause | None
    where: str
    cite: str
    summary: str


@dataclass
class Recorded:
    """A record read back: `reports` by display name (every title recorded that `loaded` has),
    `stale` the names of titles whose record is missing or not fresh, `extra` the names recorded
    that are no title of `loaded`."""

    reports: dict = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


def fingerprint(title: Title, sources) -> str:
    """One hash of everything a title's verification results depend on: the verifier's version
    (as in every key of the verify cache) and the text of each file the title's clauses, sections
    and removals come from (their places included: the results name them). `sources`: the
    `SourceMap` the title was loaded from."""
    from compiler.verify.model import stable_hash

    files = {title.path} | {c.span.path for c in title.clauses} | {x.span.path for x in title.sections}
    files |= {r.span.path for r in title.removals}
    texts = [(path, sources.text(path)) for path in sorted(files)]
    known = _fingerprints.get((id(title), id(sources)))
    if known is not None and known[0] is title and known[1] is sources \
            and len(known[2]) == len(texts) and all(a is b for (_, a), (_, b) in zip(known[2], texts)):
        return known[3]
    found = stable_hash(_verifier_version(), title.display_name, texts)
    _fingerprints[(id(title), id(sources))] = (title, sources, texts, found)
    return found


#: `fingerprint`'s answers in this process, by the title and source map given (both kept, so that
#: their ids are not taken again) with the very texts hashed: `rulec build` asks for each title's
#: twice, and hashing the library's text took a fifth of a build with nothing changed
_fingerprints: dict[tuple[int, int], tuple[Title, Any, list, str]] = {}


@functools.lru_cache(maxsize=1)
def _verifier_version() -> str:
    from compiler.verify import verifier as verify

    return verify._verifier_version()


def to_record(report) -> dict[str, Any]:
    """A `verify.TitleReport` as recorded (without times)."""
    results = []
    for r in report.results:
        extra = {k: v for k, v in (("binding", r.binding), ("reason", r.reason), ("detail", r.detail)) if v}
        results.append([r.invariant, r.transition, r.status] + ([extra] if extra else []))
    record: dict[str, Any] = {}
    if any(r.key for r in report.results):
        # each result's cache key, in the results' order, and the translations' entries: what
        # `seed_cache` files them under on a fresh clone (the pages show neither)
        record["keys"] = [r.key for r in report.results]
        record["translations"] = dict(sorted(getattr(report, "translations", {}).items()))
    return {
        "scope": report.scope,
        "notes": list(report.notes),
        "error": report.error,
        "invariants": [{"name": i.name, "kind": i.kind, "summary": i.summary, "where": i.where, "cite": i.cite}
                       for i in report.invariants],
        "transitions": [{"name": t.name, "kind": t.kind, "clause": list(t.clause.key) if t.clause else None,
                         "where": t.where, "cite": t.cite, "summary": t.summary} for t in report.transitions],
        "results": results,
        "tables": [t.to_json() for t in report.tables],
        "unused_sanctions": list(report.unused_sanctions),
        **record,
    }


def from_record(data: dict[str, Any], title: Title):
    """The `verify.TitleReport` of a record (`to_record`) of `title`: times are zero, every result
    counts as cached."""
    from compiler.verify.verifier import CheckResult, TitleReport
    from compiler.verify.tables import TableCheck

    transitions = []
    for t in data["transitions"]:
        clause = title.get(*t["clause"]) if t["clause"] else None
        transitions.append(RecordedTransition(t["name"], t["kind"], clause, t["where"], t["cite"], t["summary"]))
    results = []
    keys = data.get("keys") or []
    if len(keys) != len(data["results"]):
        keys = [None] * len(data["results"])
    for row, key in zip(data["results"], keys):
        extra = row[3] if len(row) > 3 else {}
        results.append(CheckResult(row[0], row[1], row[2], 0.0, True, extra.get("binding"), extra.get("detail"),
                                   extra.get("reason"), key))
    return TitleReport(
        title.display_name, data["scope"], list(data["notes"]),
        [RecordedInvariant(**i) for i in data["invariants"]], transitions, results,
        [TableCheck(t["name"], t["status"], t["summary"], list(t["details"]), list(t["notes"])) for t in data["tables"]],
        0.0, data["error"], list(data["unused_sanctions"]), dict(data.get("translations") or {}))


def seed_cache(cache, record: "Recorded | None", names: "list[str] | None" = None) -> int:
    """File the recorded results of the titles `names` (all recorded when None) in the verify
    cache by their keys, and their translations (`verify.seed_cache`): a title the record holds but
    no longer fresh (an erratum touched it) then solves, through the cache, only the checks whose
    key changed, on a fresh clone as on a checkout a full run filled. The keys are hashes of each
    check's inputs, the verifier's version among them: a key the current title gives is a check
    whose result the record holds. Returns how many results were added."""
    from compiler.verify import verifier as verify

    if record is None or cache is None:
        return 0
    added = 0
    for name, report in record.reports.items():
        if names is None or name in names:
            added += verify.seed_cache(cache, report.results, report.translations)
    return added


def record_text(loaded: Loaded, reports: dict) -> str:
    """The record of `reports` (`{display name: TitleReport}`, titles of `loaded`), with each
    title's fingerprint: deterministic JSON text, one line per result."""
    titles = {t.display_name: t for t in loaded.every_title()}
    entries = {}
    for name in sorted(reports):
        entries[name] = {"fingerprint": fingerprint(titles[name], loaded.sources), **to_record(reports[name])}
    return _dump({"format": RECORD_FORMAT, "titles": entries}, 0) + "\n"


def recorded(loaded: Loaded, root: Path) -> Recorded:
    """The record under `root` (`root/proofs.json`) read back for the titles of `loaded`."""
    path = root / RECORD
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    entries = data.get("titles", {}) if data.get("format") == RECORD_FORMAT else {}
    out = Recorded()
    titles = {t.display_name: t for t in loaded.every_title()}
    for name, title in titles.items():
        entry = entries.get(name)
        if entry is None:
            out.stale.append(name)
            continue
        out.reports[name] = from_record(entry, title)
        if entry.get("fingerprint") != fingerprint(title, loaded.sources):
            out.stale.append(name)
    out.extra = sorted(set(entries) - set(titles))
    return out


def _dump(value: Any, depth: int) -> str:
    """JSON with a dict's entries one a line, and a list of lists or dicts one item a line."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict) and value and any(isinstance(v, (dict, list)) for v in value.values()):
        items = [f"{inner}{json.dumps(k)}: {_dump(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
        items = [inner + json.dumps(v, ensure_ascii=False) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


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
