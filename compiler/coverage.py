"""`rulec coverage TITLE`: how much of the rulebook the rulespec covers.

For each section the title declares: the clauses citing it (a citation of
§8.2.3 also counts for §8.2 and §8), or the note saying why none does. Then
every supplement with its source, every assumption with its reason, every
gap, and the recorded contradictions and clashes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from compiler import syntax as s
from compiler.ir import Title


@dataclass(frozen=True)
class Use:
    clause: str  # "private MT"
    where: str  # "cost", "" for the clause itself
    origin: str
    location: str  # path:line:col

    def label(self) -> str:
        return f"{self.clause}{'.' + self.where if self.where else ''}"


@dataclass(frozen=True)
class SectionCoverage:
    citation: str
    heading: str
    note: str | None
    uses: tuple[Use, ...]


@dataclass(frozen=True)
class Report:
    title: str
    rulebook: str | None
    sections: tuple[SectionCoverage, ...]
    undeclared: tuple[tuple[str, Use], ...]
    supplements: tuple[tuple[str, Use], ...]
    assumptions: tuple[tuple[str, Use], ...]
    gaps: tuple[tuple[str, Use], ...]
    contradictions: tuple[tuple[str, str, str], ...]  # name, citations, reading
    clashes: tuple[tuple[str, str, str], ...]

    @property
    def covered(self) -> int:
        return sum(1 for sc in self.sections if sc.uses)

    def to_json(self) -> dict:
        def use(u: Use) -> dict:
            return {"clause": u.clause, "where": u.where, "origin": u.origin, "location": u.location}

        return {
            "title": self.title,
            "rulebook": self.rulebook,
            "sections": [
                {"citation": sc.citation, "heading": sc.heading, "note": sc.note,
                 "clauses": [use(u) for u in sc.uses]}
                for sc in self.sections
            ],
            "undeclared_citations": [{"citation": c, **use(u)} for c, u in self.undeclared],
            "supplements": [{"source": src, **use(u)} for src, u in self.supplements],
            "assumptions": [{"reason": why, **use(u)} for why, u in self.assumptions],
            "gaps": [{"reason": why, **use(u)} for why, u in self.gaps],
            "contradictions": [{"name": n, "cites": c, "reading": r} for n, c, r in self.contradictions],
            "clashes": [{"name": n, "cites": c, "reading": r} for n, c, r in self.clashes],
        }

    def to_text(self) -> str:
        lines = [f"coverage of {self.title}" + (f" — {self.rulebook}" if self.rulebook else "")]
        lines.append(f"sections: {len(self.sections)}, with a citing clause: {self.covered}, "
                     f"supplements: {len(self.supplements)}, assumptions: {len(self.assumptions)}, "
                     f"gaps: {len(self.gaps)}, contradictions: {len(self.contradictions)}, clashes: {len(self.clashes)}")
        lines.append("")
        lines.append("SECTIONS")
        for sc in self.sections:
            head = f"  {sc.citation:<14} {sc.heading}"
            if sc.uses:
                names = sorted({u.label() for u in sc.uses})
                shown = ", ".join(names[:8]) + (f", … ({len(names)} in all)" if len(names) > 8 else "")
                lines.append(f"{head}\n      {len(sc.uses)} citing: {shown}")
            elif sc.note:
                lines.append(f"{head}\n      no clause: {sc.note}")
            else:
                lines.append(f"{head}\n      NOT COVERED: no clause cites it and no note says why")
        for heading, items in (
            ("CITATIONS OF UNDECLARED SECTIONS", self.undeclared),
            ("SUPPLEMENTS", self.supplements),
            ("ASSUMPTIONS", self.assumptions),
            ("GAPS", self.gaps),
        ):
            lines.append("")
            lines.append(f"{heading} ({len(items)})")
            for text, use in items:
                lines.append(f"  {use.label():<40} {text}  [{use.location}]")
        for heading, items in (("CONTRADICTIONS", self.contradictions), ("CLASHES", self.clashes)):
            lines.append("")
            lines.append(f"{heading} ({len(items)})")
            for name, cites, reading in items:
                lines.append(f"  {name} ({cites})\n      reading: {reading}")
        return "\n".join(lines)


def _section_keys(citation: s.Citation) -> list[str]:
    """The section ids a citation counts for: itself and its parents."""
    sid = citation.section_id
    keys = [sid]
    if citation.kind == "section":
        ref = citation.ref.lstrip("§")
        parts = ref.split(".")
        for n in range(len(parts) - 1, 0, -1):
            keys.append(".".join(parts[:n]))
        if citation.heading:
            keys.append(ref)
    return keys


def coverage_report(title: Title) -> Report:
    by_section: dict[str, list[Use]] = defaultdict(list)
    undeclared, supplements, assumptions = [], [], []
    declared = {sec.citation.section_id for sec in title.sections}
    for clause, where, prov, span in title.provenances():
        use = Use(f"{clause.kind} {clause.name}".strip(), where, str(clause.origin), str(span))
        for citation in prov.citations:
            if citation.kind == "supplement":
                supplements.append((citation.ref, use))
            elif citation.kind == "assumed":
                assumptions.append((citation.ref, use))
            else:
                keys = _section_keys(citation)
                hit = False
                for key in keys:
                    if key in declared:
                        by_section[key].append(use)
                        hit = True
                if not hit and clause.origin.kind != "library":
                    undeclared.append((str(citation), use))
    gaps = [
        (gap.reason, Use(f"{clause.kind} {clause.name}", where, str(clause.origin), str(gap.span)))
        for clause, where, gap in title.gaps()
    ]

    def recorded(kind: str):
        out = []
        for comp in title.components(kind):
            reading = comp.get("reading")
            text = reading.value.value if reading and isinstance(reading.value, s.Str) else "(none recorded)"
            out.append((comp.key or "", str(comp.prov), text))
        return tuple(out)

    sections = tuple(
        SectionCoverage(str(sec.citation), sec.heading, sec.note, tuple(by_section.get(sec.citation.section_id, ())))
        for sec in title.sections
    )
    return Report(
        title=title.display_name,
        rulebook=title.rulebook,
        sections=sections,
        undeclared=tuple(undeclared),
        supplements=tuple(supplements),
        assumptions=tuple(assumptions),
        gaps=tuple(gaps),
        contradictions=recorded("contradiction"),
        clashes=recorded("clash"),
    )
