"""Train prices as symbols: the abstract translation of a transition (`Verifier.check_keys`).

A check whose proof does not need the value of a train's price holds for every price: after an
erratum that changes only a price it need not be proved again. So a transition is translated first
with every train price it reads (a card's printed price, `Model.train_price` and the card records'
`price`, `Model.card_value`) a z3 constant of its own, `train_price~CARD`, constrained by nothing, and
with the price's value not read (its read is recorded as ("train_known", CARD): whether the card has
a printed price, not which). Such a translation's key (`Verifier._translate`) holds no price; a check
proved on it (unsat for every value of the constants) is proved for the title's prices, since putting
the printed prices in for the constants gives the concrete translation's query, and is filed under
that key (`Verifier.check_transition`). A check it does not prove (a counterexample, which may need a
price no card has, an unknown, a gap) is checked again on the concrete translation, whose key holds
the prices, with the verifier's full budget: its outcome is the concrete one.

A price that is not an integer (a gap, unset) is read as it is, recorded by its value. Inside
`abstract()` every price an integer is a constant; `used` says which cards' were.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

#: The cards whose price was made a constant, one set per `abstract()` under way (innermost last);
#: none: prices are read as printed
_ABSTRACT: list[set[str]] = []
#: The constant of each card's price, made once (so that a function's memo, which keys terms by
#: their identity, answers the calls of one card's price alike)
_SYMBOLS: dict[str, z3.ArithRef] = {}


class abstract:
    """`with abstract() as used:` translates with train prices as constants (`term`); `used` collects
    the cards whose price was one."""

    def __enter__(self) -> set[str]:
        _ABSTRACT.append(set())
        return _ABSTRACT[-1]

    def __exit__(self, *exc: Any) -> None:
        _ABSTRACT.pop()


def symbol(card: str) -> z3.ArithRef:
    """The constant standing for `card`'s price in an abstract translation."""
    if card not in _SYMBOLS:
        _SYMBOLS[card] = z3.Int(f"train_price~{card}")
    return _SYMBOLS[card]


def term(card: str, value: Any, record: Callable[[tuple[str, ...]], None]) -> Any:
    """`card`'s price as a translation reads it: `value` (its read recorded as ("train", CARD,
    "price")), or inside `abstract()`, where `value` is an integer, its constant (the read recorded
    as ("train_known", CARD): only that it is an integer)."""
    if _ABSTRACT and isinstance(value, int) and not isinstance(value, bool):
        record(("train_known", card))
        _ABSTRACT[-1].add(card)
        return symbol(card)
    record(("train", card, "price"))
    return value


def known(value: Any) -> bool:
    """What a ("train_known", CARD) read reads of the card's `price`: whether it is an integer."""
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["abstract", "known", "symbol", "term"]
