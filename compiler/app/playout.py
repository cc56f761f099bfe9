"""Random legal playouts: `rulec play`.

A game is played to its end by choosing, at each step, uniformly among the
engine's legal actions (the engine's own route search answers `run_routes`):
the first legal candidate in a shuffled order, so that not every candidate
is tried. The invariant monitor checks the state after every action. A game
that raises, trips an invariant or passes the action cap is reported with
the action that did it.

Each finished game's record (`GameBase.record`) gets the seating it started
with and its winners: the players with the highest final value (the engine's
`result`, each player's worth as the title counts it at the end); players who
tie share the win, and a seat's win rate counts a shared win as a share.
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap
from compiler.runtime.monitor import Monitor
from compiler.runtime.sitelog import older_objects_frozen
from compiler.runtime.stall import explain

if TYPE_CHECKING:
    from compiler.progress import Stage

#: A game still running after this many actions is reported as stuck.
ACTION_CAP = 20_000

#: the cyclic garbage collector's first threshold while a game is played (`collector_eased`; Python's own
#: is 700)
PLAY_GC_THRESHOLD = 10_000


@contextmanager
def collector_eased() -> Iterator[None]:
    """The cyclic garbage collector eased while a game is played: the objects that exist before it left
    out of its passes (`gc.freeze`, as a replay does, `sitelog.older_objects_frozen`: the rulespecs' and
    the engines' objects, walked again by every full pass), and its youngest generation collected every
    `PLAY_GC_THRESHOLD` allocations instead of every 700 (a listing makes and drops hundreds of candidate
    dicts, and each young pass walks the game state they point into). Garbage is collected as ever, only
    less often; nothing a game computes changes. Measured on `benchmarks/play.py --no-oracle`: the
    collector's share of 1880 Romania's time (4 players) from about 14% to 7%, of 18CO's from 6% to 3%.
    Put back as it was on exit; where the collector is off or objects are frozen already (the caller's),
    that part is left as it is."""
    if not gc.isenabled():
        yield
        return
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], PLAY_GC_THRESHOLD), *thresholds[1:])
    try:
        with older_objects_frozen():
            yield
    finally:
        gc.set_threshold(*thresholds)


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
    currency: str = ""

    @property
    def actions(self) -> int:
        return sum(g["actions"] for g in self.games)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def wins_by_seat(self) -> list[float]:
        """The wins of each seat (seat 1 first) over the finished games; a win shared by k
        players counts 1/k to each of their seats."""
        wins = [0.0] * self.players
        for game in self.games:
            for winner in game["winners"]:
                wins[game["seating"].index(winner)] += 1 / len(game["winners"])
        return wins

    def to_json(self) -> dict[str, Any]:
        finished = len(self.games)
        return {
            "title": self.title,
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "win_rate_by_seat": [
                {"seat": seat + 1, "wins": round(wins, 3), "rate": round(wins / finished, 3) if finished else None}
                for seat, wins in enumerate(self.wins_by_seat())],
            "actions_per_second": round(self.actions_per_second, 1),
            "failures": [f.__dict__ for f in self.failures],
        }

    def to_text(self, name: str) -> str:
        """The summary `rulec play` prints: a line per game (winner, every player's final value,
        the end reason, rounds and actions), then the win rate by seat and the failures.
        `name`: the title as shown (with its variant)."""
        games = self.games
        lines = [f"{name}, {self.players} players: {len(games)} games finished, {len(self.failures)} failed"]
        for number, game in enumerate(games, 1):
            lines.append(f"game {number} (seed {game['seed']}): {self._won(game)}; "
                         + ", ".join(f"{player} {self.currency}{value}" for player, value in
                                     sorted(game["result"].items(), key=lambda kv: game["seating"].index(kv[0])))
                         + f"; ended by {_words(game['end_reason'])} after {game['rounds']} rounds, "
                           f"{game['actions']} actions")
        if games:
            ends = Counter(_words(g["end_reason"]) for g in games)
            lines.append("wins by seat (seat 1 starts the game): " + ", ".join(
                f"seat {seat} {_count(wins)} of {len(games)} ({100 * wins / len(games):.0f}%)"
                for seat, wins in enumerate(self.wins_by_seat(), 1)))
            lines.append("end reasons: " + ", ".join(f"{reason} {count}" for reason, count in ends.most_common()))
            lines.append(f"mean actions per game {sum(g['actions'] for g in games) / len(games):.1f}, "
                         f"mean rounds {sum(g['rounds'] for g in games) / len(games):.1f}, "
                         f"mean revenue {self.currency}{sum(g['revenue'] for g in games) / len(games):.0f}")
        lines.append(f"{self.actions_per_second:.0f} actions per second")
        for failure in self.failures[:10]:
            lines.append(f"seed {failure.seed}: action {failure.action_number} {json.dumps(failure.action)}: "
                         f"{failure.error}")
        return "\n".join(lines)

    def _won(self, game: dict) -> str:
        winners = game["winners"]
        if len(winners) == 1:
            return f"{winners[0]} wins"
        return f"{' and '.join(winners)} tie for the win"


def _words(name: str | None) -> str:
    """'bank_broken' -> 'bank broken'."""
    return (name or "no end").replace("_", " ")


def _count(wins: float) -> str:
    return f"{wins:g}" if wins == int(wins) else f"{wins:.1f}"


def play_one(game_class, names: list[str], seed: int, options=(), log_to: list | None = None,
             choose: "Callable[[Any, random.Random], dict | None] | None" = None,
             observe: "Callable[[Any, dict], None] | None" = None) -> dict:
    """Play one game to the end; returns its record. Raises `PlayoutError`.

    `choose(game, rng)` picks each action (None: no legal action); by default
    `game.random_legal_action(rng)`, which `rulec play` uses (`compiler.app.policies`
    has others, for `rulec simulate`). `observe(game, action)` is called after
    each action is processed and checked."""
    with collector_eased():
        return _play_one(game_class, names, seed, options, log_to, choose, observe)


def _play_one(game_class, names: list[str], seed: int, options, log_to: list | None, choose, observe) -> dict:
    """`play_one`, with the garbage collector eased (`collector_eased`)."""
    rng = random.Random(seed)
    game = game_class(players=names, seed=seed, options=options)
    seating = [p.id for p in game.players]  # after the setup's draw of a dealt player order
    monitor = Monitor(game)
    if choose is None:
        def choose(game, rng):
            return game.random_legal_action(rng)
    count = 0
    while not game.finished:
        if count >= ACTION_CAP:
            raise PlayoutError(seed, count, None, f"not finished after {ACTION_CAP} actions")
        try:
            action = choose(game, rng)
        except Exception as exc:  # an engine bug while listing the legal actions: report the game
            raise PlayoutError(seed, count, None, f"{type(exc).__name__} while listing the legal actions: "
                                                  f"{exc}") from exc
        if action is None:
            raise PlayoutError(seed, count, None, explain(game).text())
        try:
            name = game.action_name(action)
        except (KeyError, TypeError):
            name = str(action.get("type"))
        try:
            game.process(action)
            monitor.check(game, action)
        except (IllegalAction, RuleGap, InvariantViolation) as exc:
            said = exc.located() if isinstance(exc, IllegalAction) else str(exc)  # the rule, and where it is written
            where = game.DATA.rules.get(f"at action {name}")
            if isinstance(exc, InvariantViolation) and where:
                said += f" (the action {name}, {where})"
            raise PlayoutError(seed, count + 1, action, f"{type(exc).__name__}: {said}") from None
        except Exception as exc:  # an engine bug: report the action that found it
            raise PlayoutError(seed, count + 1, action, f"{type(exc).__name__}: {exc}") from exc
        count += 1
        if observe is not None:
            observe(game, action)
    if log_to is not None:
        log_to.append(game.to_log())
    record = game.record()
    best = max(record["result"].values())
    record["seating"] = seating
    record["winners"] = [player for player in seating if record["result"][player] == best]
    return record


class PlayoutError(Exception):
    def __init__(self, seed: int, number: int, action: dict | None, error: str):
        super().__init__(error)
        self.failure = Failure(seed, number, action, error)


def play_many(game_class, title: str, variant: str | None, players: int, seed: int, games: int,
              options=(), logs: list | None = None, progress: "Stage | None" = None) -> Summary:
    """Play `games` games, seeds `seed`, `seed` + 1, ...; `progress` is told each game as it starts."""
    names = [f"Player {i + 1}" for i in range(players)]
    summary = Summary(title, variant, players, currency=str(game_class.DATA.properties.get("currency", "")))
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        if progress is not None:
            progress.next(f"seed {game_seed}")
        try:
            summary.games.append(play_one(game_class, names, game_seed, options, logs))
        except PlayoutError as exc:
            summary.failures.append(exc.failure)
    summary.seconds = time.perf_counter() - start
    return summary
