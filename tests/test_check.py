"""`rulec check` against the schema: one test per diagnostic (code, span, message,
did-you-mean), the quiet summary, the three mistakes of issue 38 on a copy of 1800,
the schema's own consistency, and stale engines."""

from __future__ import annotations

import ast
import pathlib

import pytest

from compiler.lang import syntax as s
from compiler.app.cli import main
from compiler.diagnostics import EXAMPLES, Severity
from compiler.paths import ROOT
from compiler.lang.pipeline import load, load_texts
from compiler.lang.schema import schema_of
from tests.conftest import check_source, codes, only


def at(diagnostic) -> tuple[int, int, int]:
    span = diagnostic.span
    return (span.line, span.column, span.end_column)


# ---------------------------------------------------------------- one test per code


def test_E024_unknown_title_property_with_did_you_mean_and_the_properties_in_help():
    loaded = check_source('title "t" {\n  param cert_limit: int "the limit"\n  param bank: money "cash"\n'
                          '  cert_limt: 7 §1\n}')
    d = only(loaded, "E024")
    assert at(d) == (4, 3, 12)  # the name, not the value
    assert "`cert_limt`" in d.message and "did you mean `cert_limit`?" in d.message
    assert d.suggestions == ("cert_limit",)
    assert "bank, cert_limit" in d.help


def test_E024_unknown_property_of_a_kind_and_of_a_record():
    loaded = check_source(
        'title "t" {\n  kind node "a node" { param kind: {city, town} required "what" param revenue: int "rev" }\n'
        '  kind tile "a tile" { param nodes: list[node] "its nodes" param color: {yellow} "colour" }\n'
        '  tile "5" §1 {\n    colour: yellow\n    nodes: [(kind: city, revnue: 20)]\n  }\n}')
    found = sorted((d.span.line, d.span.column, d.message) for d in loaded.diagnostics if d.code == "E024")
    assert found[0][:2] == (5, 5) and "did you mean `color`?" in found[0][2] and "kind `tile`" in found[0][2]
    assert found[1][:2] == (6, 26) and "did you mean `revenue`?" in found[1][2]


def test_E025_wrong_type_names_the_expected_type_and_the_value():
    loaded = check_source('title "t" {\n  param bank: money | {unlimited} "cash"\n  bank: "lots" §2\n}')
    d = only(loaded, "E025")
    assert at(d) == (3, 9, 15)
    assert d.message == "`bank` takes money ($20) or `unlimited`, not a string"


def test_E025_a_table_for_a_parameter_that_is_no_table():
    loaded = check_source('title "t" {\n  param bank: money "cash"\n  table bank by players §1 { 2 => $10 }\n}')
    assert "is not a table" in only(loaded, "E025").message


def test_E026_a_name_outside_the_enum_lists_the_values_allowed():
    loaded = check_source('title "t" {\n  enum step "steps" { lay_tile, run_routes }\n'
                          '  param operating_steps: list[step] "steps"\n  operating_steps: [lay_tile, run_route] §1\n}')
    d = only(loaded, "E026")
    assert at(d) == (4, 31, 40)
    assert d.expected == ("lay_tile", "run_routes")
    assert "did you mean `run_routes`?" in d.message and d.suggestions == ("run_routes",)


def test_E022_unresolved_reference_names_the_nearest_and_the_kind_that_has_it():
    loaded = check_source(
        'title "t" {\n  kind corporation "a company" { }\n  kind private "a private" { }\n'
        '  kind hex "a hex" { param reserved_for: corporation "who" }\n'
        '  corporation PRR §1 { }\n  private MT §1 { }\n  hex A1 §1 { reserved_for: PPR }\n  hex A3 §1 { reserved_for: MT }\n}')
    first, second = sorted((d for d in loaded.diagnostics if d.code == "E022"), key=lambda d: d.span.line)
    assert at(first) == (7, 29, 32) and "no corporation `PPR`; did you mean `PRR`?" in first.message
    assert first.suggestions == ("PRR",)
    assert at(second) == (8, 29, 31) and "(`MT` is a private)" in second.message


def test_E022_references_in_calls_maps_and_table_rows():
    loaded = check_source(
        'title "t" {\n  kind phase "a phase" { }\n  kind private "p" { param closes: phase "when" }\n'
        '  param float: map[phase, percent] "float by phase"\n  param upgrades: table "the chart"\n'
        '  param counts: int | table "counts"\n'
        '  kind tile "a tile" { }\n  phase "2" §1 { }\n  tile "7" §1 { }\n'
        '  private MT §1 { closes: phase("5") }\n  float: {"2" => 20%, "3" => 30%} §1\n'
        '  table upgrades by tile §1 { "7" => 1  "9" => 2 }\n  table counts by colour §1 { x => 1 }\n}')
    lines = sorted(d.span.line for d in loaded.diagnostics if d.code == "E022")
    assert lines == [10, 11, 12, 13]


def test_E027_required_missing_unless_a_gap_and_required_when():
    loaded = check_source(
        'title "t" {\n  param bank: money required "cash"\n'
        '  param game_end: list[{bank_broken, share_price}] "ends"\n'
        '  param end_share_price: money required when share_price in game_end "the price"\n'
        '  game_end: [share_price] §1\n  kind train "a train" { param price: money required "price"\n'
        '    param count: int required when variant_of == none "count" param variant_of: train "other side" }\n'
        '  train "4" §1 { price: $300 count: 2 }\n  train "3/5" §1 { price: gap "not printed" variant_of: "4" }\n'
        '  train "5" §1 { count: 1 }\n}')
    found = sorted((d.span.line, d.message) for d in loaded.diagnostics if d.code == "E027")
    assert [line for line, _ in found] == [1, 1, 10]
    assert any("bank" in m for _, m in found) and any("end_share_price" in m for _, m in found)
    assert "`price`" in found[2][1]


