"""The runtime vocabulary a rulespec may name without defining it.

Names used in actions, procedures, functions, triggers and invariants must be
a parameter, a local (`let`, `for`, a quantifier's variable), a clause of the
title (a property, component, table, enum value, routine ...), or a builtin.
The builtins are exactly what `compiler.runtime.GameBase` provides: its
`b_<name>` methods (the first line of each docstring says what it does) and
the holder values below. The site publishes this table.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
from pathlib import Path

from compiler.paths import cache_dir

#: Values, not functions: the holders and collections of a game.
VALUES: dict[str, str] = {
    "bank": "the bank (finite or unlimited)",
    "pool": "the bank pool (the market for shares)",
    "initial_offering": "the IPO as a holder: where unsold certificates sit when the title's capitalisation keeps them apart from the corporation's treasury (full, partial); the library's ipo_of(C) names C's (a purchase names its source `ipo`)",
    "depot": "the trains not yet bought",
    "scrap": "out of the game (rusted and removed trains, a closed corporation's certificates)",
    "players": "the players, in seating order",
    "corporations": "every corporation",
    "privates": "every private company",
    "minors": "every minor (and every pick that operates as one)",
    "bonds": "every bond",
    "all_trains": "every train of the game, in the order of its trains (those in the depot, held, and rusted or removed alike); `trains(H)` are those H holds",
    "train_cards": "the train cards, in the title's order, as records: each its key and every field its kind declares (none where unset; one that may name several cards, `train | list[train]`, as a list)",
    "phases": "the phases, in order, as records: each its key, its number (its place in the order, from 1) and every field its kind declares (none where unset; one that may name several, as a list)",
    "market_cells": "the stock market's cells, row by row from the top, each row from the left, as values of the runtime's type market_cell: each its `row` and `column` (from 0 at the top left), `price`, `zones` (their names) and the cell a move of a token on it reaches, `up`, `down`, `left`, `right` (the title's edge rules), and `way`, in each direction the cells a token on it passes moving that way again and again to where the next move stays (`X.way[d][n]`: the cell n moves reach; past the way's end, its last cell); a corporation's `cell` is one (none where its price token is off the market), which `set C.cell = X` sets",
    "markets": "the stock markets (a title has one), as records: each its key and every field its kind declares (none where unset: `frozen_in`, the phases in which no price moves)",
    "all_ability_cards": "every ability card of the title (the kind its `ability_cards` names), in the title's order, as records, whoever holds it and whether it is left in the deck or out of the game: each its key and every field its kind declares (none for a title without ability cards)",
    "phase_number": "the current phase's number: its place among the phases, from 1 (the `number` of its record in `phases`)",
    "current_round": "the round being played: a value of round_kind (setup before the first round, finished after the game)",
    "current_step": "the step of the operating turn under way: a value of step (none outside an operating turn)",
    "game_end_reason": "the end reason the game's end was called by: a value of end_reason, none before an end condition of the title's game_end is met (the game then ends at its time, or at once: end_game_now)",
    "operating_company": "the corporation or minor whose operating turn is under way, in an operating round (or was, where another round broke in; none between turns)",
    "acting_entity": "the entity that acts now: the one owing the first decision owed, else the player or company on turn (none once the game is over)",
}

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"


def _functions() -> dict[str, str]:
    from compiler.runtime.game import GameBase

    out = {}
    for name, member in inspect.getmembers(GameBase, inspect.isfunction):
        if name.startswith("b_"):
            doc = inspect.getdoc(member) or ""
            out[name[2:]] = doc.splitlines()[0] if doc else ""
    return out


@functools.cache
def table() -> dict[str, str]:
    """name -> one-line meaning: `VALUES`, then `GameBase`'s `b_` methods. Importing the runtime
    takes longer than a quick command's whole work, so the table is kept in the cache
    (`.rulec-cache/builtins/`) under a digest of the runtime's sources, from which alone
    `GameBase` is built."""
    return _cached("builtins", lambda: {**VALUES, **_functions()})


@functools.cache
def listing() -> dict[str, list[str]]:
    """What the runtime's listing of legal actions is made of, for `compiler.runtime.enumerated`: the
    vocabulary types with a generator of their own (`GameBase._cand_<type>`), the vocabulary and the round
    prefixes. Kept in the cache (`.rulec-cache/listing/`) as `table` is."""
    return _cached("listing", _listing)


@functools.cache
def signatures() -> dict[str, list]:
    """name -> [the fewest positional arguments, the most (None: any number), the keyword names (None:
    any)] of each of `GameBase`'s `b_` methods, as a rulespec calls it (`rulec check`'s E036 for a
    builtin called with another number of arguments: the engine would fail at play with a
    TypeError). Kept in the cache (`.rulec-cache/signatures/`) as `table` is."""
    return _cached("signatures", _signatures)


def _signatures() -> dict[str, list]:
    from compiler.runtime.game import GameBase

    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    out = {}
    for name, member in inspect.getmembers(GameBase, inspect.isfunction):
        if not name.startswith("b_"):
            continue
        params = list(inspect.signature(member).parameters.values())
        if not isinstance(inspect.getattr_static(GameBase, name), staticmethod):
            params = params[1:]  # not self
        least = sum(1 for p in params if p.kind in positional and p.default is p.empty)
        most = None if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params) else \
            sum(1 for p in params if p.kind in positional)
        keywords = None if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params) else \
            [p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY
             and p.kind is not inspect.Parameter.VAR_POSITIONAL]
        out[name[2:]] = [least, most, keywords]
    return out


def _listing() -> dict[str, list[str]]:
    from compiler.runtime import game

    return {"generators": sorted(n[len("_cand_"):] for n in dir(game.GameBase) if n.startswith("_cand_")),
            "vocabulary": sorted(game.VOCABULARY), "round_prefixes": list(game.ROUND_ACTION_PREFIXES)}


def _cached(name: str, build):
    """`build()`'s JSON answer, kept in the cache folder `name` under a digest of the runtime's sources
    and of this module (which reads them)."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for source in sorted(RUNTIME.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    folder = cache_dir(name)
    stored = folder / f"{digest.hexdigest()}.json" if folder is not None else None
    if stored is not None:
        try:
            return json.loads(stored.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    found = build()
    if stored is not None:
        try:
            partial = stored.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(found), encoding="utf-8")
            partial.replace(stored)
        except OSError:
            pass
    return found


def __getattr__(name: str):
    if name == "BUILTINS":  # the table, as the site and the resolver name it
        return table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
