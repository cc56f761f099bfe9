"""How far a lazy random draw could take random play: its ceiling, measured, before one is built.

    python benchmarks/lazy_draw.py [--games K] [--seed S] [TITLE:PLAYERS ...]

Random play (`random_legal_action`) lists every candidate of the state, shuffles them and tries them
in that order until one is legal. A lazy draw would describe the candidates as groups with counts
(an action's candidates for one entity), draw a place among those not yet tried, generate only the
group it falls in and try that candidate: the same distribution (each legal candidate equally
likely), with the groups no draw falls in never generated. For each title and player count
(default: 1800 2, 1846 4, 18CO 4, 1880 Romania 4) this plays K games (default 3) as `rulec play`
does, without the invariant monitor, and prints, in CPU time:

- `now`: games/s as random play draws today, and the share of its time spent listing the candidates
  (`_iter_candidates` in the draw), trying refused ones, and trying the one taken;
- `lazy ceiling`: games/s with the listing's time cut to the groups a lazy draw would generate, as if
  every group's count were known for free (each candidate's listing time charged to its group: the
  time since the candidate before, so a group's probe and generation fall to it; the draw's places
  taken in a shuffle of the state's candidates, with each candidate's legality from `legal_actions`,
  until the first legal one); an upper bound, as counting a group's candidates costs something;
- `floor`: games/s processing the same games' actions with no draw at all (each action given).

Figures only; nothing here passes or fails.
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

from compiler.app.playout import ACTION_CAP, collector_eased  # noqa: E402
from compiler.emit.engines import game_class  # noqa: E402
from compiler.runtime.candidates import _KnownRefused, _SearchLater  # noqa: E402

#: (title, players) measured by default
MEASURED = [("1800", 2), ("1846", 4), ("18CO", 4), ("1880 Romania", 4)]


def timed_class(cls: type, each: bool) -> type:
    """A subclass of the engine `cls` that times, in random play's draw, the listing of the candidates
    (`listing_ns`) and each trial (`trials`: [refused ns, taken ns]); with `each`, the listing of each
    candidate too (kept as (candidate, CPU ns since the one before) in `listed`: a clock read each, which
    slows the listing down; used for shares of it only)."""
    clock = time.process_time_ns

    class Timed(cls):  # type: ignore[misc, valid-type]
        listed: list = []
        listing_ns = 0
        trials = [0, 0]

        def _iter_candidates(self, *args, **kwargs):
            if not self._runs_listed:
                yield from super()._iter_candidates(*args, **kwargs)
                return
            start = clock()
            if each:
                out = []
                before = start
                for candidate in super()._iter_candidates(*args, **kwargs):
                    now = clock()
                    out.append((candidate, now - before))
                    before = clock()
                Timed.listed = out
                out = [candidate for candidate, _ns in out]
            else:
                out = list(super()._iter_candidates(*args, **kwargs))
            Timed.listing_ns += clock() - start
            yield from out

        def is_legal(self, action):
            if not self._keep_trial:
                return super().is_legal(action)
            start = clock()
            legal = super().is_legal(action)
            Timed.trials[legal] += clock() - start
            return legal

    return Timed


def lazy_share(listed: list, legal: list, rng: random.Random) -> tuple[int, int]:
    """(the listing's CPU ns, the ns of the groups a lazy draw with free counts generates) for one state's
    `listed` candidates (`timed_class`) and its `legal` actions."""
    groups: dict = {}
    places = []
    for candidate, ns in listed:
        if candidate.__class__ is _KnownRefused:
            key, legal_flags = ("refused", id(candidate)), [False] * candidate.count
        elif candidate.__class__ is _SearchLater:
            key, legal_flags = ("routes", id(candidate)), [True]
        else:
            key = (candidate.get("entity"), candidate.get("entity_type"), candidate["type"])
            legal_flags = [candidate in legal]
        groups[key] = groups.get(key, 0) + ns
        places += [(key, flag) for flag in legal_flags]
    rng.shuffle(places)
    touched = set()
    for key, flag in places:
        touched.add(key)
        if flag:
            break
    return sum(groups.values()), sum(groups[key] for key in touched)


def measure(title: str, players: int, games: int, seed: int) -> str:
    """One line of figures for `games` games of `title` with `players` players (see the module's doc)."""
    cls = game_class(title, None)
    names = [f"Player {i + 1}" for i in range(players)]
    clock = time.process_time_ns
    # now: random play as it is (the engine's own class, untimed), the actions kept; then the same games
    # with the draw's parts timed (a clock read a listing and a trial), for their shares
    played = []
    total = 0
    for engine in (cls, timed_class(cls, each=False)):
        spent = 0
        with collector_eased():
            for i in range(games):
                rng = random.Random(seed + i)
                game = engine(players=names, seed=seed + i)
                taken = []
                start = clock()
                while not game.finished and len(taken) < ACTION_CAP:
                    action = game.random_legal_action(rng)
                    if action is None:
                        break
                    game.process(action)
                    taken.append(action)
                spent += clock() - start
                if engine is cls:
                    played.append(taken)
        total = total or spent
    timed = engine
    listing, (refused, kept) = timed.listing_ns / spent, [t / spent for t in timed.trials]
    # floor: the same actions processed, none drawn
    floor = 0
    with collector_eased():
        for i, taken in enumerate(played):
            game = cls(players=names, seed=seed + i)
            start = clock()
            for action in taken:
                game.process(action)
            floor += clock() - start
    # lazy ceiling: each state's listing charged to its groups, and the groups a lazy draw falls in
    timed = timed_class(cls, each=True)
    whole = lazy = 0
    draw = random.Random(0)
    for i in range(games):
        rng = random.Random(seed + i)
        game = timed(players=names, seed=seed + i)
        while not game.finished:
            action = game.random_legal_action(rng)
            if action is None:
                break
            ns, generated = lazy_share(timed.listed, game.legal_actions(), draw)
            whole, lazy = whole + ns, lazy + generated
            game.process(action)
    cut = 1 - lazy / whole if whole else 0.0
    return (f"{title:<14} {players:>2} {sum(map(len, played)):>7} {games * 1e9 / total:>8.2f} "
            f"{100 * listing:>7.0f}% {100 * refused:>7.0f}% {100 * kept:>7.0f}% "
            f"{games * 1e9 / (total * (1 - listing * cut)):>12.2f} {100 * cut:>10.0f}% {games * 1e9 / floor:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", help="TITLE:PLAYERS (default: the table MEASURED)")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [(row.rsplit(":", 1)[0], int(row.rsplit(":", 1)[1])) for row in args.rows] or MEASURED
    print(f"{'title':<14} {'pl':>2} {'actions':>7} {'games/s':>8} {'listing':>8} {'refused':>8} {'taken':>8} "
          f"{'lazy ceiling':>12} {'listing cut':>10} {'floor':>8}")
    for title, players in rows:
        print(measure(title, players, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
