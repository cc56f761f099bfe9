"""The site's reference pages: the diagnostic codes, the builtins, and the DSL guide
(`reference/`).

`ReferencePages` is mixed into `pages.Writer`, whose `site` and `link` its methods use.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from compiler import paths
from compiler.lang import syntax as s
from compiler.lang.builtins import BUILTINS, VALUES
from compiler.diagnostics import CODES, EXAMPLES
from compiler.docs.model import (
    Place,
    anchor_for,
)
from compiler.docs.render import (
    code,
    esc,
    table,
)


class ReferencePages:
    """The reference pages of `pages.Writer`."""

    def diagnostics_page(self) -> str:
        counts = Counter(d.code for d in self.site.loaded.diagnostics)
        out = ["# Diagnostic codes {#diagnostic-codes}\n",
               "Every problem `rulec check` reports has a code: `E…` an error (exit 1), `W…` a warning or "
               "a note. Each is printed as `file:line:col: severity[CODE]: message`, with the source line, "
               "a caret, notes and help. The count is how many the current rulespecs give.\n"]
        groups = (("Syntax", "E00"), ("Resolution", "E01"), ("Checks", "E02"), ("Warnings and notes", "W"),
                  ("The tool", "E09"))
        for heading, prefix in groups:
            out.append(f"## {heading} {{#{heading.lower().replace(' ', '-')}}}\n")
            for code_ in sorted(c for c in CODES if c.startswith(prefix)):
                severity = "error" if code_.startswith("E") else "warning"
                if code_ in ("W002", "W003", "W004"):
                    severity = "note"
                out.append(f"### {code_} {{#{code_.lower()}}}\n\n*{severity}* · {counts.get(code_, 0)} now\n\n"
                           f"{esc(CODES[code_])}\n")
                if code_ in EXAMPLES:
                    out.append(self._diagnostic_example(code_))
        return "\n".join(out)

    @staticmethod
    def _diagnostic_example(code_: str) -> str:
        """A code's small wrong rulespec and what `rulec check` says of it, checked now."""
        from compiler.diagnostics import render
        from compiler.lang.pipeline import load_texts

        text = EXAMPLES[code_]
        loaded = load_texts({"example.rules": text})
        said = "\n\n".join(render(d, loaded.sources) for d in loaded.diagnostics if d.code == code_)
        return (f"A wrong rulespec:\n\n```\n{text.rstrip()}\n```\n\n"
                f"`rulec check` says:\n\n```\n{said}\n```\n")

    def builtins_page(self) -> str:
        page = "reference/builtins.md"
        used = self._builtin_uses()
        out = ["# Builtins {#builtins}\n",
               "The names a rulespec may use without defining them: the runtime's holders and the "
               "functions of `compiler.runtime.GameBase` (`b_<name>`). `rulec check` knows exactly these "
               "([E015](diagnostics.md#e015) for any other unknown name).\n"]
        for heading, names in (("Holders", sorted(VALUES)), ("Functions", sorted(n for n in BUILTINS if n not in VALUES))):
            out.append(f"## {heading} {{#{heading.lower()}}}\n")
            rows = []
            for name in names:
                uses = used.get(name, [])
                shown = ", ".join(self.link(page, place, code(label)) for label, place in uses[:6])
                if len(uses) > 6:
                    shown += f", … ({len(uses)} in all)"
                rows.append([f'<span id="builtin-{anchor_for(name, "")}"></span>{code(name)}',
                             esc(BUILTINS[name]), shown])
            out.append(table(["name", "meaning", "used in"], rows))
        return "\n".join(out)

    def _builtin_uses(self) -> dict[str, list[tuple[str, Place]]]:
        out: dict[str, dict[tuple, tuple[str, Place]]] = defaultdict(dict)
        for book in self.site.title_books():
            routines = {c.name for c in book.title.clauses if c.kind in ("procedure", "function")}
            for key, entry in book.entries.items():
                clause = entry.clause
                if clause.kind not in ("action", "procedure", "function", "trigger", "invariant"):
                    continue
                origin = (clause.origin.kind, clause.origin.name, key)
                place = self.site.origin_place(clause, book) if clause.origin.kind != "title" else self.site.place(book, key)
                if place is None:
                    continue
                for name in _called_names(clause.decl):
                    if name in BUILTINS and name not in routines:
                        out[name].setdefault(origin, (f"{clause.kind} {clause.name}", place))
                for name in _read_names(clause.decl):
                    if name in VALUES:
                        out[name].setdefault(origin, (f"{clause.kind} {clause.name}", place))
        return {k: [v[o] for o in sorted(v, key=lambda o: (o[0] != "library", o[1], o[2]))] for k, v in out.items()}

    def dsl_page(self) -> str:
        text = (paths.ROOT / "grammar" / "README.md").read_text(encoding="utf-8")
        out, in_fence = [], False
        for line in text.splitlines():
            if line.startswith("```"):
                if not in_fence and line.strip() == "```":
                    line = "```rulespec"
                in_fence = not in_fence
            out.append(line)
        body = "\n".join(out)
        if body.startswith("# "):
            first, _, rest = body.partition("\n")
            body = f"{first} {{#the-rulespec-dsl}}\n\n*This page is `grammar/README.md`, the author's guide.*\n{rest}"
        return body + "\n"


def _called_names(decl) -> set[str]:
    return {n.func.name for n in s.walk(decl) if isinstance(n, s.Call) and isinstance(n.func, s.Name)}


def _read_names(decl) -> set[str]:
    return {n.name for n in s.walk(decl) if isinstance(n, s.Name)}
