"""Stage 1, parse: rulespec text -> `syntax.Module`, or diagnostics.

`parse_text` and `parse_file` are the stage's entry points. The parsing itself is
`compiler.lang.parse_tree` (the Lark grammar and the tree builder), imported only when a text
has to be parsed: a module built once is kept in the parse cache (`.rulec-cache/parse/`,
pickled, keyed by the text, its path and a fingerprint of the grammar and of the code that
builds modules), and read back from there by later runs. No exception escapes for bad input.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib.util
import os
import pickle
from pathlib import Path

from compiler.lang import syntax as s
from compiler.diagnostics import Diagnostic, error
from compiler.paths import GRAMMAR, cache_dir


def parser():
    """The Lark LALR parser (`compiler.lang.parse_tree.parser`), built once per process."""
    from compiler.lang.parse_tree import parser as lark_parser

    return lark_parser()


def parse_text(text: str, path: str = "<string>") -> tuple[s.Module | None, list[Diagnostic]]:
    """Parse rulespec `text` (read from `path`).

    Returns (module, []) on success, (module, [diagnostic, ...]) for what parses but the
    grammar cannot rule out (an enum's value given twice, E011), or (None, [diagnostic]) for the
    first syntax error. Never raises for bad input. The same text at the same
    path is parsed once per process (modules are immutable).
    """
    module, found = _parsed(text, path)
    return module, list(found)


@functools.lru_cache(maxsize=64)
def _parsed(text: str, path: str) -> tuple[s.Module | None, tuple[Diagnostic, ...]]:
    folder = cache_dir("parse")
    if folder is None:
        return _parse_now(text, path)
    key = hashlib.sha256(f"{_fingerprint()}\0{path}\0{text}".encode()).hexdigest()
    stored = folder / f"{key}.pickle"
    try:
        data = stored.read_bytes()
    except OSError:
        data = None
    if data is not None:
        # a module is ~5,000 small frozen objects per 10 kB of text and holds no cycles: the
        # collector, left on, spends four fifths of the load walking them
        enabled = gc.isenabled()
        gc.disable()
        try:
            return pickle.loads(data)
        except Exception:  # written by a killed process or another Python: parse again
            pass
        finally:
            if enabled:
                gc.enable()
    found = _parse_now(text, path)
    try:
        partial = stored.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(stored)
        _prune(folder)
    except (OSError, RecursionError, pickle.PicklingError):
        pass
    return found


#: Parses kept: past KEPT + SLACK the oldest go, down to KEPT (each edit of a rulespec stores a
#: new one; pruning in batches keeps a store from costing a sort of the folder each time).
KEPT = 400
SLACK = 100


def _prune(folder: Path) -> None:
    with os.scandir(folder) as scan:
        entries = [e for e in scan if e.name.endswith(".pickle") and e.name != "grammar.lark.pickle"]
    if len(entries) <= KEPT + SLACK:
        return
    def mtime(entry: os.DirEntry) -> float:
        try:
            return entry.stat().st_mtime
        except OSError:
            return 0.0
    for old in sorted(entries, key=mtime)[:-KEPT]:
        Path(old.path).unlink(missing_ok=True)


@functools.cache
def _fingerprint() -> str:
    """The grammar, the code that builds a module from it and Lark's own version: a parse is
    reused from the cache only when none has changed since it was stored."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    lark = importlib.util.find_spec("lark")
    sources = [GRAMMAR, here / "parse.py", here / "parse_tree.py", here / "syntax.py", here.parent / "diagnostics.py"]
    if lark is not None and lark.origin:
        sources.append(Path(lark.origin))  # lark/__init__.py, which holds its __version__
    for source in sources:
        digest.update(source.read_bytes())
    return digest.hexdigest()


def parse_unsaved(text: str, path: str = "<string>") -> tuple[s.Module | None, list[Diagnostic]]:
    """Like `parse_text`, for a text being edited (the language server's): parsed every time,
    kept in no cache (each keystroke would store a module of the whole file)."""
    module, found = _parse_now(text, path)
    return module, list(found)


def _parse_now(text: str, path: str) -> tuple[s.Module | None, tuple[Diagnostic, ...]]:
    from compiler.lang.parse_tree import parse_now

    return parse_now(text, path)


def parse_file(path: Path | str, display: str | None = None) -> tuple[s.Module | None, list[Diagnostic], str]:
    """Read and parse one file. Returns (module, diagnostics, text).

    `display` is the path shown in diagnostics (default: `path` as given).
    An unreadable file gives E004.
    """
    shown = display or str(path)
    try:
        # utf-8-sig: a byte order mark, which some editors write first and none shows, is no character of the text
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return None, [error("E004", f"cannot read {shown}: {reason}")], ""
    module, diagnostics = parse_text(text, shown)
    return module, diagnostics, text
