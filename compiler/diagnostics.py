"""Diagnostics: one type, one renderer, one table of codes.

Every problem rulec reports about a rulespec is a `Diagnostic` with a code
from `CODES`. Tests assert on codes and spans; the site publishes `CODES`.

Rendering (the rustc/ruff shape)::

    rulespecs/1800.rules:12:5: error[E001]: unexpected '}'
       |
    12 |     cost: }
       |           ^
       = expected: a value (a number, money, a name, ...)
       help: ...
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


#: Every diagnostic code with a one-line explanation. The site lists these.
CODES: dict[str, str] = {
    # syntax
    "E001": "Syntax error: a token the grammar does not allow at this place.",
    "E002": "Syntax error: a character that starts no token of the DSL.",
    "E003": "Syntax error: the file ends before a clause is complete, or before its first unit (a file that declares nothing: empty, or comments only).",
    "E004": "The file cannot be read (missing, a directory, or not UTF-8).",
    # resolution
    "E010": "Unknown name: a library, title, variant or clause that is not defined, or an invariant or action a `sanction` names that does not exist.",
    "E011": "Duplicate definition: the same clause is defined twice in one scope.",
    "E012": "Overlay target does not exist: replace, amend or remove names a clause the base lacks.",
    "E013": "Cycle: a title extends itself through a chain of extends, or a procedure or function calls itself, directly or through others.",
    "E014": "A unit is defined twice (two titles, libraries or variants of the same name).",
    "E015": "Unknown name in an expression: not a parameter, local, clause, component or builtin.",
    "E016": "Misplaced clause: this item is not allowed in this kind of unit.",
    "E017": "A map overlay (`--map FILE`) holds something other than errata of the title it is played with.",
    # checks
    "E020": "A value is out of its allowed range or of the wrong kind.",
    "E021": "A table is incomplete: a key of its dimension has no row.",
    "E022": "A reference names a component that does not exist (a corporation, private, train, phase, hex, tile, ...), or a table is keyed by no known dimension.",
    "E023": "A section is cited twice with different headings, or a duplicate section number is cited without its heading.",
    "E024": "Unknown property: the title, the kind or the record declares no property of that name.",
    "E025": "A value of the wrong type: the property's declared type does not take it.",
    "E026": "A name that is not one of the values the property allows (an enum).",
    "E027": "A required property is missing (write `gap \"why\"` where the rules do not give it).",
    "E028": "A component of a kind that no `kind` declares.",
    "E029": "A wrong schema declaration: a type that names no type, enum or kind (of a parameter, a kind's property, or an action's, procedure's or function's parameter), or a default of the wrong type.",
    "E030": "A title with trains and no map: no hex to run on (write `map: gap \"why\"` where the rulebook does not give it).",
    "E031": "A home station that is no city: a home hex with no city where the station goes, or a `homes` entry naming a node that is not a city.",
    "E032": "A tile the title names (an upgrade, an ability's tile) that is not in its tile set (the `tile_counts` table).",
    "E033": "A value the library accepts that the runtime does not implement, set where the runtime would read it, or a `free_pick` the library's pick does not play (without `picks_operate: true`, or with no opening auction).",
    "E034": "A `match` whose subject is not an enum value (a parameter of the title or of the routine typed by an enum), or a case that names no value of it, or one value twice.",
    "E035": "A `match` that leaves a value of its enum without a case and has no `else`.",
    "E036": "A call to a procedure or function with more or fewer arguments than it declares parameters (an action's optional fields may be left out), or to a builtin with more or fewer than the runtime's method takes.",
    "E037": "A declared state (`state NAME: set[...] reset on MOMENT`) that is not a set of players, corporations, privates or minors (or of tuples of them), whose moment the runtime does not know, or that is read or set with as many arguments as its elements have parts.",
    "E038": "A value of the wrong type in a rule: a `for` over what is certainly no collection (a number, a string, true or false, ...), a `set` of a declared state to a value its type does not take (a flag or set to anything but true or false, an amount to anything but a number or money), arithmetic on what is no number (a component, a holder, true or false), or a `transfer` of what is no amount of money, or from or to what holds no money (the bank pool, the IPO, the depot, a train, a private, a certificate).",
    "E039": "A rule nested deeper than the engine's Python runs: more than 20 `for` loops one inside another, more than 90 blocks, or more than 150 operations nested in one expression.",
    "E040": "A comparison of a property typed by an enum with a name that is one of its values and also names something else (another property, a component, a local, a builtin holder such as `pool`): the name reads as that, not as the value.",
    "W001": "Uncited clause: a rule or value without a rulebook citation, supplement or assumption, or resting on an assumption that gives no reason or a supplement that names no source.",
    "W002": "Gap: a value the rulebook does not give and nobody supplied.",
    "W003": "Contradiction: the rulebook contradicts itself; the rulespec records its reading (a note).",
    "W004": "Clash: a supplement disagrees with the rulebook; the rulebook wins (a note: the reading is recorded).",
    "W005": "A citation names a section that the title does not declare.",
    "W006": "An action random play never tries: a parameter of a kind it does not enumerate (an `int` or a `name` without the title's `<action>_options`, a percent, a bool, ...).",
    # tool
    "E090": "rulec was asked for something that does not exist (a title, variant or path).",
    "E091": "A game log that is not JSON (cut short, empty, or not a log at all): where it stops reading.",
}


#: A small wrong rulespec for the codes of the schema check: the site shows each with
#: the diagnostic `rulec check` gives it (run when the page is made, so it cannot drift),
#: and a test checks each gives its code.
EXAMPLES: dict[str, str] = {
    "E022": (
        'title "t" {\n'
        '  kind corporation "a share company" { }\n'
        '  kind hex "a hex of the map" { param reserved_for: corporation "the only company that may lay here" }\n'
        '  corporation PRR "Pennsylvania" §1 { }\n'
        '  hex A1 §1 { reserved_for: PPR }\n'
        '}\n'
    ),
    "E024": (
        'title "t" {\n'
        '  param cert_limit: int "certificates a player may hold"\n'
        '  cert_limt: 7 §8.2\n'
        '}\n'
    ),
    "E025": (
        'title "t" {\n'
        '  param bank: money | {unlimited} "the bank\'s cash at the start"\n'
        '  bank: "lots" §2\n'
        '}\n'
    ),
    "E026": (
        'title "t" {\n'
        '  param layout: {flat, pointy} "flat or pointy hexes"\n'
        '  layout: flta §11\n'
        '}\n'
    ),
    "E027": (
        'title "t" {\n'
        '  kind train "a train type" { param price: money required "what the bank sells it for" }\n'
        '  train "2" §12 { }\n'
        '}\n'
    ),
    "E028": (
        'title "t" {\n'
        '  kind private "a private company" { param cost: money "its face value" }\n'
        '  privat MT "Midland Terminal" §4 { cost: $20 }\n'
        '}\n'
    ),
    "E029": (
        'title "t" {\n'
        '  param bank: monye "the bank\'s cash at the start"\n'
        '}\n'
    ),
    "E030": (
        'title "t" {\n'
        '  enum step "a step of an operating turn" { run_routes, buy_train }\n'
        '  param operating_steps: list[step] "the steps of a turn"\n'
        '  kind train "a train type" { param distance: int "its stops" }\n'
        '  operating_steps: [run_routes, buy_train] §3\n'
        '  train "2" §12 { distance: 2 }\n'
        '}\n'
    ),
    "E031": (
        'title "t" {\n'
        '  kind node "a stop printed on a hex" { param kind: {city, town} "what it is" }\n'
        '  kind hex "a hex of the map" { param nodes: list[node] "what is printed on it" }\n'
        '  kind corporation "a share company" { param home: hex "its home hex" }\n'
        '  hex B4 §11 { nodes: [(kind: town)] }\n'
        '  corporation PRR §9 { home: B4 }\n'
        '}\n'
    ),
    "E032": (
        'title "t" {\n'
        '  kind tile "a track tile" { }\n'
        '  param tile_counts: table "how many of each tile"\n'
        '  param upgrades: table "the upgrade chart"\n'
        '  tile "7" §11 { }\n'
        '  tile "18" §11 { }\n'
        '  table tile_counts by tile §11 { "7" => 4 }\n'
        '  table upgrades by tile §11 { "7" => ["18"] }\n'
        '}\n'
    ),
    "E033": (
        'title "t" {\n'
        '  param first_round: {stock, auction} "how the game opens"\n'
        '  param auction_pass_final: bool "whether a pass in an auction is final"\n'
        '  first_round: auction §5\n'
        '  auction_pass_final: false §5\n'
        '}\n'
    ),
    "E034": (
        'title "t" {\n'
        '  param sell_price_drop: {per_share, per_sale} "how a sale moves the price down"\n'
        '  sell_price_drop: per_sale §8\n'
        '  procedure price_drop(corporation: corporation) "the drop after a sale" §8 {\n'
        '    match sell_price_drop {\n'
        '      per_share => { fail "one space per share" }\n'
        '      per_sael => { fail "one space per sale" }\n'
        '      else { }\n'
        '    }\n'
        '  }\n'
        '}\n'
    ),
    "E035": (
        'title "t" {\n'
        '  param sell_price_drop: {per_share, per_sale} | none "how a sale moves the price down"\n'
        '  sell_price_drop: per_sale §8\n'
        '  procedure price_drop(corporation: corporation) "the drop after a sale" §8 {\n'
        '    match sell_price_drop {\n'
        '      per_share => { fail "one space per share" }\n'
        '      per_sale => { fail "one space per sale" }\n'
        '    }\n'
        '  }\n'
        '}\n'
    ),
    "E036": (
        'title "t" {\n'
        '  function smaller(a: int, b: int) "the smaller of two amounts" §8 = a <= b ? a : b\n'
        '  function cap(x: int) "x, at most 60 and at most 100" §8 = smaller(x, 60, 100)\n'
        '}\n'
    ),
    "E037": (
        'title "t" {\n'
        '  state sold: set[(player, corporation)] reset on stock_round_start "who sold what this round" §5\n'
        '  function sold_any(p: player) "whether p sold this round" §5 = sold(p)\n'
        '}\n'
    ),
    "E038": (
        'title "t" {\n'
        '  state bought: bool reset on stock_turn_start "whether the player on turn has bought" §5\n'
        '  procedure note_purchase() "the player on turn bought" §5 {\n'
        '    set bought() = 5\n'
        '  }\n'
        '}\n'
    ),
}


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file; lines and columns count from 1.

    `end_line`/`end_column` are exclusive of the last character's successor,
    as Lark reports them (the column just past the span).
    """

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a rulespec.

    `code` is a key of `CODES`; `span` is where it is (None for a finding
    about no particular place); `notes` are further spans with a message each
    (e.g. "first defined here"); `help` is one line of advice.
    """

    severity: Severity
    code: str
    message: str
    span: Span | None = None
    notes: tuple[tuple[Span | None, str], ...] = ()
    help: str | None = None
    expected: tuple[str, ...] = field(default=())
    #: the nearest known names, for "did you mean" (the language server offers them as fixes)
    suggestions: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown diagnostic code {self.code!r}")

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict:
        def span_json(span: Span | None) -> dict | None:
            if span is None:
                return None
            return {
                "path": span.path,
                "line": span.line,
                "column": span.column,
                "end_line": span.end_line,
                "end_column": span.end_column,
            }

        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "span": span_json(self.span),
            "notes": [{"span": span_json(s), "message": m} for s, m in self.notes],
            "help": self.help,
            "expected": list(self.expected),
            "suggestions": list(self.suggestions),
        }


def error(code: str, message: str, span: Span | None = None, **kw) -> Diagnostic:
    return Diagnostic(Severity.ERROR, code, message, span, **kw)


def warning(code: str, message: str, span: Span | None = None, **kw) -> Diagnostic:
    return Diagnostic(Severity.WARNING, code, message, span, **kw)


class SourceMap:
    """The text of every file read, so spans can be shown with their line."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}

    def add(self, path: str, text: str) -> None:
        self._texts[path] = text

    def text(self, path: str) -> str | None:
        """The whole text of `path`, None when it was not read."""
        return self._texts.get(path)

    def digest(self, path: str) -> str | None:
        """A digest of the file's text as read (what a generated engine records
        of the rulespecs it was built from), or None for a file not read."""
        text = self._texts.get(path)
        if text is None:
            return None
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def line(self, path: str, line: int) -> str | None:
        text = self._texts.get(path)
        if text is None:
            return None
        lines = text.splitlines()
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""


