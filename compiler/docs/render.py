"""Markdown for the reference site: escaping, tables, fences, and clause cards.

A *card* shows one clause: its summary in the project's words, its
citations (linked to the section they name), its provenance (supplements
with their source, assumptions with their reason, gaps), its DSL source with
the file's own line numbers, the generated engine function that implements
it, what an overlay changed, and links to the same rule elsewhere.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from compiler.lang import syntax as s
from compiler.docs.model import (
    Book,
    Entry,
    Place,
    Site,
    citation_label,
    engine_function,
    nearest_section,
    part_label,
)
from compiler.docs.proofs import STATUS_ORDER, STATUS_TEXT
from compiler.docs.topics import TOPICS, Topic
from compiler.emit.pieces import unparse
from compiler.lang.ir import Clause
from compiler.lang.lexer import ALIASES

LANG = ALIASES[0]
#: Front matter keeping a page of code or data out of the search index.
NO_SEARCH = "---\nsearch:\n  exclude: true\n---\n\n"

# ---------------------------------------------------------------- text


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|!])")
#: A word of running text: what lies between spaces, brackets, quotes and separators.
_WORD = re.compile(r"[^\s()\[\]{},;\"'“”‘’`<>|*]+")
#: An identifier: two word characters joined by an underscore (`cert_limit`, `g_1846/game.rb`).
_IDENTIFIER = re.compile(r"[A-Za-z0-9]_+[A-Za-z0-9]")


def identifiers(text: str) -> list[tuple[str, bool]]:
    """`text` cut into (piece, is an identifier): a snake_case name, a
    constant or a path in running text is an identifier, with the full
    stops, colons and marks that end a sentence left outside it."""
    out: list[tuple[str, bool]] = []
    at = 0
    for m in _WORD.finditer(text):
        word = m.group(0).rstrip(".:!?")
        if not _IDENTIFIER.search(word):
            continue
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((word, True))
        at = m.start() + len(word)
    if at < len(text):
        out.append((text[at:], False))
    return out


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def esc(text: object) -> str:
    """Plain text for inline Markdown: every character Markdown would read is
    escaped, and every identifier in it (`cert_limit`) set as code, as a
    reader meets it in the rulespec rather than as a word."""
    text = str(text).replace("\n", " ")
    return "".join(code(piece) if ident else _escape(piece) for piece, ident in identifiers(text))


def code(text: object) -> str:
    """An inline code span that holds any text (pipes escaped for tables)."""
    body = str(text).replace("\n", " ")
    ticks = "`"
    while ticks in body:
        ticks += "`"
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{ticks}{pad}{body}{pad}{ticks}".replace("|", "\\|")


def cell(text: str) -> str:
    """Markdown that goes into a table cell: one line, pipes escaped."""
    return text.replace("\n", "<br>").replace("|", "\\|") if "`" not in text else _cell_keep_code(text)


def _cell_keep_code(text: str) -> str:
    # pipes inside code spans are already escaped by `code`; escape the rest
    out, in_code = [], False
    for part in re.split(r"(`+)", text):
        if part.startswith("`"):
            in_code = not in_code
            out.append(part)
        else:
            out.append(part if in_code else part.replace("|", "\\|"))
    return "".join(out).replace("\n", "<br>")


def origin_label(origin) -> str:
    """Where a clause was written, for a reader: 'title “1800”', 'library “18xx”'."""
    return f"{origin.kind} “{origin.name}”"


def link(text: str, url: str) -> str:
    return f"[{text}]({url})"


def table(headers: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return ""
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        out.append("| " + " | ".join(cell(c) if c else " " for c in row) + " |")
    return "\n".join(out) + "\n"


def fence(text: str, lang: str = LANG, *, linenums: int | None = None, title: str | None = None) -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    attrs = []
    if linenums is not None:
        attrs.append(f'linenums="{linenums}"')
    if title:
        attrs.append(f'title="{title}"')
    head = f"{ticks} {lang}" + (" " + " ".join(attrs) if attrs else "")
    return f"{head}\n{text}\n{ticks}\n"


def picture(alt: str, url: str, what: str = "picture") -> str:
    """An SVG picture at the size it is drawn, in a box that scrolls sideways
    where the picture is wider than the column, and a link that opens the
    SVG file on its own (full size, to zoom)."""
    return (f'<div class="rulec-picture" markdown="1">\n\n![{alt}]({url})\n\n</div>\n\n'
            f"[Open the {what} full size (SVG)]({url}){{ .rulec-full-size }}\n")


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 row', '2 rows'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line.strip() else "" for line in text.splitlines()) + "\n"


def admonition(kind: str, title: str, body: str, *, collapsible: bool = False, open_: bool = False) -> str:
    mark = "!!!" if not collapsible else ("???+" if open_ else "???")
    return f'{mark} {kind} "{title.replace(chr(34), chr(39))}"\n\n{indent(body)}\n'


_ABBREVIATIONS = {"cert": "certificate", "certs": "certificates", "sdr": "share dealing round",
                  "sr": "stock round", "pres": "president", "ipo": "IPO", "ors": "operating rounds"}


def humanize(name: str) -> str:
    """`cert_limit` -> 'certificate limit'."""
    words = [_ABBREVIATIONS.get(w, w) for w in name.replace("_", " ").split()]
    return " ".join(words)


def short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def value_text(expr, limit: int = 160) -> str:
    """A value as DSL text, shortened for tables."""
    if isinstance(expr, s.Str):
        return short(expr.value, limit)
    return short(unparse(expr), limit)


def value_md(expr, limit: int = 160) -> str:
    """A value for a page, as a reader reads it: a string as text, a list of
    strings as its items in one sentence, a list of names or numbers item by
    item, a sum of money or a number as written, a yes/no as a word, anything
    else as DSL code."""
    if isinstance(expr, s.Str):
        return esc(short(expr.value, limit))
    if isinstance(expr, s.ListLit) and expr.items and all(isinstance(i, s.Str) for i in expr.items):
        return esc(short("; ".join(i.value for i in expr.items), limit))
    if isinstance(expr, s.ListLit) and expr.items and all(isinstance(i, (s.Name, s.Int, s.Money)) for i in expr.items):
        return ", ".join(code(value_text(i)) for i in expr.items)
    if isinstance(expr, s.ListLit) and not expr.items:
        return "none"
    if isinstance(expr, s.Bool):
        return "yes" if expr.value else "no"
    if isinstance(expr, (s.Int, s.Money, s.Percent)):
        return esc(value_text(expr))
    if isinstance(expr, s.Range) and isinstance(expr.low, _SCALARS) and isinstance(expr.high, _SCALARS):
        return esc(f"{value_text(expr.low)}–{value_text(expr.high)}")
    if isinstance(expr, s.MapLit) and expr.entries and all(
            isinstance(x, _SCALARS) for entry in expr.entries for x in entry):
        return esc(short(", ".join(f"{value_text(k)} → {value_text(v)}" for k, v in expr.entries), limit))
    return code(value_text(expr, limit))


_SCALARS = (s.Int, s.Money, s.Percent, s.Str, s.Name)


def table_key(key) -> str:
    if isinstance(key, tuple):
        return f"{key[0]}..{key[1]}"
    return str(key)


def table_summary(decl: s.Table, limit: int = 8) -> str:
    """'2 → $520; 3 → $400' for a small table; '3 players: $400; 4 players: $300'
    for one by players."""
    by_players = list(decl.dims) == ["players"]
    parts = [(f"{table_key(row.keys[0])} players: " if by_players else
              ", ".join(table_key(k) for k in row.keys) + " → ") + value_text(row.value, 40) for row in decl.rows]
    more = f"; … ({len(parts)} rows)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


def str_prop(decl, name: str) -> str | None:
    prop = decl.get(name) if isinstance(decl, s.Component) else None
    if prop is not None and isinstance(prop.value, s.Str):
        return prop.value.value
    return None


# ---------------------------------------------------------------- labels


def clause_label(clause: Clause) -> str:
    """The clause's name in words: its display string, else its name humanised."""
    decl = clause.decl
    title = getattr(decl, "title", None)
    if title:
        return title
    if isinstance(decl, s.Sanction):
        return f"{humanize(decl.invariant)} may break after {humanize(decl.action)}"
    if isinstance(decl, s.Component):
        return humanize(decl.key or decl.kind)
    return humanize(clause.name)


