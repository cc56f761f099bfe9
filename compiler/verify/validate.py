"""Translation validation: the z3 model of each action against the engine.

Random playouts of a title's generated engine (`compiler.emit.engines.game_class`)
give concrete states (in the games played beyond the first `games` while an
action is short, where the scope is cut down, half of the picks are among the
actions that name the scope's corporations: `_playout_choices`). At each state
every candidate action the engine generates is tried (in a journal
transaction that is rolled back):

- the engine's state before the action is abstracted to the model's state
  variables (`abstract_state`), the action dict to a binding and parameter
  values, and the action's z3 guard and post-state are *evaluated* on them
  (`Evaluator`, a small interpreter of z3 terms);
- an action the engine accepts must have a true guard, and each modelled
  variable that the model determines must equal the engine's, read at the
  moment the action's own effects end (the first step of the round machinery
  the action sets off: `end_step`, a first train, the next company, the end
  of an auction of 18CO's Acquisition Round, ...); an action that closes a
  corporation of the scope inside its own effects (a price reaching a close
  cell) is counted as a closing, not compared (the model does not follow
  closings: `Model._steps_not_followed`); a
  take-over check inside the action's own effects (a bankrupt's sell-out)
  runs after them and is compared as the model's `take_over` step; where the
  model leaves a truth value to the engine over the corporations outside a
  cut-down scope (`all(c in corporations: ...)`), the engine's step must be
  the model's for one of its values;
- an action the engine refuses should have a false guard; refusals the model
  leaves out on purpose (a negative payment, a move from a non-holder, the
  map's legality, a route's validity) are counted apart.

Routes are chosen by the engine's own search where the title has a map, and
declared stop by stop (`{"train", "stops"}`) otherwise. Rare actions get
constructed states: each floated corporation of the scope at each step of its
operating turn (its track extended, where stations are short, by a few
legal lays toward the nearest city with a slot for it), the decision an action of the scope leaves pending, a pending
discard, a corporation short of cash for a forced train (with and without certificates of its own to issue), its president
short of cash with nothing he may sell (a bankruptcy), a player owing the
bank a debt in a stock round. A state the model cannot describe
(`scope_exact`: a train copy beyond the scope's held by an entity of the
scope), or whose depot sells such a copy (`depot_exact`), is first brought
into the scope (`_into_scope`: alike copies exchanged, the depot's copies
beyond the scope's scrapped). An action the model cannot bind (an entity
outside the scope) is played, not compared, and so are the answers to the
decisions it leaves pending (`Validator.answers_outside`: 1880's founder's
choices after the `par` of a corporation outside the scope).

`validate(title, ...)` returns a `ValidationReport`. The comparison of one action (`Validator`)
and the report are in `validator.py`, the abstraction and the evaluator in `abstraction.py`, the
hand-made edits of an engine's state the constructions use in `setups.py`.
"""

from __future__ import annotations

import random
from typing import Any

from compiler.lang.ir import Title
from compiler.runtime.entities import DEPOT as RT_DEPOT, POOL as RT_POOL, SCRAP as SCRAP_RT, Entity
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.game import COMBINED_STEPS, MAP_STEPS
from compiler.verify.abstraction import depot_exact, model_entity, scope_exact
from compiler.verify.model import DEPOT, SCRAP
from compiler.verify.setups import (
    add_station,
    deal_card,
    extend_track,
    later_phase,
    leave_nothing_to_sell,
)
from compiler.verify.validator import Mismatch, Translations, ValidationReport, Validator

#: what the module offers, the one action's comparison (validator.py) among it
__all__ = ["Mismatch", "ValidationReport", "Validator", "validate"]


# ---------------------------------------------------------------- playouts


def _routes(game: Any, corp: Entity, rng: random.Random) -> list[dict]:
    """Declared routes for a title without a map: each owned train visits
    stops whose revenues are the title's node revenues."""
    out = []
    for t in game.b_trains(corp):
        distance = game._distance(t)
        stops = [rng.choice((10, 20, 30, 40)) for _ in range(rng.randint(0, distance))]
        out.append({"train": t.id, "stops": stops})
    return out


