"""Many games at once, on Dask: `rulec simulate`.

A study plays `games` games of one title with a policy per player (`compiler.app.policies`),
each game by `playout.play_one` (the loop `rulec play` runs, the invariant monitor after
every action), and reports balance statistics (`statistics`): win rate by seat with its
Wilson interval, by the privates a player opened with and by the first corporation he
started; game length; end reasons; share prices and the bank's cash round by round; and the
failures, those of the invariant monitor counted apart (there must be none).

The games are tasks on a Dask cluster (`dask.distributed`): without a scheduler address,
a `LocalCluster` of this machine's cores (a worker process per core, one thread each);
with one, any cluster started by `dask scheduler` and `dask worker` whose workers have
rulec installed. The engine travels as its source text (the module `rulec compile`
writes, or the one built in memory for stale rulespecs), sent once to every worker and
built there once per process, so a worker needs no checkout of its own. A task is a
batch of games.

Game `i` (0-based) of a study with seed `S` is played with seed `S + i`, the same game
`rulec play --seed S+i` plays with the random policy; the statistics are computed from
the games in that order, whichever worker played them, so a study's statistics are the
same on one worker or many. Timing is kept apart, under `run`.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics as stats
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable

from compiler.app.playout import PlayoutError, Summary, play_one
from compiler.app.policies import POLICIES
from compiler.docs.study_page import rate_text
from compiler.runtime.entities import BANK

#: z for a 95% interval
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Study:
    """What a study plays: `policies` gives each player's policy in name order (Player 1
    first); with more than one, game `i` turns the list by `i`, so that each policy plays
    each name, and by the setup's draw each seat, as often as the others."""

    title: str
    variant: str | None
    players: int
    games: int
    policies: tuple[str, ...]
    seed: int = 1
    options: tuple[str, ...] = ()

    def names(self) -> list[str]:
        return [f"Player {i + 1}" for i in range(self.players)]

    def game_seed(self, index: int) -> int:
        return self.seed + index

    def policies_of(self, index: int) -> dict[str, str]:
        """The policy of each player (by name) in game `index`."""
        chosen = list(self.policies) if len(self.policies) == self.players else [self.policies[0]] * self.players
        turn = index % self.players if len(set(chosen)) > 1 else 0
        chosen = chosen[turn:] + chosen[:turn]
        return dict(zip(self.names(), chosen))


# ---------------------------------------------------------------- one game, observed


@dataclass
class Observer:
    """What a study records of a game as it is played (`play_one`'s `observe`): the state at the
    start of each round (the bank's cash, the share price of each corporation that has one), the
    privates each player holds when the first operating round starts, the first corporation each
    player started (became the first president of)."""

    rounds: list[dict] = field(default_factory=list)
    opened_with: dict[str, list[str]] | None = None
    first_started: dict[str, str] = field(default_factory=dict)
    _round: int = -1
    _started: set = field(default_factory=set)

    def __call__(self, game, action: dict) -> None:
        number = game.g["rounds_played"]
        if number != self._round:
            self._round = number
            self.rounds.append({
                "round": number,
                "bank": None if game.unlimited_bank else game.cash[BANK],
                "prices": sorted(game.market.price(game.corp[c.id]["cell"]) for c in game.corporations
                                 if game.corp[c.id]["cell"] is not None and not game.corp[c.id]["closed"]),
            })
        if self.opened_with is None and game.g["round"] == "operating":
            self.opened_with = {p.id: sorted(x.id for x in game.privates if game.owner[x.id] == p)
                                for p in game.players}
        if len(self._started) < len(game.corporations):
            for corp in game.corporations:
                if corp.id in self._started:
                    continue
                president = game.call("president", corp)
                if president is not None:
                    self._started.add(corp.id)
                    if president.kind == "player" and president.id not in self.first_started:
                        self.first_started[president.id] = corp.id


