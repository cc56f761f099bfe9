"""The twins between the runtime and the z3 model (issue 32): counted by benchmarks/twins.py, and
never more than recorded here. Lower RECORDED when a builtin moves into the DSL."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: the twins at the last count; a change that adds one fails here (199 after the price drop, half pay,
#: share cost and payees moved into the library; 203 with the trade-in's discount and the abilities'
#: generic timing, `use_ability`, `ability_usable`, `ability_sold`, merged beside them as primitives;
#: 181 with the holdings, bonds, the market (price_after), arithmetic, stock-round turn and emergency rules below in the library, and
#: cert_limit(), holding_cap(), pool_cap() gone, which no rulespec called; 179 with sold_this_round and bought_this_turn
#: declared states of the library, and close_privates a library procedure over the primitive stays_open; 175 with
#: done_this_turn / mark_done_this_turn the titles' state over their enum turn_marks, and 18CO's
#: corporate_purchase_this_turn / note_corporate_purchase its state corporate_purchase; 174 with trade_in_discount a
#: library function; 172 with sold_this_turn the library's state of two moments (reset on stock_turn_start,
#: operating_turn_start) and free_cash a library function; 170 with corporation_of and can_emergency_sell library
#: functions; 169 with reduce_debt a library procedure over add_debt; 167 with the players out of the game the
#: library's state out_of_game, leave_game a procedure setting it and players_in_game a function counting; 166 with
#: forced_shortfall 1800's function over its bank_contribution, which its forced_purchase_help pays; 164 with debt
#: the library's amount per player, `state debt: map[player, money]`, and add_debt a procedure setting it; 163 with
#: granted the library's state over certificates; 167 after 4 new primitives (176 before those moves) with 18CO's
#: take-over (§6) moved out of the runtime's Python, where it had no twin and the proofs did not follow it, into the library's procedures check_take_over and
#: take_over, over three new primitives for what the model does not hold: take_over_stations (the map),
#: stack_charter (mines collected, the train limit, trains that ran) and close_corporation; and the end of a
#: stock round's price moves the library's trigger end_stock_round over the primitive market_order, in place of
#: the verifier's hand-written runtime step); 166 with bank_funded_shares a library function, a kind's parameter
#: defaults (`param bank_funds_on_par: int = 0`) now read by the components that do not set them; 165 with
#: offered_later a library function over private_sale_order, a parameter whose type names a kind of entity
#: (`list[private]`) now read as entities in the engine as in the model; 163 with first, must_buy_train and
#: in_receivership library functions (the model's trains reading their kind's defaults, as the engine's do); 162 with
#: len a library function over the quantifier count (which the model now reads over a name, too); 161 with
#: falling_sale_value a library function, a sum over 1..n of price_after_moves; 160 with face_value a library
#: function over the component's `cost`; 158 with row_price and row_slot 1880 Amira's functions over its round
#: track's data (`main.par_groups`: a field of a component that is no entity, read by engine and model alike); 161
#: with the first train of a type the library's procedure on_first_train (in place of the runtime's Python and the
#: verifier's hand-written runtime step), over three new primitives: rust_trains, make_obsolete and enter_phase; 159 with phase_value and ability_usable gone, which no rulespec called; 157 with phase_at_least and
#: train_limit library functions over the phases' records (each its `number`) and `phase_number`, the current
#: phase's place, and the take-overs' rise of the train limit the library's state train_limit_bonus; 155 with
#: floated and par_price library functions reading the corporation's fields (`corporation.floated`, `.par`); 151
#: with revenue and operated likewise, and president_certificate and held_certificates library functions over
#: `corporation.certificates`, its certificates in the order of its layout; 150 with president a library
#: function over president_certificate and holder_of (the runtime and the model call it where they need it); 149 with
#: private_on_sale a library function over private_sale_order (the first still the bank's, open); 146 with the
#: standing bids the library's amount `standing_bid: map[(private, player), money]` (a map keyed by a tuple), own_bid
#: a function reading it and place_bid, open_bid and move_bid procedures setting it over one new primitive,
#: bid_placed (the turn passes on); 145 with in_auction the library's flag, which the runtime sets as an auction
#: among a private's bidders starts and clears as it ends; 144 with highest_acquisition_bid a library function over
#: the acquisition round's bids, the library's amount acquisition_bids, by the new quantifier greatest (18CO's
#: corporation_bid sets the bid; acquisition_bid_placed, in place of acquisition_bid, passes the turn); 143 with
#: auction_discount the library's amount per private, which the runtime keeps on the private on auction; 142 with
#: phase_group a library function over the phases' records (`phases[phase_number - 1].group`), the model
#: choosing between names by the state; 141 with prices_frozen a library function over the markets' records
#: (`markets`, each its `frozen_in`), which the market's moves ask too; 139 with cheapest_train_price and
#: dearest_side_price library functions over the bank's trains and the cards' sides (the quantifiers `least`,
#: `greatest`); 131 with tokens_left, next_token_cost and last_token_cost library functions over a company's
#: `token_prices`, `charter_tokens` and its counts `tokens`, `extra_tokens`, `tokens_right`; 128 with the use
#: cubes on a company's ability card the library's amount cubes and spend_cubes a procedure over it, and
#: marker_assigned_by_player 1846's function over closed, holder_of and has_ability; 125 with pickable and pick
#: library DSL, and the draft's picks library states (draft_committed among them), its end the library's
#: end_draft; 122 with sale_price a library function over the library's amount sale_discount, which the procedure
#: lower_sale_price raises as every player passes on the private on sale, bank_buys_this_turn the library's one
#: amount (`state bank_buys_this_turn: int reset on operating_turn_start`), which train_bought counts, and
#: sellable a library function (a filter of held_certificates; the runtime offers its answer in its own order,
#: president's last; sell_out's twin still reads the model's copy, sellable_certs); 120 with 1880's round track a
#: state of the title's (track_slot), round_track_row_free its function and take_round_track_row its procedure;
#: 120 still with those three the library's, over its parameter operating_track (the title's round track,
#: required with operating_order: round_track), whose fields (`operating_track.par_groups`) the engine and the
#: model read from the component it names
#: 118 with the decisions owed the library's list state `decisions` (a DSL list state: ordered, bounded in the
#: model), pending_decision its function, require_decision and resolve_decision its procedures over one new
#: primitive, next_decision (who acts, and play going on once none is left)
#: 117 with the uses a company declares on its ability card the library's declared_uses, a state keyed by
#: (corporation, effect) (a component kind's key), and discount_used a library procedure setting it
#: 113 with started a library function over the corporation's field `started` (it has a par price),
#: dearest_train_price one over the depot's and the pool's trains (`greatest`), close_private a library
#: procedure (`set X.closed = true`, which the engine and the model assign for a private, and the primitive
#: remove_reservations(X)), limit_trains a library function over a train's `obsolete`, and close_minor a library
#: procedure over one new primitive, remove_stations (the map)
#: 112 with 18GJ's card offers its list state card_offers (`list[(player, corporation, bool)]`: a truth value as a
#: part), offered its function (`card_offers.first_for(P, C)`: the first offer waiting on P) and offer_card its
#: procedure, over one new primitive, deck_empty (the deck is the runtime's); pick_card reads and takes the offer
#: from that list in the engine and the model alike (oracles before)
#: 110 with a token a first tile took up placed again by check_token(C, city, true) (1880's 18xx.games reading,
#: under its `if pending_decision(C, place_token)`) in place of check_retoken, and check_station folded into
#: check_token (a slot an ability keeps, a squeezed token: the abilities' data, the same answer where a title has
#: none): one primitive, check_token, whose third argument waives the route (the map keeps which hex such a token
#: waits for)
#: 109 with bank_price a library function over the declared uses (declared_uses) and power_value
#: 108 with has_ability a library function over a component's abilities, `X.abilities` (its `ability` clauses as
#: records: key and fields, the title's data, read by the engine's GameBase.ability_records and the model's
#: AbilityBuiltins.ability_records alike); 107 with ability_value one too, a record's field read by its name
#: (`a[field]`); 105 with has_power and power_value library functions over `C.card_abilities` (the abilities of
#: the card C holds now, as records: GameBase.card_ability_records, AbilityBuiltins.card_ability_records, each
#: present in the model where C holds that card); 105 still with 18GJ's pick_card its procedure over the list state
#: card_offers (no title's state named in Python) and one new primitive, take_card (the deck is the runtime's;
#: hold_card since cards64);
#: 104 with use_power 18GJ's procedure over the library's declared_effects() and declared_uses
#: 103 with rust_trains a library procedure over the game's trains (`all_trains`, a collection the engine and
#: the model both give: every train, whoever holds it), `move t from holder_of(t) to scrap`; 101 with
#: in_special_round gone (18CO's one special round is `in_round(special)`; the validator starts the rounds the
#: title's rules call, `call_round(R)`) and special_round_held 18CO's state presidents_choice_held, which its
#: trigger on the runtime's new event special_round_end sets
#: 100 with shareholders gone: a loop over a corporation's certificates meets each holding once where the library's
#: opens_holding holds (pay_dividends, the take-over's payout); 99 with reset_corporation a library procedure over
#: moves, remove_stations and `set` of the corporation's state (`set C.cell = none`: its price token off the market)
#: 97 with stays_open a library function over `X.abilities`, and use_ability and ability_sold
#: library procedures over the declared states ability_uses and ability_round_uses (`map[(private, ability),
#: int]`, keyed by the private and its ability's key; the latter reset on operating_round_start) and one new
#: primitive, ability_window (who may use it now: its owner, phases and timing, which read the round's turns);
#: 96 with ability_lay_cost a library function over lay_cost(lay, discount) (`lay` a runtime type a routine may
#: take); 95 with ability_token a library procedure over place_station, counting into ability_uses (`spot` one too)
#: 92 with a private's tile lay the library's procedure ability_lay (its count of uses, ability_spent, counted by
#: count_ability_use, and its closing) over the one tile-placing primitive lay, and check_ability_lay and
#: check_ability_token folded into the map's checks check_lay and check_token, which a private's ability asks of
#: the map as a company does (ability_token checks its count and the tokens left in the library)
#: then (twins61b) card_of gone: the rules ask the library's holds_card, `len(C.card_abilities) > 0` (every card gives
#: an ability), the runtime and the model keep their own reads of the card held, then place_card_marker gone:
#: 18GJ's corporation_assign checks the card's power and spends its use (has_power, cubes, spend_cubes), and
#: the primitive place_marker places a corporation's marker, its card's (a city hex), then deck_empty 18GJ's
#: function over its state cards_taken (pick_card counts each card taken) and `all_ability_cards`, the title's
#: ability cards as records (a collection the engine and the model both give, as `train_cards`); 89 with both
#: then (twins61c) stock_round_number the library's state, counted by its trigger count_stock_rounds on the runtime's new
#: event stock_round_start, then note_sold gone (the model's `sold` read by nothing; a sale is the runtime's
#: "acted" through the library's sold_this_turn and sold_this_round), then acquisition_target the library's
#: state, which the acquisition round sets (the model read an oracle before); 86 with all three
#: then (twins61d) check_home_choice gone: 18GJ's chosen home is check_token(C, city, true), its first station; 93 with
#: remove_reservations() and unreserve_home(C) library procedures over one primitive, unreserve(X, home); 84 with both
#: 83 with acquisition_bid_placed folded into bid_placed: 18CO's corporation_bid, a bid made, passes the turn as
#: the library's bids do (the runtime's next bidder of the acquisition round, the model's turn_over for both);
#: then (stations62) take_station and return_token library procedures over the primitive remove_stations, whose
#: second argument takes one station off the map (`remove_stations(C, city)`), the city of the first removed its
#: answer, the uses of a station taken back and of a marker the library's ability_uses (count_ability_use,
#: ability_spent), with no Python copy in the runtime and no z3 mirror; 81;
#: then (cards62) draft_price a library function over the title's draft (the parameter opening_draft, whose fields
#: last_company_floor and last_company_discount the engine and the model read) and the library's state
#: draft_discount, which its procedure decline_last_company raises as a last company is declined (the model's
#: draft_price was an oracle before: any price from the floor to the cost), 80; replaying() gone, which no
#: rulespec called (the runtime asks its own question, GameBase._replaying, where a log's hidden draws count), 79
#: then (track62) set_revenue a library procedure (`set C.revenue`, the declared longer_trains use spent) and the game's
#: record of every run's revenue the library's state total_revenue, which the runtime's record reads, 78;
#: recorded_revenue folded into route_revenue (its third argument: the routes' records stand), 77
#: then (market62) par_prices a library function over the charter's own par_prices (once its `par`), else the
#: title's (1846 lists its par cells' prices, which the runtime and the model had read off the market), 76
#: then (corps62) closed a library function over the field `X.closed` (a private's, a minor's, a corporation's, as
#: GameBase.attr and the model's member read it), 75
#: then (checks63) corporation_named 1880's 18xx.games reading's function over a company's `key` (its symbol, a
#: name, `c.key == target`), 74; ability_window a library procedure over the ability's record (`owner`,
#: `from_phase`, `removed_on`, `when`), which use_ability asks and the runtime's lays and stations of a private of
#: the library's generic timing ask too (its Python copy gone; the model refused nothing before), 73
#: then (markers63) the train purchase marker the library's state train_marker, which its procedure
#: move_train_marker moves (the runtime calls it as a train is bought from the bank, the model's train_bought
#: too) and turn_resumed the library's flag of a turn resumed after a stock round; would_export a library
#: function over them and row_after_marker 1880 Amira's over them and the round markers (both oracles in the
#: model before), over one new primitive, end_called (the runtime's record of the end conditions met: an
#: oracle in the model), 72
#: then (orders63) the operating order the library's list state operators (`list[corporation | minor] max 3 reset
#: on operating_round_start`), which the runtime sets as a round begins and the rules read by
#: `operators.elements()` (a list's elements in order; operating_order() gone), and set_operating_position 18GJ's
#: procedure over the list's remove and insert(i, ...) (new: an element put at a place), 70
#: then (stations63) take_over_stations, takeover_station and swap_station (18CO §6.1.2-6.1.3) library procedures
#: and a function over two new primitives: stations(C) (the cities of C's stations on the map; stations(C, city)
#: the one in a city named either way: in the model a bounded list of numbers standing for cities, the oracles
#: stations_on_map and station_city, which the validator reads off the engine's map) and hand_over_station(C, O,
#: city) (a station changes hands in its circle); the choices owed after a take-over the library's list state
#: station_swaps and its amount station_swaps_left (the runtime's `station_swaps` before), a pass ending the choice
#: the library's end_station_swap in the engine and the model alike (the model havocked the decisions before), 69
#: (absorb_station stays a twin: over stations(C) the model's loop past the list's bound leaves the counts it
#: writes any value, and 1846's tokens_valid no longer held of buy_company)
#: then (cards64) letters_union 1880's 18xx.games reading's function over its building rights, the letters A to D
#: (`"A" in rights`, a list of the sixteen unions indexed by the letters held; the model's was opaque), 68;
#: take_card and discard_cards 18GJ's procedures (the cubes on a card taken, the cubes and declared uses gone with
#: the cards) over one primitive, hold_card(C, card) (the deck and the card C holds: a card from the deck, or
#: none, the card held leaving the game with its marker), 67
#: then (stock64) close_corporation a library procedure over moves, transfers and remove_stations (the
#: certificates it holds of others to the market where held_shares_on_close says pool, its own to the scrap
#: heap, cash to the bank, trains to the scrap heap, privates closed, stations off the map but those of a
#: take-over's pending choice, station_swaps; the game ends where game_end names all_closed): every closing
#: of the engine (a close cell, a take-over, an acquisition round) and the model's take-over run it; the
#: runtime keeps its part as corporation_closed is emitted (the token off its cell's stack, the sanction of
#: cert_limit for corporation_closed), and the model's `set C.closed` of a corporation is nothing (it keeps
#: no closed corporation), 66
#: then (board64) remove_stations and remove_station the library's procedures over hand_over_station(C, none,
#: city) (a station off the map, its circle free); 1846's absorb_station the title's procedure over the minor's
#: station (its charter holds one token: no loop past the list's bound); 18CO's check_return_token the title's
#: procedure over stations(C) and stations(C, city) (tests/test_board_stations.py), 63
#: then (rounds64) in_round, in_step and acting library functions over four values of the round machinery's state
#: (current_round, current_step, operating_company, acting_entity, read as phase_number is; a combined step,
#: track_and_token, the library's), and end_turn gone (1800's bankruptcy ends its last step, buy_train), 59
#: then (misc65) sell_out a library procedure (a bankrupt player's certificates to the market, corporation by corporation,
#: over sellable, moves, transfers, price_drop_on_sale and check_president; the runtime records a pool past its cap where
#: the title sanctions pool_cap for the action), its loop over every corporation followed in the model for those a cut
#: scope leaves out by verify/left_out.py (in place of the twin's own handling of them), 58
#: then (turns65) pass_turn, bid_placed, bought, private_sold and end_step library procedures, and next_decision
#: gone, over two primitives: move_turn(E, m) (the round machinery moves on after E's move m, a value of the
#: library's enum turn_move: who acts next, the step's, turn's, auction's or round's end) and give_grants(P, X)
#: (what a private grants its buyer); a purchase's float and presidency checks the library's bought, 54
#: then (board65) home_open and place_home_token the library's function and procedure over one new primitive of the
#: map, home_spots(C) (where C's home station may go now: its printed home's city, or the open cities for a home
#: chosen at float, whose decision place_token the procedure owes in the model too), 53
#: then (market65) the market's cells values of the DSL (a corporation's `cell`, none off the market, and
#: `market_cells`, each its row, column, price, zones and the cell a move reaches, up, down, left, right; `set
#: C.cell = X` places the price token: the runtime's MarketCell, the model's compiler/verify/cells.py over its
#: row and column terms): set_par and move_price library procedures over them (par_cell the rightmost, topmost
#: par cell of a price), zones gone for the library's in_zone(C, z) (its cell's zones or its card's), 50
#: then (flow66) end_called a library function over game_end_reason, the runtime's record of the end conditions
#: met read as a field of the game's state (`g.g["end_reason"]`; in the model an oracle of the reason, as
#: end_called's was), 49; make_obsolete a library procedure over its state obsolete_trains (`set[train]`: a
#: train type by its card's key, a part of a state the engine and the model both key so, `ir.state_part_keys`),
#: which limit_trains and the runtime's scrapping of a phased-out train read (the model's oracle `obsolete` gone), 48;
#: call_round a library procedure over its states round_due and rounds_held (`set[special_round]`, the library's
#: enum of none, which 18CO replaces: an enum may now be empty), the latter set by the runtime as the round ends
#: (a trigger on special_round_end(R) was tried: the model cannot bind an event's argument, so its transition was
#: unsupported in every title) (the model's twin changed nothing), 47
#: then (stock66) price the library's function over the cell, `C.cell.price` (a field of none, before C has a
#: price, refused in the engine as in the model), 46;
#: (cost66) token_cost a library function (a declared free_token use, a slot the company's reserved_slot ability
#: keeps, slot_abilities and kept_slot, its price or teleport_price) over a station spot's `reserved` and `reached`,
#: the map's answers for the company that checked it (the model's oracles of an opaque spot), 45
#: then price_after_moves a library function, `C.cell.way[d][n].price`, over a market cell's `way` (the cells a
#: token passes moving one way again and again, to where the next move stays; past its end, that cell; in the
#: model read at a count that is a term up to the market's longest way: exact, no bound of certificates), 44
#: then (twins67b) collected the library's amount `collected: map[(corporation, kind_name), int]` (a kind of the
#: title's collect_on_lay a state's part, `ir.collect_kinds`), which the runtime's collect-on-lay counts and the
#: library's take_over moves, and discard_collected its procedure over it and collected_gone (the kinds out of the
#: game, which the runtime's collect-on-lay reads), 42
#: then (twins67c) tile_color a library function over a hex's field `color`, the hex named by its key (the map's
#: answer, GameBase.hex_field; in the model an opaque value per hex, as the twin's was), 41; remove_markers a
#: library procedure over place_marker(X, none) (X's marker off the map: a private's, a corporation's cards'; in the
#: model nothing, markers outside it, as the twin's), the privates' closing asking marker_leaves_on_close, 40
#: then (twins67a) check_float a library procedure over float_sold (the title's float_counts, now the library's) and
#: float_percent (a corporation's `float` a percent or none, its map by its par cell's zone `float_by_zone`, 18CO,
#: or by phase `float_by_phase`, 1880 Romania, else the title's float: a kind's parameter declared `none = none` read
#: as none), its train delivered at float moved by the rules, 39
RECORDED = 39

#: builtins that became library functions or procedures (one new primitive, bought_this_turn, for two)
MOVED = ["min", "max", "floor_to", "ceil_to", "pool_percent", "sold_percent", "pool_certificates",
         "treasury_certificates", "open_privates", "pay_per_share", "owner", "director", "may_buy_now",
         "may_sell_now", "can_sell", "emergency_seller", "emergency_shortfall", "close_minors", "price_after", "bonds_of",
         "close_privates", "trade_in_discount", "free_cash", "corporation_of", "can_emergency_sell",
         "reduce_debt", "leave_game", "players_in_game", "add_debt", "bank_funded_shares",
         "offered_later", "first", "must_buy_train", "in_receivership", "len",
         "falling_sale_value", "face_value", "phase_at_least", "train_limit", "floated", "par_price", "revenue", "operated",
         "president_certificate", "held_certificates", "president", "private_on_sale", "own_bid",
         "place_bid", "open_bid", "move_bid", "highest_acquisition_bid", "phase_group", "prices_frozen",
         "cheapest_train_price", "dearest_side_price", "spend_cubes", "sale_price",
         "sellable", "round_track_row_free", "take_round_track_row",
         "pending_decision", "require_decision", "resolve_decision", "discount_used",
         "started", "dearest_train_price", "close_private", "limit_trains", "close_minor", "bank_price",
         "market_move", "has_ability", "ability_value", "has_power", "power_value", "declared_effects",
         "reset_corporation", "stays_open", "use_ability", "ability_sold", "remove_reservations", "unreserve_home",
         "ability_lay_cost", "ability_token", "ability_lay", "draft_price", "set_revenue", "par_prices",
         "closed", "ability_window", "would_export", "close_corporation", "in_round", "in_step", "acting", "sell_out",
         "pass_turn", "bid_placed", "bought", "private_sold", "end_step", "home_open", "place_home_token",
         "set_par", "move_price", "in_zone", "end_called", "make_obsolete", "call_round", "price", "token_cost",
         "price_after_moves", "discard_collected", "tile_color", "remove_markers", "check_float"]

#: builtins that became declared states of the library, read as `NAME(a, b)` where the builtin was called
STATES = ["collected"]


#: builtins folded into the map's checks of a company's lay and station: check_lay and check_token of a private
#: are its ability's (the rules of its count, cost and closing the library's ability_lay and ability_token)
FOLDED = {"check_ability_lay": "check_lay", "check_ability_token": "check_token"}


@functools.cache
def _census() -> dict[str, list[str]]:
    spec = importlib.util.spec_from_file_location("twins", ROOT / "benchmarks" / "twins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.census(ROOT)


def test_twins_do_not_grow():
    found = _census()
    assert found["twins"], "no twin found: the census no longer finds GameBase or Builtins"
    assert len(found["twins"]) <= RECORDED, (
        f"{len(found['twins'])} builtins have a hand-written z3 twin, more than the {RECORDED} recorded: "
        "write the new behaviour as a DSL procedure in rulespecs/lib/18xx.rules"
    )


def test_price_drop_on_sale_is_the_librarys():
    """The price drop on sale is a procedure of the library, written once (issue 32's walk-through)."""
    found = _census()
    assert "price_drop_on_sale" not in found["twins"] + found["engine_only"]
    assert "procedure price_drop_on_sale" in (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")


def test_a_corporations_holdings_are_met_through_its_certificates():
    """No `shareholders` builtin: the library's loops over a corporation's certificates act once per holding
    (opens_holding), the engine and the model derived from the same lines."""
    found = _census()
    assert "shareholders" not in found["twins"] + found["engine_only"] + found["model_only"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "shareholders(" not in rules and "opens_holding(c)" in rules


def test_half_pay_rounding_is_the_librarys():
    found = _census()
    assert "half" not in found["twins"] + found["engine_only"]
    assert "function half(revenue: money)" in (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["share_cost", "payee", "dividend_payee"])
def test_the_share_policies_are_the_librarys(name):
    """treasury_shares_at, capitalisation, pool_shares_pay and treasury_shares_pay: read by library
    functions with `match`, no longer builtins with z3 twins."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"]
    assert f"function {name}(" in (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", MOVED)
def test_the_moved_rules_are_the_librarys(name):
    """Each is written once, in the library, over primitives: no `b_` method, no z3 twin."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert f"function {name}(" in library or f"procedure {name}(" in library


@pytest.mark.parametrize("name", STATES)
def test_the_moved_states_are_the_librarys(name):
    """Each is the library's declared state, which the engine and the model both hold: no `b_` method, no z3 twin."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert f"  state {name}: " in library


def test_a_turn_ends_with_its_last_step():
    """No end_turn builtin: a rule that ends a company's turn at its train purchase, the last step of its turn,
    ends that step (1800's bankruptcy, §11.11), as the engine and the model both derive from end_step."""
    found = _census()
    assert "end_turn" not in found["twins"] + found["engine_only"] + found["model_only"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "end_turn(" not in rules


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_a_privates_lay_and_station_are_checked_by_the_maps_one_check(name):
    """No check of a private's own: the titles ask check_lay and check_token of the private, and the library's
    ability_lay and ability_token count its uses (ability_spent) where the runtime counted them in Python."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert FOLDED[name] in found["twins"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert f"{name}(" not in rules
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "function ability_spent(" in library and "procedure count_ability_use(" in library


#: builtins of the rounds' bookkeeping folded into another routine of the same meaning (the turn passes on)
TURN_FOLDED = {"acquisition_bid_placed": "bid_placed"}


@pytest.mark.parametrize("name", sorted(TURN_FOLDED))
def test_a_bid_passes_the_turn_by_one_primitive(name):
    """A bid made, in the stock round's auctions or the acquisition round's (18CO §7.1.1), passes the turn by
    the library's bid_placed, over the one primitive move_turn: the runtime moves to the round's next bidder,
    the model's twin havocs the turn."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert TURN_FOLDED[name] not in found["twins"] and "move_turn" in found["twins"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert f"{name}(" not in rules
    co = (ROOT / "rulespecs" / "18co.rules").read_text(encoding="utf-8")
    bid = co[co.index("action corporation_bid("):]
    assert f"do {TURN_FOLDED[name]}(bidder)" in bid[:bid.index("\n  }")]


#: runtime bookkeeping that became a declared state of the library (`state NAME: set[...] reset on MOMENT`)
STATES = ["sold_this_round", "bought_this_turn", "sold_this_turn", "out_of_game", "debt", "granted", "standing_bid",
          "in_auction", "acquisition_bids", "auction_discount", "cubes", "sale_discount",
          "bank_buys_this_turn", "track_slot", "decisions", "declared_uses", "ability_uses", "ability_round_uses",
          "stock_round_number", "acquisition_target", "draft_discount", "total_revenue", "operators",
          "obsolete_trains", "round_due", "rounds_held"]


@pytest.mark.parametrize("name", STATES)
def test_the_states_the_rules_keep_are_the_librarys(name):
    """Read NAME(...), set by the rules that change it, emptied by the runtime at its moment: no `b_`
    method, no z3 twin."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert f"state {name}: " in (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")


def test_the_stock_rounds_are_counted_by_the_librarys_trigger():
    """stock_round_number: the library's state, which its trigger count_stock_rounds raises as the runtime's
    event stock_round_start comes: 1 in the first stock round, a private sale opening the game (1800)
    among them; none while 1846's draft is played."""
    from compiler.emit.engines import game_class

    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "trigger count_stock_rounds on stock_round_start" in library
    for name, players, first in (("1800", ["Ann", "Bob"], "stock"), ("1846", ["Ann", "Bob", "Cy"], "draft")):
        g = game_class(name)(players=players, seed=1)
        held = 1 if first == "stock" else 0
        assert g.g["round"] == first and g.state_amount("stock_round_number") == held, name
        g._start_stock_round(0)  # (the runtime's next stock round)
        assert g.state_amount("stock_round_number") == held + 1, name


def test_replaying_is_the_runtimes_own_question():
    """replaying() is no builtin: no rulespec asked it, and the model answered it with a constant. The runtime asks
    its own question (GameBase._replaying) where another engine's log hides its draws (a draft's hands, the
    dealt seating)."""
    found = _census()
    assert "replaying" not in found["twins"] + found["engine_only"] + found["model_only"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "replaying(" not in rules


def test_a_sale_is_noted_by_the_librarys_states_alone():
    """No note_sold: the turn's and the round's sales are the library's sold_this_turn and sold_this_round,
    which the runtime reads for its own bookkeeping (a seller has acted); the model's `sold`, which nothing
    read, is gone."""
    found = _census()
    assert "note_sold" not in found["twins"] + found["engine_only"] + found["model_only"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "note_sold(" not in rules


#: runtime bookkeeping that became a declared state of the titles that keep it (over the title's own enum, or
#: the title's rule alone), by the rulespec that declares it
TITLE_STATES = {"done_this_turn": ["1800.rules", "1846.rules", "1880-romania.rules", "18co.rules"],
                "corporate_purchase": ["18co.rules"], "corporate_purchased": ["18co.rules"],
                "card_offers": ["18-grand-junction.rules"]}


@pytest.mark.parametrize("name", sorted(TITLE_STATES))
def test_the_states_the_titles_keep_are_theirs(name):
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert f"mark_{name}" not in found["twins"] + found["engine_only"] + found["model_only"]
    for path in TITLE_STATES[name]:
        assert f"state {name}: " in (ROOT / "rulespecs" / path).read_text(encoding="utf-8"), path


def test_a_held_card_and_its_marker_are_the_rules():
    """card_of and place_card_marker are no builtins: whether a company holds an ability card is the library's
    holds_card over `C.card_abilities`, and 18 Grand Junction's Lemuel Morrissey token is its action's rules over
    has_power, cubes, spend_cubes and the primitive place_marker."""
    found = _census()
    for name in ("card_of", "place_card_marker", "deck_empty"):
        assert name not in found["twins"] + found["engine_only"] + found["model_only"], name
    assert "place_marker" in found["twins"]
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "function holds_card(corporation: corporation)" in library
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "card_of(" not in rules and "place_card_marker(" not in rules
    assert 'has_power(corporation, "bonus_token")' in rules
    gj = (ROOT / "rulespecs" / "18-grand-junction.rules").read_text(encoding="utf-8")
    assert "function deck_empty()" in gj and "state cards_taken: int" in gj


@pytest.mark.parametrize("name", ["check_retoken", "check_station", "check_home_choice"])
def test_the_station_guards_are_check_token(name):
    """A token placed again, a station in a kept slot or beside the circles, and a home chosen when a company
    floats (18GJ's SLVS): the one primitive check_token (its third argument: no route needed), not a guard
    builtin with a z3 twin of its own each."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert "check_token" in found["twins"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert f"{name}(" not in rules and "check_token(corporation, city, true)" in rules


def test_where_unsold_certificates_sit_is_written_once():
    """The library's function ipo_of: no hand copy in the model (Model.ipo_of), none in the runtime
    (GameBase._ipo_of reads no capitalisation: it calls the compiled function)."""
    import ast

    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "function ipo_of(corporation: corporation)" in library
    model = ast.parse((ROOT / "compiler" / "verify" / "model.py").read_text(encoding="utf-8"))
    (cls,) = [n for n in model.body if isinstance(n, ast.ClassDef) and n.name == "Model"]
    assert "ipo_of" not in {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}
    game = ast.parse((ROOT / "compiler" / "runtime" / "game.py").read_text(encoding="utf-8"))
    (base,) = [n for n in game.body if isinstance(n, ast.ClassDef) and n.name == "GameBase"]
    (fn,) = [f for f in base.body if isinstance(f, ast.FunctionDef) and f.name == "_ipo_of"]
    body = ast.unparse(fn)
    assert "capitalisation" not in body and "ipo_of" in body


#: builtins that became a title's own function (the rule is that title's alone), by the rulespec that defines it
TITLE_ROUTINES = {"forced_shortfall": "1800.rules", "row_price": "1880-romania-variants.rules",
                  "row_slot": "1880-romania-variants.rules", "marker_assigned_by_player": "1846.rules",
                  "offered": "18-grand-junction.rules", "offer_card": "18-grand-junction.rules"}


@pytest.mark.parametrize("name", sorted(TITLE_ROUTINES))
def test_the_moved_title_rules_are_the_titles(name):
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    text = (ROOT / "rulespecs" / TITLE_ROUTINES[name]).read_text(encoding="utf-8")
    assert f"function {name}(" in text or f"procedure {name}(" in text


# ---------------------------------------------------------------- the DSL gaps these moves closed


def test_a_kinds_parameter_default_is_read_where_a_component_does_not_set_it(rulespecs_loaded):
    """`param bank_funds_on_par: int = 0` on the corporation kind: 1846's corporations, which do not set it,
    read 0 in the engine and the model alike (a gap before, which kept bank_funded_shares a builtin);
    18CO's DPRT corporations read their own 1."""
    from compiler.emit.engines import game_class
    from compiler.verify.model import Model

    for name, want in (("1846", {0}), ("18CO", {0, 1})):
        title = rulespecs_loaded.program.titles[name]
        model = Model(title)
        read = {model.data[c]["bank_funds_on_par"] for c in model.corporations}
        g = game_class(name)(players=["Ann", "Bob", "Cy"], seed=1)
        played = {g.attr(c, "bank_funds_on_par") for c in g.corporations}
        assert read == played == want, (name, read, played)


def test_a_parameter_typed_by_a_kind_reads_as_its_entities(rulespecs_loaded):
    """`private_sale_order: list[private]`: the engine's DSL reads 1800's order as the privates, as the model
    does (a list of keys before, which kept offered_later a builtin)."""
    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    g = game_class("1800")(players=["Ann", "Bob"], seed=1)
    order = g.as_entities(g.param("private_sale_order"))
    assert [x.kind for x in order] == ["private"] * 3 and [x.id for x in order] == ["MT", "DSL", "RGS"]
    # the library's offered_later over it: MT on sale first, the other two behind it
    offered_later = g.ROUTINES["offered_later"]
    assert [offered_later(g, x) for x in order] == [False, True, True]
    model = Model(rulespecs_loaded.program.titles["1800"])
    lifted = Translator(model).param_value("private_sale_order", Translator(model).new_ctx(model.vars.fresh_state("s")))
    assert [str(v) for v, _ in lifted.elems] == [str(model.z(model.entity("private", k))) for k in ("MT", "DSL", "RGS")]


def test_len_is_a_count_in_the_engine_and_the_model(rulespecs_loaded):
    """The library's len(xs) is count(x in xs: true): the engine counts a list's elements and a name's
    letters; the model counts the same, reads a name's letters as the engine iterates a string, and gives
    an oracle (the engine's answer) for a value it does not follow, where it refused such a count before."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.lang import syntax as s
    from compiler.verify.model import Model
    from compiler.verify.terms import Opaque
    from compiler.verify.translate import Translator

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    assert g.call("len", g.b_available_trains()) == len(g.b_available_trains()) > 0
    assert g.call("len", "AB") == 2 and g.call("len", []) == 0
    assert "len" not in _census()["model_only"]

    model = Model(rulespecs_loaded.program.titles["1846"])
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    count = s.Quantifier("count", "x", s.Name("xs"), s.Bool(True))
    ctx.locals["xs"] = "ABC"
    assert tr.quantifier(count, ctx) == 3
    ctx.locals["xs"] = Opaque("a name the model does not follow")
    answer = tr.quantifier(count, ctx)
    assert z3.is_int(answer) and any(name.startswith("count(") for name, _, _ in ctx.shared.oracles)


def test_a_range_past_the_models_bound_is_any_value_not_a_cut_one(rulespecs_loaded):
    """A range whose end is a term is read up to the model's bound (the most certificates, or shares, a
    corporation has): within it the sum and the loop are exact; past it, what a quantifier or a `for`
    works out is any value the engine could find, never the cut range's (which would prove what the
    engine does not do: `falling_sale_value` of more shares than the bound)."""
    import z3

    from compiler.lang import syntax as s
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    model = Model(rulespecs_loaded.program.titles["1846"])
    most = max(max(len(model.certs_for(c.id)), sum(cert.percent for cert in model.certs_for(c.id)) // 10)
               for c in model.corporations)
    tr = Translator(model)
    n = z3.Int("n")

    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    ctx.locals["n"] = n
    value = tr.quantifier(s.Quantifier("sum", "k", s.Range(s.Int(1), s.Name("n")), s.Int(1)), ctx)

    def possible(*facts):
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *facts)
        return solver.check() == z3.sat

    assert not possible(n == 3, value != 3)  # exact within the bound
    assert possible(n == most + 2, value == most + 2)  # past it, the engine's answer is possible

    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    player = model.players[0]
    ctx.locals["n"], ctx.locals["p"] = n, model.z(player)
    before = ctx.state[f"cash:{player.id}"]
    loop = s.For("k", s.Range(s.Int(1), s.Name("n")), (s.Transfer(s.Int(1), s.Name("bank"), s.Name("p")),))
    tr.stmt(loop, ctx)
    after = ctx.state[f"cash:{player.id}"]
    assert not possible(n == 3, after != before + 3, *ctx.shared.guards)
    assert possible(n == most + 3, after == before + most + 3, *ctx.shared.guards)


def test_a_components_field_is_the_titles_data_in_the_engine_and_the_model(rulespecs_loaded):
    """`main.par_groups[row / main.rows_per_par_price]` (1880 Amira's row_price): a field of a component that
    is no entity (the round track `main`) is read from the title's data by the engine and the model alike;
    the model indexes that fixed list at a symbolic row (an oracle before: row_price was a builtin, its
    twin any amount), so row 13 can only read par 70 there, as it does in the engine."""
    import z3

    from compiler.app.command import find_title
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = find_title(rulespecs_loaded, "1880 Romania", "Amira")
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    row = z3.Int("row")
    ctx.locals["row"] = row
    price = tr.call("row_price", [row], {}, ctx)
    slot = tr.call("row_slot", [row], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, row == 13)
    assert solver.check() == z3.sat
    solver.add(z3.Or(price != 70, slot != 1))
    assert solver.check() == z3.unsat
    # a row past the track's 16 is refused, as the engine fails on it
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, row == 16)
    assert solver.check() == z3.unsat


def test_a_taken_round_track_row_is_the_librarys_state_in_the_model(rulespecs_loaded):
    """1880's round track: take_round_track_row (the library's procedure) sets the company's track_slot, and
    round_track_row_free (its function) reads it over the title's operating_track, so the model knows a row it
    has just taken is no longer free, and a row past the par price's four never is (an oracle before: any
    answer)."""
    import z3

    from compiler.app.command import find_title
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = find_title(rulespecs_loaded, "1880 Romania", None)
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    corp = next(c for c in model.corporations if c.id == "GWR")
    ctx.state[f"par:{corp.id}"], ctx.state[f"has_par:{corp.id}"] = z3.IntVal(70), z3.BoolVal(True)
    tr.call("take_round_track_row", [model.z(corp), z3.IntVal(2)], {}, ctx)
    taken = tr.call("round_track_row_free", [z3.IntVal(70), z3.IntVal(2)], {}, ctx)
    other = tr.call("round_track_row_free", [z3.IntVal(70), z3.IntVal(4)], {}, ctx)
    below = tr.call("round_track_row_free", [z3.IntVal(70), z3.IntVal(3)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check(below) == z3.sat                 # another row of the 70s may still be free
    assert solver.check(z3.Or(taken, other)) == z3.unsat


def test_a_declared_use_of_a_card_is_the_librarys_state_in_the_engine_and_the_model(rulespecs_loaded):
    """18GJ's declared uses (Adolphus Meyer's discount, Rufus Snape's free token): the library's
    `declared_uses: map[(corporation, effect), int]`, keyed by an effect (a component kind's key). use_power sets
    it, the library's discount_used and a station placed spend it; the runtime's Python kept it before (`armed`),
    which the model read as an oracle, and discount_used was a builtin with a z3 twin that did nothing."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator
    from tests.engine_helpers import overlay_game

    # (the title's map is a gap: the marked, invented test map of tests/test_18gj_presidents.py)
    g = overlay_game("18 Grand Junction", None, ROOT / "tests" / "fixtures" / "18gj_test_map.rules")(
        players=["Ann", "Bob", "Cy"], seed=1)
    drg = g.entity("corporation", "DRG")
    g.j.set(g.g, "cards", {"DRG": "MEYER"})  # (test setup: DRG holds Meyer with his three cubes)
    g.state_put("cubes", (drg,), 3)
    g.call("use_power", drg, 2)
    assert g.g["state:declared_uses"] == {("DRG", "train_discount"): 2} and g._armed(drg, "train_discount") == 2
    g.call("discount_used", drg)
    assert g.state_amount("declared_uses", drg, "train_discount") == 0 and not g._armed(drg, "train_discount")

    model = Model(rulespecs_loaded.program.titles["18 Grand Junction"])
    c = model.entity("corporation", "DRG")
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    index = {card["key"]: i for i, card in enumerate(model.cards, start=1)}
    meyer, snape = index["MEYER"], index["SNAPE"]
    discount, token = state_var("declared_uses", (c, "train_discount")), state_var("declared_uses", (c, "free_token"))
    tr.call("use_power", [model.z(c), 2], {}, ctx)
    used = dict(ctx.state)
    tr.call("discount_used", [model.z(c)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"card:{c.id}"] == meyer)
    assert solver.check() == z3.sat  # Meyer's two cubes may be declared
    solver.add(z3.Or(used[discount] != 2, used[token] != pre[token], ctx.state[discount] != 0))
    assert solver.check() == z3.unsat
    # Snape's declared free token is spent by the next station placed
    ctx = tr.new_ctx(pre)
    tr.call("use_power", [model.z(c), 1], {}, ctx)
    declared = ctx.state[token]
    tr.builtins.b_place_station(ctx, model.z(c), None)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"card:{c.id}"] == snape)
    assert solver.check(declared != 1) == z3.unsat and solver.check(ctx.state[token] != 0) == z3.unsat
    # a second declaration waits for the first to be spent: refused
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"card:{c.id}"] == snape, pre[token] == 1)
    assert solver.check() == z3.unsat


def test_the_bank_price_is_the_librarys_over_the_declared_uses(rulespecs_loaded):
    """bank_price(C, T), Adolphus Meyer's discount: the library's function over the declared uses (the library's
    state declared_uses) and the card's discount_per_use, in the engine and the model alike (a builtin before,
    whose z3 twin took any discount up to the card's most, an oracle): two cubes declared take 20% off."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.terms import Sel
    from compiler.verify.translate import Translator
    from tests.engine_helpers import overlay_game

    assert "bank_price" not in _census()["twins"] + _census()["engine_only"] + _census()["model_only"]
    g = overlay_game("18 Grand Junction", None, ROOT / "tests" / "fixtures" / "18gj_test_map.rules")(
        players=["Ann", "Bob", "Cy"], seed=1)
    drg = g.entity("corporation", "DRG")
    train = g.b_available_trains()[0]
    assert g.call("bank_price", drg, train) == train.price
    g.j.set(g.g, "cards", {"DRG": "MEYER"})  # (test setup: DRG holds Meyer with his three cubes)
    g.state_put("cubes", (drg,), 3)
    g.call("use_power", drg, 2)
    assert g.call("bank_price", drg, train) == train.price * 80 // 100

    model = Model(rulespecs_loaded.program.titles["18 Grand Junction"])
    c = model.entity("corporation", "DRG")
    t = model.trains[0]
    train_term = Sel([(t, True)])
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    plain = tr.call("bank_price", [model.z(c), train_term], {}, ctx)
    tr.call("use_power", [model.z(c), 2], {}, ctx)
    discounted = tr.call("bank_price", [model.z(c), train_term], {}, ctx)
    index = {card["key"]: i for i, card in enumerate(model.cards, start=1)}
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"card:{c.id}"] == index["MEYER"])
    assert solver.check() == z3.sat
    assert solver.check(discounted != t.price * 80 // 100) == z3.unsat  # exact: 20% off
    nothing = pre[state_var("declared_uses", (c, "train_discount"))] == 0
    assert solver.check(nothing, plain != t.price) == z3.unsat  # nothing declared before: the price


def test_a_market_move_is_the_librarys_over_move_price(rulespecs_loaded):
    """market_move(C, d): the library's procedure (not while prices are frozen, nor left or down where C's
    declared hold_price holds it: price_held, over the library's state declared_uses) over the primitive
    move_price, the token one step (the library's too, over the market cell). 18 Grand Junction's Arvid Bollen: in an operating round, with a use
    declared, a move down is held and a move right is not, in the engine and the model alike (the model read
    the hold as an oracle before)."""
    import z3

    from compiler.verify.model import ROUNDS, Model, state_var
    from compiler.verify.translate import Translator
    from tests.engine_helpers import overlay_game

    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "procedure market_move(" in library and "function price_held(" in library
    assert "move_price" in library and "move_price" not in _census()["twins"]  # the one step: the library's too
    g = overlay_game("18 Grand Junction", None, ROOT / "tests" / "fixtures" / "18gj_test_map.rules")(
        players=["Ann", "Bob", "Cy"], seed=1)
    drg = g.entity("corporation", "DRG")
    g._place_token(drg, g.market.par_cells()[0])  # (test setup: DRG has a price, Bollen's card, a use declared)
    g.j.set(g.g, "cards", {"DRG": "BOLLEN"})
    g.state_put("cubes", (drg,), 3)
    g.call("use_power", drg, 1)
    g.j.set(g.g, "round", "operating")
    start = g.corp["DRG"]["cell"]
    g.call("market_move", drg, "down")
    assert g.corp["DRG"]["cell"] == start                   # held
    g.call("market_move", drg, "right")
    assert g.corp["DRG"]["cell"] != start                   # a rise is not
    g.state_put("declared_uses", (drg, "hold_price"), 0)
    start = g.corp["DRG"]["cell"]
    g.call("market_move", drg, "down")
    assert g.corp["DRG"]["cell"] != start                   # nothing declared: it falls

    model = Model(rulespecs_loaded.program.titles["18 Grand Junction"])
    c = model.entity("corporation", "DRG")
    index = {card["key"]: i for i, card in enumerate(model.cards, start=1)}
    market = model.require_market()
    cell = next(x for x in model.cells if market.move(x, "down") != x)  # a cell a fall leaves
    for declared, moves in ((1, False), (0, True)):
        tr = Translator(model)
        pre = model.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        tr.call("market_move", [model.z(c), "down"], {}, ctx)
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"card:{c.id}"] == index["BOLLEN"],
                   pre[f"has_cell:{c.id}"], pre["round"] == ROUNDS.index("operating"),
                   pre[state_var("declared_uses", (c, "hold_price"))] == declared,
                   pre[f"row:{c.id}"] == cell[0], pre[f"col:{c.id}"] == cell[1])
        assert solver.check() == z3.sat
        same = z3.And(ctx.state[f"row:{c.id}"] == pre[f"row:{c.id}"], ctx.state[f"col:{c.id}"] == pre[f"col:{c.id}"])
        assert solver.check(z3.Not(same) if not moves else same) == z3.unsat, declared


def test_a_components_abilities_are_its_data_in_the_engine_and_the_model(rulespecs_loaded):
    """`X.abilities`: the component's `ability` clauses as records (its key, every parameter the kind `ability`
    declares, none where unset, and any other field it gives), in the engine and the model alike; the library's
    has_ability reads them (a builtin with a z3 twin before). A player has none."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    g = game_class("1880 Romania")(players=["Ann", "Bob", "Cy"], seed=1)
    p1 = g.entity("private", "P1")
    (record,) = g.attr(p1, "abilities")
    assert record["key"] == "close_for_cash" and record["player_amount"] == 20 and record["hexes"] is None
    assert g.attr(g.players[0], "abilities") == []
    assert [g.call("has_ability", x, "close_for_cash") for x in g.privates].count(True) == 1
    assert g.call("ability_value", p1, "close_for_cash", "company_amount") == 40

    model = Model(rulespecs_loaded.program.titles["1880 Romania"])
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    x = z3.Const("x", model.sort)
    ctx.locals["x"] = x
    has = tr.call("has_ability", [x, "close_for_cash"], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, has)
    assert solver.check() == z3.sat
    solver.add(x != model.z(model.entity("private", "P1")))
    assert solver.check() == z3.unsat  # only P1 has it, as in the engine
    # ability_value: P1's amounts, the only company that gives them (any other refused)
    amount = tr.call("ability_value", [x, "close_for_cash", "company_amount"], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check() == z3.sat
    assert solver.check(z3.Or(amount != 40, x != model.z(model.entity("private", "P1")))) == z3.unsat


def test_the_par_prices_are_the_librarys_over_the_charters_and_the_titles(rulespecs_loaded):
    """par_prices(C): the library's function, a charter's own par_prices, else the title's (a builtin with a z3
    twin before, each reading the data, and the market's par cells where neither gave any): 18CO's DSNG starts
    at $75 alone, 1846's corporations at the title's eleven prices, in the engine; in the model, each modelled
    corporation's list is the engine's, and the invariant par_valid reads the function."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.invariants import par_valid
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "function par_prices(corporation: corporation)" in library
    g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
    assert g.call("par_prices", g.entity("corporation", "DSNG")) == [75]
    g46 = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    title_prices = [40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150]
    assert all(g46.call("par_prices", c) == title_prices for c in g46.corporations)
    assert sorted({g46.market.price(c) for c in g46.market.par_cells()}) == title_prices  # the market's par cells
    for name, game in (("18CO", g), ("1846", g46)):
        model = Model(rulespecs_loaded.program.titles[name])
        tr = Translator(model)
        ctx = tr.new_ctx(model.vars.fresh_state("s"))
        for c in model.corporations:
            found = tr.call("par_prices", [model.z(c)], {}, ctx)
            values = [v for v, cond in found.elems if z3.is_true(z3.simplify(z3.BoolVal(True) == cond))]
            assert values == game.call("par_prices", game.entity("corporation", c.id)), (name, c.id)
        ctx = tr.new_ctx(model.vars.fresh_state("i"))
        par_valid(tr, ctx)
        assert "par_prices" in ctx.shared.calls  # the invariant asks the library's function


#: builtins that became procedures of the one title that calls them (18 Grand Junction's ability cards)
TITLE_MOVED = {"pick_card": "18-grand-junction.rules", "use_power": "18-grand-junction.rules",
               "set_operating_position": "18-grand-junction.rules", "take_card": "18-grand-junction.rules",
               "discard_cards": "18-grand-junction.rules"}


@pytest.mark.parametrize("name", sorted(TITLE_MOVED))
def test_the_moved_rules_of_a_title_are_its_own(name):
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert f"procedure {name}(" in (ROOT / "rulespecs" / TITLE_MOVED[name]).read_text(encoding="utf-8")


def test_no_title_state_is_named_in_the_runtime():
    """The runtime's Python names no state a title declares (18GJ's card offers were read by pick_card)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "runtime").rglob("*.py")))
    assert "card_offers" not in text


