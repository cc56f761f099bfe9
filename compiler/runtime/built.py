"""The values the library accepts that the runtime does not play.

The library declares what a title may say (`param NAME: TYPE`); a few values it
accepts are declared for the titles that will need them before the runtime plays
them. Each is listed here once: `rulec check` refuses a title that sets one where
it would be read (E033, `compiler.check_play`), and the runtime raises `RuleGap`
from the same entry should one reach play anyway (`refusal`). A value built later
leaves this table with the runtime change that builds it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unbuilt:
    """A parameter's value the runtime does not play.

    `value` is as the title writes it: a name (`passing_order`) or a bool;
    `when`: (parameter, value) under which the runtime reads the parameter at all
    (None: always); `why`: what is missing, in a line."""

    param: str
    value: str | bool
    when: tuple[str, str] | None
    why: str


UNBUILT: tuple[Unbuilt, ...] = (
    Unbuilt("auction_pass_final", False, ("first_round", "auction"),
            "re-entering an auction after passing is not built: only `auction_pass_final: true` plays"),
    Unbuilt("seating_after_auction", "passing_order", ("first_round", "auction"),
            "the seating by passing order after an opening auction (first_round: auction) is not built; "
            "only unchanged and cash_ascending play (passing_order plays after an open_auction)"),
)


def unbuilt(param: str, value) -> Unbuilt | None:
    """The entry for `param` set to `value`, or None where the runtime plays it."""
    return next((u for u in UNBUILT if u.param == param and u.value == value and type(u.value) is type(value)),
                None)
