"""Seeded single edits of a title's rulespec, and whether `rulec check` catches each.

The four kinds of edit are the mistakes an author makes while transcribing:

- `rename`: a property's name (of the title, a component or a record) changed by
  one letter into a name its owner does not declare;
- `retype`: a one-line value replaced by a literal of a type the property's
  declared type does not name (7777, $13, 13%, "mutant", true, [7777]);
- `reference`: a name or string in a value that names a component (a corporation,
  a train, a hex, ...) changed by one letter into a key no component of that
  kind has;
- `delete`: a property the schema requires (always) blanked out.

The candidates are read from the parsed file and its title's schema; the edit is
made to the text, and the edited text is what is checked. An edit keeps every
line where it was (a deleted property leaves blank lines), so the check may parse
only the top-level item that holds the edit, spliced into the file's parsed
module, and resolve and check the titles built from the file in memory
(`Mutant.diagnostics`). `test_mutation.py` also checks a sample of mutants by
parsing the whole edited file, and gets the same diagnostics.

A mutant is caught when an error lies on the edited line (for a deletion: an
error whose span holds the blanked line, the component's or the title's). One
that checks clean is a no-op when every engine built from the file emits the same
source as before.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field

from compiler.lang import syntax as s
from compiler.emit.emitter import render_module
from compiler.lang.ir import Title
from compiler.lang.parse import parse_unsaved
from compiler.lang.pipeline import Loaded, _finish
from compiler.lang.schema import SCALARS, Schema, schema_of
from compiler.lang.typecheck import _fits, atoms

#: literals an edit may put in place of a value, with the types that take each
REPLACEMENTS: tuple[tuple[str, frozenset[str]], ...] = (
    ("7777", frozenset({"int"})),
    ("$13", frozenset({"money"})),
    ("13%", frozenset({"percent"})),
    ('"mutant"', frozenset({"string"})),
    ("true", frozenset({"bool"})),
    ("[7777]", frozenset({"list"})),
)


@dataclass(frozen=True)
class Mutant:
    kind: str  # rename | retype | reference | delete
    line: int  # the edited line (1-based)
    end_line: int  # the last edited line (a deleted property may span several)
    text: str  # the whole edited file
    what: str  # the edit, for a message
    shift: int = 0  # how many characters longer the edited line is


@dataclass
class Outcome:
    mutant: Mutant
    caught: bool
    noop: bool
    errors: list = field(default_factory=list)


def type_names(typ: s.TypeRef) -> set[str]:
    """Every name a declared type mentions (`list` and `map` for their forms)."""
    out: set[str] = set()
    if typ.values:
        out.add("enum")
    if typ.is_list:
        out.add("list")
    if typ.key is not None:
        out.add("map")
        out |= type_names(typ.key)
    for alt in typ.alternatives:
        if isinstance(alt, s.TypeRef):
            out |= type_names(alt)
        else:
            out.add(alt)
    return out


def one_letter(name: str, rng: random.Random, taken: set[str]) -> str | None:
    """`name` with one letter changed (or added, for a one-character name), not in `taken`."""
    letters = "abcdefghijklmnopqrstuvwxyz" if name.islower() or not name.isalnum() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for _ in range(40):
        i = rng.randrange(len(name))
        if len(name) > 1 and not name[i].isalnum():
            continue
        pool = "0123456789" if name[i].isdigit() else letters
        new = name[:i] + rng.choice(pool) + name[i + 1:] if len(name) > 1 else name + rng.choice(letters.lower())
        if new != name and new not in taken and re.match(r"^[A-Za-z_0-9][A-Za-z0-9_+&]*$", new):
            if new[0].isdigit() and not name[0].isdigit():
                continue
            return new
    return None


class Mutator:
    """The candidate edits of one rulespec file, from its parsed text and its title's schema."""

    def __init__(self, path: str, text: str, loaded: Loaded, title: Title):
        self.path = path
        self.text = text
        self.lines = text.split("\n")
        self.loaded = loaded
        self.schema: Schema = schema_of(title)
        self.module = next(m for m in loaded.modules if m.path == path)
        self.candidates: dict[str, list] = {"rename": [], "retype": [], "reference": [], "delete": []}
        for unit in self.module.units:
            for item in unit.items:
                decl = item.decl if isinstance(item, s.Replace) else item
                if isinstance(decl, s.Property):
                    self._property(decl, self.schema.params)
                elif isinstance(decl, s.Component):
                    self._component(decl)
                elif isinstance(decl, s.Amend):
                    kind = self.schema.kinds.get(decl.kind)
                    for prop in decl.properties:
                        self._property(prop, kind.params if kind else {})

    # -- candidates
    def _component(self, comp: s.Component) -> None:
        kind = self.schema.kinds.get(comp.kind)
        if kind is None:
            return
        for prop in comp.properties:
            self._property(prop, kind.params)
            param = kind.params.get(prop.name)
            if param is not None and param.required and param.required_when is None:
                self.candidates["delete"].append(prop)
        for child in comp.children:
            self._component(child)

    def _property(self, prop: s.Property, params: dict[str, s.Param]) -> None:
        param = params.get(prop.name)
        if param is None:
            return
        self.candidates["rename"].append((prop, set(params)))
        value = prop.value
        if value.span.line == value.span.end_line and value.span.line > 0:
            self.candidates["retype"].append((prop, param))
        self._walk(value, atoms(param.type, self.schema))
        if params is self.schema.params and param.required and param.required_when is None:
            self.candidates["delete"].append(prop)

    def _walk(self, expr, alts) -> None:
        """Record fields and references inside a value, by the declared type at each place."""
        for atom in alts:
            if not _fits(expr, atom):
                continue
            if atom.form in ("kind", "ref") and not isinstance(expr, (s.Record, s.Call)):
                key = expr.name if isinstance(expr, s.Name) else expr.value if isinstance(expr, s.Str) else None
                if key is not None and key in self.schema.keys.get(atom.name, ()) and expr.span.line == expr.span.end_line:
                    self.candidates["reference"].append((expr, key, atom.name))
            elif atom.form == "kind" and isinstance(expr, s.Record):
                shape = self.schema.kinds[atom.name]
                for i, (name, value) in enumerate(expr.fields):
                    param = shape.params.get(name)
                    if param is None:
                        continue
                    if i < len(expr.name_spans):
                        self.candidates["rename"].append((("field", name, expr.name_spans[i]), set(shape.params)))
                    self._walk(value, atoms(param.type, self.schema))
            elif atom.form == "list":
                for item in expr.items:
                    self._walk(item, atom.elems)
            elif atom.form == "map":
                for key, value in expr.entries:
                    self._walk(key, atom.keys)
                    self._walk(value, atom.elems)
            return

    # -- edits
    def _edit(self, line: int, col: int, end_line: int, end_col: int, new: str) -> str:
        """The text with [line:col, end_line:end_col) replaced (one line only)."""
        assert line == end_line
        lines = list(self.lines)
        row = lines[line - 1]
        lines[line - 1] = row[:col - 1] + new + row[end_col - 1:]
        return "\n".join(lines), len(new) - (end_col - col)

    def rename(self, rng: random.Random) -> Mutant | None:
        target, taken = rng.choice(self.candidates["rename"])
        if isinstance(target, tuple):
            _, name, span = target
        else:
            name, span = target.name, target.span
        new = one_letter(name, rng, taken)
        if new is None:
            return None
        text, shift = self._edit(span.line, span.column, span.line, span.column + len(name), new)
        return Mutant("rename", span.line, span.line, text, f"{name} -> {new}", shift)

    def retype(self, rng: random.Random) -> Mutant | None:
        prop, param = rng.choice(self.candidates["retype"])
        names = type_names(param.type)
        pool = [lit for lit, takers in REPLACEMENTS if not (takers & names)]
        if not pool:
            return None
        new = rng.choice(pool)
        span = prop.value.span
        text, shift = self._edit(span.line, span.column, span.end_line, span.end_column, new)
        return Mutant("retype", span.line, span.line, text, f"{prop.name}: {new}", shift)

    def reference(self, rng: random.Random) -> Mutant | None:
        if not self.candidates["reference"]:
            return None
        node, key, kind = rng.choice(self.candidates["reference"])
        every = set().union(*self.schema.keys.values())
        new = one_letter(key, rng, every)
        if new is None:
            return None
        span = node.span
        written = new if isinstance(node, s.Name) else f'"{new}"'
        text, shift = self._edit(span.line, span.column, span.end_line, span.end_column, written)
        return Mutant("reference", span.line, span.line, text, f"{kind} {key} -> {new}", shift)

    def delete(self, rng: random.Random) -> Mutant | None:
        if not self.candidates["delete"]:
            return None
        prop = rng.choice(self.candidates["delete"])
        span = prop.span
        lines = list(self.lines)
        before = lines[span.line - 1][:span.column - 1]
        after = lines[span.end_line - 1][span.end_column - 1:]
        if before.strip() or (after.strip() and not after.strip().startswith("//")):
            return None  # not alone on its lines
        for i in range(span.line - 1, span.end_line):
            lines[i] = ""
        return Mutant("delete", span.line, span.end_line, "\n".join(lines), f"delete {prop.name}")

    def mutants(self, seed: int, count: int) -> list[Mutant]:
        """`count` distinct seeded mutants, the four kinds in turn (a kind with no candidate is skipped)."""
        rng = random.Random(seed)
        makers = [m for m, kind in ((self.rename, "rename"), (self.retype, "retype"),
                                    (self.reference, "reference"), (self.delete, "delete"))
                  if self.candidates[kind]]
        out: list[Mutant] = []
        seen: set[str] = set()
        tries = 0
        while len(out) < count and tries < count * 20:
            tries += 1
            mutant = makers[tries % len(makers)](rng)
            if mutant is None or mutant.text in seen or mutant.text == self.text:
                continue
            seen.add(mutant.text)
            out.append(mutant)
        return out


