"""18CO: selling certificates, as issue 39 probes them (rulespecs/18co.rules, sell_shares).

§4.1.5: the President's certificate, or one share of it, is sold only when the sale hands the presidency to
a holder who then holds more (§4.5): he takes the certificate and gives certificates worth it (§4.5.3),
which the seller sells as needed. A sale whose `percent` is not its certificates' is refused, never read as
another sale. §4.1.3-§4.1.4: a turn's sale of a corporation is one set. §5.10.6.1: raising money for a
train, the president sells no more than he needs and does not hand over the presidency (of the
corporation buying the train; the site: of any corporation he presides, rulespecs/18co-18xx-games.rules).

The game is the takeover tests' stock round 2: Dee presides KPAC (20%) and CS (20%), Ann CM (20%); Cid holds
20% of KPAC, Bob 20% of CM and of CS; all started at 60.
"""

from __future__ import annotations

from compiler.emit.engines import game_class
from compiler.runtime.entities import BANK
from compiler.runtime.monitor import Monitor
from tests.engine_helpers import C, P, act, acting, assert_refused
from tests.test_18co_rules import cash, corp_state, end_auction, second_stock_round, turn_to

HOLDINGS = {"Dee": [("KPAC", 60), ("CS", 60)], "Ann": [("CM", 60)],
            "Cid": [("KPAC", None), ("KPAC", None)], "Bob": [("CM", None), ("CM", None), ("CS", None), ("CS", None)]}


def _game(variant=None):
    g = game_class("18CO", variant)(players=["Ann", "Bob", "Cid", "Dee"], seed=1)
    g._test_monitor = Monitor(g)
    end_auction(g)
    second_stock_round(g, HOLDINGS)
    return g


def _held(g, player, sym):
    return [c for c in g.certs_of[sym] if g.owner[c.id] == g.find(player)]


# ---------------------------------------------------------------- §4.1.5 the President's certificate


def test_4_1_5_one_share_of_the_presidents_certificate_is_sold_by_a_presidency_exchange():
    g = _game()
    turn_to(g, "Dee")
    pres = g.certs_of["KPAC"][0]
    assert g.owner[pres.id] == g.find("Dee") and corp_state(g, "KPAC")["president"] == "Dee"
    price, (row, col) = corp_state(g, "KPAC")["share_price"], corp_state(g, "KPAC")["market_cell"]
    dee = cash(g, "Dee")
    act(g, P("Dee", "sell_shares", shares=[pres.id], percent=10))
    # Cid's 20% is more than the 10% Dee keeps: Cid takes the President's certificate, giving Dee two shares
    assert g.owner[pres.id] == g.find("Cid") and corp_state(g, "KPAC")["president"] == "Cid"
    assert g.b_percent(g.find("Dee"), g.find("KPAC")) == 10 and g.b_percent(g.find("Cid"), g.find("KPAC")) == 20
    assert corp_state(g, "KPAC")["pool_percent"] == 10
    assert cash(g, "Dee") == dee + price                                   # §4.1.3: one share at its value
    assert tuple(corp_state(g, "KPAC")["market_cell"]) == (row + 1, col)   # §4.1.4.1: the President sold one


def test_4_1_5_the_whole_presidents_certificate_is_sold_so_too():
    g = _game()
    turn_to(g, "Dee")
    pres = g.certs_of["KPAC"][0]
    act(g, P("Dee", "sell_shares", shares=[pres.id], percent=20))
    assert corp_state(g, "KPAC")["president"] == "Cid" and g.b_percent(g.find("Dee"), g.find("KPAC")) == 0
    assert corp_state(g, "KPAC")["pool_percent"] == 20


def test_4_1_5_the_exchange_looks_for_its_challenger_once_a_look_not_once_a_holder(monkeypatch):
    """Issue 42: the library's presidency procedures name the challenger by one call of the primitive
    `presidency_challengers` per look (can_hand_over_presidency, checked twice, hand_over_to_challenger, and
    take_presidency after the sale): four searches for this sale. Asked holder by holder (the 4 players and
    11 corporations), as `takes_presidency` was, the same sale searched 36 times."""
    g = _game()
    turn_to(g, "Dee")
    searches = []
    search = type(g)._presidency_challenger
    monkeypatch.setattr(type(g), "_presidency_challenger",
                        lambda self, *args: searches.append(args) or search(self, *args))
    act(g, P("Dee", "sell_shares", shares=[g.certs_of["KPAC"][0].id], percent=10))
    assert corp_state(g, "KPAC")["president"] == "Cid"
    assert len(searches) == 4

def test_4_1_5_never_without_a_presidency_exchange():
    g = _game()
    turn_to(g, "Dee")
    # CS: Bob holds 20%, as much as Dee's certificate: after a sale of one share Bob's 20% is more than
    # Dee's 10%, so that one may go; but CM's president Ann is alone with 20% more than anyone else's...
    g.move(_held(g, "Bob", "CS")[0], g.find("Bob"), g.find("Ann"))         # test setup: Bob keeps 10% of CS
    pres = g.certs_of["CS"][0]
    assert_refused(g, P("Dee", "sell_shares", shares=[pres.id], percent=10), "§4.1.5")
    assert_refused(g, P("Dee", "sell_shares", shares=[pres.id], percent=20), "§4.1.5")


