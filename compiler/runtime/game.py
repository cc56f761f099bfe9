"""The engine runtime: state, primitives and the round machinery.

A generated title module subclasses `GameBase`, gives it the title's data
(`DATA`, a `TitleData`) and its compiled actions, procedures, functions and
triggers (`ROUTINES`, `TRIGGERS`), and exposes the engine contract:

    game = Game(players=["Ann", "Bob"], seed=7)
    game.legal_actions()      -> list[dict]   (18xx.games action vocabulary)
    game.process(action)      raises IllegalAction(message, rule=...); a
                              refused action leaves the state unchanged
    game.state()              -> dict (see ARCHITECTURE.md)
    game.finished, game.result(), Game.from_log(log), game.to_log()

Everything here is generic 18xx machinery parameterised by the title's
data; nothing names a title. Money moves only through `transfer`; owners
change only through `move`; every change is journaled so a refused action
is rolled back.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable

from compiler.runtime.data import Gap, Table, TitleData, resolve_value
from compiler.runtime.entities import BANK, DEPOT, POOL, SCRAP, Certificate, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.journal import Journal
from compiler.runtime.market import Market
from compiler.runtime import track

Action = dict[str, Any]

#: The steps of a corporation's operating turn, in order (the title's
#: `operating_steps` chooses among them; steps needing a map are skipped
#: while the title has none).
STEPS = ("lay_tile", "place_token", "run_routes", "dividend", "buy_train")
MAP_STEPS = frozenset({"lay_tile", "place_token"})


class GameBase:
    DATA: TitleData
    ROUTINES: dict[str, Callable] = {}
    TRIGGERS: dict[str, list[tuple[Callable | None, Callable]]] = {}

    # ------------------------------------------------------------ setup

    def __init__(self, players: list[str], seed: int = 0, variant: str | None = None,
                 options: Iterable[str] = ()):
        if variant is not None and variant != self.DATA.variant:
            raise ValueError(f"this engine is {self.DATA.title!r} variant {self.DATA.variant!r}, not {variant!r}")
        names = list(players)
        if len(set(names)) != len(names):
            raise ValueError("player names must differ")
        allowed = self.DATA.param("players")
        low, high = allowed if isinstance(allowed, tuple) else (allowed, allowed)
        if not low <= len(names) <= high:
            raise ValueError(f"{self.DATA.title} takes {low}..{high} players, not {len(names)}")
        self.seed = seed
        self.options = tuple(options)
        known = {c["key"] for c in self.DATA.components_of("option")}
        unknown = [o for o in self.options if o not in known]
        if unknown:
            raise ValueError(f"{self.DATA.title} has no option {unknown[0]!r}; options: {sorted(known) or 'none'}")
        #: properties the chosen options set (an option's `sets` record)
        self.option_sets: dict[str, Any] = {}
        for comp in self.DATA.components_of("option"):
            if comp["key"] in self.options:
                self.option_sets.update(comp.get("sets") or {})
        self.rng = random.Random(seed)
        self.j = Journal()
        self.actions: list[Action] = []
        self.n = len(names)
        try:
            self._build_entities(names)
            self._build_state()
            self._start()
        except RuleGap:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # data the runtime cannot read yet (a title whose rules are still being written)
            raise RuleGap(f"{self.DATA.title} data", f"cannot be read for play ({type(exc).__name__}: {exc})") from exc

    def _build_entities(self, names: list[str]) -> None:
        d = self.DATA
        self.players = [Entity("player", name, name) for name in names]
        self.corporations = [
            Entity("corporation", c["key"], c.get("title") or c["key"], c) for c in d.components_of("corporation")
        ]
        self.privates = [Entity("private", c["key"], c.get("title") or c["key"], c) for c in d.components_of("private")]
        self.bonds = [Entity("bond", c["key"], c.get("title") or c["key"], c) for c in d.components_of("bond")]
        self.by_id: dict[tuple[str, str], Entity] = {}
        for e in self.players + self.corporations + self.privates + self.bonds + [BANK, POOL, DEPOT, SCRAP]:
            self.by_id[(e.kind, e.id)] = e
        self.certificates: dict[str, Certificate] = {}
        self.certs_of: dict[str, list[Certificate]] = {}
        for corp in self.corporations:
            shares = self._value(corp.get("shares"), f"corporation {corp.id} shares")
            certs = [Certificate(corp.id, i, pct, i == 0) for i, pct in enumerate(shares)]
            self.certs_of[corp.id] = certs
            for cert in certs:
                self.certificates[cert.id] = cert
        self.trains: dict[str, Train] = {}
        self.train_order: list[str] = []
        for comp in d.components_of("train"):
            count = self._value(comp.get("count"), f"train {comp['key']} count")
            for i in range(count):
                t = Train(comp["key"], i, comp.get("distance"), self._value(comp.get("price"), f"train {comp['key']} price"))
                self.trains[t.id] = t
                self.train_order.append(t.id)
        supply = d.properties.get("train_supply_order")
        if isinstance(supply, list):
            rank = {name: i for i, name in enumerate(dict.fromkeys(supply))}
            self.train_order.sort(key=lambda tid: (rank.get(self.trains[tid].name, len(rank)), self.trains[tid].index))
        self.phases = [dict(p) for p in d.components_of("phase")]
        self.board = self._build_board()
        market = d.components_of("market")[0]
        self.market = Market.from_spec(market)

    def _build_board(self) -> "track.Board | None":
        """The map, when the title has one (its `hex` components)."""
        d = self.DATA
        hexes = d.components_of("hex")
        if not hexes:
            return None
        tiles = {c["key"]: c for c in d.components_of("tile")}
        counts = self._table_dict("tile_counts")
        upgrades = self._table_dict("upgrades")
        gap_rows = [name for name, value in (upgrades or {}).items() if isinstance(value, Gap)]
        if gap_rows:
            # a chart row that is a gap is derived from the tiles' track (grammar/README.md)
            derive = track.Board({c["key"]: c for c in hexes}, layout=self.param("layout"),
                                 axes=d.properties.get("axes"), tiles=tiles)
            for name in gap_rows:
                upgrades[name] = list(derive.upgrade_targets(derive.tiles[name]))
        rules = track.TrackRules(
            off_board=bool(self.param("track_off_board")),
            dead_end_colors=frozenset(self.param("dead_end_colors")),
        )
        return track.Board(
            {c["key"]: c for c in hexes},
            layout=self.param("layout"),
            axes=d.properties.get("axes"),
            tiles=tiles,
            tile_counts=counts,
            upgrades=upgrades,
            phases=[p["key"] for p in self.phases],
            rules=rules,
        )

    def _table_dict(self, name: str) -> dict | None:
        """A one-key table as a dict (None when the title has no such table)."""
        table = self.DATA.properties.get(name)
        if table is None:
            return None
        if not isinstance(table, Table) or len(table.dims) != 1:
            raise RuleGap(name, "expected a table keyed by one dimension")
        return {keys[0]: value for keys, value in table.rows}

    def _board_change(self, change: Callable[[], Any]) -> Any:
        """Change the board; a rollback restores it."""
        snapshot = self.board.snapshot()
        result = change()
        self.j.on_rollback(lambda: self.board.restore(snapshot))
        return result

    def _value(self, value, what: str):
        return resolve_value(what, value, players=self.n)

    def param(self, name: str, **dims):
        """A title property as play needs it (tables read at this player count;
        a chosen option's `sets` override the title)."""
        if name in self.option_sets:
            return resolve_value(name, self.option_sets[name], players=self.n, **dims)
        return self.DATA.param(name, players=self.n, **dims)

    def _build_state(self) -> None:
        bank = self.param("bank")
        self.unlimited_bank = bank == "unlimited"
        self.cash: dict[Entity, int] = {p: 0 for p in self.players}
        for c in self.corporations:
            self.cash[c] = 0
        self.cash[BANK] = 0 if self.unlimited_bank else bank
        #: the bank's flows, for conservation with an unlimited bank
        self.flow = {"paid": 0, "received": 0}
        self.owner: dict[str, Entity] = {}
        for corp in self.corporations:
            for cert in self.certs_of[corp.id]:
                self.owner[cert.id] = corp  # unsold certificates wait on the corporation's mat
        for item in self.privates:
            self.owner[item.id] = BANK
        for bond in self.bonds:
            self.owner[bond.id] = self.entity("corporation", bond.get("corporation"))
        for tid in self.trains:
            self.owner[tid] = DEPOT
        self.corp: dict[str, dict[str, Any]] = {
            c.id: {"par": None, "cell": None, "floated": False, "closed": False, "tokens": 0,
                   "revenue": 0, "operated": False}
            for c in self.corporations
        }
        self.closed: dict[str, bool] = {p.id: False for p in self.privates}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self.g: dict[str, Any] = {
            "phase": self.phases[0]["key"],
            "round": "setup",
            "stock_rounds": 0,
            "set": 0,
            "or": 0,
            "ors_in_set": self._phase_ors(self.phases[0]),
            "turn": 0,
            "priority": 0,
            "passes": 0,
            "acted": False,
            "bought": False,
            "sold": False,
            "sold_this_round": frozenset(),
            "sold_corps": frozenset(),
            "sale": 0,
            "sale_price": None,
            "order": (),
            "operating": None,
            "step": None,
            "bank_buys": 0,
            "broken": False,
            "rounds_played": 0,
            "total_revenue": 0,
            "finished": False,
            "end_reason": None,
            "sanctioned": frozenset(),
            "first_bought": frozenset(),
        }

    def _start(self) -> None:
        start_cash = self.param("starting_cash")
        for p in self.players:
            self.transfer(start_cash, BANK, p)
        if self.DATA.properties.get("first_player") == "random":
            self.j.set(self.g, "priority", self.rng.randrange(self.n))
        first = self.param("first_round")
        if first == "private_sale":
            self._start_private_sale()
        else:
            self._start_stock_round(0)

    # ------------------------------------------------------------ entity lookups

    def entity(self, kind: str, key: Any) -> Entity:
        if isinstance(key, Entity):
            return key
        found = self.by_id.get((kind, str(key)))
        if found is None:
            raise IllegalAction(f"there is no {kind} {key!r}")
        return found

    def find(self, key: Any) -> Entity:
        """An entity by id, whatever its kind (players, then corporations, ...)."""
        if isinstance(key, Entity):
            return key
        for kind in ("player", "corporation", "private", "bond", "bank", "pool"):
            found = self.by_id.get((kind, str(key)))
            if found is not None:
                return found
        raise IllegalAction(f"there is no entity {key!r}")

    # ------------------------------------------------------------ primitives

    def transfer(self, amount: int, source: Entity, target: Entity) -> None:
        """Move `amount` (currency units) from `source` to `target`.

        Raises IllegalAction when a player or corporation lacks the cash.
        The bank may go below zero only once it is broken (it then pays on
        credit until the game ends); an unlimited bank only records flows.
        """
        if amount < 0:
            raise IllegalAction(f"a payment cannot be negative ({amount})")
        if amount == 0 or source == target:
            return
        if source is BANK:
            if self.unlimited_bank:
                self.j.set(self.flow, "paid", self.flow["paid"] + amount)
            else:
                self.j.set(self.cash, BANK, self.cash[BANK] - amount)
                if self.cash[BANK] <= 0 and not self.g["broken"]:
                    self._bank_broken()
        else:
            have = self.cash[source]
            if have < amount:
                raise IllegalAction(f"{source} has {self.money(have)}, not {self.money(amount)}")
            self.j.set(self.cash, source, have - amount)
        if target is BANK:
            if self.unlimited_bank:
                self.j.set(self.flow, "received", self.flow["received"] + amount)
            else:
                self.j.set(self.cash, BANK, self.cash[BANK] + amount)
        else:
            self.j.set(self.cash, target, self.cash[target] + amount)

    def move(self, item: Any, source: Any, target: Entity) -> None:
        """Give `item` (a certificate, private, bond or train) to `target`."""
        key = item.id if hasattr(item, "id") and not isinstance(item, Entity) else getattr(item, "id", str(item))
        holder = self.owner.get(key)
        if isinstance(source, str):
            source = self._source_holder(item, source)
        if holder != source:
            raise IllegalAction(f"{key} is held by {holder}, not {source}")
        self.j.set(self.owner, key, target)

    def _source_holder(self, item: Any, source: str) -> Entity:
        if source == "pool":
            return POOL
        if source in ("treasury", "ipo") and isinstance(item, Certificate):
            return self.entity("corporation", item.corporation)
        if source == "depot":
            return DEPOT
        raise IllegalAction(f"unknown source {source!r}")

    def money(self, amount: int) -> str:
        return f"{self.DATA.properties.get('currency', '$')}{amount}"

    # ------------------------------------------------------------ builtins (the DSL's vocabulary)

    def b_cash(self, holder: Entity) -> int:
        return self.cash[holder]

    def b_percent(self, holder: Entity, corp: Entity) -> int:
        return sum(c.percent for c in self.certs_of[corp.id] if self.owner[c.id] == holder)

    def b_holder_of(self, item: Any) -> Entity:
        return self.owner[item.id]

    def b_president(self, corp: Entity) -> Entity | None:
        holder = self.owner[self.certs_of[corp.id][0].id]
        return holder if holder.kind == "player" else None

    def b_president_certificate(self, corp: Entity) -> Certificate:
        return self.certs_of[corp.id][0]

    def b_started(self, corp: Entity) -> bool:
        return self.corp[corp.id]["par"] is not None

    def b_floated(self, corp: Entity) -> bool:
        return self.corp[corp.id]["floated"]

    def b_price(self, corp: Entity) -> int:
        cell = self.corp[corp.id]["cell"]
        if cell is None:
            raise IllegalAction(f"{corp} has no share price yet")
        return self.market.price(cell)

    def b_par_price(self, corp: Entity) -> int:
        return self.corp[corp.id]["par"]

    def b_par_prices(self, corp: Entity) -> list[int]:
        prices = corp.get("par") or self.DATA.properties.get("par_prices")
        if prices is None:
            prices = sorted({self.market.price(c) for c in self.market.par_cells()})
        return list(self._value(prices, f"corporation {corp} par"))

    def b_zones(self, corp: Entity) -> frozenset[str]:
        cell = self.corp[corp.id]["cell"]
        return self.market.zones_of(cell) if cell is not None else frozenset()

    def b_in_round(self, kind: str) -> bool:
        return self.g["round"] == kind

    def b_stock_round_number(self) -> int:
        return self.g["stock_rounds"]

    def b_acting(self, entity: Entity) -> bool:
        return self.current_entity() == entity

    def b_in_step(self, corp: Entity, step: str) -> bool:
        return self.g["round"] == "operating" and self.g["operating"] == corp.id and self.g["step"] == step

    def b_sold_this_round(self, player: Entity, corp: Entity) -> bool:
        return (player.id, corp.id) in self.g["sold_this_round"]

    def b_may_buy_now(self, player: Entity) -> bool:
        """One buy per stock-round turn; with sell-then-buy, no sale after it."""
        if self.g["bought"]:
            return False
        if self.g["round"] == "stock" and self._privates_for_sale():
            return False
        return True

    def b_may_sell_now(self, player: Entity) -> bool:
        order = self.param("sell_buy_order")
        return not (order == "sell_then_buy" and self.g["bought"])

    def b_certificates(self, player: Entity) -> int:
        """Certificates counting against the limit: shares outside exempt
        zones, and the other kinds the title's `cert_limit_counts` names."""
        counts = set(self.param("cert_limit_counts"))
        total = 0
        if "shares" in counts:
            for cert in self.certificates.values():
                if self.owner[cert.id] == player:
                    corp = self.entity("corporation", cert.corporation)
                    if "no_cert_limit" not in self.b_zones(corp):
                        total += 1
        if "privates" in counts:
            total += sum(1 for p in self.privates if self.owner[p.id] == player and not self.closed[p.id])
        if "bonds" in counts:
            total += sum(1 for b in self.bonds if self.owner[b.id] == player)
        return total

    def b_cert_limit(self) -> int:
        return self.param("cert_limit")

    def b_holding_cap(self) -> int:
        return self.param("holding_cap")

    def b_next_certificate(self, corp: Entity, source: str) -> Certificate | None:
        holder = POOL if source == "pool" else corp
        for cert in self.certs_of[corp.id]:
            if self.owner[cert.id] == holder and not (cert.president and source != "pool" and not self.b_started(corp)):
                if cert.president and holder != POOL:
                    continue
                return cert
        return None

    def b_share_cost(self, corp: Entity, source: str) -> int:
        """What one share costs from `source`: par from the IPO/treasury while
        the title says so, else the market price."""
        if source in ("ipo", "treasury") and self.param("treasury_shares_at") == "par":
            return self.b_par_price(corp)
        return self.b_price(corp)

    def b_payee(self, corp: Entity, source: str) -> Entity:
        if source == "pool":
            return BANK
        if source == "treasury" or self.param("capitalisation") == "incremental":
            return corp
        return BANK

    def b_pool_percent(self, corp: Entity) -> int:
        return self.b_percent(POOL, corp)

    def b_pool_cap(self) -> int:
        return self.param("pool_cap")

    def b_sellable(self, player: Entity, corp: Entity) -> list[Certificate]:
        """The certificates `player` may sell of `corp`, president's last."""
        certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == player]
        if not self.param("president_certificate_saleable"):
            certs = [c for c in certs if not c.president]
        return sorted(certs, key=lambda c: (c.president, -c.index))

    def b_granted(self, cert: Certificate) -> bool:
        """Whether a private's ability granted this certificate."""
        return cert.id in self.g.get("granted", frozenset())

    def b_len(self, xs) -> int:
        """len(xs): how many."""
        return len(xs)

    def b_take(self, xs, n: int) -> list:
        """take(xs, n): the first n of xs."""
        return list(xs)[:n]

    def b_min(self, *xs):
        return min(xs)

    def b_max(self, *xs):
        return max(xs)

    def b_floor_to(self, x: int, n: int) -> int:
        return x - x % n

    def b_ceil_to(self, x: int, n: int) -> int:
        return x if x % n == 0 else x + n - x % n

    def b_first(self, xs):
        xs = list(xs)
        return xs[0] if xs else None

    def b_owner(self, item: Any) -> Entity:
        return self.owner[item.id]

    def b_trains(self, holder: Entity) -> list[Train]:
        return [t for tid, t in self.trains.items() if self.owner[tid] == holder]

    def b_revenue(self, corp: Entity) -> int:
        return self.corp[corp.id]["revenue"]

    def b_shareholders(self, corp: Entity) -> list[Entity]:
        seen = []
        for cert in self.certs_of[corp.id]:
            holder = self.owner[cert.id]
            if holder not in seen:
                seen.append(holder)
        return seen

    def b_open_privates(self) -> list[Entity]:
        return [p for p in self.privates if not self.closed[p.id] and self.owner[p.id] not in (BANK, POOL)]

    def b_train_limit(self, corp: Entity) -> int:
        limit = self._phase()["train_limit"]
        return self._value(limit, f"phase {self.g['phase']} train_limit")

    def b_phase_at_least(self, name: str) -> bool:
        keys = [p["key"] for p in self.phases]
        return keys.index(self.g["phase"]) >= keys.index(str(name))

    def b_available_trains(self) -> list[Train]:
        return [self.trains[tid] for tid in self._available_train_ids()]

    def b_bank_buys_this_turn(self) -> int:
        return self.g["bank_buys"]

    def b_corporation_of(self, item: Entity) -> Entity:
        """corporation_of(x): the corporation a bond (or other item) belongs to."""
        return self.entity("corporation", item.get("corporation"))

    # -- track: tiles, tokens, routes (the title's map; compiler.runtime.track)

    def _phase_colors(self) -> list[str]:
        return [str(c) for c in self._phase().get("tiles", [])]

    def _need_board(self) -> "track.Board":
        if self.board is None:
            raise RuleGap("the map", f"{self.DATA.title} has no map (no hex components)")
        return self.board

    def _has_tile(self, name: str) -> bool:
        return any(c["key"] == name for c in self.DATA.components_of("tile"))

    def _tile_private(self, name: str) -> str | None:
        return self.DATA.component("tile", name).get("private") if self._has_tile(name) else None

    def b_check_lay(self, corp: Entity, hex_id: str, tile: str, rotation: int) -> "track.Lay":
        """check_lay(C, hex, tile, rotation): the lay if it is legal for C now (colour, upgrade chart,
        track kept, new track reachable, reservations, supply); refused with the reason otherwise."""
        board = self._need_board()
        lay = track.check_lay(board, corp.id, str(hex_id), str(tile), rotation, self._phase_colors())
        owner_private = self._tile_private(lay.tile)
        if owner_private is not None:
            item = self.entity("private", owner_private)
            if self.owner[item.id] != corp or self.closed[item.id]:
                raise IllegalAction(f"tile {lay.tile} may be laid only by a company that owns {item}")
        return lay

    def b_lay_cost(self, lay: "track.Lay") -> int:
        """lay_cost(lay): the terrain and border costs of a lay, in currency units."""
        return lay.cost

    def b_lay(self, corp: Entity, lay: "track.Lay", tile_id: str) -> None:
        """lay(C, lay, tile): put the tile on the map; a tile tied to a private closes it."""
        board = self._need_board()
        name, _, copy = str(tile_id).rpartition("-")
        copy_index = int(copy) if copy.isdigit() and name == lay.tile else None
        self._board_change(lambda: board.lay(lay.hex, lay.tile, lay.rotation, copy_index, lay.mapping or None))
        self.j.set(self.g, "lays", self.g.get("lays", 0) + 1)
        owner_private = self._tile_private(lay.tile)
        if owner_private is not None:
            self.j.set(self.closed, owner_private, True)
        if self.g["lays"] >= int(self.param("tile_lays")):
            self._next_step()

    def b_check_token(self, corp: Entity, city: str) -> "track.TokenSpot":
        """check_token(C, city): the station spot if C may place a token there now."""
        return track.check_token(self._need_board(), corp.id, str(city))

    def b_tokens_left(self, corp: Entity) -> int:
        """tokens_left(C): station tokens C has not placed."""
        costs = self._value(corp.get("tokens"), f"corporation {corp} tokens")
        return len(costs) - self.corp[corp.id]["tokens"]

    def b_next_token_cost(self, corp: Entity) -> int:
        """next_token_cost(C): the price of C's next station token."""
        costs = self._value(corp.get("tokens"), f"corporation {corp} tokens")
        placed = self.corp[corp.id]["tokens"]
        return costs[placed] if placed < len(costs) else 0

    def b_place_station(self, corp: Entity, spot: "track.TokenSpot") -> None:
        """place_station(C, spot): put one of C's tokens in the spot."""
        board = self._need_board()
        self._board_change(lambda: board.place_token(corp.id, (spot.hex, spot.node), spot.slot))
        self.j.set(self.corp[corp.id], "tokens", self.corp[corp.id]["tokens"] + 1)

    def b_place_home_token(self, corp: Entity) -> None:
        """place_home_token(C): C's first token, free, in its home station (where the title has a map)."""
        if self.board is None:
            return
        home = str(self._value(corp.get("home"), f"corporation {corp} home"))
        node = 0
        for company, index in self.board.hexes[home].homes:
            if company == corp.id:
                node = index
        spot = track.check_token(self.board, corp.id, (home, node), home=True)
        self.b_place_station(corp, spot)

    def _remove_stations(self, corp: Entity) -> None:
        if self.board is None:
            return
        board = self.board
        for ref in list(board.tokens_of(corp.id)):
            self._board_change(lambda ref=ref: board.remove_token(corp.id, ref))

    def _train_dicts(self, corp: Entity) -> dict[str, dict]:
        out = {}
        for t in self.b_trains(corp):
            comp = dict(self.DATA.component("train", t.name))
            comp["id"] = t.id
            out[t.id] = comp
        return out

    def b_can_sell(self, player: Entity) -> bool:
        """can_sell(P): whether P may sell any certificate now (the round's rules permitting)."""
        if self.g["round"] != "stock" or self.g["stock_rounds"] <= 1:
            return False
        return any(self.b_sellable(player, c) for c in self.corporations if self.b_started(c))

    def b_must_buy_train(self, corp: Entity) -> bool:
        """must_buy_train(C): C is at its train purchase without a train, and the bank has one."""
        return (
            isinstance(corp, Entity) and corp.kind == "corporation"
            and self.b_in_step(corp, "buy_train") and not self.b_trains(corp)
            and bool(self._available_train_ids())
        )

    def b_cheapest_train_price(self) -> int:
        """cheapest_train_price(): the lowest price of a train the bank sells now."""
        prices = [self.trains[t].price for t in self._available_train_ids()]
        return min(prices) if prices else 0

    def b_forced_shortfall(self, corp: Entity) -> int:
        """forced_shortfall(C): what C lacks for the cheapest train it must buy, after outside help."""
        if not self.b_must_buy_train(corp):
            return 0
        price = self.b_cheapest_train_price()
        help_ = 0
        self.j.begin()
        try:
            before = self.cash[corp]
            self.call("forced_purchase_help", corp, price)
            help_ = self.cash[corp] - before
        finally:
            self.j.rollback()
        return max(0, price - self.cash[corp] - help_)

    def b_treasury_certificates(self, corp: Entity) -> list[Certificate]:
        """treasury_certificates(C): C's own certificates on its mat."""
        return [c for c in self.certs_of[corp.id] if self.owner[c.id] == corp and not c.president]

    def b_pool_certificates(self, corp: Entity) -> list[Certificate]:
        """pool_certificates(C): C's certificates in the bank pool."""
        return [c for c in self.certs_of[corp.id] if self.owner[c.id] is POOL]

    def b_closed(self, item: Entity) -> bool:
        """closed(X): whether private X is closed."""
        return self.closed.get(item.id, False)

    def b_reset_corporation(self, corp: Entity) -> None:
        """reset_corporation(C): every certificate back on C's mat, price and par gone, not floated: C may start again."""
        for cert in self.certs_of[corp.id]:
            if self.owner[cert.id] != corp:
                self.j.set(self.owner, cert.id, corp)
        cell = self.corp[corp.id]["cell"]
        if cell is not None:
            self.j.remove(self.stacks[cell], corp.id)
        self._remove_stations(corp)
        for key, value in (("par", None), ("cell", None), ("floated", False), ("tokens", 0), ("revenue", 0)):
            self.j.set(self.corp[corp.id], key, value)

    def b_end_turn(self, corp: Entity) -> None:
        """end_turn(C): C's operating turn ends now."""
        self._end_corporation_turn(corp)

    def b_bank_funded_shares(self, corp: Entity) -> int:
        """bank_funded_shares(C): shares whose price the bank pays C when it is started: where the title
        says so (`bank_funds_on_par`), the certificates a private granted that players hold unpaid."""
        if not corp.get("bank_funds_on_par"):
            return 0
        granted = self.g.get("granted", frozenset())
        return sum(
            c.shares for c in self.certs_of[corp.id]
            if c.id in granted and self.owner[c.id].kind == "player"
        )

    def b_bonds_of(self, corp: Entity) -> list[Entity]:
        """bonds_of(C): the bonds of corporation C."""
        return [b for b in self.bonds if b.get("corporation") == corp.id]

    def b_done_this_turn(self, mark: str) -> bool:
        """done_this_turn(m): whether m was marked in this turn."""
        return mark in self.g.get("turn_marks", frozenset())

    def b_mark_done_this_turn(self, mark: str) -> None:
        """mark_done_this_turn(m): m may not be done again this turn."""
        self.j.set(self.g, "turn_marks", self.g.get("turn_marks", frozenset()) | {mark})

    # -- effects the DSL calls with `do`
    def b_set_par(self, corp: Entity, price: int) -> None:
        cell = self.market.par_cell(price)
        if cell is None:
            raise IllegalAction(f"{self.money(price)} is not a par price")
        self.j.set(self.corp[corp.id], "par", price)
        self._place_token(corp, cell)

    def b_bought(self, player: Entity, corp: Entity) -> None:
        self.j.set(self.g, "bought", True)
        self.j.set(self.g, "acted", True)
        self._check_float(corp)
        self._check_president(corp)

    def b_note_sold(self, player: Entity, corp: Entity) -> None:
        self.j.set(self.g, "sold", True)
        self.j.set(self.g, "acted", True)
        self.j.set(self.g, "sold_this_round", self.g["sold_this_round"] | {(player.id, corp.id)})

    def b_price_drop_on_sale(self, corp: Entity, certificates: int) -> None:
        rule = self.param("sell_price_drop")
        if rule == "once_per_round":
            if corp.id in self.g["sold_corps"]:
                return
            self.j.set(self.g, "sold_corps", self.g["sold_corps"] | {corp.id})
            self.b_market_move(corp, "down")
        elif rule == "per_share":
            for _ in range(certificates):
                self.b_market_move(corp, "down")
        elif rule == "per_sale":
            self.b_market_move(corp, "down")
        elif rule != "none":
            raise RuleGap("sell_price_drop", f"unknown rule {rule!r}")

    def b_market_move(self, corp: Entity, direction: str) -> None:
        cell = self.corp[corp.id]["cell"]
        if cell is None:
            return
        new = self.market.move(cell, direction)
        if new != cell:
            self._place_token(corp, new)

    def b_check_president(self, corp: Entity) -> None:
        self._check_president(corp)

    def b_set_revenue(self, corp: Entity, amount: int) -> None:
        """set_revenue(C, x): C's trains earned x this turn."""
        self.j.set(self.corp[corp.id], "revenue", amount)
        self.j.set(self.g, "total_revenue", self.g["total_revenue"] + amount)

    def b_route_revenue(self, corp: Entity, routes: list[dict]) -> int:
        """Revenue of declared routes: each {"train", "stops": [values]}.

        Until a title has a map, a route is declared as its revenue stops;
        each train runs once, visits at most its distance, and its
        `multiplier` (2 for a doubled train) applies.
        """
        if self.board is not None:
            owned = self._train_dicts(corp)
            for route in routes:
                if route.get("train") not in owned:
                    raise IllegalAction(f"{corp} does not own train {route.get('train')}")
            return track.route_revenue(self.board, corp.id, routes, self.g["phase"], trains=owned).revenue
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

    def _distance(self, train: Train) -> int:
        d = train.distance
        if isinstance(d, int):
            return d
        if isinstance(d, list):
            return sum(int(part.get("visit", part.get("pay", 0))) for part in d)
        raise RuleGap(f"train {train.name} distance", "not a number of stops")

    def b_pay_per_share(self, corp: Entity, holder: Entity, amount: int) -> int:
        """What `holder`'s shares of `corp` earn from a dividend of `amount`
        to all shareholders (10% of it per share)."""
        return amount * self.b_percent(holder, corp) // 100

    def b_dividend_payee(self, holder: Entity, corp: Entity) -> Entity:
        """Who receives a holding's dividend: players themselves; shares in
        the pool and in the treasury as the title says."""
        if holder is POOL:
            rule = self.param("pool_shares_pay")
            return {"bank": BANK, "company": corp}.get(rule, BANK)
        if holder == corp:
            rule = self.param("treasury_shares_pay")
            return {"bank": BANK, "company": corp}.get(rule, BANK)
        return holder

    def b_end_step(self, corp: Entity) -> None:
        self._next_step()

    def b_train_bought(self, corp: Entity, train: Train, from_bank: bool) -> None:
        if from_bank:
            self.j.set(self.g, "bank_buys", self.g["bank_buys"] + 1)
            first = train.name not in self.g["first_bought"]
            if first:
                self.j.set(self.g, "first_bought", self.g["first_bought"] | {train.name})
                self._on_first_train(train)

    def b_half(self, revenue: int) -> int:
        """The shareholders' part of a half payout, by the title's rounding."""
        rule = self.param("half_pay_rounding")
        if rule == "shareholders_get_larger_ten":
            # half rounded up to a multiple of 10, never more than the revenue
            return min(revenue, -(-revenue // 20) * 10)
        if rule == "down_to_ten":
            return revenue // 20 * 10
        raise RuleGap("half_pay_rounding", f"unknown rule {rule!r}")

    def b_close_private(self, item: Entity) -> None:
        self.j.set(self.closed, item.id, True)

    # ------------------------------------------------------------ DSL support

    def call(self, name: str, *args, **kwargs):
        """Call a DSL routine or a builtin by name."""
        routine = self.ROUTINES.get(name)
        if routine is not None:
            return routine(self, *args, **kwargs)
        builtin = getattr(self, f"b_{name}", None)
        if builtin is None:
            raise RuleGap(name, "no such routine or builtin in the runtime")
        return builtin(*args, **kwargs)

    def name(self, name: str):
        """A bare name: a title property, a component, or a builtin value."""
        if name == "bank":
            return BANK
        if name == "pool":
            return POOL
        if name == "depot":
            return DEPOT
        if name == "players":
            return list(self.players)
        if name == "corporations":
            return list(self.corporations)
        if name == "privates":
            return list(self.privates)
        if name in self.DATA.properties:
            return self.param(name)
        for kind in ("corporation", "private", "bond"):
            found = self.by_id.get((kind, name))
            if found is not None:
                return found
        return name  # an enum value or zone name stands for itself

    def attr(self, obj: Any, name: str):
        """`obj.name` in the DSL: an entity's state, then its static data."""
        if isinstance(obj, Entity):
            if obj.kind == "corporation" and name in self.corp[obj.id]:
                return self.corp[obj.id][name]
            value = obj.data.get(name)
            if value is None:
                raise RuleGap(f"{obj.kind} {obj.id}.{name}", "the rulespec does not give it")
            value = self._value(value, f"{obj.kind} {obj.id}.{name}")
            if isinstance(value, str):
                for kind in ("corporation", "private", "player"):
                    found = self.by_id.get((kind, value))
                    if found is not None:
                        return found
            return value
        if isinstance(obj, Certificate):
            return {"percent": obj.percent, "shares": obj.shares, "president": obj.president,
                    "corporation": self.entity("corporation", obj.corporation)}[name]
        if isinstance(obj, Train):
            if name == "price":
                return obj.price
            if name == "name":
                return obj.name
            return self.DATA.component("train", obj.name).get(name)
        if isinstance(obj, dict):
            return obj[name]
        raise RuleGap(f"{obj}.{name}", "no such attribute")

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Entity) and obj.kind == "corporation":
            self.j.set(self.corp[obj.id], name, value)
            return
        raise IllegalAction(f"cannot set {obj}.{name}")

    def emit(self, event: str, *args) -> None:
        for when, body in self.TRIGGERS.get(event, []):
            if when is None or when(self, *args):
                body(self, *args)

    # ------------------------------------------------------------ markets, floats, presidents

    def _place_token(self, corp: Entity, cell) -> None:
        old = self.corp[corp.id]["cell"]
        if old is not None:
            stack = self.stacks[old]
            self.j.remove(stack, corp.id)
        if cell not in self.stacks:
            self.j.set(self.stacks, cell, [])
        self.j.append(self.stacks[cell], corp.id)  # a new arrival goes under the others
        self.j.set(self.corp[corp.id], "cell", cell)
        if old is not None and self.market.zones_of(old) - self.market.zones_of(cell):
            self._sanction_excess(corp)
        ends = self.param("game_end")
        if "share_price" in ends and self.g["end_reason"] is None:
            ceiling = self.DATA.properties.get("end_share_price")
            reached = "end_game" in self.market.zones_of(cell) or (
                ceiling is not None and self.market.price(cell) >= self._value(ceiling, "end_share_price"))
            if reached:
                self.j.set(self.g, "end_reason", "share_price")

    def _check_float(self, corp: Entity) -> None:
        state = self.corp[corp.id]
        if state["floated"]:
            return
        needed = corp.get("float") or self.DATA.properties.get("float")
        needed = self._value(needed, f"corporation {corp} float")
        held = sum(self.b_percent(p, corp) for p in self.players)
        if held >= needed:
            self.j.set(state, "floated", True)

    def _check_president(self, corp: Entity) -> None:
        """A player holding more than the president takes the presidency:
        he trades shares worth the president's certificate for it."""
        pres_cert = self.certs_of[corp.id][0]
        president = self.owner[pres_cert.id]
        if president.kind != "player":
            return
        held = {p: self.b_percent(p, corp) for p in self.players}
        best = held[president]
        # the next player in seating order after the president wins ties against others
        order = self._seating_from(president)
        challenger = None
        for p in order:
            if held[p] > best:
                best = held[p]
                challenger = p
        if challenger is None:
            return
        # exchange: the challenger gives ordinary certificates worth the
        # president's certificate, and receives it
        need = pres_cert.percent
        given = []
        for cert in sorted(self.certs_of[corp.id], key=lambda c: -c.index):
            if need <= 0:
                break
            if self.owner[cert.id] == challenger and not cert.president and cert.percent <= need:
                given.append(cert)
                need -= cert.percent
        if need != 0:
            return
        for cert in given:
            self.move(cert, challenger, president)
        self.move(pres_cert, president, challenger)
        self.emit("president_changed", corp, president, challenger)
        if (self.b_certificates(president) > self.param("cert_limit")
                and self._sanctioned("cert_limit", "take_over")):
            self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("cert_limit", president.id)})

    def _sanctioned(self, invariant: str, step: str) -> bool:
        """Whether the title has a `sanction INVARIANT for X` clause where X is
        the action being played or the runtime step `step` inside it
        (`take_over`, `market_move`); the verifier accepts the same names."""
        action = self.g.get("current_action") or "end_stock_round"
        return any(f"sanction {invariant}/{name}" in self.DATA.rules for name in (action, step))

    def _sanction_excess(self, corp: Entity) -> None:
        """A price leaving an exempt zone can put holders over a limit; where
        the title sanctions that (a `sanction` clause for the action now being
        played, or for `market_move`), the excess is recorded so the monitor
        allows it until settled."""
        for invariant in ("cert_limit", "holding_cap"):
            if not self._sanctioned(invariant, "market_move"):
                continue
            for player in self.players:
                over = (self.b_certificates(player) > self.param("cert_limit") if invariant == "cert_limit"
                        else self.b_percent(player, corp) > self.param("holding_cap"))
                if over:
                    self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {(invariant, player.id)})

    def _settle_sanctions(self) -> None:
        """A sanctioned excess ends once the holder is back within the limit."""
        def settled(name: str, pid: str) -> bool:
            player = self.entity("player", pid)
            if name == "cert_limit":
                return self.b_certificates(player) <= self.param("cert_limit")
            if name == "holding_cap":
                return all(self.b_percent(player, c) <= self.param("holding_cap")
                           or "unlimited_holding" in self.b_zones(c) for c in self.corporations)
            return False

        keep = frozenset((name, pid) for name, pid in self.g["sanctioned"] if not settled(name, pid))
        if keep != self.g["sanctioned"]:
            self.j.set(self.g, "sanctioned", keep)

    def _seating_from(self, player: Entity) -> list[Entity]:
        i = self.players.index(player)
        return self.players[i + 1:] + self.players[:i]

    # ------------------------------------------------------------ trains and phases

    def _phase(self) -> dict:
        for p in self.phases:
            if p["key"] == self.g["phase"]:
                return p
        raise RuleGap("phase", f"no phase {self.g['phase']!r}")

    def _phase_ors(self, phase: dict) -> int:
        return int(resolve_value(f"phase {phase['key']} operating_rounds", phase.get("operating_rounds"), players=getattr(self, "n", None)))

    def _available_train_ids(self) -> list[str]:
        """Trains the depot sells now: the next in supply order, and any
        train whose `available_after` names a train type that is sold out."""
        in_depot = [tid for tid in self.train_order if self.owner[tid] is DEPOT]
        if not in_depot:
            return []
        out = []
        sold_out = {t.name for t in self.trains.values()} - {self.trains[tid].name for tid in in_depot}
        seen_names = set()
        first = in_depot[0]
        for tid in in_depot:
            train = self.trains[tid]
            comp = self.DATA.component("train", train.name)
            after = comp.get("available_after")
            if tid == first or (after is not None and str(after) in sold_out):
                if train.name not in seen_names:
                    out.append(tid)
                    seen_names.add(train.name)
        return out

    def _on_first_train(self, train: Train) -> None:
        for phase in self.phases:
            triggers = phase.get("on_train")
            names = triggers if isinstance(triggers, list) else [triggers]
            if train.name in [str(n) for n in names if n is not None] and self._phase_index(phase["key"]) > self._phase_index(self.g["phase"]):
                self._enter_phase(phase)
                break
        for name, comp in ((c["key"], c) for c in self.DATA.components_of("train")):
            rusts = comp.get("rusts_on")
            if rusts is not None and self._rusts_on(rusts, train.name):
                for tid, t in self.trains.items():
                    if t.name == name and self.owner[tid] not in (DEPOT, SCRAP):
                        self.j.set(self.owner, tid, SCRAP)
                    elif t.name == name and self.owner[tid] is DEPOT:
                        self.j.set(self.owner, tid, SCRAP)
        self.emit("first_train", train)

    def _rusts_on(self, rusts, name: str) -> bool:
        if isinstance(rusts, list):
            return name in [str(r) for r in rusts]
        return str(rusts) == name

    def _phase_index(self, key: str) -> int:
        return [p["key"] for p in self.phases].index(key)

    def _enter_phase(self, phase: dict) -> None:
        self.j.set(self.g, "phase", phase["key"])
        for event in phase.get("events", []) or []:
            self.emit(str(event))
        self.emit("phase_start", phase["key"])
        limit = self.b_train_limit(None)
        for corp in self.corporations:
            if len(self.b_trains(corp)) > limit:
                self.b_require_decision(corp, "discard_train")

    # pending decisions: an entity out of turn must act before play goes on

    def b_require_decision(self, entity: Entity, action: str) -> None:
        """require_decision(E, a): E must take action a (e.g. discard_train) before play goes on."""
        pending = tuple(self.g.get("pending", ()))
        key = (entity.kind, entity.id, action)
        if key not in pending:
            self.j.set(self.g, "pending", pending + (key,))

    def b_pending_decision(self, entity: Entity, action: str) -> bool:
        """pending_decision(E, a): whether E owes decision a now (the first one pending)."""
        pending = self.g.get("pending", ())
        return bool(pending) and pending[0] == (entity.kind, entity.id, action)

    def b_resolve_decision(self, entity: Entity, action: str) -> None:
        """resolve_decision(E, a): E's decision a is taken."""
        pending = tuple(p for p in self.g.get("pending", ()) if p != (entity.kind, entity.id, action))
        self.j.set(self.g, "pending", pending)

    def b_close_privates(self) -> None:
        for p in self.privates:
            self.j.set(self.closed, p.id, True)

    # ------------------------------------------------------------ bank broken, game end

    def _bank_broken(self) -> None:
        self.j.set(self.g, "broken", True)
        if "bank_broken" in self.param("game_end"):
            self.j.set(self.g, "end_reason", "bank_broken")

    def _end_game(self) -> None:
        self.j.set(self.g, "finished", True)
        self.j.set(self.g, "round", "finished")

    @property
    def finished(self) -> bool:
        return self.g["finished"]

    def player_value(self, player: Entity) -> int:
        """Cash, plus shares at market price, plus each held item's end value."""
        total = self.cash[player]
        for corp in self.corporations:
            pct = self.b_percent(player, corp)
            if pct and self.corp[corp.id]["cell"] is not None:
                total += self.b_price(corp) * pct // 10
        for item in self.privates + self.bonds:
            if self.owner[item.id] == player and not self.closed.get(item.id, False):
                value = item.get("end_value", self.DATA.properties.get(f"{item.kind}_value_at_end"))
                if value is None:
                    raise RuleGap(f"{item.kind} {item.id} end_value", "its worth at the game's end is not given")
                total += self._value(value, f"{item.kind} {item.id} end_value")
        return total

    def result(self) -> dict[str, int]:
        return {p.id: self.player_value(p) for p in self.players}

    # ------------------------------------------------------------ rounds: private sale

    def _privates_for_sale(self) -> list[str]:
        order = self.DATA.properties.get("private_sale_order") or []
        return [x for x in order if self.owner[x] is BANK and not self.closed[x]]

    def _start_private_sale(self) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "stock")
        self.j.set(self.g, "stock_rounds", 1)
        self.j.set(self.g, "turn", self.g["priority"])
        self._offer_next_private()

    # 1830-style bidding for privates not yet offered (a title's option may turn it on)

    def b_free_cash(self, player: Entity) -> int:
        """free_cash(P): P's cash less the money set aside for bids."""
        locked = sum(amount for _, pid, amount in self.g.get("bids", ()) if pid == player.id)
        return self.cash[player] - locked

    def b_highest_bid(self, item: Entity) -> int:
        """highest_bid(X): the highest bid on private X, or 0."""
        if self.g.get("auction") and self.g["auction"]["company"] == item.id:
            return self.g["auction"]["high"][1]
        return max((a for x, _, a in self.g.get("bids", ()) if x == item.id), default=0)

    def b_in_auction(self) -> bool:
        """in_auction(): whether an auction among a private's bidders is under way."""
        return bool(self.g.get("auction"))

    def b_auction_company(self) -> Entity | None:
        """auction_company(): the private being auctioned."""
        auction = self.g.get("auction")
        return self.entity("private", auction["company"]) if auction else None

    def b_offered_later(self, item: Entity) -> bool:
        """offered_later(X): X waits in the sale order behind the private on sale."""
        left = self._privates_for_sale()
        return item.id in left[1:]

    def b_place_bid(self, player: Entity, item: Entity, amount: int) -> None:
        """place_bid(P, X, n): P bids n for X (replacing P's earlier bid on X); the money is set aside."""
        bids = tuple(b for b in self.g.get("bids", ()) if not (b[0] == item.id and b[1] == player.id))
        self.j.set(self.g, "bids", bids + ((item.id, player.id, amount),))
        self.j.set(self.g, "acted", True)
        self.j.set(self.g, "passes", 0)
        self._next_turn()

    def b_raise_bid(self, player: Entity, amount: int) -> None:
        """raise_bid(P, n): in the auction, P raises the high bid to n."""
        auction = dict(self.g["auction"])
        auction["high"] = (player.id, amount)
        self.j.set(self.g, "auction", auction)
        self._next_bidder()

    def _auction_pass(self, player: Entity) -> None:
        """A bidder drops out; the last one left buys at the high bid."""
        auction = dict(self.g["auction"])
        order = list(auction["bidders"])
        index = order.index(player.id)
        order.remove(player.id)
        auction["bidders"] = tuple(order)
        if len(order) == 1:
            self._auction_won(auction)
            return
        auction["turn"] = order[index % len(order)]
        self.j.set(self.g, "auction", auction)
        if auction["turn"] == auction["high"][0]:
            self._next_bidder()

    def _next_bidder(self) -> None:
        auction = dict(self.g["auction"])
        bidders = list(auction["bidders"])
        index = (bidders.index(auction["turn"]) + 1) % len(bidders)
        if bidders[index] == auction["high"][0]:
            index = (index + 1) % len(bidders)
        auction["turn"] = bidders[index]
        self.j.set(self.g, "auction", auction)

    def _auction_won(self, auction: dict) -> None:
        winner_id, amount = auction["high"]
        item = self.entity("private", auction["company"])
        self.j.set(self.g, "auction", None)
        self._sell_private(self.entity("player", winner_id), item, amount)
        if not self.g.get("auction"):
            # play resumes left of the last player who bought a private at its offered price
            self.j.set(self.g, "turn", self.g.get("last_face_buyer", self.g["turn"]))
            self._next_turn()

    def _sell_private(self, player: Entity, item: Entity, amount: int) -> None:
        """A private goes to a bidder for its bid; his other bids stay set aside."""
        bids = tuple(b for b in self.g.get("bids", ()) if b[0] != item.id)
        self.j.set(self.g, "bids", bids)
        self.transfer(amount, player, BANK)
        self.move(item, BANK, player)
        self._grant(player, item)
        self._offer_next_private()

    def _resolve_bids(self) -> bool:
        """The private now on sale has bids: one bidder buys at his bid; several
        hold an auction. Returns True when bids decided the private."""
        left = self._privates_for_sale()
        if not left:
            return False
        bids = [b for b in self.g.get("bids", ()) if b[0] == left[0]]
        if not bids:
            return False
        item = self.entity("private", left[0])
        if len(bids) == 1:
            _, pid, amount = bids[0]
            self._sell_private(self.entity("player", pid), item, amount)
            return True
        high = max(bids, key=lambda b: (b[2], -self.players.index(self.entity("player", b[1]))))
        order = [p.id for p in self._seating_from(self.entity("player", high[1])) if p.id in {b[1] for b in bids}]
        order.append(high[1])
        remaining = tuple(b for b in self.g.get("bids", ()) if b[0] != item.id)
        self.j.set(self.g, "bids", remaining)
        self.j.set(self.g, "auction", {"company": item.id, "bidders": tuple(order), "turn": order[0],
                                       "high": (high[1], high[2])})
        return True

    def _offer_next_private(self) -> None:
        if self._resolve_bids():
            return
        left = self._privates_for_sale()
        if left:
            item = self.entity("private", left[0])
            self.j.set(self.g, "sale_price", self._value(item.get("cost"), f"private {item} cost"))
        else:
            self.j.set(self.g, "sale_price", None)
        self.j.set(self.g, "passes", 0)

    def b_private_on_sale(self) -> Entity | None:
        left = self._privates_for_sale()
        return self.entity("private", left[0]) if left else None

    def b_sale_price(self) -> int:
        return self.g["sale_price"]

    def b_private_sold(self, player: Entity, item: Entity) -> None:
        """private_sold(P, X): after a sale at the offered price, X's grants go to P and the next private is offered."""
        self._grant(player, item)
        self.j.set(self.g, "last_face_buyer", self.players.index(player))
        self._offer_next_private()
        if self.g.get("auction"):
            return
        self.j.set(self.g, "turn", self.g["last_face_buyer"])
        self._next_turn()

    def _grant(self, player: Entity, item: Entity) -> None:
        grant = item.get("grants")
        for child in item.get("children", []) or []:
            grant = grant or child.get("grants")
        if isinstance(grant, dict):
            corp = self.entity("corporation", grant["corporation"])
            want = int(grant["percent"])
            for cert in reversed(self.certs_of[corp.id]):
                if not cert.president and cert.percent == want and self.owner[cert.id] == corp:
                    self.move(cert, corp, player)
                    self.j.set(self.g, "granted", self.g.get("granted", frozenset()) | {cert.id})
                    break

    # ------------------------------------------------------------ rounds: stock

    def _start_stock_round(self, first_player: int) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "stock")
        self.j.set(self.g, "stock_rounds", self.g["stock_rounds"] + 1)
        self.j.set(self.g, "turn", first_player)
        self.j.set(self.g, "passes", 0)
        self.j.set(self.g, "sold_this_round", frozenset())
        self.j.set(self.g, "sold_corps", frozenset())
        self._new_turn()

    def _new_turn(self) -> None:
        self.j.set(self.g, "acted", False)
        self.j.set(self.g, "bought", False)
        self.j.set(self.g, "sold", False)

    def current_entity(self) -> Entity | None:
        if self.g["finished"]:
            return None
        pending = self.g.get("pending")
        if pending:
            kind, key, _ = pending[0]
            return self.entity(kind, key)
        if self.g["round"] == "stock":
            auction = self.g.get("auction")
            if auction:
                return self.entity("player", auction["turn"])
            return self.players[self.g["turn"]]
        if self.g["round"] == "operating" and self.g["operating"] is not None:
            return self.entity("corporation", self.g["operating"])
        return None

    def b_pass_turn(self, entity: Entity) -> None:
        """`pass`: in a stock round, end the turn (a turn with no action is a
        pass; all players passing in a row ends the round); in an operating
        round, skip the current step."""
        if self.g["round"] == "stock":
            if self.g.get("auction"):
                self._auction_pass(entity)
                return
            if self._privates_for_sale():
                self._pass_on_private()
                return
            if self.g["acted"]:
                self.j.set(self.g, "passes", 0)
            else:
                self.j.set(self.g, "passes", self.g["passes"] + 1)
            if self.g["passes"] >= self.n:
                last = self.g["turn"]
                self.j.set(self.g, "priority", (last + 1) % self.n)
                self._end_stock_round()
                return
            self._next_turn()
        elif self.g["round"] == "operating":
            self._next_step()

    def _pass_on_private(self) -> None:
        self.j.set(self.g, "passes", self.g["passes"] + 1)
        if self.g["passes"] < self.n:
            self._next_turn()
            return
        item = self.b_private_on_sale()
        effect = item.get("on_all_pass")
        self.j.set(self.g, "passes", 0)
        if effect == "discount":
            step = self._value(item.get("discount"), f"private {item} discount")
            self.j.set(self.g, "sale_price", max(0, self.g["sale_price"] - step))
        elif effect == "private_income":
            self.emit("operating_round_start")
        else:
            raise RuleGap(f"private {item} on_all_pass", "what happens when all pass on it is not given")
        self._next_turn()

    def _next_turn(self) -> None:
        self.j.set(self.g, "turn", (self.g["turn"] + 1) % self.n)
        self._new_turn()

    def _end_stock_round(self) -> None:
        self.j.set(self.g, "current_action", "end_stock_round")
        if self.param("sold_out_rise"):
            for corp in self.corporations:
                if self.corp[corp.id]["cell"] is None:
                    continue
                held = sum(self.b_percent(p, corp) for p in self.players)
                if held == 100:
                    self.b_market_move(corp, "up")
        if self.g["end_reason"] is not None:
            self._end_game()
            return
        self.j.set(self.g, "ors_in_set", self._phase_ors(self._phase()))
        self.j.set(self.g, "set", self.g["set"] + 1)
        self.j.set(self.g, "or", 0)
        self._start_operating_round()

    # ------------------------------------------------------------ rounds: operating

    def _start_operating_round(self) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "operating")
        self.j.set(self.g, "or", self.g["or"] + 1)
        self.emit("operating_round_start")
        floated = [c for c in self.corporations if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"]]
        order = sorted(floated, key=self._operating_key)
        self.j.set(self.g, "order", tuple(c.id for c in order))
        self.j.set(self.g, "operating", None)
        self._next_corporation()

    def _operating_key(self, corp: Entity):
        """Highest price first; ties: farther right, then higher in the stack."""
        cell = self.corp[corp.id]["cell"]
        return (-self.market.price(cell), -cell[1], cell[0], self.stacks[cell].index(corp.id))

    def _next_corporation(self) -> None:
        order = list(self.g["order"])
        current = self.g["operating"]
        index = order.index(current) + 1 if current in order else 0
        if index >= len(order):
            self._end_operating_round()
            return
        corp = order[index]
        self.j.set(self.g, "operating", corp)
        self.j.set(self.g, "bank_buys", 0)
        self.j.set(self.g, "turn_marks", frozenset())
        self.j.set(self.g, "lays", 0)
        self.j.set(self.corp[corp], "revenue", 0)
        self.j.set(self.g, "step", None)
        self._next_step()

    def _steps(self) -> list[str]:
        steps = list(self.param("operating_steps"))
        if self.board is None:
            steps = [s for s in steps if s not in MAP_STEPS]
        return steps

    def _next_step(self) -> None:
        steps = self._steps()
        current = self.g["step"]
        index = steps.index(current) + 1 if current in steps else 0
        corp = self.entity("corporation", self.g["operating"])
        while index < len(steps):
            step = steps[index]
            self.j.set(self.g, "step", step)
            if step == "run_routes" and not self.b_trains(corp):
                index += 1
                continue
            if step == "dividend" and self.corp[corp.id]["revenue"] == 0:
                # no revenue: the dividend step withholds nothing, as the rules move the price
                self.ROUTINES["action:dividend"](self, corp, "withhold")
                return
            return
        self._end_corporation_turn(corp)

    def _end_corporation_turn(self, corp: Entity) -> None:
        self.j.set(self.corp[corp.id], "operated", True)
        self.j.set(self.g, "step", None)
        self._next_corporation()

    def _end_operating_round(self) -> None:
        self.j.set(self.g, "operating", None)
        if self.g["end_reason"] is not None and self.param("bank_broken_finishes") == "round":
            self._end_game()
            return
        if self.g["or"] < self.g["ors_in_set"]:
            self._start_operating_round()
            return
        if self.g["end_reason"] is not None:
            self._end_game()
            return
        self._start_stock_round(self.g["priority"])

    # ------------------------------------------------------------ the contract

    def process(self, action: Action) -> None:
        """Apply one action (18xx.games vocabulary). Raises IllegalAction,
        naming the rule; the state is then exactly as it was."""
        if not isinstance(action, dict) or "type" not in action:
            raise IllegalAction("an action is a dict with a 'type'")
        self.j.begin()
        try:
            self._dispatch(action)
            self._settle_sanctions()
        except IllegalAction:
            self.j.rollback()
            raise
        except BaseException:
            self.j.rollback()
            raise
        self.j.commit()
        self.actions.append(dict(action))

    def _dispatch(self, action: Action) -> None:
        if self.g["finished"]:
            raise IllegalAction("the game is over")
        kind = self.action_name(action)
        pending = self.g.get("pending")
        if pending and kind != pending[0][2]:
            raise IllegalAction(f"{pending[0][1]} must first {pending[0][2].replace('_', ' ')}")
        routine = self.ROUTINES.get(f"action:{kind}")
        if routine is None:
            raise IllegalAction(f"no action {action['type']!r} in this title")
        self.j.set(self.g, "current_action", kind)
        rule = self.DATA.rules.get(f"cite action {kind}") or self.DATA.rules.get(f"action {kind}")
        try:
            args = self.bind(kind, action)
        except IllegalAction as exc:
            exc.rule = exc.rule or rule
            raise
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise IllegalAction(f"malformed {action['type']!r} action: missing or bad {exc}", rule=rule) from None
        acting = self.current_entity()
        if args and args[0] != acting:
            turn_rule = self.DATA.rules.get("cite action pass") or rule
            raise IllegalAction(f"it is {acting}'s turn, not {args[0]}'s", rule=turn_rule)
        try:
            routine(self, *args)
        except IllegalAction as exc:
            if exc.rule is None:
                exc.rule = rule
            raise

    def action_name(self, action: Action) -> str:
        """The DSL action an action dict names: `<entity_type>_<type>` when
        the title has one (a corporation's `sell_shares` is the DSL's
        `corporation_sell_shares`), else `<type>`."""
        kind = str(action["type"])
        special = f"{action.get('entity_type')}_{kind}"
        return special if special in self.ACTION_PARAMS else kind

    def bind(self, kind: str, action: Action) -> list[Any]:
        """The DSL action's arguments from an action dict: the first
        parameter is `entity`; the others by name, with the derived fields
        of the vocabulary (a share list gives its corporation and source)."""
        params = self.ACTION_PARAMS[kind]
        args = []
        for i, (name, types) in enumerate(params):
            if i == 0:
                args.append(self.find(action["entity"]))
                continue
            args.append(self._bind_param(kind, name, types, action))
        return args

    def _bind_param(self, kind: str, name: str, types: tuple[str, ...], action: Action):
        shares = action.get("shares")
        if name == "corporation" and name not in action and shares:
            return self.entity("corporation", self.certificates[shares[0]].corporation)
        if name == "source" and shares:
            holder = self.owner[shares[0]]
            return "pool" if holder is POOL else ("treasury" if holder.kind == "corporation" else "player")
        if name == "count" and shares is not None:
            return len(shares)
        if name == "price" and "share_price" in action and "price" not in action:
            return int(str(action["share_price"]).split(",")[0])
        value = action[name]
        kind_type = types[0]
        if kind_type == "list[certificate]":
            return [self.certificates[cid] for cid in value]
        if kind_type in ("corporation", "private", "bond", "player"):
            return self.entity(kind_type, value)
        if kind_type == "company":
            return self.find(value)
        if kind_type == "train":
            if value not in self.trains:
                raise IllegalAction(f"there is no train {value!r}")
            return self.trains[value]
        return value

    def legal_actions(self) -> list[Action]:
        """Every legal action now: candidates from the vocabulary, each
        tried in a transaction that is rolled back."""
        if self.g["finished"]:
            return []
        out = []
        for candidate in self._candidates():
            if self.is_legal(candidate):
                out.append(candidate)
        return out

    def is_legal(self, action: Action) -> bool:
        self.j.begin()
        try:
            self._dispatch(action)
        except (IllegalAction, RuleGap):
            return False
        finally:
            self.j.rollback()
        return True

    def _candidates(self) -> list[Action]:
        """Candidate actions for the acting entity, from each DSL action's
        vocabulary type (generators below); the DSL's guards decide."""
        entity = self.current_entity()
        if entity is None:
            return []
        who = {"entity": entity.id, "entity_type": entity.kind}
        out: list[Action] = []
        pending = self.g.get("pending")
        for name, params in self.ACTION_PARAMS.items():
            if pending and name != pending[0][2]:
                continue
            vtype, etype = name, None
            for kind in ("player", "corporation"):
                if name.startswith(kind + "_") and name[len(kind) + 1:] in VOCABULARY:
                    vtype, etype = name[len(kind) + 1:], kind
            if etype is not None and etype != entity.kind:
                continue
            if etype is None and f"{entity.kind}_{name}" in self.ACTION_PARAMS:
                continue  # the entity-specific action answers for this type
            generator = getattr(self, f"_cand_{vtype}", None)
            if generator is not None:
                out.extend(generator(entity, who))
            else:
                out.extend(self._title_action_candidates(vtype, params, who))
        return out

    def _cand_pass(self, entity, who):
        return [{"type": "pass", **who}]

    def _cand_buy_company(self, entity, who):
        out = []
        if self.g["round"] == "stock":
            item = self.b_private_on_sale()
            if item is not None:
                out.append({"type": "buy_company", **who, "company": item.id, "price": self.g["sale_price"]})
            return out
        for item in self.privates:
            if self.closed[item.id] or self.owner[item.id] in (BANK, entity):
                continue
            prices = {item.get("min_price"), item.get("cost"), item.get("max_price")}
            for price in sorted(p for p in prices if isinstance(p, int)):
                out.append({"type": "buy_company", **who, "company": item.id, "price": price})
        return out

    def _cand_bid(self, entity, who):
        out = []
        auction = self.g.get("auction")
        step = int(self.DATA.properties.get("min_bid_raise", 5))
        if auction:
            high = auction["high"][1]
            for amount in (high + step, high + 2 * step):
                out.append({"type": "bid", **who, "company": auction["company"], "price": amount})
            return out
        for pid in self._privates_for_sale()[1:]:
            item = self.entity("private", pid)
            floor = max(int(item.get("cost", 0)), self.b_highest_bid(item)) + step
            out.append({"type": "bid", **who, "company": pid, "price": floor})
        return out

    def _cand_par(self, entity, who):
        out = []
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                for price in self.b_par_prices(corp):
                    cell = self.market.par_cell(price)
                    if cell is not None:
                        out.append({"type": "par", **who, "corporation": corp.id,
                                    "share_price": f"{price},{cell[0]},{cell[1]}"})
        return out

    def _cand_buy_shares(self, entity, who):
        out = []
        sources = (POOL,) if entity.kind == "corporation" else None
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                continue
            if entity.kind == "corporation" and corp != entity:
                continue
            holders = sources or (corp, POOL)
            for holder in holders:
                certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == holder and not c.president]
                limit = len(certs) if entity.kind == "corporation" else min(1, len(certs))
                for k in range(1, limit + 1):
                    chosen = certs[:k]
                    out.append({"type": "buy_shares", **who, "shares": [c.id for c in chosen],
                                "percent": sum(c.percent for c in chosen)})
        return out

    def _cand_sell_shares(self, entity, who):
        out = []
        for corp in self.corporations:
            if entity.kind == "corporation":
                if corp != entity:
                    continue
                certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == corp and not c.president]
            else:
                certs = self.b_sellable(entity, corp)
            for k in range(1, len(certs) + 1):
                chosen = certs[:k]
                out.append({"type": "sell_shares", **who, "shares": [c.id for c in chosen],
                            "percent": sum(c.percent for c in chosen)})
        return out

    def _cand_run_routes(self, entity, who):
        if self.g["step"] != "run_routes":
            return []
        return self._route_candidates(entity, who)

    def _cand_dividend(self, entity, who):
        if self.g["step"] != "dividend":
            return []
        return [{"type": "dividend", **who, "kind": kind} for kind in self.param("dividend_kinds")]

    def _cand_buy_train(self, entity, who):
        if self.g["step"] != "buy_train":
            return []
        out = []
        for tid in self._available_train_ids():
            out.append({"type": "buy_train", **who, "train": tid, "price": self.trains[tid].price})
        for t in self.b_trains(POOL):
            out.append({"type": "buy_train", **who, "train": t.id, "price": t.price})
        for other in self.corporations:
            if other == entity:
                continue
            for t in self.b_trains(other):
                out.append({"type": "buy_train", **who, "train": t.id, "price": 1})
                out.append({"type": "buy_train", **who, "train": t.id, "price": t.price})
        return out

    def _cand_contribute(self, entity, who):
        out = []
        if entity.kind != "corporation":
            return out
        need = self.b_forced_shortfall(entity)
        for player in self.players:
            amount = min(need, self.cash[player])
            if amount > 0:
                out.append({"type": "contribute", **who, "player": player.id, "amount": amount})
        return out

    def _cand_discard_train(self, entity, who):
        return [{"type": "discard_train", **who, "train": t.id} for t in self.b_trains(entity)]

    def _cand_bankrupt(self, entity, who):
        return [{"type": "bankrupt", **who}]

    def _route_candidates(self, corp: Entity, who: dict) -> list[Action]:
        """The best routes the search finds (the Director must try to score
        the most, 1800 §11.4); without a map, routes are declared stop by stop
        and no revenue is invented, so the only candidate runs no train."""
        if self.board is None:
            return [{"type": "run_routes", **who, "routes": []}]
        trains = list(self._train_dicts(corp).values())
        best = track.best_routes(self.board, corp.id, trains, self.g["phase"], time_limit=2.0)
        return [{"type": "run_routes", **who, "routes": [run.as_dict() for run in best.runs]}]

    def _cand_lay_tile(self, entity, who):
        if self.g["step"] != "lay_tile" or self.board is None:
            return []
        out = []
        for lay in track.legal_lays(self.board, entity.id, self._phase_colors(), cash=self.cash[entity]):
            used = self.board.in_use.get(lay.tile, set())
            copy = next(i for i in range(len(used) + 1) if i not in used)
            out.append(lay.action(entity.id, copy))
        return out

    def _cand_place_token(self, entity, who):
        if self.g["step"] != "place_token" or self.board is None:
            return []
        return [spot.action(entity.id) for spot in track.legal_tokens(self.board, entity.id)]

    def _title_action_candidates(self, kind: str, params, who: dict) -> list[Action]:
        """Candidates for a title's own action: each later parameter ranges
        over the entities of its type (money parameters over the item's
        declared prices)."""
        combos: list[dict] = [{}]
        for name, types in params[1:]:
            values: list[Any] = []
            t = types[0]
            if t == "bond":
                values = [b.id for b in self.bonds]
            elif t == "private":
                values = [p.id for p in self.privates]
            elif t == "corporation":
                values = [c.id for c in self.corporations]
            elif t == "player":
                values = [p.id for p in self.players]
            elif t == "money":
                values = sorted({0, *[int(v) for v in self._money_candidates()]})
            else:
                return []
            combos = [{**c, name: v} for c in combos for v in values]
        return [{"type": kind, **who, **c} for c in combos]

    def _money_candidates(self) -> list[int]:
        values = []
        for item in self.bonds + self.privates:
            for key in ("cost", "income", "min_price", "max_price"):
                v = item.get(key)
                if isinstance(v, int):
                    values.append(v)
        return values

    # ------------------------------------------------------------ state and logs

    def state(self) -> dict:
        """The state summary of ARCHITECTURE.md (JSON-serialisable)."""
        players = []
        for p in self.players:
            shares = {c.id: self.b_percent(p, c) for c in self.corporations if self.b_percent(p, c)}
            players.append({
                "name": p.id,
                "cash": self.cash[p],
                "shares": shares,
                "certificates": self.b_certificates(p),
                "privates": [x.id for x in self.privates if self.owner[x.id] == p and not self.closed[x.id]],
                "bonds": [b.id for b in self.bonds if self.owner[b.id] == p],
                "value": self.player_value(p),
            })
        corps = []
        for c in self.corporations:
            st = self.corp[c.id]
            cell = st["cell"]
            corps.append({
                "sym": c.id,
                "share_price": self.market.price(cell) if cell is not None else None,
                "market_cell": list(cell) if cell is not None else None,
                "treasury": self.cash[c],
                "trains": [t.id for t in self.b_trains(c)],
                "tokens_placed": st["tokens"],
                "floated": st["floated"],
                "president": (self.b_president(c).id if self.b_president(c) else None),
                "ipo_percent": self.b_percent(c, c),
                "pool_percent": self.b_percent(POOL, c),
                "shares": {o.id: self.b_percent(c, o) for o in self.corporations if o != c and self.b_percent(c, o)},
                "closed": st["closed"],
            })
        phase_round = self.g["round"]
        number = self.g["stock_rounds"] if phase_round == "stock" else (
            f"{self.g['set']}.{self.g['or']}" if phase_round == "operating" else None)
        return {
            "title": self.DATA.title,
            "variant": self.DATA.variant,
            "round": {"type": phase_round, "number": number},
            "phase": self.g["phase"],
            "finished": self.g["finished"],
            "bank": {"cash": None if self.unlimited_bank else self.cash[BANK],
                     **({"paid": self.flow["paid"], "received": self.flow["received"]} if self.unlimited_bank else {})},
            "players": players,
            "corporations": corps,
            "privates": [{"sym": x.id, "owner": (self.owner[x.id].id if self.owner[x.id] is not BANK else None),
                          "closed": self.closed[x.id]} for x in self.privates],
            "bonds": {b.id: self.owner[b.id].id for b in self.bonds},
            "trains_available": [tid for tid in self.train_order if self.owner[tid] is DEPOT],
            "acting": (self.current_entity().id if self.current_entity() else None),
            "end_reason": self.g["end_reason"],
            "result": self.result() if self.g["finished"] else None,
        }

    def record(self) -> dict:
        """One game's record for `rulec play --json` and `rulec replay --json`."""
        return {
            "seed": self.seed,
            "finished": self.finished,
            "end_reason": self.g["end_reason"],
            "actions": len(self.actions),
            "rounds": self.g["rounds_played"],
            "revenue": self.g["total_revenue"],
            "result": self.result() if self.finished else None,
        }

    def to_log(self) -> dict:
        return {
            "title": self.DATA.title,
            "variant": self.DATA.variant,
            "players": [{"id": p.id, "name": p.id} for p in self.players],
            "settings": {"seed": self.seed, "optional_rules": list(self.options)},
            "actions": [dict(a, id=i + 1) for i, a in enumerate(self.actions)],
            "result": self.result() if self.finished else None,
        }

    @classmethod
    def from_log(cls, log: dict) -> "GameBase":
        players = [p.get("name", p.get("id")) for p in log["players"]]
        ids = {p.get("id"): p.get("name", p.get("id")) for p in log["players"]}
        settings = log.get("settings", {})
        game = cls(players=players, seed=settings.get("seed", 0), variant=log.get("variant"),
                   options=settings.get("optional_rules", ()))
        for action in log["actions"]:
            if action.get("skip") or action.get("type") in ("undo", "redo", "message"):
                continue
            clean = {k: v for k, v in action.items() if k not in ("id", "created_at", "user", "original_id")}
            if clean.get("entity") in ids and clean.get("entity_type") == "player":
                clean["entity"] = ids[clean["entity"]]
            game.process(clean)
        return game


#: Action types whose candidates the runtime generates from the vocabulary.
VOCABULARY = frozenset({"buy_company", "par", "buy_shares", "sell_shares", "pass", "run_routes",
                        "dividend", "buy_train", "contribute", "bankrupt", "bid", "discard_train",
                        "lay_tile", "place_token"})
