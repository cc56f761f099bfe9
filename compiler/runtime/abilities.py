"""Abilities of privates and cards: when one may be used, who uses it, special tile lays and
tokens, markers, the ability cards and their powers, and closing a private.

`Abilities` is a part of `GameBase` (compiler/runtime/game.py).
"""

from __future__ import annotations

from typing import Any

from compiler.runtime import track
from compiler.runtime.entities import Entity
from compiler.runtime.errors import IllegalAction


class Abilities:
    """GameBase's abilities, markers, ability cards and powers."""

    # ------------------------------------------------------------ builtins: abilities, markers, cards, powers

    # -- private abilities: revenue markers and route bonuses (generic; a title's `ability` fields say which)

    def _abilities(self, holder: Entity, effect: str) -> list[dict]:
        """The abilities of `holder` whose `effect` field is `effect`."""
        return [a for a in holder.get("children") or ()
                if a.get("kind") == "ability" and a.get("effect") == effect]

    def _marker_bonus(self, ability: dict, hex_id: str) -> int | None:
        """The bonus a marker of `ability` earns in `hex_id` (None where it may not go): `bonus` for every
        hex of its `hexes`, or the hex's entry of `bonuses` [(hex, bonus)]."""
        for entry in ability.get("bonuses") or ():
            if str(entry.get("hex")) == hex_id:
                return int(self._value(entry["bonus"], f"{ability['key']} bonus"))
        if hex_id in [str(h) for h in ability.get("hexes") or ()] and ability.get("bonus") is not None:
            return int(self._value(ability["bonus"], f"{ability['key']} bonus"))
        return None

    def _marker_ability(self, company: Entity) -> dict:
        """The revenue-marker ability (`effect: hex_marker`) of private `company` that serves its owner
        now: the library's marker_ability (the one whose `owner` is the owner's kind, else the first), as
        the private's data."""
        abilities = self._abilities(company, "hex_marker")
        if not abilities:
            raise IllegalAction(f"{company} has no revenue marker to place")
        key = self.held_call("marker_ability", company)["key"]  # (kept while X's holder is the same)
        return next(a for a in abilities if a.get("key") == key)

    def b_place_marker(self, company: Entity, hex_id: str) -> None:
        """place_marker(X, target): the owning corporation puts private X's revenue marker (an ability with
        `effect: hex_marker`) in hex `target`, during its operating turn before its trains have run; from
        then on its routes through that hex earn the marker's bonus until the markers are removed. `count`
        limits the placements over the game, `count_per_operating_round` per operating round (the marker then moves).
        An ability with `owner: player` is used by the player who owns X, at any moment, and its bonus
        goes to the routes of every company that player directs (1880 II.3.1, P4's harbour token); with
        `assigned_to: corporation` the player instead names the one corporation that earns it (with
        `corporation_or_minor`, a corporation or a minor): `target` is
        then a hex or a floated corporation, each named at most once in an operating round (1846's
        Steamboat Company held by a player); a pending `assign` decision of X is taken once both are
        named this round. Where X owns several marker abilities, the one for its owner's kind applies.
        Refused (IllegalAction) if X has no such ability, is closed, is not owned by the corporation now
        operating (or by a player, for `owner: player`), the hex is not one of the ability's, or its uses
        are spent. For a corporation C, the marker of the ability card it holds (an ability with `effect:
        bonus_token` and a `bonus_per_train`: 18 Grand Junction's Lemuel Morrissey) goes on a city hex, each of
        C's runs stopping there earning the bonus until the card leaves the game (the rules spend its use);
        refused (IllegalAction naming the card's rule) without such a card, or on a hex without a city.
        place_marker(X, none): X's marker leaves the map (its bonus ends): a private's own, a corporation's its
        cards' (the library's remove_markers() and close_privates)."""
        if hex_id is None:
            self._take_markers(company)
            return
        if company.kind == "corporation":
            self._place_card_marker(company, str(hex_id))
            return
        ability = self._marker_ability(company)
        if str(ability.get("owner", "corporation")) == "player":
            owner = self._player_ability_user(company)
            if self._marker_named_by_player(company):
                self._assign_player_marker(company, ability, str(hex_id))
                return
        else:
            owner = self._ability_user(company, "places its marker", ability)
        bonus = self._marker_bonus(ability, str(hex_id))
        if bonus is None:
            raise IllegalAction(f"{company}'s marker may not go in {hex_id}")
        if self._marker_placements_spent(company, ability):
            raise IllegalAction(f"{company}'s marker has been placed already")
        if ability.get("count_per_operating_round") is not None:
            mark = f"marker {company.id}"
            if self._done_this_turn(mark):
                raise IllegalAction(f"{company}'s marker moves once in an operating round")
            self._mark_done_this_turn(mark)
        self.call("count_marker_use", company)  # (the library's: a use of its marker_ability, in ability_uses)
        markers = [m for m in self.g.get("markers", ()) if m[0] != company.id]
        self.j.set(self.g, "markers", tuple(markers) + ((company.id, str(hex_id), owner.id, bonus),))

    def _marker_named_by_player(self, company: Entity) -> bool:
        """Whether a player owner names the corporation private `company`'s marker serves (`owner: player` and
        `assigned_to: corporation`, `_assign_player_marker`) rather than its user placing it: the library's
        marker_named_by_player."""
        return bool(self.held_call("marker_named_by_player", company))  # (kept while X's holder is the same)

    def _marker_placements_spent(self, company: Entity, ability: dict) -> bool:
        """Whether private `company`'s marker `ability` has used its `count` of placements over the game (the
        library's state ability_uses, by the ability's key, which its count_ability_use counts)."""
        count = ability.get("count")
        return count is not None and self.state_amount("ability_uses", company, str(ability.get("key"))) >= int(count)

    def _assign_player_marker(self, company: Entity, ability: dict, target: str) -> None:
        """A player owner names the hex of X's marker or the corporation it serves (`assigned_to:
        corporation`): each at most once in an operating round, in either order; the marker keeps the other
        part. The marker's owner field is the corporation, or "" while none is named. With `when:
        operating_round_start` only while X owes its `assign` decision (asked as the round begins)."""
        if not self.g["round"] == "operating":
            raise IllegalAction(f"{company}'s marker is assigned in an operating round")
        if str(ability.get("when", "")) == "operating_round_start" and not self.call("pending_decision", company, "assign"):
            raise IllegalAction(f"{company}'s marker is assigned as an operating round begins, before anyone operates")
        current = next((m for m in self.g.get("markers", ()) if m[0] == company.id), None)
        stamp = f"{self.g['set']}.{self.g['or']}"
        marks = dict(self.g.get("assigned_markers", {}))
        done = marks.get(company.id, ("", frozenset()))
        done = done[1] if done[0] == stamp else frozenset()
        minors_too = str(ability.get("assigned_to", "")) == "corporation_or_minor"
        if ("corporation", target) in self.by_id or (minors_too and ("minor", target) in self.by_id):
            corp = self._operator(target)
            if not self.corp[corp.id]["floated"] or self.corp[corp.id]["closed"]:
                raise IllegalAction(f"{company}'s marker serves a floated {'company' if minors_too else 'corporation'}; "
                                    f"{corp} is not one")
            # named before any hex: the marker serves it once it is on one
            part, marker = "corporation", (company.id, current[1] if current else "", corp.id, current[3] if current else 0)
        else:
            bonus = self._marker_bonus(ability, target)
            if bonus is None:
                raise IllegalAction(f"{company}'s marker may not go in {target}")
            kept = current[2] if current is not None and (("corporation", str(current[2])) in self.by_id
                                                          or ("minor", str(current[2])) in self.by_id) else ""
            part, marker = "hex", (company.id, target, kept, bonus)
        if part in done:
            raise IllegalAction(f"{company}'s marker {part} is named once in an operating round")
        done = done | {part}
        marks[company.id] = (stamp, done)
        self.j.set(self.g, "assigned_markers", marks)
        markers = [m for m in self.g.get("markers", ()) if m[0] != company.id]
        self.j.set(self.g, "markers", tuple(markers) + (marker,))
        if done == {"hex", "corporation"} and self.call("pending_decision", company, "assign"):
            self.call("resolve_decision", company, "assign")

    def _marker_assigned_by_player(self, company: Entity) -> bool:
        """Whether X is open, a player owns it, and its marker ability for a player owner names the
        corporation it serves (`owner: player`, `assigned_to: corporation`): the `assign` listing's test
        for offering corporations as targets (the guards decide; a title that asks the decision reads
        its own rule, 1846's function marker_assigned_by_player)."""
        if self.closed[company.id] or self.owner[company.id].kind != "player":
            return False
        return any(str(a.get("owner", "")) == "player" and str(a.get("assigned_to", "")) in ("corporation", "corporation_or_minor")
                   for a in self._abilities(company, "hex_marker"))

    def _player_ability_user(self, company: Entity) -> Entity:
        """The player who may use open private `company`'s player ability: its owner; refused (IllegalAction)
        if it is closed or not owned by a player."""
        if self.closed[company.id]:
            raise IllegalAction(f"{company} is closed")
        owner = self.owner[company.id]
        if owner.kind != "player":
            raise IllegalAction(f"{company} is not owned by a player")
        return owner

    #: the ability timings of the library that say who may use it when, whatever its effect (`_ability_window`)
    GENERIC_WHEN = frozenset({"stock_turn", "operating_turn", "any_time", "sold", "phase_start"})

    def _generic_timing(self, ability: dict | None) -> bool:
        """Whether an ability's timing is the library's generic one (`when: stock_turn | operating_turn |
        any_time | sold | phase_start`,
        or `owner: player`), which `_ability_window` judges, rather than the owning corporation's turn."""
        return ability is not None and (str(ability.get("when", "")) in self.GENERIC_WHEN
                                        or str(ability.get("owner", "")) == "player")

    def _ability_window(self, company: Entity, ability: dict) -> Entity:
        """Who may use private `company`'s `ability` now, by its generic properties: the library's procedure
        ability_window (rulespecs/lib/18xx.rules: the private open, its holder of the ability's `owner` kind,
        from `from_phase` and before `removed_on`, at its `when`) refuses (IllegalAction, saying which) where
        it may not; its `count` uses over the game and `count_per_operating_round` in this operating round
        are the library's too (use_ability, ability_spent). Returns the holder (a player) or the corporation
        acting (for a player owner in an operating turn, the corporation he presides that operates)."""
        self.call("ability_window", company, str(ability.get("key")))
        when = str(ability.get("when", ""))
        holder = self.owner[company.id]
        if when == "operating_turn" or (when not in self.GENERIC_WHEN and holder.kind == "corporation"):
            return self._operator(self.g["operating"])  # (the window's: a company of the holder's operating)
        return holder

    def _ability_user(self, company: Entity, what: str, ability: dict | None = None) -> Entity:
        """The corporation that may use open private `company`'s ability now: its owner, in its own operating
        turn, before its trains have run (at any step of it where the title says `private_ability_window:
        turn`; an ability's own `window` overrides the title's); refused (IllegalAction) otherwise. An ability
        with the library's generic timing (`_generic_timing`) is judged by `_ability_window` instead: its
        user may then be a player; its uses are the library's (use_ability, ability_spent)."""
        if self._generic_timing(ability):
            return self._ability_window(company, ability)
        if self.closed[company.id]:
            raise IllegalAction(f"{company} is closed")
        owner = self.owner[company.id]
        if owner.kind != "corporation" or self.g.get("operating") != owner.id:
            raise IllegalAction(f"only the corporation that owns {company} {what}, in its operating turn")
        window = (ability or {}).get("window") or self.DATA.properties.get("private_ability_window")
        if window != "turn" and not any(
                self.call("in_step", owner, s) for s in ("track_and_token", "lay_tile", "place_token", "run_routes")):
            raise IllegalAction(f"{company}'s ability is used before the corporation's trains run")
        return owner

    def _check_ability_lay(self, company: Entity, hex_id: str, tile: str, rotation: int) -> "track.Lay":
        """check_lay(X, hex, tile, rotation) for a private X (`b_check_lay`): the lay if X's tile-lay ability
        (`effect: free_lay`) allows it now for its owning corporation, as the map says: one of the ability's
        `hexes` and `tiles`; `together` (all its lays in one turn); `reachable: false` waives the route to the
        hex; `once_per_hex`: one lay in each hex; `joins_hexes`: each lay adds track on the side its hex shares
        with the ability's other hexes (1846's Little Miami joins Cincinnati and Dayton); `upgrades_from:
        yellow`: its tiles replace a tile of that colour whatever the phase and the chart say, towns becoming
        cities (18CO's GJGR). An ability without `hexes` lays in any hex (18CO's LNPW: one extra yellow tile).
        Its `count` of uses, its cost and its `closes_private` are the library's ability_lay's. Refused
        (IllegalAction) otherwise."""
        return self._ability_lay_at(rotation, *self._ability_lay_opening(company, hex_id, tile))

    def _ability_lay_giver(self, company: Entity) -> tuple[dict, Entity]:
        """What `_ability_lay_opening` judges first, reading neither the hex nor the tile: private `company`'s
        tile-lay ability (its first of `effect: free_lay`) and who may use it now (`_ability_user`); refused
        (IllegalAction) otherwise, and then at every hex and tile (the listing asks it once, before it works
        out the hexes, `_cand_ability_lays`)."""
        abilities = self._abilities(company, "free_lay")
        if not abilities:
            raise IllegalAction(f"{company} has no tile lay to give")
        ability = abilities[0]
        return ability, self._ability_user(company, "lays its track",  # (its uses: the library's ability_lay)
                                           ability if self._generic_timing(ability) else None)

    def _ability_lay_opening(self, company: Entity, hex_id: str, tile: str) -> tuple:
        """What `_check_ability_lay` judges before the rotation: refused as it refuses (IllegalAction), else
        what the rest of its check reads (`_ability_lay_at`), the same at every rotation (the listing of a
        private's lays judges it once for each hex and tile, `_cand_ability_lays`)."""
        ability, corp = self._ability_lay_giver(company)
        name = str(tile).rsplit("-", 1)[0] if "-" in str(tile) else str(tile)
        if ability.get("hexes") and str(hex_id) not in [str(h) for h in ability["hexes"]]:
            raise IllegalAction(f"{company}'s tile lay is not for {hex_id}")
        if ability.get("tiles") and name not in [str(t) for t in ability["tiles"]]:
            raise IllegalAction(f"{company}'s tile lay is not for tile {name}")
        # (its `count` of uses is the library's ability_lay's, which counts them in ability_uses)
        used = self.state_amount("ability_uses", company, str(ability.get("key")))
        if used and ability.get("together") and not self._done_this_turn(f"lay {company.id}"):
            raise IllegalAction(f"{company}'s tile lays are made in one turn; the rest lapsed")
        if ability.get("once_per_hex") and f"lay {company.id} {hex_id}" in self.g.get("turn_marks", frozenset()):
            raise IllegalAction(f"{company} lays one tile in {hex_id}")
        board = self._need_board()
        special = frozenset(str(t) for t in ability.get("tiles") or ()) if ability.get("upgrades_from") else frozenset()
        # a player lays with no station of his own: his lay needs no route (a private's lay outside any
        # operating turn, 18xx.games' `owning_player_sr_turn` tile lays)
        reachable = bool(ability.get("reachable", True)) and corp.kind != "player"
        return company, hex_id, ability, corp, name, board, special, reachable, self._phase_colors()

    def _ability_lay_at(self, rotation: int, company: Entity, hex_id: str, ability: dict, corp: Entity, name: str,
                        board: "track.Board", special: frozenset, reachable: bool, colors: Any,
                        quiet: bool = False) -> "track.Lay | None":
        """The rest of `_check_ability_lay`, at `rotation`, given what `_ability_lay_opening` found; with
        `quiet`, None where it would refuse (the listing, `_cand_ability_lays`)."""
        verdict = track.judge_lay(board, corp.id, str(hex_id), name, rotation, colors,
                                  reachable=reachable, special=special,
                                  special_from=str(ability["upgrades_from"]) if ability.get("upgrades_from") else None)
        if isinstance(verdict, str):
            if quiet:
                return None
            raise IllegalAction(verdict, source=getattr(verdict, "source", None))
        lay = verdict
        if ability.get("joins_hexes"):
            # new track on the side this hex shares with each other hex of the ability
            for other in [str(h) for h in ability.get("hexes") or ()]:
                side = board.geometry.edge_between(str(hex_id), other) if other != str(hex_id) else None
                if side is not None and side not in lay.new_exits:
                    if quiet:
                        return None
                    raise IllegalAction(f"{company}'s tile in {hex_id} must add track towards {other}")
        return lay

    def _check_ability_token(self, company: Entity, city: str) -> "track.TokenSpot":
        """check_token(X, city) for a private X (`b_check_token`): the spot if X's token ability (`effect:
        free_token`: its `hex` and `city` node) lets its owning corporation place a station there now, in the
        slot X keeps, with no route needed; refused (IllegalAction) otherwise. Its `count` of uses and the
        corporation's tokens left are the library's ability_token's."""
        abilities = self._abilities(company, "free_token")
        if not abilities:
            raise IllegalAction(f"{company} has no station token to give")
        ability = abilities[0]
        corp = self._token_ability_user(company, ability, "places its token")
        board = self._need_board()
        ref = self._city_named(city)
        if ref != (str(ability["hex"]), int(ability.get("city", 0))):
            raise IllegalAction(f"{company}'s token goes only in {ability['hex']} (city {ability.get('city', 0)})")
        kept = self.board.reserved.get(ref, [])
        if company.id in kept:
            # the slot the private keeps is the corporation's to take
            self._board_change(lambda: kept.remove(company.id))
        return track.check_token(board, corp.id, ref, home=True)

    def _token_ability_user(self, company: Entity, ability: dict, what: str) -> Entity:
        """The corporation whose station private `company`'s token ability (`free_token`) places now: the
        corporation holding the private. With the library's generic timing
        (`when`, `from_phase`, `removed_on`, `count_per_operating_round`: `_ability_window`) in the moment
        it allows, which must then be its own operating turn or one it holds the private in; else in its
        operating turn, before its trains run (`_ability_user`). Refused (IllegalAction) otherwise, and
        where a player holds the private: a station is a corporation's. Its uses are the library's
        (ability_token: ability_spent)."""
        if not self._generic_timing(ability):
            return self._ability_user(company, what)
        user = self._ability_window(company, ability)
        holder = self.owner[company.id]
        if holder.kind != "corporation" or user != holder:
            raise IllegalAction(f"{company} {what} for the corporation holding it")
        return holder

    def _ability_put_tile(self, company: Entity, lay: "track.Lay", tile_id: str) -> None:
        """lay(X, lay, tile) for a private X (`b_lay`): the tile of X's ability on the map for its owner, free
        and besides its own lays (none of them used); the turn's marks of X's lays (`together`,
        `once_per_hex`); the owning corporation collects there. Its uses and its closing are the library's
        ability_lay's."""
        self._mark_done_this_turn(f"lay {company.id}")
        self._mark_done_this_turn(f"lay {company.id} {lay.hex}")
        self._put_tile(lay, tile_id)
        self._border_crossings(lay)
        if self.owner[company.id].kind == "corporation":
            self._collect_on_lay(self.owner[company.id], lay.hex)  # the owner lays it: it collects there

    def b_track_connected(self, a: Entity, b: Entity) -> bool:
        """track_connected(A, B): some station of A and some station of B are joined by track, whoever's
        stations stand between (1880 VII.3.7: a physical connection, not a route)."""
        board = self._need_board()
        theirs = set(board.tokens_of(b.id))
        return bool(theirs) and bool(track.linked(board, board.tokens_of(a.id)) & theirs)

    def b_remove_borders(self, kind: str) -> None:
        """remove_borders(type): the map's hex-side borders of that type are gone (track may cross them)."""
        board = self._need_board()
        self._board_change(lambda: board.remove_borders(str(kind)))

    # -- ability cards: a deck of cards each giving the company that picks one an ability (the title's
    #    `ability_cards`: the component kind of the cards; 18 Grand Junction's Company Presidents)

    def _card_kind(self) -> str | None:
        kind = self.DATA.properties.get("ability_cards")
        return None if kind is None else str(kind)

    def _cards(self) -> list[dict]:
        kind = self._card_kind()
        return list(self.DATA.components_of(kind)) if kind is not None else []

    def _card(self, key: Any) -> dict:
        for card in self._cards():
            if card["key"] == str(key):
                return card
        raise IllegalAction(f"there is no {self._card_kind() or 'ability card'} {key!r}")

    def _card_rule(self, key: str) -> str | None:
        return self.DATA.rules.get(f"{self._card_kind()} {key}")

    def _deck_rule(self) -> str | None:
        return self.DATA.rules.get("property ability_cards")

    def card_of(self, corp: Entity) -> str | None:
        """The key of the ability card C holds now (18GJ: its Company President), or none: the runtime's own
        reads (the rules ask the library's holds_card, over `C.card_abilities`)."""
        return self.g.get("cards", {}).get(corp.id)

    def b_deck(self) -> list[str]:
        """deck(): the keys of the ability cards left in the deck, in the title's order."""
        taken = set(self.g.get("cards", {}).values()) | set(self.g.get("cards_removed", ()))
        return [c["key"] for c in self._cards() if c["key"] not in taken]

    def _card_abilities(self, corp: Entity) -> list[dict]:
        key = self.card_of(corp)
        if key is None:
            return []
        return [a for a in self._card(key).get("children") or () if a.get("kind") == "ability"]

    def _power(self, corp: Entity, effect: str) -> dict | None:
        """The ability with `effect` of the card `corp` holds now, if any (its data, for the map's own reads)."""
        return next((a for a in self._card_abilities(corp) if a.get("effect") == effect), None)

    def card_ability_records(self, entity: Entity) -> list[dict[str, Any]]:
        """`C.card_abilities` in the DSL: the abilities of the ability card corporation C holds now (the title's
        `ability_cards`), as records (as `X.abilities`'s: `ability_records`); none where C holds no card or is
        no corporation. The library's has_power and power_value read them."""
        key = self.g.get("cards", {}).get(entity.id) if entity.kind == "corporation" else None
        if key is None:
            return []
        return self.ability_records(Entity(str(self._card_kind()), str(key), data=self._card(key)))

    def b_hold_card(self, corp: Entity, key: Any) -> None:
        """hold_card(C, card): C holds the card now, taken from the deck (refused, IllegalAction, for a card not
        left in it); the card C held before, if any, leaves the game with what it placed (a marker), and a
        holding that only that card allowed stays (its excess recorded where the title sanctions `holding_cap`
        for hold_card); with none, C holds no card. The deck and the card each company holds are the
        runtime's; the use cubes and the uses declared on a card are the rules' (18 Grand Junction's
        take_card and discard_cards)."""
        card = None if key is None else str(key)
        if card is not None and card not in self.b_deck():
            raise IllegalAction(f"{key} is not left in the deck", rule=self._deck_rule())
        held = self.card_of(corp)
        cards = {k: v for k, v in self.g.get("cards", {}).items() if k != corp.id}
        if held is None and card is None:
            return
        if held is not None:
            self.j.set(self.g, "cards_removed", tuple(self.g.get("cards_removed", ())) + (held,))
            markers = tuple(m for m in self.g.get("markers", ()) if m[0] != held)
            if markers != tuple(self.g.get("markers", ())):
                self.j.set(self.g, "markers", markers)  # a card's marker leaves with it
        self.j.set(self.g, "cards", cards if card is None else {**cards, corp.id: card})
        if held is not None:
            self._sanction_excess(corp, "hold_card")

    def _declared(self, corp: Entity) -> list[tuple]:
        """The elements of the library's state `declared_uses` that are `corp`'s (at most one: a declaration
        waits until it is spent)."""
        return [k for k in self.g.get("state:declared_uses", {}) if k[0] == corp.id]

    def _armed(self, corp: Entity, effect: str) -> int:
        """The cubes `corp` spent on `effect` this turn and not yet used up (0 if none): the library's
        `declared_uses(C, effect)`."""
        return self.state_amount("declared_uses", corp, effect)

    def _disarm(self, corp: Entity) -> None:
        """`corp`'s declaration is spent: its `declared_uses` back to 0."""
        for element in self._declared(corp):
            self.state_put("declared_uses", element, 0)

    def _place_card_marker(self, corp: Entity, hex_id: str) -> None:
        """place_marker(C, hex) of a corporation: its card's marker on a city hex (b_place_marker)."""
        key = self.card_of(corp)
        ability = self._power(corp, "bonus_token") if key is not None else None
        if ability is None:
            raise IllegalAction(f"{corp} has no marker to place", rule=self._deck_rule())
        board = self._need_board()
        if hex_id not in board.hexes or not board.tile_at(hex_id).cities:
            raise IllegalAction(f"{key}'s marker goes on a city, not {hex_id}", rule=self._card_rule(key))
        bonus = int(self._value(ability["bonus_per_train"], f"{key} bonus_per_train"))
        self.j.set(self.g, "markers", tuple(self.g.get("markers", ())) + ((key, hex_id, corp.id, bonus),))

    def _take_markers(self, company: Entity) -> None:
        """place_marker(X, none): X's revenue marker leaves the map: a private's, the one keyed by it; a
        corporation's, those of its ability cards (keyed by the card, serving it)."""
        markers = tuple(self.g.get("markers", ()))
        if company.kind == "private":
            kept = tuple(m for m in markers if m[0] != company.id)
        else:
            kept = tuple(m for m in markers if m[2] != company.id or ("private", m[0]) in self.by_id)
        if kept != markers:
            self.j.set(self.g, "markers", kept)
