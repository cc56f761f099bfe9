"""The pages of the reference site, each a function of the `Site` model.

Every function returns Markdown (or SVG) text; `compiler.docs.build` collects them
into `{path under site/docs: text}` and writes the navigation. Nothing here
reads the clock or the environment: the same rulespecs give the same pages.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from compiler.lang import syntax as s
from compiler.names import slug as slug_of
from compiler.docs.coverage import coverage_report
from compiler.docs.answers import Answer, answer
from compiler.docs.board_pages import BoardPages, chip as _chip
from compiler.docs.maps import map_svg, upgrades_svg
from compiler.docs.reference_pages import ReferencePages
from compiler.docs.report_pages import ReportPages
from compiler.docs.proofs import status_summary
from compiler.docs.model import (
    Book,
    Entry,
    Place,
    Site,
    anchor_for,
    citation_label,
    engine_function,
    section_anchor,
    section_label,
)
from compiler.docs.render import (
    NO_SEARCH,
    Cards,
    admonition,
    book_facts,
    clause_label,
    code,
    esc,
    fence,
    humanize,
    kind_table,
    link,
    param_flags,
    origin_label,
    plural,
    short,
    signature,
    str_prop,
    table,
    value_md,
    value_text,
)
from compiler.docs.topics import TOPICS, Topic
from compiler.emit.pieces import unparse
from compiler.lang.ir import Clause

Pages = dict[str, str]

#: The erratum the home page shows (tests/test_docs.py applies it to the real rulespecs).
ERRATUM_EXAMPLE = """\
errata "Midland Terminal price" of "1800" {
  date: "2021-05-01"
  amend private MT §4 { cost: $25 §4 }
  replace cert_limit: 8 §8.1
}
"""


class Writer(ReportPages, ReferencePages, BoardPages):
    """Builds every page of the site from one `Site` (the reports and verification pages in
    `report_pages.py`, the reference pages in `reference_pages.py`, the market and map pages in
    `board_pages.py`)."""

    def __init__(self, site: Site):
        self.site = site
        self.facts = {book.slug: book_facts(book) for book in site.books}
        self.same = self._same_elsewhere()
        self.answers = {(book.slug, t.slug): answer(book, t) for book in site.books for t in TOPICS}
        self.coverage = {book.slug: coverage_report(book.title) for book in site.books}
        self._boards: dict[str, object] = {}
        self._own_maps: dict[str, bool] = {}  # `own_map`, by book
        self.terms = self.term_words()

    def _same_elsewhere(self) -> dict[tuple[str, str], list[tuple[Book, Place]]]:
        """Each clause a title writes -> the title books that also have it."""
        out: dict[tuple[str, str], list[tuple[Book, Place]]] = defaultdict(list)
        for book in self.site.title_books():
            for key, entry in book.entries.items():
                if entry.written_here and key[0] not in ("tile", "hex", "term") and entry.home is not None:
                    out[key].append((book, entry.home))
        return {k: v for k, v in out.items() if len(v) > 1}

    def cards(self, book: Book) -> Cards:
        return Cards(self.site, book, self.facts[book.slug], self.same, self.terms)

    def link(self, page: str, place: Place | None, text: str) -> str:
        return link(text, self.site.link(page, place)) if place is not None else text

    # ------------------------------------------------------------ everything

    def pages(self) -> Pages:
        out: Pages = {}
        out["index.md"] = self.home()
        out["titles/index.md"] = self.titles_index()
        for book in self.site.books:
            # a variant's (or a reading's) pages repeat its title's: search ranks them below the title's own
            ranked = _SEARCH_BELOW_TITLE if book.parent is not None else ""
            out[book.index] = ranked + self.book_index(book)
            for page in book.pages:
                out[page.file] = ranked + self.section_page(book, page)
            if book.own_other:
                out[book.other] = ranked + self.other_page(book)
            if self.own_market(book):
                out[book.tables] = self.market_page(book)
                svg = self.market_picture(book)
                if svg:
                    out[book.file("market.svg")] = svg
            if self.overlays(book):
                out[book.changes] = self.changes_page(book)
            for reading in self.readings_of(book):
                out[self.side_by_side_file(book, reading)] = self.side_by_side_page(book, reading)
            out[book.reports] = self.book_reports(book)
            if book.name in self.site.proofs:
                out[book.verification] = self.verification_page(book)
            board = self.board(book)
            if board is not None and self.own_map(book):
                out[book.file("map.md")] = self.map_page(book, board)
                out[book.file("map.svg")] = map_svg(board, book.name)
                out[book.file("upgrades.svg")] = upgrades_svg(board, book.name)
            out[book.engine_page] = self.engine_page(book)
        out["compare/index.md"] = self.compare_index()
        for topic in TOPICS:
            out[f"compare/{topic.slug}.md"] = self.compare_page(topic)
        out["glossary.md"] = self.glossary()
        for name in self.site.libraries:
            out[self.library_file(name)] = self.library_page(name)
        out["reports/index.md"] = self.reports_index()
        out["reference/diagnostics.md"] = self.diagnostics_page()
        out["reference/builtins.md"] = self.builtins_page()
        out["reference/dsl.md"] = self.dsl_page()
        out["engines/index.md"] = self.engines_index()
        return out

    @staticmethod
    def library_file(name: str) -> str:
        from compiler.names import slug

        return f"library/{slug(name)}.md"

    # ------------------------------------------------------------ home

    def home(self) -> str:
        page = "index.md"
        rows = []
        for book in self.site.title_books():
            t = book.title
            players = t.players
            variants = ", ".join(self.link(page, Place(v.index), esc(v.title.variant)) for v in self.site.variants_of(book))
            rows.append([
                self.link(page, Place(book.index), esc(book.name)),
                esc(t.rulebook or ""),
                f"{players[0]}–{players[1]}" if players and players[0] != players[1] else (str(players[0]) if players else "?"),
                self._extends(book, page),
                variants,
            ])
        titles = table(["title", "rulebook", "players", "extends", "variants"], rows)
        overlay = next((b for b in self.site.books if b.parent is not None), None)
        changes = f"[what it changes]({overlay.changes})" if overlay else "what it changes"
        return f"""# rulec: the 18xx rule reference {{#rulec}}

**rulec** is a rules compiler for 18xx railroad games. A rulebook is transcribed
into a small rule language (the *rulespec DSL*, `rulespecs/*.rules`); rulec parses
it, checks it, and from the same checked rules emits a playable Python engine per
title (`generated/`) and this site. Every rule here links to the rulebook section
it transcribes, its DSL source, the engine function that implements it, its
provenance (a rulebook citation, a *supplement* taken from elsewhere with its
source, an *assumption* with its reason, or a declared *gap*), and the same rule
in the other titles.

## The titles

