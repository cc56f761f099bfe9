"""`rulec impact`: which saved games, proofs and engine functions an erratum changes.

The games are the 1846 fixture logs, compared only as far as they need to be (`to`); the proofs
are the toy title's (tests/fixtures/toy), whose checks take a second."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compiler.app.cli import main
from compiler.verify.impact import impact, title_impact, amend
from compiler.runtime.sitelog import processed_actions
from compiler.verify.verifier import Cache

from tests.conftest import TOY

#: a short 1846 log (72 actions): four 2-trains bought, a private bought by a corporation
SHORT = ("1846", "222264.json")
#: a shorter one (46 actions)
SHORTER = ("1846", "hs_cvjhogoy_1599504419.json")

RE_CITED = """errata "Re-cited" of "1846" {
  replace private_purchase_from_phase: "I" §"Purchasing Private Companies", supplement from "the rules, second printing"
  replace action end_game(player: player) "The players agree to end the game" assumed "reworded for the test" {
    require not in_round(draft) else "no game ends by agreement during the opening draft"
    do end_game_now(agreement)
  }
}
"""
DEARER_2_TRAINS = """errata "Dearer 2-trains" of "1846" {
  amend train "2" §"Buying Trains" {
    price: $90 assumed "an invented erratum for the test"
  }
}
"""
NO_PRIVATES_IN_PHASE_I = """errata "No private purchases in phase I" of "1846" {
  replace private_purchase_from_phase: "II" §"Purchasing Private Companies", assumed "an invented erratum for the test"
}
"""
DIVIDENDS_TO_NOBODY = """errata "Dividends into the pool" of "Toy" {
  replace procedure pay_dividends(corporation: corporation, paid: money) "Pay the dividends into the bank pool" §3 {
    for c in corporation.certificates {
      let market = pool
      if opens_holding(c) {
        transfer pay_per_share(corporation, holder_of(c), paid) from bank to market
      }
    }
  }
}
"""


def _errata(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "errata.rules"
    path.write_text(text, encoding="utf-8")
    return path


def _first(log_path: Path, test) -> int:
    """The log's number of the first action passing `test` among those standing (not undone)."""
    log = json.loads(log_path.read_text(encoding="utf-8"))
    return next(step.number for step in processed_actions(log) if test(step.raw))


def test_an_erratum_that_only_re_cites_and_rewords_changes_no_game_and_no_proof(tmp_path, fixtures_dir):
    logs = [fixtures_dir.joinpath(*SHORT), fixtures_dir.joinpath(*SHORTER)]
    report = impact(_errata(tmp_path, RE_CITED), logs, jobs=1, cache=Cache(None))
    assert [g.status for g in report.games] == ["unchanged", "unchanged"]
    assert [g.actions for g in report.games] == [72, 46]
    # the title, then its variants and the implementation's readings on top of them: an erratum of
    # the title is an erratum of each
    assert [t.title for t in report.titles] == [
        "1846", "1846 (Two-Player)", "1846 (18xx.games)", "1846 (Two-Player, 18xx.games)"]
    for title in report.titles:
        assert {(c.kind, c.name, c.change) for c in title.clauses} == {
            ("property", "private_purchase_from_phase", "wording"), ("action", "end_game", "wording")}
        assert title.proofs is not None and title.proofs.skipped and not title.proofs.changes
    assert report.summary() == "0 of 2 games change; the errata only reword or re-cite: no rule changes its meaning"


def test_an_erratum_the_18xx_games_reading_overrides_changes_no_game_of_the_site(tmp_path, fixtures_dir):
    """The reading replaces auto_pass (18xx.games' own test): an erratum of the rulebook's auto_pass
    changes the title's engine, not the rules the site's games are played by; no replay is needed."""
    errata = _errata(tmp_path, 'errata "Auto-pass" of "1846" {\n'
                               '  replace auto_pass: false §"Stock Round", assumed "an invented erratum for the test"\n}\n')
    report = impact(errata, [fixtures_dir.joinpath(*SHORTER)], jobs=1, proofs=False, variants=False)
    (game,) = report.games
    assert game.status == "unchanged" and "1846 (18xx.games) replaces every clause" in game.message
    assert game.actions == 0  # not replayed
    assert [(c.name, c.change) for c in report.titles[0].clauses] == [("auto_pass", "meaning")]
    assert report.titles[0].engine  # the rulebook's engine does change


