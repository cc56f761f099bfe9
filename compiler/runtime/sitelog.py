"""Game logs as 18xx.games writes them: the one place that reads one.

A log is a JSON object::

    {"title": "1846", "players": [{"id": 82, "name": "Player 1"}, ...],
     "settings": {"seed": 3099, "optional_rules": ["first_ed"]},
     "actions": [{"type": "bid", "entity": 82, "entity_type": "player", "id": 1, ...}, ...],
     "result": {"82": 6550, ...}, "game_end_reason": "bank"}

What this module makes of the action list, in the site's own meaning:

- ``skip: true`` marks an action (an undo among them) that an older version of the site had already
  resolved away: it is not read at all.
- ``undo`` takes back the last action still standing (a ``message`` is never taken back); with
  ``action_id`` it takes back every action after the one with that id (``0``: all of them). ``redo``
  restores the actions the last undo took back. Any other action except a message ends the chance to
  redo: the undos before it stand for good.
- ``message`` is chat: kept in the record, never processed. ``program_*`` actions set up a player's
  automatic passes or purchases in the site's interface: recorded, not processed; what a program did is
  in ``auto_actions``.
- ``auto_actions`` of an action are processed in order right after it, as the site did when it
  recorded them.
- ``id``, ``original_id``, ``created_at``, ``user`` and the fields above are the log's bookkeeping, not
  part of the action.
- A player is named in ``entity`` (and ``target``, where ``target_type`` is ``player``) by the numeric id
  of the log's ``players`` list, or by name in older logs; both are read as the player's name.

The random outcomes the site drew from its seed are not in a log (some logs carry no seed at all); they
are read from what the log shows, here and nowhere else:

- the seating: the log's `players` list, in order (`game_from_log`);
- setup's removals: a company or corporation the log's actions name was not removed (`hints`): the
  engine draws its removals first among those the log never names;
- a draft's hands: a card the log's pick names was in the hand it was picked from: replaying a log
  (`log_hints`, the runtime's `_replaying()`), a pick may take any card still in the deck. Prices and
  every other rule are checked as in a game the engine deals itself.

Which title, variant and options a log is played with comes from the rulespecs: the title's and
variants' `log_names`, the options' `log_names`, and, for a log the site wrote (`reading_for`), the
title's reading by the site: an erratum whose `implementation` is "18xx.games".
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from compiler.runtime.errors import IllegalAction, InvariantViolation, RuleGap

#: where a log comes from when rulec did not write it: the title's reading by that implementation (an
#: `errata` whose `implementation` names it) is the one its games were played by
SITE = "18xx.games"
#: the log's bookkeeping fields, dropped before an action reaches the engine
BOOKKEEPING = frozenset({"id", "original_id", "created_at", "user", "auto_actions", "skip"})
#: action types that never reach the engine: chat, and the interface's automatic-action programs
RECORDED_ONLY_PREFIX = "program_"


@dataclass(frozen=True)
class LogAction:
    """One action to process: `number` is its 1-based position in the log's action list (an auto
    action has its carrier's number and `auto` its 1-based place among the carrier's auto actions);
    `id` the log's own id; `action` as the engine takes it; `raw` as the log has it."""

    number: int
    id: Any
    action: dict
    raw: dict
    auto: int = 0

    @property
    def label(self) -> str:
        return f"{self.number}" + (f".{self.auto}" if self.auto else "")


class LogError(ValueError):
    """A file that is not a game log as 18xx.games or rulec writes one: what is wrong, and where in it
    (the field, the action's 1-based position)."""


