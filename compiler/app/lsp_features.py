"""What the language server answers, read from the workspace's resolved titles and their schema.

- hover: a parameter's meaning, type, allowed values and default (`param NAME: TYPE "meaning"`, in
  the library or the title); a section's heading; a clause's citations with their headings; a
  builtin's signature and meaning;
- definition: a name to its definition (a clause, a component, a parameter, an enum, a kind, a
  routine's parameter), a citation to its `section`, an overlay's `replace` / `amend` / `remove` to
  the clause it changes;
- references: every place a name is written in the workspace;
- completion: parameter names (of the title, or of the kind of the component the cursor is in), the
  values a parameter's type allows (enum values, component keys), section citations after `§`,
  the names an expression may use;
- symbols: each unit's sections, components, routines, tables, parameters and kinds.

Positions and spans here count lines and columns from 1 in characters (`Span`'s convention);
`compiler.app.lsp` converts them at the editor's edge. Every answer is plain data (`Found*`).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

from compiler.lang import syntax as s
from compiler.lang.builtins import VALUES as BUILTIN_VALUES, table as builtin_table
from compiler.diagnostics import Span
from compiler.lang.ir import Title
from compiler.app.lsp_workspace import Workspace
from compiler.lang.schema import SCALARS, Schema, listing, schema_of

_WORD = re.compile(r'§"[^"\n]*"?|§[0-9A-Za-z]*(?:\.[0-9A-Za-z]+)*|\b[IVXL]+(?:\.[0-9]+)+\b|[A-Za-z0-9_]+')


@dataclass(frozen=True)
class Word:
    """The word under the cursor: its text, where it is, and what it is to the DSL."""

    text: str
    span: Span
    role: str  # "citation", "key" (a property's or a parameter's name), "name"
    #: for a name in a property's value: the property's name
    key: str | None = None


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # "property", "value", "section", "clause", "builtin", "kind"
    detail: str | None = None
    documentation: str | None = None
    #: the text the completion replaces (the part of the word already typed)
    span: Span | None = None


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str  # "unit", "section", "component", "action", "procedure", "function", ...
    span: Span
    selection: Span
    detail: str | None = None
    children: tuple["Symbol", ...] = field(default=())


# ---------------------------------------------------------------- the cursor


def word_at(workspace: Workspace, path: str, line: int, column: int) -> Word | None:
    """The word at (line, column) and its role; None between words."""
    if workspace.text(path) is None:
        return None
    source = workspace.line(path, line)
    for match in _WORD.finditer(source):
        if match.start() <= column - 1 <= match.end() and match.group():
            found = match.group()
            span = Span(path, line, match.start() + 1, line, match.end() + 1)
            if found.startswith("§") or re.fullmatch(r"[IVXL]+(?:\.[0-9]+)+", found):
                return Word(found, span, "citation")
            before, after = source[:match.start()], source[match.end():]
            if re.match(r"\s*:(?!:)", after) and re.fullmatch(r"\s*(?:replace\s+|param\s+)?", before):
                return Word(found, span, "key")
            key = re.match(r"\s*(?:replace\s+)?([A-Za-z_]\w*)\s*:(?!:)", source)
            owner = key.group(1) if key and key.end() <= match.start() else None
            return Word(found, span, "name", owner)
    return None


def _contains(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def enclosing(workspace: Workspace, path: str, line: int, column: int) -> list[object]:
    """The syntax nodes around (line, column), outermost first: the unit, its item, the components
    nested in it and the property (a `replace` is looked through)."""
    unit = workspace.unit_at(path, line)
    if unit is None:
        return []
    chain: list[object] = [unit]
    nodes = unit.items
    while True:
        inner = None
        for node in nodes:
            if isinstance(node, s.Replace):
                node = node.decl
            if getattr(node, "span", None) is not None and _contains(node.span, line, column):
                inner = node
                break
        if inner is None:
            return chain
        chain.append(inner)
        if isinstance(inner, (s.Component, s.Amend)):
            nodes = inner.properties + inner.children
        elif isinstance(inner, s.KindDecl):
            nodes = inner.params
        else:
            return chain


def _kind_around(chain: list[object]) -> str | None:
    for node in reversed(chain):
        if isinstance(node, s.Component):
            return node.kind
        if isinstance(node, s.Amend):
            return node.kind
    return None


def _param(schema: Schema, kind: str | None, name: str) -> s.Param | None:
    if kind is not None and schema.kind(kind) is not None and name in schema.kind(kind).params:
        return schema.kind(kind).params[name]
    return schema.params.get(name)


def _title_at(workspace: Workspace, path: str, line: int) -> Title | None:
    return workspace.title_of(workspace.unit_at(path, line))


# ---------------------------------------------------------------- hover


def hover(workspace: Workspace, path: str, line: int, column: int) -> tuple[str, Span] | None:
    """Markdown for what is at (line, column), and the span it is about."""
    word = word_at(workspace, path, line, column)
    title = _title_at(workspace, path, line)
    if word is None or title is None:
        return None
    schema = schema_of(title)
    chain = enclosing(workspace, path, line, column)
    if word.role == "citation":
        section = _section(title, word.text)
        if section is None:
            return f"`{word.text}`: no section of {title.name} is declared so", word.span
        text = f"**{word.text}** {section.heading}"
        if section.note:
            text += f"\n\n{section.note}"
        return text + f"\n\n{title.rulebook or title.name}", word.span
    if word.role == "key":
        in_kind = next((n for n in chain if isinstance(n, s.KindDecl)), None)
        param = in_kind.get(word.text) if in_kind is not None else _param(schema, _kind_around(chain), word.text)
        text = _param_text(workspace, schema, param) if param is not None else ""
        written = chain[-1] if chain and isinstance(chain[-1], s.Property) else None
        if written is not None and written.name == word.text and written.prov.citations:
            text += ("\n\n---\n\n" if text else "") + "Cited:\n\n" + "\n".join(
                _citation_text(title, c) for c in written.prov.citations)
        return (text, word.span) if text else None
    if word.key is not None:
        param = _param(schema, _kind_around(chain), word.key)
        if param is not None and word.text in _allowed_names(schema, param.type):
            return f"`{word.text}`: a value of `{word.key}`\n\n" + _param_text(workspace, schema, param), word.span
    clauses = _clauses_named(title, word.text)
    if clauses:
        return "\n\n---\n\n".join(
            _param_text(workspace, schema, clause.decl) if isinstance(getattr(clause, "decl", None), s.Param)
            else _clause_text(workspace, title, clause) for clause in clauses[:3]), word.span
    param = schema.params.get(word.text)
    if param is not None:
        return _param_text(workspace, schema, param), word.span
    builtin = _builtin_text(word.text)
    if builtin is not None:
        return builtin, word.span
    return None


def _section(title: Title, text: str) -> s.Section | None:
    wanted = text.lstrip("§")
    for section in title.sections:
        citation = section.citation
        if citation.section_id == wanted or citation.ref.lstrip("§") == wanted:
            return section
        if citation.kind == "heading" and wanted.strip('"') == citation.ref:
            return section
    return None


def _param_text(workspace: Workspace, schema: Schema, param: s.Param) -> str:
    head = f"param {param.name}: {workspace.source(param.type.span) or param.type}"
    if param.required_when is not None:
        head += f" required when {workspace.source(param.required_when.span)}"
    elif param.required:
        head += " required"
    if param.documentation:
        head += " documentation"
    out = [f"```rulespec\n{head}\n```"]
    if param.title:
        out.append(param.title)
    allowed = _allowed(schema, param.type)
    if allowed:
        out.append("Allowed: " + allowed)
    if param.default is not None:
        out.append(f"Default: `{workspace.source(param.default.span) or '…'}`")
    out.append(f"Declared at `{param.span}`")
    return "\n\n".join(out)


def _alternatives(type_ref: s.TypeRef):
    if type_ref.values:
        yield ("enum", type_ref.values)
    for alternative in type_ref.alternatives:
        if isinstance(alternative, s.TypeRef):
            yield from _alternatives(alternative)
        else:
            yield ("name", alternative)


def _allowed_names(schema: Schema, type_ref: s.TypeRef) -> list[str]:
    """The names a value of this type may be: enum values, component keys, true/false, none."""
    names: list[str] = []
    for what, value in _alternatives(type_ref):
        if what == "enum":
            names.extend(value)
        elif value in schema.enums:
            names.extend(schema.enums[value])
        elif value == "bool":
            names.extend(["true", "false"])
        elif value == "none":
            names.append("none")
        elif value in schema.keys:
            names.extend(sorted(schema.keys[value]))
    return list(dict.fromkeys(names))


def _allowed(schema: Schema, type_ref: s.TypeRef) -> str:
    parts = []
    for what, value in _alternatives(type_ref):
        if what == "enum":
            parts.append(", ".join(f"`{v}`" for v in value))
        elif value in schema.enums:
            parts.append(", ".join(f"`{v}`" for v in schema.enums[value]))
        elif value in SCALARS:
            parts.append(SCALARS[value])
        elif value in schema.kinds:
            keys = schema.keys.get(value, set())
            parts.append(f"a {value}" + (f" ({listing(keys, 12)})" if keys else ""))
        else:
            parts.append(f"`{value}`")
    return "; ".join(parts)


def _clauses_named(title: Title, name: str) -> list:
    """The clauses of `title` named `name`, and the components with that key at any depth."""
    found = [clause for clause in title.clauses if clause.name == name]
    for clause in title.clauses:
        if isinstance(clause.decl, s.Component):
            for node in s.walk(clause.decl.children):
                if isinstance(node, s.Component) and node.key == name:
                    found.append(node)
    return found


def _citation_text(title: Title, citation: s.Citation) -> str:
    if citation.is_rulebook:
        section = next((s_ for s_ in title.sections if s_.citation.section_id == citation.section_id), None) \
            or _section(title, citation.section_id if citation.kind != "section" else citation.ref)
        heading = f" {section.heading}" if section is not None and citation.kind != "heading" else ""
        return f"- {citation}{heading}"
    return f"- {citation}"


def _clause_text(workspace: Workspace, title: Title, clause) -> str:
    decl = getattr(clause, "decl", clause)
    label = f"{getattr(clause, 'kind', getattr(decl, 'kind', ''))} {getattr(clause, 'name', getattr(decl, 'key', ''))}"
    if isinstance(decl, s.Routine):
        label = f"{decl.kind} {decl.name}(" + ", ".join(
            f"{p.name}: {p.type}" for p in decl.params) + ")"
    out = [f"```rulespec\n{label.strip()}\n```"]
    meaning = getattr(decl, "title", None)
    if meaning:
        out.append(meaning)
    prov = getattr(decl, "prov", s.NO_PROVENANCE)
    if prov.citations:
        out.append("\n".join(_citation_text(title, c) for c in prov.citations))
    origin = getattr(clause, "origin", None)
    if origin is not None:
        out.append(f"From {origin}" + (f", {clause.change}" if clause.change != "defined" else "")
                   + f" at `{decl.span}`")
    return "\n\n".join(out)


def _builtin_text(name: str) -> str | None:
    meaning = builtin_table().get(name)
    if meaning is None:
        return None
    if name in BUILTIN_VALUES:
        return f"```rulespec\n{name}\n```\n\nbuiltin value: {meaning}"
    return f"```rulespec\n{name}{_signature(name)}\n```\n\nbuiltin: {meaning}"


def _signature(name: str) -> str:
    """A builtin's parameters, as `GameBase.b_<name>` declares them."""
    from compiler.runtime.game import GameBase

    method = getattr(GameBase, f"b_{name}", None)
    if method is None:
        return "(…)"
    signature = inspect.signature(method)
    params = [p for p in signature.parameters.values() if p.name != "self"]
    return "(" + ", ".join(p.name for p in params) + ")"


