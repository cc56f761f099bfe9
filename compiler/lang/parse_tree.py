"""Stage 1, parse, its Lark half: rulespec text -> `syntax.Module`, or diagnostics
(`compiler.lang.parse` is the stage's entry point and keeps what is built here).

The grammar is `grammar/rulespec.lark`, built LALR with `strict=True` (no
conflicts, no terminal collisions) and `propagate_positions=True` so every
node has its span. A syntax error becomes a `Diagnostic` (E001 unexpected
token, E002 unexpected character, E003 unexpected end of file) with the line,
a caret and what was expected; no exception escapes `parse_text`.
"""

from __future__ import annotations

import functools

import lark
from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from compiler.lang import syntax as s
from compiler.diagnostics import Diagnostic, Span, error
from compiler.paths import GRAMMAR, cache_dir

#: How terminals are named in "expected ..." lists.
TERMINAL_LABELS: dict[str, str] = {
    "NAME": "a name",
    "PROP_KEY": "a property (name:)",
    "INT": "a number",
    "MONEY": "money ($20)",
    "PERCENT": "a percentage (10%)",
    "STRING": 'a string ("...")',
    "SECTION_REF": "a section (§8.1)",
    "ROMAN_REF": "a section (VII.3.8)",
    "QUANTIFIER": "all/any/sum/count/filter/greatest/least(...)",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*' or '/'",
    "$END": "the end of the file",
}

#: Friendly messages for common mistakes, matched with Lark's match_examples.
#: Each example is a short erroneous input; the parser state it fails in names
#: the mistake.
ERROR_EXAMPLES: dict[str, list[str]] = {
    "a property needs ':' between its name and its value": [
        'title "x" { cost $20 }',
        'title "x" { cost 10% }',
        'title "x" { cost "s" }',
        'title "x" { c { cost $20 } }',
        'title "x" { c k { cost $20 } }',
        'title "x" { c k "t" { cost $20 } }',
        'title "x" { c k "t" §1 { cost $20 } }',
        'title "x" { c k §1 { cost $20 } }',
        'title "x" { c k { d k { cost $20 } } }',
        'title "x" { c k "t" { d k { cost $20 } } }',
        'title "x" { c k "t" §1 { d k { cost $20 } } }',
        'title "x" { c k "t" §1 { d k "t" { cost $20 } } }',
        'title "x" { c k "t" §1 { d k "t" §1 { cost $20 } } }',
    ],
    "a property needs a value after ':'": [
        'title "x" { cost: }',
        'title "x" { c k { cost: } }',
    ],
    "a clause is missing its closing '}'": [
        'title "x" { c k { cost: 1 }',
        'title "x" {',
    ],
    "a unit must start with library, title, variant or errata": [
        "x",
        "cost: 1",
        '"x"',
    ],
    "a unit needs a quoted name: title \"1800\"": [
        "title x",
        "title {",
        "library x",
    ],
    "a variant names the title it overlays: variant \"V\" of \"1800\"": [
        'variant "x" {',
        'errata "x" {',
    ],
    "an action needs a parameter list in parentheses": [
        'title "x" { action a { } }',
        'title "x" { procedure a { } }',
    ],
    "a parameter needs a type: (P: player)": [
        'title "x" { action a(P) { } }',
        'title "x" { action a(P, C: c) { } }',
    ],
    "a statement must start with require, transfer, move, set, let, if, for, do, emit or fail": [
        'title "x" { action a() { x } }',
        'title "x" { action a() { 1 } }',
        'title "x" { action a() { require x y } }',
    ],
    "transfer and move need 'from' and 'to'": [
        'title "x" { action a() { transfer 1 to b } }',
        'title "x" { action a() { move a b } }',
        'title "x" { action a() { transfer 1 from a b } }',
    ],
    "an expression is incomplete": [
        'title "x" { a: 1 + }',
        'title "x" { a: (1 }',
        'title "x" { a: [1, }',
    ],
}


