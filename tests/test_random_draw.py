"""Random play's draw (`random_legal_action`, issue 42): it returns only actions the oracle lists
(`oracle_legal_actions`), it reaches every legal action of a state with many, and each is as likely
as the others (a chi-square test of draws with fixed seeds: deterministic, it cannot flake)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from compiler.emit.engines import game_class

#: (title, players, seed, the least number of legal actions of the state tested for reach and uniformity)
BRANCHY = [("1800", 2, 3, 12), ("18CO", 4, 3, 25)]


def _key(action) -> str:
    return json.dumps(action, sort_keys=True)


def _branchy_state(title: str, players: int, seed: int, least: int):
    """The first state of seeded random play with at least `least` legal actions, and its oracle's list."""
    game = game_class(title, None)(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(600):
        legal = game.oracle_legal_actions()
        if len(legal) >= least:
            return game, legal
        game.process(game.random_legal_action(rng))
    raise AssertionError(f"no state of {title} with {least} legal actions in 600")


@pytest.mark.parametrize("title, players, seed, least", BRANCHY)
def test_each_draw_is_one_of_the_oracles_actions(title, players, seed, least):
    game = game_class(title, None)(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(120):
        legal = {_key(a) for a in game.oracle_legal_actions()}
        action = game.random_legal_action(rng)
        if action is None:
            assert not legal
            break
        assert _key(action) in legal, (action, sorted(legal))
        game.process(action)


def _chi_square_limit(dof: int, z: float = 3.719) -> float:
    """The chi-square quantile of `dof` degrees of freedom at the normal quantile `z` (3.719: 0.9999),
    by Wilson and Hilferty's approximation."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


@pytest.mark.parametrize("title, players, seed, least", BRANCHY)
def test_the_draw_reaches_every_legal_action_each_as_likely(title, players, seed, least):
    game, legal = _branchy_state(title, players, seed, least)
    expected = {_key(a) for a in legal}
    per = 40  # draws per legal action
    drawn = Counter(_key(game.random_legal_action(random.Random(s))) for s in range(per * len(expected)))
    assert set(drawn) == expected
    chi = sum((n - per) ** 2 / per for n in drawn.values())
    assert chi < _chi_square_limit(len(expected) - 1), (chi, drawn)


def test_the_uniformity_check_fails_for_a_skewed_draw():
    """The check above tells a draw that favours one action: the first legal one twice as often."""
    expected = [str(i) for i in range(20)]
    per = 40
    rng = random.Random(0)
    draws = [rng.choice(expected + expected[:1]) for _ in range(per * len(expected))]
    chi = sum((n - per) ** 2 / per for n in Counter(draws).values())
    assert chi >= _chi_square_limit(len(expected) - 1)