def test_the_validator_reads_the_declared_effects_from_the_library(rulespecs_loaded):
    """use_power names no effect: the validator's card actions take the effects of the library's
    declared_effects() (once the runtime's DECLARED_EFFECTS)."""
    from compiler.verify.validator import Validator

    title = rulespecs_loaded.program.titles["18 Grand Junction"]
    validator = Validator.__new__(Validator)
    validator.title = title
    assert validator._declared_effects() == {"train_discount", "free_token", "no_terrain_cost", "hold_price",
                                             "extra_lay", "longer_trains", "early_upgrade"}


#: the map's station rules written in the library over its procedures remove_stations and remove_station (over the
#: primitive hand_over_station(C, none, city)) and place_station
STATION_MOVED = ["take_station", "return_token"]


#: the map's rules of stations that change hands in a take-over written in the library over the primitives
#: stations and hand_over_station
STATIONS_LISTED = ["take_over_stations", "takeover_station", "swap_station"]


@pytest.mark.parametrize("name", STATIONS_LISTED)
def test_stations_changing_hands_are_the_librarys_over_the_station_list(name):
    """No `b_` method and no z3 twin: each is the library's, reading the primitive stations(C); the runtime keeps
    no station swaps of its own (the library's list state station_swaps)."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert {"stations", "hand_over_station"} <= set(found["twins"])
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    at = library.index(f"function {name}(") if f"function {name}(" in library else library.index(f"procedure {name}(")
    assert "stations(" in library[at:library.index("\n\n", at)]
    runtime = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "runtime").rglob("*.py")))
    assert 'g.get("station_swaps"' not in runtime and '"station_swaps", ' not in runtime


def test_stations_lists_the_cities_of_a_companys_stations():
    """stations(C): the node ids of C's stations on the map (a minor's home in 1846); stations(C, city): the one
    in that city, named by node id or by 18xx.games city id, none where C has none there or the city names
    none."""
    from compiler.emit.engines import game_class

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    minor = next(m for m in g.minors if g.board.tokens_of(m.id))
    corp = next(c for c in g.corporations if not g.corp[c.id]["closed"])
    (ref,) = g.board.tokens_of(minor.id)
    (city,) = g.call("stations", minor)
    assert city == f"{ref[0]}-{ref[1]}"
    assert g.call("stations", minor, city) == [city] == g.call("stations", minor, g.board.city_id(ref))
    assert g.call("stations", corp, city) == [] and g.call("stations", minor, "no city") == []


@pytest.mark.parametrize("name", STATION_MOVED)
def test_a_station_off_the_map_is_one_primitive(name):
    """take_station (1880's investor's station replaced) and return_token (18CO's DNP) are library procedures
    over the library's remove_stations and remove_station (every station of a company, or the one in a city,
    off the map), themselves over the one primitive hand_over_station(C, none, city): no `b_` method, no z3
    twin."""
    found = _census()
    assert name not in found["twins"] + found["engine_only"] + found["model_only"]
    assert "hand_over_station" in found["twins"]
    assert not {"remove_stations", "remove_station"} & set(found["twins"] + found["engine_only"])
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    body = library[library.index(f"procedure {name}("):]
    body = body[:body.index("\n  }\n")]
    assert "remove_station" in body


def test_ability_uses_are_counted_by_the_librarys_procedures_alone():
    """The uses of a private's abilities are the library's ability_uses and ability_round_uses, counted by its
    count_ability_use and read by ability_spent: no dict of uses of the runtime's own (a marker's, a station
    taken back), no Python copy of the library's count or check, no z3 mirror of them."""
    runtime = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "runtime").rglob("*.py")))
    verify = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "verify").rglob("*.py")))
    for copy in ("_count_ability_use", "_ability_counts_left", 'g.get("ability_uses"', '"ability_uses", uses'):
        assert copy not in runtime, copy
    assert "count_generic_use" not in verify
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    spent = library[library.index("function ability_spent("):library.index("procedure count_ability_use(")]
    assert spent.count("filter(") == 1  # the ability of that effect read once


