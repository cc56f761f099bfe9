"""What each implementation's reading changes, as `rulec impact` measures an erratum: a page per
title and reading on the reference site, and its record.

The rulespecs carry no erratum of a rulebook (18 Grand Junction is a title extending 1846, shown by
its "What it changes" page; no first-edition errata of a title are transcribed), but they carry an
implementation's readings: `errata "18xx.games" of "TITLE"`, applied as a variant of the title and
of each of its variants. `rulec impact` refuses a reading (it is not an erratum of the rules: it is
never applied to the title), so this module measures each one itself, with `impact`'s parts, as
the rules' reading (the title or its plain variant) against the implementation's (the same with
the reading applied):

- the saved games: each log under ../shared/fixtures that the implementation wrote of the title
  or variant, replayed under both readings in step (`impact.compare_log`): unchanged, changes at
  action N (the action, the refusal or the state fields that differ, and how the game goes on
  under the implementation's reading), or no longer replays;
- the proofs: the invariant checks whose status differs between the two readings, and those only
  one of them has, from the verification results the site already holds (no check is run);
- the engine: the functions of the two generated engines that differ (`impact.engine_changes`).

Replaying the games is the only costly part, so its results are recorded beside the pages, in
`site/readings.json` (`RECORD`), as the proofs are in `site/proofs.json`: one entry per game with
its key, a digest of what the result depends on (both engines' emitted text, the runtime's and
`impact`'s code, and the log's bytes). `measure` (`rulec docs`) takes an entry whose key is
unchanged from the record, else from the cache (`.rulec-cache/readings/`, by the same key), and
replays only the rest; the pages are rendered from the record alone, so the tests render them
without replaying anything, and a machine without the logs keeps the record as it is.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compiler import paths
from compiler.names import slug
from compiler.docs.model import Place
from compiler.docs.render import code, esc, table
from compiler.lang.ir import Title
from compiler.lang.pipeline import Loaded

#: The record's file name, under the site's root (beside `proofs.json`).
RECORD = "readings.json"
#: The record's layout; entries of another layout are measured again.
RECORD_FORMAT = 1
#: Action fields the pages leave out (the site's bookkeeping).
_BOOKKEEPING = ("created_at", "user", "original_id", "id")


def fixtures_root() -> Path:
    """Where the implementation's saved games are read from (as `rulec impact` reads them)."""
    return paths.ROOT.parent / "shared" / "fixtures"


def pairs(loaded: Loaded) -> list[tuple[Title, Title]]:
    """(the rules' reading, the implementation's) for each title or plain variant an
    implementation's reading applies to, in the rulespecs' order."""
    out = []
    for title in loaded.every_title():
        if title.reading is None:
            continue
        program = loaded.program
        plain = program.variants.get((title.name, title.base_variant)) if title.base_variant else program.titles.get(title.name)
        if plain is not None:
            out.append((plain, title))
    return out


# ---------------------------------------------------------------- measuring, through the record and the cache


def _code_digest() -> str:
    """A digest of the code a comparison runs: this module, `impact` and the runtime the engines
    import."""
    from compiler.verify import impact
    from compiler.runtime import sitelog

    digest = hashlib.sha256()
    files = [Path(__file__), Path(impact.__file__)] + sorted(Path(sitelog.__file__).parent.rglob("*.py"))
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def game_key(code: str, before_engine: str, after_engine: str, log: bytes) -> str:
    """The key of one game's result: what it depends on, hashed (the engines by their texts'
    digests)."""
    digest = hashlib.sha256(f"readings {RECORD_FORMAT}\0{code}\0{before_engine}\0{after_engine}\0".encode())
    digest.update(hashlib.sha256(log).digest())
    return digest.hexdigest()


@dataclass
class _Log:
    name: str
    path: Path
    data: dict
    text: bytes
    before: Title
    after: Title


def saved_games(loaded: Loaded, root: Path | None = None) -> list[_Log] | None:
    """Each log under `root` (../shared/fixtures) of a title an implementation's reading applies to,
    as that reading: with the titles it is compared under. None where the folder is absent."""
    from compiler.lang.titles import plain_title_for_log as _plain_title_for_log, title_for_log

    root = root or fixtures_root()
    if not root.is_dir():
        return None
    out = []
    for path in sorted(root.glob("*/*.json")):
        try:
            text = path.read_bytes()
            log = json.loads(text)
        except (OSError, ValueError):
            continue
        if not isinstance(log, dict):
            continue
        after = title_for_log(loaded, log)
        before = _plain_title_for_log(loaded, log)
        if after is None or before is None or after.reading is None or before.reading is not None:
            continue
        out.append(_Log(path.relative_to(root).as_posix(), path, log, text, before, after))
    return out


