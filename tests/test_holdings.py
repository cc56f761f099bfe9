"""The owners' index of holdings (compiler/runtime/holdings.py): `b_percent` and `b_certificates`
read it, so it must equal, after anything play does, the index rebuilt from the owners: after each
action of random play, after the oracle's listing (every candidate tried and rolled back), after an
action refused once it had moved a certificate, after a corporation's certificates are replaced
(1880 Romania's share layouts), and on a copy of a game played on, without touching the original's."""

from __future__ import annotations

import copy
import random

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.entities import Certificate, Entity
from compiler.runtime.errors import IllegalAction
from compiler.runtime.holdings import Owners


def _index(game) -> dict:
    """The index as it stands, copied (its entries are lists the game changes in place)."""
    return {holder: {corp: list(entry) for corp, entry in held.items()} for holder, held in game.owner.holdings.items()}


def _scanned_percent(game, holder, corp) -> int:
    return sum(c.percent for c in game.certs_of[corp.id] if game.owner[c.id] == holder)


def _check(game) -> None:
    assert game.owner.holdings == game.owner.rebuilt()
    assert game.owner.trains_of == game.owner.trains_rebuilt()
    for holder in set(game.owner.values()):  # `b_trains` reads the trains' index: as a pass over the trains
        assert game.b_trains(holder) == [t for t in game.trains.values() if game.owner[t.id] == holder]
    # the trains the depot sells, kept by the owners' train stamp and the phase: as worked out now
    assert game._available_train_ids() == game._available_train_ids_now()
    for corp in game.corporations:  # and the builtins answer as a pass over the certificates would
        for holder in set(game.owner.values()):
            assert game.b_percent(holder, corp) == _scanned_percent(game, holder, corp)


