"""What engines share, written once: `generated/library.py` and each title's `generated/d_<title>.py`.

The library (`rulespecs/lib/`) gives every title the same ~470 tiles, the ability effects and the
glossary. `rulec compile` writes them once, in `generated/library.py`, and an engine names the ones
it uses instead of carrying its own copy (an engine whose title changed one, by a variant or an
erratum, carries that one itself).

A title and its variants (and readings) share most of the rest: the title's map, companies and
tables, and most of its compiled rules. `rulec compile` writes those once per title, in
`generated/d_<title>.py` (`d_1846`): its data as most of the title's engines have it and its
compiled actions, procedures, functions, probes and triggers, each as most of them compile it.
An engine names what it shares (`_TITLE.components("hex")`, `_TITLE.define(globals(), ...)`) and
carries what its variant or erratum changed. A shared function runs as the engine's own: its code
is bound to the engine's globals (`define`), so the routines it calls are the engine's.

An engine asks for a shared module by the digests of the files the module was compiled from; one
compiled from other files is refused (`LibraryMismatch`, naming `rulec compile`), so an engine
never reads another library or another title's rules than its own.

An engine built in memory (`rulec play` of an edited rulespec) carries everything itself and never
comes here. An engine run elsewhere from its source (a Dask worker of `rulec simulate`) has the
shared modules' texts installed first (`install`).
"""

from __future__ import annotations

import importlib.util
import linecache
from pathlib import Path
from types import FunctionType, MappingProxyType
from typing import Any

#: the shared modules read in this process (or installed), by name and the digests of their sources
_LOADED: dict[tuple, "Library"] = {}


class LibraryMismatch(RuntimeError):
    """A shared module (`generated/library.py`, `generated/d_<title>.py`) was compiled from other
    rulespecs than the engine."""


class Library:
    """One compiled shared module: components by (kind, key), the citation of each rule by name, the
    properties by name, and the compiled functions an engine may take."""

    def __init__(self, namespace: dict[str, Any], name: str) -> None:
        #: its module's name in generated/: "library", "d_1846"
        self.name = name
        self._namespace = namespace
        self._lists: dict[str, list[dict[str, Any]]] = namespace["COMPONENTS"]
        self._components = MappingProxyType(
            {(kind, comp["key"]): comp for kind, items in self._lists.items() for comp in items})
        self._rules: dict[str, str] = namespace["RULES"]
        self._properties: dict[str, Any] = namespace.get("PROPERTIES", {})
        self._tables: dict[str, dict] = namespace.get("TABLES", {})

    def components(self, kind: str, keys: list[str] | None = None) -> list[dict[str, Any]]:
        """The module's `kind` components named `keys`, in that order; every one without `keys`."""
        if keys is None:
            return list(self._lists.get(kind, ()))
        return [self._components[kind, key] for key in keys]

    def table(self, name: str) -> dict:
        """The engine class's table `name` (`ACTION_PARAMS`, `CARDS`, ...) as the module has it: an
        engine that has it so names it rather than carrying a copy (the engines only read it)."""
        return self._tables[name]

    def rules(self, own: dict[str, str], unshared: list[str]) -> dict[str, str]:
        """The engine's citations: its `own` and the module's but those `unshared` (rules the title
        has not, or has its own citation of), sorted by name as an engine that carries them all lists
        them."""
        left_out = set(unshared)
        merged = {name: cite for name, cite in self._rules.items() if name not in left_out}
        merged.update(own)
        return dict(sorted(merged.items()))

    def properties(self, own: dict[str, Any], unshared: list[str]) -> dict[str, Any]:
        """The engine's properties: the module's but those `unshared`, in its order, each replaced by
        the engine's `own` value where it has one, then the rest of its `own`."""
        left_out = set(unshared)
        merged = {name: own.get(name, value) for name, value in self._properties.items() if name not in left_out}
        merged.update(own)
        return merged

    def define(self, namespace: dict[str, Any], unshared: list[str]) -> None:
        """Define in an engine's `namespace` (its `globals()`) the module's compiled functions but
        those `unshared` (the engine has its own or none), each bound to the engine's globals: the
        same code, calling the engine's routines."""
        left_out = set(unshared)
        for name, fn in self._namespace.items():
            if name in left_out or not isinstance(fn, FunctionType) or fn.__globals__ is not self._namespace:
                continue
            namespace[name] = FunctionType(fn.__code__, namespace, name, fn.__defaults__, fn.__closure__)


def _key(name: str, sources: dict[str, str]) -> tuple:
    return (name, *sorted(sources.items()))


def install(text: str, name: str = "library") -> None:
    """Hand over the text of a shared module, `generated/<name>.py` (to a process that runs an
    engine from its source and may not have the file). A title's module goes after the library."""
    shown = f"<generated/{name}.py>"
    namespace: dict[str, Any] = {"__name__": f"generated.{name}", "__file__": shown}
    exec(compile(text, shown, "exec"), namespace)
    # its text where a refusal's traceback looks for the statement's `# at` line (errors.clause_at)
    linecache.cache[shown] = (len(text), None, text.splitlines(True), shown)
    _LOADED[_key(name, namespace["SOURCES"])] = Library(namespace, name)


def _load(path: Path, name: str) -> dict[str, Any]:
    """The namespace of `generated/<name>.py` run as a module (its bytecode cached as an engine's)."""
    spec = importlib.util.spec_from_file_location(f"generated.{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.__dict__


def shared(engine_file: str, sources: dict[str, str], name: str = "library") -> Library:
    """The shared module `name` compiled from the files `sources` (path -> digest): the one
    installed, else `generated/<name>.py` beside the engine file. Raises `LibraryMismatch` when
    that file was compiled from other files (run `rulec compile`)."""
    key = _key(name, sources)
    if key in _LOADED:
        return _LOADED[key]
    path = Path(engine_file).with_name(f"{name}.py")
    if not path.is_file():
        raise LibraryMismatch(f"{path} does not exist: run `rulec compile`")
    namespace = _load(path, name)
    if _key(name, namespace["SOURCES"]) != key:
        raise LibraryMismatch(
            f"{path} was compiled from other rulespecs than the engine {engine_file}: run `rulec compile`")
    library = Library(namespace, name)
    _LOADED[key] = library
    return library