@functools.cache
def parser() -> lark.Lark:
    """The LALR parser, built once per process (strict: raises on conflicts). Lark keeps its
    tables in the parse cache's folder (`grammar.lark.pickle`, stored with a digest of the
    grammar and the options, and rebuilt when they change): the build takes 0.3 s, the load
    a tenth of it."""
    folder = cache_dir("parse")
    return lark.Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=False,
        cache=str(folder / "grammar.lark.pickle") if folder is not None else False,
    )


def _span_of_meta(path: str, meta) -> Span:
    if getattr(meta, "empty", True):
        return Span(path, 0, 0, 0, 0)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _span_of_token(path: str, token: Token) -> Span:
    return Span(
        path,
        token.line or 0,
        token.column or 0,
        token.end_line or token.line or 0,
        token.end_column or (token.column or 0) + len(token),
    )


def _unquote(token: str) -> str:
    body = token[1:-1]
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _key(token: Token) -> str:
    """'cost:' or 'cost :' -> 'cost'."""
    return str(token)[:-1].rstrip()


@v_args(meta=True)
class _Builder(Transformer):
    """Lark tree -> syntax nodes. Optional parts are told apart by their type."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        #: what the text says wrongly that the grammar cannot tell (an enum's value given twice)
        self.findings: list[Diagnostic] = []

    # -- helpers
    def _sp(self, meta) -> Span:
        return _span_of_meta(self.path, meta)

    def _tok(self, token: Token) -> Span:
        return _span_of_token(self.path, token)

    @staticmethod
    def _pick(children, kind):
        for child in children:
            if isinstance(child, kind):
                return child
        return None

    @staticmethod
    def _strings(children) -> list[str]:
        return [_unquote(c) for c in children if isinstance(c, Token) and c.type == "STRING"]

    def _prov(self, children) -> s.Provenance:
        return self._pick(children, s.Provenance) or s.NO_PROVENANCE

    # -- units
    def start(self, meta, children):
        return list(children)

    def _unit(self, kind, meta, children):
        strings = [c for c in children if isinstance(c, Token) and c.type == "STRING"]
        name_tok = strings[0]
        base_tok = None
        if kind in ("variant", "errata"):
            base_tok = strings[1]
        ext = self._pick(children, _Extends)
        if ext is not None:
            base_tok = ext.token
        items = tuple(
            c
            for c in children
            if not isinstance(c, (Token, s.Provenance, _Extends)) and c is not None
        )
        return s.Unit(
            kind=kind,
            name=_unquote(name_tok),
            base=_unquote(base_tok) if base_tok is not None else None,
            prov=self._prov(children),
            items=items,
            path=self.path,
            span=self._sp(meta),
            name_span=self._tok(name_tok),
            base_span=self._tok(base_tok) if base_tok is not None else self._sp(meta),
        )

    def library(self, meta, children):
        return self._unit("library", meta, children)

    def title(self, meta, children):
        return self._unit("title", meta, children)

    def variant(self, meta, children):
        return self._unit("variant", meta, children)

    def errata(self, meta, children):
        return self._unit("errata", meta, children)

    def extends(self, meta, children):
        return _Extends(children[0])

    # -- items
    def uses(self, meta, children):
        return s.Uses(self._strings(children)[0], self._prov(children), self._sp(meta))

    def cite(self, meta, children):
        return s.Cite(str(children[0]), str(children[1]), self._prov(children), self._sp(meta))

    def rulebook(self, meta, children):
        return s.Rulebook(self._strings(children)[0], self._sp(meta))

    def section(self, meta, children):
        citation = self._pick(children, s.Citation)
        note = self._pick(children, _Note)
        return s.Section(
            citation, self._strings(children)[0], note.text if note else None, self._sp(meta)
        )

    def section_note(self, meta, children):
        return _Note(_unquote(children[0]))

    def replace(self, meta, children):
        return s.Replace(children[0], self._sp(meta))

    def amend(self, meta, children):
        kind = str(children[0])
        key = children[1]
        props = tuple(c for c in children if isinstance(c, s.Property))
        self._named_once(props, f"amend {kind} `{key.value}`", "property")
        comps = tuple(c for c in children if isinstance(c, s.Component))
        return s.Amend(kind, key.value, self._prov(children), props, comps, self._sp(meta))

    def remove(self, meta, children):
        return s.Remove(str(children[0]), children[1].value, self._prov(children), self._sp(meta))

    def property(self, meta, children):
        return s.Property(_key(children[0]), children[1], self._prov(children), self._sp(meta))

    def gap(self, meta, children):
        return s.Gap(_unquote(children[0]), self._sp(meta))

    def key(self, meta, children):
        token = children[0]
        value = _unquote(token) if token.type == "STRING" else str(token)
        return _Key(value)

    def component(self, meta, children):
        kind = str(children[0])
        key = self._pick(children, _Key)
        strings = self._strings(children)
        props = tuple(c for c in children if isinstance(c, s.Property))
        self._named_once(props, f"{kind} `{key.value}`" if key else kind, "property")
        comps = tuple(c for c in children if isinstance(c, s.Component))
        return s.Component(
            kind=kind,
            key=key.value if key else None,
            title=strings[0] if strings else None,
            prov=self._prov(children),
            properties=props,
            children=comps,
            span=self._sp(meta),
        )

    def table(self, meta, children):
        names = [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]
        strings = self._strings(children)
        rows = tuple(c for c in children if isinstance(c, s.TableRow))
        return s.Table(
            names[0], tuple(names[1:]), strings[0] if strings else None,
            self._prov(children), rows, self._sp(meta),
        )

    def table_row(self, meta, children):
        keys = []
        value = None
        for child in children:
            if isinstance(child, Token):
                if child.type == "INT":
                    keys.append(int(child))
                elif child.type == "STRING":
                    keys.append(_unquote(child))
                elif child.type == "NAME":
                    keys.append(str(child))
            elif isinstance(child, _RangeKey):
                keys.append((child.low, child.high))
            elif isinstance(child, s.Provenance):
                continue
            else:
                value = child
        return s.TableRow(tuple(keys), value, self._prov(children), self._sp(meta))

    def range_key(self, meta, children):
        return _RangeKey(int(children[0]), int(children[1]))

    def param(self, meta, children):
        name = _key(children[0])
        type_ = self._pick(children, s.TypeRef)
        required = self._pick(children, _Required)
        flags = (_Required, _Documentation, _Range)
        rest = [c for c in children[2:] if not isinstance(c, (Token, s.Provenance) + flags)]
        strings = self._strings(children[2:])
        return s.Param(
            name, type_, rest[0] if rest else None, strings[0] if strings else None,
            self._prov(children), self._sp(meta),
            required=required is not None,
            required_when=required.when if required is not None else None,
            documentation=self._pick(children, _Documentation) is not None,
            bounds=(bounded.low, bounded.high) if (bounded := self._pick(children, _Range)) is not None else None,
            bounds_span=bounded.span if bounded is not None else None,
        )

    def param_range(self, meta, children):
        ends: list[int] = []
        sign = 1
        for token in children:
            if token.type == "ADD_OP":
                sign = -1 if str(token) == "-" else 1
            else:
                ends.append(sign * int(token))
                sign = 1
        return _Range(ends[0], ends[1] if len(ends) > 1 else None, self._sp(meta))

    def required(self, meta, children):
        return _Required(children[0] if children else None)

    def documentation(self, meta, children):
        return _Documentation()

    def kind_decl(self, meta, children):
        self._named_once([c for c in children if isinstance(c, s.Param)], f"kind {children[0]}", "property",
                         "declares")
        strings = self._strings(children[1:])
        return s.KindDecl(
            str(children[0]), strings[0] if strings else None, self._prov(children),
            tuple(c for c in children if isinstance(c, s.Param)), self._sp(meta),
        )

    def _named_once(self, items, what: str, noun: str, verb: str = "gives") -> None:
        """E011 at each property of a component (a parameter of a kind) that an earlier one of the same
        block already names: only the first would be read, and the second silently ignored."""
        first: dict[str, object] = {}
        for item in items:
            if item.name in first:
                self.findings.append(error(
                    "E011", f"{what} {verb} the {noun} `{item.name}` twice", item.span,
                    help=f"a {noun} is given once: keep one",
                    notes=((first[item.name].span, "first given here"),)))
            else:
                first[item.name] = item

    def _values_once(self, tokens: list, what: str) -> None:
        """E011 at each value of an enum that an earlier value of it already gives: the engine's and
        the z3 model's enum would hold it once, and a `match` over it could not cover both."""
        first: dict[str, Token] = {}
        for token in tokens:
            name = str(token)
            if name in first:
                earlier = first[name]
                self.findings.append(error(
                    "E011", f"{what} gives the value `{name}` twice", self._tok(token),
                    help="an enum holds each value once: keep one",
                    notes=((self._tok(earlier), "first given here"),)))
            else:
                first[name] = token

    def enum(self, meta, children):
        tokens = [c for c in children if isinstance(c, Token) and c.type == "NAME"]
        names = [str(c) for c in tokens]
        self._values_once(tokens[1:], f"enum `{names[0]}`")
        strings = self._strings(children)
        return s.Enum(
            names[0], strings[0] if strings else None, self._prov(children),
            tuple(names[1:]), self._sp(meta),
        )

    def type(self, meta, children):
        alts = tuple(c if isinstance(c, s.TypeRef) else str(c) for c in children)
        return s.TypeRef(alts, False, self._sp(meta))

    def list_type(self, meta, children):
        inner = children[0]
        if inner.parts:  # list[(player, corporation)]: a list state's elements are tuples
            return s.TypeRef((inner,), True, self._sp(meta))
        return s.TypeRef(inner.alternatives, True, self._sp(meta))

    def map_type(self, meta, children):
        return s.TypeRef(children[1].alternatives, False, self._sp(meta), key=children[0])

    def enum_type(self, meta, children):
        self._values_once([c for c in children if isinstance(c, Token)], "the type")
        return s.TypeRef((), False, self._sp(meta), values=tuple(str(c) for c in children))

    def set_type(self, meta, children):
        inner = children[0]
        alts = (inner,) if inner.parts else inner.alternatives
        return s.TypeRef(alts, False, self._sp(meta), is_set=True)

    def tuple_type(self, meta, children):
        return s.TypeRef((), False, self._sp(meta), parts=tuple(children))

    def tuple_part(self, meta, children):
        return " | ".join(str(c) for c in children)  # a part of several kinds: `player | corporation`

    def state_decl(self, meta, children):
        reset = self._pick(children, _Reset)
        bound = self._pick(children, _Bound)
        strings = self._strings(children[2:])
        type_ = children[1]
        if len(type_.alternatives) == 1 and isinstance(type_.alternatives[0], s.TypeRef) \
                and not type_.alternatives[0].parts:
            type_ = type_.alternatives[0]  # set[...]: the type itself, not a one-way union of it
        return s.StateDecl(_key(children[0]), type_, reset.events if reset else (),
                           strings[0] if strings else None, self._prov(children), self._sp(meta),
                           bound=bound.count if bound else None)

    def state_bound(self, meta, children):
        return _Bound(int(children[0]))

    def state_reset(self, meta, children):
        return _Reset(tuple(str(c) for c in children))

    def params(self, meta, children):
        return _Params(tuple(children))

    def param_decl(self, meta, children):
        default = children[2] if len(children) > 2 else None
        return s.ParamDecl(_key(children[0]), children[1], self._sp(meta), default)

    def _routine(self, kind, meta, children):
        params = self._pick(children, _Params)
        strings = self._strings(children[1:])
        block = self._pick(children, _Block)
        result = None
        if kind == "function":
            result = children[-1]
        return s.Routine(
            kind=kind,
            name=str(children[0]),
            params=params.items if params else (),
            title=strings[0] if strings else None,
            prov=self._prov(children),
            body=block.stmts if block else (),
            result=result,
            span=self._sp(meta),
        )

    def action(self, meta, children):
        return self._routine("action", meta, children)

    def procedure(self, meta, children):
        return self._routine("procedure", meta, children)

    def function(self, meta, children):
        return self._routine("function", meta, children)

    def trigger(self, meta, children):
        event = self._pick(children, s.Event)
        strings = self._strings(children[1:])
        block = self._pick(children, _Block)
        return s.Trigger(
            str(children[0]), event, strings[0] if strings else None,
            self._prov(children), block.stmts, self._sp(meta),
        )

    def event(self, meta, children):
        args = self._pick(children, _Args)
        when = children[-1] if len(children) > 1 and not isinstance(children[-1], _Args) else None
        return s.Event(
            str(children[0]), args.positional if args else (), when, self._sp(meta)
        )

    def invariant(self, meta, children):
        strings = self._strings(children[1:])
        expr = children[-1]
        return s.Invariant(
            str(children[0]), strings[0] if strings else None, self._prov(children),
            expr, self._sp(meta),
        )

    def sanction(self, meta, children):
        strings = self._strings(children[2:])
        prov = self._prov(children)
        # "sanction inv for action "title"? prov? (reading "...")?": a string
        # before the provenance is the title, one after it is the reading.
        title = reading = None
        seen_prov = False
        for child in children[2:]:
            if isinstance(child, s.Provenance):
                seen_prov = True
            elif isinstance(child, Token) and child.type == "STRING":
                if seen_prov or (title is not None):
                    reading = _unquote(child)
                else:
                    title = _unquote(child)
        if not seen_prov and reading is None and len(strings) == 2:
            title, reading = strings
        return s.Sanction(
            str(children[0]), str(children[1]), title, prov, reading, self._sp(meta),
            tuple(self._tok(child) for child in children[:2]),
        )

    # -- provenance
    def provenance(self, meta, children):
        return s.Provenance(tuple(children), self._sp(meta))

    def citation(self, meta, children):
        ref = str(children[0])
        heading = self._pick(children, _Heading)
        return s.Citation("section", ref, heading.text if heading else None, self._sp(meta))

    def heading(self, meta, children):
        return _Heading(_unquote(children[0]))

    def heading_citation(self, meta, children):
        return s.Citation("heading", _unquote(children[0]), None, self._sp(meta))

    def appendix_citation(self, meta, children):
        return s.Citation("appendix", str(children[0]), None, self._sp(meta))

    def table_citation(self, meta, children):
        return s.Citation("table", str(children[0]), None, self._sp(meta))

    def supplement(self, meta, children):
        return s.Citation("supplement", _unquote(children[0]), None, self._sp(meta))

    def assumed(self, meta, children):
        return s.Citation("assumed", _unquote(children[0]), None, self._sp(meta))

    # -- statements
    def block(self, meta, children):
        return _Block(tuple(c for c in children if c is not None and not isinstance(c, Token)))

    def require(self, meta, children):
        unless = self._pick(children, _Unless)
        message = self._pick(children, _Message)
        return s.Require(
            children[0], unless.expr if unless else None, message.text if message else None,
            self._prov(children), self._sp(meta),
        )

    def unless(self, meta, children):
        return _Unless(children[0])

    def require_message(self, meta, children):
        return _Message(_unquote(children[0]))

    def transfer(self, meta, children):
        return s.Transfer(children[0], children[1], children[2], self._prov(children), self._sp(meta))

    def move(self, meta, children):
        return s.Move(children[0], children[1], children[2], self._prov(children), self._sp(meta))

    def assign(self, meta, children):
        return s.Assign(children[0], children[1], self._prov(children), self._sp(meta))

    def let(self, meta, children):
        return s.Let(str(children[0]), children[1], self._prov(children), self._sp(meta))

    def if_stmt(self, meta, children):
        branches = [(children[0], children[1].stmts)]
        orelse: tuple = ()
        for child in children[2:]:
            if isinstance(child, _Elif):
                branches.append((child.cond, child.body))
            elif isinstance(child, _Else):
                orelse = child.body
        return s.If(tuple(branches), orelse, self._sp(meta))

    def elif_clause(self, meta, children):
        return _Elif(children[0], children[1].stmts)

    def else_clause(self, meta, children):
        return _Else(children[0].stmts)

    def for_stmt(self, meta, children):
        return s.For(str(children[0]), children[1], children[2].stmts, self._sp(meta))

    def do_stmt(self, meta, children):
        return s.Do(children[0], self._prov(children), self._sp(meta))

    def emit(self, meta, children):
        args = self._pick(children, _Args)
        return s.Emit(
            str(children[0]), args.positional if args else (), self._prov(children), self._sp(meta)
        )

    def fail(self, meta, children):
        return s.Fail(_unquote(children[0]), self._prov(children), self._sp(meta))

    def match_stmt(self, meta, children):
        cases = tuple(c for c in children[1:] if isinstance(c, _Case))
        orelse = next((c.body for c in children[1:] if isinstance(c, _Else)), None)
        return s.Match(children[0], tuple((c.values, c.body) for c in cases), orelse, self._sp(meta),
                       tuple(c.spans for c in cases))

    def match_expr(self, meta, children):
        arms = [c for c in children[1:] if isinstance(c, _Case)]
        orelse = next((c.body for c in children[1:] if isinstance(c, _ElseValue)), None)
        return s.MatchExpr(children[0], tuple((a.values, a.body) for a in arms), orelse, self._sp(meta),
                           tuple(a.spans for a in arms))

    def match_arm(self, meta, children):
        return _Case(tuple(c.name for c in children[:-1]), children[-1], tuple(c.span for c in children[:-1]))

    def match_else_arm(self, meta, children):
        return _ElseValue(children[0])

    def match_case(self, meta, children):
        values = tuple(c.name for c in children[:-1])
        return _Case(values, children[-1].stmts, tuple(c.span for c in children[:-1]))

    def case_value(self, meta, children):
        return _CaseValue(str(children[0]), self._sp(meta))

    def none_case(self, meta, children):
        return _CaseValue("none", self._sp(meta))

    def match_else(self, meta, children):
        return _Else(children[0].stmts)

    # -- expressions
    def cond(self, meta, children):
        return s.Cond(children[0], children[1], children[2], self._sp(meta))

    def or_op(self, meta, children):
        return s.Binary("or", children[0], children[1], self._sp(meta))

    def and_op(self, meta, children):
        return s.Binary("and", children[0], children[1], self._sp(meta))

    def not_op(self, meta, children):
        return s.Unary("not", children[0], self._sp(meta))

    def compare(self, meta, children):
        return s.Binary(str(children[1]), children[0], children[2], self._sp(meta))

    def in_op(self, meta, children):
        return s.Binary("in", children[0], children[1], self._sp(meta))

    def not_in_op(self, meta, children):
        return s.Binary("not in", children[0], children[1], self._sp(meta))

    def range(self, meta, children):
        return s.Range(children[0], children[1], self._sp(meta))

    def binary(self, meta, children):
        return s.Binary(str(children[1]), children[0], children[2], self._sp(meta))

    def modulo(self, meta, children):
        return s.Binary("mod", children[0], children[1], self._sp(meta))

    def neg(self, meta, children):
        return s.Unary("-", children[0], self._sp(meta))

    def member(self, meta, children):
        return s.Member(children[0], str(children[1]), self._sp(meta))

    def call(self, meta, children):
        args = self._pick(children[1:], _Args)
        return s.Call(
            children[0], args.positional if args else (), args.keywords if args else (),
            self._sp(meta),
        )

    def index(self, meta, children):
        return s.Index(children[0], children[1], self._sp(meta))

    def args(self, meta, children):
        positional = tuple(c for c in children if not isinstance(c, _Kwarg))
        keywords = tuple((c.name, c.value) for c in children if isinstance(c, _Kwarg))
        return _Args(positional, keywords)

    def keyword_arg(self, meta, children):
        return _Kwarg(str(children[0]), children[1])

    def name(self, meta, children):
        return s.Name(str(children[0]), self._sp(meta))

    def int(self, meta, children):
        return s.Int(int(children[0]), self._sp(meta))

    def money(self, meta, children):
        text = str(children[0])
        return s.Money(int(text[1:]), text[0], self._sp(meta))

    def percent(self, meta, children):
        return s.Percent(int(str(children[0])[:-1]), self._sp(meta))

    def string(self, meta, children):
        return s.Str(_unquote(children[0]), self._sp(meta))

    def true(self, meta, children):
        return s.Bool(True, self._sp(meta))

    def false(self, meta, children):
        return s.Bool(False, self._sp(meta))

    def none(self, meta, children):
        return s.NoneLit(self._sp(meta))

    def list(self, meta, children):
        return s.ListLit(tuple(c for c in children if c is not None), self._sp(meta))

    def empty_braces(self, meta, children):
        return s.MapLit((), self._sp(meta))

    def set(self, meta, children):
        return s.SetLit(tuple(children), self._sp(meta))

    def map(self, meta, children):
        return s.MapLit(tuple(children), self._sp(meta))

    def map_entry(self, meta, children):
        return (children[0], children[1])

    def record(self, meta, children):
        self._named_once(children, "a record", "field")
        fields = tuple((c.name, c.value) for c in children)
        return s.Record(fields, self._sp(meta), tuple(c.span for c in children))

    def record_field(self, meta, children):
        token = children[0]
        name = _key(token)
        span = _span_of_token(self.path, token)
        return _Field(name, children[1], Span(self.path, span.line, span.column, span.line, span.column + len(name)))

    def quantifier(self, meta, children):
        return s.Quantifier(str(children[0]), str(children[1]), children[2], children[3], self._sp(meta))


