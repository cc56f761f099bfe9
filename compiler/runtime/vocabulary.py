"""The runtime's shared words: the action vocabulary, the steps of an operating turn, and the
moments a declared state is emptied. A leaf: `GameBase` (compiler/runtime/game.py) and its parts
import it; game.py re-exports every name.
"""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]
#: What an action that is no action dict breaks: the log format, 18xx.games' (the rule an IllegalAction
#: for it names)
LOG_FORMAT = "the 18xx.games action format: {'type': ACTION, 'entity': ID, 'entity_type': KIND, ...}"
#: The events the runtime raises itself (`GameBase.emit`) or the library raises for every title (`set_par`'s
#: `corporation_started`), each with the values it is raised with (what a
#: trigger `on` it may bind; `rulec check`'s E036), beside those a title's phases name in their `events` and
#: those its rules raise with `emit`: a trigger `on` another never fires (`rulec check`'s E015)
RUNTIME_EVENTS: dict[str, tuple[str, ...]] = {
    "corporation_started": ("corporation", "par price"),
    "first_of_type": ("train",),
    "floated": ("corporation",),
    "game_start": (),
    "operating_order_set": (),
    "operating_round_end": (),
    "operating_round_start": (),
    "phase_start": ("phase",),
    "president_changed": ("corporation", "former president", "new president"),
    "special_round_end": ("special round",),
    "stock_round_end": (),
    "stock_round_start": (),
    "trains_exported": ("train type",),
}
#: The steps of a corporation's operating turn, in order (the title's
#: `operating_steps` chooses among them; steps needing a map are skipped
#: while the title has none).
STEPS = ("lay_tile", "place_token", "track_and_token", "run_routes", "dividend", "buy_train", "buy_company",
         "redeem_shares", "corporate_buy_shares", "issue_shares", "corporate_sell_shares",
         "destination_connection")
MAP_STEPS = frozenset({"lay_tile", "place_token", "track_and_token"})
#: the actions each operating step takes, where they are not just the step's own name: a corporation
#: redeeming its own certificates is the vocabulary's `buy_shares` by a corporation, issuing them its
#: `sell_shares`
STEP_ACTIONS = {"track_and_token": ("lay_tile", "place_token"), "lay_tile": ("lay_tile",),
                "place_token": ("place_token",), "run_routes": ("run_routes",), "dividend": ("dividend",),
                "buy_train": ("buy_train",), "buy_company": (), "redeem_shares": ("corporation_buy_shares",),
                "corporate_buy_shares": ("corporate_buy_shares",), "issue_shares": ("corporation_sell_shares",),
                "corporate_sell_shares": ("corporate_sell_shares",)}
#: a final step (`buy_company`) in which the corporation buys privates or uses its privates' abilities
#: (the vocabulary's `buy_company`, and any action a private of its takes); it holds the turn while
#: one of them is legal, and one pass ends it. No action of another step leads to it.
HOLDING_STEPS = {"buy_company": ("buy_company",)}
#: a combined step: tiles and a station token in any order, one pass ends both
COMBINED_STEPS = {"track_and_token": frozenset({"lay_tile", "place_token"})}
#: the moments at which a declared state (`state NAME: set[...] reset on MOMENT, ...`) is emptied: as a stock
#: round starts, as each turn of a stock round (or of its auctions and special rounds) starts, as a
#: company's operating turn starts, as an operating round starts (or goes on after a round that interrupted it)
#: (a state with no `reset` lasts the game)
STATE_RESETS = ("stock_round_start", "stock_turn_start", "operating_turn_start", "operating_round_start")

#: What the runtime keeps of each corporation and minor from the start (`GameBase.corp`: each begins with
#: these values), besides its data; a field read of one in a rule may name them (`rulec check`'s E024)
CORP_STATE: dict[str, Any] = {"par": None, "cell": None, "floated": False, "closed": False, "tokens": 0,
                              "revenue": 0, "operated": False}
#: a company's station tokens beyond its charter (`extra_tokens`: an absorbed station, a private's extra
#: token) and those a take-over took from the right of its charter (`tokens_right`, 18CO §6.1.3): counts
#: its state keeps once one is met, none before (`DslSupport.attr` answers 0)
TOKEN_COUNTS = ("extra_tokens", "tokens_right")
#: what `DslSupport.attr` answers of a corporation from its data: its certificates (the president's first),
#: its charter's printed station prices (`token_prices`) and how many they are (`charter_tokens`); and of its
#: state, whether it has started (`started`: it has a par price), and the abilities of the ability card it holds
#: now (`card_abilities`: records as `abilities`, none without a card, `GameBase.card_ability_records`)
CORP_DATA_FIELDS = ("certificates", "token_prices", "charter_tokens", "started", "card_abilities")
#: what the runtime keeps of a private besides its data (`DslSupport.set_attr`: whether it has closed)
PRIVATE_STATE_FIELDS = ("closed",)

#: Vocabulary actions any player may send at any moment: the end of a game by the players' agreement.
OUT_OF_TURN = ("end_game",)

#: The entity kinds that may take an action whose first parameter is of a type (a minor binds as a
#: corporation); an action whose first parameter is of another type is offered to every entity.
ACTOR_KINDS = {"player": ("player",), "corporation": ("corporation", "minor"), "minor": ("minor",),
               "private": ("private",), "company": ("private", "corporation", "minor")}

#: Action types whose candidates the runtime generates from the vocabulary.
#: Round kinds whose own actions a title may name `<round>_<type>` (`special_buy_shares`): in that round
#: they answer for the vocabulary's `<type>`.
ROUND_ACTION_PREFIXES = ("special", "acquisition")

VOCABULARY = frozenset({"move_bid", "buy_company", "par", "buy_shares", "sell_shares", "pass", "run_routes",
                        "dividend", "buy_train", "contribute", "bankrupt", "bid", "discard_train",
                        "lay_tile", "place_token", "assign", "corporate_buy_shares", "corporate_sell_shares"})
