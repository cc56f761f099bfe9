"""Reading game logs as 18xx.games writes them (compiler/runtime/sitelog.py): undo and redo with the
site's meaning, skipped entries, messages, programs and their auto actions, players by id, the end of a
game by agreement, and an operating company's later-step action passing the steps before it."""

from __future__ import annotations

import copy
import re
import random

import pytest

from compiler.emit.engines import game_class
from compiler.runtime import sitelog
from compiler.runtime.errors import IllegalAction

Game = game_class("1800")


def _actions(n: int, seed: int = 3) -> list[dict]:
    """The first `n` actions of a random legal 1800 game (two players)."""
    rng = random.Random(seed)
    g = Game(["Ann", "Bob"], seed=seed)
    out = []
    while len(out) < n:
        action = g.random_legal_action(rng)
        g.process(action)
        out.append(action)
    return out


def _log(actions: list[dict]) -> dict:
    """A site-style log: players by numeric id, actions numbered as the site numbers them."""
    ids = {"Ann": 11, "Bob": 22}
    numbered = []
    for i, a in enumerate(actions, 1):
        a = dict(a)
        if a.get("entity_type") == "player" and a.get("entity") in ids:
            a["entity"] = ids[a["entity"]]
        numbered.append({**a, "id": i})
    return {"title": "1800", "players": [{"id": 11, "name": "Ann"}, {"id": 22, "name": "Bob"}],
            "settings": {"seed": 3}, "actions": numbered}


def _state_of(actions: list[dict]) -> dict:
    g = Game(["Ann", "Bob"], seed=3)
    for a in actions:
        g.process(a)
    return g.state()


def _replayed(log: dict) -> dict:
    done = sitelog.replay(Game, copy.deepcopy(log))
    assert done.divergence is None, done.divergence
    return done.game.state()


def test_undo_takes_back_the_last_action_and_redo_restores_it():
    a = _actions(8)
    u = {"type": "undo", "entity": "Ann", "entity_type": "player"}
    r = {"type": "redo", "entity": "Ann", "entity_type": "player"}
    log = _log(a[:6] + [u])
    assert _replayed(log) == _state_of(a[:5])
    log = _log(a[:6] + [u, u])
    assert _replayed(log) == _state_of(a[:4])
    log = _log(a[:6] + [u, u, r])
    assert _replayed(log) == _state_of(a[:5])  # a redo restores what the last undo took back
    log = _log(a[:6] + [u, u, r, r])
    assert _replayed(log) == _state_of(a[:6])


def test_undo_to_an_action_id_takes_back_every_action_after_it():
    a = _actions(8)
    log = _log(a[:7])
    log["actions"].append({"type": "undo", "entity": 11, "entity_type": "player", "action_id": 3, "id": 8})
    assert _replayed(log) == _state_of(a[:3])
    log["actions"].append({"type": "redo", "entity": 11, "entity_type": "player", "id": 9})
    assert _replayed(log) == _state_of(a[:7])
    zero = _log(a[:4])
    zero["actions"].append({"type": "undo", "entity": 11, "entity_type": "player", "action_id": 0, "id": 5})
    assert _replayed(zero) == _state_of([])


def test_an_action_after_undos_drops_the_redo_stack():
    a = _actions(8)
    u = {"type": "undo", "entity": "Ann", "entity_type": "player"}
    r = {"type": "redo", "entity": "Ann", "entity_type": "player"}
    log = _log(a[:5] + [u, a[4], r])
    with pytest.raises(IllegalAction, match="no undo to take back"):
        sitelog.replay(Game, log)
    log = _log(a[:5] + [u, a[4], a[5]])
    assert _replayed(log) == _state_of(a[:6])


def test_messages_are_kept_never_undone_and_never_processed():
    a = _actions(6)
    m = {"type": "message", "entity": "Bob", "entity_type": "player", "message": "gl"}
    u = {"type": "undo", "entity": "Ann", "entity_type": "player"}
    log = _log(a[:4] + [m, u])
    # the undo skips the message and takes back the action before it
    assert _replayed(log) == _state_of(a[:3])
    standing = sitelog.standing_actions(log["actions"])
    assert [x.get("type") for _, x in standing][-1] == "message"


