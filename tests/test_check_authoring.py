"""`rulec check` on an author's slips the schema accepts and play runs into (compiler.lang.authoring).

Each test is one edit of the toy title (tests/fixtures/toy), which checks clean: the code it gets,
the line it is on and what the message says. Before the check each of these checked clean, and
played it looped to the action cap, stalled, stopped on a Python error or did nothing."""

from __future__ import annotations

import pytest

from tests.conftest import TOY, check_source

TRIGGER_AT = "  // the toy's own properties"


def _toy_with(*edits: tuple[str, str]):
    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text, check_source(text, "toy.rules", with_library=True)


def _rule(body: str) -> tuple[str, str]:
    """An edit adding a trigger on corporation_started with `body` to the toy."""
    return (TRIGGER_AT, f'  trigger t1 on corporation_started(corporation, price) "x" §2 {{\n{body}\n  }}\n'
                        + TRIGGER_AT)


def _errors(loaded) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line, d.message) for d in loaded.diagnostics if d.is_error]


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if fragment in row)


MARKET_ROW = "      [(price: 50, zones: [no_cert_limit]), 60, (price: 70, zones: [par]), 80, 100, 120]\n"

CASES = {
    # (edits, code, the line's fragment, what the message says)
    "a market row that falls": (
        [("80, 100, 120]", "80, 70, 120]")], "E020", "80, 70, 120]", "below the 80 on its left"),
    "a market column that rises": (
        [(MARKET_ROW, MARKET_ROW.rstrip("\n") + ",\n      [60, 50]\n")], "E020", "[60, 50]", "above the 50 over it"),
    "an empty market row": (
        [(MARKET_ROW, MARKET_ROW.rstrip("\n") + ",\n      []\n")], "E020", "      []", "an empty row"),
    "a market with no cell": (
        [(MARKET_ROW, "      [none, none]\n")], "E020", "rows: [", "has no cell"),
    "a negative market price": (
        [("80, 100, 120]", "80, 100, -120]")], "E020", "-120]", "a market price of -120"),
    "a second market": (
        [("  par_prices: [$70] §2", '  market stock2 "S2" §2 {\n    rows: [[50, 70]] §2\n  }\n  par_prices: [$70] §2')],
        "E033", "market stock2", "a second market, stock2"),
    "an end price no market price reaches": (
        [("game_end: [bank_broken]", "game_end: [bank_broken, share_price]"),
         ("end_share_price: $120", "end_share_price: $125")], "E020", "end_share_price:", "never ends by share price"),
    "a train limit by kind of company": (
        [("train_limit: 2 §3\n    operating_rounds: 1", "train_limit: {major => 2} §3\n    operating_rounds: 1")],
        "E033", "train_limit: {major => 2}", "a map by kind of company"),
    "a path from an edge to itself": (
        [("paths: [(a: 5, b: n0)]", "paths: [(a: 5, b: 5)]")], "E020", "(a: 5, b: 5)", "its two ends are one"),
    "a step listed twice": (
        [("operating_steps: [run_routes, dividend, buy_train]",
          "operating_steps: [run_routes, dividend, buy_train, dividend]")],
        "E020", "operating_steps:", "names dividend twice"),
    "an end condition listed twice": (
        [("game_end: [bank_broken]", "game_end: [bank_broken, bank_broken]")], "E020", "game_end:",
        "names bank_broken twice"),
    "no operating step": (
        [("operating_steps: [run_routes, dividend, buy_train]", "operating_steps: []")], "E020",
        "operating_steps:", "never ends"),
    "no dividend kind for a dividend step": (
        [("dividend_kinds: [payout, withhold]", "dividend_kinds: []")], "E020", "dividend_kinds:",
        "nothing to choose"),
    "a bank short of the starting cash": (
        [("2 => $300 §1\n  }\n  player_order", "2 => $3000 §1\n  }\n  player_order")], "E020", "2 => $3000",
        "cannot pay 2 players $3000 each"),
    "a train limit of 0": (
        [("train_limit: 2 §3\n    operating_rounds: 1", "train_limit: 0 §3\n    operating_rounds: 1")], "E020",
        "train_limit: 0", "train limit is 0"),
    "a transfer of a negative amount": (
        [_rule("    transfer -10 from bank to corporation")], "E020", "transfer -10", "a transfer of -10"),
    "a division by a written expression that is 0": (
        [_rule("    transfer price / (1 - 1) from bank to corporation")], "E020", "price / (1 - 1)",
        "a division by zero"),
    "a for over a number an event gives": (
        [_rule("    for x in price { transfer 1 from bank to corporation }")], "E038", "for x in price",
        "goes over `price`, a number"),
    "a condition on a number an event gives": (
        [_rule("    if price { transfer 1 from bank to corporation }")], "E038", "if price",
        "the condition is `price`"),
    "a for over the bank": (
        [_rule("    for x in bank { transfer 1 from bank to corporation }")], "E038", "for x in bank",
        "goes over the bank"),
    "a local changed inside a for that bound it outside": (
        [_rule("    let n = 0\n    for x in players {\n      set n = n + 1\n    }\n    transfer n from bank to corporation")],
        "E038", "set n = n + 1", "each of the loop's turns has its own locals"),
    "a string in arithmetic": (
        [_rule('    transfer price + "x" from bank to corporation')], "E038", 'price + "x"', "`+` on a string"),
    "not of a number": (
        [_rule("    if not 5 { transfer 1 from bank to corporation }")], "E038", "if not 5", "`not` on a number"),
    "and of a number": (
        [_rule("    if 5 and true { transfer 1 from bank to corporation }")], "E038", "if 5 and true",
        "`and` on a number"),
    "a move of a number": (
        [_rule("    move 5 from bank to corporation")], "E038", "move 5", "not a number"),
    "a do of no call": (
        [_rule("    do 5")], "E038", "do 5", "names no call"),
    "a sum over a number": (
        [_rule("    transfer sum(x in 5: x) from bank to corporation")], "E038", "sum(x in 5", "`sum(x in ...)` goes "
                                                                                          "over a number"),
    "all over a number an event gives": (
        [_rule("    if all(x in price: x > 0) { transfer 1 from bank to corporation }")], "E038", "all(x in price",
        "goes over `price`, a number"),
    "a field of a number an event gives": (
        [_rule("    transfer price.foo from bank to corporation")], "E038", "price.foo", "a field `.foo` of `price`"),
    "an element of a number an event gives": (
        [_rule("    transfer price[0] from bank to corporation")], "E038", "price[0]", "an element `[...]` of `price`"),
    "two abilities of one name": (
        [("    home: A1 §5\n", "    home: A1 §5\n    ability a1 §2 { summary: \"x\" }\n"
                               "    ability a1 §2 { summary: \"y\" }\n")],
        "E011", 'ability a1 §2 { summary: "y" }', "two abilities named a1"),
    "an ability's city the hex lacks": (
        [("    home: A1 §5\n", "    home: A1 §5\n    ability a1 §2 { summary: \"x\" hex: A1 city: 3 }\n")],
        "E022", "city: 3", "hex A1 has no node 3"),
    "a train the other side of itself": (
        [("    count: 1 §3\n", "    count: 1 §3\n    variant_of: \"3\" §3\n")], "E020", 'variant_of: "3"',
        "the other side of itself"),
    "a count by players without the title's count": (
        [("    count: 2 §3\n", "    count: {3 => 2} §3\n")], "E021", "count: {3 => 2}",
        "no value for 2 players"),
    "a dividend step before the trains run": (
        [("operating_steps: [run_routes, dividend, buy_train]", "operating_steps: [dividend, run_routes, buy_train]")],
        "E020", "operating_steps:", "the dividend before the trains run"),
    "a train owed with no step to buy it": (
        [("operating_steps: [run_routes, dividend, buy_train]", "operating_steps: [run_routes, dividend]")],
        "E020", "operating_steps:", "no `buy_train` step"),
    "a minor's step listed twice": (
        [("  dividend_kinds:", "  minor_operating_steps: [run_routes, run_routes] §3\n  dividend_kinds:")],
        "E020", "minor_operating_steps:", "names run_routes twice"),
    "a map giving a key twice": (
        [("    count: 2 §3\n", "    count: {2 => 2, 2 => 3} §3\n")], "E011", "count: {2 => 2, 2 => 3}",
        "gives the key 2 twice"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_authors_slip_is_refused_at_its_line(name):
    edits, code, fragment, said = CASES[name]
    text, loaded = _toy_with(*edits)
    found = [(c, line, message) for c, line, message in _errors(loaded) if c == code and said in message]
    assert found, _errors(loaded)
    assert found[0][1] == _line_of(text, fragment)


def test_a_privates_price_range_that_holds_no_price():
    private = ('  private P1 "A private" §2 {\n    cost: $20 §2\n    income: $5 §2\n    min_price: $30 §2\n'
               '    max_price: $20 §2\n  }\n')
    text, loaded = _toy_with(("  sanction cert_limit for dividend", private + "  sanction cert_limit for dividend"))
    found = [e for e in _errors(loaded) if e[0] == "E020" and "is above its max_price" in e[2]]
    assert found and found[0][1] == _line_of(text, "min_price: $30"), _errors(loaded)


def test_what_the_slips_look_like_done_right_checks_clean():
    # a row with equal neighbours (18CO's), a rising row below a higher one, a rule's plain transfer and
    # loop, a count by players with every count: none of them is a slip
    _, loaded = _toy_with(
        (MARKET_ROW, MARKET_ROW.rstrip("\n") + ",\n      [40, 50, 50]\n"),
        _rule("    let price = 3\n    for x in players { transfer price from bank to corporation }"),
        ("    count: 2 §3\n", "    count: {2 => 2} §3\n"),
        ("game_end: [bank_broken]", "game_end: [bank_broken, share_price]"))  # end_share_price $120, a cell
    assert _errors(loaded) == []


def test_a_gap_that_gives_no_reason_is_w001():
    text, loaded = _toy_with(("bank: $1000 §1", 'bank: gap ""'))
    found = [d for d in loaded.diagnostics if d.code == "W001" and "gives no reason" in d.message]
    assert len(found) == 1 and found[0].span.line == _line_of(text, 'bank: gap ""')
    assert "property 'bank' is a gap" in found[0].message
    _, loaded = _toy_with(("bank: $1000 §1", 'bank: gap "the rulebook prints none"'))
    assert not [d for d in loaded.diagnostics if d.code == "W001"]


@pytest.mark.parametrize("other, said", [
    ("TOY", "make one engine name, 'toy'"),
    ("Toy!", "make one engine name, 'toy'"),
    ("", "has no letter or digit in its name"),
])
def test_a_title_named_as_another_engine_or_as_none_is_E014(other, said):
    # `rulec compile` wrote both titles' engines to t_toy.py, the second over the first; `title ""` to t_.py
    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    second = text.replace('title "Toy"', f'title "{other}"').replace('of "Toy"', f'of "{other}"')
    loaded = check_source(text, "toy.rules", with_library=True, extra={"other.rules": second})
    found = [d for d in loaded.diagnostics if d.code == "E014" and said in d.message]
    assert len(found) == 1, _errors(loaded)
    # at the title line of whichever file is read second ("" makes no engine on its own: other.rules')
    assert found[0].span.path in ("toy.rules", "other.rules") and found[0].span.line == _line_of(second, "title ")
    assert other == "" or {found[0].span.path, found[0].notes[0][0].path} == {"toy.rules", "other.rules"}


def test_a_variant_named_as_another_engine_is_E014():
    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    text += '\nvariant "RICH" of "Toy" §1 {\n  replace bank: $3000 §1\n}\n'
    loaded = check_source(text, "toy.rules", with_library=True)
    found = [d for d in loaded.diagnostics if d.code == "E014"]
    assert len(found) == 1 and "variant 'RICH' of 'Toy' and variant 'Rich' of 'Toy'" in found[0].message
