"""18CO: Rock & Stock, §6 takeovers, §7 the Acquisition Round, §8 the President's Choice Round
(rulespecs/18co.rules).

The games start like the title's other tests: no bids in the auction, then KPAC and CM launched
at 60 and floated (40% each: 20% president + two shares), CS launched at 60 and floated by its
president Dee and Bob, one set of operating rounds played (each buys 2-trains). Positions the
random flow of play cannot reach quickly are made by test setup that conserves money and
certificates (`g.move`, `g.transfer`) and says so.

Refused actions go through `assert_refused`: `IllegalAction` is raised, its `.rule` names the
section, and nothing in the game changed. Every action a helper plays is followed by the
invariant monitor.
"""

from __future__ import annotations

import pytest

from compiler.runtime.entities import BANK, POOL, SCRAP
from tests.engine_helpers import C, P, act, acting, seats
from tests.test_18co_rules import assert_refused, cash, corp_state, end_auction, new_game, pass_, play_or_set, \
    second_stock_round


# ---------------------------------------------------------------- helpers


def _game(g=None):
    """Stock round 2: KPAC (Dee), CM (Ann) and CS (Dee) floated at 60; one set of ORs played (on `g`, a new
    game of another engine of 18CO, where given).

    Dee: KPAC 20% (president), CS 20% (president); Ann: CM 20% (president);
    Cid: KPAC 20%; Bob: CM 20%, CS 20%."""
    g = new_game() if g is None else g
    end_auction(g)
    assert seats(g) == ["Dee", "Ann", "Cid", "Bob"]
    holdings = {"Dee": [("KPAC", 60), ("CS", 60)], "Ann": [("CM", 60)],
                "Cid": [("KPAC", None), ("KPAC", None)], "Bob": [("CM", None), ("CM", None), ("CS", None), ("CS", None)]}
    second_stock_round(g, holdings)
    for sym in ("KPAC", "CM", "CS"):
        assert corp_state(g, sym)["floated"]
    return g


def _corp(g, sym):
    return g.find(sym)


def _cert(g, sym, holder):
    """The first certificate of `sym` that `holder` holds (test helper)."""
    return next(c for c in g.certs_of[sym] if g.owner[c.id] == g.find(holder))


def _hand_president_certificate(g, owned, owner):
    """Test setup: the president's certificate of `owned` passes to the corporation `owner` (as a §5.5
    purchase or a presidency change would give it). Certificates are conserved; no money moves."""
    cert = g.certs_of[owned][0]
    g.move(cert, g.owner[cert.id], g.find(owner))


def _trigger(g):
    """Play one action (the player on turn passes); a takeover is checked after every action (§6.1)."""
    pass_(g)


def _to_acquisition_round(g):
    """Finish the stock round and play the operating rounds until the acquisition round."""
    while g.g["round"] == "stock":
        pass_(g)
    play_or_set(g)
    assert g.g["round"] == "acquisition", g.g["round"]


def _to_zone(g, sym):
    """Test setup: the corporation's stock token goes to the acquisition (red) zone's top cell."""
    cell = (10, 0)                                               # the 10 at the red zone's top left
    assert "acquisition" in g.market.zones_of(cell)
    g._place_token(g.find(sym), cell)


# ---------------------------------------------------------------- §6 takeover


def test_6_1_a_corporation_holding_a_presidents_certificate_takes_the_corporation_over():
    g = _game()
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert corp_state(g, "CM")["closed"]                       # §6.2
    assert corp_state(g, "KPAC")["closed"] is False
    assert all("CM" not in stack for stack in g.stacks.values())   # §6.2: its stock token leaves
    assert all(g.owner[c.id] is SCRAP for c in g.certs_of["CM"])    # §6.2: its certificates leave the game
    assert all(g.b_percent(p, _corp(g, "CM")) == 0 for p in g.players)   # §16.3.1: no compensation