def test_skipped_entries_are_not_read():
    a = _actions(6)
    log = _log(a[:4])
    log["actions"].insert(2, {**log["actions"][2], "skip": True, "id": 99})
    log["actions"].insert(3, {"type": "undo", "entity": 11, "entity_type": "player", "skip": True, "id": 100})
    assert _replayed(log) == _state_of(a[:4])


def test_a_programs_auto_actions_follow_its_carrier_in_order():
    a = _actions(6)
    carrier = {"type": "program_share_pass", "entity": "Ann", "entity_type": "player",
               "auto_actions": [a[2], a[3]]}
    log = _log(a[:2] + [carrier, a[4]])
    steps = sitelog.processed_actions(log)
    assert [(s.number, s.auto) for s in steps] == [(1, 0), (2, 0), (3, 1), (3, 2), (4, 0)]
    assert _replayed(log) == _state_of(a[:5])


def test_a_programs_own_bookkeeping_among_auto_actions_is_recorded_only():
    """18xx.games ends a program with a `program_disable` auto action (its reason "KPAC is floated"):
    the interface's bookkeeping, never processed, as the program actions themselves."""
    a = _actions(6)
    disable = {"type": "program_disable", "entity": "Ann", "entity_type": "player", "reason": "a corporation floated"}
    carrier = {**a[2], "auto_actions": [disable, a[3]]}
    log = _log(a[:2] + [carrier, a[4]])
    steps = sitelog.processed_actions(log)
    assert [(s.number, s.auto, s.action["type"]) for s in steps][2:4] == [(3, 0, a[2]["type"]), (3, 2, a[3]["type"])]
    assert _replayed(log) == _state_of(a[:5])


def test_players_by_numeric_id_and_the_result_by_the_logs_keys():
    log = _log(_actions(3))
    done = sitelog.replay(Game, log)
    assert [p.id for p in done.game.players] == ["Ann", "Bob"]
    assert set(done.result_by_id()) == {11, 22}


def test_end_game_by_agreement_ends_at_once_scoring_holdings_as_they_stand():
    a = _actions(10)
    log = _log(a + [{"type": "end_game", "entity": 22, "entity_type": "player"}])
    done = sitelog.replay(Game, log)
    assert done.divergence is None and done.game.finished
    assert done.game.record()["end_reason"] == "agreement"
    g = Game(["Ann", "Bob"], seed=3)
    for x in a:
        g.process(x)
    assert done.game.result() == {p.id: g.player_value(p) for p in g.players}


def test_end_game_is_no_candidate_of_random_play():
    g = Game(["Ann", "Bob"], seed=1)
    assert all(x["type"] != "end_game" for x in g.legal_actions())


def test_a_refused_action_is_reported_with_its_number_id_rule_and_the_legal_actions():
    a = _actions(4)
    log = _log(a + [{"type": "par", "entity": 11, "entity_type": "player", "corporation": "NOPE",
                     "share_price": "100,0,0"}])
    done = sitelog.replay(Game, log)
    assert done.processed == 4
    d = done.divergence
    assert d is not None and d.step.number == 5 and d.step.id == 5
    assert d.as_dict()["action"]["corporation"] == "NOPE"
    assert d.legal  # what the entity could have done


def test_a_later_steps_action_passes_the_steps_before_it():
    """1800 §10.2: lay a tile, place a token, run trains... A `buy_train` sent while the company is still
    at its tile step means it laid no tile, placed no token and ran no train (it owns none yet)."""
    rng = random.Random(2)
    g = Game(["Ann", "Bob"], seed=2)
    while not (g.g["round"] == "operating" and g.g.get("step") in ("lay_tile", "place_token")):
        g.process(g.random_legal_action(rng))
    corp = g.current_entity()
    buys = [x for x in _legal_after_passing(g) if x["type"] == "buy_train"]
    assert buys, "the company can buy a train once its earlier steps are passed"
    before = g.state()
    g.process(buys[0])
    assert g.state() != before and g.g["round"] in ("operating", "stock")
    assert any(g.owner[t.id] == corp for t in g.b_trains(corp))


def _legal_after_passing(g) -> list[dict]:
    clone = Game.from_log(copy.deepcopy(g.to_log()))
    while clone.g.get("step") not in ("buy_train", None):
        clone.process({"type": "pass", "entity": clone.current_entity().id, "entity_type": "corporation"})
    return clone.legal_actions()


