"""The grammar: LALR, strict, and covering what the DSL must express."""

from __future__ import annotations

import lark
import pytest

from compiler.lang import syntax as s
from compiler.emit.pieces import unparse
from compiler.lang.parse import parse_text, parser
from compiler.paths import GRAMMAR


def parse_ok(text: str) -> s.Module:
    module, diagnostics = parse_text(text)
    assert diagnostics == [], diagnostics
    assert module is not None
    return module


def items(text: str):
    return parse_ok(text).units[0].items


def test_grammar_is_lalr_and_strict():
    # strict=True raises on any shift/reduce conflict or terminal collision
    grammar = lark.Lark(GRAMMAR.read_text(), parser="lalr", strict=True)
    assert grammar.options.parser == "lalr"
    assert parser().options.strict


def test_units_and_overlays():
    module = parse_ok(
        """
        library "18xx" { }
        title "1846" { }
        title "18 Grand Junction" extends "1846" §"Game Parts" { }
        variant "Three-Player" of "1800" Appendix C { }
        errata "Bond" of "1800" { date: "2021-05-01" assumed "test" }
        """
    )
    kinds = [(u.kind, u.name, u.base) for u in module.units]
    assert kinds == [
        ("library", "18xx", None),
        ("title", "1846", None),
        ("title", "18 Grand Junction", "1846"),
        ("variant", "Three-Player", "1800"),
        ("errata", "Bond", "1800"),
    ]


@pytest.mark.parametrize(
    "text, kind, ref, heading",
    [
        ("§8.1", "section", "§8.1", None),
        ("§5.10.6.1", "section", "§5.10.6.1", None),
        ("VII.3.8", "section", "VII.3.8", None),
        ("§VII.3.8", "section", "§VII.3.8", None),
        ('§IV("Game Setup")', "section", "§IV", "Game Setup"),
        ("Appendix B", "appendix", "B", None),
        ("Table A", "table", "A", None),
        ('§"Initial Stock Round"', "heading", "Initial Stock Round", None),
        ('supplement from "18xx-maker-1800.json"', "supplement", "18xx-maker-1800.json", None),
        ('assumed "the bank receives it"', "assumed", "the bank receives it", None),
    ],
)
def test_citation_styles(text, kind, ref, heading):
    (prop,) = items(f'title "t" {{ x: 1 {text} }}')
    (citation,) = prop.prov.citations
    assert (citation.kind, citation.ref, citation.heading) == (kind, ref, heading)


def test_several_citations_on_one_clause():
    (prop,) = items('title "t" { x: 1 §8.1, §8.2.3, supplement from "a" }')
    assert [str(c) for c in prop.prov.citations] == ["§8.1", "§8.2.3", 'supplement from "a"']


def test_components_tables_and_literals():
    (comp, table) = items(
        """title "t" {
          private MT "Midland Terminal" §4 {
            cost: $20 income: Ł5 share: 10% phases: 2..3 gone: none flag: true
            distance: [(nodes: [city, town], pay: 2, visit: 3)]
            revenue: {yellow => 30, brown => 70}
            zones: {par, close}
            ability grant { corporation: DRGW percent: 10% }
          }
          table cert_limit by players, corporations §IV.3 {
            3, 8 => 16
            4..5, 8 => 12 supplement from "ref"
            "2E", x => gap "not printed"
          }
        }"""
    )
    assert comp.kind == "private" and comp.key == "MT" and comp.title == "Midland Terminal"
    assert comp.get("cost").value == s.Money(20, "$")
    assert comp.get("income").value == s.Money(5, "Ł")
    assert comp.get("share").value == s.Percent(10)
    assert comp.get("phases").value == s.Range(s.Int(2), s.Int(3))
    assert isinstance(comp.get("distance").value.items[0], s.Record)
    assert isinstance(comp.get("revenue").value, s.MapLit)
    assert isinstance(comp.get("zones").value, s.SetLit)
    assert comp.children[0].kind == "ability" and comp.children[0].key == "grant"
    assert table.dims == ("players", "corporations")
    assert [r.keys for r in table.rows] == [(3, 8), ((4, 5), 8), ("2E", "x")]
    assert isinstance(table.rows[2].value, s.Gap)