def test_a_station_taken_back_is_a_use_of_the_librarys_in_the_engine_and_the_model(rulespecs_loaded):
    """18CO's DNP: return_token counts its use in the library's ability_uses (by the ability's key) and a
    second is refused by ability_spent; the model's return_token is the same procedure (a use counted, the
    corporation one token fewer on the map, the private closed)."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.terms import Opaque
    from compiler.verify.translate import Translator
    from tests.test_18co_abilities import _kpac_owns

    g, km = _kpac_owns("DNP")
    g.board.place_token("KPAC", ("C15", 0))  # (test setup: KPAC's second station, as if placed)
    g.j.set(g.corp["KPAC"], "tokens", g.corp["KPAC"]["tokens"] + 1)
    dnp = g.entity("private", "DNP")
    assert g.state_amount("ability_uses", dnp, "return_token") == 0 and not g.call("ability_spent", dnp, "return_token")
    g.process({"type": "remove_token", "entity": "DNP", "entity_type": "company", "city": "C15-0"})
    assert g.state_amount("ability_uses", dnp, "return_token") == 1 and g.call("ability_spent", dnp, "return_token")
    assert ("C15", 0) not in g.board.tokens_of("KPAC") and g.closed["DNP"]

    model = Model(rulespecs_loaded.program.titles["18CO"])
    x = model.entity("private", "DNP")
    c = model.corporations[0]
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call("return_token", [model.z(x), Opaque("a city")], {}, ctx)
    uses = state_var("ability_uses", (x, "return_token"))
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, tr.builtins.owning_corporation(ctx, model.z(x), c))
    assert solver.check() == z3.sat
    assert solver.check(pre[uses] >= 1) == z3.unsat  # a second use is refused
    solver.add(pre[uses] == 0)  # (none used before: the model's amounts are not below zero)
    assert solver.check(z3.Or(ctx.state[uses] != 1, ctx.state[f"tokens:{c.id}"] != pre[f"tokens:{c.id}"] - 1,
                              z3.Not(ctx.state[f"closed:{x.id}"]))) == z3.unsat


def test_a_markers_placement_is_a_use_of_the_librarys():
    """1846's Meat Packing Company: its marker placed is one use of its ability in the library's ability_uses
    (count_ability_use), which the marker's `count` reads: a second placement is refused."""
    from tests.test_1846_privates import assign, give_private, gt_at_track_step
    from tests.test_1846_rules import act, assert_refused

    g = gt_at_track_step()
    give_private(g, "MPC", "GT")  # (test setup: GT owns the Meat Packing Company)
    mpc = g.entity("private", "MPC")
    act(g, assign("MPC", "D6"))
    assert g.state_amount("ability_uses", mpc, "meat_marker") == 1
    assert_refused(g, assign("MPC", "I1"), "Private Companies", "placed already")