# ---------------------------------------------------------------- definition and references


def definition(workspace: Workspace, path: str, line: int, column: int) -> list[Span]:
    """Where what is at (line, column) is defined."""
    word = word_at(workspace, path, line, column)
    title = _title_at(workspace, path, line)
    if word is None or title is None:
        return []
    chain = enclosing(workspace, path, line, column)
    overlaid = _overlaid(workspace, chain, title, line)
    if overlaid:
        return overlaid
    if word.role == "citation":
        section = _section(title, word.text)
        return [section.span] if section is not None else []
    schema = schema_of(title)
    if word.role == "key":
        param = _param(schema, _kind_around(chain), word.text)
        return [workspace.name_span(param.span, param.name)] if param is not None else []
    found: list[Span] = []
    routine = next((n for n in chain if isinstance(n, (s.Routine, s.Trigger))), None)
    if isinstance(routine, s.Routine):
        found += [p.span for p in routine.params if p.name == word.text]
    if routine is not None:
        for node in s.walk(routine.body):
            if isinstance(node, (s.Let, s.For)) and getattr(node, "name", getattr(node, "var", None)) == word.text:
                found.append(workspace.name_span(node.span, word.text))
    if found:
        return found
    for clause in _clauses_named(title, word.text):
        decl = getattr(clause, "decl", clause)
        found.append(workspace.name_span(decl.span, word.text))
    for clause in title.clauses:
        decl = clause.decl
        if isinstance(decl, s.Enum) and word.text in decl.values:
            found.append(workspace.name_span(decl.span, word.text))
        elif isinstance(decl, s.Param) and decl.type.values and word.text in decl.type.values:
            found.append(workspace.name_span(decl.span, word.text))
        elif isinstance(decl, s.KindDecl) and word.key is not None:
            param = decl.get(word.key)
            if param is not None and word.text in param.type.values:
                found.append(workspace.name_span(param.span, word.text))
    if word.key is not None and not found:
        param = _param(schema, _kind_around(chain), word.key)
        if param is not None and word.text in _allowed_names(schema, param.type):
            found.append(workspace.name_span(param.span, word.text))
    return list(dict.fromkeys(found))


