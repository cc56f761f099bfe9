"""Answers kept on disk, keyed by everything they were computed from (issue 33: `rulec build`
with nothing changed redoes nothing).

A stage asks `recall(name, key)` before it computes and `keep(name, key, value)` after; the key
is `digest(...)` of its inputs, with `code()` (the compiler's own code, the grammar and the
engine templates) among them, so an answer is never taken for inputs or code other than its
own. The answers live under the cache folder (`paths.cache_dir("build")`, off with
`RULEC_NO_CACHE=1`), each kind (`name`) keeping its newest `LIMIT` answers. An entry that
cannot be read is computed again: the cache makes a stage faster, never different.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from compiler import paths

#: the answers kept of each kind, the newest by time of writing
LIMIT = 64

_code: str | None = None


def code() -> str:
    """A digest of the compiler's code (every compiler/**/*.py, the runtime's too), the grammar
    folder and the engine templates: what every kept answer was computed by. Read once a process."""
    global _code
    if _code is None:
        digest = hashlib.sha256()
        compiler = paths.ROOT / "compiler"
        files = sorted(compiler.rglob("*.py")) + sorted(paths.GRAMMAR.parent.glob("*")) \
            + sorted(paths.TEMPLATES.glob("*"))
        for path in files:
            if path.is_file():
                digest.update(path.relative_to(paths.ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _code = digest.hexdigest()
    return _code


def digest(*parts: str | bytes) -> str:
    """One key of many parts (each text or bytes; their boundaries count)."""
    out = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        out.update(str(len(data)).encode() + b":" + data)
    return out.hexdigest()


def _file(name: str, key: str) -> Path | None:
    folder = paths.cache_dir(f"build/{name}")
    return folder / f"{key}.pickle" if folder is not None else None


def recall(name: str, key: str):
    """The answer kept for `key` among `name`'s, or None."""
    file = _file(name, key)
    if file is None or not file.is_file():
        return None
    try:
        return pickle.loads(file.read_bytes())
    except Exception:  # noqa: BLE001 - a damaged or outdated entry: computed again
        return None


def keep(name: str, key: str, value) -> None:
    """Keep `value` as the answer for `key` (atomically; a cache that cannot be written is skipped)."""
    file = _file(name, key)
    if file is None:
        return
    tmp = file.with_suffix(f".{os.getpid()}.tmp")
    try:
        tmp.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(file)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        tmp.unlink(missing_ok=True)
        return
    try:
        entries = sorted(file.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-LIMIT]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # another process pruned it first
