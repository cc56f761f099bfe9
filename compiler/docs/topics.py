"""The questions the reference site asks of every title.

Each `Topic` is answered by library parameters (`rulespecs/lib/18xx.rules`)
that a title sets, and by clauses of the title that bear on the question
without being that parameter (`related`: a clause name or a component kind
(`"draft"`), one clause (`"zone end_game"`), or one property of every
component of a kind (`"market.move_left"`)). The précis box at the top
of a title shows the topics with `precis=True`; every topic has a cross-title
page (`compare/<slug>.md`).

This module is data: the docs stage reads it, nothing else does.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Topic:
    slug: str
    label: str  # the précis row
    question: str  # the cross-title page's title
    params: tuple[str, ...]  # library parameters, the first being the answer
    related: tuple[str, ...] = ()
    values: dict[str, str] = field(default_factory=dict)  # words for enum values
    intro: str = ""
    precis: bool = True


TOPICS: tuple[Topic, ...] = (
    Topic(
        "players", "Players", "How many may play?", ("players",),
        related=("players_with_variants",),
        intro="The number of players a title (or variant) is played with.",
    ),
    Topic(
        "bank", "Bank", "How much money is in the bank?", ("bank",),
        related=("bank_inherited",),
        values={"unlimited": "unlimited: the bank never breaks"},
        intro="The bank's cash at the start; a finite bank that runs out usually ends the game.",
    ),
    Topic(
        "starting-cash", "Starting cash", "How much does each player start with?", ("starting_cash",),
        intro="Each player's cash at the start, usually by the number of players.",
    ),
    Topic(
        "certificate-limit", "Certificate limit", "How many certificates may a player hold?",
        ("cert_limit", "cert_limit_counts"),
        related=("certificates_counted", "cert_limit_excess", "bond_counts_for_cert_limit",
                 "zone no_cert_limit"),
        intro="The certificate limit: how many certificates a player may hold, and what counts "
              "against it.",
    ),
    Topic(
        "holding-cap", "Holding cap", "How much of one corporation may a player hold?",
        ("holding_cap", "pool_cap"),
        related=("zone unlimited_holding",),
        intro="The most of one corporation a player may hold, and the most the bank pool may hold.",
    ),
    Topic(
        "sell-buy-order", "Sell and buy", "May a player sell and buy in one turn, and in which order?",
        ("sell_buy_order", "first_round_selling", "president_certificate_saleable"),
        related=("sdr_turn", "stock_turn", "no_buy_after_sale", "buys_per_turn", "shares_per_buy",
                 "buy_back_after_sale", "first_stock_round_no_sales", "presidents_certificate_sellable"),
        values={
            "either": "either order: sell and buy in any order within the turn",
            "sell_then_buy": "sell first, then buy",
            "forbidden": "no selling in the first stock round",
            "granted_shares": "only shares a private granted, once priced",
            "any": "any shares",
        },
        intro="Within one stock-round turn: whether selling and buying mix, and in which order; "
              "what may be sold in the first stock round.",
    ),
    Topic(
        "price-drop", "Price drop on sales", "Does the price drop once per sale or per share?",
        ("sell_price_drop",),
        related=("sale_drop", "sale_quantity", "seller_orders_sales", "sell_fee",
                 "market.per_10_percent_sold", "market.pool_sale_drop", "market.sell_movement",
                 "clash market_drop_per_sale"),
        values={
            "once_per_round": "once per stock round, however many shares are sold",
            "per_share": "one step for each share sold",
            "per_sale": "one step for each sale, however many shares it holds",
            "per_sale_by_president": "one step for each sale by the president (or of the president's certificate)",
            "per_share_when_several_else_president": "one step for each share where several are sold; for a single "
                                                     "share, one step only when the president sells it",
            # 18xx.games' names for a market's moves (lib/engine/game/base.rb, SELL_MOVEMENT and
            # POOL_SHARE_DROP), which titles taking its market data write
            "left_block_pres": "one space left for each sale, only when the president sells",
            "down_block": "one step down at the end of a stock round when any of its shares lie in the market",
        },
        intro="How a player's sale moves the share price down on the stock market.",
    ),
    Topic(
        "pool-dividends", "Pool shares pay", "Do shares in the market pay dividends?",
        ("pool_shares_pay", "treasury_shares_pay"),
        related=("treasury_shares_paid", "bank_pool", "withhold_to", "dividend_rule"),
        values={
            "bank": "to the bank (the money leaves play)",
            "company": "to the company",
            "none": "nobody: they pay nothing",
        },
        intro="Who receives the dividend on shares in the bank pool (the market), and on shares "
              "in a company's treasury.",
    ),
    Topic(
        "end-of-stock-round", "End of a stock round", "What happens at the end of a stock round?",
        ("sold_out_rise",),
        related=("sdr_ends_when", "stock_round_ends", "priority_after_stock_round", "next_sr_order",
                 "priority_deal", "market.sold_out_at_round_end", "market.move_left",
                 "market.move_right"),
        values={"true": "a sold-out corporation's price rises", "false": "no price rise"},
        intro="What the end of a stock round does: sold-out rises, pool drops, the priority deal.",
    ),
    Topic(
        "capitalisation", "Capitalisation", "How is a corporation capitalised?",
        ("capitalisation", "treasury_shares_at", "float"),
        related=("capitalization", "share_price_from_treasury", "certificate_price",
                 "market_purchase_paid_to", "treasury_purchase_paid_to", "money_for_company_shares",
                 "float_counts", "float_by_phase", "director_pays"),
        values={
            "incremental": "incremental: each share bought from the company pays the company",
            "full": "full: the company receives its whole capital when it floats",
            "market": "at the market price",
            "par": "at par",
        },
        intro="Where the money for a company's shares goes, at what price, and when a company "
              "floats.",
    ),
    Topic(
        "game-end", "Game end", "What ends the game?",
        ("game_end", "end_share_price", "bank_broken_finishes"),
        related=("game_end", "end_trigger", "end_after_trigger", "end_on_bankruptcy",
                 "end_on_bank_broken", "end_on_share_price", "share_price_end_timing",
                 "zone end_game"),
        values={
            "bank_broken": "the bank breaks",
            "share_price": "a share price reaches the end",
            "share_price_max": "a share price reaches the top of the market",
            "bankruptcy": "a bankruptcy",
            "round": "the current round is finished",
            "set": "the current set of operating rounds is finished",
        },
        intro="The end conditions, and what is played out once one is met.",
    ),
    Topic(
        "dividends", "Revenue", "What may a corporation do with its revenue?",
        ("dividend_kinds", "half_pay_rounding"),
        related=("dividend_rule", "revenue_choice", "withhold_to"),
        values={"payout": "pay out", "withhold": "withhold", "half": "pay half"},
        intro="The choices for a corporation's revenue, and how a half payout is rounded.",
        precis=False,
    ),
    Topic(
        "trains", "Trains", "How does a corporation buy trains?",
        ("bank_trains_per_turn", "min_train_price", "must_own_train"),
        related=("must_buy_train", "trains_bought_one_at_a_time", "train_price_between_corporations",
                 "min_price_company_train_sale", "train_trading_between_companies_from"),
        intro="How many trains a corporation may buy from the bank in a turn, the least price "
              "between corporations, and whether a corporation must own a train.",
        precis=False,
    ),
    Topic(
        "opening", "Opening", "How does the game open?",
        ("first_round", "private_sale_order", "private_sale_bidding"),
        related=("draft", "auction_style", "auction_lot_order", "private_rules", "round"),
        values={"private_sale": "privates offered in order at a fixed price", "stock": "a stock round"},
        intro="How the game starts: a private sale, an auction, a draft, or a stock round.",
        precis=False,
    ),
)
