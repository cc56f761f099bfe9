"""The command line: exit codes, --help everywhere, titles, coverage, build."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from compiler.app.cli import build_parser, main
from compiler.names import slug

COMMANDS = ["build", "check", "compile", "verify", "validate", "docs", "play", "replay", "titles", "coverage"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: rulec " + command in capsys.readouterr().out


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == 2


def test_verify_proves_a_title_with_its_variants_and_names_an_unknown_title(toy, monkeypatch, capsys):
    """`rulec verify TITLE` verifies the title and its variants, prints each table and the slowest
    check, exit 0. On the toy title (tests/fixtures/toy), which verifies in seconds; every real
    title's full run is `rulec build`'s, whose recorded results tests/test_verify.py checks."""
    monkeypatch.setattr("compiler.lang.pipeline.load", lambda *args, **kwargs: toy)
    assert main(["verify", "toy"]) == 0
    out = capsys.readouterr().out
    assert "== Toy\n" in out and "== Toy (Rich)" in out and "0 counterexample" not in out
    assert "slowest check: Toy" in out
    assert main(["verify", "no-such-title"]) == 2


def test_validate_compares_the_model_with_the_engine(capsys):
    """A short translation validation of 1800: the counts per action, no mismatch, exit 0."""
    assert main(["validate", "1800", "--games", "1", "--actions", "60", "--want", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mismatches"] == [] and report["compared_variables"] > 0
    assert report["accepted"]["par"] > 0 and report["accepted"]["pass"] > 0


def test_validate_plays_an_option_and_names_an_unknown_one(capsys):
    """1800's optional bidding rule (§7): with `--option private_bidding` bids are compared."""
    assert main(["validate", "1800", "--option", "private_bidding", "--games", "1", "--actions", "60",
                 "--want", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mismatches"] == [] and report["accepted"]["bid"] > 0
    assert main(["validate", "1800", "--option", "no_such_rule"]) == 2
    err = capsys.readouterr().err
    assert "no option 'no_such_rule'" in err and "private_bidding" in err and "Traceback" not in err
    assert main(["verify", "1880-romania", "--option", "private_bidding"]) == 2
    assert "1880 Romania has no option 'private_bidding'" in capsys.readouterr().out


def test_play_and_simulate_refuse_an_unknown_option_before_any_game(capsys):
    """`--option` a title does not declare: refused with the options it has, before a game starts (play
    printed its progress first and listed the options as a Python list; simulate's Dask workers each
    logged a failed task with the error before the command said it)."""
    assert main(["play", "1846", "--option", "no_such_rule"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "rulec play: 1846 has no option 'no_such_rule'; its options: first_edition"
    assert main(["simulate", "1846", "--option", "no_such_rule", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "rulec simulate: 1846 has no option 'no_such_rule'; its options: first_edition"


def test_validate_with_a_map_overlay_deals_a_card_when_no_action_is_short(capsys):
    """`rulec validate "18 Grand Junction" --map tests/fixtures/18gj_test_map.rules --want 1` ended in a
    TypeError traceback (`effect in None`): once no action reading a card's power was short of its
    samples, the constructed states were dealt a card for no effects at all. A card is dealt as when
    none has the effects wanted, and the validation reports."""
    from compiler import paths

    test_map = paths.ROOT / "tests" / "fixtures" / "18gj_test_map.rules"
    assert main(["validate", "18 Grand Junction", "--map", str(test_map), "--games", "1", "--actions", "30",
                 "--want", "1", "--json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mismatches"] == [] and report["title"].startswith("18 Grand Junction")


def test_validate_names_an_unknown_title_and_a_map_gap(capsys):
    assert main(["validate", "no-such-title"]) == 2
    assert "no title 'no-such-title'" in capsys.readouterr().err
    assert main(["validate", "18 Grand Junction", "--actions", "10"]) == 1
    err = capsys.readouterr().err
    assert "cannot be validated" in err and "--map FILE" in err and "Traceback" not in err
    # a variant whose map is a gap stops at the map, whatever hexes it inherits, naming its other gaps
    # (1880's variants: the 8-train count among them) and the map hint
    assert main(["validate", "1880-romania", "--variant", "Amira"]) == 1
    err = capsys.readouterr().err
    assert "the map is a gap" in err and "train 8 count" in err and "--map" in err


def test_validate_with_a_map_overlay_models_the_variant_the_engine_plays(capsys):
    """`rulec validate --map` applies the overlay after the variant, as `rulec play --map` does: Amira's
    variant amends companies its test map then removes (applied to the base first, the variant's
    amendments failed: 8 E012 errors, and Amira could not be validated from the command line)."""
    from compiler import paths

    overlay = str(paths.ROOT / "tests" / "fixtures" / "1880_amira_test_map.rules")
    assert main(["validate", "1880-romania", "--variant", "Amira", "--map", overlay,
                 "--games", "1", "--actions", "60", "--want", "1", "--json"]) == 0, capsys.readouterr().err
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "1880 Romania (Amira)" and report["mismatches"] == []
    assert sum(report["accepted"].values()) > 0


def test_slugs():
    assert slug("1880 Romania") == "1880-romania"
    assert slug("Regatul României") == "regatul-romaniei"
    assert slug("18 Grand Junction") == "18-grand-junction"
    assert slug("Three-Player") == "three-player"


def test_check_passes_on_the_real_rulespecs(capsys):
    assert main(["check"]) == 0
    assert "0 errors" in capsys.readouterr().out


def test_check_fails_on_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('title "t" { x: }')
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:1:16: error[E001]" in out or "bad.rules:1:16: error[E001]" in out


def test_titles_lists_every_title_and_variant(capsys):
    assert main(["titles", "--json"]) == 0
    rows = {row["title"]: row for row in json.loads(capsys.readouterr().out)}
    assert {"1800", "18CO", "1880 Romania"} <= set(rows)
    assert "Three-Player" in [v["name"] for v in rows["1800"]["variants"]]
    assert {"Transylvania", "Amira"} <= {v["name"] for v in rows["1880 Romania"]["variants"]}


def test_titles_are_listed_from_a_cache_that_follows_the_rulespecs(capsys, tmp_path, monkeypatch):
    """Issue 33: `rulec titles` reads a listing cached under the rulespecs' fingerprint instead of
    loading them; an edit of a rulespec shows at once."""
    from compiler.app import cli
    from compiler import paths

    shutil.copytree(paths.RULESPECS, tmp_path / "rulespecs")
    # run beside the copy, so that its files are shown as the checkout's are (rulespecs/1800.rules):
    # the process's parsed modules are kept by path and text (`parse.parse_text`), and an unchanged
    # copy is not parsed again; the listing is loaded (and cached) all the same
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paths, "RULESPECS", tmp_path / "rulespecs")
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["titles", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert list((tmp_path / "cache" / "titles").glob("*.json"))

    def no_load(*args, **kwargs):
        raise AssertionError("the rulespecs were loaded though the listing is cached")

    monkeypatch.setattr(cli, "load", no_load)
    assert main(["titles", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paths, "RULESPECS", tmp_path / "rulespecs")
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "rulespecs" / "1800.rules"
    spec.write_text(spec.read_text(encoding="utf-8").replace("  players: 2 §1", "  players: 2..4 §1", 1),
                    encoding="utf-8")
    assert main(["titles", "--json"]) == 0
    rows = {row["title"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["1800"]["players"] == "2..4"


def test_coverage_by_slug(capsys):
    assert main(["coverage", "1880-romania", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "1880 Romania"
    headings = [s["heading"] for s in report["sections"]]
    assert "Game Setup" in headings and "Sequence of Play" in headings
    assert report["supplements"] and report["gaps"] and report["contradictions"]


def test_coverage_of_an_unknown_title(capsys):
    assert main(["coverage", "9999"]) == 1
    assert "E090" in capsys.readouterr().err


def test_build_runs_every_stage(tmp_path, capsys, monkeypatch):
    """`rulec build` end to end on a rulespec tree of its own (the toy title and its variant, with
    `--out`): check, compile into OUT/generated, verify (every check proved or sanctioned), and
    the site with the verification record written into OUT/site and built with mkdocs --strict.
    The real titles' stages are tested one by one: `rulec check` and `rulec compile --check`
    (here and tests/test_emit.py), the recorded results of their full verification
    (tests/test_verify.py) and the committed site built from them (tests/test_docs.py)."""
    from compiler import paths
    from tests.conftest import TOY

    engines = {p.name: p.read_bytes() for p in paths.GENERATED.glob("*.py")}
    assert main(["build", str(TOY), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "check    ok: 1 title, 1 variant" in out and "compile  ok: 2 engines" in out
    assert "verify   ok: 2 of 2 titles and variants fully proved" in out and "sanctioned" in out
    assert "docs     ok" in out
    assert {p.name for p in (tmp_path / "generated").glob("t_*.py")} == {"t_toy.py", "t_toy__rich.py"}
    site = tmp_path / "site"
    assert (site / "site" / "titles" / "toy--rich" / "verification" / "index.html").is_file()
    assert set(json.loads((site / "proofs.json").read_text())["titles"]) == {"Toy", "Toy (Rich)"}
    # the checkout's engines are left alone
    assert {p.name: p.read_bytes() for p in paths.GENERATED.glob("*.py")} == engines
    # built again with nothing changed: nothing to write, nothing proved again (issue 33: the
    # fresh record's results are the verifier's), no site built again
    from compiler.verify import pool
    from compiler.verify import verifier as verify

    def no_proof(*args, **kwargs):
        raise AssertionError("a title with a fresh record was verified again")

    from compiler.docs import build as docs
    from compiler.emit import emitter
    from compiler.lang import pipeline

    with monkeypatch.context() as m:
        m.setattr(verify, "verify_title", no_proof)
        m.setattr(pool, "warm", no_proof)
        m.setattr(docs, "mkdocs", no_proof)  # nor is the unchanged site built again
        # nor is a title checked, an engine emitted or a page rendered again: each is kept in the
        # build cache under what it was made from (`compiler.memo`)
        m.setattr(pipeline, "check_title", no_proof)
        m.setattr(emitter, "outputs", no_proof)
        m.setattr(docs, "render_pages", no_proof)
        assert main(["build", str(TOY), "--out", str(tmp_path)]) == 0
    again = capsys.readouterr().out
    assert "2 engines, 0 files changed" in again
    assert "verify   ok: 2 of 2 titles and variants fully proved" in again and "2 taken from the fresh record" in again
    # a tree of one's own needs --out
    assert main(["build", str(TOY)]) == 2
    assert "--out DIR" in capsys.readouterr().err


def test_build_after_an_erratum_on_a_fresh_clone_solves_only_the_changed_checks(tmp_path, capsys, monkeypatch):
    """A fresh clone has an empty verify cache, and its first build takes every title from the
    record: after a one-clause erratum the titles it touches are verified again, and (issue 33)
    only the checks whose key the erratum changed are solved; the others are filed in the cache
    from the record by their keys (`docs.proofs.seed_cache`). The toy's 2-train at $110: its
    buy_train and sell_shares read the price, but each of their checks is proved with the train
    prices as constants (`verify.prices`), for every price: no key changes, nothing is solved.
    Then a clause a proof reads by its value (the least price of a train between companies): the
    checks of the transitions that read it are solved again, and only they. The statuses are a
    cold run's."""
    import shutil

    from compiler.verify import verifier as verify
    from tests.conftest import TOY

    rules = tmp_path / "rules"
    shutil.copytree(TOY, rules)
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache-first"))
    assert main(["build", str(rules), "--out", str(tmp_path / "out")]) == 0
    record = tmp_path / "out" / "site" / "proofs.json"
    spec = rules / "toy.rules"
    solved: list[tuple[str, str]] = []
    original = verify.Verifier._solve

    def counting(self, tn, steps, invs, *rest):
        solved.extend((tn.name, inv.name) for inv in invs)
        return original(self, tn, steps, invs, *rest)

    monkeypatch.setattr(verify.Verifier, "_solve", counting)
    for erratum, clone, transitions in ((("price: $100", "price: $110"), "clone", set()),
                                        (("min_train_price: $1", "min_train_price: $20"), "clone-2", {"buy_train"})):
        before = json.loads(record.read_text())["titles"]
        text = spec.read_text()
        at = text.index('train "2"') if erratum[0].startswith("price") else 0
        spec.write_text(text[:at] + text[at:].replace(*erratum, 1))
        solved.clear()
        monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / f"cache-{clone}"))  # a fresh clone's
        assert main(["build", str(rules), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
        capsys.readouterr()
        after = json.loads(record.read_text())["titles"]
        changed = {(r[1], r[0]) for name in before
                   for r, k0, k1 in zip(before[name]["results"], before[name]["keys"], after[name]["keys"]) if k0 != k1}
        assert {tn for tn, _ in changed} == transitions, erratum
        assert set(solved) == changed, erratum
        assert len(solved) < sum(len(e["results"]) for e in before.values()) / 5
        for name in before:
            assert [r[:3] for r in after[name]["results"]] == [r[:3] for r in before[name]["results"]]


def test_build_of_the_titles_elsewhere_takes_the_committed_record(tmp_path, capsys, monkeypatch):
    """`rulec build --out DIR` (rulespecs/' titles, their engines and site written under DIR) read the
    record only under DIR/site, where there is none, and proved every title again (4 minutes on 2
    cores). A title whose record in the committed site/proofs.json is fresh is taken from it, as
    `rulec build` takes it; the pages are still written under DIR (here the docs stage is stood in
    for: what it is given is checked)."""
    from compiler import paths
    from compiler.docs import build as docs
    from compiler.verify import pool
    from compiler.verify import verifier as verify

    def no_proof(*args, **kwargs):
        raise AssertionError("a title with a fresh record in site/proofs.json was verified again")

    given = {}

    def documented(**kwargs):
        given.update(kwargs)
        (kwargs["root"] / "docs").mkdir(parents=True)
        return 0

    monkeypatch.setattr(verify, "verify_title", no_proof)
    monkeypatch.setattr(pool, "warm", no_proof)
    monkeypatch.setattr(docs, "build", documented)
    assert main(["build", "--out", str(tmp_path), "-q"]) == 0
    out = capsys.readouterr().out
    titles = len(given["loaded"].every_title())
    assert f"{titles} taken from the fresh record (site/proofs.json)" in out, out
    assert given["root"] == tmp_path / "site" and given["generated"] == tmp_path / "generated"
    assert set(given["reports"]) == {t.display_name for t in given["loaded"].every_title()}
    assert paths.SITE != tmp_path / "site"


def test_console_script_entry_point():
    done = subprocess.run([sys.executable, "-m", "compiler.app.cli", "titles"], capture_output=True, text=True)
    assert done.returncode == 0 and "1800" in done.stdout


def test_parser_builds():
    assert build_parser().prog == "rulec"


def _played_log(seed: int = 5) -> dict:
    """A finished 1800 game played with random legal actions on the map."""
    import random

    from compiler.emit.engines import game_class

    rng = random.Random(seed)
    game = game_class("1800")(["Ann", "Bob"], seed=seed)
    while not game.finished:
        game.process(rng.choice(game.legal_actions()))
    return game.to_log()


def test_replay_of_an_own_log_reaches_the_same_result(tmp_path, capsys):
    log = _played_log()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["finished"] and record["result"] == log["result"]
    assert record["end_reason"] == "bank_broken"



def test_replay_of_an_own_log_names_its_title_once(tmp_path, capsys):
    """rulec's own log has no game id: the replay said "replayed 837 actions of 1800 1800", the title
    standing in for the id; a divergence said "1800 1800: diverged" too."""
    log = _played_log()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("replayed ") and " of 1800: finished" in first, first
    log["actions"].insert(0, {"type": "sell_shares", "entity": "Ann", "entity_type": "player",
                              "shares": ["DRGW_1"], "percent": 10})
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "rulec replay: 1800: diverged at action 1" in err, err

def test_replay_of_a_variant_log_plays_the_variant(tmp_path, capsys):
    log = tmp_path / "game.json"
    assert main(["play", "1800", "--players", "3", "--variant", "three-player", "--games", "1", "--seed", "11",
                 "--json", "--log", str(log)]) == 0
    played = json.loads(capsys.readouterr().out)["games"][0]
    assert json.loads(log.read_text())["variant"] == "Three-Player"  # one game: one log
    assert main(["replay", str(log), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["variant"] == "Three-Player" and record["result"] == played["result"]


def test_replay_exits_1_on_a_different_result(tmp_path, capsys):
    log = _played_log()
    log["result"] = {name: value + 1 for name, value in log["result"].items()}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 1
    assert "differs" in capsys.readouterr().err


def test_replay_exits_1_on_an_illegal_action(tmp_path, capsys):
    log = _played_log()
    log["actions"].insert(0, {"type": "sell_shares", "entity": "Ann", "entity_type": "player",
                              "shares": ["DRGW_1"], "percent": 10})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 1
    assert "diverged at action 1" in capsys.readouterr().err


def test_play_json_reports_finished_games(tmp_path, capsys):
    log = tmp_path / "game.json"
    assert main(["play", "1800", "--games", "2", "--seed", "3", "--json", "--log", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["title"] == "1800" and out["players"] == 2 and len(out["games"]) == 2
    for game in out["games"]:
        assert game["finished"] and game["end_reason"] == "bank_broken"
        assert set(game) >= {"seed", "finished", "end_reason", "actions", "rounds", "revenue", "result"}
    assert out["actions_per_second"] > 0
    # the log of the first game replays to the same result
    assert main(["replay", str(log), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["result"] for r in records] == [g["result"] for g in out["games"]]


def test_play_refuses_a_bad_player_count(capsys):
    assert main(["play", "1800", "--players", "5"]) == 2
    assert "1800 takes 2 players, not 5" in capsys.readouterr().err
    assert main(["play", "1846", "--players", "9"]) == 2
    assert "1846 takes 3 to 5 players, not 9" in capsys.readouterr().err


def test_play_says_who_won_every_players_value_the_end_and_the_win_rate_by_seat(capsys):
    """`rulec play`: a line per game with its winner (the highest final value), every player's
    value, the end reason and the rounds played; then the wins by seat. `--json` gives the same
    figures: each game's `winners` and `seating`, and `win_rate_by_seat`."""
    assert main(["play", "1800", "--games", "3", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["play", "1800", "--games", "3", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    games = data["games"]
    assert len(games) == 3
    for number, game in enumerate(games, 1):
        best = max(game["result"].values())
        assert game["winners"] == [p for p in game["seating"] if game["result"][p] == best]
        assert sorted(game["seating"]) == ["Player 1", "Player 2"]
        line = next(line for line in text.splitlines() if line.startswith(f"game {number} (seed {game['seed']}):"))
        assert f"{game['winners'][0]} wins" in line
        for player, value in game["result"].items():
            assert f"{player} ${value}" in line
        assert f"ended by {game['end_reason'].replace('_', ' ')} after {game['rounds']} rounds" in line
    seats = data["win_rate_by_seat"]
    assert [s["seat"] for s in seats] == [1, 2] and sum(s["wins"] for s in seats) == 3
    for seat in seats:
        assert seat["wins"] == sum(game["seating"].index(game["winners"][0]) + 1 == seat["seat"] for game in games)
        assert seat["rate"] == round(seat["wins"] / 3, 3)
        assert f"seat {seat['seat']} {seat['wins']:g} of 3 ({100 * seat['wins'] / 3:.0f}%)" in text


def test_a_tie_shares_the_win_between_the_seats():
    """Players tied at the highest value all win; each of their seats counts a share of it."""
    from compiler.app.playout import Summary

    tie = {"seed": 1, "finished": True, "end_reason": "bank_broken", "actions": 10, "rounds": 3, "revenue": 0,
           "result": {"Player 1": 500, "Player 2": 500, "Player 3": 400},
           "seating": ["Player 2", "Player 3", "Player 1"], "winners": ["Player 2", "Player 1"]}
    alone = dict(tie, seed=2, result={"Player 1": 300, "Player 2": 200, "Player 3": 100}, winners=["Player 1"])
    summary = Summary("1800", None, 3, games=[tie, alone], currency="$")
    assert summary.wins_by_seat() == [0.5, 0.0, 1.5]
    assert [s["rate"] for s in summary.to_json()["win_rate_by_seat"]] == [0.25, 0.0, 0.75]
    text = summary.to_text("1800")
    assert "game 1 (seed 1): Player 2 and Player 1 tie for the win; Player 2 $500, Player 3 $400, Player 1 $500" in text
    assert "seat 1 0.5 of 2 (25%), seat 2 0 of 2 (0%), seat 3 1.5 of 2 (75%)" in text


def test_replay_until_past_the_end_of_the_log_says_so(tmp_path, capsys):
    """`replay --until N` past the log's last action stopped at its end without a word (break55):
    it prints the state after the last action and says where the log ends; at or before the end, no note."""
    log = tmp_path / "game.json"
    assert main(["play", "1800", "--seed", "2", "--quiet", "--log", str(log)]) == 0
    last = json.loads(log.read_text())["actions"][-1]["id"]
    capsys.readouterr()
    assert main(["replay", str(log), "--until", str(last + 50)]) == 0
    err = capsys.readouterr().err
    assert f"the log ends at action {last}, before {last + 50}: the state after it" in err
    assert main(["replay", str(log), "--until", str(last)]) == 0
    assert "the log ends" not in capsys.readouterr().err


def test_progress_off_a_terminal_is_a_plain_line_per_stage_and_quiet_prints_none(tmp_path, capsys):
    """Not on a terminal (here, captured), `play --games K` and `replay` of several logs print one
    plain line per stage on stderr (done/total, time taken; no escape codes) and nothing else
    there; `--quiet` and `--json` print no progress; stdout is the same either way."""
    log = tmp_path / "games.json"
    assert main(["play", "1800", "--games", "2", "--seed", "2", "--log", str(log)]) == 0
    shown = capsys.readouterr()
    assert "\x1b" not in shown.err + shown.out
    assert len(shown.err.splitlines()) == 1 and shown.err.startswith("play: 2/2 games in ")
    assert main(["play", "1800", "--games", "2", "--seed", "2", "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and quiet.out.splitlines()[:-1] == shown.out.splitlines()[:-1]  # not the speed
    assert main(["replay", str(log)]) == 0
    replayed = capsys.readouterr()
    assert "\x1b" not in replayed.err and replayed.err.splitlines()[-1].startswith("replay: 2/2 logs in ")
    assert main(["replay", str(log), "--quiet"]) == 0
    assert "replay:" not in capsys.readouterr().err
    assert main(["replay", str(log), "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_of_a_command_run_in_a_pipe_has_no_escape_codes():
    """`rulec play --games 2` as a process whose output is a pipe: the progress is one plain line."""
    done = subprocess.run([sys.executable, "-m", "compiler.app.cli", "play", "1800", "--games", "2"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "wins by seat" in done.stdout
    assert "\x1b" not in done.stdout + done.stderr
    assert done.stderr.startswith("play: 2/2 games in ") and len(done.stderr.splitlines()) == 1


def test_a_stage_counts_each_item_started_grows_past_its_total_and_says_so_in_one_line():
    """`compiler.progress`: `next` counts the item before it done, the last one when the stage
    ends well, not the one in hand at a failure; past the total (validate's extra games) the
    total grows."""
    import io

    from compiler.progress import Progress, elapsed_text

    stream = io.StringIO()
    progress = Progress("lines", stream)
    with progress.stage("validate", 2, "games") as stage:
        for game in ("game 1", "game 2", "game 3"):
            stage.next(game)
    with pytest.raises(RuntimeError), progress.stage("verify", 3, "titles") as stage:
        stage.next("1800")
        stage.next("18CO")
        raise RuntimeError("z3 died")
    with Progress("off", stream).stage("play", 5, "games") as stage:
        stage.next("seed 1")
    lines = stream.getvalue().splitlines()
    assert [line.split(" in ")[0] for line in lines] == ["validate: 3/3 games", "verify: 1/3 titles"]
    assert elapsed_text(52.34) == "52.3 s" and elapsed_text(112) == "1 min 52 s"


def test_validate_off_a_terminal_says_its_games_in_one_plain_line(capsys):
    """`rulec validate` not on a terminal: its one stage, the games played, as one plain line."""
    assert main(["validate", "1800", "--games", "1", "--actions", "40", "--want", "1"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.startswith("validate: 1/1 games in ") and len(err.splitlines()) == 1


def test_progress_is_a_bar_only_when_stdout_and_stderr_are_a_terminal(monkeypatch):
    """`Progress.choose`: a rich bar when both streams are a terminal, plain lines when either is
    not, nothing with --quiet or --json; the bar ends each stage with its plain line."""
    import io

    from compiler.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert Progress.choose().mode == "bar"
    assert Progress.choose(quiet=True).mode == "off" and Progress.choose(json=True).mode == "off"
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert Progress.choose().mode == "lines"
    screen = Terminal()
    with Progress("bar", screen).stage("play", 2, "games") as stage:
        stage.next("seed 1")
        stage.next("seed 2")
    shown = screen.getvalue()
    assert "\x1b[" in shown and "play: 2/2 games in " in shown


def test_compile_of_rulespecs_of_ones_own_needs_out_and_leaves_generated_alone(tmp_path, monkeypatch, capsys):
    """`rulec compile PATH` with a file outside rulespecs/ emitted only that file's titles into
    generated/ and deleted every other committed engine. Now it needs `--out DIR`, as `build`
    does, and writes DIR/generated. (The refusal is checked with the writer replaced, so that a
    regression cannot empty this checkout's generated/.)"""
    from compiler import paths
    from compiler.app import cli

    toy = paths.ROOT / "tests" / "fixtures" / "toy" / "toy.rules"
    compile_ = cli._compile

    def refuse(loaded, check_only, out, folder=None):
        assert folder is not None and folder != paths.GENERATED, "wrote rulespecs of its own into generated/"
        return compile_(loaded, check_only, out, folder)

    monkeypatch.setattr(cli, "_compile", refuse)
    assert main(["compile", str(toy)]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["compile", str(toy), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "generated" / "t_toy.py").is_file()
    assert main(["compile", str(toy), "--out", str(tmp_path), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["play", "1800", "--players", "0"], ["play", "1800", "--players", "-2"],
    ["play", "1800", "--games", "-1"], ["play", "1800", "--seed", "1", "--games", "-3"],
    ["replay", "LOG.json", "--until", "-5"], ["validate", "1800", "--games", "0"],
    ["validate", "1800", "--actions", "-1"], ["impact", "E.rules", "--to", "-1"],
    ["verify", "--jobs", "0"],
])
def test_counts_below_their_least_are_usage_errors(argv, capsys):
    """`--players 0` played the title's least players, `--games -1` "0 games finished", `--until -5`
    the state before any action: each exits 2 now, naming the option and its least value. (`play
    --games 0` stays: it loads the engine and plays nothing, which benchmarks/startup.py times.)"""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    option = argv[-2]
    assert f"argument {option}" in capsys.readouterr().err


def test_play_log_to_a_folder_that_does_not_exist_is_an_error_before_playing(tmp_path, capsys):
    """`--log` into a missing folder was a FileNotFoundError traceback after every game was played."""
    assert main(["play", "1800", "--log", str(tmp_path / "no" / "such" / "game.json")]) == 2
    err = capsys.readouterr().err
    assert "--log" in err and "Traceback" not in err


@pytest.mark.parametrize("text, words", [
    ("null", "is not a game log: a game log is a JSON object, not null"),
    ("[]", "holds no game log"),
    ('[{"title": "1800", "players": [], "actions": []}, 5]', "log 2 of 2 is not a game log"),
    ('{"title": "1800", "players": [{"id": 1, "name": "Ann"}], "actions": null}', "no `actions` list"),
    ('{"title": "1800", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}], '
     '"actions": [{"type": "redo", "entity": 1, "entity_type": "player"}]}', "no undo to take back"),
])
def test_replay_of_a_file_that_is_no_game_log_says_so(tmp_path, capsys, text, words):
    """`rulec replay` of JSON that is no game log: a traceback before (`'NoneType' object has no
    attribute 'get'`, `IllegalAction` from the undo reader), or, for an empty list, exit 0 with
    nothing said; exit 1 and one line saying what is wrong now."""
    path = tmp_path / "log.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_clause_the_emitter_cannot_compile_is_reported_by_play_not_a_traceback(monkeypatch, capsys):
    """An engine emitted in memory (a map overlay, a stale generated/) whose emitter stops on a clause
    (`EmitError`, with its span) ended `rulec play --map` in a traceback; now its place and why, exit 1."""
    from compiler import paths
    from compiler.diagnostics import Span
    from compiler.emit import emitter

    def stop(title, sources):
        raise emitter.EmitError("unknown name 'bond'", Span("overlay.rules", 12, 5, 12, 9))

    monkeypatch.setattr(emitter, "emit_title", stop)
    overlay = paths.ROOT / "tests" / "fixtures" / "18gj_test_map.rules"
    assert main(["play", "18 Grand Junction", "--players", "4", "--map", str(overlay), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "overlay.rules:12:5: error: cannot compile" in err and "unknown name 'bond'" in err


def test_check_of_a_tree_with_its_own_library_reads_no_second_one(tmp_path, capsys):
    """`rulec check COPY` of a copy of rulespecs/ (its lib/ with it) read rulespecs/lib too, for context,
    and failed on "E014 library '18xx' is defined twice". The copy's own library stands; the context's
    of the same name is not read."""
    from compiler import paths

    shutil.copytree(paths.RULESPECS / "lib", tmp_path / "lib")
    shutil.copy(paths.ROOT / "tests" / "fixtures" / "toy" / "toy.rules", tmp_path / "toy.rules")
    assert main(["check", str(tmp_path)]) == 0
    assert "checked 3 files, 1 title, 1 variant: 0 errors" in capsys.readouterr().out
    (tmp_path / "lib" / "tiles.rules").unlink()  # a library it lacks is still read from rulespecs/lib
    assert main(["check", str(tmp_path)]) == 0
    assert "checked 3 files" in capsys.readouterr().out


def test_a_folder_with_no_rulespec_is_an_error_not_a_clean_check(tmp_path, capsys):
    """`rulec check EMPTY_FOLDER` checked the library alone and said "0 errors" (exit 0): a mistyped
    folder passed. E090 now; and `--map FOLDER` says it is a folder, not "no such file"."""
    assert main(["check", str(tmp_path)]) == 1
    assert "error[E090]: no rulespec in" in capsys.readouterr().out
    assert main(["play", "1800", "--map", str(tmp_path)]) == 1
    assert "it is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["play", "1800"], ["validate", "1800", "--games", "1"]])
def test_a_map_overlay_that_is_a_device_says_so(capsys, command):
    """`rulec validate 1800 --map /dev/null` said "cannot read the map overlay /dev/null: no such file":
    it is there, a device. It says it is no regular file."""
    assert main([*command, "--map", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert "cannot read the map overlay /dev/null: not a regular file" in err and "no such file" not in err, err


@pytest.mark.parametrize("text, says", [
    ('{"title": "1846", "players": [{"id": 1, "name": "Ann"}], "actions": [{"type": "pa',
     ["log.json:1:79: error[E091]: not JSON: unterminated string", "the file ends there: cut short?",
      '"actions": [{"type": "pa']),
    # a log is often one line of thousands of characters: the part of it around the column
    ('{"title": "1846", "actions": [' + '{"type": "pass"}, ' * 200 + '{"type": "pa',
     ["log.json:1:3640: error[E091]: not JSON: unterminated string", '1 | ...e": "pass"}, {"type": "pa']),
    ('{"title": "1846",\n "players": [1,,2]}', ["log.json:2:16: error[E091]: not JSON: expecting value", '2 |  "players": [1,,2]',
                                                  "  |                ^"]),
    ("", ["log.json: error[E091]: the file is empty, not a game log (JSON)"]),
])
def test_a_log_that_is_not_json_is_shown_where_as_a_diagnostic(tmp_path, capsys, text, says):
    """`rulec replay` of a log cut short said "cannot read LOG: Expecting value: line 1 column 18211
    (char 18210)": no file:line:col, no line, no caret, and nothing of why. It says where, what was
    expected, shows the part of the line around it with a caret, and that the file ends there."""
    log = tmp_path / "log.json"
    log.write_text(text, encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"rulec replay: {log}") and "Traceback" not in err, err
    for words in says:
        assert words in err, (words, err)
    if len(err.splitlines()) == 4:  # the caret is under the column named
        _, _, shown, caret = err.splitlines()
        column = int(re.search(r"log\.json:\d+:(\d+):", err)[1])
        assert caret.index("^") == shown.rindex(text.splitlines()[-1][column - 1:column + 3]), err


def test_a_log_naming_an_option_the_title_lacks_says_so(tmp_path, capsys):
    """A log whose settings name an optional rule the title does not have: "1800 cannot be played yet:
    1800 has no option 'nope'; options: ['private_bidding']" (the engine's ValueError, read as a title
    not finished). It names the log's field, the option and the title's options."""
    log = _played_log()
    log["settings"] = {**(log.get("settings") or {}), "optional_rules": ["nope"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "settings.optional_rules names 'nope', which is no option of 1800; its options: private_bidding" in err
    assert "cannot be played yet" not in err, err


@pytest.mark.parametrize("command", [["check"], ["compile", "--out", "OUT"], ["build", "--out", "OUT", "-q"]])
def test_a_device_named_as_a_rulespec_is_an_error(tmp_path, capsys, command):
    """`rulec check /dev/null` said "checked 3 files, 0 titles: 0 errors" and exited 0, `compile /dev/null
    --out DIR` compiled 0 engines, `build /dev/null --out DIR` built a site of no title: a mistyped path
    passed (a pipe would have blocked the read). E090 now, and nothing is built."""
    command = [str(tmp_path) if word == "OUT" else word for word in command]
    assert main([*command, "/dev/null"]) == 1
    said = capsys.readouterr()
    assert "error[E090]: /dev/null is no rulespec: a device or a pipe" in said.out + said.err, said
    assert not (tmp_path / "site").exists()


def test_an_output_folder_the_system_refuses_is_one_line_not_a_traceback(tmp_path, capsys):
    """`--out` (compile, build, simulate) or `--html` (impact) naming a file, or a folder one cannot
    write: a NotADirectoryError or PermissionError traceback before; the path and the system's
    reason now, exit 1."""
    from compiler import paths

    taken = tmp_path / "a-file"
    taken.write_text("")
    toy = paths.ROOT / "tests" / "fixtures" / "toy" / "toy.rules"
    assert main(["compile", str(toy), "--out", str(taken)]) == 1
    assert capsys.readouterr().err == f"rulec compile: cannot use {taken / 'generated'}: Not a directory\n"


def test_replay_of_a_log_naming_a_variant_the_title_lacks_names_the_variant(tmp_path, capsys):
    """A rulec log of 1800 with `variant: "Nope"` was refused as "no title matches the log's '1800'",
    which 1800 is; the variant is named now."""
    log = {"engine": "rulec", "title": "1800", "variant": "Nope", "players": [{"id": "A", "name": "A"}],
           "settings": {"seed": 1}, "actions": []}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "no title matches the log's '1800' with variant 'Nope'" in capsys.readouterr().err


def test_check_of_a_map_overlay_finds_its_title_as_play_does_and_lists_the_titles(tmp_path, capsys):
    """`rulec play "18 Grand Junction" --map M` plays an overlay written `errata "Test map" of "18 grand
    junction"` (titles match by slug), but `rulec check M` said "overlays unknown title '18 grand
    junction'; help: titles defined: none", as it did for a title that is no title at all. The check
    finds the title as play does; an unknown one is E010 with rulespecs/' titles and the nearest."""
    from compiler import paths

    text = (paths.ROOT / "tests" / "fixtures" / "18gj_test_map.rules").read_text(encoding="utf-8")
    lower = tmp_path / "lower.rules"
    lower.write_text(text.replace('of "18 Grand Junction"', 'of "18 grand junction"'), encoding="utf-8")
    assert main(["check", str(lower)]) == 0
    assert "a map overlay: errata of '18 Grand Junction'" in capsys.readouterr().out
    unknown = tmp_path / "unknown.rules"
    unknown.write_text(text.replace('of "18 Grand Junction"', 'of "18 Grand Junktion"'), encoding="utf-8")
    assert main(["check", "--format", "json", str(unknown)]) == 1
    (found,) = json.loads(capsys.readouterr().out)
    assert found["code"] == "E010" and "did you mean `18 Grand Junction`" in found["message"], found
    assert found["help"] == "titles: 18 Grand Junction, 1800, 1846, 1880 Romania, 18CO"
    assert found["span"]["path"].endswith("unknown.rules") and found["span"]["line"] == 16


def test_check_of_a_map_overlay_checks_it_as_play_applies_it(tmp_path, capsys):
    """`rulec check OVERLAY` read the overlay with the library alone and refused it ("errata 'Test map'
    of '18 Grand Junction' overlays unknown title; titles defined: none"); with `rulespecs` beside it,
    1880 Romania's Amira map gave 11 false errors, applied to the title rather than its variant. It is
    checked now as `--map` applies it, on the title or the variant where it fits: clean; a clause it
    names that no variant has is its one error."""
    from compiler import paths

    for name in ("18gj_test_map.rules", "1880_amira_test_map.rules"):
        assert main(["check", str(paths.ROOT / "tests" / "fixtures" / name)]) == 0, capsys.readouterr().out
        assert "0 errors" in capsys.readouterr().out
    wrong = tmp_path / "map.rules"
    wrong.write_text((paths.ROOT / "tests" / "fixtures" / "1880_amira_test_map.rules").read_text(encoding="utf-8")
                     .replace("replace map:", "replace mapp:"), encoding="utf-8")
    assert main(["check", "--format", "json", str(wrong)]) == 1
    found = [(d["code"], d["message"]) for d in json.loads(capsys.readouterr().out) if d["severity"] == "error"]
    assert found == [("E012", "cannot replace property 'mapp': the base does not define it")]


def test_check_of_one_file_reads_what_it_builds_on_not_every_title(tmp_path, monkeypatch, capsys):
    """Issue 33: `rulec check rulespecs/1846-two-player.rules` parsed, resolved and checked all 13
    rulespecs (0.68 s for 1846.rules). It reads the file, the title it is a variant of and the
    libraries now, and still finds a mistake in the file (and no other file's); an overlay is read
    with the title it amends and that title's variants."""
    from compiler import paths
    from compiler.lang import pipeline

    shutil.copytree(paths.RULESPECS, tmp_path / "rulespecs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paths, "RULESPECS", tmp_path / "rulespecs")
    read = []
    parse_file = pipeline.parse_file
    monkeypatch.setattr(pipeline, "parse_file", lambda path, shown: read.append(shown) or parse_file(path, shown))
    variant = tmp_path / "rulespecs" / "1846-two-player.rules"
    assert main(["check", str(variant)]) == 0
    assert "checked 4 files, 1 title, 1 variant: 0 errors" in capsys.readouterr().out
    assert sorted(p.rsplit("/", 1)[-1] for p in read) == ["1846-two-player.rules", "1846.rules", "18xx.rules",
                                                          "tiles.rules"]
    # a title that extends another reads the one it extends
    read.clear()
    assert main(["check", str(tmp_path / "rulespecs" / "18-grand-junction.rules")]) == 0
    assert sorted(p.rsplit("/", 1)[-1] for p in read) == ["18-grand-junction.rules", "1846.rules", "18xx.rules",
                                                          "tiles.rules"]
    capsys.readouterr()
    other = tmp_path / "rulespecs" / "18co.rules"
    other.write_text(other.read_text(encoding="utf-8") + "\ntitle \"broken\" {", encoding="utf-8")
    text = variant.read_text(encoding="utf-8")
    variant.write_text(text.replace("variant \"Two-Player\" of \"1846\"", "variant \"Two-Player\" of \"1864\""),
                       encoding="utf-8")
    assert main(["check", str(variant)]) == 1
    out = capsys.readouterr().out
    assert "1846-two-player.rules:7:" in out and "error[E010]" in out and "18co.rules" not in out
    read.clear()
    assert main(["check", str(paths.ROOT / "tests" / "fixtures" / "18gj_test_map.rules")]) == 0
    assert sorted(p.rsplit("/", 1)[-1] for p in read) == ["18-grand-junction.rules", "1846.rules", "18xx.rules",
                                                          "tiles.rules"]


def test_titles_table_keeps_its_columns_for_a_long_variant_name(capsys):
    """`rulec titles` printed fixed-width columns that a long name broke ("Two-Player, 18xx.games" pushed its
    players and slug to the right). Every row's players range and slug start in the same column now, each
    variant under its title."""
    assert main(["titles"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if re.search(r"\d\.\.\d", line)]
    assert any("Two-Player, 18xx.games" in line for line in lines)
    # the cells of a row: runs of words with single spaces between them ("18 Grand Junction")
    cells = [[(m.start(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", line)] for line in lines]
    assert len({row[1][0] for row in cells}) == 1, lines  # the players range
    assert len({row[2][0] for row in cells}) == 1, lines  # the slug
    assert ("Two-Player, 18xx.games", "2..2", "two-player-18xx-games") in {tuple(c for _, c in row[:3]) for row in cells}
    assert all(line == line.rstrip() for line in lines)
    listed = [row[0][1] for row in cells]
    after = listed.index("1846")
    assert listed[after + 1:after + 5] == ["Two-Player", "18xx.games", "Two-Player, 18xx.games", "1880 Romania"]


def test_replay_lists_its_result_and_the_logs_in_one_order_by_rank(fixtures_dir, tmp_path, capsys):
    """`rulec replay` printed `result:` by player and `log result:` by rank ("p1 6180, p2 1803, p3 4950"
    over "p1 6180, p3 4950, p2 1803"): both by rank now, the winner first, so the lines compare place by
    place; where they differ, the log's in the replay's order."""
    log = fixtures_dir / "1846" / "12666.json"
    assert main(["replay", "--quiet", str(log)]) == 0
    lines = {line.split(":")[0]: line for line in capsys.readouterr().out.splitlines()}

    def listed(line):
        return [(name, int(value)) for name, value in re.findall(r"(\w+) (-?\d+)", line.split("(end")[0])]

    ours, theirs = listed(lines["result"]), listed(lines["log result"])
    assert ours == theirs == sorted(ours, key=lambda kv: -kv[1])
    data = json.loads(log.read_text(encoding="utf-8"))
    first, second = list(data["result"])[:2]
    data["result"][first], data["result"][second] = data["result"][second] - 1, data["result"][first] + 1
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", "--quiet", str(changed)]) == 1
    lines = {line.split(":")[0]: line for line in capsys.readouterr().out.splitlines()}
    assert [n for n, _ in listed(lines["log result"])] == [n for n, _ in listed(lines["result"])]


def test_validate_plays_the_games_it_is_told(capsys):
    """`rulec validate 1800 --games 2` played 8 games: while an action had fewer than --want states (200)
    it went on to 4 times --games. A count given is the count played now; the games beyond are played
    only when --games is not given (3, and up to 12 while an action is short)."""
    assert main(["validate", "1800", "--games", "2", "--actions", "40"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("validate: 2/2 games in "), err
    assert main(["validate", "1800", "--games", "2", "--actions", "40", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_play_and_validate_take_a_rulespec_path_as_build_does(tmp_path, capsys):
    """`rulec play`, `validate` took a title's name only: a title of one's own outside rulespecs/ could be
    built (`rulec build PATH --out DIR`) but not played. A path (a .rules file, or a folder of them)
    names the one title it defines now, played on an engine built in memory; `--variant` picks its
    variant; a path of two titles, or of none, is a usage error naming them."""
    from compiler import paths

    toy = paths.ROOT / "tests" / "fixtures" / "toy" / "toy.rules"
    assert main(["play", str(toy), "--games", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["games"][0]["finished"], summary
    assert "generated/" not in err  # no word of a missing committed engine: it has none
    assert main(["play", str(toy), "--variant", "rich", "--games", "1"]) == 0
    assert "Toy (Rich)" in capsys.readouterr().out
    assert main(["validate", str(toy), "--games", "1", "--actions", "40", "--want", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "Toy" and report["mismatches"] == [] and report["games"] == 1
    shutil.copy(toy, tmp_path / "toy.rules")
    (tmp_path / "other.rules").write_text(toy.read_text(encoding="utf-8").replace('title "Toy"', 'title "Other"', 1)
                                          .replace('of "Toy"', 'of "Other"'), encoding="utf-8")
    assert main(["play", str(tmp_path), "--games", "1"]) == 2
    assert "defines 2 titles (Other, Toy)" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "none.rules")]) == 2
    assert "no such file" in capsys.readouterr().err
    # a file of rulespecs/ plays its committed engine; a variant's file, that variant of its title
    assert main(["play", str(paths.RULESPECS / "1846-two-player.rules"), "--games", "0"]) == 0
    assert capsys.readouterr().out.startswith("1846 (Two-Player), 2 players")
    assert main(["play", str(paths.RULESPECS / "1880-romania-variants.rules"), "--games", "0"]) == 2
    assert "defines 3 variants of 1880 Romania" in capsys.readouterr().err
    assert main(["play", str(toy), "--map", str(paths.ROOT / "tests" / "fixtures" / "18gj_test_map.rules")]) == 2
    assert "outside it" in capsys.readouterr().err


def test_check_of_one_file_whose_head_spans_lines_finds_its_base(tmp_path, monkeypatch, capsys):
    """A variant's head written over two lines (`variant "Two-Player"` / `of "1846" ... {`), or with a
    comment in it, is one head to the parser: `rulec check FILE` read no base for it and said E010
    'overlays unknown title' with 'titles defined: none', though the full check was clean. A head in
    a block comment is no head."""
    from compiler import paths

    shutil.copytree(paths.RULESPECS, tmp_path / "rulespecs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paths, "RULESPECS", tmp_path / "rulespecs")
    variant = tmp_path / "rulespecs" / "1846-two-player.rules"
    text = variant.read_text(encoding="utf-8")
    head = 'variant "Two-Player" of "1846"'
    assert head in text
    for split in ('variant "Two-Player"\n  of "1846"', 'variant "Two-Player" // the 2p rules\n  of\n  "1846"',
                  'variant /* unofficial */ "Two-Player" of "1846"'):
        variant.write_text(text.replace(head, split, 1), encoding="utf-8")
        assert main(["check", str(variant)]) == 0, split
        assert "checked 4 files, 1 title, 1 variant: 0 errors" in capsys.readouterr().out, split
    # a commented-out head builds on nothing: the file is read with its real base only
    variant.write_text('/*\ntitle "Ghost" extends "Nowhere" {\n}\n*/\n' + text, encoding="utf-8")
    assert main(["check", str(variant)]) == 0
    assert "checked 4 files, 1 title, 1 variant: 0 errors" in capsys.readouterr().out


def test_titles_table_shows_names_with_brackets_as_written(capsys, tmp_path, monkeypatch):
    """The table is rich's, whose cells read `[...]` as markup: a variant named "Three-Player [rev]" was
    listed as "Three-Player", "[bold]" vanished, and a name holding "[/b]" ended `rulec titles` in a
    MarkupError traceback. Names are shown as written."""
    from compiler import paths

    shutil.copytree(paths.RULESPECS, tmp_path / "rulespecs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paths, "RULESPECS", tmp_path / "rulespecs")
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "rulespecs" / "1800-three-player.rules"
    text = spec.read_text(encoding="utf-8")
    assert 'variant "Three-Player" of "1800"' in text
    spec.write_text(text.replace('variant "Three-Player" of "1800"', 'variant "Three-Player [rev]" of "1800"', 1),
                    encoding="utf-8")
    spec = tmp_path / "rulespecs" / "1846-two-player.rules"
    text = spec.read_text(encoding="utf-8")
    assert 'variant "Two-Player" of "1846"' in text
    spec.write_text(text.replace('variant "Two-Player" of "1846"', 'variant "Two [/b]Player" of "1846"', 1),
                    encoding="utf-8")
    assert main(["titles"]) == 0
    out = capsys.readouterr().out
    assert "  Three-Player [rev]  " in out, out
    assert "  Two [/b]Player  " in out, out


def test_play_and_validate_of_a_rulespec_that_does_not_parse_show_why(tmp_path, capsys):
    """`rulec play PATH` of a title's file with a syntax error said "defines no title; name a file of one
    title", hiding the mistake: the file's diagnostics are shown now (file:line:col, the line, a caret,
    the code) and the command fails as for a title that does not check."""
    from compiler import paths

    text = (paths.ROOT / "tests" / "fixtures" / "toy" / "toy.rules").read_text(encoding="utf-8")
    assert "  first_round: stock §1\n" in text
    bad = tmp_path / "toy.rules"
    bad.write_text(text.replace("  first_round: stock §1\n", "  first_round: stock §1 }}\n", 1), encoding="utf-8")
    line = next(i for i, row in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1) if "stock §1 }}" in row)
    for command in (["play", str(bad), "--games", "0"], ["validate", str(bad), "--games", "1"]):
        assert main(command) == 1, command
        err = capsys.readouterr().err
        assert f"toy.rules:{line}:" in err and "error[E001]" in err and "^" in err, err
        assert "defines no title" not in err, err
        assert "does not check" in err, err


def test_check_of_a_variant_outside_rulespecs_reads_the_title_it_builds_on(tmp_path, capsys):
    """A house variant of one's own, outside rulespecs/ (`variant "Mine" of "1846"`), was read with the
    libraries alone: E010 "overlays unknown title '1846'", "titles defined: none", though 1846 is a
    title of rulespecs/. It is read with the files of the title it builds on, as a file of rulespecs/
    is, and its own mistakes are still found (and no other file's)."""
    mine = tmp_path / "mine.rules"
    mine.write_text('variant "Mine" of "1846" §1 {\n  replace players: 3..4 §1\n}\n', encoding="utf-8")
    assert main(["check", str(mine)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "checked 4 files, 1 title, 1 variant: 0 errors" in out, out
    mine.write_text('variant "Mine" of "1846" §1 {\n  replace playrs: 3..4 §1\n}\n', encoding="utf-8")
    assert main(["check", str(mine)]) == 1
    out = capsys.readouterr().out
    assert "mine.rules:2:3: error[E012]" in out and "E010" not in out, out
    # a title of one's own is read with the libraries alone, as before
    other = tmp_path / "other.rules"
    other.write_text('variant "Mine" of "No Such Title" §1 {\n}\n', encoding="utf-8")
    assert main(["check", str(other)]) == 1
    assert "overlays unknown title 'No Such Title'" in capsys.readouterr().out


def test_play_of_a_variant_outside_rulespecs_plays_it_on_its_title(tmp_path, capsys):
    """`rulec play mine.rules` of a house variant of 1846 outside rulespecs/ read no 1846 (E010,
    "titles defined: none"): it plays that variant of 1846 now, on an engine built in memory."""
    mine = tmp_path / "mine.rules"
    mine.write_text('variant "Mine" of "1846" §1 {\n  replace players: 3..4 §1\n}\n', encoding="utf-8")
    assert main(["play", str(mine), "--games", "0"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("1846 (Mine), 3 players")
    # a title's file of rulespecs/ still finds its variants in the other files
    from compiler import paths

    assert main(["play", str(paths.RULESPECS / "1846.rules"), "--variant", "Two-Player", "--games", "0"]) == 0
    assert capsys.readouterr().out.startswith("1846 (Two-Player), 2 players")


def test_verify_names_a_path_as_a_path(capsys):
    """`rulec verify mine/1846.rules` (as `play` and `validate` take a path) said "no title or variant
    'mine/1846.rules'": verify proves the titles of rulespecs/ by name; it now says so and names
    `rulec build PATH --out DIR`, which proves a title of one's own."""
    assert main(["verify", "mine/1846.rules"]) == 2
    err = capsys.readouterr().err
    assert "mine/1846.rules is a path" in err and "rulec build PATH --out DIR" in err


@pytest.mark.parametrize("make, reason", [
    (lambda p: None, "No such file or directory"),
    (lambda p: p.mkdir(), "Is a directory"),
    (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe"), "not UTF-8 text"),
])
def test_replay_of_an_unreadable_file_says_why_in_one_line(tmp_path, capsys, make, reason):
    """`rulec replay missing.json` said "cannot read missing.json: [Errno 2] No such file or directory:
    'missing.json'", Python's text naming the path twice; a binary file the codec's position."""
    path = tmp_path / "log.json"
    make(path)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"rulec replay: cannot read {path}: {reason}\n", err


def test_play_of_an_errata_file_names_its_title_and_map(capsys):
    """`rulec play OVERLAY.rules` (a map overlay, errata of one title) said "defines no title; name a file
    of one title": it now says whose errata it is and the command that plays it."""
    overlay = "tests/fixtures/18gj_test_map.rules"
    assert main(["play", overlay, "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (f"rulec play: {overlay} is errata of '18 Grand Junction', no title: play it on its title with "
                   f"`rulec play '18 Grand Junction' --map {overlay}`\n"), err


def test_play_of_a_folder_of_copies_names_each_title_once(tmp_path, capsys):
    """A folder holding the toy title three times (and a variant of it each time) listed "Toy, Toy, Toy"."""
    from tests.conftest import TOY

    toy = (TOY / "toy.rules").read_text(encoding="utf-8")
    for i in range(3):
        (tmp_path / f"toy{i}.rules").write_text(toy, encoding="utf-8")
    assert main(["play", str(tmp_path), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "defines 3 titles (Toy);" in err, err


def test_a_log_played_under_rules_of_ones_own_says_so_on_replay(tmp_path, capsys):
    """`rulec play mine/1846.rules --log` wrote a log naming the title alone, and `rulec replay` replayed a
    house rule's game under rulespecs/' 1846 without a word (matching, where the house rule did not
    come up); likewise a game played with `--map FILE`. The log now records them and the replay says so."""
    from compiler.paths import ROOT

    mine = tmp_path / "1846.rules"
    shutil.copy(ROOT / "rulespecs" / "1846.rules", mine)
    log = tmp_path / "game.json"
    assert main(["play", str(mine), "--players", "3", "--games", "1", "--log", str(log), "--quiet"]) == 0
    assert json.loads(log.read_text(encoding="utf-8"))["rules"] == str(mine)
    capsys.readouterr()
    assert main(["replay", str(log), "--quiet"]) == 0
    assert f"note: the log was played under the rules of {mine}; it is replayed under rulespecs/' 1846" \
        in capsys.readouterr().err
    overlay = tmp_path / "cash.rules"
    overlay.write_text('errata "Cash" of "1846" {\n  replace table starting_cash by players "c" assumed "test" {\n'
                       '    3 => $450\n    4 => $450\n    5 => $450\n  }\n}\n', encoding="utf-8")
    assert main(["play", "1846", "--map", str(overlay), "--games", "1", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    main(["replay", str(log), "--quiet"])
    assert f"note: the log was played with --map {overlay}; it is replayed without it" in capsys.readouterr().err
    assert main(["replay", str(log), "--map", str(overlay), "--quiet"]) == 0
    assert "note:" not in capsys.readouterr().err


def test_verify_selects_one_variant(monkeypatch, capsys):
    """`rulec verify 1846 --variant Two-Player` (as `validate` and `play` take one) and
    `rulec verify 1846/Two-Player` prove only that variant; `TITLE/VARIANT` was refused as a path.
    A `--variant` with no title is refused with what it needs."""
    from compiler.verify import pool

    asked = []
    monkeypatch.setattr(pool, "run", lambda titles, *a, **k: asked.append(titles) or 0)
    assert main(["verify", "1846", "--variant", "Two-Player"]) == 0
    assert main(["verify", "1846/Two-Player"]) == 0
    assert asked == [["1846/Two-Player"], ["1846/Two-Player"]]
    assert main(["verify", "--variant", "Two-Player"]) == 2
    assert "--variant needs the title" in capsys.readouterr().err
