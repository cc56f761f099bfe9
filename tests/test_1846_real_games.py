"""1846: rules the real games of 18xx.games showed rulec reading wrongly, each named by its topic.

The 1846 rulebook is not among ours; these rules come from the source that has them, the 18xx.games
implementation (cited in the rulespec as supplements, by file and method). The positions are reached by
play where that is short; a test that edits the state says so ("test setup"), moving money from the bank.
"""

from __future__ import annotations

from compiler.emit.engines import game_class
from compiler.runtime import track
from compiler.runtime.entities import BANK, POOL
from tests.engine_helpers import act, acting, assert_refused, C, P
from tests.test_1846_rules import corporation_to_step, first_or, give, new_game

Site = game_class("1846", "18xx.games")


def _owns(g, item, holder):
    """Test setup: `holder` (a player or a corporation) owns private or minor `item`; a minor is started."""
    g.j.set(g.owner, item, g.find(holder))
    if ("minor", item) in g.by_id:
        minor = g.entity("minor", item)
        g.j.set(g.corp[item], "closed", False)
        g.transfer(int(minor.get("treasury")) - g.cash[minor], BANK, minor)
        g._start_minor(minor)
    else:
        g.j.set(g.closed, item, False)


# ---------------------------------------------------------------- minor companies


def test_minor_companies_a_corporation_buys_a_minor_with_its_cash_train_and_station():
    """§"Minor Companies" (18xx.games BuyCompany#process_buy_company): the buyer pays from $1 up to the
    minor's face value; the minor's cash, its 2-train and its station become the corporation's, the
    station a token beyond its charter; the minor is gone."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    _owns(g, "MS", "P2")
    corporation_to_step(g, "GT", "track_and_token")
    gt, ms = g.entity("corporation", "GT"), g.entity("minor", "MS")
    assert_refused(g, C("GT", "buy_company", company="MS", price=61), "Purchasing Private Companies", "price range")
    assert_refused(g, C("GT", "buy_company", company="MS", price=0), "Purchasing Private Companies", "price range")
    cash, minor_cash, left = g.cash[gt], g.cash[ms], g.call("tokens_left", gt)
    p2 = g.cash[g.entity("player", "P2")]
    act(g, C("GT", "buy_company", company="MS", price=1))
    assert g.cash[gt] == cash - 1 + minor_cash and g.cash[g.entity("player", "P2")] == p2 + 1
    assert [t.name for t in g.b_trains(gt)] == ["2"] and g.corp["MS"]["closed"]
    assert ("C15", 0) in g.board.tokens_of("GT") and not g.board.tokens_of("MS")
    assert g.call("tokens_left", gt) == left  # the minor's station is an extra token


def test_minor_companies_a_minor_starts_with_its_face_value_and_its_draft_price_falls_to_its_debt():
    """§"Minor Companies", §"Private Company Draft": the Michigan Southern starts with $60 (its description:
    'Starts with $60') and costs $140 in the draft; a last company's price falls to $80, its negative
    discount (Company#min_auction_price), no lower."""
    g = new_game(4)
    ms = g.entity("minor", "MS")
    assert g.call("draft_cost", ms) == 140 and g.call("draft_least_price", ms) == 80 and int(ms.get("treasury")) == 60


# ---------------------------------------------------------------- purchasing private companies


def test_purchasing_private_companies_only_from_the_player_who_owns_it():
    """§"Purchasing Private Companies" (Game#purchasable_companies, #company_sellable): a private a
    corporation owns is not for sale to another."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100), "NYC": ("P2", 100)})
    _owns(g, "MAIL", "NYC")
    corporation_to_step(g, "GT", "track_and_token")
    assert_refused(g, C("GT", "buy_company", company="MAIL", price=50), "Purchasing Private Companies", "from the player")


# ---------------------------------------------------------------- laying track


def test_laying_track_detroits_river_is_paid_by_the_first_upgrade_only():
    """§"Laying Track": Detroit's $40 river is printed on its pre-printed tile: the tile replacing it pays
    $40, a later upgrade of a laid tile the $20 every lay costs."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    corporation_to_step(g, "GT", "track_and_token")
    first = track.Lay("C15", "294", 0, 40, True, "C15")
    later = track.Lay("C15", "297", 0, 0, True, "294")
    assert g.b_lay_cost(first) == 40 and g.b_lay_cost(later) == 20


# ---------------------------------------------------------------- stock round


def _second_stock_round(g):
    """Test setup: GT (P1 president, 20%) has operated; P2 holds GT_1 and GT_2, P1 GT_3 and GT_4; the second
    stock round, P2 on turn."""
    first_or(g, {"GT": ("P1", 100)})
    for cert, player in (("GT_1", "P2"), ("GT_2", "P2"), ("GT_3", "P1"), ("GT_4", "P1")):
        g.j.set(g.owner, cert, g.entity("player", player))
    g.j.set(g.corp["GT"], "operated", True)
    g.j.set(g.g, "round", "stock")
    g.state_put("stock_round_number", (), 2)
    g.j.set(g.g, "turn", 1)
    g.j.set(g.g, "passes", 0)
    g._new_turn()
    return g.entity("corporation", "GT")


def test_stock_round_a_corporations_shares_are_sold_in_one_block_a_turn():
    """§"Stock Round" (MUST_SELL_IN_BLOCKS): a player sells a corporation's shares at once in his turn,
    not one sale after another."""
    g = new_game(4)
    _second_stock_round(g)
    act(g, P("P2", "sell_shares", shares=["GT_1"], percent=10))
    assert_refused(g, P("P2", "sell_shares", shares=["GT_2"], percent=10), "Stock Round", "cannot be sold")


def test_stock_round_the_presidents_certificate_goes_to_a_player_holding_as_much():
    """§"Stock Round" (ShareBundle#can_dump?, SharePool#change_president): the president may sell his
    certificate where another player holds as much; that player becomes president and gives shares worth
    it to the market; the price moves as for the president's sale. Where nobody holds as much, it may not
    be sold."""
    g = new_game(4)
    gt = _second_stock_round(g)
    act(g, P("P2", "pass"))
    while acting(g) != "P1":
        act(g, P(acting(g), "pass"))
    price = g.call("price", gt)
    act(g, P("P1", "sell_shares", shares=["GT_3", "GT_4", "GT_0"], percent=40))
    assert g.call("president", gt) == g.entity("player", "P2")
    assert g.b_percent(POOL, gt) == 40 and g.b_percent(g.entity("player", "P2"), gt) == 20
    assert g.call("price", gt) < price
    # nobody else holds 20% of NYC: its president's certificate is not for sale
    g2 = new_game(4)
    first_or(g2, {"NYC": ("P1", 100)})
    assert not any(c.president for c in g2._sellable(g2.entity("player", "P1"), g2.entity("corporation", "NYC")))


# ---------------------------------------------------------------- private companies and stations


def test_private_companies_the_chicago_and_western_indiana_token_is_an_extra_token():
    """§"Private Companies" (Tokener#adjust_token_price_ability!): the owning corporation's token in the
    reserved Chicago slot is one beyond its charter."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    _owns(g, "CWI", "GT")
    corporation_to_step(g, "GT", "track_and_token")
    gt = g.entity("corporation", "GT")
    left, cost = g.call("tokens_left", gt), g.call("next_token_cost", gt)
    act(g, {"type": "place_token", "entity": "CWI", "entity_type": "company", "city": "D6-3"})
    assert ("D6", 3) in g.board.tokens_of("GT")
    assert g.call("tokens_left", gt) == left and g.call("next_token_cost", gt) == cost


def test_placing_station_tokens_a_reserved_price_and_teleport_outlast_phase_iv():
    """§"Placing Station Tokens" (the token ability of entities.rb stays when phase IV removes the
    reservation): the B&O still places in Cincinnati for $100 without a route, $40 with one."""
    g = new_game(4)
    first_or(g, {"BO": ("P1", 100)})
    bo = g.entity("corporation", "BO")
    g.call("remove_reservations")  # the library's procedure (phase IV's event)
    spot = g.b_check_token(bo, "H12-0")
    assert g.call("token_cost", bo, spot) == 100


# ---------------------------------------------------------------- issuing, emergency money raising


def test_issuing_and_redeeming_shares_open_until_the_dividend_is_paid():
    """§"Issuing and Redeeming Shares" (IssueShares#dividend_step_passes): a corporation may still issue at
    its dividend step, before it pays or withholds."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    for cert in ("GT_1", "GT_2"):
        g.j.set(g.owner, cert, g.entity("player", "P2"))
    gt = g.entity("corporation", "GT")
    g.j.set(g.g, "operating", "GT")  # test setup: GT at its dividend
    g.j.set(g.g, "step", "dividend")
    assert g.call("before_dividend", gt)
    g.j.set(g.g, "step", "buy_train")
    assert not g.call("before_dividend", gt)


def _site_draft(g):
    """The draft of 18xx.games' reading: Pass cards where they are drawn, else the first card, each pick
    naming the card's face value."""
    while g.g["round"] == "draft":
        hand, player = g.b_draft_hand(), acting(g)
        blanks = [c for c in hand if c.startswith("Pass")]
        if len(g.g["draft"]["deck"]) == 1 and not blanks:
            act(g, P(player, "pass"))
            continue
        card = blanks[0] if blanks else hand[0]
        act(g, P(player, "bid", company=card, price=g.call("face_value", g._company(card))))


def _gt_must_buy(g, cash):
    """Test setup: GT (P1 president at $100, P2 holding three shares) at its train step without a train,
    with `cash` in its treasury."""
    if g.DATA.variant is not None:  # the site's reading: its own draft first
        _site_draft(g)
    first_or(g, {"GT": ("P1", 100)})
    for cert in ("GT_1", "GT_2", "GT_3"):
        g.j.set(g.owner, cert, g.entity("player", "P2"))
    gt = g.entity("corporation", "GT")
    g.transfer(g.cash[gt], gt, BANK)
    give(g, "GT", cash)
    corporation_to_step(g, "GT", "buy_train")
    assert g.call("must_buy_train", gt)
    return gt


def test_emergency_money_raising_nothing_is_bought_between_the_issue_and_the_train():
    """§"Emergency Money Raising" (issue 39 case 1; BuyCompany#can_buy_company?, BuyTrain#buyable_trains): once
    it issues for a train it must buy, the corporation buys a private only after the bank's train, and no
    train from another corporation."""
    g = new_game(4)
    gt = _gt_must_buy(g, 0)
    _owns(g, "MAIL", "P3")
    n = next(n for n in range(1, 6) if g.call("emergency_bundle", gt, n))  # the shares it may issue
    act(g, C("GT", "sell_shares", shares=[f"GT_{4 + i}" for i in range(n)], percent=10 * n))
    assert g.state_has("done_this_turn", "emergency_issue")
    assert_refused(g, C("GT", "buy_company", company="MAIL", price=1), "Emergency Money Raising", "buys the train before")
    train = g._available_train_ids()[0]
    act(g, C("GT", "buy_train", train=train, price=80, variant="2"))
    act(g, C("GT", "buy_company", company="MAIL", price=1))
    assert g.owner["MAIL"] == gt


def test_emergency_money_raising_the_presidents_sale_keeps_his_presidency_and_raises_no_more_than_needed():
    """§"Emergency Money Raising" (issue 39 case 2; EmergencyMoney#causes_president_swap?,
    #selling_minimum_shares?): nothing left to issue, the president sells for the train; a sale handing the
    presidency of the corporation buying it to another is refused, and so is one whose last share is not
    needed."""
    g = new_game(4)
    gt = _gt_must_buy(g, 0)
    p1 = g.entity("player", "P1")
    for cert in ("GT_4", "GT_5", "GT_6", "GT_7", "GT_8"):
        g.j.set(g.owner, cert, POOL if cert != "GT_4" else p1)  # test setup: nothing left to issue
    g.transfer(g.cash[p1], p1, BANK)
    assert not g.call("emergency_issue_possible", gt)
    # P1 holds 30% against P2's 30%: selling his one share would make P2 president
    assert_refused(g, P("P1", "sell_shares", shares=["GT_4"], percent=10), "Emergency Money Raising",
                   "does not change the presidency")
    # with shares of another corporation: one covers the $80, two are more than needed
    nyc = g.entity("corporation", "NYC")
    g.j.set(g.corp["NYC"], "operated", True)
    for cert in ("NYC_1", "NYC_2"):
        g.j.set(g.owner, cert, p1)
    g.j.set(g.corp["NYC"], "par", 100)
    cell = g.market.par_cell(100)
    g.j.set(g.corp["NYC"], "cell", cell)
    g.stacks.setdefault(cell, []).append("NYC")
    assert_refused(g, P("P1", "sell_shares", shares=["NYC_1", "NYC_2"], percent=20), "Emergency Money Raising",
                   "no more than he needs")
    act(g, P("P1", "sell_shares", shares=["NYC_1"], percent=10))
    assert g.cash[p1] == 100 and g.call("price", nyc) == 100  # (he does not preside NYC: its price stays)


def _nyc_owns_a_train(g):
    """Test setup: NYC owns a 2-train from the bank's stock; its id."""
    from compiler.runtime.entities import DEPOT
    spare = next(t for t in g._available_train_ids() if g.trains[t].name == "2")
    g.move(g.trains[spare], DEPOT, g.entity("corporation", "NYC"))
    return spare


def test_emergency_money_raising_no_train_from_another_corporation_once_money_is_raised():
    """§"Emergency Money Raising" (issue 39 case 1; BuyTrain#buyable_trains, Train#buyable_trains with
    EBUY_FROM_OTHERS :never): with $30 and nothing raised GT may buy NYC's 2-train for $1; once it has issued
    shares for the train it must buy, or its president has sold for it, only the bank's train is for sale."""
    g = new_game(4)
    gt = _gt_must_buy(g, 30)
    spare = _nyc_owns_a_train(g)
    assert g.call("may_buy_train_from", gt, g.entity("corporation", "NYC"))
    n = next(n for n in range(1, 6) if g.call("emergency_bundle", gt, n))
    act(g, C("GT", "sell_shares", shares=[f"GT_{4 + i}" for i in range(n)], percent=10 * n))
    assert_refused(g, C("GT", "buy_train", train=spare, price=1), ("Buying Trains", "Emergency Money Raising"),
                   "may not buy a train from another corporation")
    # the president's sale: GT has nothing to issue and no cash; P1, no cash, sells one of two B&O shares
    g = new_game(4)
    gt = _gt_must_buy(g, 0)
    spare = _nyc_owns_a_train(g)
    p1 = g.entity("player", "P1")
    for cert in ("GT_4", "GT_5", "GT_6", "GT_7", "GT_8"):
        g.j.set(g.owner, cert, POOL)                         # test setup: nothing left to issue
    g.transfer(g.cash[p1], p1, BANK)
    g.j.set(g.corp["BO"], "operated", True)                  # test setup: B&O started at $90, P1 holds two shares
    g.j.set(g.corp["BO"], "par", 90)
    cell = g.market.par_cell(90)
    g.j.set(g.corp["BO"], "cell", cell)
    g.stacks.setdefault(cell, []).append("BO")
    for cert in ("BO_1", "BO_2"):
        g.j.set(g.owner, cert, p1)
    act(g, P("P1", "sell_shares", shares=["BO_1"], percent=10))
    assert g.state_has("done_this_turn", "emergency_sale") and not g.state_has("done_this_turn", "emergency_issue")
    assert_refused(g, C("GT", "buy_train", train=spare, price=1), ("Buying Trains", "Emergency Money Raising"),
                   "may not buy a train from another corporation")


def test_emergency_money_raising_a_sale_that_leaves_the_president_level_keeps_the_presidency():
    """§"Emergency Money Raising" (issue 39 case 2, the library's emergency_sale_limits with 1846's
    train_buyer guard): P1 with 50% of GT against P2's 30% may sell 20%, keeping the presidency at a tie
    (30% each), not 30%."""
    g = new_game(4)
    gt = _gt_must_buy(g, 0)
    p1 = g.entity("player", "P1")
    for cert in ("GT_4", "GT_5", "GT_6"):
        g.j.set(g.owner, cert, p1)                           # test setup: P1 holds 50%
    for cert in ("GT_7", "GT_8"):
        g.j.set(g.owner, cert, POOL)                         # nothing left to issue
    g.transfer(g.cash[p1], p1, BANK)
    while g.call("price", gt) > 50:
        g.call("market_move", gt, "left")                          # test setup: GT's shares at $50 or less
    assert not g.call("emergency_issue_possible", gt)
    assert g.call("price", gt) < g.call("dearest_train_price") <= 2 * g.call("price", gt)   # two shares needed, not three
    assert_refused(g, P("P1", "sell_shares", shares=["GT_4", "GT_5", "GT_6"], percent=30),
                   "Emergency Money Raising", "does not change the presidency")
    act(g, P("P1", "sell_shares", shares=["GT_4", "GT_5"], percent=20))
    assert g.call("president", gt) == p1 and g.b_percent(p1, gt) == 30


# ---------------------------------------------------------------- trains


def test_buying_trains_a_train_runs_once_in_an_operating_round():
    """§"Running Trains" (the minors' descriptions: 'cannot run this 2 train in the same OR in which the MS
    operated'; Route#process_run_routes: a train that operated): a corporation buying a minor that has run
    in this operating round does not run its train again."""
    g = new_game(4)
    first_or(g, {"GT": ("P1", 100)})
    _owns(g, "MS", "P2")
    g.j.set(g.g, "ran", g.g.get("ran", frozenset()) | {t.id for t in g.b_trains(g.entity("minor", "MS"))})
    corporation_to_step(g, "GT", "track_and_token")
    act(g, C("GT", "buy_company", company="MS", price=1))
    gt = g.entity("corporation", "GT")
    assert g.b_trains(gt) and not g._train_dicts(gt)


# ---------------------------------------------------------------- the site's reading


def test_18xx_games_reading_a_draft_pick_names_the_cards_face_value():
    """errata "18xx.games" (DraftDistribution#process_bid): the site's pick records the card's face value;
    the company costs its draft price when the draft ends."""
    g = new_game(4, cls=Site)
    player = acting(g)
    card = next(c for c in g.b_draft_hand() if c in ("MS", "BIG4")) if any(
        c in ("MS", "BIG4") for c in g.b_draft_hand()) else next(c for c in g.b_draft_hand() if not c.startswith("Pass"))
    item = g._company(card)
    if item.kind == "minor":
        assert_refused(g, P(player, "bid", company=card, price=g.call("draft_price", item)), "Private Company Draft", "face value")
    act(g, P(player, "bid", company=card, price=int(item.get("cost"))))


def test_18xx_games_reading_the_president_pays_the_rest_of_a_forced_purchase_in_it():
    """errata "18xx.games" (Train#buy_train_action): the site has no contribution action: a forced purchase
    the corporation cannot pay takes the rest from its president."""
    g = new_game(4, cls=Site)
    gt = _gt_must_buy(g, 30)
    p1 = g.entity("player", "P1")
    for cert in ("GT_4", "GT_5", "GT_6", "GT_7", "GT_8"):
        g.j.set(g.owner, cert, POOL)  # test setup: nothing left to issue
    cash, treasury, round_ = g.cash[p1], g.cash[gt], (g.g["set"], g.g["or"])
    assert 0 < treasury < 80
    income = sum(int(x.get("income")) for x in g.privates if g.owner[x.id] == p1 and not g.closed[x.id])
    act(g, C("GT", "buy_train", train=g._available_train_ids()[0], price=80, variant="2"))
    # (GT operated last: the next operating round has begun, and P1's privates paid him their income)
    paid_income = income if (g.g["set"], g.g["or"]) != round_ else 0
    assert g.cash[p1] == cash - (80 - treasury) + paid_income and g.cash[gt] == 0