def _heading_label(clause: Clause) -> str | None:
    """The name in words a clause's heading shows after its name, where it differs."""
    label = clause_label(clause)
    if label and label.lower() != humanize(clause.name).lower() or isinstance(clause.decl, s.Property):
        return label
    return None


def clause_heading(clause: Clause) -> str:
    """'property `cert_limit` — certificate limit': the kind, the name as the
    rulespec writes it, and the name in words where they differ."""
    label = _heading_label(clause)
    return f"{esc(clause.kind)} {code(clause.name)}" + (f" — {esc(label)}" if label else "")


def clause_heading_text(clause: Clause) -> str:
    """clause_heading as plain text: 'property cert_limit — certificate limit'."""
    label = _heading_label(clause)
    return f"{clause.kind} {clause.name}" + (f" — {label}" if label else "")


def param_flags(param: s.Param) -> str:
    """How a schema parameter is given: required (when ...), its default, documentation only."""
    bits = []
    if param.required:
        bits.append("required" + (f" when {code(unparse(param.required_when))}" if param.required_when is not None else ""))
    if param.default is not None:
        bits.append(f"default {code(unparse(param.default))}")
    if param.documentation:
        bits.append("documentation")
    return ", ".join(bits)


def kind_table(decl: s.KindDecl) -> str:
    """A kind's properties as a table: name, type, how given, meaning."""
    rows = [[code(p.name), code(p.type), param_flags(p), esc(p.title or "")] for p in decl.params]
    return table(["property", "type", "given", "meaning"], rows)