def read_record(root: Path) -> dict:
    """The record under the site root `root`: {reading's display name: {"title": ..., "games": [...]}}
    ({} where absent or of another layout)."""
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data.get("readings", {}) if data.get("format") == RECORD_FORMAT else {}


def record_text(readings: dict) -> str:
    """The record's text: deterministic JSON, one game a line."""
    lines = ["{", f' "format": {RECORD_FORMAT},', ' "readings": {']
    names = sorted(readings)
    for i, name in enumerate(names):
        entry = readings[name]
        games = ",\n".join("    " + json.dumps(g, ensure_ascii=False, sort_keys=True) for g in entry["games"])
        lines.append(f"  {json.dumps(name)}: {{\"title\": {json.dumps(entry['title'])}, \"games\": ["
                     + (f"\n{games}\n  " if games else "") + "]}" + ("," if i < len(names) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def _entry(result, key: str) -> dict[str, Any]:
    """A game's result as recorded."""
    out = result.to_json()
    out["key"] = key
    if out.get("action"):
        out["action"] = {k: v for k, v in out["action"].items() if k not in _BOOKKEEPING}
    out.pop("title", None)  # the record's entry names it
    return out


@dataclass
class Measured:
    """`measure`'s answer: the record (`readings`), and how its games were had."""

    readings: dict
    recorded: int = 0
    cached: int = 0
    replayed: int = 0
    notes: list[str] = field(default_factory=list)


def game_keys(loaded: Loaded, found: list[_Log]) -> list[str]:
    """Each saved game's key (`game_key`). The engines' texts are emitted once per title, and their
    digests remembered in the cache under a digest of the front end's code and of the rulespecs'
    texts (`launch.fingerprint` and `loaded`'s files): with nothing changed, nothing is emitted."""
    from compiler.emit import launch
    from compiler.emit.emitter import emit_title

    code_digest = _code_digest()
    sources = hashlib.sha256(launch.fingerprint().encode())
    for path in sorted(loaded.files):
        sources.update(path.encode() + b"\0" + (loaded.sources.text(path) or "").encode() + b"\0")
    cache = paths.cache_dir("readings")
    memo_path = cache / f"engines-{sources.hexdigest()}.json" if cache is not None else None
    try:
        memo = json.loads(memo_path.read_text(encoding="utf-8")) if memo_path is not None else {}
    except (OSError, ValueError):
        memo = {}
    wanted = {title.display_name: title for log in found for title in (log.before, log.after)}
    if set(wanted) - set(memo):
        for name, title in wanted.items():
            memo.setdefault(name, hashlib.sha256(emit_title(title, loaded.sources).encode()).hexdigest())
        if memo_path is not None:
            try:
                memo_path.write_text(json.dumps(memo, sort_keys=True), encoding="utf-8")
            except OSError:
                pass
    return [game_key(code_digest, memo[log.before.display_name], memo[log.after.display_name], log.text) for log in found]


def stale(loaded: Loaded, root: Path, logs: Path | None = None) -> list[str] | None:
    """The saved games whose result the record under `root` lacks or holds under another key (its
    games' names), and the recorded games that are no saved game now; None where the logs are absent."""
    found = saved_games(loaded, logs)
    if found is None:
        return None
    record = read_record(root)
    recorded = {(name, g["log"]): g["key"] for name, entry in record.items() for g in entry.get("games", [])}
    now = {(log.after.display_name, log.name): key for log, key in zip(found, game_keys(loaded, found))}
    return sorted({f"{name}: {log}" for (name, log), key in now.items() if recorded.get((name, log)) != key}
                  | {f"{name}: {log}" for name, log in recorded if (name, log) not in now})


def measure(loaded: Loaded, root: Path, *, logs: Path | None = None, jobs: int | None = None,
            progress=None) -> Measured:
    """The record for the site under `root`: each reading's games, taken from the record there
    where their key is unchanged, else from the cache, else replayed (on `jobs` processes, every
    core when None). `logs`: the folder of saved games (../shared/fixtures by default); where it is
    absent the record is kept as it is, for the readings the rulespecs still have."""
    from compiler.emit.engines import current_game_class

    old = read_record(root)
    shown = {after.display_name: before.display_name for before, after in pairs(loaded)}
    found = saved_games(loaded, logs)
    if found is None:
        kept = {name: entry for name, entry in old.items() if shown.get(name) == entry.get("title")}
        return Measured(kept, recorded=sum(len(e["games"]) for e in kept.values()),
                        notes=[f"no saved games in {paths.display(logs or fixtures_root())}: "
                               f"the record {RECORD} is kept as it is"])
    by_key = {g["key"]: g for entry in old.values() for g in entry.get("games", [])}
    cache = paths.cache_dir("readings")
    out = Measured({after: {"title": before, "games": []} for after, before in shown.items()})
    slots: list[tuple[_Log, str, dict | None]] = []
    tasks: list[_Game] = []
    classes: dict[str, Any] = {}
    for log, key in zip(found, game_keys(loaded, found)):
        entry = by_key.get(key)
        if entry is not None:
            out.recorded += 1
        elif cache is not None and (cache / f"{key}.json").is_file():
            try:
                entry = json.loads((cache / f"{key}.json").read_text(encoding="utf-8"))
                out.cached += 1
            except (OSError, ValueError):
                entry = None
        if entry is None:
            for title in (log.before, log.after):
                if title.display_name not in classes:
                    classes[title.display_name] = current_game_class(title, loaded.sources)[0]
            tasks.append(_Game(log, classes[log.before.display_name], classes[log.after.display_name], key))
        slots.append((log, key, entry))
    out.replayed = len(tasks)
    done = _replay(tasks, jobs, progress or _Quiet())
    for log, key, entry in slots:
        if entry is None:
            entry = done[key]
            if cache is not None:
                try:
                    (cache / f"{key}.json").write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
                except OSError:
                    pass
        out.readings[log.after.display_name]["games"].append({**entry, "log": log.name})  # the same bytes elsewhere
    return out


@dataclass
class _Game:
    log: _Log
    before: Any
    after: Any
    key: str


#: the games `_replay`'s worker processes measure, set before they fork
_GAMES: list[_Game] = []


def _measure_one(index: int) -> tuple[int, dict]:
    """One game: compared in step under both readings (`impact.compare_log`), then played under the
    rules' reading alone, each action it refuses retaken at another amount where it offers exactly
    one (`alone`: how far it gets)."""
    from compiler.verify.impact import GameImpact, _follow, compare_log
    from compiler.runtime.errors import RuleGap
    from compiler.runtime.monitor import Monitor
    from compiler.runtime.sitelog import game_from_log, processed_actions

    game = _GAMES[index]
    log = game.log
    try:
        result = compare_log(game.before, game.after, log.data, name=log.name, title=log.before, after_title=log.after)
    except Exception as exc:  # noqa: BLE001 - an engine error in one game is that game's result
        result = GameImpact(log.name, log.before.display_name, "error", message=f"{type(exc).__name__}: {exc}")
    entry = _entry(result, game.key)
    if result.changed:
        try:
            alone = game_from_log(game.before, log.data)
            entry["alone"] = _follow(alone, Monitor(alone), processed_actions(log.data))
        except RuleGap as exc:
            entry["alone"] = f"cannot be set up: {exc}"
        except Exception as exc:  # noqa: BLE001 - as above
            entry["alone"] = f"stops on an engine error: {type(exc).__name__}: {exc}"
    return index, entry


def _replay(games: list[_Game], jobs: int | None, progress) -> dict[str, dict]:
    """Each game measured (`_measure_one`) on `jobs` forked processes (every core when None; 1:
    here): {key: entry}."""
    import os

    out: dict[str, dict] = {}
    jobs = min(jobs or os.cpu_count() or 1, len(games))
    _GAMES[:] = games
    try:
        if jobs <= 1:
            for i, game in enumerate(games):
                progress.item(game.log.name)
                out[game.key] = _measure_one(i)[1]
                progress.advance()
        else:
            import multiprocessing
            from concurrent.futures import as_completed

            from compiler.progress import worker_pool

            with worker_pool(jobs, multiprocessing.get_context("fork")) as pool:
                for future in as_completed([pool.submit(_measure_one, i) for i in range(len(games))]):
                    i, entry = future.result()
                    out[games[i].key] = entry
                    progress.item(games[i].log.name)
                    progress.advance()
    finally:
        _GAMES.clear()
    return out


class _Quiet:
    def item(self, text: str) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


# ---------------------------------------------------------------- the pages


def page_file(book, reading: str) -> str:
    """The page of what `reading` changes, under the title's book."""

    return book.file(f"impact-{slug(reading)}.md")


def add_pages(writer, pages: dict[str, str], nav: list, readings: dict | None) -> None:
    """Add a page per title and implementation's reading to `pages` (`Writer.pages()`), link it
    from the side-by-side page and list it in `nav` (`Writer.nav()`) after that page. `readings`:
    the record (`measure(...).readings`, `read_record`); without it the games are not shown."""
    site = writer.site
    loaded = site.loaded
    grouped: dict[tuple[str, str], list[tuple[Title, Title]]] = defaultdict(list)
    for before, after in pairs(loaded):
        grouped[(before.name, after.reading)].append((before, after))
    for (name, reading), found in grouped.items():
        book = next((b for b in site.title_books() if b.title.name == name), None)
        if book is None:
            continue
        file = page_file(book, reading)
        pages[file] = _page(writer, book, reading, found, readings, file)
        side = next((writer.side_by_side_file(book, r) for r in writer.readings_of(book) if r.title.reading == reading),
                    None)
        label = f"What {reading} changes in play"
        if side is not None and side in pages:
            pages[side] = pages[side].rstrip("\n") + (
                f"\n\nWhat the reading changes in the games {esc(reading)} saved, in the proofs and in the engine: "
                f"{writer.link(side, Place(file), esc(label))}.\n")
        _insert_nav(nav, side or book.index, {label: file})


def _insert_nav(nav: list, after: str, item: dict) -> bool:
    """Put `item` right after the entry naming page `after`, wherever it is in the menu."""
    for i, entry in enumerate(nav):
        if entry == after or (isinstance(entry, dict) and after in entry.values()):
            nav.insert(i + 1, item)
            return True
        children = list(entry.values())[0] if isinstance(entry, dict) and len(entry) == 1 else None
        if isinstance(children, list) and _insert_nav(children, after, item):
            return True
    return False


def _page(writer, book, reading: str, found: list[tuple[Title, Title]], readings: dict | None, file: str) -> str:

    title = found[0][1]
    origin = next((o for o in title.chain if o.kind == "errata" and o.name == reading), None)
    where = next((c.span.path for c in title.clauses if c.origin == origin and c.span is not None), None)
    side = next((r for r in writer.readings_of(book) if r.title.reading == reading), None)
    clauses = (writer.link(file, Place(writer.side_by_side_file(book, side)),
                           f"The rulebook and {esc(reading)} side by side") if side is not None else "the title's pages")
    unit = code('errata "%s" of "%s"' % (reading, book.title.name))
    out = [f"# What {esc(reading)} changes in play {{#impact}}\n",
           f"The implementation's reading {unit}"
           + (f" ({code(where)})" if where else "")
           + " measured as `rulec impact` measures an erratum: each game "
           f"{esc(reading)} saved (the logs under `../shared/fixtures`) replayed under the rules' reading and "
           f"under {_own(reading)}, in step, to the first action they take differently; the invariant checks "
           "whose status differs between the two readings; the functions of the two generated engines that "
           f"differ. The clauses themselves are on {clauses}.\n"]
    for before, after in found:
        out += _pair(writer, before, after, (readings or {}).get(after.display_name), file, reading,
                     heading=len(found) > 1, anchor=slug(before.variant or "title"), known=readings is not None)
    return "\n".join(out)


def _book(site, title: Title):
    return next((b for b in site.books if b.title.display_name == title.display_name), None)


def _pair(writer, before: Title, after: Title, entry: dict | None, file: str, reading: str, *,
          heading: bool, anchor: str, known: bool) -> list[str]:

    site = writer.site
    old_book, new_book = _book(site, before), _book(site, after)
    h = "###" if heading else "##"
    out = []
    if heading:
        out.append(f"## {esc(before.display_name)} and {esc(after.display_name)} {{#{anchor}}}\n")
    names = (writer.link(file, Place(old_book.index), esc(before.display_name)) if old_book else esc(before.display_name),
             writer.link(file, Place(new_book.index), esc(after.display_name)) if new_book else esc(after.display_name))
    out.append(f"The rules' reading is {names[0]}; {_own(reading)} is {names[1]}.\n")
    out.append(f"{h} The saved games {{#{anchor}-games}}\n")
    out += _games(entry, reading, known)
    out.append(f"{h} The proofs {{#{anchor}-proofs}}\n")
    out += _proofs(writer, before, after, old_book, new_book, file, reading)
    out.append(f"{h} The engine {{#{anchor}-engine}}\n")
    out += _engine(writer, old_book, new_book, file)
    return out


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _games(entry: dict | None, reading: str, known: bool) -> list[str]:

    games = (entry or {}).get("games", [])
    if not games:
        why = ("no game it saved is among the logs (`../shared/fixtures`)" if known
               else "the games are measured by `rulec docs` (its record `site/readings.json`)")
        return [f"*No saved game: {why}.*\n"]
    changed = [g for g in games if g["status"] in ("changes", "no longer replays")]
    first = min((g["number"] or 0 for g in changed), default=None)
    lead = (f"{len(changed)} of {_plural(len(games), 'game')} change"
            + ("s" if len(changed) == 1 else "")
            + ("" if first is None else (f"; the first at action {first}" if first else "; the first at setup"))
            + ".")
    rows = []
    for g in games:
        rows.append([code(g["log"]), _where(g), _what(g, reading), esc(g.get("then") or ""),
                     esc(g.get("alone") or "")])
    return [lead + "\n",
            f"Each game is compared to the first action the two readings take differently; after it, the game is "
            f"played on under {_own(reading)} reading, and from its start under the rules' reading alone (an "
            f"action that reading refuses is taken at another amount where it offers exactly one such action: "
            f"a price it reads otherwise).\n",
            table(["game", "where", "what differs", f"then, under {_own(reading)} reading",
                   "under the rules' reading alone"], rows)]


def _where(g: dict) -> str:
    if g["status"] == "unchanged":
        return f"nowhere ({_plural(g.get('actions') or 0, 'action')})" if not g.get("message") else "nowhere"
    if g["status"] == "error":
        return "not measured"
    if g.get("number") == 0:
        return "setup"
    action = g.get("action") or {}
    who = action.get("entity")
    return (f"action {esc(str(g['at']))}: {code(str(action.get('type')))}"
            + (f" by {code(str(who))}" if who is not None else ""))


def _what(g: dict, reading: str) -> str:
    status = g["status"]
    if status == "unchanged":
        return esc(g["message"]) if g.get("message") else "every action alike, every state alike"
    if status == "error":
        return esc(g.get("message") or "")
    if status == "does not replay":
        return f"both readings refuse it: {esc(g.get('message') or '')}" + (f" ({esc(g['rule'])})" if g.get("rule") else "")
    if status == "no longer replays":
        return (f"{_own(reading)} reading refuses it: {esc(g.get('message') or '')}"
                + (f" ({esc(g['rule'])})" if g.get("rule") else ""))
    parts = []
    if g.get("refused") and not g.get("retaken"):
        parts.append(f"the rules' reading refuses it: {esc(g['refused'])}; {_own(reading)} takes it")
    if g.get("retaken"):
        taken = ", ".join(f"{code(k)} {code(json.dumps(v['taken']))} (logged {code(json.dumps(v['logged']))})"
                          for k, v in g["retaken"].items())
        parts.append(f"{_own(reading)} reading refuses it as logged ({esc(g.get('refused') or '')}) and takes it with {taken}")
    fields = g.get("fields") or []
    if fields:
        shown = [_field(f) for f in fields[:6]]
        more = len(fields) - len(shown)
        lead = "the game as set up: " if g.get("number") == 0 else "after it: "
        parts.append(lead + "; ".join(shown) + (f"; and {_plural(more, 'field')} more" if more > 0 else ""))
    if fields and g.get("number") and g.get("rule") and not g.get("refused"):  # the action's own rule
        parts.append(f"under {esc(g['rule'])}")
    return "<br>".join(parts) or "its effect"


def _field(f: dict) -> str:
    """A state field that differs: both values, or for two lists what one has and the other not."""
    a, b = f["before"], f["after"]
    if isinstance(a, list) and isinstance(b, list):
        gone = [x for x in a if x not in b]
        new = [x for x in b if x not in a]
        bits = []
        if gone:
            bits.append("without " + ", ".join(code(_short(x)) for x in gone[:6]) + (" …" if len(gone) > 6 else ""))
        if new:
            bits.append("with " + ", ".join(code(_short(x)) for x in new[:6]) + (" …" if len(new) > 6 else ""))
        return f"{code(f['field'])} " + ("; ".join(bits) or "in another order")
    return f"{code(f['field'])} {code(_short(a))} → {code(_short(b))}"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _own(name: str) -> str:
    """`name` possessive: "18xx.games's" as "18xx.games'"."""
    return esc(name) + ("'" if name.endswith("s") else "'s")


def _proofs(writer, before: Title, after: Title, old_book, new_book, file: str, reading: str) -> list[str]:
    from compiler.docs.proofs import STATUS_TEXT

    proofs = writer.site.proofs
    old, new = proofs.get(before.display_name), proofs.get(after.display_name)
    if old is None or new is None:
        return ["*Not verified on this site.*\n"]
    was = {(r.invariant, r.transition): r for r in old.results}
    now = {(r.invariant, r.transition): r for r in new.results}
    both = [k for k in now if k in was]
    differ = [k for k in both if was[k].status != now[k].status]
    only_old = defaultdict(list)
    only_new = defaultdict(list)
    for inv, tn in was:
        if (inv, tn) not in now:
            only_old[tn].append(inv)
    for inv, tn in now:
        if (inv, tn) not in was:
            only_new[tn].append(inv)
    links = [writer.link(file, Place(b.verification), f"the verification of {esc(b.name)}")
             for b in (old_book, new_book) if b is not None and b.name in proofs]
    out = [f"{_plural(len(both), 'check')} in both readings, {len(differ)} of them with another status; "
           f"{sum(map(len, only_old.values()))} only in the rules' reading, "
           f"{sum(map(len, only_new.values()))} only in {_own(reading)}"
           + (f" (every check: {' and '.join(links)})" if links else "") + ".\n"]
    if differ:
        rows = [[code(inv), code(tn), STATUS_TEXT.get(was[(inv, tn)].status, was[(inv, tn)].status),
                 STATUS_TEXT.get(now[(inv, tn)].status, now[(inv, tn)].status)] for inv, tn in differ]
        out.append(table(["invariant", "after", "the rules' reading", f"{_own(reading)} reading"], rows))
    for side, found in (("only in the rules' reading", only_old), (f"only in {_own(reading)} reading", only_new)):
        if found:
            out.append(f"Checked {side}: " + "; ".join(
                f"after {code(tn)} ({_plural(len(invs), 'invariant')})" for tn, invs in sorted(found.items())) + ".\n")
    return out


def _engine(writer, old_book, new_book, file: str) -> list[str]:
    from compiler.verify.impact import engine_changes

    if old_book is None or new_book is None:
        return ["*No engine.*\n"]
    old = writer.site.engines.get(old_book.module, ("", {}, None))
    new = writer.site.engines.get(new_book.module, ("", {}, None))
    if not old[0] or not new[0]:
        return ["*An engine is missing: run `rulec compile`.*\n"]
    every = engine_changes(old[0], new[0])
    changes = [c for c in every if c.name != "DATA"]
    data = len(changes) < len(every)
    out = [f"{code(f'generated/{new_book.module}.py')} against {code(f'generated/{old_book.module}.py')}: "
           + (f"{_plural(len(changes), 'function')} differ" + ("s" if len(changes) == 1 else "") if changes
              else "no function differs")
           + ("; the `DATA` table differs too" if data else "") + ".\n"]
    for change in changes:
        name = change.name
        anchor = name if name in new[1] else None
        label = code(name)
        if anchor is not None:
            label = writer.link(file, writer.site.engine_place(new_book, anchor), label)
        out.append(f"??? note \"{code(name)}\"\n    {label}\n\n    ```diff\n"
                   + "\n".join("    " + line for line in change.diff or ["(no lines)"]) + "\n    ```\n")
    return out
