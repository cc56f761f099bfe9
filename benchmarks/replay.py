"""Time the replay of real 18xx.games logs.

    python benchmarks/replay.py [--repeat R] [--no-monitor] [LOG.json ...]

For each log (default: every log under ../shared/fixtures of a title rulec has) replays it R times
(default 3) through `compiler.runtime.sitelog.replay`, every route of every `run_routes` checked and its
revenue recomputed by the engine (the automatic pass told the log's next action, `look_ahead`: a run it
declares answers whether the company may run, with no route search), the invariant monitor after every
action unless `--no-monitor`, and
prints the actions processed, whether the replay reached the log's end and result, and actions per CPU
second (the best of the R runs). The baseline in the same run is the engine's own random play of the
same title: actions per second of `legal_actions` + `process`, so the ratio says what a replayed action
costs against a played one. Figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from compiler.emit.engines import game_class
from compiler.paths import ROOT
from compiler.lang.pipeline import load
from compiler.runtime.errors import RuleGap
from compiler.runtime.sitelog import replay

FIXTURES = ROOT.parent / "shared" / "fixtures"


def _random_rate(cls, players: int, seconds: float = 2.0) -> float:
    """Actions per CPU second of random legal play (the baseline)."""
    rng = random.Random(1)
    game = cls([f"P{i + 1}" for i in range(players)], seed=1)
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        action = game.random_legal_action(rng)
        if action is None:
            game = cls([f"P{i + 1}" for i in range(players)], seed=done)
            continue
        game.process(action)
        done += 1
    return done / (time.process_time() - start)


def main() -> None:
    from compiler.app.command import title_for_log

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-monitor", action="store_true")
    args = parser.parse_args()
    paths = args.logs or sorted(FIXTURES.glob("*/*.json"))
    loaded = load(check=False)
    baselines: dict = {}
    print(f"{'log':<44} {'title':<22} {'actions':>7} {'of':>5} {'end':>5} {'result':>6} "
          f"{'actions/s':>9} {'random/s':>8} {'ratio':>5}")
    for path in paths:
        log = json.loads(path.read_text(encoding="utf-8"))
        title = title_for_log(loaded, log)
        if title is None:
            print(f"{path.parent.name + '/' + path.name:<44} (no title of rulec's)")
            continue
        cls = game_class(title.name, title.variant)
        best, done = None, None
        for _ in range(args.repeat):
            start = time.process_time()
            try:
                done = replay(cls, log, monitor=not args.no_monitor)
            except RuleGap as exc:
                print(f"{path.parent.name + '/' + path.name:<44} {title.display_name:<22} cannot start: {exc.what}")
                break
            spent = time.process_time() - start
            best = spent if best is None else min(best, spent)
        if best is None:
            continue
        key = (title.name, title.variant, len(log["players"]))
        if key not in baselines:
            baselines[key] = _random_rate(cls, len(log["players"]))
        rate = done.processed / best if best else 0.0
        total = len([a for a in log["actions"] if a.get("type") not in ("undo", "redo", "message")])
        reached = "yes" if done.divergence is None else "no"
        matches = {True: "same", False: "DIFF", None: "-"}[done.result_matches]
        print(f"{path.parent.name + '/' + path.name:<44} {title.display_name:<22} {done.processed:>7} {total:>5} "
              f"{reached:>5} {matches:>6} {rate:>9.0f} {baselines[key]:>8.0f} {rate / baselines[key]:>5.1f}")


if __name__ == "__main__":
    main()
