"""Answers the runtime keeps by what they read (`DslSupport.fixed_call`, `DslSupport.state_call`,
`Candidates._buyer_groups`, the take-over check `_check_takeovers` keeps by the owners): the same answers as
worked out anew, in every state random play reaches, and on a copy of the game."""

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


def _takeover_check_kept(game) -> bool:
    """Whether `_check_takeovers` would make no check now (its last one kept by what it read)."""
    return game._takeover_check_kept()


def test_a_take_over_check_not_made_again_would_have_done_nothing():
    # wherever the check is kept (not made after an action), the library's check_take_over made anew for
    # every corporation changes nothing: the same as the check that was not made
    kept = 0
    for seed in (1, 2):
        for game in _states("18CO", 4, seed, 1200):
            if not _takeover_check_kept(game):
                continue
            routine = game.ROUTINES["check_take_over"]
            game.j.begin()
            try:
                for corp in game.corporations:
                    routine(game, corp)
                assert game.j._undo == [], (seed, len(game.actions))
            finally:
                game.j.rollback()
            kept += 1
    assert kept > 800


def test_a_take_over_check_follows_a_president_certificate_moved():
    for game in _states("18CO", 4, 4, 1200):
        floated = [c for c in game.corporations if game.corp[c.id]["floated"] and not game.corp[c.id]["closed"]]
        if len(floated) >= 2 and _takeover_check_kept(game):
            break
    else:
        raise AssertionError("no state with two floated corporations and the check kept")
    owner, owned = floated[0], floated[1]
    # by hand: owned's president's certificate held by owner, not floated (the owners' stamp moves on): the
    # check reads whether owner floated, which is more than who holds what, and does nothing
    game.corp[owner.id]["floated"] = False
    game.owner[game.certs_of[owned.id][0].id] = owner
    game._check_takeovers()
    assert not game.corp[owned.id]["closed"]
    assert not _takeover_check_kept(game)
    # owner floats (by hand, no holder changes): the check is made again, and takes owned over at once
    game.corp[owner.id]["floated"] = True
    game._check_takeovers()
    assert game.corp[owned.id]["closed"]


def _round_track_rows(game):
    track = game._round_track()
    prices = [int(p) for p in game._value(track.get("par_groups"), "par_groups")]
    rows = int(game._value(track.get("rows_per_par_price"), "rows_per_par_price"))
    return [(price, row) for price in prices for row in range(-1, rows + 1)]


def test_round_track_rows_kept_are_those_worked_out_anew():
    compared = 0
    for seed in (1, 2):
        for game in _states("1880 Romania", 4, seed, 700):
            free = game.ROUTINES["round_track_row_free"]
            asked = _round_track_rows(game)
            fresh = [free(game, price, row) for price, row in asked]
            assert game.state_calls("round_track_row_free", asked) == fresh, (seed, len(game.actions))
            for (price, row), answer in zip(asked, fresh):
                assert game.state_call("round_track_row_free", price, row) == answer, \
                    (seed, len(game.actions), price, row)
                compared += 1
    assert compared > 20000


def test_a_routine_that_reads_more_than_states_and_fields_is_called_as_ever():
    for game in _states("1880 Romania", 4, 1, 200):
        pass
    for corp in game.corporations:
        # president reads who holds the president's certificate (not a declared amount nor a field): not kept
        assert game.state_call("president", corp) == game.call("president", corp)
        assert game.state_calls("president", [(corp,), (corp,)]) == [game.call("president", corp)] * 2
    assert game.__dict__["_state_answers"]["president"] is not None
    assert not isinstance(game.__dict__["_state_answers"]["president"], tuple)


def test_round_track_rows_kept_follow_the_amounts_and_fields_they_read():
    for game in _states("1880 Romania", 4, 3, 300):
        if any(game.state_amount("track_slot", c) for c in game.corporations):
            break
    free = game.ROUTINES["round_track_row_free"]
    placed = next(c for c in game.corporations if game.state_amount("track_slot", c))
    unplaced = next(c for c in game.corporations if game.corp[c.id]["par"] is None)
    asked = _round_track_rows(game)
    before = [game.state_call("round_track_row_free", p, r) for p, r in asked]
    # by hand: the placed corporation's row moves to the next (a declared amount set anew) ...
    slot = game.state_amount("track_slot", placed)
    game.state_put("track_slot", (placed,), slot % 4 + 1)
    moved = [game.state_call("round_track_row_free", p, r) for p, r in asked]
    assert moved != before and moved == [free(game, p, r) for p, r in asked]
    # ... an unstarted corporation gets the placed one's old row (no row taken: it has no par price) ...
    game.state_put("track_slot", (unplaced,), slot)
    assert [game.state_call("round_track_row_free", p, r) for p, r in asked] == moved
    # ... and then the placed one's par price (a field of its state, no amount set anew): the row is taken
    game.corp[unplaced.id]["par"] = game.corp[placed.id]["par"]
    taken = [game.state_call("round_track_row_free", p, r) for p, r in asked]
    assert taken != moved and taken == [free(game, p, r) for p, r in asked]


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


