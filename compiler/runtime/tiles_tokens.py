"""The map: home stations and reservations, tile lays and their costs (terrain, borders, discounts),
station tokens, and the tiles and stations a lay or a token changes.

`TilesAndTokens` is a part of `GameBase` (compiler/runtime/game.py); the board's graph and the route
search are `compiler.runtime.track`'s.
"""

from __future__ import annotations

from compiler.runtime import track
from compiler.runtime.entities import BANK, Entity
from compiler.runtime.errors import IllegalAction, RuleGap


class TilesAndTokens:
    """GameBase's map: homes, tile lays, their costs, and station tokens."""

    # ------------------------------------------------------------ homes and reservations

    # -- a home station chosen when the company starts (`home: chosen_on_float`)

    def _home_chosen(self, corp: Entity) -> bool:
        return corp.get("home") == "chosen_on_float"

    def b_home_spots(self, corp: Entity) -> list["track.TokenSpot"]:
        """home_spots(C): where C's home station may go now, as station spots: for a home chosen when the
        company floats (`home: chosen_on_float`), every city with an open slot for it; otherwise its printed
        home's city, none once its station stands in that hex (a relegated company's, placed at setup); none
        where the title has no map. The primitive of the library's home_open and place_home_token."""
        if self.board is None:
            return []
        if self._home_chosen(corp):
            return self._open_cities(corp)
        home = self._home_node(corp)
        if home[0] in {h for h, _ in self.board.tokens_of(corp.id)}:
            return []
        return [track.check_token(self.board, corp.id, home, home=True)]

    def _open_cities(self, corp: Entity) -> list["track.TokenSpot"]:
        """The city spots where `corp` could place a home station now: a free slot, not kept for another
        company's home, in a hex where it has no token."""
        board = self._need_board()
        out = []
        for hex_id in board.hexes:
            for index, node in enumerate(board.tile_at(hex_id).nodes):
                if node.kind != "city":
                    continue
                try:
                    out.append(track.check_token(board, corp.id, (hex_id, index), home=True))
                except IllegalAction:
                    continue
        return out

    def _setup_reservations(self) -> None:
        """Station slots kept at setup by abilities with `effect: reserved_slot` (`hex`, `city`: the node,
        0 unless given) for their holder, a private or a corporation still in play: other companies may
        not take the last free slots kept so. A private's reservation ends when it closes, or (`ends:
        sold`) when a corporation buys it; the library's `remove_reservations()` ends them all."""
        if self.board is None:
            return
        for holder in [*self.privates, *self.corporations]:
            if self.closed.get(holder.id) if holder.kind == "private" else self.corp[holder.id]["closed"]:
                continue
            for ability in self._abilities(holder, "reserved_slot"):
                ref = (str(ability["hex"]), int(ability.get("city", 0)))
                self._board_change(lambda ref=ref, who=holder.id: self.board.reserved.setdefault(ref, []).append(who))

    def _drop_reservations(self, holder: Entity) -> None:
        """The station slots `holder`'s abilities keep are open again (its home reservation stays)."""
        hexes = {str(a["hex"]) for a in self._abilities(holder, "reserved_slot")}
        if self.board is None or not hexes:
            return

        def drop() -> None:
            for (hex_id, _node), kept in self.board.reserved.items():
                while hex_id in hexes and holder.id in kept:
                    kept.remove(holder.id)

        self._board_change(drop)

    def _kept_for(self, corp: Entity, ref) -> dict | None:
        """The ability (effect reserved_slot) of `corp` that keeps the station `ref` for it still, if any;
        one with `lasting: true` keeps its price (and its teleport) after the reservation ends, while `corp`
        has no station in that hex."""
        if self.board is None:
            return None
        ability = next((a for a in self._abilities(corp, "reserved_slot") if str(a["hex"]) == ref[0]), None)
        if ability is None:
            return None
        if corp.id in self.board.reservations(ref):
            return ability
        if ability.get("lasting") and ref[0] not in {h for h, _ in self.board.tokens_of(corp.id)}:
            return ability
        return None

    def _squeeze_spot(self, corp: Entity, ref) -> "track.TokenSpot | None":
        """The spot beside the circles of a city with no free slot for `corp`, where its card's `squeeze_token`
        allows one; refused (IllegalAction naming the card) in its `excluded_city`; None where the card does
        not apply (no such card, not a city, a free slot, no route, a token of its own in the hex)."""
        ability = self._power(corp, "squeeze_token") if corp.kind == "corporation" else None
        board = self._need_board()
        if ability is None or ref[0] not in board.hexes or not 0 <= ref[1] < len(board.tile_at(ref[0]).nodes):
            return None
        if board.node(ref).kind != "city" or board.free_slot(ref, corp.id) is not None:
            return None
        if any(corp.id in held for (h, _), held in board.tokens.items() if h == ref[0]):
            return None
        if ref not in track.reach(board, corp.id).nodes:
            return None
        name = next((c.get("title") for c in self.DATA.components_of("hex") if c["key"] == ref[0]), None)
        if ability.get("excluded_city") is not None and name == self._value(ability["excluded_city"], "excluded_city"):
            raise IllegalAction(f"no station goes beside the circles of {name}", rule=self._card_rule(self.card_of(corp)))
        return track.TokenSpot(ref[0], ref[1], len(board.holders(ref)), board.city_id(ref), corp.id)

    def spot_field(self, spot: "track.TokenSpot", name: str) -> bool:
        """`spot.reserved`, `spot.reached` in the DSL (`DslSupport.attr`), of the company the spot was checked
        for: the slot's reservation is that company's (one of its abilities keeps it: `effect: reserved_slot`);
        that company's routes reach the city. The map's answers the library's token_cost reads."""
        ref = (spot.hex, spot.node)
        board = self._need_board()
        if name == "reserved":
            return spot.company in board.reservations(ref)
        return ref in track.reach(board, spot.company).nodes

    def hex_field(self, hex_id: str, name: str) -> str:
        """`hex.color` in the DSL (`DslSupport.attr`), of a hex named by its key: the colour of what lies on it
        now, white for an empty or printed hex; a name no hex of the map has is refused."""
        board = self._need_board()
        if hex_id not in board.hexes:
            raise IllegalAction(f"{hex_id} is not on the map")
        return board.tile_at(hex_id).color

    def b_unreserve(self, holder: Entity, home: bool) -> None:
        """unreserve(X, home): station slots kept for X are open again: with `home`, every one kept for it (its
        home station circle among them); otherwise those its abilities keep (effect reserved_slot), its home's
        staying. The primitive of the library's remove_reservations(), unreserve_home(C) and close_private."""
        if not home:
            self._drop_reservations(holder)
        elif self.board is not None:
            board = self.board
            self._board_change(lambda: board.unreserve(holder.id))

    # ------------------------------------------------------------ builtins: tile lays and station tokens

    # -- track: tiles, tokens, routes (the title's map; compiler.runtime.track)

    def _phase_colors(self) -> list[str]:
        """The tile colours that may be laid now: the phase's; every colour for the operating company that
        declared its card's `early_upgrade` (an upgrade still goes one colour at a time)."""
        colors = [str(c) for c in self._phase().get("tiles", [])]
        operating = self._operator(self.g["operating"]) if self.g.get("operating") is not None else None
        if operating is not None and operating.kind == "corporation" and self._armed(operating, "early_upgrade"):
            colors += [c for c in dict.fromkeys(str(t.get("color")) for t in self.DATA.components_of("tile"))
                       if c not in colors]
        return colors

    def _need_board(self) -> "track.Board":
        if self.board is None:
            raise RuleGap("the map", f"{self.DATA.title} has no map (no hex components)")
        return self.board

    def _city_named(self, city: object) -> tuple[str, int]:
        """The city an action names (a node id, "E15-2", or an 18xx.games city id, "57-0-0"); refused
        (IllegalAction) where the name is no city of the map."""
        try:
            return self._need_board().city_ref(str(city))
        except ValueError as err:
            raise IllegalAction(str(err)) from None

    def _station_in(self, corp: Entity, city: object) -> tuple[str, int]:
        """C's station in the city named (`_city_named`): its city; refused where C has none there."""
        ref = self._city_named(city)
        if ref not in self.board.tokens_of(corp.id):
            raise IllegalAction(f"{corp} has no station in {city}")
        return ref

    def _has_tile(self, name: str) -> bool:
        return self.DATA.has_component("tile", name)

    def _tile_private(self, name: str) -> str | None:
        return self.DATA.component("tile", name).get("private") if self._has_tile(name) else None

    def b_check_lay(self, corp: Entity, hex_id: str, tile: str, rotation: int) -> "track.Lay":
        """check_lay(C, hex, tile, rotation): the lay if it is legal for C now (colour, upgrade chart,
        track kept, new track reachable, reservations, supply); refused with the reason otherwise.
        check_lay(X, hex, tile, rotation) for a private X: the lay its tile-lay ability allows its owning
        corporation (`_check_ability_lay`: the ability's hexes, tiles and map conditions)."""
        if corp.kind == "private":
            return self._check_ability_lay(corp, hex_id, tile, rotation)
        board = self._need_board()
        blocker = self._blocked_by(str(hex_id))
        if blocker is not None:
            raise IllegalAction(f"{hex_id} is blocked while a {self.owner[blocker.id].kind} owns {blocker}",
                                rule=self.DATA.rules.get(f"private {blocker.id}"))
        name = str(tile) if str(tile) in board.tiles or "-" not in str(tile) else str(tile).rsplit("-", 1)[0]
        for comp in self.DATA.components_of("tile_set"):
            if name in board.tiles and name not in board.counts:
                raise IllegalAction(f"#{name} is not in the game's tile set",
                                    rule=self.DATA.rules.get(f"tile_set {comp['key']}"))
        lay = track.check_lay(board, corp.id, str(hex_id), str(tile), rotation, self._phase_colors(),
                              crossable=self._crossable_borders(corp))
        self._check_lay_slot(lay)
        owner_private = self._tile_private(lay.tile)
        if owner_private is not None:
            item = self.entity("private", owner_private)
            if self.owner[item.id] != corp or self.closed[item.id]:
                raise IllegalAction(f"tile {lay.tile} may be laid only by a company that owns {item}")
        return lay

    # -- border crossing (a private's `effect: border_crossing`, 1880's P2): the companies its owner directs
    #    may build across borders of its `border_type` before phase `building_until`; each track laid onto
    #    such a hex side for the first time pays its owner `bonus_per_crossing` before phase `bonus_until`

    def _border_abilities(self) -> list[tuple[Entity, dict]]:
        """(private, ability) for each open player-owned private with a border_crossing ability."""
        return [(p, a) for p in self.privates if not self.closed[p.id] and self.owner[p.id].kind == "player"
                for a in self._abilities(p, "border_crossing")]

    def _before_phase(self, ability: dict, field: str) -> bool:
        """Whether the game is still before the phase an ability's `field` names (always, if none)."""
        until = ability.get(field)
        return until is None or self._phase_index(self.g["phase"]) < self._phase_index(str(until))

    def _crossable_borders(self, corp: Entity) -> frozenset[str]:
        """The border types `corp` may build across now: those of the border_crossing privates its
        director owns, before their `building_until` phase."""
        director = self._director(corp)
        return frozenset(str(a["border_type"]) for p, a in self._border_abilities()
                         if self.owner[p.id] == director and self._before_phase(a, "building_until"))

    def _border_crossings(self, lay: "track.Lay") -> None:
        """After a lay: borders it crossed open for good; each hex side with a printed border that the
        lay's new track reaches for the first time pays the border_crossing privates' owners."""
        board = self._need_board()
        for key in lay.crossed:
            self._board_change(lambda key=key: board.open_border(*key))
        if not any(self._abilities(p, "border_crossing") for p in self.privates):
            return  # the title has no such private: nothing to count
        abilities = self._border_abilities()
        done = set(self.g.get("crossed_borders", ()))
        for edge in lay.new_exits:
            printed = board.printed_border(lay.hex, edge)
            nb = board.nbr[lay.hex][edge]
            side = min((lay.hex, edge), (nb, track.opposite(edge))) if nb is not None else (lay.hex, edge)
            if printed is None or side in done:
                continue
            # an ability that pays for a connection (`paid_when: connected`) waits for track on both sides
            joined = nb is not None and track.opposite(edge) in board.layout_at(nb).exits
            paying = [(private, ability) for private, ability in abilities
                      if str(ability.get("border_type")) == printed.type
                      and (ability.get("paid_when") != "connected" or joined)]
            if not paying and any(a.get("paid_when") == "connected" for _, a in abilities):
                continue  # not yet a connection: the side pays when the other side's track meets it
            done.add(side)
            for private, ability in paying:
                if self._before_phase(ability, "bonus_until"):
                    bonus = int(self._value(ability["bonus_per_crossing"], f"{private} bonus_per_crossing"))
                    self.transfer(bonus, BANK, self.owner[private.id])
        if done != set(self.g.get("crossed_borders", ())):
            self.j.set(self.g, "crossed_borders", frozenset(done))

    def _blocked_by(self, hex_id: str) -> Entity | None:
        """The open private whose `blocks_hexes` ability closes `hex_id` to ordinary lays now: while its
        holder is of the ability's `owner` kind (a player where it says none)."""
        for item in self.privates:
            if self.closed[item.id]:
                continue
            for child in item.get("children") or ():
                if child.get("kind") == "ability" and child.get("effect") == "blocks_hexes" \
                        and self.owner[item.id].kind == str(child.get("owner") or "player") \
                        and hex_id in (child.get("hexes") or ()):
                    return item
        return None

    def b_lay_cost(self, lay: "track.Lay", discount: int = 0) -> int:
        """lay_cost(lay): the terrain and border costs of a lay, in currency units (at least the
        title's `tile_lay_cost` for the tile itself, where it sets one; border costs add). lay_cost(lay, d):
        with `d` more off the tile's part, at least 0 (a private's tile-lay ability's `discount`: the
        library's ability_lay_cost)."""
        return self._lay_cost(lay, int(discount))

    def _lay_cost(self, lay: "track.Lay", extra_discount: int) -> int:
        """A lay's cost with `extra_discount` more off the tile's part (see b_lay_cost)."""
        least = self.DATA.properties.get("tile_lay_cost")
        mh = self._need_board().hexes[lay.hex]
        # the terrain of the hex: its cost for a first tile, its upgrade cost for the tile replacing the
        # pre-printed one (named after the hex), nothing for the upgrade of a laid tile
        printed = (mh.upgrade_cost if lay.replaces == lay.hex else 0) if lay.upgrade else mh.cost
        borders = lay.cost - printed
        terrain = printed
        if lay.upgrade and self._terrain_every_lay():
            terrain = max(mh.cost, mh.upgrade_cost)  # the hex's cost again for each upgrade
        operating = self._operator(self.g["operating"]) if self.g.get("operating") is not None else None
        if operating is not None and self._armed(operating, "no_terrain_cost"):
            # terrain ignored with the card's ability: the lay costs what a hex without terrain costs
            return 0 if least is None else int(self._value(least, "tile_lay_cost"))
        tile_cost = terrain if least is None else max(int(self._value(least, "tile_lay_cost")), terrain)
        tile_cost = max(0, tile_cost - self._lay_discount(lay, mh) - extra_discount)
        return tile_cost + max(0, borders - self._border_discount(lay))

    def _least_lay_cost(self) -> int:
        """A lower bound of `lay_cost(lay)` over every lay now (a listing's bound probes, `BOUND_PROBES`):
        the title's `tile_lay_cost` less every standing discount the operating company could have on a
        lay (`_lay_discount`'s abilities, whatever the hex and tile), at least 0; 0 where the title sets
        no least cost (a hex without terrain costs nothing)."""
        least = self.DATA.properties.get("tile_lay_cost")
        if least is None:
            return 0
        discount = 0
        for holder in self._discount_holders():
            for ability in holder.get("children") or ():
                if ability.get("kind") == "ability" and ability.get("discount") is not None and not ability.get("count"):
                    discount += int(self._value(ability["discount"], f"{holder} {ability['key']} discount"))
        return max(0, int(self._value(least, "tile_lay_cost")) - discount)

    def _least_lay_cost_at(self, hex_id: str) -> int:
        """A lower bound of `lay_cost(lay)` over every lay on hex `hex_id` now (a listing's bound probe of a
        lay's entity and hex, `qb2_`): the title's `tile_lay_cost` less the standing discounts the operating
        company could have on a lay there (those `_lay_discount` could give on that hex, whatever the tile:
        an ability for another hex or terrain gives none there), at least 0; 0 where the title sets no least
        cost. At least `_least_lay_cost()`, which counts every standing discount whatever the hex."""
        least = self.DATA.properties.get("tile_lay_cost")
        if least is None:
            return 0
        board = self.board
        h = str(hex_id)
        mh = board.hexes.get(h) if board is not None else None
        if mh is None:
            return self._least_lay_cost()
        discount = 0
        for holder in self._discount_holders():
            for ability in holder.get("children") or ():
                if ability.get("kind") != "ability" or ability.get("discount") is None or ability.get("count"):
                    continue
                # `_lay_discount`'s two cases with the tile left open (it may be one of the ability's tiles)
                terrain = ability.get("terrain")
                hexes = ability.get("hexes") or ()
                if mh.terrains and terrain not in (None, "any") and h not in hexes:
                    if not any(cost for kind, cost in mh.terrains if kind == str(terrain)):
                        continue
                elif not ((terrain is not None and (terrain in (mh.terrain, "any")
                                                    or terrain in [kind for kind, _ in mh.terrains]))
                          or h in hexes):
                    continue
                discount += int(self._value(ability["discount"], f"{holder} {ability['key']} discount"))
        return max(0, int(self._value(least, "tile_lay_cost")) - discount)

    def _terrain_every_lay(self) -> bool:
        """A `terrain_cost` component with `charged: every_lay_and_upgrade`: a hex's printed cost is paid for
        its first tile and again for each upgrade."""
        return any(c.get("charged") == "every_lay_and_upgrade" for c in self.DATA.components_of("terrain_cost"))

    def _discount_holders(self) -> list[Entity]:
        """The operating company and the open privates whose standing discounts apply to its lays: those it
        owns, and those its director owns whose ability `serves: owner_companies` (1880 II.3.1: an ability
        serves every company the private's owner directs, a foreign investor included)."""
        if self.g.get("operating") is None:
            return []
        corp = self._operator(self.g["operating"])
        director = self._director(corp)
        return [corp] + [p for p in self.privates if not self.closed[p.id] and (
            self.owner[p.id] == corp or (director is not None and self.owner[p.id] == director
                                         and self._serves_owner_companies(p)))]

    def _director(self, operator: Entity) -> Entity | None:
        """The player who directs `operator`: the library's function `director` (a corporation's president,
        a minor's or a private's owner where a player holds it; None otherwise)."""
        return self.call("director", operator)

    @staticmethod
    def _serves_owner_companies(company: Entity) -> bool:
        """Whether a private's abilities serve every company its player owner directs (`serves: owner_companies`)."""
        return any(a.get("kind") == "ability" and str(a.get("serves", "")) == "owner_companies"
                   for a in company.get("children") or ())

    def _border_discount(self, lay: "track.Lay") -> int:
        """Standing discounts on the hexsides a lay pays for: an ability with a `discount`, a `terrain`,
        `hexsides: true` and no use `count` takes its discount off each border of that type crossed."""
        board = self._need_board()
        total = 0
        for holder in self._discount_holders():
            for ability in holder.get("children") or ():
                if ability.get("kind") != "ability" or ability.get("discount") is None or ability.get("count") \
                        or not ability.get("hexsides") or ability.get("terrain") is None:
                    continue
                discount = int(self._value(ability["discount"], f"{holder} {ability['key']} discount"))
                for key in lay.borders:
                    border = board.borders.get(tuple(key))
                    if border is not None and border.type == str(ability["terrain"]):
                        total += min(discount, border.cost)
        return total

    def _lay_discount(self, lay: "track.Lay", mh) -> int:
        """Standing discounts on a tile lay for the operating company: an ability (its own, or of an open
        private it owns) with a `discount` and no use `count`, for hexes of its `terrain` (`terrain: any`:
        every hex with a cost) or in its `hexes` (and, where it lists them, for its `tiles`)."""
        holders = self._discount_holders()
        total = 0
        for holder in holders:
            for ability in holder.get("children") or ():
                if ability.get("kind") != "ability" or ability.get("discount") is None or ability.get("count"):
                    continue
                terrain = ability.get("terrain")
                if mh.terrains and terrain not in (None, "any") and lay.hex not in (ability.get("hexes") or ()):
                    # a hex of several terrains: the discount comes off its own terrain's part only
                    part = sum(cost for kind, cost in mh.terrains if kind == str(terrain))
                    tiles = ability.get("tiles")
                    if part and (not tiles or lay.tile in [str(t) for t in tiles]):
                        total += min(part, int(self._value(ability["discount"], f"{holder} {ability['key']} discount")))
                    continue
                where = (terrain is not None and (terrain in (mh.terrain, "any")
                                                  or terrain in [kind for kind, _ in mh.terrains])) or \
                    lay.hex in (ability.get("hexes") or ())
                tiles = ability.get("tiles")
                if where and (not tiles or lay.tile in [str(t) for t in tiles]):
                    total += int(self._value(ability["discount"], f"{holder} {ability['key']} discount"))
        return total

    def b_markers(self) -> list:
        """markers(): the revenue markers on the map, as (private, hex, owner, bonus); the owner is a
        corporation, or a player whose companies all earn the bonus."""
        return [tuple(m) for m in self.g.get("markers", ())]

    def b_lay(self, corp: Entity, lay: "track.Lay", tile_id: str) -> None:
        """lay(C, lay, tile): put the tile on the map; a tile tied to a private closes it; borders the lay
        crosses open, and a border_crossing private's owner earns its bonus (1880 II.3.1, P2); one of C's
        lays this turn. lay(X, lay, tile) for a private X: its ability's tile, for its owning corporation,
        besides its own lays (`_ability_put_tile`; the library's ability_lay)."""
        if corp.kind == "private":
            self._ability_put_tile(corp, lay, tile_id)
            return
        if self._armed(corp, "no_terrain_cost") or (lay.upgrade and self._armed(corp, "early_upgrade")):
            self._disarm(corp)  # the declared terrain waiver covers one lay, an early upgrade one upgrade
        self._put_tile(lay, tile_id)
        self._border_crossings(lay)
        self._collect_on_lay(corp, lay.hex)
        self.j.set(self.g, "lays", self.g.get("lays", 0) + 1)
        if lay.upgrade:
            self.j.set(self.g, "upgraded", True)
        if self.g["lays"] >= len(self._lay_slots()):
            if self.g["step"] == "track_and_token" and not self._done_this_turn("token") and self.call("tokens_left", corp) > 0:
                return  # the station token may still be placed
            if self.g["step"] == "lay_tile" and "step_held" in self.ROUTINES and self.call("step_held", corp, "lay_tile"):
                return  # a lay step the title holds does not end by itself: it is passed
            self._next_step()

    def b_tile_private_open(self, corp: Entity) -> bool:
        """tile_private_open(C): C, at its lay step, could now lay a tile with the ability of a private it owns
        (`effect: free_lay`), or buy a private with such an ability."""
        if self.g.get("step") != "lay_tile":
            return False
        for item in self.privates:
            if self.owner[item.id] == corp and not self.closed[item.id] and self._abilities(item, "free_lay") \
                    and "company_lay_tile" in self.ACTION_PARAMS \
                    and any(self.is_legal(a) for a in self._candidates_for(item, ["company_lay_tile"])):
                return True
        buy = next((n for n in ("corporation_buy_company", "buy_company") if n in self.ACTION_PARAMS), None)
        return buy is not None and any(
            self._abilities(self._company(a["company"]), "free_lay") and self.is_legal(a)
            for a in self._candidates_for(corp, [buy]))

    # components a corporation collects by laying a tile in their hex (the title's `collect_on_lay`: 18CO's mines)

    def _collectables(self, kind: str) -> list[tuple[str, str]]:
        """The (key, hex) of each thing of `kind` a lay collects: a component of that kind in its `home`
        hex, or, for a component listing `locations`, one per hex of the list (key "COMPONENT@HEX")."""
        out = []
        for comp in self.DATA.components_of(kind):
            locations = comp.get("locations")
            if locations is not None:
                hexes = self._value(locations, f"{kind} {comp['key']} locations")
                out.extend((f"{comp['key']}@{h}", str(h)) for h in hexes)
            else:
                out.append((str(comp["key"]), str(comp.get("home"))))
        return out

    def _collect_on_lay(self, corp: Entity, hex_id: str) -> None:
        """A tile laid in the hex of a thing of a kind the title lists in `collect_on_lay` (see
        `_collectables`) gives that thing to the laying corporation, once: counted in the library's state
        `collected`, which the rules read, and its holder kept in `g["collected"]` (whether it was taken, and
        the game's record); none of a kind the library's discard_collected took out of the game (`collected_gone`)."""
        for kind in self.DATA.properties.get("collect_on_lay") or ():
            if self.state_has("collected_gone", str(kind)):
                continue
            for key, home in self._collectables(str(kind)):
                taken = {(k, key) for k, key, _ in self.g.get("collected", ())}
                if home == hex_id and (str(kind), key) not in taken:
                    self.j.set(self.g, "collected", self.g.get("collected", ()) + ((str(kind), key, corp.id),))
                    self.state_put("collected", (corp, str(kind)), self.state_amount("collected", corp, str(kind)) + 1)

    def _put_tile(self, lay: "track.Lay", tile_id: str) -> None:
        """The tile of a checked lay onto the map; a tile tied to a private closes it."""
        board = self._need_board()
        name, _, copy = str(tile_id).rpartition("-")
        copy_index = int(copy) if copy.isdigit() and name == lay.tile else None
        before = board.tile_at(lay.hex)
        self._board_change(lambda: board.lay(lay.hex, lay.tile, lay.rotation, copy_index, lay.mapping or None))
        owner_private = self._tile_private(lay.tile)
        if owner_private is not None:
            self.j.set(self.closed, owner_private, True)
        self._retoken_after_first_lay(lay.hex, before)

    def _retoken_after_first_lay(self, hex_id: str, before: "track.Tile") -> None:
        """`token_city_on_first_lay: owner_chooses`: the first tile with track on a hex of several cities
        takes up the tokens standing there, and each token's company places it again, free, in the city
        of the hex it chooses (a pending `place_token`, see `b_check_token`), as 18xx.games'
        Tracker#update_token! does. Otherwise each token stays in the city the new tile puts in its place."""
        if self.DATA.properties.get("token_city_on_first_lay") != "owner_chooses":
            return
        board = self._need_board()
        tile = board.tile_at(hex_id)
        if before.paths or not tile.paths or sum(1 for n in tile.nodes if n.kind == "city") < 2:
            return
        waiting = dict(self.g.get("retoken") or {})
        for ref in [r for r in board.nodes() if r[0] == hex_id]:
            for company in [c for c in board.holders(ref) if c is not None]:
                self._board_change(lambda c=company, r=ref: board.remove_token(c, r))
                holder = self.find(company)
                self.j.set(self.corp[holder.id], "tokens", self.corp[holder.id]["tokens"] - 1)
                waiting[company] = hex_id
                self.call("require_decision", holder, "place_token")
        self.j.set(self.g, "retoken", waiting)

    def _lay_slots(self) -> list[dict]:
        """The title's `tile_lays`: a number of lays, or a list of records `(lay: true, upgrade: true |
        false | not_if_upgraded)`, one per lay in a turn; either may be a map by phase or phase group."""
        slots = self._by_phase(self.param("tile_lays"), "tile_lays")
        slots = [{"lay": True, "upgrade": True}] * slots if isinstance(slots, int) else list(slots)
        operating = self._operator(self.g["operating"]) if self.g.get("operating") is not None else None
        if operating is not None and self._armed(operating, "extra_lay"):
            slots.append({"lay": True, "upgrade": True})  # one more lay or upgrade, declared with the card
        return slots

    def _check_lay_slot(self, lay: "track.Lay") -> None:
        slots = self._lay_slots()
        used = self.g.get("lays", 0)
        if used >= len(slots):
            raise IllegalAction("no more tile lays this turn")
        slot = slots[used]
        if lay.upgrade:
            allowed = slot.get("upgrade", True)
            if allowed is False or (allowed == "not_if_upgraded" and self.g.get("upgraded")):
                raise IllegalAction("this tile lay may not be an upgrade" + (" after an upgrade" if allowed else ""))
        elif slot.get("lay", True) is False:
            raise IllegalAction("this tile lay may only upgrade")

    def b_check_token(self, corp: Entity, city: str, no_route: bool = False) -> "track.TokenSpot":
        """check_token(C, city): the station spot if C may place a token there now: a route to it and a free
        circle; or a slot one of C's abilities still keeps for it with a `teleport_price` (no route needed);
        or, for a company whose card has `effect: squeeze_token`, beside a city's circles when none is free
        for it (reachable, none of its tokens in the hex, not in the city its `excluded_city` names).
        check_token(C, city, true): one that needs no route (a home station chosen, a token placed again),
        but where a tile lay took up a token of C's (`token_city_on_first_lay: owner_chooses`), only in a city
        of that hex, which the token placed there no longer waits for. check_token(X, city) for a private X:
        the spot its station ability keeps for its owning corporation (`_check_ability_token`). Refused
        (IllegalAction) otherwise."""
        if corp.kind == "private":
            return self._check_ability_token(corp, city)
        board = self._need_board()
        if no_route:
            spot = track.check_token(board, corp.id, str(city), home=True)
            hex_id = (self.g.get("retoken") or {}).get(corp.id)
            if hex_id is not None:
                if spot.hex != hex_id:
                    raise IllegalAction(f"{corp}'s token goes back into a city of {hex_id}")
                waiting = dict(self.g["retoken"])
                del waiting[corp.id]
                self.j.set(self.g, "retoken", waiting)
            return spot
        try:
            return track.check_token(board, corp.id, str(city))
        except IllegalAction:
            try:
                ref = board.city_ref(str(city))
            except ValueError:
                raise IllegalAction(f"there is no city {city!r}") from None
            ability = self._kept_for(corp, ref)
            if ability is None or ability.get("teleport_price") is None:
                squeeze = self._squeeze_spot(corp, ref)
                if squeeze is None:
                    raise
                return squeeze
            return track.check_token(board, corp.id, ref, home=True)

    def b_stations(self, corp: Entity, city: str | None = None) -> list[str]:
        """stations(C): the cities where C (a corporation or a minor) has a station on the map, each its node
        id ("E15-2"), by hex; none where the title has no map. stations(C, city): C's station in `city` (a node
        id or an 18xx.games city id, "57-0-0"), none where C has none there or the city names none."""
        if self.board is None:
            return []
        held = self.board.tokens_of(corp.id)
        if city is not None:
            try:
                ref = self.board.city_ref(str(city))
            except ValueError:
                return []
            held = [ref] if ref in held else []
        return [track.node_id(ref) for ref in held]

    def b_hand_over_station(self, corp: Entity, other: Entity | None, city: str) -> None:
        """hand_over_station(C, O, city): C's station in `city` becomes O's, in the same circle (a station taken
        over); hand_over_station(C, none, city): it leaves the map, its circle free again (the library's
        remove_station and remove_stations). The token counts are the rules' to set. Refused (IllegalAction)
        where C has no station there."""
        board = self._need_board()
        ref = self._station_in(corp, city)
        if other is None:
            self._board_change(lambda: board.remove_token(corp.id, ref))
            return

        def hand_over() -> None:
            held = list(board.holders(ref))
            held[held.index(corp.id)] = other.id
            board.tokens[ref] = held

        self._board_change(hand_over)

    def b_place_station(self, corp: Entity, spot: "track.TokenSpot") -> None:
        """place_station(C, spot): put one of C's tokens in the spot."""
        board = self._need_board()
        beside = spot.slot >= len(board.holders((spot.hex, spot.node)))  # beside the circles (squeeze_token)
        self._board_change(lambda: board.place_token(corp.id, (spot.hex, spot.node), spot.slot, beside=beside))
        self.j.set(self.corp[corp.id], "tokens", self.corp[corp.id]["tokens"] + 1)
        if self._armed(corp, "free_token"):
            self._disarm(corp)  # the declared free token is placed

    def _home_node(self, corp: Entity) -> "track.NodeRef":
        """The city of `corp`'s home station: (hex, node); node 0 unless the hex's
        `homes` names another, as upgrades have moved it since (two cities merged into one)."""
        home = str(self._value(corp.get("home"), f"corporation {corp} home"))
        ref = self.board.home_nodes.get(corp.id)
        return ref if ref is not None and ref[0] == home else (home, 0)

    def b_can_take_station(self, corp: Entity, other: Entity) -> bool:
        """can_take_station(C, M): whether C may put one of its station markers in place of M's station:
        M has a station on the map, C a marker left and no station yet in that hex (one per hex)."""
        if self.board is None or self.call("tokens_left", corp) <= 0:
            return False
        theirs = self.board.tokens_of(other.id)
        mine = {h for h, _ in self.board.tokens_of(corp.id)}
        return bool(theirs) and theirs[0][0] not in mine

    def _remove_stations(self, corp: Entity) -> None:
        if self.board is None:
            return
        board = self.board
        for ref in list(board.tokens_of(corp.id)):
            self._board_change(lambda ref=ref: board.remove_token(corp.id, ref))
