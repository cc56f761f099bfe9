"""Track, part 4: trains and what a run earns (`TrainSpec`, the route bonuses, `run_value`), which
`compiler.runtime.track.routes`' search and route checks read.

Part of `compiler.runtime.track` (its docstring holds the conventions).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence


@dataclass(frozen=True)
class TrainPart:
    """One part of a train's distance: it may visit `visit` nodes of `kinds`
    and is paid for the best `pay` of them, times `multiplier`."""

    kinds: frozenset[str]
    pay: int
    visit: int
    multiplier: int = 1


@dataclass(frozen=True)
class TrainSpec:
    """What a train may run (1800 §11.3-§11.4, 1880 VII.3.5.1, 18CO 5.8.8).

    Build it from a DSL train dict with `TrainSpec.from_dict`: `distance` an
    int n (n stops of any kind, all paid), "n+m" (n cities/off-boards plus m
    towns), or a list of parts {nodes, pay, visit, multiplier} as in
    18xx.games; `multiplier` doubles a "D"/"x2" train. A node of a kind no
    part lists is passed without stopping (express trains skip towns).
    `own_station` (the train dict's `must_count_own_station_city`): among the
    stops the train is paid for there must be a city with one of the
    company's stations (1880 VII.3.5.1, the 6E and 8E); such a city is
    given to the evaluation as kind OWN_CITY."""

    name: str
    parts: tuple[TrainPart, ...]
    multiplier: int = 1
    own_station: bool = False

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | int | str | Sequence[Any], name: str | None = None
    ) -> TrainSpec:
        if isinstance(data, TrainSpec):
            return data
        if isinstance(data, Mapping):
            distance = data.get("distance")
            name = name or str(data.get("id") or data.get("name") or data.get("key") or distance)
            multiplier = int(data.get("multiplier", 1) or 1)
            own_station = bool(data.get("must_count_own_station_city", False))
        else:
            distance, multiplier, own_station = data, 1, False
            name = name or str(data)
        if isinstance(distance, bool) or distance is None:
            raise ValueError(f"train {name}: no distance")
        plain = isinstance(distance, (int, str))
        key = distance if plain else id(distance)
        kept = _PARTS.get(key)
        if kept is not None and (kept[0] is distance or (plain and type(kept[0]) is type(distance)
                                                         and kept[0] == distance)):
            return cls(name, kept[1], multiplier, own_station)
        parts = _parts(distance, name)
        if len(_PARTS) >= 1024:
            _PARTS.clear()
        _PARTS[key] = (distance, parts)
        return cls(name, parts, multiplier, own_station)

    def counts(self, kind: str) -> bool:
        """Whether a node of `kind` is a stop for this train (a function of the parts: kept with the spec,
        kind by kind, outside its fields)."""
        known = self.__dict__.get("_counted")
        if known is None:
            known = {}
            object.__setattr__(self, "_counted", known)
        found = known.get(kind)
        if found is None:
            found = known[kind] = any(_takes(part, kind) for part in self.parts)
        return found

    def revenue(self, stops: Iterable[tuple[str, int]]) -> int | None:
        """Best revenue for visiting `stops` ((kind, revenue) of each counted
        node), or None if the train may not visit them all."""
        return _evaluate(self, tuple(sorted((-revenue, kind) for kind, revenue in stops)))

    def describe(self) -> str:
        """The distance in words: "2 stops", "4 cities/off-boards + 4 towns"."""
        bits = []
        for part in self.parts:
            kinds = "/".join(_PLURAL[k] for k in sorted(part.kinds))
            if part.kinds >= {"city", "town", "offboard"}:
                kinds = "stops"
            many = "any number of" if part.visit >= 99 else str(part.visit)
            paid = f" (paid for the best {part.pay})" if part.pay < part.visit else ""
            bits.append(f"{many} {kinds}{paid}")
        return " + ".join(bits)


#: a train's parts by its distance (the value, or the identity of a list of parts, kept with it): a function
#: of the distance alone, asked for every train of every run searched for or checked
_PARTS: dict[Any, tuple[Any, tuple[TrainPart, ...]]] = {}


def _parts(distance: Any, name: str) -> tuple[TrainPart, ...]:
    """A train's parts from its `distance` (see `TrainSpec`); ValueError when it cannot be read."""
    everything = EVERY_STOP
    if isinstance(distance, int):
        parts: tuple[TrainPart, ...] = (TrainPart(everything, distance, distance),)
    elif isinstance(distance, str) and re.fullmatch(r"\d+\+\d+", distance):
        big, small = (int(x) for x in distance.split("+"))
        parts = (
            TrainPart(frozenset({"city", "offboard"}), big, big),
            TrainPart(frozenset({"town"}), small, small),
        )
    elif isinstance(distance, str) and distance.isdigit():
        parts = (TrainPart(everything, int(distance), int(distance)),)
    elif isinstance(distance, Sequence) and not isinstance(distance, str):
        parts = tuple(
            TrainPart(
                frozenset(p["nodes"]),
                _visits(p["pay"]),
                _visits(p.get("visit", p["pay"])),
                int(p.get("multiplier", 1) or 1),
            )
            for p in distance
        )
    else:
        raise ValueError(f"train {name}: cannot read distance {distance!r}")
    return parts


def _visits(value: Any) -> int:
    """A train part's `pay` or `visit`: a number, or "unlimited" (an express train's any number of
    stops, 1880 VII.3.5.1; 18CO's E train, §5.8.8.4)."""
    return UNLIMITED_VISITS if value == "unlimited" else int(value)


#: what "unlimited" stands for: more stops than any route has
UNLIMITED_VISITS = 99

#: the stop kind of a city holding one of the running company's stations, for a train with
#: `own_station` (it counts as a city for the train's parts)
OWN_CITY = "own_city"


def _takes(part: TrainPart, kind: str) -> bool:
    """Whether a train part may take a stop of `kind` (an OWN_CITY is a city)."""
    return kind in part.kinds or (kind == OWN_CITY and "city" in part.kinds)

_PLURAL = {"city": "cities", "town": "towns", "offboard": "off-boards", "junction": "junctions",
           "port": "ports", "own_city": "cities with a station of the company"}

#: the stop kinds a plain n-train counts (a port only where a hex `stops_as: port`)
EVERY_STOP = frozenset({"city", "town", "offboard", "port"})


@lru_cache(maxsize=1 << 16)
def _evaluate(spec: TrainSpec, stops: tuple[tuple[int, str], ...]) -> int | None:
    """`TrainSpec.revenue` on stops given as sorted (-revenue, kind) pairs:
    `_evaluate_forced` with every stop free to go unpaid."""
    return _evaluate_forced(spec, tuple((1, negative, kind) for negative, kind in stops))


# ---------------------------------------------------------------- route bonuses


@dataclass(frozen=True)
class RouteBonus:
    """Revenue a run earns beyond its stops' values (1846's East-West bonus, 18CO
    §5.8.8.5's Salt Lake City bonus, a private's revenue marker).

    The run stops in a hex of `first` and, when `second` is given, also in a
    hex of `second`; it then earns `amount` plus the bonus listed with each of
    those two hexes (`first` and `second` are (hex, bonus) pairs; the best pair
    counts where several match). `at_ends`: the two stops must be the run's two
    ends. `paid_only`: only stops the train is paid for count (an N/M train
    chooses its paid stops to include them where it can)."""

    name: str
    first: tuple[tuple[str, int], ...]
    second: tuple[tuple[str, int], ...] | None = None
    amount: int = 0
    at_ends: bool = False
    paid_only: bool = True

    def hexes(self) -> frozenset[str]:
        return frozenset(h for h, _ in self.first + (self.second or ()))

    def earned(self, stops: Sequence[str], ends: tuple[str, str]) -> int:
        """What a run earns whose counted stops lie in the hexes `stops` and
        whose two ends lie in `ends`; 0 where the bonus does not apply."""
        if self.at_ends:
            a, b = ends
            pairs = [(a, b), (b, a)] if self.second is not None else [(a, a), (b, b)]
            best = None
            for x, y in pairs:
                one = [v for h, v in self.first if h == x and x in stops]
                two = [v for h, v in (self.second or ()) if h == y and y in stops]
                if one and (self.second is None or two):
                    value = max(one) + (max(two) if two else 0)
                    best = value if best is None else max(best, value)
            return 0 if best is None else self.amount + best
        here = set(stops)
        one = [(h, v) for h, v in self.first if h in here]
        if not one:
            return 0
        if self.second is None:
            return self.amount + max(v for _, v in one)
        two = [(h, v) for h, v in self.second if h in here]
        pairs = [a + b for ha, a in one for hb, b in two if ha != hb]
        return self.amount + max(pairs) if pairs else 0


@dataclass(frozen=True)
class StopLimit:
    """A run may stop in at most `most` of the hexes `hexes` (1846: one East
    off-board area per run; 18 Grand Junction: one East and one West)."""

    name: str
    hexes: frozenset[str]
    most: int = 1


@dataclass(frozen=True)
class Bonuses:
    """Everything a company's runs earn beyond their stops, and the limits on
    which stops a run may combine: `bonuses` per run, `limits` on each run,
    and `per_stop` (1846's Mail Contract): the company's run with the most
    stops earns that much more for each stop it visits."""

    bonuses: tuple[RouteBonus, ...] = ()
    limits: tuple[StopLimit, ...] = ()
    per_stop: int = 0

    def __bool__(self) -> bool:
        return bool(self.bonuses or self.limits or self.per_stop)


NO_BONUSES = Bonuses()


def _breaks_limit(extras: Bonuses, hexes: Sequence[str]) -> StopLimit | None:
    for limit in extras.limits:
        if sum(1 for h in hexes if h in limit.hexes) > limit.most:
            return limit
    return None


@lru_cache(maxsize=1 << 16)
def _evaluate_forced(spec: TrainSpec, stops: tuple[tuple[int, int, str], ...]) -> int | None:
    """The best revenue of a train (`spec`) on `stops`, sorted, given as
    (0, -revenue, kind) for a stop that must be paid and (1, -revenue, kind)
    for one that may go unpaid: the forced come first, then the best, so each
    part pays for the first `pay` stops it takes. None if the train may not
    visit them all or cannot pay all the forced ones.

    A dynamic programme over the stops: states are visits per part (with
    `own_station`, also paid per part and whether a city with the company's
    station is paid) -> best paid revenue."""
    if spec.own_station:
        return _evaluate_forced_own(spec, stops)
    parts = spec.parts
    states: dict[tuple[int, ...], int] = {(0,) * len(parts): 0}
    for free, negative, kind in stops:
        revenue = -negative
        nxt: dict[tuple[int, ...], int] = {}
        for counts, value in states.items():
            for k, part in enumerate(parts):
                if _takes(part, kind) and counts[k] < part.visit:
                    paid = counts[k] < part.pay
                    if not free and not paid:
                        continue
                    grown = counts[:k] + (counts[k] + 1,) + counts[k + 1 :]
                    worth = value + (revenue * part.multiplier if paid else 0)
                    if nxt.get(grown, -1) < worth:
                        nxt[grown] = worth
        if not nxt:
            return None
        states = nxt
    return max(states.values()) * spec.multiplier


def _evaluate_forced_own(spec: TrainSpec, stops: tuple[tuple[int, int, str], ...]) -> int | None:
    """`_evaluate_forced` for a train with `own_station`: the forced stops are paid, the others may
    be, keeping paid places for a city with the company's station (kind OWN_CITY); only paid sets
    with such a city count (1880 VII.3.5.1)."""
    parts = spec.parts
    n = len(parts)
    states: dict[tuple[int, ...], int] = {(0,) * (2 * n + 1): 0}
    for free, negative, kind in stops:
        revenue = -negative
        nxt: dict[tuple[int, ...], int] = {}
        for key, value in states.items():
            visits, paid, own = key[:n], key[n : 2 * n], key[2 * n]
            for k, part in enumerate(parts):
                if not _takes(part, kind) or visits[k] >= part.visit:
                    continue
                grown = visits[:k] + (visits[k] + 1,) + visits[k + 1 :]
                options = [(paid, own, value)] if free else []
                if paid[k] < part.pay:
                    options.append((paid[:k] + (paid[k] + 1,) + paid[k + 1 :],
                                    own or int(kind == OWN_CITY), value + revenue * part.multiplier))
                for paid2, own2, worth in options:
                    state = grown + paid2 + (own2,)
                    if nxt.get(state, -1) < worth:
                        nxt[state] = worth
        if not nxt:
            return None
        states = nxt
    best = [v for key, v in states.items() if key[-1]]
    return max(best) * spec.multiplier if best else None


def run_value(
    spec: TrainSpec, stops: Sequence[tuple[str, str, int]], ends: tuple[str, str], extras: Bonuses
) -> int | None:
    """The revenue of one run with its bonuses: `stops` are the counted stops
    as (hex, kind, revenue), `ends` the hexes of the run's two ends. None if
    the train may not visit them. An N/M train picks the paid stops that earn
    the most, bonuses included (18xx.games implementation: the bonus of an
    N/M train needs its stops among the paid ones). `per_stop` is not here:
    it belongs to the set of runs."""
    base = _evaluate(spec, tuple(sorted((-r, k) for _h, k, r in stops)))
    if base is None or not extras.bonuses:
        return base
    hexes = [h for h, _k, _r in stops]
    every = all(p.pay >= p.visit for p in spec.parts)
    loose = sum(b.earned(hexes, ends) for b in extras.bonuses if not b.paid_only)
    paid = [b for b in extras.bonuses if b.paid_only]
    if every or not paid:
        return base + loose + sum(b.earned(hexes, ends) for b in paid)
    relevant = set().union(*(b.hexes() for b in paid))
    marked = [i for i, (h, _k, _r) in enumerate(stops) if h in relevant]
    best = base
    for size in range(1, len(marked) + 1):
        for forced in itertools.combinations(marked, size):
            chosen = [stops[i][0] for i in forced]
            gain = sum(b.earned(chosen, ends) for b in paid)
            if not gain:
                continue
            value = _evaluate_forced(
                spec, tuple(sorted((0 if i in forced else 1, -r, k) for i, (_h, k, r) in enumerate(stops)))
            )
            if value is not None and value + gain > best:
                best = value + gain
    return best + loose