class Checker:
    """Checks mutants of one file: parse the edited item, resolve and check in memory.

    The title the file holds is checked first, alone (the files it is built from);
    only a mutant it does not catch is checked with every title and variant built
    from the file, and their engines compared with the original's."""

    def __init__(self, loaded: Loaded, path: str):
        self.loaded = loaded
        self.path = path
        self.module = next(m for m in loaded.modules if m.path == path)
        every = loaded.every_title()
        self.affected = [t.display_name for t in every if path in t.source_paths()]
        first = next(t for t in every if t.path == path and t.variant is None)
        self.first = first.display_name
        needed = {p for t in every if t.display_name in self.affected for p in t.source_paths()}
        self.others = [m for m in loaded.modules if m.path != path and m.path in needed]
        self.first_others = [m for m in loaded.modules if m.path != path and m.path in first.source_paths()]
        self._every = every

    @functools.cached_property
    def original(self) -> dict[str, str]:
        """The engine source of each title built from the file, unedited: emitted when a mutant
        first checks clean (to tell a no-op), not for a file whose mutants are all caught."""
        return {t.display_name: render_module(t) for t in self._every if t.display_name in self.affected}

    def _spliced(self, mutant: Mutant) -> s.Module | None:
        """The parsed module of the edited text, parsing only the item that holds the edit.
        A mutant's text is new each time: it is parsed with `parse_unsaved`, which keeps it in no cache."""
        for u, unit in enumerate(self.module.units):
            for i, item in enumerate(unit.items):
                span = item.span
                if not (span.line <= mutant.line and mutant.end_line <= span.end_line):
                    continue
                items = list(unit.items)
                units = list(self.module.units)
                if mutant.kind == "delete" and (span.line, span.end_line) == (mutant.line, mutant.end_line):
                    del items[i]  # the item was the deleted property
                    units[u] = s.Unit(unit.kind, unit.name, unit.base, unit.prov, tuple(items), unit.path,
                                      unit.span, unit.name_span, unit.base_span)
                    return s.Module(self.module.path, tuple(units))
                lines = mutant.text.split("\n")
                body = lines[span.line - 1:span.end_line]
                body[0] = " " * (span.column - 1) + body[0][span.column - 1:]
                end = span.end_column - 1 + (mutant.shift if mutant.line == span.end_line else 0)
                body[-1] = body[-1][:end]
                head = 'title "mutant" {' if unit.kind == "title" else 'library "mutant" {'
                if span.line < 2:
                    return None
                synthetic = "\n".join([head] + [""] * (span.line - 2) + body + ["}"])
                module, found = parse_unsaved(synthetic, self.path)
                if found or module is None or len(module.units[0].items) != 1:
                    return None
                items[i] = module.units[0].items[0]
                units[u] = s.Unit(unit.kind, unit.name, unit.base, unit.prov, tuple(items), unit.path,
                                  unit.span, unit.name_span, unit.base_span)
                return s.Module(self.module.path, tuple(units))
        return None

    def diagnostics(self, mutant: Mutant, whole: bool = False, everything: bool = True) -> tuple[list, dict[str, Title]]:
        """What `rulec check` reports on the edited file (the errors), and the titles built from it.
        `whole`: parse the whole edited file; `everything`: every title built from the file
        (else the file's own title only)."""
        from compiler.lang.check import check_title

        module = None if whole else self._spliced(mutant)
        found = []
        if module is None:
            module, found = parse_unsaved(mutant.text, self.path)
            if module is None:
                return found, {}
        others = self.others if everything else self.first_others
        loaded = _finish(others + [module], list(found), self.loaded.sources, [], check=False)
        names = self.affected if everything else [self.first]
        titles = {t.display_name: t for t in loaded.every_title() if t.display_name in names}
        errors = [d for d in loaded.diagnostics if d.is_error]
        for title in titles.values():
            errors.extend(d for d in check_title(title) if d.is_error)
        return errors, titles

    def caught(self, mutant: Mutant, errors: list) -> list:
        """The errors on the edited line (for a deletion: whose span holds the blanked lines)."""
        mine = [d for d in errors if d.span is not None and d.span.path == self.path]
        if mutant.kind == "delete":
            return [d for d in mine if d.span.line <= mutant.line and mutant.end_line <= d.span.end_line]
        return [d for d in mine if d.span.line == mutant.line]

    def outcome(self, mutant: Mutant) -> Outcome:
        errors, _ = self.diagnostics(mutant, everything=False)
        if self.caught(mutant, errors):
            return Outcome(mutant, True, False, self.caught(mutant, errors))
        errors, titles = self.diagnostics(mutant)
        if self.caught(mutant, errors):
            return Outcome(mutant, True, False, self.caught(mutant, errors))
        if errors:
            return Outcome(mutant, False, False, errors)
        same = set(titles) == set(self.original) and all(
            render_module(t) == self.original[name] for name, t in titles.items())
        return Outcome(mutant, False, same, errors)


__all__ = ["Mutator", "Checker", "Mutant", "Outcome", "REPLACEMENTS", "SCALARS"]
