"""`rulec`: the command line (see ARCHITECTURE.md, "The command line").

Exit codes: 0 ok; 1 the input or the rules are at fault (diagnostics
printed); 2 a usage error, or a stage that is not built yet.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from compiler import __version__
from compiler.app.command import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, engine_of, find_title, load, played_title,
                                  players_refusal, refused, title_for_log)
from compiler.diagnostics import Severity, error, render, to_json
from compiler.names import slug
from compiler.progress import Progress, configure as configure_progress, current as progress

if TYPE_CHECKING:
    from compiler.lang.ir import Title
    from compiler.lang.pipeline import Loaded


#: Commands that read the rulespecs and print: they run with the cyclic garbage collector off
#: (a loaded program is some 200,000 small objects that live to the end; the collector would
#: walk them again and again for nothing it can free).
QUICK = frozenset({"check", "titles", "coverage"})

#: `rulec validate`'s games without --games (and up to 4 times as many while an action is short of --want)
DEFAULT_VALIDATE_GAMES = 3

#: Stages of `rulec build`, in order.
STAGES = ("check", "compile", "verify", "docs")


# ---------------------------------------------------------------- output


class Output:
    """Where a command writes its text (stdout unless told otherwise)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stdout

    def line(self, text: str = "") -> None:
        print(text, file=self.stream)


def _print_diagnostics(loaded: Loaded, out: Output, show: set[Severity]) -> None:
    for diagnostic in loaded.diagnostics:
        if diagnostic.severity not in show:
            continue
        out.line(render(diagnostic, loaded.sources))
        out.line()


def _counts(loaded: Loaded) -> dict[str, int]:
    counts = defaultdict(int)
    for diagnostic in loaded.diagnostics:
        counts[diagnostic.severity.value] += 1
    return counts


# ---------------------------------------------------------------- commands


def cmd_check(args) -> int:
    from compiler import paths as project_paths

    files = bool(args.paths) and all(Path(p).is_file() for p in args.paths)
    wanted = frozenset(project_paths.display(Path(p)) for p in args.paths) if files else None
    overlaid = _as_map_overlay([Path(p) for p in args.paths]) if files and len(args.paths) == 1 else None
    if overlaid is not None:
        loaded, said = overlaid
        if args.format != "json":
            print(said)
    else:
        # a file of rulespecs/ is read with what it builds on, not with every title (`needed_files`)
        loaded = load([Path(p) for p in args.paths] or None, checking=wanted, needed=True)
    if wanted is not None:
        # report on the files asked about; the others were read for context
        loaded.diagnostics = [d for d in loaded.diagnostics if d.span is None or d.span.path in wanted]
    if args.format == "json":
        print(to_json(loaded.diagnostics))
        return EXIT_OK if loaded.ok else EXIT_FAIL
    out = Output()
    shown = {Severity.ERROR, Severity.WARNING} | ({Severity.NOTE} if args.notes else set())
    _print_diagnostics(loaded, out, shown)
    counts = _counts(loaded)
    titles = len(loaded.program.titles) if overlaid is None else 1
    variants = len(loaded.program.variants) if overlaid is None else 0
    out.line(
        f"checked {_count(len(loaded.files), 'file')}, {_count(titles, 'title')}, {_count(variants, 'variant')}: "
        f"{_count(counts['error'], 'error')}, {_count(counts['warning'], 'warning')}, {_count(counts['note'], 'note')}"
        + ("" if args.notes or not counts["note"] else " (--notes shows them)")
    )
    return EXIT_OK if loaded.ok else EXIT_FAIL


def _as_map_overlay(targets: list[Path]):
    """(the rulespecs loaded, with the overlay's diagnostics; a line saying how it was checked) for a
    file outside rulespecs/ holding only errata of one of rulespecs/' titles: a map overlay, checked
    as `--map` applies it, on its title or on the variant of it where it has the fewest errors (an
    overlay of 1880 Romania's Amira variant fills clauses only the variant declares). None otherwise:
    checked alone, such a file named an unknown title ("titles defined: none")."""
    from compiler import paths
    from compiler.lang.check import check_title
    from compiler.lang.parse import parse_file
    from compiler.lang.pipeline import within
    from compiler.lang.resolve import resolve_overlaid

    (target,) = targets
    if within(target, paths.RULESPECS):
        return None
    shown = paths.display(target)
    module, found, text = parse_file(target, shown)
    units = module.units if module is not None else ()
    if not units or any(u.kind != "errata" for u in units) or len({u.base for u in units}) != 1:
        return None
    from compiler.diagnostics import error
    from compiler.lang.schema import did_you_mean, nearest
    from compiler.names import slug

    from compiler.lang.pipeline import title_files

    # the title it amends, with its variants and what they build on; every rulespec where no head
    # names it (the unknown title below, with the titles there are)
    amended = title_files(units[0].base or "")
    loaded = load([paths.RULESPECS], check=False, only=amended)
    loaded.sources.add(shown, text)
    # the title as `--map` finds it, by slug ("18 grand junction" plays on 18 Grand Junction)
    base = next((t for t in loaded.program.titles if slug(t) == slug(units[0].base or "")), None)
    if base is None:
        # checked alone, it named an unknown title among none ("help: titles defined: none")
        titles = sorted(loaded.program.titles)
        loaded.diagnostics = [error(
            "E010", f"errata {units[0].name!r} of unknown title {units[0].base!r}: a map overlay is errata of "
                    "one of rulespecs/' titles" + did_you_mean(nearest(units[0].base or "", titles)),
            units[0].base_span, help="titles: " + ", ".join(titles))]
        loaded.files = [shown]
        return loaded, f"{shown}: a map overlay (errata outside rulespecs/), checked with rulespecs/"
    best = None
    for variant in [None, *(v for v in loaded.program.variant_names(base)
                            if loaded.program.variants[(base, v)].reading is None)]:
        resolved, diagnostics = resolve_overlaid(loaded.modules, units, base, variant)
        if resolved is None:
            continue
        own = [d for d in diagnostics + check_title(resolved) if d.span is not None and d.span.path == shown]
        if best is None or sum(d.is_error for d in own) < sum(d.is_error for d in best[1]):
            best = (variant, own)
        if not any(d.is_error for d in best[1]):
            break
    if best is None:
        return None
    variant, own = best
    loaded.diagnostics = sorted(own, key=lambda d: (d.span.line, d.span.column))
    loaded.files = [shown]
    on = f"{base!r}" + (f", variant {variant!r} (as `--variant {variant!r} --map FILE` plays it)" if variant else "")
    return loaded, f"{shown}: a map overlay: errata of {on}, checked with rulespecs/"