def test_6_1_the_takeover_is_the_librarys_procedure():
    """The take-over is written once, as the library's DSL (`check_take_over`, `take_over` in
    rulespecs/lib/18xx.rules): an erratum replacing `take_over` with a reading that closes the corporation
    and does nothing else plays that reading, the engine emitted in memory with no Python changed."""
    from compiler.emit.engines import memory_game_class
    from compiler.lang.pipeline import load_texts
    from compiler.paths import ROOT
    from compiler.runtime.monitor import Monitor
    from tests.test_18co_rules import NAMES

    texts = {f"rulespecs/{path.relative_to(ROOT / 'rulespecs').as_posix()}": path.read_text(encoding="utf-8")
             for path in sorted((ROOT / "rulespecs").rglob("*.rules"))}
    texts["bare.rules"] = ('errata "Bare take-over" of "18CO" {\n'
                           '  replace procedure take_over(owner: corporation, owned: corporation) "only closes" {\n'
                           '    transfer cash(owned) from owned to bank\n'
                           '    do close_corporation(owned)\n'
                           '  }\n'
                           '}\n')
    loaded = load_texts(texts, checking=frozenset({"bare.rules"}))
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title = loaded.program.titles["18CO"]
    g = memory_game_class(title, loaded.sources, "<18CO bare take-over>")(players=list(NAMES), seed=1)
    g._test_monitor = Monitor(g)
    g = _game(g)
    trains = g.b_trains(_corp(g, "CM"))
    assert trains
    kpac = cash(g, "KPAC")
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert corp_state(g, "CM")["closed"]
    assert all(g.owner[t.id] is SCRAP for t in trains)             # not the owner's: the erratum's reading
    assert cash(g, "KPAC") == kpac


def test_6_1_no_takeover_while_players_hold_the_presidents_certificate():
    g = _game()
    _trigger(g)
    assert not corp_state(g, "CM")["closed"] and not corp_state(g, "KPAC")["closed"]


def test_6_1_1_third_party_certificates_are_sold_to_the_market_without_moving_the_price():
    g = _game()
    cs = _corp(g, "CS")
    cert = next(c for c in g.call("treasury_certificates", cs))
    g.move(cert, cs, _corp(g, "CM"))                           # test setup: CM holds a CS share
    cell = corp_state(g, "CS")["market_cell"]
    pool = corp_state(g, "CS")["pool_percent"]
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert g.owner[cert.id] is POOL
    assert corp_state(g, "CS")["pool_percent"] == pool + 10
    assert corp_state(g, "CS")["market_cell"] == cell           # no impact on the share price


def test_6_1_2_and_6_1_3_stations_removed_where_the_owner_has_one_and_up_to_two_replaced():
    g = _game()
    board = g.board
    # test setup: KPAC and CM each hold a station in Denver (E15, two of its cities); CM one more in C15
    board.place_token("KPAC", ("E15", 0))
    board.place_token("CM", ("E15", 1))
    board.place_token("CM", ("C15", 0))
    g.corp["KPAC"]["tokens"] += 1
    g.corp["CM"]["tokens"] += 2
    km = _corp(g, "KPAC")
    assert g.call("tokens_left", km) == 1                              # KPAC's charter: $0, $40, $100
    next_cost = g.call("next_token_cost", km)
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert board.tokens_of("CM") == [("C15", 0), ("G17", 0)]    # §6.1.2: Denver's is gone; the rest wait
    assert acting(g) == "KPAC"                                   # §6.1.3: KPAC's president chooses
    assert_refused(g, C("KPAC", "place_token", city="H6-0"), "§6.1.3")
    act(g, C("KPAC", "place_token", city="G17-0"))
    assert board.tokens_of("KPAC") == [("E15", 0), ("E27", 0), ("G17", 0)]
    assert board.tokens_of("CM") == []                           # no KPAC token left: C15 leaves (§6.2)
    assert g.call("tokens_left", km) == 0
    assert g.call("next_token_cost", km) == next_cost                  # taken from the right of the charter


def test_6_1_3_at_most_two_stations_are_replaced():
    g = _game()
    board = g.board
    g.corp["KPAC"]["tokens_right"] = -2                           # test setup: KPAC has four unplaced tokens
    for ref in (("C15", 0), ("G3", 0), ("H6", 0)):
        board.place_token("CM", ref)
        g.corp["CM"]["tokens"] += 1
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    act(g, C("KPAC", "place_token", city="H6-0"))
    assert acting(g) == "KPAC"
    act(g, C("KPAC", "place_token", city="G3-0"))
    assert board.tokens_of("KPAC") == [("E27", 0), ("G3", 0), ("H6", 0)]
    assert board.tokens_of("CM") == []
    assert acting(g) != "KPAC"                                   # the choice is over after two


