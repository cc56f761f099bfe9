"""States set up by hand for translation validation's constructions (`validate._construct`).

Each function changes a generated engine's state inside the caller's journal transaction
(rolled back after), towards what random play seldom reaches: a later phase, an ability card
dealt, a station far from home, track extended toward a city, a president with nothing to sell.
"""

from __future__ import annotations

import random
from typing import Any


from compiler.runtime.entities import POOL as RT_POOL
from compiler.runtime.entities import Entity
from compiler.runtime.errors import IllegalAction


def later_phase(game: Any, rng: random.Random) -> None:
    """The phase marker moved on one or two phases, without the new phase's events or the train
    purchase that would bring it (the actions a later phase allows, for a corporation of the scope
    that random play has seldom kept alive until then)."""
    keys = [phase["key"] for phase in game.phases]
    at = keys.index(game.g["phase"])
    later = keys[at + 1:at + 3]
    if later:
        game.j.set(game.g, "phase", rng.choice(later))


def deal_card(game: Any, corp: Entity, rng: random.Random, effects: set[str], chance: float = 0.5) -> None:
    """With probability `chance`, a corporation holds an ability card still in play (in the deck or another
    corporation's: it changes hands) instead of its own (which goes back to the deck), with the cubes
    of its `uses`, as if it had been picked for it: the actions of a card's power, in a scope whose
    corporations seldom draw that card. `effects`: the card is one with an ability of these effects,
    where one is in play."""
    held = dict(game.g.get("cards", {}))
    removed = set(game.g.get("cards_removed", ()))
    cards = [card["key"] for card in game._cards() if card["key"] not in removed and held.get(corp.id) != card["key"]]
    if not cards or rng.random() >= chance:
        return
    wanted = [key for key in cards if any(ability.get("kind") == "ability" and ability.get("effect") in effects
                                          for ability in game._card(key).get("children") or ())]
    key = rng.choice(wanted or cards)
    uses = game._card(key).get("uses")
    # (a use declared on the card each holder had is gone with it)
    losing = {holder for holder, card in held.items() if card == key} | {corp.id}
    game.j.set(game.g, "cards", {**{holder: card for holder, card in held.items() if card != key}, corp.id: key})
    game.j.set(game.g, "state:declared_uses",
               {k: n for k, n in game.g.get("state:declared_uses", {}).items() if k[0] not in losing})
    for holder in losing:  # (the library's state `cubes`: the use cubes on each company's card)
        game.state_put("cubes", (holder,), 0)
    game.state_put("cubes", (corp,), int(uses) if uses else 0)


def add_station(game: Any, corp: Entity, rng: random.Random) -> None:
    """`corp` given, inside the caller's transaction, a station in a city anywhere on the map where
    the engine would let it stand (`check_token` as for a home: no route needed), as if placed in an
    earlier turn, when it has a token left: its track then reaches beyond its home, and it has a
    station to take back (18CO's DNP), where its home is far from any other city."""
    from compiler.runtime import track

    board = game.board
    if board is None or game.call("tokens_left", corp) < 1:
        return
    cities = [(hex_id, i) for hex_id in sorted(board.hexes)
              for i, node in enumerate(board.tile_at(hex_id).nodes) if node.kind == "city"]
    rng.shuffle(cities)
    for ref in cities[:20]:
        try:
            spot = track.check_token(board, corp.id, ref, home=True)
        except IllegalAction:
            continue
        game.b_place_station(corp, spot)
        return


