"""`rulec check` on slips in the real titles' rules that every other stage let through (compiler.lang.slips),
and on a rulespec file that declares nothing.

Each case is one edit of a line of a real title's rulespec, checked as the mutation test checks its
mutants (tests/mutation.py: the edited item parsed and spliced in, the titles built from the file
checked in memory). Before the check each checked clean; played, the rule silently did nothing, never
held, or stopped on a TypeError where play reached it."""

from __future__ import annotations

import pytest

from compiler.app.cli import main
from compiler.paths import ROOT
from tests.conftest import check_source
from tests.mutation import Checker, Mutant

CASES = {
    # path, the line's text, what it becomes, the code, what the message says
    "a phase's event one letter from the library's close_privates": (
        "rulespecs/1800.rules", "events: [close_privates, e_trains_available",
        "events: [close_private, e_trains_available", "E015",
        "no trigger is on `close_private`: phase 5 raises it and nothing happens; did you mean `close_privates`?"),
    "a phase's event one letter from the title's own trigger's": (
        "rulespecs/1846.rules", "    events: [remove_markers, remove_reservations] supplement",
        "    events: [remove_marker, remove_reservations] supplement", "E015",
        "did you mean `remove_markers`?"),
    "has_ability naming a key no ability has": (
        "rulespecs/1846.rules", 'has_ability(company, "port_marker_player")', 'has_ability(company, "port_marker_playr")',
        "E022", "no ability `port_marker_playr`: no component of the title has an ability of that key, so "
                "`has_ability` is false in every game; did you mean `port_marker_player`"),
    "ability_value naming a key no ability has": (
        "rulespecs/1880-romania.rules", 'ability_value(company, "close_for_cash", "player_amount")',
        'ability_value(company, "close_for_csh", "player_amount")', "E022", "no ability `close_for_csh`"),
    "ability_value naming a field the ability does not give": (
        "rulespecs/1880-romania.rules", 'ability_value(company, "close_for_cash", "player_amount")',
        'ability_value(company, "close_for_cash", "player_amout")', "E024",
        "no ability `close_for_cash` gives `player_amout`"),
    "use_ability naming a key no ability has": (
        "rulespecs/1880-romania.rules", '    require has_ability(company, "close_for_cash") else "only the Banater',
        '    do use_ability(company, "close_for_csh") // else "only the Banater', "E022",
        "no ability `close_for_csh`"),
    "tile_color naming a hex the map has not": (
        "rulespecs/1880-romania.rules", '        or tile_color(corporation.home) != "white"',
        '        or tile_color("Z9") != "white"', "E022", "no hex `Z9`"),
    "an ordering against none": (
        "rulespecs/1846.rules", '    require cash(corporation) >= cost else "not enough cash for the token"',
        '    require cash(corporation) >= none else "not enough cash for the token"', "E038",
        "`>=` orders none, which is no number or money"),
    "a corporation compared with a string naming it": (
        "rulespecs/1880-romania.rules", "    let granted = corporation == TR and",
        '    let granted = corporation == "TR" and', "E038",
        'is compared with the string "TR": a corporation is never equal to a string, so the comparison is always false'),
    "a corporation compared with a string naming none": (
        "rulespecs/1880-romania.rules", "    let granted = corporation == TR and",
        '    let granted = corporation == "TRR" and', "E022", "no corporation `TRR`"),
    "a builtin given a number for a corporation": (
        "rulespecs/1846.rules", "    let share = price(corporation)", "    let share = price(1)", "E036",
        "`price`'s parameter `corporation` is corporation; this call gives it a number"),
    # found by the breaker: a slip per line of a real title, each checked clean before
    "a train that rusts on one the bank sells before it": (
        "rulespecs/1800.rules", 'rusts_on: ["2E", "3E", "2x2E"] §12.6', 'rusts_on: ["2", "2E"] §12.6', "E020",
        "train 3 rusts on the 2, which the bank sells before it"),
    "a train obsolete on one the bank sells before it": (
        "rulespecs/1846.rules", '    obsolete_on: "6" supplement', '    obsolete_on: "2" supplement', "E020",
        "train 4 becomes obsolete on the 2, which the bank sells before it"),
    "a private the private sale never offers": (
        "rulespecs/1800.rules", "private_sale_order: [MT, DSL, RGS] §6", "private_sale_order: [MT, DSL] §6", "E020",
        "`private_sale_order` does not name RGS"),
    "a round named by a misspelt string": (
        "rulespecs/1800.rules", 'require in_round(stock) else "the bond is bought',
        'require in_round("stok") else "the bond is bought', "E026",
        'takes a value of enum round_kind; the string "stok" is none of them'),
    "a round named by another enum's value": (
        "rulespecs/1800.rules", 'require in_round(stock) else "the bond is bought',
        'require in_round(payout) else "the bond is bought', "E026", "`payout`, a value of enum dividend_kind"),
    "a step named by a misspelt string": (
        "rulespecs/18-grand-junction.rules", "require in_step(corporation, lay_tile) else",
        'require in_step(corporation, "lay_tiles") else', "E026", 'the string "lay_tiles" is none of them'),
    "a turn's move named by a misspelt string": (
        "rulespecs/1800.rules", "    do end_step(corporation) §10.2, §11.11",
        '    do move_turn(corporation, "step_end") §10.2, §11.11', "E026",
        'takes a value of enum turn_move; the string "step_end" is none of them'),
    "a special round named by a misspelt string": (
        "rulespecs/18co.rules", "do call_round(presidents_choice) §8.1", 'do call_round("presidents_choise") §8.1',
        "E026", "did you mean `presidents_choice`?"),
    "a misspelt field of a corporation a quantifier goes over": (
        "rulespecs/1800.rules", 'require in_round(stock) else "the bond is bought',
        'require in_round(stock) and all(c in corporations: c.flaot > 0%) else "the bond is bought', "E024",
        "a corporation has no field `flaot`; did you mean `float`"),
    "a transfer to a collection": (
        "rulespecs/1800.rules", "    transfer to_company from bank to corporation §11.10",
        "    transfer to_company from bank to players §11.10", "E038",
        "`transfer ... to players` names a collection"),
    "a transfer from a holder to itself": (
        "rulespecs/1800.rules", "    transfer to_company from bank to corporation §11.10",
        "    transfer to_company from bank to bank §11.10", "E020", "a transfer from bank to bank"),
    "a corporation compared with a private": (
        "rulespecs/1880-romania.rules", "    let granted = corporation == TR and",
        "    let granted = corporation == P1 and", "E038", "a corporation is never a private"),
    "a field of a builtin's number": (
        "rulespecs/1846.rules", "    let share = price(corporation)", "    let share = cash(corporation).value", "E038",
        "a field `.value` of `cash(...)`, a number"),
    "a field of a library function's number": (
        "rulespecs/1846.rules", "    let share = price(corporation)", "    let share = price(corporation).value", "E038",
        "a field `.value` of `price(...)`, a number"),
    "a corporation's market cell compared with a library function's number": (
        "rulespecs/1800.rules", "} elif paid > 0 and paid >= price(corporation) {",
        "} elif paid > 0 and corporation.cell != price(corporation) {", "E038",
        "`corporation.cell`, a market cell, is compared with `price(...)`, a number"),
    "a later phase that begins on no train": (
        "rulespecs/1800.rules", '    on_train: "3" §12.3', "    on_train: none §12.3", "E020",
        "phase 3 never comes: it begins on no train"),
    "a part of a run paid for more stops than it visits": (
        "rulespecs/1800.rules", "distance: [(nodes: [city, offboard], pay: 3, visit: 3)]",
        "distance: [(nodes: [city, offboard], pay: 3, visit: 2)]", "E020",
        "train 3E is paid for 3 stops of a part of its run that visits 2"),
    "an enum parameter compared with a misspelt string": (
        "rulespecs/1800.rules", "if kind == withhold and", 'if kind == "withold" and', "E026",
        'the string "withold" is none of them, so the comparison is always false; did you mean `withhold`?'),
    "a holder compared with the bank's name as a string": (
        "rulespecs/1800.rules", "require holder_of(bond) == corporation else", 'require holder_of(bond) == "bank" else',
        "E038", 'is compared with the string "bank"'),
    "a corporation's market cell ordered against a number": (
        "rulespecs/1800.rules", "} elif paid > 0 and paid >= price(corporation) {",
        "} elif paid > 0 and paid >= corporation.cell {", "E038",
        "`>=` orders `corporation.cell`, a market cell, which is no number or money"),
    "a corporation's market cell compared with a builtin's number": (
        "rulespecs/1800.rules", "} elif paid > 0 and paid >= price(corporation) {",
        "} elif paid > 0 and corporation.cell != cash(corporation) {", "E038",
        "`corporation.cell`, a market cell, is compared with `cash(...)`, a number: a cell is never equal to a "
        "number, so the comparison is always true"),
    "an upgrade back to an earlier colour": (
        "rulespecs/1800.rules", '"12" => ["804"] §11.1', '"12" => ["9"] §11.1', "E020",
        "tile 12 (green) upgrades to tile 9 (yellow)"),
    "an upgrade of a tile to itself": (
        "rulespecs/1800.rules", '"12" => ["804"] §11.1', '"12" => ["12"] §11.1', "E020", "tile 12 upgrades to itself"),
    "money in another currency than the title's": (
        "rulespecs/1880-romania.rules", "par_prices: [Ł70, Ł80, Ł90, Ł100]", "par_prices: [Ł70, $80, Ł90, Ł100]",
        "E020", "$80 is money in $; 1880 Romania's currency is Ł"),
    "a president's certificate smaller than another": (
        "rulespecs/1800.rules", "shares: [40%, 10%, 10%, 10%, 10%, 10%, 10%] §2",
        "shares: [10%, 40%, 10%, 10%, 10%, 10%, 10%] §2", "E020",
        "corporation DRGW's president's certificate, the first of `shares`, is 10%: smaller than its 40% certificate"),
}


