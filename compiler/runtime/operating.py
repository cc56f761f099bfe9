"""The operating round: trains and phases, routes, revenue and dividends, a corporation's steps and
turn, emergency money raising, loans, government subsidies, takeovers, and the rounds held after a
set of operating rounds (acquisition, special).

`OperatingRound` is a part of `GameBase` (compiler/runtime/game.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from compiler.runtime import track
from compiler.runtime.data import resolve_value
from compiler.runtime.entities import BANK, DEPOT, POOL, SCRAP, SUBSIDY, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.holdings import OwnersReads
from compiler.runtime.vocabulary import MAP_STEPS


class OperatingRound:
    """GameBase's operating round, trains, phases, routes and dividends."""

    # ------------------------------------------------------------ builtins: trains, routes, revenue, loans

    def b_trains(self, holder: Entity) -> list[Train]:
        # the trains H holds, in the order of the game's trains, from the owners' index of trains
        # (`Owners.trains_of`): no pass over every train
        trains = self.trains
        return [trains[tid] for tid in self.owner.trains_held(holder)]

    def _phase_at_least(self, name: str) -> bool:
        """Whether the phase `name` has begun (a primitive's own reading: an ability's phases, a train's
        `available_from`; the rules ask the library's phase_at_least, over `phases` and `phase_number`)."""
        keys = [p["key"] for p in self.phases]
        return keys.index(self.g["phase"]) >= keys.index(str(name))

    def b_available_trains(self) -> list[Train]:
        return [self.trains[tid] for tid in self._available_train_ids()]

    def _route_extras(self, corp: Entity) -> "track.Bonuses":
        """What `corp`'s runs earn beyond their stops, and the limits on the stops a run may combine, for
        the route search and the route check alike:
        - each `revenue_bonus` component of the title: a run stopping in a hex of `stops_a` and (if given)
          one of `stops_b` earns `amount` plus the bonus listed with each of the two hexes; `at_ends` (the
          two are the run's ends), `paid_stops_only` (an N/M train must be paid for them; default true),
          `limit_a` / `limit_b` (a run stops in at most that many hexes of the list);
        - each revenue marker `corp` has on the map (place_marker): its bonus for a run stopping in its hex;
        - each open private `corp` owns with `effect: stop_bonus`, and the library's run_bonus_per_stop(C)
          (a title replaces it): `bonus_per_stop` for each stop of its run with the most stops."""
        printed = self.__dict__.get("_printed_bonuses")
        if printed is None:
            printed = self.__dict__["_printed_bonuses"] = self._revenue_bonuses()
        bonuses, limits = list(printed[0]), printed[1]
        director = self._director(corp)
        for private, hex_id, owner, bonus in self.g.get("markers", ()):
            if owner == corp.id or (director is not None and owner == director.id):
                bonuses.append(track.RouteBonus(f"{private} marker", ((hex_id, int(bonus)),)))
        per_stop = 0
        for item in self.privates:
            if self.owner[item.id] != corp or self.closed[item.id]:
                continue
            for ability in self._abilities(item, "stop_bonus"):
                per_stop += int(self._value(ability["bonus_per_stop"], f"{item} bonus_per_stop"))
        if corp.kind == "corporation":
            per_stop += int(self.fixed_call("run_bonus_per_stop", corp))
        return track.Bonuses(tuple(bonuses), limits, per_stop)

    def _revenue_bonuses(self) -> tuple[tuple["track.RouteBonus", ...], tuple["track.StopLimit", ...]]:
        """The bonuses and stop limits of the title's `revenue_bonus` components (see `_route_extras`): a
        function of the title's data and the number of players, read once a game (a gap is refused each
        time it is read)."""
        bonuses, limits = [], []
        for comp in self.DATA.components_of("revenue_bonus"):
            what = f"revenue_bonus {comp['key']}"
            sides = []
            for side in ("stops_a", "stops_b"):
                entries = comp.get(side)
                if entries is None:
                    sides.append(None)
                    continue
                pairs = []
                for entry in self._value(entries, f"{what} {side}"):
                    if isinstance(entry, dict):
                        pairs.append((str(entry["hex"]), int(self._value(entry.get("bonus", 0), f"{what} bonus"))))
                    else:
                        pairs.append((str(entry), 0))
                sides.append(tuple(pairs))
                most = comp.get("limit_" + side[-1])
                if most is not None and self._value(most, f"{what} limit") is not None:
                    limits.append(track.StopLimit(f"{comp['key']} {side}", frozenset(h for h, _ in pairs),
                                                  int(self._value(most, f"{what} limit"))))
            if sides[0] is None:
                raise RuleGap(what, "a revenue bonus names its stops in stops_a")
            bonuses.append(track.RouteBonus(
                str(comp["key"]), sides[0], sides[1],
                int(self._value(comp.get("amount", 0), f"{what} amount")),
                bool(self._value(comp.get("at_ends", False), f"{what} at_ends")),
                bool(self._value(comp.get("paid_stops_only", True), f"{what} paid_stops_only"))))
        return tuple(bonuses), tuple(limits)

    def _side_name(self, train: Train) -> str:
        """The side of a train card in play: the one its buyer chose, else the card's own."""
        return self.g.get("sides", {}).get(train.id, train.name)

    def _train_side(self, train: Train, side: str | None) -> Train:
        """`train` as the side `side` (a train `variant_of` it): its distance and price. Only a train the
        bank still sells may change side; otherwise the side chosen at purchase stays."""
        if side is None or self.owner.get(train.id) is not DEPOT:
            side = self._side_name(train)
        elif side != train.name and side not in self.train_sides.get(train.name, ()):
            raise IllegalAction(f"train {train.id} has no side {side!r}")
        if side == train.name:
            return train
        comp = self.DATA.component("train", side)
        return dataclasses.replace(train, distance=comp.get("distance"),
                                   price=int(self._value(comp.get("price"), f"train {side} price")), side=side)

    def _train_dicts(self, corp: Entity) -> dict[str, dict]:
        """The trains `corp` runs: its own, but for those that have run in this operating round already
        (for a company that operated before it bought them); a minor of a title with `minor_train:
        lease_top` runs the bank's top train instead, which stays in the bank (1880 VII.3.5.2)."""
        out = {}
        trains = self.b_trains(corp)
        leases = corp.kind == "minor" and self.DATA.properties.get("minor_train") == "lease_top"
        if corp.kind == "corporation" and "leases_train" in self.ROUTINES:
            # the title's `leases_train(C)`: a corporation that runs the bank's top train as an investor does
            leases = leases or bool(self.call("leases_train", corp))
        if leases:
            top = self._available_train_ids()[:1]
            trains = [self.trains[tid] for tid in top]
        else:
            # a train runs once in an operating round: not one that came from a company that has run already
            trains = [t for t in trains if t.id not in self.g.get("ran", frozenset())]
        longer = corp.kind == "corporation" and self._armed(corp, "longer_trains")
        extended = self.g.get("extended")
        for t in trains:
            comp = dict(self.DATA.component("train", self._side_name(t)))
            comp["id"] = t.id
            if longer:
                comp["distance"] = self._one_more_stop(comp.get("distance"))
            if extended is not None and extended[0] == corp.id and extended[1] == t.id:
                comp["distance"] = self._one_more_stop_of(comp.get("distance"), extended[2])
            out[t.id] = comp
        return out

    def b_extend_run(self, corp: Entity, position: Any, kind: str) -> None:
        """extend_run(C, i, kind): C's train at position i (0 first, in the order C holds them; a number or a
        numeral) runs this turn with one more stop of node kind `kind` (a town: an ability's tender as an
        implementation builds it). Refused (IllegalAction) if C has no train there."""
        trains = self.b_trains(corp)
        try:
            index = int(position)
        except (TypeError, ValueError):
            raise IllegalAction(f"{position!r} names no train of {corp}") from None
        if not 0 <= index < len(trains):
            raise IllegalAction(f"{corp} has no train at position {index}")
        self.j.set(self.g, "extended", (corp.id, trains[index].id, str(kind)))

    @staticmethod
    def _one_more_stop_of(distance, kind: str):
        """A train's distance with one more stop of node kind `kind`: the part of an N+M train that counts
        that kind alone (and no city) pays and visits one more; otherwise a part for one such stop is
        added, the train's own stops kept (a 2 becomes 2 of any kind and 1 of `kind`)."""
        if isinstance(distance, int):
            parts = [{"nodes": ["city", "offboard", "town", "port"], "pay": distance, "visit": distance}]
        else:
            parts = [dict(p) for p in distance or ()]
        for part in parts:
            nodes = [str(n) for n in part.get("nodes") or ()]
            if kind in nodes and "city" not in nodes:
                pay, visit = int(part.get("pay", 0)), int(part.get("visit", part.get("pay", 0)))
                part["pay"], part["visit"] = pay + 1, visit + 1
                return parts
        return parts + [{"nodes": [kind], "pay": 1, "visit": 1}]

    @staticmethod
    def _one_more_stop(distance):
        """A train's distance scoring one more stop (a 2 runs as a 3, a 4/6 as a 5/6): a number grows by
        one; each part of an N/M train is paid for one more stop, visiting one more where it must."""
        if isinstance(distance, int):
            return distance + 1
        if isinstance(distance, list):
            out = []
            for part in distance:
                part = dict(part)
                pay, visit = int(part.get("pay", 0)), int(part.get("visit", part.get("pay", 0)))
                part["pay"] = pay + 1
                part["visit"] = max(visit, pay + 1)
                out.append(part)
            return out
        return distance

    def _must_buy_train(self, corp: Entity) -> bool:
        """Whether C owes a train now: the library's function `must_buy_train` (rulespecs/lib/18xx.rules),
        compiled into the engine, is the one place that says so (the z3 model translates the same function).
        A title without the library owes none."""
        routine = self.ROUTINES.get("must_buy_train")
        return False if routine is None else bool(routine(self, corp))

    # -- personal loans (a player's debt to the bank)

    def b_route_revenue(self, corp: Entity, routes: list[dict], recorded: bool = False) -> int:
        """route_revenue(C, routes): revenue of declared routes: each {"train", "stops": [values]}, or on a map
        {"train", "connections" | "nodes"}, checked and counted by the rules; where the routes each state a
        `revenue` (as 18xx.games logs do), their sum must be the rules' count (IllegalAction otherwise).
        route_revenue(C, routes, true): the routes' records stand where each route has one (`_recorded_revenue`).

        Until a title has a map, a route is declared as its revenue stops;
        each train runs once, visits at most its distance, and its
        `multiplier` (2 for a doubled train) applies.
        """
        return self._recorded_revenue(corp, routes) if recorded else self._route_revenue(corp, routes)

    def _route_revenue(self, corp: Entity, routes: list[dict], check_stated: bool = True) -> int:
        """The rules' count of `routes` (b_route_revenue); `check_stated`: a sum the routes state must be it."""
        if self.board is not None:
            owned = self._train_dicts(corp)
            for route in routes:
                if route.get("train") not in owned:
                    raise IllegalAction(f"{corp} does not own train {route.get('train')}")
            found = self._checked_routes(corp, routes, owned, self._route_extras(corp))
            # a route may say what it earns (18xx.games logs do): the rules' count is checked against it
            stated = [route.get("revenue") for route in routes]
            if check_stated and routes and all(isinstance(v, int) and not isinstance(v, bool) for v in stated) \
                    and sum(stated) != found.revenue:
                raise IllegalAction(f"the routes are said to earn {self.money(sum(stated))}; by the rules they earn "
                                    f"{self.money(found.revenue)} ({', '.join(self.money(r.revenue) for r in found.runs)})")
            return found.revenue
        total = 0
        seen = set()
        for route in routes:
            tid = route.get("train")
            if tid not in self.trains or self.owner[tid] != corp:
                raise IllegalAction(f"{corp} does not own train {tid}")
            if tid in seen:
                raise IllegalAction(f"train {tid} runs twice")
            seen.add(tid)
            stops = route.get("stops", [])
            train = self.trains[tid]
            distance = self._distance(train)
            if len(stops) > distance:
                raise IllegalAction(f"train {tid} visits {len(stops)} stops; it may visit {distance}")
            if any((not isinstance(s, int)) or s < 0 for s in stops):
                raise IllegalAction("a stop's revenue is a whole amount of money, not negative")
            comp = self.DATA.component("train", train.name)
            total += sum(stops) * int(comp.get("multiplier", 1))
        return total

    def _checked_routes(self, corp: Entity, routes: list[dict], owned: dict[str, dict],
                        extras: "track.Bonuses") -> "track.RouteSet":
        """`track.route_revenue` of `corp`'s `routes` (its trains `owned`, its bonuses `extras`), kept in
        `_route_checks` by what it reads (the board's version, the company, the routes, its trains, the
        phase, the bonuses): a replayed run is checked where the automatic pass asks whether the company
        may run (`_declared_run`), tried (`is_legal`) and then taken, in one state. A refusal is not kept."""
        key = (self.board.version, corp.id, self.g["phase"], repr(routes), repr(owned), repr(extras))
        found = self._route_checks.get(key)
        if found is None:
            found = track.route_revenue(self.board, corp.id, routes, self.g["phase"], trains=owned, extras=extras)
            if len(self._route_checks) >= 64:
                self._route_checks.clear()
            self._route_checks[key] = found
        return found

    def _recorded_revenue(self, corp: Entity, routes: list[dict]) -> int:
        """route_revenue(C, routes, true): what the routes' records say they earn (each route's `revenue`, as
        18xx.games writes it: its engine takes the number its client sent), once the routes are checked as
        route_revenue checks them; the rules' count where a route has no record. A record that differs from
        the rules' count stands, and the difference is kept (`revenue_notes`, which a replay reports)."""
        counted = self._route_revenue(corp, routes, check_stated=False)
        if not routes or not all(isinstance(r.get("revenue"), int) and not isinstance(r.get("revenue"), bool)
                                 for r in routes):
            return counted
        recorded = sum(int(r["revenue"]) for r in routes)
        if recorded != counted:
            notes = list(self.g.get("revenue_notes", ()))
            for r in routes:
                own = self._route_revenue(corp, [r], check_stated=False)
                if own != r["revenue"]:
                    notes.append((corp.id, str(r.get("train")), int(r["revenue"]), own, self.g["rounds_played"]))
            self.j.set(self.g, "revenue_notes", tuple(notes))
        return recorded

    def _distance(self, train: Train) -> int:
        d = train.distance
        if isinstance(d, int):
            return d
        if isinstance(d, list):
            return sum(int(part.get("visit", part.get("pay", 0))) for part in d)
        raise RuleGap(f"train {train.name} distance", "not a number of stops")

    def _end_step(self, corp: Entity) -> None:
        """move_turn(C, step_ended), the library's end_step: C's current step is done."""
        if self.g["step"] == "track_and_token":
            # a combined step ends when its station token is placed and its tile lays are used
            self._mark_done_this_turn("token")
            if self.g.get("lays", 0) < len(self._lay_slots()):
                return
        self._next_step()

    def b_train_bought(self, corp: Entity, train: Train, from_bank: bool) -> None:
        if getattr(train, "side", None):
            self.j.set(self.g, "sides", {**self.g.get("sides", {}), train.id: train.side})
        marks = from_bank and self.DATA.component("train", train.name).get("moves_train_purchase_marker") is not False
        if marks:
            # the library's train purchase marker (its state train_marker), which stays put once the end is
            # called: moved before this purchase may call it (1880 VII.3.8: the last train moves it one final time)
            self.call("move_train_marker", corp)
        if from_bank and "final_train" in self.param("game_end") and not self._available_train_ids() \
                and self.g["end_reason"] is None:
            # the last train is sold: the game ends after one more full set of operating rounds
            self.j.set(self.g, "end_reason", "final_train")
            self.j.set(self.g, "end_after_set", self.g["set"] + 1)
        if from_bank and not marks:
            # a train sold beside the stack (1880's rebuilt 2-train): no marker, no phase, no export timer
            return
        if from_bank:
            self.state_put("bank_buys_this_turn", (), self.state_amount("bank_buys_this_turn") + 1)  # the library's
            first = train.name not in self.g["first_bought"]
            if first:
                self.j.set(self.g, "first_bought", self.g["first_bought"] | {train.name})
                self._on_first_train(train)
            self._after_depot_change(train.name)
            if self.g.get("interrupt") and self.g["round"] == "operating":
                # the operating round breaks off at once (1880 VII.3.8)
                self._call_stock_round(corp)

    def _param_or(self, name: str, default):
        """A library parameter that older titles predate: the title's value,
        else the behaviour every title had before the parameter existed."""
        return self.param(name) if self.DATA.has(name) or name in self.option_sets else default

    def _after_depot_change(self, name: str) -> None:
        """A train type may have left the bank: where the title says, its last
        train ends the game's normal course or calls a stock round."""
        if any(self.trains[tid].name == name for tid in self.train_order if self.owner[tid] is DEPOT):
            return
        comp = self.DATA.component("train", name)
        if "last_train" in self.param("game_end") and comp.get("last_one_ends_game") and self.g["end_reason"] is None:
            self.j.set(self.g, "end_reason", "last_train")
        if ("train_sold_out" in self._param_or("stock_round_when", ["after_set"])
                and comp.get("last_one_starts_stock_round", True) and self.g.get("final_marker") is None):
            self.j.set(self.g, "interrupt", True)

    def _export_trains(self) -> None:
        """Export (1880 VII.3.10): the rest of the type the bank now sells
        leaves the game; a first export counts as a first purchase."""
        ids = self._available_train_ids()
        if not ids:
            return
        train = self.trains[ids[0]]
        comp = self.DATA.component("train", train.name)
        if comp.get("exported") is False:
            return
        if train.name not in self.g["first_bought"]:
            self.j.set(self.g, "first_bought", self.g["first_bought"] | {train.name})
            self._on_first_train(train)
        for tid in self.train_order:
            if self.trains[tid].name == train.name and self.owner[tid] is DEPOT:
                self.j.set(self.owner, tid, SCRAP)
        self.emit("trains_exported", train.name)
        self._after_depot_change(train.name)

    # ------------------------------------------------------------ trains and phases

    def _phase(self) -> dict:
        for p in self.phases:
            if p["key"] == self.g["phase"]:
                return p
        raise RuleGap("phase", f"no phase {self.g['phase']!r}")

    def _phase_ors(self, phase: dict) -> int:
        if "train_sold_out" in self._param_or("stock_round_when", ["after_set"]):
            return 0  # no sets: operating rounds run on until a train type sells out
        return int(resolve_value(f"phase {phase['key']} operating_rounds", phase.get("operating_rounds"), players=getattr(self, "n", None)))

    def _available_train_ids(self) -> list[str]:
        """Trains the depot sells now: the next in supply order, any train
        whose `available_after` names a train type (or types) sold out, and
        any train whose `available_from` phase has come (1880's rebuilt
        2-trains, sold beside the stack). A train a corporation owns from
        the start (`owner`) is never sold."""
        owner = self.owner
        # a function of who holds the trains and of the phase: kept by the owners' train stamp (a new one at
        # every train's change of holder, a rolled-back one included) and the phase
        key = (owner.train_stamp, self.g["phase"])
        kept = self.__dict__.get("_available_kept")
        if kept is not None and kept[0] == key:
            return list(kept[1])
        out = self._available_train_ids_now()
        self.__dict__["_available_kept"] = (key, tuple(out))
        return out

    def _available_train_ids_now(self) -> list[str]:
        """`_available_train_ids`, worked out."""
        owner, depot = self.owner, DEPOT
        terms = self._train_terms()
        in_depot = [term for term in terms[0] if owner[term[0]] is depot]
        if not in_depot:
            return []
        out = []
        sold_out = terms[1] - {name for _tid, name, _after, _since in in_depot}
        seen_names = set()
        first = in_depot[0][0]
        for tid, name, after_all, since in in_depot:
            if name in seen_names:
                continue
            if tid == first or (after_all is not None and all(a in sold_out for a in after_all)) or (
                    since is not None and self._phase_at_least(since)):
                out.append(tid)
                seen_names.add(name)
        return out

    def _train_terms(self) -> tuple[tuple[tuple[str, str, tuple[str, ...] | None, str | None], ...], frozenset[str]]:
        """What `_available_train_ids` reads of the trains' components, which never change in play, made
        once a game: for each train the depot may sell, in supply order (none a corporation owns from
        the start, `owner`), its id, its type, the types that must all be sold out before it is
        (`available_after`; None where it names none) and the phase it is sold from (`available_from`,
        where it names one); and every train type of the game."""
        terms = self.__dict__.get("_train_terms_made")
        if terms is None:
            sold = []
            for tid in self.train_order:
                name = self.trains[tid].name
                comp = self.DATA.component("train", name)
                if comp.get("owner") is not None:
                    continue
                after = comp.get("available_after")
                # `available_after`: a train type, or a list of types that must all be sold out
                after_all = None if after is None else tuple(
                    str(a) for a in after) if isinstance(after, (list, tuple)) else (str(after),)
                since = comp.get("available_from")
                sold.append((tid, name, after_all, since if isinstance(since, str) else None))
            terms = self.__dict__["_train_terms_made"] = (tuple(sold), frozenset(t.name for t in self.trains.values()))
        return terms

    def _on_first_train(self, train: Train) -> None:
        """The first train of a type is bought (or exported): the runtime raises `first_of_type`, on which the
        library's trigger `first_train` calls its procedure `on_first_train`, which makes older types obsolete
        or rusts them (its procedure `rust_trains`) and starts the phase the type begins (its procedure
        `make_obsolete` and the primitive `enter_phase`), and raises the event `first_train`."""
        self.emit("first_of_type", train)

    def b_enter_phase(self, name: str) -> None:
        """enter_phase(P): phase P begins: its subsidy pool, its events, `phase_start`, the decisions owed as it
        begins, and a discard owed by each corporation over the new train limit."""
        for phase in self.phases:
            if phase["key"] == str(name):
                self._enter_phase(phase)
                return
        raise RuleGap("phase", f"no phase {name!r}")

    def _phase_index(self, key: str) -> int:
        """The place of the phase `key` among the title's phases, from 0 (ValueError where none has it):
        from an index of the phases' keys, made again where the list of phases is another or grows."""
        phases = self.phases
        known = self.__dict__.get("_phase_places")
        if known is None or known[0] is not phases or known[1] != len(phases):
            places: dict[str, int] = {}
            for i, p in enumerate(phases):
                places.setdefault(p["key"], i)
            known = self.__dict__["_phase_places"] = (phases, len(phases), places)
        place = known[2].get(key)
        if place is None:
            return [p["key"] for p in phases].index(key)  # (its ValueError, or a key no dict lookup finds)
        return place

    def _enter_phase(self, phase: dict) -> None:
        self.j.set(self.g, "phase", phase["key"])
        self._new_subsidy_pool()
        for event in phase.get("events", []) or []:
            self.emit(str(event))
        self.emit("phase_start", phase["key"])
        for company in self.privates:
            self.call("owe_ability_decisions", company, "phase_start", str(phase["key"]))  # (the library's)
        for corp in self.corporations:
            if self.call("limit_trains", corp) > self.call("train_limit", corp):
                self.call("require_decision", corp, "discard_train")

    # pending decisions: an entity out of turn must act before play goes on (the library's list state
    # `decisions`, each element (kind, id, action); require_decision, resolve_decision its procedures)

    def _declinable_pending(self) -> bool:
        """Whether the first pending decision is of an action the title lists in `declinable_decisions`:
        its owner may then `pass` instead, which takes the decision without doing it."""
        pending = self.g.get("state:decisions")
        return bool(pending) and pending[0][2] in [str(a) for a in self.DATA.properties.get("declinable_decisions") or ()]

    def _next_decision(self, entity: Entity) -> None:
        """move_turn(E, decisions_changed): the decisions owed (the library's list state `decisions`) have changed: the first
        one's entity acts (`current_entity`); where none is left and the decisions were asked at the end of
        an operating round or before its first company operates, play goes on there."""
        if self.g.get("state:decisions"):
            return
        if self.g.get("after_decisions") == "operating_round_end":
            # the decisions asked at the end of an operating round are taken: play goes on
            self.j.set(self.g, "after_decisions", None)
            self._after_operating_round()
        elif self.g.get("after_decisions") == "operating_order_set":
            # the decisions asked before the first company operates are taken: the round begins
            self.j.set(self.g, "after_decisions", None)
            self._next_corporation()

    # ------------------------------------------------------------ government subsidies (a `subsidy` component)

    def _subsidy(self) -> dict | None:
        comps = self.DATA.components_of("subsidy")
        return comps[0] if comps else None

    def _new_subsidy_pool(self) -> None:
        """At the start of each phase (the game's first included) the title's `subsidy` sets a pool aside
        from the bank: the amount its `pool_table` gives for the player count and the phase; what is left
        of the previous pool goes back to the bank first."""
        comp = self._subsidy()
        if comp is None:
            return
        self.transfer(self.cash[SUBSIDY], SUBSIDY, BANK)
        amount = int(self.param(str(comp.get("pool_table")), phase=self.g["phase"]))
        self.transfer(amount, BANK, SUBSIDY)

    def b_subsidy_left(self) -> int:
        """subsidy_left(): the money left in the subsidy pool of the current phase."""
        return self.cash.get(SUBSIDY, 0)

    def b_subsidise_track(self, corp: Entity, cost: int) -> int:
        """subsidise_track(C, cost): once C has paid `cost` for track, the subsidy pool refunds its
        `refund` percentage of it (rounded down), or what is left in the pool if that is less; returns
        the refund (0 without a `subsidy` in the title)."""
        comp = self._subsidy()
        if comp is None or cost <= 0:
            return 0
        share = int(self._value(comp.get("refund"), "subsidy refund"))
        refund = min(cost * share // 100, self.cash[SUBSIDY])
        self.transfer(refund, SUBSIDY, corp)
        return refund

    # ------------------------------------------------------------ rounds: operating

    def _start_operating_round(self) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "operating")
        self.j.set(self.g, "or", self.g["or"] + 1)
        self._reset_states("operating_round_start")
        self.emit("operating_round_start")
        floated = [c for c in self.corporations if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"]]
        first = self.g["set"] == 1 and self.g["or"] == 1
        self.j.set(self.g, "moved", frozenset())  # a round track's markers all wait on the current circle
        self.j.set(self.g, "ran", frozenset())  # no train has run in this round yet
        if self._round_track() is not None:
            order = sorted(floated, key=self._round_track_key)
        elif first and self.DATA.properties.get("first_operating_order") == "lowest_price_first":
            order = sorted(floated, key=self._lowest_first_key)
        else:
            order = sorted(floated, key=self._operating_key)
        # minors a player owns operate first, in the title's order of minors
        minors = [m for m in self.minors if self.corp[m.id]["floated"] and not self.corp[m.id]["closed"]]
        self._set_order([c.id for c in minors + order])
        self.j.set(self.g, "operating", None)
        self._round_start_homes(order)
        # the order is known: its triggers may ask the players for decisions, taken before anyone operates
        self.emit("operating_order_set")
        if self.g.get("state:decisions"):
            self.j.set(self.g, "after_decisions", "operating_order_set")
            return
        self._next_corporation()

    # -- the round track (1880 VI.6, VII.1): `operating_order: round_track` and the `round_track` component
    #    the title names `operating_track` (the library's parameter, required with that order: the checker's
    #    E027), whose `par_groups` lists the par prices top to bottom, each with `rows_per_par_price` rows.
    #    The markers are the library's: its state track_slot, set by its procedure take_round_track_row

    def _round_track(self) -> dict | None:
        """The title's round track component (`operating_track`), where `operating_order` is `round_track`
        (else None)."""
        if self.DATA.properties.get("operating_order") != "round_track":
            return None
        key = self.DATA.properties.get("operating_track")
        if key is None or not any(c["key"] == key for c in self.DATA.components_of("round_track")):
            raise RuleGap("operating_track", "operating_order round_track needs the title's round track "
                                             "(operating_track: the key of its round_track component)")
        return self.DATA.component("round_track", key)

    def _round_track_rows(self, price: int) -> range:
        """The row numbers (0 at the top) of the round track under par price `price`; empty if none."""
        track_ = self._round_track()
        groups = [int(p) for p in self._value(track_.get("par_groups"), "round_track par_groups")]
        rows = int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))
        if int(price) not in groups:
            return range(0)
        start = groups.index(int(price)) * rows
        return range(start, start + rows)

    def _track_row(self, corp_id: str) -> int | None:
        """The row (0 at the top) of the company's round marker on the round track, none if it has none:
        its par price's rows, at its place among them (the library's state `track_slot`, set by its
        procedure take_round_track_row)."""
        slot = self.state_amount("track_slot", corp_id)
        if not slot:
            return None
        return self._round_track_rows(self.corp[corp_id]["par"])[slot - 1]

    def _round_track_taken(self) -> set[int]:
        return {row for row in (self._track_row(c.id) for c in self.corporations) if row is not None}

    def _round_track_slots(self, price: int) -> list[int | None]:
        """The rows (0 at the top of the par price's rows) a founder may choose at par `price`: the empty
        ones; [None] where the title has no round track (the action names no row)."""
        if self._round_track() is None:
            return [None]
        track_ = self._round_track()
        rows = int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))
        # the library's function, which take_round_track_row asks (its answers kept by what it reads: `state_calls`)
        free = self.state_calls("round_track_row_free", [(price, i) for i in range(rows)])
        return [i for i in range(rows) if free[i]]

    def b_draw_unstarted(self, excluded: Any = ()) -> Entity | None:
        """draw_unstarted(xs): one of the corporations not yet started and not in xs, drawn at random (the
        game's seed); none if there is none."""
        out = {str(getattr(x, "id", x)) for x in (excluded or ())}
        pool = [c for c in self.corporations if self.corp[c.id]["par"] is None and not self.corp[c.id]["closed"]
                and c.id not in out]
        return self.rng.choice(pool) if pool else None

    def _round_track_key(self, corp: Entity):
        """Operating order on the round track: top row first."""
        row = self._track_row(corp.id)
        if row is None:
            raise RuleGap("round_track", f"{corp} operates without a row on the round track")
        return row

    def _lowest_first_key(self, corp: Entity):
        """Lowest price first; ties: the first to arrive in the cell."""
        cell = self.corp[corp.id]["cell"]
        return (self.market.price(cell), self.stacks[cell].index(corp.id))

    def _operating_key(self, corp: Entity):
        """Highest price first; ties: farther right, then higher in the stack."""
        cell = self.corp[corp.id]["cell"]
        return (-self.market.price(cell), -cell[1], cell[0], self.stacks[cell].index(corp.id))

    # the companies of the round in order: the library's list state `operators` (each element a kind and an id),
    # which the rules read (`operators.elements()`) and a title's ability may change before anyone operates

    def order_ids(self) -> tuple[str, ...]:
        """The ids of the companies of the current (or last) operating round, in the order they operate."""
        return tuple(element[1] for element in self.g.get("state:operators", ()))

    def _set_order(self, ids: list[str]) -> None:
        self.j.set(self.g, "state:operators", tuple((self._operator(i).kind, i) for i in ids))

    def _next_corporation(self) -> None:
        order = list(self.order_ids())
        current = self.g["operating"]
        if self._round_track() is not None:
            # a rondel: the topmost operator whose marker has not moved in this pass (1880 VII.1)
            moved = self.g.get("moved", frozenset())
            waiting = [c for c in order if c not in moved and c != current]
            if not waiting:
                self._end_operating_round()
                return
            corp = waiting[0]
        else:
            index = order.index(current) + 1 if current in order else 0
            if index >= len(order):
                self._end_operating_round()
                return
            corp = order[index]
        self.j.set(self.g, "operating", corp)
        self.j.set(self.g, "turn_marks", frozenset())
        # (the library's bank_buys_this_turn among them, and declared_uses: a declared ability lasts one turn)
        self._reset_states("operating_turn_start")
        self.j.set(self.g, "lays", 0)
        if self.g.get("extended") is not None:
            self.j.set(self.g, "extended", None)  # a run extended for one turn
        self.j.set(self.g, "upgraded", False)
        self.j.set(self.corp[corp], "revenue", 0)
        self.j.set(self.g, "step", None)
        operator = self._operator(corp)
        if (self.DATA.properties.get("home_token_at") in ("first_operation", "operating_round_start")
                and operator.kind == "corporation"
                and self.corp[corp]["tokens"] == 0):
            # the home station goes down as the first step of the company's first turn
            self._first_operation_home(operator)
        self._next_step()

    def _round_start_homes(self, corps: list[Entity]) -> None:
        """`home_token_at: operating_round_start`: the home stations of the operating companies that have
        none yet go down as the operating round begins or resumes after a stock round, before anyone
        operates (18xx.games' HOME_TOKEN_TIMING :operating_round); one that finds no free circle is tried
        again at the start of its turn, as for `first_operation`."""
        if self.DATA.properties.get("home_token_at") != "operating_round_start":
            return
        for corp in corps:
            if corp.kind == "corporation" and self.corp[corp.id]["tokens"] == 0:
                self._first_operation_home(corp)

    def _first_operation_home(self, corp: Entity) -> None:
        """`home_token_at: first_operation` (18CO §5, 1880 Romania VII.1): a corporation's home station
        is placed when it first operates. Each of its turns tries again until it is placed: it waits
        while the home city has no free circle for it; any other refusal is raised, not hidden."""
        if self.board is None or corp.get("home") is None:
            return
        home = self._home_node(corp)
        if home[0] in {hex_id for hex_id, _ in self.board.tokens_of(corp.id)}:
            return
        if self.board.free_slot(home, corp.id) is None:
            return
        self.call("place_home_token", corp)

    def _steps(self) -> list[str]:
        operator = self._operator(self.g["operating"]) if self.g["operating"] is not None else None
        if operator is not None and operator.kind == "minor":
            steps = list(self.param("minor_operating_steps"))
            until = self.DATA.properties.get("minor_operating_until")
            if until is not None and self._phase_index(self.g["phase"]) > self._phase_index(str(until)):
                # past its last phase a minor's turn is only its turn-end check, and the steps the title
                # keeps for it then (`minor_steps_after_until`)
                steps = [str(s) for s in self.DATA.properties.get("minor_steps_after_until") or ()]
        else:
            steps = list(self.param("operating_steps"))
        if self.board is None:
            steps = [s for s in steps if s not in MAP_STEPS]
        return steps

    def _scrap_obsolete(self, corp: Entity) -> None:
        """Once a company's revenue is disposed of, its trains have run in this operating round; an
        obsolete (phased-out) train runs once more: it leaves then."""
        self.j.set(self.g, "ran", self.g.get("ran", frozenset()) | {t.id for t in self.b_trains(corp)})
        for t in self.b_trains(corp):
            if self.state_has("obsolete_trains", t.name):  # (the library's state: make_obsolete)
                self.j.set(self.owner, t.id, SCRAP)

    def _next_step(self) -> None:
        steps = self._steps()
        current = self.g["step"]
        if current == "dividend" and self.g["operating"] is not None:
            self._scrap_obsolete(self._operator(self.g["operating"]))
        index = steps.index(current) + 1 if current in steps else 0
        corp = self._operator(self.g["operating"])
        if self.corp[corp.id]["closed"]:
            self._end_corporation_turn(corp)
            return
        while index < len(steps):
            step = steps[index]
            self.j.set(self.g, "step", step)
            if step == "run_routes" and not self._train_dicts(corp):
                index += 1
                continue
            if step == "dividend" and corp.kind == "minor":
                # a minor's revenue is split by the title's `minor_dividend` procedure; nobody decides
                self.call("minor_dividend", corp)
                self._scrap_obsolete(corp)
                index += 1
                continue
            if step == "dividend" and self.corp[corp.id]["revenue"] == 0 and not self.fixed_call("may_add_revenue", corp):
                # (a company that may still add to its revenue, the library's may_add_revenue, decides)
                # no revenue: the dividend step withholds nothing, as the rules move the price
                self.ROUTINES["action:dividend"](self, corp, "withhold")
                return
            return
        self._end_corporation_turn(corp)

    def _end_corporation_turn(self, corp: Entity) -> None:
        if corp.kind == "minor" and "minor_turn_end" in self.ROUTINES and not self.corp[corp.id]["closed"]:
            self.call("minor_turn_end", corp)  # the title's check at the end of a minor's turn, where it has one
        self.j.set(self.corp[corp.id], "operated", True)
        self.j.set(self.g, "moved", self.g.get("moved", frozenset()) | {corp.id})
        self.j.set(self.g, "step", None)
        resumed = self.state_has("turn_resumed")  # (the library's: a turn resumed after a stock round)
        export = self.call("would_export", corp)  # the library's export rule (train_export), read before the flag clears
        self.state_set("turn_resumed", (), False)
        if export:
            self._export_trains()
        if self.g.get("final_marker") == corp.id and not resumed:
            left = self.g["final_turns"] - 1
            self.j.set(self.g, "final_turns", left)
            if left <= 0:
                self._end_game()
                return
        if self.g.get("interrupt"):
            self._call_stock_round(corp)
            return
        self._next_corporation()

    def _train_marker_holder(self) -> str | None:
        """The id of the company beside which the train purchase marker lies (the library's state
        train_marker, set by its move_train_marker), none before the first train bought from the bank."""
        return next((element[0] for element in self.g.get("state:train_marker", ())), None)

    def _call_stock_round(self, corp: Entity) -> None:
        """The operating round breaks off for a stock round; afterwards `corp`
        gets its train-buying step again and the round goes on from it."""
        self.j.set(self.g, "interrupt", False)
        self.j.set(self.g, "resume", True)
        self.j.set(self.g, "resume_with", corp.id)
        self._start_stock_round(self.g["priority"])

    def _resume_operating_round(self) -> None:
        """After an interrupting stock round: the interrupted company may buy
        trains again, then the operating round goes on with the next company;
        companies that began operating meanwhile join at the end of the order."""
        self.j.set(self.g, "resume", False)
        if self.g["end_reason"] == "last_train" and self.g.get("final_marker") is None:
            turns = self._param_or("final_turns", None)
            if turns is not None:
                self.j.set(self.g, "final_marker", self._train_marker_holder() or self.g["operating"])
                self.j.set(self.g, "final_turns", int(turns))
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "operating")
        order = list(self.order_ids())  # (read before the reset, which empties the library's `operators` too)
        self._reset_states("operating_round_start")  # (an ability's uses in a round count anew, as at its start)
        new = [c for c in self.corporations
               if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"] and c.id not in order]
        if self._round_track() is not None:
            # companies that began operating meanwhile take their rows' places; the pass resumes with the
            # topmost company whose marker has not moved (1880 VII.1)
            minors = [c for c in order if ("minor", c) in self.by_id]
            corps = [self.entity("corporation", c) for c in order if c not in minors] + new
            self._set_order(minors + [c.id for c in sorted(corps, key=self._round_track_key)])
            interrupted = self.g.get("resume_with")
            if self.DATA.properties.get("joining_operators") == "below_only" and interrupted is not None \
                    and interrupted in self.order_ids():
                # `joining_operators: below_only` (18xx.games' Operating#setup of the saved round): a company
                # that began operating meanwhile joins this pass only below the interrupted company; one
                # above it waits for the next pass, as if its marker had moved
                at = self.order_ids().index(interrupted)
                above = {c.id for c in new if self.order_ids().index(c.id) < at}
                self.j.set(self.g, "moved", self.g.get("moved", frozenset()) | above)
        else:
            self._set_order(order + [c.id for c in sorted(new, key=self._operating_key)])
        self._round_start_homes(new)
        corp = self.g.get("resume_with")
        self.j.set(self.g, "resume_with", None)
        if corp is not None and "buy_train" in self._steps():
            self.j.set(self.g, "operating", corp)
            self.state_put("bank_buys_this_turn", (), 0)  # the library's count, anew for the resumed turn
            self.state_set("turn_resumed", (), True)  # (the library's flag, which would_export reads)
            self.j.set(self.g, "step", "buy_train")
            return
        self._next_corporation()

    def _end_operating_round(self) -> None:
        """The operating round is over: the event `operating_round_end` (its triggers may ask decisions of
        the players, taken before the next round begins), then the next round or the game's end."""
        self.j.set(self.g, "operating", None)
        if not self.g["finished"]:
            self.emit("operating_round_end")
            if self.g.get("state:decisions"):
                self.j.set(self.g, "after_decisions", "operating_round_end")
                return
        self._after_operating_round()

    def _after_operating_round(self) -> None:
        reason = self.g["end_reason"]
        if "train_sold_out" in self._param_or("stock_round_when", ["after_set"]):
            # operating rounds follow each other until a train type sells out;
            # with no company operating, the players trade again
            if reason is not None and self.g.get("final_marker") is None:
                self._end_game()
            elif self.order_ids():
                self._start_operating_round()
            else:
                self._start_stock_round(self.g["priority"])
            return
        if reason is not None and reason != "final_train" and self.param("bank_broken_finishes") == "round":
            self._end_game()
            return
        if self.g["or"] < self.g["ors_in_set"]:
            self._start_operating_round()
            return
        if reason is not None and (reason != "final_train" or self.g["set"] >= self.g.get("end_after_set", 0)):
            self._end_game()
            return
        self._after_operating_set()

    # ------------------------------------------------------------ takeovers (18CO §6: the title's `takeover_*`)

    def _takeovers_on(self) -> bool:
        return self.DATA.properties.get("takeover_when") == "president_certificate_held"

    def _check_takeovers(self) -> None:
        """Where the title says `takeover_when: president_certificate_held`, after every action: the library's
        `check_take_over` for each corporation (a corporation holding another's president's certificate takes
        it over at once, by the library's `take_over`). Where the last check read only who holds what (and
        so did nothing: `OwnersReads`), it is not made again while what it read is the same
        (`_takeover_check_kept`): the same reads, the same nothing (most actions move no president's
        certificate; tests/test_kept_answers.py)."""
        if not self._takeovers_on() or "check_take_over" not in self.ROUTINES:
            return
        if self._takeover_check_kept():
            return  # the last check read only who holds what and did nothing, and none of it has changed since
        routine = self.ROUTINES["check_take_over"]  # (what `call` would look up for each corporation)
        corps = self.corporations
        reads = OwnersReads(self)  # (what each check reads, noted: where only who holds what, kept by it)

        def check() -> None:
            for owned in corps:
                routine(reads, owned)

        self._sanctioning_take_over(check)
        self.__dict__["_takeovers_kept"] = None if not reads.owners_only else (
            getattr(self.owner, "stamp", None), corps, len(corps),
            tuple((name, getattr(self, name), len(getattr(self, name))) for name in sorted(reads.collections)),
            tuple(reads.held), tuple(reads.held.values()), tuple(reads.lists), tuple(reads.lists.values()))

    def _takeover_check_kept(self) -> bool:
        """Whether the last take-over check read only who holds what (`OwnersReads`), and all it read is the
        same now: the corporations and the collections it asked, and the owners written to nowhere since
        (`Owners.stamp`), or else the same holder of each item it read and the same certificates of each
        corporation whose certificates it read."""
        kept = self.__dict__.get("_takeovers_kept")
        corps = self.corporations
        if kept is None or kept[1] is not corps or kept[2] != len(corps) \
                or not all(getattr(self, name) is members and len(members) == count for name, members, count in kept[3]):
            return False
        stamp = getattr(self.owner, "stamp", None)
        if stamp is not None and kept[0] == stamp:
            return True
        # (each compared as tuples are: the same object, or an equal one)
        if tuple(map(self.owner.get, kept[4])) == kept[5] \
                and tuple(map(tuple, map(self.certs_of.get, kept[6]))) == kept[7]:
            self.__dict__["_takeovers_kept"] = (stamp, *kept[1:])  # (the same, at this stamp)
            return True
        return False

    def _take_over(self, owner: Entity, owned: Entity) -> None:
        """`owner` takes `owned` over: the library's procedure `take_over` (an acquisition round's winner)."""
        self._sanctioning_take_over(lambda: self.call("take_over", owner, owned))

    def _sanctioning_take_over(self, step: Callable[[], None]) -> None:
        """Run `step`; a corporation whose certificates it sent to the market past the pool cap is marked, where
        the title sanctions `pool_cap for take_over` (the holders buy them back later)."""
        if not self._sanctioned("pool_cap", "take_over"):
            step()
            return
        journal = self.j
        if journal.active:
            # the pool's holdings before `step`, read back from what the journal recorded during it (after
            # every action, and mostly nothing is recorded): the owner each certificate had first
            mark = len(journal._undo)
            step()
            owner, first = self.owner, {}
            for op in journal._undo[mark:]:
                if op[0] == "set" and op[1] is owner:
                    first.setdefault(op[2], op[3])
            if not first:
                return  # no certificate changed hands: no pool holding grew
            before = {}
            for corp in self.corporations:
                total = 0
                for cert in self.certs_of[corp.id]:
                    o = first.get(cert.id, owner[cert.id])
                    if o is POOL or (o.__class__ is Entity and o == POOL):
                        total += cert.percent
                before[corp.id] = total
        else:
            before = {c.id: self.b_percent(POOL, c) for c in self.corporations}
            step()
        for corp in self.corporations:
            pct = self.b_percent(POOL, corp)
            if pct > before[corp.id] and pct > self.param("pool_cap"):
                self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("pool_cap", corp.id)})

    def b_stack_charter(self, owner: Entity, owned: Entity, usable: bool) -> None:
        """stack_charter(O, C, usable): C's charter goes under O's: the components C collected (mines)
        are O's in the game's record (their count is the library's state `collected`, which take_over moves), and,
        where `usable`, C's trains may run for O in this operating round whether or not
        they ran for C (the train limit's rise is the library's state train_limit_bonus)."""
        if usable and self.g.get("ran"):
            self.j.set(self.g, "ran", self.g["ran"] - {t.id for t in self.b_trains(owned)})
        collected = self.g.get("collected", ())
        if any(holder == owned.id for _, _, holder in collected):
            self.j.set(self.g, "collected", tuple((k, key, owner.id if holder == owned.id else holder)
                                                  for k, key, holder in collected))

    def _station_swap(self, owner: Entity) -> tuple[str, str, int] | None:
        """The station replacement `owner` still has to choose after a takeover (the library's list state
        station_swaps, its first of `owner`'s): (owner, owned, how many it may still replace)."""
        for swap in self.g.get("state:station_swaps", ()):
            if swap[:2] == (owner.kind, owner.id):
                owned = self.entity(swap[2], swap[3])
                return owner.id, owned.id, self.state_amount("station_swaps_left", owner, owned)
        return None

    def _decline_station_swap(self, owner: Entity) -> bool:
        """`pass` while a takeover's station choice is pending: the rest are not replaced (the library's
        end_station_swap)."""
        swap = self._station_swap(owner)
        pending = self.g.get("state:decisions")
        if swap is None or not pending or pending[0] != (owner.kind, owner.id, "place_token"):
            return False
        self.call("end_station_swap", owner)
        return True

    # ------------------------------------------------------------ rounds after a set (acquisition, special)

    def _after_operating_set(self) -> None:
        """After a set of operating rounds: an acquisition round where the title's `round_order` names one
        and a corporation's price lies in the `acquisition` zone; then a special round a trigger called
        (`call_round`); then the stock round."""
        if "acquisition_round" in (self.DATA.properties.get("round_order") or ()) and self._start_acquisition_round():
            return
        self._after_acquisition_round()

    def _after_acquisition_round(self) -> None:
        if self.g.get("state:round_due") and self._start_special_round():
            return
        self._start_stock_round(self.g["priority"])

    def _start_acquisition_round(self) -> bool:
        """The corporations in the `acquisition` zone, in operating order, are auctioned one by one to the
        other corporations (18CO §7.1). False when there is none."""
        up = [c for c in self.corporations if not self.corp[c.id]["closed"] and self.corp[c.id]["cell"] is not None
              and "acquisition" in self.market.zones_of(self.corp[c.id]["cell"])]
        if not up:
            return False
        up.sort(key=self._operating_key)
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "acquisition")
        self.j.set(self.g, "acquisition", {"up": tuple(c.id for c in up), "queue": tuple(c.id for c in up),
                                           "bidders": (), "turn": 0})
        self._next_acquisition()
        return True

    def _next_acquisition(self) -> None:
        """The next corporation up for liquidation: its bidders are the floated, open corporations not up
        for liquidation whose president is not its president, in operating order (18CO §7.1.1)."""
        while True:
            state = self.g["acquisition"]
            queue = [cid for cid in state["queue"] if not self.corp[cid]["closed"]]
            if not queue:
                self.j.set(self.g, "acquisition", None)
                self.j.set(self.g, "state:acquisition_target", frozenset())  # (the library's: none up now)
                self._after_acquisition_round()
                return
            target = self.entity("corporation", queue[0])
            president = self.call("president", target)
            bidders = sorted((c for c in self.corporations if self.corp[c.id]["floated"]
                              and not self.corp[c.id]["closed"] and c.id not in state["up"]
                              and (president is None or self.call("president", c) != president)), key=self._operating_key)
            self.j.set(self.g, "acquisition", {**state, "queue": tuple(queue),
                                               "bidders": tuple(c.id for c in bidders), "turn": 0})
            # the library's acquisition_target: the one corporation up now
            self.j.set(self.g, "state:acquisition_target", frozenset({(target.id,)}))
            self.j.set(self.g, "state:acquisition_bids", {})  # the library's: none yet for this corporation
            if bidders:
                return
            self._resolve_acquisition()

    def _acquisition_target(self) -> Entity | None:
        """The corporation being auctioned in the acquisition round (the library's state acquisition_target,
        which the round sets), or none."""
        held = self.g.get("state:acquisition_target")
        return self.entity("corporation", next(iter(held))[0]) if held else None

    def _acquisition_turn_over(self) -> None:
        state = self.g["acquisition"]
        turn = state["turn"] + 1
        self.j.set(self.g, "acquisition", {**state, "turn": turn})
        if turn >= len(state["bidders"]):
            self._resolve_acquisition()
            self._next_acquisition()

    def _resolve_acquisition(self) -> None:
        """The auction of one corporation ends: the highest bidder pays its bid to the bank and takes the
        corporation over (18CO §7.1.2, §7.1.3); with no bid, the corporation's trains go to the market and
        it closes (its cash to the bank, the rest out of the game; the certificates it holds of other
        corporations go to the market, a reading the title states, past the pool cap where the title has a
        `sanction pool_cap for acquisition_round`) (§7.1.4)."""
        state = self.g["acquisition"]
        target = self._acquisition_target()
        best = None
        for (cid,), price in self.g.get("state:acquisition_bids", {}).items():  # the library's, in the order made
            if best is None or price > best[1]:
                best = (cid, price)
        if best is not None:
            winner = self.entity("corporation", best[0])
            self.transfer(best[1], winner, BANK)
            self._take_over(winner, target)
        else:
            for train in self.b_trains(target):
                self.move(train, target, POOL)
            for cert in list(self.certificates.values()):
                if self.owner[cert.id] == target and cert.corporation != target.id:
                    self.move(cert, target, POOL)
                    corp = self.entity("corporation", cert.corporation)
                    if self.b_percent(POOL, corp) > self.param("pool_cap") \
                            and self._sanctioned("pool_cap", "acquisition_round"):
                        self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("pool_cap", corp.id)})
            self._close_corporation(target)
        self.j.set(self.g, "acquisition", {**self.g["acquisition"],
                                           "queue": tuple(c for c in state["queue"] if c != target.id)})

    def _start_special_round(self) -> bool:
        """A special round of players' turns (the one a title's rules called, the library's call_round: its state
        round_due): from the priority holder in seating order, each player on turn takes the title's `special_*`
        actions or passes; a pass is final; when all have passed the stock round follows."""
        (name,) = min(self.g["state:round_due"])  # (one at a time; a title calls one: 18CO)
        self.state_set("round_due", (name,), False)
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "special")
        out = frozenset(p.id for p in self.players if self._out_of_game(p))
        self.j.set(self.g, "special", {"name": name, "turn": self.g["priority"], "passed": out})
        if len(out) >= self.n:
            self._end_special_round()
        return True

    def _special_next(self, passed: Entity | None) -> None:
        state = self.g["special"]
        gone = state["passed"] | ({passed.id} if passed is not None else frozenset())
        if len(gone) >= self.n:
            self.j.set(self.g, "special", {**state, "passed": gone})
            self._end_special_round()
            return
        turn = (state["turn"] + 1) % self.n
        while self.players[turn].id in gone:
            turn = (turn + 1) % self.n
        self.j.set(self.g, "special", {**state, "passed": gone, "turn": turn})

    def _end_special_round(self) -> None:
        name = self.g["special"]["name"]
        self.state_set("rounds_held", (name,), True)  # (the library's state, which its call_round reads)
        self.j.set(self.g, "special", None)
        self.emit("special_round_end", name)  # (a title's trigger on it reads the round's end)
        self._start_stock_round(self.g["priority"])
