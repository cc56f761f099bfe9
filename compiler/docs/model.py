"""The reference site's model: which page holds each clause, and how pages link.

`Site(loaded)` reads the resolved program once and decides, before any page
is written:

- a `Book` for each title and each variant (`titles/<slug>/`), whose rules
  pages follow the rulebook's own sections (`Title.sections`): one page per
  top-level section, its subsections on the same page;
- for each clause of a book, the sections it cites (itself, or through its
  parts: a component's properties, a table's rows, a routine's statements),
  and its *home*: the first section citing it directly, else the first citing
  one of its parts, else the book's "other clauses" page. A clause is shown in
  full at its home and as a short entry in every other section citing it;
- for a variant: which of its clauses it takes as its title has them, shown on the
  title's pages (their home is the title's), and so which of its pages are its own
  (the sections where it changes or removes a clause);
- a stable anchor per clause: the slug of its kind and name
  (`private MT` -> `#private-mt`), unique within the book;
- where every clause of the libraries lives (`library/<name>.md`).

`Site.link(from_page, place)` gives the relative Markdown link mkdocs
resolves and validates. Everything is computed in a fixed order, so the same
rulespecs give the same pages.
"""

from __future__ import annotations

import ast
import functools
import posixpath
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from compiler import paths
from compiler.lang import syntax as s
from compiler.names import slug
from compiler.emit.emitter import module_name
from compiler.lang.ir import Clause, Title
from compiler.lang.pipeline import Loaded

#: Routine kinds and the prefix of the engine function that implements them.
ENGINE_PREFIX = {"action": "a_", "procedure": "r_", "function": "r_", "trigger": "t_"}


@dataclass(frozen=True)
class Place:
    """A page of the site (a path under site/docs) and an anchor on it."""

    page: str
    anchor: str | None = None


def anchor_for(kind: str, name: str) -> str:
    """The stable anchor of a clause: `slug(kind + name)`."""
    return slug(f"{kind} {name}") or kind


def section_anchor(section: s.Section) -> str:
    return "section-" + (slug(section.citation.section_id) or "unnamed")


def section_label(section: s.Section) -> str:
    """'§8.1 Transactions', 'VII.3.8 Train Overview', 'Appendix B Phase and
    Transaction Charts', or the heading alone for a section known by it."""
    c = section.citation
    if c.kind == "heading":
        return section.heading
    if c.kind == "section":
        return f"{c.ref} {section.heading}".strip()
    return f"{c}" + (f" {section.heading}" if section.heading else "")


def citation_label(c: s.Citation) -> str:
    """A citation as printed on the site."""
    if c.kind == "heading":
        return f"“{c.ref}”"
    if c.kind == "section":
        return c.ref + (f" ({c.heading})" if c.heading else "")
    return str(c)


def nearest_section(citation: s.Citation, declared: dict[str, s.Section]) -> str | None:
    """The declared section a rulebook citation belongs to: itself, or its
    nearest declared parent (§8.2.3 -> §8.2), or the appendix it is numbered
    under (§C.1 -> Appendix C)."""
    sid = citation.section_id
    if sid in declared:
        return sid
    if citation.kind != "section":
        return None
    ref = citation.ref.lstrip("§")
    if citation.heading and ref in declared:
        return ref
    parts = ref.split(".")
    for n in range(len(parts) - 1, 0, -1):
        key = ".".join(parts[:n])
        if key in declared:
            return key
    if len(parts) > 1:
        for prefix in ("Appendix ", "Table "):
            if prefix + parts[0] in declared:
                return prefix + parts[0]
    return None


def part_label(where: str) -> str:
    """The part of a clause a provenance belongs to, for display."""
    return where or "the clause itself"


# ---------------------------------------------------------------- books


@dataclass
class SectionPage:
    """One page of a book's rules: a top-level section and its subsections."""

    file: str
    top: s.Section
    sections: list[s.Section]
    owner: str  # the title whose rulebook declares these sections


@dataclass
class Entry:
    """A clause as the book shows it.

    `clause` is what is shown (for a title's `cite` of a library clause, the
    library clause); `cite` the title's cite of it, if any; `direct` the
    sections the clause's own provenance cites; `parts` the sections only its
    parts cite, with the parts' names.
    """

    clause: Clause
    anchor: str
    cite: Clause | None = None
    direct: list[str] = field(default_factory=list)
    parts: dict[str, list[str]] = field(default_factory=dict)
    home: Place | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.clause.key

    @property
    def citations(self) -> tuple[s.Citation, ...]:
        own = self.clause.prov.citations
        return own + (self.cite.prov.citations if self.cite else ())

    @property
    def written_here(self) -> bool:
        """Whether a title or overlay wrote (or cited) it, rather than a library alone."""
        return self.clause.origin.kind != "library" or self.cite is not None


