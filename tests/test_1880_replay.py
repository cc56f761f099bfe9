"""1880 Romania's 18xx.games logs replayed, and the site's reading that replays them.

`rulespecs/1880-romania-18xx-games.rules` is the site's reading of the rulebook (an implementation's
erratum): `rulec replay` picks it for a log the site wrote. The fixture is a 3-player game of 505
actions ended by the last 6E (`../shared/fixtures/1880Romania`); the tests that read it skip where
`../shared` is absent. The others play the reading's engine on positions of their own.
"""

from __future__ import annotations

import json

import pytest

from compiler.app.command import title_for_log
from compiler.emit.engines import game_class
from compiler.lang.pipeline import load
from compiler.runtime import sitelog
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import acting, assert_refused, P

Site = game_class("1880 Romania", "18xx.games")
Rulebook = game_class("1880 Romania")
LOG = "1880Romania/1880_romania_game_end_final_phase.json"


@pytest.fixture
def log(fixtures_dir):
    return json.loads((fixtures_dir / LOG).read_text())


def test_a_site_log_is_played_by_the_sites_reading(log):
    title = title_for_log(load(check=False), log)
    assert (title.name, title.variant, title.reading) == ("1880 Romania", "18xx.games", "18xx.games")


def test_the_log_replays_to_exactly_its_result(log):
    """Every action taken, the invariant monitor after each, the game over by the last 6E's final turns
    (the site's `final_train`, rulec's `last_train`) with the log's own scores. Two runs of the LWR's
    4+4 are recorded at Ł210 where their stops count Ł230: the site's engine takes the revenue its
    client sent (the client of that time took 1880 China's ferry penalty, Ł10 for each of F12 and F14,
    from a company whose president does not own P2); the reading takes the record and the replay notes
    the difference."""
    done = sitelog.replay(Site, log)
    assert done.divergence is None
    assert done.game.finished and done.game.record()["end_reason"] == "last_train"
    assert log["game_end_reason"] == "final_train"
    assert done.result_matches is True
    assert {str(k): v for k, v in done.result_by_id().items()} == {"0": 7783, "1": 6372, "2": 5259}
    notes = done.game.g.get("revenue_notes", ())
    assert [(corp, train, recorded, counted) for corp, train, recorded, counted, _ in notes] == \
        [("LWR", "4+4-0", 210, 230)] * 2


def test_the_rulebooks_engine_stops_where_the_site_founds_in_steps(log):
    """The rulebook's reading takes a founding as one action naming the certificate's size (VI.6); the
    site's par names only the price and the row, the size and the building rights following as
    choices: its 25th action (P8's buyer founding the TR) is refused by the rulebook's engine."""
    done = sitelog.replay(Rulebook, log)
    assert done.divergence is not None and done.divergence.step.number == 25
    assert "president_percent" in done.divergence.message


# ---------------------------------------------------------------- the site's reading on its own


def starting_round_done(names=("Ann", "Bob", "Cid")):
    """A game of the site's reading at its first stock round: the privates sold at face value in
    order, P8's buyer founding the TR at 100 on the top row (its 20% and ABC are the only answers, taken
    at once), each player selecting an investor."""
    g = Site(players=list(names), seed=1)
    g._test_monitor = Monitor(g)
    while g.g.get("state:decisions") or (g.g["round"] == "auction" and not g.call("picking")):
        if g.g.get("state:decisions"):
            act(g, P(acting(g), "par", corporation="TR", share_price="100,1,3", slot=0))
            continue
        company = g.call("auction_company")
        act(g, P(acting(g), "bid", company=company.id, price=company.get("cost")))
        while g.g["round"] == "auction" and g.call("auction_company") == company and not g.g.get("state:decisions"):
            act(g, P(acting(g), "pass"))
    for minor in ("1", "2", "6"):
        act(g, P(acting(g), "bid", minor=minor, price=0))
    return g


