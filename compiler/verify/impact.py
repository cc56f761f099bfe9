"""`rulec impact ERRATA.rules [LOGS...]`: what an erratum would change, before it lands.

An erratum changes the rules of games already played. For each saved game (a log) this module
replays it twice at once, under the rules as they are and under the rules with the erratum, and
compares the two engines' `state()` after every action. A game is

- unchanged: every action is taken alike and leaves the same state;
- changed at action N: the first action whose legality or effect differs, the rule it falls
  under and the state fields that differ after it. Where the amended rules refuse the recorded
  action but offer exactly one action of the same entity and type that differs from it in one
  amount (a train bought from the bank at its new price), the game is taken to change there, with
  that action ("retaken"), rather than to break;
- no longer replayable at action N: the amended rules refuse the action (the `IllegalAction`'s
  rule), or its effects break an invariant the monitor watches.

Then, for the title the erratum amends and each of its variants (and the implementations' readings
on top of them): the invariant checks whose status changes (the verifier
on the title with and without the erratum, only the checks whose cache key, that is whose IR and
what it reads, differs; the cache files the rest), and the functions of the generated engine that
change (a short unified diff). An erratum whose clauses differ from what they replace only in
wording (citations, messages, titles) changes no behaviour: no proof is run, and the report says so.

The amended rules are the rulespecs with the errata file resolved among them, as if it were
committed: an erratum of a title applies to its variants, to the implementation's readings on top
of it (the reading's own replacements win where both change a clause) and to the titles extending
it. An errata file inside rulespecs/ is measured against the rulespecs without it. Engines are
emitted and built in memory (`engines.memory_game_class`); nothing is written to generated/.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from compiler import paths
from compiler.lang.ir import Title
from compiler.lang.pipeline import Loaded

#: the state fields a change report lists at most
MAX_FIELDS = 8
#: lines of engine diff shown per changed function at most
MAX_DIFF_LINES = 24
#: state fields that name the rules a game is played by, not what a rule did: two engines of one
#: title, one with an implementation's reading, differ in them from the start (`docs_readings`)
NAMING = frozenset({"variant"})
#: fields of a syntax node that hold its wording, not its meaning
WORDING = frozenset({"span", "prov", "message", "title", "name_spans", "value_spans"})


class ImpactError(Exception):
    """Errata that cannot be measured; the message says why (rendered diagnostics where the file
    does not check)."""


# ---------------------------------------------------------------- the rules before and after


@dataclass
class Amendment:
    """The rulespecs without and with the errata file (`before`, `after`), the file as shown, and
    the titles its errata amend, in the order the file names them."""

    before: Loaded
    after: Loaded
    path: str
    titles: list[str]
    units: list[str]

    def affected(self, title: Title) -> bool:
        """Whether `title` (a resolved title, variant or reading) is one the errata reach: of an
        amended title, or of a title extending one."""
        names = {title.name}
        current = self.before.program.titles.get(title.name)
        while current is not None and current.extends:
            names.add(current.extends)
            current = self.before.program.titles.get(current.extends)
        return bool(names & set(self.titles))


def unreadable(errata: Path) -> str | None:
    """Why the errata file cannot be read, or None: a folder or a device (`/dev/null`) is there, and
    "no such file" would send one looking for a typo."""
    if errata.is_file():
        return None
    return ("no such file" if not errata.exists() else "a folder, not a file of errata" if errata.is_dir()
            else "not a regular file (a device or a pipe); write the errata in a .rules file")


def amend(errata: Path, rules: list[Path] | None = None) -> Amendment:
    """Read the errata file and resolve the rulespecs (`rules`: files or folders of one's own, as
    `rulec build PATH...` takes; rulespecs/ by default) without and with it. Raises `ImpactError`
    when the file cannot be read, holds a unit other than an erratum (an implementation's reading
    is not one), names an unknown title, or does not check."""
    from compiler.lang.check import check_title
    from compiler.lang.pipeline import load
    from compiler.diagnostics import error, render_all
    from compiler.lang.parse import parse_file
    from compiler.lang.resolve import is_reading, resolve

    if (why := unreadable(errata)) is not None:
        raise ImpactError(f"cannot read the errata {errata}: {why}")
    everything = load(rules or None, check=False)
    shown = paths.display(errata)
    inside = shown in everything.files
    module, found, text = parse_file(errata, shown)
    everything.sources.add(shown, text)
    if module is None or any(d.is_error for d in found):
        raise ImpactError(render_all([d for d in found if d.is_error], everything.sources))
    units = list(module.units)
    if not units:
        raise ImpactError(f'{shown} holds no unit: write `errata "NAME" of "TITLE" {{ ... }}`')
    wrong = [error("E017", f"an errata file holds errata only, not {unit.kind} {unit.name!r}"
                   + (" (an implementation's reading)" if is_reading(unit) else ""), unit.name_span,
                   help='write `errata "NAME" of "TITLE" { ... }` without `implementation`')
             for unit in units if unit.kind != "errata" or is_reading(unit)]
    wrong += [error("E010", f"errata {unit.name!r} of unknown title {unit.base!r}", unit.base_span,
                    help="titles: " + ", ".join(sorted(everything.program.titles)))
              for unit in units if unit.kind == "errata" and unit.base not in everything.program.titles]
    if wrong:
        raise ImpactError(render_all(wrong, everything.sources))
    others = [m for m in everything.modules if m.path != shown]
    before = everything
    if inside:  # measured against the rulespecs without it
        program, diagnostics = resolve(others)
        before = Loaded(program, others, diagnostics, everything.sources, [f for f in everything.files if f != shown])
    program, diagnostics = resolve(others + [module])
    after = Loaded(program, others + [module], diagnostics, everything.sources, before.files + [shown])
    titles = list(dict.fromkeys(unit.base for unit in units))
    errors = [d for d in after.diagnostics if d.is_error and d.span is not None and d.span.path == shown]
    for name in titles:
        errors += [d for d in check_title(after.program.titles[name]) if d.is_error]
    if errors:
        raise ImpactError(render_all(errors, everything.sources))
    return Amendment(before, after, shown, titles, [f"errata {unit.name!r} of {unit.base!r}" for unit in units])


# ---------------------------------------------------------------- what the clauses change


def meaning(node: Any) -> Any:
    """A syntax node without its wording (citations, messages, titles, places): two clauses with
    the same meaning compare equal."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            (f.name, meaning(getattr(node, f.name))) for f in dataclasses.fields(node) if f.name not in WORDING)
    if isinstance(node, (tuple, list)):
        return tuple(meaning(item) for item in node)
    if isinstance(node, dict):
        return tuple(sorted((repr(k), meaning(v)) for k, v in node.items()))
    return node