def _count(n: int, noun: str) -> str:
    """"1 title", "5 titles"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def cmd_lsp(args) -> int:
    from compiler.app.lsp import main as serve

    configure_progress(Progress())  # stdout carries the protocol: no progress lines on it
    return serve()


def _title_rows() -> tuple[list[dict], bool]:
    """The titles, their players ranges and variants, and whether the rulespecs have errors: from
    the listing cache when the rulespecs and the code reading them are unchanged (`rulec titles` in
    a tenth of a second), else loaded and kept (only a listing loaded without errors is kept)."""
    from compiler import paths
    from compiler.emit.launch import fingerprint

    folder = paths.cache_dir("titles")
    key = fingerprint()  # the rulespecs' and the front end's code, as `rulec play`'s start-up keys its answers
    cached = folder / f"{key}.json" if folder is not None else None
    if cached is not None and cached.is_file():
        try:
            return json.loads(cached.read_text(encoding="utf-8")), False
        except (OSError, ValueError):
            pass  # a damaged entry: loaded again below
    loaded = load(check=False)
    if loaded.errors:
        _print_diagnostics(loaded, Output(sys.stderr), {Severity.ERROR})
    rows = _rows_of(loaded)
    if cached is not None and not loaded.errors:
        for old in folder.glob("*.json"):
            old.unlink(missing_ok=True)
        tmp = cached.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
            tmp.replace(cached)
        except OSError:
            tmp.unlink(missing_ok=True)  # a cache that cannot be written: the next call loads again
    return rows, bool(loaded.errors)


def cmd_titles(args) -> int:
    rows, failed = _title_rows()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_FAIL if failed else EXIT_OK
    print(_titles_table(rows, sys.stdout))
    return EXIT_FAIL if failed else EXIT_OK


def _titles_table(rows: list[dict], stream) -> str:
    """`rulec titles`' table (rich): a row per title, its variants indented under it, the columns as wide
    as their longest cell ("Two-Player, 18xx.games"); on a terminal its header in bold, elsewhere plain
    text, never wrapped; no trailing spaces."""
    import io

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, pad_edge=False, header_style="bold", show_edge=False)
    table.add_column("title (variants indented)", no_wrap=True)
    for name in ("players", "slug", "extends"):
        table.add_column(name, no_wrap=True)
    for row in rows:
        # each cell as plain text: a name's `[...]` is no markup ("Three-Player [rev]", "[/b]")
        table.add_row(*map(Text, (row["title"], row["players"], row["slug"], row["extends"] or "")))
        for variant in row["variants"]:
            table.add_row(*map(Text, (f"  {variant['name']}", variant["players"], variant["slug"], "")))
    terminal = getattr(stream, "isatty", lambda: False)()
    console = Console(file=io.StringIO(), width=10_000, force_terminal=terminal, color_system="standard" if terminal else None,
                      highlight=False)
    console.print(table)
    return "\n".join(line.rstrip() for line in console.file.getvalue().rstrip("\n").splitlines())


def _rows_of(loaded: "Loaded") -> list[dict]:
    rows = []
    for name, title in sorted(loaded.program.titles.items()):
        players = title.players
        rows.append({
            "title": name,
            "slug": slug(name),
            "players": f"{players[0]}..{players[1]}" if players else "?",
            "extends": title.extends,
            "variants": [
                {"name": v, "slug": slug(v), "players": _players(loaded.program.variants[(name, v)])}
                for v in loaded.program.variant_names(name)
            ],
        })
    return rows


def _players(title: Title) -> str:
    players = title.players
    return f"{players[0]}..{players[1]}" if players else "?"


def cmd_coverage(args) -> int:
    from compiler.docs.coverage import coverage_report

    loaded = load()
    title = find_title(loaded, args.title, args.variant)
    if title is None:
        known = ", ".join(sorted(loaded.program.titles))
        print(render(error("E090", f"no title {args.title!r}" + (f" with variant {args.variant!r}" if args.variant else ""),
                           help=f"titles: {known}"), loaded.sources), file=sys.stderr)
        return EXIT_FAIL
    report = coverage_report(title)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report.to_text())
    return EXIT_OK if loaded.ok else EXIT_FAIL


def _compile(loaded: Loaded, check_only: bool, out: Output, folder: Path | None = None,
             remember: bool = False) -> tuple[bool, list[str]]:
    """Emit every title and variant (into `folder`, generated/ unless told). Returns (ok, changed paths).
    `remember`: the engines' text is kept in the build cache, and taken from it while every file
    read and the compiler's code are those it was emitted from (`rulec build`)."""
    from compiler import memo, paths
    from compiler.emit.emitter import outputs
    from compiler.emit.pieces import EmitError

    folder = folder or paths.GENERATED
    key = memo.digest(memo.code(), *(part for shown in loaded.files
                                      for part in (shown, loaded.sources.text(shown) or "\0absent")))
    try:
        files = memo.recall("compile", key) if remember else None
        if not isinstance(files, dict):
            files = outputs(loaded.every_title(), loaded.sources, remember=remember)
            if remember:
                memo.keep("compile", key, files)
    except EmitError as exc:
        where = f"{exc.span}: " if exc.span else ""
        out.line(f"{where}error: cannot compile: {exc}")
        return False, []
    files = {folder / path.relative_to(paths.GENERATED): text for path, text in files.items()}
    changed = []
    expected = set(files)
    stale_extra = [p for p in folder.glob("*.py") if p not in expected]
    for path, text in sorted(files.items()):
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            changed.append(path)
            if not check_only:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    for path in stale_extra:
        changed.append(path)
        if not check_only:
            path.unlink()
    return True, [paths.display(p) for p in changed]