def _kind(value: Any) -> str:
    """How an error names a JSON value's type: 'a number', 'a list', 'null'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else type(value).__name__


def check_log(log: Any) -> None:
    """Raise `LogError` where `log` is not shaped as a game log (the module's docstring): an object
    with a `title` string, a `players` list of objects naming each player (`id`, `name`), an
    `actions` list of objects (their `auto_actions` lists of objects), and, where present,
    `settings` an object whose `optional_rules` is a list of names, `result` an object, `variant`
    and `game_end_reason` strings. What an action asks is the engine's to judge (a divergence), and
    an undo or redo with nothing to take back `standing_actions`', not this."""
    if not isinstance(log, dict):
        raise LogError(f"a game log is a JSON object, not {_kind(log)}")
    if not isinstance(log.get("title"), str):
        raise LogError("the log names no title (`title`)" if log.get("title") is None
                       else f"`title` is {_kind(log['title'])}, not the title's name")
    for key in ("variant", "game_end_reason", "engine"):
        if log.get(key) is not None and not isinstance(log[key], str):
            raise LogError(f"`{key}` is {_kind(log[key])}, not a string")
    players = log.get("players")
    if not isinstance(players, list):
        raise LogError("the log lists no players (`players`)" if players is None
                       else f"`players` is {_kind(players)}, not a list of players")
    for i, player in enumerate(players, 1):
        if not isinstance(player, dict) or (player.get("name") is None and player.get("id") is None):
            raise LogError(f"player {i} of `players` is {_kind(player)}, not an object with an `id` or `name`")
        for key in ("id", "name"):
            if isinstance(player.get(key), (list, dict)):
                raise LogError(f"the `{key}` of player {i} of `players` is {_kind(player[key])}, "
                               "not a string or a number")
    settings = log.get("settings")
    if settings is not None and not isinstance(settings, dict):
        raise LogError(f"`settings` is {_kind(settings)}, not an object")
    rules = (settings or {}).get("optional_rules")
    if rules is not None and not (isinstance(rules, list) and all(isinstance(r, str) for r in rules)):
        raise LogError(f"`settings.optional_rules` is {_kind(rules)}, not a list of the options' names")
    if log.get("result") is not None and not isinstance(log["result"], dict):
        raise LogError(f"`result` is {_kind(log['result'])}, not an object of each player's value")
    actions = log.get("actions")
    if not isinstance(actions, list):
        raise LogError("the log has no `actions` list" if actions is None
                       else f"`actions` is {_kind(actions)}, not a list of actions")
    for number, action in enumerate(actions, 1):
        if not isinstance(action, dict):
            raise LogError(f"action {number} is {_kind(action)}, not an object")
        autos = action.get("auto_actions")
        if autos is not None and not (isinstance(autos, list) and all(isinstance(a, dict) for a in autos)):
            raise LogError(f"the `auto_actions` of action {number} are {_kind(autos)}, not a list of actions")
        # who acts and on whom are ids (a string or a number), looked up among the players' names
        for auto, one in [(0, action), *enumerate(autos or (), 1)]:
            for key in ("entity", "target"):
                if isinstance(one.get(key), (list, dict)):
                    raise LogError(f"the `{key}` of action {number}" + (f" (its auto action {auto})" if auto else "")
                                   + f" is {_kind(one[key])}, not an id (a string or a number)")


def standing_actions(actions: list[dict]) -> list[tuple[int, dict]]:
    """The actions that stand once the undos and redos are applied, with their 1-based positions,
    in order. Messages stand; undo and redo entries themselves are not returned.

    >>> acts = [{"type": "pass", "id": 1}, {"type": "pass", "id": 2}, {"type": "undo", "id": 3}]
    >>> [p for p, _ in standing_actions(acts)]
    [1]
    """
    slots: list[dict | None] = [None] * len(actions)
    undone: list[list[tuple[int, dict]]] = []  # groups of (position, action) the undos took back
    position_of_id = {}
    for index, action in enumerate(actions):
        if action.get("id") is not None and action["id"] not in position_of_id:
            position_of_id[action["id"]] = index
    for index, action in enumerate(actions):
        if action.get("skip"):
            continue
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                # the last action still standing (not a message), found from the undo backwards
                start = next((i for i in range(index - 1, -1, -1)
                              if slots[i] is not None and slots[i].get("type") != "message"), 0)
            elif target == 0:
                start = 0
            else:
                if target not in position_of_id:
                    raise IllegalAction(f"the undo at position {index + 1} names action id {target}, "
                                        "which the log does not have", rule="18xx.games log format")
                start = position_of_id[target] + 1
            group = [(i, slots[i]) for i in range(start, index)
                     if slots[i] is not None and slots[i].get("type") != "message"]
            for i, _ in group:
                slots[i] = None
            undone.append(group)
        elif kind == "redo":
            if not undone:
                raise IllegalAction(f"the redo at position {index + 1} has no undo to take back",
                                    rule="18xx.games log format")
            for i, act in undone.pop():
                slots[i] = act
        elif kind == "message":
            slots[index] = action
        else:
            undone.clear()
            slots[index] = action
    return [(i + 1, a) for i, a in enumerate(slots) if a is not None]


def player_names(log: dict) -> dict:
    """Each player's id and name, as the log lists them, to the name the engine uses."""
    names = {}
    for p in log.get("players", []):
        name = p.get("name", p.get("id"))
        names[p.get("id", name)] = name
        names[name] = name
    return names


def engine_action(action: dict, names: dict) -> dict:
    """`action` as the engine takes it: bookkeeping dropped, players named by name."""
    out = {k: v for k, v in action.items() if k not in BOOKKEEPING}
    if out.get("entity_type") == "player" and out.get("entity") in names:
        out["entity"] = names[out["entity"]]
    if out.get("target_type") == "player" and out.get("target") in names:
        out["target"] = names[out["target"]]
    return out


def processed_actions(log: dict) -> list[LogAction]:
    """The actions the engine processes for `log`, in order: the standing actions (see
    `standing_actions`) other than messages and programs, each followed by its auto actions."""
    names = player_names(log)
    out: list[LogAction] = []
    for number, raw in standing_actions(list(log.get("actions", []))):
        kind = str(raw.get("type"))
        if kind != "message" and not kind.startswith(RECORDED_ONLY_PREFIX):
            out.append(LogAction(number, raw.get("id"), engine_action(raw, names), raw))
        for i, auto in enumerate(raw.get("auto_actions") or (), 1):
            # a program's own bookkeeping among them (`program_disable`: the site ended a program) is recorded only
            if not str(auto.get("type")).startswith(RECORDED_ONLY_PREFIX):
                out.append(LogAction(number, raw.get("id"), engine_action(auto, names), auto, auto=i))
    return out


def hints(log: dict, steps: list[LogAction] | None = None) -> set[str]:
    """What a log's actions reveal of setup's hidden draws, as names:

    - the companies and corporations its actions name: a company the log acts with was not removed, and a
      draft's hands must have held the cards picked;
    - the certificates setup gave away (a private's random share): certificates of a corporation are
      named in id order as they leave its treasury, so the first action naming one of a corporation's
      ordinary certificates tells which were gone before play touched them. A purchase naming `X_3`
      first means `X_1` and `X_2` had already left; a sale naming `X_2` first means its seller held
      `X_2` from setup. (The president's certificate, `X_0`, is never drawn so.)

    `steps`: `processed_actions(log)`, where the caller has them already.
    """
    found: set[str] = set()
    first_named: set[str] = set()
    for step in processed_actions(log) if steps is None else steps:
        action = step.action
        for key in ("company", "corporation", "minor"):
            if isinstance(action.get(key), str):
                found.add(action[key])
        if action.get("entity_type") in ("corporation", "company", "minor"):
            found.add(str(action.get("entity")))
        for cid in action.get("shares") or ():
            corp, _, index = str(cid).rpartition("_")
            if not index.isdigit() or int(index) == 0 or corp in first_named:
                continue
            first_named.add(corp)
            if "sell" in str(action.get("type")):
                found.add(str(cid))
            else:
                found.update(f"{corp}_{i}" for i in range(1, int(index)))
    return found


def reading_for(log: dict) -> str | None:
    """The implementation whose reading of the rules a log was played by: None for rulec's own logs
    (their variant field names everything), else the site's (`SITE`)."""
    return None if log.get("engine") == "rulec" else SITE


def game_from_log(game_class, log: dict, *, steps: list[LogAction] | None = None, **extra):
    """A new game of `game_class` set up as the log's: its players in the log's order, its seed, its
    optional rules (by the names the title's options list in `log_names`), and the draws the log's
    actions reveal (`steps`: `processed_actions(log)`, where the caller has them already)."""
    names = player_names(log)
    players = [names[p.get("id", p.get("name"))] for p in log.get("players", [])]
    settings = log.get("settings") or {}
    own = log.get("engine") == "rulec"
    return game_class(players=players, seed=settings.get("seed", 0) or 0, variant=log.get("variant") if own else None,
                      options=settings.get("optional_rules") or (), log_hints=() if own else hints(log, steps), **extra)


@dataclass
class Divergence:
    """Where a replay stopped: the action the engine refused (`rule`, `message`) or whose effects broke an
    invariant, with the acting entity's legal actions at that point (short)."""

    step: LogAction
    message: str
    rule: str | None = None
    legal: list[dict] = field(default_factory=list)
    #: where the refusing clause is written ("rulespecs/lib/18xx.rules:701"), or None
    at: str | None = None

    def as_dict(self) -> dict:
        return {"action_number": self.step.number, "auto_action": self.step.auto or None,
                "action_id": self.step.id, "action": self.step.raw, "rule": self.rule,
                "message": self.message, "legal": self.legal, "at": self.at}

    def __str__(self) -> str:
        cited = "; ".join(x for x in (self.rule, self.at) if x)
        rule = f" ({cited})" if cited else ""
        return (f"diverged at action {self.step.label} (id {self.step.id}) {_short(self.step.raw)}: "
                f"{self.message}{rule}")


def _short(action: dict) -> str:
    import json

    return json.dumps({k: v for k, v in action.items() if k not in ("created_at", "user", "original_id")})


def legal_for(game, entity: Any, limit: int = 12) -> list[dict]:
    """The legal actions of `entity` now (all, when it has none), at most `limit`, for a divergence report."""
    try:
        legal = game.legal_actions()
    except Exception:  # noqa: BLE001 - the report must not fail on a second engine error
        return []
    own = [a for a in legal if str(a.get("entity")) == str(entity)] or legal
    return own[:limit]


@dataclass
class Replay:
    """The outcome of replaying a log: the game as far as it got, the actions processed, the divergence
    (None when every action was taken), and the log's own result and end."""

    game: Any
    processed: int
    divergence: Divergence | None
    expected: dict | None

    @property
    def result_matches(self) -> bool | None:
        """None when the log has no result or the game did not finish; else whether the results agree."""
        if self.expected is None or not self.game.finished:
            return None
        return {str(k): v for k, v in self.expected.items()} == {str(k): v for k, v in self.result_by_id().items()}

    @property
    def end_matches(self) -> bool | None:
        """None when the log names no end or the game did not finish; else whether the replay ended as the
        log did: its `game_end_reason` is the name the library's `log_end_reasons` gives the replay's end."""
        if not self.expected_end or not self.game.finished:
            return None
        return self.end_name() == self.expected_end

    def end_name(self) -> str | None:
        """The replay's end as 18xx.games names it (the library's `log_end_reasons`), or rulec's own name."""
        reason = self.game.g.get("end_reason")
        return (self.game._table_dict("log_end_reasons") or {}).get(reason, reason)

    def result_by_id(self) -> dict:
        """The engine's result keyed as the log keys its own (by player id where the log gives ids)."""
        ids = {p.get("name", p.get("id")): p.get("id", p.get("name")) for p in self.log_players}
        return {ids.get(k, k): v for k, v in self.game.result().items()}

    log_players: list = field(default_factory=list)
    expected_end: str | None = None


def replay(game_class, log: dict, *, until: int | None = None, monitor: bool = True,
           on_step=None, **extra) -> Replay:
    """Replay `log` on a new game of `game_class`. Stops at the first action the engine refuses, whose
    effects break an invariant (with `monitor`), that needs a value the rulespec leaves open (a gap) or
    on which the engine fails (a defect, not a traceback), or after the action numbered `until`.
    `on_step(step, game)` is called after each processed action.
    Raises `RuleGap` when the title cannot be set up as the log's (an option that is a gap), `LogError`
    when `log` is not shaped as a game log (`check_log`), `IllegalAction` (rule "18xx.games log
    format") for an undo or redo with nothing to take back."""
    with older_objects_frozen():
        return _replay(game_class, log, until=until, monitor=monitor, on_step=on_step, **extra)


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """The objects that exist before a replay are left out of the cyclic garbage collector's passes while
    it runs (`gc.freeze`), and put back after (`gc.unfreeze`): a process that has read the rulespecs holds
    some 300,000 of them, which every full pass walked again, about a fifth of a replay's time. The game's
    own objects are collected as ever; what the replay computes does not change. Where objects are frozen
    already (by the caller), that is left as it is."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _replay(game_class, log: dict, *, until: int | None, monitor: bool, on_step, **extra) -> Replay:
    """`replay`, with the objects that existed before it frozen."""
    from compiler.runtime.monitor import Monitor

    check_log(log)
    steps = processed_actions(log)
    game = game_from_log(game_class, log, steps=steps, **extra)
    watch = Monitor(game) if monitor else None
    processed = 0
    divergence = None
    for at, step in enumerate(steps, 1):
        if until is not None and step.number > until:
            break
        try:
            # the log's next action is told first: the automatic pass after this one tries it first where it
            # asks whether an action is legal (a run it declares, with no route search; the same answers)
            game.look_ahead(steps[at].action if at < len(steps) else None)
            game.process(step.action)
            if watch is not None:
                watch.check(game, step.action)
        except IllegalAction as exc:
            divergence = Divergence(step, exc.message, exc.rule, legal_for(game, step.action.get("entity")), exc.at)
            break
        except InvariantViolation as exc:
            divergence = Divergence(step, str(exc), exc.invariant)
            break
        except RuleGap as exc:  # the action needs a value the rulespec leaves open
            divergence = Divergence(step, str(exc), "a gap in the rulespec")
            break
        except Exception as exc:  # noqa: BLE001 - an engine defect: reported at its action, as `rulec play` does
            divergence = Divergence(step, f"the engine failed: {type(exc).__name__}: {exc}", "a defect of the engine",
                                    legal_for(game, step.action.get("entity")))
            break
        processed += 1
        if on_step is not None:
            on_step(step, game)
    return Replay(game, processed, divergence, log.get("result"), list(log.get("players", [])),
                  log.get("game_end_reason"))