{titles}
Each title's pages follow its rulebook's own sections; a variant's index says
{changes}, clause by clause, and it has its own pages only for the sections it
changes (the rest are its title's). The
[questions across titles](compare/index.md) put the titles side by side, the
[glossary](glossary.md) maps one title's words to another's, and the
[reports](reports/index.md) list gaps, supplements, assumptions, contradictions
and clashes.

## Authoring a title

A title is one `.rules` file (plus one file per variant). It says which rulebook it
transcribes and uses the shared library, which holds the vocabulary and parameters
18xx titles share ([library "18xx"](library/18xx.md)); the title sets the
parameters and adds what is its own. The [author's guide](reference/dsl.md)
describes the language.

```rulespec
title "1800" {{
  rulebook "1800: Colorado Rulebook"
  uses lib "18xx"

  section §8.1 "Transactions"
  cert_limit: 7 §8.1
  private MT "Midland Terminal" §4 {{
    cost: $20 §4
    income: $5 §4
  }}
}}
```

Then, from the checkout:

| command | what it does |
|---|---|
| `rulec check` | parse and check every rulespec: diagnostics as `file:line:col`, the line and a caret, each with a [code](reference/diagnostics.md); exit 1 on an error |
| `rulec compile` | emit the engines into `generated/` (`--check` exits 1 when they are stale) |
| `rulec coverage TITLE` | the rulebook's sections with and without a citing clause; the supplements, assumptions and gaps |
| `rulec docs` | write these pages (`site/docs`) and build the site with `mkdocs build --strict` |
| `rulec build` | all of the above for every title, with one summary |

Work until `rulec check` is clean, then read `rulec coverage` for sections that no
clause cites yet. A value the rulebook does not give is written as a gap
(`home: gap "the map is not in the rulebook"`), never filled silently; a fact from
elsewhere says where from (`supplement from "18xx-maker-1800.json"`); a reading of an
unclear rule says why (`assumed "..."`).

## Applying an erratum

An erratum is an overlay: it names the title it corrects and replaces, amends or
removes clauses by name, each with its citation. Put it in its own file under
`rulespecs/`:

```rulespec
{ERRATUM_EXAMPLE.strip()}
```

Then run `rulec build`: the checks run again, the engines are regenerated (the
changed functions show up in `generated/`), and these pages show the clauses the
erratum touched as *replaced* or *amended* by it, with a link to the clause it
changed. Replacing or amending a clause the title does not have is an error
([E012](reference/diagnostics.md#e012)); defining one it has without `replace` is
a duplicate ([E011](reference/diagnostics.md#e011)).

## How this site is made

`rulec docs` reads the same resolved, checked rules as the engines (`compiler/lang/ir.py`),
writes Markdown pages and SVG pictures under `site/docs`, and runs
`mkdocs build --strict` with link and anchor validation, so a broken link fails the
build. Pages are deterministic: rebuilding without changes gives the same files.
"""

    def _extends(self, book: Book, page: str) -> str:
        """The title a title extends, linked to its pages."""
        base = book.title.extends
        if not base:
            return ""
        other = self.site.book_of_title(base)
        return self.link(page, Place(other.index) if other else None, esc(base))

    def titles_index(self) -> str:
        page = "titles/index.md"
        out = ["# Titles {#titles}\n", "Every title and variant, with the units applied in order.\n"]
        rows = []
        for book in self.site.books:
            t = book.title
            players = t.players
            own = [e for e in book.entries.values() if e.written_here]
            rows.append([
                self.link(page, Place(book.index), esc(book.name)),
                f"{players[0]}–{players[1]}" if players and players[0] != players[1] else (str(players[0]) if players else "?"),
                str(len(t.sections)),
                str(len(own)),
                str(sum(1 for _ in t.gaps())),
                esc(" → ".join(f"{o.kind} {o.name}" for o in t.chain)),
            ])
        out.append(table(["title", "players", "sections", "clauses written", "gaps", "units applied"], rows))
        return "\n".join(out)

    # ------------------------------------------------------------ a book

    # ------------------------------------------------------------ a variant: what it changes, the rest its title's

    def own_market(self, book: Book) -> bool:
        """Whether a book has its own market page: a title does; a variant where it changes the
        market, a zone, a phase or a train (else its title's page is the variant's)."""
        if book.parent is None:
            return True
        keys = set(book.entries) | set(book.parent.entries)
        return any(k[0] in _MARKET_KINDS and book.differs(k) for k in keys)

    def own_map(self, book: Book) -> bool:
        """Whether a book has its own map page: a title does; a variant where its map or its tile
        upgrades are drawn otherwise than its title's."""
        if book.parent is None:
            return True
        if book.slug not in self._own_maps:
            mine, theirs = self.board(book), self.board(book.parent)
            self._own_maps[book.slug] = (mine is None or theirs is None or map_svg(mine, "") != map_svg(theirs, "")
                                         or upgrades_svg(mine, "") != upgrades_svg(theirs, ""))
        return self._own_maps[book.slug]

    def tables_place(self, book: Book) -> Place:
        return Place(book.tables) if self.own_market(book) else Place(book.parent.tables)

    def map_place(self, book: Book) -> Place:
        return Place(book.file("map.md")) if self.own_map(book) else Place(book.parent.file("map.md"))

    def other_place(self, book: Book) -> Place:
        return Place(book.other) if book.own_other else Place(book.parent.other)

    @staticmethod
    def home_sid(entry: Entry) -> str | None:
        """The section where a clause is shown in full (None: the "other clauses" page)."""
        return entry.direct[0] if entry.direct else next(iter(entry.parts), None)

    def variant_changes(self, book: Book) -> list[tuple[str | None, Entry | None, Entry | None]]:
        """A variant's changes clause by clause, in the rulebook's order of sections: (the section
        where it is shown, the variant's entry or None when removed, the title's entry or None when added)."""
        parent = book.parent
        sections = {sec.citation.section_id: i for i, sec in enumerate(book.declared.values())}
        rows = []
        for key, entry in book.entries.items():
            if key[0] in ("tile", "hex", "term") and entry.clause.origin.kind == "library":
                continue
            if book.differs(key) and entry.home is not None:
                rows.append((self.home_sid(entry), entry, parent.entries.get(key)))
        for base in book.removed:
            rows.append((self.home_sid(base), None, base))
        rows.sort(key=lambda r: (r[0] is None, sections.get(r[0], 0) if r[0] else 0))
        return rows

    def variant_index(self, book: Book) -> str:
        """A variant's (or a reading's) index: what it changes, clause by clause with citations and
        the title's clause beside, and the rulebook's sections, each on the variant's page where it
        changes something there, else on its title's."""
        page = book.index
        t, parent = book.title, book.parent
        out = [f"# {esc(book.name)} {{#{book.slug}}}\n"]
        out.append(self.precis(book, page))
        facts = []
        summary = t.prop("summary")
        if summary is not None and isinstance(summary.value, s.Str):
            facts.append(esc(summary.value.value[0].upper() + summary.value.value[1:]) + ".")
        kind = "reading" if t.reading is not None else "variant"
        facts.append(f"**A {kind} of** {self.link(page, Place(parent.index), esc(parent.name))}: this page says what "
                     f"it changes; every rule it leaves as it is is shown on {esc(parent.name)}'s pages, which the "
                     "links here lead to.")
        facts.append("**Units applied:** " + esc(" → ".join(f"{o.kind} {o.name}" for o in t.chain)))
        out.append("\n\n".join(facts) + "\n")
        changes = self.variant_changes(book)
        out.append("## What it changes {#what-it-changes}\n")
        counted = Counter("removed" if new is None else new.clause.change for _, new, _ in changes)
        out.append(f"{plural(len(changes), 'clause')} against {esc(parent.name)}: "
                   + ", ".join(f"{counted.get(k, 0)} {w}" for k, w in
                               (("replaced", "replaced"), ("amended", "amended"), ("defined", "added"), ("removed", "removed")))
                   + f" ({self.link(page, Place(book.changes), 'the changes by overlay')}).\n")
        rows = []
        for sid, new, old in changes:
            where = (self.link(page, book.section_place(sid), esc(section_label(book.declared[sid])))
                     if sid is not None else self.link(page, self.other_place(book), "other clauses"))
            shown = new or old
            clause = shown.clause
            name = code(f"{clause.kind} {clause.name}")
            here = self.link(page, new.home, name) if new is not None else name
            if new is None:
                change = "removed"
                cites = "; ".join(dict.fromkeys(self.citation_text(c) for r in t.removals
                                                if r.clause.key == old.key for c in r.prov.citations))
                what = ""
            else:
                change = {"defined": "added"}.get(new.clause.change, new.clause.change)
                change += f" by {esc(origin_label(new.clause.origin))}"
                cites = ", ".join(dict.fromkeys(esc(citation_label(c)) if c.is_rulebook else esc(c.kind)
                                                for c in new.citations))
                what = self.difference(new.clause) if old is not None else "new"
            base = self.link(page, old.home, f"as {esc(parent.name)} has it") if old is not None and old.home else ""
            rows.append([where, here, esc(short(clause_label(clause), 80)), change, esc(cites) if new is None else cites,
                         what, base])
        if rows:
            out.append(table(["section", "clause", "summary", "change", "cited", "what changed", esc(parent.name)], rows))
        out.append("## The rules, by the rulebook's sections {#sections}\n")
        changed_in = Counter(sid for sid, _, _ in changes)
        rows = []
        for sp in book.all_pages:
            for sec in sp.sections:
                sid = sec.citation.section_id
                if changed_in[sid]:
                    place, state = book.section_place(sid), plural(changed_in[sid], "change")
                else:
                    place, state = parent.section_place(sid) or book.section_place(sid), f"as in {esc(parent.name)}"
                rows.append([self.link(page, place, esc(section_label(sec))), state])
        out.append(table(["section", f"in {esc(book.name)}"], rows))
        out.append("## More {#more}\n")
        more = [
            f"- {self.link(page, self.other_place(book), 'Clauses outside the rulebook sections')}"
            + ("" if book.own_other else f" (as in {esc(parent.name)})"),
            f"- {self.link(page, self.tables_place(book), 'Market, phases and trains')}"
            + ("" if self.own_market(book) else f" (as in {esc(parent.name)})"),
            f"- {self.link(page, Place(book.reports), 'Coverage, gaps, supplements and assumptions')}",
            f"- {self.link(page, Place(book.engine_page), 'The engine')}: `generated/{book.module}.py`",
        ]
        if self.board(book) is not None:
            more.insert(2, f"- {self.link(page, self.map_place(book), 'Map and tile upgrades')} (drawn"
                           + ("" if self.own_map(book) else f", as in {esc(parent.name)}") + ")")
        if book.name in self.site.proofs:
            report = self.site.proofs[book.name]
            more.insert(-1, f"- {self.link(page, Place(book.verification), 'Verification')}: "
                            + esc(status_summary(report.results) or "no checks"))
        more.insert(0, f"- {self.link(page, Place(book.changes), 'What this overlay changes')}, by overlay")
        out.append("\n".join(more) + "\n")
        return "\n".join(out)

    def book_index(self, book: Book) -> str:
        if book.parent is not None:
            return self.variant_index(book)
        page = book.index
        t = book.title
        out = [f"# {esc(book.name)} {{#{book.slug}}}\n"]
        out.append(self.precis(book, page))
        facts = []
        if t.rulebook:
            facts.append(f"**Rulebook:** *{esc(t.rulebook)}*")
        if t.extends:
            base = self.site.book_of_title(t.extends)
            facts.append("**Extends:** " + self.link(page, Place(base.index) if base else None, esc(t.extends))
                         + " — " + self.link(page, Place(book.changes), "what it changes"))
        if book.parent is not None:
            facts.append("**Variant of:** " + self.link(page, Place(book.parent.index), esc(book.parent.name))
                         + " — " + self.link(page, Place(book.changes), "what it changes"))
        variants = self.site.variants_of(book)
        if variants:
            facts.append("**Variants:** " + ", ".join(self.link(page, Place(v.index), esc(v.title.variant)) for v in variants))
        facts.append("**Units applied:** " + esc(" → ".join(f"{o.kind} {o.name}" for o in t.chain)))
        summary = t.prop("summary")
        if summary is not None and isinstance(summary.value, s.Str):
            facts.insert(0, esc(summary.value.value[0].upper() + summary.value.value[1:]) + ".")
        out.append("\n\n".join(facts) + "\n")
        out.append("## The rules, by the rulebook's sections {#sections}\n")
        owners: dict[str, list] = defaultdict(list)
        for sp in book.pages:
            owners[sp.owner].append(sp)
        counts = Counter(sid for e in book.entries.values() for sid in e.direct)
        for owner, pages in owners.items():
            if owner != t.name:
                out.append(f"Sections of the **{esc(owner)}** rulebook, which {esc(t.name)} extends:\n")
            rows = []
            for sp in pages:
                for sec in sp.sections:
                    sid = sec.citation.section_id
                    label = esc(section_label(sec))
                    rows.append([
                        self.link(page, Place(sp.file, section_anchor(sec)), label),
                        str(counts.get(sid, 0)) if counts.get(sid) else "",
                        esc(sec.note) if sec.note else "",
                    ])
            out.append(table(["section", "clauses citing it", "note"], rows))
        other = [e for e in book.entries.values() if e.home is not None and e.home.page == book.other]
        out.append("## More {#more}\n")
        more = [
            f"- {self.link(page, Place(book.other), 'Clauses outside the rulebook sections')}: "
            f"{sum(1 for e in other if e.written_here)} written for {esc(book.name)}, "
            f"{sum(1 for e in other if not e.written_here)} from the libraries",
            f"- {self.link(page, Place(book.tables), 'Market, phases and trains')}",
            f"- {self.link(page, Place(book.reports), 'Coverage, gaps, supplements and assumptions')}",
            f"- {self.link(page, Place(book.engine_page), 'The engine')}: `generated/{book.module}.py`",
        ]
        if self.board(book) is not None:
            more.insert(2, f"- {self.link(page, Place(book.file('map.md')), 'Map and tile upgrades')} (drawn)")
        if book.name in self.site.proofs:
            report = self.site.proofs[book.name]
            more.insert(-1, f"- {self.link(page, Place(book.verification), 'Verification')}: "
                            + esc(status_summary(report.results) or "no checks"))
        if self.overlays(book):
            more.insert(0, f"- {self.link(page, Place(book.changes), 'What this overlay changes')}")
        for reading in self.readings_of(book):
            name = reading.title.reading
            more.insert(0, f"- {self.link(page, Place(self.side_by_side_file(book, reading)), f'The rulebook and {name} side by side')}"
                           f": every difference of {esc(name)}'s reading, with both readings")
        out.append("\n".join(more) + "\n")
        return "\n".join(out)

    # ------------------------------------------------------------ an implementation's reading, side by side

    def readings_of(self, book: Book) -> list[Book]:
        """The books of a title with an implementation's reading applied (`errata "18xx.games" of ...`
        holding `implementation`), for a title's own book; a variant's book gets none (its title's page
        shows the differences, the same on every variant)."""
        if book.parent is not None:
            return []
        return [v for v in self.site.variants_of(book) if v.title.reading is not None and v.title.base_variant is None]

    @staticmethod
    def side_by_side_file(book: Book, reading: Book) -> str:
        return book.file(f"reading-{slug_of(reading.title.reading)}.md")

    def side_by_side_page(self, book: Book, reading: Book) -> str:
        """The rulebook and an implementation side by side: each clause of the implementation's reading,
        the rules' reading beside it (the clause it replaces or amends, or none where the rules leave the
        matter open), each with its citations."""
        page = self.side_by_side_file(book, reading)
        name = reading.title.reading
        origin = next(o for o in reading.title.chain if o.kind == "errata" and o.name == name)
        clauses = [c for c in reading.title.clauses if c.origin == origin and c.kind != "cite"]
        removed = [r for r in reading.title.removals if r.origin == origin]
        implementation = reading.title.prop("implementation")
        out = [f"# The rulebook and {esc(name)} side by side {{#reading}}\n"]
        out.append(
            f"{esc(book.name)} as the rules read is {self.link(page, Place(book.index), esc(book.name))}. "
            f"Where {esc(name)} decides what the rules leave open, or implements a rule otherwise, rulec writes its "
            f"reading in `errata \"{esc(name)}\" of \"{esc(book.title.name)}\"`"
            + (f" (`{esc(clauses[0].span.path)}`)" if clauses else "")
            + f", each clause cited to the implementation's source. The reading is not applied to the title: "
            f"`rulec replay` applies it to a log {esc(name)} wrote, and `rulec play \"{esc(book.title.name)}\" "
            f"--variant \"{esc(name)}\"` plays it ({self.link(page, Place(reading.index), esc(reading.name))}).\n")
        if implementation is not None:
            out.append(f"{len(clauses)} clauses of the reading, {len(removed)} removed; "
                       f"{sum(1 for c in clauses if c.previous is None)} decide what the rules' reading has no clause for.\n")
        rows = []
        for clause in clauses:
            if clause.key == ("property", "implementation"):
                continue
            here = self.link(page, self.site.place(reading, clause.key), code(f"{clause.kind} {clause.name}"))
            if clause.previous is None:
                rules = "*no clause: the rules' reading leaves it open*"
            else:
                base_place = self.site.clause_place(clause.previous, book)
                cited = book.title.get("cite", f"{clause.kind} {clause.name}") or clause.previous
                rules = (self.link(page, base_place, self.reading_md(clause.previous))
                         + "<br>" + esc(self.cites_text(cited)))
            theirs = self.reading_md(clause) + "<br>" + esc(self.cites_text(clause))
            rows.append([here, rules, theirs])
        for r in removed:
            base_place = self.site.clause_place(r.clause, book)
            cited = book.title.get("cite", f"{r.clause.kind} {r.clause.name}") or r.clause
            rows.append([code(f"{r.clause.kind} {r.clause.name}"),
                         self.link(page, base_place, self.reading_md(r.clause))
                         + "<br>" + esc(self.cites_text(cited)),
                         "*removed*<br>" + esc("; ".join(self.citation_text(c) for c in r.prov.citations))])
        out.append("## Every difference {#differences}\n")
        out.append(table(["clause", f"as the rules read ({esc(book.name)})", f"as {esc(name)} reads"], rows))
        return "\n".join(out)

    @staticmethod
    def reading_md(clause: Clause, limit: int = 120) -> str:
        """A clause in a line, for the page: a property's value as a reader reads it (`value_md`),
        else its title or summary."""
        decl = clause.decl
        if isinstance(decl, s.Property):
            return value_md(decl.value, limit)
        return esc(short(clause_label(clause), limit))

    def cites_text(self, clause: Clause) -> str:
        return "; ".join(dict.fromkeys(self.citation_text(c) for c in clause.prov.citations)) or "uncited"

    @staticmethod
    def citation_text(citation) -> str:
        if citation.is_rulebook:
            return citation_label(citation)
        return f"{citation.kind}: {short(citation.ref, 160)}"

    def precis(self, book: Book, page: str) -> str:
        rows = []
        for topic in TOPICS:
            if not topic.precis:
                continue
            ans = self.answers[(book.slug, topic.slug)]
            rows.append([
                esc(topic.label),
                self.answer_cell(book, ans, page),
                self.answer_cites(ans, book, page),
                self.link(page, Place(f"compare/{topic.slug}.md", book.slug), "compare"),
            ])
        body = table(["rule", "value", "cited", "across titles"], rows)
        return admonition("abstract", "Précis", body)

    def answer_cell(self, book: Book, ans: Answer, page: str, with_related: bool = True) -> str:
        parts = []
        for pa in ans.params:
            if pa.clause is None:
                place = self.site.place(book, ("param", pa.param))
                parts.append(f"*gap*: {self.link(page, place, code(pa.param))} not set")
                continue
            place = self.site.place(book, pa.clause.key)
            shown, words = _answer_md(pa, 90)
            words = f" ({esc(words)})" if words else ""
            label = "" if pa.param == ans.topic.params[0] else f"{esc(humanize(pa.param))}: "
            if pa.gap:
                label += "*gap*: "
            parts.append(label + self.link(page, place, shown) + words)
        if with_related and ans.related:
            rel = []
            for r in ans.related[:4]:
                name = f"{r.clause.kind} {r.clause.name}" + (f".{r.part}" if r.part else "")
                rel.append(self.link(page, self.site.place(book, r.clause.key), code(name)))
            more = f" and {len(ans.related) - 4} more" if len(ans.related) > 4 else ""
            parts.append("see also " + ", ".join(rel) + more)
        return "<br>".join(parts)

    def answer_cites(self, ans: Answer, book: Book, page: str) -> str:
        cards = self.cards(book)
        cites = []
        for pa in ans.params:
            if pa.clause is not None:
                for c in pa.clause.prov.citations:
                    if c.is_rulebook:
                        text = cards.cite_link(page, c)
                    elif c.kind == "supplement":
                        text = "supplement"
                    else:
                        text = "assumed"
                    if text not in cites:
                        cites.append(text)
        return ", ".join(cites)

    def section_page(self, book: Book, sp) -> str:
        page = sp.file
        cards = self.cards(book)
        homes: dict[str, list[Entry]] = defaultdict(list)
        mentions: dict[str, list[Entry]] = defaultdict(list)
        for entry in book.entries.values():
            home_sid = None
            if entry.home is not None and entry.home.page == page:
                home_sid = entry.direct[0] if entry.direct else next(iter(entry.parts), None)
                if home_sid is not None:
                    homes[home_sid].append(entry)
            for sid in list(entry.direct) + list(entry.parts):
                if sid != home_sid and sid in {x.citation.section_id for x in sp.sections}:
                    mentions[sid].append(entry)
        out = []
        crumbs = self.link(page, Place(book.index), esc(book.name))
        if sp.owner != book.title.name:
            crumbs += f" · a section of the {esc(sp.owner)} rulebook"
        parent = book.parent
        removed: dict[str, list[Entry]] = defaultdict(list)
        if parent is not None:
            # a variant's page: the clauses it changes here, each with its title's beside it in its card;
            # the rest of the section is its title's page
            for entry in book.removed:
                sid = self.home_sid(entry)
                if sid is not None and book.section_page.get(sid) is sp:
                    removed[sid].append(entry)
            mentions = {sid: [e for e in es if book.differs(e.key)] for sid, es in mentions.items()}
            base = parent.section_place(sp.sections[0].citation.section_id)
            crumbs += (f" · what {esc(book.name)} changes in this section; the rest is as in "
                       + self.link(page, base, esc(parent.name) + "'s " + esc(section_label(sp.top))))
        seen: Counter = Counter()
        for i, sec in enumerate(sp.sections):
            sid = sec.citation.section_id
            level = "#" if i == 0 else "##"
            label = section_label(sec)
            seen[label] += 1
            if seen[label] > 1:  # a rulebook numbering two sections alike (1880's II.3.1 and its table)
                label += f" ({_ORDINALS.get(seen[label], str(seen[label]))})"
            out.append(f"{level} {esc(label)} {{#{section_anchor(sec)}}}\n")
            if i == 0:
                out.append(crumbs + "\n")
            if parent is not None and not homes.get(sid) and not mentions.get(sid) and not removed.get(sid):
                out.append(f"*As in* {self.link(page, parent.section_place(sid), esc(parent.name))}.\n")
            elif sec.note:
                out.append(f"*No rule transcribed here:* {esc(sec.note)}\n")
            elif not homes.get(sid) and not mentions.get(sid) and not removed.get(sid):
                out.append("*No clause cites this section.*\n")
            for entry in homes.get(sid, []):
                out.append(cards.card(entry, page))
            if removed.get(sid):
                out.append(f"**Removed by {esc(book.name)}:**\n")
                out.append("\n".join(f"- {self.link(page, e.home, code(f'{e.clause.kind} {e.clause.name}'))}"
                                     f" — {esc(clause_label(e.clause))}, as {esc(parent.name)} has it"
                                     for e in removed[sid]) + "\n")
            if mentions.get(sid):
                out.append("**Also citing this section:**\n")
                out.append("\n".join(cards.mention(e, page, sid) for e in mentions[sid]) + "\n")
        return "\n".join(out)

    def other_page(self, book: Book) -> str:
        page = book.other
        cards = self.cards(book)
        entries = [e for e in book.entries.values() if e.home is not None and e.home.page == page]
        own = [e for e in entries if e.written_here]
        lib = [e for e in entries if not e.written_here]
        out = ["# Clauses outside the rulebook sections {#other}\n",
               self.link(page, Place(book.index), esc(book.name)) + "\n",
               f"Clauses in force in {esc(book.name)} that cite none of the sections it declares: "
               "those written for it that cite only a supplement, an assumption or an undeclared "
               "section, and the library clauses it takes as they are.\n"]
        if book.parent is not None:
            out[-1] = (f"The clauses {esc(book.name)} changes that cite none of the sections it declares; "
                       "the rest are as in " + self.link(page, Place(book.parent.other), esc(book.parent.name)) + ".\n")
        out.append("## Written for this title {#written}\n")
        if not own:
            out.append("Every clause written for it cites a section.\n")
        for entry in own:
            out.append(cards.card(entry, page))
        gone = [e for e in book.removed if e.home is not None and e.home.page == book.parent.other] if book.parent else []
        if gone:
            out.append("## Removed {#removed}\n")
            out.append("\n".join(f"- {self.link(page, e.home, code(f'{e.clause.kind} {e.clause.name}'))}"
                                 f" — {esc(clause_label(e.clause))}, as {esc(book.parent.name)} has it"
                                 for e in gone) + "\n")
        out.append("## From the libraries {#from-libraries}\n")
        by_kind: dict[str, list[Entry]] = defaultdict(list)
        for entry in lib:
            by_kind[entry.clause.kind].append(entry)
        functions = self.site.engines.get(book.module, ("", {}, None))[1]
        if book.parent is not None and not by_kind:
            out.append("As in " + self.link(page, Place(book.parent.other, "from-libraries"), esc(book.parent.name)) + ".\n")
        for kind in sorted(by_kind):
            out.append(f"### {esc(kind)} {{#library-{anchor_for(kind, '')}}}\n")
            rows = []
            for entry in by_kind[kind]:
                clause = entry.clause
                lib_place = self.site.library_place(clause)
                anchor = f'<span id="{entry.anchor}"></span>'
                name_cell = anchor + self.link(page, lib_place, code(clause.name))
                status = ""
                if kind == "param":
                    setter = book.title.get("property", clause.name) or book.title.get("table", clause.name)
                    if setter is not None:
                        status = "set: " + self.link(page, self.site.place(book, setter.key), _value_md(setter, 60))
                    else:
                        status = "*gap*: not set"
                fn = engine_function(clause)
                if fn:
                    status = self.link(page, self.site.engine_place(book, fn), code(fn)) if fn in functions else code(fn)
                rows.append([name_cell, esc(short(_library_summary(clause), 140)), status])
            header = "in this title" if kind == "param" else "engine"
            if not any(row[2] for row in rows):
                rows = [row[:2] for row in rows]
            out.append(table([esc(kind), "meaning", header][:len(rows[0])], rows))
        tiles = [c for c in book.title.of_kind("tile") if c.origin.kind == "library"]
        if tiles and book.parent is None:
            out.append("### tile {#library-tile}\n")
            out.append(f"The {len(tiles)} standard tiles of "
                       f"{self.link(page, Place(self.library_file('tiles')), 'library “tiles”')} are in force; "
                       f"the title's `tile_counts` table says which it uses.\n")
        return "\n".join(out)

    # ------------------------------------------------------------ overlays

    def overlays(self, book: Book) -> list:
        """The overlay units of a book: its variant, the title it is when it
        extends another, and errata."""
        t = book.title
        out = []
        for origin in t.chain:
            if origin.kind == "variant" or origin.kind == "errata":
                out.append(origin)
            elif origin.kind == "title" and origin.name == t.name and t.extends:
                out.append(origin)
        return out

    def changes_page(self, book: Book) -> str:
        page = book.changes
        t = book.title
        out = [f"# What {esc(book.name)} changes {{#changes}}\n"]
        base_book = book.parent or (self.site.book_of_title(t.extends) if t.extends else None)
        if base_book is not None:
            out.append(f"Against {self.link(page, Place(base_book.index), esc(base_book.name))}: each clause "
                       "the overlay replaces, amends, adds or removes, with a link to the base clause.\n")
        for origin in self.overlays(book):
            out.append(f"## {esc(origin.kind)} {esc(origin.name)} {{#{anchor_for(origin.kind, origin.name)}}}\n")
            groups: dict[str, list[Clause]] = defaultdict(list)
            for clause in t.clauses:
                if clause.origin == origin and clause.kind != "cite":
                    if origin.kind == "errata" and clause.key == ("property", "date"):
                        out.append(f"Dated {code(unparse(clause.decl.value))}.\n")
                        continue
                    groups[clause.change].append(clause)
            removed = [r for r in t.removals if r.origin == origin]
            counts = ", ".join(f"{len(groups[k])} {w}" for k, w in
                               (("replaced", "replaced"), ("amended", "amended"), ("defined", "added")))
            out.append(f"{counts}, {len(removed)} removed.\n")
            for change, title in (("replaced", "Replaced"), ("amended", "Amended"), ("defined", "Added")):
                clauses = groups.get(change, [])
                if not clauses:
                    continue
                out.append(f"### {title} {{#{anchor_for(origin.kind, origin.name)}-{change}}}\n")
                rows = []
                for clause in clauses:
                    here = self.link(page, self.site.place(book, clause.key),
                                     code(f"{clause.kind} {clause.name}"))
                    base = ""
                    if clause.previous is not None:
                        place = self.site.clause_place(clause.previous, book)
                        if place == self.site.place(book, clause.key):
                            base = f"as written in {esc(origin_label(clause.previous.origin))}, shown in its card"
                        else:
                            base = self.link(page, place, "the base clause") + f" ({esc(origin_label(clause.previous.origin))})"
                    cites = ", ".join(dict.fromkeys(esc(citation_label(c)) if c.is_rulebook else esc(c.kind)
                                                    for c in clause.prov.citations))
                    rows.append([here, esc(short(clause_label(clause), 80)), base, cites,
                                 self.difference(clause)])
                out.append(table(["clause", "summary", "base", "cited", "what changed"], rows))
            if removed:
                out.append(f"### Removed {{#{anchor_for(origin.kind, origin.name)}-removed}}\n")
                rows = []
                for r in removed:
                    base = self.link(page, self.site.clause_place(r.clause, book), code(f"{r.clause.kind} {r.clause.name}"))
                    cites = ", ".join(esc(citation_label(c)) if c.is_rulebook else esc(f"{c.kind}: {short(c.ref, 100)}")
                                      for c in r.prov.citations)
                    rows.append([base, esc(short(clause_label(r.clause), 80)), esc(origin_label(r.clause.origin)), cites])
                out.append(table(["removed clause", "summary", "written in", "why"], rows))
        return "\n".join(out)

    @staticmethod
    def difference(clause: Clause) -> str:
        """What an overlay changed, in DSL terms."""
        previous = clause.previous
        if previous is None:
            return "new"
        old, new = previous.decl, clause.decl
        if isinstance(old, s.Property) and isinstance(new, s.Property):
            return code(short(unparse(old.value), 60)) + " → " + code(short(unparse(new.value), 60))
        if isinstance(old, s.Component) and isinstance(new, s.Component):
            before = {p.name: unparse(p.value) for p in old.properties}
            after = {p.name: unparse(p.value) for p in new.properties}
            bits = []
            for name in after:
                if name not in before:
                    bits.append(f"+{code(name + ': ' + short(after[name], 50))}")
                elif before[name] != after[name]:
                    bits.append(f"{code(name)}: {code(short(before[name], 40))} → {code(short(after[name], 40))}")
            for name in before:
                if name not in after:
                    bits.append(f"−{code(name)}")
            if old.title != new.title:
                bits.append(f"display name “{esc(old.title)}” → “{esc(new.title or '')}”" if old.title
                            else f"display name “{esc(new.title or '')}”")
            return "<br>".join(bits) or "same properties, new provenance"
        if isinstance(old, s.Table) and isinstance(new, s.Table):
            before = {row.keys: unparse(row.value) for row in old.rows}
            after = {row.keys: unparse(row.value) for row in new.rows}
            changed = sum(1 for k in after if before.get(k) != after[k])
            gone = sum(1 for k in before if k not in after)
            return f"{plural(changed, 'row')} new or changed, {plural(gone, 'row')} dropped"
        return "rewritten"

    # ------------------------------------------------------------ across titles

    def compare_index(self) -> str:
        page = "compare/index.md"
        out = ["# Questions across titles {#questions}\n",
               "Each question is answered from the rules as transcribed: the library parameter a title "
               "sets, or a gap where it sets none, and the title's own clauses that bear on it.\n"]
        books = self.site.title_books()
        rows = []
        for topic in TOPICS:
            cells = [self.link(page, Place(f"compare/{topic.slug}.md"), esc(topic.question))]
            for book in books:
                ans = self.answers[(book.slug, topic.slug)]
                text = "gap" if ans.main.gap else short(ans.main.words or ans.main.text, 40)
                cells.append(self.link(page, Place(f"compare/{topic.slug}.md", book.slug), esc(text)))
            rows.append(cells)
        out.append(table(["question"] + [esc(b.name) for b in books], rows))
        return "\n".join(out)

    def compare_page(self, topic: Topic) -> str:
        page = f"compare/{topic.slug}.md"
        out = [f"# {esc(topic.question)} {{#{topic.slug}}}\n", esc(topic.intro) + "\n"]
        params = ", ".join(self.link(page, self.site.libraries["18xx"][1].get(("param", p)), code(p))
                           for p in topic.params)
        out.append(f"Answered by the library parameters {params}.\n")
        out.append("## Answers {#answers}\n")
        groups: dict[str, list[Answer]] = defaultdict(list)
        for book in self.site.books:
            ans = self.answers[(book.slug, topic.slug)]
            groups[ans.group].append(ans)
        rows = []
        for group in sorted(groups, key=lambda g: (g.startswith("not set"), g)):
            titles = []
            for ans in groups[group]:
                main = ans.main
                if main.clause is not None:
                    place = self.site.place(ans.book, main.clause.key)
                else:
                    place = self.site.place(ans.book, ("param", main.param))
                titles.append(self.link(page, place, esc(ans.book.name)))
            rows.append([esc(group), ", ".join(titles)])
        out.append(table(["answer", "titles (each linked to its clause)"], rows))
        out.append("## By title {#by-title}\n")
        for book in self.site.books:
            ans = self.answers[(book.slug, topic.slug)]
            out.append(f"### {esc(book.name)} {{#{book.slug}}}\n")
            rows = []
            cards = self.cards(book)
            for pa in ans.params:
                if pa.clause is None:
                    rows.append([code(pa.param), "*gap*: not set",
                                 self.link(page, self.site.place(book, ("param", pa.param)), "the parameter")])
                    continue
                cites = []
                for c in pa.clause.prov.citations:
                    cites.append(cards.cite_link(page, c) if c.is_rulebook else
                                 (f"supplement from {code(c.ref)}" if c.kind == "supplement" else f"assumed: {esc(c.ref)}"))
                shown, words = _answer_md(pa, 200)
                value = shown + (f" — {esc(words)}" if words else "")
                rows.append([self.link(page, self.site.place(book, pa.clause.key), code(pa.param)),
                             ("*gap*: " if pa.gap else "") + value, "; ".join(cites)])
            out.append(table(["parameter", "value", "provenance"], rows))
            if ans.related:
                out.append("Also bearing on it:\n")
                lines = []
                for r in ans.related:
                    name = f"{r.clause.kind} {r.clause.name}" + (f".{r.part}" if r.part else "")
                    lines.append(f"- {self.link(page, self.site.place(book, r.clause.key), code(name))}: "
                                 f"{_related_md(r, topic)}")
                out.append("\n".join(lines) + "\n")
        return "\n".join(out)

    def term_words(self) -> dict[str, str]:
        """Every word that names a glossary term (its title, the titles' own
        words, synonyms), lower-cased -> the glossary anchor it links to."""
        entries, library_terms, names = self._glossary_terms()
        out: dict[str, str] = {}
        for name in names:
            words = {_term_title(entries, library_terms, name)}
            if name in library_terms:
                words |= _synonyms(library_terms[name])
            for _book, clause in entries.get(name, []):
                words |= _synonyms(clause) | {clause_label(clause)}
            for word in words:
                key = word.lower().strip()
                if len(key) >= 3 and key not in out:
                    out[key] = f"term-{anchor_for(name, '')}"
        return out

    def _glossary_terms(self):
        entries: dict[str, list[tuple[Book | None, Clause]]] = defaultdict(list)
        library_terms = {}
        for book in self.site.books:
            for clause in book.title.of_kind("term"):
                if clause.origin.kind == "library":
                    library_terms[clause.name] = clause
                    continue
                own = self.overlays(book) or []
                if book.parent is None and clause.origin.kind == "title" and clause.origin.name == book.title.name:
                    entries[clause.name].append((book, clause))
                elif clause.origin in own and clause.origin.kind != "title":
                    entries[clause.name].append((book, clause))
                elif book.parent is None and clause.origin.kind == "title" and clause.origin.name != book.title.name:
                    pass  # an extended title's term: shown under that title
        names = sorted(set(entries) | set(library_terms), key=lambda n: _term_title(entries, library_terms, n).lower())
        return entries, library_terms, names

    def glossary(self) -> str:
        page = "glossary.md"
        entries, library_terms, names = self._glossary_terms()
        lib = self.site.libraries.get("18xx")
        out = ["# Glossary {#glossary}\n",
               "The 18xx words the rules use, from the library's glossary and each title's own terms; "
               "a title that amends a library term gives its own words for it. Synonyms map one "
               "title's word to another's (Director = President, Share Dealing Round = Stock Round, "
               "Bank Pool = Market).\n"]
        out.append("## Synonyms across titles {#synonyms}\n")
        out.append("Each word a title or the library uses, with the terms it names.\n")
        index: dict[str, set[str]] = defaultdict(set)
        for name in names:
            words = {_term_title(entries, library_terms, name)}
            for _book, clause in [(None, library_terms[name])] if name in library_terms else []:
                words |= _synonyms(clause)
            for _book, clause in entries.get(name, []):
                words |= _synonyms(clause) | {clause_label(clause)}
            for word in words:
                index[word.lower()].add(name)
        rows = []
        for word in sorted(index):
            targets = sorted(index[word])
            if len(targets) == 1 and word == _term_title(entries, library_terms, targets[0]).lower():
                continue  # a term's own name, with nothing else under it
            rows.append([esc(word), ", ".join(self.link(page, Place(page, f"term-{anchor_for(t, '')}"),
                                                        esc(_term_title(entries, library_terms, t))) for t in targets)])
        out.append(table(["word", "see"], rows))
        out.append("## Terms {#terms}\n")
        for name in names:
            title = _term_title(entries, library_terms, name)
            out.append(f"### {esc(title)} {{#term-{anchor_for(name, '')}}}\n")
            if name in library_terms:
                clause = library_terms[name]
                place = lib[1].get(clause.key) if lib else None
                syn = _synonyms(clause)
                out.append(f"{esc(str_prop(clause.decl, 'summary') or '')}"
                           + (f" Also: {esc(', '.join(sorted(syn)))}." if syn else "")
                           + f" ({self.link(page, place, 'library')})\n")
            rows = []
            for book, clause in entries.get(name, []):
                syn = _synonyms(clause)
                cites = ", ".join(esc(citation_label(c)) for c in clause.prov.rulebook)
                rows.append([self.link(page, self.site.place(book, clause.key), esc(book.name)),
                             esc(clause_label(clause)), esc(str_prop(clause.decl, "summary") or ""),
                             esc(", ".join(sorted(syn))), cites])
            if rows:
                out.append(table(["title", "its word", "meaning", "synonyms", "cited"], rows))
        return "\n".join(out)

    # ------------------------------------------------------------ libraries

    def library_page(self, name: str) -> str:
        unit, places = self.site.libraries[name]
        page = self.library_file(name)
        out = [f"# Library “{esc(name)}” {{#library-{anchor_for(name, '')}}}\n",
               f"`{unit.path}`: what every title that uses it starts from. A title sets the parameters, "
               "cites the clauses its rulebook states, and replaces or amends what it changes.\n"]
        decls = [item for item in unit.items if hasattr(item, "clause_key") and not isinstance(item, s.Cite)]
        if name == "tiles":
            schema = [d for d in decls if not isinstance(d, s.Component)]
            if schema:
                out.append("## The schema of tiles {#the-schema-of-tiles}\n")
                out.extend(self.library_card(d, page) for d in schema)
                out.append("## Tiles {#tiles}\n")
            out.append(self.tiles_table(unit, decls, page))
            return NO_SEARCH + "\n".join(out)
        uses = [item for item in unit.items if isinstance(item, s.Uses)]
        if uses:
            out.append("Uses " + ", ".join(self.link(page, Place(self.library_file(u.library)), f"library “{esc(u.library)}”")
                                           for u in uses) + ".\n")
        by_kind: dict[str, list] = defaultdict(list)
        for decl in decls:
            by_kind[decl.clause_key[0]].append(decl)
        order = ["param", "kind", "enum", "zone", "term", "action", "procedure", "function", "trigger", "invariant"]
        for kind in sorted(by_kind, key=lambda k: (order.index(k) if k in order else len(order), k)):
            out.append(f"## {esc(kind)} {{#{anchor_for(kind, '')}-clauses}}\n")
            for decl in by_kind[kind]:
                out.append(self.library_card(decl, page))
        return "\n".join(out)

    def library_card(self, decl, page: str) -> str:
        kind, name = decl.clause_key
        anchor = anchor_for(kind, name)
        title = getattr(decl, "title", None)
        head = esc(f"{kind} {name}" + (f" — {title}" if title and kind != "param" else ""))
        out = [f"### {head} {{#{anchor}}}\n"]
        if isinstance(decl, s.Param):
            flags = param_flags(decl)
            out.append(f"{esc(decl.title or '')}. Type {code(decl.type)}" + (f"; {flags}" if flags else "") + ".\n")
            rows = []
            for book in self.site.books:
                setter = book.title.get("property", name) or book.title.get("table", name)
                if setter is not None:
                    rows.append([esc(book.name), self.link(page, self.site.place(book, setter.key), _value_md(setter, 80))])
                else:
                    rows.append([esc(book.name), self.link(page, self.site.place(book, ("param", name)), "not set")])
            out.append(table(["title", "value"], rows))
        elif isinstance(decl, s.KindDecl):
            out.append(f"{esc(decl.title or '')}. A title adds properties of its own with another `kind {name}`.\n")
            out.append(kind_table(decl))
        elif isinstance(decl, s.Routine):
            out.append(f"{esc(decl.title or '')}. {code(signature(decl))}\n")
        elif isinstance(decl, s.Trigger):
            out.append(f"{esc(decl.title or '')}: on {code(decl.event.name)}.\n")
        elif isinstance(decl, s.Enum):
            out.append(f"{esc(decl.title or '')}: " + ", ".join(code(v) for v in decl.values) + ".\n")
        elif isinstance(decl, s.Component):
            summary = str_prop(decl, "summary")
            if summary:
                out.append(esc(summary) + "\n")
            if kind == "term":
                syn = decl.get("synonyms")
                if syn is not None and isinstance(syn.value, s.ListLit) and syn.value.items:
                    out.append("Also called: " + ", ".join(esc(value_text(i)) for i in syn.value.items) + ".\n")
        text, first = self.site.source(decl.span)
        out.append(fence(text, linenums=first, title=f"{decl.span.path}:{first}"))
        prefix = {"action": "a_", "procedure": "r_", "function": "r_", "trigger": "t_"}.get(kind)
        if prefix:
            links = []
            for book in self.site.books:
                functions = self.site.engines.get(book.module, ("", {}, None))[1]
                fn = prefix + name
                entry = book.entries.get((kind, name))
                if fn in functions and entry is not None:
                    note = "" if entry.clause.origin.kind == "library" else " (replaced)"
                    links.append(self.link(page, self.site.engine_place(book, fn), esc(book.name)) + note)
            if links:
                out.append(f"**Engine:** {code(prefix + name)} in " + ", ".join(links) + "\n")
        if kind in ("action", "procedure", "trigger"):
            cited = []
            for book in self.site.title_books():
                entry = book.entries.get((kind, name))
                if entry is not None and entry.cite is not None:
                    cites = ", ".join(esc(citation_label(c)) for c in entry.cite.prov.citations)
                    cited.append(self.link(page, self.site.place(book, (kind, name)), esc(book.name)) + f" ({cites})")
            if cited:
                out.append("**Cited by:** " + ", ".join(cited) + "\n")
        return "\n".join(out)

    def tiles_table(self, unit: s.Unit, decls, page: str) -> str:
        rows = []
        for decl in decls:
            if not isinstance(decl, s.Component):
                continue
            anchor = anchor_for(decl.kind, decl.key or "")
            props = {p.name: p for p in decl.properties}
            colour = props.get("color")
            label = props.get("label")
            nodes = props.get("nodes")
            paths_ = props.get("paths")
            rows.append([
                f'<span id="{anchor}"></span>{code(decl.key)}',
                _chip(unparse(colour.value)) if colour else "",
                code(value_text(label.value)) if label else "",
                code(value_text(nodes.value, 200)) if nodes else "",
                code(value_text(paths_.value, 200)) if paths_ else "",
                f"line {decl.span.line}",
            ])
        return (f"{len(rows)} tiles, from `{unit.path}`. Node `nN` is the tile's N-th node; edges are "
                "numbered 0–5 clockwise.\n\n"
                + table(["tile", "colour", "label", "nodes", "paths", "source"], rows))

    # ------------------------------------------------------------ engines

    def engines_index(self) -> str:
        page = "engines/index.md"
        out = ["# Engines {#engines}\n",
               "`rulec compile` writes one Python module per title and variant into `generated/`; each "
               "holds the title's data (`DATA`) and its actions, procedures, functions and triggers "
               "compiled to functions (`a_<action>`, `r_<procedure or function>`, `t_<trigger>`), on "
               "top of the hand-written runtime `compiler/runtime/`.\n"]
        rows = []
        for book in self.site.books:
            text, functions, _ = self.site.engines.get(book.module, ("", {}, None))
            rows.append([self.link(page, Place(book.engine_page), code(f"generated/{book.module}.py")),
                         self.link(page, Place(book.index), esc(book.name)), str(len(functions)),
                         str(len(text.splitlines()))])
        out.append(table(["module", "title", "functions", "lines"], rows))
        return "\n".join(out)

    def engine_page(self, book: Book) -> str:
        page = book.engine_page
        text, functions, game_line = self.site.engines.get(book.module, ("", {}, None))
        out = [NO_SEARCH + f"# Engine of {esc(book.name)} {{#engine}}\n",
               f"`generated/{book.module}.py`, generated by `rulec compile` from "
               + self.link(page, Place(book.index), esc(book.name)) + ". Do not edit it: change the "
               "rulespec and recompile.\n"]
        if not text:
            out.append("*The module is missing: run `rulec compile`.*\n")
            return "\n".join(out)
        lines = text.splitlines()
        first_fn = min((f.line for f in functions.values() if f.module == book.module), default=len(lines) + 1)
        out.append("## Data {#data}\n")
        out.append(f"Lines 1–{first_fn - 1}: the module's docstring and the `DATA` table "
                   "(`TitleData`: the title's properties, components by kind, and each clause's citation). "
                   "Each data clause on the title's pages says where it is: "
                   "`DATA.properties['cert_limit']`, `DATA.components['private']`.\n")
        kinds = Counter(c.kind for c in book.title.clauses if isinstance(c.decl, s.Component))
        props = sum(1 for c in book.title.clauses if isinstance(c.decl, (s.Property, s.Table)))
        out.append(table(["in DATA", "entries"], [["properties (properties and tables)", str(props)]]
                         + [[code(f"components[{k!r}]"), str(n)] for k, n in sorted(kinds.items())]))
        out.append("## Functions {#functions}\n")
        implements: dict[str, Entry] = {}
        for entry in book.entries.values():
            fn = engine_function(entry.clause)
            if fn:
                implements[fn] = entry
                implements.setdefault("w_" + entry.clause.name, entry) if entry.clause.kind == "trigger" else None
        parent = book.parent
        same = [fn for fn in functions if self.site.same_function(book, fn)]
        if parent is not None:
            names = ", ".join(self.link(page, Place(parent.engine_page, fn), code(fn))
                              for fn in sorted(same, key=lambda n: (functions[n].module, functions[n].line)))
            out.append(f"{plural(len(functions) - len(same), 'function')} of {plural(len(functions), 'function')} "
                       f"differ from those of {self.link(page, Place(parent.engine_page), code(f'generated/{parent.module}.py'))}"
                       f" ({esc(parent.name)}) and are shown here"
                       + (f"; the others are as there, word for word: {names}.\n" if same else ".\n"))
        for fn in sorted(functions, key=lambda n: (functions[n].module, functions[n].line)):
            if fn in same:
                continue
            f = functions[fn]
            out.append(f"### {esc(fn)} {{#{fn}}}\n")
            entry = implements.get(fn)
            if entry is not None:
                clause = entry.clause
                role = "the condition of" if fn.startswith("w_") else "implements"
                out.append(f"Lines {f.line}–{f.end_line}" + (f" of `generated/{f.module}.py`" if f.module != book.module else "")
                           + f"; {role} "
                           + self.link(page, self.site.place(book, clause.key), code(f"{clause.kind} {clause.name}"))
                           + f" — {esc(clause_label(clause))}.\n")
            out.append(fence(f.source, "python", linenums=f.line, title=f"generated/{f.module or book.module}.py:{f.line}"))
        if game_line is not None:
            out.append("## The Game class {#game}\n")
            game = "\n".join(lines[game_line - 1:])
            base_text, _, base_line = self.site.engines.get(parent.module, ("", {}, None)) if parent else ("", {}, None)
            if base_line is not None and "\n".join(base_text.splitlines()[base_line - 1:]) == game:
                out.append(f"Lines {game_line}–{len(lines)}: as in "
                           + self.link(page, Place(parent.engine_page, "game"), code(f"generated/{parent.module}.py"))
                           + ", word for word.\n")
            else:
                out.append(fence(game, "python", linenums=game_line, title=f"generated/{book.module}.py:{game_line}"))
        return "\n".join(out)

    # ------------------------------------------------------------ navigation

    def nav(self) -> list:
        titles: list = [{"Titles": "titles/index.md"}]
        for book in self.site.title_books():
            titles.append({book.name: self.book_nav(book) + [
                {v.title.variant: self.book_nav(v)} for v in self.site.variants_of(book)]})
        return [
            {"Home": "index.md"},
            {"Titles": titles},
            {"Across titles": ["compare/index.md"] + [{t.question: f"compare/{t.slug}.md"} for t in TOPICS]},
            {"Glossary": "glossary.md"},
            {"Libraries": [{f"Library “{name}”": self.library_file(name)} for name in self.site.libraries]},
            {"Reports": ["reports/index.md"] + [{f"Coverage of {b.name}": b.reports} for b in self.site.books]},
            {"Engines": ["engines/index.md"] + [{b.name: b.engine_page} for b in self.site.books]},
            {"Reference": [{"The rulespec DSL": "reference/dsl.md"},
                           {"Diagnostic codes": "reference/diagnostics.md"},
                           {"Builtins": "reference/builtins.md"}]},
        ]

    def book_nav(self, book: Book) -> list:
        own, inherited = [], defaultdict(list)
        for sp in book.pages:
            item = {section_label(sp.top): sp.file}
            if sp.owner == book.title.name:
                own.append(item)
            else:
                inherited[sp.owner].append(item)
        out: list = [book.index]
        if self.overlays(book):
            out.append({"What it changes": book.changes})
        for reading in self.readings_of(book):
            out.append({f"The rulebook and {reading.title.reading}": self.side_by_side_file(book, reading)})
        out.append({"Rules": own} if own else {"Rules": [{"(no sections)": book.other}]})
        for owner, items in inherited.items():
            out.append({f"Rules of {owner}": items})
        if book.own_other:
            out.append({"Other clauses": book.other})
        if self.own_market(book):
            out.append({"Market, phases and trains": book.tables})
        if self.board(book) is not None and self.own_map(book):
            out.append({"Map and tiles": book.file("map.md")})
        # a page has one label wherever the menu lists it: the Reports menu lists this one too
        out += [{f"Coverage of {book.name}": book.reports}]
        if book.name in self.site.proofs:
            out.append({"Verification": book.verification})
        return [x for x in out if not (isinstance(x, dict) and x.get("Rules") == [{"(no sections)": book.other}])]


# ---------------------------------------------------------------- helpers

#: Front matter ranking a variant's page below its title's in search (mkdocs-material's `search.boost`).
_SEARCH_BELOW_TITLE = "---\nsearch:\n  boost: 0.5\n---\n\n"


_ORDINALS = {2: "second", 3: "third", 4: "fourth"}

#: The kinds of clause a title's "market, phases and trains" page shows.
_MARKET_KINDS = ("market", "zone", "phase", "train")


def _answer_md(pa, limit: int) -> tuple[str, str]:
    """A parameter's value as the précis and the cross-title pages show it:
    (the value as a reader reads it, the topic's words for it where they say
    more than the value does)."""
    decl = pa.clause.decl
    if isinstance(decl, s.Property) and not isinstance(decl.value, s.Gap):
        shown = value_md(decl.value, limit)
        plain = _plain_words(decl.value)
    else:
        shown, plain = code(short(pa.text, limit)), pa.text
    return shown, (pa.words if pa.words and pa.words != plain else "")


def _plain_words(value) -> str:
    """The words a value gives with no topic to say more (as answers.py spells it)."""
    if isinstance(value, s.Name):
        return humanize(value.name)
    if isinstance(value, s.Bool):
        return "yes" if value.value else "no"
    if isinstance(value, s.ListLit) and all(isinstance(i, s.Name) for i in value.items):
        return "; ".join(humanize(i.name) for i in value.items)
    if isinstance(value, s.Range):
        return f"{value_text(value.low)}–{value_text(value.high)}"
    return value_text(value)


def _related_md(r, topic: Topic) -> str:
    """What a clause bearing on a question says: its value as a reader reads
    it (`value_md`, a name with the topic's words for it), or its summary."""
    decl = r.clause.decl
    value = None
    if r.part is not None and isinstance(decl, s.Component) and decl.get(r.part) is not None:
        value = decl.get(r.part).value
    elif r.part is None and isinstance(decl, s.Property):
        value = decl.value
    if value is None:
        return esc(short(r.text, 240))
    if isinstance(value, s.Name) and value.name in topic.values:
        return f"{code(value.name)} — {esc(topic.values[value.name])}"
    return value_md(value, 240)


def _value_md(clause: Clause, limit: int) -> str:
    """What a property or a table sets, for a reader: a property's value as
    `value_md` reads it, a table's rows in short."""
    decl = clause.decl
    if isinstance(decl, s.Property) and not isinstance(decl.value, s.Gap):
        return value_md(decl.value, limit)
    return code(short(_value(clause), limit))


def _value(clause: Clause) -> str:
    decl = clause.decl
    if isinstance(decl, s.Property):
        return unparse(decl.value)
    if isinstance(decl, s.Table):
        from compiler.docs.render import table_summary

        return table_summary(decl, 4)
    return ""


def _library_summary(clause: Clause) -> str:
    decl = clause.decl
    if isinstance(decl, s.Component):
        return str_prop(decl, "summary") or decl.title or ""
    if isinstance(decl, s.Enum):
        return (decl.title or "") + ": " + ", ".join(decl.values)
    return getattr(decl, "title", None) or ""


def _synonyms(clause: Clause) -> set[str]:
    prop = clause.decl.get("synonyms") if isinstance(clause.decl, s.Component) else None
    if prop is None or not isinstance(prop.value, s.ListLit):
        return set()
    return {i.value for i in prop.value.items if isinstance(i, s.Str)}


def _term_title(entries, library_terms, name: str) -> str:
    if name in library_terms:
        return clause_label(library_terms[name])
    return clause_label(entries[name][0][1])


def nav_yaml(nav: list, indent: int = 0) -> str:
    """The navigation as YAML (each scalar written as a JSON string, which YAML reads as is)."""
    pad = "  " * indent
    out = []
    for item in nav:
        if isinstance(item, str):
            out.append(f"{pad}- {json.dumps(item, ensure_ascii=False)}")
        else:
            for key, value in item.items():
                if isinstance(value, str):
                    out.append(f"{pad}- {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}")
                else:
                    out.append(f"{pad}- {json.dumps(key, ensure_ascii=False)}:")
                    out.append(nav_yaml(value, indent + 2))
    return "\n".join(out)


__all__ = ["Writer", "nav_yaml", "ERRATUM_EXAMPLE"]