def test_a_dearer_train_changes_each_game_at_the_first_purchase_of_that_train(tmp_path, fixtures_dir):
    log = fixtures_dir.joinpath(*SHORT)
    first = _first(log, lambda a: a["type"] == "buy_train" and str(a.get("train", "")).startswith("2-"))
    report = impact(_errata(tmp_path, DEARER_2_TRAINS), [log], to=first + 2, jobs=1, proofs=False, variants=False)
    (game,) = report.games
    assert (game.status, game.number) == ("changes", first)
    assert game.retaken == {"price": (80, 90)}  # the bank sells at the printed price: the new one
    buyer = game.action["entity"]
    fields = {k: (a, b) for k, a, b in game.fields}
    assert fields[f"corporations.{buyer}.treasury"][1] == fields[f"corporations.{buyer}.treasury"][0] - 10
    assert fields["bank.cash"][1] == fields["bank.cash"][0] + 10
    assert "corporations" in game.text() and "price 90 (logged 80)" in game.text()
    assert report.summary() == f"1 of 1 game changes; the first at action {first}"


def test_an_erratum_forbidding_an_action_a_log_takes_stops_it_there(tmp_path, fixtures_dir):
    log = fixtures_dir.joinpath(*SHORT)
    first = _first(log, lambda a: a["type"] == "buy_company" and a.get("entity_type") == "corporation")
    report = impact(_errata(tmp_path, NO_PRIVATES_IN_PHASE_I), [log], to=first + 2, jobs=1, proofs=False, variants=False)
    (game,) = report.games
    assert (game.status, game.number) == ("no longer replays", first)
    assert game.rule == '§"Purchasing Private Companies"' and game.message == "not yet in this phase"
    assert game.changed


def test_an_erratum_paying_money_to_nobody_fails_money_conserved_with_its_counterexample(tmp_path):
    amendment = amend(_errata(tmp_path, DIVIDENDS_TO_NOBODY), [TOY])
    title = title_impact(amendment, "Toy", cache=Cache(None))
    assert [(c.kind, c.name, c.change) for c in title.clauses] == [("procedure", "pay_dividends", "meaning")]
    assert title.proofs is not None
    changes = {(c.invariant, c.transition): c for c in title.proofs.changes}
    assert set(changes) == {("money_conserved", "dividend")}
    change = changes[("money_conserved", "dividend")]
    assert (change.before, change.after) == ("proved", "counterexample")
    assert "from bank to pool" in change.detail and "cash:bank" in change.detail
    assert title.proofs.transitions == ["dividend"]  # only the checks that read the procedure ran again
    assert [c.name for c in title.engine if c.name != "DATA"] == ["r_pay_dividends"]


def test_an_erratum_of_a_title_is_proved_on_its_variants_too(tmp_path):
    """The toy's variant "Rich" (more cash) pays its dividends by the title's procedure: the
    erratum breaks money_conserved there too; the variant's engine changes the same function."""
    from compiler.verify.impact import amendment_titles

    amendment = amend(_errata(tmp_path, DIVIDENDS_TO_NOBODY), [TOY])
    assert amendment_titles(amendment) == [("Toy", None), ("Toy", "Rich")]
    rich = title_impact(amendment, "Toy", cache=Cache(None), variant="Rich")
    assert rich.title == "Toy (Rich)"
    assert [(c.kind, c.name, c.change) for c in rich.clauses] == [("procedure", "pay_dividends", "meaning")]
    assert rich.proofs is not None
    assert {(c.invariant, c.transition, c.before, c.after) for c in rich.proofs.changes} == {
        ("money_conserved", "dividend", "proved", "counterexample")}
    assert [c.name for c in rich.engine if c.name != "DATA"] == ["r_pay_dividends"]