def cmd_compile(args) -> int:
    from compiler import paths
    from compiler.lang.pipeline import within

    own = [p for p in args.paths if not within(Path(p), paths.RULESPECS)]
    if own and not args.out:
        # generated/ holds the engines of rulespecs/ alone: written from other files, it would lose the rest
        print(f"rulec compile: {own[0]} is not in rulespecs/; rulespecs of your own need --out DIR "
              "(generated/ holds rulespecs/' engines)", file=sys.stderr)
        return EXIT_USAGE
    loaded = load([Path(p) for p in args.paths] or None)
    out = Output()
    if not loaded.ok:
        _print_diagnostics(loaded, out, {Severity.ERROR})
        return EXIT_FAIL
    folder = Path(args.out) / "generated" if args.out else None
    ok, changed = _compile(loaded, args.check, out, folder)
    if not ok:
        return EXIT_FAIL
    shown = paths.display(folder) if folder else "generated/"
    if args.check:
        if changed:
            out.line(f"{shown} is stale; run `rulec compile`:")
            for path in changed:
                out.line(f"  {path}")
            return EXIT_FAIL
        out.line(f"{shown} is up to date ({len(loaded.every_title())} engines)")
        return EXIT_OK
    out.line(f"compiled {len(loaded.every_title())} engines; {len(changed)} files changed")
    for path in changed:
        out.line(f"  {path}")
    return EXIT_OK


def cmd_build(args) -> int:
    from compiler import paths

    if args.paths and not args.out:
        print("rulec build: rulespecs of your own need --out DIR (generated/ and site/ hold rulespecs/' titles)",
              file=sys.stderr)
        return EXIT_USAGE
    with progress().stage("check"):
        loaded = load([Path(p) for p in args.paths] or None, remember=True)
    generated = Path(args.out) / "generated" if args.out else paths.GENERATED
    site = Path(args.out) / "site" if args.out else paths.SITE
    out = Output()
    _print_diagnostics(loaded, out, {Severity.ERROR})
    counts = _counts(loaded)
    titles = loaded.every_title()
    rules = sum(len([c for c in t.clauses if c.origin.kind != "library"]) for t in loaded.program.titles.values())
    gaps = sum(1 for t in titles for _ in t.gaps())
    out.line("rulec build")
    out.line(f"  check    {'ok' if loaded.ok else 'FAILED'}: {_count(len(loaded.program.titles), 'title')}, "
             f"{_count(len(loaded.program.variants), 'variant')}, {_count(rules, 'clause')}, "
             f"{_count(gaps, 'declared gap')}, "
             f"{_count(counts['error'], 'error')}, {_count(counts['warning'], 'warning')} (`rulec check` shows them)")
    if not loaded.ok:
        for stage in STAGES[1:]:
            out.line(f"  {stage:<8} skipped: the check failed")
        return EXIT_FAIL
    with progress().stage("compile", len(titles), "engines") as stage:
        ok, changed = _compile(loaded, False, out, generated, remember=True)
        stage.advance(len(titles) if ok else 0)
    out.line(f"  compile  {'ok' if ok else 'FAILED'}: {len(titles)} engines, {len(changed)} files changed")
    if not ok:
        return EXIT_FAIL
    # the committed record is read too when the site goes elsewhere (`--out DIR`): a title whose
    # fingerprint there is its own now is proved already, whatever folder its pages are written to
    records = [] if args.reprove else list(dict.fromkeys([site, paths.SITE]))
    reports = _build_verify(loaded, out, args.jobs, records)
    if reports is None:
        return EXIT_FAIL
    import io

    from compiler.docs.build import build

    log = io.StringIO()
    code = build(out=log, loaded=loaded, root=site, generated=generated, reports=reports, remember=True)
    pages = sum(1 for _ in (site / "docs").rglob("*.md"))
    out.line(f"  docs     {'ok' if code == 0 else 'FAILED'}: {pages} pages, mkdocs build --strict")
    if code != 0:
        out.line(log.getvalue())
        return EXIT_FAIL
    return EXIT_OK


def _build_verify(loaded: Loaded, out: "Output", jobs: int | None = None,
                  sites: list[Path] = ()) -> dict | None:
    """The verify stage of `rulec build`: every title and variant, through the
    verify cache. Returns the reports by display name (the docs stage shows
    them), None when the stage failed. A title whose record under one of
    `sites`, the first that has it fresh (`proofs.json`, `compiler.docs.proofs`;
    the site written to, then the committed one) is fresh — its fingerprint, the
    verifier's version and the text of the title's files, is the title's now —
    is taken from the record, as `rulec docs` takes it: nothing it depends on has
    changed since the verifier gave it, so a build with nothing changed proves
    nothing again, and an erratum proves again only the titles it touches (and,
    through the verify cache, only their checks whose transition, or what it reads
    of the title, changed).

    A counterexample, an unknown or a failed table check fails the build. A
    check that cannot be made because the title still declares a gap (or uses
    a construct the translation does not support) is counted and listed by
    `rulec verify`, but does not fail the build: the title is unfinished, not
    wrong.
    """
    import io

    from compiler import paths
    from compiler.verify import pool
    from compiler.verify import verifier as verify
    from compiler.docs.proofs import recorded, seed_cache

    cache = verify.Cache.default()
    selected = verify.select_titles(loaded, None)
    fresh: dict = {}
    taken_from: list[Path] = []
    records = []
    for site in sites:
        record = recorded(loaded, site)
        records.append(record)
        found = {t.display_name: record.reports[t.display_name] for t in selected
                 if t.display_name not in fresh and t.display_name in record.reports
                 and t.display_name not in record.stale}
        if found:
            fresh.update(found)
            taken_from.append(site / "proofs.json")
    left = [t for t in selected if t.display_name not in fresh]
    reports = []
    # the stale titles' recorded results (in every record read: the site written to, then the
    # committed one), filed by key: only the checks an erratum changed are solved
    for record in records:
        seed_cache(cache, record, [t.display_name for t in left])
    if left:
        # said before the work, not only when it ends: a fresh clone whose record is stale proves for minutes
        progress().say(f"verify: {len(left)} of {len(selected)} titles and variants are not in a fresh proof "
                       "record: their checks are proved again (minutes on 2 cores for all of them; what "
                       "is solved is kept in the verify cache)")
        with progress().stage("verify: checks on every core") as stage:
            pool.warm(left, cache, jobs, progress=stage.item)
    with progress().stage("verify", len(selected), "titles") as stage:
        for title in selected:
            stage.next(title.display_name)
            if title.display_name in fresh:
                reports.append(fresh[title.display_name])
            else:
                reports.append(verify.verify_title(title, cache=cache, progress=stage.item))
    totals: dict[str, int] = {}
    for report in reports:
        for status, count in report.counts().items():
            totals[status] = totals.get(status, 0) + count
    wrong = [r for r in reports if r.error is not None
             or any(x.status in verify.FAILING for x in r.results)
             or any(t.status == "failed" for t in r.tables)]
    complete = sum(1 for r in reports if r.ok)
    out.line(f"  verify   {'ok' if not wrong else 'FAILED'}: {complete} of {len(reports)} titles and variants "
             "fully proved; " + ", ".join(f"{v} {k}" for k, v in totals.items() if v)
             + " (`rulec verify` shows them)"
             + (f"; {len(fresh)} taken from the fresh record ("
                + ", ".join(paths.display(p) for p in taken_from) + ")" if fresh else ""))
    for report in wrong:
        log = io.StringIO()
        verify.render_report(report, log)
        out.line(log.getvalue())
    return None if wrong else {r.title: r for r in reports}