def _overlaid(workspace: Workspace, chain: list[object], title: Title, line: int) -> list[Span]:
    """For the head of a `replace`, `amend` or `remove` (in an overlay, or in a title over its
    library or the title it extends): the clause it changes, as it was before."""
    unit = chain[0] if chain else None
    if not isinstance(unit, s.Unit):
        return []
    item = next((i for i in unit.items if isinstance(i, (s.Replace, s.Amend, s.Remove))
                 and i.span.line == line), None)
    if item is None:
        return []
    key = item.decl.clause_key if isinstance(item, s.Replace) else (item.kind, item.key)
    if isinstance(item, s.Remove):
        for removal in title.removals:
            if removal.clause.key == key:
                return [workspace.name_span(removal.clause.span, key[1])]
        return []
    clause = title.get(*key)
    while clause is not None and (clause.origin.kind, clause.origin.name) != (unit.kind, unit.name):
        clause = clause.previous  # a later unit changed it again: back to this unit's change
    if clause is None or clause.previous is None:
        return []
    return [workspace.name_span(clause.previous.span, key[1])]


def references(workspace: Workspace, path: str, line: int, column: int) -> list[Span]:
    """Every place in the workspace's rulespecs where the name at (line, column) is written: as a
    name in an expression, a property's name, a clause's name or a component's key."""
    word = word_at(workspace, path, line, column)
    if word is None or word.role == "citation":
        return []
    name = word.text
    found: list[Span] = []
    for shown, document in workspace.documents.items():
        if document.good is None or name not in document.text:
            continue
        for node in s.walk(document.good):
            if isinstance(node, s.Name) and node.name == name:
                found.append(node.span)
            elif isinstance(node, s.Member) and node.name == name:
                found.append(_member_span(workspace, node))
            elif isinstance(node, (s.Property, s.Param, s.Routine, s.Table, s.Enum, s.KindDecl, s.ParamDecl)) \
                    and node.name == name:
                found.append(workspace.name_span(node.span, name))
            elif isinstance(node, s.Component) and node.key == name:
                found.append(workspace.name_span(node.span, name))
            elif isinstance(node, (s.Amend, s.Remove)) and node.key == name:
                found.append(workspace.name_span(node.span, name))
            elif isinstance(node, s.Enum) and name in node.values:
                found.append(workspace.name_span(node.span, name))
            elif isinstance(node, s.Cite) and node.name == name:
                found.append(workspace.name_span(node.span, name))
            elif isinstance(node, s.Sanction) and name in (node.invariant, node.action):
                found.append(workspace.name_span(node.span, name))
    return sorted(set(found))


