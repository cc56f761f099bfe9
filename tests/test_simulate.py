"""`rulec simulate` and `rulec verify --scheduler`: games and checks as Dask tasks.

The cluster tests start a real `dask scheduler` and `dask worker` as processes of their own on
localhost (ports chosen by the system), run the commands against them and shut them down. The
full verification of a real title is far too slow for a test: `rulec verify --scheduler` runs
on the toy title (tests/fixtures/toy). Throughput is measured in `benchmarks/simulate.py`.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

# looked for, not imported (as importorskip would, 0.7 s as pytest collects the file on each worker)
if importlib.util.find_spec("distributed") is None:
    pytest.skip("could not import 'distributed': dask.distributed is not installed", allow_module_level=True)

from compiler.app.cli import main  # noqa: E402
from compiler.emit.engines import game_class  # noqa: E402
from compiler.app.simulate import Study, engine_source, run_study, statistics, wilson  # noqa: E402

# the cluster's processes are shared by the tests of this file: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("dask")

DASK = str(Path(sys.executable).parent / "dask")


class Cluster:
    """A `dask scheduler` and its `dask worker`s, each a process of its own."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen] = []
        self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(self.file)])
        deadline = time.monotonic() + 60
        while not (self.file.is_file() and self.file.stat().st_size):
            assert time.monotonic() < deadline, "the dask scheduler did not start"
            assert self.processes[0].poll() is None, "the dask scheduler stopped"
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]

    def _start(self, command: list[str]) -> None:
        log = open(self.folder / f"process-{len(self.processes)}.log", "wb")
        self.processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder))

    def add_worker(self, count: int) -> None:
        """Start one more `dask worker` (one process, one thread) and wait until `count` are up."""
        from distributed import Client

        self._start([DASK, "worker", "--scheduler-file", str(self.file), "--nworkers", "1", "--nthreads", "1",
                     "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--local-directory", str(self.folder)])
        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(count, timeout=60)

    def stop(self) -> None:
        """The scheduler shuts itself and its workers down; a process still running after that is
        terminated, then killed."""
        from distributed import Client

        try:
            with Client(self.address, timeout="10s") as client:
                client.shutdown()
        except OSError:
            pass
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        running.add_worker(1)
        yield running
    finally:
        running.stop()
    assert all(p.returncode is not None for p in running.processes)


def test_greedy_players_end_worth_more_than_random_players_in_mixed_games():
    """Ten 2-player games of 1800, greedy against random, each policy as Player 1 in half of
    them (and so in each seat about as often). The greedy player ends with the higher value in
    at least 9 of 10: a one-sided sign test gives p = 0.011 that greedy is no better."""
    Game = game_class("1800")
    study = Study("1800", None, 2, 10, ("greedy", "random"), seed=1)
    games = run_study(study, engine_source(Game), workers=0).games
    assert not [g for g in games if "failure" in g]
    assert {g["policies"]["Player 1"] for g in games} == {"greedy", "random"}
    better = 0
    for game in games:
        by_policy = {policy: game["result"][player] for player, policy in game["policies"].items()}
        better += by_policy["greedy"] > by_policy["random"]
    p_value = sum(math.comb(10, k) for k in range(better, 11)) / 2 ** 10
    assert better >= 9 and p_value < 0.02
    values = statistics(study, games)["by_policy"]
    assert values["greedy"]["value"]["mean"] > values["random"]["value"]["mean"]


def test_wilson_interval():
    """The Wilson score interval (95%): 0 of 10 is [0, 0.278]; 5 of 10 is [0.237, 0.763]."""
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson(0, 0) is None


def test_simulate_refuses_an_unknown_policy_and_player_count(capsys):
    assert main(["simulate", "1800", "--policy", "clever"]) == 2
    assert "--policy is one of random, greedy" in capsys.readouterr().err
    assert main(["simulate", "1800", "--players", "9"]) == 2
    assert "1800 takes 2 players, not 9" in capsys.readouterr().err



@pytest.mark.parametrize("where, says", [("file", "is a file, not a folder"),
                                         ("file/report", "which is a file")])