def signature(decl: s.Routine) -> str:
    """`name(a: T, b: U = default)`: an optional field shows its default."""
    params = ", ".join(f"{p.name}: {p.type}" + (f" = {unparse(p.default)}" if p.default is not None else "")
                       for p in decl.params)
    return f"{decl.name}({params})"


# ---------------------------------------------------------------- the card context


@dataclass
class BookFacts:
    """Per-book lookups the cards need, computed once per book."""

    provs: dict[tuple[str, str], list[tuple[str, s.Provenance]]] = field(default_factory=dict)
    gaps: dict[tuple[str, str], list[tuple[str, s.Gap]]] = field(default_factory=dict)
    params: dict[str, Clause] = field(default_factory=dict)


def book_facts(book: Book) -> BookFacts:
    provs: dict = defaultdict(list)
    for clause, where, prov, _span in book.title.provenances():
        provs[clause.key].append((where, prov))
    gaps: dict = defaultdict(list)
    for clause, where, gap in book.title.gaps():
        gaps[clause.key].append((where, gap))
    params = {c.name: c for c in book.title.of_kind("param")}
    return BookFacts(dict(provs), dict(gaps), params)


def topics_for(clause: Clause) -> list[Topic]:
    """The cross-title questions a clause answers or bears on."""
    out = []
    for topic in TOPICS:
        if clause.kind in ("property", "table", "param") and clause.name in topic.params:
            out.append(topic)
            continue
        for rel in topic.related:
            if "." in rel:
                kind = rel.split(".", 1)[0]
                hit = clause.kind == kind and isinstance(clause.decl, s.Component) \
                    and clause.decl.get(rel.split(".", 1)[1]) is not None
            elif " " in rel:
                hit = f"{clause.kind} {clause.name}" == rel
            else:
                hit = clause.name == rel or clause.kind == rel
            if hit and clause.kind not in ("term", "cite"):
                out.append(topic)
                break
    return out


