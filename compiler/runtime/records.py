"""The game's state summary, its record and its log: `GameBase`'s part that shows a game to the outside.

`state()` is the summary ARCHITECTURE.md describes (what `rulec replay --json` prints and the replay tests
compare with 18xx.games' own state), `record()` one game's line of `rulec play --json`, `to_log()` and
`from_log()` the log rulec writes and the logs it reads (its own or 18xx.games'). A mixin of `GameBase`
(compiler/runtime/game.py), which it never imports.
"""

from __future__ import annotations

from compiler.runtime.entities import BANK, DEPOT, IPO, POOL, SCRAP, SUBSIDY
from compiler.runtime.errors import IllegalAction


class Records:
    """The state summary, the game's record and its log."""


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
                "president": (self.call("president", c).id if self.call("president", c) else None),
                "ipo_percent": self.b_percent(self._ipo_of(c), c),
                # the corporation's own holding, where the IPO is a place apart (full capitalisation)
                **({"treasury_percent": self.b_percent(c, c)} if self._ipo_of(c) is IPO else {}),
                "pool_percent": self.b_percent(POOL, c),
                "shares": {o.id: self.b_percent(c, o) for o in self.corporations if o != c and self.b_percent(c, o)},
                "closed": st["closed"],
            })
        phase_round = self.g["round"]
        number = self.state_amount("stock_round_number") if phase_round == "stock" else (
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
            **({"loans": {pid: v for (pid,), v in self.g.get("state:debt", {}).items() if v}}
               if self.DATA.components_of("loan") else {}),
            # components collected on a lay (`collect_on_lay`): key -> its holder (all out of the game once the
            # library's discard_collected has taken the kind out, `collected_gone`)
            **({str(kind) + "s": self._collected_record(str(kind)) for kind in self.DATA.properties.get("collect_on_lay") or ()}),
            # the ability cards companies hold (`ability_cards`): company -> its card and the use cubes left
            **({f"{self._card_kind()}s": {corp: {str(self._card_kind()): key, "uses_left": self.g.get("state:cubes", {}).get((corp,), 0)}
                                           for corp, key in self.g.get("cards", {}).items()}} if self._card_kind() else {}),
            "trains_available": [tid for tid in self.train_order if self.owner[tid] is DEPOT],
            "acting": (self.current_entity().id if self.current_entity() else None),
            "end_reason": self.g["end_reason"],
            "result": self.result() if self.g["finished"] else None,
        }

    def _collected_record(self, kind: str) -> dict:
        """The components of a kind of `collect_on_lay`, each by its key, and who holds it: those collected, in the
        order they were; every one out of the game (the scrap's) once the kind has left it (`collected_gone`)."""
        if self.state_has("collected_gone", kind):
            return {key: SCRAP.id for key, _ in self._collectables(kind)}
        return {key: holder for k, key, holder in self.g.get("collected", ()) if k == kind}

    def _auction_summary(self) -> dict:
        """The opening auction in the state summary: the private on auction, its high bid, who passed."""
        st = self.g["starting"]
        item = self.call("auction_company")
        return {"company": item.id if item else None,
                "high_bid": list(high) if item and not st.get("open") and (high := self._high_bid(item.id)) else None,
                "passed": sorted(st["passed"]),
                "picks": list(st["picks"]) if st["picks"] is not None else None,
                # the open auction's standing bids: [private, player, amount]
                **({"bids": [list(b) for b in self._bids()]} if st.get("open") else {})}

    def record(self) -> dict:
        """One game's record for `rulec play --json` and `rulec replay --json`."""
        return {
            "seed": self.seed,
            "finished": self.finished,
            "end_reason": self.g["end_reason"],
            "actions": len(self.actions),
            "rounds": self.g["rounds_played"],
            "revenue": self.state_amount("total_revenue"),  # (the library's set_revenue sums every run)
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
    def from_log(cls, log: dict) -> "Records":
        """Replay `log` (rulec's own, or one as 18xx.games writes it: `compiler.runtime.sitelog` reads it,
        undos, redos and auto actions included). Raises `IllegalAction` at the first action the engine
        refuses, naming the action and the rule."""
        from compiler.runtime.sitelog import replay

        done = replay(cls, log, monitor=False)
        if done.divergence is not None:
            raise IllegalAction(str(done.divergence), rule=done.divergence.rule)
        return done.game