def _marker_privates(game):
    return [p for p in game.privates if game._abilities(p, "hex_marker")]


def test_marker_answers_kept_are_those_worked_out_anew():
    """`DslSupport.held_call` keeps the library's marker_ability(X) and marker_named_by_player(X) by X's holder:
    in every state random play reaches, the answers it gives are the routines' own, worked out anew."""
    compared = 0
    for title, seed in (("1880 Romania", 1), ("1846", 2)):
        for game in _states(title, 4, seed, 500):
            for private in _marker_privates(game):
                for name in ("marker_ability", "marker_named_by_player"):
                    assert game.held_call(name, private) == game.ROUTINES[name](game, private), \
                        (title, seed, len(game.actions), private, name)
                    compared += 1
    assert compared > 2000
    # kept: what they read is the title's data, the private's holder and the collections
    assert game.__dict__["_held_answers"][("marker_ability", _marker_privates(game)[0])] is not None


def test_marker_answers_kept_follow_the_privates_holder():
    """The Steamboat Company's marker ability is the player's while a player holds it, the corporation's once a
    corporation does (by hand): the kept answer follows the holder; a routine that reads state is not kept."""
    for game in _states("1846", 4, 1, 40):
        pass
    steamboat = next(p for p in _marker_privates(game) if len(game._abilities(p, "hex_marker")) == 2)
    game.owner[steamboat.id] = game.players[0]
    assert game.held_call("marker_ability", steamboat)["owner"] == "player"
    assert game.held_call("marker_named_by_player", steamboat) is True
    game.owner[steamboat.id] = game.corporations[0]
    assert game.held_call("marker_ability", steamboat)["owner"] == "corporation"
    assert game.held_call("marker_named_by_player", steamboat) is False
    game.owner[steamboat.id] = game.players[1]
    assert game.held_call("marker_ability", steamboat)["owner"] == "player"
    corp = game.corporations[0]
    # president reads who holds the president's certificate and more (a corporation's state): never kept
    assert game.held_call("president", corp) == game.call("president", corp)
    assert game.__dict__["_held_answers"][("president", corp)] is None


def test_exchange_sets_kept_are_those_worked_out_anew():
    """`StockRound._exchange_sets_of` keeps a corporation's `exchange_sets` by its list of certificates: the
    same sets as worked out anew in every state random play reaches (18CO's DSNG has shares of two sizes), and
    another list of certificates put in place (a share layout chosen) is worked out anew."""
    from compiler.runtime.entities import Certificate, exchange_sets

    compared = 0
    for game in _states("18CO", 4, 2, 600):
        for corp in game.corporations:
            assert game._exchange_sets_of(corp) == exchange_sets(game.certs_of[corp.id]), (len(game.actions), corp)
            compared += 1
    assert compared > 4000
    corp = game.corporations[0]
    before = game._exchange_sets_of(corp)
    game.certs_of[corp.id] = [Certificate(corp.id, i, pct, i == 0) for i, pct in enumerate((20, 20, 20, 20, 20))]
    after = game._exchange_sets_of(corp)
    assert after != before and after == exchange_sets(game.certs_of[corp.id])
    assert [tuple(c.percent for c in group) for group in after] == [(20,)] * 4


def test_a_privates_assign_shape_is_read_of_its_abilities():
    """`Candidates._assign_shape`, kept for the game: the hexes each marker ability names (its `hexes`, then
    its `bonuses`' hexes, each once for each ability), whether a player owner's marker names a corporation,
    and whether the private has an ability of another effect."""
    game = game_class("1846", None)(players=["A", "B", "C", "D"], seed=1)
    by_id = {p.id: p for p in game.privates}
    ports = ("B8", "C5", "D14", "I1", "G19")
    assert game._assign_shape(by_id["SC"]) == (ports + ports, True, False)  # the Steamboat's two markers
    assert game._assign_shape(by_id["MPC"]) == (("I1", "D6"), False, False)  # the meat marker
    romania = game_class("1880 Romania", None)(players=["A", "B", "C", "D"], seed=1)
    shapes = {p.id: romania._assign_shape(p) for p in romania.privates}
    assert shapes["P4"] == (("G23", "G25", "H4", "J20", "K9", "K17"), False, False)  # the harbour token
    assert any(gives for _hexes, _named, gives in shapes.values())  # REMAR, Electroputere: given to a corporation
    assert romania.__dict__["_assign_shapes"]["P4"] is romania._assign_shape(next(p for p in romania.privates
                                                                                  if p.id == "P4"))
