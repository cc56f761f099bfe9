"""Title data as the generated module hands it to the runtime.

The emitter turns a resolved title into plain Python values:

- `properties`: name -> value (ints for money and percent, str for names,
  lists, dicts for records and maps, `Gap` for a declared gap, `Table`
  for a table);
- `components`: kind -> list of {"key", "title", **properties, "children"};
- `rules`: clause name -> its citation text ("§8.1").

`TitleData.param(name, players=N)` looks a value up; a table keyed by
`players` is read at the game's player count; a gap raises `RuleGap`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.runtime.errors import RuleGap


@dataclass(frozen=True)
class Gap:
    """A value that the rulebook does not give and nobody supplied; `at` is where the
    rulespec declares it ("rulespecs/18co.rules:76")."""

    reason: str
    at: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Table:
    """A table: `dims` names its keys; rows map a key tuple to a value.

    A key is an int, a str, or (low, high) for a range of ints.
    """

    dims: tuple[str, ...]
    rows: tuple[tuple[tuple[Any, ...], Any], ...]

    def lookup(self, *keys: Any) -> Any:
        for row_keys, value in self.rows:
            if len(row_keys) == len(keys) and all(_matches(k, want) for k, want in zip(row_keys, keys)):
                return value
        raise KeyError(keys)


def _matches(key: Any, want: Any) -> bool:
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(x, int) for x in key):
        return isinstance(want, int) and key[0] <= want <= key[1]
    return key == want


@dataclass
class TitleData:
    title: str
    variant: str | None
    properties: dict[str, Any]
    components: dict[str, list[dict[str, Any]]]
    rules: dict[str, str] = field(default_factory=dict)
    #: kind -> (its component list, its length, key -> first component): `component`'s index
    _index: dict[str, tuple] = field(default_factory=dict, repr=False, compare=False)

    def has(self, name: str) -> bool:
        return name in self.properties

    def param(self, name: str, players: int | None = None, **dims: Any) -> Any:
        if name not in self.properties:
            raise RuleGap(name, "the rulespec does not set it")
        value = self.properties[name]
        return resolve_value(name, value, players=players, **dims)

    def components_of(self, kind: str) -> list[dict[str, Any]]:
        return self.components.get(kind, [])

    def component(self, kind: str, key: str) -> dict[str, Any]:
        """The first component of `kind` whose key is `key` (KeyError if none), from an index of the
        kind's components made when first asked (and made again if the list is replaced or grows)."""
        comps = self.components.get(kind, [])
        index = self._index.get(kind)
        if index is None or index[0] is not comps or index[1] != len(comps):
            table: dict[Any, dict[str, Any]] = {}
            for comp in comps:
                table.setdefault(comp["key"], comp)
            index = self._index[kind] = (comps, len(comps), table)
        try:
            return index[2][key]
        except (KeyError, TypeError):
            raise KeyError((kind, key)) from None

    def has_component(self, kind: str, key: str) -> bool:
        try:
            self.component(kind, key)
        except KeyError:
            return False
        return True


def resolve_value(name: str, value: Any, players: int | None = None, **dims: Any) -> Any:
    """A value as play needs it: tables read at the given dimensions, gaps refused."""
    if isinstance(value, Gap):
        raise RuleGap(name, value.reason, value.at)
    if isinstance(value, Table):
        keys = []
        for dim in value.dims:
            if dim == "players":
                keys.append(players)
            elif dim in dims:
                keys.append(dims[dim])
            else:
                raise RuleGap(name, f"the table is keyed by {dim!r}, which play does not know")
        try:
            found = value.lookup(*keys)
        except KeyError:
            raise RuleGap(name, f"the table has no row for {dict(zip(value.dims, keys))}") from None
        return resolve_value(name, found, players=players, **dims)
    return value