def test_6_1_3_the_owner_may_replace_none():
    g = _game()
    board = g.board
    km = _corp(g, "KPAC")
    left = g.call("tokens_left", km)
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert acting(g) == "KPAC"
    act(g, C("KPAC", "pass"))
    assert board.tokens_of("CM") == [] and board.tokens_of("KPAC") == [("E27", 0)]
    assert g.call("tokens_left", km) == left
    assert g.g["round"] == "stock" and acting(g) in seats(g)


def test_6_1_4_trains_mines_privates_and_the_owners_certificates_pass_to_the_owner():
    g = _game()
    km, cm = _corp(g, "KPAC"), _corp(g, "CM")
    trains = sorted(t.id for t in g.b_trains(km) + g.b_trains(cm))
    g._collect_on_lay(cm, "D14")                                 # test setup: one mine each, as a lay gives it
    g._collect_on_lay(km, "E11")
    g.owner["IMC"] = cm                                          # test setup: CM owns the Idarado Mining Company
    own = g.call("treasury_certificates", km)[0]
    g.move(own, km, cm)                                          # test setup: CM holds a KPAC share
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert sorted(t.id for t in g.b_trains(km)) == trains
    assert g.state_amount("collected", km, "mine") == 2         # the library's take_over moves the count
    assert g.state_amount("collected", cm, "mine") == 0
    assert g.state()["mines"] == {"D14": "KPAC", "E11": "KPAC"}
    assert g.owner["IMC"] == km
    assert g.owner[own.id] == km                                 # back in KPAC's treasury


def test_6_1_5_treasury_rounded_down_and_paid_out_as_a_dividend():
    g = _game()
    km, cm = _corp(g, "KPAC"), _corp(g, "CM")
    g.transfer(137 - g.cash[cm], BANK, cm)                       # test setup: CM's treasury is $137
    pool_cert = _cert(g, "CM", "Bob")
    g.move(pool_cert, g.find("Bob"), POOL)                       # test setup: one of Bob's CM shares in the Market
    bob, bank, kpac = cash(g, "Bob"), g.cash[BANK], g.cash[km]
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    # $130 paid out: $13 a share. Bob 10% -> 13; the Market 10% -> back to the bank; KPAC the 20% president's
    # certificate -> 26; CM's own 60% earns nothing; the leftover 137 - 13 - 13 - 26 = 85 goes to KPAC.
    assert cash(g, "Bob") == bob + 13
    assert g.cash[BANK] == bank + 13
    assert g.cash[km] == kpac + 26 + 85
    assert g.cash[cm] == 0


def test_6_1_7_the_owners_train_limit_rises_by_one():
    g = _game()
    km = _corp(g, "KPAC")
    before = g.call("train_limit", km)
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    assert g.call("train_limit", km) == before + 1
    assert g.call("train_limit", _corp(g, "CS")) == before


def test_6_1_7_1_excess_trains_are_discarded_to_the_market():
    g = _game()
    km, cm = _corp(g, "KPAC"), _corp(g, "CM")
    for _ in range(2):                                           # test setup: CM holds two more 2-trains
        tid = g._available_train_ids()[0]
        g.move(g.trains[tid], "depot", cm)
    assert len(g.b_trains(km)) + len(g.b_trains(cm)) == 6        # limit 4 + 1
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    act(g, C("KPAC", "pass"))                                    # §6.1.3: no station replaced
    assert acting(g) == "KPAC"                                   # it must discard before play goes on
    assert_refused(g, P("Ann", "pass"), "§5.10.5.3")
    train = g.b_trains(km)[0].id
    act(g, C("KPAC", "discard_train", train=train))
    assert g.owner[train] is POOL
    assert len(g.b_trains(km)) == 5


# ---------------------------------------------------------------- §7 the acquisition round


def _target(g) -> str:
    """The corporation up for acquisition: the library's state acquisition_target, one corporation."""
    (held,) = g.g["state:acquisition_target"]
    return held[0]


def test_7_1_the_acquisition_round_follows_the_set_when_a_corporation_is_in_the_red_zone():
    g = _game()
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    # §7.1.1: CS has KPAC's president (Dee) and does not bid; CM (Ann) does
    assert _target(g) == "KPAC"
    assert g.g["acquisition"]["bidders"] == ("CM",)
    assert acting(g) == "CM"


