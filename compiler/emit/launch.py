"""Start-up of the commands that only run an engine (`rulec play`, `replay`, `simulate`): the
committed engine, without reading the rulespecs, where it is fresh.

Reading every rulespec (Lark parse, resolve, check) takes seconds; the committed engine imports in
a fraction of one. What these commands need from the front end is small: which engine their
title, variant and players (or a log's title, variant and reading) name, and whether that title
checks clean. `remember` keeps each such answer in `.rulec-cache/launch/`, keyed by a fingerprint
of every rulespec's text and of the code that reads them (`fingerprint`); `recall` gives it back
while the fingerprint is unchanged and the engine in `generated/` still records the digest of each
rulespec it was built from (its `SOURCES`, the staleness test `engines.current_game_class`
applies). Anything else (a question not asked before, a changed rulespec or compiler, a stale
engine, a map overlay) takes the full load, which prints what it must and remembers its answer.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler import paths


@dataclass(frozen=True)
class Target:
    """What a command runs: a title (with its variant), as shown, and its engine's `Game` class;
    `players` is the count `rulec play` settled on (None for a replay)."""

    name: str
    variant: str | None
    display_name: str
    game: type
    players: int | None = None


def fingerprint() -> str:
    """A digest of every rulespec's text and of the front end's code (every compiler/**/*.py but
    the runtime's, the engine template, the grammar): what a remembered answer was computed from.
    Hashing the files takes milliseconds where reading the rulespecs takes seconds."""
    digest = hashlib.sha256()
    compiler = paths.ROOT / "compiler"
    files = sorted(paths.RULESPECS.rglob("*.rules")) + sorted(
        p for p in compiler.rglob("*.py") if p.relative_to(compiler).parts[0] != "runtime") \
        + sorted(paths.TEMPLATES.glob("*")) + [paths.GRAMMAR]
    for path in files:
        digest.update(str(path.relative_to(paths.ROOT) if path.is_relative_to(paths.ROOT) else path).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"(absent)")
        digest.update(b"\0")
    return digest.hexdigest()


def play_question(title: str, variant: str | None, players: int | None) -> str:
    """The question `rulec play TITLE [--variant V] [--players N]` asks (and `rulec simulate`, the
    same), as a key."""
    return json.dumps(["play", title, variant, players])


def replay_question(log: dict) -> str:
    """The question `rulec replay` asks of a log (its title, variant and the reading it was played by)."""
    from compiler.runtime.sitelog import reading_for

    return json.dumps(["replay", str(log.get("title", "")), log.get("variant"), reading_for(log)])


def _file(key: str) -> Path | None:
    folder = paths.cache_dir("launch")
    return folder / f"{key}.json" if folder is not None else None


def _answers(file: Path | None) -> dict[str, Any]:
    if file is None or not file.is_file():
        return {}
    try:
        answers = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a damaged entry: the full load answers again
    return answers if isinstance(answers, dict) else {}


def recall(question: str, key: str | None = None) -> Target | None:
    """The answer remembered for `question` while nothing it was computed from changed, with its
    engine imported from `generated/`; None where the full load must answer. `key`: the
    fingerprint, where the caller has it."""
    from compiler.emit.engines import engine_module
    from compiler.runtime.library import LibraryMismatch

    answer = _answers(_file(key or fingerprint())).get(question)
    if not isinstance(answer, dict):
        return None
    try:
        module = engine_module(answer["engine"])
    except (FileNotFoundError, LibraryMismatch):
        return None  # the full load says why
    if getattr(module, "SOURCES", None) != answer["sources"]:
        return None  # generated/ changed since: the full load says how
    return Target(answer["name"], answer["variant"], answer["display_name"], module.Game, answer.get("players"))


def remember(question: str, title, sources, players: int | None = None, key: str | None = None) -> None:
    """Keep the full load's answer to `question`: `title`, an `ir.Title` that checks clean, `sources`
    the `SourceMap` it was read from; nothing is kept where its committed engine is missing or stale.
    Answers under another fingerprint are dropped."""
    from compiler.emit.engines import engine_module
    from compiler.names import engine_name
    from compiler.runtime.library import LibraryMismatch

    key = key or fingerprint()
    file = _file(key)
    if file is None:
        return
    engine = engine_name(title.name, title.variant)
    digests = {path: sources.digest(path) for path in title.source_paths()}
    digests = {path: digest for path, digest in digests.items() if digest is not None}
    try:
        if getattr(engine_module(engine), "SOURCES", None) != digests:
            return
    except (FileNotFoundError, LibraryMismatch):
        return
    answers = _answers(file)
    answers[question] = {"name": title.name, "variant": title.variant, "display_name": title.display_name,
                         "engine": engine, "players": players, "sources": digests}
    for old in file.parent.glob("*.json"):
        if old != file:
            old.unlink(missing_ok=True)
    tmp = file.with_suffix(f".{id(answers)}.tmp")
    try:
        tmp.write_text(json.dumps(answers, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(file)
    except OSError:
        tmp.unlink(missing_ok=True)