def test_hints_name_the_certificates_gone_before_play_touched_a_corporation():
    """Certificates leave a treasury in id order: a corporation's first certificate named by a purchase
    tells which had gone before (a private's random share); one named first by a sale, its seller held."""
    log = {"players": [{"id": 1, "name": "Ann"}], "actions": [
        {"type": "buy_shares", "entity": 1, "entity_type": "player", "shares": ["KPAC_3"], "id": 1},
        {"type": "buy_shares", "entity": 1, "entity_type": "player", "shares": ["KPAC_1"], "id": 2},
        {"type": "sell_shares", "entity": 1, "entity_type": "player", "shares": ["CM_2"], "id": 3},
        {"type": "par", "entity": 1, "entity_type": "player", "corporation": "CS", "id": 4},
        {"type": "buy_shares", "entity": 1, "entity_type": "player", "shares": ["CS_1"], "id": 5}]}
    found = sitelog.hints(log)
    assert {"KPAC_1", "KPAC_2", "CM_2"} <= found
    assert not {"KPAC_3", "CM_1", "CS_1"} & found


@pytest.mark.parametrize("change, words", [
    (lambda log: None, "a JSON object, not null"),
    (lambda log: [log], "a JSON object, not a list"),
    (lambda log: {**log, "title": 1846}, "`title` is a number"),
    (lambda log: {k: v for k, v in log.items() if k != "title"}, "names no title"),
    (lambda log: {**log, "players": ["Ann", "Bob"]}, "player 1 of `players` is a string"),
    (lambda log: {k: v for k, v in log.items() if k != "players"}, "lists no players"),
    (lambda log: {**log, "settings": "fast"}, "`settings` is a string"),
    (lambda log: {**log, "settings": {"optional_rules": "private_bidding"}}, "`settings.optional_rules` is a string"),
    (lambda log: {**log, "result": [1, 2]}, "`result` is a list"),
    (lambda log: {**log, "actions": None}, "no `actions` list"),
    (lambda log: {**log, "actions": {"1": {}}}, "`actions` is an object"),
    (lambda log: {**log, "actions": log["actions"][:2] + [7]}, "action 3 is a number"),
    (lambda log: {**log, "actions": [{**log["actions"][0], "auto_actions": [1]}]}, "`auto_actions` of action 1"),
    # an id that is a list or an object: a TypeError (unhashable) from the reading of players' names before
    (lambda log: {**log, "actions": [{**log["actions"][0], "entity": ["Ann"]}]},
     "the `entity` of action 1 is a list, not an id"),
    (lambda log: {**log, "actions": [{**log["actions"][0], "target": {"id": 1}, "target_type": "player"}]},
     "the `target` of action 1 is an object, not an id"),
    (lambda log: {**log, "actions": [{**log["actions"][0], "auto_actions": [{"type": "pass", "entity": [1]}]}]},
     "the `entity` of action 1 (its auto action 1) is a list, not an id"),
    (lambda log: {**log, "players": [{"id": [1], "name": "Ann"}]}, "the `id` of player 1 of `players` is a list"),
])
def test_a_log_of_the_wrong_shape_is_refused_saying_where(change, words):
    """`replay` of a log of the wrong shape: an `AttributeError` or `TypeError` from deep in the
    reading before; a `LogError` (a ValueError) naming the field or the action now, the game not set up."""
    log = change(_log(_actions(3)))
    with pytest.raises(sitelog.LogError, match=re.escape(words)):
        sitelog.replay(Game, log)
    sitelog.check_log(_log(_actions(3)))  # the well-formed log passes


def test_an_engine_failure_is_a_divergence_at_its_action_not_a_traceback():
    """An exception other than the rules' own (an engine defect) escaped `replay`, and `rulec replay`
    ended in its traceback; now the replay stops there and names the action, as `rulec play` does."""
    class Failing(Game):
        def process(self, action):
            if len(self.actions) == 2:
                raise ZeroDivisionError("division by zero")
            super().process(action)

    done = sitelog.replay(Failing, _log(_actions(5)))
    assert done.processed == 2 and done.divergence.step.number == 3
    assert done.divergence.rule == "a defect of the engine"
    assert done.divergence.message == "the engine failed: ZeroDivisionError: division by zero"
