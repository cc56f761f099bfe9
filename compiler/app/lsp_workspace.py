"""The language server's workspace: every rulespec, the documents the editor has open, and what
the pipeline's front half (parse, resolve, check) says about them.

`compiler.app.lsp` serves the editor from a `Workspace`; `compiler.app.lsp_features` answers hover,
definition, references, completion and symbols from it. Nothing here parses, resolves or checks
by its own rules: a text is parsed by `compiler.lang.parse`, the modules resolved and checked by
`compiler.lang.pipeline.load_parsed`, as `rulec check FILE` does, so the editor shows the codes, spans
and help that `rulec check` prints.

The context of every analysis is each rulespec under `rulespecs/` (the libraries among them)
and every open document: a title outside `rulespecs/` (tests/fixtures/toy) resolves its `uses
lib`, a variant or erratum its `of "TITLE"`, a title its `extends`, against them. A map overlay
(`errata "NAME" of "TITLE"` outside `rulespecs/`) is applied to its title while it is open, as
`--map` applies it to the title played. Only the files the open documents' titles are built from
are resolved and checked (`Workspace.related`): the diagnostics of an open document are those of
the whole workspace, for less time.

Positions are (line, column) counted from 1, in characters, as `Span` counts them; the server
converts the editor's (0-based, UTF-16) positions at its edge.

Editing a large rulespec: Lark parses 18co.rules (2.8k lines) in about a quarter of a second, more
than an edit may take. An edit is parsed by parsing only the clauses it touches, laid at their own
line and column, and splicing them into the module, the syntax after them moved by the lines the
edit added or took away (`_reparse`); an edit whose text does not parse alone (a syntax error is
reported from the whole text, as `rulec check` reports it), or that opens a comment, is parsed
whole. Both give the module a whole parse gives, spans included (tests/test_lsp.py checks it).
benchmarks/lsp.py times it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace as dc_replace
from pathlib import Path

from compiler import paths
from compiler.lang import syntax as s
from compiler.diagnostics import Diagnostic, SourceMap, Span
from compiler.lang.ir import Program, Title
from compiler.lang.parse import parse_file, parse_unsaved
from compiler.lang.pipeline import Loaded, within, load_parsed, rulespec_files


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
    #: parsed by parsing only the clauses an edit touched (`_reparse`), not the whole text
    by_clause: bool = False

    @functools.cached_property
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
        if path is None or not path.exists() or not within(path, paths.RULESPECS):
            self.documents.pop(shown, None)  # a file outside rulespecs/ is context only while open
            return
        module, found, text = parse_file(path, shown)
        self.documents[shown] = Document(shown, text, module, tuple(found), module)

    def reread(self, path: Path) -> None:
        """A file changed on disk (saved by another program, a checkout): read it again, unless
        the editor has it open (the editor's text is the one that counts)."""
        shown = paths.display(path)
        if shown in self.open:
            return
        if not path.exists():
            self.documents.pop(shown, None)
            return
        if shown not in self.documents and not within(path, paths.RULESPECS):
            return  # a file outside rulespecs/ is context only while open
        self.locations[shown] = path
        module, found, text = parse_file(path, shown)
        self.documents[shown] = Document(shown, text, module, tuple(found), module)

    # -- analysis
    def analyse(self) -> dict[str, list[Diagnostic]]:
        """Resolve the files the open documents' titles are built from (`related`), check each
        title built from an open document, and return the diagnostics of each open document
        (what `rulec check` says of that file)."""
        sources = SourceMap()
        modules: list[s.Module] = []
        found: list[Diagnostic] = []
        for shown in self.related(self.open):
            document = self.documents[shown]
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
                continue
            # reported in a file that is not open, about a place in one that is (a title the open document
            # defines again is "defined twice" where the other file's definition comes second): shown there too
            for span, _ in diagnostic.notes:
                if span is not None and span.path in out and diagnostic.span is not None:
                    out[span.path].append(dc_replace(diagnostic, span=span, notes=(
                        (diagnostic.span, f"reported at {diagnostic.span.path}:{diagnostic.span.line}"),)))
                    break
        for shown in out:
            errors = sum(d.is_error for d in out[shown])
            if errors:
                on_a_variant = self._on_a_variant(shown)
                if on_a_variant is not None and sum(d.is_error for d in on_a_variant) < errors:
                    out[shown] = on_a_variant
        return out

    def _on_a_variant(self, shown: str) -> list[Diagnostic] | None:
        """A map overlay outside rulespecs/ (errata of one title) that has errors on its title, checked
        on each of the title's variants as `rulec play TITLE --variant V --map FILE` applies it (1880
        Romania's Amira map fills what the Amira variant declares, clauses its title lacks): the
        overlay's diagnostics on the variant where it has the fewest errors, or None (no variant, not
        an overlay)."""
        from compiler.lang.check import check_title
        from compiler.lang.resolve import resolve_overlaid

        document = self.documents.get(shown)
        units = document.module.units if document is not None and document.module is not None else ()
        path = self.locations.get(shown) or paths.ROOT / shown
        bases = {u.base for u in units}
        if not units or any(u.kind != "errata" for u in units) or len(bases) != 1 or within(path, paths.RULESPECS):
            return None
        (base,) = bases
        # every rulespec, not only the related ones: the variants of the title are not built from the overlay
        others = [d.module for d in self.documents.values() if d.module is not None and d.path != shown]
        variants = [u.name for m in others for u in m.units if u.kind == "variant" and u.base == base]
        best: list[Diagnostic] | None = None
        for variant in variants:
            resolved, found = resolve_overlaid(others, units, base, variant)
            if resolved is None:
                continue
            own = [d for d in found + check_title(resolved) if d.span is not None and d.span.path == shown]
            if best is None or sum(d.is_error for d in own) < sum(d.is_error for d in best):
                best = own
            if not any(d.is_error for d in best):
                break
        return best

    def related(self, shown: set[str]) -> list[str]:
        """The files the titles built from `shown` are resolved from, in the workspace's order:
        each unit that builds on a unit of `shown` (a title extending it, a variant or erratum of
        it, a title using it as a library), again and again; each unit those use (the libraries,
        the title extended or overlaid), again and again; and each unit of the same name as one of
        them (which `rulec check` reports defined twice, E014). Resolving the rest of the rulespecs
        adds nothing to what is said of `shown`: it only takes time."""
        defines: dict[tuple[str, str], set[str]] = {}
        uses: dict[str, set[tuple[str, str]]] = {}
        for path, document in self.documents.items():
            for unit in document.good.units if document.good is not None else ():
                if unit.kind in ("library", "title"):
                    defines.setdefault((unit.kind, unit.name), set()).add(path)
                wanted = uses.setdefault(path, set())
                if unit.base is not None:
                    wanted.add(("title", unit.base))
                wanted.update(("library", item.library) for item in unit.items if isinstance(item, s.Uses))
        users: dict[str, set[str]] = {}
        for path, wanted in uses.items():
            for key in wanted:
                for defining in defines.get(key, ()):
                    users.setdefault(defining, set()).add(path)
        built = _closure(set(shown) & set(self.documents), lambda path: users.get(path, ()))
        needed = _closure(built, lambda path: [d for key in uses.get(path, ()) for d in defines.get(key, ())])
        names = {key for key, paths_ in defines.items() if paths_ & needed}
        needed |= {path for key in names for path in defines[key]}
        return [path for path in self.documents if path in needed]

    # -- lookups
    def text(self, shown: str) -> str | None:
        document = self.documents.get(shown)
        return document.text if document is not None else None

    def line(self, shown: str, number: int) -> str:
        """Line `number` (from 1) of `shown`; "" past its end or for a file not read."""
        document = self.documents.get(shown)
        if document is None or not 1 <= number <= len(document.lines):
            return ""
        return document.lines[number - 1]

    def source(self, span: Span) -> str:
        """The text a span covers."""
        document = self.documents.get(span.path)
        if document is None or span.line <= 0:
            return ""
        lines = document.lines
        if span.line == span.end_line:
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        parts = [lines[span.line - 1][span.column - 1:]]
        parts.extend(lines[span.line:span.end_line - 1])
        parts.append(lines[span.end_line - 1][:span.end_column - 1] if span.end_line - 1 < len(lines) else "")
        return "\n".join(parts)

    def name_span(self, span: Span, name: str) -> Span:
        """Where `name` is first written, as a whole word, in the text `span` covers (the name of a
        clause or a component's key: the syntax keeps the span of the clause); `span` if nowhere."""
        document = self.documents.get(span.path)
        if document is None or span.line <= 0:
            return span
        lines = document.lines
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
        reading, as that variant; an erratum as its title; a library as the first title using it.
        From the last analysis in which every open document parsed, else from the last one."""
        for program in (self.program, self.loaded.program if self.loaded else None):
            found = _title_in(program, unit) if program is not None and unit is not None else None
            if found is not None:
                return found
        return None


def _title_in(program: Program, unit: s.Unit) -> Title | None:
    if unit.kind == "title":
        return program.titles.get(unit.name)
    if unit.kind in ("variant", "errata"):
        return program.variants.get((unit.base or "", unit.name)) or program.titles.get(unit.base or "")
    return next((title for title in program.titles.values() if unit.name in title.libraries), None)


def _closure(start: set[str], step) -> set[str]:
    found = set(start)
    todo = list(start)
    while todo:
        for other in step(todo.pop()):
            if other not in found:
                found.add(other)
                todo.append(other)
    return found


def line_starts(text: str) -> list[int]:
    """The index in `text` at which each line starts."""
    starts = [0]
    found = text.find("\n")
    while found >= 0:
        starts.append(found + 1)
        found = text.find("\n", found + 1)
    return starts


# ---------------------------------------------------------------- parsing an edit


def _reparse(old: Document, text: str, path: str) -> tuple[s.Module | None, list[Diagnostic] | None]:
    """The module of `text`, an edit of `old`, by parsing only the clauses the edit touches;
    (None, None) where that cannot be done (the caller parses the whole text).

    The edit changes `old.text[start:old_end]` into `text[start:new_end]`. Within one unit, the
    clauses from the last one ending before the edit to the first one starting after it are left
    as they are; the text between them (the clauses the edit touches, and the comments and spaces
    around them) is parsed alone, laid at its line and column, and its clauses (none, one or more)
    take the place of the old ones. The characters just outside that text are unchanged and end
    no token, so the whole text parses into the same clauses. What follows the edit keeps its
    syntax, its spans moved by the lines (and, on the edit's last line, the columns) the edit
    added or took away."""
    module = old.module
    if module is None:
        return None, None
    start = _common_prefix(old.text, text)
    common = _common_prefix(old.text[start:][::-1], text[start:][::-1])
    old_end, new_end = len(old.text) - common, len(text) - common
    starts = line_starts(old.text)

    def offset(span_line: int, column: int) -> int:
        return starts[span_line - 1] + column - 1

    for u, unit in enumerate(module.units):
        unit_first = offset(unit.span.line, unit.span.column)
        closing = offset(unit.span.end_line, unit.span.end_column) - 1  # the unit's "}"
        if not (unit_first < start and old_end <= closing):
            continue
        bounds = [(offset(i.span.line, i.span.column), offset(i.span.end_line, i.span.end_column))
                  for i in unit.items]
        before = [n for n, (_, end) in enumerate(bounds) if end < start]
        after = [n for n, (first, _) in enumerate(bounds) if first > old_end]
        if not before:
            return None, None  # an edit before the first clause: the unit's head is parsed with it
        i = before[-1] + 1
        j = after[0] if after else len(unit.items)
        left = bounds[i - 1][1]
        right = (bounds[j][0] if after else closing) + new_end - old_end
        if "//" in text[text.rfind("\n", 0, right) + 1:right]:
            return None, None  # a comment the edit opened may run on over what follows it
        line = old.text.count("\n", 0, left) + 1
        column = left - starts[line - 1] + 1
        if line == 1:
            return None, None
        # laid at its own line and column, so that every span is where a whole parse puts it
        snippet = 'title "_" {' + "\n" * (line - 1) + " " * (column - 1) + text[left:right] + "\n}"
        parsed, found = parse_unsaved(snippet, path)
        if parsed is None or found or len(parsed.units) != 1:
            return None, None  # a syntax error is reported from a whole parse, where `rulec check` puts it
        end_line = old.text.count("\n", 0, old_end) + 1
        move = _Move(end_line, old_end - starts[end_line - 1] + 1, text.count("\n", 0, new_end) + 1,
                     new_end - (text.rfind("\n", 0, new_end) + 1) + 1)
        items = unit.items[:i] + parsed.units[0].items + move.all(unit.items[j:])
        units = module.units[:u] + (dc_replace(unit, items=items, span=move.span(unit.span)),) \
            + move.all(module.units[u + 1:])
        return s.Module(module.path, units), []
    return None, None


class _Move:
    """Moves the spans of syntax after an edit: the edit's end was at (line, column) and is now at
    (new_line, new_column); a position after it moves with it."""

    def __init__(self, line: int, column: int, new_line: int, new_column: int):
        self.line, self.column = line, column
        self.lines, self.columns = new_line - line, new_column - column

    def position(self, line: int, column: int) -> tuple[int, int]:
        if line > self.line:
            return line + self.lines, column
        if line == self.line and column >= self.column:
            return line + self.lines, column + self.columns
        return line, column

    def span(self, span: Span) -> Span:
        if span.line <= 0 or (span.end_line, span.end_column) < (self.line, self.column):
            return span
        return Span(span.path, *self.position(span.line, span.column), *self.position(span.end_line, span.end_column))

    def all(self, nodes: tuple) -> tuple:
        if not self.lines and not self.columns:
            return nodes
        return tuple(self.node(node) for node in nodes)

    def node(self, node):
        kind = type(node)
        if kind is Span:
            return self.span(node)
        if kind is tuple:
            return tuple(map(self.node, node))
        fields = getattr(node, "__dict__", None)
        if not fields:
            return node  # a string, a number, None
        span = fields.get("span")
        if not self.lines and span is not None and span.line > self.line:
            return node  # the edit kept the lines: only its own line's columns move
        moved = object.__new__(kind)
        moved.__dict__.update({name: value if type(value) in _PLAIN else self.node(value)
                               for name, value in fields.items()})
        return moved


_PLAIN = (str, int, bool, type(None))


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of `a` and `b` (compared a block at a time)."""
    size, at = 4096, 0
    limit = min(len(a), len(b))
    while size:
        while at + size <= limit and a[at:at + size] == b[at:at + size]:
            at += size
        size //= 8
    while at < limit and a[at] == b[at]:
        at += 1
    return at
