"""Answers to the cross-title questions (`topics.TOPICS`), read from the IR.

`answer(book, topic)` gives, for one title or variant, the value of each of
the topic's library parameters (the clause that sets it, or a gap where the
title does not), and the title's other clauses that bear on the question.
The précis box and the cross-title pages both show these.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.lang import syntax as s
from compiler.docs.model import Book
from compiler.docs.render import humanize, table_summary, value_text
from compiler.docs.topics import Topic
from compiler.lang.ir import Clause


@dataclass(frozen=True)
class ParamAnswer:
    param: str
    clause: Clause | None  # the property or table that sets it; None: a gap
    text: str  # the value as DSL text ("" for a gap)
    words: str  # the value in words, where the topic has words for it
    gap: bool


@dataclass(frozen=True)
class Related:
    clause: Clause
    part: str | None  # the component property shown, if one
    text: str


@dataclass(frozen=True)
class Answer:
    book: Book
    topic: Topic
    params: tuple[ParamAnswer, ...]
    related: tuple[Related, ...]

    @property
    def main(self) -> ParamAnswer:
        return self.params[0]

    @property
    def group(self) -> str:
        """The answer as grouped on the cross-title page."""
        main = self.main
        if main.gap:
            return "not set (a gap)"
        return main.words or main.text


def _words(topic: Topic, expr) -> str:
    """The value in words: each name the topic knows is spelled out."""
    if isinstance(expr, s.Name):
        return topic.values.get(expr.name, humanize(expr.name))
    if isinstance(expr, s.Bool):
        return topic.values.get("true" if expr.value else "false", "yes" if expr.value else "no")
    if isinstance(expr, s.ListLit) and all(isinstance(i, s.Name) for i in expr.items):
        return "; ".join(topic.values.get(i.name, humanize(i.name)) for i in expr.items)
    if isinstance(expr, s.Range) and isinstance(expr.low, s.Int) and isinstance(expr.high, s.Int):
        return f"{expr.low.value}–{expr.high.value}"
    return ""


def param_answer(book: Book, topic: Topic, param: str) -> ParamAnswer:
    title = book.title
    clause = title.get("property", param) or title.get("table", param)
    if clause is None:
        return ParamAnswer(param, None, "", "", True)
    decl = clause.decl
    if isinstance(decl, s.Table):
        return ParamAnswer(param, clause, table_summary(decl), "", False)
    if isinstance(decl.value, s.Gap):
        return ParamAnswer(param, clause, f'gap "{decl.value.reason}"', "", True)
    return ParamAnswer(param, clause, value_text(decl.value, 200), _words(topic, decl.value), False)


def related(book: Book, topic: Topic) -> tuple[Related, ...]:
    out: list[Related] = []
    seen: set[tuple[str, str, str | None]] = set()
    for rel in topic.related:
        for clause in book.title.clauses:
            if clause.kind in ("param", "term", "cite", "enum") or clause.origin.kind == "library":
                continue  # a library clause as it stands says nothing about this title
            if clause.name in topic.params and clause.kind in ("property", "table"):
                continue
            part = None
            decl = clause.decl
            if "." in rel:
                kind, prop_name = rel.split(".", 1)
                if clause.kind != kind or not isinstance(decl, s.Component):
                    continue
                prop = decl.get(prop_name)
                if prop is None:
                    continue
                part, text = prop_name, value_text(prop.value, 200)
            elif " " in rel:
                if f"{clause.kind} {clause.name}" != rel:
                    continue
                text = _describe(clause)
            elif clause.name == rel or clause.kind == rel:
                text = _describe(clause)
            else:
                continue
            key = (clause.kind, clause.name, part)
            if key not in seen:
                seen.add(key)
                out.append(Related(clause, part, text))
    return tuple(out)


def _describe(clause: Clause) -> str:
    decl = clause.decl
    if isinstance(decl, s.Property):
        return value_text(decl.value, 200)
    if isinstance(decl, s.Table):
        return table_summary(decl)
    if isinstance(decl, s.Component):
        summary = decl.get("summary") or decl.get("reading")
        if summary is not None:
            return value_text(summary.value, 200)
        facts = [f"{p.name}: {value_text(p.value, 60)}" for p in decl.properties[:4]]
        return (decl.title + ": " if decl.title else "") + "; ".join(facts)
    return getattr(decl, "title", None) or clause.name


def answer(book: Book, topic: Topic) -> Answer:
    return Answer(book, topic, tuple(param_answer(book, topic, p) for p in topic.params), related(book, topic))