def test_4_1_5_a_percent_that_is_not_the_certificates_is_refused_never_read_as_another_sale():
    g = _game()
    turn_to(g, "Cid")
    a, b = _held(g, "Cid", "KPAC")
    assert_refused(g, P("Cid", "sell_shares", shares=[a.id, b.id], percent=10), "§4.1.2")   # two shares named, one said
    assert_refused(g, P("Cid", "sell_shares", shares=[a.id], percent=20), "§4.1.2")
    # a 20% certificate that is not a President's (the DSNG's) is sold whole (test setup: Cid holds one)
    dsng = next(c for c in g.certs_of["DSNG"] if c.percent == 20 and not c.president)
    g.move(dsng, g.owner[dsng.id], g.find("Cid"))
    g._place_token(g.find("DSNG"), g.market.par_cell(75))                   # (test setup: DSNG started)
    g.j.set(g.corp["DSNG"], "par", 75)
    assert_refused(g, P("Cid", "sell_shares", shares=[dsng.id], percent=10), "§4.1.2")


# ---------------------------------------------------------------- §4.1.3-§4.1.4 a turn's sale is one set


def test_4_1_3_a_turns_sale_of_a_corporation_is_one_set_sent_as_one_sale():
    """A non-president selling two shares as two sales would move the price nowhere, one sale of both moves
    it twice (§4.1.4.2): the turn's shares of a corporation are one set, so the second sale is refused."""
    g = _game()
    turn_to(g, "Cid")
    a, b = _held(g, "Cid", "KPAC")
    act(g, P("Cid", "sell_shares", shares=[a.id], percent=10))
    assert_refused(g, P("Cid", "sell_shares", shares=[b.id], percent=10), "§4.1.3")
    # other corporations are other sets (§4.1.4.3): test setup: Cid holds a CM share
    g.move(_held(g, "Bob", "CM")[0], g.find("Bob"), g.find("Cid"))
    act(g, P("Cid", "sell_shares", shares=[_held(g, "Cid", "CM")[0].id], percent=10))


def test_4_1_3_the_site_prices_and_adjusts_each_sale_on_its_own():
    g = _game("18xx.games")
    turn_to(g, "Cid")
    cell = tuple(corp_state(g, "KPAC")["market_cell"])
    a, b = _held(g, "Cid", "KPAC")
    act(g, P("Cid", "sell_shares", shares=[a.id], percent=10))
    act(g, P("Cid", "sell_shares", shares=[b.id], percent=10))
    assert tuple(corp_state(g, "KPAC")["market_cell"]) == cell             # two single shares: no drop


# ---------------------------------------------------------------- §5.10.6.1 the president raising money


def _kpac_must_buy_a_train(variant=None):
    """KPAC at its train step in the next operating round, owing a train (test setup: its trains leave the
    game, its treasury and all but $10 of Dee's cash go to the bank; Dee holds one CM share of Bob's)."""
    from compiler.runtime.entities import SCRAP
    g = _game(variant)
    while g.g["round"] == "stock":
        act(g, P(acting(g), "pass"))
    for _ in range(300):
        if g.g["operating"] == "KPAC" and g.g["step"] == "buy_train":
            break
        legal = g.legal_actions()
        pick = next((a for a in legal if a["type"] == "buy_train" and "variant" in a), None) \
            or next((a for a in legal if a["type"] == "pass"), None) or legal[0]
        act(g, pick)
    km, dee = g.find("KPAC"), g.find("Dee")
    for t in g.b_trains(km):
        g.move(t, km, SCRAP)
    g.transfer(g.cash[km], km, BANK)
    g.transfer(g.cash[dee] - 10, dee, BANK)
    g.move(_held(g, "Bob", "CM")[0], g.find("Bob"), dee)
    assert g.call("must_buy_train", km) and g.call("emergency_seller", dee)
    return g


def test_5_10_6_1_the_president_does_not_hand_over_the_presidency_of_the_corporation_buying_the_train():
    g = _kpac_must_buy_a_train()
    pres = g.certs_of["KPAC"][0]                                   # Cid's 20% would take it
    assert_refused(g, P("Dee", "sell_shares", shares=[pres.id], percent=10), "§5.10.6.1")
    act(g, P("Dee", "sell_shares", shares=[_held(g, "Dee", "CM")[0].id], percent=10))


