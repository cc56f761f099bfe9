"""Stage 4, check: semantic diagnostics on a resolved title.

- W001 a clause of the title with no provenance at all (no citation,
  supplement or assumption on it or on its parts), or with an assumption that
  gives no reason or a supplement that names no source (`assumed ""`);
- W002 each declared gap (a note: the gap is declared, not silent);
- W003 each recorded contradiction of the rulebook (a note: the reading it takes is
  recorded); E020 if it records no reading;
- W004 each recorded clash between a supplement and the rulebook (a note, as W003);
- W005 a citation of a section the title does not declare (when it declares any);
- E023 a duplicate section number cited without the heading that tells it apart;
- E022, E024-E029 every value against the title's schema (compiler.lang.typecheck);
- E030-E033 what the schema accepts that would leave the title unplayable
  (compiler.lang.check_play);
- E010 a `sanction` naming an invariant or an action that does not exist
  (compiler.lang.sanctions);
- E024 a field read of a routine's parameter that its kind does not have
  (compiler.lang.fields);
- E036 a trigger binding more values than its runtime event gives
  (compiler.lang.events);
- E011, E020-E022, E033, E038 an author's slips the schema accepts and play runs
  into: a falling market row, a path from an end to itself, a step listed twice, a bank short of
  the starting cash, ... (compiler.lang.authoring);
- E015, E022, E024, E036, E038 names and values a rule gets wrong: a phase's event near one a trigger
  is on, an ability's key no ability has, an ordering of none, a component compared with a string, a
  builtin's argument of the wrong type (compiler.lang.slips).

Library clauses are generic and cited by the titles that use them, so W001
and W005 look only at clauses written in the title and its overlays.
"""

from __future__ import annotations

from collections import defaultdict

from compiler.lang import syntax as s
from compiler.lang.authoring import check_authoring
from compiler.lang.check_play import check_play
from compiler.diagnostics import Diagnostic, Severity, error, warning
from compiler.lang.ir import Clause, Title, rulebook_citations
from compiler.lang.events import check_events
from compiler.lang.fields import check_fields
from compiler.lang.sanctions import check_sanctions
from compiler.lang.slips import check_slips
from compiler.lang.schema import schema_of
from compiler.lang.typecheck import check_types


def check_title(title: Title) -> list[Diagnostic]:
    """All semantic diagnostics for one resolved title (or title + variant)."""
    out: list[Diagnostic] = []
    out.extend(_uncited(title))
    out.extend(_empty_sources(title))
    out.extend(_gaps(title))
    out.extend(_contradictions_and_clashes(title))
    out.extend(_citations(title))
    out.extend(check_types(title))
    out.extend(check_play(title))
    out.extend(check_sanctions(title))
    out.extend(check_fields(title, schema_of(title)))
    out.extend(check_events(title))
    out.extend(check_authoring(title))
    out.extend(check_slips(title))
    return out


def _own(clause: Clause) -> bool:
    return clause.origin.kind != "library"


def _has_any_provenance(decl) -> bool:
    if getattr(decl, "prov", s.NO_PROVENANCE).is_cited:
        return True
    return False


def _uncited(title: Title) -> list[Diagnostic]:
    out = []
    for clause in title.clauses:
        if not _own(clause):
            continue
        decl = clause.decl
        if isinstance(decl, (s.Param, s.KindDecl, s.Enum)):
            continue  # the schema: declarations of what may be said, not rules
        if _has_any_provenance(decl):
            continue
        if isinstance(decl, s.Property) and isinstance(decl.value, s.Gap):
            continue  # a gap is its own provenance: nobody gives the value
        if isinstance(decl, s.Component):
            parts = list(decl.properties) + list(decl.children)
            if parts and all(_has_any_provenance(p) or isinstance(getattr(p, "value", None), s.Gap) for p in parts):
                continue
        if isinstance(decl, s.Table) and decl.rows and all(r.prov.is_cited for r in decl.rows):
            continue
        out.append(warning(
            "W001", f"{clause.kind} {clause.name!r} cites no source", decl.span,
            help="add a rulebook citation (§8.1), `supplement from \"...\"` or `assumed \"why\"`",
        ))
    return out


