"""The things of a game: players, corporations, privates, certificates, trains.

Entities are small immutable values, made once when a game starts; what
changes during play (cash, owners, share prices, flags) lives in the
`State` that the game owns, keyed by entity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence, TypeVar


@dataclass(frozen=True, order=True)
class Entity:
    """A player, corporation, private, bond, minor, the bank or the pool.

    `kind` is the component kind ("player", "corporation", "private",
    "bond", "minor", "bank", "pool"); `id` is its symbol or, for a player,
    the name; `data` the component's static properties (not compared).
    """

    kind: str
    id: str
    title: str = field(default="", compare=False)
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return self.id

    def __hash__(self) -> int:
        # equal entities have equal ids; play hashes entities in every lookup
        return hash(self.id)

    def __eq__(self, other: object) -> bool:
        # what the dataclass would compare (kind and id, for the same class), without building tuples:
        # play compares holders in every ownership question
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.id == other.id and self.kind == other.kind  # type: ignore[attr-defined]

    def get(self, name: str, default: Any = None) -> Any:
        return self.data.get(name, default)


BANK = Entity("bank", "bank", "Bank")
POOL = Entity("pool", "pool", "Bank Pool")
#: the IPO: every corporation's unsold certificates where they are not its treasury's (the library's
#: `ipo_of`: under `capitalisation: full` or `partial`); each certificate names its corporation, so one holder serves them all
IPO = Entity("ipo", "ipo", "IPO")
SCRAP = Entity("scrap", "scrap", "Scrapped")
DEPOT = Entity("depot", "depot", "Depot")
#: the money a title's `subsidy` sets aside from the bank for track subsidies, phase by phase
SUBSIDY = Entity("subsidy", "subsidy", "Subsidy pool")


@dataclass(frozen=True, order=True)
class Certificate:
    """A share certificate: id "DRGW_0" (the president's is index 0).

    `percent` is what it is worth (40 for 1800's four-share director
    certificate); `shares` how many shares it counts as.
    """

    corporation: str
    index: int
    percent: int
    president: bool = False
    #: "DRGW_0": made once, as play looks it up on every ownership question
    id: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", f"{self.corporation}_{self.index}")

    @property
    def shares(self) -> int:
        return self.percent // 10

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, order=True)
class Train:
    """A train card: id "2-0" (name, then the copy's index)."""

    name: str
    index: int
    distance: Any = field(compare=False, default=None)
    price: int = field(compare=False, default=0)
    #: the side of a two-sided card chosen at purchase ("3/5" of a "4"); None: the card's own
    side: str | None = field(compare=False, default=None)

    #: "2-0": made once
    id: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", f"{self.name}-{self.index}")

    def __str__(self) -> str:
        return self.id


_Cert = TypeVar("_Cert")


def exchange_sets(certificates: Sequence[_Cert]) -> list[tuple[_Cert, ...]]:
    """The sets of a corporation's ordinary certificates worth exactly its
    president's certificate, in the order a challenger taking the presidency
    gives them (1800 §9.2, 18CO §4.5, 1880 VI.8: he trades shares worth the
    president's certificate for it): the fewest certificates first, then the
    highest-numbered. `certificates`: the corporation's layout, each with
    `percent`, `index` and `president` (runtime certificates or the
    verifier's). With equal shares this is the highest-numbered shares the
    challenger holds; with mixed sizes (18CO's DSNG: 20% and 10% shares) a
    single 20% share is given where he has one, not a 10% that leaves no way
    to make up the rest."""
    president = next((c for c in certificates if getattr(c, "president")), None)
    if president is None:
        return []
    ordinary = sorted((c for c in certificates if not getattr(c, "president")), key=lambda c: -getattr(c, "index"))
    need = getattr(president, "percent")
    smallest = min((getattr(c, "percent") for c in ordinary), default=0)
    most = need // smallest if smallest > 0 else 0
    out: list[tuple[_Cert, ...]] = []
    for size in range(1, min(most, len(ordinary)) + 1):
        # combinations keep the order given: highest-numbered sets first
        out.extend(group for group in combinations(ordinary, size)
                   if sum(getattr(c, "percent") for c in group) == need)
    return out
