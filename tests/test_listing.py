"""The legal-action listing and its oracle (issue 42): `legal_actions()`, which leaves out the
candidates the title's fixed tables refuse, lists the same actions as `oracle_legal_actions()`,
which tries every candidate and rolls it back, over states reached by random play in every
engine that plays without a map overlay (its lowest and highest player counts, each option on).
The 2,000-state version of the same comparison, every engine: `python benchmarks/listing.py`.
And a copy of a game (`Game.copy()`) is independent of it."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from compiler.emit.engines import engine_module
from compiler.runtime.data import Gap

ROOT = Path(__file__).resolve().parent.parent


def _listing():
    spec = importlib.util.spec_from_file_location("benchmark_listing", ROOT / "benchmarks" / "listing.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


LISTING = _listing()
PLAYABLE = [p.stem for p in sorted((ROOT / "generated").glob("t_*.py"))
            if not isinstance(engine_module(p.stem).Game.DATA.properties.get("map"), Gap)]


@pytest.mark.parametrize("engine", PLAYABLE)
def test_the_listing_equals_the_oracles(engine):
    Game = engine_module(engine).Game
    players = Game.DATA.param("players")
    low, high = players if isinstance(players, tuple) else (players, players)
    options = [c["key"] for c in Game.DATA.components_of("option")]
    done = LISTING.Compared()
    # an auction or stock round's state, then from 60 actions on, where operating turns begin
    for count, chosen in [(low, ()), (high, ())] + [(high, (option,)) for option in options]:
        LISTING.compare(Game, count, 7, 1, stride=1, skip=5, options=chosen, into=done)
        LISTING.compare(Game, count, 7, 2, stride=15, skip=60, options=chosen, into=done)
    assert done.states == 3 * (2 + len(options))


def test_the_comparison_fails_and_shows_both_lists_where_they_differ(monkeypatch):
    Game = engine_module("t_1800").Game
    real = Game.legal_actions
    monkeypatch.setattr(Game, "legal_actions", lambda self: real(self)[1:])  # a listing that drops one
    with pytest.raises(LISTING.ListingDiffers, match="(?s)the listings differ.*state:.*listed:.*oracle:"):
        LISTING.compare(Game, 2, 7, 3)


def _played(game, rng, count):
    for _ in range(count):
        action = game.random_legal_action(rng)
        if action is None:
            break
        game.process(action)


@pytest.mark.parametrize("title", ["18CO", "1880 Romania", "1846"])
def test_an_action_random_play_drew_is_redone_as_processing_it_would_do(title):
    """Random play's drawn action was tried while listing; `process` makes its trial's changes again
    (`Listing._keep`) rather than dispatch it anew: the same state after each action as a twin that
    processes the same actions anew, board, random draws and journal included. Where the game changed
    between the draw and `process`, the action is dispatched in the changed state."""
    from compiler.emit.engines import game_class

    Game = game_class(title)
    seats = ["A", "B", "C", "D"]
    game, twin = Game(players=seats, seed=3), Game(players=seats, seed=3)
    rng, played, redone = random.Random(3), 0, 0
    for _ in range(150):
        action = game.random_legal_action(rng)
        played += 1
        redone += game._kept_trial is not None
        game.process(action)
        twin.process(dict(action))
        assert game.state() == twin.state() and game.rng.getstate() == twin.rng.getstate()
        assert game.board.placed == twin.board.placed and game.board.tokens == twin.board.tokens
    assert redone > 0.7 * played
    assert game.copy()._kept_trial is None  # (a copy redoes nothing of its original's)
    # a drawn action that moves money, kept; then every holder's cash changed (in a transaction of its own,
    # and outside any) before it is processed: it is dispatched, in the changed state
    while True:
        drawn = game.random_legal_action(rng)
        if game._kept_trial is not None and any(op[0] == "set" and op[1] is game.cash for op, _ in game._kept_trial[2]):
            break
        game.process(drawn)
        twin.process(dict(drawn))
    for each in (game, twin):
        each.j.begin()
        for holder in list(each.cash):
            each.j.set(each.cash, holder, each.cash[holder] + 1)
        each.j.commit()
        each.process(dict(drawn) if each is twin else drawn)
    assert game.state() == twin.state()
    while True:
        drawn = game.random_legal_action(rng)
        if game._kept_trial is not None and any(op[0] == "set" and op[1] is game.cash for op, _ in game._kept_trial[2]):
            break
        game.process(drawn)
        twin.process(dict(drawn))
    for each in (game, twin):
        for holder in list(each.cash):
            each.j.set(each.cash, holder, each.cash[holder] + 1)
        each.process(dict(drawn) if each is twin else drawn)
    assert game.state() == twin.state()


def test_play_on_a_copy_leaves_the_original_as_it_was():
    Game = engine_module("t_1846").Game
    game = Game(players=["Ann", "Bob", "Cyd", "Dee"], seed=5)
    twin = Game(players=["Ann", "Bob", "Cyd", "Dee"], seed=5)
    _played(game, random.Random(5), 60)
    for action in game.actions:
        twin.process(action)
    before, log = game.state(), game.to_log()
    fork = game.copy()
    assert fork.state() == before and fork.legal_actions() == game.legal_actions()
    _played(fork, random.Random(6), 80)
    assert fork.state() != before
    assert game.state() == before and game.to_log() == log
    assert game.board.placed == twin.board.placed and game.cash == twin.cash and game.owner == twin.owner
    # and the original plays on as if the copy had never been made, random draws included
    _played(game, random.Random(8), 40)
    _played(twin, random.Random(8), 40)
    assert game.to_log() == twin.to_log() and game.state() == twin.state()


def test_a_share_layout_chosen_on_a_copy_leaves_the_original_s_certificates():
    """1880 Romania VI.6: a founder's president's certificate of 30 or 40% replaces the corporation's
    certificates (`choose_share_layout`). A copy shared the tables of certificates with its original,
    so such a par played on the copy changed the original's certificates."""
    from compiler.emit.engines import game_class

    game = game_class("1880 Romania")(players=["A", "B", "C", "D"], seed=1)
    rng = random.Random(1)
    for _ in range(1500):
        pars = [a for a in game.legal_actions() if a["type"] == "par" and a.get("president_percent") not in (None, 20)]
        if pars:
            break
        game.process(game.random_legal_action(rng))
    assert pars, "no par with a 30 or 40% president's certificate in 1,500 actions"
    before, state = {k: (c.percent, c.president) for k, c in game.certificates.items()}, game.state()
    fork = game.copy()
    fork.process(pars[0])
    assert {k: (c.percent, c.president) for k, c in fork.certificates.items()} != before
    assert {k: (c.percent, c.president) for k, c in game.certificates.items()} == before
    assert game.state() == state and game.legal_actions() and game.copy().state() == state


