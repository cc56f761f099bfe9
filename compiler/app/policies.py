"""How simulated players choose their actions: `rulec simulate --policy random|greedy`.

A policy is a function `choose(game, rng) -> action | None` that `playout.play_one`
calls at every decision (None: nothing is legal). Both policies only ever take an
action the engine lists as a candidate and accepts; the rules stay the engine's.

- `random`: the first legal candidate in a shuffled order, each legal action as
  likely as the others (`GameBase.random_legal_action`, what `rulec play` does).
- `greedy`: a one-step look-ahead. Up to `CANDIDATE_CAP` legal candidates, drawn
  in a shuffled order, are each applied inside a journal transaction that is
  always rolled back (as `GameBase.is_legal` tries an action), the acting side's
  *worth* is measured on the state the action leaves, and the best is taken (ties
  broken by the draw, and an action beats a pass). The worth is that of the player behind the action: the
  acting player, or the president (owner) of the acting corporation, minor or
  private. It counts
    - the player's value as the title counts it at the end (`player_value`: cash,
      shares at market price, privates at their end value, less loans);
    - each open private he owns at its face and its income (what it may sell for, and
      what it pays in an operating round), so that he buys privates at their face;
    - his part of each corporation's treasury (his percentage of its cash), so that
      a corporation's money is his money in proportion, and a withheld dividend is
      worth to him what it would pay him;
    - his part of each corporation's last run (its revenue times his percentage):
      one operating round's dividend, looked ahead.
  So greedy buys the shares of corporations that run well, runs the routes that
  pay most (the engine's route search offers them), pays out where the price rise
  makes that worth more than withholding, does not sell or bid away value, and
  buys a train when the rules force it (it is then the only legal kind of action).

What greedy does not model: anything beyond the next action (a corporation buys
no train unless forced, since a train is worth nothing to the president until it
runs; no plan for the phase changes, rusting, the end of the game or the
certificate limit); the other players' replies; the candidates it did not draw
(at most `CANDIDATE_CAP` legal ones per decision, so among many share purchases it
may miss the best); and the title's timing effects that act after the action
(take-overs, auto-passes, the end of a round), which it does not apply while
measuring. It is a cheap baseline that does not throw value away, not a strong
player.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from compiler.runtime.errors import IllegalAction, RuleGap

#: At most this many legal candidates are measured per decision (illegal ones are skipped as
#: `random_legal_action` skips them): it keeps a greedy game within a few times a random one.
CANDIDATE_CAP = 8

Policy = Callable[[Any, random.Random], "dict | None"]


def random_action(game, rng: random.Random) -> dict | None:
    """A legal action drawn at random (`GameBase.random_legal_action`)."""
    return game.random_legal_action(rng)


def greedy_action(game, rng: random.Random) -> dict | None:
    """The best of up to `CANDIDATE_CAP` legal candidates by the worth of the player behind it
    (module docstring); None when nothing is legal."""
    if game.finished:
        return None
    candidates = game._candidates()
    order = list(range(len(candidates)))
    rng.shuffle(order)
    best, best_worth, measured = None, None, 0
    for index in order:
        candidate = candidates[index]
        worth = _worth_after(game, candidate)
        if worth is None:
            continue
        measured += 1
        # on a tie, doing something beats passing (a pass is worth no more than a neutral move)
        worth = (worth, not game._idle(candidate))
        if best_worth is None or worth > best_worth:
            best, best_worth = candidate, worth
        if measured >= CANDIDATE_CAP:
            break
    if best is None:  # nothing measured: a worth the title leaves a gap, say; the engine's own draw
        return game.random_legal_action(rng)
    return best


def _worth_after(game, action: dict) -> int | None:
    """The worth (module docstring) of the player behind `action` once it is applied, the
    state then rolled back to exactly what it was; None when the engine refuses the action."""
    player = _player_behind(game, action)
    game.j.begin()
    try:
        game._dispatch(action)
        return worth(game, player) if player is not None else 0
    except (IllegalAction, RuleGap):
        return None
    finally:
        game.j.rollback()


def _player_behind(game, action: dict):
    """The player whose worth an action is measured by: the acting player, or the president
    (owner) of the acting company; None when it has none."""
    try:
        entity = game.find(action.get("entity"))
    except IllegalAction:
        return None
    if entity.kind == "player":
        return entity
    if entity.kind == "corporation":
        return game.call("president", entity)
    owner = game.owner.get(entity.id)
    return owner if owner is not None and getattr(owner, "kind", None) == "player" else None


def worth(game, player) -> int:
    """A player's worth to the greedy policy: his value at the end's count, each open private's
    face and income, his percentage of each corporation's treasury and of its last run's revenue
    (currency units)."""
    total = game.player_value(player)
    for item in game.privates:
        if game.owner[item.id] == player and not game.is_closed(item):
            # what it sells for (its face) and what it pays in an operating round
            total += sum(v for v in (item.get("cost"), item.get("income")) if isinstance(v, int))
    for corp in game.corporations:
        percent = game.b_percent(player, corp)
        if percent:
            total += (game.cash[corp] + game.corp[corp.id]["revenue"]) * percent // 100
    return total


POLICIES: dict[str, Policy] = {"random": random_action, "greedy": greedy_action}
