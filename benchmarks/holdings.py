"""Time the holdings questions answered from the owners' index against a pass over the certificates.

    python benchmarks/holdings.py [TITLE] [--players N] [--seed S] [--actions K]

Plays one game by random legal play (default 18CO, 4 players, seed 2, up to 1,500 actions) and, every
10th state, asks `b_percent` of every holder of certificates and every corporation, and
`b_certificates` of every player, twice: from the index (compiler/runtime/holdings.py, what the
engines do) and by a pass over the certificates (what they did before: the functions below). Prints
each question's microseconds per call both ways and the ratio, and counts any answer that differs
(which would be a bug). Figures only, nothing here passes or fails.
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


def scanned_percent(game, holder, corp) -> int:
    owner = game.owner
    return sum(c.percent for c in game.certs_of[corp.id] if owner[c.id] == holder)


def scanned_certificates(game, player) -> int:
    """`b_certificates` as a pass over every corporation's certificates (shares only)."""
    total = 0
    for corp in game.corporations:
        held = sum(1 for c in game.certs_of[corp.id] if game.owner[c.id] == player)
        if held and "no_cert_limit" not in game.b_zones(corp):
            total += held
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title", nargs="?", default="18CO")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--actions", type=int, default=1500)
    args = parser.parse_args()
    game = game_class(args.title)(players=[f"Player {i + 1}" for i in range(args.players)], seed=args.seed)
    rng = random.Random(args.seed)
    clock = time.perf_counter
    spent = {"percent": [0.0, 0.0, 0], "certificates": [0.0, 0.0, 0]}  # index s, scan s, calls
    differ = 0
    shares_count = "shares" in game.param("cert_limit_counts")
    for step in range(args.actions):
        if step % 10 == 0:
            holders = list(dict.fromkeys(game.owner[c] for c in game.certificates))
            asks = [(h, c) for h in holders for c in game.corporations]
            start = clock()
            fast = [game.b_percent(h, c) for h, c in asks]
            mid = clock()
            slow = [scanned_percent(game, h, c) for h, c in asks]
            end = clock()
            differ += fast != slow
            spent["percent"][0] += mid - start
            spent["percent"][1] += end - mid
            spent["percent"][2] += len(asks)
            if shares_count:
                saved = game.privates, game.bonds, game.minors  # shares alone, as the scan counts them
                game.privates, game.bonds, game.minors = [], [], []
                try:
                    start = clock()
                    fast = [game.b_certificates(p) for p in game.players]
                    mid = clock()
                    slow = [scanned_certificates(game, p) for p in game.players]
                    end = clock()
                finally:
                    game.privates, game.bonds, game.minors = saved
                differ += fast != slow
                spent["certificates"][0] += mid - start
                spent["certificates"][1] += end - mid
                spent["certificates"][2] += len(game.players)
        action = game.random_legal_action(rng)
        if action is None or game.finished:
            break
        game.process(action)
    print(f"{args.title}, {args.players} players, seed {args.seed}: {step + 1} actions")
    print(f"{'question':<14} {'calls':>7} {'index us':>9} {'scan us':>8} {'ratio':>6}")
    for name, (index, scan, calls) in spent.items():
        if calls:
            print(f"{name:<14} {calls:>7} {1e6 * index / calls:>9.2f} {1e6 * scan / calls:>8.2f} {scan / index:>5.1f}x")
    print(f"answers that differ: {differ}")


if __name__ == "__main__":
    main()
