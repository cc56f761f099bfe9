"""Every diagnostic code: the right code, at the right line and column."""

from __future__ import annotations

import json

import pytest

from compiler.app.cli import main
from compiler.diagnostics import CODES, Diagnostic, Severity, SourceMap, Span, render
from tests.conftest import check_source, codes, only


def at(diagnostic) -> tuple[int, int]:
    return (diagnostic.span.line, diagnostic.span.column)


# ---------------------------------------------------------------- syntax


def test_E001_unexpected_token_points_at_the_token():
    loaded = check_source('title "t" {\n  private MT {\n    cost $20\n  }\n}\n')
    d = only(loaded, "E001")
    assert at(d) == (3, 10)
    assert d.help == "a property needs ':' between its name and its value"


def test_E001_missing_type_in_parameter_list():
    loaded = check_source('title "t" {\n  action a(P) { }\n}')
    d = only(loaded, "E001")
    assert at(d) == (2, 12)  # "P" alone: a parameter is "P: type"
    assert d.help == "a parameter needs a type: (P: player)"


def test_E002_unexpected_character():
    loaded = check_source('title "t" {\n  x: 1 ~ 2\n}')
    d = only(loaded, "E002")
    assert at(d) == (2, 8)
    assert "'~'" in d.message


@pytest.mark.parametrize("text, words", [
    ('title "t" {\n  x: "about 90 minutes\n}', "a string that does not end on its line"),
    ('title "t" {\n  x: "C:\\q"\n}', "a string with an escape the DSL does not know"),
])
def test_E002_a_broken_string_says_so(text, words):
    """A string cut off at the end of its line, or holding an unknown escape, was "unexpected character
    '\"'" at its opening quote; now the message says which."""
    d = only(check_source(text), "E002")
    assert at(d) == (2, 6) and words in d.message



@pytest.mark.parametrize("value, words", [
    ("$-3720", "a money amount cannot be negative"),
    ("$ 3720", "a money amount is `$` followed by digits ($3720)"),
])
def test_E002_a_broken_money_amount_says_so(value, words):
    """`bank: $-3720` was "unexpected character '$'", which says nothing of what is wrong with it."""
    d = only(check_source(f'title "t" {{\n  bank: {value} §1\n}}'), "E002")
    assert at(d) == (2, 9) and words in d.message, d.message

def test_a_byte_order_mark_is_read_as_nothing(tmp_path, capsys):
    """A file saved with a byte order mark (Notepad's UTF-8) was "E002 unexpected character '\\ufeff'"
    at 1:1, under a character no editor shows; the mark is no part of the text now."""
    marked = tmp_path / "marked.rules"
    marked.write_bytes('\ufefftitle "t" {\n  players: 2..4 §1\n  x: 1 ~ 2\n}\n'.encode("utf-8"))
    assert main(["check", "--format", "json", str(marked)]) == 1
    (found,) = [d for d in json.loads(capsys.readouterr().out) if d["severity"] == "error"]
    assert (found["code"], found["span"]["line"], found["span"]["column"]) == ("E002", 3, 8)


@pytest.mark.parametrize("value, shown", [("5..2", "5..2"), ("$300..$1", "300..1")])
def test_E020_an_empty_range(value, shown):
    """`players: 5..2` checked clean, and `rulec play` then refused every player count ("takes 5..2
    players"); any range value whose first end is above its second is E020 at the range."""
    loaded = check_source(f'title "t" {{\n  uses lib "18xx"\n  players: {value} §1\n}}\n', with_library=True)
    d = only(loaded, "E020")
    assert at(d) == (3, 12) and f"the empty range {shown}" in d.message


@pytest.mark.parametrize("clause, column, words", [
    ("players: 0", 12, "`players` is a player count, at least 1, not 0"),
    ("players: 0..4", 12, "`players` is a player count, at least 1, not 0"),
    ("float: 150%", 10, "`float` is a share of a corporation, from 0% to 100%, not 150%"),
    ("holding_cap: 110%", 16, "not 110%"),
])
def test_E020_a_value_its_meaning_rules_out(clause, column, words):
    """`players: 0` and `float: 150%` checked clean; play then refused every player count, or no
    corporation ever floated."""
    loaded = check_source(f'title "t" {{\n  uses lib "18xx"\n  {clause} §1\n}}\n', with_library=True)
    d = only(loaded, "E020")
    assert at(d) == (3, column) and words in d.message, d.message