def test_listing_a_draft_leaves_the_random_draws_to_come_as_they_were():
    """A pick in 1846's draft shuffles the rest of the hand (§"Private Company Draft"); listing the
    picks tries each and rolls it back, and a refused pick is rolled back too: neither may move the
    game's random generator, or the game that follows would depend on what was only tried."""
    from compiler.emit.engines import game_class
    from compiler.runtime.errors import IllegalAction

    g = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=3)
    assert g.g["round"] == "draft"
    before = g.rng.getstate()
    picks = [a for a in g.legal_actions() if a["type"] == "bid"]
    assert len(picks) > 1 and g.rng.getstate() == before
    card = picks[0]["company"]
    with pytest.raises(IllegalAction):  # the right card at a price it does not cost
        g.process({**picks[0], "price": picks[0]["price"] + 1})
    assert g.rng.getstate() == before
    g.process(picks[0])
    assert g.rng.getstate() != before and card not in g.b_draft_hand()


def test_a_title_actions_kept_candidates_are_each_listings_own():
    """1800's `trade_company` (a private, a seller and a price, none of them held in play) lists candidates
    worked out once per actor, seating and corporations (`_title_action_fixed`): each listing gets its own
    copies, so one changed by a caller is not listed again, and they are those worked out anew, after
    the seating changes too."""
    from compiler.emit.engines import game_class

    g = game_class("1800")(players=["P1", "P2"], seed=1)
    params = g.ACTION_PARAMS["trade_company"]
    who = {"entity": g.players[0].id, "entity_type": "player"}

    def listed():
        return g._title_action_candidates("trade_company", params, who, "trade_company")

    def anew():
        return g._title_action_candidates_anew("trade_company", params, who, "trade_company")

    assert g._title_action_fixed("trade_company", params, "trade_company")
    first = listed()
    before = [dict(candidate) for candidate in first]
    assert len(first) > 10 and first == anew()
    first[0]["price"] = -1
    assert listed() == anew() == before
    assert not g._title_action_fixed("buy_train", g.ACTION_PARAMS["buy_train"], "buy_train")  # a train: held
    g.players[:] = list(reversed(g.players))  # (as `_seat_by_passing_order` reseats them)
    assert listed() == anew() and [c["seller"] for c in listed()] != [c["seller"] for c in before]