def extend_track(game: Any, corp: Entity, rng: random.Random, lays: int = 10) -> None:
    """`corp`'s track extended, inside the caller's transaction, by up to `lays` of its legal lays
    (the engine's `legal_lays` at the phase's colours, cost aside) on the hexes its track reaches,
    each a lay that brings its track nearest to a city where it could place a station
    (`city_distances`; ties drawn at random), so that it reaches one (random play seldom joins a
    home station to another city; 18CO's KPAC and DSNG start far from any)."""
    if game.board is None:
        return
    from compiler.runtime import track
    from compiler.runtime.track.lays import _iter_lays

    board = game.board
    colors = frozenset(game._phase_colors())
    for _ in range(lays):
        seen = track.reach(board, corp.id)
        distance = city_distances(board, corp.id)
        far = len(board.hexes) + 1

        def score(lay: Any) -> int:
            if distance.get(lay.hex) == 0:
                return 0
            # the new track's exits: how near the hexes they lead to are to such a city
            old = board.tile_at(lay.hex).exits(board.rotation(lay.hex))
            new = board.tiles[lay.tile].exits(lay.rotation) - old
            return 1 + min((distance.get(board.nbr[lay.hex][e] or "", far) for e in new), default=far)

        def bound(hex_id: str) -> int:
            """No lay on the hex scores less (its new exits are some of its edges)."""
            if distance.get(hex_id) == 0:
                return 0
            return 1 + min((distance.get(other or "", far) for other in board.nbr[hex_id]), default=far)

        # the legal lays on the hexes reached (`legal_lays`, hex by hex: a hex's lays are judged on
        # their own), the hexes taken by their bound, so that those that cannot score the best are
        # not judged; the best lays in `legal_lays`' order (by hex, tile, rotation)
        reached = sorted(h for h in seen.hexes if h in board.hexes)
        bounds = {h: bound(h) for h in reached}
        scored: dict[str, list[tuple[int, Any]]] = {}
        best: int | None = None
        for hex_id in sorted(reached, key=lambda h: (bounds[h], h)):
            if best is not None and bounds[hex_id] > best:
                break
            scored[hex_id] = [(score(lay), lay) for lay in _iter_lays(board, corp.id, colors, seen, None, (hex_id,))]
            for value, _ in scored[hex_id]:
                best = value if best is None else min(best, value)
        if best is None:
            return
        lay = rng.choice([lay for hex_id in reached for value, lay in scored.get(hex_id, ()) if value == best])
        game._board_change(lambda lay=lay: board.lay(lay.hex, lay.tile, lay.rotation, None, lay.mapping or None))


def city_distances(board: Any, company: str) -> dict[str, int]:
    """Hex id -> the number of hexes from it to the nearest city, outside `company`'s stations'
    hexes, with a slot `company` could take (0 in such a city's hex), over the map's hexes."""
    home = {hex_id for hex_id, _ in board.tokens_of(company)}
    frontier = [hex_id for hex_id in sorted(board.hexes) if hex_id not in home
                and any(node.kind == "city" and board.free_slot((hex_id, i), company) is not None
                        for i, node in enumerate(board.tile_at(hex_id).nodes))]
    distance = dict.fromkeys(frontier, 0)
    while frontier:
        following = []
        for hex_id in frontier:
            for other in board.nbr[hex_id]:
                if other is not None and other not in distance:
                    distance[other] = distance[hex_id] + 1
                    following.append(other)
        frontier = following
    return distance


def leave_nothing_to_sell(game: Any, corp: Entity, rng: random.Random) -> None:
    """`corp`'s president left short of cash with nothing he may sell (a bankruptcy's state): each
    certificate he holds that the pool could take goes to the pool while it has room (at random),
    else to another player; what he keeps the pool cannot take."""
    president = game.call("president", corp)
    if president is None or president.kind != "player":
        return
    j = game.j
    j.set(game.cash, president, rng.choice((0, 10, 40)))
    others = [p for p in game.players if p != president]
    cap = game.param("pool_cap")
    for owned in game.corporations:
        if game.corp[owned.id]["cell"] is None:
            continue
        for cert in game._sellable(president, owned):
            if cert.president or game.b_percent(RT_POOL, owned) + cert.percent > cap:
                continue
            if rng.random() < 0.5 or not others:
                j.set(game.owner, cert.id, RT_POOL)
            else:
                j.set(game.owner, cert.id, rng.choice(others))