def act(g, action):
    g.process(action)
    g._test_monitor.check(g, action)


def test_vi_6_the_site_founds_in_three_steps_par_size_and_rights():
    """18xx.games' Parrer: `par` sets the price and the row; the founder then chooses the certificate's
    size (those he can pay) and the building rights (ABC or BCD for a 20% certificate, AB, BC or CD for
    30%, one letter for 40%); the certificate is bought with the size and the turn passes with the
    rights."""
    g = starting_round_done()
    founder = acting(g)
    before = g.cash[g.find(founder)]
    act(g, P(founder, "par", corporation="GWR", share_price="70,7,3", slot=2))
    assert g.g["state:decisions"] == (("player", founder, "player_choose"),)
    assert_refused(g, P(founder, "choose", choice=50), "VI.6")
    act(g, P(founder, "choose", choice=30))
    assert g.cash[g.find(founder)] == before - 3 * 70
    assert_refused(g, P(founder, "choose", choice="ABC"), "VII.3.2")     # 30%: two consecutive phases
    assert_refused(g, P(founder, "choose", choice="AC"), "VII.3.2")
    act(g, P(founder, "choose", choice="BC"))
    assert g.corp["GWR"]["building_rights"] == "BC" and g._track_row("GWR") == 14
    assert acting(g) != founder                                          # the founding was his buy


def test_v_p8_closes_when_the_tr_is_founded():
    """18xx.games closes the Orient Express when the TR is parred (clash p8_closing: the rulebook keeps
    privates open); the TR's building rights are ABC, without a choice."""
    g = starting_round_done()
    assert g.closed["P8"]
    assert g.corp["TR"]["building_rights"] == "ABC"


def test_viii_3_a_bonus_cell_adds_to_the_run():
    """18xx.games plays 1880 China's market, whose cells from the sixth column carry a bonus: a company
    whose price stands in a 'B' cell adds Ł50 to its run's revenue (a direct edit puts the TR there)."""
    g = starting_round_done()
    tr = g.entity("corporation", "TR")
    assert g.call("market_bonus", tr) == 0
    g.corp["TR"]["cell"] = (0, 5)                                         # 115B
    assert g.call("market_bonus", tr) == 50
    g.corp["TR"]["cell"] = (0, 13)                                        # 200Z
    assert g.call("market_bonus", tr) == 400


def test_v_1_all_passing_on_the_first_private_lowers_it_until_the_opener_takes_it():
    """18xx.games' SelectionAuction#all_passed! (the rulebook gives the first private away at random,
    V.1): each time everyone passes on P1 its opening bid falls by Ł5, the same player opening it again;
    at nothing the opener takes it for free. The next auction then opens two seats on, and the one after
    it with the same player again, as the site's engine moves its turns (checked against it action by
    action on this sequence)."""
    g = Site(players=["Ann", "Bob", "Cid"], seed=1)
    seats = [p.id for p in g.players]
    first = seats.index(acting(g))
    a, b, c = (seats[(first + i) % 3] for i in range(3))                 # the opener and the next two
    for round_ in range(3):
        for name in (a, b, c):
            act_plain(g, P(name, "pass"))
        assert g.state_amount("auction_discount", g.entity("private", "P1")) == 5 * (round_ + 1) and acting(g) == a
    assert_refused(g, P(a, "bid", company="P1", price=0), "V.1")          # Ł5 is the least now
    for name in (a, b, c):
        act_plain(g, P(name, "pass"))
    assert g.owner["P1"] == g.find(a) and g.cash[g.find(a)] == 600
    assert acting(g) == c                                                 # P2: two seats on
    act_plain(g, P(c, "bid", company="P2", price=30))
    act_plain(g, P(a, "pass"))
    act_plain(g, P(b, "pass"))
    assert acting(g) == c                                                 # P3: the same opener


def act_plain(g, action):
    g.process(action)
