"""The stock round: which corporations may be started, pars, certificates and shares bought and sold,
the market, floats, presidents and receivership, and the round's turns and passes.

`StockRound` is a part of `GameBase` (compiler/runtime/game.py): its methods read and change the game's
state through the primitives there (`transfer`, `move`) and run the title's routines through `call`.
"""

from __future__ import annotations

from compiler.runtime.entities import IPO, POOL, Certificate, Entity, exchange_sets
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.vocabulary import Action


class StockRound:
    """GameBase's stock round, shares, markets and presidents."""

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
                        self.call("place_home_token", corp)
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
        return since is None or self._phase_at_least(str(since))

    def b_companies_available(self) -> int:
        """companies_available(): the companies that can still be started or are running: open and of an
        available tier (the key of a certificate-limit table `by companies_available`)."""
        return sum(1 for c in self.corporations if not self.corp[c.id]["closed"] and self.b_available(c))

    def b_closed_companies(self) -> int:
        """closed_companies(): the companies that have closed during the game (not those removed at setup)."""
        removed = self.g.get("removed", ())
        return sum(1 for c in self.corporations if self.corp[c.id]["closed"] and c.id not in removed)

    # ------------------------------------------------------------ builtins: shares, par, prices, presidents

    def _zones(self, corp: Entity) -> frozenset[str]:
        """The market zones whose rules apply to C, as the library's in_zone(C, z) says of each: those of its cell,
        and those an ability of its card puts it in (`effect: market_zone`, `zones: [...]`): the runtime's own
        reading for its primitives, the certificates counted against the limit (`b_certificates`) and the
        monitor's holding cap."""
        cell = self.corp[corp.id]["cell"]
        zones = self.market.zones_of(cell) if cell is not None else frozenset()
        if corp.kind == "corporation" and self.g.get("cards"):
            for ability in self._card_abilities(corp):
                if ability.get("effect") == "market_zone":
                    zones = zones | {str(z) for z in ability.get("zones") or ()}
        return zones

    def _certificate_counts(self, tallies: dict[str, dict[tuple[str, str], int]] | None = None) -> dict[tuple[str, str], int]:
        """`b_certificates` of every holder at once, by (kind, id): one pass over the certificates (the
        monitor asks it of every player after every action, giving `tallies`: for each corporation, how
        many of its certificates each holder has, which it counts in its own pass)."""
        counts = self.param("cert_limit_counts")
        out: dict[tuple[str, str], int] = {}
        if "shares" in counts:
            owner, certs_of = self.owner, self.certs_of
            for corp in self.corporations:
                if tallies is not None:
                    held = tallies[corp.id]
                else:
                    held = {}
                    for cert in certs_of[corp.id]:
                        holder = owner[cert.id]
                        key = (holder.kind, holder.id)
                        held[key] = held.get(key, 0) + 1
                if held and "no_cert_limit" not in self._zones(corp):
                    for key, n in held.items():
                        out[key] = out.get(key, 0) + n
        counted = []
        if "privates" in counts:
            counted += [p for p in self.privates if not self.closed[p.id]]
        if "bonds" in counts:
            counted += self.bonds
        if "minors" in counts:
            counted += [m for m in self.minors if not self.corp[m.id]["closed"]]
        for item in counted:
            holder = self.owner[item.id]
            key = (holder.kind, holder.id)
            out[key] = out.get(key, 0) + 1
        return out

    def b_certificates(self, player: Entity) -> int:
        """Certificates counting against the limit: shares outside exempt
        zones, and the other kinds the title's `cert_limit_counts` names."""
        counts = self.param("cert_limit_counts")
        total = 0
        if "shares" in counts:
            # from the owners' index (asked in every purchase's and every pass's guards): the corporations
            # the player holds certificates of, no pass over the certificates
            held = self.owner.holdings.get(player) if player.__class__ is Entity else None
            if held:
                by_id = self.by_id
                for corp_id, (_percent, number) in held.items():
                    if "no_cert_limit" not in self._zones(by_id[("corporation", corp_id)]):
                        total += number
        if "privates" in counts:
            owner, closed = self.owner, self.closed
            if player.__class__ is Entity:
                # (Entity equality written out, without a call per private: asked in every purchase's probe)
                pid, pkind = player.id, player.kind
                total += sum(1 for p in self.privates
                             if ((o := owner[p.id]) is player or (o.__class__ is Entity and o.id == pid and o.kind == pkind))
                             and not closed[p.id])
            else:
                total += sum(1 for p in self.privates if owner[p.id] == player and not closed[p.id])
        if "bonds" in counts:
            total += sum(1 for b in self.bonds if self.owner[b.id] == player)
        if "minors" in counts:
            total += sum(1 for m in self.minors if self.owner[m.id] == player and not self.corp[m.id]["closed"])
        return total

    def b_next_certificate(self, corp: Entity, source: str) -> Certificate | None:
        """next_certificate(C, source): the certificate of C to be bought from `source` (pool, the IPO, or
        C's treasury; the IPO is C's treasury unless the library's ipo_of puts it apart): the one the action
        names (its `shares`), where it names one held there, else the first there; a president's certificate only where the rules let it go."""
        # the holders `pool` and `initial_offering` named where a source is meant
        source = "pool" if source is POOL else ("ipo" if source is IPO else source)
        holder = POOL if source == "pool" else (self._ipo_of(corp) if source == "ipo" else corp)
        named = [self.certificates[cid] for cid in self._named_shares if cid in self.certificates]
        for cert in named + [c for c in self.certs_of[corp.id] if c not in named]:
            if cert.corporation != corp.id:
                continue
            if self.owner[cert.id] == holder and not (cert.president and source != "pool" and self.corp[corp.id]["par"] is None):
                if cert.president and holder != POOL:
                    continue
                if cert.president and self._in_receivership(corp):
                    continue  # it passes only by exchange to a player holding as much (_check_president)
                return cert
        return None

    def _sellable(self, player: Entity, corp: Entity) -> list[Certificate]:
        """The library's sellable(P, C) in the order the runtime offers them: president's last, the rest from
        the last (none, without asking, where the owners' index says P holds none of C)."""
        if player.__class__ is Entity:
            held = self.owner.holdings.get(player)
            if held is None or corp.id not in held:
                return []
        certs = self.call("sellable", player, corp)
        return sorted(certs, key=lambda c: (c.president, -c.index)) if len(certs) > 1 else list(certs)

    def _done_this_turn(self, mark: str) -> bool:
        """Whether the runtime's own mark m (a station token in a track-and-token step, a private's lay) was
        made in this operating turn. (What a title's rules do once a turn is its declared state,
        `state done_this_turn: set[turn_marks] reset on operating_turn_start`.)"""
        return mark in self.g.get("turn_marks", frozenset())

    def _mark_done_this_turn(self, mark: str) -> None:
        """The runtime's own mark m: not done again this operating turn."""
        self.j.set(self.g, "turn_marks", self.g.get("turn_marks", frozenset()) | {mark})

    # -- effects the DSL calls with `do`
    def _bought(self, player: Entity) -> None:
        """move_turn(P, certificate_bought): P has bought a certificate (the library's bought, which checked
        the float and the presidency first): P acted in the turn and the round; in a stock round where one
        purchase ends the turn (`sell_then_buy`), nothing else to do, the turn ends; in a special round the
        player keeps his place until he passes."""
        self._reenter(player)
        self.j.set(self.g, "round_acted", True)
        self.j.set(self.g, "acted", True)
        if self.g["round"] == "stock" and self.param("sell_buy_order") == "sell_then_buy" \
                and not self.g.get("auction") and not self._privates_for_sale():
            # nothing is left to do in the turn (one buy, no sale after it): it ends
            self.j.set(self.g, "passes", 0)
            self._next_turn()
        elif self.g["round"] == "special":
            self._special_next(None)  # one certificate a turn; the player keeps his place until he passes

    def b_choose_share_layout(self, corp: Entity, president_percent: int) -> None:
        """choose_share_layout(C, p): C's certificates become the layout of its `share_layouts` whose president's certificate is p% (before C is started)."""
        layouts = corp.get("share_layouts")
        if not isinstance(layouts, dict) or president_percent not in layouts:
            raise IllegalAction(f"{corp} has no share layout with a {president_percent}% president's certificate")
        if any(self.owner[c.id] != self._ipo_of(corp) for c in self.certs_of[corp.id]):
            raise IllegalAction(f"{corp}'s certificates are no longer all in the bank")
        for cert in self.certs_of[corp.id]:
            # the owner first, then the certificate (and the new ones the other way): the owners' index reads
            # a certificate's percent when it is given a holder, on rollback too (compiler/runtime/holdings.py)
            self.j.delete(self.owner, cert.id)
            self.j.delete(self.certificates, cert.id)
        certs = [Certificate(corp.id, i, pct, i == 0) for i, pct in enumerate(layouts[president_percent])]
        for cert in certs:
            self.j.set(self.certificates, cert.id, cert)
            self.j.set(self.owner, cert.id, self._ipo_of(corp))
        self.j.set(self.certs_of, corp.id, certs)

    def b_market_order(self) -> list[Entity]:
        """market_order(): the open corporations with a share price, in operating order (the highest price
        first; ties: farther right, then higher in the stack)."""
        priced = [c for c in self.corporations if self.corp[c.id]["cell"] is not None and not self.corp[c.id]["closed"]]
        return sorted(priced, key=self._operating_key)

    def b_check_president(self, corp: Entity) -> None:
        self._check_president(corp)

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
        """The take-over check: a president's certificate in the bank pool ends the receivership
        (`_end_receivership`); else the library's take_presidency, a holder with more than the president
        taking the presidency, giving shares worth the president's certificate."""
        pres_cert = self.certs_of[corp.id][0]
        president = self.owner[pres_cert.id]
        if president is POOL and self._receivership_rules():
            self._end_receivership(corp, pres_cert)
            return
        if "take_presidency" in self.ROUTINES:
            # the library's procedure (rulespecs/lib/18xx.rules), which the z3 model translates too; a
            # title without the library has no presidency exchange
            self.call("take_presidency", corp)

    def _presidency_challenger(self, corp: Entity, president: Entity, best: int):
        """Who takes `corp`'s presidency from `president`, whose holding counts as `best` percent: the
        first player from his left holding more (ties go to the nearest), then corporations holding more
        where the title's `presidency_contenders` names them, in operating order (a corporation's own
        unsold shares never count); with the first set of his ordinary certificates worth the president's
        certificate that he gives for it. None when nobody does."""
        # (the percentages read from the owners' index, as `b_percent` reads a player's: asked each time
        # the library's take_presidency or can_hand_over_presidency looks)
        holdings, cid = self.owner.holdings, corp.id

        def percent(holder: Entity) -> int:
            held = holdings.get(holder)
            entry = None if held is None else held.get(cid)
            return 0 if entry is None else entry[0]

        challenger = None
        for p in self._seating_from(president):
            pct = percent(p)
            if pct > best:
                best, challenger = pct, p
        if "corporations" in (self.DATA.properties.get("presidency_contenders") or ()) and any(
                h.__class__ is Entity and h.kind == "corporation" and h.id != cid and cid in held
                for h, held in holdings.items()):
            # the corporations holding more than the best so far, in operating order: the first of those
            # holding the most (only those holding more are put in order: mostly none; and none looked for
            # where the owners' index says no corporation but `corp` itself, which never counts, holds any of it)
            more = [(c, pct) for c in self.corporations
                    if c != corp and (pct := percent(c)) > best and not self.corp[c.id]["closed"]
                    and self.corp[c.id]["cell"] is not None]
            for corp_holder, pct in sorted(more, key=lambda entry: self._operating_key(entry[0])):
                if pct > best:
                    best, challenger = pct, corp_holder
        if challenger is None:
            return None
        given = self._exchange_given(corp, challenger)
        return None if given is None else (challenger, given)

    def _sanction_former_president(self, president: Entity) -> None:
        """A former president handed certificates for the president's certificate may end above the
        certificate limit, where the title's `sanction cert_limit for take_over` allows it."""
        if (self.b_certificates(president) > self.param("cert_limit")
                and self._sanctioned("cert_limit", "take_over")):
            self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("cert_limit", president.id)})

    def b_presidency_challengers(self, corp: Entity, president: Entity, sold: int) -> list[Entity]:
        """presidency_challengers(C, P, n): the holder who takes C's presidency from P, were P to hold n percent
        less, as a list (none or one): the first player from P's left holding more (ties go to the nearest),
        or else a corporation holding more where the title's `presidency_contenders` names them (in
        operating order), where he holds a set of ordinary certificates worth the president's certificate
        (exchange_given)."""
        found = self._presidency_challenger(corp, president, self.b_percent(president, corp) - int(sold))
        return [] if found is None else [found[0]]

    def b_exchange_given(self, corp: Entity, holder: Entity) -> list[Certificate]:
        """exchange_given(C, H): the ordinary certificates of C that H gives for C's president's certificate:
        the first set worth it that H holds (the fewest, then the highest-numbered; where the title says
        `presidency_exchange: first_acquired`, the shares H came by first); none where H holds no such set."""
        return list(self._exchange_given(corp, holder) or ())

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
        return next((group for group in self._exchange_sets_of(corp)
                     if all(self.owner[cert.id] == challenger for cert in group)), None)

    def _exchange_sets_of(self, corp: Entity) -> list[tuple[Certificate, ...]]:
        """`exchange_sets` of `corp`'s certificates (a function of them alone), kept while its list of
        certificates is the same (a share layout chosen puts a new list in place, `b_choose_share_layout`):
        asked wherever a sale might hand the presidency over (18CO's DSNG, of 20% and 10% shares, has
        dozens of combinations to try)."""
        certs = self.certs_of[corp.id]
        kept = self.__dict__.get("_exchange_sets")
        if kept is None:
            kept = self.__dict__["_exchange_sets"] = {}
        found = kept.get(corp.id)
        if found is None or found[0] is not certs or found[1] != tuple(certs):
            found = kept[corp.id] = (certs, tuple(certs), exchange_sets(certs))
        return found[2]

    # -- bankruptcy and receivership (generic: the title's `receivership_steps` and its bankrupt action say how)

    def _receivership_rules(self) -> bool:
        return bool(self._param_or("receivership_steps", None))

    def _in_receivership(self, corp: Entity) -> bool:
        """Whether C is in receivership: the library's function `in_receivership` (rulespecs/lib/18xx.rules),
        compiled into the engine, is the one place that says so (the z3 model translates the same function,
        `Builtins.in_receivership`). A title without the library has no receivership."""
        routine = self.ROUTINES.get("in_receivership")
        return False if routine is None else bool(routine(self, corp))

    def _end_receivership(self, corp: Entity, pres_cert: Certificate) -> None:
        """A president's certificate in the market goes to the player holding at least as much of the
        corporation as it is worth (the most; ties: seating order from the player on turn), who gives
        ordinary certificates worth as much to the market."""
        start = self.current_entity()
        order = self.players if not isinstance(start, Entity) or start.kind != "player" else \
            [start] + self._seating_from(start)
        best, taker = pres_cert.percent - 1, None
        for p in order:
            if self._out_of_game(p):
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

    def _sanction_pool_excess(self, kind: str) -> None:
        """After action `kind`, where the title sanctions `pool_cap for` it (1846's bankrupt: a bankrupt
        player's certificates go to the market even past its cap, the library's sell_out): each corporation
        the pool now holds more of than its cap is marked, so the monitor allows it until players buy the
        excess back (`_settle_sanctions`)."""
        actions = self.__dict__.get("_pool_cap_actions")
        if actions is None:
            actions = self.__dict__["_pool_cap_actions"] = frozenset(
                key.split("/", 1)[1] for key in self.DATA.rules if key.startswith("sanction pool_cap/"))
        if kind not in actions:
            return
        cap = self.param("pool_cap")
        for corp in self.corporations:
            if self.b_percent(POOL, corp) > cap and ("pool_cap", corp.id) not in self.g["sanctioned"]:
                self.j.set(self.g, "sanctioned", self.g["sanctioned"] | {("pool_cap", corp.id)})

    def _out_of_game(self, player: Entity) -> bool:
        """Whether `player` is out of the game (bankrupt): the library's state out_of_game, set by its
        procedure leave_game."""
        return self.state_has("out_of_game", player)

    def _players_in_game(self) -> int:
        """The players not out of the game, for the round machinery (the rules read the library's
        function players_in_game)."""
        if not self.g.get("state:out_of_game"):
            return len(self.players)  # (nobody has left: what the count below answers, in every round's start)
        return sum(1 for p in self.players if not self._out_of_game(p))

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
        the runtime step: `market_move`, `hold_card`), the excess is recorded so the monitor allows it
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
                           or "unlimited_holding" in self._zones(c) for c in self.corporations)
            if name == "pool_cap":
                return self.b_percent(POOL, self.entity("corporation", pid)) <= self.param("pool_cap")
            return False

        keep = frozenset((name, pid) for name, pid in self.g["sanctioned"] if not settled(name, pid))
        if keep != self.g["sanctioned"]:
            self.j.set(self.g, "sanctioned", keep)

    def _seating_from(self, player: Entity) -> list[Entity]:
        i = self.players.index(player)
        return self.players[i + 1:] + self.players[:i]

    # ------------------------------------------------------------ rounds: stock

    def _start_stock_round(self, first_player: int) -> None:
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "stock")
        while self._out_of_game(self.players[first_player]) and self._players_in_game():
            first_player = (first_player + 1) % self.n
        self.j.set(self.g, "turn", first_player)
        self.j.set(self.g, "passes", 0)
        self._reset_states("stock_round_start")
        self.emit("stock_round_start")  # (the library's count_stock_rounds counts it)
        self.j.set(self.g, "round_acted", False)
        self._new_turn()

    def _new_turn(self) -> None:
        self.j.set(self.g, "acted", False)
        self._reset_states("stock_turn_start")

    def current_entity(self) -> Entity | None:
        if self.g["finished"]:
            return None
        pending = self.g.get("state:decisions")
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

    def b_move_turn(self, entity: Entity, move: str) -> None:
        """move_turn(E, m): after E's move m (the library's enum turn_move: passed, bid_made, certificate_bought,
        private_bought, step_ended, decisions_changed) the round machinery moves on: who acts next, or the end
        of the step, the turn, the auction or the round."""
        mover = self._TURN_MOVES.get(move)
        if mover is None:
            raise RuleGap(f"move_turn({entity}, {move})", "not a move of the library's turn_move")
        getattr(self, mover)(entity)

    #: the round machinery's part of each move of the library's turn_move (`b_move_turn`)
    _TURN_MOVES = {"passed": "_pass_turn", "bid_made": "_bid_placed", "certificate_bought": "_bought",
                   "private_bought": "_private_sold", "step_ended": "_end_step", "decisions_changed": "_next_decision"}

    def _pass_turn(self, entity: Entity) -> None:
        """move_turn(E, passed), the library's pass_turn: in a stock round, end the turn (a turn with no
        action is a pass; all players passing in a row ends the round); in an operating round, skip the
        current step."""
        if self._decline_station_swap(entity):
            return
        if self._declinable_pending():
            kind, key, owed = self.g["state:decisions"][0]
            if (kind, key) != (entity.kind, entity.id):
                raise IllegalAction(f"{key} must first {owed.replace('_', ' ')}")
            self.call("resolve_decision", entity, owed)  # declined: what was owed is not done
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
            if self._acted_this_turn():
                self.j.set(self.g, "passes", 0)
            else:
                self.j.set(self.g, "passes", self.g["passes"] + 1)
                self._take_pass_card(entity)
            if self.g["passes"] >= self._players_in_game():
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
        item = self.call("private_on_sale")
        effect = item.get("on_all_pass")
        self.j.set(self.g, "passes", 0)
        if effect == "discount":
            self.call("lower_sale_price", item)  # the library's: its price falls by its discount
        elif effect == "private_income":
            self.emit("operating_round_start")
        else:
            raise RuleGap(f"private {item} on_all_pass", "what happens when all pass on it is not given")
        self._next_turn()

    def _acted_this_turn(self) -> bool:
        """Whether the player on turn in the stock round has acted in this turn (his pass then ends it and is
        no pass): bought a certificate or bid (`acted`), or sold (the library's sold_this_turn, which each
        sale sets and each stock-round turn empties)."""
        return bool(self.g["acted"] or self.g.get("state:sold_this_turn"))

    def _next_turn(self) -> None:
        if self.g.get("state:sold_this_turn"):
            self._reenter(self.players[self.g["turn"]])  # a sale in his turn: a passed player acted again
        turn = (self.g["turn"] + 1) % self.n
        while self._out_of_game(self.players[turn]) and self._players_in_game():
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
        # (anyone acted: bought, `round_acted`, or sold, the library's sold_this_round, emptied as the round
        # started)
        acted = self.g.get("round_acted") or self.g.get("state:sold_this_round")
        if not acted and not self._end_in_motion():
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
        # the prices move at the event: the library's trigger `stock_round_end_prices`
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

