"""The runtime vocabulary a rulespec may name without defining it.

Names used in actions, procedures, functions, triggers and invariants must be
a parameter, a local (`let`, `for`, a quantifier's variable), a clause of the
title (a property, component, table, enum value, routine ...), or a builtin.
The builtins are exactly what `compiler.runtime.GameBase` provides: its
`b_<name>` methods (the first line of each docstring says what it does) and
the holder values below. The site publishes this table.
"""

from __future__ import annotations

import inspect

from compiler.runtime.game import GameBase

#: Values, not functions: the holders and collections of a game.
VALUES: dict[str, str] = {
    "bank": "the bank (finite or unlimited)",
    "pool": "the bank pool (the market for shares)",
    "depot": "the trains not yet bought",
    "scrap": "out of the game (rusted and removed trains, a closed corporation's certificates)",
    "players": "the players, in seating order",
    "corporations": "every corporation",
    "privates": "every private company",
    "minors": "every minor (and every pick that operates as one)",
}


def _functions() -> dict[str, str]:
    out = {}
    for name, member in inspect.getmembers(GameBase, inspect.isfunction):
        if name.startswith("b_"):
            doc = inspect.getdoc(member) or ""
            out[name[2:]] = doc.splitlines()[0] if doc else ""
    return out


#: name -> one-line meaning.
BUILTINS: dict[str, str] = {**VALUES, **_functions()}