def _member_span(workspace: Workspace, node: s.Member) -> Span:
    span = node.span
    text = workspace.source(span)
    at = text.rfind(node.name)
    if at < 0 or span.line != span.end_line:
        return span
    return Span(span.path, span.line, span.column + at, span.line, span.column + at + len(node.name))


# ---------------------------------------------------------------- completion


def completion(workspace: Workspace, path: str, line: int, column: int) -> list[Completion]:
    """What may be written at (line, column)."""
    title = _title_at(workspace, path, line)
    if workspace.text(path) is None or title is None:
        return []
    before = workspace.line(path, line)[:column - 1]
    schema = schema_of(title)
    chain = enclosing(workspace, path, line, column)
    kind = _kind_around(chain)
    section = re.search(r"§[0-9A-Za-z.]*$", before)
    if section:
        typed = Span(path, line, section.start() + 1, line, column)
        return [Completion(f"§{s_.citation.ref.lstrip('§')}", "section", s_.heading, s_.note, typed)
                for s_ in title.sections if s_.citation.kind == "section"]
    partial = re.search(r"[A-Za-z0-9_]*$", before).group()
    typed = Span(path, line, column - len(partial), line, column)
    key = re.fullmatch(r"\s*(?:replace\s+)?([A-Za-z_]\w*)\s*:(?!:)(.*)", before)
    if key:
        param = _param(schema, kind, key.group(1))
        if param is None:
            return []
        return [Completion(name, "value", f"{key.group(1)}: {param.type}", param.title, typed)
                for name in _allowed_names(schema, param.type) if name.startswith(partial)]
    if re.fullmatch(r"\s*(?:replace\s+)?[A-Za-z_]*", before) and not _in_routine(chain):
        return _property_names(workspace, schema, chain, kind, partial, typed)
    return _expression_names(title, schema, partial, typed)


