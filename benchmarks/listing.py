"""The legal-action listing against its oracle, over states reached by random play.

    python benchmarks/listing.py [--states N] [--stride K] [ENGINE ...]

For each engine in generated/ (default: every one; an engine whose map is a gap is played on its
test map from tests/fixtures, with a title's options each on in turn), plays random legal games
and, every K actions (default 1), compares `legal_actions()` (the listing with its shortcuts)
with `oracle_legal_actions()` (every candidate tried and rolled back), as sets, until N states
(default 2,000 per engine) are compared. Stops at the first difference and prints the state and
the two lists (exit 1). Prints each engine's states compared and the time each listing took.
tests/test_listing.py runs `compare` with a small N.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap  # noqa: E402


class ListingDiffers(AssertionError):
    """The fast listing and the oracle's differ at a state; the message shows both."""


@dataclass
class Compared:
    states: int = 0
    games: int = 0
    fast_seconds: float = 0.0
    oracle_seconds: float = 0.0


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True, default=str)


def compare(game_class, players: int, seed: int, states: int, *, stride: int = 1, skip: int = 0, options=(),
            max_actions: int = 20_000, into: Compared | None = None) -> Compared:
    """Play random games of `game_class` (`players` players, seeds `seed`, `seed` + 1, ... with
    `options`) and compare the two listings at every `stride`-th state after the first `skip`
    actions of each game until `states` states are compared. Raises `ListingDiffers` at the first
    difference."""
    done = into or Compared()
    target = done.states + states
    game_seed = seed
    while done.states < target:
        rng = random.Random(game_seed)
        game = game_class(players=[f"Player {i + 1}" for i in range(players)], seed=game_seed, options=options)
        done.games += 1
        count = 0
        while not game.finished and count < max_actions and done.states < target:
            if count >= skip and (count - skip) % stride == 0:
                start = time.perf_counter()
                fast = game.legal_actions()
                middle = time.perf_counter()
                oracle = game.oracle_legal_actions()
                done.fast_seconds += middle - start
                done.oracle_seconds += time.perf_counter() - middle
                done.states += 1
                if {_key(a) for a in fast} != {_key(a) for a in oracle}:
                    only_fast = sorted({_key(a) for a in fast} - {_key(a) for a in oracle})
                    only_oracle = sorted({_key(a) for a in oracle} - {_key(a) for a in fast})
                    raise ListingDiffers(
                        f"{game_class.DATA.title} ({game_class.DATA.variant}), {players} players, seed {game_seed}, "
                        f"options {list(options)}, after {count} actions: the listings differ\n"
                        f"state: {json.dumps(game.state(), default=str)}\n"
                        f"listed: {json.dumps(fast, default=str)}\noracle: {json.dumps(oracle, default=str)}\n"
                        f"listed only: {only_fast}\noracle only: {only_oracle}")
                action = rng.choice(fast) if fast else None
            else:
                action = game.random_legal_action(rng)
            if action is None:
                break
            try:
                game.process(action)
            except (IllegalAction, RuleGap, InvariantViolation):
                break  # a game the engine cannot go on with: `rulec play` reports those; compared so far
            count += 1
        game_seed += 1
    return done


def engines() -> list[tuple[str, object, tuple[int, ...], tuple[str, ...]]]:
    """(engine module name, Game class, every player count it allows, options) of every engine in generated/; an
    engine whose map is a gap on its test map (tests/fixtures/*_test_map.rules), if it has one."""
    from compiler.emit.engines import engine_module, overlay_game_class
    from compiler.runtime.data import Gap

    maps = {"t_1880_romania__amira": "1880_amira_test_map.rules",
            "t_1880_romania__regatul_romaniei": "1880_regatul_test_map.rules",
            "t_1880_romania__transylvania": "1880_transylvania_test_map.rules",
            "t_18_grand_junction": "18gj_test_map.rules", "t_18_grand_junction__two_player": "18gj_test_map.rules"}
    out = []
    for path in sorted((ROOT / "generated").glob("t_*.py")):
        cls = engine_module(path.stem).Game
        data = cls.DATA
        if isinstance(data.properties.get("map"), Gap):
            overlay = ROOT / "tests" / "fixtures" / maps.get(path.stem, "")
            if not overlay.is_file():
                continue
            cls = overlay_game_class(data.title, data.variant, overlay)
        low, high = data.param("players") if isinstance(data.param("players"), tuple) else (data.param("players"),) * 2
        options = tuple(c["key"] for c in data.components_of("option"))
        out.append((path.stem, cls, tuple(range(low, high + 1)), options))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engines", nargs="*", help="engine module names (default: every engine)")
    parser.add_argument("--states", type=int, default=2000, help="states compared per engine (default 2000)")
    parser.add_argument("--stride", type=int, default=1, help="compare every K-th state (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'engine':<36} {'states':>6} {'games':>5} {'listing ms':>10} {'oracle ms':>9} {'ratio':>6}")
    for name, cls, counts, options in engines():
        if args.engines and name not in args.engines:
            continue
        done = Compared()
        # the states shared among the player counts, then among the options each on in turn
        runs = [(p, ()) for p in counts] + [(counts[-1], (o,)) for o in options]
        for i, (players, chosen) in enumerate(runs):
            share = args.states // len(runs) + (1 if i < args.states % len(runs) else 0)
            try:
                compare(cls, players, args.seed, share, stride=args.stride, options=chosen, into=done)
            except ListingDiffers as exc:
                print(exc)
                return 1
        per = lambda seconds: 1000 * seconds / done.states if done.states else 0.0  # noqa: E731
        print(f"{name:<36} {done.states:>6} {done.games:>5} {per(done.fast_seconds):>10.2f} "
              f"{per(done.oracle_seconds):>9.2f} {done.oracle_seconds / done.fast_seconds if done.fast_seconds else 0:>5.1f}x",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
