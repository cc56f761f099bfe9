"""Train prices as constants (`compiler.verify.prices`): a check proved for every price is not proved
again after an erratum to a price; a check whose proof needs the price is, and fails where it should."""

from __future__ import annotations

import z3

from compiler.verify import prices
from compiler.verify.model import Model, recording
from compiler.verify.verifier import Cache, Verifier, verify_title
from tests.test_verify import load_toy_with

#: discarding a 2-train, the bank pays $100 less its price (a negative amount the bank pays is the
#: corporation's to pay, and no one asks whether it has it: `Builtins.transfer`): nothing at the toy's
#: $100, and then every check holds; at a higher price the corporation may go below zero
#: (no_negative_cash)
SCRAP_REFUND = """
errata "Scrap refund" of "Toy" {
  replace action discard_train(corporation: corporation, train: train) "Discard a train over the train limit" §3 {
    require pending_decision(corporation, discard_train) else "only a company over the train limit discards" §3
    require holder_of(train) == corporation else "the corporation does not own that train" §3
    move train from corporation to pool §3
    transfer (train.name == "2" ? 100 - train.price : 0) from bank to corporation
    if len(trains(corporation)) <= train_limit(corporation) {
      do resolve_decision(corporation, discard_train)
    }
  }
}
"""


def _price(amount: int) -> str:
    return f'errata "Price" of "Toy" {{\n  amend train "2" §3 {{\n    price: ${amount} §3\n  }}\n}}\n'


def _by_check(report) -> dict[tuple[str, str], object]:
    return {(r.invariant, r.transition): r for r in report.results}


def test_a_price_is_a_constant_in_the_abstract_translation_and_read_only_for_whether_it_is_printed():
    """Inside `prices.abstract()` a train's price (`Model.train_price`, a card record's `price`) is the
    card's constant, its read recorded as whether the card prints one; outside, the printed value, its
    read recorded as the value's."""
    m = Model(load_toy_with().program.titles["Toy"])
    train = next(t for t in m.trains if t.name == "2")
    with recording() as deps:
        assert m.train_price(train) == 100 and m.card_value("3", "price") == 200
    assert deps == {("train", "2", "price"), ("train", "3", "price")}
    with recording() as deps, prices.abstract() as used:
        assert m.train_price(train).eq(prices.symbol("2")) and m.card_value("3", "price").eq(prices.symbol("3"))
        assert m.card_value("3", "distance") == 3  # any other field as printed
    assert used == {"2", "3"}
    assert deps == {("train_known", "2"), ("train_known", "3"), ("train", "3", "distance")}
    dearer = Model(load_toy_with(_price(110)).program.titles["Toy"])
    assert dearer.read_digest(("train_known", "2")) == m.read_digest(("train_known", "2"))
    assert dearer.read_digest(("train", "2", "price")) != m.read_digest(("train", "2", "price"))
    assert isinstance(prices.symbol("2"), z3.ArithRef)


def test_a_check_that_needs_the_price_is_proved_again_after_a_price_erratum_and_fails():
    """Soundness. With the scrap refund, no_negative_cash after discard_train holds only at the printed
    $100: its abstract proof fails (a counterexample at another price), so it is proved on the concrete
    translation and filed under a key holding the price. Raised to $110, that key changes: the check is
    solved again, and fails; the checks of discard_train proved for every price are taken from the cache,
    not solved again. The cached results are a run's without a cache, check for check."""
    cache = Cache(None)
    title = load_toy_with(SCRAP_REFUND).program.titles["Toy"]
    first = _by_check(verify_title(title, cache=cache))
    check = first[("no_negative_cash", "discard_train")]
    assert check.status == "proved"
    verifier = Verifier(title, cache=Cache(None))
    tn = next(t for t in verifier.transitions if t.name == "discard_train")
    keys, ready = verifier.check_keys(tn)
    assert ready.abstract is not None  # discard_train reads a price
    assert check.key == keys["no_negative_cash"] != ready.abstract["no_negative_cash"]  # the concrete proof's
    abstract = {inv for (inv, transition), r in first.items()
                if transition == "discard_train" and r.key == ready.abstract[inv]}
    assert "money_conserved" in abstract or len(abstract) > 5  # most hold for every price

    dearer = load_toy_with(SCRAP_REFUND, _price(110)).program.titles["Toy"]
    again = _by_check(verify_title(dearer, cache=cache))
    redone = again[("no_negative_cash", "discard_train")]
    assert not redone.cached and redone.status == "counterexample"
    for inv in abstract:
        assert again[(inv, "discard_train")].cached and again[(inv, "discard_train")].status == "proved"
    fresh = _by_check(verify_title(dearer, cache=Cache(None)))
    assert {k: r.status for k, r in again.items()} == {k: r.status for k, r in fresh.items()}


def test_a_check_proved_for_every_price_keeps_its_key_across_price_errata():
    """The abstract proof's key holds no price: after an erratum to a price every check of a
    transition proved so is taken from the cache (the toy's buy_train, which reads the price it
    charges), and a title with the erratum from nothing gives each the same status."""
    cache = Cache(None)
    title = load_toy_with().program.titles["Toy"]
    verifier = Verifier(title, cache=cache)
    tn = next(t for t in verifier.transitions if t.name == "buy_train")
    first = verifier.check_transition(tn)
    _, ready = verifier.check_keys(tn)
    assert ready.abstract is not None
    proved = {r.invariant for r in first if r.key == ready.abstract[r.invariant]}
    assert proved
    dearer = Verifier(load_toy_with(_price(150)).program.titles["Toy"], cache=cache)
    keys, _ = dearer.check_keys(next(t for t in dearer.transitions if t.name == "buy_train"))
    for inv in proved:
        assert keys[inv] == ready.abstract[inv]
    after = dearer.check_transition(next(t for t in dearer.transitions if t.name == "buy_train"))
    assert all(r.cached for r in after if r.invariant in proved)
    alone = Verifier(load_toy_with(_price(150)).program.titles["Toy"], cache=Cache(None))
    fresh = alone.check_transition(next(t for t in alone.transitions if t.name == "buy_train"))
    assert [(r.invariant, r.status) for r in after] == [(r.invariant, r.status) for r in fresh]