def _chooser(game_policies: dict[str, str]) -> Callable:
    """A `choose(game, rng)` that asks the policy of the player behind the acting entity (its
    president or owner for a company)."""
    if len(set(game_policies.values())) == 1:
        return POLICIES[next(iter(game_policies.values()))]
    default = POLICIES[next(iter(game_policies.values()))]

    def choose(game, rng):
        entity = game.current_entity()
        player = entity
        if entity is not None and entity.kind == "corporation":
            player = game.call("president", entity)
        elif entity is not None and entity.kind != "player":
            player = game.owner.get(entity.id)
        name = getattr(player, "id", None)
        return POLICIES[game_policies[name]](game, rng) if name in game_policies else default(game, rng)
    return choose


def play_game(Game, study: Study, index: int) -> dict:
    """Play game `index` of `study`: its record (`GameBase.record` with seating and winners, as
    `rulec play` reports it) with the policies and what the `Observer` saw; or, where it failed,
    `{"index", "seed", "failure": {...}}` (the monitor's failures have kind "invariant")."""
    seed = study.game_seed(index)
    policies = study.policies_of(index)
    observer = Observer()
    try:
        record = play_one(Game, study.names(), seed, study.options, choose=_chooser(policies), observe=observer)
    except PlayoutError as exc:
        failure = asdict(exc.failure)
        failure["kind"] = "invariant" if failure["error"].startswith("InvariantViolation") else "error"
        return {"index": index, "seed": seed, "failure": failure}
    record.update(index=index, policies=policies, rounds_sampled=observer.rounds,
                  opened_with=observer.opened_with or {p: [] for p in record["seating"]},
                  first_started=observer.first_started)
    return record


# ---------------------------------------------------------------- the engine on a worker

#: engines built on this process from their source, by digest
_ENGINES: dict[str, type] = {}


def engine_source(Game, title=None, sources=None) -> str:
    """The source text of an engine class: its module's file, or, for one built in memory (stale
    rulespecs), the module emitted again from `title` and `sources`."""
    module = sys.modules[Game.__module__]
    path = Path(getattr(module, "__file__", "") or "")
    if path.suffix == ".py" and path.is_file():
        text = path.read_text(encoding="utf-8")
        # the shared modules it names (generated/library.py, the title's generated/d_<title>.py),
        # handed over with it, the library first: a worker runs the engine from this text and may
        # not have the files
        installs = [f"_install({path.with_name(shared.name + '.py').read_text(encoding='utf-8')!r}, {shared.name!r})\n"
                    for shared in (getattr(module, "_LIBRARY", None), getattr(module, "_TITLE", None)) if shared is not None]
        if installs:
            text = f"from compiler.runtime.library import install as _install\n{''.join(installs)}\n{text}"
        return text
    if title is None:
        raise ValueError(f"the engine {Game.__module__} has no source file")
    from compiler.emit.emitter import emit_title

    return emit_title(title, sources)