def _sources_of(decl) -> list[s.Citation]:
    """The supplements and assumptions of a clause and of every part of it (its properties, rows and
    statements)."""
    found = []
    for node in [decl, *s.walk(decl)]:
        prov = getattr(node, "prov", None)
        if isinstance(prov, s.Provenance):
            found.extend(c for c in prov.citations if c.kind in ("supplement", "assumed"))
    return found


#: each clause's supplements and assumptions, kept by identity as typecheck's walks are
_sources_of = s.ByNode(_sources_of)


def _empty_sources(title: Title) -> list[Diagnostic]:
    """W001 for an assumption that gives no reason or a supplement that names no source (`assumed ""`):
    it stands where the rulebook is silent, so it must say why, or from where, as a citation says where."""
    out = []
    seen = set()
    for clause in title.clauses:
        if not _own(clause):
            continue
        for citation in _sources_of(clause.decl):
            if citation.ref.strip() or id(citation) in seen:
                continue
            seen.add(id(citation))
            what = "an assumption that gives no reason" if citation.kind == "assumed" else "a supplement that names no source"
            out.append(warning(
                "W001", f"{clause.kind} {clause.name!r} rests on {what}", citation.span or clause.decl.span,
                help='say why (`assumed "the rulebook is silent; 18xx.games does so"`) or from where '
                     '(`supplement from "the publisher\'s FAQ"`)'))
    return out


def _gaps(title: Title) -> list[Diagnostic]:
    return [
        Diagnostic(
            Severity.NOTE, "W002", f"gap: {clause.kind} {clause.name!r} {where}: {gap.reason}".replace("  ", " "),
            gap.span,
        )
        for clause, where, gap in title.gaps()
    ]


def _contradictions_and_clashes(title: Title) -> list[Diagnostic]:
    out = []
    for kind, code, label in (("contradiction", "W003", "contradiction"), ("clash", "W004", "clash")):
        for clause in title.of_kind(kind):
            decl: s.Component = clause.decl  # type: ignore[assignment]
            cited = ", ".join(str(c) for c in decl.prov.citations) or "uncited"
            reading = decl.get("reading")
            text = decl.title or clause.name
            if reading is None:
                out.append(error(
                    "E020", f"{label} {clause.name!r} records no reading", decl.span,
                    help="add `reading: \"...\"` saying which reading the rulespec takes and why",
                ))
                continue
            # declared and acknowledged: the rulespec records the reading it takes, so a note
            out.append(Diagnostic(Severity.NOTE, code, f"{label} {clause.name!r} ({cited}): {text}", decl.span,
                                  notes=((reading.span, "reading taken"),)))
    return out


def _citations(title: Title) -> list[Diagnostic]:
    if not title.sections:
        return []
    declared = {section.citation.section_id for section in title.sections}
    by_number: dict[str, list[s.Section]] = defaultdict(list)
    for section in title.sections:
        if section.citation.kind == "section":
            by_number[section.citation.ref.lstrip("§")].append(section)
    out = []
    for clause in title.clauses:
        if not _own(clause):
            continue
        for citation in rulebook_citations(clause.decl):  # its provenances' (`Title.provenances`), in order
            sid = citation.section_id
            if sid in declared:
                continue
            if citation.kind == "section" and citation.heading is None and len(by_number.get(sid, [])) > 1:
                headings = ", ".join(f'{citation.ref}("{x.heading}")' for x in by_number[sid])
                out.append(error(
                    "E023", f"{citation} names {len(by_number[sid])} sections", citation.span,
                    help=f"tell them apart by heading: {headings}",
                ))
                continue
            if citation.kind == "section" and citation.heading is not None:
                # §IV("Game Setup") is declared either with the heading or as the number alone
                if citation.ref.lstrip("§") in declared:
                    continue
            if _within_declared(sid, declared):
                continue
            out.append(warning(
                "W005", f"{citation} is not a section the title declares", citation.span,
                help="declare it with `section`, or correct the citation",
            ))
    return out


def _within_declared(sid: str, declared: set[str]) -> bool:
    """`§8.2.3` is within `§8.2` when the title declares the parent but not
    every numbered list item under it."""
    parts = sid.split(".")
    while len(parts) > 1:
        parts = parts[:-1]
        if ".".join(parts) in declared:
            return True
    return False
