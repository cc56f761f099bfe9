"""Answers the runtime keeps by what they read (`DslSupport.fixed_call`, `Candidates._buyer_groups`): the
same answers as worked out anew, in every state random play reaches, and on a copy of the game."""

from __future__ import annotations

import random

from compiler.emit.engines import game_class


def _states(title: str, players: int, seed: int, actions: int):
    """The game after each of the first `actions` actions of a random game (the same game object)."""
    game = game_class(title, None)(players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        action = game.random_legal_action(rng)
        if action is None:
            return
        game.process(action)
        yield game


def test_a_players_buy_offers_kept_are_those_worked_out_anew():
    compared = 0
    for seed in (1, 2):
        for game in _states("18CO", 4, seed, 900):
            for player in game.players:
                who = {"entity": player.id, "entity_type": "player"}
                assert game._cand_buy_shares(player, who) == game._buy_shares_anew(player, who), (seed, player)
                compared += 1
    assert compared > 4000


def test_buy_offers_kept_on_a_copy_follow_the_copy():
    game = None
    for game in _states("18CO", 4, 3, 400):
        pass
    player = game.players[0]
    who = {"entity": player.id, "entity_type": "player"}
    game._cand_buy_shares(player, who)  # (kept in the original, copied with it)
    fork = game.copy()
    rng = random.Random(5)
    for _ in range(200):
        action = fork.random_legal_action(rng)
        if action is None:
            break
        fork.process(action)
        assert fork._cand_buy_shares(player, who) == fork._buy_shares_anew(player, who)
    assert game._cand_buy_shares(player, who) == game._buy_shares_anew(player, who)


def test_a_routine_that_reads_only_plain_properties_is_kept_one_that_reads_state_is_not():
    for game in _states("18CO", 4, 1, 120):
        pass
    kept = game.__dict__["_fixed_answers"]
    for corp in game.corporations:
        # ipo_of reads `capitalisation` and its corporation: kept for the game, the routine's own answer
        assert game.fixed_call("ipo_of", corp) == game.ROUTINES["ipo_of"](game, corp)
        assert kept[("ipo_of", corp)] == (game.ROUTINES["ipo_of"](game, corp),)
        # president reads who holds the president's certificate: answered as ever, never kept
        assert game.fixed_call("president", corp) == game.call("president", corp)
        assert kept[("president", corp)] is None
    started = next(c for c in game.corporations if game.corp[c.id]["par"] is not None)
    cert = game.certs_of[started.id][0]
    holder = game.owner[cert.id]
    other = next(p for p in game.players if p != holder)
    game.owner[cert.id] = other  # (by hand: the answer that reads state follows it)
    assert game.fixed_call("president", started) == other


def test_a_property_kept_is_read_at_the_games_own_options_and_player_count():
    """`GameBase.param` keeps a plain property and a table read at the player count alone: each game's own
    answer, by its options' `sets` and its number of players (a cache by name alone, or one shared by the
    games of a title, fails here), the same as read anew after play has gone on."""
    cls = game_class("1800", None)
    plain = cls(players=["A", "B"], seed=1)
    bidding = cls(players=["A", "B"], seed=1, options=["private_bidding"])
    for _ in range(2):  # (the second time from what each game kept)
        assert plain.param("private_sale_bidding") is False
        assert bidding.param("private_sale_bidding") is True
    limits = {}
    for players in (3, 4, 5, 6, 3):
        game = game_class("18CO", None)(players=[f"P{i}" for i in range(players)], seed=1)
        first, again = game.param("cert_limit"), game.param("cert_limit")
        assert first == again == game._read_param("cert_limit")
        limits.setdefault(players, first)
        assert limits[players] == first
    assert len(set(limits.values())) > 1  # (the table does differ by player count)
    for game in _states("18CO", 4, 1, 150):
        pass
    assert game.param("cert_limit") == game._read_param("cert_limit")
    assert game.param("starting_cash") == game._read_param("starting_cash")
