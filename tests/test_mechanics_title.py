"""An invented title built from the library's common mechanics (issue 43), with no Python of its own:
Kestrel Lines (tests/fixtures/mechanics/kestrel.rules, no real game). Full capitalisation; a train
trade-in, the optional `exchange` field of the library's buy_train; a private whose ability
(`owner: corporation`, `count: 1`) its owning corporation uses through the title's own action, whose
train parameter random play enumerates from its declared kind.

It checks clean; 50 random games at each player count end, with every mechanic used at least once
(counted); the checks of the transitions that carry the mechanics are proved (the whole title proves
483 of 483: benchmarks/mechanics.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import LIBRARIES

PATH = "tests/fixtures/mechanics/kestrel.rules"
TEXT = (Path(__file__).parent / "fixtures" / "mechanics" / "kestrel.rules").read_text(encoding="utf-8")
GAMES = 50


@pytest.fixture(scope="module")
def kestrel():
    from compiler.engines import current_game_class
    from compiler.pipeline import load_texts

    loaded = load_texts({**LIBRARIES, PATH: TEXT})
    title = loaded.program.titles["Kestrel Lines"] if loaded.ok else None
    return loaded, title, (current_game_class(title, loaded.sources)[0] if title else None)


def test_the_invented_title_checks_clean(kestrel):
    loaded, title, _ = kestrel
    assert loaded.ok, [(d.code, d.span.line, d.message) for d in loaded.errors]
    assert not [d for d in loaded.diagnostics if d.severity.value == "warning"]


@pytest.mark.parametrize("players", [2, 3])
def test_fifty_random_games_end_with_every_mechanic_used(kestrel, players):
    """Each game is played as `rulec play` plays it (the invariant monitor after every action); each use
    of a mechanic is counted and checked against what the title says of it, from the state before."""
    from compiler.playout import play_one

    _, _, Game = kestrel
    used: Counter[str] = Counter()
    before: dict = {}

    def choose(game, rng):
        action = game.random_legal_action(rng)
        if action is not None and action.get("entity_type") == "company":
            holder = game.owner[action["entity"]]
            before.update(round=game.g["round"], phase=game.g["phase"], acting=game.current_entity(),
                          holder=holder, cash=game.cash[holder], stamp=game.g["rounds_played"])
        return action

    def observe(game, action):
        kind = action["type"]
        if kind == "buy_train" and action.get("exchange"):
            used["trade-in (buy_train's exchange)"] += 1
            traded = game.trains[action["exchange"]]
            # to the bank pool; a 2 traded for a 4 rusts there at once (the 4 rusts the 2s)
            assert game.owner[traded.id].kind == ("scrap" if traded.name == "2" else "pool")
        elif kind == "rebate":  # LW's rebate: from phase 3, in its corporation's turn, once a round, twice in all
            used["rebate"] += 1
            assert before["phase"] in ("3", "4") and before["round"] == "operating"
            assert before["acting"] == before["holder"] and before["holder"].kind == "corporation"
            assert game.cash[before["holder"]] == before["cash"] + 30
            rebates.append(before["stamp"])
            assert len(rebates) <= 2 and len(set(rebates)) == len(rebates)
        elif kind == "works_stock":  # LW's stock, owed on its sale to a corporation: once
            used["works stock (when: sold)"] += 1
            assert before["holder"].kind == "corporation" and game.cash[before["holder"]] == before["cash"] + 20
        elif kind == "lay_tile" and action.get("entity_type") == "company":
            # SO's lay: by its player owner in his stock-round turn, before phase 4, twice at most; Marsh's
            # river ($20) and mountain ($40) less the ability's $20, Ridge's mountain ($40) less $20
            used["survey lay (a player's, in a stock round)"] += 1
            assert before["round"] == "stock" and before["holder"].kind == "player"
            assert before["acting"] == before["holder"] and before["phase"] in ("2", "3")
            assert game.cash[before["holder"]] == before["cash"] - {"A3": 40, "B4": 20}[action["hex"]]
            lays.append(action["hex"])
            assert len(lays) <= 2
        elif kind in ("buy_shares", "par"):
            for corp in game.corporations:
                if corp.id not in floated:
                    if game.corp[corp.id]["floated"]:
                        floated.add(corp.id)
                        # full capitalisation: ten shares at par, paid when it floats
                        assert game.cash[corp] == 10 * 70, corp
                        used["full capitalisation"] += 1
                    else:
                        assert game.cash[corp] == 0, corp  # IPO money goes to the bank until then

    ends: Counter[str] = Counter()
    for seed in range(GAMES):
        floated: set[str] = set()
        rebates: list[int] = []
        lays: list[str] = []
        record = play_one(Game, [f"p{i}" for i in range(players)], seed, choose=choose, observe=observe)
        ends[record["end_reason"]] += 1
    assert sum(ends.values()) == GAMES
    assert set(used) == {"trade-in (buy_train's exchange)", "rebate", "works stock (when: sold)",
                         "survey lay (a player's, in a stock round)", "full capitalisation"}, used


def test_a_trade_in_is_offered_at_the_discount_and_refused_otherwise(kestrel):
    """Play until a corporation owning a 3-train may buy a 4: the listing offers the 4 for $300 and,
    trading the 3 in, for $200 (the 4's discount for a 3); a trade-in at another price, or of a train the
    corporation does not own, is refused and leaves the state as it was."""
    import random

    from compiler.runtime.errors import IllegalAction

    _, _, Game = kestrel
    for seed in range(GAMES):
        game, rng = Game(players=["p0", "p1"], seed=seed), random.Random(seed)
        while not game.finished:
            offers = [a for a in game.legal_actions() if a["type"] == "buy_train" and a.get("exchange")]
            if offers:
                offer = offers[0]
                traded = game.trains[offer["exchange"]]
                assert offer["price"] == 300 - {"2": 50, "3": 100}[traded.name]
                before = game.state()
                with pytest.raises(IllegalAction, match="printed price less the discount"):
                    game.process({**offer, "price": offer["price"] + 10})
                stranger = next(t for t in game.trains.values() if game.owner[t.id] is not game.owner[traded.id])
                with pytest.raises(IllegalAction):
                    game.process({**offer, "exchange": stranger.id})
                assert game.state() == before
                game.process(offer)
                assert game.owner[traded.id].kind == ("scrap" if traded.name == "2" else "pool")
                return
            game.process(game.random_legal_action(rng))
    pytest.fail("no trade-in offered in any game")


def test_a_log_without_the_optional_field_binds_its_default(kestrel):
    _, _, Game = kestrel
    assert Game.ACTION_DEFAULTS["buy_train"] == {"exchange": None}
    game = Game(players=["p0", "p1"], seed=0)
    train = next(iter(game.trains))
    bound = game.bind("buy_train", {"type": "buy_train", "entity": "KL", "train": train, "price": 100})
    assert bound[-1] is None


def test_the_mechanics_transitions_are_proved(kestrel):
    """buy_train with and without a trade-in (the exchange bound to each train a discount names, and to
    none), the title's rebate, and the purchase that floats under full capitalisation: every check."""
    from compiler.verify import verify_title

    _, title, _ = kestrel
    transitions = ("buy_train", "company_rebate", "buy_shares")
    report = verify_title(title, only=transitions)
    results = [r for r in report.results if r.transition in transitions]
    assert {r.transition for r in results} == set(transitions)
    assert all(r.status == "proved" for r in results), \
        [(r.transition, r.invariant, r.status, r.reason) for r in results if r.status != "proved"]
    assert {(t, "money_conserved") for t in transitions} <= {(r.transition, r.invariant) for r in results}


def test_a_default_outside_an_action_is_refused_on_its_line():
    from tests.conftest import check_source

    loaded = check_source('title "t" {\n  uses lib "18xx"\n  procedure p(x: int = 1) "p" { }\n'
                          '  action a(player: player, y: int = 2) "a" { }\n}\n', with_library=True)
    assert [(d.code, d.span.line) for d in loaded.diagnostics if d.code == "E016"] == [("E016", 3)]
