"""Count the listing's trials in random playouts: the candidates it dispatches and rolls back, and those refused.

    python benchmarks/trials.py [--seeds N] [--top K]

Plays seeds 1..N (default 3) of 18CO (4 players), 1846 (4), 1800 (2) and 1880 Romania (4) as
`rulec play` does (`compiler.app.playout.play_one`) and counts, in the listings of those games
(`is_legal`), each candidate dispatched (`_dispatch` or `_quiet_dispatch`) and those it ends
refused (`IllegalAction` or `RuleGap`), by action and by the refusal's message and rule: the
trials a better probe would spare (issue 42). Also the probes asked (`_probe_refuses`). Counts
only, a function of the engines: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.app.playout import play_one  # noqa: E402
from compiler.emit.engines import game_class  # noqa: E402
from compiler.runtime.errors import IllegalAction, RuleGap  # noqa: E402
from compiler.runtime.game import GameBase  # noqa: E402
from compiler.runtime.listing import Listing  # noqa: E402

ENGINES = [("18CO", None, 4), ("1846", None, 4), ("1800", None, 2), ("1880 Romania", None, 4)]


class Counts:
    def __init__(self) -> None:
        self.trials = 0
        self.probes = 0
        self.refused: collections.Counter = collections.Counter()  # (action, message, rule) -> trials
        self.depth = 0  # inside `is_legal`


def instrument(counts: Counts) -> None:
    """Wrap the listing's trial and probe entry points to count into `counts` (for this process)."""
    is_legal, probe_refuses = Listing.is_legal, Listing._probe_refuses

    def counted_is_legal(self, action):
        counts.depth += 1
        try:
            return is_legal(self, action)
        finally:
            counts.depth -= 1

    def counted_probe(self, *args, **kwargs):
        counts.probes += 1
        return probe_refuses(self, *args, **kwargs)

    def trial(dispatch):
        def counted(self, action, *args):
            if not counts.depth:
                return dispatch(self, action, *args)
            counts.trials += 1
            try:
                return dispatch(self, action, *args)
            except (IllegalAction, RuleGap) as exc:
                try:
                    kind = self.action_name(action)
                except (KeyError, TypeError):
                    kind = str(action.get("type"))
                counts.refused[(kind, str(exc)[:60], getattr(exc, "rule", None))] += 1
                raise
        return counted

    Listing.is_legal = counted_is_legal
    Listing._probe_refuses = counted_probe
    GameBase._dispatch = trial(GameBase._dispatch)
    Listing._quiet_dispatch = trial(Listing._quiet_dispatch)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 1..N of each engine (default 3)")
    parser.add_argument("--top", type=int, default=10, help="refusals shown per engine (default 10)")
    args = parser.parse_args()
    counts = Counts()
    instrument(counts)
    for title, variant, players in ENGINES:
        counts.trials = counts.probes = 0
        counts.refused.clear()
        game = game_class(title, variant)
        actions = 0
        for seed in range(1, args.seeds + 1):
            log: list = []
            play_one(game, [f"P{i + 1}" for i in range(players)], seed, log_to=log)
            actions += len(log[0]["actions"])
        refused = sum(counts.refused.values())
        print(f"{title} ({players} players), seeds 1-{args.seeds}: {actions} actions, {counts.trials} trials, "
              f"{refused} refused, {counts.probes} probes asked")
        by_action: collections.Counter = collections.Counter()
        for (kind, _message, _rule), n in counts.refused.items():
            by_action[kind] += n
        print("  refused by action: " + ", ".join(f"{kind} {n}" for kind, n in by_action.most_common(8)))
        for (kind, message, rule), n in counts.refused.most_common(args.top):
            print(f"  {n:6d}  {kind:24s} {message!r:64s} {rule}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