def test_random_play_is_a_function_of_the_seed():
    """What the listing holds (and so the action random play draws) depends on the state alone, not on
    what the process listed before (the probes skip the same groups every time): a seed's game played
    again after other games, of other titles too, is the same game."""
    from compiler.emit.engines import game_class

    def game(title, players, seed, count=150):
        g = game_class(title)(players=[f"P{i + 1}" for i in range(players)], seed=seed)
        rng, taken = random.Random(seed), []
        for _ in range(count):
            action = g.random_legal_action(rng)
            if action is None:
                break
            g.process(action)
            taken.append(action)
        return taken

    first = game("1880 Romania", 4, 5)
    game("1846", 4, 6)
    game("1880 Romania", 3, 7)
    assert game("1880 Romania", 4, 5) == first


def test_random_play_draws_from_the_listings_candidates_as_a_shuffle_of_them_would():
    """`random_legal_action` lists a run of candidates a bound probe refuses (1880's foundings too dear
    for the founder) as so many places, unbuilt: it draws what shuffling `_candidates()` with
    `random.Random.shuffle` and taking the first legal one draws, and leaves the generator in the
    same state, in every state of a game's first 150 actions (stock rounds with such runs among them)."""
    from compiler.emit.engines import game_class

    g = game_class("1880 Romania")(players=["P1", "P2", "P3", "P4"], seed=3)
    rng, runs = random.Random(3), 0
    for step in range(150):
        with g._listing(probing=True):
            candidates = g._candidates()
            order = list(range(len(candidates)))
            shuffled = random.Random(step)
            shuffled.shuffle(order)
            expected = next((candidates[i] for i in order if g.is_legal(candidates[i])), None)
            runs += any(a["type"] == "par" and g._known_refused.get(id(a)) is a for a in candidates)
        drawn = random.Random(step)
        assert g.random_legal_action(drawn) == expected and drawn.random() == shuffled.random()
        action = g.random_legal_action(rng)
        if action is None:
            break
        g.process(action)
    assert runs, "no founding was known refused in a listing: the test no longer meets a run"


def test_random_play_searches_the_best_routes_only_where_its_draw_comes_to_them():
    """In random play's own listing the run step's one run_routes candidate is a place whose route search
    runs where the draw reaches it (`_SearchLater`): `random_legal_action` draws what shuffling the full
    listing (`_candidates()`, the search made) and taking the first legal one draws, with the same random
    draws, in every state of an 1800 game's first 400 actions, run steps among them; and some run-step
    listings draw another action and make no search. The lays listed again in a lay step (kept by the
    board's version, `_listed_lays`) are those listed anew."""
    from compiler.emit.engines import game_class
    from compiler.runtime import candidates

    g = game_class("1800")(players=["P1", "P2"], seed=2)
    rng, run_steps, deferred, lay_steps = random.Random(2), 0, 0, 0
    searched = []
    search = candidates.track.best_routes

    def counted(*args, **kwargs):
        searched.append(1)
        return search(*args, **kwargs)

    candidates.track.best_routes = counted
    try:
        for step in range(400):
            at_run = g.g["round"] == "operating" and g.g.get("step") == "run_routes"
            if g.g["round"] == "operating" and g.g.get("step") == "lay_tile":
                g.__dict__.pop("_listed_lays", None)
                with g._listing(probing=True):
                    anew = g._candidates()
                with g._listing(probing=True):
                    assert g._candidates() == anew  # (from the kept lays)
                lay_steps += 1
            g._route_memo.clear()  # (each state's search anew: whether the draw makes one is counted)
            before = len(searched)
            drawn = random.Random(step)
            action = g.random_legal_action(drawn)
            if at_run:
                run_steps += 1
                deferred += len(searched) == before
                with g._listing(probing=True):
                    listed = g._candidates()
                    order = list(range(len(listed)))
                    shuffled = random.Random(step)
                    shuffled.shuffle(order)
                    expected = next((listed[i] for i in order if g.is_legal(listed[i])), None)
                assert action == expected and drawn.random() == shuffled.random()
            action = g.random_legal_action(rng)
            if action is None:
                break
            g.process(action)
    finally:
        candidates.track.best_routes = search
    assert run_steps >= 5 and lay_steps >= 5, "the game met too few run or lay steps: the test no longer judges them"
    assert 0 < deferred < run_steps, "no run-step listing drew another action first (or none drew the run)"