class Cards:
    """Renders the cards of one book onto one page."""

    def __init__(self, site: Site, book: Book, facts: BookFacts, same_elsewhere, terms: dict[str, str] | None = None):
        self.site = site
        self.book = book
        self.facts = facts
        self.same_elsewhere = same_elsewhere  # key -> [(book, place)]
        self.terms = terms or {}  # glossary word (lower case) -> its anchor on glossary.md
        words = sorted(self.terms, key=lambda w: (-len(w), w))
        self._term_re = (re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])", re.I)
                         if words else None)

    def prose(self, text: str, page: str) -> str:
        """Plain text as Markdown, every glossary word in it linked to its
        glossary entry (the longest word wins where words overlap)."""
        if self._term_re is None or not text:
            return esc(text)
        out = []
        for piece, ident in identifiers(str(text).replace("\n", " ")):
            if ident:
                out.append(code(piece))
                continue
            at = 0
            for m in self._term_re.finditer(piece):
                out.append(_escape(piece[at:m.start()]))
                anchor = self.terms[m.group(1).lower()]
                out.append(link(_escape(m.group(1)), self.site.link(page, Place("glossary.md", anchor))))
                at = m.end()
            out.append(_escape(piece[at:]))
        return "".join(out)

    # -- links
    def to(self, page: str, place: Place | None, text: str) -> str:
        return link(text, self.site.link(page, place)) if place is not None else text

    def cite_link(self, page: str, citation: s.Citation) -> str:
        label = esc(citation_label(citation))
        if not citation.is_rulebook:
            return label
        sid = nearest_section(citation, self.book.declared)
        place = self.book.section_place(sid) if sid else None
        return self.to(page, place, label)

    def clause_link(self, page: str, key: tuple[str, str], text: str | None = None) -> str:
        entry = self.book.entries.get(key)
        shown = text or code(f"{key[0]} {key[1]}")
        return self.to(page, self.site.place(self.book, key) if entry or key[0] == "cite" else None, shown)

    # -- the card
    def card(self, entry: Entry, page: str, level: int = 3) -> str:
        clause = entry.clause
        decl = clause.decl
        # the title's name beside the heading: a search for "certificate limit 1800" finds 1800's rule
        # by its heading (the search ranks headings far above text); the contents list shows the rule alone
        # (a backtick would open inline code across the attribute list's brace, and the anchor be lost)
        label = clause_heading_text(clause).replace('"', "&quot;").replace("`", "&#96;")
        out = [f"{'#' * level} {clause_heading(clause)} <small class=\"rulec-book\">{esc(self.book.name)}</small> "
               f"{{#{entry.anchor} data-toc-label=\"{label}\"}}\n"]
        out.append(self.meta_line(entry, page) + "\n")
        summary = self.summary(entry, page)
        if summary:
            out.append(summary)
        out.append(self.provenance(entry, page))
        out.append(self.sources(entry))
        extra = self.links(entry, page)
        if extra:
            out.append(extra)
        if clause.kind == "market" and isinstance(decl, s.Component):
            out.append(picture(f"The {esc(clause_label(clause))} of {esc(self.book.name)}",
                               self.site.link(page, Place(self.book.file("market.svg"))), "market"))
        return "\n".join(part for part in out if part)

    def meta_line(self, entry: Entry, page: str) -> str:
        clause = entry.clause
        bits = [f"*{esc(clause.kind)}*"]
        origin = clause.origin
        if clause.change == "defined":
            bits.append(f"written in {esc(origin_label(origin))}")
        else:
            bits.append(f"{clause.change} by {esc(origin_label(origin))}")
            previous = clause.previous
            if previous is not None:
                place = self.site.clause_place(previous, self.book)
                was = f"{previous.kind} {previous.name}"
                if place is not None and place == entry.home:  # an erratum: the base has no page of its own
                    bits.append(f"the base, as written in {esc(origin_label(previous.origin))}, is shown below")
                else:
                    bits.append("the base: " + self.to(page, place, code(was)) + f" ({esc(origin_label(previous.origin))})")
        if entry.cite is not None:
            bits.append(f"cited by {esc(origin_label(entry.cite.origin))} "
                        f"({', '.join(self.cite_link(page, c) for c in entry.cite.prov.citations)})")
        return " · ".join(bits)

    def summary(self, entry: Entry, page: str) -> str:
        clause = entry.clause
        decl = clause.decl
        out: list[str] = []
        param = self.facts.params.get(clause.name) if clause.kind in ("property", "table") else None
        if isinstance(decl, s.Property):
            if param is not None and param.decl.title:
                out.append(f"{esc(param.decl.title[0].upper() + param.decl.title[1:])}: "
                           f"the library parameter {self.to(page, self.site.place(self.book, param.key), code(clause.name))}.")
            out.append(f"**Value:** {value_md(decl.value, 2000) if not isinstance(decl.value, s.Gap) else code(unparse(decl.value))}")
        elif isinstance(decl, s.Table):
            if param is not None and param.decl.title:
                out.append(f"{esc(param.decl.title[0].upper() + param.decl.title[1:])} "
                           f"(library parameter {self.to(page, self.site.place(self.book, param.key), code(clause.name))}).")
            out.append(f"A table by {esc(', '.join(decl.dims))}:\n")
            rows = [[code(", ".join(table_key(k) for k in row.keys)), code(value_text(row.value, 200)),
                     ", ".join(self.cite_link(page, c) for c in row.prov.citations)]
                    for row in decl.rows[:60]]
            out.append(table([esc(" × ".join(decl.dims)), "value", "cited"], rows))
            if len(decl.rows) > 60:
                out.append(f"… and {len(decl.rows) - 60} more rows (see the source below).")
        elif isinstance(decl, s.Param):
            flags = param_flags(decl)
            out.append(f"{esc((decl.title or humanize(decl.name)))}. Type {code(decl.type)}"
                       + (f"; {flags}" if flags else "") + ".")
            setter = self.book.title.get("property", decl.name) or self.book.title.get("table", decl.name)
            if setter is not None:
                out.append(f"{esc(self.book.name)} sets it: "
                           + self.clause_link(page, setter.key, code(f"{decl.name}: {_value_of(setter)}")) + ".")
            elif decl.default is not None:
                out.append(f"{esc(self.book.name)} does not set it: the default {code(unparse(decl.default))} applies.")
            else:
                out.append(f"{esc(self.book.name)} does not set it.")
        elif isinstance(decl, s.Enum):
            out.append(f"{esc(decl.title or humanize(decl.name))}: " + ", ".join(code(v) for v in decl.values) + ".")
        elif isinstance(decl, s.KindDecl):
            out.append(f"{esc(decl.title or humanize(decl.name))}: the properties of a {code(decl.name)} "
                       "(the library's and the title's own).\n")
            out.append(kind_table(decl))
        elif isinstance(decl, s.Routine):
            out.append(f"{self.prose(decl.title or humanize(decl.name), page)}. {code(signature(decl))}"
                       + (f" = {code(unparse(decl.result))}" if decl.result is not None else ""))
        elif isinstance(decl, s.Trigger):
            args = ", ".join(unparse(a) for a in decl.event.args)
            event = decl.event.name + (f"({args})" if decl.event.args else "")
            when = f" when {unparse(decl.event.when)}" if decl.event.when is not None else ""
            out.append(f"{self.prose(decl.title or humanize(decl.name), page)}: on {code(event + when)}.")
        elif isinstance(decl, s.Invariant):
            out.append(f"{esc(decl.title or humanize(decl.name))}: {code(unparse(decl.expr))}")
        elif isinstance(decl, s.Sanction):
            out.append(f"The invariant {code(decl.invariant)} may break after {code(decl.action)}"
                       + (f": {self.prose(decl.reading, page)}" if decl.reading else "") + ".")
        elif isinstance(decl, s.Component):
            out.append(self.component_summary(decl, page))
        return "\n\n".join(x for x in out if x) + "\n" if out else ""

    def component_summary(self, decl: s.Component, page: str = "") -> str:
        kind = decl.kind
        if kind in ("contradiction", "clash"):
            rows = []
            for name in ("first", "second", "rulebook", "supplement", "reading", "reason"):
                prop = decl.get(name)
                if prop is not None:
                    cites = ", ".join(esc(citation_label(c)) for c in prop.prov.citations)
                    rows.append(f"- **{name}:** {value_md(prop.value, 2000)}" + (f" ({cites})" if cites else ""))
            return "\n".join(rows) + "\n"
        text = str_prop(decl, "summary")
        out = [(self.prose(text, page) if page and kind != "term" else esc(text))] if text else []
        if kind == "term":
            syn = decl.get("synonyms")
            if syn is not None and isinstance(syn.value, s.ListLit) and syn.value.items:
                out.append("Also called: " + ", ".join(esc(value_text(i)) for i in syn.value.items) + ".")
            return " ".join(out)
        facts = [p for p in decl.properties if p.name != "summary"][:8]
        if facts:
            out.append("; ".join(f"{esc(humanize(p.name))} {value_md(p.value, 80)}" for p in facts)
                       + ("; …" if len(decl.properties) > len(facts) + (1 if text else 0) else "") + ".")
        if decl.children:
            out.append("With " + ", ".join(
                code(f"{c.kind} {c.key or ''}".strip()) + (f" ({esc(c.title)})" if c.title else "")
                for c in decl.children) + ".")
        return "\n\n".join(out)

    def provenance(self, entry: Entry, page: str) -> str:
        key = entry.key
        rulebook: list[str] = []
        seen: set[str] = set()
        for citation in entry.citations:
            if citation.is_rulebook and str(citation) not in seen:
                seen.add(str(citation))
                rulebook.append(self.cite_link(page, citation))
        supplements, assumptions = [], []
        for where, prov in self.facts.provs.get(key, []) + (
                [("cite", entry.cite.prov)] if entry.cite is not None else []):
            for c in prov.citations:
                if c.kind == "supplement":
                    supplements.append((where, c.ref))
                elif c.kind == "assumed":
                    assumptions.append((where, c.ref))
        lines = []
        if rulebook:
            lines.append("- **Rulebook:** " + ", ".join(rulebook))
        else:
            by_parts = _dedupe([c for w, prov in self.facts.provs.get(key, []) if w for c in prov.rulebook])
            if by_parts:
                lines.append("- **Rulebook** (through its parts): "
                             + ", ".join(self.cite_link(page, c) for c in by_parts))
        for where, src in _dedupe(supplements):
            lines.append(f"- **Supplement** ({esc(part_label(where))}): from {code(src)}")
        for where, why in _dedupe(assumptions):
            lines.append(f"- **Assumed** ({esc(part_label(where))}): {esc(why)}")
        for where, gap in self.facts.gaps.get(key, []):
            lines.append(f"- **Gap** ({esc(part_label(where))}): {esc(gap.reason)}")
        if not lines:
            if entry.clause.origin.kind == "library" and entry.cite is None:
                lines.append("- Library clause: generic to 18xx titles; a title cites it where its rulebook states it.")
            else:
                lines.append("- **Uncited** ("
                             + link("W001", self.site.link(page, Place("reference/diagnostics.md", "w001"))) + ")")
        return "\n".join(lines) + "\n"

    def sources(self, entry: Entry) -> str:
        out = []
        for label, span in self.source_pieces(entry):
            text, first = self.site.source(span)
            if not text.strip():
                continue
            out.append(f"<small>{esc(label)}</small>\n\n"
                       + fence(text, linenums=first, title=f"{span.path}:{first}"))
        return "\n".join(out)

    def source_pieces(self, entry: Entry) -> list[tuple[str, s.Span]]:
        pieces: list[tuple[str, s.Span]] = []
        chain = []
        clause: Clause | None = entry.clause
        while clause is not None and clause.change == "amended":
            chain.append((f"amended by {origin_label(clause.origin)}", self.site.item_span(clause, self.book, "amended")))
            clause = clause.previous
        while clause is not None:
            verb = "replaced by" if clause.change == "replaced" else "written in"
            chain.append((f"{verb} {origin_label(clause.origin)}", self.site.item_span(clause, self.book)))
            previous = clause.previous if clause.change == "replaced" else None
            # the replaced clause is shown too when no other page shows it (an erratum's base)
            if previous is None or self.site.clause_place(previous, self.book) != entry.home:
                break
            clause = previous
            while clause is not None and clause.change == "amended":
                chain.append((f"amended by {origin_label(clause.origin)}", self.site.item_span(clause, self.book, "amended")))
                clause = clause.previous
        chain.reverse()
        if entry.cite is not None:
            pieces.append((f"cited by {origin_label(entry.cite.origin)}", self.site.item_span(entry.cite, self.book, "cite")))
        pieces.extend(chain)
        return pieces

    def links(self, entry: Entry, page: str) -> str:
        clause = entry.clause
        lines = []
        fn = engine_function(clause)
        functions = self.site.engines.get(self.book.module, ("", {}, None))[1]
        engine_page = self.book.engine_page
        if fn is not None:
            if fn in functions:
                f = functions[fn]
                lines.append("- **Engine:** " + link(code(fn), self.site.link(page, self.site.engine_place(self.book, fn)))
                             + f" in `generated/{f.module or self.book.module}.py`, lines {f.line}–{f.end_line}")
            else:
                lines.append(f"- **Engine:** {code(fn)} is not in `generated/{self.book.module}.py` "
                             "(run `rulec compile`)")
        elif clause.kind not in ("cite",):
            where = _data_slot(clause)
            if where:
                lines.append("- **Engine:** data, " + link(code(where), self.site.link(page, Place(engine_page, "data")))
                             + f" in `generated/{self.book.module}.py`")
        proof = self.proof_line(clause, page)
        if proof:
            lines.append(proof)
        topics = topics_for(clause)
        if topics:
            lines.append("- **Across titles:** " + ", ".join(
                link(esc(t.question), self.site.link(page, Place(f"compare/{t.slug}.md", self.book.slug)))
                for t in topics))
        others = [(b, p) for b, p in self.same_elsewhere.get(clause.key, []) if b.title.name != self.book.title.name]
        if others:
            # kept out of the search index: a page does not match a title's name only because it links to it
            lines.append("- **In other titles:** " + ", ".join(
                link(esc(b.name), self.site.link(page, p)) for b, p in others) + "\n  { data-search-exclude }")
        return "\n".join(lines) + "\n" if lines else ""

    def proof_line(self, clause: Clause, page: str) -> str:
        """'- **Verified:** …': for an action or trigger, the invariants
        checked after it and their status; for an invariant or a sanction,
        the checks that used it. Empty when `rulec verify` has nothing on it."""
        report = self.site.proofs.get(self.book.name)
        if report is None:
            return ""
        where = link("all checks", self.site.link(page, Place(self.book.verification, "checks")))
        if clause.kind in ("action", "trigger"):
            results = [r for tn in report.transitions if tn.clause is not None and tn.clause.key == clause.key
                       for r in report.results if r.transition == tn.name]
            if not results:
                return ""
            parts = []
            for status in STATUS_ORDER:
                names = [r.invariant for r in results if r.status == status]
                if names:
                    parts.append(f"{esc(STATUS_TEXT[status])}: " + ", ".join(code(n) for n in names))
            return f"- **Verified** ({where}): invariants after it — " + "; ".join(parts)
        if clause.kind == "invariant":
            results = [r for r in report.results if r.invariant == clause.name]
            if results:
                return (f"- **Verified** ({where}): checked after every action — "
                        + esc(", ".join(f"{n} {STATUS_TEXT[k]}" for k, n in _count(results).items())))
        if clause.kind == "sanction":
            inv, _, action = clause.name.partition("/")
            used = [r for r in report.results if r.status == "sanctioned" and r.invariant == inv
                    and (r.transition == action or (r.reason or "").startswith(f"sanction {inv} for {action}"))]
            if used:
                return (f"- **Verified** ({where}): allows {code(inv)} to break after "
                        + ", ".join(code(r.transition) for r in used))
            return f"- **Verified** ({where}): no check needed this sanction"
        return ""

    def mention(self, entry: Entry, page: str, sid: str) -> str:
        """The short entry for a clause whose home is another section."""
        clause = entry.clause
        text = f"{code(f'{clause.kind} {clause.name}')} — {esc(clause_label(clause))}"
        target = self.to(page, entry.home, text)
        if sid in entry.direct:
            where = self.home_section_label(entry)
            return f"- {target} · also cites this section" + (f"; shown in full under {where}" if where else "")
        parts = entry.parts.get(sid, [])
        verb = "cites" if len(parts) == 1 else "cite"
        return f"- {target} · its " + ", ".join(code(p) for p in parts) + f" {verb} this section"

    def home_section_label(self, entry: Entry) -> str:
        sid = entry.direct[0] if entry.direct else (next(iter(entry.parts)) if entry.parts else None)
        if sid is None:
            return ""
        sec = self.book.declared[sid]
        return esc(citation_label(sec.citation))


def _count(results) -> dict[str, int]:
    c: dict[str, int] = {}
    for r in results:
        c[r.status] = c.get(r.status, 0) + 1
    return {k: c[k] for k in STATUS_ORDER if k in c}


def _dedupe(items):
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def _value_of(clause: Clause) -> str:
    decl = clause.decl
    if isinstance(decl, s.Property):
        return value_text(decl.value, 60)
    if isinstance(decl, s.Table):
        return f"table by {', '.join(decl.dims)}"
    return ""


def _data_slot(clause: Clause) -> str | None:
    """Where the engine keeps a data clause (`DATA.properties['cert_limit']`)."""
    decl = clause.decl
    if isinstance(decl, (s.Property, s.Table)):
        return f"DATA.properties[{decl.name!r}]"
    if isinstance(decl, s.Component):
        return f"DATA.components[{decl.kind!r}]"
    return None