class _Extends:
    def __init__(self, token):
        self.token = token


class _Key:
    def __init__(self, value):
        self.value = value


class _Note:
    def __init__(self, text):
        self.text = text


class _Heading:
    def __init__(self, text):
        self.text = text


class _RangeKey:
    def __init__(self, low, high):
        self.low, self.high = low, high


class _Params:
    def __init__(self, items):
        self.items = items


class _Block:
    def __init__(self, stmts):
        self.stmts = stmts


class _Unless:
    def __init__(self, expr):
        self.expr = expr


class _Message:
    def __init__(self, text):
        self.text = text


class _Elif:
    def __init__(self, cond, body):
        self.cond, self.body = cond, body


class _Else:
    def __init__(self, body):
        self.body = body


class _Case:
    def __init__(self, values, body, spans):
        self.values, self.body, self.spans = values, body, spans


class _ElseValue:
    def __init__(self, body):
        self.body = body


class _CaseValue:
    def __init__(self, name, span):
        self.name, self.span = name, span


class _Args:
    def __init__(self, positional, keywords):
        self.positional, self.keywords = positional, keywords


class _Kwarg:
    def __init__(self, name, value):
        self.name, self.value = name, value


class _Field:
    def __init__(self, name, value, span):
        self.name, self.value, self.span = name, value, span


