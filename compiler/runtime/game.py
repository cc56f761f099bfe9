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

import contextlib
import dataclasses
import random
from typing import Any, Callable, Iterable, Iterator

from compiler.runtime.built import unbuilt
from compiler.runtime.data import Gap, Table, TitleData, resolve_value
from compiler.runtime.entities import BANK, DEPOT, IPO, POOL, SCRAP, SUBSIDY, Certificate, Entity, Train, exchange_sets
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.journal import Journal, JournaledRandom
from compiler.runtime.market import Market
from compiler.runtime import track

Action = dict[str, Any]
#: a property neither the title nor an option sets (`GameBase.param`)
_UNSET = object()

#: The steps of a corporation's operating turn, in order (the title's
#: `operating_steps` chooses among them; steps needing a map are skipped
#: while the title has none).
STEPS = ("lay_tile", "place_token", "track_and_token", "run_routes", "dividend", "buy_train", "buy_company",
         "redeem_shares", "corporate_buy_shares", "issue_shares", "corporate_sell_shares",
         "destination_connection")
MAP_STEPS = frozenset({"lay_tile", "place_token", "track_and_token"})
#: the actions each operating step takes, where they are not just the step's own name: a corporation
#: redeeming its own certificates is the vocabulary's `buy_shares` by a corporation, issuing them its
#: `sell_shares`
STEP_ACTIONS = {"track_and_token": ("lay_tile", "place_token"), "lay_tile": ("lay_tile",),
                "place_token": ("place_token",), "run_routes": ("run_routes",), "dividend": ("dividend",),
                "buy_train": ("buy_train",), "buy_company": (), "redeem_shares": ("corporation_buy_shares",),
                "corporate_buy_shares": ("corporate_buy_shares",), "issue_shares": ("corporation_sell_shares",),
                "corporate_sell_shares": ("corporate_sell_shares",)}
#: a final step (`buy_company`) in which the corporation buys privates or uses its privates' abilities
#: (the vocabulary's `buy_company`, and any action a private of its takes); it holds the turn while
#: one of them is legal, and one pass ends it. No action of another step leads to it.
HOLDING_STEPS = {"buy_company": ("buy_company",)}
#: a combined step: tiles and a station token in any order, one pass ends both
COMBINED_STEPS = {"track_and_token": frozenset({"lay_tile", "place_token"})}
#: the moments at which a declared state (`state NAME: set[...] reset on MOMENT`) is emptied: as a stock
#: round starts, as each turn of a stock round (or of its auctions and special rounds) starts, as a
#: company's operating turn starts (a state with no `reset` lasts the game)
STATE_RESETS = ("stock_round_start", "stock_turn_start", "operating_turn_start")


