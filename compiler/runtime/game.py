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

`GameBase` keeps construction, state, the journal, the primitives, `process`
and `_dispatch` and game end; the rest is in its parts, mixins in modules of
their own that never import this one: `stock.StockRound`,
`operating.OperatingRound`, `auctions.Auctions`, `abilities.Abilities`,
`tiles_tokens.TilesAndTokens`, `listing.Listing`, `records.Records` (the
state summary, the record and the logs) and `dsl_support.DslSupport` (names,
attributes, declared states and triggers as the engines' code reads them),
with the shared words in `vocabulary` (re-exported here).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from compiler.runtime.data import Gap, Table, TitleData, resolve_value
from compiler.runtime.entities import BANK, DEPOT, IPO, POOL, SCRAP, SUBSIDY, Certificate, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.holdings import Owners
from compiler.runtime.journal import Journal, JournaledRandom
from compiler.runtime.market import Market
from compiler.runtime import track

# the rooms of GameBase, and the shared words (all re-exported: `from compiler.runtime.game import STEPS`)
from compiler.runtime.abilities import Abilities
from compiler.runtime.auctions import Auctions
from compiler.runtime.dsl_support import DslSupport
from compiler.runtime.listing import Listing
from compiler.runtime.operating import OperatingRound
from compiler.runtime.records import Records
from compiler.runtime.stock import StockRound
from compiler.runtime.tiles_tokens import TilesAndTokens
from compiler.runtime.vocabulary import (CORP_STATE, HOLDING_STEPS, LOG_FORMAT, OUT_OF_TURN, ROUND_ACTION_PREFIXES,
                                         STEP_ACTIONS, VOCABULARY, Action)
from compiler.runtime.vocabulary import ACTOR_KINDS, COMBINED_STEPS, MAP_STEPS, STATE_RESETS, STEPS  # noqa: F401

#: a property neither the title nor an option sets (`GameBase.param`)
_UNSET = object()


class GameBase(StockRound, OperatingRound, Auctions, Abilities, TilesAndTokens, Listing, Records,
               DslSupport):
    DATA: TitleData
    ROUTINES: dict[str, Callable] = {}
    TRIGGERS: dict[str, list[tuple[Callable | None, Callable]]] = {}
    #: each action's optional fields (`exchange: train | none = none`): the value bound where an action leaves one out
    ACTION_DEFAULTS: dict[str, dict[str, Any]] = {}
    #: each action's listing probe: its opening guards that read only the entity acting (`_group_refused`)
    PROBES: dict[str, Callable] = {}
    #: the same of an action's first two parameters (`_pair_refused`)
    PAIR_PROBES: dict[str, Callable] = {}
    #: an action's probes of more of its parameters, and its bound probes of two or more: (arity, probe),
    #: asked of each candidate tried in a listing (`_prefix_refused`)
    PREFIX_PROBES: dict[str, tuple[tuple[int, Callable], ...]] = {}
    #: an action's opening guards that read only the entity acting and the action's optional parameters,
    #: asked with their defaults of a candidate that leaves them out (`_defaults_refused`)
    DEFAULT_PROBES: dict[str, Callable] = {}
    #: an action's opening guards that read nothing that changes during play (`_static_refused`)
    STATIC_PROBES: dict[str, Callable] = {}
    #: an action's opening guards that read only the round (`_round_refused`)
    ROUND_PROBES: dict[str, Callable] = {}
    #: an action's opening guards that read only the round, the step, the operating company and the decisions
    #: owed (`_step_refused`)
    STEP_PROBES: dict[str, Callable] = {}
    #: the title's declared states (`state NAME: set[...] reset on MOMENT, ...`): name -> the moments it is
    #: emptied at (none: it lasts the game)
    STATES: dict[str, tuple[str, ...]] = {}
    #: the fields of a record of the train cards and of the phases (the DSL's `train_cards`, `phases`): kind ->
    #: ((name, read as a list), ...), the kind's declared parameters (`Title.card_fields`)
    CARDS: dict[str, tuple[tuple[str, bool], ...]] = {}

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
        #: name -> (`param(name)`, whether it is that whatever the dimensions): a plain property's value and a
        #: table read at the player count alone, kept from the first reading (a function of the title's
        #: properties and the options' `sets`, neither of which changes after setup, and the player count)
        self._params_kept: dict[str, tuple[Any, bool]] = {}
        self.j = Journal()
        #: the game's own random draws (a shuffled deck, a private given at random): undone with a refused action
        self.rng = JournaledRandom(seed, self.j)
        self.actions: list[Action] = []
        self.n = len(names)
        #: ids a replayed log from another engine uses: its hidden random draws (setup removals, a draft's
        #: hands) cannot be reproduced, so removals draw first from what the log never names, and a draft
        #: pick may come from anywhere in the deck (`_replaying()`)
        self.log_hints = frozenset(str(h) for h in log_hints)
        self._named_shares: tuple[str, ...] = ()
        #: (round, entity kind, entity id) -> the action the automatic pass last found legal for the entity
        #: in such a round (`_auto_pass`), to try first when it asks again: a cache of the asking, not state
        self._found_legal: dict[tuple[str, str, str], str] = {}
        #: a route search that only asks whether a paying run exists (`_some_legal`)
        self._quick_routes = False
        #: while an action is processed, the action the caller gives after it, where it said so (`look_ahead`:
        #: a log's replay), tried first where the automatic pass asks whether one is legal (`_declared_run`,
        #: `_declared_legal`); `_told_next` holds it until `process` takes it
        self._then: Action | None = None
        self._told_next: Action | None = None
        #: candidates listed with no shortcut (`oracle_legal_actions`)
        self._exhaustive = False
        #: the listing skips an action's candidates for an entity its probe refuses (`_group_refused`)
        self._probing = False
        #: in a listing: (the transaction depth it lists at, the pair probes' answers in its state)
        self._pair_answers: tuple[int, dict] | None = None
        #: in a listing, the candidates known refused (`Listing._known_refused`)
        self._known_refused: dict[int, Action] | None = None
        #: the route searches made in the states seen lately (`_route_candidates`)
        self._route_memo: dict[tuple, Any] = {}
        #: best_routes' answers by the reached track, stations and trains (`track.best_routes`' memo)
        self._route_answers: dict[tuple, Any] = {}
        #: the checks of given routes in the states seen lately (`_checked_routes`)
        self._route_checks: dict[tuple, Any] = {}
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
        self.j.on_rollback(lambda: self.board.restore(snapshot), self._board_redo)
        return result

    def _board_redo(self) -> Callable[[], None]:
        """The board as it is now, to put back (`Journal.rollback_kept`, just before the rollback's
        `restore` replaces its containers: they are kept as they are, not copied)."""
        board = self.board
        held = board.held()
        return lambda: board.adopt(held)

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
        kept = self._params_kept
        found = kept.get(name)
        if found is not None and (not dims or found[1]):
            return found[0]  # (what it answered before, the same all game: `_params_kept`)
        value = self.option_sets.get(name, _UNSET) if self.option_sets else _UNSET
        if value is _UNSET:
            value = self.DATA.properties.get(name, _UNSET)
        if value is not _UNSET and not isinstance(value, (Table, Gap)):
            kept[name] = (value, True)
            return value  # a plain value: what it is, whatever the dimensions (`resolve_value`)
        if not dims and isinstance(value, Table):
            # a table read at the player count alone (a certificate limit), its values plain: the same all
            # game, read once
            if set(value.dims) <= {"players"} and not any(isinstance(v, (Table, Gap)) for _keys, v in value.rows):
                read = self._read_param(name)
                kept[name] = (read, False)
                return read
        if "corporations" not in dims and hasattr(self, "g"):
            # a table keyed by `corporations` is read at the number in the game after setup's removals
            dims["corporations"] = self.g.get("corporations_in_game", len(self.corporations))
        table = self.option_sets.get(name, self.DATA.properties.get(name))
        if not isinstance(table, Table):
            return self._read_param(name, **dims)
        if hasattr(self, "g"):
            # tables keyed by what changes in play: companies available now, companies closed so far
            if "companies_available" in table.dims and "companies_available" not in dims:
                dims["companies_available"] = self.b_companies_available()
            if "closed_companies" in table.dims and "closed_companies" not in dims:
                dims["closed_companies"] = self.b_closed_companies()
            if "phase" in table.dims and "phase" not in dims:
                dims["phase"] = self.g["phase"]
        # a table's reading is a function of the table and the dimensions it is read at (1846's certificate
        # limit, by players and corporations, in every purchase's probe): kept for each
        try:
            key: tuple | None = (name, tuple(sorted(dims.items())))
            reads = self.__dict__.setdefault("_table_reads", {})
            found = reads.get(key)
        except TypeError:  # a dimension's value that is no key: read as it comes
            key = found = None
        if found is not None and found[0] is table:
            return found[1]
        value = self._read_param(name, **dims)
        if key is not None:
            if len(reads) >= 4096:
                reads.clear()
            reads[key] = (table, value)
        return value

    def _read_param(self, name: str, **dims) -> Any:
        """`param(name, **dims)` read from the chosen option's `sets` or the title (`resolve_value` at `n`)."""
        if name in self.option_sets:
            return resolve_value(name, self.option_sets[name], players=self.n, **dims)
        return self.DATA.param(name, players=self.n, **dims)

    def as_entities(self, value: Any) -> Any:
        """A parameter's value whose type names a kind of entity (`private_sale_order: list[private]`): the
        entities its keys name (a list's each), as the DSL reads it. A list of keys is read once for each
        list (a title's `private_sale_order`, read by `private_on_sale` in every purchase's probe): the
        entities are made at setup and never change."""
        if isinstance(value, list):
            memo = self.__dict__.get("_entity_lists")
            if memo is None:
                memo = self.__dict__["_entity_lists"] = {}
            found = memo.get(id(value))
            if found is not None and found[0] is value and found[1] == value:
                return list(found[2])
            read = [self.as_entities(v) for v in value]
            if all(isinstance(v, str) for v in value):
                if len(memo) >= 64:
                    memo.clear()
                memo[id(value)] = (value, list(value), tuple(read))  # (the list kept: its id is not reused)
            return read
        if isinstance(value, str):
            for kind in ("corporation", "private", "minor", "player", "bond"):
                found = self.by_id.get((kind, value))
                if found is not None:
                    return found
        return value

    def param_or(self, name: str, default: Any) -> Any:
        """A parameter the rulespec declares with a default (`param NAME: bool = false`): the title's value (or
        its chosen option's), else the default."""
        return self.param(name) if self.DATA.has(name) or name in self.option_sets else default

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
        #: item id -> holder, with each holder's certificates indexed (`Owners.holdings`), for `b_percent`
        #: and `b_certificates`: every change of owner, and its undoing, keeps the index
        self.owner: Owners = Owners(self.certificates, self.trains)
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
            c.id: dict(CORP_STATE) for c in self.corporations + self.minors
        }
        for m in self.minors:
            self.cash[m] = 0
            self.owner[m.id] = BANK
        self.closed: dict[str, bool] = {p.id: False for p in self.privates}
        #: certificate id -> the number of the move that gave it to its holder (the order in which a holder
        #: came by his certificates, which `presidency_exchange: first_acquired` reads)
        self.acquired: dict[str, int] = {}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self.g: dict[str, Any] = {
            "phase": self.phases[0]["key"],
            "round": "setup",
            "set": 0,
            "or": 0,
            "ors_in_set": self._phase_ors(self.phases[0]),
            "turn": 0,
            "priority": 0,
            "passes": 0,
            "acted": False,
            "sale": 0,
            "operating": None,
            "step": None,
            "broken": False,
            "rounds_played": 0,
            "finished": False,
            "end_reason": None,
            "sanctioned": frozenset(),
            "first_bought": frozenset(),
        }

    def _start(self) -> None:
        start_cash = self.param("starting_cash")
        for p in self.players:
            self.transfer(start_cash, BANK, p)
        if self.DATA.properties.get("player_order") == "dealt" and not self._replaying():
            # player-order cards dealt at random; a log from another engine lists its players in its own dealt order
            self.rng.shuffle(self.players)
        if self.DATA.properties.get("first_player") == "random":
            self.j.set(self.g, "priority", self.rng.randrange(self.n))
        self._setup_removals()
        self._setup_relegation()
        self._setup_reservations()
        self._setup_minors()
        self._new_subsidy_pool()
        self.emit("game_start")  # setup done, before the first round (a title's triggers on it act first)
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
                self.call("place_home_token", minor)  # a picked minor gets its home station when picked

    def _start_minor(self, minor: Entity) -> None:
        self.j.set(self.corp[minor.id], "floated", True)

    def _close_minor(self, minor: Entity) -> None:
        """A minor still open closes: the library's procedure close_minor."""
        if not self.corp[minor.id]["closed"]:
            self.call("close_minor", minor)

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
            self.call("place_home_token", corp)

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
        # (its answer kept for the game where it reads only what never changes in play: `fixed_call`)
        return corp if "ipo_of" not in self.ROUTINES else self.fixed_call("ipo_of", corp)

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
        if holder.__class__ is not Entity:
            owner = self.owner
            return sum([c.percent for c in self.certs_of[corp.id] if owner[c.id] == holder])
        # from the owners' index (asked in every listing's guards): no pass over the certificates
        held = self.owner.holdings.get(holder)
        entry = None if held is None else held.get(corp.id)
        if entry is None:
            self.certs_of[corp.id]  # (a KeyError for what has no certificates, as a pass over them would raise)
            return 0
        return entry[0]

    def b_holder_of(self, item: Any) -> Entity:
        return self.owner[item.id]

    def b_take(self, xs, n: int) -> list:
        """take(xs, n): the first n of xs."""
        return list(xs)[:n]

    @staticmethod
    def b_part(name: Any, sep: str, index: int) -> str | None:
        """part(x, sep, i): the i-th part (0 first) of the name x cut at each `sep`, or none where it has no
        such part ("LCR|BC" cut at "|": "LCR", "BC"; 18xx.games writes some choices so)."""
        parts = str(name).split(str(sep))
        return parts[int(index)] if 0 <= int(index) < len(parts) else None

    def is_closed(self, item: Entity) -> bool:
        """Whether private, corporation or minor X is closed (or out of the game): `X.closed`, which the
        library's closed(X) reads."""
        if item.kind in ("corporation", "minor"):
            return self.corp[item.id]["closed"]
        return self.closed.get(item.id, False)

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

    def _close_corporation(self, corp: Entity) -> None:
        """A corporation still open closes (its price reached a `close` cell, an acquisition round liquidated
        it): the library's procedure close_corporation (rulespecs/lib/18xx.rules), which a take-over calls
        too; the runtime's part is `_corporation_closed`."""
        if self.corp[corp.id]["closed"]:
            return
        if "close_corporation" not in self.ROUTINES:
            raise RuleGap("close_corporation", "a corporation closes, and the title has no library to close it")
        self.call("close_corporation", corp)

    def _corporation_closed(self, corp: Entity) -> None:
        """The runtime's part of a corporation's closing (the library's close_corporation emits
        corporation_closed): its price token leaves its cell's stack, the cell kept (the price it closed
        at); where the title sanctions `cert_limit for corporation_closed`, a player then over the limit (fewer
        companies lower it) is marked, allowed until he sells down."""
        cell = self.corp[corp.id]["cell"]
        if cell is not None and corp.id in self.stacks.get(cell, []):
            self.j.remove(self.stacks[cell], corp.id)
        if self._sanctioned("cert_limit", "corporation_closed"):
            for player in self.players:
                if self.b_certificates(player) > self.param("cert_limit"):
                    self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("cert_limit", player.id)})

    def _end_game(self) -> None:
        self.j.set(self.g, "finished", True)
        self.j.set(self.g, "round", "finished")

    @property
    def finished(self) -> bool:
        return self.g["finished"]

    def player_value(self, player: Entity) -> int:
        """Cash, plus shares at market price, plus each held item's end value."""
        total = self.cash[player] - self.state_amount("debt", player)  # the library's state of loans
        for corp in self.corporations:
            pct = self.b_percent(player, corp)
            cell = self.corp[corp.id]["cell"]
            if pct and cell is not None:
                total += self.market.price(cell) * pct // 10  # (its cell's price: the library's price(C), `C.cell.price`)
        for item in self.privates + self.bonds + self.minors:
            if self.owner[item.id] == player and not self.is_closed(item):
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

    # ------------------------------------------------------------ the contract

    def look_ahead(self, then: Action | None) -> None:
        """Say which action the caller will give after the next one it processes (a log's replay knows it).
        It changes what the automatic pass after that action costs, never what it decides: where the pass
        asks whether the operating company may run a paying route, a paying run `then` declares, legal
        then, answers yes with no search (the search looks for any paying run: `Candidates._declared_run`);
        where it asks whether an action of the company's step is legal, the candidate equal to `then` is
        tried first (`_declared_legal`). Taken by the next `process`, whatever it does."""
        self._told_next = then

    def process(self, action: Action) -> None:
        """Apply one action (18xx.games vocabulary). Raises IllegalAction,
        naming the rule; the state is then exactly as it was."""
        then, self._told_next = self._told_next, None
        if not isinstance(action, dict) or "type" not in action:
            raise IllegalAction(f"an action without a 'type': {action!r}"[:200] if isinstance(action, dict)
                                else f"an action is a dict, not {type(action).__name__}", rule=LOG_FORMAT)
        if any(isinstance(value, Entity) for value in action.values()):
            # an entity given as an object (this game's or another's) is read by its id, as the format names it
            action = {key: value.id if isinstance(value, Entity) else value for key, value in action.items()}
        original, action = action, self._from_log_ids(action)
        kept, self._kept_trial = self._kept_trial, None
        # the trial of this very action random play drew (`Listing._keep`), with no change to the game since
        # (the journal's generation moves on at every transaction): its changes made again, not dispatched
        redo = kept is not None and (then is None or len(kept) == 5) and kept[1] == self.j.generation \
            and not self.j._marks and action == kept[0]
        self._declared_trial = self._declared_action = None
        self._then = then
        self.j.begin()
        try:
            if redo:
                self.j.redo(kept[2])
                self._named_shares = kept[3]
            else:
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
        finally:
            self._then = self._declared_action = None
            declared, self._declared_trial = self._declared_trial, None
        unchanged = declared is not None and declared[1] == self.j.generation and declared[2] == len(self.j._undo)
        self.j.commit()
        if unchanged:
            # the look-ahead's action, tried legal by the automatic pass at the end of this one, with no change
            # to the game after its trial: kept as random play's drawn action is (`Listing._keep`), for the
            # next `process`, given that action, to make its changes again rather than dispatch it anew
            self._kept_trial = (declared[0], self.j.generation, declared[3], declared[4], "declared")
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
        self._sanction_pool_excess(kind)

    def _open_action(self, action: Action) -> tuple[str, Callable, str | None]:
        """What `_dispatch` does before binding the action's parameters: the refusals that depend on its
        type and entity alone (the game over, a decision owed first), the steps the action passes, the
        action noted as the current one. Returns the DSL action's name, its routine and its rule."""
        if self.g["finished"]:
            raise IllegalAction("the game is over", rule=self.DATA.rules.get("property game_end"))
        kind = self.action_name(action)
        pending = self.g.get("state:decisions")
        if pending and kind != pending[0][2]:
            # a takeover's station choice (a pending `place_token`) may be declined with `pass`, and a
            # decision the title lists in `declinable_decisions`
            declinable = kind == "pass" and (
                (pending[0][0] == "corporation" and pending[0][2] == "place_token"
                 and self._station_swap(self.entity("corporation", pending[0][1])) is not None)
                or self._declinable_pending())
            if not declinable:
                owed = pending[0][2]
                raise IllegalAction(f"{pending[0][1]} must first {owed.replace('_', ' ')}",
                                    rule=self.DATA.rules.get(f"cite action {owed}") or self.DATA.rules.get(f"action {owed}"),
                                    at=self.DATA.rules.get(f"at action {owed}"))
        routine = self.ROUTINES.get(f"action:{kind}")
        if routine is None:
            import difflib

            names = sorted({name for name, _ in self.ACTION_PARAMS.items()
                            if f"action:{name}" in self.ROUTINES})
            near = difflib.get_close_matches(str(action["type"]), names, n=1)
            raise IllegalAction(f"no action {action['type']!r} in this title"
                                + (f"; did you mean {near[0]!r}?" if near else ""),
                                rule="the title's actions: " + ", ".join(names))
        rule = self.DATA.rules.get(f"cite action {kind}") or self.DATA.rules.get(f"action {kind}")
        if not isinstance(action.get("shares") or [], list):
            raise IllegalAction(f"malformed {action['type']!r} action: missing or bad 'shares'", rule=rule)
        self._pass_steps_before(kind, action)
        self.j.set(self.g, "current_action", kind)
        #: the certificates the action names (a log's `shares`), which `next_certificate` takes first
        self._named_shares = tuple(str(c) for c in action.get("shares") or ())
        return kind, routine, rule

    def _check_actor(self, kind: str, args: list[Any], rule: str | None) -> None:
        """Refuses an action whose entity (`args[0]`) is not the one to act, unless it may act out of turn."""
        acting = self.current_entity()
        # a president sells shares during his corporation's turn (emergency money raising; the DSL guards decide when)
        for_acting = (kind == "sell_shares" and acting is not None and acting.kind == "corporation"
                      and args and self.call("president", acting) == args[0])
        if args and args[0] != acting and not for_acting and kind not in self._any_time_actions():
            if isinstance(args[0], Entity) and self.b_auction_passed(args[0]):
                raise IllegalAction(f"{args[0]} passed in the auction of {self.call('auction_company')} and may not "
                                    "re-enter the bidding for it", rule=self._starting_rule("auction_pass_final"))
            turn_rule = self.DATA.rules.get("cite action pass") or self.DATA.rules.get("action pass") or rule
            raise IllegalAction(f"it is {acting}'s turn, not {args[0]}'s", rule=turn_rule,
                                at=self.DATA.rules.get(f"at action {kind}"))

    def _pass_steps_before(self, kind: str, action: Action) -> None:
        """An operating company's action of a later step of its turn passes the steps before it, as a
        `pass` in each would (the title's guards on `pass` apply): a `run_routes` with no `lay_tile`
        before it means the company laid no track. The caller's transaction undoes the passes if the
        action is then refused."""
        current = self.g.get("step")
        if self.g["round"] != "operating" or self.g.get("state:decisions") or current is None:
            return
        if kind in STEP_ACTIONS.get(current, (current,)):
            return  # an action of the current step passes nothing (a step before it that has it too, neither)
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
                    and not self.g.get("state:decisions") and self._in_receivership(entity)):
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
                                  and any(self._sellable(entity, c) for c in self.corporations
                                          if self.corp[c.id]["par"] is not None)):
                return
            if (self.g["round"] == "operating" and entity.kind in ("corporation", "minor")
                    and not self.g.get("state:decisions") and self.g.get("step") is not None):
                if self._step_held(entity):
                    return
                who = {"entity": entity.id, "entity_type": self.entity_type(entity)}
                skip = {"type": "run_routes", **who, "routes": []} if self.g["step"] == "run_routes" else {"type": "pass", **who}
                # taken in a transaction of its own: where it is refused, nothing the company may do (the
                # caller reports it), and the game is as it was
                self.j.begin()
                try:
                    self._dispatch(skip)
                except (IllegalAction, RuleGap):
                    self.j.rollback()
                    return
                except BaseException:
                    self.j.rollback()
                    raise
                self.j.commit()
                continue
            # the action found legal when the entity was last asked in this round is tried first: any legal
            # one answers, so the order changes what it costs to ask, not the answer
            asked = (self.g["round"], entity.kind, entity.id)
            first = self._found_legal.get(asked)
            candidates = self._iter_candidates(cheap_first=True, prefer=first)
            if own:
                # only the entity's own actions count, each tried only until one that is not a pass is legal
                candidates = (a for a in candidates if str(a.get("entity")) == entity.id)
            found = self._first_legal(candidates)
            if found is not None:
                self._found_legal[asked] = self.action_name(found)
                return  # something to decide
            if own:
                idle = [a for a in self._candidates() if str(a.get("entity")) == entity.id and self._idle(a) and self.is_legal(a)]
            else:
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
        # any legal action but a pass (or an empty run) holds it, what may be done at any step included;
        # the action found legal when the company was last asked at this step is tried first (any legal
        # one answers: the order changes what it costs to ask, not the answer)
        asked = ("held", self.g["step"], operator.kind, operator.id)
        found = self._first_legal(self._iter_candidates(cheap_first=True, prefer=self._found_legal.get(asked),
                                                        prefer_first=True))
        if found is not None:
            self._found_legal[asked] = self.action_name(found)
        return found is not None

    def b_step_actions_legal(self, operator: Entity) -> bool:
        """step_actions_legal(C): whether an action of C's current operating step other than a pass (or an
        empty run) is legal now; at a holding step (`buy_company`), also an action of a private C holds."""
        if self.g["finished"]:
            return False
        step = self.g.get("step")
        holding = HOLDING_STEPS.get(step, ())
        names = self._step_action_names(step)
        if self._then is not None and self._declared_legal(operator, names):
            return True

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

    def _declared_legal(self, operator: Entity, names: list[str]) -> bool:
        """Whether the action the caller gives next (`look_ahead`) is, as `operator`'s candidate of one of the
        actions `names`, legal now: tried before the other candidates, it answers `step_actions_legal` where
        it is (it is one of the candidates asked about; the order changes what the asking costs, not the
        answer). Only the candidate equal to it, field by field, is tried, and only of an action whose
        candidates cost little to list (not `COSTLY`: a lay's are many; a run has `_declared_run`)."""
        then = self._then
        if not isinstance(then, dict) or not isinstance(then.get("type"), str) or self._idle(then) \
                or then["type"].endswith(self.COSTLY):
            return False
        try:
            kind = self.action_name(then)
        except (KeyError, TypeError, AttributeError):
            return False
        if kind not in names:
            return False
        then = self._from_log_ids(then)
        if str(then.get("entity")) != operator.id:
            return False

        def same(candidate: Action) -> bool:
            return all(key in then and then[key] == value for key, value in candidate.items())

        self._keep_declared = True
        try:
            return self._first_legal(c for c in self._iter_candidates_for(operator, [kind]) if same(c)) is not None
        finally:
            self._keep_declared = False

    #: (engine class, step) -> `_step_action_names`: a function of the title's actions alone
    _STEP_NAMES: dict[tuple[type, Any], list[str]] = {}

    def _step_action_names(self, step: Any) -> list[str]:
        """The title's actions `step_actions_legal` asks about at `step`: the step's own and, at a holding
        step, those of the types it holds (not the out-of-turn ones), the costly ones last."""
        key = (type(self), step)
        names = self._STEP_NAMES.get(key)
        if names is None:
            own = set(STEP_ACTIONS.get(step, (step,)))
            holding = set(HOLDING_STEPS.get(step, ()))

            def vtype(name: str) -> str:
                for kind in ("player", "corporation", "company"):
                    if name.startswith(kind + "_") and name[len(kind) + 1:] in VOCABULARY:
                        return name[len(kind) + 1:]
                return name

            names = [n for n in self.ACTION_PARAMS if (n in own or vtype(n) in holding) and n not in OUT_OF_TURN]
            names.sort(key=lambda name: any(name.endswith(kind) for kind in self.COSTLY))
            self._STEP_NAMES[key] = names
        return names

    def b_station_possible(self, corp: Entity) -> bool:
        """station_possible(C): C could place a station token now, money aside: it is at its station step,
        has placed none this turn, has one left, and reaches a city with a slot it may take."""
        if self.board is None or not self.call("in_step", corp, "place_token") or self.call("tokens_left", corp) <= 0:
            return False
        if self.g["step"] == "track_and_token" and self._done_this_turn("token"):
            return False
        return bool(track.legal_tokens(self.board, corp.id, first=True))

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
        (the seller's for a sale, the corporation's IPO for a purchase: `ipo_of`). Other actions pass unchanged."""
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
            holder = self._ipo_of(corp) if action["type"] == "buy_shares" else self.by_id.get(("player", str(action.get("entity"))))
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
        known = self._ANY_TIME.get(type(self))
        if known is None:
            known = self._ANY_TIME[type(self)] = tuple(
                str(a) for a in self.DATA.properties.get("any_time_actions") or ()) + OUT_OF_TURN
        return known

    #: engine class -> `_any_time_actions` (a function of the title's properties)
    _ANY_TIME: dict[type, tuple[str, ...]] = {}

    @staticmethod
    def entity_type(entity: Entity) -> str:
        """The `entity_type` of an action taken by `entity`, in the 18xx.games
        vocabulary: a private acts as a "company"; others by their kind."""
        return "company" if entity.kind == "private" else entity.kind

    #: (engine class, type, entity type, round) -> `action_name`: a function of those and the title's actions
    _ACTION_NAMES: dict[tuple, str] = {}

    def action_name(self, action: Action) -> str:
        """The DSL action an action dict names: `<entity_type>_<type>` when
        the title has one (a corporation's `sell_shares` is the DSL's
        `corporation_sell_shares`), else `<type>`."""
        kind, etype = action["type"], action.get("entity_type")
        if kind.__class__ is not str or not (etype is None or etype.__class__ is str):
            return self._action_name(action)  # (a log's odd field: worked out as it comes)
        key = (type(self), kind, etype, self.g["round"])
        try:
            return self._ACTION_NAMES[key]
        except KeyError:
            pass
        if len(self._ACTION_NAMES) >= 4096:
            self._ACTION_NAMES.clear()
        name = self._ACTION_NAMES[key] = self._action_name(action)
        return name

    def _action_name(self, action: Action) -> str:
        """`action_name`, worked out."""
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
                args.append(self._actor(action))
                continue
            args.append(self._bind_param(kind, name, types, action))
        return args

    def _actor(self, action: Action) -> Entity:
        """The entity an action dict names, of the kind its `entity_type` names where it has one (a
        private's is "company"): an `entity_type` the entity is not is refused, not read as another."""
        etype = action.get("entity_type")
        if etype is None:
            return self.find(action["entity"])
        if isinstance(etype, str):
            found = self.by_id.get(("private" if etype == "company" else etype, str(action["entity"])))
            if found is not None:
                return found
        who = self.find(action["entity"])
        raise IllegalAction(f"{who} is a {self.entity_type(who)}, not a {etype!r} (the action's 'entity_type')",
                            rule=LOG_FORMAT)

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
        if kind_type in ("money", "int") and value.__class__ is float:
            if not value.is_integer():
                raise ValueError(repr(name))  # a whole number: no fractional dollars, no NaN
            return int(value)
        if kind_type.startswith("list[") and not isinstance(value, list):
            raise ValueError(repr(name))  # a list is a list (`routes: "P0"` is no route)
        if kind_type == "list[route]" and not all(isinstance(route, dict) for route in value):
            raise ValueError(repr(name))  # a route is an object (its train, connections, hexes)
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
        if kind_type == self._card_kind() and str(value) == "none":
            return None  # an ability card declined (`card == none` in the rules)
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
        # (not the tables of certificates, `certificates` and `certs_of`: a share layout chosen at a par,
        # 1880 Romania's, replaces a corporation's certificates in them; the certificates themselves are shared)
        shared += [self.by_id, self.trains, self.train_sides, self.log_ids]
        board = self.board
        if board is not None:
            shared += [board.geometry, board.hexes, board.tiles, board.upgrades, board.rules, board.nbr,
                       board.borders, board.phases, *board.tiles.values(), *(h.tile for h in board.hexes.values())]
        memo = {id(value): value for value in shared}
        if self._kept_trial is not None:
            memo[id(self._kept_trial)] = None  # (random play's kept trial is this game's own: `Listing._keep`)
        memo[id(self._route_memo)] = {}  # caches: the copy keeps its own
        memo[id(self._route_answers)] = {}
        memo[id(self._route_checks)] = {}
        if board is not None:
            memo[id(board.reaches)] = {}
            memo[id(board.graphs)] = {}
            memo[id(board.walks)] = {}
            memo[id(board.links)] = {}
            memo[id(board.judged)] = {}
        return copying.deepcopy(self, memo)