def validate(title: Title, *, games: int = 3, seed: int = 1, want: int = 200, limit: int = 400,
             max_actions: int = 3000, construct: bool = True, max_games: int | None = None,
             engine: Any = None, options: tuple[str, ...] = (), progress: Any = None) -> ValidationReport:
    """Play `games` random games of `title` (more, up to `max_games`, while an
    action that occurs has fewer than `want` accepted samples), compare every
    candidate at every state, and construct states for rare actions. See the
    module docstring. `engine`: the `Game` class to play (by default the
    title's generated one; a map overlay's for a title whose map is a gap,
    `compiler.emit.engines.overlay_game_class`). `options`: the keys of the title's optional rules
    to play with, in the engine and the model alike (ValueError for one the title does not
    declare). `progress`: a `compiler.progress.Stage` told each game as it starts."""
    from compiler.emit.engines import game_class

    report = ValidationReport(title.display_name)
    cls = engine if engine is not None else game_class(title.name, title.variant)
    translations = Translations(title, tuple(options))
    model = translations.model
    names = [p.id for p in model.players]
    rng = random.Random(seed)
    played = 0
    cap = max_games if max_games is not None else 4 * games
    while played < games or (played < cap and _short(report, want)):
        game = cls(players=names, seed=seed + played + report.setups_out_of_scope, options=options)
        if not scope_exact(game, model) and report.setups_out_of_scope < 20:
            # the setup removed a corporation of the scope (1846's removals
            # by player count): the next seed is played instead
            report.setups_out_of_scope += 1
            continue
        validator = Validator(title, game, report, limit, translations)
        translations, model = validator.translations, validator.translations.model
        if progress is not None:
            progress.next(f"game {played + 1}")
        count = 0
        # extra games alternate: the opening only (private sale, first stock
        # round) and whole games
        budget = max_actions if played < games or (played - games) % 2 else min(max_actions, 80)
        while not game.finished and count < budget:
            legal = validator.try_all()
            if game.board is None and game.g["step"] == "run_routes" and game.g["operating"]:
                corp = game.entity("corporation", game.g["operating"])
                extra = {"type": "run_routes", "entity": corp.id, "entity_type": "corporation",
                         "routes": _routes(game, corp, rng)}
                if validator.check(extra) is True:
                    legal.append(extra)
            # actions outside the model (a draft's Pass card, a corporation the
            # scope leaves out, an action the model does not support) are played
            # too in a cut-down scope, to reach the states after them (1880's
            # unbound par); a whole scope plays them only when nothing else is
            # legal
            if model.truncated or not legal:
                legal = legal + validator.unbound_legal
            if not legal:
                break
            if construct:
                # a generator of its own for each state, so that the playout's choices do not depend
                # on what the constructions draw (nor on when an action has its samples)
                _construct(validator, random.Random(f"{seed}:{played}:{count}"), want)
                _construct_decisions(validator, legal, random.Random(f"{seed}:{played}:{count}:d"), want)
            # the games beyond `games` (played while an action is short) favour the scope's corporations
            action = rng.choice(_playout_choices(validator, legal, rng, favour_scope=played >= games))
            try:
                game.process(action)
            except (IllegalAction, RuleGap):
                break
            count += 1
        played += 1
    report.games = played
    return report


def _playout_choices(validator: Validator, legal: list[dict], rng: random.Random,
                     favour_scope: bool = True) -> list[dict]:
    """The legal actions a playout picks its next action from: with `favour_scope`, where the scope is
    cut down, half of the time those that name a corporation of the scope (its par, its certificates,
    its own actions), so that its corporations start and operate (18CO: 2 of 11), sales left out
    (they drive its price down to a close: 18CO's liquidation); else, most of the time, those other
    than a pass; else all of them."""
    scoped = [a for a in legal if a["type"] != "pass" and "sell" not in a["type"] and validator.names_scope(a)]
    if favour_scope and validator.model.truncated and scoped and rng.random() < 0.5:
        return scoped
    preferred = [a for a in legal if a["type"] != "pass"]
    return preferred if preferred and rng.random() < 0.7 else legal


def _short(report: ValidationReport, want: int) -> bool:
    return any(n < want for n in report.accepted.values())


STOCK_KINDS = {"par", "buy_shares", "sell_shares", "buy_company", "buy_bond", "trade_company", "bid"}