def cmd_replay(args) -> int:
    """Replay one log, or a list of logs (as `rulec play --log` writes for many games)."""
    try:
        text = Path(args.log).read_text(encoding="utf-8")
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"rulec replay: {_json_error(args.log, text, exc)}", file=sys.stderr)
        return EXIT_FAIL
    except (OSError, ValueError) as exc:
        # the reason alone ("No such file or directory"), not OSError's text, which names the path again
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
            "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
        print(f"rulec replay: cannot read {args.log}: {reason}", file=sys.stderr)
        return EXIT_FAIL
    from compiler.runtime.sitelog import LogError, check_log

    logs = data if isinstance(data, list) else [data]
    if not logs:
        print(f"rulec replay: {args.log} holds no game log (an empty list)", file=sys.stderr)
        return EXIT_FAIL
    for i, log in enumerate(logs):
        try:
            check_log(log)
        except LogError as exc:
            where = f"{args.log}" + (f", log {i + 1} of {len(logs)}" if isinstance(data, list) else "")
            print(f"rulec replay: {where} is not a game log: {exc}", file=sys.stderr)
            return EXIT_FAIL
    for log in logs:
        # `rulec play PATH --log` / `--map FILE --log` record what the game was played under
        if isinstance(log.get("rules"), str):
            print(f"rulec replay: note: the log was played under the rules of {log['rules']}; it is replayed "
                  f"under rulespecs/' {log.get('title')}", file=sys.stderr)
        if isinstance(log.get("map"), str) and not args.map:
            print(f"rulec replay: note: the log was played with --map {log['map']}; it is replayed without it "
                  f"(give --map {log['map']})", file=sys.stderr)
    front = _Front()
    records = []
    status = EXIT_OK
    reporting = progress() if len(logs) > 1 else Progress()  # one log: what it prints says enough
    with reporting.stage("replay", len(logs), "logs") as stage:
        for log in logs:
            stage.next(str(log.get("id", log.get("title", ""))))
            code, record = _replay_one(front, log, args)
            status = max(status, code)
            if record is not None:
                records.append(record)
    if args.json:
        print(json.dumps(records[0] if not isinstance(data, list) and records else records, indent=2))
    return status