def test_the_command_prints_the_report_and_writes_its_page(tmp_path, capsys):
    """With the errata file among the rulespecs it reads, the command measures the rulespecs
    without it against the rulespecs with it: what an erratum already committed changes."""
    shutil.copy(TOY / "toy.rules", tmp_path / "toy.rules")
    errata = _errata(tmp_path, DIVIDENDS_TO_NOBODY)
    assert main(["impact", str(errata), "--rules", str(tmp_path), "--html", str(tmp_path / "page"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "money_conserved after dividend: proved -> counterexample" in out
    assert out.rstrip().endswith("no game to compare; 2 proof statuses change")  # the toy's and its variant's
    assert "Toy (Rich): procedure pay_dividends (meaning)" in out
    page = (tmp_path / "page" / "index.html").read_text(encoding="utf-8")
    assert "money_conserved" in page and "r_pay_dividends" in page


@pytest.mark.parametrize("text, code", [
    ('title "Mine" {\n}\n', "E017"),
    ('errata "Mine" of "1846" {\n  implementation: "elsewhere"\n}\n', "E017"),
    ('errata "Mine" of "1847" {\n}\n', "E010"),
    ('errata "Mine" of "1846" {\n  replace nonesuch: 3\n}\n', "E012"),
])
def test_errata_that_cannot_be_measured_are_refused_with_a_diagnostic(tmp_path, capsys, text, code):
    assert main(["impact", str(_errata(tmp_path, text)), "--no-proofs", "-q"]) == 1
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and "errata.rules:" in err



def test_a_log_that_is_not_there_is_an_error(tmp_path, capsys):
    """`rulec impact E.rules /nonexistent.json --no-proofs` reported on no game and exited 0."""
    missing = tmp_path / "nonexistent.json"
    assert main(["impact", str(_errata(tmp_path, RE_CITED)), str(missing), "--no-proofs", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"rulec impact: no such log: {missing}" and "Traceback" not in err

@pytest.mark.parametrize("where, says", [
    ("/dev/null", "/dev/null: not a regular file (a device or a pipe)"),
    ("folder", "folder: a folder, not a file of errata"),
    ("nonexistent.rules", "nonexistent.rules: no such file"),
])
def test_errata_that_are_no_file_say_what_they_are(tmp_path, capsys, where, says):
    """`rulec impact /dev/null` said "cannot read the errata /dev/null: no such file": it is there, it
    is a device; a folder was "no such file" too. Each says what is wrong with it."""
    (tmp_path / "folder").mkdir()
    path = where if where.startswith("/") else str(tmp_path / where)
    assert main(["impact", path, "--no-proofs", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulec impact: cannot read the errata ") and says in err and "Traceback" not in err, err


def test_a_refused_action_is_retaken_only_at_another_amount_never_on_another_thing():
    """An action the amended rules refuse is taken as the one legal action that differs from it in a
    price alone; one that would buy another company, or that several actions could stand for, is not."""
    from compiler.verify.impact import _retake

    class Game:
        def __init__(self, legal):
            self.legal = legal

        def legal_actions(self):
            return self.legal

        def _from_log_ids(self, action):
            return {**action, "entity": {"B&O": "BO"}.get(action["entity"], action["entity"])}

    logged = {"type": "buy_company", "entity": "B&O", "company": "MS", "price": 60}
    dearer = {"type": "buy_company", "entity": "BO", "company": "MS", "price": 70}
    other = {"type": "buy_company", "entity": "BO", "company": "BIG4", "price": 60}
    assert _retake(Game([dearer, other]), logged) == (dearer, {"price": (60, 70)})
    assert _retake(Game([other]), logged) is None
    assert _retake(Game([dearer, {**dearer, "price": 80}]), logged) is None


@pytest.mark.parametrize("bad", [None, 7, "text", {"title": "1846", "players": [], "actions": [3]},
                                 {"title": "1846", "players": [], "actions": [
                                     {"type": "redo", "entity": "p1", "entity_type": "player"}]}])
def test_a_file_that_is_no_game_log_is_reported_not_a_traceback(tmp_path, bad):
    """A log file holding JSON null, a number, an action that is no object, or a redo with nothing
    to take back: an `AttributeError` traceback before; a game reported "error" now."""
    log = tmp_path / "bad.json"
    log.write_text(json.dumps(bad), encoding="utf-8")
    report = impact(_errata(tmp_path, NO_PRIVATES_IN_PHASE_I), [log], jobs=1, proofs=False, variants=False)
    (game,) = report.games
    assert game.status == "error" and game.message.startswith("not a game log: ")


def test_a_rules_path_that_is_not_there_is_an_error(tmp_path, capsys):
    """`rulec impact E.rules --rules /nonexistent` read no rulespec and said the errata's title was
    unknown, listing no titles ("help: titles: "): the path was the mistake, not the title."""
    missing = tmp_path / "nonexistent"
    assert main(["impact", str(_errata(tmp_path, RE_CITED)), "--rules", str(missing), "--no-proofs", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"rulec impact: --rules {missing}: no such file or folder" and "E010" not in err


@pytest.mark.parametrize("where, says", [("file", "is a file, not a folder"), ("file/page", "which is a file")])
def test_an_html_folder_it_cannot_write_is_refused_before_the_games(tmp_path, capsys, monkeypatch, where, says):
    """`rulec impact E.rules --html FILE` replayed every game and ran the proofs, printed the report,
    then stopped on "cannot use FILE: File exists"; the folder is checked first, as simulate's --out."""
    (tmp_path / "file").write_text("x")
    monkeypatch.setattr("compiler.verify.impact.impact", lambda *a, **k: pytest.fail("measured"))
    assert main(["impact", str(_errata(tmp_path, RE_CITED)), "--html", str(tmp_path / where),
                 "--no-proofs", "-q"]) == 2
    err = capsys.readouterr().err
    assert "--html" in err and says in err, err


def test_a_named_log_that_cannot_be_read_fails_the_command(tmp_path, capsys):
    """`rulec impact E.rules broken.json` listed the log as "cannot read", summed up "no game to
    compare" and exited 0, as for an erratum that changes no game. The summary counts the logs in
    error and the command exits 1, as for a log that is not there."""
    log = tmp_path / "broken.json"
    log.write_text("{", encoding="utf-8")
    assert main(["impact", str(_errata(tmp_path, RE_CITED)), str(log), "--no-proofs", "-q"]) == 1
    out = capsys.readouterr().out
    assert "cannot read" in out and "no game to compare; 1 log in error (above);" in out, out


@pytest.mark.parametrize("flags, said", [([], True), (["--no-proofs"], False), (["--json"], False), (["--quiet"], False)])
def test_the_proofs_minutes_and_no_proofs_are_said_up_front_on_a_terminal(tmp_path, monkeypatch, flags, said):
    """`rulec impact` spent some 3 minutes on the proofs with no word of `--no-proofs`: on a terminal it says
    so before the games are replayed (not with --json or --quiet, nor when the proofs are left out)."""
    import io
    import sys

    from compiler.verify import impact as impact_module
    from compiler.verify.impact import ImpactError

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def started(*args, **kwargs):
        sys.stderr.write("<the games start>\n")
        raise ImpactError("stopped by the test")

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(impact_module, "impact", started)
    errata = tmp_path / "errata.rules"
    errata.write_text(RE_CITED, encoding="utf-8")
    assert main(["impact", str(errata), *flags]) == 1
    shown = sys.stderr.getvalue()
    assert "<the games start>" in shown
    assert ("--no-proofs" in shown.split("<the games start>")[0]) is said


def test_missing_errata_are_said_before_the_proofs_minutes(tmp_path, monkeypatch):
    """`rulec impact missing.rules` on a terminal said the proofs would take minutes, then that the file
    was not there: the error comes alone, before any word of the work."""
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", Terminal())
    missing = tmp_path / "missing.rules"
    assert main(["impact", str(missing)]) == 1
    shown = sys.stderr.getvalue()
    assert shown.strip() == f"rulec impact: cannot read the errata {missing}: no such file", shown
