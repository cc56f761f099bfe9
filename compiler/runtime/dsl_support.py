"""DSL support: `GameBase`'s part that the generated engines' code reads the game through.

`call` (a DSL routine or a builtin by name), `name` (a bare name: a title property, a component, a
collection, a builtin value), `card_records` (the train cards and phases as records), `among`, the declared
states (`state_has`, `state_set`, `state_amount`, `state_put`, `_reset_states`; a list's `list_first`,
`list_contains`, `list_length`, `list_append`, `list_remove`, `list_pop`), `attr`, `component_attr`
and `set_attr` (`obj.name` in the DSL) and `emit` (a trigger's event). A mixin of `GameBase`
(compiler/runtime/game.py), which it never imports.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from compiler.runtime.data import Gap, Table
from compiler.runtime.entities import BANK, DEPOT, IPO, POOL, SCRAP, Certificate, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.holdings import HolderNotes
from compiler.runtime.market import MarketCell
from compiler.runtime.track.lays import TokenSpot
from compiler.runtime.vocabulary import TOKEN_COUNTS


#: a station spot's fields the map answers for the company it was checked for (`GameBase.spot_field`)
SPOT_FIELDS = ("reserved", "reached")

#: a hex's fields the map answers, the hex named by its key (`GameBase.hex_field`): `color`, what lies on it
HEX_FIELDS = ("color",)

#: the values a declared state keys by id (`GameBase._state_key`)
_KEYED = (Entity, Certificate)

#: the bare names that are a field of the game's state as it stands (`game.g[field]`): the round being played,
#: the step of the operating turn under way, the end reason the game's end was called by (none before).
#: `DslSupport.name` reads them so, and the emitter compiles a read of one to that field's lookup
#: (`Compiler.expr`), asked thousands of times a game (`in_round`, `in_step`, `end_called`)
ROUND_FIELDS = {"current_round": "round", "current_step": "step", "game_end_reason": "end_reason"}
#: the bare names of the game's fixed holders (`DslSupport.name`)
_FIXED_NAMES = {"bank": BANK, "pool": POOL, "initial_offering": IPO, "depot": DEPOT, "scrap": SCRAP}
#: the bare names of the round machinery's state, each read of the game (`DslSupport.name`; the library's
#: in_round, in_step and acting read them): the round being played, the step of the operating turn under way
#: (none outside one), the company whose operating turn it is (none between turns), the entity that acts now
_ROUND_STATE = {**{name: (lambda field: lambda game: game.g[field])(field) for name, field in ROUND_FIELDS.items()},
                "operating_company": lambda game: (None if game.g["operating"] is None
                                                   else game._operator(game.g["operating"])),
                "acting_entity": lambda game: game.current_entity()}
#: the bare names of the game's collections of entities, each a list of the game's of that name (`DslSupport.name`)
_COLLECTIONS = frozenset({"players", "corporations", "privates", "minors", "bonds"})
#: the station-token counts a company's state keeps once one is met, none before (`vocabulary.TOKEN_COUNTS`)
_TOKEN_COUNTS = frozenset(TOKEN_COUNTS)


class _Record(dict):
    """A record of the title's data (`DslSupport.ability_records`): its fields as a dict, one it does not give none;
    reading one the rulespec leaves a gap stops play (RuleGap), as the engine's other reads of the data do."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def __getitem__(self, name: Any) -> Any:
        value = dict.get(self, name)  # (a field the record does not give: none)
        if value.__class__ is Gap:
            raise RuleGap(f"{self.what} {name}", value.reason, value.at)
        return value


#: no answer kept (`DslSupport.fixed_call`)
_NONE = object()