def test_a_draft_price_is_the_librarys_over_the_declines(rulespecs_loaded):
    """draft_price(X): the library's function over the title's draft (`opening_draft`: its last_company_floor) and
    the library's state draft_discount, which decline_last_company raises by the draft's last_company_discount as
    a last company is declined, down to its floor: 1846's Michigan Southern (a minor: draft_price $140, draft_floor
    $80) in the engine and the model alike (the model's price was an oracle before, any amount from the floor to
    the cost)."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    ms = g.entity("minor", "MS")
    assert g.call("draft_price", ms) == 140 and g.call("draft_least_price", ms) == 80
    g.call("decline_last_company")
    g.call("decline_last_company")
    assert g.state_amount("draft_discount") == 20 and g.call("draft_price", ms) == 120
    for _ in range(5):
        g.call("decline_last_company")
    assert g.call("draft_price", ms) == 80  # its floor

    model = Model(rulespecs_loaded.program.titles["1846"])
    x = model.entity("minor", "MS")
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call("decline_last_company", [], {}, ctx)
    price = tr.call("draft_price", [model.z(x)], {}, ctx)
    for declined, expected in ((10, 120), (60, 80)):  # exact: two declines take $20 off; never below the floor
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[state_var("draft_discount", ())] == declined)
        assert solver.check() == z3.sat
        assert solver.check(price != expected) == z3.unsat, declined


def test_a_runs_revenue_is_set_by_the_librarys_procedure():
    """set_revenue(C, x) is the library's procedure: C's revenue is x, a longer_trains use C declared for the run
    is spent, and the game's record sums every run (the library's total_revenue, which `record()` reads)."""
    from compiler.emit.engines import game_class

    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    assert "procedure set_revenue(corporation: corporation, amount: money)" in library
    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    a, b = g.corporations[:2]
    g.state_put("declared_uses", (a, "longer_trains"), 1)
    g.call("set_revenue", a, 120)
    assert g.corp[a.id]["revenue"] == 120 and g.state_amount("declared_uses", a, "longer_trains") == 0
    g.call("set_revenue", b, 30)
    g.call("set_revenue", a, 0)
    assert g.corp[a.id]["revenue"] == 0 and g.corp[b.id]["revenue"] == 30
    assert g.record()["revenue"] == g.state_amount("total_revenue") == 150


def test_a_runs_record_stands_by_route_revenues_third_argument():
    """No recorded_revenue: 1880's 18xx.games reading asks route_revenue(C, routes, true), whose runs the rules
    check as route_revenue's, the record's figure standing (the difference noted); without it a figure the
    routes state must be the rules' count."""
    found = _census()
    assert "recorded_revenue" not in found["twins"] + found["engine_only"] + found["model_only"]
    assert "route_revenue" in found["twins"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "recorded_revenue(" not in rules and "route_revenue(corporation, routes, true)" in rules


def test_closed_is_a_field_in_the_engine_and_the_model(rulespecs_loaded):
    """closed(X): the library's function over `X.closed`, which close_private and close_minor set: a private's
    and a minor's closing in the engine and the model alike; a corporation's in the engine (the model keeps no
    closed corporation: never closed there, as its twin answered)."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    private, other = [x for x in g.privates if not g.closed[x.id]][:2]  # (setup removes some at 3 players)
    minor = next(m for m in g.minors if not g.corp[m.id]["closed"])
    corp = next(c for c in g.corporations if not g.corp[c.id]["closed"])
    assert not any(g.call("closed", x) for x in (private, minor, corp, g.players[0]))
    assert all(g.call("closed", x) for x in g.privates + g.minors if g.closed.get(x.id) or
               x.kind == "minor" and g.corp[x.id]["closed"])
    g.call("close_private", private)
    g.call("close_minor", minor)
    g.j.set(g.corp[corp.id], "closed", True)  # (test setup: as a close cell closes it)
    assert all(g.call("closed", x) for x in (private, minor, corp)) and not g.call("closed", other)

    model = Model(rulespecs_loaded.program.titles["1846"])
    tr = Translator(model)
    pre = model.vars.fresh_state("s")
    ctx = tr.new_ctx(pre)
    x = z3.Const("x", model.sort)
    ctx.locals["x"] = x
    p, c = model.privates[0], model.corporations[0]
    closed = tr.call("closed", [x], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, closed)
    assert solver.check(x == model.z(p), pre[f"closed:{p.id}"]) == z3.sat
    assert solver.check(x == model.z(p), z3.Not(pre[f"closed:{p.id}"])) == z3.unsat
    assert solver.check(x == model.z(c)) == z3.unsat  # the model keeps no closed corporation
    tr.call("close_private", [model.z(p)], {}, ctx)
    after = tr.call("closed", [model.z(p)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check() == z3.sat and solver.check(z3.Not(after)) == z3.unsat


def test_a_company_named_by_an_action_is_the_readings_function_over_its_key(rulespecs_loaded):
    """corporation_named(x): 1880's 18xx.games reading's function, the company whose `key` (its symbol, read as a
    name: `c.key == target`) is x, none where none is (a builtin with a z3 twin before); in the model, one of the
    companies or none, as the twin answered, the name being opaque to it."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.terms import Opaque
    from compiler.verify.translate import Translator

    found = _census()
    assert "corporation_named" not in found["twins"] + found["engine_only"] + found["model_only"]
    reading = (ROOT / "rulespecs" / "1880-romania-18xx-games.rules").read_text(encoding="utf-8")
    assert "function corporation_named(target: name)" in reading
    g = game_class("1880 Romania", "18xx.games")(players=["Ann", "Bob", "Cy"], seed=1)
    vrl = g.entity("corporation", "VRL")
    assert g.call("corporation_named", "VRL") == vrl and g.attr(vrl, "key") == "VRL"
    assert g.call("corporation_named", "player") is None and g.call("corporation_named", "LCR|BC") is None

    title = next(t for t in rulespecs_loaded.every_title() if t.display_name == "1880 Romania (18xx.games)")
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    named = tr.as_ent(tr.call("corporation_named", [Opaque("a name")], {}, ctx))
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check() == z3.sat
    for c in model.corporations:  # each company may be the one named, and none
        assert solver.check(named == model.z(c)) == z3.sat, c.id
    assert solver.check(z3.And([named != model.z(c) for c in model.corporations])) == z3.sat


def test_the_window_of_a_privates_ability_is_the_librarys_alone():
    """Who may use a private's ability now (its owner's kind, its phases, its `when`) is the library's procedure
    ability_window, which use_ability asks and the runtime's lays and stations of a private of the library's
    generic timing ask too (`GameBase._ability_window`): no Python copy of its checks."""
    runtime = (ROOT / "compiler" / "runtime" / "abilities.py").read_text(encoding="utf-8")
    window = runtime[runtime.index("    def _ability_window("):runtime.index("    def _ability_user(")]
    assert 'self.call("ability_window"' in window
    for copy in ("from_phase", "removed_on", "pending_decision", "IllegalAction"):
        assert copy not in window.split('"""')[2], copy
def test_the_train_purchase_marker_is_the_librarys_state(rulespecs_loaded):
    """The train purchase marker (1880 VII.3.8) is the library's state train_marker, moved by its procedure
    move_train_marker, which the runtime's train purchase from the bank calls and the model's train_bought
    calls alike: the buyer holds it alone, unless the game's end is called (the library's end_called over
    game_end_reason, an oracle of the reason in the model), when it stays put. would_export (the library's) and row_after_marker (1880 Amira's)
    read it: neither is a builtin any more, and the runtime keeps no marker of its own."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    found = _census()
    for name in ("would_export", "row_after_marker"):
        assert name not in found["twins"] + found["engine_only"] + found["model_only"], name
    assert "end_called" not in found["twins"] + found["engine_only"] + found["model_only"]
    variants = (ROOT / "rulespecs" / "1880-romania-variants.rules").read_text(encoding="utf-8")
    assert "function row_after_marker(" in variants
    runtime = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "runtime").rglob("*.py")))
    assert '"train_marker"' not in runtime and '"resumed_turn"' not in runtime

    model = Model(rulespecs_loaded.program.titles["1880 Romania"])
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    c, d = model.corporations[:2]
    tr.call("move_train_marker", [model.z(c)], {}, ctx)
    (reason,) = [v for name, _, v in ctx.shared.oracles if name == "game_end_reason"]
    end = reason != 0
    moved = z3.And(ctx.state[state_var("train_marker", (c,))], z3.Not(ctx.state[state_var("train_marker", (d,))]))
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check(z3.Not(end), z3.Not(moved)) == z3.unsat  # the buyer holds it alone
    assert solver.check(end, pre[state_var("train_marker", (d,))], z3.Not(moved)) == z3.sat  # or it stays put
    assert solver.check(end, ctx.state[state_var("train_marker", (d,))] != pre[state_var("train_marker", (d,))]) \
        == z3.unsat


def test_a_markers_ability_and_its_use_are_the_librarys(rulespecs_loaded):
    """Which revenue-marker ability a private's holder uses (the one of its holder's kind, else its first), whether
    a player owner names the corporation it serves, and the use its placement counts are the library's
    marker_ability, marker_named_by_player and count_marker_use: the runtime's place_marker asks them, and the
    model's place_marker calls count_marker_use (no copy of the choice in the verifier). 1846's Steamboat: the
    port marker of a corporation owner is placed and counted; a player owner's names its corporation."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator
    from tests.test_1846_privates import give_private

    verify = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "compiler" / "verify").rglob("*.py")))
    assert "assigned_to" not in verify and '"owner", "corporation"' not in verify
    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    sc = g.entity("private", "SC")
    give_private(g, "SC", g.corporations[0].id)
    g.j.set(g.owner, "SC", g.entity("player", "Ann"))  # (test setup: a player owns it)
    assert g.call("marker_ability", sc)["key"] == "port_marker_player" and g.call("marker_named_by_player", sc)
    give_private(g, "SC", g.corporations[0].id)
    assert g.call("marker_ability", sc)["key"] == "port_marker" and not g.call("marker_named_by_player", sc)
    g.call("count_marker_use", sc)
    assert g.state_amount("ability_uses", sc, "port_marker") == 1

    model = Model(rulespecs_loaded.program.titles["1846"])
    x = model.entity("private", "SC")
    if x is None:
        pytest.skip("the Steamboat is outside the model's scope")
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.builtins.count_marker_use(ctx, model.z(x))
    held_by_corporation = tr.builtins.owning_corporation(ctx, model.z(x), model.corporations[0])
    uses = state_var("ability_uses", (x, "port_marker"))
    solver = z3.Solver()
    item = model.item_of_ent(x)
    by_player = z3.Or(*[tr.builtins.held(ctx, item, model.z(p)) for p in model.players])
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, held_by_corporation, z3.Not(by_player))
    assert solver.check() == z3.sat
    assert solver.check(ctx.state[uses] != pre[uses] + 1) == z3.unsat  # a corporation's placement is a use