def _construct(validator: Validator, rng: random.Random, want: int) -> None:
    """States for rare actions, made from the current one inside a
    transaction that is rolled back:

    - a state the model cannot describe (`scope_exact`), or whose depot
      sells a copy the scope leaves out (`depot_exact`), brought into the
      scope (`_into_scope`), its short actions tried, and the constructions
      below made from it;
    - in a stock round, the same state with each other player to act (par,
      buy_bond, trade_company, buy_company, ...);
    - in a draft, each player on turn with the deck dealt again (bid);
    - a floated corporation at its train purchase without a train and short
      of cash (contribute, bankrupt, forced purchases);
    - each floated corporation of the scope at each step of its operating
      turn (`_construct_steps`: track, tokens, routes, dividends, ...), holding
      the privates held outside the scope and some of the players' (their
      abilities);
    - a corporation owing a discard (discard_train);
    - an action of the scope played, for the decision it leaves pending
      (`_construct_decisions`, called by the playout with the legal actions).
    """
    game = validator.game
    if scope_exact(game, validator.model) and depot_exact(game, validator.model):
        _construct_from(validator, rng, want)
        return
    game.j.begin()
    try:
        if _into_scope(validator, rng):
            report = validator.report
            validator.try_all({k for k in validator.actions if report.accepted.get(k, 0) < want}, legal=False)
            _construct_from(validator, rng, want)
    finally:
        game.j.rollback()


def _into_scope(validator: Validator, rng: random.Random) -> bool:
    """Make the state one the model describes, where `scope_exact` refuses it
    for what a game reaches that the scope leaves out: a train copy beyond
    the scope's held by an entity of the scope changes places with a copy of
    the same card the scope has that the depot, the scrap heap or an entity
    outside the scope holds (copies of a card are alike; the side chosen
    goes with the card), or, where the scope's copies are all held within
    it, goes to the scrap heap; a certificate of a corporation of the scope held by
    a corporation outside it goes to the pool where the pool has room, else
    (and always a president's) to a random player; the depot's next copies
    outside the scope are scrapped. Whether the state is now one the model
    describes."""
    game, model = validator.game, validator.model
    j = game.j
    items = validator.model_item_ids
    if "corporations" in (game.DATA.properties.get("presidency_contenders") or ()):
        cap = game.param("pool_cap")
        for corp in model.corporations:
            engine_corp = game.entity("corporation", corp.id)
            for cert in game.certs_of[corp.id]:
                holder = game.owner[cert.id]
                if not (isinstance(holder, Entity) and holder.kind == "corporation"
                        and model_entity(model, holder) is None):
                    continue
                if not cert.president and game.b_percent(RT_POOL, engine_corp) + cert.percent <= cap:
                    j.set(game.owner, cert.id, RT_POOL)
                else:
                    j.set(game.owner, cert.id, rng.choice(game.players))
    for train_id, train in game.trains.items():
        holder = game.owner.get(train_id)
        if train_id in items or model_entity(model, holder) in (None, DEPOT, SCRAP):
            continue
        swap = next((t for t, other in game.trains.items() if other.name == train.name and t in items
                     and model_entity(model, game.owner.get(t)) in (None, DEPOT, SCRAP)), None)
        if swap is None:
            # every copy the scope has is held within it: this one is scrapped (as if rusted)
            j.set(game.owner, train_id, SCRAP_RT)
            continue
        j.set(game.owner, train_id, game.owner[swap])
        j.set(game.owner, swap, holder)
        sides = game.g.get("sides", {})
        if train_id in sides or swap in sides:
            swapped = {k: v for k, v in sides.items() if k not in (train_id, swap)}
            if train_id in sides:
                swapped[swap] = sides[train_id]
            if swap in sides:
                swapped[train_id] = sides[swap]
            j.set(game.g, "sides", swapped)
    _scrap_outside_depot(validator)
    return scope_exact(game, model)


def _scrap_outside_depot(validator: Validator) -> None:
    """The depot's next copies outside the scope scrapped (as if sold and rusted), so that the depot
    the model reads is the engine's (`depot_exact`)."""
    game = validator.game
    for _ in range(len(game.trains)):
        outside = [t for t in game._available_train_ids() if t not in validator.model_item_ids]
        if not outside:
            break
        for t in outside:
            game.j.set(game.owner, t, SCRAP_RT)