@dataclass
class ClauseChange:
    """A clause the errata touch: `change` "added", "removed", "meaning" or "wording"."""

    kind: str
    name: str
    change: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name} ({self.change})"


def clause_changes(before: Title, after: Title) -> list[ClauseChange]:
    """The clauses whose text differs between two resolutions of a title, in the after title's
    order (removed ones last)."""
    out = []
    old = {c.key: c for c in before.clauses}
    new = {c.key: c for c in after.clauses}
    for key, clause in new.items():
        previous = old.get(key)
        if previous is None:
            out.append(ClauseChange(*key, "added"))
        elif previous.decl != clause.decl:
            out.append(ClauseChange(*key, "wording" if meaning(previous.decl) == meaning(clause.decl) else "meaning"))
    out.extend(ClauseChange(*key, "removed") for key in old if key not in new)
    return out


# ---------------------------------------------------------------- games


@dataclass
class GameImpact:
    """What the errata do to one saved game. `status`: "unchanged", "changes", "no longer replays",
    "does not replay" (the current rules refuse it already, at `at`), "not amended" (a log of a
    title the errata do not reach) or "error" (`message`). `at`: the action's number in the log
    (1-based; "12.2" for an auto action); `action` as the log has it; `rule`: the clause or rule;
    `fields`: (field, before, after) of the states after the action; `retaken`: field -> (logged,
    taken) where the amended rules took the action with another value; `then`: what became of the
    game under the amended rules after it; `actions`: the actions compared."""

    log: str
    title: str
    status: str
    actions: int = 0
    at: str | None = None
    number: int | None = None
    action: dict | None = None
    rule: str | None = None
    message: str | None = None
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)
    retaken: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    then: str | None = None
    #: where one side refused the action: why, "MESSAGE (RULE)" (the current rules' where the
    #: amended rules take it, else the amended rules')
    refused: str | None = None

    @property
    def changed(self) -> bool:
        return self.status in ("changes", "no longer replays")

    def text(self) -> str:
        """One paragraph: the log, the title, what happened."""
        head = f"{self.log} ({self.title}): "
        if self.status == "unchanged":
            return head + (f"unchanged: {self.message}" if self.message else f"unchanged ({self.actions} actions)")
        if self.status in ("not amended", "error"):
            return head + (self.message or self.status)
        what = "setup, before the first action" if self.number == 0 else f"action {self.at} {_short(self.action)}"
        rule = f" ({self.rule})" if self.rule else ""
        if self.status == "does not replay":
            return head + f"does not replay under the current rules either: refused at {what}: {self.message}{rule}"
        if self.status == "no longer replays":
            return head + f"no longer replays at {what}: {self.message}{rule}"
        lines = [head + f"changes at {what}{rule}"]
        if self.message:
            lines.append(f"    {self.message}")
        if self.retaken:
            lines.append("    the amended rules refuse it as logged and take it with "
                         + ", ".join(f"{k} {new!r} (logged {old!r})" for k, (old, new) in self.retaken.items()))
        if self.fields:
            more = len(self.fields) - MAX_FIELDS
            lines.append("    differs after it: " + "; ".join(f"{k} {_value(a)} -> {_value(b)}"
                                                           for k, a, b in self.fields[:MAX_FIELDS])
                         + (f"; and {more} more field{'s' if more != 1 else ''}" if more > 0 else ""))
        if self.then:
            lines.append(f"    then, under the amended rules: {self.then}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["fields"] = [{"field": k, "before": a, "after": b} for k, a, b in self.fields]
        out["retaken"] = {k: {"logged": a, "taken": b} for k, (a, b) in self.retaken.items()}
        return out


def _short(action: dict | None) -> str:
    if not action:
        return ""
    return json.dumps({k: v for k, v in action.items() if k not in ("created_at", "user", "original_id", "id")})


def _value(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """A state summary as {field path: value}: lists of records keyed by their `name` or `sym`
    (`players.Ann.cash`, `corporations.NYC.treasury`), other lists and scalars as they are."""
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(value, list) and value and all(isinstance(v, dict) and ("name" in v or "sym" in v) for v in value):
        for item in value:
            out.update(flatten(item, f"{prefix}.{item.get('name', item.get('sym'))}"))
    else:
        out[prefix] = value
    return out


def state_diff(before: dict, after: dict) -> list[tuple[str, Any, Any]]:
    """The fields whose values differ between two state summaries, in the summary's order; not those
    naming the rules played (`NAMING`)."""
    a, b = flatten(before), flatten(after)
    return [(k, a.get(k), b.get(k)) for k in dict.fromkeys(list(a) + list(b))
            if a.get(k) != b.get(k) and k not in NAMING]


def _clause_rule(title: Title, action: dict) -> str:
    """The action clause a logged action falls under, with its rulebook citations: `action buy_train
    (§"Buying Trains")`."""
    kind = str(action.get("type"))
    clause = title.get("action", kind)
    if clause is None:
        return f"action {kind}"
    cite = title.get("cite", f"action {kind}")
    citations = [str(c) for c in (cite.decl.prov.citations if cite is not None else ())] or [
        str(c) for c in clause.prov.citations]
    return f"action {kind}" + (f" ({', '.join(citations)})" if citations else "")


def _refusal(exc: Exception) -> tuple[str, str | None]:
    """(message, rule) of why an engine stopped on an action."""
    from compiler.runtime.errors import IllegalAction, InvariantViolation

    if isinstance(exc, IllegalAction):
        return exc.message, exc.rule
    if isinstance(exc, InvariantViolation):
        return f"its effects break {exc.invariant}: {exc.detail}", f"invariant {exc.invariant}"
    return str(exc), "a gap in the rulespec"


def _amount(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _retake(game, action: dict) -> tuple[dict, dict[str, tuple[Any, Any]]] | None:
    """The one legal action of `action`'s entity and type that differs from it in exactly one value,
    an amount (a price: not what is bought, nor who buys it), with that value as (logged, taken);
    None where there is not exactly one."""
    try:
        legal = game.legal_actions()
    except Exception:  # noqa: BLE001 - an engine error here means: nothing to retake
        return None
    action = game._from_log_ids(action)  # the site's ids ("B&O") as the engine's ("BO"), as `process` reads them
    found = []
    for candidate in legal:
        if candidate.get("type") != action.get("type") or str(candidate.get("entity")) != str(action.get("entity")):
            continue
        shared = [k for k in candidate if k in action]
        differing = [k for k in shared if candidate[k] != action[k]]
        if len(differing) == 1 and all(_amount(v) for v in (candidate[differing[0]], action[differing[0]])):
            found.append((candidate, {differing[0]: (action[differing[0]], candidate[differing[0]])}))
    return found[0] if len(found) == 1 else None


def compare_log(before_class, after_class, log: dict, *, name: str, title: Title, after_title: Title,
                to: int | None = None, follow: bool = True) -> GameImpact:
    """Replay `log` on a game of each class in step, the monitor after every action, and report the
    first action whose legality or effect differs (see the module's docstring). `to`: stop after the
    log's action numbered `to`; `follow`: after a change, play the log on under the amended rules
    alone and say how it ends (`then`)."""
    from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap
    from compiler.runtime.monitor import Monitor
    from compiler.runtime.sitelog import game_from_log, processed_actions

    stops = (IllegalAction, InvariantViolation, RuleGap)
    shown = title.display_name
    try:
        old, new = game_from_log(before_class, log), game_from_log(after_class, log)
    except RuleGap as exc:
        return GameImpact(name, shown, "error", message=f"cannot be set up: {exc}")
    watch_old, watch_new = Monitor(old), Monitor(new)
    steps = [s for s in processed_actions(log) if to is None or s.number <= to]
    first = state_diff(old.state(), new.state())
    if first:
        return GameImpact(name, shown, "changes", 0, "setup", 0, None, None, None, first,
                          then=_follow(new, Monitor(new), steps) if follow else None)
    for index, step in enumerate(steps):
        refused_old = refused_new = None
        try:
            old.process(step.action)
            watch_old.check(old, step.action)
        except stops as exc:
            refused_old = exc
        try:
            new.process(step.action)
            watch_new.check(new, step.action)
        except stops as exc:
            refused_new = exc
        at = dict(at=step.label, number=step.number, action=step.raw)
        if refused_old is not None:
            message, rule = _refusal(refused_old)
            if refused_new is not None:
                return GameImpact(name, shown, "does not replay", index, message=message, rule=rule, **at)
            return GameImpact(name, shown, "changes", index, rule=_clause_rule(after_title, step.action),
                              message=f"the amended rules take it; the current rules refuse it: {message} ({rule})",
                              then=_follow(new, watch_new, steps[index + 1:]) if follow else None,
                              refused=f"{message} ({rule})", **at)
        retaken = {}
        if refused_new is not None:
            message, rule = _refusal(refused_new)
            found = _retake(new, step.action) if isinstance(refused_new, IllegalAction) else None
            if found is None:
                return GameImpact(name, shown, "no longer replays", index, message=message, rule=rule, **at)
            other, retaken = found
            try:
                new.process(other)
                watch_new.check(new, other)
            except stops:
                return GameImpact(name, shown, "no longer replays", index, message=message, rule=rule, **at)
        differs = state_diff(old.state(), new.state())
        if differs or retaken:
            return GameImpact(name, shown, "changes", index, rule=_clause_rule(after_title, step.action),
                              fields=differs, retaken=retaken,
                              message=(f"refused as logged: {message} ({rule})" if retaken else None),
                              then=_follow(new, watch_new, steps[index + 1:]) if follow else None,
                              refused=f"{message} ({rule})" if retaken else None, **at)
    return GameImpact(name, shown, "unchanged", len(steps))


def _follow(game, watch, steps) -> str:
    """Play the rest of the log on `game` alone, retaking actions as `compare_log` does: how far it
    gets."""
    from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap

    stops = (IllegalAction, InvariantViolation, RuleGap)
    retaken = 0
    for step in steps:
        try:
            game.process(step.action)
            watch.check(game, step.action)
        except stops as exc:
            message, rule = _refusal(exc)
            refused = f"refused at action {step.label}: {message}" + (f" ({rule})" if rule else "")
            found = _retake(game, step.action) if isinstance(exc, IllegalAction) else None
            if found is None:
                return refused
            other = found[0]
            try:
                game.process(other)
                watch.check(game, other)
            except stops:
                return refused
            retaken += 1
    again = f" ({retaken} more action{'s' if retaken != 1 else ''} retaken)" if retaken else ""
    if game.finished:
        return f"replays to the end of the log{again}: " + ", ".join(f"{k} {v}" for k, v in game.result().items())
    return f"replays the {len(steps)} action{'s' if len(steps) != 1 else ''} after it{again}"


# ---------------------------------------------------------------- logs


def fixture_logs(amendment: Amendment) -> list[Path]:
    """The logs under ../shared/fixtures of a title the errata reach (none where the folder is absent)."""
    from compiler.lang.titles import plain_title_for_log

    root = paths.ROOT.parent / "shared" / "fixtures"
    found = []
    for path in sorted(root.glob("*/*.json")) if root.is_dir() else ():
        try:
            log = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(log, dict):
            continue
        title = plain_title_for_log(amendment.before, log)
        if title is not None and amendment.affected(title):
            found.append(path)
    return found


def log_files(targets: Iterable[Path]) -> list[Path]:
    """Log files named, folders searched for *.json."""
    out = []
    for target in targets:
        out.extend(sorted(target.rglob("*.json")) if target.is_dir() else [target])
    return out


@dataclass
class _Task:
    path: Path
    name: str
    log: dict | None
    before: Any = None
    after: Any = None
    title: Title | None = None
    after_title: Title | None = None
    result: GameImpact | None = None


def prepare(amendment: Amendment, paths_: list[Path], note: Callable[[str], None]) -> list[_Task]:
    """Each log read, its title found before and after, its engines built (once per title)."""
    from compiler.lang.titles import title_for_log
    from compiler.emit.engines import current_game_class, memory_game_class
    from compiler.runtime.errors import IllegalAction
    from compiler.runtime.sitelog import LogError, check_log, standing_actions

    engines: dict[tuple[str, str | None], tuple[Any, Any]] = {}
    tasks = []
    for path in paths_:
        name = paths.display(path)
        try:
            log = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            tasks.append(_Task(path, name, None, result=GameImpact(name, "?", "error", message=f"cannot read: {exc}")))
            continue
        for i, one in enumerate(log if isinstance(log, list) else [log]):
            shown = name if not isinstance(log, list) else f"{name}[{i}]"
            try:
                check_log(one)
                standing_actions(one["actions"])  # an undo or redo with nothing to take back
            except (LogError, IllegalAction) as exc:
                tasks.append(_Task(path, shown, None, result=GameImpact(shown, "?", "error",
                                                                         message=f"not a game log: {exc}")))
                continue
            title = title_for_log(amendment.before, one)
            if title is None:
                tasks.append(_Task(path, shown, None, result=GameImpact(
                    shown, "?", "error", message=f"no title matches the log's {one.get('title')!r}")))
                continue
            if not amendment.affected(title):
                tasks.append(_Task(path, shown, None, result=GameImpact(
                    shown, title.display_name, "not amended", message="the errata do not reach its title")))
                continue
            after = title_for_log(amendment.after, one)
            if not clause_changes(title, after):
                # an implementation's reading replaces every clause the errata change: same rules, same game
                tasks.append(_Task(path, shown, None, result=GameImpact(
                    shown, title.display_name, "unchanged", message=f"the rules it is played by do not change: "
                    f"{title.display_name} replaces every clause the errata change")))
                continue
            key = (title.name, title.variant)
            if key not in engines:
                current, why = current_game_class(title, amendment.before.sources)
                if why:
                    note(why)
                engines[key] = (current, memory_game_class(after, amendment.after.sources,
                                                           f"<{after.display_name} with {amendment.path}>"))
            tasks.append(_Task(path, shown, one, *engines[key], title, after))
    return tasks


#: the tasks the worker processes of `replay_all` compare, set before they fork
_TASKS: list[_Task] = []


def _run(index: int, to: int | None = None) -> tuple[int, GameImpact]:
    task = _TASKS[index]
    try:
        result = compare_log(task.before, task.after, task.log, name=task.name, title=task.title,
                             after_title=task.after_title, to=to)
    except Exception as exc:  # noqa: BLE001 - an engine error in one game is that game's result
        result = GameImpact(task.name, task.title.display_name, "error", message=f"{type(exc).__name__}: {exc}")
    return index, result


def replay_all(tasks: list[_Task], *, to: int | None, jobs: int | None, progress) -> list[GameImpact]:
    """Compare every prepared log, on `jobs` forked processes (every core by default; 1: here)."""
    import os
    from functools import partial

    todo = [i for i, t in enumerate(tasks) if t.result is None]
    for t in tasks:
        if t.result is not None:
            progress.advance()
    jobs = min(jobs or os.cpu_count() or 1, len(todo))
    _TASKS[:] = tasks
    try:
        if jobs <= 1:
            for i in todo:
                progress.item(tasks[i].name)
                tasks[i].result = _run(i, to)[1]
                progress.advance()
        else:
            import multiprocessing
            from concurrent.futures import as_completed

            from compiler.progress import worker_pool

            with worker_pool(jobs, multiprocessing.get_context("fork")) as pool:
                futures = [pool.submit(partial(_run, to=to), i) for i in todo]
                for future in as_completed(futures):
                    i, result = future.result()
                    tasks[i].result = result
                    progress.item(tasks[i].name)
                    progress.advance()
    finally:
        _TASKS.clear()
    return [t.result for t in tasks]  # type: ignore[misc]


# ---------------------------------------------------------------- proofs


@dataclass
class ProofChange:
    """An invariant check whose status the errata change (`before`/`after` None: the check does not
    exist on that side); `detail`: the amended side's counterexample or reason."""

    invariant: str
    transition: str
    before: str | None
    after: str | None
    detail: str | None = None

    def text(self) -> str:
        out = f"{self.invariant} after {self.transition}: {self.before or 'no check'} -> {self.after or 'no check'}"
        return out + ("\n" + _indent(self.detail, "      ") if self.detail else "")


@dataclass
class ProofImpact:
    """What the errata do to a title's proofs: `rechecked` of `checks` had a different key (so were
    checked on both sides, through the cache); `changes` those whose status differs; `skipped` says
    why nothing was checked."""

    title: str
    checks: int = 0
    rechecked: int = 0
    changes: list[ProofChange] = field(default_factory=list)
    #: the transitions ("init" for the initial state) with a check checked again
    transitions: list[str] = field(default_factory=list)
    skipped: str | None = None

    def text(self) -> str:
        if self.skipped:
            return f"proofs of {self.title}: {self.skipped}"
        where = f" (after {', '.join(self.transitions)})" if self.transitions else ""
        head = (f"proofs of {self.title}: {self.rechecked} of {self.checks} checks{where} read what the errata change; "
                + (f"{len(self.changes)} change status" if self.changes else "no status changes"))
        return "\n".join([head] + ["  " + c.text() for c in self.changes])

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _indent(text: str, pad: str) -> str:
    return "\n".join(pad + line for line in text.splitlines())


def _compare_checks(old, new, name: str) -> tuple[int, int, list[ProofChange]]:
    """One transition ("init": the initial state) on two verifiers: how many checks it has, how
    many have a different key (checked on both sides, through their caches), and the status changes."""
    if name == "init":
        a, b = old.init_keys(), new.init_keys()
        old_keys, new_keys = a[0], b[0]
        check_old, check_new = (lambda: old.check_init(a)), (lambda: new.check_init(b))
    else:
        old_tn = next((tn for tn in old.transitions if tn.name == name), None)
        new_tn = next((tn for tn in new.transitions if tn.name == name), None)
        a = old.check_keys(old_tn) if old_tn is not None else ({}, None)
        b = new.check_keys(new_tn) if new_tn is not None else ({}, None)
        old_keys, new_keys = a[0], b[0]
        check_old, check_new = (lambda: old.check_transition(old_tn, a)), (lambda: new.check_transition(new_tn, b))
    every = set(old_keys) | set(new_keys)
    differ = {inv for inv in every if old_keys.get(inv) != new_keys.get(inv)}
    changes = []
    if differ:
        was = {r.invariant: r for r in check_old()} if old_keys else {}
        now = {r.invariant: r for r in check_new()} if new_keys else {}
        for inv in sorted(differ):
            x, y = was.get(inv), now.get(inv)
            if (x.status if x else None) != (y.status if y else None):
                changes.append(ProofChange(inv, name, x.status if x else None, y.status if y else None,
                                           (y.detail or y.reason) if y else None))
    return len(every), len(differ), changes


#: In `proof_changes`' worker processes: the two titles and the cache as the parent held it (set
#: before they fork), and each worker's own two verifiers.
_PROOFS: dict[str, Any] = {}


def _proof_one(name: str) -> tuple[str, tuple[int, int, list[ProofChange]], dict[str, Any]]:
    """In a worker: `_compare_checks` for one transition; with the cache entries it added."""
    from compiler.verify.pool import _RecordingCache
    from compiler.verify.verifier import Verifier

    cache = _RecordingCache(_PROOFS["cache"])
    if "verifiers" not in _PROOFS:
        _PROOFS["verifiers"] = (Verifier(_PROOFS["before"]), Verifier(_PROOFS["after"]))
    old, new = _PROOFS["verifiers"]
    old.cache = new.cache = cache
    return name, _compare_checks(old, new, name), cache.added


def proof_changes(before: Title, after: Title, *, cache=None, progress: Callable[[str], None] | None = None,
                  jobs: int | None = 1) -> ProofImpact:
    """Check, on both titles, every (invariant, transition) whose cache key differs between them
    (`Verifier.check_keys`, `init_keys`), and list those whose status differs. A check whose key is
    the same has the same result on both sides and is not run. `jobs`: processes (forked, as
    `pool.warm`'s; every core when None), each translating and checking whole transitions."""
    import os

    from compiler.verify.verifier import Cache, Verifier
    from compiler.verify.model import GapError, Unsupported

    report = ProofImpact(before.display_name)
    cache = cache or Cache.default()
    try:
        old, new = Verifier(before, cache=cache), Verifier(after, cache=cache)
    except (GapError, Unsupported) as exc:
        report.skipped = f"the verifier cannot model it: {exc}"
        return report
    progress = progress or (lambda text: None)
    names = ["init"] + list(dict.fromkeys([tn.name for tn in new.transitions] + [tn.name for tn in old.transitions]))
    found: dict[str, tuple[int, int, list[ProofChange]]] = {}
    jobs = min(jobs or os.cpu_count() or 1, len(names))
    if jobs <= 1:
        for name in names:
            progress(f"{before.display_name}: {name}")
            found[name] = _compare_checks(old, new, name)
    else:
        import multiprocessing
        from concurrent.futures import as_completed

        from compiler.progress import worker_pool

        _PROOFS.update(before=before, after=after, cache=cache.data)
        try:
            with worker_pool(jobs, multiprocessing.get_context("fork")) as pool:
                for future in as_completed([pool.submit(_proof_one, name) for name in names]):
                    name, result, added = future.result()
                    found[name] = result
                    for key, value in added.items():
                        cache.put(key, value)
                    progress(f"{before.display_name}: {name}")
        finally:
            _PROOFS.clear()
    for name in names:
        checks, rechecked, changes = found[name]
        report.checks += checks
        report.rechecked += rechecked
        report.transitions += [name] if rechecked else []
        report.changes += changes
    cache.save()
    return report


# ---------------------------------------------------------------- the engine


@dataclass
class EngineChange:
    """A top-level definition of the generated engine that changes (`name`: a function, `DATA`, a
    method `Game.x`), with its unified diff (at most `MAX_DIFF_LINES` lines)."""

    name: str
    diff: list[str]


def _definitions(source: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each top-level definition and each method of a class."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((node.name, node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.append((f"{node.name}.{item.name}", item.lineno, item.end_lineno or item.lineno))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    out.append((target.id, node.lineno, node.end_lineno or node.lineno))
    return out


def engine_changes(before_source: str, after_source: str) -> list[EngineChange]:
    """The definitions of an emitted engine that differ, each with a short unified diff. `SOURCES`
    (the digests of the rulespecs read) is bookkeeping and left out."""
    old, new = before_source.splitlines(), after_source.splitlines()
    defs = _definitions(after_source)
    olddefs = {name: (a, b) for name, a, b in _definitions(before_source)}
    out = []
    for name, a, b in defs:
        if name == "SOURCES":
            continue
        if name not in olddefs:
            body = new[a - 1:b]
            out.append(EngineChange(name, [f"+{line}" for line in body][:MAX_DIFF_LINES]))
            continue
        oa, ob = olddefs[name]
        if old[oa - 1:ob] == new[a - 1:b]:
            continue
        lines = list(difflib.unified_diff(old[oa - 1:ob], new[a - 1:b], "before", "after", n=2, lineterm=""))[2:]
        if len(lines) > MAX_DIFF_LINES:
            lines = lines[:MAX_DIFF_LINES] + [f"... {len(lines) - MAX_DIFF_LINES} more lines"]
        out.append(EngineChange(name, lines))
    names = {name for name, _, _ in defs}
    out.extend(EngineChange(name, ["(removed)"]) for name in olddefs if name not in names)
    return out


# ---------------------------------------------------------------- the whole report


@dataclass
class TitleImpact:
    """What the errata change in one title's rules: its clauses, its proofs, its engine."""

    title: str
    clauses: list[ClauseChange]
    proofs: ProofImpact | None
    engine: list[EngineChange]

    @property
    def wording_only(self) -> bool:
        return all(c.change == "wording" for c in self.clauses)

    def text(self) -> str:
        lines = [f"{self.title}: " + (", ".join(str(c) for c in self.clauses) or "no clause changes")]
        if self.proofs is not None:
            lines.append("  " + self.proofs.text().replace("\n", "\n  "))
        if self.engine:
            lines.append("  engine: " + ", ".join(c.name for c in self.engine) + " change")
            for change in self.engine:
                lines.append(f"    {change.name}:")
                lines.extend("      " + line for line in change.diff)
        else:
            lines.append("  engine: unchanged")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "clauses": [dataclasses.asdict(c) for c in self.clauses],
                "wording_only": self.wording_only, "proofs": self.proofs.to_json() if self.proofs else None,
                "engine": [dataclasses.asdict(c) for c in self.engine]}


@dataclass
class Impact:
    """The whole report: the errata, each game, each amended title."""

    errata: str
    units: list[str]
    games: list[GameImpact]
    titles: list[TitleImpact]
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """"3 of 9 games change; the first at action 212"; for wording only, that it changes nothing."""
        measured = [g for g in self.games if g.status not in ("not amended", "error")]
        changed = [g for g in measured if g.changed]
        if not measured:
            text = "no game to compare"
        else:
            text = (f"{len(changed)} of {len(measured)} game{'s' if len(measured) != 1 else ''} "
                    f"change{'s' if len(changed) == 1 else ''}")
        if changed:
            first = min(g.number or 0 for g in changed)
            text += f"; the first at action {first}" if first else "; the first at setup"
        errors = sum(g.status == "error" for g in self.games)
        if errors:
            text += f"; {errors} log{'s' if errors != 1 else ''} in error (above)"
        failing = sum(len(t.proofs.changes) for t in self.titles if t.proofs)
        if failing:
            text += f"; {failing} proof status{'es' if failing != 1 else ''} change{'s' if failing == 1 else ''}"
        if self.titles and all(t.wording_only for t in self.titles):
            text += "; the errata only reword or re-cite: no rule changes its meaning"
        return text

    def text(self) -> str:
        lines = [f"{self.errata}: " + "; ".join(self.units), "", "games:"]
        lines += ["  " + g.text().replace("\n", "\n  ") for g in self.games] or ["  none"]
        lines.append("")
        for title in self.titles:
            lines.append(title.text())
        lines += ["", self.summary()]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"errata": self.errata, "units": self.units, "summary": self.summary(),
                "games": [g.to_json() for g in self.games], "titles": [t.to_json() for t in self.titles]}


def title_impact(amendment: Amendment, name: str, *, proofs: bool = True, progress=None, cache=None,
                 jobs: int | None = 1, variant: str | None = None) -> TitleImpact:
    """The clauses, proofs and engine functions the errata change in title `name` itself, or in its
    variant `variant` (a plain variant or an implementation's reading, as `Program.variants` names
    it)."""
    from compiler.emit.emitter import emit_title

    if variant is None:
        before, after = amendment.before.program.titles[name], amendment.after.program.titles[name]
    else:
        before, after = amendment.before.program.variants[(name, variant)], amendment.after.program.variants[(name, variant)]
    clauses = clause_changes(before, after)
    wording = all(c.change == "wording" for c in clauses)
    if not proofs:
        report = None
    elif not clauses:
        report = ProofImpact(before.display_name, skipped="the errata change none of its clauses "
                                                          "(its own clauses replace those they change)")
    elif wording:
        report = ProofImpact(before.display_name, skipped="the errata change only wording and citations; "
                                                          "no check can change status")
    else:
        report = proof_changes(before, after, progress=progress, cache=cache, jobs=jobs)
    engine = engine_changes(emit_title(before, amendment.before.sources), emit_title(after, amendment.after.sources))
    return TitleImpact(before.display_name, clauses, report, engine)


def amendment_titles(amendment: Amendment) -> list[tuple[str, str | None]]:
    """(title, variant) of each title the errata name, then each of its variants and of the
    implementations' readings on top of it (the erratum applies to them too), in the rulespecs'
    order; a variant the errata leave alone is there too (its proofs and engine say so)."""
    out: list[tuple[str, str | None]] = []
    for name in amendment.titles:
        out.append((name, None))
        after = set(amendment.after.program.variant_names(name))
        out.extend((name, v) for v in amendment.before.program.variant_names(name) if v in after)
    return out


def impact(errata: Path, logs: list[Path] | None = None, *, to: int | None = None, jobs: int | None = None,
           proofs: bool = True, rules: list[Path] | None = None, cache=None, variants: bool = True) -> Impact:
    """The whole report (see the module's docstring). `logs`: files or folders (default: the
    fixture logs of the amended titles); `to`: compare each log up to its action `to`; `jobs`:
    processes for the logs and the proofs (every core when None); `proofs`: False leaves the verifier out; `rules`: the rulespec files or
    folders (rulespecs/ by default); `cache`: the verifier's (its default cache when None);
    `variants`: False leaves the amended titles' variants out of the proofs and the engine diff.
    Raises `ImpactError`."""
    from compiler.progress import current

    amendment = amend(errata, rules)
    notes: list[str] = []
    chosen = log_files(logs) if logs else fixture_logs(amendment)
    progress = current()
    tasks = prepare(amendment, chosen, notes.append)
    with progress.stage("impact: games", len(tasks), "games") as stage:
        games = replay_all(tasks, to=to, jobs=jobs, progress=stage)
    titles = []
    every = amendment_titles(amendment) if variants else [(name, None) for name in amendment.titles]
    with progress.stage("impact: proofs and engine", len(every), "titles") as stage:
        for name, variant in every:
            stage.next(name if variant is None else f"{name} ({variant})")
            titles.append(title_impact(amendment, name, proofs=proofs, progress=stage.item, cache=cache, jobs=jobs,
                                       variant=variant))
    return Impact(amendment.path, amendment.units, games, titles, list(dict.fromkeys(notes)))


# ---------------------------------------------------------------- the page


def write_html(report: Impact, folder: Path) -> Path:
    """The report as one page, `folder/index.html` (self-contained)."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    page = env.get_template("impact.html.j2").render(report=report, short=_short, value=_value)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "index.html"
    out.write_text(page, encoding="utf-8")
    return out
