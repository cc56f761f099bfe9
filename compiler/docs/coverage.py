"""`rulec coverage TITLE`: how much of the rulebook the rulespec covers.

For each section the title declares: the clauses citing it (a citation of
§8.2.3 also counts for §8.2 and §8), or the note saying why none does. Then
every supplement with its source, every assumption with its reason, every
gap, and the recorded contradictions and clashes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from compiler.lang import syntax as s
from compiler.lang.ir import Title


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
class Change:
    """One clause of a title built on another (`extends`), against the base: `change` is "replaces",
    "adds to" (amends), "removes" or "new"; `target` the base's clause and where it came from ("" for a
    new clause); `cites` the clause's own citations."""

    change: str
    clause: str
    target: str
    cites: str
    location: str


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
    #: for a title that extends another: what each of its own clauses does to the base
    base: str | None = None
    changes: tuple["Change", ...] = ()

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
            "base": self.base,
            "changes": [{"change": c.change, "clause": c.clause, "base_clause": c.target, "cites": c.cites,
                         "location": c.location} for c in self.changes],
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
        if self.base is not None:
            lines.append("")
            counts = ", ".join(f"{sum(1 for c in self.changes if c.change == k)} {k}"
                               for k in ("replaces", "adds to", "removes", "new"))
            lines.append(f"CHANGES TO {self.base} ({counts})")
            shown: list[Change] = []
            for c in self.changes:
                kind = c.clause.split(" ")[0]
                last = shown[-1] if shown else None
                if (c.change == "removes" and last is not None and last.change == "removes"
                        and last.clause.split(" ")[0] == kind and last.cites == c.cites):
                    # a run of removals of one kind for one reason: one line
                    names = last.clause + ", " + c.clause.split(" ", 1)[1]
                    origin = c.target[c.target.index("("):]
                    shown[-1] = Change("removes", names, f"these clauses {origin}", c.cites, last.location)
                    continue
                shown.append(c)
            for c in shown:
                what = f"{c.change} {c.target}" if c.target else "new (no clause of the base)"
                lines.append(f"  {c.clause:<40} {what}\n      {c.cites or '(no citation)'}  [{c.location}]")
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
    base, changes = _changes(title)
    return Report(
        base=base,
        changes=changes,
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


def _changes(title: Title) -> tuple[str | None, tuple[Change, ...]]:
    """For a title that extends another, each clause its own units (the title and, when shown, its
    variant) wrote, against the base title and library: replaced, amended, removed or new."""
    if title.extends is None:
        return None, ()
    own = {("title", title.name)} | ({("variant", title.variant)} if title.variant else set())

    def mine(origin) -> bool:
        return (origin.kind, origin.name) in own

    def cites(prov: s.Provenance) -> str:
        return ", ".join(str(c) for c in prov.citations if c.is_rulebook)

    out: list[Change] = []
    for clause in title.clauses:
        if not mine(clause.origin):
            continue
        label = f"{clause.kind} {clause.name}"
        previous = clause.previous
        while previous is not None and mine(previous.origin) and clause.change in ("replaced", "amended"):
            # replaced again by the variant: the change is still against the base's clause
            previous = getattr(previous, "previous", None)
        if clause.change in ("replaced", "amended") and previous is not None and not mine(previous.origin):
            verb = "replaces" if clause.change == "replaced" else "adds to"
            span = clause.span
            if clause.change == "amended" and isinstance(clause.decl, s.Component) \
                    and isinstance(previous.decl, s.Component):
                # the amendment's own properties, not the base clause's place
                before = set(map(id, previous.decl.properties))
                written = [p for p in clause.decl.properties if id(p) not in before]
                span = written[0].span if written else span
            out.append(Change(verb, label, f"{previous.kind} {previous.name} ({previous.origin})",
                              cites(clause.prov), str(span)))
        elif clause.change == "defined":
            target = _adds_to(title, clause)
            out.append(Change("adds to" if target else "new", label, target, cites(clause.prov), str(clause.span)))
    for removal in title.removals:
        if mine(removal.origin):
            gone = removal.clause
            out.append(Change("removes", f"{gone.kind} {gone.name}", f"{gone.kind} {gone.name} ({gone.origin})",
                              cites(removal.prov), str(removal.span)))
    return title.extends, tuple(out)


def _adds_to(title: Title, clause) -> str:
    """A new component's `adds_to: "KIND NAME"`: the base's clause whose rule it extends, with its origin
    (or a warning that the base has no such clause)."""
    if not isinstance(clause.decl, s.Component):
        return ""
    prop = clause.decl.get("adds_to")
    if prop is None or not isinstance(prop.value, s.Str):
        return ""
    targets = []
    for ref in prop.value.value.split(","):
        kind, _, name = ref.strip().partition(" ")
        found = title.get(kind, name) or next(
            (r.clause for r in title.removals if r.clause.kind == kind and r.clause.name == name), None)
        while found is not None and found.previous is not None and found.origin.name == title.name:
            found = found.previous
        origin = f"({found.origin})" if found is not None else "(NOT IN THE BASE)"
        targets.append(f"{kind} {name} {origin}")
    return ", ".join(targets)