#: a source line longer than this is shown around the span's column (a game log is often one line of
#: thousands of characters), `EXCERPT_AROUND` characters either side
EXCERPT_WIDTH = 160
EXCERPT_AROUND = 40


def _excerpt(span: Span, sources: SourceMap) -> list[str]:
    source_line = sources.line(span.path, span.line)
    if source_line is None:
        return []
    gutter = " " * len(str(span.line))
    width = 1
    if span.end_line == span.line and span.end_column > span.column:
        width = span.end_column - span.column
    lead, start = "", 0
    if len(source_line) > EXCERPT_WIDTH:
        start = max(0, span.column - 1 - EXCERPT_AROUND)
        lead = "..." if start else ""
        source_line = lead + source_line[start:span.column - 1 + EXCERPT_AROUND]
        width = min(width, EXCERPT_AROUND)
    # Tabs keep their width under the caret.
    before = lead + source_line[len(lead):][: span.column - 1 - start]
    prefix = "".join("\t" if ch == "\t" else " " for ch in before)
    return [
        f"{gutter} |",
        f"{span.line} | {source_line}",
        f"{gutter} | {prefix}{'^' * max(1, width)}",
    ]


def render(diagnostic: Diagnostic, sources: SourceMap) -> str:
    """Render one diagnostic as text: location, severity[code], message,
    the source line with a caret, notes, what was expected, and help."""
    where = f"{diagnostic.span}: " if diagnostic.span else ""
    out = [f"{where}{diagnostic.severity.value}[{diagnostic.code}]: {diagnostic.message}"]
    if diagnostic.span:
        out.extend(_excerpt(diagnostic.span, sources))
    for span, message in diagnostic.notes:
        if span is None:
            out.append(f"  = note: {message}")
            continue
        out.append(f"  = note: {span}: {message}")
        out.extend("    " + line for line in _excerpt(span, sources))
    if diagnostic.expected:
        out.append(f"  = expected: {', '.join(diagnostic.expected)}")
    if diagnostic.help:
        out.append(f"  help: {diagnostic.help}")
    return "\n".join(out)


def render_all(diagnostics: Iterable[Diagnostic], sources: SourceMap) -> str:
    return "\n\n".join(render(d, sources) for d in diagnostics)


def to_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False)


def sort_key(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    if span is None:
        return ("", 0, 0, diagnostic.code)
    return (span.path, span.line, span.column, diagnostic.code)
