"""Where random play's time per action goes, phase by phase (issue 42).

    python benchmarks/phases.py [--games K] [--seed S] [--rounds R] [TITLE PLAYERS ...]

Plays K games (default 5) of each title at the player count given (default: 1800 2, 1846 4) as
`benchmarks/play.py` does (`rulec play`'s loop, the invariant monitor after every action), R rounds
(default 2; each round's figures printed), and prints the CPU microseconds per action of each phase:
  listing         `random_legal_action` less the trials below: the candidates generated, the group
                  probes asked, the shuffle;
  refused trials  the candidates drawn and refused (`is_legal` answering False);
  legal trial     the trial of the candidate drawn and taken (its changes kept for `process`);
  route search    a company's best routes, worked out where the draw comes to its run (`_SearchLater`);
  process         `process` of the action drawn (the kept trial redone, the automatic passes);
  monitor         `Monitor.check`.
The trials are timed by wrapping `is_legal` (a call each: a little time of its own, counted in the
trials). Figures only: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.app.playout import ACTION_CAP  # noqa: E402
from compiler.emit.engines import game_class  # noqa: E402
from compiler.runtime.candidates import _SearchLater  # noqa: E402
from compiler.runtime.monitor import Monitor  # noqa: E402

PHASES = ("listing", "refused trials", "legal trial", "route search", "process", "monitor")


def timed_class(cls: type, parts: Counter) -> type:
    """A subclass of the engine `cls` whose trials in random play add their CPU time to `parts`."""
    clock = time.process_time

    class Timed(cls):  # type: ignore[misc, valid-type]
        def is_legal(self, action):
            if not self._keep_trial or self.j._marks:
                return super().is_legal(action)  # (a trial inside another, or outside random play's draw)
            start = clock()
            legal = super().is_legal(action)
            parts["legal trial" if legal else "refused trials"] += clock() - start
            return legal

    return Timed


def play(cls: type, players: int, seed: int, parts: Counter) -> int:
    """One game as `benchmarks/play.py` plays it, its phases' CPU seconds added to `parts`; its actions."""
    clock = time.process_time
    rng = random.Random(seed)
    game = cls(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    monitor = Monitor(game)
    search = _SearchLater.action
    taken = 0

    def searched(later, game_):
        start = clock()
        try:
            return search(later, game_)
        finally:
            parts["route search"] += clock() - start

    _SearchLater.action = searched
    try:
        while not game.finished and taken < ACTION_CAP:
            before = sum(parts[k] for k in ("refused trials", "legal trial", "route search"))
            start = clock()
            action = game.random_legal_action(rng)
            drawn = clock()
            parts["listing"] += (drawn - start) - (sum(parts[k] for k in ("refused trials", "legal trial",
                                                                           "route search")) - before)
            if action is None:
                break
            game.process(action)
            processed = clock()
            monitor.check(game, action)
            parts["process"] += processed - drawn
            parts["monitor"] += clock() - processed
            taken += 1
    finally:
        _SearchLater.action = search
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="*", help="TITLE PLAYERS ... (default: 1800 2 1846 4)")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    pairs = args.pairs or ["1800", "2", "1846", "4"]
    if len(pairs) % 2:
        parser.error("give a player count after each title")
    for title, players in zip(pairs[::2], pairs[1::2]):
        for round_ in range(1, args.rounds + 1):
            parts: Counter = Counter()
            cls = timed_class(game_class(title, None), parts)
            actions = sum(play(cls, int(players), args.seed + i, parts) for i in range(args.games))
            cpu = sum(parts.values())
            print(f"{title} {players}p, round {round_}: {actions} actions, {args.games / cpu:.2f} games/s, "
                  f"{1e6 * cpu / actions:.1f} µs/action: " +
                  ", ".join(f"{name} {1e6 * parts[name] / actions:.1f}" for name in PHASES), flush=True)


if __name__ == "__main__":
    main()