def test_7_no_acquisition_round_without_a_corporation_in_the_red_zone():
    g = _game()
    while g.g["round"] == "stock":
        pass_(g)
    play_or_set(g)
    assert g.g["round"] == "stock"


def test_7_1_1_a_bid_is_at_least_1_and_within_the_treasury():
    g = _game()
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    assert_refused(g, C("CM", "bid", corporation="KPAC", price=0), "§7.1.1")
    assert_refused(g, C("CM", "bid", corporation="KPAC", price=g.cash[_corp(g, "CM")] + 1), "§7.1.2")
    assert_refused(g, C("CM", "bid", corporation="CS", price=5), "§7.1")


def test_7_1_2_and_7_1_3_the_highest_bidder_pays_the_bank_and_takes_over():
    g = _game()
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    cm, km = _corp(g, "CM"), _corp(g, "KPAC")
    treasury, bank, kpac_cash = g.cash[cm], g.cash[BANK], g.cash[km]
    dee, cid = cash(g, "Dee"), cash(g, "Cid")
    trains = {t.id for t in g.b_trains(km)}
    act(g, C("CM", "bid", corporation="KPAC", price=5))
    assert corp_state(g, "KPAC")["closed"]                       # §7.1.3, §6.2
    assert trains <= {t.id for t in g.b_trains(cm)}              # §6.1.4
    assert g.cash[BANK] == bank + 5                              # §7.1.2
    # §6.1.5: KPAC's treasury in tens paid on the players' shares (Dee 20%, Cid 20%), the rest to CM
    payout = kpac_cash - kpac_cash % 10
    assert cash(g, "Dee") == dee + payout * 20 // 100
    assert cash(g, "Cid") == cid + payout * 20 // 100
    assert g.cash[cm] == treasury - 5 + kpac_cash - payout * 40 // 100
    assert g.g["round"] == "stock"                               # the only corporation up was auctioned


def test_7_1_2_a_bid_must_beat_the_highest_so_far():
    g = _game()
    _to_zone(g, "CS")
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    # KPAC is first in operating order (same value, token on top...) or CS: whichever is auctioned, only CM bids
    target = _target(g)
    assert g.g["acquisition"]["bidders"] == ("CM",)
    act(g, C("CM", "bid", corporation=target, price=1))
    assert corp_state(g, target)["closed"]


def test_7_1_4_no_bids_trains_to_the_market_cash_to_the_bank_corporation_removed():
    g = _game()
    _to_zone(g, "KPAC")
    _to_acquisition_round(g)
    km = _corp(g, "KPAC")
    trains = [t.id for t in g.b_trains(km)]
    treasury, bank = g.cash[km], g.cash[BANK]
    act(g, C("CM", "pass"))
    assert corp_state(g, "KPAC")["closed"]
    assert all(g.owner[t] is POOL for t in trains)
    assert g.cash[BANK] == bank + treasury
    assert g.b_percent(g.find("Dee"), km) == 0                   # the players' shares are lost
    assert g.g["round"] == "stock"


# ---------------------------------------------------------------- §8 the President's Choice Round


def _presidents_choice():
    """The first 5D's event has called the round (test setup: the phase event is emitted), KPAC holds a CS
    share (test setup: from CS's treasury), and the set of operating rounds is played out."""
    g = _game()
    cs, km = _corp(g, "CS"), _corp(g, "KPAC")
    cert = g.call("treasury_certificates", cs)[0]
    g.move(cert, cs, km)
    g.emit("presidents_choice")
    while g.g["round"] == "stock":
        pass_(g)
    play_or_set(g)
    assert g.g["round"] == "special"
    return g, cert


def test_8_1_the_presidents_choice_round_follows_the_set_after_the_first_5d():
    g, _ = _presidents_choice()
    assert acting(g) == seats(g)[g.g["priority"]]


def test_8_1_the_round_happens_only_once():
    g, _ = _presidents_choice()
    while g.g["round"] == "special":
        pass_(g)
    assert g.g["round"] == "stock"
    g.emit("presidents_choice")                                   # the E train's event after the 5D's
    assert not g.g.get("state:round_due")                         # no second round is called (the library's call_round)


