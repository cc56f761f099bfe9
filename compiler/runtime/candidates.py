"""The candidates of each vocabulary type (`_cand_<type>`) and of a title's own actions
(`_title_action_candidates`): the actions `Listing` (compiler/runtime/listing.py) tries.

`Candidates` is a mixin of `Listing`, a part of `GameBase` (compiler/runtime/game.py); it imports
neither.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

from compiler.runtime import track
from compiler.runtime.entities import BANK, IPO, POOL, Entity
from compiler.runtime.errors import IllegalAction
from compiler.runtime.vocabulary import Action


class _KnownRefused:
    """In random_legal_action's own listing (`Listing._runs_listed`), `count` candidates in a row that a
    generator knows refused (a bound probe refuses their group, `_group_known_refused`): not built, as
    `is_legal` would refuse each untried; they keep their places in the list the draw shuffles."""

    __slots__ = ("count",)

    def __init__(self, count: int) -> None:
        self.count = count


class _SearchLater:
    """In random_legal_action's own listing (`Listing._runs_listed`), a company's one run_routes candidate:
    it keeps its place in the list the draw shuffles, and is worked out (its trains, bonuses and best
    routes: `Candidates._route_candidates`) only where the draw comes to it, in the listing's state (each
    trial before it rolled back): most listings of the run step draw another action first (a company's
    deal in shares, a private bought), and the next listing searches where nothing the search reads
    changed (`_route_memo`)."""

    __slots__ = ("args",)

    def __init__(self, *args: Any) -> None:
        self.args = args

    def action(self, game: "Candidates") -> Action:
        """The candidate, as `_route_candidates` lists it outside random play's own listing."""
        return game._route_candidates(*self.args)[0]


class _PrefixRun:
    """In random_legal_action's own listing (`Listing._runs_listed`), candidates in a row of a title's action
    (`name`) that share the verdict of its probes of their first parameters (`Candidates._prefix_runs`): they
    keep their places in the list the draw shuffles (`candidates`, not copied: a drawn one is copied), and the
    verdict is asked where the draw first comes to one of them (`refused`, None until then)."""

    __slots__ = ("name", "candidates", "refused")

    def __init__(self, name: str, candidates: list) -> None:
        self.name, self.candidates, self.refused = name, candidates, None


#: a value not yet worked out (None is an answer)
_UNASKED = object()


def _same(a: Any, b: Any) -> bool:
    return a is b