@pytest.fixture(scope="module")
def loaded(rulespecs_loaded):
    return rulespecs_loaded


def _edited(path: str, old: str, new: str) -> Mutant:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert old in text and "\n" not in old
    at = text.index(old)
    line = text.count("\n", 0, at) + 1
    return Mutant("retype", line, line, text.replace(old, new, 1), new, len(new) - len(old))


@pytest.mark.parametrize("name", list(CASES))
def test_a_slip_in_a_real_titles_rule_is_refused_on_its_line(loaded, name):
    path, old, new, code, said = CASES[name]
    checker = Checker(loaded, path)
    mutant = _edited(path, old, new)
    errors, titles = checker.diagnostics(mutant, everything=False)
    assert titles, "the edited title was not built"
    found = [d for d in checker.caught(mutant, errors) if d.code == code and said in d.message]
    assert found, [(d.code, str(d.span), d.message) for d in errors]


@pytest.mark.parametrize("text", ["", "\n\n", "// the 1846 rules, to be written\n", "/* nothing yet */"])
def test_a_rulespec_that_declares_nothing_is_E003(text):
    """An empty file (or one of comments only) checked clean: "0 titles, 0 errors"."""
    loaded = check_source(text, "empty.rules")
    assert [(d.code, d.span.line, d.span.column) for d in loaded.errors] == [("E003", 1, 1)]
    assert "empty.rules declares nothing" in loaded.errors[0].message