@dataclass
class Book:
    """The pages of one title, or of one title with a variant applied."""

    title: Title
    slug: str
    dir: str
    module: str
    parent: "Book | None" = None  # for a variant: its title's book
    pages: list[SectionPage] = field(default_factory=list)
    entries: dict[tuple[str, str], Entry] = field(default_factory=dict)
    declared: dict[str, s.Section] = field(default_factory=dict)
    section_page: dict[str, SectionPage] = field(default_factory=dict)
    #: every section page of the rulebook, the variant's own and those it shows on its title's pages
    all_pages: list[SectionPage] = field(default_factory=list)
    #: a variant: its title's entries it removes (`Site._share_unchanged`)
    removed: list[Entry] = field(default_factory=list)
    #: a variant: whether its "other clauses" page is its own (it changes a clause there)
    own_other: bool = True

    @property
    def name(self) -> str:
        return self.title.display_name

    @property
    def is_variant(self) -> bool:
        return self.title.variant is not None

    def file(self, name: str) -> str:
        return f"{self.dir}/{name}"

    @property
    def index(self) -> str:
        return self.file("index.md")

    @property
    def other(self) -> str:
        return self.file("other.md")

    @property
    def reports(self) -> str:
        return self.file("reports.md")

    @property
    def tables(self) -> str:
        return self.file("market.md")

    @property
    def changes(self) -> str:
        return self.file("changes.md")

    @property
    def verification(self) -> str:
        return self.file("verification.md")

    @property
    def engine_page(self) -> str:
        return f"engines/{self.module}.md"

    def entries_in_order(self) -> list[Entry]:
        return list(self.entries.values())

    def section_place(self, sid: str) -> Place | None:
        page = self.section_page.get(sid)
        if page is None:
            return None
        return Place(page.file, section_anchor(self.declared[sid]))

    def owns(self, page: str) -> bool:
        """Whether a section page is this book's own (a variant shows the sections it leaves as
        they are on its title's pages)."""
        return page.startswith(self.dir + "/")

    def differs(self, key: tuple[str, str]) -> bool:
        """Whether a variant has a clause otherwise than its title (replaced, amended, added,
        removed, cited anew); a title's every clause is its own."""
        if self.parent is None:
            return True
        base, entry = self.parent.entries.get(key), self.entries.get(key)
        return base is None or entry is None or base.clause is not entry.clause or base.cite is not entry.cite


# ---------------------------------------------------------------- engines


@dataclass(frozen=True)
class EngineFunction:
    name: str
    line: int
    end_line: int
    source: str
    #: the module of generated/ it is written in: the engine's, or its title's shared one ("d_1846")
    module: str = ""


class _Readings:
    """What the engine pages read of a generated module's text (`_functions`, `_shared_names`), by
    the text: each module is parsed once a process (generated/library.py, which every engine names,
    was parsed again for each), and once a build: `rulec build` keeps the answers in the build cache
    (`remember`), taken back while the text and the compiler's code are those they were read from
    (after an erratum only the engines it changed are parsed again)."""

    def __init__(self):
        self.kept: dict[str, object] | None = None
        self.used: dict[str, object] = {}
        self.remember = False

    def get(self, kind: str, text: str, make):
        from compiler import memo

        key = memo.digest(memo.code(), kind, text)
        if key in self.used:
            return self.used[key]
        if self.kept is None:
            found = memo.recall("engine-readings", "index") if self.remember else None
            self.kept = found if isinstance(found, dict) else {}
        value = self.used[key] = self.kept[key] if key in self.kept else make()
        return value

    def keep(self) -> None:
        """Keep the answers used since the last `keep` (alone) in the build cache (with `remember`)."""
        from compiler import memo

        if self.remember and self.used and (self.kept is None or self.used.keys() != self.kept.keys()):
            memo.keep("engine-readings", "index", self.used)
        self.kept, self.used = dict(self.used), {}


_READINGS = _Readings()


def _functions(text: str, module: str) -> tuple[dict[str, EngineFunction], int | None]:
    """A generated module's top-level functions by name and the line where its `Game` class starts
    (`_Readings`: parsed once). Only the code after the data is parsed (the data is most of the
    module and holds no function)."""
    found = _READINGS.get(f"functions {module}", text, lambda: _parse_functions(text, module))
    return dict(found[0]), found[1]