def test_8_4_the_round_held_is_the_titles_state_set_as_it_ends():
    """presidents_choice_held is 18CO's state, set by its trigger on the runtime's special_round_end: false
    until the round is played, false while it is (`in_round(special)`), true from its end on; the
    engine's answer is the state's, which the model reads alike."""
    g, cert = _presidents_choice()
    assert not g.state_has("presidents_choice_held")
    assert g.call("in_round", "special")
    while g.g["round"] == "special":
        pass_(g)
    assert g.state_has("presidents_choice_held")
    assert not g.call("in_round", "special")
    while acting(g) == "Dee":                                   # Dee presides KPAC, which holds the CS share
        pass_(g)
    buyer = acting(g)
    buy = P(buyer, "buy_shares", shares=[cert.id], percent=10)
    g.state_set("presidents_choice_held", (), False)            # as if the round had not been held: refused
    assert_refused(g, buy, "§8.4")
    g.state_set("presidents_choice_held", (), True)
    act(g, buy)                                                  # open to every player once it has (§8.4)
    assert g.owner[cert.id] == g.find(buyer)


def test_8_2_a_president_buys_a_certificate_his_corporation_holds():
    g, cert = _presidents_choice()
    km = _corp(g, "KPAC")
    while acting(g) != "Dee":
        pass_(g)
    price = corp_state(g, "CS")["share_price"]
    dee, treasury = cash(g, "Dee"), g.cash[km]
    act(g, P("Dee", "buy_shares", shares=[cert.id], percent=10))
    assert g.owner[cert.id] == g.find("Dee")
    assert cash(g, "Dee") == dee - price
    assert g.cash[km] == treasury + price                        # §4.2.4.2: paid to the selling corporation


def test_8_2_only_the_president_of_the_holding_corporation_buys():
    g, cert = _presidents_choice()
    while acting(g) not in ("Ann", "Bob", "Cid"):
        pass_(g)
    assert_refused(g, P(acting(g), "buy_shares", shares=[cert.id], percent=10), "§8.2")


def test_8_2_only_certificates_of_another_corporation():
    g, _ = _presidents_choice()
    while acting(g) != "Dee":
        pass_(g)
    own = g.call("treasury_certificates", _corp(g, "KPAC"))[0]        # KPAC's own unsold share
    assert_refused(g, P("Dee", "buy_shares", shares=[own.id], percent=10), "§8.2")


def test_8_3_a_pass_is_final_and_8_4_all_passing_leads_to_the_stock_round():
    g, cert = _presidents_choice()
    while acting(g) != "Dee":
        pass_(g)
    act(g, P("Dee", "pass"))
    assert "Dee" in g.g["special"]["passed"]
    for _ in range(3):
        assert acting(g) != "Dee"
        if g.g["round"] != "special":
            break
        pass_(g)
    assert g.g["round"] == "stock"
    assert g.owner[cert.id] == _corp(g, "KPAC")


def test_8_2_a_player_who_bought_comes_round_again():
    g, cert = _presidents_choice()
    cs, km = _corp(g, "CS"), _corp(g, "KPAC")
    second = g.call("treasury_certificates", cs)[0]
    g.move(second, cs, km)                                       # test setup: KPAC holds two CS shares
    while acting(g) != "Dee":
        pass_(g)
    act(g, P("Dee", "buy_shares", shares=[cert.id], percent=10))
    for _ in range(3):
        if acting(g) == "Dee":
            break
        pass_(g)
    assert acting(g) == "Dee" and g.g["round"] == "special"
    act(g, P("Dee", "buy_shares", shares=[second.id], percent=10))
    assert g.b_percent(g.find("Dee"), cs) == 40


@pytest.mark.parametrize("seed", [7, 8])
def test_7_random_games_with_acquisitions_finish(seed):
    from compiler.app.playout import play_one
    from compiler.emit.engines import game_class
    record = play_one(game_class("18CO"), [f"P{i}" for i in range(4)], seed=seed)
    assert record["finished"]