def test_E020_a_corporations_own_float_over_its_whole():
    loaded = check_source('title "t" {\n  uses lib "18xx"\n  players: 2..4 §1\n'
                          '  corporation PRR "Pennsylvania" §1 {\n    float: 120%\n    shares: [20%, 20%, 20%, 20%, 20%]\n  }\n}\n',
                          with_library=True)
    found = [d for d in loaded.diagnostics if d.code == "E020"]
    assert [(d.span.line, d.span.column) for d in found] == [(5, 12)] and "not 120%" in found[0].message, found

@pytest.mark.parametrize("expr, column", [("x / 0", 35), ("x mod $0", 37)])
def test_E020_a_division_by_a_written_zero(expr, column):
    """`price * pool_percent(c) / 0` checked clean and play stopped on a ZeroDivisionError."""
    loaded = check_source(f'title "t" {{\n  function f(x: int) "x" §1 = {expr}\n}}\n')
    d = only(loaded, "E020")
    assert at(d) == (2, column) and "division by zero" in d.message


def test_E003_unexpected_end_of_file():
    loaded = check_source('title "t" {\n  x: 1\n')
    d = only(loaded, "E003")
    assert d.span.line == 2
    assert "'}'" in d.expected


def test_E004_unreadable_file(tmp_path, capsys):
    missing = tmp_path / "missing.rules"
    assert main(["check", str(missing)]) == 1
    assert "error[E004]" in capsys.readouterr().out