def _construct_from(validator: Validator, rng: random.Random, want: int) -> None:
    """`_construct`'s constructions, from a state the model describes."""
    game = validator.game
    report = validator.report
    j = game.j
    short = {k for k in STOCK_KINDS if report.accepted.get(k, 0) < want}
    if short and game.g["round"] == "stock" and not game.g.get("auction") and not game.g.get("state:decisions"):
        prices: list[int | None] = [None]  # the private sale's price as it is
        on_sale = game.call("private_on_sale")
        if "buy_company" in short and on_sale is not None:
            cost = int(on_sale.get("cost", 0) or 0)
            prices = sorted({game.call("sale_price"), cost, max(0, cost - 5), max(0, cost - 10), 0})
        for i in range(len(game.players)):
            for price in prices:
                j.begin()
                try:
                    j.set(game.g, "turn", i)
                    game.state_set("bought_this_turn", (), False)
                    j.set(game.g, "acted", False)
                    if price is not None:
                        # the library's discount that prices the private on sale so
                        game.state_put("sale_discount", (on_sale,), cost - price)
                    if "buy_bond" in short and rng.random() < 0.5:
                        j.set(game.cash, game.players[i], game.cash[game.players[i]] + rng.choice((100, 300, 500)))
                    validator.try_all(short, legal=False)
                finally:
                    j.rollback()
            if short & validator.private_kinds:
                # the same player, the open privates that no player holds given to the others, half the
                # time a phase or two later: players trade privates from a phase on (1800 §12.3), when
                # random play has mostly sold them to corporations
                j.begin()
                try:
                    j.set(game.g, "turn", i)
                    others = [p for k, p in enumerate(game.players) if k != i]
                    for item in game.privates:
                        if not game.closed[item.id] and game.owner[item.id].kind != "player":
                            j.set(game.owner, item.id, rng.choice(others))
                    if rng.random() < 0.5:
                        later_phase(game, rng)
                    validator.try_all(short & validator.private_kinds, legal=False)
                finally:
                    j.rollback()
            if "sell_shares" in short:
                # the same player holding, besides, up to two certificates of each started corporation of
                # the scope from its mat (sales are rare in random play: few hold what they may sell)
                j.begin()
                try:
                    j.set(game.g, "turn", i)
                    for corp in game.corporations:
                        if game.corp[corp.id]["cell"] is None or not validator.in_scope(corp):
                            continue
                        mat = [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp and not c.president]
                        for cert in mat[:2]:
                            j.set(game.owner, cert.id, game.players[i])
                    validator.try_all({"sell_shares"}, legal=False)
                finally:
                    j.rollback()
    draft = game.g.get("draft") or {}
    if "bid" in short and game.g["round"] == "draft" and draft.get("deck") and not game.g.get("state:decisions"):
        # each player on turn, with the deck dealt again (three times): other hands, the same picks so far
        for i in range(len(game.players)):
            for _ in range(3):
                j.begin()
                try:
                    deck = list(draft["deck"])
                    rng.shuffle(deck)
                    j.set(game.g, "draft", {**draft, "deck": tuple(deck)})
                    j.set(game.g, "turn", i)
                    validator.try_all({"bid"}, legal=False)
                finally:
                    j.rollback()
    short_other = {k for k in validator.actions if report.accepted.get(k, 0) < want} - STOCK_KINDS
    if short_other and game.g["round"] == "stock" and not game.g.get("auction") and not game.g.get("state:decisions"):
        # each player to act owing the bank a debt (a personal loan: the library's state `debt`, which
        # random play rarely reaches), for the stock round's other actions (its repayment)
        for i in range(len(game.players)):
            j.begin()
            try:
                j.set(game.g, "turn", i)
                player = game.players[i]
                game.state_put("debt", (player,), game.state_amount("debt", player) + rng.choice((20, 150)))
                validator.try_all(short_other, legal=False)
            finally:
                j.rollback()
    if report.accepted.get("take_over (exchange)", 0) < want:
        _construct_take_overs(validator, rng)
    _construct_any_time(validator, rng, want)
    _construct_called_rounds(validator, rng, want)
    _construct_steps(validator, rng, want)
    operating_kinds = ("contribute", "bankrupt", "discard_train")
    if game.g["round"] != "operating" or all(report.accepted.get(k, 0) >= want for k in operating_kinds):
        return
    forced = {"contribute", "bankrupt"}
    for corp in game.corporations:
        if not game.corp[corp.id]["floated"] or game.corp[corp.id]["cell"] is None or not validator.in_scope(corp):
            continue
        if any(report.accepted.get(k, 0) < want for k in forced):
            j.begin()
            try:
                j.set(game.g, "operating", corp.id)
                j.set(game.g, "step", "buy_train")
                j.set(game.g, "state:decisions", ())
                j.set(game.cash, corp, rng.choice((0, 5, 20, 50, 100)))
                for t in game.b_trains(corp):
                    j.set(game.owner, t.id, game.name("pool") if rng.random() < 0.5 else SCRAP_RT)
                _scrap_outside_depot(validator)
                # (always once contributions have their samples: a bankruptcy needs the president short)
                if report.accepted.get("bankrupt", 0) < want and (
                        report.accepted.get("contribute", 0) >= want or rng.random() < 0.5):
                    leave_nothing_to_sell(game, corp, rng)
                if game._available_train_ids():
                    kinds = forced | {"buy_train", "corporation_sell_shares", "pass"}
                    validator.try_all(kinds, legal=False)
                    # again with nothing left to issue (where a title lets a corporation raise a
                    # train's price by issuing its own certificates, that comes before the president
                    # pays): its certificates given to the other players
                    own = [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp]
                    others = [p for p in game.players if p != game.call("president", corp)] or game.players
                    if own:
                        for cert in own:
                            j.set(game.owner, cert.id, rng.choice(others))
                        validator.try_all(kinds, legal=False)
            finally:
                j.rollback()
        if report.accepted.get("discard_train", 0) < want:
            j.begin()
            try:
                if not game.b_trains(corp) and not _give_train(validator, corp):
                    continue
                j.set(game.g, "state:decisions", (("corporation", corp.id, "discard_train"),))
                validator.try_all({"discard_train"}, legal=False)
            finally:
                j.rollback()