class Candidates:
    """The candidates of each of the vocabulary's actions and of a title's own."""

    def _cand_pass(self, entity, who):
        return [{"type": "pass", **who}]

    def _cand_buy_company(self, entity, who):
        out = []
        if self.g["round"] == "stock":
            item = self.call("private_on_sale")
            if item is not None:
                out.append({"type": "buy_company", **who, "company": item.id, "price": self.call("sale_price")})
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
            target = self._acquisition_target()
            if target is None or entity.kind != "corporation":
                return []
            least = self.call("highest_acquisition_bid") + 1
            prices = sorted({least, max(least, self.cash[entity] // 2), max(least, self.cash[entity])})
            return [{"type": "bid", **who, "corporation": target.id, "price": p} for p in prices]
        if self.g["round"] == "draft":
            # the price paid, or the card's face value (a title may record that in a pick); the guards decide
            for card in self.b_draft_hand():
                item = self._company(card)
                # (draft_price, face_value: the library's functions, rulespecs/lib/18xx.rules, compiled into the engine)
                for price in sorted({self.call("draft_price", item), self.call("face_value", item)}):
                    out.append({"type": "bid", **who, "company": card, "price": price})
            return out
        auction = self.g.get("auction")
        step = int(self.DATA.properties.get("min_bid_raise", 5))
        if self._open_auction_on():
            return self._open_bid_candidates(entity, who, None)
        if self.g["round"] == "auction":
            if self.call("picking"):
                return [{"type": "bid", **who, "minor": x, "price": 0} for x in self.g["starting"]["picks"] or ()]
            item = self.call("auction_company")
            if item is None:
                return []  # no private left on auction (a state the validator makes up)
            high = self._high_bid(item.id)
            face = int(self._value(item.get("cost"), f"private {item} cost"))
            prices = (face, face + step, face + 4 * step) if high is None else (high[1] + step, high[1] + 2 * step)
            return [{"type": "bid", **who, "company": item.id, "price": p} for p in prices]
        if auction:
            high = self._highest_bid(auction["company"])
            for amount in (high + step, high + 2 * step):
                out.append({"type": "bid", **who, "company": auction["company"], "price": amount})
            return out
        for pid in self._privates_for_sale()[1:]:
            item = self.entity("private", pid)
            floor = max(int(item.get("cost", 0)), self._highest_bid(item.id)) + step
            out.append({"type": "bid", **who, "company": pid, "price": floor})
        return out

    def _cand_move_bid(self, entity, who):
        if not self._open_auction_on():
            return []
        out = []
        for old, pid, _ in self._bids():
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
            high = self._highest_bid(item.id)
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
        # each price's share_price field and free rows (the same for every corporation), or None off the market
        prices: dict[int, tuple[str, list] | None] = {}
        # the number of (price, row) places of each list of par prices (most corporations share one)
        places: dict[tuple, int] = {}
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                group = {"type": "par", **who, "corporation": corp.id}
                if self._pair_skips(group):
                    continue  # its guards refuse the founder this corporation: no price, row or layout listed
                if self._group_refused_untried(group):
                    continue  # only whether some action is legal is asked, and a bound probe refuses them all
                start = len(out)
                layouts = corp.get("share_layouts")
                # the founder picks the size of the president's certificate, where the action names one
                percents = sorted(layouts) if isinstance(layouts, dict) and named_percent else None
                if self._runs_listed and self._group_known_refused(group):
                    # random play's listing: a group known refused is a run of as many places, not built (its
                    # probe's answer is kept with the listing's: asked again below where the group is built)
                    offered = tuple(self.call("par_prices", corp))
                    count = places.get(offered)
                    if count is None:
                        count = places[offered] = sum(
                            len(found[1]) for found in (self._par_price_found(prices, price, named_slot) for price in offered)
                            if found is not None)
                    count *= 1 if percents is None else len(percents)
                    if count:
                        out.append(_KnownRefused(count))
                        continue
                for price in self.call("par_prices", corp):
                    found = self._par_price_found(prices, price, named_slot)
                    if found is None:
                        continue
                    share_price, rows = found
                    for r in rows:
                        action = {**group, "share_price": share_price}
                        if r is not None:
                            action["slot"] = r
                        if percents is None:
                            out.append(action)
                        else:
                            out += [{**action, "president_percent": p} for p in percents]
                if len(out) > start and self._group_known_refused(group):
                    # refused whatever the price, row and layout (a bound probe: the least founding is too
                    # dear): listed, known refused
                    self._known_refused.update({id(a): a for a in out[start:]})
        return out

    def _par_price_found(self, prices: dict, price: int, named_slot: bool) -> tuple[str, list] | None:
        """A par price's share_price field and the rows a founder may choose there (None off the market),
        kept in `prices` for the listing (the same for every corporation)."""
        found = prices.get(price, False)
        if found is False:
            cell = self.market.par_cell(price)
            # the founder picks the row on a round track (1880 VI.6), where the action names one
            found = prices[price] = None if cell is None else (
                f"{price},{cell[0]},{cell[1]}", self._round_track_slots(price) if named_slot else [None])
        return found

    def _cand_buy_shares(self, entity, who):
        """Each started corporation's certificates the buyer may be offered: a player one certificate at a
        time (each holder's first, and those other corporations hold where the title's buy_shares names the
        certificate), a corporation the first k of its own in the market (or another's, where the title lets
        it); the guards decide. A corporation's candidates are worked out before its pair probe is asked
        (`_pair_skips`), which is asked only where there are some (most corporations in a stock round have
        none to offer: sold out), and drops them all where it refuses. A buyer other than a corporation is
        offered what `_buyer_groups` keeps by what it reads."""
        if entity.kind == "corporation":
            return self._buy_shares_anew(entity, who)
        groups = self._buyer_groups(entity)
        if groups is None:
            return self._buy_shares_anew(entity, who)
        out = []
        for corp_id, offered in groups:
            group = [{"type": "buy_shares", **who, "shares": list(shares), "percent": percent}
                     for shares, percent in offered]
            if not self._pair_skips({"type": "buy_shares", **who, "corporation": corp_id}):
                out.extend(group)
        return out

    def _buyer_groups(self, entity: Entity) -> tuple | None:
        """For a buyer other than a corporation: ((corporation id, ((certificate ids, percent), ...)), ...), the
        certificates of each corporation `_buyer_group` offers it, those with some, in the corporations'
        order; None where a corporation's IPO (`_ipo_of`) meets anything (`_buy_shares_anew` says what
        then). A function of what it reads: the corporations, which are started, where each one's unsold
        certificates sit, their certificates and the holder of each, the kind of buyer; kept by them for
        the game (the holders change only where a certificate changes hands: a stock round's passes
        leave them, and the same answer serves every player). Where each IPO is an answer `fixed_call`
        keeps for the game, the IPOs are asked again only where a corporation starts."""
        corps = self.corporations
        corp_state = self.corp
        kept = self.__dict__.get("_buyer_groups_kept")
        started = tuple([corp_state[c.id]["par"] is not None for c in corps])
        if kept is not None and kept[7] and kept[1] is corps and kept[8] == started:
            ipos = kept[4]  # (each an answer `fixed_call` keeps for the game: the same again)
        else:
            try:
                ipos = tuple([self._ipo_of(c) if s else None for c, s in zip(corps, started)])
            except Exception:  # noqa: BLE001 - worked out anew, which meets it where it always did
                return None
        certs_of = self.certs_of
        lists = tuple([certs_of[c.id] for c in corps])
        if kept is not None and kept[1] is corps and len(kept[2]) == len(lists) \
                and all(map(_same, kept[2], lists)):
            ids = kept[3]
        else:
            ids = tuple(c.id for certs in lists for c in certs)
        holders = tuple(map(self.owner.get, ids))
        kind = entity.kind
        if kept is not None and kept[0] == kind and kept[1] is corps and kept[3] is ids and kept[8] == started \
                and kept[4] == ipos and kept[5] == holders:
            return kept[6]
        named = kind == "player" and any(n == "shares" for n, _ in self.ACTION_PARAMS.get("buy_shares", ()))
        held_by_corporations = self._held_by_corporations()
        groups = []
        for corp, ipo, on in zip(corps, ipos, started):
            if not on:
                continue  # not started
            offered = self._buyer_group(corp, ipo, held_by_corporations, named)
            if offered:
                groups.append((corp.id, tuple((tuple(c.id for c in chosen), sum(c.percent for c in chosen))
                                              for chosen in offered)))
        groups = tuple(groups)
        fixed = self.__dict__.get("_fixed_answers") or {}
        ipos_fixed = all(fixed.get(("ipo_of", c)) is not None for c, s in zip(corps, started) if s)
        self.__dict__["_buyer_groups_kept"] = (kind, corps, lists, ids, ipos, holders, groups, ipos_fixed, started)
        return groups

    def _held_by_corporations(self) -> dict[str, set[str]]:
        """The corporations (by id) whose certificates some corporation holds, and which (by id): with the
        owners' index, a corporation none of whose certificates a player could be offered is passed over
        without a pass over its certificates (most of them in a stock round: sold out)."""
        held_by_corporations: dict[str, set[str]] = {}
        for holder, held in self.owner.holdings.items():
            if isinstance(holder, Entity) and holder.kind == "corporation":
                for corp_id in held:
                    held_by_corporations.setdefault(corp_id, set()).add(holder.id)
        return held_by_corporations

    def _buyer_group(self, corp: Entity, ipo: Entity, held_by_corporations: dict, named: bool) -> list[list] | None:
        """The certificates of the started `corp` a buyer other than a corporation may be offered, one at a
        time (as lists of one): each holder's first (of the IPO `ipo`, the corporation and the pool), and those
        another corporation holds where the title's buy_shares names the certificate (`named`); None where
        none is held where a player could buy it nor by another corporation."""
        holdings, owner = self.owner.holdings, self.owner
        # (the distinct of the IPO, the corporation and the pool: the IPO apart, or the treasury)
        holders = (IPO, corp, POOL) if ipo is IPO else (corp, POOL) if ipo is corp \
            else tuple(dict.fromkeys((ipo, corp, POOL)))
        by_corporations = held_by_corporations.get(corp.id)
        if not (by_corporations and (len(by_corporations) > 1 or corp.id not in by_corporations)):
            cid = corp.id
            for holder in holders:
                if cid in holdings.get(holder, ()):
                    break
            else:
                return None  # none held where a player could buy it, nor by another corporation: no candidate
        # a player buys one certificate at a time: each holder's first, from one pass over the certificates
        firsts: list = [None] * len(holders)
        # each holder's place by kind and id (Entity equality; every holder here is an Entity)
        place = {(holder.kind, holder.id): i for i, holder in enumerate(holders)}
        others = []  # those another corporation holds
        for c in self.certs_of[corp.id]:
            if c.president:
                continue
            o = owner[c.id]
            i = place.get((o.kind, o.id))
            if i is not None:
                if firsts[i] is None:
                    firsts[i] = c
            elif isinstance(o, Entity) and o.kind == "corporation" and o != corp:
                others.append(c)
        offered = []
        if named and others:
            # a certificate another corporation holds, where the title's buy_shares names the certificate bought
            # (18 Grand Junction's Cleveland Graham); its guards say whether it may be bought
            offered.append([others[0]])
        offered.extend([c] for c in firsts if c is not None)
        if named:
            # a certificate another corporation holds of this one (18CO §4.2.2), where the title's buy_shares
            # names the certificate bought; its guards say who may buy it and when
            offered.extend([c] for c in others)
        return offered

    def _buy_shares_anew(self, entity, who):
        """`_cand_buy_shares` worked out afresh: for a corporation buying (its own certificates in the market,
        or another's), and for another buyer where a corporation's IPO meets anything (its pair probe then
        asked first, as ever)."""
        out = []
        sources = (POOL,) if entity.kind == "corporation" else None
        corporate_certificates = any(n == "shares" for n, _ in self.ACTION_PARAMS.get("buy_shares", ()))
        owner = self.owner
        holdings = owner.holdings
        held_by_corporations = self._held_by_corporations() if entity.kind != "corporation" else {}
        president: Any = _UNASKED  # (a corporation buyer's president, asked where first needed)
        for corp in self.corporations:
            if self.corp[corp.id]["par"] is None:
                continue
            group: list[Action] = []
            if entity.kind == "corporation" and corp != entity:
                if "corporate_buy_shares" in self.ACTION_PARAMS:
                    continue  # the vocabulary's corporate_buy_shares names these
                # another corporation's certificates, one at a time, from the market or the buyer's president
                # (where the title lets corporations buy them, its guards say); none of a corporation the
                # owners' index says neither holds any of
                if president is _UNASKED:
                    president = self.call("president", entity)  # (a function of the state: asked once)
                if corp.id not in holdings.get(POOL, ()) and corp.id not in holdings.get(president, ()):
                    continue
                for cert in self.certs_of[corp.id]:
                    if not cert.president and self.owner[cert.id] in (POOL, president):
                        group.append({"type": "buy_shares", **who, "shares": [cert.id], "percent": cert.percent})
            elif sources is not None:
                for holder in sources:
                    if corp.id not in holdings.get(holder, ()):
                        continue  # the owners' index: it holds none of them
                    # Entity equality (kind and id; every holder here is an Entity) without a call per
                    # certificate
                    hid, hkind = holder.id, holder.kind
                    certs = [c for c in self.certs_of[corp.id]
                             if not c.president and ((o := owner[c.id]) is holder
                                                     or (o.id == hid and o.kind == hkind))]
                    for k in range(1, len(certs) + 1):
                        chosen = certs[:k]
                        group.append({"type": "buy_shares", **who, "shares": [c.id for c in chosen],
                                      "percent": sum(c.percent for c in chosen)})
            else:
                try:
                    ipo = self._ipo_of(corp)
                except Exception:
                    # (met after the pair probe before: where it refuses, no candidate, and nothing raised)
                    if self._pair_skips({"type": "buy_shares", **who, "corporation": corp.id}):
                        continue
                    raise
                offered = self._buyer_group(corp, ipo, held_by_corporations,
                                            entity.kind == "player" and corporate_certificates)
                group.extend({"type": "buy_shares", **who, "shares": [c.id for c in chosen],
                              "percent": sum(c.percent for c in chosen)} for chosen in offered or ())
            if group and not self._pair_skips({"type": "buy_shares", **who, "corporation": corp.id}):
                # (where its guards refuse the buyer this corporation's shares, whichever: none listed)
                out.extend(group)
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
        president = self.call("president", entity)
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
        owner, eid, ekind = self.owner, entity.id, entity.kind  # Entity equality without a call per certificate
        for corp in self.corporations:
            if corp == entity:
                continue
            certs = [c for c in self.certs_of[corp.id]
                     if not c.president and ((o := owner[c.id]) is entity or (o.id == eid and o.kind == ekind))]
            for k in range(1, len(certs) + 1):
                out.append({"type": "corporate_sell_shares", **who, "shares": [c.id for c in certs[:k]],
                            "percent": sum(c.percent for c in certs[:k])})
        return out

    def _cand_sell_shares(self, entity, who):
        out = []
        owner, eid, ekind = self.owner, entity.id, entity.kind  # Entity equality without a call per certificate
        by_exchange = self.DATA.properties.get("president_certificate_sale") == "by_presidency_exchange"
        # a seller other than a corporation sells only what the owners' index says it holds (`_sellable`
        # answers [] for the rest, and a president's certificate it does not hold is not offered)
        # (a corporation's own certificates and those it holds of another: none of a corporation the index
        # says it holds nothing of)
        held = owner.holdings.get(entity, {}) if entity.__class__ is Entity else None
        for corp in self.corporations:
            if held is not None and corp.id not in held:
                continue
            if entity.kind == "corporation" and corp != entity and "corporate_sell_shares" in self.ACTION_PARAMS:
                continue  # the vocabulary's corporate_sell_shares names these
            if entity.kind == "corporation":
                # its own certificates (issuing), or those it holds of another corporation (where the title
                # lets it sell them, its guards say)
                certs = [c for c in self.certs_of[corp.id]
                         if not c.president and ((o := owner[c.id]) is entity or (o.id == eid and o.kind == ekind))]
            else:
                certs = self._sellable(entity, corp)
            for k in range(1, len(certs) + 1):
                chosen = certs[:k]
                out.append({"type": "sell_shares", **who, "shares": [c.id for c in chosen],
                            "percent": sum(c.percent for c in chosen)})
            pres = self.certs_of[corp.id][0]
            if entity.kind == "player" and by_exchange \
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
                price = self.call("bank_price", entity, self._train_side(train, side))  # the library's
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
        # every other corporation's trains (`b_trains` of each), from one pass over the trains
        owner, held = self.owner, {}
        for tid, t in self.trains.items():
            o = owner[tid]
            if o.__class__ is Entity and o.kind == "corporation":
                held.setdefault(o.id, []).append(t)
        for other in self.corporations:
            if other == entity:
                continue
            for t in held.get(other.id, ()):
                out.append({"type": "buy_train", **who, "train": t.id, "price": 1})
                out.append({"type": "buy_train", **who, "train": t.id, "price": t.price})
        return out

    def _cand_contribute(self, entity, who):
        out = []
        if entity.kind != "corporation" or "forced_shortfall" not in self.ROUTINES:
            return out
        # what the corporation still lacks after the help its title gives: the title's function
        # forced_shortfall (the library's, or the title's own where its forced_purchase_help helps);
        # each player offers that much of his cash, the action's guards judging
        need = self.call("forced_shortfall", entity)
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
        if self._runs_listed and not self._quick_routes:
            # random play's own listing: the one candidate worked out where the draw comes to it, in the
            # listing's state (`_SearchLater`), its search kept or made then
            return [_SearchLater(corp, who)]
        trains = list(self._train_dicts(corp).values())
        extras = self._route_extras(corp)
        # what the search reads: the board (its version moves with every change to it, tokens
        # included), the company, its trains, the phase and its bonuses
        key = (self.board.version, corp.id, repr(trains), self.g["phase"], self._quick_routes, repr(extras))
        best = self._route_memo.get(key)
        if best is None and self._quick_routes and self._then is not None:
            declared = self._declared_run(corp, who, extras)
            if declared is not None:
                self._declared_action = declared  # (its trial kept where legal: `Listing.is_legal`)
                # the run the caller gives next, tried first: legal, it answers as the search's would; the
                # search runs only where it is not (`_first_legal` goes on to the next candidate)
                return itertools.chain((declared,), self._searched_routes(corp, who, key, trains, extras))
        return list(self._searched_routes(corp, who, key, trains, extras, best))

    def _searched_routes(self, corp: Entity, who: dict, key: tuple, trains: list, extras: Any,
                         best: Any = None) -> Iterator[Action]:
        """`_route_candidates`' search (`best`: its answer kept in `_route_memo`, if any)."""
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
        yield {"type": "run_routes", **who, "routes": [run.as_dict() for run in best.runs]}

    def _declared_run(self, corp: Entity, who: dict, extras: Any) -> Action | None:
        """The run the caller gives next (`look_ahead`), as `corp`'s candidate where it is one
        that answers whether a paying run exists (`_first_legal` at the run step: the automatic pass):
        `corp`'s run with routes, a paying one (a route that pays without the per-stop bonus, as a route
        the search keeps does), on the track it reaches now. Whether the action is legal is then for
        `is_legal` to say, as of the search's run. None where it is not such a run: then the search.

        The same answer as the search's: a route of the run is legal on its own (each route is checked
        apart; together they only share no track) and pays, and the search, which enumerates every
        train's routes until one pays, finds a paying run exactly where one exists."""
        then = self._then
        if not isinstance(then, dict) or then.get("type") != "run_routes" or not then.get("routes"):
            return None
        then = self._from_log_ids(then)
        if str(then.get("entity")) != corp.id or not isinstance(then["routes"], list):
            return None
        owned = self._train_dicts(corp)
        if not all(isinstance(route, dict) and route.get("train") in owned for route in then["routes"]):
            return None  # (a train it does not run: `route_revenue` refuses it)
        try:
            found = self._checked_routes(corp, then["routes"], owned, extras)
        except Exception:  # noqa: BLE001 - no answer (the run, refused, is the next action's to report): the search
            return None
        # (the per-stop bonus goes to one run: less the most it may add, what its stops earn)
        if not any(run.revenue > extras.per_stop * len(run.nodes) for run in found.runs):
            return None
        return {"type": "run_routes", **who, "routes": then["routes"]}

    def _cand_lay_tile(self, entity, who):
        if entity.kind == "private":
            yield from self._cand_ability_lays(entity, who)
            return
        if not self.call("in_step", entity, "lay_tile") or self.board is None or self.b_lays_left() <= 0:
            return
        colors = self._phase_colors()
        cash = self.cash[entity]
        skip = self._hexes_refused(who)
        if skip is None and not self._exhaustive:
            # the lays whatever the cash, kept by what they are a function of (`_listed_lays`): the board's
            # version (which moves with every change to it, and comes back only with its state), the company
            # and the colours; those the company's cash pays for listed (`iter_legal_lays` leaves out the
            # others alone). A company's lay step is listed again after each deal in shares or privates it
            # makes before its lay, which leaves the board as it was
            key = (self.board.version, entity.id, tuple(colors))
            kept = self.__dict__.get("_listed_lays")
            if kept is None or kept[0] != key:
                kept = (key, self._lay_actions(entity, colors, None, None))
                self.__dict__["_listed_lays"] = kept
            for cost, action in kept[1]:
                if cost <= cash:
                    yield dict(action)
            return
        for _cost, action in self._lay_actions(entity, colors, cash, skip):
            yield action

    def _lay_actions(self, entity, colors: list[str], cash: int | None, skip) -> list[tuple[int, Action]]:
        """`_cand_lay_tile`'s lays (`track.iter_legal_lays`, those `cash` pays for, less the hexes `skip`
        leaves out), each with its cost, as actions."""
        out = []
        # each tile's first copy not in use, worked out once: the state is the same at every lay listed (a
        # candidate tried between two is rolled back)
        copies: dict[str, int] = {}
        for lay in track.iter_legal_lays(self.board, entity.id, colors, cash=cash,
                                         exhaustive=self._exhaustive, skip=skip):
            copy = copies.get(lay.tile)
            if copy is None:
                used = self.board.in_use.get(lay.tile, ())
                copy = copies[lay.tile] = next(i for i in range(len(used) + 1) if i not in used)
            out.append((lay.cost, {**lay.action(entity.id, copy), "entity_type": entity.kind}))
        return out

    def _hexes_refused(self, who: dict) -> Callable[[str], bool] | None:
        """Where only whether some action is legal is asked (`_first_legal`: no candidate kept as known
        refused), a test of the hexes whose lays the bound probe of a lay's entity and hex refuses
        (`PREFIX_PROBES`, `qb2_`: a lay's cost at least `_least_lay_cost_at(hex)`): every lay there
        would be refused at that guard or before, so none is judged or listed. None elsewhere (a listing
        lists them, and `is_legal` refuses them by the same probe without a trial)."""
        answers = self._pair_answers
        if not self._probing or self._exhaustive or self._known_refused is not None or answers is None \
                or answers[0] != len(self.j._marks):
            return None
        if self.action_name({"type": "lay_tile", **who}) not in self.PREFIX_PROBES:
            return None
        return lambda hex_id: self._prefix_refused({"type": "lay_tile", **who, "hex": hex_id}, answers[1], upto=2)

    def _cand_assign(self, entity, who):
        """A private's revenue marker (effect: hex_marker) into each hex it may go, or the marker of a
        company's card (effect: bonus_token) on each city hex; the guards decide when."""
        if entity.kind == "corporation" and self.call("has_power", entity, "bonus_token") and self.state_amount("cubes", entity) \
                and self.board is not None:
            return [{"type": "assign", **who, "target": h, "target_type": "hex"}
                    for h in sorted(self.board.hexes) if self.board.tile_at(h).cities]
        if entity.kind != "private":
            return []
        hexes, named, gives = self._assign_shape(entity)
        out = [{"type": "assign", **who, "target": hex_id, "target_type": "hex"} for hex_id in hexes]
        if named and self._marker_assigned_by_player(entity):
            # the corporation a player owner's marker serves (the guards decide)
            out.extend({"type": "assign", **who, "target": c.id, "target_type": c.kind}
                       for c in self.corporations + self.minors
                       if self.corp[c.id]["floated"] and not self.corp[c.id]["closed"])
        holder = self.owner.get(entity.id)
        if gives and not self.closed[entity.id] and isinstance(holder, Entity) and holder.kind == "player":
            # a private whose ability a player owner gives to one of his corporations (1880 Romania's REMAR
            # and Electroputere as 18xx.games has them): each corporation he directs (the guards decide)
            out.extend({"type": "assign", **who, "target": c.id, "target_type": "corporation"}
                       for c in self.corporations if self._director(c) == holder and not self.corp[c.id]["closed"])
        out = list({(a["target"], a["target_type"]): a for a in out}.values())
        if self._probing and not self._exhaustive and any(a["target_type"] == "hex" for a in out) \
                and self._marker_spent(entity):
            # every hex is refused by `place_marker` (its placements spent): listed, known refused without
            # a trial (random play draws from the same list), or left out where only whether some action is
            # legal is asked (`_first_legal`); the oracle tries them
            if self._known_refused is None:
                return [a for a in out if a["target_type"] != "hex"]
            self._known_refused.update((id(a), a) for a in out if a["target_type"] == "hex")
        return out

    def _assign_shape(self, private: Entity) -> tuple[tuple[str, ...], bool, bool]:
        """What `_cand_assign` lists of a private by its abilities alone (a private's abilities never change in
        play; kept for the game): the hexes its revenue markers may go in (each marker ability's `hexes`,
        then its `bonuses`' hexes, each hex once for each ability, in that order), whether one of them is a
        player owner's that names a corporation (where `_marker_assigned_by_player` may say so), and whether
        it has an ability of another effect (one a player owner gives to a corporation)."""
        kept = self.__dict__.get("_assign_shapes")
        if kept is None:
            kept = self.__dict__["_assign_shapes"] = {}
        shape = kept.get(private.id)
        if shape is None:
            hexes: list[str] = []
            markers = self._abilities(private, "hex_marker")
            for ability in markers:
                found = [str(h) for h in ability.get("hexes") or ()] + [str(e["hex"]) for e in ability.get("bonuses") or ()]
                hexes += dict.fromkeys(found)
            named = any(str(a.get("owner", "")) == "player"
                        and str(a.get("assigned_to", "")) in ("corporation", "corporation_or_minor") for a in markers)
            gives = any(a.get("kind") == "ability" and a.get("effect") not in (None, "hex_marker")
                        for a in private.get("children") or ())
            shape = kept[private.id] = (tuple(hexes), named, gives)
        return shape

    def _marker_spent(self, company: Entity) -> bool:
        """Whether `place_marker` refuses private `company`'s marker in any hex: the marker ability it uses
        now (`_marker_ability`, by the owner's kind) is one its user places (not one a player owner names,
        `_assign_player_marker`) and its `count` of placements is spent."""
        try:
            ability = self._marker_ability(company)
            return not self._marker_named_by_player(company) and self._marker_placements_spent(company, ability)
        except Exception:  # noqa: BLE001 - the trials decide, as ever
            return False

    def _cand_ability_lays(self, company, who):
        """A private's tile-lay ability: every tile of its list in each of its hexes, at each rotation, that
        the check allows (the guards decide when)."""
        out = []
        generic = any(self._generic_timing(a) for a in self._abilities(company, "free_lay"))
        if self.board is None or self.closed[company.id] or not generic and (
                self.owner[company.id].kind != "corporation" or self.g.get("operating") != self.owner[company.id].id):
            return out
        if not self._abilities(company, "free_lay") or self.call("ability_spent", company, "free_lay"):
            return out  # none, or its uses spent (the library's ability_lay refuses every lay then)
        try:
            self._ability_lay_giver(company)
        except IllegalAction:
            return out  # refused whatever the hex and tile (its user, its timing): no hex worked out, none listed
        except Exception:  # noqa: BLE001 - met where the loop below meets it, as ever
            pass
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
                    # what `_check_ability_lay` judges before the rotation, once for the hex and tile
                    try:
                        opened = self._ability_lay_opening(company, str(hex_id), str(name))
                    except IllegalAction:
                        continue
                    for rotation in range(6):
                        try:
                            lay = self._ability_lay_at(rotation, *opened, quiet=True)
                        except IllegalAction:
                            continue
                        if lay is None:
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
        if swap is not None and self.board is not None and self.call("pending_decision", entity, "place_token"):
            return [{"type": "place_token", **who, "city": track.node_id(ref)} for ref in self.board.tokens_of(swap[1])]
        if self.board is not None and self.call("pending_decision", entity, "place_token") and self._home_chosen(entity):
            return [spot.action(entity.id) for spot in self._open_cities(entity)]
        again = (self.g.get("retoken") or {}).get(entity.id)
        if again is not None and self.board is not None and self.call("pending_decision", entity, "place_token"):
            # a token a first tile took up goes back into a city of its hex (`token_city_on_first_lay`)
            return [{"type": "place_token", **who, "city": self.board.city_id(ref)}
                    for ref in self.board.nodes() if ref[0] == again and self.board.node(ref).kind == "city"]
        if not self.call("in_step", entity, "place_token") or self.board is None:
            return []
        spots = track.legal_tokens(self.board, entity.id)
        out = [spot.action(entity.id) for spot in spots]
        if entity.kind == "corporation" and self.call("has_power", entity, "squeeze_token"):
            # beside the circles of a reachable city with none free (the guards decide; a card's power: a
            # minor holds none)
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

    #: the parameter types over which a title action's candidates depend on the state (`_declared_kind_choices`'
    #: trains and certificates held); a union of holders and an ability card too (`_title_action_fixed`)
    _HELD_KINDS = frozenset({"train", "list[certificate]"})

    #: (engine class, action, vocabulary type) -> whether `_title_action_candidates` reads nothing that changes
    #: in play but the seating and the corporations (`_title_action_fixed`)
    _FIXED_TITLE_ACTIONS: dict[tuple, bool] = {}

    def _title_action_fixed(self, kind: str, params, action: str | None) -> bool:
        """Whether the candidates of a title's own action are a function of the actor, the players' seating
        and the corporations alone: no parameter of a kind whose values are held in play (a train, a
        certificate), of a union of holders (the private's owner) or an ability card (the deck)."""
        key = (type(self), action, kind)
        fixed = self._FIXED_TITLE_ACTIONS.get(key)
        if fixed is None:
            card = self._card_kind()
            fixed = self._FIXED_TITLE_ACTIONS[key] = all(
                types and types[0] not in self._HELD_KINDS and types[0] != card
                and not (len(types) > 1 and all(x in ("player", "corporation") for x in types))
                for _name, types in params[1:])
        return fixed

    def _title_action_candidates(self, kind: str, params, who: dict, action: str | None = None) -> list[Action]:
        """Candidates for a title's own action (`action`, of vocabulary type `kind`): each later parameter
        ranges over the entities of its type (a money parameter over the price range of the private the
        candidate names, `_money_range`, else every price the title declares; a train, hex, tile or
        certificate over `_declared_kind_choices`); an optional field is also left out. Where they read
        nothing held in play (`_title_action_fixed`), worked out once for the actor, the seating and the
        corporations (1800's `trade_company`, two dozen candidates a stock-round turn); the exhaustive
        listing (the oracle) works them out anew."""
        if self._exhaustive or not self._title_action_fixed(kind, params, action):
            return self._title_action_candidates_anew(kind, params, who, action)
        memo = self.__dict__.get("_title_candidates")
        if memo is None:
            memo = self.__dict__["_title_candidates"] = {}
        key = (kind, action, tuple(who.items()), tuple(p.id for p in self.players),
               tuple(c.id for c in self.corporations))
        found = memo.get(key)
        if found is None:
            if len(memo) >= 1024:
                memo.clear()
            found = memo[key] = self._title_action_candidates_anew(kind, params, who, action)
        if self._runs_listed and found:
            runs = self._prefix_runs(action or kind, found)
            if runs is not None:
                return runs
        return [dict(candidate) for candidate in found]  # (each listing's own: a caller may keep or change one)

    def _prefix_runs(self, name: str, found: list[Action]) -> list | None:
        """In random play's own listing (`_runs_listed`), the candidates `found` of the title's action `name`
        as runs (`_PrefixRun`) of those in a row that give the same fields to the parameters of its probes of
        its first parameters (`PREFIX_PROBES`: 1800's `trade_company` by private and seller, whatever the
        price), which share their verdict (`_prefix_refused`): asked once for a run, where the draw first comes
        to one of it, as `is_legal` would ask it of each (and refuse each untried); None where the action has
        no such probe, or its parameters are not each bound by a field of its own (`_plain_prefix`). The runs
        of a list are kept with it (`_title_action_candidates` keeps the list)."""
        answers = self._pair_answers
        if answers is None or answers[0] != len(self.j._marks) or self._known_refused is None:
            return None
        kept = self.__dict__.get("_prefix_run_lists")
        if kept is None:
            kept = self.__dict__["_prefix_run_lists"] = {}
        found_runs = kept.get(id(found))
        if found_runs is None or found_runs[0] is not found:
            if len(kept) >= 1024:
                kept.clear()
            found_runs = kept[id(found)] = (found, self._prefix_run_slices(name, found))
        runs = found_runs[1]
        return None if runs is None else [_PrefixRun(name, run) for run in runs]

    def _prefix_run_slices(self, name: str, found: list[Action]) -> tuple | None:
        """`_prefix_runs`' runs of `found` (lists of its candidates), or None."""
        probes = self.PREFIX_PROBES.get(name)
        fields = self._plain_prefix(name, probes[-1][0]) if probes else None
        if not fields:
            return None
        runs: list = []
        start, n = 0, len(found)
        while start < n:
            first = found[start]
            if "shares" in first or "share_price" in first:
                return None  # (fields `_bind_param` reads for others: `_prefix_refused` binds them anew)
            try:
                shared = [(first[f].__class__, first[f]) for f in fields]
                end = start + 1
                while end < n and all((found[end][f].__class__, found[end][f]) == v for f, v in zip(fields, shared)):
                    end += 1
            except (KeyError, TypeError):
                return None
            runs.append(found[start:end])
            start = end
        return tuple(runs)

    def _title_action_candidates_anew(self, kind: str, params, who: dict, action: str | None = None) -> list[Action]:
        """`_title_action_candidates`, worked out."""
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
                actor = self._actor(who)
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
        actor = self._actor(who)
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
        actor = self._actor(who)
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
