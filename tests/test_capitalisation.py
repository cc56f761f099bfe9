"""Capitalisation (issue 43): the library's `capitalisation` does what it says. incremental: each
share bought from the IPO pays the corporation; full: IPO money goes to the bank and the
corporation receives its whole capital, ten shares at par, when it floats (the library's trigger
full_capitalisation, after 18xx.games' Game#float_corporation); partial: IPO money goes to the bank,
the corporation receives capitalised_percent of its capital when it floats (the trigger
partial_capitalisation) and the rest once, when the title's rule calls release_capital (1880 Romania,
VI.7); by_title: IPO money goes to the bank and the title's own rules pay the capital. On the toy
title (par $70, float 60%)."""

from __future__ import annotations

import pytest

from compiler.runtime.monitor import Monitor
from tests.conftest import LIBRARIES, TOY


def _toy(capitalisation: str, extra: str = ""):
    from compiler.emit.engines import current_game_class
    from compiler.lang.pipeline import load_texts

    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    old = "  capitalisation: incremental §2"
    assert old in text
    text = text.replace(old, f"  capitalisation: {capitalisation} §2{extra}")
    # (the toy's `treasury_shares_pay: company` stands under full capitalisation too: the IPO is then a
    # holder apart from the treasury, and pays nobody)
    loaded = load_texts({**LIBRARIES, "toy.rules": text})
    assert loaded.ok, [(d.code, d.message) for d in loaded.errors]
    title = loaded.program.titles["Toy"]
    return title, current_game_class(title, loaded.sources)[0]


def _float(Game):
    """A pars the toy's corporation (its 40% president's certificate, $280) and B buys 20% ($140):
    60% sold, it floats. The monitor checks money is conserved after each action."""
    game = Game(players=["A", "B"], seed=1)
    monitor = Monitor(game)
    wanted = [("A", "par"), ("A", "pass"), ("B", "buy_shares")]
    steps = []
    while wanted:
        action = next(a for a in game.legal_actions() if (a["entity"], a["type"]) == wanted[0])
        wanted.pop(0)
        game.process(action)
        monitor.check(game, action)
        steps.append(game.state()["corporations"][0]["treasury"])
    assert game.state()["corporations"][0]["floated"]
    return steps


PARTIAL = "\n  capitalised_percent: 30% §2"


@pytest.mark.parametrize("capitalisation, extra, treasury", [
    ("incremental", "", [280, 280, 420]),  # each IPO purchase pays the corporation
    ("full", "", [0, 0, 700]),             # nothing until it floats, then ten shares at $70
    ("partial", PARTIAL, [0, 0, 210]),     # nothing until it floats, then 30% of ten shares at $70
    ("by_title", "", [0, 0, 0]),           # the toy has no rule of its own paying capital
])
def test_the_treasury_after_each_purchase_and_at_the_float(capitalisation, extra, treasury):
    _, Game = _toy(capitalisation, extra)
    assert _float(Game) == treasury


def test_partial_capitalisation_releases_the_rest_once_and_only_to_a_floated_corporation():
    """release_capital (the library's procedure a title calls at its moment): nothing before the
    corporation floats; once floated, the other 70% of $700 ($490) from the bank, once; the bank pays
    what the corporation receives."""
    _, Game = _toy("partial", PARTIAL)
    game = Game(players=["A", "B"], seed=1)
    corp, bank = game.corporations[0], game.name("bank")
    game.call("release_capital", corp)
    assert game.cash[corp] == 0 and not game.state_has("capital_released", corp)
    monitor = Monitor(game)
    for who, kind in (("A", "par"), ("A", "pass"), ("B", "buy_shares")):
        action = next(a for a in game.legal_actions() if (a["entity"], a["type"]) == (who, kind))
        game.process(action)
        monitor.check(game, action)
    assert game.cash[corp] == 210
    before = game.cash[bank]
    game.call("release_capital", corp)
    assert (game.cash[corp], game.cash[bank]) == (700, before - 490)
    game.call("release_capital", corp)
    assert (game.cash[corp], game.cash[bank]) == (700, before - 490)  # once