def _construct_called_rounds(validator: Validator, rng: random.Random, want: int) -> None:
    """States for the rounds the runtime calls for itself, once in a game or when the market says
    (18CO's President's Choice Round, §8, and Acquisition Round, §7), while their actions are short:
    from a state between rounds' actions, with up to two certificates of each started corporation of
    the scope held, half the time, by another corporation of the scope (what a President buys from
    his corporations), the round started by the runtime, and its actions tried with each player (each
    bidder) on turn. For the acquisition round, a corporation of the scope is first moved to a cell of
    the market's `acquisition` zone (the red zone)."""
    game = validator.game
    report = validator.report
    if game.g.get("state:decisions") or game.g["finished"] or game.g["round"] not in ("stock", "operating"):
        return
    j = game.j
    for (kind, name), kinds in sorted(validator.round_kinds.items()):
        short = {k for k in kinds if report.accepted.get(k, 0) < want}
        if not short or (kind == "special" and game.state_has("rounds_held", name)):
            continue
        scope = [c for c in game.corporations if validator.in_scope(c) and game.corp[c.id]["cell"] is not None
                 and not game.corp[c.id]["closed"]]
        j.begin()
        try:
            for corp in scope:
                others = [o for o in scope if o != corp]
                held = [c for c in game.certs_of[corp.id] if not c.president and game.owner[c.id] in (corp, RT_POOL)]
                for cert in held[:2]:
                    if others and rng.random() < 0.5:
                        j.set(game.owner, cert.id, rng.choice(others))
            if kind == "special":
                game.state_set("round_due", (name,), True)  # (the library's call_round)
                game._start_special_round()
                turns = range(len(game.players))
            else:
                cells = [cell for cell in game.market.cells() if "acquisition" in game.market.zones_of(cell)]
                if not scope or not cells:
                    continue
                game._place_token(rng.choice(scope), rng.choice(cells))
                if not game._start_acquisition_round() or game.g["round"] != "acquisition":
                    continue
                turns = range(len(game.g["acquisition"]["bidders"]))
            for turn in turns:
                if kind == "special":
                    j.set(game.g, "special", {**game.g["special"], "turn": turn})
                else:
                    j.set(game.g, "acquisition", {**game.g["acquisition"], "turn": turn})
                validator.try_all(short, legal=False)
        except (IllegalAction, RuleGap):
            pass  # a round the state cannot start: nothing to try
        finally:
            j.rollback()


