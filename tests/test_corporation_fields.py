"""A corporation's fields read in the DSL (issue 32): `corporation.floated`, `.par`, `.revenue`, `.operated`
and `.certificates` (its certificates in the order of its layout, the president's first), over which the
library's floated, par_price, revenue, operated, president_certificate and held_certificates are written
once, no builtins with z3 twins."""

from __future__ import annotations

import random

from compiler.emit.engines import game_class
from compiler.runtime.entities import POOL


def _played(title: str, n: int, seed: int, actions: int):
    """A game of `title` after `actions` random legal actions (seeded): holdings spread among the players,
    the pool and the treasuries."""
    g = game_class(title)(players=[f"P{i}" for i in range(1, n + 1)], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if g.g.get("end_reason") is not None:
            break
        g.process(g.random_legal_action(rng))
    return g


def test_held_certificates_are_each_holders_share_of_the_layout():
    """In 18CO after 150 random actions (corporations hold shares of others there), for every corporation
    and every holder: the certificates held are those whose owner is the holder, in layout order, and
    together they are the corporation's certificates, each once."""
    g = _played("18CO", 4, 2, 150)
    holders = [*g.players, *g.corporations, POOL]
    assert any(g.call("held_certificates", h, c) for h in [*g.corporations, POOL] for c in g.corporations)
    for corp in g.corporations:
        layout = g.certs_of[corp.id]
        assert g.call("president_certificate", corp) is layout[0] and layout[0].president
        holder = g.owner[layout[0].id]
        assert g.call("president", corp) == (holder if holder.kind == "player" else None)
        held = {h: g.call("held_certificates", h, corp) for h in holders}
        for h, certs in held.items():
            assert certs == [c for c in layout if g.owner[c.id] == h]
        assert sorted(c.id for certs in held.values() for c in certs) == sorted(
            c.id for c in layout if g.owner[c.id] in holders)


def test_floated_and_par_price_read_the_corporation():
    g = _played("1846", 4, 1, 400)
    started = [c for c in g.corporations if g.corp[c.id]["par"] is not None]
    assert started and any(not g.corp[c.id]["floated"] for c in g.corporations)
    for corp in g.corporations:
        assert g.call("floated", corp) is g.corp[corp.id]["floated"]
        assert g.call("par_price", corp) == g.corp[corp.id]["par"]
        assert g.call("started", corp) is (corp in started)
        assert g.call("revenue", corp) == g.corp[corp.id]["revenue"]
        assert g.call("operated", corp) is g.corp[corp.id]["operated"]
    assert any(g.call("operated", c) for c in g.corporations) and any(g.call("revenue", c) for c in g.corporations)
    assert not all(g.call("started", c) for c in g.corporations)


def test_none_is_a_builtin():
    from compiler.runtime.game import GameBase

    for name in ("floated", "par_price", "revenue", "operated", "president_certificate", "held_certificates",
                 "president", "started"):
        assert not hasattr(GameBase, f"b_{name}")
        assert name in game_class("18CO").ROUTINES
