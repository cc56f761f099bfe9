"""Stage 6, verify: a title's invariants proved with z3 for every action.

For each resolved title (and each variant) `verify_title` builds the symbolic
game (`model.Model`: the scope, the state variables), translates every
action schema, trigger and runtime step (`translate`), and proves each
invariant (`invariants`):

- `Init and not Inv` is unsat: the game starts inside the invariant;
- `Inv and Guard and Effect and not Inv'` is unsat, for every transition and
  each of its bindings, where `Inv` is every invariant and lemma together
  (a sanctioned invariant is checked in its relaxed two-state form instead;
  money conservation is checked transfer by transfer, which is equivalent
  since cash changes only by transfers; an invariant none of whose variables
  a binding changes holds after it without asking z3).

A check ends `proved`, `counterexample` (with the invariant and the action,
their source places and citations, and a small pre- and post-state with the
changed values marked), `sanctioned` (a counterexample the title's `sanction`
clause allows), `unknown` (z3 gave up or timed out: never a pass), `gap` (a
value the check needs is a declared gap or an unset library parameter) or
`unsupported` (a construct the verifier does not model). The table data
checks of `tables` run alongside.

Results are cached (see `Cache`) by a hash of each check's inputs: the IR of
the transition and of the routines it calls, the title data it read, the
invariant, every invariant assumed beside it, the scope and the verifier's own
source. After a one-clause erratum only the checks that read that clause run
again. A transition's key is itself kept (`Verifier._current_translation`): with what
its translation read of the title's properties and train cards, under its IR and
everything else of the title, so that a transition whose reads are unchanged is
not translated again only to make its checks' keys. A transition that reads a train's price is
translated first with every price a constant (`prices`): a check proved so holds for every price and
is filed under a key that holds none, so that an erratum to a price proves again only the checks
whose proof needs it.

`run(titles, as_json, out)` is the command's entry point.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import z3

from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.paths import ROOT
from compiler.verify import prices
from compiler.verify.counterexample import consts, counterexample, render_state_only
from compiler.verify.report import STATUS_CODES, render_report
from compiler.verify.invariants import (Invariant, emergency_sale_steps, invariants_for, money_moves_by_transfer,
                                       span_text)
from compiler.verify.model import GapError, Model, Reads, Unsupported, recording, stable_hash
from compiler.verify.left_out import loops_left_out
from compiler.verify.tables import TableCheck, check_tables
from compiler.verify.translate import (
    AND,
    NOT,
    Binding,
    Step,
    Transition,
    Translator,
    initial_state,
    runtime_transitions,
    truth,
    zb,
)

#: Seconds of z3's work one (invariant, transition) check may use, all bindings together.
#: 1880 Romania's founder's choice in the 18xx.games reading (`player_choose`: the president's
#: certificate of 20, 30 or 40%, each a share layout of its own, and the investors' shares taken
#: from it) needs the most: shares_sum_to_100 after it is proved within 200 when checked alone (in
#: 74 s of wall time), not within 80, and in a full run with the other invariants it ran out of 200
#: at the third player's binding; 18CO's buy_shares (three sources, §4.2.2) needs 80. Checks that
#: prove fast are not slowed by a larger budget: only one that would be unknown runs longer. (Since
#: a branching step is checked case by case, `_cases`, player_choose's checks take seconds.)
TIMEOUT_SECONDS = 400.0
# how long a property is first tried whole, before it is split into its conjuncts
QUICK_SECONDS = 1.0
# the work `Invariant.monotone`'s sufficient condition may use per binding, besides the budget; and
# on how many of a transition's bindings it is tried where the whole property is not settled at
# once, before it is given up for that invariant on the others (while it has proved none): where it
# fails it mostly fails on every binding, each try a fresh solver's preprocessing for nothing
MONOTONE_SECONDS = 1.0
MONOTONE_TRIES = 2
# the work `Invariant.monotone`'s condition is first given on z3's SMT core alone (`Verifier._monotone`)
MONOTONE_CORE_SECONDS = 0.4
# the work a conjunct of the split (`Verifier._solve`) is first given on z3's SMT core alone, before
# the fresh Solver with its tactics (1880 Romania (Regatul României)'s take_over, president_holds_most:
# its split 7.6 -> 3.8 s of CPU)
SPLIT_CORE_SECONDS = 2.0
# how long the whole property is tried in each case of a step that branches (`_cases`), before
# the step is split into the property's conjuncts; and the most cases tried so
CASE_SECONDS = 5.0
MAX_CASES = 9
# the work the query for the truth-valued parameters a binding's guard forces false may use
# (`Verifier._forced_false`): a guard's check (1 to 50 thousand units on 18CO's buy_shares)
FORCED_SECONDS = 0.1
# z3's resource count, not the clock, bounds the checks, so that whether a
# check is proved or gives up does not depend on the machine or its load (a
# suite that passes on a fast idle machine must pass on a slow busy one). The
# budgets above are in "seconds of work", this many resource units each: z3
# does 3 to 10 million a second on these checks (4.8 million on average over
# 1800, 1846 and 1880 Romania on a 2-core machine); the most a proved
# (invariant, transition) pair used there was 38 million (before 18CO's
# corporate certificates).
RLIMIT_PER_SECOND = 8_000_000
# how long a binding's pending invariants are first tried together, in one query (`Verifier._solve`),
# and after how many such tries that fail the transition's other bindings check them one by one:
# on 18CO's buy_shares (126 bindings, 11 invariants each) one query takes 0.25 s a binding where
# the guard's check and eleven took 0.45 s; on its sell_shares, where a single invariant needs a
# split, the whole is far slower than the parts, and two tries of a second each are what it loses
TOGETHER_SECONDS = 1.0
TOGETHER_TRIES = 2
# how many bindings each way is measured on before the cheaper is chosen (`_cheaper_together`)
TOGETHER_SAMPLES = 3
# the fewest bindings a transition has for its invariants to be tried together: on a few (sell_shares,
# par, corporation_sell_shares: 2 to 6) a failed try costs more than the rest can win back (a cold
# run with no such floor: sell_shares 148 s -> 218 s, corporation_sell_shares 48 -> 74 s, of checks'
# seconds), on many it pays (buy_shares 167 -> 105 s, buy_train 130 -> 101 s: 42 to 306 bindings)
TOGETHER_MIN_BINDINGS = 24
# the work a check has on a transition's abstract translation, its train prices constants (`prices`),
# before it is checked on the concrete one with the whole budget: what a proof that holds for every price
# takes (1846's pool_cap after corporation_sell_shares, the slowest, ...), not what an unknown would use up
ABSTRACT_SECONDS = 40.0
# a wall-clock guard on a single check, against a hang only
WALL_GUARD_SECONDS = 600
# z3's arithmetic solver for every check (`smt.arith.solver`): 2, the older simplex one, rather than
# 6, the default. These checks are linear sums of holdings and cash under a large propositional guard;
# on them the older solver is up to 4 times as fast (issue 33, CPU seconds: 1846's
# corporation_sell_shares, its 22 checks, 18.4 -> 5.3 s, pool_cap's emergency-issue case 5.1 -> 1.3 s;
# 18CO's sell_shares 55.4 -> 36.7 s; 1846's bankrupt, buy_train and buy_shares 22.7 -> 15.9 s; 18CO's
# buy_shares 40.4 -> 36.5 s; 1880 Romania's buy_train 10.4 -> 9.1 s); a cold run of every title on 2
# processes, its tasks' CPU 771 -> 496 s (benchmarks/warm_tasks.py), all 10661 statuses the record's
ARITH_SOLVER = 2


def _check(solver: z3.Solver, units: int) -> tuple[Any, int]:
    """One check within `units` of z3's resources: (result, units used)."""
    solver.set("smt.arith.solver", ARITH_SOLVER)
    solver.set("rlimit", max(1, int(units)))
    solver.set("timeout", WALL_GUARD_SECONDS * 1000)
    before = _resource_count()
    r = solver.check()
    return r, _resource_count() - before


#: the solver `_resource_count` reads z3's count from, by process (made once: a new solver for
#: each reading cost as much as a tenth of a small title's checks)
_PROBE: dict[int, z3.Solver] = {}