def _construct_steps(validator: Validator, rng: random.Random, want: int) -> None:
    """States for the operating turn's actions: in an operating round, each
    floated corporation of the scope put at each step of its turn (given the
    depot's next train for `run_routes` when it has none, a revenue for
    `dividend`, as the engine skips those steps otherwise, and, at a station
    step while stations are short, its track extended by `extend_track`); then every
    candidate of the actions still short of `want` samples. A step is visited
    again while an action it names or has offered is short."""
    game = validator.game
    report = validator.report
    if game.g["round"] != "operating" or game.g.get("state:decisions") or game.g["finished"]:
        return
    short = {k for k in validator.actions if report.accepted.get(k, 0) < want} - STOCK_KINDS
    if not short:
        return
    steps = [s for s in game.param("operating_steps") if game.board is not None or s not in MAP_STEPS]
    j = game.j
    for corp in game.corporations:
        state = game.corp[corp.id]
        if not state["floated"] or state["closed"] or not validator.in_scope(corp):
            continue
        for step in steps:
            # a step is visited while an action named by it (or by a step it combines) is short, or an
            # action offered at it before is, or one a dealt card may offer (`deal_card`)
            named = {step, *COMBINED_STEPS.get(step, ())}
            offered = validator.step_kinds.get(step)
            if offered is not None and not (offered | named | set(validator.card_kinds)) & short:
                continue
            j.begin()
            try:
                if step == "run_routes" and not game.b_trains(corp) and not _give_train(validator, corp):
                    continue
                j.set(game.g, "operating", corp.id)
                j.set(game.g, "step", step)
                j.set(game.g, "state:decisions", ())
                if short & validator.company_kinds:
                    # the privates held outside the scope (their abilities act for their holders), and
                    # half of the players' and the market's (whose abilities a corporation uses: 18CO's
                    # track and station privates, often left unsold), are corp's, as if it had bought them
                    for item in game.privates:
                        if not game.closed[item.id] and (validator._held_outside(item.id) or (
                                game.owner[item.id].kind in ("player", "pool") and rng.random() < 0.5)):
                            j.set(game.owner, item.id, corp)
                if short & set(validator.card_kinds):
                    # no card's action short of `want` (None): any card, as `deal_card` deals where none fits
                    deal_card(game, corp, rng, validator.short_effects(want, rng) or set())
                if "corporations" in (game.DATA.properties.get("presidency_contenders") or ()) and rng.random() < 0.5:
                    _hold_others(validator, corp)
                stations = "place_token" in named and short & {"place_token", "remove_token"}
                # a later phase: what it allows, and the track of its colours (18CO's Durango, a
                # yellow city without track, is left only by its green upgrade)
                if (short & validator.phase_kinds or stations) and rng.random() < 0.5:
                    later_phase(game, rng)
                if step == "dividend":
                    j.set(state, "revenue", rng.choice((10, 40, 80, 150, 260)))
                seen = set(offered or ())
                # while stations are short, two states: the track extended toward a city, with the
                # tokens left for place_token, and a station added elsewhere first (a station to take
                # back, remove_token; it uses a token 18CO's DSNG, with two, cannot spare)
                for add in ((False, True) if stations else (None,)):
                    j.begin()
                    try:
                        if add:
                            add_station(game, corp, rng)
                        if stations:
                            extend_track(game, corp, rng)
                        validator.try_all(short, legal=False)
                        seen |= validator.offered
                    finally:
                        j.rollback()
                validator.step_kinds[step] = seen
            finally:
                j.rollback()


def _hold_others(validator: Validator, corp: Entity) -> None:
    """Where corporations hold one another's certificates (and contend for presidencies: 18CO §4.5.1),
    `corp` holding, besides, up to two ordinary certificates of each other started corporation of the
    scope, from that corporation's treasury or the pool (what random play seldom gives a corporation
    of the scope to sell at its `corporate_sell_shares` step, §5.12)."""
    game = validator.game
    for other in game.corporations:
        if other == corp or not validator.in_scope(other) or game.corp[other.id]["cell"] is None \
                or game.corp[other.id]["closed"]:
            continue
        spare = [c for c in game.certs_of[other.id] if not c.president and game.owner[c.id] in (other, RT_POOL)]
        for cert in spare[:2]:
            game.j.set(game.owner, cert.id, corp)


def _give_train(validator: Validator, corp: Entity) -> bool:
    """`corp` given the depot's next train of the scope, inside the caller's transaction; whether
    there was one. Only a train of a type already sold is given: the first of a type may start a
    phase, which a gift would skip (1800's 2-train, before which no node has a revenue)."""
    game = validator.game
    sold = {game.trains[t].name for t in game.trains if game.owner[t] is not RT_DEPOT}
    offered = [t for t in game._available_train_ids()
               if t in validator.model_item_ids and game.trains[t].name in sold]
    if offered:
        game.j.set(game.owner, offered[0], corp)
    return bool(offered)


