"""The emitter's small pieces, shared by `emitter.py` and `probes.py`: a DSL name as an identifier,
a literal, an expression's DSL text (`unparse`), a probe's answering lines, where a clause is written
and what it cites."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from compiler.lang import syntax as s
from compiler.lang.ir import Clause

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class EmitError(Exception):
    """A clause the emitter cannot compile (with its span)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


def _ident(name: str, prefix: str = "v_") -> str:
    """A DSL name as a Python identifier: checked, and prefixed so it can
    never clash with a keyword, a builtin or the runtime's names."""
    if not _IDENT.match(name):
        raise EmitError(f"not a name: {name!r}")
    return prefix + name


def probe_prefix(arity: int, bounded: bool) -> str:
    """The prefix of an action's listing probe of `arity` parameters: `q_`, `q2_`, `q3_`, ...; with
    `bounded`, `qb_`, `qb2_`, ... (`Compiler.probe`)."""
    return ("qb" if bounded else "q") + (str(arity) if arity > 1 else "") + "_"


def literal(expr) -> str | None:
    """Python source for a scalar literal (ints for money and percent), or None."""
    if isinstance(expr, (s.Int, s.Percent, s.Str, s.Bool)):
        return repr(expr.value)
    if isinstance(expr, s.Money):
        return repr(expr.amount)
    if isinstance(expr, s.NoneLit):
        return "None"
    return None


def unparse(expr) -> str:
    """DSL text for an expression (for messages and docs)."""
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, s.Int):
        return str(expr.value)
    if isinstance(expr, s.Money):
        return f"{expr.currency}{expr.amount}"
    if isinstance(expr, s.Percent):
        return f"{expr.value}%"
    if isinstance(expr, s.Str):
        return '"' + expr.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(expr, s.Bool):
        return "true" if expr.value else "false"
    if isinstance(expr, s.NoneLit):
        return "none"
    if isinstance(expr, s.ListLit):
        return "[" + ", ".join(unparse(e) for e in expr.items) + "]"
    if isinstance(expr, s.SetLit):
        return "{" + ", ".join(unparse(e) for e in expr.items) + "}"
    if isinstance(expr, s.MapLit):
        return "{" + ", ".join(f"{unparse(k)} => {unparse(v)}" for k, v in expr.entries) + "}"
    if isinstance(expr, s.Record):
        return "(" + ", ".join(f"{k}: {unparse(v)}" for k, v in expr.fields) + ")"
    if isinstance(expr, s.Range):
        return f"{unparse(expr.low)}..{unparse(expr.high)}"
    if isinstance(expr, s.Unary):
        return f"not {unparse(expr.operand)}" if expr.op == "not" else f"-{unparse(expr.operand)}"
    if isinstance(expr, s.Binary):
        return f"{_paren(expr.left)} {expr.op} {_paren(expr.right)}"
    if isinstance(expr, s.Cond):
        return f"{_paren(expr.test)} ? {unparse(expr.then)} : {unparse(expr.otherwise)}"
    if isinstance(expr, s.Member):
        return f"{unparse(expr.obj)}.{expr.name}"
    if isinstance(expr, s.Call):
        args = [unparse(a) for a in expr.args] + [f"{k}={unparse(v)}" for k, v in expr.kwargs]
        return f"{unparse(expr.func)}({', '.join(args)})"
    if isinstance(expr, s.Index):
        return f"{unparse(expr.obj)}[{unparse(expr.index)}]"
    if isinstance(expr, s.Quantifier):
        return f"{expr.kind}({expr.var} in {unparse(expr.domain)}: {unparse(expr.body)})"
    if isinstance(expr, s.Gap):
        return f'gap "{expr.reason}"'
    if isinstance(expr, s.MatchExpr):
        arms = [f"{', '.join(values)} => {unparse(value)}" for values, value in expr.cases]
        arms += [f"else => {unparse(expr.orelse)}"] if expr.orelse is not None else []
        return f"match {unparse(expr.subject)} {{ {'  '.join(arms)} }}"
    return "?"


def _paren(expr) -> str:
    text = unparse(expr)
    return f"({text})" if isinstance(expr, (s.Binary, s.Cond)) else text


@dataclass
class _Scope:
    locals: set[str]
    routines: dict[str, Clause]


def _answering(lines: list[str]) -> list[str]:
    """A probe's lines with each refusal of its guards returned, not raised: `raise IllegalAction(message,
    ...)` becomes `return message`. The listing asks a dozen probes in every listing whether a guard refuses
    (`GameBase._probe_refuses`: the message, or None where none does), not why, and raising a refusal
    costs it more than most guards; a refusal the runtime raises inside a guard is caught there as ever."""
    out = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("raise IllegalAction("):
            call = ast.parse(stripped[len("raise "):], mode="eval").body
            out.append(f"{line[:len(line) - len(stripped)]}return {ast.unparse(call.args[0])}")  # type: ignore[attr-defined]
        else:
            out.append(line)
    return out


def _collection(t) -> bool:
    """Whether a parameter's type is a list, set or map (or one of its alternatives is): a value no
    listing keys a group of candidates by."""
    return t.is_list or t.is_set or t.key is not None or any(
        isinstance(a, s.TypeRef) and _collection(a) for a in t.alternatives)


def _at(span) -> str | None:
    """Where a clause is written, as a message names it: "rulespecs/1846.rules:120"."""
    if span is None or not span.path or span.path.startswith("<") or span.line <= 0:
        return None
    return f"{span.path}:{span.line}"


def _cite(prov: s.Provenance) -> str | None:
    if not prov.citations:
        return None
    return ", ".join(str(c) for c in prov.citations if c.is_rulebook) or str(prov.citations[0])