def engine_from_source(source: str) -> type:
    """The `Game` class of an engine's source, built once per process."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    if digest not in _ENGINES:
        name = f"generated.simulated_{digest}"
        module = ModuleType(name)
        module.__file__ = f"<engine {digest}>"
        sys.modules[name] = module
        exec(compile(source, module.__file__, "exec"), module.__dict__)
        _ENGINES[digest] = module.Game
    return _ENGINES[digest]


def play_batch(source: str, study: Study, indices: list[int]) -> tuple[list[dict], float]:
    """A task: the games `indices` of `study` on the engine `source`; their records and the
    CPU seconds they took."""
    Game = engine_from_source(source)
    start = time.process_time()
    out = [play_game(Game, study, index) for index in indices]
    return out, time.process_time() - start


# ---------------------------------------------------------------- running a study


def batches(games: int, workers: int) -> list[list[int]]:
    """The games split into tasks: about eight per worker, so that the last ones finish together,
    of at most 25 games."""
    size = max(1, min(25, games // max(1, workers * 8)))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


@dataclass
class Run:
    games: list[dict]
    seconds: float
    workers: int
    where: str
    #: the CPU seconds the games took, summed over the workers
    cpu_seconds: float = 0.0


def local_cluster(workers: int):
    """A Dask `LocalCluster` of `workers` processes, one thread each, quiet and without a dashboard."""
    import logging

    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=logging.ERROR)


def run_study(study: Study, source: str, *, scheduler: str | None = None, workers: int | None = None,
              client=None, progress: Callable[[str], None] | None = None) -> Run:
    """Play `study` on Dask: on `client` when given, else on the cluster at `scheduler`, else on a
    `LocalCluster` of `workers` processes (every core when None); `workers` 0 plays in this
    process, without Dask. `progress` is told each game as its task ends. The run's seconds
    count from the moment the cluster is up and has the engine."""
    start = time.perf_counter()
    if workers == 0 and client is None and scheduler is None:
        games, seconds = play_batch(source, study, list(range(study.games)))
        return Run(games, time.perf_counter() - start, 0, "this process", seconds)
    from distributed import Client, as_completed

    cluster = own_client = None
    try:
        if client is None:
            if scheduler is not None:
                client = own_client = Client(scheduler, timeout="10s")
            else:
                cluster = local_cluster(workers or os.cpu_count() or 1)
                client = own_client = Client(cluster)
        count = len(client.scheduler_info(n_workers=-1)["workers"]) or 1
        where = scheduler or ("a local cluster" if cluster is not None else str(client.scheduler.address))
        [shared] = client.scatter([source], broadcast=True, hash=False)
        start = time.perf_counter()  # the games' time, not the cluster's start
        futures = [client.submit(play_batch, shared, study, batch, pure=False)
                   for batch in batches(study.games, count)]
        games: list[dict] = []
        seconds = 0.0
        for future in as_completed(futures):
            done, took = future.result()
            games.extend(done)
            seconds += took
            if progress is not None:
                for game in done:
                    progress(f"seed {game['seed']}")
        games.sort(key=lambda g: g["index"])
        return Run(games, time.perf_counter() - start, count, where, seconds)
    finally:
        if own_client is not None:
            own_client.close()
        if cluster is not None:
            cluster.close()


# ---------------------------------------------------------------- statistics


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (95% by default); None when n is 0."""
    if n <= 0:
        return None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(wins: float, n: int) -> dict:
    interval = wilson(wins, n)
    return {"n": n, "wins": round(wins, 3), "rate": round(wins / n, 4) if n else None,
            "ci95": [round(interval[0], 4), round(interval[1], 4)] if interval else None}


def _spread(values: list[float]) -> dict:
    """Median, quartiles, least and most (inclusive quartiles)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    if len(ordered) == 1:
        q1 = median = q3 = ordered[0]
    else:
        q1, median, q3 = stats.quantiles(ordered, n=4, method="inclusive")
    return {"n": len(ordered), "min": ordered[0], "q1": round(q1, 2), "median": round(median, 2),
            "q3": round(q3, 2), "max": ordered[-1], "mean": round(stats.fmean(ordered), 2)}


def _win_share(game: dict, player: str) -> float:
    return 1 / len(game["winners"]) if player in game["winners"] else 0.0


def statistics(study: Study, games: list[dict]) -> dict:
    """The study's statistics from its games (in index order); the same games give the same
    bytes. Win rates count a shared win as a share; intervals are Wilson's, 95%."""
    finished = [g for g in games if "failure" not in g]
    failures = [dict(g["failure"], index=g["index"]) for g in games if "failure" in g]
    n = len(finished)
    by_seat = Summary(study.title, study.variant, study.players, games=finished).wins_by_seat()  # as `rulec play`
    by_opening: dict[str, list[float]] = defaultdict(list)
    by_private: dict[str, list[float]] = defaultdict(list)
    by_first: dict[str, list[float]] = defaultdict(list)
    by_policy_value: dict[str, list[int]] = defaultdict(list)
    by_policy_wins: dict[str, list[float]] = defaultdict(list)
    for game in finished:
        for player in game["seating"]:
            share = _win_share(game, player)
            opened = game["opened_with"].get(player, [])
            by_opening["+".join(opened) or "none"].append(share)
            for private in opened:
                by_private[private].append(share)
            by_first[game["first_started"].get(player, "none")].append(share)
            by_policy_value[game["policies"][player]].append(game["result"][player])
            by_policy_wins[game["policies"][player]].append(share)
    rounds: dict[int, dict[str, list]] = defaultdict(lambda: {"bank": [], "prices": [], "games": 0})
    for game in finished:
        for sample in game["rounds_sampled"]:
            slot = rounds[sample["round"]]
            slot["games"] += 1
            if sample["bank"] is not None:
                slot["bank"].append(sample["bank"])
            slot["prices"].extend(sample["prices"])
    return {
        "study": asdict(study),
        "finished": n,
        "failed": len(failures),
        "monitor_failures": sum(1 for f in failures if f["kind"] == "invariant"),
        "win_rate_by_seat": [{"seat": seat + 1, **_rate(wins, n)} for seat, wins in enumerate(by_seat)],
        "win_rate_by_opening_privates": {key: _rate(sum(v), len(v)) for key, v in sorted(by_opening.items())},
        "win_rate_by_private": {key: _rate(sum(v), len(v)) for key, v in sorted(by_private.items())},
        "win_rate_by_first_corporation": {key: _rate(sum(v), len(v)) for key, v in sorted(by_first.items())},
        "by_policy": {policy: {"players": len(values), "value": _spread(values),
                               "win_rate": _rate(sum(by_policy_wins[policy]), len(values))}
                      for policy, values in sorted(by_policy_value.items())},
        "length": {"rounds": _spread([g["rounds"] for g in finished]),
                   "actions": _spread([g["actions"] for g in finished])},
        "end_reasons": dict(sorted(Counter(g["end_reason"] or "none" for g in finished).items(),
                                   key=lambda kv: (-kv[1], kv[0]))),
        "over_time": [{"round": r, "games": slot["games"], "bank_cash": _spread(slot["bank"]),
                       "share_price": _spread(slot["prices"])} for r, slot in sorted(rounds.items())],
        "failures": failures,
    }