def _in_routine(chain: list[object]) -> bool:
    return any(isinstance(n, (s.Routine, s.Trigger, s.Invariant, s.Table)) for n in chain)


def _property_names(workspace, schema: Schema, chain, kind, partial, typed) -> list[Completion]:
    """The parameters a property here may set (the kind's inside a component, else the title's),
    less those the block sets already; at a unit's level, the kinds of component too."""
    owner = next((n for n in reversed(chain) if isinstance(n, (s.Component, s.Amend))), None)
    if owner is not None and schema.kind(kind) is not None:
        params = schema.kind(kind).params
        written = {p.name for p in owner.properties}
    else:
        params = schema.params
        unit = chain[0] if chain else None
        written = {i.name for i in getattr(unit, "items", ()) if isinstance(i, s.Property)}
    out = [Completion(name, "property", str(param.type), param.title, typed)
           for name, param in sorted(params.items()) if name.startswith(partial) and name not in written]
    if owner is None:
        out += [Completion(name, "kind", "a component", k.meaning, typed)
                for name, k in sorted(schema.kinds.items()) if name.startswith(partial)]
    return out


def _expression_names(title: Title, schema: Schema, partial, typed) -> list[Completion]:
    out: dict[str, Completion] = {}
    for clause in title.clauses:
        if clause.name.startswith(partial) and clause.kind not in ("sanction", "cite"):
            out.setdefault(clause.name, Completion(clause.name, "clause", clause.kind, clause.title, typed))
    for keys in schema.keys.values():
        for key in keys:
            if key.startswith(partial):
                out.setdefault(key, Completion(key, "clause", "a component", None, typed))
    for name, meaning in builtin_table().items():
        if name.startswith(partial):
            out.setdefault(name, Completion(name, "builtin", "builtin", meaning, typed))
    return sorted(out.values(), key=lambda c: c.label)


# ---------------------------------------------------------------- symbols


def symbols(workspace: Workspace, path: str) -> list[Symbol]:
    """The outline of a document: each unit, and in it its sections and clauses."""
    out = []
    for unit in workspace.units(path):
        children = [symbol for item in unit.items if (symbol := _item_symbol(workspace, item)) is not None]
        label = f'{unit.kind} "{unit.name}"' + (f' of "{unit.base}"' if unit.kind in ("variant", "errata") else "")
        out.append(Symbol(label, "unit", unit.span, unit.name_span if unit.name_span.line else unit.span,
                          None, tuple(children)))
    return out


def _item_symbol(workspace: Workspace, item) -> Symbol | None:
    if isinstance(item, s.Replace):
        inner = _item_symbol(workspace, item.decl)
        return dc_symbol(inner, item.span, "replace ") if inner else None
    if isinstance(item, s.Section):
        return Symbol(f"{item.citation} {item.heading}", "section", item.span, item.span)
    if isinstance(item, s.Component):
        name = item.key or item.kind
        children = tuple(symbol for child in item.children
                         if (symbol := _item_symbol(workspace, child)) is not None)
        key = item.key if item.key is None or re.fullmatch(r"[A-Za-z_]\w*", item.key) else f'"{item.key}"'
        return Symbol(f"{item.kind} {key or ''}".strip(), "component", item.span,
                      workspace.name_span(item.span, name), item.title, children)
    if isinstance(item, (s.Amend, s.Remove)):
        verb = "amend" if isinstance(item, s.Amend) else "remove"
        return Symbol(f"{verb} {item.kind} {item.key}", "overlay", item.span, workspace.name_span(item.span, item.key))
    name = getattr(item, "name", None)
    if name is None or isinstance(item, (s.Uses, s.Rulebook)):
        return None
    kinds = {s.Routine: None, s.Trigger: "trigger", s.Table: "table", s.Param: "param", s.Enum: "enum",
             s.KindDecl: "kind", s.Invariant: "invariant", s.Sanction: "sanction", s.Property: "property",
             s.Cite: "cite"}
    kind = item.kind if isinstance(item, s.Routine) else kinds.get(type(item), "clause")
    return Symbol(name if not isinstance(item, s.Sanction) else f"{item.invariant} for {item.action}", kind,
                  item.span, workspace.name_span(item.span, name), getattr(item, "title", None))


def dc_symbol(symbol: Symbol, span: Span, prefix: str) -> Symbol:
    return Symbol(prefix + symbol.name, symbol.kind, span, symbol.selection, symbol.detail, symbol.children)
