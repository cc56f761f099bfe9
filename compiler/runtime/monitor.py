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
        #: what the holding checks read when they last passed (`_holdings_read`): where the next check
        #: reads the same, they pass again, and are not worked through
        self._passed: tuple | None = None
        #: (the certificates, privates, bonds and minors, the ids of them all): what `_holdings_read` reads
        #: the holders of
        self._ids: tuple | None = None

    @staticmethod
    def _money(game) -> int:
        held = sum(v for k, v in game.cash.items() if k is not BANK)
        if game.unlimited_bank:
            return held - (game.flow["paid"] - game.flow["received"])
        return held + game.cash[BANK]

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

    def _holdings_read(self, game) -> tuple:
        """Everything the holding checks of `check` read: the certificates and their holders, the holders of
        the privates, bonds and minors, the sanctioned excesses, the limits and caps, what counts against
        the certificate limit (each corporation's market zones, `b_zones`: its cell's and those of the
        ability cards the corporations hold; which privates and minors are open) and who is in the game. The checks are a
        function of these: the same read passes as it passed. (Not the rest of the owners: a train changing
        hands moves nothing they read.)"""
        corporations, corp = game.corporations, game.corp
        items = (tuple(tuple(game.certs_of[c.id]) for c in corporations), tuple(game.privates), tuple(game.bonds),
                 tuple(game.minors))
        ids = self._ids
        if ids is None or ids[0] != items:
            certificates, privates, bonds, minors = items
            ids = self._ids = (items, tuple([c.id for certs in certificates for c in certs]
                                            + [x.id for x in privates + bonds + minors]))
        counts = game.param("cert_limit_counts")
        cards = game.g.get("cards")
        zones_of = game.market.zones_of
        return (tuple(corporations), tuple(game.players), items, tuple(map(game.owner.get, ids[1])),
                game.g["sanctioned"], game.param("cert_limit"), game.param("holding_cap"),
                game.param("pool_cap") if corporations else None,
                tuple(counts) if isinstance(counts, list) else counts,
                tuple(map(zones_of, [corp[c.id]["cell"] for c in corporations])), tuple(cards.items()) if cards else None,
                tuple(game.closed[p.id] for p in game.privates), tuple(corp[m.id]["closed"] for m in game.minors))

    def check(self, game, action=None) -> None:
        money = self._money(game)
        if money != self.total:
            raise InvariantViolation("money_conserved", f"money in play is {money}, was {self.total}", action)
        if game.cash and min(game.cash.values()) < 0:  # then who (the bank's own cash is not judged)
            for holder, cash in game.cash.items():
                if holder is not BANK and cash < 0:
                    raise InvariantViolation("no_negative_cash", f"{holder} has {cash}", action)
        # the holding checks read what `_holdings_read` reads: where none of it changed since they last
        # passed (most actions move no certificate), they pass again
        try:
            read = self._holdings_read(game)
        except Exception:  # noqa: BLE001 - (a gap among the limits): the checks meet it where they read it
            read = None
        if read is not None and read == self._passed:
            return
        self._passed = None
        self._check_holdings(game, action)
        self._passed = read

    def _check_holdings(self, game, action) -> None:
        """The certificates of each corporation sum to 100% and each has a holder; no player over the
        certificate limit or a holding cap, the pool over its cap, but where sanctioned."""
        # each holder's percentage of each corporation and its number of certificates (what `b_percent`
        # answers holder by holder, and `b_certificates` counts), kept for a corporation whose
        # certificates stay where they were
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
        sanctioned = game.g["sanctioned"]
        limit = game.param("cert_limit")
        cap = game.param("holding_cap")
        counted = game._certificate_counts(tallies)  # `b_certificates` of every player, in one pass
        for player in game.players:
            certificates = counted.get((player.kind, player.id), 0)
            if certificates > limit and ("cert_limit", player.id) not in sanctioned:
                raise InvariantViolation(
                    "cert_limit", f"{player} holds {certificates} certificates, limit {limit}", action
                )
            for corp, pct in owning.get((player.kind, player.id), ()):
                if pct > cap and "unlimited_holding" not in game.b_zones(corp) and (
                    ("holding_cap", player.id) not in sanctioned
                ):
                    # a president's certificate alone may exceed a cap only if the title allows it
                    raise InvariantViolation("holding_cap", f"{player} holds {pct}% of {corp}, cap {cap}%", action)
        pool_cap = game.param("pool_cap") if game.corporations else None
        for corp in game.corporations:
            pool = pooled[corp.id]
            if pool > pool_cap and ("pool_cap", corp.id) not in sanctioned:
                raise InvariantViolation("pool_cap", f"the pool holds {pool}% of {corp}", action)
