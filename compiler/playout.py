"""Random legal playouts: `rulec play`.

A game is played to its end by choosing, at each step, uniformly among the
engine's legal actions (the engine's own route search answers `run_routes`):
the first legal candidate in a shuffled order, so that not every candidate
is tried. The invariant monitor checks the state after every action. A game
that raises, trips an invariant or passes the action cap is reported with
the action that did it.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap
from compiler.runtime.monitor import Monitor

#: A game still running after this many actions is reported as stuck.
ACTION_CAP = 20_000


@dataclass
class Failure:
    seed: int
    action_number: int
    action: dict | None
    error: str


@dataclass
class Summary:
    title: str
    variant: str | None
    players: int
    games: list[dict] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def actions(self) -> int:
        return sum(g["actions"] for g in self.games)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "actions_per_second": round(self.actions_per_second, 1),
            "failures": [f.__dict__ for f in self.failures],
        }


def play_one(game_class, names: list[str], seed: int, options=(), log_to: list | None = None) -> dict:
    """Play one game to the end; returns its record. Raises `PlayoutError`."""
    rng = random.Random(seed)
    game = game_class(players=names, seed=seed, options=options)
    monitor = Monitor(game)
    count = 0
    while not game.finished:
        if count >= ACTION_CAP:
            raise PlayoutError(seed, count, None, f"not finished after {ACTION_CAP} actions")
        try:
            action = game.random_legal_action(rng)
        except Exception as exc:  # an engine bug while listing the legal actions: report the game
            raise PlayoutError(seed, count, None, f"{type(exc).__name__} while listing the legal actions: "
                                                  f"{exc}") from exc
        if action is None:
            raise PlayoutError(seed, count, None, f"no legal action in {game.state()['round']}"
                               + _gaps_in_the_way(game))
        try:
            game.process(action)
            monitor.check(game, action)
        except (IllegalAction, RuleGap, InvariantViolation) as exc:
            raise PlayoutError(seed, count + 1, action, f"{type(exc).__name__}: {exc}") from None
        except Exception as exc:  # an engine bug: report the action that found it
            raise PlayoutError(seed, count + 1, action, f"{type(exc).__name__}: {exc}") from exc
        count += 1
    if log_to is not None:
        log_to.append(game.to_log())
    return game.record()


class PlayoutError(Exception):
    def __init__(self, seed: int, number: int, action: dict | None, error: str):
        super().__init__(error)
        self.failure = Failure(seed, number, action, error)


def play_many(game_class, title: str, variant: str | None, players: int, seed: int, games: int,
              options=(), logs: list | None = None, progress: bool = False) -> Summary:
    names = [f"Player {i + 1}" for i in range(players)]
    summary = Summary(title, variant, players)
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            summary.games.append(play_one(game_class, names, game_seed, options, logs))
        except PlayoutError as exc:
            summary.failures.append(exc.failure)
        if progress:
            print(f"\r{title}: {i + 1}/{games} games", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    summary.seconds = time.perf_counter() - start
    return summary


def _gaps_in_the_way(game) -> str:
    """When no action is legal, the rule gaps the refused candidates ran
    into (so that a title with gaps says what is missing), or ''."""
    gaps = game.refused_by_gaps()
    return f"; the candidates ran into gaps: {'; '.join(gaps)}" if gaps else ""