def test_a_bound_probe_judges_a_lays_least_cost_once():
    """1846's lay_tile guard `cash(C) >= lay_cost(lay)` reads the lay; its bound probe (`qb_lay_tile`)
    judges it once with the least a lay costs (the title's tile_lay_cost, $20): a company with $19 has no
    lay, the probe says so without a lay tried, and a listing still holds the lays (known refused), so
    that random play draws as it did; with $20 the probe lets the company through."""
    from compiler.emit.engines import game_class

    g = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=2)
    rng = random.Random(2)

    def lays(listed):
        corp = g.current_entity()
        return [a for a in listed if a["type"] == "lay_tile" and a["entity"] == corp.id]

    def at_a_lay():
        entity = g.current_entity()
        return (g.g["round"] == "operating" and g.g.get("step") == "track_and_token" and not g.g.get("state:decisions")
                and entity.kind == "corporation" and lays(g.legal_actions()))

    while not at_a_lay():
        g.process(g.random_legal_action(rng))
    corp = g.current_entity()
    who = {"entity": corp.id, "entity_type": "corporation"}
    assert "lay_tile" in g.BOUND_PROBES and g._least_lay_cost() == 20
    g.j.begin()
    try:
        g.j.set(g.cash, corp, 19)
        assert g._group_refused("lay_tile", corp, who, g.BOUND_PROBES["lay_tile"])
        assert not g._group_refused("lay_tile", corp, who)  # the plain probe cannot tell
        assert lays(g.legal_actions()) == lays(g.oracle_legal_actions()) == []
        with g._listing(probing=True):
            listed = lays(g._candidates())
            assert listed and all(g._known_refused.get(id(a)) is a for a in listed)
        g.j.set(g.cash, corp, 20)
        assert not g._group_refused("lay_tile", corp, who, g.BOUND_PROBES["lay_tile"])
        assert lays(g.legal_actions()) and lays(g.legal_actions()) == lays(g.oracle_legal_actions())
    finally:
        g.j.rollback()


def test_a_bound_probe_of_a_lays_hex_counts_only_the_discounts_there():
    """1846's lay_tile guard `cash(C) >= lay_cost(lay)`, `lay = check_lay(C, hex, tile, rotation)`: its
    bound probe of two parameters (`qb2_lay_tile`) judges it by hex with the least a lay there costs
    (`_least_lay_cost_at`: the $20 tile_lay_cost less the discounts that could apply in that hex). With
    the Tunnel Blasting Company's $20 off mountains, the bound of every lay is $0 (`_least_lay_cost`), but
    $20 in a hex without mountains; a company with $19 then has none of those hexes' lays judged where
    only whether some action is legal is asked, and the listing is still the oracle's."""
    from compiler.emit.engines import game_class

    g = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=2)
    rng = random.Random(2)

    def lays(listed):
        corp = g.current_entity()
        return [a for a in listed if a["type"] == "lay_tile" and a["entity"] == corp.id]

    while not (g.g["round"] == "operating" and g.g.get("step") == "track_and_token" and not g.g.get("state:decisions")
               and g.current_entity().kind == "corporation" and lays(g.legal_actions())):
        g.process(g.random_legal_action(rng))
    corp = g.current_entity()
    who = {"entity": corp.id, "entity_type": "corporation"}
    assert dict(g.PREFIX_PROBES["lay_tile"])[2].__name__ == "qb2_lay_tile"
    mountain = next(h for h, mh in sorted(g.board.hexes.items()) if mh.terrain == "mountain")
    plain = next(h for h, mh in sorted(g.board.hexes.items()) if not mh.terrain and not mh.terrains)
    assert g._least_lay_cost_at(mountain) == g._least_lay_cost_at(plain) == 20
    tunnels = g.entity("private", "TBC")
    g.j.begin()
    try:
        g.move(tunnels, g.owner[tunnels.id], corp)
        assert g._least_lay_cost() == 0  # every standing discount, whatever the hex
        assert g._least_lay_cost_at(mountain) == 0 and g._least_lay_cost_at(plain) == 20
        for cash in (19, 0, 60):
            g.j.set(g.cash, corp, cash)
            assert lays(g.legal_actions()) == lays(g.oracle_legal_actions())
            with g._listing(probing=True):
                g._known_refused = None  # as `_first_legal` asks
                refused = g._hexes_refused(who)
                assert refused is not None and refused(plain) == (cash < 20) and not refused(mountain)
    finally:
        g.j.rollback()


