"""The runtime's builtins as z3 (`Builtins`, see `translator.py`): the map. Tile lays and station
tokens are not modelled; what they cost and which privates they close are left to the engine.
"""

from __future__ import annotations

from typing import Any

import z3

from compiler.lang import syntax as s
from compiler.verify.lists import decision_vars
from compiler.verify.model import (
    BANK,
    NONE,
    ROUNDS,
    Ent,
    GapError,
    Unsupported,
    hold_name,
    state_var,
)
from compiler.verify.terms import (
    AND,
    IF,
    IMPLIES,
    NOT,
    OR,
    AnyAmounts,
    Ctx,
    Opaque,
    SymList,
    is_z3,
    truth,
    zi,
)


#: a corporation's fields of its station tokens (`MapBuiltins.token_field`): on the map (`tokens`), beyond
#: its charter (`extra_tokens`), taken from the right of its charter (`tokens_right`), its charter's printed
#: prices (`token_prices`, its `tokens` data) and how many (`charter_tokens`)
TOKEN_FIELDS = frozenset({"tokens", "extra_tokens", "tokens_right", "token_prices", "charter_tokens"})


#: how many of a company's stations on the map the model reads (`MapBuiltins.b_stations`): a charter has up to
#: eight, a minor's station becomes its buyer's beyond those
STATIONS_READ = 8