def test_the_operating_order_is_the_librarys_list_in_the_engine_and_the_model(rulespecs_loaded):
    """No operating_order(): the rules read the library's list state operators (`operators.elements()`), which the
    runtime's operating round sets (minors first, then by price) and its order_ids reads; 18GJ's Corbett Thompson
    moves a company in it by the title's set_operating_position (remove, then insert at the place), in the
    engine and in the model alike (the model's twin kept no order: an oracle said whether the place was open)."""
    import z3

    from compiler.verify.list_vars import length_var, slot_var
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator
    from tests.test_18gj_presidents import new_game

    found = _census()
    assert "operating_order" not in found["twins"] + found["engine_only"] + found["model_only"]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rulespecs").rglob("*.rules"))
    assert "operating_order()" not in rules and "operators.elements()" in rules
    g = new_game()  # (on the test map: the title's map is a gap)
    ids = ["DRG", "DSPP", "CNW"]
    g._set_order(ids)
    assert g.order_ids() == tuple(ids) and g.g["state:operators"][0] == ("corporation", "DRG")
    g.call("set_operating_position", g.entity("corporation", "CNW"), 1)
    assert g.order_ids() == ("CNW", "DRG", "DSPP")

    model = Model(rulespecs_loaded.program.titles["18 Grand Junction"])
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    first, second = (model.z(c) for c in model.corporations[:2])
    tr.call("set_operating_position", [second, 1], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, *model.vars.domain(pre),
               pre[length_var("operators")] == 2, pre[slot_var("operators", 0, 0)] == first,
               pre[slot_var("operators", 1, 0)] == second)
    assert solver.check() == z3.sat
    assert solver.check(z3.Or(ctx.state[slot_var("operators", 0, 0)] != second,
                              ctx.state[slot_var("operators", 1, 0)] != first,
                              ctx.state[length_var("operators")] != 2)) == z3.unsat
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[length_var("operators")] == 1)
    assert solver.check(pre[slot_var("operators", 0, 0)] == first) == z3.unsat  # a place past the round's companies