class GameBase:
    DATA: TitleData
    ROUTINES: dict[str, Callable] = {}
    TRIGGERS: dict[str, list[tuple[Callable | None, Callable]]] = {}
    #: each action's optional fields (`exchange: train | none = none`): the value bound where an action leaves one out
    ACTION_DEFAULTS: dict[str, dict[str, Any]] = {}
    #: each action's listing probe: its opening guards that read only the entity acting (`_group_refused`)
    PROBES: dict[str, Callable] = {}
    #: the same of an action's first two parameters (`_pair_refused`)
    PAIR_PROBES: dict[str, Callable] = {}
    #: the title's declared states (`state NAME: set[...] reset on MOMENT`): name -> its moment (None: the game)
    STATES: dict[str, str | None] = {}

    # ------------------------------------------------------------ setup

    def __init__(self, players: list[str], seed: int = 0, variant: str | None = None,
                 options: Iterable[str] = (), log_hints: Iterable[str] = ()):
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
        # an option may be named as 18xx.games names it in its logs (the option's `log_names`)
        aliases = {str(name): c["key"] for c in self.DATA.components_of("option") for name in c.get("log_names") or ()}
        self.options = tuple(aliases.get(o, o) for o in options)
        known = {c["key"] for c in self.DATA.components_of("option")}
        unknown = [o for o in self.options if o not in known]
        if unknown:
            raise ValueError(f"{self.DATA.title} has no option {unknown[0]!r}; options: {sorted(known) or 'none'}")
        # an option the title declares but whose rules the engine does not have (a property that is a gap)
        gaps = [(comp["key"], next(v for v in comp.values() if isinstance(v, Gap)))
                for comp in self.DATA.components_of("option")
                if comp["key"] in self.options and any(isinstance(v, Gap) for v in comp.values())]
        if gaps:
            raise RuleGap("option " + ", option ".join(k for k, _ in gaps), "; ".join(g.reason for _, g in gaps))
        #: properties the chosen options set (an option's `sets` record)
        self.option_sets: dict[str, Any] = {}
        for comp in self.DATA.components_of("option"):
            if comp["key"] in self.options:
                self.option_sets.update(comp.get("sets") or {})
        self.j = Journal()
        #: the game's own random draws (a shuffled deck, a private given at random): undone with a refused action
        self.rng = JournaledRandom(seed, self.j)
        self.actions: list[Action] = []
        self.n = len(names)
        #: ids a replayed log from another engine uses: its hidden random draws (setup removals, a draft's
        #: hands) cannot be reproduced, so removals draw first from what the log never names, and a draft
        #: pick may come from anywhere in the deck (`replaying()`)
        self.log_hints = frozenset(str(h) for h in log_hints)
        self._named_shares: tuple[str, ...] = ()
        #: a route search that only asks whether a paying run exists (`_some_legal`)
        self._quick_routes = False
        #: candidates listed with no shortcut (`oracle_legal_actions`)
        self._exhaustive = False
        #: the listing skips an action's candidates for an entity its probe refuses (`_group_refused`)
        self._probing = False
        #: in a listing: (the transaction depth it lists at, the pair probes' answers in its state)
        self._pair_answers: tuple[int, dict] | None = None
        #: the route searches made in the states seen lately (`_route_candidates`)
        self._route_memo: dict[tuple, Any] = {}
        #: best_routes' answers by the reached track, stations and trains (`track.best_routes`' memo)
        self._route_answers: dict[tuple, Any] = {}
        if isinstance(self.DATA.properties.get("map"), Gap):
            # a title (or variant) whose map is a gap plays on no map, whatever hexes it inherits; its
            # other gaps are named with it, for the overlay that would fill them (`--map`)
            others = [g for g in self._declared_gaps() if g != "map"]
            raise RuleGap("the map", self.DATA.properties["map"].reason
                          + (f"; the title's other gaps: {', '.join(others)}" if others else ""),
                          self.DATA.properties["map"].at)
        try:
            self._build_entities(names)
            self.log_hints = frozenset(self.log_ids.get(h, h) for h in self.log_hints)
            self._build_state()
            self._start()
        except RuleGap:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # data the runtime cannot read yet (a title whose rules are still being written)
            raise RuleGap(f"{self.DATA.title} data", "cannot be read for play, and `rulec check` did not say why: "
                          "a rulec bug to report, with the rulespec") from exc

    def _declared_gaps(self) -> list[str]:
        """The values the title declares gaps: its properties, then its components' properties (`train 8
        count`), in the order the title gives them."""
        out = [name for name, value in self.DATA.properties.items() if isinstance(value, Gap)]
        for kind, comps in self.DATA.components.items():
            for comp in comps:
                for name, value in comp.items():
                    if isinstance(value, Gap):
                        out.append(f"{kind} {comp.get('key')} {name}")
        return out

    def _build_entities(self, names: list[str]) -> None:
        d = self.DATA
        self.players = [Entity("player", name, name) for name in names]
        #: the players as the game was given them: a log lists them so, for the same random draws on replay
        self.names_given = tuple(names)
        self.corporations = [
            Entity("corporation", c["key"], c.get("title") or c["key"], c) for c in d.components_of("corporation")
        ]
        self.privates = [Entity("private", c["key"], c.get("title") or c["key"], c) for c in d.components_of("private")]
        self.bonds = [Entity("bond", c["key"], c.get("title") or c["key"], c) for c in d.components_of("bond")]
        self.minors = [Entity("minor", c["key"], c.get("title") or c["key"], c) for c in d.components_of("minor")]
        #: the components players pick for free after an opening auction (the title's `free_pick` kind)
        pick_kind = d.properties.get("free_pick")
        # picks that operate once a player has one (the title's `picks_operate: true`) are minors
        entity_kind = "minor" if d.properties.get("picks_operate") else str(pick_kind)
        self.pickables = [Entity(entity_kind, str(c["key"]), c.get("title") or str(c["key"]), c)
                          for c in d.components_of(str(pick_kind))] if pick_kind not in (None, "none") else []
        if entity_kind == "minor":
            self.minors += self.pickables
        self.by_id: dict[tuple[str, str], Entity] = {}
        for e in (self.players + self.corporations + self.privates + self.bonds + self.minors
                  + [x for x in self.pickables if x not in self.minors] + [BANK, POOL, IPO, DEPOT, SCRAP]):
            self.by_id[(e.kind, e.id)] = e
        #: ids as 18xx.games logs spell them ("B&O" for BO): a component's `log_id`
        self.log_ids: dict[str, str] = {}
        for e in self.corporations + self.privates + self.minors:
            if e.get("log_id") is not None:
                self.by_id[(e.kind, str(e.get("log_id")))] = e
                self.log_ids[str(e.get("log_id"))] = e.id
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
        self.phases = [dict(p) for p in d.components_of("phase")]
        #: a train card's other sides: base name -> the names of the trains `variant_of` it
        self.train_sides: dict[str, list[str]] = {}
        for comp in d.components_of("train"):
            if comp.get("variant_of") is not None:
                self.train_sides.setdefault(str(comp["variant_of"]), []).append(comp["key"])
                continue  # the other side of a card: it draws on its base train's supply
            count = self._for_players(comp.get("count"), f"train {comp['key']} count")
            if count == "unlimited":
                count = self._unlimited_train_count()
            # a minor's starting trains (its `trains`) are cards of the same supply, dealt first
            count += sum(1 for m in d.components_of("minor") if comp["key"] in [str(t) for t in m.get("trains") or ()])
            for i in range(count):
                t = Train(comp["key"], i, comp.get("distance"), self._value(comp.get("price"), f"train {comp['key']} price"))
                self.trains[t.id] = t
                self.train_order.append(t.id)
        supply = d.properties.get("train_supply_order")
        if isinstance(supply, list):
            rank = {name: i for i, name in enumerate(dict.fromkeys(supply))}
            self.train_order.sort(key=lambda tid: (rank.get(self.trains[tid].name, len(rank)), self.trains[tid].index))
        self.board = self._build_board()
        market = d.components_of("market")[0]
        self.market = Market.from_spec(market)

    def _unlimited_train_count(self) -> int:
        """Copies of a train type whose count is `unlimited`: as many as all
        corporations together could ever hold at once (each at the highest
        train limit of any phase), so the bank never runs out of them."""
        limits = []
        for phase in self.phases:
            limit = phase.get("train_limit")
            limit = resolve_value(f"phase {phase['key']} train_limit", limit, players=self.n)
            limits.extend(limit.values() if isinstance(limit, dict) else [limit])
        return len(self.corporations) * max(int(x) for x in limits)

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
        if upgrades is not None and d.properties.get("upgrade_chart") == "partial":
            # a partial chart (grammar/README.md): every tile it does not list upgrades as derived
            derive = track.Board({c["key"]: c for c in hexes}, layout=self.param("layout"),
                                 axes=d.properties.get("axes"), tiles=tiles)
            for name, tile in derive.tiles.items():
                if name not in upgrades:
                    upgrades[name] = list(derive.upgrade_targets(tile))
        if counts is not None:
            counts = self._restricted_tile_counts(counts, tiles)
        rules = track.TrackRules(
            off_board=bool(self.param("track_off_board")),
            dead_end_colors=frozenset(self.param("dead_end_colors")),
            same_track_upgrades=bool(d.properties.get("same_track_upgrades", False)),
            city_value_lays=bool(d.properties.get("city_value_lays", False)),
            reached_upgrades=bool(d.properties.get("reached_upgrades", False)),
            border_cost_on_connection=d.properties.get("border_cost_paid") == "on_connection",
            any_exit_reach=d.properties.get("lay_reach") == "any_exit",
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

    def _restricted_tile_counts(self, counts: dict, tiles: dict) -> dict:
        """The tile supply after each `tile_set` component: a tile is of a class "<colour>_city" (it has a
        city) or "<colour>_plain"; a class the component gives as a map (`green_plain: {"16" => 2}`) keeps
        only the tiles listed, in those numbers; a class in its `kept` list keeps its tiles; every other
        tile is out of the game."""
        for comp in self.DATA.components_of("tile_set"):
            kept = {str(k) for k in comp.get("kept") or ()}
            listed = {k: v for k, v in comp.items() if isinstance(v, dict) and k.rsplit("_", 1)[-1] in ("city", "plain")}
            out = {}
            for name, count in counts.items():
                tile = tiles.get(str(name)) or {}
                kinds = {str(n.get("kind")) for n in tile.get("nodes") or ()}
                cls = f"{tile.get('color')}_{'city' if 'city' in kinds else 'plain'}"
                if cls in listed:
                    if str(name) in {str(k) for k in listed[cls]}:
                        out[name] = {str(k): v for k, v in listed[cls].items()}[str(name)]
                elif cls in kept:
                    out[name] = count
            counts = out
        return counts

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
        self.board.touch()
        try:
            result = change()
        finally:
            self.board.touch()
        self.j.on_rollback(lambda: self.board.restore(snapshot))
        return result

    def _value(self, value, what: str):
        return resolve_value(what, value, players=self.n)

    def _for_players(self, value, what: str):
        """A value that may be a map keyed by player count ({3 => 5, 4 => 6}): read at this game's count."""
        value = self._value(value, what)
        if isinstance(value, dict) and value and all(isinstance(k, int) for k in value):
            if self.n not in value:
                raise RuleGap(what, f"no value for {self.n} players")
            return self._value(value[self.n], what)
        return value

    def param(self, name: str, **dims):
        """A title property as play needs it (tables read at this player count;
        a chosen option's `sets` override the title)."""
        value = self.option_sets.get(name, _UNSET) if self.option_sets else _UNSET
        if value is _UNSET:
            value = self.DATA.properties.get(name, _UNSET)
        if value is not _UNSET and not isinstance(value, (Table, Gap)):
            return value  # a plain value: what it is, whatever the dimensions (`resolve_value`)
        if "corporations" not in dims and hasattr(self, "g"):
            # a table keyed by `corporations` is read at the number in the game after setup's removals
            dims["corporations"] = self.g.get("corporations_in_game", len(self.corporations))
        table = self.option_sets.get(name, self.DATA.properties.get(name))
        if isinstance(table, Table) and hasattr(self, "g"):
            # tables keyed by what changes in play: companies available now, companies closed so far
            if "companies_available" in table.dims and "companies_available" not in dims:
                dims["companies_available"] = self.b_companies_available()
            if "closed_companies" in table.dims and "closed_companies" not in dims:
                dims["closed_companies"] = self.b_closed_companies()
            if "phase" in table.dims and "phase" not in dims:
                dims["phase"] = self.g["phase"]
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
        if self.DATA.components_of("subsidy"):
            self.cash[SUBSIDY] = 0  # money the bank sets aside for track subsidies
        #: the bank's flows, for conservation with an unlimited bank
        self.flow = {"paid": 0, "received": 0}
        self.owner: dict[str, Entity] = {}
        for corp in self.corporations:
            for cert in self.certs_of[corp.id]:
                self.owner[cert.id] = self._ipo_of(corp)  # unsold certificates wait where the library's ipo_of says
        for item in self.privates + self.pickables:
            self.owner[item.id] = BANK
        for bond in self.bonds:
            self.owner[bond.id] = self.entity("corporation", bond.get("corporation"))
        for tid in self.trains:
            self.owner[tid] = DEPOT
        self.corp: dict[str, dict[str, Any]] = {
            c.id: {"par": None, "cell": None, "floated": False, "closed": False, "tokens": 0,
                   "revenue": 0, "operated": False}
            for c in self.corporations + self.minors
        }
        for m in self.minors:
            self.cash[m] = 0
            self.owner[m.id] = BANK
        self.closed: dict[str, bool] = {p.id: False for p in self.privates}
        #: certificate id -> the number of the move that gave it to its holder (the order in which a holder
        #: came by his certificates, which `presidency_exchange: first_acquired` reads)
        self.acquired: dict[str, int] = {}
        #: players' debts to the bank (loans), where a title has them
        self.debts: dict[str, int] = {}
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
            "sold": False,
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
            "out": frozenset(),
        }

    def _start(self) -> None:
        start_cash = self.param("starting_cash")
        for p in self.players:
            self.transfer(start_cash, BANK, p)
        if self.DATA.properties.get("player_order") == "dealt" and not self.b_replaying():
            # player-order cards dealt at random; a log from another engine lists its players in its own dealt order
            self.rng.shuffle(self.players)
        if self.DATA.properties.get("first_player") == "random":
            self.j.set(self.g, "priority", self.rng.randrange(self.n))
        self._setup_removals()
        self._setup_relegation()
        self._setup_reservations()
        self._setup_minors()
        self._new_subsidy_pool()
        self.emit("game_start")  # setup done, before the first round (1880 Amira's first company is drawn)
        first = self.param("first_round")
        if first == "private_sale":
            self._start_private_sale()
        elif first == "draft":
            self._start_draft()
        elif first == "auction":
            self._start_auction()
        elif first == "open_auction":
            self._start_open_auction()
        else:
            self._start_stock_round(0)

    # ------------------------------------------------------------ setup removals

    def _setup_removals(self) -> None:
        """Components out of play at setup: those a chosen option `removes_privates`, then, for each
        `removal` component, `removed_per_group` (by player count) drawn at random from each of its
        `group` / `*_group` lists. A removed private closes; a removed corporation is out of the game,
        and where the removal says `home_token_placed` its home station is blocked by its token."""
        removals = [dict(c) for c in self.DATA.components_of("removal")]
        for option in self.DATA.components_of("option"):
            if option["key"] not in self.options:
                continue
            for key in option.get("removes_privates") or ():
                self._remove_from_play(str(key), {})
            target = option.get("removal")
            for removal in removals:
                if removal["key"] == target:
                    removal.update({k: v for k, v in option.items()
                                    if k == "removed_per_group" or k == "group" or k.endswith("_group")})
        for removal in removals:
            count = self._for_players(removal.get("removed_per_group"), f"removal {removal['key']} removed_per_group")
            for name, group in removal.items():
                if not (name == "group" or name.endswith("_group")) or not isinstance(group, list):
                    continue
                members = [str(k) for k in group if self._in_play(str(k))]
                removed = min(int(count), len(members))  # (each group its own: a short group caps only itself)
                unnamed = [m for m in members if m not in self.log_hints]
                if len(unnamed) >= removed:
                    drawn = self.rng.sample(unnamed, removed)
                else:
                    drawn = unnamed + self.rng.sample([m for m in members if m in self.log_hints], removed - len(unnamed))
                for key in drawn:
                    self._remove_from_play(key, removal)
        self.j.set(self.g, "corporations_in_game", sum(1 for c in self.corporations if not self.corp[c.id]["closed"]))

    def _setup_minors(self) -> None:
        """Each minor gets its starting trains (`trains`, the first cards of that type) and its home
        station token before play starts; it operates once a player owns it."""
        for minor in self.minors:
            for name in minor.get("trains") or ():
                tid = next(t for t in self.train_order if self.trains[t].name == str(name) and self.owner[t] is DEPOT)
                self.j.set(self.owner, tid, minor)
            if minor.get("home") is not None and self.board is not None and minor not in self.pickables:
                self.b_place_home_token(minor)  # a picked minor gets its home station when picked

    def _start_minor(self, minor: Entity) -> None:
        self.j.set(self.corp[minor.id], "floated", True)

    def _close_minor(self, minor: Entity) -> None:
        if self.corp[minor.id]["closed"]:
            return
        self.j.set(self.corp[minor.id], "closed", True)
        self.transfer(self.cash[minor], minor, BANK)
        for t in self.b_trains(minor):
            self.j.set(self.owner, t.id, SCRAP)
        self._remove_stations(minor)

    def _operator(self, key: str) -> Entity:
        """The corporation or minor operating now."""
        found = self.by_id.get(("corporation", str(key))) or self.by_id.get(("minor", str(key)))
        if found is None:
            raise IllegalAction(f"there is no corporation or minor {key!r}")
        return found

    def _in_play(self, key: str) -> bool:
        if ("private", key) in self.by_id:
            return not self.closed[key]
        if ("corporation", key) in self.by_id:
            return not self.corp[key]["closed"]
        return False

    def _remove_from_play(self, key: str, removal: dict) -> None:
        self.j.set(self.g, "removed", self.g.get("removed", ()) + (key,))
        if ("private", key) in self.by_id:
            self.j.set(self.closed, key, True)
            return
        corp = self.entity("corporation", key)
        self.j.set(self.corp[key], "closed", True)
        if removal.get("home_token_placed") and self.board is not None:
            self.b_place_home_token(corp)

    # ------------------------------------------------------------ setup: relegation and tiers

    def _setup_relegation(self) -> None:
        """Companies set aside at setup (each `relegation` component): those `always_relegated` (a map by
        player count to a list), then `random_count` (by player count) drawn at random from `random_pool`.
        A relegated company stays in the game but may be started only when its tier is available (`tier`
        components, `companies: relegated`); where `relegated_home_token` is true, its own token blocks its
        home station from the start (and stays there as its home station when it is started)."""
        relegated: list[str] = []
        for comp in self.DATA.components_of("relegation"):
            what = f"relegation {comp['key']}"
            always = self._for_players(comp.get("always_relegated") or [], f"{what} always_relegated")
            relegated += [str(k) for k in always if str(k) not in relegated]
            pool = [str(k) for k in comp.get("random_pool") or () if str(k) not in relegated and self._in_play(str(k))]
            count = min(int(self._for_players(comp.get("random_count") or 0, f"{what} random_count")), len(pool))
            relegated += self.rng.sample(pool, count)
            if comp.get("relegated_home_token"):
                for key in relegated:
                    corp = self.entity("corporation", key)
                    if self.board is not None and not self._home_chosen(corp):
                        self.b_place_home_token(corp)
        if relegated:
            self.j.set(self.g, "relegated", tuple(relegated))

    def b_relegated(self, corp: Entity) -> bool:
        """relegated(C): C was set aside at setup (a `relegation` component) and belongs to the tier of the
        relegated companies."""
        return corp.id in self.g.get("relegated", ())

    def _tier_of(self, corp: Entity) -> dict | None:
        """The `tier` component C belongs to: the one whose `companies` is `relegated` for a relegated
        company, else the one listing it; None for a company in no tier."""
        relegated = self.b_relegated(corp)
        for tier in self.DATA.components_of("tier"):
            members = tier.get("companies")
            if members == "relegated":
                if relegated:
                    return tier
            elif not relegated and corp.id in [str(m) for m in members or ()]:
                return tier
        return None

    def b_available(self, corp: Entity) -> bool:
        """available(C): C's tier may be started now: a tier with `available_from_phase` from that phase
        on, any other from the start. A company in no tier is available."""
        tier = self._tier_of(corp)
        if tier is None:
            return True
        since = tier.get("available_from_phase")
        return since is None or self.b_phase_at_least(str(since))

    def b_companies_available(self) -> int:
        """companies_available(): the companies that can still be started or are running: open and of an
        available tier (the key of a certificate-limit table `by companies_available`)."""
        return sum(1 for c in self.corporations if not self.corp[c.id]["closed"] and self.b_available(c))

    def b_closed_companies(self) -> int:
        """closed_companies(): the companies that have closed during the game (not those removed at setup)."""
        removed = self.g.get("removed", ())
        return sum(1 for c in self.corporations if self.corp[c.id]["closed"] and c.id not in removed)

    # -- a home station chosen when the company starts (`home: chosen_on_float`)

    def _home_chosen(self, corp: Entity) -> bool:
        return corp.get("home") == "chosen_on_float"

    def b_home_open(self, corp: Entity) -> bool:
        """home_open(C): C's home station can be placed: always for a printed home; for a home chosen when
        the company floats (`home: chosen_on_float`), some city has an open slot for it."""
        if not self._home_chosen(corp) or self.board is None:
            return True
        return bool(self._open_cities(corp))

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

    def b_check_home_choice(self, corp: Entity, city: str) -> "track.TokenSpot":
        """check_home_choice(C, city): the spot if C, owing the choice of its home station, may take it
        in `city` (any open city slot; no route needed). Refused (IllegalAction) otherwise."""
        if not self.b_pending_decision(corp, "place_token") or not self._home_chosen(corp):
            raise IllegalAction(f"{corp} does not choose a home station now")
        return track.check_token(self._need_board(), corp.id, str(city), home=True)

    def _setup_reservations(self) -> None:
        """Station slots kept at setup by abilities with `effect: reserved_slot` (`hex`, `city`: the node,
        0 unless given) for their holder, a private or a corporation still in play: other companies may
        not take the last free slots kept so. A private's reservation ends when it closes, or (`ends:
        sold`) when a corporation buys it; `remove_reservations()` ends them all."""
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

    def b_check_station(self, corp: Entity, city: str) -> "track.TokenSpot":
        """check_station(C, city): the spot if C may place a station token there now: as check_token, and
        a slot one of C's abilities still keeps for it with a `teleport_price` needs no route; a company
        whose card has `effect: squeeze_token` may place it beside a city's circles when none is free for it
        (reachable, none of its tokens in the hex, not in the city its `excluded_city` names)."""
        try:
            return self.b_check_token(corp, city)
        except IllegalAction:
            board = self._need_board()
            try:
                ref = board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))
            except ValueError:
                raise IllegalAction(f"there is no city {city!r}") from None
            ability = self._kept_for(corp, ref)
            if ability is None or ability.get("teleport_price") is None:
                squeeze = self._squeeze_spot(corp, ref)
                if squeeze is None:
                    raise
                return squeeze
            return track.check_token(board, corp.id, ref, home=True)

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
            raise IllegalAction(f"no station goes beside the circles of {name}", rule=self._card_rule(self.b_card_of(corp)))
        return track.TokenSpot(ref[0], ref[1], len(board.holders(ref)), board.city_id(ref))

    def b_token_cost(self, corp: Entity, spot: "track.TokenSpot") -> int:
        """token_cost(C, spot): what C's station token in `spot` costs: the price of its next token, or,
        in a slot one of its abilities still keeps for it, the ability's `price` (its `teleport_price`
        where C has no route to the slot)."""
        ref = (spot.hex, spot.node)
        if self._armed(corp, "free_token"):
            return 0  # a token declared free with its card's ability (`effect: free_token`)
        ability = self._kept_for(corp, ref)
        if ability is None or ability.get("price") is None:
            return self.b_next_token_cost(corp)
        if ability.get("teleport_price") is not None and ref not in track.reach(self._need_board(), corp.id).nodes:
            return int(self._value(ability["teleport_price"], f"{corp} {ability['key']} teleport_price"))
        return int(self._value(ability["price"], f"{corp} {ability['key']} price"))

    def b_unreserve_home(self, corp: Entity) -> None:
        """unreserve_home(C): C's home station circle is no longer kept for it (other companies may take it)."""
        if self.board is not None:
            board = self.board
            self._board_change(lambda: board.unreserve(corp.id))

    def b_remove_reservations(self) -> None:
        """remove_reservations(): every station slot an ability keeps (effect reserved_slot) is open again."""
        for holder in [*self.privates, *self.corporations]:
            self._drop_reservations(holder)

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
        for kind in ("player", "corporation", "minor", "private", "bond", "bank", "pool"):
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
        if isinstance(item, Certificate):
            self.j.set(self.g, "moves", self.g.get("moves", 0) + 1)
            self.j.set(self.acquired, key, self.g["moves"])
        if isinstance(item, Entity) and item.kind == "private" and target.kind == "corporation" and any(
                str(a.get("ends")) == "sold" for a in self._abilities(item, "reserved_slot")):
            self._drop_reservations(item)
        if isinstance(item, Entity) and item.kind == "private" and target.kind == "corporation" and any(
                a.get("assigned_on_sale") for a in self._abilities(item, "hex_marker")):
            # a marker on the map comes to serve the corporation that buys the private
            markers = tuple((m[0], m[1], target.id, m[3]) if m[0] == item.id else m for m in self.g.get("markers", ()))
            if markers != tuple(self.g.get("markers", ())):
                self.j.set(self.g, "markers", markers)

    def _ipo_of(self, corp: Entity) -> Entity:
        """Where `corp`'s unsold certificates sit: the library's function `ipo_of` (rulespecs/lib/18xx.rules),
        compiled into the engine, is the one place that says so (the z3 model translates the same function,
        `Translator.ipo_of`). A title without the library has no IPO apart: its corporations hold their own."""
        routine = self.ROUTINES.get("ipo_of")
        return corp if routine is None else routine(self, corp)

    def _source_holder(self, item: Any, source: str) -> Entity:
        if source == "pool":
            return POOL
        if source == "ipo" and isinstance(item, Certificate):
            return self._ipo_of(self.entity("corporation", item.corporation))
        if source == "treasury" and isinstance(item, Certificate):
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
        owner = self.owner
        return sum([c.percent for c in self.certs_of[corp.id] if owner[c.id] == holder])

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
        """zones(C): the market zones whose rules apply to C: those of its cell, and those an ability of its
        card puts it in (`effect: market_zone`, `zones: [...]`)."""
        cell = self.corp[corp.id]["cell"]
        zones = self.market.zones_of(cell) if cell is not None else frozenset()
        if corp.kind == "corporation" and self.g.get("cards"):
            for ability in self._card_abilities(corp):
                if ability.get("effect") == "market_zone":
                    zones = zones | {str(z) for z in ability.get("zones") or ()}
        return zones

    def b_in_round(self, kind: str) -> bool:
        return self.g["round"] == kind

    def b_stock_round_number(self) -> int:
        return self.g["stock_rounds"]

    def b_acting(self, entity: Entity) -> bool:
        return self.current_entity() == entity

    def b_in_step(self, corp: Entity, step: str) -> bool:
        """in_step(C, s): C is operating and at step s (or at a combined step, such as track_and_token, that includes s)."""
        current = self.g["step"]
        return self.g["round"] == "operating" and self.g["operating"] == corp.id and (
            current == step or step in COMBINED_STEPS.get(current, ()))

    def b_operated(self, corp: Entity) -> bool:
        """operated(C): C has finished an operating turn in this game."""
        return bool(self.corp[corp.id].get("operated"))

    def b_certificates(self, player: Entity) -> int:
        """Certificates counting against the limit: shares outside exempt
        zones, and the other kinds the title's `cert_limit_counts` names."""
        counts = set(self.param("cert_limit_counts"))
        total = 0
        if "shares" in counts:
            owner, certs_of = self.owner, self.certs_of
            # a holder is the player where its kind and id are his (Entity equality, without a call per
            # certificate: this is asked in every purchase's and every pass's guards)
            pid, pkind = (player.id, player.kind) if isinstance(player, Entity) else (None, None)
            for corp in self.corporations:
                held = 0
                for cert in certs_of[corp.id]:
                    holder = owner[cert.id]
                    if holder.id == pid and holder.kind == pkind:
                        held += 1
                if held and "no_cert_limit" not in self.b_zones(corp):
                    total += held
        if "privates" in counts:
            total += sum(1 for p in self.privates if self.owner[p.id] == player and not self.closed[p.id])
        if "bonds" in counts:
            total += sum(1 for b in self.bonds if self.owner[b.id] == player)
        if "minors" in counts:
            total += sum(1 for m in self.minors if self.owner[m.id] == player and not self.corp[m.id]["closed"])
        return total

    def b_next_certificate(self, corp: Entity, source: str) -> Certificate | None:
        """next_certificate(C, source): the certificate of C to be bought from `source` (pool, the IPO, or
        C's treasury; the IPO is C's treasury unless the title's capitalisation is full): the one the action
        names (its `shares`), where it names one held there, else the first there; a president's certificate only where the rules let it go."""
        # the holders `pool` and `initial_offering` named where a source is meant
        source = "pool" if source is POOL else ("ipo" if source is IPO else source)
        holder = POOL if source == "pool" else (self._ipo_of(corp) if source == "ipo" else corp)
        named = [self.certificates[cid] for cid in self._named_shares if cid in self.certificates]
        for cert in named + [c for c in self.certs_of[corp.id] if c not in named]:
            if cert.corporation != corp.id:
                continue
            if self.owner[cert.id] == holder and not (cert.president and source != "pool" and not self.b_started(corp)):
                if cert.president and holder != POOL:
                    continue
                if cert.president and self.b_in_receivership(corp):
                    continue  # it passes only by exchange to a player holding as much (_check_president)
                return cert
        return None

    def b_sellable(self, player: Entity, corp: Entity) -> list[Certificate]:
        """The certificates `player` may sell of `corp`, president's last (none in a stock-round turn in
        which he sold some already, where the title says `sell_in_blocks: true`)."""
        certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == player]
        if self.b_in_receivership(corp) and self._param_or("receivership_selling", "allowed") == "forbidden":
            return []
        if not self.param("president_certificate_saleable"):
            certs = [c for c in certs if not c.president]
        elif any(c.president for c in certs) and not any(
                self.b_percent(p, corp) >= self.certs_of[corp.id][0].percent
                for p in self.players if p != player and p.id not in self.g["out"]):
            # the president's certificate is sold only where another player holds as much, who then presides
            certs = [c for c in certs if not c.president]
        if (self.DATA.properties.get("sell_in_blocks") and self.g["round"] == "stock"
                and corp.id in self.g.get("turn_sold", frozenset())):
            return []  # a corporation's shares are sold in one block in a turn
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

    def b_first(self, xs):
        xs = list(xs)
        return xs[0] if xs else None

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

    def b_train_limit(self, corp: Entity) -> int:
        """train_limit(C): the phase's train limit, raised for C by each corporation it took over (the
        title's `takeover_train_limit_bonus`)."""
        limit = self._value(self._phase()["train_limit"], f"phase {self.g['phase']} train_limit")
        if isinstance(corp, Entity) and corp.id in self.corp:
            limit += self.corp[corp.id].get("train_limit_bonus", 0)
        return limit

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

    def _has_tile(self, name: str) -> bool:
        return self.DATA.has_component("tile", name)

    def _tile_private(self, name: str) -> str | None:
        return self.DATA.component("tile", name).get("private") if self._has_tile(name) else None

    def b_check_lay(self, corp: Entity, hex_id: str, tile: str, rotation: int) -> "track.Lay":
        """check_lay(C, hex, tile, rotation): the lay if it is legal for C now (colour, upgrade chart,
        track kept, new track reachable, reservations, supply); refused with the reason otherwise."""
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

    def b_ability_lay_cost(self, company: Entity, lay: "track.Lay") -> int:
        """ability_lay_cost(X, lay): what the owning corporation pays for a lay of private X's tile-lay
        ability (`effect: free_lay`), in currency units: nothing, or where the ability gives a `discount`
        (1846's Little Miami: $20 off) the lay's cost less that discount off the tile's part, at least 0."""
        abilities = self._abilities(company, "free_lay")
        if not abilities or abilities[0].get("discount") is None:
            return 0
        return self._lay_cost(lay, int(self._value(abilities[0]["discount"], f"{company} discount")))

    def b_lay_cost(self, lay: "track.Lay") -> int:
        """lay_cost(lay): the terrain and border costs of a lay, in currency units (at least the
        title's `tile_lay_cost` for the tile itself, where it sets one; border costs add)."""
        return self._lay_cost(lay, 0)

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
        now: the one whose `owner` is the owner's kind (player or corporation), else the first."""
        abilities = self._abilities(company, "hex_marker")
        if not abilities:
            raise IllegalAction(f"{company} has no revenue marker to place")
        kind = self.owner[company.id].kind
        return next((a for a in abilities if str(a.get("owner", "corporation")) == kind), abilities[0])

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
        are spent."""
        ability = self._marker_ability(company)
        if str(ability.get("owner", "corporation")) == "player":
            owner = self._player_ability_user(company)
            if str(ability.get("assigned_to", "")) in ("corporation", "corporation_or_minor"):
                self._assign_player_marker(company, ability, str(hex_id))
                return
        else:
            owner = self._ability_user(company, "places its marker", ability)
        bonus = self._marker_bonus(ability, str(hex_id))
        if bonus is None:
            raise IllegalAction(f"{company}'s marker may not go in {hex_id}")
        uses = dict(self.g.get("ability_uses", {}))
        if ability.get("count") is not None and uses.get(company.id, 0) >= int(ability["count"]):
            raise IllegalAction(f"{company}'s marker has been placed already")
        if ability.get("count_per_operating_round") is not None:
            mark = f"marker {company.id}"
            if self._done_this_turn(mark):
                raise IllegalAction(f"{company}'s marker moves once in an operating round")
            self._mark_done_this_turn(mark)
        uses[company.id] = uses.get(company.id, 0) + 1
        self.j.set(self.g, "ability_uses", uses)
        markers = [m for m in self.g.get("markers", ()) if m[0] != company.id]
        self.j.set(self.g, "markers", tuple(markers) + ((company.id, str(hex_id), owner.id, bonus),))

    def _assign_player_marker(self, company: Entity, ability: dict, target: str) -> None:
        """A player owner names the hex of X's marker or the corporation it serves (`assigned_to:
        corporation`): each at most once in an operating round, in either order; the marker keeps the other
        part. The marker's owner field is the corporation, or "" while none is named. With `when:
        operating_round_start` only while X owes its `assign` decision (asked as the round begins)."""
        if not self.g["round"] == "operating":
            raise IllegalAction(f"{company}'s marker is assigned in an operating round")
        if str(ability.get("when", "")) == "operating_round_start" and not self.b_pending_decision(company, "assign"):
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
        if done == {"hex", "corporation"} and self.b_pending_decision(company, "assign"):
            self.b_resolve_decision(company, "assign")

    def b_marker_assigned_by_player(self, company: Entity) -> bool:
        """marker_assigned_by_player(X): X is open, a player owns it, and its marker ability for a player
        owner names the corporation it serves (`owner: player`, `assigned_to: corporation`)."""
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
    #: the generic timings at which the private owes the ability's `decision`
    DECISION_WHEN = frozenset({"sold", "phase_start"})

    def _generic_timing(self, ability: dict | None) -> bool:
        """Whether an ability's timing is the library's generic one (`when: stock_turn | operating_turn |
        any_time | sold | phase_start`,
        or `owner: player`), which `_ability_window` judges, rather than the owning corporation's turn."""
        return ability is not None and (str(ability.get("when", "")) in self.GENERIC_WHEN
                                        or str(ability.get("owner", "")) == "player")

    def _ability_window(self, company: Entity, ability: dict, what: str) -> Entity:
        """Who may use private `company`'s `ability` now, by its generic properties: the private is open; its
        holder is of the ability's `owner` kind (player or corporation); the phase is at least `from_phase`
        and before `removed_on`; the moment is its `when` (stock_turn: the player owner's turn of a stock
        round; operating_turn: the operating turn of the owning corporation, or of one its player owner
        presides; any_time: any moment of a stock or an operating round, in or out of turn, the action
        being one of the title's any_time_actions; sold, phase_start: while the private owes the
        ability's `decision`); its `count` uses over
        the game and
        `count_per_operating_round` in this operating round are not spent. Returns the holder (a player) or
        the corporation acting (for a player owner in an operating turn, the corporation he presides that
        operates); refused (IllegalAction, saying which) otherwise."""
        if self.closed[company.id]:
            raise IllegalAction(f"{company} is closed")
        holder = self.owner[company.id]
        owner = str(ability.get("owner", "")) or None
        if owner is not None and getattr(holder, "kind", None) != owner:
            raise IllegalAction(f"{company}'s ability is its owner's when a {owner}")
        if ability.get("from_phase") is not None and not self.b_phase_at_least(str(ability["from_phase"])):
            raise IllegalAction(f"{company} {what} from phase {ability['from_phase']}")
        if ability.get("removed_on") is not None and self.b_phase_at_least(str(ability["removed_on"])):
            raise IllegalAction(f"{company}'s ability ended with phase {ability['removed_on']}")
        when = str(ability.get("when", ""))
        user = holder
        if when == "stock_turn":
            if self.g["round"] != "stock" or holder.kind != "player" or self.current_entity() != holder:
                raise IllegalAction(f"{company} {what} in its owner's turn of a stock round")
        elif when == "operating_turn" or (when not in self.GENERIC_WHEN and holder.kind == "corporation"):
            acting = self._operator(self.g["operating"]) if self.g["round"] == "operating" \
                and self.g.get("operating") is not None else None
            if acting is None or (acting != holder and self._director(acting) != holder):
                raise IllegalAction(f"{company} {what} in the operating turn of its owner"
                                    + (" or of a corporation he presides" if holder.kind == "player" else ""))
            user = acting
        elif when == "any_time":
            if self.g["round"] not in ("stock", "operating"):
                raise IllegalAction(f"{company} {what} at any time of a stock or an operating round")
        elif when in self.DECISION_WHEN:
            if not self.b_pending_decision(company, str(ability.get("decision", ""))):
                raise IllegalAction(f"{company} {what} once, right after it is sold to a corporation" if when == "sold"
                                    else f"{company} {what} once, as phase {ability.get('phase')} begins")
        key = f"{company.id}:{ability.get('key')}"
        if ability.get("count") is not None and self.g.get("ability_uses", {}).get(key, 0) >= int(ability["count"]):
            raise IllegalAction(f"{company}'s ability is used up ({ability['count']} uses)")
        per_round = ability.get("count_per_operating_round")
        if per_round is not None and self.g["round"] == "operating":
            stamp, used = self.g.get("ability_round_uses", {}).get(key, (None, 0))
            if stamp == self.g["rounds_played"] and used >= int(per_round):
                raise IllegalAction(f"{company}'s ability is used {per_round} time(s) in an operating round")
        return user

    def _count_ability_use(self, company: Entity, ability: dict) -> None:
        """One use of `company`'s `ability`: its uses over the game, and in this operating round."""
        key = f"{company.id}:{ability.get('key')}"
        uses = dict(self.g.get("ability_uses", {}))
        uses[key] = uses.get(key, 0) + 1
        self.j.set(self.g, "ability_uses", uses)
        rounds = dict(self.g.get("ability_round_uses", {}))
        stamp, used = rounds.get(key, (None, 0))
        rounds[key] = (self.g["rounds_played"], (used if stamp == self.g["rounds_played"] else 0) + 1)
        self.j.set(self.g, "ability_round_uses", rounds)

    def _keyed_ability(self, company: Entity, key: str) -> dict:
        found = next((a for a in company.get("children") or ()
                      if a.get("kind") == "ability" and a.get("key") == str(key)), None)
        if found is None:
            raise IllegalAction(f"{company} has no ability {key!r}")
        return found

    def b_ability_usable(self, company: Entity, key: str) -> bool:
        """ability_usable(X, "key"): whether X's ability of that key may be used now, by its owner, timing,
        phases and counts (`owner`, `when`, `from_phase`, `removed_on`, `count`, `count_per_operating_round`)."""
        try:
            self._ability_window(company, self._keyed_ability(company, key), "uses its ability")
        except IllegalAction:
            return False
        return True

    def b_use_ability(self, company: Entity, key: str) -> None:
        """use_ability(X, "key"): X's ability of that key is used once, now; refused (IllegalAction, saying
        why) where its owner, timing, phases or counts do not allow it (see ability_usable). With `when:
        sold`, the use is the private's owed decision: it is taken."""
        ability = self._keyed_ability(company, key)
        self._ability_window(company, ability, "uses its ability")
        self._count_ability_use(company, ability)
        if str(ability.get("when", "")) in self.DECISION_WHEN:
            self.b_resolve_decision(company, str(ability.get("decision", "")))

    def b_ability_sold(self, company: Entity) -> None:
        """ability_sold(X): private X has just been sold to a corporation: each of its abilities with `when:
        sold` whose `count` is not spent (nor ended by `removed_on`) becomes a decision X owes (the ability's
        `decision` action), taken at once."""
        self._owe_ability_decisions(company, "sold", None)

    def _owe_ability_decisions(self, company: Entity, when: str, phase: str | None) -> None:
        """The decisions open private `company` owes at a moment of its abilities (`when: sold`, or `when:
        phase_start` for phase `phase`), where their uses are not spent and no `removed_on` ended them."""
        if self.closed[company.id]:
            return
        for ability in company.get("children") or ():
            if ability.get("kind") != "ability" or str(ability.get("when", "")) != when or not ability.get("decision"):
                continue
            if phase is not None and str(ability.get("phase", "")) != phase:
                continue
            key = f"{company.id}:{ability.get('key')}"
            if ability.get("count") is not None \
                    and self.g.get("ability_uses", {}).get(key, 0) >= int(ability["count"]):
                continue  # its uses are spent: a later moment owes nothing
            if ability.get("removed_on") is not None and self.b_phase_at_least(str(ability["removed_on"])):
                continue
            self.b_require_decision(company, str(ability["decision"]))

    def _ability_user(self, company: Entity, what: str, ability: dict | None = None) -> Entity:
        """The corporation that may use open private `company`'s ability now: its owner, in its own operating
        turn, before its trains have run (at any step of it where the title says `private_ability_window:
        turn`; an ability's own `window` overrides the title's); refused (IllegalAction) otherwise. An ability
        with the library's generic timing (`_generic_timing`) is judged by `_ability_window` instead: its
        user may then be a player."""
        if self._generic_timing(ability):
            return self._ability_window(company, ability, what)
        if self.closed[company.id]:
            raise IllegalAction(f"{company} is closed")
        owner = self.owner[company.id]
        if owner.kind != "corporation" or self.g.get("operating") != owner.id:
            raise IllegalAction(f"only the corporation that owns {company} {what}, in its operating turn")
        window = (ability or {}).get("window") or self.DATA.properties.get("private_ability_window")
        if window != "turn" and not any(
                self.b_in_step(owner, s) for s in ("track_and_token", "lay_tile", "place_token", "run_routes")):
            raise IllegalAction(f"{company}'s ability is used before the corporation's trains run")
        return owner

    def b_check_ability_lay(self, company: Entity, hex_id: str, tile: str, rotation: int) -> "track.Lay":
        """check_ability_lay(X, hex, tile, rotation): the lay if private X's tile-lay ability (`effect:
        free_lay`) allows it now for its owning corporation: one of the ability's `hexes` and `tiles`, within
        its `count`; `together` (all its lays in one turn); `reachable: false` waives the route to the hex;
        `once_per_hex`: one lay in each hex; `joins_hexes`: each lay adds track on the side its hex shares
        with the ability's other hexes (1846's Little Miami joins Cincinnati and Dayton);
        `upgrades_from: yellow`: its tiles replace a tile of that colour whatever the phase and the chart say,
        towns becoming cities (18CO's GJGR); `closes_private: true`: the lay closes the private.
        An ability without `hexes` lays in any hex (18CO's LNPW: one extra yellow tile). The lay uses none of
        the corporation's own tile lays. Refused (IllegalAction) otherwise."""
        abilities = self._abilities(company, "free_lay")
        if not abilities:
            raise IllegalAction(f"{company} has no tile lay to give")
        ability = abilities[0]
        corp = self._ability_user(company, "lays its track", ability if self._generic_timing(ability) else None)
        name = str(tile).rsplit("-", 1)[0] if "-" in str(tile) else str(tile)
        if ability.get("hexes") and str(hex_id) not in [str(h) for h in ability["hexes"]]:
            raise IllegalAction(f"{company}'s tile lay is not for {hex_id}")
        if ability.get("tiles") and name not in [str(t) for t in ability["tiles"]]:
            raise IllegalAction(f"{company}'s tile lay is not for tile {name}")
        used = self.g.get("ability_uses", {}).get(company.id, 0)
        if used >= int(ability.get("count", 1)):
            raise IllegalAction(f"{company}'s tile lays are used up")
        if used and ability.get("together") and not self._done_this_turn(f"lay {company.id}"):
            raise IllegalAction(f"{company}'s tile lays are made in one turn; the rest lapsed")
        if ability.get("once_per_hex") and f"lay {company.id} {hex_id}" in self.g.get("turn_marks", frozenset()):
            raise IllegalAction(f"{company} lays one tile in {hex_id}")
        board = self._need_board()
        special = frozenset(str(t) for t in ability.get("tiles") or ()) if ability.get("upgrades_from") else frozenset()
        # a player lays with no station of his own: his lay needs no route (a private's lay outside any
        # operating turn, 18xx.games' `owning_player_sr_turn` tile lays)
        reachable = bool(ability.get("reachable", True)) and corp.kind != "player"
        lay = track.check_lay(board, corp.id, str(hex_id), name, rotation, self._phase_colors(),
                              reachable=reachable, special=special,
                              special_from=str(ability["upgrades_from"]) if ability.get("upgrades_from") else None)
        if ability.get("joins_hexes"):
            # new track on the side this hex shares with each other hex of the ability
            for other in [str(h) for h in ability.get("hexes") or ()]:
                side = board.geometry.edge_between(str(hex_id), other) if other != str(hex_id) else None
                if side is not None and side not in lay.new_exits:
                    raise IllegalAction(f"{company}'s tile in {hex_id} must add track towards {other}")
        return lay

    def b_check_ability_token(self, company: Entity, city: str) -> "track.TokenSpot":
        """check_ability_token(X, city): the spot if private X's token ability (`effect: free_token`: its
        `hex` and `city` node, `count` uses) lets its owning corporation place a station there now, in
        the slot X keeps, with no route needed; refused (IllegalAction) otherwise."""
        abilities = self._abilities(company, "free_token")
        if not abilities:
            raise IllegalAction(f"{company} has no station token to give")
        ability = abilities[0]
        corp = self._token_ability_user(company, ability, "places its token")
        board = self._need_board()
        try:
            ref = board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))
        except ValueError as err:
            raise IllegalAction(str(err)) from None
        if ref != (str(ability["hex"]), int(ability.get("city", 0))):
            raise IllegalAction(f"{company}'s token goes only in {ability['hex']} (city {ability.get('city', 0)})")
        if self.g.get("ability_uses", {}).get(company.id, 0) >= int(ability.get("count", 1)):
            raise IllegalAction(f"{company}'s token has been placed already")
        if self.b_tokens_left(corp) <= 0:
            raise IllegalAction(f"{corp} has no station token left")
        kept = self.board.reserved.get(ref, [])
        if company.id in kept:
            # the slot the private keeps is the corporation's to take
            self._board_change(lambda: kept.remove(company.id))
        return track.check_token(board, corp.id, ref, home=True)

    def _token_ability_user(self, company: Entity, ability: dict, what: str) -> Entity:
        """The corporation whose station private `company`'s token ability (`free_token`, `return_token`)
        places or takes back now: the corporation holding the private. With the library's generic timing
        (`when`, `from_phase`, `removed_on`, `count_per_operating_round`: `_ability_window`) in the moment
        it allows, which must then be its own operating turn or one it holds the private in; else in its
        operating turn, before its trains run (`_ability_user`). Refused (IllegalAction) otherwise, and
        where a player holds the private: a station is a corporation's."""
        if not self._generic_timing(ability):
            return self._ability_user(company, what)
        user = self._ability_window(company, ability, what)
        holder = self.owner[company.id]
        if holder.kind != "corporation" or user != holder:
            raise IllegalAction(f"{company} {what} for the corporation holding it")
        return holder

    def b_ability_token(self, company: Entity, spot: "track.TokenSpot") -> None:
        """ability_token(X, spot): the owning corporation's station token in the spot, for free, as an
        extra action (it does not end the corporation's token step); where the ability says `extra_token:
        true`, a token beyond those of the corporation's charter."""
        corp = self.owner[company.id]
        uses = dict(self.g.get("ability_uses", {}))
        uses[company.id] = uses.get(company.id, 0) + 1
        self.j.set(self.g, "ability_uses", uses)
        for ability in self._abilities(company, "free_token")[:1]:
            if self._generic_timing(ability):
                self._count_ability_use(company, ability)  # its uses in this operating round too
        if any(a.get("extra_token") for a in self._abilities(company, "free_token")):
            self.j.set(self.corp[corp.id], "extra_tokens", self.corp[corp.id].get("extra_tokens", 0) + 1)
        self.b_place_station(corp, spot)

    def b_check_return_token(self, company: Entity, city: str) -> str:
        """check_return_token(X, city): the station (a city id) that private X's ability (`effect:
        return_token`, `count` uses) lets its owning corporation take back to its charter now: one of its
        stations, in its operating turn, never its last one on the map; refused (IllegalAction) otherwise."""
        abilities = self._abilities(company, "return_token")
        if not abilities:
            raise IllegalAction(f"{company} has no station token to take back")
        corp = self._token_ability_user(company, abilities[0], "takes a station back")
        if self.g.get("ability_uses", {}).get(company.id, 0) >= int(abilities[0].get("count", 1)):
            raise IllegalAction(f"{company}'s ability has been used")
        board = self._need_board()
        try:
            ref = board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))
        except ValueError as err:
            raise IllegalAction(str(err)) from None
        stations = list(board.tokens_of(corp.id))
        if ref not in stations:
            raise IllegalAction(f"{corp} has no station in {city}")
        if len(stations) <= 1:
            raise IllegalAction(f"{corp} keeps at least one station on the map")
        return track.node_id(ref)

    def b_last_token_cost(self, corp: Entity) -> int:
        """last_token_cost(C): the printed price of the last station token C placed (what a token taken
        back to the charter refunds: it returns to that place on the charter), in currency units."""
        costs = self._value(corp.get("tokens"), f"corporation {corp} tokens")
        placed = self.corp[corp.id]["tokens"] - self.corp[corp.id].get("extra_tokens", 0)  # (from the charter)
        return int(costs[placed - 1]) if 0 < placed <= len(costs) else 0

    def b_return_token(self, company: Entity, city: str) -> None:
        """return_token(X, city): the owning corporation's station in `city` leaves the map for its charter
        (its next token costs the returned one's price again); the ability is used once more, and X closes
        where the ability says `closes_private: true`."""
        corp = self.owner[company.id]
        board = self._need_board()
        ref = board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))
        self._board_change(lambda: board.remove_token(corp.id, ref))
        self.j.set(self.corp[corp.id], "tokens", self.corp[corp.id]["tokens"] - 1)
        uses = dict(self.g.get("ability_uses", {}))
        uses[company.id] = uses.get(company.id, 0) + 1
        self.j.set(self.g, "ability_uses", uses)
        for ability in self._abilities(company, "return_token")[:1]:
            if self._generic_timing(ability):
                self._count_ability_use(company, ability)
        if any(a.get("closes_private") for a in self._abilities(company, "return_token")):
            self.b_close_private(company)

    def b_ability_lay(self, company: Entity, lay: "track.Lay", tile_id: str) -> None:
        """ability_lay(X, lay, tile): put the tile of private X's ability on the map for its owner, free."""
        uses = dict(self.g.get("ability_uses", {}))
        uses[company.id] = uses.get(company.id, 0) + 1
        self.j.set(self.g, "ability_uses", uses)
        for ability in self._abilities(company, "free_lay")[:1]:
            if self._generic_timing(ability):
                self._count_ability_use(company, ability)  # its uses in this operating round too
        self._mark_done_this_turn(f"lay {company.id}")
        self._mark_done_this_turn(f"lay {company.id} {lay.hex}")
        self._put_tile(lay, tile_id)
        if self.owner[company.id].kind == "corporation":
            self._collect_on_lay(self.owner[company.id], lay.hex)  # the owner lays it: it collects there
        if any(a.get("closes_private") for a in self._abilities(company, "free_lay")):
            self.b_close_private(company)  # the ability's use closes the private

    def b_close_minor(self, minor: Entity) -> None:
        """close_minor(M): minor M closes: its cash goes to the bank, its trains leave, its tokens leave the map."""
        self.j.set(self.corp[minor.id], "closed", True)
        self.transfer(self.cash[minor], minor, BANK)
        for t in self.b_trains(minor):
            self.j.set(self.owner, t.id, SCRAP)
        self._remove_stations(minor)

    def b_track_connected(self, a: Entity, b: Entity) -> bool:
        """track_connected(A, B): some station of A and some station of B are joined by track, whoever's
        stations stand between (1880 VII.3.7: a physical connection, not a route)."""
        board = self._need_board()
        theirs = set(board.tokens_of(b.id))
        return bool(theirs) and bool(track.linked(board, board.tokens_of(a.id)) & theirs)

    def b_held_certificates(self, holder: Entity, corp: Entity) -> list[Certificate]:
        """held_certificates(H, C): the certificates of C that H holds."""
        return [c for c in self.certs_of[corp.id] if self.owner[c.id] == holder]

    def b_would_export(self, corp: Entity) -> bool:
        """would_export(C): C's turn ending now without a bank train would export the rest of the current
        train type (the title's `train_export`: C bought the bank's last train a full round ago)."""
        if not self._param_or("train_export", False) or self.g["end_reason"] is not None:
            return False
        if self.g.get("train_marker") != corp.id or self.g["bank_buys"] or self.g.get("resumed_turn"):
            return False
        ids = self._available_train_ids()
        return bool(ids) and self.DATA.component("train", self.trains[ids[0]].name).get("exported") is not False

    def b_tile_color(self, hex_id: str) -> str:
        """tile_color(hex): the colour of what lies on the hex now: white for an empty or printed hex."""
        board = self._need_board()
        if str(hex_id) not in board.hexes:
            raise IllegalAction(f"{hex_id} is not on the map")
        return board.tile_at(str(hex_id)).color

    def b_remove_borders(self, kind: str) -> None:
        """remove_borders(type): the map's hex-side borders of that type are gone (track may cross them)."""
        board = self._need_board()
        self._board_change(lambda: board.remove_borders(str(kind)))

    def b_phase_group(self) -> str:
        """phase_group(): the current phase's `group` (1880's A to D), or its name where it has none."""
        phase = self._phase()
        return str(phase.get("group") or phase["key"])

    # -- ability cards: a deck of cards each giving the company that picks one an ability (the title's
    #    `ability_cards`: the component kind of the cards; 18 Grand Junction's Company Presidents)

    #: effects a company declares in its operating turn (`use_ability`), spending cubes; each holds for
    #: that turn (`hold_price`, `extra_lay`) or for the first thing it changes (`train_discount`: one train
    #: from the bank; `free_token`: one station token; `no_terrain_cost`: one tile lay; `longer_trains`:
    #: one run; `early_upgrade`: one upgrade to a colour the phase does not offer yet)
    DECLARED_EFFECTS = frozenset({"train_discount", "free_token", "no_terrain_cost", "hold_price", "extra_lay",
                                  "longer_trains", "early_upgrade"})

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

    def b_card_of(self, corp: Entity) -> str | None:
        """card_of(C): the key of the ability card C holds now (18GJ: its Company President), or none."""
        return self.g.get("cards", {}).get(corp.id)

    def b_deck(self) -> list[str]:
        """deck(): the keys of the ability cards left in the deck, in the title's order."""
        taken = set(self.g.get("cards", {}).values()) | set(self.g.get("cards_removed", ()))
        return [c["key"] for c in self._cards() if c["key"] not in taken]

    def _card_abilities(self, corp: Entity) -> list[dict]:
        key = self.b_card_of(corp)
        if key is None:
            return []
        return [a for a in self._card(key).get("children") or () if a.get("kind") == "ability"]

    def _power(self, corp: Entity, effect: str) -> dict | None:
        """The ability with `effect` of the card `corp` holds now, if any."""
        return next((a for a in self._card_abilities(corp) if a.get("effect") == effect), None)

    def b_has_power(self, corp: Entity, effect: str) -> bool:
        """has_power(C, effect): the ability card C holds has an ability with that `effect`."""
        return isinstance(corp, Entity) and corp.kind == "corporation" and self._power(corp, str(effect)) is not None

    def b_power_value(self, corp: Entity, effect: str, field: str) -> Any:
        """power_value(C, effect, field): the property `field` (a string) of that ability of C's card."""
        ability = self._power(corp, str(effect))
        if ability is None or ability.get(str(field)) is None:
            raise RuleGap(f"{corp}'s ability {effect}", f"gives no {field}")
        return self._value(ability[str(field)], f"{corp} {effect} {field}")

    def b_cubes(self, corp: Entity) -> int:
        """cubes(C): the use cubes left on C's card (0 without a card or for a card without uses)."""
        key = self.b_card_of(corp)
        return 0 if key is None else self.g.get("cubes", {}).get(key, 0)

    def b_spend_cubes(self, corp: Entity, n: int) -> None:
        """spend_cubes(C, n): n use cubes come off C's card. Refused (IllegalAction, naming the card's
        rule) when fewer are left."""
        key = self.b_card_of(corp)
        if key is None:
            raise IllegalAction(f"{corp} has no {self._card_kind()}", rule=self._deck_rule())
        left = self.b_cubes(corp)
        if n < 1 or n > left:
            raise IllegalAction(f"{corp}'s {self._card(key).get('title') or key} has {left} use(s) left, not {n}",
                                rule=self._card_rule(key))
        self.j.set(self.g, "cubes", {**self.g.get("cubes", {}), key: left - n})

    def b_offer_card(self, corp: Entity, action: str, required: bool) -> None:
        """offer_card(C, action, required): C's president must now take `action` (the title's, naming a card
        for C) before play goes on; `required` false lets him decline. The president is the player holding
        C's president's certificate, or, while C is being started, the player starting it. No offer is made
        while the deck is empty or to a company without a president (receivership)."""
        decider = self.b_president(corp)
        if decider is None and self.g["round"] == "stock":
            decider = self.current_entity()
        if decider is None or decider.kind != "player" or not self.b_deck():
            return
        self.j.set(self.g, "card_offers", tuple(self.g.get("card_offers", ())) + ((corp.id, decider.id, bool(required)),))
        self.b_require_decision(decider, str(action))

    def b_operating_order(self) -> list[Entity]:
        """operating_order(): the companies of the current (or last) operating round, in their order."""
        return [self._operator(key) for key in self.g["order"]]

    def b_set_operating_position(self, corp: Entity, position: int) -> None:
        """set_operating_position(C, n): C operates n-th (from 1) in the operating round about to begin; the
        others keep their order. Refused (IllegalAction) outside 1..the number of operating companies, or
        once a company has operated in the round."""
        order = list(self.g["order"])
        if self.g.get("operating") is not None or corp.id not in order:
            raise IllegalAction(f"{corp} can choose its place only before the operating round begins")
        if not 1 <= int(position) <= len(order):
            raise IllegalAction(f"{corp} can operate 1st to {len(order)}th, not {position}th")
        order.remove(corp.id)
        order.insert(int(position) - 1, corp.id)
        self.j.set(self.g, "order", tuple(order))

    def b_offered(self, player: Entity, corp: Entity) -> bool:
        """offered(P, C): P now decides which card C takes (the first offer waiting on P)."""
        mine = [o for o in self.g.get("card_offers", ()) if o[1] == player.id]
        return bool(mine) and mine[0][0] == corp.id

    def b_pick_card(self, player: Entity, corp: Entity, key: Any, action: str) -> None:
        """pick_card(P, C, card, action): P names `card` (a key, or none to decline where the offer allows it)
        for C: the card leaves the deck for C with a cube on each of its `uses`; the event
        `card_picked(C, card, at_start)` follows (at_start: the offer came with C's start). Refused
        (IllegalAction) for a card not in the deck or a refused decline."""
        offers = list(self.g.get("card_offers", ()))
        offer = next(o for o in offers if o[1] == player.id and o[0] == corp.id)
        if key is None or str(key) == "none":
            if offer[2]:
                raise IllegalAction(f"{corp} must take a {self._card_kind()} now", rule=self._deck_rule())
        else:
            if str(key) not in self.b_deck():
                raise IllegalAction(f"{key} is not left in the deck", rule=self._deck_rule())
            card = self._card(key)
            uses = card.get("uses")
            self.j.set(self.g, "cards", {**self.g.get("cards", {}), corp.id: card["key"]})
            self.j.set(self.g, "cubes", {**self.g.get("cubes", {}), card["key"]: int(uses) if uses else 0})
        offers.remove(offer)
        self.j.set(self.g, "card_offers", tuple(offers))
        if not any(o[1] == player.id for o in offers):
            self.b_resolve_decision(player, str(action))
        if key is not None and str(key) != "none":
            self.emit("card_picked", corp, str(key), offer[2])

    def b_discard_cards(self) -> None:
        """discard_cards(): every ability card held by a company leaves the game, with its cubes and what it
        placed (a marker); a holding that only the card allowed stays (its excess is recorded where the
        title sanctions `holding_cap` for discard_cards)."""
        held = dict(self.g.get("cards", {}))
        if not held:
            return
        self.j.set(self.g, "cards_removed", tuple(self.g.get("cards_removed", ())) + tuple(held.values()))
        markers = tuple(m for m in self.g.get("markers", ()) if m[0] not in held.values())
        if markers != tuple(self.g.get("markers", ())):
            self.j.set(self.g, "markers", markers)  # a card's marker leaves with it
        self.j.set(self.g, "cards", {})
        self.j.set(self.g, "armed", {})
        for corp_id in held:
            self._sanction_excess(self.entity("corporation", corp_id), "discard_cards")

    def b_use_power(self, corp: Entity, n: int) -> None:
        """use_power(C, n): C declares its card's ability (one of DECLARED_EFFECTS) for this turn, spending n
        cubes; only an ability with `stackable: true` takes more than one at once, and a declaration waits
        until the last one is spent (or the turn ends). Refused (IllegalAction naming the card's rule)
        otherwise."""
        key = self.b_card_of(corp)
        if key is None:
            raise IllegalAction(f"{corp} has no {self._card_kind()}", rule=self._deck_rule())
        ability = next((a for a in self._card_abilities(corp) if a.get("effect") in self.DECLARED_EFFECTS), None)
        if ability is None:
            raise IllegalAction(f"{self._card(key).get('title') or key}'s ability is not declared: it acts by itself",
                                rule=self._card_rule(key))
        if self.g.get("armed", {}).get(corp.id):
            raise IllegalAction(f"{corp} has declared a use of its ability not spent yet", rule=self._card_rule(key))
        if n > 1 and not ability.get("stackable"):
            raise IllegalAction(f"{self._card(key).get('title') or key}'s uses are spent one at a time",
                                rule=self._card_rule(key))
        self.b_spend_cubes(corp, n)
        self.j.set(self.g, "armed", {**self.g.get("armed", {}), corp.id: (str(ability["effect"]), int(n))})

    def _armed(self, corp: Entity, effect: str) -> int:
        """The cubes `corp` spent on `effect` this turn and not yet used up (0 if none)."""
        what = self.g.get("armed", {}).get(corp.id)
        return what[1] if what and what[0] == effect else 0

    def _disarm(self, corp: Entity) -> None:
        armed = dict(self.g.get("armed", {}))
        if armed.pop(corp.id, None) is not None:
            self.j.set(self.g, "armed", armed)

    def b_place_card_marker(self, corp: Entity, hex_id: str) -> None:
        """place_card_marker(C, hex): C puts its card's marker (an ability with `effect: bonus_token` and a
        `bonus_per_train`) on a city hex, spending a use cube; each of C's runs stopping there earns the
        bonus until the card leaves the game. Refused (IllegalAction naming the card's rule) without such a
        card or cube, or on a hex without a city."""
        key = self.b_card_of(corp)
        ability = self._power(corp, "bonus_token") if key is not None else None
        if ability is None:
            raise IllegalAction(f"{corp} has no marker to place", rule=self._deck_rule())
        board = self._need_board()
        if str(hex_id) not in board.hexes or not board.tile_at(str(hex_id)).cities:
            raise IllegalAction(f"{key}'s marker goes on a city, not {hex_id}", rule=self._card_rule(key))
        self.b_spend_cubes(corp, 1)
        bonus = int(self._value(ability["bonus_per_train"], f"{key} bonus_per_train"))
        self.j.set(self.g, "markers", tuple(self.g.get("markers", ())) + ((key, str(hex_id), corp.id, bonus),))

    def b_bank_price(self, corp: Entity, train: Train) -> int:
        """bank_price(C, T): what C pays the bank for T: its price, less `discount_per_use` (percent) for each
        cube C declared this turn on a `train_discount` ability."""
        n = self._armed(corp, "train_discount")
        if not n:
            return train.price
        per = int(self.b_power_value(corp, "train_discount", "discount_per_use"))
        return train.price * (100 - per * n) // 100

    def b_discount_used(self, corp: Entity) -> None:
        """discount_used(C): a declared train discount of C has been spent on a train."""
        if self._armed(corp, "train_discount"):
            self._disarm(corp)

    def b_remove_markers(self, company: Entity | None = None) -> None:
        """remove_markers(): every revenue marker leaves the map (their bonuses end). remove_markers(X), as
        private X closes: its marker leaves the map where a player holds X and its marker ability for a player
        owner says `removed_on_close: true` (a corporation's stays)."""
        if company is None:
            self.j.set(self.g, "markers", ())
        elif self.owner[company.id].kind == "player" and not self.closed[company.id] and any(
                str(a.get("owner", "")) == "player" and a.get("removed_on_close")
                for a in self._abilities(company, "hex_marker")):
            self.j.set(self.g, "markers", tuple(m for m in self.g.get("markers", ()) if m[0] != company.id))

    def b_stays_open(self, company: Entity) -> bool:
        """stays_open(X): whether private X escapes the closing of privates now: it has an ability
        `effect: stays_open` whose `owner` (player or corporation) is the kind of its holder."""
        holder = self.owner[company.id]
        return any(str(a.get("owner", "corporation")) == holder.kind
                   for a in self._abilities(company, "stays_open"))

    def _route_extras(self, corp: Entity) -> "track.Bonuses":
        """What `corp`'s runs earn beyond their stops, and the limits on the stops a run may combine, for
        the route search and the route check alike:
        - each `revenue_bonus` component of the title: a run stopping in a hex of `stops_a` and (if given)
          one of `stops_b` earns `amount` plus the bonus listed with each of the two hexes; `at_ends` (the
          two are the run's ends), `paid_stops_only` (an N/M train must be paid for them; default true),
          `limit_a` / `limit_b` (a run stops in at most that many hexes of the list);
        - each revenue marker `corp` has on the map (place_marker): its bonus for a run stopping in its hex;
        - each open private `corp` owns with `effect: stop_bonus`: `bonus_per_stop` for each stop of its
          run with the most stops."""
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
        if corp.kind == "corporation" and self.b_has_power(corp, "stop_bonus"):
            per_stop += int(self.b_power_value(corp, "stop_bonus", "bonus_per_stop"))
        return track.Bonuses(tuple(bonuses), tuple(limits), per_stop)

    def b_markers(self) -> list:
        """markers(): the revenue markers on the map, as (private, hex, owner, bonus); the owner is a
        corporation, or a player whose companies all earn the bonus."""
        return [tuple(m) for m in self.g.get("markers", ())]

    def b_lay(self, corp: Entity, lay: "track.Lay", tile_id: str) -> None:
        """lay(C, lay, tile): put the tile on the map; a tile tied to a private closes it; borders the lay
        crosses open, and a border_crossing private's owner earns its bonus (1880 II.3.1, P2)."""
        if self._armed(corp, "no_terrain_cost") or (lay.upgrade and self._armed(corp, "early_upgrade")):
            self._disarm(corp)  # the declared terrain waiver covers one lay, an early upgrade one upgrade
        self._put_tile(lay, tile_id)
        self._border_crossings(lay)
        self._collect_on_lay(corp, lay.hex)
        self.j.set(self.g, "lays", self.g.get("lays", 0) + 1)
        if lay.upgrade:
            self.j.set(self.g, "upgraded", True)
        if self.g["lays"] >= len(self._lay_slots()):
            if self.g["step"] == "track_and_token" and not self._done_this_turn("token") and self.b_tokens_left(corp) > 0:
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
        `_collectables`) gives that thing to the laying corporation, once."""
        for kind in self.DATA.properties.get("collect_on_lay") or ():
            for key, home in self._collectables(str(kind)):
                taken = {(k, key) for k, key, _ in self.g.get("collected", ())}
                if home == hex_id and (str(kind), key) not in taken:
                    self.j.set(self.g, "collected", self.g.get("collected", ()) + ((str(kind), key, corp.id),))

    def b_collected(self, holder: Entity, kind: str) -> int:
        """collected(C, kind): how many components of `kind` (listed in `collect_on_lay`) C has collected."""
        return sum(1 for k, _, h in self.g.get("collected", ()) if k == str(kind) and h == holder.id)

    def b_discard_collected(self, kind: str) -> None:
        """discard_collected(kind): every component of `kind` leaves the game, collected or not."""
        gone = tuple((str(kind), key, SCRAP.id) for key, _ in self._collectables(str(kind)))
        kept = tuple(c for c in self.g.get("collected", ()) if c[0] != str(kind))
        self.j.set(self.g, "collected", kept + gone)

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
        of the hex it chooses (a pending `place_token`, see `check_retoken`), as 18xx.games'
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
                self.b_require_decision(holder, "place_token")
        self.j.set(self.g, "retoken", waiting)

    def b_check_retoken(self, corp: Entity, city: str) -> "track.TokenSpot":
        """check_retoken(C, city): the spot if C owes the placing again of a token a tile lay took up
        (`token_city_on_first_lay: owner_chooses`) and `city` is a city of that hex with a free circle
        for it. Refused (IllegalAction) otherwise."""
        hex_id = (self.g.get("retoken") or {}).get(corp.id)
        if hex_id is None or not self.b_pending_decision(corp, "place_token"):
            raise IllegalAction(f"{corp} has no token to place again")
        spot = track.check_token(self._need_board(), corp.id, str(city), home=True)
        if spot.hex != hex_id:
            raise IllegalAction(f"{corp}'s token goes back into a city of {hex_id}")
        waiting = dict(self.g["retoken"])
        del waiting[corp.id]
        self.j.set(self.g, "retoken", waiting)
        return spot

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

    def b_check_token(self, corp: Entity, city: str) -> "track.TokenSpot":
        """check_token(C, city): the station spot if C may place a token there now."""
        return track.check_token(self._need_board(), corp.id, str(city))

    def b_tokens_left(self, corp: Entity) -> int:
        """tokens_left(C): station tokens C has not placed."""
        costs = self._value(corp.get("tokens"), f"corporation {corp} tokens")
        extra = self.corp[corp.id].get("extra_tokens", 0)
        return len(costs) + extra - self.corp[corp.id]["tokens"] - self.corp[corp.id].get("tokens_right", 0)

    def b_next_token_cost(self, corp: Entity) -> int:
        """next_token_cost(C): the price of C's next station token."""
        costs = self._value(corp.get("tokens"), f"corporation {corp} tokens")
        placed = self.corp[corp.id]["tokens"] - self.corp[corp.id].get("extra_tokens", 0)
        return costs[placed] if placed < len(costs) else 0

    def b_absorb_station(self, corp: Entity, other: Entity) -> None:
        """absorb_station(C, M): M's station on the map becomes C's, a token beyond those of C's charter
        (C's next token still costs what its charter says); where C already has a station in that city,
        M's station just leaves the map."""
        if self.board is None:
            return
        board = self.board
        for ref in list(board.tokens_of(other.id)):
            self._board_change(lambda ref=ref: board.remove_token(other.id, ref))
            if ref in board.tokens_of(corp.id):
                continue
            self.j.set(self.corp[corp.id], "extra_tokens", self.corp[corp.id].get("extra_tokens", 0) + 1)
            self.b_place_station(corp, track.check_token(board, corp.id, ref, home=True))

    def b_place_station(self, corp: Entity, spot: "track.TokenSpot") -> None:
        """place_station(C, spot): put one of C's tokens in the spot."""
        board = self._need_board()
        beside = spot.slot >= len(board.holders((spot.hex, spot.node)))  # beside the circles (squeeze_token)
        self._board_change(lambda: board.place_token(corp.id, (spot.hex, spot.node), spot.slot, beside=beside))
        self.j.set(self.corp[corp.id], "tokens", self.corp[corp.id]["tokens"] + 1)
        if self._armed(corp, "free_token"):
            self._disarm(corp)  # the declared free token is placed

    def b_place_home_token(self, corp: Entity) -> None:
        """place_home_token(C): C's first token, free, in its home station (where the title has a map)."""
        if self.board is None:
            return
        if self._home_chosen(corp):
            # the company chooses its home city now (check_home_choice); play waits for it
            self.b_require_decision(corp, "place_token")
            return
        home = self._home_node(corp)
        if home[0] in {h for h, _ in self.board.tokens_of(corp.id)}:
            return  # its token has stood in its home since setup (a relegated company's, for one)
        spot = track.check_token(self.board, corp.id, home, home=True)
        self.b_place_station(corp, spot)

    def _home_node(self, corp: Entity) -> "track.NodeRef":
        """The city of `corp`'s home station: (hex, node); node 0 unless the hex's
        `homes` names another, as upgrades have moved it since (two cities merged into one)."""
        home = str(self._value(corp.get("home"), f"corporation {corp} home"))
        ref = self.board.home_nodes.get(corp.id)
        return ref if ref is not None and ref[0] == home else (home, 0)

    def b_can_take_station(self, corp: Entity, other: Entity) -> bool:
        """can_take_station(C, M): whether C may put one of its station markers in place of M's station:
        M has a station on the map, C a marker left and no station yet in that hex (one per hex)."""
        if self.board is None or self.b_tokens_left(corp) <= 0:
            return False
        theirs = self.board.tokens_of(other.id)
        mine = {h for h, _ in self.board.tokens_of(corp.id)}
        return bool(theirs) and theirs[0][0] not in mine

    def b_take_station(self, corp: Entity, other: Entity) -> None:
        """take_station(C, M): C's cheapest free station marker replaces M's station in the same circle,
        free of charge (1880 VII.3.7); IllegalAction if C may not hold a station there."""
        board = self._need_board()
        ref = board.tokens_of(other.id)[0]
        self._board_change(lambda: board.remove_token(other.id, ref))
        self.b_place_station(corp, track.check_token(board, corp.id, ref, home=True))

    def _remove_stations(self, corp: Entity) -> None:
        if self.board is None:
            return
        board = self.board
        for ref in list(board.tokens_of(corp.id)):
            self._board_change(lambda ref=ref: board.remove_token(corp.id, ref))

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

    @staticmethod
    def b_part(name: Any, sep: str, index: int) -> str | None:
        """part(x, sep, i): the i-th part (0 first) of the name x cut at each `sep`, or none where it has no
        such part ("LCR|BC" cut at "|": "LCR", "BC"; 18xx.games writes some choices so)."""
        parts = str(name).split(str(sep))
        return parts[int(index)] if 0 <= int(index) < len(parts) else None

    @staticmethod
    def b_letters_union(a: Any, b: Any) -> str:
        """letters_union(a, b): the letters of names a and b, each once, in alphabetical order ("AB" and
        "BC": "ABC"; building rights as letters)."""
        return "".join(sorted(set(str(a or "")) | set(str(b or ""))))

    def b_corporation_named(self, name: Any) -> Entity | None:
        """corporation_named(x): the corporation whose id is x (as the title or 18xx.games spells it), or
        none: an action's target given by name (18xx.games' `assign` names a hex or a corporation)."""
        key = str(name)
        return self.by_id.get(("corporation", self.log_ids.get(key, key)))

    def b_extend_run(self, corp: Entity, position: Any, kind: str) -> None:
        """extend_run(C, i, kind): C's train at position i (0 first, in the order C holds them; a number or a
        numeral) runs this turn with one more stop of node kind `kind` (a town: 1880 Romania's REMAR tender
        as 18xx.games builds it). Refused (IllegalAction) if C has no train there."""
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

    def b_must_buy_train(self, corp: Entity) -> bool:
        """must_buy_train(C): C is at its train purchase without a train, and the bank has one."""
        return (
            isinstance(corp, Entity) and corp.kind == "corporation" and not self.corp[corp.id]["closed"]
            and self.b_in_step(corp, "buy_train") and not any(self._meets_obligation(t) for t in self.b_trains(corp))
            and bool(self._available_train_ids()) and not self.b_in_receivership(corp)
            and not self.b_has_power(corp, "no_train_needed")
        )

    def _meets_obligation(self, train: Train) -> bool:
        """A train that counts for a corporation's duty to own one (not one with
        `satisfies_train_obligation: false`, 1880's rebuilt 2-train)."""
        return self.DATA.component("train", train.name).get("satisfies_train_obligation", True) is not False

    def b_falling_sale_value(self, corp: Entity, shares: int) -> int:
        """falling_sale_value(C, n): what n shares of C fetch when each is paid at the price of one step of
        the token's way down the market, from its price now: the first at the price now, the next at the
        price one step down, and so on (n prices added up; 0 shares: 0)."""
        cell = self.corp[corp.id]["cell"]
        if cell is None:
            raise IllegalAction(f"{corp} has no share price yet")
        total = 0
        for _ in range(max(0, int(shares))):
            total += self.market.price(cell)
            cell = self.market.move(cell, "down")
        return total

    def b_can_emergency_sell(self, player: Entity) -> bool:
        """can_emergency_sell(P): whether P holds a certificate he could sell to the market now."""
        for corp in self.corporations:
            if self.corp[corp.id]["cell"] is None or self.corp[corp.id]["closed"]:
                continue
            for cert in self.b_sellable(player, corp):
                if self.b_percent(POOL, corp) + cert.percent <= self.param("pool_cap"):
                    return True
        return False

    def _side_prices(self, train: Train) -> list[int]:
        return [self._train_side(train, s).price for s in [train.name, *self.train_sides.get(train.name, ())]]

    def b_dearest_side_price(self) -> int:
        """dearest_side_price(): the highest price of a side of the bank's cheapest train card (1846's 4 and
        its 3/5 side: 180), in currency units; 0 when the bank has none."""
        cards = [self.trains[t] for t in self._available_train_ids() if self._meets_obligation(self.trains[t])]
        if not cards:
            return 0
        return max(self._side_prices(min(cards, key=lambda c: min(self._side_prices(c)))))

    def b_dearest_train_price(self) -> int:
        """dearest_train_price(): the highest price of a side of any train card the bank sells now, from
        the depot or the pool, in currency units; 0 when there is none."""
        cards = [self.trains[t] for t in self._available_train_ids() if self._meets_obligation(self.trains[t])]
        cards += [t for t in self.b_trains(POOL) if self._meets_obligation(t)]
        return max((p for card in cards for p in self._side_prices(card)), default=0)

    def b_price_after_moves(self, corp: Entity, direction: str, n: int) -> int:
        """price_after_moves(C, d, n): the price n market moves of C in direction d would give."""
        cell = self.corp[corp.id]["cell"]
        if cell is None:
            raise IllegalAction(f"{corp} has no share price yet")
        for _ in range(int(n)):
            cell = self.market.move(cell, str(direction))
        return self.market.price(cell)

    def b_cheapest_train_price(self) -> int:
        """cheapest_train_price(): the lowest price of a train the bank sells now (either side of a card)
        that meets a corporation's duty to own one."""
        prices = [self._train_side(self.trains[t], side).price for t in self._available_train_ids()
                  if self._meets_obligation(self.trains[t])
                  for side in [self.trains[t].name, *self.train_sides.get(self.trains[t].name, ())]]
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
        except IllegalAction:
            help_ = 0  # help the title refuses now (the corporation must first issue) is none
        finally:
            self.j.rollback()
        return max(0, price - self.cash[corp] - help_)

    def b_closed(self, item: Entity) -> bool:
        """closed(X): whether private, corporation or minor X is closed (or out of the game)."""
        if item.kind in ("corporation", "minor"):
            return self.corp[item.id]["closed"]
        return self.closed.get(item.id, False)

    def b_reset_corporation(self, corp: Entity) -> None:
        """reset_corporation(C): every certificate back in C's IPO, price and par gone, not floated: C may start again."""
        for cert in self.certs_of[corp.id]:
            if self.owner[cert.id] != self._ipo_of(corp):
                self.j.set(self.owner, cert.id, self._ipo_of(corp))
        cell = self.corp[corp.id]["cell"]
        if cell is not None:
            self.j.remove(self.stacks[cell], corp.id)
        self._remove_stations(corp)
        for key, value in (("par", None), ("cell", None), ("floated", False), ("tokens", 0), ("revenue", 0)):
            self.j.set(self.corp[corp.id], key, value)
        if self.corp[corp.id].get("extra_tokens"):
            self.j.set(self.corp[corp.id], "extra_tokens", 0)  # (its stations all left the map)

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

    def _done_this_turn(self, mark: str) -> bool:
        """Whether the runtime's own mark m (a station token in a track-and-token step, a private's lay) was
        made in this operating turn. (What a title's rules do once a turn is its declared state,
        `state done_this_turn: set[turn_marks] reset on operating_turn_start`.)"""
        return mark in self.g.get("turn_marks", frozenset())

    def _mark_done_this_turn(self, mark: str) -> None:
        """The runtime's own mark m: not done again this operating turn."""
        self.j.set(self.g, "turn_marks", self.g.get("turn_marks", frozenset()) | {mark})

    # -- effects the DSL calls with `do`
    def b_set_par(self, corp: Entity, price: int) -> None:
        cell = self.market.par_cell(price)
        if cell is None:
            raise IllegalAction(f"{self.money(price)} is not a par price")
        self.j.set(self.corp[corp.id], "par", price)
        self._place_token(corp, cell)
        self.emit("corporation_started", corp, price)

    def b_bought(self, player: Entity, corp: Entity) -> None:
        self._reenter(player)
        self.j.set(self.g, "round_acted", True)
        self.j.set(self.g, "acted", True)
        self._check_float(corp)
        self._check_president(corp)
        if self.g["round"] == "stock" and self.param("sell_buy_order") == "sell_then_buy" \
                and not self.g.get("auction") and not self._privates_for_sale():
            # nothing is left to do in the turn (one buy, no sale after it): it ends
            self.j.set(self.g, "passes", 0)
            self._next_turn()
        elif self.g["round"] == "special":
            self._special_next(None)  # one certificate a turn; the player keeps his place until he passes

    def b_note_sold(self, player: Entity, corp: Entity) -> None:
        if self.g["round"] == "stock":
            self._reenter(player)
        self.j.set(self.g, "round_acted", True)
        self.j.set(self.g, "sold", True)
        self.j.set(self.g, "acted", True)
        self.j.set(self.g, "turn_sold", self.g.get("turn_sold", frozenset()) | {corp.id})

    def b_sold_this_turn(self, player: Entity, corp: Entity) -> bool:
        """sold_this_turn(P, C): P, on turn, has already sold certificates of C in this turn (a stock
        round turn, or the operating turn whose train he is raising money for)."""
        return corp.id in self.g.get("turn_sold", frozenset())

    def b_market_move(self, corp: Entity, direction: str) -> None:
        """market_move(C, d): C's price token moves one step in direction d (not while prices are frozen, nor
        down or left in the operating turn where C declared its card's `hold_price` ability)."""
        cell = self.corp[corp.id]["cell"]
        if cell is None or self.b_prices_frozen():
            return
        if str(direction) in ("left", "down") and self._armed(corp, "hold_price") and self.g["round"] == "operating":
            return
        new = self.market.move(cell, direction)
        if new != cell:
            self._place_token(corp, new)

    def b_choose_share_layout(self, corp: Entity, president_percent: int) -> None:
        """choose_share_layout(C, p): C's certificates become the layout of its `share_layouts` whose president's certificate is p% (before C is started)."""
        layouts = corp.get("share_layouts")
        if not isinstance(layouts, dict) or president_percent not in layouts:
            raise IllegalAction(f"{corp} has no share layout with a {president_percent}% president's certificate")
        if any(self.owner[c.id] != self._ipo_of(corp) for c in self.certs_of[corp.id]):
            raise IllegalAction(f"{corp}'s certificates are no longer all in the bank")
        for cert in self.certs_of[corp.id]:
            self.j.delete(self.certificates, cert.id)
            self.j.delete(self.owner, cert.id)
        certs = [Certificate(corp.id, i, pct, i == 0) for i, pct in enumerate(layouts[president_percent])]
        for cert in certs:
            self.j.set(self.certificates, cert.id, cert)
            self.j.set(self.owner, cert.id, self._ipo_of(corp))
        self.j.set(self.certs_of, corp.id, certs)

    def b_prices_frozen(self) -> bool:
        """prices_frozen(): whether the current phase is one the market's `frozen_in` names (no price moves)."""
        frozen = self.DATA.components_of("market")[0].get("frozen_in") or []
        return self.g["phase"] in [str(p) for p in frozen]

    def b_phase_value(self, value):
        """phase_value(m): m read at the current phase (a map keyed by phase name or phase group)."""
        return self._by_phase(value, "phase_value")

    # -- personal loans (a player's debt to the bank)

    def b_debt(self, player: Entity) -> int:
        """debt(P): what P owes the bank (loans with their interest)."""
        return self.debts.get(player.id, 0)

    def b_add_debt(self, player: Entity, amount: int) -> None:
        """add_debt(P, x): P owes the bank x more (a loan or its interest; no money moves)."""
        if amount < 0:
            raise IllegalAction("a debt cannot grow by a negative amount")
        self.j.set(self.debts, player.id, self.debts.get(player.id, 0) + amount)

    def b_reduce_debt(self, player: Entity, amount: int) -> None:
        """reduce_debt(P, x): P's debt falls by x (after paying x to the bank)."""
        if not 0 <= amount <= self.b_debt(player):
            raise IllegalAction(f"{player} owes {self.money(self.b_debt(player))}, not {self.money(amount)}")
        self.j.set(self.debts, player.id, self.debts.get(player.id, 0) - amount)

    def b_check_president(self, corp: Entity) -> None:
        self._check_president(corp)

    def b_check_float(self, corp: Entity) -> None:
        """check_float(C): C floats if players now hold its float percentage."""
        self._check_float(corp)

    def b_set_revenue(self, corp: Entity, amount: int) -> None:
        """set_revenue(C, x): C's trains earned x this turn (a declared `longer_trains` run is spent)."""
        if self._armed(corp, "longer_trains"):
            self._disarm(corp)
        self.j.set(self.corp[corp.id], "revenue", amount)
        self.j.set(self.g, "total_revenue", self.g["total_revenue"] + amount)

    def b_route_revenue(self, corp: Entity, routes: list[dict], check_stated: bool = True) -> int:
        """Revenue of declared routes: each {"train", "stops": [values]}, or on a map {"train",
        "connections" | "nodes"}, checked and counted by the rules; where the routes each state a
        `revenue` (as 18xx.games logs do), their sum must be the rules' count (IllegalAction otherwise).

        Until a title has a map, a route is declared as its revenue stops;
        each train runs once, visits at most its distance, and its
        `multiplier` (2 for a doubled train) applies.
        """
        if self.board is not None:
            owned = self._train_dicts(corp)
            for route in routes:
                if route.get("train") not in owned:
                    raise IllegalAction(f"{corp} does not own train {route.get('train')}")
            found = track.route_revenue(self.board, corp.id, routes, self.g["phase"], trains=owned,
                                        extras=self._route_extras(corp))
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

    def b_recorded_revenue(self, corp: Entity, routes: list[dict]) -> int:
        """recorded_revenue(C, routes): what the routes' records say they earn (each route's `revenue`, as
        18xx.games writes it: its engine takes the number its client sent), once the routes are checked as
        route_revenue checks them; the rules' count where a route has no record. A record that differs from
        the rules' count stands, and the difference is kept (`revenue_notes`, which a replay reports)."""
        counted = self.b_route_revenue(corp, routes, check_stated=False)
        if not routes or not all(isinstance(r.get("revenue"), int) and not isinstance(r.get("revenue"), bool)
                                 for r in routes):
            return counted
        recorded = sum(int(r["revenue"]) for r in routes)
        if recorded != counted:
            notes = list(self.g.get("revenue_notes", ()))
            for r in routes:
                own = self.b_route_revenue(corp, [r], check_stated=False)
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

    def b_end_step(self, corp: Entity) -> None:
        if self.g["step"] == "track_and_token":
            # a combined step ends when its station token is placed and its tile lays are used
            self._mark_done_this_turn("token")
            if self.g.get("lays", 0) < len(self._lay_slots()):
                return
        self._next_step()

    def b_train_bought(self, corp: Entity, train: Train, from_bank: bool) -> None:
        if getattr(train, "side", None):
            self.j.set(self.g, "sides", {**self.g.get("sides", {}), train.id: train.side})
        if from_bank and "final_train" in self.param("game_end") and not self._available_train_ids() \
                and self.g["end_reason"] is None:
            # the last train is sold: the game ends after one more full set of operating rounds
            self.j.set(self.g, "end_reason", "final_train")
            self.j.set(self.g, "end_after_set", self.g["set"] + 1)
        if from_bank and self.DATA.component("train", train.name).get("moves_train_purchase_marker") is False:
            # a train sold beside the stack (1880's rebuilt 2-train): no marker, no phase, no export timer
            return
        if from_bank:
            self.j.set(self.g, "bank_buys", self.g["bank_buys"] + 1)
            if self.g["end_reason"] is None:
                # the marker stays put once the game's end is called (1880 VII.3.8)
                self.j.set(self.g, "train_marker", corp.id)
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

    def b_has_ability(self, company: Entity, ability: str) -> bool:
        """has_ability(X, "key"): whether X (a private or a corporation) has an ability of that key."""
        return any(a.get("kind") == "ability" and a.get("key") == str(ability) for a in company.get("children") or ())

    def b_ability_value(self, company: Entity, ability: str, field: str):
        """ability_value(X, "key", "field"): a field of X's ability of that key, in its own unit (money in
        currency units); RuleGap if the ability or the field is not given."""
        for a in company.get("children") or ():
            if a.get("kind") == "ability" and a.get("key") == str(ability) and a.get(str(field)) is not None:
                return self._value(a[str(field)], f"{company} {ability} {field}")
        raise RuleGap(f"{company} ability {ability}.{field}", "the rulespec does not give it")

    def b_close_private(self, item: Entity) -> None:
        """close_private(X): private X closes (no more income, no more ability)."""
        self.j.set(self.closed, item.id, True)
        self._drop_reservations(item)

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
        if name == "initial_offering":
            return IPO
        if name == "depot":
            return DEPOT
        if name == "scrap":
            return SCRAP
        if name == "players":
            return list(self.players)
        if name == "corporations":
            return list(self.corporations)
        if name == "privates":
            return list(self.privates)
        if name == "minors":
            return list(self.minors)
        if name == "bonds":
            return list(self.bonds)
        if name in self.DATA.properties:
            return self.param(name)
        for kind in ("corporation", "private", "bond"):
            found = self.by_id.get((kind, name))
            if found is not None:
                return found
        return name  # an enum value or zone name stands for itself

    # -- declared states (`state NAME: set[...]`): kept in the round state `g`, so the journal undoes them

    @staticmethod
    def _state_key(value: Any) -> Any:
        return value.id if isinstance(value, Entity) else value

    def state_has(self, name: str, *parts: Any) -> bool:
        """`NAME(a, b)` of a declared state: whether (a, b) is in it."""
        return tuple(self._state_key(p) for p in parts) in self.g.get(f"state:{name}", frozenset())

    def state_set(self, name: str, parts: tuple, present: bool) -> None:
        """`set NAME(a, b) = present`: (a, b) put in the declared state, or taken out."""
        key = f"state:{name}"
        element = tuple(self._state_key(p) for p in parts)
        held = self.g.get(key, frozenset())
        if (element in held) != bool(present):
            self.j.set(self.g, key, held | {element} if present else held - {element})

    def _reset_states(self, moment: str) -> None:
        """The declared states whose lifetime ends at `moment` (one of STATE_RESETS) are emptied."""
        for name, reset in self.STATES.items():
            if reset == moment and self.g.get(f"state:{name}"):
                self.j.set(self.g, f"state:{name}", frozenset())

    def attr(self, obj: Any, name: str):
        """`obj.name` in the DSL: an entity's state, then its static data."""
        if isinstance(obj, Entity):
            if obj.kind in ("corporation", "minor") and name in self.corp[obj.id]:
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
        if dataclasses.is_dataclass(obj) and name in {f.name for f in dataclasses.fields(obj)}:
            return getattr(obj, name)  # a runtime value: a lay (`lay.upgrade`), a station spot
        raise RuleGap(f"{obj}.{name}", "no such attribute")

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Entity) and obj.kind in ("corporation", "minor"):
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
        if "close" in self.market.zones_of(cell):
            self._close_corporation(corp)
            return
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
        needed = self._by_par_zone(corp, self._value(needed, f"corporation {corp} float"))
        needed = self._by_phase(needed, f"corporation {corp} float")
        if self.DATA.properties.get("float_counts") == "sold_from_treasury":
            # every certificate that has left the corporation's IPO counts, wherever it is now
            held = 100 - self.b_percent(self._ipo_of(corp), corp)
        else:
            held = sum(self.b_percent(p, corp) for p in self.players)
        if held >= needed:
            self.j.set(state, "floated", True)
            self._deliver_own_trains(corp)
            if self.DATA.properties.get("home_token_at") == "float":
                self.b_place_home_token(corp)
            self.emit("floated", corp)

    def _by_par_zone(self, corp: Entity, value):
        """A value that may be a map keyed by market zone (`float: {blue => 40%, purple => 50%}`): read at
        a zone of the cell the corporation was started in; any other value as it is."""
        if not isinstance(value, dict):
            return value
        par = self.corp[corp.id]["par"]
        cell = self.market.par_cell(par) if par is not None else None
        for zone in sorted(self.market.zones_of(cell)) if cell is not None else ():
            if zone in value:
                return value[zone]
        return value

    def _deliver_own_trains(self, corp: Entity) -> None:
        """A train whose component names an `owner` corporation and `delivered: float` goes to that
        corporation when it floats; the bank never sells it."""
        for tid in self.train_order:
            comp = self.DATA.component("train", self.trains[tid].name)
            if str(comp.get("owner")) == corp.id and comp.get("delivered") == "float" and self.owner[tid] is DEPOT:
                self.j.set(self.owner, tid, corp)

    def _by_phase(self, value, what: str):
        """A value that may be a map by phase: keyed by the current phase's
        name or by its `group` (1880's A, B, C, D)."""
        if not isinstance(value, dict):
            return value
        phase = self._phase()
        for key in (phase["key"], phase.get("group")):
            if key is not None and str(key) in value:
                return value[str(key)]
        raise RuleGap(what, f"no value for phase {phase['key']}")

    def _check_president(self, corp: Entity) -> None:
        """A player holding more than the president takes the presidency:
        he trades shares worth the president's certificate for it."""
        pres_cert = self.certs_of[corp.id][0]
        president = self.owner[pres_cert.id]
        if president is POOL and self._receivership_rules():
            self._end_receivership(corp, pres_cert)
            return
        if president.kind != "player":
            return
        found = self._presidency_challenger(corp, president, self.b_percent(president, corp))
        if found is None:
            return
        self._exchange_presidency(corp, president, *found)

    def _presidency_challenger(self, corp: Entity, president: Entity, best: int):
        """Who takes `corp`'s presidency from `president`, whose holding counts as `best` percent: the
        first player from his left holding more (ties go to the nearest), then corporations holding more
        where the title's `presidency_contenders` names them, in operating order (a corporation's own
        unsold shares never count); with the first set of his ordinary certificates worth the president's
        certificate that he gives for it. None when nobody does."""
        held = {p: self.b_percent(p, corp) for p in self.players}
        order = self._seating_from(president)
        challenger = None
        for p in order:
            if held[p] > best:
                best = held[p]
                challenger = p
        if "corporations" in (self.DATA.properties.get("presidency_contenders") or ()):
            for corp_holder in sorted((c for c in self.corporations if c != corp and not self.corp[c.id]["closed"]
                                       and self.corp[c.id]["cell"] is not None), key=self._operating_key):
                pct = self.b_percent(corp_holder, corp)
                if pct > best:
                    best, challenger = pct, corp_holder
        if challenger is None:
            return None
        given = self._exchange_given(corp, challenger)
        return None if given is None else (challenger, given)

    def b_can_hand_over_presidency(self, corp: Entity, player: Entity, sold: int) -> bool:
        """can_hand_over_presidency(C, P, n): P holds C's president's certificate, and were he to hold n percent
        less, a holder would take it from him (hand_over_presidency)."""
        if self.owner[self.certs_of[corp.id][0].id] != player:
            return False
        return self._presidency_challenger(corp, player, self.b_percent(player, corp) - int(sold)) is not None

    def b_hand_over_presidency(self, corp: Entity, player: Entity, sold: int) -> None:
        """hand_over_presidency(C, P, n): P, C's president, sells n percent of C, his president's certificate
        among it: the holder who then holds the most, more than P's n percent less (§4.5.2's order), takes
        the president's certificate and gives P certificates worth it (§4.5.3), which P may then sell.
        Refused when nobody would take it (the president's certificate is sold only so)."""
        pres_cert = self.certs_of[corp.id][0]
        if self.owner[pres_cert.id] != player:
            raise IllegalAction(f"{player} does not hold the president's certificate of {corp}")
        found = self._presidency_challenger(corp, player, self.b_percent(player, corp) - int(sold))
        if found is None:
            raise IllegalAction(f"selling {sold}% of {corp} would hand the presidency to nobody: no other holder "
                                "would hold more, with certificates worth the president's certificate")
        self._exchange_presidency(corp, player, *found)

    def _exchange_presidency(self, corp: Entity, president: Entity, challenger: Entity, given) -> None:
        """The challenger gives `given` (certificates worth the president's certificate) and takes it."""
        pres_cert = self.certs_of[corp.id][0]
        for cert in given:
            self.move(cert, challenger, president)
        self.move(pres_cert, president, challenger)
        self.emit("president_changed", corp, president, challenger)
        if (self.b_certificates(president) > self.param("cert_limit")
                and self._sanctioned("cert_limit", "take_over")):
            self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("cert_limit", president.id)})

    def _exchange_given(self, corp: Entity, challenger: Entity) -> tuple[Certificate, ...] | None:
        """The ordinary certificates a challenger gives for the president's certificate: the first set of
        `exchange_sets` he holds (the fewest, then the highest-numbered); where the title says
        `presidency_exchange: first_acquired`, the shares he came by first, where they make up its value."""
        if self.DATA.properties.get("presidency_exchange") == "first_acquired":
            pres = self.certs_of[corp.id][0]
            mine = sorted((c for c in self.certs_of[corp.id] if not c.president and self.owner[c.id] == challenger),
                          key=lambda c: (self.acquired.get(c.id, 0), c.index))
            group, total = [], 0
            for cert in mine:
                if total >= pres.percent:
                    break
                group.append(cert)
                total += cert.percent
            if total == pres.percent:
                return tuple(group)
        return next((group for group in exchange_sets(self.certs_of[corp.id])
                     if all(self.owner[cert.id] == challenger for cert in group)), None)

    # -- bankruptcy and receivership (generic: the title's `receivership_steps` and its bankrupt action say how)

    def _receivership_rules(self) -> bool:
        return bool(self._param_or("receivership_steps", None))

    def b_in_receivership(self, corp: Entity) -> bool:
        """in_receivership(C): C is started and open, and its president's certificate lies in the market (no
        player presides it); where the title has `receivership_steps`, the runtime operates it."""
        if not isinstance(corp, Entity) or corp.kind != "corporation" or not self._receivership_rules():
            return False
        if self.corp[corp.id]["closed"] or self.corp[corp.id]["par"] is None:
            return False
        return self.owner[self.certs_of[corp.id][0].id] is POOL

    def _end_receivership(self, corp: Entity, pres_cert: Certificate) -> None:
        """A president's certificate in the market goes to the player holding at least as much of the
        corporation as it is worth (the most; ties: seating order from the player on turn), who gives
        ordinary certificates worth as much to the market."""
        start = self.current_entity()
        order = self.players if not isinstance(start, Entity) or start.kind != "player" else \
            [start] + self._seating_from(start)
        best, taker = pres_cert.percent - 1, None
        for p in order:
            if p.id in self.g["out"]:
                continue
            held = self.b_percent(p, corp)
            if held > best:
                best, taker = held, p
        if taker is None:
            return
        need, given = pres_cert.percent, []
        for cert in sorted(self.certs_of[corp.id], key=lambda c: -c.index):
            if need <= 0:
                break
            if self.owner[cert.id] == taker and not cert.president and cert.percent <= need:
                given.append(cert)
                need -= cert.percent
        if need != 0:
            return
        if self.DATA.properties.get("presidency_exchange") == "first_acquired":
            given = list(self._exchange_given(corp, taker) or given)
        for cert in given:
            self.move(cert, taker, POOL)
        self.move(pres_cert, POOL, taker)
        self.emit("president_changed", corp, POOL, taker)

    def b_sell_out(self, player: Entity) -> None:
        """sell_out(P): a bankrupt player's certificates all go to the market, and P receives their price.
        Corporation by corporation: first the certificates he may sell by the usual rules (within the pool
        cap) as one sale, moving the price as a sale of his does; then the rest, even past the pool cap
        and the president's certificate, at the price then, which does not move. Each corporation then
        gets a new president (a player holding as much as the president's certificate) or, with none,
        operates in receivership. His privates and minors close. (18xx.games implementation of 1846's
        bankruptcy, the title's bankrupt action cites it.)"""
        for corp in self.corporations:
            if self.corp[corp.id]["closed"] or self.corp[corp.id]["cell"] is None:
                continue
            if not any(self.owner[c.id] == player for c in self.certs_of[corp.id]):
                continue
            normal, room = [], self.param("pool_cap") - self.b_percent(POOL, corp)
            for cert in self.b_sellable(player, corp):
                if cert.percent <= room:
                    normal.append(cert)
                    room -= cert.percent
            if normal:
                self.transfer(self.b_price(corp) * sum(c.percent for c in normal) // 10, BANK, player)
                for cert in normal:
                    self.move(cert, player, POOL)
                # the library's price drop, the sale naming no certificates (the runtime makes it)
                self.call("price_drop_on_sale", player, corp, [], len(normal))
                self.b_note_sold(player, corp)
                self.state_set("sold_this_round", (player, corp), True)  # the library's record of the round's sales
            if self.corp[corp.id]["closed"]:
                continue
            rest = [c for c in self.certs_of[corp.id] if self.owner[c.id] == player]
            if rest:
                self.transfer(self.b_price(corp) * sum(c.percent for c in rest) // 10, BANK, player)
                for cert in rest:
                    self.move(cert, player, POOL)
            if self.b_percent(POOL, corp) > self.param("pool_cap") and self._sanctioned("pool_cap", "sell_out"):
                # the title's `sanction pool_cap for ...` allows it until players buy the excess back
                self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("pool_cap", corp.id)})
            self._check_president(corp)
        for item in self.privates:
            if self.owner[item.id] == player and not self.closed[item.id]:
                self.b_close_private(item)
        for minor in self.minors:
            if self.owner[minor.id] == player:
                self._close_minor(minor)

    def b_leave_game(self, player: Entity) -> None:
        """leave_game(P): P is out of the game (bankrupt): he takes no more turns."""
        self.j.set(self.g, "out", self.g["out"] | {player.id})

    def b_players_in_game(self) -> int:
        """players_in_game(): the players not out of the game."""
        return sum(1 for p in self.players if p.id not in self.g["out"])

    def _receivership_action(self, corp: Entity) -> Action:
        """What a corporation in receivership does at its current step (the title's `receivership_steps`;
        any other step passes): runs its best routes, withholds, and buys the bank's cheapest train (the
        cheaper side of the card) when it has none and its cash pays for it."""
        who = {"entity": corp.id, "entity_type": "corporation"}
        step = self.g["step"]
        if step in self.param("receivership_steps"):
            if step == "run_routes":
                return self._route_candidates(corp, who)[0]
            if step == "dividend":
                return {"type": "dividend", **who, "kind": "withhold"}
            if step == "buy_train" and not self.b_trains(corp) and self._available_train_ids():
                tid = self._available_train_ids()[0]
                train = self.trains[tid]
                sides = [train.name, *self.train_sides.get(train.name, ())]
                side = min(sides, key=lambda name: self._train_side(train, name).price)
                price = self._train_side(train, side).price
                if self.cash[corp] >= price:
                    return {"type": "buy_train", **who, "train": tid, "price": price, "variant": side}
        return {"type": "pass", **who}

    def _sanctioned(self, invariant: str, step: str) -> bool:
        """Whether the title has a `sanction INVARIANT for X` clause where X is
        the action being played or the runtime step `step` inside it
        (`take_over`, `market_move`); the verifier accepts the same names."""
        action = self.g.get("current_action") or "end_stock_round"
        return any(f"sanction {invariant}/{name}" in self.DATA.rules for name in (action, step))

    def _sanction_excess(self, corp: Entity, step: str = "market_move") -> None:
        """A price leaving an exempt zone (or a company losing the card that exempted it) can put holders over
        a limit; where the title sanctions that (a `sanction` clause for the action now being played, or for
        the runtime step: `market_move`, `discard_cards`), the excess is recorded so the monitor allows it
        until settled."""
        for invariant in ("cert_limit", "holding_cap"):
            if not self._sanctioned(invariant, step):
                continue
            for player in self.players:
                over = (self.b_certificates(player) > self.param("cert_limit") if invariant == "cert_limit"
                        else self.b_percent(player, corp) > self.param("holding_cap"))
                if over:
                    self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {(invariant, player.id)})

    def _settle_sanctions(self) -> None:
        """A sanctioned excess ends once the holder is back within the limit."""
        def settled(name: str, pid: str) -> bool:
            player = self.entity("player", pid) if name != "pool_cap" else None
            if name == "cert_limit":
                return self.b_certificates(player) <= self.param("cert_limit")
            if name == "holding_cap":
                return all(self.b_percent(player, c) <= self.param("holding_cap")
                           or "unlimited_holding" in self.b_zones(c) for c in self.corporations)
            if name == "pool_cap":
                return self.b_percent(POOL, self.entity("corporation", pid)) <= self.param("pool_cap")
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
        if "train_sold_out" in self._param_or("stock_round_when", ["after_set"]):
            return 0  # no sets: operating rounds run on until a train type sells out
        return int(resolve_value(f"phase {phase['key']} operating_rounds", phase.get("operating_rounds"), players=getattr(self, "n", None)))

    def _available_train_ids(self) -> list[str]:
        """Trains the depot sells now: the next in supply order, any train
        whose `available_after` names a train type (or types) sold out, and
        any train whose `available_from` phase has come (1880's rebuilt
        2-trains, sold beside the stack). A train a corporation owns from
        the start (`owner`) is never sold."""
        in_depot = [tid for tid in self.train_order if self.owner[tid] is DEPOT
                    and self.DATA.component("train", self.trains[tid].name).get("owner") is None]
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
            since = comp.get("available_from")
            # `available_after`: a train type, or a list of types that must all be sold out
            after_all = [str(a) for a in after] if isinstance(after, (list, tuple)) else [str(after)]
            if tid == first or (after is not None and all(a in sold_out for a in after_all)) or (
                    isinstance(since, str) and self.b_phase_at_least(since)):
                if train.name not in seen_names:
                    out.append(tid)
                    seen_names.add(train.name)
        return out

    def _on_first_train(self, train: Train) -> None:
        # trains rust before the new phase checks the train limits
        for name, comp in ((c["key"], c) for c in self.DATA.components_of("train")):
            obsolete = comp.get("obsolete_on")
            if obsolete is not None and self._rusts_on(obsolete, train.name):
                self.j.set(self.g, "obsolete", self.g.get("obsolete", frozenset()) | {name})
            rusts = comp.get("rusts_on")
            if rusts is not None and self._rusts_on(rusts, train.name):
                for tid, t in self.trains.items():
                    if t.name == name and self.owner[tid] not in (DEPOT, SCRAP):
                        self.j.set(self.owner, tid, SCRAP)
                    elif t.name == name and self.owner[tid] is DEPOT:
                        self.j.set(self.owner, tid, SCRAP)
        for phase in self.phases:
            triggers = phase.get("on_train")
            names = triggers if isinstance(triggers, list) else [triggers]
            if train.name in [str(n) for n in names if n is not None] and self._phase_index(phase["key"]) > self._phase_index(self.g["phase"]):
                self._enter_phase(phase)
                break
        self.emit("first_train", train)

    def _rusts_on(self, rusts, name: str) -> bool:
        if isinstance(rusts, list):
            return name in [str(r) for r in rusts]
        return str(rusts) == name

    def _phase_index(self, key: str) -> int:
        return [p["key"] for p in self.phases].index(key)

    def _enter_phase(self, phase: dict) -> None:
        self.j.set(self.g, "phase", phase["key"])
        self._new_subsidy_pool()
        for event in phase.get("events", []) or []:
            self.emit(str(event))
        self.emit("phase_start", phase["key"])
        for company in self.privates:
            self._owe_ability_decisions(company, "phase_start", str(phase["key"]))  # `when: phase_start`
        for corp in self.corporations:
            if self.b_limit_trains(corp) > self.b_train_limit(corp):
                self.b_require_decision(corp, "discard_train")

    # pending decisions: an entity out of turn must act before play goes on

    def _declinable_pending(self) -> bool:
        """Whether the first pending decision is of an action the title lists in `declinable_decisions`:
        its owner may then `pass` instead, which takes the decision without doing it."""
        pending = self.g.get("pending")
        return bool(pending) and pending[0][2] in [str(a) for a in self.DATA.properties.get("declinable_decisions") or ()]

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
        if not pending and self.g.get("after_decisions") == "operating_round_end":
            # the decisions asked at the end of an operating round are taken: play goes on
            self.j.set(self.g, "after_decisions", None)
            self._after_operating_round()
        elif not pending and self.g.get("after_decisions") == "operating_order_set":
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

    # ------------------------------------------------------------ bank broken, game end

    def _bank_broken(self) -> None:
        self.j.set(self.g, "broken", True)
        if "bank_broken" in self.param("game_end"):
            self.j.set(self.g, "end_reason", "bank_broken")

    def b_end_game_now(self, reason: str) -> None:
        """end_game_now(reason): the game ends at once (a bankruptcy where the title says so)."""
        if not self._end_in_motion():
            self.j.set(self.g, "end_reason", str(reason))
        self._end_game()

    def _end_in_motion(self) -> bool:
        """Whether an end condition has been met and the game ends at its time (the last train
        bought, the bank broken). `final_train` is not one: it only counts the sets still to play."""
        return self.g["end_reason"] not in (None, "final_train")

    def _close_corporation(self, corp: Entity, keep_stations: bool = False) -> None:
        """A corporation closes (its price reached a `close` cell): its certificates are void, its cash
        goes to the bank, its trains leave the game, its stations leave the map (unless `keep_stations`:
        a takeover's owner still chooses which to replace), its privates close."""
        if self.corp[corp.id]["closed"]:
            return
        self.j.set(self.corp[corp.id], "closed", True)
        if self.DATA.properties.get("held_shares_on_close") == "pool":
            # the title's `held_shares_on_close: pool`: other corporations' certificates it holds go to the
            # market (18 Grand Junction, Cleveland Graham)
            for cert in self.certificates.values():
                if self.owner[cert.id] == corp and cert.corporation != corp.id:
                    self.j.set(self.owner, cert.id, POOL)
        for cert in self.certs_of[corp.id]:
            self.j.set(self.owner, cert.id, SCRAP)
        self.transfer(self.cash[corp], corp, BANK)
        for t in self.b_trains(corp):
            self.j.set(self.owner, t.id, SCRAP)
        for item in self.privates:
            if self.owner[item.id] == corp:
                self.j.set(self.closed, item.id, True)
        if not keep_stations:
            self._remove_stations(corp)
        cell = self.corp[corp.id]["cell"]
        if cell is not None and corp.id in self.stacks.get(cell, []):
            self.j.remove(self.stacks[cell], corp.id)
        self.emit("corporation_closed", corp)
        if self._sanctioned("cert_limit", "corporation_closed"):
            # fewer companies lower the limit; a holder left over it sells down later (the title's sanction)
            for player in self.players:
                if self.b_certificates(player) > self.param("cert_limit"):
                    self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("cert_limit", player.id)})
        started = [c for c in self.corporations if self.corp[c.id]["par"] is not None]
        # every corporation closed; one of a tier not yet available (`b_available`) cannot be started before
        # some other buys a train, so it counts as closed too
        if "all_closed" in self.param("game_end") and started and all(self.corp[c.id]["closed"] for c in started) \
                and all(self.corp[c.id]["closed"] or not self.b_available(c) for c in self.corporations):
            self.b_end_game_now("all_closed")

    def _end_game(self) -> None:
        self.j.set(self.g, "finished", True)
        self.j.set(self.g, "round", "finished")

    @property
    def finished(self) -> bool:
        return self.g["finished"]

    def player_value(self, player: Entity) -> int:
        """Cash, plus shares at market price, plus each held item's end value."""
        total = self.cash[player] - self.debts.get(player.id, 0)
        for corp in self.corporations:
            pct = self.b_percent(player, corp)
            if pct and self.corp[corp.id]["cell"] is not None:
                total += self.b_price(corp) * pct // 10
        for item in self.privates + self.bonds + self.minors:
            if self.owner[item.id] == player and not self.b_closed(item):
                share = item.get("end_share_of_cash")
                if share is not None:
                    # worth a part of its own cash to its owner (1880 IX.2: 20% of an investor's capital)
                    total += self.cash[item] * int(self._value(share, f"{item.kind} {item.id} end_share_of_cash")) // 100
                    continue
                value = item.get("end_value", self.DATA.properties.get(f"{item.kind}_value_at_end"))
                if value is None:
                    raise RuleGap(f"{item.kind} {item.id} end_value", "its worth at the game's end is not given")
                if value == "face":  # the item's printed cost
                    value = item.get("cost")
                total += self._value(value, f"{item.kind} {item.id} end_value")
        return total

    def result(self) -> dict[str, int]:
        return {p.id: self.player_value(p) for p in self.players}

    # ------------------------------------------------------------ rounds: the draft

    def _draft(self) -> dict:
        comps = self.DATA.components_of("draft")
        if not comps:
            raise RuleGap("draft", "first_round is draft but the title has no draft component")
        return comps[0]

    def _draft_rule(self) -> str | None:
        return self.DATA.rules.get(f"draft {self._draft()['key']}")

    def _start_draft(self) -> None:
        """The draft of privates and minors (first_round: draft): a shuffled deck of the companies in
        play and `pass_cards_per_player` Pass cards per player; players in the draft's `order`."""
        draft = self._draft()
        items = [p.id for p in self.privates if not self.closed[p.id]] + [m.id for m in self.minors]
        passes = int(self._value(draft.get("pass_cards_per_player", 0), "draft pass_cards_per_player")) * self.n
        cards = items + [f"Pass ({i + 1})" for i in range(passes)]
        self.rng.shuffle(cards)
        self.j.set(self.g, "draft", {"deck": tuple(cards), "choices": (), "discount": 0})
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "draft")
        self.j.set(self.g, "turn", self.n - 1 if draft.get("order") == "reverse" else 0)

    def _hand_size(self) -> int:
        return self.n + int(self._value(self._draft().get("hand_size_over_players", 0), "draft hand_size_over_players"))

    @staticmethod
    def _blank(card: str) -> bool:
        return card.startswith("Pass (")

    def b_draft_hand(self) -> list[str]:
        """draft_hand(): the ids of the cards the player on turn in the draft chooses from."""
        deck = self.g["draft"]["deck"]
        return list(deck[: self._hand_size()])

    def b_in_draft_hand(self, company: Any) -> bool:
        """in_draft_hand(X): whether company (or Pass card) X is among the cards drawn for this pick
        (anywhere in the deck when replaying another engine's log, whose draws are hidden)."""
        cards = self.g["draft"]["deck"] if self.b_replaying() else self.b_draft_hand()
        return self.g["round"] == "draft" and getattr(company, "id", str(company)) in cards

    def b_face_value(self, item: Any) -> int:
        """face_value(X): the value printed on private or minor X (its `cost`); $0 for a draft's Pass card."""
        item = self._company(item)
        return 0 if item.kind == "card" else int(self._value(item.get("cost"), f"{item.kind} {item} cost"))

    def b_replaying(self) -> bool:
        """replaying(): whether the game replays a log from another engine, whose hidden random draws it cannot reproduce."""
        return bool(self.log_hints)

    def _only_one_left(self) -> bool:
        deck = self.g["draft"]["deck"]
        return len(deck) == 1 and not self._blank(deck[0])

    def _draft_finished(self) -> bool:
        deck = self.g["draft"]["deck"]
        return not deck or (len(deck) < self._hand_size() and all(self._blank(c) for c in deck))

    def _company_price(self, item: Entity) -> int:
        """A company's draft price before discount: a minor's `draft_price`, else its cost."""
        if item.kind == "card":
            return 0
        value = item.get("draft_price") if item.kind == "minor" else item.get("cost")
        return int(self._value(value, f"{item.kind} {item} price"))

    def _draft_floor(self, item: Entity) -> int:
        """The least a last company's draft price falls to: the company's property that the draft's
        `last_company_floor` names (a minor's `treasury`, 1846's `draft_floor`), $0 where it has none."""
        name = self._draft().get("last_company_floor")
        if name is None or item.kind == "card" or item.get(str(name)) is None:
            return 0
        return int(self._value(item.get(str(name)), f"{item.kind} {item} {name}"))

    def b_draft_price(self, company: Entity) -> int:
        """draft_price(X): what company X costs in the draft now (less the discounts on a last company)."""
        discount = self.g["draft"]["discount"] if self._only_one_left() else 0
        return max(self._draft_floor(company), self._company_price(company) - discount)

    def b_draft_committed(self, player: Entity) -> int:
        """draft_committed(P): what P's picks so far will cost when the draft ends."""
        return sum(price for pid, _, price in self.g["draft"]["choices"] if pid == player.id)

    def b_draft_pick(self, player: Entity, company: Entity) -> None:
        """draft_pick(P, X): P keeps card X; the rest of the hand goes, shuffled, to the bottom of the deck."""
        draft = dict(self.g["draft"])
        hand = self.b_draft_hand()
        price = self.b_draft_price(company)
        if self._draft().get("paid_at") == "pick" and not self._blank(company.id):
            # paid for and owned at once (the choice then owes nothing at the draft's end)
            self._take_drafted(player, company, price)
            price = 0
        draft["choices"] = draft["choices"] + ((player.id, company.id, price),)
        if self._only_one_left():
            draft["deck"] = ()
        else:
            rest = [c for c in hand if c != company.id]
            self.rng.shuffle(rest)
            draft["deck"] = tuple(c for c in draft["deck"][len(hand):] if c != company.id) + tuple(rest)
        self.j.set(self.g, "draft", draft)
        self._draft_next()

    def _draft_next(self) -> None:
        if self._draft_finished():
            self._end_draft()
            return
        step = -1 if self._draft().get("order") == "reverse" else 1
        self.j.set(self.g, "turn", (self.g["turn"] + step) % self.n)

    def _draft_pass(self, player: Entity) -> None:
        """A pass is allowed only on a last company: its price falls by the draft's
        `last_company_discount`; at its floor the player then on turn takes it."""
        if not self._only_one_left():
            raise IllegalAction("in the draft a player must take one of the cards drawn; only the last company may be declined",
                                rule=self._draft_rule())
        item = self._company(self.g["draft"]["deck"][0])
        step = int(self._value(self._draft().get("last_company_discount"), "draft last_company_discount"))
        draft = dict(self.g["draft"])
        draft["discount"] = draft["discount"] + step
        self.j.set(self.g, "draft", draft)
        self._draft_next()
        if self.g["round"] == "draft" and self.b_draft_price(item) == self._draft_floor(item):
            self.b_draft_pick(self.players[self.g["turn"]], item)

    def _end_draft(self) -> None:
        """The draft ends: each player pays for the companies he kept; a minor gets its treasury."""
        for pid, cid, price in self.g["draft"]["choices"]:
            if self._blank(cid) or self.owner[self._company(cid).id] is not BANK:
                continue  # a Pass card; a company paid for when picked
            self._take_drafted(self.entity("player", pid), self._company(cid), price)
        self.j.set(self.g, "draft", {"deck": (), "choices": self.g["draft"]["choices"], "discount": 0})
        self._start_stock_round(0)

    def _take_drafted(self, player: Entity, item: Entity, price: int) -> None:
        """The drafter pays for a company he keeps and owns it; a minor gets its treasury and starts."""
        self.transfer(price, player, BANK)
        self.move(item, BANK, player)
        if item.kind == "minor":
            self.transfer(int(self._value(item.get("treasury"), f"minor {item} treasury")), BANK, item)
            self._start_minor(item)

    def _company(self, key: Any) -> Entity:
        """A private, a minor, or (in a draft) a Pass card, by id."""
        if isinstance(key, Entity):
            return key
        for kind in ("private", "minor", *{x.kind for x in self.pickables}):
            found = self.by_id.get((kind, str(key)))
            if found is not None:
                return found
        if self._blank(str(key)):
            return Entity("card", str(key), str(key))
        raise IllegalAction(f"there is no company {key!r}")

    # ------------------------------------------------------------ rounds: the opening auction

    def _start_auction(self) -> None:
        """The opening auction (first_round: auction): the privates in play are auctioned one at a time
        in the order the title lists them; the priority holder opens the first auction and the next
        player in seating order each further one (`auction_opener: rotating`)."""
        opener = self.param("auction_opener")
        if opener != "rotating":
            raise RuleGap("auction_opener", f"the opener {opener!r} is not built; only rotating is")
        missing = unbuilt("auction_pass_final", bool(self.param("auction_pass_final")))
        if missing is not None:
            raise RuleGap(missing.param, missing.why)
        queue = tuple(p.id for p in self.privates if not self.closed[p.id])
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "auction")
        self.j.set(self.g, "starting", {"queue": queue, "auctions": 0, "high": None, "passed": frozenset(),
                                        "picks": None, "picked": frozenset()})
        if queue:
            self._open_auction()
        else:
            self._end_auction()

    def _open_auction(self) -> None:
        """A new auction of the first private in the queue, opened by the next opener."""
        st = dict(self.g["starting"])
        if st.get("repeat_at") is not None and st["repeat_at"] == st["auctions"]:
            st["auctions"] -= 1  # the previous opener opens again (auction_all_pass_first: discount)
            del st["repeat_at"]
        opener = (self.g["priority"] + st["auctions"]) % self.n
        st.update(auctions=st["auctions"] + 1, high=None, passed=frozenset())
        self.j.set(self.g, "starting", st)
        self.j.set(self.g, "turn", opener)

    # the open auction (first_round: open_auction): every private open to bids at once

    def _start_open_auction(self) -> None:
        """The opening auction in which every private in play takes bids at once: in seating order from the
        priority holder, each player bids, raises or moves a bid (the title's `bid` and `move_bid`
        actions, whose guards state the rules), or passes; a pass does not bar later bids. The money of a
        player's bids is set aside (`free_cash`). When all pass in succession the auction ends
        (`_end_open_auction`)."""
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "auction")
        self.j.set(self.g, "starting", {"open": True, "queue": (), "auctions": 0, "high": None,
                                        "passed": frozenset(), "picks": None, "picked": frozenset(),
                                        "passes": 0, "last_bidder": None})
        self.j.set(self.g, "bids", ())
        self.j.set(self.g, "turn", self.g["priority"])

    def _open_auction_on(self) -> bool:
        st = self.g.get("starting")
        return self.g["round"] == "auction" and bool(st) and bool(st.get("open"))

    def b_own_bid(self, player: Entity, item: Entity) -> int:
        """own_bid(P, X): the amount of P's standing bid on private X, or 0."""
        return max((a for x, pid, a in self.g.get("bids", ()) if x == item.id and pid == player.id), default=0)

    def b_open_bid(self, player: Entity, item: Entity, amount: int) -> None:
        """open_bid(P, X, n): in the open auction, P's bid on X becomes n (a new bid, or P's raised bid);
        the money is set aside and the turn passes on."""
        self._set_open_bid(player, None, item, amount)

    def b_move_bid(self, player: Entity, old: Entity, item: Entity, amount: int) -> None:
        """move_bid(P, Y, X, n): in the open auction, P's bid on Y is withdrawn and P bids n on X."""
        self._set_open_bid(player, old, item, amount)

    def _set_open_bid(self, player: Entity, old: Entity | None, item: Entity, amount: int) -> None:
        drop = {item.id} | ({old.id} if old is not None else set())
        bids = tuple(b for b in self.g.get("bids", ()) if not (b[0] in drop and b[1] == player.id))
        self.j.set(self.g, "bids", bids + ((item.id, player.id, amount),))
        st = dict(self.g["starting"])
        st.update(passes=0, last_bidder=self.players.index(player),
                  pass_order=tuple(p for p in st.get("pass_order", ()) if p != player.id))
        self.j.set(self.g, "starting", st)
        self.j.set(self.g, "turn", (self.g["turn"] + 1) % self.n)

    def _open_auction_pass(self, player: Entity) -> None:
        st = dict(self.g["starting"])
        st["passes"] += 1
        if player.id not in st.get("pass_order", ()):
            # the order in which players began passing (a bid takes a player out of it)
            st["pass_order"] = st.get("pass_order", ()) + (player.id,)
        self.j.set(self.g, "starting", st)
        if st["passes"] >= self.n:
            self._end_open_auction()
            return
        self.j.set(self.g, "turn", (self.g["turn"] + 1) % self.n)

    def _end_open_auction(self) -> None:
        """All passed in succession: each private goes to its highest bidder, who pays the bank; a private
        without a bid goes to the bank pool (the market); the priority deal goes to the player after the
        last to place or raise a bid; then the first stock round."""
        bids = self.g.get("bids", ())
        for item in self.privates:
            if self.closed[item.id] or self.owner[item.id] is not BANK or not self._in_play_pickable(item):
                continue
            mine = [b for b in bids if b[0] == item.id]
            if mine:
                _, pid, amount = max(mine, key=lambda b: b[2])
                player = self.entity("player", pid)
                self.transfer(amount, player, BANK)
                self.move(item, BANK, player)
                self._grant(player, item)
            else:
                self.move(item, BANK, POOL)
        self.j.set(self.g, "bids", ())
        last = self.g["starting"]["last_bidder"]
        if self._param_or("seating_after_auction", "unchanged") == "passing_order":
            # the players take their seats in the order they began passing, the first with the priority deal
            order = [self.entity("player", pid) for pid in self.g["starting"].get("pass_order", ())]
            self._reseat(order + [p for p in self.players if p not in order])
            self.j.set(self.g, "priority", 0)
        elif last is not None:
            self.j.set(self.g, "priority", (last + 1) % self.n)
        self._end_starting_round()

    def _starting_rule(self, name: str) -> str | None:
        return self.DATA.rules.get(f"property {name}")

    def b_auction_bid(self, player: Entity, amount: int) -> None:
        """auction_bid(P, n): in the opening auction, P bids n for the private on auction (the new high bid)."""
        st = dict(self.g["starting"])
        st["high"] = (player.id, amount)
        self.j.set(self.g, "starting", st)
        self._next_bidder_in_auction()

    def b_auction_discount(self, item: Entity) -> int:
        """auction_discount(X): how far the opening bid on X has fallen because everyone passed on it
        (`auction_all_pass_first: discount`); 0 otherwise."""
        st = self.g.get("starting") or {}
        queue = st.get("queue") or ()
        return int(st.get("discount", 0)) if queue and queue[0] == item.id else 0

    def b_auction_passed(self, player: Entity) -> bool:
        """auction_passed(P): P has passed in the opening auction under way and may not bid in it again."""
        st = self.g.get("starting")
        return bool(st) and self.g["round"] == "auction" and st["picks"] is None and player.id in st["passed"]

    def _next_bidder_in_auction(self) -> None:
        """The turn goes to the next player in seating order who has not passed; when that is the high
        bidder, every other player has passed and the high bidder wins."""
        st = self.g["starting"]
        for step in range(1, self.n + 1):
            index = (self.g["turn"] + step) % self.n
            pid = self.players[index].id
            if pid in st["passed"]:
                continue
            if st["high"] is not None and pid == st["high"][0]:
                self._auction_sold(self.entity("player", pid), st["high"][1])
                return
            self.j.set(self.g, "turn", index)
            return
        self._all_passed()

    def _opening_auction_pass(self, player: Entity) -> None:
        st = dict(self.g["starting"])
        st["passed"] = st["passed"] | {player.id}
        self.j.set(self.g, "starting", st)
        if len(st["passed"]) >= self.n:
            self._all_passed()
            return
        self._next_bidder_in_auction()

    def _all_passed(self) -> None:
        """Nobody bid: on the title's first private, `auction_all_pass_first` (random_free: it goes to a
        player drawn at random for nothing); on a later one, `auction_all_pass` (private_income: the privates
        already owned pay their income, and the same private is auctioned again)."""
        st = self.g["starting"]
        first = next((p.id for p in self.privates if not self.closed[p.id]), None)
        if st["queue"][0] == first:
            effect = self.param("auction_all_pass_first")
            if effect == "discount":
                # its opening bid falls by the minimum raise and the same opener offers it again; at nothing,
                # the opener takes it for free and the next auction is opened two seats on (18xx.games'
                # G1880 SelectionAuction#all_passed!, then its process_pass moves on once more)
                item = self.entity("private", st["queue"][0])
                st = dict(st)
                st["discount"] = st.get("discount", 0) + int(self.DATA.properties.get("min_bid_raise", 5))
                st.update(high=None, passed=frozenset())
                self.j.set(self.g, "starting", st)
                if int(self._value(item.get("cost"), f"private {item} cost")) - st["discount"] <= 0:
                    opener = self.players[(self.g["priority"] + st["auctions"] - 1) % self.n]
                    st = dict(st)
                    st["auctions"] += 1                    # the next auction two seats on ...
                    st["repeat_at"] = st["auctions"] + 1   # ... and the one after it by the same player
                    st["discount"] = 0
                    self.j.set(self.g, "starting", st)
                    self._auction_sold(opener, 0)
                    return
                self.j.set(self.g, "turn", (self.g["priority"] + st["auctions"] - 1) % self.n)
                return
            if effect != "random_free":
                raise RuleGap("auction_all_pass_first", f"{effect!r} is not built; only random_free and discount are")
            self._auction_sold(self.rng.choice(self.players), 0)
            return
        effect = self.param("auction_all_pass")
        if effect != "private_income":
            raise RuleGap("auction_all_pass", f"{effect!r} is not built; only private_income is")
        self.emit("operating_round_start")  # the event the privates' income is paid on
        self._open_auction()

    def _auction_sold(self, player: Entity, amount: int) -> None:
        """The private on auction goes to `player` for `amount`, paid to the bank; the next auction opens."""
        st = dict(self.g["starting"])
        item = self.entity("private", st["queue"][0])
        self.transfer(amount, player, BANK)
        self.move(item, BANK, player)
        self._grant(player, item)
        st["queue"] = st["queue"][1:]
        self.j.set(self.g, "starting", st)
        if st["queue"]:
            self._open_auction()
        else:
            self._end_auction()

    def _end_auction(self) -> None:
        """All privates sold: the seating is fixed anew (`seating_after_auction`), then the free pick
        (`free_pick`), then the first stock round."""
        seating = self.param("seating_after_auction")
        if seating == "cash_ascending":
            start = self.g["priority"]
            provisional = self.players[start:] + self.players[:start]
            self._reseat(sorted(provisional, key=lambda p: self.cash[p]))  # sorted() is stable: ties keep their order
            self.j.set(self.g, "priority", 0)
        elif seating != "unchanged":
            missing = unbuilt("seating_after_auction", seating)
            raise RuleGap("seating_after_auction", missing.why if missing else f"{seating!r} is not built")
        if self.pickables:
            st = dict(self.g["starting"])
            st["picks"] = tuple(x.id for x in self.pickables if self._in_play_pickable(x))
            st.update(high=None, passed=frozenset())
            self.j.set(self.g, "starting", st)
            self.j.set(self.g, "turn", self.g["priority"])
            if st["picks"]:
                return
        self._end_starting_round()

    def _in_play_pickable(self, item: Entity) -> bool:
        return item.id not in self.g.get("removed", ())

    def _reseat(self, order: list[Entity]) -> None:
        """The players take their seats in `order` (journaled: a refused action puts them back)."""
        old = list(self.players)
        self.j.on_rollback(lambda: self.players.__setitem__(slice(None), old))
        self.players[:] = order

    def b_picking(self) -> bool:
        """picking(): whether the players are picking the components of `free_pick` after the opening auction."""
        st = self.g.get("starting")
        return self.g["round"] == "auction" and bool(st) and st["picks"] is not None

    def b_pickable(self, item: Any) -> bool:
        """pickable(X): X is one of the `free_pick` components still on offer."""
        return self.b_picking() and isinstance(item, Entity) and item.id in self.g["starting"]["picks"]

    def b_pick(self, player: Entity, item: Entity) -> None:
        """pick(P, X): P takes X for free; once every player has picked, the rest leave the game."""
        st = dict(self.g["starting"])
        self.move(item, BANK, player)
        if item.kind == "minor":
            # a picked minor operates from now on, from its home station (1880 V.2, II.3.2)
            self._start_minor(item)
            if item.get("home") is not None and self.board is not None:
                self.b_place_home_token(item)
        st["picks"] = tuple(x for x in st["picks"] if x != item.id)
        st["picked"] = st["picked"] | {player.id}
        self.j.set(self.g, "starting", st)
        if len(st["picked"]) >= self.n or not st["picks"]:
            self.j.set(self.g, "removed", self.g.get("removed", ()) + st["picks"])
            for left in st["picks"]:
                if ("minor", left) in self.by_id:
                    self.j.set(self.corp[left], "closed", True)
            self._end_starting_round()
            return
        self.j.set(self.g, "turn", (self.g["turn"] + 1) % self.n)

    def _end_starting_round(self) -> None:
        st = dict(self.g["starting"])
        st.update(queue=(), high=None, passed=frozenset(), picks=None)
        self.j.set(self.g, "starting", st)
        self._start_stock_round(self.g["priority"])

    def _starting_pass(self, player: Entity) -> None:
        if self._open_auction_on():
            self._open_auction_pass(player)
            return
        if self.b_picking():
            raise IllegalAction(f"each player selects one {self.DATA.properties.get('free_pick')}; {player} may not pass",
                                rule=self._starting_rule("free_pick"))
        self._opening_auction_pass(player)

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
        if self.g["round"] == "draft":
            locked += self.b_draft_committed(player)
        return self.cash[player] - locked

    def b_highest_bid(self, item: Entity) -> int:
        """highest_bid(X): the highest bid on private X, or 0."""
        if self.g["round"] == "auction" and not self._open_auction_on():
            high = self.g["starting"]["high"]
            return high[1] if high is not None and self.b_auction_company() == item else 0
        if self.g.get("auction") and self.g["auction"]["company"] == item.id:
            return self.g["auction"]["high"][1]
        return max((a for x, _, a in self.g.get("bids", ()) if x == item.id), default=0)

    def b_in_auction(self) -> bool:
        """in_auction(): whether an auction among a private's bidders is under way."""
        return bool(self.g.get("auction"))

    def b_auction_company(self) -> Entity | None:
        """auction_company(): the private being auctioned."""
        if self.g["round"] == "auction":
            queue = self.g["starting"]["queue"]
            return self.entity("private", queue[0]) if queue and not self.b_picking() else None
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
        """The certificate private `item` gives its buyer `player` (its or an ability's `grants` record):
        - `(corporation: C, percent: 10%)`: one of C's ordinary certificates of that size from its treasury;
        - `(corporations: [C, D, ...], percent: 10%)`: the same from one of them drawn at random (among those
          that still hold such a certificate), with the game's seeded random draws; replaying another
          engine's log, the draw is among those whose certificate the log shows gone from the start
          (`sitelog.hints`), where it shows any;
        - `(corporation: C, president: true, par: $75)`: C's president's certificate; an unstarted C is
          started at that par price (no money moves: the certificate comes with the private).
        An ability with `president_of: C` makes the buyer owe the decision to found C (a pending `par`: the
        title's `par` hands over the president's certificate)."""
        for child in item.get("children", []) or []:
            if child.get("president_of") is not None:
                self.b_require_decision(player, "par")
        grant = item.get("grants")
        for child in item.get("children", []) or []:
            grant = grant or child.get("grants")
        if not isinstance(grant, dict):
            return
        if grant.get("president"):
            corp = self.entity("corporation", grant["corporation"])
            cert = self.certs_of[corp.id][0]
            if not cert.president or self.owner[cert.id] != self._ipo_of(corp):
                return
            if not self.b_started(corp) and grant.get("par") is not None:
                self.b_set_par(corp, int(self._value(grant["par"], f"{item} grants par")))
            self.move(cert, self._ipo_of(corp), player)  # its holder presides: nobody else holds any of it yet
            return
        want = int(grant["percent"])

        def ordinary(corp: Entity) -> Certificate | None:
            # the first of its kind in the IPO, as a purchase from the IPO would take it
            return next((c for c in self.certs_of[corp.id]
                         if not c.president and c.percent == want and self.owner[c.id] == self._ipo_of(corp)), None)

        if grant.get("corporations"):
            pool = [self.entity("corporation", str(k)) for k in grant["corporations"]]
            pool = [c for c in pool if not self.corp[c.id]["closed"] and ordinary(c) is not None]
            if not pool:
                return
            shown = [c for c in pool if ordinary(c).id in self.log_hints]
            pool = shown or pool
            corp = pool[self.rng.randrange(len(pool))]
        else:
            corp = self.entity("corporation", grant["corporation"])
        cert = ordinary(corp)
        if cert is not None:
            self.move(cert, self._ipo_of(corp), player)
            self.j.set(self.g, "granted", self.g.get("granted", frozenset()) | {cert.id})

    # ------------------------------------------------------------ rounds: stock

    def _start_stock_round(self, first_player: int) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "stock")
        self.j.set(self.g, "stock_rounds", self.g["stock_rounds"] + 1)
        while self.players[first_player].id in self.g["out"] and self.b_players_in_game():
            first_player = (first_player + 1) % self.n
        self.j.set(self.g, "turn", first_player)
        self.j.set(self.g, "passes", 0)
        self._reset_states("stock_round_start")
        self.j.set(self.g, "round_acted", False)
        self._new_turn()

    def _new_turn(self) -> None:
        self.j.set(self.g, "acted", False)
        self._reset_states("stock_turn_start")
        self.j.set(self.g, "sold", False)
        if self.g.get("turn_sold"):
            self.j.set(self.g, "turn_sold", frozenset())

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
        if self.g["round"] in ("draft", "auction"):
            return self.players[self.g["turn"]]
        if self.g["round"] == "operating" and self.g["operating"] is not None:
            return self._operator(self.g["operating"])
        if self.g["round"] == "acquisition" and self.g.get("acquisition"):
            state = self.g["acquisition"]
            return self.entity("corporation", state["bidders"][state["turn"]])
        if self.g["round"] == "special" and self.g.get("special"):
            return self.players[self.g["special"]["turn"]]
        return None

    def b_pass_turn(self, entity: Entity) -> None:
        """`pass`: in a stock round, end the turn (a turn with no action is a
        pass; all players passing in a row ends the round); in an operating
        round, skip the current step."""
        if self._decline_station_swap(entity):
            return
        if self._declinable_pending():
            kind, key, owed = self.g["pending"][0]
            if (kind, key) != (entity.kind, entity.id):
                raise IllegalAction(f"{key} must first {owed.replace('_', ' ')}")
            self.b_resolve_decision(entity, owed)  # declined: what was owed is not done
            return
        if self.g["round"] == "draft":
            self._draft_pass(entity)
            return
        if self.g["round"] == "auction":
            self._starting_pass(entity)
            return
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
                self._take_pass_card(entity)
            if self.g["passes"] >= self.b_players_in_game():
                last = self.g["turn"]
                self.j.set(self.g, "priority", (last + 1) % self.n)
                if self._passing_order_cards():
                    self._seat_by_passing_order()
                self._end_stock_round()
                return
            self._next_turn()
        elif self.g["round"] == "operating":
            self._next_step()
        elif self.g["round"] == "acquisition":
            self._acquisition_turn_over()
        elif self.g["round"] == "special":
            self._special_next(entity)

    # -- priority by passing order (the title's `next_sr_order: passing_order_cards`)

    def _passing_order_cards(self) -> bool:
        return self._param_or("next_sr_order", None) == "passing_order_cards"

    def _take_pass_card(self, player: Entity) -> None:
        """A player passing in a stock round takes the next passing-order card, unless he holds one."""
        if self._passing_order_cards() and player.id not in self.g.get("pass_order", ()):
            self.j.set(self.g, "pass_order", self.g.get("pass_order", ()) + (player.id,))

    def _reenter(self, player: Entity) -> None:
        """A passed player acting again in the stock round gives up his card; the later cards move up."""
        if self._passing_order_cards() and player.id in self.g.get("pass_order", ()):
            self.j.set(self.g, "pass_order", tuple(p for p in self.g["pass_order"] if p != player.id))

    def b_passing_order(self) -> list[str]:
        """passing_order(): the players holding passing-order cards in this stock round, first pass first."""
        return list(self.g.get("pass_order", ()))

    def _seat_by_passing_order(self) -> None:
        """The stock round ends: the player order follows the passing order (first to pass first, players
        without a card after them in their seating order) and the first holds the priority deal."""
        order = [self.entity("player", pid) for pid in self.g.get("pass_order", ())]
        order += [p for p in self.players if p not in order]
        self._reseat(order)
        self.j.set(self.g, "priority", 0)
        self.j.set(self.g, "pass_order", ())

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
        turn = (self.g["turn"] + 1) % self.n
        while self.players[turn].id in self.g["out"] and self.b_players_in_game():
            turn = (turn + 1) % self.n  # a player out of the game (bankrupt) takes no turn
        self.j.set(self.g, "turn", turn)
        self._new_turn()

    def _end_stock_round(self) -> None:
        self.j.set(self.g, "current_action", "end_stock_round")
        # play that can no longer change: a stock round where nobody acted, after a whole set of rounds
        # that moved no money since the last such round, would repeat for ever. No rulebook end condition
        # covers it (e.g. 1846 with every corporation closed but one that no player can afford to start:
        # nobody operates, nobody can buy); the game ends there only where the rulespec says so
        # (`stalemate_ends_game`, an assumption of the title), else it is a gap
        holdings = tuple(sorted((e.kind, e.id, v) for e, v in self.cash.items()))
        # an end the title's conditions have already set in motion (the last train bought, the bank
        # broken) comes at its own time: play that can no longer change is no stalemate then
        if not self.g.get("round_acted") and not self._end_in_motion():
            if self.g.get("idle_holdings") == holdings:
                if not self.DATA.properties.get("stalemate_ends_game"):
                    raise RuleGap("stalemate_ends_game", "play can no longer change (a stock round where nobody "
                                  "acted, after a set of rounds that moved no money) and no end condition of "
                                  "the title applies: the rulespec must say whether the game ends here")
                self.b_end_game_now("stalemate")
                return
            self.j.set(self.g, "idle_holdings", holdings)
        else:
            self.j.set(self.g, "idle_holdings", None)
        # the prices move corporation by corporation, in operating order (where two share a cell, which
        # moves first decides their order in the next): a sold-out corporation rises (owned entirely by
        # players, or, with `sold_out_holders: [players, corporations]`, by players and other corporations),
        # one with shares in the market falls
        priced = [c for c in self.corporations if self.corp[c.id]["cell"] is not None and not self.corp[c.id]["closed"]]
        for corp in sorted(priced, key=self._operating_key):
            if self.param("sold_out_rise") and self._sold_out(corp):
                self.b_market_move(corp, "up")
            if self.DATA.properties.get("pool_drop_at_round_end") and not self.corp[corp.id]["closed"] \
                    and self.b_percent(POOL, corp) > 0:
                self.b_market_move(corp, "down")
        self.emit("stock_round_end")
        if self.g.get("resume"):
            self._resume_operating_round()
            return
        if self._end_in_motion():
            self._end_game()
            return
        self.j.set(self.g, "ors_in_set", self._phase_ors(self._phase()))
        self.j.set(self.g, "set", self.g["set"] + 1)
        self.j.set(self.g, "or", 0)
        self._start_operating_round()

    def _sold_out(self, corp: Entity) -> bool:
        """Whether `corp` is sold out at the end of a stock round: the title's `sold_out` function where it
        has one (1880 Romania VIII.3: every share then available is out of the bank), else every share is
        with the players (with `sold_out_holders: [players, corporations]`, with players and other
        corporations)."""
        if "sold_out" in self.ROUTINES:
            return bool(self.call("sold_out", corp))
        holders = list(self.players)
        if "corporations" in (self.DATA.properties.get("sold_out_holders") or ()):
            holders += [c for c in self.corporations if c != corp]
        return sum(self.b_percent(h, corp) for h in holders) == 100

    # ------------------------------------------------------------ rounds: operating

    def _start_operating_round(self) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "operating")
        self.j.set(self.g, "or", self.g["or"] + 1)
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
        self.j.set(self.g, "order", tuple(c.id for c in minors + order))
        self.j.set(self.g, "operating", None)
        self._round_start_homes(order)
        # the order is known: its triggers may ask the players for decisions, taken before anyone operates
        self.emit("operating_order_set")
        if self.g.get("pending"):
            self.j.set(self.g, "after_decisions", "operating_order_set")
            return
        self._next_corporation()

    # -- the round track (1880 VI.6, VII.1): `operating_order: round_track` and a `round_track` component
    #    whose `par_groups` lists the par prices top to bottom, each with `rows_per_par_price` rows

    def _round_track(self) -> dict | None:
        """The title's round track component, where `operating_order` is `round_track` (else None)."""
        if self.DATA.properties.get("operating_order") != "round_track":
            return None
        tracks = self.DATA.components_of("round_track")
        if not tracks:
            raise RuleGap("round_track", "operating_order round_track needs a round_track component")
        return tracks[0]

    def _round_track_rows(self, price: int) -> range:
        """The row numbers (0 at the top) of the round track under par price `price`; empty if none."""
        track_ = self._round_track()
        groups = [int(p) for p in self._value(track_.get("par_groups"), "round_track par_groups")]
        rows = int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))
        if int(price) not in groups:
            return range(0)
        start = groups.index(int(price)) * rows
        return range(start, start + rows)

    def _round_track_taken(self) -> set[int]:
        return {self.corp[c.id]["track_row"] for c in self.corporations
                if self.corp[c.id].get("track_row") is not None}

    def b_round_track_row_free(self, price: int, slot: int) -> bool:
        """round_track_row_free(price, slot): whether row `slot` (0 at the top) of the rows under par price
        `price` (currency units) is empty on the round track (1880 VI.6: the founder puts the marker on an
        empty row of his par price; a par price whose rows are all taken may not be chosen); true where
        the title has no round track."""
        if self._round_track() is None:
            return True
        rows = self._round_track_rows(price)
        return 0 <= slot < len(rows) and rows[slot] not in self._round_track_taken()

    def b_take_round_track_row(self, corp: Entity, slot: int) -> None:
        """take_round_track_row(C, slot): C's round marker goes on row `slot` (0 at the top) of the rows
        under its par price, on the circle of the companies still to act in the current pass (1880 VI.6,
        VII.1). RuleGap if that row is not free (the par guard must refuse first)."""
        if self._round_track() is None:
            return
        if not self.b_round_track_row_free(self.b_par_price(corp), slot):
            raise RuleGap("round_track", f"row {slot} under par {self.b_par_price(corp)} is not free for {corp}")
        self.j.set(self.corp[corp.id], "track_row", self._round_track_rows(self.b_par_price(corp))[slot])

    def _round_track_slots(self, price: int) -> list[int | None]:
        """The rows (0 at the top of the par price's rows) a founder may choose at par `price`: the empty
        ones; [None] where the title has no round track (the action names no row)."""
        if self._round_track() is None:
            return [None]
        return [i for i in range(len(self._round_track_rows(price))) if self.b_round_track_row_free(price, i)]

    def b_row_after_marker(self) -> int | None:
        """row_after_marker(): the round track's first empty row below the row of the company holding the
        train purchase marker, going round to the top (a row's number, 0 at the top); none where nobody
        holds the marker or no row is empty (1880 XI.3: "the next free space after the train purchase
        marker")."""
        track_ = self._round_track()
        holder = self.g.get("train_marker")
        if track_ is None or holder is None or self.corp.get(holder, {}).get("track_row") is None:
            return None
        groups = [int(p) for p in self._value(track_.get("par_groups"), "round_track par_groups")]
        rows = len(groups) * int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))
        start, taken = self.corp[holder]["track_row"], self._round_track_taken()
        return next((r % rows for r in range(start + 1, start + 1 + rows) if r % rows not in taken), None)

    def b_row_price(self, row: int) -> int:
        """row_price(r): the par price of round-track row r (its group's)."""
        track_ = self._round_track()
        groups = [int(p) for p in self._value(track_.get("par_groups"), "round_track par_groups")]
        per = int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))
        return groups[int(row) // per]

    def b_row_slot(self, row: int) -> int:
        """row_slot(r): round-track row r's place among its par price's rows (0 at the top)."""
        track_ = self._round_track()
        return int(row) % int(self._value(track_.get("rows_per_par_price"), "round_track rows_per_par_price"))

    def b_draw_unstarted(self, excluded: Any = ()) -> Entity | None:
        """draw_unstarted(xs): one of the corporations not yet started and not in xs, drawn at random (the
        game's seed); none if there is none (1880 XI.3: Amira's companies)."""
        out = {str(getattr(x, "id", x)) for x in (excluded or ())}
        pool = [c for c in self.corporations if not self.b_started(c) and not self.corp[c.id]["closed"]
                and c.id not in out]
        return self.rng.choice(pool) if pool else None

    def _round_track_key(self, corp: Entity):
        """Operating order on the round track: top row first."""
        row = self.corp[corp.id].get("track_row")
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

    def _next_corporation(self) -> None:
        order = list(self.g["order"])
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
        self.j.set(self.g, "bank_buys", 0)
        self.j.set(self.g, "turn_marks", frozenset())
        self._reset_states("operating_turn_start")
        if self.g.get("turn_sold"):
            self.j.set(self.g, "turn_sold", frozenset())
        if self.g.get("armed"):
            self.j.set(self.g, "armed", {})  # a declared ability lasts one turn
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
        self.b_place_home_token(corp)

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
            if t.name in self.g.get("obsolete", frozenset()):
                self.j.set(self.owner, t.id, SCRAP)

    def b_limit_trains(self, corp: Entity) -> int:
        """limit_trains(C): the trains of C that count against its train limit: all of them, or, where the
        title says `obsolete_trains_count_for_limit: false`, those not phased out."""
        trains = self.b_trains(corp)
        if self.DATA.properties.get("obsolete_trains_count_for_limit", True) is not False:
            return len(trains)
        return sum(1 for t in trains if t.name not in self.g.get("obsolete", frozenset()))

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
            if step == "dividend" and self.corp[corp.id]["revenue"] == 0 and not (
                    self.b_has_power(corp, "top_up_revenue") and self.b_cubes(corp) > 0):
                # (a company whose card may still top its revenue up decides, even on nothing earned)
                # no revenue: the dividend step withholds nothing, as the rules move the price
                self.ROUTINES["action:dividend"](self, corp, "withhold")
                return
            return
        self._end_corporation_turn(corp)

    def _end_corporation_turn(self, corp: Entity) -> None:
        if corp.kind == "minor" and "minor_turn_end" in self.ROUTINES and not self.corp[corp.id]["closed"]:
            self.call("minor_turn_end", corp)  # the title's check at the end of a minor's turn (1880 VII.3.7)
        self.j.set(self.corp[corp.id], "operated", True)
        self.j.set(self.g, "moved", self.g.get("moved", frozenset()) | {corp.id})
        self.j.set(self.g, "step", None)
        resumed = self.g.get("resumed_turn", False)
        self.j.set(self.g, "resumed_turn", False)
        if (self._param_or("train_export", False) and self.g.get("train_marker") == corp.id
                and self.g["bank_buys"] == 0 and self.g["end_reason"] is None and not resumed):
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
                self.j.set(self.g, "final_marker", self.g.get("train_marker") or self.g["operating"])
                self.j.set(self.g, "final_turns", int(turns))
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "operating")
        order = list(self.g["order"])
        new = [c for c in self.corporations
               if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"] and c.id not in order]
        if self._round_track() is not None:
            # companies that began operating meanwhile take their rows' places; the pass resumes with the
            # topmost company whose marker has not moved (1880 VII.1)
            minors = [c for c in order if ("minor", c) in self.by_id]
            corps = [self.entity("corporation", c) for c in order if c not in minors] + new
            self.j.set(self.g, "order", tuple(minors + [c.id for c in sorted(corps, key=self._round_track_key)]))
            interrupted = self.g.get("resume_with")
            if self.DATA.properties.get("joining_operators") == "below_only" and interrupted is not None \
                    and interrupted in self.g["order"]:
                # `joining_operators: below_only` (18xx.games' Operating#setup of the saved round): a company
                # that began operating meanwhile joins this pass only below the interrupted company; one
                # above it waits for the next pass, as if its marker had moved
                at = self.g["order"].index(interrupted)
                above = {c.id for c in new if self.g["order"].index(c.id) < at}
                self.j.set(self.g, "moved", self.g.get("moved", frozenset()) | above)
        else:
            self.j.set(self.g, "order", tuple(order + [c.id for c in sorted(new, key=self._operating_key)]))
        self._round_start_homes(new)
        corp = self.g.get("resume_with")
        self.j.set(self.g, "resume_with", None)
        if corp is not None and "buy_train" in self._steps():
            self.j.set(self.g, "operating", corp)
            self.j.set(self.g, "bank_buys", 0)
            self.j.set(self.g, "resumed_turn", True)
            self.j.set(self.g, "step", "buy_train")
            return
        self._next_corporation()

    def _end_operating_round(self) -> None:
        """The operating round is over: the event `operating_round_end` (its triggers may ask decisions of
        the players, taken before the next round begins), then the next round or the game's end."""
        self.j.set(self.g, "operating", None)
        if not self.g["finished"]:
            self.emit("operating_round_end")
            if self.g.get("pending"):
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
            elif self.g["order"]:
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
        """Where the title says `takeover_when: president_certificate_held`, a corporation holding another
        corporation's president's certificate takes that corporation over at once (`_take_over`)."""
        if not self._takeovers_on():
            return
        for _ in range(len(self.corporations)):
            for owned in self.corporations:
                if self.corp[owned.id]["closed"]:
                    continue
                holder = self.owner[self.certs_of[owned.id][0].id]
                if isinstance(holder, Entity) and holder.kind == "corporation" and holder != owned \
                        and not self.corp[holder.id]["closed"]:
                    self._take_over(holder, owned)
                    break
            else:
                return

    def _take_over(self, owner: Entity, owned: Entity) -> None:
        """`owner` takes `owned` over (the title's `takeover_*` properties; 18CO §6.1-§6.2):

        1. certificates `owned` holds of third corporations go to the market at their price, which does
           not move; the money goes to `owned` (`takeover_third_party_shares: market`);
        2. stations of `owned` in hexes where `owner` has one leave the map;
        3. up to `takeover_token_swaps` of its other stations become `owner`'s, free, counted off the
           far end of `owner`'s charter (they do not raise its next token's cost), in the order of their
           hexes' names, while `owner` has tokens left;
        4. its trains, `owner`'s certificates it holds, its collected components (mines) and its privates
           pass to `owner`;
        5. its cash rounded down to `takeover_payout_rounding` is paid as a dividend on its shares
           (players and corporations; the market's part to the bank; none on its own unsold shares), the
           rest goes to `owner`;
        6. `owner`'s train limit rises by `takeover_train_limit_bonus`; it discards any excess
           (a `discard_train` decision);
        7. `owned` closes: its certificates, stock token and remaining stations leave the game.
        Money moves only by `transfer`, items only by `move`."""
        props = self.DATA.properties
        for cert in list(self.certificates.values()):
            if self.owner[cert.id] != owned or cert.corporation in (owner.id, owned.id):
                continue
            corp = self.entity("corporation", cert.corporation)
            self.transfer(self.b_price(corp) * cert.percent // 10, BANK, owned)
            self.move(cert, owned, POOL)
            if self.b_percent(POOL, corp) > self.param("pool_cap") and self._sanctioned("pool_cap", "take_over"):
                self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("pool_cap", corp.id)})
        board = self.board
        if board is not None:
            owner_hexes = {ref[0] for ref in board.tokens_of(owner.id)}
            for ref in list(board.tokens_of(owned.id)):
                if ref[0] in owner_hexes:
                    self._board_change(lambda ref=ref: board.remove_token(owned.id, ref))
            swaps = int(self._value(props.get("takeover_token_swaps", 0), "takeover_token_swaps"))
            if swaps > 0 and board.tokens_of(owned.id) and self.b_tokens_left(owner) > 0:
                # the owner's president chooses which stations to replace (`place_token` while the decision
                # is pending; `pass` declines the rest); the others leave the map then
                self.j.set(self.g, "station_swaps", tuple(self.g.get("station_swaps", ()))
                           + ((owner.id, owned.id, swaps),))
                self.b_require_decision(owner, "place_token")
        moved = self.b_trains(owned)
        for train in moved:
            self.move(train, owned, owner)
        if props.get("takeover_assets_usable_at_once") and self.g.get("ran"):
            # the trains taken over may run for their new owner in this operating round, whether or not
            # they ran for the corporation taken over (18CO §16.4.1)
            self.j.set(self.g, "ran", self.g["ran"] - {t.id for t in moved})
        for cert in self.certs_of[owner.id]:
            if self.owner[cert.id] == owned:
                self.move(cert, owned, owner)
        collected = self.g.get("collected", ())
        if any(holder == owned.id for _, _, holder in collected):
            self.j.set(self.g, "collected", tuple((k, key, owner.id if holder == owned.id else holder)
                                                  for k, key, holder in collected))
        for item in self.privates:
            if self.owner[item.id] == owned and not self.closed[item.id]:
                self.move(item, owned, owner)
        step = int(self._value(props.get("takeover_payout_rounding", 1), "takeover_payout_rounding"))
        payout = self.cash[owned] - self.cash[owned] % step
        for holder in self.b_shareholders(owned):
            if holder == owned or holder is SCRAP:
                continue
            amount = payout * self.b_percent(holder, owned) // 100
            self.transfer(amount, owned, BANK if holder is POOL else holder)
        self.transfer(self.cash[owned], owned, owner)
        bonus = int(self._value(props.get("takeover_train_limit_bonus", 0), "takeover_train_limit_bonus"))
        self.j.set(self.corp[owner.id], "train_limit_bonus", self.corp[owner.id].get("train_limit_bonus", 0) + bonus)
        self._close_corporation(owned, keep_stations=self._station_swap(owner) is not None)
        if len(self.b_trains(owner)) > self.b_train_limit(owner):
            self.b_require_decision(owner, "discard_train")
        self.emit("taken_over", owner, owned)

    def _station_swap(self, owner: Entity) -> tuple[str, str, int] | None:
        """The station replacement `owner` still has to choose after a takeover: (owner, owned, left)."""
        return next((s for s in self.g.get("station_swaps", ()) if s[0] == owner.id), None)

    def b_takeover_station(self, owner: Entity, city: str) -> bool:
        """takeover_station(C, city): `city` holds a station of the corporation C has just taken over, one
        C may replace with its own (a takeover's station choice is pending)."""
        swap = self._station_swap(owner)
        if swap is None or self.board is None:
            return False
        try:
            ref = self.board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))
        except ValueError:
            return False
        return ref in self.board.tokens_of(swap[1])

    def b_swap_station(self, owner: Entity, city: str) -> None:
        """swap_station(C, city): the station of the corporation C took over in `city` becomes C's, free,
        counted off the far end of C's charter; when C may replace no more (the limit, no station left, no
        token left) the taken-over corporation's other stations leave the map and the choice is over."""
        board = self._need_board()
        _, owned, left = self._station_swap(owner)
        ref = board.city(str(city)) if str(city).count("-") == 2 else track.parse_node_id(str(city))

        def swap() -> None:
            held = list(board.holders(ref))
            held[held.index(owned)] = owner.id
            board.tokens[ref] = held

        self._board_change(swap)
        self.j.set(self.corp[owner.id], "tokens_right", self.corp[owner.id].get("tokens_right", 0) + 1)
        swaps = list(self.g["station_swaps"])
        at = swaps.index((owner.id, owned, left))
        if left > 1 and board.tokens_of(owned) and self.b_tokens_left(owner) > 0:
            swaps[at] = (owner.id, owned, left - 1)
            self.j.set(self.g, "station_swaps", tuple(swaps))
            return
        self._end_station_swap(owner, owned, left)

    def _end_station_swap(self, owner: Entity, owned: str, left: int) -> None:
        """The choice of the stations of `owned` is over: the rest leave the map; a further takeover's
        choice of the same owner comes next."""
        swaps = list(self.g["station_swaps"])
        swaps.remove((owner.id, owned, left))
        self.j.set(self.g, "station_swaps", tuple(swaps))
        self._remove_stations(self.entity("corporation", owned))
        self.b_resolve_decision(owner, "place_token")
        if self._station_swap(owner) is not None:
            self.b_require_decision(owner, "place_token")

    def _decline_station_swap(self, owner: Entity) -> bool:
        """`pass` while a takeover's station choice is pending: the rest are not replaced."""
        swap = self._station_swap(owner)
        pending = self.g.get("pending")
        if swap is None or not pending or pending[0] != (owner.kind, owner.id, "place_token"):
            return False
        self._end_station_swap(owner, swap[1], swap[2])
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
        if self.g.get("round_due") and self._start_special_round():
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
                                           "target": None, "bidders": (), "turn": 0, "bids": ()})
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
                self._after_acquisition_round()
                return
            target = self.entity("corporation", queue[0])
            president = self.b_president(target)
            bidders = sorted((c for c in self.corporations if self.corp[c.id]["floated"]
                              and not self.corp[c.id]["closed"] and c.id not in state["up"]
                              and (president is None or self.b_president(c) != president)), key=self._operating_key)
            self.j.set(self.g, "acquisition", {**state, "queue": tuple(queue), "target": target.id,
                                               "bidders": tuple(c.id for c in bidders), "turn": 0, "bids": ()})
            if bidders:
                return
            self._resolve_acquisition()

    def b_acquisition_target(self) -> Entity | None:
        """acquisition_target(): the corporation being auctioned in the acquisition round, or none."""
        state = self.g.get("acquisition")
        return self.entity("corporation", state["target"]) if state and state["target"] else None

    def b_highest_acquisition_bid(self) -> int:
        """highest_acquisition_bid(): the highest bid so far for the corporation being auctioned (0: none)."""
        state = self.g.get("acquisition")
        return max((price for _, price in state["bids"]), default=0) if state else 0

    def b_acquisition_bid(self, bidder: Entity, amount: int) -> None:
        """acquisition_bid(C, n): C bids n for the corporation being auctioned; its one bid (18CO §7.1.1):
        the turn passes to the next bidder."""
        state = self.g["acquisition"]
        self.j.set(self.g, "acquisition", {**state, "bids": state["bids"] + ((bidder.id, int(amount)),)})
        self._acquisition_turn_over()

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
        target = self.entity("corporation", state["target"])
        best = None
        for cid, price in state["bids"]:
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

    def b_call_round(self, name: str) -> None:
        """call_round(name): the special round `name` is held after the current set of operating rounds
        (and any acquisition round), before the stock round; once in a game."""
        if name in self.g.get("rounds_held", frozenset()):
            return
        self.j.set(self.g, "round_due", str(name))

    def b_in_special_round(self, name: str) -> bool:
        """in_special_round(name): the special round `name` is being played."""
        return self.g["round"] == "special" and self.g.get("special", {}).get("name") == str(name)

    def b_special_round_held(self, name: str) -> bool:
        """special_round_held(name): the special round `name` has been played to its end."""
        return str(name) in self.g.get("rounds_held", frozenset())

    def _start_special_round(self) -> bool:
        """A special round of players' turns (18CO §8: the President's Choice Round): from the priority
        holder in seating order, each player on turn takes the title's `special_*` actions or passes;
        a pass is final; when all have passed the stock round follows."""
        name = self.g["round_due"]
        self.j.set(self.g, "round_due", None)
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "special")
        out = frozenset(p.id for p in self.players if p.id in self.g["out"])
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
        self.j.set(self.g, "rounds_held", self.g.get("rounds_held", frozenset()) | {name})
        self.j.set(self.g, "special", None)
        self._start_stock_round(self.g["priority"])

    # ------------------------------------------------------------ the contract

    def process(self, action: Action) -> None:
        """Apply one action (18xx.games vocabulary). Raises IllegalAction,
        naming the rule; the state is then exactly as it was."""
        if not isinstance(action, dict) or "type" not in action:
            raise IllegalAction("an action is a dict with a 'type'")
        original, action = action, self._from_log_ids(action)
        self.j.begin()
        try:
            self._dispatch(action)
            self._check_takeovers()
            self._end_turn_if_closed()
            self._auto_pass()
            if self.g["finished"] and self.g["round"] != "finished":
                self.j.set(self.g, "round", "finished")  # an end met mid-action: the rest of the action changes nothing
            self._settle_sanctions()
        except IllegalAction:
            self.j.rollback()
            raise
        except BaseException:
            self.j.rollback()
            raise
        self.j.commit()
        self.actions.append(dict(original))

    def _dispatch(self, action: Action) -> None:
        kind, routine, rule = self._open_action(action)
        try:
            args = self.bind(kind, action)
        except IllegalAction as exc:
            exc.rule = exc.rule or rule
            raise
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise IllegalAction(f"malformed {action['type']!r} action: missing or bad {exc}", rule=rule) from None
        self._check_actor(kind, args, rule)
        try:
            routine(self, *args)
        except IllegalAction as exc:
            if exc.rule is None and exc.source is not None:
                exc.rule = self.DATA.rules.get(f"{exc.source[0]} {exc.source[1]}")
            if exc.rule is None:
                exc.rule = rule
            raise

    def _open_action(self, action: Action) -> tuple[str, Callable, str | None]:
        """What `_dispatch` does before binding the action's parameters: the refusals that depend on its
        type and entity alone (the game over, a decision owed first), the steps the action passes, the
        action noted as the current one. Returns the DSL action's name, its routine and its rule."""
        if self.g["finished"]:
            raise IllegalAction("the game is over", rule=self.DATA.rules.get("property game_end"))
        kind = self.action_name(action)
        pending = self.g.get("pending")
        # a takeover's station choice (a pending `place_token`) may be declined with `pass`
        declinable = (kind == "pass" and bool(pending) and pending[0][0] == "corporation"
                      and pending[0][2] == "place_token"
                      and self._station_swap(self.entity("corporation", pending[0][1])) is not None) \
            or (kind == "pass" and self._declinable_pending())
        if pending and kind != pending[0][2] and not declinable:
            owed = pending[0][2]
            raise IllegalAction(f"{pending[0][1]} must first {owed.replace('_', ' ')}",
                                rule=self.DATA.rules.get(f"cite action {owed}") or self.DATA.rules.get(f"action {owed}"),
                                at=self.DATA.rules.get(f"at action {owed}"))
        routine = self.ROUTINES.get(f"action:{kind}")
        if routine is None:
            raise IllegalAction(f"no action {action['type']!r} in this title")
        self._pass_steps_before(kind, action)
        self.j.set(self.g, "current_action", kind)
        #: the certificates the action names (a log's `shares`), which `next_certificate` takes first
        self._named_shares = tuple(str(c) for c in action.get("shares") or ())
        rule = self.DATA.rules.get(f"cite action {kind}") or self.DATA.rules.get(f"action {kind}")
        return kind, routine, rule

    def _check_actor(self, kind: str, args: list[Any], rule: str | None) -> None:
        """Refuses an action whose entity (`args[0]`) is not the one to act, unless it may act out of turn."""
        acting = self.current_entity()
        # a president sells shares during his corporation's turn (emergency money raising; the DSL guards decide when)
        for_acting = (kind == "sell_shares" and acting is not None and acting.kind == "corporation"
                      and args and self.b_president(acting) == args[0])
        if args and args[0] != acting and not for_acting and kind not in self._any_time_actions():
            if isinstance(args[0], Entity) and self.b_auction_passed(args[0]):
                raise IllegalAction(f"{args[0]} passed in the auction of {self.b_auction_company()} and may not "
                                    "re-enter the bidding for it", rule=self._starting_rule("auction_pass_final"))
            turn_rule = self.DATA.rules.get("cite action pass") or self.DATA.rules.get("action pass") or rule
            raise IllegalAction(f"it is {acting}'s turn, not {args[0]}'s", rule=turn_rule,
                                at=self.DATA.rules.get(f"at action {kind}"))

    def _pass_steps_before(self, kind: str, action: Action) -> None:
        """An operating company's action of a later step of its turn passes the steps before it, as a
        `pass` in each would (the title's guards on `pass` apply): a `run_routes` with no `lay_tile`
        before it means the company laid no track. The caller's transaction undoes the passes if the
        action is then refused."""
        if self.g["round"] != "operating" or self.g.get("pending") or self.g.get("step") is None:
            return
        operator = self.current_entity()
        if operator is None or str(action.get("entity")) not in (operator.id, operator.get("log_id")):
            return
        for _ in range(len(STEP_ACTIONS)):
            steps = self._steps()
            current = self.g.get("step")
            target = next((i for i, step in enumerate(steps) if kind in STEP_ACTIONS.get(step, (step,))), None)
            if current not in steps or target is None or steps.index(current) >= target:
                return
            if self.current_entity() != operator:
                return
            self.j.begin()
            try:
                self._dispatch({"type": "pass", "entity": action["entity"], "entity_type": action.get("entity_type")})
            except IllegalAction:
                # the step may not be passed (a train the corporation must buy): the action itself, taken
                # here, is for the title's guards to judge (an emergency issue during the train purchase)
                self.j.rollback()
                return
            self.j.commit()

    def _end_turn_if_closed(self) -> None:
        """A corporation that closed during its own turn (its price reached a closing cell) stops operating."""
        operating = self.g.get("operating")
        if self.g["round"] == "operating" and operating is not None and self.corp[operating]["closed"] \
                and not self.g["finished"]:
            self._end_corporation_turn(self._operator(operating))

    def _auto_pass(self) -> None:
        """Where the title says `auto_pass: true`, a company whose step does not hold it (see
        `_step_held`) passes it (or runs no train), and a player who can only pass and holds no share
        he could sell passes, without acting, as the 18xx.games implementation skips them. With
        `auto_pass: nothing_but_pass`, the same, and a player whose only legal action is to pass passes
        whatever he holds (the site skips a player its step offers nothing)."""
        for _ in range(10_000):
            if self.g["finished"]:
                return
            entity = self.current_entity()
            if (self.g["round"] == "operating" and isinstance(entity, Entity) and entity.kind == "corporation"
                    and not self.g.get("pending") and self.b_in_receivership(entity)):
                self._dispatch(self._receivership_action(entity))  # no president decides: the rules do
                self._end_turn_if_closed()
                continue
            mode = self.DATA.properties.get("auto_pass")
            if not mode:
                return
            # `auto_pass_test: own_actions`: the acting entity is passed when passing is all it may do itself
            # (another entity's any-time action does not hold it up), a player as a company (18xx.games skips
            # a step that offers its entity no action); otherwise a player holding shares he could sell (now
            # or later in the round's rules) passes himself, unless the title says `auto_pass:
            # nothing_but_pass` (skipped whenever only a pass is legal)
            own = self.DATA.properties.get("auto_pass_test") == "own_actions"
            if entity is None or (entity.kind == "player" and mode != "nothing_but_pass" and not own
                                  and any(self.b_sellable(entity, c) for c in self.corporations
                                          if self.corp[c.id]["par"] is not None)):
                return
            if (self.g["round"] == "operating" and entity.kind in ("corporation", "minor")
                    and not self.g.get("pending") and self.g.get("step") is not None):
                if self._step_held(entity):
                    return
                who = {"entity": entity.id, "entity_type": self.entity_type(entity)}
                skip = {"type": "run_routes", **who, "routes": []} if self.g["step"] == "run_routes" else {"type": "pass", **who}
                if not self.is_legal(skip):
                    return  # nothing the company may do (the caller reports it)
                self._dispatch(skip)
                continue
            if own:
                # only the entity's own actions count, each tried only until one that is not a pass is legal
                if self._some_legal(a for a in self._iter_candidates(cheap_first=True) if str(a.get("entity")) == entity.id):
                    return  # something to decide
                idle = [a for a in self._candidates() if str(a.get("entity")) == entity.id and self._idle(a) and self.is_legal(a)]
            else:
                if self._some_legal(self._iter_candidates(cheap_first=True)):
                    return  # something to decide
                idle = [a for a in self._candidates() if self._idle(a) and self.is_legal(a)]
            if not idle:
                return  # nothing legal at all, which the caller reports
            self._dispatch(next((a for a in idle if a["type"] == "run_routes"), idle[0]))

    def _step_held(self, operator: Entity) -> bool:
        """Whether `operator`'s current step waits for its decision: the title's function `step_held(C,
        step)` where it has one (18xx.games offers a step on tests of its own, `step_actions_legal` among
        them), else whether any action but a pass is legal."""
        if "step_held" in self.ROUTINES:
            return bool(self.call("step_held", operator, self.g["step"]))
        if self.DATA.properties.get("auto_pass_test") == "own_actions":
            return self.b_step_actions_legal(operator)  # only the step's own actions hold it
        # any legal action but a pass (or an empty run) holds it, what may be done at any step included
        return self._some_legal(self._iter_candidates(cheap_first=True))

    def b_step_actions_legal(self, operator: Entity) -> bool:
        """step_actions_legal(C): whether an action of C's current operating step other than a pass (or an
        empty run) is legal now; at a holding step (`buy_company`), also an action of a private C holds."""
        if self.g["finished"]:
            return False
        step = self.g.get("step")
        own = set(STEP_ACTIONS.get(step, (step,)))
        holding = set(HOLDING_STEPS.get(step, ()))

        def vtype(name: str) -> str:
            for kind in ("player", "corporation", "company"):
                if name.startswith(kind + "_") and name[len(kind) + 1:] in VOCABULARY:
                    return name[len(kind) + 1:]
            return name

        names = [n for n in self.ACTION_PARAMS if (n in own or vtype(n) in holding) and n not in OUT_OF_TURN]
        names.sort(key=lambda name: any(name.endswith(kind) for kind in self.COSTLY))

        def candidates() -> Iterator[Action]:
            yield from self._iter_candidates_for(operator, names)
            if holding:
                # at the holding step, what the privates the operator holds may do
                for name in self._any_time_actions():
                    if name not in self.ACTION_PARAMS or name in OUT_OF_TURN:
                        continue
                    for other in self._possible_actors(name):
                        if other.kind == "private" and self.owner.get(other.id) == operator:
                            yield from self._iter_candidates_for(other, [name])

        return self._some_legal(candidates())

    def b_station_possible(self, corp: Entity) -> bool:
        """station_possible(C): C could place a station token now, money aside: it is at its station step,
        has placed none this turn, has one left, and reaches a city with a slot it may take."""
        if self.board is None or not self.b_in_step(corp, "place_token") or self.b_tokens_left(corp) <= 0:
            return False
        if self.g["step"] == "track_and_token" and self._done_this_turn("token"):
            return False
        return bool(track.legal_tokens(self.board, corp.id))

    def b_lays_left(self) -> int:
        """lays_left(): the tile lays the operating company has left in this turn."""
        return max(0, len(self._lay_slots()) - self.g.get("lays", 0))

    def _from_log_ids(self, action: Action) -> Action:
        """An action with the ids 18xx.games logs use ("B&O", "B&O_1") read as the title's ("BO", "BO_1")."""
        action = self._equivalent_shares(action)
        if not self.log_ids:
            return action
        out = dict(action)
        for key in ("entity", "corporation", "company"):
            if isinstance(out.get(key), str) and out[key] in self.log_ids:
                out[key] = self.log_ids[out[key]]
        if isinstance(out.get("shares"), list):
            shares = []
            for cid in out["shares"]:
                prefix, _, index = str(cid).rpartition("_")
                shares.append(f"{self.log_ids[prefix]}_{index}" if prefix in self.log_ids else cid)
            out["shares"] = shares
        return out

    def _equivalent_shares(self, action: Action) -> Action:
        """A share an action names by a number no certificate of the engine has, of a corporation whose
        certificates follow a chosen share layout (`share_layouts`): 18xx.games keeps numbering the shares
        as they were before the founder's layout took some out (1880 Romania's 30% and 40% president's
        certificates), so its "LCR_7" is one of the engine's equal shares. Read as an equivalent
        certificate: same corporation and size, not a president's, held where the action takes it from
        (the seller's for a sale, the corporation's own for a purchase). Other actions pass unchanged."""
        shares = action.get("shares")
        if action.get("type") not in ("buy_shares", "sell_shares") or not isinstance(shares, list) \
                or all(str(c) in self.certificates for c in shares):
            return action
        out, taken = [], set(str(c) for c in shares if str(c) in self.certificates)
        size = action.get("percent")
        for cid in shares:
            cid = str(cid)
            prefix, _, _index = cid.rpartition("_")
            corp = self.by_id.get(("corporation", prefix))
            if cid in self.certificates or corp is None or not isinstance(corp.get("share_layouts"), dict):
                out.append(cid)
                continue
            holder = corp if action["type"] == "buy_shares" else self.by_id.get(("player", str(action.get("entity"))))
            each = int(size) // len(shares) if isinstance(size, int) and shares else None
            same = next((c for c in self.certs_of[corp.id] if not c.president and c.id not in taken
                         and self.owner.get(c.id) == holder and (each is None or c.percent == each)), None)
            if same is None:
                out.append(cid)  # nothing equivalent: the action is refused as it stands
                continue
            taken.add(same.id)
            out.append(same.id)
        return {**action, "shares": out}

    def _any_time_actions(self) -> tuple[str, ...]:
        """The title's `any_time_actions`: DSL actions that may be taken at any
        moment, in or out of turn (play otherwise goes turn by turn), and the
        vocabulary's `end_game`, which any player sends when the players agree."""
        return tuple(str(a) for a in self.DATA.properties.get("any_time_actions") or ()) + OUT_OF_TURN

    @staticmethod
    def entity_type(entity: Entity) -> str:
        """The `entity_type` of an action taken by `entity`, in the 18xx.games
        vocabulary: a private acts as a "company"; others by their kind."""
        return "company" if entity.kind == "private" else entity.kind

    def action_name(self, action: Action) -> str:
        """The DSL action an action dict names: `<entity_type>_<type>` when
        the title has one (a corporation's `sell_shares` is the DSL's
        `corporation_sell_shares`), else `<type>`."""
        kind = str(action["type"])
        special = f"{action.get('entity_type')}_{kind}"
        if special in self.ACTION_PARAMS:
            return special
        in_round = f"{self.g['round']}_{kind}"
        return in_round if in_round in self.ACTION_PARAMS and self.g["round"] in ROUND_ACTION_PREFIXES else kind

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
            return "pool" if holder is POOL else ("ipo" if holder is IPO else (
                "treasury" if holder.kind == "corporation" else "player"))
        if name == "count" and shares is not None:
            return len(shares)
        if name == "price" and "share_price" in action and "price" not in action:
            return int(str(action["share_price"]).split(",")[0])
        if name == "company" and "company" not in action and "minor" in action:
            name = "minor"  # 18xx.games names the item of a bid `minor` when it is a minor (a free pick)
        optional = self.ACTION_DEFAULTS.get(kind, {})
        if name in optional and action.get(name) is None:
            return optional[name]  # an optional field left out: its declared default
        value = action[name]
        kind_type = types[0]
        if kind_type in ("money", "int") and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(repr(name))  # an amount or a count is a number
        if kind_type == "list[certificate]":
            return [self.certificates[cid] for cid in value]
        if len(types) > 1 and all(t in ("player", "corporation") for t in types):
            # a union of holders (`target: player | corporation`): the first kind that knows the id
            for t in types:
                for kind in ((t, "minor") if t == "corporation" else (t,)):
                    if (kind, str(value)) in self.by_id:
                        return self.entity(kind, value)
            raise IllegalAction(f"there is no {' or '.join(types)} {value!r}")
        if kind_type == "corporation" and ("minor", str(value)) in self.by_id:
            return self.entity("minor", value)
        if kind_type == "private":
            return self._company(value)
        if kind_type in ("corporation", "bond", "player"):
            return self.entity(kind_type, value)
        if kind_type == "company":
            return self.find(value)
        if kind_type == "train":
            if value not in self.trains:
                raise IllegalAction(f"there is no train {value!r}")
            # the action's `variant` is the side of the train bought; another train (a trade-in) is as it is
            return self._train_side(self.trains[value], action.get("variant") if name == "train" else None)
        return value

    def copy(self) -> "GameBase":
        """An independent game in the same state (for look-ahead: play on the copy leaves this game as it
        was). What never changes during play is shared: the entities, certificates and trains (small
        immutable values that play compares by identity too), the map's hexes, tiles and geometry;
        everything else (cash, owners, the board's tiles and tokens, the market, the random draws to
        come, the actions taken) is copied. Only between actions: raises RuntimeError inside one."""
        import copy as copying

        if self.j.active:
            raise RuntimeError("a game is copied between actions, not while one is being processed")
        shared: list[Any] = [BANK, POOL, IPO, SCRAP, DEPOT, SUBSIDY, self.DATA]
        shared += self.players + self.corporations + self.privates + self.bonds + self.minors + self.pickables
        shared += list(self.certificates.values()) + list(self.trains.values())
        shared += [self.by_id, self.certificates, self.certs_of, self.trains, self.train_sides, self.log_ids]
        board = self.board
        if board is not None:
            shared += [board.geometry, board.hexes, board.tiles, board.upgrades, board.rules, board.nbr,
                       board.borders, board.phases, *board.tiles.values(), *(h.tile for h in board.hexes.values())]
        memo = {id(value): value for value in shared}
        memo[id(self._route_memo)] = {}  # caches: the copy keeps its own
        memo[id(self._route_answers)] = {}
        if board is not None:
            memo[id(board.reaches)] = {}
            memo[id(board.graphs)] = {}
            memo[id(board.judged)] = {}
        return copying.deepcopy(self, memo)

    def legal_actions(self) -> list[Action]:
        """Every legal action now: candidates from the vocabulary, each
        tried in a transaction that is rolled back."""
        if self.g["finished"]:
            return []
        with self._listing(probing=True):
            return [candidate for candidate in self._candidates() if self.is_legal(candidate)]

    @contextlib.contextmanager
    def _listing(self, probing: bool):
        """A listing of candidates: with `probing`, an action's candidates are skipped where its probes
        refuse them (`_group_refused`, `_pair_refused`; the pair probes' answers kept for the state it
        lists in); without, each is tried (the oracle). Restores the enclosing listing's setting."""
        saved = self._probing, self._pair_answers
        self._probing = probing
        self._pair_answers = (len(self.j._marks), {}) if probing else None
        try:
            yield
        finally:
            self._probing, self._pair_answers = saved

    def oracle_legal_actions(self) -> list[Action]:
        """`legal_actions` with no shortcut in the listing: every candidate the vocabulary gives (every
        tile at every rotation on every hex in reach, where `legal_actions` leaves out those the
        title's fixed tables refuse; no probe asked, `_group_refused`; the best routes searched again, where `legal_actions` takes a
        search made in the same state), each tried and rolled back. The test oracle of the listing
        (tests/test_listing.py, benchmarks/listing.py): the two answer the same, as sets. (A route
        search its time bound cut has no one answer: that one is taken as it was found.)"""
        if self.g["finished"]:
            return []
        self._exhaustive = True
        try:
            with self._listing(probing=False):
                return [candidate for candidate in self._candidates() if self.is_legal(candidate)]
        finally:
            self._exhaustive = False

    def random_legal_action(self, rng: random.Random) -> Action | None:
        """One legal action drawn at random, each of `legal_actions()` as
        likely as the others (the first legal candidate in a shuffled
        order), trying candidates only until one is legal; None when none is
        (or the game is over). For random playouts."""
        if self.g["finished"]:
            return None
        with self._listing(probing=True):
            candidates = self._candidates()
            order = list(range(len(candidates)))
            rng.shuffle(order)
            for index in order:
                if self.is_legal(candidates[index]):
                    return candidates[index]
            return None

    def refused_by_gaps(self) -> list[str]:
        """The rule gaps that the current candidates run into (each message
        once, in candidate order): why nothing is legal in a title with gaps."""
        gaps: list[str] = []
        for candidate in self._candidates():
            self.j.begin()
            try:
                self._dispatch(candidate)
            except RuleGap as exc:
                if str(exc) not in gaps:
                    gaps.append(str(exc))
            except IllegalAction:
                pass
            finally:
                self.j.rollback()
        return gaps

    def is_legal(self, action: Action) -> bool:
        answers = self._pair_answers
        if answers is not None and answers[0] == len(self.j._marks) and not self._exhaustive \
                and self._pair_refused(action, answers[1]):
            return False
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
        vocabulary type (generators below), and the title's any-time actions
        for every other entity that could take them; the DSL's guards decide."""
        return list(self._iter_candidates())

    #: the vocabulary types whose candidates cost the most to list (a route search, every lay): tried last
    #: where only the existence of a legal action is asked
    COSTLY = ("run_routes", "lay_tile")

    def _iter_candidates(self, cheap_first: bool = False) -> Iterator[Action]:
        """The candidates of `_candidates`, generated one action type at a time (the costly types last
        with `cheap_first`)."""
        entity = self.current_entity()
        if entity is None:
            return
        pending = self.g.get("pending")
        # the end by agreement is no move of the game: never a candidate
        names = [name for name in self.ACTION_PARAMS
                 if not (pending and name != pending[0][2]) and name not in OUT_OF_TURN]
        if pending and entity.kind == "corporation" and self._station_swap(entity) is not None \
                and pending[0][2] == "place_token" and "pass" in self.ACTION_PARAMS:
            names.append("pass")  # a takeover's station choice may be declined
        if self._declinable_pending() and "pass" in self.ACTION_PARAMS:
            names.append("pass")  # a decision the title lets its owner decline
        if cheap_first:
            names.sort(key=lambda name: any(name.endswith(kind) for kind in self.COSTLY))
        if entity.kind == "corporation" and "sell_shares" in self.ACTION_PARAMS and not pending:
            president = self.b_president(entity)
            if president is not None and self.b_must_buy_train(entity):
                # the president's emergency sales (the title's guards decide which)
                yield from self._cand_sell_shares(president, {"entity": president.id, "entity_type": "player"})
        yield from self._iter_candidates_for(entity, names)
        if not pending:
            for name in self._any_time_actions():
                if name not in self.ACTION_PARAMS or name in OUT_OF_TURN:
                    continue
                for other in self._possible_actors(name):
                    if other != entity:
                        yield from self._iter_candidates_for(other, [name])

    @staticmethod
    def _idle(action: Action) -> bool:
        """A pass, or a run of no train: what skipping a step does."""
        return action["type"] == "pass" or (action["type"] == "run_routes" and not action.get("routes"))

    def _some_legal(self, candidates: Iterable[Action]) -> bool:
        """Whether one of `candidates` other than an idle one is legal now; stops at the first, and a route
        search stops at its first paying run (`_quick_routes`)."""
        self._quick_routes = True
        try:
            with self._listing(probing=True):
                return any(not self._idle(c) and self.is_legal(c) for c in candidates)
        finally:
            self._quick_routes = False

    def _possible_actors(self, name: str) -> list[Entity]:
        """Entities of the kind an action's first parameter names (open privates only)."""
        kinds = self.ACTION_PARAMS[name][0][1]
        out: list[Entity] = []
        if "player" in kinds:
            out.extend(self.players)
        if "corporation" in kinds:
            out.extend(self.corporations)
        if "private" in kinds:
            out.extend(p for p in self.privates if not self.closed[p.id])
        return out

    def _later_step_actions(self, entity: Entity) -> frozenset[str]:
        """The actions of the steps after the operating company's current one, while it may pass that step:
        no candidates (taken now they would pass the steps between, as a log's action does, see
        `_pass_steps_before`; legal now means legal at this step). Where the step may not be passed (a
        train owed), its guards judge them as they stand."""
        if self.g["round"] != "operating" or self.g.get("pending") or self.g.get("operating") != entity.id:
            return frozenset()
        steps, current = self._steps(), self.g.get("step")
        if current not in steps:
            return frozenset()
        later = {kind for step in steps[steps.index(current) + 1:] for kind in STEP_ACTIONS.get(step, (step,))}
        later -= set(STEP_ACTIONS.get(current, (current,)))
        if not later or not self.is_legal({"type": "pass", "entity": entity.id, "entity_type": self.entity_type(entity)}):
            return frozenset()
        return frozenset(later)

    def _candidates_for(self, entity: Entity, names: Iterable[str]) -> list[Action]:
        return list(self._iter_candidates_for(entity, names))

    def _iter_candidates_for(self, entity: Entity, names: Iterable[str]) -> Iterator[Action]:
        etype_of = self.entity_type(entity)
        who = {"entity": entity.id, "entity_type": etype_of}
        later = self._later_step_actions(entity)
        for name in names:
            if name in later:
                continue
            vtype, etype, round_of, actors = self._action_shape(name)
            if round_of is not None:
                if round_of != self.g["round"]:
                    continue
            elif f"{self.g['round']}_{name}" in self.ACTION_PARAMS and self.g["round"] in ROUND_ACTION_PREFIXES:
                continue  # the round's own action answers for this type
            if etype is not None and etype != etype_of:
                continue
            if etype is None and f"{etype_of}_{name}" in self.ACTION_PARAMS:
                continue  # the entity-specific action answers for this type
            if actors is not None and entity.kind not in actors \
                    and not (name == "pass" and self.g.get("pending")):  # a pending decision's owner may decline it
                continue  # an action another kind of entity takes (a player's par, never a corporation's)
            if self._probing and not self._exhaustive and vtype not in self.UNPROBED and name in self.PROBES \
                    and self._group_refused(name, entity, who):
                continue  # the action's opening guards refuse the entity: every candidate would be refused
            generator = (getattr(self, f"_cand_{round_of}_{vtype}", None) if round_of is not None else None) \
                or getattr(self, f"_cand_{vtype}", None)
            if generator is not None:
                yield from generator(entity, who)
            else:
                yield from self._title_action_candidates(vtype, self.ACTION_PARAMS[name], who, name)

    #: the vocabulary types whose candidates are tried without a probe first (`_group_refused`): one
    #: candidate each, which costs no more to try than the probe. A fixed list, so that what a listing
    #: holds, and the random play drawn from it, is a function of the state alone
    UNPROBED = frozenset({"pass", "bankrupt", "run_routes"})

    def _group_refused(self, name: str, entity: Entity, who: dict) -> bool:
        """Whether the action `name`'s opening guards that read only its entity (its probe, `PROBES`)
        refuse `entity` now. The probe runs as the action's dispatch would run them, in a transaction
        rolled back: the same refusals before the binding (`_open_action`: a decision owed, the steps
        passed before the action), the same turn check (`_check_actor`), then the guards. Those read
        nothing of the action but its entity, so where they refuse, every candidate of the action for
        that entity is refused by the same guard; anything else the probe meets leaves the candidates
        to be tried."""
        action = {"type": self._action_shape(name)[0], **who}
        if self.action_name(action) != name:
            return False
        return self._probe_refuses(action, self.PROBES[name])

    def _probe_refuses(self, action: Action, probe: Callable, *values: Any) -> bool:
        """Whether `probe` (an action's opening guards, given its entity and `values`) refuses `action`,
        run as the action's dispatch runs them, in a transaction rolled back: the refusals before the
        binding (`_open_action`), the turn check (`_check_actor`), then the guards. Anything but a
        refusal the probe meets leaves the candidates to be tried (their own trial meets it, as the
        oracle's does)."""
        named = self._named_shares
        self.j.begin()
        try:
            kind, _routine, rule = self._open_action(action)
            actor = self.find(action["entity"])
            self._check_actor(kind, [actor], rule)
            probe(self, actor, *values)
        except (IllegalAction, RuleGap):
            return True
        except Exception:  # noqa: BLE001
            return False
        finally:
            self._named_shares = named
            self.j.rollback()
        return False

    def _pair_skips(self, action: Action) -> bool:
        """In a listing, whether the pair probe of `action` (the type, entity and second parameter every
        candidate of a group shares, `_pair_refused`) refuses them all, so the group need not be listed."""
        answers = self._pair_answers
        return (self._probing and not self._exhaustive and answers is not None
                and answers[0] == len(self.j._marks) and self._pair_refused(action, answers[1]))

    def _pair_refused(self, action: Action, answers: dict) -> bool:
        """Whether the opening guards of the action that read only its entity and its second parameter
        (its pair probe, `PAIR_PROBES`) refuse `action`, asked once per listing for each entity and value
        of that parameter (`answers`, the listing's own, in the state it lists): 1880's `par`, ~670
        candidates in a stock round, is judged by company before its prices, rows and layouts. The
        probe runs as `_group_refused`'s does, with the action's own type, entity and fields."""
        kind = self.action_name(action)
        probe = self.PAIR_PROBES.get(kind)
        if probe is None:
            return False
        name, types = self.ACTION_PARAMS[kind][1]
        try:
            value = self._bind_param(kind, name, types, action)
            key = (kind, action["entity"], action.get("entity_type"), value)
            known = answers.get(key)
        except Exception:  # noqa: BLE001 - unbound or unhashable: the trial decides
            return False
        if known is None:
            known = answers[key] = self._probe_refuses(action, probe, value)
        return known

    #: (engine class, action name) -> `_action_shape`: a function of the title's vocabulary alone
    _SHAPES: dict[tuple[type, str], tuple[str, str | None, str | None, frozenset[str] | None]] = {}

    def _action_shape(self, name: str) -> tuple[str, str | None, str | None, frozenset[str] | None]:
        """What the name of one of the title's actions says: its vocabulary type ("buy_shares" for
        `corporation_buy_shares`), the kind of entity it is for (or None), the round it belongs to (or
        None) and the kinds of entity that may take it (None: any), from its first parameter."""
        key = (type(self), name)
        shape = self._SHAPES.get(key)
        if shape is None:
            params = self.ACTION_PARAMS[name]
            vtype, etype = name, None
            for kind in ("player", "corporation", "company"):
                if name.startswith(kind + "_") and name[len(kind) + 1:] in VOCABULARY:
                    vtype, etype = name[len(kind) + 1:], kind
            round_of = next((r for r in ROUND_ACTION_PREFIXES if name.startswith(r + "_")
                             and name[len(r) + 1:] in VOCABULARY), None)
            if round_of is not None:
                vtype = name[len(round_of) + 1:]
            first = {str(k) for k in params[0][1]} if params else set()
            actors = frozenset().union(*(ACTOR_KINDS[k] for k in first)) \
                if first and first <= set(ACTOR_KINDS) else None
            shape = self._SHAPES[key] = (vtype, etype, round_of, actors)
        return shape

    def _cand_pass(self, entity, who):
        return [{"type": "pass", **who}]

    def _cand_buy_company(self, entity, who):
        out = []
        if self.g["round"] == "stock":
            item = self.b_private_on_sale()
            if item is not None:
                out.append({"type": "buy_company", **who, "company": item.id, "price": self.g["sale_price"]})
            return out
        for item in self.privates + self.minors:
            if (self.closed[item.id] if item.kind == "private" else self.corp[item.id]["closed"]) \
                    or self.owner[item.id] in (BANK, entity):
                continue
            prices = {item.get("min_price"), item.get("cost"), item.get("max_price")}
            for price in sorted(p for p in prices if isinstance(p, int)):
                out.append({"type": "buy_company", **who, "company": item.id, "price": price})
        return out

    def _cand_bid(self, entity, who):
        out = []
        if self.g["round"] == "acquisition":
            # a corporation's one bid for the corporation being auctioned: the least over the highest, a
            # middle bid, and all its cash
            target = self.b_acquisition_target()
            if target is None or entity.kind != "corporation":
                return []
            least = self.b_highest_acquisition_bid() + 1
            prices = sorted({least, max(least, self.cash[entity] // 2), max(least, self.cash[entity])})
            return [{"type": "bid", **who, "corporation": target.id, "price": p} for p in prices]
        if self.g["round"] == "draft":
            # the price paid, or the card's face value (a title may record that in a pick); the guards decide
            for card in self.b_draft_hand():
                item = self._company(card)
                for price in sorted({self.b_draft_price(item), self.b_face_value(item)}):
                    out.append({"type": "bid", **who, "company": card, "price": price})
            return out
        auction = self.g.get("auction")
        step = int(self.DATA.properties.get("min_bid_raise", 5))
        if self._open_auction_on():
            return self._open_bid_candidates(entity, who, None)
        if self.g["round"] == "auction":
            if self.b_picking():
                return [{"type": "bid", **who, "minor": x, "price": 0} for x in self.g["starting"]["picks"]]
            item = self.b_auction_company()
            high = self.g["starting"]["high"]
            face = int(self._value(item.get("cost"), f"private {item} cost"))
            prices = (face, face + step, face + 4 * step) if high is None else (high[1] + step, high[1] + 2 * step)
            return [{"type": "bid", **who, "company": item.id, "price": p} for p in prices]
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

    def _cand_move_bid(self, entity, who):
        if not self._open_auction_on():
            return []
        out = []
        for old, pid, _ in self.g.get("bids", ()):
            if pid == entity.id:
                out.extend(self._open_bid_candidates(entity, who, old))
        return out

    def _open_bid_candidates(self, entity, who, old):
        """Bids in the open auction: on each private still on sale, the least legal bid and one step more
        (moving the bid on `old` where it is given)."""
        step = int(self.DATA.properties.get("bid_step") or self.DATA.properties.get("min_bid_raise") or 5)
        raise_ = int(self.DATA.properties.get("min_bid_raise") or step)
        out = []
        for item in self.privates:
            if self.closed[item.id] or self.owner[item.id] is not BANK or item.id == old:
                continue
            face = int(self._value(item.get("cost"), f"private {item} cost"))
            high = self.b_highest_bid(item)
            least = max(face, high + raise_) if high else face
            least = -(-least // step) * step
            for price in (least, least + step):
                action = {"type": "move_bid" if old else "bid", **who, "company": item.id, "price": price}
                if old:
                    action["from_company"] = old
                out.append(action)
        return out

    def _cand_par(self, entity, who):
        out = []
        params = [n for n, _ in self.ACTION_PARAMS.get("par", ())]
        named_slot, named_percent = "slot" in params, "president_percent" in params
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                if self._pair_skips({"type": "par", **who, "corporation": corp.id}):
                    continue  # its guards refuse the founder this corporation: no price, row or layout listed
                for price in self.b_par_prices(corp):
                    cell = self.market.par_cell(price)
                    if cell is None:
                        continue
                    action = {"type": "par", **who, "corporation": corp.id,
                              "share_price": f"{price},{cell[0]},{cell[1]}"}
                    # the founder picks the row on a round track (1880 VI.6), where the action names one
                    rows = self._round_track_slots(price) if named_slot else [None]
                    actions = [{**action, "slot": r} if r is not None else action for r in rows]
                    layouts = corp.get("share_layouts")
                    if isinstance(layouts, dict) and named_percent:
                        # the founder picks the size of the president's certificate
                        out.extend({**a, "president_percent": p} for a in actions for p in sorted(layouts))
                    else:
                        out.extend(actions)
        return out

    def _cand_buy_shares(self, entity, who):
        out = []
        sources = (POOL,) if entity.kind == "corporation" else None
        corporate_certificates = any(n == "shares" for n, _ in self.ACTION_PARAMS.get("buy_shares", ()))
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                continue
            if self._pair_skips({"type": "buy_shares", **who, "corporation": corp.id}):
                continue  # its guards refuse the buyer this corporation's shares, whichever
            if entity.kind == "corporation" and corp != entity:
                if "corporate_buy_shares" in self.ACTION_PARAMS:
                    continue  # the vocabulary's corporate_buy_shares names these
                # another corporation's certificates, one at a time, from the market or the buyer's president
                # (where the title lets corporations buy them, its guards say)
                president = self.b_president(entity)
                for cert in self.certs_of[corp.id]:
                    if not cert.president and self.owner[cert.id] in (POOL, president):
                        out.append({"type": "buy_shares", **who, "shares": [cert.id], "percent": cert.percent})
                continue
            holders = sources or tuple(dict.fromkeys((self._ipo_of(corp), corp, POOL)))
            if entity.kind == "player" and "shares" in [n for n, _ in self.ACTION_PARAMS.get("buy_shares", ())]:
                # a certificate another corporation holds, where the title's buy_shares names the certificate
                # bought (18 Grand Junction's Cleveland Graham); its guards say whether it may be bought
                for cert in self.certs_of[corp.id]:
                    holder = self.owner[cert.id]
                    if isinstance(holder, Entity) and holder.kind == "corporation" and holder != corp \
                            and not cert.president:
                        out.append({"type": "buy_shares", **who, "shares": [cert.id], "percent": cert.percent})
                        break
            for holder in holders:
                certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == holder and not c.president]
                limit = len(certs) if entity.kind == "corporation" else min(1, len(certs))
                for k in range(1, limit + 1):
                    chosen = certs[:k]
                    out.append({"type": "buy_shares", **who, "shares": [c.id for c in chosen],
                                "percent": sum(c.percent for c in chosen)})
            if entity.kind == "player" and corporate_certificates:
                # a certificate another corporation holds of this one (18CO §4.2.2), where the title's buy_shares
                # names the certificate bought; its guards say who may buy it and when
                for cert in self.certs_of[corp.id]:
                    holder = self.owner[cert.id]
                    if not cert.president and isinstance(holder, Entity) and holder.kind == "corporation" \
                            and holder != corp:
                        out.append({"type": "buy_shares", **who, "shares": [cert.id], "percent": cert.percent})
        return out

    def _cand_special_buy_shares(self, entity, who):
        """In a special round: each certificate a corporation holds of another corporation."""
        out = []
        for cert in self.certificates.values():
            holder = self.owner[cert.id]
            if isinstance(holder, Entity) and holder.kind == "corporation" and cert.corporation != holder.id:
                out.append({"type": "buy_shares", **who, "shares": [cert.id], "percent": cert.percent})
        return out

    def _cand_corporate_buy_shares(self, entity, who):
        """A corporation buying another corporation's certificates (the vocabulary's corporate_buy_shares):
        each ordinary certificate of another started corporation in the market or held by the buyer's
        president (the title's guards say which may be bought)."""
        if entity.kind != "corporation":
            return []
        president = self.b_president(entity)
        return [{"type": "corporate_buy_shares", **who, "shares": [cert.id], "percent": cert.percent}
                for corp in self.corporations if corp != entity and self.corp[corp.id]["par"] is not None
                for cert in self.certs_of[corp.id]
                if not cert.president and self.owner[cert.id] in (POOL, president)]

    def _cand_corporate_sell_shares(self, entity, who):
        """A corporation selling certificates it holds of another corporation (the vocabulary's
        corporate_sell_shares): the first k of them, for each k."""
        if entity.kind != "corporation":
            return []
        out = []
        for corp in self.corporations:
            if corp == entity:
                continue
            certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == entity and not c.president]
            for k in range(1, len(certs) + 1):
                out.append({"type": "corporate_sell_shares", **who, "shares": [c.id for c in certs[:k]],
                            "percent": sum(c.percent for c in certs[:k])})
        return out

    def _cand_sell_shares(self, entity, who):
        out = []
        for corp in self.corporations:
            if entity.kind == "corporation" and corp != entity and "corporate_sell_shares" in self.ACTION_PARAMS:
                continue  # the vocabulary's corporate_sell_shares names these
            if entity.kind == "corporation":
                # its own certificates (issuing), or those it holds of another corporation (where the title
                # lets it sell them, its guards say)
                certs = [c for c in self.certs_of[corp.id] if self.owner[c.id] == entity and not c.president]
            else:
                certs = self.b_sellable(entity, corp)
            for k in range(1, len(certs) + 1):
                chosen = certs[:k]
                out.append({"type": "sell_shares", **who, "shares": [c.id for c in chosen],
                            "percent": sum(c.percent for c in chosen)})
            pres = self.certs_of[corp.id][0]
            if entity.kind == "player" and self.DATA.properties.get("president_certificate_sale") == "by_presidency_exchange" \
                    and self.owner[pres.id] == entity and pres not in certs and self.corp[corp.id]["cell"] is not None:
                # the president's certificate, alone or with the rest, sold whole or but one share of it (where
                # the title sells it by a presidency exchange: its guards say when)
                for chosen in ([pres], [*certs, pres]) if certs else ([pres],):
                    whole = sum(c.percent for c in chosen)
                    for pct in sorted({whole, whole - 10}):
                        out.append({"type": "sell_shares", **who, "shares": [c.id for c in chosen], "percent": pct})
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
            train = self.trains[tid]
            for side in [train.name, *self.train_sides.get(train.name, ())]:
                price = self.b_bank_price(entity, self._train_side(train, side))
                out.append({"type": "buy_train", **who, "train": tid, "price": price, "variant": side})
                if "exchange" in self.ACTION_DEFAULTS.get("buy_train", {}):
                    # a trade-in (the optional `exchange`): each train the buyer owns that this one takes in
                    # trade, at the discounted price
                    for own in self.b_trains(entity):
                        discount = self.call("trade_in_discount", self._train_side(train, side), own)
                        if discount:
                            out.append({"type": "buy_train", **who, "train": tid, "price": price - discount,
                                        "variant": side, "exchange": own.id})
        for t in self.b_trains(POOL):
            # the printed price, or half of it where a title sells the pool's trains so
            out.extend({"type": "buy_train", **who, "train": t.id, "price": p}
                       for p in sorted({t.price, t.price // 2}))
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
        extras = self._route_extras(corp)
        # what the search reads: the board (its version moves with every change to it, tokens
        # included), the company, its trains, the phase and its bonuses
        key = (self.board.version, corp.id, repr(trains), self.g["phase"], self._quick_routes, repr(extras))
        best = self._route_memo.get(key)
        if best is None or (self._exhaustive and best.complete):
            # (the oracle searches again, but for a search its time bound cut, which has no one answer)
            if self._quick_routes:
                # only whether a paying run exists is asked: the search stops at its first one
                best = track.best_routes(self.board, corp.id, trains, self.g["phase"], time_limit=2.0,
                                         max_routes=1, extras=extras)
            else:
                best = track.best_routes(self.board, corp.id, trains, self.g["phase"], time_limit=2.0,
                                         extras=extras, memo=self._route_answers)
            if len(self._route_memo) >= 64:
                self._route_memo.clear()
            self._route_memo[key] = best
        return [{"type": "run_routes", **who, "routes": [run.as_dict() for run in best.runs]}]

    def _cand_lay_tile(self, entity, who):
        if entity.kind == "private":
            yield from self._cand_ability_lays(entity, who)
            return
        if not self.b_in_step(entity, "lay_tile") or self.board is None or self.b_lays_left() <= 0:
            return
        for lay in track.iter_legal_lays(self.board, entity.id, self._phase_colors(), cash=self.cash[entity],
                                         exhaustive=self._exhaustive):
            used = self.board.in_use.get(lay.tile, set())
            copy = next(i for i in range(len(used) + 1) if i not in used)
            yield {**lay.action(entity.id, copy), "entity_type": entity.kind}

    def _cand_assign(self, entity, who):
        """A private's revenue marker (effect: hex_marker) into each hex it may go, or the marker of a
        company's card (effect: bonus_token) on each city hex; the guards decide when."""
        if entity.kind == "corporation" and self.b_has_power(entity, "bonus_token") and self.b_cubes(entity) \
                and self.board is not None:
            return [{"type": "assign", **who, "target": h, "target_type": "hex"}
                    for h in sorted(self.board.hexes) if self.board.tile_at(h).cities]
        if entity.kind != "private":
            return []
        out = []
        for ability in self._abilities(entity, "hex_marker"):
            hexes = [str(h) for h in ability.get("hexes") or ()] + [str(e["hex"]) for e in ability.get("bonuses") or ()]
            for hex_id in dict.fromkeys(hexes):
                out.append({"type": "assign", **who, "target": hex_id, "target_type": "hex"})
        if self.b_marker_assigned_by_player(entity):
            # the corporation a player owner's marker serves (the guards decide)
            out.extend({"type": "assign", **who, "target": c.id, "target_type": c.kind}
                       for c in self.corporations + self.minors
                       if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"])
        holder = self.owner.get(entity.id)
        if not self.closed[entity.id] and isinstance(holder, Entity) and holder.kind == "player" and any(
                a.get("kind") == "ability" and a.get("effect") not in (None, "hex_marker")
                for a in entity.get("children") or ()):
            # a private whose ability a player owner gives to one of his corporations (1880 Romania's REMAR
            # and Electroputere as 18xx.games has them): each corporation he directs (the guards decide)
            out.extend({"type": "assign", **who, "target": c.id, "target_type": "corporation"}
                       for c in self.corporations if self._director(c) == holder and not self.corp[c.id]["closed"])
        return list({(a["target"], a["target_type"]): a for a in out}.values())

    def _cand_ability_lays(self, company, who):
        """A private's tile-lay ability: every tile of its list in each of its hexes, at each rotation, that
        the check allows (the guards decide when)."""
        out = []
        generic = any(self._generic_timing(a) for a in self._abilities(company, "free_lay"))
        if self.board is None or self.closed[company.id] or not generic and (
                self.owner[company.id].kind != "corporation" or self.g.get("operating") != self.owner[company.id].id):
            return out
        for ability in self._abilities(company, "free_lay"):
            hexes = ability.get("hexes")
            if not hexes:
                # any hex: where the owner could lay one of the ability's tiles (cost aside: the lay is free)
                tiles = {str(t) for t in ability.get("tiles") or ()}
                hexes = sorted({lay.hex for lay in track.legal_lays(self.board, self.owner[company.id].id,
                                                                    self._phase_colors()) if lay.tile in tiles})
            for hex_id in hexes:
                for name in ability.get("tiles") or ():
                    if not ability.get("upgrades_from") \
                            and str(name) not in self.board.upgrade_targets(self.board.tile_at(str(hex_id))):
                        continue
                    for rotation in range(6):
                        try:
                            lay = self.b_check_ability_lay(company, str(hex_id), str(name), rotation)
                        except IllegalAction:
                            continue
                        used = self.board.in_use.get(lay.tile, set())
                        copy = next(i for i in range(len(used) + 1) if i not in used)
                        out.append({**lay.action(company.id, copy), **who})
        return out

    def _cand_remove_token(self, entity, who):
        """A private's ability to take a station back (effect: return_token): each station of its owning
        corporation while it has more than one on the map (the guards decide when)."""
        if entity.kind != "private" or self.board is None or self.closed[entity.id] \
                or not self._abilities(entity, "return_token"):
            return []
        owner = self.owner[entity.id]
        if owner.kind != "corporation" or self.g.get("operating") != owner.id:
            return []
        stations = list(self.board.tokens_of(owner.id))
        if len(stations) <= 1:
            return []
        return [{"type": "remove_token", **who, "city": track.node_id(ref)} for ref in stations]

    def _cand_place_token(self, entity, who):
        if entity.kind == "private":
            out = []
            for ability in self._abilities(entity, "free_token"):
                if self.board is not None:
                    ref = (str(ability["hex"]), int(ability.get("city", 0)))
                    out.append({"type": "place_token", **who, "city": track.node_id(ref)})
            return out
        swap = self._station_swap(entity) if entity.kind == "corporation" else None
        if swap is not None and self.board is not None and self.b_pending_decision(entity, "place_token"):
            return [{"type": "place_token", **who, "city": track.node_id(ref)} for ref in self.board.tokens_of(swap[1])]
        if self.board is not None and self.b_pending_decision(entity, "place_token") and self._home_chosen(entity):
            return [spot.action(entity.id) for spot in self._open_cities(entity)]
        again = (self.g.get("retoken") or {}).get(entity.id)
        if again is not None and self.board is not None and self.b_pending_decision(entity, "place_token"):
            # a token a first tile took up goes back into a city of its hex (`token_city_on_first_lay`)
            return [{"type": "place_token", **who, "city": self.board.city_id(ref)}
                    for ref in self.board.nodes() if ref[0] == again and self.board.node(ref).kind == "city"]
        if not self.b_in_step(entity, "place_token") or self.board is None:
            return []
        spots = track.legal_tokens(self.board, entity.id)
        out = [spot.action(entity.id) for spot in spots]
        if self.b_has_power(entity, "squeeze_token"):
            # beside the circles of a reachable city with none free (the guards decide)
            taken = {(s.hex, s.node) for s in spots}
            for ref in sorted(track.reach(self.board, entity.id).nodes):
                if ref not in taken and self.board.node(ref).kind == "city":
                    out.append({"type": "place_token", **who, "city": track.node_id(ref)})
        # a slot one of its abilities keeps, reachable or not (the guards decide)
        for ability in self._abilities(entity, "reserved_slot"):
            for (hex_id, node), kept in self.board.reserved.items():
                if hex_id == str(ability["hex"]) and entity.id in kept \
                        and all((s.hex, s.node) != (hex_id, node) for s in spots):
                    out.append({"type": "place_token", **who, "city": track.node_id((hex_id, node))})
        return out

    def _title_action_candidates(self, kind: str, params, who: dict, action: str | None = None) -> list[Action]:
        """Candidates for a title's own action (`action`, of vocabulary type `kind`): each later parameter
        ranges over the entities of its type (a money parameter over the price range of the private the
        candidate names, `_money_range`, else every price the title declares; a train, hex, tile or
        certificate over `_declared_kind_choices`); an optional field is also left out."""
        optional = self.ACTION_DEFAULTS.get(action or kind, {})
        first = params[0][1] if params else ()
        if who.get("entity_type") == "player" and "player" not in first or \
                who.get("entity_type") == "corporation" and "corporation" not in first:
            return []  # the action is another kind of entity's
        combos: list[dict] = [{}]
        for name, types in params[1:]:
            values: list[Any] = []
            t = types[0]
            if len(types) > 1 and all(x in ("player", "corporation") for x in types):
                # a union of holders: for a private owned by a player, that player and the companies he
                # directs (what a private's ability can reach); else every holder. The guards decide.
                actor = self.find(who["entity"])
                holder = self.owner.get(actor.id) if actor.kind == "private" else None
                if holder is not None and holder.kind == "player":
                    values = [holder.id] * ("player" in types) + [
                        c.id for c in self.corporations + self.minors
                        if "corporation" in types and self._director(c) == holder]
                else:
                    values = [e.id for x in types for e in (self.players if x == "player"
                                                            else self.corporations + self.minors)]
            elif t in ("int", "money") and isinstance(self.DATA.properties.get(f"{kind}_options"), list):
                # the title's `<action>_options`: the values its number parameter ranges over
                values = list(self.DATA.properties[f"{kind}_options"])
            elif t is not None and t == self._card_kind():
                # a parameter naming an ability card: those left in the deck, or none (a decline)
                values = [*self.b_deck(), "none"]
            elif t == "bond":
                values = [b.id for b in self.bonds]
            elif t == "private":
                values = [p.id for p in self.privates]
            elif t == "corporation":
                values = [c.id for c in self.corporations]
            elif t == "player":
                values = [p.id for p in self.players]
            elif t == "money":
                # over the price range of the private the candidate names (the acting private, or one a
                # parameter before binds), else every price the title declares
                declared = sorted({0, *[int(v) for v in self._money_candidates()]})
                expanded = []
                for c in combos:
                    amounts = self._money_range(self._named_private(who, c)) or declared
                    if name in optional:
                        expanded.append(c)  # left out: its default
                        amounts = [v for v in amounts if v != optional[name]]
                    expanded.extend({**c, name: v} for v in amounts)
                combos = expanded
                continue
            elif t == "name" and isinstance(self.DATA.properties.get(f"{kind}_options"), list):
                # a choice among the title's `<action>_options` (1880's building rights; a number stays one)
                values = [v if isinstance(v, int) and not isinstance(v, bool) else str(v)
                          for v in self.DATA.properties[f"{kind}_options"]]
            elif t in ("train", "hex", "tile", "list[certificate]"):
                values = self._declared_kind_choices(t, who)
            elif name not in optional:
                return []
            if name in optional:
                # an optional field: left out (its default), or each value of its kind
                values = [None, *(v for v in values if v != optional[name])]
            combos = [{**c, name: v} if v is not None else c for c in combos for v in values]
        # an entity kind's own action (`player_choose`) is the vocabulary's type (`choose`) for that kind
        vocab = kind
        prefix = f"{who.get('entity_type')}_"
        if kind.startswith(prefix) and kind[len(prefix):]:
            vocab = kind[len(prefix):]
        return [{"type": vocab, **who, **c} for c in combos]

    def _declared_kind_choices(self, kind: str, who: dict) -> list[Any]:
        """The values a title action's parameter of a declared kind is tried at in random play: a train (the
        actor's, its owner's companies', the bank's on sale and the pool's), a hex and a tile (those the
        acting private's abilities name, else every hex of the map and every tile of the title's set), a
        certificate list (each certificate the actor, its owner or the pool holds, alone). The guards decide."""
        actor = self.find(who["entity"])
        holder = self.owner.get(actor.id) if actor.kind == "private" else actor
        if kind == "train":
            holders = [actor, holder, *(c for c in self.corporations + self.minors
                                        if holder is not None and self._director(c) == holder)]
            own = [t.id for t in self.trains.values() if self.owner[t.id] in holders]
            return [*dict.fromkeys([*own, *self._available_train_ids(), *(t.id for t in self.b_trains(POOL))])]
        if kind == "list[certificate]":
            return [[c.id] for c in self.certificates.values() if self.owner[c.id] in (actor, holder, POOL)]
        if self.board is None:
            return []
        named: list[str] = []
        for ability in actor.get("children") or ():
            if ability.get("kind") == "ability":
                for key in (kind, kind + "s"):
                    value = ability.get(key)
                    named.extend(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
        if named:
            return [*dict.fromkeys(named)]
        return sorted(self.board.hexes) if kind == "hex" else sorted(self.board.tiles)

    def _named_private(self, who: dict, combo: dict) -> Entity | None:
        """The private a title action's candidate names: the acting private, else the first parameter
        bound to a private (None if neither)."""
        actor = self.find(who["entity"])
        if actor.kind == "private":
            return actor
        for value in combo.values():
            item = self.by_id.get(("private", str(value)))
            if item is not None:
                return item
        return None

    def _money_range(self, item: Entity | None) -> list[int]:
        """The amounts random play tries for a price of private `item`: its range from `min_price` to
        `max_price`, in steps of the title's `bid_step` (else `min_bid_raise`, else 5), at most five
        amounts spread evenly over it, its face value (`cost`) among them where it lies inside; [] for
        none or a private without both bounds. A DSL action's own guards decide which are legal."""
        if item is None:
            return []
        low, high = item.get("min_price"), item.get("max_price")
        if not isinstance(low, int) or not isinstance(high, int) or high < low:
            return []
        step = int(self.DATA.properties.get("bid_step") or self.DATA.properties.get("min_bid_raise") or 5)
        amounts = list(range(low, high + 1, max(1, step)))
        if amounts[-1] != high:
            amounts.append(high)
        if len(amounts) > 5:
            amounts = [amounts[round(i * (len(amounts) - 1) / 4)] for i in range(5)]
        cost = item.get("cost")
        if isinstance(cost, int) and low <= cost <= high:
            amounts.append(cost)
        return sorted(set(amounts))

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
                "ipo_percent": self.b_percent(self._ipo_of(c), c),
                # the corporation's own holding, where the IPO is a place apart (full capitalisation)
                **({"treasury_percent": self.b_percent(c, c)} if self._ipo_of(c) is IPO else {}),
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
            **({"subsidy_pool": self.cash[SUBSIDY]} if SUBSIDY in self.cash else {}),
            "players": players,
            "corporations": corps,
            **({"minors": [{"sym": m.id, "owner": (self.owner[m.id].id if self.owner[m.id] is not BANK else None),
                            "treasury": self.cash[m], "trains": [t.id for t in self.b_trains(m)],
                            "closed": self.corp[m.id]["closed"]} for m in self.minors]} if self.minors else {}),
            "privates": [{"sym": x.id, "owner": (self.owner[x.id].id if self.owner[x.id] is not BANK else None),
                          "closed": self.closed[x.id]} for x in self.privates],
            **({f"{self.DATA.properties.get('free_pick')}s": [
                {"sym": x.id, "owner": (self.owner[x.id].id if self.owner[x.id] is not BANK else None),
                 "removed": x.id in self.g.get("removed", ())} for x in self.pickables]} if self.pickables else {}),
            **({"auction": self._auction_summary()} if self.g["round"] == "auction" else {}),
            "bonds": {b.id: self.owner[b.id].id for b in self.bonds},
            **({"loans": {k: v for k, v in self.debts.items() if v}} if self.DATA.components_of("loan") else {}),
            # components collected on a lay (`collect_on_lay`): key -> its holder
            **({str(kind) + "s": {key: holder for k, key, holder in self.g.get("collected", ()) if k == str(kind)}
                for kind in self.DATA.properties.get("collect_on_lay") or ()}),
            # the ability cards companies hold (`ability_cards`): company -> its card and the use cubes left
            **({f"{self._card_kind()}s": {corp: {str(self._card_kind()): key, "uses_left": self.g.get("cubes", {}).get(key, 0)}
                                           for corp, key in self.g.get("cards", {}).items()}} if self._card_kind() else {}),
            "trains_available": [tid for tid in self.train_order if self.owner[tid] is DEPOT],
            "acting": (self.current_entity().id if self.current_entity() else None),
            "end_reason": self.g["end_reason"],
            "result": self.result() if self.g["finished"] else None,
        }

    def _auction_summary(self) -> dict:
        """The opening auction in the state summary: the private on auction, its high bid, who passed."""
        st = self.g["starting"]
        item = self.b_auction_company()
        return {"company": item.id if item else None,
                "high_bid": list(st["high"]) if st["high"] else None,
                "passed": sorted(st["passed"]),
                "picks": list(st["picks"]) if st["picks"] is not None else None,
                # the open auction's standing bids: [private, player, amount]
                **({"bids": [list(b) for b in self.g.get("bids", ())]} if st.get("open") else {})}

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
            "engine": "rulec",
            "title": self.DATA.title,
            "variant": self.DATA.variant,
            "players": [{"id": name, "name": name} for name in self.names_given],
            "settings": {"seed": self.seed, "optional_rules": list(self.options)},
            "actions": [dict(a, id=i + 1) for i, a in enumerate(self.actions)],
            "result": self.result() if self.finished else None,
        }

    @classmethod
    def from_log(cls, log: dict) -> "GameBase":
        """Replay `log` (rulec's own, or one as 18xx.games writes it: `compiler.runtime.sitelog` reads it,
        undos, redos and auto actions included). Raises `IllegalAction` at the first action the engine
        refuses, naming the action and the rule."""
        from compiler.runtime.sitelog import replay

        done = replay(cls, log, monitor=False)
        if done.divergence is not None:
            raise IllegalAction(str(done.divergence), rule=done.divergence.rule)
        return done.game


#: Vocabulary actions any player may send at any moment: the end of a game by the players' agreement.
OUT_OF_TURN = ("end_game",)

#: The entity kinds that may take an action whose first parameter is of a type (a minor binds as a
#: corporation); an action whose first parameter is of another type is offered to every entity.
ACTOR_KINDS = {"player": ("player",), "corporation": ("corporation", "minor"), "minor": ("minor",),
               "private": ("private",), "company": ("private", "corporation", "minor")}

#: Action types whose candidates the runtime generates from the vocabulary.
#: Round kinds whose own actions a title may name `<round>_<type>` (`special_buy_shares`): in that round
#: they answer for the vocabulary's `<type>`.
ROUND_ACTION_PREFIXES = ("special", "acquisition")

VOCABULARY = frozenset({"move_bid", "buy_company", "par", "buy_shares", "sell_shares", "pass", "run_routes",
                        "dividend", "buy_train", "contribute", "bankrupt", "bid", "discard_train",
                        "lay_tile", "place_token", "assign", "corporate_buy_shares", "corporate_sell_shares"})