class _Required:
    def __init__(self, when):
        self.when = when


class _Documentation:
    pass


class _Range:
    def __init__(self, low: int, high: int | None, span: s.Span | None = None):
        self.low, self.high, self.span = low, high, span


class _Reset:
    def __init__(self, events):
        self.events = events


class _Bound:
    def __init__(self, count):
        self.count = count


# ---------------------------------------------------------------- errors


def _label(terminal: str) -> str:
    if terminal in TERMINAL_LABELS:
        return TERMINAL_LABELS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _expected(names) -> tuple[str, ...]:
    return tuple(sorted({_label(n) for n in names}))


#: The error each of ERROR_EXAMPLES' malformed texts raises (None: it parses), found once per process:
#: Lark's `match_examples` parses every example for every syntax error it labels, about 40 parses.
_EXAMPLE_ERRORS: dict[str, UnexpectedInput | None] = {}


def _parse_example(malformed: str) -> None:
    """`parser().parse` for an error example, from `_EXAMPLE_ERRORS` after its first parse."""
    if malformed not in _EXAMPLE_ERRORS:
        try:
            parser().parse(malformed)
            _EXAMPLE_ERRORS[malformed] = None
        except UnexpectedInput as exc:
            _EXAMPLE_ERRORS[malformed] = exc
    exc = _EXAMPLE_ERRORS[malformed]
    if exc is not None:
        raise exc.with_traceback(None)