def _json_error(path: str, text: str, exc: json.JSONDecodeError) -> str:
    """A log that is not JSON, as a diagnostic (E091): `PATH:LINE:COLUMN`, what was expected there, and
    the line with a caret (`diagnostics.render`: the part of a long line around the column). An empty
    file, or one cut short, says so."""
    from compiler.diagnostics import SourceMap, Span, error, render

    if not text.strip():
        return f"{path}: " + render(error("E091", "the file is empty, not a game log (JSON)"), SourceMap())
    # a string left open runs to the end of the file, as does a value cut off there
    cut = (" (the file ends there: cut short?)"
           if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string") else "")
    sources = SourceMap()
    sources.add(path, text)
    at = Span(path, exc.lineno, exc.colno, exc.lineno, exc.colno + 1)
    return render(error("E091", f"not JSON: {exc.msg[0].lower() + exc.msg[1:]}{cut}", at), sources)


class _Front:
    """The rulespecs as the full load reads them, read when first asked for (a replay whose engine
    `compiler.emit.launch` recalls reads none)."""

    def __init__(self):
        self._loaded: Loaded | None = None

    @property
    def loaded(self) -> Loaded:
        if self._loaded is None:
            self._loaded = load()
        return self._loaded


def _replay_target(front: _Front, log: dict, args):
    """The title and engine a log replays with (`compiler.emit.launch.Target`), or (the exit code, the
    record) when none: recalled where the same question had its answer and nothing it depends on
    changed since (`compiler.emit.launch`), else from the full load."""
    from compiler.emit import launch
    from compiler.emit.engines import OverlayError

    name = log.get("id", log.get("title"))
    question = launch.replay_question(log)
    key = None if args.map else launch.fingerprint()
    known = launch.recall(question, key) if key else None
    if known is not None:
        return known
    loaded = front.loaded
    title = title_for_log(loaded, log)
    if title is None:
        what = f"{log.get('title')!r}" + (f" with variant {log['variant']!r}" if log.get("variant") else "")
        print(f"rulec replay: no title matches the log's {what}; `rulec titles` lists them", file=sys.stderr)
        return EXIT_FAIL, {"log": name, "error": f"no title matches {what}"}
    if refused(loaded, title, "replay"):
        return EXIT_FAIL, {"log": name, "error": f"{title.display_name} does not check"}
    try:
        Game = engine_of(loaded, title, args.map, "replay")
    except OverlayError as exc:
        print(f"rulec replay: {exc}", file=sys.stderr)
        return EXIT_FAIL, {"log": name, "error": str(exc)}
    if key:
        launch.remember(question, title, loaded.sources, key=key)
    return launch.Target(title.name, title.variant, title.display_name, Game)


def _replay_one(front: _Front, log: dict, args) -> tuple[int, dict | None]:
    """Replay one log: on a divergence, say where (the action's number and id, the action, the rule that
    refused it, the acting entity's legal actions) and exit 1; at the end, the result beside the log's
    (exit 1 when they differ); with `--until N`, stop after action N and print the state."""
    from compiler.runtime.errors import IllegalAction, RuleGap
    from compiler.runtime.sitelog import replay

    quiet = args.json
    name = log.get("id", log.get("title"))
    title = _replay_target(front, log, args)
    if isinstance(title, tuple):
        return title
    declared = sorted(str(c["key"]) for c in title.game.DATA.components_of("option"))
    # an option may be named as 18xx.games names it in its logs (`log_names`: 1846's first_ed)
    named = set(declared) | {str(n) for c in title.game.DATA.components_of("option") for n in c.get("log_names") or ()}
    unknown = [o for o in (log.get("settings") or {}).get("optional_rules") or () if o not in named]
    if unknown:
        # the log's settings name it: not a title that "cannot be played yet" (the engine's ValueError)
        refusal = (f"settings.optional_rules names {unknown[0]!r}, which is no option of {title.display_name}; "
                   f"its options: {', '.join(declared) or 'none'}")
        print(f"rulec replay: {name}: {refusal}", file=sys.stderr)
        return EXIT_FAIL, {"log": name, "error": refusal}
    try:
        done = replay(title.game, log, until=args.until)
    except (RuleGap, ValueError) as exc:
        print(f"rulec replay: {title.display_name} cannot be played yet: {exc}", file=sys.stderr)
        return EXIT_FAIL, {"log": name, "error": str(exc)}
    except IllegalAction as exc:  # an undo or redo with nothing to take back: the log, not the game
        print(f"rulec replay: {name}: {exc.message} ({exc.rule})", file=sys.stderr)
        return EXIT_FAIL, {"log": name, "error": exc.message}
    game = done.game
    # a site's log has its game's id; rulec's own (`rulec play --log`) has none: its title once, not twice
    label = f"{title.display_name} {log['id']}" if log.get("id") is not None else title.display_name
    record = {"log": name, "title": title.name, "variant": title.variant, **game.record(),
              "processed": done.processed, "expected_result": done.expected,
              "expected_end": log.get("game_end_reason"), "end_name": done.end_name(),
              "divergence": done.divergence.as_dict() if done.divergence else None}
    if done.divergence is not None:
        print(f"rulec replay: {label}: {done.divergence}", file=sys.stderr)
        if done.divergence.legal and not quiet:
            print("  legal now: " + "; ".join(json.dumps(a) for a in done.divergence.legal[:6]), file=sys.stderr)
        return EXIT_FAIL, record
    if args.until is not None:
        last = max((a["id"] for a in log.get("actions", ()) if isinstance(a.get("id"), int)), default=0)
        if args.until > last:  # said, not a silent stop at the end
            print(f"rulec replay: {name}: the log ends at action {last}, before {args.until}: the state after it",
                  file=sys.stderr)
        if not quiet:
            print(json.dumps(game.state(), indent=2))
        return EXIT_OK, record
    if not quiet:
        print(f"replayed {done.processed} actions of {label}: "
              f"{'finished (' + str(record['end_reason']) + ')' if record['finished'] else 'not finished'}, "
              f"{record['rounds']} rounds, revenue {record['revenue']}")
        for corp, train, recorded, counted, round_ in game.g.get("revenue_notes", ()):
            # a run whose record the title's reading takes as it stands (route_revenue(C, routes, true))
            print(f"note: in round {round_}, {corp}'s {train} ran for {recorded} as the log records it; "
                  f"its stops count {counted}")
        if record["result"]:
            # both by the replay's rank (the winner first; a tie by name), so the lines compare place by place
            result = done.result_by_id()
            order = sorted(result, key=lambda k: (-result[k], str(k)))
            print("result:     " + ", ".join(f"{k} {result[k]}" for k in order) + f" (end: {done.end_name()})")
            if done.expected is not None:
                expected = {str(k): v for k, v in done.expected.items()}
                theirs = [str(k) for k in order if str(k) in expected]
                theirs += sorted(k for k in expected if k not in theirs)  # a player the replay lacks
                print("log result: " + ", ".join(f"{k} {expected[k]}" for k in theirs)
                      + (f" (end: {log.get('game_end_reason')})" if log.get("game_end_reason") else ""))
    if done.expected is not None and not game.finished:
        print(f"rulec replay: {label}: the log ends finished "
              f"({log.get('game_end_reason')}), the replay does not", file=sys.stderr)
        return EXIT_FAIL, record
    if done.result_matches is False:
        print(f"rulec replay: {label}: the result differs from the log's: "
              f"{done.result_by_id()} against {done.expected}", file=sys.stderr)
        return EXIT_FAIL, record
    if done.end_matches is False:
        print(f"rulec replay: {label}: the game ends by {done.end_name()}, the log by "
              f"{log.get('game_end_reason')}", file=sys.stderr)
        return EXIT_FAIL, record
    return EXIT_OK, record


def cmd_play(args) -> int:
    from compiler.app.command import option_refusal
    from compiler.app.playout import play_many
    from compiler.runtime.errors import RuleGap

    if args.log and (Path(args.log).is_dir() or not Path(args.log).resolve().parent.is_dir()):
        where = "is a folder" if Path(args.log).is_dir() else "is in a folder that does not exist"
        print(f"rulec play: --log {args.log} {where}; it names the file the games are written to", file=sys.stderr)
        return EXIT_USAGE
    target = _play_target(args)
    if isinstance(target, int):
        return target
    if refusal := option_refusal(target.game, args.option, target.display_name):
        print(f"rulec play: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    players = target.players
    logs: list = []
    try:
        with progress().stage("play", args.games, "games") as stage:
            summary = play_many(target.game, target.name, target.variant, players, args.seed, args.games,
                                options=tuple(args.option), logs=logs if args.log else None, progress=stage)
    except RuleGap as exc:
        hint = _map_hint(exc, args.map, "`--map FILE`, see README")
        print(f"rulec play: {target.display_name} cannot be played: {exc}{hint}", file=sys.stderr)
        return EXIT_FAIL
    except ValueError as exc:  # an unknown --option, or players the title does not take
        print(f"rulec play: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.log and logs:
        # the rules it was played under where they are not rulespecs/' own: a replay says so, not silently
        # replaying a house rule's game under the title's rules
        from compiler import paths as rpaths
        from compiler.app.command import rulespec_path
        from compiler.lang.pipeline import within

        path = rulespec_path(args.title)
        under = {**({"rules": str(path)} if path is not None and not within(path, rpaths.RULESPECS) else {}),
                 **({"map": str(args.map)} if args.map else {})}
        for log in logs:
            log.update(under)
        try:
            Path(args.log).write_text(json.dumps(logs[0] if len(logs) == 1 else logs, indent=1), encoding="utf-8")
        except OSError as exc:
            print(f"rulec play: cannot write --log {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_FAIL
    print(json.dumps(summary.to_json(), indent=2) if args.json else summary.to_text(target.display_name))
    return EXIT_OK if not summary.failures else EXIT_FAIL


def _play_target(args):
    """The title, players and engine `rulec play` runs (`compiler.emit.launch.Target`), or the exit code
    when it runs none: the committed engine straight away where the same question had its answer
    and nothing it depends on changed since (`compiler.emit.launch`), else from the full load."""
    from compiler.emit import launch
    from compiler.emit.engines import OverlayError

    own = _own_title(args, "play")
    if isinstance(own, int):
        return own
    question = launch.play_question(args.title, args.variant, args.players)
    key = None if args.map or own else launch.fingerprint()
    known = launch.recall(question, key) if key else None
    if known is not None:
        return known
    loaded, name, variant, inside = own or (load(), args.title, None, True)
    args.variant = args.variant or variant
    played = played_title(loaded, name, args.variant, args.players)
    if played is None:
        what = f"{args.title!r}" + (f" with variant {args.variant!r}" if args.variant else "")
        print(f"rulec play: no title {what}; `rulec titles` lists them", file=sys.stderr)
        return EXIT_USAGE
    title, players, (low, high) = played
    if not low <= players <= high:
        print(f"rulec play: {players_refusal(title, players, (low, high))}", file=sys.stderr)
        return EXIT_USAGE
    if refused(loaded, title, "play"):
        return EXIT_FAIL
    try:
        Game = engine_of(loaded, title, args.map, "play", own=not inside)
    except OverlayError as exc:
        print(f"rulec play: {exc}", file=sys.stderr)
        return EXIT_FAIL
    if key:
        launch.remember(question, title, loaded.sources, players, key)
    return launch.Target(title.name, title.variant, title.display_name, Game, players)


def _own_title(args, command: str):
    """For `rulec play PATH` and `validate PATH` (`command.title_at`): (the rulespecs loaded with PATH, its
    one title's name, whether PATH is in rulespecs/), None where TITLE is a title's name, or the exit
    code (said on stderr)."""
    from compiler.app.command import rulespec_path, title_at

    path = rulespec_path(args.title)
    if path is None:
        return None
    found = title_at(path, command, args.variant)
    if args.map and not isinstance(found, int) and not found[3]:
        print(f"rulec {command}: --map applies a map overlay to a title of rulespecs/; {args.title} is outside it",
              file=sys.stderr)
        return EXIT_USAGE
    return found


def _map_hint(exc: Exception, overlay: str | None, how: str) -> str:
    """The hint after a gap that stops play: a map overlay, where the gap is the map and none was given."""
    if overlay or "map" not in str(getattr(exc, "what", "")):
        return ""
    return f"; a map overlay may fill what the map leaves out ({how})"


def cmd_validate(args) -> int:
    """`rulec validate TITLE`: translation validation. Random playouts of the title's engine; at
    every state each legal candidate is run through the z3 model of its action and the model's
    post-state compared with the engine's (`compiler.verify.validate`). Prints, per action, how
    many states were compared; exit 1 on a mismatch or an unknown title."""
    from compiler.emit.engines import OverlayError, overlay_title
    from compiler.runtime.errors import RuleGap
    from compiler.verify.model import GapError, Unsupported
    from compiler.verify.validate import validate

    own = _own_title(args, "validate")
    if isinstance(own, int):
        return own
    loaded, name, variant, inside = own or (load(), args.title, None, True)
    args.variant = args.variant or variant
    title = find_title(loaded, name, args.variant)
    if title is None:
        what = f"{name!r}" + (f" with variant {args.variant!r}" if args.variant else "")
        print(f"rulec validate: no title {what}; `rulec titles` lists them", file=sys.stderr)
        return EXIT_USAGE
    if args.map:
        # the model of the title the engine plays: the map overlay applied after the variant, as
        # `rulec play --map` applies it (`overlay_title`)
        try:
            title, loaded, _ = overlay_title(title.name, title.variant, Path(args.map))
        except OverlayError as exc:
            print(f"rulec validate: {exc}", file=sys.stderr)
            return EXIT_FAIL
    declared_options = sorted(c.key for c in title.components("option"))
    unknown = [o for o in args.option if o not in declared_options]
    if unknown:
        print(f"rulec validate: {title.display_name} has no option {unknown[0]!r}; "
              f"its options: {', '.join(declared_options) or 'none'}", file=sys.stderr)
        return EXIT_USAGE
    if refused(loaded, title, "validate"):
        return EXIT_FAIL
    try:
        engine = engine_of(loaded, title, args.map, "validate", own=not inside)
        # --games K plays K games; without it, 3, and up to 4 times as many while an action has fewer
        # than --want states
        games = args.games or DEFAULT_VALIDATE_GAMES
        with progress().stage("validate", games, "games") as stage:
            report = validate(title, games=games, seed=args.seed, want=args.want, max_actions=args.actions,
                              engine=engine, options=tuple(args.option), progress=stage,
                              max_games=args.games)
    except (OverlayError, RuleGap, GapError, Unsupported) as exc:
        hint = _map_hint(exc, args.map, "`--map FILE`")
        print(f"rulec validate: {title.display_name} cannot be validated: {exc}{hint}", file=sys.stderr)
        return EXIT_FAIL
    declared = sorted(c.name for c in title.of_kind("action"))
    short = {kind: report.accepted.get(kind, 0) for kind in declared if report.accepted.get(kind, 0) < args.want}
    if args.json:
        print(json.dumps({"title": title.display_name, "games": report.games,
                          "accepted": dict(sorted(report.accepted.items())),
                          "compared_variables": report.compared_vars,
                          "mismatches": [{"action": m.kind, "what": m.what} for m in report.mismatches],
                          "below_want": short}, indent=2))
    else:
        print(report.summary())
        if short:
            print(f"  compared in fewer than {args.want} states in {_count(report.games, 'game')}: "
                  + ", ".join(f"{kind} {n}" for kind, n in short.items()))
    return EXIT_FAIL if report.mismatches else EXIT_OK


def cmd_docs(args) -> int:
    from compiler.docs.build import build

    return build(serve=args.serve, jobs=args.jobs)


def cmd_verify(args) -> int:
    from compiler.app.command import scheduler_refusal
    from compiler.verify.pool import run

    if args.scheduler and (why := scheduler_refusal(args.scheduler)):
        print(f"rulec verify: --scheduler {args.scheduler}: {why} (a Dask scheduler's address, tcp://HOST:PORT)",
              file=sys.stderr)
        return EXIT_USAGE
    if args.variant and not args.titles:
        print("rulec verify: --variant needs the title it is a variant of (`rulec titles` lists them)",
              file=sys.stderr)
        return EXIT_USAGE
    for name in args.titles or ():
        # `TITLE/VARIANT` names a variant; a rulespec file or an existing folder is a path
        if name.endswith(".rules") or (Path(name).name != name and Path(name).exists()):
            # a path read as a title's name said "no title or variant 'mine/1846.rules'"
            print(f"rulec verify: {name} is a path; verify proves the titles of rulespecs/ by name "
                  "(`rulec titles`); a title of one's own is proved by `rulec build PATH --out DIR`",
                  file=sys.stderr)
            return EXIT_USAGE
    try:
        titles = [f"{t}/{args.variant}" for t in args.titles] if args.variant else args.titles
        return run(titles or None, args.json, sys.stdout, tuple(args.option), jobs=args.jobs,
                   scheduler=args.scheduler)
    except ImportError as exc:  # --scheduler without Dask installed
        print(f"rulec verify: --scheduler needs Dask ({exc}): pip install -e '.[simulate]'", file=sys.stderr)
        return EXIT_FAIL
    except OSError as exc:  # the scheduler cannot be reached
        print(f"rulec verify: cannot reach the Dask scheduler {args.scheduler}: {exc}", file=sys.stderr)
        return EXIT_FAIL


def cmd_simulate(args) -> int:
    from compiler.app.simulate import main as simulate

    return simulate(args)


def cmd_impact(args) -> int:
    """`rulec impact ERRATA.rules [LOGS...]`: what the errata change (`compiler.verify.impact`)."""
    from compiler.app.command import unwritable_folder
    from compiler.verify.impact import ImpactError, impact, unreadable, write_html

    if (why := unreadable(Path(args.errata))) is not None:
        # said before the hint on the proofs' minutes, which would read as the work starting
        print(f"rulec impact: cannot read the errata {args.errata}: {why}", file=sys.stderr)
        return EXIT_FAIL
    missing = [log for log in args.logs if not Path(log).exists()]
    if missing:
        # a log named that is not there: a report on the others would read as "this erratum changes none"
        print(f"rulec impact: no such log: {', '.join(missing)}", file=sys.stderr)
        return EXIT_FAIL
    if args.html and (refusal := unwritable_folder(Path(args.html))):
        # said before the games are replayed and the proofs run, not after
        print(f"rulec impact: --html {args.html} {refusal}; it names the folder the page is written to",
              file=sys.stderr)
        return EXIT_USAGE
    for rules in args.rules:
        if not Path(rules).exists():
            # read as no rulespec at all, the errata's title was "unknown" among no titles
            print(f"rulec impact: --rules {rules}: no such file or folder", file=sys.stderr)
            return EXIT_FAIL
    if not args.no_proofs and progress().mode == "bar":
        # on a terminal, before the games: the proofs are most of the wait, and may be left out
        progress().say("rulec impact: the proofs of the titles the errata touch take minutes (some 3 on 2 cores "
                       "when the verify cache holds none of their checks); --no-proofs leaves them out "
                       "(the games and the engine's changes only)")
    try:
        report = impact(Path(args.errata), [Path(p) for p in args.logs] or None, to=args.to, jobs=args.jobs,
                        proofs=not args.no_proofs, rules=[Path(p) for p in args.rules] or None)
    except ImpactError as exc:
        print(f"rulec impact: {exc}", file=sys.stderr)
        return EXIT_FAIL
    for note in report.notes:
        print(f"rulec impact: {note}", file=sys.stderr)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    if args.html:
        write_html(report, Path(args.html))
    # a log that cannot be read or replayed is no game the erratum leaves alone
    return EXIT_FAIL if any(game.status == "error" for game in report.games) else EXIT_OK


def _at_least(least: int):
    """An argparse type: an integer no less than `least` (`--players 0`, `--games -1` are usage errors,
    not a default played or nothing done)."""
    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    count.__name__ = f"at least {least}"
    return count


def _jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-j", type=_at_least(1), metavar="N",
                        help="proofs on N processes at once (default: every core; 1: in this process)")


def _quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress (a bar on a terminal, a line per stage elsewhere, on stderr)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulec",
        description="rulec: a rules compiler and verification suite for 18xx railroad games.",
    )
    parser.add_argument("--version", action="version", version=f"rulec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("build", help="check, compile, verify and document every title",
                       description="The main job: check, compile, verify and document every title in rulespecs/; "
                                   "prints one summary.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="rulespec files or folders of your own (default: rulespecs/); needs --out")
    p.add_argument("--out", metavar="DIR",
                   help="write the engines to DIR/generated and the site to DIR/site, not generated/ and site/ "
                        "(a title whose record in DIR/site/proofs.json or site/proofs.json is fresh is taken from it)")
    p.add_argument("--reprove", action="store_true",
                   help="verify every title, even one whose record in site/proofs.json is fresh")
    _jobs(p)
    _quiet(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("check", help="parse and check rulespecs; diagnostics; exit 1 on error",
                       description="Parse and check rulespecs (default: every file in rulespecs/).")
    p.add_argument("paths", nargs="*", metavar="PATH", help="rulespec files or folders")
    p.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics as text (default) or JSON")
    p.add_argument("--notes", action="store_true", help="also show notes (declared gaps)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("compile", help="emit generated/ engines (--check: exit 1 if stale)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="rulespec files or folders (default: rulespecs/); outside rulespecs/ they need --out")
    p.add_argument("--out", metavar="DIR", help="write the engines to DIR/generated, not generated/")
    p.add_argument("--check", action="store_true", help="exit 1 if generated/ (or DIR/generated) is stale")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("verify", help="z3 proofs of the rule invariants")
    p.add_argument("titles", nargs="*", metavar="TITLE",
                   help="titles of rulespecs/ by name (`rulec titles`; default: every title and variant)")
    p.add_argument("--option", action="append", default=[], metavar="KEY",
                   help="with one of the titles' optional rules in play (its option's key; may be repeated)")
    p.add_argument("--variant", help="only this variant of the titles named (`rulec titles` lists them; "
                                     "TITLE/VARIANT names one too)")
    p.add_argument("--json", action="store_true", help="the results as JSON")
    _jobs(p)
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="send the checks to the Dask cluster at ADDRESS (tcp://HOST:PORT), not --jobs processes")
    _quiet(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("validate", help="translation validation: the z3 model against the engine",
                       description="Play random games of TITLE and, at every state, compare the z3 model's "
                                   "post-state of each legal action with the engine's. Exit 1 on a mismatch.")
    p.add_argument("title", metavar="TITLE", help="a title's name or slug, or a rulespec file or folder defining one")
    p.add_argument("--variant", help="one of the title's variants (`rulec titles` lists them)")
    p.add_argument("--map", metavar="FILE", help="a map overlay for a title whose map is a gap")
    p.add_argument("--option", action="append", default=[], metavar="KEY",
                   help="play with one of the title's optional rules (its option's key; may be repeated)")
    p.add_argument("--games", type=_at_least(1), metavar="K",
                   help="games to play: K exactly; without --games, 3, and more (up to 12) while an action "
                        "has fewer than --want states")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    p.add_argument("--want", type=_at_least(0), default=200, help="states wanted per action (default 200)")
    p.add_argument("--actions", type=_at_least(1), default=3000, help="actions per game at most (default 3000)")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    _quiet(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("docs", help="write the reference site and build it with mkdocs")
    p.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1:8000 (mkdocs serve), not build it")
    _jobs(p)
    _quiet(p)
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("play", help="random legal playouts to the end")
    p.add_argument("title", metavar="TITLE", help="a title's name or slug, or a rulespec file or folder defining one")
    p.add_argument("--players", type=_at_least(1), help="how many play (default: the fewest the title takes)")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed; game i is played with SEED + i "
                                                       "(default 1)")
    p.add_argument("--games", type=_at_least(0), default=1, help="games to play (0: load the engine only)")
    p.add_argument("--variant", help="one of the title's variants (`rulec titles` lists them)")
    p.add_argument("--option", action="append", default=[], metavar="KEY",
                   help="play with one of the title's optional rules (its option's key; may be repeated)")
    p.add_argument("--map", metavar="FILE",
                   help="a map overlay: errata of TITLE filling what its map leaves out (kept outside rulespecs/)")
    p.add_argument("--json", action="store_true", help="the summary as JSON")
    p.add_argument("--log", metavar="FILE", help="write the games' logs to FILE (JSON; `rulec replay` reads it)")
    _quiet(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="many games on Dask; balance statistics, a report page",
                       description="Play GAMES games of TITLE as Dask tasks and report balance statistics.")
    p.add_argument("title", metavar="TITLE", help="a title's name or slug (`rulec titles` lists them)")
    p.add_argument("--players", type=_at_least(1), help="how many play (default: the fewest the title takes)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--policy", default="random", metavar="random|greedy",
                   help="how players choose (compiler/app/policies.py); one per player, comma-separated, for mixed games")
    p.add_argument("--seed", type=int, default=1, help="game i is played with seed SEED + i")
    p.add_argument("--variant", help="one of the title's variants (`rulec titles` lists them)")
    p.add_argument("--option", action="append", default=[], metavar="KEY",
                   help="play with one of the title's optional rules (its option's key; may be repeated)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (tcp://HOST:PORT); default: a local "
                                                          "cluster of this machine's cores")
    p.add_argument("--workers", type=int, metavar="N",
                   help="the local cluster's worker processes (default every core; 0: play in this process)")
    p.add_argument("--json", action="store_true", help="the statistics as JSON")
    p.add_argument("--out", metavar="DIR", help="write the report page (index.md, index.html, SVG) and study.json")
    _quiet(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="replay a game log; exit 1 on divergence")
    p.add_argument("log", metavar="LOG.json", help="a game log: 18xx.games' JSON export, or `rulec play --log`'s")
    p.add_argument("--map", metavar="FILE", help="the map overlay the game was played with")
    p.add_argument("--until", metavar="N", type=_at_least(0),
                   help="stop after the log's action N (its 1-based position) and print the state")
    p.add_argument("--json", action="store_true", help="the outcome as JSON")
    _quiet(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("impact", help="which saved games and proofs an erratum changes",
                       description="Replay each log under the current rules and under the rules with the errata "
                                   "of ERRATA.rules, and report the first action whose legality or effect differs; "
                                   "then the title's invariant checks whose status changes and the generated "
                                   "engine's functions that change.")
    p.add_argument("errata", metavar="ERRATA.rules", help='a file of `errata "NAME" of "TITLE" { ... }` units')
    p.add_argument("logs", nargs="*", metavar="LOG",
                   help="log files or folders (default: the title's logs under ../shared/fixtures)")
    p.add_argument("--to", type=_at_least(0), metavar="N", help="compare each log up to its action N")
    p.add_argument("--rules", action="append", default=[], metavar="PATH",
                   help="a rulespec file or folder of your own (may be repeated; default: rulespecs/)")
    p.add_argument("--no-proofs", action="store_true", help="leave the verifier out")
    p.add_argument("--html", metavar="DIR", help="also write the report as DIR/index.html")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    _jobs(p)
    _quiet(p)
    p.set_defaults(func=cmd_impact)

    p = sub.add_parser("lsp", help="a language server for rulespecs over stdio (editors: README)",
                       description="Serve the Language Server Protocol on stdin and stdout: rulec check's "
                                   "diagnostics as you type, hover, definition, references, completion, "
                                   "document symbols. Editors start it; README, 'Editors', says how.")
    p.set_defaults(func=cmd_lsp)

    p = sub.add_parser("titles", help="titles, variants and players ranges")
    p.add_argument("--json", action="store_true", help="the list as JSON")
    p.set_defaults(func=cmd_titles)

    p = sub.add_parser("coverage", help="rulebook sections with and without citing clauses; supplements; gaps")
    p.add_argument("title", metavar="TITLE", help="a title's name or slug (`rulec titles` lists them)")
    p.add_argument("--variant", help="one of the title's variants")
    p.add_argument("--json", action="store_true", help="the coverage as JSON")
    p.set_defaults(func=cmd_coverage)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in QUICK and argv is None:
        gc.disable()
    configure_progress(Progress.choose(quiet=getattr(args, "quiet", False), json=getattr(args, "json", False)))
    try:
        return args.func(args)
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.filename is None:
            raise
        # a file or folder the command reads or writes (`--out`, `--html`, `--log`) that the system refuses:
        # the machine's, not the rules' or rulec's, so a line saying which and why, not a traceback
        print(f"rulec {args.command}: cannot use {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        configure_progress(Progress())


if __name__ == "__main__":
    sys.exit(main())