def test_actions_guards_and_effects():
    (action,) = items(
        """title "t" {
          action buy_share(P: player, C: corporation, source: ipo | pool, xs: list[train]) "Buy one" §8.1 {
            require not sold_this_round(P, C) else "no buy-back" §8.1
            require certificates(P) + 1 <= cert_limit unless zone(C) in {no_cert_limit} §8.2.2
            let cost = source == ipo ? par_price(C) : price(C)
            transfer cost from P to (source == ipo ? C : bank) §8.1
            move share(C) from source to P
            set C.floated = percent(players, C) >= 50%
            if cost > 100 { emit expensive(C) } elif cost < 0 { fail "impossible" } else { do note(C, kind=1) }
            for T in trains(C) { move T from C to scrap }
          }
        }"""
    )
    assert action.kind == "action" and action.title == "Buy one"
    assert [p.name for p in action.params] == ["P", "C", "source", "xs"]
    assert str(action.params[2].type) == "ipo | pool"
    assert str(action.params[3].type) == "list[train]"
    kinds = [type(stmt).__name__ for stmt in action.body]
    assert kinds == ["Require", "Require", "Let", "Transfer", "Move", "Assign", "If", "For"]
    assert action.body[0].message == "no buy-back"
    assert action.body[1].unless is not None
    assert isinstance(action.body[2].value, s.Cond)


def test_triggers_invariants_sanctions_functions():
    decls = items(
        """title "t" {
          trigger rust_2 on train_bought(T) when T.name == "4" "the 2s rust" §12.4 { do rust("2") }
          invariant money "money is conserved" { sum(h in holders: cash(h)) == 100 and all(h in holders: cash(h) >= 0) }
          sanction cert_limit for take_over "over the limit" §9.2 reading "sells down in his next turn"
          function price(C: corporation) "share price" §8 = market_price(C) * 1 - 0 / 1 mod 7
          procedure pay(C: corporation) { transfer 1 from bank to C }
          enum colour { yellow, green, }
          param cert_limit: int "the limit"
        }"""
    )
    trigger, invariant, sanction, function, procedure, enum, param = decls
    assert trigger.event.name == "train_bought" and trigger.event.when is not None
    assert isinstance(invariant.expr, s.Binary) and invariant.expr.op == "and"
    assert (sanction.invariant, sanction.action, sanction.reading) == (
        "cert_limit", "take_over", "sells down in his next turn",
    )
    assert sanction.title == "over the limit"
    assert function.kind == "function" and isinstance(function.result, s.Binary)
    assert procedure.kind == "procedure"
    assert enum.values == ("yellow", "green")
    assert param.name == "cert_limit"


def test_overlay_items():
    replace, amend, remove, remove_prop = items(
        """variant "V" of "T" {
          replace private MT "Midland Terminal" §C.4 { cost: $25 }
          amend private MT §C.4 { min_price: $10 }
          remove private RGS §C.4
          remove property cert_limit
        }"""
    )
    assert isinstance(replace, s.Replace) and replace.decl.key == "MT"
    assert isinstance(amend, s.Amend) and amend.properties[0].name == "min_price"
    assert (remove.kind, remove.key) == ("private", "RGS")
    assert (remove_prop.kind, remove_prop.key) == ("property", "cert_limit")


def test_comments_and_string_escapes():
    (prop,) = items(
        'title "t" { // a comment\n /* a block\n comment */ x: "say \\"hi\\"\\n\\\\" }'
    )
    assert prop.value == s.Str('say "hi"\n\\')


def test_expression_precedence():
    (prop,) = items('title "t" { x: 1 + 2 * 3 == 7 and not false or a.b(c)[0] in xs }')
    expr = prop.value
    assert expr.op == "or"
    left = expr.left
    assert left.op == "and"
    assert left.left.op == "==" and left.left.left.op == "+"
    assert left.left.left.right.op == "*"
    assert expr.right.op == "in" and isinstance(expr.right.left, s.Index)


def test_spans_are_one_based_lines_and_columns():
    module = parse_ok('title "t" {\n  private MT {\n    cost: $20\n  }\n}')
    comp = module.units[0].items[0]
    assert (comp.span.line, comp.span.column) == (2, 3)
    prop = comp.properties[0]
    assert (prop.span.line, prop.span.column) == (3, 5)
    assert (prop.value.span.line, prop.value.span.column, prop.value.span.end_column) == (3, 11, 14)


def test_a_parse_is_stored_and_read_back_the_same_and_a_changed_text_is_parsed_again(tmp_path, monkeypatch):
    """The parse cache (`.rulec-cache/parse/`, here a folder of the test's): a second process
    reads the stored module, equal to a fresh parse span for span; a changed text, or a stored
    file that cannot be read back, is parsed again."""
    from compiler.lang import parse

    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    text = 'title "Cached" {\n  players: 2..4 §1\n}\n'
    fresh = parse._parse_now(text, "cached.rules")
    parse._parsed.cache_clear()
    assert parse._parsed(text, "cached.rules") == fresh
    stored = list((tmp_path / "parse").glob("*.pickle"))
    assert len(stored) == 1
    parse._parsed.cache_clear()  # as a new process would
    again = parse._parsed(text, "cached.rules")
    assert again == fresh and again[0].units[0].span == fresh[0].units[0].span
    stored[0].write_bytes(b"not a pickle")
    parse._parsed.cache_clear()
    assert parse._parsed(text, "cached.rules") == fresh
    parse._parsed.cache_clear()
    changed = parse._parsed(text.replace("2..4", "2..5"), "cached.rules")
    assert changed != fresh and len(list((tmp_path / "parse").glob("*.pickle"))) == 2
    parse._parsed.cache_clear()
    broken = parse._parsed('title "x" { players: }', "broken.rules")
    assert broken[0] is None and broken[1][0].code == "E001"
    parse._parsed.cache_clear()
    assert parse._parsed('title "x" { players: }', "broken.rules") == broken


