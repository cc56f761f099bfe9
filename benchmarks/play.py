"""Time random playouts of each title's generated engine.

    python benchmarks/play.py [--games K] [--seed S] [TITLE ...]

For each title (default: every title with a playable map) plays K games
(default 5) at its usual player counts, the invariant monitor after every
action, as `rulec play` does, and prints games, actions, CPU seconds per
game and actions per second. The rulespecs are loaded once, before timing.
Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import time

from compiler.engines import game_class
from compiler.playout import play_many

#: (title, variant, player counts) played by default
PLAYED = [
    ("1800", None, (2,)),
    ("1800", "Three-Player", (3,)),
    ("18CO", None, (3, 4, 5, 6)),
    ("1846", None, (3, 4, 5)),
    ("1846", "Two-Player", (2,)),
    ("1880 Romania", None, (3, 4, 5, 6)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*", help="titles to play (default: all of the table above)")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [row for row in PLAYED if not args.titles or row[0] in args.titles]
    print(f"{'title':<26} {'players':>7} {'games':>5} {'failed':>6} {'actions':>8} "
          f"{'cpu s/game':>10} {'actions/s':>9}")
    for title, variant, counts in rows:
        cls = game_class(title, variant)
        for players in counts:
            cpu = time.process_time()
            summary = play_many(cls, title, variant, players, args.seed, args.games)
            cpu = time.process_time() - cpu
            shown = f"{title} ({variant})" if variant else title
            print(f"{shown:<26} {players:>7} {len(summary.games):>5} {len(summary.failures):>6} "
                  f"{summary.actions:>8} {cpu / args.games:>10.2f} {summary.actions / cpu if cpu else 0:>9.0f}")


if __name__ == "__main__":
    main()
