"""The language server's workspace: every rulespec, the documents the editor has open, and what
the pipeline's front half (parse, resolve, check) says about them.

`compiler.lsp` serves the editor from a `Workspace`; `compiler.lsp_features` answers hover,
definition, references, completion and symbols from it. Nothing here parses, resolves or checks
by its own rules: a text is parsed by `compiler.parse`, the modules resolved and checked by
`compiler.pipeline.load_parsed`, as `rulec check FILE` does, so the editor shows the codes, spans
and help that `rulec check` prints.

The context of every analysis is each rulespec under `rulespecs/` (the libraries among them)
and every open document: a title outside `rulespecs/` (tests/fixtures/toy) resolves its `uses
lib`, a variant or erratum its `of "TITLE"`, a title its `extends`, against them. A map overlay
(`errata "NAME" of "TITLE"` outside `rulespecs/`) is applied to its title while it is open, as
`--map` applies it.

Positions are (line, column) counted from 1, in characters, as `Span` counts them; the server
converts the editor's (0-based, UTF-16) positions at its edge.

Editing a large rulespec: Lark parses 18co.rules (2.8k lines) in about a quarter of a second.
An edit inside one clause of a unit, on lines whose count it keeps (typing, not a new line), is
parsed by parsing that clause alone, laid at its own line and column (`_reparse_item`), and
spliced into the module; every other edit, and every clause that does not parse alone, is parsed
whole. Both give the module a whole parse gives (tests/test_lsp.py checks it on 18co.rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace as dc_replace
from pathlib import Path

from compiler import paths
from compiler import syntax as s
from compiler.diagnostics import Diagnostic, SourceMap, Span
from compiler.ir import Program, Title
from compiler.parse import parse_file, parse_unsaved
from compiler.pipeline import Loaded, load_parsed, rulespec_files


@dataclass(frozen=True)
class Document:
    """One rulespec as the workspace holds it: its text, its module (None when the text does not
    parse), its syntax diagnostics, and the last module that parsed (positions of a broken text
    are looked up in it)."""

    path: str
    text: str
    module: s.Module | None
    syntax: tuple[Diagnostic, ...]
    good: s.Module | None
    #: parsed by parsing only the clause an edit was inside (`_reparse`), not the whole text
    by_clause: bool = False

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


class Workspace:
    """The rulespecs and open documents, by display path (as diagnostics show paths)."""

    def __init__(self, targets: list[Path] | None = None):
        self.documents: dict[str, Document] = {}
        self.locations: dict[str, Path] = {}
        self.open: set[str] = set()
        self.loaded: Loaded | None = None
        #: the program of the last analysis in which every open document parsed
        self.program: Program | None = None
        for path in rulespec_files(targets):
            shown = paths.display(path)
            self.locations[shown] = path
            module, found, text = parse_file(path, shown)
            self.documents[shown] = Document(shown, text, module, tuple(found), module)

    # -- paths
    def display(self, path: Path) -> str:
        return paths.display(path)

    def path_of(self, shown: str) -> Path | None:
        """Where the file shown as `shown` is on disk (None for a document with no file)."""
        found = self.locations.get(shown)
        if found is not None:
            return found
        candidate = Path(shown)
        if candidate.is_absolute():
            return candidate
        for root in (Path.cwd(), paths.ROOT):
            if (root / candidate).exists():
                return root / candidate
        return None

    # -- documents
    def set_text(self, shown: str, text: str, path: Path | None = None) -> Document:
        """The editor opened or changed `shown`: parse its new text."""
        if path is not None:
            self.locations.setdefault(shown, path)
        self.open.add(shown)
        old = self.documents.get(shown)
        if old is not None and old.text == text:
            return old
        module, found = _reparse(old, text, shown) if old is not None else (None, None)
        by_clause = found is not None
        if found is None:
            module, found = parse_unsaved(text, shown)
        good = module if module is not None else (old.good if old is not None else None)
        document = Document(shown, text, module, tuple(found), good, by_clause)
        self.documents[shown] = document
        return document

    def close(self, shown: str) -> None:
        """The editor closed `shown`: its file's text (as saved) is the workspace's again."""
        self.open.discard(shown)
        path = self.locations.get(shown)
        if path is None or not path.exists() or not _within(path, paths.RULESPECS):
            self.documents.pop(shown, None)  # a file outside rulespecs/ is context only while open
            return
        module, found, text = parse_file(path, shown)
        self.documents[shown] = Document(shown, text, module, tuple(found), module)

    # -- analysis
    def analyse(self) -> dict[str, list[Diagnostic]]:
        """Resolve every module, check each title built from an open document, and return the
        diagnostics of each open document (`rulec check`'s, for that file)."""
        sources = SourceMap()
        modules: list[s.Module] = []
        found: list[Diagnostic] = []
        for document in self.documents.values():
            sources.add(document.path, document.text)
            found.extend(document.syntax)
            if document.module is not None:
                modules.append(document.module)
        loaded = load_parsed(modules, found, sources, list(self.documents), checking=frozenset(self.open))
        self.loaded = loaded
        if all(self.documents[shown].module is not None for shown in self.open if shown in self.documents):
            self.program = loaded.program
        out: dict[str, list[Diagnostic]] = {shown: [] for shown in self.open}
        for diagnostic in loaded.diagnostics:
            if diagnostic.span is not None and diagnostic.span.path in out:
                out[diagnostic.span.path].append(diagnostic)
        return out

    # -- lookups
    def text(self, shown: str) -> str | None:
        document = self.documents.get(shown)
        return document.text if document is not None else None

    def source(self, span: Span) -> str:
        """The text a span covers."""
        text = self.text(span.path)
        if text is None or span.line <= 0:
            return ""
        lines = text.split("\n")
        if span.line == span.end_line:
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        parts = [lines[span.line - 1][span.column - 1:]]
        parts.extend(lines[span.line:span.end_line - 1])
        parts.append(lines[span.end_line - 1][:span.end_column - 1] if span.end_line - 1 < len(lines) else "")
        return "\n".join(parts)

    def name_span(self, span: Span, name: str) -> Span:
        """Where `name` is first written, as a whole word, in the text `span` covers (the name of a
        clause or a component's key: the syntax keeps the span of the clause); `span` if nowhere."""
        text = self.text(span.path)
        if text is None or span.line <= 0:
            return span
        lines = text.split("\n")
        pattern = re.compile(r"(?<![\w§.])" + re.escape(name) + r"(?![\w])")
        for number in range(span.line, min(span.end_line, len(lines)) + 1):
            line = lines[number - 1]
            start = span.column - 1 if number == span.line else 0
            end = span.end_column - 1 if number == span.end_line else len(line)
            match = pattern.search(line, start, end)
            if match:
                return Span(span.path, number, match.start() + 1, number, match.end() + 1)
        return span

    def units(self, shown: str) -> tuple[s.Unit, ...]:
        document = self.documents.get(shown)
        if document is None or document.good is None:
            return ()
        return document.good.units

    def unit_at(self, shown: str, line: int) -> s.Unit | None:
        for unit in self.units(shown):
            if unit.span.line <= line <= unit.span.end_line:
                return unit
        units = self.units(shown)
        return units[0] if units else None

    def title_of(self, unit: s.Unit | None) -> Title | None:
        """The resolved title a unit is part of: a title itself; a variant, or an implementation's
        reading, as that variant; an erratum as its title; a library as the first title using it."""
        program = self.program or (self.loaded.program if self.loaded else None)
        if program is None or unit is None:
            return None
        if unit.kind == "title":
            return program.titles.get(unit.name)
        if unit.kind in ("variant", "errata"):
            found = program.variants.get((unit.base or "", unit.name))
            return found or program.titles.get(unit.base or "")
        for title in program.titles.values():
            if unit.name in title.libraries:
                return title
        return None

    def titles(self) -> list[Title]:
        program = self.program or (self.loaded.program if self.loaded else None)
        if program is None:
            return []
        return list(program.titles.values()) + list(program.variants.values())


def _within(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def offset(text: str, line: int, column: int) -> int:
    """The index in `text` of (line, column), both from 1."""
    index = 0
    for _ in range(line - 1):
        found = text.find("\n", index)
        if found < 0:
            return len(text)
        index = found + 1
    return index + column - 1


# ---------------------------------------------------------------- parsing an edit


def _reparse(old: Document, text: str, path: str) -> tuple[s.Module | None, list[Diagnostic] | None]:
    """The module of `text`, an edit of `old`, by parsing only the clause the edit is inside;
    (None, None) where it cannot be done so (the caller parses the whole text)."""
    module = old.module
    if module is None or old.text.count("\n") != text.count("\n"):
        return None, None
    start = 0
    limit = min(len(old.text), len(text))
    while start < limit and old.text[start] == text[start]:
        start += 1
    old_end, new_end = len(old.text), len(text)
    while old_end > start and new_end > start and old.text[old_end - 1] == text[new_end - 1]:
        old_end -= 1
        new_end -= 1
    # the edit changes old.text[start:old_end] into text[start:new_end], on one line or several
    # whose count stays; the clause holding it must start before it and end after it
    for u, unit in enumerate(module.units):
        for i, item in enumerate(unit.items):
            first = offset(old.text, item.span.line, item.span.column)
            last = offset(old.text, item.span.end_line, item.span.end_column)
            if not (first < start and old_end < last):
                continue
            return _reparse_item(old, text, path, u, i, first, last + (new_end - old_end))
    return None, None


def _reparse_item(old: Document, text: str, path: str, u: int, i: int, first: int,
                  last: int) -> tuple[s.Module | None, list[Diagnostic] | None]:
    module = old.module
    unit = module.units[u]
    item = unit.items[i]
    following = unit.items[i + 1] if i + 1 < len(unit.items) else None
    # a clause followed on its own line by another cannot be parsed alone: their columns would move
    if following is not None and following.span.line == item.span.end_line:
        return None, None
    if unit.span.end_line == item.span.end_line or item.span.line == 1:
        return None, None
    header = 'title "_" {'
    # the clause laid at its own line and column, so that every span is where a whole parse puts it
    snippet = header + "\n" * (item.span.line - 1) + " " * (item.span.column - 1) + text[first:last] + "\n}"
    parsed, found = parse_unsaved(snippet, path)
    if parsed is None or found or len(parsed.units) != 1 or len(parsed.units[0].items) != 1:
        return None, None  # a syntax error is reported from a whole parse, where it is as `rulec check` says
    new_item = parsed.units[0].items[0]
    items = unit.items[:i] + (new_item,) + unit.items[i + 1:]
    new_unit = dc_replace(unit, items=items)
    units = module.units[:u] + (new_unit,) + module.units[u + 1:]
    return s.Module(module.path, units), []


__all__ = ["Document", "Workspace", "offset"]
