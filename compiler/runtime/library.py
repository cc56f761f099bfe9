"""The library's components and citations, written once for every engine: `generated/library.py`.

The library (`rulespecs/lib/`) gives every title the same ~470 tiles, the ability effects and the
glossary. `rulec compile` writes them once, in `generated/library.py`, and an engine names the ones
it uses instead of carrying its own copy (an engine whose title changed one, by a variant or an
erratum, carries that one itself). The engine asks for the library by the digests of the files
the library was compiled from; a `generated/library.py` compiled from other files is refused, so
an engine never reads another library than its own.

An engine built in memory (`rulec play` of an edited rulespec) carries everything itself and never
comes here. An engine run elsewhere from its source (a Dask worker of `rulec simulate`) has the
library's text installed first (`install`).
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

#: the library modules read in this process, by the digests of their sources
_LOADED: dict[tuple, "Library"] = {}
#: library module texts handed over with an engine's source (`install`), by the same key
_INSTALLED: dict[tuple, str] = {}


class LibraryMismatch(RuntimeError):
    """`generated/library.py` was compiled from other library files than the engine."""


class Library:
    """One compiled library: components by (kind, key) and the citation of each rule by name."""

    def __init__(self, components: dict[tuple[str, str], dict[str, Any]], rules: dict[str, str]) -> None:
        self._components = components
        self._rules = rules

    def components(self, kind: str, keys: list[str] | None = None) -> list[dict[str, Any]]:
        """The library's `kind` components named `keys`, in that order; every one without `keys`."""
        if keys is None:
            return [comp for (k, _key), comp in self._components.items() if k == kind]
        return [self._components[kind, key] for key in keys]

    def rules(self, own: dict[str, str], unshared: list[str]) -> dict[str, str]:
        """The engine's citations: its `own` and the library's but those `unshared` (rules the title
        has not, or has its own citation of), sorted by name as an engine that carries them all lists
        them."""
        left_out = set(unshared)
        merged = {name: cite for name, cite in self._rules.items() if name not in left_out}
        merged.update(own)
        return dict(sorted(merged.items()))


def _key(sources: dict[str, str]) -> tuple:
    return tuple(sorted(sources.items()))


def _run(text: str, shown: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "generated.library", "__file__": shown}
    exec(compile(text, shown, "exec"), namespace)
    return namespace


def install(text: str) -> None:
    """Hand over the text of a `generated/library.py` (to a process that runs an engine from its
    source and may not have the file)."""
    recorded = _run(text, "<library>")["SOURCES"]
    _INSTALLED[_key(recorded)] = text


def shared(engine_file: str, sources: dict[str, str]) -> Library:
    """The library compiled from the files `sources` (path -> digest): the one installed, else
    `generated/library.py` beside the engine file. Raises `LibraryMismatch` when that file was
    compiled from other files (run `rulec compile`)."""
    key = _key(sources)
    if key in _LOADED:
        return _LOADED[key]
    text = _INSTALLED.get(key)
    shown = "<library>"
    if text is None:
        path = Path(engine_file).with_name("library.py")
        if not path.is_file():
            raise LibraryMismatch(f"{path} does not exist: run `rulec compile`")
        text, shown = path.read_text(encoding="utf-8"), str(path)
    namespace = _run(text, shown)
    if _key(namespace["SOURCES"]) != key:
        raise LibraryMismatch(
            f"{shown} was compiled from other library files than the engine {engine_file}: run `rulec compile`")
    components = {(kind, comp["key"]): comp for kind, items in namespace["COMPONENTS"].items() for comp in items}
    library = Library(MappingProxyType(components), namespace["RULES"])
    _LOADED[key] = library
    return library