class _Same:
    """A value compared by identity (held, so that its id is not another's while it is kept)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return other.__class__ is _Same and other.value is self.value  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return id(self.value)


class _Reads:
    """The game as a DSL routine called by `DslSupport.fixed_call` sees it: each thing it reads is the game's,
    and noted. `fixed` stays true while the routine reads only what never changes during a game: the title's
    plain properties (`param` with no dimensions, of a value neither a table nor a gap, from the chosen
    option's `sets` or the title, as `param` reads it) and the names of the fixed holders (`name` of the
    bank, the pool, the IPO, ...). Anything else it reads (state, builtins, other properties) is the game's
    as ever, and makes its answer one not kept."""

    __slots__ = ("_game", "fixed")

    def __init__(self, game: Any) -> None:
        self._game = game
        self.fixed = True

    def param(self, name: str, **dims: Any) -> Any:
        game = self._game
        if dims:
            self.fixed = False
        else:
            value = game.option_sets.get(name, _NONE) if game.option_sets else _NONE
            if value is _NONE:
                value = game.DATA.properties.get(name, _NONE)
            if value is _NONE or isinstance(value, (Table, Gap)):
                self.fixed = False
        return game.param(name, **dims)

    def name(self, name: str) -> Any:
        if name not in _FIXED_NAMES:
            self.fixed = False
        return self._game.name(name)

    def item(self, coll: Any, key: Any) -> Any:
        return self._game.item(coll, key)  # (an element of what the routine holds: no read of the game)

    def __getattr__(self, attr: str) -> Any:
        self.fixed = False
        return getattr(self._game, attr)


class _StateReads(_Reads):
    """The game as a DSL routine called by `DslSupport.state_call` sees it: each thing it reads is the game's,
    and noted. `keepable` stays true while it reads only what `_Reads` counts fixed, a component's plain
    fields (`component_attr` of a value neither a table nor a gap), the game's collections of entities
    (`name`: which noted), declared amounts (`state_amount`: which noted) and the fields a corporation's state
    keeps (`attr` of a corporation of the game: which fields noted); anything else it reads or does makes it
    false. Such a routine answers the same again where each amount noted is the same object in the state
    (`state_put` sets a new one at every change, a rollback puts the old one back), each field noted has the
    same value for every corporation, and each collection noted is the same list of the same length."""

    __slots__ = ("states", "fields", "collections")

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.states: set[str] = set()
        self.fields: set[str] = set()
        self.collections: set[str] = set()

    def name(self, name: str) -> Any:
        if name in _COLLECTIONS:
            self.collections.add(name)
            return self._game.name(name)
        return super().name(name)

    def component_attr(self, kind: str, key: str, name: str) -> Any:
        if isinstance(self._game.DATA.component(kind, key).get(name), (Table, Gap)):
            self.fixed = False
        return self._game.component_attr(kind, key, name)

    def state_amount(self, name: str, *parts: Any) -> int:
        self.states.add(name)
        return self._game.state_amount(name, *parts)

    def attr(self, obj: Any, name: str) -> Any:
        game = self._game
        if obj.__class__ is Entity and obj.kind == "corporation" and name in game.corp[obj.id] \
                and game.among("corporations", obj):
            self.fields.add(name)
            self.collections.add("corporations")
        else:
            self.fixed = False
        return game.attr(obj, name)


class _HeldReads(HolderNotes, _Reads):
    """The game as a DSL routine called by `DslSupport.held_call` sees it: each thing it reads is the game's,
    and noted. `fixed` stays true while it reads only what `_Reads` counts fixed, the title's data of an entity
    that keeps no state in play (`attr` of a private, a player, ...: its fields and its abilities' records,
    never whether it is closed nor its cards) and of its abilities (`attr` of such a record), who holds each
    item it asks of (`b_holder_of`: each item's holder noted in `held`) and which of the game's collections
    an entity is in (`among`: each collection asked noted); anything else it reads or does makes it false.
    Such a routine answers the same again while each item noted has the same holder and each collection
    noted is the same list of the same length."""

    __slots__ = ("held", "collections")

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.held: dict[str, Any] = {}
        self.collections: set[str] = set()

    def attr(self, obj: Any, name: str) -> Any:
        if obj.__class__ is _Record:
            pass  # (an ability's record: the title's data, made once a game)
        elif obj.__class__ is not Entity or obj.kind in ("corporation", "minor") \
                or name in ("closed", "card_abilities", "certificates"):
            self.fixed = False
        return self._game.attr(obj, name)


class DslSupport:
    """The generated code's access to the game: calls, names, attributes, declared states, triggers."""

    def state_call(self, name: str, *args: Any) -> Any:
        """The DSL routine `name` called with `args`, its answers kept by what it read where it read only
        declared amounts, corporations' fields, the game's collections and what never changes (`_StateReads`),
        and given again for the same arguments while those are as they were (the library's
        `round_track_row_free`, asked of every par price's rows in every listing of a stock round, reads each
        corporation's `track_slot` and par price). The answers of each routine are kept for the last few
        states of what it reads."""
        return self.state_calls(name, (args,))[0]

    def state_calls(self, name: str, calls: Iterable[tuple]) -> list[Any]:
        """`state_call` of the routine `name` with each of `calls`' arguments, in this state: what it reads
        looked up once for them all."""
        kept_all = self.__dict__.get("_state_answers")
        if kept_all is None:
            kept_all = self.__dict__["_state_answers"] = {}
        kept = kept_all.get(name)
        if kept is _NONE:
            routine = self.ROUTINES[name]
            return [routine(self, *args) for args in calls]  # (it read more than that: called as ever)
        answers = None if kept is None else kept[1].get(self._state_reads_key(kept[0]))
        out = []
        for args in calls:
            found = _NONE if answers is None else answers.get(args, _NONE)
            if found is _NONE:
                found, answers = self._state_call_anew(name, args, kept_all)
            out.append(found)
        return out

    def _state_call_anew(self, name: str, args: tuple, kept_all: dict) -> tuple[Any, dict | None]:
        """`state_call`'s routine called through `_StateReads`: (its answer, the answers kept for this state
        of what it reads, this one among them; None where it read more than `_StateReads` keeps)."""
        reads = _StateReads(self)
        value = self.ROUTINES[name](reads, *args)
        if not reads.fixed:
            kept_all[name] = _NONE
            return value, None
        kept = kept_all.get(name)
        if kept is _NONE:
            return value, None  # (an earlier call of these read more: none is kept)
        if kept is not None and not (reads.states.issubset(kept[0][0]) and reads.fields.issubset(kept[0][1])
                                     and reads.collections.issubset(kept[0][2])):
            # (a call that read more than those before it, as a condition that stopped short before did not:
            # kept by all of it from now, the answers kept so far dropped)
            reads.states.update(kept[0][0])
            reads.fields.update(kept[0][1])
            reads.collections.update(kept[0][2])
            kept = None
        if kept is None:
            noted = (tuple(sorted(reads.states)), tuple(sorted(reads.fields)), tuple(sorted(reads.collections)))
            kept = kept_all[name] = (noted, {})
        by_key = kept[1]
        key = self._state_reads_key(kept[0])
        answers = by_key.get(key)
        if answers is None:
            if len(by_key) >= 16:
                by_key.clear()
            answers = by_key[key] = {}
        answers[args] = value
        return value, answers

    def _state_reads_key(self, noted: tuple) -> tuple:
        """What a routine `state_call` keeps read (its noted amounts, fields and collections), as a key: each
        amount's object in the state (by identity, `_Same`), each field's value for every corporation, each
        collection's list (by identity) and length."""
        states, fields, collections = noted
        g, corp = self.g, self.corp
        corps = self.corporations
        return (tuple([_Same(g.get(f"state:{n}")) for n in states]),
                tuple([tuple([corp[c.id].get(f) for c in corps]) for f in fields]),
                tuple([(_Same(getattr(self, n)), len(getattr(self, n))) for n in collections]))

    def fixed_call(self, name: str, *args: Any) -> Any:
        """The DSL routine `name` called with `args`, its answer kept for the game where the call read
        nothing that changes during play (`_Reads`: the title's plain properties and the fixed names, and
        its arguments), and given again for the same arguments (the library's `ipo_of(C)`, asked of each
        corporation in every listing of a stock round, reads only `capitalisation`)."""
        kept = self.__dict__.get("_fixed_answers")
        if kept is None:
            kept = self.__dict__["_fixed_answers"] = {}
        key = (name, *args)
        try:
            found = kept.get(key, _NONE)
        except TypeError:  # an argument that is no key: called as ever
            return self.ROUTINES[name](self, *args)
        if found is not _NONE:
            # (the answer, as a 1-tuple; None where the call read what changes: called as ever from then on)
            return self.ROUTINES[name](self, *args) if found is None else found[0]
        reads = _Reads(self)
        value = self.ROUTINES[name](reads, *args)
        kept[key] = (value,) if reads.fixed else None
        return value

    def held_call(self, name: str, *args: Any) -> Any:
        """The DSL routine `name` called with `args`, its answer kept where the call read only the title's data,
        who holds what and who is in which collection (`_HeldReads`), and given again for the same arguments
        while each item it asked the holder of has the same holder and each collection it asked is the same
        list of the same length (the library's marker_ability(X), asked of a private in every listing of an
        operating round, reads X's abilities and what kind of holder X has)."""
        kept = self.__dict__.get("_held_answers")
        if kept is None:
            kept = self.__dict__["_held_answers"] = {}
        key = (name, *args)
        try:
            found = kept.get(key, _NONE)
        except TypeError:  # an argument that is no key: called as ever
            return self.ROUTINES[name](self, *args)
        if found is None:
            return self.ROUTINES[name](self, *args)  # (it read more than that: called as ever)
        if found is not _NONE:
            value, items, holders, collections = found
            # (the holders compared as tuples are: the same object, or an equal one)
            if tuple(map(self.owner.get, items)) == holders:
                for n, members, count in collections:
                    if getattr(self, n) is not members or len(members) != count:
                        break
                else:
                    return value
        reads = _HeldReads(self)
        value = self.ROUTINES[name](reads, *args)
        kept[key] = (value, tuple(reads.held), tuple(reads.held.values()),
                     tuple((n, getattr(self, n), len(getattr(self, n))) for n in sorted(reads.collections))) \
            if reads.fixed else None
        return value

    def call(self, name: str, *args, **kwargs):
        """Call a DSL routine or a builtin by name."""
        routine = self.ROUTINES.get(name)
        if routine is not None:
            return routine(self, *args, **kwargs)
        builtin = getattr(self, f"b_{name}", None)
        if builtin is None:
            raise RuleGap(name, "no such routine or builtin in the runtime")
        return builtin(*args, **kwargs)

    def name(self, name: str):
        """A bare name: a title property, a component, or a builtin value."""
        fixed = _FIXED_NAMES.get(name)
        if fixed is not None:
            return fixed
        reader = _ROUND_STATE.get(name)
        if reader is not None:
            return reader(self)
        if name in _COLLECTIONS:
            return list(getattr(self, name))
        if name == "all_trains":
            return list(self.trains.values())
        if name == "phase_number":
            return self._phase_index(self.g["phase"]) + 1
        if name == "train_cards":
            return self.card_records("train")
        if name == "phases":
            return self.card_records("phase")
        if name == "markets":
            return self.card_records("market")
        if name == "market_cells":
            return self.market.records()
        if name == "all_ability_cards":
            kind = self.DATA.properties.get("ability_cards")
            return [] if kind is None else self.card_records(str(kind))
        if name in self.DATA.properties:
            return self.param(name)
        for kind in ("corporation", "private", "bond"):
            found = self.by_id.get((kind, name))
            if found is not None:
                return found
        return name  # an enum value or zone name stands for itself

    def card_records(self, kind: str) -> list[dict[str, Any]]:
        """The cards of `kind` (train, phase) as records, in the title's order: each its `key` (a phase also
        its `number`, its place from 1, as `phase_number` counts) and every parameter its kind declares (none where the card does not set it; one that may name several, as a
        list: `CARDS`). Made once a game: the title's data does not change in play."""
        made = self.__dict__.setdefault("_card_records", {})
        records = made.get(kind)
        if records is None:
            fields = self.CARDS.get(kind, ())
            records = made[kind] = []
            for number, comp in enumerate(self.DATA.components_of(kind), 1):
                record: dict[str, Any] = {"key": comp["key"]}
                if kind == "phase":
                    record["number"] = number  # its place in the order, which `phase_number` is read against
                for field_name, several in fields:
                    value = comp.get(field_name)
                    if several:
                        value = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
                    record[field_name] = value
                records.append(record)
        return list(records)

    def ability_records(self, entity: Entity) -> list[dict[str, Any]]:
        """`X.abilities` in the DSL: the abilities of `entity` (its `ability` clauses) as records, in the rulespec's
        order, each its `key`, every parameter the kind `ability` declares (none where the ability does not set it;
        one that may name several, as a list: `CARDS`) and any other field it gives; none for an entity without
        (a player). A value a table of player counts is read at this game's; reading a gap stops play (RuleGap).
        Made once for each entity: the title's data does not change in play."""
        made = self.__dict__.get("_ability_records")
        if made is None:
            made = self.__dict__["_ability_records"] = {}
        records = made.get((entity.kind, entity.id))
        if records is None:
            fields = self.CARDS.get("ability", ())
            records = made[(entity.kind, entity.id)] = []
            for child in entity.data.get("children") or ():
                if child.get("kind") != "ability":
                    continue
                record = _Record(what=f"{entity} ability {child.get('key')}")
                for field_name, several in fields:
                    record[field_name] = None
                for field_name, value in child.items():
                    if field_name in ("kind", "children"):
                        continue
                    if isinstance(value, Table):
                        value = self._value(value, f"{entity} ability {child.get('key')} {field_name}")
                    record[field_name] = value
                for field_name, several in fields:
                    value = dict.get(record, field_name)
                    if several and not isinstance(value, Gap):
                        record[field_name] = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
                records.append(record)
        return records

    def among(self, name: str, value: Any) -> bool:
        """`value in NAME` for one of the game's collections of entities (`players`, `corporations`,
        `privates`, `minors`, `bonds`): what `value in self.name(NAME)` answers, by a set of the collection
        (made when first asked, and again where the collection's list is replaced or grows; the players'
        seating may change, not who they are). A value no set can hold is looked for in the list."""
        sets = self.__dict__.get("_collection_sets")
        if sets is None:
            sets = self.__dict__["_collection_sets"] = {}
        members = getattr(self, name)
        known = sets.get(name)
        if known is None or known[0] is not members or known[1] != len(members):
            # (with the kinds of its members, where each is an entity: an entity of another kind equals none)
            kinds = frozenset(m.kind for m in members) if all(m.__class__ is Entity for m in members) else None
            known = sets[name] = (members, len(members), frozenset(members), kinds)
        if value.__class__ is Entity and known[3] is not None and value.kind not in known[3]:
            return False  # (a player's holding asked of the corporations, in every take-over check: no hash)
        try:
            return value in known[2]
        except TypeError:  # unhashable: as the list compares it
            return value in list(members)

    # -- declared states (`state NAME: set[...]`): kept in the round state `g`, so the journal undoes them

    @staticmethod
    def _state_key(value: Any) -> Any:
        # (`state_has` and `state_amount` read it inline: `_KEYED`)
        return value.id if isinstance(value, (Entity, Certificate)) else value

    def state_has(self, name: str, *parts: Any) -> bool:
        """`NAME(a, b)` of a declared state: whether (a, b) is in it."""
        return tuple([p.id if isinstance(p, _KEYED) else p for p in parts]) in self.g.get(f"state:{name}", frozenset())

    def state_set(self, name: str, parts: tuple, present: bool) -> None:
        """`set NAME(a, b) = present`: (a, b) put in the declared state, or taken out."""
        key = f"state:{name}"
        element = tuple(self._state_key(p) for p in parts)
        held = self.g.get(key, frozenset())
        if (element in held) != bool(present):
            self.j.set(self.g, key, held | {element} if present else held - {element})

    def state_amount(self, name: str, *parts: Any) -> int:
        """`NAME(a, b)` of a declared amount (`state NAME: map[..., int]`): its amount for (a, b), 0 where
        none was set."""
        # (`_state_key` inline, as `state_has` reads it: asked of every private in each bid's guards)
        return self.g.get(f"state:{name}", {}).get(tuple([p.id if isinstance(p, _KEYED) else p for p in parts]), 0)

    def state_put(self, name: str, parts: tuple, amount: int) -> None:
        """`set NAME(a, b) = x` of a declared amount: (a, b)'s amount becomes x (a new dict: the journal
        keeps the old one; in it, the elements in the order they were last set, none at 0)."""
        key = f"state:{name}"
        element = tuple(self._state_key(p) for p in parts)
        held = self.g.get(key, {})
        if held.get(element, 0) != amount:
            # an element set anew comes last, and one back at 0 is no longer held: the runtime's readers
            # that go through an amount in order (the standing bids, `standing_bid`) meet them as set
            rest = {k: v for k, v in held.items() if k != element}
            self.j.set(self.g, key, {**rest, element: amount} if amount else rest)

    def _reset_states(self, moment: str) -> None:
        """The declared states whose lifetime ends at `moment` (one of STATE_RESETS) are emptied (an
        amount's elements back to 0)."""
        g = self.g
        for key in self._state_keys_reset(moment):
            held = g.get(key)
            if held:
                self.j.set(g, key, {} if isinstance(held, dict) else () if isinstance(held, tuple) else frozenset())

    #: (the `STATES` table, a moment) -> the keys in `g` of the declared states reset then, in the table's order
    _RESET_KEYS: dict[tuple[int, str], tuple[dict, tuple[str, ...]]] = {}

    def _state_keys_reset(self, moment: str) -> tuple[str, ...]:
        """The keys in `g` of the declared states whose lifetime ends at `moment`, in `STATES`' order: a
        function of the title's states, kept for each (every stock turn resets some)."""
        states = self.STATES
        kept = self._RESET_KEYS.get((id(states), moment))
        if kept is None or kept[0] is not states:
            if len(self._RESET_KEYS) >= 1024:
                self._RESET_KEYS.clear()
            kept = self._RESET_KEYS[(id(states), moment)] = (
                states, tuple(f"state:{name}" for name, resets in states.items() if moment in resets))
        return kept[1]

    @staticmethod
    def item(coll: Any, key: Any) -> Any:
        """`xs[i]` and `record[field]` in a rule: the element, or a refusal where there is none (a position
        before the start or past the end of the list), as the model requires the position within the list
        (`Translator.index`): never a Python error out of the engine, nor a negative position read from the end."""
        if coll.__class__ is list or coll.__class__ is tuple:
            if key.__class__ is int and 0 <= key < len(coll):
                return coll[key]
            raise IllegalAction(f"there is no element {key} in a list of {len(coll)}")
        try:
            return coll[key]
        except (IndexError, KeyError, TypeError):
            raise IllegalAction(f"there is no element {key!r} in {coll!r}") from None

    # -- declared list states (`state NAME: list[...] max N`): a tuple in `g`, its elements in order, each
    # flat: an entity part as its kind and id, another part as it is (`("corporation", "B&O", "discard_train")`)

    @staticmethod
    def _list_element(parts: tuple) -> tuple:
        out: list = []
        for p in parts:
            if isinstance(p, Entity):
                out += (p.kind, p.id)
            else:
                out.append(p)
        return tuple(out)

    def list_first(self, name: str, parts: tuple) -> bool:
        """`NAME.first(a, b)`: whether (a, b) is the list's first element."""
        held = self.g.get(f"state:{name}", ())
        return bool(held) and held[0] == self._list_element(parts)

    def list_contains(self, name: str, parts: tuple) -> bool:
        """`NAME.contains(a, b)`: whether (a, b) is one of the list's elements."""
        return self._list_element(parts) in self.g.get(f"state:{name}", ())

    def list_first_for(self, name: str, parts: tuple) -> bool:
        """`NAME.first_for(a, b)`: whether the first element whose first part is a goes on with b."""
        key, whole = self._list_element(parts[:1]), self._list_element(parts)
        found = next((e for e in self.g.get(f"state:{name}", ()) if e[:len(key)] == key), None)
        return found is not None and found[:len(whole)] == whole

    def list_length(self, name: str, parts: tuple = ()) -> int:
        """`NAME.length()`: how many elements the list holds."""
        return len(self.g.get(f"state:{name}", ()))

    def list_append(self, name: str, parts: tuple) -> None:
        """`do NAME.append(a, b)`: (a, b) comes last (a new tuple: the journal keeps the old one)."""
        self.j.set(self.g, f"state:{name}", self.g.get(f"state:{name}", ()) + (self._list_element(parts),))

    def list_insert(self, name: str, parts: tuple) -> None:
        """`do NAME.insert(i, a, b)`: (a, b) comes before the element at place i (from 0); at a place past the
        end, last; before 0, first (a new tuple: the journal keeps the old one)."""
        held = self.g.get(f"state:{name}", ())
        at = min(max(int(parts[0]), 0), len(held))
        self.j.set(self.g, f"state:{name}", held[:at] + (self._list_element(parts[1:]),) + held[at:])

    def list_elements(self, name: str, parts: tuple = ()) -> list:
        """`NAME.elements()` of a list whose elements have one part: its elements in order, an entity as the
        entity (its kind and id in the list)."""
        out = []
        for element in self.g.get(f"state:{name}", ()):
            out.append(self.entity(element[0], element[1]) if len(element) == 2 else element[0])
        return out

    def list_remove(self, name: str, parts: tuple) -> None:
        """`do NAME.remove(a, b)`: the first element that is (a, b) leaves the list (none there: nothing)."""
        held = self.g.get(f"state:{name}", ())
        element = self._list_element(parts)
        if element in held:
            at = held.index(element)
            self.j.set(self.g, f"state:{name}", held[:at] + held[at + 1:])

    def list_pop(self, name: str, parts: tuple = ()) -> None:
        """`do NAME.pop()`: the first element leaves the list (an empty list stays empty)."""
        held = self.g.get(f"state:{name}", ())
        if held:
            self.j.set(self.g, f"state:{name}", held[1:])

    def attr(self, obj: Any, name: str):
        """`obj.name` in the DSL: an entity's state, then its static data (a corporation's `certificates`:
        its certificates in the order of its layout, the president's first; a company's `token_prices`:
        its charter's printed station prices, its `tokens` data, and `charter_tokens` how many; its `key`, its
        own symbol as a name, where a name in its data is read as the entity it names)."""
        if obj.__class__ is dict or obj.__class__ is _Record:
            return obj[name]  # (a record, a phase's, a train card's or an ability's: what the last branch below answers)
        if obj.__class__ is MarketCell:
            return obj[name]  # (a market cell: `C.cell.price`, the library's price(C); `c.zones` of `market_cells`)
        if isinstance(obj, Entity):
            if name == "certificates" and obj.kind == "corporation":
                return list(self.certs_of[obj.id])
            if name == "card_abilities":
                return self.card_ability_records(obj)
            if obj.kind in ("corporation", "minor"):
                state = self.corp[obj.id]
                if name in state:
                    if name == "cell":
                        cell = state["cell"]  # (its price token's cell, as a record: `Market.record`)
                        return None if cell is None else self.market.record(cell)
                    return state[name]
                if name == "started":
                    return state["par"] is not None  # (the library's started: it has a par price)
                if name in _TOKEN_COUNTS:
                    return 0  # (none yet: kept from the first)
                if name == "token_prices":
                    return list(self._value(obj.data.get("tokens"), f"corporation {obj} tokens"))
                if name == "charter_tokens":
                    return len(self._value(obj.data.get("tokens"), f"corporation {obj} tokens"))
            if name == "closed":
                return self.closed.get(obj.id, False)  # (a private's, a bond's: the library's closed(X))
            value = obj.data.get(name)
            if value is None:
                if name == "abilities":
                    return self.ability_records(obj)
                if name in obj.data:
                    return None  # (a parameter its kind declares none by default: `float: percent | none = none`)
                raise RuleGap(f"{obj.kind} {obj.id}.{name}", "the rulespec does not give it")
            if isinstance(value, (Gap, Table)):  # (a plain value is what it is: `resolve_value`)
                value = self._value(value, f"{obj.kind} {obj.id}.{name}")
            if value.__class__ is str:
                if name == "key":
                    return value  # (its own symbol, a name: `c.key == target`, a company named by an action)
                # the entity a key names (a bond's corporation): a function of the key, the game's entities
                # being made at setup, kept for the game
                named = self.__dict__.get("_named_entities")
                if named is None:
                    named = self.__dict__["_named_entities"] = {}
                found = named.get(value)
                if found is None:
                    found = named[value] = self._named_entity(value)
                return found
            if isinstance(value, str):
                return self._named_entity(value)
            return value
        if isinstance(obj, Certificate):
            # (each field read as asked: `c.president` in a filter over certificates, for every candidate)
            if name == "president":
                return obj.president
            if name == "percent":
                return obj.percent
            if name == "shares":
                return obj.shares
            if name == "corporation":
                return self.entity("corporation", obj.corporation)
            raise KeyError(name)
        if isinstance(obj, Train):
            if name == "price":
                return obj.price
            if name == "name":
                return obj.name
            value = self.DATA.component("train", obj.name).get(name)
            if value.__class__ is str:
                # (the corporation a train's `owner` names, as the model lifts it; a train's or a phase's name stays one)
                return self.by_id.get(("corporation", value), value)
            return value
        if isinstance(obj, dict):
            return obj[name]
        if obj is None:
            # a field of none: not there (as the model, which refuses it): a corporation's cell, and so its
            # price, before its price token is on the market
            raise IllegalAction(f"none has no {name}: not there yet"
                                + (" (no share price before a price token is on the market)" if name == "price" else ""))
        if name in SPOT_FIELDS and obj.__class__ is TokenSpot:
            return self.spot_field(obj, name)  # (the map's, for the company it was checked for)
        if name in HEX_FIELDS and obj.__class__ is str:
            return self.hex_field(obj, name)  # (the map's: a hex by its key, `C.home.color`)
        if dataclasses.is_dataclass(obj) and name in {f.name for f in dataclasses.fields(obj)}:
            return getattr(obj, name)  # a runtime value: a lay (`lay.upgrade`), a station spot
        raise RuleGap(f"{obj}.{name}", "no such attribute")

    def _named_entity(self, value: str) -> Any:
        """`attr`'s reading of a key in an entity's data: the corporation, private or player it names, else
        the key itself."""
        for kind in ("corporation", "private", "player"):
            found = self.by_id.get((kind, value))
            if found is not None:
                return found
        return value

    def component_attr(self, kind: str, key: str, name: str):
        """`key.name` in the DSL for a component that is no entity (1880's round track `main`): its field
        `name` from the title's data (read per player count where it is a table of them)."""
        value = self.DATA.component(kind, key).get(name)
        if value is None:
            raise RuleGap(f"{kind} {key}.{name}", "the rulespec does not give it")
        return self._value(value, f"{kind} {key}.{name}")

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Entity) and obj.kind in ("corporation", "minor"):
            if name == "cell":
                self._set_price_token(obj, value)
                return
            self.j.set(self.corp[obj.id], name, value)
            return
        if isinstance(obj, Entity) and obj.kind == "private" and name == "closed":
            self.j.set(self.closed, obj.id, value)  # (the library's close_private)
            return
        raise IllegalAction(f"cannot set {obj}.{name}")

    def _set_price_token(self, corp: Entity, value: Any) -> None:
        """`set C.cell = X`: C's price token onto the cell X (a market cell: the library's set_par and move_price;
        where it is on X already, it stays where it is in X's stack), or off the market where X is none (off its
        cell's stack, which keeps the order of the tokens on each cell)."""
        cell = self.corp[corp.id]["cell"]
        if value is not None:
            if value.__class__ is not MarketCell:
                raise IllegalAction(f"{corp}'s price token goes onto a market cell, not {value!r}")
            if value.cell != cell:
                self._place_token(corp, value.cell)
            return
        if cell is not None and corp.id in self.stacks.get(cell, []):
            self.j.remove(self.stacks[cell], corp.id)
        self.j.set(self.corp[corp.id], "cell", None)

    def emit(self, event: str, *args) -> None:
        if event == "president_changed" and len(args) == 3 and getattr(args[1], "kind", None) == "player":
            # the library's presidency exchange (exchange_presidency): the former president, handed
            # ordinary certificates, may end above the certificate limit where the title sanctions it
            self._sanction_former_president(args[1])
        elif event == "corporation_closed" and len(args) == 1:
            self._corporation_closed(args[0])  # (the library's close_corporation: the runtime's part)
        for when, body in self.TRIGGERS.get(event, []):
            if when is None or when(self, *args):
                body(self, *args)