def _friendly(exc: UnexpectedInput, text: str) -> str | None:
    try:
        return exc.match_examples(_parse_example, ERROR_EXAMPLES, use_accepts=True, token_type_match_fallback=True)
    except Exception:  # match_examples re-parses; a failure there only loses the label
        return None
    finally:
        # raised again, a kept error took the frames it passed through and the error being handled
        # (with the text it was parsing): they are let go
        for kept in _EXAMPLE_ERRORS.values():
            if kept is not None:
                kept.__traceback__ = kept.__context__ = None


def _syntax_diagnostic(path: str, text: str, exc: UnexpectedInput) -> Diagnostic:
    friendly = _friendly(exc, text)
    if isinstance(exc, UnexpectedCharacters):
        line, column = exc.line, exc.column
        char = text[exc.pos_in_stream] if 0 <= exc.pos_in_stream < len(text) else "?"
        span = Span(path, line, column, line, column + 1)
        message = f"unexpected character {char!r}"
        after = text[exc.pos_in_stream + 1:exc.pos_in_stream + 2]
        if char in "$Ł£€¥" and after == "-":
            message = (f"a money amount cannot be negative: `{char}` is followed by digits ({char}3720); "
                       f"a negative amount in a rule is written -{char}20")
        elif char in "$Ł£€¥":
            message = f"a money amount is `{char}` followed by digits ({char}3720), with no space, sign or comma"
        if char == '"':
            # a string is one line long, its escapes \" \\ \n \t: say which of the two this one breaks
            rest = text[exc.pos_in_stream + 1:].split("\n", 1)[0]
            message = ("a string that does not end on its line (no closing '\"')" if '"' not in rest.replace('\\"', "")
                       else "a string with an escape the DSL does not know (it knows \\\" \\\\ \\n \\t)")
        return error(
            "E002",
            message,
            span,
            expected=_expected(exc.allowed or ()),
            help=friendly,
        )
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        lines = text.splitlines() or [""]
        line = len(lines)
        column = len(lines[-1]) + 1
        span = Span(path, line, column, line, column + 1)
        expected = exc.expected if isinstance(exc, UnexpectedEOF) else exc.accepts or exc.expected
        return error(
            "E003",
            "unexpected end of file",
            span,
            expected=_expected(expected or ()),
            help=friendly,
        )
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    span = _span_of_token(path, token)
    shown = str(token)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    what = f"{shown!r}, {TERMINAL_LABELS[token.type]}" if token.type in TERMINAL_LABELS else repr(shown)
    return error(
        "E001",
        f"unexpected {what}",
        span,
        expected=_expected(exc.accepts or exc.expected or ()),
        help=friendly,
    )


def parse_now(text: str, path: str) -> tuple[s.Module | None, tuple[Diagnostic, ...]]:
    """Parse `text` (read from `path`) with Lark and build its module: (module, ()) or (None,
    (the first syntax error,)). `compiler.lang.parse.parse_text` is the entry point; it keeps the
    modules built here."""
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        return None, (_syntax_diagnostic(path, text, exc),)
    try:
        builder = _Builder(path)
        units = builder.transform(tree)
    except (RecursionError, lark.exceptions.VisitError) as exc:
        # Lark wraps what a rule's callback raised (2,000 `if`s one inside the other: a RecursionError
        # in building `true`) in a VisitError, which escaped as a traceback; the tree it stopped at says where
        if isinstance(exc, lark.exceptions.VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        meta = getattr(getattr(exc, "obj", None), "meta", None)
        line, column = (getattr(meta, "line", 1), getattr(meta, "column", 1)) if meta is not None else (1, 1)
        return None, (error("E001", "the clause nests too deeply to read", Span(path, line, column, line, column + 1),
                            help="write the nested part as a procedure or function of its own"),)
    return s.Module(path, tuple(units)), tuple(builder.findings)
