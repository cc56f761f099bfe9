"""A replay tells the game each action's successor (`look_ahead`) before it processes the action: where the automatic pass asks
whether the operating company may run a paying route, the run the log declares next answers, checked,
with no route search (`Candidates._declared_run`). It must change what the asking costs, never what the
automatic pass decides:

- every fixture log replayed with and without the look-ahead is the same game after every action;
- a declared run that is no answer (a route on track the company does not reach, a train it does not
  own, a run another company declares, routes said to earn what the rules do not count) leaves the
  decision to the search, as without it;
- where the log's next action is the company's paying run, no search runs.

Skipped where ../shared/fixtures is absent.
"""

from __future__ import annotations

import copy
import json

import pytest

from compiler.app.command import title_for_log
from compiler.emit.engines import game_class
from compiler.lang.pipeline import load
from compiler.runtime import sitelog, track
from compiler.runtime.errors import IllegalAction

LOGS = [
    ("1846", "3099.json"),
    ("1846", "1846_game_end_reason_bankrupt.json"),
    ("1846", "19962.json"),
    ("1846", "12666.json"),
    ("18462pVariant", "11098.json"),
    ("18462pVariant", "18462pVariant_game_end_bank.json"),
    ("18CO", "18CO_game_end_bankrupt.json"),
    ("1880Romania", "1880_romania_game_end_final_phase.json"),
]


@pytest.fixture(scope="module")
def loaded():
    return load(check=False)


def _setup(fixtures_dir, loaded, folder, name):
    path = fixtures_dir / folder / name
    if not path.exists():
        pytest.skip(f"no fixture {folder}/{name}")
    log = json.loads(path.read_text(encoding="utf-8"))
    title = title_for_log(loaded, log)
    return log, game_class(title.name, title.variant)


def _told_and_not(cls, log):
    """The log's steps, and two games of it: one to be told each next action (`look_ahead`), one told nothing."""
    steps = sitelog.processed_actions(log)
    return steps, sitelog.game_from_log(cls, log, steps=steps), sitelog.game_from_log(cls, log, steps=steps)


def _next(steps, at: int):
    """The action that follows the `at`-th step (from 1), or None after the last."""
    return steps[at].action if at < len(steps) else None


def _seen(game) -> tuple:
    """What the automatic pass decides shows in: who acts, in which round and step, and the state."""
    acting = game.current_entity()
    return (game.g["round"], game.g.get("step"), game.g.get("operating"), str(acting),
            json.dumps(game.state(), sort_keys=True, default=str))


@pytest.mark.parametrize("folder,name", LOGS, ids=[n.removesuffix(".json") for _, n in LOGS])
def test_the_look_ahead_changes_no_decision_of_the_automatic_pass(fixtures_dir, loaded, folder, name):
    log, cls = _setup(fixtures_dir, loaded, folder, name)
    steps, ahead, plain = _told_and_not(cls, log)
    declared = 0
    for at, step in enumerate(steps, 1):
        then = _next(steps, at)
        ahead.look_ahead(then)
        ahead.process(copy.deepcopy(step.action))
        plain.process(copy.deepcopy(step.action))
        assert _seen(ahead) == _seen(plain), f"after action {step.label}"
        declared += bool(then and then.get("type") == "run_routes" and then.get("routes"))
    assert declared > 0  # the log runs trains: the look-ahead was asked


def _at_a_run(fixtures_dir, loaded):
    """1846 3099 just before the action after which a company with trains comes to its run step and the
    log's next action is its paying run: (the class, the game then, the action, the run)."""
    log, cls = _setup(fixtures_dir, loaded, "1846", "3099.json")
    steps = sitelog.processed_actions(log)
    game = sitelog.game_from_log(cls, log, steps=steps)
    for at, step in enumerate(steps[:-1], 1):
        then = steps[at].action
        if then.get("type") == "run_routes" and then.get("routes") and step.action.get("type") != "run_routes":
            trial = game.copy()
            trial.process(copy.deepcopy(step.action))
            if trial.g.get("step") == "run_routes":
                return cls, game, step.action, then
        game.look_ahead(then)
        game.process(copy.deepcopy(step.action))
    pytest.fail("no company comes to its run step before a paying run in 3099")


def _after(game, action, then=None) -> tuple:
    trial = game.copy()
    trial.look_ahead(then)
    trial.process(copy.deepcopy(action))
    return _seen(trial)


def test_a_declared_run_that_is_no_answer_leaves_the_decision_to_the_search(fixtures_dir, loaded):
    _cls, game, action, run = _at_a_run(fixtures_dir, loaded)
    plain = _after(game, action)
    assert plain[1] == "run_routes"  # the company holds its run step: it has a paying run
    unreached = copy.deepcopy(run)
    unreached["routes"][0]["connections"] = [["A1", "A3"]]
    stranger = copy.deepcopy(run)
    stranger["entity"] = next(c.id for c in game.corporations if c.id != str(game._from_log_ids(run)["entity"]))
    unowned = copy.deepcopy(run)
    unowned["routes"][0]["train"] = "9-9"
    misstated = copy.deepcopy(run)  # its routes legal, but said to earn nothing, which the rules do not count
    for route in misstated["routes"]:
        route["revenue"] = 0
    for then in (run, unreached, stranger, unowned, misstated, {**run, "routes": []},
                 {"type": "pass", "entity": run["entity"]}):
        assert _after(game, action, then) == plain, then