def test_building_rights_joined_are_the_readings_function_over_the_letters(rulespecs_loaded):
    """letters_union(a, b): 1880's 18xx.games reading's function (a builtin with a z3 twin before, opaque to the
    model): the letters A to D either holds, each once, in the order of the phases; in the model, the same
    letters where the rights are known, and one of the sixteen unions where they are not."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.terms import Choice, Opaque
    from compiler.verify.translate import Translator

    found = _census()
    assert "letters_union" not in found["twins"] + found["engine_only"] + found["model_only"]
    g = game_class("1880 Romania", "18xx.games")(players=["Ann", "Bob", "Cy"], seed=1)
    cases = {("", "AB"): "AB", ("BC", "AB"): "ABC", ("AB", "CD"): "ABCD", ("A", "CD"): "ACD", ("ABC", "BC"): "ABC",
             ("D", "BC"): "BCD"}
    for (a, b), union in cases.items():
        assert g.call("letters_union", a, b) == union, (a, b)

    title = next(t for t in rulespecs_loaded.every_title() if t.display_name == "1880 Romania (18xx.games)")
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    for (a, b), union in cases.items():
        assert tr.call("letters_union", [a, b], {}, ctx) == union, (a, b)
    joined = tr.call("letters_union", [Opaque("rights"), "CD"], {}, ctx)
    assert isinstance(joined, Choice)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    possible = {value for value, cond in joined.alts if solver.check(cond) == z3.sat}
    assert possible == {"CD", "ACD", "BCD", "ABCD"}


def test_a_card_taken_and_the_cards_discarded_are_the_titles_over_hold_card(rulespecs_loaded):
    """take_card and discard_cards: 18GJ's procedures over the primitive hold_card (twins each before). A card
    taken leaves the deck with its `uses` as cubes (none: no cube); discarded, every card leaves the game with
    its cubes, the uses declared on it and its marker, and is not dealt again; in the model, the card a company
    holds is the card taken (an oracle says it was in the deck) and none after the discard, its cubes 0."""
    import z3

    from compiler.runtime.errors import IllegalAction
    from compiler.verify.model import Model, state_var
    from compiler.verify.terms import CardRef
    from compiler.verify.translate import Translator
    from tests.test_18gj_presidents import new_game

    found = _census()
    assert "hold_card" in found["twins"]
    g = new_game()
    drg, dspp = g.entity("corporation", "DRG"), g.entity("corporation", "DSPP")
    g.call("take_card", drg, "MEYER")
    g.call("take_card", dspp, "DELANEY")
    assert g.card_of(drg) == "MEYER" and g.state_amount("cubes", drg) == 3
    assert g.card_of(dspp) == "DELANEY" and g.state_amount("cubes", dspp) == 0  # (uses: none, a lasting power)
    assert "MEYER" not in g.b_deck()
    try:
        g.call("take_card", dspp, "MEYER")
        raise AssertionError("a card not left in the deck was taken")
    except IllegalAction as e:
        assert "not left in the deck" in str(e)
    g.state_put("declared_uses", (drg, "train_discount"), 2)  # (test setup: two uses declared on Meyer)
    g.call("discard_cards")
    assert g.card_of(drg) is None and g.card_of(dspp) is None
    assert g.state_amount("cubes", drg) == 0 and g.state_amount("declared_uses", drg, "train_discount") == 0
    assert "MEYER" not in g.b_deck() and "DELANEY" not in g.b_deck()

    title = next(t for t in rulespecs_loaded.every_title() if t.display_name == "18 Grand Junction")
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("s")
    ctx = tr.new_ctx(dict(pre))
    c = model.corp("DRG")
    tr.call("take_card", [model.z(c), "MEYER"], {}, ctx)
    meyer = model.card_index("MEYER")
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check() == z3.sat
    assert solver.check(z3.Or(ctx.state[f"card:{c.id}"] != meyer, ctx.state[state_var("cubes", (c,))] != 3)) == z3.unsat
    assert any(name == "in_deck" for name, _, _ in ctx.shared.oracles)
    # a card named by an action's parameter (symbolic: one of the cards): its uses as cubes, none as 0
    card = z3.Int("card")
    ctx = tr.new_ctx(dict(pre))
    tr.call("take_card", [model.z(c), CardRef(card)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, card >= 1, card <= len(model.cards))
    assert solver.check() == z3.sat
    assert solver.check(ctx.state[state_var("cubes", (c,))] != model.card_uses(card)) == z3.unsat
    assert solver.check(ctx.state[f"card:{c.id}"] != card) == z3.unsat
    ctx = tr.new_ctx(dict(pre))
    tr.call("discard_cards", [], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    for x in model.corporations:
        assert solver.check(z3.Or(ctx.state[f"card:{x.id}"] != 0, ctx.state[state_var("cubes", (x,))] != 0)) == z3.unsat


def test_a_corporations_closing_is_the_librarys_in_the_engine_and_the_model(rulespecs_loaded):
    """close_corporation is the library's procedure: in the engine (a close cell, a take-over, an acquisition
    round all run it) the corporation is closed, its certificates in the scrap heap, its cash with the bank, its
    price token off its cell's stack (the runtime's part, on corporation_closed) and its cell kept; in 18CO's
    model its certificates go to the scrap heap from wherever they are, its cash to the bank, and the rest of
    the state it does not write stays as it was."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.runtime.entities import BANK as ENGINE_BANK
    from compiler.runtime.entities import SCRAP as ENGINE_SCRAP
    from compiler.verify.model import SCRAP, Model, hold_name
    from compiler.verify.translate import Translator

    found = _census()
    assert "close_corporation" not in found["twins"] + found["engine_only"] + found["model_only"]
    g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
    corp = g.corporations[0]
    g.call("set_par", corp, 40)
    g.transfer(100, ENGINE_BANK, corp)
    cell = g.corp[corp.id]["cell"]
    assert corp.id in g.stacks[cell]
    g._close_corporation(corp)
    assert g.corp[corp.id]["closed"] and g.corp[corp.id]["cell"] == cell and corp.id not in g.stacks[cell]
    assert all(g.owner[c.id] == ENGINE_SCRAP for c in g.certs_of[corp.id]) and g.cash[corp] == 0

    model = Model(rulespecs_loaded.program.titles["18CO"])
    tr = Translator(model)
    pre = model.vars.fresh_state("s")
    ctx = tr.new_ctx(pre)
    c = model.corporations[0]
    tr.call("close_corporation", [model.z(c)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    for cert in model.certs_for(c.id):
        # (a sound state: each certificate held once)
        holds = [pre[hold_name(cert, b)] for b in model.buckets["certificate"]]
        solver.add(*[z3.Or(h == 0, h == 1) for h in holds], z3.Sum(holds) == 1)
    for cert in model.certs_for(c.id):
        assert solver.check(ctx.state[hold_name(cert, SCRAP)] != 1) == z3.unsat, cert
    assert solver.check(ctx.state[f"cash:{c.id}"] != 0) == z3.unsat
    other = model.corporations[1]
    assert ctx.state[f"cash:{other.id}"] is pre[f"cash:{other.id}"]


def test_the_market_cell_is_a_value_in_the_engine_and_the_model(rulespecs_loaded):
    """A corporation's `cell` is a market cell (its row, column, price, zones and the cell a move reaches) and
    `set C.cell = X` places its price token: set_par and move_price are the library's procedures over it, in
    the engine and the model alike, and zones(C) is gone for the library's in_zone(C, z). 18CO's market (13 rows,
    its edges: a left move in a row's first cell goes down, a right move in its last up, an up move in the top
    row right): every par price's cell, the rightmost, is the one set_par puts the token on; a price of no par
    cell is refused and changes nothing; every move of every cell is the market's."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.runtime.errors import IllegalAction
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    found = _census()
    for name in ("set_par", "move_price", "zones"):
        assert name not in found["twins"] + found["engine_only"] + found["model_only"], name
    g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
    market = g.market
    corp = g.corporations[0]
    prices = sorted({market.price(c) for c in market.par_cells()})
    for price in prices:
        g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
        g.call("set_par", corp, price)
        assert g.corp[corp.id]["cell"] == market.par_cell(price) and g.corp[corp.id]["par"] == price
        assert g.attr(corp, "cell").price == price and "par" in g.attr(corp, "cell").zones
        assert corp.id in g.stacks[market.par_cell(price)]
    g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
    before = g.state()
    with pytest.raises(IllegalAction, match="not a par price"):
        g.call("set_par", corp, prices[0] + 1)
    assert g.state() == before and g.attr(corp, "cell") is None
    g.call("move_price", corp, "up")  # (no price: nothing)
    assert g.corp[corp.id]["cell"] is None
    g.call("set_par", corp, prices[-1])
    edges = [(0, 0), (0, 15), (3, 0), (3, 15), (12, 4), (4, 12)]
    for cell in edges:
        for d in ("up", "down", "left", "right"):
            g._place_token(corp, cell)
            g.call("move_price", corp, d)
            assert g.corp[corp.id]["cell"] == market.move(cell, d), (cell, d)
    assert [c.cell for c in g.name("market_cells")] == list(market.cells())

    model = Model(rulespecs_loaded.program.titles["18CO"])
    c = model.corporations[0]
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    price = z3.Int("price")
    tr.call("set_par", [model.z(c), price], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    for p in prices:
        r, col = market.par_cell(p)
        cell_after = z3.And(ctx.state[f"row:{c.id}"] == r, ctx.state[f"col:{c.id}"] == col, ctx.state[f"has_cell:{c.id}"],
                            ctx.state[f"par:{c.id}"] == p)
        assert solver.check(price == p) == z3.sat
        assert solver.check(price == p, z3.Not(cell_after)) == z3.unsat, p
    assert solver.check(price == prices[0] + 1) == z3.unsat  # refused
    for d in ("up", "down", "left", "right"):
        tr = Translator(model)
        ctx = tr.new_ctx(pre)
        tr.call("move_price", [model.z(c), d], {}, ctx)
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"has_cell:{c.id}"])
        for cell in edges:
            r, col = market.move(cell, d)
            at = z3.And(pre[f"row:{c.id}"] == cell[0], pre[f"col:{c.id}"] == cell[1])
            assert solver.check(at, z3.Not(z3.And(ctx.state[f"row:{c.id}"] == r, ctx.state[f"col:{c.id}"] == col))) \
                == z3.unsat, (cell, d)


def test_a_share_price_is_the_librarys_over_the_cell_in_the_engine_and_the_model(rulespecs_loaded):
    """price(C) is the library's function over the market cell, `C.cell.price` (a twin before): in the engine the
    price of the cell C's token is on, wherever set_par or a move put it, and, before C has one, a refusal that
    changes nothing (an IllegalAction, as the twin's "no share price yet"); in 18CO's model the price of the
    cell of C's row and column terms, every cell's, and refused where C has no cell."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.runtime.errors import IllegalAction
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    found = _census()
    assert "price" not in found["twins"] + found["engine_only"] + found["model_only"]
    g = game_class("18CO")(players=["Ann", "Bob", "Cy"], seed=1)
    market, corp = g.market, g.corporations[0]
    before = g.state()
    with pytest.raises(IllegalAction, match="no share price"):
        g.call("price", corp)
    assert g.state() == before
    g.call("set_par", corp, 40)
    assert g.call("price", corp) == 40
    for cell in [(0, 0), (3, 15), (12, 4), (4, 12), market.par_cell(40)]:
        g._place_token(corp, cell)
        assert g.call("price", corp) == market.price(cell), cell

    model = Model(rulespecs_loaded.program.titles["18CO"])
    c = model.corporations[0]
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    price = tr.call("price", [model.z(c)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check(z3.Not(pre[f"has_cell:{c.id}"])) == z3.unsat  # refused: no price yet
    for cell in model.cells:
        at = z3.And(pre[f"row:{c.id}"] == cell[0], pre[f"col:{c.id}"] == cell[1])
        assert solver.check(at) == z3.sat, cell
        assert solver.check(at, price != market.price(cell)) == z3.unsat, cell


def test_price_after_moves_reads_a_cells_way_in_the_engine_and_the_model(rulespecs_loaded):
    """price_after_moves(C, d, n) is the library's (issue 32: no twin), `C.cell.way[d][n].price`: a cell's way
    in a direction is the cells a price token passes moving that way again and again, to the cell where the next
    move stays (the edge rules'), and n moves past its end read that cell. 18CO (13 rows: a left move in a row's
    first cell goes down, a right move in its last up) and 1846 (one row: its $0 cell at the left edge): every
    count of moves from each of a few cells is the market's n moves in the engine; the model reads the same price
    at a count that is a term, past the longest way too (the twin read a term only up to the most certificates a
    corporation has, and one more)."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    found = _census()
    assert "price_after_moves" not in found["twins"] + found["engine_only"] + found["model_only"]

    def moved(market, cell, d, n):
        for _ in range(n):
            cell = market.move(cell, d)
        return market.price(cell)

    for title, players, cells in (("18CO", ["Ann", "Bob", "Cy"], [(0, 0), (0, 15), (3, 0), (5, 7), (12, 4)]),
                                  ("1846", ["Ann", "Bob", "Cy"], None)):
        g = game_class(title)(players=players, seed=1)
        market, corp = g.market, g.corporations[0]
        cells = cells or [c for i, c in enumerate(market.cells()) if i % 5 == 0 or i < 3]
        g.call("set_par", corp, sorted({market.price(c) for c in market.par_cells()})[0])
        longest = max(len(market.way(c, d)) for c in market.cells() for d in ("up", "down", "left", "right"))
        for cell in cells:
            g._place_token(corp, cell)
            for d in ("up", "down", "left", "right"):
                for n in range(longest + 2):
                    assert g.call("price_after_moves", corp, d, n) == moved(market, cell, d, n), (title, cell, d, n)

        model = Model(rulespecs_loaded.program.titles[title])
        c = model.corporations[0]
        tr = Translator(model)
        pre = model.vars.fresh_state("pre")
        ctx = tr.new_ctx(pre)
        n = z3.Int("n")
        prices = {d: tr.call("price_after_moves", [model.z(c), d, n], {}, ctx) for d in ("down", "left")}
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, pre[f"has_cell:{c.id}"])
        for cell in cells[:3]:
            at = z3.And(pre[f"row:{c.id}"] == cell[0], pre[f"col:{c.id}"] == cell[1])
            for d, price in prices.items():
                for k in (0, 1, 2, longest + 3):
                    assert solver.check(at, n == k, price != moved(market, cell, d, k)) == z3.unsat, (title, cell, d, k)