def test_partial_capitalisation_pays_ten_shares_at_par_in_all_whatever_the_percentage():
    """At a percentage that does not divide the capital (25% of ten shares at $65, $162.50) the float
    pays $162, rounded down, and release_capital the rest, $488: $650 in all, never a dollar short."""
    from compiler.emit.engines import current_game_class
    from compiler.lang.pipeline import load_texts

    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    for old, new in (("(price: 70, zones: [par])", "(price: 65, zones: [par])"),
                     ("par_prices: [$70]", "par_prices: [$65]"),  # (the title's and the corporation's own)
                     ("  capitalisation: incremental §2", "  capitalisation: partial §2\n  capitalised_percent: 25% §2")):
        assert old in text
        text = text.replace(old, new)
    loaded = load_texts({**LIBRARIES, "toy.rules": text})
    assert loaded.ok, [(d.code, d.message) for d in loaded.errors]
    Game = current_game_class(loaded.program.titles["Toy"], loaded.sources)[0]
    game = Game(players=["A", "B"], seed=1)
    corp, bank = game.corporations[0], game.name("bank")
    monitor = Monitor(game)
    for who, kind in (("A", "par"), ("A", "pass"), ("B", "buy_shares")):
        action = next(a for a in game.legal_actions() if (a["entity"], a["type"]) == (who, kind))
        game.process(action)
        monitor.check(game, action)
    assert game.cash[corp] == 162
    before = game.cash[bank]
    game.call("release_capital", corp)
    assert (game.cash[corp], before - game.cash[bank]) == (650, 488)


def test_partial_capitalisation_needs_its_percentage():
    """`capitalised_percent` is required under partial capitalisation (E027 on the title's line)."""
    from compiler.lang.pipeline import load_texts

    text = (TOY / "toy.rules").read_text(encoding="utf-8").replace(
        "  capitalisation: incremental §2", "  capitalisation: partial §2")
    loaded = load_texts({**LIBRARIES, "toy.rules": text})
    assert [d.code for d in loaded.errors] == ["E027"], [(d.code, d.message) for d in loaded.errors]
    assert "capitalised_percent" in loaded.errors[0].message


@pytest.mark.parametrize("capitalisation, extra", [("full", ""), ("partial", PARTIAL)])
def test_money_is_conserved_under_full_and_partial_capitalisation_proved_for_the_purchase_that_floats(
        capitalisation, extra):
    from compiler.verify.verifier import verify_title

    title, _ = _toy(capitalisation, extra)
    report = verify_title(title, only=["buy_shares"])
    results = {r.invariant: r.status for r in report.results if r.transition == "buy_shares"}
    assert results["money_conserved"] == "proved", report.results


def test_full_capitalisation_keeps_the_ipo_apart_from_the_treasury():
    """Under full capitalisation the unsold certificates sit in the IPO, a holder of their own; a purchase
    from it names the source `ipo` and takes the certificate from there. Under incremental the IPO is the
    corporation's treasury: its certificates start on its mat."""
    for capitalisation, extra, holder in (("full", "", "ipo"), ("partial", PARTIAL, "ipo"),
                                          ("incremental", "", "corporation")):
        _, Game = _toy(capitalisation, extra)
        game = Game(players=["A", "B"], seed=1)
        assert {game.owner[c.id].kind for c in game.certificates.values()} == {holder}, capitalisation


def test_a_capitalisation_the_library_does_not_declare_is_refused():
    """`escrow` (18xx.games' capital held until a destination is reached, 1856's) is refused where it is
    written (E026, listing the kinds there are): the library does not implement it."""
    from compiler.lang.pipeline import load_texts

    text = (TOY / "toy.rules").read_text(encoding="utf-8").replace(
        "  capitalisation: incremental §2", "  capitalisation: escrow §2")
    loaded = load_texts({**LIBRARIES, "toy.rules": text})
    assert [(d.code, d.span.line, d.span.column) for d in loaded.errors] == [("E026", _line_of(text, "capitalisation: escrow"), 19)]
    assert "`incremental`, `full`, `partial`, `by_title`" in loaded.errors[0].message


def _line_of(text: str, needle: str) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if needle in row)