class MapBuiltins:
    """The builtins of the map: tile lays and station tokens, what they cost and which
    privates they close (oracles), the home station."""

    # -- the map: tile lays and station tokens are not modelled; what they cost
    #    and which privates they close are left to the engine (oracles)
    def b_check_lay(self, ctx: Ctx, corp: Any, hex_id: Any, tile: Any, rotation: Any) -> Any:
        """As GameBase.b_check_lay: the lay itself is the map's (outside the model); a private's (its tile-lay
        ability's, `check_ability_lay`) is its owning corporation's, when it may use the private."""
        private = self.private_term(ctx, corp)
        if truth(private) is not False:
            self.check_ability_lay(ctx.fork(private), corp)
        return Opaque("a checked tile lay")

    def private_term(self, ctx: Ctx, x: Any) -> Any:
        """Whether the entity term `x` is a private (check_lay, lay and check_token of a private are its
        ability's)."""
        m = self.m
        e = self.ent(x)
        k = self.known(e)
        if k is not None:
            return k.kind == "private"
        return OR(*[e == m.z(p) for p in m.privates]) if m.privates else False

    def b_lay_cost(self, ctx: Ctx, lay: Any, discount: Any = 0) -> Any:
        """As GameBase.b_lay_cost: the map is outside the model; an oracle says, at least 0 (with a
        discount off the tile's part too)."""
        v = ctx.fresh("lay_cost")
        ctx.shared.oracles.append(("lay_cost", (), v))
        ctx.shared.axioms.append(v >= 0)
        return v

    def b_lay(self, ctx: Ctx, corp: Any, lay: Any, tile: Any) -> None:
        """As GameBase.b_lay: the tile on the map (outside the model), one of the company's lays; a private's
        (its ability's, `ability_put_tile`) for its owning corporation, besides its own lays."""
        if truth(self.private_term(ctx, corp)) is True:
            self.ability_put_tile(ctx, corp)
            return
        self.tile_closes_private(ctx)
        self.border_bonus(ctx)
        # `_collect_on_lay`: which hex the tile goes to is outside the model; the laying corporation may
        # collect components there (an oracle says how many), nobody else's count changes
        for kind in self.m.collect_kinds():
            for c, cond in self.corp_of(ctx, corp):
                name = state_var("collected", (c, kind))  # (the library's state)
                before = ctx.state[name]
                ctx.havoc([name])
                ctx.require(z3.Implies(AND(ctx.path, cond), ctx.state[name] >= before))
                ctx.state[name] = IF(cond, ctx.state[name], before)
        self.param(ctx, "tile_lays")
        self.turn_over(ctx)

    def border_bonus(self, ctx: Ctx) -> None:
        """The runtime's `_border_crossings` (1880 II.3.1, P2): which printed hex sides a lay's new track
        reaches for the first time is outside the model (an oracle counts those of each private's
        `border_type`, at least 0); each open private held by a player with a `border_crossing`
        ability pays its owner `bonus_per_crossing` (currency units) per crossing from the bank,
        before phase `bonus_until`."""
        m = self.m
        for x in m.privates:
            for a in m.data.get(x, {}).get("children") or ():
                if a.get("kind") != "ability" or a.get("effect") != "border_crossing":
                    continue
                bonus, until = a.get("bonus_per_crossing"), a.get("bonus_until")
                ctx.shared.reads.add("private", f"{x.id}.border_crossing", [bonus, until, a.get("border_type")])
                if isinstance(bonus, bool) or not isinstance(bonus, int):
                    raise Unsupported(f"private {x.id} bonus_per_crossing: not an amount")
                crossings = ctx.fresh(f"crossings:{x.id}", "int")
                ctx.shared.oracles.append(("border_crossings", (x.id, str(a.get("border_type"))), crossings))
                ctx.require(crossings >= 0)
                item = m.item_of_ent(x)
                assert item is not None
                pays: Any = NOT(ctx.state[f"closed:{x.id}"])
                if until is not None:
                    pays = AND(pays, ctx.state["phase"] < m.phase_index(str(until)))
                for p in m.players:
                    sub = Ctx(self.tr, ctx.state, ctx.shared, AND(ctx.path, pays, ctx.state[hold_name(item, p)] >= 1),
                              ctx.locals)
                    self.transfer(sub, bonus * crossings, m.z(BANK), m.z(p))
                    ctx.state = sub.state

    def tile_closes_private(self, ctx: Ctx) -> None:
        """The runtime's `_put_tile`: a tile tied to a private closes it (which
        tile is laid is outside the model: an oracle says whether it closes)."""
        m = self.m
        tied = set()
        for comp in m.title.components("tile"):
            prop = comp.get("private")
            if prop is not None:
                tied.add(str(prop.value.name if isinstance(prop.value, s.Name) else getattr(prop.value, "value", "")))
        ctx.shared.reads.add("tiles", "private", sorted(tied))
        for x in m.privates:
            if x.id in tied:
                closes = ctx.fresh(f"lay_closes:{x.id}", "bool")
                ctx.shared.oracles.append(("lay_closes", (x.id,), closes))
                name = f"closed:{x.id}"
                ctx.state[name] = IF(ctx.path, OR(ctx.state[name], closes), ctx.state[name])

    def b_check_token(self, ctx: Ctx, corp: Any, city: Any, no_route: Any = False) -> Any:
        """As GameBase.b_check_token: a spot on the map (outside the model): reached, kept for the company
        by an ability, beside the circles by its card's, or, with `no_route`, needing no route; a private's
        (its station ability's) is its owning corporation's, when it may use the private
        (`token_ability_user`)."""
        private = self.private_term(ctx, corp)
        if truth(private) is not False:
            self.token_ability_user(ctx.fork(private), corp, "free_token")
        return Opaque("a station spot")

    def token_costs(self, ctx: Ctx, corp: Ent) -> list[int]:
        """The corporation's `tokens` data (the runtime's `corp.get("tokens")`)."""
        values = self.m.data[corp].get("tokens")
        ctx.shared.reads.add("corporation", f"{corp.id}.tokens", values)
        if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
            raise GapError(f"corporation {corp.id} tokens", getattr(values, "reason", "not a list of amounts"))
        return values

    def _token_gap(self, ctx: Ctx, corp: Ent) -> Any:
        """The corporation's `tokens` when the title declares them a gap (its GapValue), else None; a
        check that reads such a gap is proved for any value of it (`any_value` in its reads)."""
        from compiler.verify.model import GapValue

        values = self.m.data[corp].get("tokens")
        if isinstance(values, GapValue):
            ctx.shared.reads.add("corporation", f"{corp.id}.tokens", values)
            ctx.shared.reads.add("any_value", f"corporation {corp.id} tokens", values.reason)
            return values
        return None

    def token_count(self, ctx: Ctx, corp: Ent) -> Any:
        """How many station tokens the corporation has: the length of its `tokens` data, or, where
        the title declares them a gap, a constant standing for any count (`Model.gap_constant`)."""
        gap = self._token_gap(ctx, corp)
        if gap is not None:
            return self.m.gap_constant(f"corporation {corp.id} tokens", gap.reason, least=1,
                                       why="its home station is a token of its own")
        return len(self.token_costs(ctx, corp))

    def token_field(self, ctx: Ctx, corp: Ent, name: str) -> Any:
        """`C.name` for a corporation C and a name of TOKEN_FIELDS (the library's tokens_left,
        next_token_cost, last_token_cost read them)."""
        if name == "tokens":
            return ctx.state[f"tokens:{corp.id}"]
        if name == "extra_tokens":
            return self.extra_tokens(ctx, corp)
        if name == "tokens_right":
            # those a take-over took from the right of its charter (18CO §6.1.3): the library's swap_station
            # sets them, the model keeps none (`set_attr`), none here
            return 0
        if name == "token_prices":
            return self.token_prices(ctx, corp)
        return self.token_count(ctx, corp)  # charter_tokens

    def token_prices(self, ctx: Ctx, corp: Ent) -> Any:
        """The corporation's `token_prices` (the DSL's name for its `tokens` data): its charter's printed
        prices, or, where the title declares them a gap, any amount not below zero for each."""
        if self._token_gap(ctx, corp) is not None:
            return AnyAmounts("gap_token_cost", (corp.id,))
        return SymList([(price, True) for price in self.token_costs(ctx, corp)])

    def extra_tokens(self, ctx: Ctx, corp: Ent) -> Any:
        """The station tokens the corporation holds beyond its charter (`Model.extra_tokens`; none where
        the title gives none): counted among those placed (`tokens`), not among the charter's."""
        return ctx.state[f"extra_tokens:{corp.id}"] if self.m.extra_tokens else 0

    def tokens_left(self, ctx: Ctx, corp: Any) -> Any:
        """The library's tokens_left(C) (rulespecs/lib/18xx.rules): the station tokens C has not placed."""
        return self.tr.call("tokens_left", [corp], {}, ctx)

    def check_ability_lay(self, ctx: Ctx, company: Any) -> None:
        """As GameBase._check_ability_lay (check_lay of a private): its owning corporation lays, when it may use
        the private (`ability_user`); the lay itself is the map's (outside the model). An ability with the
        library's generic timing (`when: stock_turn | operating_turn | any_time | sold`, `owner: player`) is
        judged by the runtime's record of turns and uses, not modelled: no refusal (the proof covers every
        moment)."""
        m = self.m
        e = self.ent(company)
        generic = [x for x in m.privates
                   if any(a.get("kind") == "ability" and a.get("effect") == "free_lay"
                          and (str(a.get("when", "")) in ("stock_turn", "operating_turn", "any_time", "sold")
                               or str(a.get("owner", "")) == "player")
                          for a in m.data.get(x, {}).get("children") or ())]
        if generic:
            sub = ctx.fork(AND(*[e != m.z(x) for x in generic]))
            self.ability_user(sub, company)  # its refusal holds only off the generic privates
        else:
            self.ability_user(ctx, company)

    def token_ability_user(self, ctx: Ctx, company: Any, effect: str) -> None:
        """As GameBase._token_ability_user: the title's window (`ability_user`) for a private whose ability
        of `effect` has no generic timing; one with it (`when: operating_turn | any_time | ...`) is judged
        by the runtime's record of turns and uses, not modelled: no refusal there (the proof covers every
        moment), the station still the holding corporation's."""
        m = self.m
        e = self.ent(company)
        generic = [x for x in m.privates
                   if any(a.get("kind") == "ability" and a.get("effect") == effect
                          and (str(a.get("when", "")) in ("stock_turn", "operating_turn", "any_time", "sold",
                                                          "phase_start")
                               or str(a.get("owner", "")) == "player")
                          for a in m.data.get(x, {}).get("children") or ())]
        if generic:
            self.ability_user(ctx.fork(AND(*[e != m.z(x) for x in generic])), company)
        else:
            self.ability_user(ctx, company)

    def ability_user(self, ctx: Ctx, company: Any) -> None:
        """As GameBase._ability_user (the title's window): refused unless a corporation of the scope
        holding the private `company` is operating, and, unless the title's `private_ability_window` is
        `turn`, at a step before its trains have run (track, tokens, routes)."""
        m = self.m
        window = m.prop_value("private_ability_window")
        ctx.shared.reads.add("property", "private_ability_window", window)
        st = ctx.state
        parts = []
        for c in m.corporations:
            now = AND(st["round"] == ROUNDS.index("operating"), st["operating"] == m.z(c))
            if window != "turn":
                now = AND(now, OR(*[self.tr.call("in_step", [m.z(c), step], {}, ctx)  # (the library's)
                                    for step in ("track_and_token", "lay_tile", "place_token", "run_routes")]))
            parts.append(AND(self.owning_corporation(ctx, company, c), now))
        ctx.require(OR(*parts))

    def ability_put_tile(self, ctx: Ctx, company: Any) -> None:
        """As GameBase._ability_put_tile (lay of a private): the tile goes on the map (outside the model),
        besides the owning corporation's own lays; a tile tied to a private closes it, and borders crossed
        pay as with a company's lay; the owning corporation may collect there (an oracle). The ability's uses
        and its closing are the library's ability_lay's."""
        self.tile_closes_private(ctx)
        self.border_bonus(ctx)
        for kind in self.m.collect_kinds():
            for c in self.m.corporations:
                cond = self.owning_corporation(ctx, company, c)
                name = state_var("collected", (c, kind))  # (the library's state)
                before = ctx.state[name]
                ctx.havoc([name])
                ctx.require(z3.Implies(AND(ctx.path, cond), ctx.state[name] >= before))
                ctx.state[name] = IF(cond, ctx.state[name], before)

    def owning_corporation(self, ctx: Ctx, company: Any, c: Ent) -> Any:
        """Whether corporation `c` holds the private `company`."""
        item = self.tr.as_sel(company)
        return OR(*[AND(cond, self.held(ctx, it, self.m.z(c))) for it, cond in item.alts])

    def b_place_marker(self, ctx: Ctx, company: Any, hex_id: Any) -> None:
        """As GameBase.b_place_marker: a revenue marker on the map (outside the
        model: only route revenue, an oracle here, reads it). The marker's
        pending `assign` decision (a player's Steamboat) is taken once both its
        hex and its corporation are named, which the markers outside the model
        decide: as `resolve_decision`, whoever is pending and acts next is then
        the runtime's to say. A corporation's marker (the ability card's, in a title with ability cards)
        goes on a city (the map is outside the model: an oracle); the rules check the card's power and spend
        its use. A private's marker placed is one use more of its ability (`count_marker_use`). place_marker(X,
        none), X's marker off the map: markers are outside the model."""
        if hex_id is None:
            return
        self.count_marker_use(ctx, company)
        pending = self.tr.call("pending_decision", [company, "assign"], {}, ctx)  # the library's
        if self.m.cards is not None:
            e = self.ent(company)
            is_corp = OR(*[e == self.m.z(c) for c in self.m.corporations])
            ctx.require(IMPLIES(is_corp, self.oracle(ctx, "marker_city", ())))
            pending = AND(NOT(is_corp), pending)
        sub = ctx.fork(pending)
        names = decision_vars(self.m) + ["acting"]
        sub.havoc(names)
        for name in names:
            ctx.state[name] = sub.state[name]

    def count_marker_use(self, ctx: Ctx, company: Any) -> None:
        """As GameBase.b_place_marker's count: the library's count_marker_use (one use more of the marker ability
        a private's holder uses, unless a player owner names its corporation), for each private of the scope
        with a revenue marker (`effect: hex_marker`) that `company` may be."""
        m = self.m
        e = self.ent(company)
        for x in m.privates:
            if m.item_of_ent(x) is None or not any(a.get("kind") == "ability" and a.get("effect") == "hex_marker"
                                                   for a in m.data.get(x, {}).get("children") or ()):
                continue
            sub = ctx.fork(e == m.z(x))
            self.tr.call("count_marker_use", [m.z(x)], {}, sub)
            ctx.state = sub.state

    def b_unreserve(self, ctx: Ctx, holder: Any, home: Any) -> None:
        """As GameBase.b_unreserve: station slots are outside the model."""

    def b_stations(self, ctx: Ctx, corp: Any, city: Any = None) -> Any:
        """As GameBase.b_stations: the cities of C's stations on the map, which is outside the model: how many,
        the oracle `stations_on_map`, and each city a number standing for it (the oracle `station_city`, the
        same number for the same city; the validator reads both off the engine's map). Read up to
        STATIONS_READ of them and one more (a city as the others are, so that the list's first is a city
        wherever it is); past those the list says so (`SymList.beyond`: a loop over it leaves what it writes
        any value, a filter of it says so too). With `city`, those of them in that city (a name the model does
        not follow: whether it is one of them, an opaque test)."""
        m = self.m
        e = self.ent(corp)
        k = self.known(e)
        holders = [(k, True)] if k is not None else [(x, e == m.z(x)) for x in m.corporations + m.minors]
        elems: list[tuple[Any, Any]] = []
        beyond: list[Any] = []
        for x, cond in holders:
            if x.kind not in ("corporation", "minor"):
                raise Unsupported(f"stations of {x}, which is not a company")
            count = self.oracle(ctx, "stations_on_map", (x.id,), "int")
            ctx.shared.axioms.append(count >= 0)
            for i in range(STATIONS_READ + 1):
                elems.append((self.oracle(ctx, "station_city", (x.id, i), "int"), AND(cond, count > i)))
            beyond.append(AND(cond, count > STATIONS_READ + 1))
        past = OR(*beyond)
        if city is not None:
            return SymList([(x, AND(cond, self.tr.eq(city, x))) for x, cond in elems])
        return SymList(elems, beyond=past)

    def b_hand_over_station(self, ctx: Ctx, corp: Any, other: Any, city: Any) -> None:
        """As GameBase.b_hand_over_station: a station changes hands on the map, or leaves it (`other` none),
        which is outside the model (the token counts are the rules')."""

    def b_remove_borders(self, ctx: Ctx, kind: Any) -> None:
        """As GameBase.b_remove_borders: the map's borders are outside the model."""

    def b_available(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_available: whether the company's tier may be started. Which companies setup
        relegated and the tiers' phases are outside the model; an oracle says, so every answer is checked."""
        return self.oracle(ctx, "available", self.ids(corp))

    def b_home_spots(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.b_home_spots: where the company's home station may go now, on the map (outside the
        model): where the title's map is a gap (no hexes), one place or none (an oracle), any number for a home chosen
        when it floats; for a printed home
        its city, one spot (the engine's none once its station stands there, a relegated company's placed at
        setup, is not followed); for a home chosen when it floats, the open cities: whether there is any the
        oracle `home_open` says (the validator reads the engine's answer), how many past that the list leaves
        open (`SymList.beyond`)."""
        m = self.m
        elems: list[tuple[Any, Any]] = []
        beyond: list[Any] = []
        if not m.title.components("hex"):
            # a title whose map is a gap (no hexes; its homes perhaps too): whether any place awaits the company's
            # home station is the map's, the oracle `home_open` (none is one answer: the engine's without a map)
            for c, cond in self.corp_of(ctx, corp):
                some = self.oracle(ctx, "home_open", (c.id,))
                elems.append((Opaque("a city of the map"), AND(cond, some)))
                if m.data[c].get("home") == "chosen_on_float":
                    beyond.append(AND(cond, some))  # (a printed home, given or the map's gap, is one city)
            return SymList(elems, beyond=OR(*beyond) if beyond else False)
        for c, cond in self.corp_of(ctx, corp):
            home = m.data[c].get("home")
            ctx.shared.reads.add("corporation", f"{c.id}.home", home)
            if home is None or not isinstance(home, str):
                raise GapError(f"corporation {c.id} home", getattr(home, "reason", "not given"))
            if home == "chosen_on_float":
                some = self.oracle(ctx, "home_open", (c.id,))
                elems.append((Opaque("an open city"), AND(cond, some)))
                beyond.append(AND(cond, some))
            else:
                elems.append((Opaque("the home station"), cond))
        return SymList(elems, beyond=OR(*beyond) if beyond else False)

    def b_draw_unstarted(self, ctx: Ctx, excluded: Any = ()) -> Any:
        """As GameBase.b_draw_unstarted: a random draw, so any corporation of the model that has not
        started, or none."""
        m = self.m
        v = self.oracle(ctx, "draw_unstarted", (), sort="ent")
        ctx.shared.axioms.append(z3.Or([AND(v == m.z(c), NOT(ctx.state[f"has_par:{c.id}"])) for c in m.corporations]
                                       + [v == m.z(NONE)]))
        return v

    def b_part(self, ctx: Ctx, name: Any, sep: Any, index: Any) -> Any:
        """As GameBase.b_part: a piece of a name, which the model does not follow."""
        return Opaque(f"part {index} of a name")

    def b_extend_run(self, ctx: Ctx, corp: Any, position: Any, kind: Any) -> None:
        """As GameBase.b_extend_run: a train's stops for this turn's run; routes and their revenue are
        outside the model (an oracle), so nothing it follows changes."""

    def b_subsidise_track(self, ctx: Ctx, corp: Any, cost: Any) -> None:
        """As GameBase.b_subsidise_track: the subsidy pool refunds part of a track cost. The pool is money
        the bank sets aside each phase; the model counts it with the bank, so the refund is a payment from
        the bank of an oracle amount between 0 and the cost (the runtime's share of it, capped by the pool)."""
        v = ctx.fresh("subsidy")
        ctx.shared.oracles.append(("subsidy", (), v))
        ctx.shared.axioms.append(v >= 0)
        ctx.shared.axioms.append(v <= (zi(cost) if is_z3(cost) else cost))
        self.transfer(ctx, v, self.m.z(BANK), self.ent(corp))

    def b_end_game_now(self, ctx: Ctx, reason: Any) -> None:
        """As GameBase.b_end_game_now: the game is over; nobody acts."""
        st = ctx.state
        st["round"] = IF(ctx.path, ROUNDS.index("finished"), st["round"])
        st["acting"] = IF(ctx.path, self.m.z(NONE), st["acting"])

    def b_place_station(self, ctx: Ctx, corp: Any, spot: Any) -> None:
        """As GameBase.b_place_station: one more of C's tokens on the map (where, the map's); a declared
        free token is spent."""
        for c, cond in self.corp_of(ctx, corp):
            name = f"tokens:{c.id}"
            ctx.state[name] = IF(AND(ctx.path, cond), ctx.state[name] + 1, ctx.state[name])
            self.spend_declared(ctx, c, "free_token", cond)
