"""The invented title of the common mechanics (tests/fixtures/mechanics/kestrel.rules): random games
and its whole verification.

    python benchmarks/mechanics.py [--games K] [--no-verify]

Plays K games (default 50) at each of its player counts as `rulec play` does (`play_one`, the
invariant monitor after every action) and prints games/s (CPU time), the end reasons and how often
each mechanic was used (trade-ins, the Works' rebate); then verifies every check of the title and of
its variant "Partial" (partial capitalisation; `verify_title`, no cache) and prints the counts by
status and the wall time. Figures only; the
tests (tests/test_mechanics_title.py) check the smaller claims.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.emit.engines import current_game_class  # noqa: E402
from compiler.lang.pipeline import load_texts  # noqa: E402
from compiler.app.playout import play_one  # noqa: E402

PATH = "tests/fixtures/mechanics/kestrel.rules"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    texts = {f"rulespecs/lib/{p.name}": p.read_text(encoding="utf-8")
             for p in sorted((ROOT / "rulespecs" / "lib").glob("*.rules"))}
    texts[PATH] = (ROOT / PATH).read_text(encoding="utf-8")
    loaded = load_texts(texts)
    if not loaded.ok:
        sys.exit("\n".join(d.message for d in loaded.errors))
    title = loaded.program.titles["Kestrel Lines"]
    Game = current_game_class(title, loaded.sources)[0]
    used: Counter[str] = Counter()

    def observe(game, action):
        if action["type"] == "buy_train" and action.get("exchange"):
            used["trade-in"] += 1
        if action.get("entity_type") == "company":
            used[action["type"]] += 1  # the privates' abilities: rebate, works_stock, lay_tile, survey_fee, sell_office
        used["actions"] += 1

    for players in (2, 3):
        ends: Counter[str] = Counter()
        start = time.process_time()
        for seed in range(args.games):
            record = play_one(Game, [f"p{i}" for i in range(players)], seed, observe=observe)
            ends[record["end_reason"]] += 1
        spent = time.process_time() - start
        print(f"{players} players: {args.games} games in {spent:.2f} s CPU ({args.games / spent:.1f} games/s); "
              f"ends {dict(ends)}")
    print(f"used: {dict(used)}")
    if not args.no_verify:
        from compiler.verify.verifier import verify_title

        for checked in (title, loaded.program.variants[("Kestrel Lines", "Partial")]):
            start = time.monotonic()
            report = verify_title(checked)
            statuses = Counter(r.status for r in report.results)
            print(f"verify {checked.display_name}: {dict(statuses)} in {time.monotonic() - start:.1f} s wall")
            for r in report.results:
                if r.status not in ("proved", "sanctioned"):
                    print(f"  {r.transition} {r.invariant}: {r.status} {r.reason or ''}")


if __name__ == "__main__":
    main()