def _parse_functions(text: str, module: str) -> tuple[dict[str, EngineFunction], int | None]:
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(("def ", "class "))), len(lines))
    try:
        tree = ast.parse("\n".join(lines[start:]))
    except SyntaxError:
        return {}, None
    functions: dict[str, EngineFunction] = {}
    game_line = None
    for node in tree.body:
        first, end = node.lineno + start, (node.end_lineno or node.lineno) + start
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = EngineFunction(node.name, first, end, "\n".join(lines[first - 1:end]), module)
        elif isinstance(node, ast.ClassDef) and node.name == "Game":
            game_line = first
    return functions, game_line


def read_engine(module: str, folder: Path | None = None) -> tuple[str, dict[str, EngineFunction], int | None]:
    """The generated module's text (in `folder`, generated/ unless told), its
    top-level functions by name, and the line where its `Game` class starts.
    Missing file: empty.

    The functions it shares with its title's other engines (`_TITLE.define(globals(), unshared=[...])`:
    those of `generated/d_<title>.py` but the ones named), and those that module shares with the
    library's other titles (`_LIBRARY.define(...)` there: those of `generated/library.py`), are among
    them, each with the module it is written in."""
    path = (folder or paths.GENERATED) / f"{module}.py"
    if not path.exists():
        return "", {}, None
    text = path.read_text(encoding="utf-8")
    functions, game_line = _functions(text, module)
    return text, {**_shared_functions(text, path), **functions}, game_line


def _shared_functions(text: str, path: Path) -> dict[str, EngineFunction]:
    """The functions a generated module takes from the shared modules it names (`_TITLE`, `_LIBRARY`)
    with `define`, read where they are written."""
    if "\n_TITLE = shared(" not in text and "\n_LIBRARY.define(" not in text:
        return {}
    names, unshared = _READINGS.get("shared", text, lambda: _shared_names(text))
    shared: dict[str, EngineFunction] = {}
    for alias in ("_LIBRARY", "_TITLE"):  # the title's module's own over the library's
        shared_path = path.with_name(f"{names.get(alias)}.py")
        if alias in unshared and shared_path.exists():
            shared_text = shared_path.read_text(encoding="utf-8")
            theirs, _ = _functions(shared_text, names[alias])
            theirs = {**_shared_functions(shared_text, shared_path), **theirs}
            shared.update({fn: f for fn, f in theirs.items() if fn not in unshared[alias]})
    return shared


