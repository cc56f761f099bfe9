"""Time random playouts of each title's generated engine, and the oracle listing on the same games.

    python benchmarks/play.py [--games K] [--seed S] [--no-oracle] [TITLE ...]

For each title (default: every title with a playable map) plays K games (default 5) at its usual
player counts, the invariant monitor after every action, as `rulec play` does
(`compiler.app.playout.play_one`'s loop, timed in its three parts), and prints games/s and actions/s
(CPU time), and the share of the time spent listing the legal actions (`random_legal_action`),
processing the chosen one (`process`, with the automatic passes it makes) and monitoring
(`Monitor.check`). Then the same games again, each action listed by the oracle
(`oracle_legal_actions`' exhaustive listing: every candidate tried and rolled back) before the
recorded action is processed: the oracle's actions/s and the ratio of the two listings' time per
action (a game whose route search hit its 2-second wall-time bound may go otherwise the second
time; the oracle's figures then count the actions up to there, and the line says so). The
rulespecs are not read; figures only, nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.emit.engines import game_class  # noqa: E402
from compiler.app.playout import ACTION_CAP, collector_eased  # noqa: E402
from compiler.runtime.errors import IllegalAction  # noqa: E402
from compiler.runtime.monitor import Monitor  # noqa: E402

#: (title, variant, player counts) played by default
PLAYED = [
    ("1800", None, (2,)),
    ("1800", "Three-Player", (3,)),
    ("18CO", None, (3, 4, 5, 6)),
    ("1846", None, (3, 4, 5)),
    ("1846", "Two-Player", (2,)),
    ("1880 Romania", None, (3, 4, 5, 6)),
]


def play(cls, players: int, seed: int, oracle_of: list | None = None) -> tuple[list, list[float]]:
    """One game as `play_one` plays it: (the actions taken, [listing, processing, monitoring] CPU
    seconds). With `oracle_of` (the actions of a game played before), each state's actions are
    listed by the oracle instead and the recorded action is taken. The garbage collector eased as
    `play_one` eases it (`collector_eased`)."""
    with collector_eased():
        return _play(cls, players, seed, oracle_of)


def _play(cls, players: int, seed: int, oracle_of: list | None) -> tuple[list, list[float]]:
    """`play`, with the garbage collector eased."""
    rng = random.Random(seed)
    game = cls(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    monitor = Monitor(game)
    # CPU time in integer nanoseconds, read three times an action: the end of one action's monitoring is
    # the start of the next listing (a reading costs about 0.25 µs on a VM, each avoided one a share of
    # the figures no part of the game's own)
    clock = time.process_time_ns
    parts = [0, 0, 0]
    taken: list = []
    start = clock()
    while not game.finished and len(taken) < ACTION_CAP:
        if oracle_of is None:
            action = game.random_legal_action(rng)
        else:
            game._exhaustive = True
            try:
                game.random_legal_action(random.Random(len(taken)))
            finally:
                game._exhaustive = False
            action = oracle_of[len(taken)] if len(taken) < len(oracle_of) else None
        listed = clock()
        if action is None:
            break
        try:
            game.process(action)
        except IllegalAction:
            if oracle_of is None:
                raise
            # the recorded game went otherwise: a route search its time bound cut (2 s of wall time)
            # found other routes this time; the oracle's figures count the actions up to here
            parts[0] += listed - start
            return taken, [p / 1e9 for p in parts]
        processed = clock()
        monitor.check(game, action)
        done = clock()
        parts[0] += listed - start
        parts[1] += processed - listed
        parts[2] += done - processed
        start = done
        taken.append(action)
    return taken, [p / 1e9 for p in parts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*", help="titles to play (default: all of the table above)")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", help="only these player counts")
    parser.add_argument("--no-oracle", action="store_true", help="do not replay the games with the oracle listing")
    args = parser.parse_args()
    rows = [row for row in PLAYED if not args.titles or row[0] in args.titles]
    print(f"{'title':<26} {'players':>7} {'games':>5} {'actions':>7} {'games/s':>7} {'actions/s':>9} "
          f"{'listing':>7} {'process':>7} {'monitor':>7}   {'oracle: actions/s':>16} {'listing ratio':>13}")
    for title, variant, counts in rows:
        cls = game_class(title, variant)
        for players in counts:
            if args.players and players not in args.players:
                continue
            games, totals, actions = [], [0.0, 0.0, 0.0], 0
            for i in range(args.games):
                taken, parts = play(cls, players, args.seed + i)
                games.append(taken)
                actions += len(taken)
                totals = [a + b for a, b in zip(totals, parts, strict=True)]
            cpu = sum(totals)
            shown = f"{title} ({variant})" if variant else title
            line = (f"{shown:<26} {players:>7} {args.games:>5} {actions:>7} {args.games / cpu:>7.2f} "
                    f"{actions / cpu:>9.0f} " + " ".join(f"{100 * p / cpu:>6.0f}%" for p in totals))
            if not args.no_oracle:
                oracle, replayed = [0.0, 0.0, 0.0], 0
                for i, taken in enumerate(games):
                    again, parts = play(cls, players, args.seed + i, oracle_of=taken)
                    replayed += len(again)
                    oracle = [a + b for a, b in zip(oracle, parts, strict=True)]
                # per action, as a game may go otherwise on its second play (see `play`)
                line += (f"   {replayed / sum(oracle):>16.0f} "
                         f"{(oracle[0] / replayed) / (totals[0] / actions):>12.2f}x")
                if replayed < actions:
                    line += f"   (replayed {replayed} of {actions} actions)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