def test_check_of_an_emptied_title_file_exits_1(tmp_path, capsys):
    empty = tmp_path / "1846.rules"
    empty.write_text("", encoding="utf-8")
    assert main(["check", str(empty)]) == 1
    out = capsys.readouterr().out
    assert f"{empty}:1:1: error[E003]" in out and "Traceback" not in out


def test_a_train_that_rusts_only_on_a_train_never_sold_is_E020():
    """The toy's 2 rusting on a 4 the bank never sells (`train_supply_order` has none, and no phase begins
    on it) checked clean: the 2s never rusted."""
    text = (ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
    four = '  train "4" §3 {\n    distance: 4 §3\n    price: $300 §3\n    count: 1 §3\n  }\n'
    edited = text.replace('    rusts_on: "3" §3', '    rusts_on: "4" §3', 1).replace('  phase "2" §3 {', four + '  phase "2" §3 {', 1)
    loaded = check_source(edited, "toy.rules", with_library=True)
    found = [d for d in loaded.errors if d.code == "E020" and "train 2 never rusts: the bank never sells a 4 train"
             in d.message]
    line = next(i for i, row in enumerate(edited.splitlines(), 1) if 'rusts_on: "4"' in row)
    assert len(found) == 1 and found[0].span.line == line, loaded.errors
    assert not check_source(text, "toy.rules", with_library=True).errors


def test_a_misspelt_train_name_a_variants_rule_compares_is_E022():
    """Amira's `t.name == "2+2"` over the bank's trains, written `"2 +2"`, checked clean: the second company
    was drawn when the 2s alone were gone. E022 at the name, with the train meant."""
    from compiler.lang.pipeline import load_texts
    from tests.conftest import LIBRARIES

    variants = "rulespecs/1880-romania-variants.rules"
    text = (ROOT / variants).read_text(encoding="utf-8")
    old = 't.name == "2" or t.name == "2+2") and all'
    assert old in text
    edited = text.replace(old, old.replace('"2+2"', '"2 +2"'), 1)
    base = {"rulespecs/1880-romania.rules": (ROOT / "rulespecs/1880-romania.rules").read_text(encoding="utf-8")}
    loaded = load_texts({**LIBRARIES, **base, variants: edited}, checking=frozenset({variants}))
    found = [d for d in loaded.errors if d.code == "E022" and d.message.startswith("no train `2 +2`")]
    line = next(i for i, row in enumerate(edited.splitlines(), 1) if '"2 +2"' in row)
    assert found and {d.span.line for d in found} == {line} and "did you mean `2+2`?" in found[0].message, loaded.errors
    assert not [d for d in loaded.errors if d.span is not None and d.span.line != line]