def test_the_parse_cache_keeps_the_newest_parses(tmp_path, monkeypatch):
    """Past `KEPT` + `SLACK` stored parses the oldest are removed, down to `KEPT` (each edit of a
    file stores one); Lark's tables stay."""
    import os

    from compiler.lang import parse

    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(parse, "KEPT", 3)
    monkeypatch.setattr(parse, "SLACK", 2)
    (tmp_path / "parse").mkdir()
    (tmp_path / "parse" / "grammar.lark.pickle").write_bytes(b"")
    texts = [f'title "x" {{ players: {players} §1 }}' for players in range(2, 8)]
    stored = []
    for n, text in enumerate(texts):
        parse._parsed.cache_clear()
        parse._parsed(text, "x.rules")
        new = [p for p in (tmp_path / "parse").glob("*.pickle") if p.name != "grammar.lark.pickle"
               and p not in stored]
        stored += new
        for age, path in enumerate(stored):  # strictly older by mtime, whatever the clock's grain
            if path.exists():
                os.utime(path, (1_000_000 + age, 1_000_000 + age))
        kept = sorted(p for p in (tmp_path / "parse").glob("*.pickle") if p.name != "grammar.lark.pickle")
        # five parses kept at most; the sixth store prunes down to the newest three
        assert len(kept) == (n + 1 if n < 5 else 3), (n, len(kept))
    assert sorted(kept) == sorted(stored[-3:])
    assert (tmp_path / "parse" / "grammar.lark.pickle").exists()


def test_match_over_an_enum_value():
    (proc,) = items(
        """title "t" {
          procedure drop(C: corporation) {
            match sell_price_drop {
              per_share, per_sale => { do market_move(C, down) }
              none => { }
              else { fail "no drop" }
            }
          }
        }"""
    )
    (match,) = proc.body
    assert isinstance(match, s.Match) and match.subject == s.Name("sell_price_drop")
    assert [values for values, _ in match.cases] == [("per_share", "per_sale"), ("none",)]
    assert [type(st).__name__ for st in match.cases[0][1]] == ["Do"] and match.cases[1][1] == ()
    assert [st.message for st in match.orelse] == ["no drop"]
    assert [(sp.line, sp.column) for sp in match.value_spans[0]] == [(4, 15), (4, 26)]
    # the lowering the engine and the z3 model both run: a test per case, in order
    lowered = match.as_if()
    assert [unparse(cond) for cond, _ in lowered.branches] == [
        '(sell_price_drop == "per_share") or (sell_price_drop == "per_sale")', 'sell_price_drop == none']
    assert lowered.orelse == match.orelse


def test_match_as_an_expression():
    (fn,) = items(
        """title "t" {
          function half(revenue: money) = match half_pay_rounding {
            shareholders_get_larger_ten => min(revenue, (revenue + 19) / 20 * 10)
            down_to_ten, none => revenue / 20 * 10
          }
        }"""
    )
    match = fn.result
    assert isinstance(match, s.MatchExpr) and match.orelse is None
    assert [values for values, _ in match.cases] == [("shareholders_get_larger_ten",), ("down_to_ten", "none")]
    # the lowering: a conditional per case but the last, which holds where no test before it does
    # (every value has a case: `rulec check`, E035)
    assert unparse(match.as_cond()) == (
        '(half_pay_rounding == "shareholders_get_larger_ten") ? min(revenue, ((revenue + 19) / 20) * 10) '
        ": (revenue / 20) * 10")


@pytest.mark.parametrize("text", [
    'title "X" {\n  procedure p() "p" {' + " if true {" * 2000 + "}" * 2000 + "}\n}\n",
    'title "X" {\n  function f() "f" = ' + "1 + " * 5000 + "1\n}\n",
])
def test_a_clause_nested_too_deeply_to_read_is_E001_not_a_traceback(tmp_path, capsys, text):
    """2,000 `if`s one inside another: a RecursionError in building the syntax tree, which Lark wrapped
    in a VisitError that escaped `rulec check` as a traceback (the bare RecursionError was caught)."""
    from compiler.app.cli import main

    path = tmp_path / "deep.rules"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error[E001]: the clause nests too deeply to read" in out and "Traceback" not in out
