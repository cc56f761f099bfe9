"""An engine's parts kept in the build cache (issue 33: after a one-clause erratum `rulec build`
emits again only the engines of the titles the erratum touches).

`parts(title)` (`compiler.emit.emitter`) compiles a title's clauses into the functions and tables
of its engine, reading the title and nothing else: its answer is kept under the title's key
(`pipeline.title_digest`: the compiler's code, the title's name, variant, reading and units
applied, and the text of each of its files), as `pipeline.checked` keeps the title's check. What
the engines share (the library module, a title's module of its family's common functions) is
laid out from the parts each time, in `outputs`: only the per-title compilation is kept.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, Callable

from compiler import memo
from compiler.lang.pipeline import title_digest

if TYPE_CHECKING:
    from compiler.diagnostics import SourceMap
    from compiler.lang.ir import Title

#: the build cache's kind of the answers kept here (`memo.recall`); more than `memo.LIMIT` titles'
#: parts would push out each other's: the answers of one build are kept together, under one key
KIND = "engine-parts"


def remembered_parts(titles: "list[Title]", sources: "SourceMap | None", parts: Callable[["Title"], Any],
                     record: type) -> list[Any]:
    """`parts(title)` of each of `titles`, in order: taken from the build cache for a title whose
    key (`title_digest`) is that of parts kept by an earlier build, made (and kept) for the others;
    `record` is the dataclass `parts` answers (the emitter's `EngineParts`, passed in: this module
    is the emitter's, and imports nothing of it). Without `sources` (no texts to key on; `outputs`
    without `remember`) every title's parts are made."""
    keys = [title_digest(title, sources) if sources is not None else None for title in titles]
    index = memo.recall(KIND, "index")
    kept: dict[str, dict] = index if isinstance(index, dict) else {}
    names = [f.name for f in fields(record) if f.name != "title"]
    out: list[Any] = []
    fresh: dict[str, dict] = {}
    for title, key in zip(titles, keys, strict=True):
        found = kept.get(key) if key is not None else None
        if isinstance(found, dict) and set(found) == set(names):
            out.append(record(title=title, **found))
        else:
            made = parts(title)
            out.append(made)
            found = {name: getattr(made, name) for name in names}
        if key is not None:
            fresh[key] = found
    if fresh and fresh.keys() != kept.keys():
        memo.keep(KIND, "index", fresh)
    return out
