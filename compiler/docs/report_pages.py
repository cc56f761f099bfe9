"""The site's report pages: each title's coverage of its rulebook, its verification, and the
index of both (`reports/`).

`ReportPages` is mixed into `pages.Writer`, whose `site`, `coverage`, `link` and `overlays` its
methods use.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from compiler.lang import syntax as s
from compiler.diagnostics import CODES
from compiler.docs.proofs import STATUS_ORDER, STATUS_TEXT, by_transition, counts, short_reason, status_summary
from compiler.verify.verifier import FOR_ANY_VALUE
from compiler.docs.model import (
    Book,
    Place,
    citation_label,
    section_label,
)
from compiler.docs.render import (
    NO_SEARCH,
    admonition,
    clause_label,
    code,
    esc,
    fence,
    plural,
    short,
    table,
    value_text,
)


#: The line under each list of a coverage page: (parts counted, sources or reasons listed) -> text.
_REPORT_LEADS = {
    "supplements": lambda n, k: (f"{plural(n, 'supplement citation')}, from {plural(k, 'source')}: "
                                 "each source with the clauses that cite it."
                                 if n else "No clause cites a supplement: every value is the rulebook's."),
    "assumptions": lambda n, k: (f"{plural(n, 'assumption')}, for {plural(k, 'reason')}: "
                                 "each reason with the clauses that give it."
                                 if n else "No clause rests on an assumption."),
    "gaps": lambda n, k: (f"{plural(n, 'gap')}, for {plural(k, 'reason')}: values the rulebook does not "
                          "give, left open rather than filled silently." if n
                          else "No gaps: the title leaves no value open."),
    "undeclared": lambda n, k: (f"{plural(n, 'citation')} name{'s' if n == 1 else ''} "
                                f"{plural(k, 'section')} the title does not declare."
                                if n else "Every citation names a section the title declares."),
}


class ReportPages:
    """The coverage and verification pages of `pages.Writer`."""

    def book_reports(self, book: Book) -> str:
        page = book.reports
        report = self.coverage[book.slug]
        out = [f"# Coverage of {esc(book.name)} {{#coverage}}\n",
               self.link(page, Place(book.index), esc(book.name)) + "\n",
               self.coverage_summary(book, report)]
        out.append("## Sections {#sections}\n")
        rows = []
        for sec, sc in zip(book.title.sections, report.sections):
            labels = sorted({u.label() for u in sc.uses})
            uses = ", ".join(self.use_link(book, page, label) for label in labels[:12])
            if len(labels) > 12:
                uses += f", … ({len(labels)} in all)"
            status = "covered" if sc.uses else ("noted" if sc.note else "**not covered**")
            rows.append([self.link(page, book.section_place(sec.citation.section_id), esc(section_label(sec))),
                         status, uses or (esc(sc.note) if sc.note else "")])
        out.append("*Covered*: a clause cites the section; *noted*: no clause does, and the title says why "
                   "(no rule to transcribe); *not covered*: neither.\n")
        out.append(table(["section", "status", "citing clauses, or the note"], rows))
        for heading, anchor, items in (("Supplements", "supplements", report.supplements),
                                       ("Assumptions", "assumptions", report.assumptions),
                                       ("Gaps", "gaps", report.gaps),
                                       ("Citations of undeclared sections", "undeclared", report.undeclared)):
            out.append(f"## {heading} {{#{anchor}}}\n")
            grouped: dict[str, list] = defaultdict(list)
            for text, use in items:
                grouped[text].append(use)
            out.append(_REPORT_LEADS[anchor](len(items), len(grouped)) + "\n")
            if not items:
                continue
            rows = []
            for text in sorted(grouped):
                uses = grouped[text]
                written = sorted({u.label() for u in uses if not u.origin.startswith("library")})
                from_lib = sorted({u.clause for u in uses if u.origin.startswith("library")})
                shown = ", ".join(self.use_link(book, page, label) for label in written[:15])
                if len(written) > 15:
                    shown += f", … ({len(written)} in all)"
                if from_lib:
                    shown += (", " if shown else "") + plural(len(from_lib), "library clause")
                rows.append([esc(short(text, 300)), shown])
            out.append(table(["source" if anchor == "supplements" else ("reason" if anchor != "undeclared" else "citation"),
                              "clauses"], rows))
        for heading, anchor, kind in (("Contradictions", "contradictions", "contradiction"), ("Clashes", "clashes", "clash")):
            out.append(f"## {heading} {{#{anchor}}}\n")
            clauses = book.title.of_kind(kind)
            if not clauses:
                out.append(f"No {kind} recorded.\n")
                continue
            rows = []
            for clause in clauses:
                reading = clause.decl.get("reading") if isinstance(clause.decl, s.Component) else None
                rows.append([self.link(page, self.site.place(book, clause.key), code(clause.name)),
                             esc(clause_label(clause)),
                             ", ".join(esc(citation_label(c)) for c in clause.prov.citations),
                             esc(value_text(reading.value, 300)) if reading else "*no reading*"])
            out.append(table([kind, "about", "cites", "reading taken"], rows))
        return "\n".join(out)

    def coverage_summary(self, book: Book, report) -> str:
        """The counts at the head of a coverage page, each said so that they add up."""
        noted = sum(1 for sc in report.sections if not sc.uses and sc.note)
        missing = len(report.sections) - report.covered - noted
        return (f"From `rulec coverage`. Of the {plural(len(report.sections), 'section')} {esc(book.name)} "
                f"declares, {report.covered} {_have(report.covered)} a citing clause, {noted} "
                f"{_have(noted)} a note saying why none does, and {missing} {_have(missing)} neither. "
                f"Its clauses carry {plural(len(report.supplements), 'supplement citation')}, "
                f"{plural(len(report.assumptions), 'assumption')} and {plural(len(report.gaps), 'gap')}, "
                f"each counted where it is written (the lists below give each source or reason once); "
                f"{plural(len(report.contradictions), 'contradiction')} and "
                f"{plural(len(report.clashes), 'clash', 'clashes')} are recorded.\n")

    def transition_link(self, book: Book, page: str, tn) -> str:
        """A transition's name, linked to its clause's card where it has one."""
        if tn.clause is not None:
            return self.link(page, self.site.place(book, tn.clause.key), code(tn.name))
        return code(tn.name) + " *(runtime)*"

    def verification_page(self, book: Book) -> str:
        page = book.verification
        report = self.site.proofs[book.name]
        total = len(report.results)
        out = [NO_SEARCH + f"# Verification of {esc(book.name)} {{#verification}}\n",
               self.link(page, Place(book.index), esc(book.name)) + "\n",
               f"From `rulec verify`: the z3 translation of the same rules the engine is emitted from. "
               f"For each invariant, the initial state satisfies it; for each (invariant, action), an "
               f"action allowed by its guards never breaks it. {total} checks: "
               + (", ".join(f"{n} {STATUS_TEXT[k]}" for k, n in counts(report).items()) or "none") + ".\n"]
        if report.error:
            out.append(admonition("failure", "The rules could not be verified", esc(report.error)))
        if report.scope:
            out.append(f"**Scope of the model:** {esc(_in_words(report.scope))}.\n")
        if report.notes:
            out.append("\n".join(f"- {esc(_in_words(n))}" for n in report.notes) + "\n")
        out.append("## Invariants {#invariants}\n")
        rows = []
        for i, inv in enumerate(report.invariants, 1):
            results = [r for r in report.results if r.invariant == inv.name]
            rows.append([f"I{i}", code(inv.name), esc(inv.kind), esc(inv.summary), esc(inv.cite or ""),
                         esc(status_summary(results))])
        out.append(table(["no.", "invariant", "kind", "what it says", "cites", "checks"], rows))
        out.append("*Lemmas* are facts of the runtime the other proofs rely on; *title* invariants are "
                   "written in the rulespec.\n")
        out.append("## Checks by action {#checks}\n")
        out.append("Each row is an action, trigger or runtime step; each column an invariant (numbered "
                   "as above). **P** proved, **S** sanctioned by the title, **G** not checkable because "
                   "the title declares a gap it needs, **X** not checkable (a construct the translation "
                   "does not support), **C** counterexample, **U** unknown.\n")
        letters = {"proved": "P", "sanctioned": "S", "gap": "G", "unsupported": "X",
                   "counterexample": "**C**", "unknown": "**U**"}
        grouped = by_transition(report)
        names = [inv.name for inv in report.invariants]
        rows = []
        for tn in report.transitions:
            results = {r.invariant: r for r in grouped.get(tn.name, [])}
            rows.append([self.transition_link(book, page, tn), esc(short(tn.cite or "", 60))]
                        + [letters.get(results[n].status, "?") if n in results else "" for n in names])
        init = {r.invariant: r for r in grouped.get("init", [])}
        if init:
            rows.insert(0, ["the initial state", ""] + [letters.get(init[n].status, "?") if n in init else ""
                                                       for n in names])
        out.append('<div class="rulec-matrix" markdown="1">\n\n'
                   + table(["step", "cites"] + [f"I{i}" for i in range(1, len(names) + 1)], rows)
                   + "\n</div>\n")
        failures = [r for r in report.results if r.status in ("counterexample", "unknown")]
        out.append("## Counterexamples and unknowns {#failures}\n")
        if not failures:
            out.append("No counterexample and no unknown: every check that could be made was proved or sanctioned.\n")
        for r in failures:
            out.append(f"### {esc(r.invariant)} after {esc(r.transition)}\n")
            out.append(f"**{esc(STATUS_TEXT[r.status])}**" + (f" for {code(r.binding)}" if r.binding else "") + "\n")
            if r.detail or r.reason:
                out.append(fence(r.detail or r.reason, "text"))
        out.append("## Sanctioned {#sanctioned}\n")
        sanctioned = [r for r in report.results if r.status == "sanctioned"]
        if not sanctioned:
            out.append("No check needed a sanction.\n")
        else:
            out.append("Where the title allows an invariant to break (a `sanction` clause, with its reading):\n")
            out.append(table(["invariant", "after", "sanction"],
                             [[code(r.invariant), code(r.transition), esc(short(r.reason or "", 400))]
                              for r in sanctioned]))
        if report.unused_sanctions:
            out.append("Sanctions no check needed:\n")
            out.append("\n".join(f"- {esc(u)}" for u in report.unused_sanctions) + "\n")
        out.append("## Not checkable {#not-checkable}\n")
        blocked: dict[str, list] = {}
        for r in report.results:
            if r.status in ("gap", "unsupported"):
                blocked.setdefault(short_reason(r.reason), []).append(r)
        if not blocked:
            out.append("Every check could be made.\n")
        else:
            out.append("Checks that wait for the title: each reason with the checks it holds up.\n")
            rows = []
            for reason in sorted(blocked):
                results = blocked[reason]
                where = sorted({r.transition for r in results})
                rows.append([esc(short(reason, 300)), str(len(results)),
                             ", ".join(code(w) for w in where[:8]) + (f", … ({len(where)} in all)" if len(where) > 8 else "")])
            out.append(table(["reason", "checks", "after"], rows))
        out.append("## Proved for any value of a gap {#any-value}\n")
        any_value: dict[str, list] = {}
        for r in report.results:
            if r.status == "proved" and (r.reason or "").startswith(FOR_ANY_VALUE):
                for gap in (r.reason or "")[len(FOR_ANY_VALUE):].split(", "):
                    any_value.setdefault(gap, []).append(r)
        if not any_value:
            out.append("No proof reads a value the title leaves as a gap.\n")
        else:
            out.append("A count the title leaves as a declared gap is read as a symbolic constant: these "
                       "proofs hold whatever value the gap takes once it is filled.\n")
            rows = []
            for gap in sorted(any_value):
                results = any_value[gap]
                where = sorted({r.transition for r in results})
                rows.append([esc(gap), str(len(results)),
                             ", ".join(code(w) for w in where[:8]) + (f", … ({len(where)} in all)" if len(where) > 8 else "")])
            out.append(table(["gap", "checks", "after"], rows))
        out.append("## Table checks {#tables}\n")
        out.append(table(["check", "status", "what it checks", "findings"],
                         [[code(t.name), esc(t.status), esc(t.summary),
                           "<br>".join(esc(short(_in_words(d), 200))
                                       for d in (t.details + [f"note: {n}" for n in t.notes])[:6])]
                          for t in report.tables]))
        return "\n".join(out)

    def use_link(self, book: Book, page: str, label: str) -> str:
        """A link for a coverage `Use` label ('private MT.cost')."""
        clause, _, where = label.partition(".") if not label.startswith("sanction ") else (label, "", "")
        kind, _, name = clause.partition(" ")
        place = self.site.place(book, (kind, name))
        return self.link(page, place, code(label))

    def reports_index(self) -> str:
        page = "reports/index.md"
        out = ["# Reports {#reports}\n",
               "Per title and variant: how much of its rulebook the rulespec covers, and how much "
               "rests on something other than the rulebook.\n"]
        rows = []
        for book in self.site.books:
            r = self.coverage[book.slug]
            rows.append([self.link(page, Place(book.reports), esc(book.name)), str(len(r.sections)), str(r.covered),
                         str(sum(1 for sc in r.sections if not sc.uses and sc.note)),
                         str(sum(1 for sc in r.sections if not sc.uses and not sc.note)),
                         str(len(r.supplements)), str(len(r.assumptions)), str(len(r.gaps)),
                         str(len(r.contradictions)), str(len(r.clashes))])
        out.append(table(["title", "sections", "covered", "noted", "not covered", "supplements", "assumptions",
                          "gaps", "contradictions", "clashes"], rows))
        out.append("A title's sections are *covered* (a clause cites them), *noted* (no clause does, and a "
                   "note says why: no rule to transcribe) or *not covered*; the three add up to its sections. "
                   "Supplements, assumptions and gaps count every part of a clause that carries one (a clause "
                   "citing two supplements counts twice), the library's clauses and the standard tiles' "
                   "supplement included, so they are more than the sources and reasons a title's coverage "
                   "page lists.\n")
        for heading, anchor, kind in (("Contradictions", "contradictions", "contradiction"),
                                      ("Clashes", "clashes", "clash")):
            out.append(f"## {heading} {{#{anchor}}}\n")
            out.append({"contradiction": "Places where a rulebook contradicts itself, and the reading the "
                                         "rulespec takes ([W003](../reference/diagnostics.md#w003)).\n",
                        "clash": "Places where a supplement disagrees with the rulebook; the rulebook wins "
                                 "([W004](../reference/diagnostics.md#w004)).\n"}[kind])
            rows = []
            for book in self.site.books:
                own = self.overlays(book) or [o for o in book.title.chain if o.kind == "title" and o.name == book.title.name]
                for clause in book.title.of_kind(kind):
                    if clause.origin not in own and not (book.parent is None and clause.origin.kind == "title"
                                                         and clause.origin.name == book.title.name):
                        continue
                    reading = clause.decl.get("reading") if isinstance(clause.decl, s.Component) else None
                    rows.append([esc(book.name), self.link(page, self.site.place(book, clause.key), code(clause.name)),
                                 esc(clause_label(clause)),
                                 ", ".join(esc(citation_label(c)) for c in clause.prov.citations),
                                 esc(short(value_text(reading.value, 400), 400)) if reading else "*no reading*"])
            out.append(table(["title", kind, "about", "cites", "reading taken"], rows))
        out.append("## Verification {#verification}\n")
        out.append("From `rulec verify`: checks per status for each title and variant. A check is "
                   "*not checkable* while the title declares a gap it needs or uses a construct the z3 "
                   "translation does not support; a counterexample or an unknown is a finding.\n")
        rows = []
        for book in self.site.books:
            report = self.site.proofs.get(book.name)
            if report is None:
                continue
            c = counts(report)
            failed = sum(1 for t in report.tables if t.status == "failed")
            rows.append([self.link(page, Place(book.verification), esc(book.name))]
                        + [str(c.get(k, 0)) for k in STATUS_ORDER] + [str(failed)])
        out.append(table(["title"] + [STATUS_TEXT[k] for k in STATUS_ORDER] + ["table checks failed"], rows))
        counts_ = Counter(d.code for d in self.site.loaded.diagnostics)
        out.append("## Diagnostics now {#diagnostics}\n")
        out.append("What `rulec check --notes` reports on the rulespecs these pages were made from.\n")
        out.append(table(["code", "count", "meaning"],
                         [[self.link(page, Place("reference/diagnostics.md", code_.lower()), code_), str(n),
                           esc(CODES[code_])] for code_, n in sorted(counts_.items())]))
        return "\n".join(out)


def _in_words(text: str) -> str:
    """A line of `rulec verify`'s notes with the Python it prints said in words:
    'count is None' (a train that gives no count), a quoted value, an arrow
    and a list of numbers."""
    text = re.sub(r"\bcount is None\b", "no count given", text)
    text = re.sub(r"\bcount is '([^']*)'", r"count is \1", text).replace(" -> ", " → ")
    return re.sub(r"\[(-?\d+(?:, -?\d+)*)\]", lambda m: _or_list(m.group(1).split(", ")), text)


def _or_list(items: list[str]) -> str:
    """'11, 14 or 16'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _have(n: int) -> str:
    return "has" if n == 1 else "have"