def test_5_10_6_1_the_president_sells_no_more_than_he_needs():
    def position():
        g = _kpac_must_buy_a_train()
        g.move(_held(g, "Bob", "CM")[0], g.find("Bob"), g.find("Dee"))   # test setup: Dee holds two CM shares
        price = corp_state(g, "CM")["share_price"]
        g.transfer(g.call("emergency_shortfall") - price * 3 // 2, BANK, g.find("Dee"))   # he needs 1.5 shares' worth
        return g, price

    g, price = position()
    assert price < g.call("emergency_shortfall") <= 2 * price          # one share is not enough, two are
    act(g, P("Dee", "sell_shares", shares=[c.id for c in _held(g, "Dee", "CM")], percent=20))
    g, price = position()
    g.transfer(price, BANK, g.find("Dee"))                         # (test setup: now one share is enough)
    assert_refused(g, P("Dee", "sell_shares", shares=[c.id for c in _held(g, "Dee", "CM")], percent=20), "§5.10.6.1")


def test_5_10_6_1_another_corporations_presidency_the_title_lets_go_the_site_does_not():
    """CS is not buying the train: selling a share of its President's certificate (Bob's 20% takes it) is
    the title's reading; the site forbids a presidency change of any corporation the president presides."""
    g = _kpac_must_buy_a_train()
    pres = g.certs_of["CS"][0]
    act(g, P("Dee", "sell_shares", shares=[pres.id], percent=10))
    assert corp_state(g, "CS")["president"] == "Bob"
    site = _kpac_must_buy_a_train("18xx.games")
    assert_refused(site, P("Dee", "sell_shares", shares=[pres.id], percent=10), "§5.10.6.1")


def test_5_10_6_1_once_money_is_raised_the_train_comes_from_the_bank_or_market():
    """§5.10.6.1: raising money for the train it must buy, KPAC "must buy the cheapest available train in the
    Bank or Market": after it issues a share, CS's 2-train (Dee presides both) is not for sale at $1, nor is
    a private bought first. The site lets it buy from another corporation (EBUY_FROM_OTHERS = :value)."""
    g = _kpac_must_buy_a_train()
    theirs = g.b_trains(g.find("CS"))[0]
    act(g, C("KPAC", "sell_shares", shares=["KPAC_3"], percent=10))
    assert g.state_has("done_this_turn", "emergency_issue")
    assert_refused(g, C("KPAC", "buy_train", train=theirs.id, price=1), "§5.10.6.1", "Bank or Market")
    site = _kpac_must_buy_a_train("18xx.games")
    act(site, C("KPAC", "sell_shares", shares=["KPAC_3"], percent=10))
    act(site, C("KPAC", "buy_train", train=theirs.id, price=1))
    assert site.owner[theirs.id] == site.find("KPAC")


def test_5_10_6_1_after_the_presidents_sale_too():
    """§5.10.6.1: the president's sale for the train (here Dee's CM share, before any issue, as the title
    lets him) raises money for it as well: then no train from another corporation."""
    g = _kpac_must_buy_a_train()
    theirs = g.b_trains(g.find("CS"))[0]
    act(g, P("Dee", "sell_shares", shares=[_held(g, "Dee", "CM")[0].id], percent=10))
    assert g.state_has("done_this_turn", "emergency_sale")
    assert_refused(g, C("KPAC", "buy_train", train=theirs.id, price=1), "§5.10.6.1", "Bank or Market")


def test_5_10_6_1_no_private_is_bought_before_the_train():
    """§5.10.6.1: having issued for the train it must buy, KPAC buys that train before anything else: the
    IMC in the Market (half its face value, §5.3.3) is refused until then (test setup: Phase 3, when
    corporations may buy privates)."""
    g = _kpac_must_buy_a_train()
    g._enter_phase(next(p for p in g.phases if p["key"] == "3"))
    imc = next(c for c in g.privates if c.id == "IMC")
    price = int(imc.get("cost")) // 2
    act(g, C("KPAC", "sell_shares", shares=["KPAC_3"], percent=10))
    assert g.cash[g.find("KPAC")] >= price
    assert_refused(g, C("KPAC", "buy_company", company="IMC", price=price), "§5.10.6.1", "before anything else")


def test_4_5_2_a_corporation_holding_more_challenges_for_the_presidency_its_own_treasury_never():
    """Issue 42: the look for a challenger passes over the corporations where none but the corporation itself
    holds its certificates (its own treasury never counts, §4.5.2); a corporation holding more than the
    president, with certificates worth the President's certificate, is found (18CO's presidency_contenders
    names corporations)."""
    g = _game()
    kpac, cm, dee = g.find("KPAC"), g.find("CM"), g.find("Dee")
    treasury = [c for c in g.certs_of["KPAC"] if g.owner[c.id] == kpac]
    assert len(treasury) >= 3  # (KPAC's unsold certificates: its treasury, which never challenges)
    assert g.b_presidency_challengers(kpac, dee, 0) == []  # Cid's 20% is no more than Dee's
    assert g.b_presidency_challengers(kpac, dee, 10) == [g.find("Cid")]
    for cert in treasury:
        g.owner[cert.id] = cm  # (test setup: CM comes to hold KPAC's treasury, 30% or more; KPAC none of its own)
    assert g.b_presidency_challengers(kpac, dee, 0) == [cm]