def test_5_10_5_3_the_dsng_permanent_2_train_leaves_the_game_when_discarded():
    g = _game()
    cm = _corp(g, "CM")
    g.move(g.trains["2P-0"], "depot", cm)                        # test setup: CM holds the DSNG's 2-train
    tid = g._available_train_ids()[0]
    g.move(g.trains[tid], "depot", cm)                           # and one more 2-train: 6 trains, limit 5
    _hand_president_certificate(g, "CM", "KPAC")
    _trigger(g)
    act(g, C("KPAC", "pass"))                                    # §6.1.3: no station replaced
    assert acting(g) == "KPAC"
    act(g, C("KPAC", "discard_train", train="2P-0"))
    assert g.owner["2P-0"] is SCRAP                             # removed from the game, not to the Market
    assert "2P-0" not in [t.id for t in g.b_trains(POOL)]


# ---------------------------------------------------------------- §5.5 corporations buy other corporations' shares


def _kpac_operating(g):
    """From the stock round: play on until KPAC's operating turn begins (it has not laid track yet); test
    setup: the bank pays KPAC $200 so that it can buy shares."""
    while g.g["round"] == "stock":
        pass_(g)
    for _ in range(50):
        if g.g["operating"] == "KPAC":
            g.transfer(200, BANK, g.find("KPAC"))
            return
        pass_(g)
    raise AssertionError("KPAC never operated")


def _cm_in_market(g, n):
    """Test setup: n of CM's unsold certificates lie in the Market (moved, no money)."""
    cm = _corp(g, "CM")
    for cert in g.call("treasury_certificates", cm)[:n]:
        g.move(cert, cm, POOL)


def test_5_5_1_a_corporation_buys_a_share_of_another_from_the_market():
    g = _game()
    _cm_in_market(g, 1)
    _kpac_operating(g)
    km = _corp(g, "KPAC")
    cert = g.call("pool_certificates", _corp(g, "CM"))[0]
    treasury, bank = g.cash[km], g.cash[BANK]
    act(g, C("KPAC", "corporate_buy_shares", shares=[cert.id], percent=10))
    assert g.owner[cert.id] == km
    assert g.cash[km] == treasury - 60 and g.cash[BANK] == bank + 60   # §5.5.2 market value
    assert corp_state(g, "KPAC")["shares"] == {"CM": 10}


def test_5_5_1_from_the_president_but_not_from_other_players():
    g = _game()
    _kpac_operating(g)
    km = _corp(g, "KPAC")
    bob = _cert(g, "CS", "Bob")                                  # Bob is not KPAC's president
    assert_refused(g, C("KPAC", "corporate_buy_shares", shares=[bob.id], percent=10), "§5.5.1")
    g.move(bob, g.find("Bob"), g.find("Dee"))                    # test setup: Dee (KPAC's president) holds it
    dee = cash(g, "Dee")
    act(g, C("KPAC", "corporate_buy_shares", shares=[bob.id], percent=10))
    assert g.owner[bob.id] == km and cash(g, "Dee") == dee + 60


def test_5_5_3_never_a_presidents_certificate():
    g = _game()
    _kpac_operating(g)
    pres = g.certs_of["CS"][0]                                   # Dee's CS president's certificate
    assert_refused(g, C("KPAC", "corporate_buy_shares", shares=[pres.id], percent=20), "§5.5.3")


def test_5_5_1_certificates_of_one_other_corporation_a_turn():
    g = _game()
    _cm_in_market(g, 1)
    cs = _corp(g, "CS")
    g.move(g.call("treasury_certificates", cs)[0], cs, POOL)           # test setup: a CS share in the Market too
    _kpac_operating(g)
    act(g, C("KPAC", "corporate_buy_shares", shares=[g.call("pool_certificates", _corp(g, "CM"))[0].id], percent=10))
    cs_cert = g.call("pool_certificates", cs)[0]
    assert_refused(g, C("KPAC", "corporate_buy_shares", shares=[cs_cert.id], percent=10), "§5.5.1")