def test_E004_not_utf8(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_bytes(b'title "t" { x: "\xff" }')
    assert main(["check", str(bad)]) == 1
    assert "error[E004]" in capsys.readouterr().out


# ---------------------------------------------------------------- resolution


def test_E010_unknown_library():
    loaded = check_source('title "t" {\n  uses lib "nope"\n}')
    d = only(loaded, "E010")
    assert at(d) == (2, 3)
    assert "nope" in d.message


def test_E010_extends_unknown_title():
    loaded = check_source('title "t" extends "ghost" { }')
    d = only(loaded, "E010")
    assert at(d) == (1, 19)


def test_E010_variant_of_unknown_title():
    loaded = check_source('variant "V" of "ghost" { }')
    d = only(loaded, "E010")
    assert at(d) == (1, 16)


def test_E011_duplicate_definition_points_at_both():
    loaded = check_source('title "t" {\n  x: 1 §1\n  y: 2 §1\n  x: 3 §1\n}')
    d = only(loaded, "E011")
    assert at(d) == (4, 3)
    (note_span, note) = d.notes[0]
    assert (note_span.line, note_span.column) == (2, 3) and "first defined" in note



@pytest.mark.parametrize("clause, at_value, first, words", [
    ('enum marks "m" §1 { a, b, a }', (2, 29), (2, 23), "enum `marks` gives the value `a` twice"),
    ('param order: list[{a, a, b}] "o" §1', (2, 25), (2, 22), "the type gives the value `a` twice"),
])
def test_E011_an_enum_value_given_twice(clause, at_value, first, words):
    """`enum e { a, a, b }` checked clean: the engine's enum held `a` once and a `match` over it had
    two cases for one value. E011 at the second, a note at the first."""
    loaded = check_source(f'title "t" {{\n  {clause}\n}}\n')
    d = only(loaded, "E011")
    assert at(d) == at_value and words in d.message, d.message
    assert (d.notes[0][0].line, d.notes[0][0].column) == first

@pytest.mark.parametrize("clause, at_value, first, words", [
    ('train "3" §1 {\n    distance: 3 §1\n    distance: 4 §1\n  }', (4, 5), (3, 5),
     "train `3` gives the property `distance` twice"),
    ('kind bond "b" {\n    param rate: int "r"\n    param rate: money "r"\n  }', (4, 5), (3, 5),
     "kind bond declares the property `rate` twice"),
    ('market m §1 { rows: [[(price: 70, price: 75)]] §1 }', (2, 37), (2, 26),
     "a record gives the field `price` twice"),
])
def test_E011_a_property_given_twice_in_one_block(clause, at_value, first, words):
    """`train "3" { distance: 3  distance: 4 }` checked clean and the engine read the first value,
    silently dropping the second (likewise a kind's parameter declared twice, a record's field).
    E011 at the second, a note at the first."""
    loaded = check_source(f'title "t" {{\n  {clause}\n}}\n')
    d = only(loaded, "E011")
    assert at(d) == at_value and words in d.message, d.message
    assert (d.notes[0][0].line, d.notes[0][0].column) == first


def test_E011_an_amend_giving_a_property_twice():
    base = 'title "b" {\n  private MT §1 { cost: $20 }\n}'
    loaded = check_source('title "t" extends "b" {\n  amend private MT §1 { cost: $25 §1  cost: $30 §1 }\n}',
                          extra={"b.rules": base})
    d = only(loaded, "E011")
    assert at(d) == (2, 39) and "amend private `MT` gives the property `cost` twice" in d.message, d.message


def test_E011_redefining_an_inherited_clause_needs_replace():
    base = 'title "b" {\n  private MT §1 { cost: $20 }\n}'
    loaded = check_source('title "t" extends "b" {\n  private MT §1 { cost: $25 }\n}', extra={"b.rules": base})
    d = only(loaded, "E011")
    assert at(d) == (2, 3)
    assert d.notes[0][0].path == "b.rules"
    assert "replace" in d.help


def test_E011_duplicate_section():
    loaded = check_source('title "t" {\n  section §1 "A"\n  section §1 "B"\n}')
    d = only(loaded, "E011")
    assert at(d) == (3, 3)


@pytest.mark.parametrize("verb, line", [
    ('replace private RGS §1 { cost: $1 }', 2),
    ('amend private RGS §1 { cost: $1 }', 2),
    ('remove private RGS §1', 2),
    ('remove property nothing', 2),
])
def test_E012_overlay_target_does_not_exist(verb, line):
    base = 'title "b" {\n  private MT §1 { cost: $20 }\n}'
    loaded = check_source(f'variant "V" of "b" {{\n  {verb}\n}}', extra={"b.rules": base})
    d = only(loaded, "E012")
    assert at(d) == (line, 3)


def test_E013_extends_cycle():
    loaded = check_source('title "a" extends "b" { }\ntitle "b" extends "a" { }')
    assert "E013" in codes(loaded)


def test_E013_library_cycle():
    loaded = check_source('library "a" { uses lib "b" }\nlibrary "b" { uses lib "a" }\ntitle "t" { uses lib "a" }')
    assert "E013" in codes(loaded)


def test_E014_two_titles_with_one_name():
    loaded = check_source('title "a" { }\n\ntitle "a" { }')
    d = only(loaded, "E014")
    assert at(d) == (3, 7)
    assert (d.notes[0][0].line, d.notes[0][0].column) == (1, 7)


def test_E015_unknown_name_in_an_action():
    loaded = check_source('title "t" {\n  action a(P: player) {\n    require cash(P) > limit\n  }\n}')
    d = only(loaded, "E015")
    assert at(d) == (3, 23)
    assert "limit" in d.message


def test_E015_a_misspelt_builtin_is_named_with_the_nearest():
    loaded = check_source('title "t" {\n  action a(P: player, T: train) {\n    require holdr_of(T) == P\n  }\n}')
    d = only(loaded, "E015")
    assert at(d) == (3, 13)
    assert "did you mean `holder_of`" in d.help


def test_E001_a_token_with_a_label_reads_as_the_token_then_what_it_is():
    loaded = check_source('title "t" {\n  players: 2 §1\n  private MT { cost: $20 §6 §4 }\n}\n')
    d = only(loaded, "E001")
    assert d.message == "unexpected '§4', a section (§8.1)", d.message


def test_E015_locals_and_quantifier_variables_are_known():
    loaded = check_source(
        'title "t" {\n  action a(P: player) {\n    let x = cash(P)\n    for C in corporations { require x > cash(C) }\n'
        '    require all(h in players: cash(h) >= x)\n  }\n}'
    )
    assert "E015" not in codes(loaded)


def test_E016_variant_cannot_use_a_library():
    loaded = check_source('title "t" { }\nvariant "V" of "t" {\n  uses lib "18xx"\n}', with_library=True)
    d = only(loaded, "E016")
    assert at(d) == (3, 3)


# ---------------------------------------------------------------- checks


def test_E020_contradiction_without_reading():
    loaded = check_source('title "t" {\n  contradiction c "x" §1, §2 { reason: "y" }\n}')
    d = only(loaded, "E020")
    assert at(d) == (2, 3)


def test_E023_duplicate_section_number_needs_its_heading():
    loaded = check_source(
        'title "t" {\n  section §IV("Game Setup") "Game Setup"\n  section §IV("Sequence of Play") "Sequence of Play"\n'
        '  x: 1 §IV\n  y: 2 §IV("Game Setup")\n}'
    )
    d = only(loaded, "E023")
    assert at(d) == (4, 8)


def test_W001_uncited_clause():
    loaded = check_source('title "t" {\n  x: 1 §1\n  y: 2\n}')
    d = only(loaded, "W001")
    assert at(d) == (3, 3) and d.severity is Severity.WARNING


def test_W001_component_cited_through_its_properties():
    loaded = check_source('title "t" {\n  private MT { cost: $20 §4 income: $5 §4 }\n}')
    assert "W001" not in codes(loaded)


@pytest.mark.parametrize("source, words", [('assumed ""', "an assumption that gives no reason"),
                                            ('supplement from "  "', "a supplement that names no source")])
def test_W001_an_assumption_without_its_reason(source, words):
    """`assumed ""` or `supplement from ""` counted as a source, and the value stood with no reason and
    nowhere it came from; W001 at the empty one, a component's property or a statement's as well."""
    loaded = check_source(f'title "t" {{\n  x: 1 {source}\n  private MT {{ cost: $20 §4 income: $5 {source} }}\n}}')
    found = [d for d in loaded.diagnostics if d.code == "W001"]
    assert [at(d) for d in found] == [(2, 8), (3, 40)] and all(words in d.message for d in found)


def test_W002_gap_is_a_note():
    loaded = check_source('title "t" {\n  home: gap "the map is not printed"\n}')
    d = only(loaded, "W002")
    assert d.severity is Severity.NOTE and at(d) == (2, 9)


def test_W003_and_W004_contradictions_and_clashes_are_reported():
    loaded = check_source(
        'title "t" {\n  contradiction c "ten vs twelve" §1, §2 { reading: "twelve" }\n'
        '  clash k "cash" §3, supplement from "ref" { rulebook: 360 supplement: 340 reading: "360" }\n}'
    )
    assert at(only(loaded, "W003")) == (2, 3)
    assert at(only(loaded, "W004")) == (3, 3)


def test_W005_citation_of_an_undeclared_section():
    loaded = check_source('title "t" {\n  section §8 "Stock Market"\n  x: 1 §8.1\n  y: 2 §9\n}')
    d = only(loaded, "W005")  # §8.1 lies within the declared §8
    assert at(d) == (4, 8)


# ---------------------------------------------------------------- rendering


def test_render_shape():
    sources = SourceMap()
    sources.add("a.rules", 'title "t" {\n  cost $20\n}')
    d = Diagnostic(Severity.ERROR, "E001", "unexpected money ($20) '$20'", Span("a.rules", 2, 8, 2, 11),
                   help="a property needs ':'")
    text = render(d, sources)
    assert text.splitlines() == [
        "a.rules:2:8: error[E001]: unexpected money ($20) '$20'",
        "  |",
        "2 |   cost $20",
        "  |        ^^^",
        "  help: a property needs ':'",
    ]


def test_every_code_has_an_explanation():
    for code, text in CODES.items():
        assert code[0] in "EW" and len(code) == 4 and text.strip()


def test_unknown_code_is_refused():
    with pytest.raises(ValueError):
        Diagnostic(Severity.ERROR, "E999", "x")


def test_check_format_json(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('title "t" {\n  x: }\n}')
    assert main(["check", "--format", "json", str(bad)]) == 1
    data = json.loads(capsys.readouterr().out)
    (d,) = [x for x in data if x["code"] == "E001"]
    assert d["span"]["line"] == 2 and d["span"]["column"] == 6
    assert d["severity"] == "error"


@pytest.mark.parametrize("body, column, says", [
    ("3", 27, "states a number"),
    ('"all paid"', 27, "states a string"),
    ("$0", 27, "states money"),
])
def test_E038_an_invariant_that_is_no_condition(body, column, says):
    """`invariant paid "..." { 3 }` checked clean: the monitor took the number's truth and the
    invariant could never fail. E038 at the value."""
    loaded = check_source(f'title "t" {{\n  invariant paid "p" §1 {{ {body} }}\n}}\n')
    d = only(loaded, "E038")
    assert at(d) == (2, column) and says in d.message, d.message


def test_an_invariant_that_is_a_condition_is_no_E038():
    loaded = check_source('title "t" {\n  invariant paid "p" §1 { 1 < 2 and not false }\n}\n')
    assert "E038" not in codes(loaded)


@pytest.mark.parametrize("param, settable", [("P: player", False), ("X: private", False), ("C: corporation", True),
                                             ("C: company", True)])
def test_E038_setting_a_field_of_what_has_no_fields_to_set(param, settable):
    """`action a(P: player) { set P.wibble = 3 }` checked clean, and the engine refused the action every
    time ("cannot set Player 1.wibble"): only a corporation's or a minor's record takes a field.
    E038 at the target; a corporation's (or a company's, which may be one) is left alone."""
    name = param.split(":")[0]
    line = f'  action a({param}) "a" §1 {{ set {name}.wibble = 3 }}'
    loaded = check_source(f'title "t" {{\n{line}\n}}\n')
    if settable:
        assert "E038" not in codes(loaded)
    else:
        d = only(loaded, "E038")
        assert at(d) == (2, line.index(f"{name}.wibble") + 1) and f"`set {name}.wibble`" in d.message, d.message


@pytest.mark.parametrize("param, settable", [("X: private", True), ("P: player", False), ("X: private | player", False)])
def test_E038_a_privates_closed_is_the_one_field_of_a_private_set(param, settable):
    """`set X.closed = true` of a private is the library's close_private (the engine and the model assign it);
    of a player, or of what may be a player, it is E038 as any other field."""
    name = param.split(":")[0]
    line = f'  action a({param}) "a" §1 {{ set {name}.closed = true }}'
    loaded = check_source(f'title "t" {{\n{line}\n}}\n')
    if settable:
        assert "E038" not in codes(loaded)
    else:
        d = only(loaded, "E038")
        assert at(d) == (2, line.index(f"{name}.closed") + 1), d.message


@pytest.mark.parametrize("caller, wrong", [
    ("P: player", True),
    ("X: private", True),
    ("C: corporation", False),
    ("M: minor", False),           # a minor is a corporation of the runtime (1846's minor_dividend)
    ("C: company", False),         # a company may be a corporation
])
def test_E036_a_parameter_of_another_kind_given_to_a_procedure(caller, wrong):
    """`action a(P: player) { do float_it(P) }` with `procedure float_it(C: corporation)` checked clean,
    and the engine set a field of the player (refused every time) where the rule meant a corporation."""
    name = caller.split(":")[0]
    line = f'  action a({caller}) "a" §1 {{ do float_it({name}) }}'
    loaded = check_source('title "t" {\n  procedure float_it(C: corporation) "f" §1 { set C.floated = true }\n'
                          f'{line}\n}}\n')
    if not wrong:
        assert "E036" not in codes(loaded), [d.message for d in loaded.diagnostics]
        return
    d = only(loaded, "E036")
    assert at(d) == (3, line.index(f"float_it({name})") + 10), at(d)
    assert f"`float_it`'s parameter `C` is corporation; this call gives it the parameter `{caller}`" in d.message


def test_E036_a_parameter_bound_again_is_left_alone():
    """A `let` or a quantifier binding the parameter's name again makes it something else there."""
    loaded = check_source('title "t" {\n  procedure float_it(C: corporation) "f" §1 { set C.floated = true }\n'
                          '  action a(P: player) "a" §1 { for P in corporations { do float_it(P) } }\n}\n')
    assert "E036" not in codes(loaded)


def test_E037_a_state_part_given_a_parameter_of_another_kind():
    """`state paid: set[player]` read and set with a corporation parameter checked clean: the engine kept
    the corporation in a set of players, which the z3 model reads as a player. E037 at each use."""
    loaded = check_source('title "t" {\n  state paid: set[player] "p" §1\n'
                          '  action a(C: corporation) "a" §1 {\n    require not paid(C) else "once" §1\n'
                          '    set paid(C) = true\n  }\n}\n')
    found = [d for d in loaded.diagnostics if d.code == "E037"]
    assert [at(d) for d in found] == [(4, 22), (5, 14)], [(at(d), d.message) for d in found]
    assert "its part is a player; `C` is the parameter `C: corporation`" in found[0].message


@pytest.mark.parametrize("phase, wrong", [('"9"', True), ('"3"', False), ("3", False)])
def test_E022_a_trigger_on_the_start_of_no_phase(phase, wrong):
    """`trigger t on phase_start("9")` in a title with no phase "9" checked clean: the runtime raises
    phase_start with the phase's key, the filter was never met and the rule silently never ran."""
    line = f'  trigger t on phase_start({phase}) "t" §1 {{ do close_all(privates) }}'
    loaded = check_source('title "t" {\n  phase "2" §1 { }\n  phase "3" §1 { }\n' + line + '\n}\n')
    found = [d for d in loaded.diagnostics if d.code == "E022"]
    if not wrong:
        assert not found, [d.message for d in found]
        return
    assert len(found) == 1 and "no phase `9`" in found[0].message, [d.message for d in found]
    assert at(found[0]) == (4, line.index(phase) + 1)


@pytest.mark.parametrize("shares, total", [("[40%, 20%, 20%]", 80), ("[40%, 20%, 20%, 20%, 20%]", 120)])
def test_E020_certificates_that_do_not_make_100_percent(shares, total):
    """A corporation's `shares: [40%, 20%, 20%]` checked clean, and `rulec play` then failed every game at
    its first action (the monitor's shares_sum_to_100). E020 at the list."""
    loaded = check_source('title "t" {\n  corporation PRR "Pennsylvania" §1 {\n'
                          f'    shares: {shares} §1\n  }}\n}}\n')
    d = only(loaded, "E020")
    assert at(d) == (3, 13) and f"make {total}%, not 100%" in d.message, d.message


def test_certificates_that_make_100_percent_are_no_E020():
    loaded = check_source('title "t" {\n  corporation PRR "P" §1 {\n    shares: [20%, 10%, 10%, 10%, 10%, 10%, 10%, '
                          '10%, 10%] §1\n  }\n}\n')
    assert "E020" not in codes(loaded)


def test_E024_in_a_title_without_a_library_says_so():
    """`title "X" { players: 2 }` without `uses lib` gave E024 with the help "the title's parameters: ; ...",
    an empty list; it now says there are none and that the title uses no library."""
    loaded = check_source('title "X" {\n  players: 2 §1\n}\n')
    d = only(loaded, "E024")
    assert d.help.startswith('the title\'s parameters: none (the title uses no library: `uses lib "18xx"`'), d.help
    with_lib = check_source('title "X" {\n  uses lib "18xx"\n  playerz: 2 §1\n}\n', with_library=True)
    d = only(with_lib, "E024")
    assert "did you mean `players`" in d.message and "none" not in d.help.split(";")[0], (d.message, d.help)


@pytest.mark.parametrize("body, says", [
    ("set cert_limit = 5", "`cert_limit` is a property of the title"),
    ("set ready(P) = true", "`ready` is a function, not a state"),
    ("set cash(P) = 5", "`cash` is no declared state"),
    ("set counter = 1", "`counter` is no local of the rule"),
])
def test_E038_a_set_of_what_the_engine_cannot_assign(body, says):
    """`set cert_limit = 5` (a property) or `set ready(P) = true` (a function) checked clean, and `rulec play`
    then failed: "cannot compile Toy: `set` assigns to a local, an entity's field or a declared state's
    element". E038 at the target, as the emitter would refuse it."""
    line = f'  action a(P: player) "a" §1 {{ {body} }}'
    loaded = check_source('title "t" {\n  cert_limit: 3 §1\n  function ready(P: player) "r" §1 = true\n'
                          f'{line}\n}}\n')
    d = only(loaded, "E038")
    assert at(d) == (4, line.index(body) + 5) and says in d.message, (at(d), d.message)


def test_a_set_of_a_local_a_parameter_a_field_or_a_state_is_no_E038():
    loaded = check_source('title "t" {\n  state paid: set[player] "p" §1\n'
                          '  action a(P: player, C: corporation) "a" §1 {\n    let x = 1\n    set x = 2\n'
                          '    set P = P\n    set C.floated = true\n    set paid(P) = true\n  }\n}\n')
    assert "E038" not in codes(loaded), [d.message for d in loaded.diagnostics]


@pytest.mark.parametrize("emit, wrong", [("emit zork(P)", True), ("emit zork(P, P)", False), ("emit zork(P, P, 3)", False)])
def test_E036_an_emit_giving_fewer_values_than_its_trigger_binds(emit, wrong):
    """`trigger t on zork(a, b)` and `emit zork(P)` checked clean; play stopped at the first listing on
    "TypeError: t_t() missing 1 required positional argument: 'v_b'". E036 at the emit."""
    line = f'  action a(P: player) "a" §1 {{ {emit} }}'
    loaded = check_source('title "t" {\n  trigger t on zork(a, b) "t" §1 { fail "no" }\n' + line + '\n}\n')
    found = [d for d in loaded.diagnostics if d.code == "E036"]
    if not wrong:
        assert not found, [d.message for d in found]
        return
    assert len(found) == 1 and "`emit zork` gives 1 value; trigger t on `zork` binds 2" in found[0].message
    assert at(found[0]) == (3, line.index(emit) + 1)


@pytest.mark.parametrize("cond, wrong", [("P > 3", "the parameter `P: player`"), ("2 <= C", "the parameter `C: corporation`"),
                                         ("all(q in players: q < 1)", "`q`, a player"), ("cash(P) > 3", None)])
def test_E038_an_ordering_of_what_is_no_number(cond, wrong):
    """`require P > 3` with `P: player` checked clean; the engine stopped in play on "TypeError: '>' not
    supported between instances of 'Entity' and 'int'". E038 at the component."""
    line = f'  action a(P: player, C: corporation) "a" §1 {{ require {cond} else "no" §1 }}'
    loaded = check_source(f'title "t" {{\n{line}\n}}\n')
    found = [d for d in loaded.diagnostics if d.code == "E038"]
    if wrong is None:
        assert not found, [d.message for d in found]
        return
    assert len(found) == 1 and f"orders {wrong}, which is no number or money" in found[0].message, \
        [d.message for d in found]


@pytest.mark.parametrize("use, wrong", [
    ('function f(P: player) "f" §1 = pay(P)', True),
    ('action a(P: player) "a" §1 { require pay(P) else "no" §1 }', True),
    ('action a(P: player) "a" §1 { do pay(P) }', False),
])
def test_E036_a_procedure_read_as_a_value(use, wrong):
    """`function f(P) = pay(P)` with `procedure pay` checked clean: the engine ran the procedure's transfer
    wherever the function was read (a guard, a listing's probe) and read its None as the value. E036."""
    loaded = check_source('title "t" {\n  procedure pay(P: player) "p" §1 { transfer $1 from P to bank }\n'
                          f'  {use}\n}}\n')
    found = [d for d in loaded.diagnostics if d.code == "E036"]
    if not wrong:
        assert not found, [d.message for d in found]
        return
    assert len(found) == 1 and "`pay` is a procedure: it acts and gives no value" in found[0].message
    assert at(found[0]) == (3, use.index("pay(P)") + 3)


def test_E036_a_function_run_as_a_statement():
    """`do ready(P)` with `function ready` checked clean and did nothing in play (the value dropped)."""
    line = '  action a(P: player) "a" §1 { do ready(P) }'
    loaded = check_source('title "t" {\n  function ready(P: player) "r" §1 = cash(P) > 0\n' + line + '\n}\n')
    d = only(loaded, "E036")
    assert at(d) == (3, line.index("ready(P)") + 1) and "`do ready(...)` has no effect" in d.message, d.message