def _resource_count() -> int:
    """z3's running resource count (all solvers of the process)."""
    probe = _PROBE.get(os.getpid())
    if probe is None:
        probe = _PROBE[os.getpid()] = z3.Solver()
    probe.check()
    stats = probe.statistics()
    for key in stats.keys():
        if key == "rlimit count":
            return int(stats.get_key_value(key))
    return 0


def _reason(solver: z3.Solver) -> str:
    """Why z3 gave up, in words."""
    reason = solver.reason_unknown()
    if "canceled" in reason or "resource" in reason or "rlimit" in reason:
        return "resource limit reached"
    if "timeout" in reason:
        return "timeout"
    return reason


#: How many translations of one transition's IR the cache keeps (`Verifier._current_translation`): a
#: title's erratum and the rule it replaced both, a few more
TRANSLATION_ENTRIES = 4
#: How the keys of those entries begin (the others are checks' results)
TRANSLATION_SLOT = "translation:"

#: Statuses that leave `run` at exit code 0.
PASSING = ("proved", "sanctioned")
#: Statuses that say a rule is wrong or unprovable (not merely unfinished).
FAILING = ("counterexample", "unknown")

_SOURCES = ("verifier.py", "counterexample.py", "model.py", "translate.py", "terms.py", "translator.py",
            "builtins_state.py", "builtins_map.py", "builtins_effects.py", "builtins_abilities.py", "invariants.py",
            "tables.py", "prices.py", "left_out.py")
#: the runtime's modules the model follows: the game (`GameBase`), its parts and shared words, and the market
#: (tests/test_layers.py checks that every module GameBase is made of is here)
_RUNTIME_SOURCES = ("game.py", "vocabulary.py", "stock.py", "operating.py", "auctions.py", "abilities.py", "market.py",
                    "tiles_tokens.py", "listing.py", "candidates.py", "records.py", "dsl_support.py")


def version_sources() -> list[Path]:
    """The files the verifier's version hashes: its own modules, and the runtime's game (with its
    parts) and market, which its model follows (tests/test_layers.py checks that they all exist)."""
    here = Path(__file__).resolve().parent
    return [here / name for name in _SOURCES] + [here.parent / "runtime" / name for name in _RUNTIME_SOURCES]


def _verifier_version() -> str:
    texts = [path.read_text(encoding="utf-8") if path.exists() else path.name for path in version_sources()]
    texts.append(z3.get_version_string())
    return stable_hash(*texts)


# ---------------------------------------------------------------- results


@dataclass
class CheckResult:
    """One (invariant, transition) check. `seconds`: solver and translation
    time (of the original run when `cached`); `detail`: the counterexample or
    the reason; `binding`: the binding that failed; `key`: the key the cache files it under (a
    hash of the check's inputs, `Verifier.check_keys`), which the proof record keeps so that a
    fresh clone's cache can be seeded from it (`docs.proofs.seed_cache`)."""

    invariant: str
    transition: str
    status: str
    seconds: float
    cached: bool = False
    binding: str | None = None
    detail: str | None = None
    reason: str | None = None
    key: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "invariant": self.invariant, "transition": self.transition, "status": self.status,
            "seconds": round(self.seconds, 4), "cached": self.cached, "binding": self.binding,
            "reason": self.reason, "detail": self.detail,
        }


@dataclass
class TitleReport:
    """Everything `verify_title` found for one title or title + variant."""

    title: str
    scope: str
    notes: list[str]
    invariants: list[Invariant]
    transitions: list[Transition]
    results: list[CheckResult] = field(default_factory=list)
    tables: list[TableCheck] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    #: sanctions no check needed (a typo, or a breach the rules no longer allow)
    unused_sanctions: list[str] = field(default_factory=list)
    #: the cache's translation entries of the transitions as translated now, by slot
    #: (`Verifier._translation_slot`): the proof record keeps them beside the checks' keys, so that a
    #: fresh clone's cache can be seeded from it without translating (`seed_cache`)
    translations: dict[str, dict[str, Any]] = field(default_factory=dict)

    def result(self, invariant: str, transition: str) -> CheckResult | None:
        for r in self.results:
            if r.invariant == invariant and r.transition == transition:
                return r
        return None

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in STATUS_CODES}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    @property
    def ok(self) -> bool:
        """Every proof proved or sanctioned, and no table check failed."""
        return (self.error is None and all(r.status in PASSING for r in self.results)
                and all(t.status != "failed" for t in self.tables))

    def slowest(self) -> CheckResult | None:
        return max(self.results, key=lambda r: r.seconds, default=None)

    def to_json(self) -> dict[str, Any]:
        slow = self.slowest()
        return {
            "title": self.title,
            "scope": self.scope,
            "notes": self.notes,
            "ok": self.ok,
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "counts": self.counts(),
            "slowest": slow.to_json() if slow else None,
            "invariants": [
                {"name": i.name, "kind": i.kind, "summary": i.summary, "where": i.where, "cite": i.cite,
                 "sanctions": [f"{x.invariant} for {x.action}" for x in i.sanctions]}
                for i in self.invariants
            ],
            "transitions": [
                {"name": t.name, "kind": t.kind, "where": t.where, "cite": t.cite, "summary": t.summary}
                for t in self.transitions
            ],
            "results": [r.to_json() for r in self.results],
            "tables": [t.to_json() for t in self.tables],
            "unused_sanctions": self.unused_sanctions,
        }


# ---------------------------------------------------------------- cache