def test_a_probe_of_the_optional_parameters_judges_a_train_bought_without_a_trade_in():
    """1846's buy_train guard `exchange != none or limit_trains(C) + 1 <= train_limit(C)` reads the
    optional `exchange` (a trade-in): its probe at the defaults (`qd_buy_train`) judges it once for a
    company, and a company at its train limit has none of its purchases without a trade-in tried, whatever
    the train and price; the listing is still the oracle's. Under the limit the probe lets them through."""
    from compiler.emit.engines import game_class

    g = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=3)
    rng = random.Random(3)

    def buys(listed):
        corp = g.current_entity()
        return [a for a in listed if a["type"] == "buy_train" and a["entity"] == corp.id]

    while not (g.g["round"] == "operating" and g.g.get("step") == "buy_train" and not g.g.get("state:decisions")
               and g.current_entity().kind == "corporation" and buys(g.legal_actions())):
        g.process(g.random_legal_action(rng))
    corp = g.current_entity()
    assert g.DEFAULT_PROBES["buy_train"].__name__ == "qd_buy_train"
    tried = []
    real = type(g).ROUTINES["action:buy_train"]

    def counted(game, *args):
        tried.append(args)
        return real(game, *args)

    g.j.begin()
    try:
        g.ROUTINES = {**type(g).ROUTINES, "action:buy_train": counted}
        with g._listing(probing=True):
            listed = buys(g._candidates())
        assert listed and all(a.get("exchange") is None for a in listed)
        # the library's state train_limit_bonus (a take-over's rise) puts the company at its limit
        at_limit = (g.call("limit_trains", corp) - g.call("train_limit", corp)
                    + g.state_amount("train_limit_bonus", corp))
        g.state_put("train_limit_bonus", (corp,), at_limit)
        assert g.call("limit_trains", corp) == g.call("train_limit", corp)
        assert buys(g.legal_actions()) == buys(g.oracle_legal_actions()) == []
        tried.clear()
        with g._listing(probing=True):
            assert not any(g.is_legal(a) for a in listed)
        assert tried == []  # refused by the probe, untried
        g.state_put("train_limit_bonus", (corp,), at_limit + 1)
        legal = buys(g.legal_actions())
        assert legal and legal == buys(g.oracle_legal_actions())
    finally:
        g.j.rollback()
        del g.ROUTINES