def test_5_5_4_one_at_a_time_and_a_takeover_when_the_corporation_becomes_president():
    g = _game()
    _cm_in_market(g, 3)
    _kpac_operating(g)
    km, cm = _corp(g, "KPAC"), _corp(g, "CM")
    certs = [c.id for c in g.call("pool_certificates", cm)]
    assert_refused(g, C("KPAC", "corporate_buy_shares", shares=certs[:2], percent=20), "§5.5.4")
    act(g, C("KPAC", "corporate_buy_shares", shares=[certs[0]], percent=10))
    act(g, C("KPAC", "corporate_buy_shares", shares=[certs[1]], percent=10))
    assert not corp_state(g, "CM")["closed"]                     # 20% is not more than Ann's 20%
    act(g, C("KPAC", "corporate_buy_shares", shares=[certs[2]], percent=10))
    # §4.5.1: KPAC's 30% beats Ann's 20%: it takes the President's certificate, giving Ann two shares
    # (§4.5.3), and so takes CM over at once (§6.1)
    assert corp_state(g, "CM")["closed"]
    assert g.call("train_limit", km) == g.call("train_limit", _corp(g, "CS")) + 1


# ---------------------------------------------------------------- §5.12 selling other corporations' shares


def _kpac_at_train_step(g, cs_shares):
    """KPAC holds `cs_shares` CS shares (test setup: from CS's treasury) and has reached its train purchase."""
    cs, km = _corp(g, "CS"), _corp(g, "KPAC")
    for cert in g.call("treasury_certificates", cs)[:cs_shares]:
        g.move(cert, cs, km)
    _kpac_operating(g)
    for _ in range(10):
        if g.g["step"] == "buy_train":
            return
        pass_(g)
    raise AssertionError("KPAC never reached its train purchase")


def test_5_12_3_a_single_corporate_share_sold_to_the_market_pays_the_treasury_without_moving_the_price():
    g = _game()
    _kpac_at_train_step(g, 1)
    km = _corp(g, "KPAC")
    cert = next(c for c in g.certs_of["CS"] if g.owner[c.id] == km)
    cell, treasury = corp_state(g, "CS")["market_cell"], g.cash[km]
    act(g, C("KPAC", "corporate_sell_shares", shares=[cert.id], percent=10))
    assert g.owner[cert.id] is POOL
    assert g.cash[km] == treasury + 60                           # §5.12.3
    assert corp_state(g, "CS")["market_cell"] == cell            # §5.12.2: one share, no drop


def test_5_12_2_several_corporate_shares_drop_one_space_each():
    g = _game()
    _kpac_at_train_step(g, 2)
    km = _corp(g, "KPAC")
    certs = [c.id for c in g.certs_of["CS"] if g.owner[c.id] == km]
    row, col = corp_state(g, "CS")["market_cell"]
    act(g, C("KPAC", "corporate_sell_shares", shares=certs, percent=20))
    assert corp_state(g, "CS")["market_cell"] == [row + 2, col]


def test_5_12_1_no_sale_after_buying_the_same_corporation_this_turn():
    g = _game()
    cs = _corp(g, "CS")
    g.move(g.call("treasury_certificates", cs)[0], cs, POOL)           # test setup: a CS share in the Market
    _kpac_operating(g)
    cert = g.call("pool_certificates", cs)[0]
    act(g, C("KPAC", "corporate_buy_shares", shares=[cert.id], percent=10))   # §5.5 at the start of the turn
    while g.g["step"] != "buy_train":
        pass_(g)
    assert g.g["operating"] == "KPAC"
    assert_refused(g, C("KPAC", "corporate_sell_shares", shares=[cert.id], percent=10), "§5.12.1")


def test_5_2_10_corporate_shares_are_sold_after_the_train_step():
    """§5.2: selling other corporations' shares (§5.2.10) is the turn's last step. A sale sent at the start
    of the turn is taken at that step, the steps before it passed (as a log's later action passes them):
    after it no track is laid (§5.2.4) and no train bought (§5.2.8) in the turn."""
    g = _game()
    cs, km = _corp(g, "CS"), _corp(g, "KPAC")
    cert = g.call("treasury_certificates", cs)[0]
    g.move(cert, cs, km)
    _kpac_operating(g)
    assert g.g["step"] == "redeem_shares"
    act(g, C("KPAC", "corporate_sell_shares", shares=[cert.id], percent=10))
    assert g.g["operating"] == "KPAC" and g.g["step"] == "corporate_sell_shares"
    assert_refused(g, C("KPAC", "lay_tile", hex="K27", tile="7", rotation=0), ("§5.2.4", "§5.6"))
    assert_refused(g, C("KPAC", "buy_train", train=g.state()["trains_available"][0], price=100), ("§5.2.8", "§5.10"))
