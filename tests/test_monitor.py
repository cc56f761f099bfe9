"""The invariant monitor (`compiler.runtime.monitor`) catches a holding the rules forbid: each
check broken by hand in a real game's state is named, and a legal state passes."""

from __future__ import annotations

import random

import pytest

from compiler.emit.engines import engine_module
from compiler.runtime.entities import POOL
from compiler.runtime.errors import InvariantViolation
from compiler.runtime.monitor import Monitor


def _game():
    Game = engine_module("t_1846").Game
    game = Game(players=[f"Player {i + 1}" for i in range(4)], seed=3)
    rng = random.Random(3)
    for _ in range(40):  # into play: corporations parred, shares held
        game.process(game.random_legal_action(rng))
    return game


def _ordinary(game):
    corp = next(c for c in game.corporations if game.corp[c.id]["par"] is not None)
    return corp, [c for c in game.certs_of[corp.id] if not c.president]


def test_a_legal_state_passes():
    game = _game()
    Monitor(game).check(game)


@pytest.mark.parametrize("checked_first", [False, True])
@pytest.mark.parametrize("rule", ["pool_cap", "holding_cap", "shares_sum_to_100"])
def test_each_holding_check_is_named_where_broken(rule, checked_first):
    """(`checked_first`: the monitor has passed the legal state before, and keeps what it worked out
    from its holders while no certificate changes hands: the broken holding is still caught.)"""
    game = _game()
    monitor = Monitor(game)
    if checked_first:
        monitor.check(game)
        monitor.check(game)
    corp, certs = _ordinary(game)
    if rule == "pool_cap":
        for cert in certs:
            game.owner[cert.id] = POOL
    elif rule == "holding_cap":
        for cert in certs:
            game.owner[cert.id] = game.players[0]
        game.param = lambda name, **dims: 99 if name == "cert_limit" else type(game).param(game, name, **dims)
    else:
        del game.owner[certs[0].id]
    with pytest.raises(InvariantViolation) as caught:
        monitor.check(game)
    assert caught.value.invariant == rule


@pytest.mark.parametrize("rule", ["pool_cap", "holding_cap", "shares_sum_to_100", "cert_limit"])
def test_a_check_that_passed_still_catches_what_changes_after(rule):
    # the monitor keeps its figures of the holdings between checks while no certificate changes hands:
    # each change after a check that passed that breaks a rule is still caught
    game = _game()
    monitor = Monitor(game)
    monitor.check(game)
    monitor.check(game)  # passed again, from the kept figures
    corp, certs = _ordinary(game)
    if rule == "pool_cap":
        for cert in certs:
            game.owner[cert.id] = POOL
    elif rule == "holding_cap":
        game.j.set(game.g, "sanctioned", frozenset())  # (read: another object, the same value)
        monitor.check(game)
        for cert in certs:
            game.owner[cert.id] = game.players[0]
        game.param = lambda name, **dims: 99 if name == "cert_limit" else type(game).param(game, name, **dims)
    elif rule == "shares_sum_to_100":
        del game.owner[certs[0].id]
    else:
        # nothing moved: only the limit read changes
        game.param = lambda name, **dims: 0 if name == "cert_limit" else type(game).param(game, name, **dims)
    with pytest.raises(InvariantViolation) as caught:
        monitor.check(game)
    assert caught.value.invariant == rule