def report(study: Study, run: Run, display: str, currency: str = "") -> dict:
    """The study's JSON: `statistics` (deterministic), the title as shown, and `run` (timing)."""
    actions = sum(g.get("actions", 0) for g in run.games)
    return {
        "title": display,
        "currency": currency,
        "statistics": statistics(study, run.games),
        "run": {"where": run.where, "workers": run.workers, "seconds": round(run.seconds, 2),
                "cpu_seconds": round(run.cpu_seconds, 2),
                "games_per_second": round(len(run.games) / run.seconds, 2) if run.seconds else None,
                "actions_per_second": round(actions / run.seconds, 1) if run.seconds else None},
    }


def to_text(data: dict) -> str:
    """The summary `rulec simulate` prints."""
    s, run, c = data["statistics"], data["run"], data["currency"]
    study = s["study"]
    lines = [f"{data['title']}, {study['players']} players, policy {'/'.join(study['policies'])}, seed "
             f"{study['seed']}: {s['finished']} of {study['games']} games finished, {s['failed']} failed, "
             f"{s['monitor_failures']} invariant monitor failures",
             f"played on {run['where']} ({run['workers']} workers) in {run['seconds']} s: "
             f"{run['games_per_second']} games/s, {run['actions_per_second']} actions/s",
             "win rate by seat (95% Wilson interval): " + ", ".join(
                 f"seat {r['seat']} {rate_text(r)}" for r in s["win_rate_by_seat"])]
    if len(s["by_policy"]) > 1:
        lines.append("by policy: " + ", ".join(
            f"{p} mean value {c}{v['value'].get('mean', 0):.0f}, wins {rate_text(v['win_rate'])}"
            for p, v in s["by_policy"].items()))
    for key, label in (("win_rate_by_opening_privates", "by the privates a player opened with"),
                       ("win_rate_by_first_corporation", "by the first corporation a player started")):
        lines.append(label + ": " + ", ".join(f"{k} {rate_text(r)} of {r['n']}" for k, r in s[key].items()))
    for what in ("rounds", "actions"):
        q = s["length"][what]
        if q["n"]:
            lines.append(f"{what} per game: median {q['median']:g} (quartiles {q['q1']:g}-{q['q3']:g}, "
                         f"{q['min']}-{q['max']})")
    lines.append("end reasons: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["end_reasons"].items()))
    for failure in s["failures"][:10]:
        lines.append(f"game {failure['index']} (seed {failure['seed']}): action {failure['action_number']}: "
                     f"{failure['error']}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the command


def _unwritable(out: Path) -> str | None:
    """`command.unwritable_folder` (impact's --html asks it too)."""
    from compiler.app.command import unwritable_folder

    return unwritable_folder(out)


def main(args) -> int:
    """`rulec simulate TITLE ...` (cli.py registers it)."""
    import json

    from compiler.emit import launch
    from compiler.app.command import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, engine_of, option_refusal, played_title,
                                      players_refusal, refused, scheduler_refusal)
    from compiler.lang.pipeline import load
    from compiler.progress import current as progress
    from compiler.runtime.errors import RuleGap

    if args.out and (refusal := _unwritable(Path(args.out))):
        # said before the games are played, not after every one of them
        print(f"rulec simulate: --out {args.out} {refusal}; it names the folder the report is written to",
              file=sys.stderr)
        return EXIT_USAGE
    if args.scheduler and (why := scheduler_refusal(args.scheduler)):
        print(f"rulec simulate: --scheduler {args.scheduler}: {why} (a Dask scheduler's address, tcp://HOST:PORT)",
              file=sys.stderr)
        return EXIT_USAGE
    policies = tuple(p.strip() for p in args.policy.split(","))
    unknown = [p for p in policies if p not in POLICIES]
    # the committed engine straight away where `rulec play` or `simulate` asked the same before and
    # nothing it depends on changed since (`compiler.emit.launch`); else the rulespecs are read
    question = launch.play_question(args.title, args.variant, args.players)
    key = launch.fingerprint()
    title = launch.recall(question, key)
    loaded = None
    if title is not None:
        players = low = high = title.players
    else:
        loaded = load()
        played = played_title(loaded, args.title, args.variant, args.players)
        if played is None:
            print(f"rulec simulate: no title {args.title!r}; `rulec titles` lists them", file=sys.stderr)
            return EXIT_USAGE
        title, players, (low, high) = played
    if unknown or (len(policies) > 1 and len(policies) != players):
        print(f"rulec simulate: --policy is one of {', '.join(POLICIES)}, or one per player separated by "
              f"commas (got {args.policy!r})", file=sys.stderr)
        return EXIT_USAGE
    if not low <= players <= high:
        print(f"rulec simulate: {players_refusal(title, players, (low, high))}", file=sys.stderr)
        return EXIT_USAGE
    if args.games < 1 or (args.workers is not None and args.workers < 0):
        print("rulec simulate: --games is at least 1 and --workers at least 0", file=sys.stderr)
        return EXIT_USAGE
    if loaded is not None and refused(loaded, title, "simulate"):
        return EXIT_FAIL
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("rulec simulate: needs Dask: pip install -e '.[simulate]'", file=sys.stderr)
        return EXIT_FAIL
    if loaded is not None:
        Game = engine_of(loaded, title, None, "simulate")
        launch.remember(question, title, loaded.sources, players, key)
        source = engine_source(Game, title, loaded.sources)
    else:
        Game = title.game
        source = engine_source(Game)
    if refusal := option_refusal(Game, args.option, title.display_name):
        print(f"rulec simulate: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    study = Study(title.name, title.variant, players, args.games, policies, args.seed, tuple(args.option))
    try:
        with progress().stage("simulate", args.games, "games") as stage:
            run = run_study(study, source, scheduler=args.scheduler, workers=args.workers, progress=stage.next)
    except OSError as exc:  # the scheduler cannot be reached
        print(f"rulec simulate: cannot reach the Dask scheduler {args.scheduler}: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except RuleGap as exc:  # raised where the game is set up, before its first action
        print(f"rulec simulate: {title.display_name} cannot be played: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except ValueError as exc:  # an unknown --option, or players the title does not take
        print(f"rulec simulate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    data = report(study, run, title.display_name, str(Game.DATA.properties.get("currency", "")))
    if args.out:
        from compiler.docs.study_page import write_page

        write_page(data, Path(args.out))
    print(json.dumps(data, indent=2) if args.json else to_text(data)
          + (f"\nwrote {Path(args.out) / 'index.md'} and index.html" if args.out else ""))
    return EXIT_OK if not data["statistics"]["failed"] else EXIT_FAIL
