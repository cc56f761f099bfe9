"""Which of a title's actions random play can try: the kinds of parameter the runtime's listing enumerates.

`GameBase._iter_candidates_for` lists a title's action through its vocabulary type's own generator
(`GameBase._cand_<type>`), else through `GameBase._title_action_candidates`, which tries each parameter
over the values of its kind and gives up (no candidate at all) on a required parameter of a kind it does
not enumerate. `untried_parameter` says which parameter that is, without importing the runtime's game
(`rulec check` reads the runtime's generators and vocabulary from `compiler.lang.builtins.listing`), so
that `rulec check` warns of an action random play never tries (W006).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

#: The parameter kinds `GameBase._title_action_candidates` enumerates by themselves: an entity kind, a
#: money amount (a private's price range, else the prices the title declares) and, through
#: `_declared_kind_choices`, a train, a hex, a tile and a certificate list.
ENUMERATED_KINDS = frozenset({"bond", "private", "corporation", "player", "money", "train", "hex", "tile",
                              "list[certificate]"})


def untried_parameter(name: str, params: Iterable[tuple[str, tuple[str, ...]]], properties: Mapping[str, Any],
                      optional: Iterable[str], listing: Mapping[str, Any]) -> str | None:
    """The first parameter of the title's action `name` that random play cannot enumerate, or None.

    The action is one the runtime lists through `_title_action_candidates` (its vocabulary type has no
    `_cand_` generator), and the parameter is of none of the kinds that function tries (an `int` or a
    `name` with no `<type>_options` property, a percent, a bool, a list of other things), nor optional.
    `params`: the action's (name, types) as `ACTION_PARAMS` has them; `properties`: the title's property
    values by name (`.get`); `optional`: its optional fields; `listing`: the runtime's `generators` (the
    types of its `_cand_` methods, `round_type` for a round's own), `vocabulary` and `round_prefixes`."""
    vocabulary, prefixes, generators = (set(listing["vocabulary"]), tuple(listing["round_prefixes"]),
                                        set(listing["generators"]))
    vtype = name
    for kind in ("player", "corporation", "company"):
        if name.startswith(kind + "_") and name[len(kind) + 1:] in vocabulary:
            vtype = name[len(kind) + 1:]
    round_of = next((r for r in prefixes if name.startswith(r + "_") and name[len(r) + 1:] in vocabulary), None)
    if round_of is not None:
        vtype = name[len(round_of) + 1:]
    if (round_of is not None and f"{round_of}_{vtype}" in generators) or vtype in generators:
        return None
    options = isinstance(properties.get(f"{vtype}_options"), list)
    cards = properties.get("ability_cards")
    optional = set(optional)
    for pname, types in list(params)[1:]:
        kind = types[0]
        if pname in optional or kind in ENUMERATED_KINDS:
            continue
        if len(types) > 1 and all(x in ("player", "corporation") for x in types):
            continue
        if (kind in ("int", "money", "name") and options) or (cards is not None and kind == str(cards)):
            continue
        return pname
    return None