def _shared_names(text: str) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The modules a generated module names (`_TITLE`, `_LIBRARY`: alias -> module) and the
    functions it does not take from each (`define(..., unshared=[...])`: alias -> names)."""
    names: dict[str, str] = {}
    unshared: dict[str, set[str]] = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) in ("_TITLE", "_LIBRARY"):
            args = node.value.args  # type: ignore[attr-defined]
            names[ast.unparse(node.targets[0])] = ast.literal_eval(args[2]) if len(args) > 2 else "library"
        elif isinstance(node, ast.Expr) and ast.unparse(node.value).startswith(("_TITLE.define(", "_LIBRARY.define(")):
            alias = ast.unparse(node.value).split(".", 1)[0]
            unshared[alias] = set(ast.literal_eval(node.value.keywords[0].value))  # type: ignore[attr-defined]
    return names, unshared


def engine_function(clause: Clause) -> str | None:
    """The name of the generated function implementing a routine or trigger."""
    prefix = ENGINE_PREFIX.get(clause.kind)
    return prefix + clause.name if prefix else None


# ---------------------------------------------------------------- the site


class Site:
    """Everything the page writers need to place and link clauses."""

    def __init__(self, loaded: Loaded, proofs: dict | None = None, generated: Path | None = None,
                 remember: bool = False):
        self.loaded = loaded
        #: `rulec verify`'s report per title display name (`proofs.prove`)
        self.proofs = proofs or {}
        self.sources = loaded.sources
        self._lines: dict[str, list[str] | None] = {}
        self.program = loaded.program
        self.path_title = self._path_titles()
        self.items = self._item_spans()
        self.books: list[Book] = []
        self.book_by_slug: dict[str, Book] = {}
        for name in sorted(self.program.titles, key=lambda n: _title_order(n, self.program)):
            title = self.program.titles[name]
            book = self._book(title, None)
            for variant in sorted(self.program.variant_names(name), key=slug):
                self._book(self.program.variants[(name, variant)], book)
        self.libraries = self._libraries()
        #: the engines' folder (generated/ unless told)
        _READINGS.remember = remember
        self.engines = {book.module: read_engine(book.module, generated) for book in self.books}
        _READINGS.keep()

    # -- books
    def title_books(self) -> list[Book]:
        return [b for b in self.books if b.parent is None]

    def variants_of(self, book: Book) -> list[Book]:
        return [b for b in self.books if b.parent is book]

    def book_of_title(self, name: str) -> Book | None:
        return self.book_by_slug.get(slug(name))

    def _book(self, title: Title, parent: Book | None) -> Book:
        book_slug = slug(title.name) + (f"--{slug(title.variant)}" if title.variant else "")
        book = Book(title, book_slug, f"titles/{book_slug}", module_name(title), parent)
        self.books.append(book)
        self.book_by_slug[book_slug] = book
        self._place_sections(book)
        self._place_clauses(book)
        if parent is not None:
            self._share_unchanged(book, parent)
        return book

    def _share_unchanged(self, book: Book, parent: Book) -> None:
        """A variant (or a reading) repeats most of its title: a clause it takes as the title has
        it (the same clause, the same cite) is shown on the title's page, and the variant's own
        pages are the sections where it replaces, amends, adds or removes a clause. A section it
        leaves as it is links to the title's page of it; so do its "other clauses" where it
        changes none of them."""
        own: set[str] = set()
        for key, entry in book.entries.items():
            base = parent.entries.get(key)
            if base is not None and base.clause is entry.clause and base.cite is entry.cite:
                if base.home is not None:
                    entry.home = base.home
                elif entry.home is not None:
                    own.add(entry.home.page)
            elif entry.home is not None:
                own.add(entry.home.page)
        book.removed = [e for k, e in parent.entries.items() if k not in book.entries]
        for entry in book.removed:
            if entry.home is not None and parent.owns(entry.home.page):
                own.add(book.file(posixpath.basename(entry.home.page)))
        book.all_pages = list(book.pages)
        kept = []
        for sp in book.pages:
            shared = [parent.section_page.get(sec.citation.section_id) for sec in sp.sections]
            if sp.file in own or any(p is None or posixpath.basename(p.file) != posixpath.basename(sp.file)
                                     for p in shared):
                kept.append(sp)
                continue
            for sec, p in zip(sp.sections, shared):
                book.section_page[sec.citation.section_id] = p
        book.pages = kept
        book.own_other = book.other in own

    def _place_sections(self, book: Book) -> None:
        """Group the declared sections into pages, one per top-level section."""
        book.declared = {sec.citation.section_id: sec for sec in book.title.sections}
        tops: dict[str, SectionPage] = {}
        numbered: s.Section | None = None  # the last numbered section declared before
        for sec in book.title.sections:
            top = self._top_of(sec, numbered, book.declared)
            if sec.citation.kind == "section":
                numbered = sec
            page = tops.get(top)
            if page is None:
                top_sec = book.declared[top]
                owner = self.path_title.get(top_sec.span.path, book.title.name)
                page = SectionPage(book.file(f"section-{slug(top) or 'unnamed'}.md"), top_sec, [], owner)
                tops[top] = page
                book.pages.append(page)
            page.sections.append(sec)
            book.section_page[sec.citation.section_id] = page
        book.all_pages = list(book.pages)

    def _top_of(self, sec: s.Section, numbered: s.Section | None, declared) -> str:
        c = sec.citation
        sid = c.section_id
        if c.kind == "heading":
            # a heading-only section inside a numbered rulebook belongs to the
            # numbered section declared before it (1800's tile-laying headings of §11.1)
            if numbered is not None and numbered.span.path == sec.span.path:
                return self._top_of(numbered, None, declared)
            return sid
        if c.kind != "section":
            return sid
        parts = c.ref.lstrip("§").split(".")
        for n in range(1, len(parts)):
            key = ".".join(parts[:n])
            if key in declared:
                return key
        if len(parts) > 1:
            for prefix in ("Appendix ", "Table "):
                if prefix + parts[0] in declared:
                    return prefix + parts[0]
        return sid

    def _place_clauses(self, book: Book) -> None:
        title = book.title
        used: set[str] = set()
        parts: dict[tuple[str, str], list[tuple[str, s.Provenance]]] = defaultdict(list)
        for clause, where, prov, _span in title.provenances():
            if where:
                parts[clause.key].append((where, prov))
        cites = {c.name: c for c in title.of_kind("cite")}
        order = {sid: i for i, sid in enumerate(book.declared)}
        for clause in title.clauses:
            if clause.kind == "cite":
                continue
            anchor = anchor_for(clause.kind, clause.name)
            base, n = anchor, 2
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            entry = Entry(clause, anchor, cites.get(f"{clause.kind} {clause.name}"))
            direct: set[str] = set()
            for citation in entry.citations:
                if citation.is_rulebook:
                    sid = nearest_section(citation, book.declared)
                    if sid is not None:
                        direct.add(sid)
            entry.direct = sorted(direct, key=order.__getitem__)
            by_part: dict[str, list[str]] = defaultdict(list)
            for where, prov in parts.get(clause.key, ()):
                for citation in prov.rulebook:
                    sid = nearest_section(citation, book.declared)
                    if sid is not None and sid not in direct and where not in by_part[sid]:
                        by_part[sid].append(where)
            entry.parts = {sid: by_part[sid] for sid in sorted(by_part, key=order.__getitem__)}
            if entry.direct:
                entry.home = book.section_place(entry.direct[0])
            elif entry.parts:
                entry.home = book.section_place(next(iter(entry.parts)))
            elif entry.written_here or clause.kind != "tile":
                entry.home = Place(book.other)
            if entry.home is not None:
                entry.home = Place(entry.home.page, anchor)
            book.entries[clause.key] = entry

    # -- engines
    def engine_place(self, book: Book, fn: str) -> Place:
        """Where an engine function is shown: on the book's engine page, or, for a variant whose
        engine has it word for word as its title's engine does, on the title's engine page."""
        parent = book.parent
        if parent is not None and self.same_function(book, fn):
            return Place(parent.engine_page, fn)
        return Place(book.engine_page, fn)

    def same_function(self, book: Book, fn: str) -> bool:
        """Whether a variant's engine function is its title's, word for word."""
        if book.parent is None:
            return False
        mine = self.engines.get(book.module, ("", {}, None))[1].get(fn)
        theirs = self.engines.get(book.parent.module, ("", {}, None))[1].get(fn)
        return mine is not None and theirs is not None and mine.source == theirs.source

    # -- libraries
    def _libraries(self) -> dict[str, tuple[s.Unit, dict[tuple[str, str], Place]]]:
        out = {}
        for module in self.loaded.modules:
            for unit in module.units:
                if unit.kind != "library":
                    continue
                page = f"library/{slug(unit.name)}.md"
                places = {}
                for item in unit.items:
                    key = getattr(item, "clause_key", None)
                    if key is not None and not isinstance(item, s.Cite):
                        places[key] = Place(page, anchor_for(*key))
                out[unit.name] = (unit, places)
        return dict(sorted(out.items()))

    def library_place(self, clause: Clause) -> Place | None:
        lib = self.libraries.get(clause.origin.name)
        return lib[1].get(clause.key) if lib else None

    # -- where a clause is
    def place(self, book: Book, key: tuple[str, str]) -> Place | None:
        """Where `key` is shown for `book`: its home in the book, else (a
        library clause the book does not show) its library page."""
        entry = book.entries.get(key)
        if entry is None:
            if key[0] == "cite":
                kind, _, name = key[1].partition(" ")
                return self.place(book, (kind, name))
            return None
        if entry.home is not None:
            return entry.home
        return self.library_place(entry.clause)

    def clause_place(self, clause: Clause, book: Book) -> Place | None:
        """Where a clause object is shown: in `book` if that is where it is
        in force, else where its origin shows it (for an overlay's base)."""
        entry = book.entries.get(clause.key)
        if entry is not None and entry.clause is clause:
            return self.place(book, clause.key)
        return self.origin_place(clause, book)

    def origin_place(self, clause: Clause, book: Book) -> Place | None:
        """Where the unit that wrote `clause` shows it: the library page, or
        the book of the title (or variant) that wrote it."""
        if clause.origin.kind == "library":
            return self.library_place(clause)
        target = None
        if clause.origin.kind == "title":
            target = self.book_of_title(clause.origin.name)
        elif clause.origin.kind == "variant":
            target = self.book_by_slug.get(
                slug(book.title.name) + "--" + slug(clause.origin.name))
        elif clause.origin.kind == "errata":
            target = book.parent or book
        if target is None:
            return None
        entry = target.entries.get(clause.key)
        if entry is None:
            return None
        return self.place(target, clause.key)

    # -- links
    @staticmethod
    def link(from_page: str, place: Place) -> str:
        """A relative Markdown link from one page to a place."""
        if place.page == from_page:
            return f"#{place.anchor}" if place.anchor else posixpath.basename(from_page)
        rel = _relpath(place.page, posixpath.dirname(from_page) or ".")
        return rel + (f"#{place.anchor}" if place.anchor else "")

    # -- sources
    def _path_titles(self) -> dict[str, str]:
        """Each rulespec file -> the title its units belong to."""
        out = {}
        for module in self.loaded.modules:
            for unit in module.units:
                if unit.kind == "title":
                    out.setdefault(unit.path, unit.name)
                elif unit.kind in ("variant", "errata") and unit.base:
                    out.setdefault(unit.path, unit.base)
        return out

    def _item_spans(self) -> dict[tuple, s.Span]:
        """(unit kind, unit name, unit base, verb, clause key) -> the item's span."""
        out: dict[tuple, s.Span] = {}
        for module in self.loaded.modules:
            for unit in module.units:
                base = unit.base if unit.kind in ("variant", "errata") else None
                for item in unit.items:
                    if isinstance(item, s.Replace):
                        verb, key = "replaced", item.decl.clause_key
                    elif isinstance(item, s.Amend):
                        verb, key = "amended", (item.kind, item.key)
                    elif isinstance(item, s.Remove):
                        verb, key = "removed", (item.kind, item.key)
                    elif isinstance(item, s.Cite):
                        verb, key = "cite", item.clause_key
                    elif hasattr(item, "clause_key"):
                        verb, key = "defined", item.clause_key
                    else:
                        continue
                    out.setdefault((unit.kind, unit.name, base, verb, key), item.span)
        return out

    def item_span(self, clause: Clause, book: Book, verb: str | None = None) -> s.Span:
        """The span of the item that wrote `clause` (with its `replace` or
        `amend` keyword), falling back to the clause's own span."""
        origin = clause.origin
        verb = verb or clause.change
        bases = [None] if origin.kind in ("library", "title") else _lineage(book.title, self.program)
        for base in bases:
            span = self.items.get((origin.kind, origin.name, base, verb, clause.key))
            if span is not None:
                return span
        return clause.span

    def _line(self, path: str, number: int) -> str:
        """One line of a rulespec as it was loaded (each file read once)."""
        if path not in self._lines:
            lines = _read_lines(path)
            same = lines is not None and self.sources.line(path, 1) == (lines[0] if lines else "")
            self._lines[path] = lines if same else None
        lines = self._lines[path]
        if lines is None:  # not on disk as loaded: ask the source map
            return self.sources.line(path, number) or ""
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def source(self, span: s.Span) -> tuple[str, int]:
        """The DSL text of a span, whole lines, dedented; and its first line number."""
        lines = [self._line(span.path, n) for n in range(span.line, span.end_line + 1)]
        if not lines:
            return "", span.line
        first, last = lines[0], lines[-1]
        rest = last[span.end_column - 1:] if len(lines) > 1 else first[span.end_column - 1:]
        cut = rest.strip() and not rest.strip().startswith("//")
        if cut:
            lines[-1] = last[: span.end_column - 1].rstrip()
        col = span.column - 1
        if first[:col].strip():
            lines[0] = lines[0][col:]
            indent = None
        else:
            indent = col
        out = []
        for i, line in enumerate(lines):
            if indent is not None or i > 0:
                width = len(line) - len(line.lstrip(" \t"))
                strip = min(width, indent if indent is not None else _min_indent(lines[1:]))
                line = line[strip:]
            out.append(line.rstrip())
        return "\n".join(out), span.line


def _read_lines(path: str) -> list[str] | None:
    for candidate in (Path(path), paths.ROOT / path):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8").splitlines()
    return None


@functools.lru_cache(maxsize=None)
def _relpath(page: str, folder: str) -> str:
    return posixpath.relpath(page, folder)


def _min_indent(lines: list[str]) -> int:
    widths = [len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()]
    return min(widths) if widths else 0


def _lineage(title: Title, program) -> list[str]:
    """The title's name and the titles it extends, nearest first."""
    out, name, seen = [], title.name, set()
    while name and name not in seen:
        seen.add(name)
        out.append(name)
        base = program.titles.get(name)
        name = base.extends if base is not None else None
    return out


def _title_order(name: str, program) -> tuple:
    """Titles by name, a title that extends another right after its base."""
    lineage = _lineage(program.titles[name], program)
    return (slug(lineage[-1]), len(lineage), slug(name))

