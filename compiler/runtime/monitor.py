"""The runtime invariant monitor, run after every action in playouts and tests.

- money is conserved: bank + players + corporations equals the money in play
  at the start (with an unlimited bank: players + corporations equals what
  the bank has paid out less what it has taken in);
- each corporation's certificates add up to 100% across all holders;
- nobody is over the certificate limit or a holding cap, and the pool holds no
  more than its cap of a corporation, except where a rule sanctions it (the
  game records sanctioned holders and corporations in its state);
- no player or corporation has negative cash.

`check(game, action)` raises `InvariantViolation` naming the action.
"""

from __future__ import annotations

import operator

from compiler.runtime.entities import BANK, POOL
from compiler.runtime.errors import InvariantViolation


class Monitor:
    def __init__(self, game) -> None:
        self.total = self._money(game)
        #: corporation id -> (its certificates list, their ids, their percentages summed): the certificates
        #: are fixed at setup, read again only if the list is another
        self._certs: dict[str, tuple[list, tuple[str, ...], int]] = {}
        #: corporation id -> (the holder of each certificate, as last seen; each holder's percentage and
        #: number of certificates; the first certificate with no holder): worked out again only where one
        #: of its certificates changed hands (most actions move a corporation's shares or none)
        self._tallies: dict[str, tuple[tuple, dict, dict, object]] = {}
        #: [each corporation's certificates list, the holder of every certificate as last seen, their ids;
        #: the per-corporation figures `check` worked out from them; the owners' `stamp` they were last
        #: found the same at]: kept while no certificate changes hands and no corporation's certificates
        #: are replaced (most actions of an operating round)
        self._seen: list | None = None
        #: (`_seen` as it was, what else the holding checks read, the owners' stamp) when they last passed:
        #: passed again while all are the same (`check`)
        self._passed: tuple | None = None

    @staticmethod
    def _money(game) -> int:
        # everyone's cash but the bank's: all of it summed less the bank's (one pass in C, as asked after
        # every action; the bank is one key, `BANK`, the only entity equal to it)
        cash = game.cash
        held = sum(cash.values())
        if game.unlimited_bank:
            return held - cash.get(BANK, 0) - (game.flow["paid"] - game.flow["received"])
        return held

    def _tally(self, game, corp) -> tuple[int, tuple, dict, dict, object]:
        """(the percentages of `corp`'s certificates summed, and the `_tallies` entry of its holders now)."""
        certs = game.certs_of[corp.id]
        fixed = self._certs.get(corp.id)
        if fixed is None or fixed[0] is not certs:
            fixed = self._certs[corp.id] = (certs, tuple(c.id for c in certs), sum(c.percent for c in certs))
        holders = tuple(map(game.owner.get, fixed[1]))
        known = self._tallies.get(corp.id)
        if known is not None and known[0] == holders:
            return fixed[2], known
        missing = None
        percents: dict[tuple[str, str], int] = {}
        numbers: dict[tuple[str, str], int] = {}
        for cert, holder in zip(certs, holders):
            if holder is None:
                if missing is None:
                    missing = cert
                continue
            key = (holder.kind, holder.id)
            percents[key] = percents.get(key, 0) + cert.percent
            numbers[key] = numbers.get(key, 0) + 1
        known = self._tallies[corp.id] = (holders, percents, numbers, missing)
        return fixed[2], known

    def _holdings(self, game, action) -> tuple[dict, dict, dict]:
        """Each corporation's certificates summed (they must make 100%, each with a holder), and from the
        holders: (the pool's percentage of each corporation, each corporation's number of certificates by
        holder, each holder's (corporation, percentage) pairs)."""
        pooled: dict[str, int] = {}
        tallies: dict[str, dict[tuple[str, str], int]] = {}
        owning: dict[tuple[str, str], list[tuple[object, int]]] = {}  # holder -> (corporation, percent)
        pool_key = (POOL.kind, POOL.id)
        for corp in game.corporations:
            total, (_holders, percents, numbers, missing) = self._tally(game, corp)
            if total != 100:
                raise InvariantViolation("shares_sum_to_100", f"{corp} certificates sum to {total}%", action)
            if missing is not None:
                raise InvariantViolation("shares_sum_to_100", f"{missing} has no holder", action)
            tallies[corp.id] = numbers
            for key, pct in percents.items():
                owning.setdefault(key, []).append((corp, pct))
            pooled[corp.id] = percents.get(pool_key, 0)
        return pooled, tallies, owning

    def check(self, game, action=None) -> None:
        money = self._money(game)
        if money != self.total:
            raise InvariantViolation("money_conserved", f"money in play is {money}, was {self.total}", action)
        if game.cash and min(game.cash.values()) < 0:  # then who (the bank's own cash is not judged)
            for holder, cash in game.cash.items():
                if holder is not BANK and cash < 0:
                    raise InvariantViolation("no_negative_cash", f"{holder} has {cash}", action)
        # each holder's percentage of each corporation and its number of certificates (what `b_percent`
        # answers holder by holder, and `b_certificates` counts), kept for a corporation whose
        # certificates stay where they were
        certs_of, owner = game.certs_of, game.owner
        lists = tuple([certs_of[corp.id] for corp in game.corporations])
        seen = self._seen
        stamp = getattr(owner, "stamp", None)
        same_lists = seen is not None and len(seen[0]) == len(lists) and all(map(operator.is_, seen[0], lists))
        holders = None  # (the holder of every certificate now, where asked below)
        if same_lists and ((stamp is not None and seen[4] == stamp)
                           or seen[1] == (holders := tuple(map(owner.get, seen[2])))):
            # no certificate changed hands (the owners written to nowhere since, `Owners.stamp`, or the same
            # holders): the figures worked out from the same holders, which passed
            pooled, tallies, owning = seen[3]
            seen[4] = stamp
        else:
            pooled, tallies, owning = self._holdings(game, action)
            # the certificates' ids, the same while each corporation's list is (`_seen`'s)
            ids = seen[2] if same_lists else tuple([c.id for certs in lists for c in certs])
            if holders is None:
                holders = tuple(map(owner.get, ids))
            self._seen = seen = [lists, holders, ids, (pooled, tallies, owning), stamp]
        sanctioned = game.g["sanctioned"]
        limit = game.param("cert_limit")
        cap = game.param("holding_cap")
        pool_cap = game.param("pool_cap") if game.corporations else None
        # the holding checks' verdict is kept by all they read: the figures of the holders (`_seen`'s, another
        # object where a certificate changed hands), the owners written to nowhere since (`Owners.stamp`: who
        # holds each private, bond and minor), the sanctions, the limits, each corporation's cell and the
        # cards (its market zones, `_zones`), which privates and minors are closed (`_certificate_counts`);
        # the same, the same verdict: it passed
        corp_state = game.corp
        key = (sanctioned, limit, cap, pool_cap, tuple([corp_state[c.id]["cell"] for c in game.corporations]),
               game.g.get("cards"), tuple(game.players), self._others_key(game))
        passed = self._passed
        if passed is not None and passed[0] is seen and stamp is not None and passed[2] == stamp and passed[1] == key:
            return
        counted = game._certificate_counts(tallies)  # `b_certificates` of every player, in one pass
        for player in game.players:
            certificates = counted.get((player.kind, player.id), 0)
            if certificates > limit and ("cert_limit", player.id) not in sanctioned:
                raise InvariantViolation(
                    "cert_limit", f"{player} holds {certificates} certificates, limit {limit}", action
                )
            for corp, pct in owning.get((player.kind, player.id), ()):
                if pct > cap and "unlimited_holding" not in game._zones(corp) and (
                    ("holding_cap", player.id) not in sanctioned
                ):
                    # a president's certificate alone may exceed a cap only if the title allows it
                    raise InvariantViolation("holding_cap", f"{player} holds {pct}% of {corp}, cap {cap}%", action)
        for corp in game.corporations:
            pool = pooled[corp.id]
            if pool > pool_cap and ("pool_cap", corp.id) not in sanctioned:
                raise InvariantViolation("pool_cap", f"the pool holds {pool}% of {corp}", action)
        self._passed = (seen, key, stamp)

    @staticmethod
    def _others_key(game) -> tuple:
        """Which privates and minors are closed, and the kinds of holding that count against the limit: what
        `_certificate_counts` reads of them but their holders (the owners' stamp answers for those)."""
        closed, corp = game.closed, game.corp
        return (tuple([closed.get(p.id) for p in game.privates]), tuple([corp[m.id]["closed"] for m in game.minors]),
                game.param("cert_limit_counts"))