def test_E028_component_of_an_undeclared_kind():
    loaded = check_source('title "t" {\n  kind private "p" { }\n  privat MT §1 { }\n}')
    d = only(loaded, "E028")
    assert at(d) == (3, 3, 9) and "did you mean `private`?" in d.message


def test_E029_a_type_naming_nothing_and_a_default_of_the_wrong_type():
    loaded = check_source('title "t" {\n  param bank: monye "cash"\n  param rounds: int = "two" "rounds"\n}')
    found = sorted((d.span.line, d.message) for d in loaded.diagnostics if d.code == "E029")
    assert found[0][0] == 2 and "did you mean `money`" in found[0][1]
    assert found[1][0] == 3 and "default" in found[1][1]


def test_E011_a_kind_property_declared_twice():
    loaded = check_source('title "t" {\n  kind private "p" { param cost: money "a" }\n  kind private { param cost: int "b" }\n}')
    assert at(only(loaded, "E011"))[:2] == (3, 18)


def test_a_kind_declared_again_adds_its_properties():
    loaded = check_source('title "t" {\n  kind private "p" { param cost: money "a" }\n  kind private { param income: money "b" }\n'
                          '  private MT §1 { cost: $20 income: $5 }\n}')
    assert codes(loaded, "error") == []


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_every_example_on_the_site_gives_its_code(code):
    loaded = load_texts({"example.rules": EXAMPLES[code]})
    assert [d.code for d in loaded.diagnostics if d.is_error] == [code]


# ---------------------------------------------------------------- quiet when clean


def test_declared_contradictions_and_clashes_are_notes():
    loaded = check_source(
        'title "t" {\n  contradiction c "ten vs twelve" §1, §2 { reading: "twelve" }\n'
        '  clash k "cash" §3, supplement from "ref" { rulebook: 360 supplement: 340 reading: "360" }\n}',
        with_library=True)
    assert only(loaded, "W003").severity is Severity.NOTE
    assert only(loaded, "W004").severity is Severity.NOTE