def test_a_bound_probe_of_two_parameters_judges_a_founding_by_its_least_cost():
    """1880 Romania's par guard `cash(player) >= cost`, cost = price * president_percent / 10, reads the
    price and the certificate's size; `price in par_prices(corporation)` and `president_percent in
    president_share_sizes`, guards before it, give their least (VI.6: Ł70 and 20%, so Ł140). Its bound
    probe of two parameters (`qb2_par`) refuses a player with Ł139 every founding of a company, whatever
    the price, row and size, and no founding is tried; with Ł140 it lets him through, and the probe of
    three (`qb3_par`) then refuses the Ł80 price (Ł160) by price. Listed as the oracle lists, the same
    candidates listed either way."""
    from compiler.emit.engines import game_class

    g = game_class("1880 Romania")(players=["P1", "P2", "P3", "P4"], seed=2)
    rng = random.Random(2)

    def foundings(listed):
        return [a for a in listed if a["type"] == "par"]

    while not (g.g["round"] == "stock" and not g.g.get("state:decisions") and foundings(g.legal_actions())):
        g.process(g.random_legal_action(rng))
    player = g.current_entity()
    probes = dict(g.PREFIX_PROBES["par"])
    assert set(probes) >= {2, 3} and probes[2].__name__ == "qb2_par" and probes[3].__name__ == "qb3_par"
    tried = []
    real = type(g).ROUTINES["action:par"]

    def counted(game, *args):
        tried.append(args)
        return real(game, *args)

    g.j.begin()
    try:
        g.ROUTINES = {**type(g).ROUTINES, "action:par": counted}
        with g._listing(probing=True):
            listed = foundings(g._candidates())
        g.j.set(g.cash, player, 139)
        assert foundings(g.legal_actions()) == foundings(g.oracle_legal_actions()) == []
        tried.clear()
        with g._listing(probing=True):
            assert foundings(g._candidates()) == listed  # the same candidates, each refused untried
            assert not any(g.is_legal(a) for a in listed)
        assert tried == []
        g.j.set(g.cash, player, 140)
        legal = foundings(g.legal_actions())
        assert legal and legal == foundings(g.oracle_legal_actions())
        assert {int(a["share_price"].split(",")[0]) * a["president_percent"] // 10 for a in legal} == {140}
        tried.clear()
        with g._listing(probing=True):
            assert not any(g.is_legal(a) for a in listed if a["share_price"].startswith("80,"))
        assert tried == []  # refused by price, untried
    finally:
        g.j.rollback()
        del g.ROUTINES


def test_a_private_and_a_player_of_the_same_id_are_told_apart_by_entity_type():
    """1880 Romania's privates are P1 to P6, and players may be named P1 to P4: an action of the
    private P1 (`entity_type: company`) is the private's. The listing's probe and the candidates of a
    private's title actions read the actor as the dispatch does (`_actor`); they read the player, so
    the private's close_for_cash was listed by the oracle and not by the listing."""
    from compiler.emit.engines import game_class

    g = game_class("1880 Romania")(players=["P1", "P2", "P3", "P4"], seed=4)
    who = {"entity": "P1", "entity_type": "company"}
    assert g._actor(who).kind == "private" and g._named_private(who, {}).kind == "private"
    assert g._actor({"entity": "P1", "entity_type": "player"}).kind == "player"
    rng = random.Random(4)
    for _ in range(200):
        listed = sorted(map(repr, g.legal_actions()))
        if any("'close_for_cash', 'entity': 'P1', 'entity_type': 'company'" in a for a in listed):
            break
        g.process(g.random_legal_action(rng))
    else:
        raise AssertionError("the private P1's close_for_cash never listed in 200 actions")
    assert listed == sorted(map(repr, g.oracle_legal_actions()))


def test_a_static_probe_refuses_an_entity_once_a_game():
    """1880 Romania's close_for_cash opens with `require has_ability(company, "close_for_cash")`
    (II.3.1: only the Banater Montanbahn; the library's function over the private's `abilities`, its data), a
    guard that reads nothing that changes during play: its
    static probe (`qs_close_for_cash`) is asked once a game for each private, and a private without the
    ability has no candidate listed, generated or probed again; the one with it is left to its probe.
    The listing is the oracle's."""
    from compiler.emit.engines import game_class

    g = game_class("1880 Romania")(players=["P1", "P2", "P3", "P4"], seed=4)
    rng = random.Random(4)
    for _ in range(40):
        g.process(g.random_legal_action(rng))
    assert "close_for_cash" in g.STATIC_PROBES and "close_for_cash" in g.PROBES
    able = [p for p in g.privates if g.call("has_ability", p, "close_for_cash")]
    assert len(able) == 1 and len(g.privates) > 1
    asked = []
    real = g.STATIC_PROBES["close_for_cash"]

    def counted(game, company):
        asked.append(company.id)
        return real(game, company)

    g.STATIC_PROBES = {**type(g).STATIC_PROBES, "close_for_cash": counted}
    g.__dict__.pop("_static_answers", None)  # as a new game: nothing asked yet
    try:
        for _ in range(3):
            assert sorted(map(repr, g.legal_actions())) == sorted(map(repr, g.oracle_legal_actions()))
        assert sorted(asked) == sorted(p.id for p in g.privates if not g.closed[p.id])  # once each
        assert all(g._static_refused("close_for_cash", p) == (p not in able) for p in g.privates)
    finally:
        del g.STATIC_PROBES


def test_a_round_probe_leaves_an_action_out_of_the_rounds_its_guard_refuses(monkeypatch):
    """18CO's bid and move_bid open with `require in_round(auction)` (§2, §2.1.2), a guard that reads
    only the round: their round probes (`qr_bid`, `qr_move_bid`) are asked once for each round and
    entity type, not once a listing, and in a stock round a player's listing neither generates nor
    probes them; in the auction they are listed as ever. 1846's sell_shares, whose round guard also
    reads a `let` of its entity (`in_round(stock) or emergency`), has none. The listing is the
    oracle's."""
    from compiler.emit.engines import game_class

    assert "sell_shares" not in game_class("1846").ROUND_PROBES
    Game = game_class("18CO")
    assert {"bid", "move_bid"} <= set(Game.ROUND_PROBES) and {"bid", "move_bid"} <= set(Game.PROBES)
    monkeypatch.setattr(Game, "_SHAPED", {})  # the names kept for each round: none yet
    g = Game(players=["P1", "P2", "P3", "P4"], seed=1)
    rng = random.Random(1)
    asked: list[tuple[str, str]] = []
    probed: list[tuple[str, str]] = []

    def counted(table, name, into):
        real = table[name]

        def probe(game, *args):
            into.append((name, game.g["round"]))
            return real(game, *args)
        return probe

    g.ROUND_PROBES = {**Game.ROUND_PROBES, **{n: counted(Game.ROUND_PROBES, n, asked) for n in ("bid", "move_bid")}}
    g.PROBES = {**Game.PROBES, **{n: counted(Game.PROBES, n, probed) for n in ("bid", "move_bid")}}
    assert g.g["round"] == "auction" and any(a["type"] == "bid" for a in g.legal_actions())
    listings = 0
    while g.g["round"] == "auction" or listings < 12:
        if g.g["round"] == "stock":
            listings += 1
            assert sorted(map(repr, g.legal_actions())) == sorted(map(repr, g.oracle_legal_actions()))
        g.process(g.random_legal_action(rng))
    assert g.g["round"] == "stock"
    assert not [p for p in probed if p[1] == "stock"]  # left out of the stock round: never probed there
    stock = [a for a in asked if a[1] == "stock"]
    assert sorted(set(stock)) == [("bid", "stock"), ("move_bid", "stock")]
    assert len(stock) <= 2 * len({k for k in Game._SHAPED if k[2] == "stock" and k[-1]})  # once for each
    assert ("bid", "auction") in probed  # let through in the auction: its probe judges each player there


def test_a_guard_that_opens_every_branch_of_an_if_refuses_a_group_as_listed():
    """1880 Romania's lay_tile branches on `lay.upgrade` (a candidate's own), and both branches open with
    `require not done_this_turn("upgrade")` (VII.3.3): after an upgrade the company's bound probe
    (`qb_lay_tile`) refuses every lay without a trial, and the listing still lists them, known refused,
    so random play draws as it did (the plain probe, whose refusal lists none, has not the guard). The
    listing is the oracle's."""
    from compiler.emit.engines import game_class

    Game = game_class("1880 Romania")
    assert "lay_tile" in Game.BOUND_PROBES
    g = Game(players=["P1", "P2", "P3", "P4"], seed=1)
    rng = random.Random(1)
    for _ in range(600):
        entity = g.current_entity()
        if g.g["round"] == "operating" and g.state_has("done_this_turn", "upgrade") and g.call("in_step", entity, "lay_tile"):
            break
        g.process(g.random_legal_action(rng))
    else:
        raise AssertionError("no lay_tile step after an upgrade in 600 actions")
    tried = []
    real = Game.ROUTINES["action:lay_tile"]

    def counted(game, *args):
        tried.append(args)
        return real(game, *args)

    g.ROUTINES = {**Game.ROUTINES, "action:lay_tile": counted}
    try:
        assert g._group_refused("lay_tile", entity, {"entity": entity.id, "entity_type": "corporation"},
                                Game.BOUND_PROBES["lay_tile"])
        assert not g._group_refused("lay_tile", entity, {"entity": entity.id, "entity_type": "corporation"})
        listed = []
        with g._listing(probing=True):
            listed = [c for c in g._candidates() if c["type"] == "lay_tile"]
            assert listed and not any(g.is_legal(c) for c in listed)
        assert not tried  # judged by the bound probe: none tried
        assert sorted(map(repr, g.legal_actions())) == sorted(map(repr, g.oracle_legal_actions()))
        assert tried  # (the oracle tries them)
    finally:
        del g.ROUTINES


def _shortfall_after_help(game, corporation):
    """The oracle, as the listing computed it before the titles' `forced_shortfall` did: the shortfall
    for the cheapest train after running the title's forced_purchase_help on a trial, rolled back (a
    help the title refuses now is none)."""
    from compiler.runtime.errors import IllegalAction

    if not game.call("must_buy_train", corporation):
        return 0
    price = game.call("cheapest_train_price")
    game.j.begin()
    try:
        before = game.cash[corporation]
        game.call("forced_purchase_help", corporation, price)
        help_ = game.cash[corporation] - before
    except IllegalAction:
        help_ = 0
    finally:
        game.j.rollback()
    return max(0, price - game.cash[corporation] - help_)


@pytest.mark.parametrize(("title", "variant", "players", "helps"), [
    ("1800", None, 2, True), ("1846", None, 4, False), ("1846", "18xx.games", 4, True),
    ("18CO", None, 4, False), ("18CO", "18xx.games", 3, True), ("1880 Romania", None, 4, True),
])
def test_forced_shortfall_is_what_the_titles_forced_purchase_help_leaves(title, variant, players, helps):
    """The contribute candidates offer what a corporation still lacks for a train it must buy: the
    title's function `forced_shortfall` (the library's: the whole shortfall, as its forced_purchase_help
    gives nothing; 1800's after the Bank's 10% per pool share, §11.11; the 18xx.games readings' after the
    president's payment; 1880 Romania's none, VII.3.9), no Python of the listing's own. In every state of
    random games where a corporation must buy a train it equals the shortfall after a trial of the
    title's forced_purchase_help; where the title `helps`, some of those states show the help (the
    shortfall after it is less than the whole)."""
    from compiler.emit.engines import game_class

    Game = game_class(title, variant)
    seen = helped = 0
    for seed in (1, 2):
        game = Game(players=[f"P{i + 1}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        for _ in range(900):
            for corporation in game.corporations:
                if game.call("must_buy_train", corporation):
                    oracle = _shortfall_after_help(game, corporation)
                    assert game.call("forced_shortfall", corporation) == oracle, (seed, corporation.id)
                    whole = max(0, game.call("cheapest_train_price") - game.cash[corporation])
                    seen, helped = seen + 1, helped + (oracle < whole)
            action = game.random_legal_action(rng)
            if action is None:
                break
            game.process(action)
    assert seen and (helped > 0) == helps, (seen, helped)


def test_a_step_probe_is_asked_once_for_each_step_and_the_listing_is_the_oracles(monkeypatch):
    """1800's lay_tile opens with `require in_step(corporation, lay_tile)` (library), a guard that reads only
    the round, the step and the operating company: its step probe (`qt_lay_tile`) is kept by those and the
    entity (`_step_refused`), so in the later steps of a company's turn it is asked once for each step, not once
    a listing, and the probe (`q_lay_tile`) is not run where it refuses. discard_train's
    `pending_decision(corporation, "discard_train")` has one too; trade_company, whose guards read the
    phase, none. Through the operating rounds the listing is the oracle's."""
    from compiler.emit.engines import game_class

    Game = game_class("1800")
    assert {"lay_tile", "discard_train"} <= set(Game.STEP_PROBES) and "trade_company" not in Game.STEP_PROBES
    g = Game(players=["P1", "P2"], seed=3)
    rng = random.Random(3)
    asked: list[tuple] = []
    real = Game.STEP_PROBES["lay_tile"]

    def counted(game, actor):
        asked.append((actor.id, game.g["round"], game.g["step"], game.g["operating"]))
        return real(game, actor)

    monkeypatch.setitem(g.__dict__, "STEP_PROBES", {**Game.STEP_PROBES, "lay_tile": counted})
    compared = 0
    for _ in range(400):
        if g.g["round"] == "operating" and g.g.get("step") not in (None, "lay_tile") and compared < 25:
            compared += 1
            assert sorted(map(repr, g.legal_actions())) == sorted(map(repr, g.oracle_legal_actions()))
        action = g.random_legal_action(rng)
        if action is None:
            break
        g.process(action)
    assert compared == 25
    assert asked and len(asked) == len(set(asked))  # once for each entity, round, step and operating company


def test_a_title_actions_runs_share_their_prefix_probes_verdict(monkeypatch):
    """1800's trade_company is listed at every price of each private and seller; its probe of the private
    and seller (`q3_trade_company`: the seller holds it) judges every price alike. Random play's own
    listing keeps each private and seller's candidates as one run (`_PrefixRun`), its verdict asked once
    where the draw first comes to it: the same games as where each candidate is judged apart, with fewer
    candidates of it tried."""
    from compiler.emit.engines import game_class

    Game = game_class("1800")

    def play(runs: bool) -> tuple[list, int]:
        g = Game(players=["P1", "P2"], seed=2)
        if not runs:
            g._prefix_runs = lambda name, found: None
        tried = 0
        real = g.is_legal

        def is_legal(action):
            nonlocal tried
            tried += action.get("type") == "trade_company"
            return real(action)

        g.is_legal = is_legal
        rng = random.Random(2)
        taken = []
        while not g.finished and len(taken) < 700:
            action = g.random_legal_action(rng)
            if action is None:
                break
            taken.append(action)
            g.process(action)
        return taken, tried

    with_runs, tried_runs = play(True)
    without, tried_apart = play(False)
    assert with_runs == without
    assert any(a["type"] == "trade_company" for a in with_runs)
    assert tried_runs < tried_apart