@pytest.mark.parametrize("title,players,seed", [("18CO", 4, 2), ("1880 Romania", 4, 1), ("1846", 4, 1)])
def test_the_index_follows_play_and_the_oracles_rolled_back_trials(title, players, seed):
    game = game_class(title)(players=[f"P{i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    layouts = 0
    for step in range(160):
        _check(game)
        # (each state where a corporation may be started: a par may replace its certificates, 1880 Romania)
        if step % 4 == 0 or any(a["type"] == "par" for a in game.legal_actions()):
            before = _index(game)
            game.oracle_legal_actions()  # every candidate processed and rolled back
            assert _index(game) == before
            _check(game)
        action = game.random_legal_action(rng)
        if action is None:
            break
        certs = {c.id: c for c in game.certificates.values()}
        game.process(action)
        layouts += certs != game.certificates
    _check(game)
    if title == "1880 Romania":
        assert layouts, "no corporation chose a share layout in the first actions: the test no longer reaches one"


def test_an_action_refused_after_it_moved_a_certificate_leaves_the_index_as_it_was(monkeypatch):
    """A purchase refused once its certificate has changed hands (here by a `move` that refuses right
    after moving): `process` rolls the journal back, and the index with it."""
    game = game_class("18CO")(players=["P1", "P2", "P3", "P4"], seed=2)
    rng = random.Random(2)
    while not any(a["type"] == "buy_shares" for a in game.legal_actions()):
        game.process(game.random_legal_action(rng))
    buy = next(a for a in game.legal_actions() if a["type"] == "buy_shares")
    before, owners = _index(game), dict(game.owner)
    real_move, seen = type(game).move, []

    def move_then_refuse(self, item, source, target):
        real_move(self, item, source, target)
        seen.append(_index(self))
        raise IllegalAction("refused after the certificate moved (test)")

    monkeypatch.setattr(type(game), "move", move_then_refuse)
    with pytest.raises(IllegalAction, match="refused after the certificate moved"):
        game.process(buy)
    assert seen and seen[0] != before  # the certificate had moved, and the index with it
    assert dict(game.owner) == owners and _index(game) == before
    _check(game)


def test_a_rolled_back_transaction_of_several_moves_restores_the_index():
    game = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=1)
    before = _index(game)
    player, corp = game.players[0], game.corporations[0]
    game.j.begin()
    for cert in game.certs_of[corp.id][:3]:
        game.move(cert, game.owner[cert.id], player)
    game.j.set(game.owner, game.certs_of[corp.id][3].id, game.players[1])
    game.j.delete(game.owner, game.certs_of[corp.id][4].id)
    assert game.b_percent(player, corp) == sum(c.percent for c in game.certs_of[corp.id][:3])
    assert game.owner.holdings == game.owner.rebuilt() != before
    game.j.rollback()
    assert _index(game) == before and game.b_percent(player, corp) == 0
    _check(game)


def test_play_on_a_copy_leaves_the_originals_index_untouched():
    game = game_class("18CO")(players=["P1", "P2", "P3", "P4"], seed=3)
    rng = random.Random(3)
    for _ in range(40):
        game.process(game.random_legal_action(rng))
    before = _index(game)
    fork = game.copy()
    assert fork.owner.holdings == game.owner.holdings and fork.owner.holdings is not game.owner.holdings
    rng = random.Random(4)
    for _ in range(200):
        action = fork.random_legal_action(rng)
        if action is None:
            break
        fork.process(action)
    assert _index(fork) != before
    _check(fork)
    assert _index(game) == before
    _check(game)


def test_every_write_to_the_owners_keeps_the_index():
    certs = {c.id: c for c in (Certificate("A", 0, 20, True), Certificate("A", 1, 10, False), Certificate("B", 0, 50, True))}
    ann, bob = Entity("player", "Ann"), Entity("player", "Bob")
    owners = Owners(certs)
    owners.update({"A_0": ann, "A_1": ann, "train_2_0": bob})
    owners["B_0"] = bob
    assert owners.holdings == {ann: {"A": [30, 2]}, bob: {"B": [50, 1]}}
    owners["A_1"] = bob
    owners.setdefault("A_1", ann)  # held already: no change
    assert owners.holdings == {ann: {"A": [20, 1]}, bob: {"A": [10, 1], "B": [50, 1]}} == owners.rebuilt()
    assert owners.pop("B_0") is bob and owners.pop("B_0", None) is None
    del owners["A_0"]
    assert owners.holdings == {bob: {"A": [10, 1]}} == owners.rebuilt()
    twin = copy.deepcopy(owners)
    twin["A_1"] = ann
    assert owners.holdings == {bob: {"A": [10, 1]}} and twin.holdings == {ann: {"A": [10, 1]}} == twin.rebuilt()
    owners.clear()
    assert owners.holdings == {} and not owners


def test_every_write_to_the_owners_keeps_the_trains_index_in_the_trains_order():
    trains = {"2_0": "a 2-train", "2_1": "another", "3_0": "a 3-train"}
    ann, bob = Entity("corporation", "A"), Entity("corporation", "B")
    owners = Owners({}, trains)
    owners.update({"3_0": ann, "2_1": ann, "P1": bob})  # (P1: no train, not indexed)
    assert owners.trains_of == {ann: {"3_0": None, "2_1": None}} == owners.trains_rebuilt()
    assert owners.trains_held(ann) == ["2_1", "3_0"] and owners.trains_held(bob) == []
    owners["2_0"] = Entity("corporation", "A")  # an equal holder, another object
    owners["3_0"] = bob
    assert owners.trains_held(ann) == ["2_0", "2_1"] and owners.trains_held(bob) == ["3_0"]
    del owners["2_1"]
    assert owners.pop("3_0") is bob
    assert owners.trains_of == {ann: {"2_0": None}} == owners.trains_rebuilt()
    twin = copy.deepcopy(owners)
    twin["2_0"] = bob
    assert owners.trains_held(ann) == ["2_0"] and twin.trains_held(bob) == ["2_0"] and not twin.trains_held(ann)
    assert twin.trains_of == twin.trains_rebuilt()
    owners.clear()
    assert owners.trains_of == {} == owners.trains_rebuilt()
