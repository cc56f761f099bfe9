"""Lays the track code keeps by what they read (`Board.hex_lays`, `Board.tile_lays`, `Board.judged`, kept by
each hex's state `_hex_state`; the tests before `_judge_placed` skipped for the tiles a listing chose, the walk
of the new track asked last): the same lays as judged anew (the exhaustive listing, every (hex, tile,
rotation) through `_judge_anew`) in the states random play reaches, for every company with a station."""

from __future__ import annotations

import random

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.track import lays as lays_module
from compiler.runtime.track.lays import iter_legal_lays


def _states(title: str, players: int, seed: int, actions: int, every: int):
    """The game after every `every`-th of the first `actions` actions of a random game (the same game
    object)."""
    game = game_class(title, None)(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for done in range(1, actions + 1):
        action = game.random_legal_action(rng)
        if action is None:
            return
        game.process(action)
        if done % every == 0:
            yield game


def _lays(board, company: str, colors, exhaustive: bool) -> list[tuple]:
    return sorted((lay.hex, lay.tile, lay.rotation, lay.cost, lay.mapping, lay.borders, lay.new_exits)
                  for lay in iter_legal_lays(board, company, colors, exhaustive=exhaustive))


def _compare(title: str, players: int, seeds, actions: int, every: int) -> tuple[int, int]:
    """(the company listings compared, the lays among them); asserts each kept listing is the exhaustive one."""
    listings = lays = 0
    for seed in seeds:
        for game in _states(title, players, seed, actions, every):
            board = game.board
            colors = game._phase_colors()
            companies = sorted({c for held in board.tokens.values() for c in held if c is not None})
            for company in companies:
                kept = _lays(board, company, colors, exhaustive=False)
                again = _lays(board, company, colors, exhaustive=False)  # (from what the first kept)
                fresh = _lays(board, company, colors, exhaustive=True)
                assert kept == fresh == again, (title, seed, company, sorted(set(kept) ^ set(fresh)))
                listings += 1
                lays += len(kept)
    return listings, lays


@pytest.mark.parametrize("title, players", [("18CO", 4), ("1846", 4)])
def test_lays_kept_are_those_judged_anew(title, players):
    listings, lays = _compare(title, players, (1, 2), 1200, 40)
    assert listings > 40 and lays > 400


def test_a_hex_state_blind_to_the_reach_and_the_sides_keeps_wrong_lays(monkeypatch):
    """The comparison above has teeth: a `_hex_state` that reads the hex's tile and stations but neither what
    the company reaches there nor the sides (its neighbours' track, the company's entries from them) keeps
    the lays of one state for another, and the exhaustive listing differs."""
    real = lays_module._hex_state

    def blind(board, h, seen):
        return real(board, h, seen)[:4]  # (the tile, its rotation and copy, the stations)

    monkeypatch.setattr(lays_module, "_hex_state", blind)
    with pytest.raises(AssertionError, match="18CO"):
        _compare("18CO", 4, (1, 2), 1200, 40)