def test_a_clean_check_of_todays_rulespecs_prints_one_summary_line(capsys):
    assert main(["check"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert ": 0 errors, 0 warnings, " in out[0]


# ---------------------------------------------------------------- issue 38's mistakes on a copy of 1800


def _copy_of_1800(tmp_path, old: str, new: str) -> pathlib.Path:
    text = (ROOT / "rulespecs" / "1800.rules").read_text(encoding="utf-8")
    assert old in text
    target = tmp_path / "1800.rules"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


@pytest.mark.parametrize("old, new, code", [
    ("  cert_limit: 7 ", "  cert_limt: 7 ", "E024"),
    ("  bank: $3720 §2", '  bank: "lots" §2', "E025"),
    ("homes: [(corporation: DRGW, node: 0)]", "homes: [(corporation: DRGX, node: 0)]", "E022"),
])
def test_the_issues_three_mistakes_are_refused_by_check(tmp_path, capsys, old, new, code):
    copy = _copy_of_1800(tmp_path, old, new)
    assert main(["check", str(copy)]) == 1
    out = capsys.readouterr().out
    assert f"error[{code}]" in out
    line = next(i for i, row in enumerate(copy.read_text().splitlines(), 1) if new.strip() in row)
    assert f"1800.rules:{line}:" in out


def test_play_refuses_a_title_that_does_not_check(tmp_path, monkeypatch, capsys):
    import compiler.paths as paths

    rulespecs = tmp_path / "rulespecs"
    (rulespecs / "lib").mkdir(parents=True)
    for path in (ROOT / "rulespecs").rglob("*.rules"):
        target = rulespecs / path.relative_to(ROOT / "rulespecs")
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    bad = rulespecs / "1800.rules"
    bad.write_text(bad.read_text(encoding="utf-8").replace("  bank: $3720 §2", '  bank: "lots" §2'), encoding="utf-8")
    monkeypatch.setattr(paths, "RULESPECS", rulespecs)
    assert main(["play", "1800", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "error[E025]" in err and "does not check" in err
    assert "Traceback" not in err and "TypeError" not in err


# ---------------------------------------------------------------- stale engines


def test_an_engine_whose_rulespecs_changed_is_built_in_memory(rulespecs_loaded):
    from compiler.emit.engines import current_game_class, game_class

    loaded = rulespecs_loaded
    title = loaded.program.titles["1800"]
    Game, note = current_game_class(title, loaded.sources)
    assert Game is game_class("1800") and note is None

    texts = {path: loaded.sources._texts[path] for path in title.source_paths()}
    texts["rulespecs/1800.rules"] = texts["rulespecs/1800.rules"].replace("  bank: $3720 §2", "  bank: $3700 §2")
    edited = load_texts(texts)
    Fresh, note = current_game_class(edited.program.titles["1800"], edited.sources)
    assert Fresh is not game_class("1800")
    assert "rulespecs/1800.rules" in note and "`rulec compile`" in note
    assert Fresh.DATA.properties["bank"] == 3700


def test_each_engine_records_the_rulespecs_it_was_built_from(rulespecs_loaded):
    from compiler.emit.engines import engine_module

    loaded = rulespecs_loaded
    for title in loaded.every_title():
        from compiler.emit.emitter import module_name

        recorded = engine_module(module_name(title)).SOURCES
        assert recorded == {p: loaded.sources.digest(p) for p in title.source_paths()}, title.display_name


# ---------------------------------------------------------------- the schema itself


#: properties the runtime reads by a name it builds (compiler/runtime/game.py's GameBase
#: and its parts, listing.py, auctions.py, ...): the `<action>_options` a title action's
#: parameter ranges over, a removal's `*_group` lists, `<kind>_value_at_end`, a revenue
#: bonus's `limit_a` / `limit_b`, and the company property a draft's `last_company_floor`
#: names (`draft_floor`)
DYNAMIC_READS = ("_options", "_group", "_value_at_end", "limit_a", "limit_b", "draft_floor")


def test_a_property_not_declared_documentation_is_read_by_the_engine_or_the_verifier(rulespecs_loaded):
    """The schema's `documentation` flag is honest one way: a property without it is
    named by the runtime, the emitter, the verifier, the check or a DSL clause."""
    readers = ("compiler/runtime/", "compiler/verify/", "compiler/emit/", "compiler/app/cli.py",
               "compiler/app/command.py", "compiler/app/playout.py", "compiler/lang/check",
               "compiler/docs/coverage.py", "compiler/lang/resolve.py")
    literals: set[str] = set()
    for path in (ROOT / "compiler").rglob("*.py"):
        if str(path.relative_to(ROOT)).startswith(readers):
            literals |= {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                         if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    loaded = rulespecs_loaded
    named: set[str] = set()
    for title in loaded.every_title():
        for clause in title.clauses:
            if isinstance(clause.decl, (s.Routine, s.Trigger, s.Invariant)):
                for node in s.walk(clause.decl):
                    named |= {node.name} if isinstance(node, (s.Name, s.Member)) else set()
                    named |= {node.value} if isinstance(node, s.Str) else set()
    unread = set()
    for title in loaded.every_title():
        schema = schema_of(title)
        for owner, params in [("title", schema.params)] + [(k.name, k.params) for k in schema.kinds.values()]:
            for param in params.values():
                if param.documentation or param.name in literals or param.name in named:
                    continue
                if any(param.name.endswith(suffix) for suffix in DYNAMIC_READS):
                    continue
                unread.add((owner, param.name))
    assert not unread, sorted(unread)


def test_no_library_parameter_is_a_bare_name_where_its_values_are_a_closed_set(rulespecs_loaded):
    loaded = rulespecs_loaded
    title = loaded.program.titles["1800"]
    bare = [c.name for c in title.of_kind("param") if c.origin.kind == "library" and str(c.decl.type) == "name"]
    assert bare == []


def test_check_of_one_file_checks_the_titles_built_from_it_and_reports_the_same(tmp_path):
    """`rulec check FILE` reads the other rulespecs for context but checks only the titles built
    from FILE (`load(checking=...)`): FILE's diagnostics are those of a full check, and no time
    goes to the other titles (their own errors are not looked for)."""
    from compiler.paths import display
    from tests.conftest import TOY

    toy = (TOY / "toy.rules").read_text(encoding="utf-8").replace(
        "  winner: highest_net_worth §4\n", "  winner: highest_net_worth §4\n  cert_limt: 7 §4\n", 1)
    assert "cert_limt" in toy  # an error of the toy's own, which checking the other file must not report
    (tmp_path / "toy.rules").write_text(toy, encoding="utf-8")
    other = tmp_path / "other.rules"
    other.write_text('title "Other" {\n  uses lib "18xx"\n  players: 2..4 §1\n  no_such_property: 3 §1\n}\n',
                     encoding="utf-8")
    shown = display(other)
    full = load([tmp_path])
    only = load([tmp_path], checking=frozenset({shown}))
    in_file = [d for d in full.diagnostics if d.span is not None and d.span.path == shown]
    assert "E024" in [d.code for d in in_file]
    assert [d for d in only.diagnostics if d.span is None or d.span.path == shown] == in_file
    toy_errors = [d for d in full.diagnostics if d.span is not None and d.span.path == display(tmp_path / "toy.rules")]
    assert toy_errors and not [d for d in only.diagnostics if d in toy_errors]


# ---------------------------------------------------------------- issue 43: mistakes that do not pass silently
#
# Each on a copy of the toy title (tests/fixtures/toy), which checks clean: one edit, the code
# it gets and the line it is on.


def _toy_with(*edits: tuple[str, str]) -> tuple[str, object]:
    from tests.conftest import TOY

    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text, check_source(text, "toy.rules", with_library=True)


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if fragment in row)


def _errors(loaded, code: str) -> list:
    found = [d for d in loaded.diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in loaded.diagnostics if d.is_error]
    return found


def test_the_toy_checks_clean():
    _, loaded = _toy_with()
    assert codes(loaded, "error") == []


def test_E030_a_title_with_trains_and_no_map_is_refused_on_its_title_line():
    start, end = '  section §5 "Map"', "  // the toy's own properties"
    toy = _toy_with()[0]
    the_map = toy[toy.index(start):toy.index(end)]
    text, loaded = _toy_with((the_map, ""), ("    home: A1 §5\n", ""))
    d = only(loaded, "E030")
    assert d.span.line == _line_of(text, 'title "Toy" {') and d.span.path == "toy.rules"
    assert "no map" in d.message and "map: gap" in d.help
    # a map the rulebook does not give, declared as a gap, is no error (a W002 note)
    text, loaded = _toy_with((the_map, '  map: gap "not in the rulebook"\n'), ("    home: A1 §5\n", ""))
    assert "E030" not in codes(loaded) and "W002" in codes(loaded)


def test_E022_a_home_hex_that_does_not_exist():
    text, loaded = _toy_with(("    home: A1 §5", "    home: A9 §5"))
    d = only(loaded, "E022")
    assert (d.span.line, d.span.column) == (_line_of(text, "home: A9"), 11)
    assert "no hex `A9`" in d.message and d.help == "hexes: A1, B2"


def test_E031_a_home_hex_with_no_city_and_a_homes_entry_naming_no_city():
    blank = '  hex C3 §5 {\n    color: white §5\n    nodes: [(kind: town, revenue: 10)] §5\n    paths: [] §5\n  }\n'
    text, loaded = _toy_with(("    home: A1 §5", "    home: C3 §5"), ('  hex B2 "Endtown"', blank + '  hex B2 "Endtown"'))
    d = only(loaded, "E031")
    assert (d.span.line, d.span.column) == (_line_of(text, "home: C3"), 11)
    assert "hex C3" in d.message and "TOY" in d.message
    text, loaded = _toy_with(("    paths: [(a: 5, b: n0)] §5", "    paths: [(a: 5, b: n0)] §5\n    homes: [(corporation: TOY, node: 1)] §5"))
    d = only(loaded, "E031")
    assert (d.span.line, d.span.column) == (_line_of(text, "homes: [(corporation: TOY"), 38)


def test_E032_a_tile_outside_the_tile_set_and_E022_a_tile_that_does_not_exist():
    tables = ('  table tile_counts by tile §5 {\n    "7" => 2 §5\n    "8" => 2 §5\n  }\n'
              '  table upgrades by tile §5 {\n    "7" => ["8", "9"] §5\n    "8" => ["9999"] §5\n  }\n')
    text, loaded = _toy_with(('  hex A1 "Toyville"', tables + '  hex A1 "Toyville"'))
    d = only(loaded, "E032")
    assert d.span.line == _line_of(text, '"7" => ["8", "9"]') and "'9'" in d.message
    assert "tile_counts" in d.help
    d = only(loaded, "E022")
    assert d.span.line == _line_of(text, '"8" => ["9999"]') and "no tile `9999`" in d.message


def test_E024_a_misspelt_property_of_the_title_and_of_a_component():
    text, loaded = _toy_with(("  sold_out_rise: true §2", "  sold_out_rse: true §2"),
                             ("    distance: 3 §3", "    distnce: 3 §3"))
    found = sorted(((d.span.line, d.span.column), d.suggestions[0]) for d in _errors(loaded, "E024"))
    assert found == [((_line_of(text, "sold_out_rse"), 3), "sold_out_rise"),
                     ((_line_of(text, "distnce"), 5), "distance")]


def test_E026_a_misspelt_enum_value():
    text, loaded = _toy_with(("  capitalisation: incremental §2", "  capitalisation: incremntal §2"))
    d = only(loaded, "E026")
    assert (d.span.line, d.span.column) == (_line_of(text, "incremntal"), 19)
    assert d.suggestions == ("incremental",)


@pytest.mark.parametrize("old, new", [
    ("  auction_pass_final: true §2", "  auction_pass_final: false §2"),
    ("  seating_after_auction: unchanged §2", "  seating_after_auction: passing_order §2"),
])
def test_E033_a_value_the_library_accepts_and_the_runtime_does_not_play(old, new):
    text, loaded = _toy_with(("  first_round: stock §1", "  first_round: auction §1"), (old, new))
    d = only(loaded, "E033")
    assert d.span.line == _line_of(text, new.strip()) and "not implemented by the runtime" in d.message
    # where the runtime never reads it (no opening auction), it is no error
    _, loaded = _toy_with((old, new))
    assert "E033" not in codes(loaded)


def test_E027_a_private_with_no_worth_at_the_end_where_the_title_gives_none():
    """Issue 43: a private's end-of-game value missing surfaced as a RuleGap from the final score;
    `check` asks for it where the title sets no private_value_at_end."""
    private = '  private MT "Midland" §2 {\n    cost: $20 §2\n    income: $5 §2\n  }\n'
    text, loaded = _toy_with(('  corporation TOY "Toy Railway" §2 {', private + '  corporation TOY "Toy Railway" §2 {'))
    d = only(loaded, "E027")
    assert d.span.line == _line_of(text, 'private MT "Midland"') and "`end_value`" in d.message
    _, loaded = _toy_with(('  corporation TOY "Toy Railway" §2 {', private + '  corporation TOY "Toy Railway" §2 {'),
                          ("  winner: highest_net_worth §4", "  winner: highest_net_worth §4\n  private_value_at_end: face §4"))
    assert "E027" not in codes(loaded)


# ---------------------------------------------------------------- match over an enum value (issue 32)

MATCH_TITLE = '''title "t" {
  param sell_price_drop: {per_share, per_sale} | none "how a sale moves the price down"
  sell_price_drop: per_sale §8
  procedure price_drop(corporation: corporation, kind: {one, two}) "the drop after a sale" §8 {
    %s
  }
}
'''


@pytest.mark.parametrize("body, found", [
    ("match sell_price_drop { per_share, per_sale => { } none => { } }", []),
    ("match sell_price_drop { per_share => { } else { } }", []),
    ("match kind { one => { } two => { } }", []),
    ("match sell_price_drop { per_share => { } per_sale => { } }", [("E035", 5, 11, "`none`")]),
    ("match sell_price_drop { per_share, per_shares => { } else { } }", [("E034", 5, 40, "per_shares")]),
    ("match sell_price_drop { per_sale => { } per_sale => { } else { } }", [("E034", 5, 45, "two cases")]),
    ("let k = kind\n    match k { one => { } else { } }", [("E034", 6, 11, "enum value")]),
    ("match cash(corporation) { one => { } else { } }", [("E034", 5, 11, "enum value")]),
])
def test_a_match_covers_each_value_of_its_enum_once(body, found):
    """`rulec check` makes every match total: a case per value of the subject's enum, or an `else`;
    a case naming no value (or one twice), and a subject that is no enum value, refused."""
    loaded = load_texts({"t.rules": MATCH_TITLE % body})
    got = [(d.code, d.span.line, d.span.column) for d in loaded.diagnostics if d.is_error]
    assert got == [f[:3] for f in found], [d.message for d in loaded.diagnostics if d.is_error]
    for d, f in zip([d for d in loaded.diagnostics if d.is_error], found):
        assert f[3] in d.message


def test_a_match_expression_covers_each_value_too():
    text = ('title "t" {\n'
            '  param half_pay_rounding: {shareholders_get_larger_ten, down_to_ten} "how a half payout rounds"\n'
            '  half_pay_rounding: down_to_ten §11\n'
            '  function half(revenue: money) "the half" §11 = match half_pay_rounding { down_to_ten => revenue / 20 * 10 }\n'
            '  function whole(revenue: money) "all" §11 = match half_pay_rounding { down_to_ten => 1  else => 2 }\n'
            '  invariant rounded "x" §11 { match half_pay_rounding { down_to_ten => true } }\n'
            '}\n')
    loaded = load_texts({"t.rules": text})
    assert [(d.code, d.span.line, d.span.column) for d in loaded.errors] == [("E035", 4, 56), ("E035", 6, 37)]
    assert "`shareholders_get_larger_ten`" in loaded.errors[0].message


def test_E020_a_map_or_tile_value_outside_its_declared_range(tmp_path, capsys):
    """A city with 0 station circles, or a revenue of -5, checked clean. The library declares the
    range of such a property (`param slots: int in 1..`, `param revenue: ... in 0..`), and a value
    outside it, in a component or in a record of that kind (a hex's or a tile's nodes, an off-board's
    revenue map), is E020 at the number, with the range and where it is declared."""
    text = (ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
    old = "nodes: [(kind: city, revenue: 20, slots: 1)] §5"
    assert old in text
    bad = text.replace(old, "nodes: [(kind: city, revenue: -5, slots: 0)] §5", 1)
    copy = tmp_path / "toy.rules"
    copy.write_text(bad, encoding="utf-8")
    assert main(["check", str(copy)]) == 1
    out = capsys.readouterr().out
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if "slots: 0" in row)
    column = bad.splitlines()[line - 1].index("-5") + 1
    assert f"toy.rules:{line}:{column}: error[E020]: `revenue` is at least 0, not -5" in out, out
    column = bad.splitlines()[line - 1].index("slots: 0") + len("slots: ") + 1
    assert f"toy.rules:{line}:{column}: error[E020]: `slots` is at least 1, not 0" in out, out
    assert "lib/tiles.rules:" in out  # where the range is declared
    # a range a title declares for a kind of its own is held to the same way, in a map's values too
    own = load_texts({"own.rules": text.replace(
        'param winner: {highest_net_worth} documentation "who wins"',
        'param winner: {highest_net_worth} documentation "who wins"\n'
        '  param bonus_by_phase: map[int, money] in 0..100 "a bonus by phase"\n'
        '  bonus_by_phase: {2 => $10, 3 => $120}', 1)})
    found = [d for d in own.diagnostics if d.code == "E020"]
    assert [d.message for d in found] == ["`bonus_by_phase` is from 0 to 100, not 120"], own.diagnostics


@pytest.mark.parametrize("declared, code, message, at", [
    # an empty range: every value was refused as "from 5 to 1", and the declaration said nothing
    ('param bonus: int in 5..1 "b"', "E029", "`bonus` is declared `in 5..1`, which holds no number", "in 5..1"),
    # a range on what holds no number held nothing: it was silently ignored
    ('param label: string in 0..5 "b"', "E029", "`label` is declared `in 0..5`, but its type `string` holds no number",
     "in 0..5"),
    ('param pick: {a, b} in 0..5 "b"', "E029", "`pick` is declared `in 0..5`, but its type `{a, b}` holds no number", "in 0..5"),
    ('param pairs: map[int, string] in 0..5 "b"', "E029",
     "`pairs` is declared `in 0..5`, but its type `map[int, string]` holds no number", "in 0..5"),
    # a default outside its own range was taken as it is
    ('param bonus: int in 1..5 = 0 "b"', "E020", "`bonus` is from 1 to 5, not 0", "0 \"b\""),
    ('param bonus: list[money] in 0.. = [$10, -$5] "b"', "E020", "`bonus` is at least 0, not -5", "-$5"),
])
def test_a_range_that_holds_no_value_or_its_default_is_an_error(declared, code, message, at):
    """`param NAME: TYPE in LOW..HIGH`: a range that cannot hold a value, or on a type that holds
    no number, is a mistake in the declaration (E029, at the range); a default outside the range is
    E020 at the default, as a value given is."""
    text = (ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
    old = 'param winner: {highest_net_worth} documentation "who wins"'
    assert old in text
    from tests.conftest import LIBRARIES

    loaded = load_texts({**LIBRARIES, "own.rules": text.replace(old, f"{old}\n  {declared}", 1)})
    found = [(d.code, d.message) for d in loaded.errors]
    assert found == [(code, message)], loaded.errors
    rows = text.replace(old, f"{old}\n  {declared}", 1).splitlines()
    line = next(i for i, row in enumerate(rows, 1) if declared in row)
    span = loaded.errors[0].span
    assert (span.path, span.line, span.column) == ("own.rules", line, rows[line - 1].index(at) + 1)


# ---------------------------------------------------------------- the breaker's holes (branch break58)


@pytest.mark.parametrize("old, new, words, suggestion", [
    ("sanction cert_limit for dividend", "sanction cert_limt for dividend", "no invariant `cert_limt`", "cert_limit"),
    ("sanction cert_limit for dividend", "sanction cert_limit for divdend", "no action, trigger, routine or runtime step "
                                                                           "`divdend`", "dividend"),
    ("sanction cert_limit for end_stock_round", "sanction cert_limit for end_stock_rond", "`end_stock_rond`",
     "end_stock_round"),
])
def test_E010_a_sanction_naming_no_invariant_or_action(old, new, words, suggestion):
    """A sanction with a typo in its invariant or its action checked clean: the verifier never applied
    it and only listed it among the sanctions no check needed; the runtime's monitor never allowed the
    breach it names. E010 at the misspelt name, with the nearest known one."""
    text, loaded = _toy_with((old, new))
    d = only(loaded, "E010")
    line = _line_of(text, new)
    wrong = next(w for w in new.split()[1::2] if w not in old.split())
    assert (d.span.line, d.span.column) == (line, text.splitlines()[line - 1].index(wrong + " ") + 1)
    assert words in d.message and d.suggestions[0] == suggestion, d.message


def test_a_sanction_may_name_the_titles_own_invariant_a_routine_a_builtin_or_a_runtime_step():
    text, loaded = _toy_with(("  sanction cert_limit for end_stock_round §2",
                              '  invariant toy_cash "cash" §2 { true }\n'
                              '  sanction toy_cash for take_presidency §2 reading "r"\n'
                              '  sanction pool_cap for market_move §2 reading "r"\n'
                              '  sanction holding_cap for corporation_closed §2 reading "r"\n'
                              '  sanction bids_valid for certificates §2 reading "r"\n'
                              "  sanction cert_limit for end_stock_round §2"))
    assert not loaded.errors, loaded.errors


def test_the_sanctions_names_are_the_verifiers_and_the_runtimes():
    """The invariants a sanction may name are those the verifier proves (both read
    `compiler.lang.invariant_names`); `compiler.lang.sanctions` lists the runtime steps, since the checker
    may not import the verifier: that list is theirs, no more, no fewer."""
    import ast
    import re

    from compiler.lang.sanctions import RUNTIME_STEPS, STANDARD_INVARIANTS
    from compiler.verify.invariants import GUARDED, LEMMAS, STANDARD

    assert list(STANDARD_INVARIANTS) == [x[0] for x in STANDARD + GUARDED + LEMMAS]
    steps = set(re.findall(r'Transition\(\s*"(\w+)", "runtime"', (ROOT / "compiler/verify/translate.py").read_text()))
    for path in (ROOT / "compiler/runtime").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("_sanctioned", "_sanction_excess") and len(node.args) == 2 \
                    and isinstance(node.args[1], ast.Constant):
                steps.add(node.args[1].value)
            if isinstance(node, ast.FunctionDef) and node.name == "_sanction_excess":
                steps.add(node.args.defaults[-1].value)
            if isinstance(node, ast.FunctionDef) and node.name == "_sanctioned":
                steps |= {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and c.value == "end_stock_round"}
    assert {"take_over", "market_move", "corporation_closed", "end_stock_round"} <= steps
    assert sorted(RUNTIME_STEPS) == sorted(steps)


@pytest.mark.parametrize("old, new, message", [
    ("    count: 2 §3", "    count: -1 §3", "`count` is a number of copies or uses, at least 1, not -1"),
    ("    count: 2 §3", "    count: 0 §3", "`count` is a number of copies or uses, at least 1, not 0"),
    ("    count: 1 §3", "    count: {2 => 0} §3", "`count` is a number of copies or uses, at least 1, not 0"),
    ("    distance: 3 §3", "    distance: [(nodes: [city], pay: -2)] §3", "`pay` is a number of stops, at least 0, not -2"),
    ("    price: $100 §3", "    price: -$100 §3", "`price` is an amount of money, $0 or more, not -$100"),
    ("    2 => $300 §1", "    2 => -$300 §1", "`starting_cash` is an amount of money, $0 or more, not -$300"),
    ("    tokens: [$0] §2", "    tokens: [-$40] §2", "`tokens` is an amount of money, $0 or more, not -$40"),
    ("  cert_limit: 2 §2", "  cert_limit: 0 §2", "`cert_limit` is a number of certificates, at least 1, not 0"),
    ("  bank_trains_per_turn: 1 §3", "  bank_trains_per_turn: -1 §3", "`bank_trains_per_turn` is a number of trains"),
    ("    shares: [40%, 20%, 20%, 20%] §2", "    shares: [40%, 20%, 20%, 20%, 0%] §2",
     "`shares` is a share of a corporation, from 1% to 100%, not 0%"),
    ("    operating_rounds: 1 §3", "    operating_rounds: 0 §3", "`operating_rounds` is a number of operating rounds"),
])
def test_E020_a_negative_or_zero_amount_where_the_rules_need_more(old, new, message):
    """A train's `count: -1` or `0`, a `price: -$100`, a starting cash of -$300, a 0% certificate, a
    certificate limit of 0 ... checked clean, and play took them as they were (a 1800 with `count: -1`
    played to the end). Each is E020 at the number."""
    text, loaded = _toy_with((old, new))
    d = only(loaded, "E020")
    assert message in d.message, d.message
    line = _line_of(text, new.strip())
    assert d.span.line == line
    assert text.splitlines()[line - 1][d.span.column - 1] in "-0"


def test_E020_a_negative_amount_is_reported_once_where_a_range_is_declared():
    """`money in 0..` refused -$5 already (the declared range); the negative amount is not said twice."""
    text = (ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
    from tests.conftest import LIBRARIES

    old = 'param winner: {highest_net_worth} documentation "who wins"'
    loaded = load_texts({**LIBRARIES, "own.rules": text.replace(
        old, old + '\n  param bonus: list[money] in 0.. "b"\n  bonus: [$10, -$5] §1', 1)})
    assert [d.message for d in loaded.errors] == ["`bonus` is at least 0, not -5"]


@pytest.mark.parametrize("edits, words", [
    ((("  free_pick: none §2", "  free_pick: minor §2"), ("  first_round: stock §1", "  first_round: auction §1")),
     "`free_pick: minor` without `picks_operate: true` is not played"),
    ((("  free_pick: none §2", "  free_pick: minor §2\n  picks_operate: false §2"),
      ("  first_round: stock §1", "  first_round: auction §1")),
     "`free_pick: minor` without `picks_operate: true` is not played"),
    ((("  free_pick: none §2", "  free_pick: minor §2\n  picks_operate: true §2"),),
     "the players pick after an opening auction only"),
])
def test_E033_a_free_pick_the_librarys_pick_does_not_play(edits, words):
    """The library's pickable() offers only minors picked to operate (`picks_operate`), and picking()
    holds only after an opening auction: 1880 Romania with `picks_operate: false` checked clean and
    random play stalled at the first pick ("each player selects one investor; may not pass", every bid
    refused). E033 at free_pick's value."""
    text, loaded = _toy_with(*edits)
    d = only(loaded, "E033")
    line = _line_of(text, "free_pick: minor")
    assert (d.span.line, d.span.column) == (line, 14) and words in d.message, d.message
    _, loaded = _toy_with(("  free_pick: none §2", "  free_pick: minor §2\n  picks_operate: true §2"),
                          ("  first_round: stock §1", "  first_round: auction §1"))
    assert "E033" not in codes(loaded)


@pytest.mark.parametrize("old, new, words", [
    ('  hex B2 "Endtown" §5 {', '  hex b2 "Endtown" §5 {', "`b2` is no hex id"),
    ('  hex B2 "Endtown" §5 {', '  hex B3 "Endtown" §5 {', "hex B3 is off the grid: on a flat map the hexes are A1"),
    ('  hex B2 "Endtown" §5 {', '  hex Z98 "Endtown" §5 {', "hex Z98 neighbours no other hex of the map"),
])
def test_E020_a_hex_the_board_cannot_place(old, new, words):
    """A hex named `d4` checked clean and play refused the map as "a rulec bug to report"; a hex off
    the grid (`D5` among A1, B2, ...) or far from every other hex checked clean and played, out of
    reach of all track. E020 at the hex's id (a map overlay, `--map FILE`, is held to the same)."""
    text, loaded = _toy_with((old, new))
    found = [d for d in loaded.errors if d.code == "E020" and d.span.line == _line_of(text, new.strip())]
    assert len(found) == 1 and words in found[0].message, loaded.errors
    assert found[0].span.column == 7
    # (the toy's two hexes apart: A1 neighbours none either, and is said so too)
    assert len(loaded.errors) == (2 if "Z98" in new else 1), loaded.errors


@pytest.mark.parametrize("edits, words, at", [
    ((('    on_train: "3" §3', '    on_train: "3" §3\n  }\n  phase "4" §3 {\n    on_train: "3" §3\n'
                               '    tiles: [yellow] §3\n    train_limit: 2 §3\n    operating_rounds: 2 §3'),),
     "phase 4 never comes: the first 3 train begins phase 3", ('    on_train: "3" §3', 2)),
    ((('  train_supply_order: ["2", "2", "3"] §1', '  train_supply_order: ["2", "2"] §1'),),
     "phase 3 never comes: the bank never sells a 3 train", ('    on_train: "3" §3', 1)),
    ((('    rusts_on: "3" §3', '    rusts_on: "2" §3'),), "train 2 rusts on its own type", ('    rusts_on: "2" §3', 1)),
    ((('    on_train: "3" §3', '    on_train: "3" §3\n  }\n  phase "4" §3 {\n    on_train: "2" §3\n'
                               '    tiles: [yellow] §3\n    train_limit: 2 §3\n    operating_rounds: 2 §3'),),
     "phase 4 comes before phase 3, which the title lists first: the bank sells the 2 train before the 3 train",
     ('    on_train: "2" §3', 1)),
    ((('  private_sale_order: [] §1', '  private_sale_order: [MT, MT] §1'),
      ('  corporation TOY "Toy Railway" §2 {', '  private MT "Midland" §2 {\n    cost: $20 §2\n    income: $5 §2\n'
                                               '    end_value: $0 §2\n  }\n  corporation TOY "Toy Railway" §2 {')),
     "`private_sale_order` names MT twice", ("  private_sale_order: [MT, MT] §1", 1)),
    ((("    tokens: [$0] §2", "    tokens: [] §2"),), "corporation TOY has a home, A1, and no station token",
     ("    tokens: [] §2", 1)),
    ((("  holding_cap: 80% §2", "  holding_cap: 30% §2"),),
     "the holding cap, 30%, is below the president's certificate of corporation TOY, 40%", ("  holding_cap: 30% §2", 1)),
])
def test_E020_a_phase_that_never_comes_a_train_that_rusts_itself(edits, words, at):
    """Two phases on the first 3 train (the second never came), a phase on a train the bank never sells,
    a 2 train that rusts on the 2 (1800 so edited checked clean and random play stalled), a private
    offered twice: each checked clean. E020 at the name."""
    text, loaded = _toy_with(*edits)
    d = only(loaded, "E020")
    fragment, nth = at
    lines = [i for i, row in enumerate(text.splitlines(), 1) if fragment in row]
    assert words in d.message and d.span.line == lines[nth - 1], (d.message, d.span)


@pytest.mark.parametrize("reads, found", [
    ("corporation.flaot > 0", [("flaot", "float")]),
    ("company.cots > $0", [("cots", "cost")]),
    ("corporation.float > 0 and corporation.floated and company.cost > $0 and company.key != none", []),
])
def test_E024_a_field_a_parameters_kind_does_not_have(reads, found):
    """`corporation.flaot` in an action whose parameter is `corporation: corporation` checked clean; play
    stopped on a RuleGap ("the rulespec does not give it") the first time the action was tried. E024 at
    the field read, with the nearest field of the kind (a union of kinds: any of theirs)."""
    action = (f'  action toy_check(corporation: corporation, company: private | minor) "x" §3 {{\n'
              f'    require {reads} else "x" §3\n  }}\n  section §4 "End"')
    text, loaded = _toy_with(('  section §4 "End"', action))
    got = [(d.message.split("`")[1], d.suggestions[0]) for d in loaded.errors if d.code == "E024"]
    assert got == found, loaded.errors
    for d in loaded.errors:
        assert d.span.line == _line_of(text, "    require ")


def test_a_field_of_a_parameter_bound_again_is_not_read_as_the_kinds():
    action = ('  action toy_check(corporation: corporation) "x" §3 {\n    let corporation = 3\n'
              '    require corporation.anything > 0 else "x" §3\n  }\n  section §4 "End"')
    _, loaded = _toy_with(('  section §4 "End"', action))
    assert "E024" not in codes(loaded)


def test_E021_a_table_by_players_without_a_row_for_a_count_the_title_takes():
    """`players: 2..3` with `table starting_cash by players { 2 => $300 }` checked clean, and play of three
    refused at setup ("the table has no row for {'players': 3}"). E021 was declared and never given."""
    text, loaded = _toy_with(("  players: 2 §1", "  players: 2..4 §1"))
    # the title's table, and the one its variant Rich replaces it with
    found = sorted((d.span.line, d.span.column, d.message) for d in loaded.diagnostics if d.code == "E021")
    assert [(line, column) for line, column, _ in found] == [(_line_of(text, "  table starting_cash"), 3),
                                                              (_line_of(text, "replace table starting_cash"), 11)]
    assert "no row for 3, 4 players, though Toy takes 2..4" in found[0][2], found
    text, loaded = _toy_with(("  players: 2 §1", "  players: 2..4 §1"),
                             ("    2 => $300 §1", "    2 => $300 §1\n    3..4 => $200 §1"))
    assert [d.span.line for d in loaded.diagnostics if d.code == "E021"] == [_line_of(text, "replace table")]


@pytest.mark.parametrize("old, new", [
    ("  par_prices: [$70] §2", "  par_prices: [$75] §2"),
    ("    par_prices: [$70] §2", "    par_prices: [$70, $75] §2"),
])
def test_E020_a_par_price_no_cell_of_the_market_has(old, new):
    """A par price of $61 where the market's cells are $60 and $70 checked clean: a corporation started
    at it has no place on the market. E020 at the price, with the nearest cells'."""
    text, loaded = _toy_with((old, new))
    d = only(loaded, "E020")
    line = _line_of(text, new.strip())
    assert (d.span.line, d.span.column) == (line, text.splitlines()[line - 1].index("$75") + 1)
    assert d.message == "the par price $75 is no price of the market" and "$70, $80" in d.help


@pytest.mark.parametrize("test, found", [
    ("first_round == payout", "never `payout` (a value of enum `dividend_kind`): the comparison is always false"),
    ("first_round != payout", "the comparison is always true"),
    ("first_round in [stock, payout]", "never `payout` (a value of enum `dividend_kind`): that item of the list never"),
    ("first_round == stock or first_round in [auction, draft]", None),
])
def test_E026_an_enum_property_compared_with_another_enums_value(test, found):
    """`first_round == payout` (a value of the dividend kinds, not of first_round) checked clean: the
    comparison is false in every game, and the rule it guards silently never (or always) applies."""
    action = (f'  action toy_check(corporation: corporation) "x" §3 {{\n    require {test} else "x" §3\n  }}\n'
              '  section §4 "End"')
    text, loaded = _toy_with(('  section §4 "End"', action))
    got = [d for d in loaded.errors if d.code == "E026"]
    if found is None:
        assert not got, got
        return
    assert len(got) == 1 and found in got[0].message, got
    line = _line_of(text, "    require ")
    assert (got[0].span.line, got[0].span.column) == (line, text.splitlines()[line - 1].index("payout") + 1)


def test_E036_a_trigger_binding_more_than_its_runtime_event_gives():
    """`trigger t on phase_start(phase, x)` checked clean; play stopped on a TypeError in the trigger's
    call the first time a phase began. E036 at the event, with what it gives."""
    trigger = ('  trigger toy_phase on phase_start(phase, extra) "x" §3 {\n    let x = 1\n  }\n'
               '  section §4 "End"')
    text, loaded = _toy_with(('  section §4 "End"', trigger))
    d = only(loaded, "E036")
    assert d.span.line == _line_of(text, "trigger toy_phase") and d.span.column == 24
    assert d.message == "`phase_start` gives 1 value (phase); trigger toy_phase binds 2", d.message


def test_the_runtime_events_values_are_the_runtimes():
    """`vocabulary.RUNTIME_EVENTS`, whose values `compiler.lang.events` counts, is the runtime's
    `self.emit(EVENT, ...)` calls and the library's `emit`s: every one of them, with as many values, and no
    other event."""
    import ast
    import re

    from compiler.runtime.vocabulary import RUNTIME_EVENTS

    calls = []
    for path in (ROOT / "compiler/runtime").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                calls.append((node.args[0].value, len(node.args) - 1))
    # and the library's `emit`s of the events the table lists (set_par's corporation_started)
    library = (ROOT / "rulespecs/lib/18xx.rules").read_text(encoding="utf-8")
    calls += [(name, len([a for a in args.split(",") if a.strip()]))
              for name, args in re.findall(r"^\s*emit ([a-z_]+)\(([^)]*)\)", library, re.M) if name in RUNTIME_EVENTS]
    assert {name for name, _ in calls} == set(RUNTIME_EVENTS)
    for name, count in calls:
        assert len(RUNTIME_EVENTS[name]) == count, name


@pytest.mark.parametrize("when, found", [('"9"', True), ('"3"', False), ("3", False)])
def test_E022_a_phase_start_trigger_comparing_its_phase_with_no_phases_key(when, found):
    """`trigger t on phase_start(phase) when phase == "IIII"` checked clean: the trigger never ran."""
    trigger = (f'  trigger toy_phase on phase_start(phase) when phase == {when} "x" §3 {{\n    let x = 1\n  }}\n'
               '  section §4 "End"')
    text, loaded = _toy_with(('  section §4 "End"', trigger))
    got = [d for d in loaded.errors if d.code == "E022"]
    assert len(got) == int(found), loaded.errors
    if found:
        line = _line_of(text, "trigger toy_phase")
        assert (got[0].span.line, got[0].span.column) == (line, text.splitlines()[line - 1].index('"9"') + 1)
        assert got[0].message.startswith("no phase `9`") and got[0].help == "phases: 2, 3"