def test_simulate_refuses_an_out_it_cannot_write_before_playing(tmp_path, monkeypatch, capsys, where, says):
    """`simulate --out FILE` played every game and then stopped on the path; it is checked first."""
    (tmp_path / "file").write_text("x")
    played = []
    monkeypatch.setattr("compiler.app.simulate.run_study", lambda *a, **k: played.append(1))
    assert main(["simulate", "1800", "--games", "1", "--workers", "0", "--out", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert says in err and "--out" in err and not played, err

def test_a_failed_game_is_reported_with_the_monitors_failures_apart():
    """A game whose action breaks an invariant counts as a monitor failure, with its seed."""
    games = [{"index": 0, "seed": 5, "failure": {"seed": 5, "action_number": 3, "action": None, "kind": "invariant",
                                                 "error": "InvariantViolation: money"}},
             {"index": 1, "seed": 6, "failure": {"seed": 6, "action_number": 9, "action": None, "kind": "error",
                                                 "error": "KeyError: 'x'"}}]
    stats = statistics(Study("1800", None, 2, 2, ("random",)), games)
    assert (stats["finished"], stats["failed"], stats["monitor_failures"]) == (0, 2, 1)
    assert [f["seed"] for f in stats["failures"]] == [5, 6]


# The cluster's tests come last: the module's cluster is stopped when the module ends, and its
# scheduler and workers would otherwise idle (with heartbeats that cost CPU) through the others.


def test_simulate_and_verify_run_on_a_dask_scheduler_and_worker(cluster, toy, tmp_path, monkeypatch, capsys):
    """`rulec simulate 1800 --scheduler ADDRESS` plays its games on the worker and reports them;
    `rulec verify --scheduler ADDRESS` has the worker do the checks: this process's own checking
    is made to fail, and every check still comes back proved (the toy title; the full 1800
    verification takes minutes)."""
    out = tmp_path / "study"
    assert main(["simulate", "1800", "--scheduler", cluster.address, "--games", "4", "--json",
                 "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["where"] == cluster.address and data["run"]["workers"] == 1
    stats = data["statistics"]
    assert stats["finished"] == 4 and stats["failed"] == 0 and stats["monitor_failures"] == 0
    assert sum(seat["wins"] for seat in stats["win_rate_by_seat"]) == pytest.approx(4)
    assert {"index.md", "index.html", "study.json", "share_price.svg", "win_rate_by_seat.svg"} <= {
        p.name for p in out.iterdir()}
    assert "![share prices by round](share_price.svg)" in (out / "index.md").read_text()

    def refused(*args, **kwargs):
        raise AssertionError("checked in the test's process, not on the cluster")

    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("compiler.lang.pipeline.load", lambda *args, **kwargs: toy)
    monkeypatch.setattr("compiler.verify.verifier.Verifier.check_transition", refused)
    monkeypatch.setattr("compiler.verify.verifier.Verifier.check_init", refused)
    assert main(["verify", "toy", "--scheduler", cluster.address, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["counts"]["proved"] > 0
    # every check solved in this run, on the cluster (this process's checking refuses): none from the cache
    assert report["cache"] == {"path": report["cache"]["path"], "hits": 0, "misses": sum(report["counts"].values())}


def test_the_same_seed_gives_the_same_statistics_on_one_and_two_workers(cluster):
    """Game i is played with seed S + i wherever it runs: on one worker and on two (four tasks of
    one game each, spread over both), the statistics are the same."""
    Game = game_class("1800")
    study = Study("1800", None, 2, 4, ("random",), seed=11)
    source = engine_source(Game)
    one = run_study(study, source, scheduler=cluster.address)
    cluster.add_worker(2)
    two = run_study(study, source, scheduler=cluster.address)
    assert (one.workers, two.workers) == (1, 2)
    expected = statistics(study, one.games)
    assert statistics(study, two.games) == expected
    assert expected["finished"] == 4 and expected["length"]["actions"]["n"] == 4
    assert len({g["seed"] for g in one.games}) == 4 and [g["index"] for g in two.games] == [0, 1, 2, 3]


@pytest.mark.parametrize("command", [["simulate", "1800", "--games", "1"], ["verify", "toy"]])
@pytest.mark.parametrize("address, says", [("foo://x:1", "unknown address scheme 'foo'"),
                                           (":::", "invalid address"),
                                           ("tcp://127.0.0.1:99999", "port 99999")])
def test_a_malformed_scheduler_address_is_refused_before_any_work(command, address, says, toy, monkeypatch,
                                                                  capsys):
    """`verify --scheduler foo://x:1` ended in dask's traceback (a ValueError), and `simulate` printed
    dask's words without saying which option they were about; an out-of-range port waited 10 s for a
    connection. The address is read first: exit 2, naming `--scheduler` and what is wrong."""
    monkeypatch.setattr("compiler.lang.pipeline.load", lambda *args, **kwargs: toy)
    monkeypatch.setattr("compiler.app.simulate.run_study", lambda *a, **k: pytest.fail("played"))
    assert main([*command, "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"--scheduler {address}" in err and says in err, err