def _construct_any_time(validator: Validator, rng: random.Random, want: int) -> None:
    """States for the title's any-time actions (taken in or out of turn, so
    rare in play, such as a private traded for a pool share): up to two
    certificates of each started corporation moved from its mat to the pool,
    and most privates not open in a player's hands given, open, to a random
    player; then every candidate of those actions."""
    game = validator.game
    names = [n for n in game._any_time_actions() if validator.report.accepted.get(n, 0) < want]
    if not names or game.g.get("state:decisions") or game.g["finished"]:
        return
    j = game.j
    j.begin()
    try:
        for corp in game.corporations:
            if game.corp[corp.id]["cell"] is None:
                continue
            mat = [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp and not c.president]
            for cert in rng.sample(mat, min(2, len(mat))):
                j.set(game.owner, cert.id, RT_POOL)
        for item in game.privates:
            if (game.owner[item.id].kind != "player" or game.closed[item.id]) and rng.random() < 0.7:
                j.set(game.owner, item.id, rng.choice(game.players))
                j.set(game.closed, item.id, False)
        validator.try_all(set(names), legal=False)
    finally:
        j.rollback()


def _construct_decisions(validator: Validator, legal: list[dict], rng: random.Random, want: int) -> None:
    """States for the decisions an action leaves pending (1880's choice of building rights after a
    founding, VII.3.2; 18 Grand Junction's Corbett Thompson choice as an operating round begins): one
    legal action of each type that names a corporation of the scope, and a pass, played, in a
    transaction rolled back, and the candidates of the decision then pending tried where its action
    is short of `want` samples; where one did, up to a dozen more of its type (other prices, other
    certificate layouts: the states such a decision follows are few, as a corporation is founded once)."""
    game = validator.game
    report = validator.report
    if game.g.get("state:decisions") or all(report.accepted.get(k, 0) >= want for k in validator.actions):
        return
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        if validator.names_scope(a) or a["type"] == "pass":
            by_type.setdefault(a["type"], []).append(a)
    for actions in by_type.values():
        rng.shuffle(actions)
        for action in actions[:12]:
            if not _decide_after(validator, action, want, rng):
                break


def _decide_after(validator: Validator, action: dict, want: int, rng: random.Random) -> bool:
    """`action` played in a transaction rolled back, and the candidates of the decision it leaves pending
    tried; whether that decision's action was short of `want` samples. While an action reading a card's
    power is short, the corporations of the scope are first dealt a card (`deal_card`: a decision
    such a power asks for, 18GJ's Corbett Thompson choice)."""
    game = validator.game
    logged = len(game.actions)
    game.j.begin()
    try:
        effects = validator.short_effects(want, rng)
        if effects is not None:
            for corp in game.corporations:
                if validator.in_scope(corp) and not game.corp[corp.id]["closed"]:
                    deal_card(game, corp, rng, effects, chance=1.0)
        try:
            game.process(action)
        except (IllegalAction, RuleGap):
            return False
        pending = game.g.get("state:decisions")
        if not pending or validator.report.accepted.get(pending[0][2], 0) >= want:
            return False
        validator.try_all({pending[0][2]}, legal=False)
        return True
    finally:
        game.j.rollback()
        del game.actions[logged:]  # the log is not journalled


def _construct_take_overs(validator: Validator, rng: random.Random) -> None:
    """A started corporation's shares moved to another player until he holds
    more than the president; then the runtime's take-over check runs."""
    game = validator.game
    j = game.j
    for corp in game.corporations:
        certs = game.certs_of[corp.id]
        president = game.owner[certs[0].id]
        if president.kind != "player":
            continue
        for other in game.players:
            if other == president:
                continue
            j.begin()
            try:
                pool = [c for c in certs[1:] if game.owner[c.id] != other]
                rng.shuffle(pool)
                for cert in pool:
                    if game.b_percent(other, corp) > game.b_percent(president, corp):
                        break
                    j.set(game.owner, cert.id, other)
                validator.capture = True
                game._check_president(corp)
            finally:
                validator.capture = False
                j.rollback()