def test_the_log_s_paying_run_answers_with_no_route_search(fixtures_dir, loaded, monkeypatch):
    _cls, game, action, run = _at_a_run(fixtures_dir, loaded)
    searches = []
    search = track.best_routes

    def counted(*args, **kwargs):
        searches.append(args[1])
        return search(*args, **kwargs)

    monkeypatch.setattr(track, "best_routes", counted)
    _after(game, action, run)
    assert searches == []
    _after(game, action)
    assert searches  # without the look-ahead, the search answers


@pytest.mark.parametrize("folder,name", [LOGS[0], LOGS[4]], ids=["3099", "11098"])
def test_the_look_ahead_s_action_tried_legal_is_redone_as_processing_it_would_do(fixtures_dir, loaded, folder, name):
    """The automatic pass tries the log's next action (a declared run, an action of the company's step) and
    keeps its trial's changes where it is legal and nothing changes after (`Listing._declared_trial`):
    `process`, given that action next, makes them again rather than dispatch it anew. The same game after
    each action as a twin told nothing ahead, board and random draws included; and the trial is only redone
    for the action it was made for."""
    log, cls = _setup(fixtures_dir, loaded, folder, name)
    steps, ahead, plain = _told_and_not(cls, log)
    redone = 0
    for at, step in enumerate(steps, 1):
        then = _next(steps, at)
        kept = ahead._kept_trial
        redone += kept is not None and kept[0] == ahead._from_log_ids(step.action)
        assert kept is None or len(kept) == 5  # (no random play here: only the look-ahead's)
        ahead.look_ahead(then)
        ahead.process(copy.deepcopy(step.action))
        plain.process(copy.deepcopy(step.action))
        assert ahead.state() == plain.state(), f"after action {step.label}"
        assert ahead.rng.getstate() == plain.rng.getstate()
        assert ahead.board.placed == plain.board.placed and ahead.board.tokens == plain.board.tokens
    assert redone > 50
    # kept for one action only: another (a pass in its place, refused or not) is dispatched anew
    game = sitelog.game_from_log(cls, log, steps=steps)
    for at, step in enumerate(steps, 1):
        then = _next(steps, at)
        game.look_ahead(then)
        game.process(copy.deepcopy(step.action))
        if game._kept_trial is not None and then is not None and then.get("type") == "run_routes":
            twin = game.copy()
            assert twin._kept_trial is None  # (a copy redoes nothing of its original's)
            other = {"type": "pass", "entity": then["entity"], "entity_type": then.get("entity_type")}
            refused = []
            for each in (game, twin):
                try:
                    each.process(copy.deepcopy(other))
                except IllegalAction:
                    refused.append(each)
            assert game.state() == twin.state() and len(refused) in (0, 2)
            break
    else:
        pytest.fail("no run of the log kept")


def test_a_run_given_by_connections_reads_as_on_the_whole_reach_graph(fixtures_dir, loaded, monkeypatch):
    """`route_revenue` reads routes given by hex chains on the reach graph cut to their chains' end hexes
    (`_chain_ends`): every run of 3099 (and each with a route that no track joins) is answered as the
    whole reach graph, and the whole map where that refuses, answer it: the same runs and revenue, the
    same refusal."""
    from compiler.runtime.track import routes

    def whole(board, company, given, phase, trains=None, extras=routes.NO_BONUSES):
        try:
            return routes._route_revenue_on(routes._reach_graph(board, company, phase), company, given, trains, extras)
        except IllegalAction:
            return routes._route_revenue_on(routes._route_graph(board, company, phase), company, given, trains, extras)

    def answer(fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except IllegalAction as exc:
            return ("refused", str(exc))

    cut = routes.route_revenue
    asked = []

    def compared(board, company, given, phase, trains=None, extras=routes.NO_BONUSES):
        found = answer(cut, board, company, given, phase, trains, extras)
        assert found == answer(whole, board, company, given, phase, trains, extras)
        if given and given[0].get("connections"):
            astray = [{**given[0], "connections": [*given[0]["connections"], ["A1", "A3"]]}, *given[1:]]
            assert answer(cut, board, company, astray, phase, trains, extras) \
                == answer(whole, board, company, astray, phase, trains, extras)
            asked.append(company)
        if isinstance(found, tuple):
            raise IllegalAction(found[1])
        return found

    monkeypatch.setattr(track, "route_revenue", compared)
    log, cls = _setup(fixtures_dir, loaded, "1846", "3099.json")
    assert sitelog.replay(cls, log, monitor=False).divergence is None
    assert len(asked) > 50