class Cache:
    """Check results by key, in a JSON file: `.rulec-cache/verify.json` in the
    checkout (gitignored), else `$XDG_CACHE_HOME/rulec/verify.json`. The
    environment variable `RULEC_CACHE_DIR` chooses another folder;
    `RULEC_NO_CACHE=1` turns the cache off."""

    def __init__(self, path: Path | None):
        self.path = path
        self.data: dict[str, dict[str, Any]] = {}
        #: the seconds each (title, options, transition) took when last checked (`times_key`), which
        #: `warm` orders its tasks by: kept beside the results, in `verify-times.json`
        self.times: dict[str, float] = {}
        self.hits = 0
        self.misses = 0
        if path is not None and path.exists():
            try:
                self.data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.data = {}
        if path is not None and self._times_path().exists():
            try:
                times = json.loads(self._times_path().read_text(encoding="utf-8"))
                self.times = {str(k): float(v) for k, v in times.items()} if isinstance(times, dict) else {}
            except (OSError, ValueError, TypeError):
                self.times = {}

    def _times_path(self) -> Path:
        assert self.path is not None
        return self.path.with_name("verify-times.json")

    @staticmethod
    def times_key(title: str, options: tuple[str, ...], transition: str) -> str:
        return "\t".join((title, ",".join(options), transition))

    @classmethod
    def default(cls) -> "Cache":
        if os.environ.get("RULEC_NO_CACHE"):
            return cls(None)
        folder = os.environ.get("RULEC_CACHE_DIR")
        candidates = [Path(folder)] if folder else [ROOT / ".rulec-cache",
                                                    Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rulec"]
        for candidate in candidates:
            try:
                candidate.mkdir(parents=True, exist_ok=True)
                probe = candidate / ".probe"
                probe.write_text("", encoding="utf-8")
                probe.unlink()
                return cls(candidate / "verify.json")
            except OSError:
                continue
        return cls(None)

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.data.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        self.data[key] = value

    def save(self) -> None:
        if self.path is None:
            return
        for path, value in ((self.path, self.data), (self._times_path(), self.times)):
            tmp = path.with_suffix(".tmp")
            try:
                tmp.write_text(json.dumps(value, sort_keys=True), encoding="utf-8")
                tmp.replace(path)
            except OSError:
                pass


# ---------------------------------------------------------------- transitions of a title


def _clause_cite(title: Title, kind: str, name: str, decl: Any) -> str:
    cite = title.get("cite", f"{kind} {name}")
    provs = []
    if cite is not None:
        provs.append(cite.decl.prov)  # type: ignore[union-attr]
    provs.append(getattr(decl, "prov", s.NO_PROVENANCE))
    for prov in provs:
        rulebook = [str(c) for c in prov.citations if c.is_rulebook]
        if rulebook:
            return ", ".join(rulebook)
        if prov.citations:
            return str(prov.citations[0])
    return "uncited (library)"


def transitions_for(tr: Translator) -> list[Transition]:
    """The title's actions, its triggers, then the runtime's steps."""
    title = tr.title
    out: list[Transition] = []
    for clause in title.of_kind("action"):
        decl: s.Routine = clause.decl  # type: ignore[assignment]

        def bindings(decl: s.Routine = decl) -> list[Binding]:
            return tr.action_bindings(decl)

        def translate(binding: Binding, clause=clause) -> Step:
            return tr.translate_routine(clause, binding)

        out.append(Transition(
            decl.name, "action", clause, span_text(decl.span), _clause_cite(title, "action", decl.name, decl),
            decl.title or decl.name, stable_hash(decl), bindings, translate))
    for clause in title.of_kind("trigger"):
        tdecl: s.Trigger = clause.decl  # type: ignore[assignment]

        def translate_t(binding: Binding, clause=clause) -> Step:
            return tr.translate_trigger(clause, binding)

        def bindings_t(tdecl: s.Trigger = tdecl) -> list[Binding]:
            return tr.trigger_bindings(tdecl)

        out.append(Transition(
            tdecl.name, "trigger", clause, span_text(tdecl.span), _clause_cite(title, "trigger", tdecl.name, tdecl),
            f"on {tdecl.event.name}: {tdecl.title or tdecl.name}", stable_hash(tdecl),
            bindings_t, translate_t))
    out.extend(runtime_transitions(tr))
    return out


# ---------------------------------------------------------------- checking


@dataclass
class _Outcome:
    status: str
    seconds: float = 0.0
    binding: str | None = None
    detail: str | None = None
    reason: str | None = None


@dataclass
class _Translation:
    """A transition's translation (`Verifier._translate`)."""

    steps: list[tuple[Binding, Step | Exception]]
    calls: set[str]
    reads: Reads
    seconds: float
    tkey: str
    prices: list[str]


@dataclass
class _Prepared:
    """What `Verifier.check_keys` found besides the keys: the translations it made (by whether concrete),
    and where the transition reads a train price, each check's abstract key (`prices`)."""

    translations: dict[bool, _Translation] = field(default_factory=dict)
    abstract: dict[str, str] | None = None


class _nothing:
    def __enter__(self) -> set[str]:
        return set()

    def __exit__(self, *exc: Any) -> None:
        return None


class Verifier:
    """Runs every check of one title. See `verify_title`."""

    def __init__(self, title: Title, timeout: float = TIMEOUT_SECONDS, cache: Cache | None = None,
                 progress: Callable[[str], None] | None = None, options: tuple[str, ...] = ()):
        self.title = title
        self.timeout = timeout
        self.budget = max(1, int(timeout * RLIMIT_PER_SECOND))
        self.cache = cache or Cache(None)
        self.progress = progress or (lambda text: None)
        #: results `warm` made on other processes, by transition ("init" too): taken, not checked again
        self.warmed: dict[str, list[CheckResult]] = {}
        #: whether some of the invariants are left out (`verify_title(invariants=...)`)
        self.partial = False
        with recording() as deps:
            self._build(title, options)
        #: what every translation of the title reads besides what it records itself (`check_keys`):
        #: the title but the content of properties and train cards, and those the model read as it
        #: was built (the invariants, the scope, the IPO)
        self.unread_key = stable_hash(self.model.digest_unread(),
                                      sorted((dep, self.model.read_digest(dep)) for dep in deps))

    def _build(self, title: Title, options: tuple[str, ...]) -> None:
        self.model = Model(title, options)
        self.tr = Translator(self.model)
        self.invariants = invariants_for(self.model)
        self.transitions = transitions_for(self.tr)
        self.version = _verifier_version()
        self.pre = self.model.vars.fresh_state("pre")
        self._pre_atoms: dict[str, Any] = {}
        self._inv_keys: dict[str, str] = {}
        self._inv_gap: dict[str, str] = {}
        self._inv_unsupported: dict[str, str] = {}
        #: the declared gaps each invariant reads as any value (`Model.gap_constant`)
        self._inv_any: dict[str, set[str]] = {}
        for inv in self.invariants:
            reads = Reads()
            try:
                holds = inv.holds(self.tr, self.pre)
                _, _ = inv.atoms(self.tr, self.pre, reads)
                self._pre_atoms[inv.name] = holds
            except GapError as exc:
                self._inv_gap[inv.name] = exc.what
            except Unsupported as exc:
                self._inv_unsupported[inv.name] = exc.what
            self._inv_keys[inv.name] = stable_hash(inv.key_text, reads.key(),
                                                   [(x.action, x.prov) for x in inv.sanctions])
            self._inv_any[inv.name] = _any_values(reads)
        self._support: dict[str, set[str]] = {}
        for inv in self.invariants:
            if inv.name in self._pre_atoms:
                names: set[str] = set()
                consts(self._pre_atoms[inv.name], names, set())
                self._support[inv.name] = names
        self.assumed = [inv for inv in self.invariants
                        if inv.name in self._pre_atoms and not inv.sanctions and inv.assumed]
        self.assume_key = stable_hash(sorted(self._inv_keys[i.name] for i in self.assumed), self.model.scope_key())
        base = [zb(self._pre_atoms[i.name]) for i in self.assumed]
        base += [zb(x) for x in self.model.vars.domain(self.pre)]
        base += self.model.param_axioms
        self.assumption = base

    # -- the whole title
    def scope_notes(self) -> list[str]:
        """The scope's notes, then the loops over `corporations` whose iterations for the corporations the
        scope leaves out the model does not follow (`left_out.loops_left_out`: they describe the
        translations and change none, so they are not part of the scope's key)."""
        return list(self.model.note.lines) + loops_left_out(self.title, self.model.truncated,
                                                            self.model.prop_value("takeover_when"))

    def run(self, only: Iterable[str] | None = None) -> TitleReport:
        start = time.perf_counter()
        wanted = set(only) if only is not None else None
        report = TitleReport(self.title.display_name, self.model.scope_text(), self.scope_notes(),
                             self.invariants, self.transitions)
        warmed = self.warmed
        if wanted is None or "init" in wanted:
            report.results.extend(warmed["init"] if "init" in warmed else self.check_init())
        for tn in self.transitions:
            if wanted is not None and tn.name not in wanted:
                continue
            self.progress(f"{self.title.display_name}: {tn.name}")
            report.results.extend(warmed[tn.name] if tn.name in warmed else self.check_transition(tn))
        report.tables = check_tables(self.title)
        report.notes = self.scope_notes()
        for tn in self.transitions:
            for concrete in (False, True):
                entry = self._current_translation(tn, concrete) if wanted is None or tn.name in wanted else None
                if entry is not None:
                    report.translations[self._translation_slot(tn, concrete)] = entry
        if wanted is None and not self.partial:
            used = {r.reason.split(" (")[0] for r in report.results if r.status == "sanctioned" and r.reason}
            for inv in self.invariants:
                for sanction in inv.sanctions:
                    text = f"sanction {sanction.invariant} for {sanction.action}"
                    if not any(u.startswith(text + " ") or u == text for u in used):
                        report.unused_sanctions.append(f"{text} ({span_text(sanction.span)}): no check needed it")
        report.seconds = time.perf_counter() - start
        self.cache.save()
        return report


    # -- Init
    def init_keys(self) -> tuple[dict[str, str], tuple]:
        """Each invariant's cache key for its check in the initial state (what the cache files the
        result under: what the initial state reads, the invariant's own key, the scope), and the
        initial state, for `check_init` to take."""
        reads = Reads()
        self._init_axioms: list[Any] = []
        try:
            init = initial_state(self.tr, reads, self._init_axioms)
            init_error = None
        except (GapError, Unsupported) as exc:
            init, init_error = None, exc
        init_key = reads.key()
        keys = {inv.name: stable_hash("init", self.version, self.model.scope_key(), init_key, self._inv_keys[inv.name])
                for inv in self.invariants}
        return keys, (init, init_error, reads)

    def check_init(self, prepared: tuple | None = None) -> list[CheckResult]:
        """Every invariant in the initial state, through the cache. `prepared`: what `init_keys`
        returned, when it was called first."""
        out = []
        keys, (init, init_error, reads) = prepared or self.init_keys()
        for inv in self.invariants:
            key = keys[inv.name]
            cached = self.cache.get(key)
            if cached is not None:
                out.append(CheckResult(inv.name, "init", cached["status"], cached["seconds"], True,
                                       cached.get("binding"), cached.get("detail"), cached.get("reason"), key))
                continue
            t0 = time.perf_counter()
            if inv.name in self._inv_gap:
                o = _Outcome("gap", reason=f"gap {self._inv_gap[inv.name]}")
            elif inv.name in self._inv_unsupported:
                o = _Outcome("unsupported", reason=self._inv_unsupported[inv.name])
            elif init is None:
                status = "gap" if isinstance(init_error, GapError) else "unsupported"
                what = init_error.what if init_error is not None else "?"
                o = _Outcome(status, reason=f"gap {what}" if status == "gap" else what)
            else:
                o = _for_any_value(self._check_init_one(inv, init), _any_values(reads) | self._inv_any[inv.name])
            o.seconds = time.perf_counter() - t0
            res = CheckResult(inv.name, "init", o.status, o.seconds, False, o.binding, o.detail, o.reason, key)
            if res.status != "unknown":  # a timeout may pass with more time: try it again
                self.cache.put(key, _cache_value(res))
            out.append(res)
        return out

    def _check_init_one(self, inv: Invariant, init: dict[str, Any]) -> _Outcome:
        try:
            holds = inv.holds(self.tr, init)
        except GapError as exc:
            return _Outcome("gap", reason=f"gap {exc.what}")
        except Unsupported as exc:
            return _Outcome("unsupported", reason=exc.what)
        solver = z3.Solver()
        solver.add(*self.model.vars.domain(init))
        solver.add(*self.model.param_axioms)
        solver.add(*[zb(a) for a in self._init_axioms])
        solver.add(z3.Not(zb(holds)))
        r, _ = _check(solver, self.budget)
        if r == z3.unsat:
            return _Outcome("proved")
        if r == z3.unknown:
            return _Outcome("unknown", reason=f"z3: {_reason(solver)}")
        detail = render_state_only(self.model, solver.model(), init, inv)
        return _Outcome("counterexample", binding="init", detail=detail)

    def _translate(self, tn: Transition, concrete: bool = False) -> _Translation:
        """The transition's translation: its steps (one per binding, or the error that stopped it), the
        routines they call, what they read, its key and the cards whose price it read as a constant
        (`prices`; none where `concrete`, or where it read no price). What it read of the title's
        properties and train cards (`model.record`) is kept as its translation key's (`_current_translation`)."""
        t0 = time.perf_counter()
        steps: list[tuple[Binding, Step | Exception]] = []
        with recording() as deps, (_nothing() if concrete else prices.abstract()) as used:
            try:
                bindings = tn.bindings()
            except (GapError, Unsupported) as exc:
                bindings = []
                steps.append((Binding(()), exc))
            reads = Reads()
            calls: set[str] = set()
            for binding in bindings:
                try:
                    step = tn.translate(binding)
                    reads.merge(step.reads)
                    calls |= step.calls
                    steps.append((binding, step))
                except (GapError, Unsupported) as exc:
                    steps.append((binding, exc))
                except Exception as exc:  # noqa: BLE001 - a price as a constant where the rules want a number
                    if not used:
                        raise
                    steps.append((binding, Unsupported(f"a train price as a constant: {exc}")))
        errors = sorted({_exc_text(e) for _, e in steps if isinstance(e, Exception)})
        # what it read of properties and train cards is in the key as recorded (`model.record`), not
        # only where a builtin notes it in `reads` (a train's price, `obsolete_on`, ... were not)
        tkey = stable_hash(tn.decl_key, reads.key(), errors, len(steps), self._read_digest(sorted(deps)))
        entry = {"reads": [list(dep) for dep in sorted(deps)], "digest": self._read_digest(sorted(deps)),
                 "tkey": tkey, "prices": sorted(used)}
        slot = self._translation_slot(tn, concrete)
        entries = [e for e in (self.cache.data.get(slot) or {}).get("entries", []) if e["digest"] != entry["digest"]]
        self.cache.put(slot, {"entries": ([entry] + entries)[:TRANSLATION_ENTRIES]})
        return _Translation(steps, calls, reads, time.perf_counter() - t0, tkey, sorted(used))

    # -- translation keys
    def _translation_slot(self, tn: Transition, concrete: bool = False) -> str:
        """Where the cache keeps what a transition's translation read and the key it gave (`_translate`):
        the verifier's version, the transition's IR and everything of the title a translation reads
        unrecorded (`unread_key`); the concrete translation's (`prices`) apart."""
        return TRANSLATION_SLOT + stable_hash(self.version, self.unread_key, tn.kind, tn.name, tn.decl_key,
                                              *(["concrete"] if concrete else []))

    def _read_digest(self, deps: Iterable[tuple[str, ...]]) -> str:
        return stable_hash([(list(dep), self.model.read_digest(tuple(dep))) for dep in deps])

    def _current_translation(self, tn: Transition, concrete: bool = False) -> dict[str, Any] | None:
        """The cache's entry of the transition's translation that holds now: one of the same IR, on a title
        the same but for the content of its properties and train cards, that read only properties and train
        cards whose content is the same now: this translation would read the same and give the same key
        (its `tkey`) and the same constant prices (its `prices`). None where there is none."""
        found = self.cache.data.get(self._translation_slot(tn, concrete))
        for entry in (found or {}).get("entries", []):
            try:
                if self._read_digest(entry["reads"]) == entry["digest"]:
                    return entry
            except (ValueError, TypeError, KeyError):
                continue
        return None

    # -- one transition
    def _step_key(self, kind: str, tkey: str, inv: Invariant) -> str:
        return stable_hash(kind, self.version, self.assume_key, tkey, self._inv_keys[inv.name])

    def check_keys(self, tn: Transition, lazy: bool = False) -> tuple[dict[str, str], _Prepared]:
        """Each invariant's cache key for its check against the transition (what the cache files the
        result under: the IR of the transition and of the routines it calls, what it reads, the
        invariant's own key, the invariants assumed), and what `check_transition` takes with them: the
        translations made to find them (none where the cache held their keys, `_current_translation`:
        `check_transition` translates only if a check is not in the cache). Where the transition reads
        a train price (`prices`) a check's key is its abstract proof's, where the cache holds that, else
        the concrete translation's; with `lazy`, where that needs a translation the key is left out
        (`check_transition` translates only if the abstract try does not prove the check). Two titles
        whose keys agree have the same result for that check."""
        prepared = _Prepared()
        entry = self._current_translation(tn)
        if entry is None:
            prepared.translations[False] = done = self._translate(tn)
            entry = {"tkey": done.tkey, "prices": done.prices}
        keys = {inv.name: self._step_key("step", entry["tkey"], inv) for inv in self.invariants}
        if not entry.get("prices"):
            return keys, prepared  # no price read: the abstract translation is the concrete one
        prepared.abstract = {inv.name: self._step_key("abstract", entry["tkey"], inv) for inv in self.invariants}
        keys = dict(prepared.abstract)
        rest = [inv for inv in self.invariants if prepared.abstract[inv.name] not in self.cache.data]
        if rest:
            concrete = self._current_translation(tn, True)
            if concrete is None and lazy:
                return {name: key for name, key in keys.items() if key in self.cache.data}, prepared
            if concrete is None:
                prepared.translations[True] = done = self._translate(tn, True)
                concrete = {"tkey": done.tkey}
            keys.update({inv.name: self._step_key("step", concrete["tkey"], inv) for inv in rest})
        return keys, prepared

    def check_transition(self, tn: Transition, prepared: tuple | None = None,
                         invariants: Iterable[str] | None = None) -> list[CheckResult]:
        """Every invariant against one transition, through the cache. `prepared`: what `check_keys`
        returned for it, when it was called first; `invariants`: only these (names; all when None),
        the others still assumed where they are (`warm` shares a heavy transition out so). Where the
        transition reads a train price, a check is proved on the abstract translation first (`prices`),
        within `ABSTRACT_SECONDS` of work: proved there, it is filed under the abstract key; else it is
        checked on the concrete translation as any other."""
        keys, ready = prepared or self.check_keys(tn, lazy=True)
        results: list[CheckResult] = []
        wanted = set(invariants) if invariants is not None else None
        todo = self._from_cache(tn, [inv for inv in self.invariants if wanted is None or inv.name in wanted],
                                keys, results)
        tried: dict[str, float] = {}  # the seconds of the abstract try of the checks it did not prove
        if todo and ready.abstract is not None:
            done = ready.translations.get(False) or self._translate(tn)
            share = done.seconds / max(1, len(self.invariants))
            # (not an invariant the title sanctions for this transition: its check is a counterexample)
            trying = [inv for inv in todo if not any(x.action == tn.name or x.action in done.calls for x in inv.sanctions)]
            outcomes = self._solve(tn, done.steps, trying, int(ABSTRACT_SECONDS * RLIMIT_PER_SECOND))
            for inv in todo:
                o = outcomes.get(inv.name) or _Outcome("not tried")
                o.seconds += share
                if o.status != "proved":
                    tried[inv.name] = o.seconds
                    continue
                if inv.name not in keys:  # (lazy: solved without a lookup, a miss all the same)
                    self.cache.misses += 1
                o = _for_any_value(o, _any_values(done.reads) | self._inv_any[inv.name])
                res = CheckResult(inv.name, tn.name, o.status, o.seconds, False, None, None, o.reason,
                                  ready.abstract[inv.name])
                self.cache.put(res.key, _cache_value(res))
                results.append(res)
            todo = [inv for inv in todo if inv.name in tried]
        if todo:
            concrete = ready.abstract is not None
            done = ready.translations.get(concrete) or self._translate(tn, concrete)
            share = done.seconds / max(1, len(self.invariants))
            if any(inv.name not in keys for inv in todo):  # (lazy: not looked up before the translation)
                todo = self._from_cache(tn, todo, {inv.name: self._step_key("step", done.tkey, inv) for inv in todo},
                                        results)
            outcomes = self._solve(tn, done.steps, todo)
            for inv in todo:
                o = outcomes[inv.name]
                o.seconds += share + tried.get(inv.name, 0.0)
                o = self._apply_sanction(inv, tn, done.calls, o)
                o = _for_any_value(o, _any_values(done.reads) | self._inv_any[inv.name])
                key = self._step_key("step", done.tkey, inv)
                res = CheckResult(inv.name, tn.name, o.status, o.seconds, False, o.binding, o.detail, o.reason, key)
                if res.status != "unknown":  # a timeout may pass with more time: try it again
                    self.cache.put(key, _cache_value(res))
                results.append(res)
        order = {inv.name: i for i, inv in enumerate(self.invariants)}
        results.sort(key=lambda r: order[r.invariant])
        return results

    def _from_cache(self, tn: Transition, invs: list[Invariant], keys: dict[str, str],
                    results: list[CheckResult]) -> list[Invariant]:
        """The results of `invs` the cache holds under `keys`, put on `results`; the invariants left."""
        todo = []
        for inv in invs:
            cached = self.cache.get(keys[inv.name]) if inv.name in keys else None
            if cached is None:
                todo.append(inv)
                continue
            results.append(CheckResult(inv.name, tn.name, cached["status"], cached["seconds"], True,
                                       cached.get("binding"), cached.get("detail"), cached.get("reason"),
                                       keys[inv.name]))
        return todo

    def _touched(self, inv: Invariant, step: Step, changed: set[str]) -> bool:
        """Whether the step can change what the invariant reads (else the
        invariant, true before, is true after: no solver needed)."""
        if inv.step_property is money_moves_by_transfer:
            return bool(step.transfers)
        if inv.step_property is emergency_sale_steps:
            return step.label.startswith("sell_shares(")
        support = self._support.get(inv.name)
        if support is None:
            return True
        return bool(support & changed)

    def _apply_sanction(self, inv: Invariant, tn: Transition, calls: set[str], o: _Outcome) -> _Outcome:
        if o.status != "counterexample":
            return o
        for sanction in inv.sanctions:
            if sanction.action == tn.name or sanction.action in calls:
                cite = ", ".join(str(c) for c in sanction.prov.citations)
                reading = f' reading "{sanction.reading}"' if sanction.reading else ""
                o.status = "sanctioned"
                o.reason = f"sanction {sanction.invariant} for {sanction.action} {cite}{reading} ({span_text(sanction.span)})"
                return o
        return o

    def _solve(self, tn: Transition, steps: list[tuple[Binding, Step | Exception]],
               invs: list[Invariant], budget: int | None = None) -> dict[str, _Outcome]:
        """Check each invariant against every binding of a transition. Each
        (invariant, transition) pair has `budget` units of z3's work in all (`self.budget` where
        none is given; see `RLIMIT_PER_SECOND`); the wall-clock seconds are reported."""
        abstract = budget is not None  # (the abstract try, `prices`: a counterexample there is not shown)
        budget = budget or self.budget
        spent = {inv.name: 0.0 for inv in invs}  # seconds, for the report
        used = {inv.name: 0 for inv in invs}  # z3 resource units, against the budget
        found: dict[str, _Outcome] = {}
        unknown: dict[str, str] = {}
        gaps: dict[str, set[str]] = {inv.name: set() for inv in invs}
        unsupported: dict[str, set[str]] = {inv.name: set() for inv in invs}
        out_of_budget = f"resource limit ({self.timeout:g} s of work) used up"
        for inv in invs:
            if inv.name in self._inv_gap:
                gaps[inv.name].add(self._inv_gap[inv.name])
            if inv.name in self._inv_unsupported:
                unsupported[inv.name].add(self._inv_unsupported[inv.name])
        live = [inv for inv in invs if not gaps[inv.name] and not unsupported[inv.name]]
        split: set[str] = set()
        # the invariants `Invariant.monotone` proved on a binding where the whole property was not
        # settled at once: on the transition's other bindings it is tried first (1846's bankrupt,
        # cert_limit: the whole property used up its second of work on each binding, 8 million
        # units, before the condition proved it in 5)
        by_monotone: set[str] = set()
        # the bindings on which the condition was tried where the property was not settled, and failed
        monotone_failed: dict[str, int] = {}
        together_failed = 0
        # the CPU seconds per invariant of a binding's checks, together and one by one, and how
        # many bindings each was measured on: which way is the cheaper on this transition (the
        # CPU time, not z3's units: a fresh solver's setup, which the units hardly count, is most
        # of a quick check's cost; the choice changes no outcome, only the time)
        cost: dict[str, list[float]] = {"together": [0.0, 0], "apart": [0.0, 0]}
        apart_from: list[tuple[int, float]] = []  # (pending, CPU time) of the binding checked one by one
        # CPU seconds per "quick" try (below) on a fresh SMT core and pushed on the guard's solver, and
        # the bindings each was measured on: on many bindings, the cheaper is taken (`_cheaper_pushed`).
        # A fresh solver preprocesses the assumption and guard again for every invariant, most of a quick
        # check's cost (18CO's buy_shares: 126 bindings of 11 checks of ~0.03 s, as long as the guard's);
        # on a hard one a push's incremental mode is the slower (1846's bankrupt: 8.3 -> 9.6 s)
        quick_cost: dict[str, list[float]] = {"fresh": [0.0, 0], "pushed": [0.0, 0]}
        many = len(steps) >= TOGETHER_MIN_BINDINGS
        forcing = [0, 0]  # bindings whose guard forced parameters false (`_forced_false`), and not

        def tally() -> None:
            if apart_from:
                n, before = apart_from.pop()
                cost["apart"][0] += (time.process_time() - before) / n
                cost["apart"][1] += 1

        for binding, step in steps:
            tally()
            if isinstance(step, GapError):
                for inv in live:
                    gaps[inv.name].add(step.what)
                continue
            if isinstance(step, Unsupported):
                for inv in live:
                    unsupported[inv.name].add(step.what)
                continue
            assert isinstance(step, Step)
            changed = _changed(step)
            pending = [inv for inv in live if inv.name not in found and self._touched(inv, step, changed)]
            for inv in [inv for inv in pending if used[inv.name] >= budget]:
                unknown.setdefault(inv.name, out_of_budget)
            pending = [inv for inv in pending if used[inv.name] < budget]
            if not pending:
                continue
            guard = zb(step.guard) if truth(step.guard) is None else z3.BoolVal(bool(step.guard))
            # the step's truth-valued parameters its guard forces false (a certificate list's symbolic
            # tail where the guard wants one certificate), put false in every query of the binding
            # (asked while it has found some on the transition's bindings, or not yet failed on
            # `TOGETHER_SAMPLES` of them: a sale's list, free, is never forced)
            forced: list[Any] = []
            if forcing[0] or forcing[1] < TOGETHER_SAMPLES:
                t0 = time.perf_counter()
                forced, units = self._forced_false(step, guard)
                forcing[0 if forced else 1] += 1
                for inv in pending:
                    used[inv.name] += units // len(pending)
                    spent[inv.name] += (time.perf_counter() - t0) / len(pending)
            fix = _fixing(forced)
            guard = fix(guard)
            axioms = [fix(zb(a)) for a in step.axioms]
            props: dict[str, Any] = {}
            settled: list[tuple[Any, Callable[[Any], Any]]] | None = None  # the cases (below), made once
            if (len(pending) > 1 and len(steps) >= TOGETHER_MIN_BINDINGS and together_failed < TOGETHER_TRIES
                    and _cheaper_together(cost)):
                # First every pending invariant at once: one query, "some property fails", on a
                # fresh solver, within `TOGETHER_SECONDS`. Unsat proves them all on this binding
                # (each one's query implies it); else each is checked on its own as below.
                # Which way is taken on a binding is decided by the time each took on the
                # transition's bindings before (`_cheaper_together`): on 18CO's buy_shares one
                # query took half the work of the guard's check and eleven, on 1846's, where each
                # check is quick, half as much again.
                t0, c0 = time.perf_counter(), time.process_time()
                try:
                    props = {inv.name: fix(self._property(inv, step)) for inv in pending}
                except (GapError, Unsupported):
                    props = {}  # the checks one by one record it
                if props:
                    s = z3.SimpleSolver()  # (as the guard's, below)
                    s.add(*self.assumption)
                    s.add(*axioms)
                    s.add(guard)
                    s.add(z3.Or([_negated(p) for p in props.values()]))
                    left = min(budget - used[inv.name] for inv in pending)
                    r, units = _check(s, min(left, int(TOGETHER_SECONDS * RLIMIT_PER_SECOND)))
                    for inv in pending:
                        used[inv.name] += units // len(pending)
                        spent[inv.name] += (time.perf_counter() - t0) / len(pending)
                    cost["together"][0] += (time.process_time() - c0) / len(pending)
                    cost["together"][1] += 1
                    if r == z3.unsat:
                        continue
                    together_failed += 1
            # a fresh solver for each binding: one reused across bindings runs in
            # z3's incremental mode, without the preprocessing that a first
            # check gets, and some checks then time out. The guard's check (and the invariants
            # together, above) on z3's SMT core itself (`SimpleSolver`), not `Solver`, whose first
            # check runs the tactics z3 picks for the logic first: on a guard those cost ~5 million
            # units a binding (1846 18xx.games' buy_train, 42 bindings: the guards 213 -> 7 million
            # units, the transition's CPU 16 -> 7 s), on SMT core ~0.03. The whole property's first
            # try ("quick", below) is on a fresh SMT core too; the fresh solvers after it (cases,
            # split, `_monotone`) keep the tactics, which 1880's player_choose needs (its cases on
            # the SMT core alone: more than three times the time).
            if len(pending) > 1 and not props:
                apart_from.append((len(pending), time.process_time()))
            t0 = time.perf_counter()
            solver = z3.SimpleSolver()
            solver.add(*self.assumption)
            solver.add(*axioms)
            solver.add(guard)
            r, units = _check(solver, min(budget - used[inv.name] for inv in pending))
            for inv in pending:
                used[inv.name] += units // len(pending)
                spent[inv.name] += (time.perf_counter() - t0) / len(pending)
            if r != z3.sat:
                if r == z3.unknown:
                    for inv in pending:
                        unknown.setdefault(inv.name, f"z3 ({step.label}, the guard): {_reason(solver)}")
                continue
            pushed = many and _cheaper_pushed(quick_cost)
            quick_binding = [0.0, 0]  # CPU seconds and count of this binding's quick tries
            for inv in pending:
                t1 = time.perf_counter()
                try:
                    prop = props[inv.name] if inv.name in props else fix(self._property(inv, step))
                except GapError as exc:
                    gaps[inv.name].add(exc.what)
                    continue
                except Unsupported as exc:
                    unsupported[inv.name].add(exc.what)
                    continue
                # First the whole property, briefly, on a fresh SMT core (`SimpleSolver`: the
                # binding's solver, pushed, ran incrementally and took twice the time). If
                # z3 gives up, each conjunct (per player, per corporation, ...)
                # on a fresh solver with the budget left: a check z3 cannot settle
                # whole in minutes is settled part by part in a fraction of a second.
                # (An invariant that once needed the split is split at once on
                # the transition's other bindings.) Before the split, the sufficient
                # condition `Invariant.monotone`: tried only where the whole property is
                # not settled at once, since it seldom holds where the property is easy.
                # Between the two, where the step branches (`Step.branches`), the whole
                # property case by case (`_cases`), each case within `CASE_SECONDS`: in
                # one query z3 weighs every branch against every other (1880's founder's
                # choice: which company is founded, or given its building rights, or
                # none), in a case only one; a case it does not settle within that
                # leaves the step to the split.
                monotone_tried = False
                if inv.name in by_monotone:
                    monotone_tried = True
                    if self._monotone(inv, step, guard, axioms, fix):
                        spent[inv.name] += time.perf_counter() - t1
                        continue
                quick = int(QUICK_SECONDS * RLIMIT_PER_SECOND)
                attempts: list[tuple[str, list[Any], list[tuple[Any, Callable[[Any], Any]]], int | None]] = []
                if inv.name not in split:
                    attempts.append(("quick", [prop], [(True, _same)], quick))
                cases = _cases(step.branches)
                if 1 < len(cases) <= MAX_CASES:
                    # each case with its branches' values put in (`_settling`)
                    if settled is None:
                        settled = [(fix(case), _settling(fix, values))
                                   for case, values in zip(cases, _case_values(step.branches))]
                    attempts.append(("cases", [prop], settled, int(CASE_SECONDS * RLIMIT_PER_SECOND)))
                attempts.append(("split", _conjuncts(prop), [(True, _same)], None))
                split_marked = False
                for kind, parts, within, cap in attempts:
                    fresh = kind != "quick"
                    if fresh and not split_marked:
                        split_marked = True
                        if (not monotone_tried and inv.step_property is None
                                and monotone_failed.get(inv.name, 0) < MONOTONE_TRIES):
                            if self._monotone(inv, step, guard, axioms, fix):
                                by_monotone.add(inv.name)
                                break
                            monotone_failed[inv.name] = monotone_failed.get(inv.name, 0) + 1
                        split.add(inv.name)
                    r = z3.unsat
                    for case, settle in within:
                        for part in parts:
                            left = budget - used[inv.name]
                            if left <= 0:
                                r = None
                                unknown.setdefault(inv.name, out_of_budget)
                                break
                            s = solver
                            if kind == "quick" and pushed:
                                s = solver
                                s.push()
                                c1 = time.process_time()
                            elif kind == "quick":
                                c1 = time.process_time()
                                # on a fresh SMT core, not pushed on the guard's solver: the same
                                # work without the incremental mode a push puts it in (1846's
                                # bankrupt, no_negative_cash: 1.3 -> 0.6 s of CPU a binding; 1880
                                # 18xx.games' player_choose, its checks 23.1 -> 18.6 s)
                                s = z3.SimpleSolver()
                                s.add(*self.assumption)
                                s.add(*axioms)
                                s.add(guard)
                            elif fresh:
                                s = z3.Solver()
                                s.add(*self.assumption)
                                s.add(*[settle(a) for a in axioms])
                                s.add(settle(guard))
                                if truth(case) is None:
                                    s.add(zb(case))
                                part = settle(part)
                            else:
                                s.push()  # a fresh solver is not pushed: that too would make it incremental
                            negated_part = z3.Not(zb(part)) if truth(part) is None else z3.BoolVal(not part)
                            r = z3.unknown
                            if kind == "split" and left > SPLIT_CORE_SECONDS * RLIMIT_PER_SECOND:
                                # first on the SMT core alone, within `SPLIT_CORE_SECONDS`: unsat or sat
                                # there is the answer; unknown goes on to the fresh Solver as before
                                core = z3.SimpleSolver()
                                core.add(*self.assumption)
                                core.add(*[settle(a) for a in axioms])
                                core.add(settle(guard))
                                if truth(case) is None:
                                    core.add(zb(case))
                                core.add(negated_part)
                                r, units = _check(core, int(SPLIT_CORE_SECONDS * RLIMIT_PER_SECOND))
                                used[inv.name] += units
                                left -= units
                                if r != z3.unknown:
                                    s = core
                            if r == z3.unknown:
                                s.add(negated_part)
                                r, units = _check(s, min(left, cap or left))
                                used[inv.name] += units
                            if kind == "quick":
                                quick_binding[0] += time.process_time() - c1
                                quick_binding[1] += 1
                            if r == z3.sat:
                                detail = None if abstract else counterexample(
                                    s, step, inv, self.tr, self._pre_atoms.get(inv.name) if inv.sanctions else None,
                                    RLIMIT_PER_SECOND // 2)
                                found[inv.name] = _Outcome("counterexample", binding=step.label, detail=detail)
                            elif r == z3.unknown and kind == "split":
                                unknown.setdefault(inv.name, f"z3 ({step.label}): {_reason(s)}")
                            if s is solver:
                                s.pop()
                            if r != z3.unsat:
                                break
                        if r != z3.unsat:
                            break
                    if r != z3.unknown:
                        break
                spent[inv.name] += time.perf_counter() - t1
            if quick_binding[1]:
                way = quick_cost["pushed" if pushed else "fresh"]
                way[0] += quick_binding[0] / quick_binding[1]
                way[1] += 1
        tally()
        out: dict[str, _Outcome] = {}
        for inv in invs:
            name = inv.name
            if name in found:
                o = found[name]
            elif name in unknown:
                o = _Outcome("unknown", reason=unknown[name])
            elif gaps[name]:
                o = _Outcome("gap", reason="not checkable: " + ", ".join(f"gap {g}" for g in sorted(gaps[name])))
            elif unsupported[name]:
                o = _Outcome("unsupported", reason="not checkable: " + ", ".join(sorted(unsupported[name])))
            else:
                o = _Outcome("proved")
            o.seconds = spent[name]
            out[name] = o
        return out

    def _property(self, inv: Invariant, step: Step) -> Any:
        """What the check of `inv` against `step` proves holds (a term, or a bool)."""
        if inv.step_property is not None:
            return inv.step_property(self.tr, step)
        if inv.sanctions:
            return inv.relaxed(self.tr, step.pre, step.post)
        return inv.holds(self.tr, step.post)

    def _monotone(self, inv: Invariant, step: Step, guard: Any, axioms: list[Any],
                  fix: Callable[[Any], Any]) -> bool:
        """Whether the step is proved to keep `inv` by `Invariant.monotone` (no term of a limit's sum
        grows, no bound shrinks), within `MONOTONE_SECONDS` of work of its own: the budget of the
        check proper is left whole. False when the invariant has no sums, or the condition fails or
        is not settled (the check proper then runs)."""
        try:
            prop = inv.monotone(self.tr, step.pre, step.post)
        except (GapError, Unsupported):
            return False
        if prop is None:
            return False
        prop = fix(prop)
        negated = z3.Not(zb(prop)) if truth(prop) is None else z3.BoolVal(not prop)
        # first on z3's SMT core alone (`SimpleSolver`), briefly: the condition compares small terms,
        # which the core settles without the tactics' preprocessing, ~5 million units a query; only
        # where the core gives up the fresh solver with the tactics, as before (1846's cert_limit
        # after sell_shares: 0.46 -> 0.08 s of CPU a binding). Unsat on either is the same proof.
        for solver, units in ((z3.SimpleSolver(), MONOTONE_CORE_SECONDS), (z3.Solver(), MONOTONE_SECONDS)):
            solver.add(*self.assumption)
            solver.add(*axioms)
            solver.add(guard)
            solver.add(negated)
            r, _ = _check(solver, int(units * RLIMIT_PER_SECOND))
            if r != z3.unknown:  # (sat on one is sat on the other: the condition fails)
                return r == z3.unsat
        return False

    def _forced_false(self, step: Step, guard: Any) -> tuple[list[Any], int]:
        """The step's truth-valued parameters that its guard forces false (under the assumption and
        its axioms: one query, all of them or none, within `FORCED_SECONDS` of work), and the units
        used. A certificate list past its bound head (`Translator.headed_list`) is a truth value per
        later certificate, symbolic; where the guard wants one certificate (18CO's buy_shares,
        `len(shares) == 1`) they are all false, yet z3 weighed them in every term of the effect:
        18CO's buy_shares, its first KPAC certificate, the invariants' query 1.19 -> 0.10 s of CPU
        with them put false. Putting them false changes no check's answer: where the guard holds
        they are false, so a query is satisfiable exactly when it is with them false (a model of
        one, with them false, is a model of the other)."""
        flags = [c for c in step.params.values() if z3.is_bool(c)]
        if not flags:
            return [], 0
        s = z3.SimpleSolver()
        s.add(*self.assumption)
        s.add(*[zb(a) for a in step.axioms])
        s.add(guard)
        s.add(z3.Or(flags))
        r, units = _check(s, int(FORCED_SECONDS * RLIMIT_PER_SECOND))
        return (flags if r == z3.unsat else []), units

def _cheaper_together(cost: dict[str, list[float]]) -> bool:
    """Whether a binding's invariants are checked together first (`Verifier._solve`), from the CPU
    seconds per invariant the transition's bindings took each way so far: each way in turn on the
    first `TOGETHER_SAMPLES` bindings each, then the way that took fewer on average."""
    (together, n_together), (apart, n_apart) = cost["together"], cost["apart"]
    if n_together < TOGETHER_SAMPLES or n_apart < TOGETHER_SAMPLES:
        return n_together <= n_apart
    return together * n_apart <= apart * n_together


def _cheaper_pushed(cost: dict[str, list[float]]) -> bool:
    """Whether a binding's quick tries are pushed on its guard's solver rather than made on fresh
    ones (`Verifier._solve`), from the CPU seconds per try the transition's bindings took each way
    so far: fresh on the first `TOGETHER_SAMPLES` bindings, pushed on the next as many, then the way
    that took fewer on average."""
    (fresh, n_fresh), (pushed, n_pushed) = cost["fresh"], cost["pushed"]
    if n_fresh < TOGETHER_SAMPLES:
        return False
    if n_pushed < TOGETHER_SAMPLES:
        return True
    return pushed * n_fresh < fresh * n_pushed


def _fixing(forced: list[Any]) -> Callable[[Any], Any]:
    """A term with the `forced` truth values put false (`Verifier._forced_false`); a Python value as it is."""
    if not forced:
        return lambda term: term
    # (`z3.substitute(term, *pairs)`, by z3's constructor: the pairs, truth values each, are made once for
    # every term of the binding, not checked again for each; 18CO's buy_shares fixes some 4,500 terms)
    false = z3.BoolVal(False)
    sources = (z3.Ast * len(forced))(*[zb(c).as_ast() for c in forced])
    targets = (z3.Ast * len(forced))(*[false.as_ast() for _ in forced])

    def fix(term: Any) -> Any:
        if truth(term) is not None:
            return term
        term = zb(term)
        ctx = term.ctx
        if ctx is not false.ctx:
            return z3.substitute(term, *[(c, z3.BoolVal(False, ctx)) for c in forced])
        return z3.BoolRef(z3.z3core.Z3_substitute(ctx.ref(), term.as_ast(), len(forced), sources, targets), ctx)

    return fix


def _negated(prop: Any) -> Any:
    """`not prop`, as a z3 term."""
    return z3.Not(zb(prop)) if truth(prop) is None else z3.BoolVal(not prop)


def _conjuncts(prop: Any) -> list[Any]:
    """The top-level conjuncts of a property (itself when it is no conjunction)."""
    if truth(prop) is None and z3.is_and(prop):
        out: list[Any] = []
        for child in prop.children():
            out.extend(_conjuncts(child))
        return out
    return [prop]


def _cases(branches: list[Any]) -> list[Any]:
    """The cases a step is checked in one by one (`Verifier._solve`): its outermost branches'
    path conditions (`Step.branches`) b1..bn as a decision list: b1; not b1 and b2; ...; none of
    them. They cover every state (take the first bi that holds, or the last case when none does)
    and exclude each other, so a property that holds in each case holds; a model of one case is a
    model of the whole. One case, [True], for a step without branches."""
    out: list[Any] = []
    before: list[Any] = []
    for b in branches:
        case = AND(b, *[NOT(x) for x in before])
        if truth(case) is not False:
            out.append(case)
        before.append(b)
    rest = AND(*[NOT(x) for x in before])
    if truth(rest) is not False:
        out.append(rest)
    return out or [True]


def _same(term: Any) -> Any:
    return term


def _case_values(branches: list[Any]) -> list[list[tuple[Any, bool]]]:
    """For each case of `_cases(branches)`, in its order, the value each branch's condition has in
    it: the earlier branches' false, its own true (none known in the last case but false)."""
    out: list[list[tuple[Any, bool]]] = []
    before: list[Any] = []
    for b in branches:
        if truth(AND(b, *[NOT(x) for x in before])) is not False:
            out.append([(x, False) for x in before] + [(b, True)])
        before.append(b)
    if truth(AND(*[NOT(x) for x in before])) is not False:
        out.append([(x, False) for x in before])
    return out or [[]]


def _settling(fix: Callable[[Any], Any], values: list[tuple[Any, bool]]) -> Callable[[Any], Any]:
    """Each branch condition (as `fix` puts it) put to its value in the case (`_case_values`),
    wherever it occurs in a term (one `fix` made already). Asked with the case's condition, which gives each that value, a query so
    settled is satisfiable exactly when it was (a model of one is a model of the other); z3 no
    longer weighs the other branches' effects (1880 Romania (18xx.games)'s player_choose,
    president_holds_most: its last two cases 0.46 and 0.70 -> 0.003 s of CPU each, the third halved)."""
    pairs = [(fix(zb(b)), z3.BoolVal(v)) for b, v in values if truth(b) is None]
    if not pairs:
        return _same
    memo: dict[int, Any] = {}

    def settle(term: Any) -> Any:
        if truth(term) is not None:
            return term
        key = term.get_id()
        if key not in memo:
            memo[key] = z3.substitute(zb(term), *pairs)
        return memo[key]

    return settle


def _changed(step: Step) -> set[str]:
    """The state variables a step may change (its post term is not the pre-state's)."""
    out = set()
    for name, after in step.post.items():
        before = step.pre[name]
        if after is before:
            continue
        if z3.is_expr(after) and after.eq(before):
            continue
        out.add(name)
    return out


def _exc_text(e: Exception) -> str:
    return f"gap {e.what}" if isinstance(e, GapError) else f"unsupported {getattr(e, 'what', e)}"


def _any_values(reads: Reads) -> set[str]:
    """The declared gaps a translation read as any value (`any_value` reads)."""
    return {name for kind, name in reads.items if kind == "any_value"}


#: The lead of a proved check's reason when it holds for every value of declared gaps.
FOR_ANY_VALUE = "for any value of the gap: "


def _for_any_value(o: "_Outcome", gaps: set[str]) -> "_Outcome":
    """A proof that read declared gaps as any value says so in its reason."""
    if o.status == "proved" and gaps:
        o.reason = FOR_ANY_VALUE + ", ".join(sorted(gaps))
    return o


def _cache_value(res: CheckResult) -> dict[str, Any]:
    return {"status": res.status, "seconds": res.seconds, "binding": res.binding, "detail": res.detail,
            "reason": res.reason}


def seed_cache(cache: Cache, results: Iterable[CheckResult], translations: dict[str, dict[str, Any]]) -> int:
    """Put into `cache` the results of a past run that carry their key (`CheckResult.key`), and its
    translation entries (`TitleReport.translations`), where the cache has none of them: the proof
    record's (`docs.proofs.seed_cache`), so that on a fresh clone, whose cache is empty, a title an
    erratum touches solves only the checks whose key changed, and translates only the transitions
    whose IR or reads changed, as on a checkout whose cache a full run filled. A key is a hash of
    everything the check depends on (the verifier's version too): a result filed under it is the
    one a run would give. An `unknown` is never filed (as in `check_transition`). Returns how many
    results were added."""
    added = 0
    for r in results:
        if r.key and r.status != "unknown" and r.key not in cache.data:
            cache.put(r.key, _cache_value(r))
            added += 1
    for slot, entry in translations.items():
        try:
            held = list((cache.data.get(slot) or {}).get("entries", []))
            if any(e.get("digest") == entry["digest"] for e in held):
                continue
            cache.put(slot, {"entries": (held + [dict(entry)])[:TRANSLATION_ENTRIES]})
        except (AttributeError, KeyError, TypeError):
            continue
    return added


# ---------------------------------------------------------------- the public API


def verify_title(title: Title, *, timeout: float = TIMEOUT_SECONDS, cache: Cache | None = None,
                 progress: Callable[[str], None] | None = None, only: Iterable[str] | None = None,
                 options: tuple[str, ...] = (), invariants: Iterable[str] | None = None) -> TitleReport:
    """Every proof and table check of one resolved title (or title + variant).

    `timeout`: the budget of each (invariant, transition) pair over all its
    bindings, in seconds of z3's work (`RLIMIT_PER_SECOND` resource units a
    second, so the outcome does not depend on the machine); `cache`: where results
    are kept (none by default); `progress`: called with a short text as each
    transition starts; `only`: the transitions to check (names; "init" for the
    initial state), all when None; `options`: the keys of the title's optional
    rules in play (the model reads the properties they set; the report's title
    names them; ValueError for one the title does not declare); `invariants`: the invariants to
    check (names; ValueError for one the title does not have), all when None — the others stay
    what they are to the proofs (a lemma is still assumed). Never raises for a title's content: gaps and
    unsupported constructs become results; a model that cannot be built
    becomes `report.error`.
    """
    built = _WARM_VERIFIERS.pop((title.display_name, tuple(options), timeout), None)
    if built is not None and built.title is title and invariants is None:
        # the verifier `warm` built to plan by: nothing checked on it yet, its building not repeated
        verifier = built
        verifier.cache = cache or Cache(None)
        verifier.progress = progress or (lambda text: None)
    else:
        try:
            verifier = Verifier(title, timeout, cache, progress, tuple(options))
        except (GapError, Unsupported) as exc:
            return TitleReport(title.display_name, "", [], [], [], error=str(exc))
    if invariants is not None:
        wanted = set(invariants)
        unknown = sorted(wanted - {inv.name for inv in verifier.invariants})
        if unknown:
            raise ValueError(f"{title.display_name} has no invariant {', '.join(map(repr, unknown))}")
        verifier.invariants = [inv for inv in verifier.invariants if inv.name in wanted]
        verifier.partial = True
    else:
        verifier.warmed = _WARMED.pop((title.display_name, tuple(options), timeout), {})
    report = verifier.run(only)
    if options:
        report.title += " with option " + ", ".join(options)
    return report


# ---------------------------------------------------------------- what `pool.warm` left for `verify_title`

#: What `warm` found, by (title, options, timeout): each transition's results ("init" for the
#: initial state), for `verify_title` to take rather than translate and look up again.
_WARMED: dict[tuple[str, tuple[str, ...], float], dict[str, list["CheckResult"]]] = {}
#: The verifiers `warm` built to plan its tasks by, by (title, options, timeout): `verify_title` takes
#: its title's rather than build it again (a second or two of a title's model and invariants)
_WARM_VERIFIERS: dict[tuple[str, tuple[str, ...], float], "Verifier"] = {}


def select_titles(loaded, names: list[str] | None) -> list[Title]:
    """The titles (and variants) named: a title's name or slug gives it and all
    its variants; `title/variant` or a variant's name gives that variant.
    Raises KeyError naming what matched nothing."""
    from compiler.names import slug

    every = loaded.every_title()
    if not names:
        return every
    out: list[Title] = []
    for name in names:
        if "/" in name:
            base, _, variant = name.partition("/")
        else:
            base, variant = name, ""
        matched = [t for t in every if slug(t.name) == slug(base) and (not variant or slug(t.variant or "") == slug(variant))]
        if not matched and not variant:
            matched = [t for t in every if t.variant and slug(t.variant) == slug(name)]
        if not matched:
            raise KeyError(name)
        out.extend(t for t in matched if t not in out)
    return out


__all__ = [
    "Cache", "CheckResult", "TitleReport", "TIMEOUT_SECONDS", "render_report", "seed_cache", "select_titles",
    "verify_title",
]

