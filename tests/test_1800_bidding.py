"""1800 §7: the optional bidding for privates (the 1830 procedure the rulebook quotes)."""

from __future__ import annotations

import copy

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.errors import IllegalAction
from compiler.runtime.monitor import Monitor

Game = game_class("1800")


def bidding_game():
    g = Game(players=["Ann", "Bob"], seed=1, options=["private_bidding"])
    g._monitor = Monitor(g)
    return g


def act(g, **action):
    who = g.current_entity()
    action = {"entity": who.id, "entity_type": who.kind, **action}
    g.process(action)
    g._monitor.check(g, action)
    return who.id


def refused(g, **action):
    who = g.current_entity()
    action = {"entity": who.id, "entity_type": who.kind, **action}
    before = copy.deepcopy(g.state())
    with pytest.raises(IllegalAction) as info:
        g.process(action)
    assert g.state() == before
    return info.value


def test_s7_bidding_is_an_option():
    assert "private_bidding" in {c["key"] for c in Game.DATA.components_of("option")}
    with pytest.raises(ValueError):
        Game(players=["Ann", "Bob"], options=["no_such_option"])


def test_s7_a_bid_exceeds_the_face_value_by_5_and_is_set_aside():
    g = bidding_game()
    bidder = g.current_entity()
    error = refused(g, type="bid", company="RGS", price=150)
    assert "§7" in error.rule
    act(g, type="bid", company="RGS", price=155)
    assert g.cash[bidder] == 520 and g.call("free_cash", bidder) == 365


def test_s7_no_bid_for_the_private_now_on_sale():
    g = bidding_game()
    refused(g, type="bid", company="MT", price=25)


def test_s7_a_single_bidder_buys_at_the_bid_once_the_private_before_is_sold():
    g = bidding_game()
    first = act(g, type="bid", company="DSL", price=75)
    act(g, type="pass")
    act(g, type="buy_company", company="MT", price=20)  # the first player buys the MT
    owner = g.state()["privates"][1]["owner"]
    assert owner == first
    assert g.cash[g.entity("player", first)] == 520 - 75 - 20


def test_s7_several_bidders_hold_an_auction_from_the_highest_bid():
    g = bidding_game()
    first = act(g, type="bid", company="RGS", price=155)
    second = act(g, type="bid", company="RGS", price=160)
    act(g, type="buy_company", company="MT", price=20)
    act(g, type="buy_company", company="DSL", price=70)
    auction = g.g["auction"]
    # the auction's high bid is its bidder's standing bid (the library's standing_bid), the only one on RGS
    assert auction["company"] == "RGS" and g._high_bid("RGS") == (second, 160)
    assert [(pid, amount) for x, pid, amount in g._bids() if x == "RGS"] == [(second, 160)]
    assert g.state_has("in_auction")  # the library's flag, which the rules read as in_auction()
    assert g.current_entity().id == first
    refused(g, type="bid", company="RGS", price=162)  # raises are at least $5
    act(g, type="bid", company="RGS", price=165)
    assert [(pid, amount) for x, pid, amount in g._bids() if x == "RGS"] == [(first, 165)]  # the raise beats it
    act(g, type="pass")  # the second bidder drops out
    assert g.state()["privates"][2]["owner"] == first
    assert g.g["auction"] is None and not g.state_has("in_auction")
    assert not [b for b in g._bids() if b[0] == "RGS"]  # the high bid paid, no money is left set aside


def test_s7_play_resumes_left_of_the_last_buyer_at_face_value():
    g = bidding_game()
    act(g, type="bid", company="RGS", price=155)
    act(g, type="bid", company="RGS", price=160)
    act(g, type="buy_company", company="MT", price=20)
    face_buyer = act(g, type="buy_company", company="DSL", price=70)
    act(g, type="bid", company="RGS", price=165)
    act(g, type="pass")
    left = g.players[(g.players.index(g.entity("player", face_buyer)) + 1) % 2]
    assert g.current_entity() == left


def test_s7_money_set_aside_cannot_buy_the_private_on_sale():
    g = bidding_game()
    act(g, type="bid", company="RGS", price=510)
    act(g, type="pass")
    refused(g, type="buy_company", company="MT", price=20)
