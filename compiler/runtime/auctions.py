"""The rounds that sell the privates: the draft, the opening auction (one private at a time, or all
of them open at once) and the private sale, with the grants they hand out.

`Auctions` is a part of `GameBase` (compiler/runtime/game.py).
"""

from __future__ import annotations

from typing import Any

from compiler.runtime.built import unbuilt
from compiler.runtime.entities import BANK, POOL, Certificate, Entity
from compiler.runtime.errors import IllegalAction, RuleGap


class Auctions:
    """GameBase's draft, opening auction and private sale."""

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
        self.j.set(self.g, "draft", {"deck": tuple(cards), "choices": ()})
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
        cards = self.g["draft"]["deck"] if self._replaying() else self.b_draft_hand()
        return self.g["round"] == "draft" and getattr(company, "id", str(company)) in cards

    def _replaying(self) -> bool:
        """Whether the game replays a log from another engine, whose hidden random draws it cannot reproduce (the
        runtime's own question: no rule asks it)."""
        return bool(self.log_hints)

    def _only_one_left(self) -> bool:
        deck = self.g["draft"]["deck"]
        return len(deck) == 1 and not self._blank(deck[0])

    def _draft_finished(self) -> bool:
        deck = self.g["draft"]["deck"]
        return not deck or (len(deck) < self._hand_size() and all(self._blank(c) for c in deck))

    def b_draft_pick(self, player: Entity, company: Entity) -> None:
        """draft_pick(P, X): P keeps card X, a company at its draft price now: kept in the library's states
        (drafted_private, drafted_minor, draft_committed) for the draft's end, or where the draft says `paid_at:
        pick` paid for and taken at once; the rest of the hand goes, shuffled, to the bottom of the deck.
        (What X costs is the library's draft_price.)"""
        draft = dict(self.g["draft"])
        hand = self.b_draft_hand()
        price = self.call("draft_price", company)
        if self._blank(company.id):
            pass  # a Pass card: nothing to pay
        elif self._draft().get("paid_at") == "pick":
            # paid for and owned at once (the choice then owes nothing at the draft's end)
            self.transfer(price, player, BANK)
            self._take_drafted(player, company)
            price = 0
        else:
            self.state_set("drafted_minor" if company.kind == "minor" else "drafted_private", (company, player), True)
            self.state_put("draft_committed", (player,), self.state_amount("draft_committed", player) + price)
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
        `last_company_discount` (the library's decline_last_company); at its floor (draft_least_price) the
        player then on turn takes it."""
        if not self._only_one_left():
            raise IllegalAction("in the draft a player must take one of the cards drawn; only the last company may be declined",
                                rule=self._draft_rule())
        item = self._company(self.g["draft"]["deck"][0])
        self.call("decline_last_company")
        self._draft_next()
        if self.g["round"] == "draft" and self.call("draft_price", item) == self.call("draft_least_price", item):
            self.b_draft_pick(self.players[self.g["turn"]], item)

    def _end_draft(self) -> None:
        """The draft ends: each player pays for the companies he kept and takes them (the library's end_draft);
        a minor so taken starts."""
        self.call("end_draft")
        for pid, cid, _ in self.g["draft"]["choices"]:
            item = None if self._blank(cid) else self._company(cid)
            if item is not None and item.kind == "minor" and self.owner[item.id] == self.entity("player", pid):
                self._start_minor(item)
        self.j.set(self.g, "draft", {"deck": (), "choices": self.g["draft"]["choices"]})
        self._start_stock_round(0)

    def _take_drafted(self, player: Entity, item: Entity) -> None:
        """The drafter, having paid, takes a company (the library's receive_drafted); a minor starts."""
        self.call("receive_drafted", player, item)
        if item.kind == "minor":
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
        self.j.set(self.g, "starting", {"queue": queue, "auctions": 0, "passed": frozenset(),
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
        st.update(auctions=st["auctions"] + 1, passed=frozenset())
        self.j.set(self.g, "starting", st)
        self.j.set(self.g, "turn", opener)

    # the open auction (first_round: open_auction): every private open to bids at once

    def _start_open_auction(self) -> None:
        """The opening auction in which every private in play takes bids at once: in seating order from the
        priority holder, each player bids, raises or moves a bid (the title's `bid` and `move_bid`
        actions, whose guards state the rules), or passes; a pass does not bar later bids. The money of a
        player's bids is set aside (the library's `free_cash`). When all pass in succession the auction ends
        (`_end_open_auction`)."""
        self.j.set(self.g, "rounds_played", self.g["rounds_played"] + 1)
        self.j.set(self.g, "round", "auction")
        self.j.set(self.g, "starting", {"open": True, "queue": (), "auctions": 0,
                                        "passed": frozenset(), "picks": None, "picked": frozenset(),
                                        "passes": 0, "last_bidder": None})
        self._set_bids([])
        self.j.set(self.g, "turn", self.g["priority"])

    def _open_auction_on(self) -> bool:
        st = self.g.get("starting")
        return self.g["round"] == "auction" and bool(st) and bool(st.get("open"))

    def _bids(self) -> list[tuple[str, str, int]]:
        """The standing bids (the library's state `standing_bid`), each (private, player, amount), in the
        order they were placed (a raised or moved bid last)."""
        return [(x, pid, amount) for (x, pid), amount in self.g.get("state:standing_bid", {}).items()]

    def _set_bids(self, bids: list[tuple[str, str, int]]) -> None:
        """The standing bids become `bids` (those the runtime leaves standing as it settles some)."""
        self.j.set(self.g, "state:standing_bid", {(x, pid): amount for x, pid, amount in bids})

    def _bid_placed(self, player: Entity) -> None:
        """move_turn(P, bid_made), the library's bid_placed: P has just placed a bid (the library's place_bid, open_bid, move_bid set it) or picked a
        component of `free_pick` (the library's pick): the turn passes on. In the open auction a bid breaks the
        run of passes and takes P out of the passing order. In the acquisition round P is a corporation that
        has made its one bid (the library's acquisition_bids holds it): the turn passes to the next bidder, the
        last settling the auction."""
        if self.g["round"] == "acquisition":
            self._acquisition_turn_over()
            return
        if self.g["round"] == "auction" and self.call("picking"):
            self._picked(player)  # a free pick (the library's pick)
            return
        if self.g.get("auction"):
            self._next_bidder()  # a raise in the auction among a private's bidders
            return
        if self.g["round"] == "auction" and not self._open_auction_on():
            self._next_bidder_in_auction()  # a bid in the Starting Round's auction
            return
        if not self._open_auction_on():
            self.j.set(self.g, "acted", True)
            self.j.set(self.g, "passes", 0)
            self._next_turn()
            return
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
        bids = self._bids()
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
        self._set_bids([])
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

    def _high_bid(self, item_id: str) -> tuple[str, int] | None:
        """The high bid on the private `item_id` in an auction (the Starting Round's, or one among a
        private's bidders), as (player, amount): its bidder's standing bid (the library's `standing_bid`,
        which the library's auction_bid leaves as the only one on it); None before a bid."""
        bids = [(pid, amount) for x, pid, amount in self._bids() if x == item_id]
        return max(bids, key=lambda b: b[1]) if bids else None

    def _highest_bid(self, item_id: str) -> int:
        """The library's highest_bid: the highest standing bid on the private `item_id`, or 0."""
        high = self._high_bid(item_id)
        return high[1] if high is not None else 0

    def _show_auction_discount(self) -> None:
        """The library's auction_discount (`auction_all_pass_first: discount`): the round's discount on the
        opening bid (the runtime's, which a sale leaves as it was) on the private now on auction, on no other."""
        st = self.g.get("starting") or {}
        queue = st.get("queue") or ()
        discount = int(st.get("discount", 0))
        self.j.set(self.g, "state:auction_discount", {(queue[0],): discount} if queue and discount else {})

    def b_auction_passed(self, player: Entity) -> bool:
        """auction_passed(P): P has passed in the opening auction under way and may not bid in it again."""
        st = self.g.get("starting")
        return bool(st) and self.g["round"] == "auction" and st["picks"] is None and player.id in st["passed"]

    def _next_bidder_in_auction(self) -> None:
        """The turn goes to the next player in seating order who has not passed; when that is the high
        bidder, every other player has passed and the high bidder wins."""
        st = self.g["starting"]
        high = self._high_bid(st["queue"][0])
        for step in range(1, self.n + 1):
            index = (self.g["turn"] + step) % self.n
            pid = self.players[index].id
            if pid in st["passed"]:
                continue
            if high is not None and pid == high[0]:
                self._auction_sold(self.entity("player", pid), high[1])
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
                st.update(passed=frozenset())
                self.j.set(self.g, "starting", st)
                self._show_auction_discount()
                if int(self._value(item.get("cost"), f"private {item} cost")) - st["discount"] <= 0:
                    opener = self.players[(self.g["priority"] + st["auctions"] - 1) % self.n]
                    st = dict(st)
                    st["auctions"] += 1                    # the next auction two seats on ...
                    st["repeat_at"] = st["auctions"] + 1   # ... and the one after it by the same player
                    st["discount"] = 0
                    self.j.set(self.g, "starting", st)
                    self._show_auction_discount()
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
        self._set_bids([b for b in self._bids() if b[0] != item.id])  # its high bid is paid
        self.transfer(amount, player, BANK)
        self.move(item, BANK, player)
        self._grant(player, item)
        st["queue"] = st["queue"][1:]
        self.j.set(self.g, "starting", st)
        self._show_auction_discount()
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
            st.update(passed=frozenset())
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
        self.j.on_rollback(lambda: self.players.__setitem__(slice(None), old), self._seating_redo)
        self.players[:] = order

    def _seating_redo(self):
        """The seating as it is now, to put back (`Journal.rollback_kept`)."""
        now = list(self.players)
        return lambda: self.players.__setitem__(slice(None), now)

    def _picked(self, player: Entity) -> None:
        """The library's pick has moved a component of `free_pick` to `player` (its bid_placed): a picked minor
        operates from now on (1880 V.2, II.3.2); once every player has picked, or none is left, the rest leave
        the game and the stock round begins; else the next player picks."""
        st = dict(self.g["starting"])
        taken = [x for x in st["picks"] if self.owner[x] is not BANK]
        for x in taken:
            item = self._company(x)
            if item.kind == "minor":
                self._start_minor(item)
        st["picks"] = tuple(x for x in st["picks"] if x not in taken)
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
        st.update(queue=(), passed=frozenset(), picks=None)
        self.j.set(self.g, "starting", st)
        self._show_auction_discount()
        self._start_stock_round(self.g["priority"])

    def _starting_pass(self, player: Entity) -> None:
        if self._open_auction_on():
            self._open_auction_pass(player)
            return
        if self.call("picking"):
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
        self.emit("stock_round_start")  # the first stock round (the library's count_stock_rounds)
        self.j.set(self.g, "turn", self.g["priority"])
        self._offer_next_private()

    # 1830-style bidding for privates not yet offered (a title's option may turn it on)

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
        if auction["turn"] == self._high_bid(auction["company"])[0]:
            self._next_bidder()

    def _next_bidder(self) -> None:
        auction = dict(self.g["auction"])
        bidders = list(auction["bidders"])
        index = (bidders.index(auction["turn"]) + 1) % len(bidders)
        if bidders[index] == self._high_bid(auction["company"])[0]:
            index = (index + 1) % len(bidders)
        auction["turn"] = bidders[index]
        self.j.set(self.g, "auction", auction)

    def _auction_won(self, auction: dict) -> None:
        winner_id, amount = self._high_bid(auction["company"])
        item = self.entity("private", auction["company"])
        self.j.set(self.g, "auction", None)
        self.state_set("in_auction", (), False)  # the library's flag
        self._sell_private(self.entity("player", winner_id), item, amount)
        if not self.g.get("auction"):
            # play resumes left of the last player who bought a private at its offered price
            self.j.set(self.g, "turn", self.g.get("last_face_buyer", self.g["turn"]))
            self._next_turn()

    def _sell_private(self, player: Entity, item: Entity, amount: int) -> None:
        """A private goes to a bidder for its bid; his other bids stay set aside."""
        self._set_bids([b for b in self._bids() if b[0] != item.id])
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
        bids = [b for b in self._bids() if b[0] == left[0]]
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
        # the auction's high bid is its bidder's standing bid, the only one left on the private
        self._set_bids([b for b in self._bids() if b[0] != item.id] + [high])
        self.j.set(self.g, "auction", {"company": item.id, "bidders": tuple(order), "turn": order[0]})
        self.state_set("in_auction", (), True)  # the library's flag
        return True

    def _offer_next_private(self) -> None:
        if self._resolve_bids():
            return
        # (its price is the library's sale_price(): the private on sale's face value less its sale_discount)
        self.j.set(self.g, "passes", 0)

    def b_give_grants(self, player: Entity, item: Entity) -> None:
        """give_grants(P, X): what private X grants its buyer P (its `grants` record: a certificate) is P's."""
        self._grant(player, item)

    def _private_sold(self, player: Entity) -> None:
        """move_turn(P, private_bought), the library's private_sold: after a sale at the offered price (X's
        grants given) the next private is offered, and play goes on from P."""
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
                self.call("require_decision", player, "par")
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
            if self.corp[corp.id]["par"] is None and grant.get("par") is not None:
                self.call("set_par", corp, int(self._value(grant["par"], f"{item} grants par")))
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
            self.state_set("granted", (cert,), True)  # the library's state of granted certificates
